"""The camera's lens: a calibration from views of a printed ChArUco sheet, and the mapping it gives.

A wide-angle lens bends straight lines outwards from the picture's centre (barrel distortion), so
a single homography from the board to the picture is a few millimetres off near the board's edges.
A calibration measures the lens once: 10-20 pictures of a ChArUco sheet (a chessboard with ArUco
markers in its white squares, printed by ``fog-companion markers --charuco``) held at different
angles and places give the camera matrix and the distortion coefficients (OpenCV's model: k1, k2,
p1, p2, k3). Detection then moves the corners of each marker found to where a perfect pinhole
camera would have seen them (``Lens.undistort``) - a few dozen points per frame instead of
re-sampling whole frames - and the overlay moves drawn points back (``Lens.distort``). Without a
calibration nothing changes: ``lens`` is None everywhere.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import FogCompanionError
from companion.app.paths import write_atomically

# The sheet: 7 x 5 squares of 35 mm on A4 landscape, markers from a dictionary the games do not use
# (5x5 bits), so the sheet is never read as pieces and the pieces never as the sheet.
CHARUCO_DICTIONARY = "DICT_5X5_100"
CHARUCO_SQUARES = (7, 5)
SQUARE_MM = 35.0
MARKER_MM = 26.0
SHEET_PAGE_MM = (297.0, 210.0)  # A4 landscape
MIN_VIEWS = 10  # fewer views leave the distortion poorly determined
MAX_VIEWS = 20  # more add time, not accuracy
MIN_CORNERS = 8  # chessboard corners a view must show to count
SAME_VIEW_PX = 0.04  # a view whose corners lie within this share of the frame's diagonal of an earlier one adds nothing
LENS_FILE = "camera-lens.json"
FORMAT = "fog-companion/camera-lens/1"


class LensError(FogCompanionError, ValueError):
    """A lens calibration cannot be made, read or used; the message names what is wrong."""


def charuco_board() -> cv2.aruco.CharucoBoard:
    """The printed calibration sheet as OpenCV knows it (millimetres)."""
    dict_ = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, CHARUCO_DICTIONARY))
    return cv2.aruco.CharucoBoard(CHARUCO_SQUARES, SQUARE_MM, MARKER_MM, dict_)


def charuco_image(px_per_mm: float) -> np.ndarray:
    """The sheet's pattern (no margins) as a grey image at ``px_per_mm``."""
    w, h = (round(n * SQUARE_MM * px_per_mm) for n in CHARUCO_SQUARES)
    return charuco_board().generateImage((w, h), marginSize=0, borderBits=1)


