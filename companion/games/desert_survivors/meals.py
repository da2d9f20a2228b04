"""Phase 2 and 3 of a round: eating and fighting, then scoring and the next round's preparation.

Phase 2 begins with the oases: every player with a character (not a monkey) on an oasis gets 2
food. Then, from the start player on, each player in turn takes a food counter next to one of
their characters, attacks, sacrifices, gives spare food away, or passes (only a player none of
whose characters is hungry may pass). A fight is two secret commits and a ``show``. The phase
ends the moment no living character is hungry; phase 3 then scores, shuffles the X-counters, turns
every disc face down, clears the cards, shares the spent markers out and names the new start player.

Pure: standard library only.
"""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType

from companion.games.desert_survivors.actions import Attack, Commit, Give, Pass, Sacrifice, Show, Take
from companion.games.desert_survivors.board import build
from companion.games.desert_survivors.pieces import (ROUNDS, food_value, is_disc, is_monkey, is_x, size,
                                                     victory_points, x_food, x_kind)
from companion.games.desert_survivors.state import DesertState, Fight, FightResult

PhaseTwoAction = Take | Attack | Commit | Show | Sacrifice | Give | Pass


def _own_character(state: DesertState, where: str, seat: int) -> str | None:
    """Why the piece on ``where`` is not a character of ``seat`` that may eat or fight (None: it is)."""
    piece = state.board.get(where)
    if piece is None or not is_disc(piece):
        return f"no character stands on {where}"
    if state.seat_of(piece) != seat:
        return f"the character on {where} is not {state.seats[seat]}'s"
    if is_monkey(piece):
        return f"the disc on {where} is a monkey: a monkey neither eats, finds food nor fights"
    return None


def food_within_reach(state: DesertState, seat: int) -> list[Take]:
    near = build(state.arrangement).neighbours
    return [Take(a, b) for a, p in state.board.items() if _own_character(state, a, seat) is None
            for b in near[a] if _is_food(state, b)]


def _is_food(state: DesertState, where: str) -> bool:
    piece = state.board.get(where, "")
    return is_x(piece) and piece in state.face_up and x_kind(piece) == "food"


def why_not(state: DesertState, act: PhaseTwoAction) -> str | None:
    """Why ``act`` is not legal now in phase 2 (None: it is)."""
    seat, fight = state.turn, state.fight
    if isinstance(act, (Commit, Show)):
        if fight is None:
            return "no fight is under way"
        sides = (state.seat_of(state.board[fight.attacker]), state.seat_of(state.board[fight.defender]))
        if isinstance(act, Show):
            return None if None not in fight.commits else "both sides must close their fist (commit) before the show"
        if act.seat not in state.seats or state.seats.index(act.seat) not in sides:
            return f"{act.seat} is not a side of this fight"
        side = sides.index(state.seats.index(act.seat))
        if fight.commits[side] is not None:
            return f"{act.seat} has already committed to this fight"
        held = state.markers[sides[side]]
        return None if act.markers <= held else f"{act.seat} holds {held} fight markers, not {act.markers}"
    if fight is not None:
        return "a fight is under way: both sides commit their markers, then show"
    if isinstance(act, Take):
        why = _own_character(state, act.source, seat)
        if why:
            return why
        if not _is_food(state, act.target):
            return f"no revealed food counter lies on {act.target}"
        if act.target not in build(state.arrangement).neighbours[act.source]:
            return f"{act.target} is not next to {act.source}: food is taken only from a space directly beside"
        return None
    if isinstance(act, (Attack, Sacrifice)):
        if not state.hungry_seat(seat):
            return f"none of {state.active}'s characters is hungry: only a hungry player fights or sacrifices"
        why = _own_character(state, act.space if isinstance(act, Sacrifice) else act.source, seat)
        if why or isinstance(act, Sacrifice):
            return why
        target = state.board.get(act.target, "")
        if not is_disc(target) or is_monkey(target):
            return f"no character stands on {act.target} (a monkey cannot be attacked)"
        if state.seat_of(target) == seat:
            return "a player never attacks their own characters"
        if act.target not in build(state.arrangement).neighbours[act.source]:
            return f"{act.target} is not next to {act.source}: only a character directly beside may be attacked"
        return None
    if act.seat != state.active:
        return f"it is {state.active}'s turn"
    if state.hungry_seat(seat):
        return f"{state.active} has a hungry character: they must take food, fight or sacrifice"
    if isinstance(act, Give):
        if act.to not in state.seats or act.to == act.seat or not state.hungry_seat(state.seats.index(act.to)):
            return f"{act.to} has no hungry character to give food to"
        return None if 1 <= act.food <= state.spare[seat] else f"{act.seat} has {state.spare[seat]} spare food"
    return None  # a satisfied player may pass


