"""Play any game at the terminal (``fog-companion play``): the session without camera, LEDs or panel.

The commands are those of ``run`` (:mod:`companion.app.console`, one loop for both); the game is
kept in a store in a temporary directory, and ``--output`` saves the state after every action.
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, TextIO

from companion.app import console
from companion.session.events import InlineBus
from companion.games import Game, get_game, read_key
from companion.session.session import Session
from companion.store.store import GameStore


class _Terminal:
    """What the console loop needs of a companion: a session and somewhere to speak."""

    def __init__(self, session: Session, out: TextIO, save_to: Path | None) -> None:
        self.session, self.out, self.save_to = session, out, save_to
        self.panel_url = None

    def say(self, text: str, end: str = "\n") -> None:
        print(text, end=end, file=self.out, flush=True)

    def table(self, piece: str, cell: str) -> None:
        self.say("there is no table at the terminal: type the move instead")

    def on_event(self, kind: str, snapshot: Any) -> None:
        game = snapshot.game
        if kind in ("action", "undone"):
            self.say(game.rules.text(snapshot.state))
            if self.save_to is not None:
                self.save_to.write_text(json.dumps(game.to_json(snapshot.state), indent=1) + "\n", encoding="utf-8")
        if kind == "game-over":
            report = game.rules.score(snapshot.state).to_dict()
            standings = report.get("standings") or []
            self.say("game over: " + ", ".join(f"{s['name']} {s['score']}" for s in standings))


def play(state: Any, save_to: Path | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         game: Game | None = None) -> int:
    game = game or get_game()
    out = stdout or sys.stdout
    with tempfile.TemporaryDirectory(prefix="fog-play-") as folder:
        store = GameStore(Path(folder) / "games.db")
        session = Session(store, InlineBus(), game=game)  # events in order, on this thread
        terminal = _Terminal(session, out, save_to)
        session.start(state, verify=False, game=game)
        session.bus.subscribe(lambda event: terminal.on_event(event.kind, event.snapshot))
        terminal.say(game.rules.text(state))
        terminal.say("type 'help' for commands")

        def prompt() -> str:
            view = game.panel.view(session.state)  # and the counters the game declares an action spends
            spent = [f"{c.unit} {read_key(view, c.key)}" for c in game.declaration.counters
                     if c.unit and (not c.phases or view.get('phase') in c.phases)]
            whose = "/".join(game.rules.active(session.state)) or "-"  # several when several must act (a fight)
            return f"[{' '.join([str(view.get('phase', '-')), whose, *spent])}]> "

        console.read_commands(terminal, threading.Event(), stdin or sys.stdin, prompt)
        store.close()
    return 0
