"""Red says the piece that moved, in words: never the piece it covers, never a place's id.

An islander set down on a driftwood token hides the token's marker. The picture then lacks the
driftwood, and read as it is it says "the driftwood moved off the board; obstacles never move",
blaming a token nobody touched. The companion reads such a picture again with the covered piece
where it lies, so the disagreement names the islander that was put there.
"""

from __future__ import annotations

from companion.session.events import InlineBus
from companion.games import get_game
from companion.session.session import Session
from companion.store.store import GameStore

FOG = get_game("fog")


def test_an_islander_set_down_on_a_driftwood_token_is_named_not_the_driftwood_it_hides(tmp_path):
    state = FOG.new_game(players=3, seed=21)
    while state.phase == "draft":
        state = FOG.apply(state, FOG.legal_actions(state)[0])
    board = state.board_data
    table = {c: list(ps) for c, ps in FOG.expected(state).items()}
    cell, driftwood = next((c, p) for c, ps in table.items() for p in ps if p.startswith("driftwood"))
    islander = next(p for p in state.islanders_of(state.active_colour) if state.where.get(p))
    table[state.where[islander]].remove(islander)
    table[cell] = [islander]  # set down on the driftwood: its marker is covered
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=FOG, clock=lambda: 1000.0)
    session.start(state, verify=False)
    session.on_stable_change(table)
    wrong = session.status.out_of_sync
    assert wrong is not None and wrong.offenders == (islander,), wrong
    words = FOG.words(state)
    assert board.obstacles and "obstacles never move" not in wrong.reason
    assert words.get(islander, islander).lower() in wrong.reason.lower() or islander in wrong.reason, wrong.reason
    assert list(session.state.history) == list(state.history)  # nothing logged


def test_the_island_says_what_differs_of_a_character_no_action_explains():
    """A character the camera no longer sees, where no legal action takes it away: red says which
    character and where the game has it, in words, not only that nothing explains the picture."""
    import random

    from companion.games.base import unfaced

    island, rng = get_game("island-battle"), random.Random(2)
    state = island.new_game(players=2, seed=0)
    said = []
    for _ in range(120):
        forced = island.forced_action(state)
        state = island.apply(state, forced if forced is not None else rng.choice(list(island.legal_actions(state))))
        table = {c: list(ps) for c, ps in island.expected(state).items()}
        on_squares = [(c, e) for c, ps in table.items() for e in ps if len(c) <= 3 and unfaced(e)[1]]
        if island.outcome(state) is not None or not on_squares:
            continue
        cell, entry = rng.choice(on_squares)
        table[cell].remove(entry)  # gone from the picture
        answer = island.reconcile(state, {c: tuple(ps) for c, ps in table.items() if ps})
        if not answer.ok and answer.step is None and answer.rule == "no-legal-move" and "not seen" in answer.reason:
            said.append(answer.reason)
            assert f"the game has it on {cell}" in answer.reason, answer.reason
    assert said, "no picture of a random game lost a character that no action explains"
