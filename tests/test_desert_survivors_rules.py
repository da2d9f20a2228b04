"""Desert survivors at the table: the desert laid, discs swapped and revealed, food found, fights
fought with closed fists, characters eaten, four rounds scored.

The stories play on the 3-player beginner's desert (``1@A1 4@E1 2@A4``), columns A-H, rows 1-6
from the top (R rock, O oasis)::

        A B C D   E F G H
    1   R . . .   . R . .
    2   . . O .   . . . .
    3   . . . .   . . R .
    4   . . . .
    5   . O . .
    6   . . . R

Discs are named by colour and number (``natural-3``; ``natural-m`` the monkey); the first set's
X-counters are x1-x3 treasures, x4-x9 roads, and food x10 (1), x11 and x12 (2), x13 (3), x14 (4).
Character n has size (fight power, starvation) (n + 1) // 2, food value n and 7 - n victory points.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from types import MappingProxyType

import pytest

from companion.errors import AnswerError, IllegalMoveError, NotationError, StateFormatError
from companion.games.desert_survivors import meals
from companion.games.desert_survivors.board import build, parse_arrangement
from companion.games.desert_survivors.pieces import is_disc, is_x, size
from companion.games.desert_survivors.rules import (DesertState, apply, connected, from_json, legal_actions, new_game,
                                                    outcome, parse_action, to_json)
from companion.games.desert_survivors.view import view

TREASURE, ROAD, ROAD2, ROAD3, FOOD1, FOOD3, FOOD4 = "x1", "x4", "x5", "x6", "x10", "x13", "x14"


def table(phase: str = "move", turn: str = "natural", up: str = "", hungry: str = "", players: int = 3,
          **at: str) -> DesertState:
    """A desert as the story sets it: pieces on the spaces named (``B3="natural-1"``), face up on the
    spaces listed in ``up``; every character fed but those listed in ``hungry``; no spare food."""
    s = new_game(players)
    food = {c: 0 if c in hungry.split() else size(c) for c in s.food}
    return replace(s, board=MappingProxyType(dict(at)), face_up=frozenset(at[w] for w in up.split()),
                   food=MappingProxyType(food), spare=(0,) * players, phase=phase, turn=s.seats.index(turn))


def act(state: DesertState, *texts: str) -> DesertState:
    for text in texts:
        state = apply(state, text)
    return state


def fed(state: DesertState) -> DesertState:
    """Every food placement owed made, each on the first hungry character of its owner."""
    while (owed := [a for a in legal_actions(state) if str(a).startswith("feed")]):
        state = apply(state, owed[0])
    return state


# ------------------------------------------------------------------------------ the desert and the setup
def test_the_desert_is_laid_as_the_players_choose_and_checked():
    assert str(new_game(3).arrangement[1]) == "4@E1"
    turned = build(parse_arrangement("1@A1 4@E1/90 2@A4"))  # board 4 turned: 3 wide, 4 tall
    assert {"E3", "G2"} <= turned.rocks and "H1" not in turned.kinds and "E4" in turned.kinds
    for bad, why in (("1@A1 2@E1 3@A4", "rounded up"), ("1@A1 4@C1 2@A4", "overlap"),
                     ("1@A1 4@F1 2@A4", "edge to edge"), ("1@A1 4@E1", "needs 3"), ("1@A1 1@E1 2@A4", "twice"),
                     ("1@A1 4@E1/45 2@A4", "is not a mapboard as laid: its number 1-6")):
        with pytest.raises(AnswerError, match=why):
            new_game(3, arrangement=bad)


def test_each_player_first_puts_their_food_on_their_characters_cards():
    s = new_game(3)
    assert s.spare == (5, 5, 5) and s.markers == (7, 7, 7) and s.pool == 21
    assert {str(a).split()[0] for a in legal_actions(s)} == {"feed"}
    with pytest.raises(IllegalMoveError, match="must first put their food"):
        act(s, "place natural-1 B2")
    s = act(s, "feed natural-1")
    with pytest.raises(IllegalMoveError, match="card is full"):  # a card holds its starvation, no more
        act(s, "feed natural-1")
    s = fed(s)
    assert s.spare == (0, 0, 0) and sum(s.food.values()) == 15


def test_discs_are_placed_face_down_in_turn_on_sand_and_x_counters_fill_every_other_space():
    s = fed(new_game(3, seed=4))
    for space, why in (("C2", "oasis"), ("A1", "rock")):
        with pytest.raises(IllegalMoveError, match=why):
            act(s, f"place natural-1 {space}")
    s = act(s, "place natural-1 B2")
    assert s.active == "green" and view(s, "green")["log"][-1] == "Natural placed a natural disc face down on B2"
    assert view(s, "natural")["log"][-1] == "You placed your 1 face down on B2"
    while s.phase == "setup":
        s = apply(s, legal_actions(s)[0])
    desert = build(s.arrangement)
    assert set(s.board) == set(desert.kinds) and not s.face_up and s.active == "natural"
    assert all(is_x(s.board[o]) for o in desert.oases())
    assert sum(is_disc(p) for p in s.board.values()) == 21 and len(s.stacks) == 3


# ------------------------------------------------------------------------------ phase 1: the three actions
def test_a_road_found_lets_the_player_act_again_or_stop():
    s = act(table(B3="natural-1", B4=ROAD, D3="natural-2", H2="green-1"), "swap B3 B4")
    assert s.board["B3"] == ROAD and ROAD in s.face_up and "natural-1" not in s.face_up
    assert s.road and s.active == "natural"
    assert act(s, "end natural").active == "green"
    assert act(s, "reveal D3").active == "green" and not act(s, "reveal D3").road


def test_food_or_a_treasure_found_shows_the_disc_that_found_it():
    for found in (FOOD3, TREASURE):
        s = act(table(B3="natural-1", B4=found, H2="green-1"), "swap B3 B4")
        assert {found, "natural-1"} <= s.face_up and s.active == "green"


def test_two_discs_that_change_places_both_show_themselves():
    s = act(table(B3="natural-1", B4="green-1", H2="green-2"), "swap B3 B4")
    assert s.board["B3"] == "green-1" and {"natural-1", "green-1"} <= s.face_up
    s = act(table(B3="natural-1", B4="natural-2", H2="green-2", up="B4"), "swap B3 B4")
    assert {"natural-1", "natural-2"} <= s.face_up  # one's own face-up disc is a partner too


def test_a_face_up_piece_of_another_player_or_a_revealed_counter_never_changes_place():
    s = table(B3="natural-1", B4="green-1", C3=ROAD, H2="green-2", up="B4 C3")
    for target in ("B4", "C3"):
        with pytest.raises(IllegalMoveError, match="face up and not one of natural's"):
            act(s, f"swap B3 {target}")
    with pytest.raises(IllegalMoveError, match="no face-down disc of natural's"):
        act(s, "reveal H2")
    assert act(s, "reveal B3").face_up >= {"natural-1"}


def test_connected_runs_through_revealed_roads_and_own_discs_only():
    s = table(A2="natural-1", B2=ROAD, C2=ROAD2, D2="natural-4", E2="green-1", A3="green-5", A4="x20",
              C3=ROAD3, D4="x21", up="B2 C2 A3")
    reach = connected(s, "A2")
    assert {"E2", "B2", "C3", "D2"} <= reach  # on through the roads and the own disc on D2
    assert "A4" not in reach  # not through another player's disc on A3
    assert "D4" not in reach  # C3's road is face down: it links nothing
    assert connected(table(D4="natural-1", C3="x20", C4="x21"), "D4") == {"C4"}  # diagonals are not connected


def test_a_player_with_no_face_down_disc_is_skipped_and_the_phase_ends_when_all_are_up():
    s = table(B3="natural-1", H2="green-1", D5="red-1", up="H2", hungry="red-2")
    s = act(s, "reveal B3")
    assert s.active == "red"
    s = act(s, "reveal D5")
    assert s.phase == "eat" and s.round == 1


# ------------------------------------------------------------------------------ phase 2: food
def test_a_character_on_an_oasis_brings_its_player_2_food_once_and_a_monkey_brings_none():
    s = table(C2="natural-1", B5="natural-2", H2="green-m", D4="red-3", up="B5 H2 D4", hungry="natural-5 green-6")
    s = act(s, "reveal C2")
    assert s.phase == "eat" and s.spare == (2, 0, 0)  # two characters on oases, still 2 food
    s = act(s, "feed natural-5", "feed natural-5")
    assert s.food["natural-5"] == 2 and s.spare == (0, 0, 0)


def test_a_character_takes_a_revealed_food_counter_directly_beside_it_and_spare_food_waits():
    s = table("eat", B3="natural-3", B4=FOOD3, C4=FOOD4, D4="natural-m", H2="green-1",
              up="B3 B4 C4 D4 H2", hungry="natural-5 green-1")
    with pytest.raises(IllegalMoveError, match="not next to"):
        act(s, "take B3 C4")  # diagonal
    with pytest.raises(IllegalMoveError, match="monkey"):
        act(s, "take D4 C4")
    s = act(replace(s, food=MappingProxyType({**s.food, "natural-5": 2})), "take B3 B4")
    assert "B4" not in s.board and s.spare == (3, 0, 0)
    s = act(s, "feed natural-5")
    assert not s.hungry("natural-5") and s.spare == (2, 0, 0) and s.active == "green"  # the rest is kept


# ------------------------------------------------------------------------------ phase 2: fights
def test_a_fight_is_two_closed_fists_opened_together_and_a_tie_goes_to_the_attacker():
    s = act(table("eat", B3="natural-5", B4="green-6", H2="red-1", up="B3 B4 H2", hungry="natural-1"), "attack B3 B4")
    assert {str(a) for a in legal_actions(s)} >= {"commit natural 0", "commit green 7"}
    with pytest.raises(IllegalMoveError, match="both sides must close"):
        act(s, "show")
    s = act(s, "commit natural 2")
    assert view(s, "green")["fight"] == {"attacker": "B3", "defender": "B4", "mine": None,
                                         "committed": {"natural": True, "green": False}}
    assert "commit natural 2" not in json.dumps(view(s, "green")) and view(s, "natural")["fight"]["mine"] == 2
    s = act(s, "commit green 2", "show")  # 3 + 2 against 3 + 2
    assert s.last_fight is not None and s.last_fight.winner == "natural-5" and "green-6" in s.dead
    assert "B4" not in s.board and s.markers == (5, 7, 7) and s.pool == 23  # the loser took 2 from the pool
    assert s.spare == (6, 3, 0)  # the winner eats 6; the loser keeps the 3 food of the dead card
    assert {str(a) for a in legal_actions(s)} == {"feed natural-1"}


def test_the_higher_fighting_value_wins_and_the_loser_gets_nothing_from_an_empty_pool():
    s = replace(table("eat", B3="natural-1", B4="green-6", H2="red-1", up="B3 B4 H2", hungry="natural-2"), pool=0)
    s = act(s, "attack B3 B4", "commit natural 1", "commit green 0", "show")  # 1 + 1 against 3 + 0
    assert "natural-1" in s.dead and s.last_fight is not None and s.last_fight.winner == "green-6"
    assert s.markers == (6, 7, 7) and s.pool == 1  # one marker in the pool: the loser gets none
    assert s.spare[1] == 1  # green eats natural-1's food value


def test_only_a_hungry_player_fights_and_only_another_player_s_character_beside_it():
    s = table("eat", B3="natural-5", B4="natural-6", C3="green-m", B2="red-3", D5="green-1",
              up="B3 B4 C3 B2 D5", hungry="natural-1")
    for target, why in (("B4", "own"), ("C3", "monkey"), ("D5", "not next to")):
        with pytest.raises(IllegalMoveError, match=why):
            act(s, f"attack B3 {target}")
    satisfied = replace(s, food=MappingProxyType({**s.food, "natural-1": 1}), turn=0)
    with pytest.raises(IllegalMoveError, match="only a hungry player"):
        act(replace(satisfied, food=MappingProxyType({**satisfied.food, "red-1": 0})), "attack B3 B2")
    s = act(s, "attack B3 B2")
    with pytest.raises(IllegalMoveError, match="fight is under way"):
        act(s, "pass natural")
    with pytest.raises(IllegalMoveError, match="holds 7"):
        act(s, "commit red 8")


def test_a_hungry_player_may_sacrifice_a_character_and_loses_2_markers():
    s = replace(table("eat", B3="natural-4", H2="green-1", up="B3 H2", hungry="natural-1"), markers=(1, 7, 7))
    with pytest.raises(IllegalMoveError, match="hungry character"):
        act(s, "pass natural")  # a hungry player must eat somehow
    s = act(s, "sacrifice B3")
    assert "natural-4" in s.dead and s.markers == (0, 7, 7) and s.pool == 22
    assert s.spare == (6, 0, 0)  # its food value 4 and the 2 on its card
    assert s.phase == "eat" and s.spare[0] == 6


def test_a_satisfied_player_may_give_spare_food_to_a_hungry_one():
    s = replace(table("eat", B3="natural-4", H2="green-1", up="B3 H2", hungry="green-1"), spare=(3, 0, 0))
    s = act(s, "give natural green 2")
    assert s.spare == (1, 2, 0) and {str(a) for a in legal_actions(s)} == {"feed green-1"}
    s = act(s, "feed green-1")
    assert s.phase == "move" and s.round == 2  # nobody hungry: the round is scored at once
    with pytest.raises(IllegalMoveError, match="has a hungry character"):
        act(replace(s, phase="eat", turn=1, spare=(0, 0, 0)), "give green natural 1")


# ------------------------------------------------------------------------------ phase 3 and the game's end
def test_the_round_is_scored_and_the_x_counters_reshuffled_around_what_stays():
    s = table("eat", B3="natural-3", B4=FOOD1, A2=ROAD, A3=TREASURE, D4="x12", D5="x20", H2="green-1",
              up="B3 B4 A2 A3 D4 H2", hungry="natural-1")
    s = replace(s, spent=6, stacks=(("x15", "x16", "x17"), ("x29", "x30", "x31")), spare=(0, 2, 0),
                dead=frozenset({"red-6"}), food=MappingProxyType({c: n for c, n in s.food.items() if c != "red-6"}))
    s = act(s, "take B3 B4", "feed natural-1")
    assert s.round == 2 and s.phase == "move" and s.vp == (6, 6, 5)  # 1 VP per character alive
    assert s.board["A3"] == TREASURE and s.board["D4"] == "x12" and s.board["D5"] == "x20"
    assert s.face_up == {TREASURE, "x12"}  # treasures and food stay up; every disc is face down again
    assert ROAD not in s.face_up and (ROAD in s.mix or ROAD in s.board.values())  # the road went back into the mix
    assert set(s.board) == set(build(s.arrangement).kinds) and s.stacks == (("x29", "x30", "x31"),)
    assert not any(s.food.values()) and s.spare == (0, 2, 0)  # the cards are eaten clean; spare waits
    assert s.markers == (9, 9, 9) and s.pool == 15 and s.spent == 0
    assert s.start == 2  # natural began round 1; of the others red has the least food
    assert {str(a).split()[0] for a in legal_actions(s)} == {"feed"}  # green places its spare first


def test_the_start_player_has_the_least_food_then_needs_the_most_then_sits_left_of_the_last():
    s = table("eat", hungry=" ".join(new_game(3).food))  # phase 3: the cards are empty, only spare food counts
    assert meals.new_start(replace(s, spare=(0, 2, 1), start=0)) == 2  # the least food
    lost_6 = replace(s, dead=frozenset({"natural-6"}),
                     food=MappingProxyType({c: 0 for c in s.food if c != "natural-6"}))
    assert meals.new_start(replace(lost_6, spare=(0, 0, 0), start=1)) == 2  # red needs 12 food, natural 9
    assert meals.new_start(replace(s, spare=(0, 0, 0), start=1)) == 2  # all alike: the first to green's left
    assert meals.new_start(replace(s, spare=(0, 0, 0), start=2)) == 0
    assert meals.new_start(replace(s, spare=(0, 5, 5), start=0)) == 1  # never the same player twice running


def test_after_the_fourth_round_survivors_score_their_victory_points_and_food_breaks_a_tie():
    s = table("eat", B3="natural-3", B4=FOOD1, H2="green-1", up="B3 B4 H2", hungry="natural-1")
    s = replace(s, round=4, vp=(12, 12, 30), spare=(0, 0, 0), dead=frozenset({"red-1"}),
                food=MappingProxyType({c: n for c, n in s.food.items() if c != "red-1"}))
    s = act(s, "take B3 B4", "feed natural-1")
    assert s.phase == "over" and s.vp == (33, 33, 45)
    ended = outcome(s)
    assert ended is not None and ended.winners == ("red",)
    tied = outcome(replace(s, vp=(33, 33, 20), spare=(1, 0, 0)))  # both fed 12 on their cards; natural has 1 more
    assert tied is not None and tied.winners == ("natural",) and "most food" in tied.reason
    still = outcome(replace(s, vp=(33, 33, 20)))
    assert still is not None and still.winners == ("natural", "green")  # still tied: both win
    assert legal_actions(s) == []


def test_two_players_each_play_two_groups_as_one():
    s = new_game(2)
    assert s.groups == ("natural", "green", "red", "blue") and s.colours_of(0) == ("natural", "red")
    assert s.spare == (10, 10) and s.markers == (14, 14) and len(s.arrangement) == 4
    s = table(players=2, A2="natural-1", B2="red-4", C2="green-1", D2="x20", phase="move")
    assert connected(s, "A2") >= {"C2"}  # through its own red disc
    s = table("eat", players=2, B3="natural-5", B4="red-2", C3="green-1", up="B3 B4 C3", hungry="natural-1")
    with pytest.raises(IllegalMoveError, match="own"):
        act(s, "attack B3 B4")


# ------------------------------------------------------------------------------ text, files, secrets
def test_every_action_reads_back_from_its_text_and_nonsense_is_named():
    for text in ("feed red-3", "place green-m C4", "swap B3 B4", "reveal H2", "end natural", "take B3 B4",
                 "attack B3 C3", "commit green 0", "show", "sacrifice D4", "give natural red 3", "pass yellow"):
        assert str(parse_action(text)) == text
    for bad in ("swap B3", "feed red-7", "commit green 03", "place red-1 c4", "jump"):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_a_damaged_file_is_refused_by_name():
    s = fed(new_game(3))
    assert from_json(json.loads(json.dumps(to_json(s)))) == s == from_json(json.dumps(to_json(s)))
    with pytest.raises(StateFormatError, match="not JSON"):
        from_json('{"players": 3,')
    for key, value, why in (("markers", [7, 7, 8], "fight markers add up"), ("board", {"A1": "natural-1"}, "A1"),
                            ("phase", "lunch", "'phase'"), ("food", {}, "'food'"), ("history", ["jump"], "'history'"),
                            ("fight", {"attacker": "A2", "defender": "B2"}, "'fight'"),
                            ("stacks", [["x4"]], "'stacks'")):
        with pytest.raises(StateFormatError, match=why):
            from_json({**to_json(s), key: value})


def test_a_seat_sees_its_face_down_discs_only_with_the_memory_aid_and_never_another_seat_s():
    s = table(B3="natural-1", B4="natural-m", H2="green-1", C3=FOOD3, up="B4")
    for aid, mine in ((False, None), (True, {"B3": 1})):
        seen = view(replace(s, memory_aid=aid), "natural")
        assert seen.get("memory") == mine and seen["markers"] == 7
        assert seen["pieces"]["B3"] == {"piece": "disc", "colour": "natural", "face": "down"}
        assert seen["pieces"]["B4"]["character"] == "monkey" and seen["pieces"]["C3"] == {"piece": "counter",
                                                                                          "face": "down"}
        public = view(replace(s, memory_aid=aid), None)
        assert "memory" not in public and "markers" not in public


def _scrambled(state: DesertState, seat: str | None) -> DesertState:
    """The same table with every secret ``seat`` may not know changed: another seat's face-down
    discs shuffled among their spaces, face-down X-counters shuffled with the mix, other seats'
    markers and closed fists altered."""
    me = state.seats.index(seat) if seat else None
    rng, board = random.Random(7), dict(state.board)
    for colour in state.groups:
        if me is not None and colour in state.colours_of(me) and state.memory_aid:
            continue
        spaces = [w for w, p in board.items() if is_disc(p) and p.startswith(colour + "-") and p not in state.face_up]
        pieces = [board[w] for w in spaces]
        rng.shuffle(pieces)
        board.update(zip(spaces, pieces, strict=True))
    spaces = [w for w, p in board.items() if is_x(p) and p not in state.face_up]
    pool = [board[w] for w in spaces] + list(state.mix)
    rng.shuffle(pool)
    board.update(zip(spaces, pool, strict=False))
    markers = tuple(m if k == me else m + 1 for k, m in enumerate(state.markers))
    fight = state.fight
    if fight is not None:
        sides = (state.seat_of(state.board[fight.attacker]), state.seat_of(state.board[fight.defender]))
        fight = replace(fight, commits=tuple(c if s == me or c is None else c + 1
                                             for c, s in zip(fight.commits, sides, strict=True)))  # type: ignore[arg-type]
    return replace(state, board=MappingProxyType(board), mix=tuple(pool[len(spaces):]), markers=markers, fight=fight)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (6, 3)])
def test_random_games_end_never_mutate_and_no_view_holds_another_seat_s_secret(players, seed):
    rng = random.Random(seed)
    s = new_game(players, seed=seed, memory_aid=seed % 2 == 1)
    steps = 0
    while outcome(s) is None:
        actions = legal_actions(s)
        assert actions, f"no legal action in phase {s.phase}"
        action = rng.choice(actions)
        assert parse_action(str(action)) == action
        before = json.dumps(to_json(s), sort_keys=True)
        after = apply(s, action)
        assert json.dumps(to_json(s), sort_keys=True) == before  # apply never mutates
        if steps % 25 == 0:
            assert from_json(json.loads(json.dumps(to_json(after)))) == after
            for seat in (*s.seats, None):
                assert view(s, seat) == view(_scrambled(s, seat), seat), f"{seat} sees a secret at step {steps}"
        s, steps = after, steps + 1
    assert s.phase == "over" and s.round == 4 and steps < 3000
    assert all('"id"' not in json.dumps(v) for v in view(s, None)["pieces"].values() if v["face"] == "down")
