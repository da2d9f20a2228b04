"""sd_notify without a dependency: READY, WATCHDOG and STOPPING datagrams to ``$NOTIFY_SOCKET``.

Under ``Type=notify`` systemd waits for ``READY=1`` before it calls the service started, and with
``WatchdogSec=`` it restarts the service when ``WATCHDOG=1`` stops arriving. The main loop sends
the ping only while the camera thread is alive and stepping, so a hung camera ends in a restart
instead of a companion that looks up but sees nothing. Outside systemd every call does nothing.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET") or None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        watchdog = usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid()))
        # Ping at twice the rate systemd needs, as sd_watchdog_enabled(3) advises.
        self.interval = int(usec) / 1e6 / 2 if watchdog else 5.0
        self.watchdog_enabled = bool(watchdog)
        self.sent: list[str] = []

    def notify(self, message: str) -> bool:
        if not self.address:
            return False
        address = self.address
        if address.startswith("@"):  # an abstract socket
            address = "\0" + address[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(address)
                sock.sendall(message.encode())
        except OSError:
            return False
        self.sent.append(message)
        return True

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        return self.watchdog_enabled and self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")
