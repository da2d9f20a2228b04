"""Seats: each player's phone joins its seat with a short code and is shown that seat's secrets only.

Three friends play desert survivors: natural and green fight, red looks on from its own seat, and
the television at the end of the table is joined to no seat. Each fist is closed on its owner's
phone; nobody learns a side's markers until both are in, and then both open at once. A game
without seats (The FOG) is played exactly as before.
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np
import pytest

from companion.games import get_game
from companion.games.desert_survivors.pieces import size
from companion.games.desert_survivors.rules import apply, new_game
from companion.app.run import Companion
from tests.tables import sim_config
from web_ui import create_app
from web_ui.security import BUDGET, FREE_TRIES, WINDOW

PIN = "4711"


def send(client: Any, method: str, path: str, body: Any = None, **headers: str) -> Any:
    return client.open(path, method=method, data=None if body is None else json.dumps(body),
                       content_type="application/json", headers=headers)


def a_fight_about_to_begin() -> Any:
    """The 3-player beginner's desert in the eating phase: natural's hungry 5 next to green's 6."""
    s = new_game(3)
    at = {"B3": "natural-5", "B4": "green-6", "H2": "red-1"}
    food = {c: 0 if c == "natural-1" else size(c) for c in s.food}
    return replace(s, board=MappingProxyType(at), face_up=frozenset(at.values()), food=MappingProxyType(food),
                   spare=(0, 0, 0), phase="eat", turn=0)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Companion, Any]]:
    companion = Companion(sim_config(tmp_path, **{"game.name": "desert-survivors"}), out=io.StringIO())
    app = create_app(companion, {"PIN": PIN, "DATA_DIR": str(tmp_path)})
    session = companion.session
    session.start(a_fight_about_to_begin(), verify=False, game=get_game("desert-survivors"))
    session.camera_lost("unplugged")  # everything here is entered on the phones
    yield companion, app
    companion.stop()


def sent_state(text: str) -> Any:
    """The state an event stream sent in ``text`` (``event: state``)."""
    return json.loads(text.split("event: state\ndata: ", 1)[1].split("\n", 1)[0])


def scanned(svg: str) -> str:
    """What a phone camera reads off a served QR code: the SVG's squares drawn black on white as a
    picture (ten pixels a module), decoded by OpenCV's QR detector."""
    size = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))
    modules = np.full((size, size), 255, np.uint8)
    for x, y, n in re.findall(r"M(\d+),(\d+)h(\d+)v1h-\d+z", svg):
        modules[int(y), int(x):int(x) + int(n)] = 0
    picture = cv2.resize(modules, (size * 10, size * 10), interpolation=cv2.INTER_NEAREST)
    text, corners, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    assert corners is not None and text, "the QR code was not read"
    return text


def join(app: Any, code: str) -> Any:
    phone = app.test_client()
    res = send(phone, "POST", "/api/seats/join", {"code": code})
    assert res.status_code == 200, res.get_json()
    return phone


