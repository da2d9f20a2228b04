"""Reading a picture of the partner race is quick and reads exactly what the plain search reads.

The door's reconcile grows each card's plays part by part and drops a part as soon as it
disagrees with the picture (``reading.py``; the step search of ``steps.py`` does the same). Here
random pictures of random positions - after a play, part-way through one, and wrong - are read
both ways: pruned, and by working out every legal play whole and comparing it with the picture.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType

import pytest

from companion.games.partner_race import rules
from companion.games.partner_race.board import CARD_SPOT
from companion.games.partner_race.cards import CARDS
from companion.games.partner_race.game import GAME, _covers, _pawns_seen
from companion.games.partner_race.reading import Picture, place_of
from companion.games.partner_race.rules import Play, RaceState
from companion.games.partner_race.track import COLOURS, colour_of, pawns_of

Seen = dict[str, tuple[str, ...]]


def positions(game: int, every: int = 11) -> Iterator[RaceState]:
    """Moments of a random game (seeded), a card kind chosen first so that 7s and swaps come often."""
    rng = random.Random(500 + game)
    state = rules.new_race(seed=game, dealer=game % 4)
    for turn in range(260):
        actions = rules.legal_actions(state)
        if not actions:
            return
        if turn % every == every - 1:
            yield state
        plays = [a for a in actions if isinstance(a, Play)]
        if plays and rng.random() < 0.95:
            kind = rng.choice(sorted({p.card for p in plays}))
            state = rules.apply(state, rng.choice([p for p in plays if p.card == kind]))
        else:
            state = rules.apply(state, actions[0])


def picture(where: Mapping[str, str], card: str | None, hide: Sequence[str] = ()) -> Seen:
    """What the camera sees with the pawns at ``where`` and ``card`` on the spot, ``hide`` not seen."""
    out: dict[str, list[str]] = {}
    for pawn, pos in where.items():
        if pawn not in hide:
            out.setdefault(place_of(pawn, pos), []).append(pawn)
    if card is not None:
        out[CARD_SPOT] = [f"card-{card}"]
    return {cell: tuple(sorted(ps)) for cell, ps in out.items()}


def pictures(state: RaceState, rng: random.Random) -> Iterator[Seen]:
    """Pictures of this position: after a play, part-way through one, and wrong ones."""
    plays = [a for a in rules.legal_actions(state) if isinstance(a, Play)]
    if not plays:
        return
    kind = rng.choice(sorted({p.card for p in plays}))
    play = rng.choice([p for p in plays if p.card == kind])
    after = rules.check(state, play)
    yield picture(after, play.card)  # the play made
    stacked = [p for p in after if after[p].startswith("T") and
               any(q != p and after[q] == after[p] and colour_of(q) == colour_of(p) for q in after)]
    if stacked:
        yield picture(after, play.card, hide=stacked[:1])  # a pawn of a stack beneath the other
    yield picture(state.where, play.card)  # the card laid, no pawn moved yet
    for part in play.steps[:-1]:  # the first parts of a 7: those pawns moved, the last not yet
        yield picture({**state.where, part.pawn: after[part.pawn]}, play.card)
    bumped = [p for p in after if after[p] == "home" != state.where[p]]
    if bumped:
        yield picture({**after, bumped[0]: state.where[bumped[0]]}, play.card)  # landed on it, not yet taken home
        yield picture(after, play.card, hide=bumped[:1])  # taken off, in a hand
    if play.swap is not None:
        yield picture(state.where, "swap", hide=play.swap[:1])  # one pawn of the swap lifted
    wrong = dict(after)
    wrong[rng.choice(sorted(wrong))] = f"T{rng.randrange(64)}"
    yield picture(wrong, play.card)  # a pawn on a random space
    yield picture(after, rng.choice([k for k in CARDS if k != play.card]))  # another card on the spot
    yield picture(after, None)  # no card laid: every card is tried
    yield picture(after, play.card, hide=[rng.choice(sorted(after))])  # a pawn gone


def cases(games: Sequence[int]) -> Iterator[tuple[RaceState, Seen]]:
    for game in games:
        rng = random.Random(game)
        for state in positions(game):
            for seen in pictures(state, rng):
                yield state, seen


def plain_readings(state: RaceState, seen: Seen) -> list[tuple[str, dict[str, str]]]:
    """The readings as the search first did them: every legal play of every card that may have been
    laid, worked out whole, kept when every pawn seen is where it ends and every pawn not seen ends
    beneath a pawn of its colour."""
    where, _ = _pawns_seen(seen)
    covers = _covers(seen)
    missing = [p for p in state.where if p not in where]
    cards = [p.removeprefix("card-") for p in seen.get(CARD_SPOT, ())]
    out = []
    for name in cards or list(CARDS):
        if state.unseen(name) <= 0:
            continue
        for play in rules.plays(state, name):
            after = rules.check(state, play)
            if all(after[p] == where[p] for p in where) and \
                    all(place_of(p, after[p]) in covers[colour_of(p)] for p in missing):
                out.append((str(play), after))
    return out


def test_the_pruned_reading_finds_exactly_the_plays_the_whole_search_finds_in_the_same_order():
    compared = found = 0
    for state, seen in cases(games=[0, 1]):
        where, _ = _pawns_seen(seen)
        pruned = [(str(play), after) for name in [c.removeprefix("card-") for c in seen.get(CARD_SPOT, ())] or CARDS
                  for play, after in Picture(where, _covers(seen)).plays(state, name)]
        assert pruned == plain_readings(state, seen)
        compared += 1
        found += bool(pruned)
    assert compared > 150 and found > 50  # many pictures, of which many read as plays


@pytest.fixture
def unpruned(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Reconcile as it reads without pruning: every play of a card worked out whole."""
    whole = rules.outcomes

    def reading(state: RaceState, name: str, keep: rules.Keep | None = None):  # type: ignore[no-untyped-def]
        return whole(state, name)

    def read(state: RaceState, seen: Seen) -> dict[str, object]:
        with monkeypatch.context() as m:
            m.setattr(rules, "outcomes", reading)
            return GAME.reconcile(state, seen).to_dict()
    return read


