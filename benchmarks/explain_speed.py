"""Benchmark: how long reading a picture takes, for The FOG and the partner card race.

The FOG: ``explain`` and ``Game.reconcile`` on N random full turns (default 1,000). Each turn is a
full turn of random legal moves (until the MP run out or the endurance run is made), played from a
position reached by a random draft and a random number of rounds; then ``explain(before, after)``
is timed, and the whole reading the session runs on its reconciler thread (``Game.reconcile``: the
search, the questions it must ask, the plain alternative to a free endurance run).

The partner race: ``Game.reconcile`` on N random pictures (default 1,000) of positions reached by
random legal play from many seeds: the picture after a legal play of a random card (a pawn of a
stack sometimes hidden beneath the other), a play half done (the card laid and no pawn moved, the
first parts of a 7, a pawn landed on the one it bumps, one pawn of a swap lifted) and wrong
pictures (a pawn on a random space, another card on the spot, no card laid, a pawn gone).

The FOG move by move: ``Game.reconcile`` on N pictures (default 600) of one random legal move each,
as the table is read at play, and how many are held as a step.

The FOG's steps: ``Game.reconcile`` on N pictures (default 300) of a swap, push, pull or drive-off
made by hand one token at a time, only one of its tokens put down yet (the pushed islander before
its pusher, say): a step, found after a search bounded to ``steps.STEP_NODES`` positions per tier
(with ``--whole-search`` the unbounded search on the same pictures is timed as well, for
comparison: seconds a picture at worst). It prints how these pictures were read: a step, a step
holding a whole reading (an own islander pushed on first is also its own run), a whole move at once
(logged before the rest of the move comes: a move nobody made) or out of sync; and, for the full
turns, how many are held as a step because they are also the first token of a push or swap.

Prints p50/p99/max in milliseconds for both, with the race's figures as multiples of The FOG's.

Every game (``--game NAME``, or ``--game all``): as the door's properties test does it, random
legal playouts of the game at every player count, the picture after a random legal action and
every other one with one piece hidden (``reconcile_p99.pictures``), read as the session reads it
(``Game.reconcile``, then ``witnessed.judge`` and ``witnessed.named_mover``), each position's view
built first as the pages build it when the session publishes a state. The machine may be
shared: each reading is timed on the wall clock and in CPU time of its own thread (what other
work on the machine stretches far less), and a fixed piece of work (sorting the same numbers) is
timed in CPU time before each picture as the baseline, p99 given as a multiple of its median.
Prints p50/p99/max per game and player count, and whether the CPU figures meet the goal (p99 <= 20
ms, max <= 80 ms; The FOG's p99 <= 5 ms).

    python benchmarks/explain_speed.py [--turns 1000] [--pictures 1000] [--moves 600] [--steps 300]
                                       [--whole-search] [--seed 1]
    python benchmarks/explain_speed.py --game all|NAME [--pictures 200] [--seed 1] [--repeat 1] [--cold]
"""

from __future__ import annotations

import argparse
import os
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
from companion.games.fog.steps import STEP_NODES, VERBS  # noqa: E402
from companion.games.partner_race import rules as race_rules  # noqa: E402
from companion.games.partner_race.board import CARD_SPOT  # noqa: E402
from companion.games.partner_race.cards import CARDS  # noqa: E402
from companion.games.partner_race.game import GAME as RACE  # noqa: E402
from companion.games.partner_race.rules import Play, RaceState  # noqa: E402


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
        if state is before or GAME.expected(state) == GAME.expected(before):  # the session reads no such picture
            continue
        yield before, state
        made += 1


Seen = dict[str, tuple[str, ...]]


def fog_first_tokens(count: int, seed: int):  # type: ignore[no-untyped-def]
    """(position, picture): a move of two or more tokens with one token put down where the move puts
    it, the others not moved yet, as a hand leaves the table part-way."""
    rng = random.Random(seed)
    made = 0
    for before, _after in random_turns(count * 4, seed):
        moves = [m for m in legal_movements(before) if m.movements[0].kind in VERBS]
        if not moves:
            continue
        move = rng.choice(moves)
        after = apply_move(before, move)
        tokens = sorted(p for p in before.where if after.where.get(p) not in (None, before.where[p]))
        if len(tokens) < 2:
            continue
        token = rng.choice(tokens)
        seen = {c: [p for p in ps if p != token] for c, ps in before.placement.items()}
        seen.setdefault(after.where[token], []).append(token)
        yield before, {c: tuple(sorted(ps)) for c, ps in seen.items() if ps}, move, after
        made += 1
        if made >= count:
            return


