"""Phase 1 (draft) and phase 2 turn flow: the turn marker, the FOG track and swallowing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import IllegalMoveError, StateFormatError
from companion.games.fog import rules
from companion.games.fog.options import Options
from companion.games.fog.setup import new_game
from companion.games.fog.solo import new_solo_game
from companion.games.fog.state import GameState
from tests.tables import BOARD, position


def draft_all(state: GameState) -> GameState:
    while state.phase == "draft":
        state = rules.apply(state, rules.legal_drafts(state)[0])
    return state


def test_the_draft_goes_from_the_bottom_of_the_turn_board_to_the_top_until_all_are_chosen():
    state = new_game(BOARD, 3, seed=1)
    bottom_up = list(reversed(state.turn_order))
    seen = []
    while state.phase == "draft":
        seen.append(state.active_colour)
        state = rules.apply(state, rules.legal_drafts(state)[0])
    assert seen[:6] == bottom_up * 2
    assert len(seen) == 30
    assert {c: sum(1 for o in state.owners.values() if o == c) for c in state.turn_order} == \
        {c: 10 for c in state.turn_order}
    # phase 2 starts with the top of the turn board and 7 MP
    assert state.phase == "moving" and state.active_colour == state.turn_order[0] and state.mp_left == 7


def test_a_pick_out_of_turn_or_twice_is_refused_with_the_reason():
    state = new_game(BOARD, 4, seed=2)
    wrong = state.turn_order[0]  # the top colour picks last
    pick = rules.legal_drafts(state)[0]
    with pytest.raises(IllegalMoveError, match="pick"):
        rules.apply(state, f"draft {wrong} {pick.islander}")
    state = rules.apply(state, pick)
    with pytest.raises(IllegalMoveError, match="already chosen"):
        rules.apply(state, f"draft {state.active_colour} {pick.islander}")


def test_rescue_the_leaders_lets_each_colour_draft_exactly_one_leader():
    for players in (2, 3, 4):
        state = draft_all(new_game(BOARD, players, seed=5, options=Options.parse("leaders")))
        for colour in state.turn_order:
            mine = [i for i, c in state.owners.items() if c == colour]
            assert sum(i in state.leaders for i in mine) == 1


def test_the_turn_marker_snakes_so_the_last_player_of_a_round_plays_twice_in_a_row():
    state = draft_all(new_game(BOARD, 4, seed=3))
    order = []
    for _ in range(8):
        order.append(state.active_colour)
        state = rules.apply(state, "end-turn")
    top = list(state.turn_order)
    assert order == top + list(reversed(top))


def test_a_horizontal_step_advances_the_fog_and_swallows_islanders_in_its_row():
    # FOG on field 8; the next horizontal step moves it to 7, which covers row A.
    state = position({"A2": "blue-leader-1", "B3": "red-elder-1", "A4": "rock-1"},
                     {"blue-leader-1": "black", "red-elder-1": "pink"}, fog=BOARD.fog_index("8"))
    assert rules.swallowed_by_next_fog(state) == ("blue-leader-1",)
    for _ in range(2):
        state = rules.apply(state, "end-turn")
    assert state.fog == BOARD.fog_index("8")  # vertical steps: no FOG
    state = rules.apply(state, "end-turn")
    assert BOARD.fog_fields[state.fog].label == "7"
    assert state.lost == {"blue-leader-1": "A"}
    assert "blue-leader-1" not in state.where and state.where["red-elder-1"] == "B3"
    assert state.where["rock-1"] == "A4"  # obstacles stay where they are
    assert state.round == 2 and state.active_colour == state.turn_order[-1]


def test_late_fog_fields_swallow_two_rows_at_once():
    state = position({"E1": "blue-leader-1", "F3": "red-elder-1", "G2": "green-sailor-1"},
                     {"blue-leader-1": "black", "red-elder-1": "pink", "green-sailor-1": "yellow"},
                     fog=BOARD.fog_index("4"), turn_index=2)
    state = rules.apply(state, "end-turn")
    assert state.lost == {"blue-leader-1": "E", "red-elder-1": "F"}


def test_the_game_ends_when_the_fog_reaches_the_shore_and_swallows_who_is_left_behind():
    state = position({"J3": "blue-leader-1", "S4": "red-elder-1", "blue-AR": "blue-sailor-1"},
                     {"blue-leader-1": "black", "red-elder-1": "pink", "blue-sailor-1": "yellow"},
                     fog=len(BOARD.fog_fields) - 2, turn_index=2)
    state = rules.apply(state, "end-turn")
    assert state.phase == "finished" and state.end_reason == "fog-reached-shore"
    assert state.lost == {"blue-leader-1": "J", "red-elder-1": "shore"}
    assert state.where == {"blue-sailor-1": "blue-AR"}
    with pytest.raises(IllegalMoveError):
        rules.apply(state, "end-turn")


def test_the_game_ends_when_nobody_has_an_islander_left_to_move():
    state = position({"blue-AR": "blue-leader-1", "P1-3": "red-elder-1"},
                     {"blue-leader-1": "black", "red-elder-1": "pink"})
    state = rules.apply(state, "correct red-elder-1:P1-3>red-BL")
    state = rules.apply(state, "end-turn")
    assert state.phase == "finished" and state.end_reason == "nobody-can-move"


def test_solo_nations_play_with_their_own_movement_points_and_no_draft():
    state = new_solo_game("1")
    assert state.phase == "moving" and state.turn_order == ("blue", "green", "red")
    mps = []
    for _ in range(4):
        mps.append((state.active_colour, state.mp_left))
        state = rules.apply(state, "end-turn")
    assert mps == [("blue", 8), ("green", 7), ("red", 9), ("red", 9)]
    assert BOARD.fog_fields[new_solo_game("1").fog].label == "9"
    assert BOARD.fog_fields[new_solo_game("1", Options(advanced_fog=True)).fog].label == "8"


def test_undo_takes_back_the_last_action_by_replaying_the_history():
    state = new_game(BOARD, 3, seed=9)
    after_one = rules.apply(state, rules.legal_drafts(state)[0])
    after_two = rules.apply(after_one, rules.legal_drafts(after_one)[0])
    assert rules.undo(after_two) == after_one
    assert rules.undo(after_one) == state
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        rules.undo(state)


def test_a_whole_game_of_turns_replays_to_the_same_state():
    state = draft_all(new_game(BOARD, 4, seed=11))
    while state.phase == "moving":
        state = rules.apply(state, "end-turn")
    assert state.end_reason == "fog-reached-shore"
    assert rules.replay(state) == state
    assert len(state.lost) == 32  # nobody moved: the FOG took everyone


def test_the_state_round_trips_through_json_at_every_stage():
    for state in (new_game(BOARD, 2, seed=1), draft_all(new_game(BOARD, 3, seed=2, options=Options.parse("leaders"))),
                  new_solo_game("2", Options.parse("hourglass=90,advanced-fog"))):
        assert GameState.from_json(state.to_json()) == state
        nxt = rules.apply(state, rules.legal_drafts(state)[0] if state.phase == "draft" else "end-turn")
        assert GameState.from_json(nxt.to_json()) == nxt


@pytest.mark.parametrize("text, message", [
    ("not json", "not a JSON game state"),
    ("[]", "must be a JSON object"),
    ('{"format": 99}', "unsupported format"),
])
def test_a_corrupt_state_file_is_rejected_with_a_clear_message(text: str, message: str):
    with pytest.raises(StateFormatError, match=message):
        GameState.from_json(text)


def test_a_state_naming_an_unknown_piece_or_cell_is_rejected():
    good = new_game(BOARD, 3, seed=1).to_dict()
    bad_piece = {**good, "placement": {**good["placement"], "A1": ["purple-dragon-1"]}}
    with pytest.raises(StateFormatError, match="unknown piece"):
        GameState.from_dict(bad_piece)
    bad_cell = {**good, "placement": {"Z99": ["rock-1"]}}
    with pytest.raises(StateFormatError, match="unknown cell"):
        GameState.from_dict(bad_cell)
    bad_type = {**good, "fog": "seven"}
    with pytest.raises(StateFormatError, match="'fog'"):
        GameState.from_dict(bad_type)


def test_corrections_move_pieces_by_hand_and_are_recorded():
    state = position({"C3": "blue-leader-1"}, {"blue-leader-1": "black"})
    fixed = rules.apply(state, "correct blue-leader-1:C3>D4")
    assert fixed.where["blue-leader-1"] == "D4" and fixed.history[-1] == "correct blue-leader-1:C3>D4"
    with pytest.raises(IllegalMoveError, match="is on D4, not C3"):
        rules.apply(fixed, "correct blue-leader-1:C3>D4")
    assert replace(fixed, history=()) != fixed
