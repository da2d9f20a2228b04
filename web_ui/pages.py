"""The pages. Each is a template plus the shared scripts; the data comes from the API and /events."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template

from companion.store import StoreError

bp = Blueprint("pages", __name__)

NAV = (("live", "/", "Board"), ("setup", "/setup", "Setup"), ("table", "/table", "Table"),
       ("calibration", "/calibration", "Camera"), ("score", "/score", "Score"), ("games", "/games", "Games"))


def _page(name: str, **context: Any) -> str:
    companion = current_app.extensions["companion"]
    camera = getattr(companion, "camera", None)
    return render_template(f"{name}.html", page=name, nav=NAV, simulated=bool(camera and camera.simulated), **context)


@bp.get("/")
def live() -> str:
    return _page("live")


@bp.get("/setup")
def setup() -> str:
    return _page("setup")


@bp.get("/table")
def table() -> str:
    return _page("table")


@bp.get("/calibration")
def calibration() -> str:
    return _page("calibration")


@bp.get("/score")
def score() -> str:
    return _page("score")


@bp.get("/games")
def games() -> str:
    return _page("games")


@bp.get("/games/<game_id>")
def game(game_id: str) -> str:
    try:
        current_app.extensions["companion"].session.store.setup(game_id)
    except StoreError:
        abort(404, description=f"no game {game_id!r}")
    return _page("replay", game_id=game_id)
