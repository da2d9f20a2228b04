"""The "Fit board" page's API: which pieces to put where, a fit from the live camera, and Save.

Fitting changes nothing (it can be tried as often as wanted); Save writes the fitted board file
into the data directory, asks before replacing one, and says how the config then chooses it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify

from web_ui import security, viewers
from web_ui.api_helpers import companion
from web_ui.bodies import body, field

bp = Blueprint("fit", __name__, url_prefix="/api/fit")

FITTED_NAME = "fitted"


def _base() -> str:
    config = getattr(companion(), "config", None)
    return config["game"]["board"] if config is not None else "standard"


def _layout() -> Any:
    return companion().game.table.layout(None, board=_base())


def _target() -> Path | None:
    data_dir = getattr(companion(), "data_dir", None) or current_app.config.get("DATA_DIR")
    return Path(data_dir) / "boards" / f"{FITTED_NAME}.toml" if data_dir else None


def _pending() -> dict[str, Any]:
    return current_app.extensions.setdefault("fit_pending", {})


@bp.get("")
@viewers.catalogue
def proposal() -> Any:
    """The anchors to put down, in the board's words, and where a fit would be saved."""
    from vision.fit import propose_anchors

    layout = _layout()
    anchors = propose_anchors(layout)
    target = _target()
    hex_kinds = sorted({c.kind for c in layout.cells.values() if len(c.outline) == 6})
    rows = sorted({c.group for c in layout.cells.values() if c.group and len(c.outline) == 6})
    return jsonify(anchors=[{"piece": p, "cell": c, "label": layout.pieces[p].label,
                             "cell_label": layout.cells[c].label} for p, c in anchors.items()],
                   hex_kinds=hex_kinds, rows=rows,
                   base=_base(), file=str(target) if target else None, exists=bool(target and target.exists()),
                   in_use=bool(target and _base() == str(target)))


@bp.post("")
@security.changes("look")
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
    text = companion().game.table.fitted_board(fitted.fit, _base(), FITTED_NAME)
    printed = _printed(layout, fitted.fit.apply)
    with _lock():  # a new fit starts the edits afresh
        number = int(_pending().get("number", 0)) + 1
        _pending().clear()
        _pending().update(text=text, fitted=fitted, edits=[], frame=frame, number=number, printed=printed,
                          frame_size=[int(frame.shape[1]), int(frame.shape[0])])
    return jsonify(words=fitted.in_words(), **fitted.to_dict(), notes=fitted.notes, lattice=_lattice(layout, fitted),
                   frame_size=_pending()["frame_size"], printed=printed, picture=number)


RECTIFIED_PX_PER_MM = 1.6  # the picture seen from straight above: about 800 px across a standard board
MARGIN_MM = 15.0


def _printed(layout: Any, move: Any) -> dict[str, Any]:
    """The board's places in printed millimetres (``move``: file mm -> printed mm), for drawing on
    the picture seen from straight above, and the extent that picture covers."""
    cells = []
    for cell in layout.cells.values():
        if len(cell.outline) >= 3:
            pts = [move(p) for p in cell.outline]
            cells.append({"cell": cell.id, "kind": cell.kind, "label": cell.label,
                          "points": [[round(x, 1), round(y, 1)] for x, y in pts]})
    xs = [p[0] for c in cells for p in c["points"]]
    ys = [p[1] for c in cells for p in c["points"]]
    box = [min(xs, default=0) - MARGIN_MM, min(ys, default=0) - MARGIN_MM,
           max(xs, default=1) + MARGIN_MM, max(ys, default=1) + MARGIN_MM]
    return {"cells": cells, "box": [round(v, 1) for v in box]}


