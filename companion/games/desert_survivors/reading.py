"""Desert survivors' reading of a picture: the framework's (:mod:`companion.games.reading`), told the
desert's faces, counters drawn at random and words by :class:`DesertHints`.

The framework searches the legal actions of the player to move (one action a reading, but for a
road: the player acts again, and the hands may make both acts before the camera settles),
tests a picture part-way through one (:func:`~companion.games.reading.part_way.between`), answers a
disc of another player moved in the movement phase (out of turn), and asks the rules why not of the
action a piece seen would be (a disc placed). The hints tell it:

- faces: every disc and counter shows the marker of the face that is up. A move whose pieces the
  rules turn up is read before the hands have turned them (:meth:`DesertHints.fits`), and is then a
  calm step saying what to turn; on its way a piece may rest on its new space still showing its old
  face (:meth:`DesertHints.counted`, the picture the part-way test is given);
- counters drawn: a deal the move makes (the last disc placed) lays whichever face-down counters the
  hands draw from the pile: read as laid (``counted``, and the ``lay`` joined after the move);
- words: pieces by what their backs show, never a face-down piece's face.

The desert's own answers are hints too: before the search, the table as the game has it (nothing
moved, or the faces a swap showed still to turn: :meth:`DesertHints.before`); of what the search
found, readings whose faces the hands still owe, a new round laid out (every disc face down, the
roads off, counters on the empty spaces) and a face shown that no move reveals
(:meth:`DesertHints.settle`); a step counted by the counters still to lay, several moves a lifted
piece could be part of said as one (:meth:`DesertHints.under_way`); every piece out of place blamed
for a refusal, and counters laid that the rules set aside (:meth:`DesertHints.unexplained`).

Pure: standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence

from companion.games.base import Choice, Reconciliation, faced, unfaced
from companion.games.desert_survivors import laying as drawing
from companion.games.desert_survivors import rules
from companion.games.desert_survivors.actions import Action, Place
from companion.games.desert_survivors.layout import BACK, FRONT
from companion.games.desert_survivors.pieces import colour_of, is_disc, is_x
from companion.games.desert_survivors.state import DesertState
from companion.games.desert_survivors.table import (Picture, canonical, expected, face, faces_up, laying_out, places,
                                                    round_begun, said, spaces_named, spots, summary)
from companion.games.geometry import Placement
from companion.games.reading import Hints, Reached
from companion.games.reading.hints import Readable

Game = Readable[DesertState, Action]
SET_ASIDE, TAKEN_OFF = "set aside", "taken off the desert for good"


class DesertHints(Hints[DesertState, Action]):
    """What the framework's reading is told of one picture of the desert (made for each picture: the
    counters the hands drew are read against it once)."""

    prune = False   # a face turned is a piece gone and come: the spaces an action names prune instead

    def __init__(self, state: DesertState, seen: Mapping[str, Sequence[str]]) -> None:
        self.full, lay, _ = drawing.relabel(state, canonical(seen))  # the counters drawn, as the deal's
        self.first = (str(lay),) if lay is not None else ()
        now = expected(state)
        self.changed = {c for c in set(self.full) | set(now) if self.full.get(c) != now.get(c)}
        self.played = len(state.history)            # the acts before the picture: every position reached shares them
        self.moved = spots(self.full) != spots(now)   # a piece on another space, come or gone: not faces alone
        self.was, self.at = places(now), places(self.full)   # piece -> space, before and as seen
        self.differs = _differs(state, self.full)   # moved, gone, turned up early: one picture, one state

    # ------------------------------------------------------------------ before the search
    def picture_of(self, game: Game, state: DesertState, seen: Placement) -> Picture:
        """The picture with the counters the hands drew named as the deal's."""
        return self.full

    def before(self, game: Game, state: DesertState, picture: Picture) -> Reconciliation | None:
        """The table as the game has it (counters laid: recorded; else nothing was moved), or a swap read
        before its discs were turned face up (a calm step saying which to turn); else None: search."""
        if not self.changed:
            if self.first:
                return Reconciliation((Choice(self.first, drawing.LAID),))
            return Reconciliation.illegal("the table is as the game has it: nothing was moved")
        owed = self.owed(state, state)
        if not self.moved and not self.differs[2] and owed:
            return Reconciliation.partial("turn face up " + "; ".join(said(state, p) for p in owed), owed, "reveal")
        return None

    # ------------------------------------------------------------------ the search
    def candidates(self, game: Game, state: DesertState, picture: Picture) -> list[Action]:
        """The legal actions that change a space the picture differs on (a fight's show names none)."""
        return [a for a in rules.legal_actions(state) if not spaces_named(a) or spaces_named(a) & self.changed]

    def key(self, game: Game, state: DesertState) -> Hashable:
        """A position by all the rules know and the acts that reached it from the picture's position,
        in any order, a swap named the same from either end: two discs of one seat changed places are
        one play, and a road's two acts made together one reading (no hand on the table says which
        began), where a take by one character or another is not (the players say which)."""
        saved = game.rules.to_dict(state)
        acts = [str(a).split() for a in saved.pop("history", ())[self.played:]]
        return json.dumps(saved, sort_keys=True), tuple(sorted(
            " ".join(words[:1] + (sorted(words[1:]) if words[:1] == ["swap"] else words[1:])) for words in acts))

    def goes_on(self, game: Game, start: DesertState, here: DesertState) -> bool:
        """Only after a road, whose finder acts again (every other act ends the player's turn), and only
        once the picture has every piece where the acts so far put it: a road's second act follows its
        first, so a piece still in a hand is part-way through the first."""
        if not (here.road and super().goes_on(game, start, here)):
            return False
        return all(self.at.get(p) != self.was.get(p) for p, c in places(expected(here)).items() if self.was.get(p) != c)

    def _through(self, state: DesertState, actions: Sequence[Action]) -> tuple[DesertState, str]:
        """The state the actions leave and what they do, in public words, one after another."""
        said = []
        for action in actions:
            said.append(summary(state, action))
            state = rules.apply(state, action)
        return state, ", then ".join(said)

    def counted(self, start: DesertState, after: DesertState) -> Picture:
        """The picture as ``after`` counts it: the counters the hands drew for a deal it makes taken as the
        deal's; on the space the move puts it, a piece read without a face, or showing the back of a face
        the rules turn up (moved, or up already: the hands turn it next), has the face ``after`` has; any
        other piece read without a face has the one it had."""
        goes, was = places(expected(after)), self.was   # ``start`` is the picture's position, as always
        seen = drawing.relabel(after, self.full)[0] if after.dealt and not start.dealt else self.full

        def counted(p: str, cell: str) -> str:
            piece, up = unfaced(p)
            turned = was.get(piece) != cell or face(start, piece) == FRONT
            owed = up == BACK and face(after, piece) == FRONT and turned
            return faced(piece, face(after, piece) if goes.get(piece) == cell and (up is None or owed) else
                         up or face(start, piece))
        return {cell: tuple(sorted(counted(p, cell) for p in ps)) for cell, ps in seen.items()}

    def fits(self, game: Game, start: DesertState, after: DesertState, shown: Picture, picture: Picture) -> bool:
        """Every piece where ``after`` has it with the face it has there, or one the hands turn next."""
        return self.counted(start, after) == shown

    def owed(self, start: DesertState, after: DesertState) -> list[str]:
        """The pieces seen face down that the rules have up after the move: the hands still turn them."""
        return sorted(p for p, up in faces_up(self.full).items() if up == BACK and face(after, p) == FRONT)

    def reading(self, game: Game, state: DesertState, actions: Sequence[Action]) -> Choice:
        """The move in public words, the counters the hands drew recorded before it (taken as laid) or
        after it (a deal it makes)."""
        (after, words), then = self._through(state, actions), tuple[str, ...]()
        if after.dealt and not state.dealt:
            laid = drawing.relabel(after, self.full)[1]
            then = (str(laid),) if laid is not None else ()
        return Choice(self.first + tuple(str(a) for a in actions) + then, words)

    def settle(self, game: Game, state: DesertState, picture: Picture,
               readings: Sequence[tuple[Sequence[Action], DesertState]], gave_up: bool) -> Reconciliation | None:
        """The readings found, those the hands have finished first, else those whose faces they still
        owe (a calm step saying what to turn; read as they are once the picture stays so); with none,
        a new round being laid out, or a face shown that no move of this turn reveals."""
        if readings:
            return self._readings(game, state, readings)
        laying = laying_out(state, self.full) if round_begun(state) else None
        if laying is not None:
            return laying
        moved, gone, early = self.differs
        if early and not moved and not gone:  # no step either: a face alone turned is no part of a move
            return Reconciliation.illegal(
                f"{'; '.join(said(state, p) + ' is turned face up' for p in early[:4])}, and no move of "
                f"{state.active}'s reveals it now: turn it face down again", tuple(early), "reveal")
        return None

    def _readings(self, game: Game, state: DesertState,
                  readings: Sequence[tuple[Sequence[Action], DesertState]]) -> Reconciliation:
        clean = [self.reading(game, state, actions) for actions, after in readings if not self.owed(state, after)]
        if clean:
            return Reconciliation(tuple(clean), question="Which was played?" if len(clean) > 1 else None)
        choices = tuple(self.reading(game, state, actions) for actions, _ in readings)
        after = readings[0][1]
        owed = self.owed(state, after)
        flip = "turn face up " + "; ".join(said(after, p) for p in owed)
        return Reconciliation(choices, question="Which was played?" if len(choices) > 1 else None,
                              step=f"{choices[0].summary}: {flip}" if len(choices) == 1 else
                              "turn face up the pieces the move shows", to_move=tuple(owed))

    # ------------------------------------------------------------------ part-way
    def in_parts(self, game: Game, state: DesertState, actions: Sequence[Action]) -> bool:
        """A face alone turned is no step of a move: a piece must have moved."""
        return self.moved

    def compared(self, game: Game, start: DesertState, after: DesertState, picture: Picture) -> Picture:
        return self.counted(start, after)

    def under_way(self, game: Game, state: DesertState, picture: Picture,
                  ways: Sequence[Reached[DesertState, Action]]) -> Reconciliation:
        """One move under way (or a road's act under way, whatever act may follow it): what is left of
        it, the hold time once for each piece or counter to lay; several: a piece lifted that could go
        to several places (the rest of the move will say which)."""
        reached = ways[0]   # fewest actions first
        if any(tuple(w.actions[:len(reached.actions)]) != reached.actions for w in ways[1:]):
            return Reconciliation.partial(f"{state.active} is moving: put the pieces in hand where they go",
                                          tuple(self.differs[1]))
        left = self.left(state, reached.state)
        _, tokens = drawing.to_lay(reached.state, left, lambda p, c: _put(state, p, c))
        return Reconciliation.partial(self.step(game, state, reached.actions, ()), tuple(p for p, _ in left),
                                      tokens=tokens)

    def left(self, start: DesertState, after: DesertState) -> list[tuple[str, str]]:
        """The pieces still to put where the move puts them (piece, space)."""
        goes, now = places(expected(after)), places(self.counted(start, after))
        return sorted((p, c) for p, c in goes.items() if self.was.get(p) != c and now.get(p) != c)

    def step(self, game: Game, state: DesertState, actions: Sequence[Action], to_move: Sequence[str]) -> str:
        after, words = self._through(state, actions)
        todo, _ = drawing.to_lay(after, self.left(state, after), lambda p, c: _put(state, p, c))
        return f"{words}: {todo}"

    # ------------------------------------------------------------------ out of turn, refused
    def owner(self, game: Game, state: DesertState, piece: str) -> str | None:
        """In the movement phase a disc on the desert is its seat's to move (in setup a disc placed out
        of turn is the rules' refusal, which names the rule)."""
        disc = unfaced(piece)[0]
        if state.phase != "move" or not is_disc(disc) or disc not in state.board.values():
            return None
        return state.seats[state.seat_of(disc)]

    def out_of_turn(self, game: Game, state: DesertState, pieces: Sequence[str], owners: Sequence[str]) -> str:
        them = " and ".join(dict.fromkeys(said(state, unfaced(p)[0]) for p in pieces))
        return f"it is {state.active}'s turn, not {' and '.join(dict.fromkeys(owners))}'s: put {them} back"

    def read_as(self, game: Game, state: DesertState, picture: Picture) -> list[Action]:
        """While the discs are placed, a disc seen on a space it does not lie on is that disc placed there."""
        if state.phase != "setup":
            return []
        at = {p: w for w, p in state.board.items()}
        return [Place(p, c) for p, c in sorted(places(picture).items()) if is_disc(p) and at.get(p) != c]

    def refused(self, game: Game, state: DesertState, action: Action, reason: str) -> str:
        """A disc placed out of turn or on an oasis, or one placed moved before every disc is down."""
        assert isinstance(action, Place)
        at = {p: w for w, p in state.board.items()}.get(action.disc)
        if at is not None:
            return (f"the {colour_of(action.disc)} disc on {at} was moved to {action.space}: a disc placed stays "
                    f"where it was put until every disc is placed; put it back on {at}")
        return f"a {colour_of(action.disc)} disc put on {action.space}: {reason}"

    def blamed(self, game: Game, state: DesertState, picture: Picture, answer: Reconciliation) -> Reconciliation:
        """Every piece out of place lit, a move out of turn or else against the movement rules."""
        return Reconciliation.illegal(answer.reason or "", self.offenders(game, state, picture),
                                      "turn" if answer.rule == "turn" else "movement")

    def offenders(self, game: Game, state: DesertState, picture: Picture) -> tuple[str, ...]:
        """The pieces seen on another space, shown face up too early, or not seen."""
        moved, gone, early = self.differs
        return tuple(moved + early + gone)

    def unexplained(self, game: Game, state: DesertState, picture: Picture, gave_up: bool) -> Reconciliation:
        return Reconciliation.illegal(self.unread(game, state, self.full, gave_up),
                                      self.offenders(game, state, picture), "movement")

    def unread(self, game: Game, state: DesertState, picture: Picture, gave_up: bool) -> str:
        """What differs, in public words: counters laid that the rules set aside or took off first, once for
        all their spaces, then each other piece out of place."""
        where, at = places(spots(self.full)), {p: w for w, p in state.board.items()}
        gone_for = {p: SET_ASIDE if any(p in s for s in state.stacks) else TAKEN_OFF for p in where
                    if is_x(p) and p not in at and p not in state.mix}
        moved, gone, early = self.differs
        if not gone_for:
            what = [f"{said(state, p)} is on {where[p]}" for p in moved] + \
                [f"{said(state, p)} is turned face up" for p in early] + [f"{said(state, p)} is not seen" for p in gone]
            return f"no move of {state.active}'s leaves the desert so: {'; '.join(what[:4])}"
        covered = {where[p] for p in gone_for}
        rest = [f"{said(state, p)} is not seen" if p not in where else
                f"{said(state, p)} is turned face up" if where[p] == at.get(p) else f"{said(state, p)} is on {where[p]}"
                for p in moved + early + gone if p not in gone_for and not (p not in where and at.get(p) in covered)
                and p not in state.mix and not (is_disc(p) and p not in at and state.phase == "setup")]
        told = [_counters(k, sorted(where[p] for p, r in gone_for.items() if r == k)) for k in (SET_ASIDE, TAKEN_OFF)
                if k in gone_for.values()]
        return "; ".join((told + rest)[:4])


def _counters(why: str, cells: list[str]) -> str:
    """X-counters laid that are not the pile's, said once for all the spaces they lie on."""
    if len(cells) == 1:
        return f"the X-counter laid on {cells[0]} was {why}: lay one from the pile instead"
    return f"the X-counters laid on {', '.join(cells[:-1])} and {cells[-1]} were {why}: lay ones from the pile instead"


def _put(state: DesertState, piece: str, cell: str) -> str:
    if piece in state.mix:  # one of the pile, whichever the hand draws
        return f"lay a face-down X-counter on {cell}"
    return f"put {said(state, piece)} on {cell}"


def _differs(state: DesertState, full: Picture) -> tuple[list[str], list[str], list[str]]:
    """The pieces seen on another space, not seen, and shown face up where the rules keep them down."""
    was, where = places(spots(expected(state))), places(spots(full))
    moved = sorted(p for p, c in where.items() if was.get(p) != c)
    gone = sorted(p for p in was if p not in where)
    early = [p for p, up in sorted(faces_up(full).items()) if up == FRONT and face(state, p) == BACK and p not in moved]
    return moved, gone, early
