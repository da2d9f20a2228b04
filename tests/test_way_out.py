"""A disagreement between the table and the game is never a dead end: whatever they disagree about,
one of the ways out the panel's banner offers works, through the routes its buttons call
(/api/correction with ``as_game``, ``preview`` and ``accept``, or a piece and its cell), and the
game ends in sync and goes on. The camera's pictures are handed to the session as the camera thread
hands them; the partner race is played, where the reports came from, and The FOG keeps its ways."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.app.run import Companion
from tests.tables import sim_config
from web_ui import create_app

Picture = Mapping[str, Sequence[str]]


class Table:
    """Four players at the partner race, the camera's pictures and the panel's buttons."""

    def __init__(self, companion: Companion) -> None:
        self.companion, self.session = companion, companion.session
        self.client = create_app(companion).test_client()
        self.now = 0.0
        self.session.clock = lambda: self.now  # the hold time of a move part-way passes when the story says

    def post(self, path: str, body: object = None) -> Any:
        return self.client.post(path, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})

    def state(self) -> dict[str, Any]:
        return self.client.get("/api/state").get_json()

    def camera(self, picture: Picture) -> None:
        """The camera settles on ``picture``; left so past the hold time with nothing moving."""
        self.session.on_stable_change(picture)
        if self.session.status.step is not None:
            self.now += self.session.step_hold + 1
            self.session.step_overdue()

    def expected(self, without: Sequence[str] = (), **moved: str) -> dict[str, list[str]]:
        """The game's position as a picture, some pieces unseen (``without``) or seen elsewhere."""
        out: dict[str, list[str]] = {}
        for cell, pieces in self.session.expected().items():
            for piece in pieces:
                if piece not in without:
                    out.setdefault(moved.get(piece.replace("-", "_"), cell), []).append(piece)
        return out

    def out_of_sync(self) -> dict[str, Any] | None:
        return self.state()["out_of_sync"]

    def in_sync(self) -> bool:
        return self.out_of_sync() is None and self.session.status.step is None

    def set_up(self, **where: str) -> None:
        """The players put pawns where the story needs them: corrected on the panel, the table follows."""
        for pawn, cell in where.items():
            res = self.post("/api/correction", {"piece": pawn.replace("_", "-"), "cell": cell})
            assert res.status_code == 200, res.get_json()
        self.camera(self.expected())
        assert self.in_sync()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    companion = Companion(sim_config(tmp_path, **{"game.name": "partner-race"}), out=io.StringIO())
    t = Table(companion)
    assert t.post("/api/games", {"game": "partner-race", "players": [{}, {}, {}, {}], "seed": 3}).status_code == 200
    t.camera(t.expected())  # the camera checks the set-up
    assert not t.session.status.verifying and t.in_sync()
    yield t
    companion.stop()


def test_a_pawn_the_camera_misses_is_taken_as_the_game_has_it_and_not_asked_about_again(table: Table):
    """Yellow-2 on T11 beside green-2 on T12, and the camera does not see yellow-2: the players say
    the table is right. The same picture again is in sync; a card played meanwhile is read; once
    the camera sees yellow-2 again, it is judged as usual."""
    table.set_up(yellow_2="T11", green_2="T12")
    table.camera(table.expected(without=["yellow-2"]))
    sync = table.out_of_sync()
    assert sync and [m["piece"] for m in sync["pieces"]] == ["yellow-2"]
    res = table.post("/api/correction", {"as_game": True})
    assert res.status_code == 200 and res.get_json()["excused"] == [
        {"piece": "yellow-2", "belongs": "T11", "seen": None}]
    assert table.in_sync()
    table.camera(table.expected(without=["yellow-2"]))
    assert table.in_sync()  # not accused again while it stays unseen where the game has it
    history = len(table.state()["history"])
    play = table.expected(without=["yellow-2"], yellow_1="start-yellow")  # yellow plays on, yellow-2 unseen
    play["card-spot"] = ["card-start"]
    table.camera(play)
    assert table.in_sync() and table.state()["history"][history:] == ["play yellow start yellow-1:start"]
    table.camera(table.expected())  # yellow-2 seen again: nothing to excuse any more
    assert table.in_sync() and table.session.status.excused == {}


def test_accept_the_board_with_pawns_not_seen_says_what_it_does_instead_of_refusing(table: Table):
    """The report's dead end: blue-4 (stacked on blue-1) and yellow-2 not seen, "every pawn is
    somewhere". Accepting the board now keeps them where the game has them and says so."""
    table.set_up(blue_1="T30", blue_4="T30", yellow_2="T11", green_2="T12")
    table.camera(table.expected(without=["blue-4", "blue-1", "yellow-2"]))
    assert table.out_of_sync()
    preview = table.post("/api/correction", {"preview": True}).get_json()["preview"]
    assert preview["actions"] == [] and preview["pieces"] == []
    assert preview["kept"] == [{"piece": "blue-1", "cell": "T30"}, {"piece": "blue-4", "cell": "T30"},
                               {"piece": "yellow-2", "cell": "T11"}]
    history = table.state()["history"]
    assert table.post("/api/correction", {"accept": True}).status_code == 200
    assert table.in_sync() and table.state()["history"] == history  # nothing logged: the game was right


