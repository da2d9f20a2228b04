"""The island battle in the players' words on the Board page: the dots a tapped piece may go to,
what the turn still owes, the buttons worded as choices, the log, the last block set off, and why
a picture no legal action explains is refused.

A player at the table reads these instead of the notation: every piece by the name the pages use
(``blue soldier 1``, ``block 8``), every square as printed (``E5``), every facing as a compass word.
What only the companion may know (which standing blocks are live) is never in them: a block is
said safe or live once it is set off, as the rules reveal it.

Pure: standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from companion.games.base import Choice, Reconciliation, unfaced
from companion.games.island_battle import board as boards
from companion.games.island_battle import rules, table
from companion.games.island_battle.actions import (PAD, Action, Block, ChoosePad, Correct, Deploy, End, Enter,
                                                   Move, Remove, Shoot, Slide, Spare, Turn, pad_place, parse_action)
from companion.games.island_battle.board import BLOCK_BOX, BOX_SLOTS, box_of, pad_cell, pad_piece, rail_cell, slot_cell
from companion.games.island_battle.grid import (ALL_CHARACTERS, BLOCKS, FACINGS, LETTERS, PAD_PLACES, PLAYERS, around,
                                                forward, home_rows, kind, on_island, owner)
from companion.games.island_battle.state import IslandState

WAYS = {"N": "north", "E": "east", "S": "south", "W": "west"}
NUMBERS = ("no", "one", "two", "three", "four", "five")
_ID = re.compile(r"\b(?:(?:red|blue)-[sjt][0-9]+|block-[0-9]+)\b")


def called(state: IslandState) -> dict[str, str]:
    return {p: state.name_of(p) for p in PLAYERS}


def name(state: IslandState, piece: str) -> str:
    return table.piece_name(piece, called(state))


def _who(state: IslandState, player: str) -> str:
    """A player as a sentence's first word ("Ada", "Blue")."""
    who = state.name_of(player)
    return who[:1].upper() + who[1:]


def _own(piece: str) -> str:
    """A character as its own player says it, the colour left out: ``tank 1``."""
    return f"{kind(piece)} {piece.partition('-')[2][1:]}"


def in_words(state: IslandState, text: str) -> str:
    """A rule's reason with every piece id in it (``blue-s3``, ``block-2``) as the players call it."""
    return _ID.sub(lambda m: name(state, m.group(0)), text)


# ------------------------------------------------------------------------------------------ the dots
def _target(state: IslandState, action: Action, piece: str) -> tuple[str, str, int] | None:
    """The cell ``action`` takes ``piece`` to, the choice's words and its rank among the ways there
    (0: the usual one, offered first: straight on, or facing away from its player)."""
    if isinstance(action, Block) and action.block == piece:
        return action.square, f"on {action.square}", 0
    if isinstance(action, Deploy) and action.character == piece:
        place = pad_place(action.where)
        if place is not None:
            return pad_cell(action.player, place), f"on place {place} of the pad", 0
        way = str(action.facing)
        rank = 0 if way == forward(action.player) else 1 + FACINGS.index(way)
        return action.where, f"on {action.where} facing {WAYS[way]}", rank
    if isinstance(action, Move) and action.character == piece:
        rank = 0 if action.facing == state.facing.get(piece) else 1 + FACINGS.index(action.facing)
        return action.to, f"to {action.to} facing {WAYS[action.facing]}", rank
    if isinstance(action, Enter) and action.character == piece:
        return action.square, f"off the pad onto {action.square} facing {WAYS[forward(action.player)]}", 0
    if isinstance(action, Slide) and pad_piece(action.player) == piece:
        return rail_cell(action.player, action.column), f"its centre against column {action.column}", 0
    return None


def targets(state: IslandState, piece: str) -> dict[str, tuple[Choice, ...]]:
    """Where ``piece`` can go with one legal action now: a block's free squares at setup, a character's
    squares (each facing a way to choose) or pad places, the squares its moves with the roll end on
    (straight on first, then the quarter turns of its last pip), the square it steps onto from its pad;
    a pad due to slide, the columns its centre may go against."""
    out: dict[str, list[tuple[int, Choice]]] = {}
    for action in rules.legal_actions(state):
        found = _target(state, action, piece)
        if found is not None:
            cell, words, rank = found
            out.setdefault(cell, []).append((rank, Choice((str(action),), words)))
    return {cell: tuple(c for _, c in sorted(ways, key=lambda w: w[0])) for cell, ways in sorted(out.items())}


