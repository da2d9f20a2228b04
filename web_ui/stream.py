"""The panel's live streams: ``GET /events`` (Server-Sent Events) and the camera's MJPEG stream.

On connect an event stream gets the whole current state (``event: state``); after that every
session event is forwarded (``event: game``, with its kind and data) followed by the new state,
and the virtual LEDs are sent whenever the strip's picture changes (``event: leds``).

Why a hub instead of a generator per connection: a generator holds one of the server's worker
threads for as long as the page stays open, so 32 open pages used to take every worker and
``/api/state`` stopped answering. Here one thread (``StreamHub``) renders each event and state
once and hands the bytes to every open stream, and one more paces the camera's frames for every
viewer. The panel's server (``web_ui/server.py``) gives an open stream's connection to the hub
once its headers are written, so a stream costs a socket and a small buffer, never a worker.
Behind any other WSGI server (Flask's test client, say) a stream still works, holding a worker
the old way, fed by the same hub.

Streams are still counted, to bound memory and bandwidth on a Pi: past ``StreamLimits`` a new
stream is answered ``503`` with ``Retry-After`` and the pages poll ``/api/state`` meanwhile; one
address may hold only a few, so one device cannot take every slot. A stream whose client stops
reading is dropped (events) or skips frames (camera) instead of growing a buffer.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from companion.errors import FogCompanionError
from companion.table.secrecy import filter_for, redact
from web_ui.model import leds_json, state_json
from web_ui.seats import current_claim

bp = Blueprint("stream", __name__)
log = logging.getLogger(__name__)

LED_INTERVAL = 0.2  # seconds between checks of the strip's picture
IDLE_EXIT = 5.0  # seconds a hub thread stays without any stream before it ends (started again on demand)
STALLED = 30.0  # seconds a camera viewer may leave frames unread before it is dropped
HANDOFF = "fog.handoff"  # environ key: the server can carry a stream without a worker (web_ui/server.py)
FEED = "fog.feed"  # environ key: the feed the server hands the connection to once the head is written
EVENTS_HEAD = b"retry: 2000\n\n"


@dataclass(frozen=True)
class StreamLimits:
    """How many live streams the panel serves at once (``app.config["STREAM_LIMITS"]``)."""

    event_streams: int = 100  # open pages; each costs a socket and a buffer of at most event_backlog
    camera_streams: int = 12  # camera views; each is sent every frame (bandwidth on the Pi's Wi-Fi)
    per_address: int = 6  # streams of both kinds one address may hold (a browser opens 6 per host anyway)
    retry_after: int = 10  # seconds a refused page is told to wait before it tries the stream again
    event_backlog: int = 1 << 20  # unread bytes after which an event stream is dropped (it reconnects)
    camera_backlog: int = 256 << 10  # unread bytes after which a camera viewer skips frames


class StreamsBusy(FogCompanionError):
    """No slot for another stream; the message says which limit, ``retry_after`` when to try again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Sink(Protocol):
    """Where a stream's bytes go: a server connection (web_ui/server.py) or a worker's iterator."""

    def send(self, data: bytes) -> bool:
        """Queue ``data`` for the client; False when it is gone or too far behind (the feed is dropped)."""
        ...

    def backlog(self) -> int:
        """Bytes queued that the client has not taken yet."""
        ...

    def stalled(self, seconds: float) -> bool:
        """True when bytes have waited and the client took none for ``seconds``."""
        ...

    def end(self) -> None:
        """Finish the response (the stream ended or the panel stops); the connection is closed after it."""
        ...


class Feed:
    """One open stream: its kind, who opened it, how much it may get, and its sink once attached."""

    def __init__(self, hub: StreamHub, kind: str, address: str, limit: int | None, overlay: bool = False,
                 seat: str | None = None, held: Any = None) -> None:
        self.hub = hub
        self.seat = seat  # the seat the phone joined (web_ui/seats.py): it is sent that seat's view only
        self.held = held  # () -> does the phone still hold its seat? (released on the table's screen: no)
        self.kind = kind  # "events" or "camera"
        self.address = address
        self.limit = limit  # end after this many game events or frames (tests and scripts)
        self.overlay = overlay
        self.sent = 0
        self.sink: Sink | None = None
        self.released = False

    @property
    def backlog_limit(self) -> int:
        limits = self.hub.limits
        return limits.event_backlog if self.kind == "events" else 4 * limits.camera_backlog

    def attach(self, sink: Sink) -> None:
        """From now on ``sink`` gets this stream's bytes (called once the response's head is out)."""
        self.hub.attach(self, sink)

    def release(self) -> None:
        """The stream is over: its slot is free again (safe to call more than once, from any thread)."""
        self.hub.release(self)