def test_reconcile_says_the_same_with_and_without_pruning_readings_steps_and_refusals(unpruned):  # type: ignore[no-untyped-def]
    told: dict[str, int] = {}
    for state, seen in cases(games=[2, 3]):
        answer = GAME.reconcile(state, seen).to_dict()
        assert answer == unpruned(state, seen), (dict(state.where), seen)
        kind = "reading" if answer["ok"] else str(answer["rule"])
        told[kind] = told.get(kind, 0) + 1
    assert told.get("reading", 0) > 30 and told.get("step", 0) > 30 and told.get("card", 0) > 10, told


def test_a_seven_across_partners_is_read_from_the_picture_of_where_the_pawns_end():
    """Yellow-3 makes room in the goal zone, yellow-4 locks behind it and blue takes the last four
    steps: the camera sees the three pawns moved and the 7 on the spot."""
    where = {p: "home" for c in COLOURS for p in pawns_of(c)}
    where.update({"yellow-1": "G4", "yellow-2": "G3", "yellow-3": "G1", "yellow-4": "T62", "blue-1": "T40"})
    state = RaceState(MappingProxyType(where), turn=0)
    seen = picture({**where, "yellow-3": "G2", "yellow-4": "G1", "blue-1": "T44"}, "7")
    answer = GAME.reconcile(state, seen)
    assert [c.actions for c in answer.choices] == [("play yellow 7 yellow-3:1,yellow-4:2,blue-1:4",)]


def test_pawns_moved_before_the_card_is_laid_are_a_step_never_red():
    """Hands at a real table move the pawns first and lay the card after, as often as the other way
    round. While the spot still shows the last card, the pawns moved as a play of another card (a
    swap, a 7 moving a partner's pawn) are a play under way: lay the card. Before, only plays of the
    card still showing were tried, and the table went red half way through a legal play."""
    checked, rng = 0, random.Random(7)
    for game in range(3):
        for state in positions(game, every=17):
            if state.last_card is None or rules.winners(state):
                continue
            plays = [a for a in rules.legal_actions(state) if isinstance(a, Play) and a.card != state.last_card]
            for play in rng.sample(plays, min(3, len(plays))):
                after = rules.apply(state, play)
                if after.where == state.where:
                    continue
                seen = picture(after.where, state.last_card)  # every pawn moved, the card not laid yet
                read = GAME.reconcile(state, seen)
                assert read.ok or read.part_way, (str(play), read.reason)
                assert read.ok or "lay the card" in str(read.step), (str(play), read.step)
                checked += 1
    assert checked > 20, checked
