"""The game state of The FOG: one immutable value with a JSON form that round-trips.

A state holds the placement of every piece, who owns which islander, the FOG marker, the turn
marker, movement points, preparation bonuses and an explicit history of actions. Because the
setup placement is kept too, the state can always be rebuilt from scratch by replaying its
history (:func:`companion.games.fog.game.replay`), which makes undo trivial and lets a loaded
state be checked for tampering. The format is documented in ``docs/state-format.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from companion.errors import StateFormatError
from companion.games.fog.board import Board
from companion.games.fog.options import Options

FORMAT_VERSION = 1
PHASES = ("draft", "moving", "finished")
MODES = ("multi", "solo")

Placement = Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Player:
    """A person at the table and the colour(s) they play (two colours each in a 2-player game)."""

    name: str
    colours: tuple[str, ...]


@dataclass(frozen=True)
class GameState:
    """Everything needed to continue, score or undo a game. Never mutate: use ``replace``."""

    board: str
    mode: str
    players: tuple[Player, ...]
    turn_order: tuple[str, ...]
    options: Options
    seed: int
    area_values: Mapping[str, int]
    setup: Placement
    placement: Placement
    phase: str
    fog: int
    mp_left: int
    prep_stacks: Mapping[str, tuple[int, ...]]
    scenario: str | None = None
    nation_mp: Mapping[str, int] = field(default_factory=dict)
    leaders: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    owners: Mapping[str, str] = field(default_factory=dict)
    lost: Mapping[str, str] = field(default_factory=dict)
    round: int = 1
    turn_index: int = 0
    moved: tuple[str, ...] = ()
    endurance_used: bool = False
    prepared: tuple[str, ...] = ()
    prep_taken: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    history: tuple[str, ...] = ()
    end_reason: str | None = None

    # ------------------------------------------------------------------ derived views
    @cached_property
    def board_data(self) -> Board:
        return Board.load_named(self.board)

    @cached_property
    def where(self) -> dict[str, str]:
        """piece id -> cell id, for every piece on the board."""
        return {p: c for c, pieces in self.placement.items() for p in pieces}

    def pieces_at(self, cell: str) -> tuple[str, ...]:
        return self.placement.get(cell, ())

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def setup_key(self) -> str:
        """Key used for per-player-count board data ("2", "3", "4" or "solo")."""
        return "solo" if self.mode == "solo" else str(len(self.players))

    @property
    def round_order(self) -> tuple[str, ...]:
        """Colours in playing order for the current round: the turn marker snakes down, then up."""
        return self.turn_order if self.round % 2 == 1 else tuple(reversed(self.turn_order))

    @property
    def active_colour(self) -> str | None:
        """The colour whose turn it is (a nation in solo), the drafting colour in the draft."""
        if self.phase == "finished":
            return None
        if self.phase == "draft":
            order = tuple(reversed(self.turn_order))  # the draft goes bottom to top
            return order[len(self.owners) % len(order)]
        return self.round_order[self.turn_index]

    @property
    def next_colour(self) -> str | None:
        """Who plays after the active colour (for the LEDs' dim "next" light)."""
        if self.phase != "moving":
            return self.active_colour
        order = self.round_order
        if self.turn_index + 1 < len(order):
            return order[self.turn_index + 1]
        return order[-1]  # double turn: the last player of a round starts the next

    def player_of(self, colour: str) -> Player | None:
        for p in self.players:
            if colour in p.colours:
                return p
        return None

    def islanders_of(self, colour: str) -> tuple[str, ...]:
        """Islanders played by a colour (in solo the colours are the nations)."""
        if self.mode == "solo":
            return tuple(i for i, isl in self.board_data.islanders.items()
                         if isl.nation == colour and i not in self.removed)
        return tuple(i for i, c in self.owners.items() if c == colour)

    def mp_for(self, colour: str) -> int:
        if self.mode == "solo":
            return self.nation_mp[colour]
        return self.board_data.mp_per_turn

    def initial(self) -> GameState:
        """The state right after setup, before any action of the history."""
        b = self.board_data
        solo = self.mode == "solo"
        first = self.turn_order[0]
        return replace(
            self,
            placement=dict(self.setup),
            phase="moving" if solo else "draft",
            fog=self._start_fog(b),
            mp_left=self.nation_mp[first] if solo else b.mp_per_turn,
            prep_stacks={} if solo else dict(b.preparation_bonus),
            owners={},
            lost={},
            round=1,
            turn_index=0,
            moved=(),
            endurance_used=False,
            prepared=(),
            prep_taken={},
            history=(),
            end_reason=None,
        )

    def _start_fog(self, b: Board) -> int:
        if self.mode == "solo":
            from companion.games.fog.scenario import load_scenario

            return load_scenario(self.scenario or "").fog_start_index(b, self.options.advanced_fog)
        return b.fog_start_index(self.setup_key)

    # ------------------------------------------------------------------ text form
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": "fog",
            "board": self.board,
            "mode": self.mode,
            "players": [{"name": p.name, "colours": list(p.colours)} for p in self.players],
            "turn_order": list(self.turn_order),
            "options": str(self.options),
            "seed": self.seed,
            "scenario": self.scenario,
            "nation_mp": dict(sorted(self.nation_mp.items())),
            "leaders": list(self.leaders),
            "removed": list(self.removed),
            "area_values": dict(sorted(self.area_values.items())),
            "setup": {c: list(p) for c, p in sorted(self.setup.items())},
            "placement": {c: list(p) for c, p in sorted(self.placement.items())},
            "owners": dict(sorted(self.owners.items())),
            "lost": dict(sorted(self.lost.items())),
            "phase": self.phase,
            "fog": self.fog,
            "round": self.round,
            "turn_index": self.turn_index,
            "mp_left": self.mp_left,
            "moved": list(self.moved),
            "endurance_used": self.endurance_used,
            "prepared": list(self.prepared),
            "prep_stacks": {b: list(v) for b, v in sorted(self.prep_stacks.items())},
            "prep_taken": {c: list(v) for c, v in sorted(self.prep_taken.items())},
            "history": list(self.history),
            "end_reason": self.end_reason,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise StateFormatError(f"not a JSON game state: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameState:
        return _StateParser(data).parse()

    def __repr__(self) -> str:
        return (f"<GameState {self.mode} {self.setup_key} phase={self.phase} round={self.round} "
                f"active={self.active_colour} mp={self.mp_left} fog={self.fog} actions={len(self.history)}>")


class _StateParser:
    """Validates a decoded JSON state key by key, so a corrupt save names what is wrong."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise StateFormatError("a game state must be a JSON object")
        self.d = data

    def need(self, key: str, kind: type | tuple[type, ...]) -> Any:
        if key not in self.d:
            raise StateFormatError(f"game state: missing key {key!r}")
        value = self.d[key]
        if isinstance(value, bool) and kind is int or not isinstance(value, kind):
            raise StateFormatError(f"game state: {key!r} has the wrong type ({type(value).__name__})")
        return value

    def str_list(self, key: str, default: list[str] | None = None) -> tuple[str, ...]:
        value = self.d.get(key, default) if default is not None else self.need(key, list)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise StateFormatError(f"game state: {key!r} must be a list of strings")
        return tuple(value)

    def flag(self, key: str) -> bool:
        value = self.d.get(key, False)
        if not isinstance(value, bool):
            raise StateFormatError(f"game state: {key!r} must be true or false")
        return value

    def str_map(self, key: str) -> dict[str, str]:
        value = self.d.get(key, {})
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise StateFormatError(f"game state: {key!r} must map strings to strings")
        return dict(value)

    def int_map(self, key: str) -> dict[str, int]:
        value = self.d.get(key, {})
        if not isinstance(value, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                  for v in value.values()):
            raise StateFormatError(f"game state: {key!r} must map strings to integers")
        return dict(value)

    def list_map(self, key: str, item: type) -> dict[str, tuple[Any, ...]]:
        value = self.d.get(key, {})
        if not isinstance(value, dict):
            raise StateFormatError(f"game state: {key!r} must be an object")
        out: dict[str, tuple[Any, ...]] = {}
        for k, v in value.items():
            if not isinstance(v, list) or not all(isinstance(x, item) and not isinstance(x, bool) for x in v):
                raise StateFormatError(f"game state: {key}[{k!r}] must be a list of {item.__name__}")
            if v:
                out[k] = tuple(v)
        return out

    def parse(self) -> GameState:
        from companion.errors import BoardFileError, OptionsError

        if self.d.get("format") != FORMAT_VERSION:
            raise StateFormatError(f"game state: unsupported format {self.d.get('format')!r} (expected {FORMAT_VERSION})")
        if self.d.get("game", "fog") != "fog":
            raise StateFormatError(f"game state: this is a {self.d.get('game')!r} game, not The FOG")
        players_raw = self.need("players", list)
        players = []
        for i, p in enumerate(players_raw):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not isinstance(p.get("colours"), list):
                raise StateFormatError(f"game state: players[{i}] needs a name and a list of colours")
            players.append(Player(p["name"], tuple(str(c) for c in p["colours"])))
        try:
            options = Options.parse(self.need("options", str))
        except OptionsError as exc:
            raise StateFormatError(f"game state: options: {exc}") from exc
        mode = self.need("mode", str)
        phase = self.need("phase", str)
        if mode not in MODES:
            raise StateFormatError(f"game state: mode {mode!r} is not one of {', '.join(MODES)}")
        if phase not in PHASES:
            raise StateFormatError(f"game state: phase {phase!r} is not one of {', '.join(PHASES)}")
        scenario = self.d.get("scenario")
        end_reason = self.d.get("end_reason")
        if scenario is not None and not isinstance(scenario, str):
            raise StateFormatError("game state: 'scenario' must be a string or null")
        if end_reason is not None and not isinstance(end_reason, str):
            raise StateFormatError("game state: 'end_reason' must be a string or null")
        state = GameState(
            board=self.need("board", str),
            mode=mode,
            players=tuple(players),
            turn_order=self.str_list("turn_order"),
            options=options,
            seed=self.need("seed", int),
            scenario=scenario,
            nation_mp=self.int_map("nation_mp"),
            leaders=self.str_list("leaders", []),
            removed=self.str_list("removed", []),
            area_values=self.int_map("area_values"),
            setup=self.list_map("setup", str),
            placement=self.list_map("placement", str),
            owners=self.str_map("owners"),
            lost=self.str_map("lost"),
            phase=phase,
            fog=self.need("fog", int),
            round=self.need("round", int),
            turn_index=self.need("turn_index", int),
            mp_left=self.need("mp_left", int),
            moved=self.str_list("moved", []),
            endurance_used=self.flag("endurance_used"),
            prepared=self.str_list("prepared", []),
            prep_stacks=self.list_map("prep_stacks", int),
            prep_taken=self.list_map("prep_taken", int),
            history=self.str_list("history", []),
            end_reason=end_reason,
        )
        try:
            board = state.board_data
        except BoardFileError as exc:
            raise StateFormatError(f"game state: board: {exc}") from exc
        _check_against_board(state, board)
        return state


END_REASONS = ("fog-reached-shore", "nobody-can-move")


def _check_against_board(state: GameState, board: Board) -> None:
    """Reject states that cannot exist on this board: unknown pieces, cells and colours, a piece in
    two places, fields holding more than they can, counters off their track (the message names
    the key and what is wrong)."""
    if not state.turn_order:
        raise StateFormatError("game state: turn_order is empty")
    _check_seats(state, board)
    pieces = set(board.islanders) | set(board.obstacles)
    for key in ("setup", "placement"):
        seen: dict[str, str] = {}
        for cell, ps in getattr(state, key).items():
            if cell not in board.cells:
                raise StateFormatError(f"game state: {key} names unknown cell {cell!r}")
            for p in ps:
                if p not in pieces:
                    raise StateFormatError(f"game state: {key}[{cell}] names unknown piece {p!r}")
                if p in seen:
                    where = f"on {seen[p]} and {cell}" if seen[p] != cell else f"twice on {cell}"
                    raise StateFormatError(f"game state: {key}: piece {p!r} stands {where}")
                seen[p] = cell
        try:
            check_placement(board, getattr(state, key))
        except ValueError as exc:
            raise StateFormatError(f"game state: {key}: {exc}") from None
    for isl in list(state.owners) + list(state.lost) + list(state.leaders) + list(state.removed) + \
            list(state.moved) + list(state.prepared):
        if isl not in board.islanders:
            raise StateFormatError(f"game state: unknown islander {isl!r}")
    for isl, colour in state.owners.items():
        if colour not in state.turn_order:
            raise StateFormatError(f"game state: owners: {isl} belongs to {colour!r}, which is not playing")
    for isl, row in state.lost.items():
        if row not in board.rows:
            raise StateFormatError(f"game state: lost: {isl} was lost in row {row!r}, which the board does not have")
        if isl in state.where:
            raise StateFormatError(f"game state: {isl} was taken by the FOG (lost) and stands on {state.where[isl]}")
    for isl in state.removed:
        if isl in state.where:
            raise StateFormatError(f"game state: {isl} is not in this game (removed) but stands on {state.where[isl]}")
    _check_counters(state, board)


def check_placement(board: Board, placement: Placement) -> None:
    """Fields holding what no table can: more pieces than a field holds, anything in the woods.
    ValueError naming the field (used for saved states and for corrections alike)."""
    for cell, ps in placement.items():
        c = board.cells[cell]
        if c.kind == "woods" and ps:
            raise ValueError(f"{' and '.join(ps)} in the woods: nothing stands in the woods")
        if c.kind != "boat" and len(ps) > c.capacity:
            raise ValueError(f"{' and '.join(ps)} on {cell}, which holds {c.capacity}")


def _check_seats(state: GameState, board: Board) -> None:
    """Players and colours as a table can seat them: each colour once, every colour playing."""
    solo = state.mode == "solo"
    if solo and len(state.players) != 1 or not solo and not 2 <= len(state.players) <= 4:
        raise StateFormatError(f"game state: {len(state.players)} players in a {state.mode} game "
                               f"({'1' if solo else '2 to 4'})")
    known = board.boat_order if solo else board.player_colours
    colours = [c for p in state.players for c in p.colours]
    for colour in colours:
        if colour not in known:
            raise StateFormatError(f"game state: players: unknown colour {colour!r} (known: {', '.join(known)})")
        if colours.count(colour) > 1:
            raise StateFormatError(f"game state: players: colour {colour!r} is played twice")
    if any(not p.name.strip() or not p.colours for p in state.players):
        raise StateFormatError("game state: players: every player has a name and a colour")
    if len(set(state.turn_order)) != len(state.turn_order) or set(state.turn_order) != set(colours):
        raise StateFormatError(f"game state: turn_order {list(state.turn_order)} must list each colour played "
                               f"({', '.join(colours)}) once")


def _check_counters(state: GameState, board: Board) -> None:
    """Counters and tracks within their range."""
    if not 0 <= state.fog < len(board.fog_fields):
        raise StateFormatError(f"game state: fog {state.fog} is off the FOG track (0..{len(board.fog_fields) - 1})")
    if not 0 <= state.turn_index < len(state.turn_order):
        raise StateFormatError(f"game state: turn_index {state.turn_index} is off the turn board")
    if state.round < 1 or state.mp_left < 0:
        raise StateFormatError("game state: round must be >= 1 and mp_left >= 0")
    if state.seed < 0:
        raise StateFormatError(f"game state: seed {state.seed} must be 0 or more")
    if state.mode == "solo" and set(state.nation_mp) != set(state.turn_order):
        raise StateFormatError("game state: a solo game needs nation_mp for every nation on the turn board")
    for nation, mp in state.nation_mp.items():
        if nation not in board.boat_order or mp < 0:
            raise StateFormatError(f"game state: nation_mp[{nation!r}] = {mp}: a nation of the board, 0 MP or more")
    areas = {c.area for c in board.cells.values() if c.area}
    for area, value in state.area_values.items():
        if area not in areas or value < 0:
            raise StateFormatError(f"game state: area_values[{area!r}] = {value}: a boat area of the board, 0 or more")
    for boat, stack in state.prep_stacks.items():
        if boat not in board.boat_order or any(v <= 0 for v in stack):
            raise StateFormatError(f"game state: prep_stacks[{boat!r}]: a boat of the board, bonuses above 0")
    for colour, taken in state.prep_taken.items():
        if colour not in state.turn_order or any(v <= 0 for v in taken):
            raise StateFormatError(f"game state: prep_taken[{colour!r}]: a colour playing, bonuses above 0")
    if state.end_reason is not None and state.end_reason not in END_REASONS:
        raise StateFormatError(f"game state: end_reason {state.end_reason!r} is not one of {', '.join(END_REASONS)}")
