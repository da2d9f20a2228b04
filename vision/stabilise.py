"""From a stream of frames to a stream of *stable* board states (a hand over the board is not a move).

Two steps, as camera companions for real boards do it:

* :class:`StreamObserver` turns frames into observations cheaply: a frame that does not differ
  from the last processed one (inside the board) reuses the last observation; a changed frame
  is searched for markers only inside the board's known region, with the marker size known
  from the last fit.
* :class:`Stabiliser` waits until the picture is still, requires K consistent observations, keeps
  a piece that a hand covers for a configurable time instead of reporting it removed, and emits
  a :class:`StableChange` only when the stable placement changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.detect import BoardDetector, Observation, detector_parameters
from vision.markers import dictionary

MOTION_WIDTH = 256  # frames are compared at this width
REFRESH_EVERY = 30  # frames: a full look at the board now and then, whatever the motion gate says
ROI_MAX_SHARE = 0.25  # above this share of the board changed, look at the whole board again
ROI_GROW_PX = 48  # grow the changed area so markers at its edge are wholly inside
OCCLUDER_MARKERS = 20  # a changed patch this many marker areas large is a hand or an arm, not a lifted token


def _copy(obs: Observation, ms: float) -> Observation:
    return Observation(board_found=obs.board_found, pieces=dict(obs.pieces), markers=dict(obs.markers),
                       unplaced=list(obs.unplaced), unknown_markers=list(obs.unknown_markers),
                       duplicates=list(obs.duplicates), fiducials_seen=list(obs.fiducials_seen),
                       special=dict(obs.special), homography=obs.homography, image_xy=dict(obs.image_xy),
                       reason=obs.reason, ms=ms)


def _small_gray(frame: np.ndarray) -> np.ndarray:
    """A small, blurred grey copy for motion checks: every n-th pixel, then a blur against noise."""
    step = max(1, frame.shape[1] // MOTION_WIDTH)
    small = frame[::step, ::step]
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0)


def motion_score(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Share of (small, blurred) pixels that changed noticeably between two frames."""
    if a.shape != b.shape:
        return 1.0
    changed = cv2.absdiff(a, b) > 18
    if mask is not None:
        changed &= mask
        total = max(1, int(mask.sum()))
    else:
        total = changed.size
    return float(changed.sum()) / total


