"""20 phones on the panel for a minute while a game plays: every client gets every event.

The companion runs as its own process on loopback; 20 clients each hold an SSE stream and poll
pages. A driver plays through the API (draft, moves, turn ends, and new games when one ends).
``FOG_LOAD_SECONDS`` shortens or lengthens the run (default 60).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.tables import http_call

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 20
SECONDS = float(os.environ.get("FOG_LOAD_SECONDS", "60"))


class SseClient(threading.Thread):
    """One phone's open page; each phone has its own address (127.0.0.N), as on the table's Wi-Fi."""

    def __init__(self, port: int, address: str) -> None:
        super().__init__(daemon=True)
        self.port, self.address = port, address
        self.events: list[tuple[str, int]] = []
        self.connected = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.address, 0))
            conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
            res = conn.getresponse()
            kind = None
            while True:
                line = res.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    if kind == "state":
                        self.connected.set()
                    elif kind == "game":
                        event = json.loads(text[6:])
                        if event["seq"] is not None:
                            self.events.append((event["kind"], event["seq"]))
        except Exception as exc:  # the server closing at the end is expected
            self.error = f"{type(exc).__name__}: {exc}"


class Poller(threading.Thread):
    PAGES = ("/", "/api/state", "/setup", "/api/leds")

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.times: list[float] = []
        self.failures = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        k = 0
        while not self.stop.is_set():
            path = self.PAGES[k % len(self.PAGES)]
            k += 1
            start = time.perf_counter()
            try:
                conn.request("GET", path)
                res = conn.getresponse()
                res.read()
                if res.status != 200:
                    self.failures += 1
            except Exception:
                self.failures += 1
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.times.append(time.perf_counter() - start)
            self.stop.wait(0.25)


def drive(port: int, stop: threading.Event, counts: dict[str, int]) -> None:
    """Play through the API until told to stop: drafts, turn ends, and a new game when one ends."""
    seed = 1
    while not stop.is_set():
        _, state = http_call(port, "GET", "/api/state")
        if state["phase"] in ("finished", "setup"):
            seed += 1
            http_call(port, "POST", "/api/games", {"players": [{}, {}, {}], "seed": seed})
            counts["games"] += 1
        elif state["verifying"]:
            http_call(port, "POST", "/api/table/setup")
            time.sleep(0.2)
        elif state["picks"]:  # the draft: its picks are actions like any other
            http_call(port, "POST", "/api/act", {"action": state["picks"][0]["action"]})
            counts["actions"] += 1
        else:
            http_call(port, "POST", "/api/end-turn")
            counts["actions"] += 1
        stop.wait(0.15)


def test_twenty_panel_clients_for_a_minute_get_every_event(tmp_path: Path, figures: Callable[[str], None]):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording",
           "FOG_CONFIG": str(tmp_path / "c.toml")}
    (tmp_path / "c.toml").write_text("[panel]\nhost = \"127.0.0.1\"\nport = 0\n")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--data-dir", str(tmp_path / "data")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT)
    try:
        assert proc.stdout is not None
        port = None
        for line in proc.stdout:
            if m := re.match(r"panel: http://[^:]+:(\d+)/", line):
                port = int(m.group(1))
                break
        assert port, "the companion did not print its panel URL"
        threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # keep the pipe drained
        stop = threading.Event()
        clients = [SseClient(port, f"127.0.0.{2 + k}") for k in range(CLIENTS)]
        for c in clients:
            c.start()
        assert all(c.connected.wait(30) for c in clients)
        pollers = [Poller(port, stop) for _ in range(CLIENTS)]
        for p in pollers:
            p.start()
        counts = {"games": 0, "actions": 0}
        driver = threading.Thread(target=drive, args=(port, stop, counts), daemon=True)
        driver.start()
        time.sleep(SECONDS)
        stop.set()
        driver.join(30)
        for p in pollers:
            p.join(30)
        time.sleep(2)  # the last events reach the streams
        _, listing = http_call(port, "GET", "/api/games")
        logged: list[tuple[str, int]] = []
        for game in listing["games"]:
            _, export = http_call(port, "GET", f"/api/games/{game['id']}")
            logged += [("undone" if e["kind"] == "undo" else e["kind"], e["seq"]) for e in export["events"]]
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        for c in clients:
            c.join(10)
        times = sorted(t for p in pollers for t in p.times)
        p50, p99 = times[len(times) // 2] * 1000, times[int(len(times) * 0.99)] * 1000
        complete = sum(1 for c in clients if c.events == logged)
        figures(f"load: {CLIENTS} SSE clients + {CLIENTS} pollers for {SECONDS:.0f} s; {counts['games']} games, "
              f"{len(logged)} logged events; {complete}/{CLIENTS} clients got every event in order; "
              f"{len(times)} page requests, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
              f"{sum(p.failures for p in pollers)} failed")
        assert len(logged) >= SECONDS  # the driver kept the game moving
        assert complete == CLIENTS, [len(c.events) for c in clients]
        assert sum(p.failures for p in pollers) == 0
    finally:
        if proc.poll() is None:  # a failed assertion must not leave the companion running
            proc.kill()
            proc.wait(20)
