"""SIGKILL the whole running companion (camera, session, panel) at random points of a game, 100 times.

Each run of ``fog-companion run`` is driven through the panel's API - drafts, moves, turn ends,
undos, and a new game when one ends - and every request answered 200 counts as acknowledged.
After every kill the companion is started again on the same data directory; at the end the log
must hold every acknowledged event, exactly once, and the resumed state must equal the replay.
``FOG_CRASH_KILLS`` changes the number of kills (default 100).
"""

from __future__ import annotations

import collections
import http.client
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.session.session import Session
from companion.store.store import GameStore
from tests.tables import BOARD, http_call, wait_for

ROOT = Path(__file__).resolve().parent.parent
KILLS = int(os.environ.get("FOG_CRASH_KILLS", "100"))


def forward_moves(state: dict[str, Any]) -> list[tuple[str, str]]:
    where = {p: c for c, ps in state["placement"].items() for p in ps}
    out = []
    for piece, owner in sorted(state["owners"].items()):
        if owner != state["active"] or piece not in where or BOARD.cells[where[piece]].kind != "beach":
            continue
        for d in ("NW", "NE", "W", "E"):
            n = BOARD.step(where[piece], d)
            if n and BOARD.cells[n].kind in ("beach", "shore") and n not in state["placement"]:
                out.append((piece, n))
    return out


def drive(port: int, rng: random.Random, acked: list[tuple[str, int, str]], stop: threading.Event,
          trail: collections.deque[str]) -> None:
    """Play through the API until the process is killed under us; ``trail`` keeps the last answers."""
    try:
        while not stop.is_set():
            _, state = http_call(port, "GET", "/api/state")
            if state["phase"] in ("finished", "setup"):
                code, res = http_call(port, "POST", "/api/games", {"players": [{}, {}, {}], "seed": rng.randrange(1000)})
            elif state["verifying"]:
                code, res = http_call(port, "POST", "/api/table/setup")
                trail.append(f"verifying: setup_differences={state.get('setup_differences')} -> {code}")
                time.sleep(0.1)
                continue
            elif state["picks"]:  # a phase of picks (the draft): a pick is an action like any other
                code, res = http_call(port, "POST", "/api/act", {"action": rng.choice(state["picks"])["action"]})
            elif rng.random() < 0.08 and state["history"]:
                code, res = http_call(port, "POST", "/api/undo")
            elif (moves := forward_moves(state)) and rng.random() < 0.7:
                piece, cell = rng.choice(moves)
                code, res = http_call(port, "POST", "/api/move", {"piece": piece, "cell": cell})
            else:
                code, res = http_call(port, "POST", "/api/end-turn")
            trail.append(f"{state['phase']} verifying={state['verifying']} out_of_sync={state.get('out_of_sync')} "
                         f"decision={bool(state.get('decision'))} blocked={state.get('view_blocked')} "
                         f"camera={state.get('camera')} -> {code} {str(res)[:240] if code != 200 else ''}")
            if code == 200 and res["state"]["seq"]:
                s = res["state"]
                acked.append((s["game"], s["seq"], (s.get("history") or ["-"])[-1]))
    except (OSError, http.client.HTTPException, ValueError, KeyError):
        return  # killed mid-request: that request was not acknowledged


