"""Game states in files: read one (``-`` for standard input) and write one out (or print it).

Shared by the rules commands and the camera commands of the command line, which must not
import each other. A state file names its game (``"game"``, docs/state-format.md), so a command
reading one learns the game from it: ``fog-companion show race.json`` needs no ``--game``, and a
``--game`` that contradicts the file is an error rather than a confusing parse failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from companion.errors import StateFormatError
from companion.games import Game, get_game, names


def _read_text(path: str) -> str:
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise StateFormatError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise StateFormatError(f"{path}: not a JSON game state (not UTF-8 text: {exc.reason})") from None


def read_state(path: str, game: Game | None = None) -> Any:
    """A saved state of ``game`` (The FOG by default) from a file or standard input."""
    return (game or get_game()).from_json(_read_text(path))


def read_game_state(path: str, game: str | None = None) -> tuple[Game, Any]:
    """The game a state file names and its state; ``game`` (a ``--game`` the user gave) must agree.

    The file is the authority on its game: guessing from a default would read a partner race as a
    broken FOG state ("unsupported format None"), which tells the user nothing about the cause.
    """
    text = _read_text(path)
    where = "standard input" if path == "-" else path
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"{where}: not a JSON game state ({exc})") from None
    if not isinstance(data, dict):
        raise StateFormatError(f"{where}: not a game state (expected a JSON object, found {type(data).__name__})")
    if "game" not in data:
        rules = get_game()  # the default game's first state format did not name the game
    elif data["game"] in names():
        rules = get_game(data["game"])
    else:
        raise StateFormatError(f"{where} names the game {data['game']!r}, which this companion does not know "
                               f"(known games: {', '.join(names())})")
    if game is not None and game != rules.name:
        raise StateFormatError(f"{where} holds a {rules.name!r} game, but --game {game} was given "
                               f"(leave out --game: the file names its game)")
    return rules, rules.from_json(data)


def write_out(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
