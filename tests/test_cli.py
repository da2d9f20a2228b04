"""The command line as a person uses it: new-game, score, board, act, show and run."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.games import get_game, names
from companion.games.fog.state import GameState
from companion.app.terminal import play


def run_cli(*args: str, capsys) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_game_prints_a_state_that_parses_back(capsys):
    code, out, _ = run_cli("new-game", "--players", "3", "--seed", "5", "--options", "hourglass=60,enhanced",
                           "--json", capsys=capsys)
    assert code == 0
    state = GameState.from_json(out)
    assert state.seed == 5 and len(state.players) == 3 and state.options.hourglass_seconds == 60


def test_new_game_without_json_draws_the_beach(capsys):
    code, out, _ = run_cli("new-game", "--players", "4", "--seed", "1", capsys=capsys)
    assert code == 0 and "FOG on 12" in out and "###" in out


def test_score_prints_a_per_player_breakdown(tmp_path: Path, capsys):
    path = tmp_path / "game.json"
    assert main(["new-game", "--players", "2", "--seed", "3", "-o", str(path)]) == 0
    code, out, _ = run_cli("score", str(path), "--json", capsys=capsys)
    report = json.loads(out)
    assert code == 0 and set(report["colours"]) == {"black", "pink", "yellow", "white"}
    assert {"own_nation", "boat_areas", "lost", "preparation"} <= set(report["colours"]["black"]["categories"])
    assert len(report["standings"]) == 2


def test_board_json_has_the_geometry_the_camera_needs(capsys):
    code, out, _ = run_cli("board", "--json", capsys=capsys)
    geo = json.loads(out)
    assert code == 0 and geo["units"] == "mm" and geo["marker_dictionary"] == "DICT_4X4_100"
    assert len(geo["fiducials"]) == 4 and all({"id", "center_mm", "size_mm"} <= set(f) for f in geo["fiducials"])
    assert {"id": "A1", "kind": "beach"}.items() <= geo["cells"][0].items() or any(c["id"] == "A1" for c in geo["cells"])
    islander = next(p for p in geo["pieces"] if p["id"] == "blue-leader-1")
    assert islander == {**islander, "marker": 10, "kind": "islander", "size_mm": 14.0}


def test_act_applies_draft_picks_and_bad_input_is_one_clear_line(tmp_path: Path, capsys):
    path = tmp_path / "game.json"
    main(["new-game", "--players", "3", "--seed", "2", "-o", str(path)])
    state = GameState.from_json(path.read_text())
    pick = f"draft {state.active_colour} {sorted(state.where)[0]}"
    code, out, _ = run_cli("act", str(path), pick, capsys=capsys)
    assert code == 0 and GameState.from_json(out).history == (pick,)
    code, _, err = run_cli("act", str(path), "fly away", capsys=capsys)
    assert code == 2 and err.startswith("fog-companion act: error: cannot read action")
    path.write_text("{broken")
    code, _, err = run_cli("score", str(path), capsys=capsys)
    assert code == 2 and "not a JSON game state" in err and "Traceback" not in err


def test_a_state_file_names_its_game_so_show_act_and_score_need_no_game_option(tmp_path: Path, capsys):
    race = tmp_path / "race.json"
    assert main(["new-game", "--game", "partner-race", "--players", "4", "--seed", "3", "-o", str(race)]) == 0
    code, out, _ = run_cli("show", str(race), capsys=capsys)
    assert code == 0 and "to play" in out and "partner" in out
    rules = get_game("partner-race")
    first = str(rules.legal_actions(rules.from_json(race.read_text()))[0])
    code, out, _ = run_cli("act", str(race), first, "-o", str(race), capsys=capsys)
    assert code == 0 and json.loads(race.read_text())["history"] == [first]
    code, out, _ = run_cli("score", str(race), "--json", capsys=capsys)
    assert code == 0 and "pawns" in json.loads(out)
    code, out, _ = run_cli("render", str(race), "-o", str(tmp_path / "race.png"), "--clean", capsys=capsys)
    assert code == 0 and "16 of 16 markers fully visible" in out  # the race's table: 16 pawns

    # the FOG's first format had no "game": such a file is still The FOG's
    beach = tmp_path / "beach.json"
    main(["new-game", "--players", "2", "--seed", "1", "-o", str(beach)])
    old_format = json.loads(beach.read_text())
    del old_format["game"]
    beach.write_text(json.dumps(old_format))
    code, out, _ = run_cli("show", str(beach), capsys=capsys)
    assert code == 0 and "boat" in out


def test_a_game_option_against_the_file_or_an_unknown_game_is_one_clear_line(tmp_path: Path, capsys):
    race = tmp_path / "race.json"
    main(["new-game", "--game", "partner-race", "--players", "4", "-o", str(race)])
    code, _, err = run_cli("score", "--game", "fog", str(race), capsys=capsys)
    assert code == 2 and "holds a 'partner-race' game, but --game fog was given" in err
    chess = tmp_path / "chess.json"
    chess.write_text(json.dumps({**json.loads(race.read_text()), "game": "chess"}))
    code, _, err = run_cli("show", str(chess), capsys=capsys)
    assert code == 2 and "names the game 'chess', which this companion does not know" in err
    assert "fog, partner-race" in err and "Traceback" not in err


def test_unknown_options_and_player_counts_are_refused(capsys):
    code, _, err = run_cli("new-game", "--options", "turbo", capsys=capsys)
    assert code == 2 and "unknown option 'turbo'" in err
    code, _, err = run_cli("new-game", "--players", "5", capsys=capsys)
    assert code == 2 and "'players' = 5: The FOG: Escape from Paradise is played by 1, 2, 3 or 4 players" in err


def test_players_help_says_each_games_own_counts(capsys):
    """``run --help`` and ``new-game --help`` say the player counts every game takes, from the games:
    a player about to start the desert reads 2 to 6, not The FOG's 2, 3 or 4."""
    for command in ("run", "new-game"):
        try:
            main([command, "--help"])
        except SystemExit:
            pass
        said = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # argparse's wrapping undone
        for name in names():
            assert f"{name}: " in said, (command, name, said)
        assert "desert-survivors: 2 to 6" in said and "island-battle: 2;" in said, said
        assert "fog: 1 to 4 (1: solo, see --solo)" in said and "2, 3 or 4 (1 = solo" not in said, said


