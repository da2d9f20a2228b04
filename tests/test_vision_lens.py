"""A wide-angle lens at the table: the ChArUco sheet, the calibration, and the board read through it.

The camera here is one camera in every picture (one focal length, the principal point at the
frame's centre) whose lens bends the picture as a wide-angle Camera Module 3 does (barrel
distortion, k1 = -0.15). The renderer draws it; the companion only sees the pictures.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.games.fog.setup import new_game
from tests.tables import BOARD, LAYOUT
from vision.detect import BoardDetector
from vision.lens import CHARUCO_SQUARES, LENS_FILE, MIN_VIEWS, Lens, LensCalibrator, LensError, find_lens, load_lens
from vision.render import Effects, Pose, look_pose, render
from vision.render import sheet_views as render_sheet_views
from vision.stabilise import Stabiliser, StreamObserver, watch

SIZE = (1280, 720)
FOCAL = 1000.0  # piece markers of about 16 px from 85 cm
BARREL = (-0.15, 0.0, 0.0, 0.0, 0.0)


def sheet_views(count: int, distortion: tuple[float, ...] = BARREL, seed: int = 500) -> list[np.ndarray]:
    """The sheet held under this camera, tilted and moved all over the picture."""
    return render_sheet_views(count, SIZE, FOCAL, distortion, seed)


def board_pose(k: int, distortion: tuple[float, ...] = BARREL) -> Pose:
    rng = np.random.default_rng(100 + k)
    w, h = LAYOUT.size_mm
    return look_pose(SIZE, FOCAL, (w / 2 + rng.uniform(-20, 20), h / 2 + rng.uniform(-20, 20)), 850.0,
                     rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(-8, 8), distortion)


@pytest.fixture(scope="module")
def lens() -> Lens:
    calibrator = LensCalibrator()
    for frame in sheet_views(15):
        calibrator.add(frame)
    return calibrator.calibrate()


def position_errors(lens: Lens | None, poses: int = 6) -> tuple[list[float], int, int, int]:
    """Over ``poses`` views of a full board: each placed piece's distance (mm) from where its marker
    really is, pieces on a wrong cell, pieces placed, and markers fully in view."""
    placement = new_game(BOARD, 4, seed=3).placement
    detector = BoardDetector(LAYOUT, lens=lens)
    errors, wrong, placed, visible = [], 0, 0, 0
    for k in range(poses):
        shot = render(LAYOUT, placement, board_pose(k), Effects(noise_sigma=2.0), seed=k)
        obs = detector.detect(shot.frame)
        assert obs.board_found, obs.reason
        visible += len(shot.visible)
        misplaced, bad = shot.misread(obs.pieces, obs.poses)
        errors, wrong, placed = errors + misplaced, wrong + bad, placed + len(obs.pieces)
    return errors, wrong, placed, visible


def test_fifteen_views_of_the_printed_sheet_measure_the_lens(lens: Lens, figures: Callable[[str], None]):
    assert lens.views == 15 and lens.size == SIZE
    assert lens.rms_px < 0.5
    assert abs(lens.matrix[0, 0] - FOCAL) < 0.02 * FOCAL and abs(lens.matrix[1, 1] - FOCAL) < 0.02 * FOCAL
    assert abs(lens.matrix[0, 2] - (SIZE[0] - 1) / 2) < 10 and abs(lens.matrix[1, 2] - (SIZE[1] - 1) / 2) < 10
    assert abs(lens.distortion[0] - BARREL[0]) < 0.02
    # undistort and distort are each other's inverse over the whole picture
    grid = np.stack(np.meshgrid(np.linspace(0, SIZE[0] - 1, 9), np.linspace(0, SIZE[1] - 1, 5)), 2).reshape(-1, 2)
    assert np.abs(lens.distort(lens.undistort(grid)) - grid).max() < 0.05
    figures(f"lens calibration from 15 rendered sheet views (k1 {BARREL[0]}): f {lens.matrix[0, 0]:.0f} px "
            f"(true {FOCAL:.0f}), k1 {lens.distortion[0]:.3f}, rms {lens.rms_px:.2f} px, "
            f"corner shift {lens.edge_shift_px():.0f} px")


def test_through_a_calibrated_lens_every_piece_is_where_its_marker_is(lens: Lens, figures: Callable[[str], None]):
    bent, wrong_bent, placed_bent, visible = position_errors(None)
    fixed, wrong, placed, _ = position_errors(lens)
    assert wrong == 0 and wrong_bent == 0
    assert placed >= placed_bent and placed >= 0.95 * visible
    assert max(fixed) < 2.6 and float(np.median(fixed)) < 1.2  # what is left is the tokens' height (parallax)
    assert float(np.median(fixed)) < 0.5 * float(np.median(bent)) and max(fixed) < max(bent)
    figures(f"barrel distortion k1 {BARREL[0]}, 1280x720, 6 views of a full board: position error median/max "
            f"{np.median(bent):.1f}/{max(bent):.1f} mm without the lens calibration, "
            f"{np.median(fixed):.1f}/{max(fixed):.1f} mm with it; {placed} of {visible} pieces placed, 0 wrong")


def test_without_a_calibration_a_pinhole_camera_reads_as_before():
    placement = new_game(BOARD, 3, seed=5).placement
    shot = render(LAYOUT, placement, board_pose(0, distortion=()), Effects(), seed=5)
    plain = BoardDetector(LAYOUT).detect(shot.frame)
    assert plain.pieces == {p: c for p, c in shot.truth.items() if p in shot.visible}
    assert plain.lens is None


def test_the_calibration_follows_the_camera_to_another_size_of_the_same_view(lens: Lens):
    """Calibrated at 1280x720, the same camera read at 1920x1080 (the same field of view) is scaled."""
    big = lens.for_size(1920, 1080)
    assert big is not None and abs(big.matrix[0, 0] - 1.5 * lens.matrix[0, 0]) < 1e-6
    assert lens.for_size(1280, 960) is None  # another shape is a cropped mode: the calibration does not apply
    detector = BoardDetector(LAYOUT, lens=lens)
    assert detector.lens_at((960, 1280, 3)) is None and detector.lens_at((1080, 1920, 3)) is not None


def test_a_stream_through_the_lens_sees_a_piece_moved_near_the_picture_s_edge(lens: Lens):
    """The region search crops the picture; the marker corners it finds are moved through the lens
    in the whole frame's pixels, so a move near the edge (where the lens bends most) lands right."""
    state = new_game(BOARD, 4, seed=3)
    placement = {c: tuple(ps) for c, ps in state.placement.items()}
    pose = board_pose(1)
    shot = render(LAYOUT, placement, pose, Effects(noise_sigma=1.0), seed=1)
    # the visible piece farthest from the picture's centre goes to a free standable cell next to it
    centre = np.array(SIZE) / 2
    far = max(shot.visible, key=lambda p: float(np.linalg.norm(np.array(
        pose.project(np.array([[*shot.positions[p], 0.0]]))[0]) - centre)))
    here = shot.truth[far]
    free = [c.id for c in LAYOUT.cells.values() if c.standable and c.id not in placement]
    to = min(free, key=lambda c: np.hypot(*np.subtract(LAYOUT.cells[c].center_mm, LAYOUT.cells[here].center_mm)))
    moved = {c: tuple(p for p in ps if p != far) for c, ps in placement.items()}
    moved = {c: ps for c, ps in moved.items() if ps}
    moved[to] = (far,)
    observer = StreamObserver(BoardDetector(LAYOUT, lens=lens))
    stabiliser = Stabiliser(frames_needed=3, hold_seconds=3.0)
    changes = []
    for k in range(20):
        frame = render(LAYOUT, placement if k < 8 else moved, pose, Effects(noise_sigma=1.0), seed=1).frame
        obs, change = watch(observer, stabiliser, frame, k / 15)
        if change is not None:
            changes.append(change.moved)
    assert obs.lens is not None
    assert changes[-1] == {far: (here, to)}


