"""The island battle's board file, and the layout the camera and the panel draw from it.

The file gives measurements (a square's side, the margin the pads lie in, the strip for the
boxes), the corner markers and the first marker of each kind of piece; every place is worked out
from them. Places are the island's squares (``C4``, as the rules name them), the five places of
each carrier pad (``pad-red-2``: place 2 of red's pad) and the three boxes beside the island
where characters and blocks wait to be placed (``box-red``, ``box-blue``, ``box-blocks``), each piece
in its own slot of its box (``box-red-3``), a square's pitch from the next, so no token covers
another's marker and the camera sees every piece at setup. Two more kinds of place: the dice
``tray`` in the margin left of the island, where a die thrown at the table lands (the die is one
piece with a marker on each of its six faces, ``Piece.faces``: the camera reads the face up), and
each pad's rail (``rail-red-F``: the pad's handle, with the pad's own marker, against column F), so
the camera sees where the pad lies and reads its slide.

A pad slides along its edge in play, so its places are drawn where the state has the pad: the
layout follows the state (:func:`layout` with the pads' centre columns). Checked when it is read:
a mistake names the file and the key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.errors import BoardFileError
from companion.games.boardfile import BoardText
from companion.games.base import RGB, Cell, Layout, Piece, packaged_or_file
from companion.games.island_battle.grid import (ALL_CHARACTERS, BLOCKS, LETTERS, PAD_PLACES, PLAYERS, SIZE,
                                                characters, coords, forward, kind, owner, pad_column, pad_start,
                                                pad_track, squares)

KEYS = {"board": ("name", "game", "square_mm", "margin_mm", "pad_gap_mm", "box_mm", "marker_dictionary",
                  "character_mm", "character_marker_mm", "block_mm", "block_marker_mm", "token_height_mm"),
        "markers": ("characters", "blocks", "die", "pads"), "colours": PLAYERS}
BLOCK_BOX = "box-blocks"
# A character faces the way its marker's top edge points: north (row 12, the top of the board as
# drawn) with the marker upright; the angle is the marker's, counter-clockwise seen from above.
FACING_ANGLES = {"N": 0.0, "W": 90.0, "S": 180.0, "E": 270.0}
OVERHANG = (PAD_PLACES - 1) // 2  # pad places that may hang past a corner of the island
BOX_SLOTS = 10  # a box holds one player's ten characters, or the ten blocks
DIE = "die"  # one piece, six markers: the faces 0-5 the rulebook's die has
DIE_FACES = tuple(str(face) for face in range(6))
TRAY = "tray"  # where the die is thrown: the face up there is the roll
HANDLE = 1.15  # a pad's handle lies this many squares outside the pad's centre line, away from the island


def box_of(player: str) -> str:
    """The box beside the island where a player's characters wait to be placed."""
    return f"box-{player}"


def slot_cell(box: str, slot: int) -> str:
    """Slot ``slot`` (1-10) of a box: ``box-red-3``."""
    return f"{box}-{slot}"


def box_slot(piece: str) -> str:
    """The slot in its box where a piece waits to be placed. Each piece has its own, side by side and
    apart, so the camera sees every one of them at setup (ten tokens heaped in one box show three)."""
    if piece in BLOCKS:
        return slot_cell(BLOCK_BOX, BLOCKS.index(piece) + 1)
    return slot_cell(box_of(owner(piece)), characters(owner(piece)).index(piece) + 1)


def box_named(cell: str) -> str | None:
    """The box a slot belongs to (``box-red-3`` -> ``box-red``); None for any other cell."""
    box, _, slot = cell.rpartition("-")
    if box in (BLOCK_BOX, *map(box_of, PLAYERS)) and slot.isdigit() and 1 <= int(slot) <= BOX_SLOTS:
        return box
    return None


def pad_cell(player: str, place: int) -> str:
    """The place ``place`` (1-5, from its player's left) of a player's carrier pad."""
    return f"pad-{player}-{place}"


def pad_piece(player: str) -> str:
    """The pad itself as a piece: its marker on the handle at the middle of its outer side."""
    return f"pad-{player}"


def rail_cell(player: str, column: str) -> str:
    """Where a pad's handle lies with the pad's centre against ``column`` (a letter): ``rail-red-F``."""
    return f"rail-{player}-{column}"


