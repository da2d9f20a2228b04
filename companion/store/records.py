"""How far every game got, kept apart from the database: its high-water mark.

SQLite can tell a damaged page (``PRAGMA integrity_check``), but not a page that is *gone*:
a truncated file, the last leaf of a table zeroed, a deleted journal or a file swapped for an
older copy all read as a whole, shorter log, and a game came back 31 events behind without a
word. So, beside ``games.db``, ``games.db.marks`` holds one line per acknowledged event (and
per new game): the game, its last acknowledged sequence number, how many events it had, and a
running checksum of its log. Each line is appended and fsynced *after* SQLite committed the
event and *before* the event is acknowledged, so the mark never runs ahead of a commit and a
commit never goes unmarked once the players were told it was logged.

A line carries its own CRC: a line torn by a power cut is skipped (it marked nothing that was
acknowledged). The last line of each game wins; the file is rewritten with one line per game
when it grows, by a write to a new file, an fsync and a rename, so a cut never leaves it half.
"""

from __future__ import annotations

import logging
import math
import os
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.store.damage import Damage, LoggedEvent, decode_json, good_prefix

log = logging.getLogger("companion.store.store")

VERSION = "m1"
CHANGED = "its checksum is not the one written when it was acknowledged: changed since, or the file replaced"
COMPACT_AFTER = 4096  # lines beyond one per game before the file is rewritten at the next open


@dataclass(frozen=True)
class Mark:
    """One game's high-water mark: the last acknowledged event, how many there were, their checksum."""

    game_id: str
    seq: int
    count: int
    checksum: int


def chained(checksum: int, seq: int, kind: str, data: str) -> int:
    """The running checksum after one more event (its number, kind and JSON text as stored)."""
    return zlib.crc32(f"{seq}\x1f{kind}\x1f{data}\x1e".encode("utf-8", "surrogatepass"), checksum)


def checksum_of(rows: Iterable[tuple[int, str, str]]) -> int:
    """The running checksum of (seq, kind, data) rows, in order."""
    total = 0
    for seq, kind, data in rows:
        total = chained(total, seq, kind, data)
    return total


def _line(mark: Mark) -> bytes:
    body = f"{VERSION} {mark.game_id} {mark.seq} {mark.count} {mark.checksum:08x}"
    return f"{body} {zlib.crc32(body.encode()):08x}\n".encode()


def _parse(raw: bytes) -> Mark | None:
    try:
        text = raw.decode()
        body, _, crc = text.rstrip("\n").rpartition(" ")
        if not raw.endswith(b"\n") or int(crc, 16) != zlib.crc32(body.encode()):
            return None
        version, game_id, seq, count, checksum = body.split(" ")
        return Mark(game_id, int(seq), int(count), int(checksum, 16)) if version == VERSION else None
    except ValueError:
        return None


class HighWater:
    """``<database>.marks``: read at open, appended (fsynced) with every acknowledged event.

    ``torn`` counts the lines that did not read (a cut in the middle of the last write, or damage
    to the file itself); ``unreadable`` says why the file could not be read at all (then nothing
    is known and nothing is claimed lost).
    """

    def __init__(self, database: Path, tidy: bool = True) -> None:
        self.path = database.with_name(database.name + ".marks")
        self.marks: dict[str, Mark] = {}
        self.torn = 0
        self.unreadable: str | None = None
        lines = 0
        try:
            raw = self.path.read_bytes() if self.path.exists() else b""
        except OSError as exc:
            raw, self.unreadable = b"", f"{self.path.name} cannot be read ({exc.strerror or exc})"
        for piece in raw.splitlines(keepends=True):
            lines += 1
            mark = _parse(piece)
            if mark is None:
                self.torn += 1
            else:
                self.marks[mark.game_id] = mark
        if tidy and (lines > len(self.marks) + COMPACT_AFTER or self.torn):
            self._rewrite(raw)

    def get(self, game_id: str) -> Mark | None:
        return self.marks.get(game_id)

    def history(self, game_id: str) -> dict[int, int]:
        """Every checksum the file still holds for ``game_id`` (seq -> checksum after it): read again only
        when a log does not match its mark, to name the first row that changed."""
        try:
            raw = self.path.read_bytes()
        except OSError:
            return {}
        found: dict[int, int] = {}
        for piece in raw.splitlines(keepends=True):
            if game_id.encode() in piece and (mark := _parse(piece)) is not None and mark.game_id == game_id:
                found[mark.seq] = mark.checksum
        return found

    def write(self, *marks: Mark) -> None:
        """Append marks and fsync them: only then may the events they mark be acknowledged.

        A game id no line can hold (a space, a control character: a stand-in for a game whose row was
        recovered damaged) gets no mark; its log is what it is."""
        marks = tuple(m for m in marks if m.game_id.isprintable() and " " not in m.game_id and m.game_id)
        if not marks:
            return
        new = not self.path.exists()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, b"".join(_line(m) for m in marks))
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:  # the file's name must outlive a power cut as well as its lines
            _fsync_dir(self.path.parent)
        self.marks.update((m.game_id, m) for m in marks)

    def _rewrite(self, raw: bytes = b"") -> None:
        """Into a new file, fsynced and renamed over the old one (never half written): every line of the
        games written in the last ``COMPACT_AFTER`` lines (their checksums name a changed row), the last
        line of each older game, no torn line."""
        recent = [m for piece in raw.splitlines(keepends=True)[-COMPACT_AFTER:] if (m := _parse(piece)) is not None]
        keep = {m.game_id for m in recent}
        lines = [_line(m) for m in self.marks.values() if m.game_id not in keep]
        lines += [_line(m) for m in recent]
        fresh = self.path.with_name(self.path.name + ".new")
        try:
            with open(fresh, "wb") as out:
                out.write(b"".join(lines))
                out.flush()
                os.fsync(out.fileno())
            os.replace(fresh, self.path)
            _fsync_dir(self.path.parent)
        except OSError as exc:  # the appended file still holds every mark: rewriting is only tidying
            log.warning("rewriting %s failed: %s", self.path, exc)