def test_an_answer_the_game_does_not_ask_or_allow_is_refused_by_name(capsys):
    """The command line's answers are checked against the game's setup questions, as the panel's are."""
    code, _, err = run_cli("new-game", "--game", "partner-race", "--options", "enhanced", capsys=capsys)
    assert code == 2 and "Partner card race asks no question 'options' (its questions: seats)" in err
    code, _, err = run_cli("new-game", "--players", "3", "--solo", "1", capsys=capsys)
    assert code == 2 and "'scenario' is asked only when players is 1, not 3" in err
    code, _, err = run_cli("new-game", "--solo", "99", capsys=capsys)
    assert code == 2 and "'scenario' = '99': one of 1, 2 (or the path of a file)" in err
    code, _, err = run_cli("new-game", "--players", "2", "--names", "Ada,Bo,Cy", capsys=capsys)
    assert code == 2 and "--names gives 3 names for 2 players" in err and "Traceback" not in err


def test_good_answers_reach_the_game(capsys):
    code, out, _ = run_cli("new-game", "--players", "2", "--names", "Ada,Bo", "--options", "enhanced", "--seed", "4",
                           "--json", capsys=capsys)
    state = GameState.from_json(out)
    assert code == 0 and state.options.enhanced_movements
    # two players play two colours each: the board's first and third, its second and fourth, as ever
    c = state.board_data.player_colours
    assert {p.name: p.colours for p in state.players} == {"Ada": (c[0], c[2]), "Bo": (c[1], c[3])}


def test_solo_game_from_a_scenario(capsys):
    code, out, _ = run_cli("new-game", "--solo", "2", "--json", capsys=capsys)
    state = GameState.from_json(out)
    assert code == 0 and state.mode == "solo" and state.scenario == "2" and state.phase == "moving"


def test_the_terminal_game_drafts_ends_turns_and_quits():
    state = GameState.from_json(subprocess.run(
        [sys.executable, "-m", "companion", "new-game", "--players", "3", "--seed", "1", "--json"],
        capture_output=True, text=True, check=True).stdout)
    first = sorted(i for i in state.where if "-" in i and not i.startswith(("rock", "bush", "drift")))[0]
    out = io.StringIO()
    assert play(state, stdin=io.StringIO(f"draft {first}\nundo\nfly\nscore\nquit\n"), stdout=out) == 0
    text = out.getvalue()
    assert "not possible: cannot read action 'fly'" in text and "black:" in text


