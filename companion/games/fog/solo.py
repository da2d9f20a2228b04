"""Solo play of The FOG (rulebook section 7): a game set up from a scenario file.

The scenarios themselves (files, parsing, special scorings) are in :mod:`companion.games.fog.scenario`;
their names are re-exported here for the callers that know solo play by this module.
"""

from __future__ import annotations

from companion.errors import ScenarioError
from companion.games.fog.board import Board
from companion.games.fog.options import Options
from companion.games.fog.scenario import Scenario, Special, load_scenario, scenario_ids
from companion.games.fog.state import GameState, Player

__all__ = ["Scenario", "Special", "load_scenario", "new_solo_game", "scenario_ids"]


def new_solo_game(scenario: str = "1", options: Options | None = None, name: str = "Guardian",
                  seed: int = 0) -> GameState:
    """A solo game: nations instead of player colours, per-nation MP, no draft, no prep bonuses."""
    options = options or Options()
    scen = load_scenario(scenario)
    board = Board.load_named(scen.board)
    if options.teams or options.rescue_the_leaders or options.two_player_scoring != "lower":
        raise ScenarioError("teams, rescue the leaders and two-player scoring are multiplayer options")
    placed = set(scen.placement.values())
    removed = tuple(i for i in board.islanders if i not in placed)
    setup = {c: (p,) for c, p in scen.placement.items()}
    state = GameState(
        board=scen.board,
        mode="solo",
        players=(Player(name, tuple(board.boat_order)),),
        turn_order=tuple(board.boat_order),
        options=options,
        seed=seed,
        scenario=scenario,
        nation_mp=dict(scen.nation_mp),
        area_values=dict(scen.area_values),
        setup=setup,
        placement=setup,
        phase="moving",
        fog=0,
        mp_left=0,
        prep_stacks={},
        removed=removed,
    )
    return state.initial()
