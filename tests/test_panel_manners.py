"""The panel's manners: the right status for each refusal, headers a phone's browser acts on, the
icons a phone asks for, and a start-up that says each thing once.

Most of these talk to the companion's own server (waitress, as ``run`` starts it) over loopback;
the start-up lines come from ``fog-companion run`` started as its service starts it.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from companion.errors import OptionsError
from companion.games import get_game
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, collect_output, sim_config, wait_for
from web_ui import create_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Companion, int]]:
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    companion.start(panel=True)
    assert companion.panel is not None
    try:
        yield companion, companion.panel.port
    finally:
        companion.stop()


def call(port: int, method: str, path: str, body: str | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    base = {"Host": f"127.0.0.1:{port}"}
    if body is not None:
        base["Content-Type"] = "application/json"
    conn.request(method, path, body=body, headers={**base, **(headers or {})})
    res = conn.getresponse()
    data = res.read()
    conn.close()
    return res.status, {k.lower(): v for k, v in res.getheaders()}, data


def status_of(port: int, path: str) -> int:
    """The status of a GET, without reading the body (a camera stream's never ends)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
    status = conn.getresponse().status
    conn.close()
    return status


# ---------------------------------------------------------------------------------------- refusals
def test_numbers_json_does_not_have_are_refused_naming_the_field(running: tuple[Companion, int]):
    _, port = running
    for text, where in (('{"edits": [{"at_mm": [NaN, 40], "kind": "beach"}]}', "edits[0].at_mm[0]"),
                        ('{"edits": [{"at_mm": [10, 1e999], "kind": "beach"}]}', "edits[0].at_mm[1]"),
                        ('{"anchors": {}, "x": -Infinity}', "x")):
        path = "/api/fit/edits" if "edits" in text else "/api/fit"
        status, _, body = call(port, "POST", path, text)
        answer = json.loads(body, parse_constant=strict)  # the answer itself is strict JSON
        assert status == 400 and f"'{where}'" in answer["error"] and "NaN" in answer["error"], (text, answer)


def strict(constant: str) -> Any:
    raise AssertionError(f"{constant} in an answer: not JSON")


@pytest.mark.parametrize("game,players,named", [("partner-race", 4, "'options'"), ("fog", 3, "'zzz'")])
def test_an_option_the_game_does_not_have_is_refused_by_name(running: tuple[Companion, int], game: str, players: int,
                                                             named: str):
    """The race asks no question of options at all (that question is named); The FOG names the option it lacks."""
    companion, port = running
    before = companion.session.game_id
    body = json.dumps({"game": game, "players": [{}] * players, "options": "zzz", "confirm": True})
    status, _, data = call(port, "POST", "/api/games", body)
    assert status == 400 and named in json.loads(data)["error"], json.loads(data)["error"]
    assert companion.session.game_id == before and len(companion.session.store.games()) == 1
    with pytest.raises(OptionsError, match="zzz"):  # the same at the terminal: the game refuses it
        get_game(game).new_game(players=players, seed=1, options="zzz")


def test_a_new_game_while_moves_wait_for_a_full_disk_is_a_507_and_changes_nothing(tmp_path: Path):
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=4), out=io.StringIO())
    try:
        session = companion.session
        paused = session.game_id
        client = create_app(companion).test_client()
        assert client.post("/api/games", json={"players": [{}, {}, {}], "confirm": True}).status_code == 200
        session.on_stable_change(session.expected())
        session.camera_lost("unplugged")  # the drafts come from the panel
        pages = session.store._db.execute("PRAGMA page_count").fetchone()[0]
        session.store._db.execute(f"PRAGMA max_page_count = {pages}")  # the file cannot grow: a full disk
        for _ in range(300):  # the players draft and end turns until a move cannot be written
            picks = client.get("/api/state").get_json().get("picks")  # the draft's, as actions
            res = client.post("/api/act", json={"action": picks[0]["action"]}) if picks else client.post("/api/end-turn",
                                                                                                       json={})
            if res.status_code == 202:
                break
        assert session.pending, "the disk never filled up"
        games, running = session.store.games(), session.game_id
        for path, body in (("/api/games", {"players": [{}, {}], "confirm": True}),
                           (f"/api/games/{paused}/resume", {"confirm": True})):
            res = client.post(path, json=body)
            answer = res.get_json()
            assert res.status_code == 507 and answer["kind"] == "storage" and answer["reason"] == "disk-full", answer
            assert "free space" in answer["error"]
        assert session.store.games() == games and session.game_id == running and session.pending
    finally:
        companion.stop()


def test_an_origin_with_another_scheme_is_another_site(running: tuple[Companion, int]):
    companion, port = running
    history = list(companion.session.state.history)
    status, _, body = call(port, "POST", "/api/end-turn", "{}", {"Origin": f"https://127.0.0.1:{port}"})
    assert status == 403 and b"not this panel" in body
    status, _, _ = call(port, "POST", "/api/setup/verify", "{}", {"Origin": f"http://127.0.0.1:{port}"})
    assert status != 403  # the panel's own origin
    assert list(companion.session.state.history) == history


