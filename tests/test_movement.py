"""Movements at the table (rulebook section 5 and option 6.2), one story per rule.

Cells are named relative to each other: ``nb(c, "NW")`` is the hex forwards-left of ``c``
(towards the boats), ``"E"``/``"W"`` sideways, ``"SE"``/``"SW"`` backwards. Black moves first.
Characteristics of the standard tokens used here: blue-elder-1 jump, blue-elder-2 cross,
blue-leader-1 push, blue-warrior-1 squeeze, blue-warrior-2 all-rounder, blue-warrior-3 endurance,
blue-sailor-2 jump, green-elder-2 jump, red-warrior-2 cross, green-sailor-2 push.
"""

from __future__ import annotations

import pytest

from companion.errors import IllegalMoveError
from companion.games.fog import rules
from companion.games.fog.legality import apply_move, is_legal, legal_movements
from companion.games.fog.movement import MoveAction, Movement
from companion.games.fog.state import GameState
from tests.tables import nb, position

E = "E4"  # a hex in the middle of row E


def move(state: GameState, *texts: str) -> GameState:
    return apply_move(state, MoveAction(tuple(Movement.parse(t) for t in texts)))


def spent(before: GameState, after: GameState) -> int:
    return before.mp_left - after.mp_left


# ------------------------------------------------------------------------------------ notation
def test_a_movement_reads_back_from_its_text():
    for text in ("run blue-sailor-2 C3>D3", "push+ blue-leader-1 E4>F4/NE", "jump green-elder-2 C3>D3>E3",
                 "board red-elder-1 P1-3>green-AR", "endurance blue-warrior-3 D3>D4", "drive-off x S1>blue-stern"):
        m = Movement.parse(text)
        assert str(m) == text and Movement.parse(str(m)) == m
    action = MoveAction.parse("move jump+ a C3>D3>E3; run a E3>E4")
    assert MoveAction.parse(str(action)) == action


# ------------------------------------------------------------------------------------ beach: run, swap
def test_run_one_field_in_any_direction_for_1_mp_even_backwards():
    state = position({E: "blue-elder-1"}, {"blue-elder-1": "black"})
    for d in ("NW", "NE", "E", "W", "SE", "SW"):
        after = move(state, f"run blue-elder-1 {E}>{nb(E, d)}")
        assert after.where["blue-elder-1"] == nb(E, d) and spent(state, after) == 1


def test_a_run_never_ends_on_an_islander_an_obstacle_or_in_the_woods():
    state = position({E: "blue-elder-1", nb(E, "NW"): "red-elder-1", nb(E, "NE"): "rock-1", "E1": "blue-sailor-1"},
                     {"blue-elder-1": "black", "blue-sailor-1": "black"})
    for target in (nb(E, "NW"), nb(E, "NE")):
        with pytest.raises(IllegalMoveError):
            move(state, f"run blue-elder-1 {E}>{target}")
    with pytest.raises(IllegalMoveError, match="woods"):
        move(state, "run blue-sailor-1 E1>woods-EW")


def test_swap_places_with_an_adjacent_islander_of_any_colour_for_3_mp_but_not_backwards():
    state = position({E: "blue-elder-1", nb(E, "E"): "red-elder-1", nb(E, "SE"): "green-elder-1"},
                     {"blue-elder-1": "black", "red-elder-1": "pink", "green-elder-1": "yellow"})
    after = move(state, f"swap blue-elder-1 {E}>{nb(E, 'E')}")
    assert after.where["blue-elder-1"] == nb(E, "E") and after.where["red-elder-1"] == E and spent(state, after) == 3
    with pytest.raises(IllegalMoveError, match="never backwards"):
        move(state, f"swap blue-elder-1 {E}>{nb(E, 'SE')}")


def test_only_the_active_colour_moves_and_only_its_own_islanders():
    state = position({E: "blue-elder-1", "C3": "red-elder-1"}, {"blue-elder-1": "black", "red-elder-1": "pink"})
    with pytest.raises(IllegalMoveError, match="not black's islander"):
        move(state, f"run red-elder-1 C3>{nb('C3', 'NW')}")


# ------------------------------------------------------------------------------------ push
def test_push_up_to_two_islanders_straight_for_3_mp():
    a, b = nb(E, "NW"), nb(E, "NW", "NW")
    state = position({E: "blue-elder-1", a: "red-elder-1", b: "green-elder-1"},
                     {"blue-elder-1": "black", "red-elder-1": "pink", "green-elder-1": "yellow"})
    after = move(state, f"push blue-elder-1 {E}>{a}")
    assert (after.where["blue-elder-1"], after.where["red-elder-1"], after.where["green-elder-1"]) == \
        (a, b, nb(b, "NW"))
    assert spent(state, after) == 3


