"""The desert: mapboards of 3 x 4 spaces laid side by side at setup, any of them turned.

Each of the six mapboards is printed with 12 spaces in 3 rows of 4; some are rock (nothing ever
stands there) and three boards have one oasis. The text gives neither the grid nor the rocks; the
patterns below are the companion's reading (see ``docs/rules-interpretations-desert-survivors.md``).

At setup the players lay as many boards as there are groups in play, any way they like: an
arrangement says, for each board, the space its top left corner lies on and how far it is turned
clockwise (``4@E1/90``: board 4, its corner on E1, turned 90 degrees). Spaces of the whole desert
are named like a chess board read from the top: column letters A-Z from the left, rows 1.. from
the top. Boards must not overlap, must all touch (edges meeting, so the desert is one piece), and
half of them, rounded up, must have an oasis.

Pure: standard library only.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from companion.errors import AnswerError, NotationError
from companion.games.desert_survivors.pieces import oasis_boards_needed

ROWS, COLS = 3, 4
SAND, OASIS, ROCK = "sand", "oasis", "rock"
# Each board as printed (turn 0): '.' sand, 'O' oasis, 'R' rock; boards 1-3 have the oasis.
BOARDS: Mapping[int, tuple[str, ...]] = {
    1: ("R...", "..O.", "...."),
    2: ("....", ".O..", "...R"),
    3: ("..R.", "....", "O..."),
    4: (".R..", "....", "..R."),
    5: ("....", "R..R", "...."),
    6: ("...R", "....", "R..."),
}
TURNS = (0, 90, 180, 270)
MAX_COLUMNS = 26
_SPACE = re.compile(r"^([A-Z])([1-9][0-9]?)$")
_PLACED = re.compile(r"^([1-6])@([A-Z][1-9][0-9]?)(?:/(0|90|180|270))?$")


def space(x: int, y: int) -> str:
    """The name of the space in column ``x`` and row ``y`` (both from 0)."""
    return f"{chr(65 + x)}{y + 1}"


def coords(name: str) -> tuple[int, int]:
    m = _SPACE.match(name)
    if not m:
        raise NotationError(f"{name[:20]!r} is not a space of the desert (a column letter and a row: A1, E7)")
    return ord(m.group(1)) - 65, int(m.group(2)) - 1


def has_oasis(board: int) -> bool:
    return any("O" in row for row in BOARDS[board])


@dataclass(frozen=True)
class Placed:
    """One mapboard as laid: which board, the column and row of its top left corner, its turn."""

    board: int
    x: int
    y: int
    turn: int = 0

    def __str__(self) -> str:
        return f"{self.board}@{space(self.x, self.y)}" + (f"/{self.turn}" if self.turn else "")

    def cells(self) -> dict[tuple[int, int], str]:
        """Every space of the board where it lies: (x, y) -> sand, oasis or rock."""
        kinds = {".": SAND, "O": OASIS, "R": ROCK}
        out: dict[tuple[int, int], str] = {}
        for r, row in enumerate(turned(BOARDS[self.board], self.turn)):
            for c, mark in enumerate(row):
                out[(self.x + c, self.y + r)] = kinds[mark]
        return out


Arrangement = tuple[Placed, ...]


def turned(rows: tuple[str, ...], turn: int) -> tuple[str, ...]:
    """A printed pattern turned clockwise by ``turn`` degrees (a quarter turn: the left column, read
    from the bottom, becomes the top row)."""
    for _ in range(turn // 90):
        rows = tuple("".join(row[c] for row in reversed(rows)) for c in range(len(rows[0])))
    return rows


def arrangement_text(arrangement: Arrangement) -> str:
    return " ".join(str(p) for p in arrangement)


def parse_arrangement(text: str) -> Arrangement:
    """``"1@A1 4@E1/90 ..."`` back into boards as laid (the form :func:`arrangement_text` writes)."""
    placed = []
    for word in text.split():
        m = _PLACED.match(word)
        if not m:
            raise AnswerError(f"mapboards: {word[:30]!r} is not a mapboard as laid: its number 1-6, @, the space "
                              "of its top left corner, and /90, /180 or /270 when turned that far clockwise (4@E1/90)")
        x, y = coords(m.group(2))
        placed.append(Placed(int(m.group(1)), x, y, int(m.group(3) or 0)))
    return tuple(placed)


def default_arrangement(boards: int) -> Arrangement:
    """The beginner's desert: boards two abreast, as near a rectangle as they go, oases spread out."""
    oases = [b for b in BOARDS if has_oasis(b)][:oasis_boards_needed(boards)]
    plain = [b for b in BOARDS if not has_oasis(b)][:boards - len(oases)]
    order = [b for pair in zip(oases, plain + [0] * len(oases), strict=False) for b in pair if b][:boards]
    order += [b for b in oases + plain if b not in order]
    return tuple(Placed(b, COLS * (i % 2), ROWS * (i // 2)) for i, b in enumerate(order))


def random_arrangement(boards: int, seed: int) -> Arrangement:
    """A desert laid from the seed, as players lay one at the table: the boards needed (half with an
    oasis), each turned any way and set edge to edge beside one already laid. A pick the rules refuse
    (rocks cutting the desert in two) is laid again; the beginner's desert if none will do."""
    rng = random.Random(f"desert/{seed}")
    for _ in range(100):
        oases = rng.sample([b for b in BOARDS if has_oasis(b)], oasis_boards_needed(boards))
        chosen = oases + rng.sample([b for b in BOARDS if not has_oasis(b)], boards - len(oases))
        rng.shuffle(chosen)
        laid: list[tuple[Placed, int, int]] = []  # a board as laid, its width and height
        for board in chosen:
            turn = rng.choice(TURNS)
            w, h = (COLS, ROWS) if turn in (0, 180) else (ROWS, COLS)
            if not laid:
                laid.append((Placed(board, 0, 0, turn), w, h))
                continue
            near, nw, nh = rng.choice(laid)
            side = rng.choice("NSEW")
            x = near.x + nw if side == "E" else near.x - w if side == "W" else near.x + rng.randrange(-w + 1, nw)
            y = near.y + nh if side == "S" else near.y - h if side == "N" else near.y + rng.randrange(-h + 1, nh)
            if all(x >= o.x + ow or o.x >= x + w or y >= o.y + oh or o.y >= y + h for o, ow, oh in laid):
                laid.append((Placed(board, x, y, turn), w, h))
        if len(laid) < boards:
            continue
        left, top = min(p.x for p, _, _ in laid), min(p.y for p, _, _ in laid)
        arrangement = tuple(Placed(p.board, p.x - left, p.y - top, p.turn) for p, _, _ in laid)
        try:
            check_arrangement(arrangement, boards)
        except AnswerError:
            continue
        return arrangement
    return default_arrangement(boards)


def check_arrangement(arrangement: Arrangement, boards: int) -> None:
    """AnswerError naming what is wrong with a laid desert: the wrong number of boards, a board used
    twice, boards overlapping or not touching, too few or too many oases, off the named columns."""
    numbers = [p.board for p in arrangement]
    if len(numbers) != boards:
        raise AnswerError(f"mapboards: {len(numbers)} laid, but this game needs {boards} (one per group in play)")
    if len(set(numbers)) != len(numbers):
        raise AnswerError(f"mapboards: board {next(n for n in numbers if numbers.count(n) > 1)} is laid twice")
    oases = sum(has_oasis(n) for n in numbers)
    if oases != oasis_boards_needed(boards):
        raise AnswerError(f"mapboards: {oases} with an oasis, but half of the {boards} boards, rounded up, must "
                          f"have one: {oasis_boards_needed(boards)} (boards 1-3 have an oasis)")
    taken: dict[tuple[int, int], int] = {}
    for p in arrangement:
        for xy in p.cells():
            if xy[0] >= MAX_COLUMNS:
                raise AnswerError(f"mapboards: board {p.board} reaches past column Z")
            if xy in taken:
                raise AnswerError(f"mapboards: boards {taken[xy]} and {p.board} overlap on {space(*xy)}")
            taken[xy] = p.board
    reached, todo = {next(iter(taken))}, [next(iter(taken))]
    while todo:
        x, y = todo.pop()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in taken and nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    apart = sorted({taken[xy] for xy in taken if xy not in reached})
    if apart:
        raise AnswerError(f"mapboards: board {apart[0]} does not meet the others edge to edge: the desert must be "
                          "one piece")
    desert = build(arrangement)
    if len(_component(desert, next(iter(desert.kinds)))) != len(desert.kinds):
        raise AnswerError("mapboards: rocks cut the desert in two: every space must be reachable from every other")


@dataclass(frozen=True)
class Desert:
    """The laid desert: every space a piece can stand on (sand or oasis), the rocks, and which
    spaces are side by side (up, down, left, right: diagonals are not connected)."""

    kinds: Mapping[str, str]                   # space -> sand or oasis
    rocks: frozenset[str]
    neighbours: Mapping[str, tuple[str, ...]]

    def oases(self) -> tuple[str, ...]:
        return tuple(s for s, k in self.kinds.items() if k == OASIS)


@functools.lru_cache(maxsize=32)
def build(arrangement: Arrangement) -> Desert:
    cells: dict[tuple[int, int], str] = {}
    for p in arrangement:
        cells.update(p.cells())
    kinds = {space(x, y): k for (x, y), k in sorted(cells.items(), key=lambda i: (i[0][1], i[0][0])) if k != ROCK}
    rocks = frozenset(space(x, y) for (x, y), k in cells.items() if k == ROCK)
    near: dict[str, tuple[str, ...]] = {}
    for name in kinds:
        x, y = coords(name)
        near[name] = tuple(space(a, b) for a, b in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))
                           if a >= 0 and b >= 0 and cells.get((a, b), ROCK) != ROCK)
    return Desert(kinds, rocks, near)


def _component(desert: Desert, start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in desert.neighbours[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
