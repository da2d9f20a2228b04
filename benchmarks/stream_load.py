"""Long-lived streams, slow clients and idle sockets against the running service; prints figures.

    python benchmarks/stream_load.py [--duration 180] [--sse 50] [--mjpeg 10] [--pollers 20]
                                     [--slowloris 1000] [--idle 2000] [--attack 30] [--after 60]

Starts ``fog-companion run --camera sim`` as its systemd unit does (standard input ``/dev/null``,
``STATE_DIRECTORY``, the unit's ``Environment=`` lines) with a 3-player game, on loopback only, and
measures in one run:

1. **streams** for ``--duration`` seconds: ``--sse`` pages holding ``/events`` and ``--mjpeg``
   camera views holding ``/stream.mjpg``, spread over ``--pollers`` phones (each its own address,
   127.0.0.N, as on the table's Wi-Fi); every phone also polls ``/api/state`` every
   ``--poll-every`` seconds, and a driver plays a legal action through the API every
   ``--move-every`` seconds (draft, end turn, a new game when one ends). A stream the panel
   refuses (503) is tried again after its ``Retry-After``, as the pages do. Figures: every poll
   and move answered or not, their p50/p99/max, what the streams received.
2. **slowloris** for ``--attack`` seconds: ``--slowloris`` sockets each sending one byte a second of
   a request that never ends, while a normal ``GET /api/state`` is timed twice a second. Each
   socket the panel closes is opened again at once (a flood of connections, the harder case),
   or with ``--hold`` not (the crowd keeps what it has).
3. **idle crowd** for ``--attack`` seconds: ``--idle`` connections that send nothing (reopened as
   above), the same GET timed.
4. **after**: everything closed, the service's memory followed for ``--after`` seconds.

The service's VmRSS is sampled all along. Nothing is asserted; the targets are in docs/service.md.
Linux only (it reads /proc). Every loop is bounded; the service is stopped with SIGTERM at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import http.client
import json
import os
import re
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.service_resources import cpu_seconds, rss_mb, unit_environment  # noqa: E402

TIMEOUT = 30.0  # a request not answered within this counts as not answered


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def figures(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms, default=float('nan')):.1f} ms")


def call(port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1") -> tuple[int, Any, float]:
    """One request; (status, JSON or None, seconds). Status 0: not answered (error or timeout)."""
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT, source_address=(source, 0))
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        res = conn.getresponse()
        raw = res.read()
        conn.close()
    except OSError:
        return 0, None, time.perf_counter() - start
    try:
        data = json.loads(raw or b"null")
    except ValueError:
        data = None
    return res.status, data, time.perf_counter() - start


class Sampler(threading.Thread):
    """The service's RSS and CPU time every half second, with the phase each was taken in."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.phase = pid, "start"
        self.samples: list[tuple[float, str, float, float]] = []  # (monotonic, phase, RSS MB, CPU s)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.5):
            with contextlib.suppress(OSError):
                self.samples.append((time.monotonic(), self.phase, rss_mb(self.pid), cpu_seconds(self.pid)))

    def of(self, phase: str) -> list[float]:
        return [mb for _, p, mb, _ in self.samples if p == phase]

    def cpu(self, phase: str) -> float:
        """The service's CPU share of one core during ``phase``, in per cent."""
        rows = [(at, cpu) for at, p, _, cpu in self.samples if p == phase]
        if len(rows) < 2:
            return float("nan")
        return 100 * (rows[-1][1] - rows[0][1]) / (rows[-1][0] - rows[0][0])

    def during(self, phase: str) -> str:
        rows = [(at, mb) for at, p, mb, _ in self.samples if p == phase]
        if not rows:
            return "no samples"
        top = max(rows, key=lambda row: row[1])
        tenth = max(1, len(rows) // 10)
        return (f"RSS max {top[1]:.0f} MB ({top[0] - rows[0][0]:.0f} s in), mean of the first tenth "
                f"{sum(mb for _, mb in rows[:tenth]) / tenth:.0f} MB, of the last {sum(mb for _, mb in rows[-tenth:]) / tenth:.0f} MB; "
                f"CPU {self.cpu(phase):.0f} % of one core")


# ---------------------------------------------------------------------------------------------- streams
class Streams(threading.Thread):
    """Every open stream in one selector thread: pages read as a browser does, counted, never parsed."""

    def __init__(self, port: int, opened: list[tuple[str, str]], stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.wanted = opened  # (path, source address)
        self.sel = selectors.DefaultSelector()
        self.received: dict[int, int] = {}  # stream -> game events or frames
        self.bytes = 0
        self.refused = 0
        self.dropped = 0  # closed by the server while the phase ran
        self.retry_at: dict[int, float] = {}

    def open(self, k: int) -> None:
        path, source = self.wanted[k]
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT, source_address=(source, 0))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
            s.setblocking(False)
        except OSError:
            self.retry_at[k] = time.monotonic() + 1
            return
        self.sel.register(s, selectors.EVENT_READ, {"k": k, "head": b"", "tail": b"", "ok": None})

    def run(self) -> None:
        marker = {True: b"event: game", False: b"--frame"}
        for k in range(len(self.wanted)):
            self.received.setdefault(k, 0)
            self.open(k)
        while not self.stop.is_set():
            for key, _ in self.sel.select(timeout=0.5):
                s, st = key.fileobj, key.data
                k = st["k"]
                try:
                    data = s.recv(262144)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.sel.unregister(s)
                    s.close()  # type: ignore[union-attr]
                    self.dropped += st["ok"] is True
                    self.retry_at[k] = time.monotonic() + 1
                    continue
                self.bytes += len(data)
                if st["ok"] is None:
                    st["head"] += data
                    if b"\r\n\r\n" not in st["head"]:
                        continue
                    head, _, data = st["head"].partition(b"\r\n\r\n")
                    st["ok"] = head.startswith(b"HTTP/1.1 200")
                    if not st["ok"]:  # refused: try again after Retry-After, as a page does
                        self.refused += 1
                        m = re.search(rb"Retry-After: (\d+)", head)
                        self.retry_at[k] = time.monotonic() + (int(m.group(1)) if m else 10)
                        self.sel.unregister(s)
                        s.close()  # type: ignore[union-attr]
                        continue
                mark = marker[self.wanted[k][0].startswith("/events")]
                text = st["tail"] + data
                self.received[k] += text.count(mark)
                st["tail"] = text[-len(mark) + 1:]
            now = time.monotonic()
            for k, at in list(self.retry_at.items()):
                if at <= now:
                    del self.retry_at[k]
                    self.open(k)
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]


