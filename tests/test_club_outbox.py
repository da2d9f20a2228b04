"""The outbox a table keeps for the club's broker: what it owes survives a restart, in order, each event once,
and a broker gone for days cannot fill the card: past the limit the oldest events go, counted."""

from __future__ import annotations

from pathlib import Path

from companion.club.outbox import Outbox


def test_what_the_broker_did_not_acknowledge_waits_on_disk_in_order_and_each_event_once(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "club-outbox.db", limit=100)
    for seq in (1, 2, 3):
        assert box.put("fog-companion/t/event", f"event {seq}".encode(), game="g1", seq=seq)
        assert box.put("fog-companion/t/state", f"state after {seq}".encode(), retain=True)
    assert not box.put("fog-companion/t/event", b"event 2 again", game="g1", seq=2)  # seen again: not new
    first = box.head(timeout=0)
    assert first is not None and first.payload == b"event 1"
    box.close()  # the companion stops (or the power goes) before the broker acknowledged anything

    box = Outbox(tmp_path / "club-outbox.db", limit=100)
    sent = []
    while (message := box.head(timeout=0)) is not None:
        sent.append(message.payload)
        box.done(message)
    # the events in the game's order; of the states only the newest, after the event it follows
    assert sent == [b"event 1", b"event 2", b"event 3", b"state after 3"]
    assert not box.put("fog-companion/t/event", b"event 3 again", game="g1", seq=3)  # remembered across the restart
    assert box.put("fog-companion/t/event", b"event 1 of the next game", game="g2", seq=1)
    box.close()


def test_a_broker_away_for_days_costs_at_most_the_limit_and_the_oldest_events_go(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "club-outbox.db", limit=100)
    for seq in range(1, 151):
        box.put("fog-companion/t/event", str(seq).encode(), game="g", seq=seq)
        box.put("fog-companion/t/state", f"state {seq}".encode(), retain=True)
    assert box.waiting() == 101 and box.dropped == 50
    head = box.head(timeout=0)
    assert head is not None and head.payload == b"51"
    box.close()
