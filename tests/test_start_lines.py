"""The README's start lines, typed one after another on one data directory, as a newcomer does.

Each line that names a game starts that game (the one that ran waits, paused, on the Games page);
a bare ``run`` resumes the last one started.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from companion.games import get_game

ROOT = Path(__file__).resolve().parent.parent
START_LINE = re.compile(r"`python3 bootstrap\.py run run ([^`]*)`")


def run_line(options: list[str], data_dir: Path) -> str:
    """``python3 bootstrap.py run run OPTIONS`` as bootstrap runs it, its terminal told to quit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_DATA_DIR": str(data_dir)}
    done = subprocess.run([sys.executable, "-m", "companion", "run", *options, "--no-panel", "--console"],
                          input="quit\n", capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_each_readme_start_line_gives_its_game_and_a_bare_run_resumes_the_last(tmp_path: Path):
    lines = [m.group(1).split() for m in START_LINE.finditer((ROOT / "README.md").read_text(encoding="utf-8"))]
    named = [(opts, opts[opts.index("--game") + 1] if "--game" in opts else "fog") for opts in lines]
    assert {name for _, name in named} == {"fog", "partner-race", "tile-race", "island-battle", "desert-survivors"}
    before = None
    for options, name in named:
        said = run_line(options, tmp_path)
        title = get_game(name).title
        started = re.search(r"^new game (\S+) \((.*)\)$", said, re.M)
        assert started and started.group(2) == title, f"{' '.join(options)} gave:\n{said}"
        if before is not None:  # the game that ran waits on the Games page, and the terminal says so
            assert f"game {before[0]} ({before[1]}) is paused: resume it from the panel's Games page" in said, said
        before = (started.group(1), title)
    said = run_line([], tmp_path)
    assert f"resumed game {before[0]} ({before[1]})" in said, said
    listed = subprocess.run([sys.executable, "-m", "companion", "games", "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    statuses = [line.split()[3] for line in listed.stdout.splitlines()]
    assert statuses == ["paused"] * (len(named) - 1) + ["playing"], listed.stdout
    titles = [line.split(" events  ")[1] for line in listed.stdout.splitlines()]  # each by its game, never its id
    assert titles == [get_game(name).title for _, name in named], listed.stdout


def test_the_game_a_start_line_paused_is_said_on_every_page_of_the_panel(tmp_path: Path):
    import io

    from companion.games import command_line_answers, new_game
    from companion.app.run import Companion
    from tests.tables import sim_config
    from web_ui.model import state_json

    def started(name: str) -> Companion:
        game = get_game(name)
        players, answers = command_line_answers(game, None)
        return Companion(sim_config(tmp_path, **{"game.name": name}),
                         lambda: new_game(game, players, 1, answers, files=True), out=io.StringIO())

    first = started("tile-race")
    running = first.session.game_id
    first.stop()
    second = started("island-battle")
    try:
        notices = state_json(second)["storage"]["notices"]
        assert "The Tile race game that was running is paused: resume it from the Games page" in notices, notices
        assert running not in " ".join(notices)  # in words: the game's id is the terminal's
        assert second.session.game.name == "island-battle"
    finally:
        second.stop()


def test_a_start_line_whose_panel_port_is_taken_begins_and_pauses_nothing(tmp_path: Path):
    """Another program holds the panel's port: the start line that names a game says which port is
    taken and what to do, exits, and the game that ran is still the one a bare ``run`` resumes."""
    import socket

    said = run_line(["--game", "tile-race", "--players", "2", "--seed", "3"], tmp_path)
    running = re.search(r"^new game (\S+) \(Tile race\)$", said, re.M)
    assert running, said
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_DATA_DIR": str(tmp_path), "FOG_LED_BACKEND": "recording"}
        refused = subprocess.run([sys.executable, "-m", "companion", "run", "--game", "island-battle", "--players",
                                  "2", "--seed", "5", "--host", "127.0.0.1", "--port", str(port)],
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, cwd=ROOT,
                                 timeout=120)
    assert refused.returncode != 0
    assert f"port {port} is taken: another program already listens on 127.0.0.1:{port}" in refused.stderr
    assert f"Stop that program, or start the panel on another port: `--port {port + 1}`" in refused.stderr
    assert "Nothing was started: no game was begun or paused" in refused.stderr
    assert "Traceback" not in refused.stderr and "new game" not in refused.stdout, refused.stdout + refused.stderr
    assert f"resumed game {running.group(1)} (Tile race)" in run_line([], tmp_path)
    listed = subprocess.run([sys.executable, "-m", "companion", "games", "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert [line.split()[0] for line in listed.stdout.splitlines()] == [running.group(1)], listed.stdout
