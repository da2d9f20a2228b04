"""The tile race's rules as pure functions over immutable states.

A turn is played as hands play it at the table, in several actions, so that the camera can later
follow a turn picture by picture and explain one from its first and last pictures alike:

* ``move <pawn> <square>[><square>...]`` - the pawn steps onto each square in turn (``out``, last:
  it leaves the grid through an exit). Whether a step collects a tile, ends the collect phase,
  drops a tile or ends the movement follows from the squares (:func:`apply` works it out), so the
  path is the whole movement: from C2 with tiles on C3 and C4, ``move red-1 C3>C4>C5>D5>D6>D7``
  collects both, lands on the empty C5 (the collect phase ends), drops one on D5 and one on D6
  and stops alone on D7. A step is one action; a path is several at once.
* ``tile <colour> <square>``, ``wall <colour> <a>|<b>``, ``remove <colour> <a>|<b>``,
  ``mountain <colour> <square>`` - the turn's one action. A wall or a mountain may come before the
  movement or after it; a tile and a removal only after it.
* ``undo <colour>`` - the pawn under way can go no further: the movement is taken back (tiles and
  pawn where they were) and tried again, as the rulebook says.
* ``pass <colour>`` - only when the player has no action at all (no tile left, no wall to remove,
  no mountain): the turn ends without one.

The turn passes to the next seat when the movement is over and the action done. A player none
of whose pawns can make a whole movement skips the movement. ``docs/rules-interpretations-tile-race.md``
explains each reading of the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from types import MappingProxyType

from companion.errors import IllegalMoveError, StateFormatError
from companion.games.base import Outcome
from companion.games.tile_race.actions import (Action, Correct, Mountain, Move, Pass, Placing, Remove, Tile, Undo,
                                              Wall, parse_action)
from companion.games.tile_race.grid import (OUT, START, TILES, colour_of, connected, corners, edge, edges, ends, entry,
                                            neighbours, on_grid, pawns_of, squares)
from companion.games.tile_race.state import (Movement, TileRaceState, from_json, mountain_allowance, new_game,
                                             to_json)


# ------------------------------------------------------------------------------------------ movement
@dataclass(frozen=True)
class _Ground:
    """What stands in a pawn's way this turn: worked out once, asked at every step of a search."""

    size: int
    walls: frozenset[str]
    mountains: frozenset[str]
    others: frozenset[str]  # squares holding another pawn
    exits: tuple[str, ...]  # exits still open to the pawn
    entry: str


def _ground(state: TileRaceState, pawn: str) -> _Ground:
    key = (pawn, state.size, len(state.players), tuple(state.pawns.items()), state.walls, state.mountains)
    known = _GROUNDS.get(key)
    if known is None:
        others = frozenset(sq for sq, p in state.pawn_squares().items() if p != pawn)
        known = _Ground(state.size, state.walls, state.mountains, others, state.open_exits(pawn),
                        entry(pawn, len(state.players), state.size))
        if len(_GROUNDS) >= 4096:
            _GROUNDS.clear()
        _GROUNDS[key] = known
    return known


# Each pawn's ground by all it reads (the pawns, walls and mountains): a reading asks it at every step.
_GROUNDS: dict[tuple[object, ...], _Ground] = {}


def _barred(g: _Ground, tiles: frozenset[str] | set[str], here: str, to: str, dropping: bool) -> str | None:
    """Why the pawn may not step from ``here`` onto ``to`` (None: it may)."""
    if here == START:
        if to != g.entry:
            return f"a pawn comes onto the grid at its entry corner, {g.entry}"
    elif not on_grid(to, g.size) or to not in neighbours(here, g.size):
        return f"{to} is not next to {here}: a pawn moves up, down, left or right, never diagonally"
    elif edge(here, to) in g.walls:
        return f"a wall stands between {here} and {to}"
    if to in g.mountains:
        return f"a mountain stands on {to}: nothing moves onto it"
    if to in g.others:
        return f"another pawn stands on {to}: a pawn never moves onto another"
    if dropping and to in tiles:
        return f"{to} holds a tile: in the drop phase a pawn moves only onto empty squares"
    return None


