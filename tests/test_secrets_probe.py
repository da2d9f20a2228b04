"""What a player could still learn, or do, from a phone: the leaks and dead ends found by probing
the secrets work as a hostile player would.

The panel has a PIN and the table's screen gave it. Eve, on the same Wi-Fi, holds no seat (a
private tab of her phone, a script): she sends the table actions nobody would send, and reads
what the refusals say. Two tables dealt differently in what nobody may know (``Game.secrets_changed``)
must answer her alike, or the answer tells her the deal. The seats' rules are probed the same way:
a seat released on the table's screen is free for the new phone, not for the old one that kept its
code; the export of a game with an undo in it still says what was played after it.
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
from tests.tables import sim_config
from tests.test_secrets import Table, past_the_setup
from web_ui import create_app

GAME = get_game("desert-survivors")


def stranger(table: Table) -> Any:
    """Eve's script: a client on the Wi-Fi with no cookie, no seat and no PIN."""
    client = table.app.test_client()
    client.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    return client


def said(client: Any, path: str, body: dict[str, Any], game_id: str) -> tuple[int, str]:
    res = client.post(path, data=json.dumps(body), content_type="application/json")
    return res.status_code, res.get_data(as_text=True).replace(game_id, "GAME")


def placing(green: str) -> Any:
    """Three players' food on their cards, then one disc each laid face down (natural, green, red, natural):
    green's is ``green``; green places next."""
    state = new_game(GAME, 3, seed=5)
    while any(str(a).startswith("feed") for a in GAME.legal_actions(state)):
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    for disc in ("natural-1", green, "red-1", "natural-2"):
        space = next(str(a).split()[2] for a in GAME.legal_actions(state) if str(a).startswith(f"place {disc} "))
        state = GAME.apply(state, f"place {disc} {space}")
    return state


@pytest.fixture
def two_deals(tmp_path: Path, request: Any) -> Iterator[tuple[Table, Table]]:
    """The same desert at two tables, dealt otherwise in what nobody may know, at ``request.param``:
    "placing" (green's first disc laid face down is her 1 at one table, her 2 at the other: the rules'
    ``secrets_changed`` keeps the discs laid as they are) or "dealt" (every disc placed, the X-counters
    just dealt, before the round's first move)."""
    if request.param == "placing":
        state, other = placing("green-1"), placing("green-2")
        assert GAME.view(state) == GAME.view(other)  # the shared table sees the same
    else:
        state = past_the_setup(GAME, new_game(GAME, 3, seed=5))
        other = GAME.secrets_changed(state, None, 11)
    assert GAME.to_json(state) != GAME.to_json(other)
    a, b = Table(tmp_path / "a", GAME, state, None, "stranger"), Table(tmp_path / "b", GAME, other, None, "stranger")
    for table in (a, b):
        table.see(table.session.expected())
    yield a, b
    a.companion.stop()
    b.companion.stop()


