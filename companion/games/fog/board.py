"""The FOG's board as data: cells, adjacency, rows, boats, FOG track, pieces and turn boards.

The printed board's exact geometry is not in the rulebook, so everything the engine and the
camera need is read from a TOML file (``boards/standard.toml``) that a user can copy and edit to
match their own board. This module loads and validates that file once into immutable objects;
the rules never hard-code a row width, a boat place or a marker id.

Hex coordinates are axial (q, r), pointy-top hexes, r growing *away* from the boats: a step to
a smaller r is "forwards" (towards the boats), the same r is "sideways", a larger r "backwards".
"""

from __future__ import annotations

import math
import re

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import BoardFileError
from companion.games.fog.board_file import MAX_MARKER_ID, MAX_MM, Reader as _Reader, check_keys as _check_keys

NATIONS: tuple[str, ...] = ("blue", "green", "red")
ISLANDER_TYPES: tuple[str, ...] = ("leader", "elder", "warrior", "sailor", "commoner")
CHARACTERISTICS: tuple[str, ...] = ("push", "jump", "cross", "squeeze", "all-rounder", "endurance")
CELL_KINDS: tuple[str, ...] = ("beach", "woods", "shore", "pier", "boat")
OBSTACLE_KINDS: tuple[str, ...] = ("rock", "driftwood", "bush")
AREAS: tuple[str, ...] = ("A", "B", "C", "D")

# Axial directions of a pointy-top hex grid, named as a player sees the board (boats at the top).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "E": (1, 0),
    "W": (-1, 0),
    "NE": (1, -1),
    "NW": (0, -1),
    "SE": (0, 1),
    "SW": (-1, 1),
}
FORWARD: frozenset[str] = frozenset({"NE", "NW"})
SIDEWAYS: frozenset[str] = frozenset({"E", "W"})
BACKWARD: frozenset[str] = frozenset({"SE", "SW"})


@dataclass(frozen=True)
class Cell:
    """One field of the board: a beach hex, a woods hex, a shore hex, a pier field or a boat place."""

    id: str
    kind: str
    center_mm: tuple[float, float]
    row: str | None = None
    q: int | None = None
    r: int | None = None
    pier: str | None = None
    boat: str | None = None
    area: str | None = None
    side: str | None = None
    place: str | None = None  # "productive" or "stern" for boat places
    islander_type: str | None = None
    capacity: int = 1

    @property
    def is_water(self) -> bool:
        """Shore, piers and boats form the water area, where every step costs 1 MP."""
        return self.kind in ("shore", "pier", "boat")

    @property
    def axial(self) -> tuple[int, int] | None:
        return None if self.q is None or self.r is None else (self.q, self.r)


@dataclass(frozen=True)
class Islander:
    """An islander token: nation (boat colour), type and the characteristic printed beneath it."""

    id: str
    nation: str
    type: str
    characteristic: str
    marker: int


@dataclass(frozen=True)
class Obstacle:
    """A rock, driftwood or bush token; the kinds differ only in their picture."""

    id: str
    kind: str
    marker: int


@dataclass(frozen=True)
class Row:
    """A beach row (A-J) or the shore: setup numbers and the RP lost per swallowed islander."""

    id: str
    obstacles: int
    empty: Mapping[str, int]
    lost_rp: int

    def empty_for(self, players: int | str) -> int:
        """Empty hexes at setup for a player count ("solo" and unknown counts use the default)."""
        return self.empty.get(str(players), self.empty["default"])


@dataclass(frozen=True)
class FogField:
    label: str
    swallows: tuple[str, ...]


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    kind: str


