"""The partner card race at the table: every card, bumps, walls, stacks, the goal zone, partners.

Yellow and blue are partners, green and red. Yellow's start leads onto T0 and its goal zone
branches off after T63; green's start leads onto T16, blue's onto T32, red's onto T48.
"""

from __future__ import annotations

import functools
import itertools
import random
from types import MappingProxyType

import pytest

from companion.errors import IllegalMoveError, NotationError
from companion.games.partner_race.cards import CARDS, DECK
from companion.games.partner_race.rules import (Fold, Play, RaceState, Step, apply, from_json, legal_actions,
                                                new_race, outcomes, parse_action, playable, plays, to_json,
                                                winners)
from companion.games.partner_race.track import COLOURS, locked, partner, pawns_of


def race(turn: str = "yellow", **at: str) -> RaceState:
    """Every pawn at home but those named (``yellow_1="T5"``), ``turn`` to play."""
    where = {p: "home" for c in COLOURS for p in pawns_of(c)}
    where.update({k.replace("_", "-"): v for k, v in at.items()})
    return RaceState(MappingProxyType(where), turn=COLOURS.index(turn))


def play(state: RaceState, text: str) -> RaceState:
    return apply(state, parse_action(text))


# ------------------------------------------------------------------------------ out of the home base
def test_only_a_start_card_brings_a_pawn_out_and_the_starting_space_is_not_counted():
    s = play(race(), "play yellow start yellow-1:start")
    assert s.where["yellow-1"] == "start" and s.active == "green"
    with pytest.raises(IllegalMoveError, match="home base"):
        apply(race(), parse_action("play yellow 5 yellow-2:5"))
    s = play(race(yellow_1="start"), "play yellow 5 yellow-1:5")
    assert s.where["yellow-1"] == "T4"  # T0 is the first step
    for name in ("8s", "13s"):  # these bring a pawn out, or move it 8 / 13
        assert play(race(), f"play yellow {name} yellow-3:start").where["yellow-3"] == "start"
    assert play(race(yellow_1="T2"), "play yellow 13s yellow-1:13").where["yellow-1"] == "T15"
    with pytest.raises(IllegalMoveError, match="does not bring a pawn out"):
        play(race(), "play yellow 5 yellow-1:start")


@pytest.mark.parametrize("name", ["2", "3", "5", "6", "9", "10", "12"])
def test_a_number_card_moves_one_pawn_exactly_that_many_steps_forward(name: str):
    n = int(name)
    s = play(race(yellow_1="T20", yellow_2="T40"), f"play yellow {name} yellow-2:{n}")
    assert s.where["yellow-2"] == f"T{40 + n}" and s.where["yellow-1"] == "T20"
    with pytest.raises(IllegalMoveError, match=f"is {n} steps forward"):
        play(race(yellow_1="T20"), f"play yellow {name} yellow-1:{n + 1}")
    with pytest.raises(IllegalMoveError, match="moves one pawn"):
        play(race(yellow_1="T20", yellow_2="T40"), f"play yellow {name} yellow-1:{n},yellow-2:{n}")
    with pytest.raises(IllegalMoveError, match="not yellow's to move"):
        play(race(yellow_1="T20", green_1="T30"), f"play yellow {name} green-1:{n}")


def test_the_one_fourteen_card_moves_one_or_fourteen_and_nothing_else():
    assert play(race(yellow_1="T3"), "play yellow 1-14 yellow-1:1").where["yellow-1"] == "T4"
    assert play(race(yellow_1="T3"), "play yellow 1-14 yellow-1:14").where["yellow-1"] == "T17"
    with pytest.raises(IllegalMoveError, match="1 or 14"):
        play(race(yellow_1="T3"), "play yellow 1-14 yellow-1:7")


