"""The simulated table draws pieces by height, as they stand on a real table.

A piece's top (and its marker) stands above the flat pieces round it: a token on the edge between
two places beside the cards laid on them after it, a token on the cards of its stack. The picture
must show it so whatever order the table lists its places in, or the camera loses a piece nobody
moved (a stand on an edge vanished when tiles were laid beside it, and the game read it taken away).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.games import get_game
from vision.detect import BoardDetector, Observation
from vision.lens import Lens
from vision.render import Pose, look_pose, make_pose, render, top_mm

LAYOUT = get_game("tile-race").layout()  # tiles are flat squares, stands and pawns round tokens
# The order pieces are drawn in is told with every token at the board's token height: a stand's real
# 40 mm cap, seen from aside, covers the strip of the square behind it (on a real table too), which
# is not what the first two tests are about; the tests at the end read stands at their real height.
LOW = replace(LAYOUT, pieces={p: replace(piece, height_mm=None) for p, piece in LAYOUT.pieces.items()})

# The stands are listed first and the tiles on the squares beside each after them: the order a
# table has them in when the tiles were laid last. The pawn stands on the tile of its square.
TABLE = {
    "B3|C3": ["W01"], "C5|C6": ["W02"], "E2|E3": ["W03"],
    "B3": ["T01"], "C3": ["T02"], "C5": ["T04"], "C6": ["T05"], "E2": ["T06"], "E3": ["T07"],
    "D5": ["T03", "red-1"],
}
POSES = {"straight above": (0.0, 0.0, 0.0, 20.0), "tilted 20 degrees": (20.0, 120.0, 200.0, 22.0)}


def test_a_token_stands_above_the_flat_pieces_round_it() -> None:
    for layout in (LOW, LAYOUT):
        assert top_mm(layout, "W01") > top_mm(layout, "T01", below=2)
        assert top_mm(layout, "red-1", below=1) > top_mm(layout, "T03")


@pytest.mark.parametrize("view", sorted(POSES))
def test_stands_beside_tiles_laid_after_them_and_a_pawn_on_its_tile_are_seen(view: str) -> None:
    pose = make_pose(LAYOUT, *POSES[view])
    shot = render(LOW, TABLE, pose, seed=3)
    seen = BoardDetector(LOW).detect(shot.frame)

    for stand, edge in (("W01", "B3|C3"), ("W02", "C5|C6"), ("W03", "E2|E3")):
        assert seen.pieces.get(stand) == edge, f"{stand} on {edge}: {seen.to_dict()}"
    for tile, square in (("T01", "B3"), ("T02", "C3"), ("T04", "C5"), ("T05", "C6"), ("T06", "E2"), ("T07", "E3")):
        assert seen.pieces.get(tile) == square
    # the pawn is read on its square; the tile under it is hidden by it
    assert seen.pieces.get("red-1") == "D5"
    assert "T03" not in seen.pieces and "T03" not in shot.visible


# ------------------------------------------------------------------ tall pieces, read where they stand
# A wall stand's cap is 40 mm up (the board file's wall_height_mm): the camera sees its marker shifted
# away from the point under the camera by r * H / (D - H), 10-26 mm at the grid's outer edges - more
# than an edge's reach. The simulated table draws each cap at its height, so its pictures show it.
OUTER_EDGES = ("A1|A2", "A1|B1", "F1|G1", "G1|G2", "A6|A7", "A7|B7", "F7|G7", "G6|G7")
STANDS = {edge: [f"W{k + 1:02d}"] for k, edge in enumerate(OUTER_EDGES)}
FRAME = (2304, 1296)  # the Raspberry Pi camera's frame
# The README's two cameras, straight above the board's middle: field of view (degrees), height (mm)
CAMERAS = {"Camera Module 3 at 80 cm": (66.0, 800.0), "Camera Module 3 Wide at 45 cm": (102.0, 450.0)}


def straight_above(fov_deg: float, height_mm: float) -> Pose:
    focal = FRAME[0] / 2 / math.tan(math.radians(fov_deg / 2))
    return look_pose(FRAME, focal, (LAYOUT.size_mm[0] / 2, LAYOUT.size_mm[1] / 2), height_mm, 0.0, 0.0, 0.0)


def stands_read(seen: Observation) -> dict[str, str | None]:
    return {edge: seen.pieces.get(stand[0]) for edge, stand in STANDS.items()}


def test_the_board_file_gives_a_wall_stand_its_cap_height_and_a_pawn_its_top() -> None:
    assert LAYOUT.height_of("W01") == 40.0 and LAYOUT.height_of("red-1") == 30.0
    assert LAYOUT.height_of("T01") == LAYOUT.piece_height_mm  # tiles and mountains lie flat


@pytest.mark.parametrize("camera", sorted(CAMERAS))
def test_wall_stands_on_the_outer_edges_are_read_on_their_edges_from_straight_above(camera: str) -> None:
    fov, height = CAMERAS[camera]
    shot = render(LAYOUT, STANDS, straight_above(fov, height), seed=5)

    # the companion told the camera's height ([camera] above_board_mm) reads every stand on its edge
    seen = BoardDetector(LAYOUT, above_mm=height).detect(shot.frame)
    assert seen.camera is not None and seen.camera.source == "assumed"
    assert stands_read(seen) == {edge: edge for edge in OUTER_EDGES}, seen.to_dict()
    for stand in STANDS.values():  # and near where it stands, not only on the right edge
        x, y = shot.positions[stand[0]]
        assert math.dist(seen.poses[stand[0]][:2], (x, y)) < 2.0

    if height < 500:  # read as though the caps lay on the board, the low camera's stands are between cells
        flat = replace(LAYOUT, piece_height_mm=0.0,
                       pieces={p: replace(piece, height_mm=None) for p, piece in LAYOUT.pieces.items()})
        unread = BoardDetector(flat).detect(shot.frame)
        assert all(u["reason"] == "between-cells" for u in unread.unplaced)
        assert len(unread.unplaced) == len(OUTER_EDGES)


def test_wall_stands_seen_from_a_tilted_camera_are_read_with_or_without_a_lens_calibration() -> None:
    pose = make_pose(LAYOUT, 20.0, 120.0, 200.0, 22.0)
    shot = render(LAYOUT, STANDS, pose, seed=5)
    lens = Lens(np.array([[pose.focal, 0, pose.principal[0]], [0, pose.focal, pose.principal[1]], [0, 0, 1]]),
                np.zeros(5), pose.frame_size)

    # without a calibration the tilt itself tells where the camera is ...
    guessed = BoardDetector(LAYOUT).detect(shot.frame)
    assert guessed.camera is not None and guessed.camera.source == "perspective"
    assert stands_read(guessed) == {edge: edge for edge in OUTER_EDGES}, guessed.to_dict()

    # ... and with one the camera's place is known: its foot on the board within a few millimetres
    known = BoardDetector(LAYOUT, lens=lens).detect(shot.frame)
    assert known.camera is not None and known.camera.source == "lens"
    assert math.dist(known.camera.nadir, pose.centre[:2]) < 5.0
    assert abs(known.camera.above_mm + pose.centre[2]) < 5.0  # the world's z points into the table
    assert stands_read(known) == {edge: edge for edge in OUTER_EDGES}, known.to_dict()
