"""The board as data: the shipped file is consistent, and a badly edited copy fails loudly."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import BoardFileError
from companion.games.fog.board import Board
from tests.tables import BOARD

STANDARD = (Path(__file__).resolve().parent.parent / "companion/games/fog/boards/standard.toml").read_text()


def test_the_standard_board_holds_32_islanders_15_obstacles_and_a_funnel_of_rows():
    assert len(BOARD.islanders) == 32 and len(BOARD.obstacles) == 15
    widths = [len(BOARD.row_cells[r]) for r in BOARD.beach_rows]
    assert widths == sorted(widths) and widths[0] < widths[-1]  # the beach widens towards the boats
    for nation in ("blue", "green", "red"):
        types = [i.type for i in BOARD.islanders.values() if i.nation == nation]
        assert types.count("leader") == 1 and types.count("commoner") == 2


def test_three_piers_of_exactly_three_fields_and_three_boats_with_a_stern():
    piers = {}
    for c in BOARD.cells.values():
        if c.kind == "pier":
            piers.setdefault(c.pier, []).append(c.id)
    assert sorted(len(v) for v in piers.values()) == [3, 3, 3]
    for boat in BOARD.boat_order:
        assert sum(c.place == "stern" for c in BOARD.boat_places(boat)) == 1
    assert BOARD.boat_order == ("blue", "green", "red")


def test_every_marker_id_is_unique_and_fits_the_dictionary():
    ids = [f["id"] for f in BOARD.fiducials] + [i.marker for i in BOARD.islanders.values()] + \
        [o.marker for o in BOARD.obstacles.values()] + list(BOARD.special_markers.values())
    assert len(ids) == len(set(ids)) and max(ids) < 100 and BOARD.marker_dictionary == "DICT_4X4_100"


def test_forward_sideways_and_backwards_follow_the_rows():
    start = "E3"
    assert BOARD.cells[BOARD.step(start, "NW")].row == "F"
    assert BOARD.cells[BOARD.step(start, "E")].row == "E"
    assert BOARD.cells[BOARD.step(start, "SE")].row == "D"


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('id = "A1"', 'id = "A2"', 1), "duplicate cell id"),
    (lambda t: t.replace("marker = 11\n", "marker = 10\n", 1), "marker id 10 is used by both"),
    (lambda t: t.replace('id = "A"\nobstacles = 0', 'id = "A"\nobstacles = 1', 1), "rows leave room for 31 islanders"),
    (lambda t: t.replace('nation = "blue"', 'nation = "purple"', 1), "'purple' is not one of"),
    (lambda t: t.replace("[board]", "[bored]", 1), r"unknown key\(s\) 'bored'"),
    (lambda t: t.replace("hex_size_mm = 18.0", "hex_size_mm = 0", 1), r"board.hex_size_mm: 0 is out of range"),
    (lambda t: t.replace("hex_size_mm = 18.0", "hex_size_mm = -18.0", 1), r"board.hex_size_mm: -18.0 is out"),
    (lambda t: t.replace("hex_size_mm = 18.0", "hex_size_mm = nan", 1), r"board.hex_size_mm: nan is out"),
    (lambda t: t.replace("islander_marker_mm = 14.0", "islander_marker_mm = 0", 1),
     r"board.islander_marker_mm: 0 is out of range"),
    (lambda t: t.replace("islander_marker_mm = 14.0", "islander_marker_mm = 9000.0", 1),
     r"board.islander_marker_mm: 9000.0 is out of range"),
    (lambda t: t.replace("mp_per_turn = 7", "mp_per_turn = -7", 1), r"board.mp_per_turn: -7 is out of range"),
    (lambda t: t.replace("size_mm = 30.0", "size_mm = inf", 1), r"fiducials\[0\].size_mm: inf is out of range"),
    (lambda t: t.replace("mp_per_turn = 7", "mp_per_turn = 7\nhex_sise_mm = 3", 1),
     r"board: unknown key\(s\) 'hex_sise_mm'"),
    (lambda t: t.replace("marker = 11\n", "marker = 100\n", 1), r"has marker id 100, but DICT_4X4_100 has only"),
    (lambda t: t.replace('marker_dictionary = "DICT_4X4_100"', 'marker_dictionary = "DICT_9X9"', 1),
     r"board.marker_dictionary: 'DICT_9X9' is not an ArUco dictionary"),
    (lambda t: t + "\n[[cells]]\nid = 'X'\nkind = 'beach'\nrow = 'A'\ncenter_mm = [1, 2]\n", "axial coordinates"),
    (lambda t: t.replace("center_mm = [", "center_mm = ['x', ", 1), r"expected \[x, y\] in mm"),
    (lambda t: t + "\n[[broken", "not valid TOML"),
])
def test_a_badly_edited_board_file_names_the_problem(edit, message):
    with pytest.raises(BoardFileError, match=message):
        Board.from_toml(edit(STANDARD), "my-board.toml")


def test_a_missing_board_file_says_which_file(tmp_path: Path):
    with pytest.raises(BoardFileError, match="cannot read board file"):
        Board.load(tmp_path / "nope.toml")


def test_a_user_copy_of_the_board_file_can_be_loaded_by_path(tmp_path: Path):
    copy = tmp_path / "my-board.toml"
    copy.write_text(STANDARD.replace("lost_rp = -2  # edit", "lost_rp = -1  # edit", 1))
    board = Board.load_named(str(copy))
    assert board.rows["A"].lost_rp == -1
