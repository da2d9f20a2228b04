"""What a phone without a seat may read of a game that keeps secrets: an export, a piece it may ask about.

The store keeps a game whole, secrets included, so that it resumes as dealt. What leaves the
companion for a player is said as the shared table sees it: the saved setup as the game makes it
public (:meth:`~companion.games.base.Game.public_json`), each logged action as the table may read it
(:meth:`~companion.games.base.Game.said`, seat None), and nothing raw that could hold what the game
hides (a damaged row's or setup's bytes are for the operator's own export, ``fog-companion export``).
A game that declares no hidden information is exported exactly as stored.
"""

from __future__ import annotations

from typing import Any

from companion.errors import FogCompanionError
from companion.games import Game, get_game, names
from companion.table.secrecy import keeps_secrets, named_pieces

__all__ = ["keeps_secrets", "named_pieces", "public_export", "said_row"]

WITHHELD = "left out: this game keeps secrets, and the raw bytes could hold them (the operator's " \
           "'fog-companion export' has them)"


def public_export(data: dict[str, Any]) -> dict[str, Any]:
    """A stored game's export (``GameStore.export``) as a phone without a seat may read it."""
    if data.get("game") not in names():
        return data
    game = get_game(data["game"])
    if data.get("title") == data.get("id"):  # a game started untitled is called by its game, as the Games page says
        data["title"] = game.title
    setup = data.get("setup")
    if isinstance(setup, dict):
        data["setup"] = _public_setup(game, setup)
    if not keeps_secrets(game):
        return data
    if "raw_setup" in data:
        data["raw_setup"] = WITHHELD
    state = _state(game, setup)
    kept: list[Any] = []  # the states before each action still kept: an undo takes the last one back
    for row in data.get("events", []):
        if "raw" in row:
            row["raw"] = WITHHELD
        said = row.get("data")
        if not isinstance(said, dict):
            continue
        if row.get("kind") == "undo" and kept:
            state = kept.pop()
        if row.get("kind") == "action" and isinstance(said.get("action"), str):
            kept.append(state)
            state = _applied(game, state, said["action"])
            said["action"] = _said(game, state, said["action"])
        if isinstance(said.get("undone"), str):
            said["undone"] = _said(game, state, said["undone"])
        if isinstance(said.get("state"), dict):
            said["state"] = _public_setup(game, said["state"])
    return data


def said_row(game: Game, state: Any, data: dict[str, Any]) -> dict[str, Any]:
    """One logged event's data as the shared table may read it (``state``: the game after it)."""
    if not keeps_secrets(game):
        return data
    out = dict(data)
    for key in ("action", "undone"):
        if isinstance(out.get(key), str):
            out[key] = _said(game, state, out[key])
    return out


def _public_setup(game: Game, setup: dict[str, Any]) -> Any:
    try:
        return game.seating.public_json(setup)
    except (FogCompanionError, KeyError, TypeError, ValueError) as exc:  # a damaged setup: its reading says why
        return {"game": game.name, "unreadable": f"the setup does not read: {exc}"[:200]} if keeps_secrets(game) \
            else setup


def _state(game: Game, setup: Any) -> Any:
    try:
        return game.from_json(setup) if isinstance(setup, dict) else None
    except (FogCompanionError, KeyError, TypeError, ValueError):
        return None


def _applied(game: Game, state: Any, action: str) -> Any:
    try:
        return None if state is None else game.rules.apply(state, action)
    except (FogCompanionError, KeyError, TypeError, ValueError):
        return None  # a log that no longer replays: what follows is said without a state


def _said(game: Game, state: Any, action: str) -> str:
    """The action as the table may read it; without a state to read it in, only that one was made."""
    if state is None:
        return "an action (the log does not replay here)"
    try:
        return game.seating.said(state, action, None)
    except (FogCompanionError, KeyError, TypeError, ValueError):
        return "an action"