@dataclass(frozen=True)
class Board:
    """A validated board file. Build it with :meth:`load` or :meth:`standard`."""

    name: str
    source: str
    hex_size_mm: float
    size_mm: tuple[float, float]
    marker_dictionary: str
    islander_marker_mm: float
    obstacle_marker_mm: float
    token_height_mm: float
    mp_per_turn: int
    fiducials: tuple[dict[str, Any], ...]
    rows: dict[str, Row]
    cells: dict[str, Cell]
    links: tuple[Link, ...]
    boat_order: tuple[str, ...]
    min_crew: dict[str, int]
    preparation_bonus: dict[str, tuple[int, ...]]
    scoring_tokens: tuple[tuple[int, int], ...]
    fog_fields: tuple[FogField, ...]
    fog_start: dict[str, str]
    turn_boards: dict[str, int]
    player_colours: tuple[str, ...]
    rgb: dict[str, tuple[int, int, int]]
    special_markers: dict[str, int]
    islanders: dict[str, Islander]
    obstacles: dict[str, Obstacle]
    removed_3p: tuple[str, ...]
    _neighbours: dict[str, frozenset[str]] = field(repr=False, compare=False, default_factory=dict)

    # ----------------------------------------------------------------- loading
    @classmethod
    def standard(cls) -> Board:
        """The board shipped with the package (1-4 players, standard edition)."""
        return cls.load_named("standard")

    @classmethod
    def load_named(cls, name: str) -> Board:
        """A packaged board by name, or a board file by path (anything containing '/' or '.toml')."""
        if "/" in name or name.endswith(".toml"):
            return cls.load(Path(name))
        ref = resources.files("companion.games.fog") / "boards" / f"{name}.toml"
        if not ref.is_file():
            raise BoardFileError(f"no packaged board named {name!r}")
        return _cached_board(name, ref.read_text(encoding="utf-8"), f"package:{name}")

    @classmethod
    def load(cls, path: Path | str) -> Board:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise BoardFileError(f"cannot read board file {path}: {exc.strerror or exc}") from exc
        return _cached_board(str(path), text, str(path))

    @classmethod
    def from_toml(cls, text: str, source: str = "<string>") -> Board:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BoardFileError(f"{source}: not valid TOML: {exc}") from exc
        return _parse_board(data, source)

    # ----------------------------------------------------------------- geometry
    def neighbours(self, cell_id: str) -> frozenset[str]:
        """Cells one step away: hex neighbours among beach/woods/shore plus the file's links."""
        return self._neighbours[cell_id]

    @cached_property
    def by_axial(self) -> dict[tuple[int, int], str]:
        return {c.axial: c.id for c in self.cells.values() if c.axial is not None}

    def step(self, cell_id: str, direction: str) -> str | None:
        """The hex cell one step in an axial direction, or None off the hex grid."""
        cell = self.cells[cell_id]
        if cell.axial is None:
            return None
        dq, dr = DIRECTIONS[direction]
        return self.by_axial.get((cell.axial[0] + dq, cell.axial[1] + dr))

    def direction(self, a: str, b: str) -> str | None:
        """The axial direction from hex cell a to its hex neighbour b (None if not hex neighbours)."""
        ca, cb = self.cells[a], self.cells[b]
        if ca.axial is None or cb.axial is None:
            return None
        delta = (cb.axial[0] - ca.axial[0], cb.axial[1] - ca.axial[1])
        for name, d in DIRECTIONS.items():
            if d == delta:
                return name
        return None

    @cached_property
    def beach_rows(self) -> tuple[str, ...]:
        """Beach row ids from A (farthest from the boats) to J (nearest)."""
        return tuple(sorted(r for r in self.rows if r != "shore"))

    @cached_property
    def row_cells(self) -> dict[str, tuple[str, ...]]:
        """Cells of each beach row (and "shore"), left to right."""
        out: dict[str, list[Cell]] = {r: [] for r in self.rows}
        for c in self.cells.values():
            if c.kind == "beach" and c.row:
                out[c.row].append(c)
            elif c.kind == "shore":
                out["shore"].append(c)
        return {r: tuple(c.id for c in sorted(cs, key=lambda c: c.center_mm[0])) for r, cs in out.items()}

    def row_of(self, cell_id: str) -> str | None:
        """The beach row of a cell, "shore" for shore hexes, None elsewhere."""
        cell = self.cells[cell_id]
        if cell.kind == "beach":
            return cell.row
        if cell.kind == "shore":
            return "shore"
        return None

    @cached_property
    def woods_adjacent(self) -> frozenset[str]:
        """Beach cells that touch the woods (the setup limits obstacles there)."""
        return frozenset(
            c.id for c in self.cells.values()
            if c.kind == "beach" and any(self.cells[n].kind == "woods" for n in self.neighbours(c.id))
        )

    def boat_places(self, boat: str | None = None) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells.values() if c.kind == "boat" and (boat is None or c.boat == boat))

    def link_kind(self, a: str, b: str) -> str | None:
        for link in self.links:
            if {link.a, link.b} == {a, b}:
                return link.kind
        if b in self.neighbours(a):
            return "hex"
        return None

    # ----------------------------------------------------------------- pieces
    @cached_property
    def marker_to_piece(self) -> dict[int, str]:
        out = {i.marker: i.id for i in self.islanders.values()}
        out.update({o.marker: o.id for o in self.obstacles.values()})
        return out

    def islanders_in_play(self, players: int | str) -> tuple[str, ...]:
        """Islander ids used for a player count (3 players: two commoners go back in the box)."""
        removed = set(self.removed_3p) if str(players) == "3" else set()
        return tuple(i for i in self.islanders if i not in removed)

    def fog_start_index(self, players: int | str) -> int:
        label = self.fog_start.get(str(players))
        if label is None:
            raise BoardFileError(f"{self.source}: fog_track.start has no field for {players!r} players")
        return self.fog_index(label)

    def fog_index(self, label: str) -> int:
        for i, f in enumerate(self.fog_fields):
            if f.label == label:
                return i
        raise BoardFileError(f"{self.source}: the FOG track has no field labelled {label!r}")

    def swallowed_rows(self, fog_index: int) -> frozenset[str]:
        """All rows covered by the FOG once its marker stands on ``fog_index`` (cumulative)."""
        return frozenset(r for f in self.fog_fields[: fog_index + 1] for r in f.swallows)


