"""The camera for the calibration page: a JPEG snapshot and a live MJPEG stream, overlay drawn.

While the camera is faulty (or before its first frame) both show a picture that says why, over the
last good picture: a viewer is never left waiting on a camera that may send nothing again.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

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
def stream() -> Response:
    camera = _camera()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    stopping = app.extensions["stopping"]
    period = 1.0 / float(app.config["MJPEG_FPS"])
    overlay = _overlay()
    raw = request.args.get("frames", "")
    limit = int(raw) if raw.isdigit() else None  # for tests and scripts: stop after this many

    def generate() -> Iterator[bytes]:
        seen, sent = 0, 0
        while not stopping.is_set() and (limit is None or sent < limit):
            start = time.monotonic()
            seen = camera.wait_frame(seen, timeout=1.0)  # no new frame within a second: the picture (or fault) again
            data = camera.view_jpeg(overlay=overlay)
            yield b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(data)).encode() + \
                b"\r\n\r\n" + data + b"\r\n"
            sent += 1
            stopping.wait(max(0.0, period - (time.monotonic() - start)))

    return Response(generate(), mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-store"})
