"""The club page: every table of the club live, on a phone at 390 px or on the café's TV.

Any companion whose ``[club] broker`` is set shows it at ``/club`` (its board subscribes on the
first visit); ``fog-companion club --broker mqtt://...`` serves it alone, on a machine with no table
(:func:`serve`). The page reads ``/api/club`` (asking for news newer than the version it has, so a
table's move shows as soon as the broker brings it) and offers the league as CSV. It only reads:
what it shows is what the tables published, as the shared table may read it.
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request

from companion.club import ClubError, broker_of, check_secret_file, table_id, table_name
from companion.club.board import ClubBoard

bp = Blueprint("club", __name__)
LONG_POLL = 10.0  # seconds a page's question for news is held open at most
_boards_lock = threading.Lock()


def board() -> ClubBoard:
    """The club board of this app: the standalone page's, else the companion's, made on first use."""
    found: ClubBoard | None = current_app.extensions.get("club-board")
    if found is not None:
        return found
    companion = current_app.extensions.get("companion")
    config: Any = getattr(companion, "config", None)
    with _boards_lock:
        found = current_app.extensions.get("club-board")
        if found is None:
            broker = broker_of(config["club"]) if config is not None else None
            if broker is None or companion is None:
                abort(404, "this companion belongs to no club: set [club] broker in its config (docs/club.md)")
            name = table_id(table_name(config["club"]))
            found = ClubBoard(broker, Path(companion.data_dir), client_id=f"fog-companion-club-{name}")
            found.start()
            current_app.extensions["club-board"] = found
            stopping: threading.Event = current_app.extensions["stopping"]  # set when the panel stops
            threading.Thread(target=_stop_with, args=(found, stopping), name="club-board", daemon=True).start()
    return found


def _stop_with(club: ClubBoard, stopping: threading.Event) -> None:
    stopping.wait()
    club.stop()


@bp.get("/club")
def club_page() -> str:
    board()  # 404 with the reason when there is no club
    return render_template("club.html")


@bp.get("/api/club")
def club_json() -> Any:
    """Every table and the league; ``?since=VERSION`` waits (up to 10 s) for news newer than it."""
    club = board()
    since = request.args.get("since", type=int)
    if since is not None:
        club.wait(since, min(LONG_POLL, float(current_app.config.get("CLUB_LONG_POLL", LONG_POLL))))
    answer = club.snapshot()
    publisher = getattr(current_app.extensions.get("companion"), "club", None)
    answer["this_table"] = publisher.status() if publisher is not None else None
    return jsonify(answer)


@bp.get("/api/club/league.csv")
def league_csv() -> Response:
    return Response(board().league.csv(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=club-league.csv"})


def create_club_app(club: ClubBoard, data_dir: str) -> Flask:
    """The club page alone (``fog-companion club``): no table, no game, only the page and its API."""
    from web_ui import security

    app = Flask("web_ui")
    app.config.update(SECRET_KEY=os.urandom(24), DATA_DIR=data_dir, PIN="", ALLOWED_HOSTS=(),
                      MAX_CONTENT_LENGTH=1024)
    app.extensions["club-board"] = club
    app.extensions["stopping"] = threading.Event()
    security.init_app(app)
    app.register_blueprint(bp)
    return app


def serve(args: Any) -> int:
    """``fog-companion club``: subscribe to the broker and serve the club page until stopped."""
    from companion.app import config as config_mod
    from companion.app.paths import default_data_dir
    from web_ui.server import PanelServer

    config = config_mod.load(args.config).with_overrides({"club.broker": args.broker})
    check_secret_file(config.source, config["club"])
    broker = broker_of(config["club"])
    if broker is None:
        raise ClubError("the club page needs a broker: --broker mqtt://HOST:1883 or [club] broker in the config")
    data = Path(args.data_dir) if args.data_dir else default_data_dir(None)
    data.mkdir(parents=True, exist_ok=True)
    club = ClubBoard(broker, data)
    club.start()
    server = PanelServer(create_club_app(club, str(data)), args.host, args.port)
    server.start()
    print(f"club page: http://{args.host}:{server.port}/club (tables of {broker})", flush=True)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda _s, _f: stopping.set())
    try:
        while not stopping.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        club.stop()
    return 0
