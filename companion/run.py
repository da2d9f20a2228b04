"""The one place that wires the packages together: vision, hardware and the panel plug in here.

The rules core and the session never import ``vision``, ``hardware`` or ``web_ui``; this module
does, so the command line can offer their commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def extra_commands() -> dict[str, tuple[Callable[..., int], Callable[..., None], str]]:
    """Commands contributed by the other packages, when they can be imported here."""
    commands: dict[str, Any] = {}
    try:
        from vision.cli import COMMANDS as vision_commands
    except ImportError as exc:  # OpenCV missing: the rules commands still work
        missing = str(exc)

        def unavailable(_args: Any, _why: str = missing) -> int:
            from companion.errors import FogCompanionError

            raise FogCompanionError(f"the camera commands need OpenCV and NumPy: {_why}")

        for name in ("markers", "detect", "render"):
            commands[name] = (unavailable, lambda p: p.add_argument("rest", nargs="*"), "(needs OpenCV)")
    else:
        commands.update(vision_commands)
    return commands


# --------------------------------------------------------------------------------------------------
# fog-companion run: config -> camera -> stabiliser -> session -> LEDs/buttons -> panel
# --------------------------------------------------------------------------------------------------
import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from companion.config import Config  # noqa: E402
from companion.errors import FogCompanionError  # noqa: E402

RUN_HELP = """commands (the camera does the rest):
  table PIECE CELL     move a piece on the simulated table (as a hand would; CELL '-' takes it off)
  draft ISLANDER       choose an islander in the draft (auto-draft: the rest at random)
  end | undo | accept | decide N | status | quit"""

# The main loop pings the systemd watchdog only while the camera thread is alive and stepping.
CAMERA_STALL_SECONDS = 10.0


def default_data_dir(environ: dict[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get("FOG_DATA_DIR"):
        return Path(env["FOG_DATA_DIR"])
    if env.get("STATE_DIRECTORY"):  # systemd's StateDirectory=
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fog-companion"


def led_config(config: Config) -> Any:
    from hardware.output import LedConfig, Segment

    values = dict(config["leds"])
    segments = values.pop("segments")
    if segments:
        values["segments"] = tuple(Segment(s["name"], s["start"], s["length"], s.get("reversed", False))
                                   for s in segments)
    return LedConfig(**values)


def controls_config(config: Config) -> Any:
    from hardware.controls import ControlsConfig

    return ControlsConfig(**config["buttons"])


class Companion:
    """Everything wired together. ``start`` runs the camera thread (and the panel); ``stop`` ends cleanly."""

    def __init__(self, config: Config, state_factory: Callable[[], Any] | None = None, out: Any = None,
                 environ: dict[str, str] | None = None, pin_factory: Any = None) -> None:
        from companion.games.fog.board import Board
        from companion.session import Session
        from companion.store import GameStore
        from hardware.table import TableHardware

        self.config = config
        self.out = out or sys.stdout
        self.data_dir = Path(config["data"]["dir"]) if config["data"]["dir"] else default_data_dir(environ)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = GameStore(self.data_dir / "games.db")
        self.session = Session(self.store)
        self.board = Board.load_named(config["game"]["board"])
        if self.session.resume():
            self.say(f"resumed game {self.session.game_id}")
        elif state_factory is not None:
            self.session.start(state_factory(), verify=True)
            self.say(f"new game {self.session.game_id}")
        else:
            self.say("no game yet: start one on the panel's setup page")
        if self.session.state is not None:
            self.board = self.session.state.board_data
        self.hardware = TableHardware(self.board.rgb, led_config(config), controls_config(config),
                                      environ=environ, pin_factory=pin_factory)
        for message in self.hardware.messages:
            self.say(message)
        self.hardware.on_button("end_turn", lambda: self._safely(lambda: self.session.end_turn("button")))
        self.hardware.on_button("undo", lambda: self._safely(self.session.undo))
        self.hardware.on_hourglass_expired = lambda: self._safely(lambda: self.session.end_turn("hourglass"))
        self.subscription = self.session.bus.subscribe(self._on_event)
        self.camera: Any = None
        self.panel: Any = None
        self.panel_url: str | None = None
        self._stopped = False

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _safely(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except FogCompanionError as exc:
            self.say(f"not possible: {exc}")

    # ------------------------------------------------------------------ events -> LEDs and log
    def _on_event(self, event: Any) -> None:
        state = self.session.state
        if state is None:
            return
        status = self.session.status
        alert, rows = None, frozenset()
        if status.camera_fault is not None:
            alert = "camera-lost"
        elif status.out_of_sync is not None:
            alert = "illegal"
            rows = frozenset(r for p in status.out_of_sync.offenders
                             if (c := state.where.get(p)) and (r := self.board.row_of(c)))
        elif status.decision:
            alert = "waiting"
        self.hardware.show(state, alert, rows)
        if event.kind in ("out-of-sync", "decision-needed", "game-over", "setup-differs", "setup-verified", "in-sync",
                          "camera-lost", "camera-back", "game-started", "marker-moved"):
            self.say(f"[{event.kind}] " + ", ".join(f"{k}={v}" for k, v in event.data.items() if k != "lines")[:300])
        elif event.kind == "action":
            self.say(f"[action] {event.data['action']} (MP left {event.data['mp_left']}, "
                     f"{event.data['active']} to play)" + (f"; flip {event.data['flip']}" if "flip" in event.data else ""))

    # ------------------------------------------------------------------ games
    def new_game(self, state: Any, title: str = "") -> str:
        """Start a game (from the panel's setup wizard); the camera then verifies the physical setup."""
        game_id = self.session.start(state, title=title, verify=True)
        self.board = state.board_data
        self.verify_now()
        return game_id

    def verify_now(self) -> list[dict[str, Any]] | None:
        """Compare the camera's current stable picture with the setup (None: no picture yet)."""
        if self.camera is None:
            return None
        picture = self.camera.stable_placement()
        if picture is None or self.session.state is None:
            return None
        return self.session.verify_setup(picture)

    def _on_picture(self, placement: dict[str, tuple[str, ...]], first: bool) -> None:
        if self.session.state is None:
            return
        self._safely(lambda: self.session.on_stable_change(placement))

    def _on_health(self, ok: bool, why: str) -> None:
        if ok:
            self.session.camera_back()
            self.say("camera back: play by the camera again")
        else:
            self.session.camera_lost(why)
            self.say(f"camera lost ({why}): play goes on from the panel")

    # ------------------------------------------------------------------ life cycle
    def start(self, panel: bool = False) -> None:
        from vision.live import LiveCamera
        from vision.sources import open_source
        from vision.stabilise import Stabiliser

        cam = self.config["camera"]
        placement = self.session.state.placement if self.session.state is not None else {}
        try:
            source = open_source(cam["source"], board=self.board, placement=placement, width=cam["width"],
                                 height=cam["height"])
        except FogCompanionError as exc:  # no camera: the panel and the buttons still run the game
            self.say(f"camera: {exc}; playing from the panel only")
            self.session.camera_lost(str(exc))
        else:
            det = self.config["detector"]
            self.camera = LiveCamera(source, self.board, self._on_picture, self._on_health,
                                     on_marker=lambda name, first: self.session.marker_moved(name, first),
                                     stabiliser=Stabiliser(frames_needed=det["stable_frames"],
                                                           hold_seconds=det["hold_seconds"]),
                                     fault_seconds=cam["fault_seconds"], frozen_seconds=cam["frozen_seconds"])
            self.say(f"camera: {self.camera.name}")
            self.camera.start()
        if self.session.state is not None:
            self.hardware.show(self.session.state)
        self.hardware.start()
        if panel:
            self.start_panel()

    def start_panel(self) -> None:
        from werkzeug.serving import make_server

        from web_ui import create_app

        host, port = self.config["panel"]["host"], self.config["panel"]["port"]
        app = create_app(self, {"PIN": self.config["panel"]["pin"]})
        try:
            self.panel = make_server(host, port, app, threaded=True)
        except OSError as exc:
            raise FogCompanionError(f"the panel cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        self.panel.daemon_threads = True
        threading.Thread(target=self.panel.serve_forever, name="panel", daemon=True).start()
        self.panel_url = f"http://{_reachable_host(host)}:{self.panel.server_port}/"
        self.say(f"panel: {self.panel_url}")

    def healthy(self, stall_seconds: float = CAMERA_STALL_SECONDS) -> bool:
        """For the watchdog: the camera thread is alive and stepping (or there is no camera).

        A camera that *fails* still counts as alive (the session plays from the panel); only a
        thread that hangs inside a driver call or died stops the pings, so systemd restarts us.
        """
        if self.camera is None:
            return True
        return self.camera.alive(stall_seconds)

    def table(self, piece: str, cell: str) -> None:
        """Move a piece on the simulated table, as a player's hand would."""
        if self.camera is None or not self.camera.simulated:
            raise FogCompanionError("the table command works on the simulated table (camera source 'sim')")
        self.camera.move_piece(piece, None if cell == "-" else cell)

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self.panel is not None:
            self.panel.app.extensions["stopping"].set()  # open event and camera streams end
            self.panel.shutdown()
            self.panel.server_close()
        if self.camera is not None:
            self.camera.stop()
        self.hardware.close()
        self.subscription.close()
        self.store.close()
        self.say("stopped: LEDs off, camera released, log closed")


def _reachable_host(host: str) -> str:
    """The address to print for phones: the machine's LAN address when listening on all of them."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname()


def run_companion(args: Any) -> int:
    from companion import config as config_mod
    from companion import systemd
    from companion.games.fog import rules
    from companion.games.fog.game import FogGame

    config = config_mod.load(args.config).with_overrides({
        "camera.source": args.camera, "panel.host": args.host, "panel.port": args.port, "data.dir": args.data_dir,
        "game.board": args.board})
    names = [n.strip() for n in (args.names or "").split(",") if n.strip()] or None

    def new_game() -> Any:
        return FogGame().new_game(players=args.players or 1, seed=args.seed, options=args.options, names=names,
                                  scenario=args.solo, board=config["game"]["board"])

    wants_game = args.players is not None or args.solo is not None
    companion = Companion(config, new_game if wants_game else None)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda _s, _f: stopping.set())
    try:
        companion.start(panel=not args.no_panel)
    except FogCompanionError:
        companion.stop()
        raise
    companion.say(RUN_HELP)
    threading.Thread(target=_commands, args=(companion, stopping, rules), daemon=True).start()
    notifier = systemd.Notifier()
    try:
        supervise(companion, notifier, stopping)
    except KeyboardInterrupt:
        pass
    finally:
        notifier.stopping()
        companion.stop()
    return 0


def supervise(companion: Companion, notifier: Any, stopping: threading.Event,
              stall_seconds: float = CAMERA_STALL_SECONDS) -> None:
    """The main loop: tell systemd we are ready, then ping the watchdog while the camera thread lives."""
    notifier.ready(f"panel {companion.panel_url or 'off'}")
    while not stopping.wait(min(1.0, notifier.interval)):
        if companion.healthy(stall_seconds):
            notifier.watchdog()


def _commands(companion: Companion, stopping: threading.Event, rules: Any) -> None:
    import random

    session = companion.session
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            verb = words[0]
            if verb in ("quit", "exit"):
                break
            if session.state is None and verb != "table":
                companion.say(f"no game yet: start one on the panel ({companion.panel_url or 'run without --no-panel'})"
                              " or restart with --players N")
            elif verb == "table" and len(words) == 3:
                companion.table(words[1], words[2])
            elif verb == "draft" and len(words) == 2:
                session.act(f"draft {session.state.active_colour} {words[1]}")
            elif verb == "auto-draft":
                rng = random.Random(0)
                while session.state.phase == "draft":
                    session.act(str(rng.choice(rules.legal_drafts(session.state))))
            elif verb == "end":
                session.end_turn("panel")
            elif verb == "undo":
                session.undo()
            elif verb == "accept":
                session.accept_correction()
            elif verb == "decide" and len(words) == 2:
                session.decide(int(words[1]) - 1)
            elif verb == "status":
                companion.say(f"{session.state!r}; out of sync: {session.status.out_of_sync is not None}; "
                              f"verifying: {session.status.verifying}; camera: "
                              f"{session.status.camera_fault or 'ok'}")
            else:
                companion.say(RUN_HELP)
        except (FogCompanionError, ValueError) as exc:
            companion.say(f"not possible: {exc}")
    stopping.set()


# --------------------------------------------------------------------------------------------------
# fog-companion doctor: every part checked, each problem printed with its fix
# --------------------------------------------------------------------------------------------------
MIN_FREE_MB = 200


def doctor(args: Any, out: Any = None, environ: dict[str, str] | None = None) -> int:
    """Check Python, OpenCV, the config, the camera and fiducials, LEDs, GPIO, data directory and port."""
    import platform
    import shutil

    from companion import config as config_mod

    import logging

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
    try:
        config = config_mod.load(args.config, environ).with_overrides(
            {"camera.source": args.camera, "data.dir": args.data_dir})
        report(True, "config", str(config.source or "no file: every default"))
    except FogCompanionError as exc:
        report(False, "config", str(exc), "correct the key named above (docs/config.md lists every key)")
        config = config_mod.defaults()
    try:
        import cv2

        has_aruco = hasattr(cv2, "aruco") and hasattr(cv2.aruco, "ArucoDetector")
        report(has_aruco, "opencv", f"{cv2.__version__}" + ("" if has_aruco else " without cv2.aruco.ArucoDetector"),
               "pip install 'opencv-python-headless>=4.8' (python3 bootstrap.py run does this)")
    except ImportError as exc:
        report(False, "opencv", str(exc), "pip install 'opencv-python-headless>=4.8'")
    _doctor_camera(config, report)
    _doctor_hardware(config, report, environ)
    data_dir = Path(config["data"]["dir"]) if config["data"]["dir"] else default_data_dir(environ)
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


def _doctor_camera(config: Config, report: Callable[..., None]) -> None:
    try:
        from companion.games.fog.board import Board
        from vision.detect import BoardDetector
        from vision.sources import open_source
    except ImportError as exc:
        report(False, "camera", f"the camera code cannot load: {exc}", "pip install the project (bootstrap.py)")
        return
    cam = config["camera"]
    try:
        board = Board.load_named(config["game"]["board"])
    except FogCompanionError as exc:
        report(False, "board file", str(exc), "fix the board file or set [game] board = \"standard\"")
        return
    try:
        source = open_source(cam["source"], board=board, placement={}, width=cam["width"], height=cam["height"])
    except FogCompanionError as exc:
        report(False, "camera", str(exc), "check the cable and `[camera] source`; `libcamera-hello` tests a Pi camera")
        return
    try:
        frame, deadline = None, time.monotonic() + 5
        while frame is None and time.monotonic() < deadline:
            try:
                frame = source.read()
            except Exception as exc:  # the camera opened but cannot deliver
                report(False, "camera", f"{cam['source']}: reading failed: {exc}", "reconnect the camera")
                return
            if frame is None:
                time.sleep(0.1)
    finally:
        source.close()
    if frame is None:
        report(False, "camera", f"{cam['source']}: no frame within 5 s", "check the camera is not used by "
               "another program (only one can hold it)")
        return
    report(True, "camera", f"{cam['source']}: {frame.shape[1]}x{frame.shape[0]} frame")
    obs = BoardDetector(board).detect(frame)
    seen = sorted(obs.fiducials_seen)
    report(len(seen) >= 2, "fiducials", f"{len(seen)} of {len(board.fiducials)} corner markers seen {seen}",
           "point the camera at the whole board, light it evenly; the calibration page shows what it sees")


def _doctor_hardware(config: Config, report: Callable[..., None], environ: dict[str, str] | None) -> None:
    try:
        from hardware.controls import Controls
        from hardware.output import make_strip
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
        report(not fell_back or wanted == "recording", "LEDs", message,
               "on a Pi 4: install .[pi] and run as root for PWM, or use [leds] backend = \"spi\" "
               "(Pi 5: SPI only; enable it with raspi-config and add the user to the spi group)")
    controls = Controls(controls_config(config))
    try:
        mock = "mock pins" in controls.message
        report(not mock, "buttons", controls.message,
               "on a Pi add the user to the gpio group (systemd/install.sh does this); elsewhere the panel's "
               "buttons stand in")
    finally:
        controls.close()
