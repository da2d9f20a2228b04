"""No state without a way forward: whatever way out the players take, the page offers what comes next.

Every game is played from its start line by a seeded hand; at the first position of each of its
phases the players take each way out the panel has (a move, an undo, accepting the board as the
camera sees it, correcting one piece) and the position they land on must offer an action the rules
take (a button, End turn, a piece with dots on the Board page, the Setup page's picks) or say who
must act where (the waiting line). The way out once missing: accepting the board that ended Battle
for the Island's placement left "Red to roll" with nobody to roll.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.errors import FogCompanionError
from companion.games import Game, get_game, names
from companion.session.session import Session
from companion.store.store import GameStore


def way_forward(game: Game, state: Any) -> str | None:
    """What the Board page offers now (an action the rules take), or the line saying who must act
    where; None: a dead end."""
    if game.outcome(state) is not None:
        return "the game is over"
    assert game.forced_action(state) is None, "the rules' own action was left untaken"
    view = game.view(state)
    for button in view.get("turn_actions") or []:
        try:
            game.apply(state, game.complete_action(state, button["action"]))
            return f"the button {button['label']!r}"
        except FogCompanionError:
            continue
    if view.get("end_turn") is not False and game.end_turn_action(state, "panel") is not None:  # (False: none shown)
        return "End turn"
    phase = next((p for p in game.declaration.phases if p.name == view.get("phase")), None)
    if phase is not None and phase.picks:
        return "the Setup page's picks"
    legal = game.legal_actions(state)
    seats = set(game.seats(state))
    if legal and view.get("turn_ends") and all(game.actor(state, a) in seats for a in legal):
        return f"the waiting line {view['turn_ends']!r}"  # each seat acts on its own phone, and it says so
    pieces = game.layout(state).pieces
    # a piece the board draws (a face-down one as the page names it), then a supply beside the board
    for piece in [p for ps in view.get("placement", {}).values() for p in ps] + [*pieces, *(view.get("supplies") or {})]:
        if game.targets(state, piece):
            return f"dots for {piece}"
    return None


def session_at(tmp_path: Path, game: Game, state: Any) -> Session:
    session = Session(GameStore(tmp_path / f"{random.random()}.db"), game=game)
    session.start(state, verify=False)
    return session


def ways_out(tmp_path: Path, game: Game, state: Any, play: str) -> dict[str, Any]:
    """The position each way out lands on, from ``state`` with ``play`` the next legal play."""
    after = game.expected(game.apply(state, play))
    landed: dict[str, Any] = {}
    session = session_at(tmp_path, game, state)
    session.act(play)
    landed["the move"] = session.state
    session.undo()
    landed["undo"] = session.state
    session = session_at(tmp_path, game, state)
    try:
        session.accept_correction(after)  # the table shows the play made by hand, the board accepted
        landed["accept"] = session.state
    except FogCompanionError:
        pass  # refused in words: the position stands, itself checked
    before = {p: c for c, ps in game.expected(state).items() for p in ps}
    moved = [(p, c) for c, ps in after.items() for p in ps if before.get(p) != c]
    if moved:
        session = session_at(tmp_path, game, state)
        try:
            session.correct_piece(*moved[0])
            landed["correct one piece"] = session.state
        except FogCompanionError:
            pass
    return landed


@pytest.mark.parametrize("name", names())
def test_every_way_out_of_every_phase_leaves_a_way_forward(tmp_path: Path, name: str):
    game = get_game(name)
    state = game.new_game(max(game.players), 1)  # dealt from the seed alone: the same walk every run
    hand, phases = random.Random(1), set()
    for _ in range(400):
        while (forced := game.forced_action(state)) is not None:
            state = game.apply(state, forced)
        if game.outcome(state) is not None:
            break
        view = game.view(state)
        legal = [str(a) for a in game.legal_actions(state)]
        assert way_forward(game, state), f"{name}: a dead end in {view.get('phase')}"
        phase = (view.get("phase"), view.get("stage"), view.get("fight") is not None)
        if phase not in phases:
            phases.add(phase)
            for way, landed in ways_out(tmp_path, game, state, legal[0]).items():
                assert way_forward(game, landed), f"{name}, {phase}: after {way} nothing is offered"
        state = game.apply(state, hand.choice(legal))
    assert phases


def test_accepting_the_board_that_ends_the_islands_placement_rolls_for_the_first_player(tmp_path: Path):
    """The report's dead end: "Accept the board as it is" during placement, the last character put
    down by hand, left "Red to roll" with no Roll button; the companion rolls as when placement ends
    by the move itself, and an undo takes the roll back with the placement."""
    game, hand = get_game("island-battle"), random.Random(2)
    state = game.new_game(2, 5)
    while not any(game.view(game.apply(state, a))["phase"] == "playing" for a in game.legal_actions(state)):
        state = game.apply(state, hand.choice(list(game.legal_actions(state))))
    last = next(str(a) for a in game.legal_actions(state) if game.view(game.apply(state, a))["phase"] == "playing")
    session = session_at(tmp_path, game, state)
    session.accept_correction(game.expected(game.apply(state, last)))
    assert session.state.history[-1].startswith("roll "), session.state.history[-2:]
    assert way_forward(game, session.state)
    session.undo()
    assert session.state == state  # the roll went with the correction it followed
