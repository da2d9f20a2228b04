"""The game log: every event is written to SQLite before it is acknowledged.

A game is its setup state plus an append-only list of events. The current state is a replay of
the log's actions, so a power cut can lose nothing that was acknowledged: ``append`` returns
only after SQLite has committed with ``synchronous=FULL`` in WAL mode, and the commit is then
copied into the database file itself (a checkpoint), so the ``-wal`` file never holds the only
copy of a game for longer than one write.

Damage is found, said and contained, never a reason not to start:

* ``PRAGMA integrity_check`` runs at every open. Broken indexes are rebuilt from the table
  (``REINDEX``); a file that is still damaged is moved aside (``games.db.corrupt-<time>``, kept
  as it was) and every row that can be read from its pages is recovered into a new file
  (:mod:`companion.salvage`); the game being played comes back paused, to be checked first.
* Events are read with a full table scan, never only through an index, and a game is trusted
  only as far as its rows read without a gap (:mod:`companion.damage`): a game whose next row is
  unreadable is marked ``damaged``, and its good prefix is offered as a paused copy.
* The file, its ``-wal`` and ``-shm`` are checked after every write and by the main loop: one
  deleted or replaced under the running companion is a loud notice, and what the connection
  still holds is saved into a file at the database's path.

A full disk, an I/O error, a read-only or unreachable directory are not damage: they are
reported as what they are (:class:`StoreUnavailableError`, with the path and the fix) and nothing
is moved, because the file is usually healthy and the game in it is the players' evening.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.damage import Damage, LoggedEvent, decode_json, good_prefix, readable_row, text_value
from companion.errors import FogCompanionError
from companion.journal import WatchedFiles

__all__ = ["Damage", "DamagedGameError", "GameLog", "GameRecord", "GameStore", "LoggedEvent", "NoSuchGameError",
           "StoreCorruptError", "StoreError", "StoreUnavailableError"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,               -- playing | paused | finished | abandoned | damaged
    setup TEXT NOT NULL,                -- the state after setup, JSON
    note TEXT NOT NULL DEFAULT ''       -- why a game is damaged, or where it was recovered from
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
EVENTS_INDEX = "sqlite_autoindex_events_1"  # the primary key's index
BUSY_MS = 10_000  # how long a write waits for another program holding the file


class StoreError(FogCompanionError):
    """The game log cannot be used."""


class NoSuchGameError(StoreError):
    """No game by that id in the log."""


class StoreUnavailableError(StoreError):
    """The database cannot be read or written now (full disk, I/O error, read-only); nothing was changed."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason  # "disk-full" | "read-only" | "io-error" | "busy" | "cannot-open" | "damaged"


class StoreCorruptError(StoreError):
    """The database is damaged and could not even be moved aside to recover it (``kept_at``: where it went)."""

    def __init__(self, message: str, kept_at: Path | None) -> None:
        super().__init__(message)
        self.kept_at = kept_at


class DamagedGameError(StoreError):
    """A game's log does not read past ``damage``; ``events`` is its good prefix."""

    def __init__(self, damage: Damage, events: list[LoggedEvent]) -> None:
        super().__init__(str(damage))
        self.damage = damage
        self.events = events


@dataclass(frozen=True)
class GameRecord:
    id: str
    created: float
    game: str
    title: str
    status: str
    events: int
    note: str = ""


@dataclass(frozen=True)
class GameLog:
    """One game as it reads: the setup (None if unreadable), the good prefix, every row, the first damage."""

    record: GameRecord
    setup: dict[str, Any] | None
    events: list[LoggedEvent]
    rows: list[tuple[Any, Any, Any, Any]]  # (seq, at, kind, data) as stored, in sequence
    damage: Damage | None
    raw_setup: Any = None


# SQLite's primary result codes (sqlite3.Error.sqlite_errorcode & 0xFF) that mean "the file is damaged".
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_UNAVAILABLE = {  # code -> (reason, what to do)
    13: ("disk-full", "the disk is full: free some space on it (old photos, logs, `sudo apt clean`)"),
    8: ("read-only", "the data directory is read-only: give the companion's user write access to it"),
    10: ("io-error", "the disk reported an I/O error: check the SD card or drive (`dmesg`)"),
    14: ("cannot-open", "the database file cannot be opened: check that the directory exists and is writable"),
    3: ("read-only", "access was denied: give the companion's user write access to the data directory"),
    23: ("read-only", "access was denied: give the companion's user write access to the data directory"),
    5: ("busy", "another program holds the database: stop the other fog-companion"),
    6: ("busy", "another program holds the database: stop the other fog-companion"),
    11: ("damaged", "the file was damaged while running: restart the companion, it recovers every readable row"),
    26: ("damaged", "the file was damaged while running: restart the companion, it recovers every readable row"),
}


