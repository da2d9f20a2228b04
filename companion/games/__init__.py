"""Table games the companion knows. Each game is a module with a :class:`~companion.games.base.Game`."""

from __future__ import annotations

from importlib import import_module

from companion.errors import FogCompanionError
from companion.games.base import Game

GAMES: dict[str, str] = {"fog": "companion.games.fog.game:FogGame"}


def get_game(name: str = "fog") -> Game:
    """The rules object of a game by its short name."""
    try:
        module, _, cls = GAMES[name].partition(":")
    except KeyError:
        raise FogCompanionError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
    return getattr(import_module(module), cls)()
