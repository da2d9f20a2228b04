"""What the partner race tells the framework's reading of a picture (:mod:`companion.games.reading`).

The camera sees the pawns and the card laid last on the card spot. The plays worth trying are those
of the card on the spot (any card while the spot still shows the last one, or none), grown part by
part (:func:`rules.outcomes`) and dropped, with every play that goes on from a part, as soon as that
part disagrees with the picture (a 7 alone is hundreds of plays once four pawns are out). That is
sound because a pawn's place is settled by its own part: within one play a pawn moves once, a pawn
moved by an earlier part is never bumped by a later one (pawns of one colour stack; the partner's
move only once all the player's own are locked, out of reach), and a bumped pawn stays home. A play
is the picture when every pawn seen is where it ends and every pawn not seen is beneath one of its
colour (a stack). The rest is the race's words: a play, what is left of one made in parts (every
way on weighed: a 7's steps still to share), and what is wrong with a picture no play explains.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from companion.games.partner_race import rules
from companion.games.partner_race.board import CARD_SPOT
from companion.games.partner_race.cards import CARDS, DECK, called
from companion.games.partner_race.rules import Action, Play, RaceState
from companion.games.partner_race.track import COLOURS, colour_of, goal
from companion.games.partner_race.words import card_name, card_thing, name_of, pawn_name, place_names, play_words
from companion.games.reading import Hints, Picture as Seen
from companion.games.reading.hints import Readable, WayT
from companion.games.reconciliation import Choice, Reconciliation

Game = Readable[RaceState, Action]


@cache
def place_of(pawn: str, position: str) -> str:
    """The board cell of a pawn's position (asked for every pawn of every play a reading tries)."""
    colour = colour_of(pawn)
    if position == "home":
        return f"home-{colour}-{pawn.rsplit('-', 1)[1]}"
    if position == "start":
        return f"start-{colour}"
    g = goal(position)
    return f"goal-{colour}-{g}" if g is not None else position


def position_of(pawn: str, cell: str) -> str | None:
    """A pawn's position from the cell it is seen on, or None: a cell it can never be on."""
    colour = colour_of(pawn)
    if cell.startswith("T") and cell[1:].isdigit():
        return cell
    if cell.startswith(f"home-{colour}-"):
        return "home"
    if cell == f"start-{colour}":
        return "start"
    if cell.startswith(f"goal-{colour}-"):
        return f"G{cell.rsplit('-', 1)[1]}"
    return None


def pawns_seen(seen: Mapping[str, Sequence[str]]) -> tuple[dict[str, str], tuple[str, str] | None]:
    """Each pawn seen and its position; the first one seen on a place its colour never stands, if any."""
    where: dict[str, str] = {}
    for cell, pieces in seen.items():
        for piece in pieces:
            if piece.startswith("card-"):
                continue
            pos = position_of(piece, cell)
            if pos is None:
                return where, (piece, cell)
            where[piece] = pos
    return where, None


def covers(seen: Mapping[str, Sequence[str]]) -> dict[str, set[str]]:
    """Track spaces (and starting spaces) by the colours seen on them: where a pawn of that colour can
    be hidden beneath (two pawns brought out stand on each other on their starting space)."""
    out: dict[str, set[str]] = {c: set() for c in COLOURS}
    for cell, pieces in seen.items():
        if cell.startswith(("T", "start-")):
            for piece in pieces:
                if not piece.startswith("card-"):
                    out[colour_of(piece)].add(cell)
    return out


def pawns(state: RaceState, which: Sequence[str]) -> str:
    """Pawns by name in a sentence: "Ada's green pawn 1 is", "Ada's green pawn 1 and Bo's red pawn 2 are"."""
    names = [pawn_name(state, p) for p in which]
    return f"{names[0]} is" if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]} are"


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