# ------------------------------------------------------------------------------ bumps and stacks
def test_landing_on_a_lone_pawn_of_another_colour_bumps_it_home_even_the_partner():
    s = play(race(yellow_1="T10", green_2="T15"), "play yellow 5 yellow-1:5")
    assert s.where["yellow-1"] == "T15" and s.where["green-2"] == "home"
    s = play(race(yellow_1="T10", blue_1="T12"), "play yellow 2 yellow-1:2")
    assert s.where["blue-1"] == "home"  # a partner's pawn is another player's pawn too


def test_two_pawns_of_one_colour_are_a_stack_the_pawn_landing_on_it_goes_home():
    s = play(race(yellow_1="T10", yellow_2="T13"), "play yellow 3 yellow-1:3")
    assert s.where["yellow-1"] == s.where["yellow-2"] == "T13"  # a stack: protected
    s = play(race(turn="green", green_1="T10", yellow_1="T13", yellow_2="T13"), "play green 3 green-1:3")
    assert s.where["green-1"] == "home" and s.where["yellow-1"] == s.where["yellow-2"] == "T13"
    s = play(race(turn="green", green_1="T10", yellow_1="T12", yellow_2="T12"), "play green 3 green-1:3")
    assert s.where["green-1"] == "T13"  # a stack is passed, not a wall


# ------------------------------------------------------------------------------ walls
def test_a_pawn_on_its_starting_space_is_a_wall_nobody_passes():
    s = race(turn="yellow", yellow_1="T14", green_1="start")  # green's junction lies between T15 and T16
    assert play(s, "play yellow 1-14 yellow-1:1").where["yellow-1"] == "T15"
    with pytest.raises(IllegalMoveError, match="wall"):
        play(s, "play yellow 3 yellow-1:3")
    # backwards: only the wall's own colour passes it
    with pytest.raises(IllegalMoveError, match="wall"):
        play(race(yellow_1="T17", green_1="start"), "play yellow -4 yellow-1:-4")
    s = play(race(turn="green", green_1="start", green_2="T17"), "play green -4 green-2:-4")
    assert s.where["green-2"] == "T13"


# ------------------------------------------------------------------------------ backwards
def test_minus_four_from_the_starting_space_puts_a_pawn_just_before_its_goal_zone():
    s = play(race(yellow_1="start"), "play yellow -4 yellow-1:-4")
    assert s.where["yellow-1"] == "T60"
    s = play(race(yellow_1="T60", turn="yellow"), "play yellow 5 yellow-1:5")  # T61 T62 T63 G1 G2
    assert s.where["yellow-1"] == "G2"
    with pytest.raises(IllegalMoveError, match="goal zone"):
        play(race(yellow_1="G2"), "play yellow -4 yellow-1:-4")
    with pytest.raises(IllegalMoveError, match="4 steps backwards"):
        play(race(yellow_1="T9"), "play yellow -4 yellow-1:4")


# ------------------------------------------------------------------------------ the goal zone
def test_goal_circles_fill_from_the_innermost_and_a_locked_pawn_never_moves():
    s = play(race(yellow_1="T62"), "play yellow 5 yellow-1:5")  # T63 G1 G2 G3 G4
    assert s.where["yellow-1"] == "G4"
    with pytest.raises(IllegalMoveError, match="locked"):
        play(race(yellow_1="G4", yellow_2="T3"), "play yellow 2 yellow-1:2")


def test_too_many_steps_in_the_goal_zone_turn_the_pawn_back_even_out_onto_the_board():
    # from T63: G1 G2 G3 G4, then back G3 G2: a 6 overshoots the innermost circle by two
    assert play(race(yellow_1="T63"), "play yellow 6 yellow-1:6").where["yellow-1"] == "G2"
    # a pawn locked in G4 turns the next one round at G3; a 9 takes it back out onto the track
    s = play(race(yellow_1="G4", yellow_2="T62"), "play yellow 9 yellow-2:9")  # T63 G1 G2 G3 G2 G1 T63 T62 T61
    assert s.where["yellow-2"] == "T61"


