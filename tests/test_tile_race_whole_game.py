"""Whole tile races played by hand at the simulated table: a two-player and a four-player race.

Every turn is made as hands make it, one token at a time through the simulated table's own route
(``POST /api/table/move``): the pawn is lifted, the tiles it carries and drops are put where they
end up, the pawn is put down, then the turn's tile (late in the four-player race, a mountain) is
taken from the supply and laid. In the two-player race the camera settles on the movement before
the tile is laid, so each is read on its own; the four players are quicker about it and lay the
tile before the camera settles, so each turn is read from one picture. The players answer when a
picture could mean several things. At each turn the LEDs show whose turn it is, each player's
mountains in hand and the tiles left in the supply, and at the end the winner over the whole
strip. The session's clock stands still, so a slow machine never turns a hand at work into a move
left part-way.
"""

from __future__ import annotations

import io
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_game
from companion.games.tile_race import rules
from companion.games.tile_race.actions import Action, Mountain, Move, Tile
from companion.games.tile_race.board import load
from companion.games.tile_race.grid import OUT, START, coords, entry, exits, pawns_of
from companion.games.tile_race.state import TileRaceState, mountain_allowance
from companion.games.tile_race.table import kind_of
from companion.app.run import Companion
from tests.tables import sim_config, wait_for

GAME = get_game("tile-race")
RGB = load().rgb
LONGEST = 6  # steps in a movement the players choose: a turn the camera reads quickly


def to_go(state: TileRaceState, pawn: str) -> int:
    """Squares between a pawn and its nearest exit (a pawn out: less than none)."""
    where = state.pawns[pawn]
    if state.exited(pawn) or where.startswith(OUT):
        return -5
    extra = where == START
    square = entry(pawn, len(state.players), state.size) if extra else where
    c, r = coords(square)
    return extra + min(abs(c - x) + abs(r - y) for x, y in map(coords, exits(pawn, len(state.players), state.size)))


def movements(state: TileRaceState) -> list[tuple[list[Action], TileRaceState]]:
    """Every whole movement open to the player (steps until the pawn stands alone), up to LONGEST steps."""
    found: list[tuple[list[Action], TileRaceState]] = []

    def go(here: TileRaceState, done: list[Action]) -> None:
        for step in (a for a in rules.legal_actions(here) if isinstance(a, Move)):
            after = rules.apply(here, step)
            if after.moving is None:
                found.append((done + [step], after))
            elif len(done) + 1 < LONGEST:
                go(after, done + [step])

    go(state, [])
    return found


def keen_turn(state: TileRaceState, hills: bool = False) -> tuple[list[Action], TileRaceState]:
    """A player who runs: the movement that brings their pawns nearest the exits, then a tile laid
    next to their pawn nearest its exit (their next movement collects it and carries it on). Late in
    the race (``hills``) a player with a mountain in hand puts it down instead, as far from every
    pawn on the grid as the rules allow: in nobody's way, and the LEDs count it."""
    colour = state.active
    options = movements(state) if rules.movement_possible(state) else []
    actions: list[Action] = []
    if options:
        actions, state = min(options, key=lambda o: (sum(to_go(o[1], p) for p in pawns_of(colour)), len(o[0]),
                                                     [str(a) for a in o[0]]))
    if rules.outcome(state) is None and not state.acted:
        legal = rules.legal_actions(state)
        tiles = [a for a in legal if isinstance(a, Tile)]
        lead = min((p for p in pawns_of(colour) if not state.exited(p) and state.pawns[p] != START),
                   key=lambda p: (to_go(state, p), p), default=None)

        def near(t: Tile) -> tuple[int, str]:
            if lead is None:
                return (0, t.square)
            (c, r), (x, y) = coords(t.square), coords(state.pawns[lead])
            return (abs(c - x) + abs(r - y), t.square)

        def far(m: Mountain) -> tuple[int, str]:
            (c, r), pawns = coords(m.square), [w for w in state.pawns.values() if w != START and OUT not in w]
            return (min((abs(c - x) + abs(r - y) for x, y in map(coords, pawns)), default=0), m.square)

        hills_left = [a for a in legal if isinstance(a, Mountain)] if hills else []
        action = max(hills_left, key=far) if hills_left else min(tiles, key=near) if tiles else legal[0]
        actions.append(action)
        state = rules.apply(state, action)
    return actions, state


