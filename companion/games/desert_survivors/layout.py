"""Desert survivors' board file, and the layout the camera and the panel draw of a laid desert.

The desert is not printed once: it is the mapboards as the players laid them at setup, so the
layout is built from a state's arrangement (:func:`layout`), the board file giving only sizes and
marker ids. Places are the spaces of the laid desert, named as the rules name them (``C4``); rock
spaces are drawn but nothing stands on them. The four corner markers lie at the corners of the laid
desert, in the margin around it. Each mapboard also carries its own four corner markers, printed in
its corner spaces and turned with it: from them the camera reads at setup where each mapboard lies
and how it is turned (:func:`assembly`, ``companion/games/assembly.py``); the layout lists them in
the corner spaces' fact ``printed_markers``, so the simulated table draws them. During play the
pieces on those spaces cover them, which is why the desert's own corner markers stay.

Pieces are every disc and X-counter of the groups in play, each with a marker on each face
(``Piece.faces``: ``front``, what it is, and ``back``), so the camera's picture names every piece
with the face that is up (``red-3^back``) and a flip is a change the game reads. Their labels say
only what a piece's back shows (its colour, or that it is an X-counter): a layout goes to every
client, and a piece's id or label must not tell a player what lies face down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from companion.errors import BoardFileError
from companion.games.assembly import Assembly, Laid, Part
from companion.games.boardfile import BoardText
from companion.games.base import RGB, Cell, Edge, Layout, Piece, packaged_or_file
from companion.games.desert_survivors.board import (BOARDS, COLS, OASIS, ROCK, ROWS, Arrangement, Placed,
                                                    arrangement_text, build, check_arrangement, parse_arrangement,
                                                    space)
from companion.games.desert_survivors.pieces import COLOURS, GROUPS, discs_of, groups_for, x_ids

KEYS = {"board": ("name", "game", "space_mm", "margin_mm", "fiducial_mm", "marker_dictionary", "disc_mm",
                  "counter_mm", "piece_marker_mm", "token_height_mm", "mapboard_marker_mm", "mapboard_inset_mm"),
        "markers": ("fiducials", "discs", "counters", "disc_backs", "counter_backs", "mapboards")}
CORNERS = ("top left", "top right", "bottom right", "bottom left")  # a mapboard's corner markers, as printed
FRONT, BACK = "front", "back"  # a disc's or counter's faces, as a picture names the one up
RGB_OF: dict[str, RGB] = {"natural": (214, 184, 140), "green": (60, 150, 70), "red": (200, 40, 40),
                          "blue": (40, 90, 200), "purple": (130, 60, 160), "yellow": (230, 200, 40)}
SAND_FILL, OASIS_FILL, ROCK_FILL, LINE = (238, 214, 160), (120, 190, 150), (120, 110, 100), (110, 90, 60)
COUNTER_RGB = (90, 80, 70)


@dataclass(frozen=True)
class DesertBoard:
    name: str
    source: str
    space_mm: float
    margin_mm: float
    fiducial_mm: float
    marker_dictionary: str
    disc_mm: float
    counter_mm: float
    piece_marker_mm: float
    token_height_mm: float
    fiducials: tuple[int, int, int, int]
    first_disc: int
    first_counter: int
    first_disc_back: int
    first_counter_back: int
    mapboard_marker_mm: float = 20.0
    mapboard_inset_mm: float = 3.0
    first_mapboard: int | None = None  # None (a file from before mapboards carried markers): none to read

    def mapboard_markers(self) -> dict[int, tuple[int, ...]]:
        """Each mapboard's own corner markers (top left, top right, bottom right, bottom left as printed)."""
        if self.first_mapboard is None:
            return {}
        return {b: tuple(self.first_mapboard + 4 * (b - 1) + k for k in range(4)) for b in sorted(BOARDS)}

    def printed(self, turn: int) -> list[tuple[int, float, float]]:
        """Where each corner marker of a mapboard turned ``turn`` lies from the top left of the
        ground it covers (corner index, x mm, y mm): the printed spot turned with the board."""
        w, h, c = COLS * self.space_mm, ROWS * self.space_mm, self.mapboard_inset_mm + self.mapboard_marker_mm / 2
        out = []
        for k, (u, v) in enumerate(((c, c), (w - c, c), (w - c, h - c), (c, h - c))):
            uw, vh = w, h
            for _ in range(turn // 90):  # a quarter turn clockwise: (u, v) on w x h goes to (h - v, u) on h x w
                u, v, uw, vh = vh - v, u, vh, uw
            out.append((k, u, v))
        return out

    def markers(self, first_disc: int | None = None, first_counter: int | None = None) -> dict[str, int]:
        """Every piece's marker id on its front: the discs in seat order, then the X-counters (with
        other first ids: the markers on their backs, in the same order)."""
        discs = [d for c in COLOURS for d in discs_of(c)]
        disc0 = self.first_disc if first_disc is None else first_disc
        counter0 = self.first_counter if first_counter is None else first_counter
        out = {d: disc0 + k for k, d in enumerate(discs)}
        out.update({x: counter0 + k for k, x in enumerate(x_ids(len(COLOURS)))})
        return out

    def backs(self) -> dict[str, int]:
        """Every piece's marker id on its back."""
        return self.markers(self.first_disc_back, self.first_counter_back)


def load(board: str | None = None) -> DesertBoard:
    """A packaged board by name, or a board file by path (each text read once)."""
    text, source = packaged_or_file("companion.games.desert_survivors", "boards", board or "standard",
                                    BoardFileError, "desert survivors board")
    return _parsed(text, source)


@lru_cache(maxsize=8)
def _parsed(text: str, source: str) -> DesertBoard:
    doc = BoardText(text, source, KEYS, "desert-survivors", "a desert survivors board")
    head, marks, fail, number = doc.head, doc.data["markers"], doc.fail, doc.number

    def marker(key: str) -> int:
        v = marks.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise fail(f"markers.{key}", f"expected the first marker id of the {key}, got {v!r}")
        return v

    fids = marks.get("fiducials")
    if not (isinstance(fids, list) and len(fids) == 4 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                and v >= 0 for v in fids)):
        raise fail("markers.fiducials", "expected the 4 corner markers' ids")
    first_mapboard = marker("mapboards") if "mapboards" in marks else None
    board = DesertBoard(str(head.get("name", "board")), source, number("space_mm", 20, 200),
                        number("margin_mm", 20, 300), number("fiducial_mm", 10, 100),
                        str(head.get("marker_dictionary", "")), number("disc_mm", 10, 200),
                        number("counter_mm", 10, 200), number("piece_marker_mm", 3, 100),
                        number("token_height_mm", 0, 100), (fids[0], fids[1], fids[2], fids[3]),
                        marker("discs"), marker("counters"), marker("disc_backs"), marker("counter_backs"),
                        number("mapboard_marker_mm", 10, 100) if "mapboard_marker_mm" in head else 20.0,
                        number("mapboard_inset_mm", 0, 50) if "mapboard_inset_mm" in head else 3.0, first_mapboard)
    ids = list(board.fiducials) + list(board.markers().values()) + list(board.backs().values()) + \
        [m for ms in board.mapboard_markers().values() for m in ms]
    if len(set(ids)) != len(ids):
        raise fail("markers", "corner markers, discs (42 ids from 'discs', 42 from 'disc_backs'), X-counters "
                   "(84 from 'counters', 84 from 'counter_backs') and the mapboards' corner markers (24 from "
                   "'mapboards') must not share ids")
    size = int(board.marker_dictionary.rsplit("_", 1)[-1]) if board.marker_dictionary[-1:].isdigit() else 0
    if size and max(ids) >= size:
        raise fail("board.marker_dictionary", f"{board.marker_dictionary} holds {size} markers, but id {max(ids)} "
                   "is used")
    if min(board.disc_mm, board.counter_mm) < board.piece_marker_mm * math.sqrt(2) + 2:
        raise fail("board.piece_marker_mm", "a disc or counter cannot hold its marker")
    if max(board.disc_mm, board.counter_mm) > board.space_mm - 4:
        raise fail("board.space_mm", "a disc or counter must lie inside a space with room to pick it up")
    if board.mapboard_inset_mm + board.mapboard_marker_mm > board.space_mm / 2:
        raise fail("board.mapboard_marker_mm", "a mapboard's corner marker and its inset must lie within the corner "
                   "quarter of its corner space")
    if board.margin_mm < board.fiducial_mm + 5:
        raise fail("board.margin_mm", "the margin must hold the corner markers")
    return board


