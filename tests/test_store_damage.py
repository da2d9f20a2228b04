"""A damaged game log never stops the companion and never loses a game without saying so.

Every file here is a real SQLite file damaged the way a person, a script or an SD card damages
one: a row edited by hand, bytes that are not text, a byte flipped in an index page, a page of
zeros, a scribbled first page, a journal deleted under the running companion. The companion
is then started as the product starts it, and what it says and serves is checked.
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from companion.store.salvage import salvage
from companion.session.session import Session
from companion.store.store import GameStore
from tests.tables import BOARD, collect_output, http_call, sim_config, wait_for
from web_ui import create_app

ROOT = Path(__file__).resolve().parent.parent
PAGE = 4096  # SQLite's page size here


def played(data: Path, drafts: int = 8, finish: bool = False, seed: int = 4) -> tuple[str, int]:
    """A game of The FOG with ``drafts`` picks logged, left being played (or finished)."""
    store = GameStore(data / "games.db")
    session = Session(store)
    session.start(new_game(BOARD, 3, seed=seed), verify=False)
    for _ in range(drafts):
        session.act(str(rules.legal_drafts(session.state)[0]))
    game, seq = session.game_id, session.last_seq
    assert game is not None
    if finish:
        store.finish(game)
    store.close()
    return game, seq


def edit(data: Path, sql: str, *params: Any) -> None:
    """Someone edits the log by hand with the sqlite3 shell."""
    with sqlite3.connect(data / "games.db") as db:
        db.execute(sql, params)
    db.close()


def statuses(store: GameStore) -> dict[str, tuple[str, str, int]]:
    return {g.id: (g.status, g.title, g.events) for g in store.games()}


# ------------------------------------------------------------------ one bad row
BAD_ROWS = {
    "half a JSON text": ("UPDATE events SET data='{\"action\": \"dra' WHERE game_id=? AND seq=5", "is not JSON"),
    "bytes that are not UTF-8": ("UPDATE events SET data=CAST(X'7B22616374696F6E223A2022FF227D' AS TEXT) "
                                 "WHERE game_id=? AND seq=5", "not UTF-8"),
    "a time that is not a number": ("UPDATE events SET at='abc' WHERE game_id=? AND seq=5", "is not a number"),
    "data that is a number": ("UPDATE events SET data=42 WHERE game_id=? AND seq=5", "a number, not an object"),
    "a row deleted": ("DELETE FROM events WHERE game_id=? AND seq=5", "missing"),
}


@pytest.mark.parametrize("damage", list(BAD_ROWS), ids=list(BAD_ROWS))
def test_one_bad_row_marks_the_game_damaged_the_service_starts_and_the_good_prefix_is_offered(tmp_path: Path,
                                                                                             damage: str):
    game, seq = played(tmp_path, drafts=8)
    sql, words = BAD_ROWS[damage]
    edit(tmp_path, sql, game)
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), out=out)  # formerly a traceback at every start
    try:
        said = out.getvalue()
        assert companion.session.state is None, "a game that skipped a row was resumed"
        assert f"game {game}: event 5 cannot be read" in said and words in said and "events 1-4 read" in said, said
        client = create_app(companion).test_client()
        notices = client.get("/api/state").get_json()["storage"]["notices"]
        assert any(f"game {game}: event 5" in n for n in notices), notices  # on every page's banner
        games = statuses(companion.store)
        assert games[game][0] == "damaged"
        [copy] = [g for g in games if g != game]
        assert games[copy] == ("paused", f"{game} (up to event 4)", 4) and copy in said  # the good prefix, offered

        exported = client.get(f"/api/games/{game}").get_json()
        assert exported["damaged"]["where"] == "event 5" and exported["damaged"]["good"] == 4
        rows = exported["events"]
        assert len(rows) == (seq - 1 if damage == "a row deleted" else seq)  # every row that is there, kept
        if damage != "a row deleted":
            assert words.split()[-1] in rows[4]["damaged"] and rows[4]["raw"]["data"] is not None
        replay = client.get(f"/api/games/{game}/replay?step={seq}").get_json()
        assert replay["step"] == 4 and replay["damage"]["where"] == "event 5" and "event 5" in replay["damaged"]
        board = client.get(f"/api/games/{game}/board")
        assert board.status_code == 200 and board.get_json()["cells"]
        assert client.get(f"/games/{game}").status_code == 200

        # the players resume the readable start: new moves follow event 4 of the copy, nothing is skipped
        assert client.post(f"/api/games/{copy}/resume", json={}).status_code == 200
        session = companion.session
        assert session.game_id == copy and session.last_seq == 4
        session.status.verifying = False
        session.act(str(rules.legal_drafts(session.state)[0]))
        assert [e.seq for e in companion.store.events(copy)] == [1, 2, 3, 4, 5]
        assert len(companion.store.read_log(game).rows) == len(rows)  # the damaged game is untouched
        assert companion.store.record(game).status == "damaged"
    finally:
        companion.stop()


def test_a_damaged_setup_answers_export_replay_and_board_with_what_is_readable(tmp_path: Path):
    finished, seq = played(tmp_path, drafts=3, finish=True, seed=1)
    playing, _ = played(tmp_path, drafts=2, seed=2)
    edit(tmp_path, "UPDATE games SET setup='{\"board\": {\"cells\"' WHERE id=?", finished)
    edit(tmp_path, "UPDATE games SET setup=CAST(X'7BFF7D' AS TEXT) WHERE id=?", playing)
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), out=out)
    try:
        assert companion.session.state is None
        assert f"game {playing}: its setup cannot be read (its setup is not UTF-8 text)" in out.getvalue()
        assert f"game {finished}: its setup cannot be read (its setup is not JSON" in out.getvalue()  # said at start
        assert len(companion.store.games()) == 2  # nothing to copy: no position can be rebuilt without a setup
        client = create_app(companion).test_client()
        for game, why in ((finished, "is not JSON"), (playing, "not UTF-8")):
            exported = client.get(f"/api/games/{game}")
            assert exported.status_code == 200, exported.get_json()
            data = exported.get_json()
            assert data["setup"] is None and data["damaged"]["where"] == "setup" and why in data["damaged"]["reason"]
            assert data["raw_setup"] in ('{"board": {"cells"', {"hex": "7bff7d"})
            replay = client.get(f"/api/games/{game}/replay?step=2")
            assert replay.status_code == 200 and replay.get_json()["step"] == 0
            assert "setup" in replay.get_json()["damaged"]
            board = client.get(f"/api/games/{game}/board")
            assert board.status_code == 200 and "setup" in board.get_json()["damaged"] and board.get_json()["cells"]
            assert client.get(f"/games/{game}").status_code == 200
        assert len(client.get(f"/api/games/{finished}").get_json()["events"]) == seq
        listed = client.get("/api/games").get_json()["games"]
        assert {g["id"]: g["status"] for g in listed} == {finished: "damaged", playing: "damaged"}
    finally:
        companion.stop()


# ------------------------------------------------------------------ an index that lies
def index_cells(path: Path, index: str) -> list[list[int]]:
    """Each cell of an index's leaf pages: the file offsets of the last byte of each integer in its record."""
    with sqlite3.connect(path) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name=? AND pagetype='leaf'", (index,))]
    db.close()
    data = path.read_bytes()

    def varint(pos: int) -> tuple[int, int]:
        value = 0
        for i in range(9):
            value = (value << 7) | (data[pos + i] & 0x7F)
            if data[pos + i] < 0x80:
                return value, pos + i + 1
        raise ValueError("varint")

    cells = []
    for page in pages:
        base = (page - 1) * page_size
        for k in range(int.from_bytes(data[base + 3:base + 5], "big")):
            _size, pos = varint(base + int.from_bytes(data[base + 8 + 2 * k:base + 10 + 2 * k], "big"))
            header_size, at = varint(pos)  # the record: its header of serial types, then the values
            body, ends = pos + header_size, []
            while at < pos + header_size:
                serial, at = varint(at)
                body += (serial - 12) // 2 if serial >= 12 else {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}.get(serial, 0)
                if 1 <= serial <= 6:
                    ends.append(body - 1)
            cells.append(ends)
    return cells


