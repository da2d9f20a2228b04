"""The camera for the calibration page: a JPEG snapshot and a live MJPEG stream, overlay drawn.

While the camera is faulty (or before its first frame) both show a picture that says why, over the
last good picture: a viewer is never left waiting on a camera that may send nothing again.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from web_ui.stream import camera_stream

bp = Blueprint("camera", __name__)


def _camera() -> Any:
    camera = getattr(current_app.extensions["companion"], "camera", None)
    if camera is None:
        abort(503, description="no camera is running (panel-only play)")
    return camera


def _overlay() -> bool:
    return request.args.get("overlay", "1") not in ("0", "false", "no")


@bp.get("/snapshot.jpg")
def snapshot() -> Response:
    data = _camera().view_jpeg(overlay=_overlay())
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/stream.mjpg")
def stream() -> Any:
    """The live picture; served by the panel's stream hub, so a viewer holds no worker (web_ui/stream.py)."""
    _camera()
    return camera_stream(_overlay())