def candidates(state: DesertState) -> list[PhaseTwoAction]:
    """Every phase-2 action worth checking now (the legal ones pass :func:`why_not`)."""
    fight = state.fight
    if fight is not None:
        sides = (state.seat_of(state.board[fight.attacker]), state.seat_of(state.board[fight.defender]))
        out: list[PhaseTwoAction] = [Commit(state.seats[s], n) for k, s in enumerate(sides) if fight.commits[k] is None
                                 for n in range(state.markers[s] + 1)]
        return out + [Show()]
    seat, near = state.turn, build(state.arrangement).neighbours
    own = [a for a in state.board if _own_character(state, a, seat) is None]
    acts: list[PhaseTwoAction] = [*food_within_reach(state, seat)]
    acts += [Attack(a, b) for a in own for b in near[a] if b in state.board]
    acts += [Sacrifice(a) for a in own]
    acts += [Give(state.active, to, n) for to in state.seats for n in range(1, state.spare[seat] + 1)]
    return acts + [Pass(state.active)]


def play(state: DesertState, act: PhaseTwoAction) -> DesertState:
    """The state after a legal phase-2 action (checked by the caller)."""
    seat = state.turn
    if isinstance(act, Take):
        piece = state.board[act.target]
        board = {s: p for s, p in state.board.items() if s != act.target}
        state = replace(state, board=MappingProxyType(board), face_up=state.face_up - {piece},
                        spare=_add(state.spare, seat, x_food(piece)))
    elif isinstance(act, Attack):
        return replace(state, fight=Fight(act.source, act.target))
    elif isinstance(act, Commit):
        assert state.fight is not None
        sides = (state.seat_of(state.board[state.fight.attacker]), state.seat_of(state.board[state.fight.defender]))
        k = sides.index(state.seats.index(act.seat))
        commits = (act.markers, state.fight.commits[1]) if k == 0 else (state.fight.commits[0], act.markers)
        return replace(state, fight=replace(state.fight, commits=commits))
    elif isinstance(act, Show):
        state = _fought(state)
    elif isinstance(act, Sacrifice):
        piece, lost = state.board[act.space], min(2, state.markers[seat])
        state = _killed(state, act.space)
        state = replace(state, spare=_add(state.spare, seat, food_value(piece)),
                        markers=_add(state.markers, seat, -lost), pool=state.pool + lost)
    elif isinstance(act, Give):
        to = state.seats.index(act.to)
        state = replace(state, spare=_add(_add(state.spare, seat, -act.food), to, act.food))
    return next_turn(state, state.turn + 1)


def _add(values: tuple[int, ...], seat: int, n: int) -> tuple[int, ...]:
    return tuple(v + n if k == seat else v for k, v in enumerate(values))


def _killed(state: DesertState, where: str) -> DesertState:
    """The character on ``where`` leaves the board; its card turns over and its owner keeps its food."""
    piece = state.board[where]
    owner = state.seat_of(piece)
    board = {s: p for s, p in state.board.items() if s != where}
    food = {c: n for c, n in state.food.items() if c != piece}
    out = replace(state, board=MappingProxyType(board), face_up=state.face_up - {piece}, dead=state.dead | {piece},
                  food=MappingProxyType(food), spare=_add(state.spare, owner, state.food[piece]))
    return out


