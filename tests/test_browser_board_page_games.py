"""The three newer games played through the Board page alone, on a 390 x 844 phone in headless Chromium,
against the companion as its unit runs it on the simulated table (default hold times).

Each play is tapped on the Board page: the piece (or the supply beside the board), then its dot, and
where one place can be reached two ways the choice in the players' words. The hands then make it at
the simulated table through its own page (the Table page's "Place the pieces as the game expects").
All along, every banner, notice, hint and dialog the pages show is kept: none may name a piece or a
place by its id (``red-2``, ``natural-disc@F2``, ``pad-red-3``, ``F6|G6``, ``BOARD@SPACE``), and the
banner never once turns red (out of sync) while the players play legally. A board wider than the
phone opens on the action and says that it scrolls, on the Board, Table and Replay pages of every
game, its pieces still a thumb's size. Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
A whole Battle for the Island, from its new game, is its own story: tests/test_browser_board_page_island.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.games import names
from tests.test_browser import api_state, browser, running_panel, shot, smallest  # noqa: F401
from tests.test_browser_partner_race import PHONE, visible_text, wait_until

# A piece's or a place's id in the words on a screen (tests/test_no_ids.py's, and each game's own forms).
IDS = re.compile(r"\b[a-z]+-[a-z]*\d+\b|@|\|[A-Z]|\b(?:supply|start|rail|pad|box|mountain)-[a-z]|\b[A-G]\d\|[A-G]\d\b|"
                 r"\b[TWX]\d\d\b|\b[a-z]+-disc\b")
# Kept in every page from its first paint: each text a banner, notice, hint or dialog shows, and every
# time the banner turned red (out of sync) with what it said.
WATCH = """(() => {
    window.__said = new Set(); window.__reds = [];
    const SHOWN = '#banner, .notice, #mode-hint, #table-status, #end-turn-why, #next-card, dialog[open], #confirm-box, #log li:first-child';
    let queued = false;
    const look = () => { queued = false;
        document.querySelectorAll(SHOWN).forEach((e) => { const t = e.innerText; if (t && t.trim()) window.__said.add(t.trim()); });
        const b = document.getElementById('banner');
        if (b && !b.hidden && b.classList.contains('alert')) window.__reds.push(b.innerText); };
    new MutationObserver(() => { if (!queued) { queued = true; requestAnimationFrame(look); } })
        .observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})();"""
DRAIN = "() => { const out = {said: [...window.__said], reds: window.__reds.slice()}; window.__said.clear(); return out; }"
# A board wider than the phone: how much of it is hidden, whether its scroll hint shows and what it says.
FRAME = """() => { const b = document.getElementById('board'), h = b.previousElementSibling;
    return {wide: b.scrollWidth > b.clientWidth + 2, left: b.scrollLeft, max: b.scrollWidth - b.clientWidth,
            hint: h && h.classList.contains('scroll-hint') && !h.hidden && h.getBoundingClientRect().height > 0 ? h.innerText : null}; }"""


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_panel(tmp_path_factory.mktemp("board-page-games"), "[camera]\nsource = \"sim\"\n") as url:
        yield url


class Phone:
    """One phone with two pages open, as a new player keeps them: the Board page and the Table page."""

    def __init__(self, browser: Any, base: str) -> None:  # noqa: F811
        self.base = base
        self.context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        self.context.add_init_script(WATCH)
        self.board, self.table = self.context.new_page(), self.context.new_page()
        self.errors: list[str] = []
        for page in (self.board, self.table):
            page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.said: set[str] = set()
        self.seats: dict[str, Any] = {}  # a player's own phone, joined to their seat, by seat
        self.others: list[Any] = []

    def read(self, where: str) -> None:
        """What both pages showed since the last look: no ids in any of it, never red; the page in view too."""
        for page in (self.board, self.table, *self.seats.values()):
            if page.url.startswith(self.base):
                got = page.evaluate(DRAIN)
                assert not got["reds"], (where, got["reds"])
                self.said.update(got["said"])
                self.said.add(visible_text(page))
        shown = [t for t in self.said if IDS.search(t)]
        assert not shown, (where, [IDS.findall(t) for t in shown], shown)
        assert not self.errors, (where, self.errors)

    def state(self) -> dict[str, Any]:
        return api_state(self.board, self.base)

    def settled(self, where: str) -> dict[str, Any]:
        """The table and the game agree again (the camera read what the hands did), nothing red meanwhile."""
        state = wait_until(self.board, self.base, lambda s: not s["verifying"] and s["step"] is None
                           and not s["out_of_sync"] and not s["decision"], timeout=60)
        self.read(where)
        return state

    def hands(self, where: str) -> dict[str, Any]:
        """The hands make what was entered at the simulated table, from its own page."""
        self.table.bring_to_front()
        self.table.locator("#place-all").tap()
        self.table.wait_for_selector("#table-status:has-text('pieces placed')")
        self.table.evaluate("document.getElementById('table-status').textContent = ''")
        return self.settled(where)

    def tap_play(self, piece: str, cell: str, summary: str) -> None:
        """A play tapped on the Board page: the piece (a supply: at its corner, clear of its words), its dot,
        and where one place is reached two ways, the choice in the players' words."""
        page = self.board
        page.bring_to_front()
        supplies = self.state().get("supplies") or {}
        if piece in supplies:
            loc = page.locator(f'#board .cell[data-cell="{piece}"]')
            loc.scroll_into_view_if_needed()
            loc.tap(position={"x": 4, "y": 4})
        else:
            loc = page.locator(f'#board g.piece[data-piece="{piece}"]')
            loc.scroll_into_view_if_needed()
            loc.tap()
        dot = page.locator(f'#board .target[data-target="{cell}"]')
        dot.wait_for()
        dot.scroll_into_view_if_needed()
        dot.tap()
        if page.locator("#pick[open]").count():  # two plays end on the dot: the page asks which
            page.locator("#pick-choices button", has_text=summary).tap()

    def join(self, browser: Any, seat: str, code: str) -> None:  # noqa: F811
        """A player's own phone, joined to their seat by its code (the address its QR code holds)."""
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        context.add_init_script(WATCH)
        self.others.append(context)
        page = self.seats[seat] = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(f"{self.base}/#join={code}")
        page.wait_for_selector("#seat-join", state="hidden")

    def close(self) -> None:
        for context in (*self.others, self.context):
            context.close()

    def on_their_phone(self, seat: str, actions: str) -> None:
        """A seat's own choice on its player's phone: a fist closed by its button, or the food shared out
        in its "My food" box (a + per food, ``actions`` one a line) and put down with one tap."""
        page = self.seats[seat]
        page.bring_to_front()
        if actions.startswith("feed "):
            for action in actions.splitlines():
                page.locator(f'#seat-share li[data-action="{action}"] button:text-is("+")').tap()
            page.locator("#seat-share-done").tap()
            page.wait_for_selector("#seat-share", state="hidden")  # all of it entered, in one go
        else:
            page.locator(f'#seat-choices button[data-action="{actions}"]').tap()

    def button(self, label: str) -> None:
        self.board.bring_to_front()
        self.board.locator("#turn-actions button, #end-turn", has_text=label).first.tap()


