"""Movements of The FOG (rulebook section 5 and option 6.2) and legality.

A :class:`Movement` is one movement of one islander, with a text form that parses back::

    run blue-sailor-2 C3>D3            run 1 field (backwards too); on shore/pier: one water step
    swap blue-sailor-2 C3>D3           swap places with the islander on D3
    push blue-sailor-2 C3>D3           push the islanders from D3 on, straight
    push+ blue-sailor-2 C3>D3/NE       enhanced: angled push (pushed ones move NE) or 3 islanders
    jump blue-sailor-2 C3>D3>E3        jump from C3 over D3 to E3 (straight)
    cross blue-sailor-2 C3>D3>E4       cross the obstacle on D3 (straight or angular)
    squeeze blue-sailor-2 C3>E4        squeeze between the two blockers next to both hexes
    pull red-elder-1 S3>S4             water: step to S4 and pull its islander back to S3
    board red-elder-1 P1-3>green-AR    water step into or inside a boat
    drive-off red-elder-1 P2-3>red-AR  boarding onto an occupied place (Drive Off)
    endurance blue-sailor-2 D3>D4      the free last run of an endurance islander

A ``+`` after the kind marks an enhanced movement (+2 MP). A movement may end on an occupied
field only where the rules demand a further movement (enhanced "via occupied hex", a beach
islander landing on a shore islander, passing in the water); the islander is then *pending*
and must move on before anything else happens. A :class:`MoveAction` is the unit a player
completes and the session confirms: one or more movements that leave nobody pending.

Legality lives here as data-driven generation: :func:`movements_from` lists every single
movement an islander can make from a position, and applying a movement means finding it among
those. :mod:`companion.games.fog.explain` searches over the same generator.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from companion.errors import NotationError
from companion.games.fog.board import BACKWARD, DIRECTIONS, Board
from companion.games.fog.state import GameState

KINDS = ("run", "swap", "push", "jump", "cross", "squeeze", "pull", "board", "drive-off", "endurance")
BASE_COST = {"run": 1, "swap": 3, "push": 3, "jump": 3, "cross": 4, "squeeze": 4, "pull": 1, "board": 1,
             "drive-off": 1, "endurance": 0}
ENHANCE_COST = 2
ROT60 = {"E": ("NE", "SE"), "NE": ("NW", "E"), "NW": ("W", "NE"), "W": ("NW", "SW"), "SW": ("W", "SE"),
         "SE": ("SW", "E")}
SQUEEZE_PAIRS = (("W", "NW"), ("NW", "NE"), ("NE", "E"))  # forwards only: no sideways squeeze exists


# ============================================================================ values
class Movement(NamedTuple):
    """One movement of one islander; immutable, hashable, and ``Movement.parse(str(m)) == m``."""

    kind: str
    islander: str
    path: tuple[str, ...]
    enhanced: bool = False
    push_dir: str | None = None  # direction the pushed islanders move, when it differs from the pusher's

    def __str__(self) -> str:
        suffix = f"/{self.push_dir}" if self.push_dir else ""
        return f"{self.kind}{'+' if self.enhanced else ''} {self.islander} {'>'.join(self.path)}{suffix}"

    def __repr__(self) -> str:
        return f"Movement.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Movement:
        words = text.split()
        if len(words) != 3:
            raise NotationError(f"{text!r}: a movement is 'KIND ISLANDER FROM>TO'")
        kind, islander, path = words
        enhanced = kind.endswith("+")
        kind = kind.rstrip("+")
        if kind not in KINDS:
            raise NotationError(f"{text!r}: unknown movement {kind!r}; known: {', '.join(KINDS)}")
        path, _, push_dir = path.partition("/")
        cells = tuple(path.split(">"))
        if len(cells) < 2 or not all(cells):
            raise NotationError(f"{text!r}: the path needs at least FROM>TO")
        if push_dir and push_dir not in DIRECTIONS:
            raise NotationError(f"{text!r}: {push_dir!r} is not a direction ({', '.join(DIRECTIONS)})")
        return cls(kind, islander, cells, enhanced, push_dir or None)

    @property
    def source(self) -> str:
        return self.path[0]

    @property
    def target(self) -> str:
        return self.path[-1]


@dataclass(frozen=True)
class MoveAction:
    """Movements completed together (nobody left pending); one confirmed step of a turn."""

    movements: tuple[Movement, ...]

    def __str__(self) -> str:
        return "move " + "; ".join(str(m) for m in self.movements)

    @classmethod
    def parse(cls, text: str) -> MoveAction:
        body = text.strip()
        if body.startswith("move "):
            body = body[5:]
        parts = [p.strip() for p in body.split(";") if p.strip()]
        if not parts:
            raise NotationError("a move needs at least one movement")
        return cls(tuple(Movement.parse(p) for p in parts))


# ============================================================================ topology
@dataclass(frozen=True)
class Topology:
    """Per-board lookup tables, built once, that make movement generation cheap."""

    board: Board
    kind: dict[str, str]
    row: dict[str, str | None]
    r: dict[str, int | None]
    hexdir: dict[str, dict[str, str]]
    water: dict[str, tuple[str, ...]]
    dist: dict[str, dict[str, int]]


@lru_cache(maxsize=8)
def _topology_for(board_id: int) -> Topology:  # keyed by id; boards are cached and immortal
    board = _BOARDS[board_id]
    kind = {c.id: c.kind for c in board.cells.values()}
    hexdir: dict[str, dict[str, str]] = {}
    for cid in board.cells:
        hexdir[cid] = {d: n for d in DIRECTIONS if (n := board.step(cid, d)) is not None}
    water: dict[str, tuple[str, ...]] = {}
    for cid, k in kind.items():
        nbrs = board.neighbours(cid)
        if k == "beach":
            water[cid] = tuple(sorted(n for n in nbrs if kind[n] == "shore"))
        elif k in ("shore", "pier"):
            water[cid] = tuple(sorted(n for n in nbrs if kind[n] in ("shore", "pier", "boat", "beach")))
        elif k == "boat":
            water[cid] = tuple(sorted(n for n in nbrs if kind[n] == "boat"))
        else:
            water[cid] = ()
    dist: dict[str, dict[str, int]] = {}
    for start in board.cells:
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for c in frontier:
                for n in board.neighbours(c):
                    if n not in seen and kind[n] != "woods":
                        seen[n] = seen[c] + 1
                        nxt.append(n)
            frontier = nxt
        dist[start] = seen
    return Topology(board, kind, {c: board.row_of(c) for c in board.cells},
                    {c: board.cells[c].r for c in board.cells}, hexdir, water, dist)


_BOARDS: dict[int, Board] = {}


def topology(board: Board) -> Topology:
    _BOARDS[id(board)] = board
    return _topology_for(id(board))


# ============================================================================ positions
@dataclass(frozen=True)
class Rules:
    """What stays fixed during one turn: board, mover's colour, options, covered rows."""

    topo: Topology
    colour: str
    movers: frozenset[str]
    enhanced: bool
    advanced_drive_off: bool
    covered: frozenset[str]
    solo: bool
    leaders: frozenset[str]

    @classmethod
    def of(cls, state: GameState) -> Rules:
        board = state.board_data
        colour = state.active_colour or ""
        return cls(topology(board), colour, frozenset(state.islanders_of(colour)) if colour else frozenset(),
                   state.options.enhanced_movements, state.options.drive_off == "advanced",
                   board.swallowed_rows(state.fog), state.mode == "solo", frozenset(state.leaders))


