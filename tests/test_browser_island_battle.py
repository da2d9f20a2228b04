"""Battle for the Island on the panel in headless Chromium at phone size, against the real companion process.

The game is made on the Setup page (two players by name, the roll left to a button) with the camera
unplugged, so it is played from the panel: the pieces go down by the players' correction, and then a turn is played on the Board page: Roll pressed, the roll
said in words and shown on the LEDs' card, a shot at a block told as the blast it was or as nothing
(which blocks are live is the companion's secret: whichever it was, the page says so and nothing
before). Each page is read as a player's thumb meets it: every square and every piece at least
24 px, no sideways scroll, no id and no other game's words. The Score page gives the standing by
name, the replay the moves in words. Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_browser import browser, running_panel, shot, smallest  # noqa: F401
from tests.test_browser_partner_race import PHONE, no_fog, visible_text, wait_until

# A piece's or a place's id on the screen (red-s1, blue-t2, block-3, pad-red-1, box-blocks).
IDS = re.compile(r"\b(?:red|blue)-[sjt]\d\b|\bblock-\d+\b|\bpad-(?:red|blue)-\d\b|\bbox-(?:red|blue|blocks)\b")
OTHER_GAMES = re.compile(r"\b(?:MP|islanders?|cards?|boats?|pawns?|tiles?|walls?|mountains?|discs?|X-counters?|"
                         r"desert|deal)\b")
# one block per row and column, none where the characters stand or in front of the tank that shoots
BLOCKS = ("A7", "B9", "C12", "D3", "E6", "F10", "G4", "H8", "I11", "J5")
RED = {"red-s1": "A2:N", "red-s2": "B2:N", "red-t1": "E2:N", "red-s3": "K2:N", "red-s4": "L2:N"}
BLUE = {"blue-s1": "A11:S", "blue-s2": "B11:S", "blue-t1": "E11:S", "blue-s3": "K11:S", "blue-s4": "L11:S"}
PADS = {"red": ("s5", "j1", "j2", "j3", "t2"), "blue": ("s5", "j1", "j2", "j3", "t2")}


def for_players(page: Any, where: str, tapped: bool = True) -> None:
    """A phone's page as players read it: thumb-sized where the board is tapped, never sideways, no ids,
    nothing of another game."""
    if tapped and page.locator("#board .cell").count():
        sizes = {"places": smallest(page, "#board .cell")}
        if page.locator("#board g.piece").count():  # the Setup page draws the board before any piece
            sizes["pieces"] = smallest(page, "#board g.piece")
        assert min(sizes.values()) >= 24, (where, sizes)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where
    text = visible_text(page)
    assert not IDS.findall(text), (where, IDS.findall(text), text)
    assert not OTHER_GAMES.search(text), (where, OTHER_GAMES.search(text), text)
    no_fog(page, where)


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The companion as installed, its camera unplugged: the game is played from the panel alone."""
    data = tmp_path_factory.mktemp("island-battle")
    with running_panel(data, f"[camera]\nsource = \"{data / 'unplugged.mp4'}\"\n") as url:
        yield url


def facings_drawn(page: Any, least: float = 8) -> dict[str, str]:
    """Which way each piece on the board is drawn facing, each facing mark at least ``least`` px on its smaller side."""
    marks = page.eval_on_selector_all("#board path.facing", """ns => ns.map((n) => {
        const r = n.getBoundingClientRect();
        return [n.closest("g.piece").dataset.piece, n.dataset.facing, Math.min(r.width, r.height)]; })""")
    assert marks and min(size for _, _, size in marks) >= least, marks  # seen at a glance on a phone
    return {piece: way for piece, way, _ in marks}


def act(page: Any, base: str, action: str) -> dict[str, Any]:
    """An action entered on the panel (``/api/act``, as the Board page's buttons send them)."""
    res = page.request.post(f"{base}/api/act", data={"action": action})
    assert res.ok, res.text()
    return wait_until(page, base, lambda s: s["history"] and s["history"][-1].startswith(action.split()[0]))


def seen_by_the_camera(page: Any, base: str, piece: str, cell: str) -> dict[str, Any]:
    """The camera's last picture once it reads ``piece`` on ``cell`` (the simulated table renders and
    reads on its own time: polled, never timed)."""
    for _ in range(600):
        seen = page.request.get(f"{base}/api/camera/seen").json()
        if any(p["piece"] == piece and p["cell"] == cell for p in seen["pieces"]):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"the camera never read {piece} on {cell}: {seen}")