def targets(phone: Phone, piece: str) -> list[dict[str, Any]]:
    res = phone.board.request.get(f"{phone.base}/api/targets?piece={piece}")
    assert res.ok, res.text()
    return list(res.json()["targets"])


Player = Callable[[Phone, dict[str, Any]], tuple[str, ...]]


def play_out(phone: Phone, choose: Player, turns: int, name: str) -> dict[str, Any]:
    """Plays chosen by ``choose`` (a state -> (piece, cell, summary) tapped, or (label,) a button) until the
    game is over; after each the hands make it at the table and the pages are read."""
    state = phone.state()
    for n in range(turns):
        if state["outcome"]:
            return state
        before = len(state["history"])
        play = choose(phone, state)
        if len(play) == 1:
            phone.button(play[0])
        elif len(play) == 2:  # (seat, actions): a player's own choice, tapped on their own phone
            phone.on_their_phone(*play)
        else:
            phone.tap_play(*play)
        state = wait_until(phone.board, phone.base, lambda s: len(s["history"]) > before)
        phone.read(f"{name}, play {n}: {play}")
        if n == 0:
            shot(phone.board, f"{name}-board-page-play")
        state = phone.hands(f"{name}, after play {n}: {play}")
    assert state["outcome"], f"{name}: no end after {turns} plays: {state['standing']}"
    return state


