"""Battle for the Island at the table: the camera reads the way each character faces.

Red's soldier 3 stands on D2 facing north. The picture names it ``red-s3^N``; when the camera reads
the facing, a move that ends in a quarter turn is read at once, a turn on the spot after a rolled 0
is read as that turn, and a turn the rules do not allow now is refused, saying why.
"""

from __future__ import annotations

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
    from companion.sync import disagreement, misplaced

    state = battle(3)
    seen = {c: tuple(ps) for c, ps in seen_after(state, ("red-s3", "D2", "E")).items()}
    [turned] = misplaced(GAME.expected(state), seen)
    assert (turned.piece, turned.belongs, turned.seen, turned.facing) == ("red-s3", "D2", "D2", ("N", "E"))
    words = disagreement([turned], "the roll", {"red-s3": "red soldier 3"})
    assert words == "the camera sees red soldier 3 on D2 facing E where the game has it facing N (checked after the roll)"
