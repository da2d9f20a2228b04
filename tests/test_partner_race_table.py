"""A whole partner card race at the simulated table of `fog-companion run --game partner-race`:
four players, every play made by laying the card on the card spot and moving the pawns by hand,
every fold said on the panel. The camera, the stabiliser and the session read it; at the end the
winners, the score and the LEDs agree with the rules engine fed the same plays. Also: the same
process killed and started again, and the in-process table other tests tell stories with."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.games.partner_race import rules
from companion.games.partner_race.rules import Fold, Play, RaceState
from companion.games.partner_race.track import COLOURS, goal, last, locked, pawns_of, team, track
from companion.app.run import Companion
from tests.tables import run_at_the_simulated_table, sim_config, wait_for

GAME = get_game("partner-race")


def worth(pawn: str, where: Mapping[str, str]) -> int:
    """How far a pawn has come: what a keen player weighs a play by."""
    pos = where[pawn]
    if pos == "home":
        return 0
    if pos == "start":
        return 5
    if locked(pawn, where):
        return 300
    g = goal(pos)
    if g is not None:
        return 150 + g
    t = track(pos)
    assert t is not None
    return 120 - (last(pawn.rsplit("-", 1)[0]) - t) % 64


def keen_play(state: RaceState) -> rules.Action:
    """The play that brings the player's team furthest against the other (bumps count), else fold."""
    mine = team(state.active)

    def value(where: Mapping[str, str]) -> int:
        return sum(worth(p, where) * (1 if c in mine else -1) for c in COLOURS for p in pawns_of(c))

    plays = [a for a in rules.legal_actions(state) if isinstance(a, Play)]
    if not plays:
        return Fold(state.active)
    return max(plays, key=lambda a: (value(rules.check(state, a)), str(a)))


class Table:
    """The players at the simulated table: hands lay cards and move pawns; the panel for the rest."""

    def __init__(self, companion: Companion, out: io.StringIO) -> None:
        from web_ui import create_app

        self.companion, self.out = companion, out
        self.session = companion.session
        self.client = create_app(companion).test_client()
        self.asked = 0

    def post(self, path: str, body: object = None) -> Any:
        return self.client.post(path, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})

    def play(self, action: str) -> None:
        """One turn: a card laid and the pawns moved all at once (a hand leaves the table), or a fold
        said on the panel; the companion must record that play."""
        before = self.session.state
        if action.startswith("fold "):
            assert self.post("/api/act", {"action": action}).status_code == 200
        else:
            self.companion.camera.set_table(GAME.expected(GAME.apply(before, action)))
        self.settle(action, before)

    def settle(self, action: str, before: RaceState) -> None:
        """Wait until the companion took ``action`` (or a play alike: a 7 split in another order that
        ends the same) as the move after ``before``; when it asks (the same kind of card laid again),
        the players say it was that one."""
        done = len(before.history)
        wait_for(lambda: len(self.session.state.history) > done or bool(self.session.status.decision), 60)
        if len(self.session.state.history) == done and self.session.status.decision:
            options = [c.actions[0] for c in self.session.status.decision]
            same = [k for k, o in enumerate(options) if alike(before, o, action)]
            assert len(same) == 1, (action, options)  # the play made is offered, once
            self.session.decide(same[0])  # the players say which card it was
            self.asked += 1
        assert wait_for(lambda: len(self.session.state.history) > done, 60), \
            f"the camera did not follow {action}\n{self.out.getvalue()[-2000:]}"
        recorded = self.session.state.history[done:]
        assert len(recorded) == 1 and alike(before, recorded[0], action), (action, recorded)
        assert self.session.status.out_of_sync is None, self.session.status.out_of_sync


def alike(state: RaceState, a: str, b: str) -> bool:
    """Two plays that leave the game the same (the history aside)."""
    left, right = GAME.to_json(GAME.apply(state, a)), GAME.to_json(GAME.apply(state, b))
    return {**left, "history": []} == {**right, "history": []}


def start(tmp_path: Path, seed: int) -> tuple[Companion, Table, io.StringIO]:
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path, **{"game.name": "partner-race"}), out=out)
    companion.start(panel=False)
    table = Table(companion, out)
    assert table.post("/api/games", {"game": "partner-race", "players": [{}, {}, {}, {}], "seed": seed}).status_code == 200
    table.post("/api/table/setup")
    assert wait_for(lambda: not companion.session.status.verifying, 60), out.getvalue()
    return companion, table, out


