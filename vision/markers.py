"""ArUco markers: the dictionary, marker images, and printable sticker sheets at true size.

Every marker the companion reads (4 board fiducials, 32 islanders, 15 obstacles, the FOG and
turn markers) comes from one dictionary named in the board file. ``fog-companion markers -o
sheet.pdf`` prints them at their real size in millimetres, each with a white quiet zone and a
label in lines that fit its sticker's box (never running into the next one), so a user can stick
them on the tokens and the board; each page carries a check bar 100 mm long, to measure that the
print was not scaled. A piece with a round top of a given
size (the partner race's pawns: ``shape = "disc"`` and ``size_mm``) gets a thin light circle of that
size around its marker, to cut the sticker along: a square sticker on a round top overhangs it.
"""

from __future__ import annotations

import functools
import struct
import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import FogCompanionError
from companion.games import Layout

PAGE_MM = (210.0, 297.0)  # A4 portrait
MARGIN_MM = 10.0
QUIET_MM = 2.5  # white border around each marker; detection needs it
LABEL_PT = 7.0  # a sticker's label: 7 pt Helvetica, about 1.8 mm capitals (legible at arm's length)
LINE_MM = 3.0  # one line of a label, baseline to baseline
CHAR_MM = 0.6 * LABEL_PT * 25.4 / 72  # a generous Helvetica character width: a label never runs into the next
GAP_MM = 3.0
CHECK_MM = 100.0  # the check bar at the foot of each page: measured with a ruler, it says the print was not scaled
CHECK_AREA_MM = 10.0  # the room kept for it above the bottom margin
CUT_GREY = 0.75  # the cut line: light grey, thin; seen when cutting, not mistaken for the marker's border
CUT_LINE_MM = 0.15


class MarkerError(FogCompanionError, ValueError):
    """A marker dictionary or sheet request is not possible."""


@functools.lru_cache(maxsize=8)
def dictionary(name: str) -> cv2.aruco.Dictionary:
    """The OpenCV predefined dictionary with this name (e.g. ``DICT_4X4_100``), made once: every
    picture read (the assembly reader's too) shares it, and nobody changes it."""
    code = getattr(cv2.aruco, name, None)
    if not isinstance(code, int) or not name.startswith("DICT_"):
        raise MarkerError(f"unknown ArUco dictionary {name!r} (use one of OpenCV's DICT_... names)")
    return cv2.aruco.getPredefinedDictionary(code)


