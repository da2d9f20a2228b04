"""The "Fit board" page's API: which pieces to put where, a fit from the live camera, and Save.

Fitting changes nothing (it can be tried as often as wanted); Save writes the fitted board file
into the data directory, asks before replacing one, and says how the config then chooses it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify

from web_ui import security
from web_ui.api import body, companion, field

bp = Blueprint("fit", __name__, url_prefix="/api/fit")

FITTED_NAME = "fitted"


def _base() -> str:
    config = getattr(companion(), "config", None)
    return config["game"]["board"] if config is not None else "standard"


def _layout() -> Any:
    return companion().game.layout(None, board=_base())


def _target() -> Path | None:
    data_dir = getattr(companion(), "data_dir", None) or current_app.config.get("DATA_DIR")
    return Path(data_dir) / "boards" / f"{FITTED_NAME}.toml" if data_dir else None


def _pending() -> dict[str, Any]:
    return current_app.extensions.setdefault("fit_pending", {})


@bp.get("")
def proposal() -> Any:
    """The anchors to put down, in the board's words, and where a fit would be saved."""
    from vision.fit import propose_anchors

    layout = _layout()
    anchors = propose_anchors(layout)
    target = _target()
    return jsonify(anchors=[{"piece": p, "cell": c, "label": layout.pieces[p].label,
                             "cell_label": layout.cells[c].label} for p, c in anchors.items()],
                   base=_base(), file=str(target) if target else None, exists=bool(target and target.exists()),
                   in_use=bool(target and _base() == str(target)))


@bp.post("")
def fit() -> Any:
    """Fit from the camera's newest frame. Body: ``{"anchors": {piece: cell}}`` (default: the
    proposed ones). The answer: the fit in words, each anchor's residual, the fitted cells drawn
    in the picture's pixels."""
    import numpy as np

    from vision.fit import fit_board, propose_anchors

    data = body()
    layout = _layout()
    anchors = field(data, "anchors", dict, required=False, what="an object of piece: cell")
    if anchors is None:
        anchors = propose_anchors(layout)
    if len(anchors) > 40 or not all(isinstance(k, str) and isinstance(v, str) and len(k) <= 60 and len(v) <= 20
                                    for k, v in anchors.items()):
        abort(400, description="'anchors': up to 40 pairs of piece and cell names")
    camera = getattr(companion(), "camera", None)
    if camera is None:
        abort(503, description="no camera is running: the fit is made from the camera's picture")
    frame = camera.latest()
    if frame is None:
        abort(503, description="no frame from the camera yet")
    fitted = fit_board(layout, frame, dict(anchors), lens=getattr(camera, "lens", None))  # FitError: 409, in words
    text = companion().game.fitted_board(fitted.fit, _base(), FITTED_NAME)
    with current_app.extensions.setdefault("fit_lock", threading.Lock()):
        _pending().update(text=text)
    lattice = []
    for cell in layout.cells.values():
        if not cell.standable or len(cell.outline) < 3:
            continue
        printed = np.array([fitted.fit.apply(p) for p in cell.outline], float)
        px = fitted.to_picture(printed)
        if px is not None:
            lattice.append({"cell": cell.id, "points": [[round(float(x), 1), round(float(y), 1)] for x, y in px]})
    return jsonify(words=fitted.in_words(), **fitted.to_dict(), notes=fitted.notes, lattice=lattice,
                   frame_size=[int(frame.shape[1]), int(frame.shape[0])])


@bp.post("/save")
@security.guarded
def save() -> Any:
    """Write the last fit to the data directory (``"confirm": true`` to replace a saved one)."""
    from companion.paths import write_atomically

    data = body()
    confirm = field(data, "confirm", bool, required=False, what="true to confirm")
    text = _pending().get("text")
    if text is None:
        abort(409, description="nothing to save yet: fit the board first")
    target = _target()
    if target is None:
        abort(409, description="the companion has no data directory to save the board in")
    if target.exists() and not confirm:
        abort(409, description=f"a fitted board is saved already ({target}): send \"confirm\": true to replace it")
    try:
        write_atomically(target, text)
    except OSError as exc:
        abort(507, description=f"cannot write {target}: {exc.strerror or exc}; nothing was changed")
    in_use = _base() == str(target)
    return jsonify(ok=True, file=str(target), in_use=in_use,
                   words=(f"Saved to {target}. " + ("New games use it after a restart." if in_use else
                          f"To use it: set [game] board = \"{target}\" in the config and restart.")))