def asked_at_both(a: Table, b: Table, path: str, bodies: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each body sent by Eve at both tables, in order; the first answers that differ (none: she learns nothing)."""
    eve_a, eve_b = stranger(a), stranger(b)
    for body in bodies:
        here, there = said(eve_a, path, body, a.game_id), said(eve_b, path, body, b.game_id)
        if here != there:
            return [(body, here, there)]
    return []


@pytest.mark.parametrize("two_deals", ["placing"], indirect=True)
def test_a_refused_placement_does_not_say_which_disc_lies_face_down(two_deals: tuple[Table, Table]) -> None:
    """Green laid a disc face down. Eve sends 'place green-N' on an oasis for each N: the
    refusal must not say which of them is "already placed", or she knows the disc green laid."""
    a, b = two_deals
    oasis = next(c for c, cell in GAME.layout(a.session.state).cells.items() if cell.kind == "oasis")
    probes = [{"action": f"place green-{n} {oasis}"} for n in (*range(1, 7), "m")]
    assert asked_at_both(a, b, "/api/act", probes) == []


@pytest.mark.parametrize("two_deals", ["dealt"], indirect=True)
def test_a_refused_lay_does_not_say_where_a_face_down_counter_lies(two_deals: tuple[Table, Table]) -> None:
    """The X-counters were just dealt face down. Eve sends 'lay SPACE=xN' for each counter: the
    refusal must not say "xN lies on F6" (nor take her lay at one table and refuse it at the other)."""
    a, b = two_deals
    dealt = a.session.state.dealt
    probes = [{"action": f"lay {dealt[0]}=x{n},{dealt[1]}=x1"} for n in range(2, 85)]
    assert asked_at_both(a, b, "/api/act", probes) == []


@pytest.mark.parametrize("two_deals", ["dealt"], indirect=True)
def test_a_move_entered_for_a_hidden_disc_does_not_say_where_it_lies(two_deals: tuple[Table, Table]) -> None:
    """Eve asks the panel to move each disc, by its id, to one space: the refusal must not name the
    disc's place ("the play chosen does not take the face-down green disc on E1 to B3")."""
    a, b = two_deals
    state = a.session.state
    hidden = sorted(p for p in state.board.values() if p not in state.face_up and not p.startswith("x"))
    space = sorted(state.board)[0]
    probes = [{"piece": p, "cell": space, **extra} for p in hidden for extra in ({}, {"action": f"reveal {space}"})]
    assert asked_at_both(a, b, "/api/move", probes) == []


def test_a_phone_with_no_seat_is_answered_in_words_when_it_names_a_food_counter_to_attack(tmp_path: Path) -> None:
    """In the eating phase Eve names a face-up food counter as the one to attack: the refusal is a 4xx
    in words, never the internal error (the seat check asked whose character the counter is)."""
    state = new_game(GAME, 3, seed=5)
    for _ in range(2000):
        up = [w for w, p in state.board.items() if p.startswith("x") and p in state.face_up]
        if state.phase == "eat" and state.fight is None and up:
            break
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.phase == "eat" and up, "the rules' first choices reach the eating phase with a food counter up"
    table = Table(tmp_path, GAME, state, None, "stranger")
    try:
        table.see(table.session.expected())
        own = next(w for w, p in state.board.items() if not p.startswith("x"))
        status, answer = said(stranger(table), "/api/act", {"action": f"attack {own} {up[0]}"}, table.game_id)
        assert 400 <= status < 500, answer
    finally:
        table.companion.stop()


def test_secrets_changed_in_a_fight_is_still_a_position_of_the_game() -> None:
    """The property tests deal the other table with ``secrets_changed``: in a fight where one fist is
    closed, the other table's state must still read (no side committing more markers than it holds)."""
    state = new_game(GAME, 3, seed=7)
    for step in range(3000):
        if state.fight is not None and sum(c is not None for c in state.fight.commits) == 1:
            break
        legal = GAME.legal_actions(state)
        attack = [a for a in legal if str(a).startswith("attack")]
        commit = [a for a in legal if str(a).startswith("commit")]
        state = GAME.apply(state, (attack or commit[-1:] or legal[step % len(legal):])[0])
    assert state.fight is not None
    for seat in (None, *GAME.seats(state)):
        other = GAME.secrets_changed(state, seat, 11)
        GAME.from_json(json.loads(json.dumps(GAME.to_json(other))))


@pytest.fixture
def open_table(tmp_path: Path) -> Iterator[tuple[Companion, Any]]:
    """Desert survivors on a panel with no PIN, its table's screen (a tablet, not the Pi) paired once."""
    companion = Companion(sim_config(tmp_path, **{"game.name": "desert-survivors"}), out=io.StringIO())
    app = create_app(companion, {"DATA_DIR": str(tmp_path)})
    yield companion, app
    companion.stop()


def client_at(app: Any, address: str) -> Any:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def post(client: Any, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_a_released_seat_is_not_taken_back_by_the_phone_that_kept_its_code(open_table: tuple[Companion, Any]) -> None:
    """Ada moves to a new phone; the table's screen releases her seat. Her old phone's page keeps the code
    in its storage and sends it again when it reloads: it must not take the seat back before the new phone
    joins (nor can a phone that once read the code over a shoulder)."""
    companion, app = open_table
    tablet = client_at(app, "192.168.1.10")
    assert post(tablet, "/api/seats/screen", {"pair": True}).status_code == 200
    players = [{"name": n} for n in ("Ada", "Bo", "Cy")]
    assert post(tablet, "/api/games", {"game": "desert-survivors", "players": players, "seed": 3}).status_code == 200
    code = tablet.get("/api/seats").get_json()["seats"][0]["code"]
    old = client_at(app, "192.168.1.21")
    assert post(old, "/api/seats/join", {"code": code}).get_json()["seat"] == "natural"
    assert post(tablet, "/api/seats/natural/release", {}).get_json()["released"]
    again = post(old, "/api/seats/join", {"code": code})  # seats.js joinWith(kept code) on the old phone's reload
    new = post(client_at(app, "192.168.1.22"), "/api/seats/join", {"code": code})
    assert (again.status_code, new.status_code) != (200, 409), "the old phone took the released seat back"


def test_the_export_says_what_was_played_after_an_undo(open_table: tuple[Companion, Any]) -> None:
    """A placement undone and laid again: the export a phone downloads says each later action in the
    table's words, not "an action (the log does not replay here)" for the rest of the game."""
    companion, app = open_table
    session = companion.session
    state = new_game(GAME, 3, seed=5)
    game_id = companion.new_game(state, game=GAME)
    session.on_stable_change(session.expected())
    for _ in range(18):
        session.act(str(GAME.legal_actions(session.state)[0]))
        session.on_stable_change(session.expected())
    session.undo()
    session.on_stable_change(session.expected())
    for _ in range(3):
        session.act(str(GAME.legal_actions(session.state)[0]))
        session.on_stable_change(session.expected())
    rows = client_at(app, "192.168.1.23").get(f"/api/games/{game_id}").get_json()["events"]
    after = [r["data"].get("action") for r in rows[[r["kind"] for r in rows].index("undo") + 1:]]
    assert after and not any(re.search(r"does not replay", str(a)) for a in after), after


def test_on_an_open_panel_a_game_of_seats_is_started_from_the_table_s_screen(open_table: tuple[Companion, Any]) -> None:
    """No PIN. A phone on the Wi-Fi asks for desert survivors: it is told the three ways to guard the
    seats' secrets. The tablet pairs as the table's screen; from then on the phone can neither start
    the game nor start it unguarded, and the tablet starts it."""
    companion, app = open_table
    body = {"game": "desert-survivors", "players": [{"name": n} for n in ("Ada", "Bo", "Cy")], "seed": 5}
    phone, tablet = client_at(app, "192.168.1.23"), client_at(app, "192.168.1.30")

    def post(client: Any, path: str, data: dict[str, Any]) -> Any:
        return client.post(path, data=json.dumps(data), content_type="application/json")

    asked = post(phone, "/api/games", body)
    assert asked.status_code == 409 and asked.get_json()["kind"] == "secrets-unguarded"
    assert "PIN" in asked.get_json()["error"] and "screen" in asked.get_json()["error"]
    assert post(tablet, "/api/seats/screen", {"pair": True}).status_code == 200
    assert post(phone, "/api/seats/screen", {"pair": True}).status_code == 409  # paired once
    assert post(phone, "/api/games", {**body, "secrets": "unguarded"}).status_code == 409
    assert post(tablet, "/api/games", body).status_code == 200
    assert phone.get("/api/seats").get_json()["guarded"] is True
    assert all(s["code"] is None for s in phone.get("/api/seats").get_json()["seats"])
    assert all(s["code"] for s in tablet.get("/api/seats").get_json()["seats"])


def test_a_game_played_knowingly_unguarded_is_said_so_to_every_phone(open_table: tuple[Companion, Any]) -> None:
    """No PIN, no paired screen: the players choose to play with the seats' secrets unguarded. Every
    phone is then shown the codes, and told so (the pages' banner reads `guarded` false); a game
    started from the Pi's own display is guarded, and no phone is shown a code."""
    companion, app = open_table
    body = {"game": "desert-survivors", "players": [{"name": n} for n in ("Ada", "Bo", "Cy")], "seed": 5}
    phone = client_at(app, "192.168.1.23")
    started = phone.post("/api/games", data=json.dumps({**body, "secrets": "unguarded"}), content_type="application/json")
    assert started.status_code == 200
    seats = phone.get("/api/seats").get_json()
    assert seats["guarded"] is False and all(s["code"] for s in seats["seats"])
    pi = app.test_client()  # the Pi's own display: a loopback address
    again = pi.post("/api/games", data=json.dumps({**body, "confirm": True}), content_type="application/json")
    assert again.status_code == 200
    seats = phone.get("/api/seats").get_json()
    assert seats["guarded"] is True and not any(s["code"] for s in seats["seats"])
