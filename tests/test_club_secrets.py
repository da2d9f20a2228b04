"""No secret of a desert seat reaches the club's broker.

Two companions deal the same game of hidden information, differing only in its secrets
(``Game.secrets_changed``: what no seat may know at the shared table), and publish to one broker
under two table names. A listener subscribed to ``#`` hears everything either table publishes: the
setup checked with a place still in hand, the table set up, a move entered on the panel and made by
hand, then the table wrong (out of sync, naming pieces). With the tables' names, game ids and
moments taken out, the two tables said exactly the same: the broker could not tell them apart.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_game
from companion.games.answers import new_game
from companion.app.run import Companion
from tests.club_broker import Broker
from tests.tables import sim_config, wait_for
from tests.test_secrets import past_the_setup, secret_games

GAME = next(n for n in secret_games() if get_game(n).declaration.information == "per-seat")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()


def said_alike(messages: list[tuple[str, bytes]], table: str, game_id: str) -> list[str]:
    """A table's messages, in order, without what tells the two tables apart openly."""
    out = []
    for where, payload in messages:
        if f"/{table}/" not in where and f"-{table}/" not in where:
            continue
        text = payload.decode().replace(game_id, "GAME").replace(table, "TABLE").replace(table.title(), "TABLE")
        out.append(where.replace(table, "TABLE") + " " + re.sub(r'"(at|updated)":[0-9.e+-]+', r'"\1":0', text))
    return out


def events_of(heard: list[tuple[str, bytes]], table: str) -> list[bytes]:
    return [p for t, p in heard if t == f"fog-companion/{table}/event"]


def last_state(heard: list[tuple[str, bytes]], table: str, game_id: str) -> list[str]:
    return [m for m in said_alike(heard, table, game_id) if "/state " in m][-1:]


def test_a_listener_on_every_topic_cannot_tell_two_deals_apart(tmp_path: Path, broker: Broker) -> None:
    import paho.mqtt.client as mqtt

    heard: list[tuple[str, bytes]] = []
    listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="everything")
    listener.on_connect = lambda c, *_a: c.subscribe("#", qos=1)
    listener.on_message = lambda _c, _u, m: heard.append((m.topic, m.payload))
    listener.connect("127.0.0.1", broker.port)
    listener.loop_start()
    game = get_game(GAME)
    dealt = past_the_setup(game, new_game(game, min(n for n in game.players if n > 1), seed=5))
    other = game.secrets_changed(dealt, None, 11)
    assert game.to_json(dealt) != game.to_json(other), "the two tables must differ in their secrets"
    tables: list[Companion] = []
    try:
        for name, state in (("north", dealt), ("south", other)):
            config = sim_config(tmp_path / name, **{"game.name": GAME, "club.broker": broker.url,
                                                    "club.table": name, "club.home_assistant": True})
            companion = Companion(config, out=io.StringIO())
            companion.new_game(state, game=game)
            tables.append(companion)
        a, b = tables
        steps: list[tuple[list[str], list[str]]] = []

        def quiet() -> None:
            """Everything sent and heard: the newest state of each table so far is kept for the comparison."""
            assert wait_for(lambda: all(t.club is not None and t.club.idle() for t in tables), 30)
            # the broker hands on what it has in the order it got it: once our own mark is heard, all before it was
            mark = f"quiet/{len(steps)}"
            listener.publish(mark, b"", qos=1)
            assert wait_for(lambda: any(t == mark for t, _ in heard), 10)
            steps.append((last_state(heard, "north", a.session.game_id or ""),
                          last_state(heard, "south", b.session.game_id or "")))

        for t in tables:  # the setup checked with one place's pieces still in hand
            expected = t.session.expected()
            t.session.on_stable_change({c: ps for c, ps in expected.items() if c != sorted(expected)[0]})
        quiet()
        for t in tables:
            t.session.on_stable_change(t.session.expected())
        quiet()
        # the same public move at both tables, entered on the panel and made by hand
        here, there = a.session.state, b.session.state
        twins = {json.dumps(game.view(game.apply(there, m), None), sort_keys=True): str(m)
                 for m in game.legal_actions(there)}
        move_a, move_b = next((str(m), twins[v]) for m in game.legal_actions(here)
                              if (v := json.dumps(game.view(game.apply(here, m), None), sort_keys=True)) in twins)
        a.session.act(move_a)
        b.session.act(move_b)
        quiet()
        for t in tables:
            t.session.on_stable_change(t.session.expected())
        quiet()
        place, far = sorted(a.session.expected())[0], sorted(a.session.expected())[-1]
        for t in tables:  # the pieces of one place put down on another, far off: the table is wrong
            now = t.session.expected()
            t.session.on_stable_change({**{c: ps for c, ps in now.items() if c != place}, far: now[far] + now[place]})
            assert t.session.status.out_of_sync is not None
        quiet()
    finally:
        for t in tables:
            t.stop()
        listener.loop_stop()
        listener.disconnect()
    north = said_alike(heard, "north", a.session.game_id or "")
    south = said_alike(heard, "south", b.session.game_id or "")
    assert any("out_of_sync" in m for m in north), north
    assert any(m.startswith("homeassistant/") for m in north), "Home Assistant's discovery was asked for"
    # every event, in order; every other message but the states (a state still waiting when the next one
    # comes is replaced by it, as the moment falls); the newest state at each quiet moment
    assert [m for m in north if "/state " not in m] == [m for m in south if "/state " not in m]
    for n, (at_north, at_south) in enumerate(steps):
        assert at_north == at_south, n