def start(data: Path, env: dict[str, str],
          output: collections.deque[str] | None = None) -> tuple[subprocess.Popen[str], int]:
    """Start ``fog-companion run``; what it prints afterwards is kept in ``output`` (the last lines)."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--data-dir", str(data)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if m := re.match(r"panel: http://[^:]+:(\d+)/", line):
            sink = output if output is not None else collections.deque(maxlen=1)
            threading.Thread(target=lambda: sink.extend(proc.stdout), daemon=True).start()
            return proc, int(m.group(1))
    raise AssertionError(f"the companion did not start (exit {proc.wait()}):\n" + "".join(seen[-30:]))


def test_a_new_game_set_up_with_a_marker_the_camera_once_misread_is_verified_at_the_simulated_table(tmp_path: Path):
    """What the driver below does after a game over: a new game, hands set the table up, the camera
    verifies it. Setup 28 puts green-sailor-2 on D4, where the simulated camera sees its marker at
    16 px; it once stayed 'D4 expected green-sailor-2, seen []' for good, and the game never began."""
    import io

    from companion.games import get_game
    from companion.app.run import Companion
    from tests.tables import sim_config

    game = get_game("fog")
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path), lambda: game.new_game(players=3, seed=5), out=out,
                          environ={"FOG_LED_BACKEND": "recording"})
    companion.start()
    try:
        session = companion.session
        assert wait_for(lambda: not session.status.verifying, 60), out.getvalue()
        setup = game.new_game(players=3, seed=28)
        assert game.expected(setup)["D4"] == ("green-sailor-2",)
        companion.new_game(setup)
        assert session.status.verifying
        companion.camera.set_table(session.expected())  # what POST /api/table/setup does
        assert wait_for(lambda: not session.status.verifying, 60), (session.status.setup_differences, out.getvalue())
        assert session.status.setup_differences == [] and session.state.phase == "draft"
    finally:
        companion.stop()


def test_sigkill_of_the_running_companion_at_random_points_loses_and_duplicates_nothing(
        tmp_path: Path, figures: Callable[[str], None]):
    rng = random.Random(int(os.environ.get("FOG_CRASH_SEED", "2027")))
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording",
           "FOG_CONFIG": str(tmp_path / "c.toml")}
    (tmp_path / "c.toml").write_text("[panel]\nhost = \"127.0.0.1\"\nport = 0\n")
    acked: list[tuple[str, int, str]] = []
    resumed_mid_game = 0
    for kill in range(KILLS + 1):
        output: collections.deque[str] = collections.deque(maxlen=40)
        proc, port = start(data, env, output)
        if kill == KILLS:  # the last start: check and stop cleanly
            _, state = http_call(port, "GET", "/api/state")
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
            break
        _, state = http_call(port, "GET", "/api/state")
        resumed_mid_game += state["phase"] in ("draft", "moving")
        stop = threading.Event()
        target = len(acked) + rng.randint(0, 25)  # kill after a counted number of acknowledged requests,
        trail: collections.deque[str] = collections.deque(maxlen=12)
        driver = threading.Thread(target=drive, args=(port, rng, acked, stop, trail), daemon=True)  # not seconds
        driver.start()
        assert wait_for(lambda: len(acked) >= target or not driver.is_alive(), 120), (
            "the game made no progress; the last answers:\n" + "\n".join(trail)
            + "\nthe companion printed:\n" + "".join(output))
        time.sleep(random.Random(kill).uniform(0.0, 0.05))  # and somewhere inside the next request
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        stop.set()
        driver.join(10)
    store = GameStore(data / "games.db")
    logged = {(g.id, e.seq): e for g in store.games() for e in store.events(g.id)}
    lost = [a for a in acked if (a[0], a[1]) not in logged]
    for game, seq, last in acked:  # and each acknowledged action is the one logged at that position
        event = logged.get((game, seq))
        if event is not None and event.kind == "action":
            assert event.data["action"] == last, (game, seq)
    for g in store.games():  # no duplicates: every game's log is 1..n without gaps
        seqs = [e.seq for e in store.events(g.id)]
        assert seqs == list(range(1, len(seqs) + 1)), g.id
    session = Session(store)
    if session.resume():
        assert session.replayed() == session.state
        assert state["history"] == list(session.state.history)  # what the restarted panel showed
    store.close()
    figures(f"crash (whole companion): {KILLS} kills, {resumed_mid_game} restarts in the middle of a game, "
          f"{len(acked)} acknowledged events, {len(lost)} lost")
    assert not lost, lost[:5]
    assert resumed_mid_game > 0  # by construction: kills land after counted moves, most in a running game
