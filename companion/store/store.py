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
  (:mod:`companion.store.salvage`); the game being played comes back paused, to be checked first.
* Events are read with a full table scan, never only through an index, and a game is trusted
  only as far as its rows read without a gap (:mod:`companion.store.damage`): a game whose next row is
  unreadable is marked ``damaged``, and its good prefix is offered as a paused copy.
* The file, its ``-wal`` and ``-shm`` are checked after every write and by the main loop: one
  deleted or replaced under the running companion is a loud notice, and what the connection
  still holds is saved into a file at the database's path.

A full disk, an I/O error, a read-only or unreachable directory are not damage: they are
reported as what they are (:class:`StoreUnavailableError`, with the path and the fix) and nothing
is moved, because the file is usually healthy and the game in it is the players' evening.

Here: the games and their events, written and read. The file underneath (opening and its
checks, recovery, checkpoints, SQLite's errors in words) is :mod:`companion.store.storefile`; the
store's errors are in :mod:`companion.errors` and importable from here as before.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.store.damage import Damage, GameLog, GameRecord, LoggedEvent, cut, decode_json, readable_row, text_value
from companion.errors import (DamagedGameError, NoSuchGameError, StoreCorruptError, StoreError,
                              StoreUnavailableError)
from companion.store.records import HighWater, Mark, chained, checksum_of, judged, matches
from companion.store.storefile import StoreFile, column_text, log, transaction, unavailable

__all__ = ["Damage", "DamagedGameError", "GameLog", "GameRecord", "GameStore", "LoggedEvent", "NoSuchGameError",
           "StoreCorruptError", "StoreError", "StoreUnavailableError"]

EVENTS_INDEX = "sqlite_autoindex_events_1"  # the primary key's index
STATUSES = ("playing", "paused", "finished", "abandoned", "damaged")


class _Undecodable(Exception):
    """A row that is not UTF-8 met by the fast scan: read again with the decoder that keeps bytes."""


class GameStore(StoreFile):
    """One SQLite file in the data directory holding every game. Thread-safe.

    ``notices`` lists, in words, whatever opening or watching the file found (an index rebuilt,
    a file recovered, a damaged game, a vanished journal); ``on_notice`` is called with each new
    one (the companion publishes it to the pages).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self.notices: list[str] = []
        self.on_notice: Callable[[str], None] | None = None
        self.recovered_from: Path | None = None  # the moved-aside file this one was recovered from
        self._files: dict[str, tuple[int, int] | None] = {}
        self._copied, self._uncopied = 0.0, False  # when commits were last copied into the file; any since?
        self.marks = HighWater(self.path)  # how far each game got, kept apart from the file
        self._db = self._open()
        if self.marks.unreadable or self.marks.torn > 1:  # one torn line is a cut in its last write: nothing lost
            self._notice(self.marks.unreadable or f"{self.marks.torn} line(s) of {self.marks.path.name} did not "
                         "read (the file was damaged): the games they marked are checked against the lines that did")
        self.check_games()

    # ------------------------------------------------------------------ writing
    def _write(self, doing: str, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run statements in one transaction; a full disk or I/O error is a clear StoreUnavailableError."""
        with self._lock:
            try:
                with transaction(self._db):
                    for sql, params in statements:
                        self._db.execute(sql, params)
                self._checkpoint()
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, doing) from exc
        self.check_files()

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
        self._mark(Mark(game_id, 0, 0, 0))  # a game with no event yet is known too: losing it is said
        return game_id

    def _mark(self, mark: Mark) -> None:
        """Write the high-water mark; the row is already committed, so a failure is said, never raised
        (raising would make the caller write the event again)."""
        try:
            self.marks.write(mark)
        except OSError as exc:
            self._notice(f"{self.marks.path.name} could not be written ({exc.strerror or exc}): game "
                         f"{mark.game_id}'s event {mark.seq} is logged, but a later loss of it could not be told")

    def append(self, game_id: str, kind: str, data: dict[str, Any]) -> int:
        """Write one event durably and return its sequence number (only then is it acknowledged).

        The next number is counted from the table itself (``NOT INDEXED``): an index that lost a
        row can never make a new event take the number of one already logged.
        """
        payload = json.dumps(data, sort_keys=True)
        with self._lock:
            try:
                with transaction(self._db):
                    row = self._db.execute("SELECT COALESCE(MAX(CASE WHEN typeof(seq)='integer' THEN seq END), 0) "
                                           "FROM events NOT INDEXED WHERE game_id=?", (game_id,)).fetchone()
                    seq = int(row[0]) + 1
                    self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                     (game_id, seq, time.time(), kind, payload))
                    last = self.marks.get(game_id)
                    if last is not None and last.seq == last.count == seq - 1:
                        checksum = chained(last.checksum, seq, kind, payload)
                    else:  # no mark yet, or the log ran ahead of it (a cut between a commit and its mark)
                        checksum = checksum_of(self._db.execute(
                            "SELECT seq, kind, data FROM events NOT INDEXED WHERE game_id=? AND typeof(seq)='integer' "
                            "AND typeof(kind)='text' AND typeof(data)='text' ORDER BY seq", (game_id,)))
                self._checkpoint()
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, "written") from exc
            self._mark(Mark(game_id, seq, seq, checksum))  # committed and marked: now it may be acknowledged
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
        self._write("written", ("UPDATE games SET status=?, note=? WHERE id=?", (status, cut(note), game_id)))

    def finish(self, game_id: str) -> None:
        self.set_status(game_id, "finished")

    def abandon(self, game_id: str) -> None:
        """A new game was started before this one ended: keep its log, never resume it."""
        self._write("written", ("UPDATE games SET status='abandoned' WHERE id=? AND status='playing'", (game_id,)))

    def mark_damaged(self, game_id: str, note: str) -> None:
        """A logged event no longer replays: keep the game (listed, exportable), never resume it."""
        self.set_status(game_id, "damaged", note)

    def _retire(self, record: GameRecord, damage: Damage, offer: bool = True) -> str:
        """A game that does not read or replay past ``damage``: marked damaged, and its good prefix
        copied into a paused game the players may resume once the table matches it. Said; the words returned."""
        self.mark_damaged(record.id, str(damage))
        text = f"{damage}. It is marked damaged and is not resumed" + (
            "; it replays up to there on the Games page" if damage.where != "setup" else "")
        log_ = self.read_log(record.id)
        if offer and log_.setup is not None:
            copy = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
            title = f"{cut(record.title, 80)} (up to event {damage.good})"
            kept = log_.events[:damage.good]
            rows = [(e.seq, e.kind, json.dumps(e.data, sort_keys=True)) for e in kept]
            self._write("written", ("INSERT INTO games (id, created, game, title, status, setup, note) "
                                    "VALUES (?, ?, ?, ?, 'paused', ?, ?)",
                                    (copy, time.time(), record.game, title, json.dumps(log_.setup),
                                     f"the readable start of game {record.id}")),
                        *[("INSERT INTO events VALUES (?, ?, ?, ?, ?)", (copy, seq, e.at, kind, data))
                          for e, (seq, kind, data) in zip(kept, rows)])
            self._mark(Mark(copy, len(rows), len(rows), checksum_of(rows)))
            text += (f". Its first {damage.good} event(s) were copied to the paused game {copy} (\"{title}\"): "
                     "resume that on the Games page once the table shows its position")
        text += f". Every row is kept; `fog-companion export {record.id}` gives them all"
        self._notice(text)
        return text

    def retire(self, game_id: str, exc: Exception) -> str:
        """A game found, on resuming, not to read (DamagedGameError) or not to replay (an error with
        ``good``, the events that replay): retired as at start, its good prefix copied. The words returned."""
        record = self.record(game_id)
        damage = getattr(exc, "damage", None)
        if not isinstance(damage, Damage):
            good = getattr(exc, "good", None)
            mark = self.marks.get(game_id)
            damage = Damage(game_id, "setup", None, str(exc), 0) if not isinstance(good, int) else Damage(
                game_id, f"event {good + 1}", good + 1, str(exc), good, mark.seq if mark else None)  # said cut
        return self._retire(record, damage)

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
        events, damage = judged(game_id, rows, raw_setup, self.marks.get(game_id), self.marks.history)
        return GameLog(record, decode_json(raw_setup, "setup")[0], events, rows, damage, raw_setup)

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

    def check_games(self) -> None:
        """At every start: each game against its rows and its high-water mark, each finding said once.

        A status no fog-companion writes is made ``paused`` (never resumed on its own); a game that
        does not read whole, or came back shorter than acknowledged, is retired (:meth:`_retire`);
        a game the marks know but the file lost is listed as a damaged stand-in. Games already
        ``damaged`` were said when they became so.
        """
        records = {r.id: r for r in self.games()}
        for record in records.values():
            if record.status not in STATUSES:
                note = f"its status read {cut(record.status, 40)!r}, which no fog-companion writes"
                self._write("written", ("UPDATE games SET status='paused', note=? WHERE id=?", (note, record.id)))
                self._notice(f"game {record.id}: {note}; it is kept as paused and not resumed on its own: check the "
                             "table, then resume it on the Games page")
        try:
            found, unmarked = self._judge_all(records, decode=False)
        except _Undecodable:
            found, unmarked = self._judge_all(records, decode=True)
        for game_id, damage in found:
            self._retire(self.record(game_id), damage)
        known = {r.id for r in self.games()}  # the copies just made included
        for mark in [m for game_id, m in self.marks.marks.items() if game_id not in known]:
            self._write("written", ("INSERT INTO games (id, created, game, title, status, setup, note) "
                                    "VALUES (?, 0, '', ?, 'damaged', '', ?)",
                                    (mark.game_id, f"{mark.game_id} (lost with the file)",
                                     f"missing from {self.path.name}; {mark.seq} event(s) had been acknowledged")))
            self._notice(f"game {mark.game_id} is missing from {self.path.name}: its setup and {mark.seq} acknowledged "
                         "event(s) were lost with the damaged file (or the file was replaced by an older copy). It is "
                         "listed as damaged; nothing of it can be replayed")
        if unmarked:
            try:
                self.marks.write(*unmarked)
            except OSError as exc:
                log.warning("writing %s failed: %s", self.marks.path, exc)

    def _judge_all(self, records: dict[str, GameRecord], decode: bool) -> tuple[list[tuple[str, Damage]], list[Mark]]:
        """Every game's first damage (if any), and the marks of games read whole that have none (or a lower one)."""
        found: list[tuple[str, Damage]] = []
        unmarked: list[Mark] = []
        for game_id, rows, raw_setup in self._every_log(records, decode):
            mark = self.marks.get(game_id)
            if mark is not None and matches(rows, mark) and decode_json(raw_setup, "setup")[0] is not None:
                continue  # exactly the rows acknowledged: they read as they did when written
            events, damage = judged(game_id, rows, raw_setup, mark, self.marks.history)
            if damage is not None:
                found.append((game_id, damage))
            elif mark is None or mark.seq < len(events):  # no mark (a log from before them, the file lost) or
                # the log ran ahead of it (a cut between a commit and its mark): marked as it reads now
                kept = [(seq, kind, data) for seq, _at, kind, data in rows[:len(events)]]  # as stored
                unmarked.append(Mark(game_id, len(kept), len(kept), checksum_of(kept)))
        return found, unmarked

    def _every_log(self, records: dict[str, GameRecord], decode: bool) -> Iterator[tuple[str, list[Any], Any]]:
        """Each game not yet ``damaged``: its rows (seq, at, kind, data) and raw setup, from one scan of the
        table in game order (SQLite sorts it; one game's rows are in memory at a time), games without rows too.
        The caller must not use the connection meanwhile (the scan decodes text its own way)."""
        wanted = {game_id for game_id, r in records.items() if r.status != "damaged"}
        seen: set[str] = set()
        with self._lock:
            # Python's own decoding is fast; a row that is not UTF-8 makes the scan start again with a decoder
            # that keeps its bytes (the caller's rows so far are thrown away and read again)
            self._db.text_factory = text_value if decode else str
            try:
                cursor = self._db.execute("SELECT game_id, seq, at, kind, data FROM events NOT INDEXED "
                                          "ORDER BY game_id, seq")
                for game_id, group in itertools.groupby(cursor, key=lambda row: row[0]):
                    name = column_text(game_id)
                    if name in wanted:
                        seen.add(name)
                        rows = [tuple(row[1:]) for row in group]
                        rows.sort(key=lambda r: (0, r[0]) if isinstance(r[0], int) else (1, 0))
                        yield name, rows, self._setup_of(game_id)
                for name in sorted(wanted - seen):
                    yield name, [], self._setup_of(name)
            except sqlite3.OperationalError as exc:
                if decode or "decode" not in str(exc):
                    raise unavailable(self.path, exc, "read") from exc
                raise _Undecodable() from exc
            except sqlite3.Error as exc:
                raise unavailable(self.path, exc, "read") from exc
            finally:
                self._db.text_factory = str

    def _setup_of(self, game_id: Any) -> Any:  # by the games' key (checked whole by the integrity check)
        row = self._db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else row[0]

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
    return GameRecord(column_text(game_id), float(created) if isinstance(created, (int, float)) else 0.0,
                      cut(column_text(game), 80), cut(column_text(title), 200), cut(column_text(status), 40),
                      int(events), cut(column_text(note)))
