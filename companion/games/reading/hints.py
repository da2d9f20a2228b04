"""What a game tells the framework's reading (:class:`Hints`), and what the reading asks of a game.

Every member has a default right for a game whose pieces are each themselves and whose moves put
one piece at a time where a legal action says; a game overrides only what differs (look-alike
tiles, a pawn's path of steps, the words its players use).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from companion.games.geometry import Placement, unfaced
from companion.games.reconciliation import Choice, Reconciliation

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
StateC = TypeVar("StateC", contravariant=True)
Picture = dict[str, tuple[str, ...]]   # cell -> pieces, in the form the rules count (the table's ``alike``)


class ReadsRules(Protocol[StateT, ActionT]):
    def legal_actions(self, state: StateT) -> Sequence[ActionT]: ...
    def apply(self, state: StateT, action: ActionT | str) -> StateT: ...
    def active(self, state: StateT) -> tuple[str, ...]: ...
    def outcome(self, state: StateT) -> Any: ...
    def why_not(self, state: StateT, action: ActionT | str) -> str | None: ...
    def to_dict(self, state: StateT) -> dict[str, Any]: ...


class ReadsTable(Protocol[StateC]):
    def expected(self, state: StateC) -> dict[str, tuple[str, ...]]: ...
    def alike(self, state: StateC, seen: Placement) -> dict[str, tuple[str, ...]]: ...


class ReadsPanel(Protocol[StateC]):
    def view(self, state: StateC, seat: str | None = None) -> dict[str, Any]: ...
    def words(self, state: StateC) -> dict[str, str]: ...


class Readable(Protocol[StateT, ActionT]):
    """What the reading asks of a game: its rules, its table and its panel's words."""

    @property
    def rules(self) -> ReadsRules[StateT, ActionT]: ...
    @property
    def table(self) -> ReadsTable[StateT]: ...
    @property
    def panel(self) -> ReadsPanel[StateT]: ...


def form(game: Readable[StateT, ActionT], state: StateT) -> Picture:
    """What the camera should see in ``state``, in the form a picture is compared in."""
    return game.table.alike(state, game.table.expected(state))


