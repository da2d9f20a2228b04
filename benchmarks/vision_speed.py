"""Benchmark: frame -> observation against stock OpenCV ArUco detection on the same frames.

Renders N different 1280x720 frames of random game positions on the synthetic table (varied
tilt, light, blur, noise, JPEG; the camera fixed per run as at a real table) and times, in the
same run and on the same frames:

* stock:        cv2.aruco.ArucoDetector(default parameters).detectMarkers
* independent:  BoardDetector.detect (what ``fog-companion detect`` does per image)
* changed:      StreamObserver.observe on a stream where every frame differs (a piece moved)
* idle:         StreamObserver.observe on the same frame repeated (nothing moved)

and prints each mean and its ratio to stock, plus recall and wrong assignments.

    python benchmarks/vision_speed.py [--frames 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.games.fog.board import Board  # noqa: E402
from companion.games.fog.layout import board_layout  # noqa: E402
from companion.games.fog.setup import new_game  # noqa: E402
from vision.detect import BoardDetector  # noqa: E402
from vision.render import Effects, make_pose, render  # noqa: E402
from vision.stabilise import StreamObserver  # noqa: E402


def frames(board: Board, count: int, seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    pose = make_pose(board_layout(board), float(rng.uniform(5, 30)), float(rng.uniform(0, 360)), float(rng.uniform(-15, 15)),
                     16.5)
    state = new_game(board, 4, seed=seed)
    placement = {c: list(p) for c, p in state.placement.items()}
    out = []
    # one camera, one lamp: light and blur stay, sensor noise differs from frame to frame
    eff = Effects(blur_sigma=float(rng.uniform(0, 0.8)), noise_sigma=float(rng.uniform(0, 4)),
                  light_low=float(rng.uniform(0.6, 1.0)), light_angle=float(rng.uniform(0, 6.28)))
    for k in range(count):
        # move one islander to a free neighbouring beach hex, as a player would
        cells = [c for c, ps in placement.items() if ps and ps[0] in board.islanders]
        src = cells[int(rng.integers(len(cells)))]
        free = [n for n in board.neighbours(src) if board.cells[n].kind == "beach" and not placement.get(n)]
        if free:
            dst = free[int(rng.integers(len(free)))]
            placement[dst] = placement.pop(src)
        r = render(board_layout(board), {c: tuple(p) for c, p in placement.items() if p}, pose, eff, seed=k)
        out.append(r)
    return out


def accuracy(observe, rendered):  # type: ignore[no-untyped-def]
    """(fully visible pieces found on their cell, fully visible pieces, pieces put on a wrong cell)."""
    found = visible = wrong = 0
    for r in rendered:
        obs = observe(r.frame)
        visible += len(r.visible)
        found += sum(1 for p in r.visible if obs.pieces.get(p) == r.truth[p])
        wrong += sum(1 for p, c in obs.pieces.items() if r.truth.get(p) != c)
    return found, visible, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    board = Board.standard()
    rendered = frames(board, args.frames, args.seed)
    assert all(r.frame.shape[:2] == (720, 1280) for r in rendered), "frames must be 1280x720"
    grays = [cv2.cvtColor(r.frame, cv2.COLOR_BGR2GRAY) for r in rendered]
    stock = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100))
    detector = BoardDetector(board_layout(board))
    observer = StreamObserver(BoardDetector(board_layout(board)))
    observer.observe(rendered[0].frame)  # the first frame finds the board

    def timed(fn, items):  # type: ignore[no-untyped-def]
        ms = []
        for item in items:
            start = time.perf_counter()
            fn(item)
            ms.append((time.perf_counter() - start) * 1000)
        return statistics.mean(ms)

    t_stock = timed(lambda g: stock.detectMarkers(g), grays)
    t_indep = timed(lambda r: detector.detect(r.frame), rendered)
    t_changed = timed(lambda r: observer.observe(r.frame), rendered[1:])
    s_found, s_visible, s_wrong = accuracy(StreamObserver(BoardDetector(board_layout(board))).observe, rendered)
    t_idle = timed(lambda _: observer.observe(rendered[-1].frame), range(len(rendered)))
    found, visible, wrong = accuracy(detector.detect, rendered)
    print(f"{len(rendered)} frames of 1280x720, piece markers about 16 px:")
    print(f"  stock detectMarkers      {t_stock:6.2f} ms")
    print(f"  detect (independent)     {t_indep:6.2f} ms   {t_indep / t_stock:.2f}x stock")
    print(f"  stream, changed frame    {t_changed:6.2f} ms   {t_changed / t_stock:.2f}x stock")
    print(f"  stream, idle board       {t_idle:6.2f} ms   {t_idle / t_stock:.2f}x stock")
    print(f"  detect: recall {found / visible:.3f} of fully visible pieces, wrong cells {wrong}")
    print(f"  stream: recall {s_found / s_visible:.3f} of fully visible pieces, wrong cells {s_wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