def marker_image(dict_: cv2.aruco.Dictionary, marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a black-and-white image, ``side_px`` square (no quiet zone)."""
    modules = dict_.markerSize + 2
    base = cv2.aruco.generateImageMarker(dict_, marker_id, modules)
    return cv2.resize(base, (side_px, side_px), interpolation=cv2.INTER_NEAREST)


@dataclass(frozen=True)
class SheetItem:
    marker: int
    label: str
    size_mm: float
    round_mm: float = 0.0  # a round top's diameter: a circle to cut along is printed around the marker


def sheet_items(board: Layout) -> list[SheetItem]:
    """Everything to print: fiducials first (larger), then pieces, then the FOG/turn markers."""
    items = [SheetItem(int(f["id"]), label, float(f["size_mm"])) for f, label in zip(board.fiducials,
                                                                                  corner_labels(board), strict=True)]
    # a piece the game has several of alike (a deck's cards of one kind) is printed as often; a piece
    # with a marker on each face (Piece.faces: a die, a two-faced disc) has one sticker per face
    called = Counter(p.label for p in board.pieces.values())  # a piece by its name where no other has it
    items += [SheetItem(m, (p.label.split(":")[0] if p.label and called[p.label] == 1 else p.id)
                        + (f", {face} face" if face else ""), p.marker_mm, _round_top(p.facts))
              for p in board.pieces.values() for face, m in (p.faces.items() or [("", p.marker)])
              for _ in range(max(1, int(p.facts.get("copies", 1))))]
    items += [SheetItem(m, f"{name} marker", board.marker_mm) for name, m in board.special_markers.items()]
    # markers printed on places (a part's own corner markers: a cell's fact ``printed_markers``), each once
    printed = {int(m["id"]): m for c in board.cells.values() for m in c.facts.get("printed_markers", ())}
    items += [SheetItem(i, str(m.get("label", f"marker {i}")), float(m["size_mm"])) for i, m in sorted(printed.items())]
    return items


CORNER_MARKER = "corner marker"  # the last words of each of the board's corner markers' labels


def corner_labels(board: Layout) -> list[str]:
    """Each of the board's corner markers by the corner of the board it is glued at, in the players'
    words ("the board's top left corner marker"): a number alone left them to guess which goes where.
    Two in one quarter of an odd board are told apart by a number."""
    w, h = board.size_mm
    said = [f"the board's {'top' if f['center_mm'][1] < h / 2 else 'bottom'} "
            f"{'left' if f['center_mm'][0] < w / 2 else 'right'} {CORNER_MARKER}" for f in board.fiducials]
    return [f"{label} {k + 1}" if said.count(label) > 1 else label for k, label in enumerate(said)]


def _round_top(facts: Mapping[str, Any]) -> float:
    """The diameter of a piece's round top when its facts give one (a disc with one ``size_mm``),
    else 0: a square sticker, or a size that is not one number (a card's width and height)."""
    size = facts.get("size_mm")
    return float(size) if facts.get("shape") == "disc" and isinstance(size, (int, float)) else 0.0


@dataclass(frozen=True)
class Placed:
    item: SheetItem
    page: int
    x_mm: float  # top-left of the marker itself (inside its quiet zone)
    y_mm: float
    lines: tuple[str, ...] = ()  # its label, in lines that fit its box
    inset_mm: float = QUIET_MM  # from the box's left edge to the marker's


def wrapped(label: str, width_mm: float) -> list[str]:
    """A label in lines no wider than ``width_mm`` (at :data:`CHAR_MM` a character), broken between
    words: printed in one line under a small marker it ran into its neighbour's ("4red-s1")."""
    lines: list[str] = []
    for word in _words(label):
        if lines and (len(lines[-1]) + 1 + len(word)) * CHAR_MM <= width_mm:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _words(label: str) -> list[str]:
    """A label's words, a lone separator ("·") kept with the word after it: never a line of its own."""
    out: list[str] = []
    for word in label.split():
        if out and not any(ch.isalnum() for ch in out[-1]):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def sticker_label(item: SheetItem) -> str:
    """What is printed under a sticker: what it goes on, and its marker's number."""
    return f"{item.label} #{item.marker}"


def layout(items: list[SheetItem]) -> list[Placed]:
    """Shelf packing onto A4 pages, left to right, top to bottom, each sticker's box wide enough for
    the longest word of its label and tall enough for its lines; the foot of each page is kept for
    the check bar."""
    out: list[Placed] = []
    page, x, y, shelf = 0, MARGIN_MM, MARGIN_MM, 0.0
    for item in items:
        words = _words(sticker_label(item))
        w = max(item.size_mm + 2 * QUIET_MM, item.round_mm + 2 * CUT_LINE_MM,  # the cut circle fits in the box
                max(len(word) for word in words) * CHAR_MM)
        lines = wrapped(sticker_label(item), w)
        h = w + len(lines) * LINE_MM + 1.0
        if x + w > PAGE_MM[0] - MARGIN_MM:
            x, y, shelf = MARGIN_MM, y + shelf + GAP_MM, 0.0
        if y + h > PAGE_MM[1] - MARGIN_MM - CHECK_AREA_MM:
            page, x, y, shelf = page + 1, MARGIN_MM, MARGIN_MM, 0.0
        inset = (w - item.size_mm) / 2  # the marker in the middle of its box (and of its cut circle)
        out.append(Placed(item, page, x + inset, y + inset, tuple(lines), inset))
        x += w + GAP_MM
        shelf = max(shelf, h)
    return out


def write_sheet(board: Layout, path: Path | str, dpi: int = 300) -> list[Path]:
    """Write the sticker sheet(s) as PDF (one file, several pages) or PNG (one file per page)."""
    dict_ = dictionary(board.marker_dictionary)
    return write_pages(Path(path), _placed_pages(dict_, layout(sheet_items(board))), dpi=dpi, check_bar=True)


def write_charuco_sheet(path: Path | str, dpi: int = 300) -> list[Path]:
    """The lens calibration sheet (``vision.lens``): one A4 landscape page, the pattern at true size.
    Printed at 100 % ("actual size"), its squares measure exactly 35 mm; check with a ruler."""
    from vision.lens import CHARUCO_SQUARES, SQUARE_MM, SHEET_PAGE_MM, charuco_image

    w, h = (n * SQUARE_MM for n in CHARUCO_SQUARES)
    x, y = (SHEET_PAGE_MM[0] - w) / 2, (SHEET_PAGE_MM[1] - h) / 2
    squares = charuco_image(px_per_mm=1.0 * 8 / SQUARE_MM * 7)  # 56 px a square: sharp edges, small file
    label = (f"fog-companion lens calibration sheet: {CHARUCO_SQUARES[0]}x{CHARUCO_SQUARES[1]} squares of "
             f"{SQUARE_MM:g} mm - print at 100 %, keep it flat")
    return write_pages(Path(path), [[PageImage("S", squares, x, y, w, h, label)]], SHEET_PAGE_MM, dpi)


# ----------------------------------------------------------------------------- pages
@dataclass(frozen=True)
class PageImage:
    """A grey image placed on a printed page at true size, with a label under it."""

    key: str  # images with the same key are the same picture (stored once in a PDF)
    image: np.ndarray
    x_mm: float  # top-left
    y_mm: float
    w_mm: float
    h_mm: float
    label: str = ""  # one line a "\n"
    ring_mm: float = 0.0  # a circle to cut along, this wide, centred on the image (0: none)
    label_dx_mm: float = -0.8 * QUIET_MM  # where the label starts, from the image's left edge

    @property
    def label_drop_mm(self) -> float:
        """How far below the image the label's baseline sits: under the cut circle when there is one."""
        return 3.2 + max(0.0, (self.ring_mm - self.h_mm) / 2)


def _placed_pages(dict_: cv2.aruco.Dictionary, placed: list[Placed]) -> list[list[PageImage]]:
    pages: list[list[PageImage]] = [[] for _ in range(max(p.page for p in placed) + 1)]
    modules = dict_.markerSize + 2
    for p in placed:
        img = cv2.aruco.generateImageMarker(dict_, p.item.marker, modules)
        pages[p.page].append(PageImage(f"M{p.item.marker}", img, p.x_mm, p.y_mm, p.item.size_mm, p.item.size_mm,
                                       "\n".join(p.lines), p.item.round_mm, -p.inset_mm))
    return pages


CHECK_SAID = (f"this bar is {CHECK_MM:g} mm long: measure it with a ruler; if it is not, print again "
              "at 100 % (\"actual size\", never \"fit to page\")")


def check_bar(page_mm: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """The check bar at the foot of a page, as black rectangles (x, y from the top, width, height in
    mm): a bar :data:`CHECK_MM` long from the outer edge of its first tick to that of its last, with
    a tick every 10 mm, so a ruler laid along it reads any scaling at once."""
    x, y = MARGIN_MM, page_mm[1] - MARGIN_MM - CHECK_AREA_MM + 2.0
    tick = 0.3
    rects = [(x, y + 0.75, CHECK_MM, 1.5)]
    rects += [(x + min(max(k * 10.0 - tick / 2, 0.0), CHECK_MM - tick), y, tick, 3.0) for k in range(int(CHECK_MM // 10) + 1)]
    return rects


def write_pages(path: Path, pages: list[list[PageImage]], page_mm: tuple[float, float] = PAGE_MM,
                dpi: int = 300, check_bar: bool = False) -> list[Path]:
    """The pages as one PDF, or one PNG per page (with its true size recorded for printing); with
    ``check_bar``, each page carries the check bar (:func:`check_bar`) and says how to use it."""
    if path.suffix.lower() == ".pdf":
        _write_pdf(path, pages, page_mm, check_bar)
        return [path]
    if path.suffix.lower() == ".png":
        return _write_pngs(path, pages, page_mm, dpi, check_bar)
    raise MarkerError(f"{path}: the sheet is written as .pdf or .png")


# ----------------------------------------------------------------------------- PNG
def _write_pngs(path: Path, pages: list[list[PageImage]], page_mm: tuple[float, float], dpi: int,
                with_bar: bool) -> list[Path]:
    px_per_mm = dpi / 25.4

    def text(line: str, x_mm: float, y_mm: float, width_mm: float) -> None:
        """A line at the label's size (capitals about 1.8 mm), narrowed only where it would overrun."""
        (w, _), _ = cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
        scale = min(1.8 * px_per_mm / 22, width_mm * px_per_mm / max(w, 1))
        cv2.putText(canvas, line, (round(x_mm * px_per_mm), round(y_mm * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, 0, max(1, round(px_per_mm / 8)), cv2.LINE_AA)
    written = []
    for number, items in enumerate(pages):
        canvas = np.full((round(page_mm[1] * px_per_mm), round(page_mm[0] * px_per_mm)), 255, np.uint8)
        for it in items:
            w, h = round(it.w_mm * px_per_mm), round(it.h_mm * px_per_mm)
            x, y = round(it.x_mm * px_per_mm), round(it.y_mm * px_per_mm)
            canvas[y:y + h, x:x + w] = cv2.resize(it.image, (w, h), interpolation=cv2.INTER_NEAREST)
            if it.ring_mm:
                centre = (round((it.x_mm + it.w_mm / 2) * px_per_mm), round((it.y_mm + it.h_mm / 2) * px_per_mm))
                cv2.circle(canvas, centre, round(it.ring_mm / 2 * px_per_mm), round(255 * CUT_GREY),
                           max(1, round(CUT_LINE_MM * px_per_mm)), cv2.LINE_AA)
            for k, line in enumerate(it.label.split("\n")):
                text(line, it.x_mm + it.label_dx_mm, it.y_mm + it.h_mm + it.label_drop_mm + k * LINE_MM,
                     len(line) * CHAR_MM)
        if with_bar:
            for bx, by, bw, bh in check_bar(page_mm):
                canvas[round(by * px_per_mm):round((by + bh) * px_per_mm), round(bx * px_per_mm):round((bx + bw) * px_per_mm)] = 0
            text(CHECK_SAID, MARGIN_MM, page_mm[1] - MARGIN_MM - CHECK_AREA_MM + 8.5, page_mm[0] - 2 * MARGIN_MM)
        out = path if len(pages) == 1 else path.with_name(f"{path.stem}-{number + 1}{path.suffix}")
        ok, data = cv2.imencode(".png", canvas)
        if not ok:
            raise MarkerError(f"could not encode {out}")
        try:
            out.write_bytes(_png_with_dpi(data.tobytes(), dpi))
        except OSError as exc:
            raise MarkerError(f"cannot write {out}: {exc.strerror or exc}") from None
        written.append(out)
    return written


def _png_with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk so printers and viewers know the true size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4
    return png[:ihdr_end] + chunk + png[ihdr_end:]


# ----------------------------------------------------------------------------- PDF
def _circle(cx: float, cy: float, r: float) -> str:
    """A cut line in PDF operators: a thin light grey circle, four Bezier quarters (PDF has no circle)."""
    k = 0.5523 * r  # the control points' distance that makes a quarter circle
    return (f"q {CUT_GREY:g} G {CUT_LINE_MM * 72 / 25.4:.3f} w {cx + r:.3f} {cy:.3f} m "
            f"{cx + r:.3f} {cy + k:.3f} {cx + k:.3f} {cy + r:.3f} {cx:.3f} {cy + r:.3f} c "
            f"{cx - k:.3f} {cy + r:.3f} {cx - r:.3f} {cy + k:.3f} {cx - r:.3f} {cy:.3f} c "
            f"{cx - r:.3f} {cy - k:.3f} {cx - k:.3f} {cy - r:.3f} {cx:.3f} {cy - r:.3f} c "
            f"{cx + k:.3f} {cy - r:.3f} {cx + r:.3f} {cy - k:.3f} {cx + r:.3f} {cy:.3f} c S Q")


def _pdf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _write_pdf(path: Path, pages: list[list[PageImage]], page_mm: tuple[float, float], with_bar: bool = False) -> None:
    """A small PDF written by hand: one image object per distinct picture, placed in millimetres."""
    pt = 72.0 / 25.4
    objects: list[bytes] = []

    def add(obj: bytes) -> int:
        objects.append(obj)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    page_ids = []
    image_ids: dict[str, int] = {}
    for it in (it for items in pages for it in items):
        if it.key in image_ids:
            continue
        h, w = it.image.shape[:2]
        data = zlib.compress(np.ascontiguousarray(it.image, np.uint8).tobytes())
        image_ids[it.key] = add(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Interpolate false /Filter /FlateDecode /Length %d >>\nstream\n" % (w, h, len(data))
            + data + b"\nendstream")
    contents_ids = []
    for items in pages:
        ops = []
        for it in items:
            w, h = it.w_mm * pt, it.h_mm * pt
            x = it.x_mm * pt
            y = (page_mm[1] - it.y_mm - it.h_mm) * pt
            ops.append(f"q {w:.3f} 0 0 {h:.3f} {x:.3f} {y:.3f} cm /{it.key} Do Q")
            if it.ring_mm:
                ops.append(_circle(x + w / 2, y + h / 2, it.ring_mm / 2 * pt))
            lines = " T* ".join(f"({_pdf_text(line)}) Tj" for line in it.label.split("\n"))
            ops.append(f"BT /F1 {LABEL_PT:g} Tf {LINE_MM * pt:.3f} TL {x + it.label_dx_mm * pt:.3f} "
                       f"{y - it.label_drop_mm * pt:.3f} Td {lines} ET")
        if with_bar:
            ops += [f"0 g {bx * pt:.3f} {(page_mm[1] - by - bh) * pt:.3f} {bw * pt:.3f} {bh * pt:.3f} re f"
                    for bx, by, bw, bh in check_bar(page_mm)]
            ops.append(f"BT /F1 8 Tf {MARGIN_MM * pt:.3f} {(MARGIN_MM + CHECK_AREA_MM - 8.5) * pt:.3f} Td "
                       f"({_pdf_text(CHECK_SAID)}) Tj ET")
        stream = "\n".join(ops).encode("latin-1", "replace")
        contents_ids.append(add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"))
    parent_id = len(objects) + len(pages) + 1
    xobjects = " ".join(f"/{key} {oid} 0 R" for key, oid in image_ids.items())
    for number in range(len(pages)):
        page_ids.append(add(
            (f"<< /Type /Page /Parent {parent_id} 0 R /MediaBox [0 0 {page_mm[0] * pt:.2f} {page_mm[1] * pt:.2f}] "
             f"/Resources << /Font << /F1 {font} 0 R >> /XObject << {xobjects} >> >> "
             f"/Contents {contents_ids[number]} 0 R >>").encode()))
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    assert add(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode()) == parent_id
    catalog = add(f"<< /Type /Catalog /Pages {parent_id} 0 R >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    try:
        path.write_bytes(bytes(out))
    except OSError as exc:
        raise MarkerError(f"cannot write {path}: {exc.strerror or exc}") from None
