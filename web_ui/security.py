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
* **PIN.** With a PIN (from the config, or chosen in the setup wizard on the first run),
  setup, corrections and undo need it once per browser (``POST /api/unlock``) or an
  ``X-Fog-Pin`` header. Wrong PINs are slowed down per client, with a back-off that doubles,
  so one device guessing never locks out another.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request, session

F = TypeVar("F", bound=Callable[..., Any])
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
FREE_TRIES = 3  # wrong PINs a client may enter before it has to wait
FIRST_WAIT = 2.0  # seconds after the first wrong PIN beyond the free tries; doubles each time
MAX_WAIT = 300.0
MAX_CLIENTS = 1024  # clients remembered for the back-off (the oldest are forgotten first)

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
}


def init_app(app: Flask) -> None:
    app.extensions["hosts"] = HostCheck(app.config.get("ALLOWED_HOSTS", ()))
    app.extensions["pin_backoff"] = Backoff()
    app.extensions["pin_store"] = PinStore(app.config.get("DATA_DIR") or None, str(app.config.get("PIN") or ""))
    app.before_request(check_host)
    app.before_request(check_same_origin)
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
            netloc = urlsplit(origin).netloc
        except ValueError:
            netloc = ""
        if netloc.lower() != request.host.lower():
            abort(403, description=f"cross-site request refused: origin {origin[:80]} is not this panel")
    elif origin == "null":
        abort(403, description="cross-site request refused: opaque origin")
    if not request.is_json:
        abort(415, description="send the request body as JSON (Content-Type: application/json)")


# ---------------------------------------------------------------------------------------- PIN
class Backoff:
    """Wrong PINs per client: a few free tries, then a wait that doubles with every further miss."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._clients: dict[str, tuple[int, float]] = {}  # client -> (misses, not before)
        self._lock = threading.Lock()

    def wait_left(self, client: str) -> float:
        with self._lock:
            _, until = self._clients.get(client, (0, 0.0))
        return max(0.0, until - self.clock())

    def failed(self, client: str) -> None:
        with self._lock:
            misses, _ = self._clients.pop(client, (0, 0.0))
            misses += 1
            wait = 0.0 if misses <= FREE_TRIES else min(MAX_WAIT, FIRST_WAIT * 2 ** (misses - FREE_TRIES - 1))
            if len(self._clients) >= MAX_CLIENTS:
                self._clients.pop(next(iter(self._clients)))
            self._clients[client] = (misses, self.clock() + wait)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)


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
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # unreadable: asked again rather than guessed
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
            if self.path is not None:
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(data), encoding="utf-8")
                os.chmod(tmp, 0o600)
                os.replace(tmp, self.path)
            self._saved = data


def pins() -> PinStore:
    return current_app.extensions["pin_store"]


def pin_required() -> bool:
    return pins().required


def client() -> str:
    return request.remote_addr or "unknown"


def unlocked() -> bool:
    if not pin_required():
        return True
    header = request.headers.get("X-Fog-Pin")
    if header is not None:
        return _check(header)
    return bool(session.get("unlocked"))


def _check(pin: str) -> bool:
    backoff: Backoff = current_app.extensions["pin_backoff"]
    who = client()
    wait = backoff.wait_left(who)
    if wait > 0:
        abort(429, description=f"too many wrong PINs from this device: wait {wait:.0f} s")
    ok = pins().matches(pin)
    if ok:
        backoff.succeeded(who)
    else:
        backoff.failed(who)
    return ok


def unlock(pin: str) -> bool:
    ok = _check(pin)
    if ok:
        session["unlocked"] = True
    return ok


def guarded(view: F) -> F:
    """Setup, corrections and undo: the PIN first, when one is configured."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not unlocked():
            abort(401, description="this needs the panel PIN (POST /api/unlock)")
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
