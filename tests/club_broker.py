"""A real Mosquitto for the club tests: Debian's, started on a free loopback port, killed and restarted
at will. The tests skip (saying why) only when there is no mosquitto on the machine: bootstrap.py's
test command installs it from Debian's packages, as it installs Chromium."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """Mosquitto on ``127.0.0.1:port`` keeping its clients' sessions in ``folder`` (saved every second,
    as a club's broker keeps them across a power cut)."""

    def __init__(self, folder: Path) -> None:
        if MOSQUITTO is None:
            pytest.skip("no mosquitto here: `python3 bootstrap.py test` installs Debian's (apt-get install mosquitto)")
        self.folder, self.port = folder, free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
            f"persistence_location {folder}/\nautosave_interval 1\nlog_dest file {folder}/mosquitto.log\n"
            f"user {getpass.getuser()}\n")  # started as root it would drop to 'mosquitto', who may not write here
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("mosquitto did not start: " + self.log())

    def kill(self) -> None:
        """The broker dies (SIGKILL: no goodbye to anyone, nothing saved on the way out)."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def saved_since(self, moment: float) -> bool:
        """The sessions were written to disk after ``moment`` (the autosave)."""
        db = self.folder / "mosquitto.db"
        return db.exists() and db.stat().st_mtime > moment

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