def _finishes(g: _Ground, tiles: set[str], here: str, carried: int, dropping: bool, first: bool) -> bool:
    """Can a movement standing at ``here`` be taken on to its end? A depth-first search that stops at
    the first way found; ``tiles`` is changed on the way down and put back on the way up."""
    if here in g.exits and (first or carried > 0 or dropping):
        return True  # out through the exit (a pawn under way always has a tile under it on arrival)
    for to in ((g.entry,) if here == START else neighbours(here, g.size)):
        if _barred(g, tiles, here, to, dropping) is not None:
            continue
        if dropping:
            if carried == 0:
                return True
            tiles.add(to)
            ok = _finishes(g, tiles, to, carried - 1, True, False)
            tiles.discard(to)
        elif to in tiles:
            tiles.discard(to)
            ok = _finishes(g, tiles, to, carried + 1, False, False)
            tiles.add(to)
        elif carried == 0:
            return True
        else:
            ok = _finishes(g, tiles, to, carried, True, False)
        if ok:
            return True
    return False


def movement_possible(state: TileRaceState, colour: str | None = None) -> bool:
    """Has ``colour`` (the player to play) a whole movement to make from this position? A player
    without one skips the movement (the rulebook leaves the case open; see the interpretations)."""
    colour = colour or state.active
    key = (colour, state.size, len(state.players), frozenset(state.pawns.items()), state.tiles, state.walls,
           state.mountains)
    known = _POSSIBLE.get(key)
    if known is None:
        known = any(_finishes(_ground(state, p), set(state.tiles), state.pawns[p], 0, False, True)
                    for p in pawns_of(colour) if state.exited(p) is None)
        if len(_POSSIBLE) >= 4096:  # a reading asks of a few hundred positions; a game moves on
            _POSSIBLE.clear()
        _POSSIBLE[key] = known
    return known


# What ``movement_possible`` answered, by all it reads: a reading asks it again at every step it tries
# (the same pawns, tiles, walls and mountains), and the answer depends on nothing else.
_POSSIBLE: dict[tuple[object, ...], bool] = {}


def _targets(state: TileRaceState, pawn: str, here: str) -> list[str]:
    if here == START:
        return [entry(pawn, len(state.players), state.size)]
    return list(neighbours(here, state.size)) + ([OUT] if here in state.open_exits(pawn) else [])


def _step(state: TileRaceState, pawn: str, to: str) -> TileRaceState:
    """The state after ``pawn`` steps onto ``to``: it collects, lands, drops or leaves as the squares
    say. IllegalMoveError names the rule a forbidden step breaks."""
    if colour_of(pawn) != state.active:
        raise IllegalMoveError(f"it is {state.active}'s turn, not {colour_of(pawn)}'s")
    mv = state.moving
    if mv is None:
        if state.moved:
            where = state.pawns[pawn]
            extra = (f": {pawn} reached its exit {where} with no tile under it, so it leaves next turn"
                     if to == OUT and where in state.open_exits(pawn) else "")
            raise IllegalMoveError(f"{state.active}'s movement is over this turn{extra}")
        if state.exited(pawn):
            raise IllegalMoveError(f"{pawn} has left the grid: it never moves again (its player still acts)")
        if not movement_possible(state):
            raise IllegalMoveError(f"no pawn of {state.active} can make a whole movement: the movement is "
                                   "skipped this turn, and only the action is made")
        mv = Movement(pawn, state.pawns[pawn])
    elif mv.pawn != pawn:
        raise IllegalMoveError(f"{mv.pawn} is under way: a player moves one pawn per turn, never both")
    here = mv.path[-1] if mv.path else mv.origin
    tiles = set(state.tiles)
    pawns = dict(state.pawns)
    if to == OUT:
        opened = state.open_exits(pawn)
        if here not in opened:
            raise IllegalMoveError(f"{pawn} leaves the grid only from {' or '.join(opened)}, not from {here}")
        pawns[pawn] = f"{OUT}-{here}"
        return _moved(state, pawns, frozenset(tiles), lost=state.lost + mv.carried)
    reason = _barred(_ground(state, pawn), tiles, here, to, mv.dropping)
    if reason:
        raise IllegalMoveError(reason)
    pawns[pawn] = to
    path = mv.path + (to,)
    if not mv.dropping and to in tiles:  # collect: stack it under the pawn and go on
        tiles.discard(to)
        mv = replace(mv, path=path, taken=mv.taken + (to,))
    elif mv.carried == 0:  # landed alone on an empty square: the movement is over
        return _moved(state, pawns, frozenset(tiles))
    elif not mv.dropping:  # the collect phase ends on an empty square; the drop phase begins with a step
        mv = replace(mv, path=path, dropping=True)
    else:  # drop phase: leave one tile here and go on
        tiles.add(to)
        mv = replace(mv, path=path, dropped=mv.dropped + (to,))
    return replace(state, pawns=MappingProxyType(pawns), tiles=frozenset(tiles), moving=mv)