def test_a_pusher_with_the_push_characteristic_pays_2_mp():
    a = nb(E, "E")
    state = position({E: "blue-leader-1", a: "red-elder-1"}, {"blue-leader-1": "black"})
    assert spent(state, move(state, f"push blue-leader-1 {E}>{a}")) == 2


def test_three_in_a_row_or_an_angled_push_needs_the_enhanced_option():
    a = nb(E, "E")
    three = position({E: "blue-elder-1", a: "red-elder-1", nb(a, "E"): "red-elder-2", nb(a, "E", "E"): "green-elder-1"},
                     {"blue-elder-1": "black"})
    with pytest.raises(IllegalMoveError):
        move(three, f"push blue-elder-1 {E}>{a}")
    angled = position({E: "blue-elder-1", a: "red-elder-1"}, {"blue-elder-1": "black"})
    with pytest.raises(IllegalMoveError, match="enhanced movements are an option"):
        move(angled, f"push+ blue-elder-1 {E}>{a}/NE")


def test_a_push_cannot_shove_islanders_onto_an_obstacle():
    a = nb(E, "NW")
    state = position({E: "blue-elder-1", a: "red-elder-1", nb(a, "NW"): "rock-1"}, {"blue-elder-1": "black"})
    assert not is_legal(state, f"push blue-elder-1 {E}>{a}")


# ------------------------------------------------------------------------------------ jump, cross, squeeze
def test_jump_straight_over_one_islander_for_3_mp_or_2_with_the_jump_characteristic():
    a = nb(E, "NE")
    state = position({E: "blue-elder-2", nb(E, "W"): "blue-elder-1", a: "red-elder-1", nb(nb(E, "W"), "NE"): "red-elder-2"},
                     {"blue-elder-2": "black", "blue-elder-1": "black"})
    after = move(state, f"jump blue-elder-2 {E}>{a}>{nb(a, 'NE')}")
    assert after.where["blue-elder-2"] == nb(a, "NE") and spent(state, after) == 3
    w = nb(E, "W")
    after = move(state, f"jump blue-elder-1 {w}>{nb(w, 'NE')}>{nb(w, 'NE', 'NE')}")
    assert spent(state, after) == 2


def test_a_jump_is_straight_only_in_the_base_game_and_never_over_an_obstacle():
    a = nb(E, "NE")
    state = position({E: "blue-elder-1", a: "red-elder-1", nb(E, "NW"): "rock-1"}, {"blue-elder-1": "black"})
    assert not is_legal(state, f"jump blue-elder-1 {E}>{a}>{nb(a, 'NW')}")
    assert not is_legal(state, f"jump blue-elder-1 {E}>{nb(E, 'NW')}>{nb(E, 'NW', 'NW')}")


def test_cross_one_obstacle_straight_or_angular():
    o = nb(E, "NW")
    state = position({E: "blue-elder-1", o: "rock-1", "B3": "blue-elder-2", nb("B3", "NE"): "bush-1",
                      "C1": "blue-warrior-2", nb("C1", "NE"): "driftwood-1"},
                     {"blue-elder-1": "black", "blue-elder-2": "black", "blue-warrior-2": "black"})
    straight = move(state, f"cross blue-elder-1 {E}>{o}>{nb(o, 'NW')}")
    angular = move(state, f"cross blue-elder-1 {E}>{o}>{nb(o, 'NE')}")
    assert spent(state, straight) == spent(state, angular) == 4
    assert spent(state, move(state, f"cross blue-elder-2 B3>{nb('B3', 'NE')}>{nb('B3', 'NE', 'NE')}")) == 2
    assert spent(state, move(state, f"cross blue-warrior-2 C1>{nb('C1', 'NE')}>{nb('C1', 'NE', 'NE')}")) == 3


