"""The tile race on the panel in headless Chromium at phone size, against the real companion process.

The game is made on the Setup page (its own questions: two players, their names and colours), the
simulated table set up and checked there; the first turns are played by hand on the Table page
(pawns dragged onto the grid, a tile tapped in the list and then on its square, a wall taken from the
tile supply and dragged onto the edge between two squares, another tapped in the list and then on
its edge, a pawn dragged onto the tile it will carry). Each page is read as a player's thumb meets
it: every square, every edge a wall may stand on, every pawn, tile and wall at least 24 px, the
tiles a pawn carries counted on it, the supplies with what they hold (whole in their places, a piece
laid there drawn clear of the words), no sideways scroll, no id and no other game's words on the screen.
The Score page gives the standing and then the winner by name; the replay draws the board move by
move with the log in words. A three-player game's Table page then offers each player's two mountains,
never a third. Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import re
from typing import Any

from tests.test_browser import AXE, api_state, browser, centre, drag, panel_url, shot, smallest  # noqa: F401
from tests.test_browser_island_battle import wide_board_says_so
from tests.test_browser_partner_race import PHONE, no_fog, visible_text, wait_until

# What a finger meets at the middle of each element ``selector`` finds, when it is not that element.
COVERED = """(sel) => [...document.querySelectorAll(sel)].filter((e) => { const r = e.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== e; }).map((e) => e.dataset.cell)"""
# A piece's or a place's id on the screen (red-1, T01, W01, mountain-red-1, start-A1-S, supply-tiles, B1|B2).
IDS = re.compile(r"\b(?:red|blue|yellow|green)-\d\b|\b[TW]\d\d\b|mountain-(?:red|blue|yellow|green)-\d|start-|supply-|\b[A-G]\d\|[A-G]\d\b")
TAPPABLE = {"squares": "#board .cell.square", "edges": "#board .cell.edge", "start spaces": "#board .cell.start",
            "pieces": "#board g.piece"}
# The names printed along the grid's sides: side -> the names as they read on the screen (left to right,
# top to bottom), the smallest as drawn (px), and the names that do not line up with their squares.
RULERS = """() => { const out = {px: Infinity, astray: []}, at = {};
    document.querySelectorAll('#board .grid-label').forEach((t) => {
        const r = t.getBoundingClientRect(), side = t.dataset.side, across = side === 'top' || side === 'bottom';
        (at[side] = at[side] || []).push([across ? r.left : r.top, t.textContent]);
        const square = document.querySelector(`#board .cell.square[data-cell="${across ? t.textContent + 4 : 'D' + t.textContent}"]`)
            .getBoundingClientRect(), mid = across ? r.left + r.width / 2 : r.top + r.height / 2;
        if (across ? mid < square.left || mid > square.right : mid < square.top || mid > square.bottom) out.astray.push(t.textContent);
        out.px = Math.min(out.px, parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a); });
    Object.entries(at).forEach(([side, names]) => { out[side] = names.sort((a, b) => a[0] - b[0]).map((n) => n[1]); });
    // a board wider than the phone, scrolled: each row's name still on the screen, at one side or the other
    const view = document.querySelector('#board').getBoundingClientRect();
    out.unseen = [...new Set([...document.querySelectorAll('#board .grid-label[data-side="left"], #board .grid-label[data-side="right"]')]
        .map((t) => t.textContent))].filter((name) => ![...document.querySelectorAll('#board .grid-label')].some((t) => {
            const r = t.getBoundingClientRect();
            return (t.dataset.side === 'left' || t.dataset.side === 'right') && t.textContent === name &&
                r.left >= Math.max(view.left, 0) && r.right <= Math.min(view.right, innerWidth); }));
    out.tappable = [...document.querySelectorAll('#board .grid-label')].filter((t) => getComputedStyle(t).pointerEvents !== 'none').length;
    return out; }"""
# What keeps a supply's name or words from being read whole: running out of its place (cut at the
# board's edge on a phone), a piece lying there drawn over its words, or a size under 9 px.
SUPPLY_UNREAD = """() => [...document.querySelectorAll('#board .supply-count, #board .supply-label')].flatMap((t) => {
    const id = t.dataset.supply || t.dataset.supplyName, r = t.getBoundingClientRect(), out = [];
    const cell = document.querySelector(`#board .cell[data-cell="${id}"]`).getBoundingClientRect();
    if (r.left < cell.left || r.right > cell.right || r.top < cell.top || r.bottom > cell.bottom) out.push(`${t.textContent}: out of its place`);
    if (t.classList.contains('supply-count')) document.querySelectorAll('#board g.piece').forEach((g) => {
        const p = g.getBoundingClientRect();
        if (p.left < r.right && p.right > r.left && p.top < r.bottom && p.bottom > r.top) out.push(`${t.textContent}: a piece over it`); });
    const px = parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
    if (px < 9) out.push(`${t.textContent}: ${px.toFixed(1)} px`);
    return out; })"""


def rulers(page: Any, where: str) -> None:
    """The grid's columns named above and below it, its rows at both ends, as the messages name squares
    ("E4"): readable on a phone, each row's name on the screen however the board is scrolled sideways,
    and never what a finger taps."""
    drawn = page.evaluate(RULERS)
    columns, rows = list("ABCDEFG"), [str(n) for n in range(7, 0, -1)]  # row 1 nearest red, at the bottom
    assert {side: drawn.get(side) for side in ("top", "bottom", "left", "right")} == \
        {"top": columns, "bottom": columns, "left": rows, "right": rows}, (where, drawn)
    assert drawn["astray"] == [] and drawn["unseen"] == [] and drawn["px"] >= 11, (where, drawn)
    assert drawn["tappable"] == 0, where  # a finger on a name meets the square under it


def for_players(page: Any, where: str, tapped: bool = True) -> None:
    """A phone's page as players read it: thumb-sized where a board is tapped, never sideways, the
    supplies' words whole, no ids, nothing of another game."""
    if page.locator("#board").count():
        sizes = {what: smallest(page, sel) for what, sel in TAPPABLE.items()}
        assert not tapped or min(sizes.values()) >= 24, (where, sizes)
        rulers(page, where)
        assert page.evaluate(SUPPLY_UNREAD) == [], where
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], where
    text = visible_text(page)
    assert not IDS.findall(text), (where, IDS.findall(text), text)
    assert not re.search(r"\b(?:MP|islanders?|cards?|boats?)\b", text), (where, text)
    no_fog(page, where)


