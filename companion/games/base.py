"""The small interface every table game implements, so the session, panel and LEDs stay generic.

The FOG is the first game; others from the rules shelf will follow. A game module exposes one
object with these methods. States are immutable values with a JSON form; actions are values
with a text form that parses back (like python-chess's ``Move.from_uci``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any


class Game(ABC):
    """Rules of one table game. Pure: no I/O, no clocks, no randomness beyond a given seed."""

    name: str = ""
    title: str = ""

    @abstractmethod
    def new_game(self, **settings: Any) -> Any:
        """A fresh, seeded game state from setup settings (players, options, seed, ...)."""

    @abstractmethod
    def state_from_json(self, text: str) -> Any:
        """Parse a saved state; raises the project's ``StateFormatError`` on bad input."""

    @abstractmethod
    def legal_actions(self, state: Any) -> Sequence[Any]:
        """Actions the active player may take now."""

    @abstractmethod
    def apply(self, state: Any, action: Any) -> Any:
        """The state after an action (value or its text); raises ``IllegalMoveError`` if illegal."""

    @abstractmethod
    def explain(self, before: Any, after: Any) -> Any:
        """The cheapest legal action sequence that turns ``before``'s placement into ``after``'s."""

    @abstractmethod
    def score(self, state: Any) -> Any:
        """A score report with a per-player breakdown."""

    @abstractmethod
    def undo(self, state: Any) -> Any:
        """The state before the last action (every game keeps an explicit history)."""
