"""A new game comes through the door in parts and the framework reads its pictures: a lane race.

The lane race is written here, from the door's parts, the way a new game would be: two players,
Red and Blue, each with two pawns in a lane of eight spaces. A turn is one or two actions: step a
pawn one space on (then step again, or rest), or, once a game, leap a pawn two spaces (a whole
turn). A pawn never lands where a pawn stands; the first pawn on space 8 wins. The leap is ticked
on the score sheet, so the camera cannot see whether a pawn two spaces on leapt or stepped twice.

Its reading of pictures is the framework's: a small :class:`Hints` subclass that says a reading
in the players' words and which action a pawn seen where no play puts it would be. Each story
below is a picture at the table and what the companion answers.
"""

from __future__ import annotations

import inspect
import json
import random
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from companion.errors import IllegalMoveError, StateFormatError
from companion.games.base import Game
from companion.games.declaration import GameType
from companion.games.geometry import Cell, Layout, Piece, Placement
from companion.games.parts import Panel, Rules, Table
from companion.games.reading import Budget, Hints, Picture, read
from companion.games.reading.hints import Readable
from companion.games.reconciliation import Choice
from companion.games.results import Outcome

COLOURS = ("red", "blue")
PAWNS = tuple(f"{c}-{p}" for c in COLOURS for p in "ab")
LANE = 8                      # spaces in a lane; the first pawn on the last one wins


# ------------------------------------------------------------------------------------------ the rules
@dataclass(frozen=True)
class Race:
    """Where each pawn stands (its space in its colour's lane), whose turn, how many actions of it are
    made, and which players still have their leap."""

    where: tuple[tuple[str, int], ...]
    turn: str = "red"
    made: int = 0
    leaps: tuple[str, ...] = COLOURS

    @property
    def at(self) -> dict[str, int]:
        return dict(self.where)


@dataclass(frozen=True)
class Act:
    """``step red-a``, ``leap red-a`` or ``rest red``."""

    verb: str
    who: str

    def __str__(self) -> str:
        return f"{self.verb} {self.who}"


def colour(pawn: str) -> str:
    return pawn.split("-")[0]


def cell(pawn: str, space: int) -> str:
    return f"{colour(pawn)[0]}{space}"


def called(piece: str) -> str:
    """A pawn or a player as the players say it (the rules' words name no id)."""
    return piece.capitalize() if piece in COLOURS else f"{colour(piece)} pawn {piece[-1].upper()}"


class RaceRules(Rules[Race, Act]):
    def new_game(self, players: int = 2, seed: int = 0, **settings: Any) -> Race:
        return Race((("blue-a", 1), ("blue-b", 3), ("red-a", 1), ("red-b", 3)))

    def to_dict(self, state: Race) -> dict[str, Any]:
        return {"game": "lane_race", "where": dict(state.where), "turn": state.turn, "made": state.made,
                "leaps": list(state.leaps)}

    def from_dict(self, data: Mapping[str, Any]) -> Race:
        try:
            return Race(tuple(sorted(data["where"].items())), data["turn"], data["made"], tuple(data["leaps"]))
        except (KeyError, AttributeError) as exc:
            raise StateFormatError(f"a lane race state lacks {exc}") from None

    def parse_action(self, text: str) -> Act:
        verb, _, who = text.strip().partition(" ")
        if verb not in ("step", "leap", "rest") or who not in (PAWNS if verb != "rest" else COLOURS):
            raise IllegalMoveError(f"not an action of the lane race: {text!r}")
        return Act(verb, who)

    def legal_actions(self, state: Race) -> Sequence[Act]:
        if self.outcome(state) is not None:
            return []
        tries = [Act(v, p) for p in PAWNS if colour(p) == state.turn for v in ("step", "leap")]
        return [a for a in tries + [Act("rest", state.turn)] if self.refusal(state, a) is None]

    def refusal(self, state: Race, act: Act) -> str | None:
        """Why an action may not be taken now, in the rulebook's words (None: it may)."""
        mover = act.who if act.verb == "rest" else colour(act.who)
        if mover != state.turn:
            return f"it is {called(state.turn)}'s turn"
        if act.verb == "rest":
            return None if state.made == 1 else "a turn rests only after one step"
        if act.verb == "leap" and state.made:
            return f"a leap is a whole turn: {called(state.turn)} has already stepped"
        if act.verb == "leap" and state.turn not in state.leaps:
            return f"{called(state.turn)} has leapt this game already"
        to = state.at[act.who] + (2 if act.verb == "leap" else 1)
        if to > LANE:
            return f"{called(act.who)} cannot go past space {LANE}"
        blocker = next((p for p, s in state.where if s == to and colour(p) == colour(act.who)), None)
        if blocker:
            return f"{called(act.who)} cannot land on space {to}: {called(blocker)} stands there"
        return None

    def apply(self, state: Race, action: Act | str) -> Race:
        act = self.parse_action(action) if isinstance(action, str) else action
        reason = self.refusal(state, act)
        if reason:
            raise IllegalMoveError(reason)
        if act.verb == "rest":
            return replace(state, turn=_other(state.turn), made=0)
        at = state.at
        at[act.who] += 2 if act.verb == "leap" else 1
        moved = replace(state, where=tuple(sorted(at.items())), made=state.made + 1)
        if act.verb == "leap":
            return replace(moved, turn=_other(state.turn), made=0, leaps=tuple(c for c in state.leaps if c != state.turn))
        return replace(moved, turn=_other(state.turn), made=0) if moved.made == 2 else moved

    def active(self, state: Race) -> tuple[str, ...]:
        return () if self.outcome(state) else (state.turn,)

    def outcome(self, state: Race) -> Outcome | None:
        won = sorted({colour(p) for p, s in state.where if s == LANE})
        return Outcome(tuple(won), "a pawn reached the last space") if won else None


