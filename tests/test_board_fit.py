"""A player's own printed board: a little smaller than the file, turned, the corner markers glued
where they stuck. The companion learns it from one picture with pieces on named cells."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.games import BoardFit, Layout, get_game
from companion.games.fog.board import Board
from companion.games.fog.setup import new_game
from vision.detect import BoardDetector
from vision.fit import FitError, fit_board, parse_anchors, propose_anchors
from vision.render import Effects, make_pose, render

GAME = get_game()
PACKAGED = GAME.layout()


def printed_board(tmp_path: Path, seed: int, scale: float = 0.97, turn_deg: float = 1.0,
                  glued_off_mm: float = 18.0) -> tuple[Path, Layout]:
    """The board as printed: the file's lattice scaled, turned and shifted; the corner markers
    glued up to ``glued_off_mm`` from where the file has them (never over the board's edge)."""
    rng = np.random.default_rng(seed)
    t = math.radians(turn_deg)
    fiducials = {int(f["id"]): (max(16.0, f["center_mm"][0] + rng.uniform(-glued_off_mm, glued_off_mm)),
                                max(16.0, f["center_mm"][1] + rng.uniform(-glued_off_mm, glued_off_mm)))
                 for f in PACKAGED.fiducials}
    truth = BoardFit((scale * math.cos(t), -scale * math.sin(t), rng.uniform(5, 15),
                      scale * math.sin(t), scale * math.cos(t), rng.uniform(5, 15)), fiducials)
    path = tmp_path / f"printed-{seed}.toml"
    path.write_text(GAME.fitted_board(truth, None, f"printed-{seed}"))
    return path, GAME.layout(board=str(path))


def set_up_with_anchors(board: Path, anchors: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """A 4-player set-up, with the anchors moved onto their cells (pieces there make room)."""
    full = new_game(Board.load_named(str(board)), 4, seed=3).placement
    placement = {c: (p,) for p, c in anchors.items()}
    for cell, pieces in full.items():
        rest = tuple(p for p in pieces if p not in anchors)
        if rest and cell not in placement:
            placement[cell] = rest
    return placement


def cells_off_mm(fitted: Layout, truth: Layout) -> np.ndarray:
    """Each cell's distance from where it really is, measured the way detection uses the file:
    through the corner markers (the homography between the fitted and the true corner markers)."""
    def corners(layout: Layout) -> np.ndarray:
        out = []
        for f in layout.fiducials:
            (x, y), s = f["center_mm"], f["size_mm"] / 2
            out += [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
        return np.array(out, float)

    h, _ = cv2.findHomography(corners(fitted), corners(truth), 0)
    ids = list(truth.cells)
    mine = np.array([fitted.cells[c].center_mm for c in ids], float).reshape(-1, 1, 2)
    real = np.array([truth.cells[c].center_mm for c in ids], float)
    return np.linalg.norm(cv2.perspectiveTransform(mine, h).reshape(-1, 2) - real, axis=1)


def read(layout: Layout, frame: np.ndarray, truth: dict[str, str]) -> tuple[int, int]:
    obs = BoardDetector(layout).detect(frame)
    return len(obs.pieces), sum(cell != truth[p] for p, cell in obs.pieces.items())


def test_a_board_printed_smaller_and_turned_is_learnt_from_one_picture(tmp_path: Path, figures):
    anchors = propose_anchors(PACKAGED)
    worst, before, after, visible, scales = [], 0, 0, 0, []
    for k in range(6):
        path, truth = printed_board(tmp_path, seed=k)
        rng = np.random.default_rng(50 + k)
        pose = make_pose(truth, float(rng.uniform(0, 35)), float(rng.uniform(0, 360)), float(rng.uniform(-20, 20)),
                         float(rng.uniform(18, 30)))
        shot = render(truth, set_up_with_anchors(path, anchors), pose,
                      Effects(noise_sigma=2.0, blur_sigma=float(rng.uniform(0, 0.8))), seed=k)
        fitted = fit_board(PACKAGED, shot.frame, anchors)
        assert max(r.mm for r in fitted.residuals) < 5.0
        out = tmp_path / f"fitted-{k}.toml"
        out.write_text(GAME.fitted_board(fitted.fit, None, f"fitted-{k}"))
        mine = GAME.layout(board=str(out))
        off = cells_off_mm(mine, truth)
        worst.append(float(off.max()))
        scales.append(fitted.scale)
        found_before, wrong_before = read(PACKAGED, shot.frame, shot.truth)
        found_after, wrong_after = read(mine, shot.frame, shot.truth)
        assert wrong_before == 0 and wrong_after == 0  # the packaged file refuses to guess; the fitted one knows
        before, after, visible = before + found_before, after + found_after, visible + len(shot.visible)
    assert max(worst) < 2.0, worst
    assert after >= 0.99 * visible and before < 0.9 * visible
    assert all(abs(s - 0.97) < 0.015 for s in scales), scales
    figures(f"board printed 3 % small, turned 1 deg, corner markers glued up to 18 mm off, 6 poses (tilt <= 35 deg), "
            f"game set up + 8 anchors: every cell within {max(worst):.1f} mm of where it is (through the corner "
            f"markers); pieces found {before}/{visible} with the packaged file, {after}/{visible} with the fitted one, "
            f"0 wrong; scale read {min(scales):.3f}-{max(scales):.3f}")


def test_an_anchor_on_the_wrong_cell_is_named_with_the_cell_it_seems_to_be_on(tmp_path: Path):
    path, truth = printed_board(tmp_path, seed=7)
    anchors = propose_anchors(PACKAGED)
    piece, cell = next(iter(anchors.items()))
    beside = next(n for n in sorted(truth.cells) if truth.cells[n].standable and n not in anchors.values()
                  and 25 < np.hypot(*np.subtract(truth.cells[n].center_mm, truth.cells[cell].center_mm)) < 40)
    placement = {c: (p,) for p, c in anchors.items() if p != piece}
    placement[beside] = (piece,)  # the player put it one cell off
    shot = render(truth, placement, make_pose(truth, 10, 30, 0, 24.0), Effects(), seed=1)
    with pytest.raises(FitError, match=f"{piece} is .* off {cell} .* is it on {beside}\\?"):
        fit_board(PACKAGED, shot.frame, anchors)


def test_too_few_anchors_or_all_in_one_corner_are_refused_with_the_reason(tmp_path: Path):
    path, truth = printed_board(tmp_path, seed=8)
    anchors = propose_anchors(PACKAGED)
    shot = render(truth, {c: (p,) for p, c in list(anchors.items())[:3]}, make_pose(truth, 10, 30, 0, 24.0),
                  Effects(), seed=1)
    with pytest.raises(FitError, match="only 3 of the 8 anchors seen"):
        fit_board(PACKAGED, shot.frame, anchors)
    corner = sorted((c for c in PACKAGED.cells.values() if c.standable),
                    key=lambda c: c.center_mm[0] + c.center_mm[1])[:6]
    huddled = dict(zip(sorted(PACKAGED.pieces)[:6], [c.id for c in corner], strict=True))
    shot = render(truth, {c: (p,) for p, c in huddled.items()}, make_pose(truth, 10, 30, 0, 24.0), Effects(), seed=1)
    with pytest.raises(FitError, match="all in one part of the board"):
        fit_board(PACKAGED, shot.frame, huddled)
    with pytest.raises(FitError, match="not a piece"):
        fit_board(PACKAGED, shot.frame, {"nobody": "A1", **huddled})
    with pytest.raises(FitError, match="PIECE=CELL"):
        parse_anchors("blue-leader-1:A1")


def test_edits_that_are_not_places_or_kinds_of_the_board_are_refused_by_name():
    from companion.errors import BoardFileError

    same = BoardFit((1.0, 0.0, 0.0, 0.0, 1.0, 0.0), {int(f["id"]): tuple(f["center_mm"]) for f in PACKAGED.fiducials})
    for edit, says in (({"add": [float("nan"), 0.0]}, "not a place on a board"), ({"add": "here"}, "a place"),
                       ({"cell": "A1", "kind": "lava"}, "not one of beach, woods, shore"),
                       ({"cell": "nowhere", "kind": "woods"}, "no cell 'nowhere'"),
                       ({"row": "J", "empty": -3}, "count 0-99"), ({"cell": "A1", "kind": "woods"}, "must add up")):
        with pytest.raises(BoardFileError, match=says):
            GAME.fitted_board(same, None, "edited", edits=[edit])


def test_the_proposed_anchors_span_the_board_and_name_real_pieces_and_cells():
    anchors = propose_anchors(PACKAGED)
    assert len(anchors) == 8 and len(set(anchors.values())) == 8
    assert all(p in PACKAGED.pieces and PACKAGED.cells[c].standable for p, c in anchors.items())
    xy = np.array([PACKAGED.cells[c].center_mm for c in anchors.values()])
    assert np.ptp(xy[:, 0]) > 0.4 * PACKAGED.size_mm[0] and np.ptp(xy[:, 1]) > 0.4 * PACKAGED.size_mm[1]


def test_fit_board_from_the_command_line_writes_a_board_that_detect_and_run_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("FOG_DATA_DIR", str(tmp_path / "data"))
    path, truth = printed_board(tmp_path, seed=11)
    packaged_text = (Path(__file__).resolve().parent.parent / "companion/games/fog/boards/standard.toml").read_text()
    assert main(["fit-board", "--propose"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("--anchors ")
    anchors = parse_anchors(line.split(" ", 1)[1])
    shot = render(truth, set_up_with_anchors(path, anchors), make_pose(truth, 20, 70, 8, 22.0),
                  Effects(noise_sigma=2.0), seed=2)
    picture = tmp_path / "board.png"
    cv2.imwrite(str(picture), shot.frame)
    assert main(["fit-board", str(picture), "--anchors", line.split(" ", 1)[1], "--json", "--lens", "none"]) == 0
    result = json.loads(capsys.readouterr().out)
    fitted = Path(result["file"])
    assert fitted == tmp_path / "data" / "boards" / "fitted.toml" and fitted.exists()
    assert len(result["residuals"]) == 8 and result["worst_mm"] < 5.0 and abs(result["scale"] - 0.97) < 0.015
    assert main(["detect", str(picture), "--board", str(fitted), "--json", "--lens", "none"]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert len(seen["pieces"]) == len(shot.visible)
    assert all(p["cell"] == shot.truth[p["id"]] for p in seen["pieces"])
    # the packaged file is untouched, and a bad request changes nothing
    assert (Path(__file__).resolve().parent.parent / "companion/games/fog/boards/standard.toml").read_text() \
        == packaged_text
    before = fitted.read_text()
    assert main(["fit-board", str(picture), "--anchors", "blue-leader-1=A1"]) == 2
    assert "of the 1 anchors seen (at least 4 are needed)" in capsys.readouterr().err
    assert fitted.read_text() == before
    assert main(["fit-board", str(tmp_path / "missing.png"), "--anchors", line.split(" ", 1)[1]]) == 2
    assert "cannot read this picture" in capsys.readouterr().err
    frames = tmp_path / "frames"  # a camera's recording: a folder of frames, the last one read
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), shot.frame)
    assert main(["fit-board", str(frames), "--anchors", line.split(" ", 1)[1], "-o", str(tmp_path / "again.toml"),
                 "--name", "again", "--lens", "none"]) == 0
    said = capsys.readouterr().out
    assert "off its centre" in said and f"wrote {tmp_path / 'again.toml'}" in said
    assert main(["fit-board", str(picture), "--anchors", line.split(" ", 1)[1], "--name", "../x"]) == 2
    assert "--name" in capsys.readouterr().err


def test_the_config_names_the_fitted_board_and_a_new_game_is_played_on_it(tmp_path: Path):
    """The fitted file lives in the data directory; ``[game] board`` chooses it; the panel's new
    game and the camera's layout are that board's."""
    import io

    from companion.app.run import Companion
    from tests.tables import sim_config
    from web_ui import create_app

    _path, truth = printed_board(tmp_path, seed=12)
    fitted = tmp_path / "data" / "boards" / "fitted.toml"
    fitted.parent.mkdir(parents=True)
    fitted.write_text((tmp_path / "printed-12.toml").read_text())
    companion = Companion(sim_config(tmp_path / "data", **{"game.board": str(fitted)}), out=io.StringIO())
    client = create_app(companion).test_client()
    res = client.post("/api/games", data=json.dumps({"players": [{}, {}, {}], "seed": 4}),
                      headers={"Content-Type": "application/json"})
    assert res.status_code == 200, res.get_json()
    assert companion.session.state.board == str(fitted)
    assert companion.layout.cells["A1"].center_mm == truth.cells["A1"].center_mm
    companion.stop()


def test_the_fit_board_page_fits_from_the_camera_and_saves_only_when_asked_twice(tmp_path: Path):
    """The panel's API: fitting changes nothing; Save writes into the data directory and asks
    before replacing; every refusal says why."""
    import io

    from companion.app.run import Companion
    from tests.tables import sim_config
    from vision.live import LiveCamera
    from web_ui import create_app

    companion = Companion(sim_config(tmp_path / "data"), out=io.StringIO())
    client = create_app(companion).test_client()

    def call(method: str, path: str, body: object = None) -> tuple[int, dict]:
        res = client.open(path, method=method, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})
        return res.status_code, res.get_json()

    code, plan = call("GET", "/api/fit")
    assert code == 200 and len(plan["anchors"]) == 8 and not plan["exists"]
    assert call("POST", "/api/fit")[0] == 503  # no camera
    code, got = call("POST", "/api/fit/save")
    assert code == 409 and "fit the board first" in got["error"]
    camera = LiveCamera(object(), PACKAGED)
    companion.camera = camera
    path, truth = printed_board(tmp_path, seed=21)
    anchors = {a["piece"]: a["cell"] for a in plan["anchors"]}
    camera.latest_frame = render(truth, set_up_with_anchors(path, anchors), make_pose(truth, 15, 200, -10, 22.0),
                                 Effects(noise_sigma=2.0), seed=3).frame
    assert call("POST", "/api/fit", {"anchors": "A1"})[0] == 400
    code, got = call("POST", "/api/fit", {"anchors": {"nobody": "A1"}})
    assert code == 409 and "not a piece" in got["error"]
    code, got = call("POST", "/api/fit", {"anchors": anchors})
    assert code == 200 and got["words"].startswith("All 8 anchors seen within"), got["words"]
    assert len(got["lattice"]) > 50 and got["frame_size"] == [camera.latest_frame.shape[1], camera.latest_frame.shape[0]]
    above = client.get("/api/fit/rectified.jpg")
    assert above.status_code == 200 and above.mimetype == "image/jpeg"
    seen_from_above = cv2.imdecode(np.frombuffer(above.data, np.uint8), cv2.IMREAD_COLOR)
    x0, y0, x1, y1 = got["printed"]["box"]
    assert abs(seen_from_above.shape[1] - 1.6 * (x1 - x0)) <= 1
    # where the print differs: one hex more in row J alone does not add up; with row J's empty count it does
    edge = next(c for c in got["printed"]["cells"] if c["cell"] == "woods-JE")  # the last place of row J
    right = [max(p[0] for p in edge["points"]) + 15.0, sum(p[1] for p in edge["points"]) / 6]
    code, edited = call("POST", "/api/fit/edits", {"edits": [{"at_mm": right, "kind": "beach"}]})
    assert code == 200 and not edited["ok"] and "must add up" in edited["words"]
    code, got_save = call("POST", "/api/fit/save")
    assert code == 409 and "does not add up" in got_save["error"]
    code, edited = call("POST", "/api/fit/edits", {"edits": [{"cell": "woods-JE", "kind": "beach"},
                                                              {"row": "J", "empty": 8}]})
    assert code == 200 and edited["ok"], edited["words"]
    assert {c["cell"]: c["kind"] for c in edited["printed"]["cells"]}["woods-JE"] == "beach"
    assert call("POST", "/api/fit/edits", {"edits": [{"at_mm": "here"}]})[0] == 400
    target = tmp_path / "data" / "boards" / "fitted.toml"
    assert not target.exists()  # fitting alone writes nothing
    code, got = call("POST", "/api/fit/save")
    assert code == 200 and target.exists() and f'[game] board = "{target}"' in got["words"]
    code, got = call("POST", "/api/fit/save")
    assert code == 409 and "confirm" in got["error"]
    assert call("POST", "/api/fit/save", {"confirm": True})[0] == 200
    saved = GAME.layout(board=str(target))
    assert saved.name == "fitted" and saved.cells["woods-JE"].kind == "beach"
    companion.camera = None
    companion.stop()


def test_through_a_wide_angle_lens_the_fit_reads_the_print_through_its_calibration(tmp_path: Path):
    """Barrel distortion bends the board's edges by millimetres; with the lens calibration the fit
    is as good as through a perfect lens, without it the edges are several millimetres off."""
    from vision.lens import LensCalibrator
    from vision.render import look_pose, sheet_views

    size, focal, barrel = (1920, 1080), 1500.0, (-0.15, 0.0, 0.0, 0.0, 0.0)
    calibrator = LensCalibrator()
    for view in sheet_views(15, size, focal, barrel):
        calibrator.add(view)
    lens = calibrator.calibrate()
    anchors = propose_anchors(PACKAGED)
    for k in range(2):
        path, truth = printed_board(tmp_path, seed=30 + k)
        rng = np.random.default_rng(70 + k)
        w, h = truth.size_mm
        pose = look_pose(size, focal, (w / 2 + rng.uniform(-20, 20), h / 2 + rng.uniform(-20, 20)), 850.0,
                         rng.uniform(0, 25), rng.uniform(0, 360), rng.uniform(-10, 10), barrel)
        shot = render(truth, set_up_with_anchors(path, anchors), pose, Effects(noise_sigma=2.0), seed=k)
        off = {}
        for name, use in (("bent", None), ("calibrated", lens)):
            fitted = fit_board(PACKAGED, shot.frame, anchors, lens=use)
            out = tmp_path / f"{name}-{k}.toml"
            out.write_text(GAME.fitted_board(fitted.fit, None, name))
            off[name] = float(cells_off_mm(GAME.layout(board=str(out)), truth).max())
        assert off["calibrated"] < 2.0 and off["bent"] > off["calibrated"] + 1.0, off
