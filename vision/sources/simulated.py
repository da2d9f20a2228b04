"""The simulated table as a frame source: a camera above a table the panel's hands (or tests) arrange."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from vision.sources.base import CameraError, FrameSource


class SimulatedTable(FrameSource):
    """A camera above a simulated table: renders whatever placement the table holds now.

    The placement is changed with :meth:`set_placement` (the panel's drag-and-drop, or tests);
    a hand can be put over the board with :meth:`set_hand`. The camera pose is fixed per seed.
    """

    name = "sim"
    live = True
    repeats_frames = True  # an unchanged table renders the same picture: that is not a frozen camera

    def __init__(self, board: Any, placement: Mapping[str, Sequence[str]] | None = None, seed: int = 0,
                 clean: bool = False) -> None:
        from vision.render import Effects, random_pose

        self.board = board
        self._placement = {c: tuple(p) for c, p in (placement or {}).items()}
        rng = np.random.default_rng(seed)
        self.pose = random_pose(board, rng, max_tilt=20.0, marker_px=(18.0, 22.0))
        self.effects = Effects() if clean else Effects(blur_sigma=0.4, noise_sigma=2.0, light_low=0.85)
        self.seed = seed
        self._frame_no = 0
        self._lock = threading.Lock()
        self._open = False
        self._cached: tuple[Any, np.ndarray] | None = None
        self._face_down: set[str] = set()

    def set_board(self, board: Any, moved_parts: bool = False) -> None:
        """Another board on the table (a new game of another kind): the camera is pointed at it afresh.
        ``moved_parts``: the same table with parts moved (a pad slid): the camera and the tokens stay,
        a token on a moved place (a pad's) drawn where that place lies now."""
        from vision.render import random_pose

        with self._lock:
            self.board, self._cached = board, None
            if not moved_parts:
                self.pose = random_pose(board, np.random.default_rng(self.seed), max_tilt=20.0, marker_px=(18.0, 22.0))
                self._placement, self._face_down = {}, set()

    def set_placement(self, placement: Mapping[str, Sequence[str]], face_up: bool = False) -> None:
        """Put the tokens where ``placement`` says; ``face_up``: every one of them face up (a board set up)."""
        with self._lock:
            self._placement = {c: tuple(p) for c, p in placement.items() if p}
            on_table = {p.partition("^")[0] for ps in self._placement.values() for p in ps}  # red-s1^N: red-s1
            self._face_down = set() if face_up else self._face_down & on_table  # taken off and put back: face up

    def turn_over(self, piece: str) -> None:
        """Turn a token over where it lies (face down its marker cannot be seen); again: face up. A
        token with a marker on each of two faces (Piece.faces) shows its other face's marker."""
        with self._lock:
            look = self.board.pieces.get(piece) if self.board is not None else None
            if look is None or len(faces := list(look.faces)) != 2:
                self._face_down ^= {piece}
                return
            other = {faces[0]: faces[1], faces[1]: faces[0]}
            self._placement = {c: tuple(f"{piece}^{other.get(p.partition('^')[2], faces[1])}" if
                                        p.partition("^")[0] == piece else p for p in ps) for c, ps in self._placement.items()}

    def face_down(self) -> list[str]:
        with self._lock:
            return sorted(self._face_down)

    def placement(self) -> dict[str, tuple[str, ...]]:
        with self._lock:
            return dict(self._placement)

    def bump(self, dx_px: float, dy_px: float) -> None:
        """Knock the table (or the camera's arm): from now on the board lies this many pixels away."""
        from dataclasses import replace

        with self._lock:
            x, y = self.pose.principal
            self.pose = replace(self.pose, principal=(x + dx_px, y + dy_px))
            self._cached = None

    def set_hand(self, where: str | None) -> None:
        """None (no hand), "random", or "fiducial:N"."""
        with self._lock:
            self.effects.hand = where

    def open(self) -> None:
        self._open = True

    def read(self) -> np.ndarray | None:
        from vision.render import render

        if not self._open:
            raise CameraError("the simulated table is not open")
        with self._lock:
            placement, effects, down, pose = dict(self._placement), self.effects, frozenset(self._face_down), self.pose
            self._frame_no += 1
            key = (tuple(sorted(placement.items())), effects.hand, down)
            if self._cached is not None and self._cached[0] == key:
                return self._cached[1]  # nothing moved: the same picture (a renderer needs no new one)
        frame = render(self.board, placement, pose, effects, seed=self.seed, face_down=down).frame
        frame.setflags(write=False)  # shared with every reader until the table changes
        with self._lock:
            self._cached = (key, frame)
        return frame

    def close(self) -> None:
        self._open = False
