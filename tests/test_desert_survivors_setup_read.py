"""Desert survivors' mapboards read by the camera at setup: the desert laid on the table is the game's.

Each mapboard carries its own four corner markers, printed in its corner spaces. The players lay the
boards any way they like; on the Setup page "Read from the table" reads where each lies and how it
is turned, the game checks the arrangement (half of the boards with an oasis, rounded up; edges
meeting) and the game created from it is played on that desert. The simulated table draws any
arrangement with the boards' markers, so each story lays a desert and reads it back.
"""

from __future__ import annotations

import re

import io
import json
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

from companion.app.cli import main
from companion.errors import AnswerError, BoardFileError
from companion.games import get_game
from companion.games.assembly import Laid, canonical
from companion.games.desert_survivors import layout as boards
from companion.games.desert_survivors.board import arrangement_text, parse_arrangement, random_arrangement
from companion.games.desert_survivors.pieces import groups_for
from vision.assembly import AssemblyError, read_frame
from vision.detect import BoardDetector
from vision.render import Effects, make_pose, random_pose, render

GAME = get_game("desert-survivors")
BOARD = boards.load()
MAPBOARDS = GAME.assembly()
SIM = Effects(blur_sigma=0.4, noise_sigma=2.0, light_low=0.85)  # the simulated camera's picture


def as_read(arrangement) -> tuple[Laid, ...]:
    return canonical(MAPBOARDS, [Laid(str(p.board), p.x, p.y, p.turn) for p in arrangement])


def test_every_mapboard_has_its_own_four_corner_markers_on_the_sticker_sheet(tmp_path, capsys):
    own = BOARD.mapboard_markers()
    ids = [m for ms in own.values() for m in ms]
    assert sorted(own) == [1, 2, 3, 4, 5, 6] and len(set(ids)) == 24
    assert not set(ids) & (set(BOARD.markers().values()) | set(BOARD.backs().values()) | set(BOARD.fiducials))
    assert main(["markers", "--game", "desert-survivors", "-o", str(tmp_path / "stickers.pdf")]) == 0
    assert "wrote" in capsys.readouterr().out
    said = " ".join(re.findall(r"\((.*?)\) Tj", (tmp_path / "stickers.pdf").read_bytes().decode("latin-1")))
    for board, (tl, tr, br, bl) in own.items():
        for marker, corner in ((tl, "top left"), (tr, "top right"), (br, "bottom right"), (bl, "bottom left")):
            assert f"mapboard {board} {corner} #{marker}" in said  # its place, then its number (wrapped to its box)


def test_a_board_file_without_the_mapboards_markers_loads_with_the_arrangement_typed_and_a_clash_is_named(tmp_path):
    text = (Path(boards.__file__).parent / "boards" / "standard.toml").read_text()
    older = tmp_path / "older.toml"
    older.write_text(text.replace("mapboards = 256", ""))
    assert GAME.assembly(str(older)) is None
    asked = next(q for q in GAME.setup_schema(str(older)) if q["name"] == "arrangement")
    assert "read_from_table" not in asked and "camera" not in asked["help"]
    clash = tmp_path / "clash.toml"
    clash.write_text(text.replace("mapboards = 256", "mapboards = 250"))
    with pytest.raises(BoardFileError, match=r"clash.toml: markers: .* the mapboards' corner markers \(24 from "
                                             r"'mapboards'\) must not share ids"):
        boards.load(str(clash))
    tight = tmp_path / "tight.toml"
    tight.write_text(text.replace("mapboard_marker_mm = 20.0", "mapboard_marker_mm = 24.0"))
    with pytest.raises(BoardFileError, match=r"board.mapboard_marker_mm: a mapboard's corner marker and its inset"):
        boards.load(str(tight))


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 4), (5, 2), (6, 3)])
def test_a_desert_laid_any_way_is_read_back_from_the_table_and_played_on(players, seed):
    laid = random_arrangement(len(groups_for(players)), seed)
    assert any(p.turn for p in laid)  # boards turned, as players lay them
    table = GAME.layout(replace(GAME.new_game(players, seed), arrangement=laid))
    truth = as_read(laid)
    for look in range(2):  # two camera places over the same table
        pose = random_pose(table, np.random.default_rng(10 * seed + look), max_tilt=25.0, marker_px=(18.0, 22.0))
        read = read_frame(render(table, {}, pose, SIM, seed=seed).frame, MAPBOARDS)
        assert canonical(MAPBOARDS, read) == truth
    # the reading is the game's arrangement: it passes the rules' check and the new game lies on it
    answer = MAPBOARDS.answer(read)
    MAPBOARDS.check(answer, players)
    state = GAME.new_game(players, seed, arrangement=answer)
    assert as_read(state.arrangement) == truth
    assert {c.facts["mapboard"] for c in GAME.layout(state).cells.values()} == {p.board for p in laid}


