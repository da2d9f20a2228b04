"""The synthetic table: draw a game state as a camera above the table would see it.

Used by the simulated camera (so the whole companion runs without hardware) and by the tests.
It is deliberately not a perfect picture: a random plausible camera pose (tilt up to 35°, any
rotation), markers on tokens a few millimetres above the board, uneven light, blur, noise, JPEG
artefacts and, on request, a hand over the board. Each render also returns the ground truth:
which piece stands on which cell and whether its marker is fully visible.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from companion.games import Layout
from companion.games.base import unfaced
from vision.markers import QUIET_MM, dictionary, marker_image

FRAME_SIZES = ((1280, 720), (1920, 1080), (2560, 1440), (3840, 2160))
SAND = (150, 196, 222)
SKIN = (125, 160, 215)
TOKEN_MM = 26.0  # a token's diameter, unless its piece's facts give its printed size ("size_mm")
CARD_JITTER_MM = 3.0  # a card laid on a pile lies up to this far off the spot's centre ...
CARD_TURN_DEG = 8.0  # ... and turned up to this much: as hands lay cards
CAMERA_MM = 900.0  # camera distance from the board centre


@dataclass(frozen=True)
class Pose:
    """A pinhole camera looking at the board: world (x right, y down, z into the table) in mm."""

    frame_size: tuple[int, int]
    focal: float
    rotation: tuple[tuple[float, ...], ...]  # camera axes in world coordinates (columns)
    centre: tuple[float, float, float]
    principal: tuple[float, float]
    distortion: tuple[float, ...] = ()  # the lens: OpenCV's k1, k2, p1, p2, k3 (barrel: k1 < 0); () is a pinhole
    distance_mm: float = CAMERA_MM  # from the camera to what it looks at (sets how finely things are drawn)

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points in mm -> (N, 2) pixel coordinates, through the lens."""
        px = self.pinhole(points)
        return self.lens_distort(px) if self.distortion else px

    def pinhole(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points in mm -> (N, 2) pixels of a perfect pinhole camera at this pose."""
        m = np.array(self.rotation)
        cam = (np.asarray(points, float) - np.array(self.centre)) @ m
        return np.stack([self.focal * cam[:, 0] / cam[:, 2] + self.principal[0],
                         self.focal * cam[:, 1] / cam[:, 2] + self.principal[1]], axis=1)

    def camera_matrix(self) -> np.ndarray:
        return np.array([[self.focal, 0, self.principal[0]], [0, self.focal, self.principal[1]], [0, 0, 1]], float)

    def lens_distort(self, px: np.ndarray) -> np.ndarray:
        """Pinhole pixels -> where this camera's lens puts them."""
        k = self.camera_matrix()
        rays = np.column_stack([(px[:, 0] - k[0, 2]) / k[0, 0], (px[:, 1] - k[1, 2]) / k[1, 1], np.ones(len(px))])
        out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), k, np.array(self.distortion, float))
        return out.reshape(-1, 2)


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def make_pose(board: Layout, tilt_deg: float, tilt_dir_deg: float, yaw_deg: float, marker_px: float,
              shift: tuple[float, float] = (0.5, 0.5), frame_size: tuple[int, int] | None = None) -> Pose:
    """A pose with the board centre in view and piece markers about ``marker_px`` pixels wide,
    in the smallest usual frame size that holds the board (or ``frame_size``: a sensor mode)."""
    centre = np.array([board.size_mm[0] / 2, board.size_mm[1] / 2, 0.0])
    yaw = _rot(np.array([0.0, 0.0, 1.0]), math.radians(yaw_deg))
    axis = np.array([math.cos(math.radians(tilt_dir_deg)), math.sin(math.radians(tilt_dir_deg)), 0.0])
    m = yaw @ _rot(axis, math.radians(tilt_deg))
    cam_centre = centre + m @ np.array([0.0, 0.0, -CAMERA_MM])
    focal = marker_px / board.marker_mm * CAMERA_MM
    corners = np.array([[0, 0, 0], [board.size_mm[0], 0, 0], [board.size_mm[0], board.size_mm[1], 0],
                        [0, board.size_mm[1], 0]], float)
    probe = Pose((0, 0), focal, tuple(map(tuple, m)), tuple(cam_centre), (0.0, 0.0))
    pts = probe.project(corners)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    need = hi - lo + 40
    for w, h in (frame_size,) if frame_size is not None else FRAME_SIZES:
        if w >= need[0] and h >= need[1]:
            break
    else:
        w, h = frame_size or FRAME_SIZES[-1]
    slack = np.array([w, h]) - (hi - lo)
    offset = -lo + slack * np.array(shift)
    return Pose((w, h), focal, tuple(map(tuple, m)), tuple(cam_centre), (float(offset[0]), float(offset[1])))


