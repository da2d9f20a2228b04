"""The real pages in headless Chromium against the real companion process on the simulated table.

A 3-player game is created on the setup page, the simulated table is set up and the camera
verifies it, the draft is tapped through, an islander is dragged on the simulated table while
the live board (another tab) updates its MP without a reload, an illegal move is made and put
right, and the game is played to the end and its score read off the score page. Screenshots of
every page go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.tables import BOARD

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("FOG_ARTIFACTS", ROOT / "build" / "screenshots"))
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]

playwright_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium for the browser tests (bootstrap.py installs it as root)")
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_panel(tmp_path_factory.mktemp("browser-data"), "[camera]\nsource = \"sim\"\n") as url:
        yield url


@contextmanager
def running_panel(data: Path, config: str) -> Iterator[str]:
    """``fog-companion run`` on the simulated table with ``config`` (TOML) as its config file: its panel's address."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FOG_LED_BACKEND": "recording", "FOG_CONFIG": str(data / "panel.toml")}
    (data / "panel.toml").write_text(config)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--host", "127.0.0.1", "--port", "0",
                             "--data-dir", str(data)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    url = None
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        if not line:
            break
        if m := re.match(r"panel: (http://\S+)", line):
            url = m.group(1)
            break
    assert url, "".join(lines)
    try:
        yield url.rstrip("/")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
        assert proc.returncode == 0, out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def api_state(page: Any, base: str) -> dict[str, Any]:
    return page.request.get(f"{base}/api/state").json()


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, piece: str, cell: str) -> None:
    page.locator(f'[data-cell="{cell}"]').first.scroll_into_view_if_needed()
    page.locator(f'g.piece[data-piece="{piece}"]').first.scroll_into_view_if_needed()
    x0, y0 = centre(page, f'g.piece[data-piece="{piece}"]')
    x1, y1 = centre(page, f'[data-cell="{cell}"]')
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8)
    page.mouse.up()


def smallest(page: Any, selector: str) -> float:
    """The smaller side of the smallest element ``selector`` finds, as drawn on the screen (px)."""
    sizes = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((e) => {
        const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })""", selector)
    assert sizes, f"nothing matches {selector}"
    return min(sizes)


def in_view(page: Any, selector: str) -> list[str]:
    """The elements ``selector`` finds that a finger cannot reach now: off the screen, or under something
    else at their centre (the hint, the tab bar). Named by their data-piece, data-target or id."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter((e) => {
        const r = e.getBoundingClientRect(), at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !at || !(at === e || e.contains(at)); }).map((e) => e.dataset.piece || e.dataset.target || e.id)""", selector)


# Words only the partner race says: a FOG page showing one shows another game's words.
RACE_WORDS = ("pawn", "card spot", "Last card", "cards in hand", "folds", "Partner card race", "deal")


def no_race(page: Any, where: str) -> None:
    text = page.evaluate("() => document.body.innerText")
    found = [w for w in RACE_WORDS if re.search(rf"\b{w}\b", text)]
    assert not found, f"{where} shows {found}:\n{text}"


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two CSS colours given as rgb(...)/rgba(...) strings."""
    def lum(css: str) -> float:
        r, g, b_ = (int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b_)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


PRIMARIES = """() => [...document.querySelectorAll('main button, main a.button-link, #banner button, #banner a')]
    .filter((e) => e.checkVisibility({visibilityProperty: true}) && !e.disabled && getComputedStyle(e).backgroundColor === 'rgb(79, 179, 255)')
    .map((e) => e.id || e.textContent.trim())"""


def primaries(page: Any, want: list[str] | None = None) -> list[str]:
    """The primary actions in view: enabled buttons and button links in the accent colour. With ``want``,
    once the page has drawn them (a card shown draws its buttons on the next state it renders), or what
    it shows after 15 s."""
    if want is not None:
        try:
            page.wait_for_function(f"() => JSON.stringify(({PRIMARIES})()) === {json.dumps(json.dumps(want))}",
                                   timeout=15_000)
        except Exception:  # noqa: BLE001 - the assertion that follows says what the page shows instead
            pass
    return list(page.evaluate(PRIMARIES))


def forward_step(state: dict[str, Any]) -> tuple[str, str]:
    """An islander of the active colour on the beach with a free beach cell ahead of it."""
    where = {p: c for c, ps in state["placement"].items() for p in ps}
    mine = [p for p, owner in state["owners"].items() if owner == state["active"] and p in where]
    for piece in sorted(mine):
        cell = where[piece]
        if BOARD.cells[cell].kind != "beach":
            continue
        for d in ("NW", "NE"):
            n = BOARD.step(cell, d)
            if n and BOARD.cells[n].kind == "beach" and n not in state["placement"]:
                return piece, n
    raise AssertionError("no simple forward step in this position")


