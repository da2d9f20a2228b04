"""The camera for the calibration page: a JPEG snapshot and a live MJPEG stream, overlay drawn.

While the camera is faulty (or before its first frame) both show a picture that says why, over the
last good picture: a viewer is never left waiting on a camera that may send nothing again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from companion.games.base import unfaced
from companion.table.secrecy import told
from companion.table.sync import kinds
from web_ui.stream import camera_stream, concealed, picture

bp = Blueprint("camera", __name__)


def _camera() -> Any:
    camera = getattr(current_app.extensions["companion"], "camera", None)
    if camera is None:
        abort(503, description="no camera is running (panel-only play)")
    return camera


def with_pieces_seen(session: Any, settings: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """The camera's settings with its pieces (``pieces``: piece -> the place it was read on) counted
    against the game's table: ``expected_pieces``, those under another piece (``covered``) and the
    ``missing`` ones, in the words ``seat`` may read; its pieces said as ``seat`` may read them too (a
    face-down piece's marker names it)."""
    where = settings.get("pieces") or {}
    said = told(session.game, session.state, {"pieces": sorted(where)}, seat)["pieces"] if session.state else []
    return {**settings, "pieces": said, **pieces_seen(session, where, seat)}


def pieces_seen(session: Any, where: Mapping[str, str], seat: str | None) -> dict[str, Any]:
    """How many of the pieces the game has on the table the camera sees, how many lie under another
    (``covered``: the game says the camera cannot see them, as the session counts them seen), and those
    it does not see, in the words ``seat`` may read (the Camera page's count).

    Counted as the session compares a picture (:func:`companion.table.sync.strip`), so the page never calls
    a piece missing that the game is in sync with: a piece with a marker on each face is seen
    whichever face is up (``red-3^back``); a look-alike piece (``Game.alike``: the tile race's tiles)
    is seen when one of its kind lies where the game has one, whichever one it is, compared per place
    by kind and count (a tile missing on one square does not make every tile numbered after it
    missing); a piece under another where the game has it is counted under. Any other piece is seen
    wherever its marker is read. A missing piece is said as the reader's view names it."""
    if session.state is None:
        return {"expected_pieces": 0, "covered": 0, "missing": []}
    game, state = session.game, session.state
    expected = session.expected()
    picture: dict[str, list[str]] = {}
    for piece, cell in where.items():
        picture.setdefault(cell, []).append(piece)
    shown = {c: tuple(sorted(ps)) for c, ps in picture.items()}
    covered = game.table.hidden(state, shown)
    for piece, cell in covered.items():
        picture.setdefault(cell, []).append(piece)
    named = game.table.alike(state, {c: tuple(sorted(ps)) for c, ps in picture.items()})
    alike = kinds(game, state, expected, named)

    def kind(piece: str) -> str:
        return alike.get(piece) or unfaced(piece)[0]
    have = Counter((cell, kind(p)) for cell, ps in named.items() for p in ps)
    read = {unfaced(p)[0] for p in where}
    missing: list[str] = []
    for cell, pieces in sorted(expected.items()):
        for piece in pieces:
            if have[(cell, kind(piece))] > 0:
                have[(cell, kind(piece))] -= 1
            elif piece in alike or unfaced(piece)[0] not in read:  # a look-alike counts only where the game has one
                missing.append(unfaced(piece)[0])
    said = told(game, state, {"offenders": missing}, seat)["offenders"]
    names = game.panel.view(state, seat).get("names") or {}
    return {"expected_pieces": sum(map(len, expected.values())), "covered": len(covered),
            "missing": sorted(str(names.get(p, p)) for p in said)}


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
    words, names = game.panel.words(state), game.panel.view(state, seat).get("names") or {}
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
