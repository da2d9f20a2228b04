"""Battle for the Island at the table: the camera reads the way each character faces.

Red's soldier 3 stands on D2 facing north. The picture names it ``red-s3^N``; when the camera reads
the facing, a move that ends in a quarter turn is read at once, a turn on the spot after a rolled 0
is read as that turn, and a turn the rules do not allow now is refused, saying why.
"""

from __future__ import annotations

import re

from companion.games.base import faced
from companion.games.island_battle.game import GAME
from tests.test_island_battle_game import armies_down, blocks_down, seen_after


def battle(roll: int):
    return GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3))), f"roll red {roll}")


def test_the_picture_the_camera_should_see_names_each_character_on_the_island_with_its_facing():
    state = battle(3)
    assert GAME.expected(state)["D2"] == ("red-s3^N",) and GAME.expected(state)["D11"] == ("blue-s3^S",)
    entries = [p for ps in GAME.expected(state).values() for p in ps]
    assert not [p for p in entries if p.startswith("block-") and "^" in p]  # a block faces no way
    assert GAME.expected(state)["pad-red-1"] == ("red-j1",)  # on its pad a character faces no way that counts
    assert GAME.layout(state).facings == {"N": 0.0, "W": 90.0, "S": 180.0, "E": 270.0}


def test_a_move_with_a_turn_on_its_last_pip_is_read_from_the_facing_not_asked():
    state = battle(3)
    east = GAME.reconcile(state, seen_after(state, ("red-s3", "D4", "E")))
    assert [c.actions for c in east.choices] == [("move red-s3 D2 D4 E",)] and not east.ambiguous
    west = GAME.reconcile(state, seen_after(state, ("red-s3", "D4", "W")))
    assert [c.actions for c in west.choices] == [("move red-s3 D2 D4 W",)]
    ahead = GAME.reconcile(state, seen_after(state, ("red-s3", "D5", "N")))
    assert [c.actions for c in ahead.choices] == [("move red-s3 D2 D5 N",)]
    # Set down three ahead but turned: no die roll of 3 does that.
    wrong = GAME.reconcile(state, seen_after(state, ("red-s3", "D5", "E")))
    assert not wrong.ok and wrong.offenders == ("red-s3",)
    # Where the picture does not say the facing (a move entered on the panel) the players are asked.
    unsaid = GAME.reconcile(state, seen_after(state, ("red-s3", "D4")))
    assert unsaid.ambiguous


def test_a_turn_on_the_spot_is_the_option_of_a_rolled_0_and_refused_with_the_reason_otherwise():
    zero = battle(0)
    turned = GAME.reconcile(zero, seen_after(zero, ("red-s3", "D2", "E")))
    assert [c.actions for c in turned.choices] == [("turn red-s3 E",)]
    assert turned.choices[0].summary == "red soldier 3 turns on the spot to face east"
    after = GAME.apply(zero, "turn red-s3 E")
    assert GAME.expected(after)["D2"] == ("red-s3^E",)
    # A half turn is no option of the 0.
    assert not GAME.reconcile(zero, seen_after(zero, ("red-s3", "D2", "S"))).ok

    three = battle(3)
    refused = GAME.reconcile(three, seen_after(three, ("red-s3", "D2", "E")))
    assert not refused.ok and refused.rule == "no-turn-now" and refused.offenders == ("red-s3",)
    assert refused.reason.startswith("red soldier 3 turned on D2 to face east (the game has it facing north)")
    assert "only as the option of a rolled 0" in refused.reason


def test_a_correction_takes_the_facing_the_camera_reads():
    state = battle(3)
    fix = GAME.correction(state, seen_after(state, ("red-s3", "D2", "W")))
    assert str(fix) == "correct red red-s3@D2:W"
    assert GAME.expected(GAME.apply(state, fix))["D2"] == ("red-s3^W",)



