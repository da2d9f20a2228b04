"""Any ``cv2.VideoCapture`` target as a frame source: a device, a video file, a stream URL."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from vision.sources.base import CameraError, FrameError, FrameSource, redact
from vision.sources.grabber import Grabber

log = logging.getLogger("vision.sources")  # one logger for every source, as before they had a file each


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
        self._grabber: Grabber | None = None
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
            self._grabber = Grabber(self._grab, self.name)
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
