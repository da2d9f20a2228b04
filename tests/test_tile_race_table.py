"""The tile race at the simulated table: hands move pawns and lay tiles, walls and mountains, the
camera reads each turn from its pictures, and the game compares them by kind and count.

The tiles look alike: a hand takes any tile from the supply, so each picture here is made with the
tiles shuffled among their places (tile 17 where tile 3 was), and the companion must not care. A
pawn carrying tiles stands on them: the camera sees the pawn only, and nothing is called missing.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.games.tile_race.table import kind_of, reconcile
from companion.run import Companion
from tests.tables import sim_config, wait_for

GAME = get_game("tile-race")


def shuffled(picture: dict[str, tuple[str, ...]], rng: random.Random) -> dict[str, list[str]]:
    """The same table with other look-alike pieces in the places: which tile lies where is chance."""
    out = {c: list(ps) for c, ps in picture.items()}
    for kind in ("tile", "wall", "mountain"):
        spots = [(c, k) for c, ps in out.items() for k, p in enumerate(ps) if kind_of(p) == kind]
        names = [out[c][k] for c, k in spots]
        pool = sorted({p for p in GAME.layout().pieces if kind_of(p) == kind})
        chosen = rng.sample(pool, len(names))
        for (c, k), new in zip(spots, chosen, strict=True):
            out[c][k] = new
    # a stack lists the covered piece first: the tile under a pawn or a mountain stays under it
    return {c: sorted(ps, key=lambda p: kind_of(p) != "tile") for c, ps in out.items()}


class Hands:
    """The players at the simulated table, and the companion that watches it."""

    def __init__(self, tmp_path: Path, players: int) -> None:
        from web_ui import create_app

        self.out = io.StringIO()
        self.companion = Companion(sim_config(tmp_path, **{"game.name": "tile-race"}), out=self.out)
        self.companion.start(panel=False)
        self.client = create_app(self.companion).test_client()
        self.session = self.companion.session
        self.rng = random.Random(players)
        body = {"game": "tile-race", "players": [{} for _ in range(players)], "seed": 1}
        assert self.post("/api/games", body).status_code == 200
        self.post("/api/table/setup")
        assert wait_for(lambda: not self.session.status.verifying, 60), self.out.getvalue()

    def post(self, path: str, body: object = None) -> Any:
        return self.client.post(path, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})

    def do(self, *actions: str) -> None:
        """The actions made by hand, the table left as they leave it (tiles from anywhere in the supply);
        the companion must record a play that leaves the game as they do."""
        before = self.session.state
        after = before
        for action in actions:
            after = GAME.apply(after, action)
        self.companion.camera.set_table(shuffled(GAME.expected(after), self.rng))
        counted = {**GAME.to_json(after), "history": []}
        assert wait_for(lambda: {**GAME.to_json(self.session.state), "history": []} == counted, 60), \
            (actions, self.session.state.history[len(before.history):], self.session.status.out_of_sync,
             self.out.getvalue()[-1500:])
        assert self.session.status.out_of_sync is None, self.session.status.out_of_sync

    def stop(self) -> None:
        self.companion.stop()


def test_turns_read_from_the_table_tiles_by_kind_and_count_walls_on_edges_tiles_under_a_pawn(tmp_path: Path):
    hands = Hands(tmp_path, 2)
    try:
        hands.do("move red-1 A1", "tile red A2")  # onto the entry corner, then a tile laid
        hands.do("move blue-1 G7", "wall blue C4|C5")  # a wall stand on the edge between C4 and C5
        hands.do("mountain red E4")  # a mountain first (the movement follows)
        hands.do("move red-1 A2")  # collecting: the tile is under the pawn, the camera sees the pawn only
        assert hands.session.state.carried("red-1") == 1 and hands.session.status.out_of_sync is None
        hands.do("move red-1 A3>A4>A5")  # the collect phase ends on A3, the tile is left on A4
        assert hands.session.state.tiles == {"A4"} and hands.session.state.active == "blue"
        # the same table with the tiles and walls swapped round is no change at all
        history = list(hands.session.state.history)
        hands.companion.camera.set_table(shuffled(GAME.expected(hands.session.state), hands.rng))
        hands.do()
        assert list(hands.session.state.history) == history
    finally:
        hands.stop()


def test_a_picture_is_compared_by_kind_and_count_and_names_what_differs():
    state = GAME.apply(GAME.apply(GAME.new_game(2, seed=1), "move red-1 A1"), "tile red C3")
    picture = {c: list(ps) for c, ps in GAME.expected(state).items()}
    moved = {**picture, "C3": [], "D3": list(picture["C3"])}  # the tile lies one square over
    answer = reconcile(state, moved)
    assert not answer.ok and "C3" in (answer.reason or "") and "D3" in (answer.reason or "")
    walled = {**picture, "C4|C5": ["W07"]}  # a wall stand on an edge: blue stood a wall there (before moving)
    read = reconcile(state, walled)
    assert read.ok and [c.actions for c in read.choices] == [("wall blue C4|C5",)]
    assert "a wall stood between C4 and C5" in read.choices[0].summary
