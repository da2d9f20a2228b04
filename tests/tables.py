"""Helpers that set up positions at the table for the tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.fog.board import Board
from companion.games.fog.layout import board_layout
from companion.games.fog.options import Options
from companion.games.fog.setup import new_game
from companion.games.fog.solo import new_solo_game
from companion.games.fog.state import GameState, Player

BOARD = Board.standard()
LAYOUT = board_layout(BOARD)  # what the camera works from


def nb(cell: str, *directions: str) -> str:
    """The cell reached from ``cell`` by hex steps (NW/NE forwards, E/W sideways, SW/SE backwards)."""
    for d in directions:
        nxt = BOARD.step(cell, d)
        assert nxt is not None, f"no cell {d} of {cell}"
        cell = nxt
    return cell


def islander_with(characteristic: str, nation: str | None = None, not_: str | None = None) -> str:
    """An islander of the standard board with the given characteristic."""
    for i in BOARD.islanders.values():
        if i.characteristic == characteristic and (nation is None or i.nation == nation) and i.id != not_:
            return i.id
    raise LookupError(characteristic)


def three_players(**kw: object) -> tuple[Player, ...]:
    return (Player("Ann", ("black",)), Player("Ben", ("pink",)), Player("Cid", ("yellow",)))


def position(placement: Mapping[str, str | tuple[str, ...]], owners: Mapping[str, str] | None = None,
             players: tuple[Player, ...] | int | None = None, options: str = "", **fields: object) -> GameState:
    """A game in the moving phase with exactly the given pieces on the board.

    ``placement`` maps cell -> piece (or a tuple of stacked pieces, bottom first).
    """
    players = three_players() if players is None else players
    base = new_game(BOARD, players=players if isinstance(players, tuple) else players, seed=0,
                    options=Options.parse(options))
    cells = {c: (p if isinstance(p, tuple) else (p,)) for c, p in placement.items()}
    if isinstance(players, tuple):  # keep the given seating: the first colour moves first
        base = replace(base, players=players, turn_order=tuple(c for p in players for c in p.colours))
    state = replace(base, setup=cells, placement=cells)
    state = replace(state.initial(), phase="moving", owners=dict(owners or {}), mp_left=7)
    return replace(state, **fields) if fields else state


def solo_position(placement: Mapping[str, str | tuple[str, ...]], scenario: str = "1", **fields: object) -> GameState:
    base = new_solo_game(scenario)
    cells = {c: (p if isinstance(p, tuple) else (p,)) for c, p in placement.items()}
    state = replace(base, setup=cells, placement=cells)
    return replace(state, **fields) if fields else state


def moved(placement: Mapping[str, tuple[str, ...]], **moves: str) -> dict[str, tuple[str, ...]]:
    """The placement after moving pieces by hand: ``moved(p, blue_elder_1="E4")`` (``_`` for ``-``)."""
    out = {c: list(ps) for c, ps in placement.items()}
    for piece, cell in moves.items():
        piece = piece.replace("_", "-")
        for ps in out.values():
            if piece in ps:
                ps.remove(piece)
        out.setdefault(cell, []).append(piece)
    return {c: tuple(ps) for c, ps in out.items() if ps}


def wait_for(predicate: Callable[[], object], timeout: float = 30.0) -> bool:
    """Poll until ``predicate()`` holds (for threads that react to the camera)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def sim_config(data_dir: Any, **overrides: Any) -> Any:
    """A companion configuration for tests: the simulated table, recording LEDs, data in ``data_dir``."""
    from companion.app.config import defaults

    values = {"camera.source": "sim", "data.dir": str(data_dir), "leds.backend": "recording", "panel.port": 0,
              "panel.host": "127.0.0.1"}
    values.update(overrides)
    return defaults().with_overrides(values)


