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
import re
from dataclasses import replace
from types import MappingProxyType

import pytest

from companion.errors import IllegalMoveError, SetupError
from companion.session.events import InlineBus
from companion.games import TableStatus, get_game, names
from companion.games.desert_survivors.board import build, check_arrangement
from companion.games.desert_survivors.pieces import size, x_ids, x_kind
from companion.games.desert_survivors.state import DesertState
from companion.table.secrecy import named_pieces
from companion.session.session import Session
from companion.store.store import GameStore

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
    markers = [m for p in plan.pieces.values() for m in p.markers] + [f["id"] for f in plan.fiducials]
    assert len(set(markers)) == len(markers) == 4 + 2 * (3 * 7 + 3 * 14)  # a marker on each face of each piece
    assert max(markers) < 1000 and plan.marker_dictionary == "DICT_4X4_1000"
    assert {plan.marker_face[m] for m in plan.pieces["natural-1"].markers} == {"front", "back"}
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


def test_two_discs_of_one_seat_changing_places_are_one_swap_and_a_half_made_one_says_which():
    """Ada plays natural and red: her natural disc and her red disc changing places is one play, whichever
    of the two her hand lifted first (no question), and with one still in her hand she is told the rest."""
    s = GAME.new_game(2, arrangement="beginner")
    s = replace(s, board=MappingProxyType({"B3": "natural-1", "C3": "red-2", "H1": "green-3"}), face_up=frozenset(),
                food=MappingProxyType({c: size(c) for c in s.food}), spare=(0, 0, 0), phase="move", turn=0, dealt=())
    assert {"swap B3 C3", "swap C3 B3"} <= {str(a) for a in GAME.legal_actions(s)}
    done = GAME.reconcile(s, {"B3": ["red-2^front"], "C3": ["natural-1^front"], "H1": ["green-3^back"]})
    assert [c.actions for c in done.choices] == [("swap B3 C3",)] and done.question is None
    for lifted, left, piece in (("C3", "B3", "natural-1"), ("B3", "C3", "red-2")):
        half = GAME.reconcile(s, {left: [("red-2" if left == "B3" else "natural-1") + "^front"],
                                  "H1": ["green-3^back"]})
        assert half.part_way and half.to_move == (piece,) and "is moving" not in half.step
        assert half.step.startswith("the face-down natural disc on B3 changes places with the face-down red disc on C3")
        assert half.step.endswith(f"on {lifted}") and "natural 1" not in half.step and "red 2" not in half.step


def test_a_road_and_the_act_it_allows_made_before_the_camera_settles_are_read_as_both():
    """Natural's disc changes places with an X-counter that turns out to be a road, so natural acts
    again; the hands turn the disc on H1 face up before the camera settles: both acts, in order."""
    road = next(x for x in x_ids(3) if x_kind(x) == "road")
    s = table(B3="natural-1", B4=road, C3="green-2", H1="natural-3")
    found = GAME.apply(s, "swap B3 B4")
    assert found.road and found.active == "natural"
    both = GAME.reconcile(s, GAME.expected(GAME.apply(found, "reveal H1")))
    assert [c.actions for c in both.choices] == [("swap B3 B4", "reveal H1")] and both.question is None
    assert both.choices[0].summary.startswith("the face-down natural disc on B3 changes places with the X-counter on B4")
    # the road alone is the swap alone: the second act is the next picture's
    assert [c.actions for c in GAME.reconcile(s, GAME.expected(found)).choices] == [("swap B3 B4",)]
    # the disc still in the hand, H1 turned up already: part-way, a calm step, nothing logged yet
    half = GAME.reconcile(s, {**GAME.expected(GAME.apply(found, "reveal H1")), "B4": ()})
    assert half.part_way and not half.ok and half.to_move == ("natural-1",)
    # the second act moves the same disc on (it changes places with green's on C3): green's disc is
    # put on B4 while natural's is still in the hand, a step that says where it goes
    on = GAME.apply(found, "swap B4 C3")
    half = GAME.reconcile(s, {"B3": [f"{road}^front"], "B4": ["green-2^back"], "H1": ["natural-3^back"]})
    assert half.part_way and not half.ok and half.to_move == ("natural-1",)
    assert half.step.endswith("put the face-down natural disc on B3 on C3") and ", then " in half.step
    assert [c.actions for c in GAME.reconcile(s, GAME.expected(on)).choices] == [("swap B3 B4", "swap B4 C3")]


