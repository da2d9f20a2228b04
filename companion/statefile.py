"""Game states in files: read one (``-`` for standard input) and write one out (or print it).

Shared by the rules commands and the camera commands of the command line, which must not
import each other.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from companion.errors import StateFormatError
from companion.games import Game, get_game


def read_state(path: str, game: Game | None = None) -> Any:
    """A saved state of ``game`` (The FOG by default) from a file or standard input."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise StateFormatError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return (game or get_game()).from_json(text)


def write_out(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
