"""An in-process event bus: the session publishes, the LEDs and the panel subscribe.

Each subscriber gets its own queue and thread, so a slow or broken subscriber can neither
block the session nor crash it: its exceptions are counted and logged, and when it falls far
behind the oldest of its undelivered events are dropped (and counted) rather than letting
memory grow.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """Something that happened in a game: ``kind`` (e.g. ``move``, ``out-of-sync``) and data."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None  # position in the game's log, once persisted
    snapshot: Any = field(default=None, compare=False, repr=False)  # the session as it was (companion.session)
    at: float = field(default_factory=time.time)


class Subscription:
    """A subscriber's queue and delivery thread. ``close()`` unsubscribes."""

    _ids = itertools.count(1)

    def __init__(self, bus: EventBus, callback: Callable[[Event], None], kinds: frozenset[str] | None,
                 max_backlog: int) -> None:
        self.id = next(self._ids)
        self.bus = bus
        self.callback = callback
        self.kinds = kinds
        self.queue: queue.Queue[Event | None] = queue.Queue(maxsize=max_backlog)
        self.errors = 0
        self.dropped = 0
        self.delivered = 0
        self._thread = threading.Thread(target=self._run, name=f"subscriber-{self.id}", daemon=True)
        self._thread.start()

    def offer(self, event: Event) -> None:
        if self.kinds is not None and event.kind not in self.kinds:
            return
        while True:
            try:
                self.queue.put_nowait(event)
                return
            except queue.Full:  # too far behind: drop the oldest rather than block the session
                try:
                    self.queue.get_nowait()
                    self.queue.task_done()
                    self.dropped += 1
                except queue.Empty:
                    pass

    def _run(self) -> None:
        while True:
            event = self.queue.get()
            if event is None:
                self.queue.task_done()
                return
            try:
                self.callback(event)
                self.delivered += 1
            except Exception:
                self.errors += 1
                log.exception("event subscriber %s failed on %s", self.id, event.kind)
            finally:
                self.queue.task_done()

    def close(self, wait: float = 1.0) -> None:
        self.bus._remove(self)
        try:
            self.queue.put_nowait(None)
        except queue.Full:
            pass
        self._thread.join(timeout=wait)

    def drain(self, timeout: float = 2.0) -> bool:
        """Wait until everything queued so far was handled (for tests and shutdown)."""
        deadline = time.monotonic() + timeout
        while self.queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
        return True


class EventBus:
    def __init__(self, max_backlog: int = 1000) -> None:
        self.max_backlog = max_backlog
        self._subs: list[Subscription] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: Callable[[Event], None], kinds: Iterable[str] | None = None) -> Subscription:
        sub = Subscription(self, callback, frozenset(kinds) if kinds is not None else None, self.max_backlog)
        with self._lock:
            self._subs.append(sub)
        return sub

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)

    def publish(self, event: Event) -> None:
        """Hand the event to every subscriber; returns at once."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.offer(event)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)

    def close(self) -> None:
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.close()


class InlineBus(EventBus):
    """A bus that calls its subscribers on the publisher's thread, in order (the terminal game)."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[Event], None]] = []

    def subscribe(self, callback: Callable[[Event], None], kinds: Iterable[str] | None = None) -> Subscription:
        self._callbacks.append(callback)
        return _NoSubscription()  # type: ignore[return-value]

    def publish(self, event: Event) -> None:
        for callback in list(self._callbacks):
            callback(event)


class _NoSubscription:
    def close(self, wait: float = 1.0) -> None:
        pass