def test_a_character_seen_turned_where_it_stands_is_named_so_when_the_table_disagrees():
    from companion.table.sync import disagreement, misplaced

    state = battle(3)
    seen = {c: tuple(ps) for c, ps in seen_after(state, ("red-s3", "D2", "E")).items()}
    [turned] = misplaced(GAME.expected(state), seen)
    assert (turned.piece, turned.belongs, turned.seen, turned.facing) == ("red-s3", "D2", "D2", ("N", "E"))
    words = disagreement([turned], "the roll", {"red-s3": "red soldier 3"})
    assert words == "the camera sees red soldier 3 on D2 facing E where the game has it facing N (checked after the roll)"


# ------------------------------------------------------------------ the die in the tray, the pad's own marker
def thrown(state, face: str) -> dict[str, list[str]]:
    """The picture of ``state`` with the die lying in the tray, ``face`` up."""
    return seen_after(state, ("die", "tray", face))


def test_a_die_thrown_into_the_tray_when_a_roll_is_due_is_the_roll():
    """Ada and Bo chose die=table. The die waits off the tray until the first roll; red throws it
    and it lands 4 up: that is red's roll. Picked up again it is no change: it lies in the tray as
    the 4 left it."""
    state = armies_down(blocks_down(GAME.new_game(2, seed=3, options="die=table")))
    assert state.stage == "roll" and "tray" not in GAME.expected(state)  # not thrown yet
    read = GAME.reconcile(state, thrown(state, "4"))
    assert [c.actions for c in read.choices] == [("roll red 4",)] and read.choices[0].summary == "red rolls a 4"
    rolled = GAME.apply(state, "roll red 4")
    assert GAME.expected(rolled)["tray"] == ("die^4",)
    in_hand = {c: ps for c, ps in GAME.expected(rolled).items() if c != "tray"}  # the die in a hand
    assert GAME.hidden(rolled, in_hand) == {"die^4": "tray"}
    assert GAME.reconcile(rolled, in_hand).choices[0].summary == "nothing moved"
    # Bo's turn: a 0 thrown, a turn on the spot chosen, then a 2 thrown after it
    bo = GAME.apply(GAME.apply(rolled, "move red-s4 E2 E6 N"), "end red")
    assert [c.actions for c in GAME.reconcile(bo, thrown(bo, "0")).choices] == [("roll blue 0",)]
    turned = GAME.apply(GAME.apply(bo, "roll blue 0"), "turn blue-s3 E")
    picture = seen_after(turned, ("blue-s3", "D11", "E"), ("die", "tray", "2"))
    assert [c.actions for c in GAME.reconcile(turned, picture).choices] == [("roll blue 2",)]
    # with the companion rolling there is no die at the table: one seen in the tray counts for nothing
    own = battle(3)
    assert GAME.reconcile(own, thrown(own, "5")).choices[0].summary == "nothing moved"


def test_a_die_thrown_when_no_roll_is_due_is_a_disagreement_said_in_words():
    state = armies_down(blocks_down(GAME.new_game(2, seed=3, options="die=table")))
    rolled = GAME.apply(state, "roll red 4")
    early = GAME.reconcile(rolled, thrown(rolled, "2"))  # the 4 is not used yet
    assert not early.ok and early.rule == "no-roll-due" and early.offenders == ("die",)
    assert early.reason == ("the die was thrown when no roll is due: it shows 2 (the 4 red rolled is still to be "
                            "used); turn it back to the 4 the game has up")
    setting_up = GAME.new_game(2, seed=3, options="die=table")
    lying = GAME.reconcile(setting_up, thrown(setting_up, "3"))
    assert not lying.ok and lying.reason.endswith("(the game is still being set up); take it out of the tray until "
                                                  "the first roll is due")


