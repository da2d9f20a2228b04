"""A move in parts is steps, told as steps: hands at the table move one piece at a time, and the
camera settles on every part. The card laid before the pawn, the first token of a swap or a push,
one pawn of a split 7, the pawn that bumps before the bumped one goes home: each is "finish the
move", calm, never out of sync. Only a table that stays half-done past the hold time with nothing
moving, or a picture no continuation of a legal move reaches, is out of sync.

The session here is the one the camera feeds (``on_stable_change``) with a clock the test moves:
the hold time is never waited for.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from companion.session.events import InlineBus
from companion.games import TableStatus, get_game
from companion.games.fog import rules as fog_rules
from companion.games.fog.legality import apply_move, legal_movements
from companion.games.fog.setup import new_game
from companion.games.partner_race import board as boards
from companion.games.partner_race.rules import RaceState
from companion.games.partner_race.track import COLOURS, pawns_of
from companion.session.session import OutOfSyncError, Session
from companion.store.store import GameStore
from tests.tables import BOARD

RACE = get_game("partner-race")
FOG = get_game("fog")
Picture = dict[str, tuple[str, ...]]


class Clock:
    """The session's clock, moved by the story, not by the machine."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A game at the table: the session the camera talks to, every event it publishes, its clock."""

    def __init__(self, tmp_path: Path, game: Any, state: Any, hold: float = 12.0) -> None:
        self.clock = Clock()
        self.events: list[str] = []
        bus = InlineBus()
        bus.subscribe(lambda e: self.events.append(e.kind))
        self.session = Session(GameStore(tmp_path / "games.db"), bus, game=game, clock=self.clock, step_hold=hold)
        self.session.start(state, verify=False)
        self.game = game
        self.session.on_stable_change(game.expected(state))  # the camera sees the table as the game has it

    def sees(self, picture: Mapping[str, Sequence[str]]) -> None:
        self.session.on_stable_change({c: tuple(ps) for c, ps in picture.items() if ps})

    @property
    def status(self) -> Any:
        return self.session.status

    def calm(self) -> str:
        """The step the table is at; it must be neither out of sync nor a question."""
        st = self.status
        assert st.out_of_sync is None, st.out_of_sync
        assert st.step is not None and not st.decision
        return st.step.says


def moved(picture: Mapping[str, Sequence[str]], **moves: str | None) -> Picture:
    """The picture after hands moved pieces (``yellow_1="T5"``; None: in a hand, or hidden under another)."""
    out = {c: [p for p in ps if p.replace("-", "_") not in moves] for c, ps in picture.items()}
    for piece, cell in moves.items():
        if cell is not None:
            out.setdefault(cell, []).append(piece.replace("_", "-"))
    return {c: tuple(sorted(ps)) for c, ps in out.items() if ps}


def card(picture: Mapping[str, Sequence[str]], name: str) -> Picture:
    """The card laid on the card spot, on top of the one there."""
    return {**{c: tuple(ps) for c, ps in picture.items()}, boards.CARD_SPOT: (f"card-{name}",)}


def race(turn: str = "yellow", last_card: str | None = None, **at: str) -> RaceState:
    """Every pawn at home but those named, ``turn`` to play."""
    where = {p: "home" for c in COLOURS for p in pawns_of(c)}
    where.update({k.replace("_", "-"): v for k, v in at.items()})
    return RaceState(MappingProxyType(where), turn=COLOURS.index(turn), last_card=last_card)


