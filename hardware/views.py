"""The LED strip for any game: a generic segment painter, an animator thread and a turn timer.

A game says what each segment shows as a :class:`~companion.games.base.LedScene` (colours that
stay, blink or pulse); :func:`paint` draws a scene at a moment ``t`` (animations are pure
functions of time, so tests pin ``t``) and lays the system's own alerts over it (the camera is
lost, the log cannot be written) and the turn timer; :class:`Animator` repaints on its own
thread at a fixed rate, so the session only ever swaps the picture and is never blocked by the
LEDs. :class:`TurnClock` counts a turn down on an injectable clock.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.games import LedScene, Light
from hardware.output import LedOutput
from hardware.strip import OFF, RGB

ALERT_RED: RGB = (255, 0, 0)
CAMERA_LOST: RGB = (200, 0, 200)
DISK_FULL: RGB = (0, 190, 190)  # teal: the game log cannot be written (no game's scene uses it)
BOARD_MOVED: RGB = (255, 255, 255)  # white: the board (or camera) was moved and fitted again
SYSTEM_ALERTS = ("camera-lost", "disk-full", "board-moved")


@dataclass(frozen=True)
class TableView:
    """What the animator draws: a game's scene, a system alert, and the turn timer's share left."""

    scene: LedScene = LedScene({})
    alert: str | None = None            # None, "camera-lost", "disk-full" or "board-moved"
    timer_left: float | None = None


def _scale(c: RGB, k: float) -> RGB:
    return tuple(max(0, min(255, round(v * k))) for v in c)  # type: ignore[return-value]


def _pulse(t: float, hz: float) -> float:
    """0..1 breathing."""
    return 0.5 + 0.5 * math.sin(2 * math.pi * hz * t)


def _blink(t: float, hz: float) -> bool:
    return (t * hz) % 1.0 < 0.5


def light_at(light: Light, t: float) -> RGB:
    """One LED's colour at time ``t``."""
    if light.effect == "blink":
        return light.colour if _blink(t, light.hz) else _scale(light.colour, light.low)
    if light.effect == "pulse":
        return _scale(light.colour, light.low + (1 - light.low) * _pulse(t, light.hz))
    return light.colour


def paint(output: LedOutput, view: TableView, t: float) -> None:
    """Draw a view at time ``t`` (seconds) into the output's segments (not yet flushed)."""
    output.clear()
    scene = view.scene
    if "*" in scene.segments:  # one light over the whole strip (a game's end: the winner's colour)
        colour = light_at(scene.lights("*")[0], t)
        for name, seg in output.segments.items():
            output.paint(name, [colour] * seg.length)
        return
    for name in scene.segments:  # by role: the config names each segment by the role it plays
        if name in output.segments:
            output.paint(name, [light_at(light, t) for light in scene.lights(name)])
    timer = next((n for n in scene.timer.split("|") if n and n in output.segments), None)
    if view.timer_left is not None and timer is not None:
        # A segment of its own counts the time down over its length; a segment the scene already
        # uses (a counter, when the strip has no timer segment) counts it down over the LEDs the
        # scene gave it.
        length = len(scene.lights(timer)) if timer in scene.segments else output.segments[timer].length
        output.paint(timer, _timer_colours(view.timer_left, length, t))
    if view.alert == "disk-full" and scene.status in output.segments:
        # The log cannot be written: the status segment blinks teal over its whole length
        # (a pattern no game uses), until the disk has room again.
        seg = output.segments[scene.status]
        output.paint(scene.status, [DISK_FULL if _blink(t, 0.5) else OFF] * seg.length)
    if view.alert == "board-moved":
        # The board was knocked (or the camera nudged) and fitted again: both ends of every
        # segment flash white for a few seconds, so players look up and check the panel.
        colour = BOARD_MOVED if _blink(t, 2.0) else OFF

        def ends(current: list[RGB], _reversed: bool) -> list[RGB]:
            current[0] = current[-1] = colour
            return current
        _over_each_segment(output, ends)
    if view.alert == "camera-lost":
        colour = CAMERA_LOST if _blink(t, 1.0) else OFF

        def first(current: list[RGB], reversed_: bool) -> list[RGB]:
            current[0 if not reversed_ else -1] = colour
            return current if not reversed_ else list(reversed(current))
        _over_each_segment(output, first)


def _over_each_segment(output: LedOutput, change: Callable[[list[RGB], bool], list[RGB]]) -> None:
    """Lay a system alert over what every segment shows: ``change`` gets its colours and whether it is reversed."""
    for name, seg in output.segments.items():
        output.paint(name, change(list(output.logical()[seg.start:seg.start + seg.length]), seg.reversed))


def _timer_colours(left: float, n: int, t: float) -> list[RGB]:
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
class TurnClock:
    """Counts a timed turn down (a game's :class:`~companion.games.base.TurnTimer`): warns near the end
    and ends the turn when it runs out."""

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
        """Start counting (at the beginning of a turn)."""
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

