"""Club night: five tables, each with its companion, publish to one Mosquitto, and the club page shows them all.

Five companions (one for each game the door offers) play on the simulated table, their moves
entered on the panel and made by hand, each publishing to a real broker on a loopback port. The
club page, served by ``fog-companion club`` as a club's TV runs it, shows all five in Chromium at
390 px. Then the broker dies mid-game (SIGKILL): the tables play on, each panel says the broker
cannot be reached and that its messages wait, and when the broker is back every event reaches the
club page once, in the order of the game's log, none lost and none shown twice.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.club import ClubError
from companion.errors import FogCompanionError
from companion.games import get_game, names
from companion.games.answers import new_game
from companion.app.run import Companion
from tests.club_broker import Broker
from tests.tables import collect_output, sim_config, wait_for

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()


def table_at(data: Path, broker: Broker, number: int, game_name: str) -> Companion:
    """A companion at "Table N" of the club, its game dealt and its setup checked by the camera."""
    config = sim_config(data, **{"game.name": game_name, "club.broker": broker.url, "club.table": f"Table {number}"})
    companion = Companion(config, out=io.StringIO())
    game = get_game(game_name)
    companion.new_game(new_game(game, min(n for n in game.players if n > 1), seed=number), game=game)
    companion.session.on_stable_change(companion.session.expected())
    return companion


def play_a_move(companion: Companion) -> None:
    """A move entered on the panel (the first the rules offer that the session takes), made by hand."""
    session = companion.session
    for action in session.game.legal_actions(session.state):
        try:
            session.act(str(action))
        except FogCompanionError:
            continue
        session.on_stable_change(session.expected())
        return
    raise AssertionError(f"no move the session takes at {companion.club.name if companion.club else '?'}")


def play_to_the_end(companion: Companion) -> None:
    """The game played out, move by move as at the table (the last move the rules offer each time)."""
    session = companion.session
    for _ in range(500):
        if session.game.outcome(session.state) is not None:
            return
        for action in reversed(session.game.legal_actions(session.state)):
            try:
                session.act(str(action))
            except FogCompanionError:
                continue
            session.on_stable_change(session.expected())
            break
    raise AssertionError("the game did not end")


def logged(companion: Companion) -> list[tuple[int, str]]:
    """The game's log as the table wrote it: (position, kind) of every event."""
    read = companion.session.store.read_log(companion.session.game_id or "")
    return [(int(seq), str(kind)) for seq, _at, kind, _data in read.rows]


def club_api(port: int) -> dict[str, Any]:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/club", timeout=10) as answer:
        return dict(json.loads(answer.read()))