def test_a_camera_square_to_the_table_reads_the_desert_as_the_players_see_it():
    laid = parse_arrangement("3@A1/90 5@D1 6@D4/180")
    table = GAME.layout(replace(GAME.new_game(3, 0), arrangement=laid))
    frame = render(table, {}, make_pose(table, 12.0, 40.0, 0.0, 20.0), SIM).frame
    assert MAPBOARDS.answer(read_frame(frame, MAPBOARDS)) == "3@A1/90 5@D1 6@D4/180"
    # at play the same markers are the board's own: the camera names none of them unknown
    seen = BoardDetector(table).detect(frame)
    assert seen.board_found and seen.unknown_markers == []


def test_what_the_rules_refuse_of_a_desert_read_is_said_with_the_reading():
    laid = parse_arrangement("4@A1 5@E1 6@A4")  # three boards, none of them with an oasis
    table = GAME.layout(replace(GAME.new_game(3, 0), arrangement=laid))
    answer = MAPBOARDS.answer(read_frame(render(table, {}, make_pose(table, 10.0, 0.0, 0.0, 20.0)).frame, MAPBOARDS))
    assert answer == "4@A1 5@E1 6@A4"
    with pytest.raises(AnswerError, match=r"mapboards: 3 laid, but this game needs 4"):
        MAPBOARDS.check(answer, 4)
    with pytest.raises(AnswerError, match=r"mapboards: 0 with an oasis, but half of the 3 boards, rounded up, must "
                                          r"have one: 2"):
        MAPBOARDS.check(answer, 3)


def test_a_mapboard_pushed_half_a_space_along_its_neighbour_is_named():
    laid = parse_arrangement("1@A1 4@E1 2@A4")
    table = GAME.layout(replace(GAME.new_game(3, 0), arrangement=laid))
    # board 4 lies 25 mm lower than its neighbour: its corner markers are drawn where it lies
    moved = {}
    for name, cell in table.cells.items():
        marks = [dict(m, center_mm=[m["center_mm"][0], m["center_mm"][1] + 25.0])
                 if m["label"].startswith("mapboard 4 ") else m for m in cell.facts.get("printed_markers", ())]
        moved[name] = replace(cell, facts={**cell.facts, "printed_markers": marks}) if marks else cell
    askew = replace(table, cells=MappingProxyType(moved))
    frame = render(askew, {}, make_pose(askew, 15.0, 120.0, 30.0, 20.0), SIM).frame
    with pytest.raises(AssemblyError, match=r"mapboard 4 is not edge to edge with its neighbour: it lies 25 mm off"):
        read_frame(frame, MAPBOARDS)


def test_the_setup_page_reads_the_table_into_the_mapboards_answer_and_creates_the_game_on_it(tmp_path):
    from companion.app.run import Companion
    from tests.tables import sim_config
    from vision.live import LiveCamera
    from web_ui import create_app

    companion = Companion(sim_config(tmp_path / "data"), out=io.StringIO())
    client = create_app(companion).test_client()

    def call(path: str, body: object) -> tuple[int, dict]:
        res = client.post(path, data=json.dumps(body), headers={"Content-Type": "application/json"})
        return res.status_code, res.get_json()

    schema = client.get("/api/setup/choices").get_json()["games"]
    asked = next(q for g in schema if g["name"] == "desert-survivors" for q in g["schema"] if q["name"] == "arrangement")
    assert asked["kind"] == "text" and asked["read_from_table"] is True
    assert not any(q.get("read_from_table") for g in schema if g["name"] != "desert-survivors" for q in g["schema"])
    code, said = call("/api/setup/read-board", {"game": "desert-survivors", "players": 3})
    assert code == 409 and "no camera is running" in said["error"]
    code, said = call("/api/setup/read-board", {"game": "fog", "players": 3})
    assert code == 400 and "nothing to read from the table" in said["error"]

    laid = parse_arrangement("2@A1 6@E1/90 3@A4")
    table = GAME.layout(replace(GAME.new_game(3, 0), arrangement=laid))
    camera = LiveCamera(object(), table)
    companion.camera = camera
    camera.latest_frame = render(table, {}, make_pose(table, 20.0, 200.0, 0.0, 20.0), SIM, seed=3).frame
    code, said = call("/api/setup/read-board", {"game": "desert-survivors", "players": 3})
    assert code == 200 and said["answer"] == "2@A1 6@E1/90 3@A4" and said["problem"] is None
    assert said["question"] == "arrangement" and len(said["parts"]) == 3
    code, said = call("/api/setup/read-board", {"game": "desert-survivors", "players": 4})
    assert code == 200 and said["problem"].startswith("mapboards: 3 laid, but this game needs 4")
    code, _ = call("/api/games", {"game": "desert-survivors", "players": [{}, {}, {}], "seed": 9,
                                  "answers": {"arrangement": "2@A1 6@E1/90 3@A4"}})
    assert code == 200
    assert arrangement_text(companion.session.state.arrangement) == "2@A1 6@E1/90 3@A4"

    camera.latest_frame = np.full((720, 1280, 3), 90, np.uint8)  # the boards taken away
    code, said = call("/api/setup/read-board", {"game": "desert-survivors", "players": 3})
    assert code == 409 and said["error"].startswith("no mapboard seen")
    companion.stop()
