"""The companion as the Raspberry Pi installs it: a wheel, installed (not editable) into a new venv.

Every other test imports the source tree, where each game's boards and each page's files lie
beside the code; on the Pi, ``systemd/install.sh`` runs ``pip install src[pi]`` and the program
finds only what the wheel carries. So here the wheel is built from a copy of the tree (as
install.sh copies it), installed with its dependencies from PyPI into a fresh virtual environment,
and used from a folder outside the tree: for every game the installed program knows, the program
is started as the systemd unit starts it and a game is begun from its panel, as players do on a
fresh Pi, and a state file of the game is read back by ``show``, ``act`` and ``score``, which
learn the game from the file.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.tables import collect_output, http_call, wait_for
from tests.test_deployed import unit_settings

ROOT = Path(__file__).resolve().parent.parent
INSTALL_SH = ROOT / "systemd" / "install.sh"
# What a copy of the tree leaves out: what git ignores, and git itself (install.sh copies a clone).
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", "*.pyc",
                                    ".pytest_cache", ".hypothesis", "test-artifacts", "node_modules")
# The environment of a shell that would find the source tree, or a config, without being asked.
LEAKS = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "FOG_CONFIG", "FOG_DATA_DIR",
         "XDG_CONFIG_HOME", "XDG_DATA_HOME")
SLOW = 900  # seconds; a deadline for pip and for a start, never a measure of speed


@dataclass
class Installed:
    """A wheel of the tree, installed into its own venv, and a folder outside the tree to work in."""

    wheel: Path
    source: Path  # the copy of the tree the wheel was built from
    venv: Path
    work: Path
    env: dict[str, str]
    games: dict[str, list[int]] = field(default_factory=dict)  # as the installed program lists them

    @property
    def program(self) -> str:
        return str(self.venv / "bin" / "fog-companion")

    def python(self, code: str) -> str:
        """What the venv's Python prints running ``code`` in the work folder."""
        done = subprocess.run([str(self.venv / "bin" / "python"), "-c", code], cwd=self.work, env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=SLOW)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``fog-companion ARGS`` from the work folder, as a person types it there."""
        return subprocess.run([self.program, *args], cwd=self.work, env=self.env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=SLOW)


def must(step: str, args: list[str], **kw: object) -> None:
    """Run a step of the installation; a failure names the step and shows pip's own words."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=SLOW, **kw)  # type: ignore[call-overload]
    except subprocess.TimeoutExpired:
        pytest.fail(f"{step}: still not done after {SLOW} s (is PyPI reachable? CI has PyPI)")
    if done.returncode != 0:
        pytest.fail(f"{step} failed (exit code {done.returncode}; PyPI must be reachable, as it is in CI):\n"
                    f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("installed")
    source = base / "src"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    wheels = base / "wheels"
    env = {k: v for k, v in os.environ.items() if k not in LEAKS}
    must("building the wheel", [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(wheels),
                                "--disable-pip-version-check", "-q"], cwd=base, env=env)
    (wheel,) = wheels.glob("fog_companion-*.whl")
    venv = base / "venv"
    must("creating the venv", [sys.executable, "-m", "venv", str(venv)], cwd=base, env=env)
    must("installing the wheel and its dependencies from PyPI",
         [str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q",
          f"{wheel}[pi]"], cwd=base, env=env)
    work = base / "elsewhere"
    work.mkdir()
    home = base / "home"  # no config of the machine's user is read, nothing is written to their home
    home.mkdir()
    done = Installed(wheel, source, venv, work, {**env, "HOME": str(home), "LANG": "C.UTF-8"})
    done.games = json.loads(done.python(
        "import json; from companion.games import get_game, names\n"
        "print(json.dumps({n: sorted(get_game(n).players) for n in names()}))"))
    return done


def test_the_wheel_carries_every_file_the_program_reads_beside_its_code(installed: Installed):
    with zipfile.ZipFile(installed.wheel) as wheel:
        shipped = set(wheel.namelist())
    packages = {name.split("/")[0] for name in shipped if "/" in name and ".dist-info/" not in name}
    assert {"companion", "vision", "hardware", "web_ui"} <= packages
    files = [p.relative_to(installed.source) for pkg in packages for p in (installed.source / pkg).rglob("*")
             if p.is_file()]
    beside_code = {p.as_posix() for p in files
                   if p.suffix != ".py" and not any(part.startswith((".", "__pycache__")) for part in p.parts)}
    assert any(name.startswith("companion/games/") for name in beside_code)  # every game's boards are there
    assert any(name.startswith("web_ui/static/") for name in beside_code)
    assert sorted(beside_code - shipped) == [], "left out of the wheel: add a glob in pyproject.toml's package-data"
    assert not [name for name in shipped if name.endswith((".pyc", ".pyo"))]


def test_the_installed_program_is_the_venv_s_and_lists_every_game(installed: Installed):
    where = Path(installed.python("import companion; print(companion.__file__)").strip()).resolve()
    assert where.is_relative_to(installed.venv.resolve()), where
    assert not where.is_relative_to(ROOT) and not where.is_relative_to(installed.source), where
    assert installed.games and all(installed.games.values())
    helped = installed.cli("run", "--help")
    choices = re.search(r"--game \{([^}]*)\}", helped.stdout)  # how install checks read the list of games
    assert helped.returncode == 0 and choices, helped.stdout
    assert choices.group(1).split(",") == list(installed.games)


def panel_port(lines: list[str]) -> int | None:
    found = [m for line in lines if (m := re.match(r"panel: http://127\.0\.0\.1:(\d+)/", line))]
    return int(found[0].group(1)) if found else None


def page(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    res = conn.getresponse()
    body = res.read().decode("utf-8", "replace")
    conn.close()
    return res.status, body


def installed_config(folder: Path) -> Path:
    """The config file exactly as ``install.sh`` writes it on a fresh Pi."""
    written = re.search(r"<<'TOML'\n(.*?)\nTOML\n", INSTALL_SH.read_text(), re.S)
    assert written, "install.sh no longer writes its config with a <<'TOML' here-document"
    config = folder / "config.toml"
    config.write_text(written.group(1) + "\n")
    return config


def test_every_game_runs_as_the_service_starts_it_and_shows_on_the_panel(installed: Installed, tmp_path: Path):
    settings = unit_settings()
    exec_start = settings["ExecStart"][0].split()
    assert exec_start[0].endswith("/fog-companion") and exec_start[1] == "run", exec_start
    config = installed_config(tmp_path)
    env = {**installed.env, **dict(a.split("=", 1) for a in settings.get("Environment", []))}
    for name, players in installed.games.items():
        data = tmp_path / f"data-{name}"
        args = [a.replace("/etc/fog-companion/config.toml", str(config)) for a in exec_start[2:]]
        proc = subprocess.Popen([installed.program, "run", *args, "--game", name, "--host", "127.0.0.1",
                                 "--port", "0", "--data-dir", str(data), "--camera", "sim"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=env, cwd=installed.work)  # StandardInput=null
        lines = collect_output(proc)
        try:
            assert wait_for(lambda: panel_port(lines) or proc.poll() is not None, SLOW), "".join(lines)
            assert proc.poll() is None, f"{name}: exited at once (code {proc.returncode}):\n" + "".join(lines)
            port = panel_port(lines)
            assert port is not None
            code, state = http_call(port, "GET", "/api/state")
            # a start line that names a game starts it (README): its first phase, nothing played yet
            assert code == 200 and state["game_name"] == name and not state.get("history"), state
            status, body = page(port, "/")
            assert status == 200 and "<html" in body.lower(), body[:500]
            code, choices = http_call(port, "GET", "/api/setup/choices")
            assert code == 200 and [g["name"] for g in choices["games"]] == list(installed.games), choices
            # the players start another on the Setup page, pausing the one the start line began
            code, started = http_call(port, "POST", "/api/games",
                                      {"game": name, "players": [{} for _ in range(players[-1])], "seed": 1,
                                       "confirm": True})
            assert code == 200, started
            code, state = http_call(port, "GET", "/api/state")
            assert code == 200 and state["game_name"] == name, state
            assert state["game"] == started["game"] and state["phase"] != "setup", state  # live on the panel
            code, board = http_call(port, "GET", "/api/board")
            assert code == 200 and board["cells"], board
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            proc.wait(SLOW)
        text = "".join(lines)
        assert proc.returncode == 0, f"{name}: SIGTERM ended it with code {proc.returncode}:\n{text}"
        assert "stopped: LEDs off, camera released, log closed" in text and "Traceback" not in text, text


def test_every_game_s_state_file_is_read_by_show_act_and_score_without_naming_the_game(installed: Installed):
    for name, players in installed.games.items():
        state_file = f"{name}.json"
        made = installed.cli("new-game", "--game", name, "--players", str(players[-1]), "--seed", "1",
                             "-o", state_file)
        assert made.returncode == 0, made.stderr
        shown = installed.cli("show", state_file)
        assert shown.returncode == 0 and shown.stdout.strip() and not shown.stderr, shown.stderr
        action = installed.python(
            "import sys; from companion.games import get_game\n"
            f"game = get_game({name!r}); state = game.from_json(open({state_file!r}).read())\n"
            "print(game.legal_actions(state)[0])").strip()
        acted = installed.cli("act", state_file, action, "-o", f"{name}-after.json")
        assert acted.returncode == 0, f"{name}: act {action!r}: {acted.stderr}"
        before = json.loads((installed.work / state_file).read_text())
        after = json.loads((installed.work / f"{name}-after.json").read_text())
        assert after != before and after.get("game", name) == name
        scored = installed.cli("score", f"{name}-after.json")
        assert scored.returncode == 0 and scored.stdout.strip() and not scored.stderr, scored.stderr