def test_squeeze_through_two_blockers_islanders_obstacles_or_woods():
    # D1: the woods lie forwards-left of it (woods-EW), an islander on E1 forwards-right; F1 is beyond.
    state = position({"D1": "blue-elder-1", "E1": "red-elder-2",
                      E: "blue-warrior-1", nb(E, "NW"): "red-elder-1", nb(E, "NE"): "rock-2",
                      "C3": "blue-warrior-2", nb("C3", "NE"): "green-elder-1", nb("C3", "E"): "bush-1"},
                     {"blue-elder-1": "black", "blue-warrior-1": "black", "blue-warrior-2": "black"})
    assert nb("D1", "NW") == "woods-EW"
    assert spent(state, move(state, "squeeze blue-elder-1 D1>F1")) == 4
    assert spent(state, move(state, f"squeeze blue-warrior-1 {E}>{nb(E, 'NW', 'NE')}")) == 2  # squeeze char
    assert spent(state, move(state, f"squeeze blue-warrior-2 C3>{nb('C3', 'NE', 'E')}")) == 3  # all-rounder
    lone = position({E: "blue-elder-1", nb(E, "NW"): "red-elder-1"}, {"blue-elder-1": "black"})
    assert not is_legal(lone, f"squeeze blue-elder-1 {E}>{nb(E, 'NW', 'NE')}")


def test_everything_but_run_goes_only_forwards_or_sideways():
    o = nb(E, "SW")
    state = position({E: "blue-elder-1", o: "rock-1"}, {"blue-elder-1": "black"})
    with pytest.raises(IllegalMoveError, match="never backwards"):
        move(state, f"cross blue-elder-1 {E}>{o}>{nb(o, 'SW')}")


def test_nobody_walks_into_the_fog():
    state = position({"B3": "blue-elder-1"}, {"blue-elder-1": "black"}, fog=7)  # the FOG covers row A
    with pytest.raises(IllegalMoveError, match="FOG"):
        move(state, f"run blue-elder-1 B3>{nb('B3', 'SW')}")


# ------------------------------------------------------------------------------------ endurance
def test_endurance_gives_a_free_last_run_after_being_moved():
    state = position({E: "blue-warrior-3"}, {"blue-warrior-3": "black"}, mp_left=1)
    with pytest.raises(IllegalMoveError, match="moved actively"):
        move(state, f"endurance blue-warrior-3 {E}>{nb(E, 'NW')}")
    a = nb(E, "NW")
    after = move(state, f"run blue-warrior-3 {E}>{a}", f"endurance blue-warrior-3 {a}>{nb(a, 'NE')}")
    assert after.where["blue-warrior-3"] == nb(a, "NE") and after.mp_left == 0 and after.endurance_used
    with pytest.raises(IllegalMoveError):
        move(after, f"endurance blue-warrior-3 {nb(a, 'NE')}>{nb(a, 'NE', 'NE')}")


def test_endurance_may_board_a_boat_as_its_free_run():
    # S2 is next to the blue boat's stern (a plank); S3 is one shore field further.
    state = position({"S3": "blue-warrior-3"}, {"blue-warrior-3": "black"}, mp_left=1)
    after = move(state, "run blue-warrior-3 S3>S2", "endurance blue-warrior-3 S2>blue-stern")
    assert after.where["blue-warrior-3"] == "blue-stern" and after.mp_left == 0


# ------------------------------------------------------------------------------------ enhanced totals
def enhanced(placement, owners, **kw):  # type: ignore[no-untyped-def]
    return position(placement, owners, options="enhanced", **kw)


def test_enhanced_angled_push_with_the_push_characteristic_costs_2_plus_2():
    a = nb(E, "E")
    state = enhanced({E: "blue-leader-1", a: "red-elder-1"}, {"blue-leader-1": "black"})
    after = move(state, f"push+ blue-leader-1 {E}>{a}/NE")
    assert after.where["red-elder-1"] == nb(a, "NE") and spent(state, after) == 4


def test_enhanced_push_of_three_islanders():
    a = nb(E, "W")
    state = enhanced({"E6": "blue-elder-1", "E5": "red-elder-1", "E4": "red-elder-2", "E3": "green-elder-1"},
                     {"blue-elder-1": "black"})
    after = move(state, "push+ blue-elder-1 E6>E5")
    assert after.where["green-elder-1"] == "E2" and spent(state, after) == 5
    assert a == "E3"


def test_enhanced_jump_via_an_occupied_hex_then_run_costs_3_plus_2_plus_1():
    a = nb(E, "NE")
    land = nb(a, "NE")
    state = enhanced({E: "blue-elder-2", a: "red-elder-1", land: "red-elder-2"}, {"blue-elder-2": "black"})
    with pytest.raises(IllegalMoveError, match="another movement must follow"):
        move(state, f"jump+ blue-elder-2 {E}>{a}>{land}")
    after = move(state, f"jump+ blue-elder-2 {E}>{a}>{land}", f"run blue-elder-2 {land}>{nb(land, 'NW')}")
    assert spent(state, after) == 6


