"""Fit a board file to a printed board: where its hexes and corner markers really are.

A player's printed board is not exactly the packaged file: the print may be a few per cent
smaller or larger, turned a little against where the corner markers were glued, and the corner
markers themselves sit wherever they stuck. With a few pieces standing on named cells (anchors,
spread over the board), one picture says all of it:

1. The anchors' markers give a homography from the picture to the *file's* cell coordinates
   (the printed lattice is the file's lattice up to scale, angle, offset and a little shear, and a
   homography holds all of that). An anchor that does not fit the others is named, with the cell
   it seems to stand on. Other pieces that then sit clearly on cells refine the fit.
2. Every marker is a printed square of known size: seen through that homography, the squares'
   shapes give the scale and shear between the file's coordinates and real millimetres.
3. The result is kept in the lattice's frame (the print's rows stay where the file has them, the
   board's outline with them): cell centres scaled and sheared about the lattice's centre, and the
   corner markers where they were measured. The game writes it as a complete board file.

Nothing here knows a game: the layout gives cells, pieces and markers; the game writes the file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import FogCompanionError
from companion.games import BoardFit, Layout
from vision.camera_place import DEFAULT_ABOVE_MM, camera_place, lower
from vision.detect import BoardDetector, detector_parameters, transform_points
from vision.lens import Lens, board_to_image

MIN_ANCHORS = 4
ANCHOR_TOLERANCE = 0.35  # inner radii: an anchor farther than this from its cell does not fit the others
REFINE_WITHIN = 0.25  # inner radii: other pieces this near a cell under the anchors' fit refine it


class FitError(FogCompanionError, ValueError):
    """The board cannot be fitted from this picture; the message names what to do."""


@dataclass(frozen=True)
class Residual:
    """How far an anchor's marker is from its cell's centre once the board is fitted (mm)."""

    piece: str
    cell: str
    mm: float
    nearest: str  # the cell it is nearest to

    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.piece, "cell": self.cell, "mm": round(self.mm, 1), "nearest": self.nearest}


@dataclass
class FittedBoard:
    """The fit: file millimetres -> printed millimetres, the corner markers, and how well it holds."""

    fit: BoardFit
    residuals: list[Residual]
    scale: float  # printed lattice / file lattice
    shear: float  # how far from square the print is (0: square)
    marker_angle_deg: float  # the corner markers turned against the lattice, as glued
    marker_offset_mm: tuple[float, float]  # ... and shifted
    pieces_used: int = 0  # anchors and other pieces that made the fit
    notes: list[str] = field(default_factory=list)
    homography: np.ndarray | None = None  # the picture (distortion-free pixels) -> printed millimetres
    lens: Lens | None = None

    def to_picture(self, mm: np.ndarray) -> np.ndarray | None:
        """Printed millimetres (N x 2) -> the picture's pixels: to draw the fitted board over it."""
        return None if self.homography is None else board_to_image(self.homography, mm, self.lens)

    def to_printed(self, px: np.ndarray) -> np.ndarray | None:
        """The picture's pixels (N x 2) -> printed millimetres: where a tap on the picture is."""
        if self.homography is None:
            return None
        pts = self.lens.undistort(px) if self.lens is not None else np.asarray(px, float).reshape(-1, 2)
        return transform_points(self.homography, pts)

    def in_words(self, fine_mm: float = 3.0) -> str:
        """The fit as a player reads it: all anchors close, or which are how far off."""
        off = [r for r in self.residuals if r.mm > fine_mm]
        if not off:
            worst = math.ceil(max((r.mm for r in self.residuals), default=0.0))
            return (f"All {len(self.residuals)} anchors seen within {worst} mm of their cells' centres: the fit "
                    "holds." + "".join(f" ({note})" for note in self.notes))
        words = []
        for r in off:
            ask = f"is it on {r.nearest}?" if r.nearest != r.cell else "is it put down well?"
            words.append(f"{r.piece} is {r.mm:.0f} mm off {r.cell}: {ask}")
        return "; ".join(words) + "."

    def to_dict(self) -> dict[str, Any]:
        return {"scale": round(self.scale, 4), "shear": round(self.shear, 4),
                "marker_angle_deg": round(self.marker_angle_deg, 2),
                "marker_offset_mm": [round(v, 1) for v in self.marker_offset_mm],
                "fiducials": {str(k): [round(x, 1), round(y, 1)] for k, (x, y) in self.fit.fiducials.items()},
                "residuals": [r.to_dict() for r in self.residuals], "pieces_used": self.pieces_used,
                "worst_mm": round(max((r.mm for r in self.residuals), default=0.0), 1)}