def _other(player: str) -> str:
    return COLOURS[1 - COLOURS.index(player)]


# ------------------------------------------------------------------------------------------ the table
class RaceTable(Table[Race, Act]):
    def layout(self, state: Race | None = None, board: str | None = None) -> Layout:
        cells = {f"{c[0]}{n}": Cell(f"{c[0]}{n}", "lane", (30.0 * n, 40.0 + 60 * i), label=f"{c} space {n}")
                 for i, c in enumerate(COLOURS) for n in range(1, LANE + 1)}
        pieces = {p: Piece(p, 10 + i, 20.0, "pawn", called(p)) for i, p in enumerate(PAWNS)}
        return Layout("lanes", (280.0, 160.0), "DICT_4X4_50", (), cells, pieces, 20.0, 12.0)

    def expected(self, state: Race) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for pawn, space in state.where:
            out.setdefault(cell(pawn, space), []).append(pawn)
        return {c: tuple(sorted(ps)) for c, ps in out.items()}

    def correction(self, state: Race, seen: Placement) -> Act:
        raise IllegalMoveError("the lane race is corrected by undoing its last action")

    def hints(self, state: Race, seen: Placement, budget: Budget) -> Hints[Race, Act]:
        return RaceHints()


class RacePanel(Panel[Race, Act]):
    def view(self, state: Race, seat: str | None = None) -> dict[str, Any]:
        return {"active": state.turn, "players": [{"seat": c, "colour": c} for c in COLOURS],
                "names": {c: called(c) for c in COLOURS}, "owners": {p: colour(p) for p in PAWNS}}


# ------------------------------------------------------------------------------------------ its reading
class RaceHints(Hints[Race, Act]):
    """The lane race's reading: the framework's, in the race's words; a leap (ticked on the score sheet)
    and two steps leave the same picture, so every end state of the turn is a reading."""

    shortest = False

    def reading(self, game: Readable[Race, Act], state: Race, actions: Sequence[Act]) -> Choice:
        said, here = [], state
        for act in actions:
            here = game.rules.apply(here, act)
            said.append(f"{called(act.who)} rests" if act.verb == "rest" else
                        f"{called(act.who)} {act.verb}s to space {here.at[act.who]}")
        text = ", then ".join(said)
        return Choice(tuple(map(str, actions)), text[:1].upper() + text[1:])

    def read_as(self, game: Readable[Race, Act], state: Race, picture: Picture) -> Iterable[Act]:
        """A pawn of the player to move seen one space on is a step, two a leap (the rules say why not)."""
        for c, pawns in picture.items():
            for pawn in pawns:
                gone = int(c[1:]) - state.at[pawn]
                if colour(pawn) == state.turn and gone in (1, 2):
                    yield Act("step" if gone == 1 else "leap", pawn)


GAME: Game[Race, Act] = Game(GameType("lane_race", "Lane race", (2,)), RaceRules(), RaceTable(), RacePanel())
IDS = re.compile(r"\b(?:red|blue)-[ab]\b|\b[rb][1-8]\b")


# ------------------------------------------------------------------------------------------ helpers
def start() -> Race:
    return GAME.new_game(2)


