"""Legality as its own object: is a movement legal, why not, apply a complete move, list the legal moves.

Movement generation (:mod:`movement`) says what an islander *can* do from a position; this module
turns that into answers for whole moves: :func:`find_step` finds the generated step equal to a
written movement or names the rule that forbids it (:func:`why_not`), :func:`apply_move` charges
the MP and hands out the preparation bonuses, and :class:`LegalMoves` lists every complete move
(like python-chess's ``board.legal_moves``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from companion.errors import IllegalMoveError
from companion.games.fog.movement import (BASE_COST, MoveAction, Movement, Pos, Rules, Step, obstacle_at, step_cost,
                                          apply_step, movements_from)
from companion.games.fog.state import GameState


# ============================================================================ applying
def find_step(rules: Rules, pos: Pos, movement: Movement) -> Step:
    """The generated step equal to ``movement``, or a precise reason why it is illegal."""
    board = rules.topo.board
    me = movement.islander
    if me not in board.islanders:
        raise IllegalMoveError(f"{movement}: unknown islander {me!r}")
    if me not in rules.movers:
        raise IllegalMoveError(f"{movement}: {me} is not {rules.colour}'s islander")
    if pos.pending is not None and pos.pending != me:
        raise IllegalMoveError(f"{movement}: {pos.pending} stands on an occupied field and must move on first")
    where = pos.where(me)
    if where != movement.source:
        raise IllegalMoveError(f"{movement}: {me} is on {where}, not {movement.source}")
    for cell in movement.path:
        if cell not in board.cells:
            raise IllegalMoveError(f"{movement}: unknown cell {cell!r}")
    for step in movements_from(rules, pos, me):
        if step.movement == movement:
            return step
    raise IllegalMoveError(f"{movement}: {why_not(rules, pos, movement)}")


def why_not(rules: Rules, pos: Pos, m: Movement) -> str:
    """A short, rule-named reason for an illegal movement."""
    board = rules.topo.board
    topo = rules.topo
    cost = 0 if m.kind == "endurance" else step_cost(m.kind if m.kind in BASE_COST else "run",
                                                   board.islanders[m.islander].characteristic, m.enhanced)
    if m.kind == "endurance":
        if board.islanders[m.islander].characteristic != "endurance":
            return f"{m.islander} has no endurance"
        if m.islander not in pos.moved:
            return "endurance is only for an islander that was moved actively this turn"
        if pos.endurance_used:
            return "endurance was already used this turn"
    elif cost > pos.mp:
        return f"it costs {cost} MP, {pos.mp} left"
    if m.enhanced and not rules.enhanced:
        return "enhanced movements are an option that is off in this game"
    if any(topo.row[c] in rules.covered for c in m.path[1:]):
        return "that field is in the FOG"
    target = m.target
    if topo.kind[target] == "woods" or obstacle_at(rules, pos, target) and m.kind in ("run", "endurance"):
        return "an islander never ends on an obstacle or in the woods"
    if topo.kind[m.source] == "boat" and topo.kind[target] != "boat":
        return "nobody ever leaves a boat again"
    if m.kind not in ("run", "endurance", "pull", "board", "drive-off") and topo.kind[m.source] != "beach":
        return f"{m.kind} is a beach movement; in the water area only run and boarding remain"
    src, dst = topo.r.get(m.source), topo.r.get(target)
    if m.kind not in ("run", "endurance") and src is not None and dst is not None and dst > src:
        return f"{m.kind} only goes forwards or sideways, never backwards"
    if topo.kind[target] == "boat":
        cell = board.cells[target]
        if cell.place == "productive" and cell.islander_type != board.islanders[m.islander].type:
            return f"the {target} place is for a {cell.islander_type}"
        return "that boat place cannot be reached or taken from here"
    if target in pos.occ and m.kind in ("run", "swap", "endurance") and topo.kind[target] == "beach":
        return "the field is not empty"
    return f"no legal {m.kind} of {m.islander} along {'>'.join(m.path)}"


def apply_move(state: GameState, action: MoveAction) -> GameState:
    """Apply a completed move: validate each movement, charge MP, hand out preparation bonuses."""
    if state.phase != "moving":
        raise IllegalMoveError(f"no movements in the {state.phase} phase")
    rules = Rules.of(state)
    pos = Pos.of(state)
    for m in action.movements:
        if pos.mp == 0 and pos.endurance_used:
            raise IllegalMoveError(f"{m}: the turn is over after the endurance run")
        step = find_step(rules, pos, m)
        if step.cost > pos.mp:  # a guard: generation never offers what the MP cannot pay
            raise IllegalMoveError(f"{m}: it costs {step.cost} MP, {pos.mp} left")
        pos = apply_step(pos, step)
    if pos.pending is not None:
        raise IllegalMoveError(f"{action}: {pos.pending} would end on an occupied field; another movement must follow")
    return with_position(state, pos, str(action))


def with_position(state: GameState, pos: Pos, history_entry: str) -> GameState:
    colour = state.active_colour or ""
    taken = dict(state.prep_taken)
    if pos.gains:
        taken[colour] = tuple(taken.get(colour, ())) + pos.gains
    return replace(state, placement={c: ps for c, ps in pos.occ.items() if ps}, mp_left=pos.mp,
                   moved=tuple(sorted(pos.moved)), endurance_used=pos.endurance_used,
                   prepared=tuple(sorted(pos.prepared)), prep_stacks=dict(pos.prep_stacks), prep_taken=taken,
                   history=state.history + (history_entry,))


# ============================================================================ legal moves
class LegalMoves:
    """The complete moves the active colour can make now (like python-chess's ``legal_moves``).

    Each is a :class:`MoveAction`: a single movement, or a chain through occupied fields that ends
    on an empty one (enhanced "via occupied hex", passing in the water, landing on a shore islander).
    """

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __iter__(self) -> Iterator[MoveAction]:
        if self.state.phase != "moving":
            return
        rules = Rules.of(self.state)
        pos = Pos.of(self.state)
        for islander in sorted(rules.movers):
            yield from self._complete(rules, pos, islander, ())

    def _complete(self, rules: Rules, pos: Pos, islander: str, done: tuple[Movement, ...]) -> Iterator[MoveAction]:
        for step in movements_from(rules, pos, islander):
            nxt = apply_step(pos, step)
            chain = done + (step.movement,)
            if step.pending:
                if len(chain) < 10:
                    yield from self._complete(rules, nxt, islander, chain)
            else:
                yield MoveAction(chain)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            move = MoveAction.parse(move)
        if isinstance(move, Movement):
            move = MoveAction((move,))
        if not isinstance(move, MoveAction):
            return False
        try:
            apply_move(self.state, move)
        except IllegalMoveError:
            return False
        return True

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def count(self) -> int:
        return len(self)


def legal_movements(state: GameState) -> LegalMoves:
    return LegalMoves(state)


def is_legal(state: GameState, move: MoveAction | Movement | str) -> bool:
    return move in LegalMoves(state)
