"""A whole tile race, from the new game to the winner, played through the Board page alone on a
390 x 844 phone in headless Chromium, against the companion as its unit runs it on the simulated table
(default hold times).

Ada (red) and Bo (blue) play. Every play is tapped on the Board page: a pawn, then the dot of the square
it steps onto (a collect-and-drop is a step a tap, each said in words), then a tile, a wall or a
mountain laid from the supply beside the grid (the supply tapped, then its dot). The hands then make
each play at the simulated table through its own page ("Place the pieces as the game expects"). Once,
the hands are slower than the phone: Ada taps a whole collect-and-drop of two tiles on the Board page,
and the hands then carry it out one token at a time, tile by tile, the pawn last, as the README tells
them; the banner stays calm all along. Every banner, notice, hint and dialog either page shows is kept:
none may name a piece or a place by its id, and the banner never once turns red while the players play
legally.

Ada plays keenly: she lays each tile right in front of the pawn she is bringing across, so that her
next movement collects it and carries it on (once she lays two in a row first); each pawn keeps to the
grid's border, the first up the A column and along the top row, the second along the bottom row and up
the A column. Bo stands a wall, puts a mountain down and lays tiles in the middle of the grid, well out
of her way, and keeps his first pawn stepping to and fro on the G column, off the top row she needs.

The supply tapped stays in view: a tap on the tile supply beside the grid (off the phone's screen
unless the board is swiped there) keeps the supply and its dots where the player is looking, after the
tap and after the next news from the companion; only a new turn turns the board to the player to move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.test_browser import browser, running_panel, shot  # noqa: F401
from tests.test_browser_board_page_games import Phone, after_the_game, targets
from tests.test_browser_partner_race import PHONE, wait_until

TILES, MOUNTAINS = "supply-tiles", "supply-mountains"
# Ada's pawns' ways across, along the grid's border: pawn 1 from A1 up to A7 and on to its exit G7,
# pawn 2 from G1 along the bottom row to A1 and up to its exit A7.
ROUTES = {"red-1": [f"A{r}" for r in range(1, 8)] + [f"{c}7" for c in "BCDEFG"],
          "red-2": [f"{c}1" for c in "GFEDCBA"] + [f"A{r}" for r in range(2, 8)]}
# Bo's first pawn steps onto the grid at G7 and then to and fro between G6 and G5: from -> to.
TO_AND_FRO = {"start-G7-N": "G7", "G7": "G6", "G6": "G5", "G5": "G6"}
# Bo's actions in the middle of the grid, in turn (the first one the rules allow that turn): a wall, a
# mountain, then tiles.
BO_LAYS = [(TILES, "C4|D4"), (MOUNTAINS, "D5"), *((TILES, sq) for sq in ("E4", "E3", "C3", "E5", "C5", "D3", "E2"))]
# Where Ada lays her tiles while she is still bringing her first pawn on: two in a row ahead of it.
FIRST_TILES = ("A2", "A3")

Ways = Callable[[str], dict[str, str]]  # a piece (or a supply) -> its dots: place -> the play in words


def keen_players() -> Callable[[dict[str, Any], Ways], tuple[str, str, str]]:
    """Ada and Bo as described at the top: a state and the dots of what they tap -> (piece, place, words)."""
    bo_turns = [0]

    def ada(s: dict[str, Any], ways: Ways, where: dict[str, str]) -> tuple[str, str, str]:
        if not s["has_moved"]:
            # her first pawn waits on A1 for two tiles in a row, her second comes on meanwhile
            hold = where.get("red-1") == "A1" and "A3" not in s["placement"]
            for pawn in ("red-2", "red-1") if hold else ("red-1", "red-2"):
                dots = ways(pawn) if pawn in where else {}
                out = [(c, w) for c, w in dots.items() if "off the grid" in w]
                on = [(ROUTES[pawn].index(c) if c in ROUTES[pawn] else -1, c, w) for c, w in dots.items()]
                if out or on:
                    cell, said = out[0] if out else max(on)[1:]
                    return pawn, cell, said
            raise AssertionError(f"Ada cannot move: {s['standing']}")
        dots = ways(TILES)
        lead = next(p for p in ("red-1", "red-2") if p in where)
        route, here = ROUTES[lead], where[lead]
        ahead = route[route.index(here) + 1:] if here in route else route
        first = lead == "red-1" and here in ("start-A1-S", "A1")
        want = [sq for sq in (FIRST_TILES if first else ahead[:2]) if sq in dots]
        cell = want[0] if want else next(sq for sq in ("F3", "F4", "B4", "B5") if sq in dots)
        return TILES, cell, dots[cell]

    def bo(s: dict[str, Any], ways: Ways, where: dict[str, str]) -> tuple[str, str, str]:
        if not s["has_moved"]:
            dots = ways("blue-1")
            cell = TO_AND_FRO[where["blue-1"]]
            assert cell in dots, (cell, dots)
            return "blue-1", cell, dots[cell]
        bo_turns[0] += 1
        for supply, cell in BO_LAYS[bo_turns[0] - 1:]:
            dots = ways(supply)
            if cell in dots:
                return supply, cell, dots[cell]
        raise AssertionError(f"Bo has nothing to lay: {s['standing']}")

    def choose(s: dict[str, Any], ways: Ways) -> tuple[str, str, str]:
        where = {p: c for c, ps in s["placement"].items() for p in ps if p in s["owners"]}
        return (ada if s["active"] == "red" else bo)(s, ways, where)
    return choose


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_panel(tmp_path_factory.mktemp("board-page-tile-race"), "[camera]\nsource = \"sim\"\n") as url:
        yield url


def new_race(phone: Phone) -> None:
    """Ada and Bo's new race, its pawns laid beside the grid by the hands, both pages open."""
    res = phone.board.request.post(f"{phone.base}/api/games", data={
        "game": "tile-race", "seed": 1, "players": [{"name": "Ada"}, {"name": "Bo"}], "confirm": True})
    assert res.ok, res.text()
    phone.table.goto(f"{phone.base}/table")
    phone.board.goto(f"{phone.base}/")
    phone.board.wait_for_selector('#board g.piece[data-piece="red-1"]')
    phone.hands("the tile race set up")


