"""Benchmark: how far the camera sees a tall piece's marker from where the piece stands, and how
far from it the detector reads it once it has moved the marker back by the piece's height.

A marker on a tall piece (the tile race's wall stand: a 40 mm tile on its side, the marker on its
cap) is seen shifted away from the point under the camera by r * H / (D - H): r its distance from
that point, H its height, D the camera's. This draws stands on edges from the grid's middle to its
outer edges, at the token height and at a cap's height, seen from straight above the board at the
camera heights the README gives (2304x1296, the field of view of each Camera Module 3), reads them
with the camera's height given (``[camera] above_board_mm``), and prints each stand's shift as seen
(the marker mapped as though it lay on the board), the formula's, the residual after the
correction, and what the detector read, against an edge's reach (ON_CELL of the board's snap_mm).

    python benchmarks/tall_piece_shift.py [--height 40]
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import get_game  # noqa: E402
from vision.detect import ON_CELL, BoardDetector, transform_points  # noqa: E402
from vision.render import look_pose, render  # noqa: E402

EDGES = ("D4|D5", "B3|C3", "G1|G2", "F7|G7", "A6|A7", "A1|B1")  # from the middle to the outer edges
CAMERAS = (("Camera Module 3, 80 cm", 66.0, 800.0), ("Camera Module 3 Wide, 45 cm", 102.0, 450.0))
FRAME = (2304, 1296)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--height", type=float, default=40.0, help="the tall piece's marker above the board, mm")
    args = ap.parse_args()
    layout = get_game("tile-race").layout()
    reach = ON_CELL * layout.snap_mm
    print(f"an edge's reach: {reach:.1f} mm from its centre (a quarter: {reach / 4:.1f} mm)")
    middle = (layout.size_mm[0] / 2, layout.size_mm[1] / 2)
    placement = {edge: [f"W{k + 1:02d}"] for k, edge in enumerate(EDGES)}
    for name, fov, distance in CAMERAS:
        focal = FRAME[0] / 2 / math.tan(math.radians(fov / 2))
        pose = look_pose(FRAME, focal, middle, distance, 0.0, 0.0, 0.0)
        for height in (layout.piece_height_mm, args.height):
            tall = replace(layout, pieces={p: replace(piece, height_mm=height) for p, piece in layout.pieces.items()})
            shot = render(tall, placement, pose, seed=1)
            seen = BoardDetector(tall, above_mm=distance).detect(shot.frame)
            corners, ids = BoardDetector(tall).markers(shot.frame)
            at_marker = {int(i): c.reshape(4, 2).mean(axis=0) for c, i in zip(corners, ids.ravel(), strict=True)}
            print(f"\n{name}, marker {height:g} mm above the board ({seen.camera.describe() if seen.camera else '-'})")
            print(f"{'edge':8} {'from under the camera':>22} {'shift':>7} {'formula':>8} {'residual':>9}  read")
            for piece, edge in shot.truth.items():
                x, y = shot.positions[piece]
                r = math.hypot(x - middle[0], y - middle[1])
                marker = layout.pieces[piece].marker
                shift = "   -   "
                if marker in at_marker and seen.homography is not None:
                    sx, sy = transform_points(seen.homography, at_marker[marker][None, :])[0]
                    shift = f"{math.hypot(sx - x, sy - y):5.1f}mm"
                lost = next((u for u in seen.unplaced if u["id"] == piece), None)
                at = seen.poses[piece][:2] if piece in seen.poses else lost["board_mm"] if lost else None
                residual = f"{math.hypot(at[0] - x, at[1] - y):6.1f}mm" if at else "    -   "
                read = seen.pieces.get(piece) or (f"{lost['reason']} {lost.get('cells', '')}" if lost else "not found")
                print(f"{edge:8} {r:20.0f}mm {shift:>7} {r * height / (distance - height):6.1f}mm {residual:>9}  {read}")


if __name__ == "__main__":
    main()