def test_enhanced_angular_jump():
    a = nb(E, "NE")
    state = enhanced({E: "blue-elder-1", a: "red-elder-1"}, {"blue-elder-1": "black"})
    after = move(state, f"jump+ blue-elder-1 {E}>{a}>{nb(a, 'NW')}")
    assert after.where["blue-elder-1"] == nb(a, "NW") and spent(state, after) == 4  # 2 (jumper) + 2


def test_enhanced_cross_via_an_occupied_hex_then_run_costs_4_plus_2_plus_1():
    o = nb(E, "NW")
    land = nb(o, "NW")
    state = enhanced({E: "blue-elder-1", o: "rock-1", land: "red-elder-1"}, {"blue-elder-1": "black"})
    after = move(state, f"cross+ blue-elder-1 {E}>{o}>{land}", f"run blue-elder-1 {land}>{nb(land, 'NE')}")
    assert spent(state, after) == 7


def test_enhanced_squeeze_with_the_characteristic_then_squeeze_again_costs_2_plus_2_plus_2():
    land = nb(E, "NW", "NE")
    beyond = nb(land, "NW", "NE")
    state = enhanced({E: "blue-warrior-1", nb(E, "NW"): "red-elder-1", nb(E, "NE"): "rock-1", land: "red-elder-2",
                      nb(land, "NW"): "green-elder-1", nb(land, "NE"): "rock-2"}, {"blue-warrior-1": "black"})
    after = move(state, f"squeeze+ blue-warrior-1 {E}>{land}", f"squeeze blue-warrior-1 {land}>{beyond}")
    assert after.where["blue-warrior-1"] == beyond and spent(state, after) == 6


# ------------------------------------------------------------------------------------ water area
def test_in_the_water_every_step_costs_1_and_occupied_fields_may_be_passed():
    state = position({"S4": "blue-elder-1", "S5": "red-elder-1"}, {"blue-elder-1": "black"})
    with pytest.raises(IllegalMoveError, match="another movement must follow"):
        move(state, "run blue-elder-1 S4>S5")
    after = move(state, "run blue-elder-1 S4>S5", "run blue-elder-1 S5>S6")
    assert after.where["blue-elder-1"] == "S6" and after.where["red-elder-1"] == "S5" and spent(state, after) == 2


def test_in_the_water_an_islander_is_pulled_back_to_where_the_runner_came_from():
    state = position({"S4": "blue-elder-1", "S5": "red-elder-1"}, {"blue-elder-1": "black"})
    after = move(state, "pull blue-elder-1 S4>S5")
    assert after.where == {"blue-elder-1": "S5", "red-elder-1": "S4"} and spent(state, after) == 1


def test_a_beach_islander_runs_past_a_shore_islander_or_pulls_it_back_to_the_beach():
    shore = nb("J5", "NW")
    state = position({"J5": "blue-elder-1", shore: "red-elder-1"}, {"blue-elder-1": "black"})
    past = move(state, f"run blue-elder-1 J5>{shore}", f"run blue-elder-1 {shore}>{nb(shore, 'E')}")
    assert past.where["blue-elder-1"] == nb(shore, "E") and spent(state, past) == 2
    pulled = move(state, f"pull blue-elder-1 J5>{shore}")
    assert pulled.where == {"blue-elder-1": shore, "red-elder-1": "J5"}


def test_beach_islanders_do_not_push_jump_over_or_squeeze_through_shore_islanders():
    shore = nb("J5", "NW")
    beyond = nb("J4", "NW")  # the shore field between the beach islander on J4 and the shore islander
    state = position({"J5": "blue-leader-1", "J4": "green-elder-1", shore: "red-elder-1"},
                     {"blue-leader-1": "black"})
    assert not is_legal(state, f"squeeze blue-leader-1 J5>{beyond}")
    assert not is_legal(state, f"push blue-leader-1 J5>{shore}")
    on_beach = position({"J5": "blue-leader-1", "J4": "green-elder-1", "J6": "rock-1", nb("J5", "NE"): "red-elder-1"},
                        {"blue-leader-1": "black"})
    assert not is_legal(on_beach, f"squeeze blue-leader-1 J5>{nb('J5', 'NE', 'E')}")


