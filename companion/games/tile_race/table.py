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

A turn is read from its pictures as the rules' own actions (a step, a path of steps, the action) by
the framework's reading (:mod:`companion.games.reading`) with the tile race's hints (``hints.py``):
they compare a position with a picture in :func:`form`, and tell positions apart by :func:`key`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from companion.errors import IllegalMoveError
from companion.games.tile_race import rules
from companion.games.tile_race.actions import Action, Correct, Mountain, Move, Pass, Remove, Tile, Undo, Wall
from companion.games.tile_race.board import (MOUNTAIN_SUPPLY, TILE_SUPPLY, mountain_id, start_cell, tile_id,
                                             wall_id)
from companion.games.tile_race.grid import OUT, START, on_grid, pawns_of
from companion.games.tile_race.state import TileRaceState

Picture = dict[str, tuple[str, ...]]
ALIKE = {"T": "tile", "W": "wall"}  # a look-alike piece's kind, by its id's first letter (and mountain-<colour>)
SUPPLIES = (TILE_SUPPLY, MOUNTAIN_SUPPLY)


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
    one under a pawn for every tile it carries, walls on their edges, mountains on their squares; the
    look-alike pieces numbered as :func:`named` numbers a picture (a reading asks it of every position
    it looks at, so it numbers them directly)."""
    out: dict[str, list[str]] = {}
    for pawn in state.pawns:
        cell = where_pawn(state, pawn)
        if cell is not None:
            out.setdefault(cell, []).append(pawn)
    tiles = sorted(state.tiles)
    if state.moving is not None and state.moving.carried:  # the tiles it carries lie under it, counted there
        tiles = sorted([*tiles, *[state.pawns[state.moving.pawn]] * state.moving.carried])
    for n, cell in enumerate(tiles, 1):
        out.setdefault(cell, []).append(tile_id(n))
    for n, cell in enumerate(sorted(state.walls), 1):
        out.setdefault(cell, []).append(wall_id(n))
    owners = state.mountain_owners
    for colour in dict.fromkeys(owners.values()):  # each player's mountains numbered apart: alike within a colour
        for n, cell in enumerate(sorted(c for c in state.mountains if owners[c] == colour), 1):
            out.setdefault(cell, []).append(mountain_id(colour, n))
    return {c: tuple(sorted(ps)) for c, ps in out.items()}


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


def form(picture: Mapping[str, Sequence[str]]) -> frozenset[tuple[str, tuple[str, ...]]]:
    """What a picture shows that the camera can see: tiles under a pawn or a mountain left out."""
    out = []
    for cell, pieces in named(picture).items():
        covered = any(kind_of(p) != "tile" for p in pieces) and on_grid(cell, 12)
        kept = tuple(p for p in pieces if not (covered and kind_of(p) == "tile"))
        if kept:
            out.append((cell, tuple(sorted(kind_of(p) or p for p in kept))))
    return frozenset(out)


def state_form(state: TileRaceState) -> frozenset[tuple[str, tuple[str, ...]]]:
    """:func:`form` of the state's own picture, worked out from the state directly (a reading asks it
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


def key(state: TileRaceState) -> tuple[object, ...]:
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


def candidates(state: TileRaceState, seen: Picture) -> Iterator[Action]:
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
