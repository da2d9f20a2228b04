"""The island's square grid, the way a character faces, and the two carrier pads beside it.

Squares are named as on a chess board seen from red's seat: column letter then row number, ``A1``
red's left corner, ``L12`` the far right one of the 12 x 12 island. Red sits south (row 1 is its
back edge), blue north (row 12). A facing is one of ``N E S W`` (north: towards row 12); a
character turns only a quarter to its left or right. Each player's carrier pad lies against its
own back edge, off the island: five places side by side (numbered 1-5 from its player's left),
its centre (place 3, the missile square) always against a square of that edge, so the pad's
track is the edge's columns and its position is the column its centre touches.
``docs/rules-interpretations-island-battle.md`` says why each of these is so.

Pure: standard library only.
"""

from __future__ import annotations

import functools
import re

from companion.errors import NotationError

SIZE = 12  # squares along a side: the publisher's island (the rulebook gives no size)
LETTERS = "ABCDEFGHIJKL"
PLAYERS = ("red", "blue")  # red sits south, blue north
FACINGS = ("N", "E", "S", "W")  # clockwise, so a right turn is one on
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
KINDS = {"s": ("soldier", 2), "j": ("jeep", 3), "t": ("tank", 4)}  # letter -> name, firing range
ARMY = (("s", 5), ("j", 3), ("t", 2))  # each player's ten characters (the text does not say: a reading)
BLOCKS = tuple(f"block-{n}" for n in range(1, 11))
LIVE = 6  # of the ten blocks, six are live and four safe
PAD_PLACES = 5
HOME_ROWS = 2  # a player's island characters start on the two rows nearest them

_SQUARE = re.compile(r"^([A-L])([1-9][0-9]?)$")


def square(col: int, row: int) -> str:
    """The name of the square in column ``col`` and row ``row`` (both from 1)."""
    return f"{LETTERS[col - 1]}{row}"


def coords(name: str) -> tuple[int, int]:
    """Column and row of a square's name (NotationError for text that is not one)."""
    m = _SQUARE.match(name)
    if not m:
        raise NotationError(f"{name!r} is not a square (a column letter and a row number, e.g. C4)")
    return LETTERS.index(m.group(1)) + 1, int(m.group(2))


def on_island(name: str, size: int = SIZE) -> bool:
    m = _SQUARE.match(name)
    return m is not None and LETTERS.index(m.group(1)) < size and 1 <= int(m.group(2)) <= size


@functools.cache
def squares(size: int = SIZE) -> tuple[str, ...]:
    return tuple(square(c, r) for r in range(1, size + 1) for c in range(1, size + 1))


def ahead(name: str, facing: str, steps: int, size: int = SIZE) -> str | None:
    """The square ``steps`` squares straight ahead of ``name`` facing ``facing`` (None: off the island)."""
    c, r = coords(name)
    dc, dr = STEP[facing]
    c, r = c + dc * steps, r + dr * steps
    return square(c, r) if 1 <= c <= size and 1 <= r <= size else None


def line(name: str, facing: str, steps: int, size: int = SIZE) -> tuple[str, ...]:
    """The squares 1..``steps`` ahead, in order, stopping at the island's edge."""
    out = []
    for n in range(1, steps + 1):
        sq = ahead(name, facing, n, size)
        if sq is None:
            break
        out.append(sq)
    return tuple(out)


@functools.cache
def around(name: str, size: int = SIZE) -> tuple[str, ...]:
    """The (up to) eight squares touching ``name``, diagonals included: where a live block's blast reaches."""
    c, r = coords(name)
    return tuple(square(c + dc, r + dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dc or dr) and 1 <= c + dc <= size and 1 <= r + dr <= size)


def turned(facing: str, side: str) -> str:
    """The facing after a quarter turn to the ``L``eft or ``R``ight."""
    return FACINGS[(FACINGS.index(facing) + (1 if side == "R" else -1)) % 4]


def sides(facing: str) -> tuple[str, str]:
    """The two facings one quarter turn from ``facing`` (left, right)."""
    return turned(facing, "L"), turned(facing, "R")


def parse_facing(text: str) -> str:
    if text not in FACINGS:
        raise NotationError(f"{text!r} is not a facing: write N, E, S or W (N points to row 12)")
    return text


# ------------------------------------------------------------------------------------------ pieces
def characters(player: str) -> tuple[str, ...]:
    """A player's ten characters: ``red-s1``..``red-s5`` soldiers, ``red-j1``.. jeeps, ``red-t1``.. tanks."""
    return tuple(f"{player}-{k}{n}" for k, count in ARMY for n in range(1, count + 1))


ALL_CHARACTERS = tuple(c for p in PLAYERS for c in characters(p))


def owner(character: str) -> str:
    return character.partition("-")[0]


def kind(character: str) -> str:
    """``soldier``, ``jeep`` or ``tank``."""
    return KINDS[character.partition("-")[2][0]][0]


def reach(character: str) -> int:
    """The exact distance a character's shot hits at: soldier 2, jeep 3, tank 4."""
    return KINDS[character.partition("-")[2][0]][1]


def opponent(player: str) -> str:
    return PLAYERS[1 - PLAYERS.index(player)]


def home_rows(player: str, size: int = SIZE) -> tuple[int, ...]:
    """The rows nearest a player: where their island characters start."""
    return tuple(range(1, HOME_ROWS + 1)) if player == PLAYERS[0] else tuple(range(size - HOME_ROWS + 1, size + 1))


def forward(player: str) -> str:
    """The way a player's characters face as they come off the pad onto the island."""
    return "N" if player == PLAYERS[0] else "S"


# ------------------------------------------------------------------------------------------ the pads
def pad_start(player: str, size: int = SIZE) -> int:
    """A pad's first position: against the first five squares from its player's left, centre on the third."""
    return 3 if player == PLAYERS[0] else size - 2


def pad_track(size: int = SIZE) -> tuple[int, ...]:
    """The columns a pad's centre may touch: every square of its back edge, never round a corner."""
    return tuple(range(1, size + 1))


def pad_column(player: str, centre: int, place: int) -> int:
    """The column a pad place lines up with, the pad's centre on ``centre`` (may be off the island)."""
    offset = place - (PAD_PLACES + 1) // 2
    return centre + offset if player == PLAYERS[0] else centre - offset


def pad_entry(player: str, centre: int, place: int, size: int = SIZE) -> str | None:
    """The island square straight in front of a pad place (None: that place hangs past the corner)."""
    col = pad_column(player, centre, place)
    if not 1 <= col <= size:
        return None
    return square(col, 1 if player == PLAYERS[0] else size)
