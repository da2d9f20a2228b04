"""Write ``companion/games/fog/boards/standard.toml`` from a compact layout description.

The shipped board file is plain data that a user edits by hand to match their printed board.
This script only exists so that a maintainer can regenerate the default file after changing
the layout parameters below (row widths, hex size, boat places); users never need to run it.

Run: ``python tools/make_standard_board.py > companion/games/fog/boards/standard.toml``
"""

from __future__ import annotations

import math

HEX_SIZE = 18.0  # centre to corner, mm; a hex is sqrt(3) * 18 = 31.2 mm across the flats
ROW_PITCH = 1.5 * HEX_SIZE
COL_PITCH = math.sqrt(3) * HEX_SIZE

# Beach rows from the boats outwards: (row, width, obstacles, empty hexes, RP lost per islander)
ROWS = [
    ("J", 10, 3, 7, -3),
    ("I", 9, 2, 3, -3),
    ("H", 9, 1, 3, -3),
    ("G", 8, 2, 3, -3),
    ("F", 8, 2, 3, -3),
    ("E", 7, 1, 3, -2),
    ("D", 7, 2, 2, -2),
    ("C", 6, 1, 2, -2),
    ("B", 6, 1, 1, -2),
    ("A", 5, 0, 1, -2),
]
SHORE_WIDTH = 11
MARGIN_X = 30.0
BEACH_TOP = 200.0  # y of the shore row's centres

NATIONS = ["blue", "green", "red"]
# (type, count) per nation; each nation has 1 leader and 2 commoners.
NATION_TYPES = {
    "blue": [("leader", 1), ("elder", 2), ("warrior", 3), ("sailor", 3), ("commoner", 2)],
    "green": [("leader", 1), ("elder", 3), ("warrior", 2), ("sailor", 3), ("commoner", 2)],
    "red": [("leader", 1), ("elder", 2), ("warrior", 2), ("sailor", 3), ("commoner", 2)],
}
CHARACTERISTICS = ["push", "jump", "cross", "squeeze", "all-rounder", "endurance"]


def q0_for(r: int, width: int, turn: list[int]) -> int:
    """Leftmost axial q of a row, keeping the funnel centred under the shore."""
    centre = (SHORE_WIDTH - 1) / 2
    exact = centre - (width - 1) / 2 - r / 2
    if abs(exact - round(exact)) < 1e-9:
        return round(exact)
    turn[0] ^= 1
    return math.floor(exact) if turn[0] else math.ceil(exact)


def centre(q: int, r: int) -> tuple[float, float]:
    return (MARGIN_X + COL_PITCH * (q + r / 2 + 2.5), BEACH_TOP + ROW_PITCH * r)


def fmt(v: float) -> str:
    return f"{v:.1f}"


