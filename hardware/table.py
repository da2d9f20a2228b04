"""The table's hardware in one object, for any game: LEDs, buttons, buzzer and the turn timer.

The companion calls :meth:`TableHardware.show` with each new state (from the snapshot an event
carries) and subscribes handlers for the buttons. The picture comes from the game's
:class:`~companion.games.parts.Lights` (``game.lights.led_scene``); the turn timer from its rules
(``game.rules.turn_timer``). Nothing here blocks the caller: the LEDs repaint
on the animator's thread, and gpiozero calls the button handlers on its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games import Game, LedScene, TableStatus
from hardware.controls import Controls, ControlsConfig
from hardware.output import LedConfig, LedOutput, make_strip
from hardware.strip import LedStrip
from hardware.views import SYSTEM_ALERTS, Animator, TableView, TurnClock


class TableHardware:
    def __init__(self, game: Game, led_config: LedConfig = LedConfig(),
                 controls_config: ControlsConfig = ControlsConfig(), strip: LedStrip | None = None,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 environ: Mapping[str, str] | None = None) -> None:
        self.game = game
        self.clock = clock
        if strip is None:
            strip, self.led_message = make_strip(led_config, environ)
        else:
            self.led_message = f"LEDs: {getattr(strip, 'name', type(strip).__name__)} backend"
        self.strip = strip
        self.output = LedOutput(strip, led_config)
        self.controls = Controls(controls_config, pin_factory=pin_factory, clock=clock)
        self.animator = Animator(self.output, led_config.fps, clock=clock, on_tick=self._tick)
        self.turn_clock: TurnClock | None = None
        self.on_timer_expired: Callable[[tuple[Any, ...]], None] | None = None
        self._state: Any = None
        self._scene = LedScene({})
        self._timer_key: tuple[Any, ...] | None = None
        self._alert: tuple[str | None, tuple[str, ...]] = (None, ())
        self._notice: tuple[str, float] | None = None  # a passing system alert and until when

    @property
    def alert(self) -> str | None:
        """The alert the LEDs show now (``illegal``, ``waiting``, ``step``, ``camera-lost``, ``disk-full``) or None."""
        return self._alert[0]

    @property
    def system_alert(self) -> str | None:
        """The system's alert the LEDs paint now (``camera-lost``, ``disk-full``, ``board-moved``) or None."""
        alert = self._alert[0] if self._alert[0] in SYSTEM_ALERTS else None
        if alert is None and self._notice is not None and self.clock() < self._notice[1]:
            alert = self._notice[0]
        return alert

    @property
    def scene(self) -> LedScene:
        """The game's LED picture as last shown (the animator adds only time to it)."""
        return self._scene

    @property
    def messages(self) -> list[str]:
        """What the hardware found, for the start-up log ("using the fake backends")."""
        return [self.led_message, self.controls.message]

    # ------------------------------------------------------------------ input
    def on_button(self, name: str, handler: Callable[[], None]) -> None:
        """``end_turn``, ``undo``, ``confirm`` or ``turn_action``."""
        self.controls.on(name, handler)

    # ------------------------------------------------------------------ output
    def show(self, state: Any, alert: str | None = None, offenders: Sequence[str] = (),
             game: Game | None = None) -> None:
        """Show a game state and an alert (``illegal`` with the offending pieces, ``waiting``, ``step``
        with the pieces still to move, ``camera-lost``, ``disk-full``); starts the turn timer when a new
        timed turn begins."""
        if game is not None:
            self.game = game
        self._state = state
        self._alert = (alert, tuple(offenders))
        timer = self.game.rules.turn_timer(state)
        if timer is not None and timer.key != self._timer_key:
            key = timer.key
            self.turn_clock = TurnClock(timer.seconds, self.clock, warn_before=min(10.0, timer.seconds / 4),
                                        on_warn=lambda: self.controls.beep(1),
                                        on_expire=lambda: self._expired(key))
            self.turn_clock.start()
        elif timer is None and self.turn_clock is not None:
            self.turn_clock.stop()
        self._timer_key = timer.key if timer is not None else None
        status = TableStatus(waiting=alert == "waiting", offenders=tuple(offenders) if alert == "illegal" else (),
                             step=alert == "step", to_move=tuple(offenders) if alert == "step" else ())
        self._scene = self.game.lights.led_scene(state, status)  # once per state: the animator only adds time
        self._refresh()

    def notice(self, alert: str, seconds: float = 10.0, beeps: int = 1) -> None:
        """A passing system alert (``board-moved``): shown for ``seconds`` over whatever else shows,
        except an alert that lasts (camera lost, disk full), which matters more; a beep with it."""
        self._notice = (alert, self.clock() + seconds)
        if beeps:
            self.controls.beep(beeps)
        self._refresh()

    def _refresh(self) -> None:
        if self._state is None:
            return
        left = self.turn_clock.left() if self.turn_clock is not None else None
        if self._notice is not None and self.clock() >= self._notice[1]:
            self._notice = None
        self.animator.show(TableView(self._scene, self.system_alert, left))

    def _expired(self, key: tuple[Any, ...]) -> None:
        self.controls.beep(3)
        if self.on_timer_expired is not None:
            self.on_timer_expired(key)

    def _tick(self, now: float) -> None:
        if self.turn_clock is not None:
            self.turn_clock.poll()
        if self.turn_clock is not None or self._notice is not None:
            self._refresh()
        self.controls.tick(now)

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        self.animator.start()

    def close(self) -> None:
        self.animator.stop()
        self.controls.close()
        self.strip.close()
