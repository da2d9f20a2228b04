"""Benchmark: how long the island battle takes to read a picture: a finished move, a move part-way, a wrong one.

For N positions (default 40) of seeded games played at random into the battle, each with a roll
to use: a legal move of the player to move made on the table (read as that move), the same
character lifted off its square (a move part-way: a calm step), and the same character set down
on a square no move with the roll reaches (refused). Each is ``Game.reconcile`` with the default
budget, as the session reads a stable picture.

Prints p50/p99/max in milliseconds for each, and each median as a ratio of the finished move's
(the baseline, measured in the same run), and how many answers were of the kind expected.

    python benchmarks/island_reading.py [--positions 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from companion.games.base import faced, unfaced
from companion.games.island_battle.actions import Move
from companion.games.island_battle.game import GAME
from companion.games.island_battle.grid import on_island, squares
from companion.games.island_battle.state import IslandState


def battle(rng: random.Random, seed: int) -> IslandState | None:
    """A game played at random (the companion rolling) until the player to move has a move to make."""
    state = GAME.new_game(2, seed=seed)
    for _ in range(rng.randint(40, 160)):
        forced = GAME.forced_action(state)
        if forced is not None:
            state = GAME.apply(state, forced)
            continue
        legal = GAME.legal_actions(state)
        if GAME.outcome(state) is not None or not legal:
            return None
        if state.stage == "move" and any(isinstance(a, Move) for a in legal) and rng.random() < 0.3:
            return state
        state = GAME.apply(state, rng.choice(legal))
    return None


def moved(state: IslandState, piece: str, cell: str | None, way: str | None = None) -> dict[str, list[str]]:
    picture = {c: [p for p in ps if unfaced(p)[0] != piece] for c, ps in GAME.expected(state).items()}
    if cell is not None:
        picture.setdefault(cell, []).append(faced(piece, way))
    return {c: ps for c, ps in picture.items() if ps}


def timed(read: Callable[[], object]) -> float:
    start = time.perf_counter()
    read()
    return (time.perf_counter() - start) * 1000


def ms(values: list[float]) -> str:
    values = sorted(values)
    return (f"p50 {statistics.median(values):.1f} ms, p99 {values[min(len(values) - 1, int(len(values) * 0.99))]:.1f} "
            f"ms, max {values[-1]:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {"finished move": [], "move part-way": [], "refused": []}
    right = dict.fromkeys(times, 0)
    seed = 0
    while len(times["finished move"]) < args.positions:
        seed += 1
        state = battle(rng, seed)
        if state is None:
            continue
        move = rng.choice([a for a in GAME.legal_actions(state) if isinstance(a, Move)])
        ends = {a.to for a in GAME.legal_actions(state) if isinstance(a, Move) and a.character == move.character}
        wrong = [q for q in squares() if on_island(q) and q not in ends and q != move.origin
                 and not GAME.expected(state).get(q)]
        pictures = {"finished move": moved(state, move.character, move.to, move.facing),
                    "move part-way": moved(state, move.character, None),
                    "refused": moved(state, move.character, rng.choice(wrong), move.facing)}
        for kind, picture in pictures.items():
            answer = GAME.reconcile(state, picture)
            right[kind] += (answer.ok if kind == "finished move" else answer.part_way if kind == "move part-way"
                            else not answer.ok and not answer.part_way)
            times[kind].append(min(timed(lambda: GAME.reconcile(state, picture)) for _ in range(3)))
    base = statistics.median(times["finished move"])
    for kind, values in times.items():
        print(f"{kind:14s} {ms(values)}; median {statistics.median(values) / base:.2f}x the finished move's; "
              f"{right[kind]}/{len(values)} read as expected")


if __name__ == "__main__":
    main()
