"""Explain a board change: the cheapest legal movements that turn what was expected into what is seen.

This is the heart of reconciliation. Given the expected state (``before``) and an observed
placement (``after``), :func:`explain` searches for the cheapest sequence of legal movements of
the active colour, within the MP left (the free endurance run included), that produces exactly
that placement. It is an A* search over single movements with an admissible lower bound on the
MP still needed, so the first complete sequence it finds is a cheapest one.

If several cheapest sequences lead to outcomes that differ in what the rules hand out (which
preparation bonuses are taken), all of them are returned so the players can be asked. If none
exists, the answer names the islander(s) and the rule that stands in the way.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.fog.bounds import DEFAULT, Bounds
from companion.games.fog.movement import MoveAction, Movement, Pos, Rules, apply_step, movements_from
from companion.games.fog.state import GameState
from companion.games.fog.words import TOO_MANY_WAYS, capital, names, not_theirs, piece_name, place_name, player_name

CLUSTER_GAP = 2  # fields between moved islanders that are explained separately
NEAR_REACH = 3  # fields: a pusher stands next to a row of up to 3 pushed islanders


@dataclass
class Option:
    """One cheapest way to explain the change, with what it hands out."""

    movements: tuple[Movement, ...]
    cost: int
    gains: tuple[int, ...]
    prepared: tuple[str, ...]
    pending: tuple[bool, ...] = ()  # per movement: did it leave the mover on an occupied field?

    @property
    def actions(self) -> tuple[MoveAction, ...]:
        return group_actions(self.movements, self.pending)

    def to_dict(self) -> dict[str, Any]:
        return {"movements": [str(m) for m in self.movements], "cost": self.cost,
                "preparation_bonuses": list(self.gains), "prepared": list(self.prepared)}


@dataclass
class Explanation:
    """The answer of :func:`explain`: options (cheapest first), or a reason why there is none."""

    options: list[Option] = field(default_factory=list)
    reason: str | None = None
    offenders: tuple[str, ...] = ()
    rule: str | None = None
    searched: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.options)

    @property
    def ambiguous(self) -> bool:
        return len(self.options) > 1

    @property
    def cost(self) -> int | None:
        return self.options[0].cost if self.options else None

    @property
    def movements(self) -> tuple[Movement, ...]:
        return self.options[0].movements if self.options else ()

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "ambiguous": self.ambiguous, "cost": self.cost,
                "options": [o.to_dict() for o in self.options], "reason": self.reason,
                "offenders": list(self.offenders), "rule": self.rule, "searched": self.searched}


def _dominates(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Outcome ``a`` is as good as ``b`` for the player in every way and better in one: the same
    bonuses, and the endurance run kept open where ``b`` has made it. Two readings that both leave
    the run to be made, by different islanders (which of two swapped islanders moved), differ in what
    the player may do next: neither is taken silently, the players are asked (interpretation 29)."""
    return a[0] == b[0] and a[1] > b[1] and b[2] and not a[2]


def group_actions(movements: Sequence[Movement], pending: Sequence[bool]) -> tuple[MoveAction, ...]:
    """Cut movements into complete moves: a move ends with the first movement that leaves nobody pending."""
    out: list[MoveAction] = []
    current: list[Movement] = []
    for m, left_pending in zip(movements, pending, strict=True):
        current.append(m)
        if not left_pending:
            out.append(MoveAction(tuple(current)))
            current = []
    return tuple(out)


