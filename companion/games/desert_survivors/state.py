"""A moment of desert survivors as one immutable value, and its saved (JSON) form read back with care.

The state knows every face: which disc and which counter lies face down on each space (the camera
reads a marker on each face), the order of the mixed X-counters, the markers in every fist. That
is the referee's knowledge; ``view.py`` gives each seat only what it may see.

Pieces: ``board`` maps each occupied space to its piece; ``face_up`` holds the pieces showing their
face. A character's food lies on its card (``food``, living characters only); food a player could
not place waits in their ``spare`` stack. Fight markers are counted per seat and in the common
``pool``; ``spent`` counts those used in fights since they were last shared out.

Pure: standard library only, no I/O.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.errors import AnswerError, NotationError, StateFormatError
from companion.games.desert_survivors.actions import parse_action
from companion.games.desert_survivors.board import (Arrangement, arrangement_text, build, check_arrangement,
                                                    default_arrangement, parse_arrangement)
from companion.games.desert_survivors.pieces import (COLOURS, FOOD_EACH, MARKERS_EACH, MARKERS_IN_BOX, ROUNDS,
                                                     TREASURE_STACK, TREASURES_ASIDE, characters_of, colour_of,
                                                     discs_of, groups_for, is_disc, is_x, size, x_ids,
                                                     x_kind)

PHASES = ("setup", "move", "eat", "over")


@dataclass(frozen=True)
class Fight:
    """A fight under way: the attacking and attacked spaces and each side's markers once committed
    (attacker first; None: that fist is not closed yet)."""

    attacker: str
    defender: str
    commits: tuple[int | None, int | None] = (None, None)

    def to_json(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "defender": self.defender, "commits": list(self.commits)}


@dataclass(frozen=True)
class FightResult:
    """A fight decided, as everyone at the table saw it when the fists opened."""

    attacker: str   # the character, by disc
    defender: str
    markers: tuple[int, int]
    winner: str

    def to_json(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "defender": self.defender, "markers": list(self.markers),
                "winner": self.winner}


@dataclass(frozen=True)
class DesertState:
    seats: tuple[str, ...]          # seat -> its name: its (first) colour
    groups: tuple[str, ...]         # colours in play; group k belongs to seat k % len(seats)
    arrangement: Arrangement
    board: Mapping[str, str]        # space -> piece
    face_up: frozenset[str]
    food: Mapping[str, int]         # living character -> food counters on its card
    spare: tuple[int, ...]
    markers: tuple[int, ...]
    pool: int
    mix: tuple[str, ...]            # X-counters beside the board, in the order they will be drawn
    stacks: tuple[tuple[str, ...], ...]  # the treasure stacks set aside
    vp: tuple[int, ...]
    dead: frozenset[str] = frozenset()
    spent: int = 0
    round: int = 1
    phase: str = "setup"
    turn: int = 0
    start: int = 0
    road: bool = False              # the active player found a road and may act again
    fight: Fight | None = None
    last_fight: FightResult | None = None
    history: tuple[str, ...] = ()
    seed: int = 0
    memory_aid: bool = False        # a seat's view shows its own face-down discs
    names: tuple[str, ...] = ()
    # the spaces the last deal laid X-counters on, until the round's first move: the hands lay there
    # whichever face-down counters they draw, and the companion takes each as the one laid (``lay``)
    dealt: tuple[str, ...] = ()
    fights: tuple[FightResult, ...] = ()  # every fight decided, in order: the log says each show's result

    @property
    def active(self) -> str:
        return self.seats[self.turn]

    def seat_of(self, piece: str) -> int:
        """The seat owning a disc."""
        return self.groups.index(colour_of(piece)) % len(self.seats)

    def colours_of(self, seat: int) -> tuple[str, ...]:
        return tuple(g for k, g in enumerate(self.groups) if k % len(self.seats) == seat)

    def where(self) -> dict[str, str]:
        """Piece -> its space, for every piece on the board."""
        return {p: s for s, p in self.board.items()}

    def alive(self, seat: int) -> tuple[str, ...]:
        """A seat's living characters (monkeys have no card and never die)."""
        return tuple(c for g in self.colours_of(seat) for c in characters_of(g) if c not in self.dead)

    def hungry(self, character: str) -> bool:
        """Less food on its card than its starvation (its size)."""
        return character in self.food and self.food[character] < size(character)

    def hungry_seat(self, seat: int) -> bool:
        return any(self.hungry(c) for c in self.alive(seat))

    def total_food(self, seat: int) -> int:
        return self.spare[seat] + sum(self.food[c] for c in self.alive(seat))

    def name_of(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else self.seats[seat]


MAX_NAME = 40


def new_game(players: int, seed: int = 0, arrangement: str | Arrangement | None = None, memory_aid: bool = False,
             names: tuple[str, ...] = ()) -> DesertState:
    """The table before the first disc is placed: boards laid, cards out, 5 food and 7 markers per
    group in each player's hand, 9 treasures set aside in 3 stacks, the other X-counters mixed."""
    try:
        groups = groups_for(players)
    except ValueError as exc:
        raise AnswerError(str(exc)) from None
    laid = parse_arrangement(arrangement) if isinstance(arrangement, str) else \
        arrangement if arrangement is not None else default_arrangement(len(groups))
    check_arrangement(laid, len(groups))
    if names and (len(names) != players or not all(0 < len(n) <= MAX_NAME for n in names)):
        raise AnswerError(f"names: one of 1 to {MAX_NAME} characters for each of the {players} players")
    xs = x_ids(len(groups))
    treasures = [x for x in xs if x_kind(x) == "treasure"][:TREASURES_ASIDE]
    mix = [x for x in xs if x not in treasures]
    random.Random(seed).shuffle(mix)
    per = len(groups) // players
    return DesertState(COLOURS[:players], groups, laid, MappingProxyType({}), frozenset(),
                       MappingProxyType({c: 0 for g in groups for c in characters_of(g)}), (FOOD_EACH * per,) * players,
                       (MARKERS_EACH * per,) * players, MARKERS_IN_BOX - MARKERS_EACH * len(groups), tuple(mix),
                       tuple(tuple(treasures[i:i + TREASURE_STACK]) for i in range(0, TREASURES_ASIDE, TREASURE_STACK)),
                       (0,) * players, seed=seed, memory_aid=memory_aid, names=tuple(names))


def to_json(state: DesertState) -> dict[str, Any]:
    return {"game": "desert-survivors", "players": len(state.seats), "arrangement": arrangement_text(state.arrangement),
            "board": dict(state.board), "face_up": sorted(state.face_up), "food": dict(state.food),
            "dead": sorted(state.dead), "spare": list(state.spare), "markers": list(state.markers), "pool": state.pool,
            "spent": state.spent, "mix": list(state.mix), "stacks": [list(s) for s in state.stacks],
            "vp": list(state.vp), "round": state.round, "phase": state.phase, "turn": state.turn,
            "start": state.start, "road": state.road, "fight": state.fight.to_json() if state.fight else None,
            "last_fight": state.last_fight.to_json() if state.last_fight else None, "history": list(state.history),
            "seed": state.seed, "memory_aid": state.memory_aid, "names": list(state.names),
            "dealt": list(state.dealt), "fights": [f.to_json() for f in state.fights]}


# ------------------------------------------------------------------------------------------ reading back
def _fail(what: str) -> StateFormatError:
    return StateFormatError(f"desert survivors state: {what}"[:300])


def _int(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{key!r} must be a whole number from {low} to {high}, not {str(value)[:40]}")
    return value


def _ints(data: Mapping[str, Any], key: str, count: int, high: int) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != count or \
            not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= high for v in value):
        raise _fail(f"{key!r} must be {count} whole numbers from 0 to {high}, one per seat")
    return tuple(value)


def _strings(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(f"{key!r} must be a list of names")
    return value


def from_json(data: Any) -> DesertState:
    """A saved state, checked field by field; a state no play can reach is refused with a
    StateFormatError naming the field, so a damaged file never starts a wrong game."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise _fail(f"not JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise _fail("the file must hold an object")
    players = _int(data, "players", 2, 6)
    groups = groups_for(players)
    try:
        laid = parse_arrangement(str(data.get("arrangement", "")))
        check_arrangement(laid, len(groups))
    except (AnswerError, ValueError) as exc:
        raise _fail(f"'arrangement': {exc}") from None
    desert = build(laid)
    xs, discs = set(x_ids(len(groups))), {d for g in groups for d in discs_of(g)}
    raw = data.get("board")
    if not isinstance(raw, Mapping):
        raise _fail("'board' must map spaces to pieces")
    for where, piece in raw.items():
        if where not in desert.kinds:
            raise _fail(f"'board' names {str(where)[:20]!r}, which is not a sand or oasis space of this desert")
        if not isinstance(piece, str) or piece not in xs | discs:
            raise _fail(f"'board' puts {str(piece)[:20]!r} on {where}: not a disc or X-counter of this game")
    if len(set(raw.values())) != len(raw):
        raise _fail("'board' has a piece on two spaces")
    dead = set(_strings(data, "dead"))
    if not dead <= {c for g in groups for c in characters_of(g)} or dead & set(raw.values()):
        raise _fail("'dead' must name characters of this game that are off the board (a monkey never dies)")
    face_up = set(_strings(data, "face_up"))
    if not face_up <= set(raw.values()):
        raise _fail("'face_up' names a piece that is not on the board")
    food = data.get("food")
    if not isinstance(food, Mapping) or set(food) != {c for g in groups for c in characters_of(g)} - dead:
        raise _fail("'food' must give the food on the card of every living character, and no other")
    for c, n in food.items():
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= size(c):
            raise _fail(f"'food' gives {c} {str(n)[:10]}: a card holds 0 up to its starvation ({size(c)})")
    phase = data.get("phase")
    if phase not in PHASES:
        raise _fail(f"'phase' must be one of {', '.join(PHASES)}")
    off = discs - set(raw.values()) - dead
    if off and phase != "setup":
        raise _fail(f"{sorted(off)[0]} is neither on the board nor dead after the setup")
    mix, stacks = _strings(data, "mix"), data.get("stacks")
    if not isinstance(stacks, list) or not all(isinstance(s, list) and len(s) == TREASURE_STACK and
                                                all(isinstance(x, str) and is_x(x) and x_kind(x) == "treasure"
                                                    for x in s) for s in stacks):
        raise _fail("'stacks' must be lists of 3 treasure X-counters each")
    beside = mix + [x for s in stacks for x in s]
    if not set(beside) <= xs or len(set(beside)) != len(beside) or set(beside) & set(raw.values()):
        raise _fail("'mix' and 'stacks' must hold X-counters of this game, each once, none on the board")
    spare, markers = _ints(data, "spare", players, 999), _ints(data, "markers", players, MARKERS_IN_BOX)
    pool, spent = _int(data, "pool", 0, MARKERS_IN_BOX), _int(data, "spent", 0, MARKERS_IN_BOX)
    if sum(markers) + pool != MARKERS_IN_BOX:
        raise _fail(f"the fight markers add up to {sum(markers) + pool} (held {sum(markers)}, pool {pool}), "
                    f"not the box's {MARKERS_IN_BOX}")
    turn, start = _int(data, "turn", 0, players - 1), _int(data, "start", 0, players - 1)
    fight = _fight(data.get("fight"), raw, players)
    last = data.get("last_fight")
    result = None if last is None else _result(last, "last_fight")
    fought = data.get("fights", [])
    if not isinstance(fought, list):
        raise _fail("'fights' must list the fights decided")
    fights = tuple(_result(f, "fights") for f in fought)
    if fight is not None:
        sides = _sides(fight, raw, groups, players)
        if phase != "eat" or sides[0] == sides[1] or \
                any(c is not None and c > markers[k] for c, k in zip(fight.commits, sides, strict=True)):
            raise _fail("'fight': a fight is only fought in the eating phase, between two players, each committing "
                        "no more markers than they hold")
    history = _strings(data, "history")
    for text in history:
        try:
            parse_action(text)
        except NotationError:
            raise _fail(f"'history' holds {text[:40]!r}, which is not an action") from None
    names = tuple(_strings(data, "names"))
    if len(names) not in (0, players) or not all(0 < len(n) <= MAX_NAME for n in names):
        raise _fail(f"'names' must be a name of 1 to {MAX_NAME} characters for each of the {players} seats, or empty")
    seed, aid, road = data.get("seed", 0), data.get("memory_aid", False), data.get("road", False)
    if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(aid, bool) or not isinstance(road, bool):
        raise _fail("'seed' must be a whole number, 'memory_aid' and 'road' true or false")
    dealt = _strings(data, "dealt")
    if not set(dealt) <= set(desert.kinds) or len(set(dealt)) != len(dealt) or (dealt and phase != "move"):
        raise _fail("'dealt' must name spaces of this desert, each once, and only in the movement phase")
    for p in face_up:
        if is_disc(p) and phase == "setup":
            raise _fail(f"{p} lies face up during the setup: discs are placed face down")
    return DesertState(COLOURS[:players], groups, laid, MappingProxyType(dict(raw)), frozenset(face_up),
                       MappingProxyType(dict(food)), spare, markers, pool, tuple(mix),
                       tuple(tuple(s) for s in stacks), _ints(data, "vp", players, 999), frozenset(dead), spent,
                       _int(data, "round", 1, ROUNDS), phase, turn, start, road, fight, result,
                       tuple(history), seed, aid, names, tuple(dealt), fights)


def _result(raw: Any, key: str) -> FightResult:
    """A fight decided, as saved: the attacker, the defender, the winner (discs) and both sides' markers."""
    if not (isinstance(raw, Mapping) and all(isinstance(raw.get(k), str) and is_disc(raw[k])
                                             for k in ("attacker", "defender", "winner"))
            and isinstance(raw.get("markers"), list) and len(raw["markers"]) == 2
            and all(isinstance(m, int) and not isinstance(m, bool) for m in raw["markers"])):
        raise _fail(f"'{key}' must name the attacker, the defender, the winner and both sides' markers")
    return FightResult(raw["attacker"], raw["defender"], (int(raw["markers"][0]), int(raw["markers"][1])),
                       raw["winner"])


def _sides(fight: Fight, board: Mapping[str, str], groups: tuple[str, ...], players: int) -> tuple[int, int]:
    """The attacking and the attacked seat."""
    return (groups.index(colour_of(board[fight.attacker])) % players,
            groups.index(colour_of(board[fight.defender])) % players)


def _fight(raw: Any, board: Mapping[str, str], players: int) -> Fight | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not all(isinstance(raw.get(k), str) for k in ("attacker", "defender")):
        raise _fail("'fight' must name the attacker's and the defender's spaces")
    for key in ("attacker", "defender"):
        if not is_disc(board.get(raw[key], "")):
            raise _fail(f"'fight': no character on the {key}'s space {raw[key][:10]}")
    commits = raw.get("commits", [None, None])
    if not isinstance(commits, list) or len(commits) != 2 or \
            not all(c is None or (isinstance(c, int) and not isinstance(c, bool) and c >= 0) for c in commits):
        raise _fail("'fight' commits must be two counts of markers, or null for a fist not yet closed")
    return Fight(raw["attacker"], raw["defender"], (commits[0], commits[1]))
