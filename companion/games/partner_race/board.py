"""The partner card race's board file, and the layout the camera and the panel draw from it.

The file gives measurements (the track's radius, a space's size, where the starting spaces, goal
circles and home circles lie, the card spot), the corner markers and the markers' ids; every
place is worked out from them, so a board of another size is a few numbers. Checked when it is
read: a mistake names the file and the key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.errors import BoardFileError
from companion.games.boardfile import BoardText
from companion.games.base import RGB, Cell, Edge, Layout, Piece, Track, layout_once, packaged_or_file, polygon
from companion.games.partner_race.cards import CARDS, DECK, called
from companion.games.partner_race.track import COLOURS, GOAL, PAWNS, PER_SEAT, TRACK, pawns_of

KEYS = {"board": ("name", "game", "size_mm", "track_radius_mm", "space_mm", "start_out_mm", "goal_step_mm",
                  "home_out_mm", "card_mm", "marker_dictionary", "pawn_marker_mm", "card_marker_mm",
                  "token_height_mm", "pawn_mm", "playing_card_mm"),
        "fiducials": ("id", "center_mm", "size_mm"), "markers": ("pawns", "cards"), "colours": COLOURS}
CARD_SPOT = "card-spot"


@dataclass(frozen=True)
class RaceBoard:
    name: str
    source: str
    size_mm: tuple[float, float]
    track_radius_mm: float
    space_mm: float
    start_out_mm: float
    goal_step_mm: float
    home_out_mm: float
    card_mm: tuple[float, float]
    marker_dictionary: str
    pawn_marker_mm: float
    card_marker_mm: float
    token_height_mm: float
    fiducials: tuple[dict[str, Any], ...]
    first_pawn_marker: int
    first_card_marker: int
    rgb: dict[str, tuple[int, int, int]]
    pawn_mm: float = 20.0  # a pawn's round top (its sticker): narrower than the track's pitch
    playing_card_mm: tuple[float, float] = (57.0, 89.0)  # the cards played onto the card spot

    @property
    def pitch_mm(self) -> float:
        """The distance between two neighbouring track spaces' centres (a chord of the track's circle)."""
        return 2 * self.track_radius_mm * math.sin(math.pi / TRACK)

    # ------------------------------------------------------------------ where things are
    @property
    def centre(self) -> tuple[float, float]:
        return (self.size_mm[0] / 2, self.size_mm[1] / 2)

    def _at(self, angle_deg: float, radius: float) -> tuple[float, float]:
        cx, cy = self.centre
        a = math.radians(angle_deg)
        return (round(cx + radius * math.cos(a), 2), round(cy + radius * math.sin(a), 2))

    @staticmethod
    def track_angle(index: float) -> float:
        """Clockwise as seen from above (y grows down), yellow's first space just right of the bottom."""
        return 90.0 + (index + 0.5) * 360.0 / TRACK

    def junction_angle(self, seat: int) -> float:
        return self.track_angle(PER_SEAT * seat - 0.5)

    def places(self) -> dict[str, tuple[float, float]]:
        """Every cell's centre: track spaces ``T0``.., and per colour ``start-C``, ``goal-C-1``..4 and ``home-C-1``..4."""
        out = {f"T{i}": self._at(self.track_angle(i), self.track_radius_mm) for i in range(TRACK)}
        for seat, colour in enumerate(COLOURS):
            j = self.junction_angle(seat)
            out[f"start-{colour}"] = self._at(j, self.track_radius_mm + self.start_out_mm)
            for k in range(1, GOAL + 1):
                out[f"goal-{colour}-{k}"] = self._at(j, self.track_radius_mm - k * self.goal_step_mm)
            spread = math.degrees(self.space_mm * 1.15 / (self.track_radius_mm + self.home_out_mm))
            for k in range(1, PAWNS + 1):
                out[f"home-{colour}-{k}"] = self._at(j + (k - 2.5) * spread, self.track_radius_mm + self.home_out_mm)
        out[CARD_SPOT] = self.centre
        return out

    def marker_of_pawn(self, pawn: str) -> int:
        colour, _, n = pawn.rpartition("-")
        return self.first_pawn_marker + COLOURS.index(colour) * PAWNS + int(n) - 1

    def marker_of_card(self, name: str) -> int:
        return self.first_card_marker + list(CARDS).index(name)


