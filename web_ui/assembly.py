"""A board laid at setup, read by the camera for the Setup page (``POST /api/setup/read-board``).

A game whose board the players assemble from parts (:meth:`~companion.games.base.Game.assembly`)
asks a ``text`` question with ``read_from_table: true``; the Setup page's "Read from the table"
sends the game and how many play, and this route reads the camera's newest picture
(``vision/assembly.py``): where each part lies and how it is turned. It answers with the game's text
for what it read and, when the rules refuse that for so many players, the reason, so the players
see both and change the table (or the text) before they create the game. A picture the parts
cannot be read from is refused in words naming the part (409).

Open, as the camera's check of a setup is (``look``): it changes nothing and keeps nothing, and what
it reads lies on the table for all to see; creating the game from the answer is what the PIN guards.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify

from companion.errors import AnswerError
from companion.games import get_game, names
from web_ui import security
from web_ui.api_helpers import companion
from web_ui.bodies import body, field

bp = Blueprint("assembly", __name__, url_prefix="/api/setup")


@bp.post("/read-board")
@security.changes("look")
def read_board() -> Any:
    """The parts on the table as the game's answer: ``{"answer", "problem", "question", "parts"}``."""
    from vision.assembly import read_frame

    c = companion()
    data = body()
    name = field(data, "game", str, required=False, check=lambda v: v in names(),
                 what=f"one of the games: {', '.join(names())}") or c.session.game.name
    game = get_game(name)
    config = getattr(c, "config", None)
    board = config["game"]["board"] if config is not None and config["game"]["name"] == name else None
    assembly = game.table.assembly(board)
    if assembly is None:
        abort(400, description=f"{game.title} has no board the players lay at setup: nothing to read from the table")
    players = field(data, "players", int, check=lambda v: v in game.players,
                    what=f"how many play: {', '.join(map(str, game.players))}")
    camera = getattr(c, "camera", None)
    if camera is None:
        abort(409, description="no camera is running (panel-only play): type how the parts lie instead")
    frame = camera.latest()
    if frame is None:
        abort(409, description="the camera has not sent a picture yet: try again in a moment")
    laid = read_frame(frame, assembly, getattr(camera, "lens", None))  # AssemblyError: 409 in its words
    answer = assembly.answer(laid)
    try:
        assembly.check(answer, players)
        problem = None
    except AnswerError as exc:
        problem = str(exc)
    return jsonify(ok=True, question=assembly.question, answer=answer, problem=problem,
                   parts=[{"part": p.part, "x": p.x, "y": p.y, "turn": p.turn} for p in laid])