@dataclass
class Look:
    """A picture as the race reads it, in the state it is read in."""

    state: RaceState
    pawns: Picture
    stray: tuple[str, str] | None           # a pawn seen where its colour never stands
    cards: list[str]                        # the cards on the spot (the old one under a new one left out)
    kind: str | None = None                 # the card on the spot, if one
    laid: str | None = None                 # the card on the spot if it is not the last one laid
    changed: list[str] = field(default_factory=list)  # pawns moved or not seen
    missing: list[str] = field(default_factory=list)  # pawns not seen
    moved: list[str] = field(default_factory=list)    # pawns seen elsewhere than the game has them

    @classmethod
    def of(cls, state: RaceState, seen: Seen) -> Look:
        where, stray = pawns_seen(seen)
        cards = [p for p in seen.get(CARD_SPOT, ()) if p.startswith("card-")]
        if len(cards) == 2 and state.last_card and f"card-{state.last_card}" in cards:
            cards = [c for c in cards if c != f"card-{state.last_card}"] or cards[:1]  # the old one still shows
        kind = cards[0].removeprefix("card-") if len(cards) == 1 else None
        return cls(state, Picture(where, covers(seen)), stray, cards, kind, kind if kind != state.last_card else None,
                   [p for p in sorted(state.where) if where.get(p) != state.where[p]],
                   sorted(p for p in state.where if p not in where), sorted(p for p in where if where[p] != state.where[p]))

    @property
    def readable(self) -> bool:
        """No pawn where it never stands, and one card of this deck on the spot, or none."""
        return self.stray is None and len(self.cards) <= 1 and (self.kind is None or self.kind in CARDS)

    def fits(self, after: Mapping[str, str]) -> bool:
        """A play that may be the picture or under way to it: every pawn the picture shows changed is
        where the play puts it, or not seen and moved by it (or beneath a pawn of its colour)."""
        where = self.pawns.where
        return self.pawns.matches(after) or all(where[p] == after[p] if p in where else after[p] != self.state.where[p]
                                                for p in self.changed)

    def keep(self, moved: tuple[str, ...], before: Mapping[str, str], after: Mapping[str, str]) -> bool:
        """A part of a play the picture may be the end of, or part-way through: each pawn the part
        moves or bumps that the picture shows changed is where the part puts it, or not seen and
        moved by it (in a hand, or under the pawn that landed on it). Every part of a play the
        picture is the end of keeps so (:meth:`Picture.part_fits` is the narrower test)."""
        where = self.pawns.where
        return all(where[p] == after[p] if p in where else after[p] != self.state.where[p]
                   for p in self.changed if p in moved or after[p] != before[p])


