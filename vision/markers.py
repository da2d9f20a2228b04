"""ArUco markers: the dictionary, marker images, and printable sticker sheets at true size.

Every marker the companion reads (4 board fiducials, 32 islanders, 15 obstacles, the FOG and
turn markers) comes from one dictionary named in the board file. ``fog-companion markers -o
sheet.pdf`` prints them at their real size in millimetres, each with a white quiet zone and a
label, so a user can stick them on the tokens and the board. A piece with a round top of a given
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
LABEL_MM = 4.0
GAP_MM = 3.0
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
    items = [SheetItem(int(f["id"]), f"board corner {i + 1}", float(f["size_mm"]))
             for i, f in enumerate(board.fiducials)]
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


def layout(items: list[SheetItem]) -> list[Placed]:
    """Shelf packing onto A4 pages, left to right, top to bottom."""
    out: list[Placed] = []
    page, x, y, shelf = 0, MARGIN_MM, MARGIN_MM, 0.0
    for item in items:
        w = max(item.size_mm + 2 * QUIET_MM, item.round_mm + 2 * CUT_LINE_MM)  # the cut circle fits in the box
        h = w + LABEL_MM
        if x + w > PAGE_MM[0] - MARGIN_MM:
            x, y, shelf = MARGIN_MM, y + shelf + GAP_MM, 0.0
        if y + h > PAGE_MM[1] - MARGIN_MM:
            page, x, y, shelf = page + 1, MARGIN_MM, MARGIN_MM, 0.0
        inset = (w - item.size_mm) / 2  # the marker in the middle of its box (and of its cut circle)
        out.append(Placed(item, page, x + inset, y + inset))
        x += w + GAP_MM
        shelf = max(shelf, h)
    return out


def write_sheet(board: Layout, path: Path | str, dpi: int = 300) -> list[Path]:
    """Write the sticker sheet(s) as PDF (one file, several pages) or PNG (one file per page)."""
    dict_ = dictionary(board.marker_dictionary)
    return write_pages(Path(path), _placed_pages(dict_, layout(sheet_items(board))), dpi=dpi)


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
    label: str = ""
    ring_mm: float = 0.0  # a circle to cut along, this wide, centred on the image (0: none)

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
                                       f"{p.item.label}  #{p.item.marker}", p.item.round_mm))
    return pages


def write_pages(path: Path, pages: list[list[PageImage]], page_mm: tuple[float, float] = PAGE_MM,
                dpi: int = 300) -> list[Path]:
    """The pages as one PDF, or one PNG per page (with its true size recorded for printing)."""
    if path.suffix.lower() == ".pdf":
        _write_pdf(path, pages, page_mm)
        return [path]
    if path.suffix.lower() == ".png":
        return _write_pngs(path, pages, page_mm, dpi)
    raise MarkerError(f"{path}: the sheet is written as .pdf or .png")


# ----------------------------------------------------------------------------- PNG
def _write_pngs(path: Path, pages: list[list[PageImage]], page_mm: tuple[float, float], dpi: int) -> list[Path]:
    px_per_mm = dpi / 25.4
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
            cv2.putText(canvas, it.label, (x - round(QUIET_MM * px_per_mm * 0.8), y + h + round(it.label_drop_mm * px_per_mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.035 * px_per_mm, 0, max(1, round(px_per_mm / 8)), cv2.LINE_AA)
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


def _write_pdf(path: Path, pages: list[list[PageImage]], page_mm: tuple[float, float]) -> None:
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
            label = it.label.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            if it.ring_mm:
                ops.append(_circle(x + w / 2, y + h / 2, it.ring_mm / 2 * pt))
            ops.append(f"BT /F1 7 Tf {x - QUIET_MM * pt * 0.8:.3f} {y - it.label_drop_mm * pt:.3f} Td ({label}) Tj ET")
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
