"""A red message speaks the players' words, in every game: it names the piece that moved as they call
it ("Bo's red pawn 2", "the tile on G6", "the wall between F6 and G6") and says what differs, never an
id the companion keeps inside (``red-2``, ``T01``, ``W03``, ``card-K``, ``F6|G6``, ``start-G7-N``,
``pad-red-3``).

Over random legal playouts of every game the table is shown as the game has it with one piece set
down somewhere no action puts it (another square, a player's start or home, the card spot) or
kept in a hand: whatever
the game answers - why no play explains it, a step still to finish, a question - is read for ids."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.games import Game, get_game, names

# a piece id (red-2, card-12, green-warrior-1), an edge (F6|G6), a place id (start-G7-N, pad-red-3),
# a card id (card-K); and each game's own piece and place ids (:func:`ids_of`)
IDS = re.compile(r"\b[a-z]+-[a-z]*\d+\b|@|\|[A-Z]|\b(?:supply|start|rail|pad|box|home|goal|card)-[A-Za-z0-9]")


def ids_of(game: Game, state: Any) -> re.Pattern[str]:
    """The ids only the companion knows in this game: every piece's (T01, W03: not printed on anything)
    and every place's that is not printed on the board as a coordinate (start-G1-E, box-blue-6)."""
    layout = game.layout(state)
    inner = [*layout.pieces, *(c for c in layout.cells if "-" in c)]
    return re.compile("|".join([IDS.pattern, *(rf"(?<![\w-]){re.escape(i)}(?![\w-])" for i in inner)]))
STEPS, PICTURES = 60, 25


def positions(game: Game, seed: int) -> list[Any]:
    """States a table reaches in a random legal game, every few turns."""
    rng = random.Random(seed)
    state = game.new_game(max(game.players), seed)
    states = [state]
    for _ in range(STEPS):
        actions = list(game.legal_actions(state)) if game.outcome(state) is None else []
        if not actions:
            break
        state = game.apply(state, rng.choice(actions))
        states.append(state)
    return states


def one_moved(game: Game, state: Any, rng: random.Random) -> dict[str, tuple[str, ...]]:
    """The table as the game has it with one piece picked up and set down on another place (now and
    then kept in the hand: off the table)."""
    seen = {cell: list(pieces) for cell, pieces in game.expected(state).items()}
    cell = rng.choice(sorted(c for c, ps in seen.items() if ps) or [""])
    if not cell:
        return {}
    piece = rng.choice(seen[cell])
    seen[cell].remove(piece)
    if rng.random() < 0.8:
        to = rng.choice(sorted(set(game.layout(state).cells) - {cell}))
        seen.setdefault(to, []).append(piece)
    return {c: tuple(ps) for c, ps in seen.items() if ps}


@pytest.mark.parametrize("name", names())
def test_a_red_message_names_pieces_and_places_in_words(name: str):
    game, rng, told, bad = get_game(name), random.Random(7), 0, []
    for seed in (1, 2):
        states = positions(game, seed)
        for state in rng.sample(states, min(PICTURES, len(states))):
            seen = one_moved(game, state, rng)
            if not seen:
                continue
            answer = game.reconcile(state, seen)
            said = [answer.reason or "", answer.step or "", answer.question or "",
                    *(c.summary for c in answer.choices)]
            told += bool(answer.reason)
            ids = ids_of(game, state)
            bad += [text for text in said if ids.search(text)]
    assert not bad, f"{name}: " + "\n".join(bad)
    assert told, f"{name}: no picture was red"


def test_a_card_the_deck_does_not_have_is_said_as_the_card_on_the_spot():
    """A card from another deck (its marker one this deck never prints) laid on the card spot: the
    players hear of the card on the spot, not of the id the companion gave it."""
    game = get_game("partner-race")
    state = game.new_game(4, 1)
    seen = {**game.expected(state), "card-spot": ("card-99",)}
    answer = game.reconcile(state, seen)
    assert answer.reason == ("the card on the card spot is not a card of this deck: lay the card played on the "
                             "card spot")
    assert not ids_of(game, state).search(answer.reason)


@pytest.mark.parametrize("name", names())
def test_accepting_a_board_the_game_cannot_record_says_why_in_words(name: str):
    """"Accept the board as it is" over a table with one piece set down anywhere (a block in a
    player's box, a soldier in the blocks' box, a piece in the dice tray): taken as the game's, or
    refused saying why as the panel says it, in the players' words: never "box-blocks-1", never the
    correction's notation."""
    from companion.errors import FogCompanionError
    from companion.table.wayout import in_words

    game, rng, refused, bad = get_game(name), random.Random(11), 0, []
    for seed in (1, 2):
        states = positions(game, seed)
        for state in rng.sample(states, min(PICTURES, len(states))):
            seen, action = one_moved(game, state, rng), None
            try:
                action = str(game.correction(state, seen))
                game.apply(state, action)
            except FogCompanionError as exc:
                refused += 1
                said = in_words(game, state, str(exc), action)
                if ids_of(game, state).search(said) or (action and action in said):
                    bad.append(said)
    assert not bad, f"{name}: " + "\n".join(bad)
    assert refused, f"{name}: every table was accepted"
