"""Every game played by hand to its end at a table whose camera stands off-centre and leans.

A camera on a shelf arm beside the table sees the board from the side: tall pieces lean over their
neighbours, markers are foreshortened, the far edge of the board is small. For each game behind the
door a seeded game is played by the rules to its end, and its last stretch (several turns each) is
made at the simulated table: one token at a time, in a random order, with a hand's pause between
two tokens, read frame by frame with the real detector at the default hold times. The log ends as
the moves made, the table is never red and no question is left open.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import get_game
from tests.by_hand import OFF_CENTRE, a_line, play_by_hand
from vision.render import make_pose


def keen_tile_racer(state: Any, rng: random.Random) -> Any:
    """The tile race's keen player (tests/test_tile_race_whole_game.py): random play would wall and
    unwall for ever; this one runs for the exits, so the race ends."""
    from tests.test_tile_race_whole_game import keen_turn

    return keen_turn(state)[0][0]


def keen_partner(state: Any, rng: random.Random) -> Any:
    """The partner race's keen player (tests/test_partner_race_table.py): the play that brings the
    team furthest, so the race's last stretch ends in a few turns each."""
    from tests.test_partner_race_table import keen_play

    return keen_play(state)


# game, players, seed, about how many actions of the line's end are made by hand, the players' policy
# (None: random legal moves the camera reads as themselves). The FOG's line of seed 4 puts two islanders
# in one stern, which the simulated table draws 7 mm apart, markers overlapping: neither is read there.
GAMES = [("fog", 2, 5, 48, None), ("partner-race", 4, 2, 32, keen_partner), ("tile-race", 2, 1, 44, keen_tile_racer),
         ("island-battle", 2, 3, 45, None), ("desert-survivors", 2, 2, 36, None)]


@pytest.mark.parametrize(("name", "players", "seed", "last", "choose"), GAMES, ids=[g[0] for g in GAMES])
def test_the_end_of_a_game_played_by_hand_under_a_camera_off_centre_and_tilted(
        tmp_path: Any, figures: Any, name: str, players: int, seed: int, last: int, choose: Any) -> None:
    game = get_game(name)
    states, actions = a_line(game, players, seed, choose, last)
    # each game seen from another side of the table, the camera leaning towards the board
    side = {**OFF_CENTRE, "tilt_dir_deg": OFF_CENTRE["tilt_dir_deg"] + 72 * [g[0] for g in GAMES].index(name)}
    pose = make_pose(game.layout(states[0]), **side)
    played = play_by_hand(tmp_path, game, states, actions, seed, pose)
    figures(f"{name}, {players} players, camera off-centre tilted {side['tilt_deg']:.0f} degrees towards "
            f"{side['tilt_dir_deg']:.0f}: {played}")
