"""Seats: a phone joins one player's seat and from then on is sent that seat's own view.

A game whose declaration has per-seat secrets (a closed fist, one's own face-down pieces) has a
seat per player (:meth:`~companion.games.base.Game.seats`). The Setup and Board pages show a short
code per seat; a player types it on their phone (``POST /api/seats/join``) and the phone keeps the
seat: in the panel's signed cookie, and the page keeps the code in ``localStorage`` and sends it
again as ``X-Fog-Seat`` (so a restart of the companion, which forgets cookies, forgets no seat).
Next to each code the table's screen shows a QR code of the seat's join address (``/#join=CODE``):
a phone's camera opens the Board page with the code after the ``#``, which the page sends to the
same ``/api/seats/join`` as a typed code (counted as a guess, kept the same way) and then drops from
its address. After the ``#`` the code never reaches a server log or a proxy.
From then on ``/api/state``, every answer that carries the state, and ``/events`` give that phone
``view(state, seat)``; a phone joined to no seat gets the shared view (``seat`` None), and no
client is ever given another seat's view.

Why codes and not a seat picked from a list: a phone that could simply pick any seat could read
another player's secrets by picking theirs. A code is shown where the players see it (and, with a
panel PIN, only to a client that gave the PIN), so joining takes being at the table. The codes are
drawn from a key kept in the data directory and the game's id: a new game has new codes, and the
same game keeps its codes across restarts.

Secret simultaneous input: ``GET /api/seats/choices`` lists the legal actions this phone's seat
may enter (:meth:`~companion.games.base.Game.actor`), and ``POST /api/seats/act`` enters one, only
for the seat joined. A commitment is seen by nobody else until the rules reveal it (the game's
view and :meth:`~companion.games.base.Game.said` keep it from every other seat).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import threading
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, abort, current_app, g, jsonify, request, session

from companion.errors import FogCompanionError
from web_ui import security, viewers
from web_ui.bodies import body
from web_ui.viewers import claims, current_claim, current_seat
from web_ui.model import state_json

bp = Blueprint("seats", __name__, url_prefix="/api/seats")

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a screen and typed on a phone
CODE_LENGTH = 6
KEY_FILE = "seat-key"
_KEY_MADE = threading.Lock()   # one key made at a time: see _key
HEADER = "X-Fog-Seat"


class SeatError(FogCompanionError):
    """A seat request the table refuses (no seats in this game, another seat's action)."""

    kind = "seat"


def _companion() -> Any:
    return current_app.extensions["companion"]


def _key() -> bytes:
    """The key the codes are drawn from: kept in the data directory (made once), else the app's. Made
    under a lock: the tablet's page asks for the seats and their QR codes at once, and two keys made
    side by side would show codes that do not join."""
    app = current_app
    key = app.extensions.get("seat_key")
    if key is not None:
        return key
    with _KEY_MADE:
        key = app.extensions.get("seat_key")
        if key is None:
            key = app.extensions["seat_key"] = _made_key(app)
    return key


def _made_key(app: Any) -> bytes:
    """The key kept in the data directory, made there if it is missing or damaged."""
    folder = app.config.get("DATA_DIR")
    key = app.config["SECRET_KEY"] if isinstance(app.config["SECRET_KEY"], bytes) else \
        str(app.config["SECRET_KEY"]).encode()
    if folder:
        path = Path(folder) / KEY_FILE
        try:
            key = path.read_bytes()
            if len(key) < 16:
                raise OSError("too short")
        except OSError:
            key = os.urandom(32)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(key)
                path.chmod(0o600)
            except OSError:  # a read-only or full disk: the codes last until the panel restarts
                pass
    return key


def code_for(game_id: str, seat: str) -> str:
    """The short code a phone enters to join ``seat`` of the game ``game_id``: a new one each time the
    table's screen releases the seat, so a phone that kept (or someone who once read) the old code
    cannot take the seat back."""
    released = claims().released(game_id, seat)
    digest = hmac.new(_key(), f"{game_id}\n{seat}".encode() + (f"\n{released}".encode() if released else b""),
                      hashlib.sha256).digest()
    return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:CODE_LENGTH])


def _table() -> tuple[Any, str | None, tuple[str, ...]]:
    """The running game's snapshot, id and seats (no seats when no game runs or it has none)."""
    snap = _companion().session.snapshot()
    if snap.state is None or snap.game_id is None:
        return snap, None, ()
    return snap, snap.game_id, tuple(snap.game.seating.seats(snap.state))


def _normal(code: str) -> str:
    return "".join(code.split()).upper()