def test_accept_the_board_records_what_moved_and_keeps_what_is_not_seen(table: Table):
    """Green-2 is seen on T20 (really moved there) while yellow-2 is not seen: the correction moves
    green-2 and keeps yellow-2 where the game has it."""
    table.set_up(yellow_2="T11", green_2="T12")
    table.camera(table.expected(without=["yellow-2"], green_2="T20"))
    assert table.out_of_sync()
    preview = table.post("/api/correction", {"preview": True}).get_json()["preview"]
    assert preview["actions"] == ["correct green-2:T12>T20"]
    assert preview["kept"] == [{"piece": "yellow-2", "cell": "T11"}]
    assert table.post("/api/correction", {"accept": True}).status_code == 200
    assert table.in_sync() and table.state()["history"][-1] == "correct green-2:T12>T20"


def test_correct_one_piece_works_against_the_disagreement_as_it_is_now(table: Table):
    """The camera reads red-3 on T40 (a misread: the players see it at home, where the game has it)
    and misses green-1. Tapping each where it really stands (the game's own cells) is no longer
    "nothing to correct": each is excused and the game is in sync; a piece really elsewhere is moved."""
    table.camera(table.expected(without=["green-1"], red_3="T40"))
    sync = table.out_of_sync()
    assert sync and {m["piece"] for m in sync["pieces"]} == {"green-1", "red-3"}
    assert table.post("/api/correction", {"piece": "red-3", "cell": "home-red-3"}).status_code == 200
    assert [m["piece"] for m in table.out_of_sync()["pieces"]] == ["green-1"]  # what is left of it
    assert table.post("/api/correction", {"piece": "green-1", "cell": "home-green-1"}).status_code == 200
    assert table.in_sync()
    res = table.post("/api/correction", {"piece": "yellow-1", "cell": "home-yellow-1"})  # seen where it is
    assert res.status_code == 409 and "nothing to correct" in res.get_json()["error"]
    assert table.post("/api/correction", {"piece": "yellow-4", "cell": "start-yellow"}).status_code == 200
    assert table.state()["history"][-1] == "correct yellow-4:home>start"


def test_a_card_on_the_spot_the_camera_misses_and_a_card_nobody_played(table: Table):
    """The start card lies on the spot but the camera does not see it: the table is right, and the next card
    is read over it. Then a 9 appears on the spot with no pawn moved, left so: accepting the board
    records it as the card on top (a correction), or putting it back ends it."""
    play = table.expected(yellow_1="start-yellow")
    play["card-spot"] = ["card-start"]
    table.camera(play)
    assert table.in_sync() and table.state()["last_card"] == "start"
    table.camera(table.expected(without=["card-start"]))
    assert table.out_of_sync()
    assert table.post("/api/correction", {"as_game": True}).status_code == 200 and table.in_sync()
    play = table.expected(without=["card-start"], green_1="start-green")
    play["card-spot"] = ["card-start"]  # another start laid on the one the camera missed
    table.camera(play)
    if table.state()["decision"]:  # "was another start played?" - yes
        assert table.post("/api/decide", {"option": 0, "question_id": table.state()["question_id"]}).status_code == 200
    assert table.in_sync() and table.state()["history"][-1].startswith("play green start green-1")
    laid = table.expected()
    laid["card-spot"] = ["card-9"]
    table.camera(laid)  # a 9 laid and no pawn moved, left so past the hold time
    assert table.out_of_sync()
    table.camera(table.expected())  # the safe way: the card taken back
    assert table.in_sync()
    table.camera(laid)
    assert table.post("/api/correction", {"accept": True}).status_code == 200
    assert table.in_sync() and table.state()["last_card"] == "9"


def test_a_stack_whose_top_pawn_is_misread_is_left_through_the_panel(table: Table):
    """Blue-4 landed on blue-1 on T30; the camera reads the top one a space off (T31) and so cannot
    know blue-1 beneath: both are accused. "The table is right" clears it; the picture changing
    again (blue-4 read where it stands) is in sync of itself."""
    table.set_up(blue_1="T30", blue_4="T30")
    misread = table.expected(without=["blue-1"], blue_4="T31")
    table.camera(misread)
    sync = table.out_of_sync()
    assert sync and {m["piece"] for m in sync["pieces"]} == {"blue-1", "blue-4"}
    assert table.post("/api/correction", {"as_game": True}).status_code == 200 and table.in_sync()
    table.camera(misread)
    assert table.in_sync()
    table.camera(table.expected(without=["blue-1"]))  # read right again: blue-1 beneath is the game's
    assert table.in_sync() and table.session.status.excused == {}


