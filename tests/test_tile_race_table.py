"""The tile race at the simulated table: hands move pawns and lay tiles, walls and mountains, the
camera reads each turn from its pictures, and the game compares them by kind and count.

The tiles look alike: a hand takes any tile from the supply, so each picture here is made with the
tiles shuffled among their places (tile 17 where tile 3 was), and the companion must not care. A
pawn carrying tiles stands on them: the camera sees the pawn only, and nothing is called missing.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.games.tile_race.board import load
from companion.games.tile_race.game import ALERT, TILE
from companion.games.tile_race.table import kind_of
from companion.app.run import Companion
from tests.tables import sim_config, wait_for

GAME = get_game("tile-race")
reconcile = GAME.reconcile  # what a picture means: the table's reading, as the session asks it


def shuffled(picture: dict[str, tuple[str, ...]], rng: random.Random) -> dict[str, list[str]]:
    """The same table with other look-alike pieces in the places: which tile lies where is chance."""
    out = {c: list(ps) for c, ps in picture.items()}
    for kind in ("tile", "wall", *(f"mountain-{c}" for c in ("red", "blue", "yellow", "green"))):
        spots = [(c, k) for c, ps in out.items() for k, p in enumerate(ps) if kind_of(p) == kind]
        names = [out[c][k] for c, k in spots]
        pool = sorted({p for p in GAME.layout().pieces if kind_of(p) == kind})
        chosen = rng.sample(pool, len(names))
        for (c, k), new in zip(spots, chosen, strict=True):
            out[c][k] = new
    # a stack lists the covered piece first: the tile under a pawn or a mountain stays under it
    return {c: sorted(ps, key=lambda p: kind_of(p) != "tile") for c, ps in out.items()}


def apply_all(state: Any, actions: tuple[str, ...]) -> Any:
    for action in actions:
        state = GAME.apply(state, action)
    return state


class Hands:
    """The players at the simulated table, and the companion that watches it."""

    def __init__(self, tmp_path: Path, players: int) -> None:
        from web_ui import create_app

        self.out = io.StringIO()
        self.companion = Companion(sim_config(tmp_path, **{"game.name": "tile-race"}), out=self.out)
        self.companion.start(panel=False)
        self.client = create_app(self.companion).test_client()
        self.session = self.companion.session
        self.rng = random.Random(players)
        body = {"game": "tile-race", "players": [{} for _ in range(players)], "seed": 1}
        assert self.post("/api/games", body).status_code == 200
        self.post("/api/table/setup")
        assert wait_for(lambda: not self.session.status.verifying, 60), self.out.getvalue()

    def post(self, path: str, body: object = None) -> Any:
        return self.client.post(path, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})

    def do(self, *actions: str) -> None:
        """The actions made by hand, the table left as they leave it (tiles from anywhere in the supply);
        the companion must record a play that leaves the game as they do."""
        before = self.session.state
        after = before
        for action in actions:
            after = GAME.apply(after, action)
        self.companion.camera.set_table(shuffled(GAME.expected(after), self.rng))
        counted = {**GAME.to_json(after), "history": []}
        assert wait_for(lambda: {**GAME.to_json(self.session.state), "history": []} == counted, 60), \
            (actions, self.session.state.history[len(before.history):], self.session.status.out_of_sync,
             self.out.getvalue()[-1500:])
        assert self.session.status.out_of_sync is None, self.session.status.out_of_sync

    def move(self, piece: str, cell: str | None) -> None:
        """One token moved by one hand (off the table, into the hand: ``None``), as the camera sees it."""
        res = self.post("/api/table/move", {"piece": piece, "cell": cell})
        assert res.status_code == 200, res.get_json()

    def stop(self) -> None:
        self.companion.stop()


def test_turns_read_from_the_table_tiles_by_kind_and_count_walls_on_edges_tiles_under_a_pawn(tmp_path: Path):
    hands = Hands(tmp_path, 2)
    try:
        hands.do("move red-1 A1", "tile red A2")  # onto the entry corner, then a tile laid
        hands.do("move blue-1 G7", "wall blue C4|C5")  # a wall stand on the edge between C4 and C5
        hands.do("mountain red E4")  # a mountain first (the movement follows)
        hands.do("move red-1 A2")  # collecting: the tile is under the pawn, the camera sees the pawn only
        assert hands.session.state.carried("red-1") == 1 and hands.session.status.out_of_sync is None
        hands.do("move red-1 A3>A4>A5")  # the collect phase ends on A3, the tile is left on A4
        assert hands.session.state.tiles == {"A4"} and hands.session.state.active == "blue"
        # the log says each action as a player would, the notation kept beside it for the record
        shown = hands.client.get("/api/state").get_json()
        assert shown["history"][-3:] == ["mountain red E4", "move red-1 A2", "move red-1 A3>A4>A5"]
        assert shown["log"][-3:] == ["red puts a mountain on E4",
                                     "red pawn 1 moves from A1 to A2, collecting the tile on A2 and carrying 1 tile",
                                     "red pawn 1 moves on from A2 via A3 and A4 to A5, leaving a tile on A4"]
        assert shown["log"][:4] == ["red pawn 1 moves from its start space to A1", "red lays a tile on A2",
                                    "blue pawn 1 moves from its start space to G7", "blue stands a wall between C4 and C5"]
        # the same table with the tiles and walls swapped round is no change at all
        history = list(hands.session.state.history)
        hands.companion.camera.set_table(shuffled(GAME.expected(hands.session.state), hands.rng))
        hands.do()
        assert list(hands.session.state.history) == history
    finally:
        hands.stop()


def test_a_picture_is_compared_by_kind_and_count_and_names_what_differs():
    state = GAME.apply(GAME.apply(GAME.new_game(2, seed=1), "move red-1 A1"), "tile red C3")
    picture = {c: list(ps) for c, ps in GAME.expected(state).items()}
    moved = {**picture, "C3": [], "D3": list(picture["C3"])}  # the tile lies one square over
    answer = reconcile(state, moved)
    assert not answer.ok and "C3" in (answer.reason or "") and "D3" in (answer.reason or "")
    walled = {**picture, "C4|C5": ["W07"]}  # a wall stand on an edge: blue stood a wall there (before moving)
    read = reconcile(state, walled)
    assert read.ok and [c.actions for c in read.choices] == [("wall blue C4|C5",)]
    assert read.choices[0].summary == "blue stands a wall between C4 and C5"


def test_a_tile_gone_between_two_pawns_asks_which_pawn_carries_it_and_plays_on_from_the_answer(tmp_path: Path):
    """Ada's pawns stand either side of a tile. She steps one pawn onto it and back: the tile is now
    under that pawn, where the camera cannot see it, and both pawns stand where they stood. The
    picture says only that the tile was collected; which pawn carries it is what the rest of the
    movement depends on, so the session asks, and plays on from the answer."""
    hands = Hands(tmp_path, 2)
    try:
        # the players set the table up as they want it and record it as a correction
        position = GAME.apply(hands.session.state, "correct red red-1@B1,red-2@D1,blue-1@start,blue-2@start "
                                                   "tiles=C1 walls=- mountains=-")
        hands.companion.camera.set_table(shuffled(GAME.expected(position), hands.rng))
        assert wait_for(lambda: hands.session.status.out_of_sync is not None, 60), hands.out.getvalue()[-800:]
        assert hands.post("/api/correction", {"accept": True}).status_code == 200
        assert wait_for(lambda: hands.session.state.tiles == {"C1"} and hands.session.status.out_of_sync is None, 60)

        # red-2 steps onto C1 and back to D1, the tile under it: the camera sees the pawns where they were
        table = {c: list(ps) for c, ps in GAME.expected(position).items() if c != "C1"}
        table["D1"] = ["T09", "red-2"]  # the tile first: the pawn stands on it
        hands.companion.camera.set_table(table)
        assert wait_for(lambda: len(hands.session.status.decision) == 2, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        asked = hands.client.get("/api/state").get_json()
        readings = [tuple(c["actions"]) for c in asked["decision"]]
        assert sorted(readings) == [("move red-1 C1>B1",), ("move red-2 C1>D1",)]
        assert asked["decision"][readings.index(("move red-1 C1>B1",))]["summary"] == \
            "red pawn 1 moves from B1 via C1 to B1, collecting the tile on C1 and carrying 1 tile"
        assert wait_for(lambda: hands.companion.hardware.scene.segments["turn"][0].effect == "blink", 10)

        # Ada says red-2 carries it
        answer = {"question_id": asked["question_id"], "option": readings.index(("move red-2 C1>D1",))}
        assert hands.post("/api/decide", answer).status_code == 200
        state = hands.session.state
        assert state.carried("red-2") == 1 and state.carried("red-1") == 0 and not state.tiles

        # and finishes: red-2 leaves the tile on E1 and steps on alone to E2, which only red-2 carrying it explains
        table = {**{c: ps for c, ps in table.items() if c != "D1"}, "E1": ["T22"], "E2": ["red-2"]}
        if_red_1 = GAME.apply(position, "move red-1 C1>B1")
        assert not reconcile(if_red_1, table).ok
        hands.companion.camera.set_table(table)
        assert wait_for(lambda: hands.session.state.moved, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        state = hands.session.state
        assert state.history[-2:] == ("move red-2 C1>D1", "move red-2 E1>E2")
        assert state.tiles == {"E1"} and state.pawns["red-2"] == "E2" and hands.session.status.out_of_sync is None
    finally:
        hands.stop()


def test_a_pawn_put_down_before_the_tile_it_carried_is_a_calm_step_until_the_tile_is_laid(tmp_path: Path):
    """Ada's red pawn 1 stands on A1 beside a tile on A2. Her movement collects the tile, ends the
    collect phase on A3, leaves the tile on A4 and lands alone on A5. She lifts the pawn, picks the
    tile up from A2, and puts the pawn down on A5 first: the tile is still in her hand. That is a
    move part-way, said calmly with where the tile goes; only left so past the hold time, with
    nothing moving, is the table out of sync. Laying the tile on A4 then reads the movement."""
    hands = Hands(tmp_path, 2)
    now = [0.0]
    hands.session.clock = lambda: now[0]  # the story moves the clock, never the machine's speed
    try:
        hands.do("move red-1 A1", "tile red A2")
        hands.do("move blue-1 G7", "wall blue C4|C5")
        tile = next(p for p in hands.companion.camera.table()["A2"] if kind_of(p) == "tile")

        hands.move("red-1", None)  # lifted
        hands.move(tile, None)     # the tile it collects, picked up
        hands.move("red-1", "A5")  # the pawn set down first
        assert wait_for(lambda: hands.session.status.step is not None, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        step = hands.session.status.step
        assert step.says == "red pawn 1 is on A5: put the tile it carried on A4", step.says
        assert hands.session.status.out_of_sync is None and hands.session.state.pawns["red-1"] == "A1"
        shown = hands.client.get("/api/state").get_json()
        assert "A4" in json.dumps(shown) and "red-1" not in step.says  # said as the players call it

        now[0] += hands.session.step_hold - 0.5  # she turns to answer a question
        assert not hands.session.step_overdue() and hands.session.status.out_of_sync is None
        now[0] += 1.0  # past the hold time with nothing moving: the table contradicts the game
        assert hands.session.step_overdue()
        assert "left part-way" in hands.session.status.out_of_sync.reason

        hands.move(tile, "A4")  # she lays the tile: the movement is read, and all is well again
        assert wait_for(lambda: hands.session.state.moved, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        state = hands.session.state
        assert state.history[-1] == "move red-1 A2>A3>A4>A5" and state.tiles == {"A4"}
        assert hands.session.status.out_of_sync is None and hands.session.status.step is None
    finally:
        hands.stop()


def test_a_pawn_lifted_off_the_tile_it_carries_is_told_to_take_it_along_not_read_as_a_far_fetched_path(
        tmp_path: Path):
    """Ada's red pawn 2 stands on G1, a tile on G2. She steps it onto G2: it collects the tile and
    stands on it. Then she lifts the pawn alone and sets it on G3, the tile left on G2. The rules could
    explain that only by the pawn going G3, back to G2 dropping the tile, and G3 again; the likely
    reading is one step, the carried tile still to come along. So it is a calm step: put the tile
    under the pawn. Left so, she is asked whether it went back; it did not, and with the tile under
    the pawn the step is read, the pawn carrying the tile."""
    hands = Hands(tmp_path, 2)
    now = [0.0]
    hands.session.clock = lambda: now[0]  # the story moves the clock, never the machine's speed
    try:
        hands.do("move red-2 G1", "tile red G2")
        hands.do("move blue-1 G7", "wall blue C4|C5")
        hands.move("red-2", "G2")  # onto the tile: collected, the pawn stands on it
        assert wait_for(lambda: hands.session.state.carried("red-2") == 1, 60), hands.out.getvalue()[-800:]
        tile = next(p for p in hands.companion.camera.table()["G2"] if kind_of(p) == "tile")

        hands.move("red-2", "G3")  # the pawn lifted alone: its tile is left on G2
        assert wait_for(lambda: hands.session.status.step is not None, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        assert hands.session.status.step.says == \
            "red pawn 2 is on G3, and the tile it carries is on G2: put it under the pawn"
        assert hands.session.state.history[-1] == "move red-2 G2" and hands.session.status.out_of_sync is None
        now[0] += hands.session.step_hold - 0.5  # she reaches for the tile
        assert not hands.session.step_overdue()
        now[0] += 1.0  # left so past the hold time: only now is she asked if the pawn went back to G2
        assert not hands.session.step_overdue() and hands.session.status.question == \
            "red pawn 2 is on G3 and the tile on G2 beside it: did it go back and leave it there?"
        asked = hands.client.get("/api/state").get_json()
        assert [c["actions"] for c in asked["decision"]] == [["move red-2 G3>G2>G3"]]
        assert hands.session.state.history[-1] == "move red-2 G2"  # nothing recorded unasked
        assert hands.post("/api/decide", {"question_id": asked["question_id"], "none": True}).status_code == 200
        assert hands.session.status.out_of_sync is not None

        hands.move(tile, "G3")  # it did not: under the pawn, one step, the tile carried along
        assert wait_for(lambda: hands.session.state.history[-1] == "move red-2 G3", 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        assert hands.session.state.carried("red-2") == 1 and hands.session.status.step is None
        assert hands.session.status.out_of_sync is None  # her "no" put the table out of sync until then
        assert hands.client.get("/api/state").get_json()["log"][-1] == \
            "red pawn 2 moves on from G2 to G3, carrying 1 tile"
    finally:
        hands.stop()


def test_a_pawn_stepping_onto_the_next_tile_without_the_one_it_carries_takes_it_along_there():
    """Ada's red pawn 1 stands on F4, tiles on F3 and F2. It collects F3's tile, then steps onto F2's,
    lifted off the tile it carries. That tile goes under the pawn on F2, where it stands, not to a
    square beside F3; laid there, the step is read and the pawn carries both."""
    state = apply_all(GAME.new_game(2, seed=1, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("correct red red-1@F4,red-2@G1,blue-1@start,blue-2@start tiles=F2,F3 walls=- mountains=-",
                       "move red-1 F3"))
    table = {c: list(ps) for c, ps in GAME.expected(state).items()}
    table.update({"F3": ["T05"], "F2": ["T06", "red-1"]})  # F2's tile under the pawn, F3's left behind
    answer = reconcile(state, table)
    assert answer.step == "Ada's red pawn 1 is on F2, and the tile it carries is on F3: put it under the pawn"
    assert answer.to_move == ("red-1",) and not answer.choices
    table.update({"F3": [], "F2": ["T05", "T06", "red-1"]})
    read = reconcile(state, table)
    assert [c.actions for c in read.choices] == [("move red-1 F2",)] and not read.part_way
    assert apply_all(state, read.choices[0].actions).carried("red-1") == 2


def test_a_pawn_that_did_go_back_and_leave_its_tile_is_asked_about_once_the_table_stays_so():
    """Ada's red pawn 2 carries the tile from G2 and stands on G3 with it. If it really went back to G2,
    left the tile there and came back to G3, the table looks just like a pawn lifted off its tile: the
    players are told to put the tile under it, and only if the table stays so are they asked whether it
    went back; the back-and-forth is never recorded without asking."""
    state = apply_all(GAME.new_game(2, seed=1, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("move red-2 G1", "tile red G2", "move blue-1 G7", "tile blue G4", "move red-2 G2",
                       "move red-2 G3"))
    table = {c: list(ps) for c, ps in GAME.expected(state).items()}
    table.update({"G3": ["red-2"], "G2": ["T11"]})
    answer = reconcile(state, table)
    assert answer.step == "Ada's red pawn 2 is on G3, and the tile it carries is on G2: put it under the pawn"
    assert [c.actions for c in answer.choices] == [("move red-2 G2>G3",)]
    assert answer.question == "Ada's red pawn 2 is on G3 and the tile on G2 beside it: did it go back and leave it " \
                              "there?"


def test_the_tile_moved_where_the_movement_leaves_it_before_the_pawn_is_a_calm_step(tmp_path: Path):
    """Ada's red pawn 1 stands on A1 beside a tile on A2. Her movement will collect it, end the collect
    phase on A3 and leave it on A4. She moves the tile to A4 first, the pawn still on A1: part-way
    through a legal turn, so she is told to move the pawn; setting it down on A5 reads the turn."""
    hands = Hands(tmp_path, 2)
    now = [0.0]
    hands.session.clock = lambda: now[0]
    try:
        hands.do("move red-1 A1", "tile red A2")
        hands.do("move blue-1 G7", "wall blue C4|C5")
        tile = next(p for p in hands.companion.camera.table()["A2"] if kind_of(p) == "tile")

        hands.move(tile, "A4")  # the tile first, where the movement will leave it
        assert wait_for(lambda: hands.session.status.step is not None, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        assert hands.session.status.step.says == ("the tile on A4 lies where a movement of red pawn 1 leaves it: "
                                                  "now move the pawn, to A3, A5 or B4")
        assert hands.session.status.out_of_sync is None and not hands.session.step_overdue()

        hands.move("red-1", "A5")
        assert wait_for(lambda: hands.session.state.moved, 60), \
            (hands.session.status.out_of_sync, hands.out.getvalue()[-800:])
        assert hands.session.state.history[-1] == "move red-1 A2>A3>A4>A5" and hands.session.state.tiles == {"A4"}
        assert hands.session.status.step is None and hands.session.status.out_of_sync is None
    finally:
        hands.stop()


def test_the_turns_tile_laid_while_the_carried_one_is_still_in_the_hand_is_a_step_too():
    """Ada sets her pawn down on A5 and lays the turn's tile on C5 from the supply, the tile her pawn
    carried still in her other hand: still part-way, and said so; laid on A4, it reads as her turn."""
    state = apply_all(GAME.new_game(2, seed=1, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("move red-1 A1", "tile red A2", "move blue-1 G7", "wall blue C4|C5"))
    table = {c: list(ps) for c, ps in GAME.expected(state).items() if c not in ("A1", "A2")}
    table.update({"A5": ["red-1"], "C5": ["T07"]})
    part_way = reconcile(state, table)
    assert part_way.step == "Ada's red pawn 1 is on A5: put the tile it carried on A4" and not part_way.choices
    assert part_way.to_move == ("red-1",)
    table["A4"] = ["T30"]
    read = reconcile(state, table)
    assert [c.actions for c in read.choices] == [("move red-1 A2>A3>A4>A5", "tile red C5")]
    assert read.choices[0].summary == ("Ada's red pawn 1 moves from A1 via A2, A3 and A4 to A5, collecting the tile "
                                       "on A2 and leaving a tile on A4; Ada lays a tile on C5")
    table["F5"] = ["T09"]  # a second tile laid: no play does that, and it is not part-way either
    assert not reconcile(state, table).ok and not reconcile(state, table).part_way


def test_the_strip_shows_whose_turn_each_players_mountains_and_the_tiles_left_in_the_supply():
    """On the recording strip: the player to move and, dim, the next; each player's mountains in their
    colour (bright in hand, dim once placed): walls are not counted per player, they come from the one
    supply of tiles, so the strip shows that supply, an LED for every 5 tiles; the winner over it all."""
    from gpiozero.pins.mock import MockFactory

    from hardware.output import LedConfig
    from hardware.table import TableHardware

    rgb = load().rgb
    config = LedConfig(backend="recording", gamma=1.0, brightness=1.0, colour_order="RGB", max_milliamps=0)
    hw = TableHardware(GAME, config, pin_factory=MockFactory(), clock=lambda: 0.0)

    def segment(name: str) -> list[tuple[int, int, int]]:
        hw.animator.tick(0.0)
        seg = hw.output.segments[name]
        return [hw.strip.last[seg.index(i)] for i in range(seg.length)]

    def dim(colour: str) -> tuple[int, int, int]:
        return tuple(v // 5 for v in rgb[colour])  # type: ignore[return-value]

    off = (0, 0, 0)
    state = GAME.new_game(2, seed=1)
    hw.show(state, game=GAME)
    assert hw.scene.lights("turn")[0].colour == rgb["red"] and segment("turn")[1] == dim("blue")  # red pulses
    assert segment("status")[:6] == [rgb["red"]] * 3 + [rgb["blue"]] * 3 and set(segment("status")[6:]) == {off}
    assert segment("counter") == [TILE] * 8 + [off]  # 40 tiles

    # red moves, lays a tile and later places a mountain; blue stands a wall: both come from the supply
    state = apply_all(state, ("move red-1 A1", "tile red C3", "move blue-1 G7", "wall blue C4|C5",
                              "mountain red E4", "move red-1 A2"))
    hw.show(state, game=GAME)
    assert state.supply == 38 and state.mountains_left == (2, 3)
    assert segment("status")[:6] == [rgb["red"]] * 2 + [dim("red")] + [rgb["blue"]] * 3
    assert segment("counter") == [TILE] * 8 + [off]  # 38 tiles: still an LED for each 5 or part of 5
    assert GAME.led_scene(state).labels["counter"].endswith(": 38")

    # a pawn breaking a rule: its player's LEDs blink red
    hw.show(state, alert="illegal", offenders=("blue-1",), game=GAME)
    assert segment("status")[3:6] in ([ALERT] * 3, [off] * 3)

    # four players: two mountains each, in seat order
    four = GAME.new_game(4, seed=1)
    hw.show(four, game=GAME)
    assert segment("status")[:8] == [rgb[c] for c in ("red", "blue", "yellow", "green") for _ in range(2)]
    hw.close()


def test_a_movement_that_passes_a_square_twice_leaves_a_tile_only_where_one_was_left():
    """Ada's pawn collects the tiles on A2 and B2, steps onto the empty B3 (no tile there: the collect
    phase ends on it), leaves one on A3, comes back to B3 and leaves the other, and ends alone on B4. The
    log names A3 and B3 once each: B3 was passed twice, but got one tile."""
    state = apply_all(GAME.new_game(2, seed=5, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("move red-1 A1", "tile red A2", "move blue-1 G7", "tile blue B2", "move red-1 A2>B2",
                       "move red-1 B3>A3>B3>B4"))
    assert state.tiles == {"A3", "B3"}
    assert GAME.view(state)["log"][-1] == ("Ada's red pawn 1 moves on from B2 via B3, A3 and B3 to B4, leaving a "
                                           "tile on each of A3 and B3")


def test_a_picture_one_change_away_from_play_says_which_rule_it_breaks_and_how_to_put_it_right():
    """Ada and Bo's pawns stand on their corners, a tile on D4. What their hands do wrong is named by the
    rule it breaks, in the rulebook's words, and what puts it right; two things wrong at once are only
    placed, since guessing which was meant could name the wrong rule."""
    state = apply_all(GAME.new_game(2, seed=5, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("move red-1 A1", "tile red D4", "move blue-1 G7", "tile blue C3"))
    table = {c: list(ps) for c, ps in GAME.expected(state).items()}

    diagonal = reconcile(state, {**table, "A1": [], "B2": ["red-1"]})
    assert diagonal.reason == ("Ada's red pawn 1 is on B2: a pawn moves to a square beside it, never diagonally. "
                               "Put it back on A1")
    assert (diagonal.rule, diagonal.offenders) == ("diagonal", ("red-1",))

    early = reconcile(state, {**table, "D5": ["T09"]})
    assert early.reason == ("Ada laid a tile on D5 before moving: the turn's tile is laid after the pawn has moved. "
                            "Take the tile back and move a pawn first") and early.rule == "tile-after-moving"

    exit_wall = reconcile(state, {**table, "F7|G7": ["W05"]})
    assert exit_wall.reason == ("Ada stood a wall between F7 and G7: no wall may stand in front of an exit (G7 is "
                                "one). Take the wall away") and exit_wall.rule == "wall-before-exit"
    # after a legal step the same wall is named so too: the rest of the picture is read as play first
    stepped = reconcile(state, {**table, "A1": [], "B1": ["red-1"], "A6|A7": ["W05"]})
    assert stepped.rule == "wall-before-exit" and "between A6 and A7" in (stepped.reason or "")

    too_far = reconcile(state, {**table, "A1": [], "A3": ["red-1"]})
    assert too_far.reason == ("Ada's red pawn 1 is on A3: a pawn moves one square at a time, to a square beside it, "
                              "and A3 is not beside A1. Put it back on A1") and too_far.rule == "beside"

    corner = reconcile(state, {**table, "G1": ["mountain-red-1"]})  # who put it down, where, and why not there
    assert corner.reason == ("Ada put a mountain on G1: a mountain there would block an exit for good. "
                             "Take it back") and corner.rule == "mountain"

    chain = apply_all(state, ("correct red red-1@F5,red-2@start,blue-1@G7,blue-2@start tiles=F4,C3,D4 walls=- "
                               "mountains=-",))  # red-1 stands beside the tile on F4: the two are a string
    cut = reconcile(chain, {**{c: list(ps) for c, ps in GAME.expected(chain).items()}, "F4|F5": ["W05"]})
    assert cut.reason == ("Ada stood a wall between F4 and F5: a wall there would break a string of connected tiles "
                          "and pawns. Take it back") and cut.rule == "wall"

    out_of_turn = reconcile(state, {**table, "G7": [], "G6": ["blue-1"]})
    assert out_of_turn.reason == "it is Ada's turn, not Bo's. Put Bo's blue pawn 1 back on G7"

    two = reconcile(state, {**table, "D5": ["T09"], "E4": ["T10"]})
    assert two.rule == "move" and two.reason == ("no play of Ada leaves the table like this (the camera sees a tile "
                                                 "on D5 and a tile on E4 that the game does not have)")
    # an edge is said by the two squares it lies between, and a piece the camera lost is said so
    lost = reconcile(state, {**table, "D4": [], "B3|C3": ["W05"], "F7|G7": ["W06"]})
    assert lost.reason is not None and "|" not in lost.reason, lost.reason
    assert "a wall stand between B3 and C3" in lost.reason and "it does not see a tile on D4" in lost.reason


def test_places_follow_a_preposition_and_the_supplies_add_up_with_the_pieces_beside_the_board():
    """The panel says "put it on <place>": an edge is the edge between two squares, a start space the one
    below or beside a corner. Beside the board, 37 tiles left and one standing as a wall make the 38 loose
    tiles a player counts there; the mountains are each player's own."""
    from companion.table.sync import Misplaced, to_follow

    state = apply_all(GAME.new_game(2, seed=5, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("move red-1 A1", "tile red D4", "move blue-1 G7", "wall blue E6|E7", "mountain red C5"))
    said = GAME.words(state)
    assert to_follow([Misplaced("W01", "E6|E7", None), Misplaced("blue-2", "start-G1-S", "G2")], said) == (
        "entered on the panel, now on the table: put a wall on the edge between E6 and E7; "
        "put Bo's blue pawn 2 on the start space below G1")
    assert said["start-A1-W"] == "the start space left of A1" and said["supply-tiles"] == "the tile supply"
    supplies = GAME.view(state)["supplies"]
    assert state.supply == 38 and supplies["supply-tiles"] == "38 tiles left; 1 more standing as a wall"
    assert supplies["supply-mountains"] == "Ada 2, Bo 3"  # under the supply's name, "mountains not placed"
    assert GAME.view(state)["in_hand"] == {"mountain-red": 2, "mountain-blue": 3}  # what the Table page offers


def test_the_tiles_of_a_collect_and_drop_moved_one_at_a_time_are_calm_steps():
    """The report: moving a collect-and-drop's tiles one at a time, as the README says, turned red
    before the second tile was down. Ada's red pawn 1 on A1 will collect the tiles on A2 and A3 and
    drop them further on; her hand moves the tile of A3 first, then the other: each picture on the way
    is part of a legal movement, a calm step saying what is left; a tile put nowhere the movement
    could leave it is still said at once."""
    state = apply_all(GAME.new_game(2, seed=1, seats=[{"name": "Ada"}, {"name": "Bo"}]),
                      ("move red-1 A1", "tile red A2", "move blue-1 G7", "tile blue A3"))
    table = {c: list(ps) for c, ps in GAME.expected(state).items()}
    first = {**{c: ps for c, ps in table.items() if c != "A3"}, "A5": table["A3"]}
    answer = reconcile(state, first)
    assert answer.part_way and answer.step.startswith(
        "the tiles are on their way where a movement of Ada's red pawn 1 leaves them: move the rest of them, "
        "then the pawn, to "), answer.step
    astray = {**{c: ps for c, ps in table.items() if c != "A3"}, "F6": table["A3"]}
    assert not reconcile(state, astray).ok and not reconcile(state, astray).part_way