def parse_anchors(text: str) -> dict[str, str]:
    """``PIECE=CELL,PIECE=CELL,...`` -> {piece: cell}."""
    out: dict[str, str] = {}
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        piece, sep, cell = item.partition("=")
        if not sep or not piece.strip() or not cell.strip():
            raise FitError(f"anchor {item!r}: write PIECE=CELL, e.g. blue-leader-1=C4")
        if piece.strip() in out:
            raise FitError(f"anchor {piece.strip()!r} is named twice")
        out[piece.strip()] = cell.strip()
    return out


def propose_anchors(layout: Layout, count: int = 8) -> dict[str, str]:
    """Pieces and cells for a fit: cells spread over the whole board (the corners of the played area
    first, then the points farthest from those chosen), each with a piece of the game."""
    cells = [c for c in layout.cells.values() if c.standable and c.kind == _main_kind(layout)]
    if len(cells) < count:
        cells = [c for c in layout.cells.values() if c.standable]
    pts = np.array([c.center_mm for c in cells], float)
    centre = pts.mean(axis=0)
    chosen = [int(np.argmax(((pts - centre) ** 2).sum(axis=1)))]
    while len(chosen) < min(count, len(cells)):
        d = np.min(((pts[:, None, :] - pts[chosen][None, :, :]) ** 2).sum(axis=2), axis=1)
        chosen.append(int(np.argmax(d)))
    pieces = sorted(layout.pieces)
    return {pieces[k]: cells[i].id for k, i in enumerate(sorted(chosen, key=lambda i: (pts[i][1], pts[i][0])))}


def _main_kind(layout: Layout) -> str:
    kinds: dict[str, int] = {}
    for c in layout.cells.values():
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    return max(kinds, key=lambda k: kinds[k])


