"""The panel's HTTP server: waitress, sized for a Raspberry Pi at a table full of phones.

Why waitress (docs/service.md has the comparison): it is pure Python with no dependencies,
it runs inside the companion's own process (the session, camera and LEDs live there, so a
forking server such as gunicorn would need a second copy of everything), and idle or slow
connections cost it a socket in one I/O loop, never a thread. A request is handed to one of a
fixed pool of worker threads only once it has fully arrived.

What this module adds to waitress, each for a way the panel was starved:

* **Streams hold no worker.** ``/events`` and ``/stream.mjpg`` would each keep a worker for as long
  as a page stays open: 32 open pages took every worker. Once such a response's head is written,
  the connection is handed to the panel's stream hub (``web_ui/stream.py``), which writes into its
  buffer from one thread; the I/O loop sends it. The worker returns to the pool at once.
* **Slow requests are timed from their first byte.** waitress closes a connection only after
  ``channel_timeout`` without *any* byte, so a client trickling a byte a second (slowloris) keeps
  a request open for ever. Here headers must be complete within ``header_timeout`` and the whole
  request within ``request_timeout`` of its first byte, or the connection is answered 408 and closed.
* **A full house makes room.** At the connection limit waitress stops accepting, and new phones
  wait in the kernel's queue until idle sockets time out (seconds). Here a new connection closes
  the longest-idle one (then the oldest unfinished request) instead; streams and requests being
  served are never closed for it. The limit stays below the open-file limit, so the process never
  runs out of file descriptors.
"""

from __future__ import annotations

import errno
import heapq
import logging
import resource
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

# waitress ships no type information (py.typed); typeshed's types-waitress describes other internals
# than the ones of waitress 3.0 this module builds on, so waitress is read as untyped here
from waitress.adjustments import Adjustments  # type: ignore[import-untyped]
from waitress.buffers import OverflowableBuffer  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask  # type: ignore[import-untyped]

from companion.errors import FogCompanionError
from web_ui.security import HEADERS
from web_ui.stream import FEED, HANDOFF, Feed

log = logging.getLogger(__name__)

FD_RESERVE = 64  # descriptors kept for the store, the camera, the LEDs, logs and spilled buffers
ACCEPT_BATCH = 64  # connections accepted per wake-up of the I/O loop (a burst is taken at once)
REFRESH_AFTER = 64 << 10  # a stream's drained buffer is replaced once it has carried this much
ROTATE_AFTER = 256 << 10  # a stream's buffer that never drains is continued in a fresh one after this


# What every answer carries, the app's (web_ui/security.py) and those the server writes itself alike: a
# 413, 400 or 500 from waitress, a 408 or 503 from the I/O loop is a page a browser shows too.
SERVER_HEADERS = [(name, value) for name, value in HEADERS.items()] + [("Cache-Control", "no-store")]


