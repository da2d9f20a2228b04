"""Long-lived streams never starve the panel.

Every test runs the companion's own server (waitress as ``run`` serves it) on loopback and talks
to it with raw sockets and http.client, as phones, a TV and a misbehaving device would: pages
holding their event stream and camera view open, a phone asking for one stream too many, a
device trickling a request a byte at a time, and a crowd of sockets that never say anything.
Nothing is timed: socket timeouts are generous liveness bounds, not speed assertions.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import re
import resource
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, sim_config, wait_for
from web_ui import create_app
from web_ui.server import PanelServer, ServerLimits, connections_for
from web_ui.stream import StreamLimits

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def panel(tmp_path: Path, streams: StreamLimits | None = None, server: ServerLimits | None = None,
          camera: bool = False) -> Iterator[tuple[Companion, int]]:
    """A companion with a 3-player game, its panel served with the given limits."""
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    if camera:
        companion.start()
        assert wait_for(lambda: companion.camera is not None and companion.camera.frames > 0)
    app = create_app(companion, {"STREAM_LIMITS": streams or StreamLimits(), "MJPEG_FPS": 20})
    companion.panel = PanelServer(app, "127.0.0.1", 0, server)
    companion.panel.start()
    try:
        yield companion, companion.panel.port
    finally:
        companion.stop()


class Stream:
    """One open stream, as a page holds it: the response is read as it comes."""

    def __init__(self, port: int, path: str, source: str = "127.0.0.1") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
        self.conn.request("GET", path)
        self.res = self.conn.getresponse()
        self.status = self.res.status
        self.headers = {k.lower(): v for k, v in self.res.getheaders()}

    def read_until(self, marker: bytes) -> bytes:
        got = b""
        while marker not in got:
            chunk = self.res.read1(65536)
            if not chunk:
                break
            got += chunk
        return got

    def body(self) -> dict[str, Any]:
        return json.loads(self.res.read())

    def close(self) -> None:
        self.conn.close()


def get(port: int, path: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    conn.request("GET", path)
    res = conn.getresponse()
    data = res.read()
    conn.close()
    return res.status, data


def answered(port: int, path: str) -> bool:
    """Whether ``path`` is answered 200 now (a refused or reset connection is a no)."""
    try:
        return get(port, path)[0] == 200
    except OSError:
        return False


def something_happens(companion: Companion) -> None:
    """The camera confirms the setup, or the next islander is drafted: an event for every page."""
    session = companion.session
    if session.status.verifying:
        assert wait_for(lambda: not session.status.verifying or companion.camera is None)
        if session.status.verifying:
            session.on_stable_change(session.state.placement)
            return
    session.act(str(rules.legal_drafts(session.state)[0]))


def opens(port: int, path: str) -> bool:
    """Whether a stream is served now (it is closed again at once)."""
    stream = Stream(port, path)
    stream.close()
    return stream.status == 200


def test_open_pages_hold_no_worker(tmp_path: Path):
    # two workers, ten pages with their event stream open: the state still answers at once
    with panel(tmp_path, StreamLimits(per_address=20), ServerLimits(threads=2)) as (companion, port):
        pages = [Stream(port, "/events") for _ in range(10)]
        try:
            assert all(p.status == 200 for p in pages)
            assert all(b"event: state" in p.read_until(b"event: state") for p in pages)
            status, body = get(port, "/api/state")
            assert status == 200 and json.loads(body)["game"] == companion.session.game_id
            # and every page still hears the next move
            something_happens(companion)
            for p in pages:
                assert b"event: game" in p.read_until(b"event: game")
        finally:
            for p in pages:
                p.close()


def test_one_stream_past_the_cap_is_told_to_come_back_later_while_the_state_answers(tmp_path: Path):
    with panel(tmp_path, StreamLimits(event_streams=3, per_address=10, retry_after=7)) as (_, port):
        pages = [Stream(port, "/events") for _ in range(3)]
        try:
            assert [p.status for p in pages] == [200, 200, 200]
            refused = Stream(port, "/events")
            assert refused.status == 503 and refused.headers["retry-after"] == "7"
            answer = refused.body()
            assert answer["kind"] == "streams-busy" and answer["retry_after"] == 7
            assert "3 live event streams" in answer["error"]
            assert get(port, "/api/state")[0] == 200
            # a page closed frees its slot: the next one is served again
            pages.pop().close()
            assert wait_for(lambda: opens(port, "/events"))
        finally:
            for p in pages:
                p.close()


def test_one_device_cannot_take_every_stream(tmp_path: Path):
    with panel(tmp_path, StreamLimits(per_address=2), camera=True) as (_, port):
        mine = [Stream(port, "/events"), Stream(port, "/stream.mjpg?overlay=0")]
        try:
            assert [s.status for s in mine] == [200, 200]
            third = Stream(port, "/events")
            assert third.status == 503 and "127.0.0.1 already holds 2 live streams" in third.body()["error"]
            camera = Stream(port, "/stream.mjpg")
            assert camera.status == 503 and "retry-after" in camera.headers
            other_phone = Stream(port, "/events", source="127.0.0.2")  # another address on the loopback
            assert other_phone.status == 200 and b"event: state" in other_phone.read_until(b"event: state")
            other_phone.close()
        finally:
            for s in mine:
                s.close()


def test_streams_end_cleanly_when_asked_for_a_number(tmp_path: Path):
    with panel(tmp_path, camera=True) as (companion, port):
        frames = Stream(port, "/stream.mjpg?frames=2")
        data = frames.res.read()  # the whole response: it ends after two frames
        assert frames.headers["content-type"].startswith("multipart/x-mixed-replace")
        assert data.count(b"--frame") == 2 and data.count(b"\xff\xd8") == 2
        page = Stream(port, "/events?limit=1")
        assert b"event: state" in page.read_until(b"event: state")
        something_happens(companion)
        rest = page.res.read()  # ends after the one game event (and the state after it)
        assert b"event: game" in rest and b"event: state" in rest
        assert get(port, "/api/state")[0] == 200


def test_a_request_trickled_a_byte_at_a_time_is_answered_408_and_closed(tmp_path: Path):
    with panel(tmp_path, server=ServerLimits(header_timeout=1, request_timeout=2, channel_timeout=300)) as (_, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            answer = b""
            with contextlib.suppress(OSError):
                for _ in range(600):  # a byte every 0.1 s keeps the socket busy: the header never ends
                    s.sendall(b"a")
                    s.settimeout(0.1)
                    with contextlib.suppress(TimeoutError):
                        answer += s.recv(4096)
                    if answer:
                        break
            assert answer.startswith(b"HTTP/1.1 408"), answer[:60]
            s.settimeout(30)
            with contextlib.suppress(OSError):
                while s.recv(4096):
                    pass  # the rest of the answer, then the close


def test_a_body_trickled_a_byte_at_a_time_is_cut_off(tmp_path: Path):
    with panel(tmp_path, server=ServerLimits(header_timeout=1, request_timeout=2, channel_timeout=300)) as (_, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000\r\n\r\n")
            answer = b""
            with contextlib.suppress(OSError):
                for _ in range(600):
                    s.sendall(b" ")
                    s.settimeout(0.1)
                    with contextlib.suppress(TimeoutError):
                        answer += s.recv(4096)
                    if answer:
                        break
            assert answer.startswith(b"HTTP/1.1 408"), answer[:60]


def test_a_crowd_of_silent_sockets_does_not_keep_a_phone_out(tmp_path: Path):
    # idle sockets are kept for 300 s here: only making room lets the phone in
    limits = ServerLimits(connection_limit=50, channel_timeout=300)
    with panel(tmp_path, server=limits) as (companion, port):
        page = Stream(port, "/events")  # a page already open is never closed to make room
        silent = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(120)]
        try:
            status, body = get(port, "/api/state")
            assert status == 200 and json.loads(body)["game"] == companion.session.game_id
            silent[0].settimeout(30)
            assert silent[0].recv(10) == b""  # the longest idle went first
            something_happens(companion)
            assert b"event: game" in page.read_until(b"event: game")
        finally:
            page.close()
            for s in silent:
                s.close()


def test_when_every_connection_is_a_live_stream_a_newcomer_is_told_so_at_once(tmp_path: Path):
    with panel(tmp_path, StreamLimits(per_address=100), ServerLimits(connection_limit=16)) as (_, port):
        pages = [Stream(port, "/events") for _ in range(16)]
        try:
            assert all(p.status == 200 for p in pages)
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                answer = b""
                with contextlib.suppress(OSError):
                    while chunk := s.recv(4096):
                        answer += chunk
            assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 5" in answer
            assert b"every connection busy" in answer
            pages.pop().close()  # one page closed: the next phone is served
            assert wait_for(lambda: answered(port, "/api/state"))
        finally:
            for p in pages:
                p.close()


def test_the_connection_limit_stays_below_the_open_file_limit():
    assert connections_for(1000, 4096) == 1000
    assert connections_for(1000, 256) == 256 - 64
    assert connections_for(1000, 40) == 16


def test_run_under_a_small_open_file_limit_serves_past_it(tmp_path: Path):
    # as the unit with LimitNOFILE=256: more sockets than descriptors come, the panel still answers
    (tmp_path / "c.toml").write_text('[panel]\nhost = "127.0.0.1"\nport = 0\n[camera]\nsource = "sim"\n')
    env = {"PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording", "FOG_CONFIG": str(tmp_path / "c.toml"),
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def small_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--data-dir", str(tmp_path / "data")],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT, preexec_fn=small_limit)
    assert proc.stdout is not None
    port, lines = None, []
    for line in proc.stdout:
        lines.append(line)
        if m := re.match(r"panel: http://[^:]+:(\d+)/", line):
            port = int(m.group(1))
            break
    crowd: list[socket.socket] = []
    try:
        assert port, "".join(lines)
        for _ in range(400):
            crowd.append(socket.create_connection(("127.0.0.1", port), timeout=30))
        status, _ = get(port, "/api/state")
        assert status == 200
        assert proc.poll() is None
    finally:
        for s in crowd:
            s.close()
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, "".join(lines) + out
    assert "Too many open files" not in out


def test_a_page_refused_a_stream_polls_and_a_camera_view_shows_stills(tmp_path: Path):
    """In Chromium: with no stream slot left the Board page still follows the game and the Camera page
    shows the picture, refreshed."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed")
    with panel(tmp_path, StreamLimits(event_streams=0, camera_streams=0), camera=True) as (companion, port), \
            playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("() => document.getElementById('conn').dataset.mode === 'poll'", timeout=60_000)
            assert "the panel is busy" in page.inner_text("#conn")
            page.evaluate("() => { window.seqs = []; Fog.on('state', (s) => window.seqs.push(s.seq)); }")
            something_happens(companion)
            seq = companion.session.snapshot().seq
            page.wait_for_function(f"() => window.seqs.includes({seq})", timeout=60_000)  # seen by polling
            camera = browser.new_page()
            camera.goto(f"http://127.0.0.1:{port}/calibration")
            camera.wait_for_function("() => { const i = document.getElementById('stream'); return i.dataset.mode === "
                                     "'still' && i.src.includes('/snapshot.jpg') && i.complete && i.naturalWidth > 0; }",
                                     timeout=60_000)
        finally:
            browser.close()
