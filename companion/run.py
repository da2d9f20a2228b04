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
# fog-companion run: config -> camera -> stabiliser -> session -> LEDs/buttons (-> panel)
# --------------------------------------------------------------------------------------------------
import os  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

RUN_HELP = """commands (the camera does the rest):
  table PIECE CELL     move a piece on the simulated table (as a hand would)
  draft ISLANDER       choose an islander in the draft (auto-draft: the rest at random)
  end | undo | accept | decide N | status | quit"""


def default_data_dir() -> Path:
    env = os.environ.get("FOG_DATA_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fog-companion"


class Companion:
    """Everything wired together. ``start`` runs the camera loop on a thread; ``stop`` ends cleanly."""

    def __init__(self, camera: str, data_dir: Path, state_factory: Callable[[], Any], out: Any = None,
                 environ: dict[str, str] | None = None) -> None:
        from companion.session import Session
        from companion.store import GameStore
        from hardware.output import LedConfig
        from hardware.table import TableHardware

        self.out = out or sys.stdout
        data_dir.mkdir(parents=True, exist_ok=True)
        self.store = GameStore(data_dir / "games.db")
        self.session = Session(self.store)
        if self.session.resume():
            self.say(f"resumed game {self.session.game_id}")
        else:
            state = state_factory()
            self.session.start(state, verify=True)
            self.say(f"new game {self.session.game_id}")
        state = self.session.state
        board = state.board_data
        self.hardware = TableHardware(board.rgb, LedConfig(), environ=environ)
        for message in self.hardware.messages:
            self.say(message)
        self.hardware.on_button("end_turn", lambda: self._safely(lambda: self.session.end_turn("button")))
        self.hardware.on_button("undo", lambda: self._safely(self.session.undo))
        self.hardware.on_hourglass_expired = lambda: self._safely(lambda: self.session.end_turn("hourglass"))
        self.subscription = self.session.bus.subscribe(self._on_event)
        self.camera_spec = camera
        self.board = board
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.source: Any = None

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _safely(self, fn: Callable[[], Any]) -> None:
        from companion.errors import FogCompanionError

        try:
            fn()
        except FogCompanionError as exc:
            self.say(f"not possible: {exc}")

    def _on_event(self, event: Any) -> None:
        status = self.session.status
        alert, rows = None, frozenset()
        if status.out_of_sync is not None:
            alert = "illegal"
            rows = frozenset(r for p in status.out_of_sync.offenders
                             if (c := self.session.state.where.get(p)) and (r := self.board.row_of(c)))
        elif status.decision:
            alert = "waiting"
        self.hardware.show(self.session.state, alert, rows)
        if event.kind in ("out-of-sync", "decision-needed", "game-over", "setup-differs", "setup-verified", "in-sync"):
            self.say(f"[{event.kind}] " + ", ".join(f"{k}={v}" for k, v in event.data.items() if k != "lines")[:300])
        elif event.kind == "action":
            self.say(f"[action] {event.data['action']} (MP left {event.data['mp_left']}, "
                     f"{event.data['active']} to play)" + (f"; flip {event.data['flip']}" if "flip" in event.data else ""))

    # ------------------------------------------------------------------ camera loop
    def start(self) -> None:
        from vision.detect import BoardDetector
        from vision.sources import open_source
        from vision.stabilise import Stabiliser, StreamObserver

        self.source = open_source(self.camera_spec, board=self.board, placement=self.session.state.placement)
        self.say(f"camera: {getattr(self.source, 'name', self.camera_spec)}")
        self.observer = StreamObserver(BoardDetector(self.board))
        self.stabiliser = Stabiliser()
        self.hardware.show(self.session.state)
        self.hardware.start()
        self._thread = threading.Thread(target=self._loop, name="camera-loop", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        import time

        while not self._stop.is_set():
            try:
                frame = self.source.read()
            except Exception as exc:  # the camera went away: the panel and buttons still work
                self.say(f"camera lost: {exc}")
                self._stop.wait(1.0)
                continue
            if frame is None:
                self._stop.wait(0.05)
                continue
            obs = self.observer.observe(frame)
            was_ready = self.stabiliser.initialised
            change = self.stabiliser.feed(obs, self.observer.last_motion)
            if change is not None:
                self._safely(lambda: self.session.on_stable_change(change.placement()))
            elif self.stabiliser.initialised and not was_ready:  # the first stable picture of the table
                picture = {}
                for piece, cell in self.stabiliser.stable.items():
                    picture.setdefault(cell, []).append(piece)
                self._safely(lambda: self.session.on_stable_change(picture))
            time.sleep(0.02)

    def table(self, piece: str, cell: str) -> None:
        """Move a piece on the simulated table, as a player's hand would."""
        from vision.sources import SimulatedTable

        if not isinstance(self.source, SimulatedTable):
            from companion.errors import FogCompanionError

            raise FogCompanionError("the table command works on the simulated table (--camera sim)")
        placement = {c: [p for p in ps if p != piece] for c, ps in self.source.placement().items()}
        if cell != "-":  # "-": the token was taken off or turned over
            placement.setdefault(cell, []).append(piece)
        self.source.set_placement({c: tuple(ps) for c, ps in placement.items() if ps})

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        if self.source is not None:
            self.source.close()
        self.hardware.close()
        self.subscription.close()
        self.store.close()
        self.say("stopped: LEDs off, camera released, log closed")


def run_companion(args: Any) -> int:
    from companion.errors import FogCompanionError
    from companion.games.fog.game import FogGame
    from companion.games.fog import rules

    names = [n.strip() for n in args.names.split(",") if n.strip()] or None

    def factory() -> Any:
        return FogGame().new_game(players=args.players, seed=args.seed, options=args.options, names=names,
                                  scenario=args.solo, board=args.board)

    companion = Companion(args.camera, Path(args.data_dir) if args.data_dir else default_data_dir(), factory)
    stopping = threading.Event()

    def on_signal(signum: int, _frame: Any) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    companion.start()
    companion.say(RUN_HELP)
    reader = threading.Thread(target=_commands, args=(companion, stopping, rules), daemon=True)
    reader.start()
    try:
        while not stopping.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        companion.stop()
    return 0


def _commands(companion: Companion, stopping: threading.Event, rules: Any) -> None:
    import random

    from companion.errors import FogCompanionError

    session = companion.session
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            verb = words[0]
            if verb in ("quit", "exit"):
                break
            if verb == "table" and len(words) == 3:
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
                s = session.state
                companion.say(f"{s!r}; out of sync: {session.status.out_of_sync is not None}; "
                              f"verifying: {session.status.verifying}")
            else:
                companion.say(RUN_HELP)
        except (FogCompanionError, ValueError) as exc:
            companion.say(f"not possible: {exc}")
    stopping.set()
