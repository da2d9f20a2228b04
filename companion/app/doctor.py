"""``fog-companion doctor``: every part checked, each problem printed with its fix.

It runs on a Pi that does not work yet, so each check catches its own failure and goes on:
one missing package or a camera in use never hides what else is wrong. The game log is only
read (a companion may be running on it): its damage is reported, and repaired by the next start.
"""

from __future__ import annotations

import logging
import os
import platform
import shutil
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.app.config import Config
from companion.errors import FogCompanionError
from companion.app.paths import default_data_dir

MIN_FREE_MB = 200


def doctor(args: Any, out: Any = None, environ: dict[str, str] | None = None) -> int:
    """Check Python, OpenCV, the config, the camera and fiducials, LEDs, GPIO, data directory and port."""
    from companion.app import config as config_mod

    out = out or sys.stdout
    problems = 0
    logging.disable(logging.WARNING)  # every finding is printed below, once, with its fix

    def report(ok: bool, what: str, detail: str, fix: str = "") -> None:
        nonlocal problems
        problems += 0 if ok else 1
        print(f"{'ok     ' if ok else 'PROBLEM'}  {what}: {detail}", file=out)
        if not ok and fix:
            print(f"         fix: {fix}", file=out)

    report(sys.version_info >= (3, 11), "python", platform.python_version(), "install Python 3.11 or newer")
    asked = {"camera.source": args.camera, "data.dir": args.data_dir}  # what the command line names wins
    try:
        config = config_mod.load(args.config, environ).with_overrides(asked)
        report(True, "config", str(config.source or "no file: every default"))
    except FogCompanionError as exc:
        report(False, "config", str(exc), "correct the key named above (docs/config.md lists every key)")
        config = config_mod.defaults().with_overrides(asked)  # the rest still checked where it was asked
    try:
        import cv2

        has_aruco = hasattr(cv2, "aruco") and hasattr(cv2.aruco, "ArucoDetector")
        report(has_aruco, "opencv", f"{cv2.__version__}" + ("" if has_aruco else " without cv2.aruco.ArucoDetector"),
               "pip install 'opencv-python-headless>=4.8' (python3 bootstrap.py run does this)")
    except ImportError as exc:
        report(False, "opencv", str(exc), "pip install 'opencv-python-headless>=4.8'")
    data_dir = Path(config["data"]["dir"]) if config["data"]["dir"] else default_data_dir(environ)
    _doctor_camera(config, report, data_dir)
    _doctor_hardware(config, report, environ)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".doctor-probe"
        probe.write_text("ok")
        probe.unlink()
        free_mb = shutil.disk_usage(data_dir).free / 1e6
        report(True, "data directory", f"{data_dir} is writable")
        report(free_mb >= MIN_FREE_MB, "disk space", f"{free_mb:,.0f} MB free in {data_dir}",
               f"free at least {MIN_FREE_MB} MB: the game log must never hit a full disk")
    except OSError as exc:
        report(False, "data directory", f"{data_dir}: {exc.strerror or exc}",
               "create it and give the companion's user write access (systemd/install.sh does this)")
    _doctor_game_log(data_dir / "games.db", report)
    host, port = config["panel"]["host"], config["panel"]["port"]
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
        report(True, "panel port", f"{host}:{port} is free")
    except OSError as exc:
        report(False, "panel port", f"{host}:{port}: {exc.strerror or exc} (is the companion already running?)",
               "stop the other program or set [panel] port in the config")
    print(f"{problems} problem(s) found" if problems else "everything looks fine", file=out)
    logging.disable(logging.NOTSET)
    return 1 if problems else 0


