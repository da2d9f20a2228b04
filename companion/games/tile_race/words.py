"""The tile race's actions in the players' words: the Board page's log, the Replay page, and the
readings put to the players.

The notation (``move red-2 B3>B4>B5``) is what the game keeps and parses back; players do not speak
it. They say where a pawn came from and went, which tiles it collected and where it left them, and
how many it still carries ("Ada's red pawn 2 moves from B3 via B4 to B5, collecting the tile on B4
and carrying 2 tiles"). That needs the position the action was made in (where the pawn stood, which
squares held tiles), so a log is told by playing the history again from the game's start.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import FogCompanionError
from companion.games.tile_race import rules
from companion.games.tile_race.board import MOUNTAIN_SUPPLY, TILE_SUPPLY
from companion.games.tile_race.actions import Action, Correct, Mountain, Move, Pass, Remove, Tile, Undo, Wall
from companion.games.tile_race.grid import OUT, START, colour_of
from companion.games.tile_race.state import TileRaceState, new_game


def pawn(state: TileRaceState, piece: str) -> str:
    """A pawn as the players call it ("Ada's red pawn 2"; "red pawn 2" with no names), never its id."""
    colour = colour_of(piece)
    return (f"{state.name_of(colour)}'s " if state.name_of(colour) != colour else "") + \
        f"{colour} pawn {piece.rpartition('-')[2]}"


def _listed(items: Sequence[str]) -> str:
    """``A2``, ``A2 and A3``, ``A2, A3 and A4``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def listed(items: Sequence[str]) -> str:
    """Squares as a sentence lists them (the readings' words and the table's steps say them alike)."""
    return _listed(items)


CORRECTED = "The table was corrected by hand"  # whoever's turn it was: the hands set the table as it is


def _tiles(n: int) -> str:
    return f"{n} tile{'s' * (n != 1)}"


def between(edge: str) -> str:
    """An edge by the two squares it lies between ("between C4 and C5"), never its id (``C4|C5``)."""
    a, _, b = edge.partition("|")
    return f"between {a} and {b}"


SIDE_WORDS = {"S": "below", "N": "above", "W": "left of", "E": "right of"}  # as the board is drawn, red below
SUPPLY_WORDS = {TILE_SUPPLY: "the tile supply", MOUNTAIN_SUPPLY: "the mountain supply"}


def place(cell: str) -> str:
    """Where a piece is, after the piece's name, as players say it, never a place's id: "on C4",
    "between C4 and C5" (an edge, ``C4|C5``), "on the start space below G1" (``start-G1-S``), "in the
    tile supply" (``supply-tiles``)."""
    if "|" in cell:
        return between(cell)
    if cell.startswith("start-") and cell.count("-") == 2:
        _, corner, side = cell.split("-")
        return f"on the start space {SIDE_WORDS.get(side, 'beside')} {corner}"
    if cell in SUPPLY_WORDS:
        return f"in {SUPPLY_WORDS[cell]}"
    return f"on {cell}"


def told(before: TileRaceState, action: Action) -> str:
    """One action as a sentence, made in ``before`` (who did it, and what it did there)."""
    if isinstance(action, Correct):
        return CORRECTED
    if not isinstance(action, Move):
        return f"{before.name_of(action.colour)} {_deed(action)}"
    after = rules.apply(before, action)
    mv = before.moving
    origin = (mv.path[-1] if mv.path else mv.origin) if mv is not None else before.pawns[action.pawn]
    squares = [s for s in action.path if s != OUT]
    start = "its start space" if origin == START else origin
    words = f"{pawn(before, action.pawn)} moves {'on ' * (mv is not None)}from {start}"
    if squares:
        words += (f" via {_listed(squares[:-1])}" if len(squares) > 1 else "") + f" to {squares[-1]}"
    taken, left = _collected_and_left(before, action)
    parts = []
    if taken:
        parts.append(f"collecting the tile{'s' * (len(taken) > 1)} on {_listed(taken)}")
    if left:
        parts.append(f"leaving a tile on {'each of ' * (len(left) > 1)}{_listed(left)}")
    carried = after.carried(action.pawn)
    if action.path[-1] == OUT:
        lost = after.lost - before.lost
        parts.append(f"and leaves the grid{f', taking {_tiles(lost)} off it' if lost else ''}")
    elif carried:
        parts.append(f"carrying {_tiles(carried)}")
    if not parts:
        return words
    if parts[-1].startswith("and "):
        return words + (", " + ", ".join(parts[:-1]) if parts[:-1] else "") + " " + parts[-1]
    return words + ", " + _listed(parts)