def seat_of_code(code: str) -> str | None:
    """The seat of the running game a code joins, or None."""
    _, game_id, seats = _table()
    typed = _normal(code)
    return next((s for s in seats if game_id and hmac.compare_digest(code_for(game_id, s), typed)), None)


def guessed_seat(code: str) -> str | None:
    """The seat ``code`` joins, checked as a guess: a code is a secret that lets a phone in, like the
    PIN, so wrong codes are held back with wrong PINs, per address (``security.guess``)."""
    found: list[str | None] = [None]

    def right() -> bool:
        found[0] = seat_of_code(code)
        return found[0] is not None

    security.guess(right, "seat codes")
    return found[0]


def not_on_a_seat(what: str) -> None:
    """Refuse what names every piece by id (the simulated table of a game with secrets) to anyone but
    the table's screen."""
    viewers.screen_only(what)


def check_actor(action: str) -> None:
    """Refuse an action entered for a seat by anyone but that seat's phone (or the table's screen).

    A phone joined to one seat enters no other seat's action. A seat's own secret input (what its
    phone is offered as a button, ``Game.seat_choice``: a closed fist, food shared out) is entered
    only on that seat's phone, or on the table's screen on the player's behalf; a move that hands make
    on the table (a disc placed) may be entered by any phone at the table, as before."""
    snap = _companion().session.snapshot()
    if snap.state is None:
        return
    try:
        parsed = snap.game.rules.parse_action(action)
    except FogCompanionError:
        return  # the session names what does not parse
    try:
        whose = snap.game.seating.actor(snap.state, parsed)
        # a seat's own input is a secret only where the game keeps secrets per seat: elsewhere (the tile
        # race, the island) any phone at the table enters any player's play, as there are no seats to join
        own_input = (whose is not None and snap.game.declaration.information == "per-seat"
                     and snap.game.seating.seat_choice(snap.state, parsed, whose) is not None)
    except (FogCompanionError, KeyError, ValueError, TypeError, IndexError):
        return  # an action naming what the rules cannot place (a food counter attacked): the session says why
    if whose is None:
        return
    who = viewers.viewer()
    if who.seat is not None and whose != who.seat:
        raise SeatError(f"this phone is {who.seat}'s seat: {whose} enters that on their own phone")
    if who.seat is None and not who.screen and own_input:
        name = _names(snap, (whose,))[whose]
        abort(403, description=f"only {name}'s own phone (or the table's screen) enters that for {name}: "
                               "join your seat with its code first")


def _codes_shown() -> bool:
    """The codes are the table's screen's to show (the operator's: PIN-unlocked where a PIN is set)."""
    return viewers.viewer().screen


def _loopback(host: str) -> bool:
    host = security.split_host(host)
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def join_url(code: str) -> str:
    """The address a phone's camera opens to join the seat of ``code``: the panel as this client
    reached it, unless that is the Pi's own screen (``localhost``), which no phone can reach; then
    the address ``run`` printed for the home network."""
    base = request.host_url
    printed = getattr(_companion(), "panel_url", None)
    if _loopback(request.host) and isinstance(printed, str) and not _loopback(urlsplit(printed).netloc):
        base = printed
    return f"{base.rstrip('/')}/#join={code}"


