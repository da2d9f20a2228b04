"""Game-level actions of The FOG as small values whose text form parses back.

Every change to a game goes through one of these, and its text is what the history keeps:

* ``draft <colour> <islander>`` - phase 1 pick;
* ``end-turn [reason]`` - the active colour ends its turn (reason: done, mp, button, panel, hourglass);
* ``correct <piece>:<from>><to> ...`` - a person moved pieces by hand (no MP, no rules checked);
  ``-`` as the target removes a piece from the board, ``-`` as the source puts one back.

Movements (``move ...``) are added by :mod:`companion.games.fog.movement`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import NotationError

if TYPE_CHECKING:  # movements are parsed by their own module, loaded when one is read
    from companion.games.fog.movement import MoveAction

END_REASONS = ("done", "mp", "button", "panel", "hourglass", "nobody-can-move")


@dataclass(frozen=True)
class Draft:
    colour: str
    islander: str

    def __str__(self) -> str:
        return f"draft {self.colour} {self.islander}"


@dataclass(frozen=True)
class EndTurn:
    reason: str = "done"

    def __str__(self) -> str:
        return "end-turn" if self.reason == "done" else f"end-turn {self.reason}"


@dataclass(frozen=True)
class Relocation:
    piece: str
    source: str  # cell id, or "-" when a piece comes back onto the board
    target: str  # cell id, or "-" when a piece is taken off the board

    def __str__(self) -> str:
        return f"{self.piece}:{self.source}>{self.target}"

    @classmethod
    def parse(cls, text: str) -> Relocation:
        piece, sep, rest = text.partition(":")
        source, sep2, target = rest.partition(">")
        if not (sep and sep2 and piece and source and target):
            raise NotationError(f"{text!r} is not piece:from>to")
        return cls(piece, source, target)


@dataclass(frozen=True)
class Correction:
    """Pieces moved by a person on the panel; recorded, not checked against the movement rules."""

    moves: tuple[Relocation, ...]

    def __str__(self) -> str:
        return "correct " + " ".join(str(m) for m in self.moves)


def parse_action(text: str) -> Draft | EndTurn | Correction | MoveAction:
    """Parse any action's text form; movements are delegated to the movement module."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action")
    verb = words[0]
    if verb == "draft" and len(words) == 3:
        return Draft(words[1], words[2])
    if verb == "end-turn" and len(words) <= 2:
        reason = words[1] if len(words) == 2 else "done"
        if reason not in END_REASONS:
            raise NotationError(f"end-turn reason {reason!r} is not one of {', '.join(END_REASONS)}")
        return EndTurn(reason)
    if verb == "correct" and len(words) >= 2:
        return Correction(tuple(Relocation.parse(w) for w in words[1:]))
    if verb == "move":
        from companion.games.fog.movement import MoveAction

        return MoveAction.parse(text)
    raise NotationError(f"cannot read action {text!r}")
