"""LED strips behind one small interface, with real drivers and a recording fake.

* :class:`Ws281xStrip` - ``rpi_ws281x.PixelStrip`` (PWM on GPIO 12/18, PCM on 21; needs root/DMA).
* :class:`SpiStrip` - WS2812 timing produced by the SPI bus (GPIO 10 / MOSI) through ``spidev``;
  the way to drive a strip on a Raspberry Pi 5, where rpi_ws281x does not run, and without root.
* :class:`RecordingStrip` - keeps every shown frame with a timestamp and can assert on them (like
  gpiozero's ``MockPin.assert_states``). The panel draws its virtual LEDs from it.

Drivers are imported only when a real strip is opened, so importing this module never fails on
a machine without the hardware.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.errors import FogCompanionError

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)


class HardwareError(FogCompanionError):
    """A hardware backend could not be opened or used."""


class LedStrip(ABC):
    """A chain of addressable LEDs. Pixels take wire-order triples (see ``LedOutput``)."""

    num_pixels: int

    @abstractmethod
    def set_pixels(self, pixels: Sequence[RGB]) -> None:
        """Set every pixel (not shown until :meth:`show`)."""

    @abstractmethod
    def show(self) -> None:
        """Send the pixels to the strip."""

    @abstractmethod
    def close(self) -> None:
        """Turn the LEDs off and release the driver; safe to call twice."""


@dataclass(frozen=True)
class Frame:
    at: float
    pixels: tuple[RGB, ...]


class RecordingStrip(LedStrip):
    """A fake strip shipped in the package: records every shown frame, for tests and the panel."""

    name = "recording"

    def __init__(self, num_pixels: int, clock: Callable[[], float] = time.monotonic, keep: int = 2000) -> None:
        self.num_pixels = num_pixels
        self.clock = clock
        self.keep = keep
        self._pending: tuple[RGB, ...] = (OFF,) * num_pixels
        self.frames: list[Frame] = []
        self.closed = False
        self._lock = threading.Lock()

    def set_pixels(self, pixels: Sequence[RGB]) -> None:
        if len(pixels) != self.num_pixels:
            raise HardwareError(f"the strip has {self.num_pixels} pixels, got {len(pixels)}")
        self._pending = tuple(tuple(int(v) for v in p) for p in pixels)  # type: ignore[misc]

    def show(self) -> None:
        with self._lock:
            self.frames.append(Frame(self.clock(), self._pending))
            if len(self.frames) > self.keep:
                del self.frames[: len(self.frames) - self.keep]

    def close(self) -> None:
        if not self.closed:
            self.set_pixels([OFF] * self.num_pixels)
            self.show()
            self.closed = True

    @property
    def last(self) -> tuple[RGB, ...]:
        with self._lock:
            return self.frames[-1].pixels if self.frames else (OFF,) * self.num_pixels

    def assert_last(self, expected: Sequence[RGB]) -> None:
        """Fail with a readable difference if the last shown frame is not ``expected``."""
        got = self.last
        if tuple(map(tuple, expected)) != got:
            diff = [f"{i}: {g} != {e}" for i, (g, e) in enumerate(zip(got, expected)) if tuple(e) != g]
            raise AssertionError("last frame differs at " + ", ".join(diff[:10]))


class Ws281xStrip(LedStrip):
    """rpi_ws281x's PixelStrip. Pixels are passed as wire-order triples, packed 24-bit."""

    name = "ws281x"

    def __init__(self, num_pixels: int, pin: int = 18, dma: int = 10, freq_hz: int = 800_000, channel: int | None = None,
                 invert: bool = False) -> None:
        try:
            from rpi_ws281x import PixelStrip  # type: ignore[import-not-found]
        except ImportError as exc:
            raise HardwareError("rpi_ws281x is not installed (pip install '.[pi]' on a Raspberry Pi 4 or older)") from exc
        channel = channel if channel is not None else (1 if pin in (13, 19) else 0)
        self.num_pixels = num_pixels
        try:
            self._strip = PixelStrip(num_pixels, pin, freq_hz, dma, invert, 255, channel)
            self._strip.begin()
        except Exception as exc:  # the driver raises RuntimeError with a code
            raise HardwareError(f"rpi_ws281x could not start on GPIO {pin} (DMA {dma}): {exc}. On a Pi 5 use the "
                                "spi backend; on older Pis run as root and blacklist snd_bcm2835 for PWM") from exc

    def set_pixels(self, pixels: Sequence[RGB]) -> None:
        for i, (a, b, c) in enumerate(pixels):
            self._strip.setPixelColor(i, (int(a) << 16) | (int(b) << 8) | int(c))

    def show(self) -> None:
        self._strip.show()

    def close(self) -> None:
        if getattr(self, "_strip", None) is not None:
            self.set_pixels([OFF] * self.num_pixels)
            self.show()
            self._strip = None


SPI_HZ = 2_400_000  # 3 SPI bits per WS2812 bit: 1.25 us per bit
SPI_ONE, SPI_ZERO = 0b110, 0b100


def encode_spi(pixels: Sequence[RGB]) -> bytes:
    """WS2812 bits as SPI bytes: each data bit becomes 3 SPI bits (1 -> 110, 0 -> 100) at 2.4 MHz,
    followed by a low reset of more than 50 us."""
    bits = 0
    count = 0
    out = bytearray()
    for pixel in pixels:
        for value in pixel:
            for k in range(7, -1, -1):
                bits = (bits << 3) | (SPI_ONE if (value >> k) & 1 else SPI_ZERO)
                count += 3
                while count >= 8:
                    count -= 8
                    out.append((bits >> count) & 0xFF)
    if count:
        out.append((bits << (8 - count)) & 0xFF)
    out.extend(b"\x00" * 24)  # reset: 24 bytes * 8 bits / 2.4 MHz = 80 us low
    return bytes(out)


class SpiStrip(LedStrip):
    """WS2812 over SPI with ``spidev`` (Raspberry Pi 5; no root needed with the spi group)."""

    name = "spi"

    def __init__(self, num_pixels: int, bus: int = 0, device: int = 0) -> None:
        try:
            import spidev  # type: ignore[import-not-found]
        except ImportError as exc:
            raise HardwareError("spidev is not installed (pip install '.[pi]')") from exc
        self.num_pixels = num_pixels
        self._pixels: list[RGB] = [OFF] * num_pixels
        try:
            self._spi = spidev.SpiDev()
            self._spi.open(bus, device)
            self._spi.max_speed_hz = SPI_HZ
            self._spi.mode = 0
        except (OSError, FileNotFoundError) as exc:
            raise HardwareError(f"cannot open /dev/spidev{bus}.{device}: {exc} (enable SPI with raspi-config; "
                                "the user needs the spi group)") from exc

    def set_pixels(self, pixels: Sequence[RGB]) -> None:
        self._pixels = list(pixels)

    def show(self) -> None:
        self._spi.writebytes2(encode_spi(self._pixels))

    def close(self) -> None:
        if getattr(self, "_spi", None) is not None:
            self._pixels = [OFF] * self.num_pixels
            self.show()
            self._spi.close()
            self._spi = None
