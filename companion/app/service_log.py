"""What ``run`` prints of an event: one line a maintainer reads in the journal (``journalctl -u``).

An event's data is made for the panel (lists of ids, a misplaced piece as a small mapping); printed
as Python writes it, a journal line reads ``offenders=['green-1'] pieces=[{'piece': 'green-1',
'belongs': 'H1', 'seen': 'I1'}]``. Here it is compact text instead: ``offenders=green-1 |
pieces=green-1 (belongs H1, seen I1)``; a part left empty is not printed, a place the camera sees
nothing on is ``none``. The data is said as the shared table may read it before it comes here
(:func:`companion.table.secrecy.told`): the journal keeps no secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LEADS = ("piece", "cell", "summary")  # what a mapping in a list is about: said first, the rest after it
LONGEST = 400  # a journal line, whatever an event holds (a whole game's score)


def value_text(value: Any, inner: bool = False) -> str:
    """One value in words: ``none``, ``yes``/``no``, a list joined by commas, a mapping as its parts
    (``inner``: a list inside a mapping, joined by ``/`` so its commas stay the mapping's)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        lead = next((k for k in LEADS if k in value), None)
        rest = ", ".join(f"{k} {_part(k, v)}" for k, v in value.items() if k != lead and v not in ([], {}, ""))
        if lead is None:
            return rest or "nothing"
        return value_text(value[lead]) + (f" ({rest})" if rest else "")
    if isinstance(value, list | tuple | set | frozenset):
        items = [value_text(v, inner) for v in value]
        if not items:
            return "none"
        return "/".join(items) if inner else ("; " if any(", " in i for i in items) else ", ").join(items)
    return str(value)


def _part(key: str, value: Any) -> str:
    """A mapping's part: a misplaced piece's ``facing`` (the way the game has it, the way seen) as
    the correction's notation says a change, ``N>E``; a list as one part (``expected a/b``)."""
    if key == "facing" and isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]}>{value[1]}"
    return value_text(value, inner=True)


def event_line(kind: str, data: Mapping[str, Any]) -> str:
    """``[kind] key=value | key=value`` for an event (a value's list is joined by commas); an action
    is said first, as the log says it."""
    parts = {k: v for k, v in data.items() if k not in ("lines", "action")}
    text = " | ".join(f"{k}={value_text(v)}" for k, v in parts.items())
    if kind == "action":
        line = f"[action] {data.get('action')}" + (f" ({text})" if text else "")
    else:
        line = f"[{kind}] {text}".rstrip()
    return line if len(line) <= LONGEST else line[:LONGEST - 1] + "…"