def test_every_phone_sees_its_own_seat_and_nobody_sees_a_fist_before_both_are_closed(table):
    companion, app = table
    tv = app.test_client()
    tv.post("/api/unlock", json={"pin": PIN}, headers={"Origin": "http://localhost"})
    listed = tv.get("/api/seats").get_json()
    assert [s["seat"] for s in listed["seats"]] == ["natural", "green", "red"] and listed["codes_shown"]
    codes = {s["seat"]: s["code"] for s in listed["seats"]}
    assert len(set(codes.values())) == 3 and all(len(c) == 6 for c in codes.values())
    stranger = app.test_client()  # a phone that gave no PIN is not shown the codes
    assert {s["code"] for s in stranger.get("/api/seats").get_json()["seats"]} == {None}

    # a wrong code joins nothing; each player types theirs (in lower case, with a space: still theirs)
    assert send(app.test_client(), "POST", "/api/seats/join", {"code": "AAAAAA"}).status_code == 400
    phones = {seat: join(app, code[:3].lower() + " " + code[3:]) for seat, code in codes.items()}
    for seat, phone in phones.items():
        state = phone.get("/api/state").get_json()
        assert state["seat"] == seat and state["markers"] == 7
    assert "markers" not in tv.get("/api/state").get_json() and tv.get("/api/state").get_json()["seat"] is None

    # natural attacks; each side's phone offers its own fist, and only its own
    assert send(phones["natural"], "POST", "/api/act", {"action": "attack B3 B4"}).status_code == 200
    offered = {seat: phone.get("/api/seats/choices").get_json()["choices"] for seat, phone in phones.items()}
    assert [c["action"] for c in offered["natural"]] == [f"commit natural {n}" for n in range(8)]
    assert [c["action"] for c in offered["green"]] == [f"commit green {n}" for n in range(8)] and offered["red"] == []
    assert offered["natural"][3]["label"] == "Close your fist on 3 markers"  # in words, not the notation
    refused = send(phones["green"], "POST", "/api/seats/act", {"action": "commit natural 0"})
    assert refused.status_code == 409 and "natural" in refused.get_json()["error"]
    refused = send(phones["green"], "POST", "/api/act", {"action": "commit natural 0"})
    assert refused.status_code == 409, "a joined phone enters no other seat's action by the other door"
    assert send(tv, "POST", "/api/seats/act", {"action": "commit natural 2"}).status_code == 409  # no seat

    # natural closes its fist on 2: only natural's phone knows the 2
    res = send(phones["natural"], "POST", "/api/seats/act", {"action": "commit natural 2"})
    assert res.status_code == 200 and res.get_json()["state"]["fight"]["mine"] == 2
    for who, client in [*phones.items(), ("tv", tv)]:
        seen = client.get("/api/state").get_json()
        assert seen["fight"]["committed"] == {"natural": True, "green": False}, who
        assert (seen["fight"]["mine"] == 2) == (who == "natural"), who
        if who != "natural":
            assert "commit natural 2" not in json.dumps(seen), who
    assert phones["natural"].get("/api/seats/choices").get_json()["choices"] == []  # one fist each

    # green closes its fist on 2 as well: both open at once, the tie goes to the attacker
    res = send(phones["green"], "POST", "/api/seats/act", {"action": "commit green 2"})
    assert res.status_code == 200
    for who, client in [*phones.items(), ("tv", tv)]:
        seen = client.get("/api/state").get_json()
        assert seen["fight"] is None and seen["last_fight"]["markers"] == [2, 2], who
        assert seen["last_fight"]["winner"] == "natural-5", who
    assert companion.session.state.history[-3:] == ("commit natural 2", "commit green 2", "show")


def test_a_seat_s_view_reaches_only_its_phone_on_the_event_stream(table):
    companion, app = table
    tv = app.test_client()
    tv.post("/api/unlock", json={"pin": PIN}, headers={"Origin": "http://localhost"})
    codes = {s["seat"]: s["code"] for s in tv.get("/api/seats").get_json()["seats"]}
    green = join(app, codes["green"])
    companion.session.act("attack B3 B4")
    # a seat is held by the phone that joined it; a code sent in a header is refused in words
    header = app.test_client().get("/events?limit=1", headers={"X-Fog-Seat": codes["natural"]})
    assert header.status_code == 400 and "join" in header.get_json()["error"]
    natural = join(app, codes["natural"])
    streams = {"natural": natural.get("/events?limit=1", buffered=False),
               "green": green.get("/events?limit=1", buffered=False),
               "tv": app.test_client().get("/events?limit=1", buffered=False)}
    chunks = {who: iter(res.response) for who, res in streams.items()}
    for who, chunk in chunks.items():
        next(chunk)  # the stream's head
        greeting = sent_state(next(chunk).decode())
        assert greeting["seat"] == (None if who == "tv" else who) and greeting["fight"]["mine"] is None, who
    companion.session.act("commit natural 3")  # natural's fist, closed on natural's phone
    for who, chunk in chunks.items():
        sent = b"".join(chunk).decode()  # the event and the state after it, then the stream ends (limit=1)
        assert ('"action":"commit natural 3"' in sent) == (who == "natural"), who
        assert '"action":"commit natural"' in sent or who == "natural", who
        state = sent_state(sent)
        assert state["fight"]["mine"] == (3 if who == "natural" else None), who
    for res in streams.values():
        res.close()


