"""Draw the panel's icons: a light hexagon carrying a marker, on the panel's dark teal.

Writes ``web_ui/static/icon.svg`` (the tab icon), ``icon-180.png`` (a phone's home screen),
``icon-192.png`` and ``icon-512.png`` (the web app manifest) and ``favicon.ico`` (browsers that
ask for it by that name). The pictures are computed here (numpy, which the companion needs
anyway) and written as PNG with zlib, so the same files come out on any machine; they are
committed, and this script is run again only to change them:

    python tools/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import numpy as np

STATIC = Path(__file__).resolve().parent.parent / "web_ui" / "static"
BACKGROUND = (0x1F, 0x4E, 0x5F)
HEX = (0xF2, 0xEF, 0xE6)
INK = (0x14, 0x14, 0x14)
HEX_RADIUS = 0.36  # of the icon's width; the hexagon stays inside the 80 % a phone's mask may keep
MARKER = 0.30  # the marker's side
BITS = ((1, 0, 1, 1), (0, 1, 0, 0), (1, 1, 0, 1), (0, 0, 1, 0))  # the inner 4x4 cells (1: light)
SUPERSAMPLE = 4


def _hexagon() -> list[tuple[float, float]]:
    """A pointy-top hexagon round the centre, in units of the icon's width."""
    return [(0.5 + HEX_RADIUS * math.cos(math.radians(90 + 60 * k)),
             0.5 + HEX_RADIUS * math.sin(math.radians(90 + 60 * k))) for k in range(6)]


def _inside(points: list[tuple[float, float]], x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which of the sample points lie inside a convex polygon given counter-clockwise or clockwise."""
    signs = []
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
        signs.append((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) >= 0)
    return np.logical_and.reduce(signs) | np.logical_and.reduce([~s for s in signs])


def picture(size: int) -> np.ndarray:
    """The icon at ``size`` x ``size`` pixels (RGB), edges smoothed by averaging sub-pixel samples."""
    n = size * SUPERSAMPLE
    centres = (np.arange(n) + 0.5) / n
    x, y = np.meshgrid(centres, centres)
    out = np.empty((n, n, 3), float)
    out[:] = BACKGROUND
    out[_inside(_hexagon(), x, y)] = HEX
    left = 0.5 - MARKER / 2
    cell = MARKER / 6
    col, row = np.floor((x - left) / cell).astype(int), np.floor((y - left) / cell).astype(int)
    in_marker = (col >= 0) & (col < 6) & (row >= 0) & (row < 6)
    light = np.zeros_like(in_marker)
    for r, bits in enumerate(BITS):
        for c, bit in enumerate(bits):
            if bit:
                light |= (row == r + 1) & (col == c + 1)
    out[in_marker & ~light] = INK
    out[in_marker & light] = HEX
    small = out.reshape(size, SUPERSAMPLE, size, SUPERSAMPLE, 3).mean(axis=(1, 3))
    return np.clip(np.rint(small), 0, 255).astype(np.uint8)


def png(pixels: np.ndarray) -> bytes:
    """An RGB picture as PNG bytes (filter 0 on every row: the files are small either way)."""
    height, width, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[r].tobytes() for r in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ico(png_bytes: bytes, size: int) -> bytes:
    """An .ico file holding one PNG image (every browser that asks for /favicon.ico reads these)."""
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png_bytes), 6 + 16)
    return struct.pack("<HHH", 0, 1, 1) + entry + png_bytes


def svg() -> str:
    """The same icon as SVG, with rounded corners for a browser tab."""
    points = " ".join(f"{x * 64:.2f},{y * 64:.2f}" for x, y in _hexagon())
    left, cell = (0.5 - MARKER / 2) * 64, MARKER / 6 * 64
    dark = [f'<rect x="{left:.2f}" y="{left:.2f}" width="{cell * 6:.2f}" height="{cell * 6:.2f}" fill="#141414"/>']
    for r, bits in enumerate(BITS):
        for c, bit in enumerate(bits):
            if bit:
                dark.append(f'<rect x="{left + (c + 1) * cell:.2f}" y="{left + (r + 1) * cell:.2f}" '
                            f'width="{cell:.2f}" height="{cell:.2f}" fill="#f2efe6"/>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            '<rect width="64" height="64" rx="12" fill="#1f4e5f"/>'
            f'<polygon points="{points}" fill="#f2efe6"/>' + "".join(dark) + "</svg>\n")


def main() -> None:
    STATIC.mkdir(parents=True, exist_ok=True)
    (STATIC / "icon.svg").write_text(svg(), encoding="utf-8")
    for size in (180, 192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(picture(size)))
    (STATIC / "favicon.ico").write_bytes(ico(png(picture(32)), 32))
    print(f"icons written to {STATIC}")


if __name__ == "__main__":
    main()