def test_a_pad_slid_along_its_edge_is_read_from_its_own_marker_and_its_characters_ride_with_it():
    """Red rolls a 0, chooses the pad, then rolls a 2: the pad slides two squares. The camera sees the
    pad's handle against E instead of C; the characters on the pad, read against the pad's old
    places, seem shifted or out of sight, as on a real table. After the slide the pad's places lie
    two columns over, so the next picture finds them on their own places again."""
    state = GAME.apply(GAME.apply(battle(0), "pad red"), "roll red 2")
    assert state.stage == "slide" and GAME.expected(state)["rail-red-C"] == ("pad-red",)
    picture = seen_after(state, ("pad-red", "rail-red-E"), ("red-j1", "pad-red-3"), ("red-j2", "pad-red-4"),
                         ("red-j3", "pad-red-5"))
    picture = {c: [p for p in ps if p not in ("red-t1", "red-t2")] for c, ps in picture.items()}  # past the old end
    read = GAME.reconcile(state, picture)
    assert [c.actions for c in read.choices] == [("slide red E",)]
    assert read.choices[0].summary == "red's pad slides to column E"
    slid = GAME.apply(state, "slide red E")
    plan = GAME.layout(slid)
    assert GAME.expected(slid)["rail-red-E"] == ("pad-red",) and GAME.expected(slid)["pad-red-1"] == ("red-j1",)
    assert plan.cells["pad-red-1"].center_mm[0] == plan.cells["C1"].center_mm[0]  # two over from A
    assert plan.cells["rail-red-E"].center_mm[0] == plan.cells["E1"].center_mm[0]


def test_a_pad_moved_when_no_slide_is_due_is_named_with_where_it_belongs():
    state = battle(3)
    moved = GAME.reconcile(state, seen_after(state, ("pad-red", "rail-red-F")))
    assert not moved.ok and moved.rule == "no-slide-now" and moved.offenders == ("pad-red",)
    assert moved.reason.startswith("red's pad is seen against F, the game has it against C: a pad slides only with "
                                   "the roll after a 0's pad option")


def test_the_sticker_sheet_has_a_marker_for_each_face_of_the_die_and_one_for_each_pad(tmp_path):
    from companion.app.cli import main
    from vision.markers import sheet_items

    labels = {i.label: i.marker for i in sheet_items(GAME.layout())}
    assert [labels[f"the die, {face} face"] for face in "012345"] == [34, 35, 36, 37, 38, 39]
    assert (labels["red's pad"], labels["blue's pad"]) == (40, 41)  # a sticker by the piece's name, not its id
    assert main(["markers", "--game", "island-battle", "-o", str(tmp_path / "island.pdf")]) == 0
    pdf = (tmp_path / "island.pdf").read_bytes().decode("latin-1")
    said = " ".join(re.findall(r"\((.*?)\) Tj", pdf))  # a label wrapped to its sticker's box reads on
    assert "the die, 0 face #34" in said and "the die, 5 face #39" in said and "blue's pad #41" in said



def test_the_camera_reads_the_face_up_in_the_tray_and_each_pad_s_handle_on_its_rail():
    """A picture of the table as the simulated camera takes it: the die lies in the tray 4 up, away
    from the tray's middle as a throw leaves it, and each pad's handle lies on its rail."""
    from vision.detect import BoardDetector
    from vision.render import render_state

    state = GAME.apply(armies_down(blocks_down(GAME.new_game(2, seed=3, options="die=table"))), "roll red 4")
    plan = GAME.layout(state)
    frame = render_state(plan, GAME.expected(state), seed=0).frame
    seen = BoardDetector(plan).detect(frame)
    assert (seen.pieces["die"], seen.facing["die"]) == ("tray", "4")
    assert (seen.pieces["pad-red"], seen.pieces["pad-blue"]) == ("rail-red-C", "rail-blue-J")


