"""A play tapped on the Board page while nobody has come to the table yet: the table still shows the
picture from before the play. Nobody played illegally; the companion waits for the hands, calmly,
saying what to make on the table (here, where the table is simulated, on the Table page), however
long that takes. Only once a hand has been at work does the usual hold time run: a play made in
full is read as done, one left half-done past the hold time is red.

The companion reads the simulated table frame by frame with the real detector; the table's time
moves as the frames do (tests/tables.py's FrameByFrame), and the hold times are the defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import get_game
from companion.session.session import STEP_HOLD
from tests.tables import BOARD, FrameByFrame, position
from web_ui import create_app

RUNNER = "red-sailor-2"


def fog_start() -> tuple[Any, str]:
    """The FOG: Ann's red sailor 2 alone on C4, hers to move."""
    return position({"C4": RUNNER}, {RUNNER: "black"}), RUNNER


def race_start() -> tuple[Any, str]:
    """The partner card race at its start: the first player's pawn that a card in hand brings out."""
    game = get_game("partner-race")
    state = game.new_game(4, seed=3)
    piece = next(p for p in game.layout(state).pieces if game.targets(state, p))
    return state, piece


def entered_on_the_board_page(at: FrameByFrame, piece: str) -> str:
    """The piece tapped on the Board page and a place its dots offer, the first way there: the place."""
    game, state = at.session.game, at.session.state
    cell, ways = next(iter(game.targets(state, piece).items()))
    client = create_app(at.companion).test_client()
    res = client.post("/api/move", json={"piece": piece, "cell": cell, "action": ways[0].actions[0]})
    assert res.status_code == 200, res.get_json()
    return cell


@pytest.mark.parametrize(("name", "start"), [("fog", fog_start), ("partner-race", race_start)])
def test_a_play_entered_with_nobody_at_the_table_waits_calmly_for_the_hands(name: str, start: Any,
                                                                           tmp_path: Path) -> None:
    state, piece = start()
    with FrameByFrame(tmp_path, name, state) as at:
        session, camera, frames = at.session, at.camera, at.frames
        frames(6)
        assert not session.status.verifying and session.state == state
        assert session.step_hold == STEP_HOLD  # the default hold time
        entered_on_the_board_page(at, piece)
        played = session.state
        assert played.history != state.history  # logged at once

        for _ in range(3):  # a minute and a half with nobody at the table: calm all along
            at.clock.now += 30.0
            frames(2)
            step = session.status.step
            assert step is not None and step.waiting and session.status.out_of_sync is None, session.status
        told = create_app(at.companion).test_client().get("/api/state").get_json()
        assert told["camera"]["simulated"] and told["step"]["waiting"], told["step"]
        assert told["step"]["make"].startswith("Make it on the table: put "), told["step"]
        assert told["step"]["make"].endswith("(entered on the panel)"), told["step"]
        assert "out-of-sync" not in at.kinds

        camera.move_piece(piece, None)  # a hand takes the piece up ...
        frames(20)  # (4 s: past the camera's hold time for a piece it no longer sees)
        assert session.status.step is not None and not session.status.step.waiting  # hands at work now
        assert session.status.out_of_sync is None
        if name == "fog":  # ... and puts it where the play took it: done, never red
            camera.move_piece(piece, played.where[piece])
            frames(6)
            assert session.status.step is None and session.status.out_of_sync is None
            assert session.last_picture == session.expected() and "out-of-sync" not in at.kinds
        else:  # ... and stops half way, past the hold time: now the usual red, naming what is left
            at.clock.now += session.status.step.hold + 1
            frames(2)
            sync = session.status.out_of_sync
            assert sync is not None and sync.rule == "step-left", session.status
            assert sync.reason.startswith("a move was left part-way for "), sync.reason
            assert session.state == played  # nothing else logged