def after_the_game(phone: Phone, state: dict[str, Any], name: str) -> None:
    """The Score page and the replay of the game just played: no ids either."""
    page = phone.board
    page.goto(f"{phone.base}/score")
    page.wait_for_selector("#winner:has-text('Winner')")
    phone.read(f"{name}: the Score page")
    page.goto(f"{phone.base}/games/{state['game']}")
    page.wait_for_selector("#moves button")
    page.locator("#moves button").last.tap()
    phone.read(f"{name}: the replay")
    shot(page, f"{name}-replay-after-board-page-game")
    page.goto(f"{phone.base}/calibration")  # the Camera page: each piece read, its place under it, one tapped
    page.wait_for_selector("#camera-marks .piece.found")
    page.locator("#camera-marks .piece.found").first.dispatch_event("click")
    tags = page.eval_on_selector_all("#camera-marks text", "(ts) => ts.map((t) => t.textContent)")
    phone.said.update(tags)
    phone.read(f"{name}: the Camera page")
    shot(page, f"{name}-camera-after-board-page-game")


# The pieces ``selector`` finds that the board's frame shows now, across (a board wider than the phone).
IN_FRAME = """(sel) => { const f = document.querySelector('#board').getBoundingClientRect();
    return [...document.querySelectorAll(sel)].filter((e) => { const r = e.getBoundingClientRect();
        return r.width > 0 && r.left >= f.left - 1 && r.right <= f.right + 1; }).length; }"""


def opens_on_the_action(page: Any, where: str, action: str) -> None:
    """A board at a phone's width either fits, or opens with the pieces of ``action`` (a selector) in its
    frame and a line above it saying it scrolls; its pieces and places a thumb's size either way, and
    nothing on the page names a piece or a place by its id."""
    page.wait_for_function(f"() => ({IN_FRAME})({action!r}) > 0", timeout=10_000)
    frame = page.evaluate(FRAME)
    assert not frame["wide"] or (frame["hint"] and "swipe it sideways" in frame["hint"]), (where, frame)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where
    text = visible_text(page)
    assert not IDS.search(text), (where, IDS.findall(text), text)
    sizes = [smallest(page, "#board .cell")] + ([smallest(page, "#board g.piece")] if page.locator("#board g.piece").count() else [])
    assert min(sizes) >= 24, (where, sizes)


GAMES = {  # a game each, as a new one starts
    "fog": {"players": [{}, {}, {}], "seed": 2},
    "partner-race": {"players": [{}, {}, {}, {}], "seed": 1},
    "tile-race": {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 1},
    "island-battle": {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 1},
    "desert-survivors": {"players": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}], "seed": 3},
}


@pytest.mark.parametrize("name", sorted(names()))
def test_a_board_wider_than_the_phone_opens_on_the_action_and_says_it_scrolls(browser: Any, panel_url: str,  # noqa: F811
                                                                              name: str):
    base = panel_url
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        body = {"game": name, "confirm": True, **GAMES[name]}
        res = page.request.post(f"{base}/api/games", data=body)
        assert res.ok, res.text()
        game = res.json()["game"]
        assert page.request.post(f"{base}/api/table/setup", data={}).ok
        state = wait_until(page, base, lambda s: s["game"] == game)  # the table laid out: the camera's check runs on
        mine = [p for p, o in state["owners"].items() if o == state["active"]
                and any(p in ps for ps in state["placement"].values())]
        # before any piece is laid (the desert's food goes on the cards first) the board itself is the action
        action = ", ".join(f'#board g.piece[data-piece="{p}"]' for p in mine) or "#board .cell"
        page.goto(f"{base}/")
        page.wait_for_selector("#board .cell")
        opens_on_the_action(page, f"{name}: the Board page", action)
        shot(page, f"{name}-scroll-board")
        page.goto(f"{base}/table")
        page.wait_for_selector("#board .cell")
        opens_on_the_action(page, f"{name}: the Table page", action)
        page.goto(f"{base}/games/{game}")
        page.wait_for_selector("#board .cell")
        opens_on_the_action(page, f"{name}: the Replay page", "#board .cell")
    finally:
        context.close()
