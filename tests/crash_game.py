"""Plays a seeded random game through the session, printing every acknowledged log position.

Killed with SIGKILL at random moments by the crash test; each run resumes the unfinished game
from the log and plays on.
"""

from __future__ import annotations

import random
import sys
import time

from companion.games.fog import rules
from companion.games.fog.board import Board
from companion.games.fog.legality import apply_move, legal_movements
from companion.games.fog.setup import new_game
from companion.session.session import Session
from companion.store.store import GameStore

store = GameStore(sys.argv[1])
session = Session(store)
if not session.resume():
    session.start(new_game(Board.standard(), 3, seed=7), verify=False)
state = session.state
assert state is not None
rng = random.Random(len(state.history))
print(f"resumed {session.game_id} {session.last_seq}", flush=True)
while session.state.phase != "finished":  # type: ignore[union-attr]
    state = session.state
    assert state is not None
    if state.phase == "draft":
        session.act(str(rng.choice(rules.legal_drafts(state))))
    else:
        moves = [m for m in legal_movements(state) if len(m.movements) == 1] if rng.random() < 0.7 else []
        if moves:
            picture = apply_move(state, rng.choice(moves)).placement  # what the camera would see
            session.on_stable_change(picture)
        elif state.history and rng.random() < 0.1:
            session.undo()
        else:
            session.end_turn("button")
    print(f"ack {session.game_id} {session.last_seq}", flush=True)
    time.sleep(0.002)  # a little slack between actions, as at a table
print("finished", flush=True)
