"""A piece lifted off the board as the rules' own action is read as that action, in every game.

The tile race's player takes a wall stand away; in desert survivors a character takes the food
counter beside it, or a hungry player sacrifices one of their characters; on the island the player
removes one of the opponent's soldiers. At the simulated table (the real detector, frame by frame,
on the session's own clock) a hand comes over the board and lifts the piece off, and the companion logs that action, with
no question and never red.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import Game, get_game
from companion.table.sync import compare
from tests.tables import FrameByFrame


def a_table_where(game: Game, verb: str) -> tuple[Any, str]:
    """A position of a random legal game where the player to move may play ``verb``, and that action."""
    for seed in range(1, 6):
        rng = random.Random(seed)
        state = game.new_game(players=sorted(game.players)[min(seed, len(game.players) - 1)], seed=seed)
        for _ in range(400):
            actions = list(game.legal_actions(state)) if game.outcome(state) is None else []
            lifts = [a for a in actions if str(a).split()[0] == verb]
            if lifts:
                return state, str(lifts[0])
            if not actions:
                break
            state = game.apply(state, rng.choice(actions))
    raise AssertionError(f"no random game of {game.name} reached a {verb}")


@pytest.mark.parametrize(("name", "verb"), [("tile-race", "remove"), ("desert-survivors", "take"),
                                            ("desert-survivors", "sacrifice"), ("island-battle", "remove")])
def test_a_piece_lifted_off_as_the_rules_action_is_read_as_that_action(name: str, verb: str, tmp_path) -> None:
    game = get_game(name)
    start, action = a_table_where(game, verb)
    after = game.apply(start, action)
    lifted = compare(game, after, game.expected(start), game.expected(after))
    assert lifted and all(m.seen is None for m in lifted), f"{action} is not a lift: {lifted}"
    with FrameByFrame(tmp_path, name, start) as at:
        session, camera, source, frames, kinds = at.session, at.camera, at.source, at.frames, at.kinds
        frames(6)
        assert not session.status.verifying and session.state == start
        source.set_hand("random")  # a hand comes over the board
        frames(3)
        table = {p.partition("^")[0]: c for c, ps in camera.table().items() for p in ps}
        for m in lifted:  # a look-alike piece: any of its kind on that place
            piece = m.piece if m.piece in table else next(p for p, c in table.items() if c == m.belongs)
            camera.move_piece(piece, None)  # the hand lifts it off the board
        frames(3)
        source.set_hand(None)  # and is gone
        # a piece unseen with no hand over it is a guess until the camera's hold time (3 s) has passed
        frames(25)  # 5 s
        logged = list(session.state.history[len(start.history):])
        assert logged[:1] == [action], (action, logged, session.status.question, session.status.out_of_sync)
        assert "out-of-sync" not in kinds and session.status.out_of_sync is None and not session.status.decision