def flipped(picture: dict[str, tuple[str, ...]], **faces: str) -> dict[str, list[str]]:
    """A picture with the pieces on the spaces named showing another face (``B3="front"``)."""
    return {w: [p.split("^")[0] + "^" + faces[w] if w in faces else p for p in ps] for w, ps in picture.items()}


def test_a_disc_turned_face_up_is_read_as_the_reveal_and_a_face_shown_too_early_is_refused():
    s = table(B3="natural-1", B4="x10", C3="green-2")
    # each piece is expected with the face the rules have up: all three lie face down
    assert GAME.expected(s) == {"B3": ("natural-1^back",), "B4": ("x10^back",), "C3": ("green-2^back",)}

    # natural turns their own disc over: the camera sees its front, and that is the reveal
    answer = GAME.reconcile(s, flipped(GAME.expected(s), B3="front"))
    assert [c.actions for c in answer.choices] == [("reveal B3",)]
    assert GAME.expected(GAME.apply(s, "reveal B3"))["B3"] == ("natural-1^front",)

    # green's disc turned up on natural's turn: refused, said by what its back shows, not by its face
    early = GAME.reconcile(s, flipped(GAME.expected(s), C3="front"))
    assert not early.ok and not early.part_way and early.offenders == ("green-2",)
    assert early.reason.startswith("the face-down green disc on C3 is turned face up")
    assert "turn it face down again" in early.reason and "green-2" not in early.reason and "2" not in early.reason
    early_x = GAME.reconcile(s, flipped(GAME.expected(s), B4="front"))  # an X-counter peeked at
    assert not early_x.ok and "the X-counter on B4 is turned face up" in early_x.reason


def test_a_swap_of_two_face_down_pieces_is_read_as_the_swap_and_the_faces_it_shows_are_then_expected():
    s = table(B3="natural-1", B4="x10", C3="green-2", H1="natural-3", H2="green-3")
    # natural's disc changes places with green's, both still face down: the camera reads the swap, a
    # calm step until the hands turn up what it shows (read as it is only if the table stays so)
    swapped = {**GAME.expected(s), "B3": ["green-2^back"], "C3": ["natural-1^back"]}
    answer = GAME.reconcile(s, swapped)
    assert [c.actions for c in answer.choices] == [("swap B3 C3",)] and answer.part_way
    assert answer.step.endswith(": turn face up green 2 on B3; natural 1 on C3")
    after = GAME.apply(s, "swap B3 C3")

    # two discs that changed places show themselves: the table is asked to turn them up, in public words
    assert GAME.expected(after)["B3"] == ("green-2^front",) and GAME.expected(after)["C3"] == ("natural-1^front",)
    owed = GAME.reconcile(after, swapped)
    assert owed.part_way and not owed.ok and set(owed.to_move) == {"green-2", "natural-1"}
    assert owed.step == "turn face up green 2 on B3; natural 1 on C3"  # face up by the rules: everyone sees them
    one_done = GAME.reconcile(after, flipped(swapped, B3="front"))  # one turned, the other not yet
    assert one_done.part_way and owed.to_move and list(one_done.to_move) == ["natural-1"]
    assert GAME.reconcile(after, flipped(swapped, B3="front", C3="front")).reason.startswith("the table is as")
    # green plays on before the hands turned them: green's reveal is read all the same
    green_reveals = GAME.reconcile(after, flipped(swapped, H2="front"))
    assert [c.actions for c in green_reveals.choices] == [("reveal H2",)]

    # the same swap with the pieces turned up at once reads the same
    assert [c.actions for c in GAME.reconcile(s, GAME.expected(after)).choices] == [("swap B3 C3",)]


