"""Desert survivors behind the door: a desert laid at setup, read by the camera, and never a secret told.

The stories play on the 3-player beginner's desert (``1@A1 4@E1 2@A4``), columns A-H, rows 1-6 from
the top, as in ``test_desert_survivors_rules.py``::

        A B C D   E F G H
    1   R . . .   . R . .
    2   . . O .   . . . .
    3   . . . .   . . R .
    4   . . . .
    5   . O . .
    6   . . . R
"""

from __future__ import annotations

import json
from dataclasses import replace
from types import MappingProxyType

import pytest

from companion.errors import IllegalMoveError, SetupError
from companion.games import TableStatus, get_game, names
from companion.games.desert_survivors.board import build, check_arrangement
from companion.games.desert_survivors.pieces import size
from companion.games.desert_survivors.state import DesertState

GAME = get_game("desert-survivors")


def table(phase: str = "move", turn: str = "natural", up: str = "", **at: str) -> DesertState:
    """The beginner's desert with pieces on the spaces named (``B3="natural-1"``), face up on the
    spaces listed in ``up``, every character fed."""
    s = GAME.new_game(3, arrangement="beginner")
    return replace(s, board=MappingProxyType(dict(at)), face_up=frozenset(at[w] for w in up.split()),
                   food=MappingProxyType({c: size(c) for c in s.food}), spare=(0, 0, 0), phase=phase,
                   turn=s.seats.index(turn))


def moved(state: DesertState, **changes: str | None) -> dict[str, list[str]]:
    """The camera's picture of ``state`` with pieces moved (``B3="natural-1"``; None: nothing seen there)."""
    picture = {w: [p] for w, p in state.board.items()}
    for where, piece in changes.items():
        picture[where] = [piece] if piece else []
    return picture


def test_the_desert_is_laid_from_the_seed_unless_the_players_say_how_they_laid_it():
    assert "desert-survivors" in names() and GAME.players == (2, 3, 4, 5, 6)
    deserts = {str(GAME.new_game(4, seed=seed).arrangement) for seed in range(6)}
    assert len(deserts) > 1  # another seed, another desert
    for seed in range(6):
        laid = GAME.new_game(4, seed=seed).arrangement
        check_arrangement(laid, 4)  # every desert laid from a seed is one the rules accept
        assert GAME.new_game(4, seed=seed).arrangement == laid  # and the same seed lays it again
    assert " ".join(map(str, GAME.new_game(3, arrangement="beginner").arrangement)) == "1@A1 4@E1 2@A4"
    assert str(GAME.new_game(3, arrangement="1@A1 4@E1/90 2@A4").arrangement[1]) == "4@E1/90"
    with pytest.raises(SetupError, match="overlap"):
        GAME.new_game(3, arrangement="1@A1 4@C1 2@A4")
    with pytest.raises(SetupError, match="plays natural and red"):
        GAME.new_game(2, seats=[{"name": "Ada", "colours": ["natural", "green"]}, {"name": "Bo"}])
    assert GAME.new_game(2, seats=[{"name": "Ada"}, {"name": "Bo"}]).names == ("Ada", "Bo")


def test_the_layout_is_the_laid_desert_and_its_pieces_say_only_what_their_backs_show():
    s = GAME.new_game(3, arrangement="1@A1 4@E1/90 2@A4")
    plan = GAME.layout(s)
    desert = build(s.arrangement)
    assert {c for c, cell in plan.cells.items() if cell.standable} == set(desert.kinds)
    assert {c for c, cell in plan.cells.items() if not cell.standable} == set(desert.rocks)
    assert plan.cells["C2"].kind == "oasis" and plan.cells["E3"].kind == "rock"
    assert len(plan.pieces) == 3 * 7 + 3 * 14  # three groups' discs, three sets of X-counters
    markers = [p.marker for p in plan.pieces.values()] + [f["id"] for f in plan.fiducials]
    assert len(set(markers)) == len(markers) and max(markers) < 250  # DICT_4X4_250
    assert {p.label for p in plan.pieces.values()} == {"a natural disc", "a green disc", "a red disc", "an X-counter"}
    assert plan.size_mm == (7 * 50 + 90, 6 * 50 + 90)  # board 4 turned: columns E-G; board 2 down to row 6
    assert len(GAME.layout().pieces) == 6 * 7 + 6 * 14  # no game yet: the whole box


def test_a_swap_is_read_from_the_camera_and_a_half_made_one_is_a_step_in_public_words():
    s = table(B3="natural-1", B4="x10", C3="green-2")
    answer = GAME.reconcile(s, moved(s, B3="x10", B4="natural-1"))
    assert [c.actions for c in answer.choices] == [("swap B3 B4",)]
    assert answer.choices[0].summary == "the face-down natural disc on B3 changes places with the X-counter on B4"
    half = GAME.reconcile(s, moved(s, B3=None))  # the disc lifted, the counter not moved yet
    assert half.part_way and "natural-1" not in half.step
    wrong = GAME.reconcile(s, moved(s, B3=None, C3=None, D3="green-2"))  # green's disc moved on natural's turn
    assert not wrong.ok and "face-down green disc" in wrong.reason and "green-2" not in wrong.reason


def test_a_correction_records_the_table_as_seen_and_the_log_shows_it_without_the_pieces():
    s = table(B3="natural-1", B4="x10", C3="green-2")
    fix = GAME.correction(s, moved(s, B4="green-2", C3=None))  # green's disc on B4, the counter unseen
    after = GAME.apply(s, fix)
    assert after.board["B4"] == "green-2" and after.board["C3"] == "x10" and after.board["B3"] == "natural-1"
    assert GAME.view(after, "green")["log"][-1] == "correct: the pieces as the players set them"
    with pytest.raises(IllegalMoveError, match="neither adds nor removes"):
        GAME.apply(s, "correct B3=natural-1")


def test_show_and_the_shared_view_tell_nothing_that_lies_face_down():
    s = table(B3="natural-1", B4="x10", C3="green-2", C4="x4", up="C4")
    other = replace(s, board=MappingProxyType({**s.board, "B3": "natural-6", "B4": "x13"}))
    assert GAME.text(s) == GAME.text(other) and GAME.view(s) == GAME.view(other)
    assert "N?" in GAME.text(s) and "=" in GAME.text(s)  # a face-down natural disc, a found road
    assert "markers" not in GAME.view(s) and GAME.view(s, "natural")["markers"] == 7
    words = GAME.words(s)
    assert words["natural-1"] == "the face-down natural disc on B3" and words["x4"] == "the road on C4"
    assert json.loads(json.dumps(GAME.view(s)))["pieces"]["B3"] == {"piece": "disc", "colour": "natural",
                                                                     "face": "down"}


def test_the_leds_show_whose_turn_the_round_and_both_sides_of_a_fight():
    s = table(phase="eat", turn="green", up="B3 C3", B3="natural-1", C3="green-2")
    scene = GAME.led_scene(s, TableStatus())
    assert [light.colour for light in scene.lights("turn")] == [(60, 150, 70), (40, 8, 8)]  # green, red at a fifth
    assert [light.colour for light in scene.lights("status")][:2] == [(255, 160, 40), (0, 0, 0)]  # round 1 of 4
    fight = GAME.apply(replace(s, food=MappingProxyType({**s.food, "green-2": 0})), "attack C3 B3")
    assert [light.colour for light in GAME.led_scene(fight, TableStatus()).lights("turn")] == \
        [(60, 150, 70), (214, 184, 140)]  # the attacker and the attacked, both blinking
