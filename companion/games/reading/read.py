"""The framework's reading of a picture (a table's default ``reconcile``): the search, then a move
part-way, then a move out of turn, then a move the rules refuse, then what differs. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from companion.games.reading.budget import Budget
from companion.games.reading.hints import Hints, Readable, form
from companion.games.reading.part_way import part_way
from companion.games.reading.refusal import out_of_turn, refuse
from companion.games.reading.search import search
from companion.games.reconciliation import Reconciliation

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
SHOWN = 6   # readings put to the players at most


def read(game: Readable[StateT, ActionT], state: StateT, seen: Mapping[str, Sequence[str]],
         hints: Hints[StateT, ActionT], budget: Budget | None = None) -> Reconciliation:
    """What a stable picture means in ``state``: the readings (several: a question), a step, or why not."""
    if game.rules.outcome(state) is not None:
        return Reconciliation.illegal("the game is over", rule="over")
    picture = hints.picture_of(game, state, seen)
    start = form(game, state)
    first = hints.before(game, state, picture)
    if first is not None:
        return first
    found = search(game, state, picture, hints, budget or Budget())
    own = hints.settle(game, state, picture, [(r.actions, r.state) for r in found.readings], found.gave_up)
    if own is not None:
        return own
    if found.readings:
        choices = tuple(hints.reading(game, state, hints.joined(r.actions)) for r in found.readings[:SHOWN])
        question = hints.question(game, state, found.readings[0].actions) if len(choices) == 1 else None
        also = hints.also_under_way(game, state, found.readings, found.looked)
        step = part_way(game, state, start, picture, also, hints) if also else None
        return Reconciliation(choices, question=question) if step is None else \
            replace(hints.held(game, state, step), choices=choices, question=question)
    step = part_way(game, state, start, picture, found.looked, hints)
    if step is not None:
        return hints.held(game, state, step)
    answer = out_of_turn(game, state, picture, hints) or refuse(game, state, picture, hints)
    if answer is not None:
        return hints.blamed(game, state, picture, answer)
    return hints.unexplained(game, state, picture, found.gave_up)
