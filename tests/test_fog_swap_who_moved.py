"""The FOG: which islander of a swap moved is asked when the rules care, never picked silently.

Ann's red sailor 3 (endurance) stands on C4 beside her green warrior 1 on C5. She swaps them by
hand: lifts the red sailor first, puts it on C5, then moves the green warrior to C4. The picture is
the same whichever of the two made the swap, but only an endurance islander that moved may make the
free endurance run at the end of her turn: the red sailor swapping keeps it open to the sailor, the
green warrior swapping does not. So the companion asks which it was (interpretation 29), and logs
the swap her hands made once she says so. A swap the rules count alike either way is logged as the
islander her hand moved first, which the camera saw leave its field first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tables import BOARD, FrameByFrame, position

SAILOR, WARRIOR = "red-sailor-3", "green-warrior-1"


def test_a_swap_of_two_own_islanders_asks_which_moved_when_it_decides_the_endurance_run(tmp_path: Path) -> None:
    assert BOARD.islanders[SAILOR].characteristic == "endurance"
    assert BOARD.islanders[WARRIOR].characteristic != "endurance"
    start = position({"C4": SAILOR, "C5": WARRIOR}, {SAILOR: "black", WARRIOR: "black"})
    with FrameByFrame(tmp_path, "fog", start) as at:
        session, camera, frames = at.session, at.camera, at.frames
        frames(6)
        assert not session.status.verifying and session.state == start
        at.source.set_hand("random")  # her hand comes over the board
        frames(2)
        camera.move_piece(SAILOR, None)  # the red sailor lifted first
        frames(4)
        camera.move_piece(SAILOR, "C5")  # put down on the green warrior's field
        frames(4)
        camera.move_piece(WARRIOR, "C4")  # the green warrior to where the sailor stood
        frames(3)
        at.source.set_hand(None)
        frames(25)  # 5 s: past the camera's hold time, well within the step's
        assert session.state.history == start.history, session.state.history  # nothing logged silently
        offered = [c.actions for c in session.status.decision]
        made = ("move swap red-sailor-3 C4>C5",)
        assert made in offered and ("move swap green-warrior-1 C5>C4",) in offered, offered
        assert session.status.question and "endurance" in session.status.question
        assert "out-of-sync" not in at.kinds and session.status.out_of_sync is None

        session.decide(offered.index(made), session.status.decision_id)  # "the red sailor swapped"
        assert list(session.state.history[len(start.history):]) == list(made)
        assert session.state.moved == (SAILOR,) and not session.state.endurance_used


@pytest.mark.parametrize(("first", "then", "logged"), [
    ("red-sailor-2", ("C5", "green-warrior-1", "C4"), "move swap red-sailor-2 C4>C5"),
    ("green-warrior-1", ("C4", "red-sailor-2", "C5"), "move swap green-warrior-1 C5>C4")])
def test_a_swap_the_rules_read_alike_either_way_is_logged_as_the_hands_made_it(
        first: str, then: tuple[str, str, str], logged: str, tmp_path: Path) -> None:
    """Ann's red sailor 2 (all-rounder) on C4 and green warrior 1 on C5: neither has endurance, so the
    rules count the swap alike whichever made it. Her hand lifts one and sets it down on the other's
    field, then moves the other: the log names the islander her hand moved first, never the other."""
    sailor = "red-sailor-2"
    start = position({"C4": sailor, "C5": WARRIOR}, {sailor: "black", WARRIOR: "black"})
    with FrameByFrame(tmp_path, "fog", start) as at:
        session, camera, frames = at.session, at.camera, at.frames
        frames(6)
        assert not session.status.verifying and session.state == start
        at.source.set_hand("random")
        frames(2)
        camera.move_piece(first, None)  # lifted first
        frames(4)
        camera.move_piece(first, then[0])  # set down on the other's field
        frames(4)
        camera.move_piece(then[1], then[2])  # the other to where the first stood
        frames(3)
        at.source.set_hand(None)
        frames(25)
        made = list(session.state.history[len(start.history):])
        assert made == [logged], (made, session.status.question, session.status.decision)
        assert not session.status.decision and session.status.out_of_sync is None and "out-of-sync" not in at.kinds