# ------------------------------------------------------------------------------ the partner race
def test_a_card_laid_says_whose_pawn_moves_now_calmly_and_the_pawn_moved_is_the_play(tmp_path: Path):
    """The README says: lay the card, then move the pawn. The card alone is a step, not red."""
    table = Table(tmp_path, RACE, RACE.new_game(4, seed=3))
    start = table.session.state
    assert start.active == "yellow"
    laid = card(RACE.expected(start), "start")
    table.sees(laid)
    says = table.calm()
    assert "the start card is laid: now yellow moves the pawn it plays" in says
    assert table.status.step.to_move[0].startswith("yellow-")  # whose pawn: yellow's
    assert table.status.step.to_dict()["whole"] is False  # a card alone is no play: nothing to end a turn with
    assert table.events[-1] == "step" and "out-of-sync" not in table.events
    assert start.history == table.session.state.history  # nothing is read yet
    scene = RACE.led_scene(start, TableStatus(step=True, to_move=table.status.step.to_move))
    turn = scene.segments["turn"][0]
    assert turn.colour == boards.load("standard").rgb["yellow"] and turn.effect == "pulse" and turn.hz <= 0.5
    assert all(light.colour != (255, 0, 0) for role in scene.segments for light in scene.lights(role))

    table.sees(moved(laid, yellow_1="start-yellow"))  # the pawn moved: the play is read
    assert table.session.state.history[-1] == "play yellow start yellow-1:start"
    assert table.status.step is None and table.status.out_of_sync is None


def test_a_bump_made_in_two_tokens_is_said_as_a_bump_then_read(tmp_path: Path):
    state = race("yellow", yellow_1="T10", green_1="T15")
    table = Table(tmp_path, RACE, state)
    landed = moved(card(RACE.expected(state), "5"), yellow_1="T15", green_1=None)  # on top of green-1: unseen
    table.sees(landed)
    assert table.calm() == "finish the 5: the green pawn 1 is bumped: put it in its home circle"
    assert table.status.step.to_move == ("green-1",)  # the LEDs show green: green-1 goes home next
    table.sees(moved(landed, green_1="home-green-1"))
    assert table.session.state.history[-1] == "play yellow 5 yellow-1:5"
    assert table.session.state.where["green-1"] == "home" and table.status.out_of_sync is None

    other = Table(tmp_path / "other", RACE, state)  # the other order: the bumped pawn home first
    first = moved(card(RACE.expected(state), "5"), green_1="home-green-1")
    other.sees(first)
    assert other.calm() == "finish the 5: put the yellow pawn 1 on T15"
    other.sees(moved(first, yellow_1="T15"))
    assert other.session.state.history[-1] == "play yellow 5 yellow-1:5"


def test_a_split_seven_is_steps_until_the_seven_steps_are_shared_out(tmp_path: Path):
    state = race("yellow", yellow_1="T0", yellow_2="T20", yellow_3="T40")
    table = Table(tmp_path, RACE, state)
    laid = card(RACE.expected(state), "7")
    table.sees(laid)
    assert "the 7 card is laid" in table.calm()
    first = moved(laid, yellow_1="T3")
    table.sees(first)
    assert table.calm() == "finish the 7: 4 more steps for the yellow pawn 2 or the yellow pawn 3"
    second = moved(first, yellow_2="T22")
    table.sees(second)
    assert table.calm() == "finish the 7: put the yellow pawn 3 on T42"
    table.sees(moved(second, yellow_3="T42"))
    assert table.session.state.history[-1] == "play yellow 7 yellow-1:3,yellow-2:2,yellow-3:2"
    assert table.status.step is None and table.status.out_of_sync is None


