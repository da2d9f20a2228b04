"""Camera sources: Pi camera, any OpenCV source, a folder of images, or the simulated table.

All share one small interface (:class:`FrameSource`: ``open``, ``read`` the latest frame,
``close``; a context manager). Live cameras run a grabber thread that keeps only the newest
frame, so a slow consumer never processes a stale backlog. Files and folders are read in order.
:func:`open_source` turns a config/CLI string into a source and, when it cannot open, says
what it tried.

A source never skips what it cannot use in silence: a frame it cannot deliver raises
:class:`FrameError` naming it (``frame 0003.png is empty (0 bytes)``) and the next ``read`` goes
on with the next one; a source that is gone (its folder deleted, its video file removed, its
device unplugged) raises :class:`CameraError` on every ``read`` until it is back."""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import FogCompanionError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpg", ".mjpeg", ".h264")
SECRET_KEYS = ("password", "passwd", "pass", "pwd", "token", "key", "secret", "auth", "signature", "sig")


def redact(spec: str) -> str:
    """A camera address safe to show: the password of ``user:pass@`` and secret query values become ``***``."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    if "://" not in spec:
        return spec
    try:
        parts = urlsplit(spec)
    except ValueError:
        return "***"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:***@{host}" if ":" in userinfo else f"***@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if any(s in k.lower() for s in SECRET_KEYS) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


# A frame narrower or lower than this cannot show a marker (the smallest that reads is about 16 px).
MIN_SIDE = 16


class CameraError(FogCompanionError):
    """A camera source could not be opened or stopped delivering frames."""


class FrameError(CameraError):
    """One frame could not be delivered (named: which, and what is wrong with it); the source itself goes on.

    Kept apart from :class:`CameraError` because the two end differently: a broken frame is over
    when a good one follows, a source that is gone is over only when it answers again.
    """


class FrameSource(ABC):
    """A source of BGR frames. ``read`` returns the newest frame, or None if none is ready.

    ``stamp`` is the frame time of the frame ``read`` returned last, in seconds: when a camera
    took it, or its place in a recording (index / fps). Everything that waits ("three still
    frames", "a hand resting three seconds") counts in frame time, so a replay gives the same
    events on a fast machine and on a slow one. None: the source has no time of its own (the
    simulated table); the consumer's clock stands in.
    """

    name = "source"
    stamp: float | None = None

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def open(self) -> None:
        """Start delivering frames; raises :class:`CameraError` naming what failed."""

    @abstractmethod
    def read(self) -> np.ndarray | None:
        """The latest frame (BGR), or None when no new frame is available (yet, or any more)."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; safe to call twice."""


class _Grabber:
    """A thread that keeps only the newest frame from a blocking ``grab`` function."""

    def __init__(self, grab: Callable[[], np.ndarray | tuple[np.ndarray, float] | None], name: str) -> None:
        self._grab = grab  # a frame (stamped on arrival), or (frame, the camera's own time in seconds)
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._stamp = 0.0
        self._fresh = False
        self._stop = threading.Event()
        self.error: BaseException | None = None
        self.last_frame_at = 0.0
        self._thread = threading.Thread(target=self._run, name=f"grabber-{name}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                frame = self._grab()
            except Exception as exc:  # a driver error ends the stream; the consumer sees it
                self.error = exc
                return
            if frame is None:
                time.sleep(0.005)
                continue
            arrived = time.monotonic()
            stamp = arrived
            if isinstance(frame, tuple):
                frame, stamp = frame
            with self._lock:
                self._frame, self._stamp, self._fresh = frame, stamp, True
                self.last_frame_at = arrived

    def latest(self) -> np.ndarray | None:
        return self.latest_stamped()[0]

    def latest_stamped(self) -> tuple[np.ndarray | None, float]:
        """The newest frame not handed out yet (or None) and its time: taken when it arrived,
        not when it is processed, so a slow consumer does not stretch the time between frames."""
        with self._lock:
            if not self._fresh:
                return None, self._stamp
            self._fresh = False
            return self._frame, self._stamp

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)


class OpenCVSource(FrameSource):
    """Any ``cv2.VideoCapture`` target: a device index or path, a video file or a stream URL.

    A live target that stops delivering (a USB camera unplugged, a stream dropped) raises
    :class:`CameraError` on every ``read`` and is opened afresh at most every ``retry_seconds`` on
    a thread of its own (a stream may take many seconds to refuse; the camera thread, which the
    watchdog follows, goes on), so a camera plugged back in is used again without a restart. A
    recording that ends early (fewer frames than the file says it holds) raises :class:`FrameError`
    once; a file deleted while it played is found gone when its frames run out, and raises
    :class:`CameraError` until it is back.
    """

    def __init__(self, target: int | str, width: int = 1280, height: int = 720, live: bool | None = None,
                 fps: float | None = None, retry_seconds: float = 1.0) -> None:
        self.target = target
        self.fps = fps  # a recording's frame rate (None: what the file says)
        self._index = 0
        self.size = (width, height)
        self.name = redact(str(target))
        self.live = live if live is not None else not (isinstance(target, str) and Path(target).is_file())
        self.retry_seconds = retry_seconds
        self._cap: cv2.VideoCapture | None = None
        self._grabber: _Grabber | None = None
        self._count = 0  # frames a recording says it holds (0: unknown)
        self._ended = False  # a recording ran out (its damage, if any, was said once)
        self._lost: str | None = None  # why a live target stopped; it is opened afresh meanwhile
        self._retry_at = 0.0
        self._reopening: threading.Thread | None = None
        self._reopened: list[cv2.VideoCapture] = []  # the target opened again, handed over by that thread

    def _capture(self) -> cv2.VideoCapture:
        """The target opened, or :class:`CameraError` saying why not (an empty or undecodable file by name)."""
        cap = cv2.VideoCapture(self.target)
        if cap.isOpened():
            return cap
        cap.release()
        path = Path(str(self.target))
        if not self.live and path.is_file():
            size = path.stat().st_size
            raise CameraError(f"video file {self.name} is empty (0 bytes)" if size == 0 else
                              f"video file {self.name} cannot be decoded ({size} bytes: damaged, cut short or "
                              "not a video OpenCV reads)")
        raise CameraError(f"cannot open camera {self.name!r} with OpenCV (VideoCapture)")

    def open(self) -> None:
        self._start(self._capture())

    def _start(self, cap: cv2.VideoCapture) -> None:
        if self.live:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap
        self._index, self._ended, self._lost = 0, False, None
        if not self.live:
            self._count = max(0, int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0))
            if not self.fps:
                rate = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
                self.fps = rate if 1.0 <= rate <= 1000.0 else 15.0
        if self.live:
            self._grabber = _Grabber(self._grab, self.name)
            self._grabber.start()

    def _grab(self) -> np.ndarray | None:
        assert self._cap is not None
        ok, frame = self._cap.read()
        if not ok:
            raise CameraError(f"camera {self.name!r} stopped delivering frames")
        return frame

    def read(self) -> np.ndarray | None:
        if self._lost is not None:
            self._reconnect()  # raises while the target stays away
            return None
        if self._cap is None:
            raise CameraError(f"camera {self.name!r} is not open")
        if self._grabber is not None:
            if self._grabber.error is not None:
                self._lose(str(self._grabber.error))
                raise CameraError(self._lost or "")
            frame, self.stamp = self._grabber.latest_stamped()
            return frame
        ok, frame = (False, None) if self._ended else self._cap.read()
        if not ok:  # the end: a fault only while its file is gone, or said once when it came early
            if not Path(str(self.target)).is_file():
                raise CameraError(f"video file {self.name} is gone (deleted or moved)")
            early = not self._ended and self._count and self._index < self._count - 1  # 1 frame of slack: rounding
            self._ended = True
            if early:
                raise FrameError(f"video file {self.name} stops at frame {self._index} of the {self._count} it "
                                 "says it holds (damaged or cut short)")
            return None
        self.stamp = self._index / (self.fps or 15.0)  # its place in the recording
        self._index += 1
        return frame

    def _lose(self, why: str) -> None:
        """A live target stopped: release it and try it afresh from the next ``read`` on."""
        self._release()
        self._lost = f"{self._unplugged() or why}; trying again every {self.retry_seconds:g} s"
        self._retry_at = time.monotonic() + self.retry_seconds

    def _reconnect(self) -> None:
        """A lost live target: in use again once opened afresh, :class:`CameraError` while it stays away."""
        if self._reopened:
            self._start(self._reopened.pop())
            log.warning("camera %s opened again", self.name)
            return None
        if (self._reopening is None or not self._reopening.is_alive()) and time.monotonic() >= self._retry_at:
            self._reopening = threading.Thread(target=self._reopen, name=f"reopen-{self.name}", daemon=True)
            self._reopening.start()
        raise CameraError(self._lost or "")

    def _reopen(self) -> None:
        """One try at opening the lost target (on its own thread); the next ``read`` takes it up."""
        try:
            cap = self._capture()
        except CameraError as exc:
            self._lost = f"{self._unplugged() or exc}; trying again every {self.retry_seconds:g} s"
            self._retry_at = time.monotonic() + self.retry_seconds
            return
        if self._lost is None:  # closed meanwhile
            cap.release()
        else:
            self._reopened.append(cap)

    def _unplugged(self) -> str | None:
        """A device node (``/dev/video0``, ``/dev/v4l/by-id/...``) that is gone: the camera was unplugged."""
        if isinstance(self.target, str) and self.target.startswith("/") and not Path(self.target).exists():
            return f"camera {self.name} is unplugged ({self.name} is gone)"
        return None

    def close(self) -> None:
        self._lost = None
        while self._reopened:
            self._reopened.pop().release()
        self._release()

    def _release(self) -> None:
        if self._grabber is not None:
            self._grabber.stop()
            self._grabber = None
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class FolderSource(FrameSource):
    """The images of a folder in name order; each ``read`` gives the next one (None at the end).

    The images are frames taken ``fps`` times a second: the n-th image read has frame time n / fps.
    An image that cannot be used (empty, undecodable, too small, gone) raises :class:`FrameError`
    naming it, and the next ``read`` goes on after it. The folder itself deleted (or unmounted)
    raises :class:`CameraError` on every ``read``; once it is back the reading goes on after the
    last image read, so a folder put back mid-run picks up where it stopped.
    """

    live = False

    def __init__(self, folder: str | Path, loop: bool = False, only: Path | None = None, fps: float = 15.0) -> None:
        if not fps > 0:
            raise CameraError(f"frames per second must be above 0, not {fps}")
        self.folder = Path(folder)
        self.fps = fps
        self._read = 0
        self.loop = loop
        self.only = only  # a single image instead of the whole folder
        self.name = str(only or folder)
        self._files: list[Path] = []
        self._next = 0
        self._gone = False  # the folder was found missing: list it afresh when it is back
        self._last = ""  # the name of the last image read, to go on after it

    def _listing(self) -> list[Path]:
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def open(self) -> None:
        if self.only is not None:
            self._files, self._next, self._read = [self.only], 0, 0
            return
        if not self.folder.is_dir():
            raise CameraError(f"image folder {self.folder} does not exist")
        self._files = self._listing()
        if not self._files:
            raise CameraError(f"image folder {self.folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self._next, self._read, self._gone, self._last = 0, 0, False, ""

    def read(self) -> np.ndarray | None:
        if self.only is None and not self.folder.is_dir():
            self._gone = True
            raise CameraError(f"image folder {self.folder} is gone (deleted, moved or unmounted)")
        if self._gone:  # back: its images as they are now, going on after the last one read
            self._gone = False
            self._files = self._listing()
            self._next = next((i for i, p in enumerate(self._files) if p.name > self._last), len(self._files))
        if self._next >= len(self._files):
            if not (self.loop and self._files):
                return None
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        self._last = path.name
        self.stamp = self._read / self.fps  # a broken image keeps its place in time: the frames after it do not move
        self._read += 1
        return read_image(path)

    def close(self) -> None:
        self._files = []


def read_image(path: Path) -> np.ndarray:
    """One picture file as a BGR frame, or :class:`FrameError` saying what is wrong with it, by name."""
    label = f"frame {path.name}"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FrameError(f"{label} is gone (deleted or moved while it was being read)") from None
    except OSError as exc:
        raise FrameError(f"{label} cannot be read: {exc.strerror or exc}") from None
    if not data:
        raise FrameError(f"{label} is empty (0 bytes)")
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        kind = path.suffix.lstrip(".").upper() or "picture"
        raise FrameError(f"{label} cannot be decoded ({len(data)} bytes: damaged, cut short or not really a "
                         f"{kind} file)")
    height, width = frame.shape[:2]
    if min(width, height) < MIN_SIDE:
        raise FrameError(f"{label} is {width}x{height} pixels, under {MIN_SIDE} (a picture of "
                         f"{MIN_SIDE}x{MIN_SIDE} or more is needed)")
    return frame


# Frame sizes asked when the config leaves them at 0. The Camera Module 3's 2304x1296 mode bins
# the whole sensor (the full field of view) and gives 14 mm markers 28-33 px from 75-90 cm above
# the board; at 1280x720 they would be 15-18 px. Other cameras: 720p, which every one delivers fast.
PI_CAMERA_SIZE = (2304, 1296)
OTHER_CAMERA_SIZE = (1280, 720)


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through Picamera2 (imported only when used, so it is Pi-only)."""

    name = "picamera2"
    live = True

    def __init__(self, width: int = 1280, height: int = 720) -> None:
        self.size = (width, height)
        self._cam: Any = None
        self._grabber: _Grabber | None = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraError("Picamera2 is not installed (on Raspberry Pi OS: apt install python3-picamera2; "
                              "the venv needs --system-site-packages)") from exc
        try:
            cam = Picamera2()
            cam.configure(cam.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            cam.start()
        except Exception as exc:
            raise CameraError(f"cannot start the Pi camera: {exc}") from exc
        self._cam = cam
        self._grabber = _Grabber(self._capture, "picamera2")
        self._grabber.start()

    def read(self) -> np.ndarray | None:
        if self._grabber is None:
            raise CameraError("the Pi camera is not open")
        if self._grabber.error is not None:
            raise CameraError(f"the Pi camera stopped: {self._grabber.error}")
        frame, self.stamp = self._grabber.latest_stamped()
        return frame  # RGB888 in Picamera2 is BGR in memory, as OpenCV wants

    def _capture(self) -> tuple[np.ndarray, float]:
        """One frame with the sensor's own timestamp (nanoseconds, the same clock as time.monotonic)."""
        request = self._cam.capture_request()
        try:
            frame = request.make_array("main")
            stamp_ns = request.get_metadata().get("SensorTimestamp")
        finally:
            request.release()
        return frame, (stamp_ns / 1e9 if stamp_ns else time.monotonic())

    def close(self) -> None:
        if self._grabber is not None:
            self._grabber.stop()
            self._grabber = None
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


class SimulatedTable(FrameSource):
    """A camera above a simulated table: renders whatever placement the table holds now.

    The placement is changed with :meth:`set_placement` (the panel's drag-and-drop, or tests);
    a hand can be put over the board with :meth:`set_hand`. The camera pose is fixed per seed.
    """

    name = "sim"
    live = True
    repeats_frames = True  # an unchanged table renders the same picture: that is not a frozen camera

    def __init__(self, board: Any, placement: Mapping[str, Sequence[str]] | None = None, seed: int = 0,
                 clean: bool = False) -> None:
        from vision.render import Effects, random_pose

        self.board = board
        self._placement = {c: tuple(p) for c, p in (placement or {}).items()}
        rng = np.random.default_rng(seed)
        self.pose = random_pose(board, rng, max_tilt=20.0, marker_px=(18.0, 22.0))
        self.effects = Effects() if clean else Effects(blur_sigma=0.4, noise_sigma=2.0, light_low=0.85)
        self.seed = seed
        self._frame_no = 0
        self._lock = threading.Lock()
        self._open = False
        self._cached: tuple[Any, np.ndarray] | None = None
        self._face_down: set[str] = set()

    def set_board(self, board: Any, moved_parts: bool = False) -> None:
        """Another board on the table (a new game of another kind): the camera is pointed at it afresh.
        ``moved_parts``: the same table with parts moved (a pad slid): the camera and the tokens stay,
        a token on a moved place (a pad's) drawn where that place lies now."""
        from vision.render import random_pose

        with self._lock:
            self.board, self._cached = board, None
            if not moved_parts:
                self.pose = random_pose(board, np.random.default_rng(self.seed), max_tilt=20.0, marker_px=(18.0, 22.0))
                self._placement, self._face_down = {}, set()

    def set_placement(self, placement: Mapping[str, Sequence[str]], face_up: bool = False) -> None:
        """Put the tokens where ``placement`` says; ``face_up``: every one of them face up (a board set up)."""
        with self._lock:
            self._placement = {c: tuple(p) for c, p in placement.items() if p}
            on_table = {p.partition("^")[0] for ps in self._placement.values() for p in ps}  # red-s1^N: red-s1
            self._face_down = set() if face_up else self._face_down & on_table  # taken off and put back: face up

    def turn_over(self, piece: str) -> None:
        """Turn a token over where it lies (face down its marker cannot be seen); again: face up. A
        token with a marker on each of two faces (Piece.faces) shows its other face's marker."""
        with self._lock:
            look = self.board.pieces.get(piece) if self.board is not None else None
            if look is None or len(faces := list(look.faces)) != 2:
                self._face_down ^= {piece}
                return
            other = {faces[0]: faces[1], faces[1]: faces[0]}
            self._placement = {c: tuple(f"{piece}^{other.get(p.partition('^')[2], faces[1])}" if
                                        p.partition("^")[0] == piece else p for p in ps) for c, ps in self._placement.items()}

    def face_down(self) -> list[str]:
        with self._lock:
            return sorted(self._face_down)

    def placement(self) -> dict[str, tuple[str, ...]]:
        with self._lock:
            return dict(self._placement)

    def bump(self, dx_px: float, dy_px: float) -> None:
        """Knock the table (or the camera's arm): from now on the board lies this many pixels away."""
        from dataclasses import replace

        with self._lock:
            x, y = self.pose.principal
            self.pose = replace(self.pose, principal=(x + dx_px, y + dy_px))
            self._cached = None

    def set_hand(self, where: str | None) -> None:
        """None (no hand), "random", or "fiducial:N"."""
        with self._lock:
            self.effects.hand = where

    def open(self) -> None:
        self._open = True

    def read(self) -> np.ndarray | None:
        from vision.render import render

        if not self._open:
            raise CameraError("the simulated table is not open")
        with self._lock:
            placement, effects, down, pose = dict(self._placement), self.effects, frozenset(self._face_down), self.pose
            self._frame_no += 1
            key = (tuple(sorted(placement.items())), effects.hand, down)
            if self._cached is not None and self._cached[0] == key:
                return self._cached[1]  # nothing moved: the same picture (a renderer needs no new one)
        frame = render(self.board, placement, pose, effects, seed=self.seed, face_down=down).frame
        frame.setflags(write=False)  # shared with every reader until the table changes
        with self._lock:
            self._cached = (key, frame)
        return frame

    def close(self) -> None:
        self._open = False


def open_source(spec: str, board: Any = None, placement: Mapping[str, Sequence[str]] | None = None,
                width: int = 0, height: int = 0, fps: float | None = None) -> FrameSource:
    """Make and open a source from ``picamera2``, ``sim``, ``/dev/video0``, ``0``, a file, a folder or a URL.

    ``width``/``height`` 0: the size made for a board seen whole - 2304x1296 on a Raspberry Pi
    camera (the Camera Module 3's binned full-sensor mode: its field of view, twice 720p's pixels),
    1280x720 on any other camera (a USB camera asked more may drop to a few frames a second).

    ``fps``: the frame rate of a folder of frames (default 15) or a video file (default: the file's own).
    """
    if fps is not None and not fps > 0:
        raise CameraError(f"frames per second must be above 0, not {fps}")
    spec = spec.strip()
    if spec != "picamera2":
        width, height = width or OTHER_CAMERA_SIZE[0], height or OTHER_CAMERA_SIZE[1]
    if spec == "sim":
        if board is None:
            raise CameraError("the simulated table needs a board")
        source: FrameSource = SimulatedTable(board, placement)
    elif spec == "picamera2":
        source = Picamera2Source(width or PI_CAMERA_SIZE[0], height or PI_CAMERA_SIZE[1])
    elif spec.isdigit():
        source = OpenCVSource(int(spec), width, height)
    elif "://" in spec:
        source = OpenCVSource(spec, width, height, live=True)
    else:
        path = Path(spec)
        if path.is_dir():
            source = FolderSource(path, fps=fps or 15.0)
        elif path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
            source = FolderSource(path.parent, only=path, fps=fps or 15.0)
        elif spec.startswith("/dev/video"):
            source = OpenCVSource(spec, width, height, live=True)
        elif path.is_file():
            source = OpenCVSource(spec, live=False, fps=fps)
        else:
            raise CameraError(f"camera {redact(spec)!r}: no such device, file or folder (tried: picamera2, sim, a device "
                              "index like 0, /dev/videoN, a video file, a folder of images, a stream URL)")
    source.open()
    return source
