"""At the partner race's table everything reads for a whole game, through the real pipeline: the
simulated table draws the pieces at their printed sizes (vision/render.py) and the detector reads
the picture (vision/detect.py), as `fog-companion run --game partner-race` does.

Hands lay each card on the one before, a few millimetres off and turned a little, so the pile
grows all deal long; pawns stand on neighbouring spaces and on each other."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from companion.games import get_game
from companion.games.partner_race import board as boards
from companion.games.partner_race.cards import CARDS, DECK, HAND
from companion.games.partner_race.track import TRACK
from vision import render
from vision.detect import BoardDetector
from vision.sources import SimulatedTable

GAME = get_game("partner-race")
STATE = GAME.new_game(seed=3)
LAYOUT = GAME.layout(STATE)
BOARD = boards.load("standard")
CAMERAS = (0, 1, 2)  # the simulated table's camera pose is fixed per seed: three tables


def a_deal(rng: random.Random) -> list[str]:
    """Every card of one deal (four hands), in the order they are played."""
    deck = [name for name, copies in DECK.items() for _ in range(copies)]
    return [f"card-{name}" for name in rng.sample(deck, 4 * HAND)]


def lay(pile: list[str], card: str) -> None:
    """A card laid on the pile, as the table's hand does it: a kind already down (one marker per
    kind) is the same token picked up and laid on top again."""
    if card in pile:
        pile.remove(card)
    pile.append(card)


@pytest.fixture(scope="module")
def detector() -> BoardDetector:
    return BoardDetector(LAYOUT)


def test_the_printed_sizes_leave_every_marker_clear_of_the_next_space():
    """The pitch of the track against what stands on it: a pawn's round top is 5 mm narrower than
    the pitch (two pawns put 2 mm off towards each other still do not touch), the marker fits in it,
    and a card covers the card marker of the one below whatever way it is laid."""
    assert BOARD.pitch_mm == pytest.approx(25.0, abs=0.1)
    assert BOARD.pawn_mm <= BOARD.pitch_mm - 4
    assert BOARD.pawn_marker_mm * math.sqrt(2) <= BOARD.pawn_mm  # the marker's corners on the sticker
    card_w, card_h = BOARD.playing_card_mm
    reach = render.CARD_JITTER_MM * math.sqrt(2) * 2 + BOARD.card_marker_mm / math.sqrt(2)
    assert reach < card_w / 2  # the card on top hides the marker below, however the two lie
    assert LAYOUT.pieces["yellow-2"].facts["size_mm"] == BOARD.pawn_mm
    assert LAYOUT.pieces["card-5"].facts["size_mm"] == [card_w, card_h]


@pytest.mark.parametrize("camera", CAMERAS)
def test_a_whole_deal_laid_card_by_card_reads_its_top_card_each_time(detector: BoardDetector, camera: int):
    """Sixteen cards laid one on another, each a few millimetres off and turned: the one laid last is
    read on the card spot every time, and only that one (the others are covered)."""
    rng = random.Random(camera)
    pile: list[str] = []
    pawns = {c: list(ps) for c, ps in GAME.expected(STATE).items()}
    with SimulatedTable(LAYOUT, pawns, seed=camera) as table:
        for card in a_deal(rng):
            lay(pile, card)
            table.set_placement({**pawns, boards.CARD_SPOT: tuple(pile)})
            obs = detector.detect(table.read())
            cards = {p: c for p, c in obs.pieces.items() if p.startswith("card-")}
            assert cards == {card: boards.CARD_SPOT}, (card, pile, obs.unplaced)
            assert len(obs.pieces) == 17 and obs.unplaced == []


def test_a_card_laid_a_centimetre_off_and_turned_is_on_the_spot(detector: BoardDetector,
                                                               monkeypatch: pytest.MonkeyPatch):
    """A card is judged by the card spot's region, not by the distance to the spot's centre: a card
    laid a centimetre and more off (its marker's centre far outside a pawn space's reach) is on it."""
    monkeypatch.setattr(render, "CARD_JITTER_MM", 14.0)
    monkeypatch.setattr(render, "CARD_TURN_DEG", 20.0)
    with SimulatedTable(LAYOUT, {}, seed=0) as table:
        far = 0.0
        for name in CARDS:
            table.set_placement({boards.CARD_SPOT: (f"card-{name}",)})
            obs = detector.detect(table.read())
            assert obs.pieces == {f"card-{name}": boards.CARD_SPOT}, obs.unplaced
            x, y = obs.poses[f"card-{name}"][:2]
            far = max(far, math.dist((x, y), BOARD.centre))
    assert far > LAYOUT.snap_mm  # at least one lay farther off than a pawn may stand off its space


@pytest.mark.parametrize("camera", CAMERAS)
def test_pawns_on_every_pair_of_neighbouring_spaces_are_read_where_they_are(detector: BoardDetector, camera: int):
    """Yellow-2 on one space and green-2 on the next (the report: yellow-2 on T11 beside green-2 on
    T12 was not seen), a stack of blue beyond: round a whole quarter of the track, every pawn is read
    on its own space, none on its neighbour's and none between."""
    with SimulatedTable(LAYOUT, {}, seed=camera) as table:
        for i in range(TRACK // 4 * camera, TRACK // 4 * (camera + 1)):
            here, there, beyond = (f"T{(i + k) % TRACK}" for k in range(3))
            table.set_placement({here: ("yellow-2",), there: ("green-2",), beyond: ("red-1",)})
            obs = detector.detect(table.read())
            assert obs.pieces == {"yellow-2": here, "green-2": there, "red-1": beyond}, obs.unplaced


@pytest.mark.parametrize("camera", CAMERAS)
def test_a_stack_of_two_is_read_as_the_top_one_and_the_game_knows_the_one_beneath(detector: BoardDetector,
                                                                                  camera: int):
    """Blue-4 landed on blue-1 on T11, next to green-2 on T12 and yellow-2 on T10: the camera reads
    blue-4 (on top), not blue-1 (covered); the game knows blue-1 is beneath, so the picture is the
    game's position."""
    state = replace(STATE, where={**STATE.where, "blue-1": "T11", "blue-4": "T11", "green-2": "T12", "yellow-2": "T10"})
    placement = {c: list(ps) for c, ps in GAME.expected(state).items()}
    placement["T11"] = ["blue-1", "blue-4"]  # blue-4 put on blue-1
    with SimulatedTable(LAYOUT, placement, seed=camera) as table:
        obs = detector.detect(table.read())
    seen: dict[str, list[str]] = {}
    for piece, cell in obs.pieces.items():
        seen.setdefault(cell, []).append(piece)
    assert obs.pieces["blue-4"] == "T11" and "blue-1" not in obs.pieces
    assert obs.pieces["green-2"] == "T12" and obs.pieces["yellow-2"] == "T10"
    assert GAME.hidden(state, seen) == {"blue-1": "T11"}
    seen["T11"].append("blue-1")
    assert {c: sorted(ps) for c, ps in seen.items()} == {c: sorted(ps) for c, ps in GAME.expected(state).items()}


def test_two_pawns_brought_out_stand_on_each_other_on_their_starting_space(detector: BoardDetector):
    """A second pawn brought out while the first still waits on the starting space is put on it (the
    space is narrower than two pawns side by side): the camera reads the top one, the game knows the
    other beneath - where before the one beneath was "not on the board: put every pawn back"."""
    where = {**STATE.where, **{f"{c}-{n}": "start" for c in ("yellow", "green", "blue", "red") for n in (1, 2)}}
    state = replace(STATE, where=where)
    placement = {c: sorted(ps, reverse=True) for c, ps in GAME.expected(state).items()}  # pawn 1 laid on pawn 2
    with SimulatedTable(LAYOUT, placement, seed=1) as table:
        obs = detector.detect(table.read())
    seen: dict[str, list[str]] = {}
    for piece, cell in obs.pieces.items():
        seen.setdefault(cell, []).append(piece)
    assert {c: ps for c, ps in seen.items() if c.startswith("start-")} == {
        f"start-{c}": [f"{c}-1"] for c in ("yellow", "green", "blue", "red")}
    assert GAME.hidden(state, seen) == {f"{c}-2": f"start-{c}" for c in ("yellow", "green", "blue", "red")}