DEVICES = {  # the two ways the panel is used: a phone in a hand at the table, a laptop beside it
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_a_three_player_game_at_the_panel(panel_url: str, browser: Any, device: str) -> None:
    """A whole game as a new user plays it: set up, board check, draft, play, score, replay."""
    base = panel_url
    ctx = browser.new_context(**DEVICES[device])
    touch = bool(DEVICES[device].get("has_touch"))
    prefix = "" if device == "laptop" else "phone-"

    def snap(page: Any, name: str) -> None:
        shot(page, prefix + name)

    def tap(page: Any, selector: str) -> None:
        page.bring_to_front()  # the page a person taps is the one in view (a hidden tab paints rarely)
        target = page.locator(selector).first
        target.scroll_into_view_if_needed()
        target.tap() if touch else target.click()

    def hand(piece: str, cell: str) -> None:
        """A hand on the simulated table: dragged on its page; on a phone a drag from the beach to a
        boat runs off the screen, so the long ones go through the table's API as the page does."""
        if touch:
            assert post_json(table, f"{base}/api/table/move", {"piece": piece, "cell": cell}).ok
        else:
            drag(table, piece, cell)

    setup = ctx.new_page()
    errors: list[str] = []
    setup.on("pageerror", lambda exc: errors.append(str(exc)))
    # the Content-Security-Policy must not block anything the pages themselves do
    ctx.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)

    # --- create a 3-player game on the setup page
    setup.goto(f"{base}/setup")
    setup.select_option("#count", "3")
    names = setup.locator("#player-rows .name")
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        names.nth(i).fill(name)
    assert setup.locator('.switch-row[data-token="two-player"]').is_hidden()  # a 2-player option, not offered
    assert primaries(setup, ["create"]) == ["create"], primaries(setup)  # one next step at a time
    tap(setup, "#advanced > summary")  # the seed is an advanced setting
    setup.fill("#seed", "11")
    tap(setup, "#create")
    setup.wait_for_selector("#verify-card:not([hidden])")
    setup.wait_for_selector("#differences tbody tr")  # the empty simulated table differs everywhere
    snap(setup, "01-setup-differences")
    assert primaries(setup, ["verify"]) == ["verify"], (primaries(setup), setup.evaluate("() => document.getElementById('new-game-fold').open"))

    # --- the simulated table is set up by "hands"; the camera verifies it. A simulated table that held the
    # last game's pieces (the second device's run) sets itself up for the new game as hands would: the
    # camera may have checked it before the button is tapped, and then the button has gone with its card
    try:
        setup.bring_to_front()
        button = setup.locator("#sim-setup").first
        button.tap(timeout=10_000) if touch else button.click(timeout=10_000)
    except playwright_api.TimeoutError:
        assert setup.locator("#verify-card").is_hidden(), "the board check waits with no way to set the table up"
    setup.wait_for_selector("#verify-status.good", state="attached", timeout=30_000)
    setup.wait_for_selector("#verify-card", state="hidden")  # the board check is done: the draft is next
    assert setup.locator("#differences tbody tr").count() == 0

    # --- draft: on a phone by tapping islanders on the board, on a laptop from the list
    setup.wait_for_selector("#phase-card:not([hidden])")  # the phase of picks The FOG declares
    assert setup.locator("#phase-title").inner_text() == "Draft"
    assert setup.locator('#stepper [data-step="draft"]').inner_text() == "Draft"  # its own step, declared
    snap(setup, "02-draft")
    assert primaries(setup, []) == [], primaries(setup)  # the draft is made by tapping the board
    picks = 0
    while (drafting := api_state(setup, base))["phase"] == "draft":
        who = setup.locator("#phase-who").inner_text()
        if touch:
            piece = setup.locator(f'#board g.piece[data-piece="{drafting["drafts"][picks % len(drafting["drafts"])]}"]')
            piece.scroll_into_view_if_needed()
            box = setup.locator("#phase-card").bounding_box()  # "who picks" stays in view beside the board
            assert box is not None and -1 <= box["y"] < 844, box
            piece.tap()
        else:
            setup.locator("#phase-choices button.pick").first.click()
        setup.wait_for_function("(who) => document.querySelector('#phase-who').textContent !== who || "
                                "document.querySelector('#phase-card').hidden", arg=who)
        picks += 1
        assert picks < 40
    assert api_state(setup, base)["phase"] == "moving"
    setup.wait_for_selector("#next-card:not([hidden])")  # the draft is done: the way on is offered
    assert setup.locator("#next-link").get_attribute("href") == "/"

    # --- the live board in one tab, the simulated table in another
    live = ctx.new_page()
    live.on("pageerror", lambda exc: errors.append(str(exc)))
    live.goto(f"{base}/")
    live.wait_for_selector("g.piece")
    assert live.locator("#counter-mp_left").inner_text() == "7"  # the MP left, as The FOG declares it
    assert live.locator("#counter-mp_left-dots .dot.on").count() == 7
    live.wait_for_selector('#leds .led-row[data-segment="counter"] .led')  # the virtual LEDs (the MP on the counter segment)
    assert live.locator("#leds .led").count() == 30
    snap(live, "03-live-board")
    assert primaries(live, ["end-turn"]) == ["end-turn"], primaries(live)
    table = ctx.new_page()
    table.on("pageerror", lambda exc: errors.append(str(exc)))
    table.goto(f"{base}/table")
    table.wait_for_selector("g.piece")
    state = api_state(table, base)
    piece, target = forward_step(state)
    drag(table, piece, target)
    live.wait_for_function("() => document.querySelector('#counter-mp_left').textContent === '6'", timeout=30_000)
    assert api_state(live, base)["placement"].get(target) == [piece]
    assert live.locator(f'g.piece[data-piece="{piece}"]').count() == 1
    snap(table, "04-simulated-table")
    snap(live, "05-live-after-move")

    # --- what players read: the move in words with the player's name, nothing of another game
    live.wait_for_function("() => /: the /.test(document.querySelector('#log li').textContent)")
    said = live.locator("#log li").first.inner_text()
    assert said.startswith(tuple(f"{n}: the " for n in ("Ann", "Bo", "Cy"))) and f" to {target}" in said, said
    assert live.locator("#legend-card").is_visible()  # its tokens show icons and marks to explain
    assert table.locator("#turn-over").is_visible()  # tokens the FOG takes are turned over by hand
    for page, where in ((setup, "the Setup page"), (live, "the Board page"), (table, "the Table page")):
        no_race(page, where)
    # the player's colour on the dark card, black included, is ringed so it shows (contrast 3:1 at least)
    ring, card = live.evaluate("""() => [getComputedStyle(document.getElementById('active')).borderTopColor,
                                          getComputedStyle(document.getElementById('turn-card')).backgroundColor]""")
    assert contrast(ring, card) >= 3, (ring, card)

    # --- an illegal move: an islander of another colour, far up the beach, is put straight into a boat
    state = api_state(live, base)
    where = {p: c for c, ps in state["placement"].items() for p in ps}
    others = [p for p, owner in state["owners"].items() if owner != state["active"] and p in where
              and BOARD.cells[where[p]].kind == "beach"]
    other = max(others, key=lambda p: (BOARD.cells[where[p]].center_mm[1], p))  # the farthest from the boats
    home = where[other]
    step_to = next(c.id for c in BOARD.boat_places() if c.id not in state["placement"])
    table.reload()
    table.wait_for_selector("g.piece")
    hand(other, step_to)
    live.wait_for_selector("#sync-banner", timeout=30_000)
    isl = BOARD.islanders[other]  # named as players call it, not by its id
    assert f"the {isl.nation} {isl.type}" in live.locator("#sync-banner").inner_text()
    assert live.locator(f'g.piece.offender[data-piece="{other}"]').count() == 1
    snap(live, "06-out-of-sync")
    # ... and put back on the table: in sync again, nothing charged
    table.reload()
    table.wait_for_selector("g.piece")
    hand(other, home)
    live.wait_for_selector("#sync-banner", state="detached", timeout=30_000)
    assert live.locator("#counter-mp_left").inner_text() == "6"

    # --- the calibration page shows the camera with the overlay
    cam = ctx.new_page()
    cam.goto(f"{base}/calibration")
    cam.wait_for_function("() => document.querySelector('#stream').naturalWidth > 0", timeout=30_000)
    cam.wait_for_function("() => /pieces seen/.test(document.querySelector('#camera-health').textContent)")
    health = cam.locator("#camera-health").inner_text()  # in sentences: every piece on the table is seen
    assert "Board found" in health and re.search(r"(\d+) of \1 pieces seen\.", health), health
    cam.click("#camera-details > summary")  # the figures, for a maintainer
    cam.wait_for_selector('#camera-settings tr[data-key="board_found"]')
    assert cam.locator('#camera-settings tr[data-key="board_found"] td').inner_text() == "true"
    snap(cam, "07-calibration")
    # --- the Score page during the game: the standing in words, by name
    cam.goto(f"{base}/score")
    cam.wait_for_selector("#standing li")
    standing = cam.locator("#standing").inner_text()
    assert "RP so far" in standing and "Ann (" in standing, standing
    assert cam.locator("#details-title").is_hidden()
    no_race(cam, "the Score page during a game")
    cam.close()

    # --- play to the end with the end-turn button; swallowed tokens are taken off the table
    shaded = False
    for _ in range(200):
        state = api_state(live, base)
        if state["phase"] == "finished":
            break
        if state["fog"]["swallowed"] and not shaded:  # the rows the FOG covers, shaded as its declaration says
            live.wait_for_function("""(rows) => document.querySelector('.cell.shade-covered') && rows.every((r) =>
                [...document.querySelectorAll(`.cell[data-group="${r}"]`)].every((n) => n.classList.contains('shade-covered')))""",
                                   arg=state["fog"]["swallowed"])
            shaded = True
        lost = set(state["lost"])
        on_table = table.request.get(f"{base}/api/table").json()["table"]
        for cell, pieces in on_table.items():
            for p in pieces:
                if p in lost:
                    table.request.post(f"{base}/api/table/move", data={"piece": p, "cell": None},
                                       headers={"Content-Type": "application/json"})
        seq = state["seq"]
        tap(live, "#end-turn")
        deadline = time.monotonic() + 10
        while api_state(live, base)["seq"] == seq and time.monotonic() < deadline:
            time.sleep(0.05)
    assert api_state(live, base)["phase"] == "finished" and shaded

    score_page = ctx.new_page()
    score_page.goto(f"{base}/score")
    score_page.wait_for_selector("#score-table tr.total")
    expected = api_state(score_page, base)["score"]
    for colour, sheet in expected["colours"].items():
        cell = score_page.locator(f'#score-table tr.total td[data-colour="{colour}"]').inner_text()
        assert int(cell) == sheet["total"]
    assert "Winner:" in score_page.locator("#winner").inner_text()
    assert primaries(score_page, ["Start a new game"]) == ["Start a new game"], primaries(score_page)
    assert live.locator("#over-banner a").get_attribute("href") == "/score"  # the board page says where to go
    snap(score_page, "08-score")

    games = ctx.new_page()
    games.goto(f"{base}/games")
    games.wait_for_selector("#games li.game-item")
    listed = games.locator("#games li.game-item").first.inner_text()  # newest first: the game just played
    assert "finished: " + " and ".join(expected["winners"]) in listed, listed
    assert all(p["name"] in listed for p in api_state(games, base)["players"]), listed
    snap(games, "09-games")
    tap(games, "#games li.game-item a.game-title")
    games.wait_for_selector("#replay")
    tap(games, "#last")
    games.wait_for_function("() => document.querySelector('#step').textContent !== '0'")
    assert games.locator("#moves button.here").count() == 1  # the move list follows the steps
    tap(games, "#moves button.move-line >> nth=2")  # tap a move: the board after it
    games.wait_for_function("() => document.querySelector('#step').textContent === '3'")
    snap(games, "10-replay")
    assert not errors, errors
    ctx.close()