def test_the_calibration_file_reads_back_and_a_broken_one_is_named(lens: Lens, tmp_path: Path):
    path = lens.save(tmp_path / LENS_FILE)
    again = load_lens(path)
    assert np.allclose(again.matrix, lens.matrix) and np.allclose(again.distortion, lens.distortion)
    assert again.size == lens.size and again.views == lens.views
    assert find_lens("", tmp_path) is not None and find_lens("none", tmp_path) is None
    assert find_lens("", tmp_path / "elsewhere") is None  # no calibration: works as before
    for text, says in (("{", "cannot read"), ('{"format": "other"}', "not a camera lens calibration"),
                       (json.dumps({**lens.to_dict(), "camera_matrix": [[0, 0, 0]] * 3}), "camera_matrix"),
                       (json.dumps({**lens.to_dict(), "distortion": ["x"]}), "malformed")):
        path.write_text(text)
        with pytest.raises(LensError, match=says) as err:
            load_lens(path)
        assert str(path) in str(err.value)


def test_views_that_add_nothing_are_refused_with_the_reason():
    calibrator = LensCalibrator()
    views = sheet_views(2)
    assert calibrator.add(views[0]).accepted
    again = calibrator.add(views[0])
    assert not again.accepted and "already taken" in again.reason
    empty = calibrator.add(np.full((SIZE[1], SIZE[0], 3), 90, np.uint8))
    assert not empty.accepted and "no calibration sheet" in empty.reason
    other = calibrator.add(cv2.resize(views[1], (640, 360)))
    assert not other.accepted and "640x360" in other.reason
    with pytest.raises(LensError, match=f"at least {MIN_VIEWS}"):
        calibrator.calibrate()


