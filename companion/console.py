"""The terminal commands of ``fog-companion run``: a person at the Pi's keyboard, or a script.

They are read only from a terminal, or with ``--console``: the service's standard input is
``/dev/null``, and a companion that stopped when its input ended would be gone the moment
systemd started it. The end of the input ends the commands, never the companion (``quit``
does that).
"""

from __future__ import annotations

import random
import sys
import threading
from typing import Any, TextIO

from companion.errors import FogCompanionError

RUN_HELP = """commands (the camera does the rest):
  table PIECE CELL     move a piece on the simulated table (as a hand would; CELL '-' takes it off)
  draft ISLANDER       choose an islander in the draft (auto-draft: the rest at random)
  end | undo | accept | decide N | status | quit"""


def wants_console(forced: bool, stdin: TextIO | None) -> bool:
    """Commands are read from a terminal, or from any input when ``--console`` asks for it."""
    if stdin is None:
        return False
    if forced:
        return True
    try:
        return stdin.isatty()
    except (ValueError, OSError):  # closed or detached
        return False


def read_commands(companion: Any, stopping: threading.Event, stdin: TextIO) -> None:
    """Run commands until ``quit`` (which stops the companion) or the end of the input (which does not)."""
    for line in stdin:
        words = line.split()
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            stopping.set()
            return
        try:
            command(companion, words)
        except (FogCompanionError, ValueError) as exc:
            companion.say(f"not possible: {exc}")
    companion.say("(end of the terminal input: the companion goes on; stop it with Ctrl+C or SIGTERM)")


def command(companion: Any, words: list[str]) -> None:
    """One terminal command."""
    from companion.games.fog import rules

    session = companion.session
    verb = words[0]
    if session.state is None and verb != "table":
        companion.say(f"no game yet: start one on the panel ({companion.panel_url or 'run without --no-panel'})"
                      " or restart with --players N")
    elif verb == "table" and len(words) == 3:
        companion.table(words[1], words[2])
    elif verb == "draft" and len(words) == 2:
        session.act(f"draft {session.state.active_colour} {words[1]}")
    elif verb == "auto-draft":
        rng = random.Random(0)
        while session.state.phase == "draft":
            session.act(str(rng.choice(rules.legal_drafts(session.state))))
    elif verb == "end":
        session.end_turn("panel")
    elif verb == "undo":
        session.undo()
    elif verb == "accept":
        session.accept_correction()
    elif verb == "decide" and len(words) == 2:
        session.decide(int(words[1]) - 1)
    elif verb == "status":
        st = session.status
        companion.say(f"{session.state!r}; out of sync: {st.out_of_sync is not None}; verifying: {st.verifying}; "
                      f"camera: {st.camera_fault or 'ok'}; storage: {st.storage_fault or 'ok'}")
    else:
        companion.say(RUN_HELP)


def start(companion: Any, stopping: threading.Event, forced: bool, stdin: TextIO | None = None) -> bool:
    """Start reading commands when there is someone to read them from; whether it started."""
    stdin = sys.stdin if stdin is None else stdin
    if not wants_console(forced, stdin):
        return False
    companion.say(RUN_HELP)
    threading.Thread(target=read_commands, args=(companion, stopping, stdin), name="console", daemon=True).start()
    return True
