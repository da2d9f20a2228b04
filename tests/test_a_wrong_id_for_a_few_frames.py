"""A marker misread for a few frames is never acted on, with no hand over the board.

At rest, in a lamp's flicker, a marker can decode for a frame or three as another piece's (a piece
the table does not hold: the supply's mountain, a counter still in the box). Nobody touched the
table. At the simulated table (the real detector, frame by frame, the session's clock, the default
hold times) such a reading appears in place of a piece for 2 to 4 frames and is gone again: the log
gains nothing and nothing turns red - even where the misreading, held three still frames, is a whole
legal move (a tile read as a mountain the player to move may put on it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import Game, get_game
from tests.tables import FrameByFrame


def a_table(game: Game, seed: int) -> Any:
    """A position some turns into a random legal game."""
    rng, state = random.Random(seed), game.new_game(players=min(game.players), seed=seed)
    for _ in range(40):
        actions = list(game.legal_actions(state)) if game.outcome(state) is None else []
        if not actions:
            break
        state = game.apply(state, rng.choice(actions))
    return state


def a_misreading(layout: Any, table: dict[str, tuple[str, ...]]) -> tuple[str, str]:
    """A piece alone on its place, and another piece whose marker it is read as: one the table does
    not hold and at least as tall (it could lie on top and hide it: the hardest to tell from a piece
    laid there), else one the table holds elsewhere (then read on two places at once)."""
    def height(p: str) -> float:
        h = layout.pieces[p.partition("^")[0]].height_mm
        return layout.piece_height_mm if h is None else h

    on_table = {p.partition("^")[0] for ps in table.values() for p in ps}
    alone = sorted(c for c, ps in table.items() if len(ps) == 1)
    random.Random(5).shuffle(alone)
    for cell in alone:
        here = table[cell][0]
        taller = [p for p in sorted(layout.pieces) if p not in on_table and height(p) >= height(here)
                  and layout.pieces[p].kind != layout.pieces[here.partition("^")[0]].kind]
        if taller:
            return cell, taller[0]
    cell = alone[0]
    return cell, next(p for p in sorted(layout.pieces) if p != table[cell][0].partition("^")[0])


@pytest.mark.parametrize(("name", "frames_misread"), [("tile-race", 3), ("desert-survivors", 4), ("fog", 2)])
def test_another_piece_s_marker_read_for_a_few_frames_is_not_acted_on(name: str, frames_misread: int, tmp_path):
    game = get_game(name)
    start = a_table(game, 3)
    layout = game.layout(start)
    with FrameByFrame(tmp_path, name, start) as at:
        session, source, frames = at.session, at.source, at.frames
        frames(6)
        assert session.state == start and session.status.out_of_sync is None
        table = source.placement()
        cell, stranger = a_misreading(layout, table)
        source.set_placement({**table, cell: (stranger,)})  # the marker on ``cell`` reads as ``stranger``'s
        frames(frames_misread)
        source.set_placement(table)  # and as itself again
        frames(25)
        assert session.state.history == start.history, session.state.history[len(start.history):]
        assert session.status.out_of_sync is None and "out_of_sync" not in at.kinds, at.kinds


def a_table_where_it_is_a_move(game: Game) -> tuple[Any, str, str]:
    """A position of a random legal game where one legal action lays a piece not on the table on top of
    the piece alone on a place (a mountain on a tile): a misreading of that piece's marker as the new
    one is then a whole legal move in the picture. The position, the place and the piece."""
    for seed in range(1, 6):
        rng, state = random.Random(seed), game.new_game(players=min(game.players), seed=seed)
        layout = game.layout(state)
        for _ in range(200):
            actions = list(game.legal_actions(state)) if game.outcome(state) is None else []
            if not actions:
                break
            before = game.expected(state)
            on_table = {p for ps in before.values() for p in ps}
            for action in actions:
                after = game.expected(game.apply(state, action))
                added = [(c, p) for c, ps in after.items() for p in ps if p not in before.get(c, ())]
                if len(added) == 1 and added[0][1] not in on_table and len(before.get(added[0][0], ())) == 1 and \
                        all(p in after.get(c, ()) for c, ps in before.items() for p in ps):
                    return state, *added[0]
            state = game.apply(state, rng.choice(actions))
    raise AssertionError(f"no random game of {game.name} laid a piece on another")


def test_a_tile_read_for_three_frames_as_a_mountain_the_player_may_put_there_is_not_logged(tmp_path):
    """The hardest misreading: the tile's marker read as a mountain the player to move may put on that
    very tile - three still frames of it are a whole legal move."""
    game = get_game("tile-race")
    start, cell, mountain = a_table_where_it_is_a_move(game)
    with FrameByFrame(tmp_path, "tile-race", start) as at:
        session, source, frames = at.session, at.source, at.frames
        frames(6)
        table = source.placement()
        source.set_placement({**table, cell: (mountain,)})  # the tile's marker reads as the mountain's
        frames(3)
        source.set_placement(table)
        frames(25)
        assert session.state.history == start.history, session.state.history[len(start.history):]
        assert session.status.out_of_sync is None and "out_of_sync" not in at.kinds, at.kinds
        # and the player does put the mountain there: a hand comes over the board, lays it, goes
        source.set_hand("random")
        frames(2)
        source.set_placement({**table, cell: (*table[cell], mountain)})
        frames(2)
        source.set_hand(None)
        frames(4)  # read as soon as the table is still: three frames
        assert session.state.history[len(start.history):] == (f"mountain {start.active} {cell}",)
        assert session.status.out_of_sync is None
