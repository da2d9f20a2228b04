"""Answers the panel's server writes itself carry the same security headers as the app's.

A 413 (a body past the limit), a 400 (a request that does not parse) and the I/O loop's own
408 and 503 are pages a browser shows like any other: without the headers a framing page or a
sniffing browser could make something of them. The real server (waitress, as ``run`` starts it)
is asked with raw sockets, as a misbehaving device would.
"""

from __future__ import annotations

import io
import socket
from pathlib import Path

from companion.app.run import Companion
from tests.tables import sim_config
from web_ui.security import HEADERS
from web_ui.server import FULL_ANSWER, TIMEOUT_ANSWER


def raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


def headers_of(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head)}


def test_the_413_and_400_the_server_writes_carry_the_app_s_security_headers(tmp_path: Path):
    companion = Companion(sim_config(tmp_path), out=io.StringIO())
    companion.start(panel=True)
    assert companion.panel is not None
    port = companion.panel.port
    try:
        too_big = raw(port, f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                            f"Content-Length: {64 << 20}\r\n\r\n{{}}".encode())
        malformed = raw(port, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: many\r\n\r\n")
        answers = {"413": too_big, "400": malformed}
        for status, answer in answers.items():
            assert answer.startswith(f"HTTP/1.1 {status}".encode()), answer[:80]
            got = headers_of(answer)
            for name, value in HEADERS.items():
                assert got.get(name.lower()) == value, (status, name, got)
            assert got["cache-control"] == "no-store"
    finally:
        companion.stop()
    for answer in (TIMEOUT_ANSWER, FULL_ANSWER):  # the I/O loop's own, written without a worker
        got = headers_of(answer)
        assert all(got.get(name.lower()) == value for name, value in HEADERS.items()), got
