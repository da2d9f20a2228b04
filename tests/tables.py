"""Helpers that set up positions at the table for the tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.games.fog.board import Board
from companion.games.fog.options import Options
from companion.games.fog.setup import new_game
from companion.games.fog.solo import new_solo_game
from companion.games.fog.state import GameState, Player

BOARD = Board.standard()


def three_players(**kw: object) -> tuple[Player, ...]:
    return (Player("Ann", ("black",)), Player("Ben", ("pink",)), Player("Cid", ("yellow",)))


def position(placement: Mapping[str, str | tuple[str, ...]], owners: Mapping[str, str] | None = None,
             players: tuple[Player, ...] | int | None = None, options: str = "", **fields: object) -> GameState:
    """A game in the moving phase with exactly the given pieces on the board.

    ``placement`` maps cell -> piece (or a tuple of stacked pieces, bottom first).
    """
    players = three_players() if players is None else players
    base = new_game(BOARD, players=players if isinstance(players, tuple) else players, seed=0,
                    options=Options.parse(options))
    cells = {c: (p if isinstance(p, tuple) else (p,)) for c, p in placement.items()}
    state = replace(base, setup=cells, placement=cells, turn_order=tuple(c for p in base.players for c in p.colours)
                    if isinstance(players, tuple) else base.turn_order)
    state = replace(state.initial(), phase="moving", owners=dict(owners or {}), mp_left=7)
    return replace(state, **fields) if fields else state


def solo_position(placement: Mapping[str, str | tuple[str, ...]], scenario: str = "1", **fields: object) -> GameState:
    base = new_solo_game(scenario)
    cells = {c: (p if isinstance(p, tuple) else (p,)) for c, p in placement.items()}
    state = replace(base, setup=cells, placement=cells)
    return replace(state, **fields) if fields else state