def test_the_board_page_draws_a_face_down_piece_by_its_back_and_a_face_up_one_by_its_face():
    """Every phone, the disc's owner's too, is given the desert with a face-down disc named by its colour
    and space and drawn in its colour with nothing written on it; a face-up disc by its id with its
    number on it; the player to move by colour; the log in words."""
    s = table(B3="natural-1", B4="x10", C3="green-2", up="C3")
    for seat in (None, "natural", "green"):
        seen = GAME.view(s, seat)
        assert seen["placement"] == {"B3": ["natural-disc@B3"], "B4": ["x-counter@B4"], "C3": ["green-2"]}
        assert seen["names"]["natural-disc@B3"] == "the face-down natural disc on B3"
        assert seen["owners"] == {"natural-disc@B3": "natural", "green-2": "green"}
        down = seen["looks"]["natural-disc@B3"]
        assert (down["short"], down["colour"], down["label"]) == ("", "#d6b88c", "a natural disc")
        assert (seen["looks"]["green-2"]["short"], seen["looks"]["x-counter@B4"]["short"]) == ("2", "X")
        assert seen["active"] == "natural" and "natural-1" not in named_pieces(seen)  # its card is, by its id
    assert GAME.view(GAME.apply(s, "reveal B3"))["log"] == ["The disc on B3 was turned face up"]


def test_a_correction_records_the_table_as_seen_and_the_log_shows_it_without_the_pieces():
    s = table(B3="natural-1", B4="x10", C3="green-2")
    fix = GAME.correction(s, moved(s, B4="green-2", C3=None))  # green's disc on B4, the counter unseen
    after = GAME.apply(s, fix)
    assert after.board["B4"] == "green-2" and after.board["C3"] == "x10" and after.board["B3"] == "natural-1"
    assert GAME.view(after, "green")["log"][-1] == "The table was corrected by hand"
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


def test_an_eaten_character_is_a_chore_and_a_new_round_is_laid_out_by_hand_in_calm_steps():
    # green 2 was eaten and natural's character took the food counter x10: still on the table, each is a
    # chore for the hands (the panel lists it), not a disagreement; a counter in the pile is none
    s = table(B3="natural-1", C3="green-2", B4="x10")
    after = replace(s, board=MappingProxyType({"B3": "natural-1"}), dead=frozenset({"green-2"}),
                    mix=tuple(x for x in s.mix if x != "x10"))
    assert {"green-2", "x10"} <= set(GAME.taken_off(after))
    assert "natural-1" not in GAME.taken_off(after) and "x4" not in GAME.taken_off(after)
    assert GAME.declaration.clear == "take them off the board"  # what the pages tell the hands: never "turn them over"
    from types import SimpleNamespace

    from companion.app.console import status_text
    from companion.table.sync import Status

    terminal = status_text(SimpleNamespace(status=Status(to_clear=(("green-2", "C3"),)), last_picture={}, game=GAME))
    assert "the rules took these, take them off the board: green-2 (C3)" in terminal, terminal  # and so the terminal

    # round 2 begins: the rules turned every disc face down, took the road off C4 and laid x10 on D4;
    # the table still shows the round before, and is read as a step that says what is left to do
    begun = replace(table(B3="natural-1", C3="green-2", D4="x10"), round=2, history=("feed green-4",))
    seen = {"B3": ["natural-1^front"], "C3": ["green-2^front"], "C4": ["x4^front"]}
    step = GAME.reconcile(begun, seen)
    assert step.part_way and step.step.startswith("round 2 begins") and not step.ok
    assert "take the road off C4" in step.step and "turn face down the natural disc on B3" in step.step
    assert "lay a face-down X-counter on D4" in step.step and "x10" not in step.step and "food" not in step.step
    half = GAME.reconcile(begun, {**seen, "B3": ["natural-1^back"], "C4": []})  # one disc down, the road off
    assert half.part_way and "B3" not in half.step and "C4" not in half.step
    assert GAME.reconcile(begun, GAME.expected(begun)).reason.startswith("the table is as")
    # a disc moved meanwhile is no part of laying the round out
    assert not GAME.reconcile(begun, {**seen, "B3": [], "B4": ["natural-1^front"]}).part_way