@pytest.fixture
def club_page(tmp_path: Path, broker: Broker) -> Iterator[int]:
    """``fog-companion club --broker ...`` as the club's TV runs it: its port."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "club", "--broker", broker.url, "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path / "club")], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    lines = collect_output(proc)
    assert wait_for(lambda: any("club page: http://" in x for x in lines) or proc.poll() is not None, 60), lines
    port = next(int(m.group(1)) for x in lines if (m := re.search(r"club page: http://[^:]+:(\d+)/club", x)))
    yield port
    proc.terminate()
    proc.wait(10)


def test_five_tables_on_one_club_page_and_a_broker_that_dies_mid_game_loses_nothing(
        tmp_path: Path, broker: Broker, club_page: int, browser: Any) -> None:
    games = names()[:5]
    assert len(games) == 5
    tables = [table_at(tmp_path / f"table-{n}", broker, n, name) for n, name in enumerate(games, start=1)]
    try:
        for _ in range(3):
            for table in tables:
                play_a_move(table)
        assert wait_for(lambda: all(t.club is not None and t.club.idle() for t in tables), 30)
        # every table on the club page, each with its game and whose turn it is
        assert wait_for(lambda: len([t for t in club_api(club_page)["tables"] if t["state"]]) == 5, 30)
        context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)  # axe is the test's
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{club_page}/club")
        page.wait_for_function("() => document.querySelectorAll('.club-table').length === 5", timeout=20000)
        cards = page.locator(".club-table").all_inner_texts()
        for n, name in enumerate(games, start=1):
            card = next(c for c in cards if c.startswith(f"Table {n}"))
            assert get_game(name).title in card and "turn" in card, card
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "club-five-tables-390")
        axe_clean(page, "the club page at 390 px")

        # at table 2 the pieces of one place are put down on another, far off; table 3's camera is unplugged
        wrong, session = tables[1], tables[1].session
        now = session.expected()
        place, far = sorted(now)[0], sorted(now)[-1]
        session.on_stable_change({**{c: ps for c, ps in now.items() if c != place}, far: now[far] + now[place]})
        assert session.status.out_of_sync is not None
        tables[2].session.camera_lost("the camera's cable is out")
        page.wait_for_function("() => document.querySelectorAll('.club-table.fault').length === 2", timeout=20000)
        boxes = page.locator(".club-table.fault").all_inner_texts()
        assert "Out of sync: " + session.status.out_of_sync.reason in boxes[0], boxes
        assert "Camera fault: the camera's cable is out" in boxes[1], boxes
        shot(page, "club-out-of-sync-and-camera-fault-390")
        session.on_stable_change(now)  # put back: in sync again
        tables[2].session.camera_back()
        page.wait_for_function("() => document.querySelectorAll('.club-table.fault').length === 0", timeout=20000)

        # the broker dies with every message delivered; its sessions were saved since the page subscribed
        subscribed = time.time()
        assert wait_for(lambda: broker.saved_since(subscribed), 10), broker.log()
        broker.kill()
        for _ in range(2):
            for table in tables:
                play_a_move(table)  # the table never waits for the broker
        assert wait_for(lambda: all(t.club is not None and t.club.outbox.waiting() > 0 for t in tables), 10)
        notices = tables[0].session.store.notices
        assert wait_for(lambda: any("cannot be reached" in n for n in notices), 30), notices
        assert any("message(s) wait" in n for n in notices), notices
        broker.start()
        assert wait_for(lambda: all(t.club is not None and t.club.idle() for t in tables), 60), broker.log()
        assert wait_for(lambda: not any(n.startswith("club:") for n in notices), 10), notices

        def shown() -> dict[str, list[int]]:
            return {t["state"]["name"]: [e["seq"] for e in t["feed"]] for t in club_api(club_page)["tables"]}

        # every event reached the club page once, in the game's order (the page keeps each table's latest)
        for table in tables:
            log = logged(table)
            assert table.club is not None
            assert wait_for(lambda: shown().get(table.club.name, [])[-3:] == [s for s, _ in log][-3:], 30), \
                (table.club.name, shown(), log)
        page.wait_for_function("() => document.querySelectorAll('.club-table').length === 5", timeout=20000)

        # the first table's game is played out: the club page says who won, and the league counts it
        play_to_the_end(tables[0])
        outcome = tables[0].session.game.outcome(tables[0].session.state)
        assert outcome is not None
        page.wait_for_function("() => [...document.querySelectorAll('.club-table')].some(b => /Game over/.test(b.innerText))",
                               timeout=20000)
        over = next(c for c in page.locator(".club-table").all_inner_texts() if c.startswith("Table 1"))
        assert f"Game over: {' and '.join(outcome.winners)}" in over, over
        league = page.locator("#club-league tbody tr").all_inner_texts()
        players = [p["name"] for p in tables[0].session.game.view(tables[0].session.state)["players"]]
        assert sorted(row.split("\t")[0] for row in league) == sorted(players), league
        assert all(row.split("\t")[1:] == [get_game(games[0]).title, "1", "1" if row.split("\t")[0] in
                                             outcome.winners else "0"] for row in league), league
        csv_text = page.request.get(f"http://127.0.0.1:{club_page}/api/club/league.csv").text()
        assert csv_text.splitlines()[0] == "player,game,played,wins" and len(csv_text.splitlines()) == 1 + len(players)
        shot(page, "club-after-broker-restart-390")
        page.set_viewport_size({"width": 1920, "height": 1080})
        shot(page, "club-on-a-tv")
        axe_clean(page, "the club page on a TV")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
        context.close()
    finally:
        for table in tables:
            table.stop()


def test_every_event_arrives_once_in_order_through_a_broker_restart(tmp_path: Path, broker: Broker) -> None:
    """Every message the broker carried, read by a listener subscribed to everything for the whole evening:
    the broker stalls, then dies mid-game; the table plays on, is stopped and started again before the
    broker is back, and sends what it owed, once, in the game's order."""
    import paho.mqtt.client as mqtt

    heard: list[tuple[str, bytes]] = []
    listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="listener", clean_session=False)
    listener.reconnect_delay_set(min_delay=1, max_delay=2)
    listener.on_connect = lambda c, *_a: c.subscribe("#", qos=1)
    listener.on_message = lambda _c, _u, m: heard.append((m.topic, m.payload))
    listener.connect("127.0.0.1", broker.port)
    listener.loop_start()
    table = table_at(tmp_path / "table", broker, 1, names()[0])
    try:
        assert wait_for(lambda: any(t.endswith("/state") for t, _ in heard), 20)
        for _ in range(3):
            play_a_move(table)
        assert wait_for(lambda: table.club is not None and table.club.idle(), 20)
        # the broker stalls (connected, answering nothing): a move unacknowledged for long is said on the panel
        notices = table.session.store.notices
        broker.stall(True)
        play_a_move(table)
        assert wait_for(lambda: any("slow to acknowledge" in n for n in notices), 30), notices
        broker.stall(False)
        assert wait_for(lambda: not any(n.startswith("club:") for n in notices), 20), notices
        subscribed = time.time()
        assert wait_for(lambda: broker.saved_since(subscribed), 10)
        broker.kill()
        for _ in range(4):
            play_a_move(table)
        assert wait_for(lambda: any("cannot be reached" in n and "message(s) wait" in n for n in notices), 30), notices
        # the evening's end comes first: the companion is stopped with those moves still owed, kept on its disk
        game_id, config = table.session.game_id, table.config
        table.stop()
        broker.start()
        table = Companion(config, out=io.StringIO())  # started again: it resumes the game and sends what it owed
        assert table.session.game_id == game_id
        assert wait_for(lambda: table.club is not None and table.club.idle(), 60), broker.log()
        log = logged(table)
        assert wait_for(lambda: len({json.loads(p)["seq"] for t, p in heard if t.endswith("/event")}) == len(log), 20)
        events = [json.loads(p) for t, p in heard if t.endswith("/event")]
        # QoS 1 may carry a message again when its acknowledgement died with the broker: the same message,
        # never a new event; each log position is one event, and they came in the game's order
        firsts = list(dict.fromkeys(json.dumps(e, sort_keys=True) for e in events))
        assert [(e["seq"], e["kind"]) for e in map(json.loads, firsts)] == log
        # the table's own panel shows the club page too, and how its feed stands
        from web_ui import create_app

        phone = create_app(table, {"DATA_DIR": str(tmp_path / "table")}).test_client()
        assert wait_for(lambda: any(t["state"] for t in phone.get("/api/club").get_json()["tables"]), 20)
        club = phone.get("/api/club").get_json()
        assert club["this_table"]["connected"] and club["this_table"]["waiting"] == 0, club["this_table"]
        assert [t["state"]["name"] for t in club["tables"]] == ["Table 1"]
        assert "Club night" in phone.get("/club").get_data(as_text=True)
    finally:
        table.stop()
        listener.loop_stop()
        listener.disconnect()


