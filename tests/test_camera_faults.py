"""Camera faults at the table: the game goes on from the panel and comes back to the camera by itself."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.run import Companion
from tests.tables import BOARD, LAYOUT, sim_config
from vision.live import LiveCamera
from vision.sources import CameraError, SimulatedTable
from web_ui import create_app


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FaultyCamera(SimulatedTable):
    """The simulated table's camera, which can be made to fail the ways real ones do."""

    repeats_frames = False  # behaves like a real sensor: every frame has its own noise

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rng = np.random.default_rng(3)
        self.mode = "ok"
        self._frozen: np.ndarray | None = None

    def read(self) -> np.ndarray | None:
        if self.mode == "raise":
            raise CameraError("USB camera disconnected")
        if self.mode == "none":
            return None
        if self.mode == "black":
            return np.zeros((720, 1280, 3), np.uint8)
        frame = super().read()
        if self.mode == "frozen":
            if self._frozen is None:
                self._frozen = frame
            return self._frozen
        self._frozen = None
        return frame ^ self._rng.integers(0, 2, frame.shape, dtype=np.uint8)  # sensor noise in the last bit


@pytest.fixture
def table(tmp_path: Path) -> Any:
    clock = Clock()
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=5), out=io.StringIO())
    source = FaultyCamera(LAYOUT, companion.session.state.placement)
    source.open()
    camera = LiveCamera(source, LAYOUT, companion._on_picture, companion._on_health, clock=clock,
                        fault_seconds=3.0, frozen_seconds=5.0)
    camera.stabiliser.clock = clock
    companion.camera = camera
    events: list[Any] = []
    sub = companion.session.bus.subscribe(events.append)

    def frames(n: int, dt: float = 0.5) -> None:
        for _ in range(n):
            clock.now += dt
            camera.step()
            companion.reconciler.wait_idle()  # the picture is read on its own thread
        sub.drain()

    frames(4)
    assert not companion.session.status.verifying
    session = companion.session
    while session.state.phase == "draft":
        session.act(str(rules.legal_drafts(session.state)[0]))
    yield companion, source, frames, events
    sub.close()
    companion.stop()


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


@pytest.mark.parametrize("mode, words", [
    ("raise", "USB camera disconnected"),
    ("none", "no frames"),
    ("black", "black"),
    ("frozen", "frozen"),
])
def test_a_failing_camera_switches_to_panel_play_and_back(table: Any, mode: str, words: str):
    companion, source, frames, events = table
    session = companion.session
    client = create_app(companion).test_client()
    source.mode = mode
    frames(2)  # a short glitch is not a fault
    assert session.status.camera_fault is None
    frames(16)
    assert session.status.camera_fault and words in session.status.camera_fault
    assert "camera-lost" in kinds(events)
    state = client.get("/api/state").get_json()
    assert state["camera"]["healthy"] is False and words in state["camera"]["fault"]  # the panel's banner
    companion.hardware.show(session.state, "camera-lost")
    # play goes on from the panel: a move is entered there
    piece, dst = next((p, n) for p in session.state.islanders_of(session.state.active_colour)
                      if BOARD.cells[session.state.where[p]].kind == "beach"
                      for d in ("NW", "NE") if (n := BOARD.step(session.state.where[p], d))
                      and BOARD.cells[n].kind == "beach" and n not in session.state.placement)
    res = client.post("/api/move", json={"piece": piece, "cell": dst})
    assert res.status_code == 200 and session.state.where[piece] == dst
    # ... and the physical table follows; then the camera comes back by itself
    source.set_placement(session.state.placement)
    source.mode = "ok"
    frames(6)
    assert session.status.camera_fault is None and "camera-back" in kinds(events)
    assert session.status.out_of_sync is None  # the board as seen again matches the game
    assert session.replayed() == session.state  # nothing lost
    logged = [e.data["action"] for e in session.store.events(session.game_id) if e.kind == "action"]
    assert logged[-1].startswith("move") and piece in logged[-1]


def test_the_led_alert_for_a_lost_camera(table: Any):
    companion, source, frames, events = table
    source.mode = "raise"
    frames(10)
    companion._on_event(events[-1])  # the LED subscriber's view of the latest event
    assert companion.hardware._alert[0] == "camera-lost"


def test_a_board_changed_while_the_camera_was_away_is_reconciled_when_it_returns(table: Any):
    companion, source, frames, events = table
    session = companion.session
    source.mode = "raise"
    frames(10)
    assert session.status.camera_fault
    piece = next(p for p in session.state.islanders_of(session.state.active_colour)
                 if BOARD.cells[session.state.where[p]].kind == "beach")
    row = BOARD.row_of(session.state.where[piece])
    far_row = "J" if row is not None and row < "E" else "A"  # the other end of the beach
    far = next(c for c in BOARD.row_cells[far_row] if c not in session.state.placement)
    placement = {c: [p for p in ps if p != piece] for c, ps in session.state.placement.items()}
    placement.setdefault(far, []).append(piece)
    source.set_placement(placement)  # someone moved a piece far while nobody was looking
    source.mode = "ok"
    frames(6)
    assert session.status.camera_fault is None, (session.state.where.get(piece), far)
    assert session.status.out_of_sync is not None and piece in session.status.out_of_sync.offenders, (
        session.state.where.get(piece), far)


