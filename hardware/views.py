"""What the LEDs show: the FOG row, whose turn it is, movement points, the hourglass, alerts.

:func:`view_of` reduces a game state to a :class:`TableView`; :func:`paint` draws a view at a
moment ``t`` (animations are pure functions of time, so tests pin ``t``); :class:`Animator`
repaints on its own thread at a fixed rate, so the session only ever swaps the view and is
never blocked by the LEDs. :class:`Hourglass` counts a turn down on an injectable clock.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from companion.games.fog.state import GameState
from hardware.output import LedOutput
from hardware.strip import OFF, RGB

SWALLOWED: RGB = (40, 40, 48)
FOG_WHITE: RGB = (200, 200, 220)
WARN: RGB = (255, 110, 0)
BEACH: RGB = (24, 18, 4)
ALERT_RED: RGB = (255, 0, 0)
WAITING: RGB = (80, 120, 255)
CAMERA_LOST: RGB = (200, 0, 200)
DISK_FULL: RGB = (0, 190, 190)  # teal: the game log cannot be written (no game state uses it)


@dataclass(frozen=True)
class TableView:
    rows: tuple[str, ...] = ()                # beach rows A-J, then "shore"
    covered: frozenset[str] = frozenset()     # swallowed by the FOG
    fog_row: str | None = None                # the row the FOG marker stands at now
    next_rows: frozenset[str] = frozenset()   # swallowed at the next FOG advance
    active: RGB = OFF
    next: RGB = OFF
    mp_left: int = 0
    mp_total: int = 0
    hourglass: float | None = None            # share of the turn's time left, None = no hourglass
    alert: str | None = None                  # None, "illegal", "waiting", "camera-lost", "disk-full", "winner"
    alert_rows: frozenset[str] = frozenset()  # rows to flash with "illegal"
    winner: RGB = OFF


def view_of(state: GameState, rgb: Mapping[str, tuple[int, int, int]], hourglass: float | None = None,
            alert: str | None = None, alert_rows: frozenset[str] = frozenset()) -> TableView:
    """The LED picture of a game state (colours from the board file's ``[colours] rgb``)."""
    board = state.board_data
    rows = tuple(board.beach_rows) + ("shore",)
    covered = board.swallowed_rows(state.fog)
    here = board.fog_fields[state.fog].swallows
    nxt = frozenset(board.swallowed_rows(state.fog + 1) - covered) if state.fog + 1 < len(board.fog_fields) \
        else frozenset()
    active = tuple(rgb.get(state.active_colour or "", OFF))
    following = tuple(rgb.get(state.next_colour or "", OFF))
    winner: RGB = OFF
    if state.phase == "finished" and alert is None:
        from companion.games.fog.scoring import score

        report = score(state)
        names = set(report.winners)
        colours = [c for s in report.standings if s.name in names for c in s.colours]
        if colours:
            winner = tuple(rgb.get(colours[0], OFF))  # type: ignore[assignment]
            alert = "winner"
    return TableView(rows, frozenset(covered), here[-1] if here else None, nxt, active, following,  # type: ignore[arg-type]
                     state.mp_left if state.phase == "moving" else 0,
                     state.mp_for(state.active_colour) if state.phase == "moving" and state.active_colour else 0,
                     hourglass, alert, alert_rows, winner)


def _scale(c: RGB, k: float) -> RGB:
    return tuple(max(0, min(255, round(v * k))) for v in c)  # type: ignore[return-value]


def _pulse(t: float, hz: float) -> float:
    """0..1 breathing."""
    return 0.5 + 0.5 * math.sin(2 * math.pi * hz * t)


def _blink(t: float, hz: float) -> bool:
    return (t * hz) % 1.0 < 0.5


def paint(output: LedOutput, view: TableView, t: float) -> None:
    """Draw a view at time ``t`` (seconds) into the output's segments (not yet flushed)."""
    output.clear()
    if view.alert == "winner":
        for name, seg in output.segments.items():
            output.paint(name, [_scale(view.winner, 0.4 + 0.6 * _pulse(t, 0.5))] * seg.length)
        return
    fog = []
    for row in view.rows:
        if view.alert == "illegal" and row in view.alert_rows:
            fog.append(ALERT_RED if _blink(t, 3.0) else OFF)
        elif row == view.fog_row:
            fog.append(_scale(FOG_WHITE, 0.25 + 0.75 * _pulse(t, 0.7)))
        elif row in view.covered:
            fog.append(SWALLOWED)
        elif row in view.next_rows:
            fog.append(WARN if _blink(t, 1.0) else _scale(WARN, 0.2))
        else:
            fog.append(BEACH)
    output.paint("fog", fog)
    if view.alert == "waiting":
        output.paint("turn", [_scale(WAITING, 0.3 + 0.7 * _pulse(t, 1.0))] * 2)
    else:
        output.paint("turn", [view.active, _scale(view.next, 0.2)])
    mp = [_scale(view.active, 0.5) if i < view.mp_left else OFF for i in range(view.mp_total)]
    if view.hourglass is not None:
        glass = _hourglass_colours(view.hourglass, output.segments["hourglass"].length
                                   if "hourglass" in output.segments else len(mp), t)
        if "hourglass" in output.segments:
            output.paint("hourglass", glass)
        else:
            mp = glass  # no segment of its own: the MP LEDs count the time down
    output.paint("mp", mp)
    if view.alert == "disk-full":
        # The log cannot be written: the MP segment blinks teal over the whole length
        # (a pattern no game state uses), until the disk has room again.
        seg = output.segments["mp"]
        output.paint("mp", [DISK_FULL if _blink(t, 0.5) else OFF] * seg.length)
    if view.alert == "camera-lost":
        on = _blink(t, 1.0)
        for name in output.segments:
            seg = output.segments[name]
            current = list(output.logical()[seg.start:seg.start + seg.length])
            current[0 if not seg.reversed else -1] = CAMERA_LOST if on else OFF
            output.paint(name, current if not seg.reversed else list(reversed(current)))


def _hourglass_colours(left: float, n: int, t: float) -> list[RGB]:
    lit = math.ceil(max(0.0, min(1.0, left)) * n)
    if left <= 0.2:
        colour = ALERT_RED if _blink(t, 2.0) else OFF
    else:
        colour = (round(255 * (1 - left)), round(200 * left), 0)
    return [colour if i < lit else OFF for i in range(n)]


class Animator:
    """Repaints the LEDs at a fixed rate on its own thread; ``show`` just swaps the view."""

    def __init__(self, output: LedOutput, fps: int = 30, clock: Callable[[], float] = time.monotonic,
                 on_tick: Callable[[float], None] | None = None) -> None:
        self.output = output
        self.period = 1.0 / max(1, fps)
        self.clock = clock
        self.on_tick = on_tick
        self._view = TableView()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors = 0

    def show(self, view: TableView) -> None:
        with self._lock:
            self._view = view

    @property
    def view(self) -> TableView:
        with self._lock:
            return self._view

    def tick(self, now: float | None = None) -> None:
        """One frame: paint the current view at ``now`` and send it to the strip."""
        now = self.clock() if now is None else now
        if self.on_tick is not None:
            self.on_tick(now)  # timers first, so this frame shows their effect
        paint(self.output, self.view, now)
        self.output.flush()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="led-animator", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.tick()
            except Exception:  # a broken strip must never take the game down
                self.errors += 1
            self._stop.wait(max(0.0, self.period - (time.monotonic() - started)))

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self.output.off()


@dataclass
class Hourglass:
    """A turn timer (option 1): warns near the end and ends the turn when it runs out."""

    seconds: float
    clock: Callable[[], float] = time.monotonic
    warn_before: float = 10.0
    on_warn: Callable[[], None] | None = None
    on_expire: Callable[[], None] | None = None
    started_at: float | None = None
    _warned: bool = False
    _expired: bool = False
    log: list[str] = field(default_factory=list)

    def start(self) -> None:
        """Turn the hourglass over (at the beginning of a turn)."""
        self.started_at, self._warned, self._expired = self.clock(), False, False

    def stop(self) -> None:
        self.started_at = None

    def left(self) -> float | None:
        """Share of the time left (1.0 .. 0.0), or None when not running."""
        if self.started_at is None:
            return None
        return max(0.0, 1.0 - (self.clock() - self.started_at) / self.seconds)

    def poll(self) -> None:
        """Call often (the animator does): fires the warning and the expiry once each."""
        if self.started_at is None or self._expired:
            return
        elapsed = self.clock() - self.started_at
        if not self._warned and elapsed >= self.seconds - self.warn_before:
            self._warned = True
            self.log.append("warn")
            if self.on_warn:
                self.on_warn()
        if elapsed >= self.seconds:
            self._expired = True
            self.log.append("expired")
            if self.on_expire:
                self.on_expire()


def with_alert(view: TableView, alert: str | None, rows: frozenset[str] = frozenset()) -> TableView:
    return replace(view, alert=alert, alert_rows=rows)