def test_a_game_without_seats_has_none_to_join_and_every_phone_sees_the_whole_table(tmp_path: Path):
    companion = Companion(sim_config(tmp_path, **{"game.name": "fog"}), out=io.StringIO())
    app = create_app(companion, {"DATA_DIR": str(tmp_path)})
    try:
        players = [{} for _ in range(3)]
        assert send(app.test_client(), "POST", "/api/games", {"game": "fog", "players": players, "seed": 5}
                    ).status_code == 200
        phone = app.test_client()
        assert phone.get("/api/seats").get_json()["seats"] == []
        res = send(phone, "POST", "/api/seats/join", {"code": "ABCDEF"})
        assert res.status_code == 409 and "no seats" in res.get_json()["error"]
        assert phone.get("/api/state").get_json()["seat"] is None
        for path in ("/", "/setup"):  # the Board and Setup pages' seat card waits hidden, its script served
            page = phone.get(path).get_data(as_text=True)
            assert 'id="seat-card" hidden' in page and "seats.js" in page, path
        assert phone.get("/static/seats.js").status_code == 200
    finally:
        companion.stop()


def test_guessing_seat_codes_is_held_back_like_guessing_the_pin(table, figures):
    """A stranger on the Wi-Fi who tries code after code, from address after address, gets no more
    tries than the panel gives wrong PINs, and learns from the answer only that it must wait."""
    companion, app = table
    clock = [9000.0]
    app.extensions["pin_backoff"].clock = lambda: clock[0]
    tv = app.test_client()
    tv.post("/api/unlock", json={"pin": PIN}, headers={"Origin": "http://localhost"})
    codes = {s["seat"]: s["code"] for s in tv.get("/api/seats").get_json()["seats"]}
    natural = join(app, codes["natural"])  # natural joined before anyone guessed

    def from_address(n: int) -> Any:
        phone = app.test_client()
        phone.environ_base["REMOTE_ADDR"] = f"10.7.{n // 250}.{n % 250}"
        return phone

    wrong = send(from_address(0), "POST", "/api/seats/join", {"code": "zzzz zz"})
    assert wrong.status_code == 400 and "ZZZZZZ" in wrong.get_json()["error"]  # a typo, said back as typed
    answers = [send(from_address(n), "POST", "/api/seats/join", {"code": f"AAAA{n:02d}"}).status_code
               for n in range(1, 40)]
    assert answers == [400] * 39  # each address's first guess is checked: it tells nothing but "wrong"
    # under attack an address that guessed wrong waits a minute before its next guess is checked ...
    again = send(from_address(35), "POST", "/api/seats/join", {"code": "AAAA77"})
    assert again.status_code == 429 and "from this device" in again.get_json()["error"]
    # ... while the right code from a phone that never guessed joins at once, and so does the PIN
    res = send(from_address(91), "POST", "/api/seats/join", {"code": codes["green"]})
    assert res.status_code == 200 and res.get_json()["seat"] == "green"
    owner = from_address(93)
    assert send(owner, "POST", "/api/unlock", {"pin": PIN}).status_code == 200
    assert natural.get("/api/state").get_json()["seat"] == "natural"  # a phone already joined goes on
    # one device's wrong codes slow that device down: its free tries, then waits that double
    clock[0] += WINDOW
    guesser = [send(from_address(92), "POST", "/api/seats/join", {"code": "CCCCCC"}).status_code
               for _ in range(FREE_TRIES + 2)]
    assert guesser == [400] * (FREE_TRIES + 1) + [429]  # its free tries, one more, then it waits
    figures(f"seat codes guessed from 40 addresses: 40 checked, one each; the right code and the PIN from two "
            f"other phones answered at once (past {BUDGET} wrong guesses a minute an address gets one free try)")


