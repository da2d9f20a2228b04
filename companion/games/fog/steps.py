"""A move made one token at a time: half a swap or a push is a step, told as a step, not out of sync.

A swap, a push, a pull or a drive-off moves two or more tokens, and a hand moves them one after
the other: the mover lifted (not seen), put down on the field of the islander it swaps with or
pushes (two on one field), or the pushed islander moved on first. The camera settles on each
part. A picture is part-way through a legal move of the active colour when one move explains every
token that differs from the game: it stands where the move puts it or on its way there (sharing
a field with the one it displaces), or it is not seen and the move moves it. Anything else is
a picture no continuation of a legal move reaches.

A picture part-way through a move is often one no sequence of moves reaches either (the pushed
islander put down before its pusher), and proving that took the reading's search seconds (every
way of every islander of the colour within the MP left, up to 11 s was seen). So the game's
reconcile first searches at most ``step_nodes`` positions in each of its tiers (:mod:`bounds`: a
share of the reading budget, :data:`STEP_NODES` by default), which is far more than the readings
such a picture has need (a push and a run back: a few dozen), then looks for a step here, and only
for a picture that is no step either goes on to the whole search.

Whether a picture lies between the table as it was and as one move leaves it is the framework's
part-way test (:func:`companion.games.reading.part_way.between`, place by place, the fields each
token passes on its way as the ``path``); what is The FOG's own is which moves are tried: every
complete move of each islander of the active colour, a move being several movements (a push and
the run after it), not one legal action after another.

A picture can also be a whole legal move by itself and the first token of a longer one: an own
islander pushed one field on and put down before its pusher is also that islander's run. Read at
once, the pusher put down next was read as a second move (two moves nobody made, charged); so the
game's reconcile asks :func:`part_way` with ``read`` and, when a longer move still has to move a
token the picture left where it was, answers a step that holds the reading (settled by the session
if nothing more moves within the hold time).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from companion.games.base import Reconciliation
from companion.games.fog.board import Board
from companion.games.fog.bounds import DEFAULT
from companion.games.fog.movement import Movement, Pos, Rules, apply_step, movements_from
from companion.games.fog.state import GameState
from companion.games.fog.words import names, piece_name
from companion.games.reading import Hints
from companion.games.reading.part_way import between

STEP_NODES = DEFAULT.step_nodes  # positions per tier searched before a step is looked for, by default (see above)
TOKENS = Hints[GameState, object]()  # every token is itself when two pictures are compared field by field
MOVED_BESIDE_MOVER = 3  # the most tokens one move moves beside its mover (an enhanced push of three)
VERBS = {"swap": "swaps with", "push": "pushes", "pull": "pulls back", "drive-off": "drives off"}


def _moves(rules: Rules, pos: Pos, islander: str, done: tuple[Movement, ...], visited: dict[str, set[str]],
           moved: dict[str, str], depth: int = 0
           ) -> Iterator[tuple[tuple[Movement, ...], dict[str, str], dict[str, set[str]]]]:
    """Every complete move of one islander: its movements, the field each token it moves ends on
    (the others stay: a whole position per move made this search several times slower), and every
    field each token passes on the way (the tokens it moves included)."""
    for step in movements_from(rules, pos, islander):
        seen = {p: set(cells) for p, cells in visited.items()}
        seen.setdefault(islander, set()).update(step.movement.path)
        ends = dict(moved)
        for piece, src, dst in step.relocations:
            seen.setdefault(piece, set()).update((src, dst))
            ends[piece] = dst
        chain = done + (step.movement,)
        if not step.pending:
            yield chain, ends, seen
        elif depth < 9:
            yield from _moves(rules, apply_step(pos, step), islander, chain, seen, ends, depth + 1)


def _where(placement: Mapping[str, Sequence[str]]) -> dict[str, str] | None:
    """Token -> field; None when one token is seen twice (nothing a hand can do)."""
    out: dict[str, str] = {}
    for cell, pieces in placement.items():
        for piece in pieces:
            if piece in out:
                return None
            out[piece] = cell
    return out


def part_way(state: GameState, seen: Mapping[str, Sequence[str]], *, read: bool = False,
             moves: int = DEFAULT.moves) -> Reconciliation | None:
    """The picture as a step of a move still being made by hand, or None: no continuation of one
    legal move of the active colour reaches it.

    ``read``: the picture is also a whole legal move by itself (an own islander pushed one field on,
    put down before its pusher, is also that islander's run). Then only a longer move that still
    moves a token the picture left where it was (the pusher) makes it a step: a run is never held
    back as the first field of a longer run of the same islander, as a hand puts a token down where
    it goes. At most ``moves`` complete moves are looked through (the reading budget's share)."""
    if state.phase != "moving":
        return None
    board = state.board_data
    before, after = state.where, _where(seen)
    if after is None or any(p not in before or cell not in board.cells for p, cell in after.items()):
        return None
    changed = sorted(p for p in before if after.get(p) != before[p])
    if not changed or any(p in board.obstacles for p in changed):
        return None
    if read and len(changed) > MOVED_BESIDE_MOVER:  # a whole turn of moves: no one move still to finish moves them all
        return None
    rules, pos = Rules.of(state), Pos.of(state)
    fits: list[tuple[tuple[Movement, ...], dict[str, str], set[str]]] = []  # a move, what is left, who it moves
    looked = 0
    touched = {c for p in changed for c in (before[p], after.get(p)) if c is not None}
    for islander in sorted(rules.movers):
        if islander not in before:
            continue
        for chain, ends, visited in _moves(rules, pos, islander, (), {}, {}):
            looked += 1
            if looked > moves:
                return None
            # a move that leaves a token the picture shows moved where it was is never under way (the
            # framework's search prunes so too): most moves are passed over without building pictures
            if all(p in ends for p in changed) and _between(state.placement, before, after, touched, ends, visited):
                left = {p: c for p, c in ends.items() if c != before.get(p) and after.get(p) != c}
                if not read or any(p not in changed for p in left):
                    fits.append((chain, left, {p for p, c in ends.items() if c != before.get(p)}))
    if not fits:
        return None
    return Reconciliation.partial(_words(state.board_data, fits), sorted({p for _, left, _ in fits for p in left}),
                                  "step")


def _between(placement: Mapping[str, Sequence[str]], before: Mapping[str, str], after: Mapping[str, str],
             touched: set[str], ends: Mapping[str, str], visited: Mapping[str, set[str]]) -> bool:
    """The framework's part-way test for one move, on the fields that can differ (those a changed token
    or the move touches; every other field is the same in all three pictures): the move's end where its
    tokens go, and the fields they pass on the way as its path."""
    cells = touched | set(ends.values()) | {before[p] for p in ends}
    start = {c: tuple(placement.get(c, ())) for c in cells}
    end = {c: tuple(p for p in ps if p not in ends) for c, ps in start.items()}
    for piece, cell in ends.items():
        end[cell] += (piece,)
    seen: dict[str, tuple[str, ...]] = {c: () for c in cells}
    for piece, cell in after.items():
        if cell in seen:
            seen[cell] += (piece,)
    path: dict[str, Counter[str]] = {}
    for piece, fields in visited.items():
        for cell in fields:
            path.setdefault(cell, Counter())[piece] += 1
    return between(start, end, seen, TOKENS, path)


def back_or_foreign(state: GameState, movements: Sequence[Movement], seen: Mapping[str, Sequence[str]]) -> bool:
    """A reading in which a mover ends where it started, or no islander of the active colour changed
    field: what a hand that put the pushed (or swapped) islander down first also leaves."""
    before, after = state.where, _where(seen) or {}
    if any(before.get(m.islander) == after.get(m.islander) for m in movements):
        return True
    own = set(state.islanders_of(state.active_colour)) if state.active_colour else set()
    return not any(before.get(p) != after.get(p) for p in own)


def _words(board: Board, fits: Sequence[tuple[tuple[Movement, ...], dict[str, str], set[str]]]) -> str:
    """What is left, in the players' words (islanders as players call them): the move under way and
    the tokens still to put down."""
    chain, left, moved = fits[0]
    first = chain[0]
    mover = piece_name(board, first.islander)
    if all(c[0].islander == first.islander and c[0].kind == first.kind and m == moved for c, _, m in fits):
        others = names(board, sorted(moved - {first.islander})) if moved - {first.islander} else ""
        did = f"{mover} {VERBS[first.kind]} {others}" if first.kind in VERBS and others else \
            f"{mover}'s {first.kind}"
    else:
        did = "a move"
    if all(lf == left for _, lf, _ in fits):
        rest = "; ".join(f"put {piece_name(board, p)} on {c}" for p, c in sorted(left.items()))
        return f"finish the move ({did}): {rest}"
    pieces = sorted({p for _, lf, _ in fits for p in lf})
    return f"finish the move ({did}): move {' or '.join(piece_name(board, p) for p in pieces)} on"