def test_the_x_counters_the_hands_draw_at_random_are_taken_as_laid():
    # every disc but natural's last is placed; the companion will deal its own shuffled counters to
    # the 11 spaces left, but the players draw theirs at random from the pile and lay them face down
    s = GAME.new_game(3, seed=5, arrangement="beginner")
    while (dealt := GAME.apply(s, last := GAME.legal_actions(s)[0])).phase == "setup":
        s = dealt
    assert len(dealt.dealt) == 11
    picture = {w: [p] for w, ps in GAME.expected(s).items() for p in ps} | {last.space: [f"{last.disc}^back"]}
    step = GAME.reconcile(s, picture)
    assert step.part_way and step.step.endswith("lay face-down X-counters on the 11 empty spaces: 0 laid")
    assert "beside the desert" not in step.step

    drawn = list(reversed(dealt.mix))[:11]  # none of them the companion's own deal
    assert not set(drawn) & {dealt.board[w] for w in dealt.dealt}
    for where, x in zip(dealt.dealt[:4], drawn, strict=False):
        picture[where] = [f"{x}^back"]
    assert GAME.reconcile(s, picture).step.endswith("11 empty spaces: 4 laid")  # calm, counting

    for where, x in zip(dealt.dealt, drawn, strict=True):
        picture[where] = [f"{x}^back"]
    reading = GAME.reconcile(s, picture)
    [choice] = reading.choices
    assert not reading.ambiguous and choice.actions[0] == str(last) and choice.actions[1].startswith("lay ")
    after = s
    for action in choice.actions:
        after = GAME.apply(after, action)
    assert GAME.expected(after) == {w: tuple(ps) for w, ps in picture.items()}  # the game has what the hands laid
    assert len(after.mix) == len(dealt.mix) and {dealt.board[w] for w in dealt.dealt} <= set(after.mix)
    assert GAME.from_json(GAME.to_json(after)) == after  # saved and read back, the deal's spaces too
    for seat in (None, *after.seats):  # nobody reads which counter lies where
        seen = GAME.view(after, seat)
        assert seen["log"][-1] == "The X-counters were laid face down as the hands drew them"
        assert choice.actions[1] not in json.dumps(seen)

    # the players accept the table as the camera sees it (the panel's Accept): the counters they drew
    # are recorded too, the game's own going back to the pile
    accepted = GAME.apply(dealt, str(GAME.correction(dealt, picture)))
    assert GAME.expected(accepted) == GAME.expected(after) and sorted(accepted.mix) == sorted(after.mix)

    # a treasure from the stacks set aside is no counter of the pile: the table is wrong, and said so
    wrong = picture | {dealt.dealt[0]: [f"{dealt.stacks[0][0]}^back"]}
    assert not GAME.reconcile(s, wrong).ok
    # once the round's first move is made, the counters lie as laid
    moved_on = GAME.apply(after, next(a for a in GAME.legal_actions(after) if str(a).startswith("reveal")))
    with pytest.raises(IllegalMoveError, match="before the round's first move"):
        GAME.apply(moved_on, f"lay {dealt.dealt[0]}={after.mix[0]}")


