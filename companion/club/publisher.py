"""A table's companion publishing to the club's broker, without ever making the table wait.

The session's event bus hands each event to :meth:`Publisher._on_event` on the bus's own thread
(never the camera's or the session's): it becomes rows of the :class:`~companion.club.outbox.Outbox`
(the event, the table's new ``state``, a ``game-over``) and that is all the table pays. A thread of
the publisher sends the rows one at a time with QoS 1 and removes each once the broker acknowledged
it, so after a broker restart or a lost Wi-Fi they go out in order, none lost. paho's network loop
reconnects by itself; while the broker cannot be reached (or acknowledges nothing for
:data:`SLOW_SECONDS`) the panel shows a notice with the count of messages waiting, gone once they
are sent.

One message at a time is deliberate: an event's place in the feed is its place in the game, and a
table makes a move every few seconds, far under what one acknowledged message per round trip carries.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from companion.club import ROOT, Broker, broker_of, check_secret_file, table_id, table_name, topic
from companion.club.discovery import discovery_messages
from companion.club.outbox import Message, Outbox
from companion.club.summary import dumps, event_message, game_over, table_state
from companion.session.events import Event

log = logging.getLogger(__name__)

SLOW_SECONDS = 5.0  # a message unacknowledged this long: the broker is slow, and the panel says so
KEEPALIVE = 15  # seconds between MQTT pings: a broker gone without a word is noticed within 1.5 x this


class Publisher:
    """One table's feed to the broker: ``start`` connects and sends, ``stop`` says the table is offline."""

    def __init__(self, session: Any, config: Any, data_dir: Path, say: Any = print) -> None:
        club = config["club"]
        check_secret_file(config.source, club)
        broker = broker_of(club)
        assert broker is not None, "a publisher needs [club] broker"
        self.broker: Broker = broker
        self.session, self.say = session, say
        self.name = table_name(club)
        self.table = table_id(self.name)
        self.home_assistant = bool(club["home_assistant"])
        self.outbox = Outbox(data_dir / "club-outbox.db", club["queue_limit"])
        self.connected = False
        self.notice: str | None = None  # what the panel shows while the broker cannot be reached
        self._why: str | None = None  # why it cannot (None: connected, or not tried yet)
        self.sent = 0
        self._titles: dict[str, str] = {}
        self._stopping = threading.Event()
        self._acks = threading.Condition()
        self._acked: set[int] = set()  # message ids the broker acknowledged, not yet taken off the outbox
        self._client = self._make_client()
        self._thread = threading.Thread(target=self._send_loop, name="club-publisher", daemon=True)
        self._subscription: Any = None

    def _make_client(self) -> Any:
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{ROOT}-{self.table}",
                             protocol=mqtt.MQTTv311, clean_session=True)
        b = self.broker
        if b.username:
            client.username_pw_set(b.username, b.password or None)
        if b.tls:
            client.tls_set(ca_certs=b.ca_file or None, certfile=b.cert_file or None, keyfile=b.key_file or None)
        client.will_set(topic(self.table, "online"), b"false", qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_connect_fail = lambda *_a: self._down("it does not answer")
        return client

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        """Connect in the background (a broker away at start is a notice, never a failure to start)."""
        self._subscription = self.session.bus.subscribe(self._on_event)
        self._put_state(self.session.snapshot())
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE)
        self._client.loop_start()
        self._thread.start()
        self.say(f"club: publishing as {self.name!r} to {self.broker} under {ROOT}/{self.table}/")

    def stop(self) -> None:
        """Unsubscribe, say the table is offline (the will says it when the Pi loses power), disconnect.
        Whatever is still owed stays in the outbox for the next start."""
        self._stopping.set()
        if self._subscription is not None:
            self._subscription.close()
        self.outbox.wake()
        self._thread.join(timeout=5)
        if self.connected:
            try:
                info = self._client.publish(topic(self.table, "online"), b"false", qos=1, retain=True)
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):  # the broker went meanwhile: its last will says it for us
                pass
        self._client.disconnect()
        self._client.loop_stop()
        self.outbox.close()
        self._tell(None)

    # ------------------------------------------------------------------ events -> outbox
    def _on_event(self, event: Event) -> None:
        snap = event.snapshot
        if snap is None or snap.game_id is None:
            return
        if event.seq is not None:  # a logged event: its log position names it once for ever
            message = event_message(event, self.table)
            self.outbox.put(topic(self.table, "event"), dumps(message), game=snap.game_id, seq=event.seq)
        self._put_state(snap)
        if not self.connected and self._why is not None:
            self._down(self._why)  # the notice's count of what waits follows the game

    def _put_state(self, snap: Any) -> None:
        if snap.game_id is None:
            return
        state = table_state(snap, self.table, self.name, self._title(snap.game_id))
        self.outbox.put(topic(self.table, "state"), dumps(state), retain=True)
        if state.get("over"):  # once per game, even across restarts (its own mark in the outbox)
            self.outbox.put(topic(self.table, "game-over"), dumps(game_over(state)),
                            game=f"{snap.game_id}#over", seq=1)

    def _title(self, game_id: str) -> str:
        if game_id not in self._titles:
            try:
                self._titles[game_id] = self.session.store.record(game_id).title
            except Exception:  # noqa: BLE001 - a title is a nicety: the game's id stands in
                self._titles[game_id] = game_id
        return self._titles[game_id]

    # ------------------------------------------------------------------ outbox -> broker
    def _send_loop(self) -> None:
        while not self._stopping.is_set():
            if not self.connected:
                self._stopping.wait(0.2)
                continue
            message = self.outbox.head(timeout=1.0)
            if message is None:
                continue
            try:
                self._send(message)
            except Exception:  # noqa: BLE001 - the feed must outlive any one message
                log.exception("publishing to the club broker failed")
                self._stopping.wait(1.0)

    def _send(self, message: Message) -> None:
        with self._acks:
            info = self._client.publish(message.topic, message.payload, qos=1, retain=message.retain)
        asked = time.monotonic()
        # paho keeps an unacknowledged message and sends it again itself after a reconnect (a message
        # asked while the connection dropped too): wait for its acknowledgement, never publish it anew
        with self._acks:
            while info.mid not in self._acked and not self._stopping.is_set():
                self._acks.wait(0.5)
                if self.connected and time.monotonic() - asked > SLOW_SECONDS and self.notice is None:
                    self._tell(f"club: the broker {self.broker} is slow to acknowledge; {self._waiting_words()}")
            acked = info.mid in self._acked
            self._acked.discard(info.mid)
        if acked:
            self.outbox.done(message)
            self.sent += 1
            if self.notice is not None and self.connected:
                self._tell(None)

    def _on_publish(self, _client: Any, _userdata: Any, mid: int, _reason: Any = None, _props: Any = None) -> None:
        with self._acks:
            self._acked.add(mid)
            self._acks.notify_all()

    # ------------------------------------------------------------------ connection
    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _props: Any = None) -> None:
        if reason.is_failure:
            self._down(f"it refused this table: {reason}")
            return
        client.publish(topic(self.table, "online"), b"true", qos=1, retain=True)
        if self.home_assistant:
            for where, payload in discovery_messages(self.table, self.name):
                client.publish(where, dumps(payload), qos=1, retain=True)
        self.connected, self._why = True, None
        self.say(f"club: connected to {self.broker}")
        self._tell(None)
        self.outbox.wake()

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any, _props: Any = None) -> None:
        self.connected = False
        if not self._stopping.is_set():
            self._down(f"the connection was lost: {reason}")

    def _down(self, why: str) -> None:
        self.connected = False
        self._why = why
        if self._stopping.is_set():
            return
        self._tell(f"club: the broker {self.broker} cannot be reached ({why}); the game goes on, "
                   f"{self._waiting_words()} when it is back")

    def _waiting_words(self) -> str:
        words = f"{self.outbox.waiting()} message(s) wait and go out in order"
        if self.outbox.dropped:
            words = (f"{self.outbox.dropped} older event(s) were dropped (more than [club] queue_limit waited); "
                     + words)
        return words

    def _tell(self, text: str | None) -> None:
        """Show ``text`` among the panel's notices in place of the last one (None: clear it)."""
        if text == self.notice:
            return
        notices = self.session.store.notices
        if self.notice is not None and self.notice in notices:
            notices.remove(self.notice)
        if text is not None:
            log.warning("%s", text)
        self.notice = text
        if text is not None:
            notices.append(text)
        try:
            self.session.bus.publish(Event("storage-notice", {"message": text or "club: the broker is back"},
                                           snapshot=self.session.snapshot()))
        except Exception:  # noqa: BLE001 - telling the pages must never stop the feed
            log.exception("telling the panel about the club broker failed")

    def idle(self) -> bool:
        """Every event so far is in the outbox and the broker acknowledged all of it (tests, the benchmark)."""
        handed = self._subscription is None or self._subscription.drain(timeout=0.0)
        return bool(handed) and self.outbox.waiting() == 0

    def status(self) -> dict[str, Any]:
        """For the club page and the panel: connected or not, what waits, what was dropped."""
        return {"table": self.table, "name": self.name, "broker": str(self.broker), "connected": self.connected,
                "waiting": self.outbox.waiting() if not self._stopping.is_set() else 0, "sent": self.sent,
                "dropped": self.outbox.dropped, "notice": self.notice}


def start_publisher(companion: Any) -> Publisher | None:
    """The hook ``companion.app.run`` calls: a started publisher when ``[club] broker`` is set, else None."""
    if not companion.config["club"]["broker"]:
        return None
    publisher = Publisher(companion.session, companion.config, companion.data_dir, companion.say)
    publisher.start()
    return publisher
