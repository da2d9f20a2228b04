"""The FOG behind the generic :class:`~companion.games.base.Game` interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import Game
from companion.games.fog import rules, scoring
from companion.games.fog.options import Options
from companion.games.fog.setup import new_game
from companion.games.fog.solo import new_solo_game
from companion.games.fog.state import GameState

replay = rules.replay


class FogGame(Game):
    name = "fog"
    title = "The FOG: Escape from Paradise"

    def new_game(self, players: int = 4, seed: int = 0, options: Options | str | None = None,
                 names: list[str] | None = None, scenario: str | None = None,
                 board: str = "standard", **_: Any) -> GameState:
        opts = options if isinstance(options, Options) else Options.parse(options)
        if scenario is not None or players == 1:
            name = (names or ["Guardian"])[0]
            return new_solo_game(scenario or "1", opts, name=name, seed=seed)
        return new_game(players=players, seed=seed, options=opts, names=names, board_name=board)

    def state_from_json(self, text: str) -> GameState:
        return GameState.from_json(text)

    def legal_actions(self, state: GameState) -> Sequence[Any]:
        if state.phase == "draft":
            return rules.legal_drafts(state)
        if state.phase == "moving":
            from companion.games.fog.movement import legal_movements

            return legal_movements(state)
        return []

    def apply(self, state: GameState, action: Any) -> GameState:
        return rules.apply(state, action)

    def explain(self, before: GameState, after: GameState) -> Any:
        from companion.games.fog.explain import explain

        return explain(before, after)

    def score(self, state: GameState) -> scoring.ScoreReport:
        return scoring.score(state)

    def undo(self, state: GameState) -> GameState:
        return rules.undo(state)