def test_a_jump_onto_a_shore_islander_must_be_followed_by_a_further_movement():
    a = nb("I5", "NW")
    shore = nb(a, "NW")
    state = position({"I5": "blue-elder-1", a: "red-elder-1", shore: "green-elder-1"}, {"blue-elder-1": "black"})
    with pytest.raises(IllegalMoveError, match="another movement must follow"):
        move(state, f"jump blue-elder-1 I5>{a}>{shore}")
    after = move(state, f"jump blue-elder-1 I5>{a}>{shore}", f"run blue-elder-1 {shore}>{nb(shore, 'E')}")
    assert spent(state, after) == 2 + 1  # blue-elder-1 jumps for 2


def test_shore_islanders_only_run_no_beach_movements():
    state = position({"S5": "blue-leader-1", "S6": "red-elder-1"}, {"blue-leader-1": "black"})
    assert not is_legal(state, "push blue-leader-1 S5>S6")


# ------------------------------------------------------------------------------------ boarding
def test_from_the_shore_only_the_stern_can_be_boarded():
    shore = next(n for n in sorted(position({}).board_data.neighbours("blue-stern")) if n.startswith("S"))
    state = position({shore: "blue-elder-1"}, {"blue-elder-1": "black"})
    after = move(state, f"board blue-elder-1 {shore}>blue-stern")
    assert after.where["blue-elder-1"] == "blue-stern" and spent(state, after) == 1
    assert not is_legal(state, f"board blue-elder-1 {shore}>blue-BR")


def test_from_a_pier_places_on_the_same_side_or_the_stern():
    # Pier P1 lies between the blue boat (its right side) and the green boat (its left side).
    state = position({"P1-2": "blue-elder-1", "P1-1": "green-sailor-1"},
                     {"blue-elder-1": "black", "green-sailor-1": "black"})
    after = move(state, "board blue-elder-1 P1-2>blue-BR")
    assert after.where["blue-elder-1"] == "blue-BR"
    assert not is_legal(state, "board blue-elder-1 P1-2>blue-BL")  # the far side
    assert is_legal(state, "board green-sailor-1 P1-1>green-CL")


def test_a_productive_place_must_fit_the_islander_type_the_stern_takes_anyone_up_to_its_capacity():
    state = position({"P1-2": "blue-elder-1", "blue-stern": ("red-elder-1", "red-elder-2", "green-elder-1",
                                                             "green-elder-2"), "P1-1": "blue-sailor-1"},
                     {"blue-elder-1": "black", "blue-sailor-1": "black"})
    with pytest.raises(IllegalMoveError):
        move(state, "board blue-sailor-1 P1-1>blue-CR", "board blue-sailor-1 blue-CR>blue-BR")  # elder place
    with pytest.raises(IllegalMoveError, match="another movement must follow"):
        move(state, "board blue-sailor-1 P1-1>blue-stern")  # full: it can only pass through


def test_switching_sides_in_the_boat_also_via_occupied_places():
    state = position({"P1-3": "blue-sailor-1", "blue-AR": "red-leader-1"},
                     {"blue-sailor-1": "black"})
    after = move(state, "board blue-sailor-1 P1-3>blue-AR", "board blue-sailor-1 blue-AR>blue-AL")
    assert after.where["blue-sailor-1"] == "blue-AL" and spent(state, after) == 2


def test_nobody_leaves_a_boat_again():
    state = position({"blue-stern": "blue-elder-1"}, {"blue-elder-1": "black"})
    assert not any(m.movements[0].target.startswith(("S", "P")) for m in legal_movements(state))


def test_the_first_islanders_on_productive_places_take_the_preparation_bonuses_in_order():
    state = position({"P1-3": "blue-sailor-1", "P1-2": "green-elder-1", "S2": "blue-elder-2"},
                     {"blue-sailor-1": "black", "green-elder-1": "black", "blue-elder-2": "black"})
    after = move(state, "board blue-sailor-1 P1-3>blue-AR", "board blue-sailor-1 blue-AR>blue-AL")
    assert after.prep_taken == {"black": (6,)} and after.prep_stacks["blue"] == (4, 2)
    after = move(after, "board green-elder-1 P1-2>blue-BR")
    assert after.prep_taken == {"black": (6, 4)}
    stern = move(after, "board blue-elder-2 S2>blue-stern")  # the stern is not productive: no bonus
    assert stern.prep_taken == after.prep_taken


