"""Benchmark: frame -> observation against stock OpenCV ArUco detection on the same frames.

At each of 1280x720, 1920x1080 and 2304x1296 (the Camera Module 3's binned mode) renders N
different frames of random game positions on the synthetic table, the whole board in view
(piece markers about 16, 25 and 30 px; varied tilt, light, blur, noise; the camera fixed per
run as at a real table), and times, in the same run and on the same frames:

* stock:        cv2.aruco.ArucoDetector(default parameters).detectMarkers
* independent:  BoardDetector.detect (what ``fog-companion detect`` does per image)
* changed:      StreamObserver.observe on a stream where every frame differs (a piece moved)
* idle:         StreamObserver.observe on the same frame repeated (nothing moved)

and prints each mean and its ratio to stock, recall (fully visible pieces found; for stock,
their markers found) and wrong cells, and what the camera thread costs at 15 frames a second
(a Raspberry Pi 4 core is about 4x slower than this machine's).

    python benchmarks/vision_speed.py [--frames 40] [--seed 1]
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
from vision.stabilise import REFRESH_EVERY, StreamObserver  # noqa: E402

SIZES = ((1280, 720), (1920, 1080), (2304, 1296))
PI4_SLOWER = 4.0


def frames(board: Board, count: int, seed: int, size: tuple[int, int] = SIZES[0]):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    pose = make_pose(board_layout(board), float(rng.uniform(5, 30)), float(rng.uniform(0, 360)), float(rng.uniform(-15, 15)),
                     16.5 * size[0] / 1280, frame_size=size)
    state = new_game(board, 4, seed=seed)
    placement = {c: list(p) for c, p in state.placement.items()}
    out = []
    # one camera, one lamp: light and blur stay, sensor noise differs from frame to frame
    # (tokens lie as they were put down - the same render seed - and only a moved one lies anew;
    # the sensor noise is drawn afresh for every frame)
    eff = Effects(blur_sigma=float(rng.uniform(0, 0.8)), light_low=float(rng.uniform(0.6, 1.0)),
                  light_angle=float(rng.uniform(0, 6.28)))
    noise = float(rng.uniform(0, 4))
    for k in range(count):
        # move one islander to a free neighbouring beach hex, as a player would
        cells = [c for c, ps in placement.items() if ps and ps[0] in board.islanders]
        src = cells[int(rng.integers(len(cells)))]
        free = [n for n in board.neighbours(src) if board.cells[n].kind == "beach" and not placement.get(n)]
        if free:
            dst = free[int(rng.integers(len(free)))]
            placement[dst] = placement.pop(src)
        r = render(board_layout(board), {c: tuple(p) for c, p in placement.items() if p}, pose, eff, seed=seed)
        grain = rng.normal(0, noise, r.frame.shape)
        r.frame[...] = np.clip(r.frame.astype(np.float32) + grain, 0, 255).astype(np.uint8)
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


def stock_recall(stock: cv2.aruco.ArucoDetector, grays, rendered, board) -> float:  # type: ignore[no-untyped-def]
    layout = board_layout(board)
    found = visible = 0
    for gray, r in zip(grays, rendered, strict=True):
        _c, ids, _ = stock.detectMarkers(gray)
        got = set() if ids is None else {int(i) for i in ids.ravel()}
        visible += len(r.visible)
        found += sum(1 for p in r.visible if layout.pieces[p].marker in got)
    return found / max(1, visible)


def timed(fn, items) -> float:  # type: ignore[no-untyped-def]
    ms = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        ms.append((time.perf_counter() - start) * 1000)
    return statistics.mean(ms)


def one_size(board: Board, size: tuple[int, int], count: int, seed: int) -> None:
    rendered = frames(board, count, seed, size)
    assert all(r.frame.shape[:2] == (size[1], size[0]) for r in rendered), f"frames must be {size}"
    grays = [cv2.cvtColor(r.frame, cv2.COLOR_BGR2GRAY) for r in rendered]
    stock = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100))
    detector = BoardDetector(board_layout(board))
    observer = StreamObserver(BoardDetector(board_layout(board)))
    observer.observe(rendered[0].frame)  # the first frame finds the board
    t_stock = timed(lambda g: stock.detectMarkers(g), grays)
    t_indep = timed(lambda r: detector.detect(r.frame), rendered)
    t_changed = timed(lambda r: observer.observe(r.frame), rendered[1:])
    s_found, s_visible, s_wrong = accuracy(StreamObserver(BoardDetector(board_layout(board))).observe, rendered)
    for _ in range(REFRESH_EVERY + 1):  # the one full look that follows a spell of region searches
        observer.observe(rendered[-1].frame)
    t_idle = timed(lambda _: observer.observe(rendered[-1].frame), range(3 * len(rendered)))
    found, visible, wrong = accuracy(detector.detect, rendered)
    r_stock = stock_recall(stock, grays, rendered, board)
    print(f"{len(rendered)} frames of {size[0]}x{size[1]}, piece markers about {16.5 * size[0] / 1280:.0f} px:")
    print(f"  stock detectMarkers      {t_stock:6.2f} ms            recall {r_stock:.3f}")
    print(f"  detect (independent)     {t_indep:6.2f} ms   {t_indep / t_stock:.2f}x stock   recall {found / visible:.3f}, "
          f"wrong cells {wrong}")
    print(f"  stream, changed frame    {t_changed:6.2f} ms   {t_changed / t_stock:.2f}x stock   recall "
          f"{s_found / s_visible:.3f}, wrong cells {s_wrong}")
    print(f"  stream, idle board       {t_idle:6.2f} ms   {t_idle / t_stock:.2f}x stock")
    busy = 15 * t_changed / 1000
    idle = 15 * t_idle / 1000
    print(f"  at 15 fps: {idle:.0%} of a core while the board is idle, {busy:.0%} while every frame changes; "
          f"on a Pi 4 (about {PI4_SLOWER:g}x slower a core) {PI4_SLOWER * idle:.0%} and {PI4_SLOWER * busy:.0%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    board = Board.standard()
    for size in SIZES:
        one_size(board, size, args.frames, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
