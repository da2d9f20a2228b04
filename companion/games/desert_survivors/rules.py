"""Desert survivors' rules as pure functions over immutable states: setup, phase 1, and the door.

* Setup: every player puts their 5 food (per group) on their characters' cards (``feed``), then,
  from the start player on, each places one disc face down on a free sand space per turn
  (``place``); the spaces left (oases included) get an X-counter each, face down, from the mix. The
  companion deals them in its own order, but at a table the hands lay whichever counters they draw:
  until the round's first move, ``lay`` takes the counters the camera reads on the dealt spaces as
  the ones there (the dealt ones go back to the pile).
* Phase 1, movement and search for food: the player to move acts with one of their face-down discs:
  ``swap`` it with a connected face-down piece or one of their own face-up discs, or ``reveal`` it.
  An X-counter moved is turned up; a road lets the player act again (or ``end``), food or a treasure
  turns up the disc too; two discs swapped are both turned up. A player with no face-down disc is
  skipped, and the phase ends when every disc is face up.
* Phases 2 and 3 are in ``meals.py``.

Whenever a player holds food they could put on a hungry character's card, they must first do so
(``feed``, on their own phone): nothing else is legal until every such stack is placed.
``docs/rules-interpretations-desert-survivors.md`` explains each reading of the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from companion.errors import IllegalMoveError
from companion.games.base import Outcome
from companion.games.desert_survivors import meals
from companion.games.desert_survivors.actions import (Action, Attack, Commit, Correct, End, Feed, Give, Lay, Pass,
                                                      Place, Reveal, Sacrifice, Show, Swap, Take, parse_action)
from companion.games.desert_survivors.board import OASIS, build
from companion.games.desert_survivors.pieces import colour_of, discs_of, is_disc, is_x, x_kind
from companion.games.desert_survivors.state import DesertState, from_json, new_game, to_json

__all__ = ["Action", "DesertState", "apply", "connected", "feeders", "from_json", "legal_actions", "new_game",
           "outcome", "parse_action", "to_json", "winners"]


# ------------------------------------------------------------------------------------------ connections
def connected(state: DesertState, source: str) -> set[str]:
    """The spaces the disc on ``source`` may change places with as far as the ground goes: next to it,
    or linked to it through revealed roads and discs of its owner's colours (face up or down),
    space by space up, down, left or right."""
    near = build(state.arrangement).neighbours
    own = set(state.colours_of(state.seat_of(state.board[source])))

    def through(where: str) -> bool:
        piece = state.board.get(where, "")
        return (is_disc(piece) and colour_of(piece) in own) or \
            (is_x(piece) and piece in state.face_up and x_kind(piece) == "road")

    seen, todo, out = {source}, [source], set()
    while todo:
        for nxt in near[todo.pop()]:
            if nxt in state.board:
                out.add(nxt)
                if nxt not in seen and through(nxt):
                    seen.add(nxt)
                    todo.append(nxt)
    out.discard(source)
    return out


def feeders(state: DesertState) -> tuple[int, ...]:
    """Seats holding spare food they must put on a hungry character's card before play goes on."""
    return tuple(k for k in range(len(state.seats)) if state.spare[k] > 0 and state.hungry_seat(k))


def _face_down(state: DesertState, seat: int) -> list[str]:
    own = set(state.colours_of(seat))
    return [s for s, p in state.board.items() if is_disc(p) and colour_of(p) in own and p not in state.face_up]


def _lies_face_down(state: DesertState, seat: int, space: str) -> bool:
    """Is ``space`` one of :func:`_face_down`'s (asked of every candidate: the one space looked at)."""
    p = state.board.get(space)
    return p is not None and is_disc(p) and colour_of(p) in state.colours_of(seat) and p not in state.face_up


def _unplaced(state: DesertState, seat: int) -> list[str]:
    on = set(state.board.values())
    return [d for g in state.colours_of(seat) for d in discs_of(g) if d not in on]


# ------------------------------------------------------------------------------------------ checks
def why_not(state: DesertState, act: Action) -> str | None:
    """Why ``act`` is not legal now (None: it is), in words a player understands."""
    if state.phase == "over":
        return "the game is over"
    waiting = feeders(state)
    if isinstance(act, Feed):
        seat = state.seat_of(act.disc) if colour_of(act.disc) in state.groups else -1
        if seat not in waiting:
            return f"{act.disc} is not a character whose owner has food to place now"
        return None if state.hungry(act.disc) else f"{act.disc}'s card is full or the character is dead"
    if waiting:
        names = [state.name_of(k) for k in waiting]
        who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        return f"{who} must first put their food on their characters' cards, each on their own phone"
    if state.phase == "setup":
        if not isinstance(act, Place):
            return "the discs are being placed: place a disc face down on a free sand space"
        turn = state.name_of(state.turn)
        if colour_of(act.disc) not in state.groups:
            return f"{colour_of(act.disc)} is not played in this game; it is {turn}'s turn to place a disc"
        if state.seat_of(act.disc) != state.turn:
            return f"it is {turn}'s turn to place a disc, not {state.name_of(state.seat_of(act.disc))}'s"
        if act.disc in state.board.values():
            return f"{act.disc} is already placed"
        kind = build(state.arrangement).kinds.get(act.space)
        if kind == OASIS:
            return f"{act.space} is an oasis: discs are placed on sand, not on an oasis"
        if kind is None:
            return f"{act.space} is rock or off the desert: discs are placed on sand"
        return f"{act.space} is taken: discs are placed on a free sand space" if act.space in state.board else None
    if state.phase == "move":
        return _why_not_move(state, act)
    if isinstance(act, (Take, Attack, Commit, Show, Sacrifice, Give, Pass)):
        return meals.why_not(state, act)
    return "it is the eating and fighting phase: take food, attack, sacrifice, give food or pass"