class Pos:
    """The part of a game state a turn changes; cheap to copy during the search. Never mutated."""

    __slots__ = ("occ", "mp", "pending", "moved", "endurance_used", "prepared", "prep_stacks", "gains")

    def __init__(self, occ: Mapping[str, tuple[str, ...]], mp: int, pending: str | None = None,
                 moved: frozenset[str] = frozenset(), endurance_used: bool = False,
                 prepared: frozenset[str] = frozenset(), prep_stacks: Mapping[str, tuple[int, ...]] | None = None,
                 gains: tuple[int, ...] = ()) -> None:
        self.occ = occ
        self.mp = mp
        self.pending = pending
        self.moved = moved
        self.endurance_used = endurance_used
        self.prepared = prepared
        self.prep_stacks = prep_stacks if prep_stacks is not None else {}
        self.gains = gains

    @classmethod
    def of(cls, state: GameState) -> Pos:
        return cls(dict(state.placement), state.mp_left, None, frozenset(state.moved), state.endurance_used,
                   frozenset(state.prepared), dict(state.prep_stacks), ())

    def where(self, piece: str) -> str | None:
        for c, ps in self.occ.items():
            if piece in ps:
                return c
        return None

    def with_mp(self, mp: int) -> Pos:
        return Pos(self.occ, mp, self.pending, self.moved, self.endurance_used, self.prepared, self.prep_stacks,
                   self.gains)


