"""A game at the table through the session: camera pictures in, logged actions and events out."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import IllegalMoveError
from companion.session.events import EventBus
from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.session.session import Session, SessionError
from companion.store.store import GameStore
from tests.tables import BOARD, moved, nb, walled_in_swap


class Listener:
    def __init__(self, bus: EventBus) -> None:
        self.events: list = []
        self.sub = bus.subscribe(self.events.append)

    def kinds(self) -> list[str]:
        self.sub.drain()
        return [e.kind for e in self.events]


def drafted_session(tmp_path: Path) -> tuple[Session, Listener]:
    store = GameStore(tmp_path / "games.db")
    session = Session(store)
    listener = Listener(session.bus)
    state = new_game(BOARD, 3, seed=21)
    session.start(state)
    assert session.verify_setup({}) != []  # an empty table is not the setup
    assert session.verify_setup(state.placement) == []
    while session.state.phase == "draft":  # type: ignore[union-attr]
        session.act(str(rules.legal_drafts(session.state)[0]))
    return session, listener


def own_islander_with_a_free_forward_hex(session: Session) -> tuple[str, str, str]:
    state = session.state
    assert state is not None
    for piece in state.islanders_of(state.active_colour or ""):
        src = state.where.get(piece)
        if src and BOARD.cells[src].kind == "beach":
            for d in ("NW", "NE"):
                dst = BOARD.step(src, d)
                if dst and BOARD.cells[dst].kind == "beach" and dst not in state.placement:
                    return piece, src, dst
    raise AssertionError("no free hex")


def test_setup_differences_are_listed_cell_by_cell(tmp_path: Path):
    session = Session(GameStore(tmp_path / "games.db"))
    state = new_game(BOARD, 4, seed=2)
    session.start(state)
    wrong = moved(state.placement, **{state.placement["A1"][0].replace("-", "_"): "woods-AW"}) \
        if "A1" in state.placement else moved(state.placement, rock_1="J1")
    diffs = session.verify_setup(wrong)
    assert diffs and all({"cell", "expected", "seen"} == set(d) for d in diffs)
    assert session.status.verifying


def test_a_legal_move_seen_by_the_camera_is_applied_logged_and_published(tmp_path: Path):
    session, listener = drafted_session(tmp_path)
    piece, src, dst = own_islander_with_a_free_forward_hex(session)
    mp = session.state.mp_left  # type: ignore[union-attr]
    answer = session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): dst}))  # type: ignore[union-attr]
    assert answer is not None and answer.ok and answer.choices[0].details["cost"] == 1
    assert session.state.where[piece] == dst and session.state.mp_left == mp - 1  # type: ignore[union-attr]
    assert session.replayed() == session.state
    assert "action" in listener.kinds()


def carried_too_far(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A drafted game where a hand carried an islander to row J, which no legal move reaches."""
    session, listener = drafted_session(tmp_path)
    state = session.state
    assert state is not None
    piece, src, _ = own_islander_with_a_free_forward_hex(session)
    far = next(c for c in BOARD.row_cells["J"] if c not in state.placement)
    session.on_stable_change(moved(state.placement, **{piece.replace("-", "_"): far}))
    return session, listener, state, piece, src, far


def test_an_illegal_move_puts_the_session_out_of_sync_until_the_board_is_put_back(tmp_path: Path):
    session, listener, before, piece, _src, _far = carried_too_far(tmp_path)
    state = before
    assert session.status.out_of_sync is not None and piece in session.status.out_of_sync.offenders
    assert session.state == before  # nothing applied
    session.on_stable_change(state.placement)  # put back
    assert session.status.out_of_sync is None
    assert listener.kinds()[-2:] == ["out-of-sync", "in-sync"]


def test_a_person_can_accept_the_board_as_seen_which_is_recorded_as_a_correction(tmp_path: Path):
    session, _, _state, piece, src, far = carried_too_far(tmp_path)
    session.accept_correction()
    assert session.state.where[piece] == far and session.state.history[-1] == f"correct {piece}:{src}>{far}"  # type: ignore[union-attr]
    assert session.status.out_of_sync is None and session.replayed() == session.state


def test_an_ambiguous_change_asks_and_waits_for_the_players(tmp_path: Path):
    session, listener = drafted_session(tmp_path)
    session.state, picture = walled_in_swap(session.state)  # type: ignore[arg-type]
    answer = session.on_stable_change(picture)
    assert answer is not None and answer.ambiguous and len(session.status.decision) == 2
    assert "decision-needed" in listener.kinds()
    assert session.state.where["blue-warrior-3"] == "E4"  # type: ignore[union-attr]  # nothing applied yet
    session.decide(0)
    assert session.state.where["blue-warrior-3"] == nb("E4", "E") and session.status.decision == []  # type: ignore[union-attr]
    with pytest.raises(SessionError):
        session.decide(0)


