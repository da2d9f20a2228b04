"""The game log: every event is written to SQLite before it is acknowledged.

A game is its setup state plus an append-only list of events. The current state is a replay of
the log's actions, so a power cut can lose nothing that was acknowledged: ``append`` returns
only after SQLite has committed with ``synchronous=FULL`` in WAL mode.

Only a database that SQLite itself calls damaged (its header is not a database, or
``PRAGMA quick_check`` fails) is moved aside (``games.db.corrupt-<time>``), never reset. A full
disk, an I/O error, a read-only or unreachable directory are not damage: they are reported as
what they are (:class:`StoreUnavailableError`, with the path and the fix) and nothing is moved,
because the file is usually healthy and the game in it is the players' evening.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import FogCompanionError

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
    note TEXT NOT NULL DEFAULT ''       -- why a game is damaged
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


class StoreError(FogCompanionError):
    """The game log cannot be used."""


class StoreUnavailableError(StoreError):
    """The database cannot be read or written now (full disk, I/O error, read-only); nothing was changed."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason  # "disk-full" | "read-only" | "io-error" | "busy" | "cannot-open"


class StoreCorruptError(StoreError):
    """The database was damaged; it has been moved aside (``kept_at``) and nothing was reset."""

    def __init__(self, message: str, kept_at: Path | None) -> None:
        super().__init__(message)
        self.kept_at = kept_at


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    at: float
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class GameRecord:
    id: str
    created: float
    game: str
    title: str
    status: str
    events: int
    note: str = ""


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


class GameStore:
    """One SQLite file in the data directory holding every game. Thread-safe."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = self._open()

    # ------------------------------------------------------------------ opening
    def _open(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = None
        damage: str | None = None
        try:
            db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=10)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchall()
            if not check or check[0][0] != "ok":
                damage = "integrity check: " + ("; ".join(str(r[0]) for r in check[:3]) if check else "no answer")
            else:
                self._migrate(db)
                return db
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            if _code(exc) not in _CORRUPT_CODES:
                raise unavailable(self.path, exc, "opened") from exc
            damage = str(exc)
        if db is not None:
            db.close()
        kept = self._set_aside()
        raise StoreCorruptError(
            f"the game database {self.path} is damaged ({damage}); it was moved to {kept} and a new one "
            "will be started on the next run. Finished games in it may be recoverable with sqlite3 '.recover'.",
            kept)

    def _migrate(self, db: sqlite3.Connection) -> None:
        db.executescript(SCHEMA)
        version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if version is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            return
        if int(version[0]) > SCHEMA_VERSION:
            db.close()
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
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                os.replace(src, Path(str(kept) + suffix))
        return kept

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
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, doing) from exc

    def create_game(self, setup: dict[str, Any], title: str = "", game: str = "fog",
                    replaces: str | None = None, replaced_status: str = "abandoned") -> str:
        """A new game; ``replaces`` (the running game) gets ``replaced_status`` in the same transaction."""
        game_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        statements = [("INSERT INTO games (id, created, game, title, status, setup) VALUES (?, ?, ?, ?, 'playing', ?)",
                       (game_id, time.time(), game, title or game_id, json.dumps(setup)))]
        if replaces is not None:
            statements.insert(0, ("UPDATE games SET status=? WHERE id=? AND status='playing'",
                                  (replaced_status, replaces)))
        self._write("written", *statements)
        return game_id

    def append(self, game_id: str, kind: str, data: dict[str, Any]) -> int:
        """Write one event durably and return its sequence number (only then is it acknowledged)."""
        payload = json.dumps(data, sort_keys=True)
        with self._lock:
            try:
                with _transaction(self._db):
                    row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?",
                                           (game_id,)).fetchone()
                    seq = int(row[0]) + 1
                    self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                     (game_id, seq, time.time(), kind, payload))
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, "written") from exc
        return seq

    def switch_to(self, game_id: str, pauses: str | None = None) -> None:
        """Resume ``game_id``; ``pauses`` (the running game) is paused in the same transaction."""
        statements = [("UPDATE games SET status='playing' WHERE id=?", (game_id,))]
        if pauses is not None and pauses != game_id:
            statements.insert(0, ("UPDATE games SET status='paused' WHERE id=? AND status='playing'", (pauses,)))
        self._write("written", *statements)

    def record(self, game_id: str) -> GameRecord:
        for record in self.games():
            if record.id == game_id:
                return record
        raise StoreError(f"no game {game_id!r} in {self.path}")

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

    # ------------------------------------------------------------------ reading
    def setup(self, game_id: str) -> dict[str, Any]:
        with self._lock:
            row = self._db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id!r}")
        return json.loads(row[0])

    def game_name(self, game_id: str) -> str:
        """Which game (by its registered name) this log is of."""
        with self._lock:
            row = self._db.execute("SELECT game FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id!r}")
        return str(row[0])

    def events(self, game_id: str) -> list[LoggedEvent]:
        with self._lock:
            rows = self._db.execute("SELECT seq, at, kind, data FROM events WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [LoggedEvent(int(s), float(a), str(k), json.loads(d)) for s, a, k, d in rows]

    def games(self) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.game, g.title, g.status, COUNT(e.seq), g.note FROM games g "
                "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.created").fetchall()
        return [GameRecord(*row) for row in rows]

    def unfinished(self) -> str | None:
        """The most recent game still being played (resumed on start)."""
        playing = [g for g in self.games() if g.status == "playing"]
        return playing[-1].id if playing else None

    def export(self, game_id: str) -> dict[str, Any]:
        """A whole game as JSON: its setup and every event."""
        record = next((g for g in self.games() if g.id == game_id), None)
        if record is None:
            raise StoreError(f"no game {game_id!r}")
        return {"id": record.id, "game": record.game, "title": record.title, "status": record.status,
                "note": record.note,
                "created": record.created, "setup": self.setup(game_id),
                "events": [{"seq": e.seq, "at": e.at, "kind": e.kind, "data": e.data} for e in self.events(game_id)]}

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(self.games())


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