def look_pose(frame_size: tuple[int, int], focal: float, target: Sequence[float], distance_mm: float,
              tilt_deg: float, tilt_dir_deg: float, yaw_deg: float, distortion: Sequence[float] = ()) -> Pose:
    """A fixed camera (principal point at the frame's centre, one focal length) looking at
    ``target`` (mm, on the table) from ``distance_mm`` away: the same camera in every pose, as a
    lens calibration and the detection after it need."""
    yaw = _rot(np.array([0.0, 0.0, 1.0]), math.radians(yaw_deg))
    axis = np.array([math.cos(math.radians(tilt_dir_deg)), math.sin(math.radians(tilt_dir_deg)), 0.0])
    m = yaw @ _rot(axis, math.radians(tilt_deg))
    centre = np.array([target[0], target[1], 0.0]) + m @ np.array([0.0, 0.0, -distance_mm])
    w, h = frame_size
    return Pose((w, h), focal, tuple(map(tuple, m)), tuple(centre), ((w - 1) / 2, (h - 1) / 2),
                tuple(float(v) for v in distortion), distance_mm)


def random_pose(board: Layout, rng: np.random.Generator, max_tilt: float = 35.0,
                marker_px: tuple[float, float] = (16.0, 40.0)) -> Pose:
    return make_pose(board, tilt_deg=float(rng.uniform(0, max_tilt)), tilt_dir_deg=float(rng.uniform(0, 360)),
                     yaw_deg=float(rng.uniform(0, 360)), marker_px=float(rng.uniform(*marker_px)),
                     shift=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))))


@dataclass
class Effects:
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None
    light_low: float = 1.0  # gain at the dark side of the frame
    light_angle: float = 0.0
    brightness: float = 1.0  # the whole picture's gain: lamp flicker, a cloud passing
    hand: str | None = None  # None, "random", "fiducial:N" (cover that corner marker) or "at:X,Y" (board mm)

    @classmethod
    def random(cls, rng: np.random.Generator, hand_chance: float = 0.3) -> Effects:
        hand = None
        roll = rng.uniform()
        if roll < hand_chance / 2:
            hand = f"fiducial:{int(rng.integers(0, 4))}"
        elif roll < hand_chance:
            hand = "random"
        return cls(blur_sigma=float(rng.uniform(0, 1.0)), noise_sigma=float(rng.uniform(0, 6)),
                   jpeg_quality=int(rng.integers(50, 95)) if rng.uniform() < 0.5 else None,
                   light_low=float(rng.uniform(0.45, 1.0)), light_angle=float(rng.uniform(0, 2 * math.pi)),
                   hand=hand)


@dataclass
class Rendered:
    frame: np.ndarray
    truth: dict[str, str]  # piece -> cell
    visible: set[str] = field(default_factory=set)  # pieces whose marker is fully in view and uncovered
    hand_mask: np.ndarray | None = None
    pose: Pose | None = None
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)  # piece -> where its marker's centre is, mm
    markers: dict[str, np.ndarray] = field(default_factory=dict)  # piece -> its marker's 4 corners in the frame (px)

    def misread(self, pieces: Mapping[str, str], poses: Mapping[str, Sequence[float]]) -> tuple[list[float], int]:
        """How a reading of this picture (piece -> cell, piece -> (x mm, y mm, ...)) compares with
        the truth: each read piece's distance from where its marker was drawn, and how many pieces
        were read on a wrong cell."""
        errors = [float(math.hypot(poses[p][0] - self.positions[p][0], poses[p][1] - self.positions[p][1]))
                  for p in pieces if p in poses and p in self.positions]
        return errors, sum(cell != self.truth.get(p) for p, cell in pieces.items())


