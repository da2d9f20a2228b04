"""What the session says of the table, as someone who may not know a game's secrets may read it.

The session names pieces by id in what it publishes (a step's pieces to move, the offenders and
misplaced pieces of an out-of-sync): the panel marks them on the board, the LEDs point at them.
In a game with hidden information a piece's id can be the secret itself (a face-down disc's id is
its number), so whatever leaves the companion for a phone or the journal says such a piece in the
game's public words instead (:meth:`~companion.games.base.Game.words`: "the face-down natural
disc on H1"), and an action as the table may read it (:meth:`~companion.games.base.Game.said`).
A piece the reader's view names itself (a face-up disc) keeps its id. A game that declares no
hidden information is said exactly as the session has it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.games.base import Game, unfaced

PIECE_LISTS = ("offenders", "to_move")


def keeps_secrets(game: Game) -> bool:
    """The game declares information hidden from someone (a seat, or everyone but the companion)."""
    return game.declaration.information != "none"


def named_pieces(view: Any) -> set[str]:
    """Every text in a view: the pieces its reader may name (a face-up piece by its id)."""
    return set(_texts(view))


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def told(game: Game, state: Any, data: dict[str, Any], seat: str | None = None) -> dict[str, Any]:
    """A status or an event's data (``offenders``, ``to_move``, ``pieces``, an ``action``) as ``seat``
    (None: the shared table) may read it in ``state``."""
    if not keeps_secrets(game) or state is None:
        return data
    known, words = named_pieces(game.view(state, seat)), game.words(state)

    def said(piece: Any) -> Any:
        """A piece named with its face or way (``red-3^back``) is said as the piece itself."""
        if not isinstance(piece, str) or piece in known:
            return piece
        own = unfaced(piece)[0]
        return own if own in known else words.get(own, "a piece")

    out = dict(data)
    for key in PIECE_LISTS:
        if isinstance(out.get(key), list | tuple):
            out[key] = [said(p) for p in out[key]]
    if isinstance(out.get("pieces"), list):
        # a marker's id names the piece through the layout: left out where the piece is said in words
        out["pieces"] = [{**{k: v for k, v in m.items() if k != "marker" or said(m.get("piece")) == m.get("piece")},
                          "piece": said(m.get("piece"))} if isinstance(m, dict) else m for m in out["pieces"]]
    if isinstance(out.get("differences"), list):  # the setup checked: each place's pieces, expected and seen
        out["differences"] = [{**d, **{k: [said(p) for p in d[k]] for k in ("expected", "seen")
                                       if isinstance(d.get(k), list | tuple)}} if isinstance(d, dict) else d
                              for d in out["differences"]]
    if isinstance(out.get("action"), str):
        out["action"] = game.said(state, out["action"], seat)
    return out


def redact(game: Game, state: Any, payload: Any, seat: str | None = None) -> Any:
    """Anything that leaves the companion (an answer, an event's data, a published message) as ``seat``
    (None: the shared table, anyone in the room) may read it in ``state``: the one filter every
    output passes through."""
    return told(game, state, payload, seat) if isinstance(payload, dict) else payload
