"""Camera faults at the table: the game goes on from the panel and comes back to the camera by itself."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, LAYOUT, collect_output, http_call, sim_config, wait_for
from vision.live import LiveCamera
from vision.sources import CameraError, FolderSource, OpenCVSource, SimulatedTable
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
                                         ("tiny", "frame is 4x4 pixels, under 16"), ("list", "list"),
                                         ("five", "5 colour channels")])
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
    from companion.app.config import ConfigError, parse

    with pytest.raises(ConfigError, match="finite"):
        parse(f"[camera]\nfault_seconds = {value}\n")
    with pytest.raises(ValueError, match="finite"):
        LiveCamera(FaultyCamera(LAYOUT, {}), LAYOUT, fault_seconds=float(value))


# ------------------------------------------------------------------ broken frames and sources that vanish
def write_frame(path: Path, kind: str, placement: Any = None) -> None:
    """A frame file as a camera, a card reader or a crashed recorder may leave one."""
    if kind == "good":
        with SimulatedTable(LAYOUT, placement or {}, seed=1) as table:
            cv2.imwrite(str(path), table.read())
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "tiny":
        cv2.imwrite(str(path), np.full((8, 8, 3), 128, np.uint8))
    elif kind == "undecodable":
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"the rest of this picture was never written" * 4)


def red_band(jpeg: bytes) -> bool:
    """The picture carries the fault's band across its top (the words are written on it)."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    b, g, r = image[:6].reshape(-1, 3).mean(axis=0)
    return bool(r > 60 and b < 30 and g < 30)


class FolderTable:
    """A companion whose camera reads a folder of frames over and over, stepped by hand on a clock of its own."""

    def __init__(self, tmp_path: Path, source: Any) -> None:
        self.clock = Clock()
        self.companion = Companion(sim_config(tmp_path / "data"), lambda: new_game(BOARD, 3, seed=5), out=io.StringIO())
        self.source = source
        self.source.open()
        self.camera = LiveCamera(self.source, LAYOUT, self.companion._on_picture, self.companion._on_health,
                                 clock=self.clock, fault_seconds=3.0)
        self.camera.stabiliser.clock = self.clock
        self.companion.camera = self.camera
        self.events: list[Any] = []
        self.sub = self.companion.session.bus.subscribe(self.events.append)
        self.client = create_app(self.companion).test_client()

    def frames(self, n: int, until: Callable[[], bool] | None = None) -> None:
        """``n`` looks half a second apart (or fewer: until ``until`` holds)."""
        for _ in range(n):
            self.clock.now += 0.5
            self.camera.step()
            self.companion.reconciler.wait_idle()
            if until is not None and until():
                break
        self.sub.drain()

    def panel_camera(self) -> dict[str, Any]:
        return self.client.get("/api/state").get_json()["camera"]

    def close(self) -> None:
        self.sub.close()
        self.companion.camera = None
        self.camera.stop()
        self.companion.stop()


@pytest.mark.parametrize("kind, words", [
    ("empty", r"frame 000\d.png is empty \(0 bytes\)"),
    ("tiny", r"frame 000\d.png is 8x8 pixels, under 16 \(a picture of 16x16 or more is needed\)"),
    ("undecodable", r"frame 000\d.png cannot be decoded \(\d+ bytes: damaged, cut short or not really a PNG file\)"),
], ids=["empty", "tiny", "undecodable"])
def test_a_folder_of_broken_frames_is_a_fault_naming_the_frame_until_good_frames_come(tmp_path: Path, kind: str,
                                                                                     words: str):
    import re

    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(1, 4):
        write_frame(folder / f"{i:04}.png", kind)
    table = FolderTable(tmp_path, FolderSource(folder, loop=True))
    try:
        table.frames(2)  # a short glitch is not a fault
        assert table.camera.healthy and table.panel_camera()["fault"] is None
        table.frames(10)
        assert not table.camera.healthy and re.fullmatch(words, table.camera.fault or ""), table.camera.fault
        said = table.panel_camera()
        assert said["healthy"] is False and re.fullmatch(words, said["fault"] or ""), said  # the panel's banner
        assert "camera-lost" in kinds(table.events)
        snap = table.client.get("/snapshot.jpg")
        assert snap.status_code == 200 and snap.data[:2] == b"\xff\xd8" and red_band(snap.data)  # says the fault
        for i in range(1, 4):  # the card reader fixed: the same names, good pictures
            write_frame(folder / f"{i:04}.png", "good", table.companion.session.state.placement)
        table.frames(6)
        assert table.camera.healthy and table.panel_camera() | {"source": None} == {
            "present": True, "simulated": False, "healthy": True, "fault": None, "source": None}
        assert "camera-back" in kinds(table.events)
        assert not red_band(table.client.get("/snapshot.jpg").data)  # the picture itself again
    finally:
        table.close()


