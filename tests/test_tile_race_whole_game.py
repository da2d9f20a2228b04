"""Whole tile races played by hand at the simulated table (two players; four with an environment
variable, see PLAYERS).

Every turn is made as hands make it, one token at a time through the simulated table's own route
(``POST /api/table/move``): the pawn is lifted, the tiles it carries and drops are put where they
end up, the pawn is put down, then the turn's tile is taken from the supply and laid. The camera
and the session read each turn from those pictures; the players answer when a picture could mean
several things. At each turn the LEDs show whose turn it is, and at the end the winner over the
whole strip. The session's clock stands still, so a slow machine never turns a hand at work into
a move left part-way.
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
from companion.games.tile_race.actions import Action, Move, Tile
from companion.games.tile_race.board import load
from companion.games.tile_race.grid import OUT, START, coords, entry, exits, pawns_of
from companion.games.tile_race.state import TileRaceState
from companion.games.tile_race.table import kind_of
from companion.run import Companion
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


def keen_turn(state: TileRaceState) -> tuple[list[Action], TileRaceState]:
    """A player who runs: the movement that brings their pawns nearest the exits, then a tile laid
    next to their pawn nearest its exit (their next movement collects it and carries it on)."""
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

        action = min(tiles, key=near) if tiles else legal[0]
        actions.append(action)
        state = rules.apply(state, action)
    return actions, state


class Hands:
    """The players at the simulated table of a running companion; the panel's routes for the rest."""

    def __init__(self, tmp_path: Path, players: int) -> None:
        from web_ui import create_app

        self.out = io.StringIO()
        self.companion = Companion(sim_config(tmp_path, **{"game.name": "tile-race"}), out=self.out)
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
        for kind in ("tile", "wall", "mountain"):
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

    def turn(self, before: TileRaceState, actions: list[Action]) -> TileRaceState:
        """The movement made by hand and read, then the action; the companion must record them."""
        state = before
        movement = [a for a in actions if isinstance(a, Move)]
        for part in ([movement] if movement else []) + [[a] for a in actions if not isinstance(a, Move)]:
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


def counted(state: TileRaceState) -> dict[str, Any]:
    return {**GAME.to_json(state), "history": []}


def apply_all(state: TileRaceState, actions: tuple[str, ...]) -> TileRaceState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


# Two players in the suite; a four-player race plays the same way (FOG_TILE_RACE_PLAYERS=2,4 runs
# both), at half again the time: more turns, every one read from the table.
PLAYERS = [int(n) for n in os.environ.get("FOG_TILE_RACE_PLAYERS", "2").split(",")]


@pytest.mark.parametrize("players", PLAYERS)
def test_a_whole_tile_race_played_by_hand_one_token_at_a_time(tmp_path: Path, players: int,
                                                               figures: Any) -> None:
    hands = Hands(tmp_path, players)
    engine = hands.session.state
    turns = 0
    try:
        while rules.outcome(engine) is None:
            # the LEDs say whose turn it is, in that player's colour
            assert wait_for(lambda: lit(hands, "turn") == RGB[engine.active], 10), (engine.active, lit(hands, "turn"))
            actions, expected = keen_turn(engine)
            engine = hands.turn(engine, actions)
            assert counted(engine) == counted(expected)
            turns += 1
        won = rules.winner(engine)
        assert won is not None and hands.session.state.history == engine.history
        score = hands.client.get("/api/score").get_json()
        assert score["winners"] == [won], score
        # the winner's colour over the whole strip
        assert wait_for(lambda: lit(hands, "*") == RGB[won], 10), hands.companion.hardware.scene
        assert set(hands.companion.hardware.scene.labels.values()) == {"the winner"}
    finally:
        hands.stop()
    figures(f"tile race by hand, {players} players: {turns} turns, {len(engine.history)} actions, "
            f"{hands.tokens} tokens moved one at a time, {hands.asked} readings the players chose; {won} won")
