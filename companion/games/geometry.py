"""Where things are on a board: cells, pieces, edges, tracks, a game's layout and a print's fit.

Split from :mod:`companion.games.base` (which re-exports every name here, so ``from
companion.games.base import Layout`` still works) because the door's geometry is read by the
camera, the drawings and the board files, not by the rules: a change to a cell's outline should
not need the whole door open. Pure values, no I/O beyond a board file a game names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

RGB = tuple[int, int, int]
Point = tuple[float, float]
Placement = Mapping[str, Sequence[str]]
# A piece whose facing the layout reads (Piece.facing) is named in a picture with the way it faces:
# ``red-s1^N``; a piece with a marker on each face (Piece.faces) with the face that shows:
# ``red-3^back``. Games without such pieces never see the mark, so their pictures are as before.
FACED = "^"


def faced(piece: str, way: str | None) -> str:
    """A piece as a picture names it: with the way it faces, when that is known."""
    return f"{piece}{FACED}{way}" if way else piece


def unfaced(entry: str) -> tuple[str, str | None]:
    """A picture's entry split into the piece and the way it faces (None: no facing read)."""
    piece, mark, way = entry.partition(FACED)
    return piece, (way if mark else None)


# ------------------------------------------------------------------------------------------ geometry
@dataclass(frozen=True)
class Cell:
    """A place a piece can stand: a hex, a square, a track space, a card spot, a boat place."""

    id: str
    kind: str                             # the game's word for it ("beach", "pier", "track", ...)
    center_mm: Point
    outline: tuple[Point, ...] = ()       # polygon in board millimetres (empty: a point)
    label: str = ""
    group: str | None = None              # a row, a region, a track the cell belongs to
    fill: RGB | None = None               # how a drawing paints it (None: not filled)
    line: RGB | None = None               # its outline's colour (None: no outline)
    standable: bool = True                # False: printed, but no piece ever stands there (woods)
    facts: Mapping[str, Any] = field(default_factory=dict)  # game facts a panel may show (JSON-able);
    #                                     "pile": pieces laid here cover the one before (played cards);
    #                                     "stack": pieces sharing it stand on each other (the top one shows)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "x": self.center_mm[0], "y": self.center_mm[1],
                "outline": [[round(x, 2), round(y, 2)] for x, y in self.outline], "label": self.label,
                "group": self.group, "fill": _hex(self.fill), "line": _hex(self.line), "standable": self.standable,
                **dict(self.facts)}


@dataclass(frozen=True)
class Piece:
    """A physical piece: its marker, how large the printed marker is, how it looks."""

    id: str
    marker: int
    marker_mm: float
    kind: str = "piece"
    label: str = ""
    colour: RGB | None = None
    facing: bool = False                  # does the way it points matter to the rules?
    facts: Mapping[str, Any] = field(default_factory=dict)
    # A piece with a marker on each face (a disc face up or down, a die): the face's name -> its
    # marker; ``marker`` is one of them. The camera reads which face shows from which marker it sees
    # and a picture names the piece with it, as a facing piece with its way (``faced``): a flip is a
    # change like a turn. A piece has faces or a facing, not both. Empty: one marker, one face. A
    # fact ``laid`` names the face up as hands bring it to the table (the simulated table's page).
    faces: Mapping[str, int] = field(default_factory=dict)
    # How far above the board its marker sits (a pawn's top, a wall stand's cap); None: the layout's
    # piece_height_mm. The camera sees a tall piece's marker shifted away from under it, and the
    # detector moves it back by this height (vision/camera_place.py).
    height_mm: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "marker": self.marker, "kind": self.kind, "label": self.label,
                "colour": _hex(self.colour), "facing": self.facing, **({"faces": list(self.faces)} if self.faces else {}),
                **dict(self.facts)}

    @property
    def markers(self) -> tuple[int, ...]:
        """Every marker the piece carries: one per face, or its one marker."""
        return tuple(self.faces.values()) or (self.marker,)


@dataclass(frozen=True)
class Edge:
    """Two cells a piece can stand between, or step across (``kind``: the game's word)."""

    a: str
    b: str
    kind: str = "adjacent"


