"""The panel through Flask's test client: every route, good and bad input, safety rules."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_game, names
from companion.games.answers import new_game as new_any_game
from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, moved, sim_config, wait_for, walled_in_swap
from tests.test_secrets import past_the_setup
from web_ui import create_app


def post(client: Any, path: str, body: Any = None, **headers: str) -> Any:
    return client.post(path, data=json.dumps(body if body is not None else {}),
                       headers={"Content-Type": "application/json", **headers})


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    """A companion with no game yet and no camera thread (pictures are handed to the session directly)."""
    c = Companion(sim_config(tmp_path), out=io.StringIO())
    yield c
    c.stop()


@pytest.fixture
def client(companion: Companion) -> Any:
    return create_app(companion).test_client()


def create_three_player_game(client: Any, seed: int = 21) -> dict[str, Any]:
    res = post(client, "/api/games", {"players": [{"name": "Ann", "colours": ["black"]}, {"name": "Bo"},
                                                  {"name": "Cy", "colours": ["yellow"]}], "seed": seed})
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def drafted(companion: Companion, client: Any) -> None:
    create_three_player_game(client)
    session = companion.session
    assert session.status.verifying
    session.on_stable_change(session.state.placement)  # the camera sees the setup
    while session.state.phase == "draft":
        pick = client.get("/api/state").get_json()["picks"][0]  # the draft's picks are actions like any other
        assert post(client, "/api/act", {"action": pick["action"]}).status_code == 200


def own_forward_step(state: Any) -> tuple[str, str]:
    for piece in state.islanders_of(state.active_colour):
        cell = state.where.get(piece)
        if cell and BOARD.cells[cell].kind == "beach":
            for d in ("NW", "NE"):
                n = BOARD.step(cell, d)
                if n and BOARD.cells[n].kind == "beach" and n not in state.placement:
                    return piece, n
    raise AssertionError("no forward step")


# ------------------------------------------------------------------------------------------ pages
@pytest.mark.parametrize("path", ["/", "/setup", "/table", "/calibration", "/score", "/games"])
def test_every_page_renders_with_its_navigation(client: Any, path: str):
    res = client.get(path)
    assert res.status_code == 200 and res.mimetype == "text/html"
    text = res.get_data(as_text=True)
    assert "panel.js" in text and 'aria-current="page"' in text


def test_a_game_page_replays_a_kept_game_and_an_unknown_one_is_404(client: Any):
    game = create_three_player_game(client)["game"]
    assert client.get(f"/games/{game}").status_code == 200
    assert client.get("/games/nope").status_code == 404


def test_static_files_are_served(client: Any):
    for name in ("panel.js", "board.js", "panel.css", "live.js", "setup.js", "table.js", "score.js", "games.js", "replay.js",
                 "calibration.js"):
        assert client.get(f"/static/{name}").status_code == 200, name


# ------------------------------------------------------------------------------------------ no game yet
def test_without_a_game_the_state_says_setup_and_play_requests_are_refused(client: Any):
    state = client.get("/api/state").get_json()
    assert state["phase"] == "setup" and state["game"] is None
    for path, body in (("/api/act", {"action": "draft black blue-leader-1"}), ("/api/end-turn", {}), ("/api/undo", {}),
                       ("/api/move", {"piece": "rock-1", "cell": "A1"}), ("/api/decide", {"option": 0}),
                       ("/api/correction", {"accept": True}), ("/api/setup/verify", {})):
        res = post(client, path, body)
        assert res.status_code == 409 and "no game" in res.get_json()["error"], path
    assert client.get("/api/score").status_code == 409


# ------------------------------------------------------------------------------------------ setup
def test_the_setup_wizard_creates_a_game_that_must_be_verified_before_the_draft(companion: Companion, client: Any):
    body = create_three_player_game(client)
    state = body["state"]
    assert state["phase"] == "draft" and state["verifying"]
    assert [p["name"] for p in state["players"]] and {c for p in state["players"] for c in p["colours"]} == \
        {"black", "pink", "yellow"}
    assert state["declaration"]["phases"][0]["name"] == "draft" and len(state["picks"]) == len(state["drafts"])
    res = post(client, "/api/act", {"action": state["picks"][0]["action"]})
    assert res.status_code == 409 and "camera has not checked" in res.get_json()["error"]
    companion.session.on_stable_change({})  # an empty table
    diffs = client.get("/api/state").get_json()["setup_differences"]
    assert diffs and {"cell", "expected", "seen"} == set(diffs[0])
    companion.session.on_stable_change(companion.session.state.placement)
    assert client.get("/api/state").get_json()["verifying"] is False


@pytest.mark.parametrize("body, words", [
    ({"players": [{"name": "A"}]}, "2 to 4 players"),
    ({"players": "three"}, "2 to 4 players"),
    ({"players": [{"name": "A", "colours": ["mauve"]}, {"name": "B"}, {"name": "C"}]}, "no colour 'mauve'"),
    ({"players": [{"colours": ["black"]}, {"colours": ["black"]}, {}]}, "already taken"),
    ({"players": [{"colours": ["black"]}, {}]}, "each plays 2 colour"),
    ({"players": [{"name": ""}, {}, {}]}, "a name"),
    ({"players": [7, {}, {}]}, "must be an object"),
    ({"players": [{}, {}, {}], "seed": "x"}, "'seed' must be"),
    ({"players": [{}, {}, {}], "seed": -1}, "'seed' must be"),
    ({"players": [{}, {}, {}], "seed": True}, "'seed' must be"),
    ({"players": [{}, {}, {}], "options": "sparkles"}, "unknown option"),
    ({"players": [{}, {}, {}], "options": "hourglass=2"}, "5 to 3600"),
    ({"solo": "99"}, "'scenario' = '99': one of 1, 2"),
    ({"solo": "../../etc/passwd.toml"}, "'scenario' = '../../etc/passwd.toml': one of 1, 2"),  # no file from a phone
    ({"players": [{}, {}, {}], "colour": "blue"}, "unknown field 'colour' (known: game, players"),
    ({"players": [{}, {}, {}], "answers": {"sparkles": True}}, "asks no question 'sparkles' (its questions: seats, "
                                                              "scenario, options)"),
    ({"players": [{"name": "A", "colour": "blue"}, {}, {}]}, "player 1 has no 'colour' (a seat is {name, colours})"),
    ({"players": [{}, {}, {}], "answers": {"scenario": "1"}}, "'scenario' is asked only when players is 1, not 3"),
    ({"solo": 1}, "'solo' must be"),
])
def test_bad_setups_are_refused_with_the_field_named_and_nothing_changes(client: Any, body: dict[str, Any],
                                                                          words: str):
    before = client.get("/api/state").get_json()
    res = post(client, "/api/games", body)
    assert res.status_code == 400 and words in res.get_json()["error"], res.get_json()
    assert client.get("/api/state").get_json() == before


def test_a_solo_game_and_a_two_player_game_can_be_set_up(client: Any):
    solo = post(client, "/api/games", {"solo": "1", "name": "Dana"}).get_json()["state"]
    assert solo["mode"] == "solo" and solo["players"][0]["name"] == "Dana"
    two = post(client, "/api/games", {"players": [{"name": "A"}, {"name": "B"}], "options": "enhanced",
                                      "confirm": True}).get_json()
    assert [len(p["colours"]) for p in two["state"]["players"]] == [2, 2] and two["state"]["options"] == "enhanced"
    games = client.get("/api/games").get_json()["games"]
    assert [g["status"] for g in games] == ["paused", "playing"]  # a new game never silently deletes the old


def test_bodies_that_are_not_json_objects_are_400(client: Any):
    assert client.post("/api/games", data="{not json", headers={"Content-Type": "application/json"}).status_code == 400
    assert post(client, "/api/games", [1, 2]).get_json()["error"] == "the body must be a JSON object"
    assert client.post("/api/games", data="players=3").status_code == 415  # a form post (cross-site shape)


# ------------------------------------------------------------------------------------------ play
def test_a_move_entered_on_the_panel_is_charged_and_an_illegal_one_refused(companion: Companion, client: Any):
    drafted(companion, client)
    state = companion.session.state
    piece, dst = own_forward_step(state)
    res = post(client, "/api/move", {"piece": piece, "cell": dst})
    assert res.status_code == 200 and res.get_json()["state"]["mp_left"] == 6
    companion.session.on_stable_change(companion.session.expected())  # the hands made it at the table
    far = next(c for c in BOARD.row_cells["J"] if c not in companion.session.state.placement)
    before = client.get("/api/state").get_json()
    res = post(client, "/api/move", {"piece": piece, "cell": far})
    assert res.status_code == 409 and res.get_json()["kind"] == "IllegalMoveError"
    assert client.get("/api/state").get_json() == before  # refused: nothing changed, not out of sync
    res = post(client, "/api/move", {"piece": "dragon", "cell": dst})  # no such piece: a bad request, named
    assert res.status_code == 400 and "'piece'" in res.get_json()["error"] and "dragon" in res.get_json()["error"]
    assert post(client, "/api/move", {"piece": piece, "cell": "Z99"}).status_code == 400
    assert post(client, "/api/move", {"piece": piece, "cell": 5}).status_code == 400


def test_end_turn_undo_and_the_move_log(companion: Companion, client: Any):
    drafted(companion, client)
    active = companion.session.state.active_colour
    res = post(client, "/api/end-turn")
    assert res.status_code == 200 and res.get_json()["state"]["active"] != active
    res = post(client, "/api/undo")
    assert res.status_code == 200 and res.get_json()["state"]["active"] == active
    assert res.get_json()["state"]["history"][-1].startswith("draft")


def test_out_of_sync_shows_the_offender_and_a_correction_is_recorded(companion: Companion, client: Any):
    drafted(companion, client)
    session = companion.session
    piece, _ = own_forward_step(session.state)
    far = next(c for c in BOARD.row_cells["J"] if c not in session.state.placement)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): far}))
    sync = client.get("/api/state").get_json()["out_of_sync"]
    assert sync and piece in sync["offenders"] and sync["reason"]
    res = post(client, "/api/correction", {"accept": True})
    assert res.status_code == 200 and res.get_json()["state"]["out_of_sync"] is None
    assert res.get_json()["state"]["history"][-1].startswith(f"correct {piece}:")


def test_a_correction_by_tapping_moves_one_piece_and_bad_pieces_or_cells_are_400(companion: Companion, client: Any):
    drafted(companion, client)
    state = companion.session.state
    piece, dst = own_forward_step(state)
    assert post(client, "/api/correction", {"piece": "nobody", "cell": dst}).status_code == 400
    assert post(client, "/api/correction", {"piece": piece, "cell": "Z99"}).status_code == 400
    assert post(client, "/api/correction", {"piece": piece, "accept": "yes"}).status_code == 400
    res = post(client, "/api/correction", {"piece": piece, "cell": dst})
    assert res.status_code == 200 and res.get_json()["state"]["placement"][dst] == [piece]


def test_an_ambiguous_move_is_put_to_the_players_and_decided(companion: Companion, client: Any):
    drafted(companion, client)
    session = companion.session
    session.state, picture = walled_in_swap(session.state)
    session.on_stable_change(picture)
    asked = client.get("/api/state").get_json()
    offered, question = asked["decision"], asked["question_id"]
    assert len(offered) == 2 and all("movements" in o and "cost" in o for o in offered)
    assert post(client, "/api/decide", {"option": "first", "question_id": question}).status_code == 400
    assert post(client, "/api/decide", {"option": 1}).status_code == 400  # which question it answers: missing
    assert post(client, "/api/decide", {"option": 7, "question_id": question}).status_code == 409
    res = post(client, "/api/decide", {"option": 1, "question_id": question})
    assert res.status_code == 200 and res.get_json()["state"]["decision"] == []
    assert res.get_json()["state"]["question_id"] is None
    res = post(client, "/api/decide", {"option": 0, "question_id": question})  # nothing waiting any more
    assert res.status_code == 409 and res.get_json()["error"] == "that question was already settled"


def test_a_finished_game_has_a_score_replay_and_export(companion: Companion, client: Any):
    drafted(companion, client)
    session = companion.session
    while session.state.phase != "finished":
        session.on_stable_change(session.state.placement)
        post(client, "/api/end-turn")
    score = client.get("/api/score").get_json()
    assert score["winners"] and set(score["colours"]) == {"black", "pink", "yellow"}
    game = session.game_id
    exported = client.get(f"/api/games/{game}?download=1")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    events = exported.get_json()["events"]
    last = client.get(f"/api/games/{game}/replay?step={len(events)}").get_json()
    assert last["phase"] == "finished" and {**last["score"], "lines": score["lines"]} == score
    assert client.get(f"/api/games/{game}/replay?step=0").get_json()["phase"] == "draft"
    assert client.get(f"/api/games/{game}/replay?step=abc").status_code == 400
    assert client.get("/api/games/nope/replay").status_code == 404
    assert client.get("/api/games/nope").status_code == 404


def test_a_game_started_untitled_is_exported_under_its_game_s_name(companion: Companion, client: Any):
    """The JSON a phone downloads is called by its game, as the Games and Replay pages say it, never
    by the bare id (the tile race's was titled "20261129-034311-c0d482" in a file called "fog-...")."""
    assert post(client, "/api/games", {"game": "tile-race", "seed": 1, "players": [{}, {}]}).status_code == 200
    game = companion.session.game_id
    exported = client.get(f"/api/games/{game}?download=1")
    assert exported.get_json()["title"] == "Tile race"
    assert f'filename="tile-race-{game}.json"' in exported.headers["Content-Disposition"]


# ------------------------------------------------------------------------------------------ safety
def test_cross_site_requests_are_refused(companion: Companion, client: Any):
    create_three_player_game(client)
    game = companion.session.game_id
    assert post(client, "/api/end-turn", Origin="http://evil.example").status_code == 403
    assert post(client, "/api/end-turn", **{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert post(client, "/api/games", {"players": [{}, {}, {}]}, Origin="null").status_code == 403
    assert companion.session.game_id == game
    assert post(client, "/api/setup/verify", Origin="http://localhost").status_code in (200, 409)  # own origin


def test_a_pin_guards_setup_corrections_and_undo(companion: Companion):
    app = create_app(companion, {"PIN": "4711"})
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "192.168.1.20"  # the owner's phone
    refused = post(client, "/api/games", {"players": [{}, {}, {}]})
    assert refused.status_code == 401  # in the players' words: how to give it is for docs/api.md
    assert refused.get_json()["error"] == "Starting or resuming a game needs the panel PIN."
    mistyped = post(client, "/api/unlock", {"pin": "0000"})
    assert mistyped.status_code == 401 and mistyped.get_json()["error"] == "That PIN is not right: try again."
    assert post(client, "/api/games", {"players": [{}, {}, {}]}, **{"X-Fog-Pin": "4711"}).status_code == 200
    undo = post(client, "/api/undo")
    assert undo.status_code == 401 and undo.get_json()["error"] == "Undo needs the panel PIN."
    wrong = post(client, "/api/undo", **{"X-Fog-Pin": "1111"})
    assert wrong.get_json()["error"] == "That PIN is not right: try again. Undo needs the panel PIN."
    assert post(client, "/api/unlock", {"pin": "4711"}).status_code == 200
    assert post(client, "/api/correction", {"accept": True}).status_code == 409  # unlocked; nothing to correct
    assert client.get("/api/setup/choices").get_json()["pin_required"] is True


def test_wrong_pins_slow_down_only_the_device_that_guesses(companion: Companion):
    from web_ui.security import FREE_TRIES

    app = create_app(companion, {"PIN": "4711"})
    clock = [1000.0]
    app.extensions["pin_backoff"].clock = lambda: clock[0]
    guesser, owner = app.test_client(), app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    owner.environ_base["REMOTE_ADDR"] = "192.168.1.20"
    for _ in range(FREE_TRIES):
        assert post(guesser, "/api/unlock", {"pin": "1234"}).status_code == 401
    assert post(guesser, "/api/unlock", {"pin": "1235"}).status_code == 401  # one more: now it has to wait
    waited = post(guesser, "/api/unlock", {"pin": "4711"})
    assert waited.status_code == 429 and "wait" in waited.get_json()["error"]  # even the right PIN waits
    # the owner, who never failed, is not locked out by the guesser
    assert post(owner, "/api/unlock", {"pin": "4711"}).status_code == 200
    # the guesser's wait doubles with every further wrong PIN
    waits = []
    for _ in range(3):
        clock[0] += 10_000
        assert post(guesser, "/api/unlock", {"pin": "0000"}).status_code == 401
        waits.append(app.extensions["pin_backoff"].wait_left("192.168.1.66"))
    assert waits[0] < waits[1] < waits[2]
    clock[0] += 10_000
    assert post(guesser, "/api/unlock", {"pin": "4711"}).status_code == 200  # after the wait, the right PIN works


def test_unknown_routes_and_methods_answer_json_errors(client: Any):
    res = client.get("/api/nothing")
    assert res.status_code == 404 and "error" in res.get_json()
    res = client.get("/api/act")
    assert res.status_code == 405 and "error" in res.get_json()
    assert client.get("/api/leds").status_code == 200
    big = post(client, "/api/games", {"title": "x" * 100_000})
    assert big.status_code == 413 and "error" in big.get_json()


# ------------------------------------------------------------------------------------------ live updates
def test_events_send_the_state_on_connect_then_every_change(companion: Companion, client: Any):
    drafted(companion, client)
    res = client.get("/events?limit=1", buffered=False)
    chunks = res.response
    first = next(chunks).decode() + next(chunks).decode()
    assert "event: state" in first and f'"game":"{companion.session.game_id}"' in first
    threading.Timer(0.3, lambda: companion.session.end_turn("panel")).start()
    rest = b"".join(chunks).decode()
    assert "event: game" in rest and '"kind":"action"' in rest and "end-turn panel" in rest
    res.close()


def test_the_virtual_leds_show_the_strip_by_segment(companion: Companion, client: Any):
    drafted(companion, client)
    companion.hardware.show(companion.session.state)
    leds = client.get("/api/leds").get_json()
    assert leds["backend"] and set(leds["segments"]) == {"status", "turn", "counter", "timer"}  # named by role
    assert len(leds["pixels"]) == 30
    # the game says what each role shows, and a count as a value of a total (the LED card says "7 of 7")
    assert leds["labels"]["counter"] == "MP left this turn" and leds["labels"]["status"].startswith("the FOG rows")
    state = companion.session.state
    assert leds["counts"]["counter"] == {"value": state.mp_left, "total": state.mp_for(state.active_colour)}


def test_a_timed_turn_shows_its_seconds_left_under_the_name_the_game_gives_its_timer(companion: Companion, client: Any):
    res = post(client, "/api/games", {"players": [{}, {}, {}], "seed": 21, "options": "hourglass=60"})
    assert res.status_code == 200, res.get_json()
    session = companion.session
    session.on_stable_change(session.state.placement)
    state = client.get("/api/state").get_json()
    assert state["timer_left"] is None and state["timer_label"] is None  # The FOG times no draft
    while session.state.phase == "draft":
        assert post(client, "/api/act", {"action": client.get("/api/state").get_json()["picks"][0]["action"]}).status_code == 200
    companion.hardware.show(session.state)  # the LEDs' clock starts with the first timed turn
    clock = companion.hardware.turn_clock
    clock.clock = lambda: clock.started_at + 15.0  # a quarter of the turn gone, read off the clock the LEDs count
    state = client.get("/api/state").get_json()
    assert state["timer_label"] == "Hourglass" and state["timer_left"] == 45.0  # seconds, as the page says them


# ------------------------------------------------------------------------------------------ camera
@pytest.fixture
def with_camera(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=21), out=io.StringIO())
    c.start()
    assert wait_for(lambda: c.camera.frames > 0 and not c.session.status.verifying)
    yield c
    c.stop()


def test_snapshot_stream_and_camera_figures(with_camera: Companion):
    client = create_app(with_camera, {"MJPEG_FPS": 20}).test_client()
    snap = client.get("/snapshot.jpg")
    assert snap.status_code == 200 and snap.data[:2] == b"\xff\xd8"
    assert client.get("/snapshot.jpg?overlay=0").data[:2] == b"\xff\xd8"
    stream = client.get("/stream.mjpg?frames=2")
    assert stream.mimetype == "multipart/x-mixed-replace" and stream.data.count(b"--frame") == 2
    info = client.get("/api/camera").get_json()
    assert info["present"] and info["board_found"] and info["fiducials_seen"] == [0, 1, 2, 3]
    assert info["expected_pieces"] == sum(map(len, with_camera.session.expected().values())) > 0
    assert info["missing"] == [], info  # the table laid as the game has it: every piece seen


def test_the_camera_page_counts_a_two_faced_piece_seen_whichever_face_is_up(tmp_path: Path):
    """The desert's discs lie face down: the camera names each by its back's marker (``red-3^back``),
    the page knows it only as ``red-disc@B1``. Every one is counted seen, and one taken off the table
    is said missing in the words a phone may read, never by the id that tells its number."""
    game = get_game("desert-survivors")
    c = Companion(sim_config(tmp_path, **{"game.name": game.name}), lambda: past_the_setup(game, new_any_game(game, 2, seed=5)),
                  out=io.StringIO())
    c.start()
    try:
        assert wait_for(lambda: c.camera.frames > 0 and not c.session.status.verifying)
        client = create_app(c).test_client()
        laid = [p for ps in c.session.expected().values() for p in ps]
        assert laid and all(p.endswith("^back") for p in laid)  # every piece face down
        info = client.get("/api/camera").get_json()
        assert (info["expected_pieces"], info["missing"]) == (len(laid), []), info
        cell, piece = next((cell, ps[0].split("^")[0]) for cell, ps in sorted(c.session.expected().items())
                           if "disc" in c.session.game.view(c.session.state)["placement"][cell][0])
        assert post(client, "/api/table/move", {"piece": piece, "cell": None}).status_code == 200
        assert wait_for(lambda: client.get("/api/camera").get_json()["missing"] != [])
        info = client.get("/api/camera").get_json()
        assert info["expected_pieces"] == len(laid) and info["missing"] == [f"the face-down {piece.split('-')[0]} disc "
                                                                            f"on {cell}"], info
    finally:
        c.stop()


def test_the_simulated_table_is_changed_by_hand_and_the_camera_sees_it(with_camera: Companion):
    companion = with_camera
    client = create_app(companion).test_client()
    session = companion.session
    while session.state.phase == "draft":
        session.act(str(rules.legal_drafts(session.state)[0]))
    piece, dst = own_forward_step(session.state)
    assert post(client, "/api/table/move", {"piece": "ghost", "cell": dst}).status_code == 400
    assert post(client, "/api/table/move", {"piece": piece, "cell": "Q1"}).status_code == 400
    assert post(client, "/api/table/hand", {"where": "elbow"}).status_code == 400
    assert post(client, "/api/table/hand", {"where": None}).get_json()["hand"] is None
    res = post(client, "/api/table/move", {"piece": piece, "cell": dst})
    assert res.status_code == 200 and res.get_json()["table"][dst] == [piece]
    assert wait_for(lambda: session.state.where.get(piece) == dst)
    assert session.state.mp_left == 6
    assert client.get("/api/table").get_json()["table"][dst] == [piece]
    assert post(client, "/api/table/setup").status_code == 200


def test_without_a_camera_the_camera_routes_say_so(client: Any):
    assert client.get("/snapshot.jpg").status_code == 503
    assert client.get("/stream.mjpg").status_code == 503
    assert client.get("/api/camera").get_json()["present"] is False
    assert post(client, "/api/table/move", {"piece": "rock-1", "cell": "A1"}).status_code == 409


def test_the_board_geometry_and_setup_choices_for_the_pages(client: Any):
    board = client.get("/api/board").get_json()
    cells = {c["id"]: c for c in board["cells"]}
    assert len(cells) == len(BOARD.cells) and {c["group"] for c in cells.values() if c["kind"] == "beach"} == \
        set(BOARD.beach_rows)
    assert len(cells["A1"]["outline"]) == 6 and cells["A1"]["kind"] == "beach"
    boat = next(c for c in board["cells"] if c["kind"] == "boat")
    boats = next(t for t in board["tracks"] if t["id"] == "boats")
    assert boat["boat"] in boats["spaces"] and len(boat["outline"]) >= 3  # every place has an outline to draw
    islander = board["pieces"]["blue-leader-1"]
    assert {"nation": "blue", "type": "leader", "characteristic": "push", "marker": 10}.items() <= islander.items()
    assert board["colours"]["pink"] == "#ff3c96"
    choices = client.get("/api/setup/choices").get_json()
    assert choices["colours"] == list(BOARD.player_colours) and "1" in choices["scenarios"]
    offered = [g["name"] for g in choices["games"]]  # every registered game, in the order registered
    assert offered == names() and offered[:3] == ["fog", "partner-race", "tile-race"] and choices["game"] == "fog"
    assert choices["pin_required"] is False and choices["unlocked"] is True


def test_every_rule_switch_on_the_setup_page_starts_a_game_with_that_option(client: Any, companion: Companion) -> None:
    """The setup page turns each switch into option text; each one, alone, must start a game the rules accept."""
    switches = client.get("/api/setup/choices").get_json()["switches"]
    assert {s["token"] for s in switches} >= {"hourglass", "enhanced", "min-crew", "leaders"}
    for sw in switches:
        assert sw["label"] and sw["help"], sw  # a name and one line of help for each
        text = f"{sw['token']}={sw['default']}" if sw["kind"] == "seconds" else \
            (f"{sw['token']}={sw['value']}" if sw.get("value") else sw["token"])
        players = int(sw.get("when", {}).get("players", 3))
        body: dict[str, Any] = {"options": text, "seed": 3, "confirm": True}
        if players == 1:
            body["solo"] = "1"
        else:
            body["players"] = [{} for _ in range(players)]
        res = post(client, "/api/games", body)
        assert res.status_code == 200, (sw, res.get_json())
        assert str(companion.session.state.options) == text, (sw, str(companion.session.state.options))


def test_the_games_list_names_the_players_and_how_each_game_stands(client: Any) -> None:
    create_three_player_game(client)
    first = client.get("/api/games").get_json()["games"][-1]
    assert first["players"] == ["Ann", "Bo", "Cy"] and first["status"] == "playing" and first["result"] is None
    res = post(client, "/api/games", {"players": [{"name": "Dee"}, {"name": "Eli"}], "seed": 2, "confirm": True})
    assert res.status_code == 200
    games = client.get("/api/games").get_json()["games"]
    assert [g["players"] for g in games] == [["Ann", "Bo", "Cy"], ["Dee", "Eli"]]
    assert [g["status"] for g in games] == ["paused", "playing"]  # the listing follows a change of status