class Hands:
    """The players at a running ``fog-companion run``: hands on the simulated table (one piece at a
    time, as a hand moves them), the panel for a fold and for the companion's questions."""

    def __init__(self, port: int, lines: list[str]) -> None:
        self.port, self.lines, self.asked = port, lines, 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        from tests.tables import http_call

        code, data = http_call(self.port, method, path, body)
        assert code == 200, (path, body, code, data)
        return data

    def state(self) -> dict[str, Any]:
        return self.call("GET", "/api/state")

    def play(self, before: RaceState, action: str) -> None:
        """The card laid on the pile (the one under it out of sight), then each pawn that moves;
        a fold is said on the panel. The companion must record that play."""
        if action.startswith("fold "):
            self.call("POST", "/api/act", {"action": action})
        else:
            after = GAME.apply(before, action)
            if before.last_card is not None and before.last_card != after.last_card:
                self.call("POST", "/api/table/move", {"piece": f"card-{before.last_card}", "cell": None})
            self.call("POST", "/api/table/move", {"piece": f"card-{after.last_card}", "cell": "card-spot"})
            play = rules.parse_action(action)
            order = [s.pawn for s in play.steps] if isinstance(play, Play) and not play.swap else []
            moved = [p for p in after.where if after.where[p] != before.where[p]]
            for pawn in sorted(moved, key=lambda p: (p not in order, order.index(p) if p in order else 0, p)):
                cell = next(c for c, ps in GAME.expected(after).items() if pawn in ps)
                self.call("POST", "/api/table/move", {"piece": pawn, "cell": cell})
        done = len(before.history)
        state: dict[str, Any] = {}

        def now() -> dict[str, Any]:
            state.update(self.state())
            return state

        wait_for(lambda: len(now()["history"]) > done or bool(state["decision"]), 60)
        if len(state["history"]) == done and state["decision"]:
            options = [d["actions"][0] for d in state["decision"]]
            same = [k for k, o in enumerate(options) if alike(before, o, action)]
            assert len(same) == 1, (action, options)  # the play made is offered, once
            self.call("POST", "/api/decide", {"option": same[0], "question_id": state["question_id"]})  # which card
            self.asked += 1
        assert wait_for(lambda: len(now()["history"]) > done and state["out_of_sync"] is None, 60), \
            (action, state.get("out_of_sync"), "".join(self.lines[-20:]))
        recorded = state["history"][done:]
        assert len(recorded) == 1 and alike(before, recorded[0], action), (action, recorded)


def test_a_whole_partner_race_played_on_the_simulated_table(tmp_path: Path, figures: Callable[[str], None]):
    """`fog-companion run --game partner-race --players 4 --seed 11`, as a process without standard
    input; every play made by hands at its simulated table, the folds said on its panel."""
    import signal

    proc, lines, port = run_command(tmp_path, "--game", "partner-race", "--players", "4", "--seed", "11")
    hands = Hands(port, lines)
    engine = GAME.new_game(4, seed=11)  # the rules engine's own copy, fed the plays the companion records
    kinds = {"bumps": 0, "swaps": 0, "sevens split": 0, "for the partner": 0, "folds": 0}
    try:
        hands.call("POST", "/api/table/setup")
        assert wait_for(lambda: not hands.state()["verifying"], 60), "".join(lines)
        while not rules.winners(engine):
            # red cannot play a card in the second deal: it says so on the panel (no card is laid)
            fold = engine.deal == 2 and engine.active == "red" and engine.cards_left[3] == 4
            action = Fold("red") if fold else keen_play(engine)
            after = rules.apply(engine, action)
            kinds["bumps"] += bool(GAME.notes(engine, after).get("bumped"))
            if isinstance(action, Play):
                kinds["swaps"] += action.swap is not None
                kinds["sevens split"] += len(action.steps) > 1
                kinds["for the partner"] += any(not s.pawn.startswith(action.colour) for s in action.steps)
            else:
                kinds["folds"] += 1
            hands.play(engine, str(action))
            engine = GAME.apply(engine, hands.state()["history"][-1])
        final = hands.state()
        assert final["outcome"] is not None and set(final["outcome"]["winners"]) == set(rules.winners(engine))
        assert final["history"] == list(engine.history)
        score = hands.call("GET", "/api/score")
        assert score["winners"] == list(rules.winners(engine)) and any("8 of 8 pawns locked" in x for x in score["lines"])
        assert wait_for(lambda: set(hands.call("GET", "/api/leds")["labels"].values()) == {"the winners"}, 10)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert proc.returncode == 0 and "Traceback" not in "".join(lines), "".join(lines)
    assert kinds["bumps"] and kinds["swaps"] and kinds["sevens split"] and kinds["for the partner"] and kinds["folds"]
    figures(f"partner race played at `run --game partner-race`'s simulated table: {len(engine.history)} plays read, "
            f"{hands.asked} confirmed by the players (the same card kind laid again), deal {engine.deal}, "
            f"{', '.join(f'{n} {k}' for k, n in kinds.items())}; winners {' and '.join(rules.winners(engine))}")


