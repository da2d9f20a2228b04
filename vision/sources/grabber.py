"""The thread a live camera reads on: it keeps only the newest frame, so a slow consumer never
processes a stale backlog (:class:`Grabber`, used by the OpenCV and the Pi camera sources)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np


class Grabber:
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