@dataclass
class StreamObserver:
    """Frame -> observation with motion gating and a region of interest."""

    detector: BoardDetector
    idle_threshold: float = 0.0015
    _last_small: np.ndarray | None = None
    _last_obs: Observation | None = None
    _mask: np.ndarray | None = None
    last_motion: float = 1.0
    _roi_aruco: cv2.aruco.ArucoDetector | None = None
    _since_full: int = 0
    _small_now: np.ndarray | None = None   # this frame, small
    _reference: np.ndarray | None = None   # the frame when the board last stood still as the stable picture
    _frame_width: int = 0

    def observe(self, frame: np.ndarray) -> Observation:
        start = time.perf_counter()
        small = _small_gray(frame)
        self._small_now, self._frame_width = small, frame.shape[1]
        last = self._last_obs
        roi = None
        self._since_full += 1
        refresh = self._since_full >= REFRESH_EVERY  # a full detection now and then, whatever moved
        if self._last_small is not None and last is not None:
            changed = self._changed(small)
            self.last_motion = float(changed.mean()) if self._mask is None else \
                float(changed.sum()) / max(1, int(self._mask.sum()))
            if self.last_motion < self.idle_threshold and not refresh:
                return _copy(last, (time.perf_counter() - start) * 1000)
            if last.board_found and self.last_motion < ROI_MAX_SHARE and not refresh:
                roi = self._roi(changed, frame.shape, small.shape)
        else:
            self.last_motion = 1.0
        if roi is not None and last is not None:
            obs = self._detect_roi(frame, roi, last)
        else:
            obs = self._detect(frame, last.homography if last is not None else None)
            self._since_full = 0
        obs.ms = (time.perf_counter() - start) * 1000
        self._last_small = small
        self._last_obs = obs
        if obs.homography is not None:
            self._mask = self._board_mask(obs.homography, frame.shape[1], frame.shape[0], small.shape)
        return obs

    def reset(self) -> None:
        """Forget the last frame (after a camera fault): the next frame is searched whole."""
        self._last_small, self._last_obs, self._reference = None, None, None

    def set_reference(self) -> None:
        """This frame shows the stable picture with every piece in view: what 'nothing over the board' looks like."""
        self._reference = self._small_now

    def covered(self, pieces: dict[str, str], h: np.ndarray | None) -> set[str]:
        """Which of ``pieces`` (piece -> the cell it stood on, now unseen) lie under something large.

        A token lifted off the board changes a token-sized patch of the picture; a hand or an arm
        resting over the board changes a patch many markers large around the tokens it hides. So a
        missing piece inside a large changed patch (against the last calm picture) is covered,
        not gone, however long the hand rests.
        """
        ref, now = self._reference, self._small_now
        if not pieces or ref is None or now is None or h is None or ref.shape != now.shape:
            return set()
        changed = cv2.dilate((cv2.absdiff(now, ref) > 18).astype(np.uint8), np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        scale = now.shape[1] / max(1, self._frame_width)
        m = self._marker_px(h) * scale
        large = stats[:, cv2.CC_STAT_AREA] >= OCCLUDER_MARKERS * m * m
        large[0] = False  # the unchanged background
        try:
            inv = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            return set()
        cells = self.detector.board.cells
        ids = [p for p, c in pieces.items() if c in cells]
        if not ids:
            return set()
        mm = np.array([[cells[pieces[p]].center_mm] for p in ids], np.float64)
        uv = cv2.perspectiveTransform(mm, inv).reshape(-1, 2) * scale
        r = max(1, round(m))
        out = set()
        for piece, (u, v) in zip(ids, uv, strict=True):
            x, y = int(round(u)), int(round(v))
            window = labels[max(0, y - r):max(0, y + r + 1), max(0, x - r):max(0, x + r + 1)]
            if window.size and bool(large[window].any()):
                out.add(piece)
        return out

    def _marker_px(self, h: np.ndarray | None) -> float:
        """The side of a piece marker in pixels at the board centre, from the board fit."""
        board = self.detector.board
        if h is None:
            return 16.0
        cx, cy = board.size_mm[0] / 2, board.size_mm[1] / 2
        s = board.marker_mm / 2
        square = np.array([[[cx - s, cy - s]], [[cx + s, cy - s]], [[cx + s, cy + s]], [[cx - s, cy + s]]], np.float64)
        try:
            px = cv2.perspectiveTransform(square, np.linalg.inv(h)).reshape(-1, 2)
        except np.linalg.LinAlgError:
            return 16.0
        return float(np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1).mean())

    def _detect(self, frame: np.ndarray, prior: np.ndarray | None) -> Observation:
        """The whole frame (first frame, or a large change), with the last fit as a fallback."""
        return self.detector.detect(frame, prior)

    def _changed(self, small: np.ndarray) -> np.ndarray:
        assert self._last_small is not None
        if small.shape != self._last_small.shape:
            return np.ones(small.shape, bool)
        changed = cv2.absdiff(small, self._last_small) > 18
        return changed & self._mask if self._mask is not None else changed

    def _roi(self, changed: np.ndarray, shape: tuple[int, ...], small_shape: tuple[int, ...]
             ) -> tuple[int, int, int, int] | None:
        """The changed area in full-frame pixels, grown so whole markers around it are inside."""
        ys, xs = np.nonzero(changed)
        if len(xs) == 0:
            return None
        scale = shape[1] / small_shape[1]
        grow = ROI_GROW_PX
        x0 = max(0, int(xs.min() * scale) - grow)
        y0 = max(0, int(ys.min() * scale) - grow)
        x1 = min(shape[1], int((xs.max() + 1) * scale) + grow)
        y1 = min(shape[0], int((ys.max() + 1) * scale) + grow)
        return (x0, y0, x1, y1)

    def _detect_roi(self, frame: np.ndarray, roi: tuple[int, int, int, int], last: Observation) -> Observation:
        """Look for markers only where the picture changed; keep what the last frame saw elsewhere."""
        x0, y0, x1, y1 = roi
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        if frame.ndim == 2:
            gray = gray[y0:y1, x0:x1]
        if self._roi_aruco is None:
            self._roi_aruco = cv2.aruco.ArucoDetector(dictionary(self.detector.board.marker_dictionary),
                                                      detector_parameters())
        params = self._roi_aruco.getDetectorParameters()
        params.minMarkerPerimeterRate = min(0.5, 0.7 * 4 * self._marker_px(last.homography) / max(gray.shape))
        self._roi_aruco.setDetectorParameters(params)
        corners, ids, _ = self._roi_aruco.detectMarkers(gray)
        shifted = [c + np.array([x0, y0], np.float32) for c in corners]
        fresh = self.detector.observe(shifted, ids, last.homography, refine=False)
        # Only markers wholly inside the searched area count as looked at again; one cut by its
        # edge keeps what the last frame saw.
        m = 1.5 * self._marker_px(last.homography)
        inside = {p for p, (x, y) in last.image_xy.items() if x0 + m <= x < x1 - m and y0 + m <= y < y1 - m}
        fresh_ids = set(fresh.pieces) | {u["id"] for u in fresh.unplaced}
        for piece, cell in last.pieces.items():
            if piece not in inside and piece not in fresh_ids:
                fresh.pieces[piece] = cell
                fresh.markers[piece] = last.markers[piece]
                fresh.image_xy[piece] = last.image_xy[piece]
        fresh.fiducials_seen = sorted(set(last.fiducials_seen) | set(fresh.fiducials_seen))
        return fresh

    def _board_mask(self, h: np.ndarray, width: int, height: int, small_shape: tuple[int, ...]) -> np.ndarray:
        """Where the board is, in the small motion frame (motion elsewhere is not a move)."""
        w, hgt = self.detector.board.size_mm
        try:
            inv = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            return np.ones(small_shape[:2], bool)
        outline = cv2.perspectiveTransform(np.array([[[0, 0]], [[w, 0]], [[w, hgt]], [[0, hgt]]], np.float64), inv)
        scale = small_shape[1] / width
        mask = np.zeros(small_shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(outline.reshape(-1, 2) * scale).astype(np.int32), 1)
        return mask.astype(bool) if mask.any() else np.ones(small_shape[:2], bool)


