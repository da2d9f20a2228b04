"""The simulated table's routes under ``/api/table``: hands moving, turning and setting tokens on the
stand-in for the physical table (documented in docs/api.md).

Its own blueprint, apart from :mod:`web_ui.api`, since these routes serve the table's screen only
(``viewers.the_table``) and only while the camera is the simulated one: a real table's hands
move the pieces themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, abort, jsonify

from companion.table.sync import canonical
from web_ui import seats, security, viewers
from web_ui.api_helpers import companion, state_or_409
from web_ui.bodies import body, field
from web_ui.public import keeps_secrets

bp = Blueprint("table", __name__, url_prefix="/api")


def _camera() -> Any:
    if keeps_secrets(companion().session.game):  # it names each face-down piece by id: the table's screen only
        seats.not_on_a_seat("the simulated table")
    camera = getattr(companion(), "camera", None)
    if camera is None:
        abort(409, description="no camera is running")
    if not camera.simulated:
        abort(409, description="the table can only be changed by hand on the simulated table")
    return camera


@bp.post("/table/move")
@viewers.the_table
@security.changes("table")
def table_move() -> Any:
    """Move a token on the simulated table, as a hand would; the camera then sees it."""
    layout, data = (camera := _camera()).board, body()
    piece = field(data, "piece", str, check=lambda v: len(v) <= 60, what="a piece id")
    cell = field(data, "cell", str, required=False, check=lambda v: len(v) <= 20, what="a cell id (null: off)")
    facing = field(data, "facing", str, required=False, check=lambda v: len(v) <= 20, what="a way the piece faces")
    if piece not in layout.pieces:
        abort(400, description=f"no piece {piece!r} on this board")
    if cell is not None and cell not in layout.cells:
        abort(400, description=f"no cell {cell!r} on this board")
    faces = layout.pieces[piece].faces  # a piece with a marker on each face is set down with ``facing`` up
    if facing is not None and faces and facing not in faces:
        abort(400, description=f"{facing!r} is not a face of {piece!r}: {', '.join(faces)}")
    if facing is not None and not faces and not (layout.pieces[piece].facing and facing in layout.facings):
        abort(400, description=f"{piece!r} faces no way on this board" if not layout.pieces[piece].facing
              or not layout.facings else f"{facing!r} is not a way to face: {', '.join(layout.facings)}")
    camera.move_piece(piece, cell, facing)
    return jsonify(ok=True, table={c: list(ps) for c, ps in camera.table().items()})


@bp.post("/table/setup")
@viewers.the_table
@security.changes("table")
def table_setup() -> Any:
    """Hands set the simulated table up as the game expects it (the generated setup, or now)."""
    camera, session = _camera(), companion().session
    state_or_409()
    camera.set_table(as_laid(session.game, session.state, camera.table(), session.expected()))
    return jsonify(ok=True, table={c: list(ps) for c, ps in camera.table().items()})


@bp.post("/table/turn-over")
@viewers.the_table
@security.changes("table")
def table_turn_over() -> Any:
    """Turn a token over on the simulated table, as a hand would: its marker is hidden, the token stays."""
    camera = _camera()
    piece = field(body(), "piece", str, check=lambda v: len(v) <= 60, what="a piece id")
    if piece not in camera.board.pieces:
        abort(400, description=f"no piece {piece!r} on this board")
    camera.turn_over(piece)
    return jsonify(ok=True, table={c: list(ps) for c, ps in camera.table().items()}, face_down=camera.face_down())


@bp.get("/table")
@viewers.the_table
def table() -> Any:
    """The simulated table; ``in_box``: the pieces its hands may draw from the box (a game's, null: any)."""
    camera, session, box = _camera(), companion().session, None
    if session.state is not None and (drawn := session.game.table.in_box(session.state)) is not None:
        box = list(drawn)
    return jsonify(table={c: list(ps) for c, ps in camera.table().items()}, face_down=camera.face_down(), in_box=box)


@bp.post("/table/hand")
@viewers.the_table
@security.changes("table")
def table_hand() -> Any:
    """Hold a hand over the simulated board (``"random"``, ``"fiducial:N"``) or take it away (null)."""
    camera = _camera()
    where = field(body(), "where", str, required=False, check=lambda v: v == "random" or (
        v.startswith("fiducial:") and v[9:].isdigit() and len(v) < 14), what="'random', 'fiducial:N' or null")
    camera.source.set_hand(where)
    return jsonify(ok=True, hand=where)


def as_laid(game: Any, state: Any, now: Mapping[str, Sequence[str]], want: Mapping[str, Sequence[str]]
            ) -> dict[str, list[str]]:
    """The table the game expects (``want``) as hands lay it from the table as it stands (``now``): a
    look-alike token already on a place where the game wants one of its kind stays there, and only the
    others move (the ids the game gives look-alike tokens name no particular one). Laid by id instead, a
    token carried under another piece would be another token than the one lifted, its marker out of the
    camera's sight there while the camera still holds it where it lay: red for a legal play. Kept by id
    wherever the game tells its look-alikes apart there."""
    wanted = {(c, i): k for c, ps in want.items() for i, p in enumerate(ps) if (k := _kind(game, state, p, c))}
    lying = {p: k for c, ps in now.items() for p in ps if (k := _kind(game, state, p, c))}
    out, slots = {c: list(ps) for c, ps in want.items()}, list[tuple[str, int]]()
    kept = {p for c, ps in want.items() for i, p in enumerate(ps) if (c, i) not in wanted}  # laid by id
    for (cell, i), k in wanted.items():
        same = next((q for q in now.get(cell, ()) if lying.get(q) == k and q not in kept), None)
        if same is None:
            slots.append((cell, i))
        else:
            kept.add(same)
            out[cell][i] = same
    pool = [*lying.items(), *((want[c][i], k) for (c, i), k in wanted.items())]
    for cell, i in slots:
        piece = next((q for q, k in pool if k == wanted[(cell, i)] and q not in kept), None)
        if piece is None:  # not one of its kind to spare: laid as the game names them
            return {c: list(ps) for c, ps in want.items()}
        out[cell][i] = piece
        kept.add(piece)
    agrees = canonical(game.table.alike(state, out)) == canonical(game.table.alike(state, want))
    return out if agrees else {c: list(ps) for c, ps in want.items()}


def _kind(game: Any, state: Any, piece: str, cell: str) -> str | None:
    """The kind the rules count a look-alike token as on ``cell`` (its first id); None for a token they
    count as itself there, or do not count at all (one lying in a supply beside the board)."""
    twice = game.table.alike(state, {cell: (piece, piece)}).get(cell)
    return None if not twice or tuple(twice) == (piece, piece) else str(game.table.alike(state, {cell: (piece,)})[cell][0])