# --------------------------------------------------------------------------- parsing
_CACHE: dict[tuple[str, str], Board] = {}


def _cached_board(key: str, text: str, source: str) -> Board:
    """Boards are immutable, so parse each distinct file text once per process."""
    ck = (key, text)
    if ck not in _CACHE:
        _CACHE[ck] = Board.from_toml(text, source)
    return _CACHE[ck]


def _parse_board(data: Mapping[str, Any], source: str) -> Board:
    rd = _Reader(source)
    _check_keys(rd, data)
    head = rd.get(data, "board", "file", dict)
    num = (int, float)
    hex_size = rd.number(head, "hex_size_mm", "board", 3.0, 200.0)
    size = rd.get(head, "size_mm", "board", list)
    if len(size) != 2 or not all(isinstance(v, num) and not isinstance(v, bool) and math.isfinite(v)
                                 and 50 <= v <= MAX_MM for v in size):
        raise rd.fail("board.size_mm", f"expected [width, height] in mm, each 50 to {MAX_MM:g}, got {size!r}")
    marker_limit = 4 * hex_size  # a marker must fit on a token on one hex (with a generous margin)
    islander_mm = rd.number(head, "islander_marker_mm", "board", 3.0, marker_limit)
    obstacle_mm = rd.number(head, "obstacle_marker_mm", "board", 3.0, marker_limit)
    token_mm = rd.number(head, "token_height_mm", "board", 0.0, 100.0, 0.0)
    mp = rd.number(head, "mp_per_turn", "board", 1, 99, 7, kind=int)
    dictionary = rd.get(head, "marker_dictionary", "board", str)
    sized = re.fullmatch(r"DICT_[4-7]X[4-7]_(50|100|250|1000)", dictionary)
    if sized is None and dictionary not in ("DICT_ARUCO_ORIGINAL", "DICT_APRILTAG_36h11"):
        raise rd.fail("board.marker_dictionary", f"{dictionary!r} is not an ArUco dictionary (e.g. \"DICT_4X4_100\")")
    ids = int(sized.group(1)) if sized else 587

    rows: dict[str, Row] = {}
    for i, t in enumerate(rd.get(data, "rows", "file", list)):
        where = f"rows[{i}]"
        rid = rd.get(t, "id", where, str)
        empty_raw = t.get("empty", 0)
        if isinstance(empty_raw, int) and not isinstance(empty_raw, bool):
            empty = {"default": empty_raw}
        elif isinstance(empty_raw, dict) and isinstance(empty_raw.get("default"), int):
            empty = {str(k): int(v) for k, v in empty_raw.items()}
        else:
            raise rd.fail(f"{where}.empty", f"expected a number or a table with 'default', got {empty_raw!r}")
        if any(v < 0 or v > 99 for v in empty.values()):
            raise rd.fail(f"{where}.empty", f"counts of empty fields are 0 to 99, got {empty_raw!r}")
        rows[rid] = Row(rid, rd.number(t, "obstacles", where, 0, 99, 0, kind=int), empty,
                        rd.number(t, "lost_rp", where, -99, 99, kind=int))
    if "shore" not in rows:
        raise rd.fail("rows", "a row with id = \"shore\" is required (its lost_rp)")

    cells: dict[str, Cell] = {}
    for i, t in enumerate(rd.get(data, "cells", "file", list)):
        where = f"cells[{i}]"
        cid = rd.get(t, "id", where, str)
        where = f"cells[{cid}]"
        if cid in cells:
            raise rd.fail(where, "duplicate cell id")
        kind = rd.choice(rd.get(t, "kind", where, str), CELL_KINDS, f"{where}.kind")
        cell = Cell(
            id=cid,
            kind=kind,
            center_mm=rd.point(t, "center_mm", where),
            row=rd.get(t, "row", where, str, None),
            q=rd.get(t, "q", where, int, None),
            r=rd.get(t, "r", where, int, None),
            pier=rd.get(t, "pier", where, str, None),
            boat=rd.get(t, "boat", where, str, None),
            area=rd.get(t, "area", where, str, None),
            side=rd.get(t, "side", where, str, None),
            place=rd.get(t, "place", where, str, None),
            islander_type=rd.get(t, "islander_type", where, str, None),
            capacity=rd.number(t, "capacity", where, 1, 99, 1, kind=int),
        )
        _check_cell(rd, cell, rows, where)
        cells[cid] = cell

    links: list[Link] = []
    for i, t in enumerate(data.get("links", [])):
        where = f"links[{i}]"
        a, b = rd.get(t, "a", where, str), rd.get(t, "b", where, str)
        for end in (a, b):
            if end not in cells:
                raise rd.fail(where, f"unknown cell {end!r}")
        links.append(Link(a, b, rd.get(t, "kind", where, str, "link")))

    neighbours: dict[str, set[str]] = {c: set() for c in cells}
    by_axial = {c.axial: c.id for c in cells.values() if c.axial is not None}
    for c in cells.values():
        if c.axial is None:
            continue
        for dq, dr in DIRECTIONS.values():
            other = by_axial.get((c.axial[0] + dq, c.axial[1] + dr))
            if other is not None:
                neighbours[c.id].add(other)
    for link in links:
        neighbours[link.a].add(link.b)
        neighbours[link.b].add(link.a)

    boats = rd.get(data, "boats", "file", dict)
    boat_order = tuple(rd.get(boats, "order", "boats", list))
    if sorted(boat_order) != sorted(NATIONS):
        raise rd.fail("boats.order", f"must list the three boats {', '.join(NATIONS)}, got {list(boat_order)!r}")
    prep = {k: tuple(int(v) for v in vs) for k, vs in rd.get(boats, "preparation_bonus", "boats", dict).items()}
    for boat in prep:
        rd.choice(boat, NATIONS, "boats.preparation_bonus")
    sides = [tuple(int(v) for v in t) for t in rd.get(boats, "scoring_tokens", "boats", list)]
    if len(sides) != len(AREAS) or any(len(t) != 2 for t in sides):
        raise rd.fail("boats.scoring_tokens", "expected 4 double-sided tokens like [[5, 4], [4, 3], [3, 2], [2, 1]]")
    tokens = tuple((front, back) for front, back in sides)

    fog = rd.get(data, "fog_track", "file", dict)
    fields = tuple(
        FogField(rd.get(f, "label", f"fog_track.fields[{i}]", str),
                 tuple(rd.get(f, "swallows", f"fog_track.fields[{i}]", list)))
        for i, f in enumerate(rd.get(fog, "fields", "fog_track", list))
    )
    for f in fields:
        for r in f.swallows:
            if r not in rows:
                raise rd.fail(f"fog_track.fields[{f.label}]", f"swallows unknown row {r!r}")

    colours = rd.get(data, "colours", "file", dict)
    rgb: dict[str, tuple[int, int, int]] = {}
    for k, v in rd.get(colours, "rgb", "colours", dict).items():
        if not isinstance(v, list) or len(v) != 3:
            raise rd.fail(f"colours.rgb.{k}", f"expected [r, g, b], got {v!r}")
        red, green, blue = (int(x) for x in v)
        rgb[k] = (red, green, blue)

    islanders: dict[str, Islander] = {}
    for i, t in enumerate(rd.get(data, "islanders", "file", list)):
        where = f"islanders[{i}]"
        isl = Islander(
            id=rd.get(t, "id", where, str),
            nation=rd.choice(rd.get(t, "nation", where, str), NATIONS, f"{where}.nation"),
            type=rd.choice(rd.get(t, "type", where, str), ISLANDER_TYPES, f"{where}.type"),
            characteristic=rd.choice(rd.get(t, "characteristic", where, str), CHARACTERISTICS,
                                     f"{where}.characteristic"),
            marker=rd.number(t, "marker", where, 0, MAX_MARKER_ID, kind=int),
        )
        if isl.id in islanders:
            raise rd.fail(where, f"duplicate islander id {isl.id!r}")
        islanders[isl.id] = isl
    obstacles: dict[str, Obstacle] = {}
    for i, t in enumerate(rd.get(data, "obstacles", "file", list)):
        where = f"obstacles[{i}]"
        obs = Obstacle(rd.get(t, "id", where, str),
                       rd.choice(rd.get(t, "kind", where, str), OBSTACLE_KINDS, f"{where}.kind"),
                       rd.number(t, "marker", where, 0, MAX_MARKER_ID, kind=int))
        if obs.id in obstacles or obs.id in islanders:
            raise rd.fail(where, f"duplicate piece id {obs.id!r}")
        obstacles[obs.id] = obs

    setup = data.get("setup", {})
    removed_3p = tuple(rd.get(setup, "removed_3p", "setup", list, []))
    for rid in removed_3p:
        if rid not in islanders:
            raise rd.fail("setup.removed_3p", f"unknown islander {rid!r}")

    special = {k: int(v) for k, v in data.get("markers", {}).items()}
    fiducials = tuple(
        {"id": rd.number(f, "id", f"fiducials[{i}]", 0, MAX_MARKER_ID, kind=int),
         "center_mm": list(rd.point(f, "center_mm", f"fiducials[{i}]")),
         "size_mm": float(rd.number(f, "size_mm", f"fiducials[{i}]", 5.0, 300.0))}
        for i, f in enumerate(rd.get(data, "fiducials", "file", list))
    )
    if len(fiducials) != 4:
        raise rd.fail("fiducials", f"exactly 4 board fiducials are needed, found {len(fiducials)}")
    markers: dict[int, str] = {}
    for what, mid in [(f"fiducial {f['id']}", f["id"]) for f in fiducials] + \
            [(i.id, i.marker) for i in islanders.values()] + [(o.id, o.marker) for o in obstacles.values()] + \
            [(f"{k} marker", v) for k, v in special.items()]:
        if mid in markers:
            raise rd.fail("markers", f"marker id {mid} is used by both {markers[mid]} and {what}")
        if mid >= ids:
            raise rd.fail("markers", f"{what} has marker id {mid}, but {dictionary} has only ids 0 to {ids - 1}")
        markers[mid] = what

    board = Board(
        name=rd.get(head, "name", "board", str),
        source=source,
        hex_size_mm=float(hex_size),
        size_mm=(float(size[0]), float(size[1])),
        marker_dictionary=dictionary,
        islander_marker_mm=float(islander_mm),
        obstacle_marker_mm=float(obstacle_mm),
        token_height_mm=float(token_mm),
        mp_per_turn=mp,
        fiducials=fiducials,
        rows=rows,
        cells=cells,
        links=tuple(links),
        boat_order=boat_order,
        min_crew={k: int(v) for k, v in rd.get(boats, "min_crew", "boats", dict).items()},
        preparation_bonus=prep,
        scoring_tokens=tokens,
        fog_fields=fields,
        fog_start={str(k): str(v) for k, v in rd.get(fog, "start", "fog_track", dict).items()},
        turn_boards={str(k): int(rd.get(v, "fields", f"turn_boards.{k}", int))
                     for k, v in rd.get(data, "turn_boards", "file", dict).items()},
        player_colours=tuple(rd.get(colours, "players", "colours", list)),
        rgb=rgb,
        special_markers=special,
        islanders=islanders,
        obstacles=obstacles,
        removed_3p=removed_3p,
        _neighbours={k: frozenset(v) for k, v in neighbours.items()},
    )
    _check_consistency(rd, board)
    return board


