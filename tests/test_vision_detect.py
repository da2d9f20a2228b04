"""Reading the board from camera frames: markers, homography, cells, and what is never guessed."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.games.fog.setup import new_game
from tests.tables import BOARD, LAYOUT
from vision.detect import BoardDetector
from vision.markers import dictionary, marker_image
from vision.render import Effects, make_pose, random_pose, render

FRAMES = 300
PAIR_POSES = 25  # x 6 pairs of corner markers covered


@pytest.fixture(scope="module")
def detector() -> BoardDetector:
    return BoardDetector(LAYOUT)


def test_a_clean_view_puts_every_piece_on_its_cell(detector: BoardDetector):
    state = new_game(BOARD, 4, seed=3)
    shot = render(LAYOUT, state.placement, make_pose(LAYOUT, 10, 40, 5, 20.0), Effects(), seed=3)
    obs = detector.detect(shot.frame)
    assert obs.board_found and obs.fiducials_seen == [0, 1, 2, 3]
    assert obs.pieces == shot.truth
    assert obs.unplaced == [] and obs.unknown_markers == []


def test_each_piece_is_reported_with_its_position_and_the_way_it_faces(detector: BoardDetector):
    """The renderer turns every token by a seeded angle; the detector reads it back from the marker."""
    import math
    import zlib

    state = new_game(BOARD, 3, seed=5)
    shot = render(LAYOUT, state.placement, make_pose(LAYOUT, 15, 120, 20, 20.0), Effects(), seed=5)
    obs = detector.detect(shot.frame)
    assert obs.pieces == shot.truth and set(obs.poses) == set(obs.pieces)
    for piece, (x, y, angle) in obs.poses.items():
        own = np.random.default_rng(zlib.crc32(f"5:{piece}:{shot.truth[piece]}".encode()))
        own.uniform(-2.0, 2.0, 2)  # the token's offset, drawn first
        turned = math.degrees(own.uniform(0, 2 * math.pi))
        off = (angle - (-turned) % 360 + 180) % 360 - 180
        assert abs(off) < 4.0, (piece, angle, turned)
        cx, cy = BOARD.cells[shot.truth[piece]].center_mm
        assert math.hypot(x - cx, y - cy) < 6.0  # within a few mm of its cell's centre


def test_hundreds_of_varied_frames_never_put_a_piece_on_a_wrong_cell(
        detector: BoardDetector, figures: Callable[[str], None]):
    """Tilt up to 35°, any rotation, markers 16-40 px, blur, noise, JPEG, uneven light, hands.

    A quarter of the frames have a hand over one corner fiducial; the board must still be found.
    """
    wrong = visible = found = frames_found = hand_on_corner = hand_on_corner_found = 0
    for k in range(FRAMES):
        rng = np.random.default_rng(50_000 + k)
        state = new_game(BOARD, int(rng.integers(2, 5)), seed=k)
        effects = Effects.random(rng, hand_chance=0.3)
        if k % 4 == 0:
            effects.hand = f"fiducial:{k // 4 % 4}"
        shot = render(LAYOUT, state.placement, random_pose(LAYOUT, rng), effects, seed=k)
        obs = detector.detect(shot.frame)
        frames_found += obs.board_found
        if effects.hand and effects.hand.startswith("fiducial"):
            hand_on_corner += 1
            hand_on_corner_found += obs.board_found
        wrong += sum(1 for p, c in obs.pieces.items() if shot.truth.get(p) != c)
        visible += len(shot.visible)
        found += sum(1 for p in shot.visible if obs.pieces.get(p) == shot.truth[p])
    recall = found / visible
    figures(f"{FRAMES} frames: board found in {frames_found} ({hand_on_corner_found} of {hand_on_corner} with a hand "
          f"on a corner marker); {found} of {visible} fully visible pieces found ({recall:.1%}); "
          f"{wrong} pieces on a wrong cell")
    assert wrong == 0
    assert recall >= 0.98
    assert hand_on_corner_found == hand_on_corner and frames_found == FRAMES


def _corners_of(pose, x: float, y: float, size: float, z: float = 0.0) -> np.ndarray:  # type: ignore[no-untyped-def]
    s = size / 2
    pts = np.array([[x - s, y - s, z], [x + s, y - s, z], [x + s, y + s, z], [x - s, y + s, z]])
    return pose.project(pts).astype(np.float32).reshape(1, 4, 2)


def _fiducial_corners(pose, ids=(0, 1, 2, 3)):  # type: ignore[no-untyped-def]
    corners, found = [], []
    for f in BOARD.fiducials:
        if f["id"] in ids:
            corners.append(_corners_of(pose, *f["center_mm"], f["size_mm"]))
            found.append(f["id"])
    return corners, found


def test_a_piece_between_cells_off_the_board_or_in_the_woods_is_reported_not_guessed(detector: BoardDetector):
    pose = make_pose(LAYOUT, 15, 0, 0, 20.0)
    corners, ids = _fiducial_corners(pose)
    e3, e4 = BOARD.cells["E3"].center_mm, BOARD.cells["E4"].center_mm
    between = ((e3[0] + e4[0]) / 2, (e3[1] + e4[1]) / 2)
    woods = BOARD.cells["woods-EW"].center_mm
    for (x, y), marker in ((between, 10), ((-40.0, 250.0), 11), (woods, 12), (e4, 13)):
        corners.append(_corners_of(pose, x, y, 14.0))
        ids.append(marker)
    obs = detector.observe(corners, np.array(ids).reshape(-1, 1))
    reasons = {u["marker"]: u["reason"] for u in obs.unplaced}
    assert reasons == {10: "between-cells", 11: "off-board", 12: "woods"}
    assert next(sorted(u["cells"]) for u in obs.unplaced if u["marker"] == 10) == ["E3", "E4"]  # the two it is between
    assert obs.pieces == {"blue-warrior-1": "E4"}  # marker 13


@pytest.mark.parametrize("share", [0.1, 0.2, 0.3, 0.35])
@pytest.mark.parametrize("direction", [0, 30, 90, 150, 210, 330])
def test_a_piece_put_down_carelessly_is_on_the_cell_it_is_clearly_nearest(
        detector: BoardDetector, share: float, direction: int):
    """Up to 0.35 of the pitch off the centre, towards a neighbour or a corner: still on its cell."""
    pose = make_pose(LAYOUT, 15, 0, 0, 20.0)
    corners, ids = _fiducial_corners(pose)
    pitch = 2 * LAYOUT.snap_mm
    x, y = BOARD.cells["E4"].center_mm
    a = np.radians(direction)
    top = -LAYOUT.piece_height_mm  # the marker on the token's top (the world's z points into the table)
    corners.append(_corners_of(pose, x + share * pitch * np.cos(a), y + share * pitch * np.sin(a), 14.0, top))
    ids.append(13)
    obs = detector.observe(corners, np.array(ids).reshape(-1, 1), shape=pose.frame_size[::-1])
    assert obs.pieces == {"blue-warrior-1": "E4"}, obs.unplaced


def test_unknown_and_duplicate_markers_are_reported_and_never_assigned(detector: BoardDetector):
    pose = make_pose(LAYOUT, 5, 0, 0, 20.0)
    corners, ids = _fiducial_corners(pose)
    for cell, marker in (("C3", 99), ("D3", 20), ("D4", 20)):
        corners.append(_corners_of(pose, *BOARD.cells[cell].center_mm, 14.0))
        ids.append(marker)
    obs = detector.observe(corners, np.array(ids).reshape(-1, 1))
    assert obs.unknown_markers == [99] and obs.duplicates == [20] and obs.pieces == {}


def test_the_smallest_markers_of_the_simulated_table_are_read_on_every_cell_they_once_were_not(
        detector: BoardDetector):
    """The simulated table's camera (the one ``run`` opens) sees piece markers of about 16 px on
    the far side. Two of them were never read: green-sailor-2 on D4, whose square ArUco found but
    misread at under 3 px a bit (a new game set up that way was never verified), and driftwood-3
    on J10, turned so that blur rounds its corners and it was no quadrilateral at all."""
    from vision.sources import SimulatedTable

    with SimulatedTable(LAYOUT, {"D4": ("green-sailor-2",), "J10": ("driftwood-3",)}) as table:
        frame = table.read()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    _, ids, _ = cv2.aruco.ArucoDetector(dictionary(LAYOUT.marker_dictionary)).detectMarkers(gray)
    read_as_they_are = set() if ids is None else {int(i) for i in ids.ravel()}
    assert LAYOUT.pieces["green-sailor-2"].marker not in read_as_they_are  # ArUco at the marker's size misreads it
    obs = detector.detect(frame)
    assert obs.pieces == {"green-sailor-2": "D4", "driftwood-3": "J10"}
    assert obs.unplaced == [] and obs.unknown_markers == [] and obs.duplicates == []


def test_a_marker_of_the_wrong_size_is_a_false_detection(detector: BoardDetector):
    pose = make_pose(LAYOUT, 5, 0, 0, 20.0)
    corners, ids = _fiducial_corners(pose)
    corners.append(_corners_of(pose, *BOARD.cells["C3"].center_mm, 40.0))
    ids.append(10)
    obs = detector.observe(corners, np.array(ids).reshape(-1, 1))
    assert obs.pieces == {} and obs.unplaced[0]["reason"] == "wrong-size"


def test_two_corner_markers_alone_never_fix_the_board_the_last_fit_or_the_pieces_must(detector: BoardDetector):
    """Two corner markers are two tight clusters of points: the far side of the board would be a
    guess. The last fit (if they still sit where it puts them) or pieces on their cells decide."""
    pose = make_pose(LAYOUT, 20, 60, 10, 20.0)
    for pair in ((0, 1), (0, 2), (1, 2), (2, 3)):
        two, ids = _fiducial_corners(pose, ids=pair)
        alone = detector.observe(two, np.array(ids).reshape(-1, 1))
        assert not alone.board_found and "too few pieces on their cells" in (alone.reason or ""), pair
    full, _ = _fiducial_corners(pose)
    prior = detector.observe(full, np.array([[0], [1], [2], [3]])).homography
    two, ids = _fiducial_corners(pose, ids=(0, 1))
    assert detector.observe(two, np.array(ids).reshape(-1, 1), prior=prior).board_found
    one, _ = _fiducial_corners(pose, ids=(1,))
    alone = detector.observe(one, np.array([[1]]))
    assert not alone.board_found and "1 of 4 corner markers" in (alone.reason or "")
    assert detector.observe(one, np.array([[1]]), prior=prior).board_found
    moved = make_pose(LAYOUT, 20, 60, 40, 20.0)  # the board was bumped: the old fit no longer holds
    bumped, _ = _fiducial_corners(moved, ids=(1,))
    assert not detector.observe(bumped, np.array([[1]]), prior=prior).board_found


def _hide(frame: np.ndarray, pose, fiducial: dict) -> None:  # type: ignore[no-untyped-def]
    """Paint over a corner marker (a hand, a cup, a rulebook on it)."""
    cx, cy = fiducial["center_mm"]
    s = fiducial["size_mm"] * 0.75
    pts = pose.project(np.array([[cx - s, cy - s, 0], [cx + s, cy - s, 0], [cx + s, cy + s, 0], [cx - s, cy + s, 0]]))
    cv2.fillConvexPoly(frame, np.round(pts).astype(np.int32), (90, 120, 140))


def test_with_any_two_corner_markers_covered_no_piece_lands_on_a_wrong_cell(
        detector: BoardDetector, figures: Callable[[str], None]):
    """Tilt up to 45°: a fit from the two markers left is only trusted once pieces on their cells
    confirm it out to the far side; otherwise the board is 'not found', never guessed."""
    wrong = found = visible = frames = frames_found = 0
    for k in range(PAIR_POSES):
        rng = np.random.default_rng(70_000 + k)
        state = new_game(BOARD, int(rng.integers(2, 5)), seed=k)
        pose = random_pose(LAYOUT, rng, max_tilt=45.0)
        shot = render(LAYOUT, state.placement, pose, Effects.random(rng, hand_chance=0.0), seed=k)
        for pair in itertools.combinations(range(4), 2):
            frame = shot.frame.copy()
            for f in LAYOUT.fiducials:
                if int(f["id"]) not in pair:
                    _hide(frame, pose, f)
            obs = detector.detect(frame)
            frames += 1
            frames_found += obs.board_found
            wrong += sum(1 for p, c in obs.pieces.items() if shot.truth.get(p) != c)
            visible += len(shot.visible)
            found += sum(1 for p in shot.visible if obs.pieces.get(p) == shot.truth[p])
    figures(f"{frames} frames with two corner markers covered (every pair, {PAIR_POSES} poses, tilt up to 45°): "
            f"board found in {frames_found}, {found} of {visible} pieces found ({found / visible:.1%}), "
            f"{wrong} on a wrong cell")
    assert wrong == 0
    assert frames_found >= frames // 2  # most are fixed by the pieces


def test_detect_on_the_command_line_prints_one_json_object_per_image(tmp_path, capsys):
    state = new_game(BOARD, 3, seed=8)
    paths = []
    for seed in (1, 2):
        shot = render(LAYOUT, state.placement, random_pose(LAYOUT, np.random.default_rng(seed)), Effects(), seed=seed)
        path = tmp_path / f"frame{seed}.png"
        cv2.imwrite(str(path), shot.frame)
        paths.append(str(path))
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 200, np.uint8))
    extra = np.full((300, 300), 255, np.uint8)
    extra[50:250, 50:250] = marker_image(dictionary("DICT_4X4_100"), 99, 200)
    cv2.imwrite(str(tmp_path / "unknown.png"), extra)
    assert main(["detect", *paths, str(blank), str(tmp_path / "unknown.png"), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == paths + [str(blank), str(tmp_path / "unknown.png")]
    first = lines[0]
    assert first["board_found"] and {"marker", "id", "cell", "pose"} == set(first["pieces"][0])
    assert {"unplaced", "unknown_markers", "ms"} <= set(first) and first["ms"] > 0
    assert {p["id"]: p["cell"] for p in first["pieces"]} == dict(
        (p, c) for c, ps in state.placement.items() for p in ps)
    assert lines[2]["board_found"] is False and lines[3]["unknown_markers"] == [99]


def test_render_and_markers_on_the_command_line(tmp_path, capsys):
    state_path = tmp_path / "g.json"
    assert main(["new-game", "--players", "2", "--seed", "4", "-o", str(state_path)]) == 0
    assert main(["render", str(state_path), "-o", str(tmp_path / "f.png"), "--seed", "3", "--hand"]) == 0
    frame = cv2.imread(str(tmp_path / "f.png"))
    assert frame is not None and frame.shape[1] >= 1280
    assert main(["markers", "-o", str(tmp_path / "sheet.pdf")]) == 0
    assert "wrote" in capsys.readouterr().out