def test_a_broken_frame_between_good_ones_is_a_glitch_but_a_recording_that_ends_on_one_is_a_fault(tmp_path: Path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, kind in enumerate(["good", "empty", "good", "good", "good", "good", "good", "good", "good", "tiny"], 1):
        write_frame(folder / f"{i:04}.png", kind)
    table = FolderTable(tmp_path, FolderSource(folder))
    try:
        table.frames(9)
        assert table.camera.healthy and table.camera.frames == 8  # 0002.png was passed over, said, and forgotten
        table.frames(12)  # 0010.png, then nothing more: the last thing seen stays broken
        assert not table.camera.healthy
        assert table.camera.fault == "frame 0010.png is 8x8 pixels, under 16 (a picture of 16x16 or more is needed)"
        assert table.panel_camera()["fault"] == table.camera.fault
    finally:
        table.close()


def test_a_video_cut_short_is_a_fault_that_says_where_it_stops(tmp_path: Path):
    path, cut = tmp_path / "clip.avi", tmp_path / "cut.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    with SimulatedTable(LAYOUT, {}, seed=1) as sim:
        frame = cv2.resize(sim.read(), (320, 240))
    for _ in range(30):
        writer.write(frame)
    writer.release()
    whole = path.read_bytes()
    cut.write_bytes(whole[: len(whole) // 2])
    table = FolderTable(tmp_path, OpenCVSource(str(cut)))
    try:
        table.frames(40)
        assert not table.camera.healthy and "cut.avi stops at frame" in (table.camera.fault or "")
        assert "of the 30 it says it holds (damaged or cut short)" in table.panel_camera()["fault"]
    finally:
        table.close()


def test_a_folder_deleted_mid_run_is_a_fault_and_putting_it_back_clears_it(tmp_path: Path):
    folder, away = tmp_path / "frames", tmp_path / "away"
    folder.mkdir()
    for i in range(1, 4):
        write_frame(folder / f"{i:04}.png", "good")
    table = FolderTable(tmp_path, FolderSource(folder, loop=True))
    try:
        table.frames(4)
        assert table.camera.healthy and table.camera.frames == 4
        folder.rename(away)
        table.frames(10)
        assert table.camera.fault == f"image folder {folder} is gone (deleted, moved or unmounted)"
        assert table.panel_camera()["fault"] == table.camera.fault
        snap = table.client.get("/snapshot.jpg")
        assert snap.status_code == 200 and red_band(snap.data)  # the last good picture, the fault written over it
        away.rename(folder)
        table.frames(6)
        assert table.camera.healthy and table.panel_camera()["healthy"] is True
        assert kinds(table.events).count("camera-lost") == 1 and "camera-back" in kinds(table.events)
    finally:
        table.close()


def test_an_unplugged_usb_camera_is_a_fault_until_it_is_plugged_back(tmp_path: Path, monkeypatch: Any):
    import vision.sources
    from tests.test_vision_sources import Device

    monkeypatch.setattr(vision.sources.cv2, "VideoCapture", Device)
    node = tmp_path / "video0"
    node.touch()
    table = FolderTable(tmp_path, OpenCVSource(str(node), live=True, retry_seconds=0))

    def looks(until: Callable[[], bool]) -> bool:  # the camera's own thread delivers: look until it has
        import time

        for _ in range(3000):
            table.frames(1)
            if until():
                return True
            time.sleep(0.005)
        return False

    try:
        assert looks(lambda: table.camera.frames >= 3) and table.camera.healthy
        node.unlink()
        assert looks(lambda: not table.camera.healthy)
        assert table.panel_camera()["fault"] == f"camera {node} is unplugged ({node} is gone); trying again every 0 s"
        node.touch()
        assert looks(lambda: table.camera.healthy)
        assert table.panel_camera()["fault"] is None and "camera-back" in kinds(table.events)
    finally:
        table.close()


# ------------------------------------------------------------------ the same, at a running companion
def run_on(folder: Path, data: Path) -> tuple[Any, list[str], int]:
    """``fog-companion run --camera FOLDER`` as its service starts it (no standard input): process, output, port."""
    import os
    import re
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    data.mkdir(exist_ok=True)
    (data / "config.toml").write_text("[camera]\nfault_seconds = 1.0\n")
    env = {**os.environ, "PYTHONPATH": str(root), "FOG_LED_BACKEND": "recording",
           "FOG_CONFIG": str(data / "config.toml")}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--camera", str(folder), "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(data), "--players", "3", "--seed", "7"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=root)
    lines = collect_output(proc)
    assert wait_for(lambda: any(x.startswith("panel: http://") for x in lines) or proc.poll() is not None, 90), lines
    port = next((int(m.group(1)) for x in lines if (m := re.match(r"panel: http://[^:]+:(\d+)/", x))), None)
    assert port is not None, "".join(lines)
    return proc, lines, port


class Stream:
    """``GET /stream.mjpg`` read as a browser reads it, part by part. Every read is bounded by a socket
    timeout: a *liveness* bound (the stream must not hang), generous enough for a loaded machine."""

    def __init__(self, port: int) -> None:
        import http.client

        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", "/stream.mjpg?overlay=0")
        self.res = self.conn.getresponse()
        assert self.res.status == 200 and self.res.getheader("Content-Type", "").startswith("multipart/x-mixed-replace")

    def picture(self) -> bytes:
        """The next JPEG part (a socket timeout if none comes: the stream hangs)."""
        while (line := self.res.readline()) and line.strip() != b"--frame":
            pass
        assert line, "the stream ended"
        length = 0
        while (line := self.res.readline().strip()):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        data = self.res.read(length)
        assert len(data) == length and data[:2] == b"\xff\xd8"
        return data

    def close(self) -> None:
        self.conn.close()


def stop(proc: Any) -> None:
    import signal

    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)


def test_run_on_a_folder_of_empty_images_says_so_on_the_panel_and_its_stream_shows_the_fault(tmp_path: Path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(1, 4):
        write_frame(folder / f"{i:04}.png", "empty")
    proc, lines, port = run_on(folder, tmp_path / "data")
    stream = Stream(port)
    try:
        stream.picture()  # not one frame ever came: the stream still answers (waiting, or the fault)
        assert wait_for(lambda: http_call(port, "GET", "/api/state")[1]["camera"]["healthy"] is False, 60)
        camera = http_call(port, "GET", "/api/state")[1]["camera"]
        assert camera["fault"] == "frame 0003.png is empty (0 bytes)", camera
        assert http_call(port, "GET", "/api/camera")[1]["fault"] == camera["fault"]
        assert red_band(stream.picture()) and red_band(stream.picture())  # and it goes on saying it
        assert wait_for(lambda: any("camera lost (frame 0003.png is empty (0 bytes))" in x for x in lines), 30), lines
    finally:
        stream.close()
        stop(proc)
    assert proc.returncode == 0, "".join(lines)


def test_run_whose_folder_is_deleted_mid_run_says_so_and_is_back_when_the_folder_is(tmp_path: Path):
    folder, away = tmp_path / "frames", tmp_path / "away"
    folder.mkdir()
    for i in range(1, 4):
        write_frame(folder / f"{i:04}.png", "good")
    proc, lines, port = run_on(folder, tmp_path / "data")
    stream = Stream(port)
    try:
        assert wait_for(lambda: http_call(port, "GET", "/api/camera")[1]["frames"] == 3, 60)
        assert not red_band(stream.picture())  # the folder's last picture
        folder.rename(away)
        assert wait_for(lambda: http_call(port, "GET", "/api/state")[1]["camera"]["healthy"] is False, 60)
        assert http_call(port, "GET", "/api/state")[1]["camera"]["fault"] == \
            f"image folder {folder} is gone (deleted, moved or unmounted)"
        assert wait_for(lambda: red_band(stream.picture()), 60)  # the last good picture, the fault written over it
        away.rename(folder)
        assert wait_for(lambda: http_call(port, "GET", "/api/state")[1]["camera"]["healthy"] is True, 60)
        assert wait_for(lambda: not red_band(stream.picture()), 60)  # the same stream, the picture again
        assert any(x.startswith("camera back") for x in lines), lines
    finally:
        stream.close()
        stop(proc)
    assert proc.returncode == 0, "".join(lines)
