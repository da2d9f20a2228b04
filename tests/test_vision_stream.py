"""A recorded stream at the table, replayed with ``watch``: a hand sweeps in, lifts a token, sets it
down a few hexes away, rests there and leaves, under a flickering lamp.

The replay counts in frame time (``--fps``), so the same folder gives the same lines on a fast
machine and on a slow one.
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.games.fog.setup import new_game
from vision.render import Effects, make_pose, render
from tests.tables import BOARD, LAYOUT

POSE = make_pose(LAYOUT, 15, 200, -6, 19.0)
LIGHT = Effects(blur_sigma=0.3, noise_sigma=1.5, light_low=0.85)
REST = 70  # frames the hand rests after setting the token down (4.7 s at 15 fps: past the 3 s hold)


def _hexes_away(src: str, lo: int, hi: int, taken: set[str]) -> str:
    """A free beach cell lo..hi steps from ``src``."""
    seen, todo = {src: 0}, deque([src])
    while todo:
        cell = todo.popleft()
        for n in BOARD.neighbours(cell):
            if n not in seen:
                seen[n] = seen[cell] + 1
                todo.append(n)
    return next(c for c, d in sorted(seen.items()) if lo <= d <= hi and c not in taken
                and BOARD.cells[c].kind == "beach")


def _at(xy: tuple[float, float] | np.ndarray) -> str:
    return f"at:{float(xy[0]):.1f},{float(xy[1]):.1f}"


@pytest.fixture(scope="module")
def stream(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Render the stream once: frames in a folder, the game state it starts from, what happened."""
    folder = tmp_path_factory.mktemp("stream")
    state = new_game(BOARD, 3, seed=12)
    placement = {c: tuple(ps) for c, ps in state.placement.items()}
    piece, src = next((p, c) for c, ps in sorted(placement.items()) for p in ps
                      if p in BOARD.islanders and len(ps) == 1 and c[0] in "DEF")
    dst = _hexes_away(src, 3, 5, set(placement))
    rng = np.random.default_rng(5)
    frames: list[tuple[dict, str | None]] = []
    a, b = np.array(BOARD.cells[src].center_mm), np.array(BOARD.cells[dst].center_mm)
    edge = np.array([a[0], -60.0])
    frames += [(dict(placement), None)] * 8                          # the board at rest
    frames += [(dict(placement), _at(edge + (a - edge) * t)) for t in (0.3, 0.6, 0.85, 1.0)]  # the hand sweeps in
    frames += [(dict(placement), _at(a))] * 4                        # takes hold of the token
    lifted = {c: ps for c, ps in placement.items() if c != src}
    frames += [(lifted, _at(a + (b - a) * t)) for t in (0.25, 0.5, 0.75)]  # carries it
    moved = {**lifted, dst: (piece,)}
    frames += [(moved, _at(b + rng.uniform(-1.5, 1.5, 2))) for _ in range(REST)]  # sets it down and rests
    leave = len(frames)
    frames += [(moved, _at(b + (edge - b) * t)) for t in (0.5, 1.2)]  # leaves
    frames += [(moved, None)] * 20
    for i, (where, hand) in enumerate(frames):
        flicker = float(rng.uniform(0.94, 1.06))  # a lamp on mains: +-6 % from frame to frame
        shot = render(LAYOUT, where, POSE, replace(LIGHT, hand=hand, brightness=flicker), seed=7)
        cv2.imwrite(str(folder / f"frame-{i:04d}.png"), shot.frame)
    state_path = folder.parent / "start.json"
    state_path.write_text(state.to_json(), encoding="utf-8")
    return {"folder": folder, "state": state_path, "piece": piece, "src": src, "dst": dst, "leave": leave,
            "frames": len(frames), "final": {p: c for c, ps in moved.items() for p in ps}}


