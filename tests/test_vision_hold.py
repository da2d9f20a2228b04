"""A piece unseen for a moment is held where it stood, but a settled picture never hands that
guess on beside a change elsewhere: the session would read a move nobody made."""

from __future__ import annotations

from vision.detect import Observation
from vision.settle import StableChange, Stabiliser

FRAME = 0.1  # seconds of frame time between looks


class Stream:
    """Observations through a stabiliser on frame time: no clock runs, every look is 0.1 s later."""

    def __init__(self, placement: dict[str, str], hold: float = 3.0) -> None:
        self.stabiliser = Stabiliser(frames_needed=3, hold_seconds=hold, clock=lambda: 0.0)
        self.now = 0.0
        self.stabiliser.reset(placement, at=self.now)
        self.changes: list[StableChange] = []

    def looks(self, seconds: float, pieces: dict[str, str], hand: bool = False) -> None:
        """The camera sees ``pieces`` (piece -> cell), still, for ``seconds`` (``hand``: a hand over the board)."""
        for _ in range(round(seconds / FRAME)):
            self.now += FRAME
            change = self.stabiliser.feed(Observation(True, pieces=dict(pieces)), 0.0, at=self.now, hand=hand)
            if change is not None:
                self.changes.append(change)


def test_a_pawn_lifted_while_the_tile_under_it_is_dragged_away_is_never_left_behind():
    table = Stream({"pawn-2": "E3", "tile-1": "E3", "pawn-1": "A1"})
    table.looks(1.0, {"tile-1": "E3", "pawn-1": "A1"})  # the pawn lifted: a second with it in a hand
    table.looks(1.0, {"tile-1": "E4", "pawn-1": "A1"})  # the tile dragged on, still inside the hold time
    assert table.changes == []  # no picture with the pawn on E3 (or anywhere) nobody put it
    assert table.stabiliser.unsure == {"pawn-2"}
    table.looks(2.0, {"tile-1": "E4", "pawn-1": "A1"})  # the hold time over: the pawn is gone
    assert [c.moved for c in table.changes] == [{"pawn-2": ("E3", None), "tile-1": ("E3", "E4")}]
    assert table.stabiliser.unsure == set()


def test_the_pawn_set_down_on_the_dragged_tile_inside_the_hold_time_is_one_picture():
    table = Stream({"pawn-2": "E3", "tile-1": "E3"})
    table.looks(0.5, {"tile-1": "E3"})
    table.looks(0.5, {"tile-1": "E4"})
    table.looks(0.5, {"tile-1": "E4", "pawn-2": "E4"})
    assert [c.moved for c in table.changes] == [{"pawn-2": ("E3", "E4"), "tile-1": ("E3", "E4")}]


def test_a_flickering_marker_alone_changes_nothing():
    table = Stream({"pawn-1": "A1", "pawn-2": "C2"})
    for _ in range(5):
        table.looks(0.5, {"pawn-1": "A1"})  # unseen half a second at a time
        table.looks(0.2, {"pawn-1": "A1", "pawn-2": "C2"})
    assert table.changes == []


def test_a_move_made_while_another_marker_flickers_waits_only_until_it_is_seen_again():
    table = Stream({"pawn-1": "A1", "pawn-2": "C2"})
    table.looks(0.5, {"pawn-1": "B1"})  # pawn 1 moved; pawn 2's marker missed meanwhile
    assert table.changes == []
    table.looks(0.1, {"pawn-1": "B1", "pawn-2": "C2"})  # seen again: the same picture, now sure
    assert [c.moved for c in table.changes] == [{"pawn-1": ("A1", "B1")}]
    assert table.changes[0].at < 0.7  # decided on the first look that sees it, not after the hold time


def test_a_piece_with_another_laid_on_its_spot_is_covered_and_the_move_is_handed_on_at_once():
    """A piece of the table moved onto another's spot covers it: handed on at once, hand seen or not."""
    table = Stream({"pawn-1": "A1", "pawn-2": "C2"})
    table.looks(0.4, {"pawn-2": "A1"})  # pawn 2 set on pawn 1's space hides its marker
    assert [c.moved for c in table.changes] == [{"pawn-2": ("C2", "A1")}]
    assert table.changes[0].after["pawn-1"] == "A1"  # held under pawn 2, as any unseen piece is for the hold time


def test_a_tile_laid_where_a_tall_pawn_stood_never_hides_it_the_pawn_was_lifted_away():
    """A pawn lifted off its square (out of the race) and a tile laid there at once: a flat tile cannot
    lie on top of a pawn 30 mm tall, so the pawn is not held as covered (it was read as still standing
    under the tile, then red); it is a guess like any piece unseen, and once the hold time is over it
    is gone, in the same picture as the tile. A pawn set down on a tile still hides the tile."""
    heights = {"pawn-1": 30.0, "T01": 4.0, "T02": 4.0}
    table = Stream({"pawn-1": "A1", "T02": "C2"})

    def look(seconds: float, pieces: dict[str, str], hand: bool = False) -> None:
        for _ in range(round(seconds / FRAME)):
            table.now += FRAME
            change = table.stabiliser.feed(Observation(True, pieces=dict(pieces)), 0.0, at=table.now,
                                           height=heights.__getitem__, hand=hand)
            if change is not None:
                table.changes.append(change)

    look(1.0, {"T01": "A1", "T02": "C2"})
    assert table.changes == []  # not handed on with the pawn guessed under the tile
    look(2.5, {"T01": "A1", "T02": "C2"})
    assert [c.moved for c in table.changes] == [{"pawn-1": ("A1", None), "T01": (None, "A1")}]
    look(0.2, {"T01": "A1"}, hand=True)  # a hand sets the pawn down on the other tile
    look(0.5, {"T01": "A1", "pawn-1": "C2"})  # and is gone: that tile is covered
    assert table.changes[-1].moved == {"pawn-1": (None, "C2")} and table.changes[-1].after["T02"] == "C2"


def test_a_piece_read_on_another_s_spot_with_no_hand_seen_waits_the_hold_time():
    """No hand came over the board: a marker read as another piece's for a few frames looks just like a
    piece laid on this one. It is handed on only once it has stood there the hold time; gone sooner,
    nothing happened."""
    table = Stream({"pawn-1": "A1", "pawn-2": "C2"})
    table.looks(0.6, {"pawn-2": "C2", "mountain-1": "A1"})  # pawn 1's marker misread for six frames
    table.looks(1.0, {"pawn-1": "A1", "pawn-2": "C2"})
    assert table.changes == []
    table.looks(3.5, {"pawn-2": "C2", "mountain-1": "A1"})  # a mountain that stays: laid there after all
    assert [c.moved for c in table.changes] == [{"mountain-1": (None, "A1")}]
    assert table.changes[0].after["pawn-1"] == "A1"  # held beneath it