# ------------------------------------------------------------------------------------------ the turn owed
def _entries(state: IslandState, legal: Sequence[Action]) -> str:
    """The steps off the pad open now, as what the hands do: "put blue soldier 4 on F12"."""
    steps = [a for a in legal if isinstance(a, Enter)]
    if not steps:
        return ""
    way = WAYS[forward(state.player)]
    puts = " or ".join(f"{name(state, a.character)} on {a.square}" for a in steps)
    return f"bring a character in from the pad at the table: put {puts} facing {way}"


def owed(state: IslandState, legal: Sequence[Action]) -> str:
    """What the turn still owes, in words (the Board page shows it where End turn would be): the
    roll's move, a 0's choice, the pad's slide, the setup's next piece, a removal to choose."""
    if rules.outcome(state) is not None:
        return ""
    who, stage = _who(state, state.actor), state.stage
    if stage == "blocks":
        return (f"{who} places a block at the table: on a free square sharing no row or column with another "
                "block (one block per row and column)")
    if stage == "deploy":
        if len(state.on_island(state.player)) < 5:
            rows = " or ".join(str(r) for r in home_rows(state.player, state.size))
            return f"{who} puts a character down at the table: on row {rows}, facing any way"
        return f"{who} puts a character on a free place of the pad at the table"
    n = state.roll or 0
    if stage == "roll":
        return f"{who} throws the die into the tray (or taps Roll)" if state.die == "table" else f"{who} rolls"
    if stage == "options":
        choices = [c for c in (_entries(state, legal), "move the pad with the next roll (a button above)",
                               "turn a character on the spot (a button above)") if c]
        return f"{who} rolled a 0: choose one: " + "; or ".join(choices)
    if stage == "move":
        if End(state.player) in legal:
            lost = f"{name(state, state.chosen)} cannot use the {n}" if state.chosen else f"no character can use the {n}"
            return f"{lost[:1].upper()}{lost[1:]}: the move is lost; end the turn"
        squares = NUMBERS[n] + (" square" if n == 1 else " squares")
        mover = name(state, state.chosen) if state.chosen else "a character"
        turn = "it goes straight ahead" if n == 1 else "it turns only on its last pip"
        return f"{who}: move {mover} {squares}; {turn}"
    if stage == "slide":
        columns = " or ".join(a.column for a in legal if isinstance(a, Slide))
        return (f"{who} slides the pad {NUMBERS[n]} square{'s' if n != 1 else ''} along the edge at the table: its "
                f"centre against column {columns}")
    if stage == "enter":
        return f"{who}'s island is empty: " + _entries(state, legal)
    if stage == "done":
        shots = any(isinstance(a, Shoot) for a in legal)
        return f"{who} has moved: {'shoot (a button above) or ' if shots else ''}end the turn"
    if stage == "penalty":
        where = "island" if state.penalty == "island" else "pad"
        return (f"{who} may remove one of {state.name_of(state.player)}'s characters from the {where}, or spare "
                "them all (the buttons below)")
    return ""


def choice(state: IslandState, action: Action) -> str:
    """A turn's button worded as the choice it is ("Turn blue soldier 1 on the spot to face west")."""
    if isinstance(action, Turn):
        return f"Turn {name(state, action.character)} on the spot to face {WAYS[action.facing]}"
    if isinstance(action, ChoosePad):
        return "Move the pad with the next roll"
    if isinstance(action, Shoot):
        return f"Shoot at {action.target} with {name(state, action.character)}"
    if isinstance(action, Remove):
        return f"Remove {name(state, action.character)}"
    if isinstance(action, Spare):
        return "Spare them all"
    return table.said(action, called(state))


