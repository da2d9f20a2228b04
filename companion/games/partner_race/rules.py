"""The partner card race's rules as pure functions over immutable states.

The companion never sees a hand: it sees each card as it is laid on the card spot and where the
pawns went. So the state knows where every pawn is, whose turn it is, the deal and the dealer,
how many cards each player still holds, and how many of each kind have been seen since the last
shuffle (a card the deck cannot still hold is refused). A turn is one action:

* ``play <colour> <card> <pawn>:<how>[,<pawn>:<how>...]`` - ``how`` is a step count (negative:
  backwards) or ``start``; the 7 lists one ``pawn:steps`` per pawn, in the order they move;
* ``play <colour> swap <pawn><><pawn>`` - two pawns change places;
* ``fold <colour>`` - the player can play none of their cards and gives up the rest of the deal;
* ``correct <pawn>:<from>><to> ... [card:<from>><to>]`` - the players say the table is right and the
  game was wrong (a pawn knocked and put back elsewhere, a misread); recorded, not a turn.

Bumps are not written: they follow from where a pawn lands (:func:`apply` works them out).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from companion.errors import IllegalMoveError, NotationError
from companion.games.partner_race.cards import CARDS, DEALS_PER_DEALER, DECK, HAND, Card, card
from companion.games.partner_race.saved import check_position, fields
from companion.games.partner_race.track import (COLOURS, GOAL, backward, colour_of, forward, goal, locked, partner,
                                                path, pawns_of, seat_of, team, track, valid)


# ------------------------------------------------------------------------------------------ actions
@dataclass(frozen=True)
class Step:
    pawn: str
    how: int | str  # steps (negative: backwards) or "start"

    def __str__(self) -> str:
        return f"{self.pawn}:{self.how}"


@dataclass(frozen=True)
class Play:
    colour: str
    card: str
    steps: tuple[Step, ...] = ()
    swap: tuple[str, str] | None = None

    def __str__(self) -> str:
        what = f"{self.swap[0]}<>{self.swap[1]}" if self.swap else ",".join(map(str, self.steps))
        return f"play {self.colour} {self.card} {what}"


@dataclass(frozen=True)
class Fold:
    colour: str

    def __str__(self) -> str:
        return f"fold {self.colour}"


@dataclass(frozen=True)
class Correct:
    """The table as the players say it is: pawns moved (``(pawn, from, to)``) and the card on the
    spot (``("card", from, to)``, ``-`` for none). Not a play: no card is counted, the turn stays."""

    moves: tuple[tuple[str, str, str], ...]

    def __str__(self) -> str:
        return "correct " + " ".join(f"{p}:{a}>{b}" for p, a, b in self.moves)


Action = Play | Fold | Correct


def parse_action(text: str) -> Action:
    """The text form back into an action (``str(parse_action(t)) == t`` for canonical text)."""
    words = text.split()
    if len(words) == 2 and words[0] == "fold" and words[1] in COLOURS:
        return Fold(words[1])
    if len(words) >= 2 and words[0] == "correct":
        return Correct(tuple(_relocation(w, text) for w in words[1:]))
    if len(words) != 4 or words[0] != "play" or words[1] not in COLOURS:
        raise NotationError(f"{text!r}: write 'play COLOUR CARD PAWN:HOW[,...]', "
                            "'play COLOUR swap PAWN<>PAWN' or 'fold COLOUR'")
    colour, name, what = words[1], words[2], words[3]
    c = card(name)
    if c.swap:
        a, sep, b = what.partition("<>")
        if not sep or not _pawn_ok(a) or not _pawn_ok(b):
            raise NotationError(f"{text!r}: the swap names two pawns, e.g. yellow-1<>red-2")
        return Play(colour, name, swap=(a, b))
    steps = []
    for item in what.split(","):
        pawn, sep, how = item.partition(":")
        if not sep or not _pawn_ok(pawn):
            raise NotationError(f"{text!r}: {item!r} is not PAWN:HOW (e.g. yellow-1:5 or yellow-2:start)")
        if how == "start":
            steps.append(Step(pawn, "start"))
        elif how.lstrip("-").isdigit() and str(int(how)) == how:
            steps.append(Step(pawn, int(how)))
        else:
            raise NotationError(f"{text!r}: {how!r} is not a number of steps or 'start'")
    return Play(colour, name, tuple(steps))


def _relocation(word: str, text: str) -> tuple[str, str, str]:
    what, sep, rest = word.partition(":")
    source, sep2, target = rest.partition(">")
    if what == "card":
        ok = all(c == "-" or c in CARDS for c in (source, target))
    else:
        ok = _pawn_ok(what) and valid(source) and valid(target)
    if not (sep and sep2 and ok):
        raise NotationError(f"{text!r}: {word!r} is not PAWN:FROM>TO (e.g. yellow-1:T5>T9, yellow-2:T3>home) "
                            "or card:FROM>TO (a card's name or -)")
    return (what, source, target)


def _pawn_ok(pawn: str) -> bool:
    colour, _, n = pawn.rpartition("-")
    return colour in COLOURS and n.isdigit() and 1 <= int(n) <= 4


# ------------------------------------------------------------------------------------------ state
@dataclass(frozen=True)
class RaceState:
    """A moment of the game. ``where``: pawn -> position (``home``, ``start``, ``T<n>``, ``G<k>``)."""

    where: Mapping[str, str]
    names: tuple[str, ...] = COLOURS
    dealer: int = 0  # seat
    deals: int = 1  # deals made by this dealer (1-3)
    deal: int = 1  # deals since the game began
    turn: int = 1  # seat to play
    cards_left: tuple[int, ...] = (HAND,) * 4
    seen: Mapping[str, int] = field(default_factory=dict)  # cards laid since the last shuffle, by kind
    last_card: str | None = None
    history: tuple[str, ...] = ()
    seed: int = 0
    board: str = "standard"  # the board file the game is played on (a packaged name or a path)

    @property
    def active(self) -> str:
        return COLOURS[self.turn]

    def unseen(self, name: str) -> int:
        """How many cards of this kind the deck can still hold (in hands or the pile)."""
        return DECK[name] - self.seen.get(name, 0)

    def movers(self, colour: str) -> tuple[str, ...]:
        """The pawns ``colour`` moves with its cards: its own, or its partner's once all its own are locked."""
        return _movers(self.where, colour)