def _doctor_camera(config: Config, report: Callable[..., None], data_dir: Path) -> None:
    try:
        from companion.games import get_game
        from vision.detect import BoardDetector
        from vision.sources import open_source, redact
    except ImportError as exc:
        report(False, "camera", f"the camera code cannot load: {exc}", "pip install the project (bootstrap.py)")
        return
    cam = config["camera"]
    try:
        board = get_game(config["game"]["name"]).table.layout(board=config["game"]["board"])
    except FogCompanionError as exc:
        report(False, "board file", str(exc), "fix the board file or set [game] board = \"standard\"")
        return
    try:
        source = open_source(cam["source"], board=board, placement={}, width=cam["width"], height=cam["height"])
    except Exception as exc:  # noqa: BLE001 - any driver failure is a finding, not a crash of the doctor
        report(False, "camera", str(exc) if isinstance(exc, FogCompanionError) else
               f"{redact(cam['source'])}: {type(exc).__name__}: {exc}", "check the cable and `[camera] source`; `libcamera-hello` tests a Pi camera")
        return
    try:
        frame, deadline = None, time.monotonic() + 5
        while frame is None and time.monotonic() < deadline:
            try:
                frame = source.read()
            except Exception as exc:  # the camera opened but cannot deliver
                report(False, "camera", f"{redact(cam['source'])}: reading failed: {exc}", "reconnect the camera")
                return
            if frame is None:
                time.sleep(0.1)
    finally:
        source.close()
    if frame is None:
        report(False, "camera", f"{redact(cam['source'])}: no frame within 5 s", "check the camera is not used by "
               "another program (only one can hold it)")
        return
    report(True, "camera", f"{redact(cam['source'])}: {frame.shape[1]}x{frame.shape[0]} frame")
    obs = BoardDetector(board, lens=_doctor_lens(cam["lens"], data_dir, frame.shape, report),
                        above_mm=cam["above_board_mm"]).detect(frame)
    seen = sorted(obs.fiducials_seen)
    report(len(seen) >= 2, "fiducials", f"{len(seen)} of {len(board.fiducials)} corner markers seen {seen}",
           "point the camera at the whole board, light it evenly; the calibration page shows what it sees")
    if obs.camera is not None and any(board.height_of(p) > 10 for p in board.pieces):
        # tall pieces are read where they stand only with the camera's height right
        report(True, "camera height", f"tall pieces read with the {obs.camera.describe()}")


def _doctor_lens(setting: str, data_dir: Path, shape: tuple[int, ...], report: Callable[..., None]) -> Any:
    """The lens calibration, if any, read and checked against the camera's frames."""
    from vision.lens import LensError, find_lens

    try:
        lens = find_lens(setting, data_dir)
    except LensError as exc:
        report(False, "lens", str(exc), "make it again with `fog-companion calibrate-camera`, or set "
               "[camera] lens = \"none\"")
        return None
    if lens is None:
        report(True, "lens", "no calibration: read as a pinhole camera (docs/vision.md says when one is needed)")
        return None
    if lens.for_size(shape[1], shape[0]) is None:
        report(False, "lens", f"calibrated at {lens.size[0]}x{lens.size[1]}, but the camera gives {shape[1]}x{shape[0]} "
               "(another shape: the calibration is not used)", "calibrate again in this camera mode")
        return None
    report(True, "lens", f"calibrated from {lens.views} views at {lens.size[0]}x{lens.size[1]} "
           f"({lens.rms_px:.2f} px); at the picture's corners it moves points by {lens.edge_shift_px():.0f} px")
    return lens


def _doctor_hardware(config: Config, report: Callable[..., None], environ: dict[str, str] | None) -> None:
    try:
        from hardware.controls import Controls
        from hardware.output import make_strip

        from companion.app.run import controls_config, led_config
    except ImportError as exc:
        report(False, "hardware", f"the hardware code cannot load: {exc}", "pip install the project (bootstrap.py)")
        return
    try:
        strip, message = make_strip(led_config(config), environ)
        strip.close()
    except FogCompanionError as exc:
        report(False, "LEDs", str(exc), "fix [leds] in the config (docs/wiring.md)")
    else:
        wanted = (environ if environ is not None else os.environ).get("FOG_LED_BACKEND", config["leds"]["backend"])
        fell_back = "using the recording backend" in message
        # the simulated table (the default camera) on a machine with no strip: the recording backend is expected
        simulated = str(config["camera"]["source"]).strip().lower() == "sim"
        report(not fell_back or wanted == "recording" or simulated, "LEDs", message + (
            "; expected with the simulated table: the Board page shows the LEDs" if fell_back and simulated else ""),
               "on a Pi 4: install .[pi] and run as root for PWM, or use [leds] backend = \"spi\" "
               "(Pi 5: SPI only; enable it with raspi-config and add the user to the spi group)")
    controls = Controls(controls_config(config))
    try:
        mock = "mock pins" in controls.message
        report(not mock or simulated, "buttons", controls.message + (
            "; expected with the simulated table: the panel's buttons stand in" if mock and simulated else ""),
               "on a Pi add the user to the gpio group (systemd/install.sh does this); elsewhere the panel's "
               "buttons stand in")
    finally:
        controls.close()


