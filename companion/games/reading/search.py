"""One bounded search over the rules' legal actions of the player to move (the goal test).

Breadth first, so the shortest readings come first; each position (the game's ``key``) is reached
once, so two orders of the same moves are one reading; a position another player is to move in,
or the game over in, ends a line (a reading is the moves of the player to move). Every position
reached is kept for the part-way test. Pure.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from companion.errors import IllegalMoveError
from companion.games.reading.budget import Budget
from companion.games.reading.hints import Hints, Picture, Readable, changed, form

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class Reached(Generic[StateT, ActionT]):
    """A position the search reached: the actions from the start and the state they lead to."""

    actions: tuple[ActionT, ...]
    state: StateT
    picture: Picture            # what the camera should see there (the compared form)


@dataclass
class Found(Generic[StateT, ActionT]):
    """What a search found: the readings (one per end state, shortest first), every other position it
    reached (the part-way test looks among them), and whether it stopped at the budget."""

    readings: list[Reached[StateT, ActionT]] = field(default_factory=list)
    looked: list[Reached[StateT, ActionT]] = field(default_factory=list)
    gave_up: bool = False


def search(game: Readable[StateT, ActionT], state: StateT, picture: Picture, hints: Hints[StateT, ActionT],
           budget: Budget) -> Found[StateT, ActionT]:
    """The shortest plays of the player to move from ``state`` whose end looks like ``picture``."""
    start = form(game, state)
    moved = changed(start, picture)          # the pieces the picture shows come, gone or moved
    found: Found[StateT, ActionT] = Found()
    keys: set[Hashable] = {hints.key(game, state)}
    ends: dict[Hashable, Reached[StateT, ActionT]] = {}
    frontier: list[Reached[StateT, ActionT]] = [Reached((), state, start)]
    for _ in range(budget.depth):
        nxt: list[Reached[StateT, ActionT]] = []
        for here in frontier:
            for action in hints.candidates(game, here.state, picture):
                try:
                    after = game.rules.apply(here.state, action)
                except IllegalMoveError:
                    continue
                key = hints.key(game, after)
                if key in keys:
                    continue
                keys.add(key)
                seen = hints.seen(game, after)
                if hints.prune and not changed(here.picture, seen) <= moved:
                    continue                 # it moves a piece the picture shows where it was
                reached = Reached(here.actions + (action,), after, seen)
                if hints.same(game, after, seen, picture):
                    ends.setdefault(key, reached)
                    continue
                found.looked.append(reached)
                if hints.goes_on(game, state, after):
                    nxt.append(reached)
                if len(keys) >= budget.positions:
                    found.gave_up = True
                    break
            if found.gave_up:
                break
        if ends or found.gave_up or not nxt:
            break
        frontier = nxt
    found.readings = list(ends.values())
    return found