def test_laying_eleven_counters_is_one_calm_step_with_time_for_each_counter(tmp_path):
    """The session the camera feeds, with a clock the story moves: the hold time is never waited for."""
    s = GAME.new_game(3, seed=5, arrangement="beginner")
    while (dealt := GAME.apply(s, last := GAME.legal_actions(s)[0])).phase == "setup":
        s = dealt
    now = [1000.0]
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=GAME, clock=lambda: now[0], step_hold=12.0)
    session.start(s, verify=False)
    picture = {w: list(ps) for w, ps in GAME.expected(s).items()} | {last.space: [f"{last.disc}^back"]}
    session.on_stable_change(picture)  # natural's last disc is down: eleven counters to lay
    assert session.status.step is not None and session.status.step.says.endswith("11 empty spaces: 0 laid")
    now[0] += 60.0  # a minute to fetch the pile and shuffle it: still calm
    assert not session.step_overdue() and session.status.out_of_sync is None
    for k, (where, x) in enumerate(zip(dealt.dealt, reversed(dealt.mix), strict=False)):
        picture[where] = [f"{x}^back"]
        session.on_stable_change(picture)
        now[0] += 60.0 if k == 3 else 10.0  # a pause after the fourth: seven counters are still to lay
        assert not session.step_overdue() and session.status.out_of_sync is None
    assert session.status.step is None and session.state.history[-2] == str(last)
    assert session.state.history[-1].startswith("lay ") and session.expected() == GAME.alike(session.state, picture)


def test_a_last_disc_placed_on_a_phone_says_once_how_many_counters_to_lay_and_takes_those_drawn(tmp_path):
    """The last disc placed on the panel, the table as it was: the hands have a disc to put down and
    eleven counters to lay, said once with their count, never red while they do it."""
    s = GAME.new_game(3, seed=5, arrangement="beginner")
    while (dealt := GAME.apply(s, last := GAME.legal_actions(s)[0])).phase == "setup":
        s = dealt
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=GAME, clock=lambda: 1000.0)
    session.start(s, verify=False)
    picture = {w: list(ps) for w, ps in GAME.expected(s).items()}
    session.on_stable_change(picture)
    session.act(str(last))
    says = session.status.step.says
    assert session.status.out_of_sync is None and says.startswith("entered on the panel, now on the table: put "), says
    assert says.count("X-counter") == 1 and says.endswith("(11 in all)") and not re.search(r"\bx\d", says), says
    picture[last.space] = [f"{last.disc}^back"]
    for k, (where, x) in enumerate(zip(dealt.dealt, reversed(dealt.mix), strict=False)):  # drawn from the pile
        picture[where] = [f"{x}^back"]
        session.on_stable_change(picture)
        assert session.status.out_of_sync is None and (session.status.step is None) == (k == 10)
    assert session.state.history[-1].startswith("lay ") and session.expected() == GAME.alike(session.state, picture)


def test_a_fight_is_said_in_words_on_every_phone_and_in_the_log():
    s = table(phase="eat", up="B3 C3", B3="natural-5", C3="green-2")
    s = replace(s, food=MappingProxyType({**s.food, "natural-5": 0}))  # natural's 5 is hungry
    assert GAME.seat_choice(s, GAME.parse_action("attack B3 C3"), "natural") == "Your 5 on B3 attacks green's 2 on C3"
    assert GAME.view(s, "natural")["turn_ends"].startswith("A turn ends with food taken, a fight fought")
    s = GAME.apply(GAME.apply(s, "attack B3 C3"), "commit natural 3")
    assert GAME.view(s, "natural")["seat_card"][0] == "Your fight markers: 3 in your closed fist, 4 left"
    assert GAME.view(s, "green")["seat_card"][0] == "Your fight: close your fist (0 to 7 markers)"
    s = GAME.apply(GAME.apply(s, "commit green 1"), "show")
    assert GAME.view(s, None)["log"][-1] == ("Both fists opened: natural's 5 with 3 markers against green's 2 with "
                                             "1 marker; natural's 5 won and ate green's 2")
    assert GAME.view(s, "natural")["log"][-1].startswith("Both fists opened: your 5 with 3 markers")
    # the replay finds each event's words: the view's history says each action as its event does
    public = GAME.view(s, None)
    assert public["history"][-3:] == ["commit natural", "commit green", "show"]
    assert [GAME.said(s, a, None) for a in s.history] == public["history"]
    assert len(public["history"]) == len(public["log"])


def test_the_desert_names_its_columns_and_rows_for_the_rulers():
    plan = GAME.layout(GAME.new_game(3, arrangement="beginner"))
    assert (plan.cells["C4"].to_json()["column"], plan.cells["C4"].to_json()["row"]) == ("C", "4")
    assert {c.to_json()["column"] for c in plan.cells.values()} == set("ABCDEFGH")
    assert GAME.view(GAME.new_game(3), None)["turn_ends"] == \
        "Play waits for the natural player, the green player and the red player to put the food held on the " \
        "characters' cards, each on their own phone."


