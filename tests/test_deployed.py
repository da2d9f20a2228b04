"""The companion started the way its systemd unit starts it, not the way a test finds convenient.

Under ``fog-companion.service`` standard input is ``/dev/null``, ``HOME`` is not writable
(``ProtectHome=yes``), the data directory comes from ``StateDirectory=`` and the unit's own
``Environment=`` lines apply. The service must come up, say READY, keep serving and ping the
watchdog for as long as it is wanted, and stop cleanly on SIGTERM.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.tables import collect_output, http_call, wait_for
from tests.test_service import UNIT, NotifySocket

ROOT = Path(__file__).resolve().parent.parent


def unit_settings() -> dict[str, list[str]]:
    """Every ``Key=value`` of the unit, values in order (``Environment=`` may repeat)."""
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def start_as_the_unit_does(tmp_path: Path, notify: NotifySocket) -> tuple[subprocess.Popen[str], list[str]]:
    settings = unit_settings()
    state_dir = tmp_path / "var-lib-fog-companion"
    state_dir.mkdir()
    config_dir = tmp_path / "etc-fog-companion"
    config_dir.mkdir()
    (config_dir / "config.toml").write_text('[panel]\nhost = "127.0.0.1"\nport = 0\n\n[leds]\nbackend = "auto"\n')
    exec_start = settings["ExecStart"][0].split()
    assert exec_start[0].endswith("/fog-companion") and exec_start[1] == "run", exec_start
    args = [a.replace("/etc/fog-companion", str(config_dir)) for a in exec_start[2:]]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "HOME": "/proc/fog-companion-home",  # ProtectHome=yes: no home to write to
           "STATE_DIRECTORY": str(state_dir), "CONFIGURATION_DIRECTORY": str(config_dir),
           "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000", "PYTHONPATH": str(ROOT)}
    for assignment in settings.get("Environment", []):
        key, value = assignment.split("=", 1)
        env[key] = value
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd="/")
    return proc, collect_output(proc)


def test_the_service_started_as_its_unit_starts_it_keeps_serving_until_sigterm(tmp_path: Path):
    notify = NotifySocket(tmp_path)
    proc, lines = start_as_the_unit_does(tmp_path, notify)
    try:
        assert wait_for(lambda: any("READY=1" in m for _, m in notify.messages) or proc.poll() is not None, 90), \
            "".join(lines)
        assert proc.poll() is None, f"the service exited at once (code {proc.returncode}):\n" + "".join(lines)
        # READY comes over the notify socket, the panel's address on standard output: either may be first
        panel = re.compile(r"panel: http://[^:]+:(\d+)/")
        assert wait_for(lambda: any(panel.match(line) for line in lines), 30), "".join(lines)
        port = int(next(m.group(1) for line in lines if (m := panel.match(line))))
        ready = next(at for at, m in notify.messages if "READY=1" in m)
        time.sleep(10.0)  # standard input ended long ago: the companion must not care
        assert proc.poll() is None, f"the service stopped by itself (code {proc.returncode}):\n" + "".join(lines)
        code, state = http_call(port, "GET", "/api/state")
        assert code == 200 and state["phase"] == "setup"
        assert notify.pings_after(ready + 5.0) >= 3  # the watchdog is still fed
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)  # TimeoutStopSec=10
        finally:
            notify.close()
    text = "".join(lines)
    assert proc.returncode == 0, text
    assert "stopped: LEDs off, camera released, log closed" in text
    assert any("STOPPING=1" in m for _, m in notify.messages)
    assert (tmp_path / "var-lib-fog-companion" / "games.db").exists()  # the games live in StateDirectory
    assert "Traceback" not in text, text
