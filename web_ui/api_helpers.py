"""What every route of the JSON API stands on: the companion it serves, the answer to a request
that changed the game, and the refusal when no game runs.

Split from :mod:`web_ui.api` (which still says these names) so the blueprints beside it (the
simulated table, the lens, the fit, the assembly) need not import the whole API to answer.
The request bodies' checks are :mod:`web_ui.bodies`'.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, jsonify

from web_ui import seats
from web_ui.model import state_json


def companion() -> Any:
    """The companion the app was made for (the session, the camera, the config): every route's way in."""
    return current_app.extensions["companion"]


def ok(**extra: Any) -> Any:
    """200 when everything asked is in the log; 202 when it waits for a full disk (``pending``)."""
    session = companion().session
    waiting = len(getattr(session, "pending", ()))
    if waiting:
        return jsonify(ok=True, pending=waiting, storage=session.status.storage_fault,
                       state=state_json(companion(), seat=seats.current_seat()), **extra), 202
    return jsonify(ok=True, state=state_json(companion(), seat=seats.current_seat()), **extra)


def state_or_409() -> Any:
    """The running game's state, or a 409 saying none runs (a request about a game needs one)."""
    if (state := companion().session.state) is None:
        abort(409, description="no game is running: start one on the setup page")
    return state