def post_json(page: Any, url: str, body: dict[str, Any] | None = None) -> Any:
    return page.request.post(url, data=body or {}, headers={"Content-Type": "application/json"})


def phone(browser: Any) -> tuple[Any, Any, list[str]]:
    """A phone-sized, touch browser context, a page in it, and the page errors it collects."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def set_up_and_draft(page: Any, base: str) -> None:
    """Hands set the simulated table up, the camera verifies it, the draft is made on the API."""
    post_json(page, f"{base}/api/table/setup")
    deadline = time.monotonic() + 30
    while api_state(page, base)["verifying"] and time.monotonic() < deadline:
        time.sleep(0.1)
    while (s := api_state(page, base))["picks"]:  # the draft's picks are actions like any other
        assert post_json(page, f"{base}/api/act", {"action": s["picks"][0]["action"]}).ok


def test_the_honest_loop_on_a_phone(panel_url: str, browser: Any) -> None:
    """At phone size: a running game is paused, never lost; the table and the game disagreeing is
    said piece by piece, End turn waits, accepting the board shows what it logs first; swallowed
    tokens are listed until turned over."""
    base = panel_url
    ctx, page, errors = phone(browser)
    first = post_json(page, f"{base}/api/games", {"players": [{}, {}, {}], "seed": 5, "confirm": True}).json()["game"]

    # --- "Create game" while a game runs asks first; the running game is paused, and resumed whole
    page.goto(f"{base}/setup")
    page.wait_for_function("() => !document.querySelector('#new-game-fold').open")  # folded while a game runs
    page.click("#new-game-fold > summary")
    page.select_option("#count", "2")
    page.click("#create")
    page.wait_for_selector("#confirm-box")
    assert "Pause it" in page.locator("#confirm-box").inner_text()
    shot(page, "11-phone-new-game-asks")
    page.click("#confirm-no")  # keep playing: nothing happened
    assert api_state(page, base)["game"] == first
    page.click("#create")
    page.click("#confirm-yes")
    deadline = time.monotonic() + 10
    while api_state(page, base)["game"] == first and time.monotonic() < deadline:
        time.sleep(0.05)
    second = api_state(page, base)["game"]
    assert second != first
    page.goto(f"{base}/games")
    page.wait_for_selector(f'button.resume[data-game="{first}"]')
    shot(page, "12-phone-games-resume")
    page.click(f'button.resume[data-game="{first}"]')
    page.click("#confirm-yes")
    page.wait_for_url(f"{base}/")
    assert api_state(page, base)["game"] == first
    statuses = {g["id"]: g["status"] for g in page.request.get(f"{base}/api/games").json()["games"]}
    assert statuses[first] == "playing" and statuses[second] == "paused"

    # --- the camera checks the resumed game's table; the draft is done on the API
    set_up_and_draft(page, base)

    # --- an islander put where no move takes it: every piece named, End turn waits
    state = api_state(page, base)
    where = {p: c for c, ps in state["placement"].items() for p in ps}
    piece = sorted(p for p, o in state["owners"].items() if o == state["active"] and p in where)[0]
    home = where[piece]
    far = next(c.id for c in BOARD.boat_places() if c.id not in state["placement"])
    page.goto(f"{base}/")
    page.wait_for_selector("g.piece")
    post_json(page, f"{base}/api/table/move", {"piece": piece, "cell": far})
    page.wait_for_selector(f'#sync-pieces li[data-piece="{piece}"]', timeout=30_000)
    listed = page.locator("#sync-pieces").inner_text()
    assert f"put it on {home}" in listed and piece not in listed, listed  # by name ("The blue elder (jumps)"), not id
    assert page.locator("#end-turn").is_disabled()  # End turn waits, and says why
    assert "disagree" in page.locator("#end-turn-why").inner_text()
    res = post_json(page, f"{base}/api/end-turn")  # a script (or a stale page) is refused all the same
    assert res.status == 409 and res.json()["kind"] == "out-of-sync"
    assert api_state(page, base)["history"] == state["history"]  # nothing logged: the turn did not end
    shot(page, "13-phone-out-of-sync")
    page.click("#accept-correction")
    page.wait_for_selector("#confirm-box")
    text = page.locator("#confirm-text").inner_text()  # what the log will say, in words; the notation folded away
    assert "The log will say: The table was corrected by hand: " in text and f"to {far} (was on {home})" in text, text
    assert piece not in text and "0 MP" in text, text
    assert page.locator("#confirm-notation code").text_content() == f"correct {piece}:{home}>{far}"
    shot(page, "14-phone-accept-preview")
    page.click("#confirm-yes")
    page.wait_for_selector("#sync-banner", state="detached", timeout=10_000)
    assert api_state(page, base)["out_of_sync"] is None
    page.click("#undo")  # the correction is taken back: the camera still sees it far away, and hands put it back
    page.wait_for_selector("#step-banner", timeout=10_000)  # calm: an undo the players asked for is theirs to do
    assert "undone" in page.locator("#step-banner").inner_text()
    assert page.locator("#sync-banner").count() == 0
    post_json(page, f"{base}/api/table/move", {"piece": piece, "cell": home})
    page.wait_for_selector("#step-banner", state="detached", timeout=30_000)
    assert page.locator("#sync-banner").count() == 0

    # --- a piece the camera does not find: the Camera page marks where the game has it, by name
    other = next(p for p, o in sorted(state["owners"].items()) if o != state["active"] and p in where)
    before = api_state(page, base)["history"]
    post_json(page, f"{base}/api/table/move", {"piece": other, "cell": None})
    cam = ctx.new_page()
    cam.goto(f"{base}/calibration")
    mark = cam.locator("g.unfound")
    mark.first.wait_for(timeout=30_000)
    label = mark.first.get_attribute("aria-label") or ""
    assert label.endswith(": not found") and where[other] in label and other not in label, label
    mark.first.click()
    assert "check that its sticker is clean and flat" in cam.locator("#camera-caption").inner_text()
    shot(cam, "14b-phone-camera-not-found")
    cam.close()
    post_json(page, f"{base}/api/table/move", {"piece": other, "cell": where[other]})
    page.wait_for_selector("#sync-banner", state="detached", timeout=30_000)
    page.wait_for_selector("#step-banner", state="detached", timeout=30_000)
    after = api_state(page, base)
    assert after["history"] == before and after["out_of_sync"] is None, after  # nothing logged that nobody did
    res = post_json(page, f"{base}/api/end-turn")
    assert res.ok, res.json()

    # --- the FOG swallows a row: every token still on the table is listed and marked until turned over
    for _ in range(60):
        s = api_state(page, base)
        if s["to_turn_over"] or s["phase"] != "moving":
            break
        seq = s["seq"]
        assert post_json(page, f"{base}/api/end-turn").ok
        deadline = time.monotonic() + 10
        while api_state(page, base)["seq"] == seq and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
    deadline = time.monotonic() + 30
    while not api_state(page, base)["to_turn_over"] and time.monotonic() < deadline:
        time.sleep(0.1)
    chores = api_state(page, base)["to_turn_over"]
    assert chores
    page.wait_for_selector("#turn-over-banner")
    for chore in chores:
        assert page.locator(f'g.piece.turn-over[data-piece="{chore["piece"]}"]').count() == 1
    shot(page, "15-phone-turn-over")
    for chore in chores:
        assert post_json(page, f"{base}/api/table/turn-over", {"piece": chore["piece"]}).ok
    page.wait_for_selector("#turn-over-banner", state="detached", timeout=30_000)
    assert not errors, errors
    ctx.close()


def test_the_board_on_a_phone_is_readable_and_playable_by_keyboard(panel_url: str, browser: Any) -> None:
    """At 390 px the cells fill the width, pieces, places and dots are at least 24 px, rows are named
    on the edge, a tapped piece shows where it can go (the dots and the hint on the screen), and a move
    can be made with the keyboard alone."""
    base = panel_url
    ctx, page, errors = phone(browser)
    post_json(page, f"{base}/api/games", {"players": [{}, {}, {}], "seed": 7, "confirm": True})
    set_up_and_draft(page, base)
    page.goto(f"{base}/")
    page.wait_for_selector("g.piece")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing scrolls sideways
    cells = page.evaluate("""() => { const b = [...document.querySelectorAll('.cell')].map((c) => c.getBoundingClientRect());
        return Math.max(...b.map((r) => r.right)) - Math.min(...b.map((r) => r.left)); }""")
    assert cells >= 0.9 * 390, cells
    assert smallest(page, "#board g.piece") >= 24  # a thumb's tap target, every piece
    assert smallest(page, "#board .cell:not(.woods)") >= 24  # and every place a piece stands on
    rows = page.evaluate("() => [...document.querySelectorAll('.edge-label')].map((t) => t.textContent)")
    assert sorted(rows) == list("ABCDEFGHIJ"), rows
    for selector in ("nav a", "#end-turn", "#undo", ".mode"):
        heights = page.evaluate(f"() => [...document.querySelectorAll('{selector}')].map((e) => e.getBoundingClientRect().height)")
        assert min(heights) >= 44, (selector, heights)
    # the keyboard alone: focus an islander of the player to move, Enter, Tab to a dot, Enter
    state = api_state(page, base)
    piece, target = forward_step(state)
    page.focus(f'g.piece[data-piece="{piece}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(f'.target[data-target="{target}"]')
    assert smallest(page, "#board .target") >= 24  # the dots too: each is as large as its cell
    assert not in_view(page, "#board .target, #mode-hint")  # every dot, and what to do next, on the screen
    assert "tap a dot" in page.locator("#mode-hint").inner_text()
    shot(page, "16-phone-targets")
    page.focus(f'.target[data-target="{target}"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#counter-mp_left').textContent === '6'", timeout=10_000)
    assert api_state(page, base)["placement"].get(target) == [piece]
    page.wait_for_selector(f'line.arrow.last-move[data-to="{target}"]')  # the last move drawn as an arrow
    shot(page, "17-phone-last-move")
    assert not errors, errors
    ctx.close()


AXE = ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.parametrize("viewport", [(390, 844), (1366, 768)])
def test_no_page_has_a_serious_accessibility_violation(panel_url: str, browser: Any, viewport: tuple[int, int]) -> None:
    """axe-core on every page, a game running, at phone and desktop size: nothing serious or critical."""
    if not AXE.exists():
        if os.environ.get("CI"):
            raise RuntimeError("CI needs axe-core from npm (python3 bootstrap.py test installs it)")
        pytest.skip("axe-core is not installed (python3 bootstrap.py test installs it)")
    base = panel_url
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, bypass_csp=True)
    page = ctx.new_page()
    state = api_state(page, base)
    if state["phase"] in ("setup", "finished"):
        post_json(page, f"{base}/api/games", {"players": [{}, {}, {}], "seed": 3, "confirm": True})
    found: dict[str, list[Any]] = {}
    for path in ("/", "/setup", "/table", "/calibration", "/lens", "/fit", "/score", "/games",
                 f"/games/{api_state(page, base)['game']}"):
        page.goto(f"{base}{path}")
        page.wait_for_function("() => document.querySelector('#conn.up')", timeout=30_000)
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => [v.id, v.impact, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])""")
        if violations:
            found[path] = violations
    assert not found, found
    ctx.close()


SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'button, a.button-link, input:not([type=checkbox]):not([type=radio]), select, summary, nav a, label.switch, label.mode')]
    .filter((e) => e.checkVisibility({visibilityProperty: true}))
    .map((e) => [e.tagName + '#' + e.id + '.' + e.className, e.getBoundingClientRect().height]).filter((x) => x[1] < 44)"""


@pytest.mark.parametrize("viewport", [(360, 740), (1366, 768), (1920, 1080)])
def test_no_page_scrolls_sideways_and_the_board_fits(panel_url: str, browser: Any, viewport: tuple[int, int]) -> None:
    """A small phone, a laptop and a TV: nothing scrolls sideways; on wide screens the board is whole in view."""
    base = panel_url
    width, height = viewport
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    if api_state(page, base)["phase"] in ("setup", "finished"):
        post_json(page, f"{base}/api/games", {"players": [{}, {}, {}], "seed": 4, "confirm": True})
    wide: dict[str, int] = {}
    for path in ("/", "/setup", "/table", "/calibration", "/lens", "/fit", "/score", "/games"):
        page.goto(f"{base}{path}")
        page.wait_for_function("() => document.querySelector('#conn.up')", timeout=30_000)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            wide[path] = scroll
        if width < 700:  # every control a thumb can hit: 44 px tall, folds opened
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            small = page.evaluate(SMALL_CONTROLS)
            assert not small, (path, small)
    assert not wide, wide
    page.goto(f"{base}/")
    page.wait_for_selector("g.piece")
    box = page.locator("svg.board-svg").bounding_box()
    assert box is not None and box["width"] >= 0.9 * min(width, 390 if width < 700 else width * 0.5)
    if width < 700:  # the whole island on a small phone, edge to edge, no token under a thumb's 24 px
        assert page.evaluate("(() => { const b = document.querySelector('#board'); return b.scrollWidth <= b.clientWidth; })()")
        assert smallest(page, "#board g.piece") >= 24 and smallest(page, "#board .cell:not(.woods)") >= 24
    if width >= 1000:  # a laptop or a TV: the whole board is in view without scrolling
        assert box["y"] + box["height"] <= height + 1, box
    shot(page, f"18-board-{width}x{height}")
    ctx.close()


def test_the_lens_page_on_a_phone_says_what_it_is_for_and_what_the_camera_can_do(panel_url: str, browser: Any) -> None:
    """Reached from the Camera page; on the simulated table it says there is no lens to calibrate
    and offers nothing that would fail."""
    ctx, page, errors = phone(browser)
    page.goto(f"{panel_url}/calibration")
    page.click("#lens-link")
    page.wait_for_url(f"{panel_url}/lens")
    page.wait_for_function("() => !document.getElementById('lens-status').textContent.startsWith('Reading')")
    assert "No lens calibration" in page.inner_text("#lens-status")
    assert "simulated table has no lens" in page.inner_text("#lens-progress")
    assert page.is_disabled("#lens-take") and page.is_disabled("#lens-compute")
    assert page.get_attribute("#lens-sheet", "href") == "/api/lens/sheet.pdf"
    shot(page, "phone-10-lens")
    assert not errors, errors
    ctx.close()


def anchors_on_the_table(page: Any, base: str) -> dict[str, Any]:
    """A game running and set up on the simulated table, hands making room on each cell the Fit
    board page names and putting its anchor there; the page's plan."""
    if api_state(page, base)["phase"] in ("setup", "finished"):
        post_json(page, f"{base}/api/games", {"players": [{}, {}, {}], "seed": 5, "confirm": True})
    post_json(page, f"{base}/api/table/setup")
    plan = page.request.get(f"{base}/api/fit").json()
    table = page.request.get(f"{base}/api/table").json()["table"]
    for anchor in plan["anchors"]:
        for other in table.get(anchor["cell"], []):
            post_json(page, f"{base}/api/table/move", {"piece": other, "cell": None})
        post_json(page, f"{base}/api/table/move", {"piece": anchor["piece"], "cell": anchor["cell"]})
    before = page.request.get(f"{base}/api/camera").json()["frames"]
    deadline = time.monotonic() + 30
    while page.request.get(f"{base}/api/camera").json()["frames"] < before + 5 and time.monotonic() < deadline:
        time.sleep(0.05)  # a few frames of the camera show them
    return plan


