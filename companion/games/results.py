"""What the door's parts hand back besides states and actions: who won (:class:`Outcome`), a score
(:class:`ScoreReport`), a turn's time limit (:class:`TurnTimer`) and what the session adds to the
LEDs (:class:`TableStatus`). Said through :mod:`companion.games.base` too. Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Outcome:
    winners: tuple[str, ...]
    reason: str


@runtime_checkable
class ScoreReport(Protocol):
    def to_dict(self) -> dict[str, Any]: ...

    def lines(self) -> list[str]: ...


class WinnersOnly:
    """The score of a game that counts nothing but who won: what :meth:`Rules.score` gives by default."""

    def __init__(self, ended: Outcome | None) -> None:
        self.ended = ended

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.ended.winners) if self.ended else []}

    def lines(self) -> list[str]:
        if self.ended is None:
            return ["Nobody has won yet."]
        return [f"{', '.join(self.ended.winners) or 'Nobody'} won: {self.ended.reason}"]


@dataclass(frozen=True)
class TurnTimer:
    """A turn's time limit: ``key`` changes when a new turn begins. The LEDs and the panel call it a
    turn timer; ``label`` is the name the game's players know it by, shown on the Board page."""

    key: tuple[Any, ...]
    seconds: float
    on_expiry: str                      # the action the session takes when time runs out
    label: str = "Turn timer"           # shown beside the seconds left ("Hourglass")


@dataclass(frozen=True)
class TableStatus:
    """What the session adds to a game's LED scene: a waiting question, offending pieces."""

    waiting: bool = False               # the players are asked which reading happened
    offenders: tuple[str, ...] = ()     # out of sync: these pieces break a rule
    step: bool = False                  # a move is part-way on the table: calm, the players finish it
    to_move: tuple[str, ...] = ()       # with a step: the pieces still to move (whose owner moves next)