def moved(state: Race, **to: int | None) -> dict[str, tuple[str, ...]]:
    """The picture of ``state`` with pawns moved (``red_a=3``) or lifted off (``red_a=None``)."""
    at: dict[str, int | None] = {**state.at, **{k.replace("_", "-"): v for k, v in to.items()}}
    out: dict[str, list[str]] = {}
    for pawn, space in at.items():
        if space is not None:
            out.setdefault(cell(pawn, space), []).append(pawn)
    return {c: tuple(sorted(ps)) for c, ps in out.items()}


def played(state: Race, *actions: str) -> Race:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def no_ids(text: str | None) -> str:
    assert text and not IDS.search(text), f"an id in the players' words: {text!r}"
    return text


class Counting(RaceHints):
    """The race's hints, counting the positions the search tells apart and whose turn it tried."""

    def __init__(self) -> None:
        self.keys = 0
        self.tried: set[tuple[str, ...]] = set()

    def key(self, game: Readable[Race, Act], state: Race) -> Hashable:
        self.keys += 1
        return super().key(game, state)

    def candidates(self, game: Readable[Race, Act], state: Race, picture: Picture) -> Iterable[Act]:
        self.tried.add(game.rules.active(state))
        return super().candidates(game, state, picture)


# ------------------------------------------------------------------------------------------ the stories
def test_the_race_s_reading_is_the_framework_s_in_at_most_120_lines() -> None:
    lines = sum(len(inspect.getsource(part).splitlines()) for part in (RaceHints, called))
    assert lines <= 120, f"the lane race reads pictures in {lines} lines"
    assert type(GAME.table).reconcile is Table.reconcile   # the framework's reading, not one of its own


def test_a_finished_step_is_read_as_one_play_in_the_players_words() -> None:
    answer = GAME.reconcile(start(), moved(start(), red_b=4))
    assert answer.ok and not answer.ambiguous and len(answer.choices) == 1
    assert answer.choices[0].actions == ("step red-b",)
    assert no_ids(answer.choices[0].summary) == "Red pawn B steps to space 4"


def test_a_pawn_two_spaces_on_is_a_question_leapt_or_stepped_twice() -> None:
    """The leap is ticked on the score sheet, not on the table: two end states, both put to Red."""
    answer = GAME.reconcile(start(), moved(start(), red_b=5))
    assert answer.ambiguous
    assert sorted(c.actions for c in answer.choices) == [("leap red-b",), ("step red-b", "step red-b")]
    assert [no_ids(c.summary) for c in answer.choices] == ["Red pawn B leaps to space 5",
                                                           "Red pawn B steps to space 4, then red pawn B steps to space 5"]


def test_two_pawns_stepped_in_either_order_are_one_reading() -> None:
    answer = GAME.reconcile(start(), moved(start(), red_a=2, red_b=4))
    assert answer.ok and len(answer.choices) == 1 and not answer.ambiguous
    replayed = played(start(), *answer.choices[0].actions)
    assert replayed == played(start(), "step red-b", "step red-a") == played(start(), "step red-a", "step red-b")


def test_a_pawn_lifted_is_a_step_that_says_where_it_may_go() -> None:
    answer = GAME.reconcile(start(), moved(start(), red_b=None))
    assert answer.part_way and not answer.ok and answer.reason is None
    assert answer.to_move == ("red-b",)
    said = no_ids(answer.step)
    assert "red pawn B" in said and "space 4" in said and "space 5" in said   # a step, or the leap


def test_a_turn_of_two_actions_half_made_is_a_step_that_says_what_is_left() -> None:
    """Red stepped pawn A and has pawn B in a hand: the turn is under way, not wrong."""
    answer = GAME.reconcile(start(), moved(start(), red_a=2, red_b=None))
    assert answer.part_way and answer.to_move == ("red-b",)
    assert no_ids(answer.step) == "red pawn A steps to space 2, then red pawn B steps to space 4: move red pawn B there too"


def test_a_pawn_of_the_player_not_to_move_moved_is_the_one_out_of_turn_answer() -> None:
    answer = GAME.reconcile(start(), moved(start(), blue_b=4))
    assert not answer.ok and not answer.part_way and answer.rule == "turn" and answer.offenders == ("blue-b",)
    assert no_ids(answer.reason) == "it is Red's turn, not Blue's: put blue pawn B back"


