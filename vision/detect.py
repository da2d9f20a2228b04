"""From a camera frame to an observation: which piece stands on which board cell.

Markers are found with OpenCV's ``ArucoDetector``. The board's four corner fiducials give a
homography from image pixels to board millimetres: every fiducial contributes its four corners,
so two or three visible fiducials (a hand often covers one) still fix the board, and in a
stream the last good fit stands in when fewer are seen. Pieces that sit clearly on a cell then
refine the fit. Each piece marker's centre is mapped to the board and assigned to the nearest
cell only when it is close enough to it; anything else is reported as unplaced, with a reason,
and unknown or duplicated marker ids are reported too - never guessed. A tall piece's marker (its
height from the layout) is moved back to the point under it, toward the camera's foot
(vision/camera_place.py), before it is mapped to a cell or refines the fit.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.games import Layout
from vision.camera_place import DEFAULT_ABOVE_MM, CameraPlace, camera_place, lower
from vision.lens import Lens, board_to_image
from vision.markers import dictionary
from vision.ways import read_facing

# A piece put down carelessly: up to this far from a cell centre (in inner radii of the hex:
# 0.375 of the pitch, so 0.35 with room for the fit's error) it is on that cell, provided the
# next cell is clearly farther (by CLEAR_WIN inner radii). Otherwise it is "between-cells",
# naming the two cells, never guessed.
ON_CELL = 0.75
CLEAR_WIN = 0.30
MIN_MARKER_PX = 16  # the smallest piece marker side, in pixels, the camera set-up is made for
# A square ArUco found but could not decode, of a small marker's size and shape, is read again from
# the picture enlarged this many times: under about 4 pixels a bit, a lone white bit blurs into the
# black ones around it and the contour's corners are a third of a bit off, so one marker on one cell
# (marker 28 at D4 in the simulated table's picture) was never read. Larger markers read as they are.
LOOK_AGAIN_BELOW_PX = 26
LOOK_AGAIN_SCALE = 3
LOOK_AGAIN_SKEW = 1.4  # a square's longest side at most this many times its shortest (a tilted camera)
# Fit quality: fiducial corners must land within this many millimetres of where they belong.
MAX_FIT_ERROR_MM = 4.0
# A fit fixes the whole board only from points spread over it: the smaller standard deviation of
# the points (along their narrowest direction) at least this share of the board's shorter side.
# Two corner markers are two tight clusters of corners - along one edge or across a diagonal, the
# board's far side is an extrapolation - so they never pass alone.
MIN_SPREAD = 0.15
GROW_FROM_MM = 100.0  # a fit from two corner markers is trusted this far from them at first ...
GROW_BY = 1.4  # ... and reaches farther each round as pieces on their cells confirm it


@dataclass
class Observation:
    """What one frame shows. ``pieces`` maps piece id -> cell id."""

    board_found: bool
    pieces: dict[str, str] = field(default_factory=dict)
    markers: dict[str, int] = field(default_factory=dict)  # piece id -> marker id
    unplaced: list[dict[str, Any]] = field(default_factory=list)
    unknown_markers: list[int] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    fiducials_seen: list[int] = field(default_factory=list)
    special: dict[str, list[float]] = field(default_factory=dict)  # e.g. "fog" -> board mm
    homography: np.ndarray | None = None  # image px -> board mm
    image_xy: dict[str, tuple[float, float]] = field(default_factory=dict)  # piece -> marker centre in px
    poses: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # piece -> (x mm, y mm, angle deg)
    facing: dict[str, str] = field(default_factory=dict)  # piece -> the way it faces (Layout.facings; vision/facing.py)
    reason: str | None = None
    ms: float = 0.0
    lens: Lens | None = None  # the lens the fit was made through (at this frame's size), for drawing on the frame
    camera: CameraPlace | None = None  # where the camera was taken to be, to move tall pieces' markers back

    def to_image(self, mm: np.ndarray) -> np.ndarray | None:
        """Board millimetres (N x 2) -> this frame's pixels, or None without a fit."""
        return None if self.homography is None else board_to_image(self.homography, mm, self.lens)

    def placement(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for piece, cell in sorted(self.pieces.items()):
            out.setdefault(cell, []).append(piece)
        return {c: tuple(p) for c, p in out.items()}

    def to_dict(self, image: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if image is not None:
            out["image"] = image
        out.update({
            "board_found": self.board_found,
            "pieces": [{"marker": self.markers[p], "id": p, "cell": c,
                        **({"pose": list(self.poses[p])} if p in self.poses else {}),
                        **({"facing": self.facing[p]} if p in self.facing else {})}
                       for p, c in sorted(self.pieces.items())],
            "unplaced": self.unplaced,
            "unknown_markers": sorted(self.unknown_markers),
            "duplicate_markers": sorted(self.duplicates),
            "fiducials_seen": sorted(self.fiducials_seen),
            "special": self.special,
            "ms": round(self.ms, 2),
        })
        if self.reason:
            out["reason"] = self.reason
        return out


def detector_parameters(**overrides: Any) -> cv2.aruco.DetectorParameters:
    """ArUco parameters tuned for small markers on a busy board (see the vision benchmark)."""
    p = cv2.aruco.DetectorParameters()
    p.errorCorrectionRate = 0.4  # fewer false positives on a textured hex board
    p.perspectiveRemovePixelPerCell = 8  # reads blurred small markers more reliably, at no visible cost
    # One adaptive-threshold window, not OpenCV's three (3, 13, 23): the 16-40 px markers of a board
    # seen whole are found as well with 7 px alone, and each window is a pass over the frame
    # (benchmarks/vision_speed.py: 0.69-0.94x stock's time at 720p-1296p, recall at least stock's).
    p.adaptiveThreshWinSizeMin = 7
    p.adaptiveThreshWinSizeMax = 7
    # A small marker turned on the board has its corners rounded by blur; the stock 3 % of the
    # contour's length drops it as no quadrilateral (driftwood-3 at J10, turned 25 degrees, 16 px).
    p.polygonalApproxAccuracyRate = 0.05
    for key, value in overrides.items():
        if not hasattr(p, key):
            raise ValueError(f"unknown ArUco detector parameter {key!r}")
        setattr(p, key, value)
    return p


class BoardDetector:
    """Detect markers and map them onto the board. One per camera; cheap to call per frame."""

    def __init__(self, board: Layout, parameters: cv2.aruco.DetectorParameters | None = None,
                 lens: Lens | None = None, above_mm: float = DEFAULT_ABOVE_MM) -> None:
        self.board = board
        self.above_mm = above_mm  # the camera's height when nothing better tells it (straight above, no lens)
        self._frame_shape: tuple[int, ...] | None = None  # the whole frame last searched
        # the camera's own matrix and frame size when its source knows them (the simulated table)
        self.intrinsics: Callable[[], tuple[np.ndarray, tuple[int, int]]] | None = None
        self.lens = lens  # None: the picture is taken as a perfect pinhole camera's
        self._lens_at: tuple[tuple[int, int], Lens | None] | None = None
        self._frame_lens: Lens | None = None  # the lens of the frame last searched
        self.aruco = cv2.aruco.ArucoDetector(dictionary(board.marker_dictionary),
                                             parameters or detector_parameters())
        enlarged = self.aruco.getDetectorParameters()  # a copy: the same tuning, for a patch around one marker
        enlarged.minMarkerPerimeterRate = 1.0  # the marker fills the patch: nothing smaller in it is one
        self._look_again_aruco = cv2.aruco.ArucoDetector(self.aruco.getDictionary(), enlarged)
        self.fiducials = {int(f["id"]): f for f in board.fiducials}
        self.pieces = dict(board.marker_to_piece)
        self.special = {m: name for name, m in board.special_markers.items()}
        # markers printed on places (a part's own, read at setup: a cell's printed_markers): the board's, not unknown
        self.printed = {int(m["id"]) for c in board.cells.values() for m in c.facts.get("printed_markers", ())}
        self.piece_size = {m: p.marker_mm for p in board.pieces.values() for m in p.markers}
        self.piece_height = {m: board.height_of(p.id) for p in board.pieces.values() for m in p.markers}
        self.face_of = board.marker_face  # a piece with a marker per face: the face the marker shows
        self.facing_markers = {p.marker for p in board.pieces.values() if p.facing} if board.facings else set()
        # the smallest marker on the table, as a share of the board's piece marker size
        sizes = [*self.piece_size.values(), *(float(f["size_mm"]) for f in board.fiducials)]
        self.smallest_marker = min(sizes, default=board.marker_mm) / board.marker_mm
        self.cell_ids = [c.id for c in board.cells.values()]
        self.cell_xy = np.array([c.center_mm for c in board.cells.values()], np.float64)
        self.cell_kind = [c.kind for c in board.cells.values()]
        self.cell_standable = [c.standable for c in board.cells.values()]
        # cells where pieces pile up and only the top one shows (the played cards): the stream
        # takes one covered there for gone at once, not for held under a hand
        self.piles = frozenset(c.id for c in board.cells.values() if c.facts.get("pile"))
        # a pile is judged by its printed region, not by the distance to its centre: a card is laid a
        # centimetre off and turned, and is still on the spot while its middle lies within it
        self.pile_regions = {self.cell_ids.index(c.id): np.array(c.outline, np.float32).reshape(-1, 1, 2)
                             for c in board.cells.values() if c.facts.get("pile") and len(c.outline) >= 3}
        self.inner_r = board.snap_mm
        self._rate = -1.0

    # ------------------------------------------------------------------ main entry
    def detect(self, frame: np.ndarray, prior: np.ndarray | None = None) -> Observation:
        """Observe one frame. ``prior``: the last good homography, used when too few fiducials show."""
        start = time.perf_counter()
        corners, ids = self.markers(frame)
        obs = self.observe(corners, ids, prior)
        obs.ms = (time.perf_counter() - start) * 1000
        return obs

    def markers(self, frame: np.ndarray, frame_shape: tuple[int, ...] | None = None,
                min_side_px: float | None = None, offset: tuple[int, int] = (0, 0)) -> tuple[Any, Any]:
        """The ArUco markers of a frame: (corners, ids), corners in the whole frame's pixels as a
        distortion-free camera would see them (moved through the lens when there is a calibration).
        ``frame_shape`` and ``offset``: the whole frame's shape and where ``frame`` sits in it, when
        it is a part. ``min_side_px``: the smallest marker's side when a board fit tells it (fewer
        false candidates to decode on a large frame)."""
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        whole = frame_shape or gray.shape
        self._frame_shape = tuple(whole[:2])
        self._fit_to_frame(gray.shape, whole, min_side_px)
        corners, ids, rejected = self.aruco.detectMarkers(gray)
        if len(rejected):
            corners, ids = self._look_again(gray, corners, ids, rejected, min_side_px)
        if offset != (0, 0):
            corners = [c + np.array(offset, np.float32) for c in corners]
        lens = self._frame_lens = self.lens_at(whole)
        if lens is not None and len(corners):
            flat = lens.undistort(np.concatenate([np.asarray(c).reshape(-1, 2) for c in corners]))
            corners = [flat[4 * k:4 * k + 4].reshape(1, 4, 2).astype(np.float32) for k in range(len(corners))]
        return corners, ids

    def _look_again(self, gray: np.ndarray, corners: Any, ids: Any, rejected: Any,
                    min_side_px: float | None) -> tuple[Any, Any]:
        """Squares ArUco found but could not read, of a small marker's size and shape, read again
        from the picture around each enlarged (:data:`LOOK_AGAIN_SCALE`); only ids not read yet are
        added, so a misreading can never make a duplicate of a piece already seen."""
        known = set() if ids is None else {int(i) for i in ids.ravel()}
        low = min_side_px if min_side_px is not None else 0.6 * MIN_MARKER_PX
        height, width = gray.shape[:2]
        scale = LOOK_AGAIN_SCALE
        more_corners: list[np.ndarray] = []
        more_ids: list[int] = []
        for candidate in rejected:
            quad = np.asarray(candidate, np.float32).reshape(4, 2)
            sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
            side = float(sides.mean())
            if not low <= side < LOOK_AGAIN_BELOW_PX or sides.max() > LOOK_AGAIN_SKEW * sides.min():
                continue
            grow = int(side) // 2 + 2  # the white quiet zone around the marker, and some board
            x0, y0 = max(0, int(quad[:, 0].min()) - grow), max(0, int(quad[:, 1].min()) - grow)
            x1, y1 = min(width, int(quad[:, 0].max()) + grow + 1), min(height, int(quad[:, 1].max()) + grow + 1)
            patch = cv2.resize(gray[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            found, found_ids, _ = self._look_again_aruco.detectMarkers(patch)
            if found_ids is None:
                continue
            centre = quad.mean(axis=0)
            for c, i in zip(found, found_ids.ravel(), strict=True):
                back = (np.asarray(c, np.float32).reshape(4, 2) + 0.5) / scale - 0.5 + (x0, y0)  # pixel centres
                if int(i) in known or float(np.linalg.norm(back.mean(axis=0) - centre)) > side / 3:
                    continue
                known.add(int(i))
                more_corners.append(back.reshape(1, 4, 2).astype(np.float32))
                more_ids.append(int(i))
        if not more_ids:
            return corners, ids
        added = np.array(more_ids, np.int32).reshape(-1, 1)
        return [*corners, *more_corners], added if ids is None else np.vstack([np.asarray(ids).reshape(-1, 1), added])

    def lens_at(self, shape: tuple[int, ...]) -> Lens | None:
        """The calibration for frames of this shape (scaled from the size it was measured at), or
        None: none made, or a camera mode of another shape, where it does not apply."""
        if self.lens is None:
            return None
        size = (int(shape[1]), int(shape[0]))
        if self._lens_at is None or self._lens_at[0] != size:
            self._lens_at = (size, self.lens.for_size(*size))
        return self._lens_at[1]

    def set_lens(self, lens: Lens | None) -> None:
        """Use a new calibration (or none) from the next frame on."""
        self.lens, self._lens_at, self._frame_lens = lens, None, None

    def to_image(self, mm: np.ndarray, h: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
        """Board millimetres (N x 2) -> pixels of a frame of ``shape`` through the fit ``h``."""
        return board_to_image(h, mm, self.lens_at(shape))

    def observe(self, corners: Any, ids: Any, prior: np.ndarray | None = None, refine: bool = True,
                fixed: np.ndarray | None = None, shape: tuple[int, ...] | None = None) -> Observation:
        """Markers -> observation. ``prior``: the last good fit, for when the corner markers seen do
        not fix the board. ``fixed``: use this fit and no other (a stream's tracked fit); if a corner
        marker seen does not sit where it puts it, the board is reported not found (it moved).
        ``shape``: the frame's (height, width), for markers not found by :meth:`markers` (which
        notes it): where the camera is, to move tall pieces back, depends on it."""
        if shape is not None:
            self._frame_shape = tuple(shape[:2])
        found: dict[int, list[np.ndarray]] = {}
        if ids is not None:
            for c, i in zip(corners, ids.ravel()):
                found.setdefault(int(i), []).append(np.asarray(c, np.float64).reshape(4, 2))
        duplicates = sorted(i for i, cs in found.items() if len(cs) > 1)
        known = self.fiducials.keys() | self.pieces.keys() | self.special.keys() | self.printed
        unknown = sorted(i for i in found if i not in known)
        fids = {i: cs[0] for i, cs in found.items() if i in self.fiducials and len(cs) == 1}
        obs = Observation(False, unknown_markers=unknown, duplicates=duplicates, fiducials_seen=sorted(fids),
                          lens=self._frame_lens)
        piece_markers = {i: cs[0] for i, cs in found.items() if (i in self.pieces or i in self.special)
                         and len(cs) == 1}
        if fixed is not None:
            if not self._prior_fits(fixed, fids):
                obs.reason = "board not found: the corner markers are not where the board was (bumped?)"
                return obs
            obs.board_found, obs.homography = True, fixed
            obs.camera = self._camera(fixed)
            if piece_markers:
                self._place_all(obs, fixed, piece_markers)
            return obs
        h = self._fit_fiducials(fids)
        if h is not None and not self.spread_enough(self._fiducial_points(fids)[1]):
            # Two corner markers: the near side is right, the far side a guess. The last fit, if the
            # markers still sit where it puts them, or pieces on their cells, must fix the rest.
            if prior is not None and self._prior_fits(prior, fids):
                h = prior
            else:
                h = self._grow(h, fids, piece_markers) if refine else None
                if h is None:
                    obs.reason = (f"board not found: only {len(fids)} of 4 corner markers seen and too few "
                                  "pieces on their cells to fix the far side")
                    return obs
        if h is None and prior is not None and self._prior_fits(prior, fids):
            h = prior
        if h is None:
            obs.reason = (f"board not found: {len(fids)} of 4 corner markers seen"
                          + (" and the last fit does not match" if prior is not None else ""))
            return obs
        obs.camera = self._camera(h)
        if refine:
            h = self._refine(h, fids, self._lowered_in_image(h, piece_markers, obs.camera))
        obs.board_found = True
        obs.homography = h
        if piece_markers:
            self._place_all(obs, h, piece_markers)
        return obs

    def _camera(self, h: np.ndarray) -> CameraPlace | None:
        """The camera's place over the board by the fit ``h`` (None: the frame's size is not known)."""
        if self._frame_shape is None:
            return None
        matrix = None
        if self.intrinsics is not None and self._frame_lens is None:
            matrix, size = self.intrinsics()
            matrix = matrix if size == (self._frame_shape[1], self._frame_shape[0]) else None
        return camera_place(h, self._frame_shape, self._frame_lens, self.above_mm, matrix)

    def _to_board(self, h: np.ndarray, ids: list[int], quads: np.ndarray, camera: CameraPlace | None) -> np.ndarray:
        """Markers' corners (N x 4 x 2, picture) -> the board under them: each piece's moved back
        toward the camera's foot by its height, so a tall piece is read where it stands."""
        board = transform_points(h, quads.reshape(-1, 2)).reshape(-1, 4, 2)
        if camera is not None:
            for k, marker in enumerate(ids):
                height = self.piece_height.get(marker, 0.0)
                if height > 0:
                    board[k] = lower(board[k], camera, height)
        return board

    def _lowered_in_image(self, h: np.ndarray, markers: dict[int, np.ndarray],
                          camera: CameraPlace | None) -> dict[int, np.ndarray]:
        """The markers where the picture would show them lying on the board under their pieces."""
        if camera is None or not markers:
            return markers
        ids = list(markers)
        board = self._to_board(h, ids, np.stack([markers[i] for i in ids]), camera)
        back = transform_points(np.linalg.inv(h), board.reshape(-1, 2)).reshape(-1, 4, 2)
        return {i: back[k] for k, i in enumerate(ids)}

    def _fit_to_frame(self, shape: tuple[int, ...], whole: tuple[int, ...], min_side_px: float | None = None) -> None:
        """Piece markers can be as small as 16 px: OpenCV's default minimum perimeter (3 % of the
        frame's long side) would drop them on frames larger than 1280 px. The rate is of the image
        searched (``shape``), the 3 % cap of the whole frame (``whole``)."""
        perimeter = min(0.03 * max(whole[:2]), MIN_MARKER_PX * 4 * 0.65)
        if min_side_px is not None:
            perimeter = max(perimeter, 4 * min_side_px)
        rate = min(0.5, perimeter / max(shape[:2]))
        if rate != self._rate:
            params = self.aruco.getDetectorParameters()
            params.minMarkerPerimeterRate = rate
            self.aruco.setDetectorParameters(params)
            self._rate = rate

    # ------------------------------------------------------------------ homography
    def _fiducial_points(self, fids: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        img: list[np.ndarray] = []
        mm: list[tuple[float, float]] = []
        for i, quad in fids.items():
            f = self.fiducials[i]
            cx, cy = f["center_mm"]
            s = f["size_mm"] / 2
            img.extend(quad)
            mm.extend([(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)])
        return np.array(img, np.float64), np.array(mm, np.float64)

    def _fit_fiducials(self, fids: dict[int, np.ndarray]) -> np.ndarray | None:
        if len(fids) < 2:
            return None
        img, mm = self._fiducial_points(fids)
        h, _ = cv2.findHomography(img, mm, 0)
        if h is None or not self._plausible(h, img, mm):
            return None
        return h

    def spread_enough(self, mm: np.ndarray) -> bool:
        """Points (board mm) spread over the board in both directions, so a fit from them holds everywhere."""
        if len(mm) < 4:
            return False
        smallest = float(np.linalg.eigvalsh(np.cov(mm.T))[0])
        return float(np.sqrt(max(0.0, smallest))) >= MIN_SPREAD * min(self.board.size_mm)

    def _grow(self, h: np.ndarray, fids: dict[int, np.ndarray], pieces: dict[int, np.ndarray]) -> np.ndarray | None:
        """A fit from corner markers that do not span the board, extended by the pieces.

        Near the markers the fit is good; pieces there that sit clearly on a cell are added and the
        fit made again, then pieces a little farther out, and so on, so no step extrapolates far.
        The result counts only if the points that made it span the board; otherwise None.
        """
        img, mm = self._fiducial_points(fids)
        anchors = np.array([self.fiducials[i]["center_mm"] for i in fids], np.float64)
        if len(pieces) < 6:
            return None
        centres = np.array([q.mean(axis=0) for q in pieces.values()])
        reach = GROW_FROM_MM
        far = float(np.hypot(*self.board.size_mm))
        dst = mm
        while True:
            mapped = transform_points(h, centres)
            near = np.sqrt(((mapped[:, None, :] - anchors[None, :, :]) ** 2).sum(axis=2)).min(axis=1) <= reach
            d, idx = self._nearest(mapped)
            good = near & (d < 0.3 * self.inner_r)
            if good.sum() >= 2:
                src = np.vstack([img, centres[good]])
                dst = np.vstack([mm, self.cell_xy[idx[good]]])
                fitted, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
                if fitted is None:
                    return None
                h = fitted
            if reach >= far:
                break
            reach *= GROW_BY
        # Trusted only if nearly every piece marker then sits on a cell and the points span the board:
        # a far side a cell off leaves most pieces between cells, whatever the near side says.
        d, _idx = self._nearest(transform_points(h, centres))
        if (d < 0.3 * self.inner_r).mean() < 0.8 or not self.spread_enough(dst):
            return None
        return h

    def _plausible(self, h: np.ndarray, img: np.ndarray, mm: np.ndarray) -> bool:
        err = np.linalg.norm(transform_points(h, img) - mm, axis=1)
        return bool(err.max() <= MAX_FIT_ERROR_MM)

    def markers_fit(self, h: np.ndarray, corners: Any, ids: Any) -> bool | None:
        """Do the corner markers seen in a frame still sit where the fit ``h`` puts them? None with
        fewer than two seen (nothing to judge by). The test of a bumped board: the corner markers
        jump; a fit refined by the pieces that shifts the board's far corners a little does not."""
        fids: dict[int, np.ndarray] = {}
        seen: dict[int, int] = {}
        for c, i in zip(corners, ids.ravel() if ids is not None else (), strict=False):
            if int(i) in self.fiducials:
                seen[int(i)] = seen.get(int(i), 0) + 1
                fids[int(i)] = np.asarray(c, np.float64).reshape(4, 2)
        fids = {i: q for i, q in fids.items() if seen[i] == 1}
        return None if len(fids) < 2 else self._prior_fits(h, fids)

    def _prior_fits(self, prior: np.ndarray, fids: dict[int, np.ndarray]) -> bool:
        """The last fit still holds if the corner markers that are visible land where they belong."""
        if not fids:
            return True
        img, mm = self._fiducial_points(fids)
        return self._plausible(prior, img, mm)

    def _refine(self, h: np.ndarray, fids: dict[int, np.ndarray], pieces: dict[int, np.ndarray]) -> np.ndarray:
        """Add pieces that sit clearly on a cell as extra points, then refit robustly."""
        if len(pieces) < 6:
            return h
        centres = np.stack(list(pieces.values())).mean(axis=1)
        mapped = transform_points(h, centres)
        d, idx = self._nearest(mapped)
        good = d < 0.35 * self.inner_r
        if good.sum() < 6:
            return h
        img, mm = self._fiducial_points(fids)
        src = np.vstack([img, centres[good]])
        dst = np.vstack([mm, self.cell_xy[idx[good]]])
        refined, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
        if refined is None or (len(img) and not self._plausible(refined, img, mm)):
            return h
        return refined

    def _faces(self, marker: int, cell: int) -> bool:
        """Is this marker's way read on this cell (a facing piece, on a kind of cell where the way counts)?"""
        return marker in self.facing_markers and (not self.board.facing_on or self.cell_kind[cell] in self.board.facing_on)

    def _facing(self, angle: float) -> tuple[str | None, tuple[str, ...]]:
        """The way a facing piece's marker at ``angle`` points (None and the two nearest: between them)."""
        return _facing_of(self.board, angle)

    def _nearest(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d2 = ((pts[:, None, :] - self.cell_xy[None, :, :]) ** 2).sum(axis=2)
        idx = d2.argmin(axis=1)
        return np.sqrt(d2[np.arange(len(pts)), idx]), idx

    def _two_nearest(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The distances to the nearest and the next cell, and both cells' indices, per point."""
        d = np.sqrt(((pts[:, None, :] - self.cell_xy[None, :, :]) ** 2).sum(axis=2))
        if d.shape[1] < 2:
            return np.hstack([d, np.full_like(d, np.inf)]), np.zeros((len(pts), 2), int)
        idx = np.argsort(d, axis=1)[:, :2]
        return np.take_along_axis(d, idx, axis=1), idx

    # ------------------------------------------------------------------ pieces
    def _place_all(self, obs: Observation, h: np.ndarray, markers: dict[int, np.ndarray]) -> None:
        ids = sorted(markers)
        in_image = np.stack([markers[i] for i in ids])
        image_centres = in_image.mean(axis=1)
        if obs.lens is not None:  # where the picture shows them, for drawing and region searches
            image_centres = obs.lens.distort(image_centres)
        image_centres = image_centres.tolist()
        quads = self._to_board(h, ids, in_image, obs.camera)
        centres = quads.mean(axis=1)
        sides = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)
        dists, two = self._two_nearest(centres)
        dist, nearest = dists[:, 0], two[:, 0]
        # The marker's top edge (its first two corners) on the board: the way the piece faces,
        # 0 degrees along the board's x axis, counter-clockwise as seen from above (y grows down).
        edge = quads[:, 1, :] - quads[:, 0, :]
        angles = np.degrees(np.arctan2(-edge[:, 1], edge[:, 0])) % 360.0
        w, hgt = self.board.size_mm
        limit = ON_CELL * self.inner_r
        # a piece read by two of its markers at once (two faces): one of them is another marker misread
        # (a finger over a marker can leave a valid id of a face the game has elsewhere): neither is trusted
        faces_read = Counter(self.pieces[m] for m in ids if m in self.pieces and m not in self.special)
        for k, marker in enumerate(ids):
            cx, cy = float(centres[k, 0]), float(centres[k, 1])
            pile = next((i for i, region in self.pile_regions.items()
                         if cv2.pointPolygonTest(region, (cx, cy), False) >= 0), None)
            if pile is not None:
                nearest[k], dist[k], dists[k, 1] = pile, 0.0, np.inf  # on the pile, wherever on it
            where = [round(cx, 1), round(cy, 1)]
            if marker in self.special:
                obs.special[self.special[marker]] = where
                continue
            piece = self.pieces[marker]
            expected = self.piece_size.get(marker, self.board.marker_mm)
            if faces_read[piece] > 1:
                reason = "read-twice"
            elif not 0.6 * expected <= sides[k] <= 1.6 * expected:
                reason = "wrong-size"  # most likely a false detection in the busy picture
            elif not (0 <= cx <= w and 0 <= cy <= hgt):
                reason = "off-board"
            elif dist[k] > limit or dists[k, 1] - dist[k] < CLEAR_WIN * self.inner_r:
                reason = "between-cells"
            elif not self.cell_standable[int(nearest[k])]:
                reason = self.cell_kind[int(nearest[k])]  # a printed place no piece stands on (The FOG: woods)
            elif self._faces(marker, int(nearest[k])) and (way := self._facing(float(angles[k])))[0] is None:
                reason, ways = "between-directions", way[1]  # turned half-way: not read, like between two cells
            else:
                if self._faces(marker, int(nearest[k])):
                    obs.facing[piece] = self._facing(float(angles[k]))[0] or ""
                elif marker in self.face_of:  # the face up, named like a way (Piece.faces)
                    obs.facing[piece] = self.face_of[marker]
                obs.pieces[piece] = self.cell_ids[int(nearest[k])]
                obs.markers[piece] = marker
                obs.poses[piece] = (round(cx, 1), round(cy, 1), round(float(angles[k]), 1))
                x, y = image_centres[k]
                obs.image_xy[piece] = (float(x), float(y))
                continue
            entry = {"marker": marker, "id": piece, "reason": reason, "board_mm": where}
            if reason == "between-cells":  # which two, so a panel can ask
                entry["cells"] = [self.cell_ids[int(two[k, 0])], self.cell_ids[int(two[k, 1])]]
            if reason == "between-directions":  # which two ways, and on which cell
                entry["facings"], entry["cell"] = list(ways), self.cell_ids[int(nearest[k])]
            obs.unplaced.append(entry)


def _facing_of(board: Layout, angle: float) -> tuple[str | None, tuple[str, ...]]:
    return read_facing(angle, board.facings, board.facing_tolerance_deg)


def transform_points(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points (N x 2) through a homography."""
    pts = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)
