"""The one configuration file (TOML): camera, detector, board, LEDs, buttons, panel, data directory.

Every key is declared once in :data:`SCHEMA` with its type, default, allowed values and a line
of documentation; ``docs/config.md`` is generated from it (and a test keeps the two equal).
A file is validated completely at start: unknown sections or keys and bad values are rejected
with the file, the key, the value and what is allowed, so a typo never silently falls back to
a default at the table.

Where the file is looked for: ``--config FILE``, else ``$FOG_CONFIG``, else
``/etc/fog-companion/config.toml`` when it exists (the Raspberry Pi install), else
``$XDG_CONFIG_HOME/fog-companion/config.toml`` (``~/.config/...``) when it exists; no file at all
means every default.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.club import broker_problem, shown_broker
from companion.errors import FogCompanionError
from companion.games import LED_ROLES, names
from companion.session.leds import former_names_note, segments_problem

SYSTEM_CONFIG = Path("/etc/fog-companion/config.toml")


class ConfigError(FogCompanionError):
    """The configuration file is missing, unreadable or has a bad key or value."""


@dataclass(frozen=True)
class Key:
    name: str
    kind: type | tuple[type, ...]
    default: Any
    doc: str
    allowed: tuple[Any, ...] | None = None
    low: float | None = None
    high: float | None = None
    check: Callable[[Any], str | None] | None = None
    shown: Callable[[Any], str] = repr  # how a bad value is quoted back (a secret never is)

    def problem(self, value: Any) -> str | None:
        kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
        if isinstance(value, bool) and bool not in kinds:
            return f"expected {_kind_name(self.kind)}"
        if not isinstance(value, kinds):
            if float in kinds and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            else:
                return f"expected {_kind_name(self.kind)}"
        if isinstance(value, float) and not math.isfinite(value):
            return "expected a finite number (not nan or inf)"
        if self.allowed is not None and value not in self.allowed:
            return "allowed: " + ", ".join(repr(a) for a in self.allowed)
        if self.low is not None and value < self.low or self.high is not None and value > self.high:
            return f"allowed: {self.low} to {self.high}"
        return self.check(value) if self.check is not None else None


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "a whole number", float: "a number", bool: "true or false", list: "a list"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _hosts_problem(value: list[Any]) -> str | None:
    for name in value:
        if not isinstance(name, str) or not name or len(name) > 253 or any(c in name for c in "/ @?#"):
            return f"{name!r} is not a host name (e.g. \"fog.example.lan\")"
    return None


def _pin_problem(value: int) -> str | None:
    return None if value == 0 or 2 <= value <= 27 else "a BCM GPIO number 2 to 27, or 0 to disable"


SCHEMA: dict[str, tuple[str, tuple[Key, ...]]] = {
    "camera": ("Where frames come from and when the camera counts as failed.", (
        Key("source", str, "sim", "`sim` (simulated table), `picamera2`, a device index like `0`, `/dev/videoN`, "
            "a video file, a folder of images or a stream URL"),
        Key("width", int, 0, "frame width asked of the camera; 0: 2304 on a Raspberry Pi camera (with height 1296, "
            "the Camera Module 3's binned mode over the whole sensor: piece markers of 16 px and more over the whole "
            "board, see docs/vision.md), 1280 on any other", low=0, high=4096),
        Key("height", int, 0, "frame height asked of the camera; 0: 1296 on a Raspberry Pi camera, 720 on any other",
            low=0, high=3072),
        Key("lens", str, "", "the lens calibration: empty for the data directory's `camera-lens.json` when "
            "`fog-companion calibrate-camera` (or the panel's Camera page) made one, a file path, or `none` "
            "(see docs/vision.md: a wide-angle lens needs one)"),
        Key("above_board_mm", float, 800.0, "the camera's height above the board in millimetres: a tall piece's "
            "marker (on a tall piece's top) is seen shifted away from under the camera, and is moved back "
            "by this height when the camera looks straight down without a lens calibration (a calibration, or a "
            "tilted view, tells the height itself; see docs/vision.md)", low=100, high=5000),
        Key("fps", float, 15.0, "frames looked at per second (the camera may deliver more; the rest are skipped)",
            low=1, high=60),
        Key("fault_seconds", float, 3.0, "seconds of errors or missing frames before the companion switches to "
            "panel-only play", low=0.5, high=120),
        Key("frozen_seconds", float, 5.0, "seconds of bit-identical frames from a live camera that count as frozen",
            low=1, high=600),
    )),
    "detector": ("How a picture becomes a settled board.", (
        Key("stable_frames", int, 3, "identical observations in a row before a board picture counts as settled",
            low=1, high=30),
        Key("hold_seconds", float, 3.0, "seconds of frame time a piece unseen is assumed to be still there; one under "
            "a hand or an arm resting over the board is held for as long as it rests (the view is blocked), and none is "
            "taken for removed while a hand is anywhere over the board. A large change made mostly of the spots where "
            "tokens stand or stood (a row swept off, a board set up anew) is tokens moving, not a hand. A hand is never "
            "quite still: a large change that stays without the least motion for 20 s is taken as the board as it now "
            "is, and the pieces it hid count as gone",
            low=0, high=60),
        Key("step_hold_seconds", float, 12.0, "seconds a move made in parts may stay part-way (one piece of "
            "it put down and the next not moved yet) with nothing moving on the "
            "table before the table counts as out of sync; a new settled picture or a hand lifted from the board "
            "starts the time again; a step that lays out many tokens is allowed it for each token still to lay",
            low=1, high=600),
    )),
    "game": ("Which game, its board file, and what a game started from the command line looks like.", (
        Key("name", str, "fog", "the game a new game from the command line is (a registered game's name)",
            allowed=tuple(names())),
        Key("board", str, "standard", "a packaged board name or the path of a board file"),
        Key("reading_positions", int, 4000, "positions one reading of a camera picture looks at (the legal plays of "
            "the player to move, one after another) before it says it found none and asks the players to record "
            "what happened as a correction: more reads longer turns, and a picture no play explains takes longer "
            "to answer (benchmarks/tile_race_reading.py measures it)", low=100, high=1_000_000),
    )),
    "leds": ("The LED strip (see docs/wiring.md).", (
        Key("backend", str, "auto", "`auto` tries rpi_ws281x then SPI (SPI only on a Pi 5), falling back to the "
            "recording backend", allowed=("auto", "ws281x", "spi", "recording")),
        Key("pixel_count", int, 30, "LEDs on the chained strip", low=1, high=1000),
        Key("pin", int, 18, "GPIO pin of the data line for rpi_ws281x (PWM: 12, 18; PCM: 21; SPI: 10)",
            allowed=(10, 12, 13, 18, 19, 21)),
        Key("dma", int, 10, "DMA channel for rpi_ws281x", low=0, high=14),
        Key("spi_bus", int, 0, "SPI bus for the SPI backend", low=0, high=6),
        Key("spi_device", int, 0, "SPI chip select for the SPI backend", low=0, high=3),
        Key("colour_order", str, "GRB", "the strip's byte order",
            allowed=("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")),
        Key("gamma", float, 2.2, "gamma correction applied to colours", low=1.0, high=3.5),
        Key("brightness", float, 0.4, "global brightness", low=0.0, high=1.0),
        Key("max_milliamps", int, 1500, "power limit for the strip; frames are dimmed to stay under it (0: none)",
            low=0, high=20000),
        Key("fps", int, 30, "animation frames per second", low=1, high=120),
        Key("segments", list, [], "segments of the strip: a list of `{ name, start, length, reversed }`, each named "
            "by its role: " + ", ".join(LED_ROLES) + " (empty: status 0+11, turn 11+2, counter 13+9, timer 22+8)",
            check=segments_problem),
    )),
    "buttons": ("Buttons and buzzer on GPIO (BCM numbers; 0 disables one).", (
        Key("end_turn", int, 17, "the end-turn button", check=_pin_problem),
        Key("undo", int, 27, "the undo button", check=_pin_problem),
        Key("confirm", int, 22, "the confirm button", check=_pin_problem),
        Key("turn_action", int, 0, "a button that takes one of the game's turn actions, the one `turn_action_word` "
            "names (0: none)", check=_pin_problem),
        Key("turn_action_word", str, "roll", "the first word of the turn action that button takes, as the game "
            "declares its turn actions (`roll`: the island battle's roll when the players press Roll)",
            check=lambda v: None if v.isalpha() and v.islower() else "one word in small letters, such as roll"),
        Key("buzzer", int, 23, "the buzzer", check=_pin_problem),
        Key("bounce_ms", int, 50, "debounce time of the buttons", low=0, high=1000),
    )),
    "panel": ("The web panel players open on their phones.", (
        Key("host", str, "0.0.0.0", "address to listen on (`127.0.0.1`: this machine only)"),
        Key("port", int, 8080, "TCP port (0: any free port, printed at start)", low=0, high=65535),
        Key("pin", str, "", "a PIN asked before setup, corrections and undo (empty: the one chosen in the setup "
            "wizard, if any)",
            check=lambda v: None if v == "" or (v.isdigit() and 4 <= len(v) <= 12) else "4 to 12 digits, or empty"),
        Key("allowed_hosts", list, [], "more names the panel may be reached by (a DNS name pointing at the Pi); "
            "its own addresses, `localhost`, its host name and `HOSTNAME.local` are always allowed",
            check=_hosts_problem),
    )),
    "club": ("A club of tables: this companion publishes its game to an MQTT broker (Mosquitto) that one club "
             "page and Home Assistant read (see docs/club.md). Only what the shared table may read is published.", (
        Key("broker", str, "", "the broker: `mqtt://host:1883`, or `mqtts://host:8883` for TLS (empty: no club)",
            check=broker_problem, shown=shown_broker),
        Key("table", str, "", "this table's name on the club page, e.g. `Table 3` (its topics: "
            "`fog-companion/table-3/...`; empty: the machine's host name)"),
        Key("username", str, "", "the broker login's user name (empty: none)"),
        Key("password", str, "", "the broker login's password: the config file must then not be readable by other "
            "users (`chmod o-rw`), or the companion does not start; it is never logged", shown=lambda _v: "(hidden)"),
        Key("ca_file", str, "", "for `mqtts://`: the certificate authority file that signed the broker's certificate "
            "(empty: the system's)"),
        Key("cert_file", str, "", "for `mqtts://`: a client certificate to log in with (empty: none)"),
        Key("key_file", str, "", "the client certificate's private key: it must not be readable by other users "
            "(`chmod o-rw`), or the companion does not start"),
        Key("home_assistant", bool, False, "also publish Home Assistant's MQTT discovery messages: the table appears "
            "as a device with sensors (game, phase, whose turn, round, in sync) and a game-over event"),
        Key("queue_limit", int, 5000, "events kept on disk while the broker cannot be reached; past it the oldest are "
            "dropped (and the panel says so)", low=100, high=1000000),
    )),
    "data": ("Where games are kept.", (
        Key("dir", str, "", "data directory (empty: `$FOG_DATA_DIR`, else `$STATE_DIRECTORY` under systemd, "
            "else ~/.local/share/fog-companion)"),
    )),
}


class Config:
    """Validated settings: ``config["leds"]["brightness"]``; ``source`` says which file (if any)."""

    def __init__(self, values: dict[str, dict[str, Any]], source: Path | None) -> None:
        self.values = values
        self.source = source

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.values[section]

    def with_overrides(self, overrides: Mapping[str, Any]) -> Config:
        """Command-line flags win over the file: ``{"panel.port": 9000}``; ``None`` values are ignored."""
        values = {s: dict(v) for s, v in self.values.items()}
        for dotted, value in overrides.items():
            if value is None:
                continue
            section, _, name = dotted.partition(".")
            key = next(k for k in SCHEMA[section][1] if k.name == name)
            why = key.problem(value)
            if why:
                raise ConfigError(f"--{name.replace('_', '-')} {value!r}: {why}")
            values[section][name] = value
        return Config(values, self.source)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        return {s: dict(v) for s, v in self.values.items()}


def defaults() -> Config:
    return Config({s: {k.name: k.default for k in keys} for s, (_, keys) in SCHEMA.items()}, None)


def parse(text: str, source: str = "<config>") -> dict[str, dict[str, Any]]:
    """Validate TOML text; every problem in the file is reported at once."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    values = {s: {k.name: k.default for k in keys} for s, (_, keys) in SCHEMA.items()}
    problems: list[str] = []
    for section, table in data.items():
        if section not in SCHEMA:
            problems.append(f"[{section}]: unknown section (known: {', '.join(SCHEMA)})")
            continue
        if not isinstance(table, dict):
            problems.append(f"{section} = {table!r}: expected a [{section}] table")
            continue
        keys = {k.name: k for k in SCHEMA[section][1]}
        for name, value in table.items():
            key = keys.get(name)
            if key is None:
                problems.append(f"[{section}] {name}: unknown key (known: {', '.join(keys)})")
                continue
            why = key.problem(value)
            if why:
                problems.append(f"[{section}] {name} = {key.shown(value)}: {why}")
            else:
                values[section][name] = float(value) if key.kind is float else value
    if problems:
        raise ConfigError(f"{source}: " + "; ".join(problems))
    return values


