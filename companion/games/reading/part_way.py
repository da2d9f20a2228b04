"""The part-way test: a picture between the table as it was and as a legal move leaves it.

A hand makes a move in parts (the card laid, then the pawn; one token of a swap, then the other),
and the camera settles on each. Place by place, the picture must hold what stays (in both the
start and the end), and nothing but what the start or the end has there, or what rests there on
its way (the game's ``path`` hint); a piece the move takes from one place to another may be
missing (it is in a hand). Something must have changed. Such a picture is a step: nothing is
logged, nothing is wrong yet, and the players are told what is left. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from companion.games.reading.hints import Hints, Picture, Reached, Readable
from companion.games.reconciliation import Reconciliation

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


def between(start: Picture, end: Picture, picture: Picture, kind: Hints[StateT, ActionT],
            path: dict[str, Counter[str]] | None = None) -> bool:
    """Every place of ``picture`` holds what stays there and nothing the move does not put or pass
    there, and the picture is neither the start nor the end."""
    if picture == start or picture == end:
        return False
    for cell in set(start) | set(end) | set(picture):
        s = Counter(kind.kind(p) for p in start.get(cell, ()))
        e = Counter(kind.kind(p) for p in end.get(cell, ()))
        p = Counter(kind.kind(p) for p in picture.get(cell, ()))
        if not (s & e) <= p or not p <= (s | e) + (path or {}).get(cell, Counter()):
            return False
    return True


def part_way(game: Readable[StateT, ActionT], state: StateT, start: Picture, picture: Picture,
             reached: Sequence[Reached[StateT, ActionT]], hints: Hints[StateT, ActionT]) -> Reconciliation | None:
    """The picture part-way to reached positions, as a step (the game's :meth:`Hints.under_way`, given
    the first play for each place the plays leave the pieces, fewest actions first), or None: no play
    is under way."""
    ways: dict[tuple[tuple[str, tuple[str, ...]], ...], Reached[StateT, ActionT]] = {}
    for there in reached:
        end = tuple(sorted(there.picture.items()))
        if end not in ways and hints.in_parts(game, state, there.actions) and \
                between(start, there.picture, hints.compared(game, state, there.state, picture), hints,
                        hints.path(game, state, there.actions)):
            ways[end] = there
    return hints.under_way(game, state, picture, list(ways.values())) if ways else None