def axe_clean(page: Any, where: str) -> None:
    if AXE.exists():  # pieces, places and controls read out as what they are, nothing serious
        page.add_script_tag(path=str(AXE))
        serious = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => [v.id, v.nodes.length])""")
        assert not serious, (where, serious)


def test_the_tile_race_on_the_panel_at_phone_size(browser: Any, panel_url: str):  # noqa: F811
    base = panel_url
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)  # axe-core is a script of the test's own
    page = context.new_page()
    try:
        # Setup: the tile race's own questions, two players by name in their colours
        page.goto(f"{base}/setup")
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "tile-race")
        page.wait_for_selector('[data-cell="B1|B2"]')  # the chosen game's board under its form
        page.select_option("#count", "2")
        assert page.locator(".player-row").count() == 2
        assert [page.locator(".player-row select.colour").nth(i).input_value() for i in range(2)] == ["red", "blue"]
        assert page.locator("#seats-help").inner_text().startswith("Red plays first")
        for i, name in enumerate(("Ada", "Bo")):
            page.locator(".player-row input.name").nth(i).fill(name)
        page.click("#create")
        wait_until(page, base, lambda s: s.get("game_name") == "tile-race")
        # the board check: what the camera does not see yet, said by place and piece, never by id
        page.wait_for_selector("#differences tbody tr")
        assert "Ada's red pawn 1" in page.locator("#differences").inner_text()
        for_players(page, "the Setup page's board check")
        shot(page, "tile-race-01-setup-check")
        page.click("#sim-setup")
        wait_until(page, base, lambda s: not s["verifying"])
        page.wait_for_selector("#next-card:not([hidden])")
        assert page.locator('[data-supply="supply-tiles"]').text_content() == "40 tiles left"  # as on the Board page
        for_players(page, "the Setup page")
        axe_clean(page, "the Setup page")

        # The Table page, as hands would: Ada's pawn dragged onto A1 and a tile (tapped in the list of
        # what is not on the table: one button for the forty look-alike tiles) tapped onto A2
        page.goto(f"{base}/table")
        page.wait_for_selector('#off-table button[data-piece^="T"]')
        offered = page.locator("#off-table").inner_text()
        assert "A tile ×40" in offered and "green" not in offered, offered  # nobody plays green
        drag(page, "red-1", "A1")
        page.locator('#off-table button[data-piece^="T"]').click()
        page.locator('[data-cell="A2"]').click()
        wait_until(page, base, lambda s: len(s["history"]) == 2 and s["out_of_sync"] is None)
        # Bo's pawn onto G7, and a wall taken from the tile supply and dragged onto the edge B1|B2
        drag(page, "blue-1", "G7")
        page.locator('#off-table button[data-piece^="W"]').click()
        page.locator('[data-cell="supply-tiles"]').click()
        page.wait_for_selector('g.piece[data-piece^="W"]')  # laid on the pile beside the grid
        wall = page.locator('g.piece[data-piece^="W"]').get_attribute("data-piece")
        # there it is a token in the supply, a short bar under the supply's words: they still read whole
        token = page.locator(f'g.piece[data-piece="{wall}"]').bounding_box()
        pile = page.locator('#board .cell[data-cell="supply-tiles"]').bounding_box()
        assert token is not None and pile is not None and token["width"] < pile["width"] / 2, (token, pile)
        assert page.evaluate(SUPPLY_UNREAD) == []
        drag(page, wall, "B1|B2")
        assert page.locator("#board g.piece.selected").count() == 0  # dropped: nothing stays held for the next tap
        state = wait_until(page, base, lambda s: len(s["history"]) == 4 and s["out_of_sync"] is None)
        assert state["history"][-1] == "wall blue B1|B2" and state["log"][-1] == "Bo stands a wall between B1 and B2"
        # Ada's second pawn onto G1, and a wall tapped in the list and then on the edge D4|D5 (a tap on an edge);
        # Bo's second pawn onto A7 and a tile on D6
        drag(page, "red-2", "G1")
        page.locator('#off-table button[data-piece^="W"]').click()  # one of the look-alike stands, any
        page.locator('[data-cell="D4|D5"]').click()
        wait_until(page, base, lambda s: s["history"][-1:] == ["wall red D4|D5"] and s["out_of_sync"] is None)
        # the wall stands on that edge on the table, and the Table page draws it there: a bar along the side
        # D4 and D5 share, over the edge's tap area
        [tapped] = page.request.get(f"{base}/api/table").json()["table"]["D4|D5"]
        assert tapped.startswith("W"), tapped
        edge = page.locator('#board .cell.edge[data-cell="D4|D5"]').bounding_box()
        bar = page.locator(f'#board g.piece[data-piece="{tapped}"] rect').nth(1).bounding_box()
        assert edge is not None and bar is not None
        assert abs(bar["x"] + bar["width"] / 2 - edge["x"] - edge["width"] / 2) < 1, (bar, edge)
        assert abs(bar["y"] + bar["height"] / 2 - edge["y"] - edge["height"] / 2) < 1, (bar, edge)
        assert bar["width"] > 3 * bar["height"], bar  # D4 lies under D5: the wall lies across, wider than high
        # Bo's second pawn moved as a thumb moves one already on the board: tapped, then its square
        page.locator('#board g.piece[data-piece="blue-2"]').click()
        page.wait_for_selector('#board g.piece.selected[data-piece="blue-2"]')
        assert page.locator("#table-status").inner_text() == \
            "Bo's blue pawn 2: tap the place to put it on, or take it off the table (tap it again to leave it)"
        # taken off the table by tapping, as a hand lifts it away, then brought back from the pieces off it
        page.locator('#table-offer button:has-text("Take it off the table")').click()
        page.wait_for_selector("#table-status:has-text(\"Bo's blue pawn 2 taken off the table\")")
        assert page.locator("#board g.piece.selected").count() == 0
        page.locator('#off-table button[data-piece="blue-2"]').click()
        page.locator('[data-cell="A7"]').click()
        page.wait_for_selector("#table-status:has-text(\"Bo's blue pawn 2 put on A7\")")
        page.locator('#off-table button[data-piece^="T"]').click()
        page.locator('[data-cell="D6"]').click()
        wait_until(page, base, lambda s: len(s["history"]) == 8 and s["out_of_sync"] is None)
        # Ada's pawn onto the tile on A2: it carries it, a stack of two on the table. A hand passes over
        # the board while the pawn is on its way: the table redrawn then waits for the drag to end
        page.locator('[data-cell="A2"]').scroll_into_view_if_needed()
        (x0, y0), (x1, y1) = centre(page, 'g.piece[data-piece="red-1"]'), centre(page, '[data-cell="A2"]')
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
        page.request.post(f"{base}/api/table/hand", data={"where": "random"})
        page.wait_for_selector("#board[data-redraw-held]", state="attached")  # held, the pawn still under the finger
        x1, y1 = centre(page, '[data-cell="A2"]')  # the finger follows A2 (the notice of the hand moved the board down)
        page.mouse.move(x1, y1, steps=4)
        page.mouse.up()
        page.request.post(f"{base}/api/table/hand", data={"where": None})
        state = wait_until(page, base, lambda s: len(s["history"]) == 9 and s["out_of_sync"] is None)
        assert page.locator("#board[data-redraw-held]").count() == 0
        assert state["stacks"] == {"A2": 1}
        page.wait_for_selector('.stack-height[data-stack="red-1"]')
        # the rules' supply, and beside it the tiles standing as walls: they add up with the loose tiles listed
        assert page.locator('[data-supply="supply-tiles"]').text_content() == state["supplies"]["supply-tiles"]
        assert state["supplies"]["supply-tiles"].startswith("36 tiles left; ")
        for_players(page, "the Table page")
        shot(page, "tile-race-02-table")

        page.goto(f"{base}/")
        page.wait_for_selector('g.piece[data-piece="W01"]')
        wide_board_says_so(page)
        shot(page, "tile-race-03-board")
        # a pawn tapped shows its hint; Escape puts it down, its dots and its hint gone
        page.locator('g.piece[data-piece="blue-1"]').click()
        page.wait_for_selector("#mode-hint:has-text(\"Bo's blue pawn 1\")")
        page.keyboard.press("Escape")
        page.wait_for_selector("#mode-hint:text-is('Tap a piece, then where it goes.')")
        assert page.locator("#board .target").count() == 0
        # the LEDs' card says what each segment shows, and a segment this game leaves dark in words
        leds = page.locator("#leds").inner_text()
        assert "The timer segment is dark in this game." in leds and "not used" not in leds, leds
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
        # the pawn on the tile it carries: what a player counts (the tiles under it) on the top piece, read out
        pawn = page.locator('g.piece[data-piece="red-1"]')
        assert page.locator('.stack-height[data-stack="red-1"] text').text_content() == "1"
        assert smallest(page, '.stack-height[data-stack="red-1"]') >= 14  # px: read at arm's length
        assert pawn.get_attribute("aria-label").endswith("on top of 1 tile")
        assert page.locator('g.piece[data-piece="T01"]').count() == 1  # the tile under it is drawn too
        # the supplies beside the grid say what they hold
        # the rules' supply, and beside it the tiles standing as walls: they add up with the loose tiles listed
        assert page.locator('[data-supply="supply-tiles"]').text_content() == state["supplies"]["supply-tiles"]
        assert state["supplies"]["supply-tiles"].startswith("36 tiles left; ")
        assert page.locator('[data-supply="supply-mountains"]').text_content() == "Ada 3, Bo 3"  # mountains not placed
        page.locator('[data-supply="supply-tiles"]').scroll_into_view_if_needed()
        shot(page, "tile-race-04-supplies")
        # the tile supply tapped as a piece is: its dots, where a tile or a wall can be laid now, said in words
        box = page.locator('#board .cell[data-cell="supply-tiles"]').bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + 4, box["y"] + 4)  # its corner: the words written in it are no control
        page.wait_for_selector("#mode-hint:has-text('The tile supply: ')")
        dots = page.locator("#board .target").count()
        assert page.locator("#mode-hint").inner_text() == (
            "The tile supply: tap a dot to lay one there." if dots else "The tile supply: nothing of it can be laid now.")
        page.keyboard.press("Escape")
        # the Camera page: every piece on the picture, a wall too, is a thumb's size to tap
        page.goto(f"{base}/calibration")
        page.wait_for_selector('#camera-marks g.found[data-piece^="W"]')
        assert smallest(page, "#camera-marks g.found") >= 24
        page.goto(f"{base}/")
        page.wait_for_selector('g.piece[data-piece="W01"]')
        for_players(page, "the Board page")
        axe_clean(page, "the Board page")
        # Correct mode lasts as long as the disagreement it was opened for: Bo's pawn 2 set a square off
        # and put back by hand ends it, the switch and its hint back on Move together
        move_mode = "#mode-hint:text-is('Tap a piece, then where it goes.')"
        page.request.post(f"{base}/api/table/move", data={"piece": "blue-2", "cell": "B7"})
        wait_until(page, base, lambda s: s["out_of_sync"] is not None)
        # "the table is right" asks about the pieces it lists itself: on a phone its box covers the banner's list
        page.locator("#table-as-game").click()
        assert page.locator("#confirm-box li").all_inner_texts() == [
            "Bo's blue pawn 2: the game has it on A7, the camera sees it on B7"]
        page.locator("#confirm-no").click()
        page.locator("#correct-one").click()
        page.wait_for_selector("#mode-hint:text-is('Correct: tap the piece, then the place where it really is.')")
        assert page.locator("input[name=mode][value=correct]").is_checked()
        page.request.post(f"{base}/api/table/move", data={"piece": "blue-2", "cell": "A7"})
        page.wait_for_selector(move_mode)
        assert page.locator("input[name=mode][value=move]").is_checked()
        # with nothing to correct the switch will not stay on Correct: a tap there would log nothing true
        page.locator("label.mode:has(input[value=correct])").click()
        page.wait_for_selector("#mode-hint:text-is('Nothing to correct: the table and the game agree. "
                               "Tap a piece, then where it goes.')")
        assert page.locator("input[name=mode][value=move]").is_checked()

        # The Score page during the race: each player by name, their pawns by number
        page.goto(f"{base}/score")
        page.wait_for_selector("#standing li")
        standing = page.locator("#standing").inner_text()
        assert "Ada (red): 0 of 2 pawns out (pawn 1 on A2, pawn 2 on G1)" in standing, standing
        for_players(page, "the Score page during the race")
        # Ada's pawns leave the grid: the players say how the table stands, hands take them off the table
        said = "correct red red-1@out-G7,red-2@out-A7,blue-1@G7,blue-2@A7 tiles=A2,D6 walls=B1|B2,D4|D5 mountains=-"
        res = page.request.post(f"{base}/api/act", data={"action": said})
        assert res.ok, res.text()
        for pawn in ("red-1", "red-2"):
            page.request.post(f"{base}/api/table/move", data={"piece": pawn, "cell": None})
        wait_until(page, base, lambda s: s["outcome"] is not None and s["out_of_sync"] is None)
        page.wait_for_selector("#winner:has-text('Winner')")
        assert page.locator("#winner").inner_text() == \
            "Winner: Ada (red) — Ada brought both pawns across the grid and out"
        assert "Ada (red): 2 of 2 pawns out" in page.locator("#score-lines").inner_text()
        for_players(page, "the Score page")
        shot(page, "tile-race-05-score")

        # The Games page and the replay: the board after each move, the moves in words
        page.goto(f"{base}/games")
        page.wait_for_selector("a.game-title:has-text('Tile race')")
        assert "Ada won" in visible_text(page)
        page.goto(f"{base}/games/{state['game']}")
        page.wait_for_selector("#moves button")
        assert page.locator("#moves button").nth(3).inner_text() == "Bo stands a wall between B1 and B2"
        page.locator("#moves button").nth(8).click()
        page.wait_for_selector("#replay-event:has-text(\"Ada's red pawn 1 moves from A1 to A2\")")
        page.wait_for_selector('.stack-height[data-stack="red-1"]')  # the pawn on the tile it carries
        assert page.locator('g.piece[data-piece^="W"]').count() == 2
        # drawn whole at a phone's width its smallest pieces would be under a thumb's size: they stay so and the
        # board scrolls sideways, every column named above it
        columns = page.locator('#board .grid-label[data-side="top"]').all_text_contents()
        assert sorted(set(columns)) == list("ABCDEFG"), columns
        link = page.locator("a:text-is('JSON export')").bounding_box()
        assert link is not None and link["height"] >= 24, link
        # the rules' supply, and beside it the tiles standing as walls: they add up with the loose tiles listed
        assert page.locator('[data-supply="supply-tiles"]').text_content() == state["supplies"]["supply-tiles"]
        assert state["supplies"]["supply-tiles"].startswith("36 tiles left; ")
        for_players(page, "the replay")
        shot(page, "tile-race-06-replay")
        axe_clean(page, "the replay")

        # Three players with long names: two mountains each (a third red or blue one is in the box for
        # two players only), and the Table page offers no more; one laid in the mountain supply, one more
        res = page.request.post(f"{base}/api/games", data={
            "game": "tile-race", "players": [{"name": n} for n in ("Alexandrina", "Bartholomew", "Cy")]})
        assert res.ok, res.text()
        page.goto(f"{base}/table")
        page.wait_for_selector('#off-table button[data-piece^="mountain-yellow"]')
        offered = page.locator("#off-table").inner_text()
        assert "Red mountain ×2" in offered and "Blue mountain ×2" in offered and "mountain ×3" not in offered, offered
        page.locator('#off-table button[data-piece^="mountain-red"]').click()
        page.locator('[data-cell="supply-mountains"]').click()
        page.wait_for_selector('#board g.piece[data-piece^="mountain-red"]')
        offered = page.locator("#off-table").inner_text()
        assert "Red mountain\n" in offered + "\n" and "Red mountain ×" not in offered, offered
        assert page.locator('[data-supply="supply-mountains"]').text_content() == "Alexandrina 2, Bartholomew 2, Cy 2"
        for_players(page, "the Table page with three players")
        page.locator('[data-cell="supply-mountains"]').scroll_into_view_if_needed()
        shot(page, "tile-race-07-three-players")
    finally:
        context.close()
