"""The island battle at the simulated table of `fog-companion run --game island-battle`, started as its
service starts it (no standard input, a process of its own): the table is set up with every piece in
its own slot of its box and the camera checks it; the players then place the ten blocks and put their
twenty characters down one token at a time, each character turned the way it is to face, and the
companion reads every placing from the camera. Then the turns: the companion rolls, the player moves
a character by hand (turned on its last pip when the move ends so), and the camera reads the move
with the facing it ends in.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.games.base import unfaced
from companion.games.island_battle import rules
from companion.games.island_battle.actions import End, Enter, Move, Shoot, Turn
from tests.tables import collect_output, http_call, wait_for

GAME = get_game("island-battle")
SEED = 5
TURNS = 4  # turns played after the setup: each a roll, a move made by hand and read, an end


def start(data: Path, *args: str) -> tuple[subprocess.Popen[str], list[str], int]:
    """``fog-companion run ...`` as its unit runs it, on the simulated table: the process, its output, the port.
    The camera keeps a piece it no longer sees 1 s: these hands never rest over the board."""
    root = Path(__file__).resolve().parent.parent
    (data / "config.toml").write_text('[camera]\nsource = "sim"\n[detector]\nhold_seconds = 1.0\n')
    env = {**os.environ, "PYTHONPATH": str(root), "FOG_LED_BACKEND": "recording",
           "FOG_CONFIG": str(data / "config.toml")}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--host", "127.0.0.1", "--port", "0",
                             "--data-dir", str(data), *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=root)
    lines = collect_output(proc)
    assert wait_for(lambda: any(re.match(r"panel: http://", x) for x in lines) or proc.poll() is not None, 90), lines
    port = next(int(m.group(1)) for x in lines if (m := re.match(r"panel: http://[^:]+:(\d+)/", x)))
    return proc, lines, port


class Table:
    """The two players' hands at the running companion's simulated table."""

    def __init__(self, port: int, lines: list[str]) -> None:
        self.port, self.lines, self.tokens = port, lines, 0
        self.state: dict[str, Any] = {}

    def now(self) -> dict[str, Any]:
        self.state = http_call(self.port, "GET", "/api/state")[1]
        return self.state

    def move(self, piece: str, cell: str | None, facing: str | None = None) -> None:
        """One token lifted and put down by one hand (turned to ``facing``)."""
        body: dict[str, Any] = {"piece": piece, "cell": cell}
        if facing:
            body["facing"] = facing
        status, answer = http_call(self.port, "POST", "/api/table/move", body)
        assert status == 200, answer
        self.tokens += 1

    def make(self, before: Any, after: Any) -> None:
        """The table taken by hand from ``before`` to ``after``: each piece whose place or way changed."""
        was = {unfaced(p)[0]: (c, unfaced(p)[1]) for c, ps in GAME.expected(before).items() for p in ps}
        for cell, pieces in GAME.expected(after).items():
            for entry in pieces:
                piece, way = unfaced(entry)
                if was.get(piece) != (cell, way):
                    self.move(piece, cell, way)

    def read(self, history: list[str]) -> None:
        """Wait until the companion's log is ``history``, in step with the table."""
        def there() -> bool:  # the companion may have rolled for the next turn already
            self.now()
            return self.state["history"][:len(history)] == history and self.state["out_of_sync"] is None

        assert wait_for(there, 60), (history[-3:], self.state.get("history", [])[-3:], self.state.get("out_of_sync"),
                                     "".join(self.lines[-15:]))


def dealt(data: Path) -> int:
    """The secret the running companion drew for its game (which blocks are live), read from its
    store without writing: a block a character lands on then goes off here as it does there."""
    with closing(sqlite3.connect(f"file:{data / 'games.db'}?mode=ro", uri=True)) as db:
        [(setup,)] = db.execute("SELECT setup FROM games WHERE status='playing' ORDER BY created DESC LIMIT 1")
    return int(json.loads(setup)["deal"])


def follow(engine: Any, history: list[str]) -> Any:
    """The rules engine fed the actions the companion logged since ``engine`` (its rolls)."""
    for action in history[len(engine.history):]:
        engine = GAME.apply(engine, action)
    return engine


def test_run_game_island_battle_reads_the_setup_and_moves_made_by_hand(tmp_path: Path, figures: Any) -> None:
    proc, lines, port = start(tmp_path, "--game", "island-battle", "--players", "2", "--seed", str(SEED))
    hands = Table(port, lines)
    try:
        assert hands.now()["game_name"] == "island-battle" and hands.state["verifying"]
        table = http_call(port, "POST", "/api/table/setup")[1]["table"]
        # every piece waits in a slot of its own (thirty places, one token on each) and each pad's
        # handle lies on its rail
        assert len(table) == 32 and all(len(ps) == 1 for ps in table.values()), table
        assert table["rail-red-C"] == ["pad-red"] and table["rail-blue-J"] == ["pad-blue"]
        assert wait_for(lambda: not hands.now()["verifying"], 60), "".join(lines[-15:])  # the camera saw all 32
        # which blocks are live is the companion's secret draw: these hands play the game it deals
        engine = GAME.new_game(2, seed=SEED, deal=dealt(tmp_path))
        engine = follow(engine, hands.state["history"])
        # the setup, one token at a time: the blocks, then the characters turned their way
        while engine.stage in ("blocks", "deploy"):
            action = min(rules.legal_actions(engine), key=str)
            after = GAME.apply(engine, str(action))
            hands.make(engine, after)
            hands.read([*after.history])
            engine = after
        played = 0
        while played < TURNS and rules.outcome(engine) is None:
            engine = follow(engine, hands.now()["history"])  # the companion rolled
            legal = [a for a in rules.legal_actions(engine) if not isinstance(a, Shoot)]
            by_hand = [a for a in legal if isinstance(a, (Move, Turn, Enter))]
            action = min(by_hand or legal, key=str)
            after = GAME.apply(engine, str(action))
            if by_hand:  # a character moved, turned or brought on by hand
                if isinstance(action, (Move, Enter)) and all(unfaced(p)[0] != action.character
                                                             for ps in GAME.expected(after).values() for p in ps):
                    # set down on a live block, which took it: the hand still put it there
                    landing = action.to if isinstance(action, Move) else action.square
                    hands.move(action.character, landing, getattr(action, "facing", None))
                hands.make(engine, after)
            else:  # said on the panel: the pad chosen, or no move open
                assert http_call(port, "POST", "/api/act", {"action": str(action)})[0] == 200
            hands.read([*after.history])
            engine = after
            if End(engine.player) in rules.legal_actions(engine):
                assert http_call(port, "POST", "/api/act", {"action": str(End(engine.player))})[0] == 200
                engine = GAME.apply(engine, str(End(engine.player)))
                hands.read([*engine.history])
            played += 1
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
    assert proc.returncode == 0 and "Traceback" not in "".join(lines), "".join(lines[-30:])
    figures(f"island battle at `run`'s simulated table: {len(engine.history)} actions read, {hands.tokens} tokens "
            f"moved one at a time, {played} turns after the setup")