from tests.test_browser import browser, shot  # noqa: E402,F401  (the module's Chromium, its screenshots)
from tests.test_browser_tile_race import axe_clean  # noqa: E402


def start_run(data: Path, config: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``fog-companion run`` as its unit runs it, on the simulated table, with ``config`` as its file."""
    path = data / "config.toml"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording", "FOG_CONFIG": str(path)}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--host", "127.0.0.1", "--port", "0",
                             "--data-dir", str(data), "--players", "2"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    return proc, collect_output(proc)


def test_the_service_publishes_with_its_login_and_never_says_the_password(tmp_path: Path, broker: Broker) -> None:
    import paho.mqtt.client as mqtt

    password = "club-night-s3cret"
    data = tmp_path / "table"
    data.mkdir()
    (data / "config.toml").write_text(f'[camera]\nsource = "sim"\n[club]\nbroker = "{broker.url}"\n'
                                      f'table = "Table 6"\nusername = "table6"\npassword = "{password}"\n')
    # a config file every user of the Pi may read does not keep the broker's password: the service refuses it
    (data / "config.toml").chmod(0o644)
    proc, lines = start_run(data, "")
    assert proc.wait(60) == 2
    said = "".join(lines)
    assert "chmod o-rw" in said and str(data / "config.toml") in said and password not in said, said

    heard: dict[str, bytes] = {}
    listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="tv")
    listener.on_connect = lambda c, *_a: c.subscribe("fog-companion/#", qos=1)
    listener.on_message = lambda _c, _u, m: heard.__setitem__(m.topic, m.payload)
    listener.connect("127.0.0.1", broker.port)
    listener.loop_start()
    (data / "config.toml").chmod(0o640)
    proc, lines = start_run(data, "")
    try:
        assert wait_for(lambda: heard.get("fog-companion/table-6/online") == b"true", 60), lines
        assert wait_for(lambda: b'"name":"Table 6"' in heard.get("fog-companion/table-6/state", b""), 20)
        assert any("club: connected to mqtt://table6@127.0.0.1" in x for x in lines), lines
    finally:
        proc.terminate()
        proc.wait(30)
    assert wait_for(lambda: heard.get("fog-companion/table-6/online") == b"false", 20)  # stopped: offline
    listener.loop_stop()
    listener.disconnect()
    assert password not in "".join(lines) and password not in broker.log()


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path / "broker", tls=True)
    yield b
    b.stop()


def test_a_table_publishes_over_tls_with_its_client_certificate(tmp_path: Path, tls_broker: Broker) -> None:
    import paho.mqtt.client as mqtt

    broker = tls_broker
    certs = broker.folder
    heard: dict[str, bytes] = {}
    listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="tv")
    listener.on_connect = lambda c, *_a: c.subscribe("fog-companion/#", qos=1)
    listener.on_message = lambda _c, _u, m: heard.__setitem__(m.topic, m.payload)
    listener.connect("127.0.0.1", broker.port)
    listener.loop_start()
    tls = {"club.broker": broker.tls_url, "club.ca_file": str(certs / "ca.crt")}
    with_key = sim_config(tmp_path / "signed", **tls, **{"club.table": "Table 7", "club.cert_file":
                                                          str(certs / "table.crt"), "club.key_file": str(certs / "table.key")})
    (certs / "table.key").chmod(0o644)  # a private key every user of the Pi may read: refused, by name
    with pytest.raises(ClubError, match=r"table\.key is the club certificate's private key .*`chmod o-rw"):
        Companion(with_key, out=io.StringIO())
    (certs / "table.key").chmod(0o600)
    signed = Companion(with_key, out=io.StringIO())
    unsigned = Companion(sim_config(tmp_path / "unsigned", **tls, **{"club.table": "Table 8"}), out=io.StringIO())
    try:
        assert wait_for(lambda: heard.get("fog-companion/table-7/online") == b"true", 20), broker.log()
        # a table with no certificate is turned away: its panel says the broker cannot be reached
        notices = unsigned.session.store.notices
        assert wait_for(lambda: any("cannot be reached" in n for n in notices), 20), notices
        assert "fog-companion/table-8/online" not in heard
    finally:
        signed.stop()
        unsigned.stop()
        listener.loop_stop()
        listener.disconnect()