def where(picture: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Piece -> its cell in a picture."""
    return {p: c for c, ps in picture.items() for p in ps}


def changed(before: Mapping[str, Sequence[str]], after: Mapping[str, Sequence[str]]) -> set[str]:
    """The pieces whose place differs between two pictures (come, gone or moved)."""
    a, b = where(before), where(after)
    return {p for p in set(a) | set(b) if a.get(p) != b.get(p)}


@dataclass(frozen=True)
class Reached(Generic[StateT, ActionT]):
    """A position the search reached: the actions from the start and the state they lead to."""

    actions: tuple[ActionT, ...]
    state: StateT
    picture: Picture            # what the camera should see there (the compared form)


class Hints(Generic[StateT, ActionT]):
    """What a game tells the reading; the defaults read a game of pieces that are each themselves."""

    prune = True            # try only actions that move pieces the picture shows moved
    shortest = True         # stop at the shortest readings: a longer play that ends in the same picture
    #                         adds only what the camera cannot see (the turn passed by a button, nothing
    #                         played): the least play is the one made. False: every end state of the turn
    #                         is a reading (a leap ticked on the score sheet beside two steps: ask)

    def candidates(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture) -> Iterable[ActionT]:
        """The actions worth trying from ``state`` towards ``picture``: by default every legal action of
        the player to move (the search prunes those that move a piece the picture shows unmoved)."""
        return game.rules.legal_actions(state)

    def key(self, game: Readable[StateT, ActionT], state: StateT) -> Hashable:
        """A position as far as what can still follow goes: two paths to one key are one position. By
        default its saved form, which holds all the rules know."""
        return json.dumps(game.rules.to_dict(state), sort_keys=True)

    def goes_on(self, game: Readable[StateT, ActionT], start: StateT, here: StateT) -> bool:
        """Whether a reading may go on from ``here``: by default while the game runs and the player who
        was to move at ``start`` still is (a reading logs the moves of the player to move only)."""
        if game.rules.outcome(here) is not None:
            return False
        before, now = game.rules.active(start), game.rules.active(here)
        return bool(now) and now[:1] == before[:1]

    def fits(self, game: Readable[StateT, ActionT], start: StateT, after: StateT, expected: Picture,
             picture: Picture) -> bool:
        """Whether the picture shows the table as ``after`` leaves it (``expected``: what the camera should
        see there): by default when the two are the same. A game whose hands may still owe a part of the
        move the camera can tell apart (a piece the rules turn face up, not turned yet), or whose pieces
        look alike only once the move is made (counters drawn at random for a deal the move makes),
        says so here, as does a game whose picture may say less than its state (the way a piece faces,
        unsaid) or leave a piece the rules took still standing (the players lift it off); the search's
        goal test asks it of every position it reaches."""
        return expected == picture

    def seen(self, game: Readable[StateT, ActionT], state: StateT) -> Picture:
        """What the camera should see in a position the search reached, in the compared form: by default
        :func:`form` (the table's ``alike`` of its ``expected``). A game whose ``expected`` is already in
        that form says so here, and a search of thousands of positions does not rename each twice."""
        return form(game, state)

    def picture_of(self, game: Readable[StateT, ActionT], state: StateT, seen: Placement) -> Picture:
        """The picture as the whole reading compares it: by default the table's ``alike``. A game whose
        look-alike pieces are told apart only by what the hands drew for the move (counters from a pile,
        laid for a deal) names them here, once for the whole reading."""
        return game.table.alike(state, seen)

    def before(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture) -> Reconciliation | None:
        """The answer before any search, or None: search. By default a picture just like the table as
        the game has it is :meth:`unchanged`. A game whose hands finish a play in a way the camera sees
        but the rules do not count (the faces a move showed, still to turn) answers here, so the search
        never reads the unfinished table as another play."""
        return self.unchanged(game, state) if picture == form(game, state) else None

    def unchanged(self, game: Readable[StateT, ActionT], state: StateT) -> Reconciliation | None:
        """What a picture just like the table as the game has it means: by default nothing has moved yet
        (a calm step). None: it is read like any other picture, for a game in which a play may leave the
        table looking as it was."""
        return Reconciliation.partial("nothing has moved yet", rule="unchanged")

    def settle(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture,
               readings: Sequence[tuple[Sequence[ActionT], StateT]], gave_up: bool) -> Reconciliation | None:
        """The game's own answer to what the search found (each reading's actions and end state, shortest
        first), asked before the readings are put to the players and before the part-way test: a move in
        parts of the game's own the generic test cannot see (tiles laid ahead of the pawn that drops
        them), or readings the game ranks. By default None: the framework answers."""
        return None

    def compared(self, game: Readable[StateT, ActionT], start: StateT, after: StateT, picture: Picture) -> Picture:
        """The picture as the part-way test holds it against a reached position ``after``: by default as
        it is. A game whose piece may rest on its new place still showing the face it had (the hand
        turns it next) reads it there as ``after`` has it, as :meth:`fits` does for a whole play."""
        return picture

    def in_parts(self, game: Readable[StateT, ActionT], state: StateT, actions: Sequence[ActionT]) -> bool:
        """Whether a play may be seen part-way through (its pieces put down in any order): by default
        every play. A game whose rules order the parts of a turn (the tile laid after the pawn moved)
        says which plays a hand may make in any order, so a part laid too early is refused, not waited for."""
        return True

    def kind(self, piece: str) -> str:
        """What a piece counts as when a part-way picture is compared place by place (the id itself)."""
        return piece

    def path(self, game: Readable[StateT, ActionT], start: StateT, actions: Sequence[ActionT]) -> dict[str, Counter[str]]:
        """Where pieces may rest on their way in a move part-way (cell -> kinds of piece), besides where
        they started and where the move leaves them: by default nowhere."""
        return {}

    def owner(self, game: Readable[StateT, ActionT], state: StateT, piece: str) -> str | None:
        """The player a piece belongs to (as :meth:`Rules.active` names players), or None (anyone's): by
        default the view's ``owners``."""
        owners = game.panel.view(state).get("owners") or {}
        who = owners.get(piece) if isinstance(owners, Mapping) else None
        return str(who) if who else None

    def joined(self, actions: Sequence[ActionT]) -> Sequence[ActionT]:
        """A reading's actions as the log writes them (steps of one pawn as one path); by default as they are."""
        return actions

    def reading(self, game: Readable[StateT, ActionT], state: StateT, actions: Sequence[ActionT]) -> Choice:
        """A reading as the players are asked it: by default each action in their words, one after another."""
        named = game.panel.words(state)
        said = [" ".join(named.get(w, w) for w in str(a).split()) for a in actions]
        text = ", then ".join(said)
        return Choice(tuple(str(a) for a in actions), text[:1].upper() + text[1:])

    def question(self, game: Readable[StateT, ActionT], state: StateT, actions: Sequence[ActionT]) -> str | None:
        """A question the players must answer even for one reading (it hides something the camera cannot
        see), or None: by default none."""
        return None

    def step(self, game: Readable[StateT, ActionT], state: StateT, actions: Sequence[ActionT],
             to_move: Sequence[str]) -> str:
        """What is left to do of a move part-way, in the players' words."""
        named = game.panel.words(state)
        pieces = " and ".join(named.get(p, p) for p in to_move)
        doing = self.reading(game, state, actions).summary
        return f"{doing[:1].lower() + doing[1:]}: move {pieces} there too" if pieces else f"finish it: {doing}"

    def either(self, game: Readable[StateT, ActionT], state: StateT, steps: Sequence[str]) -> str:
        """A picture part-way through several plays that leave the pieces in different places: each
        one's :meth:`step`, as one answer (never only the first: the hand may be making another)."""
        shown = list(steps[:3]) + (["another play of those pieces"] if len(steps) > 3 else [])
        return "; or ".join(shown)

    def under_way(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture,
                  ways: Sequence[Reached[StateT, ActionT]]) -> Reconciliation:
        """A picture part-way through the plays ``ways`` (one per place they leave the pieces, fewest
        actions first) as a step: what is left of each (:meth:`step`, several in :meth:`either`'s
        words), the pieces still to put down, the hold time allowed once for each. A game that counts
        what is left its own way (counters, any of a pile) or says several plays as one answers here."""
        shown = where(picture)
        said: list[str] = []
        pieces: set[str] = set()
        tokens = 1
        for there in ways:
            to_move = tuple(sorted({unfaced(p)[0] for p, c in where(there.picture).items() if shown.get(p) != c}))
            said.append(self.step(game, state, self.joined(there.actions), to_move))
            pieces |= set(to_move)
            tokens = max(tokens, len(to_move))
        said = list(dict.fromkeys(said))  # plays that leave the same words (a piece in a hand) said once
        text = said[0] if len(said) == 1 else self.either(game, state, said)
        return Reconciliation.partial(text, tuple(sorted(pieces)), "step", tokens=tokens)

    def out_of_turn(self, game: Readable[StateT, ActionT], state: StateT, pieces: Sequence[str],
                    owners: Sequence[str]) -> str:
        """A piece of a player whose turn it is not, moved: the words."""
        named = game.panel.words(state)
        whose = game.rules.active(state)
        them = " and ".join(named.get(p, p) for p in pieces)
        players = " and ".join(named.get(o, o) for o in dict.fromkeys(owners))
        return (f"it is {named.get(whose[0], whose[0])}'s turn, not {players}'s: put {them} back"
                if whose else f"the game is over: put {them} back")

    def read_as(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture) -> Iterable[ActionT]:
        """The actions the picture would be if the rules allowed them (a pawn seen on a square: that
        step), for the refusal to ask the rules why not, in the order to ask (a generator is asked only
        until the rules refuse one); by default none."""
        return ()

    def refused(self, game: Readable[StateT, ActionT], state: StateT, action: ActionT, reason: str) -> str:
        """A refused action in the players' words: by default the rules' own."""
        return reason

    def broken(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture) -> Reconciliation | None:
        """A rule the picture breaks that the refusal loop's one action from ``state`` cannot name (a
        change refused only after the rest of the picture is read as play, a rule with a name of its
        own), said in the game's words; asked after :meth:`read_as`. By default None."""
        return None

    def blamed(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture,
               answer: Reconciliation) -> Reconciliation:
        """A refusal (a piece moved out of turn, a move the rules refuse, a rule :meth:`broken`) as the
        game blames it: by default as the framework found it (the pieces that changed, the rule it
        names). A game whose LEDs show every piece out of place, or whose rules name the rule another
        way, says so here; the words stay the refusal's."""
        return answer

    def offenders(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture) -> Sequence[str]:
        """The pieces to blame when no play leads to the picture and no rule was named (the LEDs show
        whose they are): by default none."""
        return ()

    def unread(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture, gave_up: bool) -> str:
        """No play leads to the picture, no rule was named: what differs, in the players' words."""
        named, have = game.panel.words(state), form(game, state)
        extra, short = [], []
        for cell in sorted(set(have) | set(picture)):
            want, seen = Counter(have.get(cell, ())), Counter(picture.get(cell, ()))
            place = named.get(cell, cell)
            extra += [f"{named.get(p, p)} on {place}" for p in (seen - want)]
            short += [f"{named.get(p, p)} on {place}" for p in (want - seen)]
        said = "; ".join(([f"the camera sees {', '.join(extra[:4])} that the game does not have"] if extra else []) +
                         ([f"it does not see {' or '.join(short[:4])}"] if short else [])) or "nothing the rules count"
        whose = game.rules.active(state)
        who = named.get(whose[0], whose[0]) if whose else "anyone"
        if gave_up:
            return (f"no play of {who} found in the positions looked at leaves the table like this ({said}): "
                    "if it was a legal turn, record it on the panel as a correction")
        return f"no play of {who} leaves the table like this ({said})"

    def also_under_way(self, game: Readable[StateT, ActionT], state: StateT, readings: Sequence[WayT],
                       looked: Sequence[WayT]) -> Sequence[WayT]:
        """Of the positions reached that are no reading, those a picture that reads whole may still be
        on its way to (a 7 whose first pawn alone also ends where seven steps take it, the second pawn
        not moved yet): the answer is then a step that carries the readings, read only if the table
        stays so past the hold time. By default none: a picture that reads whole is read."""
        return ()

    def held(self, game: Readable[StateT, ActionT], state: StateT, step: Reconciliation) -> Reconciliation:
        """A step as the session holds it: by default as the part-way test says it, the hold time
        allowed once for each piece the hands still have to put down. A game whose every part of a
        play is one hand's move (a card, then its pawn) allows it once: ``replace(step, tokens=1)``."""
        return step

    def unexplained(self, game: Readable[StateT, ActionT], state: StateT, picture: Picture,
                    gave_up: bool) -> Reconciliation:
        """The answer when no play leads to the picture, none is under way or out of turn and the rules
        named no reason: by default :meth:`unread`'s words, blaming :meth:`offenders`. A game that can say
        which pieces are wrong in its own words (a pawn off the board, a card of another deck) answers here."""
        return Reconciliation.illegal(self.unread(game, state, picture, gave_up),
                                      tuple(self.offenders(game, state, picture)), "search" if gave_up else "move")


class Way(Protocol):
    """A position a reading reached (:class:`~companion.games.reading.search.Reached` is one), as
    :meth:`Hints.also_under_way` sorts them: the actions from the start and what the camera should
    see there."""

    @property
    def actions(self) -> Sequence[Any]: ...
    @property
    def picture(self) -> Picture: ...


WayT = TypeVar("WayT", bound=Way)
