"""Seats on phones in headless Chromium, against the real companion process: three friends play
desert survivors, each with their own phone, and a tablet at the end of the table joined to no seat.

Each phone joins its seat by typing the code the tablet shows (the bystander mistypes it first and is
told so in words), or, Bo's, by opening the address in the QR code the tablet shows beside his code
(on its Board and Setup pages alike), as a phone's camera does. Each phone's Seats card then tells
its player what only they may know, their fight markers and the food on their own cards, and nothing
of anybody else's. Ada shares her 5 food out over her characters' cards in her phone's "My food"
box, + by + and one tap to put it down. The table is played to the first fight; the attacker attacks
from her phone, and each fighter closes a fist on their own phone by tapping words, not notation.
Until both fists are closed nobody else's page shows what the first one holds; then both open at
once and every page, the tablet's included, shows the result.
Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.games import get_game
from companion.games.desert_survivors.actions import Attack, Reveal
from companion.games.desert_survivors.pieces import colour_of
from tests.test_browser import browser, running_panel, shot  # noqa: F401
from tests.test_browser_partner_race import PHONE, visible_text, wait_until

NAMES = ("Ada", "Bo", "Cy")
SEED = 0


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The companion as installed, its camera unplugged: the table's changes are entered on the panel."""
    data = tmp_path_factory.mktemp("seats")
    with running_panel(data, f"[camera]\nsource = \"{data / 'unplugged.mp4'}\"\n") as url:
        yield url


def to_the_first_fight() -> tuple[list[str], Any]:
    """The actions that bring this seeded desert to its first fight, as the players would play them:
    food on the cards, discs placed, every disc turned up, then the first attack the rules allow.
    Worked out on a copy of the game the companion runs (same seed, same players)."""
    game = get_game("desert-survivors")
    state = game.new_game(players=3, seed=SEED, seats=[{"name": n} for n in NAMES])
    played = []
    while state.fight is None:
        legal = game.legal_actions(state)
        action = next((a for a in legal if isinstance(a, Attack)), None) or \
            next((a for a in legal if isinstance(a, Reveal)), None) or legal[0]
        played.append(str(action))
        state = game.apply(state, action)
    return played, state


def read_qr(png: bytes) -> str:
    """What a phone camera reads off a QR code on the screen: OpenCV's detector on the picture."""
    picture = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    text, corners, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    assert corners is not None and text, "the QR code on the screen was not read"
    return text


def seat_card(page: Any) -> str:
    return page.locator("#seat-card").inner_text()


def thumb_sized(page: Any, where: str) -> None:
    """Every button and the code's box on the Seats card at least 24 px, and the page never sideways."""
    sizes = page.evaluate("""() => [...document.querySelectorAll('#seat-card button, #seat-card input')]
        .filter((e) => e.offsetParent !== null).map((e) => { const r = e.getBoundingClientRect();
            return Math.min(r.width, r.height); })""")
    assert sizes and min(sizes) >= 24, (where, sizes)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where