def _moved(state: TileRaceState, pawns: dict[str, str], tiles: frozenset[str], lost: int | None = None
           ) -> TileRaceState:
    after = replace(state, pawns=MappingProxyType(pawns), tiles=tiles, moving=None, moved=True,
                    lost=state.lost if lost is None else lost)
    return _next_turn(after) if after.acted and not winner(after) else after


def _next_turn(state: TileRaceState) -> TileRaceState:
    return replace(state, turn=(state.turn + 1) % len(state.players), moved=False, acted=False, moving=None)


def _undo(state: TileRaceState) -> TileRaceState:
    mv = state.moving
    assert mv is not None
    tiles = (set(state.tiles) - set(mv.dropped)) | set(mv.taken)
    pawns = dict(state.pawns)
    pawns[mv.pawn] = mv.origin
    return replace(state, pawns=MappingProxyType(pawns), tiles=frozenset(tiles), moving=None)


# ------------------------------------------------------------------------------------------ actions
def _string_square(state: TileRaceState, name: str) -> bool:
    """Part of a string: a square holding a tile a pawn could collect, or a pawn."""
    return (name in state.tiles and name not in state.mountains) or name in state.pawn_squares()


def _keeps_exits(state: TileRaceState, square: str) -> bool:
    """With a mountain on ``square``, every corner and every pawn on the grid still joined by squares
    free of mountains: mountains never move, so a corner cut off is an exit blocked for good."""
    blocked = state.mountains | {square}
    reach = connected([corners(state.size)[0]], state.size, blocked)
    return all(c in reach for c in corners(state.size)) and all(s in reach for s in state.pawn_squares())