class QueueSink:
    """A stream served by a worker thread that iterates it (any WSGI server but ours)."""

    def __init__(self, feed: Feed, head: bytes, stopping: threading.Event) -> None:
        self.feed = feed
        self._head: bytes | None = head
        self._stopping = stopping
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._queued = 0
        self._taken_at = time.monotonic()
        self._closed = False

    def send(self, data: bytes) -> bool:
        with self._lock:
            if self._closed or self._queued > self.feed.backlog_limit:
                return False
            self._queued += len(data)
        self._queue.put(data)
        return True

    def backlog(self) -> int:
        return self._queued

    def stalled(self, seconds: float) -> bool:
        return self._queued > 0 and time.monotonic() - self._taken_at > seconds

    def end(self) -> None:
        self._queue.put(None)

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if self._head is not None:
            head, self._head = self._head, None
            return head
        while True:
            try:
                data = self._queue.get(timeout=0.5)
            except queue.Empty:
                if self._stopping.is_set():
                    raise StopIteration from None
                continue
            if data is None:
                raise StopIteration
            with self._lock:
                self._queued -= len(data)
                self._taken_at = time.monotonic()
            return data

    def close(self) -> None:
        """Called by the WSGI server when the response is done or the client left."""
        self._closed = True
        self.feed.release()


def _sse(kind: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def mjpeg_part(data: bytes) -> bytes:
    return b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(data)).encode() + b"\r\n\r\n" + \
        data + b"\r\n"


