"""The messages a table still owes the broker: bounded, kept on disk, sent in order.

The table never waits for the broker. Each message is appended here (a few hundred bytes in one
SQLite transaction, on the event bus's own thread) and the publisher sends the oldest when the
broker is there, removing it only once the broker acknowledged it (QoS 1). A broker down for an
evening, or a companion restarted meanwhile, loses nothing: the rows wait in the file. A retained
message (a table's ``state``) replaces the one of its topic still waiting: only the newest state
matters, so a long outage costs one row per topic, not one per move.

Bounded: past ``limit`` waiting events the oldest are dropped (and counted, and said on the panel),
so a broker gone for days can never fill the Pi's card. An event is queued once: each game's last
queued log position is kept with the rows, so an event seen again (a resumed game, a restart) is not
queued as a new one.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL,
                                   payload BLOB NOT NULL, retain INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS queued (game TEXT PRIMARY KEY, seq INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class Message:
    id: int
    topic: str
    payload: bytes
    retain: bool


class Outbox:
    """A persisted FIFO of MQTT messages (``club-outbox.db`` in the data directory)."""

    def __init__(self, path: Path, limit: int = 5000) -> None:
        self.path, self.limit = path, limit
        self.dropped = 0  # events dropped since start because the outbox was full
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # a power cut may lose the last rows, never the file
        self._db.executescript(SCHEMA)

    def put(self, topic: str, payload: bytes, retain: bool = False, game: str | None = None,
            seq: int | None = None) -> bool:
        """Queue a message; an event (``game``, ``seq``) at or before the last one queued for its game
        is not queued again (False)."""
        with self._ready:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if game is not None and seq is not None:
                    row = db.execute("SELECT seq FROM queued WHERE game = ?", (game,)).fetchone()
                    if row is not None and row[0] >= seq:
                        db.execute("ROLLBACK")
                        return False
                    db.execute("INSERT OR REPLACE INTO queued (game, seq) VALUES (?, ?)", (game, seq))
                if retain:  # only the newest retained message of a topic is worth sending
                    db.execute("DELETE FROM outbox WHERE topic = ? AND retain = 1 AND id > ?",
                               (topic, self._sending))
                db.execute("INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, ?)",
                           (topic, payload, int(retain)))
                over = db.execute("SELECT COUNT(*) FROM outbox WHERE retain = 0").fetchone()[0] - self.limit
                if over > 0:
                    db.execute("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE retain = 0 AND id > ? "
                               "ORDER BY id LIMIT ?)", (self._sending, over))
                    self.dropped += over
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            self._ready.notify_all()
            return True

    _sending = 0  # the row being sent: never replaced or dropped under the publisher

    def head(self, timeout: float) -> Message | None:
        """The oldest waiting message (waiting up to ``timeout`` seconds for one)."""
        with self._ready:
            row = self._db.execute("SELECT id, topic, payload, retain FROM outbox ORDER BY id LIMIT 1").fetchone()
            if row is None:
                self._ready.wait(timeout)
                row = self._db.execute("SELECT id, topic, payload, retain FROM outbox ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return None
            self._sending = row[0]
            return Message(row[0], row[1], bytes(row[2]), bool(row[3]))

    def done(self, message: Message) -> None:
        """The broker acknowledged ``message``: it is no longer owed."""
        with self._ready:
            self._db.execute("DELETE FROM outbox WHERE id = ?", (message.id,))
            self._sending = 0

    def waiting(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def wake(self) -> None:
        with self._ready:
            self._ready.notify_all()

    def close(self) -> None:
        with self._lock:
            self._db.close()
