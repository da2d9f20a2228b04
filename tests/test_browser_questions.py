"""A question lives exactly as long as the companion asks it, on every page and every phone.

Two phones (two browser contexts, 390x844) and the simulated table's page on a laptop watch one
running ``fog-companion run``. A move made by hands on the table raises a question; a later move
on the table settles it: the question leaves all three pages and End turn (in the card race: the
fold) is offered again, with no reload. A phone that answers a question the other phone answered
a moment before is told so, shows the game as it is, and its notice can be dismissed.
Screenshots go to ``$FOG_ARTIFACTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.games import get_game
from tests.tables import BOARD
from tests.test_browser import AXE, api_state, browser, post_json, running_panel, set_up_and_draft, shot  # noqa: F401

FOG, RACE = get_game("fog"), get_game("partner-race")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
LIVELY = 8_000  # ms a page may take to follow an event it was sent (a liveness bound, not a speed figure)
SIDES = ("NW", "NE", "E", "W", "SW", "SE")


@pytest.fixture(scope="module")
def panel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A move left part-way is asked about after a second (the first token of a push), not twelve."""
    config = "[camera]\nsource = \"sim\"\n[detector]\nstep_hold_seconds = 1\n"
    with running_panel(tmp_path_factory.mktemp("questions"), config) as url:
        yield url


