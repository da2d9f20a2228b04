"""Benchmark: how long desert survivors takes to read a picture of the movement phase.

Seeded games played at random into the movement phase; at each position where the player to move
has an act to make, for a legal act chosen at random: the act finished on the table (read as that
act), one of its pieces still in a hand (a calm step), a disc and a piece no act swaps changed places (refused), and,
where the act found a road (the player acts again), the road and a second act made before the camera
settles (read as both, in order). Each is ``Game.reconcile`` with the default budget, as the session
reads a stable picture: the best of three CPU times.

Prints p50/p99/max in milliseconds for each kind, each median as a ratio of the finished act's (the
baseline, measured in the same run), and how many answers were of the kind expected.

    python benchmarks/desert_reading.py [--positions 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from companion.games import get_game
from companion.games.desert_survivors.actions import Reveal, Swap
from companion.games.desert_survivors.pieces import is_disc
from companion.games.desert_survivors.state import DesertState
from companion.games.reconciliation import Reconciliation

GAME = get_game("desert-survivors")
Picture = dict[str, list[str]]


def movement(rng: random.Random, seed: int) -> DesertState | None:
    """A game played at random until the movement phase, then a few acts into it."""
    state: DesertState = GAME.new_game(rng.choice([2, 3, 4]), seed=seed)
    acts = rng.randint(0, 12)
    for _ in range(400):
        if GAME.outcome(state) is not None:
            return None
        forced = GAME.forced_action(state)
        legal = GAME.legal_actions(state)
        if forced is None and state.phase == "move" and any(isinstance(a, (Swap, Reveal)) for a in legal):
            if acts == 0:
                return state
            acts -= 1
        state = GAME.apply(state, forced if forced is not None else rng.choice(legal))
    return None


def shown(state: DesertState) -> Picture:
    return {c: list(ps) for c, ps in GAME.expected(state).items()}


def leaves(state: DesertState, answer: Reconciliation, end: DesertState) -> bool:
    """One reading, whose acts leave the desert as ``end`` has it (a swap of two of one seat's discs
    may be logged named from either end)."""
    if len(answer.choices) != 1:
        return False
    for action in answer.choices[0].actions:
        state = GAME.apply(state, action)
    return GAME.expected(state) == GAME.expected(end)


def cpu(read: Callable[[], object]) -> float:
    start = time.process_time()
    read()
    return (time.process_time() - start) * 1000


def ms(values: list[float]) -> str:
    values = sorted(values)
    return (f"p50 {statistics.median(values):.2f} ms, p99 {values[min(len(values) - 1, int(len(values) * 0.99))]:.2f} "
            f"ms, max {values[-1]:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    kinds = ("finished act", "act part-way", "refused", "road and a second act")
    times: dict[str, list[float]] = {k: [] for k in kinds}
    right = dict.fromkeys(kinds, 0)
    seed = 0
    while len(times["finished act"]) < args.positions:
        seed += 1
        state = movement(rng, seed)
        if state is None:
            continue
        act = rng.choice([a for a in GAME.legal_actions(state) if isinstance(a, (Swap, Reveal))])
        after = GAME.apply(state, act)
        done = shown(after)
        moved = [c for c in done if done[c] != shown(state).get(c)]
        pictures: dict[str, tuple[Picture, Callable[[Reconciliation], bool]]] = {
            "finished act": (done, lambda r: leaves(state, r, after))}
        if isinstance(act, Swap):
            lifted = rng.choice(moved)
            half = {c: ps for c, ps in done.items() if c != lifted}
            pictures["act part-way"] = (half, lambda r: r.part_way and not r.ok)
        far = [(a, b) for a in sorted(state.board) for b in sorted(state.board)
               if a < b and (is_disc(state.board[a]) or is_disc(state.board[b]))   # counters: any may be drawn
               and not {f"swap {a} {b}", f"swap {b} {a}"} & {str(x) for x in GAME.legal_actions(state)}]
        if far:
            a, b = rng.choice(far)
            swapped = shown(state) | {a: shown(state)[b], b: shown(state)[a]}
            pictures["refused"] = (swapped, lambda r: not r.ok and not r.part_way)
        if after.road:
            second = rng.choice([a for a in GAME.legal_actions(after) if isinstance(a, (Swap, Reveal))])
            then = GAME.apply(after, second)
            pictures["road and a second act"] = (shown(then), lambda r: leaves(state, r, then))
        for kind, (picture, expected) in pictures.items():
            right[kind] += bool(expected(GAME.reconcile(state, picture)))
            times[kind].append(min(cpu(lambda: GAME.reconcile(state, picture)) for _ in range(3)))
    base = statistics.median(times["finished act"])
    for kind, values in times.items():
        if values:
            print(f"{kind:22s} {ms(values)}; median {statistics.median(values) / base:.2f}x the finished act's; "
                  f"{right[kind]}/{len(values)} read as expected")


if __name__ == "__main__":
    main()
