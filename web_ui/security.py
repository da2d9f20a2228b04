"""Home-network safety: who may talk to the panel, and the PIN.

Anyone on the table's Wi-Fi can open the panel, and any web page open on any phone in the house
could try to reach it. So:

* **Host names.** A request is answered only when its ``Host`` is one of the Pi's own addresses,
  ``localhost``, the Pi's host name, ``HOSTNAME.local`` or a name listed in ``[panel]
  allowed_hosts``. A page on ``evil.example`` whose name is re-pointed at the Pi (DNS
  rebinding) is refused before any route runs, reads included: it would otherwise pass a
  same-origin check, because its own ``Origin`` and ``Host`` agree.
* **Same origin.** A state-changing request must be JSON (an HTML form elsewhere cannot send
  that, and a cross-site ``fetch`` with it needs a CORS preflight this app never grants), and
  when the browser says where it comes from (``Origin``, ``Sec-Fetch-Site``) that is the panel.
* **Headers.** Every answer carries a Content-Security-Policy (own scripts only, never framed),
  ``X-Content-Type-Options: nosniff`` and a ``Referrer-Policy``.
* **PIN.** With a PIN (from the config, or chosen in the setup wizard on the first run), the
  kinds of change in :data:`GUARDED` (starting or resuming a game, corrections, undo, the
  camera's lens and board fit) need it once per browser (``POST /api/unlock``) or an
  ``X-Fog-Pin`` header. What a request changes is declared on its route (:func:`changes`;
  ``/api/act`` asks the action it carries), and one hook (:func:`check_pin`) checks every
  state-changing request against it, so no route and no action can carry a guarded change past
  the PIN; a route that declares nothing is guarded. Wrong PINs are slowed down per client (a
  back-off that doubles), harder while the whole panel is guessed at from many addresses, and
  never so that the right PIN from another device is refused (:class:`Backoff`).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import json
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, request, session

F = TypeVar("F", bound=Callable[..., Any])
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
FREE_TRIES = 3  # wrong PINs a client may enter before it has to wait
FIRST_WAIT = 2.0  # seconds after the first wrong PIN beyond the free tries; doubles each time
MAX_WAIT = 300.0
MAX_CLIENTS = 16384  # clients remembered for the back-off (the one least held back is forgotten first)
BUDGET = 10  # wrong guesses per WINDOW from all devices together past which the panel is "under attack"
WINDOW = 60.0  # seconds
ATTACK_WAIT = 60.0  # under attack: an address's wait after each wrong guess, from the first; doubles each time

# What a state-changing request changes. The PIN guards these kinds ...
GUARDED = {"setup": "starting or resuming a game", "correction": "a correction", "undo": "undo",
           "seats": "releasing a seat or pairing the table's screen",
           "calibration": "the camera's lens and the board fit", "undeclared": "this change"}
# ... and not these: the players' own play (moves, picks, end turn, choosing a reading), hands on
# the simulated table, looking (a fit tried, the setup checked: nothing kept), and the PIN itself
# (unlocking; choosing one has its own rule in the route).
OPEN = {"play", "table", "look", "pin"}
WRONG_PIN = "That PIN is not right: try again."  # what a player who mistyped it reads

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    # the pages use none of these: a script that got in could not reach the phone's camera, microphone or place
    "Permissions-Policy": ("accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), "
                           "magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()"),
}


def init_app(app: Flask) -> None:
    app.extensions["hosts"] = HostCheck(app.config.get("ALLOWED_HOSTS", ()))
    app.extensions["pin_backoff"] = Backoff()
    app.extensions["pin_store"] = PinStore(app.config.get("DATA_DIR") or None, str(app.config.get("PIN") or ""))
    app.before_request(check_host)
    app.before_request(check_same_origin)
    app.before_request(check_pin)
    app.after_request(add_headers)


# ---------------------------------------------------------------------------------------- Host
def split_host(header: str) -> str:
    """``Host`` without its port, lower case, IPv6 brackets removed."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else ""
    if header.count(":") == 1:
        header = header.split(":", 1)[0]
    return header.rstrip(".")


