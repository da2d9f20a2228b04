"""How far one reading of a picture may look (the config's ``reading.positions`` and ``reading.depth``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """The bound of one reading: the positions looked at and the actions in one reading. A picture no
    play explains must be answered in a second or two on a Pi; a reading that reaches the bound says
    it gave up (the players record what happened as a correction) rather than searching on."""

    positions: int = 4000       # states reached before the reading gives up
    depth: int = 24             # actions in one reading (a long collect-and-drop movement and its action)

    def __post_init__(self) -> None:
        if self.positions < 1 or self.depth < 1:
            raise ValueError(f"a reading's budget must be at least one position and one action, "
                             f"not {self.positions} and {self.depth}")