def fit_board(layout: Layout, frame: np.ndarray, anchors: dict[str, str], lens: Lens | None = None) -> FittedBoard:
    """Fit ``layout`` (the board file to start from) to the printed board in ``frame``, with the
    pieces of ``anchors`` standing on those cells."""
    for piece, cell in anchors.items():
        if piece not in layout.pieces:
            raise FitError(f"anchor {piece}={cell}: {piece!r} is not a piece of this board")
        if cell not in layout.cells or not layout.cells[cell].standable:
            raise FitError(f"anchor {piece}={cell}: {cell!r} is not a cell a piece can stand on")
    if len(set(anchors.values())) < len(anchors):
        raise FitError("two anchors are named on the same cell: one piece per cell")
    # sub-pixel corners: the markers' shapes measure the print's scale, and plain corners sit about
    # half a pixel inside each edge (a marker of 20 px reads 5 % small)
    detector = BoardDetector(layout, detector_parameters(cornerRefinementMethod=cv2.aruco.CORNER_REFINE_SUBPIX),
                             lens=lens)
    corners, ids = detector.markers(frame)
    quads = _unique_markers(corners, ids)
    by_marker = {p.marker: p.id for p in layout.pieces.values()}
    seen = {by_marker[m]: q for m, q in quads.items() if m in by_marker}
    missing = [p for p in anchors if p not in seen]
    used = {p: c for p, c in anchors.items() if p in seen}
    if len(used) < MIN_ANCHORS:
        raise FitError(f"only {len(used)} of the {len(anchors)} anchors seen (at least {MIN_ANCHORS} are needed)"
                       + (f"; not seen: {', '.join(missing)}" if missing else "")
                       + ": are those pieces on the board, their markers uncovered and in view?")
    cell_xy = {c.id: np.array(c.center_mm, float) for c in layout.cells.values()}
    file_pts = np.array([cell_xy[c] for c in used.values()])
    if not detector.spread_enough(file_pts):
        if missing:
            raise FitError(f"the {len(used)} anchors seen are all in one part of the board; not seen: "
                           f"{', '.join(missing)}: are their markers uncovered, lit and in view?")
        raise FitError("the anchors are all in one part of the board: spread them over it, to its corners "
                       "(fog-companion fit-board --propose names some)")
    img_pts = np.array([seen[p].mean(axis=0) for p in used])
    inner = layout.snap_mm
    g = _anchor_fit(list(used), list(used.values()), img_pts, file_pts, inner, cell_xy)
    # refine with every other piece that sits clearly on a cell
    others = [p for p in seen if p not in used]
    src, dst = [img_pts], [file_pts]
    others_on_cells: dict[str, str] = {}
    if others:
        o_img = np.array([seen[p].mean(axis=0) for p in others])
        o_file = transform_points(g, o_img)
        ids_ = list(cell_xy)
        grid = np.array([cell_xy[c] for c in ids_])
        d = np.sqrt(((o_file[:, None, :] - grid[None, :, :]) ** 2).sum(axis=2))
        near = d.argmin(axis=1)
        ok = d[np.arange(len(others)), near] < REFINE_WITHIN * inner
        src.append(o_img[ok])
        dst.append(grid[near[ok]])
        others_on_cells = {p: ids_[int(near[k])] for k, p in enumerate(others) if ok[k]}
    src_all, dst_all = np.vstack(src), np.vstack(dst)
    if len(src_all) > len(img_pts):
        refined, _ = cv2.findHomography(src_all, dst_all, 0)
        if refined is not None:
            g = refined
    missing_f = [int(f["id"]) for f in layout.fiducials if int(f["id"]) not in quads]
    if missing_f:
        raise FitError(f"corner marker(s) {', '.join(map(str, missing_f))} not seen: the fit must see all "
                       f"{len(layout.fiducials)} to know where they are glued")
    cell_of = {by_marker_id: cell for by_marker_id, cell in _anchor_markers(layout, used, others_on_cells)}
    linear, lattice, picture_to_printed, total = _solve(g, quads, layout, cell_of)
    lowered = quads
    if any(layout.height_of(p) > 0 for p in layout.pieces):  # markers above the board: seen from aside they shift
        lowered = _onto_board(quads, total, frame.shape, layout, detector.lens_at(frame.shape), detector.above_mm)
        linear, lattice, picture_to_printed, total = _solve(g, lowered, layout, cell_of)
    img_pts = np.array([lowered[layout.pieces[p].marker].mean(axis=0) for p in used])
    offset = lattice - linear @ lattice

    def to_printed(p: np.ndarray) -> np.ndarray:
        return (linear @ np.asarray(p, float).reshape(-1, 2).T).T + offset

    fiducials: dict[int, tuple[float, float]] = {}
    for f in layout.fiducials:
        x, y = picture_to_printed(quads[int(f["id"])].mean(axis=0)[None, :])[0]
        fiducials[int(f["id"])] = (float(x), float(y))
    residuals = []
    all_cells = list(cell_xy)
    printed_grid = to_printed(np.array([cell_xy[c] for c in all_cells]))
    for piece, cell, p in zip(used, used.values(), img_pts, strict=True):
        at = picture_to_printed(p[None, :])[0]
        nearest = all_cells[int(np.argmin(((printed_grid - at) ** 2).sum(axis=1)))]
        residuals.append(Residual(piece, cell, float(np.linalg.norm(at - to_printed(cell_xy[cell])[0])), nearest))
    scale = float(math.sqrt(abs(np.linalg.det(linear))))
    eig = np.linalg.eigvalsh(linear)
    shear = float(abs(eig[1] - eig[0]) / max(1e-9, scale))
    nominal = np.array([f["center_mm"] for f in layout.fiducials], float)
    measured = np.array([fiducials[int(f["id"])] for f in layout.fiducials], float)
    angle, shift = _turn_and_shift(nominal, measured)
    transform = (float(linear[0, 0]), float(linear[0, 1]), float(offset[0]),
                 float(linear[1, 0]), float(linear[1, 1]), float(offset[1]))
    fit = BoardFit(transform=transform, fiducials=fiducials)
    notes = [f"anchors not seen (left out): {', '.join(missing)}"] if missing else []
    return FittedBoard(fit, residuals, scale, shear, angle, shift, len(src_all), notes, total,
                       detector.lens_at(frame.shape))


