"""Play The FOG at the terminal: the companion without camera, LEDs or panel.

Reads one command per line: ``draft ISLANDER``, ``move ...`` (movement notation), ``end``,
``undo``, ``score``, ``board``, ``save FILE``, ``help``, ``quit``. End of input quits cleanly.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from companion.errors import FogCompanionError
from companion.games.fog import rules
from companion.games.fog.scoring import score
from companion.games.fog.state import GameState
from companion.games.fog.text import render

HELP = """commands:
  draft ISLANDER     choose an islander in the draft (e.g. draft blue-leader-1)
  move MOVEMENT      move an islander (e.g. move run blue-sailor-2 C3>D3)
  end                end the active colour's turn
  undo               take back the last action
  score              show the score as it stands
  board              draw the board again
  save FILE          save the game as JSON
  quit               leave"""


def play(state: GameState, save_to: Path | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    print(render(state), file=out)
    print("type 'help' for commands", file=out)
    while True:
        print(f"[{state.phase} {state.active_colour or '-'} MP {state.mp_left}]> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            print(file=out)
            break
        words = line.split()
        if not words:
            continue
        verb = words[0]
        try:
            if verb in ("quit", "exit"):
                break
            if verb == "help":
                print(HELP, file=out)
                continue
            if verb == "board":
                print(render(state), file=out)
                continue
            if verb == "score":
                for c, sheet in score(state).colours.items():
                    print(f"  {c}: {sheet.total} RP {sheet.categories}", file=out)
                continue
            if verb == "save" and len(words) == 2:
                Path(words[1]).write_text(state.to_json(indent=1) + "\n", encoding="utf-8")
                print(f"saved to {words[1]}", file=out)
                continue
            if verb == "undo":
                state = rules.undo(state)
            elif verb == "end":
                state = rules.apply(state, "end-turn")
            elif verb == "draft" and len(words) == 2:
                state = rules.apply(state, f"draft {state.active_colour} {words[1]}")
            else:
                state = rules.apply(state, line.strip())
            print(render(state), file=out)
            if save_to is not None:
                save_to.write_text(state.to_json(indent=1) + "\n", encoding="utf-8")
            if state.phase == "finished":
                report = score(state)
                print("game over: " + ", ".join(f"{s.name} {s.score} RP" for s in report.standings), file=out)
        except FogCompanionError as exc:
            print(f"  not possible: {exc}", file=out)
    return 0
