"""Who is asking: every request is one viewer, and every answer leaves through the one filter.

A game with secrets is read by four kinds of viewer, and the panel must tell them apart before it
answers anything:

* ``seat``: the phone that holds a player's seat (it joined with the seat's code and keeps the
  claim, ``web_ui/seats.py``); it is sent that seat's view and what its seat may know.
* ``screen``: the table's own screen, the operator's: the client that gave the panel PIN, the Pi's
  own display (a loopback address), the browser paired as the table's screen on a panel without a
  PIN, or, on a panel whose game is played "with secrets unguarded" on purpose, any client without a
  seat. It is shown the seats' codes and QR codes, may release a seat, act for a player and use the
  simulated table (which names every piece). It reads the game as the shared table does.
* ``phone``: a phone at the table joined to no seat: the shared table.
* ``stranger``: anything else that reaches the panel (a script, a page that sends no cookie): the
  shared table too; it is named apart only so that tests and the journal can say who asked.

Every HTTP answer in JSON passes :func:`redact_answer` (an ``after_request`` hook): the whole body
through :class:`companion.table.secrecy.Filter` of the running game for the viewer's seat. A route cannot
forget it. A route whose answer holds only what is printed (the board's places and pieces with
their markers: the stickers everyone sees) is marked :func:`catalogue` and sent as it is; the
secrets test still compares it at two tables that differ only in secrets.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, request, session
from werkzeug.exceptions import HTTPException

from companion.table.secrecy import filter_for, keeps_secrets
from web_ui import security

F = TypeVar("F", bound=Callable[..., Any])
SCREEN_FILE = "screen.json"
KINDS = ("seat", "screen", "phone", "stranger")


@dataclass(frozen=True)
class Viewer:
    """Who asks: ``kind`` (one of :data:`KINDS`) and the seat it holds (only for ``seat``)."""

    kind: str
    seat: str | None = None

    @property
    def screen(self) -> bool:
        return self.kind == "screen"


def init_app(app: Flask) -> None:
    app.extensions["screen"] = ScreenPairing(app.config.get("DATA_DIR") or None)
    app.before_request(no_seat_header)
    app.before_request(refuse_hidden_names)
    app.after_request(redact_answer)


SEAT_HEADER = "X-Fog-Seat"


def no_seat_header() -> None:
    """A seat is held by the phone that joined it: a header naming a seat or a code is refused in words."""
    if SEAT_HEADER in request.headers:
        abort(400, description=f"the {SEAT_HEADER} header is not read: a phone holds its seat by joining it with "
                               "its code on the Board page (POST /api/seats/join), which keeps it in the phone")


# ---------------------------------------------------------------------------------------- the screen
class ScreenPairing:
    """The browser paired as the table's screen on a panel without a PIN, and whether the running
    game is played with its secrets unguarded on purpose (kept in the data directory)."""

    def __init__(self, data_dir: str | None) -> None:
        self.path = Path(data_dir) / SCREEN_FILE if data_dir else None
        self._lock = threading.Lock()
        self._saved: dict[str, Any] = self._load()

    def _load(self) -> dict[str, Any]:
        data = security.load_private(self.path)  # unreadable: nothing paired, nothing unguarded (the safe way)
        return data if isinstance(data, dict) else {}

    def _save(self, data: dict[str, Any]) -> None:
        with self._lock:
            try:
                security.save_private(self.path, data)
            except OSError:  # a full or read-only disk: kept until the panel restarts
                pass
            self._saved = data

    @property
    def paired(self) -> bool:
        return isinstance(self._saved.get("screen"), str)

    def is_screen(self, token: Any) -> bool:
        kept = self._saved.get("screen")
        return isinstance(token, str) and isinstance(kept, str) and hmac.compare_digest(token, kept)

    def pair(self) -> str:
        token = secrets.token_urlsafe(24)
        self._save({**self._saved, "screen": token})
        return token

    def unpair(self) -> None:
        self._save({k: v for k, v in self._saved.items() if k != "screen"})

    def unguarded(self, game_id: str | None) -> bool:
        """Is the game ``game_id`` played with its secrets unguarded, as chosen when it was started?"""
        return game_id is not None and game_id in (self._saved.get("unguarded") or ())

    def leave_unguarded(self, game_id: str) -> None:
        games = [g for g in (self._saved.get("unguarded") or ()) if isinstance(g, str)][-50:]
        self._save({**self._saved, "unguarded": [*games, game_id]})


def pairing() -> ScreenPairing:
    return current_app.extensions["screen"]


def _loopback() -> bool:
    try:
        return ipaddress.ip_address((request.remote_addr or "").split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _running_game_id() -> str | None:
    snap = current_app.extensions["companion"].session.snapshot()
    return snap.game_id if snap.state is not None else None


def is_screen() -> bool:
    """Is this request the table's own screen (see the module's docstring for who is)?"""
    if security.pin_required():
        return security.unlocked()
    return _loopback() or pairing().is_screen(session.get("screen")) or pairing().unguarded(_running_game_id())


def guarded() -> bool:
    """Are the running game's secrets guarded: only the table's screen shows the codes (a PIN, the Pi's
    own display, a paired browser), not given up on purpose when the game was started?"""
    if security.pin_required():
        return True  # a PIN set since: whoever gave it is the screen, however the game was started
    # no PIN: the codes are the Pi's own display's and the paired screen's, unless given up on purpose
    return not pairing().unguarded(_running_game_id())


# ---------------------------------------------------------------------------------------- seats held
class Claims:
    """Which phone holds each seat: a seat is claimed by the phone that joined it, one phone at a time.

    The phone is given a token when it joins (kept in its cookie, and by the page beside the code so a
    restart that forgets cookies does not cost the seat); the claim keeps the token, in the data
    directory. Another phone with the right code is refused while the seat is held: only the table's
    screen releases it (``POST /api/seats/<seat>/release``), and the phone that held it is then a phone
    without a seat at its next request.
    """

    FILE = "seat-claims.json"

    def __init__(self, data_dir: str | None) -> None:
        self.path = Path(data_dir) / self.FILE if data_dir else None
        self._lock = threading.Lock()
        self._claims: dict[str, dict[str, str]] = self._load()

    def _load(self) -> dict[str, dict[str, str]]:
        data = security.load_private(self.path)  # unreadable: every seat free; phones join again with their codes
        return {g: {s: t for s, t in c.items() if isinstance(t, str)} for g, c in data.items()
                if isinstance(g, str) and isinstance(c, dict)} if isinstance(data, dict) else {}

    def _save(self) -> None:
        try:
            security.save_private(self.path, self._claims)
        except OSError:  # a full or read-only disk: the claims hold until the panel restarts
            pass

    def holder(self, game_id: str, seat: str) -> str | None:
        with self._lock:
            return self._claims.get(game_id, {}).get(seat)

    def holds(self, game_id: str, seat: str, token: Any) -> bool:
        held = self.holder(game_id, seat)
        return isinstance(token, str) and held is not None and hmac.compare_digest(held, token)

    def claim(self, game_id: str, seat: str) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            games = {g: c for g, c in self._claims.items() if g == game_id or len(self._claims) < 20}
            games.setdefault(game_id, {})[seat] = token
            self._claims = games
            self._save()
        return token

    def release(self, game_id: str, seat: str, new_code: bool = False) -> bool:
        """Free ``seat``; ``new_code``: the table's screen released it, and its code changes with it."""
        with self._lock:
            held = self._claims.get(game_id, {}).pop(seat, None)
            if new_code:
                counts = self._claims.setdefault(game_id, {})
                counts[f"released:{seat}"] = str(int(counts.get(f"released:{seat}", "0")) + 1)
            self._save()
        return held is not None

    def released(self, game_id: str, seat: str) -> int:
        """How many times the table's screen released ``seat`` (its code is drawn anew each time)."""
        with self._lock:
            count = self._claims.get(game_id, {}).get(f"released:{seat}", "0")
        return int(count) if count.isdigit() else 0