def load(board: str = "standard") -> RaceBoard:
    """A packaged board by name, or a board file by path (each text read once)."""
    text, source = packaged_or_file("companion.games.partner_race", "boards", board, BoardFileError,
                                    "partner race board")
    return _parsed(text, source)


@lru_cache(maxsize=16)
def _parsed(text: str, source: str) -> RaceBoard:
    return _parse(text, source)


def _parse(text: str, source: str) -> RaceBoard:
    doc = BoardText(text, source, KEYS, "partner-race", "a partner race board", lists=("fiducials",))
    data, head, fail, number = doc.data, doc.head, doc.fail, doc.number

    def pair(key: str) -> tuple[float, float]:
        v = head.get(key)
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                          and 10 <= x <= 5000 for x in v)):
            raise fail(f"board.{key}", f"expected [width, height] in mm, got {v!r}")
        return (float(v[0]), float(v[1]))

    fiducials = doc.fiducials(KEYS["fiducials"])
    markers = data["markers"]
    rgb = doc.colours(COLOURS)
    board = RaceBoard(
        name=str(head.get("name", "board")), source=source, size_mm=pair("size_mm"),
        track_radius_mm=number("track_radius_mm", 50, 2000), space_mm=number("space_mm", 8, 100),
        start_out_mm=number("start_out_mm", 5, 300), goal_step_mm=number("goal_step_mm", 5, 300),
        home_out_mm=number("home_out_mm", 5, 500), card_mm=pair("card_mm"),
        marker_dictionary=str(head.get("marker_dictionary", "")), pawn_marker_mm=number("pawn_marker_mm", 3, 100),
        card_marker_mm=number("card_marker_mm", 3, 200), token_height_mm=number("token_height_mm", 0, 100),
        fiducials=tuple(fiducials), first_pawn_marker=int(markers.get("pawns", -1)),
        first_card_marker=int(markers.get("cards", -1)), rgb=rgb,
        pawn_mm=number("pawn_mm", 3, 100) if "pawn_mm" in head else 20.0,
        playing_card_mm=pair("playing_card_mm") if "playing_card_mm" in head else (57.0, 89.0))
    ids = [f["id"] for f in fiducials] + [board.marker_of_pawn(p) for c in COLOURS for p in pawns_of(c)] + \
        [board.marker_of_card(n) for n in CARDS]
    if len(set(ids)) != len(ids) or min(ids) < 0:
        raise fail("markers", "corner markers, pawns (16 ids from 'pawns') and cards (14 from 'cards') must not share ids")
    if board.track_radius_mm * 2 * math.pi / TRACK < board.space_mm:
        raise fail("board.space_mm", "the spaces overlap on a track of this radius")
    if board.pawn_mm < board.pawn_marker_mm * math.sqrt(2):
        raise fail("board.pawn_mm", f"a pawn's top of {board.pawn_mm:g} mm cannot hold its {board.pawn_marker_mm:g} mm "
                   "marker (it needs the marker's diagonal)")
    if board.pawn_mm > board.pitch_mm - 4:
        # pawns put a couple of millimetres off their spaces would lie on the next space's marker
        raise fail("board.pawn_mm", f"pawns of {board.pawn_mm:g} mm on a track of {board.pitch_mm:.1f} mm pitch cover "
                   "each other's markers: a pawn must be at least 4 mm narrower than the pitch")
    if min(board.playing_card_mm) < board.card_marker_mm + 10:
        raise fail("board.playing_card_mm", f"a card of {board.playing_card_mm[0]:g} x {board.playing_card_mm[1]:g} mm "
                   f"cannot hold its {board.card_marker_mm:g} mm marker with a margin")
    if board.track_radius_mm - GOAL * board.goal_step_mm < board.card_mm[1] / 2:
        raise fail("board.goal_step_mm", "the innermost goal circles reach the card spot")
    return board


