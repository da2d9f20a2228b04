"""A saved partner race read back: every field checked, and positions no table can hold refused.

A state file may have been edited by hand or cut short; a log's setup may be damaged. Reading one
must either give a state the rules can play from or say exactly what is wrong with it: a pawn in
two goal circles' worth of places, two colours on one space (the one landing would have bumped
the other), counters out of their range, cards the deck does not hold. ``docs/state-format.md``
lists what is refused. Pure: standard library only, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import StateFormatError
from companion.games.partner_race.cards import CARDS, DEALS_PER_DEALER, DECK, HAND
from companion.games.partner_race.track import COLOURS, colour_of, goal, locked, pawns_of, team, track, valid

PAWNS = tuple(p for c in COLOURS for p in pawns_of(c))
MAX_NAME = 40


def check_position(where: Mapping[str, str]) -> None:
    """Refuse pawns placed as no play leaves them (ValueError naming the pawns and the place)."""
    for colour in COLOURS:
        circles: dict[int, str] = {}
        for pawn in pawns_of(colour):
            g = goal(where[pawn])
            if g is None:
                continue
            if g in circles:
                raise ValueError(f"{circles[g]} and {pawn} share a goal circle (G{g}): a circle holds one pawn")
            circles[g] = pawn
    spaces: dict[int, list[str]] = {}
    for pawn in PAWNS:
        t = track(where[pawn])
        if t is not None:
            spaces.setdefault(t, []).append(pawn)
    for t, pawns in sorted(spaces.items()):
        if len({colour_of(p) for p in pawns}) > 1:
            raise ValueError(f"{' and '.join(pawns)} share track space T{t}: a pawn landing there sends a pawn of "
                             "another colour home (or goes home itself), so two colours never share a space")


def _int(data: Mapping[str, Any], key: str, low: int, high: int | None = None, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(f"partner race state: {key!r} must be a whole number, not {value!r}"[:200])
    if value < low or high is not None and value > high:
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise StateFormatError(f"partner race state: {key!r} is {value}, which is out of range ({span})")
    return value


def fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The state's fields from its saved form, each checked (StateFormatError names the key)."""
    raw_where = data.get("where")
    if not isinstance(raw_where, Mapping):
        raise StateFormatError("partner race state: 'where' must map every pawn to its position")
    for pawn, position in raw_where.items():
        if pawn not in PAWNS:
            raise StateFormatError(f"partner race state: 'where' names {str(pawn)[:40]!r}, which is not a pawn "
                                   "(yellow-1 .. red-4)")
        if not isinstance(position, str) or not valid(position):
            raise StateFormatError(f"partner race state: {pawn} is on {str(position)[:40]!r}, which is not a place "
                                   "(home, start, T0-T63, G1-G4)")
    missing = [p for p in PAWNS if p not in raw_where]
    if missing:
        raise StateFormatError(f"partner race state: 'where' has no position for {', '.join(missing)}")
    where = {p: str(raw_where[p]) for p in PAWNS}
    try:
        check_position(where)
    except ValueError as exc:
        raise StateFormatError(f"partner race state: {exc}") from None
    names = data.get("names", list(COLOURS))
    if not isinstance(names, list) or len(names) != 4 or \
            not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names):
        raise StateFormatError(f"partner race state: 'names' must be 4 names of 1 to {MAX_NAME} characters "
                               "(yellow, green, blue, red)")
    dealer, turn = _int(data, "dealer", 0, 3), _int(data, "turn", 0, 3)
    deals, deal = _int(data, "deals", 1, DEALS_PER_DEALER), _int(data, "deal", 1)
    if deals > deal:
        raise StateFormatError(f"partner race state: 'deals' is {deals} by this dealer, but only {deal} deals were made")
    cards_left = data.get("cards_left")
    if not isinstance(cards_left, list) or len(cards_left) != 4 or \
            not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= HAND for n in cards_left):
        raise StateFormatError(f"partner race state: 'cards_left' must be 4 counts of 0 to {HAND} (cards in each hand)")
    seen = data.get("seen", {})
    if not isinstance(seen, Mapping):
        raise StateFormatError("partner race state: 'seen' must map cards to counts")
    for name, count in seen.items():
        if name not in CARDS:
            raise StateFormatError(f"partner race state: 'seen' counts {str(name)[:20]!r}, which is not a card of "
                                   f"the deck ({', '.join(CARDS)})")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= DECK[name]:
            raise StateFormatError(f"partner race state: {count!r} '{name}' cards seen: the deck holds {DECK[name]}")
    dealt = deals * 4 * HAND - sum(cards_left)  # cards dealt since the shuffle and no longer in a hand
    if sum(seen.values()) > dealt:
        raise StateFormatError(f"partner race state: {sum(seen.values())} cards seen since the shuffle, but only "
                               f"{dealt} have left the players' hands")
    last_card = data.get("last_card")
    if last_card is not None and last_card not in CARDS:
        raise StateFormatError(f"partner race state: 'last_card' {str(last_card)[:20]!r} is not a card of the deck")
    won = any(all(locked(p, where) for c in team(first) for p in pawns_of(c)) for first in COLOURS[:2])
    if not won and cards_left[turn] == 0:
        raise StateFormatError(f"partner race state: it is {COLOURS[turn]}'s turn, but {COLOURS[turn]} holds no cards")
    history = data.get("history", [])
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise StateFormatError("partner race state: 'history' must be a list of actions' text")
    board = data.get("board", "standard")
    if not isinstance(board, str):
        raise StateFormatError("partner race state: 'board' must be a board's name or file")
    return {"where": where, "names": tuple(names), "dealer": dealer, "deals": deals, "deal": deal, "turn": turn,
            "cards_left": tuple(cards_left), "seen": dict(seen), "last_card": last_card, "history": tuple(history),
            "seed": _int(data, "seed", 0, default=0), "board": board}