class OddFrames(FaultyCamera):
    """A driver that delivers something, just not a picture the companion can use."""

    def __init__(self, *args: Any, kind: str = "float64", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind

    def read(self) -> Any:
        frame = super().read()
        if self.mode != "odd":
            return frame
        return {"float64": lambda: frame.astype(np.float64), "uint16": lambda: frame.astype(np.uint16) * 256,
                "bool": lambda: frame > 128, "tiny": lambda: frame[:4, :4], "list": lambda: [[1, 2], [3, 4]],
                "five": lambda: np.dstack([frame, frame[:, :, :2]])}[self.kind]()


@pytest.mark.parametrize("kind, words", [("float64", "float64"), ("uint16", "uint16"), ("bool", "bool"),
                                         ("tiny", "shape"), ("list", "list"), ("five", "5 colour channels")])
def test_frames_of_the_wrong_kind_are_a_camera_fault_with_the_reason_not_a_traceback_loop(
        tmp_path: Path, kind: str, words: str, caplog: Any):
    clock = Clock()
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=5), out=io.StringIO())
    source = OddFrames(LAYOUT, companion.session.state.placement, kind=kind)
    source.open()
    camera = LiveCamera(source, LAYOUT, companion._on_picture, companion._on_health, clock=clock, fault_seconds=3.0)
    companion.camera = camera
    try:
        source.mode = "odd"
        for _ in range(20):
            clock.now += 0.5
            camera.step()
            companion.reconciler.wait_idle()  # the picture is read on its own thread
        assert not camera.healthy and words in (camera.fault or ""), camera.fault
        assert companion.session.status.camera_fault and words in companion.session.status.camera_fault
        state = create_app(companion).test_client().get("/api/camera").get_json()
        assert state["healthy"] is False and words in state["fault"]
        assert "Traceback" not in caplog.text
        source.mode = "ok"
        for _ in range(6):
            clock.now += 0.5
            camera.step()
            companion.reconciler.wait_idle()  # the picture is read on its own thread
        assert camera.healthy and companion.session.status.camera_fault is None
    finally:
        companion.camera = None
        companion.stop()


def test_detection_that_fails_on_every_frame_is_a_fault_logged_once(tmp_path: Path, caplog: Any):
    clock = Clock()
    source = FaultyCamera(LAYOUT, {})
    source.open()
    camera = LiveCamera(source, LAYOUT, clock=clock, fault_seconds=3.0)

    def broken(frame: Any) -> Any:
        raise RuntimeError("the detector is broken")

    camera.observer.observe = broken  # type: ignore[method-assign]
    for _ in range(40):
        clock.now += 0.5
        try:
            camera.step()
            companion.reconciler.wait_idle()  # the picture is read on its own thread
        except Exception as exc:  # noqa: BLE001 - the thread's own handler
            camera._step_failed(exc)
    assert not camera.healthy and "detection fails" in (camera.fault or "")
    assert camera.settings()["healthy"] is False


def test_a_camera_that_raises_anything_on_open_means_panel_play_not_a_crash(tmp_path: Path, monkeypatch: Any):
    import vision.sources

    def broken_open(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("libcamera: pipeline handler failed")

    monkeypatch.setattr(vision.sources, "open_source", broken_open)
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=5), out=out)
    try:
        companion.start()
        assert companion.camera is None
        assert companion.session.status.camera_fault and "RuntimeError" in companion.session.status.camera_fault
        assert "playing from the panel only" in out.getvalue()
    finally:
        companion.stop()


def test_a_slow_camera_is_reported_lost_once_and_does_not_flap(tmp_path: Path):
    """A camera that delivers a frame every 4 s while a fault is 3 s without one: lost once, then calm."""
    clock = Clock()
    source = FaultyCamera(LAYOUT, {})
    source.open()
    reports: list[bool] = []
    camera = LiveCamera(source, LAYOUT, on_health=lambda ok, why: reports.append(ok), clock=clock, fault_seconds=3.0)
    for tick in range(240):  # 60 s at 4 looks a second; a frame every 16th look
        clock.now += 0.25
        source.mode = "ok" if tick % 16 == 0 else "none"
        camera.step()
    assert reports == [False], reports
    assert "too few frames" in (camera.fault or "") or "no frames" in (camera.fault or "")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_timing_settings_must_be_finite(value: str):
    from companion.config import ConfigError, parse

    with pytest.raises(ConfigError, match="finite"):
        parse(f"[camera]\nfault_seconds = {value}\n")
    with pytest.raises(ValueError, match="finite"):
        LiveCamera(FaultyCamera(LAYOUT, {}), LAYOUT, fault_seconds=float(value))