def _movers(where: Mapping[str, str], colour: str) -> tuple[str, ...]:
    """Asked again before each part of a 7: a part that locks the player's last pawn hands the rest
    of the steps to the partner's pawns."""
    own = pawns_of(colour)
    return pawns_of(partner(colour)) if all(locked(p, where) for p in own) else own


def new_race(seed: int = 0, names: tuple[str, ...] = COLOURS, dealer: int = 0, board: str = "standard") -> RaceState:
    """Every pawn in its home base, the first deal made by ``dealer``; the player on its left starts."""
    where = MappingProxyType({p: "home" for c in COLOURS for p in pawns_of(c)})
    return RaceState(where, names, dealer=dealer, turn=(dealer + 1) % 4, seed=seed, board=board)


def winners(state: RaceState) -> tuple[str, ...]:
    """The team whose eight pawns are all locked in their goal circles (empty while none is)."""
    for pair, pawns in _TEAMS:
        # every pawn in a goal circle first: most positions fail there, before the slower lock test
        if all(state.where[p] in _CIRCLES for p in pawns) and all(locked(p, state.where) for p in pawns):
            return pair
    return ()


_TEAMS = tuple((team(first), tuple(p for c in team(first) for p in pawns_of(c))) for first in COLOURS[:2])
_CIRCLES = frozenset(f"G{k}" for k in range(1, GOAL + 1))


# ------------------------------------------------------------------------------------------ moving
def _land(where: dict[str, str], pawn: str, to: str) -> None:
    """Put ``pawn`` on ``to`` and bump as the rules say: a lone pawn of another colour goes home; on
    two or more of one other colour (a protected stack) the pawn landing goes home itself."""
    where[pawn] = to
    if track(to) is None:
        return
    others = [p for p, pos in where.items() if pos == to and p != pawn and colour_of(p) != colour_of(pawn)]
    if len(others) >= 2:
        where[pawn] = "home"
    elif others:
        where[others[0]] = "home"