def _collected_and_left(before: TileRaceState, action: Move) -> tuple[list[str], list[str]]:
    """The squares the pawn took a tile from and those it left one on, in the order it went. Told
    step by step, as the rules play it: a path may pass a square twice (the collect phase ends on a
    square it emptied, and the drop phase comes back to it), and only the step that changed a
    square's tile counts, so a square is never named for a tile it did not get."""
    taken: list[str] = []
    left: list[str] = []
    here = before
    for to in action.path:
        after = rules.apply(here, Move(action.pawn, (to,)))
        if to != OUT and (to in here.tiles) != (to in after.tiles):
            (taken if to in here.tiles else left).append(to)
        here = after
    return taken, left


def _deed(action: Action) -> str:
    """What a player's action (not a step) does, after their name."""
    if isinstance(action, Tile):
        return f"lays a tile on {action.square}"
    if isinstance(action, Wall):
        return f"stands a wall {between(action.edge)}"
    if isinstance(action, Remove):
        return f"takes away the wall {between(action.edge)}"
    if isinstance(action, Mountain):
        return f"puts a mountain on {action.square}"
    if isinstance(action, Undo):
        return "takes the movement back"
    assert isinstance(action, Pass), action  # a correction is the table's: said without a player
    return "has no action left: the turn passes"


def said(action: Action) -> str:
    """An action in words without the position it was made in (a history that no longer plays
    again from the start: a hand-edited saved game)."""
    if isinstance(action, Move):
        squares = [s for s in action.path if s != OUT]
        words = f"{colour_of(action.pawn)} pawn {action.pawn.rpartition('-')[2]}"
        if squares:
            words += f" moves to {squares[-1]}" + (f" via {_listed(squares[:-1])}" if len(squares) > 1 else "")
        return words + (" and leaves the grid" if action.path[-1] == OUT else "")
    return CORRECTED if isinstance(action, Correct) else f"{action.colour} {_deed(action)}"


_told: dict[tuple[object, ...], tuple[tuple[str, ...], list[str], list[TileRaceState | None]]] = {}


def log(state: TileRaceState) -> list[str]:
    """The history in the players' words, one line for each action, each told in the position it
    was made in (the history played again from the game's start). The last game's lines are kept,
    with the position after each: every view asks for them, a turn adds a line or two, and a reading
    asks of the position before it and after each of its choices, so only the actions past the part
    of the history they share with the last one are played again."""
    game = (state.players, state.seed, state.size, state.names)
    done, lines, positions = _told.get(game, ((), [], [new_game(len(state.players), state.seed, state.size,
                                                                state.names)]))
    shared = len(done) if state.history[:len(done)] == done else \
        next((k for k, (a, b) in enumerate(zip(state.history, done)) if a != b), min(len(done), len(state.history)))
    out, positions = lines[:shared], positions[:shared + 1]
    here = positions[-1]
    for text in state.history[shared:]:
        action = rules.parse_action(text)
        if here is None:
            out.append(said(action))
        else:
            try:
                out.append(told(here, action))
                here = rules.apply(here, action)
            except FogCompanionError:  # it no longer plays again: said without the position from here on
                out.append(said(action))
                here = None
        positions.append(here)
    if shared < len(state.history) or not done:  # a position the last one's lines did not hold
        _told.clear()  # one game at a time is played at a table
        _told[game] = (state.history, out, positions)
    return list(out)


def reading(state: TileRaceState, actions: Sequence[Action]) -> str:
    """A reading of the table put to the players: each of its actions told in turn."""
    out = []
    for action in actions:
        out.append(told(state, action))
        state = rules.apply(state, action)
    return "; ".join(out)