def table_now(phone: Phone) -> dict[str, list[str]]:
    res = phone.table.request.get(f"{phone.base}/api/table")
    assert res.ok, res.text()
    return dict(res.json()["table"])


def one_at_a_time(phone: Phone, pawn: str, where: str) -> dict[str, Any]:
    """The hands carry out a movement tapped on the Board page one token at a time at the Table page: each
    tile from where it was collected to where it was dropped, then the pawn. Between tokens the camera
    reads a table half way through a legal play: the companion waits, calm, saying what is left."""
    page, game = phone.table, phone.state()["placement"]
    page.bring_to_front()
    def tiles(places: dict[str, list[str]]) -> list[str]:
        return sorted(c for c, ps in places.items() if any(p.startswith("T") for p in ps))
    table = table_now(phone)
    gone, come = [c for c in tiles(table) if c not in tiles(game)], [c for c in tiles(game) if c not in tiles(table)]
    assert len(gone) == len(come) == 2, (gone, come)  # the two tiles it carried, each moved by hand
    for n, (was, goes) in enumerate(zip(gone, come, strict=True)):
        said = phone.state()["step"]["says"]  # what the hands have left to do: the whole movement
        tile = next(p for p in table_now(phone)[was] if p.startswith("T"))
        page.locator(f'#board g.piece[data-piece="{tile}"]').tap()
        page.locator(f'#board .cell[data-cell="{goes}"]').tap()
        page.wait_for_selector(f"#table-status:has-text('put on {goes}')")
        # the camera reads the tile where it was put: the companion, calm, says what is left to do
        state = wait_until(page, phone.base, lambda s: s["out_of_sync"] is not None or s["step"] is not None
                           and s["step"]["says"] != said, timeout=60)
        assert not state["out_of_sync"], state["out_of_sync"]
        assert "now on the table" in state["step"]["says"], state["step"]
        phone.read(f"{where}: tile {n + 1} of 2 moved by hand")
    page.locator(f'#board g.piece[data-piece="{pawn}"]').tap()
    page.locator(f'#board .cell[data-cell="{next(c for c, ps in game.items() if pawn in ps)}"]').tap()
    page.evaluate("document.getElementById('table-status').textContent = ''")
    return phone.settled(f"{where}: the pawn moved by hand last")


