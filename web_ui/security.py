"""Cross-site protection and the optional PIN.

Anyone on the table's Wi-Fi can open the panel, and a web page open on any phone could try to
post to it. So a state-changing request is accepted only when

* its body is JSON (``Content-Type: application/json``): an HTML form on another site cannot
  send that, and a cross-site ``fetch`` with it needs a CORS preflight this app never grants;
* and, when the browser says where it comes from (``Origin``, ``Sec-Fetch-Site``), that is this
  panel itself.

With a PIN configured, setup, corrections and undo also need the PIN once per browser
(``POST /api/unlock``), or an ``X-Fog-Pin`` header for scripts. Wrong PINs are slowed down.
"""

from __future__ import annotations

import functools
import hmac
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request, session

F = TypeVar("F", bound=Callable[..., Any])
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
MAX_WRONG = 5
LOCKOUT_SECONDS = 30.0


def init_app(app: Flask) -> None:
    app.extensions["pin_failures"] = {"count": 0, "until": 0.0}
    app.before_request(check_same_origin)


def check_same_origin() -> None:
    if request.method not in UNSAFE:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        abort(403, description=f"cross-site request refused (Sec-Fetch-Site: {site})")
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null":
        if urlsplit(origin).netloc != request.host:
            abort(403, description=f"cross-site request refused: origin {origin} is not this panel")
    elif origin == "null":
        abort(403, description="cross-site request refused: opaque origin")
    if not request.is_json:
        abort(415, description="send the request body as JSON (Content-Type: application/json)")


def pin_required() -> bool:
    return bool(current_app.config.get("PIN"))


def unlocked() -> bool:
    if not pin_required():
        return True
    header = request.headers.get("X-Fog-Pin")
    if header is not None:
        return _check(header)
    return bool(session.get("unlocked"))


def _check(pin: str) -> bool:
    failures = current_app.extensions["pin_failures"]
    if time.monotonic() < failures["until"]:
        abort(429, description="too many wrong PINs: wait half a minute")
    ok = hmac.compare_digest(pin.encode(), str(current_app.config["PIN"]).encode())
    if ok:
        failures["count"] = 0
    else:
        failures["count"] += 1
        if failures["count"] >= MAX_WRONG:
            failures["count"], failures["until"] = 0, time.monotonic() + LOCKOUT_SECONDS
    return ok


def unlock(pin: str) -> bool:
    ok = _check(pin)
    if ok:
        session["unlocked"] = True
    return ok


def guarded(view: F) -> F:
    """Setup, corrections and undo: the PIN first, when one is configured."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not unlocked():
            abort(401, description="this needs the panel PIN (POST /api/unlock)")
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