class Step(NamedTuple):
    """A generated movement with everything needed to apply it."""

    movement: Movement
    cost: int
    relocations: tuple[tuple[str, str, str], ...]  # (piece, from, to), in order
    pending: bool = False
    prep_boat: str | None = None  # boat whose top preparation bonus the mover takes


def apply_step(pos: Pos, step: Step) -> Pos:
    occ = dict(pos.occ)
    for piece, src, dst in step.relocations:
        here = occ[src]
        if len(here) == 1:
            del occ[src]
        else:
            occ[src] = tuple(p for p in here if p != piece)
        occ[dst] = occ[dst] + (piece,) if dst in occ else (piece,)
    m = step.movement
    mover = m.islander
    stacks, gains, prepared = pos.prep_stacks, pos.gains, pos.prepared
    if step.prep_boat is not None:
        stack = stacks[step.prep_boat]
        stacks = {**stacks, step.prep_boat: stack[1:]}
        gains = gains + (stack[0],)
        prepared = prepared | {mover}
    if m.kind == "endurance":
        return Pos(occ, 0, None, pos.moved, True, prepared, stacks, gains)
    return Pos(occ, pos.mp - step.cost, mover if step.pending else None,
               pos.moved | {mover} if step.cost > 0 and mover not in pos.moved else pos.moved,
               pos.endurance_used, prepared, stacks, gains)


# ============================================================================ generation
def movements_from(rules: Rules, pos: Pos, islander: str, cell: str | None = None) -> Iterator[Step]:
    """Every single legal movement of one islander from a position (within the MP left).

    ``cell`` may be given when the caller already knows where the islander stands.
    """
    board = rules.topo.board
    if islander not in rules.movers:
        return
    if pos.pending is not None and pos.pending != islander:
        return
    cell = cell or pos.where(islander)
    if cell is None:
        return
    kind = rules.topo.kind[cell]
    isl = board.islanders[islander]
    if pos.mp > 0 or pos.pending:
        if kind == "beach":
            yield from _beach(rules, pos, islander, cell, isl.characteristic)
        if kind in ("beach", "shore", "pier", "boat"):
            yield from _water(rules, pos, islander, cell)
    if (pos.pending is None and not pos.endurance_used and isl.characteristic == "endurance"
            and islander in pos.moved):
        yield from _endurance(rules, pos, islander, cell)


def _free(rules: Rules, pos: Pos, cell: str) -> bool:
    """An empty beach/shore/pier field outside the FOG."""
    return (cell not in pos.occ and rules.topo.kind[cell] in ("beach", "shore", "pier")
            and rules.topo.row[cell] not in rules.covered)


def _islander_at(rules: Rules, pos: Pos, cell: str | None) -> bool:
    return cell is not None and any(p in rules.topo.board.islanders for p in pos.occ.get(cell, ()))