def _placing_reason(state: TileRaceState, action: Placing, can_move: bool) -> str | None:
    """Why the turn's action may not be this one now (None: it may)."""
    after_moving = state.moved or not can_move
    if isinstance(action, (Tile, Remove)) and not after_moving:
        what = "a tile is placed" if isinstance(action, Tile) else "a wall is removed"
        return f"{what} only after the movement (at the end of the turn)"
    seat = state.players.index(action.colour)
    if isinstance(action, Tile):
        sq = action.square
        if not on_grid(sq, state.size):
            return f"{sq} is not a square of the grid"
        if state.supply == 0:
            return "no tile is left in the supply"
        if sq in state.tiles or sq in state.mountains or sq in state.pawn_squares():
            return f"{sq} is not empty: a tile goes on an unoccupied square"
        return None
    if isinstance(action, Remove):
        return None if action.edge in state.walls else f"no wall stands on {action.edge}"
    if isinstance(action, Wall):
        e = action.edge
        a, b = ends(e)
        if not (on_grid(a, state.size) and on_grid(b, state.size)):
            return f"{e} is not between two squares of the grid"
        if state.supply == 0:
            return "no tile is left in the supply to stand as a wall"
        if e in state.walls:
            return f"a wall already stands on {e}"
        if e in state.removed:
            return f"the wall on {e} was removed in its remover's last turn: it cannot be put back yet"
        if a in corners(state.size) or b in corners(state.size):
            return f"{e} is directly in front of an exit"
        if _string_square(state, a) and _string_square(state, b) and not (
                a in state.pawn_squares() and b in state.pawn_squares()):
            return f"a wall on {e} would break a string of connected tiles and pawns"
        if not after_moving and not movement_possible(replace(state, walls=state.walls | {e})):
            return f"a wall on {e} before moving would leave {action.colour} no movement, and a turn has one"
        return None
    sq = action.square
    if not on_grid(sq, state.size):
        return f"{sq} is not a square of the grid"
    if state.mountains_left[seat] == 0:
        return f"{action.colour} has placed all their mountains"
    if sq in state.mountains:
        return f"a mountain already stands on {sq}"
    if sq in state.pawn_squares():
        return f"a pawn stands on {sq}: a mountain never goes on a pawn"
    if not _keeps_exits(state, sq):
        return f"a mountain on {sq} would block an exit for good"
    if not after_moving and not movement_possible(replace(state, mountains=state.mountains | {sq})):
        return f"a mountain on {sq} before moving would leave {action.colour} no movement, and a turn has one"
    return None


def _placing_candidates(state: TileRaceState) -> Iterator[Placing]:
    colour = state.active
    yield from (Tile(colour, s) for s in squares(state.size))
    yield from (Wall(colour, e) for e in edges(state.size))
    yield from (Remove(colour, e) for e in sorted(state.walls))
    yield from (Mountain(colour, s) for s in squares(state.size))


def _placings(state: TileRaceState, can_move: bool) -> list[Action]:
    return [a for a in _placing_candidates(state) if _placing_reason(state, a, can_move) is None]


def _can_place(state: TileRaceState, can_move: bool) -> bool:
    """Whether any action is open: stops at the first (a pass and a blocked race ask only this, and
    a reading tries a pass at every position it reaches)."""
    return any(_placing_reason(state, a, can_move) is None for a in _placing_candidates(state))


def _place(state: TileRaceState, action: Placing, can_move: bool) -> TileRaceState:
    seat = state.turn
    removed = list(state.removed)
    removed[seat] = action.edge if isinstance(action, Remove) else None
    after = replace(state, acted=True, removed=tuple(removed))
    if isinstance(action, Tile):
        after = replace(after, tiles=state.tiles | {action.square}, supply=state.supply - 1)
    elif isinstance(action, Wall):
        after = replace(after, walls=state.walls | {action.edge}, supply=state.supply - 1)
    elif isinstance(action, Remove):
        after = replace(after, walls=state.walls - {action.edge}, supply=state.supply + 1)
    else:
        left = list(state.mountains_left)
        left[seat] -= 1
        after = replace(after, mountains=state.mountains | {action.square}, mountains_left=tuple(left),
                        mountain_owners=MappingProxyType({**state.mountain_owners, action.square: action.colour}))
    return _next_turn(after) if state.moved or not can_move else after


