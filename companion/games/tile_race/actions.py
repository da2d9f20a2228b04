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
from companion.games.tile_race.grid import COLOURS, OUT, START, colour_of, coords, parse_edge, walk


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


@dataclass(frozen=True)
class Correct:
    """The table as the players say it is (the panel's correction): every pawn's place (a square,
    ``start`` or ``out-<corner>``) and the squares and edges holding tiles, walls and mountains.
    The tiles look alike, so places are all a correction needs to say; a mountain is its owner's colour,
    so it is written with its owner (``D4:red``; a bare square, as older logs have it: a mountain
    already there keeps its owner, a new one is the correcting player's)."""

    colour: str
    pawns: tuple[tuple[str, str], ...]
    tiles: tuple[str, ...] = ()
    walls: tuple[str, ...] = ()
    mountains: tuple[str, ...] = ()

    def __str__(self) -> str:
        def listed(names: tuple[str, ...]) -> str:
            return ",".join(names) or "-"

        return (f"correct {self.colour} {','.join(f'{p}@{w}' for p, w in self.pawns)} tiles={listed(self.tiles)} "
                f"walls={listed(self.walls)} mountains={listed(self.mountains)}")


Action = Move | Tile | Wall | Remove | Mountain | Undo | Pass | Correct
Placing = Tile | Wall | Remove | Mountain
_FORMS = ("move PAWN SQUARE[>SQUARE...]", "tile COLOUR SQUARE", "wall COLOUR A|B", "remove COLOUR A|B",
          "mountain COLOUR SQUARE", "undo COLOUR", "pass COLOUR",
          "correct COLOUR PAWN@PLACE,... tiles=SQUARE,... walls=A|B,... mountains=SQUARE:COLOUR,...")


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
    if len(words) == 6 and verb == "correct" and words[1] in COLOURS:
        return _correct(text, words)
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


def _correct(text: str, words: list[str]) -> Correct:
    pawns = []
    for part in words[2].split(","):
        pawn, at, where = part.partition("@")
        if not at or colour_of(pawn) not in COLOURS or pawn[-2:] not in ("-1", "-2"):
            raise NotationError(f"{text[:80]!r}: {part!r} is not PAWN@PLACE (red-1@C4, red-2@start, blue-1@out-A1)")
        if where != START and not where.startswith(OUT + "-"):
            coords(where)
        pawns.append((pawn, where))
    lists: dict[str, tuple[str, ...]] = {}
    for word, key in zip(words[3:], ("tiles", "walls", "mountains"), strict=True):
        name, eq, value = word.partition("=")
        if name != key or not eq:
            raise NotationError(f"{text[:80]!r}: expected {key}=... (a list, or - for none)")
        items = () if value == "-" else tuple(value.split(","))
        for item in items:
            square, colon, owner = item.partition(":")
            if key == "walls":
                parse_edge(item)
            elif colon and (key != "mountains" or owner not in COLOURS):
                raise NotationError(f"{text[:80]!r}: {item!r}: a mountain is SQUARE:COLOUR (D4:red), a tile a square")
            else:
                coords(square)
        lists[key] = tuple(sorted(parse_edge(i) for i in items)) if key == "walls" else tuple(sorted(items))
    return Correct(words[1], tuple(pawns), lists["tiles"], lists["walls"], lists["mountains"])
