"""The Camera page's count of the pieces it sees, at a table played with whichever look-alike piece
is at hand: it agrees with the picture it shows and with the session's judgement of the table."""

from __future__ import annotations

import io
from pathlib import Path

from companion.games import get_game
from companion.games.answers import new_game as new_any_game
from companion.games.tile_race import rules
from companion.app.run import Companion
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


def test_another_game_started_or_resumed_finds_the_simulated_table_set_up_for_it(tmp_path: Path) -> None:
    """The simulated table stands in for the table and the hands: a FOG game set up on it, then the
    partner race started from the Setup page, then the FOG resumed from the Games page; each time the table holds the pieces the game now played expects, and the board check
    passes with no place differing (it held the FOG's pieces: "61 places differ")."""
    fog = get_game("fog")
    c = Companion(sim_config(tmp_path), lambda: new_any_game(fog, 3, seed=21), out=io.StringIO())
    c.start()
    try:
        assert wait_for(lambda: c.camera.frames > 0 and not c.session.status.verifying)
        client = create_app(c).test_client()
        first = c.session.game_id

        def laid_out() -> bool:
            return c.camera.table() == c.session.expected() and not c.session.status.verifying

        started = post(client, "/api/games", {"game": "partner-race", "seed": 3, "confirm": True,
                                              "players": [{"name": n} for n in ("Ann", "Bo", "Cy", "Di")]})
        assert started.status_code == 200, started.get_json()
        assert c.session.game.name == "partner-race" and wait_for(laid_out), c.session.status.setup_differences
        assert post(client, f"/api/games/{first}/resume", {"confirm": True}).status_code == 200
        assert c.session.game.name == "fog" and wait_for(laid_out), c.session.status.setup_differences
    finally:
        c.stop()
