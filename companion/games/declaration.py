"""What kind of game a game is, declared once (OpenSpiel's ``GameType``): its players, luck, secrets,
whether players act at once, what it counts and what its phases are called.

The pages, the terminal and the session read this and the game's view; none of them names a key
of one game (an MP row, a draft card): a game whose counters and phases are others declares
those, and every page shows them. Each :class:`~companion.games.base.Game` gives one
(:attr:`~companion.games.base.Game.declaration`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHANCE", "INFORMATION", "SHADES", "Counter", "GameType", "Phase", "Shade", "read_key"]

CHANCE = ("none", "setup", "dice", "deck")            # no luck; a seeded deal at setup only; dice; a shuffled deck
INFORMATION = ("none", "from-everyone", "per-seat")    # nothing hidden; hidden from all (a face-down pile); a hand
SHADES = ("covered", "warned")                         # out of play; about to go out of play


@dataclass(frozen=True)
class Counter:
    """A count the panel shows beside whose turn it is, read from the game's view: the pages know a
    game's counters by this, never by a key of their own. ``key`` may go into a dict (``fog.label``);
    the value is a number, a text, a list (said one after another) or seat -> number."""

    key: str                            # where the view holds it
    label: str                          # the name shown ("MP left", "Deal")
    total: str = ""                     # the view's key of the total it is a value of: one dot each
    unit: str = ""                      # what an action spends of it, in a sentence ("It spends 2 MP"): ""
    #                                     for a count no action spends; the terminal's prompt shows it too
    phases: tuple[str, ...] = ()        # the phases it means something in (empty: all)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "total": self.total or None, "unit": self.unit or None,
                "phases": list(self.phases)}


@dataclass(frozen=True)
class Shade:
    """Groups of places (a cell's ``group``: a row, a region) the board shades, read from the game's
    view: a game whose board loses rows or regions as play goes on says which, and every page draws
    them the same way, with no key of that game's own. ``look`` says how: ``covered`` (out of play)
    or ``warned`` (next to go). A group no place is in (The FOG's shore, shown on the LEDs) is shaded
    nowhere."""

    key: str                            # where the view holds the list of groups (``a.b`` as a counter's)
    look: str                           # one of SHADES

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "look": self.look}


@dataclass(frozen=True)
class Phase:
    """A phase the view's ``phase`` names. One with ``picks`` (a draft) is played on the Setup page
    before play: its picks are the legal actions, each naming one piece (:meth:`Game.picks`), made as
    any action is; ``step`` gives it a place of its own in the panel's row Setup > Board check > ... >
    Play > Score."""

    name: str                           # as the view's "phase" says it
    title: str                          # shown ("Draft")
    picks: str = ""                     # what the player to pick does ("picks: tap ... on the board")
    done: str = ""                      # said once it is over ("Every ... has a player.")
    step: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "picks": self.picks or None, "done": self.done or None,
                "step": self.step}


@dataclass(frozen=True)
class GameType:
    """What kind of game it is (OpenSpiel's ``GameType``): declared once, served to the pages as
    ``declaration`` in ``/api/state``, so no page, prompt or session guesses a game from its keys.
    :meth:`Game.declaration` gives one for every game; tests hold it to the game's view and setup."""

    name: str
    title: str
    players: tuple[int, ...]
    chance: str = "none"                # one of CHANCE
    information: str = "none"           # hidden information, one of INFORMATION
    simultaneous: bool = False          # do players act at once (else one at a time, ``active``)
    counters: tuple[Counter, ...] = ()
    phases: tuple[Phase, ...] = ()      # those the view may name besides "finished"
    shades: tuple[Shade, ...] = ()      # the board's groups of places shaded as play goes on
    turn_actions: tuple[str, ...] = ()  # the first words of the view's ``turn_actions`` (a fold)
    turn_ends: str = ""                 # with no End-turn button, how a turn ends, in words (a view's own
    #                                     ``turn_ends`` says what the turn in hand still owes, and is shown first)
    clear: str = ""                     # what hands do with pieces the rules took ("take them off the board");
    #                                     "": turn them over or take them off the board
    features: tuple[str, ...] = ()      # what the pages offer beyond the usual ("turn-over": the Table
    #                                     page's button for tokens the rules take and hands turn over)
    colours: Mapping[str, tuple[int, int, int]] = field(default_factory=dict, hash=False)
    #                                     each player's colour (as ``active`` names them) for the LEDs' default

    def phase(self, name: object) -> Phase | None:
        return next((p for p in self.phases if p.name == name), None)

    def spends(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What an action spends of each counter that has a ``unit``, from the views before and after."""
        out = []
        for c in self.counters:
            a, b = read_key(before, c.key), read_key(after, c.key)
            if c.unit and isinstance(a, int) and isinstance(b, int):
                out.append({"unit": c.unit, "spent": a - b, "left": b})
        return out

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "players": list(self.players), "chance": self.chance,
                "information": self.information, "simultaneous": self.simultaneous,
                "counters": [c.to_json() for c in self.counters], "phases": [p.to_json() for p in self.phases],
                "shades": [s.to_json() for s in self.shades], "turn_actions": list(self.turn_actions), "turn_ends": self.turn_ends or None,
                "clear": self.clear or None,
                "features": list(self.features)}


def read_key(view: Mapping[str, Any], key: str) -> Any:
    """A counter's value in a view (``a.b``: key ``b`` of the dict at ``a``); None where it has none."""
    value: Any = view
    for part in key.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value