def test_a_pawn_going_back_in_the_goal_zone_turns_again_at_a_pawn_it_meets():
    # yellow-1 in G2 with a 3: G3, then G4 is taken: back to G2, G1
    s = race(yellow_1="G2", yellow_2="G4", yellow_3="T60")
    assert play(s, "play yellow 3 yellow-1:3").where["yellow-1"] == "G1"
    # from G1 with G3 and G4 taken, a 3: G2, turned at G3, back G1, and out onto the track
    s = race(yellow_1="G1", yellow_2="G4", yellow_3="G3")
    assert play(s, "play yellow 3 yellow-1:3").where["yellow-1"] == "T63"
    assert play(s, "play yellow 1-14 yellow-1:1").where["yellow-1"] == "G2"
    # turned at a pawn going in and at another going out: boxed in, it cannot move at all
    with pytest.raises(IllegalMoveError, match="bars the way"):
        play(race(yellow_1="G1", yellow_2="G2", yellow_3="G3"), "play yellow 1-14 yellow-2:1")
    with pytest.raises(IllegalMoveError):  # nobody passes a pawn in the goal zone: G1 is taken
        play(race(yellow_1="G1", yellow_2="T62"), "play yellow 3 yellow-2:3")


# ------------------------------------------------------------------------------ the 7
def test_the_seven_is_shared_between_pawns_each_moved_once_seven_in_all():
    s = play(race(yellow_1="T0", yellow_2="T20"), "play yellow 7 yellow-1:3,yellow-2:4")
    assert (s.where["yellow-1"], s.where["yellow-2"]) == ("T3", "T24")
    with pytest.raises(IllegalMoveError, match="seven steps in all"):
        play(race(yellow_1="T0", yellow_2="T20"), "play yellow 7 yellow-1:3,yellow-2:3")
    with pytest.raises(IllegalMoveError, match="moved once"):
        play(race(yellow_1="T0"), "play yellow 7 yellow-1:3,yellow-1:4")
    s = play(race(yellow_1="T0", green_1="T2"), "play yellow 7 yellow-1:7")
    assert s.where["yellow-1"] == "T7" and s.where["green-1"] == "T2"  # passing bumps nobody


def test_the_seven_that_locks_the_last_pawn_spends_the_rest_on_the_partner():
    s = race(yellow_1="G4", yellow_2="G3", yellow_3="G2", yellow_4="T63", blue_1="T40")
    after = play(s, "play yellow 7 yellow-4:1,blue-1:6")  # yellow-4 locks in G1; six steps for blue
    assert after.where["yellow-4"] == "G1" and after.where["blue-1"] == "T46"
    with pytest.raises(IllegalMoveError, match="not yellow's to move"):
        play(s, "play yellow 7 blue-1:6,yellow-4:1")  # the partner's pawn only once all own are locked
    assert "play yellow 7 yellow-4:1,blue-1:6" in {str(p) for p in plays(s, "7")}  # the camera can read it


def test_a_player_with_every_pawn_locked_plays_for_the_partner():
    s = race(yellow_1="G4", yellow_2="G3", yellow_3="G2", yellow_4="G1", blue_1="T40")
    assert play(s, "play yellow 5 blue-1:5").where["blue-1"] == "T45"
    assert play(s, "play yellow start blue-2:start").where["blue-2"] == "start"
    with pytest.raises(IllegalMoveError, match="not green's"):
        play(race(turn="green", green_1="T1", blue_1="T5"), "play green 2 blue-1:2")


