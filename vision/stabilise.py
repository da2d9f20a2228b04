"""From a stream of frames to a stream of *stable* board states (a hand over the board is not a move).

Two steps, as camera companions for real boards do it:

* :class:`StreamObserver` turns frames into observations cheaply: a frame that does not differ
  from the last processed one (inside the board) reuses the last observation; a changed frame
  is searched for markers only inside the board's known region, with the marker size known
  from the last fit.
* :class:`Stabiliser` (in :mod:`vision.settle`, named here too) waits until the picture is still,
  requires K consistent observations, keeps a piece that a hand covers for a configurable time
  instead of reporting it removed, and emits a :class:`StableChange` only when the stable
  placement changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.games import Layout
from vision.detect import BoardDetector, Observation
from vision.render import token_size
from vision.settle import StableChange, Stabiliser
from vision.track import BoardTrack

MOTION_WIDTH = 256  # frames are compared at this width
REFRESH_EVERY = 30  # frames: a full look at the board now and then while region searches run
LOOK_AGAIN_FRAMES = 3  # frames searched whole after a token was turned over where it lies (StreamObserver.look_again)
ROI_MAX_SHARE = 0.25  # above this share of the board changed, look at the whole board again
ROI_GROW_PX = 48  # grow the changed area so markers at its edge are wholly inside
OCCLUDER_MARKERS = 20  # a changed patch this many marker areas large is a hand or an arm, not a lifted token
# ... unless this share of it lies on spots where tokens stand now or stood before: tokens moved.
# A hand over the most crowded part of a board still shows mostly skin and board between the tokens.
TOKEN_SHARE = 0.6
# A token's changed spot reaches this far past the piece's own printed outline: it lies a little
# off its cell's centre, and stands a few mm tall, so a tilted camera sees it shifted.
TOKEN_MARGIN_MM = 2.0


def _copy(obs: Observation, ms: float) -> Observation:
    return Observation(board_found=obs.board_found, pieces=dict(obs.pieces), markers=dict(obs.markers),
                       unplaced=list(obs.unplaced), unknown_markers=list(obs.unknown_markers),
                       duplicates=list(obs.duplicates), fiducials_seen=list(obs.fiducials_seen),
                       special=dict(obs.special), homography=obs.homography, image_xy=dict(obs.image_xy),
                       poses=dict(obs.poses), facing=dict(obs.facing), reason=obs.reason, ms=ms, lens=obs.lens)


def _small_gray(frame: np.ndarray) -> np.ndarray:
    """A small, blurred grey copy for motion checks: every n-th pixel, then a blur against noise."""
    step = max(1, frame.shape[1] // MOTION_WIDTH)
    size = (-(-frame.shape[1] // step), -(-frame.shape[0] // step))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_NEAREST)  # every n-th pixel; 5x faster than slicing
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0)


CHANGE_LEVEL = 18  # grey levels (after matching brightness) a pixel must change by to count as changed


def changed_pixels(now: np.ndarray, before: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Where ``now`` differs from ``before`` (small grey frames), blind to a change of the whole
    picture's brightness: lamp flicker or a cloud scales every pixel alike, a hand or a lifted token
    does not. ``now`` is first scaled by the median ratio of the two pictures (over ``mask``), which
    the unchanged majority of the board decides whatever a hand covers.
    """
    plain = cv2.absdiff(now, before) > CHANGE_LEVEL
    if float(plain.mean()) < 0.001:
        return plain  # an idle board (the common frame): nothing to match, and matching costs 40x more
    sample = (before > 16) & (now > 16)
    if mask is not None:
        sample &= mask
    if int(sample.sum()) >= 64:
        ratio = before[sample][::2].astype(np.float32) / now[sample][::2].astype(np.float32)
        gain = float(np.median(ratio))
        if abs(gain - 1.0) > 0.01:
            return cv2.absdiff(cv2.convertScaleAbs(now, alpha=gain), before) > CHANGE_LEVEL
    return plain


