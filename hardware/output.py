"""From logical LED segments to what the strip receives: order, gamma, brightness, power limit.

The views paint named segments in RGB; :class:`LedOutput` maps them onto one chained strip
(WLED-style segments with start, length and reversed), applies gamma for colour, the global
brightness and a power limit (estimated current per frame, brightness scaled down to stay
under it), reorders to the strip's colour order, and shows the frame.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hardware.strip import OFF, RGB, HardwareError, LedStrip, RecordingStrip

MA_PER_CHANNEL = 20.0  # a WS2812 draws about 20 mA per colour at full, ~60 mA white
IDLE_MA_PER_LED = 1.0  # the controller chip, even when dark
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
BACKENDS = ("auto", "ws281x", "spi", "recording")


@dataclass(frozen=True)
class Segment:
    name: str
    start: int
    length: int
    reversed: bool = False

    def index(self, i: int) -> int:
        """The strip pixel of the segment's i-th LED."""
        return self.start + (self.length - 1 - i if self.reversed else i)


# Segments are named by the role they play (companion.games.LED_ROLES); each game says what it shows
# on each role. The default strip of 30 LEDs: the long one first.
DEFAULT_SEGMENTS = (
    Segment("status", 0, 11),    # the long one: the game at a glance
    Segment("turn", 11, 2),      # the active colour, then the next one
    Segment("counter", 13, 9),   # a value of a total, one LED each (up to 9)
    Segment("timer", 22, 8),     # the turn timer counting down
)


@dataclass(frozen=True)
class LedConfig:
    """The LED strip settings (``[leds]`` in the config file)."""

    backend: str = "auto"
    pixel_count: int = 30
    pin: int = 18
    dma: int = 10
    spi_bus: int = 0
    spi_device: int = 0
    colour_order: str = "GRB"
    gamma: float = 2.2
    brightness: float = 0.4
    max_milliamps: int = 1500
    fps: int = 30
    segments: tuple[Segment, ...] = field(default_factory=lambda: DEFAULT_SEGMENTS)

    def __post_init__(self) -> None:
        problems = []
        if self.backend not in BACKENDS:
            problems.append(f"backend={self.backend!r} (allowed: {', '.join(BACKENDS)})")
        if self.colour_order.upper() not in COLOUR_ORDERS:
            problems.append(f"colour_order={self.colour_order!r} (allowed: {', '.join(COLOUR_ORDERS)})")
        if not 0.0 <= self.brightness <= 1.0:
            problems.append(f"brightness={self.brightness} (allowed: 0.0 to 1.0)")
        if not 1.0 <= self.gamma <= 3.5:
            problems.append(f"gamma={self.gamma} (allowed: 1.0 to 3.5)")
        if self.max_milliamps < 0:
            problems.append(f"max_milliamps={self.max_milliamps} (allowed: 0 = no limit, or more)")
        for s in self.segments:
            if s.start < 0 or s.length < 1 or s.start + s.length > self.pixel_count:
                problems.append(f"segment {s.name!r} {s.start}+{s.length} does not fit {self.pixel_count} pixels")
        if problems:
            raise HardwareError("bad LED settings: " + "; ".join(problems))


class LedOutput:
    """Paint named segments, then :meth:`flush` one frame to the strip."""

    def __init__(self, strip: LedStrip, config: LedConfig) -> None:
        if strip.num_pixels != config.pixel_count:
            raise HardwareError(f"strip has {strip.num_pixels} pixels, config says {config.pixel_count}")
        self.strip = strip
        self.config = config
        self.segments = {s.name: s for s in config.segments}
        self._pixels: list[RGB] = [OFF] * config.pixel_count
        order = config.colour_order.upper()
        self._order = tuple("RGB".index(c) for c in order)
        self._gamma = [round(255 * (v / 255) ** config.gamma) for v in range(256)]
        self.last_scale = 1.0
        self.last_milliamps = 0.0

    def clear(self) -> None:
        self._pixels = [OFF] * self.config.pixel_count

    def paint(self, segment: str, colours: Sequence[RGB]) -> None:
        """Colour a segment's LEDs in its own order (extra colours are ignored, missing ones off)."""
        seg = self.segments.get(segment)
        if seg is None:
            return
        for i in range(seg.length):
            self._pixels[seg.index(i)] = colours[i] if i < len(colours) else OFF

    def logical(self) -> tuple[RGB, ...]:
        """The current picture before gamma, brightness and colour order (for the virtual LEDs)."""
        return tuple(self._pixels)

    def estimate_milliamps(self, pixels: Sequence[RGB]) -> float:
        return sum(sum(p) / 255 * MA_PER_CHANNEL for p in pixels) + IDLE_MA_PER_LED * len(pixels)

    def flush(self) -> None:
        g = self._gamma
        corrected: list[RGB] = [(g[r], g[gr], g[b]) for r, gr, b in self._pixels]
        scale = self.config.brightness
        if self.config.max_milliamps:
            idle = IDLE_MA_PER_LED * len(corrected)
            full = self.estimate_milliamps(corrected) - idle
            budget = self.config.max_milliamps - idle
            if full * scale > budget > 0:
                scale = budget / full
        self.last_scale = scale
        out: list[RGB] = [(min(255, int(r * scale)), min(255, int(gr * scale)), min(255, int(b * scale)))
                          for r, gr, b in corrected]  # never round up past the limit
        self.last_milliamps = self.estimate_milliamps(out)
        first, second, third = self._order
        self.strip.set_pixels([(p[first], p[second], p[third]) for p in out])
        self.strip.show()

    def off(self) -> None:
        self.clear()
        self.flush()


def make_strip(config: LedConfig, environ: Mapping[str, str] | None = None) -> tuple[LedStrip, str]:
    """The configured strip, or the recording fake with a warning when real hardware is absent.

    ``FOG_LED_BACKEND`` in the environment overrides the config (like ``GPIOZERO_PIN_FACTORY``).
    Returns the strip and a sentence saying which backend is in use and why.
    """
    env = os.environ if environ is None else environ
    wanted = env.get("FOG_LED_BACKEND", config.backend)
    if wanted not in BACKENDS:
        raise HardwareError(f"FOG_LED_BACKEND={wanted!r} (allowed: {', '.join(BACKENDS)})")
    if wanted == "recording":
        return RecordingStrip(config.pixel_count), "LEDs: recording backend (virtual LEDs only)"
    tries = ["ws281x", "spi"] if wanted == "auto" else [wanted]
    if wanted == "auto" and _is_pi5():
        tries = ["spi"]
    errors = []
    for backend in tries:
        try:
            if backend == "ws281x":
                from hardware.strip import Ws281xStrip

                return Ws281xStrip(config.pixel_count, config.pin, config.dma), f"LEDs: rpi_ws281x on GPIO {config.pin}"
            from hardware.strip import SpiStrip

            return (SpiStrip(config.pixel_count, config.spi_bus, config.spi_device),
                    f"LEDs: SPI on /dev/spidev{config.spi_bus}.{config.spi_device}")
        except HardwareError as exc:
            errors.append(str(exc))
    # the caller says it once (run's start-up lines, doctor): logging it here too printed it twice
    message = "LEDs: no LED hardware found, using the recording backend (" + "; ".join(errors) + ")"
    return RecordingStrip(config.pixel_count), message


def _is_pi5() -> bool:
    try:
        with open("/proc/device-tree/model", encoding="utf-8", errors="replace") as f:
            return "Raspberry Pi 5" in f.read()
    except OSError:
        return False