class Hands:
    """The players at the simulated table of a running companion; the panel's routes for the rest."""

    def __init__(self, tmp_path: Path, players: int) -> None:
        from web_ui import create_app

        self.out = io.StringIO()
        # the camera keeps a piece it no longer sees for 1 s, not 3: these hands never rest over the
        # board, and what is read here is the game, not the camera's patience (tests/test_vision_*)
        self.companion = Companion(sim_config(tmp_path, **{"game.name": "tile-race", "detector.hold_seconds": 1.0}),
                                   out=self.out)
        self.companion.start(panel=False)
        self.session = self.companion.session
        self.session.clock = lambda: 0.0  # a hand at work is never a move left part-way, however slow
        self.client = create_app(self.companion).test_client()
        self.asked = self.tokens = 0
        names = [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")[:players]]
        assert self.post("/api/games", {"game": "tile-race", "players": names, "seed": 1}).status_code == 200
        self.table = self.post("/api/table/setup").get_json()["table"]  # the pawns on their start spaces
        assert wait_for(lambda: not self.session.status.verifying, 60), self.out.getvalue()

    def post(self, path: str, body: object = None) -> Any:
        return self.client.post(path, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})

    def move(self, piece: str, cell: str | None) -> None:
        """One token moved by one hand (off the table: ``None``)."""
        res = self.post("/api/table/move", {"piece": piece, "cell": cell})
        assert res.status_code == 200, res.get_json()
        self.table = res.get_json()["table"]
        self.tokens += 1

    def where(self, piece: str) -> str | None:
        return next((c for c, ps in self.table.items() if piece in ps), None)

    def make(self, before: TileRaceState, after: TileRaceState) -> None:
        """The table taken from ``before`` to ``after`` by hand: a pawn that moves is lifted first and put
        down last, look-alike pieces go from where there are too many to where there are too few (the
        supply beside the board, or off the table, when the rules take or give them)."""
        want = GAME.expected(after)
        pawn = next((p for p in after.pawns if want_cell(want, p) != self.where(p)), None)
        if pawn is not None:
            self.move(pawn, None)
        for kind in ("tile", "wall", *(f"mountain-{c}" for c in ("red", "blue", "yellow", "green"))):
            have = Counter({c: sum(kind_of(p) == kind for p in ps) for c, ps in self.table.items()})
            need = Counter({c: sum(kind_of(p) == kind for p in ps) for c, ps in want.items()})
            spare = [p for c, n in (have - need).items() for p in [q for q in self.table[c] if kind_of(q) == kind][:n]]
            off = (p for p in GAME.layout().pieces if kind_of(p) == kind and self.where(p) is None)
            for cell, n in (need - have).items():
                for _ in range(n):
                    piece = spare.pop() if spare else next(off)
                    self.move(piece, cell)
            for piece in spare:  # back to the box: the rules took it
                self.move(piece, None)
        if pawn is not None:
            self.move(pawn, want_cell(want, pawn))

    def turn(self, before: TileRaceState, actions: list[Action], whole: bool = False) -> TileRaceState:
        """The movement made by hand and read, then the action (``whole``: the action made before the
        camera settles, one picture for the turn); the companion must record them."""
        state = before
        movement = [a for a in actions if isinstance(a, Move)]
        parts = [actions] if whole else ([movement] if movement else []) + [[a] for a in actions if a not in movement]
        for part in parts:
            after = state
            for action in part:
                after = rules.apply(after, action)
            self.make(state, after)
            self.settle(state, after)
            state = self.session.state
        return state

    def settle(self, before: TileRaceState, after: TileRaceState) -> None:
        """Wait until the companion's game is ``after`` (the history aside); when the picture could be
        several plays, the players say which was theirs."""
        goal = counted(after)

        def there() -> bool:
            if self.session.status.decision:
                options = [c.actions for c in self.session.status.decision]
                same = [k for k, acts in enumerate(options) if counted(apply_all(before, acts)) == goal]
                assert same, (options, rules.text(after))
                self.session.decide(same[0])
                self.asked += 1
            return counted(self.session.state) == goal

        assert wait_for(there, 60), (rules.text(after), self.session.status.out_of_sync, self.out.getvalue()[-1500:])
        assert self.session.status.out_of_sync is None, self.session.status.out_of_sync

    def stop(self) -> None:
        self.companion.stop()


