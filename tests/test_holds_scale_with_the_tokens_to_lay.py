"""The time a table may take to follow a change grows with the tokens still to lay, however the
change was made: read from the camera, or entered on a phone.

Desert survivors: the last disc of the setup placed on a phone leaves the hands a disc to put down
and eleven X-counters to lay. Before, a change entered on a phone was held a flat 12 s, and the
table went red half way through laying them while the same layout read from the camera was given
time for each counter. Now each token still to lay has the default hold time.
"""

from __future__ import annotations

from companion.session.events import InlineBus
from companion.games import get_game
from companion.session.session import STEP_HOLD, Session
from companion.store.store import GameStore

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


def test_a_token_the_camera_never_finds_is_named_with_what_to_try_when_the_hold_time_is_up(tmp_path):
    """A play entered on a phone: the hands move the pawn and lay the card, but the camera never reads
    the card (a glare on its sticker). When the hold time is up, red names the card and where the game
    has it, and says what to try."""
    race = get_game("partner-race")
    state = race.new_game(4, seed=3)
    play = next(str(a) for a in race.legal_actions(state) if str(a).startswith("play "))
    now = [1000.0]
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=race, clock=lambda: now[0])
    session.start(state, verify=False)
    session.on_stable_change(race.expected(state))
    session.act(play)
    after = race.expected(session.state)
    spot, card = next((c, ps[-1]) for c, ps in after.items() if any(p.startswith("card-") for p in ps))
    picture = {c: [p for p in ps if p != card] for c, ps in after.items()}
    session.on_stable_change(picture)  # the pawn moved, the card laid but not read
    assert session.status.step is not None and session.status.out_of_sync is None
    now[0] += session.status.step.hold + 0.5
    assert session.step_overdue()
    reason = session.status.out_of_sync.reason
    words = race.words(session.state)
    assert f"the camera does not find {words.get(card, card)} on {words.get(spot, spot)}" in reason, reason
    assert "move it a little, check that its sticker is clean and flat" in reason, reason