def claims() -> Claims:
    app = current_app
    if "seat_claims" not in app.extensions:
        app.extensions["seat_claims"] = Claims(app.config.get("DATA_DIR") or None)
    return app.extensions["seat_claims"]


def _seats() -> tuple[str | None, tuple[str, ...]]:
    """The running game's id and seats (none when no game runs or it has none)."""
    snap = current_app.extensions["companion"].session.snapshot()
    if snap.state is None or snap.game_id is None:
        return None, ()
    return snap.game_id, tuple(snap.game.seating.seats(snap.state))


def current_seat() -> str | None:
    """The seat this request's phone holds in the running game (None: the shared view). Only the phone
    that joined holds it (its cookie's claim token): never a code or a header sent by anyone."""
    game_id, seats = _seats()
    if not seats or game_id is None:
        return None
    kept = session.get("seat")
    if isinstance(kept, dict) and kept.get("game") == game_id and kept.get("seat") in seats and \
            claims().holds(game_id, str(kept["seat"]), kept.get("token")):
        return str(kept["seat"])
    return None


def current_claim() -> tuple[str | None, Any]:
    """This request's seat, and a test the event stream asks before each event: does the phone still
    hold it? (The table's screen may release it while the stream is open.)"""
    seat = current_seat()
    if seat is None:
        return None, None
    game_id, _s = _seats()
    token, kept = session["seat"].get("token"), claims()
    return seat, lambda: kept.holds(str(game_id), seat, token)


# ---------------------------------------------------------------------------------------- the viewer
def viewer() -> Viewer:
    """This request's viewer, worked out once per request."""
    if "viewer" in g:
        return g.viewer
    seat = current_seat()
    if seat is not None:
        found = Viewer("seat", seat)
    elif is_screen():
        found = Viewer("screen")
    else:
        found = Viewer("phone" if session.get("seen") or request.cookies else "stranger")
    g.viewer = found
    return found


