"""The panel: a Flask app players open on their phones (and a TV) on the table's Wi-Fi.

``create_app(companion, config)`` builds the app around one running companion (its session,
camera and hardware are reached through it; nothing is kept in module globals, so tests make
as many apps as they like). Blueprints per area: pages, the JSON API, the event stream and the
camera stream. Every API error is a 4xx with a JSON body ``{"error": ...}``; state-changing
requests must be JSON from the panel's own origin, and an optional PIN guards setup,
corrections and undo.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import FogCompanionError
from companion.store.store import StoreUnavailableError

log = logging.getLogger(__name__)


def create_app(companion: Any, config: Mapping[str, Any] | None = None) -> Flask:
    """The panel for ``companion`` (anything with ``session``, ``camera``, ``hardware`` and ``new_game``)."""
    app = Flask(__name__)
    app.config.update(SECRET_KEY=os.urandom(24), PIN="", JSON_SORT_KEYS=False, SSE_KEEPALIVE=15.0,
                      MAX_CONTENT_LENGTH=64 * 1024, MJPEG_FPS=5.0, ALLOWED_HOSTS=(), DATA_DIR=None,
                      SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_HTTPONLY=True)
    app.config.update(dict(config or {}))
    if not (config or {}).get("SECRET_KEY") and app.config.get("DATA_DIR"):
        app.config["SECRET_KEY"] = _kept_key(app.config["DATA_DIR"])
    app.json.sort_keys = False  # type: ignore[attr-defined]  # a game's order (its pieces, seats) is kept, not sorted as text
    app.extensions["companion"] = companion
    app.extensions["stopping"] = threading.Event()

    from web_ui import api, assembly, camera, fit, lens, pages, seats, security, stream, table_routes, viewers

    security.init_app(app)
    viewers.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(table_routes.bp)  # /api/table...: the simulated table's
    app.register_blueprint(stream.bp)
    app.register_blueprint(camera.bp)
    app.register_blueprint(lens.bp)
    app.register_blueprint(fit.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(assembly.bp)
    from web_ui.club import bp as club_bp  # the club page (docs/club.md)
    app.register_blueprint(club_bp)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if _wants_json():
            return jsonify(error=exc.description or exc.name, status=exc.code), exc.code
        return exc

    @app.errorhandler(StoreUnavailableError)
    def storage_error(exc: StoreUnavailableError) -> Any:
        # The disk is full or failing: nothing was changed; the panel says so in words.
        return jsonify(error=str(exc), kind="storage", reason=exc.reason, status=507), 507

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        # A bug must not leak a traceback to a phone; it is logged in full for the maintainer.
        if isinstance(exc, HTTPException):
            return http_error(exc)
        log.exception("the panel failed on %s %s", request.method, request.path)
        return jsonify(error="the companion hit an internal error; it is logged (journalctl -u fog-companion)",
                       kind="internal", status=500), 500

    @app.errorhandler(FogCompanionError)
    def game_error(exc: FogCompanionError) -> Any:
        # The game refused (illegal move, wrong phase, nothing to undo): the request was understood
        # but conflicts with the state of the game.
        return jsonify(error=str(exc), kind=getattr(exc, "kind", type(exc).__name__), status=409,
                       **getattr(exc, "details", {})), 409

    return app


def _kept_key(folder: str) -> bytes:
    """The key the panel's cookies are signed with, kept in the data directory: a phone's seat, a
    paired screen and an unlocked panel outlive a restart of the companion (a power cut at the table)."""
    path = os.path.join(folder, "panel-key")
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) >= 24:
            return key
    except OSError:
        pass
    key = os.urandom(32)
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        os.replace(path + ".tmp", path)
    except OSError:  # a read-only or full disk: the cookies last until the panel restarts
        pass
    return key


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/events" or request.accept_mimetypes.best == \
        "application/json"
