"""What a frame must be before it is read, and the special markers' resting places.

Beside the live camera (vision/live.py) because neither needs the camera's thread: the check of a
frame (``usable``: its type, depth, size and channels, each named for the panel when wrong) is used
by ``fog-companion watch`` as well, and the watch on the FOG and turn markers is plain bookkeeping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.sources import MIN_SIDE


class MarkerWatch:
    """Notices when the FOG or turn marker is moved: a new resting place seen in ``frames`` frames in a row.

    Positions are board millimetres (``Observation.special``); a move shorter than ``min_mm`` is
    jitter, not a move.
    """

    def __init__(self, frames: int = 3, min_mm: float = 12.0) -> None:
        self.frames = frames
        self.min_mm = min_mm
        self.rest: dict[str, tuple[float, float]] = {}
        self._candidate: dict[str, tuple[tuple[float, float], int]] = {}

    def feed(self, special: Mapping[str, Sequence[float]]) -> list[tuple[str, tuple[float, float] | None,
                                                                          tuple[float, float]]]:
        """Markers that came to rest somewhere new: ``(name, old, new)``."""
        moved = []
        for name, xy in special.items():
            here = (float(xy[0]), float(xy[1]))
            old = self.rest.get(name)
            if old is not None and _dist(old, here) < self.min_mm:
                self._candidate.pop(name, None)
                continue
            cand = self._candidate.get(name)
            count = cand[1] + 1 if cand is not None and _dist(cand[0], here) < self.min_mm else 1
            self._candidate[name] = (here, count)
            if count >= self.frames:
                self.rest[name] = here
                del self._candidate[name]
                moved.append((name, old, here))
        return moved


def usable(frame: object) -> tuple[np.ndarray, str | None]:
    """The frame as 8-bit grey or BGR, or the reason it cannot be used (named, for the panel)."""
    if not isinstance(frame, np.ndarray):
        return np.zeros((1, 1), np.uint8), f"the camera sent {type(frame).__name__} instead of an image"
    if frame.dtype != np.uint8:
        return frame, f"the camera sends {frame.dtype} frames; the companion needs 8-bit images (uint8)"
    if frame.size == 0 or frame.ndim not in (2, 3):
        return frame, f"the camera sends frames of shape {tuple(frame.shape)}; it needs a picture of 16x16 or more"
    if min(frame.shape[:2]) < MIN_SIDE:
        return frame, (f"frame is {frame.shape[1]}x{frame.shape[0]} pixels, under {MIN_SIDE} (a picture of "
                       f"{MIN_SIDE}x{MIN_SIDE} or more is needed)")
    if frame.ndim == 3:
        channels = frame.shape[2]
        if channels == 1:
            return frame[:, :, 0], None
        if channels == 4:
            return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR), None
        if channels != 3:
            return frame, f"the camera sends frames with {channels} colour channels; it needs 1, 3 or 4"
    return frame, None


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)

