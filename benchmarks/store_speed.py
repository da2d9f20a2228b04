"""Benchmark: what the game log's safety costs, per event and at every start.

Prints the time of one ``append`` (p50/p90/max in milliseconds) and the files' sizes when the
commits are copied from the -wal into the file only when SQLite decides (every 1,000 pages),
after every commit, and as the companion does it (at once, unless the last copy is younger than
``GameStore.CHECKPOINT_EVERY``: a burst is copied once): first in a burst of events, then at a
table's pace (one event a second). Then how long opening a log of many events takes
(``PRAGMA integrity_check`` included) and how long reading one game takes (a full table scan and
the index compared with it).

    python benchmarks/store_speed.py [--events 300] [--paced 10] [--big 20000] [--dir DIR]

Run it on the disk the companion writes to (``--dir`` on the SD card of the Pi): fsync times are
the whole story, and a tmpfs has none.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.store.store import GameStore  # noqa: E402

SETUP = {"seed": 4, "players": [{"name": n, "colour": c} for n, c in (("Ann", "red"), ("Bo", "blue"), ("Cy", "green"))],
         "pieces": {f"islander-{i}": f"H{i}" for i in range(32)}}
MODES = {"by SQLite": None, "every commit": 0.0, "the companion's": GameStore.CHECKPOINT_EVERY}


def ms(values: list[float]) -> str:
    values = sorted(values)
    return (f"p50 {statistics.median(values) * 1000:6.2f} ms  p90 {values[int(len(values) * 0.9)] * 1000:6.2f} ms  "
            f"max {values[-1] * 1000:6.2f} ms")


def appends(folder: Path, mode: str, events: int, pause: float) -> None:
    GameStore.CHECKPOINT_EVERY = MODES[mode]
    store = GameStore(folder / f"append-{len(list(folder.iterdir()))}.db")
    game = store.create_game(SETUP, title="bench")
    took = []
    for n in range(events):
        time.sleep(pause)
        start = time.perf_counter()
        store.append(game, "action", {"action": f"move islander-{n % 32} H{n % 40}>H{(n + 1) % 40}"})
        took.append(time.perf_counter() - start)
    sizes = {s or "db": Path(str(store.path) + s).stat().st_size // 1024 for s in ("", "-wal")}
    store.close()
    print(f"  copied {mode:15}: {ms(took)}   files: db {sizes['db']} KiB, wal {sizes['-wal']} KiB")


def big_log(folder: Path, events: int) -> None:
    GameStore.CHECKPOINT_EVERY = MODES["the companion's"]
    path = folder / "big.db"
    store = GameStore(path)
    games = [store.create_game(SETUP, title=f"game {g}") for g in range(20)]
    with store._lock:
        store._db.execute("BEGIN")
        for n in range(events):
            store._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                              (games[n % 20], n // 20 + 1, time.time(), "action", f'{{"action": "move {n}"}}'))
        store._db.execute("COMMIT")
    store.close()
    opens, reads = [], []
    for _ in range(5):
        start = time.perf_counter()
        store = GameStore(path)
        opens.append(time.perf_counter() - start)
        start = time.perf_counter()
        store.read_log(games[0])
        reads.append(time.perf_counter() - start)
        store.close()
    print(f"open a log of {events} events in 20 games ({path.stat().st_size // 1024} KiB), integrity check "
          f"included: {ms(opens)}")
    print(f"read one game of {events // 20} events (full table scan, index compared): {ms(reads)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=300, help="events in the burst")
    parser.add_argument("--paced", type=int, default=10, help="events one second apart")
    parser.add_argument("--big", type=int, default=20000)
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a folder in the current one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir or Path.cwd()) as folder:
        print(f"append, {args.events} events in a burst:")
        for mode in MODES:
            appends(Path(folder), mode, args.events, 0.0)
        print(f"append, {args.paced} events one second apart:")
        for mode in MODES:
            appends(Path(folder), mode, args.paced, 1.0)
        big_log(Path(folder), args.big)


if __name__ == "__main__":
    main()
