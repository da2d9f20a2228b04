"""A secret the companion keeps is not in anything a phone may read, unless its seat may know it.

Two games of hidden information are dealt and played the same way at two tables that differ only
in what nobody may know (``Game.secrets_changed``: which blocks are live, which face-down disc
stands where; for a phone joined to a seat, what that seat may not know: the others' discs and
fists). A phone on the Wi-Fi, joined to no seat or to each seat in turn, then asks every route it
may ask at both tables, and reads the live event stream, at the same moments: after the setup,
with a move entered on the panel still to be made by hand (the step names what to move), and with
the table wrong (out of sync, naming the pieces). Whatever it reads must be the same at both
tables, or it could tell them apart, and so learn the secret. A route that answers differently and
may is written below with its reason.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.games import Game, get_game, names
from companion.games.parts import Seats
from companion.games.answers import new_game
from companion.app.run import Companion
from tests.tables import sim_config
from web_ui import create_app
from web_ui.stream import hub_of

# What only the table's own screen is shown, and why it may differ there: the simulated table's page
# names every piece (it is the stand-in for the physical table, where hands move tokens by id), and
# the seats' codes are drawn per table. To every other viewer these answer the same at both tables
# (refused). The camera's own pictures show what anyone at the table sees: they are compared through
# the overlay the panel draws on them (test_the_camera_overlay_names_no_hidden_piece).
SCREEN_ONLY = {"/api/table", "/api/seats", "/api/seats/<seat>/qr.svg"}
PICTURES = {"/snapshot.jpg", "/stream.mjpg", "/api/fit/rectified.jpg"}
VIEWERS = ("screen", "phone", "stranger")


def secret_games() -> list[str]:
    """Every registered game that declares hidden information and can change it (its door member)."""
    return [n for n in names() if get_game(n).declaration.information != "none"
            and type(get_game(n).seating).secrets_changed is not Seats.secrets_changed]


PIN = "2468"


class Table:
    """One companion with its panel (a PIN set), a game dealt on it, and one viewer of the kind asked:
    a phone joined to ``seat`` by the code the table's screen shows, the table's screen itself (the
    PIN given), a phone at the table joined to no seat, or a stranger (no cookie, a script)."""

    def __init__(self, tmp_path: Path, game: Game, state: Any, seat: str | None = None,
                 kind: str = "phone") -> None:
        self.said = io.StringIO()  # what the companion prints: the service's journal
        self.companion = Companion(sim_config(tmp_path, **{"game.name": game.name}), out=self.said)
        self.app: Flask = create_app(self.companion, {"DATA_DIR": str(tmp_path), "PIN": PIN})
        self.screen = self.app.test_client()
        assert self._post(self.screen, "/api/unlock", {"pin": PIN}).status_code == 200
        self.phone = self.screen if kind == "screen" else self.app.test_client()
        if kind != "screen":  # a phone on the Wi-Fi, not the Pi's own display
            self.phone.environ_base["REMOTE_ADDR"] = "192.168.1.23"
        if kind == "phone":
            self.phone.get("/")  # it opened the Board page before
        self.game, self.data_dir = game, str(tmp_path)
        self.game_id = self.companion.new_game(state, game=game)
        self.session = self.companion.session
        self.seat, self.kind = seat, kind
        self.code = ""
        if seat is not None:  # the phone joins its seat as a player does, with the code the table shows
            self.code = code = next(s["code"] for s in self.screen.get("/api/seats").get_json()["seats"] if s["seat"] == seat)
            joined = self._post(self.phone, "/api/seats/join", {"code": code})
            assert joined.status_code == 200 and joined.get_json()["seat"] == seat, joined.get_data(as_text=True)
        self.published: list[Any] = []  # every event the session publishes from here on
        self.listening = self.session.bus.subscribe(self.published.append)

    @staticmethod
    def _post(client: Any, path: str, body: dict[str, Any]) -> Any:
        return client.post(path, data=json.dumps(body), content_type="application/json")

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, str]:
        """What this viewer is answered when it sends ``body`` (its own answer, compared like a GET's)."""
        response = self._post(self.phone, path, body)
        return response.status_code, response.get_data(as_text=True).replace(self.game_id, "GAME")

    def see(self, picture: dict[str, tuple[str, ...]]) -> None:
        self.session.on_stable_change(picture)

    def get(self, path: str) -> tuple[int, str]:
        response = self.phone.get(path)
        body = response.get_data(as_text=True) if response.mimetype.startswith(("application/json", "text/")) \
            else f"<{len(response.get_data())} bytes>"
        body = body.replace(self.game_id, "GAME").replace(self.data_dir, "DATA")
        return response.status_code, body.replace(self.code, "CODE") if self.code else body

    def events(self) -> list[str]:
        """What the live stream says to this phone (as its seat may read it): its greeting, then every
        event published so far as the stream sends it on (the event, then the state after it)."""
        response = self.phone.get("/events?limit=1", buffered=False)
        try:
            said = [next(iter(response.response)).decode()]
        finally:
            response.close()
        assert self.listening.drain()
        hub = hub_of(self.app)
        said += [hub._render(event, True, self.seat).decode() for event in self.published]
        said += [self.journal()]
        return [_timeless((0, text.replace(self.game_id, "GAME")))[1] for text in said]


    def journal(self) -> str:
        """The journal's lines so far (what a maintainer reads with journalctl), the game's id left out."""
        return _timeless((0, self.said.getvalue().replace(self.game_id, "GAME")))[1]


class ReadTable:
    """What a camera found in its last frame, as ``LiveCamera.seen`` gives it: each piece of a picture
    where its place is (the same pixels for the same place at both tables)."""

    simulated = False

    def __init__(self, picture: dict[str, tuple[str, ...]]) -> None:
        self.picture = picture

    def seen(self) -> dict[str, Any]:
        places = sorted(self.picture)
        return {"frame_size": [1280, 720], "board": None, "unplaced": [],
                "pieces": [{"piece": piece, "cell": cell, "x": float(places.index(cell)), "y": 0.0}
                           for cell in places for piece in sorted(self.picture[cell])]}

    def stop(self) -> None:
        """Nothing runs: the frame was read before."""


def same_table_answers(a: Table, b: Table) -> dict[str, tuple[Any, Any]]:
    """Every route the phone may GET, asked at both tables: those that differ."""
    differ: dict[str, tuple[Any, Any]] = {}
    paths: list[str] = []
    for rule in a.app.url_map.iter_rules():  # every route the app registers, a new one included
        if "GET" not in (rule.methods or ()) or rule.rule in PICTURES or rule.rule == "/events":
            continue
        if a.kind == "screen" and rule.rule in SCREEN_ONLY:
            continue
        seats = a.game.seats(a.session.state) or ("nobody",)
        for seat in seats if "<seat>" in rule.rule else (None,):
            if seat is not None and seat == a.seat:
                continue  # its own seat's QR code: the code it joined with, drawn per table
            path = rule.rule.replace("<game_id>", a.game_id).replace("<seat>", str(seat))
            paths.append(path.replace("<path:filename>", "panel.js"))
    paths += [f"/api/games/{a.game_id}/replay?step={n}" for n in range(4)]
    paths += [f"/api/targets?piece={p}" for p in sorted(a.game.layout(a.session.state).pieces)]
    for path in paths:
        asked_a = a.get(path)
        asked_b = b.get(path.replace(a.game_id, b.game_id))
        if _timeless(asked_a) != _timeless(asked_b):
            differ[path] = (asked_a, asked_b)
    if a.events() != b.events():
        differ["/events"] = (a.events(), b.events())
    return differ


def _timeless(answer: tuple[int, str]) -> tuple[int, str]:
    """An answer without the moments it was made at (the tables were dealt a moment apart)."""
    status, body = answer
    return status, re.sub(r'"(created|time|at|ts|since)": ?[0-9.e+-]+', r'"\1": 0', body)


def past_the_setup(game: Game, state: Any) -> Any:
    """The game once its pieces are laid out (the rules' first choices each time): where a piece
    that hides its face stands is a secret only from then on."""
    first = game.view(state).get("phase")
    for _ in range(80):
        if game.view(state).get("phase") != first:
            break
        state = game.apply(state, game.legal_actions(state)[0])
    return state


def the_same_move(a: Table, b: Table) -> tuple[str, str]:
    """A legal move at each table that the shared table sees alike (the same disc's place, not its
    number): the first of the rules' moves at the first table that has such a twin at the second."""
    game, here, there, seat = a.game, a.session.state, b.session.state, a.seat
    twins = {json.dumps(game.view(game.apply(there, m), seat), sort_keys=True): str(m)
             for m in game.legal_actions(there)}
    for move in game.legal_actions(here):
        twin = twins.get(json.dumps(game.view(game.apply(here, move), seat), sort_keys=True))
        if twin is not None:
            return str(move), twin
    raise AssertionError("no move looks the same at both tables")


def phones() -> list[tuple[str, str | None, str]]:
    """Each secret game with every kind of viewer: the table's screen, a phone joined to no seat, a
    stranger, and, in a game of seats, a phone joined to each seat."""
    out: list[tuple[str, str | None, str]] = []
    for name in secret_games():
        game = get_game(name)
        state = new_game(game, min(n for n in game.players if n > 1), seed=5)
        out += [(name, None, kind) for kind in VIEWERS] + [(name, seat, "seat") for seat in game.seats(state)]
    return out


@pytest.fixture(params=phones(), ids=lambda p: f"{p[0]}-{p[1] or p[2]}")
def two_tables(request: Any, tmp_path: Path) -> Iterator[tuple[Table, Table]]:
    name, seat, kind = request.param
    game = get_game(name)
    players = min(n for n in game.players if n > 1)
    dealt = past_the_setup(game, new_game(game, players, seed=5))
    other = game.secrets_changed(dealt, seat, 11)  # what this phone's seat may not know, dealt otherwise
    assert game.to_json(dealt) != game.to_json(other), "the two tables must differ in their secrets"
    a, b = Table(tmp_path / "a", game, dealt, seat, kind), Table(tmp_path / "b", game, other, seat, kind)
    yield a, b
    a.companion.stop()
    b.companion.stop()


def test_no_phone_can_tell_apart_two_deals_of_what_its_seat_may_not_know(two_tables: tuple[Table, Table]) -> None:
    a, b = two_tables
    for table in (a, b):  # the setup checked with one place's pieces still in hand: the difference is told
        expected = table.session.expected()
        table.see({c: ps for c, ps in expected.items() if c != sorted(expected)[0]})
        assert table.session.status.setup_differences
    assert same_table_answers(a, b) == {}
    for table in (a, b):
        table.see(table.session.expected())  # the table is set up as dealt
    assert same_table_answers(a, b) == {}

    # a move entered on the panel: the same public move at both tables, still to be made by hand
    move_a, move_b = the_same_move(a, b)
    a.session.act(move_a)
    b.session.act(move_b)
    assert same_table_answers(a, b) == {}

    # the hands make it; then the pieces on one place are put down on another, far off: the table is wrong
    for table in (a, b):
        table.see(table.session.expected())
    place, far = sorted(a.session.expected())[0], sorted(a.session.expected())[-1]
    for table in (a, b):
        now = table.session.expected()
        table.see({**{c: ps for c, ps in now.items() if c != place}, far: now[far] + now[place]})
        assert table.session.status.out_of_sync is not None
    assert same_table_answers(a, b) == {}

    # the correction the panel would preview for it (the screen is shown it; a phone is asked the PIN)
    assert a.post("/api/correction", {"preview": True}) == b.post("/api/correction", {"preview": True})

    # the table put right again, and the move undone on the panel: the undone event says what to put back
    for table in (a, b):
        table.see(table.session.expected())
        table.session.undo()
    assert same_table_answers(a, b) == {}

    # play on, the same public moves at both tables, the hands following each: a secret input (a fist
    # closed) is compared when it comes, and the tables again at the next round
    for table in (a, b):
        table.see(table.session.expected())  # the hands put back what was undone
    start, fisted = a.game.view(a.session.state).get("round"), False
    for moves in range(8):
        if a.game.outcome(a.session.state) is not None or a.game.view(a.session.state).get("round") != start:
            break
        try:
            move_a, move_b = the_same_move(a, b)
        except AssertionError:
            break  # the rules brought the secret out (a live block set off): the tables part here
        for table, move in ((a, move_a), (b, move_b)):
            table.session.act(move)
            table.see(table.session.expected())
        if move_a.startswith("commit") and not fisted:
            fisted = True
            assert same_table_answers(a, b) == {}, move_a
    print(f"{moves} moves played on at both tables; round {a.game.view(a.session.state).get('round')}")
    assert same_table_answers(a, b) == {}

    # a camera reads every piece by its marker, a face-down one too: the Camera page's picture of it
    for table in (a, b):
        table.companion.camera = ReadTable(table.session.last_picture or {})
    assert a.get("/api/camera/seen") == b.get("/api/camera/seen")
    journal = a.said.getvalue()
    assert journal.replace(a.game_id, "GAME") == b.said.getvalue().replace(b.game_id, "GAME")
    # and it is read by a maintainer: each event's parts as key=value in words, no Python list or dict
    assert "['" not in journal and "{'" not in journal, journal
    assert re.search(r"^\[setup-differs\] differences=\S+ \(expected \S", journal, re.M), journal
    assert re.search(r"^\[out-of-sync\] reason=.+ \| offenders=.+ \| pieces=.+ \(belongs ", journal, re.M), journal


@pytest.mark.parametrize("name", [n for n in names() if get_game(n).dealt])
def test_a_secret_is_dealt_from_more_than_the_seed_and_a_resumed_game_keeps_its_deal(name: str,
                                                                                     tmp_path: Path) -> None:
    # the seed is chosen at setup, in front of everyone: the same seed deals the secret afresh each time
    game = get_game(name)
    players = min(n for n in game.players if n > 1)
    deals = [new_game(game, players, seed=5) for _ in range(8)]
    assert len({json.dumps(game.to_json(s), sort_keys=True) for s in deals}) > 1
    assert len({json.dumps(game.public_json(game.to_json(s)), sort_keys=True) for s in deals}) == 1

    # the deal is kept with the game: the companion started again resumes the game as it was dealt
    first = Table(tmp_path, game, deals[0])
    first.companion.stop()
    again = Companion(sim_config(tmp_path, **{"game.name": name}), out=io.StringIO())
    try:
        assert again.session.resume()
        assert game.to_json(again.session.state) == game.to_json(deals[0])
    finally:
        again.stop()


@pytest.mark.parametrize("name", [n for n in secret_games() if get_game(n).declaration.information == "per-seat"])
def test_the_camera_overlay_names_no_hidden_piece(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Camera page's picture is drawn over what the camera read: at two tables dealt differently
    in what nobody may know, the real detector reads a rendered frame of each, and the overlay the
    panel draws on it (the labels beside each piece, the unknown and doubled markers) says the same
    at both, without the id or the marker number of a face-down piece; and the picture sent, overlay
    or not, has every face-down piece's marker painted over, so no ArUco reader finds it there."""
    from companion.table.secrecy import filter_for
    from vision import overlay
    from vision.detect import BoardDetector
    from vision.render import render_state

    game = get_game(name)
    dealt = past_the_setup(game, new_game(game, min(n for n in game.players if n > 1), seed=5))
    labels: dict[str, list[str]] = {}
    for table, state in (("a", dealt), ("b", game.secrets_changed(dealt, None, 11))):
        layout = game.layout(state)
        frame = render_state(layout, game.expected(state), seed=2, clean=True).frame
        seen = BoardDetector(layout).detect(frame)
        conceal = frozenset(filter_for(game, state, None).secret)
        assert conceal and any(p.partition("^")[0] in conceal for p in seen.pieces), "face-down pieces read"
        # the picture itself, with or without the overlay: no face-down piece's marker can be read off it
        masked = BoardDetector(layout).detect(overlay.mask_concealed(frame, seen, layout, conceal))
        assert not [p for p in masked.pieces if p.partition("^")[0] in conceal]
        assert len(masked.pieces) == len([p for p in seen.pieces if p.partition("^")[0] not in conceal])
        said: list[str] = []
        monkeypatch.setattr(overlay, "_label", lambda img, text, *rest: said.append(text))
        overlay.draw_overlay(frame, seen, layout, conceal)
        hidden = {str(m) for p in conceal for m in (layout.pieces[p].marker, *layout.pieces[p].faces.values())}
        marked = [t for t in said if not t.startswith("fiducials ")]  # the status line counts, names nothing
        assert not [t for t in marked if set(t.replace("[", " ").replace("]", " ").replace(",", " ").split()) & hidden]
        assert not [t for t in said if any(p in t for p in conceal)]
        labels[table] = sorted(t for t in said if " ms" not in t)  # the detector's time differs, nothing else
    assert labels["a"] == labels["b"]


def later_moments(name: str) -> list[tuple[str, str, str | None, str]]:
    """Each secret game at its next round and at its end, for a phone with no seat and for the first seat."""
    game = get_game(name)
    state = new_game(game, min(n for n in game.players if n > 1), seed=5)
    kinds = [(None, "phone")] + [(seat, "seat") for seat in game.seats(state)[:1]]
    moments = ("a fist closed", "round 2", "the end") if game.declaration.simultaneous else ("round 2", "the end")
    return [(name, moment, seat, kind) for moment in moments for seat, kind in kinds]


@pytest.mark.parametrize("name, moment, seat, kind", [m for n in secret_games() for m in later_moments(n)],
                         ids=lambda v: str(v))
def test_at_the_next_round_and_at_the_end_no_viewer_can_tell_two_deals_apart(name: str, moment: str,
                                                                              seat: str | None, kind: str,
                                                                              tmp_path: Path) -> None:
    """Played on at random to a fist closed by one side of a fight, to the next round (the desert's new
    layout of counters) and to the game's end, the table is dealt again in what this viewer may not know: every route, the event stream and
    the journal say the same at both tables, with the table as the game has it and with it wrong."""
    import random

    game = get_game(name)
    state, rng = past_the_setup(game, new_game(game, min(n for n in game.players if n > 1), seed=5)), random.Random(3)
    start, last = game.view(state).get("round"), ""
    for played in range(3000):
        if game.outcome(state) is not None or (moment == "round 2" and game.view(state).get("round") != start) or \
                (moment == "round 2" and start is None and played == 50) or \
                (moment == "a fist closed" and last.startswith("commit")):  # one side's secret input is in
            break
        last = str(rng.choice(game.legal_actions(state)))
        state = game.apply(state, last)
    assert moment != "a fist closed" or last.startswith("commit"), "no fist was closed"
    a = Table(tmp_path / "a", game, state, seat, kind)
    b = Table(tmp_path / "b", game, game.secrets_changed(state, seat, 11), seat, kind)
    try:
        for table in (a, b):
            table.see(table.session.expected())
        assert same_table_answers(a, b) == {}
        place, far = sorted(a.session.expected())[0], sorted(a.session.expected())[-1]
        for table in (a, b):  # a place's pieces put down on another: out of sync, naming them
            now = table.session.expected()
            table.see({**{c: ps for c, ps in now.items() if c != place}, far: now[far] + now[place]})
        assert same_table_answers(a, b) == {}
        assert a.post("/api/correction", {"preview": True}) == b.post("/api/correction", {"preview": True})
    finally:
        a.companion.stop()
        b.companion.stop()
