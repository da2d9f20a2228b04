"""A moment of the tile race as one immutable value, and its saved (JSON) form read back with care.

The rules care how many tiles lie on a square or sit under a pawn, never which tile: the 40 look
alike. So the state counts them - a square holds one tile or none (tiles are only ever laid on an
empty square), a pawn under way carries as many as it collected - and the rest of the box is
counted too: tiles in the common supply, tiles standing on their side as walls, tiles lost with a
pawn that left the grid. The five always add up to 40, which is how a damaged file is caught.

A turn is made of several actions, as hands make it (``rules.py``), so the state also says how
far the turn in hand has got: the movement under way (which pawn, the squares entered, where it
collected and where it dropped), whether the movement is over, and whether the action is done.

Pure: standard library only, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.errors import NotationError, StateFormatError
from companion.games.tile_race.grid import (COLOURS, MAX_SIZE, MIN_SIZE, OUT, SIZE, START, TILES, corners, edge,
                                            edges, entry, exits, on_grid, pawns_of, players)


@dataclass(frozen=True)
class Movement:
    """A movement under way. ``taken``: squares whose tile the pawn collected, in order; ``dropped``:
    squares it left a tile on. Enough to undo it (the rulebook's "undo your move and try again")."""

    pawn: str
    origin: str  # where the pawn stood before the turn: START or a square
    path: tuple[str, ...] = ()  # squares entered this turn, in order
    taken: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    dropping: bool = False  # in the drop phase (phase 2)

    @property
    def carried(self) -> int:
        """Tiles stacked under the pawn now."""
        return len(self.taken) - len(self.dropped)

    @property
    def arrived_with(self) -> int:
        """Tiles under the pawn when it reached its square (before leaving one there): a pawn may leave the
        grid from an exit only if this is at least one."""
        here = self.path[-1] if self.path else None
        return self.carried + (1 if self.dropping and self.dropped and self.dropped[-1] == here else 0)

    def to_json(self) -> dict[str, Any]:
        return {"pawn": self.pawn, "origin": self.origin, "path": list(self.path), "taken": list(self.taken),
                "dropped": list(self.dropped), "dropping": self.dropping}


@dataclass(frozen=True)
class TileRaceState:
    """The grid (tiles, walls, mountains, pawns), the supply beside it, and the turn in hand.

    ``pawns`` maps each pawn to ``start`` (beside the grid, not yet on it), a square, or ``out-<corner>``
    (left the grid from that corner). ``removed`` holds, per seat, the wall that player took away in
    their last turn: nobody may stand a wall there again until that player's next turn is over."""

    size: int
    players: tuple[str, ...]
    pawns: Mapping[str, str]
    tiles: frozenset[str] = frozenset()  # squares holding a flat tile (one each)
    walls: frozenset[str] = frozenset()  # edges holding a wall
    mountains: frozenset[str] = frozenset()
    mountains_left: tuple[int, ...] = ()
    supply: int = TILES
    lost: int = 0  # tiles that left the grid under a pawn
    turn: int = 0  # seat to play
    removed: tuple[str | None, ...] = ()
    moving: Movement | None = None
    moved: bool = False  # the turn's movement is over (or there was none to make)
    acted: bool = False  # the turn's one action is done
    history: tuple[str, ...] = field(default=())
    seed: int = 0
    names: tuple[str, ...] = ()  # the players' names by seat, as the setup gave them (none: the colours)
    # square -> the colour of the player whose mountain stands there: each player's mountains are in their
    # colour at the table, so whose it is shows (a state built without it: see __post_init__)
    mountain_owners: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        """Owners kept for exactly the squares holding a mountain; one without an owner (a state built
        from its squares alone) gets one from the counts of mountains each player has placed."""
        owners = {sq: c for sq, c in self.mountain_owners.items() if sq in self.mountains}
        if len(owners) != len(self.mountain_owners) or len(owners) != len(self.mountains):
            owners = infer_owners(self, owners)
            object.__setattr__(self, "mountain_owners", MappingProxyType(owners))

    def owner_of(self, square: str) -> str | None:
        """The colour of the player whose mountain stands on ``square`` (None: no mountain there)."""
        return self.mountain_owners.get(square)

    def name_of(self, colour: str) -> str:
        """A player as the table calls them: by name when the setup gave one, else by colour."""
        seat = self.players.index(colour)
        return self.names[seat] if seat < len(self.names) else colour

    @property
    def active(self) -> str:
        return self.players[self.turn]

    def tiles_on(self, name: str) -> int:
        """How many tiles lie flat on a square (0 or 1), not counting any under a pawn."""
        return 1 if name in self.tiles else 0

    def carried(self, pawn: str) -> int:
        """How many tiles are stacked under ``pawn`` (only a pawn under way carries any)."""
        return self.moving.carried if self.moving and self.moving.pawn == pawn else 0

    def exited(self, pawn: str) -> str | None:
        """The corner ``pawn`` left the grid from, or None while it has not."""
        where = self.pawns[pawn]
        return where[len(OUT) + 1:] if where.startswith(OUT + "-") else None

    def open_exits(self, pawn: str) -> tuple[str, ...]:
        """The exits still open to ``pawn``: not the corner the other pawn of its colour left from."""
        other = next(p for p in pawns_of(pawn.rpartition("-")[0]) if p != pawn)
        used = self.exited(other)
        return tuple(x for x in exits(pawn, len(self.players), self.size) if x != used)

    def pawn_squares(self) -> dict[str, str]:
        """Square -> pawn for every pawn on the grid."""
        return {where: p for p, where in self.pawns.items() if where != START and not where.startswith(OUT)}


MAX_NAME = 40


def infer_owners(state: TileRaceState, owners: Mapping[str, str]) -> dict[str, str]:
    """Owners for mountains that have none, from what each player has placed (their allowance less the
    mountains they still hold), in seat order; any past those counts the player to move's."""
    out = dict(owners)
    if not state.players:
        return out
    allowance = mountain_allowance(len(state.players))
    owed = {c: allowance - (state.mountains_left[k] if k < len(state.mountains_left) else allowance)
            - sum(o == c for o in out.values()) for k, c in enumerate(state.players)}
    for square in sorted(state.mountains - set(out)):
        out[square] = next((c for c in state.players if owed[c] > 0), state.players[state.turn % len(state.players)])
        owed[out[square]] -= 1
    return out


def new_game(count: int = 2, seed: int = 0, size: int = SIZE, names: tuple[str, ...] = ()) -> TileRaceState:
    """Every pawn beside its entry corner, an empty grid, 40 tiles in the supply; red to play. Each
    player holds two mountains, three in a 2-player game."""
    seats = players(count)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise StateFormatError(f"tile race: a grid of {size} squares a side: it must be {MIN_SIZE} to {MAX_SIZE}")
    return TileRaceState(size, seats, MappingProxyType({p: START for c in seats for p in pawns_of(c)}),
                         mountains_left=(mountain_allowance(count),) * count, removed=(None,) * count, seed=seed,
                         names=names)


def mountain_allowance(count: int) -> int:
    return 3 if count == 2 else 2


def to_json(state: TileRaceState) -> dict[str, Any]:
    return {"game": "tile-race", "size": state.size, "players": list(state.players), "pawns": dict(state.pawns),
            "tiles": sorted(state.tiles), "walls": sorted(state.walls), "mountains": sorted(state.mountains),
            "mountain_owners": dict(sorted(state.mountain_owners.items())),
            "mountains_left": list(state.mountains_left), "supply": state.supply, "lost": state.lost,
            "turn": state.turn, "removed": list(state.removed),
            "moving": state.moving.to_json() if state.moving else None, "moved": state.moved,
            "acted": state.acted, "history": list(state.history), "seed": state.seed, "names": list(state.names)}


# ------------------------------------------------------------------------------------------ reading back
def _fail(what: str) -> StateFormatError:
    return StateFormatError(f"tile race state: {what}"[:300])


def _int(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{key!r} must be a whole number from {low} to {high}, not {str(value)[:40]}")
    return value


def _names(data: Mapping[str, Any], key: str, ok: Any, what: str) -> frozenset[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(f"{key!r} must be a list of {what}")
    for v in value:
        if not ok(v):
            raise _fail(f"{key!r} names {v[:20]!r}, which is not {what} of this grid")
    if len(set(value)) != len(value):
        raise _fail(f"{key!r} names a place twice")
    return frozenset(value)


def from_json(data: Mapping[str, Any]) -> TileRaceState:
    """A saved state, every field checked; a state no play can reach is refused (StateFormatError
    naming the field and the rule), so a hand-edited or damaged file never starts a wrong game."""
    if not isinstance(data, Mapping):
        raise _fail("the file must hold an object")
    size = _int(data, "size", MIN_SIZE, MAX_SIZE)
    seats = data.get("players")
    if not isinstance(seats, list) or len(seats) not in (2, 3, 4) or tuple(seats) != COLOURS[:len(seats)]:
        raise _fail(f"'players' must be the seats in order: {', '.join(COLOURS[:2])} and up to {', '.join(COLOURS[2:])}")
    count = len(seats)
    grid = frozenset(e for e in edges(size))
    tiles = _names(data, "tiles", lambda s: on_grid(s, size), "a square")
    walls = _names(data, "walls", lambda e: e in grid, "an edge (two side-by-side squares, lower first, e.g. C5|C6)")
    mountains = _names(data, "mountains", lambda s: on_grid(s, size), "a square")
    pawns = _pawns(data.get("pawns"), count, size, mountains)
    left = data.get("mountains_left")
    allowance = mountain_allowance(count)
    if not isinstance(left, list) or len(left) != count or \
            not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= allowance for n in left):
        raise _fail(f"'mountains_left' must be {count} counts of 0 to {allowance} (mountains each player still holds)")
    if len(mountains) != count * allowance - sum(left):
        raise _fail(f"{len(mountains)} mountains on the grid, but the players have placed {count * allowance - sum(left)}")
    owners = _owners(data, mountains, tuple(seats), left, allowance) if "mountain_owners" in data else {}
    for corner in corners(size):
        if corner in mountains:
            raise _fail(f"a mountain on {corner}, a corner: it would block an exit for good")
        for wall in walls:
            if corner in wall.split("|"):
                raise _fail(f"a wall on {wall}, in front of the exit at {corner}")
    turn = _int(data, "turn", 0, count - 1)
    supply, lost = _int(data, "supply", 0, TILES), _int(data, "lost", 0, TILES)
    removed = data.get("removed", [None] * count)
    if not isinstance(removed, list) or len(removed) != count or \
            not all(r is None or (isinstance(r, str) and r in grid) for r in removed):
        raise _fail(f"'removed' must list, for each of the {count} seats, the edge whose wall they removed last or null")
    for r in removed:
        if r in walls:
            raise _fail(f"a wall stands on {r}, which was emptied in its remover's last turn: nobody may put it back yet")
    moved, acted = data.get("moved", False), data.get("acted", False)
    if not isinstance(moved, bool) or not isinstance(acted, bool):
        raise _fail("'moved' and 'acted' must be true or false")
    moving = _movement(data.get("moving"), pawns, seats[turn], size)
    if moving is not None and moved:
        raise _fail("'moved' says the movement is over while one is under way")
    carried = moving.carried if moving else 0
    for square in moving.dropped if moving else ():
        if square not in tiles:
            raise _fail(f"the movement dropped a tile on {square}, but the square holds none")
    standing = {w for p, w in pawns.items() if on_grid(w, size)}
    for square in sorted(standing & tiles):
        if not (moving and moving.dropped and moving.dropped[-1] == square and pawns[moving.pawn] == square):
            raise _fail(f"a pawn stands on the tile on {square}: a pawn comes to rest only on an empty square")
    total = supply + len(tiles) + len(walls) + carried + lost
    if total != TILES:
        raise _fail(f"the tiles add up to {total} (supply {supply}, on the grid {len(tiles)}, walls {len(walls)}, "
                    f"carried {carried}, lost {lost}), not the box's {TILES}")
    done = [c for c in seats if all(pawns[p].startswith(OUT) for p in pawns_of(c))]
    if len(done) > 1:
        raise _fail(f"{' and '.join(done)} have both pawns out: the first to do so won and the game stopped")
    if moved and acted and not done:
        raise _fail("'moved' and 'acted' are both true: that turn is over, and the next player's has begun")
    history = data.get("history", [])
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise _fail("'history' must be a list of actions' text")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _fail("'seed' must be a whole number")
    names = data.get("names", [])
    if not isinstance(names, list) or len(names) not in (0, count) or \
            not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names):
        raise _fail(f"'names' must be a name of 1 to {MAX_NAME} characters for each of the {count} seats, or empty")
    if "mountain_owners" not in data:  # saved before mountains had owners: whose each is, from the log
        owners = _owners_from(history, mountains, tuple(seats), left, allowance)
    return TileRaceState(size, tuple(seats), MappingProxyType(pawns), tiles, walls, mountains, tuple(left), supply,
                         lost, turn, tuple(removed), moving, moved, acted, tuple(history), seed, tuple(names),
                         MappingProxyType(owners))


def _owners(data: Mapping[str, Any], mountains: frozenset[str], seats: tuple[str, ...], left: list[int],
            allowance: int) -> dict[str, str]:
    """Whose mountain stands on each square, checked against the mountains each player still holds."""
    raw = data.get("mountain_owners", {})
    if not isinstance(raw, Mapping) or set(raw) != set(mountains) or not all(v in seats for v in raw.values()):
        raise _fail("'mountain_owners' must give each square in 'mountains' the colour of the player whose "
                    "mountain it is")
    for seat, colour in enumerate(seats):
        placed = sum(v == colour for v in raw.values())
        if placed != allowance - left[seat]:
            raise _fail(f"{placed} of {colour}'s mountains stand on the grid, but {colour} holds {left[seat]} of "
                        f"{allowance}")
    return dict(raw)


def _owners_from(history: list[str], mountains: frozenset[str], seats: tuple[str, ...], left: list[int],
                 allowance: int) -> dict[str, str]:
    """An older saved state's mountains' owners, told by its log: each ``mountain <colour> <square>``,
    and a correction's new mountains its player's (as a correction charged them then). When the log
    does not add up with the mountains each player holds (a hand-edited file), by those counts alone."""
    owners: dict[str, str] = {}
    for line in history:
        words = line.split()
        if len(words) == 3 and words[0] == "mountain" and words[1] in seats:
            owners[words[2]] = words[1]
        elif words[:1] == ["correct"] and len(words) == 6 and words[5].startswith("mountains="):
            listed = [m.partition(":")[0] for m in words[5][len("mountains="):].split(",") if m != "-"]
            owners = {sq: owners.get(sq, words[1]) for sq in listed}
    owners = {sq: c for sq, c in owners.items() if sq in mountains}
    counts_fit = all(sum(c == colour for c in owners.values()) == allowance - left[k] for k, colour in enumerate(seats))
    return owners if counts_fit and set(owners) == set(mountains) else {}


def _pawns(raw: Any, count: int, size: int, mountains: frozenset[str]) -> dict[str, str]:
    """Every pawn's place, checked: on its start, a square, or out through one of its own exits."""
    if not isinstance(raw, Mapping):
        raise _fail("'pawns' must map every pawn to start, a square or out-<corner>")
    wanted = [p for c in COLOURS[:count] for p in pawns_of(c)]
    for pawn in raw:
        if pawn not in wanted:
            raise _fail(f"'pawns' names {str(pawn)[:20]!r}, which is not a pawn of this game ({', '.join(wanted)})")
    pawns: dict[str, str] = {}
    for pawn in wanted:
        where = raw.get(pawn)
        if not isinstance(where, str):
            raise _fail(f"'pawns' has no place for {pawn}")
        if where.startswith(OUT + "-"):
            if where[len(OUT) + 1:] not in exits(pawn, count, size):
                raise _fail(f"{pawn} is {where}, but it may leave only from {' or '.join(exits(pawn, count, size))}")
        elif where != START and not on_grid(where, size):
            raise _fail(f"{pawn} is on {where[:20]!r}, which is not start, a square or out-<corner>")
        if where in mountains:
            raise _fail(f"{pawn} stands on the mountain on {where}: nothing moves onto a mountain")
        pawns[pawn] = where
    on = [w for w in pawns.values() if w != START and not w.startswith(OUT)]
    for where in sorted(set(on)):
        if on.count(where) > 1:
            who = " and ".join(p for p, w in pawns.items() if w == where)
            raise _fail(f"{who} share {where}: a pawn never moves onto another")
    for colour in COLOURS[:count]:
        one, two = (pawns[p] for p in pawns_of(colour))
        if one == two and one.startswith(OUT):
            raise _fail(f"{colour}-1 and {colour}-2 both left from {one[len(OUT) + 1:]}: a player's second pawn "
                        "leaves from the other exit")
    return pawns


def _movement(raw: Any, pawns: Mapping[str, str], colour: str, size: int) -> Movement | None:
    """The movement under way, if any: the active player's pawn, a path of side-by-side squares
    starting where it stood, ending where it stands, carrying what it collected less what it dropped."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise _fail("'moving' must be null or the movement under way")
    pawn, origin = raw.get("pawn"), raw.get("origin")
    if pawn not in pawns_of(colour):
        raise _fail(f"'moving' names {str(pawn)[:20]!r}, not a pawn of {colour}, whose turn it is")
    lists = [raw.get(k) for k in ("path", "taken", "dropped")]
    if not all(isinstance(v, list) and all(isinstance(s, str) and on_grid(s, size) for s in v) for v in lists):
        raise _fail("'moving' needs 'path', 'taken' and 'dropped' as lists of squares")
    path, taken, dropped = (tuple(v) if isinstance(v, list) else () for v in lists)
    dropping = raw.get("dropping")
    if not isinstance(dropping, bool) or not path or not (origin == START or on_grid(str(origin), size)):
        raise _fail("'moving' needs 'origin' (start or a square), a 'path' of at least one square and 'dropping'")
    first = entry(pawn, len(pawns) // 2, size) if origin == START else str(origin)
    steps = ([first] if origin == START else [first, path[0]]) + list(path[1:])
    for a, b in zip(steps, steps[1:]):
        try:
            edge(a, b)
        except NotationError:
            raise _fail(f"the movement under way steps from {a} to {b}, which are not side by side") from None
    if origin == START and path[0] != first:
        raise _fail(f"{pawn} came onto the grid at {path[0]}, but its entry is {first}")
    if pawns[pawn] != path[-1]:
        raise _fail(f"the movement under way ends on {path[-1]}, but {pawn} is on {pawns[pawn]}")
    if not set(taken) <= set(path) or not set(dropped) <= set(path) or len(dropped) > len(taken):
        raise _fail("the movement collected or dropped tiles off its own path, or dropped more than it collected")
    if dropped and not dropping:
        raise _fail("the movement dropped tiles before its drop phase began")
    if not taken:
        raise _fail("a movement that collected nothing is over at its first square: it cannot be under way")
    return Movement(str(pawn), str(origin), path, taken, dropped, dropping)