def _doctor_game_log(path: Path, report: Callable[..., None]) -> None:
    """The game log, read only: its integrity, every game that does not read whole, the files kept aside."""
    import sqlite3

    from companion.store.damage import cut, text_value
    from companion.store.records import HighWater, judged
    from companion.store.store import STATUSES
    from companion.store.storefile import column_text

    start = "start the companion: it rebuilds broken indexes, or moves the file aside and recovers every readable row"
    for kept in sorted(path.parent.glob(path.name + ".corrupt-*")) + sorted(path.parent.glob(path.name + ".saved-*")):
        if not kept.name.endswith(("-wal", "-shm", ".partial")):
            report(False, "game log", f"{kept} was kept aside when the log was found damaged (its readable games "
                   "were recovered into the log)", f"check the games on the Games page, then delete {kept.name}")
    if not path.exists():
        report(True, "game log", f"{path} does not exist yet: it is made when the first game starts")
        return
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=10)
    except sqlite3.Error as exc:
        report(False, "game log", f"{path} cannot be opened: {exc}", start)
        return
    try:
        db.text_factory = text_value
        found = [str(r[0]) for r in db.execute("PRAGMA integrity_check(20)").fetchall()]
        if found != ["ok"]:
            report(False, "game log", f"{path}: the integrity check finds {'; '.join(found[:3])}", start)
        marks = HighWater(path, tidy=False)  # how far each game got, written apart from the file
        games = db.execute("SELECT id, status, note, setup, game FROM games NOT INDEXED ORDER BY created").fetchall()
        damaged = 0
        for game_id, status, note, setup, name in games:
            rows = db.execute("SELECT seq, at, kind, data FROM events " + ("" if found == ["ok"] else "NOT INDEXED ")
                              + "WHERE game_id=?", (game_id,))  # the index only when the integrity check trusts it
            events, unread = judged(str(game_id), rows.fetchall(), setup, marks.get(str(game_id)), marks.history)
            damage: object = unread
            if unread is None and status in ("playing", "paused"):  # it would be resumed: it must replay too
                damage = _unreplayable(str(game_id), str(name), setup, events)
            if damage is not None or status not in STATUSES or status == "damaged":
                damaged += 1
                said = (f"its status {cut(column_text(status), 40)!r} is none a fog-companion writes: the next start "
                        "keeps it as paused" if status not in STATUSES else
                        cut(column_text(note)) if status == "damaged" and note or damage is None else str(damage))
                report(False, "damaged game", f"{game_id} ({cut(column_text(status), 40)}): {said}",
                       f"it replays as far as it reads on the Games page; `fog-companion export {game_id}` gives "
                       "every row")
        for lost in set(marks.marks) - {str(g[0]) for g in games}:
            damaged += 1
            report(False, "damaged game", f"{lost}: missing from {path.name}, with its setup and "
                   f"{marks.marks[lost].seq} acknowledged event(s) (a damaged file, or one replaced by an older copy)",
                   start)
        if found == ["ok"] and not damaged:
            report(True, "game log", f"{path}: {len(games)} game(s), integrity ok, every game reads whole and as "
                   f"far as {marks.path.name} says it got")
    except sqlite3.Error as exc:
        report(False, "game log", f"{path} cannot be read: {exc}", start)
        known = sorted(HighWater(path, tidy=False).marks.values(), key=lambda m: m.game_id)
        if known:  # what the marks say was logged: the start says which of it comes back, and from where
            listed = ", ".join(f"{m.game_id} ({m.seq} events)" for m in known[:10])
            report(False, "game log", f"{len(known)} game(s) were logged in it: {listed}"
                   f"{f' and {len(known) - 10} more' if len(known) > 10 else ''}", start)
    finally:
        db.close()


def _unreplayable(game_id: str, name: str, setup: str, events: list[Any]) -> str | None:
    """Why a game that reads whole does not replay (the next start retires it), or None."""
    import json

    from companion.store.damage import cut
    from companion.games import get_game
    from companion.session.replay import replay_states

    try:
        replay_states(get_game(name), json.loads(setup), events)
    except (FogCompanionError, ValueError, KeyError, TypeError) as exc:
        return cut(f"game {game_id}: {exc}")
    return None
