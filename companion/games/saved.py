"""A game's saved state as the store or a file gives it back, read once for every game (the door's).

A saved state comes back as a dict or as its JSON text, and it must be this game's: the store keeps
every game's in one place, and a file may be any game's. Each game then reads its own fields; what
is common (the text parsed, the ``"game"`` tag checked, a clear :class:`StateFormatError` for
either) is written here once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.errors import StateFormatError


def saved_form(data: Any, game: str, called: str, untagged: bool = False) -> Mapping[str, Any]:
    """``data`` (a dict, or its JSON text) as a saved state of ``game``, whose ``"game"`` key says so;
    else a :class:`StateFormatError` that says it is not JSON, or not ``called`` ("a tile race").
    ``untagged``: a saved state with no ``"game"`` key at all is this game's too (a game whose first
    saved format had none, from before the companion knew more than one game)."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise StateFormatError(f"not JSON: {exc}") from None
    if untagged and isinstance(data, Mapping) and "game" not in data:
        data = {**data, "game": game}
    if not isinstance(data, Mapping) or data.get("game") != game:
        raise StateFormatError(f"not {called} state (\"game\": \"{game}\")")
    return data
