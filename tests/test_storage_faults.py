"""The game log when the disk is not on our side: full, failing, or holding one damaged event.

A full disk is not a damaged database: the file is healthy and holds the players' evening.
The companion says what is wrong, keeps every confirmed move (in memory while the disk is
full, on disk as soon as there is room), and moves nothing aside. Where this machine lets a
test mount a small tmpfs, the disk really fills up; SQLite's own page limit stands in for it
everywhere else.
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from companion.session.session import Session
from companion.store.store import GameStore, StoreUnavailableError
from tests.tables import BOARD, sim_config
from web_ui import create_app

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def small_disk(tmp_path: Path, size_kb: int = 2048) -> Iterator[Path]:
    """A tmpfs of ``size_kb`` mounted for the test (skipped where mounting is not allowed)."""
    where = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a small disk here ({res.stderr.strip() or 'mount failed'})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path) -> Path:
    """Fill the disk to the last byte with one file; removing it frees the space."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


def free(disk: Path) -> None:
    for name in ("filler", "filler-2"):
        with contextlib.suppress(FileNotFoundError):
            (disk / name).unlink()


def played_game(data: Path, drafts: int = 6) -> tuple[str, int]:
    store = GameStore(data / "games.db")
    session = Session(store)
    session.start(new_game(BOARD, 3, seed=4), verify=False)
    for _ in range(drafts):
        session.act(str(rules.legal_drafts(session.state)[0]))
    game, seq = session.game_id, session.last_seq
    store.close()
    assert game is not None
    return game, seq


def test_a_full_disk_at_start_is_reported_as_a_full_disk_and_nothing_is_moved(tmp_path: Path):
    with small_disk(tmp_path) as disk:
        game, seq = played_game(disk)
        before = sorted(p.name for p in disk.iterdir())
        fill(disk)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording"}
        for _ in range(2):  # every restart by systemd: the same clear message, nothing moved
            res = subprocess.run([sys.executable, "-m", "companion", "run", "--data-dir", str(disk), "--host",
                                  "127.0.0.1", "--port", "0", "--no-panel"], stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
            text = res.stdout + res.stderr
            if res.returncode == 0:  # SQLite could open the healthy file read-mostly: it resumed
                assert f"resumed game {game}" in text, text
            else:
                assert "full" in text and str(disk) in text and "Nothing was moved" in text, text
            assert not any(".corrupt-" in p.name for p in disk.iterdir()), sorted(p.name for p in disk.iterdir())
        assert {"games.db"} <= set(before) and (disk / "games.db").exists()
        free(disk)
        store = GameStore(disk / "games.db")
        session = Session(store)
        assert session.resume() and session.game_id == game and session.last_seq == seq
        store.close()


def test_a_full_disk_during_play_keeps_the_moves_pending_and_writes_them_when_space_is_back(tmp_path: Path):
    with small_disk(tmp_path) as disk:
        companion = Companion(sim_config(disk), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
        session = companion.session
        session.status.verifying = False
        client = create_app(companion).test_client()
        events: list[Any] = []
        sub = session.bus.subscribe(events.append)
        session.act(str(rules.legal_drafts(session.state)[0]))
        filler = fill(disk)
        answers = []
        for _ in range(29):  # the rest of the draft, through the panel, until the disk says no
            pick = str(rules.legal_drafts(session.state)[0])  # a pick is an action like any other
            answers.append(client.post("/api/act", json={"action": pick}))
            if session.pending:
                break
        assert session.pending, "the disk never filled up"
        full = answers[-1]
        assert full.status_code == 202 and full.get_json()["pending"] == len(session.pending)
        assert session.status.storage_reason == "disk-full" and str(disk) in session.status.storage_fault
        state = client.get("/api/state").get_json()
        assert state["storage"]["reason"] == "disk-full" and state["storage"]["pending"] >= 1
        sub.drain()
        assert "storage-fault" in [e.kind for e in events]
        companion._on_event(events[-1])
        assert companion.hardware._alert[0] == "disk-full"  # the LEDs say it too
        # play goes on from memory; the camera's reading would be kept the same way
        for _ in range(3):
            if session.state.phase != "draft":
                break
            assert client.post("/api/act", json={"action": str(rules.legal_drafts(session.state)[0])}
                               ).status_code == 202
        expected = session.state
        assert session.flush_pending() > 0  # still full: nothing written, nothing dropped
        filler.unlink()
        free(disk)
        assert session.flush_pending() == 0
        sub.drain()
        assert "storage-back" in [e.kind for e in events] and session.status.storage_fault is None
        assert session.replayed() == expected == session.state  # every move is in the log, in order
        seqs = [e.seq for e in session.store.events(session.game_id)]
        assert seqs == list(range(1, len(seqs) + 1))
        assert client.post("/api/act", json={"action": str(rules.legal_drafts(session.state)[0])}
                           ).status_code == 200
        sub.close()
        companion.stop()


def test_a_full_disk_is_told_apart_from_damage_without_a_real_disk(tmp_path: Path):
    store = GameStore(tmp_path / "games.db")
    game = store.create_game({"setup": 1})
    store.append(game, "note", {"n": 1})
    store._db.execute("PRAGMA max_page_count = 1")  # SQLite refuses to grow the file: as on a full disk
    with pytest.raises(StoreUnavailableError) as caught:
        for n in range(200):
            store.append(game, "note", {"n": n, "pad": "x" * 2000})
    assert caught.value.reason == "disk-full" and "cannot rollback" not in str(caught.value)
    assert "Nothing was moved" in str(caught.value)
    store.close()
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_a_read_only_disk_is_reported_as_such_and_nothing_is_moved(tmp_path: Path):
    with small_disk(tmp_path) as disk:
        game, _ = played_game(disk)
        res = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True, text=True)
        if res.returncode != 0:
            pytest.skip(f"cannot remount read-only here ({res.stderr.strip()})")
        try:
            store = GameStore(disk / "games.db")  # SQLite may still open it to read...
        except StoreUnavailableError as exc:
            assert exc.reason in ("read-only", "cannot-open", "io-error") and str(disk) in str(exc)
        else:
            session = Session(store)  # ... then the first write says what is wrong
            assert session.resume() and session.game_id == game
            session.act(str(rules.legal_drafts(session.state)[0]))
            assert session.pending and session.status.storage_reason == "read-only"
            store.close()
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], capture_output=True)
        assert not list(disk.glob("*.corrupt-*"))


