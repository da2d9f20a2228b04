"""Settled camera pictures are read on their own thread, so the camera never waits for the rules.

Reading a picture can mean a search of tens of thousands of positions (The FOG's movements);
on the camera's thread that would stall frames and the watchdog. The camera hands each settled
picture to :meth:`Reconciler.post` and goes on; the worker reads the newest one (a picture that
was replaced before it was read is skipped: only the table as it is now matters).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Reconciler:
    def __init__(self, handle: Callable[[Any], None]) -> None:
        self.handle = handle
        self._cv = threading.Condition()
        self._latest: Any = None
        self._has = False
        self._busy = False
        self._stopped = False
        self.errors = 0
        self._thread = threading.Thread(target=self._run, name="reconciler", daemon=True)
        self._thread.start()

    def post(self, picture: Any) -> None:
        """Hand over a settled picture; returns at once."""
        with self._cv:
            self._latest, self._has = picture, True
            self._cv.notify_all()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._has and not self._stopped:
                    self._cv.wait()
                if self._stopped:
                    return
                picture, self._has, self._busy = self._latest, False, True
            try:
                self.handle(picture)
            except Exception:  # noqa: BLE001 - one bad reading must not end the readings
                self.errors += 1
                log.exception("reading a camera picture failed")
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Until every posted picture was read (for tests and shutdown); False on timeout."""
        with self._cv:
            return self._cv.wait_for(lambda: not self._has and not self._busy, timeout)

    def stop(self) -> None:
        with self._cv:
            self._stopped = True
            self._cv.notify_all()
        self._thread.join(timeout=2.0)
