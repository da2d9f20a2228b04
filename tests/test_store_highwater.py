"""Nothing rewound without a word: the companion knows how far every game got, apart from its file.

An evening's log is damaged the ways a power cut, a failing SD card and a careless hand damage
it: the file truncated, one or two of its pages zeroed (the events' index and its last leaf
among them), its journal deleted after a kill, the file swapped for an older copy, a row or a
status edited by hand. The companion is then started as the product starts it and must say, for
every game that came back shorter than the players were told it was logged, which game, from
which event and how many were lost; keep its readable start as a paused copy; and never resume
it as if nothing happened. `games.db.marks` (the high-water marks) is what it checks against.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest

from companion.app.doctor import doctor
from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.store.records import HighWater
from companion.app.run import Companion
from companion.session.session import Session
from companion.store.store import GameStore
from tests.tables import BOARD, collect_output, http_call, sim_config, wait_for
from web_ui import create_app

ROOT = Path(__file__).resolve().parent.parent
PAGE = 4096


def evening(data: Path, earlier: int = 12, now: int = 30) -> tuple[str, str]:
    """A game finished long ago (its rows fill the first page of events), an earlier game paused after
    ``earlier`` picks, and the game in play after ``now`` picks, its rows on the last two pages."""
    store = GameStore(data / "games.db")
    session = Session(store)
    ids = []
    for seed, picks in ((2, 30), (3, earlier), (4, now)):
        session.start(new_game(BOARD, 3, seed=seed), verify=False)  # each start pauses the game before
        for _ in range(picks):
            session.act(str(rules.legal_drafts(session.state)[0]))
        assert session.game_id is not None and session.last_seq == picks
        ids.append(session.game_id)
    store.finish(ids[0])
    store.close()
    return ids[1], ids[2]


def start(data: Path) -> tuple[Companion, str]:
    out = io.StringIO()
    return Companion(sim_config(data), out=out), out.getvalue()


def pages_of(path: Path, name: str, kind: str | None = None) -> list[int]:
    with sqlite3.connect(path) as db:
        found = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name=?" + (" AND pagetype=?" if kind else "")
                                          + " ORDER BY pageno", (name, kind) if kind else (name,))]
    db.close()
    return found


def zero(path: Path, *pages: int) -> None:
    data = bytearray(path.read_bytes())
    for page in pages:
        data[(page - 1) * PAGE:page * PAGE] = bytes(PAGE)
    path.write_bytes(bytes(data))


def doctor_says(data: Path) -> str:
    out = io.StringIO()
    doctor(Namespace(config=None, camera="sim", data_dir=str(data)), out=out, environ={"FOG_LED_BACKEND": "recording"})
    return out.getvalue()


def every_loss_is_said(store: GameStore, acknowledged: dict[str, int]) -> None:
    """Each game reads as far as acknowledged, or is damaged, named in a notice, its readable start copied."""
    listed = {g.id: g for g in store.games()}
    for game, ack in acknowledged.items():
        assert game in listed, f"game {game} vanished from the list"
        if listed[game].status != "damaged":
            assert len(store.events(game)) == ack, f"game {game} came back short without a word"
            continue
        assert any(f"game {game}" in n for n in store.notices), (game, store.notices)
        log_ = store.read_log(game)
        if log_.setup is not None:
            assert any(g.title.startswith(f"{game} (up to event {len(log_.events)})") and g.status == "paused"
                       for g in listed.values()), (game, listed)


# ------------------------------------------------------------------ pages, truncation, journal, an older copy
def test_every_page_zeroed_alone_or_with_the_last_leaf_never_loses_an_event_silently(tmp_path: Path):
    live = tmp_path / "live"
    live.mkdir()
    earlier, playing = evening(live)
    path = live / "games.db"
    acknowledged = {game: mark.seq for game, mark in HighWater(path, tidy=False).marks.items()}
    assert len(acknowledged) == 3 and acknowledged[earlier] == 12 and acknowledged[playing] == 30
    pages = path.stat().st_size // PAGE
    last_leaf = pages_of(path, "events", "leaf")[-1]
    index = pages_of(path, "sqlite_autoindex_events_1")
    cases = [(p,) for p in range(1, pages + 1)] + [(i, last_leaf) for i in index] + [(p, last_leaf) for p in (1, 2)]
    shorter = 0
    for case in cases:
        data = tmp_path / "-".join(map(str, case))
        shutil.copytree(live, data)
        zero(data / "games.db", *case)
        store = GameStore(data / "games.db")
        try:
            every_loss_is_said(store, acknowledged)
            shorter += store.record(playing).status == "damaged"
        finally:
            store.close()
    assert shorter  # the cases did lose events of the game in play: each was said


def test_the_events_index_and_last_leaf_zeroed_say_where_the_game_came_back_and_offer_its_start(tmp_path: Path):
    """``fog-companion run`` as the unit starts it (no standard input) on a log that lost two pages."""
    earlier, playing = evening(tmp_path)
    path = tmp_path / "games.db"
    zero(path, pages_of(path, "sqlite_autoindex_events_1")[-1], pages_of(path, "events", "leaf")[-1])
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--camera", "sim", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording"})
    lines = collect_output(proc)
    try:
        assert wait_for(lambda: any(x.startswith("panel: http://") for x in lines) or proc.poll() is not None, 90)
        said = "".join(lines)
        port = next(int(m.group(1)) for x in lines if (m := re.match(r"panel: http://[^:]+:(\d+)/", x)))
        came = re.search(rf"game {playing} came back at event (\d+) of 30: ", said)
        assert came is not None, said
        good = int(came.group(1))
        words = f"game {playing} came back at event {good} of 30: events {good + 1}-30 were lost with the damaged file"
        assert 0 < good < 30 and f"game log: {words}" in said, said  # the terminal (the journal)
        code, state = http_call(port, "GET", "/api/state")
        assert state["phase"] == "setup" and any(words in n for n in state["storage"]["notices"])  # the panel
        games = {g["id"]: g for g in http_call(port, "GET", "/api/games")[1]["games"]}
        assert games[playing]["status"] == "damaged" and words in games[playing]["note"]
        [copy] = [g for g in games.values() if g["title"] == f"{playing} (up to event {good})"]
        code, refused = http_call(port, "POST", f"/api/games/{playing}/resume", {"confirm": True})
        assert code == 409 and "damaged" in refused["error"]
        code, resumed = http_call(port, "POST", f"/api/games/{copy['id']}/resume", {"confirm": True})
        assert code == 200 and resumed["state"]["seq"] == good  # play goes on from the readable start
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    assert "Traceback" not in "".join(lines)
    assert f"PROBLEM  damaged game: {playing} (damaged): {words}" in doctor_says(tmp_path)  # and the doctor


def test_a_truncated_file_names_every_game_it_lost_at_start_and_in_the_doctor(tmp_path: Path):
    earlier, playing = evening(tmp_path, earlier=25)
    os.truncate(tmp_path / "games.db", 4 * PAGE)
    before = doctor_says(tmp_path)  # before any start: the file as found
    companion, said = start(tmp_path)
    try:
        assert companion.session.state is None
        every_loss_is_said(companion.store, {earlier: 25, playing: 30})
        for game, ack in ((earlier, 25), (playing, 30)):
            assert f"game {game} is missing from games.db: its setup and {ack} acknowledged event(s) were lost" in said
        listed = create_app(companion).test_client().get("/api/games").get_json()["games"]
        assert {earlier, playing} <= {g["id"] for g in listed}
    finally:
        companion.stop()
    assert f"{earlier} (25 events)" in before and f"{playing} (30 events)" in before, before
    after = doctor_says(tmp_path)
    assert f"PROBLEM  damaged game: {playing}" in after and f"PROBLEM  damaged game: {earlier}" in after


def test_a_journal_deleted_after_a_kill_or_an_older_copy_put_back_is_said_never_resumed(
        tmp_path: Path, monkeypatch: Any):
    live = tmp_path / "live"
    live.mkdir()
    earlier, playing = evening(live, now=10)
    older = tmp_path / "older"
    shutil.copytree(live, older)  # a backup taken at event 10 of the game in play
    monkeypatch.setattr(GameStore, "CHECKPOINT_EVERY", None)  # a kill before the last commits reached the file
    store = GameStore(live / "games.db")
    session = Session(store)
    assert session.resume()
    for _ in range(8):
        session.act(str(rules.legal_drafts(session.state)[0]))
    later = store.create_game(new_game(BOARD, 3, seed=9).to_dict(), title="Late", replaces=playing,
                              replaced_status="paused")
    killed = tmp_path / "killed"
    killed.mkdir()
    for name in ("games.db", "games.db.marks"):  # the files a kill leaves, and the -wal deleted after it
        shutil.copy(live / name, killed / name)
    store.close()
    monkeypatch.undo()
    shutil.copy(killed / "games.db.marks", older / "games.db.marks")  # the marks say how far it got

    for data in (killed, older):
        companion, said = start(data)
        try:
            assert companion.session.state is None, said
            assert f"game {playing} came back at event 10 of 18: events 11-18 were lost with the damaged file" in said
            assert f"game {later} is missing from games.db: its setup and 0 acknowledged event(s) were lost" in said
            every_loss_is_said(companion.store, {earlier: 12, playing: 18})
        finally:
            companion.stop()


# ------------------------------------------------------------------ rows and statuses edited by hand
def edit(data: Path, sql: str, *params: Any) -> None:
    with sqlite3.connect(data / "games.db") as db:
        db.execute(sql, params)
    db.close()


def test_the_first_row_that_does_not_read_or_replay_is_named_and_its_start_kept_even_without_marks(tmp_path: Path):
    earlier, playing = evening(tmp_path)
    edit(tmp_path, "UPDATE events SET kind='zzz' WHERE game_id=? AND seq=5", playing)
    edit(tmp_path, "UPDATE events SET data='{\"action\": \"nonsense\"}' WHERE game_id=? AND seq=7", earlier)
    (tmp_path / "games.db.marks").unlink()  # a log from before the marks: its rows and replay alone tell
    assert f"PROBLEM  damaged game: {earlier} (paused): game {earlier}: event 7 (action: " in doctor_says(tmp_path)
    companion, said = start(tmp_path)
    try:
        assert f"game {playing}: event 5 cannot be read (its kind 'zzz' is none the log writes" in said, said
        assert f"game {earlier}: event 7 (action: {{'action': 'nonsense'}}) does not replay: " in said, said  # paused
        games = {g.title: (g.status, g.events) for g in companion.store.games()}
        assert games[f"{playing} (up to event 4)"] == ("paused", 4) and games[f"{earlier} (up to event 6)"] == \
            ("paused", 6)
        resumed = create_app(companion).test_client().post(f"/api/games/{earlier}/resume", json={"confirm": True})
        assert resumed.status_code == 409 and "damaged" in resumed.get_json()["error"]
    finally:
        companion.stop()


def test_an_unknown_status_and_a_damaged_paused_game_are_said_at_start_and_by_the_doctor(tmp_path: Path):
    earlier, playing = evening(tmp_path)
    edit(tmp_path, "UPDATE games SET status='zzz' WHERE id=?", playing)
    edit(tmp_path, "UPDATE events SET at='abc' WHERE game_id=? AND seq=3", earlier)
    before = doctor_says(tmp_path)
    assert f"PROBLEM  damaged game: {playing} (zzz): its status 'zzz' is none a fog-companion writes" in before
    assert f"PROBLEM  damaged game: {earlier} (paused): game {earlier}: event 3 cannot be read" in before
    companion, said = start(tmp_path)
    try:
        assert f"game {playing}: its status read 'zzz', which no fog-companion writes; it is kept as paused" in said
        assert f"game {earlier}: event 3 cannot be read (its time 'abc' is not a number); events 1-2 read" in said
        assert companion.store.record(playing).status == "paused" and companion.session.state is None
    finally:
        companion.stop()


def test_a_row_of_five_million_characters_keeps_every_notice_note_and_listing_small(tmp_path: Path):
    earlier, playing = evening(tmp_path)
    edit(tmp_path, "UPDATE events SET data=json_object('action', 'draft pink ' || printf('%.5000000c', 'x')) "
         "WHERE game_id=? AND seq=5", playing)
    for marks in (True, False):  # caught by the checksum, or (a log from before the marks) by its replay
        if not marks:
            edit(tmp_path, "UPDATE games SET status='playing', note='' WHERE id=?", playing)
            (tmp_path / "games.db.marks").unlink()
        companion, said = start(tmp_path)
        try:
            client = create_app(companion).test_client()
            state = client.get("/api/state").get_json()
            notices = state["storage"]["notices"] + [state["damaged"] or ""]
            assert any(f"game {playing}" in n and "event 5" in n for n in notices), notices
            assert all(len(n) <= 1100 for n in notices) and len(said) < 5000
            assert len(client.get("/api/games").data) < 5000
            assert len(client.get(f"/api/games/{playing}/replay?step=30").data) < 20000  # its Replay page too
            note = companion.store.record(playing).note
            assert len(note) < 400 and (marks or "characters in all)" in note), note
        finally:
            companion.stop()


def test_a_paused_game_cut_short_while_the_companion_runs_is_caught_when_it_is_resumed(tmp_path: Path):
    earlier, playing = evening(tmp_path)
    companion, _ = start(tmp_path)
    try:
        assert companion.session.game_id == playing
        edit(tmp_path, "DELETE FROM events WHERE game_id=? AND seq > 8", earlier)  # another program, meanwhile
        client = create_app(companion).test_client()
        refused = client.post(f"/api/games/{earlier}/resume", json={"confirm": True})
        words = f"game {earlier} came back at event 8 of 12: events 9-12 were lost with the damaged file"
        assert refused.status_code == 409 and words in refused.get_json()["error"], refused.get_json()
        assert companion.session.game_id == playing  # the game in play goes on, untouched
        assert any(words in n for n in client.get("/api/state").get_json()["storage"]["notices"])
        assert any(g.title == f"{earlier} (up to event 8)" and g.status == "paused" for g in companion.store.games())
    finally:
        companion.stop()