def motion_score(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Share of (small, blurred) pixels that changed noticeably between two frames."""
    if a.shape != b.shape:
        return 1.0
    changed = changed_pixels(a, b, mask)
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
    _since_full: int = 0
    _searched: bool = False  # a region search since the last full look
    _small_now: np.ndarray | None = None   # this frame, small
    _reference: np.ndarray | None = None   # the frame when the board last stood still as the stable picture
    reference_obs: Observation | None = None  # what that frame showed: where its tokens stood
    _frame_width: int = 0
    _frame_shape: tuple[int, ...] = (0, 0)
    _occluders: tuple[np.ndarray, tuple[np.ndarray, np.ndarray]] | None = None  # (for this small frame, found)
    _idle_px: tuple[tuple[bytes, int], float] | None = None  # (fit, frame width) -> changed pixels that are no move
    track: BoardTrack = field(init=False)  # the board fit over the stream
    board_moved: bool = False  # this frame found the board (or the camera) moved for good, and re-fitted
    _look_again: int = 0  # frames still to search whole however little changed (a token turned over in place)

    def __post_init__(self) -> None:
        self.track = BoardTrack(self.detector.board.size_mm)

    def observe(self, frame: np.ndarray) -> Observation:
        start = time.perf_counter()
        self.board_moved = False
        small = _small_gray(frame)
        self._small_now, self._frame_width, self._frame_shape = small, frame.shape[1], frame.shape
        last = self._last_obs
        roi = None
        self._since_full += 1
        # a full detection now and then after region searches (what one missed), while a jump of the
        # board is being confirmed and after a token was turned over where it lies; an idle board since
        # the last full look needs none
        refresh = (self._since_full >= REFRESH_EVERY and self._searched) or self.track.pending or self._look_again > 0
        self._look_again = max(0, self._look_again - 1)
        if self._last_small is not None and last is not None:
            changed = self._changed(small)
            area = changed.size if self._mask is None else max(1, int(self._mask.sum()))
            self.last_motion = float(changed.sum()) / area
            if self.last_motion < self._idle_share(area, last) and not refresh:
                return _copy(last, (time.perf_counter() - start) * 1000)
            if last.board_found and self.last_motion < ROI_MAX_SHARE and not refresh:
                roi = self._roi(changed, frame.shape, small.shape)
        else:
            self.last_motion = 1.0
        obs = self._detect_roi(frame, roi, last) if roi is not None and last is not None else None
        if obs is None:
            obs = self._detect(frame)
            self._since_full, self._searched = 0, False
        else:
            self._searched = True
        obs.ms = (time.perf_counter() - start) * 1000
        self._last_small = small
        self._last_obs = obs
        if obs.homography is not None:
            self._mask = self._board_mask(obs.homography, frame.shape[1], frame.shape[0], small.shape)
        return obs

    def look_again(self) -> None:
        """Search the next frame whole, however little of it changed: a token turned over where it lies
        with no hand in sight (the simulated table's Turn over) changes only its marker's pattern, which
        the motion check can take for noise, and the board is idle for it ever after. A few frames, not
        one: the frame being read may have been taken before the token was turned."""
        self._look_again = LOOK_AGAIN_FRAMES

    def reset(self) -> None:
        """Forget the last frame (after a camera fault): the next frame is searched whole, the board fitted afresh."""
        self._last_small, self._last_obs, self._reference, self.reference_obs = None, None, None, None
        self.track.reset()

    def set_reference(self) -> None:
        """This frame shows the stable picture with every piece in view: what 'nothing over the board' looks like."""
        self._reference, self.reference_obs = self._small_now, self._last_obs

    def occluders(self, h: np.ndarray | None, tokens_mm: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray] | None:
        """The large changed patches of this frame against the last calm picture: (labels, large
        per label), or None without a calm picture or a board fit. Worked out once a frame.

        A token lifted off the board changes a token-sized patch of the picture; a hand or an arm
        over the board changes a patch many markers large. Many tokens moved at once (a board set
        up anew, a row swept) also change large patches, but those are made of token-sized spots
        where tokens stand now or stood before (``tokens_mm``: board millimetres and how far each
        piece reaches from its centre): a patch mostly explained by tokens is pieces moving, not a hand.
        """
        ref, now = self._reference, self._small_now
        if ref is None or now is None or h is None or ref.shape != now.shape:
            return None
        if self._occluders is not None and self._occluders[0] is now:
            return self._occluders[1]
        mask = self._mask if self._mask is not None and self._mask.shape == now.shape else None
        changed = cv2.dilate(changed_pixels(now, ref, mask).astype(np.uint8), np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        m = self._marker_px(h) * now.shape[1] / max(1, self._frame_width)
        large = stats[:, cv2.CC_STAT_AREA] >= OCCLUDER_MARKERS * m * m
        large[0] = False  # the unchanged background
        if large.any() and tokens_mm is not None and len(tokens_mm):
            large &= self._token_share(labels, stats, count, h, tokens_mm, m) < TOKEN_SHARE
        self._occluders = (now, (labels, large))
        return labels, large

    def _token_share(self, labels: np.ndarray, stats: np.ndarray, count: int, h: np.ndarray,
                     tokens_mm: np.ndarray, marker_small: float) -> np.ndarray:
        """Per changed patch, the share of its area that lies on a token's spot (now or before).

        Each spot is as large as its piece: a tile or a card is much larger than its marker, and a
        spot of the marker's size left most of a collected tile's change unexplained (a hand)."""
        spots_mm = tokens_mm.reshape(-1, 3)
        uv = self._to_image(spots_mm[:, :2], h)
        if uv is None:
            return np.zeros(count)
        spots = np.zeros(labels.shape, np.uint8)
        px_per_mm = marker_small / max(1e-6, self.detector.board.marker_mm)  # at the board centre
        scale = labels.shape[1] / max(1, self._frame_width)
        for (u, v), reach in zip(uv.reshape(-1, 2) * scale, spots_mm[:, 2], strict=True):
            if np.isfinite(u) and np.isfinite(v):
                radius = max(1, round(reach * px_per_mm + 1))  # the piece, its shadow, the dilation
                cv2.circle(spots, (int(round(u)), int(round(v))), radius, 1, -1)
        on_spots = np.bincount(labels[spots.astype(bool)].ravel(), minlength=count)[:count]
        return on_spots / np.maximum(1, stats[:, cv2.CC_STAT_AREA])

    def hand_present(self, h: np.ndarray | None, tokens_mm: np.ndarray | None = None) -> bool:
        """Something hand-sized is over the board now (against the last calm picture)."""
        found = self.occluders(h, tokens_mm)
        if found is None or not found[1].any():
            return False
        labels, large = found
        on_board = labels[self._mask] if self._mask is not None and self._mask.shape == labels.shape else labels
        return bool(large[on_board].any())

    def covered(self, pieces: dict[str, str], h: np.ndarray | None, tokens_mm: np.ndarray | None = None) -> set[str]:
        """Which of ``pieces`` (piece -> the cell it stood on, now unseen) lie under something large:
        covered, not gone, however long the hand rests."""
        found = self.occluders(h, tokens_mm) if pieces else None
        if found is None or h is None:
            return set()
        labels, large = found
        cells = self.detector.board.cells
        ids = [p for p, c in pieces.items() if c in cells]
        if not ids or not large.any():
            return set()
        scale = labels.shape[1] / max(1, self._frame_width)
        at = self._to_image(np.array([cells[pieces[p]].center_mm for p in ids], np.float64), h)
        if at is None:
            return set()
        uv = at * scale
        r = max(1, round(self._marker_px(h) * scale))
        out = set()
        for piece, (u, v) in zip(ids, uv, strict=True):
            x, y = int(round(u)), int(round(v))
            window = labels[max(0, y - r):max(0, y + r + 1), max(0, x - r):max(0, x + r + 1)]
            if window.size and bool(large[window].any()):
                out.add(piece)
        return out

    def _idle_share(self, area: int, last: Observation) -> float:
        """The share of the board that may change with nothing moved: ``idle_threshold``, but never
        as much as half a marker's area in the small frame. On a large frame a small pawn covers
        only a few of the small frame's pixels, and a pawn moved must not pass for an idle board."""
        key = (b"" if last.homography is None else last.homography.tobytes(), self._frame_width)
        if self._idle_px is None or self._idle_px[0] != key:  # once per fit, not per idle frame
            small_width = self._small_now.shape[1] if self._small_now is not None else MOTION_WIDTH
            side = self._marker_px(last.homography) * small_width / max(1, self._frame_width)
            self._idle_px = (key, max(2.0, 0.5 * side * side))
        return min(self.idle_threshold, self._idle_px[1] / area)

    def _smallest_side(self, h: np.ndarray | None) -> float:
        """The side below which nothing is a marker: a tilted camera sees the far side's markers
        smaller and foreshortened, so half the smallest marker's side at the board centre."""
        return 0.5 * self._marker_px(h) * self.detector.smallest_marker

    def _marker_px(self, h: np.ndarray | None) -> float:
        """The side of a piece marker in pixels at the board centre, from the board fit."""
        board = self.detector.board
        if h is None:
            return 16.0
        cx, cy = board.size_mm[0] / 2, board.size_mm[1] / 2
        s = board.marker_mm / 2
        px = self._to_image(np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]]), h)
        if px is None:
            return 16.0
        return float(np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1).mean())

    def _detect(self, frame: np.ndarray) -> Observation:
        """The whole frame (first frame, or a large change), with the tracked fit as a fallback.

        The frame's own fit goes through the track: one that agrees is smoothed into it and the
        pieces are read with the smoothed fit; one that jumps is used as it is, and becomes the
        tracked fit once it stays.
        """
        assert self.track is not None
        corners, ids = self._markers_on_board(frame)
        obs = self.detector.observe(corners, ids, self.track.fit)
        if not obs.board_found and self.track.fit is not None:  # the board is not where it was: look at all
            corners, ids = self.detector.markers(frame)
            obs = self.detector.observe(corners, ids, self.track.fit)
        if not obs.board_found or obs.homography is None:
            return obs
        agree = self.detector.markers_fit(self.track.fit, corners, ids) if self.track.fit is not None else None
        fit, self.board_moved = self.track.update(obs.homography, agree)
        if fit is not obs.homography:
            obs = self.detector.observe(corners, ids, fixed=fit)
        return obs

    def _markers_on_board(self, frame: np.ndarray) -> tuple[Any, Any]:
        """The markers inside the board's region (from the tracked fit, grown by two markers), or
        of the whole frame without a fit: a board that fills part of a large frame costs its share."""
        fit = self.track.fit if self.track is not None else None
        if fit is None:
            return self.detector.markers(frame)
        outline = self._outline_px(fit)
        if outline is None:
            return self.detector.markers(frame)
        grow = 2 * self._marker_px(fit) + ROI_GROW_PX
        x0, y0 = (max(0, int(v - grow)) for v in outline.min(axis=0))
        x1 = min(frame.shape[1], int(outline[:, 0].max() + grow))
        y1 = min(frame.shape[0], int(outline[:, 1].max() + grow))
        if x1 - x0 < 32 or y1 - y0 < 32:
            return self.detector.markers(frame)
        return self.detector.markers(frame[y0:y1, x0:x1], frame_shape=frame.shape,
                                     min_side_px=self._smallest_side(fit), offset=(x0, y0))

    def _changed(self, small: np.ndarray) -> np.ndarray:
        assert self._last_small is not None
        if small.shape != self._last_small.shape:
            return np.ones(small.shape, bool)
        mask = self._mask if self._mask is not None and self._mask.shape == small.shape else None
        changed = changed_pixels(small, self._last_small, mask)
        return changed & mask if mask is not None else changed

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

    def _detect_roi(self, frame: np.ndarray, roi: tuple[int, int, int, int], last: Observation) -> Observation | None:
        """Look for markers only where the picture changed; keep what the last frame saw elsewhere.

        The board is read with the tracked fit, never fitted again from the corner markers inside
        the region (two of them along one edge would tilt the far side). If a corner marker there
        does not sit where the tracked fit puts it, None: the whole frame needs a look.
        """
        x0, y0, x1, y1 = roi
        shifted, ids = self.detector.markers(frame[y0:y1, x0:x1], frame_shape=frame.shape,
                                             min_side_px=self._smallest_side(last.homography), offset=(x0, y0))
        fit = self.track.fit if self.track is not None and self.track.fit is not None else last.homography
        fresh = self.detector.observe(shifted, ids, fixed=fit)
        if not fresh.board_found:
            return None
        # Only markers wholly inside the searched area count as looked at again; one cut by its
        # edge keeps what the last frame saw.
        m = 1.5 * self._marker_px(last.homography)
        inside = {p for p, (x, y) in last.image_xy.items() if x0 + m <= x < x1 - m and y0 + m <= y < y1 - m}
        fresh_ids = set(fresh.pieces) | {u["id"] for u in fresh.unplaced}
        if any(p in inside and p not in fresh_ids for p in last.pieces) and not self._hand_like(roi, last):
            # a piece left the searched area for a place the small frame cannot show a change at (a
            # small token set on a cell of its own colour): look at the whole board now
            return None
        for piece, cell in last.pieces.items():
            if piece not in inside and piece not in fresh_ids:
                fresh.pieces[piece] = cell
                fresh.markers[piece] = last.markers[piece]
                fresh.image_xy[piece] = last.image_xy[piece]
                if piece in last.poses:
                    fresh.poses[piece] = last.poses[piece]
                if piece in last.facing:
                    fresh.facing[piece] = last.facing[piece]
        fresh.fiducials_seen = sorted(set(last.fiducials_seen) | set(fresh.fiducials_seen))
        return fresh

    def _hand_like(self, roi: tuple[int, int, int, int], last: Observation) -> bool:
        """A searched area many markers large: a hand or an arm over the board, where pieces are
        unseen because they are covered (the stabiliser holds them), not because they moved away."""
        x0, y0, x1, y1 = roi
        side = self._marker_px(last.homography)
        return (x1 - x0) * (y1 - y0) > OCCLUDER_MARKERS * side * side + (2 * ROI_GROW_PX) ** 2

    def _outline_px(self, h: np.ndarray) -> np.ndarray | None:
        """The board's outline in frame pixels (a lens bends its edges: 4 points per side), or None
        for a fit that cannot be inverted."""
        w, hgt = self.detector.board.size_mm
        t = np.linspace(0.0, 1.0, 4, endpoint=False)
        edge = np.concatenate([np.column_stack([t * w, 0 * t]), np.column_stack([w + 0 * t, t * hgt]),
                               np.column_stack([w - t * w, hgt + 0 * t]), np.column_stack([0 * t, hgt - t * hgt])])
        return self._to_image(edge, h)

    def _to_image(self, mm: np.ndarray, h: np.ndarray) -> np.ndarray | None:
        """Board millimetres (N x 2) -> this frame's pixels, through the lens when there is one."""
        return self.detector.to_image(mm, h, self._frame_shape)

    def _board_mask(self, h: np.ndarray, width: int, height: int, small_shape: tuple[int, ...]) -> np.ndarray:
        """Where the board is, in the small motion frame (motion elsewhere is not a move)."""
        outline = self._outline_px(h)
        if outline is None:
            return np.ones(small_shape[:2], bool)
        scale = small_shape[1] / width
        mask = np.zeros(small_shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(outline.reshape(-1, 2) * scale).astype(np.int32)], 1)
        return mask.astype(bool) if mask.any() else np.ones(small_shape[:2], bool)