def test_a_seven_whose_first_part_alone_reads_as_a_whole_seven_waits_for_the_second_pawn(tmp_path: Path):
    """Yellow-1 on T61 takes five of the 7 into goal circle 3, then yellow-2 takes two. Seven steps
    for yellow-1 alone would also end in circle 3 (it turns round at the innermost circle), so the
    picture after the first pawn is a whole 7 as well: a step while the hands are at work, read as
    the whole 7 once yellow-2 moves; and if nothing more moves within the hold time, the 7 the table
    shows is the play."""
    state = race("yellow", yellow_1="T61", yellow_2="T20")
    table = Table(tmp_path, RACE, state, hold=12.0)
    first = moved(card(RACE.expected(state), "7"), yellow_1="goal-yellow-3")
    table.sees(first)
    assert table.calm() == "finish the 7: put the yellow pawn 2 on T22"
    table.clock.now += 8.0  # the player thinks about where the two steps go
    assert not table.session.step_overdue() and table.session.state.history == ()
    table.sees(moved(first, yellow_2="T22"))
    assert table.session.state.history[-1] == "play yellow 7 yellow-1:5,yellow-2:2"
    assert table.status.step is None and table.status.out_of_sync is None and not table.status.decision

    alone = Table(tmp_path / "alone", RACE, state, hold=12.0)  # all seven were for yellow-1
    alone.sees(first)
    alone.calm()
    alone.clock.now += 12.0
    assert not alone.session.step_overdue()  # not out of sync: the table shows a whole 7
    assert alone.session.state.history[-1] == "play yellow 7 yellow-1:7"
    assert alone.status.step is None and alone.status.out_of_sync is None and "out-of-sync" not in alone.events


def test_a_swap_made_one_pawn_at_a_time(tmp_path: Path):
    state = race("yellow", yellow_1="T10", green_1="T30")
    table = Table(tmp_path, RACE, state)
    lifted = moved(card(RACE.expected(state), "swap"), yellow_1=None)  # yellow-1 in a hand
    table.sees(lifted)
    table.calm()
    on_top = moved(lifted, yellow_1="T30", green_1=None)  # put down on green-1's space, on top of it
    table.sees(on_top)
    assert table.calm() == "finish the swap: put the green pawn 1 on T10"
    table.sees(moved(on_top, green_1="T10"))
    assert table.session.state.history[-1] == "play yellow swap green-1<>yellow-1"


def test_a_step_left_past_the_hold_time_with_nothing_moving_is_out_of_sync(tmp_path: Path):
    table = Table(tmp_path, RACE, race("yellow", yellow_1="T10", green_1="T15"), hold=12.0)
    laid = card(RACE.expected(table.session.state), "5")
    table.sees(laid)
    table.clock.now += 11.0
    assert not table.session.step_overdue() and table.calm()
    table.sees(moved(laid, yellow_1=None))  # a hand lifts the pawn: a new picture starts the time again
    table.clock.now += 11.0
    assert not table.session.step_overdue() and table.calm()
    table.session.view_blocked(True)  # a hand rests over the board: nothing is judged
    table.clock.now += 60.0
    assert not table.session.step_overdue() and table.calm()
    table.session.view_blocked(False)  # lifted: the time starts again
    table.clock.now += 11.9
    assert not table.session.step_overdue()
    table.clock.now += 0.2
    assert table.session.step_overdue()  # 12 s with nothing moving: the table contradicts the game
    sync = table.status.out_of_sync
    assert sync is not None and sync.rule == "step-left" and "left part-way for 12 s" in sync.reason
    assert "yellow-1" in sync.offenders and table.status.step is None
    assert table.events[-1] == "out-of-sync"
    table.sees(RACE.expected(table.session.state))  # the card and the pawn put back
    assert table.status.out_of_sync is None and table.status.step is None


def test_a_picture_no_legal_play_continues_is_out_of_sync_at_once(tmp_path: Path):
    state = race("yellow", yellow_1="T10", green_1="T15")
    table = Table(tmp_path, RACE, state)
    table.sees(moved(card(RACE.expected(state), "5"), yellow_1="T12"))  # a 5 never stops two spaces on
    assert table.status.out_of_sync is not None and table.status.step is None
    assert "no way to play the 5" in table.status.out_of_sync.reason
    table.sees(moved(RACE.expected(state), red_1=None))  # a pawn gone from its home circle: no play moves it
    assert table.status.out_of_sync is not None and table.status.out_of_sync.offenders == ("red-1",)


def test_while_a_move_is_part_way_nothing_else_is_taken(tmp_path: Path):
    table = Table(tmp_path, RACE, RACE.new_game(4, seed=3))
    table.sees(card(RACE.expected(table.session.state), "start"))
    table.calm()
    with pytest.raises(OutOfSyncError, match="a move is part-way on the table"):
        table.session.act("fold yellow")
    assert table.session.state.history == ()


