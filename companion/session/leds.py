"""The LED strip's segments as the config names them: by the role each plays, for any game.

A segment is named by its role (:data:`companion.games.LED_ROLES`: ``turn``, ``status``,
``counter``, ``timer``), and each game says what it shows on each role, so one strip serves every
game without a segment named after one game's pieces. A config written before the roles names
its segments as the box they were first fitted to did (:data:`companion.games.FORMER_SEGMENT_NAMES`):
those names are read as their roles, with a one-line note at start, never refused, so a strip
that worked keeps working.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import FORMER_SEGMENT_NAMES, LED_ROLES

SEGMENT_KEYS = ("name", "start", "length", "reversed")


def role_of(name: str) -> str:
    """The role a segment's configured name means (a former name read as its role)."""
    return FORMER_SEGMENT_NAMES.get(name, name)


def segments_problem(value: Sequence[Any]) -> str | None:
    """What is wrong with the config's ``[leds] segments`` list, or None: every problem is named by
    the segment and the key, with what is allowed."""
    roles: dict[str, str] = {}
    for i, seg in enumerate(value):
        if not isinstance(seg, Mapping):
            return f"segment {i + 1}: expected a table {{ name, start, length, reversed }}"
        extra = set(seg) - set(SEGMENT_KEYS)
        if extra:
            return f"segment {i + 1}: unknown key(s) {', '.join(sorted(extra))}"
        name = seg.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9-]{0,30}", name):
            return f"segment {i + 1}: name must be a short lower-case word, the role it plays ({', '.join(LED_ROLES)})"
        role = role_of(name)
        if role not in LED_ROLES:
            return f"segment {name!r}: no such role (the roles: {', '.join(LED_ROLES)})"
        if role in roles:
            if roles[role] == name:
                return f"segment {name!r} is listed twice"
            return f"segments {roles[role]!r} and {name!r} are both the {role!r} segment: keep one"
        roles[role] = name
        for k in ("start", "length"):
            if not isinstance(seg.get(k), int) or isinstance(seg.get(k), bool) or seg[k] < (0 if k == "start" else 1):
                return f"segment {name!r}: {k} must be a whole number ({'0' if k == 'start' else '1'} or more)"
        if not isinstance(seg.get("reversed", False), bool):
            return f"segment {name!r}: reversed must be true or false"
    return None


def by_role(segments: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The configured segments named by their roles, and a note for each former name read as a role
    (said once at start; the config file is left as it is)."""
    out, notes = [], []
    for seg in segments:
        role = role_of(seg["name"])
        if role != seg["name"]:
            notes.append(f"LEDs: segment {seg['name']!r} is read as the {role!r} segment (its role; "
                         f"name it {role!r} in the config)")
        out.append({**seg, "name": role})
    return out, notes


def former_names_note() -> str:
    """The line of ``docs/config.md`` that says how former segment names are read."""
    pairs = ", ".join(f"`{old}` as `{role}`" for old, role in FORMER_SEGMENT_NAMES.items())
    return (f"Segments are named by the role they play: {'; '.join(f'`{r}`, {d}' for r, d in LED_ROLES.items())}. "
            f"Each game says what it shows on each (the panel's Board page says it too). A config written before the "
            f"roles keeps working: {pairs}, with a line saying so when the companion starts.")
