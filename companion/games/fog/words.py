"""What The FOG says to players: islanders as players call them, people by name, moves in sentences.

The movement text (``push green-sailor-2 A1>A2``) is the log's and the API's machine form and must
parse back; players read this instead: "the green sailor moves from A1 to A2, pushing the red elder
on". Fields are named as printed on the board (``H1``), islanders by colour and type ("the blue
leader"), with what their token shows when a colour has two or more of that type ("the green
sailor (jumps)"), players by the names given at setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.errors import FogCompanionError
from companion.games.fog.board import Board
from companion.games.fog.movement import Movement
from companion.games.fog.state import GameState

# what tells two islanders of one colour and type apart: the characteristic printed beneath them
_WHICH = {"jump": "(jumps)", "push": "(pushes)", "cross": "(crosses)", "squeeze": "(squeezes)",
          "endurance": "(endurance)", "all-rounder": "(all-rounder)"}
_END = {"done": "ends the turn", "mp": "has spent every MP: the turn ends", "button": "ends the turn (button)",
        "panel": "ends the turn (panel)", "hourglass": "runs out of time: the hourglass ends the turn",
        "nobody-can-move": "can move nobody: the turn ends"}


def player_name(state: GameState, colour: str | None) -> str:
    """A colour's player by the name given at setup (the colour itself when nobody plays it)."""
    player = state.player_of(colour) if colour else None
    return player.name if player is not None else (colour or "nobody")


def piece_name(board: Board, piece: str) -> str:
    """A token as players call it: "the blue leader", "the green sailor (jumps)", "the rock"."""
    islander = board.islanders.get(piece)
    if islander is None:
        obstacle = board.obstacles.get(piece)
        return f"the {obstacle.kind}" if obstacle is not None else piece
    twins = [i for i in board.islanders.values() if i.nation == islander.nation and i.type == islander.type]
    which = f" {_WHICH.get(islander.characteristic, islander.characteristic)}" if len(twins) > 1 else ""
    return f"the {islander.nation} {islander.type}{which}"


def place_name(board: Board, cell: str) -> str:
    """A field as players call it: a printed field by its name (``H1``, ``S3``), a pier's field by its
    pier and place along it ("field 2 of pier 1", not ``P1-2``); a boat place
    by its boat and the islander it is for ("the green boat's leader place", "the green boat's sailor
    place, left in area C" when the boat has two), a stern as "the green boat's stern"; a woods hex as
    the woods. Never a boat place's or woods hex's id (``green-CR``, ``woods-DE``), printed nowhere."""
    c = board.cells.get(cell)
    if c is None or c.kind not in ("boat", "woods", "pier"):
        return cell
    if c.kind == "pier":
        fields = [o.id for o in board.cells.values() if o.kind == "pier" and o.pier == c.pier]
        return f"field {fields.index(cell) + 1} of pier {(c.pier or '').removeprefix('P')}"
    if c.kind == "woods":
        return "the woods"
    if c.place == "stern":
        return f"the {c.boat} boat's stern"
    twins = [o for o in board.cells.values() if o.kind == "boat" and o.boat == c.boat and o.place == c.place
             and o.islander_type == c.islander_type]
    which = f", {c.side} in area {c.area}" if len(twins) > 1 and c.side and c.area else ""
    return f"the {c.boat} boat's {c.islander_type} place{which}"


def names(board: Board, pieces: Sequence[str]) -> str:
    """Several tokens in one phrase: "the red elder (pushes) and the blue leader"."""
    said = [piece_name(board, p) for p in pieces]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# A picture the search gave up on (it reached the reading budget's bound): what the players can do.
TOO_MANY_WAYS = ("this change can be read too many ways to tell which move it was: put the pieces back and "
                 "make the move again one piece at a time, or accept the board as it is")


def not_theirs(state: GameState, pieces: Sequence[str]) -> str:
    """Islanders of another colour moved and nothing the active colour may do moves them so: they are
    not its to move (the words of an islander moved out of turn)."""
    return (f"{capital(names(state.board_data, pieces))} {'is' if len(pieces) == 1 else 'are'} not "
            f"{player_name(state, state.active_colour)}'s to move: another player's islander only moves when "
            "pushed, swapped or pulled back, and no legal sequence does that here")