def test_a_file_that_is_not_a_database_is_moved_aside_never_reset(tmp_path: Path):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database, it is a shopping list" * 100)
    store = GameStore(path)
    assert store.recovered_from is not None and store.recovered_from.read_bytes().startswith(b"this is not")
    assert "0 game(s) and 0 event(s) were recovered" in store.notices[0] and store.games() == []
    store.close()


def test_one_damaged_event_marks_the_game_damaged_and_the_companion_starts(tmp_path: Path):
    game, seq = played_game(tmp_path, drafts=8)
    with sqlite3.connect(tmp_path / "games.db") as db:  # someone edits the log by hand
        db.execute("UPDATE events SET data=? WHERE game_id=? AND seq=5",
                   ('{"action": "draft pink nobody-1"}', game))
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), out=out)
    try:
        assert companion.session.state is None and "marked damaged" in out.getvalue()
        assert "event 5" in out.getvalue()
        client = create_app(companion).test_client()
        listed, copy = client.get("/api/games").get_json()["games"]
        assert listed["status"] == "damaged" and "event 5" in listed["note"]
        assert (copy["status"], copy["events"]) == ("paused", 4)  # the good prefix, kept playable
        exported = client.get(f"/api/games/{game}").get_json()
        assert len(exported["events"]) == seq  # every event kept, the bad one included
        replay = client.get(f"/api/games/{game}/replay?step={seq}").get_json()
        assert replay["step"] == 4 and "event 5" in replay["damaged"]  # the good prefix replays
        res = client.post("/api/games", json={"players": [{}, {}, {}], "seed": 2})
        assert res.status_code == 200  # and another game can be started right away
    finally:
        companion.stop()
    again = Companion(sim_config(tmp_path), out=io.StringIO())  # the next start resumes the new game
    try:
        assert again.session.game_id != game and again.session.state is not None
    finally:
        again.stop()


def test_starting_a_new_game_is_one_transaction(tmp_path: Path):
    store = GameStore(tmp_path / "games.db")
    session = Session(store)
    session.start(new_game(BOARD, 3, seed=4), verify=False)
    running = session.game_id
    store._db.execute("CREATE TRIGGER refuse BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no'); END")
    with pytest.raises(StoreUnavailableError):
        session.start(new_game(BOARD, 3, seed=5), verify=False)
    assert store.unfinished() == running  # the running game was not abandoned by half a start
    assert session.game_id == running
    store._db.execute("DROP TRIGGER refuse")
    session.start(new_game(BOARD, 3, seed=5), verify=False)
    statuses = {g.id: g.status for g in store.games()}
    assert statuses[running] == "paused" and statuses[session.game_id] == "playing"
    store.close()


def test_a_title_that_is_not_text_is_refused_and_the_running_game_is_untouched(tmp_path: Path):
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    try:
        client = create_app(companion).test_client()
        running = companion.session.game_id
        res = client.post("/api/games", data='{"players": [{}, {}, {}], "title": "\\ud800"}',
                          content_type="application/json")
        assert res.status_code == 400 and "title" in res.get_json()["error"]
        assert companion.session.game_id == running
        assert {g.id: g.status for g in companion.store.games()}[running] == "playing"
    finally:
        companion.stop()
