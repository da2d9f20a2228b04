"""Battle for the Island at the table: moving and turning, the die's 0, exact shots, blocks, chains,
a player who cannot move, the empty island, and the win.

Squares are named like a chess board seen from red's seat: A1 is red's left corner, L12 the far
right one of the 12 x 12 island. Red sits south and its characters come on facing north (towards
row 12); blue sits north. Soldiers (``-s``) hit exactly 2 squares ahead, jeeps (``-j``) 3, tanks
(``-t``) 4. Red's pad starts against A1-E1 (centre C1), blue's against L12-H12 (centre J12).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from types import MappingProxyType

import pytest

from companion.errors import IllegalMoveError, NotationError, StateFormatError
from companion.games.island_battle.actions import Move, Shoot
from companion.games.island_battle.grid import ALL_CHARACTERS, BLOCKS, LETTERS
from companion.games.island_battle.rules import (apply, companion_roll, legal_actions, new_game, outcome,
                                                 parse_action)
from companion.games.island_battle.state import GONE, IslandState, from_json, public, to_json


def table(turn: str = "red", stage: str = "roll", roll: int | None = None, blocks: str = "",
          **at: str) -> IslandState:
    """An island as the story sets it: characters named (``red_s1="C3 N"``, ``blue_t1="pad2"``) where
    it says, every other character gone; blocks listed as ``E5:live G7:safe``."""
    where = {c: GONE for c in ALL_CHARACTERS}
    facing, places = {}, {}
    for key, spot in at.items():
        ch = key.replace("_", "-")
        if spot.startswith("pad"):
            where[ch], places[ch] = "pad", int(spot[3:])
        else:
            where[ch], facing[ch] = spot.split()
    placed = dict(zip(BLOCKS, blocks.split(), strict=False))
    live = {b for b, s in placed.items() if s.endswith(":live")}
    live |= set([b for b in BLOCKS if b not in placed][:6 - len(live)])
    state = new_game(seed=1)
    return replace(state, where=MappingProxyType(where), facing=MappingProxyType(facing),
                   places=MappingProxyType(places), live=frozenset(live),
                   blocks=MappingProxyType({b: s.split(":")[0] for b, s in placed.items()}),
                   turn=0 if turn == "red" else 1, stage=stage, roll=roll)


def act(state: IslandState, *texts: str) -> IslandState:
    for t in texts:
        state = apply(state, t)
    return state


def moves_of(state: IslandState) -> set[str]:
    return {str(a) for a in legal_actions(state) if isinstance(a, Move)}


# ------------------------------------------------------------------------------ setting up
def test_the_first_player_places_the_first_block_and_no_two_blocks_share_a_row_or_column():
    s = new_game(seed=7, start="blue")
    with pytest.raises(IllegalMoveError, match="blue's to act"):
        act(s, "block red block-1 E5")
    s = act(s, "block blue block-1 E5", "block red block-2 F7")
    with pytest.raises(IllegalMoveError, match="row or column"):
        act(s, "block blue block-3 E9")
    with pytest.raises(IllegalMoveError, match="not in the box"):
        act(s, "block blue block-1 G9")


def test_characters_go_down_in_turn_five_on_the_home_rows_then_five_on_the_pad_and_the_first_player_rolls():
    s = new_game(seed=3)
    for n, (col, row) in enumerate(zip("ABCDEFGHIJ", (3, 4, 5, 6, 7, 8, 9, 10, 11, 12))):
        s = act(s, f"block {'red' if n % 2 == 0 else 'blue'} block-{n + 1} {col}{row}")
    assert s.stage == "deploy" and s.player == "red"
    with pytest.raises(IllegalMoveError, match="rows 1 and 2"):
        act(s, "deploy red red-s1 C5 N")
    with pytest.raises(IllegalMoveError, match="before any on the pad"):
        act(s, "deploy red red-s1 pad1")
    island = ("s1", "s2", "s3", "s4", "s5")
    for n, k in enumerate(island):
        s = act(s, f"deploy red red-{k} {LETTERS[n + 1]}1 N", f"deploy blue blue-{k} {LETTERS[n + 1]}12 S")
    for n, k in enumerate(("j1", "j2", "j3", "t1", "t2")):
        s = act(s, f"deploy red red-{k} pad{n + 1}", f"deploy blue blue-{k} pad{5 - n}")
    assert s.stage == "roll" and s.player == "red" and s.places["blue-j1"] == 5
    assert {str(a) for a in legal_actions(s)} >= {f"roll red {f}" for f in range(6)}


# ------------------------------------------------------------------------------ moving
def test_a_three_goes_three_straight_on_or_two_and_a_turn_with_the_last_pip():
    s = act(table(red_s1="C3 N", blue_s1="L12 S"), "roll red 3")
    assert moves_of(s) == {"move red-s1 C3 C6 N", "move red-s1 C3 C5 W", "move red-s1 C3 C5 E"}
    s = act(s, "move red-s1 C3 C5 E")
    assert s.where["red-s1"] == "C5" and s.facing["red-s1"] == "E" and s.stage == "done"
    assert act(s, "end red").player == "blue"


def test_a_one_is_one_step_straight_on_and_never_a_turn():
    s = act(table(red_s1="C3 N", blue_s1="L12 S"), "roll red 1")
    assert moves_of(s) == {"move red-s1 C3 C4 N"}


def test_every_pip_is_used_so_a_character_near_the_edge_or_behind_another_has_fewer_ways():
    # red-s1 faces the west edge two squares away; red-j1 has its own soldier two squares ahead
    s = act(table(red_s1="C3 W", red_j1="E2 N", red_s2="E4 E", blue_s1="L12 S"), "roll red 3")
    assert {m for m in moves_of(s) if m.startswith("move red-s1")} == {"move red-s1 C3 A3 S", "move red-s1 C3 A3 N"}
    assert not {m for m in moves_of(s) if m.startswith("move red-j1")}  # E3 is free, E4 is not: no way through
    with pytest.raises(IllegalMoveError, match="every pip used"):
        act(s, "move red-s1 C3 B3 W")


def test_a_player_must_move_when_any_move_is_possible_turns_included():
    s = act(table(red_s1="A3 W", red_s2="C3 N", blue_s1="L12 S"), "roll red 2")
    with pytest.raises(IllegalMoveError, match="can still move"):
        act(s, "end red")


# ------------------------------------------------------------------------------ the 0
def test_a_0_offers_a_reinforcement_the_pad_or_a_turn_and_then_only_the_chosen_character_moves():
    s = act(table(red_s1="C3 N", red_s2="G3 N", red_j1="pad2", blue_s1="L12 S"), "roll red 0")
    offered = {str(a) for a in legal_actions(s)}
    assert {"enter red-j1 B1", "pad red", "turn red-s1 W", "turn red-s1 E", "turn red-s2 W"} <= offered
    assert not {o for o in offered if o.startswith("roll") or o.startswith("move")}
    s = act(s, "turn red-s1 E", "roll red 2")
    assert s.facing["red-s1"] == "E" and moves_of(s) == {"move red-s1 C3 E3 E", "move red-s1 C3 D3 N",
                                                          "move red-s1 C3 D3 S"}
    with pytest.raises(IllegalMoveError, match="only red-s1 may move"):
        act(s, "move red-s2 G3 I3 N")


def test_another_0_starts_the_options_again():
    s = act(table(red_s1="C3 N", red_j1="pad2", blue_s1="L12 S"), "roll red 0", "enter red-j1 B1", "roll red 0")
    assert s.stage == "options" and s.chosen is None and s.where["red-j1"] == "B1" and s.facing["red-j1"] == "N"
    s = act(s, "turn red-s1 W", "roll red 1")
    assert moves_of(s) == {"move red-s1 C3 B3 W"}


def test_the_reinforcement_then_moves_alone_with_the_next_roll():
    s = act(table(red_s1="C3 N", red_t1="pad4", blue_s1="L12 S"), "roll red 0", "enter red-t1 D1", "roll red 2")
    assert {m.split()[1] for m in moves_of(s)} == {"red-t1"}


def test_a_reinforcement_onto_a_block_lands_on_it_exactly_and_sets_it_off():
    s = act(table(red_s1="H3 N", red_j1="pad2", blue_s1="L12 S", blue_s2="A2 S", blocks="B1:live"),
            "roll red 0", "enter red-j1 B1")
    assert s.where["red-j1"] == s.where["blue-s2"] == GONE and s.revealed == {"block-1": "live"}
    assert s.stage == "roll" and s.chosen == "red-j1"  # the roll that follows has nobody to move


def test_only_an_empty_island_brings_a_character_on_without_a_0():
    s = table(red_s1="C3 N", red_j1="pad2", blue_s1="L12 S")
    with pytest.raises(IllegalMoveError, match="comes off the pad only as the option of a rolled 0, or when red's "
                                               "island is empty"):
        act(s, "enter red-j1 B1")


def test_a_reinforcement_waits_while_a_character_stands_in_front_of_its_place():
    s = act(table(red_s1="B1 E", red_j1="pad2", blue_s1="L12 S"), "roll red 0")
    assert not [a for a in legal_actions(s) if str(a).startswith("enter")]


def test_the_pad_moves_along_its_edge_by_the_next_roll_counted_from_its_centre_and_ends_the_turn():
    s = act(table(red_s1="C3 N", red_j1="pad2", blue_s1="L12 S"), "roll red 0", "pad red", "roll red 4")
    assert {str(a) for a in legal_actions(s) if not isinstance(a, Shoot)} == {"slide red G"}  # never round a corner
    s = act(s, "slide red G")
    assert s.pads[0] == 7 and s.player == "blue"
    s = act(s, "roll blue 1", "move blue-s1 L12 L11 S", "end blue", "roll red 0")
    assert "enter red-j1 F1" in {str(a) for a in legal_actions(s)}  # place 2 now lines up with F1


# ------------------------------------------------------------------------------ shooting
def test_a_shot_hits_only_exactly_at_range_straight_ahead_before_or_after_the_move():
    s = table(red_s1="C3 N", red_j1="F1 N", blue_s1="C5 S", blue_s2="F5 S", blue_t1="A3 E")
    assert {str(a) for a in legal_actions(s) if isinstance(a, Shoot)} == {"shoot red-s1 C5"}  # F5 is 4 from the jeep, not 3
    s = act(s, "shoot red-s1 C5")  # before the roll: only the intended target goes
    assert s.where["blue-s1"] == GONE and s.where["red-s1"] == "C3"
    s = act(s, "roll red 1", "move red-j1 F1 F2 N")  # now blue-s2 is exactly 3 ahead
    assert {str(a) for a in legal_actions(s) if isinstance(a, Shoot)} == {"shoot red-j1 F5"}
    with pytest.raises(IllegalMoveError, match="exact hit"):
        act(s, "shoot red-s1 C6")
    s = act(s, "shoot red-j1 F5", "end red")
    assert s.where["blue-s2"] == GONE and s.player == "blue"


def test_shooting_is_never_compulsory_and_only_in_ones_own_turn():
    s = act(table(red_s1="C3 N", blue_s1="C5 S", blue_s2="L12 S"), "roll red 1", "move red-s1 C3 C4 N", "end red")
    assert s.player == "blue" and "shoot red-s1 C6" not in {str(a) for a in legal_actions(s)}
    with pytest.raises(IllegalMoveError, match="blue's to act"):
        act(s, "shoot red-s1 C6")


def test_a_block_is_a_barricade_for_shots_and_moves_but_a_character_between_shields_nobody():
    s = table(red_t1="D2 N", red_s1="H2 N", blue_s1="D6 S", blue_s2="H4 S", blue_j1="H3 S",
              blocks="D4:safe")
    assert {str(a) for a in legal_actions(s) if isinstance(a, Shoot)} == {"shoot red-s1 H4"}
    s = act(s, "roll red 3")
    assert not {m for m in moves_of(s) if m.startswith("move red-t1")}  # D4 is in the way; D3 then turn is 2 pips
    s = act(replace(s, roll=2), "move red-t1 D2 D3 E")
    assert s.where["red-t1"] == "D3"


def test_nobody_shoots_from_the_pad_nor_at_it():
    s = table(red_s1="pad3", red_j1="L1 N", blue_s1="C3 S")
    assert not [a for a in legal_actions(s) if isinstance(a, Shoot)]
    with pytest.raises(IllegalMoveError, match="pad"):
        act(s, "shoot red-s1 C3")


# ------------------------------------------------------------------------------ blocks
def test_a_safe_block_hit_is_turned_over_and_taken_away_and_its_neighbours_stay():
    s = act(table(red_s1="E3 N", red_s2="D6 N", blue_s1="F6 S", blocks="E5:safe"), "shoot red-s1 E5")
    assert s.blocks == {} and s.revealed == {"block-1": "safe"}
    assert s.where["red-s2"] == "D6" and s.where["blue-s1"] == "F6"


def test_a_live_block_hit_takes_every_character_on_the_eight_squares_around_it_of_either_side():
    s = act(table(red_s1="E3 N", red_s2="D6 N", blue_s1="F4 S", blue_s2="G5 S", blocks="E5:live"),
            "shoot red-s1 E5")
    assert s.revealed == {"block-1": "live"} and s.where["red-s2"] == s.where["blue-s1"] == GONE
    assert s.where["red-s1"] == "E3" and s.where["blue-s2"] == "G5"  # two away: safe


def test_landing_exactly_on_a_block_sets_it_off_and_the_character_on_a_live_one_goes_with_it():
    s = act(table(red_s1="E3 N", red_j1="B2 N", blue_s1="F6 S", blue_s2="L12 S", blocks="E5:live B5:safe"),
            "roll red 2")
    assert "move red-s1 E3 E5 N" in moves_of(s) and "move red-s1 E3 E4 W" in moves_of(s)
    after = act(s, "move red-s1 E3 E5 N")
    assert after.where["red-s1"] == after.where["blue-s1"] == GONE and "block-1" not in after.blocks
    s = act(replace(s, roll=3), "move red-j1 B2 B5 N")  # a safe block: it goes, the jeep stands there
    assert s.where["red-j1"] == "B5" and s.revealed == {"block-2": "safe"}


def test_a_character_never_turns_on_a_block():
    s = act(table(red_s1="E3 N", blue_s1="L12 S", blocks="E4:safe"), "roll red 2")
    assert moves_of(s) == set()  # E4 holds a block: no stepping through it, no turning on it


def test_a_live_block_set_off_by_a_character_sets_off_its_neighbours_which_go_no_further():
    # blocks touch only corner to corner (one per row and column): E5, F6 and G7 in a diagonal
    s = table(red_s1="E3 N", red_s2="H8 W", blue_s1="G5 S", blue_s2="L12 S",
              blocks="E5:live F6:safe G7:live")
    s = act(s, "shoot red-s1 E5")
    assert s.revealed == {"block-1": "live", "block-2": "safe"} and s.blocks == {"block-3": "G7"}
    assert s.where["red-s2"] == "H8"  # G7 was not set off: the chain stops at the first ring
    s = table(red_s1="E3 N", red_s2="H8 W", blue_s1="L12 S", blocks="E5:live F6:live G7:live")
    s = act(s, "shoot red-s1 E5")
    assert s.blocks == {"block-3": "G7"} and s.where["red-s2"] == "H8"


# ------------------------------------------------------------------------------ no move, empty island
def test_a_player_who_cannot_move_ends_the_turn_and_the_opponent_may_take_one_of_their_island_characters():
    s = act(table(red_s1="A3 W", red_s2="pad1", blue_s1="L12 S", blue_s2="K12 S"), "roll red 4")
    assert {str(a) for a in legal_actions(s)} == {"end red"}
    s = act(s, "end red")
    assert s.stage == "penalty" and s.actor == "blue"
    assert {str(a) for a in legal_actions(s)} == {"remove blue red-s1", "spare blue"}
    s = act(s, "remove blue red-s1")
    assert s.where["red-s1"] == GONE and s.player == "blue" and s.stage == "roll"


def test_after_a_0_a_chosen_character_that_cannot_move_costs_the_move_but_nothing_more():
    s = act(table(red_s1="C3 N", red_s2="A3 N", blue_s1="L12 S"), "roll red 0", "turn red-s2 W", "roll red 3")
    assert {str(a) for a in legal_actions(s)} == {"end red"}
    assert act(s, "end red").player == "blue"


def test_an_empty_island_brings_one_character_on_without_a_0_then_it_rolls_as_usual():
    s = act(table(turn="blue", red_s1="pad1", red_t1="pad3", blue_s1="L12 S"), "roll blue 1",
            "move blue-s1 L12 L11 S", "end blue")
    assert s.stage == "enter" and {str(a) for a in legal_actions(s)} == {"enter red-s1 A1", "enter red-t1 C1"}
    s = act(s, "enter red-t1 C1")
    assert s.stage == "roll" and s.chosen is None and s.facing["red-t1"] == "N"


def test_when_nothing_can_come_on_the_opponent_may_take_one_from_the_pad_and_the_turn_ends():
    s = table(turn="blue", red_s1="pad1", blue_s1="A2 S", blue_s2="L12 S")
    s = act(s, "roll blue 1", "move blue-s1 A2 A1 S")  # blue-s1 now stands in front of red's place 1
    s = act(s, "end blue")
    assert s.stage == "penalty" and s.penalty == "pad" and s.actor == "blue"
    s = act(s, "remove blue red-s1")
    assert outcome(s) is not None and outcome(s).winners == ("blue",)


def test_the_last_character_gone_makes_the_other_player_ruler_of_the_island():
    s = act(table(red_s1="C3 N", blue_s1="C5 S"), "shoot red-s1 C5")
    assert outcome(s).winners == ("red",) and "rules the island" in outcome(s).reason
    assert legal_actions(s) == []
    with pytest.raises(IllegalMoveError, match="over"):
        act(s, "roll red 1")


# ------------------------------------------------------------------------------ secrets, text, files
def test_which_blocks_are_live_is_dealt_from_the_seed_and_kept_out_of_what_players_read():
    assert new_game(seed=5).live == new_game(seed=5).live and len(new_game(seed=5).live) == 6
    assert len({new_game(seed=n).live for n in range(6)}) > 1
    s = table(red_s1="E3 N", blue_s1="L12 S", blocks="E5:live")
    assert "live" not in public(s) and "live" not in json.dumps(public(s))
    assert "block-1" in to_json(s)["live"]
    assert act(s, "shoot red-s1 E5").revealed == {"block-1": "live"}


def test_the_companion_rolls_the_same_face_at_the_same_point_of_the_same_game():
    s = table(red_s1="C3 N", blue_s1="L12 S")
    assert companion_roll(s) == companion_roll(table(red_s1="C3 N", blue_s1="L12 S")) in range(6)


def test_text_that_is_no_action_is_refused_by_name():
    for bad in ("move red-s9 C3 C4 N", "roll red 6", "turn red-s1 X", "slide red M", "deploy red red-s1 pad6", ""):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_a_damaged_saved_state_is_refused_naming_what_is_wrong():
    good = to_json(table(red_s1="C3 N", blue_s1="C5 S", blocks="E5:live F6:safe"))
    assert from_json(json.loads(json.dumps(good))) == from_json(good)
    for change, words in (({"size": 10}, "size"), ({"blocks": {"block-1": "E5", "block-2": "E6"}}, "row or column"),
                          ({"live": ["block-1"]}, "live"), ({"stage": "move", "roll": None}, "roll"),
                          ({"facing": {"red-s1": "N"}}, "facing")):
        with pytest.raises(StateFormatError, match=words):
            from_json({**good, **change})


# ------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_battles_end_with_a_ruler_never_changing_a_state_and_every_action_reading_back(seed):
    rng = random.Random(seed)
    s = new_game(seed=seed, start=rng.choice(("red", "blue")))
    for _ in range(5000):
        if outcome(s) is not None:
            break
        options = legal_actions(s)
        shots = [a for a in options if isinstance(a, Shoot)]
        action = rng.choice(shots) if shots and rng.random() < 0.9 else rng.choice(options)
        assert parse_action(str(action)) == action
        before = to_json(s)
        after = apply(s, action)
        assert to_json(s) == before and after.history[-1] == str(action)
        s = after
    assert outcome(s) is not None
    assert from_json(json.loads(json.dumps(to_json(s)))) == s


def test_the_pads_five_go_down_in_any_order_by_either_player():
    """"The five island characters are placed alternately, one at a time; the pad's five in any order":
    Ada fills her pad in one go, out of order, and Bo may lay one on his meanwhile; the table's reading agrees."""
    from companion.games import get_game

    s = new_game(seed=3)
    for n, (col, row) in enumerate(zip("ABCDEFGHIJ", (3, 4, 5, 6, 7, 8, 9, 10, 11, 12))):
        s = act(s, f"block {'red' if n % 2 == 0 else 'blue'} block-{n + 1} {col}{row}")
    for n, k in enumerate(("s1", "s2", "s3", "s4", "s5")):
        s = act(s, f"deploy red red-{k} {LETTERS[n + 1]}1 N", f"deploy blue blue-{k} {LETTERS[n + 1]}12 S")
    game = get_game("island-battle")
    seen = {c: list(ps) for c, ps in game.expected(act(s, "deploy red red-j2 pad3")).items()}
    assert game.reconcile(s, seen).ok  # the camera reads red's jeep 2 on the pad's place 3: no red
    assert s.player == "red" and game.reconcile(s, {c: list(ps) for c, ps in game.expected(
        act(s, "deploy blue blue-t1 pad2")).items()}).ok  # nor Bo's tank on his pad in Ada's turn
    for k, place in (("j2", 3), ("t1", 1), ("j1", 5), ("t2", 2), ("j3", 4)):
        s = act(s, f"deploy red red-{k} pad{place}")
    assert s.stage == "deploy" and s.player == "blue"  # only Bo's pad is left to fill
    for n, k in enumerate(("j1", "j2", "j3", "t1", "t2")):
        s = act(s, f"deploy blue blue-{k} pad{n + 1}")
    assert s.stage in ("roll", "move") and s.player == "red"
