"""Sticker sheets: every marker prints at true size and reads back with the right id."""

from __future__ import annotations

import re
import struct

import cv2

from companion.games import get_game, names
from vision.markers import CHAR_MM, CHECK_MM, LINE_MM, PAGE_MM, layout, sheet_items, write_sheet
from tests.tables import BOARD, LAYOUT


def test_the_png_sheet_holds_every_marker_readable_with_its_id(tmp_path):
    [path] = write_sheet(LAYOUT, tmp_path / "sheet.png", dpi=300)
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100))
    corners, ids, _ = detector.detectMarkers(image)
    wanted = sorted(item.marker for item in sheet_items(LAYOUT))
    assert sorted(ids.ravel().tolist()) == wanted
    # true size: a 14 mm islander marker is 14 / 25.4 * 300 = 165 px wide
    side = {int(i): abs(c[0][1][0] - c[0][0][0]) for c, i in zip(corners, ids.ravel())}
    assert abs(side[10] - 14 / 25.4 * 300) < 3 and abs(side[0] - 30 / 25.4 * 300) < 3
    data = path.read_bytes()
    at = data.index(b"pHYs")
    ppm = struct.unpack(">I", data[at + 4:at + 8])[0]
    assert round(ppm * 0.0254) == 300


def test_the_pdf_sheet_places_each_marker_at_its_size_in_millimetres(tmp_path):
    [path] = write_sheet(LAYOUT, tmp_path / "sheet.pdf")
    pdf = path.read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Subtype /Image") == len(sheet_items(LAYOUT))
    # the islander markers are drawn 14 mm = 39.685 pt wide
    sizes = {float(m) for m in re.findall(rb"q ([0-9.]+) 0 0 [0-9.]+ [0-9.]+ [0-9.]+ cm", pdf)}
    assert any(abs(s - 14 * 72 / 25.4) < 0.01 for s in sizes) and any(abs(s - 30 * 72 / 25.4) < 0.01 for s in sizes)
    assert b"(blue leader) Tj T* (\xb7 pushes #10) Tj" in pdf  # the piece as players call it, and its marker's number
    assert b"q 0.75 G" not in pdf  # the FOG's tokens are cut square: no round cut line on its sheet


def test_every_page_of_the_pdf_sheet_carries_a_check_bar_of_a_stated_length(tmp_path):
    """A sheet printed "fit to page" reads every distance wrong: each page has a bar 100 mm long from
    the outer edge of its first tick to that of its last, and says so beside it."""
    [path] = write_sheet(get_game("desert-survivors").layout(), tmp_path / "sheet.pdf")
    pdf = path.read_bytes()
    pages = pdf.count(b"/Type /Page ")
    assert pages > 1
    rects = [tuple(map(float, r)) for r in re.findall(rb"0 g ([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9.]+) re f", pdf)]
    bars = [r for r in rects if abs(r[2] - CHECK_MM * 72 / 25.4) < 0.01]
    assert len(bars) == pages, rects[:3]
    ticks = [r for r in rects if r[2] < 1]
    per_page = len(ticks) // pages
    left = min(t[0] for t in ticks[:per_page])
    right = max(t[0] + t[2] for t in ticks[:per_page])
    assert abs((right - left) * 25.4 / 72 - CHECK_MM) < 0.01 and per_page == 11  # a tick every 10 mm
    assert pdf.count(b"(this bar is 100 mm long: measure it with a ruler; if it is not, print again at 100 %") == pages


def test_no_sticker_label_runs_into_another_in_any_game():
    """Each label is printed in lines that fit its sticker's box, so two neighbours never read as one
    ("4red-s1"), and nothing is printed over the check bar at the foot of the page."""
    for name in names():
        placed = layout(sheet_items(get_game(name).layout()))
        boxes = []
        for p in placed:
            left = p.x_mm - p.inset_mm
            width = p.item.size_mm + 2 * p.inset_mm
            assert all(len(line) * CHAR_MM <= width + 1e-6 for line in p.lines), (name, p.lines)
            top = p.y_mm - p.inset_mm
            boxes.append((p.page, left, top, left + width, top + width + len(p.lines) * LINE_MM))
            assert boxes[-1][4] <= PAGE_MM[1] - 20, (name, p)
        for k, a in enumerate(boxes):
            for b in boxes[k + 1:]:
                assert a[0] != b[0] or a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2], (name, a, b)
