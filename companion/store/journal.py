"""The files under a running connection: the database, its ``-wal`` and ``-shm``.

Something may delete the journal (a clean-up script, a user tidying the data directory) while
the companion runs. SQLite keeps writing into the deleted file, which nobody can open again, so
a kill or a power cut then loses every commit still in it: formerly a whole evening, without a
word. The connection still sees everything, so on finding a file gone or replaced it is saved
into a file at the database's path (a checkpoint, or a whole backup if the database file itself
went), a fresh connection starts new files, and the finding is a loud notice.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path


def identity(path: Path) -> tuple[int, int] | None:
    """Which file (device, inode) stands at ``path`` now, None when none does."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class WatchedFiles:
    """Mixed into GameStore: remembers the files its connection opened and checks they are still there."""

    path: Path
    _db: sqlite3.Connection
    _lock: threading.RLock
    _files: dict[str, tuple[int, int] | None]
    _connect: Callable[[], sqlite3.Connection]  # GameStore's: a connection set up as the store wants it
    _notice: Callable[[str], None]  # GameStore's: log it, list it, tell the pages

    def _watch(self) -> None:
        """Remember which files (inodes) the connection uses, to see one deleted or replaced later."""
        self._files = {s: identity(Path(str(self.path) + s)) for s in ("", "-wal", "-shm")}

    def check_files(self) -> str | None:
        """Are the database, its -wal and -shm still the files this connection writes? Save what it holds if not.

        A journal deleted under a running connection keeps receiving writes in a file nobody can
        open again: a kill then loses them. The connection still sees everything, so it is copied
        into the database file (a checkpoint, or a whole backup when the database file itself is
        gone) and a fresh connection starts new files. Returns the notice, or None when all is well.
        """
        with self._lock:
            gone = [s for s, ident in self._files.items()
                    if ident is not None and identity(Path(str(self.path) + s)) != ident]
            if not gone:
                return None
            names = ", ".join(self.path.name + s for s in gone)
            try:
                saved = self._save_whole() if "" in gone else self._checkpoint_and_reopen()
                text = (f"{names} vanished or was replaced while the companion ran (deleted by another program?): "
                        f"{saved}. Play goes on; nothing was lost")
            except (sqlite3.Error, OSError) as exc:
                self._watch()  # said once, not on every check
                text = (f"{names} vanished or was replaced while the companion ran, and what it held could not "
                        f"be saved ({exc}): do not stop the companion; free the disk or fix the directory, then "
                        "check with `fog-companion doctor`")
        self._notice(text)  # outside the lock: telling the pages takes the session's lock
        return text

    def _checkpoint_and_reopen(self) -> str:
        busy, frames, done = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy or done < frames:
            raise sqlite3.OperationalError(f"the checkpoint copied {done} of {frames} pages")
        self._db.close()
        self._db = self._connect()
        self._watch()
        return f"everything it held was copied into {self.path.name} and a new journal started"

    def _save_whole(self) -> str:
        target = self.path if not self.path.exists() else self.path.with_name(
            f"{self.path.name}.saved-{time.strftime('%Y%m%d-%H%M%S')}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        copy = sqlite3.connect(str(partial))
        try:
            self._db.backup(copy)
        finally:
            copy.close()
        os.replace(partial, target)
        if target != self.path:
            self._watch()
            return (f"another file now stands at {self.path.name}, so the games this connection holds were saved "
                    f"to {target.name}; stop the companion and put the right file back")
        self._db.close()
        self._db = self._connect()
        self._watch()
        return f"every game the connection held was saved back to {self.path.name}"