@dataclass(frozen=True)
class Track:
    """A printed track whose position a game value gives (a FOG track, a score track, a round track)."""

    id: str
    label: str
    spaces: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    """A board's geometry in millimetres: all the camera and a drawing need, and nothing of the rules."""

    name: str
    size_mm: Point
    marker_dictionary: str
    fiducials: tuple[Mapping[str, Any], ...]   # {"id", "center_mm": [x, y], "size_mm"}
    cells: Mapping[str, Cell]
    pieces: Mapping[str, Piece]
    marker_mm: float                           # the usual piece marker's side
    snap_mm: float                             # a piece this near a cell centre stands on it
    piece_height_mm: float = 0.0               # markers sit this far above the board
    special_markers: Mapping[str, int] = field(default_factory=dict)  # e.g. a turn marker
    edges: tuple[Edge, ...] = ()
    tracks: tuple[Track, ...] = ()
    colours: Mapping[str, RGB] = field(default_factory=dict)          # player colours by name
    # The ways a piece with Piece.facing may face: name -> the marker's angle on the board when the
    # piece faces so (degrees counter-clockwise from the board's x axis, seen from above; 0: the
    # marker upright as the board is drawn). A marker this many degrees or fewer off one is read so;
    # farther off it is turned between two ways and not read, like a piece between two cells.
    facings: Mapping[str, float] = field(default_factory=dict)
    facing_tolerance_deg: float = 30.0
    facing_on: tuple[str, ...] = ()  # the kinds of cell where the way counts (empty: every cell)

    @property
    def marker_to_piece(self) -> dict[int, str]:
        """Every piece marker -> its piece (each face's marker names the same piece)."""
        return {m: p.id for p in self.pieces.values() for m in p.markers}

    @property
    def marker_face(self) -> dict[int, str]:
        """The marker of each face of a piece with faces -> the face it shows (Piece.faces)."""
        return {m: face for p in self.pieces.values() for face, m in p.faces.items()}

    def height_of(self, piece: str) -> float:
        """How far above the board a piece's marker sits: its own height, else the board's token height."""
        own = self.pieces[piece].height_mm if piece in self.pieces else None
        return self.piece_height_mm if own is None else own

    def marker_size(self, marker: int) -> float:
        for piece in self.pieces.values():
            if marker in piece.markers:
                return piece.marker_mm
        return self.marker_mm

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "size_mm": list(self.size_mm),
                "cells": [c.to_json() for c in self.cells.values()],
                "pieces": {p.id: p.to_json() for p in self.pieces.values()},
                "edges": [[e.a, e.b, e.kind] for e in self.edges],
                "tracks": [{"id": t.id, "label": t.label, "spaces": list(t.spaces)} for t in self.tracks],
                "colours": {k: _hex(v) for k, v in self.colours.items()},
                "special_markers": dict(self.special_markers), "facings": dict(self.facings)}


@dataclass(frozen=True)
class BoardFit:
    """A printed board measured against its board file (``fog-companion fit-board``): every place of
    the file moved by one affine map (the print's scale, shear and offset against the file), and the
    corner markers where they were found glued. A game writes it as a board file of its own kind."""

    transform: tuple[float, float, float, float, float, float]  # x' = a x + b y + c, y' = d x + e y + f
    fiducials: Mapping[int, Point]  # marker id -> centre, printed millimetres

    def apply(self, point: Point) -> Point:
        a, b, c, d, e, f = self.transform
        x, y = point
        return (a * x + b * y + c, d * x + e * y + f)

    def unapply(self, point: Point) -> Point:
        """Printed millimetres -> the file's millimetres (the inverse of :meth:`apply`)."""
        a, b, c, d, e, f = self.transform
        det = a * e - b * d
        x, y = point[0] - c, point[1] - f
        return ((e * x - b * y) / det, (-d * x + a * y) / det)

    @property
    def scale(self) -> float:
        """How much larger the print is than the file (a length ratio)."""
        a, b, _, d, e, _ = self.transform
        return math.sqrt(abs(a * e - b * d))


def packaged_or_file(package: str, folder: str, ref: str, error: type[Exception], what: str = "board"
                     ) -> tuple[str, str]:
    """The text of a file shipped in ``package``/``folder`` (by name) or of a file (by path: anything
    with '/' or ending in '.toml'), and where it came from; ``error`` names what cannot be read."""
    from importlib import resources
    from pathlib import Path

    if "/" in ref or ref.endswith(".toml"):
        path = Path(ref)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise error(f"cannot read {what} file {path}: {exc.strerror or exc}") from None
    item = resources.files(package) / folder / f"{ref}.toml"
    if not item.is_file():
        raise error(f"no packaged {what} named {ref!r}")
    return item.read_text(encoding="utf-8"), f"package:{ref}"


_LAYOUTS: dict[int, tuple[Any, Layout]] = {}


def layout_once(source: Any, build: Any) -> Layout:
    """``build(source)``, made once per (immutable) board object: every frame and page asks for it."""
    cached = _LAYOUTS.get(id(source))
    if cached is not None and cached[0] is source:
        return cached[1]
    built = build(source)
    _LAYOUTS[id(source)] = (source, built)
    return built


def polygon(center: Point, radius: float, corners: int, turn_deg: float = 0.0) -> tuple[Point, ...]:
    """A regular polygon's outline (a pointy-top hex is ``corners=6, turn_deg=30``)."""
    cx, cy = center
    return tuple((round(cx + radius * math.cos(math.radians(360 * k / corners + turn_deg)), 2),
                  round(cy + radius * math.sin(math.radians(360 * k / corners + turn_deg)), 2))
                 for k in range(corners))


def _hex(rgb: RGB | None) -> str | None:
    return None if rgb is None else "#%02x%02x%02x" % tuple(rgb)
