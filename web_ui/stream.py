"""``GET /events``: Server-Sent Events carrying the session's events to every open page.

On connect the client gets the whole current state (``event: state``); after that every
session event is forwarded (``event: game``, with its kind and data) followed by the new state,
and the virtual LEDs are sent whenever the strip's picture changes (``event: leds``). Each
connection has its own queue fed by its own bus subscription, so a slow phone never holds up
the game or the other phones.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from web_ui.model import leds_json, state_json

bp = Blueprint("stream", __name__)

LED_INTERVAL = 0.2  # seconds between checks of the strip's picture


def _sse(kind: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@bp.get("/events")
def events() -> Response:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    companion = app.extensions["companion"]
    stopping = app.extensions["stopping"]
    keepalive = float(app.config["SSE_KEEPALIVE"])
    limit = request.args.get("limit", "")
    max_events = int(limit) if limit.isdigit() else None  # tests and scripts: end after this many game events
    inbox: queue.Queue[Any] = queue.Queue(maxsize=5000)

    def deliver(event: Any) -> None:
        try:
            inbox.put_nowait(event)
        except queue.Full:  # this client stopped reading; it will get a fresh state when it reconnects
            pass

    subscription = companion.session.bus.subscribe(deliver)

    def generate() -> Iterator[str]:
        sent = 0
        last_leds = None
        last_beat = time.monotonic()
        try:
            yield "retry: 2000\n\n"
            first = companion.session.snapshot()
            yield _sse("state", state_json(companion, first), first.seq)
            while not stopping.is_set():
                try:
                    event = inbox.get(timeout=LED_INTERVAL)
                except queue.Empty:
                    event = None
                if event is not None:
                    yield _sse("game", {"kind": event.kind, "data": event.data, "seq": event.seq}, event.seq)
                    if inbox.empty() and event.snapshot is not None:  # one state after a burst is enough
                        yield _sse("state", state_json(companion, event.snapshot), event.snapshot.seq)
                    sent += 1
                    if max_events is not None and sent >= max_events:
                        return
                leds = leds_json(getattr(companion, "hardware", None))
                if leds is not None and leds["pixels"] != last_leds:
                    last_leds = leds["pixels"]
                    yield _sse("leds", leds)
                if time.monotonic() - last_beat > keepalive:
                    last_beat = time.monotonic()
                    yield ": keep-alive\n\n"
        finally:
            subscription.close(wait=0.1)

    return Response(generate(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
