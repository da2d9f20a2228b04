"""A game at the table, for any game: the log, undo, turns, what the camera says, and the listeners.

The session owns the expected game state and knows the game only through its
:class:`~companion.games.base.Game`. Every stable board change from the camera is reconciled
with it (:mod:`companion.table.picture_path`, which reads top to bottom: a single legal reading is
applied; readings that differ are put to the players; a move made in parts is a calm step; a
change no legal reading explains puts the session out of sync, naming the pieces and the rule,
until the board is put back or a person takes a way out, :mod:`companion.table.wayout`). Every action
is written to the log (:class:`~companion.store.GameStore`) before anything is published, and
the state is always a replay of that log, so a restart resumes exactly where the game was.
Events carry a :class:`Snapshot` taken under the lock, so listeners never read back into the
session.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from companion.errors import DamagedGameError, DecisionPendingError, OutOfSyncError, SessionError, StateFormatError
from companion.session.events import Event, EventBus
from companion.games import Budget, Game, get_game
from companion.table.picture_path import PicturePath
from companion.table.port import must_agree
from companion.session.replay import DamagedLogError, replay_log, replay_states
from companion.store.store import GameStore, StoreUnavailableError
from companion.table.sync import (OutOfSync, Picture, Snapshot, Status, canonical, changed, corrections,
                                  final_picture_check, is_correction, told)
from companion.table.wayout import WayOut

__all__ = ["DamagedLogError", "DecisionPendingError", "OutOfSync", "OutOfSyncError", "Session", "SessionError",
           "Snapshot", "Status", "replay_log", "replay_states"]

MAX_FORCED = 16  # actions the rules may take by themselves after one move (a guard against a loop)
STEP_HOLD = 12.0  # seconds a move may stay part-way with nothing moving before it is out of sync


class Session:
    """One game at the table: the log, undo, turns and life cycle. It owns two parts: a picture's path to
    a confirmed action (:class:`PicturePath`, picture_path.py) and the ways out of a disagreement (accept,
    correct one piece, the table is right: :class:`WayOut`, wayout.py)."""

    def __init__(self, store: GameStore, bus: EventBus | None = None, game: Game | None = None,
                 clock: Callable[[], float] = time.monotonic, step_hold: float = STEP_HOLD,
                 reading: Budget | None = None) -> None:
        self.store = store
        self.clock, self.step_hold = clock, step_hold  # how long a move may stay part-way (tests pass a clock)
        self.reading = reading or Budget()  # how far one reading of a picture may look
        self.bus = bus or EventBus()
        self.game: Game = game or get_game()
        self._lock = threading.RLock()
        self.game_id: str | None = None
        self._states: list[tuple[str | None, Any]] = []  # the undo stack: (None, setup), then (action, state after)
        self._corrected: dict[tuple[int, int], tuple[Any, Any, str]] = {}  # what each correction changed, in words
        self.status = Status()
        self.last_seq = 0  # the newest event written to the log (everything up to it is durable)
        self._markers: dict[str, str] = {}  # where the game had each special marker when it was last seen to move
        self.damaged: str | None = None  # set by resume when the last game's log no longer replays
        self.pending: list[tuple[str, dict[str, Any]]] = []  # events waiting for the disk (in order)
        self._finish_pending = False
        self.version = 0  # changes with every state change (a reading made meanwhile is stale)
        # the parts, handed the session through a narrow interface (companion.table.port) and its one lock;
        # their ways in are the session's, as callers have always called them
        self.path = PicturePath(self, self._lock)
        self.ways = WayOut(self, self.path, self._lock)
        self.on_stable_change, self.move, self.decide = self.path.on_stable_change, self.path.move, self.path.decide
        self.verify_setup, self.unfound, self.step_overdue = (self.path.verify_setup, self.path.unfound,
                                                              self.path.step_overdue)
        self.preview_correction, self.accept_correction = self.ways.preview_correction, self.ways.accept_correction
        self.correct_piece, self.table_as_game = self.ways.correct_piece, self.ways.table_as_game

    @property
    def last_picture(self) -> Picture | None:
        return self.path.last_picture  # the last stable camera picture (the picture path's)

    @property
    def state(self) -> Any:
        return self._states[-1][1] if self._states else None

    @state.setter
    def state(self, state: Any) -> None:
        """Put a position on the table in place of the current one (tests and scripted tables only:
        the log does not know of it)."""
        self._states[-1] = (self._states[-1][0], state)
        self.version += 1

    def _set_state(self, state: Any, action: str) -> None:
        self._states.append((action, state))
        self.version += 1

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(self.game, self.game_id, self.last_seq, self.state, self.status.copy(), len(self.pending),
                            self.damaged, corrections(self.game, self._states, self._corrected))

    # ------------------------------------------------------------------ life cycle
    def start(self, state: Any, title: str = "", verify: bool = True, game: Game | None = None) -> str:
        """Begin a new game from a set-up state; with a camera, the physical setup is verified first."""
        with self._lock:
            game = game or self.game
            self.path.refitted = False
            running = self.game_id if self.state is not None and self.game.rules.outcome(self.state) is None else None
            if self.pending:
                self.flush_pending()
                if self.pending:
                    raise StoreUnavailableError(f"{len(self.pending)} move(s) of this game still wait for the disk "
                                                f"({self.status.storage_fault}); free space first",
                                                self.status.storage_reason or "disk-full")
            # Abandoning the running game and creating the new one is one transaction: either both or neither.
            # untitled, a game keeps its id as its title in the log (a damaged copy says whose start it is);
            # the Games page lists it under its game's name and its date
            game_id = self.store.create_game(game.to_json(state), title=title, game=game.name, replaces=running,
                                             replaced_status="paused")
            fault = self.status.camera_fault
            self.game, self.game_id = game, game_id
            self._states = [(None, state)]
            self.version += 1
            self._markers = {}
            self.status = Status(verifying=verify and fault is None, camera_fault=fault)
            self.last_seq = 0
            self.publish("game-started", {"game": self.game_id, "name": game.name, "verifying": verify})
        return game_id

    def running(self) -> str | None:
        """The game being played now (None: none, or the last one is over)."""
        with self._lock:
            if self.state is None or self.game.rules.outcome(self.state) is not None:
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
            self.path.refitted = False
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
            try:  # read against the game's high-water mark, then replayed: a game short of either is retired
                events = self.store.events(game_id)
                game = get_game(self.store.game_name(game_id))
                states = replay_states(game, self.store.setup(game_id), events)
            except (DamagedGameError, DamagedLogError, StateFormatError, ValueError, KeyError, TypeError) as exc:
                self.damaged = f"game {game_id} cannot be resumed: {self.store.retire(game_id, exc)}"
                return False
            if chosen and self.game_id != game_id:
                self.store.switch_to(game_id, pauses=self.running())
            fault = self.status.camera_fault
            self.game, self.game_id = game, game_id
            self._states = states
            self.version += 1
            self._markers = {}
            self.status = Status(verifying=verify and fault is None, camera_fault=fault)
            self.last_seq = events[-1].seq if events else 0
            self.publish("game-resumed", {"game": game_id, "name": game.name, "verifying": self.status.verifying})
            self.path.check_sync("resuming the game")
        return True

    def check_paused(self) -> None:
        """At start: every paused game replayed, so one that no longer does is said (and its good prefix
        copied) now, not only when someone tries to resume it."""
        for record in [g for g in self.store.games() if g.status == "paused"]:
            try:
                replay_states(get_game(record.game), self.store.setup(record.id), self.store.events(record.id))
            except (DamagedGameError, DamagedLogError, StateFormatError, ValueError, KeyError, TypeError) as exc:
                self.store.retire(record.id, exc)

    def replayed(self) -> Any:
        """The state rebuilt from the log alone (equals ``state`` at all times)."""
        game_id = self.game_in_play()
        return replay_log(self.game, self.store.setup(game_id), self.store.events(game_id))

    # ------------------------------------------------------------------ helpers
    def game_in_play(self) -> str:
        if self.game_id is None or self.state is None:
            raise SessionError("no game is running")
        return self.game_id

    def publish(self, kind: str, data: dict[str, Any], seq: int | None = None) -> None:
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
                return self.store.append(self.game_in_play(), kind, data)
            except StoreUnavailableError as exc:
                self._storage_failed(exc)
        self.pending.append((kind, data))
        return None

    def _storage_failed(self, exc: StoreUnavailableError) -> None:
        first = self.status.storage_fault is None
        self.status.storage_fault, self.status.storage_reason = str(exc), exc.reason
        if first:
            self.publish("storage-fault", {"reason": exc.reason, "message": str(exc)})

    def flush_pending(self) -> int:
        """Write the events that waited for the disk; how many are still waiting."""
        with self._lock:
            while self.pending:
                kind, data = self.pending[0]
                try:
                    self.last_seq = self.store.append(self.game_in_play(), kind, data)
                except StoreUnavailableError as exc:
                    self._storage_failed(exc)
                    return len(self.pending)
                self.pending.pop(0)
            if self._finish_pending:
                try:
                    self.store.finish(self.game_in_play())
                    self._finish_pending = False
                except StoreUnavailableError as exc:
                    self._storage_failed(exc)
                    return 0
            if self.status.storage_fault is not None:
                self.status.storage_fault = self.status.storage_reason = None
                self.publish("storage-back", {"seq": self.last_seq})
        return 0

    def _commit(self, state: Any, action: str) -> int | None:
        """Log first (or keep pending on a full disk), then switch to the new state; the seq or None."""
        seq = self._log("action", {"action": action})
        if seq is not None:
            self.last_seq = seq
        self._set_state(state, action)
        if self.game.rules.outcome(state) is not None:
            self._finish_pending = True
            self.flush_pending()
        return seq

    def expected(self) -> dict[str, tuple[str, ...]]:
        assert self.state is not None
        return canonical(self.game.table.expected(self.state))

    # ------------------------------------------------------------------ actions and turns
    def act(self, action: str, force: bool = False) -> Any:
        """Apply an action given by a person (a pick, end turn, ...), logged and published.

        While the table and the game disagree nothing new starts: the disagreement would be
        carried into the next turn and blamed on it. ``force`` is for the rules' own clock (a turn
        timer ends the turn with what was confirmed, whatever the table shows).
        """
        with self._lock:
            self.game_in_play()
            if self.status.verifying:
                diffs = len(self.status.setup_differences)
                raise SessionError(f"the board does not match the setup yet: {diffs} cells differ" if diffs else
                                   "the camera has not checked the setup yet")
            if not force:
                must_agree(self.status, self.path.last_picture)
            action = self.game.rules.complete_action(self.state, action)  # a button's short form ("roll") in full, logged so
            asked, before = self.status.copy(), self.state
            self.status.decision, self.status.question = [], None  # (a turn timer) a reading of the old turn
            try:
                self.apply(action)
            except Exception:  # refused: nothing changed, and no page may be left asking what the session dropped
                st = self.status
                st.decision, st.question, st.step = asked.decision, asked.question, asked.step
                raise
            self.apply_forced()
            # the table as it stood: what the action (and the rules after it) changed the hands now make, a
            # calm step until the hold time passes, as a move entered on the panel, not a disagreement at once
            self.path.entering(before, step=asked.step)
            try:
                self.path.check_sync(told(self.game, before, self.state, action))  # said as the log says it
            finally:
                self.path.entering(None)
            return self.state

    def end_turn(self, reason: str = "panel") -> Any:
        """End the turn. A step holding a whole move (a move that could also have gone on) is read
        as that move first: a player who ends the turn says nothing more is coming, so nobody waits
        out the hold time for the companion to see it."""
        with self._lock:
            self.game_in_play()
            step = self.status.step
            if step is not None and step.reading is not None and not self.status.view_blocked:
                self.status.step = None
                self.path.settle(step.reading, step.seen)  # several readings: asked, and the turn waits for it
            action = self.game.rules.end_turn_action(self.state, reason)
            if action is None:
                raise SessionError("there is no turn to end now")
        return self.act(str(action))

    def timer_expired(self, timer_key: tuple[Any, ...]) -> None:
        """A turn timer ran out: its expiry action, if that turn is still the one running."""
        with self._lock:
            if self.state is None:
                return
            timer = self.game.rules.turn_timer(self.state)
            if timer is None or timer.key != timer_key:
                return  # the turn ended meanwhile: the timer is stale
            self.act(timer.on_expiry, force=True)  # ends the turn with what was confirmed

    def apply(self, action: str) -> None:
        before = self.state
        new = self.game.rules.apply(before, action)  # refused by the rules (or the log): nothing changes, the step
        seq = self._commit(new, str(action))  # under way stays, as every page still shows it
        self.status.step = None  # whatever was part-way is now read (or put aside by a person)
        self._after(before, new, str(action), seq)

    def apply_forced(self) -> None:
        """Actions the rules take by themselves (a turn with nothing left to spend ends)."""
        for _ in range(MAX_FORCED):
            action = self.game.rules.forced_action(self.state)
            if action is None:
                return
            self.apply(str(action))

    def undo(self) -> Any:
        with self._lock:
            self.game_in_play()
            if len(self._states) < 2:
                raise SessionError("nothing to undo")
            # what the rules did by themselves after a person's action (the companion's roll) goes with it:
            # undone alone, the rules would stand waiting for it with no button to make it again
            count = 1
            while count < len(self._states) - 1 and str(self.game.rules.forced_action(self._states[-count - 1][1])) \
                    == self._states[-count][0]:
                count += 1
            for k in range(count):
                seq = self._log("undo", {"undone": self._states[-1 - k][0]})
                if seq is not None:
                    self.last_seq = seq
            # the table as it stands: the players asked for the undo, so the hands now put it back, a calm
            # step until the hold time passes (as a move entered on the panel), not a disagreement at once
            self.path.entering(self.state, "undone", self.status.step)
            for _ in range(count):
                undone, gone = self._states.pop()
            self.version += 1
            self.status.decision, self.status.question, self.status.step = [], None, None
            new = self.state
            self.publish("undone", {"state": self.game.seating.public_json(self.game.to_json(new)),
                                     "expected": {c: list(p) for c, p in self.expected().items()}}, seq)
            try:
                self.path.check_sync(f"undoing {told(self.game, new, gone, str(undone))}")
            finally:
                self.path.entering(None)
        return new

    def _after(self, before: Any, new: Any, action: str, seq: int | None) -> None:
        # a correction says what it changed in the players' words (the journal, the log): its notation does not
        changes = {"changed": changed(self.game, before, new)} if is_correction(action) else {}
        self.publish("action", {"action": action, **self.game.panel.notes(before, new), **changes}, seq)
        outcome = self.game.rules.outcome(new)
        if outcome is not None and self.game.rules.outcome(before) is None:
            self.publish("game-over", {**self.game.rules.score(new).to_dict(), **final_picture_check(
                self.game, new, self.expected(), self.last_picture)})

    # ------------------------------------------------------------------ the camera
    def camera_lost(self, why: str) -> None:
        """The camera failed: play goes on from the panel (moves and corrections) until it is back."""
        with self._lock:
            if self.status.camera_fault == why:
                return
            self.status.camera_fault = why
            self.status.verifying = False  # nobody can verify without a camera; the panel player vouches
            self.publish("camera-lost", {"reason": why})

    def camera_back(self) -> None:
        """Frames are back: the next stable picture is reconciled as usual."""
        with self._lock:
            if self.status.camera_fault is None:
                return
            self.status.camera_fault = None
            self.publish("camera-back", {})

    def marker_moved(self, marker: str, first_sighting: bool = False) -> bool:
        """The camera saw a special marker (The FOG: the FOG and turn markers) come to rest somewhere new.

        The players move those markers when the game says so; a marker moved at any other time is
        reported (never applied: the game keeps its own count). Returns True when the move was expected.
        """
        with self._lock:
            if self.state is None:
                return True
            title, where = self.game.table.markers(self.state).get(marker, (marker, ""))
            before = self._markers.get(marker)
            self._markers[marker] = where
            if first_sighting or before is None or before != where:
                return True
            self.publish("marker-moved", {"marker": marker, "reason": f"the {title} marker was moved by hand; "
                                           f"the game did not move it ({where}): put it back"})
        return False

    def board_moved(self) -> None:
        """The camera found the board (or itself) moved for good and fitted the board again.

        Nothing is wrong with the game, but players should look: the panel says it until it is
        dismissed, the LEDs flash white for a moment.
        """
        with self._lock:
            if self.state is None:
                return
            self.path.refitted = True
            self.publish("board-moved", {"reason": "The board or the camera was moved: the board is fitted again. "
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
            self.publish("view-blocked" if blocked else "view-clear", {})