# ---------------------------------------------------------------------------------------- headers
def test_no_phone_keeps_an_old_game_and_no_page_may_use_the_phones_sensors(running: tuple[Companion, int]):
    companion, port = running
    game = companion.session.game_id
    for path in ("/api/state", "/api/games", f"/api/games/{game}", f"/api/games/{game}?download=1",
                 "/api/nothing"):
        status, headers, _ = call(port, "GET", path)
        assert headers.get("cache-control") == "no-store", (path, status, headers.get("cache-control"))
    for path in ("/", "/setup", "/api/state", "/static/panel.js"):
        _, headers, _ = call(port, "GET", path)
        policy = headers.get("permissions-policy", "")
        for feature in ("camera=()", "microphone=()", "geolocation=()"):
            assert feature in policy, (path, policy)


# ---------------------------------------------------------------------------------------- icons
class Links(HTMLParser):
    """Every file a page makes the browser fetch, and the icons and manifest it names."""

    def __init__(self) -> None:
        super().__init__()
        self.fetched: list[str] = []
        self.rels: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and a.get("href"):
            self.fetched.append(a["href"] or "")
            self.rels.setdefault(a.get("rel") or "", a["href"] or "")
        if tag in ("script", "img") and a.get("src"):
            self.fetched.append(a["src"] or "")


def test_every_page_names_its_icons_and_manifest_and_every_file_it_fetches_is_there(running: tuple[Companion, int]):
    companion, port = running
    pages = ["/", "/setup", "/table", "/calibration", "/score", "/games", "/lens", "/fit",
             f"/games/{companion.session.game_id}"]
    for page in pages:
        status, _, html = call(port, "GET", page)
        assert status == 200, page
        links = Links()
        links.feed(html.decode())
        assert {"icon", "apple-touch-icon", "manifest"} <= set(links.rels), (page, links.rels)
        for url in links.fetched:
            assert status_of(port, url) == 200, (page, url)
    # what browsers and phones ask for by name, whatever a page links, with the types they expect
    expected = {"/favicon.ico": "image/x-icon", "/apple-touch-icon.png": "image/png",
                "/apple-touch-icon-precomposed.png": "image/png", "/manifest.webmanifest": "application/manifest+json",
                "/static/icon.svg": "image/svg+xml", "/static/icon-192.png": "image/png",
                "/static/icon-512.png": "image/png"}
    for path, kind in expected.items():
        status, headers, body = call(port, "GET", path)
        assert status == 200 and headers["content-type"].split(";")[0] == kind, (path, status, headers)
        assert body, path
    _, _, touch = call(port, "GET", "/apple-touch-icon.png")
    assert touch[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(touch[16:20], "big") == 180 == \
        int.from_bytes(touch[20:24], "big")  # 180 x 180, as a phone's home screen wants it
    _, _, ico = call(port, "GET", "/favicon.ico")
    assert ico[:4] == b"\x00\x00\x01\x00" and b"PNG" in ico[:64]
    manifest = json.loads(call(port, "GET", "/manifest.webmanifest")[2])
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["name"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert status_of(port, icon["src"]) == 200, icon


# ---------------------------------------------------------------------------------------- start-up lines
def test_run_says_what_hardware_it_found_once(tmp_path: Path):
    """`fog-companion run` as the service starts it (no standard input), on a machine without LEDs
    or GPIO: each hardware line once, whatever goes to standard output and standard error."""
    script = Path(sys.executable).with_name("fog-companion")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    env = {k: v for k, v in os.environ.items() if k != "FOG_LED_BACKEND"}  # find out, as on a real machine
    env.update(FOG_CONFIG=str(tmp_path / "config.toml"), FOG_DATA_DIR=str(tmp_path))
    (tmp_path / "config.toml").write_text('[camera]\nsource = "sim"\n')
    proc = subprocess.Popen([*command, "run", "--host", "127.0.0.1", "--port", "0"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path)
    lines = collect_output(proc)
    try:
        assert wait_for(lambda: any(x.startswith("panel: ") for x in lines) or proc.poll() is not None, 90), lines
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert wait_for(lambda: any(x.startswith("stopped") for x in lines), 10), lines
    for prefix in ("LEDs:", "buttons:", "camera:", "panel:"):
        said = [x for x in lines if re.match(prefix, x)]
        assert len(said) == 1, (prefix, lines)


def test_no_page_load_asks_for_a_file_that_is_not_there_in_a_real_browser(running: tuple[Companion, int]):
    """Every page opened in headless Chromium: no request of the page answers 4xx or fails (the tab
    icon, the manifest and its icons included)."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed")
    companion, port = running
    base = f"http://127.0.0.1:{port}"
    pages = ["/", "/setup", "/table", "/calibration", "/score", "/games", "/lens", "/fit",
             f"/games/{companion.session.game_id}"]
    bad: list[str] = []
    asked: set[str] = set()
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            # a request the next page's navigation cancels (ERR_ABORTED) did not fail: it was not needed any more
            page.on("requestfailed", lambda r: bad.append(f"failed {r.url} {r.failure}")
                    if "ERR_ABORTED" not in (r.failure or "") else None)
            page.on("request", lambda r: asked.add(r.url.removeprefix(base)))
            for path in pages:
                page.goto(base + path, wait_until="load")
                manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.status)")
                assert manifest == 200, path
        finally:
            browser.close()
    assert not bad, bad
    assert "/manifest.webmanifest" in asked