# ------------------------------------------------------------------ hands quicker than the camera
def test_a_shot_and_a_move_made_before_the_camera_settles_are_read_as_both_in_the_order_played() -> None:
    """Ada rolled a 3. Her tank on E2 faces north, Bo's soldier four ahead on E6: she shoots, Bo lifts
    his soldier off, and Ada moves her tank three on to E5 before the camera has settled. The one
    picture the camera hands on (the soldier gone, the tank on E5) is the shot, then the move. On Bo's
    side of the island a jeep is lifted after Ada's soldier moved one and turned east to face it: the
    move, then the shot its new place aims at."""
    from tests.test_island_battle_rules import table

    state = table(stage="move", roll=3, red_t1="E2 N", red_s1="B5 N", blue_s1="E6 S", blue_j1="G4 W",
                  blue_t1="pad1")
    picture = {c: ps for c, ps in seen_after(state, ("red-t1", "E5", "N")).items() if c != "E6"}
    read = GAME.reconcile(state, picture)
    assert [c.actions for c in read.choices] == [("shoot red-t1 E6", "move red-t1 E2 E5 N")], read
    assert read.choices[0].summary == ("red tank 1 shoots at E6, then red tank 1 moves from E2 to E5, facing "
                                       "north")
    after = GAME.apply(GAME.apply(state, "shoot red-t1 E6"), "move red-t1 E2 E5 N")
    assert GAME.expected(after) == {c: tuple(sorted(ps)) for c, ps in picture.items()}  # in step with the table

    turning = table(stage="move", roll=2, red_s1="E3 N", blue_j1="F4 W", blue_s1="G4 S", blue_t1="pad1")
    picture = {c: ps for c, ps in seen_after(turning, ("red-s1", "E4", "E")).items() if c != "G4"}
    read = GAME.reconcile(turning, picture)
    assert [c.actions for c in read.choices] == [("move red-s1 E3 E4 E", "shoot red-s1 G4")], read
    # the soldier still standing is no disagreement: the move alone, the shot left to come
    standing = GAME.reconcile(turning, seen_after(turning, ("red-s1", "E4", "E")))
    assert [c.actions for c in standing.choices] == [("move red-s1 E3 E4 E",)]


def test_a_die_thrown_at_the_table_landing_on_the_face_it_showed_is_said_and_confirmed_on_the_panel() -> None:
    """Ada and Bo throw the die at the table. Bo's turn after Ada rolled a 4: he throws a 4 too. The
    camera sees the tray as it was, so nothing tells the companion he threw; it says the die shows 4
    as before, and the Board page offers Bo to confirm he threw 4 again. Confirmed, it is his roll and
    the table still agrees with the game."""
    state = armies_down(blocks_down(GAME.new_game(2, seed=3, options="die=table")))
    assert not [a for a in GAME.view(state)["turn_actions"] if a["action"].startswith("roll red ")]  # no face yet
    bo = GAME.apply(GAME.apply(GAME.apply(state, "roll red 4"), "move red-s4 E2 E6 N"), "end red")
    assert GAME.reconcile(bo, thrown(bo, "4")).choices[0].summary == "nothing moved"
    view = GAME.view(bo)
    assert view["rolled"] == "Blue to roll; the die shows 4 as before: if you threw 4 again, confirm"
    [again] = [a for a in view["turn_actions"] if a["action"] == "roll blue 4"]
    assert again["label"] == "Blue threw 4 again" and again["confirm"].startswith("The die shows 4 as before")
    rolled = GAME.apply(bo, again["action"])
    assert rolled.stage == "move" and rolled.roll == 4 and GAME.expected(rolled) == GAME.expected(bo)
    assert not [a for a in GAME.view(rolled)["turn_actions"] if a["action"].startswith("roll ")]  # no roll due
    # with the companion rolling there is no die at the table to have thrown
    assert not [a for a in GAME.view(battle(3))["turn_actions"] if a["action"].startswith("roll ")]


def test_a_character_set_down_on_a_live_block_is_read_as_the_move_that_set_it_off() -> None:
    """Ada's tank moves three on to E5, where a live block stands: her hand sets it down there, and the
    blast takes it, the block and Bo's soldier next to it. The picture with the tank on the block is
    that move; the players then lift the three off."""
    from tests.test_island_battle_rules import table

    state = table(stage="move", roll=3, red_t1="E2 N", blue_s1="E6 S", blue_t1="pad1", blocks="E5:live")
    read = GAME.reconcile(state, seen_after(state, ("red-t1", "E5", "N")))
    assert [c.actions for c in read.choices] == [("move red-t1 E2 E5 N",)]
    blasted = GAME.apply(state, "move red-t1 E2 E5 N")
    assert {"red-t1", "blue-s1", "block-1"} <= set(GAME.taken_off(blasted))


