"""A club of tables: every companion publishes its game to an MQTT broker, one page shows them all.

A café or a club night has many tables, each with its own companion. With ``[club] broker`` set,
a companion publishes under ``fog-companion/<table id>/`` (:mod:`companion.club.publisher`): a
retained ``state`` (the game as the shared table may read it), each logged ``event``, ``online``
(kept true while connected, made false by the broker's last will), a ``game-over`` event and,
opted in, Home Assistant's discovery messages (:mod:`companion.club.discovery`). Everything
published passes :func:`companion.table.secrecy.redact` with no seat: what the broker carries is what
anyone standing at the table may read. The club page (:mod:`companion.club.board`) subscribes to
every table and keeps a league across games in its own store (:mod:`companion.club.league`).

MQTT is the standard engine for this on small devices (Mosquitto from Debian's packages): retained
messages, QoS 1 and a last will give catching up and presence without a hub of our own.
"""

from __future__ import annotations

import os
import re
import socket
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.errors import FogCompanionError

ROOT = "fog-companion"  # every table's topics live under it: fog-companion/<table id>/...
SCHEMES = {"mqtt": (1883, False), "mqtts": (8883, True)}


class ClubError(FogCompanionError):
    """The club's broker setting is wrong, or the config file holding its secret is open to others."""


def table_id(name: str) -> str:
    """A table's name as a topic level: "Table 3" -> ``table-3`` (no ``/``, ``+`` or ``#`` in it)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "table"


def topic(table: str, leaf: str) -> str:
    return f"{ROOT}/{table}/{leaf}"


@dataclass(frozen=True)
class Broker:
    """Where the broker is and how to log in. ``str()`` never shows the password."""

    host: str
    port: int
    tls: bool
    username: str = ""
    password: str = ""
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""

    def __str__(self) -> str:
        who = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{who}{self.host}:{self.port}"

    def __repr__(self) -> str:  # a password must never reach a log line through repr either
        return f"Broker({self})"


def broker_problem(url: str) -> str | None:
    """What is wrong with a ``[club] broker`` value (None: nothing; empty: no club)."""
    if url == "":
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"not a broker address ({exc}); e.g. \"mqtt://club.local:1883\""
    if parts.scheme not in SCHEMES:
        return "starts with mqtt:// or mqtts:// (TLS), e.g. \"mqtt://club.local:1883\""
    if not parts.hostname:
        return "names no host, e.g. \"mqtt://club.local:1883\""
    if parts.username is not None or parts.password is not None:
        return "holds a login: put it in [club] username and password instead (the address is shown in logs)"
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return "a broker address is scheme, host and port only"
    return None if port is None or 0 < port < 65536 else "port 1 to 65535"


def shown_broker(url: Any) -> str:
    """A broker address quoted back in an error, its password (if one was written in it) left out."""
    text = str(url)
    return repr(re.sub(r"//([^/@:]*):[^/@]*@", r"//\1:(hidden)@", text))


def broker_of(club: dict[str, Any]) -> Broker | None:
    """The ``[club]`` section's broker (None: the companion is no member of a club)."""
    url = club["broker"]
    if not url:
        return None
    why = broker_problem(url)
    if why:
        raise ClubError(f"[club] broker = {url!r}: {why}")
    parts = urlsplit(url)
    default_port, tls = SCHEMES[parts.scheme]
    return Broker(parts.hostname or "", parts.port or default_port, tls, club["username"], club["password"],
                  club["ca_file"], club["cert_file"], club["key_file"])


def check_secret_file(source: Path | None, club: dict[str, Any]) -> None:
    """A config file holding the broker's password (or the client certificate's key file) must not be
    readable by every user of the machine: the companion refuses to start with it so, naming the file
    and the fix (never the password)."""
    secrets = [(source, "holds the club broker's password")] if source is not None and club["password"] else []
    if club["key_file"]:
        secrets.append((Path(club["key_file"]), "is the club certificate's private key"))
    for path, what in secrets:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue  # a key file missing is said by the TLS setup, by name
        if mode & (stat.S_IROTH | stat.S_IWOTH):
            raise ClubError(f"{path} {what} and every user of this machine may read it (mode "
                            f"{stat.filemode(mode)}): `chmod o-rw {path}` (the service's group may keep reading)")


def arguments(p: Any) -> None:
    """``fog-companion club``'s options."""
    p.add_argument("--broker", help="the broker, e.g. mqtt://club.local:1883 (default: [club] broker of the config)")
    p.add_argument("--config", help="a config file (for the broker's login and TLS files)")
    p.add_argument("--host", default="0.0.0.0", help="address the club page listens on (default: all)")
    p.add_argument("--port", type=int, default=8090, help="the club page's port (default: 8090; 0: any free one)")
    p.add_argument("--data-dir", help="where the league is kept (default: the companion's data directory)")


def table_name(club: dict[str, Any]) -> str:
    """The name the club page shows: ``[club] table``, else this machine's host name."""
    return str(club["table"]).strip() or socket.gethostname()