# ----------------------------------------------------------------------------- the layout
def layout(board: DesertBoard, arrangement: Arrangement, groups: tuple[str, ...]) -> Layout:
    """The laid desert's geometry (built once per arrangement and groups in play)."""
    return _build(board, arrangement, groups)


def _rect(cx: float, cy: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))


@lru_cache(maxsize=16)
def _build(board: DesertBoard, arrangement: Arrangement, groups: tuple[str, ...]) -> Layout:
    desert, sq, m = build(arrangement), board.space_mm, board.margin_mm
    grounds: dict[tuple[int, int], tuple[str, Placed]] = {}
    for placed in arrangement:
        for xy, kind in placed.cells().items():
            grounds[xy] = (kind, placed)
    cols = max(x for x, _ in grounds) + 1
    rows = max(y for _, y in grounds) + 1
    size = (cols * sq + 2 * m, rows * sq + 2 * m)
    printed = _printed_markers(board, arrangement)
    cells: dict[str, Cell] = {}
    for (x, y), (kind, placed) in sorted(grounds.items(), key=lambda i: (i[0][1], i[0][0])):
        name, cx, cy = space(x, y), m + (x + 0.5) * sq, m + (y + 0.5) * sq
        # its column and row as every message names them (C4), for the rulers the pages draw beside the grid
        facts: dict[str, object] = {"mapboard": placed.board, "turn": placed.turn,
                                    "column": name.rstrip("0123456789"), "row": name.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
        if (x, y) in printed:
            facts["printed_markers"] = printed[(x, y)]
        label = f"{name} (oasis)" if kind == OASIS else f"{name} (rock)" if kind == ROCK else name
        fill = OASIS_FILL if kind == OASIS else ROCK_FILL if kind == ROCK else SAND_FILL
        cells[name] = Cell(name, kind, (cx, cy), _rect(cx, cy, sq, sq), label, f"mapboard {placed.board}", fill,
                           LINE, standable=kind != ROCK, facts=facts)
    half = m / 2
    corners = ((half, half), (size[0] - half, half), (size[0] - half, size[1] - half), (half, size[1] - half))
    fiducials = tuple({"id": fid, "center_mm": [x, y], "size_mm": board.fiducial_mm}
                      for fid, (x, y) in zip(board.fiducials, corners, strict=True))
    marker, back = board.markers(), board.backs()
    pieces: dict[str, Piece] = {}
    for colour in groups:
        for disc in discs_of(colour):
            pieces[disc] = Piece(disc, marker[disc], board.piece_marker_mm, "disc", f"a {colour} disc",
                                 RGB_OF[colour], facts={"colour": colour, "shape": "disc", "short": "",
                                                        "size_mm": board.disc_mm, "group": GROUPS[colour],
                                                        "laid": BACK},  # brought to the desert face down
                                 faces={FRONT: marker[disc], BACK: back[disc]})
    for counter in x_ids(len(groups)):
        pieces[counter] = Piece(counter, marker[counter], board.piece_marker_mm, "counter", "an X-counter",
                                COUNTER_RGB, facts={"shape": "square", "short": "X",
                                                    "size_mm": [board.counter_mm, board.counter_mm], "laid": BACK},
                                faces={FRONT: marker[counter], BACK: back[counter]})
    near = tuple(Edge(a, b, "connected") for a, ns in desert.neighbours.items() for b in ns if a < b)
    return Layout(name=board.name, size_mm=size, marker_dictionary=board.marker_dictionary, fiducials=fiducials,
                  cells=cells, pieces=pieces, marker_mm=board.piece_marker_mm, snap_mm=sq * 0.3,
                  piece_height_mm=board.token_height_mm, edges=near,
                  colours={c: RGB_OF[c] for c in groups})


def _printed_markers(board: DesertBoard, arrangement: Arrangement) -> dict[tuple[int, int], list[dict[str, object]]]:
    """Each mapboard's corner markers where the laid desert has them, by the space they are printed
    in: id, centre (layout mm), side, how far the marker is turned clockwise (with its board), label."""
    sq, m, own = board.space_mm, board.margin_mm, board.mapboard_markers()
    out: dict[tuple[int, int], list[dict[str, object]]] = {}
    for placed in arrangement:
        if placed.board not in own:
            continue
        for k, u, v in board.printed(placed.turn):
            x, y = m + placed.x * sq + u, m + placed.y * sq + v
            out.setdefault((int((x - m) // sq), int((y - m) // sq)), []).append(
                {"id": own[placed.board][k], "center_mm": [x, y], "size_mm": board.mapboard_marker_mm,
                 "turn": placed.turn, "label": f"mapboard {placed.board} {CORNERS[k]}"})
    return out


def assembly(board: DesertBoard) -> Assembly | None:
    """The mapboards as parts the camera reads at setup (their corner markers), and the arrangement a
    reading gives: checked as any arrangement is, for as many boards as groups play; None when the
    board file gives the mapboards no markers."""
    own = board.mapboard_markers()
    if not own:
        return None
    upright = board.printed(0)
    parts = tuple(Part(str(b), (COLS, ROWS), tuple((own[b][k], u, v) for k, u, v in upright)) for b in sorted(own))

    def answer(laid: tuple[Laid, ...]) -> str:
        return arrangement_text(tuple(Placed(int(p.part), p.x, p.y, p.turn) for p in laid))

    def check(answer: str, players: int) -> None:
        check_arrangement(parse_arrangement(answer), len(groups_for(players)))

    return Assembly("arrangement", "mapboard", board.marker_dictionary, board.space_mm, board.mapboard_marker_mm,
                    parts, answer, check)


def describe(board: DesertBoard) -> str:
    return (f"board {board.name}: spaces of {board.space_mm:g} mm, discs {board.disc_mm:g} mm, X-counters "
            f"{board.counter_mm:g} mm, markers {board.marker_dictionary}; the desert is laid at setup")