# ------------------------------------------------------------------------------------------ the door
def apply(state: TileRaceState, action: Action) -> TileRaceState:
    """The state after ``action`` (a new state; ``state`` is never changed), or IllegalMoveError
    naming the rule it breaks."""
    if outcome(state) is not None:
        raise IllegalMoveError("the game is over")
    colour = action.colour
    if colour != state.active:
        raise IllegalMoveError(f"it is {state.active}'s turn, not {colour}'s")
    if isinstance(action, Correct):
        return _corrected(state, action)
    if isinstance(action, Move):
        for to in action.path:
            state = _step(state, action.pawn, to)
        return replace(state, history=state.history + (str(action),))
    if isinstance(action, Undo):
        if state.moving is None or steps(state):
            raise IllegalMoveError("a movement is undone only when the pawn under way can go no further")
        return replace(_undo(state), history=state.history + (str(action),))
    if state.moving is not None:
        raise IllegalMoveError(f"finish {state.moving.pawn}'s movement first: the action comes before or after it")
    if state.acted:
        raise IllegalMoveError(f"{colour} has made this turn's action: one action per turn, no more")
    can_move = not state.moved and movement_possible(state)
    if isinstance(action, Pass):
        if (not state.moved and can_move) or _can_place(state, can_move):
            raise IllegalMoveError(f"{colour} can still {'move' if can_move else 'act'}: a turn is passed only "
                                   "when no action is left")
        removed = list(state.removed)
        removed[state.turn] = None  # a turn without a removal: this player's last one removed nothing
        after = _next_turn(replace(state, removed=tuple(removed)))
    else:
        reason = _placing_reason(state, action, can_move)
        if reason:
            raise IllegalMoveError(reason)
        after = _place(state, action, can_move)
    return replace(after, history=state.history + (str(action),))


def _corrected(state: TileRaceState, action: Correct) -> TileRaceState:
    """The table as the players say it is: pawns, tiles, walls and mountains where the correction puts
    them, each mountain its owner's (a bare square: the one standing there keeps its owner, a new one is
    the active player's), each player's mountains in hand what is left of theirs. A movement under way goes on when its pawn
    stands where it stood (the tiles it carries are under it), else it is over. A table no play could leave (a pawn on a mountain, more
    tiles than the box holds) is refused by name, as a damaged saved state is."""
    data = to_json(state)
    pawns = dict(state.pawns)
    for pawn, where in action.pawns:
        if pawn not in pawns:
            raise IllegalMoveError(f"{pawn} is not a pawn of this game")
        pawns[pawn] = where
    owners: dict[str, str] = {}
    for item in action.mountains:
        square, _, owner = item.partition(":")
        owners[square] = owner or state.mountain_owners.get(square, state.active)
    allowance = mountain_allowance(len(state.players))
    left = [allowance - sum(o == c for o in owners.values()) for c in state.players]
    for colour, n in zip(state.players, left, strict=True):
        if n < 0:
            raise IllegalMoveError(f"the table cannot be so: {allowance - n} of {state.name_of(colour)}'s mountains "
                                   f"on the grid, and each player has {allowance}")
    walls = list(action.walls)
    removed = [None if r in action.walls else r for r in state.removed]
    under_way = state.moving
    if under_way is not None and pawns[under_way.pawn] == state.pawns[under_way.pawn]:
        # the pawn under way stands where it stood: the tiles it carries are under it (the camera sees
        # only the pawn), so the movement goes on and the correction mends the rest of the table
        here = pawns[under_way.pawn]
        left_here = bool(under_way.dropped) and under_way.dropped[-1] == here
        tiles = [t for t in action.tiles if t != here or left_here]
        data.update(pawns=pawns, tiles=tiles, walls=walls, mountains=sorted(owners), mountain_owners=owners,
                    mountains_left=left, supply=TILES - len(tiles) - len(walls) - state.lost - under_way.carried,
                    removed=removed)
        try:
            return replace(from_json(data), history=state.history + (str(action),))
        except StateFormatError:
            data = to_json(state)  # the table the correction gives cannot go on with it: the movement is over
    supply = TILES - len(action.tiles) - len(action.walls) - state.lost
    moved = state.moved or state.moving is not None
    data.update(pawns=pawns, tiles=list(action.tiles), walls=walls, mountains=sorted(owners),
                mountain_owners=owners, mountains_left=left, supply=supply, moving=None, moved=moved,
                removed=removed)
    if moved and state.acted:  # the turn was over but for this movement: the next player's begins
        data.update(turn=(state.turn + 1) % len(state.players), moved=False, acted=False)
    if supply < 0:
        raise IllegalMoveError(f"{len(action.tiles)} tiles and {len(action.walls)} walls: the box holds {TILES} tiles")
    try:
        after = from_json(data)
    except StateFormatError as exc:
        raise IllegalMoveError(f"the table cannot be so: {str(exc).removeprefix('tile race state: ')}") from None
    return replace(after, history=state.history + (str(action),))