@dataclass
class FrameClock:
    """A source's frame times on the consumer's timeline.

    Sources stamp frames on clocks of their own (a sensor's, a recording's 0, 1/15, 2/15 ...).
    The first stamp is anchored to ``clock``; later ones keep their spacing, so the time between
    frames is the camera's, not the processing's. A stamp that goes back or jumps far ahead (a
    recording starting over, a camera re-opened) is anchored afresh.
    """

    clock: Callable[[], float] = time.monotonic
    max_gap: float = 5.0
    _anchor: tuple[float, float] | None = None  # (stamp, clock) at the anchor
    _last: float | None = None
    _out: float = float("-inf")  # the last time given

    def __call__(self, stamp: float | None) -> float:
        if stamp is None:
            self._anchor = self._last = None
            self._out = self.clock()
            return self._out
        if self._anchor is None or self._last is None or not 0.0 <= stamp - self._last <= self.max_gap:
            # anchored afresh, never earlier than the last time given: time on the timeline only goes on
            self._anchor = (stamp, max(self.clock(), self._out))
        self._last = stamp
        self._out = self._anchor[1] + (stamp - self._anchor[0])
        return self._out


def piece_reach_mm(board: Layout, piece: str | None) -> float:
    """How far from its centre a piece's change can show: half its printed diagonal (a card or a
    tile turned any way) or its radius (a disc), and the margin for lying off-centre and standing tall."""
    w_mm, h_mm, card = token_size(board, piece or "")
    return (float(np.hypot(w_mm, h_mm)) if card else w_mm) / 2 + TOKEN_MARGIN_MM


