"""The calibration overlay: what the companion believes it sees, drawn over the camera frame.

Players line the camera up by looking at this picture, so it shows exactly the things that go
wrong at a real table: fiducials found or missing, the cell grid projected through the current
homography (a skewed grid means a bad fit), each placed marker with its id and cell, and markers
that could not be placed (between cells, off the board, wrong size) or are unknown, in warning
colours.
"""

from __future__ import annotations


import cv2
import numpy as np

from companion.games import Layout
from vision.detect import Observation

GRID = (170, 200, 90)       # BGR: the projected cell grid
FIDUCIAL = (60, 220, 60)
PLACED = (255, 200, 40)
UNPLACED = (0, 140, 255)
UNKNOWN = (60, 60, 255)


def _project(obs: Observation, pts: np.ndarray) -> np.ndarray:
    """Board millimetres -> the frame's pixels, through the lens the observation was made with."""
    out = obs.to_image(np.asarray(pts, np.float64).reshape(-1, 2))
    assert out is not None  # callers check the fit first
    return out


def _label(img: np.ndarray, text: str, xy: tuple[float, float], colour: tuple[int, int, int], scale: float) -> None:
    x, y = int(xy[0]), int(xy[1])
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def draw_overlay(frame: np.ndarray, obs: Observation | None, board: Layout,
                 conceal: frozenset[str] = frozenset()) -> np.ndarray:
    """A copy of ``frame`` with the detection drawn on it. A piece in ``conceal`` (one whose id is a
    secret to whoever looks: a face-down disc) is drawn where it is read, without its id or marker."""
    hidden = frozenset(m for p in conceal if p in board.pieces
                       for m in (board.pieces[p].marker, *board.pieces[p].faces.values()))
    img = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    scale = max(0.35, img.shape[1] / 2400)
    if obs is None or obs.homography is None:
        _label(img, "board not found" + (f": {obs.reason}" if obs and obs.reason else ""), (10, 30), UNKNOWN,
               scale * 1.6)
        return img
    if obs.to_image(np.zeros((1, 2))) is None:
        return img
    for cell in board.cells.values():
        if not cell.standable or len(cell.outline) < 3:
            continue
        pts = np.array(cell.outline, np.float64)
        poly = _project(obs, pts).round().astype(np.int32)
        cv2.polylines(img, [poly], True, GRID, 1, cv2.LINE_AA)
    for f in board.fiducials:
        half = f["size_mm"] / 2
        fx, fy = f["center_mm"]
        quad = _project(obs, np.array([[fx - half, fy - half], [fx + half, fy - half], [fx + half, fy + half],
                                         [fx - half, fy + half]])).round().astype(np.int32)
        seen = int(f["id"]) in obs.fiducials_seen
        cv2.polylines(img, [quad], True, FIDUCIAL if seen else UNKNOWN, 2, cv2.LINE_AA)
        _label(img, f"F{f['id']}" + ("" if seen else " missing"), tuple(quad[0] - [0, 6]), FIDUCIAL if seen else UNKNOWN,
               scale)
    for piece, cell_id in obs.pieces.items():
        xy = obs.image_xy.get(piece)
        if xy is None:
            continue
        cv2.circle(img, (int(xy[0]), int(xy[1])), max(6, int(12 * scale)), PLACED, 2, cv2.LINE_AA)
        marker = "" if piece.partition("^")[0] in conceal else f"{obs.markers.get(piece, '?')} "
        _label(img, f"{marker}{cell_id}", (xy[0] + 8, xy[1] - 8), PLACED, scale)
    for item in obs.unplaced:
        mm = item.get("board_mm")
        if not mm:
            continue
        x, y = _project(obs, np.array([mm]))[0]
        cv2.drawMarker(img, (int(x), int(y)), UNPLACED, cv2.MARKER_TILTED_CROSS, max(10, int(20 * scale)), 2)
        marker = "" if item.get("marker") in hidden else f"{item.get('marker')} "
        _label(img, f"{marker}{item.get('reason')}", (x + 8, y + 14), UNPLACED, scale)
    lines = [f"fiducials {sorted(obs.fiducials_seen)}  pieces {len(obs.pieces)}  {obs.ms:.0f} ms"]
    if obs.unknown_markers:
        lines.append(f"unknown markers {sorted(obs.unknown_markers)}")
    duplicates = sorted(m for m in obs.duplicates if m not in hidden)
    if duplicates:
        lines.append(f"duplicated markers {duplicates}")
    for k, text in enumerate(lines):
        _label(img, text, (10, 24 + 22 * k * scale / 0.5), UNKNOWN if k else PLACED, scale * 1.2)
    return img