def _code(exc: sqlite3.Error) -> int:
    return int(getattr(exc, "sqlite_errorcode", -1) or -1) & 0xFF


def unavailable(path: Path, exc: sqlite3.Error, doing: str) -> StoreUnavailableError:
    """A clear error for a database that cannot be used right now (never a reason to move it aside)."""
    reason, fix = _UNAVAILABLE.get(_code(exc), ("io-error", "check the disk holding the data directory"))
    if isinstance(exc, MemoryError):
        reason, fix = "io-error", "the machine ran out of memory"
    return StoreUnavailableError(f"the game database {path} cannot be {doing}: {exc}. Fix: {fix}. "
                                 "Nothing was moved or deleted.", reason)


def _text(value: Any) -> str:
    """A column shown to people: bytes that are not UTF-8 (a damaged row) with replacement marks."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else "" if value is None else str(value)


class GameStore(WatchedFiles):
    """One SQLite file in the data directory holding every game. Thread-safe.

    ``notices`` lists, in words, whatever opening or watching the file found (an index rebuilt,
    a file recovered, a damaged game, a vanished journal); ``on_notice`` is called with each new
    one (the companion publishes it to the pages).
    """

    # A commit is copied into the file at once, unless the last copy is younger than this (a burst of
    # commits is copied once, by the next one past it or by ``tick``). None: left to SQLite (the
    # benchmark's comparison, and tests that play a companion killed before its writes reached the file).
    CHECKPOINT_EVERY: float | None = 0.5

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self.notices: list[str] = []
        self.on_notice: Callable[[str], None] | None = None
        self.recovered_from: Path | None = None  # the moved-aside file this one was recovered from
        self._files: dict[str, tuple[int, int] | None] = {}
        self._copied, self._uncopied = 0.0, False  # when commits were last copied into the file; any since?
        self._db = self._open()

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        log.warning("%s", text)
        if self.on_notice is not None:
            try:
                self.on_notice(text)
            except Exception:  # noqa: BLE001 - telling the pages must never fail a write
                log.exception("publishing a storage notice failed")

    # ------------------------------------------------------------------ opening
    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            db.close()
            raise
        return db

    def _open(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = None
        damage: str | None = None
        try:
            db = self._connect()
            problems = _integrity(db)
            if problems and not self._reindex(db, problems):
                damage = "integrity check: " + "; ".join(problems[:3])
            else:
                self._migrate(db)
                self._watch()
                return db
        except StoreError:
            if db is not None:
                db.close()
            raise
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
                db = None
            if _code(exc) not in _CORRUPT_CODES:
                raise unavailable(self.path, exc, "opened") from exc
            damage = str(exc)
        if db is not None:
            db.close()
        return self._recover(damage)

    def _reindex(self, db: sqlite3.Connection, problems: list[str]) -> bool:
        """Rebuild every index from the tables; True when the file is whole again (nothing was lost)."""
        try:
            db.execute("REINDEX")
        except sqlite3.Error as exc:
            log.warning("rebuilding the indexes of %s failed: %s", self.path, exc)
            return False
        if _integrity(db):
            return False
        self._notice(f"{self.path.name}: the integrity check found \"{problems[0]}\""
                     f"{f' and {len(problems) - 1} more problem(s)' if len(problems) > 1 else ''}; the indexes were "
                     "rebuilt from the table rows (REINDEX) and the file is whole again: no row was lost")
        return True

    def _migrate(self, db: sqlite3.Connection) -> None:
        db.executescript(SCHEMA)
        version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if version is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            return
        if int(version[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer fog-companion (schema {version[0]}): "
                             "update the companion; nothing was changed")
        if int(version[0]) < 2:  # schema 1 had no note column
            with _transaction(db):
                db.execute("ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT ''")
                db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))

    def _set_aside(self) -> Path | None:
        if not self.path.exists():
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while kept.exists():  # two in one second: never overwrite an earlier kept file
            n += 1
            kept = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            for suffix in ("", "-wal", "-shm"):
                src = Path(str(self.path) + suffix)
                if src.exists():
                    os.replace(src, Path(str(kept) + suffix))
        except OSError as exc:
            raise StoreCorruptError(f"the game database {self.path} is damaged and cannot be moved aside "
                                    f"({exc.strerror or exc}): give the companion's user write access to "
                                    f"{self.path.parent}; nothing was changed", None) from exc
        return kept

    def _recover(self, damage: str) -> sqlite3.Connection:
        """Move the damaged file aside (kept as it was) and recover its readable rows into a new one."""
        from companion.recovery import recover_into

        kept = self._set_aside()
        if kept is None:  # it vanished meanwhile: nothing to recover, a new file starts
            kept = self.path.with_name(f"{self.path.name}.corrupt-missing")
        try:
            db = self._connect()
            self._migrate(db)
        except sqlite3.Error as exc:
            raise unavailable(self.path, exc, "created") from exc
        self.recovered_from = kept
        recovery = recover_into(db, kept)
        self._db = db
        self._watch()
        self._notice(f"{self.path.name} was damaged ({damage}); it was moved aside to {kept.name} and kept as "
                     f"it was, and {recovery.summary}")
        for record in self.games():
            read = self.read_log(record.id)
            found, listed = read.damage, recovery.listed.get(record.id, 0)
            if found is None and listed > len(read.events):  # its last rows were on a page that was lost
                found = Damage(record.id, f"event {len(read.events) + 1}", len(read.events) + 1,
                               f"it is missing: the damaged file's index lists events up to {listed}", len(read.events))
            if found is not None and record.status != "damaged":
                self._retire(record, found, offer=record.id in recovery.playing)
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ writing
    def _write(self, doing: str, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run statements in one transaction; a full disk or I/O error is a clear StoreUnavailableError."""
        with self._lock:
            try:
                with _transaction(self._db):
                    for sql, params in statements:
                        self._db.execute(sql, params)
                self._checkpoint()
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, doing) from exc
        self.check_files()

    def _checkpoint(self, now: bool = False) -> None:
        """Copy the commits from the -wal into the database file, and empty the -wal.

        The -wal then does not hold the only copy of a game for longer than ``CHECKPOINT_EVERY``
        (one deleted by another program can lose nothing older), and the next commit writes it from
        its start, so a full disk shows at the very next move rather than after the space an
        earlier, larger journal left behind. ``benchmarks/store_speed.py`` measures the cost.
        """
        if self.CHECKPOINT_EVERY is None:
            return
        if not now and time.monotonic() - self._copied < self.CHECKPOINT_EVERY:
            self._uncopied = True
            return
        try:  # never waiting: with a reader (the doctor, `fog-companion list`) it copies what it can, as PASSIVE
            self._db.execute("PRAGMA busy_timeout=0")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            self._copied, self._uncopied = time.monotonic(), False
        except sqlite3.Error as exc:  # the commit stands in the WAL: SQLite checkpoints it later itself
            log.warning("checkpointing %s failed: %s", self.path, exc)
        finally:
            self._db.execute(f"PRAGMA busy_timeout={BUSY_MS}")

    def tick(self) -> str | None:
        """Called every second by the main loop: the files checked, the commits of a burst copied into the file."""
        notice = self.check_files()
        with self._lock:
            if self._uncopied:
                self._checkpoint(now=True)
        return notice

    def create_game(self, setup: dict[str, Any], title: str = "", game: str = "fog",
                    replaces: str | None = None, replaced_status: str = "abandoned") -> str:
        """A new game; ``replaces`` (the running game) gets ``replaced_status`` in the same transaction."""
        game_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO games (id, created, game, title, status, setup) VALUES (?, ?, ?, ?, 'playing', ?)",
             (game_id, time.time(), game, title or game_id, json.dumps(setup)))]
        if replaces is not None:
            statements.insert(0, ("UPDATE games SET status=? WHERE id=? AND status='playing'",
                                  (replaced_status, replaces)))
        self._write("written", *statements)
        return game_id

    def append(self, game_id: str, kind: str, data: dict[str, Any]) -> int:
        """Write one event durably and return its sequence number (only then is it acknowledged).

        The next number is counted from the table itself (``NOT INDEXED``): an index that lost a
        row can never make a new event take the number of one already logged.
        """
        payload = json.dumps(data, sort_keys=True)
        with self._lock:
            try:
                with _transaction(self._db):
                    row = self._db.execute("SELECT COALESCE(MAX(CASE WHEN typeof(seq)='integer' THEN seq END), 0) "
                                           "FROM events NOT INDEXED WHERE game_id=?", (game_id,)).fetchone()
                    seq = int(row[0]) + 1
                    self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                     (game_id, seq, time.time(), kind, payload))
                self._checkpoint()
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, "written") from exc
        self.check_files()
        return seq

    def switch_to(self, game_id: str, pauses: str | None = None) -> None:
        """Resume ``game_id``; ``pauses`` (the running game) is paused in the same transaction."""
        statements = [("UPDATE games SET status='playing' WHERE id=?", (game_id,))]
        if pauses is not None and pauses != game_id:
            statements.insert(0, ("UPDATE games SET status='paused' WHERE id=? AND status='playing'", (pauses,)))
        self._write("written", *statements)

    def record(self, game_id: str) -> GameRecord:
        rows = self._read("SELECT g.id, g.created, g.game, g.title, g.status, (SELECT COUNT(*) FROM events e "
                          "WHERE e.game_id = g.id), g.note FROM games g WHERE g.id=?", (game_id,))
        if not rows:
            raise NoSuchGameError(f"no game {game_id!r} in {self.path}")
        return _record(rows[0])

    def set_status(self, game_id: str, status: str, note: str = "") -> None:
        self._write("written", ("UPDATE games SET status=?, note=? WHERE id=?", (status, note, game_id)))

    def finish(self, game_id: str) -> None:
        self.set_status(game_id, "finished")

    def abandon(self, game_id: str) -> None:
        """A new game was started before this one ended: keep its log, never resume it."""
        self._write("written", ("UPDATE games SET status='abandoned' WHERE id=? AND status='playing'", (game_id,)))

    def mark_damaged(self, game_id: str, note: str) -> None:
        """A logged event no longer replays: keep the game (listed, exportable), never resume it."""
        self.set_status(game_id, "damaged", note)

    def _retire(self, record: GameRecord, damage: Damage, offer: bool) -> None:
        """A game that does not read past ``damage``: marked damaged; if it was being played, its good
        prefix is copied into a paused game the players may resume once the table matches it."""
        self.mark_damaged(record.id, str(damage))
        text = f"{damage}. It is marked damaged and is not resumed" + (
            "; it replays up to there on the Games page" if damage.where != "setup" else "")
        log_ = self.read_log(record.id)
        if offer and log_.setup is not None:
            copy = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
            title = f"{record.title} (up to event {damage.good})"
            self._write("written", ("INSERT INTO games (id, created, game, title, status, setup, note) "
                                    "VALUES (?, ?, ?, ?, 'paused', ?, ?)",
                                    (copy, time.time(), record.game, title, json.dumps(log_.setup),
                                     f"the readable start of game {record.id}")),
                        *[("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                           (copy, e.seq, e.at, e.kind, json.dumps(e.data, sort_keys=True))) for e in log_.events])
            text += (f". Its first {damage.good} event(s) were copied to the paused game {copy} (\"{title}\"): "
                     "resume that on the Games page once the table shows its position")
        self._notice(text + f". Every row is kept; `fog-companion export {record.id}` gives them all")

    # ------------------------------------------------------------------ reading
    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Rows as stored; text that is not UTF-8 (a damaged row) comes back as bytes instead of an error.

        Python's own decoding is kept for the usual rows (it is fast); only a query that meets such
        a row is read again with a decoder that keeps its bytes.
        """
        with self._lock:
            try:
                try:
                    return self._db.execute(sql, params).fetchall()
                except sqlite3.OperationalError as exc:
                    if "decode" not in str(exc):
                        raise
                self._db.text_factory = text_value
                try:
                    return self._db.execute(sql, params).fetchall()
                finally:
                    self._db.text_factory = str
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, "read") from exc

    def read_log(self, game_id: str) -> GameLog:
        """A game as far as it reads: setup, good prefix, every row (by a full table scan), first damage.

        The rows are read without the index, and the index is asked how many rows it holds and
        where they are (sums of their row ids and numbers): if the two disagree (an index page
        went bad while running) the indexes are rebuilt and it is said.
        """
        record = self.record(game_id)
        [(raw_setup,)] = self._read("SELECT setup FROM games NOT INDEXED WHERE id=?", (game_id,))[:1] or [(None,)]
        scanned = self._read("SELECT rowid, seq, at, kind, data FROM events NOT INDEXED WHERE game_id=? ORDER BY rowid",
                             (game_id,))
        [indexed] = self._read(f"SELECT COUNT(*), TOTAL(rowid), TOTAL(seq) FROM events INDEXED BY {EVENTS_INDEX} "
                               "WHERE game_id=?", (game_id,))
        numbered = [r for r in scanned if isinstance(r[1], int)]
        if tuple(indexed) != (len(numbered), float(sum(r[0] for r in numbered)), float(sum(r[1] for r in numbered))):
            self._rebuild_index(game_id, indexed[0], len(scanned))
        rows = [r[1:] for r in scanned]
        rows.sort(key=lambda r: (0, r[0]) if isinstance(r[0], int) else (1, 0))
        events, damage = good_prefix(game_id, rows)
        setup, why = decode_json(raw_setup, "setup")
        if setup is None:
            damage = Damage(game_id, "setup", None, str(why), 0)
        return GameLog(record, setup, events, rows, damage, raw_setup)

    def _rebuild_index(self, game_id: str, indexed: int, scanned: int) -> None:
        try:
            with self._lock:
                self._db.execute("REINDEX")
        except sqlite3.Error as exc:
            raise unavailable(self.path, exc, "repaired") from exc
        self._notice(f"{self.path.name}: the index of game {game_id}'s events disagreed with its {scanned} row(s) "
                     f"(it listed {indexed}, not all of them right); the indexes were rebuilt (REINDEX), and the game "
                     "is read from the table rows")

    def damage(self, game_id: str) -> Damage | None:
        """The first unreadable row of a game, or None when all of it reads."""
        return self.read_log(game_id).damage

    def setup(self, game_id: str) -> dict[str, Any]:
        game = self.read_log(game_id)
        if game.setup is None:
            assert game.damage is not None
            raise DamagedGameError(game.damage, [])
        return game.setup

    def game_name(self, game_id: str) -> str:
        """Which game (by its registered name) this log is of."""
        return self.record(game_id).game

    def events(self, game_id: str) -> list[LoggedEvent]:
        """Every event of a game; DamagedGameError (with the good prefix) if a row does not read."""
        game = self.read_log(game_id)
        if game.damage is not None:
            raise DamagedGameError(game.damage, game.events)
        return game.events

    def games(self) -> list[GameRecord]:
        rows = self._read("SELECT g.id, g.created, g.game, g.title, g.status, COUNT(e.seq), g.note FROM games g "
                          "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.created")
        return [_record(row) for row in rows]

    def unfinished(self) -> str | None:
        """The most recent game still being played (resumed on start), if all of its log reads.

        One that does not read is retired here (marked damaged, its good prefix offered as a
        paused copy) instead of being resumed from a position that skipped a row.
        """
        for record in reversed([g for g in self.games() if g.status == "playing"]):
            damage = self.damage(record.id)
            if damage is None:
                return record.id
            self._retire(record, damage, offer=True)
        return None

    def export(self, game_id: str) -> dict[str, Any]:
        """A whole game as JSON: its setup and every row, readable or not (``damaged`` says where it breaks)."""
        game = self.read_log(game_id)
        record = game.record
        out = {"id": record.id, "game": record.game, "title": record.title, "status": record.status,
               "note": record.note, "created": record.created, "setup": game.setup,
               "events": [readable_row(*row) for row in game.rows],
               "damaged": None if game.damage is None else {**game.damage.to_dict(), "message": str(game.damage)}}
        if game.setup is None:
            out["raw_setup"] = {"hex": game.raw_setup.hex()} if isinstance(game.raw_setup, bytes) else game.raw_setup
        return out

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(self.games())


def _record(row: tuple[Any, ...]) -> GameRecord:
    """A game row as listed: every column readable (a damaged one shown with replacement marks)."""
    game_id, created, game, title, status, events, note = row
    return GameRecord(_text(game_id), float(created) if isinstance(created, (int, float)) else 0.0, _text(game),
                      _text(title), _text(status), int(events), _text(note))


def _integrity(db: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA integrity_check`` finds (an empty list: the file is whole)."""
    rows = db.execute("PRAGMA integrity_check(20)").fetchall()
    found = [_text(r[0]) for r in rows]
    return [] if found == ["ok"] else found or ["no answer"]


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``; on failure a ROLLBACK only if a transaction is really open.

    (A failed COMMIT on a full disk may already have ended the transaction; rolling back blindly
    then raised "cannot rollback - no transaction is active" and hid the real error.)
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