def fog_single_moves(count: int, seed: int) -> tuple[list[float], int]:
    """Milliseconds of ``Game.reconcile`` on the picture of one random legal move (what the table
    shows move by move), and how many are held as a step (a whole move that is also the first token
    of a longer one, read once the rest comes or the hold time passes)."""
    rng = random.Random(seed)
    out: list[float] = []
    held = 0
    for before, _after in random_turns(count, seed):
        move = rng.choice(list(legal_movements(before)))
        after = apply_move(before, move)
        if GAME.expected(after) == GAME.expected(before):
            continue
        start = time.perf_counter()
        answer = GAME.reconcile(before, after.placement)
        out.append((time.perf_counter() - start) * 1000)
        held += answer.part_way
    return sorted(out), held


def fog_steps(count: int, seed: int, whole: bool) -> tuple[list[float], list[float], dict[str, int]]:
    """Milliseconds of ``Game.reconcile`` on pictures part-way through a move (and of the unbounded
    search on them when ``whole``), and how the pictures were read: a step ("step"), a step that
    holds a whole reading to settle if nothing more moves ("step, a reading held"), a whole move at
    once ("whole move": the session would log it before the rest of the move comes, a move nobody
    made) or out of sync."""
    bounded: list[float] = []
    unbounded: list[float] = []
    read = dict.fromkeys(("step", "step, a reading held", "whole move", "out of sync", "finished: the move made",
                          "finished: two or more moves", "finished: another reading"), 0)
    for before, seen, move, after in fog_first_tokens(count, seed):
        start = time.perf_counter()
        answer = GAME.reconcile(before, seen)
        bounded.append((time.perf_counter() - start) * 1000)
        read["step, a reading held" if answer.part_way and answer.ok else "step" if answer.part_way
             else "whole move" if answer.ok else "out of sync"] += 1
        # the rest of the move put down: what the log holds then, as the session reads it (a whole
        # move read at once is applied, the rest read from there; a step is read from before)
        state = before
        if answer.ok and not answer.part_way and not answer.ambiguous:
            for action in answer.choices[0].actions:
                state = GAME.apply(state, action)
        rest = GAME.reconcile(state, GAME.expected(after))
        logged = list(state.history[len(before.history):]) + (list(rest.choices[0].actions) if rest.ok else [])
        read["finished: the move made" if logged == [str(move)] else
             "finished: two or more moves" if len(logged) > 1 else "finished: another reading"] += 1
        if whole:
            start = time.perf_counter()
            explain(before, seen)
            unbounded.append((time.perf_counter() - start) * 1000)
    return sorted(bounded), sorted(unbounded), read


def race_positions(count: int, seed: int):  # type: ignore[no-untyped-def]
    """Moments of random games: a new seed per game, a moment every few turns."""
    rng = random.Random(seed)
    game = 0
    made = 0
    while made < count:
        game += 1
        state = race_rules.new_race(seed=seed * 100_000 + game, dealer=game % 4)
        for turn in range(rng.randrange(150, 400)):
            actions = race_rules.legal_actions(state)
            if not actions:
                break
            if turn % 9 == 8:
                yield state
                made += 1
            plays = [a for a in actions if isinstance(a, Play)]
            kinds = sorted({p.card for p in plays})
            if plays and rng.random() < 0.95:  # a card kind at random, then one of its plays
                kind = rng.choice(kinds)
                state = race_rules.apply(state, rng.choice([p for p in plays if p.card == kind]))
            else:
                state = race_rules.apply(state, actions[0])


def _with_card(seen: Seen, kind: str | None) -> Seen:
    out = {c: ps for c, ps in seen.items() if c != CARD_SPOT}
    if kind is not None:
        out[CARD_SPOT] = (f"card-{kind}",)
    return out


def _without(seen: Seen, pawn: str) -> Seen:
    return {c: tuple(p for p in ps if p != pawn) for c, ps in seen.items() if ps != (pawn,)}


def _placed(state: RaceState, where: dict[str, str], kind: str | None) -> Seen:
    """The picture of the pawns at ``where`` with ``kind`` on the card spot."""
    return _with_card(RACE.expected(type(state)(where)), kind)


