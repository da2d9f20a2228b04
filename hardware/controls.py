"""Buttons (end turn, undo, confirm, a turn action) and a buzzer through gpiozero devices.

The pin factory is injected per object (``pin_factory=None`` lets gpiozero choose, honouring
``GPIOZERO_PIN_FACTORY``); tests pass ``gpiozero.pins.mock.MockFactory()`` and press buttons with
``factory.pin(n).drive_low()``. When no GPIO is available the controls fall back to gpiozero's
mock factory with a warning instead of crashing, so the panel still works.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ControlsConfig:
    """``[buttons]`` in the config file: BCM pin numbers; 0 disables a device."""

    end_turn: int = 17
    undo: int = 27
    confirm: int = 22
    turn_action: int = 0                # takes the game's turn action that turn_action_word names
    turn_action_word: str = "roll"
    buzzer: int = 23
    bounce_ms: int = 50


class Controls:
    """The table's buttons and buzzer. Callbacks run on gpiozero's thread: keep them short."""

    def __init__(self, config: ControlsConfig = ControlsConfig(), pin_factory: Any = None,
                 clock: Callable[[], float] | None = None) -> None:
        import time

        from gpiozero import Button, Buzzer  # type: ignore[import-untyped]  # gpiozero has no type information

        self.config = config
        self.clock = clock or time.monotonic
        self._pattern: tuple[float, int, float, float] | None = None
        self.message = "buttons: GPIO"
        try:
            with warnings.catch_warnings():  # gpiozero warns once per factory it tries; the message below says it all
                warnings.simplefilter("ignore")
                self._make(Button, Buzzer, pin_factory)
        except Exception as exc:  # no GPIO on this machine: keep going with mock pins
            from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

            # said once, by whoever reports the hardware (run's start-up lines, doctor): not logged here too
            self.message = f"buttons: no GPIO here ({exc}); using mock pins"
            self.factory = MockFactory()
            self._make(Button, Buzzer, self.factory)

    def _make(self, button: Any, buzzer: Any, factory: Any) -> None:
        self.factory = factory
        bounce = self.config.bounce_ms / 1000 if self.config.bounce_ms else None
        self.buttons: dict[str, Any] = {}
        for name in ("end_turn", "undo", "confirm", "turn_action"):
            pin = getattr(self.config, name)
            if pin:
                self.buttons[name] = button(pin, pull_up=True, bounce_time=bounce, pin_factory=factory)
        self.buzzer = buzzer(self.config.buzzer, pin_factory=factory) if self.config.buzzer else None

    def on(self, name: str, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the button ``name`` (end_turn, undo, confirm, turn_action) is pressed."""
        if name in self.buttons:
            self.buttons[name].when_pressed = lambda *_: callback()

    def beep(self, times: int = 1, on: float = 0.15, off: float = 0.1) -> None:
        """Sound the buzzer ``times`` times; driven by :meth:`tick`, so it follows the (test) clock."""
        self._pattern = (self.clock(), times, on, off)
        self.tick()

    def tick(self, now: float | None = None) -> None:
        if self.buzzer is None or self._pattern is None:
            return
        start, times, on, off = self._pattern
        elapsed = (self.clock() if now is None else now) - start
        period = on + off
        if elapsed >= times * period:
            self._pattern = None
            self.buzzer.off()
        elif elapsed % period < on:
            self.buzzer.on()
        else:
            self.buzzer.off()

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
        if self.buzzer is not None:
            self.buzzer.close()