def run_command(data: Path, *args: str) -> tuple[Any, list[str], int]:
    """``fog-companion run ...`` as a process with no standard input (as its service runs it): the
    process, its output so far, and the panel's port."""
    return run_at_the_simulated_table(data, *args)


def test_run_game_partner_race_reads_the_table_and_a_killed_process_resumes_the_game(tmp_path: Path):
    """`fog-companion run --game partner-race --players 4`: the simulated table is set up and checked,
    hands play three cards and a player folds; the process is killed outright, started again with
    no game named, and the same game comes back, checked against the table."""
    import signal

    from tests.tables import http_call

    proc, lines, port = run_command(tmp_path, "--game", "partner-race", "--players", "4", "--seed", "3")
    state: dict[str, Any] = {}

    def now() -> dict[str, Any]:
        state.update(http_call(port, "GET", "/api/state")[1])
        return state

    try:
        assert now()["game_name"] == "partner-race" and state["verifying"]
        http_call(port, "POST", "/api/table/setup")
        assert wait_for(lambda: not now()["verifying"], 60), "".join(lines)
        game = GAME.new_game(4, seed=3)
        for action in ("play yellow start yellow-1:start", "play green 8s green-1:start", "fold blue",
                       "play red 13s red-1:start"):
            if action.startswith("fold"):
                assert http_call(port, "POST", "/api/act", {"action": action})[0] == 200
            else:  # the card laid on the pile, the pawn moved by hand
                after = GAME.apply(game, action)
                for cell, pieces in GAME.expected(after).items():
                    for piece in pieces:
                        http_call(port, "POST", "/api/table/move", {"piece": piece, "cell": cell})
                for piece in {p for ps in GAME.expected(game).values() for p in ps} - \
                        {p for ps in GAME.expected(after).values() for p in ps}:
                    http_call(port, "POST", "/api/table/move", {"piece": piece, "cell": None})  # under the new card
            game = GAME.apply(game, action)
            assert wait_for(lambda a=action: now()["history"][-1:] == [a] and state["out_of_sync"] is None
                            and not state["decision"], 60), (action, state.get("out_of_sync"), "".join(lines[-20:]))
        proc.send_signal(signal.SIGKILL)  # pulled out: nothing is closed, nothing flushed on the way out
        proc.wait(10)
        proc, lines, port = run_command(tmp_path)  # started again: no game named
        assert wait_for(lambda: now().get("game_name") == "partner-race" and len(state.get("history", [])) == 4, 60), \
            "".join(lines)
        assert wait_for(lambda: not now()["verifying"] and state["out_of_sync"] is None, 60), "".join(lines)
        assert state["history"] == list(game.history) and state["active"] == game.active
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
    assert proc.returncode == 0 and "Traceback" not in "".join(lines), "".join(lines)


def test_a_late_tap_on_an_old_question_is_refused_when_a_new_one_asks_the_same_numbers(tmp_path: Path):
    """Two phones show "did Ada play another start?". One answers; the next player brings a pawn out
    while the start card still shows, and the same question is asked anew, option 1 as before. The
    other phone's tap on the old question arrives only now: it is refused as settled, the new
    question stays, and nothing is played for a question nobody saw."""
    companion, table, _out = start(tmp_path, seed=5)
    try:
        first = table.session.state
        table.play(f"play {first.active} start {first.active}-1:start")
        before = table.session.state
        out = f"play {before.active} start {before.active}-1:start"
        table.companion.camera.set_table(GAME.expected(GAME.apply(before, out)))  # the start card still shows
        assert wait_for(lambda: bool(table.session.status.decision), 60)
        old = table.client.get("/api/state").get_json()  # what both phones show
        assert "play another start" in old["question"] and old["question_id"]
        answered = table.post("/api/decide", {"option": 0, "question_id": old["question_id"]})  # the first phone
        assert answered.status_code == 200 and table.session.state.history[-1] == out

        now = table.session.state
        again = f"play {now.active} start {now.active}-1:start"
        table.companion.camera.set_table(GAME.expected(GAME.apply(now, again)))
        assert wait_for(lambda: bool(table.session.status.decision), 60)
        new = table.client.get("/api/state").get_json()
        assert new["question_id"] != old["question_id"] and new["decision"][0]["actions"] == [again]

        late = table.post("/api/decide", {"option": 0, "question_id": old["question_id"]})  # the other phone
        assert late.status_code == 409 and late.get_json()["error"] == "that question was already settled"
        assert table.session.state.history == now.history and table.session.status.decision  # still asked
        assert table.post("/api/decide", {"option": 0, "question_id": new["question_id"]}).status_code == 200
        assert table.session.state.history[-1] == again
    finally:
        companion.stop()