# ------------------------------------------------------------------------------------------ the log
def set_off(history: Sequence[str], revealed: Mapping[str, str]) -> dict[int, str]:
    """Place in the history -> the block a shot or a character landing there set off, told from the
    log alone: blocks never move once down (but by a correction), and the first shot or landing on a
    block's square sets it off; a live one sets off the blocks around it, which go with it."""
    standing: dict[str, str] = {}
    out: dict[int, str] = {}
    for i, text in enumerate(history):
        action = parse_action(text)
        if isinstance(action, Block):
            standing[action.square] = action.block
        elif isinstance(action, Correct):
            for piece, to in action.places:
                if piece in BLOCKS:
                    standing = {sq: b for sq, b in standing.items() if b != piece}
                    if to != "box":
                        standing[to] = piece
        square = (action.target if isinstance(action, Shoot) else action.to if isinstance(action, Move)
                  else action.square if isinstance(action, Enter) else None)
        block = standing.pop(square, None) if square else None
        if block is not None:
            out[i] = block
            if revealed.get(block) == "live":
                standing = {sq: b for sq, b in standing.items() if sq not in around(square)}
    return out


def log(state: IslandState) -> list[str]:
    """The history in the players' words: a player's own piece without its colour again ("Ada puts
    tank 1 on B2"), and a block set off said safe or live."""
    blocks = set_off(state.history, state.revealed)
    out = []
    for i, text in enumerate(state.history):
        action = parse_action(text)
        if isinstance(action, Deploy):
            place = pad_place(action.where)
            spot = (f"place {place} of the pad" if place is not None
                    else f"{action.where} facing {WAYS[str(action.facing)]}")
            line = f"{state.name_of(action.player)} puts {_own(action.character)} on {spot}"
        else:
            line = table.said(action, called(state))
        if i in blocks:
            line += f": {name(state, blocks[i])} was {state.revealed.get(blocks[i], 'set off')}"
        out.append(line)
    return out


def last_set_off(state: IslandState, blast: str) -> str:
    """The last block set off in words: a live one's blast (``blast``, as the view says it), or a
    safe one ("Block 8 was safe: nothing happened"), so a safe block is never left unsaid."""
    blocks = set_off(state.history, state.revealed)
    if not blocks:
        return blast
    last = blocks[max(blocks)]
    if state.revealed.get(last) == "safe":
        return f"{name(state, last).capitalize()} was safe: nothing happened"
    return blast


# ------------------------------------------------------------------------------------------ refusals
def _read_as(state: IslandState, piece: str, cell: str, way: str | None) -> Action | None:
    """The action a piece seen on ``cell`` (facing ``way``) looks like: a block set down, a character
    put down, stepped off its pad or moved (None: none of these)."""
    where = state.where.get(piece)
    player = state.actor
    if piece in BLOCKS:
        return Block(player, piece, cell) if on_island(cell) and piece not in state.blocks else None
    if piece not in ALL_CHARACTERS:
        return None
    if state.stage == "deploy":
        player = owner(piece)  # put down out of turn: said so, not that it is none of the other's
        if cell.startswith(f"pad-{owner(piece)}-"):
            return Deploy(player, piece, f"{PAD}{cell.rpartition('-')[2]}")
        return Deploy(player, piece, cell, way or forward(owner(piece))) if on_island(cell) else None
    if not on_island(cell):
        return None
    if where == PAD:
        return Enter(piece, cell)
    if where is not None and on_island(where) and where != cell:
        return Move(piece, where, cell, way or state.facing[piece])
    return None


def places(state: IslandState) -> dict[str, str]:
    """Places not printed with their name: the pads' places and the boxes (a square is called as printed)."""
    out = {slot_cell(BLOCK_BOX, k): "the box of blocks to place" for k in range(1, BOX_SLOTS + 1)}
    for p in PLAYERS:
        box = f"{state.name_of(p)}'s characters to place"
        out.update({slot_cell(box_of(p), k): box for k in range(1, BOX_SLOTS + 1)})
        out.update({pad_cell(p, k): f"{state.name_of(p)}'s pad, place {k}" for k in range(1, PAD_PLACES + 1)})
        out.update({boards.rail_cell(p, c): f"{state.name_of(p)}'s pad against {c}" for c in LETTERS})
    out[boards.TRAY] = "the dice tray"
    return out


