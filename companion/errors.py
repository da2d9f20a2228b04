"""One error hierarchy for the whole product.

Every error the companion raises on purpose derives from :class:`FogCompanionError`, so the CLI,
the panel and the service can catch "our" errors and show their message, while a genuine bug
still surfaces as a traceback. Errors about bad input also derive from :class:`ValueError`,
like python-chess's ``IllegalMoveError``, so generic callers can treat them as bad values.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a DamagedGameError carries (companion.store.damage raises no error of its own)
    from companion.store.damage import Damage, LoggedEvent


class FogCompanionError(Exception):
    """Root of every deliberate error in fog-companion."""


class BoardFileError(FogCompanionError, ValueError):
    """A board file is missing, unreadable or inconsistent; the message names the key."""


class ScenarioError(FogCompanionError, ValueError):
    """A solo scenario file is unreadable or inconsistent."""


class StateFormatError(FogCompanionError, ValueError):
    """A saved game state (JSON) cannot be parsed or does not describe a valid game."""


class OptionsError(FogCompanionError, ValueError):
    """Game options could not be parsed or contradict each other."""


class SetupError(FogCompanionError):
    """A setup could not be generated (e.g. the board's row numbers do not add up)."""


class AnswerError(SetupError, ValueError):
    """An answer to a game's setup questions that the game does not ask or does not allow; the message
    names the answer and what is allowed (``companion.games.new_game`` checks every caller's)."""


class RulesError(FogCompanionError):
    """Something the rules forbid was asked of the engine."""


class IllegalMoveError(RulesError, ValueError):
    """An action or movement is not legal in the given state; the message says which rule."""


class NotationError(FogCompanionError, ValueError):
    """A movement or action text does not parse."""


class SessionError(FogCompanionError):
    """The session cannot do what was asked now (wrong phase, no decision pending, ...)."""


class OutOfSyncError(SessionError):
    """The table and the game disagree: the turn cannot end (nor another action start) until they agree."""

    kind = "out-of-sync"


class DecisionPendingError(SessionError):
    """A camera picture waits for the players to say how it is read."""

    kind = "decision-pending"


class GameRunningError(SessionError):
    """Another game is being played: replacing it needs a confirmation (it is paused, never lost)."""

    kind = "game-running"

    def __init__(self, message: str, running: str) -> None:
        super().__init__(message)
        self.details = {"running": running}


class StoreError(FogCompanionError):
    """The game log cannot be used."""


class NoSuchGameError(StoreError):
    """No game by that id in the log."""


class StoreUnavailableError(StoreError):
    """The database cannot be read or written now (full disk, I/O error, read-only); nothing was changed."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason  # "disk-full" | "read-only" | "io-error" | "busy" | "cannot-open" | "damaged"


class StoreCorruptError(StoreError):
    """The database is damaged and could not even be moved aside to recover it (``kept_at``: where it went)."""

    def __init__(self, message: str, kept_at: Path | None) -> None:
        super().__init__(message)
        self.kept_at = kept_at


class DamagedGameError(StoreError):
    """A game's log does not read past ``damage``; ``events`` is its good prefix."""

    def __init__(self, damage: Damage, events: list[LoggedEvent]) -> None:
        super().__init__(str(damage))
        self.damage = damage
        self.events = events