# ----------------------------------------------------------------------------- the board texture
@lru_cache(maxsize=8)
def _texture(board_key: int, px_per_mm: float) -> np.ndarray:
    board = _BOARDS[board_key]
    s = px_per_mm
    w, h = round(board.size_mm[0] * s), round(board.size_mm[1] * s)
    img = np.full((h, w, 3), SAND, np.uint8)
    noise = np.random.default_rng(7).normal(0, 10, (h // 8 + 1, w // 8 + 1, 1))
    img = np.clip(img + cv2.resize(noise, (w, h))[..., None], 0, 255).astype(np.uint8)
    for cell in board.cells.values():  # the layout says how each place is drawn
        if len(cell.outline) < 3:
            continue
        poly = np.array([[x * s, y * s] for x, y in cell.outline], np.int32)
        if cell.fill is not None:
            cv2.fillPoly(img, [poly], _bgr(cell.fill))
        if cell.line is not None:
            cv2.polylines(img, [poly], True, _bgr(cell.line), max(1, round(s * 0.8)), cv2.LINE_AA)
    dict_ = dictionary(board.marker_dictionary)
    # the board's corner markers, then markers printed on places (a part's own corner markers, turned
    # with it: a cell's fact ``printed_markers``), a little white round each as printed
    printed = [m for cell in board.cells.values() for m in cell.facts.get("printed_markers", ())]
    for k, f in enumerate([*board.fiducials, *printed]):
        size = f["size_mm"] * s
        quiet = (4 if k < len(board.fiducials) else 2) * s
        x0, y0 = f["center_mm"][0] * s - size / 2, f["center_mm"][1] * s - size / 2
        cv2.rectangle(img, (round(x0 - quiet), round(y0 - quiet)), (round(x0 + size + quiet), round(y0 + size + quiet)),
                      (255, 255, 255), -1)
        side = round(size)
        mk = np.rot90(marker_image(dict_, int(f["id"]), side), -(int(f.get("turn", 0)) // 90))  # turned clockwise
        img[round(y0):round(y0) + side, round(x0):round(x0) + side] = cv2.cvtColor(np.ascontiguousarray(mk),
                                                                                   cv2.COLOR_GRAY2BGR)
    return img


_BOARDS: dict[int, Layout] = {}


def token_size(board: Layout, piece: str) -> tuple[float, float, bool]:
    """A piece's printed size in mm (width, height) and whether it is a card (a rectangle) rather
    than a round token: from its facts' ``size_mm`` (a number: a disc's diameter; [w, h]: a card)."""
    look = board.pieces.get(piece)
    size = look.facts.get("size_mm") if look is not None else None
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return float(size[0]), float(size[1]), True
    if isinstance(size, (int, float)) and not isinstance(size, bool) and size > 0:
        return float(size), float(size), False
    return TOKEN_MM, TOKEN_MM, False


def top_mm(board: Layout, piece: str, below: int = 0) -> float:
    """How far above the board a piece's top (its marker) is, with ``below`` pieces under it on its
    place: a card (or a tile, a rectangle) lies flat, 0.3 mm a layer; a token's top stands its own
    height up (``Layout.height_of``: a pawn's top, a wall stand's cap, else the layout's
    ``piece_height_mm``), half a millimetre higher for each piece it stands on. The picture is drawn
    lowest first and projects each marker at this height, so a tall piece's marker shows shifted
    away from the camera as a real one does."""
    if token_size(board, piece)[2]:
        return 0.3 * (below + 1)
    return board.height_of(piece) + 0.5 * below


@dataclass(frozen=True)
class _Drawn:
    """One piece as it is laid: where its middle is (board mm), how it is turned, how high its top is."""

    piece: str
    x: float
    y: float
    angle: float  # radians
    height: float  # mm above the board


@lru_cache(maxsize=128)
def _token_patch(board_key: int, piece: str, px_per_mm: float, face_down: bool = False,
                 marker: int | None = None) -> np.ndarray:
    """A piece seen from straight above at its printed size: a token is a coloured disc with a white
    sticker and the marker (a token of a printed size: a round sticker); a card a white face with the
    marker in its middle; face down a plain grey disc or back."""
    board = _BOARDS[board_key]
    w_mm, h_mm, card = token_size(board, piece)
    width, height = round(w_mm * px_per_mm), round(h_mm * px_per_mm)
    patch = np.zeros((height, width, 4), np.uint8)
    look = board.pieces.get(piece)
    colour = _bgr(look.colour) if look is not None and look.colour is not None else (90, 90, 90)
    middle = (width // 2, height // 2)
    if card:
        patch[:] = (120, 120, 125, 255) if face_down else (*colour, 255)
        cv2.rectangle(patch, (0, 0), (width - 1, height - 1), (70, 70, 70, 255), max(1, round(px_per_mm * 0.5)))
        if face_down:
            return patch
    else:
        cv2.circle(patch, middle, width // 2 - 1, (120, 120, 125, 255) if face_down else (*colour, 255), -1,
                   cv2.LINE_AA)
        if face_down:
            return patch
    marker_mm = look.marker_mm if look is not None else board.marker_mm
    marker_id = marker if marker is not None else look.marker if look is not None else board.special_markers[piece]
    white_mm = marker_mm + 2 * QUIET_MM  # as printed on the sticker sheet
    if look is not None and "size_mm" in look.facts and not card:
        # a round sticker the pawn's size: the marker's corners and the quiet zone the sheet prints round
        # a marker (a dark top a millimetre from its corners, a green or red disc, hid one marker in 12)
        radius = min(w_mm / 2, marker_mm / math.sqrt(2) + QUIET_MM) * px_per_mm
        cv2.circle(patch, middle, round(radius), (255, 255, 255, 255), -1, cv2.LINE_AA)
    else:
        white = round(white_mm * px_per_mm)
        patch[(height - white) // 2:(height - white) // 2 + white, (width - white) // 2:(width - white) // 2 + white] = \
            (255, 255, 255, 255)
    side = round(marker_mm * px_per_mm)
    my, mx = (height - side) // 2, (width - side) // 2
    patch[my:my + side, mx:mx + side, :3] = cv2.cvtColor(marker_image(dictionary(board.marker_dictionary), marker_id,
                                                                      side), cv2.COLOR_GRAY2BGR)
    return patch


def _paste(frame: np.ndarray, patch: np.ndarray, dst: np.ndarray) -> None:
    """Warp an RGBA patch onto the frame so its corners land on ``dst`` (4x2), within a small ROI."""
    h, w = frame.shape[:2]
    x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    ph, pw = patch.shape[:2]
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    m = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(patch, m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    roi = frame[y0:y1, x0:x1]
    roi[:] = (roi * (1 - alpha) + warped[..., :3] * alpha).astype(np.uint8)


# ----------------------------------------------------------------------------- rendering
def render(board: Layout, placement: Mapping[str, Sequence[str]], pose: Pose, effects: Effects | None = None,
           seed: int = 0, face_down: Collection[str] = (), turns: Mapping[str, float] | None = None) -> Rendered:
    """Draw the placement (cell -> pieces) as the camera at ``pose`` sees it; ``face_down`` tokens show no marker.

    A piece named with the way it faces (``red-s1^E``, Layout.facings) is drawn with its marker
    turned that way, a few degrees off as a hand leaves it; one named with the face up (``red-3^back``,
    Piece.faces) shows that face's marker; ``turns`` sets a piece's marker angle
    outright (degrees, as the detector measures it: 45 is half-way between two ways)."""
    _BOARDS[id(board)] = board
    effects = effects or Effects()
    rng = np.random.default_rng(seed)
    w, h = pose.frame_size
    px_per_mm = pose.focal / pose.distance_mm
    tex_scale = float(min(4.0, max(2.0, math.ceil(px_per_mm * 1.3))))
    texture = _texture(id(board), tex_scale)
    board_corners = np.array([[0, 0, 0], [board.size_mm[0], 0, 0], [board.size_mm[0], board.size_mm[1], 0],
                              [0, board.size_mm[1], 0]], float)
    dst = pose.pinhole(board_corners).astype(np.float32)
    th, tw = texture.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    frame = cv2.warpPerspective(texture, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_AREA,
                                borderValue=(70, 60, 55))
    truth: dict[str, str] = {}
    marker_polys: dict[str, np.ndarray] = {}
    positions: dict[str, tuple[float, float]] = {}
    under: set[str] = set()  # pieces with another stacked on them
    patch_scale = float(max(4, math.ceil(px_per_mm * 2)))
    drawn: list[_Drawn] = []
    shows: dict[str, int] = {}  # a piece with a marker per face: the marker of the face up
    for cell_id, pieces in placement.items():
        cell = board.cells[cell_id]
        for k, entry in enumerate(pieces):
            piece, way = unfaced(entry)
            truth[piece] = cell_id
            # A token lies a little off-centre and turned; that stays put until the token moves.
            own = np.random.default_rng(zlib.crc32(f"{seed}:{piece}:{cell_id}".encode()))
            jitter = own.uniform(-2.0, 2.0, 2)
            angle = own.uniform(0, 2 * math.pi)
            if cell.facts.get("pile"):  # laid on the one before, a few mm off and turned a little: the newest on top
                if k + 1 < len(pieces):
                    under.add(piece)
                jitter = own.uniform(-CARD_JITTER_MM, CARD_JITTER_MM, 2)
                angle = math.radians(own.uniform(-CARD_TURN_DEG, CARD_TURN_DEG))
                cx, cy = cell.center_mm[0] + jitter[0], cell.center_mm[1] + jitter[1]
            elif cell.facts.get("stack"):  # each on the one before, a little off: only the top marker shows
                if k + 1 < len(pieces):
                    under.add(piece)
                cx, cy = cell.center_mm[0] + jitter[0] + 1.5 * k, cell.center_mm[1] + jitter[1] + 1.5 * k
            else:  # side by side
                cx = cell.center_mm[0] + jitter[0] + (k - (len(pieces) - 1) / 2) * 7.0 * (len(pieces) > 1)
                cy = cell.center_mm[1] + jitter[1]
            turned = (turns or {}).get(piece)
            look = board.pieces.get(piece)
            if way is not None and look is not None and way in look.faces:
                shows[piece], way = look.faces[way], None  # a face shown (Piece.faces), not a way faced
            if turned is None and way is not None:
                if way not in board.facings:
                    raise ValueError(f"{entry!r}: {way!r} is not a way a piece faces on this board "
                                     f"({', '.join(board.facings) or 'none'})")
                turned = board.facings[way] + own.uniform(-6.0, 6.0)
            if turned is not None:  # the detector's angle is counter-clockwise seen from above: y grows down
                angle = math.radians(-turned)
            drawn.append(_Drawn(piece, cx, cy, angle, top_mm(board, piece, k)))
    # Lowest first, so the top of a taller piece covers the flat ones round it as it stands above
    # them on a real table (a token beside a card laid after it, a token on the cards of its stack),
    # whatever order the table lists the places in; pieces of one height keep the table's order.
    for d in sorted(drawn, key=lambda d: d.height):
        piece, cx, cy, angle, lift = d.piece, d.x, d.y, d.angle, -d.height
        w_mm, h_mm, _card = token_size(board, piece)
        hw, hh = w_mm / 2, h_mm / 2
        corners = [(cx + math.cos(angle) * dx * hw - math.sin(angle) * dy * hh,
                    cy + math.sin(angle) * dx * hw + math.cos(angle) * dy * hh,
                    lift) for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        dst_pts = pose.pinhole(np.array(corners))
        _paste(frame, _token_patch(id(board), piece, patch_scale, piece in face_down, shows.get(piece)), dst_pts)
        if piece in face_down:
            continue  # its back is blank: the camera cannot tell which token it is
        marker_mm = board.pieces[piece].marker_mm if piece in board.pieces else board.marker_mm
        mh = marker_mm / 2
        mcorners = [(cx + mh * (math.cos(angle) * dx - math.sin(angle) * dy),
                     cy + mh * (math.sin(angle) * dx + math.cos(angle) * dy), lift)
                    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        marker_polys[piece] = pose.project(np.array(mcorners))
        positions[piece] = (cx, cy)
    hand_mask = _hand(frame, board, pose, effects, rng)
    if pose.distortion:
        frame, hand_mask = _through_lens(pose, frame, hand_mask)
    frame = _light_and_lens(frame, effects, rng)
    visible = set()
    for piece, poly in marker_polys.items():
        if piece in under or poly.min() < 1 or poly[:, 0].max() > w - 2 or poly[:, 1].max() > h - 2:
            continue
        if hand_mask is not None:
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 1)
            if np.any(hand_mask[mask > 0]):
                continue
        visible.add(piece)
    return Rendered(frame, truth, visible, hand_mask, pose, positions, marker_polys)


def _hand(frame: np.ndarray, board: Layout, pose: Pose, effects: Effects, rng: np.random.Generator) -> np.ndarray | None:
    if not effects.hand:
        return None
    h, w = frame.shape[:2]
    px_per_mm = pose.focal / pose.distance_mm
    if effects.hand.startswith("at:"):
        x, y = (float(v) for v in effects.hand[3:].split(","))
        target = pose.pinhole(np.array([[x, y, 0.0]]))[0]
    elif effects.hand.startswith("fiducial:"):
        f = board.fiducials[int(effects.hand.split(":")[1]) % 4]
        target = pose.pinhole(np.array([[f["center_mm"][0], f["center_mm"][1], 0.0]]))[0]
    else:
        target = pose.pinhole(np.array([[rng.uniform(80, board.size_mm[0] - 80), rng.uniform(80, board.size_mm[1] - 80),
                                         0.0]]))[0]
    edge = rng.integers(0, 4)
    start = [(target[0], h + 50), (target[0], -50), (-50, target[1]), (w + 50, target[1])][edge]
    mask = np.zeros((h, w), np.uint8)
    arm = max(4, round(70 * px_per_mm))
    cv2.line(mask, (round(start[0]), round(start[1])), (round(target[0]), round(target[1])), 255, arm)
    palm = (max(4, round(55 * px_per_mm)), max(4, round(45 * px_per_mm)))
    cv2.ellipse(mask, (round(target[0]), round(target[1])), palm, float(rng.uniform(0, 180)), 0, 360, 255, -1)
    shade = np.array(SKIN, np.float32) * float(rng.uniform(0.8, 1.1))
    frame[mask > 0] = np.clip(shade, 0, 255).astype(np.uint8)
    return mask > 0


@lru_cache(maxsize=4)
def _lens_maps(size: tuple[int, int], matrix: tuple[float, ...], distortion: tuple[float, ...]
               ) -> tuple[np.ndarray, np.ndarray]:
    """For every pixel of the picture through the lens, where the pinhole picture has it."""
    w, h = size
    k = np.array(matrix, float).reshape(3, 3)
    grid = np.stack(np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), axis=2)
    ideal = cv2.undistortPoints(grid.reshape(-1, 1, 2), k, np.array(distortion, float), P=k,
                                criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-4))
    ideal = ideal.reshape(h, w, 2).astype(np.float32)
    return ideal[..., 0].copy(), ideal[..., 1].copy()


def _through_lens(pose: Pose, frame: np.ndarray, hand_mask: np.ndarray | None
                  ) -> tuple[np.ndarray, np.ndarray | None]:
    """The pinhole picture (and the hand's mask) bent as the pose's lens bends it."""
    mx, my = _lens_maps(pose.frame_size, tuple(pose.camera_matrix().ravel()), pose.distortion)
    frame = cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderValue=(70, 60, 55))
    if hand_mask is not None:
        hand_mask = cv2.remap(hand_mask.astype(np.uint8), mx, my, cv2.INTER_NEAREST) > 0
    return frame, hand_mask


def render_sheet(pattern: np.ndarray, size_mm: tuple[float, float], pose: Pose, effects: Effects | None = None,
                 seed: int = 0, margin_mm: float = 10.0) -> np.ndarray:
    """A flat printed sheet (``pattern``, grey, covering ``size_mm``; white paper ``margin_mm``
    around it) lying at the table's origin, seen by the camera at ``pose``."""
    effects = effects or Effects()
    w, h = pose.frame_size
    px_per_mm = pattern.shape[1] / size_mm[0]
    m = round(margin_mm * px_per_mm)
    paper = cv2.copyMakeBorder(pattern, m, m, m, m, cv2.BORDER_CONSTANT, value=255)
    paper = cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)
    ph, pw = paper.shape[:2]
    corners = np.array([[-margin_mm, -margin_mm, 0], [size_mm[0] + margin_mm, -margin_mm, 0],
                        [size_mm[0] + margin_mm, size_mm[1] + margin_mm, 0], [-margin_mm, size_mm[1] + margin_mm, 0]])
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    dst = pose.pinhole(corners).astype(np.float32)
    frame = cv2.warpPerspective(paper, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_AREA,
                                borderValue=(70, 60, 55))
    if pose.distortion:
        frame, _ = _through_lens(pose, frame, None)
    return _light_and_lens(frame, effects, np.random.default_rng(seed))


def sheet_views(count: int, frame_size: tuple[int, int], focal: float, distortion: Sequence[float] = (),
                seed: int = 500) -> list[np.ndarray]:
    """The lens calibration sheet held under one camera ``count`` times: tilted 10-40 degrees each
    way, 50-80 cm away, moved all over the picture (what a player does with ``calibrate-camera``)."""
    from vision.lens import CHARUCO_SQUARES, SQUARE_MM, charuco_image

    pattern = charuco_image(4.0)
    sheet = (CHARUCO_SQUARES[0] * SQUARE_MM, CHARUCO_SQUARES[1] * SQUARE_MM)
    frames = []
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        target = (sheet[0] / 2 + rng.uniform(-250, 250), sheet[1] / 2 + rng.uniform(-150, 150))
        pose = look_pose(frame_size, focal, target, rng.uniform(500, 800), rng.uniform(10, 40),
                         rng.uniform(0, 360), rng.uniform(0, 360), distortion)
        frames.append(render_sheet(pattern, sheet, pose, Effects(noise_sigma=2.0, blur_sigma=0.5), seed=k))
    return frames


def _light_and_lens(frame: np.ndarray, effects: Effects, rng: np.random.Generator) -> np.ndarray:
    h, w = frame.shape[:2]
    out: np.ndarray = frame.astype(np.float32)
    if effects.light_low < 1.0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = (xx / w - 0.5) * math.cos(effects.light_angle) + (yy / h - 0.5) * math.sin(effects.light_angle)
        gain = effects.light_low + (1.0 - effects.light_low) * (ramp + 0.5)
        out *= gain[..., None]
    if effects.brightness != 1.0:
        out *= effects.brightness
    if effects.blur_sigma > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), effects.blur_sigma)
    if effects.noise_sigma > 0:
        out += rng.normal(0, effects.noise_sigma, out.shape).astype(np.float32)
    frame = np.clip(out, 0, 255).astype(np.uint8)
    if effects.jpeg_quality:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, effects.jpeg_quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            frame = decoded
    return frame


def render_state(board: Layout, placement: Mapping[str, Sequence[str]], seed: int = 0, hand: bool = False,
                 clean: bool = False) -> Rendered:
    """A random plausible view of a placement (the ``render`` command and the simulator)."""
    rng = np.random.default_rng(seed)
    pose = random_pose(board, rng)
    effects = Effects() if clean else Effects.random(rng, hand_chance=0.0)
    if hand:
        effects.hand = "random"
    return render(board, placement, pose, effects, seed=seed)
