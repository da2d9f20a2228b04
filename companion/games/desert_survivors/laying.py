"""The X-counters a deal lays, as the hands lay them: whichever face-down counters they draw.

When the discs are placed, and when a new round is laid out, the companion deals X-counters to the
empty spaces in its own shuffled order. At a table the players draw counters at random and lay them
face down; the camera knows each by the marker on its back, so the companion need not insist on its
own deal: a face-down counter from the pile (or from the deal) on a dealt space is taken as the one
laid there, and once every dealt space holds one the ``lay`` action records them (the dealt ones go
back to the pile). Until then laying is a calm step counting the counters laid, one the table
expects many tokens for.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from companion.games.base import faced, unfaced
from companion.games.desert_survivors.actions import Lay
from companion.games.desert_survivors.layout import BACK
from companion.games.desert_survivors.pieces import is_x
from companion.games.desert_survivors.state import DesertState

Picture = dict[str, tuple[str, ...]]


def drawable(state: DesertState) -> set[str]:
    """The counters a hand may have drawn for a dealt space: the pile's and the deal's own."""
    dealt = {state.board.get(w, "") for w in state.dealt}
    return set(state.mix) | {x for x in dealt if is_x(x) and x not in state.face_up}


def relabel(state: DesertState, picture: Mapping[str, Sequence[str]]) -> tuple[Picture, Lay | None, int]:
    """The picture in the deal's own terms: each dealt space showing a drawable face-down counter
    shows the counter the deal put there. Also the ``lay`` that makes the game's counters the ones the
    hands laid (None while a dealt space is still empty, or when they are the deal's own), and how
    many dealt spaces hold a counter."""
    out = {cell: tuple(ps) for cell, ps in picture.items()}
    if not state.dealt:
        return out, None, 0
    drawn_from, dealt = drawable(state), set(state.dealt)
    elsewhere = {unfaced(p)[0] for cell, ps in picture.items() if cell not in dealt for p in ps}
    placement, laid = [], 0
    for where in state.dealt:
        mine, ps = state.board.get(where, ""), picture.get(where, ())
        if len(ps) != 1:
            continue
        piece, up = unfaced(ps[0])
        if up != BACK or piece not in drawn_from or mine not in drawn_from or mine in elsewhere:
            continue
        laid += 1
        if piece != mine:
            placement.append((where, piece))
            out[where] = (faced(mine, BACK),)
    complete = laid == len(state.dealt) and placement
    return out, Lay(tuple(placement)) if complete else None, laid


def to_lay(after: DesertState, left: Sequence[tuple[str, str]], put: Callable[[str, str], str]) -> tuple[str, int]:
    """What is left of a move that deals X-counters, in the players' words: the pieces to put, then
    the counters still to lay, counted ("lay face-down X-counters on the 11 empty spaces: 4 laid");
    and how many tokens that is (the hold time is allowed for each)."""
    dealing = {(after.board[w], w) for w in after.dealt if w in after.board}
    todo = [put(p, c) for p, c in left if (p, c) not in dealing]
    empty = sum((p, c) in dealing for p, c in left)
    if empty:
        todo.append(counting(after, len(after.dealt) - empty))
    return "; ".join(todo), max(1, empty)


def counting(state: DesertState, laid: int) -> str:
    """The counters to lay on the dealt spaces, and how many are laid."""
    n = len(state.dealt)
    return f"lay face-down X-counters on the {n} empty space{'s' if n != 1 else ''}: {laid} laid"


LAID = "the X-counters laid face down on the empty spaces, as the hands drew them"
