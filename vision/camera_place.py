"""Where the camera is over the board, and where a tall piece stands under the marker it shows.

The board's homography maps a picture point to the board as though it lay on the board. A marker
``H`` mm up a piece (a pawn's top, a wall stand's cap) is seen along a ray that meets the board
farther from the camera's foot (the nadir) than the piece stands: by ``r * H / (D - H)``, ``D`` the
camera's height above the board - 10-14 mm at the outer edges of a board seen from 80 cm for a 40 mm
cap, more than a place's reach. The piece stands on the line from the nadir to where its marker
appears, ``(D - H) / D`` of the way (:func:`lower`), so the detector needs the nadir and ``D``:

* with a lens calibration (the camera's matrix), from the board's homography exactly (a camera pose,
  as ``solvePnP`` of the corner markers would give it) - ``source`` "lens";
* without one, from the board's perspective when the camera looks at it tilted enough to tell the
  focal length - "perspective";
* else (a camera straight above: its height and its focal length cannot be told apart) from the
  height the configuration gives (``[camera] above_board_mm``), the nadir where the picture's centre
  looks - "assumed".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.lens import Lens

DEFAULT_ABOVE_MM = 800.0  # the README's camera height for the Camera Module 3
MIN_TILT_DEG = 8.0  # a view less tilted than this does not tell the focal length well


@dataclass(frozen=True)
class CameraPlace:
    """The camera's foot on the board (board mm), its height above the board (mm), and how known."""

    nadir: tuple[float, float]
    above_mm: float
    source: str  # "lens", "camera", "perspective" or "assumed"

    def describe(self) -> str:
        """One line for a person: where the height comes from, so a wrong one can be put right."""
        how = {"lens": "from the lens calibration", "camera": "from the camera's own matrix (the simulated table)",
               "perspective": "from the board's perspective",
               "assumed": "as [camera] above_board_mm gives it (the camera straight above)"}[self.source]
        return (f"camera {self.above_mm:.0f} mm above the board, over ({self.nadir[0]:.0f}, {self.nadir[1]:.0f}) "
                f"mm, {how}")


def _pose(to_image: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, float]:
    """The camera's position in board mm (x, y, height) and its tilt in degrees, for a camera
    matrix ``k`` and a board -> picture homography."""
    m = np.linalg.inv(k) @ to_image
    scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    m = m / scale
    if m[2, 2] < 0:  # the board in front of the camera
        m = -m
    r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    camera = -rot.T @ t
    tilt = math.degrees(math.acos(min(1.0, abs(float(rot[2, 2])) / max(1e-12, float(np.linalg.norm(rot[:, 2]))))))
    return np.array([camera[0], camera[1], abs(float(camera[2]))]), tilt


def _matrix(focal: float, cx: float, cy: float) -> np.ndarray:
    return np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]], float)


def _focal(to_image: np.ndarray, cx: float, cy: float) -> float | None:
    """The focal length (pixels) a board -> picture homography tells with the principal point at
    (cx, cy): the least-squares answer of its two orthonormality constraints, each linear in
    1/f**2 (the perspective terms carry the picture's noise, so each counts by how much it says).
    None when they give no positive answer (a view too straight to tell)."""
    m = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], float) @ to_image
    m = m / np.linalg.norm(m[:, 0])
    (h11, h12, _), (h21, h22, _), (h31, h32, _) = m
    a = np.array([h11 * h12 + h21 * h22, h11 ** 2 + h21 ** 2 - h12 ** 2 - h22 ** 2])
    d = np.array([h31 * h32, h31 ** 2 - h32 ** 2])
    inverse_square = -float(a @ d) / max(1e-300, float(a @ a))
    return 1 / math.sqrt(inverse_square) if inverse_square > 0 else None


def camera_place(to_board: np.ndarray, shape: tuple[int, ...], lens: Lens | None = None,
                 above_mm: float = DEFAULT_ABOVE_MM, matrix: np.ndarray | None = None) -> CameraPlace | None:
    """The camera's place over the board from the picture -> board homography of a frame of
    ``shape`` (picture points free of lens distortion when ``lens`` is given), or None when the
    homography cannot be a camera's view. ``matrix``: the camera's matrix when its source knows it
    without a calibration (the simulated table)."""
    try:
        to_image = np.linalg.inv(np.asarray(to_board, float))
    except np.linalg.LinAlgError:
        return None
    width, height = shape[1], shape[0]
    if lens is not None:
        return _place(_pose(to_image, lens.matrix)[0], "lens")
    if matrix is not None:
        return _place(_pose(to_image, matrix)[0], "camera")
    cx, cy = (width - 1) / 2, (height - 1) / 2
    focal = _focal(to_image, cx, cy)
    if focal is not None and 0.3 * width <= focal <= 5 * width:
        camera, tilt = _pose(to_image, _matrix(focal, cx, cy))
        if tilt >= MIN_TILT_DEG:
            return _place(camera, "perspective")
    # Straight above: the height scales with the focal length assumed, so the focal length is the
    # one that puts the camera at the height given; the nadir barely moves with it.
    focal = 0.77 * width  # a 66 degree lens, a first guess
    camera, _tilt = _pose(to_image, _matrix(focal, cx, cy))
    if camera[2] <= 0:
        return None
    camera, _tilt = _pose(to_image, _matrix(focal * above_mm / camera[2], cx, cy))
    return _place(camera, "assumed")


def _place(camera: np.ndarray, source: str) -> CameraPlace | None:
    if not all(math.isfinite(float(v)) for v in camera) or camera[2] <= 0:
        return None
    return CameraPlace((float(camera[0]), float(camera[1])), float(camera[2]), source)


def lower(points: np.ndarray, place: CameraPlace, height_mm: float) -> np.ndarray:
    """Board points (N x 2) where a marker ``height_mm`` above the board appears -> the board
    points under it. Unchanged for a height of zero or a camera not above it."""
    pts = np.asarray(points, float).reshape(-1, 2)
    if height_mm <= 0 or place.above_mm <= height_mm:
        return pts
    nadir = np.array(place.nadir, float)
    return nadir + (pts - nadir) * ((place.above_mm - height_mm) / place.above_mm)
