"""The camera for the calibration page: a JPEG snapshot and a live MJPEG stream, overlay drawn.

While the camera is faulty (or before its first frame) both show a picture that says why, over the
last good picture: a viewer is never left waiting on a camera that may send nothing again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from companion.games.base import unfaced
from companion.secrecy import told
from web_ui.stream import camera_stream, concealed, picture

bp = Blueprint("camera", __name__)


def _camera() -> Any:
    camera = getattr(current_app.extensions["companion"], "camera", None)
    if camera is None:
        abort(503, description="no camera is running (panel-only play)")
    return camera


def with_pieces_seen(session: Any, settings: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """The camera's settings with its pieces (``pieces``: the ids it sees) counted against the game's
    table: ``expected_pieces`` and the ``missing`` ones in the words ``seat`` may read."""
    return {**settings, **pieces_seen(session, settings.get("pieces", []), seat)}


def pieces_seen(session: Any, pieces: Iterable[str], seat: str | None) -> dict[str, Any]:
    """How many of the pieces the game has on the table the camera sees, and those it does not, in
    the words ``seat`` may read (the Camera page's count).

    Counted here, not on the page: a piece with a marker on each face is seen whichever face is up
    (the picture names it ``red-3^back``), and the page knows a face-down piece only by its public
    name (``green-disc@B1``), never by the id its marker gives: matched there, no face-down piece
    was ever seen. A missing piece is said as the reader's view names it."""
    if session.state is None:
        return {"expected_pieces": 0, "missing": []}
    game, state = session.game, session.state
    expected = [unfaced(p)[0] for ps in session.expected().values() for p in ps]
    seen = {unfaced(p)[0] for p in pieces}
    missing = told(game, state, {"offenders": [p for p in expected if p not in seen]}, seat)["offenders"]
    names = game.view(state, seat).get("names") or {}
    return {"expected_pieces": len(expected), "missing": sorted(str(names.get(p, p)) for p in missing)}


def unfound_places(session: Any, camera: Any, seat: str | None) -> list[dict[str, Any]]:
    """The places where the game has a piece and the camera's settled picture has none (a marker never
    found there, or a piece in a hand), for the Camera page's marks: ``piece`` in the words ``seat`` may
    read (a face-down piece by its public name), ``cell``, ``where`` in words and the pixels ``x``, ``y``
    of the last frame."""
    gone = session.unfound()
    if not gone or session.state is None:
        return []
    game, state = session.game, session.state
    at = camera.places_px([cell for _piece, cell in gone])
    words, names = game.words(state), game.view(state, seat).get("names") or {}
    out = []
    for piece, cell in gone:
        if cell not in at:
            continue
        said = str(told(game, state, {"piece": piece}, seat).get("piece", piece))
        out.append({"piece": str(words.get(said) or names.get(said, said)), "cell": cell,
                    "where": str(words.get(cell, cell)), "x": at[cell][0], "y": at[cell][1]})
    return out


def _overlay() -> bool:
    return request.args.get("overlay", "1") not in ("0", "false", "no")


@bp.get("/snapshot.jpg")
def snapshot() -> Response:
    data = picture(_camera(), _overlay(), concealed(current_app.extensions["companion"]))
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/stream.mjpg")
def stream() -> Any:
    """The live picture; served by the panel's stream hub, so a viewer holds no worker (web_ui/stream.py)."""
    _camera()
    return camera_stream(_overlay())