@dataclass(frozen=True)
class IslandBoard:
    name: str
    source: str
    square_mm: float
    margin_mm: float
    pad_gap_mm: float
    box_mm: float
    marker_dictionary: str
    character_mm: float
    character_marker_mm: float
    block_mm: float
    block_marker_mm: float
    token_height_mm: float
    fiducials: tuple[dict[str, Any], ...]
    first: dict[str, int]
    rgb: dict[str, RGB]

    @property
    def size_mm(self) -> tuple[float, float]:
        island = SIZE * self.square_mm
        return (2 * self.margin_mm + island + self.box_mm, 2 * self.margin_mm + island)

    def centre(self, name: str) -> tuple[float, float]:
        """A square's centre: column A at the left, row 1 (red's edge) at the bottom."""
        col, row = coords(name)
        return self.column_x(col), self.margin_mm + (SIZE - row + 0.5) * self.square_mm

    def column_x(self, col: int) -> float:
        """The centre of column ``col`` (1..12; 0 and below, 13 and above: past the island's corners)."""
        return self.margin_mm + (col - 0.5) * self.square_mm

    def rail_y(self, player: str) -> float:
        """The line a pad's handle (its marker) slides along: just outside the pad, away from the island."""
        out = HANDLE * self.square_mm
        return self.pad_y(player) + out if player == PLAYERS[0] else self.pad_y(player) - out

    @property
    def tray_centre(self) -> tuple[float, float]:
        """The dice tray: in the margin left of the island, half-way up, clear of the pads' rows."""
        return self.margin_mm / 2, self.size_mm[1] / 2

    def pad_y(self, player: str) -> float:
        """The centre line of a player's pad: just outside their back edge."""
        away = self.pad_gap_mm + self.square_mm / 2
        return self.margin_mm + SIZE * self.square_mm + away if player == PLAYERS[0] else self.margin_mm - away

    def box_centre(self, box: str) -> tuple[float, float]:
        x = self.margin_mm * 2 + SIZE * self.square_mm + self.box_mm / 2
        share = {box_of(PLAYERS[1]): 0.2, BLOCK_BOX: 0.5, box_of(PLAYERS[0]): 0.8}[box]
        return (x, self.size_mm[1] * share)

    @property
    def box_grid(self) -> tuple[int, int]:
        """A box's slots as (columns, rows): as many columns of one square's pitch as its strip holds."""
        columns = max(1, int(self.box_mm // self.square_mm))
        return columns, -(-BOX_SLOTS // columns)

    def slot_centre(self, box: str, slot: int) -> tuple[float, float]:
        """Where a box's slot lies: a grid of squares' pitch round the box's centre, filled row by row."""
        (cx, cy), (columns, rows) = self.box_centre(box), self.box_grid
        col, row = (slot - 1) % columns, (slot - 1) // columns
        return cx + (col - (columns - 1) / 2) * self.square_mm, cy + (row - (rows - 1) / 2) * self.square_mm

    def markers(self) -> dict[str, int]:
        """Every piece's marker id."""
        out = {c: self.first["characters"] + k for k, c in enumerate(ALL_CHARACTERS)}
        out.update({b: self.first["blocks"] + k for k, b in enumerate(BLOCKS)})
        return out

    def die_markers(self) -> dict[str, int]:
        """The die's face (``"0"``..``"5"``) -> the marker on that face."""
        return {face: self.first["die"] + k for k, face in enumerate(DIE_FACES)}

    def pad_markers(self) -> dict[str, int]:
        """Each pad's marker (``pad-red``), on its handle."""
        return {pad_piece(p): self.first["pads"] + k for k, p in enumerate(PLAYERS)}

    def all_markers(self) -> list[int]:
        """Every marker id a piece carries: characters, blocks, the die's six faces, the pads."""
        return [*self.markers().values(), *self.die_markers().values(), *self.pad_markers().values()]


def load(board: str = "standard") -> IslandBoard:
    """A packaged board by name, or a board file by path (each text read once)."""
    text, source = packaged_or_file("companion.games.island_battle", "boards", board, BoardFileError,
                                    "island battle board")
    return _parsed(text, source)


@lru_cache(maxsize=16)
def _parsed(text: str, source: str) -> IslandBoard:
    return _parse(text, source)


def _parse(text: str, source: str) -> IslandBoard:
    doc = BoardText(text, source, KEYS, "island-battle", "an island battle board")
    data, head, fail, number = doc.data, doc.head, doc.fail, doc.number
    fiducials = doc.fiducials()
    first: dict[str, int] = {}
    follows = {"die": ("blocks", len(BLOCKS)), "pads": ("die", len(DIE_FACES))}  # left out: after the one before
    for what in KEYS["markers"]:
        v = data["markers"].get(what)
        if v is None and what in follows:
            v = first[follows[what][0]] + follows[what][1]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise fail(f"markers.{what}", f"expected the first marker id of the {what}, got {v!r}")
        first[what] = v
    rgb = doc.colours(PLAYERS)
    board = IslandBoard(
        name=str(head.get("name", "board")), source=source, square_mm=number("square_mm", 15, 100),
        margin_mm=number("margin_mm", 20, 400), pad_gap_mm=number("pad_gap_mm", 0, 50),
        box_mm=number("box_mm", 40, 600), marker_dictionary=str(head.get("marker_dictionary", "")),
        character_mm=number("character_mm", 5, 100), character_marker_mm=number("character_marker_mm", 3, 100),
        block_mm=number("block_mm", 5, 100), block_marker_mm=number("block_marker_mm", 3, 100),
        token_height_mm=number("token_height_mm", 0, 100), fiducials=tuple(fiducials), first=first, rgb=rgb)
    ids = [f["id"] for f in fiducials] + board.all_markers()
    if len(set(ids)) != len(ids):
        raise fail("markers", f"corner markers, characters ({len(ALL_CHARACTERS)} ids from 'characters'), "
                   f"blocks ({len(BLOCKS)} from 'blocks'), the die's faces ({len(DIE_FACES)} from 'die') and "
                   f"the pads ({len(PLAYERS)} from 'pads') must not share ids")
    size = int(board.marker_dictionary.rsplit("_", 1)[-1]) if board.marker_dictionary[-1:].isdigit() else 0
    if size and max(ids) >= size:
        raise fail("board.marker_dictionary", f"{board.marker_dictionary} holds {size} markers, but id {max(ids)} "
                   "is used")
    for key, outer, marker in (("character_mm", board.character_mm, board.character_marker_mm * math.sqrt(2)),
                               ("block_mm", board.block_mm, board.block_marker_mm)):
        if outer < marker + 2:
            raise fail(f"board.{key}", f"a piece of {outer:g} mm cannot hold its {marker:g} mm marker")
        if outer > board.square_mm - 2:
            raise fail(f"board.{key}", f"a piece of {outer:g} mm does not fit a {board.square_mm:g} mm square")
    if board.box_mm < board.square_mm:
        raise fail("board.box_mm", f"the strip for the boxes must hold at least one {board.square_mm:g} mm slot across")
    if board.box_grid[1] * board.square_mm > board.size_mm[1] * 0.3:
        raise fail("board.box_mm", f"a box's {BOX_SLOTS} slots, {board.box_grid[0]} across, do not fit a third of the "
                   f"board's height: widen the strip")
    if board.margin_mm < OVERHANG * board.square_mm + 10 or board.margin_mm < board.square_mm + board.pad_gap_mm + 10:
        raise fail("board.margin_mm", f"the margin round the island must hold the pads and the {OVERHANG} places "
                   "that may hang past a corner")
    if board.margin_mm < board.pad_gap_mm + (0.5 + HANDLE) * board.square_mm + board.block_mm / 2 + 3:
        raise fail("board.margin_mm", "the margin round the island must hold each pad's handle outside the pad")
    return board


# ----------------------------------------------------------------------------- the layout
SAND, LINE, PAD_FILL, BOX_FILL = (232, 214, 170), (90, 80, 70), (200, 200, 205), (245, 240, 228)
BLOCK_RGB = (120, 110, 100)
_LAYOUTS: dict[tuple[int, tuple[int, int], bool], tuple[IslandBoard, Layout]] = {}
# the pieces' facts, as the panel's legend shows them: a letter for the kind
_SHORT = {"soldier": "S", "jeep": "J", "tank": "T"}


def layout(board: IslandBoard, pads: tuple[int, int] | None = None, die: bool = True) -> Layout:
    """The geometry every other part of the companion works from, with each pad's places where its
    centre touches column ``pads[seat]`` (None: where the pads start), and the die only when the players
    throw one at the table (``die``): when the companion rolls, a die on the table is no piece of the game.
    Built once per board, pads and die."""
    pads = pads or (pad_start(PLAYERS[0]), pad_start(PLAYERS[1]))
    key = (id(board), pads, die)
    cached = _LAYOUTS.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    built = _build(board, pads, die)
    if len(_LAYOUTS) > 512:  # a long game slides the pads to many places: keep the cache small
        _LAYOUTS.clear()
    _LAYOUTS[key] = (board, built)
    return built


def _rect(cx: float, cy: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))


def _build(board: IslandBoard, pads: tuple[int, int], die: bool) -> Layout:
    sq = board.square_mm
    cells: dict[str, Cell] = {}  # the pads and boxes first, then the island's squares
    for seat, player in enumerate(PLAYERS):
        y = board.pad_y(player)
        for place in range(1, PAD_PLACES + 1):
            col = pad_column(player, pads[seat], place)
            cid = pad_cell(player, place)
            centre = place == (PAD_PLACES + 1) // 2
            cells[cid] = Cell(cid, "pad", (board.column_x(col), y), _rect(board.column_x(col), y, sq, sq),
                              f"{player}'s pad, place {place}", f"pad-{player}", PAD_FILL, LINE,
                              facts={"pad": player, "place": place, "centre": centre, "past_corner": not 1 <= col <= SIZE})
        ry = board.rail_y(player)
        # every place the pad's handle may lie: the pad's marker read on one is where it is (its letter
        # is "against", not "column": a cell naming a column makes the pages draw the board as a grid)
        for col in pad_track():
            cid, x = rail_cell(player, LETTERS[col - 1]), board.column_x(col)
            cells[cid] = Cell(cid, "rail", (x, ry), _rect(x, ry, sq, sq * 0.8), f"{player}'s pad against "
                              f"{LETTERS[col - 1]}", f"rail-{player}", None, LINE, facts={"rail": player,
                                                                                         "against": LETTERS[col - 1]})
    tx, ty = board.tray_centre
    cells[TRAY] = Cell(TRAY, "tray", (tx, ty), _rect(tx, ty, board.margin_mm - 20, 2 * sq), "the dice tray", None,
                       BOX_FILL, LINE, facts={"pile": True})  # the die read anywhere in the tray, not only mid-way
    for box, label in ((box_of(PLAYERS[1]), f"{PLAYERS[1]}'s characters to place"), (BLOCK_BOX, "blocks to place"),
                       (box_of(PLAYERS[0]), f"{PLAYERS[0]}'s characters to place")):
        for slot in range(1, BOX_SLOTS + 1):  # one slot a piece: a token never covers another's marker
            cid = slot_cell(box, slot)
            cx, cy = board.slot_centre(box, slot)
            cells[cid] = Cell(cid, "box", (cx, cy), _rect(cx, cy, sq, sq), f"{label}, slot {slot}", box, BOX_FILL,
                              LINE, facts={"box": box, "slot": slot})
    for name in squares():
        cx, cy = board.centre(name)
        # the grid's names as facts (every message names squares: the pages draw them round the island)
        cells[name] = Cell(name, "square", (cx, cy), _rect(cx, cy, sq, sq), name, f"row {coords(name)[1]}",
                           SAND, LINE, facts={"column": name[0], "row": str(coords(name)[1])})
    marker = board.markers()
    pieces: dict[str, Piece] = {}
    for ch in ALL_CHARACTERS:
        who, what = owner(ch), kind(ch)
        number = ch.partition("-")[2][1:]
        # brought: the way hands set it down when they bring it on (the simulated table's page), towards the island
        pieces[ch] = Piece(ch, marker[ch], board.character_marker_mm, what, f"{who} {what} {number}", board.rgb[who],
                           facing=True, facts={"colour": who, "shape": "disc", "short": f"{_SHORT[what]}{number}",
                                               "size_mm": board.character_mm, "brought": forward(who)})
    for n, block in enumerate(BLOCKS, start=1):
        pieces[block] = Piece(block, marker[block], board.block_marker_mm, "block", f"block {n}", BLOCK_RGB,
                              facts={"shape": "square", "short": str(n), "size_mm": [board.block_mm, board.block_mm]})
    faces = board.die_markers()
    if die:
        pieces[DIE] = Piece(DIE, faces[DIE_FACES[0]], board.block_marker_mm, "die", "the die", (250, 250, 250),
                            faces=faces, facts={"shape": "square", "short": "D",
                                                "size_mm": [board.block_mm, board.block_mm]})
    for player, mark in zip(PLAYERS, board.pad_markers().values()):
        # the handle's marker as large as a character's: it lies out at the board's edge, seen at a slant
        pieces[pad_piece(player)] = Piece(pad_piece(player), mark, board.character_marker_mm, "pad", f"{player}'s pad",
                                          board.rgb[player], facts={"shape": "square", "short": "P",
                                                                    "size_mm": [board.block_mm, board.block_mm]})
    return Layout(name=board.name, size_mm=board.size_mm, marker_dictionary=board.marker_dictionary,
                  fiducials=board.fiducials, cells=cells, pieces=pieces,
                  marker_mm=min(board.character_marker_mm, board.block_marker_mm), snap_mm=sq * 0.35,
                  piece_height_mm=board.token_height_mm, colours=dict(board.rgb),
                  facings=FACING_ANGLES, facing_on=("square",))  # on its pad or in its box it faces no way