def test_the_sheet_prints_at_true_size_and_the_camera_is_calibrated_from_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("FOG_DATA_DIR", str(tmp_path / "data"))
    assert main(["markers", "--charuco", "-o", str(tmp_path / "sheet.png"), "--dpi", "150"]) == 0
    printed = cv2.imread(str(tmp_path / "sheet.png"), cv2.IMREAD_GRAYSCALE)
    assert printed.shape == (round(210 / 25.4 * 150), round(297 / 25.4 * 150))
    assert LensCalibrator().add(printed).corners == (CHARUCO_SQUARES[0] - 1) * (CHARUCO_SQUARES[1] - 1)
    assert main(["markers", "--charuco", "-o", str(tmp_path / "sheet.pdf")]) == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    views = tmp_path / "views"
    views.mkdir()
    for k, frame in enumerate(sheet_views(14)):
        cv2.imwrite(str(views / f"view-{k:02d}.png"), frame)
    capsys.readouterr()
    assert main(["calibrate-camera", "--camera", str(views), "--views", "12", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["views"] == 12 and result["file"] == str(tmp_path / "data" / LENS_FILE)
    assert abs(result["distortion"][0] - BARREL[0]) < 0.03
    # detect now reads through it; --lens none does not
    shot = render(LAYOUT, new_game(BOARD, 4, seed=3).placement, board_pose(2), Effects(), seed=2)
    cv2.imwrite(str(tmp_path / "board.png"), shot.frame)
    errors = {}
    for setting in ("", "none"):
        assert main(["detect", str(tmp_path / "board.png"), "--json", "--lens", setting]) == 0
        out = json.loads(capsys.readouterr().out)
        errors[setting] = max(np.hypot(p["pose"][0] - shot.positions[p["id"]][0],
                                       p["pose"][1] - shot.positions[p["id"]][1]) for p in out["pieces"])
    assert errors[""] < errors["none"]


def test_calibrating_refuses_the_simulated_table_and_too_few_views(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["calibrate-camera", "--camera", "sim"]) == 2
    assert "no lens" in capsys.readouterr().err
    views = tmp_path / "views"
    views.mkdir()
    for k, frame in enumerate(sheet_views(3)):
        cv2.imwrite(str(views / f"v{k}.png"), frame)
    assert main(["calibrate-camera", "--camera", str(views), "-o", str(tmp_path / "lens.json")]) == 2
    err = capsys.readouterr().err
    assert "only 3 usable views" in err and "markers --charuco" in err
    assert not (tmp_path / "lens.json").exists()
    assert main(["calibrate-camera", "--camera", str(views), "--views", "3"]) == 2
    assert "--views must be between" in capsys.readouterr().err


def test_the_lens_is_calibrated_from_a_phone_and_never_replaced_or_removed_on_one_tap(
        tmp_path: Path, lens: Lens):
    """The Camera page's lens steps through the API: views from the running camera's newest frame."""
    import io

    from companion.app.run import Companion
    from tests.tables import sim_config
    from vision.live import LiveCamera
    from web_ui import create_app

    companion = Companion(sim_config(tmp_path), out=io.StringIO())
    camera = LiveCamera(object(), LAYOUT)  # a real camera's frames are handed in below, one per tap
    companion.camera = camera
    client = create_app(companion, {"DATA_DIR": str(tmp_path)}).test_client()

    def call(method: str, path: str, body: object = None) -> tuple[int, dict]:
        res = client.open(path, method=method, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})
        return res.status_code, res.get_json()

    code, status = call("GET", "/api/lens")
    assert code == 200 and not status["calibrated"] and status["views"] == 0 and status["camera"] == "real"
    assert call("POST", "/api/lens/views")[0] == 503  # no frame yet
    views = sheet_views(12, seed=900)
    for k, frame in enumerate(views):
        camera.latest_frame = frame
        code, got = call("POST", "/api/lens/views")
        assert code == 200 and got["accepted"] and got["views"] == k + 1, got
    code, got = call("POST", "/api/lens/views")  # the same picture again
    assert code == 200 and not got["accepted"] and "already taken" in got["reason"]
    code, got = call("POST", "/api/lens")
    assert code == 200 and got["calibrated"] and got["in_use"] and camera.lens is not None
    assert abs(got["lens"]["distortion"][0] - BARREL[0]) < 0.03
    assert (tmp_path / LENS_FILE).exists()
    code, got = call("POST", "/api/lens")  # replacing needs a confirmation
    assert code == 409 and "confirm" in got["error"]
    assert call("POST", "/api/lens", {"confirm": True})[0] == 200
    code, got = call("DELETE", "/api/lens")
    assert code == 409 and (tmp_path / LENS_FILE).exists() and camera.lens is not None
    code, got = call("DELETE", "/api/lens", {"confirm": True})
    assert code == 200 and not got["calibrated"] and camera.lens is None and not (tmp_path / LENS_FILE).exists()
    assert call("DELETE", "/api/lens/views")[1]["views"] == 0
    code, got = call("POST", "/api/lens")
    assert code == 409 and "at least" in got["error"]  # no views: nothing to compute, the reason in words
    sheet = client.get("/api/lens/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
    assert client.get("/lens").status_code == 200
    # with a PIN, taking views is guarded like every other setup step
    guarded = create_app(companion, {"DATA_DIR": str(tmp_path), "PIN": "4321"}).test_client()
    res = guarded.post("/api/lens/views", data="{}", headers={"Content-Type": "application/json"})
    assert res.status_code == 401
    companion.camera = None
    companion.stop()


def test_the_companion_reads_the_calibration_the_config_names_and_runs_without_a_broken_one(
        tmp_path: Path, lens: Lens):
    import io

    from companion.app.run import Companion
    from tests.tables import sim_config

    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), out=out)
    assert companion.lens_file() == companion.data_dir / LENS_FILE and companion._lens() is None
    lens.save(companion.lens_file())
    assert companion._lens().views == lens.views
    companion.lens_file().write_text("not json")
    assert companion._lens() is None
    assert "cannot read the lens calibration" in out.getvalue() and "detecting without" in out.getvalue()
    companion.stop()
    elsewhere = tmp_path / "lens.json"
    lens.save(elsewhere)
    for setting, expected in ((str(elsewhere), elsewhere), ("none", None)):
        named = Companion(sim_config(tmp_path / setting.replace("/", "_"), **{"camera.lens": setting}),
                          out=io.StringIO())
        assert named.lens_file() == expected
        assert (named._lens() is not None) == (expected is not None)
        named.stop()