def test_a_move_the_rules_forbid_is_refused_in_the_rules_words() -> None:
    """Red pawn A seen on space 3, where pawn B stands: the leap that would put it there, and why not."""
    answer = GAME.reconcile(start(), moved(start(), red_a=3))
    assert not answer.ok and not answer.part_way and answer.rule == "rule"
    assert no_ids(answer.reason) == "red pawn A cannot land on space 3: red pawn B stands there"
    assert answer.reason == GAME.why_not(start(), "leap red-a")
    spent = Race((("blue-a", 1), ("blue-b", 3), ("red-a", 1), ("red-b", 2)), leaps=("blue",))
    answer = GAME.reconcile(spent, moved(spent, red_a=3))      # over pawn B: only a leap goes there
    assert answer.rule == "rule" and answer.reason == "Red has leapt this game already"


def test_a_picture_no_play_explains_says_what_differs() -> None:
    answer = GAME.reconcile(start(), moved(start(), red_b=2))     # pawn B went back a space
    assert not answer.ok and not answer.part_way and answer.rule == "move" and answer.offenders == ()
    assert no_ids(answer.reason) == ("no play of Red leaves the table like this (the camera sees red pawn B on "
                                     "red space 2 that the game does not have; it does not see red pawn B on "
                                     "red space 3)")


def test_a_reading_that_reaches_its_budget_says_it_gave_up() -> None:
    answer = GAME.reconcile(start(), moved(start(), red_a=2, red_b=4), Budget(positions=2))
    assert not answer.ok and answer.rule == "search"
    assert "positions looked at" in no_ids(answer.reason) and "correction" in str(answer.reason)
    shallow = GAME.reconcile(start(), moved(start(), red_a=2, red_b=4), Budget(depth=1))
    assert shallow.rule == "search"        # one action looked at, the turn has two: it gave up, not "no play"


@pytest.mark.parametrize("positions", [1, 2, 3, 5, 8])
def test_the_search_looks_at_no_more_positions_than_its_budget(positions: int) -> None:
    hints = Counting()
    picture = moved(start(), red_a=2, red_b=4)
    read(GAME, start(), picture, hints, Budget(positions=positions))
    assert 0 < hints.keys <= positions
    unbounded = Counting()
    assert read(GAME, start(), picture, unbounded, Budget()).ok and unbounded.keys > 3


def test_the_search_tries_only_actions_of_the_player_to_move() -> None:
    """Red's turn made, then Blue's pawn stepped: no reading logs Blue's step as part of Red's play."""
    hints = Counting()
    picture = moved(start(), red_a=2, red_b=4, blue_b=4)
    answer = read(GAME, start(), picture, hints, Budget())
    assert not answer.ok and hints.tried == {("red",)}
    assert all(a.startswith(("step red", "leap red", "rest red")) for c in answer.choices for a in c.actions)
    after_red = played(start(), "step red-a", "step red-b")
    assert GAME.reconcile(after_red, picture).choices[0].actions == ("step blue-b",)


def test_the_race_plays_through_the_door() -> None:
    """The game is whole: saved and read back, actions parse back, a finished game is over."""
    state = played(start(), "leap red-b", "step blue-b", "rest blue")
    assert GAME.from_json(json.dumps(GAME.to_json(state))) == state
    assert all(GAME.parse_action(str(a)) == a for a in GAME.legal_actions(state))
    won = played(Race((("blue-a", 1), ("blue-b", 3), ("red-a", 1), ("red-b", 7))), "step red-b")
    assert GAME.outcome(won) == Outcome(("red",), "a pawn reached the last space") and GAME.active(won) == ()
    assert GAME.reconcile(won, moved(won, blue_b=4)).rule == "over"


def test_every_legal_play_of_a_whole_game_is_read_back_as_plays_that_leave_the_table_so() -> None:
    """The door's promise, over a whole game played at random: the picture after any legal action of
    the player to move is read as plays of that player that leave the table exactly so."""
    rng, state, read_back = random.Random(5), start(), 0
    while GAME.outcome(state) is None:
        for action in GAME.legal_actions(state):
            after = GAME.apply(state, action)
            if GAME.expected(after) == GAME.expected(state):
                continue                                   # a rest: nothing on the table moved
            answer = GAME.reconcile(state, GAME.expected(after))
            assert answer.ok, f"{action}: {answer.reason or answer.step}"
            for choice in answer.choices:
                assert GAME.expected(played(state, *choice.actions)) == GAME.expected(after)
                assert all(GAME.parse_action(a).who.startswith(state.turn) for a in choice.actions)
            read_back += 1
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    assert read_back > 10