def test_each_seat_s_qr_code_opens_the_board_page_that_joins_that_seat(table):
    """The table's screen shows a QR code beside each code; Bo points his phone's camera at his, and
    the address it reads opens the Board page with his code, which the page sends to the join route
    (so it is counted and refused like a typed code). Only the table's screen is shown the pictures."""
    companion, app = table
    tv = app.test_client()
    tv.post("/api/unlock", json={"pin": PIN}, headers={"Origin": "http://localhost"})
    listed = {s["seat"]: s for s in tv.get("/api/seats").get_json()["seats"]}
    for seat, shown in listed.items():
        res = tv.get(shown["qr"])
        assert res.status_code == 200 and res.mimetype == "image/svg+xml"
        assert scanned(res.get_data(as_text=True)) == shown["join_url"] == f"http://localhost/#join={shown['code']}"
    # the address reached as localhost is the Pi's own screen: the QR names the address run printed
    companion.panel_url = "http://192.168.1.20:8080/"
    green = tv.get("/api/seats").get_json()["seats"][1]
    assert scanned(tv.get(green["qr"]).get_data(as_text=True)) == f"http://192.168.1.20:8080/#join={green['code']}"

    # the phone opens the Board page (the code after '#' stays on the phone) and joins with the code
    phone = app.test_client()
    assert 'id="seat-card"' in phone.get("/").get_data(as_text=True)
    code = green["join_url"].split("#join=", 1)[1]
    assert send(phone, "POST", "/api/seats/join", {"code": code}).get_json()["seat"] == "green"
    assert phone.get("/api/state").get_json()["seat"] == "green"

    # the pictures follow the codes' rule: a phone that gave no PIN is shown none, the phone that holds
    # green's seat only green's (to join a second device once it leaves this one)
    assert [phone.get(s["qr"]).status_code for s in listed.values()] == [403, 200, 403]
    stranger = app.test_client()
    assert [stranger.get(s["qr"]).status_code for s in listed.values()] == [403, 403, 403]
    assert {(s["qr"], s["join_url"]) for s in stranger.get("/api/seats").get_json()["seats"]} == {(None, None)}
    # ... and the table's screen, once joined to a seat itself, is shown only that seat's
    send(tv, "POST", "/api/seats/join", {"code": listed["red"]["code"]})
    assert [tv.get(s["qr"]).status_code for s in listed.values()] == [403, 403, 200]
    assert tv.get("/api/seats/nobody/qr.svg").status_code == 404


def phones_of(app: Any) -> tuple[Any, dict[str, Any]]:
    """The table's screen (PIN given) and a phone joined to each seat of the game running now."""
    tv = app.test_client()
    tv.post("/api/unlock", json={"pin": PIN}, headers={"Origin": "http://localhost"})
    return tv, {s["seat"]: join(app, s["code"]) for s in tv.get("/api/seats").get_json()["seats"]}


def test_each_player_shares_their_food_out_on_their_own_phone_and_nobody_else_can(table):
    """At setup every player holds 5 food to put on their characters' cards. Natural's phone lays her
    hungry cards out (the page's "My food" box) and she puts the food down with one tap; green's phone
    cannot put natural's food anywhere, by either door, and the table's screen is shown no such box."""
    companion, app = table
    companion.session.start(new_game(3), verify=False, game=get_game("desert-survivors"))
    tv, phones = phones_of(app)
    share = phones["natural"].get("/api/state").get_json()["seat_share"]
    assert share["must"] == 5 and share["title"] == "My food: share 5 food out over your characters' cards"
    assert [(r["label"], r["most"], r["count"]) for r in share["rows"]][4] == ("Your 5", 3, "{n} of 3 food")
    assert {r["action"] for r in share["rows"]} == {f"feed natural-{n}" for n in range(1, 7)}
    assert tv.get("/api/state").get_json()["seat_share"] is None
    offered = [c["label"] for c in phones["natural"].get("/api/seats/choices").get_json()["choices"]]
    assert "Put a food on your 5's card (0 of 3 there now)" in offered
    assert not any("natural" in c["action"] for c in phones["green"].get("/api/seats/choices").get_json()["choices"])
    for door in ("/api/seats/act", "/api/act"):
        refused = send(phones["green"], "POST", door, {"action": "feed natural-5"})
        assert refused.status_code == 409 and "natural" in refused.get_json()["error"], door
    # a correction slipped in among a seat's own choices still needs the panel PIN, and nothing goes in
    refused = send(phones["natural"], "POST", "/api/seats/act", {"actions": ["feed natural-5", "correct -"]})
    assert refused.status_code == 401 and "PIN" in refused.get_json()["error"]

    # natural shares hers out: 3 on her 5, 2 on her 6, entered in order with one tap
    shared = ["feed natural-5"] * 3 + ["feed natural-6"] * 2
    res = send(phones["natural"], "POST", "/api/seats/act", {"actions": shared})
    assert res.status_code == 200 and res.get_json()["entered"] == 5
    mine = res.get_json()["state"]
    assert mine["seat_share"] is None
    assert (mine["cards"]["natural-5"]["food"], mine["cards"]["natural-6"]["food"]) == (3, 2)
    assert mine["log"][-2:] == ["You put a food on your 6's card"] * 2
    assert phones["green"].get("/api/state").get_json()["log"][-1] == "Natural put a food on the natural 6's card"

    # green plans one food too many on her 1: the first goes down, the refusal says so and what stays
    res = send(phones["green"], "POST", "/api/seats/act", {"actions": ["feed green-1", "feed green-1"]})
    assert res.status_code == 409 and "(1 of the 2 entered before it)" in res.get_json()["error"]
    assert phones["green"].get("/api/state").get_json()["seat_share"]["must"] == 4