def want_cell(picture: dict[str, tuple[str, ...]], pawn: str) -> str | None:
    return next((c for c, ps in picture.items() if pawn in ps), None)


def lit(hands: Hands, role: str) -> Any:
    """The colour of the first LED of a role's segment (``*``: the whole strip), as the strip shows it now."""
    lights = hands.companion.hardware.scene.segments.get(role)
    return lights[0].colour if isinstance(lights, tuple) and lights else None


def on_strip(hands: Hands) -> tuple[list[Any], int]:
    """What the strip counts now: the colour of each LED of ``status`` (the players' mountains) and how
    many LEDs of ``counter`` are lit (the tiles in the supply)."""
    status, counter = (hands.companion.hardware.scene.segments.get(role, ()) for role in ("status", "counter"))
    assert isinstance(status, tuple) and isinstance(counter, tuple), (status, counter)  # lights, not a count
    return [light.colour for light in status], len(counter)


def to_count(state: TileRaceState) -> tuple[list[Any], int]:
    """What the strip should count: each player's mountains in seat order in their colour, bright while
    in hand and at a fifth once placed; an LED for every 5 tiles left in the supply, or part of 5 (walls
    are tiles from that supply: nobody has walls of their own to count)."""
    allowance = mountain_allowance(len(state.players))
    hills = [RGB[c] if i < left else tuple(v // 5 for v in RGB[c])
             for c, left in zip(state.players, state.mountains_left, strict=True) for i in range(allowance)]
    return hills, -(-state.supply // 5)


def counted(state: TileRaceState) -> dict[str, Any]:
    return {**GAME.to_json(state), "history": []}


def apply_all(state: TileRaceState, actions: tuple[str, ...]) -> TileRaceState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


# Both races in the suite (FOG_TILE_RACE_PLAYERS=3 plays a three-player one the four-player way); the
# four-player race has a third more turns, each read from one picture instead of two, so it costs
# about as much as the two-player one.
PLAYERS = [int(n) for n in os.environ.get("FOG_TILE_RACE_PLAYERS", "2,4").split(",")]
LATE = 5  # from the fifth round on, a player of three or four puts a mountain down instead of a tile


@pytest.mark.parametrize("players", PLAYERS)
def test_a_whole_tile_race_played_by_hand_one_token_at_a_time(tmp_path: Path, players: int,
                                                               figures: Any) -> None:
    hands = Hands(tmp_path, players)
    engine = hands.session.state
    turns = 0
    try:
        while rules.outcome(engine) is None:
            # the LEDs say whose turn it is, in that player's colour, each player's mountains in hand
            # and the tiles left in the supply
            assert wait_for(lambda: lit(hands, "turn") == RGB[engine.active] and on_strip(hands) == to_count(engine),
                            10), (engine.active, lit(hands, "turn"), on_strip(hands), to_count(engine))
            actions, expected = keen_turn(engine, hills=players > 2 and turns >= LATE * players)
            engine = hands.turn(engine, actions, whole=players > 2)
            assert counted(engine) == counted(expected)
            turns += 1
        won = rules.winner(engine)
        assert won is not None and hands.session.state.history == engine.history
        hills = sum(mountain_allowance(players) - left for left in engine.mountains_left)
        assert players == 2 or hills > 0  # the strip has shown a mountain placed, at a fifth
        score = hands.client.get("/api/score").get_json()
        assert score["winners"] == [won], score
        # the winner's colour over the whole strip
        assert wait_for(lambda: lit(hands, "*") == RGB[won], 10), hands.companion.hardware.scene
        assert set(hands.companion.hardware.scene.labels.values()) == {"the winner"}
    finally:
        hands.stop()
    figures(f"tile race by hand, {players} players: {turns} turns, {len(engine.history)} actions, "
            f"{hands.tokens} tokens moved one at a time, {hills} mountains placed, {hands.asked} readings the "
            f"players chose; {won} won")
