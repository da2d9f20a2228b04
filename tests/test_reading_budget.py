"""The reading's budget is the config's: ``game.reading_positions`` reaches every reading of a picture."""

from __future__ import annotations

import io
from typing import Any

import pytest

from companion.app.config import ConfigError, defaults
from companion.games import Budget, get_game
from companion.session.events import InlineBus
from companion.session.session import Session
from companion.store.store import GameStore
from tests.tables import sim_config


def test_the_config_s_reading_positions_reach_the_reading_of_every_picture(tmp_path: Any, monkeypatch: Any) -> None:
    """A club that plays long turns sets ``reading_positions`` higher; the companion started from that config
    reads every settled picture within that budget, and hands no other."""
    from companion.app.run import Companion

    companion = Companion(sim_config(tmp_path / "data", **{"game.name": "tile-race", "game.reading_positions": 150}),
                          out=io.StringIO())
    assert companion.session.reading == Budget(positions=150)

    game = get_game("tile-race")
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=game, reading=Budget(positions=150))
    session.start(game.new_game(2, 0), verify=False)
    handed: list[Budget | None] = []
    reconcile = game.table.reconcile

    def spy(state: Any, seen: Any, budget: Budget | None = None) -> Any:
        handed.append(budget)
        return reconcile(state, seen, budget)

    monkeypatch.setattr(game.table, "reconcile", spy)
    picture = {c: list(ps) for c, ps in session.expected().items()}
    picture["C4"] = ["T1"]  # a tile laid on C4: red's turn's one action
    session.on_stable_change(picture)
    assert handed == [Budget(positions=150)]


def test_a_reading_budget_below_its_floor_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="reading-positions 5: allowed: 100"):
        defaults().with_overrides({"game.reading_positions": 5})