# ----------------------------------------------------------------------------- checks
def _placement_of(after: GameState | Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    if isinstance(after, GameState):
        return {c: tuple(ps) for c, ps in after.placement.items() if ps}
    return {str(c): tuple(ps) for c, ps in after.items() if ps}


def _structural_problems(before: GameState, target: Mapping[str, tuple[str, ...]]) -> Explanation | None:
    """Changes no sequence of movements can make, each with the rule it breaks."""
    board = before.board_data
    covered = board.swallowed_rows(before.fog)
    where_after: dict[str, str] = {}
    for cell, pieces in target.items():
        if cell not in board.cells:
            return Explanation(reason=f"unknown cell {cell!r}", rule="board")
        for p in pieces:
            if p not in board.islanders and p not in board.obstacles:
                return Explanation(reason=f"a token that is no piece of this board stands on {place_name(board, cell)}: take it off",
                                   rule="board")
            if p in where_after:
                return Explanation(reason=f"{capital(piece_name(board, p))} is seen on both {place_name(board, where_after[p])} and "
                                          f"{place_name(board, cell)}: "
                                          "two tokens carry its marker; take the one that is not it off", offenders=(p,),
                                   rule="board")
            where_after[p] = cell
    where_before = before.where
    for p, cell in where_before.items():
        if p in board.obstacles and where_after.get(p) != cell:
            return Explanation(reason=f"{capital(piece_name(board, p))} moved from {place_name(board, cell)} to "
                                      f"{place_name(board, where_after[p]) if p in where_after else 'off the board'}; "
                                      "obstacles never move", offenders=(p,), rule="obstacles")
    for p in where_after:
        if p in before.lost:
            return Explanation(reason=f"{capital(piece_name(board, p))} was taken by the FOG in row {before.lost[p]} and cannot come back",
                               offenders=(p,), rule="fog")
        if p not in where_before:
            return Explanation(reason=f"{capital(piece_name(board, p))} is not in this game: take it off the board",
                               offenders=(p,), rule="board")
    missing = sorted(p for p in where_before if p not in where_after)
    if missing:
        return Explanation(reason=f"{capital(names(board, missing))} {'is' if len(missing) == 1 else 'are'} not on the board",
                           offenders=tuple(missing), rule="missing")
    for p, cell in where_after.items():
        if p not in board.islanders:
            continue
        c = board.cells[cell]
        before_cell = board.cells[where_before[p]]
        if before_cell.kind == "boat" and (c.kind != "boat" or c.boat != before_cell.boat):
            return Explanation(reason=f"{capital(piece_name(board, p))} left the {before_cell.boat} boat; nobody ever leaves a boat again",
                               offenders=(p,), rule="boarding")
        if c.kind == "woods":
            return Explanation(reason=f"{capital(piece_name(board, p))} stands in the woods", offenders=(p,), rule="woods")
        if board.row_of(cell) in covered:
            return Explanation(reason=f"{capital(piece_name(board, p))} stands in row {board.row_of(cell)}, which the FOG covers",
                               offenders=(p,), rule="fog")
        if c.kind == "boat" and c.place == "productive" and c.islander_type != board.islanders[p].type:
            return Explanation(reason=f"{capital(piece_name(board, p))} cannot take {place_name(board, cell)}: "
                                      f"that place is for a {c.islander_type}",
                               offenders=(p,), rule="boarding")
    for cell, pieces in target.items():
        c = board.cells[cell]
        if c.kind != "boat" and len(pieces) > 1:
            return Explanation(reason=f"{capital(names(board, pieces))} stand on the same field {place_name(board, cell)}",
                               offenders=tuple(p for p in pieces if p in board.islanders), rule="empty-field")
        if c.kind == "boat" and c.place == "stern" and len(pieces) > c.capacity and \
                len(before.pieces_at(cell)) < len(pieces) and not before.options.drive_off == "advanced":
            return Explanation(reason=f"the {c.boat} stern holds {c.capacity}, {len(pieces)} are in it",
                               offenders=tuple(pieces), rule="boarding")
    return None


# ----------------------------------------------------------------------------- search
class _Node:
    """A search position: the turn's position, where every islander is, and how it got here."""

    __slots__ = ("pos", "locs", "off", "away", "g", "parent", "movement", "pending")

    def __init__(self, pos: Pos, locs: dict[str, str], off: dict[str, int], away: frozenset[tuple[str, str]],
                 g: int, parent: int, movement: Movement | None, pending: bool) -> None:
        self.pos = pos
        self.locs = locs          # islander -> cell, for every islander on the board
        self.off = off            # islander -> distance still to go, only where > 0
        self.away = away          # (islander, cell) for islanders not on their starting field
        self.g = g
        self.parent = parent
        self.movement = movement
        self.pending = pending


class _Search:
    def __init__(self, before: GameState, target: Mapping[str, tuple[str, ...]], bounds: Bounds,
                 reach: int | None = None, allow_endurance: bool = True) -> None:
        """``reach``: None = every islander of the colour may move; 0 = only displaced ones;
        -1 = displaced ones and those next to moved islanders of other colours (pushers, swappers);
        k > 0 = also those within k fields of any moved islander."""
        self.before = before
        self.rules = Rules.of(before)
        self.board = before.board_data
        self.dist = self.rules.topo.dist
        self.bounds = bounds
        self.target_of: dict[str, str] = {p: c for c, ps in target.items() for p in ps if p in self.board.islanders}
        self.start_of = {p: c for p, c in before.where.items() if p in self.board.islanders}
        self.budget = before.mp_left
        isl = self.board.islanders
        kind = self.rules.topo.kind
        displaced = [p for p, c in self.target_of.items() if before.where.get(p) != c]
        near = {c for p in displaced for c in (before.where[p], self.target_of[p])}
        # Islanders of other colours only move when pushed, swapped or pulled: whoever did it
        # stood within two fields of them (a push moves a row of up to two, enhanced three).
        foreign_spots = {before.where[p] for p in displaced if p not in self.rules.movers}
        self.movers = sorted(
            m for m in self.rules.movers if m in self.target_of and (
                reach is None or m in displaced
                or (reach != 0 and any(self.dist[before.where[m]].get(c, 99) <= 2 for c in foreign_spots))
                or (reach is not None and reach > 0 and any(self.dist[before.where[m]].get(c, 99) <= reach for c in near))))
        self.allow_endurance = allow_endurance
        # who may make the endurance run after the reading is followed even when the run itself is
        # not part of it (the plain reading offered beside one that makes it): which of two swapped
        # islanders moved decides it
        self.endurance_movers = frozenset(m for m in self.movers if isl[m].characteristic == "endurance")
        self.water = any(kind[c] in ("shore", "pier", "boat") for c in list(self.start_of.values())
                         + list(self.target_of.values()))
        self.push_char = any(isl[m].characteristic == "push" for m in self.movers)
        self.own = frozenset(self.movers)
        self.prep_relevant = not self.rules.solo and any(
            self.board.cells[c].kind == "boat" and self.board.cells[c].place == "productive"
            for p, c in self.target_of.items() if before.where.get(p) != c)
        # Equal-cost explanations matter only when they could hand out different bonuses or
        # leave a different islander entitled to the free endurance run.
        self.collect_all = self.prep_relevant or (bool(self.endurance_movers) and not before.endurance_used)

    def h(self, off: Mapping[str, int], endurance_used: bool, pending: bool) -> int:
        """Admissible lower bound on the MP still needed.

        Own islanders move at most one field per MP (the endurance run gives one field free).
        Other colours' islanders only move passively: pushed (at best 2 MP per field, and at most
        one pushed field per MP with the push characteristic, 2 per 3 MP without), swapped
        (3 MP) or pulled back in the water (1 MP, the mover moving too). All islanders together
        move at most 2 fields per MP in the water (pull), 1.5 with a push characteristic, else 1.
        """
        if not off:
            return 1 if pending else 0
        free = 0 if endurance_used or not self.endurance_movers or not self.allow_endurance else 1
        own_max = foreign_max = total = foreign = 0
        own = self.own
        for p, d in off.items():
            total += d
            if p in own:
                if d > own_max:
                    own_max = d
            else:
                foreign += d
                if d > foreign_max:
                    foreign_max = d
        rest = max(total - free, 0)
        if self.water:
            bound = max(own_max - free, foreign_max, foreign, math.ceil(rest / 2))
        elif self.push_char:
            bound = max(own_max - free, 2 * foreign_max, foreign, math.ceil(rest / 1.5))
        else:
            bound = max(own_max - free, 2 * foreign_max, math.ceil(1.5 * foreign), rest)
        return max(bound, 1) if pending else bound

    def outcome(self, pos: Pos) -> tuple[Any, ...]:
        """What an explanation hands out: bonuses, who may still make the endurance run, and whether it
        is made."""
        eligible = frozenset() if pos.endurance_used else pos.moved & self.endurance_movers
        return (tuple(sorted(pos.gains)), eligible, pos.endurance_used)

    def key(self, node: _Node) -> tuple[Any, ...]:
        pos = node.pos
        k: tuple[Any, ...] = (node.away, pos.pending, pos.endurance_used, pos.moved & self.endurance_movers)
        if self.prep_relevant:
            k += (pos.prepared, tuple(sorted(pos.gains)))
        return k

    def run(self) -> Explanation:
        start_pos = Pos.of(self.before)
        locs = dict(self.start_of)
        off = {p: d for p, c in locs.items() if (d := self.dist[c].get(self.target_of[p], 99)) > 0}
        start = _Node(start_pos, locs, off, frozenset(), 0, -1, None, False)
        nodes = [start]
        h0 = self.h(off, start_pos.endurance_used, False)
        if h0 > self.budget:
            return self._too_far(h0)
        heap: list[tuple[int, int, int]] = [(h0, 0, 0)]
        best_g: dict[tuple[Any, ...], int] = {self.key(start): 0}
        goals: list[int] = []
        best_cost: int | None = None
        expanded = 0
        dist, target_of = self.dist, self.target_of
        extra_limit = math.inf
        while heap:
            f, _neg_g, idx = heapq.heappop(heap)
            if best_cost is not None and (f > best_cost or expanded > extra_limit):
                break
            node = nodes[idx]
            if best_g.get(self.key(node), math.inf) < node.g:
                continue
            if node.pos.pending is None and not node.off:
                if best_cost is None:
                    best_cost = node.g
                    # Look for equally cheap alternatives with a bounded extra effort.
                    extra_limit = expanded + self.bounds.alternatives
                goals.append(idx)
                if not self.collect_all or (node.pos.endurance_used and not self.prep_relevant):
                    break
                continue
            expanded += 1
            if expanded > self.bounds.nodes:
                return Explanation(reason=TOO_MANY_WAYS, rule="search-limit", searched=expanded)
            movers = [node.pos.pending] if node.pos.pending else self.movers
            for mover in movers:
                for step in movements_from(self.rules, node.pos, mover, node.locs[mover]):
                    if not self.allow_endurance and step.movement.kind == "endurance":
                        continue
                    g = node.g + step.cost
                    off2 = dict(node.off)
                    for piece, _src, dst in step.relocations:
                        d = dist[dst].get(target_of[piece], 99)
                        if d:
                            off2[piece] = d
                        else:
                            off2.pop(piece, None)
                    used = node.pos.endurance_used or step.movement.kind == "endurance"
                    hh = self.h(off2, used, step.pending)
                    if g + hh > self.budget or (used and hh > 0):
                        continue
                    away_set = set(node.away)
                    for piece, src, dst in step.relocations:
                        away_set.discard((piece, src))
                        if self.start_of[piece] != dst:
                            away_set.add((piece, dst))
                    away = frozenset(away_set)
                    if not self.prep_relevant:  # the key is known before building the position
                        mover = step.movement.islander
                        moved_end = node.pos.moved & self.endurance_movers
                        if step.cost > 0 and mover in self.endurance_movers:
                            moved_end = moved_end | {mover}
                        k = (away, mover if step.pending else None, used, moved_end)
                        if best_g.get(k, math.inf) <= g:
                            continue
                    new_locs = dict(node.locs)
                    for piece, _src, dst in step.relocations:
                        new_locs[piece] = dst
                    child = _Node(apply_step(node.pos, step), new_locs, off2, away, g, idx, step.movement,
                                  step.pending)
                    k = self.key(child)
                    if best_g.get(k, math.inf) <= g:
                        continue
                    best_g[k] = g
                    nodes.append(child)
                    heapq.heappush(heap, (g + hh, -g, len(nodes) - 1))
        if not goals:
            return self._explain_failure(expanded)
        return self._options(nodes, goals, expanded)

    def _options(self, nodes: list[_Node], goals: list[int], expanded: int) -> Explanation:
        seen: dict[tuple[Any, ...], Option] = {}
        for idx in goals:
            node = nodes[idx]
            moves: list[Movement] = []
            pend: list[bool] = []
            i = idx
            while nodes[i].movement is not None:
                moves.append(nodes[i].movement)  # type: ignore[arg-type]
                pend.append(nodes[i].pending)
                i = nodes[i].parent
            moves.reverse()
            pend.reverse()
            outcome = self.outcome(node.pos)
            if any(_dominates(other, outcome) for other in seen):
                continue
            for other in [o for o in seen if _dominates(outcome, o)]:
                del seen[other]
            if outcome not in seen:
                seen[outcome] = Option(tuple(moves), node.g, tuple(node.pos.gains),
                                       tuple(sorted(node.pos.prepared - frozenset(self.before.prepared))),
                                       tuple(pend))
        return Explanation(options=list(seen.values()), searched=expanded)

    def _too_far(self, h0: int) -> Explanation:
        worst = max(self.target_of, key=lambda p: self.dist[self.before.where[p]].get(self.target_of[p], 99)
                    if p in self.before.where else -1)
        return Explanation(
            reason=f"this change needs at least {h0} MP ({piece_name(self.board, worst)} from "
                   f"{place_name(self.board, self.before.where[worst])} to {place_name(self.board, self.target_of[worst])}); "
                   f"{player_name(self.before, self.before.active_colour)} has {self.budget} MP left",
            offenders=(worst,), rule="movement-points")

    def _explain_failure(self, expanded: int) -> Explanation:
        changed = sorted(p for p in self.target_of if self.before.where.get(p) != self.target_of[p])
        foreign = [p for p in changed if p not in self.rules.movers]
        own = [p for p in changed if p in self.rules.movers]
        for p in own:
            single = _single_reach(self.before, self.rules, p, self.target_of[p], self.bounds.reach)
            if not single:
                return Explanation(
                    reason=f"{capital(piece_name(self.board, p))} cannot get from "
                           f"{place_name(self.board, self.before.where[p])} to "
                           f"{place_name(self.board, self.target_of[p])} by legal movements with {self.budget} MP", offenders=(p,),
                    rule="movement", searched=expanded)
        if foreign:
            return Explanation(reason=not_theirs(self.before, foreign), offenders=tuple(foreign),
                               rule="not-your-islander", searched=expanded)
        return Explanation(reason=f"no sequence of legal movements within {self.budget} MP explains the moves of "
                                  f"{names(self.board, changed)}", offenders=tuple(changed), rule="movement",
                           searched=expanded)


def _single_reach(before: GameState, rules: Rules, islander: str, target: str, reach: int) -> bool:
    """Can this islander alone reach the target within the MP left (others standing still)? Followed
    through at most ``reach`` fields and pending pushes."""
    start = Pos.of(before)
    frontier = [(0, 0, start)]
    seen: set[tuple[str, str | None]] = {(before.where[islander], None)}  # (cell, the islander pending)
    counter = 0
    while frontier:
        _, _, pos = heapq.heappop(frontier)
        for step in movements_from(rules, pos, islander):
            nxt = apply_step(pos, step)
            cell = step.relocations[-1][2] if step.relocations[-1][0] == islander else \
                next(d for p, _s, d in step.relocations if p == islander)
            if cell == target and nxt.pending is None:
                return True
            k = (cell, nxt.pending)
            if k in seen or len(seen) > reach:
                continue
            seen.add(k)
            counter += 1
            heapq.heappush(frontier, (before.mp_left - nxt.mp, counter, nxt))
    return False


def explain(before: GameState, after: GameState | Mapping[str, Sequence[str]],
            bounds: Bounds = DEFAULT, allow_endurance: bool = True) -> Explanation:
    """The cheapest legal movements of the active colour from ``before`` to the ``after`` placement
    (without the free endurance run when not ``allow_endurance``: the plain reading of a picture
    that could also be that run), searched within ``bounds`` (:mod:`bounds`: the reading budget's)."""
    target = _placement_of(after)
    if before.phase != "moving":
        return Explanation(reason=f"no movements in the {before.phase} phase", rule="phase")
    problem = _structural_problems(before, target)
    if problem is not None:
        return problem
    current = {c: tuple(sorted(ps)) for c, ps in before.placement.items() if ps}
    if current == {c: tuple(sorted(ps)) for c, ps in target.items()}:
        return Explanation(options=[Option((), 0, (), (), ())])
    clusters = _clusters(before, target)
    if len(clusters) > 1 and allow_endurance:
        combined = _explain_by_clusters(before, target, clusters, bounds)
        if combined is not None:
            return combined
    return _tiered(before, target, bounds, allow_endurance=allow_endurance)


def _tiered(before: GameState, target: Mapping[str, tuple[str, ...]], bounds: Bounds,
            allow_endurance: bool = True) -> Explanation:
    """Islanders that end where they started are first assumed to have stayed: far fewer positions
    to search. Then islanders near the moved ones may take part (a push or swap and back), and
    only if that finds nothing too, every islander of the colour."""
    searched = 0
    answer = Explanation()
    tried: list[list[str]] = []
    for reach in (0, -1, NEAR_REACH, None):
        search = _Search(before, target, bounds, reach=reach, allow_endurance=allow_endurance)
        if search.movers in tried:  # the same islanders as a tier already searched
            continue
        tried.append(search.movers)
        answer = search.run()
        searched += answer.searched
        if answer.ok:
            break
    answer.searched = searched
    return answer


def _clusters(before: GameState, target: Mapping[str, tuple[str, ...]]) -> list[list[str]]:
    """Displaced islanders grouped so that islanders of different groups stay far apart."""
    dist = Rules.of(before).topo.dist
    where_after = {p: c for c, ps in target.items() for p in ps}
    displaced = sorted(p for p, c in where_after.items()
                       if p in before.board_data.islanders and before.where.get(p) != c)
    spots = {p: (before.where[p], where_after[p]) for p in displaced}
    groups: list[list[str]] = []
    for p in displaced:
        touching = [g for g in groups if any(dist[a].get(b, 99) <= CLUSTER_GAP for q in g for a in spots[p]
                                             for b in spots[q])]
        merged = [p] + [q for g in touching for q in g]
        groups = [g for g in groups if g not in touching] + [merged]
    return groups


def _explain_by_clusters(before: GameState, target: Mapping[str, tuple[str, ...]], clusters: list[list[str]],
                         bounds: Bounds) -> Explanation | None:
    """Solve far-apart groups of moved islanders one by one and check the combined moves.

    Returns None whenever this shortcut does not give a clear single answer; the caller then
    searches the whole change at once.
    """
    from companion.errors import IllegalMoveError
    from companion.games.fog.legality import apply_move

    board = before.board_data
    where_after = {p: c for c, ps in target.items() for p in ps}
    parts: list[tuple[Option, Option | None]] = []
    searched = 0
    for group in clusters:
        placement: dict[str, list[str]] = {c: list(ps) for c, ps in before.placement.items()}
        for p in group:
            placement[before.where[p]].remove(p)
            placement.setdefault(where_after[p], []).append(p)
        sub = {c: tuple(ps) for c, ps in placement.items() if ps}
        plain = _tiered(before, sub, bounds, allow_endurance=False)
        searched += plain.searched
        if not plain.ok or plain.ambiguous:
            return None
        free: Option | None = None
        if not before.endurance_used and any(board.islanders[p].characteristic == "endurance" for p in group):
            with_run = _tiered(before, sub, bounds)
            searched += with_run.searched
            # Who may still make the endurance run no longer matters once it has been made.
            used = [o for o in with_run.options if o.movements and o.movements[-1].kind == "endurance"]
            if with_run.ambiguous and not used:
                return None
            free = used[0] if used else (with_run.options[0] if with_run.ok else None)
        parts.append((plain.options[0], free))
    savings = [(plain.cost - free.cost, i) for i, (plain, free) in enumerate(parts) if free is not None]
    best = max(savings, default=(0, -1))
    chosen = [free if i == best[1] and best[0] > 0 and free is not None else plain
              for i, (plain, free) in enumerate(parts)]
    if best[0] > 0:  # the endurance run is the last movement of the turn: its group goes last
        chosen.append(chosen.pop(best[1]))
    total = sum(o.cost for o in chosen)
    if total > before.mp_left:
        return None
    movements = tuple(m for o in chosen for m in o.movements)
    pending = tuple(f for o in chosen for f in o.pending)
    state = before
    try:
        for action in group_actions(movements, pending):
            state = apply_move(state, action)
    except IllegalMoveError:
        return None
    if {c: sorted(ps) for c, ps in state.placement.items()} != {c: sorted(ps) for c, ps in target.items()}:
        return None
    gains = tuple(v for c, vs in state.prep_taken.items() for v in vs)[
        sum(len(v) for v in before.prep_taken.values()):]
    prepared = tuple(sorted(set(state.prepared) - set(before.prepared)))
    return Explanation(options=[Option(movements, total, gains, prepared, pending)], searched=searched)


def apply_explanation(before: GameState, option: Option) -> GameState:
    """Apply an option's movements as confirmed moves."""
    from companion.games.fog.legality import apply_move

    state = before
    for action in option.actions:
        state = apply_move(state, action)
    return state
