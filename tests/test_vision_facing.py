"""The camera reads the way a piece faces from its marker's rotation on the board.

Three of the island battle's characters stand on the island: one facing north, one turned a
quarter to the east, and one turned half-way between north and west. Seen from two camera poses
(the second with the board turned well round in the picture), the first two are read with their
facings and the third is not read at all: it is reported between the two ways, like a piece between
two cells. Settled pictures then name each such piece with its facing, and a turn on the spot is a
change of the picture.
"""

from __future__ import annotations

import pytest

from companion.games.island_battle.game import GAME
from vision.detect import BoardDetector
from vision.facing import FacingStabiliser, read_facing
from vision.render import Effects, make_pose, render

LAYOUT = GAME.layout()
TABLE = {"D2": ("red-s3^N",), "F5": ("red-t1^E",), "H8": ("blue-j1",), "E9": ("block-2",)}
HALF_WAY = {"blue-j1": 45.0}  # the marker turned half-way between north (0) and west (90)
POSES = {"square on": (8, 30, 0), "tilted and turned": (25, 200, 140)}


@pytest.fixture(scope="module")
def detector() -> BoardDetector:
    return BoardDetector(LAYOUT)


@pytest.mark.parametrize("pose", POSES)
def test_a_quarter_turn_is_read_and_a_half_way_turn_is_reported_between_two_ways(detector: BoardDetector, pose: str):
    shot = render(LAYOUT, TABLE, make_pose(LAYOUT, *POSES[pose], 24.0), Effects(), seed=7, turns=HALF_WAY)
    obs = detector.detect(shot.frame)
    assert obs.board_found
    assert obs.pieces == {"red-s3": "D2", "red-t1": "F5", "block-2": "E9"}
    assert obs.facing == {"red-s3": "N", "red-t1": "E"}  # a block faces no way
    [between] = obs.unplaced
    assert between["id"] == "blue-j1" and between["reason"] == "between-directions"
    assert set(between["facings"]) == {"N", "W"} and between["cell"] == "H8"


def test_the_tolerance_reads_a_piece_a_little_off_a_way_and_nothing_nearer_half_way():
    ways = LAYOUT.facings
    assert read_facing(350.0, ways, 30.0) == ("N", ())
    assert read_facing(265.0, ways, 30.0) == ("E", ())
    assert read_facing(61.0, ways, 30.0) == ("W", ())  # 29 degrees off west: within the tolerance
    assert read_facing(58.0, ways, 30.0) == (None, ("W", "N"))  # 32 off west, 58 off north: between them
    assert read_facing(135.0, ways, 30.0) == (None, ("W", "S"))


def test_a_settled_picture_names_facing_pieces_with_their_way_and_a_turn_on_the_spot_is_a_change(
        detector: BoardDetector):
    pose = make_pose(LAYOUT, *POSES["square on"], 24.0)
    stabiliser = FacingStabiliser(frames_needed=2, hold_seconds=3.0)
    table = {"D2": ("red-s3^N",), "F5": ("red-t1^E",)}
    frame = render(LAYOUT, table, pose, Effects(), seed=7).frame
    changes = [stabiliser.feed(detector.detect(frame), at=t) for t in (0.0, 0.1, 0.2)]
    assert stabiliser.picture() == table  # settled with the ways read
    assert [c.placement() for c in changes if c is not None] == [table]  # the ways, once settled, go out

    turned = {"D2": ("red-s3^W",), "F5": ("red-t1^E",)}
    frame = render(LAYOUT, turned, pose, Effects(), seed=7).frame
    changes = [stabiliser.feed(detector.detect(frame), at=t) for t in (1.0, 1.1, 1.2)]
    [change] = [c for c in changes if c is not None]
    assert change.placement() == turned and change.moved == {}  # turned where it stands: no cell changed

    half = render(LAYOUT, table, pose, Effects(), seed=7, turns={"red-s3": 45.0}).frame
    assert [stabiliser.feed(detector.detect(half), at=t) for t in (2.0, 2.1, 2.2)] == [None] * 3
    assert stabiliser.picture() == turned  # half-way round: not settled, the last way read stands
