"""The pages. Each is a template plus the shared scripts; the data comes from the API and /events."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, send_from_directory

from companion.games import UnknownGameError, get_game
from companion.store.store import StoreError

bp = Blueprint("pages", __name__)

NAV = (("live", "/", "Board"), ("setup", "/setup", "Setup"), ("table", "/table", "Table"),
       ("calibration", "/calibration", "Camera"), ("score", "/score", "Score"), ("games", "/games", "Games"))


def _page(name: str, title: str | None = None, **context: Any) -> str:
    """A page under the running game's title, or ``title`` (a replayed game of another kind)."""
    companion = current_app.extensions["companion"]
    camera = getattr(companion, "camera", None)
    pin_choice = current_app.extensions["pin_store"].choice
    title = title or getattr(getattr(companion.session, "game", None), "title", "") or "fog-companion"
    return render_template(f"{name}.html", page=name, nav=NAV, simulated=bool(camera and camera.simulated),
                           pin_choice=pin_choice, game_title=title.split(":")[0], **context)


def _add_page(name: str, rule: str) -> None:
    bp.add_url_rule(rule, name, lambda: _page(name))


for _name, _rule, _label in NAV:  # one template per page of the navigation
    _add_page(_name, _rule)


# Files browsers and phones ask for by these names at the root (a tab, a home-screen icon, an
# installed app), whatever the pages link: served from static/ with their own content types.
ROOT_FILES = {"favicon.ico": ("favicon.ico", "image/x-icon"),
              "apple-touch-icon.png": ("icon-180.png", "image/png"),
              "apple-touch-icon-precomposed.png": ("icon-180.png", "image/png"),
              "manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json")}


def _add_root_file(name: str, file: str, mimetype: str) -> None:
    def serve() -> Any:
        return send_from_directory(current_app.static_folder or "static", file, mimetype=mimetype, max_age=86400)

    bp.add_url_rule(f"/{name}", name.replace(".", "_"), serve)


for _file_name, (_file, _type) in ROOT_FILES.items():
    _add_root_file(_file_name, _file, _type)


@bp.get("/lens")
def lens() -> str:
    """The camera lens calibration (reached from the Camera page)."""
    return _page("lens", nav_page="calibration")


@bp.get("/fit")
def fit() -> str:
    """Fit the board file to the printed board (reached from the Camera page)."""
    return _page("fit", nav_page="calibration")


@bp.get("/games/<game_id>")
def game(game_id: str) -> str:
    session = current_app.extensions["companion"].session
    try:
        record = session.store.record(game_id)  # a damaged game has a page too
    except StoreError:
        abort(404, description=f"no game {game_id!r}")
    try:  # the replayed game's own title in the header, whatever game is running now
        title = get_game(record.game).title
    except UnknownGameError:
        title = record.game
    return _page("replay", title=title, game_id=game_id, replay_game=record.game,
                 replay_other=record.game != getattr(getattr(session, "game", None), "name", None))