def _unique_markers(corners: Any, ids: Any) -> dict[int, np.ndarray]:
    found: dict[int, list[np.ndarray]] = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel()):
            found.setdefault(int(i), []).append(np.asarray(c, float).reshape(4, 2))
    return {i: cs[0] for i, cs in found.items() if len(cs) == 1}


def _anchor_fit(pieces: list[str], cells: list[str], img: np.ndarray, file_pts: np.ndarray, inner: float,
                cell_xy: dict[str, np.ndarray]) -> np.ndarray:
    """The picture -> file homography from the anchors; one anchor that does not fit is named."""
    g, _ = cv2.findHomography(img, file_pts, 0)
    if g is None:
        raise FitError("the anchors do not fix the board (are some of them on one line?)")
    off = np.linalg.norm(transform_points(g, img) - file_pts, axis=1)
    limit = ANCHOR_TOLERANCE * inner
    if off.max() <= limit:
        return g
    if len(pieces) > MIN_ANCHORS:  # leave each out in turn: does the rest agree without it?
        for k in np.argsort(-off):
            rest = np.arange(len(pieces)) != k
            g2, _ = cv2.findHomography(img[rest], file_pts[rest], 0)
            if g2 is None:
                continue
            off2 = np.linalg.norm(transform_points(g2, img) - file_pts, axis=1)
            if off2[rest].max() <= limit:
                at = transform_points(g2, img[k:k + 1])[0]
                ids_ = [c for c in cell_xy]
                nearest = ids_[int(np.argmin([np.linalg.norm(cell_xy[c] - at) for c in ids_]))]
                raise FitError(f"{pieces[k]} is {off2[k]:.0f} mm off {cells[k]} while the other anchors agree: "
                               f"is it on {nearest}? Put it on {cells[k]} (or name the cell it is on)",
                               ) from None
    worst = ", ".join(f"{pieces[k]} ({off[k]:.0f} mm)" for k in np.argsort(-off)[:3] if off[k] > limit)
    raise FitError(f"the anchors disagree: {worst} do not fit the others; check each piece is on its cell")


def _anchor_markers(layout: Layout, anchors: dict[str, str], others: dict[str, str]) -> list[tuple[int, str]]:
    """(marker id, cell) of every piece known to stand on a cell: the anchors and the pieces found on one."""
    return [(layout.pieces[p].marker, c) for p, c in {**others, **anchors}.items()]


CORNER_SIGMA_PX = 0.3  # how finely a marker's corner is found (sub-pixel)
PLACED_SIGMA_MM = 2.0  # how far off its cell's centre a piece stands when put down with care


