"""Explaining what the camera sees: the cheapest legal movements, ambiguity, and precise refusals."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from companion.app.cli import main
from companion.games import get_game
from companion.games.fog import rules
from companion.games.fog.explain import apply_explanation, explain
from companion.games.fog.legality import apply_move, legal_movements
from companion.games.fog.options import Options
from companion.games.fog.setup import new_game
from tests.tables import BOARD, moved, nb, position

E = "E4"


def test_an_islander_carried_three_fields_forward_is_explained_as_three_runs():
    state = position({E: "blue-elder-1"}, {"blue-elder-1": "black"})
    target = nb(E, "NW", "NE", "NW")
    answer = explain(state, moved(state.placement, blue_elder_1=target))
    assert answer.ok and answer.cost == 3 and not answer.ambiguous
    assert [m.kind for m in answer.movements] == ["run", "run", "run"]
    after = apply_explanation(state, answer.options[0])
    assert after.where["blue-elder-1"] == target and after.mp_left == 4


def test_a_jump_is_found_when_it_is_cheaper_than_running_round():
    a = nb(E, "NW")
    state = position({E: "blue-elder-1", a: "red-elder-1", nb(E, "NE"): "rock-1", nb(E, "W"): "rock-2"},
                     {"blue-elder-1": "black"})
    answer = explain(state, moved(state.placement, blue_elder_1=nb(a, "NW")))
    assert answer.cost == 2 and answer.movements[0].kind == "jump"  # blue-elder-1 has the jump characteristic


def test_two_islanders_moving_together_are_explained_as_a_push():
    a = nb(E, "NW")
    state = position({E: "blue-leader-1", a: "red-elder-1"}, {"blue-leader-1": "black"})
    answer = explain(state, moved(state.placement, blue_leader_1=a, red_elder_1=nb(a, "NW")))
    assert answer.cost == 2 and [m.kind for m in answer.movements] == ["push"]


def test_nothing_changed_costs_nothing():
    state = position({E: "blue-elder-1"}, {"blue-elder-1": "black"})
    answer = explain(state, state)
    assert answer.ok and answer.cost == 0 and answer.movements == ()


def test_islanders_boarding_take_the_bonuses_whatever_the_order():
    # Two black islanders board the blue boat; whichever sits down first takes the 6, the other
    # the 4. Both go to black, so the order does not matter and nobody is asked.
    state = position({"P1-1": "blue-sailor-1", "P1-2": "green-elder-1"},
                     {"blue-sailor-1": "black", "green-elder-1": "black"})
    answer = explain(state, moved(state.placement, blue_sailor_1="blue-CR", green_elder_1="blue-BR"))
    assert answer.ok and answer.cost == 2 and not answer.ambiguous
    assert sorted(answer.options[0].gains) == [4, 6]
    assert apply_explanation(state, answer.options[0]).prep_taken == {"black": tuple(answer.options[0].gains)}
    # the panel says the bonuses after the reading, in words the game gives it (the reading's detail)
    reading = get_game("fog").reconcile(state, moved(state.placement, blue_sailor_1="blue-CR",
                                                     green_elder_1="blue-BR")).choices[0].to_dict()
    assert reading["detail"] in ("preparation bonus 6 and 4", "preparation bonus 4 and 6"), reading


def test_a_swap_between_two_own_islanders_asks_who_swapped_when_endurance_depends_on_it():
    # Both have endurance: whichever made the swap may still run one field for free - but only it.
    # Rocks all round, so a swap is the only way for the two to change places.
    pair = {E, nb(E, "E")}
    around = sorted({n for c in pair for n in BOARD.neighbours(c)} - pair)
    rocks = {cell: f"{kind}-{i}" for cell, (kind, i) in
             zip(around, [(k, i) for k in ("rock", "bush", "driftwood") for i in range(1, 6)])}
    state = position({**rocks, E: "blue-warrior-3", nb(E, "E"): "green-leader-1"},
                     {"blue-warrior-3": "black", "green-leader-1": "black"})
    answer = explain(state, moved(state.placement, blue_warrior_3=nb(E, "E"), green_leader_1=E))
    assert answer.ok and answer.cost == 3 and answer.ambiguous
    movers = sorted(o.movements[0].islander for o in answer.options)
    assert movers == ["blue-warrior-3", "green-leader-1"]


def test_an_illegal_change_names_the_islander_and_the_rule():
    state = position({E: "blue-elder-1", "C3": "red-elder-1", "B2": "rock-1"},
                     {"blue-elder-1": "black", "red-elder-1": "pink"})
    short = replace(state, mp_left=3)
    far = explain(short, moved(short.placement, blue_elder_1="J5"))
    assert not far.ok and far.offenders == ("blue-elder-1",) and far.rule == "movement-points"
    assert "needs at least" in (far.reason or "")
    foreign = explain(state, moved(state.placement, red_elder_1=nb("C3", "NW")))
    assert not foreign.ok and foreign.offenders == ("red-elder-1",) and foreign.rule == "not-your-islander"
    obstacle = explain(state, moved(state.placement, rock_1="B3"))
    assert obstacle.rule == "obstacles" and "obstacles never move" in (obstacle.reason or "")
    on_top = explain(state, moved(state.placement, blue_elder_1="C3"))
    assert on_top.rule == "empty-field"
    gone = explain(state, {c: ps for c, ps in state.placement.items() if "blue-elder-1" not in ps})
    assert gone.rule == "missing" and gone.offenders == ("blue-elder-1",)


def test_a_move_that_no_legal_sequence_makes_is_refused_with_the_islander():
    # Two fields straight backwards through a rock: runs cannot pass it and crossing never goes backwards.
    rock = nb(E, "SE")
    state = position({E: "blue-elder-2", rock: "rock-1"}, {"blue-elder-2": "black"}, mp_left=2)
    answer = explain(state, moved(state.placement, blue_elder_2=nb(rock, "SE")))
    assert not answer.ok and answer.offenders == ("blue-elder-2",) and answer.rule == "movement"
    assert "cannot get from" in (answer.reason or "")


def test_an_equally_cheap_reading_that_keeps_the_endurance_run_open_is_preferred_without_asking():
    # Seen: one field forward. A plain run, or a run elsewhere plus the free endurance run: the
    # same cost, but only the first leaves the free run for later, so nobody needs to be asked.
    state = position({E: "blue-warrior-3"}, {"blue-warrior-3": "black"})
    answer = explain(state, moved(state.placement, blue_warrior_3=nb(E, "NW")))
    assert answer.ok and not answer.ambiguous and [m.kind for m in answer.movements] == ["run"]


def test_the_free_endurance_run_is_used_when_the_points_run_out():
    state = position({E: "blue-warrior-3"}, {"blue-warrior-3": "black"}, mp_left=2)
    answer = explain(state, moved(state.placement, blue_warrior_3=nb(E, "NW", "NE", "NW")))
    assert answer.ok and answer.cost == 2 and answer.movements[-1].kind == "endurance"


def test_an_elder_that_crosses_a_rock_and_back_leaves_a_table_where_nothing_has_moved_yet():
    """The blue elder crosses the rock sideways and crosses back: the table looks as it did. The companion says
    what every game says of such a picture (nothing has moved yet), logs nothing and never fails."""
    rock = nb(E, "E")
    state = position({E: "blue-elder-2", rock: "rock-1"}, {"blue-elder-2": "black"})
    there = nb(rock, "E")
    crossed = rules.apply(state, f"move cross blue-elder-2 {E}>{rock}>{there}")
    back = rules.apply(crossed, f"move cross blue-elder-2 {there}>{rock}>{E}")
    assert back.placement == state.placement and back.mp_left < state.mp_left
    answer = get_game("fog").reconcile(state, back.placement)
    assert answer.part_way and answer.rule == "unchanged" and not answer.choices and answer.step == "nothing has moved yet"


# ------------------------------------------------------------------------------------ property
TURNS = 2000


def random_turns(count: int, seed: int):  # type: ignore[no-untyped-def]
    """Random legal turns from random mid-game positions: (position, played turn, MP spent)."""
    rng = random.Random(seed)
    made = 0
    game = 0
    while made < count:
        game += 1
        options = Options.parse(rng.choice(["", "", "enhanced", "drive-off=advanced"]))
        state = new_game(BOARD, rng.choice([2, 3, 4]), seed=game, options=options)
        while state.phase == "draft":
            state = rules.apply(state, rng.choice(rules.legal_drafts(state)))
        while state.phase == "moving" and made < count:
            before = state
            for _ in range(rng.randrange(1, 8)):
                if state.mp_left == 0 or state.endurance_used:
                    break
                moves = list(legal_movements(state))
                if not moves:
                    break
                state = apply_move(state, rng.choice(moves))
            yield before, state, before.mp_left - state.mp_left
            made += 1
            state = rules.apply(state, "end-turn")


def test_explain_never_finds_a_dearer_sequence_than_the_one_played():
    checked = 0
    for before, after, played in random_turns(TURNS, seed=20261122):
        answer = explain(before, after)
        assert answer.ok, (answer.reason, after.history[len(before.history):])
        assert answer.cost is not None and answer.cost <= played, after.history[len(before.history):]
        replayed = apply_explanation(before, answer.options[0])
        assert {c: sorted(p) for c, p in replayed.placement.items()} == \
            {c: sorted(p) for c, p in after.placement.items()}
        checked += 1
    print(f"explain checked on {checked} random turns")
    assert checked == TURNS


# ------------------------------------------------------------------------------------ CLI
def test_explain_on_the_command_line(tmp_path: Path, capsys):
    state = position({E: "blue-elder-1"}, {"blue-elder-1": "black"})
    after = replace(state, placement=moved(state.placement, blue_elder_1=nb(E, "NW")))
    (tmp_path / "before.json").write_text(state.to_json())
    (tmp_path / "after.json").write_text(json.dumps({"placement": {c: list(p) for c, p in after.placement.items()}}))
    assert main(["explain", str(tmp_path / "before.json"), str(tmp_path / "after.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["choices"][0]["cost"] == 1 and out["choices"][0]["movements"] == [f"run blue-elder-1 {E}>{nb(E, 'NW')}"]
    (tmp_path / "after.json").write_text(after.to_json())
    assert main(["explain", str(tmp_path / "before.json"), str(tmp_path / "after.json")]) == 0
    assert "run blue-elder-1" in capsys.readouterr().out
