"""Battle for the Island, a move made in parts: the camera settles while a hand is still at work.

Ada plays red, Bo blue. Ada rolled a 3 and lifts her soldier 3 off D2: for a moment the camera
sees D2 empty and the soldier nowhere. She walks it up the column and rests it on D3, then sets it
down on D4 turned east with the last pip. Each of those pictures is part-way through a legal move
of the player to move: the companion waits calmly (a step) and says what is left, never red. The
move once finished is read and logged; a move no roll allows is still refused in the game's words.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.games.base import Reconciliation, unfaced
from companion.games.island_battle.game import GAME
from companion.games.island_battle.state import IslandState
from tests.test_island_battle_game import armies_down, at_the_table, blocks_down, seen_after


def battle(roll: int, options: str = "") -> IslandState:
    seats = [{"name": "Ada", "colours": ["red"]}, {"name": "Bo", "colours": ["blue"]}]
    state = armies_down(blocks_down(GAME.new_game(2, seed=3, seats=seats, options=options)))
    return GAME.apply(state, f"roll red {roll}")


def lifted(state: IslandState, *pieces: str) -> dict[str, list[str]]:
    """The picture of ``state`` with ``pieces`` in a hand: seen nowhere."""
    picture = {c: [p for p in ps if unfaced(p)[0] not in pieces] for c, ps in GAME.expected(state).items()}
    return {c: ps for c, ps in picture.items() if ps}


def a_calm_step(answer: Reconciliation) -> bool:
    return answer.part_way and answer.reason is None and not answer.offenders and not answer.choices


def test_a_soldier_lifted_rested_on_its_way_and_set_down_is_two_calm_steps_then_the_move() -> None:
    three = battle(3)
    in_hand = GAME.reconcile(three, lifted(three, "red-s3"))
    assert a_calm_step(in_hand) and in_hand.to_move == ("red-s3",)
    assert in_hand.step == "Ada's red soldier 3 is in a hand: set it down where its move ends"

    on_its_way = GAME.reconcile(three, seen_after(three, ("red-s3", "D3", "N")))
    assert a_calm_step(on_its_way) and on_its_way.to_move == ("red-s3",)
    assert on_its_way.step == "Ada's red soldier 3 rests on D3 on its way: finish its move"
    # Two squares up and not turned yet: the last pip may still turn it (or it goes on to D5).
    assert a_calm_step(GAME.reconcile(three, seen_after(three, ("red-s3", "D4", "N"))))

    done = GAME.reconcile(three, seen_after(three, ("red-s3", "D4", "E")))
    assert [c.actions for c in done.choices] == [("move red-s3 D2 D4 E",)] and not done.part_way


def test_a_move_no_roll_allows_is_still_refused_in_the_game_s_words_not_taken_for_a_step() -> None:
    three = battle(3)
    turned_too_far = GAME.reconcile(three, seen_after(three, ("red-s3", "D5", "E")))
    assert not turned_too_far.ok and not turned_too_far.part_way and turned_too_far.offenders == ("red-s3",)
    assert turned_too_far.reason == ("Ada's red soldier 3 on D5: 3 squares and a turn: the turn is the last pip, so a "
                                     "character that turns stops 2 squares ahead")
    sideways = GAME.reconcile(three, seen_after(three, ("red-s3", "C2", "N")))
    assert not sideways.ok and not sideways.part_way
    assert "moves straight ahead only" in str(sideways.reason)
    # Bo's soldier carried off in Ada's turn is nothing Ada's move does: never a step, and said whose turn it is.
    for theirs in (GAME.reconcile(three, seen_after(three, ("blue-s3", "D9", "S"))),
                   GAME.reconcile(three, lifted(three, "blue-s3"))):
        assert not theirs.ok and not theirs.part_way and theirs.offenders == ("blue-s3",) and theirs.rule == "turn"
        assert theirs.reason == "it is Ada's turn, not Bo's: put Bo's blue soldier 3 back on D11"


def test_a_character_that_has_moved_lifted_again_is_no_step_once_the_move_is_made() -> None:
    moved = GAME.apply(battle(3), "move red-s3 D2 D4 E")
    again = GAME.reconcile(moved, lifted(moved, "red-s3"))
    assert not again.ok and not again.part_way and again.offenders == ("red-s3",)


def test_a_reinforcement_off_the_pad_after_a_0_is_in_a_hand_then_read_where_it_lands() -> None:
    zero = battle(0)
    in_hand = GAME.reconcile(zero, lifted(zero, "red-j1"))
    assert a_calm_step(in_hand) and in_hand.to_move == ("red-j1",)
    landed = GAME.reconcile(zero, seen_after(zero, ("red-j1", "A1", "N")))
    assert [c.actions for c in landed.choices] == [("enter red-j1 A1",)]


def test_a_jeep_carried_onto_a_block_s_square_says_nothing_of_whether_the_block_is_live() -> None:
    """Block 2 stands on B1, straight in front of Ada's jeep 2 on the pad. Nobody at the table knows
    whether it is live: the companion must not tell it by how it takes a jeep in a hand."""
    zero = battle(0)
    block = next(b for b, square in zero.blocks.items() if square == "B1")
    for live in (zero.live | {block}, zero.live - {block}):
        table = replace(zero, live=frozenset(live))
        in_hand = GAME.reconcile(table, lifted(table, "red-j2"))
        assert a_calm_step(in_hand) and in_hand.to_move == ("red-j2",)
        assert in_hand.step == "Ada's red jeep 2 is in a hand: set it down where its move ends"
        landed = GAME.reconcile(table, seen_after(table, ("red-j2", "B1", "N")))
        assert [c.actions for c in landed.choices] == [("enter red-j2 B1",)]


def test_a_pad_slid_along_its_edge_rests_on_a_column_on_its_way() -> None:
    sliding = GAME.apply(GAME.apply(battle(0), "pad red"), "roll red 3")
    for column in "DE":
        on_its_way = GAME.reconcile(sliding, seen_after(sliding, ("pad-red", f"rail-red-{column}")))
        assert a_calm_step(on_its_way) and on_its_way.to_move == ("pad-red",)
        assert on_its_way.step == f"Ada's pad rests against column {column} on its way: slide it on"
    there = GAME.reconcile(sliding, seen_after(sliding, ("pad-red", "rail-red-F")))
    assert [c.actions for c in there.choices] == [("slide red F",)]


def test_a_die_thrown_at_the_table_and_a_soldier_on_its_way_wait_for_the_move_then_both_are_read() -> None:
    rolling = armies_down(blocks_down(GAME.new_game(2, seed=3, options="die=table")))
    assert rolling.stage == "roll"
    on_its_way = GAME.reconcile(rolling, {**seen_after(rolling, ("red-s3", "D3", "N")), "tray": ["die^3"]})
    assert a_calm_step(on_its_way) and on_its_way.to_move == ("red-s3",)
    both = GAME.reconcile(rolling, {**seen_after(rolling, ("red-s3", "D5", "N")), "tray": ["die^3"]})
    assert [c.actions for c in both.choices] == [("roll red 3", "move red-s3 D2 D5 N")]


def test_at_the_table_the_panel_stays_calm_while_the_soldier_is_carried_and_logs_the_move(tmp_path: Path) -> None:
    three = battle(3)
    session = at_the_table(tmp_path, three)
    kinds: list[str] = []
    session.bus.subscribe(lambda e: kinds.append(e.kind))
    session.on_stable_change(lifted(three, "red-s3"))
    assert session.status.out_of_sync is None and session.status.step is not None
    assert session.status.step.to_move == ("red-s3",) and "in a hand" in session.status.step.says
    session.on_stable_change(seen_after(three, ("red-s3", "D3", "N")))
    assert session.status.out_of_sync is None and session.status.step is not None
    session.on_stable_change(seen_after(three, ("red-s3", "D4", "E")))
    assert session.state.history[-1] == "move red-s3 D2 D4 E"
    assert session.status.out_of_sync is None and session.status.step is None
    assert "out-of-sync" not in kinds and kinds.count("step") >= 2