# ------------------------------------------------------------------------------ The FOG
def fog_positions(seed: int, wanted: int) -> list[Any]:
    """Positions of a seeded three-player game in its moving phase, reached by random legal moves."""
    rng = random.Random(seed)
    state = new_game(BOARD, 3, seed=seed)
    while state.phase == "draft":
        state = fog_rules.draft(state, rng.choice(fog_rules.legal_drafts(state)))
    out = []
    while len(out) < wanted and state.phase == "moving":
        moves = list(legal_movements(state))
        if any(m.movements[0].kind in ("swap", "push") for m in moves):
            out.append(state)
        singles = [m for m in moves if len(m.movements) == 1 and m.movements[0].kind == "run"]
        state = apply_move(state, rng.choice(singles)) if singles and rng.random() < 0.7 else fog_rules.end_turn(state)
    return out


def first_token(state: Any, after: Any, piece: str) -> Picture:
    """The table with one token of a move moved (``piece`` put where the move puts it)."""
    return moved(state.placement, **{piece.replace("-", "_"): after.where[piece]})


def test_every_swap_and_push_made_one_token_at_a_time_is_a_step_then_the_move(tmp_path: Path):
    """The mover's token first, as a hand does it: put down on the field of the one it swaps with or
    pushes (two tokens on one field) or lifted; then the rest: the move is read."""
    counted = {"swap": 0, "push": 0}
    for k, state in enumerate(fog_positions(seed=7, wanted=2)):
        for move in legal_movements(state):
            first = move.movements[0]
            if len(move.movements) != 1 or first.kind not in counted:
                continue
            after = apply_move(state, move)
            assert FOG.reconcile(state, moved(state.placement, **{first.islander.replace("-", "_"): None})).part_way
            half = first_token(state, after, first.islander)
            answer = FOG.reconcile(state, half)
            assert answer.part_way and not answer.ok, (str(move), answer.reason)
            assert answer.step and answer.step.startswith("finish the move") and answer.reason is None
            counted[first.kind] += 1
        table = Table(tmp_path / str(k), FOG, state)
        move = next(m for m in legal_movements(state) if m.movements[0].kind == "swap") if any(
            m.movements[0].kind == "swap" for m in legal_movements(state)) else \
            next(m for m in legal_movements(state) if m.movements[0].kind == "push")
        after = apply_move(state, move)
        table.sees(first_token(state, after, move.movements[0].islander))
        assert table.calm().startswith("finish the move")
        table.sees(after.placement)
        assert table.session.state.placement == after.placement and table.status.step is None
        assert table.status.out_of_sync is None and "out-of-sync" not in table.events
    assert counted["swap"] and counted["push"], counted


def test_a_fog_step_left_past_the_hold_time_is_out_of_sync_and_a_step_lights_calmly(tmp_path: Path):
    state = fog_positions(seed=7, wanted=1)[0]
    move = next(m for m in legal_movements(state) if m.movements[0].kind in ("swap", "push"))
    after = apply_move(state, move)
    table = Table(tmp_path, FOG, state, hold=10.0)
    table.sees(first_token(state, after, move.movements[0].islander))
    scene = FOG.led_scene(state, TableStatus(step=True, to_move=table.status.step.to_move))
    assert all(light.effect != "blink" for light in scene.segments["turn"])  # calm: it breathes, nothing flashes
    table.clock.now += 10.0
    assert table.session.step_overdue() and table.status.out_of_sync.rule == "step-left"


