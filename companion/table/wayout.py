"""The ways out of a disagreement between the table and the game: none of them is a dead end.

While the table and the game disagree nothing new is taken, so every disagreement must have a way
out the panel offers that works, whatever the camera gets wrong:

* put the pieces back (the safe way: the game is right, the hands fix the table);
* *the table is right as the game has it*: the players see that the table matches the game and the
  camera misses a piece (a marker it cannot read, a piece lying flat it does not see) or misreads one. The
  session takes the game as it is: each differing piece is *excused* (:func:`companion.table.sync.excuse`)
  and counts as where the game has it for as long as the camera keeps reading it as it does now
  and the game keeps it there - it is not accused again until something about it moves;
* *accept the board* as the camera sees it: recorded as the game's correction. A piece the camera
  does not see at all is never taken for lost (a correction never loses a piece): it is kept where
  the game has it and excused, and the preview says so instead of refusing;
* *correct one piece*: "this piece really stands on that cell", against the disagreement as it is
  now. Where the game already has it there, the camera missed or misread it: it is excused.

Excuses are not logged: they belong to what the camera sees now, like being out of sync itself,
and after a restart the camera is asked afresh.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from companion.errors import IllegalMoveError, SessionError
from companion.games import Game
from companion.games.base import unfaced
from companion.table.picture_path import PicturePath
from companion.table.port import Session
from companion.table.secrecy import keeps_secrets, named_pieces
from companion.table.sync import (Misplaced, Picture, canonical, changed, compare, costs, said, strip,
                                  where_piece)


def in_words(game: Game, state: Any, text: str, action: str | None = None) -> str:
    """A refusal the game wrote with its own ids in it (a correction it cannot record: "blue tank 1
    cannot stand on box-blocks-8", "correct A2=yellow-m,...: G9 is a rock") as the players read it:
    the action's notation left out, each piece and place the game names as its pages call it (where
    seats keep secrets only a piece the shared view names; any other is "a piece")."""
    if action and text.startswith(action):
        text = text[len(action):].lstrip(": ") or text
    words = game.panel.words(state)
    public = named_pieces(game.panel.view(state)) if keeps_secrets(game) else None
    inner = set(game.table.layout(state).pieces) | {k for k in words if re.search(r"[^A-Za-z0-9 ]", k)}
    if not inner:
        return text
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(k)}(?![\w-])" for k in sorted(inner, key=len, reverse=True)))

    def said(m: re.Match[str]) -> str:
        piece = m.group(0)
        return words.get(piece) or (piece if public is None or piece in public else "a piece")
    return pattern.sub(said, text)


class WayOut:
    """The session's ways out of a disagreement: a part the session owns, seeing it only through
    :class:`companion.table.port.Session`, the picture path for the last picture and the check after a
    change, and holding the session's own lock (one lock for all)."""

    def __init__(self, session: Session, path: PicturePath, lock: threading.RLock) -> None:
        self.session, self.path, self._lock = session, path, lock

    # ------------------------------------------------------------------ what the camera reads now
    def _picture_now(self, excused: bool = True) -> Picture:
        """The disagreement as it is now: the last stable picture, pieces the rules took off and
        hidden ones aside, and (``excused``) the pieces already excused where the game has them;
        without: what each piece is read as, right now."""
        st = self.session.status
        if self.path.last_picture is None:
            return st.out_of_sync.seen if st.out_of_sync is not None else self.session.expected()
        return strip(self.session.game, self.session.state, self.path.last_picture,
                     dict(st.excused) if excused else None, list(st.excused_alike) if excused else None)[0]

    def _excuse(self, pieces: list[Misplaced]) -> None:
        """Each piece counted where the game has it while the camera reads it as now; a look-alike one
        by its kind and places (:func:`companion.table.sync.excuse_alike`)."""
        for m in pieces:
            if m.kind is not None:
                self.session.status.excused_alike.append((m.kind, m.seen, m.belongs))
            else:
                self.session.status.excused[m.piece] = (m.seen, m.belongs)

    def _plan(self, target: Picture) -> tuple[str | None, list[Misplaced]]:
        """The correction that makes the game ``target`` and the pieces kept where the game has them
        (not seen anywhere: a correction would lose them, so they are excused instead)."""
        expected = self.session.expected()
        if target == expected:
            raise SessionError("nothing to correct: the board matches the game")
        try:
            return str(self.session.game.table.correction(self.session.state, target)), []
        except IllegalMoveError as exc:
            unseen = [m for m in compare(self.session.game, self.session.state, expected, target) if m.seen is None]
            if not unseen:
                raise SessionError(in_words(self.session.game, self.session.state, str(exc))) from exc
        completed = {c: list(ps) for c, ps in target.items()}
        for m in unseen:
            completed.setdefault(str(m.belongs), []).append(m.piece)
        completed_c = canonical(self.session.game.table.alike(self.session.state, completed))  # look-alikes named afresh
        if completed_c == expected:
            return None, unseen
        try:
            return str(self.session.game.table.correction(self.session.state, completed_c)), unseen
        except IllegalMoveError as exc:
            raise SessionError(in_words(self.session.game, self.session.state, str(exc))) from exc

    # ------------------------------------------------------------------ accept the board
    def _recorded(self, target: Picture) -> tuple[str | None, list[Misplaced], Any, list[Misplaced], list[str]]:
        """What accepting ``target`` really records, worked out by applying the game's correction: its
        action (None: it would change nothing, so nothing is logged), the pieces kept where the game has
        them, the state after it, the pieces it changes (where the game had them -> where it has them
        after) and, in the players' words, what of ``target`` the game cannot record (a wall stood on a
        square, where the rules have no place for one). Never a promise the record does not keep."""
        action, kept = self._plan(target)
        try:
            after = self.session.game.rules.apply(self.session.state, action) if action else self.session.state
        except IllegalMoveError as exc:  # a table that cannot be (two tokens on one field): refused as it is
            raise SessionError(in_words(self.session.game, self.session.state, str(exc), action)) from exc
        before_c, after_c = self.session.expected(), canonical(self.session.game.table.expected(after))
        if after_c == before_c:
            action, after = None, self.session.state  # an empty correction is never logged
        changes = list(compare(self.session.game, self.session.state, before_c, after_c))
        return action, kept, after, changes, self._cannot(after, after_c, target)

    def _cannot(self, after: Any, expected: Picture, target: Picture) -> list[str]:
        """What the camera sees that the game, corrected, still does not have: each in the game's words
        with what to do with it on the table."""
        words = self.session.game.panel.words(after)
        public = named_pieces(self.session.game.panel.view(after)) if keeps_secrets(self.session.game) else None

        def name(piece: str) -> str:
            return words.get(piece) or (piece if public is None or piece in public else "a piece")
        out = []
        for m in compare(self.session.game, after, expected, target):
            if m.seen is None:
                continue  # not seen: kept where the game has it
            here = f"{name(m.piece)} on {words.get(m.seen, m.seen)}"
            if m.facing and m.seen == m.belongs:
                out.append(f"{here} facing {m.facing[1]}: the game cannot record it so — turn it to face {m.facing[0]}")
            elif m.belongs:
                out.append(f"{here}: the game cannot record it there — put it on {words.get(m.belongs, m.belongs)}")
            else:
                out.append(f"{here}: the game has no place for {name(m.piece)} there — take it off")
        return out

    def preview_correction(self) -> dict[str, Any]:
        """What accepting the board as the camera sees it would do, before anybody taps: the
        correction it logs and what that changes, the pieces it keeps where the game has them (the
        camera misses them), and what it cannot record. Refused, with what cannot be recorded, where
        accepting would change nothing."""
        with self._lock:
            self.session.game_in_play()
            if self.session.status.out_of_sync is None:
                raise SessionError("nothing to correct: the board matches the game")
            action, kept, after, changes, cannot = self._recorded(self._picture_now())
            if action is None and not kept:
                raise SessionError("; ".join(cannot) or "nothing to correct: the board matches the game")
            says = said(self.session.game, self.session.state, after)
            if action and says:
                # as the log will say it
                says[-1] = f"{says[-1]}: {changed(self.session.game, self.session.state, after)}"
            return {"actions": [action] if action else [], "says": says,
                    **costs(self.session.game, self.session.state, after),
                    "pieces": [m.to_dict() for m in changes],
                    "kept": [{"piece": m.piece, "cell": m.belongs} for m in kept], "cannot": cannot}

    def accept_correction(self, seen: Picture | None = None) -> Any:
        """A person says the board as seen (``seen``, or the camera's picture now) is right: the
        difference is recorded as a manual correction; pieces not seen anywhere are kept where the
        game has them and excused."""
        with self._lock:
            self.session.game_in_play()
            if seen is not None:
                target = canonical(seen)
            elif self.session.status.out_of_sync is not None:
                target = self._picture_now()
            else:
                raise SessionError("nothing to correct: the board matches the game")
            action, kept, _, _, cannot = self._recorded(target)
            if action is None and not kept:
                raise SessionError("; ".join(cannot) or "nothing to correct: the board matches the game")
            if action is not None:
                asked, self.session.status.decision, self.session.status.question = self.session.status.copy(), [], None
                try:
                    self.session.apply(action)
                except IllegalMoveError as exc:
                    self.session.status.decision, self.session.status.question = asked.decision, asked.question
                    raise SessionError(str(exc)) from exc
                self.session.apply_forced()  # what the rules do by themselves next (a roll), as after the move itself
            self._excuse(kept)
            self.path.check_sync("the correction")
            return self.session.state

    # ------------------------------------------------------------------ one piece
    def correct_piece(self, piece: str, cell: str | None) -> Any:
        """The players say ``piece`` really stands on ``cell`` (None: off the board). Where the game has
        it elsewhere, that is recorded as a correction. The camera is excused where it does not see the
        piece at all, or where the game already has it on ``cell``; a correction the camera sees
        contradicted (the piece read on another cell) is a disagreement, never said to be in sync."""
        with self._lock:
            self.session.game_in_play()
            read = where_piece(self._picture_now(excused=False)).get(piece)
            expected = self.session.expected()
            affirms = where_piece(expected).get(piece) == cell  # the players side with the game against the camera
            if not affirms:
                layout = self.session.game.table.layout(self.session.state)
                placement = {c: [p for p in ps if unfaced(p)[0] != piece] for c, ps in expected.items()}
                if cell is not None:
                    if layout.cells[cell].facts.get("pile"):  # laid on the pile: it covers what was on top
                        placement[cell] = []
                    placement.setdefault(cell, []).append(piece)
                try:
                    action = str(self.session.game.table.correction(self.session.state, canonical(placement)))
                    self.session.apply(action)
                except IllegalMoveError as exc:
                    raise SessionError(str(exc)) from exc
                self.session.apply_forced()
            elif read == cell:
                words = self.session.game.panel.words(self.session.state)
                raise SessionError(f"nothing to correct: the camera sees {words.get(piece, piece)} "
                                   f"{'on ' + words.get(cell, cell) if cell else 'off the board'}, where the game has it")
            # the camera is overruled where it misses the piece, or where the players say the game is
            # right; a correction to a cell the camera sees the piece elsewhere than stays a disagreement
            if read != cell and (affirms or read is None):
                self.session.status.excused[piece] = (read, cell)
            self.path.check_sync("the correction")
            return self.session.state

    # ------------------------------------------------------------------ the table is right
    def table_as_game(self) -> list[dict[str, Any]]:
        """The players see the table as the game has it: the camera misses (or misreads) pieces.
        Every piece that differs now is excused until it moves; the session is in sync again. Also
        while a change entered on the panel waits for hands the camera never saw begin (``Step.waiting``):
        made where the camera cannot read it, the players say so, and the step is done."""
        with self._lock:
            self.session.game_in_play()
            step = self.session.status.step
            if self.session.status.out_of_sync is None and not (step is not None and step.waiting):
                raise SessionError("the table and the game agree: there is nothing to take as the game has it")
            self.session.status.step = None
            # the ones excused before stay so
            pieces = compare(self.session.game, self.session.state, self.session.expected(), self._picture_now())
            self._excuse(list(pieces))
            said = [m.to_dict() for m in pieces]
            self.session.publish("table-as-game", {"pieces": said})
            self.path.check_sync("the players said the table is as the game has it")
            return said