def race_pictures(state: RaceState, rng: random.Random) -> list[tuple[str, Seen]]:
    """A few pictures of this position: what a table shows after a play, part-way, or wrongly."""
    plays = [a for a in race_rules.legal_actions(state) if isinstance(a, Play)]
    out: list[tuple[str, Seen]] = []
    if not plays:
        return out
    kinds = sorted({p.card for p in plays})
    kind = rng.choice(kinds)
    play = rng.choice([p for p in plays if p.card == kind])
    after = race_rules.check(state, play)
    done = RACE.expected(race_rules.apply(state, play))
    stacked = [p for p in after if after[p].startswith("T") and any(
        q != p and after[q] == after[p] and q.rsplit("-", 1)[0] == p.rsplit("-", 1)[0] for q in after)]
    out.append(("after a play", _without(done, rng.choice(stacked)) if stacked and rng.random() < 0.5 else done))
    # half done
    out.append(("card laid, no pawn moved", _placed(state, dict(state.where), play.card)))
    sevens = [p for p in plays if p.card == "7" and len(p.steps) > 1]
    if sevens:
        seven = rng.choice(sevens)
        out.append(("a 7 part-way", _placed(state, _first_parts(state, seven), "7")))
    bumped = [p for p in after if state.where[p] != "home" and after[p] == "home"]
    if bumped:
        out.append(("bumped pawn not yet home", _placed(state, {**after, bumped[0]: state.where[bumped[0]]}, play.card)))
    swaps = [p for p in plays if p.swap is not None]
    if swaps:
        out.append(("one pawn of a swap lifted", _without(_placed(state, dict(state.where), "swap"), swaps[0].swap[0])))
    # wrong
    wrong = dict(after)
    pawn = rng.choice(sorted(wrong))
    wrong[pawn] = f"T{rng.randrange(64)}"
    out.append(("a pawn on a random space", _placed(state, wrong, play.card)))
    out.append(("another card on the spot", _with_card(done, rng.choice([k for k in CARDS if k != play.card]))))
    out.append(("no card laid", _with_card(done, None)))
    out.append(("a pawn gone", _without(done, rng.choice([p for p in after if after[p] == "home"] or sorted(after)))))
    return out


def _first_parts(state: RaceState, seven: Play) -> dict[str, str]:
    """The pawns after all but the last part of a 7: the last pawn not moved yet, nor a pawn on the
    space it lands on."""
    where = dict(state.where)
    last = seven.steps[-1].pawn
    full = race_rules.check(state, seven)
    for p in where:
        if p != last and where[p] != full[last]:
            where[p] = full[p]
    return where