def qr_svg(text: str, title: str) -> str:
    """``text`` as a QR code drawn in SVG: one square a dark module, four light ones around it (the
    quiet zone a phone camera needs), error correction M (a screen's glare or a finger on a corner
    still reads). The squares are drawn row by row as runs, so the picture is small and plain."""
    qr = segno.make_qr(text, error="m")
    border = 4
    size = len(qr.matrix) + 2 * border
    runs = []
    for y, row in enumerate(qr.matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append(f"M{start + border},{y + border}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
            f'<title>{escape(title)}</title><rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>')


def _body() -> dict[str, Any]:
    return body()  # the API's one reading of a body: depth, JSON, finite numbers


def _body_code() -> tuple[str, str | None]:
    """The code a phone sends, and the claim token it kept from joining before (a restart forgot its cookie)."""
    data = _body()
    code, token = data.get("code"), data.get("token")
    if not isinstance(code, str) or not 0 < len(code) <= 40:
        abort(400, description="'code' must be the seat's code as the table's screen shows it (six letters and digits)")
    if not code.isascii() or not "".join(code.split()).isalnum():
        abort(400, description="'code' holds characters no seat code has: type the six letters and digits the "
                               "table's screen shows (A-Z and 2-9)")
    if token is not None and (not isinstance(token, str) or not token.isascii() or not 0 < len(token) <= 64):
        abort(400, description="'token' must be the text this phone was given when it joined, or left out")
    return code, token


def _names(snap: Any, seats: tuple[str, ...]) -> dict[str, str]:
    """Each seat by its player's name as the shared view gives it (the seat itself if nobody gave one)."""
    players = {str(p.get("seat")): p for p in (snap.game.panel.view(snap.state).get("players") or ())
               if isinstance(p, dict)} if seats else {}
    return {s: str(players.get(s, {}).get("name") or s) for s in seats}


# ---------------------------------------------------------------------------------------- routes
@bp.get("")
def list_seats() -> Any:
    """The running game's seats, this phone's seat, and each seat's code when this client may see them:
    the table's screen sees every code (and whether a phone holds the seat), a phone its own seat's."""
    snap, game_id, seats = _table()
    names = _names(snap, seats)
    who = viewers.viewer()
    mine = who.seat
    told = {s: who.screen or mine == s for s in seats}
    held = {s: game_id is not None and claims().holder(game_id, s) is not None for s in seats}
    return jsonify(game=game_id, seat=mine, codes_shown=who.screen, screen=who.screen,
                   guarded=viewers.guarded(), pin_required=security.pin_required(),
                   can_pair=not security.pin_required() and not viewers.pairing().paired,
                   paired_here=viewers.pairing().is_screen(session.get("screen")),
                   seats=[{"seat": s, "name": names[s],
                           "code": code_for(str(game_id), s) if told[s] else None,
                           "held": held[s] if who.screen else None,
                           "join_url": join_url(code_for(str(game_id), s)) if told[s] else None,
                           "qr": f"{bp.url_prefix}/{s}/qr.svg" if told[s] else None}
                          for s in seats])


@bp.get("/<seat>/qr.svg")
def qr(seat: str) -> Any:
    """The QR code of ``seat``'s join address, to whoever may see its code (the same rule as the list)."""
    snap, game_id, seats = _table()
    if seat not in seats:
        abort(404, description=f"this game has no seat {seat[:20]!r}")
    who = viewers.viewer()
    if not (who.screen or who.seat == seat):
        abort(403, description="a seat's QR code is shown on the table's own screen")
    svg = qr_svg(join_url(code_for(str(game_id), seat)), f"Scan to join {_names(snap, seats)[seat]}'s seat")
    return Response(svg, mimetype="image/svg+xml")


@bp.post("/join")
@security.changes("play")
def join() -> Any:
    """This phone joins the seat whose code it sends, if no other phone holds it (a wrong code joins
    nothing and says so; a held seat is released on the table's screen first)."""
    code, token = _body_code()
    snap, game_id, seats = _table()
    if not seats or game_id is None:
        raise SeatError("this game has no seats to join: every phone sees the whole table")
    seat = guessed_seat(code)
    if seat is None:
        abort(400, description=f"No seat of this game has the code {_normal(code)[:12]}: type the six letters "
                               "and digits the table's screen shows for your seat.")
    kept = session.get("seat")
    mine = token if token is not None else (kept.get("token") if isinstance(kept, dict) else None)
    if claims().holder(game_id, seat) is not None and not claims().holds(game_id, seat, mine):
        name = _names(snap, seats)[seat]
        raise SeatError(f"{name}'s seat is held by another phone: to join it on this one, release it on the "
                        "table's screen first (Seats, Release)")
    if not claims().holds(game_id, seat, mine):
        mine = claims().claim(game_id, seat)
    session["seat"] = {"game": game_id, "seat": seat, "token": mine}
    session.permanent = True
    g.pop("viewer", None)  # this request's viewer is the seat from here on (its answer is that seat's)
    return jsonify(ok=True, seat=seat, code=code_for(str(game_id), seat), token=mine,
                   state=state_json(_companion(), seat=seat))


@bp.post("/leave")
@security.changes("play")
def leave() -> Any:
    """This phone leaves its seat (the seat is free for another phone) and sees the shared table again."""
    seat, (_, game_id, _s) = current_seat(), _table()
    if seat is not None and game_id is not None:
        claims().release(game_id, seat)
    session.pop("seat", None)
    g.pop("viewer", None)
    return jsonify(ok=True, seat=None, state=state_json(_companion()))


@bp.post("/<seat>/release")
@security.changes("seats")
def release(seat: str) -> Any:
    """The table's screen frees a seat a phone holds (a lost phone, a player moving to another phone)."""
    snap, game_id, seats = _table()
    if seat not in seats or game_id is None:
        abort(404, description=f"this game has no seat {seat[:20]!r}")
    if not viewers.viewer().screen:
        abort(403, description="a seat is released on the table's own screen (with the panel PIN)")
    freed = claims().release(game_id, seat, new_code=True)
    return jsonify(ok=True, seat=seat, released=freed, code=code_for(game_id, seat))


@bp.post("/screen")
@security.changes("seats")
def screen() -> Any:
    """Pair this browser as the table's screen (``{"pair": true}``), or unpair it (``{"pair": false}``).

    On a panel without a PIN the table's screen is the one browser paired so, once: it is shown the
    seats' codes and may release a seat. Another browser may pair only after the screen unpairs (or
    the Pi's own display, or the PIN, does it); with a PIN the screen is whoever gave the PIN."""
    pair = _body().get("pair")
    if not isinstance(pair, bool):
        abort(400, description="'pair' must be true (this is the table's screen) or false (it no longer is)")
    pairing, who = viewers.pairing(), viewers.viewer()
    if pair:
        if pairing.paired and not who.screen:
            raise SeatError("another browser is paired as the table's screen already: unpair it there (Seats, "
                            "Unpair this screen), or set a panel PIN on the Setup page: whoever gives the PIN is "
                            "then the table's screen")
        session["screen"] = pairing.pair()
        session.permanent = True
    else:
        if not who.screen:
            raise SeatError("only the table's screen unpairs itself")
        pairing.unpair()
        session.pop("screen", None)
    g.pop("viewer", None)
    return jsonify(ok=True, screen=pair)


@bp.get("/choices")
def choices() -> Any:
    """The legal actions this phone's seat may enter now as buttons, each with the words the button
    says (``Game.seat_choice``: "Close your fist on 3 markers", never the notation); an action the
    game enters by moving pieces (a disc placed or swapped) is not one of them."""
    seat = current_seat()
    snap = _companion().session.snapshot()
    if seat is None or snap.state is None:
        return jsonify(seat=seat, choices=[])
    game, state = snap.game, snap.state
    offered = []
    for action in game.rules.legal_actions(state):
        if game.seating.actor(state, action) == seat and (label := game.seating.seat_choice(state, action, seat)) is not None:
            offered.append({"action": str(action), "label": label})
    return jsonify(seat=seat, choices=offered)


MAX_ACTIONS = 40  # a seat's choices entered with one tap (what its phone shared out, the view's seat_share)


def _typed() -> list[str]:
    """The actions the body carries: ``action`` (one) or ``actions`` (several, entered in order)."""
    data = request.get_json(silent=True)
    data = data if isinstance(data, dict) else {}
    many = data.get("actions") if "actions" in data else [data.get("action")]
    if not isinstance(many, list) or not 0 < len(many) <= MAX_ACTIONS or \
            not all(isinstance(t, str) and 0 < len(t) <= 400 for t in many):
        abort(400, description=f"'action' must be one of the actions /api/seats/choices offers ('actions': a list of "
                               f"1 to {MAX_ACTIONS} of them, entered in order)")
    return [t.strip() for t in many]


def _act_kind() -> str:
    """A correction is guarded however it comes (one among several too); a seat's own choices are play."""
    data = request.get_json(silent=True)
    many = (data.get("actions") if "actions" in data else [data.get("action")]) if isinstance(data, dict) else []
    kinds = {security.action_kind(_companion().session.game, t) for t in (many if isinstance(many, list) else [])
             if isinstance(t, str)}
    return next((k for k in sorted(kinds) if k != "play"), "play")


@bp.post("/act")
@security.changes(_act_kind)
def act() -> Any:
    """Enter an action of this phone's seat (its closed fist), or several in order (what it shared
    out in the box of the view's ``seat_share``, one action a unit): refused for a phone joined to no
    seat, or for an action that is not this seat's choice when its turn in the list comes (those
    before it stay entered, and the refusal says how many); the answer carries this seat's view only."""
    seat = current_seat()
    if seat is None:
        raise SeatError("join your seat first: this phone is not joined to a seat of this game")
    typed = _typed()
    for done, text in enumerate(typed):
        snap = _companion().session.snapshot()
        if snap.state is None:
            raise SeatError("no game is running: start one on the setup page")
        offered = {str(a) for a in snap.game.rules.legal_actions(snap.state) if snap.game.seating.actor(snap.state, a) == seat}
        check_actor(text)  # another seat's action is refused naming whose it is
        if text not in offered:
            before = f" ({done} of the {len(typed)} entered before it)" if done else ""
            raise SeatError(f"{text[:60]!r} is not one of {seat}'s choices now{before}")
        _companion().session.act(text)
    return jsonify(ok=True, seat=seat, entered=len(typed), state=state_json(_companion(), seat=seat))
