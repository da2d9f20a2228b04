"""What every game's board file shares: TOML read with each table checked against the keys the game
knows, the file's game named, numbers in range, the four corner markers and the players' colours.

Each game keeps its own board module (what its board has is its own), but a file that is not TOML,
lacks a table, has a key nobody reads, belongs to another game or gives a number out of range is
refused in the same words for every game, naming the file and the key.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from companion.errors import BoardFileError

RGB = tuple[int, int, int]


class BoardText:
    """One board file read: ``data`` (every table), ``head`` (its ``[board]`` table)."""

    def __init__(self, text: str, source: str, keys: Mapping[str, Sequence[str]], game: str, title: str,
                 lists: Collection[str] = ()) -> None:
        """``keys``: each table and the keys it may have (``lists``: those given as arrays of tables,
        checked by their readers); ``game``: the name the file must give; ``title``: what such a file is
        called ("a tile race board")."""
        self.source = source
        try:
            self.data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BoardFileError(f"{source}: not valid TOML: {exc}") from None
        for section, known in keys.items():
            if section in lists:
                continue
            table = self.data.get(section)
            if not isinstance(table, dict):
                raise self.fail(section, "missing table")
            extra = sorted(set(table) - set(known))
            if extra:
                raise self.fail(section, f"unknown key(s) {', '.join(map(repr, extra))}")
        self.head: dict[str, Any] = self.data["board"]
        if self.head.get("game") != game:
            raise self.fail("board.game", f"this file is not {title} (game = \"{game}\")")

    def fail(self, where: str, msg: str) -> BoardFileError:
        """The error naming this file and the key at fault."""
        return BoardFileError(f"{self.source}: {where}: {msg}")

    def number(self, key: str, low: float, high: float) -> float:
        """A number of the ``[board]`` table, ``low`` to ``high``."""
        v = self.head.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not low <= v <= high:
            raise self.fail(f"board.{key}", f"expected a number {low:g} to {high:g}, got {v!r}")
        return float(v)

    def fiducials(self, known: Collection[str] | None = None) -> list[dict[str, Any]]:
        """The four corner markers (``[[fiducials]]``: id, center_mm, size_mm; ``known``: refuse other keys)."""
        fids = self.data.get("fiducials")
        if not isinstance(fids, list) or len(fids) != 4:
            raise self.fail("fiducials", "exactly 4 corner markers")
        out: list[dict[str, Any]] = []
        for i, f in enumerate(fids):
            if known is not None and (not isinstance(f, dict) or set(f) - set(known)):
                raise self.fail(f"fiducials[{i}]", "expected id, center_mm, size_mm")
            try:
                out.append({"id": int(f["id"]), "center_mm": [float(v) for v in f["center_mm"]],
                            "size_mm": float(f["size_mm"])})
            except (KeyError, TypeError, ValueError):
                raise self.fail(f"fiducials[{i}]", "expected id, center_mm [x, y], size_mm") from None
        return out

    def colours(self, names: Sequence[str]) -> dict[str, RGB]:
        """Each player colour's ``[r, g, b]`` from the ``[colours]`` table."""
        rgb: dict[str, RGB] = {}
        for colour in names:
            v = self.data["colours"].get(colour)
            if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and 0 <= x <= 255 for x in v)):
                raise self.fail(f"colours.{colour}", f"expected [r, g, b] 0-255, got {v!r}")
            rgb[colour] = (v[0], v[1], v[2])
        return rgb


def every_place(plan: Any) -> list[str]:
    """A board's layout in words, a line each: its size and markers, then every corner marker and every
    place, where it lies (mm from the board's top left corner): what a printed board is checked
    against and where each corner marker is glued."""
    head = (f"board {plan.name}, {plan.size_mm[0]:.0f} x {plan.size_mm[1]:.0f} mm, markers {plan.marker_dictionary}: "
            f"{len(plan.cells)} places, {len(plan.pieces)} pieces")
    corners = [f"corner marker {f['id']}: {f['size_mm']:g} mm, centred at {f['center_mm'][0]:g}, "
               f"{f['center_mm'][1]:g} mm" for f in plan.fiducials]
    return [head, *corners] + [f"{c.id}: {c.kind}" + (f" ({c.label})" if c.label and c.label != c.id else "") +
                               f" at {c.center_mm[0]:g}, {c.center_mm[1]:g} mm" for c in plan.cells.values()]