def find(path: str | None = None, environ: Mapping[str, str] | None = None) -> Path | None:
    env = os.environ if environ is None else environ
    if path:
        return Path(path)
    if env.get("FOG_CONFIG"):
        return Path(env["FOG_CONFIG"])
    if SYSTEM_CONFIG.exists():
        return SYSTEM_CONFIG
    user = Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "fog-companion" / "config.toml"
    return user if user.exists() else None


def load(path: str | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """The configuration from the file found by :func:`find` (defaults when there is none)."""
    found = find(path, environ)
    if found is None:
        return defaults()
    try:
        text = found.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{found}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{found}: cannot read the config file: {exc}") from None
    return Config(parse(text, str(found)), found)


def markdown() -> str:
    """``docs/config.md``, generated from :data:`SCHEMA`."""
    out = ["# Configuration", "",
           "One TOML file configures the companion. It is looked for at `--config FILE`, else `$FOG_CONFIG`, "
           "else `/etc/fog-companion/config.toml` (the Raspberry Pi install), else "
           "`~/.config/fog-companion/config.toml`; with no file every default below applies. Command-line flags "
           "(`--camera`, `--host`, `--port`, `--data-dir`) override the file.", "",
           "Unknown sections or keys and bad values stop the companion at start with the file, the key, the value "
           "and what is allowed. `fog-companion doctor` checks the file too.", "",
           "This page is generated from `companion/app/config.py` (`python -m companion.app.config > docs/config.md`).", ""]
    for section, (doc, keys) in SCHEMA.items():
        out += [f"## [{section}]", "", doc, "", "| key | default | allowed | meaning |", "|---|---|---|---|"]
        for k in keys:
            if k.allowed is not None:
                allowed = ", ".join(f"`{a}`" for a in k.allowed)
            elif k.low is not None:
                allowed = f"{k.low:g} to {k.high:g}"
            else:
                allowed = _kind_name(k.kind)
            default = f"`{_toml(k.default)}`"
            out.append(f"| `{k.name}` | {default} | {allowed} | {k.doc} |")
        out.append("")
        if section == "leds":
            out += [former_names_note(), ""]
    out += ["## Example", "", "```toml", EXAMPLE.strip(), "```", ""]
    return "\n".join(out)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[]" if not value else str(value)
    return str(value)


EXAMPLE = """
[camera]
source = "picamera2"

[leds]
backend = "spi"          # Raspberry Pi 5
pixel_count = 30
brightness = 0.3
max_milliamps = 1200
segments = [
  { name = "status", start = 0, length = 11 },
  { name = "turn", start = 11, length = 2 },
  { name = "counter", start = 13, length = 9, reversed = true },
  { name = "timer", start = 22, length = 8 },
]

[panel]
port = 8080
pin = "4711"
"""


if __name__ == "__main__":
    print(markdown(), end="")
