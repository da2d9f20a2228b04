"""A whole Battle for the Island on a 390 x 844 phone, from the new game to the ruler of the island,
through the Board page alone, the companion running as its unit runs it on the simulated table.

Ada (red) and Bo (blue) play every move by tapping the Board page: the ten blocks from their box onto
the island, one player at a time; the characters onto their home rows (the facing said in the "which
was it?" box) and onto their pads; then turn after turn the companion rolls, and they tap a character
and the square its roll ends on, the shots and a 0's choices on the buttons under the board, a
reinforcement stepped off the pad, the pad slid along its rail, End turn. After each play that
changes the table the hands make it there from the Table page ("Place the pieces as the game
expects"; a roll or End turn leaves them nothing to do), and the pages are read: the banner never
once turns red while they play legally, and nothing on any page names a piece or a place by its id
(``box-blocks-1``, ``red-s3``, ``pad-red-2``). A keen pair of players: each shoots whatever is in its
sights (a block too, where more of the other's characters stand around it), moves where it can shoot
next or closes in, brings every reinforcement in: a game is over in some 150 plays (100 to 220 as the
companion's dice fall), three minutes or so on an idle machine.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from companion.games.island_battle.grid import ahead, around, reach
from tests.test_browser import ARTIFACTS, browser, running_panel, shot  # noqa: F401
from tests.test_browser_board_page_games import Phone, after_the_game, targets
from tests.test_browser_partner_race import wait_until

SEED = 40  # with the companion's own secret draw (its dice, the live blocks) the keen players end in 150 plays or so
SQUARE = re.compile(r"[A-L][0-9]{1,2}")
FIRST_PAD = {"red": "C", "blue": "J"}  # the column each pad's centre starts against


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_panel(tmp_path_factory.mktemp("board-page-island"), "[camera]\nsource = \"sim\"\n") as url:
        yield url


def _on_the_island(view: Mapping[str, Any]) -> dict[str, str]:
    return {p: c for c, ps in view["placement"].items() if SQUARE.fullmatch(c) for p in ps}


def _in_sights(view: Mapping[str, Any], where: Mapping[str, str], piece: str, square: str, way: str) -> str | None:
    """The other player's character ``piece`` would hit from ``square`` facing ``way``: exactly at its
    range straight ahead, no block between (characters between do not shield)."""
    at = {c: p for p, c in where.items() if p != piece}
    for k in range(1, reach(piece) + 1):
        ahead_of = ahead(square, way, k)
        if ahead_of is None or (k < reach(piece) and at.get(ahead_of, "").startswith("block-")):
            return None
    hit = at.get(str(ahead_of), "")
    return hit if view["owners"].get(hit) not in (None, view["owners"][piece]) else None


def _blast_worth(view: Mapping[str, Any], where: Mapping[str, str], block_square: str, me: str) -> bool:
    """A block worth setting off: more of the other player's characters around it than one's own."""
    near = [view["owners"].get(p) for p, c in where.items() if c in around(block_square)]
    return sum(o not in (None, me) for o in near) > sum(o == me for o in near)


def _nearest(view: Mapping[str, Any], where: Mapping[str, str], square: str, me: str) -> int:
    col, row = ord(square[0]), int(square[1:])
    return min((abs(ord(c[0]) - col) + abs(int(c[1:]) - row) for p, c in where.items()
                if view["owners"].get(p) not in (None, me)), default=0)


def keen_play(view: Mapping[str, Any], offered: Mapping[str, Any]) -> str:
    """What a keen player does with the plays offered (each in the game's notation): the blocks to the
    home rows' edges, the characters on the front row facing the enemy (tanks first), then every shot
    at a character in its sights, a move that brings one into its sights (else closer), after a 0 a
    quarter turn that aims or the pad slid off its first column once or a reinforcement, End turn last."""
    me, where = view["active"], _on_the_island(view)
    by: dict[str, list[str]] = {}
    for action in sorted(offered):
        by.setdefault(action.split()[0], []).append(action)
    if "block" in by:  # out of the middle: the rows nearest the players' edges first
        return min(by["block"], key=lambda a: min(int(a.split()[-1][1:]) - 1, 12 - int(a.split()[-1][1:])))
    if "deploy" in by:
        island = [a for a in by["deploy"] if len(a.split()) == 5]
        if not island:  # the pads filled in any order: the player to move first, as the page offers it
            return min(by["deploy"], key=lambda a: (a.split()[1] != me, a))
        front, forward = ("2", "N") if me == "red" else ("11", "S")
        best = [a for a in island if a.split()[3][1:] == front and a.split()[4] == forward] or island
        return min(best, key=lambda a: ("tjs".index(a.split()[2].split("-")[1][0]), a))
    standing = {c: p for p, c in where.items()}
    shots = [a for a in by.get("shoot", []) if view["owners"].get(standing.get(a.split()[2], ""), me) != me
             or standing.get(a.split()[2], "").startswith("block-") and _blast_worth(view, where, a.split()[2], me)]
    if shots:
        return shots[0]
    for kind in ("remove", "roll"):
        if kind in by:
            return by[kind][0]
    if "move" in by:
        def aim(action: str) -> tuple[int, int, str]:
            _, piece, _, to, way = action.split()
            after = {**where, piece: to}
            return (0 if _in_sights(view, after, piece, to, way) else 1, _nearest(view, after, to, me), action)
        return min(by["move"], key=aim)
    aiming = [a for a in by.get("turn", []) if _in_sights(view, where, a.split()[1], where[a.split()[1]], a.split()[2])]
    if "pad" in by and not aiming and view["pads"][me] == FIRST_PAD[me]:
        return by["pad"][0]
    for kind in ("enter",):
        if kind in by:
            return by[kind][0]
    if aiming:
        return aiming[0]
    for kind in ("turn", "slide", "pad", "end"):
        if kind in by:
            return by[kind][0]
    raise AssertionError(f"nothing to play: {sorted(offered)}")


def offered(phone: Phone, view: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Every play the Board page offers now, by its notation: how it is made there (a piece tapped, its
    dot, the choice's words; or a button's label). A player taps only what the turn can move: the
    blocks in their box, their characters in their box, on the island after a roll, on the pad after
    a 0, the pad when it slides; a turn that has moved has only buttons left."""
    me, stage = view["active"], view["stage"]
    where = {p: c for c, ps in view["placement"].items() for p in ps}
    lying = {"blocks": lambda p, c: p.startswith("block-") and c.startswith("box-"),
             "deploy": lambda p, c: view["owners"].get(p) == me and c.startswith("box-"),
             "move": lambda p, c: view["owners"].get(p) == me and SQUARE.fullmatch(c) is not None,
             "options": lambda p, c: view["owners"].get(p) == me and c.startswith(f"pad-{me}-"),
             "slide": lambda p, c: p == f"pad-{me}"}
    lying["enter"] = lying["options"]
    pieces = sorted(p for p, c in where.items() if stage in lying and lying[stage](p, c))
    plays: dict[str, tuple[str, ...]] = {}
    for piece in pieces:
        for target in targets(phone, piece):
            for choice in target["choices"]:
                plays[choice["action"]] = (piece, target["cell"], choice["summary"])
    plays.update({a["action"]: (a["label"],) for a in view["turn_actions"]})
    if view["end_turn"]:
        plays[f"end {me}"] = ("End turn",)
    return plays


def tapped_before_the_hands(phone: Phone) -> None:
    """The first block tapped, not on the table yet: the next one tapped still gets its dots (the hands
    may make both together), and a second tap puts it down again; nothing red meanwhile."""
    page = phone.board
    page.bring_to_front()
    block = page.locator('#board g.piece[data-piece="block-2"]')
    block.tap()
    page.locator("#board .target").first.wait_for()
    block.tap()  # put down again: no dots, the play still to make said as before
    page.wait_for_function("() => !document.querySelector('#board .target')")
    phone.read("a second block tapped before the hands made the first")


def test_a_whole_battle_for_the_island_played_on_the_board_page(browser: Any, panel_url: str):  # noqa: F811
    base = panel_url
    phone = Phone(browser, base)
    made: dict[str, int] = {}
    try:
        res = phone.board.request.post(f"{base}/api/games", data={
            "game": "island-battle", "seed": SEED, "players": [{"name": "Ada"}, {"name": "Bo"}], "confirm": True})
        assert res.ok, res.text()
        phone.table.goto(f"{base}/table")
        phone.board.goto(f"{base}/")
        phone.board.wait_for_selector('#board g.piece[data-piece="block-1"]')
        state = phone.hands("the island laid out: the blocks and the characters in their boxes")
        for n in range(400):
            if state["outcome"]:
                break
            plays = offered(phone, state)
            chosen = keen_play(state, plays)
            how, before, table = plays[chosen], len(state["history"]), (state["placement"], state["facing"])
            if len(how) == 1:
                phone.board.bring_to_front()
                phone.board.locator(f"#turn-actions button:text-is({how[0]!r}), #end-turn:text-is({how[0]!r})").tap()
            else:
                phone.tap_play(*how)
            state = wait_until(phone.board, base, lambda s: len(s["history"]) > before)
            phone.read(f"play {n}: {chosen} ({how})")
            made[chosen.split()[0]] = made.get(chosen.split()[0], 0) + 1
            if n in (0, 12, 40):
                shot(phone.board, f"island-whole-game-play-{n}")
            if n == 0:
                tapped_before_the_hands(phone)
            if (state["placement"], state["facing"]) == table:  # a roll, End turn: nothing for the hands to do
                state = phone.settled(f"after play {n}: {chosen}")
            else:
                state = phone.hands(f"after play {n}: {chosen}")
        assert state["outcome"], f"no ruler after {n} plays: {state['standing']}"
        # one rules the island: the other's ten characters are all gone (which, the companion's dice say:
        # its rolls and the live blocks are its own secret draw, new with every game)
        [winner] = state["outcome"]["winners"]
        loser = "blue" if winner == "red" else "red"
        assert state["characters"][loser] == 0 < state["characters"][winner], state["characters"]
        assert made["block"] == 10 and made["deploy"] == 20 and made["move"] and made["end"], made
        ARTIFACTS.mkdir(parents=True, exist_ok=True)  # how long this game was, beside its screenshots
        (ARTIFACTS / "island-whole-game-plays.txt").write_text(f"{sum(made.values())} plays: {made}\n")
        after_the_game(phone, state, "island-battle-whole")
    finally:
        phone.close()