def _solve(g: np.ndarray, quads: dict[int, np.ndarray], layout: Layout, cell_of: dict[int, str]
           ) -> tuple[np.ndarray, np.ndarray, Any, np.ndarray]:
    """The picture -> printed board map, and the print's scale and shear against the file.

    Unknowns: the homography from the picture to the printed board's millimetres; the print's
    2x2 scale-and-shear against the file (about the lattice's centre, so the printed rows keep the
    file's place and direction); where each marker lies and how it is turned. Every marker is a
    square of its printed size (its corners, found to a fraction of a pixel, fix the foreshortening
    where it is - the corner markers where no piece is); every piece on a cell stands near that
    cell's printed centre. Solved by damped least squares (Levenberg-Marquardt) from the pieces'
    fit. A marker's edges read a fraction of a pixel inside the printed ones; that loss, the same
    for every marker, is solved for too.

    Returns (scale-and-shear 2x2, lattice centre in file mm, picture px -> printed mm, and that map
    as a homography)."""
    sizes = {int(f["id"]): float(f["size_mm"]) for f in layout.fiducials}
    for p in layout.pieces.values():
        sizes[p.marker] = p.marker_mm
    mids = [m for m in quads if m in sizes]
    corners = np.vstack([quads[m] for m in mids])
    mean, spread = corners.mean(axis=0), float(corners.std()) or 1.0

    def norm(px: np.ndarray) -> np.ndarray:
        return (np.asarray(px, float).reshape(-1, 2) - mean) / spread

    n_of = np.array([[1 / spread, 0, -mean[0] / spread], [0, 1 / spread, -mean[1] / spread], [0, 0, 1]])
    h0 = g @ np.linalg.inv(n_of)
    h0 = h0 / h0[2, 2]
    lattice = np.array([c.center_mm for c in layout.cells.values() if c.standable], float).mean(axis=0)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) / 2
    cn = norm(corners).reshape(len(mids), 4, 2)
    side_n = np.linalg.norm(cn - np.roll(cn, 1, axis=1), axis=2).mean(axis=1)  # each marker's side, normalised
    size = np.array([sizes[m] for m in mids])
    anchored = [(k, np.array(layout.cells[cell_of[m]].center_mm, float)) for k, m in enumerate(mids) if m in cell_of]
    a_idx = np.array([k for k, _ in anchored], int)
    a_file = np.array([f for _, f in anchored]).reshape(-1, 2)
    mm_per_px = float(np.median([np.linalg.norm(transform_points(g, q[:1]) - transform_points(g, q[1:2])) /
                                 max(1e-9, float(np.linalg.norm(q[0] - q[1]))) for q in (quads[m] for m in mids)]))
    # start: the pieces' fit, each marker where it maps and turned as it maps, a square print, no loss
    start_h = transform_points(h0, cn.reshape(-1, 2)).reshape(len(mids), 4, 2)
    centres = start_h.mean(axis=1)
    turns = []
    for k in range(len(mids)):
        m = (start_h[k] - centres[k]).T @ (unit * size[k])
        uu, _s, vv = np.linalg.svd(m)
        r = uu @ vv
        turns.append(math.atan2(r[1, 0], r[0, 0]))
    params = np.concatenate([h0.ravel()[:8], [1.0, 0.0, 1.0, 0.0], centres.ravel(), turns])
    n_m = len(mids)

    def unpack(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, np.ndarray, np.ndarray]:
        h = np.append(p[:8], 1.0).reshape(3, 3)
        shape = np.array([[p[8], p[9]], [p[9], p[10]]])
        return h, shape, float(p[11]), p[12:12 + 2 * n_m].reshape(n_m, 2), p[12 + 2 * n_m:]

    def residuals(p: np.ndarray) -> np.ndarray:
        h, shape, loss, c, th = unpack(p)
        grow = 1 + loss / np.maximum(side_n * spread, 1e-9)  # the loss in pixels, per marker
        centre_n = cn.mean(axis=1, keepdims=True)
        grown = centre_n + (cn - centre_n) * grow[:, None, None]
        mapped = transform_points(h, grown.reshape(-1, 2)).reshape(n_m, 4, 2)
        cos, sin = np.cos(th), np.sin(th)
        rot = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)  # n x 2 x 2
        square = c[:, None, :] + np.einsum("nij,kj->nki", rot, unit) * size[:, None, None]
        out = [((mapped - square) / (CORNER_SIGMA_PX * mm_per_px)).ravel()]
        if len(a_idx):
            want = (a_file - lattice) @ shape.T + lattice
            out.append(((c[a_idx] - want) / PLACED_SIGMA_MM).ravel())
        return np.concatenate(out)

    damping = 1e-3
    r = residuals(params)
    cost = float(r @ r)
    for _ in range(60):
        step = np.maximum(1e-7, 1e-6 * np.abs(params))
        jac = np.empty((len(r), len(params)))
        for i in range(len(params)):
            q = params.copy()
            q[i] += step[i]
            jac[:, i] = (residuals(q) - r) / step[i]
        jtj, jtr = jac.T @ jac, jac.T @ r
        improved = False
        while damping < 1e8:
            try:
                delta = np.linalg.solve(jtj + damping * np.diag(np.diag(jtj) + 1e-12), -jtr)
            except np.linalg.LinAlgError:
                damping *= 10
                continue
            trial = residuals(params + delta)
            if float(trial @ trial) < cost:
                params, r, cost, improved = params + delta, trial, float(trial @ trial), True
                damping = max(1e-7, damping / 3)
                break
            damping *= 10
        if not improved or float(np.abs(delta).max()) < 1e-9:
            break
    h, shape, _loss, _c, _t = unpack(params)
    w, v = np.linalg.eigh(shape)
    if w.min() <= 0:
        raise FitError("the markers' shapes do not agree on one board: is a marker bent, or the picture blurred?")
    total = h @ n_of

    def picture_to_printed(px: np.ndarray) -> np.ndarray:
        return transform_points(total, px)

    return shape, lattice, picture_to_printed, total


