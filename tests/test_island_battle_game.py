"""Battle for the Island behind the door: set up by name, read from the camera's pictures, rolled by
the companion, corrected, and never showing which blocks are live.

The camera sees each character and block by its marker: in a box beside the island before the
setup puts it down, on a square, or on a place of its pad. It does not read facing yet, so a
character put down or moved is seen on its square and the players say which way it faces.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.session.events import Event, InlineBus
from companion.errors import BoardFileError, IllegalMoveError, OptionsError, SetupError
from companion.games.base import faced, unfaced
from companion.games.island_battle import board as boards
from companion.games.island_battle.game import GAME
from companion.games.island_battle.grid import BLOCKS
from companion.games.island_battle.state import IslandState
from companion.app.run import Companion
from companion.session.session import Session
from companion.store.store import GameStore
from companion.table.sync import with_corrections
from tests.tables import sim_config
from web_ui import create_app

# one block per row and column; columns D and E are left clear for the stories that move there
BLOCK_SQUARES = ("A3", "B1", "C12", "G4", "H5", "I6", "J7", "K8", "L9", "F10")


def blocks_down(state: IslandState) -> IslandState:
    for n, square in enumerate(BLOCK_SQUARES, start=1):
        state = GAME.apply(state, f"block {state.player} block-{n} {square}")
    return state


def armies_down(state: IslandState) -> IslandState:
    """Five characters each on the two rows nearest them facing forwards, five on the pad."""
    for k in range(10):
        for player, row, facing in (("red", 2, "N"), ("blue", 11, "S")):
            ch = f"{player}-{['s1', 's2', 's3', 's4', 's5', 'j1', 'j2', 'j3', 't1', 't2'][k]}"
            where = f"{'BCDEF'[k]}{row} {facing}" if k < 5 else f"pad{k - 4}"
            state = GAME.apply(state, f"deploy {player} {ch} {where}")
    return state


def seen_after(state: IslandState, *moves: tuple[str, ...]) -> dict[str, list[str]]:
    """The picture of ``state`` with each (piece, cell) moved there by hand, facing a way the camera
    does not say; (piece, cell, way): set down facing ``way`` as the camera reads it."""
    picture = {c: [p for p in ps] for c, ps in GAME.expected(state).items()}
    for piece, cell, *way in moves:
        for pieces in picture.values():
            pieces[:] = [p for p in pieces if unfaced(p)[0] != piece]
        picture.setdefault(cell, []).append(faced(piece, way[0] if way else None))
    return {c: ps for c, ps in picture.items() if ps}


def test_a_new_battle_starts_with_every_piece_in_its_box_and_the_players_named_as_set_up():
    state = GAME.new_game(2, seed=4, seats=[{"name": "Ada", "colours": ["blue"]}, {"name": "Bo"}], options="start=blue")
    army = ("s1", "s2", "s3", "s4", "s5", "j1", "j2", "j3", "t1", "t2")  # each piece in its own slot of its box
    assert GAME.expected(state) == {**{f"box-red-{n}": (f"red-{k}",) for n, k in enumerate(army, start=1)},
                                    **{f"box-blue-{n}": (f"blue-{k}",) for n, k in enumerate(army, start=1)},
                                    **{f"box-blocks-{n}": (f"block-{n}",) for n in range(1, 11)},
                                    "rail-red-C": ("pad-red",), "rail-blue-J": ("pad-blue",)}  # each pad's handle
    view = GAME.view(state)
    assert view["phase"] == "blocks" and view["active"] == "blue"  # blue plays first, so places the first block
    assert view["names"]["blue-t1"] == "Ada's blue tank 1" and view["names"]["red-s2"] == "Bo's red soldier 2"
    with pytest.raises(SetupError, match="2 players"):
        GAME.new_game(3, seed=1)
    with pytest.raises(SetupError, match="red and blue"):
        GAME.new_game(2, seats=[{"colours": ["green"]}, {}])
    with pytest.raises(OptionsError, match="'hourglass'"):  # another game's option is named, never dropped
        GAME.new_game(2, options="hourglass=90")
    with pytest.raises(OptionsError, match="die is companion or table"):
        GAME.new_game(2, options="die=cup")


def test_no_page_sees_which_blocks_are_live_but_the_saved_state_keeps_it():
    state = blocks_down(GAME.new_game(2, seed=7))
    saved = GAME.to_json(state)
    assert len(saved["live"]) == 6  # the companion's own file: the referee looks under the blocks
    view = json.dumps(GAME.view(state))
    assert "live" not in view and '"seed"' not in view


def test_the_camera_reads_a_block_set_down_and_asks_which_way_a_character_faces():
    state = GAME.new_game(2, seed=1)
    answer = GAME.reconcile(state, seen_after(state, ("block-3", "E5")))
    assert [c.actions for c in answer.choices] == [("block red block-3 E5",)] and not answer.ambiguous
    answer = GAME.reconcile(state, seen_after(state, ("block-3", "E5"), ("block-4", "F7")))
    assert answer.ambiguous and {c.actions for c in answer.choices} == {  # both down before the camera settled:
        ("block red block-3 E5", "block blue block-4 F7"),  # red placed first, and the players say which was red's
        ("block red block-4 F7", "block blue block-3 E5")}
    answer = GAME.reconcile(state, seen_after(state, ("block-3", "E5"), ("block-4", "E7")))
    assert not answer.ok and answer.offenders == ("block-3", "block-4")  # the same column: neither order is a setup
    assert answer.reason == ("red places block 3 on E5, then block 4 on E7: a block on E5 shares its row or column "
                             "with E7: one block per row and column")
    state = blocks_down(state)
    answer = GAME.reconcile(state, seen_after(state, ("red-j1", "C2")))
    assert answer.ambiguous and {c.actions[0] for c in answer.choices} == {
        f"deploy red red-j1 C2 {f}" for f in "NESW"}  # the camera sees no facing yet: the players say it
    assert "red jeep 1" in answer.choices[0].summary and "facing" in answer.choices[0].summary


def test_the_companion_rolls_at_each_turn_the_same_roll_in_a_replay():
    state = armies_down(blocks_down(GAME.new_game(2, seed=3)))
    assert state.stage == "roll"
    roll = GAME.forced_action(state)
    assert roll is not None and str(roll).startswith("roll red ")
    assert GAME.forced_action(GAME.from_json(GAME.to_json(state))) == roll  # replayed: the same face
    rolled = GAME.apply(state, roll)
    assert GAME.forced_action(rolled) is None  # the roll waits to be used
    face = rolled.roll
    assert GAME.view(rolled)["rolled"] == f"Red rolled {face}"  # the Board page's Die, in words
    assert GAME.led_scene(rolled).count("counter") is not None and GAME.led_scene(rolled).count("counter").value == face
    # the roll left to the players: nothing rolls by itself, a Roll button is offered, and pressed it rolls
    table_die = armies_down(blocks_down(GAME.new_game(2, seed=3, options="die=table")))
    assert GAME.forced_action(table_die) is None and GAME.view(table_die)["rolled"] == "Red to roll"
    assert GAME.view(table_die)["turn_actions"][0] == {"action": "roll red", "label": "Roll"}
    pressed = GAME.complete_action(table_die, "roll red")
    assert pressed.startswith("roll red ") and pressed == GAME.complete_action(GAME.from_json(GAME.to_json(table_die)),
                                                                               "roll")
    assert GAME.complete_action(GAME.apply(table_die, pressed), "roll red") == "roll red"  # nothing to complete now
    zero = GAME.apply(table_die, "roll red 0")  # a 0: all five LEDs dim, and the words say what it gives
    assert GAME.led_scene(zero).lights("counter") and GAME.led_scene(zero).count("counter") is None
    assert GAME.view(zero)["rolled"].startswith("Red rolled 0: a reinforcement, the pad or a turn")


def test_the_table_s_turn_action_button_rolls_and_a_replay_rolls_the_same(tmp_path: Path):
    """A button wired as the turn-action button, bound to ``roll`` in the config, presses the Board
    page's Roll: the companion rolls, the log holds the face, and the game read back from the log
    alone has rolled the same."""
    from gpiozero.pins.mock import MockFactory

    pins = MockFactory()
    companion = Companion(sim_config(tmp_path, **{"game.name": "island-battle", "buttons.turn_action": 24}),
                          out=io.StringIO(), pin_factory=pins)
    try:
        client = create_app(companion, {"DATA_DIR": str(tmp_path)}).test_client()
        made = client.post("/api/games", json={"game": "island-battle", "players": [{}, {}], "seed": 5,
                                               "options": "die=table"})
        assert made.status_code == 200, made.get_json()
        session = companion.session
        session.on_stable_change(session.expected())
        session.camera_lost("unplugged")  # the setup and the play from the panel
        ready = armies_down(blocks_down(GAME.new_game(2, seed=5, options="die=table")))
        for action in ready.history:
            session.act(action)
        assert session.state.stage == "roll" and session.state.roll is None
        pins.pin(24).drive_low()
        pins.pin(24).drive_high()
        rolled = session.state.history[-1]
        assert rolled.startswith("roll red ") and session.replayed() == session.state
        assert client.get("/api/state").get_json()["rolled"].startswith(f"Red rolled {rolled[-1]}")
        pins.pin(24).drive_low()  # pressed again before the roll is used: said, nothing changes
        pins.pin(24).drive_high()
        assert session.state.history[-1] == rolled
        assert "no roll is open now" in companion.out.getvalue()
    finally:
        companion.stop()


def test_a_move_is_read_from_where_the_character_stands_and_a_victim_left_standing_is_no_disagreement():
    state = armies_down(blocks_down(GAME.new_game(2, seed=3)))
    state = GAME.apply(state, "roll red 3")
    answer = GAME.reconcile(state, seen_after(state, ("red-s3", "D5")))
    assert [c.actions for c in answer.choices] == [("move red-s3 D2 D5 N",)]
    answer = GAME.reconcile(state, seen_after(state, ("red-s3", "D4")))  # two ahead and the last pip a turn
    assert answer.ambiguous and {c.actions[0] for c in answer.choices} == {"move red-s3 D2 D4 W", "move red-s3 D2 D4 E"}
    # blue's soldier on D11 is shot from two squares away: it may still stand until a hand lifts it
    near = GAME.apply(GAME.apply(state, "move red-s3 D2 D5 N"), "end red")
    near = GAME.apply(GAME.apply(near, "roll blue 4"), "move blue-s3 D11 D7 S")
    assert GAME.legal_actions(near)  # blue's turn goes on: red's soldier on D5 is two ahead of blue's on D7
    shot = GAME.apply(near, "shoot blue-s3 D5")
    assert "red-s3" in GAME.taken_off(shot) and "D5" not in GAME.expected(shot)
    answer = GAME.reconcile(near, seen_after(near))  # the shot red soldier still on D5: nothing moved yet
    assert answer.ok and answer.choices[0].actions == ()


def test_a_correction_puts_pieces_where_the_camera_sees_them_and_refuses_a_table_no_play_reaches():
    state = blocks_down(GAME.new_game(2, seed=1))
    fix = GAME.correction(state, seen_after(state, ("block-1", "A4"), ("red-s1", "C1")))
    assert str(fix) == "correct red red-s1@C1:N,block-1@A4" and GAME.parse_action(str(fix)) == fix
    with pytest.raises(IllegalMoveError, match="share a row or column"):
        GAME.apply(state, fix)  # block-1 on A4 and block-4 on G4 share row 4
    fixed = GAME.apply(state, GAME.correction(state, seen_after(state, ("red-s1", "C1"))))
    assert GAME.expected(fixed)["C1"] == ("red-s1^N",) and fixed.history[-1] == "correct red red-s1@C1:N"


def test_a_board_file_with_a_mistake_is_refused_by_its_key(tmp_path: Path):
    text = (Path(boards.__file__).parent / "boards" / "standard.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("blocks = 24", "blocks = 20"))
    with pytest.raises(BoardFileError, match="must not share ids"):
        boards.load(str(bad))
    bad.write_text(text.replace("margin_mm = 75.0", "margin_mm = 40.0"))
    with pytest.raises(BoardFileError, match="board.margin_mm"):
        boards.load(str(bad))


def test_the_pads_places_follow_the_pad_along_its_edge():
    state = armies_down(blocks_down(GAME.new_game(2, seed=3)))
    before = GAME.layout(state).cells["pad-red-3"].center_mm
    assert before[0] == GAME.layout(state).cells["C1"].center_mm[0]  # red's pad centre against C1
    slid = GAME.apply(GAME.apply(GAME.apply(state, "roll red 0"), "pad red"), "roll red 2")
    slid = GAME.apply(slid, "slide red E")
    assert GAME.layout(slid).cells["pad-red-3"].center_mm[0] == GAME.layout(slid).cells["E1"].center_mm[0]


def test_the_command_line_makes_shows_plays_and_scores_a_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    made = tmp_path / "battle.json"
    assert main(["new-game", "--game", "island-battle", "--players", "2", "--seed", "5", "-o", str(made)]) == 0
    assert main(["show", str(made)]) == 0 and "red's pad centred on C" in capsys.readouterr().out
    after = tmp_path / "after.json"
    assert main(["act", str(made), "block red block-1 C4", "-o", str(after)]) == 0
    assert json.loads(after.read_text())["blocks"] == {"block-1": "C4"}
    assert main(["score", str(after)]) == 0
    assert "Nobody rules the island yet." in capsys.readouterr().out


def test_no_page_event_or_export_carries_which_blocks_are_live(tmp_path: Path):
    """The store keeps the whole saved state (a game resumes with its blocks as dealt); what leaves the
    companion - the state a page reads, a published event, the game a phone downloads - does not."""
    companion = Companion(sim_config(tmp_path, **{"game.name": "island-battle"}), out=io.StringIO())
    heard: list[Event] = []
    sub = companion.session.bus.subscribe(heard.append)
    try:
        client = create_app(companion, {"DATA_DIR": str(tmp_path)}).test_client()
        made = client.post("/api/games", json={"game": "island-battle", "players": [{}, {}], "seed": 5})
        assert made.status_code == 200, made.get_json()
        session = companion.session
        assert len(session.state.live) == 6 and companion.session.store.setup(made.get_json()["game"])["live"]
        session.on_stable_change(session.expected())  # the camera saw every piece in its box
        session.camera_lost("unplugged")  # play goes on from the panel
        session.act("block red block-1 C4")
        session.undo()  # the undo publishes the state it goes back to
        assert sub.drain(timeout=60)
        exported = client.get(f"/api/games/{made.get_json()['game']}").get_json()
        shown = client.get("/api/state").get_json()
        assert exported["setup"]["game"] == "island-battle" and "live" not in exported["setup"]
        assert "seed" not in exported["setup"] and "live" not in shown
        assert any(e.kind == "undone" for e in heard)
        assert all('"live"' not in json.dumps(e.data, default=str) for e in heard)
    finally:
        sub.close()
        companion.stop()


def test_the_same_table_with_other_blocks_live_looks_the_same_to_everyone():
    state = armies_down(blocks_down(GAME.new_game(2, seed=3)))
    state = GAME.apply(GAME.apply(state, "roll red 0"), "turn red-s1 W")
    for seed in range(5):
        other = GAME.secrets_changed(state, None, seed)
        assert len(other.live) == 6 and GAME.from_json(GAME.to_json(other)) == other
        assert GAME.view(other) == GAME.view(state) and GAME.view(other, "red") == GAME.view(state, "red")


def test_a_blast_is_said_in_words_and_flashes_on_the_leds_only_once_a_live_block_goes_off():
    from tests.test_island_battle_rules import table

    state = table(red_s1="E3 N", red_s2="D6 N", blue_s1="F4 S", blue_s2="G5 S", blocks="E5:live")
    calm = GAME.led_scene(state).lights("status")
    assert GAME.view(state)["blast"] == "" and all(light.effect == "steady" for light in calm)  # nothing told before
    blasted = GAME.apply(state, "shoot red-s1 E5")
    assert GAME.view(blasted)["blast"] == "Block 1 was live: blue soldier 1, red soldier 2 blown off the island"
    assert set(GAME.taken_off(blasted)) >= {"blue-s1", "red-s2", "block-1"}  # the players lift them off
    flashing = [i for i, light in enumerate(GAME.led_scene(blasted).lights("status")) if light.effect == "blink"]
    assert flashing == [0, 6]  # red's first two characters and blue's first two, two to an LED, a dark one between
    assert len(GAME.led_scene(blasted).lights("status")) == 11  # the strip's status segment as it comes
    assert GAME.from_json(GAME.to_json(blasted)) == blasted
    rolled = GAME.apply(blasted, "roll red 2")  # the companion's roll at once: nobody has seen the flash yet
    assert [i for i, light in enumerate(GAME.led_scene(rolled).lights("status")) if light.effect == "blink"] == [0, 6]
    moved = GAME.apply(rolled, "move red-s1 E3 E5 N")  # a player acts: the LEDs calm, the words stay till the next blast
    assert all(light.effect == "steady" for light in GAME.led_scene(moved).lights("status"))
    assert GAME.view(moved)["blast"] == GAME.view(blasted)["blast"]


def test_the_pieces_a_blast_took_are_named_as_themselves_where_the_hands_must_lift_them():
    """A blown-off soldier and the block that went off still lie on the table till hands lift them:
    every page names them by id, so the Board page draws each as itself (it drew them as a grey "?",
    its id hidden as if it were a secret)."""
    from companion.table.secrecy import redact
    from tests.test_island_battle_rules import table

    state = table(red_s1="E3 N", red_s2="D6 N", blue_s1="F4 S", blue_s2="G5 S", blocks="E5:live")
    blasted = GAME.apply(state, "shoot red-s1 E5")
    lifted = [{"piece": p, "cell": c} for p, c in (("block-1", "E5"), ("blue-s1", "F4"), ("red-s2", "D6"))]
    for seat in (None, "red", "blue"):
        assert redact(GAME, blasted, {"to_turn_over": lifted}, seat) == {"to_turn_over": lifted}, seat


def test_a_character_s_reach_is_the_square_at_its_range_and_where_the_roll_could_take_it():
    from tests.test_island_battle_rules import table

    # Ada's tank on E2 faces north: four ahead is E6, empty or not; her soldier on C3 faces a block two
    # ahead on C5, its target; blue's jeep on H9 faces south with a block on H8 in the way: no shot
    state = table(stage="move", roll=3, red_t1="E2 N", red_s1="C3 N", blue_j1="H9 S", blue_s1="pad1",
                  blocks="C5:safe H8:live")
    reach = GAME.view(state)["reach"]
    assert reach["red-t1"] == {"shots": ["E6"], "moves": ["E5", "E4"], "note": "range 4"}  # 3 on, or 2 and a turn
    assert reach["red-s1"]["shots"] == ["C5"] and reach["red-s1"]["moves"] == []  # the block in the way of a 3
    assert reach["blue-j1"] == {"shots": [], "moves": [], "note": "range 3"}  # not blue's turn: no moves either
    assert "blue-s1" not in reach  # on its pad: it aims at nothing
    # read from where the blocks stand: the same whichever are live
    assert all(GAME.view(GAME.secrets_changed(state, None, seed))["reach"] == reach for seed in range(3))


def test_a_tapped_character_shows_a_dot_where_each_move_ends_and_each_facing_is_a_choice():
    state = GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3))), "roll red 3")
    dots = GAME.targets(state, "red-s3")  # Red's soldier on D2, facing north, with a 3
    assert {cell: [c.summary for c in ways] for cell, ways in dots.items()} == {
        "D5": ["to D5 facing north"], "D4": ["to D4 facing east", "to D4 facing west"]}  # on, or two and a turn
    assert set(dots) == set(GAME.view(state)["reach"]["red-s3"]["moves"])  # the dots are the shaded squares
    chosen = dots["D4"][1].actions[0]
    assert GAME.apply(state, chosen).facing["red-s3"] == "W"  # a dot's choice is the move entered
    assert GAME.targets(state, "blue-s3") == {} and GAME.targets(state, "block-5") == {}  # not theirs to move now
    # at setup a block's dots are the squares sharing no row or column, a character's each facing a way
    fresh = GAME.new_game(2, seed=3)
    placed = GAME.apply(fresh, "block red block-1 A3")
    assert "A7" not in GAME.targets(placed, "block-2") and "B7" in GAME.targets(placed, "block-2")
    down = blocks_down(fresh)
    assert [c.summary for c in GAME.targets(down, "red-s1")["K1"]] == [
        "on K1 facing north", "on K1 facing east", "on K1 facing south", "on K1 facing west"]


def test_a_picture_no_rule_allows_is_refused_with_the_rule_it_breaks():
    placed = GAME.apply(GAME.new_game(2, seed=3), "block red block-1 A3")
    answer = GAME.reconcile(placed, seen_after(placed, ("block-2", "A7")))  # the same column as block 1
    assert answer.reason == ("block 2 on A7: a block on A3 shares its row or column with A7: one block per row "
                             "and column")
    zero = GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3))), "roll red 0")
    answer = GAME.reconcile(zero, seen_after(zero, ("red-j1", "A1", "E")))  # off the pad, but facing east
    assert answer.reason == ("red jeep 1 came onto A1 facing east: a character comes off the pad facing north, "
                             "away from its player's edge; turn it to face north")
    assert GAME.reconcile(zero, seen_after(zero, ("red-j1", "A1", "N"))).choices[0].actions == ("enter red-j1 A1",)
    rolled = GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3))), "roll red 3")
    answer = GAME.reconcile(rolled, seen_after(rolled, ("red-j2", "B1", "N")))  # off the pad without a 0
    assert answer.reason == "red jeep 2 on B1: red jeep 2 comes off the pad only as the option of a rolled 0, " \
                            "or when red's island is empty"


def test_the_board_page_says_what_the_turn_still_owes_and_words_its_buttons_as_choices():
    ready = armies_down(blocks_down(GAME.new_game(2, seed=3)))
    zero = GAME.apply(ready, "roll red 0")
    view = GAME.view(zero)
    assert view["end_turn"] is False and view["turn_ends"] == (
        "Red rolled a 0: choose one: bring a character in from the pad at the table: put red jeep 1 on A1 or red "
        "jeep 2 on B1 or red jeep 3 on C1 or red tank 1 on D1 or red tank 2 on E1 facing north; or move the pad with "
        "the next roll (a button above); or turn a character on the spot (a button above)")  # B1's block stops nobody
    labels = [t["label"] for t in view["turn_actions"]]
    assert labels[0] == "Move the pad with the next roll" and "Turn red soldier 1 on the spot to face west" in labels
    owed = GAME.view(GAME.apply(GAME.apply(zero, "turn red-s5 E"), "roll red 4"))["turn_ends"]
    assert owed == "Red: move red soldier 5 four squares; it turns only on its last pip"
    stuck = GAME.apply(GAME.apply(zero, "turn red-s1 W"), "roll red 4")  # B2 facing west: the edge is near
    assert GAME.view(stuck)["turn_ends"] == "Red soldier 1 cannot use the 4: the move is lost; end the turn"
    sliding = GAME.apply(GAME.apply(zero, "pad red"), "roll red 2")
    assert GAME.view(sliding)["turn_ends"] == ("Red slides the pad two squares along the edge at the table: its "
                                               "centre against column A or E")
    assert {cell: [c.actions[0] for c in ways] for cell, ways in GAME.targets(sliding, "pad-red").items()} == {
        "rail-red-A": ["slide red A"], "rail-red-E": ["slide red E"]}  # or tapped on the Board page
    assert GAME.view(GAME.new_game(2, seed=3))["turn_ends"].startswith("Red places a block at the table")


def test_a_safe_block_shot_is_said_the_log_names_a_player_once_and_the_island_has_rulers():
    fresh = GAME.new_game(2, seed=3)
    safe = sorted(set(BLOCKS) - fresh.live)[0]  # the companion's secret, read here to aim at a safe block
    squares = ("D4", "A5", "B6", "C7", "E8", "F9", "G10", "H3", "I1", "J12")  # one per row and column
    state = fresh
    for block, square in zip([safe] + [b for b in BLOCKS if b != safe], squares, strict=True):
        state = GAME.apply(state, f"block {state.player} {block} {square}")
    assert GAME.view(state)["to_place"] == {"red": 10, "blue": 10}  # "To place" during the setup
    state = armies_down(state)
    shot = GAME.apply(state, "shoot red-s3 D4")  # red's soldier on D2 aims two ahead
    number = safe.rpartition("-")[2]
    assert GAME.view(shot)["log"][-1] == f"red soldier 3 shoots at D4: block {number} was safe"
    assert GAME.view(shot)["blast"] == f"Block {number} was safe: nothing happened"
    assert GAME.view(shot)["log"][10] == "red puts soldier 1 on B2 facing north"  # not "red puts red soldier 1"
    assert GAME.declaration.to_json()["clear"] == "take them off the board"  # a block set off is never turned over
    assert GAME.layout().cells["E5"].to_json()["column"] == "E" and GAME.layout().cells["E5"].to_json()["row"] == "5"


def at_the_table(tmp_path: Path, state: IslandState) -> Session:
    """A session whose camera sees the table as the game has it."""
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=GAME)
    session.start(state, verify=False)
    session.on_stable_change(GAME.expected(state))
    return session


def test_two_characters_set_down_in_one_picture_are_both_placings_in_the_order_of_the_turns(tmp_path: Path):
    """Blue puts a soldier down a moment after red, before the camera settles on red's: one picture
    holds both. Red places first (it is red's turn), so the picture is red's placing, then blue's."""
    state = blocks_down(GAME.new_game(2, seed=1))
    both = seen_after(state, ("blue-s1", "C11", "S"), ("red-s1", "C2", "N"))
    [reading] = GAME.reconcile(state, both).choices
    assert reading.actions == ("deploy red red-s1 C2 N", "deploy blue blue-s1 C11 S")
    assert reading.summary == ("red puts red soldier 1 on C2 facing north, then blue puts blue soldier 1 on C11 "
                               "facing south")
    session = at_the_table(tmp_path, state)
    session.on_stable_change(both)
    assert session.status.out_of_sync is None  # the panel stays calm: both placings are in the log
    assert session.state.history[-2:] == reading.actions
    two_of_red = seen_after(state, ("red-s1", "C2", "N"), ("red-s2", "D2", "N"))
    assert GAME.reconcile(state, two_of_red).reason == ("red puts red soldier 1 on C2 facing north, then red soldier 2 "
                                                        "on D2: it is blue's turn, not red's")  # one placing each in turn


def test_a_correction_is_the_table_s_whoever_s_turn_it_is(tmp_path: Path):
    """Red's soldier is shifted by hand during blue's turn to place; accepting the board logs the
    correction as the table's, naming the piece and where it went, never as blue's doing."""
    state = GAME.apply(blocks_down(GAME.new_game(2, seed=1)), "deploy red red-s1 C2 N")
    session = at_the_table(tmp_path, state)
    session.on_stable_change(seen_after(state, ("red-s1", "D2", "N")))  # not blue's placing: a disagreement
    assert session.status.out_of_sync is not None and session.status.out_of_sync.reason == (
        "red soldier 1 on D2: it was put on C2 already, and a piece placed stays where it was put; put it back on C2")
    [says] = session.preview_correction()["says"]
    assert says == "The table was corrected by hand: red soldier 1 on D2, not C2", says
    session.accept_correction()
    view = GAME.view(session.state)
    with_corrections(view, session.snapshot().corrected)
    assert view["log"][-1] == says and view["active"] == "blue"  # still blue's turn to place


def test_a_move_no_rule_allows_is_refused_with_the_one_rule_it_breaks():
    rolled = GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3))), "roll red 3")  # red's soldiers on row 2

    def refused(*moved: str) -> str | None:
        return GAME.reconcile(rolled, seen_after(rolled, tuple(moved))).reason  # type: ignore[arg-type]
    assert refused("red-s3", "D1") == ("red soldier 3 on D1: a character moves straight ahead only (this one faces "
                                       "north), never backwards or sideways")
    assert refused("red-s3", "E4").startswith("red soldier 3 on E4: a turn before the last pip: ")
    assert refused("red-s3", "D6") == ("red soldier 3 on D6: 4 squares ahead: more squares than the 3; the 3 takes "
                                       "a character exactly 3 squares ahead, or 2 and a quarter turn with the last pip")
    assert refused("red-s3", "D3", "E").startswith("red soldier 3 on D3: 1 square ahead: not every pip used; ")
    assert refused("red-s3", "D5", "E") == ("red soldier 3 on D5: 3 squares and a turn: the turn is the last pip, so "
                                            "a character that turns stops 2 squares ahead")
    assert refused("red-s3", "D4", "S").startswith("red soldier 3 on D4: a turn right round")
    two = GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3))), "roll red 2")
    assert GAME.reconcile(two, seen_after(two, ("red-s3", "D4", "E"))).reason.endswith("stops 1 square ahead")
    with pytest.raises(IllegalMoveError, match="D13 is off the island"):  # entered on the panel
        GAME.apply(rolled, "move red-s3 D2 D13 N")
    blocked = GAME.apply(rolled, "correct red red-s5@G2:N,blue-s3@D4:S")  # before block 4 on G4, and before D2
    assert GAME.reconcile(blocked, seen_after(blocked, ("red-s5", "G5", "N"))).reason == \
        "red soldier 5 on G5: over block 4 on G4: a character never moves through a block"
    assert GAME.reconcile(blocked, seen_after(blocked, ("red-s3", "D5", "N"))).reason == \
        "red soldier 3 on D5: through blue soldier 3 on D4: a character never moves through another"


def test_a_die_on_the_table_is_read_only_when_the_players_chose_to_throw_one():
    """By default the companion rolls: the die is then no piece of the game, so the camera's layout
    leaves it out (its markers are not read) and the simulated table's box offers none; a die thrown
    into the tray beside a companion's roll never turns the table red. With die=table it is a piece
    of the layout, each face its own marker, and the face up in the tray is the roll."""
    rolled_by_the_companion = GAME.new_game(2, seed=3)
    thrown_at_the_table = GAME.new_game(2, seed=3, options="die=table")
    assert "die" not in GAME.layout(rolled_by_the_companion).pieces
    die = GAME.layout(thrown_at_the_table).pieces["die"]
    assert len(die.faces) == 6 and "die" in GAME.layout().pieces  # the stickers are printed for both
    assert "die" not in {p.partition("^")[0] for ps in GAME.expected(rolled_by_the_companion).values() for p in ps}
