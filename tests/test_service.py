"""The Pi service: the unit verifies, install.sh is safe to run, sd_notify and the watchdog work."""

from __future__ import annotations

import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from companion.app.run import Companion, supervise
from companion.app.systemd import Notifier
from tests.tables import sim_config, wait_for

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "fog-companion.service"
INSTALL = ROOT / "systemd" / "install.sh"


class NotifySocket:
    """systemd's end of sd_notify: a datagram socket that collects what the service sends."""

    def __init__(self, folder: Path) -> None:
        self.path = str(folder / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.2)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode()))

    def pings_after(self, t: float) -> int:
        return sum(1 for at, m in list(self.messages) if at > t and "WATCHDOG=1" in m)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        self.sock.close()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path):
    # verify checks that ExecStart exists: point it at this machine's python for the check
    text = UNIT.read_text().replace("/opt/fog-companion/venv/bin/fog-companion", sys.executable + " -m companion")
    unit = tmp_path / "fog-companion.service"
    unit.write_text(text)
    res = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    problems = [line for line in res.stderr.splitlines() if "fog-companion.service" in line]
    assert res.returncode == 0 and not problems, res.stderr


def test_the_unit_is_hardened_notify_with_a_watchdog():
    lines = {line.split("=", 1)[0]: line.split("=", 1)[1] for line in UNIT.read_text().splitlines()
             if "=" in line and not line.startswith("#")}
    assert lines["Type"] == "notify" and int(lines["WatchdogSec"]) > 0 and lines["Restart"] == "on-failure"
    assert lines["User"] == "fog-companion" and lines["StateDirectory"] == "fog-companion"
    assert lines["ConfigurationDirectory"] == "fog-companion"
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert lines[key] == "yes", key
    assert lines["ProtectSystem"] == "strict"
    assert "ws281x" in UNIT.read_text() and "root" in UNIT.read_text()  # the documented exception


def test_install_sh_is_valid_bash_and_a_dry_run_changes_nothing(tmp_path: Path):
    assert subprocess.run(["bash", "-n", str(INSTALL)]).returncode == 0
    res = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "python3 -m venv --system-site-packages /opt/fog-companion/venv" in out or \
        Path("/opt/fog-companion/venv").exists()
    assert "systemctl" in out and "fog-companion doctor" in out
    assert not Path("/etc/systemd/system/fog-companion.service").exists()
    res = subprocess.run(["bash", str(INSTALL), "--uninstall", "--dry-run"], capture_output=True, text=True)
    assert res.returncode == 0 and "nothing to do" in res.stdout
    res = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True)
    assert res.returncode == 2 and "unknown option" in res.stderr


def test_notifier_speaks_sd_notify(tmp_path: Path):
    sock = NotifySocket(tmp_path)
    try:
        n = Notifier({"NOTIFY_SOCKET": sock.path, "WATCHDOG_USEC": "2000000"})
        assert n.watchdog_enabled and n.interval == 1.0
        assert n.ready("panel http://x") and n.watchdog() and n.stopping()
        assert wait_for(lambda: len(sock.messages) == 3)
        assert [m for _, m in sock.messages] == ["READY=1\nSTATUS=panel http://x", "WATCHDOG=1", "STOPPING=1"]
    finally:
        sock.close()
    assert not Notifier({}).ready()  # outside systemd: nothing, no error


class HangingSource:
    """A camera whose driver call hangs forever after a while (as a wedged USB camera does)."""

    name = "hanging"
    live = True

    def __init__(self) -> None:
        self.hang = threading.Event()
        self.hanging = threading.Event()  # the camera thread is inside the hung call now
        self.release = threading.Event()
        rng = np.random.default_rng(1)
        self.frame = rng.integers(40, 200, (120, 160, 3), dtype=np.uint8)

    def open(self) -> None: ...

    def read(self) -> np.ndarray:
        if self.hang.is_set():
            self.hanging.set()
            self.release.wait()
        return self.frame + np.random.default_rng().integers(0, 3, self.frame.shape, dtype=np.uint8)

    def close(self) -> None:
        self.release.set()


def test_a_hung_camera_thread_stops_the_watchdog_pings(tmp_path: Path, figures: Callable[[str], None]):
    """Counted in the main loop's looks at the camera, not in seconds: the same on a slow machine."""
    from vision.live import LiveCamera

    companion = Companion(sim_config(tmp_path), out=io.StringIO())
    source = HangingSource()
    companion.camera = LiveCamera(source, companion.layout, interval=0.01)  # type: ignore[arg-type]
    companion.camera.start()
    looks: list[bool] = []  # what the main loop found at each look at the camera, in order
    healthy = companion.healthy

    def look(stall_seconds: float = 1.0) -> bool:
        looks.append(ok := healthy(stall_seconds))
        return ok

    companion.healthy = look  # type: ignore[method-assign]
    sock = NotifySocket(tmp_path)
    stopping = threading.Event()
    notifier = Notifier({"NOTIFY_SOCKET": sock.path, "WATCHDOG_USEC": "200000"})  # ping every 0.1 s

    def pings() -> int:
        return notifier.sent.count("WATCHDOG=1")

    loop = threading.Thread(target=supervise, args=(companion, notifier, stopping, 1.0), daemon=True)
    loop.start()
    try:
        assert wait_for(lambda: sock.pings_after(0) >= 5)  # pinged, and systemd got them, while the camera steps
        healthy_pings = pings()
        source.hang.set()
        assert wait_for(source.hanging.is_set)  # its last step began before this: no heartbeat comes again
        since = len(looks)
        assert wait_for(lambda: False in looks[since:])  # the stall is noticed (stall_seconds=1 later) ...
        stalled = since + looks[since:].index(False)
        at_stall = pings()
        assert wait_for(lambda: len(looks) >= stalled + 5)  # ... and five more looks at the hung camera
        after_stall = pings() - at_stall
        assert not any(looks[stalled:])
    finally:
        stopping.set()
        loop.join(30)
        companion.stop()
        sock.close()
    figures(f"watchdog: {healthy_pings} pings while healthy, {after_stall} in {len(looks) - stalled} looks at the "
            "hung camera")
    assert healthy_pings >= 5
    assert after_stall == 0


def test_run_under_systemd_reports_ready_and_pings_the_watchdog(tmp_path: Path):
    sock = NotifySocket(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": sock.path, "WATCHDOG_USEC": "1000000",
           "FOG_LED_BACKEND": "recording", "FOG_CONFIG": str(tmp_path / "c.toml")}
    (tmp_path / "c.toml").write_text("[panel]\nhost = \"127.0.0.1\"\nport = 0\n")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--data-dir", str(tmp_path / "data")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT)
    try:
        assert wait_for(lambda: any("READY=1" in m for _, m in sock.messages), 60)
        ready = next(at for at, m in sock.messages if "READY=1" in m)
        assert wait_for(lambda: sock.pings_after(ready) >= 2)  # one a second, waited for as long as any wait
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
        sock.close()
    assert proc.returncode == 0, out
    assert any("STOPPING=1" in m for _, m in sock.messages)
    assert "panel: http://127.0.0.1:" in out