def walled_in_swap(state: GameState) -> tuple[GameState, dict[str, tuple[str, ...]]]:
    """Two islanders of the active colour side by side, walled in by obstacles, and the picture of
    them having swapped places: two readings (who moved first) that differ in outcome."""
    e = "E4"
    pair = {e, nb(e, "E")}
    around = sorted({n for c in pair for n in BOARD.neighbours(c)} - pair)
    rocks = [f"{k}-{i}" for k in ("rock", "bush", "driftwood") for i in range(1, 6)]
    placement: dict[str, tuple[str, ...]] = {c: (r,) for c, r in zip(around, rocks)}
    placement[e] = ("blue-warrior-3",)
    placement[nb(e, "E")] = ("green-leader-1",)
    colour = state.active_colour
    assert colour is not None
    walled = replace(state, placement=placement, owners={"blue-warrior-3": colour, "green-leader-1": colour})
    return walled, moved(placement, blue_warrior_3=nb(e, "E"), green_leader_1=e)


def collect_output(proc: Any) -> list[str]:
    """The lines a process prints, gathered on a thread as they come (the list grows)."""
    import threading

    lines: list[str] = []

    def collect() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)

    threading.Thread(target=collect, daemon=True).start()
    return lines


def http_call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One request to a running companion's panel on loopback: (status, JSON answer)."""
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=json.dumps(body or {}) if method == "POST" else None,
                 headers={"Content-Type": "application/json"})
    res = conn.getresponse()
    data = json.loads(res.read() or b"null")
    conn.close()
    return res.status, data


def run_at_the_simulated_table(data: Any, *args: str, config: str = "") -> tuple[Any, list[str], int]:
    """``fog-companion run ...`` as its unit runs it (a process of its own, no standard input) on the
    simulated table with the LEDs recording: the process, its output (a list that grows as it prints)
    and the panel's port. ``config``: the config file's lines after ``[camera] source = "sim"``."""
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    path = Path(data) / "config.toml"
    path.write_text('[camera]\nsource = "sim"\n' + config)
    env = {**os.environ, "PYTHONPATH": str(root), "FOG_LED_BACKEND": "recording", "FOG_CONFIG": str(path)}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--host", "127.0.0.1", "--port", "0",
                             "--data-dir", str(data), *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=root)
    lines = collect_output(proc)
    assert wait_for(lambda: any(re.match(r"panel: http://", x) for x in lines) or proc.poll() is not None, 90), lines
    port = next(int(m.group(1)) for x in lines if (m := re.match(r"panel: http://[^:]+:(\d+)/", x)))
    return proc, lines, port


class FrameByFrame:
    """A companion reading a simulated table frame by frame with the real detector, on a clock the test
    moves (0.2 s a frame), the session's hold times on the same clock: what happens between two frames is
    in the test's hands, never the machine's speed. ``kinds``: every event the session published, in
    order. Use it as a context manager."""

    def __init__(self, data_dir: Any, game: str, start: Any, pose: Any = None) -> None:
        import io

        from companion.app.run import Companion
        from vision.live import LiveCamera
        from vision.sources import SimulatedTable

        self.companion = Companion(sim_config(data_dir, **{"game.name": game}), lambda: start, out=io.StringIO())
        self.session = self.companion.session
        self.clock = _Clock()
        self.source = SimulatedTable(self.companion.layout, self.session.expected(), clean=True)
        if pose is not None:
            self.source.pose = pose
        self.source.open()
        self.camera = LiveCamera(self.source, self.companion.layout, self.companion._on_picture,
                                 self.companion._on_health, clock=self.clock)
        self.camera.stabiliser.clock = self.clock
        self.session.clock = self.clock  # the hold time of a move left part-way runs on the same clock
        self.companion.camera = self.camera
        self.kinds: list[str] = []
        self._sub = self.session.bus.subscribe(lambda e: self.kinds.append(e.kind))

    def frames(self, n: int) -> None:
        """``n`` frames, 0.2 s apart, each read and its events handed on before the next."""
        for _ in range(n):
            self.clock.now += 0.2
            self.camera.step()
            assert self.companion.reconciler.wait_idle(60)  # the picture is read on its own thread
            self.session.step_overdue()  # as the main loop checks it (every second there; every frame here)
            assert self.companion.subscription.drain(60) and self._sub.drain(60)  # and the events handed on

    def __enter__(self) -> FrameByFrame:
        return self

    def __exit__(self, *exc: object) -> None:
        self._sub.close()
        self.companion.stop()


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
