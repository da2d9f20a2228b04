"""The panel PIN is one guard: whatever route or action carries a change, the same check decides.

A household sets a PIN so that only the people at the table start games, correct the board and
undo. A phone on the Wi-Fi without it must not do any of that by another door (a correction sent
as an action, a route added later), and someone guessing must not win by changing addresses.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.games import get_game, names
from companion.app.run import Companion
from tests.tables import sim_config
from web_ui import create_app, security
from web_ui.security import ATTACK_WAIT, BUDGET, FREE_TRIES, MAX_CLIENTS, UNSAFE, WINDOW, Backoff

PIN = "4711"

# What the PIN guards, route by route. A route added to the panel fails this test until it is
# written here, so nobody adds a state-changing route without deciding whether the PIN guards it.
GUARDED_ROUTES = {
    ("POST", "/api/games"), ("POST", "/api/games/<game_id>/resume"),  # setup: start or resume a game
    ("POST", "/api/correction"), ("POST", "/api/undo"),
    ("POST", "/api/lens/views"), ("DELETE", "/api/lens/views"), ("POST", "/api/lens"), ("DELETE", "/api/lens"),
    ("POST", "/api/fit/save"),  # the camera's lens and the board file
    ("POST", "/api/seats/<seat>/release"), ("POST", "/api/seats/screen"),  # who holds a seat, the table's screen
}
OPEN_ROUTES = {
    ("POST", "/api/unlock"), ("POST", "/api/pin"),  # the PIN itself (choosing one has its own rule)
    ("POST", "/api/move"), ("POST", "/api/laid"), ("POST", "/api/end-turn"), ("POST", "/api/decide"),
    ("POST", "/api/act"),  # plays are open; a correction it carries is guarded (below)
    ("POST", "/api/setup/verify"), ("POST", "/api/fit"), ("POST", "/api/fit/edits"),  # looking, nothing kept
    ("POST", "/api/setup/read-board"),  # looking: the parts laid on the table, read into the Setup form
    ("POST", "/api/table/move"), ("POST", "/api/table/setup"), ("POST", "/api/table/turn-over"),
    ("POST", "/api/table/hand"),  # hands on the simulated table
    ("POST", "/api/seats/join"), ("POST", "/api/seats/leave"), ("POST", "/api/seats/act"),  # a phone's own seat
}


def send(client: Any, method: str, path: str, body: Any = None, **headers: str) -> Any:
    return client.open(path, method=method, data=json.dumps(body if body is not None else {}),
                       headers={"Content-Type": "application/json", **headers})


def mutating_routes(app: Flask) -> set[tuple[str, str]]:
    return {(method, rule.rule) for rule in app.url_map.iter_rules() for method in rule.methods & set(UNSAFE)}


def log_of(companion: Companion) -> str:
    """Everything the store keeps: every game and every logged event of each."""
    store = companion.session.store
    return json.dumps([[g, [(e.seq, e.kind, e.data) for e in store.events(g.id)]] for g in store.games()],
                      default=str)


def playing(tmp_path: Path, game: str) -> tuple[Companion, Any, Any]:
    """A game of ``game`` started on a panel with a PIN; the camera then failed (play from the panel)."""
    companion = Companion(sim_config(tmp_path, **{"game.name": game}), out=io.StringIO())
    app = create_app(companion, {"PIN": PIN, "DATA_DIR": str(tmp_path)})
    owner = app.test_client()
    players = [{} for _ in range(min(n for n in get_game(game).players if n > 1))]
    assert send(owner, "POST", "/api/games", {"game": game, "players": players, "seed": 5},
                **{"X-Fog-Pin": PIN}).status_code == 200
    assert send(owner, "POST", "/api/unlock", {"pin": PIN}).status_code == 200  # the table's own screen
    session = companion.session
    session.on_stable_change(session.expected())  # the camera saw the setup ...
    session.camera_lost("unplugged")  # ... and then failed: every change comes from the panel now
    return companion, app, owner


@pytest.fixture
def fog(tmp_path: Path) -> Iterator[tuple[Companion, Any, Any]]:
    companion, app, owner = playing(tmp_path, "fog")
    yield companion, app, owner
    companion.stop()


def test_every_state_changing_route_is_known_and_the_guarded_ones_refuse_without_the_pin(fog):
    companion, app, owner = fog
    game_id = companion.session.game_id
    assert mutating_routes(app) == GUARDED_ROUTES | OPEN_ROUTES, "say here whether the PIN guards a new route"
    bodies = {"/api/correction": {"accept": True}, "/api/games": {"players": [{}, {}, {}], "confirm": True},
              "/api/games/<game_id>/resume": {"confirm": True}, "/api/lens": {"confirm": True},
              "/api/fit/save": {"confirm": True}, "/api/unlock": {"pin": PIN}}
    for method, rule in sorted(GUARDED_ROUTES | OPEN_ROUTES):
        path = rule.replace("<game_id>", game_id)
        before = log_of(companion), companion.session.game_id, json.dumps(companion.session.game.to_json(
            companion.session.state))
        res = send(app.test_client(), method, path, bodies.get(rule, {}))  # a phone on the Wi-Fi, no PIN
        if (method, rule) in GUARDED_ROUTES:
            assert res.status_code == 401 and "PIN" in res.get_json()["error"], (method, rule, res.get_json())
            assert (log_of(companion), companion.session.game_id, json.dumps(companion.session.game.to_json(
                companion.session.state))) == before, (method, rule)
        else:
            assert res.status_code != 401, (method, rule, res.get_json())
    # the same requests with the PIN are let through to their own checks
    for method, rule in sorted(GUARDED_ROUTES - {("POST", "/api/games")}):
        res = send(owner, method, rule.replace("<game_id>", game_id), bodies.get(rule, {}), **{"X-Fog-Pin": PIN})
        assert res.status_code != 401, (method, rule, res.get_json())


def test_a_route_that_says_nothing_about_what_it_changes_is_guarded(fog):
    companion, _, _ = fog
    app = create_app(companion, {"PIN": PIN})

    @app.post("/api/something-new")
    def something_new() -> Any:  # a future route whose author forgot to declare it
        companion.session.undo()
        return {"ok": True}

    before = log_of(companion)
    res = send(app.test_client(), "POST", "/api/something-new")
    assert res.status_code == 401 and log_of(companion) == before


def one_of_each_kind(companion: Companion, steps: int = 60) -> list[str]:
    """Actions of every kind the game has (by their first word), found by playing legal actions."""
    session, game = companion.session, companion.session.game
    state, seen, found = session.state, set(), []
    for _ in range(steps):
        actions = [str(a) for a in game.legal_actions(state)]
        if not actions:
            break
        for text in actions:
            if text.split()[0] not in seen:
                seen.add(text.split()[0])
                found.append(text)
        state = game.apply(state, actions[-1])
    return found


@pytest.mark.parametrize("name", names())
def test_a_correction_sent_as_an_action_needs_the_pin_like_the_correction_route(tmp_path: Path, name: str):
    companion, app, owner = playing(tmp_path, name)
    try:
        session, game = companion.session, companion.session.game
        stranger = app.test_client()
        while not session.expected():  # a table that starts empty (discs placed at setup): play until one is
            action = str(game.legal_actions(session.state)[0])  # hands place face-down discs at the table
            if game.declaration.information == "per-seat":
                session.act(action)
            else:
                assert send(owner, "POST", "/api/act", {"action": action}).status_code == 200, action
        # the game's own correction, as the panel's Correction button would record it
        piece, cell = next((p, c) for c, ps in session.expected().items() for p in ps)
        target = next(c for c in game.layout(session.state).cells if c != cell and c not in session.expected()
                      and _correctable(game, session.state, piece, c))
        seen = {c: [p for p in ps if p != piece] for c, ps in session.expected().items()}
        seen.setdefault(target, []).append(piece)
        correction = str(game.correction(session.state, seen))
        assert correction.split()[0] == security.CORRECTION  # every game writes its corrections so
        disguises = [correction, "  " + correction.replace(" ", "   "), correction.upper()]
        for text in disguises:
            before = log_of(companion)
            res = send(stranger, "POST", "/api/act", {"action": text})
            assert res.status_code == 401, (text, res.get_json())
            assert log_of(companion) == before, text
        # every other kind of action is the players' own play: no PIN asked
        for text in one_of_each_kind(companion):
            kind = security.action_kind(game, text)
            assert kind == "play", text
            assert send(stranger, "POST", "/api/act", {"action": text}).status_code != 401, text
        # with the PIN the correction goes through and is logged like any correction
        res = send(owner, "POST", "/api/act", {"action": str(game.correction(session.state, {**{
            c: [p for p in ps if p != piece] for c, ps in session.expected().items()}, target: [piece]}))},
            **{"X-Fog-Pin": PIN})
        assert res.status_code == 200, res.get_json()
        assert session.state.history[-1].startswith("correct ") and piece in session.expected().get(target, ())
    finally:
        companion.stop()


def _correctable(game: Any, state: Any, piece: str, cell: str) -> bool:
    seen = {c: [p for p in ps if p != piece] for c, ps in game.expected(state).items()}
    seen.setdefault(cell, []).append(piece)
    try:
        game.apply(state, game.correction(state, seen))
    except Exception:  # noqa: BLE001 - a place the piece cannot be (another colour's goal circle)
        return False
    return True


def test_changing_addresses_buys_few_guesses_and_never_locks_the_owner_out(fog, figures):
    """Someone on the Wi-Fi guesses PINs from address after address. Each address is held back on its
    own, harder once the panel is guessed at from many; the owner's phone, which never guessed, is
    answered at once with the right PIN all the while (the panel never refuses a right answer)."""
    companion, app, owner = fog
    clock = [5000.0]
    app.extensions["pin_backoff"].clock = lambda: clock[0]
    addresses = [f"10.{i // 250}.{i % 250}.7" for i in range(300)]
    checked = refused = 0
    for _ in range(FREE_TRIES + 1):
        for address in addresses:
            client = app.test_client()
            client.environ_base["REMOTE_ADDR"] = address
            res = send(client, "POST", "/api/unlock", {"pin": "0000"})
            checked += res.status_code == 401
            refused += res.status_code == 429
    # the first addresses had their free tries before the panel was under attack; every later one one
    assert checked <= BUDGET * FREE_TRIES + len(addresses)
    assert refused == len(addresses) * (FREE_TRIES + 1) - checked and refused > len(addresses)
    newcomer = app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "10.9.9.9"
    res = send(newcomer, "POST", "/api/unlock", {"pin": PIN})
    assert res.status_code == 200  # the right PIN from a phone that never guessed: at once
    assert send(owner, "POST", "/api/undo").status_code != 401  # the phone unlocked before goes on
    # a guessing address waits far longer under attack: half a minute later it is still held back
    clock[0] += ATTACK_WAIT / 2
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = addresses[-1]
    assert send(client, "POST", "/api/unlock", {"pin": "1111"}).status_code == 429
    figures(f"PIN guessing from {len(addresses)} addresses x {FREE_TRIES + 1} tries: {checked} checked, {refused} "
            f"refused; the right PIN from a new phone answered at once (benchmarks/guessing.py: 3,000 addresses)")


def test_a_device_that_must_wait_is_not_forgotten_when_many_others_come():
    clock = [100.0]
    backoff = Backoff(lambda: clock[0], budget=10**9)  # the per-device table alone
    for _ in range(FREE_TRIES + 6):  # a device guessing, waiting out each wait
        clock[0] += backoff.wait_left("10.0.0.66")
        assert backoff.begin("10.0.0.66")[0] == 0
    waiting = backoff.wait_left("10.0.0.66")
    assert waiting > 0
    for i in range(MAX_CLIENTS * 2):  # many other addresses, one wrong PIN each
        backoff.begin(f"10.1.{i // 250}.{i % 250}")
    assert backoff.wait_left("10.0.0.66") == waiting  # still remembered, still waiting
    assert backoff.begin("10.0.0.66")[1] == "device"
