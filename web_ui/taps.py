"""A piece tapped on the Board page: which names a reader may tap, and a play chosen for a face-down one.

A game that keeps secrets names a face-down piece on its pages by what its back shows and where it
lies (``red-disc@B3``), never by its id (that is what it hides). The page taps it by that name; the
game's :meth:`~companion.games.base.Game.targets` gives its plays by that name too, and the play
chosen is taken as an action, since no piece of the layout goes by the shown name.
"""

from __future__ import annotations

from typing import Any

from flask import abort

from companion.games import Game
from web_ui.public import keeps_secrets, named_pieces


def tappable(game: Game, state: Any, piece: str, seat: str | None) -> bool:
    """A piece the reader may tap: one of the board's pieces, or in a game that keeps secrets any
    piece the reader's view names (a face-down piece as it is shown, a face-up one by its id); or a
    supply beside the board the view lists (``supplies``), whose dots are where what it holds goes."""
    view = game.panel.view(state, seat)
    if piece in (view.get("supplies") or {}):
        return True
    if not keeps_secrets(game):
        return piece in game.table.layout(state).pieces
    return piece in named_pieces(view)


def shown_play(game: Game, state: Any, piece: str, cell: str | None, action: str | None, seat: str | None) -> str:
    """The play chosen for a piece tapped by its shown name: one of the ways to ``cell`` its dots
    offered (400 otherwise, in words: the page shows the pieces and the dots to tap)."""
    if not tappable(game, state, piece, seat):
        abort(400, description=f"'piece': no piece {piece[:60]!r} on this board")
    ways = game.panel.targets(state, piece).get(cell or "", ())
    if action is None or action not in [w.actions[0] for w in ways]:
        abort(400, description="'action': tap one of the dots the piece shows")
    return action