def test_the_board_is_fitted_to_the_print_from_a_phone(panel_url: str, browser: Any) -> None:
    """The Fit board page on the simulated table: the anchors drawn on the board, hands put them
    there, one tap fits the board from the live picture and draws the fitted cells over it, Save
    writes the file and says how the config chooses it."""
    ctx, page, errors = phone(browser)
    base = panel_url
    plan = anchors_on_the_table(page, base)
    page.goto(f"{base}/calibration")
    page.click("#fit-link")
    page.wait_for_url(f"{base}/fit")
    page.wait_for_selector("#fit-anchors li")
    assert page.locator("#fit-anchors li").count() == len(plan["anchors"]) == 8
    page.wait_for_selector("#fit-board g.piece.moved")
    assert page.locator("#fit-board g.piece.moved").count() == 8
    page.click("#fit-go")
    page.wait_for_function("() => !['Fitting…', 'Not fitted yet.'].includes(document.getElementById('fit-words').textContent)",
                           timeout=30_000)
    said = page.inner_text("#fit-words")
    assert re.match(r"All [4-8] anchors seen within [0-5] mm of their cells' centres: the fit holds", said), said
    assert page.locator("#fit-lattice polygon").count() > 50
    assert not page.is_disabled("#fit-save")
    page.click("#fit-save")
    if page.locator("#confirm-yes").count():
        page.click("#confirm-yes")
    page.wait_for_function("() => document.getElementById('fit-saved').textContent.startsWith('Saved to')")
    assert "[game] board" in page.inner_text("#fit-saved")
    page.wait_for_timeout(500)
    shot(page, "phone-11-fit-board")
    assert not errors, errors
    post_json(page, f"{base}/api/table/setup")  # the table as the game has it again
    ctx.close()


