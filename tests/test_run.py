"""The whole companion on the simulated table: camera -> stabiliser -> session -> LEDs."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, sim_config, wait_for

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def drafted_table(tmp_path: Path, **overrides: Any) -> Iterator[tuple[Companion, io.StringIO]]:
    """The whole companion on the simulated table, the setup seen by the camera, the draft made."""
    out = io.StringIO()
    companion = Companion(sim_config(tmp_path, **overrides), lambda: new_game(BOARD, 3, seed=9), out=out,
                          environ={"FOG_LED_BACKEND": "recording"})
    companion.start()
    try:
        session = companion.session
        assert wait_for(lambda: not session.status.verifying), out.getvalue()
        while session.state.phase == "draft":
            session.act(str(rules.legal_drafts(session.state)[0]))
        yield companion, out
    finally:
        companion.stop()


def test_a_piece_moved_on_the_simulated_table_is_seen_and_charged(tmp_path: Path):
    with drafted_table(tmp_path) as (companion, out):
        session = companion.session
        state = session.state
        piece, src, dst = next(
            (p, state.where[p], n) for p in state.islanders_of(state.active_colour)
            if BOARD.cells[state.where[p]].kind == "beach"
            for n in (BOARD.step(state.where[p], "NW"), BOARD.step(state.where[p], "NE"))
            if n and BOARD.cells[n].kind == "beach" and n not in state.placement)
        companion.table(piece, dst)
        assert wait_for(lambda: session.state.where.get(piece) == dst), out.getvalue()
        assert session.state.mp_left == 6 and session.replayed() == session.state
        assert companion.hardware.strip.frames  # the LEDs were painted
    assert "stopped: LEDs off, camera released, log closed" in out.getvalue()


def test_run_starts_with_fake_backends_says_so_and_stops_cleanly_on_sigterm(tmp_path: Path,
                                                                             figures: Callable[[str], None]):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--players", "2", "--seed", "3"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT)
    lines: list[str] = []
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        lines.append(line)
        if line.startswith("camera:") or not line:
            break
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    rest, _ = proc.communicate(timeout=60)  # only against a hang: how long it took is a figure, not a test
    figures(f"run: stopped {time.monotonic() - started:.1f} s after SIGTERM")
    text = "".join(lines) + rest
    assert proc.returncode == 0, text
    assert "using the recording backend" in text and "stopped: LEDs off, camera released, log closed" in text
    # and the game is there to resume
    again = subprocess.run([sys.executable, "-m", "companion", "run", "--console"], input="status\nquit\n",
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert "resumed game" in again.stdout and "verifying the setup:" in again.stdout  # status answered, then quit


def test_the_end_of_the_terminal_input_ends_the_commands_not_the_companion():
    import threading

    from companion.app import console

    said: list[str] = []

    class Quiet:
        session = type("S", (), {"state": None})()
        panel_url = "http://127.0.0.1:8080/"

        def say(self, text: str) -> None:
            said.append(text)

    stopping = threading.Event()
    console.read_commands(Quiet(), stopping, io.StringIO("status\n"))
    assert not stopping.is_set() and "the companion goes on" in said[-1]
    console.read_commands(Quiet(), stopping, io.StringIO("quit\n"))
    assert stopping.is_set()
    assert not console.wants_console(False, io.StringIO(""))  # a pipe or /dev/null: no commands read
    assert console.wants_console(True, io.StringIO(""))  # unless --console asks for them


def test_a_hand_resting_over_the_board_blocks_the_view_calmly_and_removes_nothing(tmp_path: Path):
    with drafted_table(tmp_path, **{"detector.hold_seconds": 1.0}) as (companion, out):
        session = companion.session
        before = session.state
        crowded = max(BOARD.cells, key=lambda c: sum(1 for n in BOARD.neighbours(c) if n in before.placement))
        x, y = BOARD.cells[crowded].center_mm
        companion.camera.source.set_hand(f"at:{x},{y}")  # a hand comes to rest over the board
        assert wait_for(lambda: session.status.view_blocked, timeout=60), out.getvalue()
        assert session.status.out_of_sync is None and session.state == before  # nothing judged, nothing removed
        assert wait_for(lambda: companion.hardware.alert == "waiting")  # calm, not the red alarm
        assert companion.hardware.scene.segments["turn"][0].effect == "pulse"
        companion.camera.source.set_hand(None)
        assert wait_for(lambda: not session.status.view_blocked, timeout=60), out.getvalue()
        assert session.status.out_of_sync is None and session.state == before
        assert wait_for(lambda: companion.hardware.alert is None)  # the LEDs follow the session's news


class SlowReading:
    """The game, but its table's reading of a picture takes until the test says so (a search of a hard
    position); every other part is the game's own."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.entered = threading.Event()
        self.release = threading.Event()
        self.table = SlowTable(game.table, self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


class SlowTable:
    """A game's table whose ``reconcile`` waits for the test's word."""

    def __init__(self, table: Any, slow: SlowReading) -> None:
        self.inner, self.slow = table, slow

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def reconcile(self, state: Any, seen: Any, budget: Any = None) -> Any:
        self.slow.entered.set()
        self.slow.release.wait(60)
        return self.inner.reconcile(state, seen, budget)


def test_a_slow_reading_never_holds_up_the_camera_or_the_panel(tmp_path: Path):
    with drafted_table(tmp_path) as (companion, out):
        session = companion.session
        slow = SlowReading(session.game)
        session.game = slow  # type: ignore[assignment]
        state = session.state
        piece = next(p for p in state.islanders_of(state.active_colour) if BOARD.cells[state.where[p]].kind == "beach")
        dst = next(n for n in BOARD.neighbours(state.where[piece])
                   if BOARD.cells[n].kind == "beach" and n not in state.placement)
        companion.table(piece, dst)
        assert slow.entered.wait(30), out.getvalue()  # the reading is under way ...
        frames = companion.camera.frames
        assert wait_for(lambda: companion.camera.frames >= frames + 5)  # ... and frames keep coming
        assert companion.healthy()  # the watchdog keeps being fed
        assert session.snapshot().state is state  # the panel reads the session meanwhile
        slow.release.set()
        assert wait_for(lambda: session.state.where.get(piece) == dst), out.getvalue()


def test_a_knocked_board_is_fitted_again_and_said_on_the_panel_and_the_leds(tmp_path: Path):
    with drafted_table(tmp_path) as (companion, out):
        session = companion.session
        before = session.state
        events: list[str] = []
        session.bus.subscribe(lambda e: events.append(e.kind))
        companion.camera.source.bump(14, -9)  # someone knocks the table
        assert wait_for(lambda: "board-moved" in events, timeout=60), out.getvalue()
        assert wait_for(lambda: companion.hardware.system_alert == "board-moved")
        assert "[board-moved] reason=The board or the camera was moved" in out.getvalue()
        assert session.state == before and session.status.out_of_sync is None  # nothing moved on the board
        assert events.count("board-moved") == 1
        # the picture through the new fit is handed on once it settles and matches the game: a move made
        # after that is read as a move (one made before it is not charged: "board moved: check the fit")
        settled = companion.camera.frames + companion.camera.stabiliser.frames_needed + 4
        assert wait_for(lambda: companion.camera.frames >= settled)
        piece, dst = next((p, n) for p in before.islanders_of(before.active_colour)
                          if BOARD.cells[before.where[p]].kind == "beach"
                          for n in (BOARD.step(before.where[p], "NW"), BOARD.step(before.where[p], "NE"))
                          if n and BOARD.cells[n].kind == "beach" and n not in before.placement)
        companion.table(piece, dst)
        assert wait_for(lambda: session.state.where.get(piece) == dst), out.getvalue()
        assert session.status.out_of_sync is None


def test_run_refuses_an_answer_the_game_does_not_ask_by_name_before_anything_starts(tmp_path: Path):
    """``run --players`` answers the setup questions as the panel does, checked in the same place."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "FOG_DATA_DIR": str(tmp_path)}
    res = subprocess.run([sys.executable, "-m", "companion", "run", "--game", "partner-race", "--players", "4",
                          "--options", "enhanced"], capture_output=True, text=True, cwd=ROOT, env=env,
                         stdin=subprocess.DEVNULL, timeout=120)
    assert res.returncode == 2 and "Partner card race asks no question 'options' (its questions: seats)" in res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "games.db").exists()  # no game, no camera, no panel
