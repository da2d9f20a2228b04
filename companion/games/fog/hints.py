"""What The FOG tells the framework's reading, and the words its own reading says.

The FOG reads a picture with its own A* search (:mod:`explain`: a turn is any number of moves
within the MP left, a move several movements), so its table overrides ``reconcile``; but what
the reading says beyond the search is the framework's, in The FOG's words: :class:`FogHints`
says whose an islander is and what a move out of turn, or a search that reached the reading
budget's bound, is called, and the framework's :func:`~companion.games.reading.out_of_turn` gives the
one out-of-turn answer every game gives. The rest here is what a reading of The FOG asks the
players (:func:`hidden_in`), a reading in their words (:func:`choice`) and the one swap two of a
player's islanders make alike (:func:`either_swap`). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.errors import FogCompanionError
from companion.games.fog import rules
from companion.games.fog.actions import Correction, Draft, EndTurn
from companion.games.fog.explain import Option
from companion.games.fog.movement import Movement, MoveAction
from companion.games.fog.state import GameState
from companion.games.fog.words import TOO_MANY_WAYS, capital, moves_words, names, not_theirs, piece_name, player_name
from companion.games.reading import Hints, Picture
from companion.games.reading.hints import Readable
from companion.games.reconciliation import Choice

FogAction = Draft | EndTurn | Correction | MoveAction  # every action of The FOG, as parse_action reads it


class FogHints(Hints[GameState, FogAction]):
    """Whose an islander is (the colour that plays it; the nation in solo; an obstacle is nobody's) and
    The FOG's words for an islander moved out of turn and for a picture read too many ways."""

    def owner(self, game: Readable[GameState, FogAction], state: GameState, piece: str) -> str | None:
        islander = state.board_data.islanders.get(piece)
        if islander is None:
            return None
        return islander.nation if state.mode == "solo" else state.owners.get(piece)

    def out_of_turn(self, game: Readable[GameState, FogAction], state: GameState, pieces: Sequence[str],
                    owners: Sequence[str]) -> str:
        return not_theirs(state, pieces)

    def unread(self, game: Readable[GameState, FogAction], state: GameState, picture: Picture, gave_up: bool) -> str:
        """The FOG refuses a picture in its own words (:mod:`explain` names the islander and the rule);
        one its search gave up on is said so here."""
        return TOO_MANY_WAYS if gave_up else super().unread(game, state, picture, gave_up)


def choice(state: GameState, option: Option) -> Choice:
    """A reading in words for the players (the actions keep their notation for the log); the
    preparation bonuses it hands out said after it."""
    bonus = f"preparation bonus {' and '.join(str(g) for g in option.gains)}" if option.gains else ""
    return Choice(tuple(str(a) for a in option.actions), f"{capital(moves_words(state, option.movements))} "
                  f"({option.cost} MP)", option.to_dict(), bonus)


def either_swap(state: GameState, options: Sequence[Option]) -> Option | None:
    """The same swap made by the other islander: two of the player's own islanders swapped look the
    same whichever made it, and cost the same. Only the hands' order tells which moved (the one
    lifted first); the log names that one (None: the reading is not such a swap)."""
    if len(options) != 1 or len(options[0].movements) != 1 or options[0].movements[0].kind != "swap":
        return None
    swap = options[0].movements[0]
    there = [p for p in state.placement.get(swap.path[1], ()) if p in state.board_data.islanders]
    if len(there) != 1:
        return None
    mirror = Movement("swap", there[0], (swap.path[1], swap.path[0]))
    try:
        after, made = rules.apply(state, MoveAction((mirror,))), rules.apply(state, MoveAction((swap,)))
    except FogCompanionError:
        return None
    if after.placement != made.placement or after.mp_left != made.mp_left:
        return None
    return replace(options[0], movements=(mirror,))


def hidden_in(state: GameState, option: Option, seen: Mapping[str, Sequence[str]]) -> str | None:
    """Why a reading must be confirmed by the players, or None when it is what they most likely did.

    The cheapest reading is not always the one a person made. Three readings hide something the
    camera cannot see (rules interpretation 31): an islander that ends where it started (pushed
    others and ran back), a move in which none of the active colour's islanders changed field
    (another colour's islander dragged out of turn looks like a push and a run back), and the
    free endurance run while MP are left (it ends the turn).
    """
    before, after = state.where, {p: c for c, ps in seen.items() for p in ps}
    board = state.board_data
    movers = dict.fromkeys(m.islander for m in option.movements)
    back = [i for i in movers if before.get(i) == after.get(i)]
    own = set(state.islanders_of(state.active_colour)) if state.active_colour else set()
    who = player_name(state, state.active_colour)
    changed = [p for p in set(before) | set(after) if before.get(p) != after.get(p)]
    asked = _did(state, option, back)
    if changed and not own & set(changed):
        return (f"Only {names(board, sorted(changed))} moved, and it is {who}'s turn. {asked} "
                f"({option.cost} MP) If a piece was moved out of turn, put it back.")
    if back:
        return f"{asked} ({option.cost} MP) If not, put the pieces back."
    free = [m.islander for m in option.movements if m.kind == "endurance"]
    if free and state.mp_left - option.cost > 0:
        return (f"Was the last step of {piece_name(board, free[0])} its free endurance run, which ends {who}'s turn "
                f"with {state.mp_left - option.cost} MP unused, or a plain run that keeps the turn going?")
    return None


def _did(state: GameState, option: Option, back: Sequence[str]) -> str:
    """What a reading says happened, asked: "Did the green sailor push the red elder and run back?"
    (the pushed or swapped tokens named from where they stood)."""
    board, where = state.board_data, state.where
    first = option.movements[0]
    hand = {"push": "push", "swap": "swap places with"}.get(first.kind)
    there = [p for p, c in where.items() if len(first.path) > 1 and c == first.path[1] and p != first.islander]
    mover = piece_name(board, first.islander)
    if hand and there:
        return f"Did {mover} {hand} {names(board, there)}{' and run back' if first.islander in back else ''}?"
    return f"Was it this: {moves_words(state, option.movements)}?"
