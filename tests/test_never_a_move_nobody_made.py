"""Never a move nobody made, in every game: a piece the camera loses is never read as a move.

At any table the camera can lose a piece: a wall stand's cap covers the tile beside it, a sleeve
rests on a counter, a sticker catches the lamp. The hands have made no move; the picture is the
game's own with one piece missing. Over random legal playouts of every game the session is shown
such a picture, with each time another piece hidden at random, and its log never gains an action
the hands did not make. The one reading it may still log is a piece lifted off as the rules' own
action by the player to move, which is exactly what the picture shows (the hands lifting it looks
the same), and nothing else of the game changes with it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from companion.session.events import InlineBus
from companion.games import Game, get_game, names
from companion.session.session import Session
from companion.store.store import GameStore
from companion.table.sync import compare

SEEDS = (1, 2, 3)
STEPS = 160         # random legal actions per playout
PICTURES = 40       # positions along it shown with a piece hidden


def playout(game: Game, seed: int) -> list[Any]:
    """States a table reaches in a random legal game."""
    rng = random.Random(seed)
    state = game.new_game(players=sorted(game.players)[min(seed, len(game.players) - 1)], seed=seed)
    states = [state]
    for _ in range(STEPS):
        actions = list(game.legal_actions(state)) if game.outcome(state) is None else []
        if not actions:
            break
        state = game.apply(state, rng.choice(actions))
        states.append(state)
    return states


def made_or_lifted(game: Game, before: Any, made: Any, now: Any, piece: str, logged: list[str]) -> bool:
    """What the log now holds leaves the game where the hands left the table (``made``; nothing logged:
    where it was), or there with exactly the hidden piece lifted off by the player to move: what the
    picture shows is that lift, and nothing else of the table changed."""
    if not compare(game, now, game.expected(made), game.expected(now)):
        return True
    changed = compare(game, now, game.expected(made), game.expected(now))
    mover = game.actor(before, game.parse_action(logged[0])) if logged else None
    return (len(changed) == 1 and changed[0].seen is None and piece in (changed[0].piece, changed[0].kind)
            and all(game.actor(before, game.parse_action(a)) in (mover, None) for a in logged[:1]))


def hands_move(game: Game, state: Any, rng: random.Random) -> Any:
    """A legal action the hands make on the table (one that changes what the camera sees), or none."""
    actions = [a for a in game.legal_actions(state) if game.expected(game.apply(state, a)) != game.expected(state)]
    return game.apply(state, rng.choice(actions)) if actions and rng.random() < 0.5 else state


@pytest.mark.parametrize("name", names())
@pytest.mark.parametrize("seed", SEEDS)
def test_a_piece_the_camera_loses_is_never_read_as_a_move(name: str, seed: int, tmp_path):
    game = get_game(name)
    rng = random.Random(seed * 104729)
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=game, clock=lambda: 1000.0)
    states = [s for s in playout(game, seed) if game.outcome(s) is None]
    shown = 0
    for state in rng.sample(states, min(PICTURES, len(states))):
        made = hands_move(game, state, rng)  # half the time the hands play, half the time they rest
        picture = {c: list(ps) for c, ps in game.expected(made).items()}
        if not picture:
            continue
        cell = rng.choice(sorted(picture))
        piece = rng.choice(picture[cell])
        picture[cell].remove(piece)  # covered: the camera no longer sees it
        session.start(state, verify=False)
        session.on_stable_change(picture)
        logged = [a for a, _ in session._states[1:] if a is not None]
        if logged:
            assert made_or_lifted(game, state, made, session.state, piece.partition("^")[0], logged), (
                f"{name}: {piece} on {cell} hidden after {made is not state and made.history[-1:]}, "
                f"and the log gained {logged}")
        shown += 1
    assert shown > 0


def others(game: Game, state: Any, actions: Sequence[str]) -> list[str]:
    """The actions of a reading made by another player than the one to move."""
    mover, out = game.actor(state, game.parse_action(actions[0])) if actions else None, []
    for action in actions:
        if game.actor(state, game.parse_action(action)) != mover:
            out.append(action)
        state = game.apply(state, action)
    return out


def test_the_tile_race_never_logs_the_other_pawn_collecting_a_tile_the_camera_lost(tmp_path):
    """Red moves a pawn while a tile beside blue's pawn is covered. The shortest reading of that
    picture is red's move and blue's pawn stepping onto the tile and back, collecting it: blue never
    moved, so it is not logged. Red's move is read, and the tile the camera lost is named."""
    game = get_game("tile-race")
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=game, clock=lambda: 1000.0)
    for state in playout(game, 1):
        for action in game.legal_actions(state):
            made = game.apply(state, action)
            if not str(action).startswith("move "):
                continue
            for cell, pieces in sorted(game.expected(made).items()):
                tiles = [p for p in pieces if p.startswith("T")]
                if not tiles or len(pieces) > 1:
                    continue
                picture = {c: list(ps) for c, ps in game.expected(made).items() if c != cell}
                answer = game.reconcile(state, {c: tuple(ps) for c, ps in picture.items()})
                if not any(others(game, state, choice.actions) for choice in answer.choices):
                    continue
                session.start(state, verify=False)
                session.on_stable_change(picture)
                logged = [a for a, _ in session._states[1:] if a is not None]
                assert not others(game, state, logged), logged
                said = session.status.question or (session.status.out_of_sync and session.status.out_of_sync.reason)
                assert said and "no longer sees" in said and cell in said, said
                return
    pytest.fail(f"no covered tile beside the other player's pawn in this playout")


def test_the_tile_race_reads_a_picture_that_lacks_the_mountain_just_put_down_without_failing():
    """Red put a mountain down and a hand still covers it: the picture is the table before, each
    mountain named by another sticker. Reading it once failed outright (nothing said at all)."""
    game = get_game("tile-race")
    state = game.from_json({
        "game": "tile-race", "size": 7, "players": ["red", "blue"],
        "pawns": {"red-1": "B2", "red-2": "start", "blue-1": "G7", "blue-2": "B7"}, "tiles": [],
        "walls": ["B6|B7", "D2|D3"], "mountains": ["C4", "C7", "E4", "G6"],
        "mountain_owners": {"C4": "blue", "C7": "red", "E4": "red", "G6": "blue"}, "mountains_left": [1, 1],
        "supply": 38, "lost": 0, "turn": 0, "removed": [None, None], "moving": None, "moved": False, "acted": False,
        "history": ["wall red D2|D3", "move red-1 A1", "wall blue B6|B7", "move blue-2 A7", "mountain red E4",
                    "move red-1 B1", "mountain blue C4", "move blue-2 B7", "mountain red C7", "move red-1 B2",
                    "mountain blue G6", "move blue-1 G7"], "seed": 101, "names": []})
    picture = {"B2": ["red-1"], "start-G1-S": ["red-2"], "G7": ["blue-1"], "B7": ["blue-2"], "B6|B7": ["W01"],
               "D2|D3": ["W02"], "C7": ["mountain-red-2"], "E4": ["mountain-red-3"], "C4": ["mountain-blue-1"],
               "G6": ["mountain-blue-2"]}
    answer = game.reconcile(state, picture)
    assert not answer.ok and answer.reason and "[" not in answer.reason