@dataclass(frozen=True)
class Lens:
    """A calibrated camera: its matrix and distortion at the frame size it was measured at."""

    matrix: np.ndarray  # 3x3: focal lengths and principal point, pixels
    distortion: np.ndarray  # k1, k2, p1, p2, k3
    size: tuple[int, int]  # frame width, height
    rms_px: float = 0.0  # reprojection error of the calibration
    views: int = 0

    # ------------------------------------------------------------------ mapping
    def for_size(self, width: int, height: int) -> Lens | None:
        """The same lens for frames of another size with the same field of view (a scaled sensor
        mode), or None when the shape differs (a cropped mode: the calibration does not apply)."""
        if (width, height) == self.size:
            return self
        sx, sy = width / self.size[0], height / self.size[1]
        if abs(sx - sy) > 0.01 * max(sx, sy):
            return None
        m = self.matrix.copy()
        m[0, :] *= sx
        m[1, :] *= sy
        return Lens(m, self.distortion, (width, height), self.rms_px, self.views)

    def undistort(self, px: np.ndarray) -> np.ndarray:
        """Picture points (N x 2) -> where a distortion-free camera with the same matrix sees them."""
        pts = np.asarray(px, np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return pts.reshape(-1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix).reshape(-1, 2)

    def distort(self, px: np.ndarray) -> np.ndarray:
        """The inverse of :meth:`undistort`: distortion-free points -> where the picture shows them."""
        pts = np.asarray(px, np.float64).reshape(-1, 2)
        if not len(pts):
            return pts
        fx, fy, cx, cy = self.matrix[0, 0], self.matrix[1, 1], self.matrix[0, 2], self.matrix[1, 2]
        rays = np.column_stack([(pts[:, 0] - cx) / fx, (pts[:, 1] - cy) / fy, np.ones(len(pts))])
        out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), self.matrix, self.distortion)
        return out.reshape(-1, 2)

    def edge_shift_px(self) -> float:
        """How far the lens moves a point at the picture's corner (pixels): the size of the problem."""
        w, h = self.size
        corner = np.array([[0.0, 0.0], [w - 1.0, 0.0], [w - 1.0, h - 1.0], [0.0, h - 1.0]])
        return float(np.linalg.norm(self.undistort(corner) - corner, axis=1).max())

    # ------------------------------------------------------------------ file
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "width": self.size[0], "height": self.size[1],
                "camera_matrix": [[float(v) for v in row] for row in self.matrix],
                "distortion": [float(v) for v in self.distortion.ravel()],
                "rms_px": round(self.rms_px, 4), "views": self.views}

    @classmethod
    def from_dict(cls, data: Any, where: str = "lens calibration") -> Lens:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LensError(f"{where}: not a camera lens calibration (expected \"format\": \"{FORMAT}\")")
        try:
            size = (int(data["width"]), int(data["height"]))
            matrix = np.array(data["camera_matrix"], np.float64)
            dist = np.array(data["distortion"], np.float64).ravel()
            rms, views = float(data.get("rms_px", 0.0)), int(data.get("views", 0))
        except (KeyError, TypeError, ValueError) as exc:
            raise LensError(f"{where}: missing or malformed field ({exc})") from None
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)) or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
            raise LensError(f"{where}: camera_matrix must be 3x3 with positive focal lengths")
        if len(dist) not in (4, 5, 8) or not np.all(np.isfinite(dist)):
            raise LensError(f"{where}: distortion must be 4, 5 or 8 finite numbers")
        if min(size) < 16:
            raise LensError(f"{where}: width and height must be the frame size the lens was measured at")
        return cls(matrix, dist, size, rms, views)

    def save(self, path: Path | str) -> Path:
        """Write atomically: a full disk or a power cut leaves the old calibration whole."""
        path = Path(path)
        try:
            write_atomically(path, json.dumps(self.to_dict(), indent=1))
        except OSError as exc:
            raise LensError(f"cannot write the lens calibration {path}: {exc.strerror or exc}") from None
        return path


