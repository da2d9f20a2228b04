"""The tile race's board file, and the layout the camera and the panel draw from it.

The file gives measurements (the grid's size and a square's side, the margin the start spaces
lie in, the strip for the supplies), the corner markers and the first marker of each kind of
piece; every place is worked out from them. Places are the squares (``C4``), the edges between
two squares where a wall stands (``C4|C5``, named as the rules name them), one start space
beside each corner on each of its two sides (``start-A1-S``: outside A1, on the south side), and
the two supply areas. Checked when it is read: a mistake names the file and the key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.errors import BoardFileError
from companion.games.boardfile import BoardText
from companion.games.base import RGB, Cell, Edge, Layout, Piece, layout_once, packaged_or_file
from companion.games.tile_race.grid import (COLOURS, MAX_SIZE, MIN_SIZE, TILES, coords, corners, edges, ends,
                                            entry, pawns_of, side_of, squares)

KEYS = {"board": ("name", "game", "grid", "square_mm", "margin_mm", "supply_mm", "marker_dictionary", "tile_mm",
                  "tile_marker_mm", "pawn_mm", "pawn_marker_mm", "mountain_mm", "mountain_marker_mm",
                  "wall_marker_mm", "token_height_mm", "pawn_height_mm", "wall_height_mm"),
        "markers": ("pawns", "mountains", "tiles", "walls", "third_mountains"), "colours": COLOURS}
# Each player's mountains are in their colour, so a player sees whose mountain stands where: two of each
# colour (the box's 8), and a third red and a third blue for a 2-player game (two made to match).
MOUNTAINS = {"red": 3, "blue": 3, "yellow": 2, "green": 2}
TILE_SUPPLY, MOUNTAIN_SUPPLY = "supply-tiles", "supply-mountains"
SIDES = ("S", "W", "N", "E")


def tile_id(n: int) -> str:
    """The n-th tile (from 1). Upper case: it sorts before any pawn or mountain, so a picture that
    lists a square's pieces in order lists the tile under them first."""
    return f"T{n:02d}"


def wall_id(n: int) -> str:
    return f"W{n:02d}"


def mountain_id(colour: str, n: int) -> str:
    """A player's n-th mountain (from 1): its owner's colour in its id, as on the piece."""
    return f"mountain-{colour}-{n}"


def mountain_ids() -> list[str]:
    """Every mountain in the box, in marker order: two of each colour in seat order, then the thirds."""
    return [mountain_id(c, n) for c in COLOURS for n in (1, 2)] + \
        [mountain_id(c, 3) for c in COLOURS if MOUNTAINS[c] > 2]


def start_cell(pawn: str, players: int, size: int) -> str:
    """The start space a pawn waits on: beside its entry corner, on its player's side."""
    return f"start-{entry(pawn, players, size)}-{side_of(pawn.rpartition('-')[0], players)}"


@dataclass(frozen=True)
class TileBoard:
    name: str
    source: str
    grid: int
    square_mm: float
    margin_mm: float
    supply_mm: float
    marker_dictionary: str
    tile_mm: float
    tile_marker_mm: float
    pawn_mm: float
    pawn_marker_mm: float
    mountain_mm: float
    mountain_marker_mm: float
    wall_marker_mm: float
    token_height_mm: float
    fiducials: tuple[dict[str, Any], ...]
    first: dict[str, int]
    rgb: dict[str, RGB]
    pawn_height_mm: float = 0.0  # a pawn's top above the board (a file without it: token_height_mm)
    wall_height_mm: float = 0.0  # a wall stand's cap above the board (a file without it: token_height_mm)

    @property
    def size_mm(self) -> tuple[float, float]:
        inner = self.grid * self.square_mm + 2 * self.margin_mm
        return (inner + self.supply_mm, inner)

    def centre(self, square: str) -> tuple[float, float]:
        """A square's centre: column A on the left, row 1 nearest red (the bottom of the board)."""
        col, row = coords(square)
        return (self.margin_mm + (col - 0.5) * self.square_mm,
                self.margin_mm + (self.grid - row + 0.5) * self.square_mm)

    def start_centre(self, corner: str, side: str) -> tuple[float, float]:
        x, y = self.centre(corner)
        far = self.margin_mm + self.grid * self.square_mm + self.margin_mm / 2
        return {"S": (x, far), "N": (x, self.margin_mm / 2), "W": (self.margin_mm / 2, y), "E": (far, y)}[side]

    def supply_centre(self, which: str) -> tuple[float, float]:
        x = self.size_mm[0] - self.supply_mm / 2
        return (x, self.size_mm[1] * (0.3 if which == TILE_SUPPLY else 0.7))

    def markers(self) -> dict[str, int]:
        """Every piece's marker id."""
        out = {p: self.first["pawns"] + k for k, p in enumerate(p for c in COLOURS for p in pawns_of(c))}
        ids = mountain_ids()
        out.update({m: self.first["mountains"] + k for k, m in enumerate(ids[:8])})
        out.update({m: self.first["third_mountains"] + k for k, m in enumerate(ids[8:])})
        out.update({tile_id(n): self.first["tiles"] + n - 1 for n in range(1, TILES + 1)})
        out.update({wall_id(n): self.first["walls"] + n - 1 for n in range(1, TILES + 1)})
        return out


