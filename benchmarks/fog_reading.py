"""Benchmark: The FOG's own reading of a picture (its A*, ``FogTable.reconcile``) against the framework's.

The FOG keeps its own search because a FOG turn is any number of moves within the MP left, each
of single movements. This measures what that buys, on the same pictures in the same run:

- four kinds of picture from random games (2-4 players, some with enhanced movements): the table
  after one random legal move, after a whole random turn, with one token of a push or swap put down
  (a move part-way), and with another colour's islander moved one field (out of turn);
- each read by The FOG (``GAME.reconcile``, the default budget) and, as the baseline, by the
  framework's reading every other game uses (``companion.games.reading.read`` with default
  ``Hints`` and the same ``Budget``): p50 / p99 / max CPU milliseconds, the baseline's p50 and p99
  as multiples of The FOG's, and how often both give the same kind of answer (a reading, a step,
  a refusal);
- what one position costs each search (CPU microseconds per A* position expanded, per framework
  position reached): ``fog/bounds.py`` lets The FOG expand 15 A* positions per budget position, so
  their ratio says how much longer than another game The FOG may search at one budget;
- the whole turns and the moves out of turn read with a sixteenth, a quarter, the default and four
  times the default budget: the bound follows ``budget.positions`` (how many readings give up, p99).

CPU time (``time.process_time``), so a busy machine shows the same figures; the ratios are what to
compare between machines.

    python benchmarks/fog_reading.py [--pictures 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from explain_speed import fog_first_tokens, random_turns  # noqa: E402

from companion.games.fog.bounds import NODES_PER_POSITION  # noqa: E402
from companion.games.fog.explain import explain  # noqa: E402
from companion.games.fog.game import GAME  # noqa: E402
from companion.games.fog.legality import apply_move, legal_movements  # noqa: E402
from companion.games.fog.movement import Rules  # noqa: E402
from companion.games.fog.state import GameState  # noqa: E402
from companion.games.reading import Budget, Hints, read, search  # noqa: E402
from companion.games.reconciliation import Reconciliation  # noqa: E402

Seen = dict[str, tuple[str, ...]]


def placed(placement: Any) -> Seen:
    return {c: tuple(sorted(ps)) for c, ps in placement.items() if ps}


def one_moves(count: int, seed: int) -> Iterator[tuple[GameState, Seen]]:
    rng = random.Random(seed)
    for before, _ in random_turns(count, seed):
        after = placed(apply_move(before, rng.choice(list(legal_movements(before)))).placement)
        if after != GAME.expected(before):  # (a cross there and back) the session reads no such picture
            yield before, after


def whole_turns(count: int, seed: int) -> Iterator[tuple[GameState, Seen]]:
    for before, after in random_turns(count, seed + 1):
        yield before, placed(after.placement)


def steps(count: int, seed: int) -> Iterator[tuple[GameState, Seen]]:
    for before, seen, _move, _after in fog_first_tokens(count, seed + 2):
        yield before, seen


def out_of_turn(count: int, seed: int) -> Iterator[tuple[GameState, Seen]]:
    """Another colour's islander on the beach slid one field on to a free beach field."""
    rng = random.Random(seed + 3)
    made = 0
    for before, _ in random_turns(count * 3, seed + 3):
        board, own = before.board_data, set(before.islanders_of(before.active_colour or ""))
        dist = Rules.of(before).topo.dist
        free = {c for c, cell in board.cells.items() if cell.kind == "beach" and not before.placement.get(c)}
        theirs = [(p, c) for p, c in before.where.items() if p in board.islanders and p not in own
                  and board.cells[c].kind == "beach"]
        rng.shuffle(theirs)
        for piece, cell in theirs:
            to = sorted(c for c in free if dist[cell].get(c) == 1)
            if to:
                seen = {c: list(ps) for c, ps in before.placement.items()}
                seen[cell].remove(piece)
                seen.setdefault(rng.choice(to), []).append(piece)
                yield before, placed(seen)
                made += 1
                break
        if made >= count:
            return


