"""The smaller points a newcomer met on a 390 px phone, on one panel as installed (camera unplugged):
a panel left open on purpose offers its PIN at the foot of the Setup page; a seat phone tapping Undo
on a guarded panel is asked for the PIN right there, beside the button, in view and focused, and told
who else can undo (a phone may show no ``window.prompt``, and a notice at the top of the page is out
of view); lines about players called by their colour start as sentences on the Replay and Score pages,
and a Replay move tapped far down brings its board back into view; The FOG's Board page during the
draft links to the Setup page, where the header then says the game chosen next; an island character
whose shot lands on an empty square is said to aim there, not to hit it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.games import get_game
from companion.games.answers import new_game

from tests.test_browser import browser, running_panel, shot  # noqa: F401
from tests.test_browser_partner_race import PHONE, wait_until
from tests.test_browser_seats import NAMES, SEED, to_the_first_fight

PIN = "2468"


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("undo-pin")
    with running_panel(data, f"[camera]\nsource = \"{data / 'unplugged.mp4'}\"\n") as url:
        yield url


def test_a_panel_left_open_on_purpose_offers_its_pin_at_the_foot_of_the_setup_page(browser: Any,  # noqa: F811
                                                                                    panel_url: str) -> None:
    """"Leave it open" chosen on the first run: the Setup page no longer opens on "Protect this panel";
    the offer waits at the foot of the page, saying the panel is open to everyone on the Wi-Fi."""
    base = panel_url
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{base}/setup")
        page.wait_for_selector("#game option", state="attached")  # the page's script has its choices
        with page.expect_navigation():  # the page reloads, answered
            page.locator("#pin-open").click()  # the first run's question: leave it open
        page.wait_for_selector("#pin-card h2:has-text('open to everyone')")
        assert page.evaluate("(() => { const c = document.getElementById('pin-card'); "
                             "return c.parentNode.lastElementChild === c; })()")
    finally:
        context.close()


def test_a_seat_phone_is_asked_the_pin_beside_its_undo(browser: Any, panel_url: str) -> None:  # noqa: F811
    base = panel_url
    host = browser.new_context(viewport=PHONE)
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        tablet = host.new_page()
        res = tablet.request.post(f"{base}/api/games", data={"game": "desert-survivors", "seed": SEED,
                                                             "players": [{"name": n} for n in NAMES]})
        assert res.ok, res.text()
        assert tablet.request.post(f"{base}/api/pin", data={"pin": PIN}).ok  # the host guards the panel
        first = to_the_first_fight()[0][0]
        assert tablet.request.post(f"{base}/api/act", data={"action": first}).ok, first
        moves = len(tablet.request.get(f"{base}/api/state").json()["history"])

        ada = phone.new_page()
        code = next(s["code"] for s in tablet.request.get(f"{base}/api/seats").json()["seats"] if s["seat"] == "natural")
        assert ada.request.post(f"{base}/api/seats/join", data={"code": code}).ok
        ada.goto(f"{base}/")
        ada.wait_for_selector("#undo")
        ada.locator("#undo").click()
        ask = ada.locator("#pin-ask")
        ask.wait_for()
        said = ask.inner_text()
        assert "Undo needs the panel PIN." in said and "Whoever set up the panel knows the PIN" in said, said
        assert ada.evaluate("document.activeElement.id") == "pin-ask-pin"  # a thumb types at once
        assert ada.evaluate("document.getElementById('pin-ask').previousElementSibling.id") == "undo"
        box = ask.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box  # in view
        shot(ada, "undo-pin-asked-on-a-seat-phone")

        ada.locator("#pin-ask-pin").fill("1111")
        ada.locator("#pin-ask-ok").click()
        ada.wait_for_selector('#pin-ask-text:has-text("not right")')
        assert ada.evaluate("document.activeElement.id") == "pin-ask-pin"  # asked again, where it was
        assert ada.evaluate("document.getElementById('pin-ask').previousElementSibling.id") == "undo"
        ada.locator("#pin-ask-pin").fill(PIN)
        ada.locator("#pin-ask-ok").click()
        ask.wait_for(state="detached")
        wait_until(tablet, base, lambda state: len(state["history"]) == moves - 1)  # undone
    finally:
        host.close()
        phone.close()


def test_lines_of_players_called_by_their_colour_start_as_sentences(browser: Any, panel_url: str) -> None:  # noqa: F811
    """Players left unnamed are called by their colour ("blue"): the Replay page's moves and the Score
    page's standing start with a capital, as the Board page's do ("Blue pawn 1 moves from G7 to G6"); so do
    the Board page's LED rows, its buttons for a play with no piece ("Yellow folds"), the counts beside the
    board ("Red 3, blue 3") and the Games page's players."""
    base, pin = panel_url, {"X-Fog-Pin": PIN}
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        res = page.request.post(f"{base}/api/games", data={"game": "tile-race", "seed": 1, "players": [{}, {}],
                                                           "confirm": True}, headers=pin)
        assert res.ok, res.text()
        game = page.request.get(f"{base}/api/state").json()["game"]
        race = get_game("tile-race")
        local = new_game(race, 2, seed=1)  # the same game, worked out here: a pawn's step, then the rules' first play
        for k in range(16):
            move = next(str(a) for a in race.legal_actions(local) if str(a).startswith("move")) if k == 0 else \
                str(race.legal_actions(local)[0])
            assert page.request.post(f"{base}/api/act", data={"action": move}, headers=pin).ok, move
            local = race.apply(local, move)
        page.goto(f"{base}/games/{game}")
        page.wait_for_selector("#moves .move-line")
        lines = page.locator("#moves .move-line").all_inner_texts()
        assert lines and all(line[:1].isupper() for line in lines), lines
        last = page.locator("#moves .move-line").last  # far down the list, the board scrolled away ...
        last.scroll_into_view_if_needed()
        assert page.evaluate("document.getElementById('board').getBoundingClientRect().top") < 0  # its top gone
        last.click()  # ... and tapped: the board, drawn at that move, comes back into view
        page.wait_for_function("() => { const r = document.getElementById('board').getBoundingClientRect(); "
                               "return r.top > -1 && r.top < innerHeight / 2; }")
        page.goto(f"{base}/score")
        page.wait_for_selector("#standing li")
        standing = page.locator("#standing li").all_inner_texts()
        assert standing and all(line[:1].isupper() for line in standing), standing
        page.goto(f"{base}/")
        page.wait_for_selector('#leds .led-name')
        page.wait_for_selector('[data-supply="supply-mountains"]', state="attached")
        lines = page.locator("#leds .led-name").all_inner_texts() + \
            page.locator("[data-supply]").all_text_contents()  # "mountains not placed": "Red 3, blue 2"
        assert lines and all(line[:1].isupper() or line[:1].isdigit() for line in lines), lines
        page.goto(f"{base}/games")
        page.wait_for_selector("#games .players")
        players = page.locator("#games .players").all_inner_texts()
        assert players and all(line[:1].isupper() for line in players), players
        # the partner race's buttons for a play with no piece: "Yellow folds"
        res = page.request.post(f"{base}/api/games", data={"game": "partner-race", "seed": 3, "players": [{}] * 4,
                                                           "confirm": True}, headers=pin)
        assert res.ok, res.text()
        page.goto(f"{base}/")
        page.wait_for_selector("#turn-actions button")
        buttons = page.locator("#turn-actions button").all_inner_texts()
        assert all(line[:1].isupper() for line in buttons), buttons
    finally:
        context.close()