def load(board: str = "standard") -> TileBoard:
    """A packaged board by name, or a board file by path (each text read once)."""
    text, source = packaged_or_file("companion.games.tile_race", "boards", board, BoardFileError, "tile race board")
    return _parsed(text, source)


@lru_cache(maxsize=16)
def _parsed(text: str, source: str) -> TileBoard:
    return _parse(text, source)


def _parse(text: str, source: str) -> TileBoard:
    doc = BoardText(text, source, KEYS, "tile-race", "a tile race board")
    data, head, fail, number = doc.data, doc.head, doc.fail, doc.number
    grid = head.get("grid")
    if isinstance(grid, bool) or not isinstance(grid, int) or not MIN_SIZE <= grid <= MAX_SIZE:
        raise fail("board.grid", f"expected the squares along a side, {MIN_SIZE} to {MAX_SIZE}, got {grid!r}")
    fiducials = doc.fiducials()
    first: dict[str, int] = {}
    for kind in KEYS["markers"]:
        v = data["markers"].get(kind)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise fail(f"markers.{kind}", f"expected the first marker id of the {kind}, got {v!r}")
        first[kind] = v
    rgb = doc.colours(COLOURS)
    board = TileBoard(
        name=str(head.get("name", "board")), source=source, grid=grid, square_mm=number("square_mm", 20, 200),
        margin_mm=number("margin_mm", 20, 400), supply_mm=number("supply_mm", 40, 600),
        marker_dictionary=str(head.get("marker_dictionary", "")), tile_mm=number("tile_mm", 10, 200),
        tile_marker_mm=number("tile_marker_mm", 3, 100), pawn_mm=number("pawn_mm", 5, 200),
        pawn_marker_mm=number("pawn_marker_mm", 3, 100), mountain_mm=number("mountain_mm", 5, 200),
        mountain_marker_mm=number("mountain_marker_mm", 3, 100), wall_marker_mm=number("wall_marker_mm", 3, 50),
        token_height_mm=number("token_height_mm", 0, 100), fiducials=tuple(fiducials), first=first, rgb=rgb,
        pawn_height_mm=number("pawn_height_mm", 0, 200) if "pawn_height_mm" in head else number("token_height_mm", 0, 100),
        wall_height_mm=number("wall_height_mm", 0, 200) if "wall_height_mm" in head else number("token_height_mm", 0, 100))
    ids = [f["id"] for f in fiducials] + list(board.markers().values())
    if len(set(ids)) != len(ids):
        raise fail("markers", f"corner markers, pawns (8 ids from 'pawns'), mountains (8 from 'mountains', "
                   f"2 from 'third_mountains'), tiles and wall stands ({TILES} each) must not share ids")
    size = int(board.marker_dictionary.rsplit("_", 1)[-1]) if board.marker_dictionary[-1:].isdigit() else 0
    if size and max(ids) >= size:
        raise fail("board.marker_dictionary", f"{board.marker_dictionary} holds {size} markers, but id {max(ids)} "
                   "is used")
    for key, outer, marker in (("tile_mm", board.tile_mm, board.tile_marker_mm),
                               ("pawn_mm", board.pawn_mm, board.pawn_marker_mm * math.sqrt(2)),
                               ("mountain_mm", board.mountain_mm, board.mountain_marker_mm * math.sqrt(2))):
        if outer < marker + 2:
            raise fail(f"board.{key}", f"a piece of {outer:g} mm cannot hold its {marker:g} mm marker")
    if board.tile_mm > board.square_mm - 4:
        raise fail("board.tile_mm", f"a tile of {board.tile_mm:g} mm does not lie inside a {board.square_mm:g} mm "
                   "square with room to pick it up")
    if board.margin_mm < board.pawn_mm + 10:
        raise fail("board.margin_mm", "the margin round the grid must hold the start spaces' pawns")
    return board


# ----------------------------------------------------------------------------- the layout
GRID_FILL, EDGE_FILL, LINE = (236, 226, 200), (190, 170, 140), (90, 80, 70)
MOUNTAIN_RGB, TILE_RGB, WALL_RGB = (120, 105, 90), (215, 200, 170), (160, 130, 95)


def layout(board: TileBoard) -> Layout:
    """The geometry every other part of the companion works from (built once per board)."""
    return layout_once(board, _build)


