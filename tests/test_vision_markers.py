"""Sticker sheets: every marker prints at true size and reads back with the right id."""

from __future__ import annotations

import re
import struct

import cv2

from vision.markers import sheet_items, write_sheet
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
    assert b"(blue leader \xb7 pushes  #10) Tj" in pdf  # the piece as players call it, and its marker's number
    assert b"q 0.75 G" not in pdf  # the FOG's tokens are cut square: no round cut line on its sheet
