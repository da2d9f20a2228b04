"""The panel's HTTP server: waitress, sized for a Raspberry Pi at a table full of phones.

Why waitress (docs/panel-server.md has the comparison): it is pure Python with no dependencies,
it runs inside the companion's own process (the session, camera and LEDs live there, so a
forking server such as gunicorn would need a second copy of everything), and idle or slow
connections cost it a socket in one I/O loop, never a thread. A request is handed to one of a
fixed pool of worker threads only once it has fully arrived, so a slow or oversized body is
cut off by the I/O loop without tying up a worker. Every open page holds one worker for its
event stream (and one per camera view), so the pool is sized for 20 phones plus camera viewers.
"""

from __future__ import annotations

import logging
import resource
import threading
from dataclasses import dataclass
from typing import Any

from companion.errors import FogCompanionError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerLimits:
    """What one panel server may hold at once; the defaults fit a Pi 4 with 2 GB."""

    threads: int = 32  # 20 event streams + camera views + ordinary requests
    connection_limit: int = 1000  # idle sockets are cheap; the listen queue takes the rest
    channel_timeout: int = 5  # seconds an idle or stalled connection (no request in flight) is kept
    cleanup_interval: int = 2  # how often idle connections are looked for
    max_request_body: int = 64 * 1024  # the API's bodies are small; bigger ones are cut off at once
    open_files: int = 4096  # the soft limit raised to this (within the hard limit) at start


def raise_open_file_limit(wanted: int) -> int:
    """Raise the soft limit of open files towards ``wanted`` (never above the hard limit); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return soft


class PanelServer:
    """The panel app served on ``host:port`` from a background thread; ``stop`` ends every connection."""

    def __init__(self, app: Any, host: str, port: int, limits: ServerLimits | None = None) -> None:
        from waitress.server import create_server

        self.app = app
        self.limits = limits or ServerLimits()
        fd_limit = raise_open_file_limit(self.limits.open_files)
        connections = max(16, min(self.limits.connection_limit, fd_limit - 64))
        try:
            self._server = create_server(
                app, host=host, port=port, threads=self.limits.threads, connection_limit=connections,
                channel_timeout=self.limits.channel_timeout, cleanup_interval=self.limits.cleanup_interval,
                max_request_body_size=self.limits.max_request_body, ident="fog-companion",
                asyncore_use_poll=True,  # select() cannot watch sockets numbered above 1024
                expose_tracebacks=False, clear_untrusted_proxy_headers=True)
        except OSError as exc:
            raise FogCompanionError(f"the panel cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        except ValueError as exc:  # waitress: an unknown host name
            raise FogCompanionError(f"the panel cannot listen on {host}:{port}: {exc}") from None
        self.connection_limit = connections
        self._thread = threading.Thread(target=self._server.run, name="panel", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Open event and camera streams end, workers finish, every socket is closed."""
        from waitress import wasyncore

        self.app.extensions["stopping"].set()
        logging.getLogger("waitress").setLevel(logging.CRITICAL)  # closing sockets under it is expected
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        wasyncore.close_all(self._server._map)
        self._thread.join(timeout)