def hands_at_the_simulated_table(tablet: Any, phone: Any, data: Path) -> None:
    """The Table page of a simulated desert, on the tablet joined to no seat: the box offers one button
    a look-alike kind ('An X-counter ×N'); a disc and an X-counter taken from it go down face down, as
    the rules lay them, the disc painted its group's colour; turned over, a piece is said in the
    layout's words; a disc and a counter are swapped by taps, each keeping the face it showed. A phone
    joined to a seat is refused the simulated table, which names every face-down piece by id."""
    with running_panel(data, '[camera]\nsource = "sim"\n') as base:
        res = tablet.request.post(f"{base}/api/games", data={"game": "desert-survivors", "seed": SEED,
                                                             "players": [{"name": n} for n in NAMES]})
        assert res.ok, res.text()
        layout = tablet.request.get(f"{base}/api/board").json()
        sand = [c["id"] for c in layout["cells"] if c["kind"] == "sand"]
        tablet.goto(f"{base}/table")
        tablet.wait_for_selector('#off-table button:has-text("X-counter")')
        offered = tablet.locator("#off-table button").all_inner_texts()
        assert len(offered) == len(set(offered)) == 4, offered  # three colours' discs and the X-counters
        assert any(re.fullmatch(r"An X-counter ×\d\d", t) for t in offered), offered
        # the box holds the pile's X-counters only: the treasures the rules set aside are never handed out
        pile = [p for p in tablet.request.get(f"{base}/api/table").json()["in_box"] if re.fullmatch(r"x\d+", p)]
        every = [p for p in layout["pieces"] if re.fullmatch(r"x\d+", p)]
        assert f"An X-counter ×{len(pile)}" in offered and len(every) - len(pile) == 9, (offered, len(every))

        def put(button: str, cell: str) -> str:
            tablet.locator(f'#off-table button:has-text("{button}")').click()
            tablet.locator(f'#board .cell[data-cell="{cell}"]').tap()
            tablet.wait_for_selector(f'#table-status:has-text("put on {cell}, its back up")')
            (entry,) = tablet.request.get(f"{base}/api/table").json()["table"][cell]
            piece, face = entry.split("^")
            assert face == "back" and piece not in tablet.locator("#table-status").inner_text(), entry
            return piece

        disc, counter = put("a natural disc", sand[0]), put("an X-counter", sand[1])
        assert counter in pile, counter  # drawn from the pile, at random among its counters
        fill = tablet.locator(f'#board g.piece[data-piece="{disc}"] circle:not(.halo)').get_attribute("fill")
        assert fill == layout["colours"]["natural"], fill  # tan, as the Board page draws it, never black
        tablet.locator("#turn-over").click()
        tablet.locator(f'#board g.piece[data-piece="{disc}"]').tap()
        tablet.wait_for_selector('#table-status:has-text("turned over: its front up")')
        assert disc not in tablet.locator("#table-status").inner_text()
        tablet.locator("#turn-over").click()

        # the disc and the counter swap places by taps: the first lifted off, the second moved, the first put down
        tablet.locator(f'#board g.piece[data-piece="{disc}"]').tap()
        tablet.locator(f'#board g.piece[data-piece="{counter}"]').tap()
        tablet.locator('#table-offer button:has-text("Swap them")').click()
        tablet.wait_for_selector('#table-status:has-text("swapped")')
        table = tablet.request.get(f"{base}/api/table").json()["table"]
        assert table == {sand[0]: [f"{counter}^back"], sand[1]: [f"{disc}^front"]}, table
        assert tablet.locator("#table-offer").is_hidden()
        shot(tablet, "seats-07-simulated-table")

        # Ada's phone joins her seat: the simulated table, which names face-down pieces by id, is not hers
        code = next(s["code"] for s in tablet.request.get(f"{base}/api/seats").json()["seats"] if s["seat"] == "natural")
        assert phone.request.post(f"{base}/api/seats/join", data={"code": code}).ok
        refused = phone.request.get(f"{base}/api/table")
        assert refused.status == 403 and "joined to a seat" in refused.json()["error"], refused.text()
        assert phone.request.post(f"{base}/api/table/move", data={"piece": counter, "cell": None}).status == 403
        phone.goto(f"{base}/table")
        phone.wait_for_selector('#table-status:has-text("joined to a seat")')
        assert counter not in phone.content() and phone.locator("#table-tools button:visible").count() == 0
        assert tablet.request.get(f"{base}/api/table").ok  # the tablet at the table still has it