def test_a_byte_flipped_in_an_index_page_is_found_at_start_and_the_game_resumes_where_it_was(tmp_path: Path):
    game, seq = played(tmp_path, drafts=24)
    path = tmp_path / "games.db"
    cells = index_cells(path, "sqlite_autoindex_events_1")
    assert len(cells) >= seq
    data = bytearray(path.read_bytes())
    data[cells[len(cells) // 2][-1]] ^= 0x01  # the row id the index points at, one bit off
    path.write_bytes(bytes(data))
    with sqlite3.connect(path) as raw:  # the damage the report describes: invisible to quick_check
        assert raw.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        assert "missing from index" in " ".join(r[0] for r in raw.execute("PRAGMA integrity_check").fetchall())
    raw.close()
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), out=out)
    try:
        said = out.getvalue()
        assert f"resumed game {game}" in said and "the indexes were rebuilt from the table rows (REINDEX)" in said
        assert companion.session.last_seq == seq  # not a row back
        assert companion.session.replayed() == companion.session.state
        assert companion.store._db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert not list(tmp_path.glob("games.db.corrupt-*"))  # repaired in place: nothing had to be moved
    finally:
        companion.stop()


def test_an_index_that_goes_bad_while_running_is_caught_when_the_game_is_read(tmp_path: Path):
    game, seq = played(tmp_path, drafts=24)
    path = tmp_path / "games.db"
    store = GameStore(path)
    assert store.notices == []
    cells = index_cells(path, "sqlite_autoindex_events_1")
    data = bytearray(path.read_bytes())
    data[cells[3][-1]] ^= 0x01
    with open(path, "r+b") as f:  # the SD card flips a bit under the running companion
        f.write(bytes(data))
    other = sqlite3.connect(path, isolation_level=None)  # another writer starts the journal afresh, so the
    for sql in ("UPDATE meta SET value=value", "PRAGMA wal_checkpoint(TRUNCATE)", "UPDATE meta SET value=value"):
        other.execute(sql).fetchall()  # companion's connection reads its pages from the file again
    other.close()
    assert [e.seq for e in store.events(game)] == list(range(1, seq + 1))  # read from the table, complete
    assert any("the indexes were rebuilt" in n and game in n for n in store.notices), store.notices
    assert store._db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    store.close()


