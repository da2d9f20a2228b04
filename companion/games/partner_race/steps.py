"""A play made in parts at the table: every part of it is a step, told as a step, never out of sync.

A hand lays the card on the card spot, then moves the pawn; a 7 is shared out one pawn at a time;
a bump is the pawn landing (on top of the one it bumps, which the camera no longer sees) and then
the bumped one carried home; a swap is one pawn lifted, then the other. The camera settles on
every part. A picture is part-way through a play when some legal play of the card on the spot
(any card while none is laid) explains every pawn that differs from the game: it stands where
the play puts it, or it is not seen and the play moves it (in a hand, or under the pawn that
landed on it). Anything else is a picture no continuation of a play reaches: out of sync at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.base import Light, Reconciliation, TableStatus
from companion.games.partner_race import rules
from companion.games.partner_race.board import CARD_SPOT
from companion.games.partner_race.cards import CARDS, called
from companion.games.partner_race.rules import Play, RaceState
from companion.games.partner_race.track import colour_of, goal
from companion.games.partner_race.words import card_thing, name_of, pawn_name

CALM_HZ = 0.5  # a step breathes slowly: nothing is wrong, a hand is not finished yet


def _card_seen(state: RaceState, seen: Mapping[str, Sequence[str]]) -> tuple[bool, str | None]:
    """(one card kind readable on the spot or none, that kind): the old card still showing beside a
    new one is the one under it."""
    cards = [p for p in seen.get(CARD_SPOT, ()) if p.startswith("card-")]
    if len(cards) == 2 and state.last_card and f"card-{state.last_card}" in cards:
        cards = [c for c in cards if c != f"card-{state.last_card}"] or cards[:1]
    if len(cards) > 1:
        return False, None
    kind = cards[0].removeprefix("card-") if cards else None
    return kind is None or kind in CARDS, kind


def _on(position: str) -> str:
    """Where a pawn goes, as players say it."""
    if position == "home":
        return "in its home circle"
    if position == "start":
        return "on its starting space"
    g = goal(position)
    return f"in goal circle {g}" if g is not None else f"on {position}"


def part_way(state: RaceState, seen: Mapping[str, Sequence[str]], where: Mapping[str, str],
             others: bool = True) -> Reconciliation | None:
    """The picture as a step of a play still being made, or None: no continuation of a legal play
    reaches it. ``where``: each pawn seen and its position (pawns hidden in a stack put in).
    ``others``: while the spot still shows the last card, the plays of every other card too (its
    card not laid yet); not when a play of the card showing already explains the picture (another
    card of that kind: the players are asked)."""
    readable, kind = _card_seen(state, seen)
    if not readable or rules.winners(state):
        return None
    laid = kind if kind is not None and kind != state.last_card else None
    changed = [p for p in sorted(state.where) if where.get(p) != state.where[p]]  # moved, or not seen
    if not changed and laid is None:
        return None
    fits: list[tuple[Play, dict[str, str]]] = []  # the plays under way, and what each still leaves to do

    def keep(moved: tuple[str, ...], before: Mapping[str, str], after: Mapping[str, str]) -> bool:
        """A part of a play (a pawn's place is settled by its own part, see reading.py) that already
        disagrees with the picture: dropped with every play that goes on from it."""
        return all(where[p] == after[p] if p in where else after[p] != state.where[p]
                   for p in changed if p in moved or after[p] != before[p])

    # the card played not laid yet (the spot still shows the last one): any card's play may be under way
    for name in [laid] if laid is not None else list(CARDS) if others or kind is None else [kind]:
        if state.unseen(name) <= 0:
            continue
        for play, after in rules.outcomes(state, name, keep):
            if all(where[p] == after[p] if p in where else after[p] != state.where[p] for p in changed):
                left = {p: to for p, to in after.items() if to != state.where[p] and where.get(p) != to}
                if left or (others and laid is None and name != kind):  # (the pawns moved, the card to lay)
                    fits.append((play, left))
    if not fits:
        return None
    mover = colour_of(state.movers(state.active)[0])
    if not changed:  # the card laid, no pawn moved yet: whose pawn moves now
        pawns = sorted({p for _, left in fits for p in left}, key=lambda p: (colour_of(p) != mover, p))
        who = name_of(state, state.active)  # the player by name (the colour when no name was given)
        whose = "" if mover == state.active else f" (all of {who}'s pawns are locked: a {mover} pawn)"
        return Reconciliation.partial(f"{card_thing(str(laid))} is laid: now {who} moves the pawn it plays "
                                      f"({CARDS[str(laid)].says}){whose}", pawns, "step")
    cards = {play.card for play, _ in fits}
    what = f"the {called(next(iter(cards)))}" if len(cards) == 1 else "the move"
    lay = "" if laid is not None else " and lay the card played on the card spot"
    lefts = [left for _, left in fits]
    if not any(lefts):  # the pawns moved as a play of a card not laid yet
        return Reconciliation.partial(f"lay the card played on the card spot ({what} moves "
                                      f"{_either(state, changed)} so)", changed, "step")
    if all(left == lefts[0] for left in lefts):  # one way on: say exactly what is left
        left = lefts[0]
        bumped = [p for p in sorted(left) if left[p] == "home"]
        parts = [f"{pawn_name(state, p)} is bumped: put it in its home circle" for p in bumped] + \
                [f"put {pawn_name(state, p)} {_on(left[p])}" for p in sorted(left) if p not in bumped]
        pawns = bumped + [p for p in sorted(left) if p not in bumped]
        return Reconciliation.partial(f"finish {what}: " + "; ".join(parts) + lay, pawns, "step")
    pawns = sorted({p for left in lefts for p in left}, key=lambda p: (colour_of(p) != mover, p))
    if all(play.card == "7" for play, _ in fits):
        steps = sorted({sum(s.how for s in play.steps if s.pawn in left and isinstance(s.how, int))
                        for play, left in fits})
        more = " or ".join(map(str, steps))
        return Reconciliation.partial(f"finish the 7: {more} more steps for {_either(state, pawns)}" + lay, pawns,
                                      "step")
    return Reconciliation.partial(f"finish {what}: move {_either(state, pawns)} as it plays" + lay, pawns, "step")


def _either(state: RaceState, pawns: list[str]) -> str:
    """Pawns any of which may be moved, by name: "Ada's yellow pawn 2 or Ada's yellow pawn 3"."""
    return " or ".join(pawn_name(state, p) for p in pawns)


def step_light(state: RaceState, status: TableStatus, colours: Mapping[str, tuple[int, int, int]]) -> Light | None:
    """The turn light while a play is part-way: the colour of the pawn to move now, breathing slowly
    (None: no step)."""
    if not status.step:
        return None
    pawns = [p for p in status.to_move if not p.startswith("card-")]
    colour = colour_of(pawns[0]) if pawns else colour_of(state.movers(state.active)[0])
    return Light(colours[colour], "pulse", CALM_HZ, 0.35)