def _token_spots(detector: BoardDetector, obs: Observation, stable: dict[str, str],
                 before: Observation | None = None) -> np.ndarray:
    """Every token seen now, every cell a stable token stood on, and every token the calm picture
    compared against showed elsewhere (``before``: while pieces move one at a time, the stable
    placement moves on from that picture): board mm and the piece's reach."""
    board = detector.board
    cells = board.cells
    moved_on = [] if before is None else [(before, p, c) for p, c in before.pieces.items() if stable.get(p) != c]
    seen = [(o, p, c) for o, p, c in [(obs, p, c) for p, c in obs.pieces.items()] + moved_on if c in cells]
    pts = [(*(o.poses[p][:2] if p in o.poses else cells[c].center_mm), piece_reach_mm(board, p)) for o, p, c in seen]
    pts += [(*cells[c].center_mm, piece_reach_mm(board, p)) for p, c in stable.items() if c in cells]
    pts += [(*u["board_mm"], piece_reach_mm(board, u.get("id"))) for u in obs.unplaced if "board_mm" in u]
    return np.asarray(pts, np.float64).reshape(-1, 3)


def watch(observer: StreamObserver, stabiliser: Stabiliser,
          frame: np.ndarray, at: float | None = None) -> tuple[Observation, StableChange | None]:
    """One frame through the observer and the stabiliser, the way the live camera does it.

    Missing pieces are checked for a hand over them; a calm frame that shows the stable picture
    whole becomes the reference that check compares against.
    """
    obs = observer.observe(frame)
    missing = {p: c for p, c in stabiliser.stable.items() if p not in obs.pieces}
    tokens = (_token_spots(observer.detector, obs, stabiliser.stable, observer.reference_obs)
              if missing and obs.board_found else None)
    covered = observer.covered(missing, obs.homography, tokens) if missing and obs.board_found else set()
    hand = bool(missing) and obs.board_found and observer.hand_present(obs.homography, tokens)
    if set(missing) - covered and not hand:
        # a stable piece missed with nothing over it: a marker that flickers at rest. The next frames are
        # searched whole, not answered with this frame's reading because they look the same: a miss in
        # one frame (noise, a lamp) would otherwise stand for every still frame after it, and the piece
        # be taken for gone once the hold time passed
        observer.look_again()
    change = stabiliser.feed(obs, observer.last_motion, covered, at, hand, observer.detector.piles,
                             observer.detector.board.height_of)
    if obs.board_found and observer.last_motion <= stabiliser.motion_threshold and obs.pieces == stabiliser.stable:
        observer.set_reference()
    elif stabiliser.cover_never_moved:  # not a hand: this picture is the board now, missing pieces are gone
        observer.set_reference()
        stabiliser.forget_cover()
    return obs, change
