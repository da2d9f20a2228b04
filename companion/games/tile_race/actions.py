"""The tile race's actions as values whose text reads back (``str(parse_action(t)) == t``).

A turn is several of them, as hands make it (``rules.py`` says when each is allowed): steps of one
pawn (``move``), then or before them the turn's one action (``tile``, ``wall``, ``remove``,
``mountain``), ``undo`` for a movement that can go no further, ``pass`` when no action is left.
Each names its player, so a log line says who did what and a stray one is refused.

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import NotationError
from companion.games.tile_race.grid import COLOURS, OUT, colour_of, coords, parse_edge, walk


@dataclass(frozen=True)
class Move:
    pawn: str
    path: tuple[str, ...]

    @property
    def colour(self) -> str:
        return colour_of(self.pawn)

    def __str__(self) -> str:
        return f"move {self.pawn} {'>'.join(self.path)}"


@dataclass(frozen=True)
class Tile:
    colour: str
    square: str

    def __str__(self) -> str:
        return f"tile {self.colour} {self.square}"


@dataclass(frozen=True)
class Wall:
    colour: str
    edge: str

    def __str__(self) -> str:
        return f"wall {self.colour} {self.edge}"


@dataclass(frozen=True)
class Remove:
    colour: str
    edge: str

    def __str__(self) -> str:
        return f"remove {self.colour} {self.edge}"


@dataclass(frozen=True)
class Mountain:
    colour: str
    square: str

    def __str__(self) -> str:
        return f"mountain {self.colour} {self.square}"


@dataclass(frozen=True)
class Undo:
    colour: str

    def __str__(self) -> str:
        return f"undo {self.colour}"


@dataclass(frozen=True)
class Pass:
    colour: str

    def __str__(self) -> str:
        return f"pass {self.colour}"


Action = Move | Tile | Wall | Remove | Mountain | Undo | Pass
Placing = Tile | Wall | Remove | Mountain
_FORMS = ("move PAWN SQUARE[>SQUARE...]", "tile COLOUR SQUARE", "wall COLOUR A|B", "remove COLOUR A|B",
          "mountain COLOUR SQUARE", "undo COLOUR", "pass COLOUR")


def parse_action(text: str) -> Action:
    """The text form back into an action (``str(parse_action(t)) == t`` for canonical text; an edge
    written higher square first is read as the same edge)."""
    words = text.split()
    verb = words[0] if words else ""
    if len(words) == 3 and verb == "move":
        pawn = words[1]
        colour, _, n = pawn.rpartition("-")
        if colour not in COLOURS or n not in ("1", "2"):
            raise NotationError(f"{text!r}: {pawn!r} is not a pawn (red-1, red-2, blue-1 ...)")
        path = tuple(walk(words[2]))
        if OUT in path[:-1]:
            raise NotationError(f"{text!r}: 'out' leaves the grid, so it can only be the last step")
        return Move(pawn, path)
    if len(words) == 2 and verb in ("undo", "pass") and words[1] in COLOURS:
        return Undo(words[1]) if verb == "undo" else Pass(words[1])
    if len(words) == 3 and words[1] in COLOURS:
        if verb in ("tile", "mountain"):
            coords(words[2])
            return Tile(words[1], words[2]) if verb == "tile" else Mountain(words[1], words[2])
        if verb in ("wall", "remove"):
            e = parse_edge(words[2])
            return Wall(words[1], e) if verb == "wall" else Remove(words[1], e)
    raise NotationError(f"{text!r}: write one of: {'; '.join(_FORMS)}")