def test_every_way_out_is_refused_plainly_when_there_is_nothing_to_leave(table: Table):
    for body in ({"as_game": True}, {"accept": True}, {"preview": True}):
        res = table.post("/api/correction", body)
        assert res.status_code == 409 and res.get_json()["error"], body


# ------------------------------------------------------------------ look-alike pieces: the tile race
TILES = {"B3": "T20", "C2": "T07", "C3": "T11", "C5": "T02", "D4": "T33"}
WALLS = {"B3|C3": "W04", "E6|E7": "W09"}


def race_table(table: Table, tiles: Sequence[str], walls: Sequence[str]) -> dict[str, list[str]]:
    """The tile race's table as the camera reads it: the pawns where the game has them, tiles and walls
    on the places given, each a printed piece taken from the box in no particular order."""
    out = {c: [p for p in ps if "-" in p and not p.startswith("mountain")]  # the pawns
           for c, ps in table.session.expected().items()}
    for cell, piece in zip(tiles, ("T39", "T05", "T17", "T23", "T31", "T12", "T28", "T09"), strict=False):
        out.setdefault(cell, []).append(piece)
    for cell, piece in zip(walls, ("W11", "W02", "W07"), strict=False):
        out.setdefault(cell, []).append(piece)
    return {c: ps for c, ps in out.items() if ps}


@pytest.fixture
def race(tmp_path: Path) -> Iterator[Table]:
    """Two players at the tile race, five tiles and two walls on the grid (set up as a correction)."""
    companion = Companion(sim_config(tmp_path, **{"game.name": "tile-race"}), out=io.StringIO())
    t = Table(companion)
    assert t.post("/api/games", {"game": "tile-race", "players": [{}, {}], "seed": 1}).status_code == 200
    t.camera(t.expected())
    laid = t.expected()
    for cell, piece in {**TILES, **WALLS}.items():
        laid.setdefault(cell, []).append(piece)
    t.session.accept_correction(laid)
    t.camera(race_table(t, list(TILES), list(WALLS)))
    assert t.in_sync()
    yield t
    companion.stop()


def test_a_tile_laid_a_square_off_is_one_tile_to_put_back_not_a_chain_of_tiles(race: Table):
    """The tile on C2 lies on E2: the tiles numbered after it are where they were. One tile, said by kind
    and place; putting it back, or saying the table is right, or accepting the board each ends it."""
    misplaced = race_table(race, ["B3", "E2", "C3", "C5", "D4"], list(WALLS))
    race.camera(misplaced)
    sync = race.out_of_sync()
    assert sync and [(m["belongs"], m["seen"], m.get("alike")) for m in sync["pieces"]] == [("C2", "E2", True)]
    assert sync["offenders"] == [sync["pieces"][0]["piece"]], "one tile marked on the board, not every one after it"
    race.camera(race_table(race, list(TILES), list(WALLS)))  # put back
    assert race.in_sync()
    race.camera(misplaced)
    assert race.post("/api/correction", {"as_game": True}).status_code == 200 and race.in_sync()
    race.camera(misplaced)
    assert race.in_sync(), "not asked about again while it stays so"
    race.camera(race_table(race, list(TILES), list(WALLS)))  # the camera reads it right again
    assert race.in_sync() and race.session.status.excused_alike == []
    race.camera(misplaced)
    preview = race.post("/api/correction", {"preview": True}).get_json()["preview"]
    assert [(m["belongs"], m["seen"]) for m in preview["pieces"]] == [("C2", "E2")]
    assert race.post("/api/correction", {"accept": True}).status_code == 200 and race.in_sync()
    assert {c for c, ps in race.session.expected().items() if any(p.startswith("T") for p in ps)} == \
        {"B3", "E2", "C3", "C5", "D4"}


def test_tiles_missing_from_two_places_and_come_on_two_others_are_said_place_by_place(race: Table):
    race.camera(race_table(race, ["B3", "C5", "D4", "E2", "F2"], list(WALLS)))
    sync = race.out_of_sync()
    assert sync and [(m["belongs"], m["seen"]) for m in sync["pieces"]] == [
        ("C2", None), ("C3", None), (None, "E2"), (None, "F2")]
    assert ("the camera sees a tile on E2 and a tile on F2 that the game does not have; it does not see a tile on C2 "
            "or a tile on C3") in sync["reason"] and "T0" not in sync["reason"], sync["reason"]
    assert race.post("/api/correction", {"as_game": True}).status_code == 200 and race.in_sync()