# ------------------------------------------------------------------ the pad that moves, the camera following it
def test_riders_read_against_the_pad_s_old_places_count_on_their_own_till_the_camera_follows() -> None:
    """Red's pad slid from C to E with three jeeps and two tanks on it. Till the camera reads with the
    new layout it reads them against the old places: two places on, the tanks off the end. Those are
    the riders on their own places, and the table agrees with the game at once. So does a table whose
    pad the hands have not slid yet when the slide was entered on the panel (the camera reading the
    new places); a jeep a hand set on another place of the pad is not riding, and is seen so."""
    from companion.table.sync import strip

    def read(state, *moves):  # the picture with those moves made, a piece moved "off" read on no place
        picture = seen_after(state, *moves)
        return strip(GAME, state, {c: tuple(sorted(ps)) for c, ps in picture.items() if c != "off"})[0]

    state = GAME.apply(GAME.apply(GAME.apply(battle(0), "pad red"), "roll red 2"), "slide red E")
    state = GAME.apply(state, GAME.forced_action(state))  # the companion rolls for blue
    old = read(state, ("red-j1", "pad-red-3"), ("red-j2", "pad-red-4"), ("red-j3", "pad-red-5"),
               ("red-t1", "off"), ("red-t2", "off"))
    assert old == GAME.expected(state)
    not_yet = read(state, ("pad-red", "rail-red-C"), ("red-j3", "pad-red-1"), ("red-t1", "pad-red-2"),
                   ("red-t2", "pad-red-3"), ("red-j1", "off"), ("red-j2", "off"))
    assert {c: ps for c, ps in not_yet.items() if not c.startswith("rail")} == \
        {c: ps for c, ps in GAME.expected(state).items() if not c.startswith("rail")}
    shuffled = read(state, ("red-j1", "pad-red-2"), ("red-j2", "pad-red-1"))
    assert shuffled["pad-red-2"] == ("red-j1",)  # nothing the slide explains: left as seen


def test_a_pad_slid_with_its_riders_is_read_then_the_camera_reads_its_new_places(tmp_path) -> None:
    """Ada rolled a 0, chose the pad and rolled a 2. At the simulated table (the real detector, frame by
    frame) her hands slide the pad two squares with its five characters riding it. The camera, still
    reading the pad's old places, sees the jeeps two places on and the tanks off any place: that is the
    slide, never red. The companion's camera then follows the new layout and finds every rider on its
    own place (taken back on the panel and slid again, it is followed both ways, calmly). Bo
    throws a 1 and moves a soldier; Ada throws a 0 and sets her jeep from place 1 of the
    pad on C1, the square in front of that place now: the reinforcement is read."""
    from tests.tables import FrameByFrame

    start = GAME.apply(GAME.apply(GAME.apply(armies_down(blocks_down(GAME.new_game(
        2, seed=3, options="die=table"))), "roll red 0"), "pad red"), "roll red 2")
    with FrameByFrame(tmp_path, "island-battle", start) as at:
        session, camera, source, frames, kinds = at.session, at.camera, at.source, at.frames, at.kinds
        frames(6)
        assert not session.status.verifying and session.state == start
        slid = GAME.layout(GAME.apply(start, "slide red E"))
        source.set_board(slid, moved_parts=True)  # the hands slide the pad, its riders with it
        camera.move_piece("pad-red", "rail-red-E")
        seen = camera.observer.observe(source.read())  # what the camera, reading the old places, sees
        assert (seen.pieces["red-j1"], seen.pieces["red-j3"]) == ("pad-red-3", "pad-red-5")
        assert "red-t1" not in seen.pieces and "red-t2" not in seen.pieces
        frames(8)
        assert session.state.pads[0] == 3 + 2 and session.state.history[-1] == "slide red E"
        assert camera.board is slid and "out-of-sync" not in kinds  # the camera follows; never red
        assert camera.stable_placement()["pad-red-1"] == ("red-j1",)  # read on its own place now
        assert session.status.out_of_sync is None and session.last_picture == session.expected()
        session.undo()  # taken back on the panel, the pad not slid back yet: calm, and not read again
        frames(8)
        assert camera.board is GAME.layout(start) and session.state == start and session.status.step is not None
        camera.move_piece("pad-red", "rail-red-C")  # the hands put it back
        frames(6)
        assert session.status.step is None and session.last_picture == session.expected()
        source.set_board(slid, moved_parts=True)  # and slide it again: read again, followed again
        camera.move_piece("pad-red", "rail-red-E")
        frames(8)
        assert session.state.history[-1] == "slide red E" and camera.board is slid
        assert session.last_picture == session.expected() and "out-of-sync" not in kinds

        camera.move_piece("die", "tray", "1")
        frames(6)
        assert session.state.history[-1] == "roll blue 1"
        camera.move_piece("blue-s1", "B10", "S")
        frames(6)
        assert session.state.history[-1] == "move blue-s1 B11 B10 S"
        session.end_turn("button")
        camera.move_piece("die", "tray", "0")
        frames(6)
        assert session.state.stage == "options", session.state.history[-3:]
        camera.move_piece("red-j1", "C1", "N")
        frames(6)
        assert session.state.history[-1] == "enter red-j1 C1", session.state.history[-3:]
        assert "out-of-sync" not in kinds and session.status.out_of_sync is None


