"""The way a piece faces, read from its marker's rotation on the board, and carried into settled pictures.

A layout names the ways a piece with ``Piece.facing`` may face (``Layout.facings``: name -> the
marker's angle on the board when the piece faces so). The detector measures each marker's angle
after the board fit, so a board turned in the camera reads the same. A marker within the layout's
tolerance of one way is read so; one turned nearer half-way between two is not read at all and is
reported "between-directions" with the two ways, exactly like a piece between two cells: the
camera does not guess, the piece is not settled until it is turned on.

The settled picture names such a piece with the way it faces (``red-s1^N``, see
:func:`companion.games.base.faced`), so a turn on the spot is a change of the picture like a
move. Pieces without a facing, and every game that has none, are named as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.games.base import faced
from vision.detect import Observation
from vision.ways import read_facing  # noqa: F401  (read here by the tests and the camera)
from vision.settle import StableChange, Stabiliser


def placement(pieces: Mapping[str, str], facing: Mapping[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    """Piece -> cell as a picture (cell -> sorted entries), a piece with a facing read named with it."""
    out: dict[str, list[str]] = {}
    for piece, cell in pieces.items():
        out.setdefault(cell, []).append(faced(piece, (facing or {}).get(piece)))
    return {c: tuple(sorted(p)) for c, p in sorted(out.items())}


@dataclass
class FacedChange(StableChange):
    """A settled change that carries the ways the pieces face (piece -> way, after the change)."""

    facing: dict[str, str] = field(default_factory=dict)
    facing_before: dict[str, str] = field(default_factory=dict)

    def placement(self) -> dict[str, tuple[str, ...]]:
        return placement(self.after, self.facing)


@dataclass
class FacingStabiliser(Stabiliser):
    """A :class:`Stabiliser` that settles the way each piece faces as well as where it stands.

    A way is settled like a cell: read the same in ``frames_needed`` still frames in a row. A piece
    not read this frame (unseen, or turned between two ways) keeps the way it had, so a turn
    half-made changes nothing. A turn alone on a board that is otherwise still is a change with the
    same cells before and after; a turn made with a move goes out with the move.
    """

    facing: dict[str, str] = field(default_factory=dict)  # the settled ways: piece -> way
    _facing_candidate: dict[str, str] | None = None
    _facing_count: int = 0

    def reset(self, placement: dict[str, str], at: float | None = None,
              facing: Mapping[str, str] | None = None) -> None:
        super().reset(placement, at)
        self.facing = {p: w for p, w in (facing or {}).items() if p in placement}
        self._facing_candidate, self._facing_count = None, 0

    def picture(self) -> dict[str, tuple[str, ...]]:
        """The settled picture, with the ways pieces face."""
        return placement(self.stable, self.facing)

    def feed(self, obs: Observation, motion: float = 0.0, covered: set[str] | frozenset[str] = frozenset(),
             at: float | None = None, hand: bool = False, piles: frozenset[str] = frozenset(),
             height: Callable[[str], float] | None = None) -> StableChange | None:
        change = super().feed(obs, motion, covered, at, hand, piles, height)
        if motion > self.motion_threshold or not obs.board_found:
            self._facing_candidate, self._facing_count = None, 0
            return change
        read = {p: w for p, w in obs.facing.items() if obs.pieces.get(p) == self.stable.get(p)}
        candidate: dict[str, str] = {}
        for p in self.stable:
            way = read.get(p, self.facing.get(p))
            if way is not None:
                candidate[p] = way
        if candidate == self._facing_candidate:
            self._facing_count += 1
        else:
            self._facing_candidate, self._facing_count = candidate, 1
        if change is not None:
            before, self.facing = self.facing, candidate
            return FacedChange(change.before, change.after, change.at, candidate, before)
        settled = (self._facing_count >= self.frames_needed and candidate != self.facing
                   and self._candidate == self.stable and not self.unsure)
        if not self.initialised or not settled:
            return None
        before, self.facing = self.facing, candidate
        return FacedChange(dict(self.stable), dict(self.stable), self._now, candidate, before)
