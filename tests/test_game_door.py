"""Every registered game keeps the promises of the door, checked over random playouts.

For every game in ``companion.games.names()``: an action's text parses back to an equal action,
``apply`` never changes the state it is given, and the picture the camera would see after any
legal action is read back (``reconcile``) as legal actions that lead to that same picture.
Whose turn it is comes from the rules and is who the view shows to move.
The FOG's panel view and LED scene also agree on where the FOG goes next, and what each game
declares of itself (counters, phases, picks, turn actions) is what its view and setup show. A game
with secrets per seat shows no seat, and not the shared table, anything of another seat's secrets.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.games import CHANCE, INFORMATION, SHADES, Game, TableStatus, get_game, names, read_key
from companion.games.parts import Seats
from companion.games.fog.table import WARN
from tests.tables import BOARD, position

SEEDS = (1, 2, 3)
STEPS = 300         # actions per playout (the draft, then many turns)
SAMPLE = 4          # legal actions checked in full at each step


def frozen(game: Game, state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True)


def playout(game: Game, seed: int) -> list[Any]:
    """States along one random game (the states a table can reach)."""
    rng = random.Random(seed)
    players = sorted(game.players)[min(seed, len(game.players) - 1)]
    state = game.new_game(players=players, seed=seed)
    states = [state]
    for _ in range(STEPS):
        if game.outcome(state) is not None:
            break
        actions = list(game.legal_actions(state))
        if not actions:
            break
        state = game.apply(state, rng.choice(actions))
        states.append(state)
    return states


@pytest.mark.parametrize("name", names())
@pytest.mark.parametrize("seed", SEEDS)
def test_actions_parse_back_apply_never_mutates_and_pictures_read_back(name: str, seed: int):
    game = get_game(name)
    rng = random.Random(seed * 7919)
    read_back = 0
    for state in playout(game, seed):
        actions = list(game.legal_actions(state))
        for action in rng.sample(actions, min(SAMPLE, len(actions))):
            text = str(action)
            assert game.parse_action(text) == action and str(game.parse_action(text)) == text
            before = frozen(game, state)
            after = game.apply(state, action)
            assert frozen(game, state) == before, f"{text} changed the state it was applied to"
            assert game.from_json(json.loads(frozen(game, after))) == after  # the saved form parses back
            picture = game.expected(after)
            if picture == game.expected(state):
                continue  # nothing moved on the table (a draft pick, the end of a turn)
            answer = game.reconcile(state, picture)
            assert answer.ok, f"{text}: the picture after it was read as illegal: {answer.reason}"
            for choice in answer.choices:
                replayed = state
                for step in choice.actions:
                    replayed = game.apply(replayed, step)
                assert game.expected(replayed) == picture, f"{text}: {choice.summary} leads elsewhere"
            read_back += 1
    assert read_back > 0  # the playout moved pieces, so the camera side was exercised


@pytest.mark.parametrize("name", names())
@pytest.mark.parametrize("seed", SEEDS)
def test_whose_turn_it_is_is_the_rules_own_and_the_panel_shows_the_same(name: str, seed: int):
    """Whose turn it is (``active``) is read from the state by the rules, not from a page's dict: while
    the game runs, its first is the player the view shows to move, and every legal action is entered
    by one of those to act (or by anyone at the table); once the game is over nobody is to act."""
    game = get_game(name)
    for state in playout(game, seed):
        whose = game.active(state)
        if game.outcome(state) is not None:
            assert whose == (), f"the game is over, yet {whose} are to act"
            continue
        assert whose and whose[0] == game.view(state)["active"], (whose, game.view(state)["active"])
        assert len(set(whose)) == len(whose)
        for action in game.legal_actions(state):
            assert game.actor(state, action) in (*whose, None), f"{action} is entered by someone not to act"


def keeps_secrets(name: str) -> bool:
    """A game whose state holds secrets per seat (the partner race declares hands, but its state never
    holds a card in one: it has no secret of its own to keep)."""
    game = get_game(name)
    return game.declaration.information == "per-seat" and type(game.seating).secrets_changed is not Seats.secrets_changed


@pytest.mark.parametrize("name", [n for n in names() if keeps_secrets(n)])
def test_a_seat_s_view_is_unchanged_when_the_secrets_it_may_not_know_are_changed(name: str):
    """Each seat (named by its first colour) and the shared table (None) see the same view when every
    secret they may not know is changed (another seat's face-down pieces, markers, closed fist)."""
    game = get_game(name)
    changed = 0
    for step, state in enumerate(playout(game, 2)):
        if step % 10:
            continue
        seats = [p["colours"][0] for p in game.view(state)["players"]]
        for seat in (*seats, None):
            other = game.secrets_changed(state, seat, step)
            changed += frozen(game, other) != frozen(game, state)
            assert game.view(other, seat) == game.view(state, seat), f"{seat} sees a secret at step {step}"
    assert changed, "the playout had secrets to change"


@pytest.mark.parametrize("fog", range(len(BOARD.fog_fields)))
def test_the_panel_and_the_leds_agree_on_the_rows_the_fog_takes_next(fog: int):
    """One definition: the rows blinking amber on the LEDs are the panel's "next" rows, at every FOG position."""
    game = get_game("fog")
    state = position({"C3": "blue-elder-1"}, {"blue-elder-1": "black"}, fog=fog)
    panel_next = set(game.view(state)["fog"]["next"])
    scene = game.led_scene(state, TableStatus())
    rows = list(BOARD.beach_rows) + ["shore"]
    led_next = {row for row, light in zip(rows, scene.lights("status"), strict=True)
                if light.colour == WARN and light.effect == "blink"}
    assert panel_next == led_next
    if fog + 1 < len(BOARD.fog_fields):
        assert panel_next == set(BOARD.fog_fields[fog + 1].swallows) - set(game.view(state)["fog"]["swallowed"])


@pytest.mark.parametrize("name", names())
def test_what_a_game_declares_is_what_its_view_and_setup_show(name: str):
    """The pages draw a game from its declaration: its player counts are the ones its setup asks, each
    counter it declares is in its view (a value of a total no more than the total), each phase its view
    names is declared, the picks of a phase of picks are exactly its legal actions, its turn actions
    and how a turn ends are the ones the view offers, and what it shades on the board are groups of its
    places (the pages shade nothing by a key of their own)."""
    game = get_game(name)
    kind = game.declaration
    assert (kind.name, kind.title, kind.players) == (game.name, game.title, tuple(game.players))
    assert kind.chance in CHANCE and kind.information in INFORMATION
    asked = {q["name"]: q for q in game.setup_schema()}
    assert sorted(asked["players"]["choices"]) == sorted(kind.players)
    assert set(kind.features) <= {"turn-over"}
    phases_seen, picks_made, shaded = set(), 0, set()
    groups = {cell.group for cell in game.layout().cells.values() if cell.group}
    for state in playout(game, 1):
        view = game.view(state)
        for shade in kind.shades:
            assert shade.look in SHADES and isinstance(read_key(view, shade.key), list)
            shaded |= set(read_key(view, shade.key))
        phase = kind.phase(view["phase"])
        phases_seen.add(view["phase"])
        if kind.phases and view["phase"] != "finished":
            assert phase is not None, f"the view's phase {view['phase']!r} is not declared"
        for counter in kind.counters:
            assert counter.key.split(".")[0] in view, f"counter {counter.key} is not in the view"
            value, total = read_key(view, counter.key), read_key(view, counter.total) if counter.total else None
            if counter.unit and (not counter.phases or view["phase"] in counter.phases):
                assert isinstance(value, int), f"{counter.key} is spent, so it is a number"
            if total is not None and view["phase"] in (counter.phases or (view["phase"],)):
                assert isinstance(total, int) and 0 <= value <= total
        legal = {str(a) for a in game.legal_actions(state)}
        if phase is not None and phase.picks and game.outcome(state) is None:
            picks = game.picks(state)
            assert picks and set(picks.values()) == legal, "a phase of picks offers every legal action as a pick"
            picks_made += 1
        for offered in view.get("turn_actions", []):
            # a button's short form ("roll") is completed as the session completes it, then it is a legal action
            full = game.complete_action(state, offered["action"])
            assert offered["action"].split()[0] in kind.turn_actions and full in legal
        if kind.turn_ends:  # said where the End-turn button would be: a game without one
            assert view.get("end_turn") is False
        for key in ("moved", "placement", "names", "stacks", "supplies"):  # keys every page reads the same way
            if key in view:
                assert isinstance(view[key], list if key == "moved" else dict), f"the view's {key} is read as any game's"
    assert not kind.phases or {p.name for p in kind.phases} <= phases_seen | {"finished"}
    assert picks_made or not any(p.picks for p in kind.phases)
    assert shaded & groups or not kind.shades, "a game that declares shades shades places in a game played out"
