"""The Raspberry Pi camera as a frame source, through Picamera2 (imported only when opened)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from vision.sources.base import CameraError, FrameSource
from vision.sources.grabber import Grabber


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
        self._grabber: Grabber | None = None

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
        self._grabber = Grabber(self._capture, "picamera2")
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