def _why_not_move(state: DesertState, act: Action) -> str | None:
    if isinstance(act, End):
        ok = act.seat == state.active and state.road
        return None if ok else "only a player who has just found a road may end their turn early"
    if not isinstance(act, (Swap, Reveal)):
        return "it is the movement phase: swap or reveal one of your face-down discs"
    source = act.source if isinstance(act, Swap) else act.space
    if not _lies_face_down(state, state.turn, source):
        return f"no face-down disc of {state.active}'s lies on {source}"
    if isinstance(act, Reveal):
        return None
    target = state.board.get(act.target)
    if target is None:
        return f"nothing lies on {act.target} to change places with"
    if target in state.face_up and not (is_disc(target) and state.seat_of(target) == state.turn):
        return f"the piece on {act.target} is face up and not one of {state.active}'s discs"
    if act.target not in connected(state, source):
        return (f"{act.target} is not connected to {source}: only a space next to it, or one linked through "
                "revealed roads and your own discs, will do")
    return None


# ------------------------------------------------------------------------------------------ the door
def legal_actions(state: DesertState) -> list[Action]:
    """Every action legal now: the food placements owed, else the player to move's (both sides'
    commits in a fight)."""
    waiting = feeders(state)
    cands: Sequence[Action]
    if waiting:
        cands = [Feed(c) for k in waiting for c in state.alive(k)]
    elif state.phase == "setup":
        free = [s for s, k in build(state.arrangement).kinds.items() if k != OASIS and s not in state.board]
        cands = [Place(d, s) for d in _unplaced(state, state.turn) for s in free]
    elif state.phase == "move":
        own = _face_down(state, state.turn)
        cands = [Swap(a, b) for a in own for b in sorted(connected(state, a))] + [Reveal(a) for a in own]
        cands += [End(state.active)] if state.road else []
    elif state.phase == "eat":
        cands = meals.candidates(state)
    else:
        cands = []
    return [a for a in cands if why_not(state, a) is None]


def apply(state: DesertState, action: Action | str) -> DesertState:
    """The state after ``action``; never mutates; IllegalMoveError names the rule it breaks."""
    act = parse_action(action) if isinstance(action, str) else action
    if isinstance(act, Correct):
        return _corrected(state, act)
    if isinstance(act, Lay):
        return _laid(state, act)
    why = why_not(state, act)
    if why is not None:
        raise IllegalMoveError(f"{act}: {why}")
    state = replace(state, history=state.history + (str(act),))
    if isinstance(act, Feed):
        k = state.seat_of(act.disc)
        spare = tuple(v - 1 if i == k else v for i, v in enumerate(state.spare))
        food = {**state.food, act.disc: state.food[act.disc] + 1}
        state = replace(state, spare=spare, food=MappingProxyType(food))
        return meals.next_turn(state, state.turn) if state.phase == "eat" and state.fight is None else state
    if isinstance(act, Place):
        return _placed(state, act)
    if isinstance(act, (Swap, Reveal, End)):
        return _moved(state, act)
    return meals.play(state, act)  # only phase-2 actions are left once why_not has let one through


def _corrected(state: DesertState, act: Correct) -> DesertState:
    """The table as the players say it is: the pieces the game has on the board, each moved to the
    space named (a hand that moved pieces outside the rules). A correction that adds or drops a piece
    would change what the rules count (a character dead, a counter found), so it is refused; a face-down
    X-counter the hands drew from the pile in place of one the game has face down is an exchange with
    the pile (the table's counters are whichever the hands drew)."""
    kinds = build(state.arrangement).kinds
    spaces = [w for w, _ in act.placement]
    pieces = sorted(p for _, p in act.placement)
    bad = next((w for w in spaces if w not in kinds), None)
    if bad is not None:
        raise IllegalMoveError(f"{act}: {bad} is a rock or off the desert")
    if len(set(spaces)) != len(spaces):
        raise IllegalMoveError(f"{act}: one piece to a space")
    have = sorted(state.board.values())
    gone, new = [p for p in have if p not in pieces], [p for p in pieces if p not in have]
    exchanged = len(gone) == len(new) and all(is_x(p) and p not in state.face_up for p in gone) and \
        all(p in state.mix for p in new)  # face-down counters drawn from the pile for the game's own
    if len(set(pieces)) != len(pieces) or not exchanged:
        raise IllegalMoveError(f"{act}: a correction moves the pieces on the desert, it neither adds nor removes one "
                               "(a face-down X-counter may only change places with one of the pile)")
    taken = set(new)
    mix = tuple(gone.pop(0) if x in taken else x for x in state.mix)
    return replace(state, board=MappingProxyType(dict(act.placement)), mix=mix, history=state.history + (str(act),))