def poller(port: int, source: str, every: float, stop: threading.Event, out: list[tuple[int, float]]) -> None:
    while not stop.is_set():
        status, _, took = call(port, "GET", "/api/state", source=source)
        out.append((status, took))
        stop.wait(every)


def driver(port: int, every: float, stop: threading.Event, out: list[tuple[str, int, float]]) -> None:
    """A legal action through the API every ``every`` seconds: what players do on their phones."""
    seed = 100
    while not stop.wait(every):
        status, state, took = call(port, "GET", "/api/state")
        if status != 200 or not isinstance(state, dict):
            out.append(("look", status, took))
            continue
        if state["phase"] in ("finished", "setup"):
            seed += 1
            move = ("new game", "/api/games", {"players": [{}, {}, {}], "seed": seed})
        elif state.get("verifying"):
            move = ("table set up", "/api/table/setup", {})
        elif state.get("picks"):  # the draft: a pick is an action like any other
            move = ("draft", "/api/act", {"action": state["picks"][0]["action"]})
        else:
            move = ("end turn", "/api/end-turn", {})
        status, _, took = call(port, "POST", move[1], move[2])
        out.append((move[0], status, took))


# ---------------------------------------------------------------------------------------------- attacks
def crowd(port: int, count: int, trickle: bool, reopen: bool, stop: threading.Event, stats: dict[str, int]) -> None:
    """``count`` sockets (with ``reopen``, one opened again at once for each the panel closes: a flood of
    connections); with ``trickle`` each sends a byte a second of a request that never ends."""
    sel = selectors.DefaultSelector()

    def one() -> None:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.200", 0))
            s.setblocking(False)
            if trickle:
                s.send(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            sel.register(s, selectors.EVENT_READ)
            stats["opened"] += 1
        except OSError:
            stats["failed"] += 1

    for _ in range(count):
        if stop.is_set():
            break
        one()
    last_byte = time.monotonic()
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            with contextlib.suppress(OSError):
                s.recv(4096)  # type: ignore[union-attr]
            sel.unregister(s)
            s.close()  # type: ignore[union-attr]
            stats["closed by the panel"] += 1
        while reopen and len(sel.get_map()) < count and not stop.is_set():
            one()
        if trickle and time.monotonic() - last_byte >= 1.0:
            last_byte = time.monotonic()
            for key in list(sel.get_map().values()):
                try:
                    key.fileobj.send(b"a")  # type: ignore[union-attr]
                except OSError as exc:
                    if exc.errno != errno.EAGAIN:
                        sel.unregister(key.fileobj)
                        key.fileobj.close()  # type: ignore[union-attr]
                        stats["closed by the panel"] += 1
    for key in list(sel.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]


def attack(port: int, name: str, count: int, trickle: bool, reopen: bool, seconds: float) -> str:
    stop = threading.Event()
    stats = {"opened": 0, "failed": 0, "closed by the panel": 0}
    t = threading.Thread(target=crowd, args=(port, count, trickle, reopen, stop, stats), daemon=True)
    t.start()
    probes: list[tuple[int, float]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status, _, took = call(port, "GET", "/api/state", source="127.0.0.250")
        probes.append((status, took))
        time.sleep(0.5)
    stop.set()
    t.join(30)
    ok = [took for status, took in probes if status == 200]
    within = sum(1 for took in ok if took <= 1.0)
    how = "reopened at once when closed" if reopen else "held, not reopened"
    return (f"{name}: {count} sockets ({how}) for {seconds:.0f} s ({stats['opened']} opened, {stats['closed by the panel']} "
            f"closed by the panel, {stats['failed']} could not connect); a normal GET /api/state twice a second: "
            f"{len(ok)}/{len(probes)} answered 200, {within}/{len(probes)} within 1 s, {figures(ok)}")


# ---------------------------------------------------------------------------------------------- the run
def start_service(tmp: str) -> tuple[subprocess.Popen[str], int]:
    (Path(tmp) / "config.toml").write_text('[panel]\nhost = "127.0.0.1"\nport = 0\n')
    env = {"PATH": os.environ.get("PATH", ""), "HOME": "/proc/none", "STATE_DIRECTORY": tmp,
           "FOG_LED_BACKEND": "recording", **unit_environment()}
    installed = shutil.which("fog-companion", path=str(Path(sys.executable).parent))
    command = [installed] if installed else [sys.executable, "-m", "companion"]
    if not installed:
        env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.Popen([*command, "run", "--camera", "sim", "--config", f"{tmp}/config.toml",
                             "--players", "3", "--seed", "7"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd="/")
    assert proc.stdout is not None
    port = 0
    deadline = time.monotonic() + 120
    for line in proc.stdout:
        if m := re.match(r"panel: http://[^:]+:(\d+)/", line):
            port = int(m.group(1))
            break
        if time.monotonic() > deadline:
            break
    if not port:
        proc.kill()
        raise SystemExit("the service did not print its panel address")
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    return proc, port


def streams_phase(port: int, args: argparse.Namespace, sampler: Sampler, say: Callable[[str], None]) -> None:
    phones = [f"127.0.0.{2 + k}" for k in range(args.pollers)]
    wanted = [("/events", phones[k % len(phones)]) for k in range(args.sse)]
    wanted += [("/stream.mjpg?overlay=0", phones[k % len(phones)]) for k in range(args.mjpeg)]
    stop = threading.Event()
    streams = Streams(port, wanted, stop)
    polls: list[tuple[int, float]] = []
    moves: list[tuple[str, int, float]] = []
    threads: list[threading.Thread] = [streams]
    threads += [threading.Thread(target=poller, args=(port, p, args.poll_every, stop, polls), daemon=True)
                for p in phones]
    threads.append(threading.Thread(target=driver, args=(port, args.move_every, stop, moves), daemon=True))
    sampler.phase = "streams"
    for t in threads:
        t.start()
    time.sleep(args.duration)
    stop.set()
    for t in threads:
        t.join(TIMEOUT + 5)
    ok_polls = [took for status, took in polls if status == 200]
    answered_moves = [took for _, status, took in moves if status]
    statuses: dict[str, int] = {}
    for name, status, _ in moves:
        statuses[f"{name} {status}"] = statuses.get(f"{name} {status}", 0) + 1
    sse = [streams.received[k] for k, (path, _) in enumerate(wanted) if path.startswith("/events")]
    mjpeg = [streams.received[k] for k, (path, _) in enumerate(wanted) if not path.startswith("/events")]
    say(f"streams: {args.sse} SSE + {args.mjpeg} MJPEG + {args.pollers} pollers for {args.duration:.0f} s")
    say(f"  polls: {len(ok_polls)}/{len(polls)} answered 200, {figures(ok_polls)}")
    say(f"  moves: {len(answered_moves)}/{len(moves)} answered ({', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))}),"
        f" {figures(answered_moves)}")
    say(f"  SSE pages: game events received per page min {min(sse, default=0)}, max {max(sse, default=0)}; "
        f"MJPEG views: frames per view min {min(mjpeg, default=0)}, max {max(mjpeg, default=0)} "
        f"({min(mjpeg, default=0) / args.duration:.1f}-{max(mjpeg, default=0) / args.duration:.1f} fps); "
        f"{streams.refused} refusals (503), {streams.dropped} streams closed by the panel, "
        f"{streams.bytes / 1e6:.0f} MB received")
    say(f"  the service during it: {sampler.during('streams')}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=180.0, help="seconds of the streams phase")
    ap.add_argument("--sse", type=int, default=50)
    ap.add_argument("--mjpeg", type=int, default=10)
    ap.add_argument("--pollers", type=int, default=20, help="phones: each polls and holds some of the streams")
    ap.add_argument("--poll-every", type=float, default=1.0)
    ap.add_argument("--move-every", type=float, default=2.0)
    ap.add_argument("--slowloris", type=int, default=1000)
    ap.add_argument("--idle", type=int, default=2000)
    ap.add_argument("--attack", type=float, default=30.0, help="seconds of each attack phase")
    ap.add_argument("--hold", action="store_true",
                    help="the crowds keep the sockets they opened instead of opening one again for each closed")
    ap.add_argument("--after", type=float, default=60.0, help="seconds the memory is followed after the load")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.slowloris + args.idle + args.sse + args.mjpeg + 512
    if hard == resource.RLIM_INFINITY or hard >= need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))

    def say(line: str) -> None:
        print(line, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_service(tmp)
        sampler = Sampler(proc.pid)
        sampler.start()
        try:
            call(port, "POST", "/api/table/setup", {})
            time.sleep(5)  # the camera verifies the setup
            settled = rss_mb(proc.pid)
            sampler.phase = "quiet"
            time.sleep(5)
            say(f"service pid {proc.pid} on 127.0.0.1:{port}; before the load: RSS {settled:.0f} MB, "
                f"CPU {sampler.cpu('quiet'):.0f} % of one core (nobody connected)")
            streams_phase(port, args, sampler, say)
            sampler.phase = "slowloris"
            say(attack(port, "slowloris", args.slowloris, True, not args.hold, args.attack))
            say(f"  the service during it: {sampler.during('slowloris')}")
            sampler.phase = "idle"
            say(attack(port, "idle crowd", args.idle, False, not args.hold, args.attack))
            say(f"  the service during it: {sampler.during('idle')}")
            sampler.phase = "after"
            after_start = time.monotonic()
            time.sleep(args.after)
            after = [(at - after_start, mb) for at, phase, mb, _ in sampler.samples if phase == "after"]
            back = next((at for at, mb in after if mb <= 200), None)
            say(f"after: RSS {after[0][1]:.0f} MB when the load ended, {after[-1][1]:.0f} MB after {args.after:.0f} s; "
                + (f"at or under 200 MB after {back:.0f} s" if back is not None else "never at or under 200 MB"))
            status, _, took = call(port, "GET", "/api/state")
            say(f"a last GET /api/state: {status} in {took * 1000:.1f} ms; "
                f"RSS max over the whole load {max(mb for _, p, mb, _ in sampler.samples if p != 'start'):.0f} MB")
        finally:
            sampler.stop.set()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