# ------------------------------------------------------------------ a file past repair
def leaf_page(path: Path, table: str, containing: str) -> int:
    """The first leaf page of ``table`` that holds ``containing``."""
    with sqlite3.connect(path) as db:
        pages = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name=? AND pagetype='leaf' "
                                          "ORDER BY pageno", (table,))]
    db.close()
    data = path.read_bytes()
    return next(p for p in pages if containing.encode() in data[(p - 1) * PAGE:p * PAGE])


def zero_page(path: Path, page: int) -> None:
    """A block the SD card lost: one page of zeros."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE:page * PAGE] = bytes(PAGE)
    path.write_bytes(bytes(data))


def wreck_page(path: Path, table: str, containing: str) -> None:
    zero_page(path, leaf_page(path, table, containing))


def test_a_file_past_repair_is_moved_aside_and_every_readable_game_comes_back(tmp_path: Path):
    finished = [played(tmp_path, drafts=20, finish=True, seed=s) for s in range(1, 7)]
    playing, playing_seq = played(tmp_path, drafts=5, seed=9)
    path = tmp_path / "games.db"
    wreck_page(path, "events", finished[2][0])  # a page in the middle of the evening's games
    damaged = path.read_bytes()
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), out=out)
    try:
        said = out.getvalue()
        [kept] = [p for p in tmp_path.glob("games.db.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]
        assert kept.read_bytes() == damaged  # kept exactly as it was, and named
        assert f"moved aside to {kept.name}" in said and "recovered from it row by row" in said, said
        assert companion.session.state is None  # the game being played is paused, to be checked first
        games = statuses(companion.store)
        assert games[playing] == ("paused", playing, playing_seq)
        hurt = [g for g, seq in finished if games[g] != ("finished", g, seq)]
        assert finished[2][0] in hurt and len(hurt) < len(finished)  # the rest came back whole
        assert len(games) == 7 + len(hurt)  # each hurt game's good prefix is kept as a paused copy
        for game in hurt:
            assert games[game][0] == "damaged"
            note = companion.store.record(game).note
            assert re.search(rf"game {game} came back (at event \d+|with no event) of 20: events? [\d-]+ "
                             rf"(was|were) lost with the damaged file|game {game}: event \d+ cannot be read "
                             r"\(it is missing.*of 20 acknowledged", note), note  # said against what was acknowledged
            assert f"{game} (up to event" in said
        client = create_app(companion).test_client()
        replay = client.get(f"/api/games/{finished[2][0]}/replay?step=99").get_json()
        assert replay["damage"]["where"].startswith("event ") and "of 20" in replay["damaged"]
        assert client.post(f"/api/games/{playing}/resume", json={}).status_code == 200
        assert companion.session.game_id == playing and companion.session.last_seq == playing_seq
    finally:
        companion.stop()
    again = Companion(sim_config(tmp_path), out=io.StringIO())  # the recovered file is the log from now on
    try:
        assert again.session.game_id == playing and not list(tmp_path.glob("games.db.corrupt-*-2"))
        assert again.store.notices == []
    finally:
        again.stop()


def test_events_whose_game_row_was_lost_stay_listed_under_a_stand_in(tmp_path: Path):
    games = [played(tmp_path, drafts=2, finish=True, seed=s)[0] for s in range(1, 40)]
    path = tmp_path / "games.db"
    wreck_page(path, "games", games[len(games) // 2])
    store = GameStore(path)
    listed = statuses(store)
    lost = [g for g in games if listed.get(g, ("",))[0] == "damaged"]
    assert lost and all(listed[g][2] == 2 for g in lost) and len(listed) == len(games)
    assert all(store.export(g)["events"] for g in lost)
    assert "game row (setup, title) could not be read" in store.record(lost[0]).note
    store.close()


def test_a_scribbled_first_page_loses_no_game(tmp_path: Path):
    game, seq = played(tmp_path, drafts=6)
    path = tmp_path / "games.db"
    data = bytearray(path.read_bytes())
    data[0:4096] = random.Random(3).randbytes(4096)  # the header and the schema: SQLite reads nothing
    path.write_bytes(bytes(data))
    store = GameStore(path)
    assert store.recovered_from is not None and store.recovered_from.read_bytes() == bytes(data)
    assert statuses(store) == {game: ("paused", game, seq)}
    assert [e.seq for e in store.events(game)] == list(range(1, seq + 1))
    store.close()


def test_rows_only_in_the_journal_of_a_killed_companion_are_recovered_too(tmp_path: Path, monkeypatch: Any):
    live, crashed = tmp_path / "live", tmp_path / "crashed"
    live.mkdir()
    crashed.mkdir()
    store = GameStore(live / "games.db")
    older = [store.create_game({"seed": g}, title=f"older {g}") for g in range(4)]
    for n in range(160):
        store.append(older[n % 4], "action", {"action": f"move {n} " + "x" * 40})
    store.tick()  # the main loop copies the burst into the file
    monkeypatch.setattr(GameStore, "CHECKPOINT_EVERY", None)  # then killed before its writes reached the file
    store._db.execute("PRAGMA wal_autocheckpoint=0")
    game = store.create_game({"seed": 1}, title="Tuesday")
    for n in range(20):
        store.append(game, "action", {"action": f"move {n}"})
    for suffix in ("", "-wal", ".marks"):  # the files as the kill leaves them
        (crashed / f"games.db{suffix}").write_bytes((live / f"games.db{suffix}").read_bytes())
    zero_page(crashed / "games.db", leaf_page(live / "games.db", "events", older[0]))  # and a block lost
    store.close()
    monkeypatch.undo()
    recovered = GameStore(crashed / "games.db")
    assert recovered.recovered_from is not None
    assert statuses(recovered)[game] == ("paused", "Tuesday", 20)  # every row of it was only in the journal
    assert [e.data["action"] for e in recovered.events(game)] == [f"move {n}" for n in range(20)]
    listed = statuses(recovered)
    assert set(older) < set(listed) and listed[older[0]][0] == "damaged"  # its lost block is said, not rewound
    assert any(f"game {older[0]}" in n and "of 40" in n for n in recovered.notices), recovered.notices
    recovered.close()


def test_the_page_reader_reads_what_sqlite_reads(tmp_path: Path):
    """On a healthy file, rows read from the pages are exactly SQLite's (long setups spill onto overflow pages)."""
    store = GameStore(tmp_path / "games.db")
    rng = random.Random(5)
    for g in range(12):
        game = store.create_game({"seed": g, "notes": "x" * rng.randint(10, 30000)}, title=f"game {g} ✓")
        for n in range(rng.randint(0, 40)):
            store.append(game, rng.choice(["action", "undo"]), {"action": "y" * rng.randint(1, 6000)})
    store.close()
    found = salvage(tmp_path / "games.db")
    with sqlite3.connect(tmp_path / "games.db") as db:
        games = {r[0]: list(r) for r in db.execute("SELECT * FROM games")}
        events = {(r[0], r[1]): list(r) for r in db.execute("SELECT * FROM events")}
    db.close()
    assert found.games == games and found.events == events
    assert found.unreadable_cells == 0 and found.conflicts == 0