def _move(where: dict[str, str], step: Step, c: Card) -> None:
    """One pawn's part of a play, or IllegalMoveError naming why not."""
    pawn, how = step.pawn, step.how
    if how == "start":
        if not c.start:
            raise IllegalMoveError(f"the {c.name} card does not bring a pawn out")
        if where[pawn] != "home":
            raise IllegalMoveError(f"{pawn} is not in its home base")
        where[pawn] = "start"
        return
    assert isinstance(how, int)
    if where[pawn] == "home":
        raise IllegalMoveError(f"{pawn} is in its home base: only a start card brings it out")
    if locked(pawn, where):
        raise IllegalMoveError(f"{pawn} is locked in its goal circle and never moves again")
    if how < 0:
        if goal(where[pawn]) is not None:
            raise IllegalMoveError(f"{pawn} is in the goal zone: the -4 card cannot move it")
        to = backward(pawn, -how, where)
    else:
        to = forward(pawn, how, where)
    if to is None:
        raise IllegalMoveError(f"{pawn} cannot move {abs(how)} steps {'back' if how < 0 else ''} from "
                               f"{where[pawn]}: a wall or a pawn in the goal zone bars the way".replace("  ", " "))
    _land(where, pawn, to)


def _swappable(where: Mapping[str, str], pawn: str) -> bool:
    """On the track and not protected (a stack of two or more of one colour is)."""
    pos = where[pawn]
    if track(pos) is None:
        return False
    return sum(1 for p, q in where.items() if q == pos and colour_of(p) == colour_of(pawn)) < 2


def check(state: RaceState, action: Action) -> dict[str, str]:
    """Where the pawns are after ``action``, or IllegalMoveError saying which rule forbids it."""
    if winners(state):
        raise IllegalMoveError("the game is over")
    if isinstance(action, Correct):
        return _corrected(state, action)
    colour = action.colour
    if colour != state.active:
        raise IllegalMoveError(f"it is {state.names[state.turn]}'s turn ({state.active}), not {colour}'s")
    if isinstance(action, Fold):
        return dict(state.where)
    c = card(action.card)
    if state.unseen(c.name) <= 0:
        raise IllegalMoveError(f"all {DECK[c.name]} '{c.name}' cards have been played since the last shuffle: "
                               "that card cannot be in anybody's hand")
    where = dict(state.where)
    if c.swap:
        if action.swap is None or action.swap[0] == action.swap[1]:
            raise IllegalMoveError("the swap card names two different pawns")
        a, b = action.swap
        for p in (a, b):
            if not _swappable(where, p):
                raise IllegalMoveError(f"{p} is protected (home base, starting space, goal zone or a stack "
                                       "of its colour): it cannot be swapped")
        where[a], where[b] = where[b], where[a]
        return where
    if not action.steps:
        raise IllegalMoveError(f"the {c.name} card moves a pawn: name it")
    if c.split:
        return _split(state, action, c, where)
    movers = state.movers(colour)
    if len(action.steps) != 1:
        raise IllegalMoveError(f"the {c.name} card moves one pawn")
    step = action.steps[0]
    if step.pawn not in movers:
        raise IllegalMoveError(f"{step.pawn} is not {colour}'s to move: a player moves their own pawns, and their "
                               "partner's once all their own are locked")
    if step.how != "start" and step.how not in c.steps:
        raise IllegalMoveError(f"the {c.name} card is {c.says}, not {step.how}")
    _move(where, step, c)
    return where


def _corrected(state: RaceState, action: Correct) -> dict[str, str]:
    """Pawns where the correction says; its 'from' must be where the game has them (it was written
    for this position, not an older one)."""
    where = dict(state.where)
    for what, source, target in action.moves:
        now = (state.last_card or "-") if what == "card" else where[what]
        if now != source:
            raise IllegalMoveError(f"the correction says {what} is on {source}, the game has it on {now}")
        if what != "card":
            where[what] = target
    try:
        check_position(where)  # a correction never records a table that cannot be (saved.py)
    except ValueError as exc:
        raise IllegalMoveError(f"correction: {exc}") from None
    return where


