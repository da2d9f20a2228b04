"""The tile race's Board page in headless Chromium at phone size, against the real companion process.

A few turns are played at the simulated table (a tile laid, a wall stood between two squares, a pawn
part-way through a movement carrying the tile it stepped onto), and the Board page is read as a
player's thumb meets it: every square, every edge a wall may stand on, every pawn, tile and wall at
least 24 px, the stack under the pawn shown with its height, the supplies with what they hold.
Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

from typing import Any

from tests.test_browser import AXE, api_state, browser, panel_url, post_json, shot, smallest  # noqa: F401
from tests.test_browser_partner_race import PHONE, wait_until

# What a finger meets at the middle of each element ``selector`` finds, when it is not that element.
COVERED = """(sel) => [...document.querySelectorAll(sel)].filter((e) => { const r = e.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== e; }).map((e) => e.dataset.cell)"""


def test_the_tile_race_board_at_phone_size(browser: Any, panel_url: str):  # noqa: F811
    base = panel_url
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)  # axe-core is a script of the test's own
    page = context.new_page()
    try:
        post_json(page, f"{base}/api/games", {"game": "tile-race", "players": [{"name": "Ada"}, {"name": "Bo"}],
                                              "seed": 1, "confirm": True})
        page.request.post(f"{base}/api/table/setup", data={})  # the pawns on their start spaces
        wait_until(page, base, lambda s: s.get("game_name") == "tile-race" and not s["verifying"])
        # Ada's pawn comes onto A1 and she lays a tile on A2; Bo's comes onto G7 and he stands a wall
        # between B1 and B2; Ada's pawn steps onto the tile and carries it: each made on the table
        for n, action in enumerate(("move red-1 A1", "tile red A2", "move blue-1 G7", "wall blue B1|B2",
                                    "move red-1 A2"), start=1):
            res = page.request.post(f"{base}/api/act", data={"action": action})
            assert res.ok, res.text()
            page.request.post(f"{base}/api/table/setup", data={})
            state = wait_until(page, base, lambda s, n=n: len(s["history"]) == n and s["out_of_sync"] is None)
        assert state["stacks"] == {"A2": 1}

        page.goto(f"{base}/")
        page.wait_for_selector('g.piece[data-piece="W01"]')
        shot(page, "tile-race-01-board")
        # a thumb's size: the board larger than the screen in a frame that scrolls, the page never sideways
        sizes = {what: smallest(page, sel) for what, sel in (
            ("squares", "#board .cell.square"), ("edges", "#board .cell.edge"), ("start spaces", "#board .cell.start"),
            ("pawns", '#board g.piece[data-piece*="-"]:not([data-piece^="mountain"])'),
            ("tiles", '#board g.piece[data-piece^="T"]'), ("walls", '#board g.piece[data-piece^="W"]'))}
        assert min(sizes.values()) >= 24, sizes
        assert page.evaluate("document.querySelector('#board').scrollWidth") > PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # an edge with no wall is a place a finger reaches at its middle: nothing is drawn over it
        assert page.locator("#board .cell.edge").count() == 84  # 2 x 7 x 6 on a 7 x 7 grid
        page.locator('[data-cell="C3|C4"]').scroll_into_view_if_needed()
        assert page.evaluate(COVERED, '#board .cell.edge[data-cell="C3|C4"]') == []
        assert page.locator('[data-cell="C3|C4"] title').text_content() == "between C3 and C4"
        # the wall lies along the side B1 and B2 share (wider than high: they lie one above the other)
        wall = page.locator('g.piece[data-piece="W01"] rect').nth(1).bounding_box()
        assert wall is not None and wall["width"] > 3 * wall["height"], wall
        # the pawn on the tile it carries: a stack of two, its height on the top piece and read out
        pawn = page.locator('g.piece[data-piece="red-1"]')
        assert page.locator('.stack-height[data-stack="red-1"] text').text_content() == "2"
        assert smallest(page, '.stack-height[data-stack="red-1"]') >= 14  # px: read at arm's length
        assert pawn.get_attribute("aria-label").endswith("on top of a stack of 2")
        assert page.locator('g.piece[data-piece="T01"]').count() == 1  # the tile under it is drawn too
        # the supplies beside the grid say what they hold
        assert page.locator('[data-supply="supply-tiles"]').text_content() == "38 tiles"
        assert page.locator('[data-supply="supply-mountains"]').text_content() == "Ada 3, Bo 3"
        page.locator('[data-supply="supply-tiles"]').scroll_into_view_if_needed()
        shot(page, "tile-race-02-supplies")
        if AXE.exists():  # pawns, tiles and walls read out as what they are, nothing serious
            page.add_script_tag(path=str(AXE))
            serious = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
                .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => [v.id, v.nodes.length])""")
            assert not serious, serious
        assert api_state(page, base)["out_of_sync"] is None
    finally:
        context.close()
