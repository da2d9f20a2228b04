"""From observations to settled placements: when a picture may be handed on as the board now.

A piece unseen for a moment (a flickering marker, a hand passing) is held where it stood for the
hold time instead of being reported removed. Held pieces are a guess, so a settled picture may
carry one only when it is the only guess it makes: see :meth:`Stabiliser.feed`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from vision.detect import Observation


@dataclass
class StableChange:
    """The stable placement changed: ``before`` and ``after`` map piece -> cell."""

    before: dict[str, str]
    after: dict[str, str]
    at: float

    def placement(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for piece, cell in sorted(self.after.items()):
            out.setdefault(cell, []).append(piece)
        return {c: tuple(p) for c, p in out.items()}

    @property
    def moved(self) -> dict[str, tuple[str | None, str | None]]:
        keys = set(self.before) | set(self.after)
        return {p: (self.before.get(p), self.after.get(p)) for p in sorted(keys)
                if self.before.get(p) != self.after.get(p)}


@dataclass
class Stabiliser:
    """Stable board states from observations.

    Time is frame time: each observation comes with the time its frame was taken (``at``), so
    "three seconds under a hand" means three seconds of the stream, whatever processing took,
    and a replay decides the same on any machine. ``clock`` stands in for a frame without a time.
    """

    frames_needed: int = 3
    hold_seconds: float = 3.0
    motion_threshold: float = 0.004
    clock: Callable[[], float] = time.monotonic
    stable: dict[str, str] = field(default_factory=dict)
    last_seen: dict[str, float] = field(default_factory=dict)
    _candidate: dict[str, str] | None = None
    _count: int = 0
    initialised: bool = False
    covered: set[str] = field(default_factory=set)  # stable pieces unseen under a hand or an arm right now
    hand: bool = False  # something hand-sized is over the board right now
    # Stable pieces in the candidate picture only because they were unseen for less than the hold
    # time, with no hand or cover over them and nothing new laid on their spot: a guess.
    unsure: set[str] = field(default_factory=set)
    # A hand is never quite still; tokens swept off in one go leave a large change that is. What
    # stays covered this long without the least motion is the board as it now is.
    rest_limit_seconds: float = 20.0
    _covered_since: float | None = None
    _still_since: float | None = None
    _still_set: frozenset[str] = frozenset()
    _now: float = 0.0
    _hand_at: float | None = None  # the last frame a hand or an arm was over the board
    # each reading of a piece on a place the stable picture does not have it, since when it has been
    # read there frame after frame (a misreading lasts a few frames; a piece laid stays)
    _read_since: dict[tuple[str, str], float] = field(default_factory=dict)

    @property
    def blocked(self) -> bool:
        """Something has rested over pieces longer than the hold time: the view is blocked (not a move)."""
        return self._covered_since is not None and self._now - self._covered_since >= self.hold_seconds

    @property
    def cover_never_moved(self) -> bool:
        """The same pieces have been covered, without the least motion, for the rest limit: nothing
        rests there, the picture changed for good (tokens taken off in one sweep)."""
        return self._still_since is not None and self._now - self._still_since >= self.rest_limit_seconds

    def forget_cover(self) -> None:
        self._still_since, self._still_set, self._covered_since, self.covered = None, frozenset(), None, set()
        self.hand = False

    def reset(self, placement: dict[str, str], at: float | None = None) -> None:
        """Start from a known placement (piece -> cell), e.g. the engine's expected state."""
        now = self.clock() if at is None else at
        self.stable = dict(placement)
        self.last_seen = {p: now for p in placement}
        self._candidate, self._count, self.initialised = None, 0, True

    def feed(self, obs: Observation, motion: float = 0.0, covered: set[str] | frozenset[str] = frozenset(),
             at: float | None = None, hand: bool = False, piles: frozenset[str] = frozenset(),
             height: Callable[[str], float] | None = None) -> StableChange | None:
        """One observation: the motion score of its frame, the unseen pieces lying under something
        large, the frame's time, whether something hand-sized is over the board, and the cells
        that are piles (a card laid on the played cards: only the top one shows). A change when
        the board settled.

        While a hand is over the board no unseen piece is taken for removed, wherever it stood: a
        player lifting a token and resting a hand elsewhere is mid-move. What the camera sees
        placed is decided as usual, so the lifted token set down is one move, not a removal and an
        addition; but it is handed on only once the hand is gone: a marker a finger half covers can
        decode as another piece's, which must never be acted on.

        A piece unseen for less than the hold time with nothing over it is a guess (``unsure``): a
        marker that flickers, or a piece lifted off. Alone it changes nothing. But a picture that
        changes elsewhere meanwhile is not handed on with the guess in it: a piece lifted while the
        one under it is dragged away would be read as moved, or left, where nobody put it. The
        change waits until the guess is settled - the piece seen again, or gone once the hold time
        is over - and is then handed on as one picture. A piece with something new laid on its own
        spot is not a guess but covered, and is held as before, so a covering move is handed on at once
        - if it can lie under what was laid (``height``: how tall each piece stands; a tile laid where a
        pawn stood never hides the pawn, which was lifted away first). A piece new to the table (from a
        supply) covers it only if a hand came over the board since it was last seen: with no hand, a
        marker read for a few frames as a piece off the table (a face misread at rest) looks just like
        that piece laid on it; it stays a guess until what was read there has stood the hold time, so a
        misreading that comes and goes within it is never handed on. A piece of the table moved onto it
        covers it at once (misread, it would be read at its own place too, and so on neither).
        """
        now = self._now = self.clock() if at is None else at
        self.hand = hand
        self.covered = set(covered) & set(self.stable)
        if not self.covered:
            self._covered_since = None
        elif self._covered_since is None:
            self._covered_since = now
        still = (bool(self.covered) or hand) and motion <= self.motion_threshold and obs.board_found
        if not still:
            self._still_since, self._still_set = None, frozenset()
        elif self._still_since is None or self._still_set != self.covered:
            self._still_since, self._still_set = now, frozenset(self.covered)
        if motion > self.motion_threshold or not obs.board_found:
            self._candidate, self._count = None, 0
            return None
        for piece in obs.pieces:
            self.last_seen[piece] = now
        if hand or self.covered:
            self._hand_at = now
        self._read_since = {(p, c): self._read_since.get((p, c), now) for p, c in obs.pieces.items()
                            if self.stable.get(p) != c}
        candidate = dict(obs.pieces)
        topped = {cell for cell in obs.pieces.values() if cell in piles}
        for cell in topped:  # a card laid askew may leave the one below still readable: the newest is on top
            there = [p for p, c in candidate.items() if c == cell]
            newest = [p for p in there if self.stable.get(p) != cell]
            if newest and len(newest) < len(there):
                for piece in there:
                    if piece not in newest:
                        del candidate[piece]
        laid_on: dict[str, float] = {}  # cell -> the tallest piece newly laid there
        for piece, cell in candidate.items():
            if self.stable.get(piece) != cell:
                laid_on[cell] = max(laid_on.get(cell, 0.0), height(piece) if height is not None else 0.0)
        self.unsure = set()
        for piece, cell in self.stable.items():
            if piece in candidate:
                continue
            if cell in topped:
                continue  # another piece lies on top of it on a pile: gone from view for good
            recent = now - self.last_seen.get(piece, now) < self.hold_seconds
            lies_under = cell in laid_on and (height is None or height(piece) <= laid_on[cell])
            # what was read on its spot stood there the hold time: laid on it, though no hand was seen
            stayed = lies_under and any(now - t >= self.hold_seconds for (_, c), t in self._read_since.items() if c == cell)
            # a piece of the table moved onto it (read at its old place too it would be read on neither)
            moved_on = lies_under and any(p in self.stable for (p, c) in self._read_since if c == cell)
            if piece in self.covered or recent or hand or stayed:
                candidate[piece] = cell  # under a hand, in a hand, or unseen only briefly: not gone yet
                # covered by a piece of the table moved onto it; by one new to the table only if a hand
                # came over the board since it was last seen (or the new one stood the hold time): with no
                # hand, a marker read for a few frames as a piece off the table (its face misread) would
                # be taken for that piece laid on this one
                touched = self._hand_at is not None and self._hand_at > self.last_seen.get(piece, now)
                if piece not in self.covered and not hand and not (moved_on or (lies_under and (touched or stayed))):
                    self.unsure.add(piece)
        if candidate == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = candidate, 1
        if self._count < self.frames_needed or candidate == self.stable:
            if not self.initialised and self._count >= self.frames_needed:
                self.stable, self.initialised = candidate, True
            return None
        if not self.initialised:
            self.stable, self.initialised = candidate, True
            return None
        if self.unsure:
            return None  # something else changed while a piece is only guessed to be there: wait for it
        if hand and any(self.stable.get(p) != c for p, c in obs.pieces.items() if candidate.get(p) == c):
            # a marker read somewhere new while a hand is over the board and pieces are unseen under it:
            # a marker half covered by a finger can decode as another piece's (a face the game has
            # elsewhere), so what is read under a hand is held, not acted on, until the hand is gone
            # and it is still read so (``frames_needed`` calm frames)
            self._count = 0
            return None
        change = StableChange(dict(self.stable), candidate, now)
        self.stable = candidate
        return change
