"""The FOG's board as a generic :class:`~companion.games.base.Layout`: what the camera and the panel draw.

The camera needs only the geometry (fiducials, cell centres and outlines, which marker is which
piece); the panel draws the same outlines. Everything else about a cell (row, pier, boat, area)
travels as ``facts`` a panel may show, never as something the generic code reasons about.
"""

from __future__ import annotations

import math
from companion.games.base import Cell, Edge, Layout, Piece, Track, layout_once, polygon
from companion.games.fog.board import Board

# How a drawing paints the cells and tokens (RGB). The camera does not use colours.
FILL = {"woods": (40, 90, 40), "shore": (150, 190, 200), "pier": (140, 100, 60)}
HEX_LINE = (170, 150, 110)
BOAT_LINE = (120, 80, 50)
NATION_RGB = {"blue": (40, 110, 200), "green": (40, 150, 60), "red": (200, 40, 40)}
OBSTACLE_RGB = {"rock": (120, 120, 120), "driftwood": (140, 100, 60), "bush": (60, 110, 50)}
PIER_HALF_MM = 13.0
BOAT_PLACE_MM = 14.0





# What a player calls a characteristic when naming an islander ("green sailor · jumps").
SAYS = {"jump": "jumps", "push": "pushes", "cross": "crosses", "squeeze": "squeezes", "endurance": "endurance",
        "all-rounder": "all-rounder"}

# What a token shows, for a panel to draw: its type as an icon (SVG path data in a 16-unit box
# centred on 0, filled) and its characteristic as the mark the rulebook's table uses ("3" for the
# all-rounder, "+1" for endurance) or a short word. Players read icons faster than letters, and a
# letter code ("Wju") has to be learnt.
ICONS = {
    "leader": "M-7,4 L-7,-4 L-3.5,0 L0,-6 L3.5,0 L7,-4 L7,4 Z",                         # a crown
    "elder": "M-1,7 L-1,-3 A3,3 0 0 1 5,-3 L5,-1 L3,-1 L3,-3 A1,1 0 0 0 1,-3 L1,7 Z",   # a walking stick
    "warrior": "M0,-8 L1.3,-6 L1.3,3 L4,3 L4,4.6 L0.9,4.6 L0.9,7.5 L-0.9,7.5 L-0.9,4.6 L-4,4.6 L-4,3 "
               "L-1.3,3 L-1.3,-6 Z",                                                      # a sword
    "sailor": "M-1.6,-5.5 A1.6,1.6 0 1 0 1.6,-5.5 A1.6,1.6 0 1 0 -1.6,-5.5 Z M-0.9,-4 L0.9,-4 L0.9,-2.5 "
              "L3.5,-2.5 L3.5,-1 L0.9,-1 L0.9,5.4 A4.5,4.5 0 0 0 4.5,1 L6,1 A6,6 0 0 1 -6,1 L-4.5,1 "
              "A4.5,4.5 0 0 0 -0.9,5.4 L-0.9,-1 L-3.5,-1 L-3.5,-2.5 L-0.9,-2.5 Z",        # an anchor
    "commoner": "M-2.6,-3.5 A2.6,2.6 0 1 0 2.6,-3.5 A2.6,2.6 0 1 0 -2.6,-3.5 Z M-5.5,7 A5.5,5.5 0 0 1 5.5,7 Z",
    "rock": "M-7,5 L-5,-2 L-1,-6 L4,-4 L7,2 L5,5 Z",
    "driftwood": "M-7.5,2 L4.5,-5 L6.5,-2 L-5.5,5 Z M1,-2.5 L3,-7 L4.6,-6.2 L2.8,-2 Z",
    "bush": "M-6.5,5 A3.5,3.5 0 0 1 -4.5,-1.5 A4.2,4.2 0 0 1 4.5,-1.5 A3.5,3.5 0 0 1 6.5,5 Z",
}
MARKS = {"push": "push", "jump": "jump", "cross": "cross", "squeeze": "sqz", "all-rounder": "3", "endurance": "+1"}


def board_layout(board: Board) -> Layout:
    """The layout of one board file (boards are immutable and cached, so each is built once)."""
    return layout_once(board, _build)


def _build(board: Board) -> Layout:
    r = board.hex_size_mm
    cells: dict[str, Cell] = {}
    for c in board.cells.values():
        if c.axial is not None:
            outline, fill, line = polygon(c.center_mm, r, 6, 30), FILL.get(c.kind), HEX_LINE
        elif c.kind == "pier":
            x, y = c.center_mm
            h = PIER_HALF_MM
            outline, fill, line = ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)), FILL["pier"], None
        else:
            outline, fill, line = polygon(c.center_mm, BOAT_PLACE_MM, 16), None, BOAT_LINE
        facts = {"row": c.row, "pier": c.pier, "boat": c.boat, "area": c.area, "place": c.place,
                 "islander_type": c.islander_type}
        cells[c.id] = Cell(c.id, c.kind, c.center_mm, outline, c.id, c.row, fill, line, c.kind != "woods", facts)
    pieces: dict[str, Piece] = {}
    for i in board.islanders.values():
        pieces[i.id] = Piece(i.id, i.marker, board.islander_marker_mm, "islander",
                             f"{i.nation} {i.type} · {SAYS.get(i.characteristic, i.characteristic)}",
                             NATION_RGB.get(i.nation),
                             facts={"nation": i.nation, "type": i.type, "characteristic": i.characteristic,
                                    "short": i.type[0].upper() + i.characteristic[:2], "shape": "disc",
                                    "icon": ICONS[i.type], "icon_says": i.type,
                                    "mark": MARKS.get(i.characteristic, i.characteristic[:4]),
                                    "mark_says": SAYS.get(i.characteristic, i.characteristic)})
    for o in board.obstacles.values():
        pieces[o.id] = Piece(o.id, o.marker, board.obstacle_marker_mm, "obstacle", o.kind,
                             OBSTACLE_RGB.get(o.kind), facts={"obstacle": o.kind, "short": "▲", "shape": "square",
                                                                "icon": ICONS.get(o.kind, ICONS["rock"]), "icon_says": o.kind})
    edges = tuple(Edge(a, b, "neighbour") for a in sorted(board.cells) for b in sorted(board.neighbours(a)) if a < b)
    return Layout(
        name=board.name, size_mm=board.size_mm, marker_dictionary=board.marker_dictionary,
        fiducials=board.fiducials, cells=cells, pieces=pieces, marker_mm=board.islander_marker_mm,
        snap_mm=r * math.sqrt(3) / 2, piece_height_mm=board.token_height_mm,
        special_markers=dict(board.special_markers), edges=edges,
        tracks=(Track("fog", "FOG track", tuple(f.label for f in board.fog_fields)),
                Track("boats", "boats", tuple(board.boat_order))),
        colours=dict(board.rgb))
