"""Benchmark: a club night's load on one broker, and what publishing costs a table.

Twenty simulated tables (companions as ``run`` builds them, each game of the door in turn) each make
a move a second (entered on the panel, made by hand: the camera's picture reconciled) and publish to
one Mosquitto on this machine; the club page's board subscribes to all of them. Printed:

* end-to-end latency from the moment a table logs an event to the moment the club page's board has
  it (what ``/api/club`` then answers): p50 / p99 / max;
* the table's reconcile time (``Session.on_stable_change`` of the move's picture) at the publishing
  tables and at as many tables with no club, in the same run: p50 each and the ratio;
* bytes per event on the wire (topic and JSON payload) and per retained state.

    python benchmarks/club_latency.py [--tables 20] [--seconds 20] [--broker mqtt://host:1883]

Without ``--broker`` it starts Debian's ``mosquitto`` on a free loopback port (apt-get install mosquitto).
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.club import broker_of  # noqa: E402
from companion.club.board import ClubBoard  # noqa: E402
from companion.errors import FogCompanionError  # noqa: E402
from companion.games import get_game, names  # noqa: E402
from companion.games.answers import new_game  # noqa: E402
from companion.app.run import Companion  # noqa: E402
from tests.club_broker import free_port  # noqa: E402
from tests.tables import sim_config, wait_for  # noqa: E402


def table(data: Path, n: int, game_name: str, broker: str) -> Companion:
    config = sim_config(data, **{"game.name": game_name, "club.broker": broker, "club.table": f"Table {n}"})
    companion = Companion(config, out=io.StringIO())
    game = get_game(game_name)
    companion.new_game(new_game(game, min(p for p in game.players if p > 1), seed=n), game=game)
    companion.session.on_stable_change(companion.session.expected())
    return companion


def move(companion: Companion) -> float | None:
    """One move entered and made by hand: the seconds the picture's reconcile took (None: no move left)."""
    session = companion.session
    if session.state is None or session.game.outcome(session.state) is not None:
        return None
    for action in session.game.legal_actions(session.state):
        try:
            session.act(str(action))
        except FogCompanionError:
            continue
        picture = session.expected()
        start = time.perf_counter()
        session.on_stable_change(picture)
        return time.perf_counter() - start
    return None


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--broker", help="an existing broker (default: start mosquitto on a free loopback port)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="club-bench-"))
    proc = None
    url = args.broker
    if url is None:
        mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        port = free_port()
        conf = work / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n")
        proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"mqtt://127.0.0.1:{port}"
        time.sleep(0.5)
    games = names()
    board = ClubBoard(broker_of(sim_config(work, **{"club.broker": url})["club"]), work)  # type: ignore[arg-type]
    board.start()
    club = [table(work / f"club-{n}", n, games[n % len(games)], url) for n in range(args.tables)]
    alone = [table(work / f"alone-{n}", n, games[n % len(games)], "") for n in range(args.tables)]
    assert wait_for(lambda: board.connected, 20)
    with_club: list[float] = []
    without: list[float] = []
    start = time.monotonic()
    for second in range(args.seconds):  # a move a second at every table, spread over the second
        for n in range(args.tables):
            for tables, times in ((club, with_club), (alone, without)):
                took = move(tables[n])
                if took is not None:
                    times.append(took)
            due = start + second + (n + 1) / args.tables
            time.sleep(max(0.0, due - time.monotonic()))
    settled = wait_for(lambda: all(t.club is not None and t.club.idle() for t in club), 60)
    time.sleep(0.5)
    latencies = [got - event["at"] for got, event in list(board.received)]
    event_bytes = [len(f"fog-companion/{e['table']}/event") + len(json.dumps(e, separators=(",", ":")).encode())
                   for _, e in list(board.received)]
    state_bytes = [len(json.dumps(t["state"], separators=(",", ":")).encode()) for t in board.snapshot()["tables"]
                   if t["state"]]
    logged = sum(len(t.session.store.read_log(t.session.game_id or "").rows) for t in club)
    print(f"club night: {args.tables} tables x a move a second for {args.seconds} s into {url}"
          f" ({'all sent' if settled else 'NOT all sent'}; {len(board.received)} events at the club page of "
          f"{logged} logged, {board.repeats} repeats not shown twice)")
    if latencies:
        print(f"log -> club page latency: p50 {statistics.median(latencies) * 1000:7.1f} ms  "
              f"p99 {pct(latencies, 0.99) * 1000:7.1f} ms  max {max(latencies) * 1000:7.1f} ms")
    if with_club and without:
        a, b = statistics.median(with_club), statistics.median(without)
        print(f"reconcile of a move's picture: p50 {a * 1000:.2f} ms publishing, {b * 1000:.2f} ms with no club "
              f"(ratio {a / b:.2f}); p90 {pct(with_club, 0.9) * 1000:.2f} ms vs {pct(without, 0.9) * 1000:.2f} ms")
    if event_bytes:
        print(f"bytes per event: mean {statistics.mean(event_bytes):.0f}, max {max(event_bytes)}; "
              f"per retained state: mean {statistics.mean(state_bytes):.0f}")
    for t in club + alone:
        t.stop()
    board.stop()
    if proc is not None:
        proc.terminate()
        proc.wait(10)
    shutil.rmtree(work, ignore_errors=True)
    return 0 if settled else 1


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    sys.exit(main())