# ------------------------------------------------------------------------------ swap
def test_the_swap_card_is_played_even_with_no_pawn_of_ones_own_out():
    s = play(race(green_1="T5", red_2="T30"), "play yellow swap green-1<>red-2")
    assert (s.where["green-1"], s.where["red-2"]) == ("T30", "T5")
    s = play(race(yellow_1="T5", yellow_2="T9"), "play yellow swap yellow-1<>yellow-2")  # one's own colour too
    assert (s.where["yellow-1"], s.where["yellow-2"]) == ("T9", "T5")
    for protected in ("start", "G1", "home"):
        with pytest.raises(IllegalMoveError, match="protected"):
            play(race(green_1="T5", red_2=protected), "play yellow swap green-1<>red-2")
    with pytest.raises(IllegalMoveError, match="protected"):  # a stack of one colour is protected
        play(race(green_1="T5", green_2="T5", red_2="T9"), "play yellow swap green-1<>red-2")
    assert playable(race(green_1="T5", red_2="T30"), "swap")
    assert not playable(race(green_1="T5"), "swap")  # one pawn on the track: nothing to swap with


# ------------------------------------------------------------------------------ folding, deals, the deck
def test_a_player_who_can_play_none_of_their_cards_folds_for_the_rest_of_the_deal():
    s = race()  # all of yellow's pawns at home: no card but a start card, or the swap with two pawns out
    hand = ("5", "7", "-4", "1-14")
    assert not any(playable(s, name) for name in hand)
    after = apply(s, Fold("yellow"))
    assert after.cards_left[0] == 0 and after.active == "green"
    for colour in ("green", "blue", "red"):  # everybody else plays on; yellow is skipped
        after = apply(after, Fold(colour)) if colour != "green" else play(after, "play green start green-1:start")
        if colour == "green":
            assert after.active == "blue"
    assert after.active == "green" and after.cards_left == (0, 3, 0, 0)


def test_the_dealer_deals_three_times_then_the_next_player_shuffles_and_deals():
    s = new_race(seed=1, dealer=3)
    assert s.active == "yellow" and s.deal == 1
    for deal in range(1, 4):
        for colour in ("yellow", "green", "blue", "red"):
            s = apply(s, Fold(colour)) if s.active == colour else s
        assert s.deal == deal + 1
    assert s.dealer == 0 and s.deals == 1 and s.active == "green"  # yellow deals now; green starts


def test_a_card_the_deck_cannot_still_hold_is_refused():
    s = race(yellow_1="T1", green_1="T20")
    s = RaceState(s.where, turn=0, seen=MappingProxyType({"5": DECK["5"]}))
    with pytest.raises(IllegalMoveError, match="cannot be in anybody's hand"):
        play(s, "play yellow 5 yellow-1:5")
    assert not playable(s, "5")


def test_the_team_that_locks_all_eight_pawns_wins():
    s = race(yellow_1="G4", yellow_2="G3", yellow_3="G2", yellow_4="T63",
             blue_1="G4", blue_2="G3", blue_3="G2", blue_4="G1")
    won = play(s, "play yellow 1-14 yellow-4:1")
    assert winners(won) == ("yellow", "blue") and legal_actions(won) == []
    with pytest.raises(IllegalMoveError, match="over"):
        play(won, "play green start green-1:start")


# ------------------------------------------------------------------------------ notation and properties
@pytest.mark.parametrize("text", ["play yellow 5", "play purple 5 x:1", "play yellow 5 yellow-9:5", "play yellow 11 yellow-1:5",
                                  "play yellow swap yellow-1", "play yellow 5 yellow-1:five", "fold"])
def test_notation_mistakes_are_named(text: str):
    with pytest.raises(NotationError):
        parse_action(text)


def test_random_games_never_raise_and_every_action_reads_back_and_no_state_is_changed():
    rng = random.Random(7)
    for game in range(6):
        s = new_race(seed=game, dealer=game % 4)
        for _turn in range(200):
            actions = legal_actions(s)
            if not actions:
                break
            plays_ = [a for a in actions if isinstance(a, Play)]
            action = rng.choice(plays_) if plays_ and rng.random() < 0.95 else actions[0]
            assert str(parse_action(str(action))) == str(action)
            before = to_json(s)
            s2 = apply(s, action)
            assert to_json(s) == before  # apply never mutates
            assert from_json(to_json(s2)) == s2 or to_json(from_json(to_json(s2))) == to_json(s2)
            s = s2