@dataclass
class StableChange:
    """The stable placement changed: ``before`` and ``after`` map piece -> cell."""

    before: dict[str, str]
    after: dict[str, str]
    at: float

    def placement(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for piece, cell in sorted(self.after.items()):
            out.setdefault(cell, []).append(piece)
        return {c: tuple(p) for c, p in out.items()}

    @property
    def moved(self) -> dict[str, tuple[str | None, str | None]]:
        keys = set(self.before) | set(self.after)
        return {p: (self.before.get(p), self.after.get(p)) for p in sorted(keys)
                if self.before.get(p) != self.after.get(p)}


@dataclass
class Stabiliser:
    """Stable board states from observations. ``clock`` is injectable so tests need no sleeps."""

    frames_needed: int = 3
    hold_seconds: float = 3.0
    motion_threshold: float = 0.004
    clock: Callable[[], float] = time.monotonic
    stable: dict[str, str] = field(default_factory=dict)
    last_seen: dict[str, float] = field(default_factory=dict)
    _candidate: dict[str, str] | None = None
    _count: int = 0
    initialised: bool = False
    covered: set[str] = field(default_factory=set)  # stable pieces unseen under a hand or an arm right now
    # A hand is never quite still; tokens swept off in one go leave a large change that is. What
    # stays covered this long without the least motion is the board as it now is.
    rest_limit_seconds: float = 20.0
    _covered_since: float | None = None
    _still_since: float | None = None
    _still_set: frozenset[str] = frozenset()
    _now: float = 0.0

    @property
    def blocked(self) -> bool:
        """Something has rested over pieces longer than the hold time: the view is blocked (not a move)."""
        return self._covered_since is not None and self._now - self._covered_since >= self.hold_seconds

    @property
    def cover_never_moved(self) -> bool:
        """The same pieces have been covered, without the least motion, for the rest limit: nothing
        rests there, the picture changed for good (tokens taken off in one sweep)."""
        return self._still_since is not None and self._now - self._still_since >= self.rest_limit_seconds

    def forget_cover(self) -> None:
        self._still_since, self._still_set, self._covered_since, self.covered = None, frozenset(), None, set()

    def reset(self, placement: dict[str, str]) -> None:
        """Start from a known placement (piece -> cell), e.g. the engine's expected state."""
        now = self.clock()
        self.stable = dict(placement)
        self.last_seen = {p: now for p in placement}
        self._candidate, self._count, self.initialised = None, 0, True

    def feed(self, obs: Observation, motion: float = 0.0, covered: set[str] | frozenset[str] = frozenset()
             ) -> StableChange | None:
        """One observation (the motion score of its frame, the unseen pieces lying under something large);
        a change when the board settled."""
        now = self._now = self.clock()
        self.covered = set(covered) & set(self.stable)
        if not self.covered:
            self._covered_since = None
        elif self._covered_since is None:
            self._covered_since = now
        still = bool(self.covered) and motion <= self.motion_threshold and obs.board_found
        if not still:
            self._still_since, self._still_set = None, frozenset()
        elif self._still_since is None or self._still_set != self.covered:
            self._still_since, self._still_set = now, frozenset(self.covered)
        if motion > self.motion_threshold or not obs.board_found:
            self._candidate, self._count = None, 0
            return None
        for piece in obs.pieces:
            self.last_seen[piece] = now
        candidate = dict(obs.pieces)
        for piece, cell in self.stable.items():
            recent = now - self.last_seen.get(piece, now) < self.hold_seconds
            if piece not in candidate and (piece in self.covered or recent):
                candidate[piece] = cell  # under a hand, or unseen only briefly: it is still there
        if candidate == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = candidate, 1
        if self._count < self.frames_needed or candidate == self.stable:
            if not self.initialised and self._count >= self.frames_needed:
                self.stable, self.initialised = candidate, True
            return None
        if not self.initialised:
            self.stable, self.initialised = candidate, True
            return None
        change = StableChange(dict(self.stable), candidate, now)
        self.stable = candidate
        return change


def watch(observer: StreamObserver, stabiliser: Stabiliser,
          frame: np.ndarray) -> tuple[Observation, StableChange | None]:
    """One frame through the observer and the stabiliser, the way the live camera does it.

    Missing pieces are checked for a hand over them; a calm frame that shows the stable picture
    whole becomes the reference that check compares against.
    """
    obs = observer.observe(frame)
    missing = {p: c for p, c in stabiliser.stable.items() if p not in obs.pieces}
    covered = observer.covered(missing, obs.homography) if missing and obs.board_found else set()
    change = stabiliser.feed(obs, observer.last_motion, covered)
    if obs.board_found and observer.last_motion <= stabiliser.motion_threshold and obs.pieces == stabiliser.stable:
        observer.set_reference()
    elif stabiliser.cover_never_moved:  # not a hand: this picture is the board now, missing pieces are gone
        observer.set_reference()
        stabiliser.forget_cover()
    return obs, change
