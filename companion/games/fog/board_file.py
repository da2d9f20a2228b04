"""Reading a board file: every value named by its key when it is missing, of the wrong kind or out of range.

A board file is edited by hand to match a printed board, so a typo must never fall back to a
default silently: unknown keys are refused, numbers are range-checked (TOML's ``nan`` and
``inf`` included), and each message names the file and the exact key.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from companion.errors import BoardFileError


class Reader:
    """Small helper that names the exact key of a bad value in its error message."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, msg: str) -> BoardFileError:
        return BoardFileError(f"{self.source}: {where}: {msg}")

    def get(self, table: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...],
            default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(where, f"missing key {key!r}")
            return default
        value = table[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self.fail(f"{where}.{key}", f"expected {_kind_name(kind)}, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail(f"{where}.{key}", f"expected {_kind_name(kind)}, got {value!r}")
        return value

    def number(self, table: Mapping[str, Any], key: str, where: str, low: float, high: float,
               default: Any = ..., kind: type | tuple[type, ...] = (int, float)) -> Any:
        """A number within ``low``..``high`` (finite: TOML's nan and inf are refused)."""
        value = self.get(table, key, where, kind, default)
        if value is default and default is not ...:
            return value
        if not math.isfinite(value) or not low <= value <= high:
            raise self.fail(f"{where}.{key}", f"{value!r} is out of range: allowed {low:g} to {high:g}")
        return value

    def known(self, table: Any, where: str, keys: Iterable[str]) -> None:
        """Refuse keys the format does not have: a typo must not silently fall back to a default."""
        if not isinstance(table, Mapping):
            raise self.fail(where, f"expected a table, got {table!r}")
        extra = sorted(set(table) - set(keys))
        if extra:
            raise self.fail(where, f"unknown key(s) {', '.join(map(repr, extra))} (known: {', '.join(sorted(keys))})")

    def point(self, table: Mapping[str, Any], key: str, where: str) -> tuple[float, float]:
        value = self.get(table, key, where, list)
        if len(value) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            raise self.fail(f"{where}.{key}", f"expected [x, y] in mm, got {value!r}")
        if not all(math.isfinite(v) and -MAX_MM <= v <= MAX_MM for v in value):
            raise self.fail(f"{where}.{key}", f"{value!r} is out of range: coordinates are -{MAX_MM:g} to {MAX_MM:g} mm")
        return (float(value[0]), float(value[1]))

    def choice(self, value: str, allowed: Iterable[str], where: str) -> str:
        allowed = tuple(allowed)
        if value not in allowed:
            raise self.fail(where, f"{value!r} is not one of {', '.join(allowed)}")
        return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table", bool: "true/false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


MAX_MM = 5000.0  # no table is five metres across
MAX_MARKER_ID = 999
TOP_KEYS = ("board", "fiducials", "rows", "cells", "links", "boats", "fog_track", "turn_boards", "colours",
            "markers", "islanders", "obstacles", "setup")
KEYS = {
    "board": ("name", "game", "hex_size_mm", "size_mm", "marker_dictionary", "islander_marker_mm",
              "obstacle_marker_mm", "token_height_mm", "mp_per_turn"),
    "fiducials": ("id", "center_mm", "size_mm"),
    "rows": ("id", "obstacles", "empty", "lost_rp"),
    "cells": ("id", "kind", "center_mm", "row", "q", "r", "pier", "boat", "area", "side", "place", "islander_type",
              "capacity"),
    "links": ("a", "b", "kind"),
    "boats": ("order", "preparation_bonus", "scoring_tokens", "min_crew"),
    "fog_track": ("fields", "start"),
    "fog_field": ("label", "swallows"),
    "colours": ("players", "rgb"),
    "islanders": ("id", "nation", "type", "characteristic", "marker"),
    "obstacles": ("id", "kind", "marker"),
    "setup": ("removed_3p",),
    "turn_board": ("fields",),
}


def check_keys(rd: Reader, data: Mapping[str, Any]) -> None:
    """Every table of the file has only the keys the format knows, and sizes are in range."""
    rd.known(data, "file", TOP_KEYS)
    for section in ("board", "boats", "fog_track", "colours", "setup"):
        if section in data:
            rd.known(data[section], section, KEYS[section])
    for section in ("fiducials", "rows", "cells", "links", "islanders", "obstacles"):
        entries = data.get(section, [])
        if not isinstance(entries, list):
            raise rd.fail(section, f"expected a list of [[{section}]] tables, got {entries!r}")
        for i, t in enumerate(entries):
            rd.known(t, f"{section}[{i}]", KEYS[section])
    fields = data.get("fog_track", {}).get("fields", []) if isinstance(data.get("fog_track"), Mapping) else []
    for i, t in enumerate(fields if isinstance(fields, list) else []):
        rd.known(t, f"fog_track.fields[{i}]", KEYS["fog_field"])
    for key, t in (data.get("turn_boards") or {}).items():
        rd.known(t, f"turn_boards.{key}", KEYS["turn_board"])
    for name, mid in (data.get("markers") or {}).items():
        if not isinstance(mid, int) or isinstance(mid, bool) or not 0 <= mid <= MAX_MARKER_ID:
            raise rd.fail(f"markers.{name}", f"expected a marker id 0 to {MAX_MARKER_ID}, got {mid!r}")


