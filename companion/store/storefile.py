"""The store's SQLite file: opened and checked, recovered when damaged, its commits copied in.

:class:`companion.store.store.GameStore` reads and writes the games; this is what it stands on, the
part a maintainer reads when a file was damaged, a disk filled up or a journal went missing:

* opening: ``PRAGMA integrity_check`` at every open; broken indexes rebuilt from the table
  (``REINDEX``); a file still damaged is moved aside (``games.db.corrupt-<time>``, kept as it was)
  and every row that can be read from its pages is recovered into a new file
  (:mod:`companion.store.recovery`, :mod:`companion.store.salvage`), each game that lost rows retired;
* checkpoints: every commit is copied from the ``-wal`` into the database file at once (a burst
  once), so the journal never holds the only copy of a game for long (:meth:`StoreFile._checkpoint`);
* SQLite's errors said as what they are: a full disk, a read-only directory, an I/O error, a
  file another program holds (:func:`unavailable`: the path and the fix, nothing moved), apart
  from a damaged file (``_CORRUPT_CODES``), which is recovered.

The watching of the file, its ``-wal`` and ``-shm`` under a running connection is
:mod:`companion.store.journal`'s.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.store.damage import Damage, GameLog, GameRecord, cut
from companion.errors import StoreCorruptError, StoreError, StoreUnavailableError
from companion.store.journal import WatchedFiles
from companion.store.records import HighWater

log = logging.getLogger("companion.store.store")  # one logger for the store, whichever half speaks

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
BUSY_MS = 10_000  # how long a write waits for another program holding the file


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


def column_text(value: Any) -> str:
    """A column shown to people: bytes that are not UTF-8 (a damaged row) with replacement marks."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else "" if value is None else str(value)


class StoreFile(WatchedFiles):
    """The file under :class:`companion.store.store.GameStore` (its base): opening, recovery, checkpoints."""

    path: Path
    _db: sqlite3.Connection
    _lock: threading.RLock
    notices: list[str]
    on_notice: Callable[[str], None] | None
    recovered_from: Path | None
    _copied: float
    _uncopied: bool
    marks: HighWater
    if TYPE_CHECKING:  # the store's own, which recovery uses to retire the games that lost rows
        def games(self) -> list[GameRecord]: ...
        def read_log(self, game_id: str) -> GameLog: ...
        def _retire(self, record: GameRecord, damage: Damage, offer: bool = True) -> str: ...

    # A commit is copied into the file at once, unless the last copy is younger than this (a burst of
    # commits is copied once, by the next one past it or by ``tick``). None: left to SQLite (the
    # benchmark's comparison, and tests that play a companion killed before its writes reached the file).
    CHECKPOINT_EVERY: float | None = 0.5

    def _notice(self, text: str) -> None:
        text = cut(text, 1000)  # a row's text in it is cut already; this bounds the rest
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
            with transaction(db):
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
        from companion.store.recovery import recover_into

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
                               f"the damaged file's index lists events up to {listed}", len(read.events), listed,
                               lost=True)
            if found is not None and record.status != "damaged":
                self._retire(record, found)
            elif record.id in recovery.orphans:
                mark = self.marks.get(record.id)
                self._notice(f"game {record.id}: its setup and title were lost with the damaged file; "
                             f"{recovery.orphans[record.id]} of its events could be read"
                             f"{f', of {mark.seq} acknowledged' if mark else ''}. It is listed as damaged and cannot be "
                             f"resumed; `fog-companion export {record.id}` gives what was read")
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

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


def _integrity(db: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA integrity_check`` finds (an empty list: the file is whole)."""
    rows = db.execute("PRAGMA integrity_check(20)").fetchall()
    found = [column_text(r[0]) for r in rows]
    return [] if found == ["ok"] else found or ["no answer"]


class transaction:
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