def test_a_whole_tile_race_played_on_the_board_page(browser: Any, panel_url: str):  # noqa: F811
    phone = Phone(browser, panel_url)
    try:
        new_race(phone)
        choose = keen_players()
        state, plays, by_hand = phone.state(), 0, None
        while not state["outcome"]:
            assert plays < 60, f"no winner after {plays} plays: {state['standing']}"
            play = choose(state, lambda piece: {t["cell"]: t["choices"][0]["summary"] for t in targets(phone, piece)})
            before = len(state["history"])
            phone.tap_play(*play)
            state = wait_until(phone.board, phone.base, lambda s: len(s["history"]) > before)
            where = f"play {plays}: {play[2]}"
            phone.read(where)
            plays += 1
            # Ada's first pawn collects the two tiles she laid in front of it: she taps the whole movement,
            # the hands follow one token at a time
            by_hand = by_hand or (play[0] if play[2].endswith("steps onto A2") and state["stacks"] else None)
            if by_hand and not state["has_moved"]:
                continue
            if by_hand:
                state, by_hand = one_at_a_time(phone, by_hand, where), None
                continue
            state = phone.hands(f"after {where}")
        assert state["outcome"]["winners"] == ["red"], state["outcome"]  # Ada brought both pawns out first
        assert plays == 49, plays  # the keen race, as the rules play it out
        after_the_game(phone, state, "tile-race")
    finally:
        phone.close()


# Where a place on the board lies against the phone's screen: wholly inside it or not.
ON_SCREEN = """(cell) => {
    const r = document.querySelector(`#board .cell[data-cell="${cell}"]`).getBoundingClientRect();
    return r.left >= -1 && r.right <= innerWidth + 1 && r.top >= -1 && r.bottom <= innerHeight + 1; }"""


def test_the_supply_tapped_stays_in_view(browser: Any, panel_url: str):  # noqa: F811
    phone = Phone(browser, panel_url)
    page = phone.board
    try:
        new_race(phone)
        frame = page.locator("#board")
        assert page.evaluate("(b) => b.scrollWidth > b.clientWidth", frame.element_handle())  # wider than the phone
        assert not page.evaluate(ON_SCREEN, TILES)  # the board opens on Ada's pawns, the supply off to the side
        # Ada brings her first pawn onto the grid and, before the hands have made it, swipes the board to
        # the supply beside the grid and taps it
        phone.tap_play("red-1", "A1", "Ada's red pawn 1 steps onto A1")
        wait_until(page, phone.base, lambda s: len(s["history"]) == 1)
        page.evaluate("window.__states = 0; Fog.on('state', () => { window.__states += 1; })")
        supply = page.locator(f'#board .cell[data-cell="{TILES}"]')
        supply.scroll_into_view_if_needed()
        supply.tap(position={"x": 4, "y": 4})
        page.wait_for_selector("#mode-hint:has-text('The tile supply: tap a dot')")
        assert page.evaluate(ON_SCREEN, TILES), "the tapped supply went out of view"
        dots = page.locator("#board .target")
        assert any(page.evaluate(ON_SCREEN, dots.nth(i).get_attribute("data-target")) for i in range(dots.count())), \
            "none of its dots in view"
        # the hands make her step at the table, the camera reads it: news from the companion, the Board
        # page redrawn, and the supply still where she looks
        heard = page.evaluate("window.__states")
        phone.hands("Ada's pawn 1 on A1")
        page.bring_to_front()
        page.wait_for_function(f"() => window.__states > {heard}")
        assert page.evaluate(ON_SCREEN, TILES), "the supply went out of view after the state was redrawn"
        shot(page, "tile-race-supply-tapped")
    finally:
        phone.close()
