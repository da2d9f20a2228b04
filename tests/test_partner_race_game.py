"""The partner card race through the door: what the camera sees read as plays of the card laid,
the board it is played on, the command line, the LEDs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.errors import BoardFileError, IllegalMoveError, SetupError
from companion.games import TableStatus, get_game
from companion.games.partner_race import board as boards

GAME = get_game("partner-race")


def started(*actions: str, seed: int = 3):
    state = GAME.new_game(4, seed=seed)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def moved(picture: dict, piece: str, to: str, card: str | None = None) -> dict:
    out = {c: tuple(p for p in ps if p != piece) for c, ps in picture.items()}
    out[to] = tuple(sorted((*out.get(to, ()), piece)))
    if card is not None:
        out[boards.CARD_SPOT] = (f"card-{card}",)
    return {c: ps for c, ps in out.items() if ps}


def test_a_pawn_brought_out_with_the_start_card_laid_is_one_reading():
    state = started()
    assert state.active == "yellow"
    answer = GAME.reconcile(state, moved(GAME.expected(state), "yellow-1", "start-yellow", "start"))
    assert answer.ok and [c.actions for c in answer.choices] == [("play yellow start yellow-1:start",)]


def test_without_a_card_on_the_spot_the_players_say_which_card_brought_the_pawn_out():
    state = started()
    answer = GAME.reconcile(state, moved(GAME.expected(state), "yellow-1", "start-yellow"))
    assert answer.ambiguous and {c.actions[0].split()[2] for c in answer.choices} == {"start", "8s", "13s"}


def test_a_card_that_cannot_make_the_picture_is_named_and_the_pawn_that_moved_is_the_offender():
    state = started("play yellow start yellow-1:start", "play green start green-1:start",
                    "play blue start blue-1:start", "play red start red-1:start")
    picture = moved(GAME.expected(state), "yellow-1", "T4", "9")  # a 5's worth of steps, the 9 laid
    answer = GAME.reconcile(state, picture)
    assert not answer.ok and "the 9 card" in answer.reason and answer.offenders == ("yellow-1",)
    answer = GAME.reconcile(state, moved(GAME.expected(state), "yellow-2", "home-green-2", "5"))
    assert not answer.ok and "never stands" in answer.reason


def test_a_bump_is_read_from_where_the_pawns_are_seen():
    state = started("play yellow start yellow-1:start", "play green start green-1:start",
                    "play blue start blue-1:start", "play red start red-1:start",
                    "play yellow 13s yellow-1:13", "play green 2 green-1:2", "play blue 2 blue-1:2",
                    "play red 2 red-1:2")
    assert (state.where["yellow-1"], state.where["green-1"], state.active) == ("T12", "T17", "yellow")
    picture = moved(GAME.expected(state), "yellow-1", "T17", "5")
    picture = moved(picture, "green-1", "home-green-1")  # bumped home by hand
    answer = GAME.reconcile(state, picture)
    assert answer.ok and [c.actions for c in answer.choices] == [("play yellow 5 yellow-1:5",)]
    assert GAME.notes(state, GAME.apply(state, "play yellow 5 yellow-1:5"))["bumped"] == ["green-1"]


def test_the_same_card_on_the_spot_again_is_a_play_the_players_confirm():
    """Another 2 laid on the 2 looks like no card laid at all: the companion asks, it does not charge it."""
    state = started("play yellow start yellow-1:start", "play green start green-1:start",
                    "play blue start blue-1:start", "play red start red-1:start",
                    "play yellow 2 yellow-1:2")
    picture = moved(GAME.expected(state), "green-1", "T17")  # the 2 still on top
    answer = GAME.reconcile(state, picture)
    assert answer.ambiguous and answer.question and "another 2" in answer.question
    assert [c.actions for c in answer.choices] == [("play green 2 green-1:2",)]
    laid = GAME.reconcile(state, {**GAME.expected(state), boards.CARD_SPOT: ("card-5",)})
    assert laid.part_way and not laid.ok and laid.reason is None  # a card laid, the pawn not moved yet: a step
    assert "the 5 card is laid: now green moves the pawn it plays" in laid.step and laid.to_move[0].startswith("green")


def test_a_pawn_landing_on_its_own_colour_hides_the_one_below_and_is_still_read():
    """Two pawns of one colour on a space are a stack: the camera sees the top one only."""
    state = started("play yellow start yellow-1:start", "play green start green-1:start",
                    "play blue start blue-1:start", "play red start red-1:start",
                    "play yellow 5 yellow-1:5", "play green 2 green-1:2", "play blue 2 blue-1:2",
                    "play red 2 red-1:2", "play yellow start yellow-2:start",
                    "play green 2 green-1:2", "play blue 2 blue-1:2", "play red 2 red-1:2")
    assert state.where["yellow-1"] == "T4" and state.where["yellow-2"] == "start"
    picture = {c: tuple(p for p in ps if p != "yellow-2") for c, ps in GAME.expected(state).items()}
    picture[boards.CARD_SPOT] = ("card-5",)  # yellow-2 went onto yellow-1 (5 steps from start: T4), under it
    answer = GAME.reconcile(state, {c: ps for c, ps in picture.items() if ps})
    assert answer.ok and [c.actions for c in answer.choices] == [("play yellow 5 yellow-2:5",)]
    after = GAME.apply(state, "play yellow 5 yellow-2:5")
    seen = {c: tuple(p for p in ps if p != "yellow-2") for c, ps in GAME.expected(after).items()}
    assert GAME.hidden(after, seen) == {"yellow-2": "T4"}  # the session counts it as seen there
    lost = {c: ps for c, ps in seen.items() if c != "T4"}
    assert GAME.hidden(after, lost) == {}  # with nothing of its colour on T4 it is missing, not hidden


def test_a_correction_records_the_pawns_as_seen_and_reads_back():
    state = started("play yellow start yellow-1:start", "play green start green-1:start")
    picture = moved(GAME.expected(state), "yellow-1", "T3")  # knocked along the track
    action = GAME.correction(state, picture)
    assert str(action) == "correct yellow-1:start>T3" and GAME.parse_action(str(action)) == action
    after = GAME.apply(state, str(action))
    assert after.where["yellow-1"] == "T3" and after.active == state.active and after.seen == state.seen
    with pytest.raises(IllegalMoveError, match="the game has it on T3"):
        GAME.apply(after, str(action))  # written for the position before
    with pytest.raises(IllegalMoveError, match="not on the board"):
        GAME.correction(state, {c: ps for c, ps in picture.items() if "yellow-1" not in ps})
    with pytest.raises(IllegalMoveError, match="share a goal circle"):
        GAME.apply(state, "correct yellow-2:home>G1 yellow-3:home>G1")
    assert str(GAME.correction(state, {**GAME.expected(state), boards.CARD_SPOT: ("card-9",)})) == \
        "correct card:start>9"


def test_two_cards_that_bring_a_pawn_out_are_both_offered_on_the_panel():
    state = started()
    ways = GAME.targets(state, "yellow-1")["start-yellow"]
    assert [w.actions[0] for w in ways] == ["play yellow start yellow-1:start", "play yellow 8s yellow-1:start",
                                            "play yellow 13s yellow-1:start"]
    assert [w.summary for w in ways] == [f"Play {card}: the yellow pawn 1 out to the yellow starting space"
                                         for card in ("the start card", "the 8", "the 13")]  # no names given


def test_the_board_has_every_place_and_refuses_a_bad_file_by_name(tmp_path: Path):
    layout = GAME.layout()
    kinds = {}
    for cell in layout.cells.values():
        kinds[cell.kind] = kinds.get(cell.kind, 0) + 1
    assert kinds == {"track": 64, "start": 4, "goal": 16, "home": 16, "card-spot": 1}
    markers = [p.marker for p in layout.pieces.values()] + [int(f["id"]) for f in layout.fiducials]
    assert len(markers) == len(set(markers)) == 16 + 14 + 4
    text = (Path(boards.__file__).parent / "boards" / "standard.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("track_radius_mm = 255.0", "track_radius_mm = 60.0"))
    with pytest.raises(BoardFileError, match="bad.toml: board.space_mm: the spaces overlap"):
        boards.load(str(bad))
    bad.write_text(text.replace('game = "partner-race"', 'game = "fog"'))
    with pytest.raises(BoardFileError, match="not a partner race board"):
        boards.load(str(bad))
    with pytest.raises(SetupError, match="4 players"):
        GAME.new_game(3)


def test_the_game_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "race.json"
    assert main(["new-game", "--game", "partner-race", "--players", "4", "--seed", "5", "--json", "-o", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["game"] == "partner-race" and state["turn"] == 2  # seed 5: green deals, blue starts
    assert main(["act", "--game", "partner-race", str(path), "play blue start blue-3:start",
                 "play red 8s red-1:start", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["show", "--game", "partner-race", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "yellow (yellow) to play" in shown and "3:start" in shown and "last card: 8s" in shown
    assert main(["score", "--game", "partner-race", str(path), "--json"]) == 0
    score = json.loads(capsys.readouterr().out)
    assert score["winners"] == [] and score["pawns"]["red-1"]["where"] == "start"
    assert main(["act", "--game", "partner-race", str(path), "play yellow 5 yellow-1:5"]) == 2
    assert "home base" in capsys.readouterr().err


def test_the_leds_show_whose_turn_and_the_teams():
    state = started()
    scene = GAME.led_scene(state)
    colours = boards.load().rgb
    assert scene.segments["turn"][0].colour == colours["yellow"]
    assert [light.colour for light in scene.lights("status")] == [colours[c] for c in ("yellow", "blue", "green", "red")]
    assert GAME.led_scene(state, TableStatus(waiting=True)).segments["turn"][0].effect == "blink"
    hand = scene.count("counter")
    assert hand is not None and (hand.value, hand.total) == (4, 4)  # the cards in yellow's hand of the four dealt
    after = GAME.apply(state, "play yellow start yellow-1:start")
    assert GAME.led_scene(after).segments["turn"][0].colour == colours["green"]
    assert GAME.led_scene(after).count("counter").value == 4 and after.cards_left[0] == 3  # type: ignore[union-attr]
    wrong = GAME.led_scene(after, TableStatus(offenders=("green-2",))).lights("status")
    assert [light.effect for light in wrong] == ["steady", "steady", "blink", "steady"]  # green's light blinks


def test_the_sticker_sheet_has_the_pawns_and_a_whole_deck_of_card_markers(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]):
    from vision.markers import sheet_items

    items = sheet_items(GAME.layout())
    cards = [i for i in items if i.label.endswith(" card")]  # each sticker by its name ("swap card"), short
    assert len(cards) == 112 and len({i.marker for i in cards}) == 14
    assert len([i for i in items if i.label.startswith(("yellow pawn", "green pawn", "blue pawn", "red pawn"))]) == 16
    assert main(["markers", "--game", "partner-race", "-o", str(tmp_path / "stickers.pdf")]) == 0
    pdf = (tmp_path / "stickers.pdf").read_bytes().decode("latin-1")
    assert pdf.startswith("%PDF")
    # each pawn's sticker has a thin light circle to cut along, as wide as the pawn's round top (20 mm),
    # centred on its 12 mm marker; the card markers stay square stickers with no circle
    pt = 72 / 25.4
    markers = [(float(x) + float(w) / 2, float(y) + float(w) / 2) for w, x, y in
               re.findall(r"q ([0-9.]+) 0 0 \1 ([0-9.]+) ([0-9.]+) cm", pdf) if abs(float(w) - 12 * pt) < 0.01]
    # a circle is drawn from its right edge (x + r, y) round to its top (x, y + r) and on
    cuts = [(float(x), float(y), float(right) - float(x)) for right, y, x in
            re.findall(r"q 0\.75 G [0-9.]+ w ([0-9.]+) ([0-9.]+) m (?:[0-9.]+ ){4}([0-9.]+) [0-9.]+ c [^Q]*? S Q", pdf)]
    assert len(markers) == len(cuts) == 16
    for (mx, my), (cx, cy, r) in zip(markers, cuts, strict=True):
        assert abs(cx - mx) < 0.01 and abs(cy - my) < 0.01 and abs(r - 10 * pt) < 0.01


def test_on_the_simulated_table_cards_laid_and_pawns_moved_by_hand_are_read_as_plays(tmp_path: Path):
    """The companion run for the partner card race: the simulated camera sees the track, the hands
    bring pawns out, lay cards on the card spot, move pawns and bump one; each is read as a play."""
    from tests.test_partner_race_table import start

    companion, table, out = start(tmp_path, seed=3)

    def hand(card: str, *moves: tuple[str, str]) -> None:
        """The card laid on the pile (the one under it hidden), then the pawns moved one by one."""
        for old in ("card-" + k for k in ("start", "8s", "13s", "5", "2")):
            table.post("/api/table/move", {"piece": old, "cell": None})
        table.post("/api/table/move", {"piece": f"card-{card}", "cell": boards.CARD_SPOT})
        for piece, cell in moves:
            table.post("/api/table/move", {"piece": piece, "cell": cell})

    try:
        session = companion.session
        turns = [("start", [("yellow-1", "start-yellow")], "play yellow start yellow-1:start"),
                 ("8s", [("green-1", "start-green")], "play green 8s green-1:start"),
                 ("13s", [("blue-1", "start-blue")], "play blue 13s blue-1:start"),
                 ("start", [("red-1", "start-red")], "play red start red-1:start"),
                 ("13s", [("yellow-1", "T12")], "play yellow 13s yellow-1:13"),
                 ("2", [("green-1", "T17")], "play green 2 green-1:2"),
                 ("2", [("blue-1", "T33")], "play blue 2 blue-1:2"),  # the same card again: confirmed
                 ("2", [("red-1", "T49")], "play red 2 red-1:2"),
                 ("5", [("green-1", "home-green-1"), ("yellow-1", "T17")], "play yellow 5 yellow-1:5")]
        for card, moves, action in turns:
            before = session.state
            hand(card, *moves)
            table.settle(action, before)
        assert session.state.where["green-1"] == "home"
        assert session.state.seen["2"] == 3 and session.state.active == "green"
        assert table.asked == 2  # the 2 on the 2, twice
    finally:
        companion.stop()
