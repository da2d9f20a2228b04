"""The Camera page's count of the pieces it sees, at a table played with whichever look-alike piece
is at hand: it agrees with the picture it shows and with the session's judgement of the table."""

from __future__ import annotations

import io
from pathlib import Path

from companion.games import get_game
from companion.games.answers import new_game as new_any_game
from companion.games.tile_race import rules
from companion.run import Companion
from tests.tables import sim_config, wait_for
from tests.test_panel import post
from tests.test_secrets import past_the_setup
from web_ui import create_app


def test_a_look_alike_piece_is_seen_where_the_game_has_one_of_its_kind(tmp_path: Path) -> None:
    """Ann stands her third mountain on a square where the game counts her first (mountains of one
    colour look alike): the game is in sync, and the Camera page counts the mountain seen and the tile
    under it under another piece, nothing missing. A tile then taken off a square is said missing
    once, as "a tile", while the session says the table differs: the page and the session agree."""
    game = get_game("tile-race")
    c = Companion(sim_config(tmp_path, **{"game.name": game.name}),
                  lambda: past_the_setup(game, new_any_game(game, 2, seed=5)), out=io.StringIO())
    c.start()
    try:
        assert wait_for(lambda: c.camera.frames > 0 and not c.session.status.verifying)
        client = create_app(c).test_client()
        square = next(str(a).split()[-1] for a in rules.legal_actions(c.session.state) if str(a).startswith("mountain"))
        assert post(client, "/api/table/move", {"piece": "mountain-red-3", "cell": square}).status_code == 200
        assert wait_for(lambda: "mountain-red-1" in c.session.expected().get(square, ()))  # read as her first
        assert c.session.status.out_of_sync is None
        on_table = sum(map(len, c.session.expected().values()))
        info = client.get("/api/camera").get_json()
        assert (info["expected_pieces"], info["covered"], info["missing"]) == (on_table, 1, []), info
        assert "mountain-red-3" in info["pieces"]  # the picture names the one it reads

        tile, where = next((ps[0], cell) for cell, ps in sorted(c.session.expected().items()) if ps == (ps[0],)
                           and ps[0].startswith("T"))
        assert post(client, "/api/table/move", {"piece": tile, "cell": None}).status_code == 200
        assert wait_for(lambda: c.session.status.out_of_sync is not None)
        info = client.get("/api/camera").get_json()
        assert (info["expected_pieces"], info["covered"], info["missing"]) == (on_table, 1, ["a tile"]), info
    finally:
        c.stop()
