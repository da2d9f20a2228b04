"""The game log: every event is written to SQLite before it is acknowledged.

A game is its setup state plus an append-only list of events. The current state is a replay of
the log's actions, so a power cut can lose nothing that was acknowledged: ``append`` returns
only after SQLite has committed with ``synchronous=FULL`` in WAL mode. A damaged database is
never silently reset: it is moved aside (``games.db.corrupt-<time>``) and the caller is told.
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

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,               -- playing | finished | abandoned
    setup TEXT NOT NULL                 -- the state after setup, JSON
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


class GameStore:
    """One SQLite file in the data directory holding every game. Thread-safe."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = self._open()

    # ------------------------------------------------------------------ opening
    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=10)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {check[0] if check else 'no answer'}")
            db.executescript(SCHEMA)
            version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if version is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(version[0]) > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer fog-companion (schema {version[0]})")
            return db
        except sqlite3.DatabaseError as exc:
            kept = self._set_aside()
            raise StoreCorruptError(
                f"the game database {self.path} is damaged ({exc}); it was moved to {kept} and a new one "
                "will be started on the next run. Finished games in it may be recoverable with sqlite3 '.recover'.",
                kept) from exc

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
    def create_game(self, setup: dict[str, Any], title: str = "", game: str = "fog") -> str:
        game_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        with self._lock:
            self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, 'playing', ?)",
                             (game_id, time.time(), game, title or game_id, json.dumps(setup)))
        return game_id

    def append(self, game_id: str, kind: str, data: dict[str, Any]) -> int:
        """Write one event durably and return its sequence number (only then is it acknowledged)."""
        payload = json.dumps(data, sort_keys=True)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?",
                                       (game_id,)).fetchone()
                seq = int(row[0]) + 1
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)", (game_id, seq, time.time(), kind, payload))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return seq

    def finish(self, game_id: str) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET status='finished' WHERE id=?", (game_id,))

    def abandon(self, game_id: str) -> None:
        """A new game was started before this one ended: keep its log, never resume it."""
        with self._lock:
            self._db.execute("UPDATE games SET status='abandoned' WHERE id=? AND status='playing'", (game_id,))

    # ------------------------------------------------------------------ reading
    def setup(self, game_id: str) -> dict[str, Any]:
        with self._lock:
            row = self._db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id!r}")
        return json.loads(row[0])

    def events(self, game_id: str) -> list[LoggedEvent]:
        with self._lock:
            rows = self._db.execute("SELECT seq, at, kind, data FROM events WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [LoggedEvent(int(s), float(a), str(k), json.loads(d)) for s, a, k, d in rows]

    def games(self) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.game, g.title, g.status, COUNT(e.seq) FROM games g "
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
                "created": record.created, "setup": self.setup(game_id),
                "events": [{"seq": e.seq, "at": e.at, "kind": e.kind, "data": e.data} for e in self.events(game_id)]}

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(self.games())