def _split(state: RaceState, action: Play, c: Card, where: dict[str, str]) -> dict[str, str]:
    """The 7: steps shared between pawns, each moved once, seven in all. Once all the player's own
    pawns are locked (before or during the play), the rest go to the partner's pawns."""
    colour = action.colour
    if sum(s.how for s in action.steps if isinstance(s.how, int)) != 7 or \
            any(not isinstance(s.how, int) or s.how < 1 for s in action.steps):
        raise IllegalMoveError("the 7 moves pawns forward seven steps in all, each at least one")
    if len({s.pawn for s in action.steps}) != len(action.steps):
        raise IllegalMoveError("with the 7 each pawn is moved once")
    for step in action.steps:
        if step.pawn not in _movers(where, colour):
            raise IllegalMoveError(f"{step.pawn} is not {colour}'s to move now")
        _move(where, step, c)
    return where


def apply(state: RaceState, action: Action) -> RaceState:
    """The state after ``action`` (a new state; ``state`` is never changed)."""
    where = check(state, action)
    if isinstance(action, Correct):
        laid = next((b for w, _, b in action.moves if w == "card"), state.last_card or "-")
        return replace(state, where=MappingProxyType(where), last_card=None if laid == "-" else laid,
                       history=state.history + (str(action),))
    seen = dict(state.seen)
    left = list(state.cards_left)
    seat = seat_of(action.colour)
    last: str | None
    if isinstance(action, Fold):
        left[seat] = 0
        last = state.last_card
    else:
        seen[action.card] = seen.get(action.card, 0) + 1
        left[seat] -= 1
        last = action.card
    after = replace(state, where=MappingProxyType(where), seen=MappingProxyType(seen), cards_left=tuple(left),
                    last_card=last, history=state.history + (str(action),))
    return _next_turn(after)


def _next_turn(state: RaceState) -> RaceState:
    if winners(state):
        return state
    for k in range(1, 5):
        seat = (state.turn + k) % 4
        if state.cards_left[seat] > 0:
            return replace(state, turn=seat)
    # everybody has played or folded: the next deal (a new dealer and a shuffle after three)
    seen: Mapping[str, int]
    if state.deals >= DEALS_PER_DEALER:
        dealer, deals, seen = (state.dealer + 1) % 4, 1, MappingProxyType({})
    else:
        dealer, deals, seen = state.dealer, state.deals + 1, state.seen
    return replace(state, dealer=dealer, deals=deals, deal=state.deal + 1, seen=seen, cards_left=(HAND,) * 4,
                   turn=(dealer + 1) % 4)


# ------------------------------------------------------------------------------------------ legality
Keep = Callable[[tuple[str, ...], Mapping[str, str], Mapping[str, str]], bool]
"""Asked after each part of a play is worked out, with the pawns the part moved and where every pawn
was and now is; False drops that play and every play that goes on from the same part."""


def outcomes(state: RaceState, name: str, keep: Keep | None = None) -> Iterator[tuple[Play, dict[str, str]]]:
    """Every legal way for the active player to play a card of this kind, each with where it leaves
    the pawns: exactly the plays :func:`apply` accepts. One enumeration serves the rules
    (:func:`plays`, :func:`legal_actions`) and the reading of a picture, so the two never disagree;
    ``keep`` lets a reader drop plays part by part, without working out the rest of a 7 whose first
    part already disagrees with what it looks for."""
    if winners(state) or state.unseen(name) <= 0:
        return
    c = CARDS[name]
    colour = state.active
    if c.swap:
        on_track = sorted(p for p in state.where if _swappable(state.where, p))
        for a, b in itertools.combinations(on_track, 2):
            where = dict(state.where)
            where[a], where[b] = where[b], where[a]
            if keep is None or keep((a, b), state.where, where):
                yield Play(colour, name, swap=(a, b)), where
    elif c.split:
        for parts, after in _splits(dict(state.where), colour, c, frozenset(), 7, keep, {}):
            yield Play(colour, name, parts), after
    else:
        for pawn in state.movers(colour):
            for how in (("start",) if c.start else ()) + c.steps:
                where = dict(state.where)
                try:
                    _move(where, Step(pawn, how), c)
                except IllegalMoveError:
                    continue
                if keep is None or keep((pawn,), state.where, where):
                    yield Play(colour, name, (Step(pawn, how),)), where


