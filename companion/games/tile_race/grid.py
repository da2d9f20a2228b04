"""The tile race's square grid: squares, the edges walls stand on, seats, entries and exits.

Squares are named as on a chess board, column letter then row number (``A1`` is the corner on
the first player's left, ``G7`` the far right corner of a 7 x 7 grid). An edge - where a wall
stands - is named by the two squares it lies between, lower first: ``C5|C6``. Both forms are text
that parses back. Every pawn starts just outside the grid beside a corner square (its entry) and
leaves the grid from a corner of the opposite side (its exits); ``docs/rules-interpretations-tile-race.md``
says why the seats, entries and exits are where they are.

Pure: standard library only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from companion.errors import NotationError

COLOURS = ("red", "blue", "yellow", "green")  # seats clockwise; red plays first
SIZE = 7  # squares along a side (the rulebook does not say; see the interpretations)
MIN_SIZE, MAX_SIZE = 4, 12
LETTERS = "ABCDEFGHIJKL"
TILES = 40  # neutral tiles in the box: flat tiles, walls and tiles carried all come from them
OUT = "out"  # a movement's step off the grid, through an exit
START = "start"  # a pawn's place before it is brought onto the grid

# The side of the board each seat sits at, by number of players (clockwise from the first).
SIDES = {2: ("S", "N"), 3: ("S", "W", "N"), 4: ("S", "W", "N", "E")}
OPPOSITE = {"S": "N", "N": "S", "W": "E", "E": "W"}

_SQUARE = re.compile(r"^([A-L])([1-9][0-9]?)$")


def square(col: int, row: int) -> str:
    """The name of the square in column ``col`` and row ``row`` (both from 1)."""
    return f"{LETTERS[col - 1]}{row}"


@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def coords(name: str) -> tuple[int, int]:
    """Column and row of a square's name (NotationError for text that is not one)."""
    m = _SQUARE.match(name)
    if not m:
        raise NotationError(f"{name!r} is not a square (a column letter and a row number, e.g. C4)")
    return LETTERS.index(m.group(1)) + 1, int(m.group(2))


@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def on_grid(name: str, size: int) -> bool:
    """Is ``name`` a square of a grid ``size`` squares wide?"""
    m = _SQUARE.match(name)
    return m is not None and LETTERS.index(m.group(1)) < size and 1 <= int(m.group(2)) <= size


@functools.cache
def squares(size: int) -> tuple[str, ...]:
    return tuple(square(c, r) for r in range(1, size + 1) for c in range(1, size + 1))


@functools.cache
def neighbours(name: str, size: int) -> tuple[str, ...]:
    """The squares up, down, left and right of ``name`` (never diagonal), inside the grid."""
    c, r = coords(name)
    return tuple(square(c + dc, r + dr) for dc, dr in ((0, 1), (0, -1), (-1, 0), (1, 0))
                 if 1 <= c + dc <= size and 1 <= r + dr <= size)


@functools.cache
def corners(size: int) -> tuple[str, ...]:
    return (square(1, 1), square(size, 1), square(1, size), square(size, size))


# ------------------------------------------------------------------------------------------ edges
@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def edge(a: str, b: str) -> str:
    """The edge between two adjacent squares, named lower square first (so each edge has one name)."""
    (ca, ra), (cb, rb) = coords(a), coords(b)
    if abs(ca - cb) + abs(ra - rb) != 1:
        raise NotationError(f"{a} and {b} are not side by side: a wall stands between two squares that share a side")
    return f"{a}|{b}" if (ca, ra) < (cb, rb) else f"{b}|{a}"


def parse_edge(text: str) -> str:
    """``C5|C6`` (or ``C6|C5``) as its canonical name."""
    a, sep, b = text.partition("|")
    if not sep:
        raise NotationError(f"{text!r} is not an edge: name the two squares a wall stands between, e.g. C5|C6")
    return edge(a, b)


@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def ends(name: str) -> tuple[str, str]:
    a, _, b = name.partition("|")
    return a, b


@functools.cache
def edges(size: int) -> tuple[str, ...]:
    """Every edge between two squares of the grid (the grid's border is not an edge: no wall stands there)."""
    return tuple(edge(s, n) for s in squares(size) for n in neighbours(s, size) if coords(s) < coords(n))


# ------------------------------------------------------------------------------------------ seats
def players(count: int) -> tuple[str, ...]:
    if count not in SIDES:
        raise NotationError(f"the tile race is for 2 to 4 players, not {count}")
    return COLOURS[:count]


def pawns_of(colour: str) -> tuple[str, str]:
    return (f"{colour}-1", f"{colour}-2")


def colour_of(pawn: str) -> str:
    return pawn.rpartition("-")[0]


def side_of(colour: str, count: int) -> str:
    return SIDES[count][COLOURS.index(colour)]


@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def _side_corners(side: str, size: int) -> tuple[str, str]:
    """A side's two corners, left then right as seen by the player sitting there facing the grid."""
    n = size
    return {"S": (square(1, 1), square(n, 1)), "N": (square(n, n), square(1, n)),
            "W": (square(1, n), square(1, 1)), "E": (square(n, 1), square(n, n))}[side]


@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def entry(pawn: str, count: int, size: int) -> str:
    """The corner square a pawn steps onto from its start: ``-1`` at its player's left, ``-2`` at the right."""
    left, right = _side_corners(side_of(colour_of(pawn), count), size)
    return left if pawn.endswith("-1") else right


@functools.lru_cache(maxsize=4096)  # asked at every step a reading tries
def exits(pawn: str, count: int, size: int) -> tuple[str, ...]:
    """The corners ``pawn`` may leave the grid from: the two of the far side, or in a 2-player game the
    one diagonally across from its entry (the rulebook's crossing)."""
    far = _side_corners(OPPOSITE[side_of(colour_of(pawn), count)], size)
    if count == 2:
        c, r = coords(entry(pawn, count, size))
        return (square(size + 1 - c, size + 1 - r),)
    return tuple(sorted(far))


def connected(start: Iterable[str], size: int, blocked: frozenset[str] | set[str]) -> set[str]:
    """Every square reachable from ``start`` stepping sideways, never onto a ``blocked`` square."""
    seen = {s for s in start if s not in blocked}
    todo = list(seen)
    while todo:
        for n in neighbours(todo.pop(), size):
            if n not in seen and n not in blocked:
                seen.add(n)
                todo.append(n)
    return seen


def walk(path: str) -> Iterator[str]:
    """The squares of ``A1>A2>A3`` in order (``out`` allowed as the last)."""
    for part in path.split(">"):
        if part != OUT:
            coords(part)
        yield part