def test_python_dash_m_companion_is_the_console_script():
    result = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("fog-companion ")


def test_the_readme_s_markers_line_writes_a_named_sheet_and_says_how_to_print_and_stick_it(tmp_path, capsys,
                                                                                        monkeypatch):
    """`fog-companion markers --game desert-survivors` as the README has it: no -o needed; the sheet
    is named after the game and the terminal says how to print it, how to check the print and what
    each sticker goes on."""
    monkeypatch.chdir(tmp_path)
    assert main(["markers", "--game", "island-battle"]) == 0
    said = capsys.readouterr().out
    assert (tmp_path / "island-battle-markers.pdf").stat().st_size > 0
    assert "wrote island-battle-markers.pdf" in said and 'print it at 100 % ("actual size"' in said
    assert "the bar at the foot of each page is 100 mm long" in said  # drawn on the sheet, said here
    assert "the black square of each of the board's corner markers measures 30 mm a side" in said
    for where in ("18 mm (cut along its circle): each soldier its label names (10)",
                  "14 mm: each block its label names (10)", "14 mm: each die its label names, one on each of its faces (6)",
                  "30 mm: the board's corner markers, each glued at the corner of the board its label names "
                  "(\"the board's top left corner marker\", …), where the board file puts them "
                  "(`fog-companion board --game island-battle` lists every place) (4)"):
        assert where in said, said


@pytest.mark.parametrize("game", ["fog", "partner-race", "tile-race", "island-battle", "desert-survivors"])
def test_the_markers_command_of_every_game_names_its_sheet_says_how_to_print_it_and_where_each_sticker_goes(
        game: str, tmp_path, capsys, monkeypatch):
    """What a player reads after `fog-companion markers --game G`: the file it wrote, named after the
    game; to print at actual size; the check bar's length and the corner markers' size; then a line for
    every sticker kind saying what it goes on, in the players' words (never a run-together id, never
    "where its label says"), the counts adding up to the stickers on the sheet."""
    from companion.games import get_game
    from vision.markers import corner_labels, sheet_items

    monkeypatch.chdir(tmp_path)
    assert main(["markers", "--game", game]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"wrote {game}-markers.pdf" and (tmp_path / f"{game}-markers.pdf").stat().st_size > 0
    assert lines[1] == 'print it at 100 % ("actual size"; never "fit to page"), on matte paper'
    assert lines[2].startswith("check the print with a ruler: the bar at the foot of each page is 100 mm long")
    assert "the black square of each of the board's corner markers measures 30 mm a side" in lines[2]
    assert lines[3] == "which sticker goes on which piece (each sticker's label says it, then its marker's number):"
    kinds = lines[4:]
    assert kinds[0].startswith("  30 mm: the board's corner markers, each glued at the corner of the board its label "
                               "names (\"the board's top left corner marker\", …)") and kinds[0].endswith("(4)")
    layout = get_game(game).layout()
    assert sorted(corner_labels(layout)) == sorted(f"the board's {v} {h} corner marker" for v in ("top", "bottom")
                                                   for h in ("left", "right"))
    for line in kinds:
        assert re.match(r"  \d+ mm( \(cut along its circle\))?: (each \w+ its label names|the )", line), line
        assert not re.search(r"boardcorner|board corner \d|where its label says|\w+-\d+|#\d", line), line
    assert sum(int(re.search(r"\((\d+)\)$", line).group(1)) for line in kinds) == len(sheet_items(layout))


def test_the_board_command_lists_every_place_of_the_tile_race(capsys):
    from companion.games import get_game

    assert main(["board", "--game", "tile-race"]) == 0
    lines = capsys.readouterr().out.splitlines()
    plan = get_game("tile-race").layout()
    listed = {line.split(":")[0] for line in lines}
    assert set(plan.cells) <= listed and "corner marker 0" in listed, lines[:5]
    assert "supply-tiles: supply (tile supply) at 597, 162.6 mm" in lines
