"""Every play by tapping on the Board page, through the panel's API as the page sends it.

The page taps what it draws: a face-down desert disc by the name the shared table gives it
(``red-disc@B3``, never its number), a supply beside the board by its place; the dots the panel
answers are in the players' words, and the dot tapped is the play logged.
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
from companion.app.run import Companion
from tests.tables import sim_config
from web_ui import create_app

IDS = re.compile(r"\b[a-z]+-(?:disc|[a-z]*\d)\b|@|\bsupply-|\b[A-Z]\d+\|[A-Z]\d+\b")


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(sim_config(tmp_path), out=io.StringIO())
    yield c
    c.stop()


def post(client: Any, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), headers={"Content-Type": "application/json"})


def playing(companion: Companion, name: str, until: Any) -> Any:
    """A game of ``name`` played by the rules' first choices until ``until(view)``, started on the panel."""
    game = get_game(name)
    state = game.new_game(max(game.players), 3)
    while not until(game.view(state)):
        state = game.apply(state, game.legal_actions(state)[0])
    companion.session.start(state, verify=False, game=game)
    return create_app(companion).test_client()


def dots(client: Any, piece: str) -> list[dict[str, Any]]:
    res = client.get(f"/api/targets?piece={piece}")
    assert res.status_code == 200, res.get_json()
    for t in res.get_json()["targets"]:  # said to the players: no id in the words of a dot
        assert all(not IDS.search(c["summary"]) for c in t["choices"]), t
    return list(res.get_json()["targets"])


def test_a_face_down_disc_tapped_on_the_board_page_swaps_or_turns_over(companion: Companion):
    client = playing(companion, "desert-survivors", lambda v: v["phase"] == "move")
    view = client.get("/api/state").get_json()
    mine = [p for ps in view["placement"].values() for p in ps if p.startswith(view["active"] + "-disc@")]
    disc = next(p for p in mine if dots(client, p))  # the report's 'natural-disc@F2': "no piece on this board"
    where = disc.partition("@")[2]
    targets = {t["cell"]: t["choices"] for t in dots(client, disc)}
    assert targets[where][0]["summary"] == f"Turn your disc on {where} face up"
    swap_to, ways = next((c, w) for c, w in targets.items() if c != where)
    assert ways[0]["summary"] == f"Change places with the piece on {swap_to}"
    refused = post(client, "/api/move", {"piece": disc, "cell": swap_to, "action": "reveal " + where})
    assert refused.status_code == 400 and "tap one of the dots" in refused.get_json()["error"]  # not that dot's play
    res = post(client, "/api/move", {"piece": disc, "cell": swap_to, "action": ways[0]["action"]})
    assert res.status_code == 200, res.get_json()
    assert companion.session.state.history[-1] == f"swap {where} {swap_to}"


def test_a_tile_a_wall_and_a_mountain_are_laid_from_the_supplies_by_tapping(companion: Companion):
    client = playing(companion, "tile-race", lambda v: v["has_moved"])
    supplies = client.get("/api/state").get_json()["supplies"]
    tiles, mountains = sorted(supplies)[::-1]  # supply-tiles, supply-mountains
    laid = {t["cell"]: t["choices"][0] for t in dots(client, tiles)}
    square = next(c for c in laid if "|" not in c)
    wall = next(c for c in laid if "|" in c)
    a, b = wall.split("|")
    assert laid[square]["summary"].endswith(f"lays a tile on {square}")
    assert laid[wall]["summary"].endswith(f"stands a wall between {a} and {b}")
    assert any(t["choices"][0]["summary"].endswith("puts a mountain on " + t["cell"]) for t in dots(client, mountains))
    res = post(client, "/api/move", {"piece": tiles, "cell": square, "action": laid[square]["action"]})
    assert res.status_code == 200, res.get_json()
    assert companion.session.state.history[-1] == laid[square]["action"]


def test_a_pawn_on_its_exit_corner_leaves_the_grid_by_a_tap(companion: Companion):
    """Off the grid is no place on the board: the start spaces beside the exit corner carry the dot."""
    game = get_game("tile-race")
    state = game.apply(game.new_game(2, 1), "correct red red-1@out-G7,red-2@A7,blue-1@out-A1,blue-2@F1 "
                                            "tiles=C3 walls=B1|B2 mountains=-")
    companion.session.start(state, verify=False, game=game)
    client = create_app(companion).test_client()
    ways = {t["cell"]: t["choices"] for t in dots(client, "red-2")}
    assert {c for c in ways if c.startswith("start-")} == {"start-A7-N", "start-A7-W"}, ways
    assert ways["start-A7-N"][0]["summary"] == "Red pawn 2 steps off the grid from A7", ways
    res = post(client, "/api/move", {"piece": "red-2", "cell": "start-A7-N", "action": ways["start-A7-N"][0]["action"]})
    assert res.status_code == 200, res.get_json()
    assert game.outcome(companion.session.state) is not None  # both of red's pawns out: the race is won


def test_an_empty_place_tapped_offers_what_can_be_laid_there_from_a_hand_or_a_supply(tmp_path):
    """Desert survivors' discs are laid face down from each player's hand: on the Board page Ada taps an
    empty space on her own phone and picks which of her discs goes there. Her hand is her secret: the
    table's screen and a phone joined to no seat are offered none of it, and only words travel, never a
    disc's id. The tile race's tiles and mountains are offered on an empty square to anyone."""
    game = get_game("desert-survivors")
    state = game.new_game(3, seed=1)
    while not any(str(a).startswith("place") for a in game.legal_actions(state)):
        state = game.apply(state, game.legal_actions(state)[0])
    companion = Companion(sim_config(tmp_path, **{"game.name": "desert-survivors"}), out=io.StringIO())
    app = create_app(companion, {"DATA_DIR": str(tmp_path), "PIN": "4711"})
    companion.session.start(state, verify=False, game=game)
    companion.session.camera_lost("unplugged")
    try:
        screen, stranger, ada = app.test_client(), app.test_client(), app.test_client()
        for n, phone in enumerate((stranger, ada)):
            phone.environ_base["REMOTE_ADDR"] = f"192.168.1.{60 + n}"
        assert screen.post("/api/unlock", json={"pin": "4711"}).status_code == 200
        code = next(s["code"] for s in screen.get("/api/seats").get_json()["seats"] if s["seat"] == "natural")
        assert ada.post("/api/seats/join", json={"code": code}).status_code == 200
        answer = ada.get("/api/laid?cell=D1")
        offered = [c["summary"] for c in answer.get_json()["choices"]]
        assert "Place natural 1 face down on D1" in offered and "natural-1" not in answer.get_data(as_text=True)
        assert screen.get("/api/laid?cell=D1").get_json()["choices"] == []  # the TV lists nobody's hand
        assert stranger.get("/api/laid?cell=D1").get_json()["choices"] == []
        assert ada.get("/api/laid?cell=nowhere").status_code == 400
        res = ada.post("/api/laid", json={"cell": "D1", "summary": "Place natural 1 face down on D1"})
        assert res.status_code == 200, res.get_json()
        assert companion.session.state.board.get("D1") == "natural-1"
        again = ada.post("/api/laid", json={"cell": "D1", "summary": "Place natural 1 face down on D1"})
        assert again.status_code == 409 and "tap the place again" in again.get_json()["error"]
    finally:
        companion.stop()
    race = get_game("tile-race")
    laid = race.laid_at(race.apply(race.new_game(2, seed=1), "move red-1 A1"), "C3")
    assert [c.summary for c in laid] == ["Red lays a tile on C3", "Red puts a mountain on C3"]
