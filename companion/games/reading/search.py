"""One bounded search over the rules' legal actions of the player to move (the goal test).

Breadth first, so the shortest readings come first; each position (the game's ``key``) is reached
once, so two orders of the same moves are one reading; a position another player is to move in,
or the game over in, ends a line (a reading is the moves of the player to move). By default the
search stops at the depth of the shortest readings: a longer play ending in the same picture adds
only what the camera cannot see (a turn passed with nothing played), and the least play is the one
made. A game where a longer play ends in a state the players must tell apart (two steps where a
leap ticked on the score sheet would do) says ``shortest = False``, and the search goes on to the end
of the turn: every end state is a reading, put to the players. The budget counts every position told
apart (each call of the game's ``key``, the start's included) and the actions of one line; a search
stopped by either says it gave up (with readings found, they are still the answer). Every position
reached is kept for the part-way test. Pure.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from companion.errors import IllegalMoveError
from companion.games.reading.budget import Budget
from companion.games.reading.hints import Hints, Picture, Reached, Readable, changed, form

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


@dataclass
class Found(Generic[StateT, ActionT]):
    """What a search found: the readings (one per end state, shortest first), every other position it
    reached (the part-way test looks among them), and whether it stopped at the budget."""

    readings: list[Reached[StateT, ActionT]] = field(default_factory=list)
    looked: list[Reached[StateT, ActionT]] = field(default_factory=list)
    gave_up: bool = False


def search(game: Readable[StateT, ActionT], state: StateT, picture: Picture, hints: Hints[StateT, ActionT],
           budget: Budget) -> Found[StateT, ActionT]:
    """The plays of the player to move from ``state`` whose end looks like ``picture``, one per end
    state, shortest first (only the shortest, unless the game's ``shortest`` hint is False)."""
    start = form(game, state)
    moved = changed(start, picture)          # the pieces the picture shows come, gone or moved
    found: Found[StateT, ActionT] = Found()
    keys: set[Hashable] = {hints.key(game, state)}
    told = 1                                 # positions told apart (each a ``key``): what the budget counts
    ends: dict[Hashable, Reached[StateT, ActionT]] = {}
    frontier: list[Reached[StateT, ActionT]] = [Reached((), state, start)]
    depth = 0
    while frontier and not found.gave_up:
        if depth >= budget.depth:
            found.gave_up = True             # plays go on past the actions one reading may hold
            break
        depth += 1
        nxt: list[Reached[StateT, ActionT]] = []
        for here in frontier:
            for action in hints.candidates(game, here.state, picture):
                if told >= budget.positions:
                    found.gave_up = True
                    break
                try:
                    after = game.rules.apply(here.state, action)
                except IllegalMoveError:
                    continue
                key = hints.key(game, after)
                told += 1
                if key in keys:
                    continue
                keys.add(key)
                seen = hints.seen(game, after)
                if hints.prune and not changed(here.picture, seen) <= moved:
                    continue                 # it moves a piece the picture shows where it was
                reached = Reached(here.actions + (action,), after, seen)
                if hints.fits(game, state, after, seen, picture):
                    ends.setdefault(key, reached)
                    continue
                found.looked.append(reached)
                if hints.goes_on(game, state, after):
                    nxt.append(reached)
            if found.gave_up:
                break
        if ends and hints.shortest:
            break
        frontier = nxt
    found.readings = list(ends.values())
    return found
