"""Saved states that describe no table are refused, saying which piece or place and why.

A state file is read back by ``show``, ``act`` and ``score``, and every game's log starts from one.
Edited by hand or damaged, it must not become a game the rules then play on as if it were real:
two tokens on one field, two pawns in one goal circle, a colour seated twice, counters off their
track. Each story below damages a real state in one way and reads the refusal.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import IllegalMoveError, StateFormatError
from companion.games import get_game
from tests.tables import BOARD

FOG = get_game("fog")
RACE = get_game("partner-race")


def fog_state(players: int = 3) -> dict[str, Any]:
    """A FOG game after the draft and a few moves, as saved."""
    state = FOG.new_game(players=players, seed=7)
    while state.phase == "draft":
        state = FOG.apply(state, FOG.legal_actions(state)[0])
    for _ in range(3):
        state = FOG.apply(state, FOG.legal_actions(state)[-1])
    return FOG.to_json(state)


def refused(game: Any, data: dict[str, Any], change: Callable[[dict[str, Any]], None], *words: str) -> str:
    damaged = copy.deepcopy(data)
    change(damaged)
    with pytest.raises(StateFormatError) as caught:
        game.from_json(damaged)
    message = str(caught.value)
    for word in words:
        assert word in message, (word, message)
    return message


def beach_with(data: dict[str, Any]) -> tuple[str, str, str]:
    """Two beach fields that each hold one piece, and the piece on the second."""
    held = [c for c, ps in sorted(data["placement"].items()) if BOARD.cells[c].kind == "beach" and len(ps) == 1]
    return held[0], held[1], data["placement"][held[1]][0]


def test_a_real_fog_game_reads_back_whole():
    data = fog_state()
    assert FOG.to_json(FOG.from_json(data)) == data


def test_fog_tokens_that_no_table_can_hold_are_refused_by_name():
    data = fog_state()
    first, second, piece = beach_with(data)

    def stacked(d: dict[str, Any]) -> None:
        d["placement"][first].append(d["placement"].pop(second)[0])

    refused(FOG, data, stacked, piece, first, "holds 1")
    woods = next(c.id for c in BOARD.cells.values() if c.kind == "woods")

    def in_the_woods(d: dict[str, Any]) -> None:
        d["placement"][woods] = d["placement"].pop(second)

    refused(FOG, data, in_the_woods, piece, "in the woods")  # (every wood alike to players: no place id)

    def twice(d: dict[str, Any]) -> None:
        d["placement"][first].append(piece)

    refused(FOG, data, twice, piece, "stands on")

    def twice_at_setup(d: dict[str, Any]) -> None:
        cell = next(c for c in d["setup"] if piece not in d["setup"][c])
        d["setup"][cell] = d["setup"][cell] + [d["setup"][next(c for c in d["setup"] if d["setup"][c])][0]]

    refused(FOG, data, twice_at_setup, "setup")
    refused(FOG, data, lambda d: d["placement"].__setitem__("Z99", [piece]), "unknown cell", "Z99")
    refused(FOG, data, lambda d: d["placement"][first].__setitem__(0, "dragon-1"), "unknown piece", "dragon-1")


def test_fog_seats_that_no_table_can_have_are_refused_by_name():
    data = fog_state()

    def colour_twice(d: dict[str, Any]) -> None:
        d["players"][1]["colours"] = list(d["players"][0]["colours"])

    refused(FOG, data, colour_twice, data["players"][0]["colours"][0], "played twice")
    refused(FOG, data, lambda d: d["players"][0].__setitem__("colours", ["purple"]), "unknown colour", "purple")
    refused(FOG, data, lambda d: d["turn_order"].append(d["turn_order"][0]), "turn_order")
    refused(FOG, data, lambda d: d.__setitem__("players", d["players"][:1]), "1 players", "multi")
    islander = next(iter(data["owners"]))
    refused(FOG, data, lambda d: d["owners"].__setitem__(islander, "white"), islander, "'white'", "not playing")


def test_fog_pieces_the_game_took_away_cannot_stand_on_the_board():
    data = fog_state()
    _, cell, _ = beach_with(data)
    islander = next(p for c, ps in data["placement"].items() for p in ps if p in BOARD.islanders)
    refused(FOG, data, lambda d: d["lost"].__setitem__(islander, "A"), islander, "lost")
    removed = fog_state(players=3)["removed"][0]  # three players: two islanders are not in the game

    def back_on_the_board(d: dict[str, Any]) -> None:
        free = next(c for c, k in BOARD.cells.items() if k.kind == "beach" and c not in d["placement"])
        d["placement"][free] = [removed]

    refused(FOG, data, back_on_the_board, removed, "not in this game")


@pytest.mark.parametrize("key,value,words", [
    ("fog", 99, ("fog 99", "off the FOG track")),
    ("mp_left", -1, ("mp_left",)),
    ("round", 0, ("round",)),
    ("seed", -5, ("seed -5",)),
    ("turn_index", 7, ("turn_index 7",)),
    ("area_values", {"A": -2}, ("area_values['A']", "-2")),
    ("area_values", {"Q": 3}, ("area_values['Q']",)),
    ("prep_stacks", {"purple": [3]}, ("prep_stacks['purple']",)),
    ("prep_taken", {"black": [0]}, ("prep_taken['black']",)),
    ("end_reason", "boredom", ("end_reason 'boredom'",)),
])
def test_fog_counters_off_their_track_are_refused_by_name(key: str, value: Any, words: tuple[str, ...]):
    refused(FOG, fog_state(), lambda d: d.__setitem__(key, value), *words)


def test_a_fog_correction_cannot_record_two_tokens_on_one_field():
    state = FOG.from_json(fog_state())
    first, second, piece = beach_with(FOG.to_json(state))
    with pytest.raises(IllegalMoveError, match=f"{piece}.*{first}.*holds 1"):
        FOG.apply(state, f"correct {piece}:{second}>{first}")


# ---------------------------------------------------------------------------------------- the partner race
def race_state() -> dict[str, Any]:
    """A partner race some plays in, pawns out on the track, as saved."""
    state = RACE.new_game(players=4, seed=3)
    for _ in range(12):
        actions = [a for a in RACE.legal_actions(state) if not str(a).startswith("fold")]
        state = RACE.apply(state, actions[-1] if actions else RACE.legal_actions(state)[0])
    return RACE.to_json(state)


def test_a_real_partner_race_reads_back_whole():
    data = race_state()
    assert RACE.to_json(RACE.from_json(data)) == data


def test_race_pawns_placed_as_no_play_leaves_them_are_refused_by_name():
    data = race_state()

    def one_circle(d: dict[str, Any]) -> None:
        d["where"]["yellow-1"] = d["where"]["yellow-2"] = "G2"

    refused(RACE, data, one_circle, "yellow-1", "yellow-2", "goal circle", "G2")

    def two_colours(d: dict[str, Any]) -> None:
        d["where"]["yellow-1"] = d["where"]["green-3"] = "T20"

    refused(RACE, data, two_colours, "yellow-1", "green-3", "T20", "two colours never share a space")
    stack = copy.deepcopy(data)
    stack["where"]["yellow-1"] = stack["where"]["yellow-2"] = "T20"  # a stack of one colour: allowed
    stack["where"].update({p: "home" for p in stack["where"] if p.startswith(("green", "blue", "red"))})
    assert RACE.from_json(stack).where["yellow-2"] == "T20"
    refused(RACE, data, lambda d: d["where"].__setitem__("yellow-3", "T64"), "yellow-3", "'T64'", "not a place")
    refused(RACE, data, lambda d: d["where"].__setitem__("purple-1", "home"), "'purple-1'", "not a pawn")
    refused(RACE, data, lambda d: d["where"].pop("red-4"), "red-4", "no position")


@pytest.mark.parametrize("key,value,words", [
    ("dealer", 7, ("'dealer' is 7", "0 to 3")),
    ("turn", -1, ("'turn' is -1",)),
    ("turn", "2", ("'turn' must be a whole number",)),
    ("deals", 4, ("'deals' is 4", "1 to 3")),
    ("cards_left", [4, 4, 5, 4], ("cards_left",)),
    ("seen", {"joker": 1}, ("'joker'", "not a card")),
    ("seen", {"5": 9}, ("9 '5' cards", "holds 8")),
    ("last_card", "joker", ("'joker'", "last_card")),
    ("names", "abcd", ("'names'", "4 names")),
])
def test_race_counters_out_of_range_are_refused_by_name(key: str, value: Any, words: tuple[str, ...]):
    refused(RACE, race_state(), lambda d: d.__setitem__(key, value), *words)


def test_race_counts_that_do_not_add_up_are_refused():
    data = race_state()

    def too_many_seen(d: dict[str, Any]) -> None:
        d["seen"] = {"5": 8, "6": 8, "9": 8}

    refused(RACE, data, too_many_seen, "24 cards seen", "left the players' hands")

    def empty_hand_to_play(d: dict[str, Any]) -> None:
        d["cards_left"][d["turn"]] = 0

    refused(RACE, data, empty_hand_to_play, "holds no cards")


def test_a_race_correction_cannot_put_two_colours_on_one_space():
    state = RACE.from_json(race_state())
    on_track = sorted((p, w) for p, w in state.where.items() if w.startswith("T"))
    pawn, space = on_track[0]
    other = next(p for p in state.where if not p.startswith(pawn.rsplit("-", 1)[0]) and state.where[p] == "home")
    with pytest.raises(IllegalMoveError, match=f"{space}.*two colours never share"):
        RACE.apply(state, f"correct {other}:home>{space}")
