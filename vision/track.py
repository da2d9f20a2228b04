"""The board fit over a stream of frames: steady while the board stands, re-fitted when it is bumped.

Each full look at a frame gives a fit of its own, a little different every time (noise in the
corner markers' corners). A piece near the edge of its cell would then hop between cells from
frame to frame, so fits that agree with the tracked one are blended into it. A fit that jumps -
the board was knocked, the camera's arm nudged - and stays where it jumped for a few looks is the
board as it now stands: it replaces the tracked fit, and the move is counted so the panel and
the LEDs can say that the board was re-fitted. A jump seen once (a false corner marker, a
shadow) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SAME_MM = 3.0  # fits that put the board's corners this close (mm) are the same board
CONFIRM = 3  # a jump seen in this many full looks in a row is a moved board (or camera)
BLEND = 0.4  # how much of a new, agreeing fit goes into the tracked one


@dataclass
class BoardTrack:
    """The tracked fit (image px -> board mm) of one board seen by one camera."""

    size_mm: tuple[float, float]
    fit: np.ndarray | None = None
    moves: int = 0  # how often the board (or the camera) was found moved and re-fitted
    _jump: np.ndarray | None = None
    _jumps: int = 0

    @property
    def pending(self) -> bool:
        """A jump was seen and is not yet confirmed: the next frames need a full look."""
        return self._jump is not None

    def reset(self) -> None:
        self.fit, self._jump, self._jumps = None, None, 0

    def _corners_mm(self) -> np.ndarray:
        w, h = self.size_mm
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)

    def _corners_px(self, h: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(self._corners_mm().reshape(-1, 1, 2), np.linalg.inv(h)).reshape(-1, 2)

    def shift_mm(self, a: np.ndarray, b: np.ndarray) -> float:
        """How far (mm, on the board) fit ``b`` puts the board corners that fit ``a`` sees."""
        try:
            px = self._corners_px(a)
        except np.linalg.LinAlgError:
            return float("inf")
        moved = cv2.perspectiveTransform(px.reshape(-1, 1, 2), b).reshape(-1, 2)
        return float(np.linalg.norm(moved - self._corners_mm(), axis=1).max())

    def update(self, h: np.ndarray, markers_agree: bool | None = None) -> tuple[np.ndarray, bool]:
        """A frame's own fit -> (the fit to read this frame with, whether the board was just found moved).

        ``markers_agree``: whether the corner markers seen still sit where the tracked fit puts them
        (None: too few seen). When they do, the board has not moved, whatever a fit refined by the
        pieces says about its far corners; without them, the fits themselves are compared."""
        if self.fit is None:
            self.fit = h
            return h, False
        same = markers_agree if markers_agree is not None else self.shift_mm(self.fit, h) <= SAME_MM
        if same:
            self._jump, self._jumps = None, 0
            try:
                px = (1 - BLEND) * self._corners_px(self.fit) + BLEND * self._corners_px(h)
            except np.linalg.LinAlgError:
                return h, False
            self.fit = cv2.getPerspectiveTransform(px.astype(np.float32), self._corners_mm().astype(np.float32))
            return self.fit, False
        if self._jump is not None and self.shift_mm(self._jump, h) <= SAME_MM:
            self._jumps += 1
        else:
            self._jumps = 1
        self._jump = h
        if self._jumps < CONFIRM:
            return h, False  # this frame's own fit, which its corner markers vouch for
        self.fit, self._jump, self._jumps = h, None, 0
        self.moves += 1
        return h, True
