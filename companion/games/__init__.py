"""The games the companion knows, found by name (like python-chess's variants).

Each game is a package ``companion/games/<name>/`` whose ``game`` module defines one object that
fulfils :class:`~companion.games.base.Game`. Everything outside ``companion/games/`` reaches a game
only through :func:`get_game`, so adding a game is adding a package and a line in ``GAMES``.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from companion.errors import FogCompanionError
from companion.games.base import (FORMER_SEGMENT_NAMES, LED_ROLES, BoardFit, Cell, Choice, Count, Edge, Game, Layout,
                                  LedScene, Light, Outcome, Piece, Reconciliation, TableStatus, Track, TurnTimer)
from companion.games.assembly import Assembly, Laid, Part, canonical, turned_whole
from companion.games.answers import command_line_answers, new_game
from companion.games.reading import Budget
from companion.games.declaration import CHANCE, INFORMATION, SHADES, Counter, GameType, Phase, Shade, read_key

GAMES: dict[str, str] = {"fog": "companion.games.fog.game:GAME",
                         "partner-race": "companion.games.partner_race.game:GAME",
                         "tile-race": "companion.games.tile_race.game:GAME",
                         "island-battle": "companion.games.island_battle.game:GAME",
                         "desert-survivors": "companion.games.desert_survivors.game:GAME"}

__all__ = ["Budget", "Assembly", "Laid", "Part", "canonical", "turned_whole", "CHANCE", "FORMER_SEGMENT_NAMES", "INFORMATION", "LED_ROLES", "BoardFit", "Cell", "Choice", "Count", "Counter", "Edge", "Game",
           "GameType", "Layout", "LedScene", "Light", "Outcome", "Phase", "Piece", "Reconciliation", "SHADES", "Shade", "TableStatus", "Track", "TurnTimer", "read_key", "command_line_answers", "get_game", "names", "new_game"]


class UnknownGameError(FogCompanionError, ValueError):
    """No game of that name is registered."""


def names() -> list[str]:
    """The registered games' short names, in the order they were added."""
    return list(GAMES)


@cache
def get_game(name: str = "fog") -> Game:
    """The rules object of a game by its short name."""
    try:
        module, _, attr = GAMES[name].partition(":")
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
    game: Game = getattr(import_module(module), attr)
    return game