def screen_only(what: str) -> None:
    """Refuse what names every piece (the simulated table) to any viewer but the table's screen."""
    who = viewer()
    if who.kind == "seat":
        abort(403, description=f"{what} is not shown to a phone joined to a seat: it names every hidden piece")
    if not who.screen and security.pin_required():  # asked for on the page: the PIN makes this the screen
        abort(401, description=f"{what} is the table's screen's (it names every hidden piece): it needs the panel PIN")
    if not who.screen:
        abort(403, description=f"{what} is shown on the table's own screen only (it names every hidden piece): "
                               "pair that screen on the Board page")


def catalogue(view: F) -> F:
    """Mark a route whose answer holds only what is printed on the board and its pieces (their
    markers as stuck on): sent as it is, not through the filter (which would rename the pieces)."""
    view.catalogue = True  # type: ignore[attr-defined]
    return view


def said_already(view: F) -> F:
    """Mark a route whose actions are said already, each in the state it was made in (the export, the
    replay: ``web_ui/public.py``): the filter keeps their texts and takes out only hidden pieces."""
    view.said_already = True  # type: ignore[attr-defined]
    return view


def the_table(view: F) -> F:
    """Mark a route of the simulated table (the stand-in for the physical table, where hands move
    tokens by id): shown to the table's screen only (:func:`screen_only`, which the route calls) and
    sent to it as it is, every piece by id, as the tokens lie on a real table for all to touch."""
    view.the_table = True  # type: ignore[attr-defined]
    return view


# ---------------------------------------------------------------------------------------- what comes in
NAMES_NOTHING = frozenset({"api.unlock", "api.choose_pin", "seats.join", "seats.screen"})


def refuse_hidden_names() -> None:
    """No request may name a piece hidden from whoever sends it (a face-down disc's id is its number).

    The filter keeps a hidden piece's id out of every answer; this keeps it out of every question, so
    no refusal can answer "is green 5 the disc on B4?" (a rule that says "already placed" for one id
    and "an oasis" for another would). Hands make such moves at the table, and the pages name a
    face-down piece by what its back shows (``red-disc@B3``); only the table's screen, the operator's
    (its simulated table names every piece; a correction in the notation), names pieces by id."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE") and not request.args:
        return
    endpoint = request.endpoint or ""
    if endpoint in NAMES_NOTHING or not endpoint:
        return
    session_ = getattr(current_app.extensions["companion"], "session", None)
    snap = session_.snapshot() if session_ is not None else None
    if snap is None or snap.state is None or not keeps_secrets(snap.game):
        return
    if viewer().screen:
        return  # the operator's: the simulated table names every piece, a correction in the notation too
    seen = filter_for(snap.game, snap.state, viewer().seat)
    texts = [*request.args.values()]
    if request.method != "GET":
        data = request.get_json(silent=True)
        texts += list(_strings(data))
    if any(seen.names_hidden(t) and not _own_input(snap, t) for t in texts):
        abort(403, description="that names a piece whose face is hidden from this phone: make the move at the "
                               "table, or tap the piece on the Board page")


def _own_input(snap: Any, text: str) -> bool:
    """A seat's own input (``Game.seat_choice``: food put on a character's tally) names the piece as
    its tally, which everyone sees, not where it lies: let through to the seat rules (web_ui/seats.py)."""
    game, state = snap.game, snap.state
    try:
        for action in game.rules.legal_actions(state):
            if str(action) == text.strip():
                whose = game.seating.actor(state, action)
                return whose is not None and game.seating.seat_choice(state, action, whose) is not None
    except (ValueError, KeyError, TypeError, IndexError):
        return False
    return False


def _strings(value: Any) -> Any:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


# ---------------------------------------------------------------------------------------- the one filter
def redact_answer(response: Any) -> Any:
    """Every JSON answer, as this request's viewer may read it (the one boundary of every route)."""
    if response.mimetype != "application/json" or response.is_streamed or response.direct_passthrough:
        return response
    view = current_app.view_functions.get(request.endpoint or "")
    if getattr(view, "catalogue", False):
        return response
    session_ = getattr(current_app.extensions["companion"], "session", None)
    snap = session_.snapshot() if session_ is not None else None
    if snap is None or snap.state is None or not keeps_secrets(snap.game):
        return response
    try:
        who = viewer()
    except HTTPException:  # a PIN header the guard holds back (429): this answer is the shared table's
        who = Viewer("stranger")
    if getattr(view, "the_table", False) and who.screen:
        return response
    try:
        data = json.loads(response.get_data())
    except ValueError:
        return response
    seat = who.seat if response.status_code != 421 else None
    out = filter_for(snap.game, snap.state, seat).redact(data, said=getattr(view, "said_already", False))
    if out != data:
        response.set_data(current_app.json.dumps(out) + "\n")
    return response