def test_the_page_reader_reads_anything_thrown_at_it_and_keeps_what_it_can(tmp_path: Path):
    """Random bytes, cut-off files and flipped bits: the reader answers (never raises) with whole rows only."""
    store = GameStore(tmp_path / "games.db")
    game = store.create_game({"seed": 1, "notes": "n" * 9000}, title="Saturday")
    for n in range(60):
        store.append(game, "action", {"action": f"move {n}"})
    store.close()
    healthy = (tmp_path / "games.db").read_bytes()
    rng = random.Random(8)
    damaged = tmp_path / "damaged.db"
    kept = []
    for trial in range(100):
        data = bytearray(healthy)
        if trial % 3 == 0:
            data = data[:rng.randrange(len(data))]  # cut short
        for _ in range(rng.choice([1, 10, 500])):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        damaged.write_bytes(bytes(data))
        found = salvage(damaged)
        kept.append(len(found.events))
        assert all(k == (game, v[1]) for k, v in found.events.items() if k[0] == game)
    assert max(kept) == 60 and min(kept) >= 0


# ------------------------------------------------------------------ files that vanish under a running companion
def test_a_journal_deleted_while_running_then_a_kill_loses_nothing_and_is_said(tmp_path: Path):
    script = (
        "import os, signal, sys\n"
        "from companion.store.store import GameStore\n"
        f"store = GameStore({str(tmp_path / 'games.db')!r})\n"
        "game = store.create_game({'seed': 1}, title='Sunday')\n"
        "for n in range(5): store.append(game, 'action', {'action': f'a{n}'})\n"
        f"os.remove({str(tmp_path / 'games.db-wal')!r})\n"
        "for n in range(5, 8): store.append(game, 'action', {'action': f'a{n}'})\n"
        "print(*store.notices, sep='\\n', flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert "games.db-wal vanished or was replaced while the companion ran" in run.stdout, run.stdout
    store = GameStore(tmp_path / "games.db")
    [game] = store.games()
    assert [e.data["action"] for e in store.events(game.id)] == [f"a{n}" for n in range(8)]
    store.close()


def test_the_database_file_deleted_while_running_is_saved_back_at_its_path(tmp_path: Path):
    path = tmp_path / "games.db"
    store = GameStore(path)
    game = store.create_game({"seed": 1}, title="Monday")
    for n in range(4):
        store.append(game, "action", {"action": f"a{n}"})
    path.unlink()  # "tidying" the data directory
    assert store.check_files() is not None and path.exists()
    assert "games.db vanished" in store.notices[-1] and "saved back to games.db" in store.notices[-1]
    store.append(game, "action", {"action": "a4"})
    other = GameStore(path)  # what a restart would find
    assert [e.data["action"] for e in other.events(game)] == [f"a{n}" for n in range(5)]
    other.close()
    store.close()


# ------------------------------------------------------------------ the service and the doctor
def test_the_service_on_a_damaged_data_dir_starts_says_it_and_a_deleted_journal_is_saved(tmp_path: Path):
    """``fog-companion run`` as the unit starts it (no standard input) on a log with a bad row."""
    data = tmp_path / "data"
    data.mkdir()
    game, _ = played(data, drafts=8)
    edit(data, "UPDATE events SET data='{\"action\": ' WHERE game_id=? AND seq=6", game)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording"}

    def start() -> tuple[Any, list[str], int]:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--camera", "sim", "--host", "127.0.0.1",
                                 "--port", "0", "--data-dir", str(data)], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
        lines = collect_output(proc)
        assert wait_for(lambda: any(x.startswith("panel: http://") for x in lines) or proc.poll() is not None, 90)
        port = next((int(m.group(1)) for x in lines if (m := re.match(r"panel: http://[^:]+:(\d+)/", x))), None)
        assert port is not None, "".join(lines)
        return proc, lines, port

    proc, lines, port = start()
    try:
        code, state = http_call(port, "GET", "/api/state")
        assert code == 200 and state["phase"] == "setup", state
        assert any(f"game {game}: event 6 cannot be read" in n for n in state["storage"]["notices"]), state
        code, exported = http_call(port, "GET", f"/api/games/{game}")
        assert code == 200 and exported["damaged"]["where"] == "event 6"
        assert http_call(port, "GET", f"/api/games/{game}/replay?step=8")[1]["step"] == 5
        assert http_call(port, "GET", f"/api/games/{game}/board")[0] == 200
        (data / "games.db-wal").unlink()  # a clean-up script, while the companion runs
        assert wait_for(lambda: any("games.db-wal vanished" in n for n in
                                    http_call(port, "GET", "/api/state")[1]["storage"]["notices"]), 60)
        code, started = http_call(port, "POST", "/api/games", {"players": [{}, {}, {}], "seed": 2, "title": "Late"})
        assert code == 200, started
    finally:
        proc.send_signal(signal.SIGKILL)  # and then the power goes
        proc.wait(60)
    proc, lines, port = start()
    try:
        assert wait_for(lambda: any("resumed game" in x for x in lines), 30), "".join(lines)
        code, state = http_call(port, "GET", "/api/state")
        assert state["game"] == started["game"] and state["storage"]["notices"] == [], state
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    assert "Traceback" not in "".join(lines)


