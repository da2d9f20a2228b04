"""The lens calibration on the panel: print the sheet, take views of it, compute and use the lens.

The same steps as ``fog-companion calibrate-camera``, from a phone: the views are taken from the
running camera's newest frame, one tap each, with the reason in words when one is not kept. The
calibration is written where the companion reads it at start (the data directory's
``camera-lens.json``, or the file ``[camera] lens`` names) and used from the next frame on.
Replacing or removing a calibration needs a confirmation.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify

from web_ui import security
from web_ui.api_helpers import companion
from web_ui.bodies import body, field

bp = Blueprint("lens", __name__, url_prefix="/api/lens")


def _lock() -> Any:
    """One lock for the views (several phones may tap at once); taken again inside, so re-entrant."""
    return current_app.extensions.setdefault("lens_lock", threading.RLock())


def _calibrator() -> Any:
    """The views taken so far (one collection per panel: every phone adds to the same)."""
    from vision.lens import LensCalibrator

    ext = current_app.extensions
    with _lock():
        if "lens_calibrator" not in ext:
            ext["lens_calibrator"] = LensCalibrator()
        return ext["lens_calibrator"]


def _file() -> Path | None:
    """Where the calibration lives, or None when the config turns it off (``lens = "none"``)."""
    from vision.lens import LENS_FILE

    where = getattr(companion(), "lens_file", None)
    if callable(where):
        return where()
    data_dir = current_app.config.get("DATA_DIR")
    return Path(data_dir) / LENS_FILE if data_dir else None


def _camera() -> Any:
    camera = getattr(companion(), "camera", None)
    if camera is None:
        abort(503, description="no camera is running (panel-only play): the lens is calibrated with the camera on")
    if camera.simulated:
        abort(409, description="the simulated table has no lens to calibrate")
    return camera


def _status() -> dict[str, Any]:
    from vision.lens import MAX_VIEWS, MIN_VIEWS, LensError, load_lens

    path = _file()
    out: dict[str, Any] = {"views": _calibrator().views, "needed": MIN_VIEWS, "most": MAX_VIEWS,
                           "file": str(path) if path else None, "calibrated": False, "lens": None, "problem": None}
    if path is None:
        out["problem"] = "the config turns the lens calibration off ([camera] lens = \"none\")"
    elif path.exists():
        try:
            lens = load_lens(path)
        except LensError as exc:
            out["problem"] = str(exc)
        else:
            out["calibrated"] = True
            out["lens"] = {**lens.to_dict(), "edge_shift_px": round(lens.edge_shift_px(), 1)}
    camera = getattr(companion(), "camera", None)
    out["camera"] = "none" if camera is None else "simulated" if camera.simulated else "real"
    out["in_use"] = bool(camera is not None and getattr(camera, "lens", None) is not None)
    return out


@bp.get("")
def status() -> Any:
    return jsonify(_status())


@bp.get("/sheet.pdf")
def sheet() -> Response:
    """The ChArUco sheet to print (A4 landscape, at 100 %)."""
    from vision.markers import write_charuco_sheet

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "lens-sheet.pdf"
        write_charuco_sheet(path)
        data = path.read_bytes()
    return Response(data, mimetype="application/pdf",
                    headers={"Content-Disposition": "attachment; filename=fog-companion-lens-sheet.pdf"})


@bp.post("/views")
@security.changes("calibration")
def take_view() -> Any:
    """The camera's newest frame as a view of the sheet: kept, or the reason it was not."""
    frame = _camera().latest()
    if frame is None:
        abort(503, description="no frame from the camera yet")
    with _lock():
        result = _calibrator().add(frame)
    return jsonify(result.to_dict())


@bp.delete("/views")
@security.changes("calibration")
def start_over() -> Any:
    from vision.lens import LensCalibrator

    with _lock():
        current_app.extensions["lens_calibrator"] = LensCalibrator()
    return jsonify(_status())


@bp.post("")
@security.changes("calibration")
def compute() -> Any:
    """Compute the lens from the views, write it, and read the camera through it from now on.
    An existing calibration is replaced only with ``"confirm": true``."""
    data = body()
    confirm = field(data, "confirm", bool, required=False, what="true to confirm")
    path = _file()
    if path is None:
        abort(409, description="the config turns the lens calibration off ([camera] lens = \"none\")")
    camera = _camera()
    if path.exists() and not confirm:
        abort(409, description="a lens calibration exists: send \"confirm\": true to replace it")
    with _lock():
        lens = _calibrator().calibrate()  # LensError (a FogCompanionError): 409 with the reason
    lens.save(path)
    camera.set_lens(lens)
    return jsonify(ok=True, **_status())


@bp.delete("")
@security.changes("calibration")
def forget() -> Any:
    """Remove the calibration (``"confirm": true``): the camera is read as a pinhole again."""
    data = body()
    if not field(data, "confirm", bool, required=False, what="true to confirm"):
        abort(409, description="send \"confirm\": true to remove the lens calibration")
    path = _file()
    if path is not None:
        path.unlink(missing_ok=True)
    camera = getattr(companion(), "camera", None)
    if camera is not None and not camera.simulated:
        camera.set_lens(None)
    return jsonify(ok=True, **_status())