def _check_cell(rd: _Reader, cell: Cell, rows: Mapping[str, Row], where: str) -> None:
    if cell.kind in ("beach", "woods", "shore") and cell.axial is None:
        raise rd.fail(where, f"a {cell.kind} cell needs axial coordinates q and r")
    if cell.kind == "beach" and cell.row not in rows:
        raise rd.fail(f"{where}.row", f"unknown beach row {cell.row!r}")
    if cell.kind == "pier" and not cell.pier:
        raise rd.fail(where, "a pier cell needs 'pier'")
    if cell.kind == "boat":
        rd.choice(cell.boat or "", NATIONS, f"{where}.boat")
        rd.choice(cell.area or "", AREAS, f"{where}.area")
        rd.choice(cell.place or "", ("productive", "stern"), f"{where}.place")
        if cell.place == "productive":
            rd.choice(cell.islander_type or "", ISLANDER_TYPES, f"{where}.islander_type")
        if cell.capacity < 1:
            raise rd.fail(f"{where}.capacity", f"must be at least 1, got {cell.capacity}")


def _check_consistency(rd: _Reader, board: Board) -> None:
    """Cross-checks that make a hand-edited file fail loudly instead of playing wrongly."""
    for rid in board.beach_rows:
        if not board.row_cells[rid]:
            raise rd.fail(f"rows[{rid}]", "no beach cells belong to this row")
    for boat in NATIONS:
        if not any(c.place == "stern" for c in board.boat_places(boat)):
            raise rd.fail("cells", f"the {boat} boat has no stern")
    piers: dict[str, int] = {}
    for c in board.cells.values():
        if c.kind == "pier" and c.pier:
            piers[c.pier] = piers.get(c.pier, 0) + 1
    for pier, n in piers.items():
        if n != 3:
            raise rd.fail("cells", f"pier {pier} has {n} fields; every pier has exactly 3")
    for key in ("2", "3", "4"):
        if key not in board.turn_boards:
            raise rd.fail("turn_boards", f"no turn board for {key} players")
    for pc in ("2", "3", "4"):
        in_play = len(board.islanders_in_play(pc))
        room = 0
        for rid in board.beach_rows:
            row = board.rows[rid]
            room += len(board.row_cells[rid]) - row.obstacles - row.empty_for(pc)
        if room != in_play:
            raise rd.fail("rows", f"with {pc} players the rows leave room for {room} islanders "
                                  f"but {in_play} are in play (cells - obstacles - empty must add up)")
    total_obstacles = sum(board.rows[r].obstacles for r in board.beach_rows)
    if total_obstacles != len(board.obstacles):
        raise rd.fail("rows", f"rows ask for {total_obstacles} obstacles but the file lists {len(board.obstacles)}")
    if len(board.fog_fields) < 2:
        raise rd.fail("fog_track.fields", "the FOG track needs at least two fields")
    for key, label in board.fog_start.items():
        board.fog_index(label)
