"""Parts laid at setup, read by their own corner markers: each part's place and turn, or what is wrong.

Three square-ish parts of 4 x 3 cells (40 mm cells), each with a marker in every corner, lie on a
table a tilted camera looks at. The markers are drawn where the camera would see them, so each
story lays the parts as a player might: well, or turned askew, half a cell off, one on another.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.games.assembly import Assembly, Laid, Part, canonical, turned_whole
from vision.assembly import AssemblyError, read_assembly
from vision.render import look_pose

CELL, SIDE, INSET = 40.0, 16.0, 2.0
W, H = 4 * CELL, 3 * CELL
C = INSET + SIDE / 2
PARTS = tuple(Part(name, (4, 3), tuple((10 * k + i, x, y) for i, (x, y) in
                                       enumerate(((C, C), (W - C, C), (W - C, H - C), (C, H - C)))))
              for k, name in enumerate(("A", "B", "C"), start=1))
KIT = Assembly("layout", "tile", "DICT_4X4_100", CELL, SIDE, PARTS, answer=lambda laid: "", check=lambda a, n: None)
CAMERA = look_pose((1920, 1080), 1400.0, (300.0, 200.0), 900.0, tilt_deg=18.0, tilt_dir_deg=60.0, yaw_deg=23.0)


def seen(*laid: tuple[str, float, float, float], hide: tuple[int, ...] = (), twice: int | None = None):
    """The markers the camera sees of parts laid at (x mm, y mm) turned ``deg`` clockwise about their
    top left corner: ArUco's corners and ids, a marker in ``hide`` covered."""
    corners, ids = [], []
    for name, x, y, deg in laid:
        part = next(p for p in PARTS if p.id == name)
        a = math.radians(deg)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        for marker, mx, my in part.markers:
            if marker in hide:
                continue
            h = SIDE / 2
            square = np.array([(mx - h, my - h), (mx + h, my - h), (mx + h, my + h), (mx - h, my + h)])
            table = square @ turn.T + (x, y)
            px = CAMERA.project(np.column_stack([table, np.zeros(4)]))
            corners += [px.reshape(1, 4, 2).astype(np.float32)] * (2 if marker == twice else 1)
            ids += [marker] * (2 if marker == twice else 1)
    return corners, np.array(ids).reshape(-1, 1)


def test_three_parts_laid_edge_to_edge_are_read_with_their_places_and_turns():
    # A upright; B to its right, turned a quarter (3 wide, 4 tall); C under A, upside down
    got = read_assembly(*seen(("A", 0, 0, 0), ("B", W + H, 0, 90), ("C", W, H + H, 180)), KIT)
    assert canonical(KIT, got) == (Laid("A", 0, 0, 0), Laid("B", 4, 0, 90), Laid("C", 0, 3, 180))
    # a hand-laid table: each part a few millimetres off and a degree or two askew still reads so
    got = read_assembly(*seen(("A", 3, -2, 1.5), ("B", W + H + 4, 1, 88.5), ("C", W - 3, H + H + 2, 181)), KIT)
    assert canonical(KIT, got) == (Laid("A", 0, 0, 0), Laid("B", 4, 0, 90), Laid("C", 0, 3, 180))


def test_a_reading_is_the_same_assembly_whichever_way_round_the_whole_lies():
    laid = (Laid("A", 0, 0, 0), Laid("B", 4, 0, 90))
    for quarters in range(4):
        assert canonical(KIT, turned_whole(KIT, laid, quarters)) == laid
    # turned a quarter as a whole on the table, it reads as the same assembly
    assert canonical(KIT, read_assembly(*seen(("A", W, 0, 90), ("B", W, W + H, 180)), KIT)) == laid


def test_a_part_covered_but_for_one_marker_is_named_and_not_guessed():
    with pytest.raises(AssemblyError, match=r"tile B: only 1 of its 4 corner markers seen: clear its corners"):
        read_assembly(*seen(("A", 0, 0, 0), ("B", W, 0, 0), hide=(20, 21, 22)), KIT)
    with pytest.raises(AssemblyError, match=r"no tile seen"):
        read_assembly([], None, KIT)


def test_a_part_turned_askew_is_named_with_its_angle():
    with pytest.raises(AssemblyError, match=r"tile B lies turned 30° from the others: lay it square"):
        read_assembly(*seen(("A", 0, 0, 0), ("B", W, 0, 30), ("C", 0, H, 0)), KIT)


def test_a_part_half_a_cell_off_is_not_edge_to_edge_with_its_neighbour():
    with pytest.raises(AssemblyError, match=r"tile B is not edge to edge with its neighbour: it lies 20 mm off"):
        read_assembly(*seen(("A", 0, 0, 0), ("B", W, CELL / 2, 0), ("C", 0, H, 0)), KIT)


def test_two_parts_one_on_the_other_overlap():
    with pytest.raises(AssemblyError, match=r"tiles A and B overlap"):
        read_assembly(*seen(("A", 0, 0, 0), ("B", 2 * CELL, CELL, 0)), KIT)


def test_a_corner_marker_seen_twice_is_a_copy_on_the_table():
    with pytest.raises(AssemblyError, match=r"tile A: its corner marker 11 is seen twice"):
        read_assembly(*seen(("A", 0, 0, 0), ("B", W, 0, 0), twice=11), KIT)
