"""The game log and the event bus: nothing acknowledged is ever lost, nothing blocks the session."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.session.events import Event, EventBus
from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.games.fog.state import GameState
from companion.store.store import GameStore
from tests.tables import BOARD

ROOT = Path(__file__).resolve().parent.parent


def run_and_kill(script: str, db: Path, acks: int, timeout: float = 120.0) -> list[str]:
    """Start a writer script on ``db``, SIGKILL it once it acknowledged ``acks`` events; what it printed.

    The kill point is counted in acknowledged events, not in seconds, so the test exercises the
    same game positions on a fast machine and a slow one (the write under way when the signal
    lands still varies, which is the point).
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / script), str(db)], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    seen = 0
    while seen < acks and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        seen += line.startswith("ack ")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    lines.extend(proc.stdout.read().splitlines(keepends=True))  # what it printed before the signal landed
    return lines


def test_a_game_is_its_setup_plus_the_logged_actions(tmp_path: Path):
    store = GameStore(tmp_path / "games.db")
    state = new_game(BOARD, 3, seed=5)
    game = store.create_game(state.to_dict(), title="Friday")
    for _ in range(4):
        state = rules.apply(state, rules.legal_drafts(state)[0])
        store.append(game, "action", {"action": state.history[-1]})
    store.close()
    reopened = GameStore(tmp_path / "games.db")
    replayed = GameState.from_dict(reopened.setup(game))
    for event in reopened.events(game):
        replayed = rules.apply(replayed, event.data["action"])
    assert replayed == state
    assert [e.seq for e in reopened.events(game)] == [1, 2, 3, 4]
    assert reopened.unfinished() == game
    reopened.finish(game)
    assert reopened.unfinished() is None
    [record] = reopened.games()
    assert (record.title, record.status, record.events) == ("Friday", "finished", 4)
    exported = reopened.export(game)
    assert exported["setup"]["seed"] == 5 and len(exported["events"]) == 4


def test_a_damaged_database_is_kept_aside_its_games_recovered_and_the_user_is_told(tmp_path: Path):
    path = tmp_path / "games.db"
    store = GameStore(path)
    game = store.create_game({"x": 1}, title="Friday")
    store.append(game, "action", {"action": "a"})
    store.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = random.Random(1).randbytes(3996)  # scribble over the schema
    path.write_bytes(bytes(data))
    reopened = GameStore(path)  # formerly: moved aside, and the next start had no game at all
    kept = reopened.recovered_from
    assert kept is not None and kept.read_bytes() == bytes(data)  # nothing silently reset: kept as it was
    assert f"moved aside to {kept.name}" in reopened.notices[0] and "1 game(s) and 1 event(s)" in reopened.notices[0]
    assert [(g.id, g.title, g.status) for g in reopened.games()] == [(game, "Friday", "paused")]
    assert [e.data for e in reopened.events(game)] == [{"action": "a"}]
    reopened.close()


def test_killing_the_writer_at_random_moments_loses_no_acknowledged_event(
        tmp_path: Path, figures: Callable[[str], None]):
    """SIGKILL at 100 random points; every acknowledged event is there, none twice."""
    path = tmp_path / "crash.db"
    rng = random.Random(11)
    acknowledged: list[int] = []
    kills = 0
    for _ in range(100):
        lines = run_and_kill("crash_writer.py", path, rng.randint(1, 300))
        kills += 1
        acknowledged += [int(line.split()[1]) for line in lines if line.startswith("ack ")]
    store = GameStore(path)
    game = store.unfinished()
    assert game is not None
    logged = [e.seq for e in store.events(game)]
    lost = sorted(set(acknowledged) - set(logged))
    figures(f"kills: {kills}, acknowledged events: {len(acknowledged)}, logged: {len(logged)}, lost: {len(lost)}")
    assert kills == 100 and lost == []
    assert logged == list(range(1, len(logged) + 1))  # no gaps, no duplicates
    assert len(acknowledged) == len(set(acknowledged))


def test_a_slow_or_failing_subscriber_never_blocks_or_breaks_the_publisher():
    bus = EventBus()
    got: list[str] = []
    release = threading.Event()

    def slow(event: Event) -> None:
        release.wait(5)

    def broken(event: Event) -> None:
        raise RuntimeError("the panel crashed")

    fine = bus.subscribe(lambda e: got.append(e.kind))
    stuck = bus.subscribe(slow)
    failing = bus.subscribe(broken, kinds={"move"})
    start = time.monotonic()
    for i in range(100):
        bus.publish(Event("move" if i % 2 else "fog", {"i": i}))
    assert time.monotonic() - start < 0.5  # publishing never waited for anyone
    assert fine.drain() and len(got) == 100
    assert failing.drain() and failing.errors == 50
    release.set()
    assert stuck.drain()
    fine.close()
    assert bus.subscribers == 2
    bus.close()
    assert bus.subscribers == 0


def test_a_subscriber_that_falls_far_behind_loses_its_oldest_events_not_the_session_s_time():
    bus = EventBus(max_backlog=10)
    release = threading.Event()
    seen: list[int] = []
    sub = bus.subscribe(lambda e: (release.wait(5), seen.append(e.data["i"])))
    for i in range(100):
        bus.publish(Event("move", {"i": i}))
    release.set()
    assert sub.drain() and sub.dropped >= 80 and seen[-1] == 99
    bus.close()


def test_killing_a_running_game_at_100_random_points_loses_and_duplicates_nothing(
        tmp_path: Path, figures: Callable[[str], None]):
    """The session plays games; SIGKILL at random moments; each restart resumes from the log."""
    from companion.session.session import Session

    path = tmp_path / "game.db"
    rng = random.Random(5)
    acknowledged: dict[str, int] = {}
    kills = resumed_mid_game = 0
    while kills < 100:
        lines = run_and_kill("crash_game.py", path, rng.randint(1, 40))
        kills += 1
        for line in lines:
            words = line.split()
            if words[0] == "resumed":  # a restart never starts behind what was acknowledged
                assert int(words[2]) >= acknowledged.get(words[1], 0), "an acknowledged event was lost"
                resumed_mid_game += int(words[2]) > 0
            elif words[0] == "ack":
                acknowledged[words[1]] = max(acknowledged.get(words[1], 0), int(words[2]))
    store = GameStore(path)
    lost = logged = 0
    for game, acked in acknowledged.items():
        seqs = [e.seq for e in store.events(game)]
        assert seqs == list(range(1, len(seqs) + 1))  # nothing twice, no gaps
        logged += len(seqs)
        lost += max(0, acked - len(seqs))
    figures(f"kills: {kills}, restarts resuming a game: {resumed_mid_game}, games: {len(acknowledged)}, "
          f"acknowledged events: {sum(acknowledged.values())}, logged: {logged}, lost: {lost}")
    assert lost == 0
    assert resumed_mid_game > 0  # by construction: a game is longer than the 40 events a run may write
    session = Session(store)
    if session.resume():
        assert session.replayed() == session.state and rules.replay(session.state) == session.state
