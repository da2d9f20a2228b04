"""One piece set down beside the board, off every place: the camera finds it there, and the companion
says so, the piece by name and the edge of the board it lies past, with what to do. It is one stray
piece, never the board having moved (the corner markers have not moved), and never "the camera does not
find it" (it does: beside the board).

The companion reads the simulated table frame by frame with the real detector (tests/tables.py's
FrameByFrame); the piece beside the board is drawn where a place of the board would lie 20 mm past its
right edge.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_game
from tests.tables import FrameByFrame, position

RUNNER = "red-sailor-2"


def fog_start() -> tuple[Any, str]:
    """The FOG: Ann's red sailor 2 alone on C4."""
    return position({"C4": RUNNER}, {RUNNER: "black"}), RUNNER


def race_start() -> tuple[Any, str]:
    """The partner card race at its start: the first pawn in its home circle."""
    game = get_game("partner-race")
    state = game.new_game(4, seed=3)
    return state, next(p for ps in game.expected(state).values() for p in ps if "-" in p and not p.startswith("card"))


@pytest.mark.parametrize(("name", "start"), [("fog", fog_start), ("partner-race", race_start)])
def test_one_piece_set_down_beside_the_board_is_said_where_it_lies_and_the_board_is_not_moved(
        name: str, start: Any, tmp_path: Path) -> None:
    state, piece = start()
    with FrameByFrame(tmp_path, name, state) as at:
        session, frames, source = at.session, at.frames, at.source
        frames(6)
        assert not session.status.verifying and session.state == state
        layout = at.companion.layout
        home = next(c for c, ps in session.expected().items() if piece in ps)
        w, h = layout.size_mm
        source.board = replace(layout, cells={**layout.cells, "beside": replace(
            layout.cells[home], center_mm=(w + 20.0, h / 2), facts={})})  # the table beside the board
        placement = source.placement()
        source.set_placement({**{c: tuple(p for p in ps if p != piece) for c, ps in placement.items()},
                              "beside": (piece,)})
        frames(30)  # 6 s: past the camera's hold time for a piece it no longer sees on its place
        assert at.camera.observer.track.moves == 0  # the board was never taken for moved
        if session.status.step is not None:  # a piece lifted may be a move begun: calm for the hold time
            at.clock.now += session.status.step.hold + 1
            frames(2)
        sync = session.status.out_of_sync
        assert sync is not None, session.status
        words = session.game.words(session.state)
        assert (f"the camera sees {words[piece]} beside the board, past its right edge: put it back on "
                f"{words.get(home, home)}") in sync.reason, sync.reason
        assert "board moved" not in sync.reason and "does not find" not in sync.reason, sync.reason
        assert session.state == state  # nothing logged
        source.set_placement(placement)  # put back on its place: in sync again
        frames(10)
        assert session.status.out_of_sync is None and "board-moved" not in at.kinds
