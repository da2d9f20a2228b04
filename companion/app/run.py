"""The one place that wires the packages together: vision, hardware and the panel plug in here.

The rules core and the session never import ``vision``, ``hardware`` or ``web_ui``; this module
does (and ``companion/app/commands.py``, the other packages' commands for the command line).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


# --------------------------------------------------------------------------------------------------
# fog-companion run: config -> camera -> stabiliser -> session -> LEDs/buttons -> panel
# --------------------------------------------------------------------------------------------------
import logging  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

from companion.app import console  # noqa: E402
from companion.club.publisher import start_publisher  # noqa: E402
from companion.app.config import Config  # noqa: E402
from companion.errors import FogCompanionError  # noqa: E402
from companion.session.leds import by_role  # noqa: E402
from companion.app.memory import tune_malloc  # noqa: E402
from companion.app.paths import default_data_dir  # noqa: E402
from companion.table.secrecy import told  # noqa: E402
from companion.app.service_log import event_line  # noqa: E402

log = logging.getLogger(__name__)

# The main loop pings the systemd watchdog only while the camera thread is alive and stepping.
CAMERA_STALL_SECONDS = 10.0
# How often the main loop retries writing moves that waited for a full disk.
FLUSH_SECONDS = 2.0
# The events after which the game's state may put a moving board part (a pad) elsewhere: an action (a
# correction too), an undo, a move of the table taken as the game.
MOVES_PARTS = frozenset({"action", "undone", "table-as-game"})


def led_config(config: Config) -> Any:
    """The strip's settings, its segments named by role (a former name read as its role)."""
    from hardware.output import LedConfig, Segment

    values = dict(config["leds"])
    segments, _ = by_role(values.pop("segments"))
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
        from companion.session.events import Event
        from companion.games import get_game
        from companion.session.reconciler import Reconciler
        from companion.games import Budget
        from companion.session.session import Session
        from companion.store.store import GameStore
        from hardware.table import TableHardware

        self.config = config
        self.out = out or sys.stdout
        self.data_dir = Path(config["data"]["dir"]) if config["data"]["dir"] else default_data_dir(environ)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = GameStore(self.data_dir / "games.db")
        self.session = Session(self.store, game=get_game(config["game"]["name"]),
                               step_hold=config["detector"]["step_hold_seconds"],
                               reading=Budget(positions=config["game"]["reading_positions"]))
        self._paused: str | None = None  # the game a start line paused, said on the panel's pages too
        resumed = self.session.resume()
        if self.session.damaged:
            self.say(self.session.damaged + " (its log stays in the data directory; `fog-companion export` "
                     "gives it as JSON)")
        if state_factory is not None:  # a start line that names a game starts it; the one that ran waits
            self._start_named(state_factory(), get_game(config["game"]["name"]))
        elif resumed:
            self.say(f"resumed game {self.session.game_id} ({self.session.game.title})")
        elif not self.session.damaged:
            self.say("no game yet: start one on the panel's setup page")
        self.session.check_paused()  # a paused game that no longer replays is said now, not at its resume
        for notice in self.store.notices:  # what opening the log found: said here and on every page
            self.say(f"game log: {notice}")
        if self._paused:
            self.store.notices.append(self._paused)
        self.store.on_notice = lambda text: self.session.bus.publish(
            Event("storage-notice", {"message": text}, snapshot=self.session.snapshot()))
        self.club = start_publisher(self)  # [club] broker set: the game is published to the club (companion.club)
        self.layout = self.session.game.table.layout(self.session.state, board=config["game"]["board"])
        self.hardware = TableHardware(self.session.game, led_config(config), controls_config(config),
                                      environ=environ, pin_factory=pin_factory)
        for message in self.hardware.messages + by_role(config["leds"]["segments"])[1]:
            self.say(message)
        self.hardware.on_button("end_turn", lambda: self._safely(lambda: self.session.end_turn("button")))
        self.hardware.on_button("undo", lambda: self._safely(self.session.undo))
        self.hardware.on_button("turn_action", lambda: self._safely(self.turn_action))
        self.hardware.on_timer_expired = lambda key: self._safely(lambda: self.session.timer_expired(key))
        self.subscription = self.session.bus.subscribe(self._on_event)
        self.reconciler = Reconciler(self._read_picture)
        self.camera: Any = None
        self.panel: Any = None
        self.panel_url: str | None = None
        self._stopped = False

    def _start_named(self, state: Any, game: Any) -> None:
        """The game a start line names, begun now: the game that ran is paused, not lost, and said so
        on the terminal and on the panel's pages (it resumes from the Games page)."""
        running, title = self.session.running(), self.session.game.title
        self.session.start(state, verify=True, game=game)
        if running is not None:
            self.say(f"game {running} ({title}) is paused: resume it from the panel's Games page")
            # the pages say it in words: a player finds it on the Games page by its title, not its id
            self._paused = f"The {title} game that was running is paused: resume it from the Games page"
        self.say(f"new game {self.session.game_id} ({game.title})")

    @property
    def game(self) -> Any:
        """The game being played (or the configured one before the first game)."""
        return self.session.game

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def turn_action(self) -> None:
        """The turn-action button: the turn action the game offers now whose first word the config
        names (``roll``), as the panel's button for it would take it; any game, no game named here."""
        from companion.errors import SessionError

        word, state = self.config["buttons"]["turn_action_word"], self.session.state
        offered = [t["action"] for t in (self.game.panel.view(state).get("turn_actions") or []) if state is not None
                   and str(t.get("action", "")).split()[:1] == [word]]
        if not offered:
            raise SessionError(f"the {word} button: no {word} is open now")
        self.session.act(offered[0])

    def _safely(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except FogCompanionError as exc:
            self.say(f"not possible: {exc}")

    # ------------------------------------------------------------------ events -> LEDs and log
    def _on_event(self, event: Any) -> None:
        snap = event.snapshot
        if snap is None or snap.state is None:
            return
        if event.kind in MOVES_PARTS:
            self._follow_layout()
        status = snap.status
        alert, offenders = None, ()
        if status.storage_fault is not None:
            alert = "disk-full"
        elif status.camera_fault is not None:
            alert = "camera-lost"
        elif status.view_blocked:
            alert = "waiting"  # a hand rests over the board: calm, nothing is judged
        elif status.out_of_sync is not None:
            alert, offenders = "illegal", status.out_of_sync.offenders
        elif status.step is not None:
            alert, offenders = "step", status.step.to_move  # a move part-way: calm, whose piece moves next
        elif status.decision:
            alert = "waiting"
        self.hardware.show(snap.state, alert, offenders, game=snap.game)
        if event.kind == "board-moved":
            self.hardware.notice("board-moved", 10.0)
        data = told(snap.game, snap.state, event.data)  # the journal is read as the shared table: no secret in it
        if event.kind not in ("undone", "game-resumed"):
            self.say(event_line(event.kind, data))  # compact words, never Python's lists and dicts

    def _follow_layout(self) -> None:
        """A board part that moves in play (a carrier pad slid along its edge) has its places where the
        state has it: when the layout of the game's state now puts places elsewhere than the camera
        reads them, the camera follows it, as the same table with parts moved (a new board is
        :meth:`new_game`'s and :meth:`resume_game`'s)."""
        game, state, camera = self.session.game, self.session.state, self.camera
        if camera is None or state is None:
            return
        layout = game.table.layout(state)
        if layout is camera.board or _centres(layout) == _centres(camera.board):
            return
        if (layout.size_mm, layout.fiducials, layout.cells.keys()) != (camera.board.size_mm, camera.board.fiducials,
                                                                       camera.board.cells.keys()):
            return  # not the same table with parts moved: another board
        self.layout = layout
        camera.follow_layout(layout)

    # ------------------------------------------------------------------ games
    def new_game(self, state: Any, title: str = "", game: Any = None) -> str:
        """Start a game (from the panel's setup wizard); the camera then verifies the physical setup."""
        game_id = self.session.start(state, title=title, verify=True, game=game)
        self.layout = self.session.game.table.layout(state)
        if self.camera is not None:
            self.camera.set_game(self.layout, self.session.expected())
        self.verify_now()
        return game_id

    def resume_game(self, game_id: str) -> None:
        """Bring a paused game back (the panel's Games page); the camera checks the table against it."""
        if not self.session.resume(game_id, verify=self.camera is not None):
            raise FogCompanionError(self.session.damaged or f"game {game_id} cannot be resumed")
        self.layout = self.session.game.table.layout(self.session.state)
        if self.camera is not None:
            self.camera.set_game(self.layout, self.session.expected())
        self.verify_now()

    def verify_now(self) -> list[dict[str, Any]] | None:
        """Compare the camera's current stable picture with the setup (None: no picture yet)."""
        if self.camera is None:
            return None
        picture = self.camera.stable_placement()
        if picture is None or self.session.state is None:
            return None
        return self.session.verify_setup(picture)

    def _on_picture(self, placement: dict[str, tuple[str, ...]], first: bool) -> None:
        """On the camera's thread: hand the picture over and go back to the frames."""
        self.reconciler.post(placement)

    def _read_picture(self, placement: dict[str, tuple[str, ...]]) -> None:
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
        from vision.facing import FacingStabiliser as Stabiliser

        cam = self.config["camera"]
        placement = self.session.expected() if self.session.state is not None else {}
        try:
            source = open_source(cam["source"], board=self.layout, placement=placement, width=cam["width"],
                                 height=cam["height"])
        except Exception as exc:  # noqa: BLE001 - any driver failure: the panel and the buttons still run the game
            from vision.sources import redact

            why = str(exc) if isinstance(exc, FogCompanionError) else \
                f"the camera {redact(cam['source'])!r} failed to open ({type(exc).__name__})"
            self.say(f"camera: {why}; playing from the panel only")
            self.session.camera_lost(why)
        else:
            det = self.config["detector"]
            lens = self._lens()
            self.camera = LiveCamera(source, self.layout, self._on_picture, self._on_health,
                                     on_marker=lambda name, first: self.session.marker_moved(name, first),
                                     on_blocked=self.session.view_blocked,
                                     on_board_moved=self.session.board_moved,
                                     stabiliser=Stabiliser(frames_needed=det["stable_frames"],
                                                           hold_seconds=det["hold_seconds"]),
                                     fault_seconds=cam["fault_seconds"], frozen_seconds=cam["frozen_seconds"],
                                     interval=1.0 / cam["fps"], lens=lens, above_mm=cam["above_board_mm"])
            self.say(f"camera: {self.camera.name}" + (f" (lens calibrated from {lens.views} views, "
                                                      f"{lens.rms_px:.2f} px)" if lens is not None else ""))
            self.camera.start()
        if self.session.state is not None:
            self.hardware.show(self.session.state, game=self.session.game)
        self.hardware.start()
        if panel:
            self.start_panel()

    def lens_file(self) -> Path | None:
        """Where the lens calibration is read at start and written by the panel; None: turned off."""
        from vision.lens import LENS_FILE

        setting = self.config["camera"]["lens"].strip()
        if setting.lower() == "none":
            return None
        return Path(setting).expanduser() if setting else self.data_dir / LENS_FILE

    def _lens(self) -> Any:
        """The lens calibration the config names (or the data directory's); a broken one is reported
        and the camera runs without, as before any calibration."""
        from vision.lens import LensError, find_lens

        try:
            return find_lens(self.config["camera"]["lens"], self.data_dir)
        except LensError as exc:
            self.say(f"camera: {exc}; detecting without a lens calibration")
            return None

    def start_panel(self) -> None:
        from web_ui import create_app
        from web_ui.server import PanelServer

        panel = self.config["panel"]
        host, port = panel["host"], panel["port"]
        app = create_app(self, {"PIN": panel["pin"], "ALLOWED_HOSTS": tuple(panel["allowed_hosts"]),
                                "DATA_DIR": str(self.data_dir)})
        self.panel = PanelServer(app, host, port)
        self.panel.start()
        self.panel_url = f"http://{_reachable_host(host)}:{self.panel.port}/"
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
            self.panel.stop()  # open event and camera streams end, every connection is closed
        if self.camera is not None:
            self.camera.stop()
        self.reconciler.stop()
        if self.club is not None:
            self.club.stop()  # what the broker has not acknowledged stays in the outbox for the next start
        self.hardware.close()
        self.subscription.close()
        left = self.session.flush_pending() if self.session.pending else 0
        self.store.close()
        if left:
            self.say(f"stopped with {left} move(s) never written: the disk was still full")
        self.say("stopped: LEDs off, camera released, log closed")


def _centres(layout: Any) -> dict[str, Any]:
    """Where each place of a layout lies: what a board part that moved changes."""
    return {name: cell.center_mm for name, cell in layout.cells.items()}


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
    from companion.app import config as config_mod
    from companion.app import systemd
    from companion.games import command_line_answers, get_game, new_game

    config = config_mod.load(args.config).with_overrides({
        "camera.source": args.camera, "panel.host": args.host, "panel.port": args.port, "data.dir": args.data_dir,
        "game.board": args.board, "game.name": getattr(args, "game", None)})
    # a start line that names a game, its players or its seed starts that game; a bare ``run`` resumes
    wants_game = any(getattr(args, name, None) not in (None, "") for name in ("game", "players", "solo", "seed",
                                                                              "names", "options"))
    state = None
    if wants_game:  # checked before anything starts, as the panel's answers are: a bad one is refused by name
        game = get_game(config["game"]["name"])
        players, answers = command_line_answers(game, args.players, args.names, args.solo, args.options)
        state = new_game(game, players, args.seed or 0, answers, board=config["game"]["board"], files=True)
    if not args.no_panel:  # a panel that cannot listen is refused before the game log is touched
        from web_ui.server import check_listen

        try:
            check_listen(config["panel"]["host"], config["panel"]["port"])
        except FogCompanionError as exc:
            raise FogCompanionError(f"{exc}. Nothing was started: no game was begun or paused") from None
    tune_malloc()
    companion = Companion(config, (lambda: state) if wants_game else None)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda _s, _f: stopping.set())
    try:
        companion.start(panel=not args.no_panel)
    except FogCompanionError:
        companion.stop()
        raise
    console.start(companion, stopping, forced=getattr(args, "console", False))
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
    """The main loop: tell systemd we are ready, then ping the watchdog while the camera thread lives.

    It also retries, every few seconds, the moves that waited for a full disk, turns a move left
    part-way past its hold time into out of sync, and checks every second that the game log's
    files are still the ones it writes (a deleted journal is saved before a kill could lose it).
    """
    notifier.ready(f"panel {companion.panel_url or 'off'}")
    ticks = 0.0
    step = min(1.0, notifier.interval)
    while not stopping.wait(step):
        if companion.healthy(stall_seconds):
            notifier.watchdog()
        try:
            companion.session.step_overdue()
        except Exception:  # noqa: BLE001 - the main loop must keep pinging
            log.exception("checking a move left part-way failed")
        try:
            companion.store.tick()  # a journal deleted under us is saved and said at once; a burst copied
        except Exception:  # noqa: BLE001 - the main loop must keep pinging
            log.exception("checking the game log's files failed")
        ticks += step
        if ticks >= FLUSH_SECONDS and companion.session.pending:
            ticks = 0.0
            try:
                companion.session.flush_pending()
            except Exception:  # noqa: BLE001 - the main loop must keep pinging; the session reports faults
                log.exception("writing the waiting moves failed")