def test_a_question_is_gone_from_every_event_once_it_is_settled(tmp_path: Path):
    """Pages draw the question from the status each event carries: once the players answer, or the
    table goes back, no later event may still carry it (a phone would keep asking a settled question)."""
    session, listener = drafted_session(tmp_path)
    walled, picture = walled_in_swap(session.state)  # type: ignore[arg-type]
    session.state = walled
    before = dict(walled.placement)

    def carried_since(start: int) -> list[str]:
        listener.sub.drain()
        return [e.kind for e in listener.events[start:] if e.snapshot is not None and e.snapshot.status.decision]

    session.on_stable_change(picture)
    assert session.status.decision
    listener.sub.drain()
    mark = len(listener.events)
    session.on_stable_change(before)  # the players put the pieces back instead of answering
    assert session.status.decision == [] and listener.kinds()[mark:], "putting the pieces back says so"
    assert carried_since(mark) == []

    session.on_stable_change(picture)
    assert session.status.decision
    listener.sub.drain()
    mark = len(listener.events)
    session.decide(0)
    assert "action" in listener.kinds()[mark:]
    assert carried_since(mark) == [], "the move applied after the answer is published without the old question"


def test_an_action_the_rules_refuse_leaves_the_question_asked(tmp_path: Path):
    """With the camera lost while a question waits, play goes on from the panel; an action the rules
    refuse changes nothing: the question is still asked (the pages still show it, and it can be answered)."""
    session, listener = drafted_session(tmp_path)
    walled, picture = walled_in_swap(session.state)  # type: ignore[arg-type]
    session.state = walled
    session.on_stable_change(picture)
    asked = (list(session.status.decision), session.status.question)
    assert asked[0]
    session.camera_lost("the camera was unplugged")
    with pytest.raises(IllegalMoveError):
        session.act("move run nobody-1 A1>A2")
    assert (session.status.decision, session.status.question) == asked
    session.decide(0)
    assert "action" in listener.kinds() and session.status.decision == []


def test_undo_takes_back_the_last_confirmed_step_and_survives_a_restart(tmp_path: Path):
    session, _ = drafted_session(tmp_path)
    piece, src, dst = own_islander_with_a_free_forward_hex(session)
    before = session.state
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): dst}))  # type: ignore[union-attr]
    session.undo()
    assert session.state == before
    again = Session(GameStore(tmp_path / "games.db"))
    assert again.resume() and again.state == before


def test_ending_a_turn_tells_which_tokens_to_flip_when_the_fog_swallows_them(tmp_path: Path):
    session, listener = drafted_session(tmp_path)
    state = session.state
    assert state is not None
    fog_before = state.fog
    while session.state.fog < BOARD.fog_index("7"):  # type: ignore[union-attr]
        session.end_turn()
    listener.sub.drain()
    flips = [e.data["flip"] for e in listener.events if e.kind == "action" and "flip" in e.data]
    assert session.state.fog > fog_before and flips  # type: ignore[union-attr]
    assert all(BOARD.cells[state.where[p]].row == "A" for p in flips[0])


def test_a_marker_moved_by_hand_is_reported_not_applied(tmp_path: Path):
    session, listener = drafted_session(tmp_path)
    assert session.marker_moved("fog", first_sighting=True)  # where it stands at the start is noted
    assert session.marker_moved("turn", first_sighting=True)
    fog = session.state.fog  # type: ignore[union-attr]
    assert not session.marker_moved("fog")  # nobody advanced the FOG: a hand moved the marker
    assert session.state.fog == fog  # type: ignore[union-attr]
    assert "marker-moved" in listener.kinds()
    assert "put it back" in listener.events[-1].data["reason"]
    session.end_turn("button")
    assert session.marker_moved("turn")  # the turn marker moves at a turn end: expected


def test_the_end_of_the_game_is_checked_against_the_final_camera_picture(tmp_path: Path):
    session, listener = drafted_session(tmp_path)
    while session.state.phase != "finished":  # type: ignore[union-attr]
        session.on_stable_change(session.state.placement)  # type: ignore[union-attr]
        session.end_turn("button")
    assert "game-over" in listener.kinds()
    over = [e for e in listener.events if e.kind == "game-over"]
    assert over and over[-1].data["picture"] == "matches" and over[-1].data["winners"]


def test_swallowed_tokens_still_on_the_board_are_a_chore_not_a_disagreement(tmp_path: Path):
    session, listener = drafted_session(tmp_path)
    before = session.state
    assert before is not None
    while session.state.fog < BOARD.fog_index("7"):  # type: ignore[union-attr]
        session.end_turn()
    taken = sorted(session.state.lost)  # type: ignore[union-attr]
    assert len(taken) >= 2
    session.on_stable_change(before.placement)  # nobody turned the swallowed tokens over
    assert session.status.out_of_sync is None  # the game goes on
    assert sorted(p for p, _ in session.status.to_clear) == taken  # every one of them, all at once
    assert listener.kinds().count("to-clear") == 1
    # A move on the rest of the board is still read while they lie there.
    piece, src, dst = own_islander_with_a_free_forward_hex(session)
    seen = moved({c: ps for c, ps in before.placement.items()}, **{piece.replace("-", "_"): dst})
    session.on_stable_change(seen)
    assert session.state.where[piece] == dst and session.status.out_of_sync is None  # type: ignore[union-attr]
    # One token turned over: the list shrinks; all of them: it is empty.
    first = taken[0]
    session.on_stable_change({c: [p for p in ps if p != first] for c, ps in seen.items()})
    assert [p for p, _ in session.status.to_clear] == taken[1:]
    session.on_stable_change({c: [p for p in ps if p not in taken] for c, ps in seen.items()})
    assert session.status.to_clear == () and session.status.out_of_sync is None
