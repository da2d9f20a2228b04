"""The club's league: every finished game's result by player name and game, in the club page's own store.

A result is kept once per table and game (the retained ``state`` of a finished game arrives again
on every reconnect and must not count twice): a row per player, won or not. The league is counted
from the rows (games played, wins, by player and game), and exported as CSV for the club's notice
board or a spreadsheet.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (table_id TEXT NOT NULL, game_id TEXT NOT NULL, game TEXT NOT NULL,
                                    title TEXT NOT NULL, player TEXT NOT NULL, won INTEGER NOT NULL,
                                    finished REAL NOT NULL, PRIMARY KEY (table_id, game_id, player));
"""


class League:
    """Results of the club's finished games (``club.db``)."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)

    def record(self, state: dict[str, Any]) -> bool:
        """A finished game's retained state: its players' results (False: already kept)."""
        if not state.get("over") or not state.get("game_id"):
            return False
        winners = set(state.get("winners") or ())
        rows = [(state["table"], state["game_id"], state.get("game", ""), state.get("title", ""), p["name"],
                 int(p["name"] in winners or bool(winners & set(p.get("colours") or ()))), time.time())
                for p in state.get("players") or () if isinstance(p, dict) and p.get("name")]
        with self._lock:
            before = self._db.total_changes
            self._db.executemany("INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            return self._db.total_changes > before

    def standings(self) -> list[dict[str, Any]]:
        """Each player in each game: games played and won, most wins first."""
        with self._lock:
            rows = self._db.execute("SELECT player, title, COUNT(*), SUM(won) FROM results GROUP BY player, game "
                                    "ORDER BY SUM(won) DESC, COUNT(*) DESC, player").fetchall()
        return [{"player": r[0], "game": r[1], "played": r[2], "wins": r[3]} for r in rows]

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["player", "game", "played", "wins"])
        for row in self.standings():
            writer.writerow([row["player"], row["game"], row["played"], row["wins"]])
        return out.getvalue()

    def close(self) -> None:
        with self._lock:
            self._db.close()