def wait_state(page: Any, base: str, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The companion's own state once ``ok`` holds (the camera reads the table at its own pace)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = api_state(page, base)
        if ok(state):
            return state
        time.sleep(0.1)
    raise AssertionError(f"the companion never got to {what}; last state: {state}")


def hands(page: Any, base: str, piece: str, cell: str | None) -> None:
    assert post_json(page, f"{base}/api/table/move", {"piece": piece, "cell": cell}).ok


def cell_of(placement: dict[str, Any], piece: str) -> str:
    return next(c for c, ps in placement.items() if piece in ps)


def moved(placement: dict[str, Any], piece: str, cell: str) -> dict[str, tuple[str, ...]]:
    out = {c: [p for p in ps if p != piece] for c, ps in placement.items()}
    out.setdefault(cell, []).append(piece)
    return {c: tuple(sorted(ps)) for c, ps in out.items() if ps}


class Watchers:
    """The pages people look at: two phones on the Board page, the simulated table on a laptop."""

    def __init__(self, browser: Any, base: str) -> None:
        # the first phone lets axe-core in (a script of the test's own); the others keep the panel's CSP
        self.contexts = [browser.new_context(**PHONE, bypass_csp=True), browser.new_context(**PHONE),
                         browser.new_context(**LAPTOP)]
        self.errors: list[str] = []
        self.pages = [ctx.new_page() for ctx in self.contexts]
        for page, path in zip(self.pages, ("/", "/", "/table")):
            page.on("pageerror", lambda exc: self.errors.append(str(exc)))
            page.goto(base + path)
            page.wait_for_selector("g.piece")
            page.wait_for_selector("#conn.up")
        self.phones, self.table = self.pages[:2], self.pages[2]

    def all_ask(self, words: str) -> None:
        for page in self.pages:
            page.wait_for_selector(f"#decision-banner:has-text('{words}')", timeout=LIVELY)

    def none_asks(self) -> None:
        for page in self.pages:
            page.wait_for_selector("#decision-banner", state="detached", timeout=LIVELY)
            assert page.locator("#banner button.decide").count() == 0

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        assert not self.errors, self.errors


def first_token_of_a_push(game: Any, state: Any) -> tuple[str, str, str, str]:
    """Another colour's islander pushed one field by hand, the pusher not put down yet: a step that is
    asked about ("did ... push ... and run back?") once it stays so, and the push finished by one more
    token. (islander, its field, where it goes, the pusher)."""
    expected = game.expected(state)
    own = set(state.islanders_of(state.active_colour))
    for field, pieces in sorted(expected.items()):
        for pushed in pieces:
            if pushed in own or state.owners.get(pushed) is None:
                continue
            for side in SIDES:
                to = BOARD.step(field, side)
                if to is None or to in expected:
                    continue
                seen = moved(expected, pushed, to)
                step = game.reconcile(state, seen)
                if not (step.part_way and step.choices and len(step.to_move) == 1):
                    continue
                pusher = step.to_move[0]
                done = game.reconcile(state, moved(seen, pusher, field))
                if done.ok and not done.ambiguous and not done.part_way:
                    return pushed, field, to, pusher
    raise AssertionError("no push to begin by hand in this position")


def test_a_push_asked_about_then_finished_on_the_table_leaves_every_page(panel_url: str, browser: Any) -> None:
    """The FOG: another colour's islander moved alone reads as a push and a run back, and is asked on
    every page; the hand that puts the pusher down finishes the push, and the question goes from
    both phones and the Table page, End turn back, without a reload."""
    base = panel_url
    page = browser.new_page()
    post_json(page, f"{base}/api/games", {"players": [{}, {}, {}], "seed": 1, "confirm": True})
    set_up_and_draft(page, base)
    page.close()
    watch = Watchers(browser, base)
    phone, other = watch.phones
    served = api_state(phone, base)
    local = FOG.new_game(players=3, seed=1, seats=[{}, {}, {}])
    for action in served["history"]:
        local = FOG.apply(local, action)
    assert {c: sorted(ps) for c, ps in FOG.expected(local).items()} == \
        {c: sorted(ps) for c, ps in served["placement"].items()}, "the test reads the game the panel plays"
    pushed, field, to, pusher = first_token_of_a_push(FOG, local)
    for page in watch.phones:
        assert not page.locator("#end-turn").is_disabled()

    hands(phone, base, pushed, to)  # only the other colour's islander moved: the pusher still in the hand
    wait_state(phone, base, lambda s: bool(s["decision"]), "the question after the hold time")
    watch.all_ask("and run back?")
    for page in watch.phones:
        assert page.locator("#end-turn").is_disabled()
        assert page.locator("#end-turn-why").inner_text() == "Say how the last move is read first."
    shot(phone, "questions-01-fog-asked")
    shot(watch.table, "questions-02-fog-asked-table")
    if AXE.exists():  # the question, its options and the disabled End turn are read out as well
        phone.add_script_tag(path=str(AXE))
        serious = phone.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)""")
        assert not serious, serious

    hands(phone, base, pusher, field)  # the pusher put down where the pushed islander stood: the push made
    state = wait_state(phone, base, lambda s: not s["decision"] and s["history"] != served["history"],
                       "the push read")
    assert state["placement"][field] == [pusher] and state["out_of_sync"] is None and state["step"] is None
    watch.none_asks()
    for page in watch.phones:
        page.wait_for_function("() => !document.querySelector('#end-turn').disabled", timeout=LIVELY)
        assert page.locator("#end-turn-why").inner_text() == ""
        page.wait_for_function("(mp) => document.querySelector('#counter-mp_left').textContent === String(mp)",
                               arg=state["mp_left"], timeout=LIVELY)
    shot(other, "questions-03-fog-settled")
    watch.close()


def race_play(page: Any, base: str, local: Any, action: str) -> Any:
    """A play said on the panel, then made on the table by hands (every piece where the game has it)."""
    assert post_json(page, f"{base}/api/act", {"action": action}).ok
    local = RACE.apply(local, action)
    post_json(page, f"{base}/api/table/setup")
    wait_state(page, base, lambda s: len(s["history"]) == len(local.history) and s["out_of_sync"] is None
               and s["step"] is None, f"'{action}' on the table")  # the calm step 'now on the table' done
    return local


def test_a_card_question_settled_on_the_table_or_on_another_phone_leaves_every_page(panel_url: str, browser: Any) -> None:
    """The partner race: a pawn brought out while the start card still shows asks "did ... play another
    start?"; laying the 8 that was played settles it on every page and the fold is offered again.
    Then "did ... play another 2?" is answered on one phone while the other answers too: the second
    answer is told the question was already settled, and its notice goes on Dismiss."""
    base = panel_url
    page = browser.new_page()
    post_json(page, f"{base}/api/games", {"game": "partner-race", "players": [{}, {}, {}, {}], "seed": 2,
                                          "confirm": True})
    post_json(page, f"{base}/api/table/setup")
    wait_state(page, base, lambda s: s.get("game_name") == "partner-race" and not s["verifying"], "the race set up")
    local = RACE.new_game(players=4, seed=2, seats=[{}, {}, {}, {}])
    assert api_state(page, base)["history"] == list(local.history) == []
    local = race_play(page, base, local, f"play {local.active} start {local.active}-1:start")
    page.close()
    watch = Watchers(browser, base)
    phone, other = watch.phones

    # a pawn brought out while the start card still shows: asked, the fold waits
    mover = local.active
    start = cell_of(RACE.expected(RACE.apply(local, f"play {mover} start {mover}-1:start")), f"{mover}-1")
    for page in watch.phones:
        page.wait_for_selector("#turn-actions button:not([disabled])", timeout=LIVELY)
    hands(phone, base, f"{mover}-1", start)
    wait_state(phone, base, lambda s: bool(s["decision"]), "the card question")
    watch.all_ask("play another start?")
    for page in watch.phones:
        assert page.locator("#turn-actions button").first.is_disabled()
    shot(watch.table, "questions-04-race-asked-table")
    hands(phone, base, "card-8s", "card-spot")  # the card really played, laid on the spot
    state = wait_state(phone, base, lambda s: s["history"][-1:] == [f"play {mover} 8s {mover}-1:start"],
                       "the 8 read")
    assert not state["decision"] and state["out_of_sync"] is None
    local = RACE.apply(local, state["history"][-1])
    watch.none_asks()
    for page in watch.phones:
        page.wait_for_selector("#turn-actions button:not([disabled])", timeout=LIVELY)

    # every pawn out, a 2 played; the next pawn moved two while the 2 still shows
    for _ in range(2):  # the other two
        local = race_play(phone, base, local, f"play {local.active} start {local.active}-1:start")
    local = race_play(phone, base, local, f"play {local.active} 2 {local.active}-1:2")
    mover = local.active
    two = f"play {mover} 2 {mover}-1:2"
    hands(phone, base, f"{mover}-1", cell_of(RACE.expected(RACE.apply(local, two)), f"{mover}-1"))
    wait_state(phone, base, lambda s: bool(s["decision"]), "the second card question")
    watch.all_ask("play another 2?")

    # both phones answer "yes" at once; the first phone's answer reaches the panel first
    held: list[Any] = []
    other.route("**/api/decide", lambda route: held.append(route))
    other.locator("#banner button.decide").first.tap()
    deadline = time.monotonic() + LIVELY / 1000
    while not held and time.monotonic() < deadline:
        other.wait_for_timeout(20)  # (lets the held answer reach the route)
    assert held, "the second phone's answer was sent"
    phone.locator("#banner button.decide").first.tap()
    wait_state(phone, base, lambda s: s["history"][-1:] == [two], "the answer taken")
    held[0].continue_()
    other.wait_for_selector("#flash:not([hidden]):has-text('That question was already settled')", timeout=LIVELY)
    watch.none_asks()
    assert api_state(phone, base)["history"][-1:] == [two], "the second answer changed nothing"
    shot(other, "questions-05-race-answered-twice")
    other.locator("#flash button.dismiss").tap()
    other.wait_for_selector("#flash", state="hidden", timeout=LIVELY)
    other.unroute("**/api/decide")
    watch.close()