# ------------------------------------------------------------------ characters set down on the pads facing a way
def _faced_on_the_pads(state) -> dict[str, list[str]]:
    """The table as the game has it, each character on a pad set down facing towards the island, as
    hands set it down and the camera reads it (the game keeps no facing there)."""
    return {c: [faced(p, "N" if c.startswith("pad-red") else "S") if c.startswith("pad-") else p for p in ps]
            for c, ps in GAME.expected(state).items()}


def test_a_character_set_down_on_its_pad_facing_a_way_is_read_calmly_as_the_placing(tmp_path) -> None:
    """Ada and Bo have five characters each on the island. Ada takes her jeep from its box and sets it
    on place 1 of her pad facing north; the camera reads it so. It is her placing, and the panel
    stays calm: the game keeps no facing on a pad, so the facing read is no difference. Bo's jeep set
    on his pad facing south is his. Nothing red is ever said, and nothing is left to do."""
    from tests.test_island_battle_game import at_the_table

    state = blocks_down(GAME.new_game(2, seed=1))
    for k, square in enumerate("BCDEF", start=1):
        state = GAME.apply(GAME.apply(state, f"deploy red red-s{k} {square}2 N"), f"deploy blue blue-s{k} {square}11 S")
    session = at_the_table(tmp_path, state)
    kinds: list[str] = []
    session.bus.subscribe(lambda e: kinds.append(e.kind))
    session.on_stable_change(seen_after(state, ("red-j1", "pad-red-1", "N")))
    assert session.state.history[-1] == "deploy red red-j1 pad1"
    assert session.status.out_of_sync is None and session.status.step is None
    session.on_stable_change(seen_after(session.state, ("red-j1", "pad-red-1", "N"), ("blue-j1", "pad-blue-1", "S")))
    assert session.state.history[-1] == "deploy blue blue-j1 pad1"
    assert session.status.out_of_sync is None and session.status.step is None and "out-of-sync" not in kinds


def test_a_move_entered_on_the_panel_with_characters_facing_a_way_on_the_pads_is_a_calm_step(tmp_path) -> None:
    """The armies are down, the characters on the pads set down facing the island. Ada rolled a 3 and
    taps her soldier's dot on the Board page: to D4 facing east. The table has not moved yet: a calm
    step saying what the hands do. Rolled a 0 instead, she brings her jeep off the pad onto A1 on the
    panel: calm too, and once her hand sets it there the table agrees with the game."""
    from tests.test_island_battle_game import at_the_table

    three = battle(3)
    session = at_the_table(tmp_path / "three", three)
    session.on_stable_change(_faced_on_the_pads(three))
    assert session.status.out_of_sync is None and session.status.step is None
    session.move("red-s3", "D4", "move red-s3 D2 D4 E")
    assert session.status.out_of_sync is None and session.status.step is not None
    assert session.status.step.says.startswith("entered on the panel, now on the table: "), session.status.step.says
    assert "red soldier 3" in session.status.step.says

    zero = battle(0)
    session = at_the_table(tmp_path / "zero", zero)
    table = _faced_on_the_pads(zero)
    session.on_stable_change(table)
    session.move("red-j1", "A1", "enter red-j1 A1")
    assert session.status.out_of_sync is None
    assert session.status.step is not None and session.status.step.says == \
        "entered on the panel, now on the table: put red jeep 1 on A1"
    table["pad-red-1"] = []
    table["A1"] = ["red-j1^N"]
    session.on_stable_change(table)
    assert session.status.out_of_sync is None and session.status.step is None