def mask_concealed(frame: np.ndarray, obs: Observation | None, board: Layout, conceal: frozenset[str]) -> np.ndarray:
    """``frame`` with the marker of every piece in ``conceal`` painted over where it was read: a face-down
    disc's back marker is numbered, and a picture sent to a phone must not let any ArUco reader say
    which disc lies there. A copy; the frame itself is untouched."""
    img = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if obs is None or obs.homography is None or obs.to_image(np.zeros((1, 2))) is None:
        return img
    for piece, cell_id in obs.pieces.items():
        own = piece.partition("^")[0]
        xy, cell = obs.image_xy.get(piece), board.cells.get(cell_id)
        if own not in conceal or xy is None or cell is None or own not in board.pieces:
            continue
        cx, cy = cell.center_mm
        a, b = _project(obs, np.array([[cx, cy], [cx + 10.0, cy]], np.float64))
        px_per_mm = float(np.hypot(*(b - a))) / 10.0
        radius = max(4, int(0.9 * board.pieces[own].marker_mm * px_per_mm))
        cv2.circle(img, (int(xy[0]), int(xy[1])), radius, (128, 128, 128), -1, cv2.LINE_AA)
    return img


def overlay_data(obs: Observation | None, board: Layout, frame_size: tuple[int, int]) -> dict[str, object]:
    """The same things as :func:`draw_overlay` as data in image pixels, for a page to draw at a size
    people can read on any screen (text burnt into a 1920-px frame is unreadable on a phone)."""
    out: dict[str, object] = {"frame_size": list(frame_size), "board": None, "play_area": None, "cell_px": None,
                              "pieces": [], "unplaced": []}
    if obs is None or obs.homography is None:
        return out
    if obs.to_image(np.zeros((1, 2))) is None:
        return out
    w, h = board.size_mm
    corners = _project(obs, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    out["board"] = [[round(float(x), 1), round(float(y), 1)] for x, y in corners]
    # where the pieces stand (a page zooms to it) and how far apart two cells are, in pixels
    pts = [p for c in board.cells.values() for p in (c.outline or (c.center_mm,))]
    x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
    x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
    area = _project(obs, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
    out["play_area"] = [[round(float(x), 1), round(float(y), 1)] for x, y in area]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    a, b = _project(obs, np.array([[cx, cy], [cx + 2 * board.snap_mm, cy]], np.float64))
    out["cell_px"] = round(float(np.hypot(*(b - a))), 1)
    out["pieces"] = [{"piece": piece, "cell": cell, "x": round(float(xy[0]), 1), "y": round(float(xy[1]), 1)}
                     for piece, cell in sorted(obs.pieces.items()) if (xy := obs.image_xy.get(piece)) is not None]
    unplaced = []
    for item in obs.unplaced:
        mm = item.get("board_mm")
        if mm:
            x, y = _project(obs, np.array([mm], np.float64))[0]
            unplaced.append({"piece": item.get("id"), "marker": item.get("marker"), "reason": item.get("reason"),
                             "cells": item.get("cells"), "x": round(float(x), 1), "y": round(float(y), 1)})
    out["unplaced"] = unplaced
    return out


def draw_notice(frame: np.ndarray | None, text: str, width: int = 960, fault: bool = True) -> np.ndarray:
    """A picture that says what is wrong with the camera, written over its last good picture (dimmed).

    A camera view shows this instead of waiting for a frame that may never come: a viewer sees the
    fault in words where the picture would be. No picture yet: a dark card of ``width`` x 9/16. The
    band behind the words is red for a fault, grey for a wait (``fault`` False).
    """
    import textwrap

    image: np.ndarray
    if frame is None:
        image = np.full((width * 9 // 16, width, 3), 40, np.uint8)
    else:
        image = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame.copy()
        if image.shape[1] != width:
            scale = width / image.shape[1]
            image = cv2.resize(image, (width, max(1, int(image.shape[0] * scale))), interpolation=cv2.INTER_AREA)
        image = (image * 0.35).astype(np.uint8)
    scale = max(0.45, width / 1000)
    words = text.encode("ascii", "replace").decode()  # the built-in font draws ASCII only
    (char_w, char_h), _ = cv2.getTextSize("abcdefghij", cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    lines = textwrap.wrap(words, width=max(16, (width - 32) * 10 // max(1, char_w)))
    line_px = int(char_h * 1.9)
    cv2.rectangle(image, (0, 0), (width, 16 + line_px * len(lines) + 8), (0, 0, 90) if fault else (70, 70, 70), -1)
    for i, line in enumerate(lines):
        cv2.putText(image, line, (16, 12 + line_px * (i + 1) - line_px // 4), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (255, 255, 255), 1, cv2.LINE_AA)
    return image


def view_jpeg(frame: np.ndarray, obs: Observation | None, board: Layout, overlay: bool, quality: int,
              max_width: int, conceal: frozenset[str]) -> bytes | None:
    """A frame as a person watching the camera is shown it, as JPEG: the pieces in ``conceal`` painted
    over (with or without the overlay: a hidden piece's marker is never shown), the detection drawn,
    no wider than ``max_width``. None when the frame cannot be encoded."""
    if conceal and obs is not None:
        frame = mask_concealed(frame, obs, board, conceal)
    image = draw_overlay(frame, obs, board, conceal) if overlay and obs is not None else frame.copy()
    if image.shape[1] > max_width:
        scale = max_width / image.shape[1]
        image = cv2.resize(image, (max_width, int(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else None
