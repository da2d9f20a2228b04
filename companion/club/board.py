"""The club page's picture of every table: a subscriber to the broker, and the league it feeds.

It subscribes to every table's ``state`` (retained: a page opened mid-evening sees every table at
once), ``online`` and ``event`` with QoS 1. An event is named by its table, game and log position:
one that arrives again (QoS 1 delivers at least once: a message whose acknowledgement was lost when
the broker went down is sent again) is counted as a repeat and not shown twice, and the page's
feed of each table stays in the game's order. A finished game's state goes into the league.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from companion.club import ROOT, Broker
from companion.club.league import League

log = logging.getLogger(__name__)

FEED = 8  # events shown per table


class ClubBoard:
    """Every table of the club as the broker tells it; ``start`` subscribes, ``stop`` ends."""

    def __init__(self, broker: Broker, data_dir: Path, client_id: str = "fog-companion-club") -> None:
        self.broker = broker
        self.league = League(data_dir / "club.db")
        self.tables: dict[str, dict[str, Any]] = {}
        self.version = 0  # changes with every news: a page asks for what is newer
        self.repeats = 0  # events delivered again and not shown twice
        self.connected = False
        self.received: deque[tuple[float, dict[str, Any]]] = deque(maxlen=10000)  # (when, event): the benchmark's
        self._seen: dict[tuple[str, str], int] = {}  # (table, game) -> newest log position shown
        self._lock = threading.Condition()
        self._client = self._make_client(client_id)

    def _make_client(self, client_id: str) -> Any:
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                             clean_session=False)  # the broker keeps the events meant for us while we are away
        b = self.broker
        if b.username:
            client.username_pw_set(b.username, b.password or None)
        if b.tls:
            client.tls_set(ca_certs=b.ca_file or None, certfile=b.cert_file or None, keyfile=b.key_file or None)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
        self.league.close()

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any = None) -> None:
        if reason.is_failure:
            log.warning("the club broker %s refused the club page: %s", self.broker, reason)
            return
        client.subscribe([(f"{ROOT}/+/state", 1), (f"{ROOT}/+/online", 1), (f"{ROOT}/+/event", 1)])
        self._changed(connected=True)

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, _reason: Any, _p: Any = None) -> None:
        self._changed(connected=False)

    def _changed(self, connected: bool | None = None) -> None:
        with self._lock:
            if connected is not None:
                self.connected = connected
            self.version += 1
            self._lock.notify_all()

    def _on_message(self, _c: Any, _u: Any, message: Any) -> None:
        parts = message.topic.split("/")
        if len(parts) != 3:
            return
        table, leaf = parts[1], parts[2]
        try:
            payload = json.loads(message.payload) if leaf != "online" else message.payload.decode()
        except (ValueError, UnicodeDecodeError):
            log.warning("the club page ignores a message on %s that is not JSON", message.topic)
            return
        with self._lock:
            entry = self.tables.setdefault(table, {"table": table, "state": None, "online": None, "feed": []})
            if leaf == "online":
                entry["online"] = payload == "true"
            elif leaf == "state" and isinstance(payload, dict):
                entry["state"] = payload
                entry["updated"] = time.time()
            elif leaf == "event" and isinstance(payload, dict):
                if not self._new_event(table, payload):
                    return
                entry["feed"] = (entry["feed"] + [payload])[-FEED:]
                self.received.append((time.time(), payload))
            else:
                return
            self.version += 1
            self._lock.notify_all()
        if leaf == "state" and isinstance(payload, dict) and payload.get("over"):
            self.league.record(payload)

    def _new_event(self, table: str, event: dict[str, Any]) -> bool:
        key, seq = (table, str(event.get("game_id"))), event.get("seq")
        if not isinstance(seq, int):
            return False
        if seq <= self._seen.get(key, 0):
            self.repeats += 1
            return False
        self._seen[key] = seq
        return True

    def wait(self, since: int, timeout: float) -> int:
        """Wait until there is news newer than ``since`` (or ``timeout``): the version now."""
        with self._lock:
            if self.version == since:
                self._lock.wait(timeout)
            return self.version

    def snapshot(self) -> dict[str, Any]:
        """What the club page shows: every table (its state, online, latest events) and the league."""
        with self._lock:
            tables = [dict(t, feed=list(t["feed"])) for _, t in sorted(self.tables.items())]
            version, connected = self.version, self.connected
        return {"version": version, "broker": str(self.broker), "connected": connected, "tables": tables,
                "league": self.league.standings()}
