"""The panel on a home network: the real server, hostile names and bodies, idle sockets, secrets.

These start the companion's own server (waitress, as ``run`` does) on loopback and talk to it
with raw sockets and http.client, the way a browser, a script or a misbehaving device would.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, sim_config
from vision.sources import redact
from web_ui import create_app
from web_ui.security import HostCheck, split_host


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Companion, int]]:
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    companion.start(panel=True)
    assert companion.panel is not None
    try:
        yield companion, companion.panel.port
    finally:
        companion.stop()


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
            timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request(method, path, body=body, headers=headers or {})
    res = conn.getresponse()
    data = res.read()
    conn.close()
    return res.status, {k.lower(): v for k, v in res.getheaders()}, data


def test_a_rebound_name_is_refused_before_any_route_reads_included(running: tuple[Companion, int]):
    companion, port = running
    game = companion.session.game_id
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}",
            "Content-Type": "application/json"}
    status, _, body = request(port, "POST", "/api/end-turn", b"{}", evil)
    assert status == 421 and b"does not answer to the name" in body
    for path in ("/api/state", "/snapshot.jpg", "/", "/events"):
        status, _, _ = request(port, "GET", path, headers={"Host": f"evil.example:{port}"})
        assert status == 421, path
    assert companion.session.game_id == game and not companion.session.state.history
    # its own names and addresses work
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"{socket.gethostname()}:{port}",
                 f"{socket.gethostname()}.local:{port}"):
        status, _, _ = request(port, "GET", "/api/state", headers={"Host": host})
        assert status == 200, host


def test_the_host_check_knows_this_machine_and_the_configured_names():
    check = HostCheck(["fog.example.lan"])
    assert check.allowed("localhost:8080") and check.allowed("127.0.0.1") and check.allowed("[::1]:8080")
    assert check.allowed("FOG.example.lan:8080") and check.allowed(f"{socket.gethostname()}.local")
    assert not check.allowed("evil.example") and not check.allowed("") and not check.allowed(None)
    assert not check.allowed("203.0.113.9:8080")  # an address that is not this machine's
    assert split_host("[fe80::1]:80") == "fe80::1" and split_host("Pi.local.:8080") == "pi.local"


def test_every_answer_carries_the_security_headers(running: tuple[Companion, int]):
    _, port = running
    for path in ("/", "/setup", "/api/state", "/api/nothing", "/static/panel.css"):
        _, headers, _ = request(port, "GET", path, headers={"Host": f"127.0.0.1:{port}"})
        csp = headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert headers.get("x-content-type-options") == "nosniff", path
        assert headers.get("referrer-policy") == "no-referrer", path
        assert "werkzeug" not in headers.get("server", "").lower(), path


def test_hostile_bodies_get_a_clear_400_and_change_nothing(running: tuple[Companion, int]):
    companion, port = running
    game, history = companion.session.game_id, list(companion.session.state.history)
    json_headers = {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"}
    deep = b'{"players": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    status, _, body = request(port, "POST", "/api/games", deep, json_headers)
    assert status == 400 and b"nests deeper" in body
    status, _, body = request(port, "POST", "/api/games", b'{"players": [{}, {}, {}], "title": "\\ud800"}',
                              json_headers)
    assert status == 400 and b"title" in body
    status, _, _ = request(port, "POST", "/api/act", b"\xff\xfe{", json_headers)
    assert status == 400
    assert companion.session.game_id == game and list(companion.session.state.history) == history


def test_an_oversized_chunked_body_is_cut_off_without_waiting_for_it(running: tuple[Companion, int]):
    _, port = running
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"a" * 65536
        answer = b""
        with contextlib.suppress(OSError):  # it closes the connection: what it answered is read below
            for _ in range(160):  # 10 MB offered; the server answers long before
                s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        with contextlib.suppress(OSError):
            answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413") or answer == b"", answer[:80]


def test_three_hundred_idle_connections_do_not_stop_the_panel(running: tuple[Companion, int]):
    _, port = running
    idle: list[socket.socket] = []
    try:
        for _ in range(300):
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        for s in idle[:50]:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a request, never finished
        status, _, body = request(port, "GET", "/api/state", headers={"Host": f"127.0.0.1:{port}"}, timeout=3.0)
        assert status == 200 and json.loads(body)["game"]
    finally:
        for s in idle:
            s.close()


def test_a_camera_password_is_never_shown(tmp_path: Path):
    assert redact("rtsp://admin:S3cretPass@192.168.1.50:554/stream") == "rtsp://admin:***@192.168.1.50:554/stream"
    assert "S3cret" not in redact("http://cam.local/video?user=a&password=S3cret&fps=10")
    assert redact("/dev/video0") == "/dev/video0"

    class Camera:
        simulated = False
        name = redact("http://admin:S3cretPass@192.168.1.50/mjpg")

    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    companion.camera = Camera()
    try:
        client = create_app(companion).test_client()
        text = client.get("/api/state").get_data(as_text=True)
        assert "S3cretPass" not in text and "admin:***@" in text
    finally:
        companion.camera = None
        companion.stop()


def test_the_first_run_asks_for_a_pin_and_an_open_panel_says_so(tmp_path: Path):
    companion = Companion(sim_config(tmp_path), out=io.StringIO())
    try:
        app = create_app(companion, {"DATA_DIR": str(tmp_path)})
        client = app.test_client()
        assert client.get("/api/setup/choices").get_json()["pin_choice"] is None
        page = client.get("/setup").get_data(as_text=True)
        assert 'id="pin-card"' in page and "Leave it open" in page and 'id="pin-card" hidden' not in page
        res = client.post("/api/pin", json={"open": True})
        assert res.status_code == 200 and res.get_json()["pin_required"] is False
        assert "This panel is open" in client.get("/").get_data(as_text=True)
        # later the PIN can be set; from then on it guards setup, and a restart keeps it
        assert client.post("/api/pin", json={"pin": "12"}).status_code == 400
        assert client.post("/api/pin", json={"pin": "2468"}).status_code == 200
        stranger = create_app(companion, {"DATA_DIR": str(tmp_path)}).test_client()
        assert stranger.post("/api/games", json={"players": [{}, {}, {}]}).status_code == 401
        assert stranger.post("/api/pin", json={"open": True}).status_code == 401  # cannot undo the owner's PIN
        assert stranger.post("/api/unlock", json={"pin": "2468"}).status_code == 200
        assert "This panel is open" not in stranger.get("/").get_data(as_text=True)
        stored = (tmp_path / "panel.json").read_text()
        assert "2468" not in stored  # kept hashed
    finally:
        companion.stop()


def wait_port_closed(port: int, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            return True
        time.sleep(0.1)
    return False


def test_stopping_closes_the_panel_with_streams_open(tmp_path: Path):
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    companion.start(panel=True)
    assert companion.panel is not None
    port = companion.panel.port
    streams: list[Any] = []
    for _ in range(3):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/events", headers={"Host": f"127.0.0.1:{port}"})
        streams.append(conn.getresponse())
    assert all(r.status == 200 for r in streams)
    companion.stop()
    assert wait_port_closed(port)


def test_a_body_that_never_finishes_holds_no_worker_and_is_dropped(running: tuple[Companion, int]):
    _, port = running
    stalled = []
    for _ in range(40):  # more stalled uploads than there are worker threads
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  "Content-Length: 100\r\n\r\n{\"action\":".encode())
        stalled.append(s)
    try:
        status, _, _ = request(port, "GET", "/api/state", headers={"Host": f"127.0.0.1:{port}"}, timeout=3.0)
        assert status == 200  # the workers are free: a half-sent body never reaches one
        assert stalled[0].recv(100) == b""  # and the stalled upload is closed (after the idle timeout)
    finally:
        for s in stalled:
            s.close()
