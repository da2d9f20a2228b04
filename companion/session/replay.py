"""A game rebuilt from its log: the undo stack after any number of logged events.

The state is always a replay of the log (so a restart resumes exactly where the game was, and
the Games page can step through a finished game); a logged event that no longer replays is
named, with the good prefix kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.store.damage import cut
from companion.errors import FogCompanionError, SessionError
from companion.games import Game
from companion.store.store import LoggedEvent


class DamagedLogError(SessionError):
    """A logged event no longer replays (edited by hand, or written by another version)."""

    def __init__(self, message: str, good: int, state: Any) -> None:
        super().__init__(message)
        self.good = good  # how many events replay
        self.state = state  # the state after them


def replay_states(game: Game, setup: dict[str, Any], events: Sequence[LoggedEvent],
                  upto: int | None = None) -> list[tuple[str | None, Any]]:
    """The undo stack after the first ``upto`` events: (None, setup), then (action, state) per standing action."""
    states: list[tuple[str | None, Any]] = [(None, game.from_json(setup))]
    for done, event in enumerate(events if upto is None else events[:upto]):
        try:
            if event.kind == "action":
                action = event.data["action"]
                states.append((str(action), game.rules.apply(states[-1][1], action)))
            elif event.kind == "undo":
                if len(states) == 1:
                    raise SessionError("an undo with nothing to undo")
                states.pop()
        except (FogCompanionError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise DamagedLogError(f"event {event.seq} ({event.kind}: {str(event.data)[:120]}) does not replay: "
                                  f"{cut(str(exc))}", done, states[-1][1]) from exc  # a game may quote a huge row
    return states


def replay_log(game: Game, setup: dict[str, Any], events: Sequence[LoggedEvent], upto: int | None = None) -> Any:
    """The state after the first ``upto`` events (all by default); DamagedLogError names a bad event."""
    return replay_states(game, setup, events, upto)[-1][1]
