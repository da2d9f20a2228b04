"""The partner card race in headless Chromium at phone size, against the real companion process.

The game is chosen on the Setup page (its own questions: four seats, partners across), the
simulated table is set up and checked, a pawn is brought out from the Board page (three cards
can do that: the page asks which), a player folds (the page asks first), the game is played to
its end and the Score and Replay pages show it, with nothing of The FOG on any of them.
Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import time
from typing import Any

from companion.games import get_game
from companion.games.partner_race import rules
from companion.games.partner_race.rules import Fold
from tests.test_browser import (AXE, api_state, browser, contrast, drag, in_view, panel_url, post_json, shot,  # noqa: F401
                                smallest)
from tests.test_partner_race_table import keen_play

GAME = get_game("partner-race")
PHONE = {"width": 390, "height": 844}
FOG_WORDS = ("MP left", "islander", "The FOG", "FOG", "Draft", "hourglass", "RP")


def wait_until(page: Any, base: str, ok: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = api_state(page, base)
        if ok(state):
            return state
        time.sleep(0.1)
    raise AssertionError(f"timed out; last state: {state}")


def visible_text(page: Any) -> str:
    return page.evaluate("() => document.body.innerText")


def no_fog(page: Any, where: str) -> None:
    text = visible_text(page)
    found = [w for w in FOG_WORDS if w in text.replace("fog-companion", "")]
    assert not found, f"{where} shows {found}:\n{text}"


# The elements ``selector`` finds that lie outside the part of the board the frame shows now.
OUT_OF_FRAME = """(sel) => { const f = document.querySelector('#board').getBoundingClientRect();
    return [...document.querySelectorAll(sel)].filter((e) => { const r = e.getBoundingClientRect();
        return r.left < f.left || r.right > f.right || r.top < f.top || r.bottom > f.bottom; }).length; }"""


def phone_sized(page: Any, where: str) -> None:
    """Every pawn, space and laid card at least 24 px, as on the Board page: the track larger than the
    screen in a frame that scrolls, the page itself never sideways."""
    sizes = smallest(page, "#board g.piece"), smallest(page, "#board .cell")
    assert min(sizes) >= 24, (where, sizes)
    assert page.evaluate("document.querySelector('#board').scrollWidth") > PHONE["width"], where
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where


def turned_to(page: Any, selector: str) -> None:
    """The frame shows every piece ``selector`` finds (it turns to them once the page has the state)."""
    page.wait_for_function(f"() => ({OUT_OF_FRAME})({selector!r}) === 0", timeout=10_000)


def test_the_partner_race_on_the_panel_at_phone_size(browser: Any, panel_url: str):  # noqa: F811
    base = panel_url
    # bypass_csp: axe-core (a script of the test's own) is let in to read the Board page out
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    try:
        # a FOG game is being played when the race is chosen: it is paused, and replayed at the end
        fog_game = post_json(page, f"{base}/api/games", {"game": "fog", "players": [{}, {}, {}], "seed": 2,
                                                         "confirm": True}).json()["game"]
        # Setup: the game's own questions
        page.goto(f"{base}/setup")
        page.wait_for_selector('[data-cell="A1"]')  # the running FOG game's board
        page.locator("#new-game-fold > summary").click()
        page.select_option("#game", "partner-race")
        page.wait_for_selector('[data-cell="T0"]')  # the chosen game's board under its form, not the running one's
        assert page.locator('[data-cell="A1"]').count() == 0
        assert page.locator("#count-row").is_hidden()  # four players, nothing to choose
        assert page.locator(".player-row").count() == 4
        assert [page.locator(".player-row select.colour").nth(i).input_value() for i in range(4)] == \
            ["yellow", "green", "blue", "red"]
        assert "Partners sit across" in page.locator("#seats-help").inner_text()
        assert page.locator("#switches").is_hidden()
        for i, name in enumerate(("Ada", "Bo", "Cy", "Di")):
            page.locator(".player-row input.name").nth(i).fill(name)
        shot(page, "race-01-setup")
        page.click("#create")
        page.click("#confirm-yes")  # pause the FOG game and start the race, asked on the page
        state = wait_until(page, base, lambda s: s.get("game_name") == "partner-race")
        assert [p["name"] for p in state["players"]] == ["Ada", "Bo", "Cy", "Di"]
        page.click("#sim-setup")
        state = wait_until(page, base, lambda s: not s["verifying"])
        assert page.locator(".brand").inner_text() == "Partner card race"
        no_fog(page, "the Setup page")
        phone_sized(page, "the Setup page")  # the race drawn as on the Board page, turned to who plays first
        turned_to(page, f'g.piece[data-piece^="{state["active"]}-"]')

        # The Board page: the track, whose turn, the last card; a pawn brought out by tapping
        page.goto(f"{base}/")
        page.wait_for_selector('g.piece[data-piece="yellow-1"]')
        assert page.locator("#end-turn").is_hidden() and page.locator("#counter-mp_left").count() == 0
        assert page.locator("#end-turn-why").inner_text() == "A turn ends when a card is laid."  # as it declares
        assert page.locator("#counter-cards_left").is_visible() and page.locator("#counter-deal").is_visible()  # its own counters
        assert page.locator('#stepper [data-step="draft"]').count() == 0
        first = state["active"]  # the player on the dealer's left
        who = {"yellow": "Ada", "green": "Bo", "blue": "Cy", "red": "Di"}
        assert f"{who[first]} ({first})" in page.locator("#active-name").inner_text()
        shot(page, "race-02-board")
        no_fog(page, "the Board page")
        assert page.locator("#legend-card").is_hidden()  # its pawns and cards show nothing to explain
        # a phone's thumb: every pawn and every space at least 24 px, the board larger than the screen
        # in a frame that scrolls, turned to the pawns of the player to move; the page never sideways
        assert smallest(page, "#board g.piece") >= 24 and smallest(page, "#board .cell") >= 24
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not in_view(page, f'g.piece[data-piece^="{first}-"]')
        page.locator(f'g.piece[data-piece="{first}-1"]').first.tap()
        page.wait_for_selector(f'.target[data-target="start-{first}"]', timeout=10000)
        assert smallest(page, "#board .target") >= 24
        assert not in_view(page, "#board .target, #mode-hint")  # the dot and "tap a dot" on the screen
        assert "tap a dot" in page.locator("#mode-hint").inner_text()
        dot = page.locator(f'.target[data-target="start-{first}"]').first
        assert dot.get_attribute("aria-label") == \
            f"move {who[first]}'s {first} pawn 1 to the {first} starting space"  # read out by name, never by id
        dot.click()
        page.wait_for_selector("#pick[open]")
        assert page.locator("#pick-title").inner_text() == \
            f"{who[first]}'s {first} pawn 1 to the {first} starting space: which was it?"  # the game's words
        choices = page.locator("#pick-choices button")
        assert choices.count() == 3 and choices.nth(1).inner_text() == \
            f"Play the 8: {who[first]}'s {first} pawn 1 out to the {first} starting space"  # a sentence, by name
        shot(page, "race-03-which-card")
        choices.nth(1).click()
        state = wait_until(page, base, lambda s: s["history"][-1:] == [f"play {first} 8s {first}-1:start"])
        page.wait_for_selector("#log li")
        assert page.locator("#log li").first.inner_text() == \
            f"{who[first]} plays an 8: {first} pawn 1 comes out onto its starting space"  # in words, not notation
        # the pawn is not on its starting space on the table yet: the companion says calmly what the
        # hands have to do, never "in sync", and never red for a play a player just entered
        state = wait_until(page, base, lambda s: s["step"] is not None)
        assert state["out_of_sync"] is None
        page.wait_for_selector("#step-banner")
        assert page.locator("#sync-banner").count() == 0
        said = page.locator("#step-banner").inner_text()  # the pawn and the card by name, never by id
        assert f"put {who[first]}'s {first} pawn 1 on the {first} starting space" in said, said
        assert "put the 8 card on the card spot" in said and f"{first}-1" not in said, said
        shot(page, "race-04-put-it-there")
        page.request.post(f"{base}/api/table/setup", data={})  # hands put the pawn and the card there
        wait_until(page, base, lambda s: s["step"] is None and s["out_of_sync"] is None)
        page.wait_for_selector("#step-banner", state="detached")
        # the card laid on the spot: drawn at its size, its value large and dark on the light card
        card = page.locator('g.piece[data-piece="card-8s"]')
        assert card.count() == 1 and smallest(page, 'g.piece[data-piece="card-8s"]') >= 24
        value = card.locator("text")
        assert value.text_content() == "8"  # the card as printed, not the notation's 8s
        assert smallest(page, 'g.piece[data-piece="card-8s"] text') >= 16  # px: read at arm's length
        assert contrast(value.evaluate("(t) => getComputedStyle(t).fill"),
                        card.locator("rect").evaluate("(r) => getComputedStyle(r).fill")) >= 4.5
        card.scroll_into_view_if_needed()
        shot(page, "race-04-card-laid")
        if AXE.exists():  # the pawns, the spaces and the card are read out as what they show
            page.add_script_tag(path=str(AXE))
            serious = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
                .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => [v.id, v.nodes.length])""")
            assert not serious, serious

        # The next player cannot play: the fold button, named for the player, asks first on the page
        second = api_state(page, base)["active"]
        page.get_by_role("button", name=f"{who[second]} folds").click()
        page.wait_for_selector("#confirm-box")
        assert page.locator("#confirm-text").inner_text().startswith(f"Can {who[second]} ({second}) play none")
        page.click("#confirm-yes")
        state = wait_until(page, base, lambda s: s["history"][-1:] == [f"fold {second}"])
        assert state["cards_left"][second] == 0
        page.wait_for_selector(f"#log li:has-text('{who[second]} folds')")

        # The Score page during the game: the teams' standing by name, not one line
        page.goto(f"{base}/score")
        page.wait_for_selector("#standing li")
        standing = page.locator("#standing").inner_text()
        assert f"{who['yellow']} (yellow) and {who['blue']} (blue): 0 of 8 pawns locked" in standing, standing
        assert page.locator("#details-title").is_hidden()
        no_fog(page, "the Score page during the game")

        # On the simulated table's page, as hands would: a card laid from the ones not on the table,
        # then a pawn dragged out to its starting space
        third = api_state(page, base)["active"]
        page.goto(f"{base}/table")
        page.wait_for_selector('#off-table button[data-piece="card-13s"]')
        assert page.locator("#turn-over").is_hidden()  # no piece of this game is ever turned over
        phone_sized(page, "the Table page")
        turned_to(page, f'g.piece[data-piece^="{third}-"]')  # the pawns the next card will move
        page.locator('#off-table button[data-piece="card-13s"]').click()
        assert not in_view(page, "#table-status")  # the list is under the board: the board and the hint come back
        assert "tap the place" in page.locator("#table-status").inner_text()
        page.locator('[data-cell="card-spot"]').first.click(force=True)
        state = wait_until(page, base, lambda s: s["step"] is not None and "now {} moves the pawn".format(who[third])
                           in s["step"]["says"])  # the card laid: a step, whose pawn moves now, calm
        assert state["out_of_sync"] is None
        page.goto(f"{base}/")
        page.wait_for_selector("#step-banner")
        assert page.locator("#sync-banner").count() == 0
        shot(page, "race-05-step")
        page.goto(f"{base}/table")
        page.wait_for_selector(f'g.piece[data-piece="{third}-1"]')
        drag(page, f"{third}-1", f"start-{third}")
        state = wait_until(page, base, lambda s: s["history"][-1:] == [f"play {third} 13s {third}-1:start"]
                           and s["out_of_sync"] is None)
        shot(page, "race-05-table")
        no_fog(page, "the Table page")

        # Played to the end: each play said on the panel, then made on the table
        local = GAME.new_game(4, seed=0)
        for action in state["history"]:
            local = GAME.apply(local, action)
        while not rules.winners(local):
            action = keen_play(local) if local.active in ("yellow", "blue") else Fold(local.active)
            res = page.request.post(f"{base}/api/act", data={"action": str(action)})
            assert res.ok, res.text()
            local = rules.apply(local, action)
            page.request.post(f"{base}/api/table/setup", data={})
            wait_until(page, base, lambda s, n=len(local.history): len(s["history"]) == n and s["out_of_sync"] is None
                       and s["step"] is None)  # the calm step 'now on the table' done by the hands
        page.goto(f"{base}/score")
        page.wait_for_selector("#winner:has-text('Winner')")
        winner = page.locator("#winner").inner_text()
        assert "Ada (yellow)" in winner and "Cy (blue)" in winner, winner
        assert "8 pawns locked" in page.locator("#score-lines").inner_text()
        shot(page, "race-06-score")
        no_fog(page, "the Score page")

        # The Games page and the replay
        page.goto(f"{base}/games")
        page.wait_for_selector("a.game-title:has-text('Partner card race')")
        game_id = api_state(page, base)["game"]
        page.goto(f"{base}/games/{game_id}")
        page.wait_for_selector("#moves button")
        assert page.locator("#moves button").nth(0).inner_text() == \
            f"{who[first]} plays an 8: {first} pawn 1 comes out onto its starting space"  # the moves in words
        page.locator("#moves button").nth(0).click()
        page.wait_for_selector(f"#replay-event:has-text('{who[first]} plays an 8: {first} pawn 1 comes out')")
        assert page.locator(f'g.piece[data-piece="{first}-1"]').count() == 1
        phone_sized(page, "the Replay page")
        turned_to(page, f'g.piece[data-piece="{first}-1"]')  # the frame shows the move replayed
        shot(page, "race-07-replay")
        no_fog(page, "the Replay page")

        # A replay of the paused FOG game while the race is the game at the panel: that game's title,
        # nothing of the race's (no stepper, no banner)
        page.goto(f"{base}/games/{fog_game}")
        page.wait_for_selector("#replay-event:has-text('The setup')")
        assert page.locator(".brand").inner_text() == "The FOG"
        assert page.locator("#stepper").count() == 0 and page.locator("#banner").is_hidden()
        text = visible_text(page)
        assert "Partner card race" not in text and "pawn" not in text, text
    finally:
        context.close()