NAMED = [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]


def test_a_disc_put_where_the_rules_forbid_is_refused_with_the_rule_it_breaks():
    # Ann (natural) is first to place a disc on the beginner's desert; C2 and B5 are oases
    s = GAME.new_game(3, arrangement="beginner", seats=NAMED)
    too_soon = GAME.reconcile(s, moved(s, D1="natural-1^back"))  # before anyone has put their food down
    assert too_soon.reason == ("a natural disc put on D1: Ann, Bo and Cy must first put their food on their "
                               "characters' cards, each on their own phone")
    while s.phase == "setup" and str(GAME.legal_actions(s)[0]).startswith("feed"):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    on_oasis = GAME.reconcile(s, moved(s, C2="natural-1^back"))
    assert on_oasis.reason == "a natural disc put on C2: C2 is an oasis: discs are placed on sand, not on an oasis"
    out_of_turn = GAME.reconcile(s, moved(s, D1="green-1^back"))
    assert out_of_turn.reason == "a green disc put on D1: it is Ann's turn to place a disc, not Bo's"
    assert "green-1" not in out_of_turn.reason  # a disc's number stays hidden

    # Ann places on the panel: the hands are told once where the disc goes
    placed = GAME.apply(s, "place natural-1 D1")
    shifted = GAME.reconcile(placed, moved(placed, D1=None, D2="natural-1^back"))
    assert shifted.reason == ("the natural disc on D1 was moved to D2: a disc placed stays where it was put until "
                              "every disc is placed; put it back on D1")


def test_the_box_holds_the_pile_and_a_counter_set_aside_laid_is_refused_saying_so():
    s = GAME.new_game(3, seed=5, arrangement="beginner", seats=NAMED)
    while (dealt := GAME.apply(s, last := GAME.legal_actions(s)[0])).phase == "setup":
        s = dealt
    set_aside = {x for stack in s.stacks for x in stack}
    box = GAME.in_box(s)
    assert last.disc in box and set(s.mix) <= set(box) and not set_aside & set(box)  # the hands never draw those

    # the hands lay the treasure stacks' counters first, as a box handing out the lowest ids would
    picture = {w: [p] for w, ps in GAME.expected(s).items() for p in ps} | {last.space: [f"{last.disc}^back"]}
    for where, x in zip(dealt.dealt, sorted(set_aside)[:2] + list(dealt.mix), strict=False):
        picture[where] = [f"{x}^back"]
    refused = GAME.reconcile(s, picture)
    first, second = sorted(dealt.dealt[:2])
    assert refused.reason == (f"the X-counters laid on {first} and {second} were set aside: lay ones from the pile "
                              "instead"), refused.reason


def test_the_log_says_what_a_disc_changed_places_with_and_the_score_names_the_players():
    s = replace(table(B3="natural-1", B4="x10", C3="green-2"), names=("Ann", "Bo", "Cy"),
                history=("place natural-1 B3", "place green-2 C3"))
    with_counter = GAME.view(GAME.apply(s, "swap B3 B4"))["log"][-1]
    assert with_counter == "The disc on B3 and the X-counter on B4 changed places"
    assert GAME.view(GAME.apply(s, "swap B3 C3"))["log"][-1] == "The discs on B3 and C3 changed places"
    # a state whose log does not say how its discs came there: the swap is said without guessing
    unknown = replace(s, history=())
    said = GAME.view(GAME.apply(unknown, "swap B3 B4"))["log"][-1]
    assert said == "The disc on B3 changed places with the piece on B4"

    standing = GAME.view(s)["standing"]
    assert standing[1:] == [f"  {name}: 0 VP, 6 characters alive, {s.total_food(k)} food" for k, name in
                            enumerate(("Ann (natural)", "Bo (green)", "Cy (red)"))], standing
