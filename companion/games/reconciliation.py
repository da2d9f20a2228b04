"""What a camera picture means, as the door says it: a :class:`Choice` (one reading) and a
:class:`Reconciliation` (one, several, a move part-way, or none and why).

Split from :mod:`companion.games.base` (which re-exports both names) because every game's reading
code, the session's picture path and the panel speak these values, while the rest of the door
(rules, seats, lights) does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One way a camera picture can be read: the actions, in order, and what they hand out."""

    actions: tuple[str, ...]
    summary: str
    details: Mapping[str, Any] = field(default_factory=dict)   # JSON-able, the game's own (for a maintainer)
    detail: str = ""                    # what else the reading hands out, in words the panel shows after the
    #                                     summary ("bonus +1 RP"): the page knows no key of the game's own

    def to_dict(self) -> dict[str, Any]:
        return {"actions": list(self.actions), "summary": self.summary, **dict(self.details),
                "detail": self.detail or None}


@dataclass(frozen=True)
class Reconciliation:
    """What a picture means: one reading (apply it), several (ask), a step (a move part-way: wait for
    the rest), or none (illegal, and why).

    A hand makes a move in parts (the card laid, then the pawn; the first token of a swap, then the
    second), and the camera settles on each part. A picture that some continuation of a legal move
    reaches is a *step*: nothing is applied and nothing is wrong yet; ``step`` says what is left to
    do, ``to_move`` the pieces still to move (or whose owner moves next)."""

    choices: tuple[Choice, ...] = ()
    reason: str | None = None          # set when no legal reading exists
    offenders: tuple[str, ...] = ()    # the pieces that break a rule
    rule: str | None = None            # the rule's short name
    question: str | None = None        # set when the players must confirm even a single reading (it hides
    #                                    something the camera cannot see); the session then asks
    step: str | None = None            # set when the picture is part-way through a legal move: what is left
    to_move: tuple[str, ...] = ()      # with a step: the pieces still to move
    tokens: int = 1                    # with a step: how many tokens the hands still have to lay (eleven
    #                                    counters laid out): the hold time is allowed for each of them
    by_hands: bool = False             # choices told apart by the piece each names first: the one the hands lifted first is taken

    @property
    def ok(self) -> bool:
        return bool(self.choices)

    @property
    def ambiguous(self) -> bool:
        """The players are asked: several readings, or one that must be confirmed."""
        return len(self.choices) > 1 or (bool(self.choices) and self.question is not None)

    @property
    def part_way(self) -> bool:
        """A move is under way on the table: not read yet, not wrong either. With ``choices`` as well
        (a reading that must be confirmed, which a move still being made also leaves) the players are
        asked only if the picture stays so past the hold time."""
        return self.step is not None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "ambiguous": self.ambiguous, "choices": [c.to_dict() for c in self.choices],
                "reason": self.reason, "offenders": list(self.offenders), "rule": self.rule,
                "question": self.question, "step": self.step, "to_move": list(self.to_move)}

    @classmethod
    def illegal(cls, reason: str, offenders: Sequence[str] = (), rule: str | None = None) -> Reconciliation:
        return cls((), reason, tuple(offenders), rule)

    @classmethod
    def partial(cls, step: str, to_move: Sequence[str] = (), rule: str | None = None, tokens: int = 1
                ) -> Reconciliation:
        """A picture part-way through a legal move: ``step`` tells the players what is left to do."""
        return cls((), None, (), rule, step=step, to_move=tuple(to_move), tokens=max(1, tokens))
