"""The path of one picture from the camera to a confirmed action, read top to bottom.

A stable camera picture enters at :meth:`PicturePath.on_stable_change`; a move entered on the
panel enters at :meth:`PicturePath.move` and joins the path at its reading (5). In order, each
stage a method below in the same order:

1. *remembered*: it is the last stable picture, against which every later change of what the
   game expects is checked; a hand that rested over the board has lifted.
2. *the setup checked*: while a new game's setup is being verified the picture is compared with
   it cell by cell (:meth:`~PicturePath.verify_setup`), and nothing else happens.
3. *stripped* (:meth:`~PicturePath._stripped`, with :func:`companion.table.sync.strip`): pieces the rules
   took off the table are set aside as a chore (``Status.to_clear``), pieces hidden under another
   and pieces the players excused are counted where the game has them, and look-alike pieces are
   named as the game expects them (``Game.alike``).
4. *as the game has it*: in sync; a question, a step or a disagreement the picture settles is
   gone (:meth:`~PicturePath._as_the_game_has_it`).
5. *read*: ``Game.reconcile`` outside the lock (a search may take a while, the panel must not
   wait for it); if the game moved on meanwhile the picture is read again.
6. *part-way*: a move made in parts is a calm step (:meth:`~PicturePath._step`) until the rest
   follows, or until it was left so past the hold time (:meth:`~PicturePath.step_overdue`).
7. *no legal reading*: out of sync (:meth:`~PicturePath._out_of_sync`), naming the pieces and the
   rule; since the board was fitted again, a board read a cell off accuses nobody.
8. *settled* (:meth:`~PicturePath.settle`): several readings are a question to the players
   (:meth:`~PicturePath.decide` answers it); one is applied (:meth:`~PicturePath._apply_choice`):
   logged first, then the actions the rules take by themselves, then the new position is checked
   against the last picture at once (:meth:`~PicturePath.check_sync`), so a difference is never
   blamed on the next move.

:mod:`companion.table.sync` holds the plain values and pure helpers this path uses; the session's log,
undo and turns are in :mod:`companion.session.session`, the ways out of a disagreement in
:mod:`companion.table.wayout`.
"""

from __future__ import annotations

import logging
import re
import threading
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from companion.table import witnessed
from companion.errors import IllegalMoveError, SessionError
from companion.games import Choice, Game, Reconciliation
from companion.games.base import unfaced
from companion.table.port import Session, must_agree
from companion.table.sight import Viewpoint, unread_of, viewpoint_of
from companion.table.sync import (Misplaced, OutOfSync, Picture, Status, Step, canonical, compare, differences,
                                  disagreement, follow_of, follows, kinds, misplaced, strip, to_follow, untracked,
                                  where_piece)

Placement = Mapping[str, Sequence[str]]
log = logging.getLogger(__name__)
CAMERA = "the move read by the camera"

BOARD_MOVED = ("board moved: check the fit - since the board (or the camera) was moved, the camera reads pieces "
               "where the game does not have them. Look on the Camera page: if they are read a cell off, fit the "
               "board again (fog-companion fit-board); if they really were moved, put them back or accept the board")


