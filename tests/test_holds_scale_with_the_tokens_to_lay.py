"""The time a table may take to follow a change grows with the tokens still to lay, however the
change was made: read from the camera, or entered on a phone.

Desert survivors: the last disc of the setup placed on a phone leaves the hands a disc to put down
and eleven X-counters to lay. Before, a change entered on a phone was held a flat 12 s, and the
table went red half way through laying them while the same layout read from the camera was given
time for each counter. Now each token still to lay has the default hold time.
"""

from __future__ import annotations

from companion.events import InlineBus
from companion.games import get_game
from companion.session import STEP_HOLD, Session
from companion.store import GameStore

GAME = get_game("desert-survivors")


def test_a_layout_entered_on_a_phone_is_given_the_hold_time_for_each_token_still_to_lay(tmp_path):
    s = GAME.new_game(3, seed=5, arrangement="beginner")
    while (dealt := GAME.apply(s, last := GAME.legal_actions(s)[0])).phase == "setup":
        s = dealt
    now = [1000.0]
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=GAME, clock=lambda: now[0])
    session.start(s, verify=False)
    picture = {w: list(ps) for w, ps in GAME.expected(s).items()}
    session.on_stable_change(picture)
    session.act(str(last))  # placed on a phone: the table still shows the setup
    step = session.status.step
    assert step is not None and step.hold == STEP_HOLD * 12  # the disc and eleven counters
    now[0] += STEP_HOLD * 3  # fetching the pile and shuffling it: calm
    assert not session.step_overdue() and session.status.out_of_sync is None
    picture[last.space] = [f"{last.disc}^back"]
    for k, (where, x) in enumerate(zip(dealt.dealt, reversed(dealt.mix), strict=False)):  # laid one by one
        picture[where] = [f"{x}^back"]
        session.on_stable_change(picture)
        if k < 10:
            assert session.status.step is not None and session.status.step.hold == STEP_HOLD * (10 - k)
            now[0] += STEP_HOLD * (1.5 if k < 9 else 0.9)  # a slow hand: more than one hold time for a counter
            assert not session.step_overdue() and session.status.out_of_sync is None
    assert session.status.step is None and session.status.out_of_sync is None
    assert session.state.history[-1].startswith("lay ")
