"""Memory and CPU of the running service, started as its systemd unit starts it.

    python benchmarks/service_resources.py [--idle 60] [--load 600] [--sse 5] [--mjpeg 2] [--streams 50]

Starts ``fog-companion run`` on the simulated table with a 3-player game (standard input
``/dev/null``, ``STATE_DIRECTORY`` set, the unit's ``Environment=`` lines), waits for it to
settle, then samples its resident memory (VmRSS) and CPU time from /proc:

1. idle just after start (the panel up, the game being set up), nobody connected;
2. idle for ``--idle`` seconds once the game is drafted, nobody connected;
3. idle again after ``--streams`` pages opened ``/events`` at once (each from its own address),
   read their first state and were closed (what a room of phones leaves behind);
4. under load for ``--load`` seconds: ``--sse`` clients on ``/events`` and ``--mjpeg`` clients
   on ``/stream.mjpg``, all reading everything, while a piece is moved on the simulated table
   every 5 s (so the camera, the session and every stream have work).

It prints the figures and, as baselines from the same run, the memory of a bare Python, of one
that imported the same libraries (what no code of ours can go below), and of one that imported
every module the service imports (what the code itself holds before it runs). Nothing here is
asserted: the figures and targets are in docs/service.md (Resources). Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def baseline_mb(imports: str = "numpy, cv2, flask, waitress, jinja2") -> float:
    code = f"import resource, {imports}; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return float(subprocess.check_output([sys.executable, "-c", code], text=True, env=env).strip())


# What ``run`` imports before it serves (the parser included): the code's own share of the memory.
SERVICE_IMPORTS = ("numpy, cv2, flask, waitress, jinja2, companion.app.cli, companion.app.run, web_ui, web_ui.server, "
                   "vision.live, hardware.table; companion.app.cli.build_parser(); "
                   "import companion.games; companion.games.get_game('fog')")


def open_and_close_streams(port: int, count: int) -> int:
    """``count`` event streams opened at once (each from its own address), their first state read, closed."""
    conns = []
    for k in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(f"127.0.3.{2 + k}", 0))
        conn.request("GET", "/events")
        res = conn.getresponse()
        if res.status == 200:
            res.read1(65536)
        conns.append(conn)
    for conn in conns:
        conn.close()
    return len(conns)


def unit_environment() -> dict[str, str]:
    env = {}
    for line in (ROOT / "systemd" / "fog-companion.service").read_text().splitlines():
        if line.startswith("Environment="):
            key, value = line[len("Environment="):].split("=", 1)
            env[key] = value
    return env


def reader(port: int, path: str, stop: threading.Event, counts: dict[str, int], key: str, source: str) -> None:
    """One page or camera view, from its own address (the panel allows a few streams per device)."""
    while not stop.is_set():
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
            conn.request("GET", path)
            res = conn.getresponse()
            while not stop.is_set():
                chunk = res.read1(65536)
                if not chunk:
                    break
                counts[key] = counts.get(key, 0) + len(chunk)
            conn.close()
        except (OSError, http.client.HTTPException):  # the service stopping ends the stream mid-chunk
            time.sleep(0.5)


def post(port: int, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    data = json.loads(conn.getresponse().read() or b"null")
    conn.close()
    return data


def get(port: int, path: str) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    data = json.loads(conn.getresponse().read() or b"null")
    conn.close()
    return data


def sample(pid: int, seconds: float, every: float = 1.0) -> tuple[list[float], float]:
    """RSS samples and the CPU share of one core over ``seconds``."""
    start_cpu, start = cpu_seconds(pid), time.monotonic()
    samples = []
    while time.monotonic() - start < seconds:
        time.sleep(every)
        samples.append(rss_mb(pid))
    return samples, (cpu_seconds(pid) - start_cpu) / (time.monotonic() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--idle", type=float, default=60.0, help="seconds idle")
    ap.add_argument("--load", type=float, default=600.0, help="seconds under load")
    ap.add_argument("--sse", type=int, default=5)
    ap.add_argument("--mjpeg", type=int, default=2)
    ap.add_argument("--streams", type=int, default=50, help="event streams opened and closed before the load")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "config.toml").write_text('[panel]\nhost = "127.0.0.1"\nport = 0\n')
        env = {"PATH": os.environ.get("PATH", ""), "HOME": "/proc/none", "STATE_DIRECTORY": tmp,
               "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording", **unit_environment()}
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", f"{tmp}/config.toml",
                                 "--players", "3", "--seed", "7"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd="/")
        assert proc.stdout is not None
        port = 0
        for line in proc.stdout:
            if m := re.match(r"panel: http://[^:]+:(\d+)/", line):
                port = int(m.group(1))
                break
        threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
        try:
            time.sleep(5)
            started, _ = sample(proc.pid, min(args.idle, 10.0))
            post(port, "/api/table/setup", {})
            time.sleep(5)  # the camera verifies the setup; then draft every islander
            while picks := get(port, "/api/state").get("picks"):  # the draft's picks, sent as actions
                post(port, "/api/act", {"action": picks[0]["action"]})
            time.sleep(5)
            idle, idle_cpu = sample(proc.pid, args.idle)
            opened = open_and_close_streams(port, args.streams)
            time.sleep(5)
            after_streams, _ = sample(proc.pid, args.idle)
            stop = threading.Event()
            counts: dict[str, int] = {}
            clients = [threading.Thread(target=reader, args=(port, "/events", stop, counts, "sse", f"127.0.0.{2 + k}"),
                                        daemon=True) for k in range(args.sse)]
            clients += [threading.Thread(target=reader, args=(port, "/stream.mjpg", stop, counts, "mjpeg",
                                                              f"127.0.1.{2 + k}"), daemon=True) for k in range(args.mjpeg)]
            for c in clients:
                c.start()
            mover_stop = threading.Event()

            def mover() -> None:  # a hand moves a piece back and forth on the simulated table
                table = get(port, "/api/table")["table"]
                cell, pieces = next(iter(sorted(table.items())))
                while not mover_stop.wait(5.0):
                    post(port, "/api/table/move", {"piece": pieces[0], "cell": None})
                    if mover_stop.wait(5.0):
                        break
                    post(port, "/api/table/move", {"piece": pieces[0], "cell": cell})

            threading.Thread(target=mover, daemon=True).start()
            loaded, load_cpu = sample(proc.pid, args.load, every=5.0)
            mover_stop.set()
            stop.set()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(20)
    bare, base, code = baseline_mb("sys"), baseline_mb(), baseline_mb(SERVICE_IMPORTS)
    every_game = baseline_mb(SERVICE_IMPORTS + "; [companion.games.get_game(n) for n in companion.games.names()]")
    tenth = max(1, len(loaded) // 10)
    first, last = sum(loaded[:tenth]) / tenth, sum(loaded[-tenth:]) / tenth
    print(f"baseline: bare python {bare:.0f} MB; with numpy, cv2, flask, waitress imported: {base:.0f} MB; "
          f"with every module the service imports (one game): {code:.0f} MB; with every game imported too: "
          f"{every_game:.0f} MB")
    print(f"just after start: RSS {min(started):.0f}-{max(started):.0f} MB")
    print(f"idle {args.idle:.0f} s: RSS {min(idle):.0f}-{max(idle):.0f} MB (x{max(idle) / base:.2f} baseline), "
          f"CPU {100 * idle_cpu:.1f} % of one core")
    print(f"idle after {opened} event streams opened and closed: RSS {min(after_streams):.0f}-"
          f"{max(after_streams):.0f} MB")
    print(f"load {args.load:.0f} s ({args.sse} SSE + {args.mjpeg} MJPEG clients, a piece moved every 5 s): "
          f"RSS max {max(loaded):.0f} MB (x{max(loaded) / base:.2f} baseline), first tenth {first:.0f} MB, "
          f"last tenth {last:.0f} MB (drift {last - first:+.0f} MB), CPU {100 * load_cpu:.1f} % of one core; "
          f"received SSE {counts.get('sse', 0) / 1e3:.0f} kB, MJPEG {counts.get('mjpeg', 0) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