@bp.get("/rectified.jpg")
def rectified() -> Any:
    """The picture the fit was made from, seen from straight above (printed millimetres, scaled)."""
    import cv2
    import numpy as np
    from flask import Response

    with _lock():
        fitted, frame, printed = (_pending().get(k) for k in ("fitted", "frame", "printed"))
    if fitted is None or frame is None or printed is None or fitted.homography is None:
        abort(404, description="no fit yet: fit the board first")
    if fitted.lens is not None:
        frame = cv2.undistort(frame, fitted.lens.matrix, fitted.lens.distortion)
    x0, y0, x1, y1 = printed["box"]
    s = RECTIFIED_PX_PER_MM
    to_view = np.array([[s, 0, -s * x0], [0, s, -s * y0], [0, 0, 1]], float) @ fitted.homography
    size = (max(1, round((x1 - x0) * s)), max(1, round((y1 - y0) * s)))
    top = cv2.warpPerspective(frame, to_view, size, flags=cv2.INTER_AREA, borderValue=(40, 40, 40))
    ok, data = cv2.imencode(".jpg", top, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        abort(500, description="the picture could not be encoded")
    return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _lock() -> Any:
    return current_app.extensions.setdefault("fit_lock", threading.RLock())


def _lattice(layout: Any, fitted: Any, printed_mm: bool = False) -> list[dict[str, Any]]:
    """Every place of ``layout`` drawn in the picture's pixels, with its kind: what the board file
    believes the print shows. Its outlines are in the file's millimetres (moved by the fit), or in
    printed ones already (``printed_mm``: a fitted board)."""
    import numpy as np

    out = []
    for cell in layout.cells.values():
        if len(cell.outline) < 3:
            continue
        printed = np.array(cell.outline if printed_mm else [fitted.fit.apply(p) for p in cell.outline], float)
        px = fitted.to_picture(printed)
        if px is not None:
            out.append({"cell": cell.id, "kind": cell.kind, "label": cell.label, "standable": cell.standable,
                        "points": [[round(float(x), 1), round(float(y), 1)] for x, y in px]})
    return out


MAX_EDITS = 60


@bp.post("/edits")
@security.changes("look")
def edits() -> Any:
    """Where the print differs from the file: ``{"edits": [...]}``, each ``{"cell": id, "kind": k}``,
    ``{"cell": id, "remove": true}``, ``{"at_mm": [x, y], "kind": k}`` (a hex added where the picture
    from above shows it, printed millimetres; ``at_px``: the camera's pixels) or ``{"row": id, "empty": n}``. The whole list each time (the page keeps it); the board
    is checked at once: the answer says what does not add up, or draws the edited board."""
    import tempfile

    import numpy as np

    from companion.errors import BoardFileError

    raw = field(body(), "edits", list, what="a list of edits")
    if len(raw) > MAX_EDITS or not all(isinstance(e, dict) and len(e) <= 4 for e in raw):
        abort(400, description=f"'edits': up to {MAX_EDITS} objects")
    with _lock():
        fitted = _pending().get("fitted")
        if fitted is None:
            abort(409, description="fit the board first: edits are made on a fitted board")
        game = companion().game
        made = []
        for edit in raw:
            edit = dict(edit)
            for key in ("at_px", "at_mm"):
                if key not in edit:
                    continue
                at = edit.pop(key)
                if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, (int, float))
                                                                    and not isinstance(v, bool) for v in at)):
                    abort(400, description=f"'{key}': a place [x, y]")
                spot = fitted.to_printed(np.array([at], float))[0] if key == "at_px" else at
                edit["add"] = list(fitted.fit.unapply((float(spot[0]), float(spot[1]))))
            made.append(edit)
        try:
            text = game.table.fitted_board(fitted.fit, _base(), FITTED_NAME, edits=made)
        except BoardFileError as exc:
            why = str(exc).removeprefix(f"fitted board {FITTED_NAME}: ")
            _pending().update(text=None, problem=why)  # nothing to save until the board adds up
            return jsonify(ok=False, words=f"Not saved yet: {why}", edits=raw)
        _pending().update(text=text, edits=made, problem=None)
        with tempfile.TemporaryDirectory() as tmp:  # the edited board as the camera would use it
            path = Path(tmp) / "edited.toml"
            path.write_text(text, encoding="utf-8")
            edited = game.table.layout(None, board=str(path))
        drawn = _lattice(edited, fitted, printed_mm=True)
    return jsonify(ok=True, words=f"{len(made)} change(s): the board adds up and can be saved.", edits=raw,
                   lattice=drawn, printed=_printed(edited, lambda p: p))


@bp.post("/save")
@security.changes("calibration")
def save() -> Any:
    """Write the last fit to the data directory (``"confirm": true`` to replace a saved one)."""
    from companion.app.paths import write_atomically

    data = body()
    confirm = field(data, "confirm", bool, required=False, what="true to confirm")
    text = _pending().get("text")
    if text is None:
        abort(409, description=f"the board as edited does not add up: {_pending()['problem']}"
              if _pending().get("fitted") is not None else "nothing to save yet: fit the board first")
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
