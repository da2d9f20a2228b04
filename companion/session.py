"""A game at the table, for any game: the log, undo, turns, what the camera sees, and the listeners.

The session owns the expected game state and knows the game only through its
:class:`~companion.games.base.Game`. Every stable board change from the camera is reconciled
with it: a single legal reading is applied; readings that differ are put to the players; a
change no legal reading explains puts the session out of sync, naming the pieces and the rule,
until the board is put back or a person accepts a correction. Every action is written to the
log (:class:`~companion.store.GameStore`) before anything is published, and the state is
always a replay of that log, so a restart resumes exactly where the game was. Events carry a
:class:`Snapshot` taken under the lock, so listeners never read back into the session.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import (DecisionPendingError, IllegalMoveError, OutOfSyncError, SessionError,
                              StateFormatError)
from companion.events import Event, EventBus
from companion.games import Choice, Game, Reconciliation, get_game
from companion.replay import DamagedLogError, replay_log, replay_states
from companion.store import GameStore, StoreUnavailableError
from companion.sync import (OutOfSync, Picture, Snapshot, Status, Step, _canonical, _differences,
                            disagreement, final_picture_check, misplaced, strip)
from companion.wayout import WayOut

__all__ = ["DamagedLogError", "DecisionPendingError", "OutOfSync", "OutOfSyncError", "Session", "SessionError",
           "Snapshot", "Status", "replay_log", "replay_states"]

Placement = Mapping[str, Sequence[str]]
MAX_FORCED = 16  # actions the rules may take by themselves after one move (a guard against a loop)
STEP_HOLD = 12.0  # seconds a move may stay part-way with nothing moving before it is out of sync

BOARD_MOVED = ("board moved: check the fit - since the board (or the camera) was moved, the camera reads pieces "
               "where the game does not have them. Look on the Camera page: if they are read a cell off, fit the "
               "board again (fog-companion fit-board); if they really were moved, put them back or accept the board")


class Session(WayOut):  # the ways out of a disagreement (accept, correct one piece, the table is right): wayout.py
    def __init__(self, store: GameStore, bus: EventBus | None = None, game: Game | None = None,
                 clock: Callable[[], float] = time.monotonic, step_hold: float = STEP_HOLD) -> None:
        self.store = store
        self.clock, self.step_hold = clock, step_hold  # how long a move may stay part-way (tests pass a clock)
        self.bus = bus or EventBus()
        self.game: Game = game or get_game()
        self._lock = threading.RLock()
        self.game_id: str | None = None
        self._states: list[tuple[str | None, Any]] = []  # the undo stack: (None, setup), then (action, state after)
        self.status = Status()
        self.last_seq = 0  # the newest event written to the log (everything up to it is durable)
        self.last_picture: dict[str, tuple[str, ...]] | None = None  # the last stable camera picture
        self._markers: dict[str, str] = {}  # where the game had each special marker when it was last seen to move
        self.damaged: str | None = None  # set by resume when the last game's log no longer replays
        self.pending: list[tuple[str, dict[str, Any]]] = []  # events waiting for the disk (in order)
        self._finish_pending = False
        self._version = 0  # changes with every state change (a reading made meanwhile is stale)
        self._board_moved = False  # the board was re-fitted and no picture has read as the game since

    @property
    def state(self) -> Any:
        return self._states[-1][1] if self._states else None

    @state.setter
    def state(self, state: Any) -> None:
        """Put a position on the table in place of the current one (tests and scripted tables only:
        the log does not know of it)."""
        self._states[-1] = (self._states[-1][0], state)
        self._version += 1

    def _set_state(self, state: Any, action: str) -> None:
        self._states.append((action, state))
        self._version += 1

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(self.game, self.game_id, self.last_seq, self.state, self.status.copy(), len(self.pending),
                            self.damaged)

    # ------------------------------------------------------------------ life cycle
    def start(self, state: Any, title: str = "", verify: bool = True, game: Game | None = None) -> str:
        """Begin a new game from a set-up state; with a camera, the physical setup is verified first."""
        with self._lock:
            game = game or self.game
            self._board_moved = False
            running = self.game_id if self.state is not None and self.game.outcome(self.state) is None else None
            if self.pending:
                self.flush_pending()
                if self.pending:
                    raise StoreUnavailableError(f"{len(self.pending)} move(s) of this game still wait for the disk "
                                                f"({self.status.storage_fault}); free space first",
                                                self.status.storage_reason or "disk-full")
            # Abandoning the running game and creating the new one is one transaction: either both or neither.
            game_id = self.store.create_game(game.to_json(state), title=title, game=game.name, replaces=running,
                                             replaced_status="paused")
            fault = self.status.camera_fault
            self.game, self.game_id = game, game_id
            self._states = [(None, state)]
            self._version += 1
            self._markers = {}
            self.status = Status(verifying=verify and fault is None, camera_fault=fault)
            self.last_seq = 0
            self._publish("game-started", {"game": self.game_id, "name": game.name, "verifying": verify})
        return game_id

    def running(self) -> str | None:
        """The game being played now (None: none, or the last one is over)."""
        with self._lock:
            if self.state is None or self.game.outcome(self.state) is not None:
                return None
            return self.game_id

    def resume(self, game_id: str | None = None, verify: bool = False) -> bool:
        """Continue a game from its log: ``game_id`` (a paused one), else the last one being played.

        False when there is none. A game whose log no longer replays is marked ``damaged`` (it
        stays listed and exportable, its good prefix replayable) and the companion starts without
        it instead of failing at every start; ``damaged`` then says which game and why. Resuming
        a paused game pauses the running one in the same transaction; with ``verify`` the camera
        checks the table against the resumed position before play goes on.
        """
        self.damaged = None
        with self._lock:
            self._board_moved = False
            chosen = game_id is not None
            if game_id is not None:
                status = self.store.record(game_id).status
                if status in ("finished", "damaged"):
                    raise SessionError(f"game {game_id} is {status}: it can be replayed, not resumed")
                if self.pending:
                    raise StoreUnavailableError(f"{len(self.pending)} move(s) of this game still wait for the disk; "
                                                "free space first", self.status.storage_reason or "disk-full")
            game_id = game_id or self.store.unfinished()
            if game_id is None:
                return False
            events = self.store.events(game_id)
            try:
                game = get_game(self.store.game_name(game_id))
                states = replay_states(game, self.store.setup(game_id), events)
            except (DamagedLogError, StateFormatError, ValueError, KeyError, TypeError) as exc:
                self.store.mark_damaged(game_id, str(exc))
                self.damaged = f"game {game_id} cannot be resumed and was marked damaged: {exc}"
                return False
            if chosen and self.game_id != game_id:
                self.store.switch_to(game_id, pauses=self.running())
            fault = self.status.camera_fault
            self.game, self.game_id = game, game_id
            self._states = states
            self._version += 1
            self._markers = {}
            self.status = Status(verifying=verify and fault is None, camera_fault=fault)
            self.last_seq = events[-1].seq if events else 0
            self._publish("game-resumed", {"game": game_id, "name": game.name, "verifying": self.status.verifying})
            self._check_sync("resuming the game")
        return True

    def replayed(self) -> Any:
        """The state rebuilt from the log alone (equals ``state`` at all times)."""
        game_id = self._game()
        return replay_log(self.game, self.store.setup(game_id), self.store.events(game_id))

    # ------------------------------------------------------------------ helpers
    def _game(self) -> str:
        if self.game_id is None or self.state is None:
            raise SessionError("no game is running")
        return self.game_id

    def _publish(self, kind: str, data: dict[str, Any], seq: int | None = None) -> None:
        with self._lock:  # the snapshot and the order of events agree
            self.bus.publish(Event(kind, data, seq, snapshot=self.snapshot()))

    def _log(self, kind: str, data: dict[str, Any]) -> int | None:
        """Write one event; on a full disk keep it pending (in order) and return None.

        The game goes on from memory while the disk is full: the panel and the LEDs say so, and
        the pending events are written, in order, as soon as there is space again.
        """
        if self.pending:
            self.flush_pending()
        if not self.pending:
            try:
                return self.store.append(self._game(), kind, data)
            except StoreUnavailableError as exc:
                self._storage_failed(exc)
        self.pending.append((kind, data))
        return None

    def _storage_failed(self, exc: StoreUnavailableError) -> None:
        first = self.status.storage_fault is None
        self.status.storage_fault, self.status.storage_reason = str(exc), exc.reason
        if first:
            self._publish("storage-fault", {"reason": exc.reason, "message": str(exc)})

    def flush_pending(self) -> int:
        """Write the events that waited for the disk; how many are still waiting."""
        with self._lock:
            while self.pending:
                kind, data = self.pending[0]
                try:
                    self.last_seq = self.store.append(self._game(), kind, data)
                except StoreUnavailableError as exc:
                    self._storage_failed(exc)
                    return len(self.pending)
                self.pending.pop(0)
            if self._finish_pending:
                try:
                    self.store.finish(self._game())
                    self._finish_pending = False
                except StoreUnavailableError as exc:
                    self._storage_failed(exc)
                    return 0
            if self.status.storage_fault is not None:
                self.status.storage_fault = self.status.storage_reason = None
                self._publish("storage-back", {"seq": self.last_seq})
        return 0

    def _commit(self, state: Any, action: str) -> int | None:
        """Log first (or keep pending on a full disk), then switch to the new state; the seq or None."""
        seq = self._log("action", {"action": action})
        if seq is not None:
            self.last_seq = seq
        self._set_state(state, action)
        if self.game.outcome(state) is not None:
            self._finish_pending = True
            self.flush_pending()
        return seq

    def expected(self) -> dict[str, tuple[str, ...]]:
        assert self.state is not None
        return _canonical(self.game.expected(self.state))

    # ------------------------------------------------------------------ setup verification
    def verify_setup(self, seen: Placement) -> list[dict[str, Any]]:
        """Compare the physical board with the generated setup, cell by cell."""
        with self._lock:
            self._game()
            diffs = _differences(self.expected(), strip(self.game, self.state, _canonical(seen))[0])
            self.status.setup_differences = diffs
            if not diffs:
                self.status.verifying = False
            self._publish("setup-verified" if not diffs else "setup-differs", {"differences": diffs})
        return diffs

    # ------------------------------------------------------------------ actions and turns
    def act(self, action: str, force: bool = False) -> Any:
        """Apply an action given by a person (draft pick, end turn, ...), logged and published.

        While the table and the game disagree nothing new starts: the disagreement would be
        carried into the next turn and blamed on it. ``force`` is for the rules' own clock (the
        hourglass ends the turn with what was confirmed, whatever the table shows).
        """
        with self._lock:
            self._game()
            if self.status.verifying:
                diffs = len(self.status.setup_differences)
                raise SessionError(f"the board does not match the setup yet: {diffs} cells differ" if diffs else
                                   "the camera has not checked the setup yet")
            if not force:
                self._must_agree()
            asked = self.status.copy()
            self.status.decision, self.status.question = [], None  # (the hourglass) a reading of the old turn
            try:
                self._apply(action)
            except Exception:  # refused: nothing changed, and no page may be left asking what the session dropped
                st = self.status
                st.decision, st.question, st.step = asked.decision, asked.question, asked.step
                raise
            self._forced()
            self._check_sync(f"'{action}'")
            return self.state

    def _must_agree(self) -> None:
        """Refuse while the camera disagrees or a reading waits (panel-only play excepted: no camera to ask)."""
        st = self.status
        if st.camera_fault is not None or self.last_picture is None:
            return
        if st.out_of_sync is not None:
            raise OutOfSyncError(f"the table and the game disagree ({st.out_of_sync.reason}): put the pieces back, "
                                 "accept the board as it is, or correct a piece first")
        if st.decision:
            raise DecisionPendingError("the last change on the table can be read several ways: say which one "
                                       "happened first")
        if st.step is not None:
            raise OutOfSyncError(f"a move is part-way on the table ({st.step.says}): finish it or put the pieces "
                                 "back first")

    def end_turn(self, reason: str = "panel") -> Any:
        with self._lock:
            self._game()
            action = self.game.end_turn_action(self.state, reason)
            if action is None:
                raise SessionError("there is no turn to end now")
        return self.act(str(action), force=reason == "hourglass")

    def timer_expired(self, timer_key: tuple[Any, ...]) -> None:
        """A turn timer ran out: its expiry action, if that turn is still the one running."""
        with self._lock:
            if self.state is None:
                return
            timer = self.game.turn_timer(self.state)
            if timer is None or timer.key != timer_key:
                return  # the turn ended meanwhile: the timer is stale
            self.act(timer.on_expiry, force=True)  # the hourglass ends the turn with what was confirmed

    def _apply(self, action: str) -> None:
        before = self.state
        new = self.game.apply(before, action)  # refused by the rules (or the log): nothing changes, the step
        seq = self._commit(new, str(action))  # under way stays, as every page still shows it
        self.status.step = None  # whatever was part-way is now read (or put aside by a person)
        self._after(before, new, str(action), seq)

    def _forced(self) -> None:
        """Actions the rules take by themselves (The FOG: the turn ends when the MP are spent)."""
        for _ in range(MAX_FORCED):
            action = self.game.forced_action(self.state)
            if action is None:
                return
            self._apply(str(action))

    def undo(self) -> Any:
        with self._lock:
            self._game()
            if len(self._states) < 2:
                raise SessionError("nothing to undo")
            seq = self._log("undo", {"undone": self._states[-1][0]})
            if seq is not None:
                self.last_seq = seq
            undone = self._states.pop()[0]
            self._version += 1
            self.status.decision, self.status.question, self.status.step = [], None, None
            new = self.state
            self._publish("undone", {"state": self.game.to_json(new),
                                     "expected": {c: list(p) for c, p in self.expected().items()}}, seq)
            self._check_sync(f"undoing '{undone}'")
        return new

    def _after(self, before: Any, new: Any, action: str, seq: int | None) -> None:
        self._publish("action", {"action": action, **self.game.notes(before, new)}, seq)
        outcome = self.game.outcome(new)
        if outcome is not None and self.game.outcome(before) is None:
            self._publish("game-over", {**self.game.score(new).to_dict(), **final_picture_check(
                self.game, new, self.expected(), self.last_picture)})

    # ------------------------------------------------------------------ the table and the game
    def _set_to_clear(self, left: tuple[tuple[str, str], ...]) -> None:
        if left != self.status.to_clear:
            self.status.to_clear = left
            self._publish("to-clear", {"pieces": [{"piece": p, "cell": c} for p, c in left]})

    def _check_sync(self, after: str) -> None:
        """Compare what the game expects now with the last stable camera picture, and say which it is.

        Runs after every change of what the game expects (an action, undo, a correction, a
        decision, a resume), so a difference is reported at once and never blamed on the next move.
        """
        st = self.status
        if self.state is None or self.last_picture is None or st.camera_fault is not None or st.verifying:
            if st.out_of_sync is not None:  # a person put it right with no camera to ask: nothing to compare
                st.out_of_sync = None
                self._publish("sync-unchecked", {"after": after})
            return
        seen, left = strip(self.game, self.state, self.last_picture, st.excused)
        self._set_to_clear(left)
        expected = self.expected()
        if seen == expected:
            if st.out_of_sync is not None:
                st.out_of_sync = None
                self._publish("in-sync", {"after": after})
            return
        if st.decision:
            return  # the picture waits for the players' reading
        pieces = misplaced(expected, seen)
        st.out_of_sync = OutOfSync(disagreement(pieces, after), tuple(m.piece for m in pieces), "table", seen, pieces)
        self._publish("out-of-sync", st.out_of_sync.to_dict())

    # ------------------------------------------------------------------ the camera
    def camera_lost(self, why: str) -> None:
        """The camera failed: play goes on from the panel (moves and corrections) until it is back."""
        with self._lock:
            if self.status.camera_fault == why:
                return
            self.status.camera_fault = why
            self.status.verifying = False  # nobody can verify without a camera; the panel player vouches
            self._publish("camera-lost", {"reason": why})

    def camera_back(self) -> None:
        """Frames are back: the next stable picture is reconciled as usual."""
        with self._lock:
            if self.status.camera_fault is None:
                return
            self.status.camera_fault = None
            self._publish("camera-back", {})

    def marker_moved(self, marker: str, first_sighting: bool = False) -> bool:
        """The camera saw a special marker (The FOG: the FOG and turn markers) come to rest somewhere new.

        The players move those markers when the game says so; a marker moved at any other time is
        reported (never applied: the game keeps its own count). Returns True when the move was expected.
        """
        with self._lock:
            if self.state is None:
                return True
            title, where = self.game.markers(self.state).get(marker, (marker, ""))
            before = self._markers.get(marker)
            self._markers[marker] = where
            if first_sighting or before is None or before != where:
                return True
            self._publish("marker-moved", {"marker": marker, "reason": f"the {title} marker was moved by hand; "
                                           f"the game did not move it ({where}): put it back"})
        return False

    def move(self, piece: str, cell: str | None, action: str | None = None) -> Reconciliation:
        """A move entered on the panel: reconciled exactly as if the camera had seen it, or, when the
        players chose one of the ways there the game offers (``action``: the card played), that one."""
        with self._lock:
            self._game()
            layout = self.game.layout(self.state)
            if piece not in layout.pieces:
                raise SessionError(f"no piece {piece!r} on this board")
            if cell is not None and cell not in layout.cells:
                raise SessionError(f"no cell {cell!r} on this board")
            if action is not None:
                ways = self.game.targets(self.state, piece).get(cell or "", ())
                chosen = next((w for w in ways if w.actions[0] == action), None)
                if chosen is None:
                    raise IllegalMoveError(f"{action!r} does not take {piece} to {cell} now")
                self._apply_choice(chosen, "the move entered on the panel")
                return Reconciliation((chosen,))
            seen = {c: [p for p in ps if p != piece] for c, ps in self.expected().items()}
            if cell is not None:
                seen.setdefault(cell, []).append(piece)
            seen_c = _canonical(seen)
            answer = self.game.reconcile(self.state, seen_c)
            if not answer.ok:  # refused outright: a panel move never puts the game out of sync
                raise IllegalMoveError(answer.reason or (f"{piece} to {cell} is only part of a move ({answer.step})"
                                                         if answer.step else f"{piece} cannot reach {cell} now"))
            return self._settle(answer, seen_c, "the move entered on the panel")

    def on_stable_change(self, seen: Placement) -> Reconciliation | None:
        """Reconcile a stable camera picture with the expected state.

        The reading itself (a search that can take a while) runs outside the lock, so the panel
        and the buttons are never held up by it; if the game moved on meanwhile it is read again.
        """
        picture = _canonical(seen)
        while True:
            with self._lock:
                self._game()
                self.last_picture = picture
                self.status.view_blocked = False
                if self.status.verifying:
                    self.verify_setup(picture)
                    return None
                seen_c, left = strip(self.game, self.state, picture, self.status.excused)
                self._set_to_clear(left)
                if seen_c == self.expected():
                    self._board_moved = False
                    asked = bool(self.status.decision) or self.status.step is not None
                    self.status.decision, self.status.question, self.status.step = [], None, None
                    if self.status.out_of_sync is not None or asked:
                        self.status.out_of_sync = None
                        self._publish("in-sync", {"after": "the pieces were put back"})
                    return None
                state, version = self.state, self._version
            answer = self.game.reconcile(state, seen_c)
            with self._lock:
                if version != self._version:
                    continue  # a move from the panel or a button came first: read the picture again
                if answer.part_way:  # a move made in parts, part-way: calm until the hold time passes
                    return self._step(answer, seen_c)
                if not answer.ok and self._board_moved:
                    # since the board was re-fitted the pieces disagree with the game: a board read a
                    # cell off is nobody's fault, so nobody is accused until the players have looked
                    return self._out_of_sync(Reconciliation.illegal(BOARD_MOVED, rule="board-moved"), seen_c,
                                             accuse=False)
                if not answer.ok:
                    return self._out_of_sync(answer, seen_c)
                self._board_moved = False  # a legal reading: the fit reads the table as the game has it
                return self._settle(answer, seen_c)

    def board_moved(self) -> None:
        """The camera found the board (or itself) moved for good and fitted the board again.

        Nothing is wrong with the game, but players should look: the panel says it until it is
        dismissed, the LEDs flash white for a moment.
        """
        with self._lock:
            if self.state is None:
                return
            self._board_moved = True
            self._publish("board-moved", {"reason": "The board or the camera was moved: the board is fitted again. "
                                                    "Check on the Camera page that the pieces are read on their cells."})

    def view_blocked(self, blocked: bool) -> None:
        """Something rests over the board (a hand, an arm): pieces under it are neither moved nor gone.

        Nothing is judged while it lasts; the LEDs show a calm waiting pattern and the panel says
        the view is blocked. When it lifts, the next stable picture is read as usual.
        """
        with self._lock:
            if self.status.view_blocked == blocked or self.state is None:
                return
            self.status.view_blocked = blocked
            if self.status.step is not None and not blocked:
                self.status.step.since = self.clock()  # a hand was at work: the hold time starts again
            self._publish("view-blocked" if blocked else "view-clear", {})

    def _settle(self, answer: Reconciliation, seen: dict[str, tuple[str, ...]],
                what: str = "the move read by the camera") -> Reconciliation:
        if answer.ambiguous:
            self.status.decision = list(answer.choices)
            self.status.decision_seen = seen
            self.status.question = answer.question
            self.status.decision_id = uuid.uuid4().hex[:12]  # unique across restarts too: pages outlive them
            self._publish("decision-needed", {"options": [c.to_dict() for c in answer.choices],
                                              "question": answer.question, "question_id": self.status.decision_id})
            return answer
        self._apply_choice(answer.choices[0], what)
        return answer

    def _step(self, answer: Reconciliation, seen: Picture) -> Reconciliation:
        """A move part-way on the table: said calmly, with what is left to do; nothing is applied."""
        self.status.decision, self.status.question, self.status.out_of_sync = [], None, None
        self.status.step = Step(answer.step or "finish the move", answer.to_move, seen, self.clock(), self.step_hold,
                                answer if answer.choices else None)
        self._publish("step", self.status.step.to_dict())
        return answer

    def step_overdue(self) -> bool:
        """A move left part-way past the hold time with nothing moving (no new picture, no hand over the
        board) is no longer a step: the table contradicts the game (True). Called often (the main loop)."""
        with self._lock:
            step = self.status.step
            if step is None or self.status.view_blocked or self.clock() - step.since < step.hold:
                return False
            self.status.step = None
            if step.reading is not None:  # not the first part of a move after all: the players say what it was
                self._settle(step.reading, step.seen)
                return False
            self._out_of_sync(Reconciliation.illegal(
                f"a move was left part-way for {step.hold:g} s ({step.says}): finish it or put the pieces back",
                step.to_move, "step-left"), step.seen)
            return True

    def _out_of_sync(self, answer: Reconciliation, seen: dict[str, tuple[str, ...]],
                     accuse: bool = True) -> Reconciliation:
        pieces = misplaced(self.expected(), seen)
        offenders = answer.offenders or (tuple(m.piece for m in pieces) if accuse else ())
        self.status.decision, self.status.question, self.status.step = [], None, None
        self.status.out_of_sync = OutOfSync(answer.reason or "not a legal move", offenders, answer.rule, seen, pieces)
        self._publish("out-of-sync", self.status.out_of_sync.to_dict())
        return answer

    def _apply_choice(self, choice: Choice, what: str) -> None:
        self.status.decision, self.status.question = [], None  # settled before any event carries the status
        for action in choice.actions:
            self._apply(action)
        self._forced()
        self._check_sync(what)

    def decide(self, index: int | None, question_id: str | None = None) -> None:
        """The players chose one of the offered readings (``None``: none of them happened).

        ``question_id``: the question the answer was given to (a page sends the one it showed). A
        later move may have settled that question and asked another with options of the same
        numbers; the answer is then refused, never applied to a question nobody saw."""
        with self._lock:
            if question_id is not None and (not self.status.decision or question_id != self.status.decision_id):
                raise SessionError("that question was already settled")
            if not self.status.decision:
                raise SessionError("no decision is waiting")
            if index is None:
                seen = self.status.decision_seen
                self.status.decision, self.status.question = [], None
                self._out_of_sync(Reconciliation.illegal(
                    "the players said none of the offered readings happened: put the pieces back"), seen)
                return
            if not 0 <= index < len(self.status.decision):
                raise SessionError(f"choose 1 to {len(self.status.decision)}")
            self._apply_choice(self.status.decision[index], "the reading the players chose")


