"""What a game shows on the LED strip: lights, counts and a scene by segment role.

Kept apart from the door (:mod:`companion.games.base`, which imports these back) because the
hardware's animator and the panel's LED card read these values too, and none of them needs the rest
of the door to draw a strip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Light:
    """One LED: a colour and how it moves (``steady``, ``blink`` or ``pulse`` at ``hz``)."""

    colour: RGB
    effect: str = "steady"
    hz: float = 1.0
    low: float = 0.0                    # the dim end of a blink or pulse (share of the colour)


OFF_LIGHT = Light((0, 0, 0))


# The LED segments' roles: the config names each segment of the strip by what it is for, and each
# game says what it shows on each role (LedScene.segments, LedScene.labels). A config may say a
# role's former name (the names of the box the strip was first fitted to): it is read as the role.
LED_ROLES: Mapping[str, str] = {
    "turn": "whose turn it is, then who is next",
    "status": "the long one: the game at a glance",
    "counter": "a count of the active player's: a value of a total",
    "timer": "the turn timer counting down",
}
FORMER_SEGMENT_NAMES: Mapping[str, str] = {"fog": "status", "mp": "counter", "hourglass": "timer"}


@dataclass(frozen=True)
class Count:
    """A value of a total on one segment (the MP left of a turn's MP, the cards left of a hand): the
    first ``value`` LEDs lit as ``light``, the rest of ``total`` dark. Said as a count, so the panel's
    LED card can say "3 of 5" where colours alone would have to be counted."""

    value: int
    total: int
    light: Light

    def lights(self) -> tuple[Light, ...]:
        return tuple(self.light if i < self.value else OFF_LIGHT for i in range(self.total))


@dataclass(frozen=True)
class LedScene:
    """What each LED segment shows, by role (:data:`LED_ROLES`): colours per LED or a :class:`Count`.
    ``status`` is the segment a system alert (disk full) takes over."""

    segments: Mapping[str, tuple[Light, ...] | Count]   # "*": one light over the whole strip
    status: str = ""
    timer: str = ""                     # segments a turn timer may count down on, "a|b": the first present
    labels: Mapping[str, str] = field(default_factory=dict)  # what a segment shows in this game ("": unused)

    def lights(self, role: str) -> tuple[Light, ...]:
        """The colours a role shows, one per LED (a count spelt out; () when the scene leaves it dark)."""
        shown = self.segments.get(role, ())
        return shown.lights() if isinstance(shown, Count) else tuple(shown)

    def count(self, role: str) -> Count | None:
        """The value of a total a role shows, when it shows one."""
        shown = self.segments.get(role)
        return shown if isinstance(shown, Count) else None
