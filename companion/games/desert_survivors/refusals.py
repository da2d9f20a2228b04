"""A picture of the desert no legal action explains, refused with the rule each piece breaks.

The table's reading names what is wrong ("a green disc not placed yet is on E2"), which leaves the
players to guess the rule. Where a piece's place breaks a rule the players can be told - a disc
placed on an oasis or out of turn, a disc placed moved before the others are down, an X-counter
laid that the rules set aside or took off for good - the refusal says that rule instead, in the
same public words (a face-down piece by its colour or as an X-counter, never by what it hides).

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.base import Reconciliation, unfaced
from companion.games.desert_survivors import rules
from companion.games.desert_survivors.actions import Place
from companion.games.desert_survivors.pieces import colour_of, is_disc, is_x
from companion.games.desert_survivors.state import DesertState
from companion.games.desert_survivors.table import said


def _where(seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Piece -> the space the picture shows it on, whichever face is up."""
    return {unfaced(p)[0]: cell for cell, ps in seen.items() for p in ps}


def _why_there(state: DesertState, piece: str, cell: str) -> str | None:
    """Why ``piece`` may not lie on ``cell`` now, in the players' words (None: no rule known)."""
    at = {p: w for w, p in state.board.items()}.get(piece)
    if is_disc(piece) and state.phase == "setup":
        if at is not None and at != cell:
            return (f"the {colour_of(piece)} disc on {at} was moved to {cell}: a disc placed stays where it was put "
                    f"until every disc is placed; put it back on {at}")
        why = rules.why_not(state, Place(piece, cell)) if at is None else None
        return None if why is None else f"a {colour_of(piece)} disc put on {cell}: {why}"
    if is_x(piece) and at is None and piece not in state.mix:
        return "set aside" if any(piece in stack for stack in state.stacks) else "taken off the desert for good"
    return None


def _counters(why: str, cells: list[str]) -> str:
    """X-counters laid that are not the pile's, said once for all the spaces they lie on."""
    if len(cells) == 1:
        return f"the X-counter laid on {cells[0]} was {why}: lay one from the pile instead"
    listed = f"{', '.join(cells[:-1])} and {cells[-1]}"
    return f"the X-counters laid on {listed} were {why}: lay ones from the pile instead"


def refusal(state: DesertState, seen: Mapping[str, Sequence[str]], answer: Reconciliation) -> Reconciliation:
    """``answer`` with the rule each misplaced piece breaks, where one is known; the pieces no rule
    explains are still named as the reading named them. A piece of the game's not seen where a
    piece explained now lies (the counter a set-aside one was laid in place of) goes unsaid: the
    reason given for the other covers it."""
    if answer.ok or answer.part_way or answer.reason is None or not answer.offenders:
        return answer
    where = _where(seen)
    reasons: dict[str, str] = {}
    for piece in answer.offenders:
        cell = where.get(piece)
        why = _why_there(state, piece, cell) if cell is not None else None
        if why is not None:
            reasons[piece] = why
    if not reasons:
        return answer
    covered = {where[p] for p in reasons}
    rest = []
    for piece in answer.offenders:
        if piece in reasons:
            continue
        at = {p: w for w, p in state.board.items()}.get(piece)
        if piece not in where and at in covered:
            continue  # the piece there before: the reason for the one laid in its place says it
        if piece in state.mix or (is_disc(piece) and at is None and state.phase == "setup"):
            continue  # a counter from the pile, or a disc placed as the rules allow: not what is wrong
        rest.append(f"{said(state, piece)} is not seen" if piece not in where else
                    f"{said(state, piece)} is turned face up" if where[piece] == at else
                    f"{said(state, piece)} is on {where[piece]}")
    kinds = ("set aside", "taken off the desert for good")
    told = [r for r in reasons.values() if r not in kinds]
    told += [_counters(k, sorted(where[p] for p, r in reasons.items() if r == k)) for k in kinds
             if k in reasons.values()]
    told += rest
    return Reconciliation.illegal("; ".join(told[:4]), answer.offenders, answer.rule)
