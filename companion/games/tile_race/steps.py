"""The tile race's moves in parts that the framework's part-way test cannot see (:mod:`companion.games.reading`).

The generic test holds a picture part-way through a play when every place lies between the table
as it was and as the play leaves it. A collect-and-drop movement is put down by a hand in an order
of its own: the tiles first where the movement will leave them and the pawn last
(:func:`to_be_moved`), the pawn first and the tiles it drops still in the other hand
(:func:`tiles_to_follow`), or the pawn lifted off the tiles it carries (:func:`left_behind`). Each
is a calm step said in the players' words; the tile race's hints ask them (``hints.py``), each
bounded by the reading's :class:`~companion.games.reading.Budget`. Pure.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping

from companion.errors import IllegalMoveError
from companion.games.reading import Budget
from companion.games.reconciliation import Reconciliation
from companion.games.tile_race import rules, words
from companion.games.tile_race.actions import Move, Pass, Undo
from companion.games.tile_race.grid import OUT, colour_of, coords, on_grid, pawns_of
from companion.games.tile_race.state import TileRaceState
from companion.games.tile_race.table import Picture, candidates, form, key, kind_of, state_form, where_pawn


def _pawn_steps(state: TileRaceState, pawn: str) -> Iterator[tuple[Move, TileRaceState]]:
    """The steps of one pawn on the grid from here, with the positions they lead to."""
    for action in rules.steps(state):
        assert isinstance(action, Move)
        if action.pawn != pawn or action.path[-1] == OUT:
            continue
        try:
            yield action, rules.apply(state, action)
        except IllegalMoveError:
            continue


def left_behind(state: TileRaceState, picture: Picture, than: int, budget: Budget) -> tuple[str, str, tuple[str, ...]] | None:
    """A pawn lifted off the tiles it carries: (the pawn, its square, the squares those tiles lie on).

    A pawn stands on the tiles it collected, and a hand lifting it may leave them behind. The picture
    then shows the pawn on its square and a tile still on a square it stood on this movement. A legal
    movement can leave it so too, but only by turning back onto that square in the drop phase (G2,
    G3, back to G2 dropping, G3 again); when a movement of fewer steps than that (``than``) brings
    the pawn here carrying those tiles, the shorter reading is the likely one: the tiles go under it.
    Only the pawn under way, or one pawn of the player to move seen off its square, is looked for."""
    shown = {p: c for c, ps in picture.items() for p in ps if p in state.pawns}
    movers = [p for p, c in shown.items() if colour_of(p) == state.active and c != where_pawn(state, p)]
    mv = state.moving
    if len(movers) > 1 or mv is not None and movers and movers != [mv.pawn]:
        return None
    pawn = movers[0] if movers else mv.pawn if mv is not None else None
    if pawn is None or pawn not in shown or not on_grid(shown[pawn], state.size):
        return None
    square, want = shown[pawn], dict(form(picture))
    level: list[TileRaceState] = [state]
    visited = {key(state)}
    for depth in range(min(than, budget.depth)):
        nxt: list[TileRaceState] = []
        for here in level:
            if here.moving is not None and here.pawns[pawn] == square and here.moving.pawn == pawn:
                have = dict(state_form(here))
                left = tuple(sorted(c for c in want if c not in have))
                if left and len(left) <= here.moving.carried and all(
                        want[c] == ("tile",) and c in here.moving.path for c in left) and \
                        all(want.get(c) == kinds for c, kinds in have.items()):
                    return pawn, square, left
            if depth == than - 1 or len(visited) >= budget.positions:
                continue
            for _, after in _pawn_steps(here, pawn):
                if key(after) not in visited:
                    visited.add(key(after))
                    nxt.append(after)
        level = nxt
    return None


def to_be_moved(state: TileRaceState, picture: Picture, budget: Budget) -> Reconciliation | None:
    """The tiles laid where a movement will leave them before the pawn is lifted: a calm step.

    A hand may move the tiles of a movement first (the one collected put straight down where it will
    be dropped) and the pawn last. The picture then shows every pawn where it stood and the tiles
    where a movement of one pawn of the player to move leaves them: the players are told to move it.
    Only a turn whose movement has not begun is looked at."""
    if state.moving is not None or state.moved:
        return None
    want = dict(form(picture))
    if any(want.get(c) != kinds for c, kinds in state_form(state) if kinds != ("tile",)):
        return None  # a pawn, a wall or a mountain differs: not only tiles moved ahead of the pawn
    base = dict(state_form(state))
    for pawn in pawns_of(state.active):
        ends: dict[str, None] = {}
        between: dict[str, None] = {}  # the tiles moved one at a time: some where the movement leaves them
        level, visited = [state], {key(state)}
        while level and not ends and len(visited) < budget.positions:
            nxt = []
            for here in level:
                for _, after in _pawn_steps(here, pawn):
                    if key(after) in visited:
                        continue
                    visited.add(key(after))
                    mv = after.moving
                    if mv is not None:  # only along tiles the picture lacks (or still shows, not yet moved),
                        # dropping only where it shows one (or nothing yet)
                        if all(want.get(c) != ("tile",) or base.get(c) == ("tile",) for c in mv.taken) and \
                                all(want.get(c) in (("tile",), base.get(c)) for c in mv.dropped):
                            nxt.append(after)
                        continue
                    end = after.pawns[pawn]
                    have = dict(state_form(after))
                    have.pop(end, None)  # the pawn still stands where it was: only the tiles count
                    wanted = {c: k for c, k in want.items() if c != where_pawn(state, pawn)}
                    if have == wanted and end not in want:
                        ends.setdefault(end, None)
                    elif end not in want and _part_way(base, have, want, {where_pawn(state, pawn), end}):
                        between.setdefault(end, None)
            level = nxt
        if between and not ends:  # one tile laid ahead of the others and of the pawn: still a calm step
            to = sorted(between)[:4]
            where = to[0] if len(to) == 1 else f"{', '.join(to[:-1])} or {to[-1]}"
            return Reconciliation.partial(f"the tiles are on their way where a movement of {words.pawn(state, pawn)} "
                                          f"leaves them: move the rest of them, then the pawn, to {where}",
                                          (pawn,), "pawn-to-follow")
        if ends:
            to = sorted(ends)[:4]
            where = to[0] if len(to) == 1 else f"{', '.join(to[:-1])} or {to[-1]}"
            laid = sorted(c for c, kinds in want.items() if kinds == ("tile",) and c not in state.tiles)
            if not laid:  # no tile laid ahead of the pawn: only tiles gone, which a covered tile explains as well
                return None
            tiles = f"the tile on {laid[0]} lies" if len(laid) == 1 else f"the tiles on {words.listed(laid)} lie"
            return Reconciliation.partial(f"{tiles} where a movement of {words.pawn(state, pawn)} leaves "
                                          f"{'it' if len(laid) == 1 else 'them'}: now move the pawn, to {where}",
                                          (pawn,), "pawn-to-follow")
    return None


def _part_way(base: Mapping[str, tuple[str, ...]], end: Mapping[str, tuple[str, ...]],
              seen: Mapping[str, tuple[str, ...]], pawn_squares: set[str | None]) -> bool:
    """The picture lies between the turn's start and a movement's end, tile by tile: every square as it
    was or as the movement leaves it, and at least one as it leaves it (the pawn's squares aside)."""
    squares = (set(base) | set(end) | set(seen)) - pawn_squares
    return all(seen.get(c) in (base.get(c), end.get(c)) for c in squares) and \
        any(seen.get(c) != base.get(c) for c in squares)


def tiles_to_follow(state: TileRaceState, picture: Picture, budget: Budget) -> Reconciliation | None:
    """A pawn put down before the tiles it carried: a calm step, not a disagreement.

    A hand lifts the pawn with its stack and sets the pieces down one at a time, the pawn first as
    often as not. The picture then shows the pawn where its movement ends and the squares it
    collected from empty, while the tiles it drops along the way are still in the hand. If some
    movement of that pawn explains the picture once those tiles lie on squares it dropped them on,
    the players are told where they go; left so past the hold time it becomes out of sync as any
    move left part-way. Only one pawn of the player to move, seen off its square, is looked for."""
    movers = [p for c, ps in picture.items() for p in ps if p in state.pawns and colour_of(p) == state.active
              and c != where_pawn(state, p)]
    if len(movers) != 1 or not on_grid(next(c for c, ps in picture.items() if movers[0] in ps), state.size):
        return None
    pawn = movers[0]
    target = next(c for c, ps in picture.items() if pawn in ps)
    want = dict(form(picture))
    flat = {c for c, ps in picture.items() if any(kind_of(p) == "tile" for p in ps)}
    covered = {c for c, ps in picture.items() if any(kind_of(p) != "tile" for p in ps)}
    gone = state.tiles - flat - covered  # collected: in the hand or under the pawn
    ways: dict[tuple[str, ...], None] = {}
    frontier: deque[TileRaceState] = deque([state])
    visited = {key(state)}
    while frontier and len(visited) < budget.positions:
        here = frontier.popleft()
        mv = here.moving
        for action in rules.steps(here):
            assert isinstance(action, Move)
            to = action.path[-1]
            if action.pawn != pawn or to == OUT or \
                    (mv is None or not mv.dropping) and to in here.tiles and to not in gone and to != target:
                continue  # another pawn, off the grid, or collecting a tile the picture still shows
            try:
                after = rules.apply(here, action)
            except IllegalMoveError:
                continue
            seen_key = key(after)
            if seen_key in visited:
                continue
            visited.add(seen_key)
            left = after.moving
            if left is not None and left.dropping:  # each step on drops one tile, the last lands alone
                (c, r), (x, y) = coords(to), coords(target)
                if abs(c - x) + abs(r - y) > left.carried + 1:
                    continue
            short = _short_of(state, after, want)
            for placing in ([] if short or left is not None or after.acted else
                            [a for a in candidates(after, picture) if not isinstance(a, (Move, Undo, Pass))]):
                try:  # the turn's tile, wall or mountain laid before the tiles carried
                    short = short or _short_of(state, rules.apply(after, placing), want)
                except IllegalMoveError:
                    continue
            if short:
                ways.setdefault(short, None)
            elif left is not None:
                frontier.append(after)
    if not ways:
        return None
    n = len(next(iter(ways)))
    options = [squares for squares in ways if len(squares) == n][:3]
    what = "the tile it carried on" if n == 1 else f"the {n} tiles it carried, one on each of"
    where = " or ".join(" and ".join(squares) for squares in options)
    return Reconciliation.partial(f"{words.pawn(state, pawn)} is on {target}: put {what} {where}", (pawn,),
                                  "tiles-to-follow")


def _short_of(state: TileRaceState, after: TileRaceState, want: Mapping[str, tuple[str, ...]]
              ) -> tuple[str, ...] | None:
    """The squares ``after`` has a tile on that the picture (``want``, as :func:`~companion.games.tile_race.table.form` has it) lacks,
    when those tiles are the only difference and each was dropped this movement: they are in a hand."""
    have = dict(state_form(after))
    short = tuple(sorted(c for c in have if c not in want))
    if short and all(have[c] == ("tile",) and c not in state.tiles for c in short) and \
            all(have.get(c) == kinds for c, kinds in want.items()):
        return short
    return None

