"""What the camera cannot see from where it is: a tall piece hides the flat ones behind it.

A wall stand's cap stands 40 mm up. Seen from a camera 80 cm above the board's middle, a piece
near the board's edge is seen along a slanted ray, and the column of a tall piece beside it (on
the side away from the camera's foot) can stand in that ray: the marker of the tile on the square
behind it is covered, though the tile lies there. A piece the game has on a place, missing from the
picture, that a tall piece the camera does see hides so from the camera's place is counted where the
game has it (:func:`out_of_sight`, used by :func:`companion.table.sync.strip` beside ``Game.hidden``): it
is neither read as moved nor as gone. Lifted off, it is read once the tall piece no longer hides it.

The geometry, all in board millimetres: the camera stands ``above_mm`` over its foot (the nadir).
Projected from the camera onto the height ``h`` of a low piece's marker, a tall piece (radius ``r``,
top ``H``) covers the discs round the points from where it stands to where its top appears, ``(D - h)
/ (D - z)`` of the way out from the nadir at each height ``z`` up to ``H``: a stadium whose far disc is
the largest. A marker any part of which lies inside it is taken as unseen (a marker with a corner
covered is not found). Plain Python: the rules core may not use the camera's libraries; the camera
(vision/) tells the session its place with each picture (:class:`Seen`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import Layout
from companion.games.base import unfaced

TOKEN_MM = 26.0  # a token's diameter, unless its piece's facts give its printed size ("size_mm")
TALLER_MM = 5.0  # a piece hides others only when its top stands this much above their markers
SPREAD_MM = 2.0  # how far a piece lies from its place's centre (off-centre, two side by side)


@dataclass(frozen=True)
class Viewpoint:
    """The camera's foot on the board (board mm) and its height above it (mm)."""

    nadir: tuple[float, float]
    above_mm: float


class Seen(dict[str, tuple[str, ...]]):
    """A settled picture (cell -> pieces) with the place it was taken from, when the camera knows it, and
    why the camera placed none of the pieces it found but could not read (``unread``: piece -> the
    detector's reason, "between-directions", "between-cells" ...): what the players can do about it."""

    viewpoint: Viewpoint | None = None
    unread: Mapping[str, str] = {}

    @classmethod
    def taken(cls, placement: Mapping[str, Sequence[str]], viewpoint: Viewpoint | None,
              unread: Mapping[str, str] | None = None) -> Seen:
        out = cls({c: tuple(ps) for c, ps in placement.items()})
        out.viewpoint = viewpoint
        out.unread = dict(unread or {})
        return out


def unread_of(picture: Any) -> Mapping[str, str]:
    """Why the camera placed none of the pieces of a picture it found but could not read ({}: none said)."""
    return dict(getattr(picture, "unread", None) or {})


def viewpoint_of(picture: Any) -> Viewpoint | None:
    """The place a picture was taken from (None: a picture from anywhere else, the panel's or a test's)."""
    return getattr(picture, "viewpoint", None)


def size_mm(layout: Layout, piece: str) -> tuple[float, bool]:
    """A piece's largest printed side (mm) and whether it lies flat as a sheet (never tall)."""
    look = layout.pieces.get(piece)
    size = look.facts.get("size_mm") if look is not None else None
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return float(max(size)), True
    if isinstance(size, (int, float)) and not isinstance(size, bool) and size > 0:
        return float(size), False
    return TOKEN_MM, False


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from ``p`` to the segment ``a``-``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def hides(layout: Layout, view: Viewpoint, tall: str, tall_at: tuple[float, float], low: str,
          low_at: tuple[float, float]) -> bool:
    """Whether the tall piece standing at ``tall_at`` may cover the marker of ``low`` lying at ``low_at``."""
    d, top, h = view.above_mm, layout.height_of(tall), layout.height_of(low)
    if size_mm(layout, tall)[1] or top < h + TALLER_MM or d <= top:
        return False
    scale = (d - h) / (d - top)
    nx, ny = view.nadir
    appears = (nx + (tall_at[0] - nx) * scale, ny + (tall_at[1] - ny) * scale)
    reach = size_mm(layout, tall)[0] / 2 * scale
    marker = layout.pieces[low].marker_mm if low in layout.pieces else layout.marker_mm
    return _to_segment(low_at, tall_at, appears) < reach + marker / math.sqrt(2) + SPREAD_MM


def _tall(layout: Layout, piece: str) -> bool:
    return layout.height_of(piece) >= layout.piece_height_mm + TALLER_MM and not size_mm(layout, piece)[1]


def tall_seen(layout: Layout, seen: Mapping[str, Sequence[str]]) -> bool:
    """Whether the picture shows a piece tall enough to hide another (most boards have none)."""
    return any(_tall(layout, unfaced(p)[0]) for ps in seen.values() for p in ps)


def out_of_sight(layout: Layout, view: Viewpoint | None, expected: Mapping[str, Sequence[str]],
                 seen: Mapping[str, Sequence[str]], alike: Mapping[str, str] | None = None,
                 counted: Mapping[str, Sequence[str]] | None = None) -> dict[str, str]:
    """Pieces the game has on a place (``expected``) that the picture (``seen``) lacks and a tall piece
    it shows on another place hides from the camera: piece -> its place, named as ``expected`` names
    it (with its facing). A look-alike piece (``alike``: piece -> its kind, see
    :func:`companion.table.sync.kinds`) is lacking when the picture shows fewer of its kind on that place,
    and hidden only while the picture shows fewer of its kind in all (``counted``: the picture as the
    rules count it, supplies left out) than the game has: one lacking here and come on another place
    was moved, not hidden."""
    if view is None:
        return {}
    cells, alike = layout.cells, alike or {}
    deficit: dict[str, int] = {}
    for picture, sign in ((expected, 1), (counted if counted is not None else seen, -1)):
        for p in (q for ps in picture.values() for q in ps):
            if p in alike:
                deficit[alike[p]] = deficit.get(alike[p], 0) + sign
    tall = [(p, cells[c].center_mm) for c, ps in seen.items() if c in cells for p in (unfaced(e)[0] for e in ps)
            if _tall(layout, p)]
    if not tall:
        return {}
    shown = {unfaced(p)[0] for ps in seen.values() for p in ps}
    out: dict[str, str] = {}
    for cell, pieces in expected.items():
        if cell not in cells:
            continue
        at = cells[cell].center_mm
        here = [alike.get(p) for p in seen.get(cell, ())]
        for entry in pieces:
            piece = unfaced(entry)[0]
            kind = alike.get(entry) or alike.get(piece)
            if kind is not None and kind in here:
                here.remove(kind)  # one of its kind is seen there
                continue
            if kind is not None and deficit.get(kind, 0) <= 0:
                continue  # as many of its kind are seen as the game has: this one was moved
            if kind is None and (piece in shown or entry in seen.get(cell, ())):
                continue
            if any(hides(layout, view, t, t_at, piece, at) for t, t_at in tall if t_at != at):
                out[entry] = cell
                if kind is not None:
                    deficit[kind] -= 1
    return out