def test_three_phones_keep_their_own_secrets_and_open_a_fight_together(browser: Any, panel_url: str,  # noqa: F811
                                                                         tmp_path_factory: pytest.TempPathFactory):
    base = panel_url
    contexts = {who: browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
                for who in ("natural", "green", "red", "table")}
    pages = {who: c.new_page() for who, c in contexts.items()}
    try:
        table = pages["table"]
        res = table.request.post(f"{base}/api/games", data={"game": "desert-survivors", "seed": SEED,
                                                            "players": [{"name": n} for n in NAMES]})
        assert res.ok, res.text()
        table.goto(f"{base}/")
        table.wait_for_selector("#seat-list li code")  # the tablet shows each seat's code by its player's name
        seats = table.request.get(f"{base}/api/seats").json()["seats"]
        codes = {s["seat"]: s["code"] for s in seats}
        listed = table.locator("#seat-list").inner_text()
        assert all(f"{n}: {codes[s]}" in listed for n, s in zip(NAMES, codes)), listed
        assert "no seat" in table.locator("#seat-mine").inner_text()
        thumb_sized(table, "the tablet's Seats card")
        # beside each code its QR code, as the tablet draws it, reads as the address that joins that seat
        qrs = table.locator("#seat-list img.seat-qr")
        qrs.nth(2).scroll_into_view_if_needed()
        table.wait_for_function("() => [...document.querySelectorAll('#seat-list img.seat-qr')]"
                                ".every((i) => i.complete && i.naturalWidth > 0)")
        read = [read_qr(qrs.nth(k).screenshot()) for k in range(3)]
        assert read == [s["join_url"] for s in seats] and all(u.endswith("/#join=" + s["code"])
                                                              for u, s in zip(read, seats)), read
        shot(table, "seats-00-tablet-codes-and-qr")
        table.goto(f"{base}/setup")  # the Setup page, where the game was started, shows the same seats
        table.wait_for_function("() => document.querySelectorAll('#seat-list img.seat-qr').length === 3")
        assert table.locator("#seat-list").inner_text() == listed
        table.goto(f"{base}/")
        table.wait_for_selector("#seat-list li code")

        # each phone joins by typing its code as a thumb would: lower case; Cy mistypes hers first
        for (seat, code), name in zip(codes.items(), NAMES):
            page = pages[seat]
            if seat == "green":  # Bo points his camera at his QR code: the address it reads opens the page
                page.goto(read[1])
                page.wait_for_selector(f'#seat-mine:has-text("{name}\'s seat")')
                assert "#join" not in page.url and page.evaluate("localStorage.getItem('fog-seat-code')") == code
                continue
            page.goto(f"{base}/")
            page.wait_for_selector("#seat-code:visible")
            box = page.locator("#seat-code")
            assert box.get_attribute("autocapitalize") == "characters" and box.get_attribute("autocorrect") == "off"
            assert box.get_attribute("inputmode") == "text" and box.get_attribute("spellcheck") == "false"
            if seat == "red":
                box.fill("qqq qqq")
                page.locator("#seat-join button").click()
                page.wait_for_selector("#seat-error:visible")
                told = page.locator("#seat-error").inner_text()
                assert told.startswith("No seat of this game has the code QQQQQQ"), told
            box.fill(code.lower())
            page.locator("#seat-join button").click()
            page.wait_for_selector(f'#seat-mine:has-text("{name}\'s seat")')
            assert page.locator("#seat-join").is_hidden() and page.locator("#seat-error").is_hidden()

        # each phone tells its player their own markers and food, and nothing of another seat's
        for seat, name in zip(codes, NAMES):
            page = pages[seat]
            page.wait_for_selector('#seat-lines li:has-text("Your fight markers: 7")')
            card = seat_card(page)
            assert "Food on your cards: your 1:" in card, card
            listed = page.locator("#seat-list").inner_text()
            assert codes[seat] in listed and not any(c in listed for s, c in codes.items() if s != seat), listed
            mine = page.request.get(f"{base}/api/state").json()
            assert mine["seat"] == seat and mine["markers"] == 7
            thumb_sized(page, f"{name}'s Seats card")
        assert "Your fight markers" not in seat_card(table) and "markers" not in \
            table.request.get(f"{base}/api/state").json()

        # Ada shares her 5 food out on her own phone, as the game's first moves do: a + per food on a
        # card, then one tap puts them all down; Bo's box lists only his cards, the tablet shows none
        played, fight_state = to_the_first_fight()
        ada, plan = pages["natural"], [a for a in played if a.startswith("feed natural-")]
        ada.wait_for_selector("#seat-share:visible")
        assert table.locator("#seat-share").is_hidden() and len(plan) == 5
        bo_rows = pages["green"].locator("#seat-share li").evaluate_all("(ls) => ls.map((l) => l.dataset.action)")
        assert bo_rows and all(a.startswith("feed green-") for a in bo_rows), bo_rows
        done = ada.locator("#seat-share-done")
        assert done.is_disabled() and "5 food left to share out" in ada.locator("#seat-share").inner_text()
        for action in plan:
            ada.locator(f'#seat-share li[data-action="{action}"] button:text-is("+")').click()
        box = ada.locator("#seat-share").inner_text()
        assert "Every food is shared out" in box and f"Your 3: {plan.count('feed natural-3')} of 2 food" in box, box
        assert not done.is_disabled() and ada.locator("#seat-choices button").count() == 0  # no button per food
        thumb_sized(ada, "Ada's food box")
        shot(ada, "seats-01-ada-shares-her-food")
        done.click()
        ada.wait_for_selector("#seat-share", state="hidden")
        cards = ada.request.get(f"{base}/api/state").json()["cards"]
        assert {c: cards[c]["food"] for c in ("natural-1", "natural-3")} == {
            c: plan.count(f"feed {c}") for c in ("natural-1", "natural-3")}, cards

        # the table is played to the first fight; the first disc turned face up is turned on the tablet's
        # Board page by tapping it (by its back: "natural-disc@F2") and then the dot on its own space; the
        # attacker attacks from her own phone, in words
        copy, tapped = get_game("desert-survivors").new_game(players=3, seed=SEED, seats=[{"name": n} for n in NAMES]), 0
        laid = False
        for action in played[:-1]:
            if action.startswith("place natural-") and not laid:  # Ada lays her first disc from her own phone:
                _, disc, space = action.split()  # the empty space tapped, then which of her discs, in words
                before = len(ada.request.get(f"{base}/api/state").json()["history"])
                ada.locator(f'#board [data-cell="{space}"]').first.dispatch_event("click")
                said = f"Place natural {disc.split('-')[1]} face down on {space}"
                ada.wait_for_selector(f'#pick-choices button:text-is("{said}")')
                assert "natural-" not in ada.locator("#pick-choices").inner_text()  # her discs in words
                shot(ada, "seats-01b-ada-lays-a-disc-on-the-board-page")
                ada.locator(f'#pick-choices button:text-is("{said}")').click()
                wait_until(ada, base, lambda s: len(s["history"]) == before + 1)
                laid = True
            elif action.startswith("reveal ") and not tapped:
                space = action.split()[1]
                shown = f"{colour_of(copy.board[space])}-disc@{space}"
                before = len(table.request.get(f"{base}/api/state").json()["history"])
                table.locator(f'#board g.piece[data-piece="{shown}"]').click()
                table.wait_for_selector(f"#mode-hint:has-text(\"tap a dot\")")
                table.locator(f'#board .target[data-target="{space}"]').click()
                tapped = len(wait_until(table, base, lambda s: len(s["history"]) == before + 1)["history"])
                assert table.locator("#sync-banner").count() == 0  # a legal play tapped: never red
            elif action not in plan:
                res = table.request.post(f"{base}/api/act", data={"action": action})
                assert res.ok, (action, res.text())
            copy = get_game("desert-survivors").apply(copy, action)
        assert tapped and laid
        attack = played[-1]
        sides = [fight_state.seats[fight_state.seat_of(fight_state.board[w])]
                 for w in (fight_state.fight.attacker, fight_state.fight.defender)]
        attacker, defender = (pages[s] for s in sides)
        watcher = pages[next(s for s in codes if s not in sides)]
        button = attacker.locator(f'#seat-choices button[data-action="{attack}"]')
        button.wait_for()
        assert "attacks" in button.inner_text() and attack not in button.inner_text(), button.inner_text()
        thumb_sized(attacker, "the attacker's choices")
        button.click()

        # each side's phone offers its fist in words; the attacker closes hers on 2
        for page in (attacker, defender):
            page.wait_for_selector('#seat-choices button:has-text("Close your fist on 2 markers")')
            labels = page.locator("#seat-choices button").all_inner_texts()
            assert labels[0] == "Close your fist empty (no markers)" and not any("commit" in t for t in labels), labels
            thumb_sized(page, "a fighter's fist")
        assert watcher.locator("#seat-choices button").count() == 0
        attacker.locator('#seat-choices button:has-text("Close your fist on 2 markers")').click()
        attacker.wait_for_selector('#seat-lines li:has-text("Your fist: closed on 2 markers")')
        attacker.wait_for_selector("#seat-choices button", state="detached")  # one fist each (drawn after the lines)
        closed = f"{NAMES[list(codes).index(sides[0])]}'s fist: closed"
        for page in (defender, watcher, table):
            page.wait_for_selector(f'#seat-lines li:has-text("{closed}")')
            text, html = visible_text(page), page.content()
            assert "closed on 2" not in text and f"commit {sides[0]} 2" not in text + html, text
            told = page.request.get(f"{base}/api/state").json()
            assert told["fight"]["mine"] is None and f"commit {sides[0]} 2" not in str(told)
        shot(defender, "seats-02-defender-before-both-closed")
        shot(attacker, "seats-03-attacker-waiting")

        # the defender closes an empty fist: both open at once, and every page shows how it went
        defender.locator('#seat-choices button:has-text("Close your fist empty")').click()
        state = wait_until(table, base, lambda s: s["fight"] is None and s["last_fight"] is not None)
        assert state["last_fight"]["markers"] == [2, 0]
        for who, page in pages.items():
            page.wait_for_selector('#seat-lines li:has-text("Last fight")')
            line = page.locator('#seat-lines li:has-text("Last fight")').inner_text()
            assert "(2 markers)" in line and "(0 markers)" in line and line.endswith("won."), (who, line)
        shot(watcher, "seats-04-watcher-after-the-fight")
        shot(table, "seats-05-tablet-after-the-fight")

        # the Board page draws the desert as the table shows it: every piece, a face-down one by its back
        # (its colour, never its number), whose turn by name, and the moves in words, a fist's markers
        # said only on its owner's phone
        hidden = [p for w, p in fight_state.board.items() if p not in fight_state.face_up]
        for who, page in pages.items():
            told = page.request.get(f"{base}/api/state").json()
            drawn = page.locator("#board [data-piece]").evaluate_all("(ns) => ns.map((n) => n.dataset.piece)")
            assert sorted(drawn) == sorted(p for ps in told["placement"].values() for p in ps), who
            assert any(p.startswith("x-counter@") for p in drawn) and not set(drawn) & set(hidden), (who, drawn)
            face_up = fight_state.board[fight_state.fight.attacker]  # turned up: drawn with its number on it
            assert page.locator(f'#board [data-piece="{face_up}"] text').text_content() == face_up.split("-")[1]
            player = next(p for p in told["players"] if told["active"] in p["colours"])
            assert page.locator("#active-name").inner_text() == f"{player['name']} ({told['active']})"
            log = page.locator("#log li").all_inner_texts()
            assert log[0].startswith("Both fists opened: ") and " won " in log[0] and "show" not in log and not any(" natural-" in t for t in log), log
            mine = "You closed your fist on 2 markers" in log
            assert mine == (who == sides[0]), (who, log[:4])
            empty = "You closed your fist empty" in log  # never "on no markers"
            assert empty == (who == sides[1]), (who, log[:4])
        shot(table, "seats-06-tablet-board-in-words")

        hands_at_the_simulated_table(table, pages["natural"], tmp_path_factory.mktemp("seats-sim"))
    finally:
        for c in contexts.values():
            c.close()
