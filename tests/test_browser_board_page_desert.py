"""A whole game of desert survivors played through the Board page, on 390 x 844 phones in headless
Chromium, against the companion as its unit runs it on the simulated table (default hold times).

Ada, Bo and Cy each join their seat on their own phone: there they put their food on their characters'
cards, lay their discs face down (an empty space tapped, then which disc, in words) and close their
fists in a fight. Everything else is tapped on the Board page of the table's phone: a face-down disc
swapped with another or turned up, food taken, a character attacked or sacrificed, a turn ended. After
each play the hands make it at the simulated table from its Table page ("Place the pieces as the game
expects"), between the rounds too (every disc face down again, the new X-counters laid). No page may
ever turn red while they play, nor name a piece or a place by its id (the checks of
tests/test_browser_board_page_games.py).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.games.desert_survivors.actions import (Action, Attack, Commit, End, Feed, Give, Pass, Place,
                                                      Reveal, Sacrifice, Swap, Take)
from companion.games.desert_survivors.pieces import is_disc
from companion.games.desert_survivors.seat_words import share
from companion.games.desert_survivors.state import DesertState
from tests.test_browser import browser, running_panel, shot  # noqa: F401
from tests.test_browser_board_page_games import WATCH, after_the_game, targets
from tests.test_browser_board_page_games import Phone as TwoPages
from tests.test_browser_partner_race import PHONE, wait_until

GAME = get_game("desert-survivors")
# three players (fewer discs than two, who play two colours each); this seed's desert gives the players
# below food to take and a fight within four short rounds
DESERT = {"game": "desert-survivors", "seed": 1, "players": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}]}


# What a page drew last: the companion's state as its live connection brought it (kept in every page loaded).
KEEP = "addEventListener('DOMContentLoaded', () => Fog.on('state', (s) => { window.__drawn = s; }));"
# The parts of a state that move what a page shows above its buttons and its board (the banner's lines).
DRAWN = "(s) => s && [s.history.length, !!s.step, !!s.out_of_sync, (s.decision || []).length, !!s.outcome]"


class Phone(TwoPages):
    """The table's phone (the Board and Table pages) and the players' own phones, each tapped only once
    it has drawn the state the companion is in: a banner line still to come would move the page under
    the finger (the Table page's "Place the pieces" button, a piece being redrawn)."""

    def __init__(self, browser: Any, base: str) -> None:  # noqa: F811
        super().__init__(browser, base)
        self.context.add_init_script(KEEP)

    def join(self, browser: Any, seat: str, code: str) -> None:  # noqa: F811
        """A player's own phone, joined to their seat by its code (the address its QR code holds)."""
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        for script in (WATCH, KEEP):
            context.add_init_script(script)
        self.others.append(context)
        page = self.seats[seat] = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(f"{self.base}/#join={code}")
        page.wait_for_selector("#seat-join", state="hidden")

    def caught_up(self, page: Any) -> None:
        """A player's own phone is in step once it has drawn every action so far (its banner is its own)."""
        now = self.state()
        want = page.evaluate(f"({DRAWN})", now)[:1 if page in self.seats.values() else None]
        try:
            page.wait_for_function(f"(want) => JSON.stringify(({DRAWN})(window.__drawn)).startsWith("
                                   "JSON.stringify(want).slice(0, -1))", arg=want)
        except Exception as exc:  # noqa: BLE001 - said with what the page drew
            raise AssertionError((page.url, want, page.evaluate(f"({DRAWN})(window.__drawn)"),
                                  page.evaluate("JSON.stringify(window.__drawn).slice(0, 3000)"),
                                  str(self.state())[:3000])) from exc

    def hands(self, where: str) -> dict[str, Any]:
        self.caught_up(self.table)
        return super().hands(where)

    def tap_play(self, piece: str, cell: str, summary: str) -> None:
        """The piece tapped, then its dot (a tap brings each into view itself, the piece as drawn at the time)."""
        page = self.board
        page.bring_to_front()
        self.caught_up(page)
        page.locator(f'#board g.piece[data-piece="{piece}"]').tap()
        page.locator(f'#board .target[data-target="{cell}"]').tap()
        if page.locator("#pick[open]").count():  # two plays end on the dot: the page asks which
            page.locator("#pick-choices button", has_text=summary).tap()

    def button(self, label: str) -> None:
        self.caught_up(self.board)
        super().button(label)


def choose(state: DesertState, made: Counter[str]) -> Action:
    """Players who keep the game short: food on the cards and discs laid first; two face-down discs
    swapped (both turn up) where they can, an X-counter swapped up until food was taken once, else a
    disc turned up; when hungry, food taken, one fight in the game, else a character sacrificed. A
    fist closes on no marker."""
    legal = GAME.legal_actions(state)

    def of(kind: type, ok: Any = lambda a: True) -> list[Action]:
        return [a for a in legal if isinstance(a, kind) and ok(a)]

    def down(a: Swap) -> bool:
        return state.board[a.target] not in state.face_up
    return next(iter(of(Feed) or of(Place) or of(Commit, lambda a: a.markers == 0)
                     or of(Swap, lambda a: down(a) and is_disc(state.board[a.target]))
                     or of(Swap, lambda a: down(a) and not made["take"]) or of(Reveal) or of(End) or of(Take)
                     or (of(Attack) if not made["attack"] else []) or of(Sacrifice) or legal))


def after(state: DesertState, action: Action) -> DesertState:
    state = GAME.apply(state, action)
    while (forced := GAME.forced_action(state)) is not None:  # a fight's two fists opened, a round scored
        state = GAME.apply(state, forced)
    return state


def plays(state: DesertState) -> Iterator[tuple[DesertState, list[Action], DesertState]]:
    """The game these players play, a play at a time: (the game before it, the play, the game after).
    A play is one action, or a player's whole share of food, put down in one go."""
    made: Counter[str] = Counter()
    while GAME.outcome(state) is None:
        was, action = state, choose(state, made)
        made[str(action).split()[0]] += 1
        state, play = after(state, action), [action]
        while isinstance(action, Feed) and len(play) < (share(was, GAME.actor(was, action)) or {"must": 1})["must"]:
            play.append(choose(state, made))
            state = after(state, play[-1])
        yield was, play, state


def lay(phone: Phone, seat: str, cell: str, said: str) -> None:
    """A disc laid from the player's own hand on their own phone's Board page: the empty space, then the disc."""
    page = phone.seats[seat]
    page.bring_to_front()
    phone.caught_up(page)
    place = page.locator(f'#board .cell[data-cell="{cell}"]')
    place.scroll_into_view_if_needed()
    place.tap()
    choice = page.locator(f'#pick-choices button:text-is("{said}")')
    choice.wait_for()
    choice.tap()


def make(phone: Phone, state: DesertState, play: list[Action], s: dict[str, Any]) -> None:
    """A play tapped where its player makes it (``s``: what the Board page shows before it)."""
    action, seat = play[0], GAME.actor(state, play[0])
    if isinstance(action, Feed):  # on the player's own phone, in its "My food" box: a + per food, then one tap
        assert seat is not None
        page = phone.seats[seat]
        page.bring_to_front()
        phone.caught_up(page)
        for food in play:
            page.locator(f'#seat-share li[data-action="{food}"] button:text-is("+")').tap()
        page.locator("#seat-share-done").tap()  # the box may stay: a new round's cards to fill at once
    elif isinstance(action, Commit):  # a fist closed on the player's own phone
        assert seat is not None
        phone.caught_up(phone.seats[seat])
        phone.on_their_phone(seat, str(action))
    elif isinstance(action, Place):
        assert seat is not None
        lay(phone, seat, action.space, next(c.summary for c in GAME.laid_at(state, action.space)
                                             if c.actions == (str(action),)))
    elif isinstance(action, (End, Give, Pass)):
        phone.button(next(b["label"] for b in s["turn_actions"] if b["action"] == str(action)))
    else:  # a piece of the player to move, tapped on the Board page, then its dot
        words = str(action).split()
        (piece,) = s["placement"][words[1]]
        way = next(t for t in targets(phone, piece) if t["cell"] == words[-1])
        phone.tap_play(piece, words[-1], next(c["summary"] for c in way["choices"] if c["action"] == str(action)))


def test_a_whole_game_of_desert_survivors_played_on_the_board_page_and_the_players_phones(
        browser: Any, tmp_path: Path, figures: Any):  # noqa: F811
    with running_panel(tmp_path, "[camera]\nsource = \"sim\"\n") as base:
        phone = Phone(browser, base)
        try:
            res = phone.board.request.post(f"{base}/api/games", data={**DESERT, "confirm": True})
            assert res.ok, res.text()
            codes = {s["seat"]: s["code"] for s in phone.board.request.get(f"{base}/api/seats").json()["seats"]}
            for seat, code in codes.items():
                phone.join(browser, seat, code)
            phone.table.goto(f"{base}/table")
            phone.board.goto(f"{base}/")
            phone.board.wait_for_selector("#board .cell")
            phone.hands("the empty desert")
            s, made, taps, began = phone.state(), [], 0, time.monotonic()
            start = GAME.new_game(players=3, seed=DESERT["seed"], seats=DESERT["players"])  # the companion's game
            for taps, (was, play, state) in enumerate(plays(start), 1):
                make(phone, was, play, s)
                made += [str(a).split()[0] for a in play]
                s = wait_until(phone.board, base, lambda s: len(s["history"]) >= len(state.history))
                # the hands make it at the table at once (the pages, watched all along, are read once it is
                # settled); a play that changes nothing there (food, a fist) is read as it is
                s = phone.hands(f"after {play[0]}") if GAME.expected(state) != GAME.expected(was) else \
                    phone.settled(f"after {play[0]}")
            won = GAME.outcome(state)
            assert won is not None and s["outcome"]["winners"] == list(won.winners), s["outcome"]
            assert {"swap", "reveal", "take", "attack", "commit", "feed", "place"} <= set(made), made
            figures(f"desert survivors, 3 players, seed {DESERT['seed']}, on the Board page and three phones: "
                    f"{len(state.history)} actions in {taps} plays "
                    f"({', '.join(f'{n} {k}' for k, n in sorted(Counter(made).items()))}), "
                    f"{time.monotonic() - began:.0f} s from the empty desert to {' and '.join(won.winners)}'s win")
            shot(phone.board, "desert-survivors-whole-game-won")
            after_the_game(phone, s, "desert-survivors")
        finally:
            phone.close()