def test_a_satisfied_player_gives_spare_food_from_their_own_phone_in_words(table):
    """In the eating phase natural's characters are all fed and she holds 3 spare food; green's 6 is
    hungry. Natural's phone offers the gifts in words; green cannot give natural's food away; what
    natural gives, green then shares out on her own phone."""
    companion, app = table
    s = new_game(3)
    at = {"B3": "natural-5", "B4": "green-6", "H2": "red-1"}
    food = {c: 0 if c == "green-6" else size(c) for c in s.food}
    companion.session.start(replace(s, board=MappingProxyType(at), face_up=frozenset(at.values()),
                                    food=MappingProxyType(food), spare=(3, 0, 0), phase="eat", turn=0),
                            verify=False, game=get_game("desert-survivors"))
    tv, phones = phones_of(app)
    gifts = {c["action"]: c["label"] for c in phones["natural"].get("/api/seats/choices").get_json()["choices"]}
    assert gifts["give natural green 2"] == "Give 2 of your 3 spare food to green"
    assert phones["green"].get("/api/seats/choices").get_json()["choices"] == []
    for door in ("/api/seats/act", "/api/act"):
        assert send(phones["green"], "POST", door, {"action": "give natural green 3"}).status_code == 409, door
    assert send(phones["natural"], "POST", "/api/seats/act", {"action": "give natural green 2"}).status_code == 200
    seen = {who: p.get("/api/state").get_json() for who, p in [*phones.items(), ("tv", tv)]}
    assert seen["green"]["seat_share"]["rows"] == [{"action": "feed green-6", "label": "Your 6", "now": 0, "most": 3,
                                                    "count": "{n} of 3 food"}]
    assert seen["green"]["seat_share"]["must"] == 2
    assert all(seen[who]["seat_share"] is None for who in ("natural", "red", "tv"))
    assert seen["tv"]["log"][-1] == "Natural gave 2 food to green"
    assert seen["green"]["log"][-1] == "Natural gave 2 food to you"


def test_malformed_seat_requests_are_answered_400_in_words(table):
    """A body nested a thousand deep, a code that is not text (a lone surrogate), an emoji for a code,
    a header naming a seat in any letters: each is refused in words, and nobody joins anything."""
    companion, app = table
    phone = app.test_client()
    deep = "[" * 1000 + "]" * 1000
    res = phone.post("/api/seats/join", data=f'{{"code": {deep}}}', content_type="application/json")
    assert res.status_code == 400 and "deeper" in res.get_json()["error"]
    for code in ("\ud800AAAA", "\U0001F600" * 3, "AB-CD!"):
        res = phone.post("/api/seats/join", data=json.dumps({"code": code}), content_type="application/json")
        assert res.status_code == 400 and "code" in res.get_json()["error"], code
    for header in ("\u00fc\u00e9", "abcdef", ""):
        res = phone.get("/api/state", headers={"X-Fog-Seat": header})
        assert res.status_code == 400 and "X-Fog-Seat" in res.get_json()["error"]
    assert phone.get("/api/state").get_json()["seat"] is None
    assert phone.get("/api/state").get_json()["game"] == companion.session.game_id  # the game's id, as docs/api.md says
    assert phone.get("/api/state").get_json()["game"] == companion.session.game_id  # the game's id, as docs/api.md says


