"""A request's JSON body, read once and checked field by field before anything reaches the session.

Every route that reads a body reads it here: a body nested past :data:`MAX_DEPTH` is refused on its
text before the parser could recurse into it, NaN and Infinity (which Python's parser takes) are
refused by where they sit, and a field of the wrong kind, or text that is not text (a lone
surrogate, a control character), is a 400 naming the field. A rejected body never changes anything.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from flask import abort, g, request

__all__ = ["MAX_DEPTH", "body", "field", "text_ok"]

MAX_DEPTH = 8  # the API's bodies are at most three levels deep


def body() -> dict[str, Any]:
    """The request's JSON object, checked once per request (the PIN check may read it before the route)."""
    if "api_body" in g:
        return g.api_body
    raw = request.get_data(cache=True)
    if _nesting(raw) > MAX_DEPTH:  # checked on the text, before the parser could recurse into it
        abort(400, description=f"the body nests deeper than {MAX_DEPTH} levels")
    data = request.get_json(silent=True)
    if data is None and raw:
        abort(400, description="the body is not valid JSON")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        abort(400, description="the body must be a JSON object")
    where = _not_finite(data)
    if where is not None:  # Python's parser takes NaN, Infinity and 1e999; JSON has no such numbers
        abort(400, description=f"'{where}' must be a finite number (NaN and Infinity are not JSON numbers)")
    g.api_body = data
    return data


def _not_finite(value: Any, path: str = "") -> str | None:
    """Where a NaN or infinite number sits in a parsed body (``edits[0].at_mm[1]``), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path or "the body"
    if isinstance(value, dict):
        items: Any = ((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for where, inner in items:
        found = _not_finite(inner, where)
        if found is not None:
            return found
    return None


def _nesting(raw: bytes) -> int:
    """The deepest bracket nesting in raw JSON text, strings skipped (checked before parsing it)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def text_ok(value: str) -> bool:
    """Text that can be stored and shown: no lone surrogates, no control characters."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(c) < 32 and c not in "\t" for c in value)


def field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], required: bool = True,
          check: Callable[[Any], bool] | None = None, what: str = "") -> Any:
    if name not in data or data[name] is None:
        if required:
            abort(400, description=f"'{name}' is missing")
        return None
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        abort(400, description=f"'{name}' must be {what or ' or '.join(k.__name__ for k in kinds)}")
    if isinstance(value, str) and not text_ok(value):
        abort(400, description=f"'{name}' holds characters that are not text (control characters or broken UTF-16)")
    if check is not None and not check(value):
        abort(400, description=f"'{name}' must be {what}")
    return value