def steps(state: TileRaceState) -> list[Action]:
    """Every single step open now: of the pawn under way, or of each pawn able to start one."""
    if state.moved:
        return []
    mv = state.moving
    out: list[Action] = []
    for pawn in (mv.pawn,) if mv else pawns_of(state.active):
        if state.exited(pawn):
            continue
        here = (mv.path[-1] if mv.path else mv.origin) if mv else state.pawns[pawn]
        for to in _targets(state, pawn, here):
            try:
                _step(state, pawn, to)
            except IllegalMoveError:
                continue
            out.append(Move(pawn, (to,)))
    return out


def legal_actions(state: TileRaceState) -> list[Action]:
    """Every action the player to play may make now, one step at a time (empty: the game is over)."""
    if outcome(state) is not None:
        return []
    if state.moving is not None:
        return steps(state) or [Undo(state.active)]
    can_move = not state.moved and movement_possible(state)
    out = steps(state) if can_move else []
    if not state.acted:
        placings = _placings(state, can_move)
        out += placings
        if not placings and not (can_move and not state.moved):
            out.append(Pass(state.active))
    return out


def winner(state: TileRaceState) -> str | None:
    """The player whose two pawns have both left the grid (the first to do so wins)."""
    return next((c for c in state.players if all(state.exited(p) for p in pawns_of(c))), None)


def outcome(state: TileRaceState) -> Outcome | None:
    """The winner, or a blocked race (at a turn's start nobody can move nor act), or None while it goes on."""
    won = winner(state)
    if won:
        return Outcome((won,), f"{state.name_of(won)} brought both pawns across the grid and out")
    if state.moving or state.moved or state.acted:
        return None
    for seat in range(len(state.players)):
        turn = replace(state, turn=seat)
        if movement_possible(turn) or _can_place(turn, False):
            return None
    return Outcome((), "the race is blocked: nobody can move a pawn or make an action")


def text(state: TileRaceState) -> str:
    """The grid as rows of text, far side first: ``.`` empty, ``t`` a tile, ``M`` a mountain with its
    owner's initial (``Mr``: red's), a pawn by its colour's initial and number; walls listed after (a
    picture for logs and the terminal)."""
    rows = []
    where = state.pawn_squares()
    for r in range(state.size, 0, -1):
        cells = []
        for c in range(1, state.size + 1):
            sq = f"{'ABCDEFGHIJKL'[c - 1]}{r}"
            p = where.get(sq)
            cells.append(f"{p[0].upper()}{p[-1]}" if p else f"M{state.mountain_owners[sq][0]}" if sq in state.mountains else
                         "t " if sq in state.tiles else ". ")
        rows.append(f"{r:>2} " + " ".join(cells))
    rows.append("   " + " ".join(f"{ch} " for ch in "ABCDEFGHIJKL"[:state.size]))
    rows.append(f"walls: {', '.join(sorted(state.walls)) or '-'}; supply {state.supply}; {state.active} to play")
    return "\n".join(rows)


__all__ = ["Action", "Correct", "Move", "Mountain", "Pass", "Remove", "Tile", "Undo", "Wall", "apply", "from_json",
           "legal_actions", "movement_possible", "new_game", "outcome", "parse_action", "text", "to_json",
           "winner"]


_steps = steps  # its name while only this module used it, for code written against that name