def main() -> None:
    out: list[str] = []
    w = out.append
    w('# The FOG - standard board (1-4 players).')
    w('#')
    w('# Edit this file to match your printed board; see docs/board-format.md. Values marked')
    w('# "edit to match your board" are plausible defaults, not read off a printed board.')
    w('# Units are millimetres, origin at the top-left corner of the printed board, x right, y down.')
    w('')
    w('[board]')
    w('name = "standard"')
    w('game = "fog"')
    w(f'hex_size_mm = {HEX_SIZE}  # centre to corner of a beach hex')
    w('size_mm = [480.0, 520.0]  # edit to match your board')
    w('marker_dictionary = "DICT_4X4_100"')
    w('islander_marker_mm = 14.0')
    w('obstacle_marker_mm = 14.0')
    w('token_height_mm = 3.0  # the markers sit on tokens this far above the board')
    w('mp_per_turn = 7')
    w('')
    w('# Four ArUco fiducials glued near the board corners: top-left, top-right, bottom-right, bottom-left.')
    for fid, (x, y) in enumerate([(20.0, 20.0), (460.0, 20.0), (460.0, 500.0), (20.0, 500.0)]):
        w('[[fiducials]]')
        w(f'id = {fid}')
        w(f'center_mm = [{fmt(x)}, {fmt(y)}]')
        w('size_mm = 30.0')
    w('')
    w('# Beach rows, A farthest from the boats. obstacles / empty = the two numbers printed to the')
    w('# right of each row; lost_rp = rescue points per islander swallowed in this row.')
    for row, width, obstacles, empty, lost in sorted(ROWS):
        w('[[rows]]')
        w(f'id = "{row}"')
        w(f'obstacles = {obstacles}')
        if row == "I":
            w(f'empty = {{ default = {empty}, "3" = {empty + 2} }}  # 3 players: 2 extra empty hexes')
        else:
            w(f'empty = {empty}')
        w(f'lost_rp = {lost}  # edit to match your board')
    w('[[rows]]')
    w('id = "shore"')
    w('lost_rp = -3  # islanders still on the shore when the FOG arrives; edit to match your board')
    w('')
    w('# Cells. q/r are axial hex coordinates (pointy top, r grows away from the boats); beach, woods')
    w('# and shore cells are adjacent when their axial coordinates are. Piers and boat places are')
    w('# connected only by the [[links]] below.')
    turn = [0]
    rows_r = {row: i + 1 for i, (row, *_rest) in enumerate(ROWS)}
    shore_cells: list[tuple[str, float]] = []
    for i in range(SHORE_WIDTH):
        x, y = centre(i, 0)
        cid = f"S{i + 1}"
        shore_cells.append((cid, x))
        w(f'[[cells]]\nid = "{cid}"\nkind = "shore"\nq = {i}\nr = 0\ncenter_mm = [{fmt(x)}, {fmt(y)}]')
    for row, width, *_rest in ROWS:
        r = rows_r[row]
        q0 = q0_for(r, width, turn)
        for k in range(width):
            x, y = centre(q0 + k, r)
            w(f'[[cells]]\nid = "{row}{k + 1}"\nkind = "beach"\nrow = "{row}"\nq = {q0 + k}\nr = {r}'
              f'\ncenter_mm = [{fmt(x)}, {fmt(y)}]')
        for side, q in (("W", q0 - 1), ("E", q0 + width)):
            x, y = centre(q, r)
            w(f'[[cells]]\nid = "woods-{row}{side}"\nkind = "woods"\nq = {q}\nr = {r}'
              f'\ncenter_mm = [{fmt(x)}, {fmt(y)}]')

    # Boats and piers above the shore: [blue][P1][green][P2][red][P3]
    shore_y = BEACH_TOP
    unit = 52.0
    left = 120.0
    boat_x = {"blue": left, "green": left + 2 * unit, "red": left + 4 * unit}
    pier_x = {"P1": left + unit, "P2": left + 3 * unit, "P3": left + 5 * unit}
    pier_boats = {"P1": [("blue", "right"), ("green", "left")],
                  "P2": [("green", "right"), ("red", "left")],
                  "P3": [("red", "right")]}
    places = {
        "blue": {("A", "left"): ("sailor", 1), ("A", "right"): ("leader", 1),
                 ("B", "left"): ("warrior", 1), ("B", "right"): ("elder", 1),
                 ("C", "left"): ("commoner", 2), ("C", "right"): ("sailor", 1)},
        "green": {("A", "left"): ("leader", 1), ("A", "right"): ("sailor", 1),
                  ("B", "left"): ("elder", 1), ("B", "right"): ("warrior", 1),
                  ("C", "left"): ("sailor", 1), ("C", "right"): ("commoner", 2)},
        "red": {("A", "left"): ("sailor", 1), ("A", "right"): ("leader", 1),
                ("B", "left"): ("elder", 1), ("B", "right"): ("warrior", 1),
                ("C", "left"): ("commoner", 2), ("C", "right"): ("sailor", 1)},
    }
    area_y = {"A": shore_y - 120.0, "B": shore_y - 90.0, "C": shore_y - 60.0, "D": shore_y - 30.0}
    for pier, x in pier_x.items():
        for k in (1, 2, 3):
            w(f'[[cells]]\nid = "{pier}-{k}"\nkind = "pier"\npier = "{pier}"'
              f'\ncenter_mm = [{fmt(x)}, {fmt(shore_y - 30.0 * k)}]')
    for boat in NATIONS:
        bx = boat_x[boat]
        for (area, side), (itype, cap) in places[boat].items():
            x = bx - 17.0 if side == "left" else bx + 17.0
            w(f'[[cells]]\nid = "{boat}-{area}{side[0].upper()}"\nkind = "boat"\nboat = "{boat}"'
              f'\narea = "{area}"\nside = "{side}"\nplace = "productive"\nislander_type = "{itype}"'
              f'\ncapacity = {cap}\ncenter_mm = [{fmt(x)}, {fmt(area_y[area])}]')
        w(f'[[cells]]\nid = "{boat}-stern"\nkind = "boat"\nboat = "{boat}"\narea = "D"\nside = "middle"'
          f'\nplace = "stern"\ncapacity = 4  # edit to match your board'
          f'\ncenter_mm = [{fmt(bx)}, {fmt(area_y["D"])}]')
    w('')
    w('# Links join cells that are not hex neighbours: pier fields in a chain, the shore to the pier')
    w('# foot, planks (kind = "plank") from shore/pier fields into boats, and the paths inside a boat.')

    def link(a: str, b: str, kind: str) -> None:
        w(f'[[links]]\na = "{a}"\nb = "{b}"\nkind = "{kind}"')

    def nearest_shore(x: float, n: int) -> list[str]:
        return [cid for cid, _ in sorted(shore_cells, key=lambda c: abs(c[1] - x))[:n]]

    for pier, x in pier_x.items():
        link(nearest_shore(x, 1)[0], f"{pier}-1", "pier")
        link(f"{pier}-1", f"{pier}-2", "pier")
        link(f"{pier}-2", f"{pier}-3", "pier")
        for boat, side in pier_boats[pier]:
            s = side[0].upper()
            link(f"{pier}-1", f"{boat}-stern", "plank")
            link(f"{pier}-1", f"{boat}-C{s}", "plank")
            link(f"{pier}-2", f"{boat}-B{s}", "plank")
            link(f"{pier}-3", f"{boat}-A{s}", "plank")
    for boat in NATIONS:
        for cid in nearest_shore(boat_x[boat], 2):
            link(cid, f"{boat}-stern", "plank")
        for area in "ABC":
            link(f"{boat}-{area}L", f"{boat}-{area}R", "boat")
        for s in "LR":
            link(f"{boat}-A{s}", f"{boat}-B{s}", "boat")
            link(f"{boat}-B{s}", f"{boat}-C{s}", "boat")
            link(f"{boat}-C{s}", f"{boat}-stern", "boat")
    w('')
    w('[boats]')
    w('order = ["blue", "green", "red"]  # left to right')
    w('# Minimum crew option: islanders needed in each of the upper areas for a boat to depart.')
    w('min_crew = { A = 1, B = 1 }  # edit to match your board')
    w('# Preparation bonuses per boat, top of the stack first.')
    w('preparation_bonus = { blue = [6, 4, 2], green = [5, 4, 2], red = [4, 3] }  # edit to match your board')
    w('# Four double-sided boat scoring tokens; each game one side of each comes up, and they are')
    w('# laid highest first on areas A-D. The value of an area applies to every boat.')
    w('scoring_tokens = [[5, 4], [4, 3], [3, 2], [2, 1]]  # edit to match your board')
    w('')
    w('# The FOG track, in the order the FOG marker moves. swallows = beach rows the FOG covers when')
    w('# it reaches that field. The game ends when the marker reaches the last field.')
    fog = [("13", []), ("12", []), ("11", []), ("10", []), ("9", []), ("8", []), ("7", ["A"]),
           ("6", ["B"]), ("5", ["C"]), ("4", ["D"]), ("3", ["E", "F"]), ("2", ["G", "H"]),
           ("0/1", ["I", "J", "shore"])]
    w('[fog_track]')
    w('start = { "2" = "12", "3" = "13", "4" = "12", solo = "9" }  # edit to match your board')
    for label, rows in fog:
        rows_s = ", ".join(f'"{r}"' for r in rows)
        w(f'[[fog_track.fields]]\nlabel = "{label}"\nswallows = [{rows_s}]')
    w('')
    w('# Turn boards: how many colour fields each has. The turn marker snakes: down the fields in')
    w('# one round, up in the next, so the last player of a round starts the next (double turn).')
    w('# A horizontal step of the turn marker (between rounds) advances the FOG.')
    w('[turn_boards]')
    w('"2" = { fields = 4 }  # two players alternate, each plays two colours')
    w('"3" = { fields = 3 }')
    w('"4" = { fields = 4 }')
    w('solo = { fields = 3 }  # nation markers: 1 = blue, 2 = green, 3 = red')
    w('')
    w('[colours]')
    w('players = ["black", "pink", "yellow", "white"]')
    w('rgb = { black = [40, 40, 40], pink = [255, 60, 150], yellow = [255, 200, 0], white = [255, 255, 255],'
      ' blue = [0, 80, 255], green = [0, 200, 60], red = [255, 20, 20], fog = [90, 90, 110] }')
    w('')
    w('[markers]')
    w('fog = 70')
    w('turn = 71')
    w('')
    w('# The 32 islanders. 3 players: removed_3p are put back in the box.')
    marker = 10
    idx = 0
    for nation in NATIONS:
        for itype, count in NATION_TYPES[nation]:
            for n in range(1, count + 1):
                ch = CHARACTERISTICS[idx % len(CHARACTERISTICS)]
                idx += 1
                w(f'[[islanders]]\nid = "{nation}-{itype}-{n}"\nnation = "{nation}"\ntype = "{itype}"'
                  f'\ncharacteristic = "{ch}"  # edit to match your tokens\nmarker = {marker}')
                marker += 1
    w('')
    w('[setup]')
    w('removed_3p = ["red-commoner-2", "blue-commoner-2"]')
    w('')
    w('# The 15 obstacles; the pictures differ only for looks.')
    marker = 50
    for kind in ("rock", "driftwood", "bush"):
        for n in range(1, 6):
            w(f'[[obstacles]]\nid = "{kind}-{n}"\nkind = "{kind}"\nmarker = {marker}')
            marker += 1
    print("\n".join(out))


if __name__ == "__main__":
    main()