def place(state: IslandState, cell: str) -> str:
    """Where a piece is, after its name, as players say it: "on D12", "on Bo's pad, place 3", "in Bo's
    box", "on Bo's pad against K", never a place's id (``pad-red-3``, ``box-blue-6``, ``rail-blue-K``)."""
    if on_island(cell):
        return f"on {cell}"
    for p in PLAYERS:
        if cell.startswith(f"{box_of(p)}-"):
            return f"in {state.name_of(p)}'s box"
    said = places(state).get(cell)
    if said is None:
        return f"on {cell}"
    return f"in {said}" if cell == boards.TRAY or cell.startswith(f"{BLOCK_BOX}-") else f"on {said}"


def _placed_at(state: IslandState, piece: str) -> str | None:
    """Where the setup has already put ``piece``, in words (None: still in its box, or play has begun)."""
    if state.stage not in ("blocks", "deploy"):
        return None
    if piece in BLOCKS:
        return state.blocks.get(piece)
    where = state.where.get(piece)
    if where == PAD:
        return f"place {state.places[piece]} of the pad"
    return where if where is not None and on_island(where) else None


def _why_there(state: IslandState, piece: str, cell: str | None, way: str | None) -> str | None:
    """Why ``piece`` may not stand on ``cell`` now, the rule in the players' words (None: not known)."""
    placed = _placed_at(state, piece)
    if placed is not None and cell is not None:
        return (f"{name(state, piece)} {place(state, cell)}: it was put on {placed} already, and a piece placed stays where it "
                f"was put; put it back on {placed}")
    action = None if cell is None else _read_as(state, piece, cell, way)
    if action is None or cell is None:
        return None
    reason = rules.why_not(state, action)
    if reason is None and isinstance(action, Enter) and way and way != forward(action.player):
        want = WAYS[forward(action.player)]
        return (f"{name(state, piece)} came onto {place(state, cell).removeprefix('on ')} facing {WAYS[way]}: a character comes off the pad facing "
                f"{want}, away from its player's edge; turn it to face {want}")
    if reason is None:
        return None
    return f"{name(state, piece)} {place(state, cell)}: {in_words(state, reason)}"


def _together(state: IslandState, pieces: Sequence[str], at: Mapping[str, str],
              ways: Mapping[str, str]) -> list[str]:
    """Pieces set down together during the setup, each of which alone would be a placing: the first
    as the placing it is, then the rule the others break once it is down (two of one player's
    characters: the other player places next; two blocks in one column)."""
    if state.stage not in ("blocks", "deploy") or len(pieces) < 2:
        return []
    for first in pieces:
        cell = at.get(first)
        action = None if cell is None else _read_as(state, first, cell, ways.get(first))
        if action is None or rules.why_not(state, action) is not None:
            continue
        after = rules.apply(state, action)
        then = [r for p in pieces if p != first and (r := _why_there(after, p, at.get(p), ways.get(p)))]
        if then:
            return [f"{table.said(action, called(state))}, then " + "; ".join(then)]
    return []


def refusal(state: IslandState, seen: Mapping[str, Sequence[str]], answer: Reconciliation) -> Reconciliation:
    """A picture no legal action explains, refused with the rule each moved piece breaks where it was
    put (a block sharing a row, a reinforcement facing the wrong way) instead of only naming it."""
    if answer.ok or answer.rule != "no-legal-move":
        return answer
    at: dict[str, str] = {}
    ways: dict[str, str] = {}
    for cell, pieces in table.in_own_slots(seen).items():
        for entry in pieces:
            piece, way = unfaced(entry)
            at[piece] = cell
            if way:
                ways[piece] = way
    reasons = [r for p in answer.offenders if (r := _why_there(state, p, at.get(p), ways.get(p)))]
    reasons = reasons or _together(state, answer.offenders, at, ways)
    if not reasons:
        return answer
    return Reconciliation.illegal("; ".join(reasons), answer.offenders, answer.rule)