def _plain(status: str, text: str, *headers: str) -> bytes:
    """A whole short answer the I/O loop writes itself (no worker, no app): status, headers, one line."""
    body = text.encode() + b"\r\n"
    head = [f"HTTP/1.1 {status}", "Connection: close", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", *headers, *(f"{name}: {value}" for name, value in SERVER_HEADERS)]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


TIMEOUT_ANSWER = _plain("408 Request Timeout", "the request did not arrive in time; send it again")
FULL_ANSWER = _plain("503 Service Unavailable", "the panel has every connection busy; try again in 5 s",
                     "Retry-After: 5")


@dataclass(frozen=True)
class ServerLimits:
    """What one panel server may hold at once; the defaults fit a Pi 4 with 2 GB."""

    threads: int = 16  # ordinary requests only: streams hold no worker
    connection_limit: int = 1000  # idle sockets are cheap; past it the longest idle is closed for a new one
    channel_timeout: int = 5  # seconds an idle connection (no request in flight) is kept
    header_timeout: int = 5  # seconds from a request's first byte until its headers must be complete
    request_timeout: int = 15  # seconds from a request's first byte until all of it (body too) must be in
    cleanup_interval: int = 1  # how often idle and slow connections are looked for
    max_request_body: int = 64 * 1024  # the API's bodies are small; bigger ones are cut off at once
    open_files: int = 4096  # the soft limit raised to this (within the hard limit) at start
    # connections the kernel holds for the panel before it accepts them (capped by net.core.somaxconn):
    # a crowd connecting at once past it has its SYNs dropped, and each dropped one waits a second to retry
    backlog: int = 4096


def raise_open_file_limit(wanted: int) -> int:
    """Raise the soft limit of open files towards ``wanted`` (never above the hard limit); the limit now.

    An unlimited soft limit counts as ``wanted``, so the connection limit derived from it stays finite.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return soft


def connections_for(limit: int, fd_limit: int) -> int:
    """The connection limit for an open-file limit: ``FD_RESERVE`` descriptors stay for everything else."""
    return max(16, min(limit, fd_limit - FD_RESERVE))


def wake(channel: HTTPChannel) -> None:
    """Wake the I/O loop to send what a stream was given (nothing to wake once the server closed)."""
    try:
        channel.server.pull_trigger()
    except OSError:
        pass


class ChannelSink:
    """A stream's connection as the hub sees it: bytes go into its buffer, the I/O loop sends them."""

    def __init__(self, channel: PanelChannel, chunked: bool, limit: int) -> None:
        self.channel = channel
        self.chunked = chunked
        self.limit = limit

    def send(self, data: bytes) -> bool:
        if self.chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        return self._put(data)

    def _put(self, data: bytes) -> bool:
        ch = self.channel
        with ch.outbuf_lock:
            if not ch.connected or ch.will_close or ch.close_when_flushed:
                return False
            if ch.total_outbufs_len > self.limit:  # it stopped reading: drop it rather than buffer more
                ch.will_close = True
                wake(ch)
                return False
            if ch.total_outbufs_len == 0 and len(ch.outbufs) == 1 and ch.current_outbuf_count > REFRESH_AFTER:
                ch.outbufs[0].close()  # a drained buffer keeps what it carried: start a fresh one
                ch.outbufs[0] = OverflowableBuffer(ch.adj.outbuf_overflow)
                ch.current_outbuf_count = 0
            elif ch.current_outbuf_count > ROTATE_AFTER:
                ch.outbufs.append(OverflowableBuffer(ch.adj.outbuf_overflow))
                ch.current_outbuf_count = 0
            ch.outbufs[-1].append(data)
            ch.current_outbuf_count += len(data)
            ch.total_outbufs_len += len(data)
        wake(ch)
        return True

    def backlog(self) -> int:
        return int(self.channel.total_outbufs_len)

    def stalled(self, seconds: float) -> bool:
        return self.backlog() > 0 and time.time() - self.channel.last_activity > seconds

    def end(self) -> None:
        if self.chunked:
            self._put(b"0\r\n\r\n")
        with self.channel.outbuf_lock:
            self.channel.close_when_flushed = True
        wake(self.channel)


class PanelTask(WSGITask):
    """A request; a stream's response is handed to the hub once its head is written."""

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ[HANDOFF] = True
        return environ

    def _feed(self) -> Feed | None:
        return self.environ.get(FEED) if self.environ is not None else None

    def finish(self) -> None:
        feed = self._feed()
        if feed is None or not self.status.startswith("200") or not self.channel.connected:
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")
        self.close_on_finish = False  # the hub ends the response; the connection closes after it
        self.channel.become_stream(feed)
        feed.attach(ChannelSink(self.channel, self.chunked_response, feed.backlog_limit))

    def service(self) -> None:
        try:
            super().service()
        finally:
            feed = self._feed()
            if feed is not None and feed.sink is None:  # refused, failed or the client left first
                feed.release()


class PanelErrorTask(ErrorTask):
    """An answer waitress writes itself (413 body too large, 400 malformed request, 500), with the app's headers."""

    def execute(self) -> None:
        self.response_headers.extend(SERVER_HEADERS)
        super().execute()


class PanelChannel(HTTPChannel):
    """A connection: times its requests from their first byte; becomes a stream's pipe when asked."""

    task_class = PanelTask
    error_task_class = PanelErrorTask
    feed: Feed | None = None
    request_began: float | None = None  # monotonic time of the first byte of the request still arriving
    close_when_flushed: bool  # waitress's: close once the output is sent

    def become_stream(self, feed: Feed) -> None:
        """From now on the connection carries ``feed`` only: anything more the client sends is ignored."""
        with self.requests_lock:
            for pending in self.requests[1:]:
                pending.close()
            del self.requests[1:]
            self.request = None
            self.request_began = None
            self.feed = feed

    def received(self, data: bytes) -> bool:
        if self.feed is not None:
            return False
        fresh = self.request is None
        result: bool = super().received(data)
        if self.request is None:
            self.request_began = None
        elif fresh or self.request_began is None:
            self.request_began = time.monotonic()
        return result

    def readable(self) -> bool:
        if self.feed is not None:
            return not self.will_close  # keep watching a stream's socket: its client leaving ends it
        return bool(super().readable())

    def handle_read(self) -> None:
        super().handle_read()
        if self.feed is not None and not self.connected:
            self.will_close = True

    def handle_write(self) -> None:
        if self.feed is None:
            super().handle_write()
            return
        with self.outbuf_lock:  # the hub appends from its own thread
            self._flush_exception(self._flush_some)
            if self.close_when_flushed and not self.total_outbufs_len:
                self.close_when_flushed = False
                self.will_close = True
        if self.will_close:
            self.handle_close()

    def handle_close(self) -> None:
        super().handle_close()
        if self.feed is not None:
            self.feed.release()

    def idle(self) -> bool:
        """Nothing in flight, nothing arriving, nothing left to send: closing it loses nothing."""
        return self.feed is None and not self.requests and self.request is None and not self.total_outbufs_len


class PanelTcpServer(TcpWSGIServer):
    """waitress's server with request deadlines and room made for new connections at the limit."""

    channel_class = PanelChannel
    header_timeout = 5.0
    request_timeout = 15.0
    next_channel_cleanup: float  # waitress's: when the idle channels are looked at next

    def readable(self) -> bool:
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return bool(self.accepting)

    def handle_accept(self) -> None:
        limit = self.adj.connection_limit
        batch = max(1, min(ACCEPT_BATCH, limit // 8))
        room = limit - len(self.active_channels)
        if room < batch and self.make_room(batch - room):
            # accepted on the loop's next round: a descriptor just closed could come back as a new
            # socket and get what this round's poll said about the old one
            return
        if room <= 0:  # nothing could be closed: every connection is a stream or a request being answered
            self._take(refusing=True)
            return
        for _ in range(min(batch, room)):
            if not self._take(refusing=False):
                return

    def _take(self, refusing: bool) -> bool:
        """Accept one connection (and refuse it at once when ``refusing``); False when none waits."""
        try:
            pair = self.accept()
        except OSError:  # out of file descriptors (EMFILE): free some rather than spin on the listener
            self.make_room(ACCEPT_BATCH)
            return False
        if pair is None:
            return False
        conn, addr = pair
        if refusing:
            refuse(conn)
            return True
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return True
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        return True

    def make_room(self, count: int) -> int:
        """Close up to ``count`` connections that wait the longest: idle since their last answer (or since
        they opened), or sending a request that has not arrived yet. A connection just opened is the
        newest, so it is never the one closed; streams and requests being answered are never closed."""
        waiting: list[tuple[float, PanelChannel]] = []
        for channel in self.active_channels.values():
            if channel.idle():
                waiting.append((channel.last_activity, channel))
            elif channel.feed is None and not channel.requests and channel.request_began is not None:
                waiting.append((time.time() - (time.monotonic() - channel.request_began), channel))
        oldest = heapq.nsmallest(count, waiting, key=lambda pair: pair[0])
        for _, channel in oldest:
            channel.handle_close()
        return len(oldest)

    def maintenance(self, now: float) -> None:
        cutoff = now - self.adj.channel_timeout
        mono = time.monotonic()
        for channel in list(self.active_channels.values()):
            if channel.feed is not None:
                continue  # a stream: the hub drops it when its client stops reading
            began, partial = channel.request_began, channel.request
            if began is not None and partial is not None:
                limit = self.request_timeout if partial.headers_finished else self.header_timeout
                if mono - began > limit:
                    channel.request_began = None
                    answer_timeout(channel)
                    continue
            if not channel.requests and channel.last_activity < cutoff:
                channel.will_close = True


def answer_timeout(channel: PanelChannel) -> None:
    """408 for a request that took too long to arrive (when nothing else is being answered), then close."""
    if channel.requests or channel.total_outbufs_len:
        channel.will_close = True
        return
    with channel.outbuf_lock:
        channel.outbufs[-1].append(TIMEOUT_ANSWER)
        channel.total_outbufs_len += len(TIMEOUT_ANSWER)
        channel.close_when_flushed = True


def refuse(conn: socket.socket) -> None:
    """A connection that cannot be taken: told so in one write, never waited for."""
    try:
        conn.setblocking(False)
        conn.send(FULL_ANSWER)
    except OSError:
        pass
    finally:
        conn.close()


def cannot_listen(host: str, port: int, exc: OSError) -> str:
    """Why the panel cannot listen, in the words a person at the terminal acts on: a port another
    program holds is named, with the two ways out (stop that program, or choose another port)."""
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} is taken: another program already listens on {host}:{port} (a companion "
                f"started before? `systemctl status fog-companion` shows the service; `ss -ltnp` names "
                f"the program). Stop that program, or start the panel on another port: `--port {port + 1}` "
                f"(or `port` under [panel] in the config file)")
    if exc.errno == errno.EACCES:
        return (f"port {port} on {host} is not open to this user (ports below 1024 need root): start the "
                f"panel on another port, e.g. `--port 8080` (or `port` under [panel] in the config file)")
    return f"the panel cannot listen on {host}:{port}: {exc.strerror or exc}"


def check_listen(host: str, port: int) -> None:
    """Bind ``host:port`` as the panel will, and let go at once: a start that cannot serve its panel
    is refused before it touches the game log (it would otherwise start a game, pause the one that
    ran, and then stop). Raises :class:`FogCompanionError` in :func:`cannot_listen`'s words."""
    if port == 0:  # any free port: nothing can hold it
        return
    try:
        listen = Adjustments(host=host, port=port).listen
    except (ValueError, OSError) as exc:  # waitress: an unknown host name
        raise FogCompanionError(f"the panel cannot listen on {host}:{port}: {exc}") from None
    for family, socktype, proto, address in listen:
        with socket.socket(family, socktype, proto) as sock:
            if family == socket.AF_INET6:  # as waitress binds it: the IPv4 address is bound on its own
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress: a closing socket is no holder
            try:
                sock.bind(address)
            except OSError as exc:
                raise FogCompanionError(cannot_listen(host, port, exc)) from None


class PanelServer:
    """The panel app served on ``host:port`` from a background thread; ``stop`` ends every connection."""

    def __init__(self, app: Any, host: str, port: int, limits: ServerLimits | None = None) -> None:
        self.app = app
        self.limits = lim = limits or ServerLimits()
        self.fd_limit = raise_open_file_limit(lim.open_files)
        self.connection_limit = connections_for(lim.connection_limit, self.fd_limit)
        try:
            adj = Adjustments(
                host=host, port=port, threads=lim.threads, connection_limit=self.connection_limit, backlog=lim.backlog,
                channel_timeout=lim.channel_timeout, cleanup_interval=lim.cleanup_interval,
                max_request_body_size=lim.max_request_body, ident="fog-companion",
                asyncore_use_poll=True,  # select() cannot watch sockets numbered above 1024
                outbuf_overflow=2 << 20,  # above every stream's backlog: streams never spill to a file
                expose_tracebacks=False, clear_untrusted_proxy_headers=True)
        except (ValueError, OSError) as exc:  # waitress: an unknown host name
            raise FogCompanionError(f"the panel cannot listen on {host}:{port}: {exc}") from None
        self._map: dict[int, Any] = {}
        self.dispatcher = ThreadedTaskDispatcher()
        self._servers: list[PanelTcpServer] = []
        try:
            for sockinfo in adj.listen:
                server = PanelTcpServer(app, self._map, dispatcher=self.dispatcher, adj=adj, sockinfo=sockinfo)
                server.header_timeout, server.request_timeout = lim.header_timeout, lim.request_timeout
                self._servers.append(server)
        except OSError as exc:
            self._close_sockets()
            raise FogCompanionError(cannot_listen(host, port, exc)) from None
        self.dispatcher.set_thread_count(lim.threads)
        self._thread = threading.Thread(target=self._run, name="panel", daemon=True)

    @property
    def port(self) -> int:
        return int(self._servers[0].effective_port)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        from waitress import wasyncore  # type: ignore[import-untyped]

        wasyncore.loop(timeout=self._servers[0].adj.asyncore_loop_timeout, map=self._map, use_poll=True)

    def _close_sockets(self) -> None:
        from waitress import wasyncore

        wasyncore.close_all(self._map)

    def stop(self, timeout: float = 3.0) -> None:
        """Open event and camera streams end, workers finish, every socket is closed."""
        self.app.extensions["stopping"].set()
        logging.getLogger("waitress").setLevel(logging.CRITICAL)  # closing sockets under it is expected
        self.dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        self._close_sockets()
        self._thread.join(timeout)