def hands_at_the_simulated_table(page: Any, data: Path) -> None:
    """The Table page of a simulated table, as a new player's thumb drives it: a character brought
    from its box onto the island faces a clean way (the camera reads it, never between two ways), and
    turns left and right a quarter, each in one move of the hand (a left turn never passes through
    the way on its right)."""
    with running_panel(data, '[camera]\nsource = "sim"\n') as base:
        res = page.request.post(f"{base}/api/games", data={"game": "island-battle", "seed": 1,
                                                           "players": [{"name": "Ada"}, {"name": "Bo"}]})
        assert res.ok, res.text()
        assert page.request.post(f"{base}/api/table/setup", data={}).ok  # every piece in its box
        moves: list[dict[str, Any]] = []
        page.on("request", lambda r: moves.append(r.post_data_json) if r.url.endswith("/api/table/move") else None)
        page.goto(f"{base}/table")
        page.wait_for_selector('g.piece[data-piece="red-s1"]')
        assert page.locator("#turn-left").is_visible() and page.locator("#turn-right").is_visible()
        page.locator('g.piece[data-piece="red-s1"]').tap()
        page.locator('#board .cell[data-cell="C3"]').tap()
        page.wait_for_selector('#table-status:has-text("put on C3, facing N")')
        assert page.request.get(f"{base}/api/table").json()["table"]["C3"] == ["red-s1^N"]
        seen = seen_by_the_camera(page, base, "red-s1", "C3")
        assert not seen["unplaced"], seen["unplaced"]  # read facing its way, not "between two directions"
        for side, way in (("left", "W"), ("right", "N"), ("right", "E")):
            moves.clear()
            page.locator(f"#turn-{side}").click()
            assert page.locator(f"#turn-{side}").get_attribute("aria-pressed") == "true"
            page.locator('g.piece[data-piece="red-s1"]').tap()
            page.wait_for_selector(f'#table-status:has-text("turned {side} to face {way}")')
            assert moves == [{"piece": "red-s1", "cell": "C3", "facing": way}], (side, moves)  # one step
            assert page.request.get(f"{base}/api/table").json()["table"]["C3"] == [f"red-s1^{way}"]
            page.locator(f"#turn-{side}").click()  # done turning
        # the next of Ada's characters brought from its box faces the way she last chose for her side
        page.locator('g.piece[data-piece="red-s2"]').tap()
        page.locator('#board .cell[data-cell="D3"]').tap()
        page.wait_for_selector('#table-status:has-text("put on D3, facing E")')
        assert not seen_by_the_camera(page, base, "red-s2", "D3")["unplaced"]
        # one of Bo's brought from his box faces the way the game brings blue on: south, towards the island
        page.locator('g.piece[data-piece="blue-s1"]').tap()
        page.locator('#board .cell[data-cell="C11"]').tap()
        page.wait_for_selector('#table-status:has-text("put on C11, facing S")')
        for_players(page, "the Table page")
        shot(page, "island-battle-06-table")



def wide_board_says_so(page: Any) -> None:
    """A board wider than the phone scrolls, and the page says so above it (with the sides it hides)."""
    wide = page.evaluate("(() => { const b = document.getElementById('board'); "
                         "return b.scrollWidth > b.clientWidth + 2; })()")
    hint = page.locator("#board").locator("xpath=preceding-sibling::p[contains(@class, 'scroll-hint')]")
    assert not wide or (hint.is_visible() and "swipe it sideways" in hint.inner_text()), wide

