"""How far The FOG's reading of a picture may look, from the one reading budget every game is handed.

The FOG reads a picture with an A* search of its own (:mod:`explain`) rather than the framework's
breadth-first search (:mod:`companion.games.reading`), because one FOG turn is any number of moves
within the MP left, each of single movements of one islander; but it is bounded by the same
:class:`~companion.games.reading.Budget` the config gives every game, never by a number of its own.
Each bound below is a fixed share of ``budget.positions``, chosen so the default budget (4,000
positions) keeps exactly the bounds the FOG searched with before it was handed a budget:

- ``nodes`` = 15 x positions (60,000): A* positions expanded in one tier (of four: the islanders
  that moved, those beside them, those near, every one). 15 is the bound The FOG searched with
  before, kept; it is not a cost ratio: ``benchmarks/fog_reading.py`` measures an A* position
  expanded (every movement of every islander that may move from it) at about the CPU of one
  framework position (a legal action applied and its picture compared), so at one budget The FOG
  may search up to 15 times as long as another game before it gives up (seconds for an islander of
  another colour moved, which no push explains). A smaller budget is the lever: it gives up sooner.
- ``step_nodes`` = positions / 16 (250): A* positions per tier searched before a picture is looked
  at as a step of a move made one token at a time (see :mod:`steps`): a push and a run back, the
  readings such a picture has, need a few dozen.
- ``moves`` = 5 x positions (20,000): complete moves the step test looks through (a turn offers a
  few hundred; a guard).
- ``alternatives`` = positions / 100 (40): positions searched for an equally cheap reading after
  the first (which bonuses a reading hands out, who may still make the endurance run).
- ``reach`` = positions x 5 / 4 (5,000): fields and pending pushes one islander alone is followed
  through when a refusal says it cannot get where it is seen.

``depth`` (actions in one reading) does not bound the FOG: the MP left do. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.reading import Budget

NODES_PER_POSITION = 15
STEP_SHARE = 16
MOVES_PER_POSITION = 5
ALTERNATIVES_SHARE = 100


@dataclass(frozen=True)
class Bounds:
    """The FOG's search bounds for one reading, each a share of the budget (see the module's words)."""

    nodes: int
    step_nodes: int
    moves: int
    alternatives: int
    reach: int

    @classmethod
    def of(cls, budget: Budget | None = None) -> Bounds:
        """The bounds ``budget`` buys (None: the default budget, the bounds the FOG always searched with)."""
        positions = (budget or Budget()).positions
        return cls(nodes=NODES_PER_POSITION * positions, step_nodes=max(1, positions // STEP_SHARE),
                   moves=MOVES_PER_POSITION * positions, alternatives=max(1, positions // ALTERNATIVES_SHARE),
                   reach=positions * 5 // 4)

    def first_look(self) -> Bounds:
        """The same bounds with each tier of the A* cut to ``step_nodes``: the look taken before a picture
        is tested as a step, so a step is seen without proving first that no whole move explains it."""
        return replace(self, nodes=self.step_nodes)


DEFAULT = Bounds.of()
