"""Turn flow of The FOG: the draft (phase 1), turns, the FOG track and swallowing (phase 2).

Pure functions from state to state. Movement costs and legality live in ``movement``; this
module only knows that a turn has movement points, that the turn marker snakes over the turn
board, and that each horizontal step of the turn marker advances the FOG.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.errors import IllegalMoveError
from companion.games.fog.actions import Correction, Draft, EndTurn, parse_action
from companion.games.fog.state import GameState, check_placement
from companion.games.fog.words import capital, piece_name, player_name

if TYPE_CHECKING:
    from companion.games.fog.movement import MoveAction

# ---------------------------------------------------------------------------------------- draft


def legal_drafts(state: GameState) -> list[Draft]:
    """Islanders the drafting colour may choose now."""
    if state.phase != "draft":
        return []
    colour = state.active_colour
    assert colour is not None
    free = [i for c, ps in state.placement.items() for i in ps
            if i in state.board_data.islanders and i not in state.owners]
    if state.options.rescue_the_leaders and state.leaders:
        mine = [i for i, c in state.owners.items() if c == colour]
        has_leader = any(i in state.leaders for i in mine)
        picks_left = _picks_per_colour(state) - len(mine)
        if has_leader:
            free = [i for i in free if i not in state.leaders]
        elif picks_left <= 1:
            free = [i for i in free if i in state.leaders]  # the last pick must be the leader
    return [Draft(colour, i) for i in sorted(free)]


def _picks_per_colour(state: GameState) -> int:
    total = sum(1 for ps in state.placement.values() for p in ps if p in state.board_data.islanders)
    return -(-total // len(state.turn_order))


def draft(state: GameState, action: Draft) -> GameState:
    if state.phase != "draft":
        raise IllegalMoveError("the draft is over")
    if action.colour != state.active_colour:
        raise IllegalMoveError(f"it is {state.active_colour}'s pick, not {action.colour}'s")
    if action.islander in state.owners:
        raise IllegalMoveError(f"{capital(piece_name(state.board_data, action.islander))} was already chosen by "
                               f"{player_name(state, state.owners[action.islander])}")
    if action not in legal_drafts(state):
        if action.islander not in state.where:
            raise IllegalMoveError(f"{capital(piece_name(state.board_data, action.islander))} is not on the board")
        raise IllegalMoveError(f"{action.colour} may choose only one leader (rescue the leaders)")
    owners = {**state.owners, action.islander: action.colour}
    new = replace(state, owners=owners, history=state.history + (str(action),))
    if len(owners) == sum(1 for p in state.where if p in state.board_data.islanders):
        first = state.turn_order[0]
        new = replace(new, phase="moving", round=1, turn_index=0, mp_left=new.mp_for(first), moved=())
    return new


# ---------------------------------------------------------------------------------------- turns


def movable_islanders(state: GameState, colour: str) -> tuple[str, ...]:
    """Islanders of a colour that are still on the beach, the shore or a pier."""
    board = state.board_data
    return tuple(i for i in state.islanders_of(colour)
                 if i in state.where and board.cells[state.where[i]].kind in ("beach", "shore", "pier"))


def anyone_can_move(state: GameState) -> bool:
    return any(movable_islanders(state, c) for c in state.turn_order)


def end_turn(state: GameState, action: EndTurn = EndTurn()) -> GameState:
    """Move the turn marker: a vertical step passes the turn, a horizontal one advances the FOG."""
    if state.phase != "moving":
        raise IllegalMoveError(f"no turn to end in the {state.phase} phase")
    history = state.history + (str(action),)
    if state.turn_index + 1 < len(state.turn_order):
        nxt = replace(state, turn_index=state.turn_index + 1, moved=(), endurance_used=False, history=history)
    else:  # horizontal step: the FOG advances, then the new round starts with the same colour
        nxt = advance_fog(replace(state, round=state.round + 1, turn_index=0, moved=(), endurance_used=False,
                                  history=history))
    if nxt.phase == "moving" and not anyone_can_move(nxt):
        nxt = replace(nxt, phase="finished", end_reason="nobody-can-move")
    if nxt.phase == "moving":
        nxt = replace(nxt, mp_left=nxt.mp_for(nxt.active_colour or ""))
    else:
        nxt = replace(nxt, mp_left=0)
    return nxt


def advance_fog(state: GameState) -> GameState:
    """One field on the FOG track, then swallow; reaching the last field ends the game."""
    board = state.board_data
    fog = min(state.fog + 1, len(board.fog_fields) - 1)
    new = swallow(replace(state, fog=fog))
    if fog == len(board.fog_fields) - 1:
        new = replace(new, phase="finished", end_reason="fog-reached-shore")
    return new


def swallow(state: GameState) -> GameState:
    """Islanders standing in any row the FOG covers are lost (their tokens are turned over)."""
    board = state.board_data
    covered = board.swallowed_rows(state.fog)
    lost = dict(state.lost)
    placement = {c: ps for c, ps in state.placement.items()}
    for cell, pieces in state.placement.items():
        row = board.row_of(cell)
        if row is None or row not in covered:
            continue
        keep = tuple(p for p in pieces if p not in board.islanders)
        for p in pieces:
            if p in board.islanders:
                lost[p] = row
        if keep:
            placement[cell] = keep
        else:
            del placement[cell]
    return replace(state, placement=placement, lost=lost)


def swallowed_by_next_fog(state: GameState) -> tuple[str, ...]:
    """Islanders the FOG would take if it advanced now (for warnings on the LEDs and the panel)."""
    board = state.board_data
    if state.fog + 1 >= len(board.fog_fields):
        return ()
    covered = board.swallowed_rows(state.fog + 1)
    return tuple(sorted(p for p, c in state.where.items()
                        if p in board.islanders and board.row_of(c) in covered))


# ---------------------------------------------------------------------------------------- corrections


def correct(state: GameState, action: Correction) -> GameState:
    """Apply pieces moved by hand. Checks no movement rule, only that the pieces and cells exist and
    that the result is a table that can be (no two tokens on one field, nothing in the woods): a
    correction never records a position a saved game would refuse."""
    board = state.board_data
    placement = {c: list(ps) for c, ps in state.placement.items()}
    lost = dict(state.lost)
    for m in action.moves:
        if m.piece not in board.islanders and m.piece not in board.obstacles:
            raise IllegalMoveError(f"correction: unknown piece {m.piece!r}")
        if m.piece in state.removed and m.target != "-":
            raise IllegalMoveError(f"correction: {piece_name(board, m.piece)} is not in this game")
        for end in (m.source, m.target):
            if end != "-" and end not in board.cells:
                raise IllegalMoveError(f"correction: unknown cell {end!r}")
        current = next((c for c, ps in placement.items() if m.piece in ps), "-")
        if current != m.source:
            raise IllegalMoveError(f"correction: {piece_name(board, m.piece)} is on "
                                   f"{'no field' if current == '-' else current}, not {m.source}")
        if m.source != "-":
            placement[m.source].remove(m.piece)
        else:
            lost.pop(m.piece, None)
        if m.target != "-":
            placement.setdefault(m.target, []).append(m.piece)
    clean = {c: tuple(ps) for c, ps in placement.items() if ps}
    try:
        check_placement(board, clean)
    except ValueError as exc:
        raise IllegalMoveError(f"correction: {exc}") from None
    return replace(state, placement=clean, lost=lost, history=state.history + (str(action),))


# ---------------------------------------------------------------------------------------- dispatch


def apply(state: GameState, action: Draft | EndTurn | Correction | MoveAction | str) -> GameState:
    """Apply any action value or its text form."""
    if isinstance(action, str):
        action = parse_action(action)
    if isinstance(action, Draft):
        return draft(state, action)
    if isinstance(action, EndTurn):
        return end_turn(state, action)
    if isinstance(action, Correction):
        return correct(state, action)
    from companion.games.fog.legality import apply_move
    from companion.games.fog.movement import MoveAction

    if isinstance(action, MoveAction):
        return apply_move(state, action)
    raise IllegalMoveError(f"not an action of The FOG: {action!r}")


def replay(state: GameState, history: tuple[str, ...] | None = None) -> GameState:
    """Rebuild a state from its setup by replaying its history (or another history)."""
    current = state.initial()
    for text in state.history if history is None else history:
        current = apply(current, text)
    return current


def undo(state: GameState) -> GameState:
    """The state before the last action."""
    if not state.history:
        raise IllegalMoveError("nothing to undo")
    return replay(state, state.history[:-1])
