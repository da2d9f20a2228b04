"""Setting up the beach: obstacles row by row, then islanders, checked from the board's adjacency.

These checks do not use the generator's own bookkeeping or its constraint checker: they
recompute groups, woods contact and row counts from ``Board.neighbours`` directly.
"""

from __future__ import annotations

import pytest

from companion.games.fog.options import Options
from companion.games.fog.setup import new_game, obstacle_violations
from tests.tables import BOARD

SEEDS_PER_COUNT = 200  # 600 setups over 2, 3 and 4 players


def groups(cells: set[str]) -> list[set[str]]:
    left, out = set(cells), []
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            for n in BOARD.neighbours(todo.pop()):
                if n in left:
                    left.discard(n)
                    group.add(n)
                    todo.append(n)
        out.append(group)
    return out


def check_setup(players: int, seed: int, options: str = "") -> None:
    state = new_game(BOARD, players=players, seed=seed, options=Options.parse(options))
    cells = BOARD.cells
    obstacles = {c for c, ps in state.placement.items() if ps[0] in BOARD.obstacles}
    islanders = {c: ps[0] for c, ps in state.placement.items() if ps[0] in BOARD.islanders}

    # every piece stands alone on a beach hex
    assert all(len(ps) == 1 and cells[c].kind == "beach" for c, ps in state.placement.items())
    # no group of more than 3 adjacent obstacles
    assert max(len(g) for g in groups(obstacles)) <= 3
    # no more than 3 obstacles next to the woods in total
    by_woods = [c for c in obstacles if any(cells[n].kind == "woods" for n in BOARD.neighbours(c))]
    assert len(by_woods) <= 3
    # no more than 2 obstacles side by side in row J
    in_j = {c for c in obstacles if cells[c].row == "J"}
    for c in in_j:
        left, right = BOARD.step(c, "W"), BOARD.step(c, "E")
        assert not (left in in_j and right in in_j), f"three side by side around {c}"
    # the printed numbers per row, with 2 extra empty hexes in row I for 3 players
    for row in BOARD.beach_rows:
        row_cells = [c.id for c in cells.values() if c.kind == "beach" and c.row == row]
        n_obstacles = sum(c in obstacles for c in row_cells)
        n_empty = sum(c not in state.placement for c in row_cells)
        assert n_obstacles == BOARD.rows[row].obstacles
        expected_empty = BOARD.rows[row].empty["default"] + (2 if players == 3 and row == "I" else 0)
        assert n_empty == expected_empty, (row, n_empty)
    # islanders only in rows A-I, every islander in play exactly once
    assert all(cells[c].row != "J" for c in islanders)
    in_play = sorted(islanders.values())
    assert len(in_play) == len(set(in_play)) == (30 if players == 3 else 32)
    if players == 3:
        assert "red-commoner-2" not in in_play and "blue-commoner-2" not in in_play
    if Options.parse(options).rescue_the_leaders:
        row_a = {islanders.get(c.id) for c in cells.values() if c.row == "A"}
        assert set(state.leaders) <= row_a
        assert len(state.leaders) == len(state.turn_order)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hundreds_of_seeded_setups_keep_every_constraint(players: int) -> None:
    for seed in range(SEEDS_PER_COUNT):
        check_setup(players, seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rescue_the_leaders_puts_the_leaders_in_row_a(players: int) -> None:
    for seed in range(40):
        check_setup(players, seed, "leaders")


def test_the_same_seed_gives_the_same_setup_and_another_seed_another():
    assert new_game(BOARD, 4, seed=7) == new_game(BOARD, 4, seed=7)
    assert new_game(BOARD, 4, seed=7).setup != new_game(BOARD, 4, seed=8).setup


def test_the_constraint_checker_names_what_is_wrong():
    four_in_a_row = ["E2", "E3", "E4", "E5"]
    assert any("group of 4" in p for p in obstacle_violations(BOARD, four_in_a_row))
    woods = ["A1", "A5", "C1", "C6"]
    assert any("touch the woods" in p for p in obstacle_violations(BOARD, woods))
    row_j = ["J4", "J5", "J6"]
    assert any("side by side in row J" in p for p in obstacle_violations(BOARD, row_j))


def test_two_players_play_two_colours_each_and_alternate_on_the_turn_board():
    state = new_game(BOARD, 2, seed=3)
    assert [len(p.colours) for p in state.players] == [2, 2]
    first, second = state.players
    assert state.turn_order == (first.colours[0], second.colours[0], first.colours[1], second.colours[1])


def test_boat_scoring_tokens_are_laid_highest_first():
    for seed in range(30):
        values = new_game(BOARD, 3, seed=seed).area_values
        assert [values[a] for a in "ABCD"] == sorted(values.values(), reverse=True)