def test_only_a_seat_s_own_phone_or_the_table_s_screen_closes_its_fist(table):
    """Ann and Bo fight. A phone on the Wi-Fi that holds no seat tries to close green's fist for Bo:
    refused, naming whose it is. The table's screen (the PIN given) may enter it on Bo's behalf."""
    companion, app = table
    companion.session.act("attack B3 B4")
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    res = send(stranger, "POST", "/api/act", {"action": "commit green 0"})
    assert res.status_code == 403 and "own phone" in res.get_json()["error"]
    assert companion.session.state.fight.commits == (None, None)
    screen = app.test_client()
    screen.environ_base["REMOTE_ADDR"] = "192.168.1.51"
    assert send(screen, "POST", "/api/unlock", {"pin": PIN}).status_code == 200
    assert send(screen, "POST", "/api/act", {"action": "commit green 0"}).status_code == 200


def test_in_a_game_without_per_seat_secrets_any_phone_enters_any_player_s_play(tmp_path: Path):
    """The tile race keeps nothing secret and has no seats to join: a phone at the table that is not the
    table's screen (a PIN is set, the phone is on the Wi-Fi) enters each player's move and tile as the
    Board page sends them, never told to join a seat that does not exist."""
    game = get_game("tile-race")
    companion = Companion(sim_config(tmp_path, **{"game.name": "tile-race"}), out=io.StringIO())
    app = create_app(companion, {"PIN": PIN, "DATA_DIR": str(tmp_path)})
    session = companion.session
    session.start(game.new_game(2, seed=1), verify=False, game=game)
    session.camera_lost("unplugged")  # entered on the phone alone
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    try:
        assert phone.get("/api/seats").get_json()["seats"] == []
        kinds = set()
        for _ in range(6):  # two turns or more of each player: moves, tiles, walls as the rules offer them
            offered = game.legal_actions(session.state)
            action = ([a for a in offered if str(a).split()[0] in ("tile", "wall", "mountain")] or offered)[0]
            res = send(phone, "POST", "/api/act", {"action": str(action)})
            assert res.status_code == 200, (str(action), res.get_json())
            kinds.add(str(action).split()[0])
        assert kinds & {"tile", "wall", "mountain"}, kinds
    finally:
        companion.stop()


def test_a_phone_asked_for_the_panel_pin_at_the_simulated_table_of_a_game_with_secrets(tmp_path: Path):
    """Battle for the Island hides its blocks' faces: its simulated table (every piece by id) is the table's
    screen's. A phone on the Wi-Fi that opens the Table page is asked for the panel PIN (the page asks it
    on the spot), and once it is given the table is shown; a phone joined to no seat never sees it without."""
    game = get_game("island-battle")
    companion = Companion(sim_config(tmp_path, **{"game.name": "island-battle"}), out=io.StringIO())
    app = create_app(companion, {"PIN": PIN, "DATA_DIR": str(tmp_path)})
    companion.session.start(game.new_game(2, seed=1), verify=False, game=game)
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.31"
    try:
        refused = phone.get("/api/table")
        assert refused.status_code == 401 and "PIN" in refused.get_json()["error"]
        assert send(phone, "POST", "/api/unlock", {"pin": PIN}).status_code == 200
        assert phone.get("/api/table").status_code in (200, 409)  # the table's screen now (409: no camera here)
    finally:
        companion.stop()


def test_phones_asking_at_once_on_a_fresh_panel_are_all_shown_the_same_codes(table):
    """The first time the codes are drawn the panel makes its key; the tablet's page asks for the seats
    and for the three QR codes at once, and every answer must name the codes that will join."""
    companion, app = table
    clients = []
    for _ in range(12):
        tv = app.test_client()
        tv.post("/api/unlock", json={"pin": PIN}, headers={"Origin": "http://localhost"})
        clients.append(tv)
    start, seen = threading.Barrier(len(clients)), []

    def ask(tv: Any) -> None:
        start.wait()
        seen.append(tuple(s["code"] for s in tv.get("/api/seats").get_json()["seats"]))

    threads = [threading.Thread(target=ask, args=(tv,)) for tv in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == len(clients) and len(set(seen)) == 1 and None not in seen[0]
    assert seen[0] == tuple(s["code"] for s in clients[0].get("/api/seats").get_json()["seats"])