class StreamHub:
    """Every open stream of one panel, fed by one events thread and one camera thread."""

    def __init__(self, companion: Any, stopping: threading.Event, limits: StreamLimits, keepalive: float,
                 fps: float) -> None:
        self.companion = companion
        self.stopping = stopping
        self.limits = limits
        self.keepalive = keepalive
        self.period = 1.0 / fps
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._open: Counter[str] = Counter()  # kind -> streams admitted and not yet released
        self._by_address: Counter[str] = Counter()
        self._inbox: deque[Any] = deque()  # Feeds to greet and Events to forward, in order
        self._camera_feeds: list[Feed] = []
        self._events_thread: threading.Thread | None = None
        self._camera_thread: threading.Thread | None = None

    # ------------------------------------------------------------------ admission
    def open(self, kind: str, address: str, limit: int | None = None, overlay: bool = False,
             seat: str | None = None, held: Any = None) -> Feed:
        """A slot for a new stream, or :class:`StreamsBusy` saying which limit was reached."""
        cap = self.limits.event_streams if kind == "events" else self.limits.camera_streams
        what = "live event streams" if kind == "events" else "camera streams"
        retry = self.limits.retry_after
        with self._lock:
            if self.stopping.is_set():
                raise StreamsBusy("the panel is stopping", retry)
            if self._open[kind] >= cap:
                raise StreamsBusy(f"the panel already serves {self._open[kind]} {what}, the most it serves at "
                                  f"once; try again in {retry} s", retry)
            if self._by_address[address] >= self.limits.per_address:
                raise StreamsBusy(f"{address} already holds {self._by_address[address]} live streams, the most one "
                                  f"device may hold; close a page or try again in {retry} s", retry)
            self._open[kind] += 1
            self._by_address[address] += 1
        return Feed(self, kind, address, limit, overlay, seat, held)

    def release(self, feed: Feed) -> None:
        with self._lock:
            if feed.released:
                return
            feed.released = True
            self._open[feed.kind] -= 1
            self._by_address[feed.address] -= 1
            if self._by_address[feed.address] <= 0:
                del self._by_address[feed.address]
            if feed in self._camera_feeds:
                self._camera_feeds.remove(feed)

    def counts(self) -> dict[str, int]:
        """Streams open now, by kind (for tests and the benchmark's figures)."""
        with self._lock:
            return {"events": self._open["events"], "camera": self._open["camera"]}

    def attach(self, feed: Feed, sink: Sink) -> None:
        feed.sink = sink
        with self._lock:
            if feed.released or self.stopping.is_set():
                sink.end()
                return
            if feed.kind == "events":
                self._inbox.append(feed)
                if self._events_thread is None:
                    self._events_thread = threading.Thread(target=self._run_events, name="panel-events", daemon=True)
                    self._events_thread.start()
            else:
                self._camera_feeds.append(feed)
                if self._camera_thread is None:
                    self._camera_thread = threading.Thread(target=self._run_camera, name="panel-camera", daemon=True)
                    self._camera_thread.start()
            self._wake.notify_all()

    def _deliver(self, event: Any) -> None:
        with self._lock:
            self._inbox.append(event)
            self._wake.notify_all()

    # ------------------------------------------------------------------ events
    def _send(self, feed: Feed, data: str | bytes) -> bool:
        if feed.released or feed.sink is None:
            return False
        if feed.sink.send(data.encode() if isinstance(data, str) else data):
            return True
        feed.release()  # gone, or so far behind that a fresh start (it reconnects) is better
        return False

    def _end(self, feed: Feed) -> None:
        if feed.sink is not None:
            feed.sink.end()
        feed.release()

    def _run_events(self) -> None:
        session = self.companion.session
        subscription = session.bus.subscribe(self._deliver)
        feeds: list[Feed] = []
        last_leds: Any = None
        last_beat = idle_since = time.monotonic()
        try:
            while not self.stopping.is_set():
                with self._lock:
                    if not self._inbox:
                        self._wake.wait(LED_INTERVAL)
                    items = list(self._inbox)
                    self._inbox.clear()
                for k, item in enumerate(items):
                    try:
                        if isinstance(item, Feed):
                            if self._greet(item):
                                feeds.append(item)
                        else:
                            burst_over = not any(not isinstance(later, Feed) for later in items[k + 1:])
                            self._forward(item, feeds, burst_over)
                    except Exception:  # a bug drawing one state must not end every page's stream
                        log.exception("the event stream could not send %r", getattr(item, "kind", "a greeting"))
                        if isinstance(item, Feed):
                            self._end(item)
                try:
                    leds = leds_json(getattr(self.companion, "hardware", None))
                except Exception:
                    log.exception("the event stream could not read the LEDs")
                    leds = None
                if leds is not None and leds["pixels"] != last_leds:
                    last_leds = leds["pixels"]
                    text = _sse("leds", leds).encode()
                    for feed in feeds:
                        self._send(feed, text)
                if time.monotonic() - last_beat > self.keepalive:
                    last_beat = time.monotonic()
                    for feed in feeds:
                        self._send(feed, b": keep-alive\n\n")
                feeds = [f for f in feeds if not f.released]
                if feeds:
                    idle_since = time.monotonic()
                elif time.monotonic() - idle_since > IDLE_EXIT:
                    with self._lock:
                        if not self._inbox and not self._open["events"]:
                            self._events_thread = None
                            return
        finally:
            subscription.close(wait=0.1)
            for feed in feeds:
                self._end(feed)
            with self._lock:
                if self._events_thread is threading.current_thread():
                    self._events_thread = None

    def _greet(self, feed: Feed) -> bool:
        snap = self.companion.session.snapshot()
        text = _sse("state", _told_state(self.companion, snap, feed.seat), snap.seq)
        leds = leds_json(getattr(self.companion, "hardware", None))
        if leds is not None:
            text += _sse("leds", leds)
        return self._send(feed, text)

    def _forward(self, event: Any, feeds: list[Feed], burst_over: bool) -> None:
        """The event and (after a burst) the new state, drawn once per seat among the open streams:
        each phone is sent what its seat may see, a phone joined to none the shared table."""
        rendered: dict[str | None, bytes] = {}
        for feed in list(feeds):
            if feed.held is not None and not feed.held():  # its seat was released: the page reconnects without it
                self._end(feed)
                feeds.remove(feed)
                continue
            if feed.seat not in rendered:
                rendered[feed.seat] = self._render(event, burst_over, feed.seat)
        for feed in feeds:
            if self._send(feed, rendered[feed.seat]):
                feed.sent += 1
                if feed.limit is not None and feed.sent >= feed.limit:
                    self._end(feed)

    def _render(self, event: Any, burst_over: bool, seat: str | None) -> bytes:
        data, snap = event.data, event.snapshot
        if snap is not None:  # the one filter: a face-down piece, a closed fist, as ``seat`` may read them
            data = redact(snap.game, snap.state, data, seat)
        text = _sse("game", {"kind": event.kind, "data": data, "seq": event.seq}, event.seq)
        if burst_over and snap is not None:  # one state after a burst is enough
            text += _sse("state", _told_state(self.companion, snap, seat), snap.seq)
        return text.encode()

    # ------------------------------------------------------------------ camera
    def _run_camera(self) -> None:
        seen, failed = 0, False
        idle_since = time.monotonic()
        try:
            while not self.stopping.is_set():
                with self._lock:
                    feeds = list(self._camera_feeds)
                    if not feeds:
                        if time.monotonic() - idle_since > IDLE_EXIT:
                            self._camera_thread = None
                            return
                        self._wake.wait(1.0)
                        continue
                idle_since = start = time.monotonic()
                camera = getattr(self.companion, "camera", None)
                if camera is None:
                    for feed in feeds:
                        self._end(feed)
                    continue
                try:
                    seen = camera.wait_frame(seen, timeout=1.0)  # no new frame within a second: the picture again
                    self._frame(camera, feeds)
                except Exception:  # the camera's own faults are pictures; anything else is a bug, logged once
                    if not failed:
                        log.exception("the camera stream could not send a frame")
                    failed = True
                    self.stopping.wait(1.0)
                    continue
                failed = False
                self.stopping.wait(max(0.0, self.period - (time.monotonic() - start)))
        finally:
            with self._lock:
                feeds = list(self._camera_feeds)
                if self._camera_thread is threading.current_thread():
                    self._camera_thread = None
            if self.stopping.is_set():
                for feed in feeds:
                    self._end(feed)

    def _frame(self, camera: Any, feeds: list[Feed]) -> None:
        """The picture now to every viewer that has taken the last one (a slow one skips it)."""
        parts: dict[bool, bytes | None] = {}
        conceal = concealed(self.companion)
        for feed in feeds:
            sink = feed.sink
            if sink is None or feed.released:
                continue
            if sink.backlog() > self.limits.camera_backlog:  # a slow viewer skips this frame
                if sink.stalled(STALLED):
                    self._end(feed)
                continue
            if feed.overlay not in parts:
                data = picture(camera, feed.overlay, conceal)
                parts[feed.overlay] = None if data is None else mjpeg_part(data)
            part = parts[feed.overlay]
            if part is not None and self._send(feed, part):
                feed.sent += 1
                if feed.limit is not None and feed.sent >= feed.limit:
                    self._end(feed)