def test_the_pushed_token_put_on_first_is_seen_as_a_step_without_searching_every_sequence(monkeypatch: Any):
    """Pink's leader pushes the blue sailor and the red sailor a field on; the hand puts the red
    sailor down first. No sequence of pink's moves leaves the table so, and proving it meant
    searching thousands of positions (seconds); the companion searches a bounded number of
    positions, sees a step, and says what is left."""
    from companion.games.fog import game as fog_game
    from companion.games.fog.steps import STEP_NODES

    state = fog_positions(seed=7, wanted=2)[1]
    move = next(m for m in legal_movements(state) if str(m) == "move push blue-leader-1 E3>E4")
    picture = first_token(state, apply_move(state, move), "red-sailor-3")
    searched: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        answer = fog_explain(*args, **kwargs)
        searched.append(answer.searched)
        return answer

    fog_explain = fog_game.explain
    monkeypatch.setattr(fog_game, "explain", counted)
    answer = FOG.reconcile(state, picture)
    assert answer.part_way and answer.step is not None and answer.step.startswith("finish the move")
    assert "put the blue leader on E4" in answer.step
    assert len(searched) == 1 and STEP_NODES <= searched[0] <= 4 * STEP_NODES  # stopped at the bound, in each tier


def test_the_pushed_token_put_on_first_is_a_step_and_asked_about_only_if_it_stays_so(tmp_path: Path):
    """A hand that moves the pushed islander on first leaves what a push and a run back would: a step
    (the pusher follows), asked about only when nothing more happens within the hold time."""
    for state in fog_positions(seed=7, wanted=4):
        pushes = [m for m in legal_movements(state) if len(m.movements) == 1 and m.movements[0].kind == "push"]
        for move in pushes:
            after = apply_move(state, move)
            pushed = [p for p in state.where if after.where[p] != state.where[p] and p != move.movements[0].islander]
            answer = FOG.reconcile(state, first_token(state, after, pushed[0]))
            if answer.ok and answer.question and answer.part_way:
                table = Table(tmp_path, FOG, state, hold=10.0)
                table.sees(first_token(state, after, pushed[0]))
                assert table.calm().startswith("finish the move")
                table.clock.now += 10.0
                assert not table.session.step_overdue()  # not out of sync: a reading exists, and is asked
                assert table.status.decision and table.status.question and table.status.out_of_sync is None
                return
    raise AssertionError("no push whose pushed islander, moved first, reads as a push and a run back")


def test_a_correction_the_rules_refuse_while_a_move_is_under_way_leaves_the_step_as_every_page_shows_it(
        tmp_path: Path):
    """Pink's leader pushes the blue sailor and the red sailor on; the red sailor is put down first:
    a step. A player taps "correct one piece" to put the leader on E4, where the sailor still stands,
    and accepting the board with the leader on top of the sailor is tried too: the rules refuse both
    (two tokens on one field). Nothing changes: the step is still there, as every page shows it,
    and the hands finish the move."""
    from companion.errors import SessionError

    state = fog_positions(seed=7, wanted=2)[1]
    move = next(m for m in legal_movements(state) if str(m) == "move push blue-leader-1 E3>E4")
    after = apply_move(state, move)
    table = Table(tmp_path, FOG, state)
    table.sees(first_token(state, after, "red-sailor-3"))
    says, told = table.calm(), len(table.events)
    with pytest.raises(SessionError, match="E4"):
        table.session.correct_piece("blue-leader-1", "E4")
    assert table.calm() == says and len(table.events) == told
    with pytest.raises(SessionError, match="E4"):
        table.session.accept_correction(moved(first_token(state, after, "red-sailor-3"), blue_leader_1="E4"))
    assert table.calm() == says and len(table.events) == told and table.session.state.history == state.history
    table.sees(after.placement)  # the hands finish the push
    assert table.session.state.history[-1] == str(move) and table.status.step is None


OWN_PUSH = "move push red-elder-2 A3>B3"  # black's red elder (pushes) pushes black's green commoner on to C2
OWN_RUN = "move run green-commoner-1 B3>C2"  # ...which is also what the commoner's own run leaves


