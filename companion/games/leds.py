"""What a game shows on the LED strip: lights, counts and a scene by segment role.

Kept apart from the door (:mod:`companion.games.base`, which imports these back) because the
hardware's animator and the panel's LED card read these values too, and none of them needs the rest
of the door to draw a strip. What every game shows alike is drawn here once: whose turn it is
(:func:`turn_light`), the alert over a piece that breaks a rule (:data:`ALERT`), the winners at the
end (:func:`winners_scene`), and the whole scene of a game that writes no LED part of its own
(:func:`plain_scene`, :meth:`~companion.games.base.Game.led_scene`'s default).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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


# ------------------------------------------------------------------ what every game shows alike
ALERT: RGB = (255, 0, 0)                # a piece breaks a rule: red, blinking, over what it belongs to
NO_COLOUR: RGB = (255, 255, 255)        # a player the declaration gives no colour (white, never unlit)


def alert_light() -> Light:
    """The alert over what a piece that breaks a rule belongs to (its player, its row): red, fast."""
    return Light(ALERT, "blink", 3.0)


def dim(rgb: RGB) -> RGB:
    """A colour at a fifth: there, but not what the eye goes to (who is next, what is spent)."""
    return (rgb[0] // 5, rgb[1] // 5, rgb[2] // 5)


def turn_light(rgb: RGB, waiting: bool = False) -> Light:
    """Whose turn it is: their colour breathing, blinking while the players are asked which reading
    happened (a question waits on them)."""
    return Light(rgb, "blink" if waiting else "pulse", 1.0, 0.3)


def winners_scene(colours: Sequence[RGB], roles: Iterable[str] = LED_ROLES) -> LedScene:
    """The game's end: the winners' colours breathing slowly over the whole strip, every role said so."""
    said = "the winner" if len(colours) == 1 else "the winners"
    return LedScene({"*": tuple(Light(c, "pulse", 0.5, 0.2) for c in colours)}, labels={k: said for k in roles})


PLAIN_LABELS: Mapping[str, str] = {"turn": "whose turn it is", "status": "red: a piece breaks a rule",
                                   "counter": "", "timer": ""}


def plain_scene(colours: Mapping[str, RGB], active: Sequence[str], winners: Sequence[str] | None,
                waiting: bool = False, alert: bool = False, step: bool = False) -> LedScene:
    """The scene of a game with no LED part of its own, from what every game has: ``winners`` (None
    while the game runs) over the whole strip at the end (nobody won: the strip dark); else on
    ``turn`` each player ``active`` in their colour (the first breathing, or slowly while a move is
    part-way on the table; blinking while asked; others who must act too blinking), and on ``status``
    the alert while a piece breaks a rule (``alert``)."""
    def colour(who: str) -> RGB:
        return colours.get(who, NO_COLOUR)
    if winners is not None:
        return winners_scene([colour(w) for w in winners]) if winners else \
            LedScene({}, labels={k: "nobody won" for k in LED_ROLES})
    first = Light(colour(active[0]), "pulse", 0.5, 0.35) if active and step and not waiting else \
        turn_light(colour(active[0]), waiting) if active else OFF_LIGHT
    turn = (first, *(turn_light(colour(w), True) for w in active[1:]))
    return LedScene({"turn": turn, "status": (alert_light(),) if alert else ()}, labels=PLAIN_LABELS)