def picture(camera: Any, overlay: bool, conceal: frozenset[str] = frozenset()) -> bytes | None:
    """The frame a viewer is sent: what the camera shows now, or a picture saying its fault when it has
    one; the markers of the pieces in ``conceal`` (:func:`concealed`) painted over, and its overlay naming none."""
    view = getattr(camera, "view_jpeg", None) or camera.snapshot
    return view(overlay=overlay, conceal=conceal) if conceal else view(overlay=overlay)


def concealed(companion: Any) -> frozenset[str]:
    """The pieces the camera picture's overlay must not name: those the shared table may not know (the
    picture is for anyone in the room). The one filter's, as every answer's (companion/table/secrecy.py)."""
    session = getattr(companion, "session", None)
    snap = session.snapshot() if session is not None else None
    if snap is None or snap.state is None:
        return frozenset()
    return frozenset(filter_for(snap.game, snap.state, None).secret)


_hub_lock = threading.Lock()


def hub_of(app: Flask) -> StreamHub:
    """The app's stream hub (made on first use: an app that never streams starts no thread)."""
    with _hub_lock:
        hub = app.extensions.get("streams")
        if hub is None:
            hub = app.extensions["streams"] = StreamHub(
                app.extensions["companion"], app.extensions["stopping"],
                app.config.get("STREAM_LIMITS") or StreamLimits(), float(app.config["SSE_KEEPALIVE"]),
                float(app.config["MJPEG_FPS"]))
        return hub


def busy_response(exc: StreamsBusy) -> Any:
    """503 with ``Retry-After``: the pages poll meanwhile and try the stream again after it."""
    return jsonify(error=str(exc), kind="streams-busy", retry_after=exc.retry_after, status=503), 503, \
        {"Retry-After": str(exc.retry_after), "Cache-Control": "no-store"}


def stream_response(feed: Feed, head: bytes, mimetype: str, headers: dict[str, str]) -> Response:
    """The response that starts ``feed``: handed to the hub by our server, else iterated by a worker."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if request.method == "HEAD":  # the head only: no stream follows
        feed.release()
        return Response(b"", mimetype=mimetype, headers=headers)
    if request.environ.get(HANDOFF):
        request.environ[FEED] = feed  # the server attaches the connection once this head is written
        return Response(iter([head]), mimetype=mimetype, headers=headers)
    sink = QueueSink(feed, head, app.extensions["stopping"])
    feed.attach(sink)
    return Response(sink, mimetype=mimetype, headers=headers)


def _count(name: str) -> int | None:
    raw = request.args.get(name, "")
    return int(raw) if raw.isdigit() else None


@bp.get("/events")
def events() -> Any:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    seat, held = current_claim()
    try:
        feed = hub_of(app).open("events", request.remote_addr or "unknown", _count("limit"), seat=seat, held=held)
    except StreamsBusy as exc:
        return busy_response(exc)
    return stream_response(feed, EVENTS_HEAD, "text/event-stream",
                           {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _told_state(companion: Any, snap: Any, seat: str | None) -> dict[str, Any]:
    """The state a stream sends, through the one filter as every HTTP answer is (web_ui/viewers.py)."""
    out = state_json(companion, snap, seat)
    return redact(snap.game, snap.state, out, seat) if snap.state is not None else out


def camera_stream(overlay: bool) -> Any:
    """``GET /stream.mjpg`` once the camera route found a camera (``?frames=N`` ends after N frames)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    try:
        feed = hub_of(app).open("camera", request.remote_addr or "unknown", _count("frames"), overlay)
    except StreamsBusy as exc:
        return busy_response(exc)
    return stream_response(feed, b"", "multipart/x-mixed-replace; boundary=frame", {"Cache-Control": "no-store"})