def test_a_move_entered_on_the_board_page_tells_the_hands_the_way_it_ends_facing():
    """The report: a turn tapped on the Board page ("to D3 facing east") told the hands only "put red
    soldier 2 on D3", then blamed them for the way they set it down. The way is part of what to do."""
    from companion.table.steps_said import to_follow
    from companion.table.sync import Misplaced

    said = to_follow([Misplaced("red-s2", "D3", "D2", ("E", "N"))], GAME.words(GAME.new_game(2, seed=3)))
    assert said == "entered on the panel, now on the table: put red soldier 2 on D3 to face east", said


def test_a_move_entered_on_the_board_page_onto_a_block_is_a_calm_step_while_the_block_still_stands(tmp_path) -> None:
    """Ada taps her soldier 3 to D5, where block 4 stands: landed on, the block is set off (a safe one:
    it goes, her soldier stays on D5). The table has not moved yet and the block still stands there: the
    rules took it, a chore for the hands, no sign that they did anything else. A calm step saying what
    the hands do, never red; once they have made it, the table agrees."""
    from tests.test_island_battle_game import at_the_table

    state = GAME.apply(battle(3), "correct red block-4@D5,block-5@G4")
    assert "block-4" not in state.live
    session = at_the_table(tmp_path, state)
    session.move("red-s3", "D5", "move red-s3 D2 D5 N")
    assert "block-4" in GAME.taken_off(session.state) and GAME.expected(session.state)["D5"] == ("red-s3^N",)
    assert session.status.out_of_sync is None and session.status.step is not None, session.status.out_of_sync
    assert "put red soldier 3 on D5" in session.status.step.says, session.status.step.says
    session.on_stable_change(GAME.expected(session.state))  # the hands made it: the block lifted, the soldier on D5
    assert session.status.out_of_sync is None and session.status.step is None


def test_no_play_is_stacked_on_a_table_that_differs_from_the_game(tmp_path) -> None:
    """The report: the Board page took block after block while the hands had placed none, and the next
    picture blamed them for all. A block tapped before the hands made the last one is theirs to make
    too, calm; a play pressed meanwhile waits, saying what to make first; once the table and the game
    disagree, nothing more is taken (put back, accept or correct)."""
    import pytest

    from companion.errors import OutOfSyncError
    from tests.test_island_battle_game import at_the_table

    state = GAME.new_game(2, seed=3)
    session = at_the_table(tmp_path, state)
    session.move("block-1", "A1", "block red block-1 A1")
    assert session.status.step is not None and session.status.out_of_sync is None
    with pytest.raises(OutOfSyncError, match=r"not show the last change yet \(.*put block 1 on A1\): make it there"):
        session.act("block blue block-2 B2")  # pressed, not tapped on the board: it waits
    assert session.state.history == ("block red block-1 A1",)
    session.move("block-2", "B2", "block blue block-2 B2")  # tapped on the board: the hands make both
    assert session.status.step is not None and session.status.out_of_sync is None
    assert "block 2" in session.status.step.says and "block 1" in session.status.step.says, session.status.step.says
    session.undo()
    seen = {c: list(ps) for c, ps in GAME.expected(state).items()}
    seen["B5"] = seen.pop("box-blocks-2")  # a block set down where no rule allows it: out of sync
    session.on_stable_change(seen)
    assert session.status.out_of_sync is not None
    with pytest.raises(OutOfSyncError, match="put the pieces back, accept the board as it is, or correct a piece"):
        session.move("block-3", "C3", "block blue block-3 C3")
    assert session.state.history == ("block red block-1 A1",)
