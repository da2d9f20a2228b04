"""The one filter: whatever leaves the companion, as its reader may know it.

In a game with hidden information a piece's id can be the secret itself (a face-down disc's id is
its number), and so can its marker's number (the back markers are numbered in disc order). The
session, the camera and the rules name pieces by id everywhere (a step's pieces to move, the
offenders of an out-of-sync, a correction's text, the picture the camera read, the pieces the
undone action expected), so a filter per output would be a filter some new output forgets. Instead
every output passes through :class:`Filter` once, at the boundary, for its reader:

* the panel's HTTP answers (one ``after_request`` hook, ``web_ui/secrets.py``), its event stream
  and the camera picture's overlay (drawn without the id or number of a piece the reader may not
  name), the export, the journal's lines and the club's published messages;
* a reader is a seat (a phone that holds it: it may know what its view names) or the shared table
  (``seat`` None: the table's own screen, a phone joined to no seat, a stranger, the journal).

What a reader may name is what its view names (:meth:`~companion.games.base.Game.view`): every
text in it. A piece of the layout it does not name is said in the game's public words
(:meth:`~companion.games.base.Game.words`: "the face-down natural disc on H1") wherever its id
stands as a value in the output, alone or inside a text (``correct A1=natural-3`` and ``natural-3^back``
alike); a marker number beside such a piece is left out; an action's text is said as the table may
read it (:meth:`~companion.games.base.Game.said`: another seat's fist without its markers); a list
of pieces is put in the order of what it says, so not even the order of the ids shows through. A
mapping's keys are places or pieces as printed (a piece's tally kept beside the board): kept. A game that declares no hidden information passes through untouched.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from companion.errors import FogCompanionError
from companion.games.base import Game, unfaced

# keys whose text is an action in the game's notation: said as the reader may read it
ACTION_KEYS = frozenset({"action", "undone", "actions"})
# keys whose texts the game wrote for this very reader (its view's log in words, its actions said):
# an id there names what is public of the piece (its tally beside the board), never where it lies
TRUSTED_KEYS = frozenset({"history", "log"})
HIDDEN = "a hidden piece"
# keys that carry a marker's number next to the piece a dict names: left out with a hidden piece
MARKER_KEYS = frozenset({"marker", "markers", "id"})
PIECE_KEYS = ("piece", "id")


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


class Filter:
    """What one reader may know of one state of one game, and the means to say anything so.

    Built once per state and reader (:func:`filter_for` keeps the last few), used for every output
    to that reader: :meth:`redact` for data, :meth:`conceals` for a picture's labels.
    """

    def __init__(self, game: Game, state: Any, seat: str | None = None) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.active = keeps_secrets(game) and state is not None
        self.secret: dict[str, str] = {}  # piece id -> its public words
        self.markers: frozenset[int] = frozenset()
        self._pattern: re.Pattern[str] | None = None
        self._ids: frozenset[str] = frozenset()
        if not self.active:
            return
        known = named_pieces(game.panel.view(state, seat))
        words = game.panel.words(state)
        pieces = game.table.layout(state).pieces
        self._ids = frozenset(pieces)
        self.secret = {p: str(words.get(p) or "a piece") for p in pieces if p not in known}
        self.markers = frozenset(m for p in self.secret for m in (pieces[p].marker, *pieces[p].faces.values()))
        if self.secret:
            ids = "|".join(re.escape(p) for p in sorted(self.secret, key=len, reverse=True))
            # an id alone or inside a text, with the face or way it is named with (``green-5^back``)
            self._pattern = re.compile(rf"(?<![\w-])({ids})(?:\^[\w-]+)?(?![\w-])")

    # ------------------------------------------------------------------------------ pieces
    def conceals(self, piece: str) -> bool:
        """Is ``piece`` (an id, maybe with its face) one this reader may not name?"""
        return self.active and unfaced(piece)[0] in self.secret

    def conceals_marker(self, marker: Any) -> bool:
        """Is ``marker`` the number of a marker on a piece this reader may not name?"""
        return self.active and isinstance(marker, int) and marker in self.markers

    def names_hidden(self, value: str) -> bool:
        """Does ``value`` (an action's text, a piece asked about) name a piece this reader may not name?"""
        return self._pattern is not None and self._pattern.search(value) is not None

    def text(self, value: str, placed: bool = False) -> str:
        """A text with every id of a piece the reader may not name replaced: a piece named alone (a
        list's ``green-5^back``) is where it lies, in the game's public words ("the face-down green
        disc on D1"); inside a text, where the id could stand for what is public of it (its tally),
        it is "a hidden piece", unless ``placed``: the text places pieces (a correction's ``D1=green-5``)."""
        if self._pattern is None or not value:
            return value
        whole = self._pattern.fullmatch(value)
        if whole is not None:
            return self.secret[whole.group(1)]
        return self._pattern.sub(lambda m: self.secret[m.group(1)] if placed else HIDDEN, value)

    def said(self, action: str) -> str:
        """An action's text as the reader may read it: the game's ``said`` (which knows what of it is
        public); a correction, which places pieces by id, with its hidden pieces in words."""
        if not self.active:
            return action
        try:
            action = self.game.seating.said(self.state, action, self.seat)
        except (FogCompanionError, KeyError, TypeError, ValueError, IndexError):
            return self.text(action)  # not an action of this state: its ids are said as in any text
        return self.text(action, placed=True) if action.startswith("correct") else action

    # ------------------------------------------------------------------------------ data
    def redact(self, value: Any, said: bool = False) -> Any:
        """``value`` (an answer, an event's data, a message: JSON-like) as this reader may read it.
        ``said``: its actions are said already, each in the state it was made in (an export, a replay):
        their texts are kept as they are, as the game's own words for this reader."""
        if not self.active:
            return value
        return self._walk(value, None, said)

    def _walk(self, value: Any, key: str | None, said: bool) -> Any:
        if isinstance(value, str):
            if key in TRUSTED_KEYS or key in ACTION_KEYS and said:
                return value
            return self.said(value) if key in ACTION_KEYS else self.text(value)
        if isinstance(value, dict):
            return self._mapping(value, said)
        if isinstance(value, (list, tuple)):
            out = [self._walk(v, key, said) for v in value]
            if out != list(value) and all(self._is_piece(v) for v in value):
                out.sort(key=lambda v: json.dumps(v, sort_keys=True, default=str))  # no order of ids shows
            return out
        return value

    def _mapping(self, value: dict[Any, Any], said: bool) -> dict[Any, Any]:
        hidden = any(isinstance(value.get(k), str) and self.conceals(value[k]) for k in PIECE_KEYS)
        out: dict[Any, Any] = {}
        for k, v in value.items():
            if hidden and k in MARKER_KEYS and not isinstance(v, str):
                continue  # a hidden piece's marker number would name it
            if k == "marker" and self.conceals_marker(v):
                continue
            if isinstance(v, list) and k in ("unknown_markers", "duplicates", "markers"):
                v = [m for m in v if not self.conceals_marker(m)]
            # a key is kept as it is: keys are places, or pieces as printed (a piece's tally, face up
            # beside the board), never where a hidden piece lies
            out[k] = self._walk(v, k if isinstance(k, str) else None, said)
        return out

    def _is_piece(self, value: Any) -> bool:
        """A bare piece (``green-5``, ``green-5^back``) or a dict that names one: a list of such is a set."""
        if isinstance(value, str):
            return unfaced(value)[0] in self._ids
        return isinstance(value, dict) and any(isinstance(value.get(k), str) for k in PIECE_KEYS)


_CACHE: OrderedDict[tuple[int, int, str | None], Filter] = OrderedDict()
_LOCK = threading.Lock()
CACHED = 32


def filter_for(game: Game, state: Any, seat: str | None = None) -> Filter:
    """The filter of ``seat`` in ``state`` (the same object for every output of one moment: a state
    is never changed in place, and a cached filter keeps its state alive so its id is not reused)."""
    key = (id(game), id(state), seat)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None and found.state is state and found.game is game:
            _CACHE.move_to_end(key)
            return found
    made = Filter(game, state, seat)
    with _LOCK:
        _CACHE[key] = made
        while len(_CACHE) > CACHED:
            _CACHE.popitem(last=False)
    return made


def redact(game: Game, state: Any, payload: Any, seat: str | None = None) -> Any:
    """Anything that leaves the companion (an answer, an event's data, a published message) as ``seat``
    (None: the shared table, anyone in the room) may read it in ``state``: the one filter every
    output passes through."""
    return filter_for(game, state, seat).redact(payload)


def told(game: Game, state: Any, data: dict[str, Any], seat: str | None = None) -> dict[str, Any]:
    """A status or an event's data as ``seat`` may read it (:func:`redact` of a mapping)."""
    out = redact(game, state, data, seat)
    return out if isinstance(out, dict) else data