Tails = list[tuple[tuple[Step, ...], dict[str, str]]]


def _splits(where: dict[str, str], colour: str, c: Card, moved: frozenset[str], left: int, keep: Keep | None,
            known: dict[tuple[frozenset[tuple[str, str]], frozenset[str], int], Tails]) -> Tails:
    """The ways to go on with a 7 whose parts so far left the pawns at ``where``, moved ``moved``
    and left ``left`` steps: the remaining parts, and where the pawns end. Part by part as
    :func:`_split` checks them: each next part moves a pawn not moved yet among the player's pawns to
    move at that moment (the partner's once a part has locked the last of the player's own), at least
    one step, until seven are used. So a pawn in its goal zone can make room, the last one lock, and
    the rest go to the partner - whatever order of parts reaches it.

    What follows depends only on those three (and ``keep``, which judges a part by itself), and
    parts in another order often leave the pawns alike (1 then 2 steps, or 2 then 1): ``known``
    works each out once, which halves the time of a 7 with four pawns out. The ends are shared
    between the plays that reach them: not to be changed."""
    key = (frozenset(where.items()), moved, left)
    found = known.get(key)
    if found is not None:
        return found
    found = []
    for pawn in _movers(where, colour):
        if pawn in moved or where[pawn] == "home":
            continue
        way = path(pawn, left, where)  # as _move: [] for a locked pawn, shorter when barred
        for n in range(len(way), 0, -1):
            after = dict(where)
            _land(after, pawn, way[n - 1])
            if keep is not None and not keep((pawn,), where, after):
                continue
            step = Step(pawn, n)
            if n == left:
                found.append(((step,), after))
            else:
                found += [((step, *tail), end) for tail, end in
                          _splits(after, colour, c, moved | {pawn}, left - n, keep, known)]
    known[key] = found
    return found


def plays(state: RaceState, name: str) -> Iterator[Play]:
    """Every legal way for the active player to play a card of this kind (none: it cannot be played)."""
    return (play for play, _ in outcomes(state, name))


def playable(state: RaceState, name: str) -> bool:
    """Can the active player play this card at all? (A hand of cards none of which is: fold.)"""
    return state.unseen(name) > 0 and next(plays(state, name), None) is not None


def legal_actions(state: RaceState) -> list[Action]:
    """Every play of every card the deck can still hold, and folding."""
    if winners(state):
        return []
    out: list[Action] = [Fold(state.active)]
    for name in CARDS:
        if state.unseen(name) > 0:
            out.extend(plays(state, name))
    return out


def to_json(state: RaceState) -> dict[str, Any]:
    return {"game": "partner-race", "where": dict(state.where), "names": list(state.names), "dealer": state.dealer,
            "deals": state.deals, "deal": state.deal, "turn": state.turn, "cards_left": list(state.cards_left),
            "seen": dict(state.seen), "last_card": state.last_card, "history": list(state.history),
            "seed": state.seed, "board": state.board}


def from_json(data: Mapping[str, Any]) -> RaceState:
    """A saved state, every field checked and impossible positions refused (StateFormatError, a
    NotationError's sibling: both are ValueErrors naming what is wrong)."""
    f = fields(data)
    return RaceState(MappingProxyType(f["where"]), f["names"], f["dealer"], f["deals"], f["deal"], f["turn"],
                     f["cards_left"], MappingProxyType(f["seen"]), f["last_card"], f["history"], f["seed"], f["board"])


__all__ = ["Correct", "Fold", "Play", "RaceState", "Step", "apply", "check", "from_json", "legal_actions",
           "new_race", "outcomes", "parse_action", "playable", "plays", "to_json", "winners"]