def test_the_pages_say_a_damaged_log_until_dismissed_and_the_replay_says_where_it_stops(tmp_path: Path):
    """In Chromium at phone size: the banner on every page, and the Replay page of the damaged game."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed")
    game, seq = played(tmp_path, drafts=8)
    edit(tmp_path, "UPDATE events SET data=CAST(X'7B22FF' AS TEXT) WHERE game_id=? AND seq=3", game)
    companion = Companion(sim_config(tmp_path), out=io.StringIO())
    companion.start(panel=True)
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(companion.panel_url.rstrip("/") + "/")
            notice = page.locator("#banner .log-notice").first
            notice.wait_for()
            assert f"game {game}: event 3 cannot be read (its data is not UTF-8 text)" in notice.inner_text()
            notice.locator("button").click()  # read: it stays away on this phone, also after a reload
            page.reload()
            page.wait_for_function("() => document.getElementById('conn').textContent.includes('live')")
            assert page.locator("#banner .log-notice").count() == 0
            page.goto(companion.panel_url.rstrip("/") + f"/games/{game}")
            page.locator("#moves button").nth(seq - 1).wait_for()
            assert "Unreadable row: its data is not UTF-8 text" in page.locator("#moves button").nth(2).inner_text()
            page.locator("#last").click()
            page.wait_for_function("() => !document.getElementById('replay-damaged').hidden")
            assert "event 3 cannot be read" in page.locator("#replay-damaged").inner_text()
            assert page.locator("#step").inner_text() == "2"  # as far as it reads
            browser.close()
    finally:
        companion.stop()


def test_doctor_reports_a_broken_index_a_damaged_game_and_a_kept_file_and_changes_nothing(tmp_path: Path):
    from argparse import Namespace

    from companion.app.doctor import doctor

    game, _ = played(tmp_path, drafts=24)
    path = tmp_path / "games.db"
    edit(tmp_path, "UPDATE events SET at='abc' WHERE game_id=? AND seq=7", game)
    cells = index_cells(path, "sqlite_autoindex_events_1")
    data = bytearray(path.read_bytes())
    data[cells[2][-1]] ^= 0x01
    path.write_bytes(bytes(data))
    (tmp_path / "games.db.corrupt-20260101-120000").write_bytes(b"kept")
    out = io.StringIO()
    code = doctor(Namespace(config=None, camera="sim", data_dir=str(tmp_path)), out=out,
                  environ={"FOG_LED_BACKEND": "recording"})
    text = out.getvalue()
    assert code == 1
    assert re.search(r"PROBLEM  game log: .*games.db: the integrity check finds .*missing from index", text), text
    assert f"PROBLEM  damaged game: {game} (playing): game {game}: event 7 cannot be read (its time 'abc'" in text
    assert "PROBLEM  game log: " in text and "games.db.corrupt-20260101-120000 was kept aside" in text
    assert bytes(data) == path.read_bytes()  # only read: the next start repairs