def test_the_island_battle_on_the_panel_at_phone_size(browser: Any, panel_url: str,  # noqa: F811
                                                      tmp_path_factory: pytest.TempPathFactory):
    base = panel_url
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        # Setup: the island battle's own questions, two players by name, the roll left to a button
        page.goto(f"{base}/setup")
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "island-battle")
        page.wait_for_selector('.switch-row[data-token="die"]')
        for i, name in enumerate(("Ada", "Bo")):
            page.locator(".player-row input.name").nth(i).fill(name)
        page.locator('.switch-row[data-token="die"] input[role=switch]').check()
        page.click("#create")
        state = wait_until(page, base, lambda s: s.get("game_name") == "island-battle")
        assert state["die"] == "table" and [p["name"] for p in state["players"]] == ["Ada", "Bo"]
        assert not state["verifying"]  # no camera to check the board: the players vouch for it
        page.wait_for_selector("#new-game-fold:not([open])")  # the game runs: its form folds away
        assert page.locator("#next-title").inner_text() == "Ready to play"  # never "set up": nobody checked it
        assert "No camera sees the table" in page.locator("#next-text").inner_text()
        for_players(page, "the Setup page")
        shot(page, "island-battle-01-setup")

        # the pieces go down as the players say: the blocks, then each side's five on the island, five on the pad
        act(page, base, "correct red " + ",".join(f"block-{n}@{sq}" for n, sq in enumerate(BLOCKS, start=1)))
        placed = {**RED, **BLUE, **{f"{side}-{c}": f"pad{k}" for side, cs in PADS.items() for k, c in
                                    enumerate(cs, start=1)}}
        state = act(page, base, "correct red " + ",".join(f"{c}@{w}" for c, w in placed.items()))
        assert state["stage"] == "roll" and state["active"] == "red" and state["rolled"] == "Ada to roll"

        # The Board page: Ada presses Roll; the roll in words and on the LEDs' card
        page.goto(f"{base}/")
        page.wait_for_selector('g.piece[data-piece="red-t1"]')
        wide_board_says_so(page)  # 12 columns at a thumb's size: wider than the phone, and said so
        assert page.locator('[data-counter="rolled"]').inner_text().endswith("Ada to roll")
        assert page.locator('[data-counter="blast"]').inner_text().endswith("–")  # nothing told before a blast
        for_players(page, "the Board page before the roll")
        page.locator("#turn-actions button", has_text="Roll").click()
        state = wait_until(page, base, lambda s: s["history"][-1].startswith("roll red "))
        face = state["history"][-1][-1]
        page.wait_for_selector(f'[data-counter="rolled"]:has-text("Ada rolled {face}")')
        assert page.locator("#log li").first.inner_text() == f"Ada rolls a {face}"
        # with no End turn yet, the line under it says what the roll still owes ("Ada: move a character
        # three squares; it turns only on its last pip"), and the island's rows and columns are named round it
        page.wait_for_selector(f'#end-turn-why:has-text("{state["turn_ends"]}")')
        assert state["turn_ends"].startswith("Ada") and page.locator("#end-turn").is_hidden()
        rulers = set(page.eval_on_selector_all("#board .grid-label", "ns => ns.map((n) => n.textContent)"))
        assert rulers == {*"ABCDEFGHIJKL", *(str(n) for n in range(1, 13))}, rulers
        under = page.eval_on_selector_all("#board .grid-label", """ns => {  // a name whose middle a pad covers
            const pads = [...document.querySelectorAll("#board .cell.pad")].map((p) => p.getBoundingClientRect());
            return ns.filter((n) => {
                const r = n.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
                return pads.some((p) => x > p.left && x < p.right && y > p.top && y < p.bottom);
            }).map((n) => n.textContent); }""")
        assert page.locator("#board .cell.pad").count() == 10 and under == [], under  # never under red's pad
        leds = page.locator("#leds").inner_text()
        assert "The roll" in leds, leds
        shot(page, "island-battle-02-rolled")
        # each character on the island points the way it faces, as the players set it down
        facing = {piece: where.split(":")[1] for piece, where in {**RED, **BLUE}.items()}
        assert facing.items() <= facings_drawn(page).items()
        # a question with a long list (the Accept dialog of a whole table moved) opens at its top: the
        # question is read first, on the phone's screen, the safe answer holding the focus below
        page.evaluate("""() => { Fog.confirmBox("Accept the board as the camera sees it? This logs a correction.",
            Array.from({length: 16}, (_, i) => "The face-down disc on A" + (i + 1) + ": A" + (i + 1) + " → off the board"),
            "Accept the board", "Cancel", "correct ..."); }""")
        question = page.locator("#confirm-text").bounding_box()
        assert question is not None and 0 <= question["y"] and question["y"] + question["height"] <= PHONE["height"]
        box = page.evaluate("(({scrollTop, scrollHeight, clientHeight}) => [scrollTop, scrollHeight > clientHeight])"
                            "(document.getElementById('confirm-box'))")
        assert box == [0, True], box  # longer than the screen, and at its top all the same
        assert page.evaluate("document.activeElement.id") == "confirm-no"
        page.locator("#confirm-no").click()

        # A tap on Ada's tank shows its reach: the block on E6 it hits, exactly four ahead (dashed), and
        # where the roll could take it (solid), said in words under the board; a second tap puts it down
        reach = state["reach"]["red-t1"]
        assert reach["shots"] == ["E6"] and reach["note"] == "range 4"
        page.locator('g.piece[data-piece="red-t1"]').tap()
        page.wait_for_selector('.reach.shot[data-reach="E6"]')
        assert page.locator(".reach.shot").count() == 1
        shaded = page.eval_on_selector_all(".reach.move", "ns => ns.map((n) => n.dataset.reach)")
        assert sorted(shaded) == sorted(reach["moves"]), (shaded, reach)
        page.wait_for_selector('#mode-hint:has-text("can hit E6")')
        words = page.locator("#mode-hint").inner_text()
        assert words.startswith("Ada's red tank 1 (range 4) can hit E6"), words
        assert ("its move can end on " + ", ".join(reach["moves"]) in words) == bool(reach["moves"]), words
        dots = page.eval_on_selector_all("#board .target", "ns => ns.map((n) => n.dataset.target)")
        assert sorted(dots) == sorted(reach["moves"]), (dots, reach)  # a dot where each shaded move ends
        assert words.endswith("Tap a dot to move it there." if dots else "It cannot move now."), words
        for_players(page, "the Board page with the tank's reach")
        shot(page, "island-battle-02b-reach")
        page.locator('g.piece[data-piece="red-t1"]').tap()
        page.wait_for_selector(".reach", state="detached")

        # Ada's tank on E2 shoots the block on E6, exactly four ahead: a blast said only if it was live
        state = act(page, base, "shoot red-t1 E6")
        live = state["revealed"]["block-5"] == "live"
        told = page.locator('[data-counter="blast"]')
        if live:
            page.wait_for_selector('[data-counter="blast"]:has-text("Block 5 was live")')
            assert told.inner_text().endswith(state["blast"]), (told.inner_text(), state["blast"])
        else:  # a safe block is said too: never the last blast's words left standing
            page.wait_for_selector('#log li:has-text("shoots at E6: block 5 was safe")')
            assert told.inner_text().endswith("Block 5 was safe: nothing happened"), told.inner_text()
        assert page.locator('g.piece[data-piece="block-5"]').count() == 0  # off the island either way
        for_players(page, "the Board page after the shot")
        shot(page, "island-battle-03-board")
        # then her tank moves by a tap on it and one on a dot; two ways to one square (a turn with the
        # last pip, left or right) are asked as the facings it may end in
        ends = state["reach"]["red-t1"]["moves"]
        if state["stage"] == "move" and ends:
            page.locator('g.piece[data-piece="red-t1"]').tap()
            page.locator(f'#board .target[data-target="{ends[0]}"]').click()
            if page.locator("#pick").is_visible():
                choices = [b.inner_text() for b in page.locator("#pick-choices button").all()]
                assert all(re.fullmatch(rf"to {ends[0]} facing (north|east|south|west)", c) for c in choices), choices
                page.locator("#pick-choices button").first.click()
            state = wait_until(page, base, lambda s: s["history"][-1].startswith("move red-t1 E2 "))
            page.wait_for_selector(f'#log li:has-text("moves from E2 to {ends[0]}")')

        # The Score page: each player by name
        page.goto(f"{base}/score")
        page.wait_for_selector("#standing li")
        standing = page.locator("#standing").inner_text()
        assert "Ada (red): 5 on the island, 5 on the pad, 0 lost" in standing, standing
        assert "Blocks still standing: 9" in standing, standing
        for_players(page, "the Score page")
        shot(page, "island-battle-04-score")

        # The replay: the moves in words, the board after each
        page.goto(f"{base}/games/{state['game']}")
        page.wait_for_selector("#moves button")
        moves = [page.locator("#moves button").nth(i).inner_text() for i in range(page.locator("#moves button").count())]
        assert f"Ada rolls a {face}" in moves and any(m.startswith("Ada's red tank 1 shoots at E6: block 5 was ")
                                                      for m in moves), moves
        page.locator("#moves button", has_text="shoots at E6").click()
        page.wait_for_selector('#replay-event:has-text("shoots at E6")')
        # the island is wider than a phone drawn so: its pieces stay a thumb's size and it scrolls sideways,
        # read by its rulers, as on the Board page
        assert page.locator('#board .grid-label[data-side="left"]').count() == 12
        for_players(page, "the replay")
        shot(page, "island-battle-05-replay")
        assert facing.items() <= facings_drawn(page).items()  # the replay draws them as the Board page does

        hands_at_the_simulated_table(page, tmp_path_factory.mktemp("island-battle-sim"))
    finally:
        context.close()
