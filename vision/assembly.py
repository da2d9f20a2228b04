"""Parts laid at setup, read from their own markers: where each part lies and how it is turned.

A board assembled at setup (``companion/games/assembly.py``) has no corner markers of its own: it
is the parts, laid side by side on the table, any of them turned. Each part carries markers printed
upright at known spots (its corners), each a square of known size, so:

1. One part gives the table's plane: a homography from the picture to that part's own
   millimetres, from its markers' corners (four points each, found to a fraction of a pixel).
   Through it every other marker is measured in the same millimetres. Each part seen is tried so;
   the one most parts agree with (then the one with most markers seen) is taken, so one part laid
   wrong is named, not the many laid right.
2. Each part's markers, where printed on it and where measured, give its place and turn (a rigid
   fit: a part is not stretched). The turn must be near a quarter turn, and its top left corner
   must fall on the grid of cells the first part sets (edges meeting): otherwise the part is named
   with what is wrong, never snapped into a place it does not lie in.
3. The reading is then refined: one homography from every marker of every part at the place its
   snapped reading gives it (parts that do not agree are left out of it), and each part read again
   through it, so the far parts are measured as well as the near ones.

The result is relative, the top left at the origin, turned as a whole so the assembly is "up" as the
camera's picture is. The game turns it into its own answer and checks it with its rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from companion.errors import SetupError
from companion.games import Assembly, Laid, Part, turned_whole
from vision.detect import MIN_MARKER_PX, detector_parameters, transform_points
from vision.lens import Lens
from vision.markers import dictionary

TURN_TOLERANCE_DEG = 10.0   # a part turned farther than this from a quarter turn is not square with the others
GRID_TOLERANCE = 0.25       # a part's corner farther than this share of a cell off the grid is not edge to edge
MIN_MARKERS = 2             # a part is read from at least this many of its markers (one alone is too short a base)


class AssemblyError(SetupError, ValueError):
    """The parts on the table cannot be read as an assembly: what is wrong, naming the part."""


def find_markers(frame: np.ndarray, marker_dictionary: str, lens: Lens | None = None) -> tuple[Any, Any]:
    """The markers of one picture, as ``cv2.aruco`` gives them (corners, ids), the corners as a
    distortion-free camera would see them when the lens is calibrated."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    params = detector_parameters()
    params.minMarkerPerimeterRate = min(0.03, MIN_MARKER_PX * 4 * 0.65 / max(gray.shape[:2]))
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(marker_dictionary), params).detectMarkers(gray)
    if lens is not None and len(corners):
        flat = lens.undistort(np.concatenate([np.asarray(c).reshape(-1, 2) for c in corners]))
        corners = [flat[4 * k:4 * k + 4].reshape(1, 4, 2).astype(np.float32) for k in range(len(corners))]
    return corners, ids


def read_frame(frame: np.ndarray, assembly: Assembly, lens: Lens | None = None) -> tuple[Laid, ...]:
    """The parts laid in one picture (:func:`read_assembly` of its markers)."""
    corners, ids = find_markers(frame, assembly.marker_dictionary, lens)
    return read_assembly(corners, ids, assembly)


def _square(x: float, y: float, side: float) -> np.ndarray:
    """A marker's four corners in its part's millimetres, in the order ArUco gives them (its own top
    left, top right, bottom right, bottom left: printed upright, those are the part's)."""
    h = side / 2
    return np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)], np.float64)


def _seen(corners: Any, ids: Any, assembly: Assembly) -> dict[str, dict[int, np.ndarray]]:
    """Each part's markers found in the picture: part -> marker id -> its 4 corners (pixels)."""
    owner = {m: part.id for part in assembly.parts for m, _, _ in part.markers}
    out: dict[str, dict[int, np.ndarray]] = {}
    for quad, mid in zip(corners, [] if ids is None else np.asarray(ids).reshape(-1).tolist(), strict=True):
        part = owner.get(int(mid))
        if part is None:
            continue
        if int(mid) in out.get(part, {}):
            raise AssemblyError(f"{assembly.noun} {part}: its corner marker {mid} is seen twice: is a copy of it "
                                "lying on the table?")
        out.setdefault(part, {})[int(mid)] = np.asarray(quad, np.float64).reshape(4, 2)
    return out


def _points(part: Part, seen: Mapping[int, np.ndarray], side: float) -> tuple[np.ndarray, np.ndarray]:
    """The part's seen markers: their corners in the picture and on the part (millimetres)."""
    where = {m: (x, y) for m, x, y in part.markers}
    img = np.concatenate([seen[m] for m in sorted(seen)])
    own = np.concatenate([_square(*where[m], side) for m in sorted(seen)])
    return img, own


