"""How far a lens's distortion moves pieces on the board, with and without a lens calibration.

For each barrel distortion k1 (0 is a perfect pinhole) and each camera set-up, the board with all
45 pieces is drawn from 8 poses by one camera (tilt up to 20 degrees, 85 cm), a calibration is
made from 15 drawn views of the ChArUco sheet through the same lens, and ``BoardDetector``
reads every picture without and with it. Printed per row: the position error of the placed
pieces (median / max, mm, against where each marker really is), the share of fully visible
pieces placed on a cell, and pieces on a wrong cell. A piece 0.75 of a hex's inner radius off
its cell's centre is no longer placed, so the error eats into the room left for careless
placement (docs/vision.md).

    python benchmarks/lens_accuracy.py [--poses 8]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from companion.games import Layout  # noqa: E402
from companion.games.fog.board import Board  # noqa: E402
from companion.games.fog.layout import board_layout  # noqa: E402
from companion.games.fog.setup import new_game  # noqa: E402
from vision.detect import BoardDetector  # noqa: E402
from vision.lens import Lens, LensCalibrator  # noqa: E402
from vision.render import Effects, look_pose, render, sheet_views  # noqa: E402

CAMERAS = {  # frame size, focal length in pixels: piece markers of about 16 and 30 px from 85 cm
    "1280x720": ((1280, 720), 1000.0),
    "2304x1296": ((2304, 1296), 1800.0),
}


def read(layout: Layout, placement: dict[str, tuple[str, ...]], lens: Lens | None, size: tuple[int, int],
         focal: float, k1: float, poses: int) -> tuple[list[float], int, int, int]:
    detector = BoardDetector(layout, lens=lens)
    errors, wrong, placed, visible = [], 0, 0, 0
    w, h = layout.size_mm
    for k in range(poses):
        rng = np.random.default_rng(100 + k)
        pose = look_pose(size, focal, (w / 2 + rng.uniform(-20, 20), h / 2 + rng.uniform(-20, 20)), 850.0,
                         rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(-8, 8), (k1, 0, 0, 0, 0))
        shot = render(layout, placement, pose, Effects(noise_sigma=2.0), seed=k)
        obs = detector.detect(shot.frame)
        visible += len(shot.visible)
        misplaced, bad = shot.misread(obs.pieces, obs.poses)
        errors, wrong, placed = errors + misplaced, wrong + bad, placed + len(obs.pieces)
    return errors, wrong, placed, visible


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--poses", type=int, default=8)
    args = parser.parse_args()
    board = Board.standard()
    layout = board_layout(board)
    placement = new_game(board, 4, seed=3).placement
    print(f"{'camera':>10} {'k1':>6} | {'no calibration: err mm':>22} {'placed':>7} {'wrong':>5} | "
          f"{'calibrated: err mm':>18} {'placed':>7} {'wrong':>5} | corner shift")
    for name, (size, focal) in CAMERAS.items():
        for k1 in (0.0, -0.05, -0.10, -0.15, -0.25):
            calibrator = LensCalibrator()
            for frame in sheet_views(15, size, focal, (k1, 0, 0, 0, 0)):
                calibrator.add(frame)
            lens = calibrator.calibrate()
            row = [f"{name:>10} {k1:>6.2f}"]
            for use in (None, lens):
                errors, wrong, placed, visible = read(layout, placement, use, size, focal, k1, args.poses)
                row.append(f"{np.median(errors):>8.1f} / {max(errors):>4.1f} mm {'':>7} {placed / visible:>7.1%} "
                           f"{wrong:>5}")
            print(" | ".join(row) + f" | {lens.edge_shift_px():.0f} px", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