def test_the_board_page_during_the_fog_s_draft_links_to_where_it_is_made(browser: Any, panel_url: str) -> None:  # noqa: F811
    """The FOG's Board page during the draft says the draft comes first and links to the Setup page,
    where its picks are made."""
    base = panel_url
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        res = page.request.post(f"{base}/api/games", data={"game": "fog", "seed": 5, "players": [{}, {}, {}],
                                                           "confirm": True}, headers={"X-Fog-Pin": PIN})
        assert res.ok, res.text()
        page.goto(f"{base}/")
        link = page.locator("#end-turn-why a#to-setup")
        link.wait_for()
        assert "The draft comes first" in page.locator("#end-turn-why").inner_text()
        link.click()
        page.wait_for_url(f"{base}/setup")
        page.wait_for_selector("#phase-choices button.pick")  # the picks, the players unnamed: sentences all the same
        picks = page.locator("#phase-choices button.pick").all_inner_texts() + [page.locator("#phase-who").inner_text()]
        assert all(line[:1].isupper() for line in picks), picks  # "Blue elder · jumps", "Black (black)"
        # another game chosen to start next: the header says that game's setup, not the running FOG's
        page.wait_for_selector("#game option", state="attached")
        if not page.evaluate("document.getElementById('new-game-fold').open"):
            page.click("#new-game-fold > summary")
        page.select_option("#game", "tile-race")
        page.wait_for_selector(".brand:has-text('New game: Tile race')")
        page.wait_for_selector('li[aria-current="step"][data-step="setup"]')  # the phase strip: at its setup,
        assert page.locator("li[data-phase]").count() == 0  # with no step of the FOG's own ("Draft")
    finally:
        context.close()


def test_a_character_aiming_at_an_empty_square_is_said_to_aim_there_not_to_hit(browser: Any,  # noqa: F811
                                                                               panel_url: str) -> None:
    """Battle for the Island, the armies down: a red soldier tapped on the Board page whose shot lands
    on an empty square "aims at" it, "nothing there now"; "can hit" is said only where a piece stands."""
    base, pin = panel_url, {"X-Fog-Pin": PIN}
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        res = page.request.post(f"{base}/api/games", data={"game": "island-battle", "seed": 3, "players": [{}, {}],
                                                           "confirm": True}, headers=pin)
        assert res.ok, res.text()
        island = get_game("island-battle")
        local = new_game(island, 2, seed=3)
        while island.view(local)["phase"] != "playing":  # blocks and armies laid as the rules first offer them
            play = next(str(a) for a in island.legal_actions(local))
            assert page.request.post(f"{base}/api/act", data={"action": play}, headers=pin).ok, play
            local = island.apply(local, play)
        state = page.request.get(f"{base}/api/state").json()
        taken = {c for c, ps in state["placement"].items() if ps}
        aims = [p for p, r in state["reach"].items() if r["shots"] and not set(r["shots"]) & taken and p.startswith("red")]
        assert aims, state["reach"]
        page.goto(f"{base}/")
        page.locator(f'g.piece[data-piece="{aims[0]}"]').tap()
        page.wait_for_selector('#mode-hint:has-text("aims at")')
        said = page.locator("#mode-hint").inner_text()
        assert "(nothing there now)" in said and "can hit" not in said, said
    finally:
        context.close()