def load_lens(path: Path | str) -> Lens:
    """Read a calibration file; a clear :class:`LensError` naming the file if it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LensError(f"no lens calibration at {path} (make one with `fog-companion calibrate-camera`)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LensError(f"{path}: cannot read the lens calibration ({exc})") from None
    return Lens.from_dict(data, str(path))


def find_lens(setting: str, data_dir: Path | str | None) -> Lens | None:
    """The lens to use: ``setting`` is a file, ``none``, or empty for the data directory's
    calibration if there is one (no calibration: None, detection works without)."""
    if setting.strip().lower() == "none":
        return None
    if setting.strip():
        return load_lens(Path(setting).expanduser())
    if data_dir is None:
        return None
    path = Path(data_dir) / LENS_FILE
    return load_lens(path) if path.exists() else None


def board_to_image(h: np.ndarray, mm: np.ndarray, lens: Lens | None = None) -> np.ndarray | None:
    """Board millimetres (N x 2) -> picture pixels through a fit ``h`` (picture -> board, made on
    distortion-free points when there is a lens), or None for a fit that cannot be inverted."""
    try:
        inv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return None
    pts = cv2.perspectiveTransform(np.asarray(mm, np.float64).reshape(-1, 1, 2), inv).reshape(-1, 2)
    return lens.distort(pts) if lens is not None else pts


# ----------------------------------------------------------------------------- calibration
@dataclass
class ViewResult:
    """What one picture of the sheet gave: kept or not, and why, in words for the panel."""

    accepted: bool
    corners: int
    views: int
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "corners": self.corners, "views": self.views, "reason": self.reason,
                "needed": MIN_VIEWS}


class LensCalibrator:
    """Collects views of the ChArUco sheet and computes the lens from them.

    A view is kept when it shows at least ``MIN_CORNERS`` chessboard corners, not all on one line,
    and differs from every view kept so far (the same picture twice adds nothing but weight).
    """

    def __init__(self) -> None:
        self.board = charuco_board()
        params = cv2.aruco.DetectorParameters()
        params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax = 3, 23
        self.detector = cv2.aruco.CharucoDetector(self.board, cv2.aruco.CharucoParameters(), params)
        self.size: tuple[int, int] | None = None
        self.object_points: list[np.ndarray] = []
        self.image_points: list[np.ndarray] = []
        self._seen: list[dict[int, np.ndarray]] = []

    @property
    def views(self) -> int:
        return len(self.image_points)

    def corners(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The sheet's chessboard corners in a frame: (ids, pixels), or None."""
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        ch_corners, ch_ids, _mc, _mi = self.detector.detectBoard(gray)
        if ch_ids is None or ch_corners is None or not len(ch_ids):
            return None
        return ch_ids.ravel().astype(int), ch_corners.reshape(-1, 2).astype(np.float64)

    def add(self, frame: np.ndarray) -> ViewResult:
        """Look at one picture; keep it as a view if it adds something."""
        h, w = frame.shape[:2]
        if self.size is not None and (w, h) != self.size:
            return ViewResult(False, 0, self.views, f"this picture is {w}x{h}; the views so far are "
                                                    f"{self.size[0]}x{self.size[1]} (one camera mode for all)")
        found = self.corners(frame)
        if found is None:
            return ViewResult(False, 0, self.views, "no calibration sheet in view")
        ids, px = found
        if len(ids) < MIN_CORNERS:
            return ViewResult(False, len(ids), self.views,
                              f"only {len(ids)} corners of the sheet seen; hold all of it in view")
        if self.board.checkCharucoCornersCollinear(ids.reshape(-1, 1)):
            return ViewResult(False, len(ids), self.views, "the corners seen lie on one line; show more of the sheet")
        here = dict(zip(ids.tolist(), px, strict=True))
        if self._same_as_before(here, math.hypot(w, h)):
            return ViewResult(False, len(ids), self.views,
                              "much like a view already taken: tilt the sheet or move it to another part of the picture")
        # OpenCV's stubs give this argument only as a list of arrays (each marker's corners); one array of
        # ChArUco corners, as here, is the other form it takes and the one the calibration needs
        obj, img = self.board.matchImagePoints(px.reshape(-1, 1, 2).astype(np.float32),  # type: ignore[call-overload]
                                               ids.reshape(-1, 1))
        self.size = (w, h)
        self.object_points.append(obj.reshape(-1, 1, 3).astype(np.float32))
        self.image_points.append(img.reshape(-1, 1, 2).astype(np.float32))
        self._seen.append(here)
        return ViewResult(True, len(ids), self.views)

    def _same_as_before(self, here: dict[int, np.ndarray], diagonal: float) -> bool:
        for seen in self._seen:
            common = [i for i in here if i in seen]
            if len(common) < 0.5 * max(len(here), len(seen)):
                continue
            shift = np.median([np.linalg.norm(here[i] - seen[i]) for i in common])
            if shift < SAME_VIEW_PX * diagonal:
                return True
        return False

    def calibrate(self) -> Lens:
        """The lens from the views kept: at least ``MIN_VIEWS`` of them."""
        if self.views < MIN_VIEWS or self.size is None:
            raise LensError(f"{self.views} views of the sheet so far; at least {MIN_VIEWS} are needed "
                            "(tilted and moved around the picture, its corners too)")
        w, h = self.size
        guess = np.array([[max(w, h), 0, w / 2], [0, max(w, h), h / 2], [0, 0, 1]], np.float64)
        flags = cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_K3  # k3 over-fits with a sheet this size
        try:
            rms, matrix, dist, _r, _t = cv2.calibrateCamera(self.object_points, self.image_points, (w, h),
                                                             guess, np.zeros(5), flags=flags)
        except cv2.error as exc:
            raise LensError(f"the calibration did not converge ({str(exc).strip().splitlines()[-1]}); "
                            "take views with the sheet tilted in different directions") from None
        lens = Lens(np.asarray(matrix, np.float64), np.asarray(dist, np.float64).ravel(), (w, h), float(rms),
                    self.views)
        if not math.isfinite(rms) or rms > 3.0:
            raise LensError(f"the views do not agree on one lens (reprojection error {rms:.1f} px); was the "
                            "sheet bent, or the camera mode changed? Start again with the sheet flat")
        return lens