def obstacle_at(rules: Rules, pos: Pos, cell: str | None) -> bool:
    """Whether an obstacle stands on ``cell`` (the legality check of a move read as a whole asks it too)."""
    return cell is not None and any(p in rules.topo.board.obstacles for p in pos.occ.get(cell, ()))


def _what(rules: Rules, pos: Pos, cell: str | None) -> str:
    """What stands on a cell, as the beach movements see it.

    "none" (no such cell), "woods", "free" (empty, enterable), "fog" (empty but in the FOG),
    "islander" (a lone beach islander), "shore-islander", "obstacle", "crowded" (several pieces),
    or "water" (empty shore/pier field).
    """
    if cell is None:
        return "none"
    kind = rules.topo.kind[cell]
    if kind == "woods":
        return "woods"
    pieces = pos.occ.get(cell)
    if not pieces:
        if rules.topo.row[cell] in rules.covered:
            return "fog"
        return "free" if kind == "beach" else "water"
    if len(pieces) > 1:
        return "crowded"
    if pieces[0] in rules.topo.board.obstacles:
        return "obstacle"
    return "islander" if kind == "beach" else "shore-islander"


def _landing(rules: Rules, pos: Pos, cell: str | None, enhanced: bool) -> tuple[bool, bool] | None:
    """Where a jump/cross/squeeze may land: (ok, pending) or None if it may not land there."""
    what = _what(rules, pos, cell)
    if what == "free" or (what == "water" and rules.topo.kind[cell] == "shore"):  # type: ignore[index]
        return (True, False)
    if what == "shore-islander":
        return (True, True)  # onto a shore islander: a further movement must follow
    if enhanced and what in ("islander", "obstacle", "crowded"):
        return (True, True)  # enhanced "via occupied hex"
    return None


def step_cost(kind: str, characteristic: str, enhanced: bool) -> int:
    """The movement points one step of ``kind`` costs an islander of ``characteristic`` (rulebook: the
    movement types' costs; a characteristic's own kind costs less, enhancing costs 2 MP more)."""
    base = BASE_COST[kind]
    if characteristic == kind and kind in ("push", "jump", "cross", "squeeze"):
        base = 2
    elif characteristic == "all-rounder" and kind in ("cross", "squeeze"):
        base = 3
    return base + (ENHANCE_COST if enhanced else 0)