def _onto_board(quads: dict[int, np.ndarray], total: np.ndarray, shape: tuple[int, ...], layout: Layout,
                lens: Lens | None = None, above_mm: float = DEFAULT_ABOVE_MM) -> dict[int, np.ndarray]:
    """The piece markers' corners moved to where they would show if they lay on the board itself.

    A marker ``h`` mm above the board, seen by a camera ``D`` mm above it, shows where a board point
    ``(D / (D - h))`` times as far from the point under the camera would: 2 mm off at a 35 degree
    tilt for 3 mm tokens, all the same way - enough to turn the whole fitted lattice against the
    corner markers. The camera's place is the detector's own estimate (vision/camera_place.py: from
    the lens calibration, else the board's perspective, else straight above at ``above_mm``,
    where the shift is a tiny scale anyway), so the fit and the reading of a game move a marker back
    by one rule, not two that could drift apart."""
    height = max((layout.height_of(p) for p in layout.pieces), default=0.0)
    place = camera_place(total, shape, lens, above_mm)
    if place is None or place.above_mm <= 10 * height:  # not a camera's view of the board, or too low to trust
        return quads
    to_image = np.linalg.inv(total)
    heights = {m: layout.height_of(p.id) for p in layout.pieces.values() for m in p.markers}  # each its own
    out = dict(quads)
    for marker, quad in quads.items():
        if marker in heights:
            out[marker] = transform_points(to_image, lower(transform_points(total, quad), place, heights[marker]))
    return out


def _turn_and_shift(nominal: np.ndarray, measured: np.ndarray) -> tuple[float, tuple[float, float]]:
    """The turn (degrees) and shift (mm) that best take the file's corner markers to the measured ones."""
    a, b = nominal - nominal.mean(axis=0), measured - measured.mean(axis=0)
    angle = math.degrees(math.atan2(float((a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()),
                                    float((a * b).sum())))
    shift = measured.mean(axis=0) - nominal.mean(axis=0)
    return angle, (float(shift[0]), float(shift[1]))