def race_readings(count: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds of ``Game.reconcile`` by kind of picture (and ``all``)."""
    rng = random.Random(seed)
    out: dict[str, list[float]] = {"all": []}
    for state in race_positions(count, seed):
        for kind, seen in race_pictures(state, rng):
            start = time.perf_counter()
            RACE.reconcile(state, seen)
            ms = (time.perf_counter() - start) * 1000
            out["all"].append(ms)
            out.setdefault(kind, []).append(ms)
        if len(out["all"]) >= count:
            break
    return out


_NUMBERS = [random.Random(n).random() for n in range(5_000)]


def _baseline() -> float:
    """CPU milliseconds of a fixed piece of work (sorting the same 5,000 numbers): the machine's speed,
    measured beside each reading."""
    start = time.thread_time()
    sorted(_NUMBERS)
    return (time.thread_time() - start) * 1000


def every_game(names: list[str], count: int, seed: int, repeat: int = 1, cold: bool = False) -> int:
    """The door's pictures of every game at every player count, read as the session reads them. The
    position's view is built first, untimed, as at the table: every state the session reaches is
    published and the pages build its view, so what a game keeps of it (the tile race's log in words,
    told again only past the last position told) is as warm as in play (``cold``: not built; the
    check of a reading then tells a game's whole log again from the last position any picture told)."""
    from companion.table import witnessed
    from companion.games import get_game
    from reconcile_p99 import pictures  # the door properties' pictures, as the properties test makes them

    print("game              players    n   wall p50 / p99 / max ms    CPU p50 / p99 / max ms    "
          "CPU p99 / baseline   goal p99 / max ms (CPU)")
    bases: list[float] = []
    missed = 0
    for name in names:
        game = get_game(name)
        goal = (5.0, 80.0) if name == "fog" else (20.0, 80.0)
        for players in sorted(game.players):
            wall: list[float] = []
            cpu: list[float] = []
            base: list[float] = []
            for state, picture in pictures(game, players, count, seed):
                if not cold:
                    game.view(state)
                base.append(_baseline())
                took: list[tuple[float, float]] = []
                for _ in range(max(1, repeat)):  # the least of a few: what the reading costs without the load's hiccups
                    start, on_cpu = time.perf_counter(), time.thread_time()
                    answer = game.reconcile(state, picture)
                    answer = witnessed.judge(game, state, picture, answer)
                    witnessed.named_mover(game, state, picture, answer)
                    took.append(((time.thread_time() - on_cpu) * 1000, (time.perf_counter() - start) * 1000))
                cpu.append(min(t[0] for t in took))
                wall.append(min(t[1] for t in took))
            if not wall:
                continue
            wall.sort()
            cpu.sort()
            bases += base

            def p(values: list[float], q: float) -> float:
                return values[min(len(values) - 1, int(q * len(values)))]
            met = p(cpu, 0.99) <= goal[0] and cpu[-1] <= goal[1]
            missed += not met
            print(f"{name:<17} {players:>7} {len(wall):>4}   {p(wall, 0.5):6.2f} / {p(wall, 0.99):6.2f} / "
                  f"{wall[-1]:7.2f}    {p(cpu, 0.5):6.2f} / {p(cpu, 0.99):6.2f} / {cpu[-1]:7.2f}    "
                  f"{p(cpu, 0.99) / max(1e-9, statistics.median(base)):8.1f}x          "
                  f"{goal[0]:.0f} / {goal[1]:.0f} {'met' if met else 'NOT MET'}", flush=True)
    if bases:
        print(f"baseline (sorting 5,000 numbers, CPU time): median {statistics.median(bases):.2f} ms in this run"
              + (f"; load average over the last minute {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
                 "(wall times stretch with the load; CPU times far less)" if hasattr(os, "getloadavg") else ""))
    return 1 if missed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000, help="The FOG's random full turns")
    parser.add_argument("--pictures", type=int, default=1000, help="the partner race's random pictures")
    parser.add_argument("--moves", type=int, default=600, help="The FOG's pictures of one random move")
    parser.add_argument("--steps", type=int, default=300, help="The FOG's pictures part-way through a move")
    parser.add_argument("--whole-search", action="store_true",
                        help="also time the unbounded search on the pictures part-way (slow)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1,
                        help="with --game: read each picture this many times and keep the least (a game's own "
                             "caches are warm after the first)")
    parser.add_argument("--cold", action="store_true",
                        help="with --game: do not build each position's view first (as no page at the table would)")
    parser.add_argument("--game", default=None,
                        help="every game's reading at every player count: a game's name, or 'all'")
    args = parser.parse_args()
    if args.game:
        from companion.games import names

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        return every_game(list(names()) if args.game == "all" else [args.game],
                          200 if args.pictures == 1000 else args.pictures, args.seed, args.repeat, args.cold)
    times: list[float] = []
    readings: list[float] = []
    asked = 0
    held = 0  # read as a step holding the reading: a whole turn that is also the first token of a longer move
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
        held += reading.part_way
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
          f"max {readings[-1]:.1f} ms; turns whose reading the players are asked to confirm: {asked}; "
          f"held as a step (the first token of a push or swap too): {held}")

    if args.moves > 0:
        single, held_single = fog_single_moves(args.moves, args.seed)
        print(f"reconcile of one move's picture (the table read move by move): p50 {pct(50, single):.1f} ms   "
              f"p99 {pct(99, single):.1f} ms   max {single[-1]:.1f} ms; held as a step (the first token of a "
              f"push or swap too): {held_single} of {len(single)}")
    if args.steps > 0:
        bounded, unbounded, read = fog_steps(args.steps, args.seed, args.whole_search)
        print(f"reconcile of one token of a swap or push put down (a step, search bounded to {STEP_NODES} "
              f"positions a tier): p50 {pct(50, bounded):.1f} ms   p99 {pct(99, bounded):.1f} ms   "
              f"max {bounded[-1]:.1f} ms")
        print(f"  read as: " + ", ".join(f"{kind} {n}" for kind, n in read.items())
              + f" (of {len(bounded)} pictures; a whole move is one the session logs before the rest comes)")
        if unbounded:
            print(f"  the whole search on the same pictures: p50 {pct(50, unbounded):.1f} ms   "
                  f"p99 {pct(99, unbounded):.1f} ms   max {unbounded[-1]:.1f} ms")

    race = {kind: sorted(ms) for kind, ms in race_readings(args.pictures, args.seed).items()}
    fog = (pct(50, readings), pct(99, readings), readings[-1])
    print(f"\nreconcile, one picture          p50 ms   p99 ms   max ms")
    print(f"  The FOG (baseline)          {fog[0]:8.1f} {fog[1]:8.1f} {fog[2]:8.1f}   {len(readings)} full turns")
    for kind, ms in race.items():
        figures = (pct(50, ms), pct(99, ms), ms[-1])
        label = "partner race" if kind == "all" else f"  {kind}"
        print(f"  {label:<28}{figures[0]:8.1f} {figures[1]:8.1f} {figures[2]:8.1f}   {len(ms)} pictures")
    allr = race["all"]
    if hasattr(os, "getloadavg"):  # other work on the machine stretches every figure alike
        print(f"  (load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    ratio = [r / f if f > 0 else float("inf") for r, f in zip((pct(50, allr), pct(99, allr), allr[-1]), fog, strict=True)]
    print(f"  partner race / The FOG      {ratio[0]:7.1f}x {ratio[1]:7.1f}x {ratio[2]:7.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
