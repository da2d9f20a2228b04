"""The Setup page on a phone reads the mapboards from the table into the Mapboards answer.

``fog-companion run`` with desert survivors as its game, on the simulated table, before any game:
the table shows the six mapboards as the beginner lays them, each with its own corner markers. On a
390 px phone the Setup page asks the game's own questions (the mapboards, the memory aid); "Read
from the table" fills the mapboards from the camera and says what the rules refuse of it for the
players chosen; the game created is played on the desert read.
"""

from __future__ import annotations

from typing import Any

from companion.games import canonical, get_game
from companion.games.assembly import Laid
from companion.games.desert_survivors.board import default_arrangement, parse_arrangement
from tests.tables import wait_for
from tests.test_browser import browser, running_panel, shot  # noqa: F401

GAME = get_game("desert-survivors")
MAPBOARDS = GAME.assembly()
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def as_read(arrangement) -> tuple[Laid, ...]:
    return canonical(MAPBOARDS, [Laid(str(p.board), p.x, p.y, p.turn) for p in arrangement])


def test_read_from_the_table_fills_the_mapboards_and_the_game_is_laid_so(tmp_path, browser: Any) -> None:
    config = "[camera]\nsource = \"sim\"\n[game]\nname = \"desert-survivors\"\n"
    with running_panel(tmp_path, config) as base:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        try:
            assert wait_for(lambda: page.request.get(f"{base}/api/camera").json()["frames"] > 0, 60)  # it looks
            page.goto(f"{base}/setup")
            page.wait_for_selector("#answer-arrangement-read")
            assert page.locator("#answer-memory_aid option").all_inner_texts() == ["no", "yes"]
            said = page.locator("#answer-arrangement-read-status")
            # three players need three mapboards: the six on the table are read, and the rules' refusal said
            page.select_option("#count", "3")
            page.click("#answer-arrangement-read")
            page.wait_for_function("() => document.querySelector('#answer-arrangement-read-status').className"
                                   " === 'status error'")
            assert "mapboards: 6 laid, but this game needs 3" in said.inner_text(), said.inner_text()
            # six players: the beginner's desert, as the camera reads it, fills the answer
            page.select_option("#count", "6")
            page.click("#answer-arrangement-read")
            page.wait_for_function("() => document.querySelector('#answer-arrangement-read-status').className"
                                   " === 'status good'")
            read = page.input_value("#answer-arrangement")
            assert as_read(parse_arrangement(read)) == as_read(default_arrangement(6)), read
            assert said.inner_text() == "Read from the table: " + read
            shot(page, "desert-setup-read-from-the-table")
            page.click("#create")
            assert wait_for(lambda: page.request.get(f"{base}/api/state").json().get("game_name") == "desert-survivors",
                            30), page.locator("#setup-error").inner_text()
            board = page.request.get(f"{base}/api/board").json()
            laid = GAME.layout(GAME.new_game(6, 0, arrangement=read))
            assert {c["id"] for c in board["cells"]} == set(laid.cells)
        finally:
            context.close()
