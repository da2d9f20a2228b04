"""What a phone joined to a seat says to its player: its own choices as buttons, and its card's lines.

A player holding a phone at the table reads "Close your fist on 3 markers", not ``commit natural 3``.
The Board page's Seats card shows :func:`choice` for each action the seat's phone may enter and the
lines of :func:`card`: to a seat its own secrets (its fight markers, the food on its characters'
cards), to every phone a fight under way and the last fight's result, each side's fist said as
closed or not yet and never what it holds before both are open. When the seat holds food it must
put on its characters' cards, :func:`share` lays the cards out for its "My food" box: the player
shares the food out with + and -, then puts it all down with one tap (a ``feed`` each), rather
than tapping a button per counter.

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from companion.games.desert_survivors.actions import (Action, Attack, Commit, End, Feed, Give, Pass, Reveal,
                                                      Sacrifice, Take)
from companion.games.desert_survivors.pieces import colour_of, is_monkey, number, size
from companion.games.desert_survivors.rules import feeders
from companion.games.desert_survivors.state import DesertState


def whose(state: DesertState, piece: str, me: int | None) -> str:
    """A face-up disc as its owner (``your 5``) or anyone else (``Bo's 5``) calls it."""
    owner = state.seat_of(piece)
    whose = "your" if owner == me else f"{state.name_of(owner)}'s"
    return f"{whose} monkey" if is_monkey(piece) else f"{whose} {number(piece)}"


def _own(state: DesertState, disc: str, me: int) -> str:
    """One of the seat's own characters as it calls it: "your 5", "your red 5" when it plays two groups."""
    return f"your {colour_of(disc)} {number(disc)}" if len(state.colours_of(me)) > 1 else f"your {number(disc)}"


def _food(n: int) -> str:
    return "no food" if n == 0 else f"{n} food"


def _on(state: DesertState, space: str, me: int | None) -> str:
    piece = state.board.get(space, "")
    return f"{whose(state, piece, me)} on {space}" if piece in state.face_up else f"the disc on {space}"


def _markers(n: int) -> str:
    return "1 marker" if n == 1 else f"{n} markers"


def _first_up(text: str) -> str:
    """A sentence's first letter raised, the rest as written (``capitalize`` would lower a space's B1)."""
    return text[:1].upper() + text[1:]


def choice(state: DesertState, action: Action, seat: str) -> str | None:
    """``action`` as the button on ``seat``'s phone says it, or None: not a button there (a disc is
    placed or swapped by moving it, on the table or on the board)."""
    me = state.seats.index(seat) if seat in state.seats else None
    if isinstance(action, Commit):
        return "Close your fist empty (no markers)" if action.markers == 0 else \
            f"Close your fist on {_markers(action.markers)}"
    if isinstance(action, Feed) and me is not None:
        return (f"Put a food on {_own(state, action.disc, me)}'s card "
                f"({state.food.get(action.disc, 0)} of {size(action.disc)} there now)")
    if isinstance(action, Give) and me is not None:
        return (f"Give {action.food} of your {state.spare[me]} spare food to "
                f"{state.name_of(state.seats.index(action.to))}")
    if isinstance(action, Pass):
        return "Pass: none of your characters is hungry"
    if isinstance(action, End):
        return "Stop here and end your turn"
    if isinstance(action, Reveal):
        return f"Turn your disc on {action.space} face up"
    if isinstance(action, Take):
        return f"{_first_up(_on(state, action.source, me))} takes the food on {action.target}"
    if isinstance(action, Attack):
        return f"{_first_up(_on(state, action.source, me))} attacks {_on(state, action.target, me)}"
    if isinstance(action, Sacrifice):
        return f"Sacrifice {_on(state, action.space, me)} (your other characters eat it)"
    return None


def card(state: DesertState, seat: str | None) -> list[str]:
    """The Seats card's lines for ``seat`` (None: a phone joined to no seat): what only this seat may
    know, then the fight under way or the last one, in words."""
    me = state.seats.index(seat) if seat in state.seats else None
    lines: list[str] = []
    fight = state.fight
    sides = [state.seat_of(state.board[w]) for w in (fight.attacker, fight.defender)] if fight else []
    mine = fight.commits[sides.index(me)] if fight is not None and me in sides else None
    if me is not None and me in sides and mine is None:  # what this player must do now comes first
        lines.append(f"Your fight: close your fist (0 to {_markers(state.markers[me])})")
    if me is not None:
        hand = state.markers[me]
        lines.append(f"Your fight markers: {hand}" if mine is None else
                     f"Your fight markers: {mine} in your closed fist, {hand - mine} left")
        fed = [f"your {number(c)}: {state.food.get(c, 0)} of {size(c)}" for c in state.alive(me)]
        if fed:
            lines.append("Food on your cards: " + ", ".join(fed))
        if state.spare[me]:
            lines.append(f"Food in your hand: {state.spare[me]}")
    if fight is not None:
        lines.append(f"A fight: {_on(state, fight.attacker, me)} attacks {_on(state, fight.defender, me)}.")
        for piece, held in zip((state.board[fight.attacker], state.board[fight.defender]), fight.commits):
            owner = state.seat_of(piece)
            who = "Your fist" if owner == me else f"{state.name_of(owner)}'s fist"
            if held is None:
                lines.append(f"{who}: not closed yet")
            else:
                lines.append(f"{who}: closed on {_markers(held)}" if owner == me else f"{who}: closed")
    elif state.last_fight is not None:
        last = state.last_fight
        a, d = last.markers
        lines.append(f"Last fight: {whose(state, last.attacker, me)} ({_markers(a)}) against "
                     f"{whose(state, last.defender, me)} ({_markers(d)}): "
                     f"{whose(state, last.winner, me)} won.")
    return lines


def share(state: DesertState, seat: str | None) -> dict[str, Any] | None:
    """The seat's "My food" box while it must put food on its characters' cards (None: it need not):
    a row per hungry character (its ``feed`` action, the food on its card ``now``, the ``most`` more
    it takes), how many counters ``must`` go down (all the food held, or as many as the hungry cards
    take), and every word the box shows, so the page knows nothing of food or cards. ``count`` and
    ``left`` carry ``{n}`` for the number the page works out as the player taps."""
    me = state.seats.index(seat) if seat in state.seats else None
    if me is None or me not in feeders(state):
        return None
    most = {c: size(c) - state.food.get(c, 0) for c in state.alive(me) if state.hungry(c)}
    rows = [{"action": str(Feed(c)), "label": _own(state, c, me).capitalize(), "now": state.food.get(c, 0),
             "most": n, "count": f"{{n}} of {size(c)} food"} for c, n in most.items()]
    held = state.spare[me]
    must = min(held, sum(most.values()))
    kept = f" ({_food(held - must)} stays in your hand: every card is full)" if must < held else ""
    return {"title": f"My food: share {_food(must)} out over your characters' cards{kept}", "rows": rows,
            "must": must,
            "left": ["Every food is shared out", "1 food left to share out", "{n} food left to share out"],
            "more": "One more food on this card", "less": "One food less on this card",
            "done": "Put the food on the cards"}
