"""A damaged game database's readable rows, put into a new one.

:func:`recover_into` takes what :mod:`companion.store.salvage` read from the pages of the moved-aside
file and writes it into the fresh database, row by row: a row the new file refuses is counted,
never a reason to stop. Two rules keep a recovered game from misleading anyone:

* a game that was being played comes back *paused*: the last pages of its log may be the ones
  that were lost, and nothing in the file can prove otherwise, so the players resume it from the
  Games page, where the camera checks the table against it first;
* events whose game row was lost get a stand-in game (marked damaged, no setup) so that they
  stay listed and exportable instead of being dropped.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.store.salvage import salvage

log = logging.getLogger(__name__)
GAME_COLUMNS = "(id, created, game, title, status, setup, note)"


@dataclass
class Recovery:
    summary: str  # in words, for the notice
    games: int = 0
    events: int = 0
    playing: list[str] = field(default_factory=list)  # games that were being played (now paused)
    listed: dict[str, int] = field(default_factory=dict)  # game id -> its last event by the old file's index
    orphans: dict[str, int] = field(default_factory=dict)  # games whose row was lost -> how many of their events read


def recover_into(db: sqlite3.Connection, kept: Path) -> Recovery:
    """Copy every game and event row readable from ``kept`` (and its -wal) into ``db``."""
    try:
        found = salvage(kept)
    except OSError as exc:
        return Recovery(f"the moved-aside file could not be read ({exc.strerror or exc}): nothing was recovered")
    except Exception as exc:  # noqa: BLE001 - a reader that trips on some page must never stop the start
        log.exception("recovering rows from %s failed", kept)
        return Recovery(f"reading its pages failed ({type(exc).__name__}: {exc}): nothing was recovered, the kept "
                        "file holds everything")
    result = Recovery("", listed=found.listed)
    refused = 0
    db.execute("BEGIN IMMEDIATE")
    try:
        for game_id, values in found.games.items():
            row = _game_row(values, kept)
            if row[4] == "playing":
                result.playing.append(game_id)
            if _insert(db, f"INSERT INTO games {GAME_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?)", row):
                result.games += 1
            else:
                refused += 1
        orphans: dict[str, list[Any]] = {}
        for (game_id, _seq), values in found.events.items():
            if game_id not in found.games:
                orphans.setdefault(game_id, []).append(values)
        for game_id, rows in orphans.items():
            result.orphans[game_id] = len(rows)
            times = [r[2] for r in rows if isinstance(r[2], (int, float))]
            _insert(db, f"INSERT INTO games {GAME_COLUMNS} VALUES (?, ?, '', ?, 'damaged', '', ?)",
                    (game_id, min(times, default=0.0), f"{game_id} (its game row was lost)",
                     f"its game row (setup, title) could not be read from {kept.name}; {len(rows)} of its events "
                     "could"))
        for values in found.events.values():
            if _insert(db, "INSERT INTO events VALUES (?, ?, ?, ?, ?)", tuple(values)):
                result.events += 1
            else:
                refused += 1
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    lost = found.unreadable_cells + found.conflicts + refused
    result.summary = (f"{result.games} game(s) and {result.events} event(s) were recovered from it row by row into "
                      f"a new file" + (f" ({lost} damaged row(s) could not be, and stay only in the kept file)"
                                       if lost else ""))
    if result.playing:
        result.summary += (f"; the game being played ({', '.join(result.playing)}) is paused: check the table, "
                           "then resume it on the Games page")
    return result


def _game_row(values: list[Any], kept: Path) -> tuple[Any, ...]:
    """A salvaged game row as the new file stores it: six-value rows (schema 1) get a note, playing is paused."""
    game_id, created, game, title, status, setup = values[:6]
    note = values[6] if len(values) > 6 and values[6] is not None else ""
    if status == "playing":
        status, note = "paused", f"recovered while playing from {kept.name}: check the table before resuming it"
    return (game_id, created if created is not None else 0.0, game, title, status,
            setup if setup is not None else "", note)


def _insert(db: sqlite3.Connection, sql: str, row: tuple[Any, ...]) -> bool:
    try:
        db.execute(sql, row)
    except sqlite3.Error:  # a NULL where the schema wants a value, a key twice: left in the kept file
        return False
    return True
