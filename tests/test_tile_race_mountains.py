"""The tile race's mountains belong to players: each player's are in their colour at the table, so
everyone sees whose mountain stands where, and the companion keeps whose each one is.

Ada (red) and Bo (blue) play on the simulated table. Each puts a mountain of their own colour down,
and the camera reads it as theirs; a mountain of Ada's put down in Bo's turn is refused with the rule
in words. A game saved before mountains had owners is read back with each mountain's owner told by
its log.
"""

from __future__ import annotations

from pathlib import Path

from companion.games import get_game
from companion.games.tile_race.state import from_json, to_json
from companion.games.tile_race.table import correction, kind_of
from tests.test_tile_race_table import Hands, apply_all
from tests.tables import wait_for

GAME = get_game("tile-race")
reconcile = GAME.reconcile  # what a picture means: the table's reading, as the session asks it
ADA_AND_BO = [{"name": "Ada"}, {"name": "Bo"}]


def test_the_box_has_each_players_mountains_in_their_colour_alike_within_a_colour() -> None:
    pieces = GAME.layout().pieces
    mountains = sorted(p for p in pieces if p.startswith("mountain-"))
    assert len(mountains) == 10, "two of each colour, and a third red and blue for a 2-player game"
    assert {kind_of(p) for p in mountains} == {"mountain-red", "mountain-blue", "mountain-yellow", "mountain-green"}
    red = pieces["mountain-red-3"]
    assert red.colour == GAME.layout().colours["red"] and red.facts["colour"] == "red"
    markers = [pieces[p].marker for p in pieces]
    assert len(set(markers)) == len(markers) and max(markers) < 250  # every id once, in DICT_4X4_250


def test_a_mountain_of_each_player_is_placed_and_read_as_theirs(tmp_path: Path) -> None:
    hands = Hands(tmp_path, 2)
    try:
        hands.move("mountain-red-2", "E4")  # Ada's own mountain, before her pawn moves
        assert wait_for(lambda: hands.session.state.mountains == {"E4"}, 60), hands.out.getvalue()[-800:]
        hands.do("move red-1 A1")
        hands.do("move blue-1 G7")
        hands.move("mountain-blue-3", "C5")  # Bo's, after his movement: any of his three will do
        assert wait_for(lambda: hands.session.state.active == "red", 60), hands.out.getvalue()[-800:]
        state = hands.session.state
        assert dict(state.mountain_owners) == {"E4": "red", "C5": "blue"} and state.mountains_left == (2, 2)
        assert state.history[-1] == "mountain blue C5" and hands.session.status.out_of_sync is None
        assert GAME.view(state)["mountains"] == {"C5": "blue", "E4": "red"}
        # the Board page draws each mountain in its owner's colour: the pieces it is given say whose
        placement = GAME.view(state)["placement"]
        assert [kind_of(p) for p in placement["E4"]] == ["mountain-red"]
        assert [kind_of(p) for p in placement["C5"]] == ["mountain-blue"]
        assert GAME.view(state)["owners"][placement["C5"][0]] == "blue"
        assert "Mr" in GAME.text(state) and "Mb" in GAME.text(state)
    finally:
        hands.stop()


def test_a_players_mountain_put_down_in_anothers_turn_is_refused_with_the_rule() -> None:
    state = apply_all(GAME.new_game(2, seed=5, seats=ADA_AND_BO), ("move red-1 A1", "tile red D4"))
    table = {c: list(ps) for c, ps in GAME.expected(state).items()}

    own = reconcile(state, {**table, "C3": ["mountain-blue-2"]})  # Bo's own, in his turn: his action
    assert own.ok and own.choices[0].actions == ("mountain blue C3",)

    wrong = reconcile(state, {**table, "C3": ["mountain-red-1"]})  # Ada's, in Bo's turn
    assert wrong.reason == ("Ada's mountain came on C3 in Bo's turn: a player puts down only their own mountains, "
                            "in their own turn. Take it back")
    assert wrong.rule == "mountain-owner" and wrong.offenders == ("mountain-red-1",)


def test_a_red_mountain_where_a_blue_one_stands_is_a_difference_red_for_red_is_none() -> None:
    state = apply_all(GAME.new_game(2, seed=5), ("mountain red E4", "move red-1 A1", "move blue-1 G7",
                                                  "mountain blue C5"))
    expected = GAME.expected(state)
    same = {**expected, "E4": ("mountain-red-3",)}  # another of red's: the same table
    assert GAME.alike(state, same) == GAME.alike(state, expected)
    swapped = {**expected, "C5": ("mountain-red-2",)}  # red's where blue's stands
    assert GAME.alike(state, swapped) != GAME.alike(state, expected)
    assert correction(state, swapped).mountains == ("C5:red", "E4:red")
    # recorded as seen, the owner counts: red has placed two, blue none
    fixed = GAME.apply(state, correction(state, swapped))
    assert dict(fixed.mountain_owners) == {"C5": "red", "E4": "red"} and fixed.mountains_left == (1, 3)


def test_a_game_saved_before_mountains_had_owners_reads_them_from_its_log() -> None:
    state = apply_all(GAME.new_game(2, seed=5), ("mountain red E4", "move red-1 A1", "move blue-1 G7",
                                                  "mountain blue C5"))
    old = {k: v for k, v in to_json(state).items() if k != "mountain_owners"}
    assert dict(from_json(old).mountain_owners) == {"E4": "red", "C5": "blue"}
    # an older correction's new mountain was its player's, as it was charged then
    corrected = apply_all(state, ("move red-1 A2", "correct red red-1@A2,red-2@start,blue-1@G7,blue-2@start "
                                  "tiles=- walls=- mountains=C5,E4,F2"))
    old = {k: v for k, v in to_json(corrected).items() if k != "mountain_owners"}
    assert dict(from_json(old).mountain_owners) == {"E4": "red", "C5": "blue", "F2": "red"}
    # a log that does not add up (hand-edited): the owners follow each player's count of mountains placed
    old["history"] = []
    assert sorted(from_json(old).mountain_owners.values()) == ["blue", "red", "red"]