def why_not_lay(state: DesertState, act: Lay) -> str | None:
    """Why the hands' counters cannot be taken as laid (None: they can): only on the spaces the last
    deal filled, before the round's first move, each a face-down X-counter of the pile or of the deal,
    and one taken from another dealt space only if that space is named too (no counter on two spaces)."""
    if not state.dealt:
        return "X-counters are laid only on the spaces just dealt, before the round's first move"
    spaces, laid = [w for w, _ in act.placement], [x for _, x in act.placement]
    if len(set(spaces)) != len(spaces) or len(set(laid)) != len(laid):
        return "one X-counter to a space, and each counter on one space"
    bad = next((w for w in spaces if w not in state.dealt), None)
    if bad is not None:
        return f"{bad} is not one of the spaces just dealt"
    if any(state.board.get(w, "") in state.face_up or not is_x(state.board.get(w, "")) for w in spaces):
        return "a space named no longer holds a face-down X-counter"
    where, named = state.where(), set(spaces)
    for x in laid:
        at = where.get(x)
        if at is None and x not in state.mix:
            return f"{x} is not an X-counter in the pile beside the desert"
        if at is not None and at not in named:
            return f"{x} lies on {at}, which keeps its counter"
    return None


def _laid(state: DesertState, act: Lay) -> DesertState:
    """The counters the hands laid on the dealt spaces: those taken from the pile change places
    there with the dealt ones they replace, so the pile keeps its size and its order elsewhere."""
    why = why_not_lay(state, act)
    if why is not None:
        raise IllegalMoveError(f"{act}: {why}")
    old = [state.board[w] for w, _ in act.placement]
    new = {x for _, x in act.placement}
    back = [x for x in old if x not in new]
    mix = [back.pop(0) if x in new else x for x in state.mix]
    board = {**state.board, **dict(act.placement)}
    return replace(state, board=MappingProxyType(board), mix=tuple(mix), history=state.history + (str(act),))


def _placed(state: DesertState, act: Place) -> DesertState:
    board = {**state.board, act.space: act.disc}
    state = replace(state, board=MappingProxyType(board))
    n = len(state.seats)
    nxt = next((s % n for s in range(state.turn + 1, state.turn + n + 1) if _unplaced(state, s % n)), None)
    if nxt is not None:
        return replace(state, turn=nxt)
    mix, dealt = list(state.mix), list[str]()
    for where in build(state.arrangement).kinds:
        if where not in board and mix:
            board[where] = mix.pop(0)
            dealt.append(where)
    return replace(state, board=MappingProxyType(board), mix=tuple(mix), phase="move", turn=state.start,
                   dealt=tuple(dealt))


def _moved(state: DesertState, act: Swap | Reveal | End) -> DesertState:
    up = set(state.face_up)
    again = False
    if isinstance(act, Reveal):
        up.add(state.board[act.space])
    elif isinstance(act, Swap):
        mover, other = state.board[act.source], state.board[act.target]
        state = replace(state, board=MappingProxyType({**state.board, act.source: other, act.target: mover}))
        up.add(other)
        if is_x(other):
            again = x_kind(other) == "road"
            if not again:
                up.add(mover)  # food or a treasure: the disc that found it shows itself
        else:
            up.add(mover)  # two discs changed places: both show themselves
    state = replace(state, face_up=frozenset(up), dealt=())  # the round is under way: its counters lie as laid
    if again and _face_down(state, state.turn):
        return replace(state, road=True)
    n = len(state.seats)
    nxt = next((s % n for s in range(state.turn + 1, state.turn + n + 1) if _face_down(state, s % n)), None)
    if nxt is None:
        return meals.begin(replace(state, road=False))
    return replace(state, turn=nxt, road=False)


# ------------------------------------------------------------------------------------------ the end
def winners(state: DesertState) -> tuple[str, ...]:
    """Most victory points; if tied, the most food (on the cards and spare); if still tied, all of them."""
    if state.phase != "over":
        return ()
    n = len(state.seats)
    best = max((state.vp[k], state.total_food(k)) for k in range(n))
    return tuple(state.seats[k] for k in range(n) if (state.vp[k], state.total_food(k)) == best)


def outcome(state: DesertState) -> Outcome | None:
    if state.phase != "over":
        return None
    won = winners(state)
    top = max(state.vp)
    tied = sum(v == top for v in state.vp) > 1
    why = f"{top} victory points" + (", the most food among those tied" if tied and len(won) == 1 else "")
    named = " and ".join(state.name_of(state.seats.index(w)) for w in won)
    return Outcome(won, f"{named} brought the most through the desert: {why}")
