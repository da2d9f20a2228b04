"""Benchmark: how well and how fast the camera reads a desert laid at setup from the mapboards' markers.

For N deserts (default 40) laid from random seeds with 2 to 6 players (``random_arrangement``: any
board turned any way, edge to edge), the simulated table is drawn from a random camera place (tilt
up to ``--tilt`` degrees, any turn, markers 18-22 px as the simulated camera has them, its blur,
noise and light) and read by ``vision/assembly.py``. It prints how many deserts were read as laid
(the same arrangement, whichever way round), how many were refused (with the reason), how far the
worst mapboard lay from its snapped place (mm, and degrees off its quarter turn) against the
tolerances that refuse one, and the time a reading takes (p50 and max, in ms).

    python benchmarks/assembly_read.py [--deserts 40] [--tilt 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.games import Laid, canonical, get_game  # noqa: E402
from companion.games.desert_survivors.board import random_arrangement  # noqa: E402
from companion.games.desert_survivors.pieces import groups_for  # noqa: E402
from vision import assembly  # noqa: E402
from vision.render import Effects, random_pose, render  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deserts", type=int, default=40)
    parser.add_argument("--tilt", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("desert-survivors")
    mapboards = game.assembly()
    assert mapboards is not None
    rng = np.random.default_rng(args.seed)
    poses: list[list[assembly._Pose]] = []
    measured = assembly._poses

    def spy(*a: object) -> list[assembly._Pose]:
        got = measured(*a)  # type: ignore[arg-type]
        poses.append(got)
        return got

    assembly._poses = spy  # type: ignore[assignment]  # the benchmark looks at the final fit's poses
    right = refused = wrong = 0
    reasons: list[str] = []
    off_mm: list[float] = []
    off_deg: list[float] = []
    ms: list[float] = []
    for k in range(args.deserts):
        players = int(rng.integers(2, 7))
        laid = random_arrangement(len(groups_for(players)), args.seed * 1000 + k)
        table = game.layout(game.new_game(players, args.seed * 1000 + k))
        pose = random_pose(table, rng, max_tilt=args.tilt, marker_px=(18.0, 22.0))
        frame = render(table, {}, pose, Effects(blur_sigma=0.4, noise_sigma=2.0, light_low=0.85), seed=k).frame
        poses.clear()
        start = time.perf_counter()
        try:
            read = assembly.read_frame(frame, mapboards)
        except assembly.AssemblyError as exc:
            refused += 1
            reasons.append(str(exc))
            continue
        finally:
            ms.append((time.perf_counter() - start) * 1000)
        truth = canonical(mapboards, [Laid(str(p.board), p.x, p.y, p.turn) for p in laid])
        if canonical(mapboards, read) == truth:
            right += 1
        else:
            wrong += 1
        off_mm.append(max(p.off_cells for p in poses[-1]) * mapboards.cell_mm)
        off_deg.append(max(p.off_deg for p in poses[-1]))
    print(f"{args.deserts} deserts (2-6 players, boards turned any way), camera tilt up to {args.tilt:g}°:")
    print(f"  read as laid {right}, read wrong {wrong}, refused {refused}")
    for reason in reasons:
        print(f"    refused: {reason}")
    if off_mm:
        print(f"  worst mapboard off its snapped place: {max(off_mm):.1f} mm (median of the worst per desert "
              f"{statistics.median(off_mm):.1f} mm; refused beyond {assembly.GRID_TOLERANCE * mapboards.cell_mm:.1f} mm)")
        print(f"  worst turn off a quarter turn: {max(off_deg):.2f}° (refused beyond {assembly.TURN_TOLERANCE_DEG:g}°)")
    print(f"  time per reading: p50 {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