def test_a_wall_read_on_another_edge_is_no_dead_end(race: Table):
    """The camera reads the wall between B3 and C3 on the edge between F2 and F3. "The table is right as
    the game has it" ends it, and the same picture is not accused again; the camera reading the wall
    where it stands ends the excuse."""
    race.camera(race_table(race, list(TILES), ["F2|F3", "E6|E7"]))
    sync = race.out_of_sync()
    assert sync and [(m["belongs"], m["seen"]) for m in sync["pieces"]] == [("B3|C3", "F2|F3")]
    assert race.post("/api/correction", {"as_game": True}).status_code == 200 and race.in_sync()
    race.camera(race_table(race, list(TILES), ["F2|F3", "E6|E7"]))
    assert race.in_sync()
    race.camera(race_table(race, list(TILES), list(WALLS)))
    assert race.in_sync() and race.session.status.excused_alike == []


def test_an_undo_is_a_calm_step_naming_the_tile_it_takes_back(race: Table):
    """A tile laid on E5 beside the one on F5, then undone: the hands take the tile off E5 (a calm
    step, F5 keeps its tile) that waits for hands however long nobody touches the table."""
    laid = race.expected()
    laid.setdefault("F5", []).append("T40")
    race.session.accept_correction(laid)
    laid.setdefault("E5", []).append("T38")
    race.session.accept_correction(laid)
    on_table = race_table(race, [*TILES, "E5", "F5"], list(WALLS))
    race.camera(on_table)
    assert race.in_sync()
    assert race.post("/api/undo").status_code == 200
    step = race.state()["step"]
    assert race.out_of_sync() is None and step["says"] == "undone, now on the table: take a tile off E5"
    race.camera(on_table)  # nobody has come to the table yet, past the hold time: calm, waiting for hands
    step = race.state()["step"]
    assert race.out_of_sync() is None and step["waiting"] and step["make"] == \
        "Make it on the table: take a tile off E5 (undone)"
    race.camera(race_table(race, [*TILES, "F5"], list(WALLS)))
    assert race.in_sync()


def test_a_wall_stood_on_a_square_is_not_promised_a_place_it_cannot_have(race: Table):
    """A wall stand set on B1 (a square, not an edge): the game has no place for it. Accepting the board
    would record nothing, so it is refused with what to do instead of logging an empty correction. With
    a tile really moved as well, the preview promises only the tile, says the wall cannot be recorded,
    and the log says what the correction changed."""
    on_square = race_table(race, list(TILES), list(WALLS))
    on_square.setdefault("B1", []).append("W07")
    race.camera(on_square)
    assert race.out_of_sync()
    history = race.state()["history"]
    for body in ({"preview": True}, {"accept": True}):
        res = race.post("/api/correction", body)
        assert res.status_code == 409, body
        assert res.get_json()["error"] == "a wall on B1: the game has no place for a wall there — take it off"
    assert race.state()["history"] == history and race.out_of_sync()

    moved = race_table(race, ["B3", "E2", "C3", "C5", "D4"], list(WALLS))
    moved.setdefault("B1", []).append("W07")
    race.camera(moved)
    preview = race.post("/api/correction", {"preview": True}).get_json()["preview"]
    assert [(m["belongs"], m["seen"]) for m in preview["pieces"]] == [("C2", "E2")]
    assert preview["cannot"] == ["a wall on B1: the game has no place for a wall there — take it off"]
    assert preview["says"] == ["The table was corrected by hand: a tile on E2, not C2"]
    assert race.post("/api/correction", {"accept": True}).status_code == 200
    assert race.state()["log"][-1] == preview["says"][0], "the log says what the preview promised"
    assert race.out_of_sync(), "the wall on B1 is still to be taken off"
    race.camera(race_table(race, ["B3", "E2", "C3", "C5", "D4"], list(WALLS)))
    assert race.in_sync()


def test_a_correction_says_what_it_changed_on_the_board_the_replay_and_the_journal(race: Table):
    """Blue pawn 1 is put on C7 by a correction of one piece: the Board page's log, the Replay page and
    the journal each say where it now stands and where the game had it, in the players' words."""
    before = race.state()
    assert race.post("/api/correction", {"piece": "blue-1", "cell": "C7"}).status_code == 200
    told = "The table was corrected by hand: blue pawn 1 on C7, not the start space above G7"
    assert race.state()["log"][-1] == told
    game = before["game"]
    steps = race.client.get(f"/api/games/{game}/replay?step=0").get_json()["steps"]
    replayed = race.client.get(f"/api/games/{game}/replay?step={steps}").get_json()
    assert replayed["log"][-1] == told
    journal = race.companion.out.getvalue()
    assert "changed=blue pawn 1 on C7, not the start space above G7" in journal