def test_an_own_islander_pushed_and_put_down_before_its_pusher_is_one_push_never_two_runs(tmp_path: Path):
    """Black's red elder pushes black's own green commoner on; the hand puts the commoner down
    first. That picture is by itself a legal run of the commoner: read at once, the elder's move
    would be read next as a run of its own, and the log would hold two runs nobody made. It is a
    step holding that run: the table says calmly what may come, the elder follows, and the push is
    read, once."""
    state = fog_positions(seed=7, wanted=12)[11]
    push = next(m for m in legal_movements(state) if str(m) == OWN_PUSH)
    after = apply_move(state, push)
    table = Table(tmp_path, FOG, state)
    table.sees(first_token(state, after, "green-commoner-1"))
    says = table.calm()
    assert table.status.step.to_dict()["whole"] is True  # the run is whole already: End turn would read it
    assert says == ("finish the move (the red elder (pushes) pushes the green commoner (crosses)): put the red elder "
                    "(pushes) on B3; or leave it as it is: the green commoner (crosses) runs from B3 to C2 (1 MP)")
    assert table.status.step.to_move == ("red-elder-2",) and table.session.state.history == state.history
    table.clock.now += 5.0  # the hand reaches for the elder
    assert not table.session.step_overdue()
    table.sees(after.placement)
    made = [h for h in table.session.state.history[len(state.history):] if h.startswith("move")]
    assert made == [OWN_PUSH] and table.session.state.mp_left == after.mp_left
    table.clock.now += 60.0  # long after: nothing held comes back as a second move
    assert not table.session.step_overdue() and table.status.step is None
    assert "out-of-sync" not in table.events and "decision-needed" not in table.events


def test_a_run_that_could_start_a_push_is_read_as_the_run_once_nothing_more_moves(tmp_path: Path):
    """The same table, but black meant the commoner's run: nothing more moves. Once the hold time
    has passed the run is read, without a question and without red."""
    state = fog_positions(seed=7, wanted=12)[11]
    run = next(m for m in legal_movements(state) if str(m) == OWN_RUN)
    table = Table(tmp_path, FOG, state, hold=10.0)
    table.sees(apply_move(state, run).placement)
    table.calm()
    assert table.session.state.history == state.history
    table.clock.now += 10.0
    assert not table.session.step_overdue()  # not out of sync: the run it held is settled
    assert list(table.session.state.history[len(state.history):]) == [OWN_RUN]
    assert table.session.state.mp_left == state.mp_left - 1
    assert table.status.step is None and not table.status.decision and table.status.out_of_sync is None
    assert "out-of-sync" not in table.events and "decision-needed" not in table.events


def test_ending_the_turn_reads_the_held_run_at_once(tmp_path: Path):
    """Black meant the commoner's run and taps End turn straight away: that says nothing more is
    coming, so the run held as a step is read there and then and the turn passes; nobody waits out
    the hold time, and the companion never refuses the turn for a move that is whole."""
    state = fog_positions(seed=7, wanted=12)[11]
    run = next(m for m in legal_movements(state) if str(m) == OWN_RUN)
    table = Table(tmp_path, FOG, state, hold=10.0)
    table.sees(apply_move(state, run).placement)
    table.calm()
    assert table.status.step.to_dict()["whole"]  # the page offers End turn: the table shows a whole move
    table.session.end_turn()
    made = list(table.session.state.history[len(state.history):])
    assert made[0] == OWN_RUN and len(made) >= 2  # the run, then the turn's end
    assert (table.session.state.round, table.session.state.turn_index) != (state.round, state.turn_index)
    assert table.status.step is None and table.status.out_of_sync is None
    assert "out-of-sync" not in table.events and "decision-needed" not in table.events