def _watch(stream: dict, capsys: pytest.CaptureFixture) -> list[dict]:
    assert main(["watch", "--camera", str(stream["folder"]), "--fps", "15", "--state", str(stream["state"])]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_token_lifted_carried_and_set_down_under_a_resting_hand_is_one_move(stream, capsys):
    events = _watch(stream, capsys)
    changes = [e for e in events if e["event"] == "stable-change"]
    assert [c["moved"] for c in changes] == [{stream["piece"]: [stream["src"], stream["dst"]]}]
    assert stream["leave"] < changes[0]["frame"] <= stream["leave"] + 15  # decided once the hand is gone
    assert changes[0]["at"] == pytest.approx(changes[0]["frame"] / 15, abs=1e-3)
    assert events[-1] == {"event": "stopped", "frames": stream["frames"], "stable": dict(sorted(stream["final"].items()))}


def test_a_replay_gives_the_same_lines_on_a_slow_machine(stream, capsys, monkeypatch):
    fast = _watch(stream, capsys)
    real = time.monotonic
    calls = [0]

    def slow() -> float:  # every look at the clock finds another half second gone
        calls[0] += 1
        return real() + 0.5 * calls[0]

    monkeypatch.setattr(time, "monotonic", slow)
    assert _watch(stream, capsys) == fast


def test_watch_says_what_is_wrong_with_a_frame_rate(stream, capsys):
    assert main(["watch", "--camera", str(stream["folder"]), "--fps", "0"]) == 2
    assert "--fps must be above 0" in capsys.readouterr().err


def test_flicker_and_slow_daylight_leave_the_picture_still(stream):
    """Stillness is judged on a difference blind to the whole picture's brightness."""
    from vision.stabilise import changed_pixels, _small_gray

    state = new_game(BOARD, 3, seed=12)
    base = render(LAYOUT, state.placement, POSE, LIGHT, seed=7).frame
    still = _small_gray(base)
    for gain in (0.94, 1.06, 0.8, 1.2):  # flicker, and a cloud passing over the window
        other = _small_gray(render(LAYOUT, state.placement, POSE, replace(LIGHT, brightness=gain), seed=7).frame)
        assert changed_pixels(other, still).mean() < 0.001, gain
        assert (cv2.absdiff(other, still) > 18).mean() > 0.01 or gain in (0.94, 1.06)  # a plain difference sees it
    hand = _small_gray(render(LAYOUT, state.placement, POSE, replace(LIGHT, hand="random", brightness=1.06),
                               seed=7).frame)
    assert changed_pixels(hand, still).mean() > 0.02  # a hand is still a change


def _stream(placement: dict, poses: list) -> tuple[list, list[bool], object]:
    """Frames from the given camera poses through the observer and stabiliser; what each frame saw."""
    from vision.detect import BoardDetector
    from vision.stabilise import Stabiliser, StreamObserver, watch

    observer = StreamObserver(BoardDetector(LAYOUT))
    stabiliser = Stabiliser(frames_needed=3)
    seen, moved, changes = [], [], []
    for i, pose in enumerate(poses):
        shot = render(LAYOUT, placement, pose, LIGHT, seed=7)
        obs, change = watch(observer, stabiliser, shot.frame, at=i / 15)
        seen.append((obs, shot))
        moved.append(observer.board_moved)
        if change is not None and i > 5:
            changes.append(change)
    return seen, moved, (observer, changes)


def test_a_bumped_board_is_fitted_again_announced_once_and_read_on_the_right_cells():
    state = new_game(BOARD, 4, seed=3)
    bumped = make_pose(LAYOUT, 15, 200, -3, 19.0)  # knocked: turned 3 degrees on the table
    seen, moved, (observer, changes) = _stream(state.placement, [POSE] * 8 + [bumped] * 12)
    assert moved.count(True) == 1 and moved.index(True) <= 8 + 4  # noticed within a few frames
    assert observer.track.moves == 1
    for obs, shot in seen:
        assert all(shot.truth[p] == c for p, c in obs.pieces.items())  # never a wrong cell, before or after
    obs, shot = seen[-1]
    assert obs.pieces == {p: c for p, c in shot.truth.items() if p in shot.visible}
    assert changes == []  # nothing moved on the board


def test_a_jump_seen_once_is_not_a_bumped_board():
    state = new_game(BOARD, 4, seed=3)
    bumped = make_pose(LAYOUT, 15, 200, -3, 19.0)
    _seen, moved, (observer, _changes) = _stream(state.placement, [POSE] * 8 + [bumped] + [POSE] * 8)
    assert not any(moved) and observer.track.moves == 0


def test_a_region_search_never_refits_the_board_from_the_corner_markers_inside_it():
    """A hand near one edge changes a region holding two corner markers: the region is read with
    the tracked fit; the pair alone would put the far side of the board a cell off."""
    from vision.detect import BoardDetector
    from vision.stabilise import StreamObserver

    state = new_game(BOARD, 4, seed=3)
    steep = make_pose(LAYOUT, 40, 90, 0, 19.0)
    observer = StreamObserver(BoardDetector(LAYOUT))
    first = observer.observe(render(LAYOUT, state.placement, steep, LIGHT, seed=7).frame)
    tracked = observer.track.fit.copy()
    x0, y0 = BOARD.fiducials[0]["center_mm"]
    x1, _ = BOARD.fiducials[1]["center_mm"]
    for x in np.linspace(x0 + 40, x1 - 40, 5):  # a hand along the edge by corner markers 0 and 1
        shot = render(LAYOUT, state.placement, steep, replace(LIGHT, hand=f"at:{x:.0f},{y0 + 30:.0f}"), seed=7)
        obs = observer.observe(shot.frame)
        assert all(shot.truth[p] == c for p, c in obs.pieces.items())
        assert observer.track.shift_mm(tracked, obs.homography) <= 3.0
    assert first.board_found


def test_a_small_pawn_moved_onto_a_space_of_its_own_colour_is_seen_at_once():
    """On a large frame a pawn's marker is one or two pixels of the small motion frame: a pawn set
    on a space of its own colour changes almost nothing there. The move must still be seen in the
    frame it happens, not taken for an idle board (nor found only at the next full look)."""
    from companion.games import get_game
    from vision.detect import BoardDetector
    from vision.sources import SimulatedTable
    from vision.stabilise import StreamObserver

    game = get_game("partner-race")
    state = game.apply(game.new_game(4, seed=3), "play yellow start yellow-1:start")
    after = {**game.expected(game.apply(state, "play green start green-1:start")), "card-spot": ("card-start",)}
    layout = game.layout(state)
    for seed in range(4):  # the simulated camera at 2560x1440 and 3840x2160, four poses
        table = SimulatedTable(layout, game.expected(state), seed=seed)
        table.open()
        observer = StreamObserver(BoardDetector(layout))
        observer.observe(table.read())
        observer.observe(table.read())
        table.set_placement(after)
        assert observer.observe(table.read()).pieces.get("green-1") == "start-green", seed
