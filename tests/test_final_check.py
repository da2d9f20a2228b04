"""The game-over check at a tile race: red has brought both pawns out and the race is over; the
companion compares the table the camera last saw with the final position.

The tiles, walls and mountains look alike: which one lies where is chance, so a table with two tiles
swapped, or other tiles altogether in the same places, is the final position. A tile missing, or one
more on the board, is not, and the check names that place only, not every place counted after it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games import get_game
from companion.games.tile_race.state import TileRaceState
from companion.table.sync import final_picture_check

GAME = get_game("tile-race")


def finished_race() -> TileRaceState:
    """Red out from both far corners; blue's pawns on the grid among tiles, two walls and a mountain."""
    start = GAME.new_game(2, seed=1)
    final = replace(start, pawns={"red-1": "out-A7", "red-2": "out-G7", "blue-1": "D4", "blue-2": "start"},
                    tiles=frozenset({"A7", "B7", "C2", "D4", "E5"}), walls=frozenset({"A1|A2", "C3|D3"}),
                    mountains=frozenset({"F6"}), supply=35)
    assert GAME.outcome(final) is not None, "the race is over"
    return final


def table(ids: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The camera's picture: each place with the pieces read on it, by their printed ids."""
    return {cell: tuple(sorted(pieces)) for cell, pieces in ids.items()}


FINAL = finished_race()
AS_PLAYED = table({"A7": ("T12",), "B7": ("T03",), "C2": ("T27",), "D4": ("T08", "blue-1"), "E5": ("T31",),
                   "A1|A2": ("W05",), "C3|D3": ("W17",), "F6": ("mountain-red-2",), "start-A7-N": ("blue-2",),
                   "supply-tiles": ("T01", "T02")})


def check(picture: dict[str, tuple[str, ...]]) -> dict[str, object]:
    return final_picture_check(GAME, FINAL, dict(GAME.expected(FINAL)), picture)


def places(result: dict[str, object]) -> list[str]:
    return [d["cell"] for d in result["picture_differences"]]  # type: ignore[index, union-attr]


def test_a_table_with_other_look_alike_pieces_in_the_same_places_is_the_final_position() -> None:
    assert check(AS_PLAYED) == {"picture": "matches", "picture_differences": []}
    swapped = {**AS_PLAYED, "A7": ("T31",), "E5": ("T12",), "A1|A2": ("W17",), "C3|D3": ("W05",)}
    assert check(swapped)["picture"] == "matches"
    others = {**AS_PLAYED, "A7": ("T40",), "B7": ("T39",), "F6": ("mountain-red-3",)}  # tiles numbered past 5
    assert check(others)["picture"] == "matches"


def test_a_tile_missing_is_named_by_its_place_alone() -> None:
    missing = {cell: pieces for cell, pieces in AS_PLAYED.items() if cell != "B7"}
    result = check(missing)
    assert result["picture"] == "differs"
    assert places(result) == ["B7"], "only the empty place: the tiles after it are where they were"


def test_a_tile_more_on_the_board_is_named_whatever_its_id() -> None:
    result = check({**AS_PLAYED, "G1": ("T40",)})
    assert result["picture"] == "differs"
    assert places(result) == ["G1"]


def test_a_pawn_that_left_the_grid_is_set_aside_wherever_the_camera_still_reads_it() -> None:
    assert check({**AS_PLAYED, "start-G7-E": ("red-2",)})["picture"] == "matches"
