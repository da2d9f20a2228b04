"""A real Mosquitto for the club tests: Debian's, started on a free loopback port, killed and restarted
at will. The tests skip (saying why) only when there is no mosquitto on the machine: bootstrap.py's
test command installs it from Debian's packages, as it installs Chromium."""

from __future__ import annotations

import getpass
import shutil
import signal
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


def make_certificates(folder: Path) -> None:
    """A club's certificate authority, the broker's certificate (for 127.0.0.1) and a table's, by openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl here to make the test certificates (apt-get install openssl)")

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=club authority", "-days", "2")
    (folder / "server.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for name, extra in (("server", ["-extfile", "server.ext"]), ("table", [])):
        run("req", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", f"{name}.crt", "-days", "2", *extra)


class Broker:
    """Mosquitto on ``127.0.0.1:port`` keeping its clients' sessions in ``folder`` (saved every second,
    as a club's broker keeps them across a power cut)."""

    def __init__(self, folder: Path, tls: bool = False) -> None:
        if MOSQUITTO is None:
            pytest.skip("no mosquitto here: `python3 bootstrap.py test` installs Debian's (apt-get install mosquitto)")
        self.folder, self.port = folder, free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        listeners = ""
        if tls:  # a second listener on TLS that asks every client for a certificate the club's authority signed
            self.tls_port = free_port()
            self.tls_url = f"mqtts://127.0.0.1:{self.tls_port}"
            make_certificates(folder)
            listeners = (f"listener {self.tls_port} 127.0.0.1\ncafile {folder}/ca.crt\ncertfile {folder}/server.crt\n"
                         f"keyfile {folder}/server.key\nrequire_certificate true\n")
        (folder / "mosquitto.conf").write_text(
            f"per_listener_settings false\nallow_anonymous true\nlistener {self.port} 127.0.0.1\n{listeners}"
            "persistence true\n"
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

    def stall(self, stalled: bool) -> None:
        """The broker stops answering while its connections stay open (SIGSTOP), or goes on (SIGCONT)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP if stalled else signal.SIGCONT)

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