class PicturePath:
    """The session's path from a picture to a confirmed action: a part the session owns, seeing it only
    through :class:`companion.table.port.Session` and holding the session's own lock (one lock for both)."""

    def __init__(self, session: Session, lock: threading.RLock) -> None:
        self.session, self._lock = session, lock
        self.last_picture: Picture | None = None  # the last stable camera picture
        self.refitted = False  # the board was fitted again and no picture has read as the game since
        self.viewpoint: Viewpoint | None = None  # where the camera took its last picture from, when it knows
        self.unread: Mapping[str, str] = {}  # piece -> why the camera found it and placed it nowhere (vision's reason)
        self._entered: Picture | None = None  # while a move entered on the panel is applied: the table as it stood
        self._entered_by = "entered on the panel"  # what made that change (an undo, too): the calm step says so
        self._entered_over: Picture | None = None  # the table an earlier such change left the hands to make, unmade
        self._entered_from: Any = None  # the game before that change
        self._left_first: tuple[frozenset[str], ...] = ()  # pieces in the order the camera saw them leave their places
        self._left_at = -1  # the game's version that order is of

    # ------------------------------------------------------------------ the way in: a stable picture
    def on_stable_change(self, seen: Placement) -> Reconciliation | None:
        """One stable camera picture, through stages 1 to 8 (the module's docstring).

        The reading itself (a search that can take a while) runs outside the lock, so the panel
        and the buttons are never held up by it; if the game moved on meanwhile it is read again.
        """
        picture = canonical(seen)
        self.viewpoint = viewpoint_of(seen) or self.viewpoint  # a tall piece hides what lies behind it from there
        self.unread = unread_of(seen)  # pieces found but placed nowhere, and why: what to try says so
        while True:
            with self._lock:
                self.session.game_in_play()
                self.last_picture = picture  # 1. remembered
                self.session.status.view_blocked = False
                if self.session.status.verifying:  # 2. the setup checked, and nothing else
                    self.verify_setup(picture)
                    return None
                seen_c = self._stripped(picture)  # 3. chores aside, hidden and excused pieces where the game has them
                if seen_c == self.session.expected():  # 4. as the game has it
                    self._as_the_game_has_it()
                    return None
                self._note_order(seen_c)
                if self._following(seen_c):  # 4. on its way there: hands make a move entered on the panel
                    return None
                state, version = self.session.state, self.session.version
            answer = self.session.game.table.reconcile(state, seen_c, self.session.reading)  # 5. read, outside the lock
            answer = witnessed.named_mover(self.session.game, state, seen_c, answer)  # 7. said by the piece set down
            with self._lock:
                if version != self.session.version:
                    continue  # a move from the panel or a button came first: read the picture again
                return self._judge(answer, seen_c)  # 6, 7 or 8

    # ------------------------------------------------------------------ the other way in: the panel
    def move(self, piece: str, cell: str | None, action: str | None = None) -> Reconciliation:
        """A move entered on the panel: reconciled exactly as if the camera had seen it, or, when the
        players chose one of the ways there the game offers (``action``: the one played), that one."""
        with self._lock:
            self.session.game_in_play()
            layout = self.session.game.table.layout(self.session.state)
            if piece not in layout.pieces:
                raise SessionError(f"no piece {piece!r} on this board")
            if cell is not None and cell not in layout.cells:
                raise SessionError(f"no cell {cell!r} on this board")
            # nothing stacked on a table that differs (as every action)
            must_agree(self.session.status, self.last_picture, whole_step_stands=True)
            self.entering(self.session.state, step=self.session.status.step)
            try:
                return self._entered_move(piece, cell, action)
            finally:
                self.entering(None)

    def entering(self, before: Any, by: str = "entered on the panel", step: Step | None = None) -> None:
        """A change entered on the panel (or undone) from the game ``before`` (None: done with it). The hands
        make it on the table: as it stood, or as they left an earlier such change still to make (``step``): a
        movement tapped a step at a time, a move then the turn's action, are theirs too, calm, never red at once."""
        self._entered = None if before is None else canonical(self.session.game.table.expected(before))
        self._entered_from, self._entered_by = before, by
        self._entered_over = step.seen if step is not None and step.follow is not None else None

    def _as_it_stood(self, seen: Picture) -> bool:
        """The table as it stood before the change entered, or as an earlier one left it: the last picture read
        with the game after the change (``seen``) and with the game before it (a piece hidden under another
        lies where that game had it, not where it is carried to)."""
        was = strip(self.session.game, self._entered_from, self.last_picture or {}, self.session.status.excused,
                    self.session.status.excused_alike, self.viewpoint)[0] if self._entered_from is not None else seen
        # the table as it stood, less what the change took off it (a block landed on, a piece shot): the
        # picture has those set aside as a chore, so they are no sign the hands did anything else
        taken = set(self.session.game.table.taken_off(self.session.state))
        entered = canonical({c: [p for p in ps if unfaced(p)[0] not in taken] for c, ps in (self._entered or {}).items()})
        return any(untracked(p, entered) == entered or p == self._entered_over for p in (seen, was))

    def _entered_move(self, piece: str, cell: str | None, action: str | None) -> Reconciliation:
        with self._lock:
            if action is not None:
                ways = self.session.game.panel.targets(self.session.state, piece).get(cell or "", ())
                chosen = next((w for w in ways if w.actions[0] == action), None)
                if chosen is None:
                    words = self.session.game.panel.words(self.session.state)
                    raise IllegalMoveError(f"the play chosen does not take {words.get(piece, piece)} to "
                                           f"{words.get(cell or '', cell or 'off the board')} now")
                self._apply_choice(chosen, "the move entered on the panel")
                return Reconciliation((chosen,))
            seen = {c: [p for p in ps if unfaced(p)[0] != piece] for c, ps in self.session.expected().items()}
            if cell is not None:
                seen.setdefault(cell, []).append(piece)
            seen_c = canonical(seen)
            answer = self.session.game.table.reconcile(self.session.state, seen_c, self.session.reading)
            if not answer.ok:  # refused outright: a panel move never puts the game out of sync
                words = self.session.game.panel.words(self.session.state)
                name, there = words.get(piece, piece), words.get(cell, cell) if cell else "off the board"
                raise IllegalMoveError(answer.reason or (f"{name} to {there} is only part of a move ({answer.step})"
                                                         if answer.step else f"{name} cannot reach {there} now"))
            return self.settle(answer, seen_c, "the move entered on the panel")

    # ------------------------------------------------------------------ 2. the setup checked
    def verify_setup(self, seen: Placement) -> list[dict[str, Any]]:
        """Compare the physical board with the generated setup, cell by cell."""
        with self._lock:
            self.session.game_in_play()
            diffs = differences(self.session.expected(), strip(self.session.game, self.session.state, canonical(seen),
                                                        view=viewpoint_of(seen) or self.viewpoint)[0])
            self.session.status.setup_differences = diffs
            if not diffs:
                self.session.status.verifying = False
            self.session.publish("setup-verified" if not diffs else "setup-differs", {"differences": diffs})
        return diffs

    def unfound(self) -> tuple[tuple[str, str], ...]:
        """(piece, cell): the pieces the game has on the table that the last settled picture shows nowhere,
        with hidden, covered and excused pieces counted where the game has them (the Camera page marks
        those places: a marker not found there, or a piece in a hand). Empty with no picture to go by."""
        with self._lock:
            st = self.session.status
            if self.session.state is None or self.last_picture is None or st.verifying or st.camera_fault is not None:
                return ()
            seen = strip(self.session.game, self.session.state, self.last_picture, dict(st.excused),
                         list(st.excused_alike), self.viewpoint)[0]
            return tuple((m.piece, str(m.belongs)) for m in witnessed.lost(self.session.game, self.session.state, seen))

    # ------------------------------------------------------------------ 3. stripped
    def _stripped(self, picture: Picture) -> Picture:
        """The picture as the game is compared with it; the pieces the rules took off and the players
        still have to clear away are said (a chore, not a disagreement) when they change."""
        st = self.session.status
        seen, left = strip(self.session.game, self.session.state, picture, st.excused, st.excused_alike, self.viewpoint)
        if left != st.to_clear:
            st.to_clear = left
            self.session.publish("to-clear", {"pieces": [{"piece": p, "cell": c} for p, c in left]})
        return seen

    # ------------------------------------------------------------------ 4. as the game has it
    def _as_the_game_has_it(self) -> None:
        """The table shows the game's position: whatever was asked, part-way or wrong is settled."""
        self.refitted = False
        self._left_first = ()
        asked = bool(self.session.status.decision) or self.session.status.step is not None
        self.session.status.decision, self.session.status.question, self.session.status.step = [], None, None
        if self.session.status.out_of_sync is not None or asked:
            self.session.status.out_of_sync = None
            self.session.publish("in-sync", {"after": "the pieces were put back"})

    def _note_order(self, seen: Picture) -> None:
        """The pieces of the game's table in the order the camera saw them leave their places since the
        game last changed (those it saw leave in one picture together): which of two swapped pieces the
        hands lifted first tells which made the swap (``Reconciliation.by_hands``)."""
        if self._left_at != self.session.version:  # the game changed since (a move from the panel, an undo)
            self._left_first, self._left_at = (), self.session.version
        had, now = where_piece(self.session.expected()), where_piece(seen)
        known = {p for group in self._left_first for p in group}
        gone = frozenset(p for p, c in had.items() if now.get(p) != c and p not in known)
        if gone:
            self._left_first = self._left_first + (gone,)

    def _by_hands(self, choices: Sequence[Choice]) -> Choice | None:
        """The reading whose first action names first the piece the hands lifted first, when the camera
        saw one piece leave its place before any other and exactly one reading begins with it."""
        first = self._left_first[0] if self._left_first else frozenset()
        if len(first) != 1:
            return None
        had = where_piece(self.session.expected())
        picks = [c for c in choices if c.actions and
                 next((w for w in re.split(r"[^\w\-]+", c.actions[0]) if w in had), None) in first]
        return picks[0] if len(picks) == 1 else None

    def _following(self, seen: Picture) -> bool:
        """Hands carry out on the table a move entered on the panel: every piece that still differs
        is one of that move, where the table had it or in a hand. Still calm, and the hold time
        starts again; anything else is read as usual."""
        step = self.session.status.step
        if step is None or step.follow is None:
            return False
        left = compare(self.session.game, self.session.state, self.session.expected(), seen)
        if not all(follows(step.follow, m) for m in left):
            return False
        step.says = to_follow(left, self.session.game.panel.words(self.session.state), step.by)
        step.to_move = tuple(m.piece for m in left)
        step.seen, step.since, step.hold = seen, self.session.clock(), self._hold_for(left)
        self.session.publish("step", step.to_dict())
        return True

    # ------------------------------------------------------------------ 6 to 8: what the reading means
    def _judge(self, answer: Reconciliation, seen: Picture) -> Reconciliation:
        """A reading of a picture that differs from the game: a step, out of sync, or settled."""
        if answer.part_way:  # 6. a move made in parts, part-way: calm until the hold time passes
            return self._step(answer, seen)
        if not answer.ok and self.refitted:  # 7. since the board was fitted again
            # the pieces disagree with the game: a board read a cell off is nobody's fault, so nobody
            # is accused until the players have looked
            return self._out_of_sync(Reconciliation.illegal(BOARD_MOVED, rule="board-moved"), seen, accuse=False)
        if not answer.ok:  # 7. no legal move reaches the picture
            return self._out_of_sync(answer, seen)
        self.refitted = False  # a legal reading: the fit reads the table as the game has it
        return self.settle(answer, seen)  # 8.

    # ------------------------------------------------------------------ 6. part-way
    def _step(self, answer: Reconciliation, seen: Picture) -> Reconciliation:
        """A move part-way on the table: said calmly, with what is left to do; nothing is applied."""
        self.session.status.decision, self.session.status.question, self.session.status.out_of_sync = [], None, None
        hold = self.session.step_hold * max(1, answer.tokens)  # laying out many tokens: the hold for each still to lay
        self.session.status.step = Step(answer.step or "finish the move", answer.to_move, seen, self.session.clock(),
                                        hold, answer if answer.choices else None)
        self.session.publish("step", self.session.status.step.to_dict())
        return answer

    def step_overdue(self) -> bool:
        """A move left part-way past the hold time with nothing moving (no new picture, no hand over the
        board) is no longer a step: the table contradicts the game (True). Called often (the main loop)."""
        with self._lock:
            step = self.session.status.step
            if step is None or self.session.status.view_blocked or step.waiting or \
                    self.session.clock() - step.since < step.hold:
                return False  # (waiting: no hand has begun a change entered on the panel; nobody is late)
            self.session.status.step = None
            if step.reading is not None:  # not the first part of a move after all: the players say what it was
                self.settle(step.reading, step.seen)
                return False
            # a piece the game has on the table that the camera has not found all this time may lie there
            # unread (a marker never found at its spot): said with what to try (see _out_of_sync)
            self._out_of_sync(Reconciliation.illegal(
                f"a move was left part-way for {step.hold:g} s ({step.says}): finish it or put the pieces back",
                step.to_move, "step-left"), step.seen)
            return True

    # ------------------------------------------------------------------ 7. out of sync
    def _out_of_sync(self, answer: Reconciliation, seen: Picture, accuse: bool = True) -> Reconciliation:
        expected = self.session.expected()
        alike = kinds(self.session.game, self.session.state, expected, seen)
        pieces = misplaced(expected, seen, alike)
        offenders = answer.offenders or (tuple(m.piece for m in pieces) if accuse else ())
        if alike and accuse:  # look-alikes by kind and place, as the pieces say, never a chain of ids
            offenders = tuple(dict.fromkeys([p for p in offenders if p not in alike] +
                                            [m.piece for m in pieces if m.kind]))
        self.session.status.decision, self.session.status.question, self.session.status.step = [], None, None
        reason = answer.reason or "not a legal move"
        # a piece the game has on the table that the picture shows nowhere may lie there with its marker
        # unread (a hidden spot, a dirty sticker, glare): said by piece and place with what to try, in every
        # disagreement, so a piece the camera cannot find is never a turn that stays red unexplained
        tip = witnessed.unfound(self.session.game, self.session.state, seen, self.unread) if accuse else ""
        if tip and witnessed.UNFOUND not in reason:
            reason = f"{reason}; {tip}"
        self.session.status.out_of_sync = OutOfSync(reason, offenders, answer.rule, seen, pieces)
        self.session.publish("out-of-sync", self.session.status.out_of_sync.to_dict())
        return answer

    # ------------------------------------------------------------------ 8. settled
    def settle(self, answer: Reconciliation, seen: Picture, what: str = CAMERA
                ) -> Reconciliation:
        """Several readings are put to the players; one is applied. A reading of the camera's is first
        held to what the picture shows (:func:`companion.table.witnessed.judge`): never a move nobody made."""
        if what == CAMERA:
            answer = witnessed.judge(self.session.game, self.session.state, seen, answer)
            if not answer.ok:
                return self._out_of_sync(answer, seen)
        by_hands = self._by_hands(answer.choices) if answer.by_hands and what == CAMERA else None
        if by_hands is not None:  # the hands' order shows which reading they made
            self._apply_choice(by_hands, what)
            return answer
        if answer.ambiguous:
            self.session.status.decision = list(answer.choices)
            self.session.status.decision_seen = seen
            self.session.status.question = answer.question
            self.session.status.decision_id = uuid.uuid4().hex[:12]  # unique across restarts too: pages outlive them
            self.session.publish("decision-needed", {"options": [c.to_dict() for c in answer.choices],
                                                     "question": answer.question,
                                                     "question_id": self.session.status.decision_id})
            return answer
        self._apply_choice(answer.choices[0], what)
        return answer

    def decide(self, index: int | None, question_id: str | None = None) -> None:
        """The players chose one of the offered readings (``None``: none of them happened).

        ``question_id``: the question the answer was given to (a page sends the one it showed). A
        later move may have settled that question and asked another with options of the same
        numbers; the answer is then refused, never applied to a question nobody saw."""
        with self._lock:
            st = self.session.status
            if question_id is not None and (not st.decision or question_id != st.decision_id):
                raise SessionError("that question was already settled")
            if not st.decision:
                raise SessionError("no decision is waiting")
            if index is None:
                seen = st.decision_seen
                st.decision, st.question = [], None
                self._out_of_sync(Reconciliation.illegal(
                    "the players said none of the offered readings happened: put the pieces back"), seen)
                return
            if not 0 <= index < len(st.decision):
                raise SessionError(f"choose 1 to {len(st.decision)}")
            self._apply_choice(st.decision[index], "the reading the players chose")

    def _apply_choice(self, choice: Choice, what: str) -> None:
        """The reading's actions logged and applied, the rules' own after them, then checked at once."""
        # settled before any event carries the status
        self.session.status.decision, self.session.status.question = [], None
        self._left_first = ()
        for action in choice.actions:
            self.session.apply(action)
        self.session.apply_forced()
        self.check_sync(what)

    def _hold_for(self, pieces: Sequence[Misplaced]) -> float:
        """How long a change may take to follow on the table: the hold time for each token still to lay."""
        return self.session.step_hold * max(1, sum(m.seen is None for m in pieces))

    def check_sync(self, after: str) -> None:
        """Compare what the game expects now with the last stable camera picture, and say which it is.

        Runs after every change of what the game expects (an action, undo, a correction, a
        decision, a resume), so a difference is reported at once and never blamed on the next move.
        """
        st = self.session.status
        if self.session.state is None or self.last_picture is None or st.camera_fault is not None or st.verifying:
            if st.out_of_sync is not None:  # a person put it right with no camera to ask: nothing to compare
                st.out_of_sync = None
                self.session.publish("sync-unchecked", {"after": after})
            return
        seen = self._stripped(self.last_picture)
        expected = self.session.expected()
        if seen == expected:
            if st.out_of_sync is not None:
                st.out_of_sync = None
                self.session.publish("in-sync", {"after": after})
            return
        if st.decision:
            return  # the picture waits for the players' reading
        pieces = compare(self.session.game, self.session.state, expected, seen)
        if not pieces:
            # every piece where the game has it, facing as the game has it wherever the camera reads a
            # way: what still differs is nothing the rules count (a facing the camera could not read).
            # Red here would name no piece and no button could clear it, so the table agrees; logged,
            # as a picture that counts as the game's should be written as the game's
            log.warning("the picture differs from the game's only in what the rules do not count (%s): "
                        "read as in sync", differences(expected, seen))
            if st.out_of_sync is not None:
                st.out_of_sync = None
                self.session.publish("in-sync", {"after": after})
            return
        if self._entered is not None and self._as_it_stood(seen):
            # (a piece where the table stood and the game kept no facing for it: as it stood, whichever way it faces)
            # a move entered on the panel, the table as it was: the hands make it now (calm, held)
            # the hold time for each token still to lay (not on the table yet), as for a move the hands make
            # in parts (a round ended on a phone leaves the next round's whole layout to lay)
            # the table as it stood before the change (before one still being made, if it follows on it): while
            # the camera reads exactly that, no hand has begun, and the step waits calmly for the players
            pending = self._entered_over
            before = st.step.before if pending is not None and seen == pending and st.step is not None else seen
            says = to_follow(pieces, self.session.game.panel.words(self.session.state), self._entered_by)
            st.out_of_sync, st.step = None, Step(says, tuple(m.piece for m in pieces), seen, self.session.clock(),
                                                 self._hold_for(pieces), follow=follow_of(pieces), by=self._entered_by,
                                                 before=before)
            self.session.publish("step", st.step.to_dict())
            return
        tip = witnessed.unfound(self.session.game, self.session.state, seen, self.unread)
        said = disagreement(pieces, after, self.session.game.panel.words(self.session.state)) + (f"; {tip}" if tip else "")
        st.out_of_sync = OutOfSync(said, tuple(m.piece for m in pieces), "table", seen, pieces)
        self.session.publish("out-of-sync", st.out_of_sync.to_dict())
