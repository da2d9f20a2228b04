"""Camera sources: folders, video files, the simulated table, clear errors, latest-frame grabbing."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from vision.detect import BoardDetector
from vision.sources import CameraError, OpenCVSource, Picamera2Source, SimulatedTable, _Grabber, open_source
from tests.tables import BOARD, LAYOUT


def test_a_folder_of_images_is_read_in_name_order(tmp_path):
    for i in (3, 1, 2):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), np.full((10, 10, 3), i * 40, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    with open_source(str(tmp_path)) as source:
        values, stamps = [], []
        for _ in range(3):
            values.append(int(source.read()[0, 0, 0]))
            stamps.append(source.stamp)
        assert values == [40, 80, 120] and source.read() is None
        assert stamps == [0.0, 1 / 15, 2 / 15]  # frame time: 15 frames a second unless told
    with open_source(str(tmp_path), fps=4) as source:
        source.read(), source.read()
        assert source.stamp == 0.25
    with pytest.raises(CameraError, match="above 0"):
        open_source(str(tmp_path), fps=0)


def test_a_video_file_is_read_frame_by_frame(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), i * 50, np.uint8))
    writer.release()
    with open_source(str(path)) as source:
        assert isinstance(source, OpenCVSource)
        frames, stamps = [], []
        for _ in range(6):
            frames.append(source.read())
            stamps.append(source.stamp)
    assert all(f is not None for f in frames[:5]) and frames[5] is None
    assert stamps[:5] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])  # the file's own 10 frames a second
    with open_source(str(path), fps=25) as source:
        source.read(), source.read()
        assert source.stamp == pytest.approx(0.04)
    assert [round(f.mean() / 50) for f in frames[:5]] == [0, 1, 2, 3, 4]


def test_a_source_that_cannot_open_says_what_was_tried(tmp_path):
    with pytest.raises(CameraError, match="tried: picamera2, sim"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(CameraError, match="cannot open camera"):
        open_source("/dev/video9")
    with pytest.raises(CameraError, match="holds no images"):
        open_source(str(tmp_path))


def test_the_pi_camera_explains_how_to_install_picamera2_when_it_is_missing():
    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="python3-picamera2"):
            Picamera2Source().open()
    else:  # on a Pi with Picamera2 installed the message is not shown
        assert Picamera2Source().name == "picamera2"


def test_the_grabber_keeps_only_the_newest_frame():
    counter = iter(range(10_000))

    def grab() -> np.ndarray:
        time.sleep(0.001)
        return np.array([next(counter)])

    grabber = _Grabber(grab, "test")
    grabber.start()
    time.sleep(0.05)
    first = grabber.latest()
    time.sleep(0.05)
    second = grabber.latest()
    grabber.stop()
    assert first is not None and second is not None and int(second[0]) > int(first[0]) + 5


def test_the_simulated_table_shows_what_is_placed_on_it():
    with SimulatedTable(LAYOUT, {"C3": ("blue-leader-1",)}, seed=2) as table:
        detector = BoardDetector(LAYOUT)
        assert detector.detect(table.read()).pieces == {"blue-leader-1": "C3"}
        table.set_placement({"D4": ("blue-leader-1",), "E4": ("rock-1",)})
        assert detector.detect(table.read()).pieces == {"blue-leader-1": "D4", "rock-1": "E4"}
    with pytest.raises(CameraError):
        table.read()


def test_a_token_turned_over_on_the_simulated_table_stays_but_its_marker_is_gone():
    with SimulatedTable(LAYOUT, {"C3": ("blue-leader-1",), "E4": ("rock-1",)}, seed=2) as table:
        detector = BoardDetector(LAYOUT)
        table.turn_over("blue-leader-1")
        assert table.placement()["C3"] == ("blue-leader-1",) and table.face_down() == ["blue-leader-1"]
        assert detector.detect(table.read()).pieces == {"rock-1": "E4"}  # the camera cannot tell which token it is
        table.set_placement({"C3": ("blue-leader-1",), "E4": ("rock-1",)}, face_up=True)  # the board set up again
        assert detector.detect(table.read()).pieces == {"blue-leader-1": "C3", "rock-1": "E4"}


def test_watch_reads_a_camera_and_reports_stable_changes_as_json(tmp_path, capsys):
    import json

    from companion.cli import main

    state_path = tmp_path / "g.json"
    assert main(["new-game", "--players", "3", "--seed", "2", "-o", str(state_path)]) == 0
    capsys.readouterr()
    assert main(["watch", "--camera", "sim", "--state", str(state_path), "--frames", "5"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert events[0] == {"event": "camera", "source": "sim"} and events[-1]["event"] == "stopped"
    assert events[-1]["frames"] == 5 and len(events[-1]["stable"]) == 45
    assert main(["watch", "--camera", str(tmp_path / "nope.mp4")]) == 2
    assert "tried: picamera2, sim" in capsys.readouterr().err


def test_a_frame_keeps_the_time_the_camera_took_it_however_late_it_is_processed():
    from vision.stabilise import FrameClock

    taken = iter(range(10_000))

    def grab() -> tuple[np.ndarray, float]:
        n = next(taken)
        return np.array([n]), 1000.0 + n / 15  # the sensor's own clock

    grabber = _Grabber(grab, "test")
    grabber.start()
    while (got := grabber.latest_stamped())[0] is None:
        time.sleep(0.001)
    grabber.stop()
    frame, stamp = got
    assert stamp == pytest.approx(1000.0 + int(frame[0]) / 15)
    now = [50.0]
    timeline = FrameClock(lambda: now[0])
    assert timeline(1000.0) == 50.0  # anchored to the consumer's clock
    now[0] = 99.0  # processing was slow: the frames still lie 1/15 s apart
    assert timeline(1000.0 + 1 / 15) == pytest.approx(50.0 + 1 / 15)
    assert timeline(3.0) == 99.0  # a recording started over: anchored afresh
    assert timeline(None) == 99.0  # a frame without a time of its own: the consumer's clock


def test_a_camera_left_at_size_0_gets_the_size_made_for_a_board_seen_whole(monkeypatch):
    """The config's 0 x 0: a Pi camera's binned full-sensor mode (markers of 16 px and more over the
    whole board), 720p for any other camera; a size asked for is a size asked for."""
    opened = []
    monkeypatch.setattr(Picamera2Source, "open", lambda self: opened.append(self.size))
    monkeypatch.setattr(OpenCVSource, "open", lambda self: opened.append(self.size))
    open_source("picamera2", width=0, height=0)
    open_source("picamera2", width=1920, height=1080)
    open_source("0", width=0, height=0)
    assert opened == [(2304, 1296), (1920, 1080), (1280, 720)]
