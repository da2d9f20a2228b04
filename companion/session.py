"""A game at the table: the rules engine, what the camera sees, the log and the listeners.

The session owns the expected game state. Every stable board change from the camera is
reconciled with it: one cheapest legal explanation is applied and its MP charged; explanations
that differ in outcome are put to the players; a change no legal sequence explains puts the
session out of sync, naming the islander and the rule, until the board is put back or a person
accepts a correction. Every action is written to the log (:class:`~companion.store.GameStore`)
before anything is published, and the state is always a replay of that log, so a restart
resumes exactly where the game was.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import FogCompanionError, IllegalMoveError
from companion.events import Event, EventBus
from companion.games.fog import rules
from companion.games.fog.actions import Correction, Relocation
from companion.games.fog.explain import Explanation, Option, explain
from companion.games.fog.movement import apply_move
from companion.games.fog.scoring import score
from companion.games.fog.state import GameState, StateFormatError
from companion.store import GameStore, LoggedEvent, StoreUnavailableError

Placement = Mapping[str, Sequence[str]]


class SessionError(FogCompanionError):
    """The session cannot do what was asked now (wrong phase, no decision pending, ...)."""


@dataclass
class OutOfSync:
    reason: str
    offenders: tuple[str, ...]
    rule: str | None
    seen: dict[str, tuple[str, ...]]


@dataclass
class Status:
    """What the session is doing besides the game state (not persisted: recomputed from the camera)."""

    verifying: bool = False
    setup_differences: list[dict[str, Any]] = field(default_factory=list)
    out_of_sync: OutOfSync | None = None
    decision: list[Option] = field(default_factory=list)
    decision_seen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    camera_fault: str | None = None  # set while the camera is failing: the panel is the only input
    storage_fault: str | None = None  # set while the log cannot be written (full disk): moves wait in memory
    storage_reason: str | None = None  # "disk-full", "read-only", "io-error", ...


def _canonical(placement: Placement) -> dict[str, tuple[str, ...]]:
    return {c: tuple(sorted(ps)) for c, ps in placement.items() if ps}


class DamagedLogError(SessionError):
    """A logged event no longer replays (edited by hand, or written by another version)."""

    def __init__(self, message: str, good: int, state: GameState) -> None:
        super().__init__(message)
        self.good = good  # how many events replay
        self.state = state  # the state after them


def replay_log(setup: dict[str, Any], events: Sequence[LoggedEvent], upto: int | None = None) -> GameState:
    """The state after the first ``upto`` events (all by default); DamagedLogError names a bad event."""
    state = GameState.from_dict(setup)
    for done, event in enumerate(events if upto is None else events[:upto]):
        try:
            if event.kind == "action":
                state = rules.apply(state, event.data["action"])
            elif event.kind == "undo":
                state = rules.undo(state)
        except (FogCompanionError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise DamagedLogError(f"event {event.seq} ({event.kind}: {str(event.data)[:120]}) does not replay: "
                                  f"{exc}", done, state) from exc
    return state


class Session:
    def __init__(self, store: GameStore, bus: EventBus | None = None) -> None:
        self.store = store
        self.bus = bus or EventBus()
        self._lock = threading.RLock()
        self.game_id: str | None = None
        self.state: GameState | None = None
        self.status = Status()
        self.last_seq = 0  # the newest event written to the log (everything up to it is durable)
        self.last_picture: dict[str, tuple[str, ...]] | None = None  # the last stable camera picture
        self._markers: dict[str, tuple[int, ...]] = {}  # game position when each marker was last seen to move
        self.damaged: str | None = None  # set by resume when the last game's log no longer replays
        self.pending: list[tuple[str, dict[str, Any]]] = []  # events waiting for the disk (in order)
        self._finish_pending = False

    # ------------------------------------------------------------------ life cycle
    def start(self, state: GameState, title: str = "", verify: bool = True) -> str:
        """Begin a new game from a set-up state; with a camera, the physical setup is verified first."""
        with self._lock:
            running = self.game_id if self.state is not None and self.state.phase != "finished" else None
            if self.pending:
                self.flush_pending()
                if self.pending:
                    raise SessionError(f"{len(self.pending)} move(s) of this game still wait for the disk "
                                       f"({self.status.storage_fault}); free space first")
            # Abandoning the running game and creating the new one is one transaction: either both or neither.
            game_id = self.store.create_game(state.to_dict(), title=title, replaces=running)
            fault = self.status.camera_fault
            self.game_id = game_id
            self.state = state
            self.status = Status(verifying=verify and fault is None, camera_fault=fault)
            self.last_seq = 0
        self._publish("game-started", {"game": self.game_id, "verifying": verify})
        return self.game_id

    def resume(self) -> bool:
        """Continue the last unfinished game from the log. False when there is none.

        A game whose log no longer replays is marked ``damaged`` (it stays listed and exportable,
        its good prefix replayable) and the companion starts without it instead of failing at
        every start; ``damaged`` then says which game and why.
        """
        self.damaged = None
        with self._lock:
            game_id = self.store.unfinished()
            if game_id is None:
                return False
            events = self.store.events(game_id)
            try:
                state = replay_log(self.store.setup(game_id), events)
            except (DamagedLogError, StateFormatError, ValueError, KeyError, TypeError) as exc:
                self.store.mark_damaged(game_id, str(exc))
                self.damaged = f"game {game_id} cannot be resumed and was marked damaged: {exc}"
                return False
            self.game_id = game_id
            self.state = state
            self.status = Status(camera_fault=self.status.camera_fault)
            self.last_seq = events[-1].seq if events else 0
        self._publish("game-resumed", {"game": game_id})
        return True

    def _replay(self, game_id: str) -> GameState:
        return replay_log(self.store.setup(game_id), self.store.events(game_id))

    def replayed(self) -> GameState:
        """The state rebuilt from the log alone (equals ``state`` at all times)."""
        return self._replay(self._game())

    # ------------------------------------------------------------------ helpers
    def _game(self) -> str:
        if self.game_id is None or self.state is None:
            raise SessionError("no game is running")
        return self.game_id

    def _publish(self, kind: str, data: dict[str, Any], seq: int | None = None) -> None:
        self.bus.publish(Event(kind, data, seq))

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

    def _commit(self, state: GameState, action: str, kind: str = "action") -> int | None:
        """Log first (or keep pending on a full disk), then switch to the new state; the seq or None."""
        seq = self._log(kind, {"action": action})
        if seq is not None:
            self.last_seq = seq
        self.state = state
        if state.phase == "finished":
            self._finish_pending = True
            self.flush_pending()
        return seq

    def expected(self) -> dict[str, tuple[str, ...]]:
        assert self.state is not None
        return _canonical(self.state.placement)

    # ------------------------------------------------------------------ setup verification
    def verify_setup(self, seen: Placement) -> list[dict[str, Any]]:
        """Compare the physical board with the generated setup, cell by cell."""
        with self._lock:
            self._game()
            expected = self.expected()
            seen_c = _canonical(seen)
            diffs = [{"cell": c, "expected": list(expected.get(c, ())), "seen": list(seen_c.get(c, ()))}
                     for c in sorted(set(expected) | set(seen_c)) if expected.get(c, ()) != seen_c.get(c, ())]
            self.status.setup_differences = diffs
            if not diffs:
                self.status.verifying = False
        self._publish("setup-verified" if not diffs else "setup-differs", {"differences": diffs})
        return diffs

    # ------------------------------------------------------------------ draft and turns
    def act(self, action: str) -> GameState:
        """Apply an action given by a person (draft pick, end turn, ...), logged and published."""
        with self._lock:
            self._game()
            assert self.state is not None
            if self.status.verifying:
                diffs = len(self.status.setup_differences)
                raise SessionError(f"the board does not match the setup yet: {diffs} cells differ" if diffs else
                                   "the camera has not checked the setup yet")
            before = self.state
            new = rules.apply(before, action)
            seq = self._commit(new, action)
        self._after(before, new, action, seq)
        return new

    def end_turn(self, reason: str = "panel") -> GameState:
        return self.act(f"end-turn {reason}")

    def undo(self) -> GameState:
        with self._lock:
            self._game()
            assert self.state is not None
            if not self.state.history:
                raise SessionError("nothing to undo")
            new = rules.undo(self.state)
            seq = self._log("undo", {"undone": self.state.history[-1]})
            if seq is not None:
                self.last_seq = seq
            self.state = new
            self.status.out_of_sync = None
            self.status.decision = []
        self._publish("undone", {"state": new.to_dict(), "expected": {c: list(p) for c, p in self.expected().items()}},
                      seq)
        return new

    def _after(self, before: GameState, new: GameState, action: str, seq: int | None) -> None:
        data: dict[str, Any] = {"action": action, "mp_left": new.mp_left, "active": new.active_colour}
        swallowed = sorted(set(new.lost) - set(before.lost))
        if swallowed:
            data["flip"] = swallowed  # turn these tokens over: the FOG took them
        self._publish("action", data, seq)
        if new.phase == "finished" and before.phase != "finished":
            self._publish("game-over", {**score(new).to_dict(), **self._final_picture_check(new)})

    def _final_picture_check(self, final: GameState) -> dict[str, Any]:
        """Is the scored position the one the camera last saw (boats, piers, beach), swallowed tokens aside?"""
        if self.last_picture is None:
            return {"picture": "none"}
        lost = set(final.lost)
        seen = {c: tuple(p for p in ps if p not in lost) for c, ps in self.last_picture.items()}
        seen = {c: ps for c, ps in seen.items() if ps}
        expected = {c: ps for c, ps in self.expected().items() if ps}
        diffs = [{"cell": c, "expected": list(expected.get(c, ())), "seen": list(seen.get(c, ()))}
                 for c in sorted(set(seen) | set(expected)) if seen.get(c, ()) != expected.get(c, ())]
        return {"picture": "matches" if not diffs else "differs", "picture_differences": diffs}

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
        """The camera saw the FOG or turn marker come to rest somewhere new.

        The players move the turn marker at every turn end and the FOG marker when the FOG
        advances; a marker moved at any other time is reported (never applied: the engine keeps
        its own count). Returns True when the move was expected.
        """
        with self._lock:
            if self.state is None:
                return True
            now = (self.state.fog,) if marker == "fog" else (self.state.round, self.state.turn_index)
            before = self._markers.get(marker)
            self._markers[marker] = now
            expected = first_sighting or before is None or before != now
        if not expected:
            what = "FOG" if marker == "fog" else "turn"
            where = (f"the FOG is at {self.state.fog}" if marker == "fog" else
                     f"it is {self.state.active_colour}'s turn, round {self.state.round}")
            self._publish("marker-moved", {"marker": marker, "reason": f"the {what} marker was moved by hand; "
                                           f"the game did not move it ({where}): put it back"})
        return expected

    def move(self, piece: str, cell: str | None) -> Explanation | None:
        """A move entered on the panel: reconciled exactly as if the camera had seen it."""
        with self._lock:
            self._game()
            assert self.state is not None
            if piece not in self.state.board_data.islanders and piece not in self.state.board_data.obstacles:
                raise SessionError(f"no piece {piece!r} on this board")
            if cell is not None and cell not in self.state.board_data.cells:
                raise SessionError(f"no cell {cell!r} on this board")
            if self.state.phase != "moving":
                raise SessionError(f"moves are made in the moving phase, not in the {self.state.phase} phase")
            seen = {c: [p for p in ps if p != piece] for c, ps in self.expected().items()}
            if cell is not None:
                seen.setdefault(cell, []).append(piece)
            answer = explain(self.state, _canonical(seen))
            if not answer.ok:  # refused outright: a panel move never puts the game out of sync
                raise IllegalMoveError(answer.reason or f"{piece} cannot reach {cell} now")
            return self._settle(answer, _canonical(seen))

    def on_stable_change(self, seen: Placement) -> Explanation | None:
        """Reconcile a stable camera picture with the expected state."""
        with self._lock:
            self._game()
            assert self.state is not None
            seen_c = _canonical(seen)
            self.last_picture = seen_c
            if self.status.verifying:
                self.verify_setup(seen_c)
                return None
            if seen_c == self.expected():
                if self.status.out_of_sync is not None:
                    self.status.out_of_sync = None
                    self._publish("in-sync", {})
                return None
            if self.state.phase != "moving":
                return self._out_of_sync(Explanation(reason=f"pieces moved in the {self.state.phase} phase",
                                                     rule="phase"), seen_c)
            answer = explain(self.state, seen_c)
            if not answer.ok:
                return self._out_of_sync(answer, seen_c)
            return self._settle(answer, seen_c)

    def _settle(self, answer: Explanation, seen: dict[str, tuple[str, ...]]) -> Explanation:
        if answer.ambiguous:
            self.status.decision = list(answer.options)
            self.status.decision_seen = seen
            self._publish("decision-needed", {"options": [o.to_dict() for o in answer.options]})
            return answer
        self._apply_option(answer.options[0])
        return answer

    def _out_of_sync(self, answer: Explanation, seen: dict[str, tuple[str, ...]]) -> Explanation:
        self.status.out_of_sync = OutOfSync(answer.reason or "not a legal move", answer.offenders, answer.rule, seen)
        self._publish("out-of-sync", {"reason": answer.reason, "offenders": list(answer.offenders),
                                      "rule": answer.rule})
        return answer

    def _apply_option(self, option: Option) -> None:
        assert self.state is not None
        for action in option.actions:
            before = self.state
            new = apply_move(before, action)
            seq = self._commit(new, str(action))
            self._after(before, new, str(action), seq)
        self.status.out_of_sync = None
        self.status.decision = []
        state = self.state
        if state.phase == "moving" and state.mp_left == 0 and not self._endurance_possible(state):
            self.end_turn("mp")

    @staticmethod
    def _endurance_possible(state: GameState) -> bool:
        board = state.board_data
        return not state.endurance_used and any(board.islanders[i].characteristic == "endurance" for i in state.moved)

    def decide(self, index: int) -> None:
        """The players chose one of the offered explanations."""
        with self._lock:
            if not self.status.decision:
                raise SessionError("no decision is waiting")
            if not 0 <= index < len(self.status.decision):
                raise SessionError(f"choose 1 to {len(self.status.decision)}")
            option = self.status.decision[index]
            self._apply_option(option)

    def accept_correction(self, seen: Placement | None = None) -> GameState:
        """A person says the board as seen is right: record the difference as a manual correction."""
        with self._lock:
            self._game()
            assert self.state is not None
            target = _canonical(seen) if seen is not None else (
                self.status.out_of_sync.seen if self.status.out_of_sync else None)
            if target is None:
                raise SessionError("nothing to correct: the board matches the game")
            where_now = self.state.where
            where_seen = {p: c for c, ps in target.items() for p in ps}
            moves = tuple(Relocation(p, where_now.get(p, "-"), where_seen.get(p, "-"))
                          for p in sorted(set(where_now) | set(where_seen))
                          if where_now.get(p) != where_seen.get(p))
            if not moves:
                raise SessionError("nothing to correct: the board matches the game")
            action = str(Correction(moves))
            before = self.state
            try:
                new = rules.apply(before, action)
            except IllegalMoveError as exc:
                raise SessionError(str(exc)) from exc
            seq = self._commit(new, action)
            self.status.out_of_sync = None
        self._after(before, new, action, seq)
        return new