class HostCheck:
    """Is this a name or address of this machine (or one the config allows)?"""

    def __init__(self, extra: Iterable[str] = (), ttl: float = 60.0) -> None:
        hostname = socket.gethostname().lower()
        names = {"localhost", hostname, f"{hostname}.local"}
        try:
            names.add(socket.getfqdn().lower())
        except OSError:
            pass
        self.names = {n.rstrip(".") for n in names | {e.lower() for e in extra} if n}
        self.ttl = ttl
        self._local: dict[str, float] = {}  # address -> until when it is known to be ours
        self._lock = threading.Lock()

    def allowed(self, header: str | None) -> bool:
        host = split_host(header or "")
        if not host:
            return False
        if host in self.names:
            return True
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False  # a name nobody configured
        if address.is_loopback:
            return True
        return self._is_local(str(address), address.version)

    def _is_local(self, address: str, version: int) -> bool:
        """An address is ours when a socket can bind to it: that follows every interface and DHCP lease."""
        now = time.monotonic()
        with self._lock:
            if self._local.get(address, 0.0) > now:
                return True
        try:
            with socket.socket(socket.AF_INET6 if version == 6 else socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.bind((address, 0))
        except OSError:
            return False
        with self._lock:
            if len(self._local) > 64:
                self._local.clear()
            self._local[address] = now + self.ttl
        return True


def check_host() -> None:
    if not current_app.extensions["hosts"].allowed(request.headers.get("Host")):
        abort(421, description=f"this panel does not answer to the name {request.headers.get('Host', '')[:80]!r}; "
                               "open it by the Pi's address or name (add other names to [panel] allowed_hosts)")


def add_headers(response: Any) -> Any:
    for key, value in HEADERS.items():
        response.headers.setdefault(key, value)
    if request.path.startswith("/api/"):
        # the game as it is now, exports included: a phone's cache or a proxy must never show an old one
        response.headers["Cache-Control"] = "no-store"
    return response


def check_same_origin() -> None:
    if request.method not in UNSAFE:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        abort(403, description=f"cross-site request refused (Sec-Fetch-Site: {site})")
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null":
        try:
            parts = urlsplit(origin)
            scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
        except ValueError:
            scheme = netloc = ""
        # the scheme counts too: https://pi:8080 is another origin than the http://pi:8080 panel
        if scheme != request.scheme or netloc != request.host.lower():
            abort(403, description=f"cross-site request refused: origin {origin[:80]} is not this panel "
                                   f"({request.scheme}://{request.host[:80]})")
    elif origin == "null":
        abort(403, description="cross-site request refused: opaque origin")
    if not request.is_json:
        abort(415, description="send the request body as JSON (Content-Type: application/json)")


# ---------------------------------------------------------------------------------------- PIN
class Backoff:
    """Wrong guesses (PINs and seat codes), held back per address without ever locking the owner out.

    Each address has a few free tries, then a wait that doubles with every further miss. Counted for
    the panel as a whole too: past ``budget`` wrong guesses in ``window`` seconds the panel is under
    attack, and then every wrong guess makes its address wait far longer (:data:`ATTACK_WAIT`, doubling):
    one guess a minute per address at most. An address that has not guessed wrong is checked at once:
    the right PIN or code from the owner's phone gets through whatever thousands of other addresses
    do (the old panel-wide stop refused it too). ``benchmarks/guessing.py`` measures what gets checked.

    A check is counted as wrong from the moment it starts (:meth:`begin`) until it proves right
    (:meth:`succeeded`), so guesses sent at the same time cannot all slip through on one free try.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, budget: int = BUDGET,
                 window: float = WINDOW) -> None:
        self.clock = clock
        self.budget = budget
        self.window = window
        self._clients: dict[str, tuple[int, float, float]] = {}  # client -> (misses, not before, last check)
        self._recent: deque[float] = deque()  # when each wrong guess of the last window came, oldest first
        self._lock = threading.Lock()

    def begin(self, client: str) -> tuple[float, str]:
        """May ``client`` have a guess checked now? ``(0, "")`` and the check is counted as a miss until
        it succeeds; else how long this device must wait (``device``)."""
        with self._lock:
            now = self.clock()
            while self._recent and self._recent[0] <= now - self.window:
                self._recent.popleft()
            misses, until, _ = self._clients.get(client, (0, 0.0, 0.0))
            if until > now:
                return until - now, "device"
            attack = len(self._recent) >= self.budget
            free, first = (0, ATTACK_WAIT) if attack else (FREE_TRIES, FIRST_WAIT)
            if len(self._recent) < 16 * MAX_CLIENTS:
                self._recent.append(now)
            misses += 1
            wait = 0.0 if misses <= free else min(MAX_WAIT, first * 2 ** (misses - free - 1))
            self._clients.pop(client, None)
            if len(self._clients) >= MAX_CLIENTS:
                # forget every client that has served out its wait, all at once (one pass for many
                # new clients); only when every one still waits, the one held back least
                served = [c for c, (_, until_, _) in self._clients.items() if until_ <= now]
                for gone in served:
                    del self._clients[gone]
                if not served:
                    del self._clients[min(self._clients, key=lambda c: self._clients[c][1])]
            self._clients[client] = (misses, now + wait, now)
            return 0.0, ""

    def succeeded(self, client: str) -> None:
        """The guess was right: the client starts afresh and the check is not counted against the panel."""
        with self._lock:
            entry = self._clients.pop(client, None)
            if entry is not None:
                with contextlib.suppress(ValueError):
                    self._recent.remove(entry[2])  # the moment begin() counted it

    def wait_left(self, client: str) -> float:
        """How long ``client`` must still wait before its next guess is checked (its own misses only)."""
        with self._lock:
            _, until, _ = self._clients.get(client, (0, 0.0, 0.0))
        return max(0.0, until - self.clock())

    def misses(self) -> int:
        """Wrong guesses the panel counts in the current window (for tests and the figures)."""
        with self._lock:
            now = self.clock()
            return sum(1 for at in self._recent if at > now - self.window)

    def under_attack(self) -> bool:
        return self.misses() >= self.budget


def load_private(path: Path | None) -> Any:
    """A small JSON file the panel keeps in the data directory (the PIN, the paired screen, the seats'
    claims), or None when there is none or it does not read (asked again rather than guessed)."""
    if path is None or not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def save_private(path: Path | None, data: Any) -> None:
    """Write such a file whole or not at all, readable by the companion's user only (OSError: not written)."""
    if path is None:
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


class PinStore:
    """The panel's PIN: the config's, else one chosen in the setup wizard (kept hashed in the data directory).

    ``choice`` is ``"config"``, ``"set"`` (chosen on the panel), ``"open"`` (deliberately none)
    or ``None`` (not asked yet: the setup wizard asks on the first run).
    """

    FILE = "panel.json"

    def __init__(self, data_dir: str | None, configured: str = "") -> None:
        self.path = Path(data_dir) / self.FILE if data_dir else None
        self.configured = configured
        self._lock = threading.Lock()
        self._saved: dict[str, Any] = self._load()

    def _load(self) -> dict[str, Any]:
        data = load_private(self.path)
        return data if isinstance(data, dict) and data.get("choice") in ("set", "open") else {}

    @property
    def choice(self) -> str | None:
        if self.configured:
            return "config"
        return self._saved.get("choice")

    @property
    def required(self) -> bool:
        return self.choice in ("config", "set")

    def matches(self, pin: str) -> bool:
        if self.configured:
            return hmac.compare_digest(pin.encode(), self.configured.encode())
        if self._saved.get("choice") != "set":
            return True
        salt = bytes.fromhex(self._saved["salt"])
        digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, 100_000).hex()
        return hmac.compare_digest(digest, self._saved["hash"])

    def choose(self, pin: str | None) -> None:
        """Set a PIN (``None``: leave the panel open on purpose); written atomically."""
        if self.configured:
            raise ValueError("the PIN is set in the config file; change it there")
        if pin is None:
            data: dict[str, Any] = {"choice": "open"}
        else:
            salt = os.urandom(16)
            data = {"choice": "set", "salt": salt.hex(),
                    "hash": hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, 100_000).hex()}
        with self._lock:
            save_private(self.path, data)
            self._saved = data


