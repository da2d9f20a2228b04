"""Red says the piece that moved, in words: never the piece it covers, never a place's id.

An islander set down on a driftwood token hides the token's marker. The picture then lacks the
driftwood, and read as it is it says "the driftwood moved off the board; obstacles never move",
blaming a token nobody touched. The companion reads such a picture again with the covered piece
where it lies, so the disagreement names the islander that was put there.
"""

from __future__ import annotations

from companion.events import InlineBus
from companion.games import get_game
from companion.session import Session
from companion.store import GameStore

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
