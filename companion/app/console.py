"""The terminal commands of ``fog-companion run``: a person at the Pi's keyboard, or a script.

They are read only from a terminal, or with ``--console``: the service's standard input is
``/dev/null``, and a companion that stopped when its input ended would be gone the moment
systemd started it. The end of the input ends the commands, never the companion (``quit``
does that).
"""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.errors import FogCompanionError

RUN_HELP = """commands (the camera does the rest):
  table PIECE CELL     move a piece on the simulated table (as a hand would; CELL '-' takes it off)
  turn-over PIECE      turn a token over on the simulated table (its marker disappears, it stays)
  auto                 the rest of this phase at random: one legal action after another (the picks before play)
  ACTION               any action in the game's notation (e.g. move run blue-sailor-2 C3>D3)
  end | undo | accept | as-game | correct-piece PIECE CELL | decide N | decide none | status | score | board |
  save FILE | help | quit
  (status says what the camera disagrees with, piece by piece; the ways out of a disagreement: put the
  pieces back, 'accept' the board as the camera sees it (prints what it logged), 'as-game': the table is
  right as the game has it (the camera misses a piece), 'correct-piece PIECE CELL': that piece really
  stands on CELL ('-': off the board))"""


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


def read_commands(companion: Any, stopping: threading.Event, stdin: TextIO,
                  prompt: Callable[[], str] | None = None) -> None:
    """Run commands until ``quit`` or the end of the input; ``run`` and ``play`` share this loop.

    Under ``run``, ``quit`` stops the companion and the end of the input does not; ``play``
    simply ends with either.
    """
    while not stopping.is_set():
        if prompt is not None:
            companion.say(prompt(), end="")
        line = stdin.readline()
        if not line:
            break
        words = line.split()
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            stopping.set()
            return
        try:
            command(companion, words, line)
        except (FogCompanionError, ValueError) as exc:
            companion.say(f"not possible: {exc}")
    companion.say("(end of the terminal input: the companion goes on; stop it with Ctrl+C or SIGTERM)"
                  if prompt is None else "")


def command(companion: Any, words: list[str], line: str = "") -> None:
    """One terminal command, for any game: the session does the work."""
    session = companion.session
    verb = words[0]
    state = session.state
    if verb == "help":
        companion.say(RUN_HELP)
    elif verb == "table" and len(words) == 3:
        companion.table(words[1], words[2])
    elif verb == "turn-over" and len(words) == 2:
        camera = getattr(companion, "camera", None)
        if camera is None or not camera.simulated:
            raise FogCompanionError("turn-over works on the simulated table (camera source 'sim')")
        camera.turn_over(words[1])
    elif state is None:
        where = getattr(companion, "panel_url", None) or "run without --no-panel"
        companion.say(f"no game yet: start one on the panel ({where}) or restart with --players N")
    elif (game := session.game) is None:
        raise FogCompanionError("no game")
    elif verb == "auto":
        rng = random.Random(0)
        phase = game.panel.view(state).get("phase")
        while session.state is not None and game.panel.view(session.state).get("phase") == phase and \
                game.rules.outcome(session.state) is None:
            session.act(str(rng.choice(list(game.rules.legal_actions(session.state)))))
    elif verb == "end":
        session.end_turn("panel")
    elif verb == "undo":
        session.undo()
    elif verb == "accept":
        preview = session.preview_correction()
        session.accept_correction()
        kept = ", ".join(f"{k['piece']} on {k['cell']}" for k in preview["kept"])
        companion.say("; ".join(([f"logged: {'; '.join(preview['actions'])} (undo takes it back)"] if preview["actions"]
                                 else []) + ([f"kept where the game has them (the camera misses them): {kept}"]
                                             if kept else [])))
    elif verb == "as-game":
        excused = [f"{m['piece']} {'on ' + m['belongs'] if m['belongs'] else 'off the board'}"
                   for m in session.table_as_game()]
        companion.say("the table is right as the game has it: " + ", ".join(excused) + " (the camera is not "
                      "believed about these until they move)")
    elif verb == "correct-piece" and len(words) == 3:
        session.correct_piece(words[1], None if words[2] == "-" else words[2])
        companion.say(status_text(session))
    elif verb == "decide" and len(words) == 2:
        session.decide(None if words[1] == "none" else int(words[1]) - 1)
    elif verb == "status":
        companion.say(status_text(session))
    elif verb == "score":
        companion.say("\n".join(game.rules.score(state).lines()))
    elif verb == "board":
        companion.say(game.rules.text(state))
    elif verb == "save" and len(words) == 2:
        Path(words[1]).write_text(json.dumps(game.to_json(state), indent=1) + "\n", encoding="utf-8")
        companion.say(f"saved to {words[1]}")
    else:
        session.act(game.rules.complete_action(state, line or " ".join(words)))


def start(companion: Any, stopping: threading.Event, forced: bool, stdin: TextIO | None = None) -> bool:
    """Start reading commands when there is someone to read them from; whether it started."""
    stdin = sys.stdin if stdin is None else stdin
    if not wants_console(forced, stdin):
        return False
    companion.say(RUN_HELP)
    threading.Thread(target=read_commands, args=(companion, stopping, stdin), name="console", daemon=True).start()
    return True


def status_text(session: Any) -> str:
    """The session in words: what the camera disagrees with, piece by piece, and what waits."""
    st = session.status
    lines = [f"verifying the setup: {'yes' if st.verifying else 'no'}; camera: {st.camera_fault or 'ok'}; "
             f"storage: {st.storage_fault or 'ok'}" + ("; the view is blocked (something rests over the board)"
                                                       if st.view_blocked else "")]
    if st.out_of_sync is None:
        lines.append("the table and the game agree" if session.last_picture is not None and st.camera_fault is None
                     else "no camera picture to compare with")
    else:
        lines.append(f"OUT OF SYNC: {st.out_of_sync.reason}")
        lines += [f"  {m.piece}: put it {'on ' + m.belongs if m.belongs else 'off the board'} (seen "
                  f"{'on ' + m.seen if m.seen else 'nowhere'})" if not m.kind else  # a look-alike: by kind and place
                  f"  {m.piece} or any of its kind: " + " and ".join(
                      ([f"take one off {m.seen}"] if m.seen else []) + ([f"put one on {m.belongs}"] if m.belongs else []))
                  for m in st.out_of_sync.pieces]
        lines.append("  ways out: put the pieces back, 'accept' the board as it is, 'as-game' (the table is right as "
                     "the game has it: the camera misses a piece), or 'correct-piece PIECE CELL'")
    if st.step is not None:
        lines.append(st.step.to_dict()["make"] if st.step.waiting else f"a move is under way: {st.step.says}")
    if st.decision:
        lines.append(st.question or "the change can be read several ways:")
        lines += [f"  decide {i + 1}: {c.summary}" for i, c in enumerate(st.decision)]
        lines.append("  decide none: none of these happened (then put the pieces back)")
    if st.to_clear:
        clear = session.game.declaration.clear or "turn them over or take them off the board"  # as the pages say it
        lines.append(f"the rules took these, {clear}: " + ", ".join(f"{p} ({c})" for p, c in st.to_clear))
    return "\n".join(lines)