def pins() -> PinStore:
    return current_app.extensions["pin_store"]


def pin_required() -> bool:
    return pins().required


def client() -> str:
    return request.remote_addr or "unknown"


def unlocked() -> bool:
    """May this request make guarded changes? (Asked once per request: a header PIN is checked once.)"""
    if not pin_required() or session.get("unlocked"):
        return True
    if "pin_unlocked" not in g:
        header = request.headers.get("X-Fog-Pin")
        g.pin_unlocked = header is not None and _check(header)
    return bool(g.pin_unlocked)


def _check(pin: str) -> bool:
    return guess(lambda: pins().matches(pin), "PINs")


def guess(right: Callable[[], bool], what: str) -> bool:
    """Check one guess at a secret that lets a phone in (a PIN, a seat's code) under the one limiter
    (:class:`Backoff`: PINs and seat codes counted together, per address). 429 in words while this
    device must wait; a device that has not guessed wrong is always checked."""
    backoff: Backoff = current_app.extensions["pin_backoff"]
    who = client()
    wait, _ = backoff.begin(who)
    if wait > 0:
        abort(429, description=f"too many wrong {what} from this device: wait {wait:.0f} s")
    ok = right()
    if ok:
        backoff.succeeded(who)
    return ok


def unlock(pin: str) -> bool:
    ok = _check(pin)
    if ok:
        session["unlocked"] = True
    return ok


