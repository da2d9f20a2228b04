"""The tile race at the table: collecting and dropping tiles, walls, mountains, exits and the win.

Squares are named like a chess board seen from red's seat: A1 is red's left corner, G7 the far
right one on the 7 x 7 grid. In a 2-player game red sits south and blue north; each pawn crosses to
the diagonally opposite corner (red-1 enters at A1 and leaves from G7, red-2 enters at G1 and leaves
from A7). With four players blue sits west, yellow north, green east, and a pawn may leave from
either corner of the far side.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from types import MappingProxyType

import pytest

from companion.errors import IllegalMoveError, NotationError, StateFormatError
from companion.games.tile_race.grid import OUT, TILES, coords, edge, parse_edge
from companion.games.tile_race.rules import (Move, Pass, Undo, apply, legal_actions, movement_possible,
                                             outcome, parse_action, winner)
from companion.games.tile_race.state import TileRaceState, from_json, new_game, to_json


def table(players: int = 2, turn: str = "red", tiles: str = "", walls: str = "", mountains: str = "",
          **at: str) -> TileRaceState:
    """A grid as the story sets it: pawns named (``red_1="C3"``) where it says, the others at their
    start; tiles, walls and mountains on the squares and edges listed; the rest of the tiles in the supply."""
    s = new_game(players)
    pawns = dict(s.pawns)
    pawns.update({k.replace("_", "-"): v for k, v in at.items()})
    tile_set, wall_set = frozenset(tiles.split()), frozenset(walls.split())
    return replace(s, pawns=MappingProxyType(pawns), tiles=tile_set, walls=wall_set,
                   mountains=frozenset(mountains.split()), supply=TILES - len(tile_set) - len(wall_set),
                   turn=s.players.index(turn))


def act(state: TileRaceState, *texts: str) -> TileRaceState:
    for t in texts:
        state = apply(state, parse_action(t))
    return state


# ------------------------------------------------------------------------------ the collect phase
def test_a_first_step_onto_an_empty_square_is_the_whole_movement():
    s = act(table(red_1="C3"), "move red-1 C4")
    assert s.pawns["red-1"] == "C4" and s.moved and s.active == "red"  # the action is still owed
    with pytest.raises(IllegalMoveError, match="movement is over"):
        act(s, "move red-1 C5")


def test_the_collect_chain_stacks_each_tile_under_the_pawn_until_an_empty_square():
    s = act(table(red_1="B2", tiles="B3 B4"), "move red-1 B3>B4")
    assert s.carried("red-1") == 2 and s.tiles_on("B3") == s.tiles_on("B4") == 0 and not s.moving.dropping
    s = act(s, "move red-1 B5")  # the empty square ends the collect phase; it gets no tile
    assert s.moving.dropping and s.carried("red-1") == 2 and s.tiles_on("B5") == 0
    s = act(s, "move red-1 B6>C6")  # one tile left on each square entered
    assert s.tiles_on("B6") == s.tiles_on("C6") == 1 and s.carried("red-1") == 0 and not s.moved
    s = act(s, "move red-1 D6")  # and the pawn steps on alone onto an empty square
    assert s.moved and s.pawns["red-1"] == "D6" and s.tiles == {"B6", "C6"}


def test_a_pawn_comes_onto_the_grid_at_its_entry_corner_and_may_collect_there():
    with pytest.raises(IllegalMoveError, match="entry corner, A1"):
        act(table(), "move red-1 B1")
    s = act(table(tiles="A1"), "move red-1 A1")
    assert s.carried("red-1") == 1 and s.pawns["red-1"] == "A1"
    with pytest.raises(IllegalMoveError, match="one pawn per turn"):
        act(s, "move red-2 G1")


# ------------------------------------------------------------------------------ the drop phase
def test_in_the_drop_phase_a_pawn_steps_only_onto_empty_squares():
    s = act(table(red_1="D3", tiles="D4 D6"), "move red-1 D4>D5")
    with pytest.raises(IllegalMoveError, match="drop phase"):
        act(s, "move red-1 D6")
    assert act(s, "move red-1 E5").tiles_on("E5") == 1


def test_a_pawn_that_cannot_drop_all_its_tiles_undoes_its_movement_and_tries_again():
    # red-1 collects C1 and B1, lands on A1; blue stands on A2 and a mountain on B2 close the corner
    s = table(red_1="D1", blue_1="A2", tiles="C1 B1", mountains="B2")
    stuck = act(s, "move red-1 C1>B1>A1>B1>A1")  # one tile dropped on B1, the last on A1: no way on
    assert legal_actions(stuck) == [Undo("red")]
    with pytest.raises(IllegalMoveError, match="undone only when"):
        act(act(s, "move red-1 C1"), "undo red")
    again = act(stuck, "undo red")
    assert again.pawns["red-1"] == "D1" and again.tiles == s.tiles and again.moving is None
    done = act(again, "move red-1 C1>B1>A1>B1>C1>D1")  # dropped on B1 and C1, alone on D1
    assert done.moved and done.tiles == {"B1", "C1"}


# ------------------------------------------------------------------------------ what stops a pawn
def test_no_diagonal_steps_and_never_onto_a_pawn_a_mountain_or_through_a_wall():
    s = table(red_1="C3", blue_1="C4", mountains="B3", walls="C3|D3")
    for text, why in (("move red-1 D4", "never diagonally"), ("move red-1 C5", "never diagonally"),
                      ("move red-1 C4", "another pawn"), ("move red-1 B3", "mountain"),
                      ("move red-1 D3", "wall stands between C3 and D3")):
        with pytest.raises(IllegalMoveError, match=why):
            act(s, text)
    assert {str(a) for a in legal_actions(s) if isinstance(a, Move)} == {"move red-1 C2", "move red-2 G1"}


def test_a_player_with_no_whole_movement_skips_it_and_only_acts():
    s = table(blue_1="A1", blue_2="G1")  # both of red's entries are taken
    assert not movement_possible(s)
    assert not any(isinstance(a, Move) for a in legal_actions(s))
    with pytest.raises(IllegalMoveError, match="skipped"):
        act(s, "move red-1 A1")
    after = act(s, "tile red D4")  # a tile, not "after moving": there is no movement to wait for
    assert after.active == "blue" and after.tiles == {"D4"}


# ------------------------------------------------------------------------------ the action
def test_one_action_per_turn_a_tile_only_after_moving():
    s = table(red_1="C3")
    with pytest.raises(IllegalMoveError, match="only after the movement"):
        act(s, "tile red E5")
    s = act(s, "move red-1 C4")
    with pytest.raises(IllegalMoveError, match="not empty"):
        act(s, "tile red C4")
    after = act(s, "tile red E5")
    assert after.tiles == {"E5"} and after.supply == TILES - 1 and after.active == "blue" and not after.moved


def test_a_wall_may_come_before_the_movement_but_never_takes_away_ones_only_movement():
    s = act(table(red_1="C3"), "wall red E4|E5")
    assert s.acted and s.active == "red" and s.walls == {"E4|E5"}
    with pytest.raises(IllegalMoveError, match="one action per turn"):
        act(s, "wall red E5|E6")
    assert act(s, "move red-1 C4").active == "blue"  # the movement ends the turn
    # red-1 on B6, hemmed in by two mountains and a pawn: a wall across its last way (to B7) is refused
    s = table(red_1="B6", red_2="out-A7", blue_1="A6", mountains="C6 B5")
    with pytest.raises(IllegalMoveError, match="no movement"):
        act(s, "wall red B6|B7")


def test_walls_not_back_where_one_was_just_removed_nor_before_an_exit_nor_across_a_string():
    s = act(table(red_1="C3"), "move red-1 C2")
    s = replace(s, removed=(None, "C4|C5"))  # blue took the wall off C4|C5 in its last turn
    with pytest.raises(IllegalMoveError, match="removed in its remover's last turn"):
        act(s, "wall red C4|C5")
    for e in ("A6|A7", "A7|B7", "F1|G1"):
        with pytest.raises(IllegalMoveError, match="in front of an exit"):
            act(s, f"wall red {e}")
    s = replace(s, tiles=frozenset({"E4", "E5", "D2"}), supply=TILES - 3)
    for e in ("E4|E5", "C2|D2"):  # tile to tile, pawn to tile
        with pytest.raises(IllegalMoveError, match="string"):
            act(s, f"wall red {e}")
    assert act(replace(s, pawns=MappingProxyType({**s.pawns, "blue-1": "C1"})), "wall red C1|C2").walls == {"C1|C2"}


def test_a_wall_is_removed_only_at_the_end_of_the_turn_and_stays_out_for_a_round():
    s = table(red_1="C3", walls="E4|E5")
    with pytest.raises(IllegalMoveError, match="removed only after the movement"):
        act(s, "remove red E4|E5")
    s = act(s, "move red-1 C4", "remove red E4|E5")
    assert s.walls == frozenset() and s.supply == TILES and s.removed == ("E4|E5", None)
    with pytest.raises(IllegalMoveError, match="last turn"):
        act(s, "move blue-1 G7", "wall blue E4|E5")
    s = act(s, "move blue-1 G7", "tile blue D6", "move red-1 C5")
    with pytest.raises(IllegalMoveError, match="last turn"):  # not even red, in its next turn
        act(s, "wall red E4|E5")
    s = act(s, "tile red B6")
    assert s.removed == (None, None) and "wall blue E4|E5" in {str(a) for a in legal_actions(act(s, "move blue-1 G6"))}


# ------------------------------------------------------------------------------ mountains
def test_each_player_places_two_mountains_three_in_a_two_player_game():
    assert new_game(2).mountains_left == (3, 3) and new_game(4).mountains_left == (2, 2, 2, 2)
    s = act(table(red_1="C3"), "mountain red D5")  # before moving, on any square ...
    s = act(s, "move red-1 C4", "move blue-1 G7", "mountain blue B5", "move red-1 C5", "mountain red E2")
    s = act(s, "move blue-1 F7", "tile blue D4", "move red-1 C6", "mountain red D4")  # ... a tile's too
    assert s.mountains_left == (0, 2) and s.tiles_on("D4") == 1 and s.mountains == {"D5", "B5", "E2", "D4"}
    s = act(s, "move blue-1 E7", "tile blue F5", "move red-1 C7")
    with pytest.raises(IllegalMoveError, match="all their mountains"):
        act(s, "mountain red B2")


def test_a_mountain_never_on_a_pawn_nor_blocking_an_exit_for_good():
    s = act(table(red_1="C3", mountains="B7"), "move red-1 C4")
    with pytest.raises(IllegalMoveError, match="never goes on a pawn"):
        act(s, "mountain red C4")
    for sq in ("A7", "A6", "G1"):  # on an exit, or closing the last way to one
        with pytest.raises(IllegalMoveError, match="block an exit for good"):
            act(s, f"mountain red {sq}")
    s = act(table(red_1="C3", mountains="B3 C2 D3"), "move red-1 C4")  # ... or shutting a pawn in
    with pytest.raises(IllegalMoveError, match="block an exit for good"):
        act(replace(s, pawns=MappingProxyType({**s.pawns, "red-1": "C3", "blue-1": "E5"})), "mountain red C4")


# ------------------------------------------------------------------------------ exits and the win
def test_a_pawn_leaves_the_grid_in_the_same_movement_only_with_a_tile_under_it():
    s = act(table(red_1="G6"), "move red-1 G7")
    with pytest.raises(IllegalMoveError, match="no tile under it, so it leaves next turn"):
        act(s, "move red-1 out")
    s = act(s, "tile red C3", "move blue-2 A7", "tile blue C4", "move red-1 out")  # next turn, one step off
    assert s.exited("red-1") == "G7" and s.moved
    carried = act(table(red_1="G5", tiles="G6 G7"), "move red-1 G6>G7>out")
    assert carried.exited("red-1") == "G7" and carried.lost == 2  # tiles still held are lost


def test_the_second_pawn_leaves_from_the_other_exit_and_two_players_cross():
    four = table(4, red_1="out-A7", red_2="A7", tiles="A7")
    with pytest.raises(IllegalMoveError, match="only from G7"):
        act(replace(four, pawns=MappingProxyType({**four.pawns, "red-2": "A6"})), "move red-2 A7>out")
    assert act(table(4, red_1="A7"), "move red-1 out").exited("red-1") == "A7"  # either far corner, with four
    with pytest.raises(IllegalMoveError, match="only from G7"):  # with two, red-1 crosses to G7
        act(table(red_1="A7"), "move red-1 out")
    assert act(table(red_2="A7"), "move red-2 out").exited("red-2") == "A7"


def test_an_exited_pawn_never_moves_but_its_player_still_acts_and_moves_the_other():
    s = act(table(red_1="out-G7", red_2="C3"), "move red-2 C4")
    assert s.active == "red" and not any(isinstance(a, Move) for a in legal_actions(s))
    s = act(table(red_1="G7"), "move red-1 out")
    assert s.active == "red" and s.moved and not any(isinstance(a, Move) for a in legal_actions(s))
    s = act(s, "tile red D4", "move blue-1 G7", "tile blue D5")
    with pytest.raises(IllegalMoveError, match="never moves again"):
        act(s, "move red-1 G7")
    assert {a.pawn for a in legal_actions(s) if isinstance(a, Move)} == {"red-2"}


def test_the_first_player_with_both_pawns_out_wins_at_once():
    s = act(table(red_2="out-A7", red_1="G6", tiles="G7"), "move red-1 G7>out")
    assert winner(s) == "red" and outcome(s).winners == ("red",) and legal_actions(s) == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        act(s, "tile red D4")
    assert from_json(json.loads(json.dumps(to_json(s)))) == s


def test_a_player_with_no_action_left_passes():
    s = replace(act(table(red_1="C3"), "move red-1 C4"), supply=0, mountains_left=(0, 3), lost=TILES)
    assert legal_actions(s) == [Pass("red")]
    passed = act(replace(s, removed=("E4|E5", None)), "pass red")
    assert passed.active == "blue" and passed.removed == (None, None)  # its last turn removed nothing
    with pytest.raises(IllegalMoveError, match="no action is left"):
        act(table(red_1="C3"), "move red-1 C4", "pass red")


def test_a_wall_placed_and_another_removed_in_one_turn_is_two_actions_and_refused():
    s = act(table(red_1="C3", walls="E4|E5"), "wall red B4|B5", "move red-1 C4")
    assert s.active == "blue"  # the wall was the turn's action: the movement ended the turn
    s = act(table(red_1="C3", walls="E4|E5"), "wall red B4|B5")
    with pytest.raises(IllegalMoveError, match="one action per turn"):
        act(s, "remove red E4|E5")


def test_the_race_is_blocked_when_nobody_can_move_nor_act_and_ends_with_no_winner():
    # a position built for the story (a long game gets there by other ways): on a 4 x 4 grid the
    # four pawns stand along the near side, each with a pawn or the grid's edge beside it and a
    # mountain in front, none on a corner it may leave from; the supply is empty (every tile was
    # lost off the grid) and no wall stands: nobody can move, and nobody can act
    start = new_game(2, size=4)
    pawns = {"red-1": "A1", "blue-1": "B1", "blue-2": "C1", "red-2": "D1"}
    s = replace(start, pawns=MappingProxyType(pawns), supply=0, lost=TILES, mountains_left=(0, 0),
                mountains=frozenset({"A2", "B2", "C2", "D2", "B3", "C3"}))
    ended = outcome(s)
    assert ended is not None and ended.winners == () and "blocked" in ended.reason
    assert legal_actions(s) == [] and winner(s) is None
    with pytest.raises(IllegalMoveError, match="game is over"):
        act(s, "pass red")
    # one wall still standing, and the race goes on: red, with no movement to make, takes it away at once
    going = replace(s, walls=frozenset({"B4|C4"}), lost=TILES - 1)
    assert outcome(going) is None and not movement_possible(going)
    assert [str(a) for a in legal_actions(going)] == ["remove red B4|C4"]


# ------------------------------------------------------------------------------ text and saved forms
def test_actions_and_edges_read_back_as_written():
    for text in ("move red-1 C3>C4>C5>out", "tile blue A3", "wall red C5|C6", "remove green B2|C2",
                 "mountain yellow D4", "undo red", "pass blue",
                 "correct red red-1@C4,red-2@start,blue-1@out-A1,blue-2@A7 tiles=A3,B4 walls=C5|C6 mountains=-"):
        assert str(parse_action(text)) == text
    assert parse_edge("C6|C5") == edge("C5", "C6") == "C5|C6"
    for bad, why in (("wall red C5|D6", "side by side"), ("move red-1 out>C4", "last step"),
                     ("tile red Z9", "not a square"), ("jump red-1 C4", "write one of"), ("move purple-1 C4", "pawn")):
        with pytest.raises(NotationError, match=why):
            parse_action(bad)


def test_a_correction_sets_the_table_as_the_players_say_and_refuses_one_no_play_leaves():
    s = act(table(red_1="C3", tiles="E5"), "move red-1 C4")
    fixed = act(s, "correct red red-1@C5,red-2@start,blue-1@start,blue-2@start tiles=E5,F5 walls=B2|B3 mountains=-")
    assert fixed.pawns["red-1"] == "C5" and fixed.tiles == {"E5", "F5"} and fixed.walls == {"B2|B3"}
    assert fixed.supply == TILES - 3 and fixed.active == "red" and fixed.moved  # the action is still owed
    with pytest.raises(IllegalMoveError, match="nothing moves onto a mountain"):
        act(s, "correct red red-1@D4,red-2@start,blue-1@start,blue-2@start tiles=E5 walls=- mountains=D4")


def test_a_correction_while_a_pawn_carries_tiles_mends_the_rest_and_the_movement_goes_on():
    # red's pawn has collected the tile on C4 and stands on it; a wall the game missed is on the table:
    # the players accept the board, and the pawn still carries its tile (the camera never sees it)
    s = act(table(red_1="C3", tiles="C4 E5"), "move red-1 C4")
    assert s.moving is not None and s.moving.carried == 1
    fixed = act(s, "correct red red-1@C4,red-2@start,blue-1@start,blue-2@start tiles=C4,E5 walls=B2|B3 mountains=-")
    assert fixed.moving == s.moving and fixed.tiles == {"E5"} and fixed.walls == {"B2|B3"}
    assert fixed.supply == TILES - 3 and fixed.pawns["red-1"] == "C4"
    assert [str(a) for a in legal_actions(fixed) if str(a).startswith("move red-1")]  # the movement goes on
    # moved elsewhere by the correction, the pawn's movement is over, as before
    moved = act(s, "correct red red-1@C5,red-2@start,blue-1@start,blue-2@start tiles=E5 walls=- mountains=-")
    assert moved.moving is None and moved.moved


def test_a_saved_state_no_play_can_reach_is_refused_by_name():
    good = to_json(act(new_game(3), "move red-1 A1", "tile red D4"))
    assert from_json(good) == act(new_game(3), "move red-1 A1", "tile red D4")
    for change, why in (({"supply": 40}, "add up to 41"), ({"pawns": {**good["pawns"], "blue-1": "A1"}}, "share A1"),
                        ({"walls": ["A1|A2"], "supply": 38}, "in front of the exit"),
                        ({"mountains": ["D4"]}, "placed 0"), ({"pawns": {**good["pawns"], "red-2": "out-A1"}}, "leave only"),
                        ({"tiles": ["D4", "A1"], "supply": 38}, "stands on the tile"), ({"size": 30}, "'size'"),
                        ({"players": ["blue", "red"]}, "'players'")):
        with pytest.raises(StateFormatError, match=why):
            from_json({**good, **change})


# ------------------------------------------------------------------------------ random playouts
def _nearer(state: TileRaceState, move: Move) -> int:
    """How far the step leaves the pawn from its nearest open exit (-1: out)."""
    to = move.path[-1]
    if to == OUT:
        return -1
    c, r = coords(to)
    return min(abs(c - x) + abs(r - y) for x, y in map(coords, state.open_exits(move.pawn)))


def test_random_playouts_keep_every_promise_of_the_rules():
    """Many seeds, 2 to 4 players, pawns steered towards their exits more often than not so that some
    races end: actions never run out before the game does, every offered action applies without
    changing the state it came from, its text reads back, and every state survives its saved form."""
    ended = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = new_game(2 + seed % 3, seed)
        for _ in range(300):
            actions = legal_actions(state)
            if not actions:
                assert outcome(state) is not None
                ended += 1
                break
            moves = [a for a in actions if isinstance(a, Move)]
            if moves and rng.random() < 0.85:
                best = min(_nearer(state, m) for m in moves)
                action = rng.choice([m for m in moves if _nearer(state, m) == best] if rng.random() < 0.7 else moves)
            else:
                action = rng.choice(actions)
            assert parse_action(str(action)) == action
            before = to_json(state)
            after = apply(state, action)
            assert to_json(state) == before
            assert from_json(json.loads(json.dumps(to_json(after)))) == after
            state = after
        else:
            assert outcome(state) is None
    assert ended >= 2
