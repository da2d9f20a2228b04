"""The honest loop, played at the table: the companion never says "in sync" when the table differs,
never charges a reading nobody made, and never loses a game to one tap.

The camera is the session's own door for pictures (``on_stable_change``), exactly what the
camera thread calls; the panel is Flask's test client on a companion with the simulated table.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.session.events import Event, EventBus, InlineBus
from companion.games import get_game, names
from companion.games.base import faced, unfaced
from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from companion.session.session import OutOfSyncError, Session
from companion.store.store import GameStore
from tests.tables import BOARD, moved, nb, position, sim_config
from web_ui import create_app

E = "E4"


def post(client: Any, path: str, body: Any = None) -> Any:
    return client.post(path, data=json.dumps(body if body is not None else {}),
                       headers={"Content-Type": "application/json"})


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(sim_config(tmp_path), out=io.StringIO())
    yield c
    c.stop()


@pytest.fixture
def client(companion: Companion) -> Any:
    return create_app(companion).test_client()


def playing(companion: Companion, client: Any, seed: int = 21, options: str = "") -> Session:
    """Three players, the setup seen by the camera, the draft done: the first turn of phase 2."""
    res = post(client, "/api/games", {"players": [{}, {}, {}], "seed": seed, "options": options})
    assert res.status_code == 200, res.get_json()
    session = companion.session
    session.on_stable_change(session.state.placement)  # the camera sees the setup
    while session.state.phase == "draft":
        pick = client.get("/api/state").get_json()["picks"][0]  # a pick the draft offers, as an action
        assert post(client, "/api/act", {"action": pick["action"]}).status_code == 200
    return session


def forward_step(state: Any) -> tuple[str, str, str]:
    """An islander of the active colour, where it stands and a free beach field ahead of it."""
    for piece in state.islanders_of(state.active_colour):
        cell = state.where.get(piece)
        if cell and BOARD.cells[cell].kind == "beach":
            for d in ("NW", "NE"):
                n = BOARD.step(cell, d)
                if n and BOARD.cells[n].kind == "beach" and n not in state.placement:
                    return piece, cell, n
    raise AssertionError("no free field ahead")


def far_cell(state: Any, piece: str) -> str:
    """A free beach field far from the piece: no legal move gets it there."""
    row = BOARD.row_of(state.where[piece])
    return next(c for c, cell in BOARD.cells.items() if cell.kind == "beach" and c not in state.placement
                and abs(ord(BOARD.row_of(c)[0]) - ord(row[0])) >= 5)


# ------------------------------------------------------------------------------ out of sync, and the ways out
def test_end_turn_is_refused_while_an_islander_stands_where_no_move_takes_it(companion: Companion, client: Any):
    session = playing(companion, client)
    piece = forward_step(session.state)[0]
    src, far = session.state.where[piece], far_cell(session.state, piece)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): far}))
    state = client.get("/api/state").get_json()
    sync = state["out_of_sync"]
    assert sync and piece in sync["offenders"]
    assert {"piece": piece, "belongs": src, "seen": far} in sync["pieces"]  # where it belongs, where it is seen
    for _ in range(3):  # the panel, again and again: never a turn ended with the table wrong
        res = post(client, "/api/end-turn")
        assert res.status_code == 409 and res.get_json()["kind"] == "out-of-sync"
    with pytest.raises(OutOfSyncError):
        session.end_turn("button")
    assert session.state.round == 1 and session.state.turn_index == 0
    session.on_stable_change(session.state.placement)  # hands put it back
    assert client.get("/api/state").get_json()["out_of_sync"] is None
    assert post(client, "/api/end-turn").status_code == 200


def test_a_turn_timer_running_out_ends_the_turn_with_what_was_confirmed_even_out_of_sync(companion: Companion,
                                                                                          client: Any):
    session = playing(companion, client, options="hourglass=60")  # The FOG's turn timer, its hourglass
    piece = forward_step(session.state)[0]
    far = far_cell(session.state, piece)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): far}))
    assert session.status.out_of_sync is not None
    turn = session.state.turn_index
    session.timer_expired(session.game.turn_timer(session.state).key)  # as the LEDs' clock calls it at 0 s
    assert session.state.turn_index != turn and session.state.history[-1] == "end-turn hourglass"
    assert session.status.out_of_sync is not None  # the table is still wrong, and still said so


def test_in_panel_only_play_end_turn_works_as_before(companion: Companion, client: Any):
    session = playing(companion, client)
    piece = forward_step(session.state)[0]
    far = far_cell(session.state, piece)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): far}))
    session.camera_lost("unplugged")
    assert post(client, "/api/end-turn").status_code == 200


def test_a_correction_the_camera_contradicts_is_out_of_sync_not_in_sync(companion: Companion, client: Any):
    session = playing(companion, client)
    piece, src, _ = forward_step(session.state)
    far = far_cell(session.state, piece)
    res = post(client, "/api/correction", {"piece": piece, "cell": far})  # the table still has it on src
    assert res.status_code == 200
    sync = res.get_json()["state"]["out_of_sync"]
    assert sync and sync["offenders"] == [piece] and {"piece": piece, "belongs": far, "seen": src} in sync["pieces"]
    assert post(client, "/api/end-turn").get_json()["kind"] == "out-of-sync"
    # Undo takes the correction back: the game and the camera agree again, at once.
    res = post(client, "/api/undo")
    assert res.status_code == 200 and res.get_json()["state"]["out_of_sync"] is None


def test_accepting_the_board_shows_what_it_will_log_first_and_undo_takes_it_back(companion: Companion, client: Any):
    session = playing(companion, client)
    piece, src, _ = forward_step(session.state)
    far = far_cell(session.state, piece)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): far}))
    before = client.get("/api/state").get_json()
    preview = post(client, "/api/correction", {"preview": True}).get_json()["preview"]
    assert preview["actions"] == [f"correct {piece}:{src}>{far}"] and preview["spends"] == [{"unit": "MP", "spent": 0, "left": 7}]
    assert preview["pieces"] == [{"piece": piece, "belongs": src, "seen": far}]
    assert client.get("/api/state").get_json() == before  # a preview changes nothing
    res = post(client, "/api/correction", {"accept": True})
    assert res.status_code == 200 and res.get_json()["state"]["out_of_sync"] is None
    assert session.state.where[piece] == far
    now = [0.0]
    session.clock = lambda: now[0]
    res = post(client, "/api/undo")  # the camera still sees it on the far field: the hands put it back now
    assert res.get_json()["state"]["out_of_sync"] is None and res.get_json()["state"]["step"]["to_move"] == [piece]
    now[0] += session.step_hold  # nobody has come to the table yet: calm, the step waits for hands
    assert not session.step_overdue() and client.get("/api/state").get_json()["step"]["waiting"]
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): None}))  # a hand lifts it
    now[0] += session.step_hold  # and nothing moves for the hold time: out of sync, the piece named
    assert session.step_overdue()
    sync = client.get("/api/state").get_json()["out_of_sync"]
    assert sync and {"piece": piece, "belongs": src, "seen": None} in sync["pieces"]  # in a hand, not on its field


def test_undoing_a_move_the_camera_read_says_at_once_which_piece_to_put_back(companion: Companion, client: Any):
    """The players asked for the undo: putting the piece back is a calm step at once, waiting for hands as
    long as nobody has touched the table, and a disagreement naming it only once a hand has been at work
    and the hold time has passed with nothing moving."""
    session = playing(companion, client)
    now = [0.0]
    session.clock = lambda: now[0]
    piece, src, dst = forward_step(session.state)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): dst}))
    assert session.state.where[piece] == dst and session.status.out_of_sync is None
    step = post(client, "/api/undo").get_json()["state"]["step"]
    assert step["to_move"] == [piece] and step["says"].startswith("undone, now on the table: put ")
    assert step["waiting"] and step["make"].startswith("Make it on the table: put ") and step["make"].endswith("(undone)")
    now[0] += session.step_hold * 10  # nobody has come to the table: nobody is late
    assert not session.step_overdue() and session.status.out_of_sync is None
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): None}))  # a hand lifts it
    assert not client.get("/api/state").get_json()["step"]["waiting"]
    now[0] += session.step_hold  # and nothing moves for the hold time
    assert session.step_overdue()
    sync = client.get("/api/state").get_json()["out_of_sync"]
    assert sync["offenders"] == [piece] and sync["pieces"] == [{"piece": piece, "belongs": src, "seen": None}]
    assert "undone" in sync["reason"]


# ------------------------------------------------------------------------------ swallowed tokens
def test_every_swallowed_token_still_on_the_table_is_listed_at_once_and_turning_them_over_clears_it(
        companion: Companion, client: Any):
    session = playing(companion, client)
    table = dict(session.state.placement)
    while not session.state.lost:
        session.on_stable_change(table)
        assert post(client, "/api/end-turn").status_code == 200
    session.on_stable_change(table)  # nobody turned them over yet
    state = client.get("/api/state").get_json()
    taken = sorted(session.state.lost)
    assert state["out_of_sync"] is None and sorted(t["piece"] for t in state["to_turn_over"]) == taken
    assert all(t["cell"] == next(c for c, ps in table.items() if t["piece"] in ps) for t in state["to_turn_over"])
    assert post(client, "/api/end-turn").status_code == 200  # the game goes on meanwhile
    session.on_stable_change({c: [p for p in ps if p not in taken] for c, ps in table.items()})
    assert client.get("/api/state").get_json()["to_turn_over"] == []


# ------------------------------------------------------------------------------ readings that are asked, not charged
def table_session(tmp_path: Path, state: Any, clock: Any = None) -> Session:
    session = Session(GameStore(tmp_path / "games.db"), EventBus(), clock=clock or (lambda: 0.0), step_hold=12.0)
    session.start(state, verify=False)
    session.on_stable_change(state.placement)
    return session


def test_a_plain_run_is_applied_without_asking(tmp_path: Path):
    state = position({E: "blue-elder-1"}, {"blue-elder-1": "black"})
    session = table_session(tmp_path, state)
    session.on_stable_change(moved(state.placement, blue_elder_1=nb(E, "NW")))
    assert session.state.where["blue-elder-1"] == nb(E, "NW") and session.state.mp_left == 6
    assert session.status.decision == []


def test_a_last_field_that_could_be_the_free_endurance_run_is_asked_while_mp_are_left(tmp_path: Path):
    # blue-warrior-3 (endurance) has moved; one more field could be its free run (ending the turn
    # with 3 MP unused) or a plain run. The players say which; nothing is charged meanwhile.
    a = nb(E, "NW")
    state = position({a: "blue-warrior-3"}, {"blue-warrior-3": "black"}, mp_left=3, moved=("blue-warrior-3",))
    session = table_session(tmp_path, state)
    session.on_stable_change(moved(state.placement, blue_warrior_3=nb(a, "NE")))
    assert session.state == state and session.status.question and "endurance" in session.status.question
    kinds = [c.details["movements"][0].split()[0] for c in session.status.decision]
    assert kinds == ["run", "endurance"]  # the plain reading first
    with pytest.raises(Exception, match="say which one"):
        session.end_turn("panel")
    session.decide(0)
    assert session.state.mp_left == 2 and session.state.turn_index == 0 and not session.state.endurance_used


def pushed_first(tmp_path: Path) -> Session:
    """Black's leader could have pushed red-elder-1 and run back: the camera sees only red-elder-1 move.
    That is also the first token of a push (the leader still to follow): a step, asked about only when
    the table stays so past the hold time."""
    a = nb(E, "NW")
    state = position({E: "blue-leader-1", a: "red-elder-1"}, {"blue-leader-1": "black", "red-elder-1": "pink"})
    now = [0.0]
    session = table_session(tmp_path, state, clock=lambda: now[0])
    session.on_stable_change(moved(state.placement, red_elder_1=nb(a, "NW")))
    assert session.status.step is not None and not session.status.decision and session.status.out_of_sync is None
    assert session.status.step.says == ("finish the move (the blue leader pushes the red elder (endurance)): "
                                        f"put the blue leader on {a}")
    now[0] += 12.0
    session.step_overdue()
    return session


def test_another_colours_islander_dragged_out_of_turn_is_asked_never_charged(tmp_path: Path):
    session = pushed_first(tmp_path)
    state = session.state
    assert state.mp_left == 7 and not state.history  # nothing charged
    assert session.status.question and "Only the red elder (endurance) moved" in session.status.question
    session.decide(None)  # none of that happened: it was moved out of turn
    sync = session.status.out_of_sync
    assert sync is not None and sync.offenders == ("red-elder-1",) and session.state.mp_left == 7


def test_a_push_then_a_run_back_is_charged_only_when_the_players_confirm_it(tmp_path: Path):
    a = nb(E, "NW")
    session = pushed_first(tmp_path)
    [reading] = session.status.decision
    session.decide(0)
    assert session.state.where == {"blue-leader-1": E, "red-elder-1": nb(a, "NW")}
    assert session.state.mp_left == 7 - reading.details["cost"] and reading.details["cost"] >= 3


# ------------------------------------------------------------------------------ one tap never destroys a game
def test_a_new_game_needs_a_confirmation_and_the_running_one_is_paused_and_resumed_whole(
        companion: Companion, client: Any):
    session = playing(companion, client)
    piece, _, dst = forward_step(session.state)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): dst}))
    first, position_before = session.game_id, session.state
    res = post(client, "/api/games", {"players": [{}, {}]})
    assert res.status_code == 409 and res.get_json()["kind"] == "game-running" and res.get_json()["running"] == first
    assert session.game_id == first  # nothing happened
    res = post(client, "/api/games", {"players": [{}, {}], "confirm": True})
    assert res.status_code == 200
    second = session.game_id
    games = {g["id"]: g["status"] for g in client.get("/api/games").get_json()["games"]}
    assert games == {first: "paused", second: "playing"}
    res = post(client, f"/api/games/{first}/resume")
    assert res.status_code == 409 and res.get_json()["kind"] == "game-running"
    res = post(client, f"/api/games/{first}/resume", {"confirm": True})
    assert res.status_code == 200 and session.game_id == first
    assert session.state == position_before and session.replayed() == position_before  # its log and its position
    games = {g["id"]: g["status"] for g in client.get("/api/games").get_json()["games"]}
    assert games == {first: "playing", second: "paused"}


def test_a_finished_game_cannot_be_resumed(companion: Companion, client: Any):
    session = playing(companion, client)
    while session.state.phase != "finished":
        session.on_stable_change(session.state.placement)
        post(client, "/api/end-turn")
    done = session.game_id
    assert post(client, "/api/games", {"players": [{}, {}, {}]}).status_code == 200  # nothing runs: no question
    res = post(client, f"/api/games/{done}/resume", {"confirm": True})
    assert res.status_code == 409 and "finished" in res.get_json()["error"]
    assert post(client, "/api/games/nope/resume", {"confirm": True}).status_code == 404


def test_a_resumed_game_is_checked_by_the_camera_again(tmp_path: Path):
    session = Session(GameStore(tmp_path / "games.db"), EventBus())
    first = session.start(new_game(BOARD, 3, seed=1), verify=False)
    session.start(new_game(BOARD, 3, seed=2), verify=False)
    assert session.resume(first, verify=True) and session.status.verifying
    assert session.verify_setup(session.state.placement) == [] and not session.status.verifying
    assert rules.legal_drafts(session.state)


def test_the_terminal_says_piece_by_piece_what_the_camera_disagrees_with(companion: Companion, client: Any):
    from companion.app.console import command

    said: list[str] = []
    companion.say = said.append  # type: ignore[method-assign]
    session = playing(companion, client)
    piece, src, _ = forward_step(session.state)
    far = far_cell(session.state, piece)
    session.on_stable_change(moved(session.state.placement, **{piece.replace("-", "_"): far}))
    command(companion, ["status"])
    assert "OUT OF SYNC" in said[-1] and f"{piece}: put it on {src} (seen on {far})" in said[-1]
    with pytest.raises(OutOfSyncError):
        command(companion, ["end"])
    command(companion, ["accept"])
    assert said[-1] == f"logged: correct {piece}:{src}>{far} (undo takes it back)"
    command(companion, ["status"])
    assert "the table and the game agree" in said[-1]


def test_the_terminal_offers_every_way_out_the_panel_does(companion: Companion, client: Any):
    """At the Pi's keyboard: the camera misses an islander that stands where the game has it; 'as-game'
    says the table is right and play goes on. Then an islander is read on a far field where it really
    stands: 'correct-piece' says so and the game follows the table."""
    from companion.app.console import command

    said: list[str] = []
    companion.say = said.append  # type: ignore[method-assign]
    session = playing(companion, client)
    piece, src, _ = forward_step(session.state)
    unseen = {c: tuple(p for p in ps if p != piece) for c, ps in session.state.placement.items() if ps != (piece,)}
    now = [1000.0]
    session.clock = lambda: now[0]  # the session's clock, moved by the story
    session.on_stable_change(unseen)  # the camera does not see it: first, a hand may be moving it
    now[0] += session.step_hold
    assert session.step_overdue()  # nothing moved for the hold time: the table and the game disagree
    command(companion, ["status"])
    assert "OUT OF SYNC" in said[-1] and "'as-game'" in said[-1] and "'correct-piece PIECE CELL'" in said[-1]
    command(companion, ["as-game"])
    assert said[-1].startswith(f"the table is right as the game has it: {piece} on {src}")
    assert session.status.out_of_sync is None and session.state.where[piece] == src

    other = next(p for p in session.state.islanders_of(session.state.active_colour) if p != piece
                 and p in session.state.where)
    far = far_cell(session.state, other)
    session.on_stable_change(moved(unseen, **{other.replace("-", "_"): far}))  # still missed; the other far off
    assert session.status.out_of_sync is not None
    command(companion, ["correct-piece", other, far])
    assert session.state.where[other] == far and session.status.out_of_sync is None
    assert "the table and the game agree" in said[-1]


def test_resuming_the_game_being_played_changes_nothing(companion: Companion, client: Any):
    session = playing(companion, client)
    before, status = session.state, client.get("/api/state").get_json()
    res = post(client, f"/api/games/{session.game_id}/resume")
    assert res.status_code == 200 and session.state is before
    assert client.get("/api/state").get_json() == status


def test_an_own_islander_running_alone_is_read_as_its_own_run_not_as_a_push_and_back(tmp_path: Path):
    # The same picture as a push by black's leader and a run back, but the elder is black's too:
    # its own one-field run is what a player most likely made, and it is cheaper. Never asked: it is
    # also the first token of the leader's push, so it waits calmly for the hold time (the leader
    # may follow), then the run is applied.
    a = nb(E, "NW")
    state = position({E: "blue-leader-1", a: "blue-elder-1"}, {"blue-leader-1": "black", "blue-elder-1": "black"})
    now = [0.0]
    session = table_session(tmp_path, state, clock=lambda: now[0])
    session.on_stable_change(moved(state.placement, blue_elder_1=nb(a, "NW")))
    assert session.status.step is not None and session.status.decision == [] and session.state.history == ()
    now[0] += 12.0
    assert not session.step_overdue() and session.status.out_of_sync is None
    assert session.status.decision == [] and session.state.history[-1] == f"move run blue-elder-1 {a}>{nb(a, 'NW')}"
    assert session.state.mp_left == 6


def test_a_move_entered_on_the_panel_waits_for_the_piece_on_the_table(companion: Companion, client: Any):
    session = playing(companion, client)
    piece, src, dst = forward_step(session.state)
    """A move tapped in on the panel is logged; the table has not followed yet. That is no
    disagreement but the hands' part still to do: a calm step saying what to put where. Left so past
    the hold time with nothing moving, it is out of sync like any move left part-way."""
    res = post(client, "/api/move", {"piece": piece, "cell": dst})
    got = res.get_json()["state"]
    assert session.state.where[piece] == dst  # the move is logged ...
    assert got["out_of_sync"] is None and got["step"]["to_move"] == [piece]  # ... and the table asked to follow
    name = session.game.words(session.state)[piece]
    assert got["step"]["says"] == f"entered on the panel, now on the table: put {name} on {dst}"
    lifted = {c: [p for p in ps if p != piece] for c, ps in session.expected().items()}
    session.on_stable_change(lifted)  # a hand lifts it: still on its way, still calm
    assert session.status.out_of_sync is None and session.status.step is not None
    session.on_stable_change(session.state.placement)  # ... and puts it there
    assert session.status.out_of_sync is None and session.status.step is None and session.state.where[piece] == dst


def test_a_move_entered_on_the_panel_that_the_table_never_follows_is_out_of_sync_after_the_hold_time(
        companion: Companion, client: Any):
    session = playing(companion, client)
    piece, src, dst = forward_step(session.state)
    post(client, "/api/move", {"piece": piece, "cell": dst})
    assert session.status.step is not None and not session.step_overdue()
    session.status.step.since -= session.step_hold  # nobody came to the table: waiting for hands, never red
    assert not session.step_overdue() and session.status.out_of_sync is None
    session.on_stable_change(moved(session.expected(), **{piece.replace("-", "_"): None}))  # a hand lifts it
    session.status.step.since -= session.step_hold  # the hold time passes with nothing moving
    assert session.step_overdue() and session.status.out_of_sync is not None
    assert "entered on the panel" in session.status.out_of_sync.reason
    session.on_stable_change(session.state.placement)  # the hands put it there after all
    assert session.status.out_of_sync is None


def test_after_the_board_is_knocked_a_picture_that_differs_says_check_the_fit_and_accuses_nobody(
        companion: Companion, client: Any):
    """The camera re-fitted a bumped board; the next picture reads an islander where no move takes
    it. That may be the fit, not a player: nobody is accused until the players have looked. A
    picture that reads as a legal move is a move, bump or not."""
    session = playing(companion, client)
    piece, here, there = forward_step(session.state)
    far = far_cell(session.state, piece)
    session.board_moved()
    answer = session.on_stable_change(moved(session.expected(), **{piece: far}))
    assert answer is not None and not answer.ok
    sync = client.get("/api/state").get_json()["out_of_sync"]
    assert sync["rule"] == "board-moved" and sync["reason"].startswith("board moved: check the fit")
    assert sync["offenders"] == [] and [p["piece"] for p in sync["pieces"]] == [piece]
    assert session.state.where[piece] == here  # nothing was logged
    # the players look and put it right: the picture matches the game again
    session.on_stable_change(session.expected())
    assert client.get("/api/state").get_json()["out_of_sync"] is None
    # a move that the rules allow is read as a move
    session.on_stable_change(moved(session.expected(), **{piece: there}))
    assert session.state.where[piece] == there
    # and once the game is read again, an impossible picture accuses as ever
    session.board_moved()
    session.on_stable_change(session.expected())
    answer = session.on_stable_change(moved(session.expected(), **{piece: far_cell(session.state, piece)}))
    assert answer is not None and not answer.ok and answer.rule != "board-moved"


@pytest.mark.parametrize("name", names())
def test_a_picture_that_differs_only_by_a_facing_the_game_does_not_keep_is_in_sync_and_red_always_names_a_piece(
        tmp_path: Path, name: str):
    """Hands set every piece down facing some way, and the camera reads it: on a place where the game
    keeps no facing (a character on its pad, a tile anywhere) that is no difference, so the table
    stays calm. A camera that reads no facing for a piece the game has facing a way contradicts
    nothing either. In every game, after a few moves, neither ever turns the panel red, and nothing
    red is ever published that names no piece."""
    game = get_game(name)
    rng = random.Random(11)
    state = game.new_game(players=min(game.players), seed=11)
    for _ in range(12):  # a few moves in: pieces on the board, some facing a way where the game has one
        actions = list(game.legal_actions(state))
        if not actions:
            break
        state = game.apply(state, rng.choice(actions))
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=game)
    session.start(state, verify=False)
    published: list[Event] = []
    session.bus.subscribe(published.append)
    expected = game.expected(state)
    session.on_stable_change(expected)
    assert session.status.out_of_sync is None
    turned = {c: [p if unfaced(p)[1] else faced(p, "N") for p in ps] for c, ps in expected.items()}
    session.on_stable_change(turned)
    assert session.status.out_of_sync is None and session.status.step is None, session.status.out_of_sync
    unread = {c: [unfaced(p)[0] for p in ps] for c, ps in expected.items()}
    session.on_stable_change(unread)
    assert session.status.out_of_sync is None, session.status.out_of_sync
    assert not [e for e in published if e.kind == "out-of-sync" and not e.data["pieces"]]


def test_a_move_entered_and_made_where_the_camera_cannot_read_it_is_taken_as_made_by_the_players(
        companion: Companion, client: Any):
    """A move tapped on the panel waits for hands for as long as the camera reads the table as it was;
    made where the camera cannot read it, the picture never changes: the players say the table is right,
    and the wait ends (never a wait with no way on)."""
    session = playing(companion, client)
    piece, src, dst = forward_step(session.state)
    post(client, "/api/move", {"piece": piece, "cell": dst})
    step = client.get("/api/state").get_json()["step"]
    assert step["waiting"] and step["make"].startswith("Make it on the table: put ")
    res = post(client, "/api/correction", {"as_game": True})
    assert res.status_code == 200 and res.get_json()["excused"] == [{"piece": piece, "belongs": dst, "seen": src}]
    got = client.get("/api/state").get_json()
    assert got["step"] is None and got["out_of_sync"] is None and session.state.where[piece] == dst
