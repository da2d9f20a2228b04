"""A picture no legal play of the player to move explains: out of turn, or a move the rules refuse.

One answer for a piece of another player moved (:func:`out_of_turn`), and one loop for a move the
rules refuse (:func:`refuse`): the action the picture would be (the game's ``read_as``), the rules'
``why_not``, the game's words. Pure.
"""

from __future__ import annotations

from typing import TypeVar

from companion.games.geometry import unfaced
from companion.games.reading.hints import Hints, Picture, Readable, changed, form
from companion.games.reconciliation import Reconciliation

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


def out_of_turn(game: Readable[StateT, ActionT], state: StateT, picture: Picture,
                hints: Hints[StateT, ActionT]) -> Reconciliation | None:
    """Every piece that changed belongs to a player whose turn it is not: refused, in the game's words."""
    moved = sorted({unfaced(p)[0] for p in changed(form(game, state), picture)})  # ids, never a face
    owners = [hints.owner(game, state, p) for p in moved]
    whose = set(game.rules.active(state))
    if not moved or any(o is None or o in whose for o in owners):
        return None
    return Reconciliation.illegal(hints.out_of_turn(game, state, moved, [o for o in owners if o]), moved, "turn")


def refuse(game: Readable[StateT, ActionT], state: StateT, picture: Picture,
           hints: Hints[StateT, ActionT]) -> Reconciliation | None:
    """The first action the picture would be that the rules refuse, with why (the rules' words); else a
    rule the game names itself (:meth:`Hints.broken`)."""
    moved = sorted({unfaced(p)[0] for p in changed(form(game, state), picture)})  # ids, never a face
    for action in hints.read_as(game, state, picture):
        reason = game.rules.why_not(state, action)
        if reason:
            return Reconciliation.illegal(hints.refused(game, state, action, reason), moved, "rule")
    return hints.broken(game, state, picture)