def kind(answer: Reconciliation) -> str:
    return "step" if answer.part_way else "reading" if answer.ok else "refused"


def cpu_ms(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    out = call()
    return (time.process_time() - start) * 1000, out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


class Counted(Hints[Any, Any]):
    """The framework's default hints, counting the positions its search reaches (each is keyed once)."""

    def __init__(self) -> None:
        self.positions = 0

    def key(self, game: Any, state: Any) -> Hashable:
        self.positions += 1
        return super().key(game, state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pictures", type=int, default=60, help="pictures of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n, seed = args.pictures, args.seed
    kinds = {"one move": list(one_moves(n, seed)), "whole turn": list(whole_turns(n, seed)),
             "move part-way": list(steps(n, seed)), "out of turn": list(out_of_turn(n, seed))}
    budget = Budget()
    print(f"The FOG's reading (its A*) against the framework's (the baseline), {n} pictures of each kind, "
          f"budget {budget.positions} positions; CPU ms")
    print(f"{'picture':<14} {'FOG p50':>8} {'p99':>7} {'max':>7}   {'framework p50':>13} {'p99':>8} {'max':>8}"
          f"   {'p50 x':>6} {'p99 x':>6}   same answer")
    for name, pictures in kinds.items():
        fog_t, base_t, same = [], [], 0
        for before, seen in pictures:
            t, ours = cpu_ms(lambda: GAME.reconcile(before, seen))
            fog_t.append(t)
            t, theirs = cpu_ms(lambda: read(GAME, before, seen, Hints(), budget))
            base_t.append(t)
            same += kind(ours) == kind(theirs)
        print(f"{name:<14} {pct(fog_t, 50):8.1f} {pct(fog_t, 99):7.1f} {max(fog_t):7.1f}   "
              f"{pct(base_t, 50):13.1f} {pct(base_t, 99):8.1f} {max(base_t):8.1f}   "
              f"{pct(base_t, 50) / max(pct(fog_t, 50), 1e-3):6.1f} {pct(base_t, 99) / max(pct(fog_t, 99), 1e-3):6.1f}"
              f"   {same}/{len(pictures)}")

    # what one position costs each search: CPU time over positions, summed over every picture
    fog_cost, fog_nodes, base_cost, base_positions = 0.0, 0, 0.0, 0
    for before, seen in (p for pictures in kinds.values() for p in pictures):
        t, answer = cpu_ms(lambda: explain(before, seen))
        fog_cost, fog_nodes = fog_cost + t, fog_nodes + answer.searched
        hints = Counted()
        picture = GAME.table.alike(before, seen)
        t, _ = cpu_ms(lambda: search(GAME, before, picture, hints, budget))
        base_cost, base_positions = base_cost + t, base_positions + hints.positions
    a, b = fog_cost * 1000 / max(fog_nodes, 1), base_cost * 1000 / max(base_positions, 1)
    print(f"\none position: A* {a:.0f} us a position expanded ({fog_nodes} in all), framework {b:.0f} us a "
          f"position reached ({base_positions} in all): one A* position costs {a / b:.2f} framework positions; "
          f"fog/bounds.py allows {NODES_PER_POSITION} a budget position, so at one budget The FOG may search "
          f"{NODES_PER_POSITION * a / b:.0f} times as long as another game")

    print("\nthe whole turns and the moves out of turn read with other budgets (the FOG's bounds are shares "
          "of budget.positions)")
    for positions in (budget.positions // 16, budget.positions // 4, budget.positions, budget.positions * 4):
        times, gave_up = [], 0
        for before, seen in kinds["whole turn"] + kinds["out of turn"]:
            t, answer = cpu_ms(lambda: GAME.reconcile(before, seen, Budget(positions=positions)))
            times.append(t)
            gave_up += answer.rule == "search-limit"
        print(f"  {positions:>6} positions: p50 {pct(times, 50):6.1f} ms   p99 {pct(times, 99):7.1f} ms   "
              f"gave up on {gave_up}/{len(times)}")


if __name__ == "__main__":
    main()
