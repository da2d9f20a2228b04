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

from companion.games.reading.hints import Hints, Picture, Readable
from companion.games.reading.search import Reached
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
    """The first reached position (fewest actions) the picture is part-way to, as a step, or None."""
    for there in reached:
        if hints.in_parts(game, state, there.actions) and \
                between(start, there.picture, picture, hints, hints.path(game, state, there.actions)):
            wanted = {p: c for c, ps in there.picture.items() for p in ps}
            shown = {p: c for c, ps in picture.items() for p in ps}
            to_move = tuple(sorted(p for p, c in wanted.items() if shown.get(p) != c))
            actions = hints.joined(there.actions)
            return Reconciliation.partial(hints.step(game, state, actions, to_move), to_move, "step",
                                          tokens=max(1, len(to_move)))
    return None
