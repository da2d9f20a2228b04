"""The partner card race's cards: what each one lets a player do, and the deck they come from.

The rulebook names the cards by what they do, not how many of each there are; the deck below is
the companion's choice (``docs/rules-interpretations-partner-race.md``): 112 cards, 8 of each of
14 kinds. A card's name is what players call it and what the notation writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import NotationError


@dataclass(frozen=True)
class Card:
    """One kind of card: the steps it allows, and whether it brings a pawn out or swaps two."""

    name: str
    steps: tuple[int, ...] = ()  # each a way to play it (negative: backwards)
    start: bool = False  # it can move a pawn from its home base to its starting space
    split: bool = False  # its steps may be shared between several pawns (the 7)
    swap: bool = False  # it swaps two pawns on the track
    says: str = ""


CARDS: dict[str, Card] = {c.name: c for c in (
    Card("2", (2,), says="2 steps forward"),
    Card("3", (3,), says="3 steps forward"),
    Card("5", (5,), says="5 steps forward"),
    Card("6", (6,), says="6 steps forward"),
    Card("9", (9,), says="9 steps forward"),
    Card("10", (10,), says="10 steps forward"),
    Card("12", (12,), says="12 steps forward"),
    Card("start", (), start=True, says="a pawn from its home base to its starting space"),
    Card("8s", (8,), start=True, says="8 steps forward, or a pawn out to its starting space"),
    Card("13s", (13,), start=True, says="13 steps forward, or a pawn out to its starting space"),
    Card("-4", (-4,), says="4 steps backwards (not in the goal zone)"),
    Card("1-14", (1, 14), says="1 or 14 steps forward"),
    Card("7", (7,), split=True, says="7 steps forward, shared between pawns if wished"),
    Card("swap", (), swap=True, says="two pawns on the track change places"),
)}
COPIES = 8  # of each kind in the deck
DECK: dict[str, int] = {name: COPIES for name in CARDS}
DECK_SIZE = sum(DECK.values())
HAND = 4  # cards dealt to each player
DEALS_PER_DEALER = 3


def called(name: str) -> str:
    """A card as players call it: the number printed on it ("8" for the 8 that also brings a pawn
    out, "1 or 14"); the notation's ``8s`` and ``1-14`` are for the log and the markers only."""
    if name == "1-14":
        return "1 or 14"
    return name[:-1] if name.endswith("s") and name[:-1].isdigit() else name


def card(name: str) -> Card:
    """The card of that name; a clear error for one the deck does not have."""
    try:
        return CARDS[name]
    except KeyError:
        raise NotationError(f"no card {name!r} in this deck (cards: {', '.join(CARDS)})") from None
