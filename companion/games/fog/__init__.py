"""The FOG: Escape from Paradise - rules as pure data and functions (standard library only)."""

from __future__ import annotations

from companion.games.fog.board import Board
from companion.games.fog.options import Options
from companion.games.fog.state import GameState, Player

__all__ = ["Board", "GameState", "Options", "Player"]