def _beach(rules: Rules, pos: Pos, me: str, cell: str, ch: str) -> Iterator[Step]:
    topo = rules.topo
    hexdir = topo.hexdir
    here = hexdir[cell]
    mp = pos.mp
    pending = pos.pending == me
    enh = (False, True) if rules.enhanced else (False,)
    whats = {d: _what(rules, pos, n) for d, n in here.items()}
    for d, n1 in here.items():
        w1 = whats[d]
        # Run: to an empty adjacent hex, also backwards.
        if w1 == "free":
            if mp >= 1:
                yield Step(Movement("run", me, (cell, n1)), 1, ((me, cell, n1),))
            continue
        if d in BACKWARD:
            continue
        if w1 == "islander":
            other = pos.occ[n1][0]
            # Swap with an adjacent beach islander.
            if not pending and mp >= 3:
                yield Step(Movement("swap", me, (cell, n1)), 3, ((me, cell, n1), (other, n1, cell)))
            # Push the row of islanders from n1 on, one hex (straight; angled if enhanced).
            for e in (d,) + (ROT60[d] if rules.enhanced else ()):
                if e in BACKWARD:
                    continue
                chain = [n1]
                nxt = hexdir[n1].get(e)
                while len(chain) < 4 and _what(rules, pos, nxt) == "islander":
                    chain.append(nxt)  # type: ignore[arg-type]
                    nxt = hexdir[nxt].get(e)  # type: ignore[index]
                end = _what(rules, pos, nxt)
                if end != "free" and not (end == "water" and topo.kind[nxt] == "shore"):  # type: ignore[index]
                    continue
                enhanced = e != d or len(chain) == 3
                if len(chain) > (3 if rules.enhanced else 2):
                    continue
                cost = step_cost("push", ch, enhanced)
                if cost > mp:
                    continue
                moves = tuple((pos.occ[c][0], c, hexdir[c][e]) for c in reversed(chain))
                yield Step(Movement("push", me, (cell, n1), enhanced, e if e != d else None), cost,
                           moves + ((me, cell, n1),))
            # Jump over one beach islander (straight; angular if enhanced).
            for e in (d,) + (ROT60[d] if rules.enhanced else ()):
                if e not in BACKWARD:
                    yield from _leap(rules, pos, me, "jump", (cell, n1, hexdir[n1].get(e)), ch, enh,
                                     needs_enhancement=e != d)
        elif w1 == "obstacle":
            # Cross one obstacle (straight or angular).
            for e in (d,) + ROT60[d]:
                if e not in BACKWARD:
                    yield from _leap(rules, pos, me, "cross", (cell, n1, hexdir[n1].get(e)), ch, enh)
    # Squeeze between two blockers (beach islanders, obstacles, woods) to the hex beyond.
    for d1, d2 in SQUEEZE_PAIRS:
        if whats.get(d1) not in BLOCKERS or whats.get(d2) not in BLOCKERS:
            continue
        yield from _leap(rules, pos, me, "squeeze", (cell, hexdir[here[d1]].get(d2)), ch, enh)


def _leap(rules: Rules, pos: Pos, me: str, kind: str, path: tuple[str | None, ...], ch: str,
          enh: tuple[bool, ...], needs_enhancement: bool = False) -> Iterator[Step]:
    """Jump, cross or squeeze along ``path`` to its last cell.

    In the base game it lands on an empty field (or on a shore islander, then moves on); the
    enhanced version (+2 MP) is for landing on an occupied hex, or for geometry that needs it
    (``needs_enhancement``: an angular jump), where it may land anywhere it could otherwise.
    """
    target = path[-1]
    for enhanced in enh:
        if needs_enhancement and not enhanced:
            continue
        land = _landing(rules, pos, target, enhanced)
        if land is None or (enhanced and not needs_enhancement and not land[1]):
            continue
        cost = step_cost(kind, ch, enhanced)
        if cost <= pos.mp:
            yield Step(Movement(kind, me, path, enhanced), cost, ((me, path[0], target),), land[1])  # type: ignore[arg-type]


BLOCKERS = frozenset({"islander", "obstacle", "woods", "crowded"})


def _boat_entry(rules: Rules, pos: Pos, me: str, src: str, place: str) -> Step | None:
    """A step onto a boat place: take it, drive off, or pass through (pending)."""
    board = rules.topo.board
    cell = board.cells[place]
    isl = board.islanders[me]
    occupants = pos.occ.get(place, ())
    fits = cell.place == "stern" or cell.islander_type == isl.type
    prep = None
    if fits and len(occupants) < cell.capacity:
        if (cell.place == "productive" and not rules.solo and me not in pos.prepared
                and pos.prep_stacks.get(cell.boat or "")):
            prep = cell.boat
        return Step(Movement("board", me, (src, place)), 1, ((me, src, place),), prep_boat=prep)
    if fits and cell.place == "productive" and occupants:
        elder_leader = (me in rules.leaders and isl.type == "elder" and cell.boat == isl.nation
                        and all(board.islanders[o].type == "elder" and board.islanders[o].nation == isl.nation
                                for o in occupants))
        drive_off = (isl.nation == cell.boat
                     and all(board.islanders[o].nation != isl.nation for o in occupants)
                     and not _other_place_reachable(rules, pos, me, src, place))
        if elder_leader or drive_off:
            if (not rules.solo and me not in pos.prepared and pos.prep_stacks.get(cell.boat or "")):
                prep = cell.boat
            moves: tuple[tuple[str, str, str], ...] = ((me, src, place),)
            if drive_off and not elder_leader and rules.advanced_drive_off:
                victim = occupants[-1]
                moves = ((victim, place, _driven_off_to(rules, pos, victim, place)),) + moves
            kind = "drive-off" if drive_off and not elder_leader else "board"
            return Step(Movement(kind, me, (src, place)), 1, moves, prep_boat=prep)
    return Step(Movement("board", me, (src, place)), 1, ((me, src, place),), pending=True)


