"""Benchmark: how long the tile race takes to read a picture of a whole turn, and a wrong one.

Positions with many tiles on the grid (the case that makes reading slow: every tile a pawn steps on
is collected, so chains of tiles give many movements): for N random positions (default 40) a whole
turn of random legal steps and a tile laid is played, and ``Game.reconcile`` of its last picture is
timed; then a wrong picture (the pawn put on a square no play reaches so) is timed. The search is
bounded by the reading's default ``Budget`` (its positions); a turn it gives up on is counted.

Prints p50/p99/max in milliseconds, the count of turns read and of turns the search gave up on.

    python benchmarks/tile_race_reading.py [--positions 40] [--tiles 22] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace
from types import MappingProxyType

from companion.games.reading import Budget
from companion.games.tile_race import rules
from companion.games.tile_race.game import GAME
from companion.games.tile_race.grid import corners, squares
from companion.games.tile_race.state import TileRaceState


def position(rng: random.Random, tiles: int) -> TileRaceState:
    start = GAME.new_game(players=2, seed=1)
    pawns = {"red-1": rng.choice(["C2", "D1", "E3"]), "red-2": "start", "blue-1": "D7", "blue-2": "start"}
    free = [q for q in squares(7) if q not in pawns.values() and q not in corners(7)]
    return replace(start, pawns=MappingProxyType(pawns), tiles=frozenset(rng.sample(free, tiles)),
                   supply=40 - tiles)


def whole_turn(state: TileRaceState, rng: random.Random) -> TileRaceState | None:
    """Random steps of one movement to its end, then a tile laid (None: the walk got stuck)."""
    x = state
    while x.moving is not None or not x.moved:
        steps = [a for a in rules.legal_actions(x) if isinstance(a, rules.Move)]
        if not steps:
            return None
        x = rules.apply(x, rng.choice(steps))
    laid = [a for a in rules.legal_actions(x) if isinstance(a, rules.Tile)]
    return rules.apply(x, laid[0]) if laid else None


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return (f"p50 {statistics.median(values):.0f} ms, p99 {values[min(len(values) - 1, int(len(values) * 0.99))]:.0f} "
            f"ms, max {values[-1]:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--tiles", type=int, default=22)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    read, wrong, gave_up, done = [], [], 0, 0
    while done < args.positions:
        before = position(rng, args.tiles)
        after = whole_turn(before, rng)
        if after is None:
            continue
        done += 1
        t = time.perf_counter()
        answer = GAME.reconcile(before, GAME.expected(after))
        read.append((time.perf_counter() - t) * 1000)
        gave_up += answer.rule == "search"
        picture = {c: [p for p in ps if p != "red-1"] for c, ps in GAME.expected(before).items()}
        picture.setdefault("A4", []).append("red-1")
        t = time.perf_counter()
        GAME.reconcile(before, picture)
        wrong.append((time.perf_counter() - t) * 1000)
    print(f"tile race, {args.tiles} tiles on the grid, search bounded to {Budget().positions} positions")
    print(f"  a whole turn read ({done} turns): {ms(read)}; the search gave up on {gave_up}")
    print(f"  a wrong picture refused: {ms(wrong)}")


if __name__ == "__main__":
    main()
