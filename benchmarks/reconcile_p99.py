"""Benchmark: how long reading a picture takes in every game at every player count.

As the door's properties test does it (tests/test_game_door.py): random legal playouts of each game
from several seeds; at positions along them, the picture after a random legal action that changes
the table, and the same picture with one piece hidden at random (a hand or a tall piece over it).
Each is read by ``Game.reconcile`` and then held to what the picture shows
(``companion.table.witnessed.judge``, what the session adds on the way in). Prints p50, p99 and max in
milliseconds per game and player count, for the reading alone and with the check, and the check's
share; and, as a baseline measured in the same run, the time of ``Game.expected`` on the same
positions, with each p99 as a multiple of it (so a slower machine shows the same multiples).

    python benchmarks/reconcile_p99.py [--pictures 200] [--seed 1] [--game NAME]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.table import witnessed  # noqa: E402
from companion.games import Game, get_game, names  # noqa: E402


def pictures(game: Game, players: int, count: int, seed: int) -> list[tuple[Any, dict[str, tuple[str, ...]]]]:
    """(position, picture) pairs: a legal action's picture, and every other one with a piece hidden."""
    out: list[tuple[Any, dict[str, tuple[str, ...]]]] = []
    rng = random.Random(seed)
    run = 0
    while len(out) < count and run < 50:
        run += 1
        state = game.new_game(players=players, seed=seed * 100 + run)
        for _ in range(400):
            if game.outcome(state) is not None or len(out) >= count:
                break
            actions = list(game.legal_actions(state))
            if not actions:
                break
            action = rng.choice(actions)
            after = game.apply(state, action)
            picture = {c: tuple(ps) for c, ps in game.expected(after).items()}
            if picture != game.expected(state) and rng.random() < 0.5:
                if len(out) % 2 and picture:
                    cell = rng.choice(sorted(picture))
                    gone = rng.choice(picture[cell])
                    picture = {c: tuple(p for p in ps if p != gone) for c, ps in picture.items()}
                    picture = {c: ps for c, ps in picture.items() if ps}
                out.append((state, picture))
            state = after
    return out


def ms(values: list[float]) -> tuple[float, float, float]:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return statistics.median(values), p99, values[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    print("game              players   n   reconcile p50/p99/max ms   with the check p50/p99/max ms   "
          "check share   expected() p99 ms   p99 / expected() p99")
    for name in [args.game] if args.game else names():
        game = get_game(name)
        for players in sorted(game.players):
            read, checked, baseline = [], [], []
            for state, picture in pictures(game, players, args.pictures, args.seed):
                t0 = time.perf_counter()
                game.expected(state)
                t1 = time.perf_counter()
                answer = game.reconcile(state, picture)
                t2 = time.perf_counter()
                witnessed.judge(game, state, picture, answer)
                witnessed.named_mover(game, state, picture, answer)
                t3 = time.perf_counter()
                baseline.append((t1 - t0) * 1000)
                read.append((t2 - t1) * 1000)
                checked.append((t3 - t1) * 1000)
            if not read:
                continue
            r, c, b = ms(read), ms(checked), ms(baseline)
            share = (sum(checked) - sum(read)) / max(1e-9, sum(checked))
            print(f"{name:<17} {players:>7} {len(read):>4}   {r[0]:6.2f} / {r[1]:6.2f} / {r[2]:7.2f}       "
                  f"{c[0]:6.2f} / {c[1]:6.2f} / {c[2]:7.2f}           {share:5.1%}        {b[1]:8.3f}"
                  f"          {c[1] / max(1e-9, b[1]):8.0f}x", flush=True)


if __name__ == "__main__":
    main()
