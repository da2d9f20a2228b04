"""Camera sources: folders, video files, the simulated table, clear errors, latest-frame grabbing."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import BoardDetector
from vision.sources import (CameraError, FrameError, OpenCVSource, Picamera2Source, Grabber, SimulatedTable,
                            open_source)
from tests.tables import BOARD, LAYOUT, wait_for


def test_a_folder_of_images_is_read_in_name_order(tmp_path):
    for i in (3, 1, 2):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), np.full((20, 20, 3), i * 40, np.uint8))
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

    grabber = Grabber(grab, "test")
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

    from companion.app.cli import main

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

    grabber = Grabber(grab, "test")
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


def picture(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def bad_folder(folder):
    """A folder of frames as a card reader or a crashed recorder leaves them: some good, some not."""
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), picture(40))
    (folder / "0002.png").write_bytes(b"")
    (folder / "0003.png").write_bytes(b"this is not a picture at all")
    cv2.imwrite(str(folder / "0004.png"), picture(80, (8, 8)))
    whole = cv2.imencode(".png", np.random.default_rng(1).integers(0, 255, (48, 64, 3), dtype=np.uint8))[1].tobytes()
    (folder / "0005.png").write_bytes(whole[: len(whole) // 2])
    cv2.imwrite(str(folder / "0006.jpg"), picture(120))
    return folder


def test_a_folder_names_each_frame_it_cannot_use_and_goes_on_after_it(tmp_path):
    with open_source(str(bad_folder(tmp_path / "frames"))) as source:
        assert int(source.read()[0, 0, 0]) == 40
        said = []
        for _ in range(4):
            with pytest.raises(FrameError) as err:
                source.read()
            said.append(str(err.value))
        assert said[0] == "frame 0002.png is empty (0 bytes)"
        assert said[1].startswith("frame 0003.png cannot be decoded (28 bytes: damaged, cut short or not really a PNG")
        assert said[2].startswith("frame 0004.png is 8x8 pixels, under 16")
        assert said[3].startswith("frame 0005.png cannot be decoded")
        assert abs(int(source.read()[0, 0, 0]) - 120) <= 2  # the good JPEG after them
        assert source.stamp == 5 / 15  # the broken frames kept their places in time
        assert source.read() is None


def test_a_folder_deleted_mid_run_is_gone_until_it_is_back_and_then_goes_on_where_it_stopped(tmp_path):
    folder, away = tmp_path / "frames", tmp_path / "elsewhere"
    folder.mkdir()
    for i in range(1, 5):
        cv2.imwrite(str(folder / f"{i:04}.png"), picture(i * 40))
    with open_source(str(folder)) as source:
        assert [int(source.read()[0, 0, 0]) for _ in range(2)] == [40, 80]
        folder.rename(away)  # deleted, moved, or the USB stick pulled
        for _ in range(3):  # the source is gone on every read, not just once
            with pytest.raises(CameraError, match=f"image folder {folder} is gone") as err:
                source.read()
            assert not isinstance(err.value, FrameError)
        away.rename(folder)
        assert [int(source.read()[0, 0, 0]) for _ in range(2)] == [120, 160] and source.read() is None
        shutil.rmtree(folder)
        with pytest.raises(CameraError, match="is gone"):  # gone after its last picture: still gone
            source.read()
        folder.mkdir()
        assert source.read() is None  # back, with nothing new


def test_an_image_removed_from_the_folder_mid_run_is_named(tmp_path):
    for i in range(1, 4):
        cv2.imwrite(str(tmp_path / f"{i:04}.png"), picture(i * 40))
    with open_source(str(tmp_path)) as source:
        source.read()
        (tmp_path / "0002.png").unlink()
        with pytest.raises(FrameError, match=r"frame 0002.png is gone \(deleted or moved"):
            source.read()
        assert int(source.read()[0, 0, 0]) == 120


def recording(path, frames: int = 30) -> bytes:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    rng = np.random.default_rng(0)
    for _ in range(frames):
        writer.write(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    writer.release()
    return path.read_bytes()


def test_a_video_file_that_is_empty_undecodable_or_cut_short_says_so(tmp_path):
    whole = recording(tmp_path / "clip.avi")
    (tmp_path / "empty.avi").write_bytes(b"")
    with pytest.raises(CameraError, match=r"video file .*empty.avi is empty \(0 bytes\)"):
        open_source(str(tmp_path / "empty.avi"))
    (tmp_path / "noise.avi").write_bytes(b"RIFF" + bytes(range(256)) * 20)
    with pytest.raises(CameraError, match=r"video file .*noise.avi cannot be decoded \(5124 bytes"):
        open_source(str(tmp_path / "noise.avi"))
    (tmp_path / "cut.avi").write_bytes(whole[: len(whole) // 2])  # a recorder that died half-way
    with open_source(str(tmp_path / "cut.avi")) as source:
        good = 0
        with pytest.raises(FrameError, match=r"video file .*cut.avi stops at frame \d+ of the 30 it says it holds") \
                as err:
            while source.read() is not None:
                good += 1
        assert 0 < good < 29 and f"stops at frame {good} of the 30" in str(err.value)
        assert source.read() is None  # said once: the recording has ended
    with open_source(str(tmp_path / "clip.avi")) as source:  # a whole file ends without a word
        played = 0
        while source.read() is not None:
            played += 1
        assert played == 30


def test_a_video_file_removed_while_it_plays_is_gone_when_its_frames_run_out(tmp_path):
    path = tmp_path / "clip.avi"
    whole = recording(path, frames=5)
    with open_source(str(path)) as source:
        assert source.read() is not None
        path.unlink()  # the frames already opened still play to the end
        assert all(source.read() is not None for _ in range(4))
        for _ in range(2):
            with pytest.raises(CameraError, match=r"video file .*clip.avi is gone \(deleted or moved\)"):
                source.read()
        path.write_bytes(whole)
        assert source.read() is None  # back, and already played


class Device:
    """A V4L2 camera as OpenCV sees one: it opens and reads while its device node exists (unplugged: gone)."""

    def __init__(self, target: str) -> None:
        self.node = Path(target)
        self.opened = self.node.exists()
        self.noise = np.random.default_rng(4)

    def isOpened(self) -> bool:
        return self.opened

    def set(self, *args: object) -> bool:
        return True

    def get(self, *args: object) -> float:
        return 0.0

    def read(self) -> tuple[bool, np.ndarray | None]:
        time.sleep(0.002)  # a frame takes its time
        if not self.node.exists():
            return False, None
        return True, picture(90) ^ self.noise.integers(0, 2, (48, 64, 3), dtype=np.uint8)  # sensor noise

    def release(self) -> None:
        self.opened = False


def test_an_unplugged_camera_is_said_unplugged_and_used_again_once_plugged_back(tmp_path, monkeypatch):
    import vision.sources

    monkeypatch.setattr(vision.sources.cv2, "VideoCapture", Device)
    node = tmp_path / "video0"
    node.touch()
    source = OpenCVSource(str(node), live=True, retry_seconds=0)
    source.open()

    def attempt():
        try:
            return source.read()
        except CameraError as exc:
            return exc

    try:
        assert wait_for(lambda: isinstance(attempt(), np.ndarray), 30)
        node.unlink()  # unplugged
        assert wait_for(lambda: isinstance(attempt(), CameraError), 30)
        got = attempt()
        assert isinstance(got, CameraError) and f"camera {node} is unplugged ({node} is gone)" in str(got)
        assert "trying again" in str(got)
        node.touch()  # plugged back in
        assert wait_for(lambda: isinstance(attempt(), np.ndarray), 30)
    finally:
        source.close()


def test_watch_reports_each_bad_frame_and_a_folder_that_is_gone(tmp_path, capsys):
    import json

    from companion.app.cli import main

    folder = bad_folder(tmp_path / "frames")
    assert main(["watch", "--camera", str(folder)]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    bad = [e for e in events if e["event"] == "bad-frame"]
    assert [(e["frame"], e["reason"].split(" (")[0]) for e in bad] == [
        (1, "frame 0002.png is empty"), (2, "frame 0003.png cannot be decoded"),
        (3, "frame 0004.png is 8x8 pixels, under 16"), (4, "frame 0005.png cannot be decoded")]
    assert events[-1]["event"] == "stopped" and events[-1]["frames"] == 6
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "0001.png").write_bytes(b"")
    assert main(["watch", "--camera", str(empty)]) == 1  # not one usable frame: the watch failed
    assert '"reason": "frame 0001.png is empty (0 bytes)"' in capsys.readouterr().out
