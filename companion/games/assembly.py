"""A board the players assemble at setup from printed parts, which the camera reads (the door's values).

Some games have no one printed board: the players lay parts side by side at setup, any of them
turned, and the game is played on what they laid. Such a game declares an :class:`Assembly`
(:meth:`~companion.games.base.Game.assembly`): each part's size in cells of one grid and the
markers printed on it (its corner markers), and how a reading becomes the answer to its setup
question. The camera (``vision/assembly.py``) finds where each part lies and how it is turned,
snapped to whole cells of a common grid, and the game turns that into its own words and checks it
with its rules; the Setup page offers "Read from the table" for the question the assembly answers
(a ``text`` question with ``read_from_table: true``).

A reading is relative: the parts lie on the table, not on a printed frame, so a whole assembly
turned a quarter is the same assembly. :func:`canonical` gives one form of it for comparing.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

TURNS = (0, 90, 180, 270)


@dataclass(frozen=True)
class Part:
    """One printed part: its name, its size in cells as printed (columns, rows), and each marker
    printed on it, upright, with its centre in millimetres from the part's printed top left corner."""

    id: str
    cells: tuple[int, int]
    markers: tuple[tuple[int, float, float], ...]   # (marker id, x mm, y mm)


@dataclass(frozen=True)
class Laid:
    """One part as laid: the column and row of its top left cell on the common grid (the assembly's
    top left at 0, 0) and how far it is turned clockwise (0, 90, 180 or 270 degrees)."""

    part: str
    x: int
    y: int
    turn: int = 0


@dataclass(frozen=True)
class Assembly:
    """What the camera needs to read a board laid at setup, and what the game makes of a reading.

    ``answer(laid)`` is the setup answer for the parts as read (the game's own text form);
    ``check(answer, players)`` raises :class:`~companion.errors.AnswerError` with what the rules
    refuse in it for that many players (too few parts, a kind of part missing): the Setup page
    shows both, so the players see what the camera read and what to change on the table. ``noun``
    is what the players call a part ("tile", "board"): the camera's words name a part ``f"{noun} {id}"``."""

    question: str                   # the setup question (a ``text`` one) a reading answers
    noun: str
    marker_dictionary: str
    cell_mm: float                  # a cell's side: parts meet on a grid of these
    marker_mm: float                # the printed markers' side
    parts: tuple[Part, ...]
    answer: Callable[[tuple[Laid, ...]], str] = field(compare=False, repr=False)
    check: Callable[[str, int], None] = field(compare=False, repr=False)

    def part(self, part_id: str) -> Part:
        return next(p for p in self.parts if p.id == part_id)

    def size(self, laid: Laid) -> tuple[int, int]:
        """The cells a laid part covers (columns, rows): a quarter turn swaps them."""
        w, h = self.part(laid.part).cells
        return (h, w) if laid.turn in (90, 270) else (w, h)


def to_origin(assembly: Assembly, laid: Sequence[Laid]) -> tuple[Laid, ...]:
    """The same parts moved so the leftmost column and the top row are 0."""
    if not laid:
        return ()
    left, top = min(p.x for p in laid), min(p.y for p in laid)
    return tuple(Laid(p.part, p.x - left, p.y - top, p.turn) for p in laid)


def turned_whole(assembly: Assembly, laid: Sequence[Laid], quarters: int) -> tuple[Laid, ...]:
    """The whole assembly turned ``quarters`` quarter turns clockwise (and moved to the origin): a
    cell (x, y) goes to (-y, x), so a part's footprint's top left becomes (-(y + rows), x)."""
    out = tuple(laid)
    for _ in range(quarters % 4):
        out = tuple(Laid(p.part, -(p.y + assembly.size(p)[1]), p.x, (p.turn + 90) % 360) for p in out)
    return to_origin(assembly, out)


def canonical(assembly: Assembly, laid: Sequence[Laid]) -> tuple[Laid, ...]:
    """One form of an assembly, whichever way round it was read: turned as a whole so the first part
    of the declaration that is laid is unturned, at the origin, the parts in the declaration's order."""
    if not laid:
        return ()
    order = [p.id for p in assembly.parts]
    first = min(laid, key=lambda p: order.index(p.part))
    whole = turned_whole(assembly, laid, (360 - first.turn) // 90)
    return tuple(sorted(whole, key=lambda p: order.index(p.part)))