def _rect(cx: float, cy: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))


def _build(board: TileBoard) -> Layout:
    n, sq = board.grid, board.square_mm
    cells: dict[str, Cell] = {}
    exits = set(corners(n))
    for name in squares(n):
        cx, cy = board.centre(name)
        # a pawn stands on the tiles it carries, a mountain on the tile it was put on: a stack, the top one shows
        # its column's and its row's names (E and 4 in E4): the panel prints them along the grid's sides
        cells[name] = Cell(name, "square", (cx, cy), _rect(cx, cy, sq, sq), name, f"row {coords(name)[1]}",
                           GRID_FILL, LINE, facts={"stack": True, "exit": name in exits,
                                                   "column": name.rstrip("0123456789"), "row": str(coords(name)[1])})
    for e in edges(n):
        a, b = ends(e)
        (ax, ay), (bx, by) = board.centre(a), board.centre(b)
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        across = abs(ax - bx) > abs(ay - by)  # the squares lie side by side: the edge runs up and down
        # the outline is where a finger taps the edge on the panel: 0.42 of a square across (a quarter of
        # each square beside it), so a phone showing squares and pawns at 24 px or more shows it so too
        w, h = (sq * 0.42, sq * 0.8) if across else (sq * 0.8, sq * 0.42)
        cells[e] = Cell(e, "edge", (cx, cy), _rect(cx, cy, w, h), f"between {a} and {b}", None, EDGE_FILL, LINE,
                        facts={"edge": [a, b]})
    for corner in corners(n):
        col, row = coords(corner)
        for side in SIDES:
            on_side = {"S": row == 1, "N": row == n, "W": col == 1, "E": col == n}[side]
            if on_side:
                cid = f"start-{corner}-{side}"
                cx, cy = board.start_centre(corner, side)
                cells[cid] = Cell(cid, "start", (cx, cy), _rect(cx, cy, sq * 0.8, sq * 0.8),
                                  f"start beside {corner}", None, (250, 246, 236), LINE, facts={"entry": corner})
    for which, label in ((TILE_SUPPLY, "tile supply"), (MOUNTAIN_SUPPLY, "mountains not placed")):
        cx, cy = board.supply_centre(which)
        cells[which] = Cell(which, "supply", (cx, cy), _rect(cx, cy, board.supply_mm * 0.8, board.size_mm[1] * 0.35),
                            label, None, (245, 240, 228), LINE, facts={"supply": True, "pile": True})
    marker = board.markers()
    pieces: dict[str, Piece] = {}
    for colour in COLOURS:
        for pawn in pawns_of(colour):
            pieces[pawn] = Piece(pawn, marker[pawn], board.pawn_marker_mm, "pawn",
                                 f"{colour} pawn {pawn.rsplit('-', 1)[1]}", board.rgb[colour],
                                 facts={"colour": colour, "shape": "disc", "short": pawn.rsplit("-", 1)[1],
                                        "size_mm": board.pawn_mm}, height_mm=board.pawn_height_mm)
    for pid in mountain_ids():  # look alike within their colour: one player's mountains are not told apart
        colour = pid.split("-")[1]
        pieces[pid] = Piece(pid, marker[pid], board.mountain_marker_mm, "mountain", f"{colour} mountain",
                            board.rgb[colour], facts={"alike": f"mountain-{colour}", "colour": colour, "shape": "disc",
                                                      "short": "M", "size_mm": board.mountain_mm})
    for k in range(1, TILES + 1):
        pid = tile_id(k)
        pieces[pid] = Piece(pid, marker[pid], board.tile_marker_mm, "tile", "a tile", TILE_RGB,
                            facts={"alike": "tile", "shape": "square", "short": "",
                                   "size_mm": [board.tile_mm, board.tile_mm]})
        wid = wall_id(k)
        pieces[wid] = Piece(wid, marker[wid], board.wall_marker_mm, "wall", "a wall (a tile on its side)", WALL_RGB,
                            facts={"alike": "wall", "shape": "bar", "short": "",
                                   "size_mm": round(board.wall_marker_mm * math.sqrt(2) + 4, 1)},
                            height_mm=board.wall_height_mm)
    grid_edges = tuple(Edge(*ends(e), kind="wall-place") for e in edges(n))
    return Layout(name=board.name, size_mm=board.size_mm, marker_dictionary=board.marker_dictionary,
                  fiducials=board.fiducials, cells=cells, pieces=pieces,
                  marker_mm=min(board.tile_marker_mm, board.pawn_marker_mm, board.mountain_marker_mm, board.wall_marker_mm),
                  snap_mm=sq * 0.2, piece_height_mm=board.token_height_mm, edges=grid_edges,
                  colours=dict(board.rgb))