def test_drive_off_stacks_a_boat_s_own_nation_on_a_foreign_islander():
    state = position({"P3-3": "red-sailor-1", "red-AL": "blue-sailor-1"}, {"red-sailor-1": "black"})
    # From P3 (the red boat's right side) the sailor place on the left is reached by switching sides.
    after = move(state, "board red-sailor-1 P3-3>red-AR", "drive-off red-sailor-1 red-AR>red-AL")
    assert after.placement["red-AL"] == ("blue-sailor-1", "red-sailor-1")


def test_drive_off_needs_the_boat_s_nation_a_foreign_occupant_and_no_other_free_place():
    # P2 lies between the green boat (its right side) and the red boat (its left side).
    own = position({"P2-3": "red-sailor-1", "red-AL": "red-sailor-2", "green-AR": "green-sailor-1"},
                   {"red-sailor-1": "black"})
    assert not is_legal(own, "drive-off red-sailor-1 P2-3>red-AL")  # the place holds its own nation
    other_boat = position({"P2-3": "blue-sailor-2", "red-AL": "green-sailor-2", "green-AR": "green-sailor-1"},
                          {"blue-sailor-2": "black"})
    assert not is_legal(other_boat, "drive-off blue-sailor-2 P2-3>red-AL")  # not the boat's nation
    free_elsewhere = position({"P2-3": "red-sailor-1", "red-AL": "blue-sailor-1"}, {"red-sailor-1": "black"})
    assert not is_legal(free_elsewhere, "drive-off red-sailor-1 P2-3>red-AL")  # green-AR is free for 1 MP too
    blocked = position({"P2-3": "red-sailor-1", "red-AL": "blue-sailor-1", "green-AR": "green-sailor-1"},
                       {"red-sailor-1": "black"})
    assert is_legal(blocked, "drive-off red-sailor-1 P2-3>red-AL")


def test_advanced_drive_off_moves_the_driven_off_islander_to_its_area_or_the_stern():
    state = position({"P2-3": "red-sailor-1", "red-AL": "blue-sailor-1", "green-AR": "green-sailor-1"},
                     {"red-sailor-1": "black"}, options="drive-off=advanced")
    after = move(state, "drive-off red-sailor-1 P2-3>red-AL")
    assert after.placement["red-AL"] == ("red-sailor-1",) and after.where["blue-sailor-1"] == "red-stern"


# ------------------------------------------------------------------------------------ budgets
def test_movement_points_cannot_be_overspent():
    state = position({E: "blue-elder-1", nb(E, "E"): "red-elder-1"}, {"blue-elder-1": "black"}, mp_left=2)
    with pytest.raises(IllegalMoveError, match="costs 3 MP, 2 left"):
        move(state, f"swap blue-elder-1 {E}>{nb(E, 'E')}")


def test_a_movement_via_an_occupied_hex_needs_the_points_for_the_movement_after_it():
    a = nb(E, "NE")
    land = nb(a, "NE")
    state = position({E: "blue-elder-2", a: "red-elder-1", land: "red-elder-2"}, {"blue-elder-2": "black"},
                     options="enhanced", mp_left=5)
    with pytest.raises(IllegalMoveError, match="costs 1 MP, 0 left"):
        move(state, f"jump+ blue-elder-2 {E}>{a}>{land}", f"run blue-elder-2 {land}>{nb(land, 'NW')}")


def test_solo_nations_spend_their_own_budget():
    from companion.games.fog.solo import new_solo_game

    state = new_solo_game("1")
    assert state.active_colour == "blue" and state.mp_left == 8
    moves = list(legal_movements(state))
    assert moves and all(state.board_data.islanders[m.movements[0].islander].nation == "blue" for m in moves)


def test_two_player_colours_move_independently():
    state = position({E: "blue-elder-1", "C3": "red-elder-1"}, {"blue-elder-1": "black", "red-elder-1": "yellow"},
                     players=2)
    first = state.active_colour
    mover = "blue-elder-1" if first == "black" else "red-elder-1"
    assert {m.movements[0].islander for m in legal_movements(state)} <= {mover}


def test_legal_moves_behave_like_a_set():
    state = position({E: "blue-elder-1"}, {"blue-elder-1": "black"})
    legal = legal_movements(state)
    assert f"move run blue-elder-1 {E}>{nb(E, 'NW')}" in legal
    assert f"move run blue-elder-1 {E}>{nb(E, 'NW', 'NW')}" not in legal
    assert len(legal) == 6
    turn_over = rules.apply(state, "end-turn")
    assert turn_over.active_colour != "black"