def _rigid(own: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The turn and shift that best carry points on a part onto where they were measured (Kabsch)."""
    a, b = own.mean(axis=0), table.mean(axis=0)
    u, _, vt = np.linalg.svd((own - a).T @ (table - b))
    d = np.sign(np.linalg.det(vt.T @ u.T)) or 1.0
    r = vt.T @ np.diag([1.0, d]) @ u.T
    return r, b - r @ a


class _Pose:
    """One part as measured in the reference millimetres: its turn (degrees clockwise, y down) and
    its footprint's top left corner in cells."""

    def __init__(self, part: Part, r: np.ndarray, t: np.ndarray, cell_mm: float) -> None:
        self.part = part
        self.angle = math.degrees(math.atan2(r[1, 0], r[0, 0]))
        w, h = part.cells[0] * cell_mm, part.cells[1] * cell_mm
        outline = (r @ np.array([(0, 0), (w, 0), (w, h), (0, h)], float).T).T + t
        self.corner = outline.min(axis=0) / cell_mm
        self.quarter = round(self.angle / 90) % 4
        self.off_deg = abs((self.angle - 90 * self.quarter + 180) % 360 - 180)
        self.cell = np.round(self.corner).astype(int)
        self.off_cells = float(np.abs(self.corner - self.cell).max())

    def square(self) -> bool:
        return self.off_deg <= TURN_TOLERANCE_DEG and self.off_cells <= GRID_TOLERANCE

    def laid(self) -> Laid:
        return Laid(self.part.id, int(self.cell[0]), int(self.cell[1]), 90 * self.quarter)


def _poses(h: np.ndarray, seen: Mapping[str, Mapping[int, np.ndarray]], assembly: Assembly) -> list[_Pose]:
    out = []
    for part in assembly.parts:
        if part.id in seen:
            img, own = _points(part, seen[part.id], assembly.marker_mm)
            out.append(_Pose(part, *_rigid(own, transform_points(h, img)), assembly.cell_mm))
    return out


def _refined(seen: Mapping[str, Mapping[int, np.ndarray]], poses: Sequence[_Pose], assembly: Assembly
             ) -> np.ndarray | None:
    """One homography from every marker of the parts read square, each at the place its snapped reading
    gives it: the whole table's plane, not one part's extrapolated."""
    img, mm = [], []
    for pose in poses:
        if not pose.square():
            continue
        laid, cell = pose.laid(), assembly.cell_mm
        r = np.array([[1, 0], [0, 1]], float)
        for _ in range(laid.turn // 90):
            r = np.array([[0, -1], [1, 0]], float) @ r
        w, h = assembly.part(laid.part).cells
        outline = (r @ np.array([(0, 0), (w, 0), (w, h), (0, h)], float).T).T * cell
        shift = np.array([laid.x, laid.y], float) * cell - outline.min(axis=0)
        pic, own = _points(pose.part, seen[pose.part.id], assembly.marker_mm)
        img.append(pic)
        mm.append((r @ own.T).T + shift)
    if len(img) < 2:
        return None
    fit, _ = cv2.findHomography(np.concatenate(img), np.concatenate(mm), cv2.RANSAC, 0.1 * assembly.cell_mm)
    return fit


def read_assembly(corners: Any, ids: Any, assembly: Assembly) -> tuple[Laid, ...]:
    """The parts laid on the table, from the markers of one picture (``cv2.aruco``'s corners and ids,
    in undistorted pixels): each part's top left cell and turn, snapped to whole cells, the top left
    at the origin, the parts in reading order (by row, then column). :class:`AssemblyError` names
    what is wrong: no part seen, a part seen by too few markers, one turned off a quarter turn, one
    off the others' grid, two overlapping, a marker seen twice."""
    noun = assembly.noun
    seen = _seen(corners, ids, assembly)
    if not seen:
        raise AssemblyError(f"no {noun} seen: lay them in the camera's view with their corner markers clear")
    for part in assembly.parts:
        got = seen.get(part.id, {})
        if 0 < len(got) < MIN_MARKERS:
            raise AssemblyError(f"{noun} {part.id}: only {len(got)} of its {len(part.markers)} corner markers seen: "
                                "clear its corners (nothing on them, no hand over them) or bring it into view")
    best: tuple[int, int, list[_Pose], np.ndarray] | None = None
    for ref in seen:  # each part in turn sets the grid: the one most parts agree with is taken
        img, own = _points(assembly.part(ref), seen[ref], assembly.marker_mm)
        h, _ = cv2.findHomography(img, own, 0)
        if h is None:
            continue
        poses = _poses(h, seen, assembly)
        score = (sum(p.square() for p in poses), len(seen[ref]))
        if best is None or score > best[:2]:
            best = (*score, poses, h)
    if best is None:
        raise AssemblyError(f"the {noun}s' corner markers do not give the table's plane: is the camera steady?")
    poses, h = best[2], best[3]
    refined = _refined(seen, poses, assembly)
    if refined is not None:
        poses, h = _poses(refined, seen, assembly), refined
    for pose in poses:
        if pose.off_deg > TURN_TOLERANCE_DEG:
            raise AssemblyError(f"{noun} {pose.part.id} lies turned {pose.off_deg:.0f}° from the others: lay it "
                                "square with them (straight, or turned a quarter turn)")
    for pose in poses:
        if pose.off_cells > GRID_TOLERANCE:
            off = pose.off_cells * assembly.cell_mm
            raise AssemblyError(f"{noun} {pose.part.id} is not edge to edge with its neighbour: it lies {off:.0f} mm "
                                "off the others' spaces; push it against its neighbour, edges meeting and spaces "
                                "in line")
    laid = [p.laid() for p in poses]
    taken: dict[tuple[int, int], str] = {}
    for p in laid:
        w, hh = assembly.size(p)
        for xy in ((p.x + i, p.y + j) for i in range(w) for j in range(hh)):
            if xy in taken:
                raise AssemblyError(f"{noun}s {taken[xy]} and {p.part} overlap: lay them side by side, not one on "
                                    "the other")
            taken[xy] = p.part
    # the reference part's way round in the picture: the whole turned so it is up as the picture is
    back = np.linalg.inv(h)
    x_axis = transform_points(back, np.array([(0.0, 0.0), (assembly.cell_mm, 0.0)]))
    angle = math.degrees(math.atan2(*(x_axis[1] - x_axis[0])[::-1]))
    return tuple(sorted(turned_whole(assembly, laid, round(angle / 90) % 4), key=lambda p: (p.y, p.x)))