def test_a_hex_that_is_woods_on_the_print_is_changed_on_the_picture_and_checked_before_saving(
        panel_url: str, browser: Any) -> None:
    """After a fit, a tap on a hex says what the print shows there; one change alone leaves the rows
    not adding up (said in words, Save off), the matching change elsewhere makes the board whole."""
    ctx, page, errors = phone(browser)
    base = panel_url
    anchors_on_the_table(page, base)
    page.goto(f"{base}/fit")
    page.wait_for_selector("#fit-anchors li")
    page.click("#fit-go")
    page.wait_for_selector("#fit-rect-cells polygon[data-cell='J1']", timeout=30_000)
    page.locator("#fit-rect-cells polygon[data-cell='J1']").click()
    assert "J1 is beach in the file" in page.inner_text("#fit-edit-what")
    page.get_by_role("button", name="woods", exact=True).click()
    page.wait_for_function("() => document.getElementById('fit-edit-words').textContent.startsWith('Not saved yet')")
    assert "must add up" in page.inner_text("#fit-edit-words") and page.is_disabled("#fit-save")
    page.locator("#fit-rect-cells polygon[data-cell='woods-JW']").click()
    page.get_by_role("button", name="beach", exact=True).click()
    page.wait_for_function("() => document.getElementById('fit-edit-words').textContent.includes('adds up')")
    assert page.locator("#fit-edits li").count() == 2 and not page.is_disabled("#fit-save")
    assert "kind-woods" in (page.get_attribute("#fit-rect-cells polygon[data-cell='J1']", "class") or "")
    shot(page, "phone-12-fit-board-edits")
    page.click("#fit-save")
    if page.locator("#confirm-yes").count():
        page.click("#confirm-yes")
    page.wait_for_function("() => document.getElementById('fit-saved').textContent.startsWith('Saved to')")
    assert not errors, errors
    post_json(page, f"{base}/api/table/setup")
    ctx.close()