def _other_place_reachable(rules: Rules, pos: Pos, me: str, src: str, place: str) -> bool:
    """Drive Off condition (c): could another empty boat place be taken for the same MP?"""
    board = rules.topo.board
    isl = board.islanders[me]
    for n in rules.topo.water[src]:
        if n == place or rules.topo.kind[n] != "boat":
            continue
        c = board.cells[n]
        if len(pos.occ.get(n, ())) < c.capacity and (c.place == "stern" or c.islander_type == isl.type):
            return True
    return False


def _driven_off_to(rules: Rules, pos: Pos, victim: str, place: str) -> str:
    """Advanced Drive Off: the next best place in the same area, else the stern (even if full)."""
    board = rules.topo.board
    cell = board.cells[place]
    vtype = board.islanders[victim].type
    for other in board.boat_places(cell.boat):
        if other.id != place and other.area == cell.area and other.place == "productive" \
                and other.islander_type == vtype and len(pos.occ.get(other.id, ())) < other.capacity:
            return other.id
    return next(c.id for c in board.boat_places(cell.boat) if c.place == "stern")


def _water(rules: Rules, pos: Pos, me: str, cell: str) -> Iterator[Step]:
    """Steps in the water area (1 MP each), including beach->shore and boarding."""
    topo = rules.topo
    here_kind = topo.kind[cell]
    alone = len(pos.occ.get(cell, ())) == 1
    if pos.mp < 1:
        return
    for n in topo.water[cell]:
        nk = topo.kind[n]
        if topo.row[n] in rules.covered:
            continue
        if nk == "boat":
            if here_kind == "beach":
                continue
            step = _boat_entry(rules, pos, me, cell, n)
            if step is not None:
                yield step
            continue
        if nk == "beach":  # back from the shore onto the beach: a plain run to an empty hex
            if here_kind == "shore" and _free(rules, pos, n):
                yield Step(Movement("run", me, (cell, n)), 1, ((me, cell, n),))
            continue
        occupants = pos.occ.get(n, ())
        if not occupants:
            yield Step(Movement("run", me, (cell, n)), 1, ((me, cell, n),))
            continue
        # Pass the islander on n (we must move on), or pull it back to where we came from.
        yield Step(Movement("run", me, (cell, n)), 1, ((me, cell, n),), pending=True)
        if alone and len(occupants) == 1 and occupants[0] in topo.board.islanders:
            other = occupants[0]
            yield Step(Movement("pull", me, (cell, n)), 1, ((me, cell, n), (other, n, cell)))


def _endurance(rules: Rules, pos: Pos, me: str, cell: str) -> Iterator[Step]:
    """The free run of 1 field as the last movement of the turn (boarding included)."""
    topo = rules.topo
    free_pos = pos.with_mp(1)
    if topo.kind[cell] == "beach":
        for n in topo.hexdir[cell].values():
            if _free(rules, pos, n) and topo.kind[n] == "beach":
                yield Step(Movement("endurance", me, (cell, n)), 0, ((me, cell, n),))
    for step in _water(rules, free_pos, me, cell):
        if step.pending or step.movement.kind not in ("run", "board"):
            continue
        yield Step(Movement("endurance", me, step.movement.path), 0, step.relocations, prep_boat=step.prep_boat)


# Their names while only this module used them, for code written against those names
_cost, _obstacle_at = step_cost, obstacle_at