# ----------------------------------------------------------------------------- the layout
def _pale(rgb: RGB) -> RGB:
    """A colour mixed with white (55 % of it): a goal circle's fill, lighter than the pawns on it."""
    r, g, b = (int(v * 0.55 + 255 * 0.45) for v in rgb)
    return (r, g, b)


GOAL_FILL = {c: _pale(rgb) for c, rgb in
             {"yellow": (240, 200, 40), "green": (60, 170, 80), "blue": (50, 110, 220), "red": (210, 60, 50)}.items()}


def layout(board: RaceBoard) -> Layout:
    """The geometry every other part of the companion works from (built once per board)."""
    return layout_once(board, _build)


def _build(board: RaceBoard) -> Layout:
    r = board.space_mm / 2
    cells: dict[str, Cell] = {}
    for cid, centre in board.places().items():
        if cid == CARD_SPOT:
            w, h = board.card_mm
            cx, cy = centre
            outline = ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))
            cells[cid] = Cell(cid, "card-spot", centre, outline, "card spot", None, (245, 240, 225), (90, 90, 90),
                              facts={"pile": True})  # the played cards: only the top one shows
            continue
        kind, colour = (cid.split("-") + [""])[:2] if "-" in cid else ("track", "")
        fill = board.rgb.get(colour) if kind in ("start", "home") else GOAL_FILL.get(colour) if kind == "goal" else (235, 225, 200)
        label = cid if kind == "track" else cid.replace("-", " ")
        # two pawns of one colour on a track space (or brought out onto their starting space) are a
        # stack: the one landing is put on the other (a space is narrower than two pawns side by side)
        facts: dict[str, Any] = {"stack": True} if kind in ("track", "start") else {}
        if colour:
            facts["colour"] = colour
        cells[cid] = Cell(cid, kind, centre, polygon(centre, r, 16), label, colour or None, fill, (60, 60, 60),
                          facts=facts)
    pieces: dict[str, Piece] = {}
    for colour in COLOURS:
        for pawn in pawns_of(colour):
            pieces[pawn] = Piece(pawn, board.marker_of_pawn(pawn), board.pawn_marker_mm, "pawn",
                                 f"{colour} pawn {pawn.rsplit('-', 1)[1]}",
                                 board.rgb[colour], facts={"colour": colour, "shape": "disc",
                                                           "short": pawn.rsplit("-", 1)[1], "size_mm": board.pawn_mm})
    for name, c in CARDS.items():
        pid = f"card-{name}"
        # named and drawn as printed ("8 card", "1/14"): the notation (8s, 1-14) stays the id's
        pieces[pid] = Piece(pid, board.marker_of_card(name), board.card_marker_mm, "card", f"{called(name)} card: {c.says}",
                            (250, 250, 245), facts={"card": name, "shape": "square",
                                                    "short": "1/14" if name == "1-14" else called(name),
                                                    "copies": DECK[name], "size_mm": list(board.playing_card_mm)})
    edges = tuple(Edge(f"T{i}", f"T{(i + 1) % TRACK}", "track") for i in range(TRACK))
    return Layout(name=board.name, size_mm=board.size_mm, marker_dictionary=board.marker_dictionary,
                  fiducials=board.fiducials, cells=cells, pieces=pieces, marker_mm=board.pawn_marker_mm,
                  snap_mm=min(r, board.track_radius_mm * math.pi / TRACK) * 0.95,
                  piece_height_mm=board.token_height_mm, edges=edges,
                  tracks=(Track("track", "track", tuple(f"T{i}" for i in range(TRACK))),),
                  colours=dict(board.rgb))