def remember_unlocked() -> None:
    """This browser just chose the PIN: it is unlocked without a check (nothing was guessed)."""
    session["unlocked"] = True


# ---------------------------------------------------------------------------------------- the one guard
def changes(kind: str | Callable[[], str]) -> Callable[[F], F]:
    """Declare what a state-changing route changes: one of :data:`GUARDED` or :data:`OPEN`, or a
    function that tells from the request (``/api/act``: the kind of the action it carries).

    The declaration is all a route does: :func:`check_pin` runs before every route and decides.
    """
    if isinstance(kind, str) and kind not in GUARDED and kind not in OPEN:
        raise ValueError(f"unknown kind of change {kind!r}")

    def mark(view: F) -> F:
        view.change_kind = kind  # type: ignore[attr-defined]
        return view

    return mark


def change_kind() -> str | None:
    """What this request changes (None: a read, or a route that does not exist)."""
    if request.method not in UNSAFE or request.endpoint is None:
        return None
    view = current_app.view_functions.get(request.endpoint)
    kind = getattr(view, "change_kind", None)
    if kind is None:
        return "undeclared"  # a route nobody classified is guarded, never open by omission
    return kind() if callable(kind) else kind


def check_pin() -> None:
    """The one PIN check of every state-changing request, whatever route or action carries it."""
    kind = change_kind()
    if kind is None or kind in OPEN or unlocked():
        return
    # Said to the players (the pages show it as it is): how to give the PIN is the API's business,
    # documented in docs/api.md, not words for the table.
    what = GUARDED.get(kind, "this change")
    needs = f"{what[0].upper()}{what[1:]} needs the panel PIN."
    if request.headers.get("X-Fog-Pin") is not None:
        abort(401, description=f"{WRONG_PIN} {needs}")
    abort(401, description=needs)


CORRECTION = "correct"  # every game's correction reads "correct ..." (Game.correction; checked in the tests)


def action_kind(game: Any, text: str) -> str:
    """The kind of change an action's text makes: ``correction`` or ``play``.

    Read as the game reads it (``str`` of the parsed action), so spacing or another spelling the
    parser accepts cannot disguise a correction; text that does not parse is judged by its first
    word (the route then refuses it anyway).
    """
    words = text.split()
    try:
        words = str(game.rules.parse_action(text)).split()
    except Exception:  # noqa: BLE001 - any parse failure: the route answers it; the word decides here
        pass
    return "correction" if words and words[0].lower() == CORRECTION else "play"
