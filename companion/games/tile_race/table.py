"""The tile race on the table: what the camera should see, and what a picture of it means.

Tiles, wall stands and one player's mountains look alike to the rules: which tile lies where does
not matter, only how many lie on each place. A mountain is its owner's colour, so mountains are
alike within a colour (kind ``mountain-red``): red's for red's is no change, red's where blue's
stands is a difference. So a picture is compared by kind and count: :func:`named` gives
the pieces of each look-alike kind the ids :func:`expected` would give them (numbered in the order
of the places they are on), and leaves out what lies in a supply beside the board, which the
rules do not count. Two tiles swapped is then no change; a tile gone from one square and come on
another is.

A pawn stands on the tiles it carries and a mountain on the tile it was put on: the camera sees
only the top piece. :func:`hidden` puts the covered tiles back where the game has them, and the
comparison leaves out tiles on a square where a pawn or a mountain stands.

A turn is read from its pictures as the rules' own actions (a step, a path of steps, the action):
:func:`reconcile` searches the actions that lead from the game to the picture, shortest first,
placing only what the picture shows and stepping only where a dropped tile or the pawn is seen.
Readings that leave the game in different states (what the rules count differs) are put to the
players.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence

from companion.errors import IllegalMoveError
from companion.games.base import Choice, Reconciliation
from companion.games.tile_race import reasons, rules, words
from companion.games.tile_race.actions import Action, Correct, Mountain, Move, Pass, Remove, Tile, Undo, Wall
from companion.games.tile_race.board import (MOUNTAIN_SUPPLY, TILE_SUPPLY, mountain_id, start_cell, tile_id,
                                             wall_id)
from companion.games.tile_race.grid import OUT, START, colour_of, coords, on_grid, pawns_of
from companion.games.tile_race.state import TileRaceState

Picture = dict[str, tuple[str, ...]]
ALIKE = {"T": "tile", "W": "wall"}  # a look-alike piece's kind, by its id's first letter (and mountain-<colour>)
SUPPLIES = (TILE_SUPPLY, MOUNTAIN_SUPPLY)
MAX_DEPTH = 24        # actions in one reading: a long collect-and-drop movement and the turn's action
MAX_STATES = 4000     # positions a reading looks at before it gives up (a second or two on a Pi)


def kind_of(piece: str) -> str | None:
    """The look-alike kind of a piece (tile, wall, ``mountain-<owner's colour>``), or None for a pawn."""
    if piece.startswith("mountain-"):
        return piece.rpartition("-")[0]
    return ALIKE.get(piece[:1])


def is_mountain(kind: str | None) -> bool:
    return kind is not None and kind.startswith("mountain-")


def owner_of_kind(kind: str | None) -> str:
    """The colour of the player whose mountains are of this kind (``mountain-red``: red)."""
    return (kind or "").partition("-")[2]


def _numbered(kind: str, n: int) -> str:
    """The n-th piece of a look-alike kind, as the expected picture names it."""
    return tile_id(n) if kind == "tile" else wall_id(n) if kind == "wall" else mountain_id(owner_of_kind(kind), n)


def named(seen: Mapping[str, Sequence[str]]) -> Picture:
    """The picture as the rules count it: look-alike pieces renamed in the order of their places
    (the same picture always gets the same names), supplies left out."""
    counts: dict[str, dict[str, int]] = {}
    out: dict[str, list[str]] = {}
    for cell, pieces in seen.items():
        if cell in SUPPLIES:
            continue
        for piece in pieces:
            kind = kind_of(piece)
            if kind is None:
                out.setdefault(cell, []).append(piece)
            else:
                counts.setdefault(kind, {})[cell] = counts.setdefault(kind, {}).get(cell, 0) + 1
    for kind, per_cell in counts.items():
        n = 0
        for cell in sorted(per_cell):
            for _ in range(per_cell[cell]):
                n += 1
                out.setdefault(cell, []).append(_numbered(kind, n))
    return {c: tuple(sorted(ps)) for c, ps in out.items() if ps}


def where_pawn(state: TileRaceState, pawn: str) -> str | None:
    """The cell a pawn is on (None once it has left the grid: it is taken off the table)."""
    at = state.pawns[pawn]
    if at == START:
        return start_cell(pawn, len(state.players), state.size)
    return None if at.startswith(OUT) else at


def expected(state: TileRaceState) -> Picture:
    """Cell -> pieces: pawns on their squares or start spaces, a tile on each square holding one and
    one under a pawn for every tile it carries, walls on their edges, mountains on their squares."""
    seen: dict[str, list[str]] = {}
    for pawn in state.pawns:
        cell = where_pawn(state, pawn)
        if cell is not None:
            seen.setdefault(cell, []).append(pawn)
    for square in state.tiles:
        seen.setdefault(square, []).append("T")
    if state.moving is not None:
        seen.setdefault(state.pawns[state.moving.pawn], []).extend(["T"] * state.moving.carried)
    for e in state.walls:
        seen.setdefault(e, []).append("W")
    for square in state.mountains:  # the mountain of its owner's colour
        seen.setdefault(square, []).append(f"mountain-{state.mountain_owners[square]}-")
    return named(seen)


def hidden(state: TileRaceState, seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Tiles covered where the game has them: under the pawn that carries them, or under a mountain,
    when the picture shows that pawn or mountain there. Named with tile ids the picture does not show."""
    shown = {p for ps in seen.values() for p in ps}
    spare = (tile_id(n) for n in range(1, 41) if tile_id(n) not in shown)
    out: dict[str, str] = {}
    for cell, pieces in expected(state).items():
        covers = [p for p in pieces if kind_of(p) != "tile"]
        if not covers or not all(p in seen.get(cell, ()) or is_mountain(kind_of(p)) and
                                 any(is_mountain(kind_of(q)) for q in seen.get(cell, ())) for p in covers):
            continue
        wanted = sum(kind_of(p) == "tile" for p in pieces) - sum(kind_of(p) == "tile" for p in seen.get(cell, ()))
        for _ in range(max(0, wanted)):
            piece = next(spare, None)
            if piece is not None:
                out[piece] = cell
    return out


def _form(picture: Mapping[str, Sequence[str]]) -> frozenset[tuple[str, tuple[str, ...]]]:
    """What a picture shows that the camera can see: tiles under a pawn or a mountain left out."""
    out = []
    for cell, pieces in named(picture).items():
        covered = any(kind_of(p) != "tile" for p in pieces) and on_grid(cell, 12)
        kept = tuple(p for p in pieces if not (covered and kind_of(p) == "tile"))
        if kept:
            out.append((cell, tuple(sorted(kind_of(p) or p for p in kept))))
    return frozenset(out)


def _state_form(state: TileRaceState) -> frozenset[tuple[str, tuple[str, ...]]]:
    """:func:`_form` of the state's own picture, worked out from the state directly (a reading asks it
    of every position it looks at)."""
    out: dict[str, list[str]] = {}
    for pawn in state.pawns:
        cell = where_pawn(state, pawn)
        if cell is not None:
            out.setdefault(cell, []).append(pawn)
    for square in state.mountains:
        out.setdefault(square, []).append(f"mountain-{state.mountain_owners[square]}")
    for square in state.tiles:
        if square not in out:  # under a pawn or a mountain it does not show
            out[square] = ["tile"]
    for e in state.walls:
        out[e] = ["wall"]
    return frozenset((c, tuple(sorted(ps))) for c, ps in out.items())


def _key(state: TileRaceState) -> tuple[object, ...]:
    """A position as far as what can still follow goes: two paths of a movement that reach the same
    square with the same tiles collected and left are one position (the order they went in only
    changes the words of the reading), which keeps a search along long chains of tiles small."""
    mv = state.moving
    under_way = None if mv is None else (mv.pawn, mv.origin, frozenset(mv.taken), frozenset(mv.dropped), mv.dropping)
    return (tuple(sorted(state.pawns.items())), state.tiles, state.walls, tuple(sorted(state.mountain_owners.items())),
            state.mountains_left,
            state.turn, state.removed, under_way, state.moved, state.acted, state.supply, state.lost)


def _shown(seen: Picture) -> tuple[set[str], set[str], set[tuple[str, str]], set[str]]:
    """Where the picture shows tiles, walls, mountains (with their owners) and covering pieces: read
    once per picture, though a reading asks at every position it tries (the picture never changes)."""
    last = _SHOWN[-1] if _SHOWN else None
    if last is not None and last[0] is seen:
        return last[1]
    flat = {c for c, ps in seen.items() if any(kind_of(p) == "tile" for p in ps)}
    walls = {c for c, ps in seen.items() if any(kind_of(p) == "wall" for p in ps)}
    peaks = {(c, owner_of_kind(k)) for c, ps in seen.items() for p in ps if is_mountain(k := kind_of(p))}
    covered = {c for c, ps in seen.items() if any(kind_of(p) != "tile" for p in ps)}  # a tile may lie under
    _SHOWN[:] = [(seen, (flat, walls, peaks, covered))]
    return flat, walls, peaks, covered


# The last picture :func:`_shown` read and what it found (the picture itself kept, so a new one is
# never mistaken for it).
_SHOWN: list[tuple[Picture, tuple[set[str], set[str], set[tuple[str, str]], set[str]]]] = []


def _candidates(state: TileRaceState, seen: Picture) -> Iterator[Action]:
    """The actions worth trying towards the picture: steps that can end as it shows, placings of what
    it shows, removals of what it lacks."""
    colour = state.active
    flat, walls, peaks, covered = _shown(seen)
    gone = state.tiles - flat - covered  # tiles the picture no longer shows: collected this movement
    mv = state.moving
    for action in rules.steps(state):  # one square at a time
        assert isinstance(action, Move)
        to = action.path[-1]
        if mv is not None and mv.dropping and mv.carried > 0 and to != OUT and to not in flat | covered:
            continue  # a tile would be left there, and the picture shows none
        if mv is not None and not mv.dropping and mv.carried > 0 and to not in state.tiles and \
                not gone <= set(mv.taken):
            continue  # the collect phase would end with a tile the picture lacks still on the grid
        yield action
    if mv is not None:
        yield Undo(colour)
        return
    if state.acted:
        return
    yield from (Tile(colour, s) for s in sorted(flat - state.tiles) if on_grid(s, state.size))
    yield from (Wall(colour, e) for e in sorted(walls - state.walls))
    yield from (Remove(colour, e) for e in sorted(state.walls - walls))
    yield from (Mountain(colour, s) for s, owner in sorted(peaks) if owner == colour and s not in state.mountains)
    yield Pass(colour)


def reconcile(state: TileRaceState, seen: Mapping[str, Sequence[str]], explain: bool = True) -> Reconciliation:
    """The shortest ways of play from ``state`` to the picture; several that leave the game counting
    differently are put to the players; none: out of sync, naming what does not fit (with ``explain``,
    the rule broken when one change is to blame: ``reasons.py``, which reads the rest of a picture
    here without it)."""
    if rules.outcome(state) is not None:
        return Reconciliation.illegal("the game is over", rule="over")
    picture = named(seen)
    target = _form(picture)
    seen_at = {p: c for c, ps in picture.items() for p in ps if p in state.pawns}
    start = _key(state)
    frontier: deque[tuple[TileRaceState, tuple[Action, ...]]] = deque([(state, ())])
    visited = {start}
    found: dict[tuple[object, ...], tuple[tuple[Action, ...], TileRaceState]] = {}
    depth = 0
    while frontier and not found and depth < MAX_DEPTH and len(visited) < MAX_STATES:
        depth += 1
        for _ in range(len(frontier)):
            here, done = frontier.popleft()
            for action in _candidates(here, picture):
                try:
                    after = rules.apply(here, action)
                except IllegalMoveError:
                    continue
                key = _key(after)
                if key in visited:
                    continue
                visited.add(key)
                path = done + (action,)
                if _state_form(after) == target:
                    found.setdefault(key, (path, after))
                elif not _settled_astray(state, after, seen_at) and rules.outcome(after) is None:
                    frontier.append((after, path))
    choices: tuple[Choice, ...] = ()
    if found:
        exact = [v for v in found.values() if expected(v[1]) == picture]
        readings = exact or list(found.values())
        choices = tuple(Choice(tuple(str(a) for a in _joined(path)), words.reading(state, _joined(path)))
                        for path, _ in readings[:6])
    behind = _left_behind(state, picture, min((len(path) for path, _ in found.values()), default=MAX_DEPTH + 1))
    if behind is not None:
        pawn, square, left = behind
        who, its = words.pawn(state, pawn), "it" if len(left) == 1 else "them"
        tiles = f"the tile it carries is on {left[0]}" if len(left) == 1 else \
            f"the tiles it carries are on {words.listed(left)}"
        return Reconciliation(choices, question=f"{who} is on {square} and the tile{'s' * (len(left) > 1)} on "
                                                f"{words.listed(left)} beside it: did it go back and leave {its} "
                                                "there?" if choices else None,
                              step=f"{who} is on {square}, and {tiles}: put {its} under the pawn",
                              to_move=(pawn,), rule="tiles-left-behind")
    if choices:
        return Reconciliation(choices)
    return _to_be_moved(state, picture) or _tiles_to_follow(state, picture) or \
        _why_not(state, picture, gave_up=len(visited) >= MAX_STATES, explain=explain)


def _settled_astray(start: TileRaceState, here: TileRaceState, seen_at: Mapping[str, str]) -> bool:
    """A pawn that can no longer reach where the picture shows it: a reading is at most one round of
    turns (the camera reads the table move by move, never a round behind), so a player whose turn in
    the reading is over, or whose movement this turn is made, moves no pawn again in it. A position
    with such a pawn elsewhere than the picture shows it leads to no reading; cutting it off keeps a
    picture no play explains (a piece hidden, a wall moved) from searching every later player's turn."""
    seats = len(here.players)
    done = {here.players[(start.turn + i) % seats] for i in range((here.turn - start.turn) % seats)}
    if here.moved:
        done.add(here.active)
    return any(where_pawn(here, p) != seen_at.get(p) for p in here.pawns if colour_of(p) in done)


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


def _left_behind(state: TileRaceState, picture: Picture, than: int) -> tuple[str, str, tuple[str, ...]] | None:
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
    square, want = shown[pawn], dict(_form(picture))
    level: list[TileRaceState] = [state]
    visited = {_key(state)}
    for depth in range(min(than, MAX_DEPTH)):
        nxt: list[TileRaceState] = []
        for here in level:
            if here.moving is not None and here.pawns[pawn] == square and here.moving.pawn == pawn:
                have = dict(_state_form(here))
                left = tuple(sorted(c for c in want if c not in have))
                if left and len(left) <= here.moving.carried and all(
                        want[c] == ("tile",) and c in here.moving.path for c in left) and \
                        all(want.get(c) == kinds for c, kinds in have.items()):
                    return pawn, square, left
            if depth == than - 1 or len(visited) >= MAX_STATES:
                continue
            for _, after in _pawn_steps(here, pawn):
                if _key(after) not in visited:
                    visited.add(_key(after))
                    nxt.append(after)
        level = nxt
    return None


def _to_be_moved(state: TileRaceState, picture: Picture) -> Reconciliation | None:
    """The tiles laid where a movement will leave them before the pawn is lifted: a calm step.

    A hand may move the tiles of a movement first (the one collected put straight down where it will
    be dropped) and the pawn last. The picture then shows every pawn where it stood and the tiles
    where a movement of one pawn of the player to move leaves them: the players are told to move it.
    Only a turn whose movement has not begun is looked at."""
    if state.moving is not None or state.moved:
        return None
    want = dict(_form(picture))
    if any(want.get(c) != kinds for c, kinds in _state_form(state) if kinds != ("tile",)):
        return None  # a pawn, a wall or a mountain differs: not only tiles moved ahead of the pawn
    base = dict(_state_form(state))
    for pawn in pawns_of(state.active):
        ends: dict[str, None] = {}
        between: dict[str, None] = {}  # the tiles moved one at a time: some where the movement leaves them
        level, visited = [state], {_key(state)}
        while level and not ends and len(visited) < MAX_STATES:
            nxt = []
            for here in level:
                for _, after in _pawn_steps(here, pawn):
                    if _key(after) in visited:
                        continue
                    visited.add(_key(after))
                    mv = after.moving
                    if mv is not None:  # only along tiles the picture lacks (or still shows, not yet moved),
                        # dropping only where it shows one (or nothing yet)
                        if all(want.get(c) != ("tile",) or base.get(c) == ("tile",) for c in mv.taken) and \
                                all(want.get(c) in (("tile",), base.get(c)) for c in mv.dropped):
                            nxt.append(after)
                        continue
                    end = after.pawns[pawn]
                    have = dict(_state_form(after))
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


def _tiles_to_follow(state: TileRaceState, picture: Picture) -> Reconciliation | None:
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
    want = dict(_form(picture))
    flat = {c for c, ps in picture.items() if any(kind_of(p) == "tile" for p in ps)}
    covered = {c for c, ps in picture.items() if any(kind_of(p) != "tile" for p in ps)}
    gone = state.tiles - flat - covered  # collected: in the hand or under the pawn
    ways: dict[tuple[str, ...], None] = {}
    frontier: deque[TileRaceState] = deque([state])
    visited = {_key(state)}
    while frontier and len(visited) < MAX_STATES:
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
            key = _key(after)
            if key in visited:
                continue
            visited.add(key)
            left = after.moving
            if left is not None and left.dropping:  # each step on drops one tile, the last lands alone
                (c, r), (x, y) = coords(to), coords(target)
                if abs(c - x) + abs(r - y) > left.carried + 1:
                    continue
            short = _short_of(state, after, want)
            for placing in ([] if short or left is not None or after.acted else
                            [a for a in _candidates(after, picture) if not isinstance(a, (Move, Undo, Pass))]):
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


def _joined(path: Sequence[Action]) -> list[Action]:
    """Steps of one pawn one after the other written as one path (``move red-1 C3>C4``)."""
    out: list[Action] = []
    for action in path:
        last = out[-1] if out else None
        if isinstance(action, Move) and isinstance(last, Move) and last.pawn == action.pawn and OUT not in last.path:
            out[-1] = Move(action.pawn, last.path + action.path)
        else:
            out.append(action)
    return out


def _short_of(state: TileRaceState, after: TileRaceState, want: Mapping[str, tuple[str, ...]]
              ) -> tuple[str, ...] | None:
    """The squares ``after`` has a tile on that the picture (``want``, as :func:`_form` has it) lacks,
    when those tiles are the only difference and each was dropped this movement: they are in a hand."""
    have = dict(_state_form(after))
    short = tuple(sorted(c for c in have if c not in want))
    if short and all(have[c] == ("tile",) and c not in state.tiles for c in short) and \
            all(have.get(c) == kinds for c, kinds in want.items()):
        return short
    return None


def _why_not(state: TileRaceState, picture: Picture, gave_up: bool = False, explain: bool = True
             ) -> Reconciliation:
    """No play leads to the picture: a pawn in a hand is a step; one change a rule forbids is named by
    its rule; otherwise out of sync, naming the places that differ."""
    have = expected(state)
    shown = {p: c for c, ps in picture.items() for p in ps if kind_of(p) is None}
    missing = [p for c, ps in have.items() for p in ps if kind_of(p) is None and p not in shown]
    if missing and all(colour_of(p) == state.active for p in missing):
        said = [words.pawn(state, p) for p in missing]  # as players call them, never an id
        return Reconciliation.partial(f"{' and '.join(said)} {'are' if len(said) > 1 else 'is'} in a hand: put "
                                      f"{'them' if len(said) > 1 else 'it'} down where "
                                      f"{'they go' if len(said) > 1 else 'it goes'}", missing, "step")
    moved = sorted(p for p, c in shown.items() if p in state.pawns and c != where_pawn(state, p))
    named_rule = reasons.broken_rule(state, picture, expected(state), kind_of, where_pawn,
                                     lambda s, p: reconcile(s, p, explain=False)) if explain and not gave_up else None
    if named_rule is not None:
        return named_rule
    changed = sorted({c for c in set(have) | set(picture) if _form({c: have.get(c, ())}) != _form({c: picture.get(c, ())})})
    where = _differs(state, have, picture, changed)
    if gave_up:  # a movement along so many tiles that the search stopped: the players say what it was
        return Reconciliation.illegal(f"no play of {state.name_of(state.active)} found in the {MAX_STATES} positions "
                                      f"looked at leaves the table like this ({where}): if it was a "
                                      "legal turn, record it on the panel as a correction", moved, "search")
    return Reconciliation.illegal(f"no play of {state.name_of(state.active)} leaves the table like this ({where})",
                                  moved, "move")


def _token(state: TileRaceState, kind: str) -> str:
    """A piece of the table as players call it: a pawn by its colour and number, else by its kind."""
    if kind in state.pawns:
        return words.pawn(state, kind)
    if is_mountain(kind):
        return f"{state.name_of(owner_of_kind(kind))}'s mountain"
    return {"tile": "a tile", "wall": "a wall stand"}.get(kind, kind)


def _differs(state: TileRaceState, have: Picture, picture: Picture, changed: Sequence[str]) -> str:
    """What differs in words, an edge by the two squares it lies between, never its id ("the camera sees
    a wall stand between F6 and G6 that the game does not have; it does not see a tile on G6")."""
    extra: list[str] = []
    short: list[str] = []
    for cell in changed:
        place = words.place(cell)
        want = [k for _, ks in _form({cell: have.get(cell, ())}) for k in ks]
        seen = [k for _, ks in _form({cell: picture.get(cell, ())}) for k in ks]
        extra += [f"{_token(state, k)} {place}" for k in dict.fromkeys(seen) if seen.count(k) > want.count(k)]
        short += [f"{_token(state, k)} {place}" for k in dict.fromkeys(want) if want.count(k) > seen.count(k)]
    said = ([f"the camera sees {words.listed(extra[:4])} that the game does not have"] if extra else []) + \
        ([f"it does not see {' or '.join(short[:4])}"] if short else [])
    return "; ".join(said) or "nothing the rules count"


def correction(state: TileRaceState, seen: Mapping[str, Sequence[str]]) -> Correct:
    """The table as seen, as the players' correction: every pawn where it is seen (a pawn not seen
    stays where the game has it), tiles, walls and mountains where the picture shows them. A table
    already as the game has it is recorded as such (the players said so): it changes nothing."""
    picture = named(seen)
    pawns: dict[str, str] = {}
    for cell, pieces in picture.items():
        for piece in pieces:
            if piece not in state.pawns:
                continue
            if cell.startswith("start-"):
                if cell != start_cell(piece, len(state.players), state.size):
                    raise IllegalMoveError(f"{piece} waits on its own start space, not on {cell}")
                pawns[piece] = START
            elif on_grid(cell, state.size):
                pawns[piece] = cell
            else:
                raise IllegalMoveError(f"{piece} cannot stand on {cell}")
    order = [p for c in state.players for p in pawns_of(c)]
    everyone = tuple((p, pawns.get(p, state.pawns[p])) for p in order)
    flat = sorted({c for c, ps in picture.items() for p in ps if kind_of(p) == "tile" and on_grid(c, state.size)}
                  | {c for c, ps in picture.items() if on_grid(c, state.size) and c in state.tiles and
                     any(is_mountain(kind_of(p)) for p in ps)})
    walls = sorted(c for c, ps in picture.items() for p in ps if kind_of(p) == "wall" and "|" in c)
    peaks = sorted(f"{c}:{owner_of_kind(k)}" for c, ps in picture.items() for p in ps
                   if is_mountain(k := kind_of(p)) and on_grid(c, state.size))
    return Correct(state.active, everyone, tuple(flat), tuple(walls), tuple(peaks))