def test_every_card_kind_has_its_plays_enumerated_only_when_legal():
    s = race(yellow_1="T10", yellow_2="start", green_1="T30")
    for name in CARDS:
        for p in plays(s, name):
            apply(s, p)  # never raises
    assert {p.card for p in legal_actions(s) if isinstance(p, Play)} >= {"5", "start", "-4", "7", "swap", "1-14"}


# ------------------------------------------------------------------------------ the rules agree with themselves
HOWS: tuple[int | str, ...] = ("start", -4, -1, 0, *range(1, 15))  # every step count a card names, and some none does


def written(action: Fold | Play) -> str:
    """An action as players mean it: a swap names two pawns in either order, one play."""
    if isinstance(action, Play) and action.swap is not None:
        return f"play {action.colour} {action.card} {'<>'.join(sorted(action.swap))}"
    return str(action)


@functools.cache
def shares(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` counts of at least one, in order."""
    return [tuple(b - a for a, b in zip((0, *cut), (*cut, total))) for cut in itertools.combinations(range(1, total), parts - 1)]


def candidates(state: RaceState, name: str) -> list[Play]:
    """Everything a player could write for this card here, legal or not. A one-pawn card: every pawn
    with every step count and 'start', and two pawns at once. The swap: every pair of pawns, a pawn with
    itself included. The 7: one pawn or two (every pawn on the board, every share), and three or more
    among the team's pawns that stand somewhere a step can move them from (the 7 brings no pawn out of
    its home base and a locked pawn never moves: every longer order over all sixteen pawns would be
    a million candidates per position), and shares that are not seven or not at least one each."""
    colour = state.active
    pawns = sorted(state.where)
    c = CARDS[name]
    if c.swap:
        return [Play(colour, name, swap=(a, b)) for a in pawns for b in pawns]
    if not c.split:
        mine = pawns_of(colour) + pawns_of(partner(colour))
        return [Play(colour, name, (Step(p, how),)) for p in pawns for how in HOWS] + \
            [Play(colour, name, (Step(a, n), Step(b, n))) for a in mine for b in mine if a != b for n in c.steps]
    out = [Play(colour, name, (Step(p, 7),)) for p in pawns]
    out += [Play(colour, name, (Step(a, x), Step(b, y))) for a in pawns for b in pawns if a != b
            for x, y in shares(7, 2)]
    live = [p for p in pawns_of(colour) + pawns_of(partner(colour))
            if state.where[p] != "home" and not locked(p, state.where)]
    for k in range(3, min(len(live), 7) + 1):
        for order in itertools.permutations(live, k):
            out += [Play(colour, name, tuple(Step(p, n) for p, n in zip(order, share))) for share in shares(7, k)]
    for a in live:
        out += [Play(colour, name, (Step(a, n),)) for n in (0, 6, 8, -1)]
        out += [Play(colour, name, (Step(a, 3), Step(a, 4))), Play(colour, name, (Step(a, "start"),))]
    return out


def accepted(state: RaceState, action: Play) -> bool:
    try:
        apply(state, action)
    except IllegalMoveError:
        return False
    return True


def assert_rules_agree(state: RaceState) -> None:
    """(a) every action legal_actions offers applies; (b) for each kind of card, the candidates apply
    accepts are exactly the plays legal_actions offers of it."""
    offered = legal_actions(state)
    for action in offered:
        apply(state, action)  # never raises
    for name in CARDS:  # and where a play leaves the pawns is where apply puts them
        for play, after in outcomes(state, name):
            assert after == dict(apply(state, play).where), play
    for name in CARDS:
        mine = {written(a) for a in offered if isinstance(a, Play) and a.card == name}
        taken = {written(a) for a in candidates(state, name) if accepted(state, a)}
        assert taken == mine, (f"{name} at {dict(state.where)}: apply accepts but legal_actions misses "
                               f"{sorted(taken - mine)[:5]}; offered but refused {sorted(mine - taken)[:5]}")


def random_positions(game: int, every: int) -> list[RaceState]:
    """Moments of a random game played by the rules (seeded: the same positions every run)."""
    out = []
    rng = random.Random(1000 + game)
    s = new_race(seed=game, dealer=game % 4)
    for turn in range(300):
        actions = legal_actions(s)
        if not actions:
            break
        if turn % every == every - 1:
            out.append(s)
        plays_ = [a for a in actions if isinstance(a, Play)]
        s = apply(s, rng.choice(plays_) if plays_ and rng.random() < 0.95 else actions[0])
    return out


@pytest.mark.parametrize("game", [0, 1, 2])
def test_in_random_games_every_card_is_played_exactly_the_ways_the_rules_offer(game: int):
    positions = random_positions(game, every=29)
    assert len(positions) >= 8
    for s in positions:
        assert_rules_agree(s)


@pytest.mark.parametrize("position", [
    # the report: yellow-3 in its first circle moves on to make room, yellow-4 locks behind it, blue takes the rest
    dict(yellow_1="G4", yellow_2="G3", yellow_3="G1", yellow_4="T62", blue_1="T40", blue_2="T50", green_1="T45"),
    # three locked, the last one steps in with part of the 7 and the partner's two pawns share the rest
    dict(yellow_1="G4", yellow_2="G3", yellow_3="G2", yellow_4="T61", blue_1="T40", blue_2="start", red_1="T42"),
    # all of yellow's locked: every card plays blue's pawns, a stack of blue's among them
    dict(yellow_1="G4", yellow_2="G3", yellow_3="G2", yellow_4="G1", blue_1="T30", blue_2="T30", blue_3="G2"),
    # stacks of both colours, a wall, a pawn in the goal zone, pawns behind their starts
    dict(yellow_1="T10", yellow_2="T10", yellow_3="G2", yellow_4="T62", green_1="start", green_2="T12",
         green_3="T12", red_1="T13", blue_1="T60"),
    # boxed in the goal zone: G1 and G3 taken, G2 cannot move; yellow-4 waits behind the first circle
    dict(yellow_1="G1", yellow_2="G2", yellow_3="G3", yellow_4="T60", blue_1="T63", blue_2="T0"),
    # two of yellow's in the goal zone with room to turn, the partner far from its goal
    dict(yellow_1="G2", yellow_2="G4", yellow_3="T63", yellow_4="T59", blue_1="T33", green_1="T62", red_1="T1"),
])
def test_constructed_positions_with_goal_zones_stacks_and_the_seven_across_partners(position: dict[str, str]):
    assert_rules_agree(race(**position))


def test_the_seven_that_makes_room_in_the_goal_zone_then_locks_the_last_pawn_is_offered():
    """The rulebook: once all of a player's pawns are locked the player helps the partner, and a 7
    that locks the last pawn with some of its steps gives the rest to the partner. A pawn in the goal
    zone that moves on to make room for the last one is a part like any other."""
    s = race(yellow_1="G4", yellow_2="G3", yellow_3="G1", yellow_4="T62", blue_1="T40")
    after = play(s, "play yellow 7 yellow-3:1,yellow-4:2,blue-1:4")
    assert [after.where[p] for p in ("yellow-3", "yellow-4", "blue-1")] == ["G2", "G1", "T44"]
    assert "play yellow 7 yellow-3:1,yellow-4:2,blue-1:4" in {str(p) for p in plays(s, "7")}
    with pytest.raises(IllegalMoveError, match="not yellow's to move now"):  # yellow-4 first: not all locked yet
        play(s, "play yellow 7 yellow-3:1,blue-1:4,yellow-4:2")
