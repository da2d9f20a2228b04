"""What the session knows besides the game state: is the table in sync, what waits, what the camera saw.

Plain values, recomputed from the camera after a restart (never logged), and carried by every
event as a :class:`Snapshot` so listeners never read back into the session.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games import Choice, Game

Placement = Mapping[str, Sequence[str]]


@dataclass(frozen=True)
class Misplaced:
    """One piece where the game and the camera disagree: where it belongs and where it is seen."""

    piece: str
    belongs: str | None   # the cell the game has it on (None: off the board)
    seen: str | None      # the cell the camera sees it on (None: not seen)

    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.piece, "belongs": self.belongs, "seen": self.seen}


@dataclass
class OutOfSync:
    reason: str
    offenders: tuple[str, ...]
    rule: str | None
    seen: dict[str, tuple[str, ...]]
    pieces: tuple[Misplaced, ...] = ()   # every piece that differs, with where it belongs

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "offenders": list(self.offenders), "rule": self.rule,
                "pieces": [m.to_dict() for m in self.pieces]}


@dataclass
class Status:
    """What the session is doing besides the game state (not persisted: recomputed from the camera)."""

    verifying: bool = False
    setup_differences: list[dict[str, Any]] = field(default_factory=list)
    out_of_sync: OutOfSync | None = None
    decision: list[Choice] = field(default_factory=list)
    decision_seen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    question: str | None = None  # why the players are asked (a reading hides what the camera cannot see)
    to_clear: tuple[tuple[str, str], ...] = ()  # (piece, cell): taken by the rules, still seen on the table
    view_blocked: bool = False  # something rests over the board: pieces under it are not judged
    camera_fault: str | None = None  # set while the camera is failing: the panel is the only input
    storage_fault: str | None = None  # set while the log cannot be written (full disk): moves wait in memory
    storage_reason: str | None = None  # "disk-full", "read-only", "io-error", ...

    def copy(self) -> Status:
        return replace(self, setup_differences=list(self.setup_differences), decision=list(self.decision),
                       decision_seen=dict(self.decision_seen))


@dataclass(frozen=True)
class Snapshot:
    """The session at one instant, taken under its lock: what every event carries to its listeners."""

    game: Game
    game_id: str | None
    seq: int
    state: Any
    status: Status
    pending: int
    damaged: str | None


def _canonical(placement: Placement) -> dict[str, tuple[str, ...]]:
    return {c: tuple(sorted(ps)) for c, ps in placement.items() if ps}


def _where(placement: Placement) -> dict[str, str]:
    return {p: c for c, ps in placement.items() for p in ps}


def misplaced(expected: Placement, seen: Placement) -> tuple[Misplaced, ...]:
    """Every piece the camera sees somewhere else than the game has it (or not at all)."""
    want, have = _where(expected), _where(seen)
    return tuple(Misplaced(p, want.get(p), have.get(p)) for p in sorted(set(want) | set(have))
                 if want.get(p) != have.get(p))


def _on(cell: str | None) -> str:
    return f"on {cell}" if cell else "off the board"


def _differences(expected: Placement, seen: Placement) -> list[dict[str, Any]]:
    return [{"cell": c, "expected": list(expected.get(c, ())), "seen": list(seen.get(c, ()))}
            for c in sorted(set(expected) | set(seen)) if tuple(expected.get(c, ())) != tuple(seen.get(c, ()))]
