"""The simulated table draws pieces by height, as they stand on a real table.

A piece's top (and its marker) stands above the flat pieces round it: a token on the edge between
two places beside the cards laid on them after it, a token on the cards of its stack. The picture
must show it so whatever order the table lists its places in, or the camera loses a piece nobody
moved (a stand on an edge vanished when tiles were laid beside it, and the game read it taken away).
"""

from __future__ import annotations

import pytest

from companion.games import get_game
from vision.detect import BoardDetector
from vision.render import make_pose, render, top_mm

LAYOUT = get_game("tile-race").layout()  # tiles are flat squares, stands and pawns round tokens

# The stands are listed first and the tiles on the squares beside each after them: the order a
# table has them in when the tiles were laid last. The pawn stands on the tile of its square.
TABLE = {
    "B3|C3": ["W01"], "C5|C6": ["W02"], "E2|E3": ["W03"],
    "B3": ["T01"], "C3": ["T02"], "C5": ["T04"], "C6": ["T05"], "E2": ["T06"], "E3": ["T07"],
    "D5": ["T03", "red-1"],
}
POSES = {"straight above": (0.0, 0.0, 0.0, 20.0), "tilted 20 degrees": (20.0, 120.0, 200.0, 22.0)}


def test_a_token_stands_above_the_flat_pieces_round_it() -> None:
    assert top_mm(LAYOUT, "W01") > top_mm(LAYOUT, "T01", below=2)
    assert top_mm(LAYOUT, "red-1", below=1) > top_mm(LAYOUT, "T03")


@pytest.mark.parametrize("view", sorted(POSES))
def test_stands_beside_tiles_laid_after_them_and_a_pawn_on_its_tile_are_seen(view: str) -> None:
    pose = make_pose(LAYOUT, *POSES[view])
    shot = render(LAYOUT, TABLE, pose, seed=3)
    seen = BoardDetector(LAYOUT).detect(shot.frame)

    for stand, edge in (("W01", "B3|C3"), ("W02", "C5|C6"), ("W03", "E2|E3")):
        assert seen.pieces.get(stand) == edge, f"{stand} on {edge}: {seen.to_dict()}"
    for tile, square in (("T01", "B3"), ("T02", "C3"), ("T04", "C5"), ("T05", "C6"), ("T06", "E2"), ("T07", "E3")):
        assert seen.pieces.get(tile) == square
    # the pawn is read on its square; the tile under it is hidden by it
    assert seen.pieces.get("red-1") == "D5"
    assert "T03" not in seen.pieces and "T03" not in shot.visible
