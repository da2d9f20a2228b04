"""A picture read as plays: which legal plays of a card leave the pawns as the camera sees them.

Working out every legal play of the card on the spot and comparing each outcome with the picture
is simple but slow: a 7 alone is hundreds of plays once four pawns are out, and while no card is
laid all fourteen kinds are tried - a tenth of a second and more for one picture on a Pi, on the
thread that keeps the table in step. So the plays are grown part by part (:func:`rules.outcomes`)
and a part is dropped, with every play that goes on from it, as soon as it disagrees with the
picture. That is sound because a pawn's place is settled by its own part: within one play a pawn
moves once, and a pawn moved by an earlier part is never bumped by a later one (pawns of one colour
stack; the partner's pawns move only once all the player's own are locked in their goal zone, out
of reach). A bumped pawn goes home and stays there. What is left is compared whole, as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from companion.games.partner_race import rules
from companion.games.partner_race.rules import Play, RaceState
from companion.games.partner_race.track import colour_of, goal


def place_of(pawn: str, position: str) -> str:
    """The board cell of a pawn's position."""
    colour = colour_of(pawn)
    if position == "home":
        return f"home-{colour}-{pawn.rsplit('-', 1)[1]}"
    if position == "start":
        return f"start-{colour}"
    g = goal(position)
    return f"goal-{colour}-{g}" if g is not None else position


class Picture:
    """The pawns as the camera sees them. ``where``: each pawn seen and its position; ``covers``:
    for each colour the track cells where a pawn of it is seen (a pawn of that colour not seen may
    stand beneath: a stack)."""

    def __init__(self, where: Mapping[str, str], covers: Mapping[str, set[str]]) -> None:
        self.where = where
        self.covers = covers

    def shows(self, pawn: str, position: str) -> bool:
        """The picture agrees with ``pawn`` standing on ``position``."""
        seen = self.where.get(pawn)
        if seen is not None:
            return seen == position
        return place_of(pawn, position) in self.covers.get(colour_of(pawn), ())

    def matches(self, after: Mapping[str, str]) -> bool:
        """Every pawn where the picture shows it (an unseen one beneath a pawn of its colour)."""
        return all(self.shows(p, to) for p, to in after.items())

    def part_fits(self, moved: tuple[str, ...], before: Mapping[str, str], after: Mapping[str, str]) -> bool:
        """A part of a play the picture can still be the end of: the pawns it moved stand where they
        are seen, and every pawn it bumped is seen in its home circle (none of them moves again)."""
        if not all(self.shows(p, after[p]) for p in moved):
            return False
        return all(to == before[p] or p in moved or self.where.get(p) == "home" for p, to in after.items())

    def plays(self, state: RaceState, name: str) -> Iterator[tuple[Play, dict[str, str]]]:
        """The legal plays of this card that leave the pawns as seen, in the order of
        :func:`rules.plays`, each with where it leaves the pawns."""
        for play, after in rules.outcomes(state, name, self.part_fits):
            if self.matches(after):
                yield play, after
