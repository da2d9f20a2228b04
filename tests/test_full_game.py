"""A complete seeded game at the simulated table: every move is made by moving pieces on the
table; the camera, the stabiliser and the session do the rest. The final score equals the
engine's score for the same moves."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path

from companion.games.fog import rules
from companion.games.fog.legality import apply_move, legal_movements
from companion.games.fog.scoring import score
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, sim_config, wait_for


def test_a_whole_game_played_on_the_simulated_table(tmp_path: Path, figures: Callable[[str], None]):
    rng = random.Random(2026)
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=31), out=out,
                          environ={"FOG_LED_BACKEND": "recording"})
    companion.start()
    session = companion.session
    moves = turns = flips = 0

    def flip_swallowed() -> int:
        """The players turn over every token the FOG took: its marker disappears from the table."""
        on_table = {p for ps in companion.camera.table().values() for p in ps}
        taken = sorted(set(session.state.lost) & on_table)
        for piece in taken:
            companion.table(piece, "-")
        return len(taken)

    try:
        assert wait_for(lambda: not session.status.verifying), out.getvalue()  # setup verified by the camera
        while session.state.phase == "draft":
            session.act(str(rng.choice(rules.legal_drafts(session.state))))
        engine = session.state  # the engine's own copy, fed the same moves directly
        while session.state.phase == "moving":
            turn = (session.state.round, session.state.turn_index)
            for _ in range(rng.randrange(0, 3)):  # a few moves, then the turn ends
                options = [m for m in legal_movements(engine) if len(m.movements) == 1]
                if not options:
                    break
                move = rng.choice(options)
                target = apply_move(engine, move)
                for cell, pieces in target.placement.items():  # hands move the pieces on the table
                    for piece in pieces:
                        if engine.where.get(piece) != cell:
                            companion.table(piece, cell)
                wait_for(lambda: bool(session.status.decision) or session.state.placement == target.placement)
                if session.status.decision:  # the players are asked
                    played = [i for i, o in enumerate(session.status.decision) if o.actions == (str(move),)]
                    session.decide(played[0] if played else 0)
                assert wait_for(lambda: session.state.placement == target.placement), \
                    f"camera did not follow {move}\n{out.getvalue()[-2000:]}"
                # the session charges the cheapest explanation: never more than the move played
                charged, step = 0, engine
                for action in session.state.history[len(engine.history):]:
                    after = rules.apply(step, action)
                    if action.startswith("move ") and not action.startswith("move endurance"):
                        charged += step.mp_left - after.mp_left  # (the free endurance run ends the turn)
                    step = after
                assert charged <= engine.mp_left - target.mp_left, (str(move), session.state.history[len(engine.history):])
                engine = session.state
                moves += 1
                flips += flip_swallowed()  # a move that used the last MP ends the turn: the FOG may advance
                if engine.mp_left == 0 or engine.phase != "moving":
                    break
            if session.state.phase == "moving" and (session.state.round, session.state.turn_index) == turn:
                session.end_turn("button")
            turns += 1
            flips += flip_swallowed()
            engine = session.state
    finally:
        companion.stop()
    final = session.state
    assert final.phase == "finished" and final.end_reason in ("fog-reached-shore", "nobody-can-move")
    replayed = rules.replay(final)
    assert score(final).to_dict() == score(replayed).to_dict()
    assert moves > 10 and turns > 10 and flips > 0
    figures(f"full game: {moves} moves seen by the camera, {turns} turns, {flips} tokens flipped, "
          f"winners {score(final).winners}")
