"""Benchmark: how long ``explain`` takes on random legal turns from random mid-game positions.

Prints p50/p90/p99/max in milliseconds over N turns (default 1,000). Each turn is a full turn of
random legal moves (until the MP run out or the endurance run is made), played from a position
reached by a random draft and a random number of rounds; then ``explain(before, after)`` is timed,
and the whole reading the session runs on its reconciler thread (``Game.reconcile``: the search,
the questions it must ask, the plain alternative to a free endurance run).

    python benchmarks/explain_speed.py [--turns 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.fog import rules  # noqa: E402
from companion.games.fog.explain import explain  # noqa: E402
from companion.games.fog.game import GAME  # noqa: E402
from companion.games.fog.legality import apply_move, legal_movements  # noqa: E402
from companion.games.fog.options import Options  # noqa: E402
from companion.games.fog.setup import new_game  # noqa: E402


def random_turns(count: int, seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    game = 0
    made = 0
    while made < count:
        game += 1
        options = Options.parse(rng.choice(["", "", "enhanced"]))
        state = new_game(players=rng.choice([2, 3, 4]), seed=seed * 100_000 + game, options=options)
        while state.phase == "draft":
            state = rules.apply(state, rng.choice(rules.legal_drafts(state)))
        for _ in range(rng.randrange(0, 14)):  # a random mid-game moment
            state = rules.apply(state, "end-turn")
            if state.phase != "moving":
                break
        if state.phase != "moving":
            continue
        before = state
        while state.mp_left > 0 and not state.endurance_used:
            moves = list(legal_movements(state))
            if not moves:
                break
            state = apply_move(state, rng.choice(moves))
        if state is before:
            continue
        yield before, state
        made += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: list[float] = []
    readings: list[float] = []
    asked = 0
    failures = 0
    searched: list[int] = []
    for before, after in random_turns(args.turns, args.seed):
        start = time.perf_counter()
        answer = explain(before, after)
        times.append((time.perf_counter() - start) * 1000)
        searched.append(answer.searched)
        failures += not answer.ok
        start = time.perf_counter()
        reading = GAME.reconcile(before, after.placement)
        readings.append((time.perf_counter() - start) * 1000)
        asked += reading.question is not None
    times.sort()
    readings.sort()

    def pct(p: float, values: list[float] | None = None) -> float:
        values = times if values is None else values
        return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

    print(f"explain on {len(times)} random full turns (seed {args.seed}):")
    print(f"  p50 {pct(50):.1f} ms   p90 {pct(90):.1f} ms   p99 {pct(99):.1f} ms   max {times[-1]:.1f} ms   "
          f"mean {statistics.mean(times):.1f} ms")
    print(f"  positions searched: median {statistics.median(searched):.0f}, max {max(searched)}; "
          f"unexplained: {failures}")
    print(f"reconcile (what the session runs): p50 {pct(50, readings):.1f} ms   p99 {pct(99, readings):.1f} ms   "
          f"max {readings[-1]:.1f} ms; turns whose reading the players are asked to confirm: {asked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