def _fought(state: DesertState) -> DesertState:
    """Both fists open: fight power (size) plus markers; the higher wins, a tie goes to the attacker.
    The markers go to the pool; the loser's character dies and its owner takes 2 markers from the
    pool (none if fewer are left); the winner eats the dead character's food value."""
    fight = state.fight
    assert fight is not None and fight.commits[0] is not None and fight.commits[1] is not None
    att, dfn = state.board[fight.attacker], state.board[fight.defender]
    a, d = fight.commits[0], fight.commits[1]
    won = size(att) + a >= size(dfn) + d
    winner, loser, at = (att, dfn, fight.defender) if won else (dfn, att, fight.attacker)
    w, lo = state.seat_of(winner), state.seat_of(loser)
    markers = _add(_add(state.markers, state.seat_of(att), -a), state.seat_of(dfn), -d)
    pool = state.pool + a + d
    gain = 2 if pool >= 2 else 0
    result = FightResult(att, dfn, (a, d), winner)
    state = replace(_killed(state, at), fight=None, markers=_add(markers, lo, gain), pool=pool - gain,
                    spent=state.spent + a + d, last_fight=result, fights=state.fights + (result,))
    return replace(state, spare=_add(state.spare, w, food_value(loser)))


def can_act(state: DesertState, seat: int) -> bool:
    """Has ``seat`` anything to do in phase 2 but pass? (A seat that has not is skipped.)"""
    if state.hungry_seat(seat) or food_within_reach(state, seat):
        return True
    return state.spare[seat] > 0 and any(state.hungry_seat(s) for s in range(len(state.seats)) if s != seat)


def next_turn(state: DesertState, first: int) -> DesertState:
    """The turn to the first seat from ``first`` on that has something to do; the round scored the
    moment no character is hungry."""
    n = len(state.seats)
    if not any(state.hungry_seat(s) for s in range(n)):
        return score_round(state)
    seat = next(s % n for s in range(first, first + n) if can_act(state, s % n))
    return replace(state, turn=seat)


def begin(state: DesertState) -> DesertState:
    """Phase 2 begins: 2 food to each player with a character (not a monkey) on an oasis."""
    oases = set(build(state.arrangement).oases())
    spare = tuple(v + 2 if any(s in oases and not is_monkey(p) and is_disc(p) and state.seat_of(p) == k
                                for s, p in state.board.items()) else v for k, v in enumerate(state.spare))
    return next_turn(replace(state, phase="eat", spare=spare, road=False), state.start)


def score_round(state: DesertState) -> DesertState:
    """Phase 3. The last round scores each survivor's victory points and ends the game (the food
    left stays counted for the tie-break); any other scores 1 point per living character."""
    n = len(state.seats)
    if state.round == ROUNDS:
        vp = tuple(v + sum(victory_points(c) for c in state.alive(k)) for k, v in enumerate(state.vp))
        return replace(state, vp=vp, phase="over")
    vp = tuple(v + len(state.alive(k)) for k, v in enumerate(state.vp))
    roads = [p for p in state.board.values() if is_x(p) and p in state.face_up and x_kind(p) == "road"]
    board = {s: p for s, p in state.board.items() if p not in roads}
    face_up = frozenset(p for p in state.face_up if is_x(p) and p in board.values())  # found food, treasures
    mix = list(state.mix) + roads + list(state.stacks[0] if state.stacks else ())
    random.Random(f"{state.seed}/{state.round}").shuffle(mix)
    dealt: list[str] = []
    for where in build(state.arrangement).kinds:
        if where not in board and mix:
            board[where] = mix.pop(0)
            dealt.append(where)
    share = min(state.spent, state.pool) // n
    cleared = replace(state, vp=vp, board=MappingProxyType(board), face_up=face_up, mix=tuple(mix),
                      stacks=state.stacks[1:], food=MappingProxyType({c: 0 for c in state.food}),
                      markers=tuple(m + share for m in state.markers), pool=state.pool - share * n,
                      spent=state.spent - share * n, round=state.round + 1, phase="move", road=False,
                      dealt=tuple(dealt))
    start = new_start(cleared)
    return replace(cleared, turn=start, start=start)


def new_start(state: DesertState) -> int:
    """The player with the least food; if tied, the one who needs the most food to satisfy their
    characters; if still tied, the first of them to the left of the former start player. Never the
    former start player twice running."""
    n = len(state.seats)
    order = [(state.start + k) % n for k in range(1, n)]  # the former start player is left out
    need = {s: sum(size(c) for c in state.alive(s)) - state.total_food(s) for s in order}
    return min(order, key=lambda s: (state.total_food(s), -need[s], order.index(s)))
