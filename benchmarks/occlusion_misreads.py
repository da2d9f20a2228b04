"""Benchmark: wrong marker ids read under partial occlusion, per 10,000 marker sightings.

A hand or a sleeve over the board covers part of a marker. The detector should then read the marker
right or not at all; a *wrong* id (another piece's marker, or one no piece carries) is what turns
into a piece seen where it is not. Each game's board is rendered with its pieces laid out (the
simulated table's renderer, a camera tilted up to 20 degrees, mild blur and noise), and every
marker's frame polygon is partly painted over with a skin-coloured band from a random side covering
0, 10, ... 60 % of its area; the real detector (this repository's settings) reads the frame. Counted
per coverage: markers read right, not read, read as another piece's marker, read as an id no piece
carries; and wrong ids per 10,000 sightings, per game (each has its own dictionary) and for all.
The same figures for the frames with nothing covered are the baseline of the same run.

    python benchmarks/occlusion_misreads.py [--frames 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import get_game, names  # noqa: E402
from vision.detect import BoardDetector, detector_parameters  # noqa: E402
from vision.render import Effects, random_pose, render  # noqa: E402

COVERS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
SKIN = (120, 150, 200)  # BGR


def cover(frame: np.ndarray, poly: np.ndarray, share: float, rng: np.random.Generator) -> None:
    """Paint over ``share`` of a marker's area with a band from one of its sides (a finger, a sleeve)."""
    if share <= 0:
        return
    k = int(rng.integers(4))
    a, b, c, d = (poly[(k + i) % 4] for i in range(4))  # the band grows from side a-b towards d-c
    t = float(share)
    band = np.array([a, b, b + (c - b) * t, a + (d - a) * t], np.float32)
    cv2.fillConvexPoly(frame, np.round(band).astype(np.int32), SKIN, lineType=cv2.LINE_AA)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20, help="frames per game and coverage")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    totals = {c: [0, 0, 0, 0] for c in COVERS}  # right, not read, another piece's, no piece's
    per_game: dict[str, dict[float, list[int]]] = {}
    settings = detector_parameters()
    print(f"detector: OpenCV ArUco, errorCorrectionRate {settings.errorCorrectionRate:.2f}, adaptive threshold "
          f"window {settings.adaptiveThreshWinSizeMin} px, polygon accuracy {settings.polygonalApproxAccuracyRate:.2f}, "
          f"{settings.perspectiveRemovePixelPerCell} px per marker cell")
    for name in names():
        game = get_game(name)
        state = game.new_game(players=max(game.players), seed=args.seed)
        play = random.Random(args.seed)
        for _ in range(60):  # a game that lays its pieces in play (desert survivors): a table with some laid
            actions = list(game.legal_actions(state)) if sum(map(len, game.expected(state).values())) < 30 else []
            if not actions:
                break
            state = game.apply(state, play.choice(actions))
        layout = game.layout(state)
        placement = game.expected(state)
        detector = BoardDetector(layout)
        carried = set(layout.marker_to_piece)
        per_game[f"{name} ({layout.marker_dictionary})"] = mine = {c: [0, 0, 0, 0] for c in COVERS}
        parts = game.assembly()
        printed = {int(x["id"]) for x in layout.fiducials} | set(layout.special_markers.values()) | (
            {m for part in parts.parts for m, _x, _y in part.markers} if parts is not None else set())
        for share in COVERS:
            for f in range(args.frames):
                pose = random_pose(layout, rng, max_tilt=20.0, marker_px=(18.0, 26.0))
                shot = render(layout, placement, pose, Effects(blur_sigma=0.5, noise_sigma=2.0), seed=f)
                frame = shot.frame.copy()
                for piece, poly in shot.markers.items():
                    if piece in shot.visible:
                        cover(frame, np.asarray(poly, np.float32), share, rng)
                corners, ids = detector.markers(frame)
                read = [] if ids is None else [int(i) for i in np.asarray(ids).ravel()]
                shown = {m for p in shot.visible for m in layout.pieces[p].markers}
                counts = [0, 0, 0, 0]
                for m in read:
                    if m in shown:
                        counts[0] += 1
                    elif m in carried:
                        counts[2] += 1
                    elif m not in printed:  # the board's own markers (corners, mapboards' parts) are no misread
                        counts[3] += 1
                counts[1] = max(0, len(shot.visible) - len([m for m in read if m in shown]))
                for tally in (totals[share], mine[share]):
                    for k in range(4):
                        tally[k] += counts[k]
        print(f"{name}: done", file=sys.stderr, flush=True)
    for title, table in [*per_game.items(), ("all games", totals)]:
        print(f"\n{title}")
        print("covered   sightings   read right   not read   another piece's id   an id no piece carries   "
              "wrong ids per 10,000")
        for share, (right, missed, other, none) in table.items():
            seen = right + missed
            wrong = other + none
            print(f"{share:6.0%}   {seen:9d}   {right:10d}   {missed:8d}   {other:18d}   {none:22d}   "
                  f"{10000 * wrong / max(1, seen):10.1f}")


if __name__ == "__main__":
    main()