def matches(rows: list[tuple[Any, Any, Any, Any]], mark: Mark) -> bool:
    """Are ``rows`` (seq, at, kind, data; in order) exactly the events acknowledged under ``mark``?

    Then they read as they did when written and need no parsing (the start checks a large log in a
    tenth of the time): numbered 1..n without a gap, each time a finite number, and the checksum
    of numbers, kinds and texts the mark's.
    """
    if len(rows) != mark.seq:
        return False
    for n, (seq, at, kind, data) in enumerate(rows, 1):
        if seq != n or type(seq) is not int or type(at) is not float or not math.isfinite(at) \
                or type(kind) is not str or type(data) is not str:
            return False
    # a CRC chained row by row is the CRC of the rows' texts one after the other: computed in one call
    return zlib.crc32("".join([f"{seq}\x1f{kind}\x1f{data}\x1e" for seq, _at, kind, data in rows])
                      .encode("utf-8", "surrogatepass")) == mark.checksum


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def judged(game_id: str, rows: list[tuple[Any, Any, Any, Any]], raw_setup: Any, mark: Mark | None,
           history: Callable[[str], dict[int, int]] | None = None) -> tuple[list[LoggedEvent], Damage | None]:
    """A game's good prefix and its first damage, the high-water mark included.

    ``rows`` are (seq, at, kind, data) as stored. The first row that does not read ends the good
    prefix (:func:`companion.store.damage.good_prefix`); a log that reads whole but ends before its mark
    lost its last events with the file; one as long as its mark whose checksum differs was changed
    after it was acknowledged (or the file swapped for another copy of it): ``history`` (the marks'
    checksum after each event) then names the first row that changed, and the good prefix ends before it.
    """
    events, damage = good_prefix(game_id, rows)
    setup, why = decode_json(raw_setup, "setup")
    ack = mark.seq if mark is not None else None
    if setup is None:
        return events, Damage(game_id, "setup", None, str(why), 0, ack)
    if mark is None:
        return events, damage
    if damage is not None:
        return events, replace(damage, acknowledged=ack)
    if len(events) < mark.seq:
        return events, Damage(game_id, f"event {len(events) + 1}", len(events) + 1, "",
                              len(events), ack, lost=True)
    by_seq = {r[0]: r for r in rows if isinstance(r[0], int)}
    running = [0]
    for e in events[:mark.seq]:
        running.append(chained(running[-1], e.seq, by_seq[e.seq][2], by_seq[e.seq][3]))
    if running[mark.seq] == mark.checksum:
        return events, None
    known = history(game_id) if history is not None else {}
    changed = next((seq for seq in sorted(known) if 0 < seq <= mark.seq and running[seq] != known[seq]), None)
    if changed is None:
        return events, Damage(game_id, "checksum", None, "a row was changed after it was acknowledged, or the file "
                              "was replaced by another copy of it", len(events), ack)
    since = max((seq for seq in known if seq < changed and running[seq] == known[seq]), default=0)
    where = f"event {changed}" if since == changed - 1 else f"one of events {since + 1}-{changed}"
    return events[:since], Damage(game_id, where, changed if since == changed - 1 else None,
                                  CHANGED, since, ack)