def test_run_as_installed_says_the_card_laid_calmly_and_a_play_left_half_done_goes_out_of_sync(tmp_path: Path):
    """`fog-companion run --game partner-race` as a process without standard input, its hold time set
    short in the config: the card laid on its simulated table is a step on /api/state, left alone it
    is out of sync once the hold time has passed with nothing moving, and the pawn moved is the play."""
    import signal

    from tests.tables import http_call, wait_for
    from tests.test_partner_race_table import run_command

    (tmp_path / "steps.toml").write_text('[camera]\nsource = "sim"\n[detector]\nstep_hold_seconds = 1.0\n')
    proc, lines, port = run_command(tmp_path, "--config", str(tmp_path / "steps.toml"), "--game", "partner-race",
                                    "--players", "4", "--seed", "3")
    state: dict[str, Any] = {}

    def now() -> dict[str, Any]:
        state.update(http_call(port, "GET", "/api/state")[1])
        return state

    try:
        http_call(port, "POST", "/api/table/setup")
        assert wait_for(lambda: not now()["verifying"], 60), "".join(lines)
        active = state["active"]
        http_call(port, "POST", "/api/table/move", {"piece": "card-start", "cell": "card-spot"})
        assert wait_for(lambda: now()["step"] is not None or now()["out_of_sync"] is not None, 60), "".join(lines)
        assert state["step"] is not None and f"now {active} moves the pawn it plays" in state["step"]["says"]
        assert state["step"]["hold_seconds"] == 1.0 and state["history"] == []
        assert wait_for(lambda: now()["out_of_sync"] is not None, 60), "".join(lines)  # left alone: no longer calm
        assert state["out_of_sync"]["rule"] == "step-left" and state["step"] is None
        http_call(port, "POST", "/api/table/move", {"piece": f"{active}-1", "cell": f"start-{active}"})
        assert wait_for(lambda: now()["history"] == [f"play {active} start {active}-1:start"]
                        and now()["out_of_sync"] is None and state["step"] is None, 60), "".join(lines[-20:])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert proc.returncode == 0 and "Traceback" not in "".join(lines), "".join(lines)
    assert any("[step]" in x for x in lines) and any("[out-of-sync]" in x and "step-left" in x for x in lines)


def _tapped(game: Any, state: Any) -> list[tuple[Any, ...]]:
    """The plays the Board page offers by tapping: a piece and its dot, else a thing laid on a place."""
    moves = [(p, c, w.actions[0]) for p in sorted(game.layout(state).pieces)
             for c, ways in game.targets(state, p).items() for w in ways]
    return moves or [(c.actions[0],) for cell in sorted(game.layout(state).cells) for c in game.laid_at(state, cell)]


def _enter(session: Session, play: tuple[Any, ...]) -> None:
    if len(play) == 3:
        session.move(*play)
    else:
        session.act(*play)


@pytest.mark.parametrize("name", ["tile-race", "island-battle", "partner-race"])  # their first plays are tapped
def test_a_play_entered_before_the_hands_made_the_last_one_waits_in_every_game(tmp_path: Path, name: str):
    """A play tapped on the Board page, the table not changed yet: a calm step for the hands. The next
    one tapped before they make it is theirs to make too (a movement tapped a step at a time, a move
    then the turn's tile), calm; a button pressed meanwhile waits, in every game alike, saying what to
    make first. Once the hands have made it all, the table agrees."""
    game = get_game(name)
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=game)
    session.start(game.new_game(max(game.players), 1), verify=False)
    session.on_stable_change(session.expected())
    plays = _tapped(game, session.state)
    assert plays, name
    _enter(session, plays[0])
    assert session.status.step is not None and session.status.out_of_sync is None, name
    later = _tapped(game, session.state)
    tapped = [p for p in later if len(p) == 3]
    if tapped:  # tapped on the board before the hands came: stacked, calm
        _enter(session, tapped[0])
        assert session.status.step is not None and session.status.out_of_sync is None, name
    pressed = [p for p in _tapped(game, session.state) if len(p) == 1] + [
        (b["action"],) for b in game.view(session.state).get("turn_actions") or []]
    if pressed:
        with pytest.raises(OutOfSyncError, match="the table does not show the last change yet .*make it there first"):
            _enter(session, pressed[0])
    session.on_stable_change(session.expected())  # the hands made it all
    assert session.status.step is None and session.status.out_of_sync is None, name
