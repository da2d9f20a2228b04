"""The table's hardware in one object: LEDs, buttons, buzzer and hourglass, wired to handlers.

The session (or, until it exists, whoever holds the game state) calls :meth:`TableHardware.show`
with each new state and subscribes handlers for the buttons. Nothing here blocks the caller:
the LEDs repaint on the animator's thread, and gpiozero calls the button handlers on its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.games.fog.state import GameState
from hardware.controls import Controls, ControlsConfig
from hardware.output import LedConfig, LedOutput, make_strip
from hardware.strip import LedStrip
from hardware.views import Animator, Hourglass, view_of


class TableHardware:
    def __init__(self, rgb: Mapping[str, tuple[int, int, int]], led_config: LedConfig = LedConfig(),
                 controls_config: ControlsConfig = ControlsConfig(), strip: LedStrip | None = None,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 environ: Mapping[str, str] | None = None) -> None:
        self.rgb = dict(rgb)
        self.clock = clock
        if strip is None:
            strip, self.led_message = make_strip(led_config, environ)
        else:
            self.led_message = f"LEDs: {getattr(strip, 'name', type(strip).__name__)} backend"
        self.strip = strip
        self.output = LedOutput(strip, led_config)
        self.controls = Controls(controls_config, pin_factory=pin_factory, clock=clock)
        self.animator = Animator(self.output, led_config.fps, clock=clock, on_tick=self._tick)
        self.hourglass: Hourglass | None = None
        self.on_hourglass_expired: Callable[[], None] | None = None
        self._state: GameState | None = None
        self._alert: tuple[str | None, frozenset[str]] = (None, frozenset())

    @property
    def messages(self) -> list[str]:
        """What the hardware found, for the start-up log ("using the fake backends")."""
        return [self.led_message, self.controls.message]

    # ------------------------------------------------------------------ input
    def on_button(self, name: str, handler: Callable[[], None]) -> None:
        """``end_turn``, ``undo`` or ``confirm``."""
        self.controls.on(name, handler)

    # ------------------------------------------------------------------ output
    def show(self, state: GameState, alert: str | None = None, alert_rows: frozenset[str] = frozenset()) -> None:
        """Show a game state (and an alert); starts the hourglass when a new turn begins."""
        previous = self._state
        self._state = state
        self._alert = (alert, alert_rows)
        seconds = state.options.hourglass_seconds
        new_turn = previous is None or (previous.round, previous.turn_index, previous.phase) != \
            (state.round, state.turn_index, state.phase)
        if seconds and state.phase == "moving" and new_turn:
            self.hourglass = Hourglass(float(seconds), self.clock, warn_before=min(10.0, seconds / 4),
                                       on_warn=lambda: self.controls.beep(1),
                                       on_expire=self._expired)
            self.hourglass.start()
        elif state.phase != "moving" and self.hourglass is not None:
            self.hourglass.stop()
        self._refresh()

    def _refresh(self) -> None:
        if self._state is None:
            return
        left = self.hourglass.left() if self.hourglass is not None else None
        alert, rows = self._alert
        self.animator.show(view_of(self._state, self.rgb, left, alert, rows))

    def _expired(self) -> None:
        self.controls.beep(3)
        if self.on_hourglass_expired is not None:
            self.on_hourglass_expired()

    def _tick(self, now: float) -> None:
        if self.hourglass is not None:
            self.hourglass.poll()
            self._refresh()
        self.controls.tick(now)

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        self.animator.start()

    def close(self) -> None:
        self.animator.stop()
        self.controls.close()
        self.strip.close()