def movement_words(board: Board, movement: Movement, where: Mapping[str, str]) -> str:
    """One movement as a clause: "the green sailor moves from A1 to A2, pushing the red elder on".
    ``where``: the tokens' fields before it (to say whom a push or swap moved)."""
    kind, piece, path = movement.kind, movement.islander, movement.path
    who = piece_name(board, piece)
    start, end = place_name(board, path[0]), place_name(board, path[-1])
    there = [p for p, c in where.items() if c == path[1] and p != piece] if len(path) > 1 else []
    extra = " (enhanced, 2 MP more)" if movement.enhanced else ""
    if kind == "swap" and there:
        return f"{who} swaps places with {names(board, there)} ({start} and {end}){extra}"
    if kind == "push":
        pushed = names(board, there) if there else "the islanders there"
        return f"{who} moves from {start} to {end}, pushing {pushed} on{extra}"
    if kind in ("jump", "cross"):
        over = "over" if kind == "jump" else "across the obstacle on"
        verb = "jumps" if kind == "jump" else "crosses"
        return f"{who} {verb} from {start} {over} {place_name(board, path[1])} to {end}{extra}"
    verb = {"run": "runs", "squeeze": "squeezes", "board": "boards", "swap": "swaps",
            "endurance": "makes its free endurance run"}.get(kind, kind)
    if kind == "drive-off":
        return f"{who} boards {end} from {start} and drives off whoever was there{extra}"
    if kind == "pull":
        return f"{who} swims from {start} to {end}, pulling the swimmer behind{extra}"
    return f"{who} {verb} from {start} to {end}{extra}"


def moves_words(state: GameState, movements: Sequence[Movement]) -> str:
    """Movements one after another, each told with the tokens where the ones before left them."""
    board, where = state.board_data, dict(state.where)
    said = []
    for m in movements:
        said.append(movement_words(board, m, where))
        where[m.islander] = m.path[-1]
    return ", then ".join(said) if said else "nothing moved"


def action_words(state: GameState, text: str, mover: str | None = None) -> str:
    """One logged action in words for the log: "Ann: the blue leader runs from H1 to D2".
    ``state``: a state of the game (names and the board; positions are not needed); ``mover``: the
    colour that moved last, whose turn an ``end-turn`` ends."""
    from companion.games.fog.actions import Correction, Draft, EndTurn, parse_action

    try:
        action = parse_action(text)
    except (FogCompanionError, ValueError):
        return text
    board = state.board_data
    if isinstance(action, Draft):
        return f"{player_name(state, action.colour)} drafts {piece_name(board, action.islander)}"
    if isinstance(action, EndTurn):
        said = _END.get(action.reason, "ends the turn")
        return f"{player_name(state, mover)} {said}" if mover else "The turn ends"
    if isinstance(action, Correction):
        moved = [f"{piece_name(board, m.piece)} {'off the board' if m.target == '-' else 'to ' + m.target}"
                 + ("" if m.source == "-" else f" (was on {m.source})") for m in action.moves]
        return "The table was corrected by hand: " + "; ".join(moved)
    owner = state.owners.get(action.movements[0].islander)
    said = ", then ".join(movement_words(board, m, {}) for m in action.movements)
    return f"{player_name(state, owner)}: {said}" if owner else capital(said)


def log_lines(state: GameState) -> list[str]:
    """The history in words, oldest first (an end of turn named for whoever moved just before)."""
    out, mover = [], None
    for text in state.history:
        out.append(action_words(state, text, mover))
        words = text.split()
        mover = state.owners.get(words[2]) if words[0] == "move" and len(words) > 2 else None
    return out


def standing_lines(state: GameState) -> list[str]:
    """The standing during a game, people by name: the rescue points each would score if the FOG
    came now (the Score page shows these until the game is over, then the full breakdown)."""
    from companion.games.fog.scoring import score

    report = score(state)
    out = [f"Round {state.round}, {player_name(state, state.active_colour)} to play."
           if state.active_colour else f"Round {state.round}."]
    for s in report.standings:
        out.append(f"{s.name} ({' and '.join(s.colours)}): {s.score} RP so far, {s.lost} lost to the FOG, "
                   f"{s.commoners_rescued} commoners rescued")
    return out