class RaceHints(Hints[RaceState, Action]):
    """The race's hints: the plays of the card on the spot grown part by part, the stacks, the words."""

    prune = False      # a play lays its card, which the spot may not show yet (the pawns moved first)

    def __init__(self) -> None:
        self.looked: Look | None = None
        self.ways: list[tuple[Play, dict[str, str]]] = []  # the plays under way to, and what each leaves to do

    def look(self, state: RaceState, picture: Seen) -> Look:
        """The picture being read, looked at once: the search asks first, in the state it reads from."""
        self.looked = self.looked or Look.of(state, picture)
        return self.looked

    @property
    def read(self) -> Look:
        """The picture being read, for a hint asked after the search (it is not handed the picture)."""
        assert self.looked is not None, "the search looks at the picture first"
        return self.looked

    def candidates(self, game: Game, state: RaceState, picture: Seen) -> Iterable[Action]:
        seen = self.look(state, picture)
        if not seen.readable:
            return
        ends: set[frozenset[tuple[str, str]]] = set()  # a 7 split in another order that ends alike: tried once
        for name in [seen.laid] if seen.laid is not None else CARDS:  # the card laid, or any not laid yet
            ends.clear()
            for play, after in rules.outcomes(state, name, seen.keep):
                end = frozenset(after.items())
                if end not in ends and seen.fits(after):
                    ends.add(end)
                    yield play

    def key(self, game: Game, state: RaceState) -> tuple[str | None, tuple[tuple[str, str], ...]]:
        """A play is its card and where it leaves the pawns (a 7 split in another order, alike)."""
        return state.last_card, tuple(sorted(state.where.items()))

    def goes_on(self, game: Game, start: RaceState, here: RaceState) -> bool:
        return False  # a turn is one card laid

    def fits(self, game: Game, start: RaceState, after: RaceState, expected: Seen, picture: Seen) -> bool:
        """Every pawn seen where the play leaves it, every pawn not seen beneath one of its colour, and
        the card on the spot the one played (any card while none shows)."""
        seen = self.read
        return (seen.kind is None or seen.kind == after.last_card) and seen.pawns.matches(after.where)

    def owner(self, game: Game, state: RaceState, piece: str) -> str | None:
        """A pawn seen moved is its player's (the partner's are the player's own once all theirs are
        locked); a pawn gone, or where it never stands, and a card are anyone's to put right."""
        if piece not in self.read.moved:
            return None
        return state.active if piece in state.movers(state.active) else colour_of(piece)

    def reading(self, game: Game, state: RaceState, actions: Sequence[Action]) -> Choice:
        play = actions[0]
        assert isinstance(play, Play)
        return Choice((str(play),), play_words(state, play, rules.check(state, play)))

    def question(self, game: Game, state: RaceState, actions: Sequence[Action]) -> str | None:
        """The spot looks as it did (another card of that kind laid, or none), or the card was laid
        and no pawn moved: the players say."""
        seen, who = self.read, name_of(state, state.active)
        if seen.kind is not None and seen.kind == state.last_card:
            return (f"The card spot still shows {card_name(seen.kind)}: did {who} play another {called(seen.kind)}? "
                    "(If another card was played, lay it on the spot instead.)")
        if seen.kind is not None and not seen.moved and not seen.missing:
            return (f"{card_thing(seen.kind).capitalize()} was laid and no pawn has moved: did {who} play it so "
                    "that every pawn stays where it is?")
        return None

    def also_under_way(self, game: Game, state: RaceState, readings: Sequence[WayT],
                       looked: Sequence[WayT]) -> Sequence[WayT]:
        """A whole play that is also part of another of the same card still being made (the card laid,
        no pawn moved yet; a 7 whose first pawn bounced in its goal zone to where seven steps take
        it, the second pawn not moved yet) is a step while hands are at work."""
        kind = self.read.kind
        return [w for w in looked if kind is not None and isinstance(w.actions[0], Play) and w.actions[0].card == kind]

    def step(self, game: Game, state: RaceState, actions: Sequence[Action], to_move: Sequence[str]) -> str:
        """What is left of one play the picture is under way to (the framework asks it of each)."""
        play, where = actions[0], self.read.pawns.where
        assert isinstance(play, Play)
        self.ways.append((play, {p: to for p, to in rules.check(state, play).items()
                                 if to != state.where[p] and where.get(p) != to}))  # what it leaves to do
        return self.either(game, state, ())

    def either(self, game: Game, state: RaceState, steps: Sequence[str]) -> str:
        """What is left of the plays the picture is under way to, weighed together: the card laid, a
        7 shared out one pawn at a time, a bump (the pawn landing on the one it bumps, then that one
        carried home), a swap one pawn at a time; said exactly when one way on is left, else as the
        moves still open."""
        seen, fits = self.read, self.ways
        laid = seen.laid
        mover = colour_of(state.movers(state.active)[0])
        who = name_of(state, state.active)  # the player by name (the colour when no name was given)
        if not seen.changed and laid is None:  # the last card lifted, nothing else yet
            return "lay the card played on the card spot"
        if not seen.changed:  # the card laid, no pawn moved yet: whose pawn moves now
            whose = "" if mover == state.active else f" (all of {who}'s pawns are locked: a {mover} pawn)"
            return f"{card_thing(str(laid))} is laid: now {who} moves the pawn it plays ({CARDS[str(laid)].says}){whose}"
        cards = {play.card for play, _ in fits}
        what = f"the {called(next(iter(cards)))}" if len(cards) == 1 else "the move"
        lay = "" if laid is not None else " and lay the card played on the card spot"
        lefts = [left for _, left in fits]
        if not any(lefts):  # the pawns moved as a play of a card not laid yet
            return f"lay the card played on the card spot ({what} moves {_either(state, seen.changed)} so)"
        if all(left == lefts[0] for left in lefts):  # one way on: say exactly what is left
            left = lefts[0]
            bumped = [p for p in sorted(left) if left[p] == "home"]
            return f"finish {what}: " + "; ".join(
                [f"{pawn_name(state, p)} is bumped: put it in its home circle" for p in bumped] +
                [f"put {pawn_name(state, p)} {_on(left[p])}" for p in sorted(left) if p not in bumped]) + lay
        moving = sorted({p for left in lefts for p in left}, key=lambda p: (colour_of(p) != mover, p))
        if all(play.card == "7" for play, _ in fits):
            more = sorted({sum(s.how for s in play.steps if s.pawn in left and isinstance(s.how, int))
                           for play, left in fits})
            return f"finish the 7: {' or '.join(map(str, more))} more steps for {_either(state, moving)}" + lay
        return f"finish {what}: move {_either(state, moving)} as it plays" + lay

    def held(self, game: Game, state: RaceState, step: Reconciliation) -> Reconciliation:
        """Each part of a play is one hand's move (the card laid, a pawn, the pawn it bumped): the hold
        time is allowed once, however many pawns are still to move."""
        return replace(step, tokens=1)

    def out_of_turn(self, game: Game, state: RaceState, pieces: Sequence[str], owners: Sequence[str]) -> str:
        them = " and ".join(pawn_name(state, p) for p in pieces)
        players = " and ".join(name_of(state, o) for o in dict.fromkeys(owners))
        return f"it is {name_of(state, state.active)}'s turn, not {players}'s: put {them} back"

    def read_as(self, game: Game, state: RaceState, picture: Seen) -> Sequence[Action]:
        """A card on the spot the deck cannot hold any more: the rules refuse its play."""
        seen = self.look(state, picture)
        clean = seen.readable and all(seen.pawns.covers.get(colour_of(p)) for p in seen.missing)
        return [Play(state.active, seen.kind)] if clean and seen.kind is not None and state.unseen(seen.kind) <= 0 else []

    def refused(self, game: Game, state: RaceState, action: Action, reason: str) -> str:
        card = action.card if isinstance(action, Play) else ""
        return f"all {DECK[card]} {called(card)} cards are out since the last shuffle: that card cannot be played"

    def unexplained(self, game: Game, state: RaceState, picture: Seen, gave_up: bool) -> Reconciliation:
        """What is wrong with a picture no play explains, the pawns that moved blamed."""
        seen = self.look(state, picture)
        kind, moved = seen.kind, seen.moved
        if seen.stray is not None:
            pawn, cell = seen.stray
            return Reconciliation.illegal(f"{pawn_name(state, pawn)} is on {place_names().get(cell, cell)}, where a "
                                          f"{colour_of(pawn)} pawn never stands", (pawn,), "place")
        if any(not seen.pawns.covers.get(colour_of(p)) for p in seen.missing):
            return Reconciliation.illegal(f"{pawns(state, seen.missing)} not on the board: put every pawn back",
                                          seen.missing, "off")
        if gave_up:
            return super().unexplained(game, state, picture, gave_up)
        if len(seen.cards) > 1:
            reason = "two cards on the card spot: lay the one played on top"
        elif kind is not None and kind not in CARDS:
            reason = "the card on the card spot is not a card of this deck: lay the card played on the card spot"
        elif kind is not None:
            reason = (f"no way to play {card_thing(kind)} ({CARDS[kind].says}) leaves the pawns like this"
                      + (": lay the card you played on the card spot" if kind == state.last_card else ""))
        else:
            reason = f"no card {name_of(state, state.active)} can play leaves the pawns like this"
        return Reconciliation.illegal(reason, moved, "card")


def _on(position: str) -> str:
    """Where a pawn goes, as players say it."""
    if position == "home":
        return "in its home circle"
    if position == "start":
        return "on its starting space"
    g = goal(position)
    return f"in goal circle {g}" if g is not None else f"on {position}"


def _either(state: RaceState, which: Sequence[str]) -> str:
    """Pawns any of which may be moved, by name: "Ada's yellow pawn 2 or Ada's yellow pawn 3"."""
    return " or ".join(pawn_name(state, p) for p in which)
