"""One error hierarchy for the whole product.

Every error the companion raises on purpose derives from :class:`FogCompanionError`, so the CLI,
the panel and the service can catch "our" errors and show their message, while a genuine bug
still surfaces as a traceback. Errors about bad input also derive from :class:`ValueError`,
like python-chess's ``IllegalMoveError``, so generic callers can treat them as bad values.
"""

from __future__ import annotations


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
