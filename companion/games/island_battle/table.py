"""The island battle at the table: what the camera should see, and what a picture of it means.

The camera sees each character and block by its own marker: on a square of the island, on a
place of its pad, or in a box beside the island before the setup puts it down. A piece the rules
took out of the game (a character shot or blasted, a block set off) is the players' to lift off:
it is listed as taken off, never expected, and a picture where it still stands is no
disagreement. The picture names a character on the island with the way its marker faces
(``red-s1^N``): a move is read with the facing it ends in, and a quarter turn on the spot (option 3
of a 0) is read as a turn. A turn made when the rules allow none is refused with the reason. A
character whose facing the picture does not say (a move entered on the panel) may face any way:
then the readings that differ only in their facing are a question to the players, never a guess.

Two more pieces move in play. Each pad carries its own marker on its handle (``pad-red`` on
``rail-red-F``: the pad's centre against F): the handle seen along another column when the pad is
due to move is the slide, the characters on the pad riding with it. With ``die=table`` the die
(one piece, a marker on each face, named with the face up: ``die^3``) lies in the tray: a new face
up there when a roll is due is the roll; when none is due it is a disagreement, said in words. The
die out of sight (in a hand) is no change: it lies in the tray as the last roll left it.

The search over legal plays and the part-way test are the framework's (:mod:`companion.games.reading`),
told by the island's hints (``hints.py``) which actions to try and when a picture shows a state
(:func:`matches`); what a picture no play explains breaks is said here (:func:`refused`) and in
``words.refusal``.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.errors import IllegalMoveError
from companion.games.base import Reconciliation, faced, unfaced
from companion.games.island_battle import rules
from companion.games.island_battle.actions import (PAD, Action, Block, Correct, Deploy, Enter, Move, Remove, Roll,
                                                   Shoot, Slide, Turn, pad_place)
from companion.games.island_battle.board import (BLOCK_BOX, DIE, TRAY, box_named, box_of, box_slot, pad_cell,
                                                pad_piece, rail_cell)
from companion.games.island_battle.grid import (ALL_CHARACTERS, BLOCKS, LETTERS, PAD_PLACES, PLAYERS, forward, kind,
                                                on_island, owner, pad_column, pad_start)
from companion.games.island_battle.state import BOX, GONE, IslandState

PIECES = frozenset(ALL_CHARACTERS + BLOCKS)
PADS = tuple(pad_piece(p) for p in PLAYERS)
PLACED = ALL_CHARACTERS + BLOCKS + PADS  # every piece the game has on a place of its own


def die_up(state: IslandState) -> str | None:
    """The face the die shows in the tray (``"3"``): the last roll's, with a die thrown at the table;
    None before the first roll (the die is kept out of the tray till then) or when the companion rolls."""
    if state.die != "table":
        return None
    for text in reversed(state.history):
        if text.startswith("roll "):
            return text.rpartition(" ")[2]
    return None


def place_of(state: IslandState, piece: str) -> str | None:
    """The cell a piece stands on as the game has it (None: out of the game)."""
    if piece in PADS:
        seat = PLAYERS.index(piece.partition("-")[2])
        return rail_cell(PLAYERS[seat], LETTERS[state.pads[seat] - 1])
    if piece == DIE:
        return TRAY if die_up(state) is not None else None
    if piece in BLOCKS:
        return state.blocks.get(piece, None if piece in state.revealed else box_slot(piece))
    where = state.where[piece]
    if where == GONE:
        return None
    if where == BOX:
        return box_slot(piece)
    if where == PAD:
        return pad_cell(owner(piece), state.places[piece])
    return where


def expected(state: IslandState) -> dict[str, tuple[str, ...]]:
    """Cell -> the pieces on it, sorted: every piece still in the game."""
    out: dict[str, list[str]] = {}
    for piece in PLACED + (DIE,):
        cell = place_of(state, piece)
        if cell is not None:
            out.setdefault(cell, []).append(piece)
    return {c: tuple(sorted(ps)) for c, ps in out.items()}


def pictured(state: IslandState) -> dict[str, tuple[str, ...]]:
    """What the camera should see: :func:`expected` with each character on the island named with the
    way it faces (``red-s1^N``), and the die with the face up (``die^3``), as the camera's picture names them."""
    shows = {**state.facing, DIE: die_up(state)}
    return {c: tuple(sorted(faced(p, shows.get(p)) for p in ps)) for c, ps in expected(state).items()}


def die_hidden(state: IslandState, seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """The die, out of sight (in a hand, about to be thrown), counted in the tray with the face the
    last roll left up: picking the die up is no change. Named with its face (``die^3``), as seen."""
    face = die_up(state)
    if face is None or any(unfaced(p)[0] == DIE for p in seen.get(TRAY, ())):
        return {}
    return {faced(DIE, face): TRAY}


def die_seen(state: IslandState, seen: Mapping[str, Sequence[str]]) -> str | None:
    """The face up in the tray (only with a die thrown at the table; elsewhere the die counts for nothing)."""
    if state.die != "table":
        return None
    return next((way for way in (unfaced(p)[1] for p in seen.get(TRAY, ()) if unfaced(p)[0] == DIE) if way), None)


def taken_off(state: IslandState) -> tuple[str, ...]:
    """Characters shot or blasted and blocks set off: out of the game, for the players to lift off."""
    return tuple(p for p in ALL_CHARACTERS + BLOCKS if place_of(state, p) is None)


def _own_box(piece: str) -> str:
    return BLOCK_BOX if piece in BLOCKS else box_of(owner(piece))


def in_own_slots(seen: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """The picture with a piece seen in another slot of its own box counted in its own slot: a piece
    put back in the box is in the box, whichever of its box's slots a hand chose."""
    out: dict[str, list[str]] = {}
    for cell, pieces in seen.items():
        for entry in pieces:
            piece = unfaced(entry)[0]
            box = box_named(cell)
            at = box_slot(piece) if box is not None and piece in PIECES and box == _own_box(piece) else cell
            out.setdefault(at, []).append(entry)
    return {cell: tuple(sorted(pieces)) for cell, pieces in out.items()}


def _read_at(player: str, read_centre: int, pad_centre: int, place: int) -> int | None:
    """The place of a layout with the pad centred on ``read_centre`` that a character on ``place`` of
    the pad lying at ``pad_centre`` is read on (None: off that layout's pad, out of any place)."""
    column = pad_column(player, pad_centre, place)
    return next((k for k in range(1, PAD_PLACES + 1) if pad_column(player, read_centre, k) == column), None)


def _slid_from(state: IslandState) -> dict[str, int]:
    """Player -> the column their pad stood at before the slide that is the game's last action (rolls
    after it aside): till the camera follows the new layout, its picture is read against that one."""
    last = next((text for text in reversed(state.history) if not text.startswith("roll ")), "")
    if not last.startswith("slide "):
        return {}
    player = last.split()[1]
    earlier = [t for t in state.history if t.startswith(f"slide {player} ")][:-1]
    old = LETTERS.index(earlier[-1].split()[2]) + 1 if earlier else pad_start(player)
    return {player: old}


def riding(state: IslandState, seen: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """The picture with the characters riding a pad counted on their own places while the camera reads
    the pad against other places than where it lies: just after a slide the picture may still be read
    against the pad's old places (till the camera follows the layout), and a pad whose handle the
    camera sees elsewhere than the game has it (a slide entered on the panel, or undone, the hands not
    there yet) carries its characters with it. A rider is counted on its place when the picture reads it
    where the pad, lying where it does, puts it (or not at all: off the places read); a rider anywhere
    else is left where it is seen, to be read as the move it is."""
    centres: dict[str, list[tuple[int, int]]] = {}  # player -> (the pad's centre read against, where it lies)
    at = where_seen(seen)
    for seat, player in enumerate(PLAYERS):
        handle = at.get(pad_piece(player), "")
        lies = LETTERS.index(handle.rpartition("-")[2]) + 1 if handle.startswith(f"rail-{player}-") else None
        if lies is not None and lies != state.pads[seat]:
            centres.setdefault(player, []).append((state.pads[seat], lies))
    for player, old in _slid_from(state).items():
        centres.setdefault(player, []).append((old, state.pads[PLAYERS.index(player)]))
    if not centres:
        return {c: tuple(ps) for c, ps in seen.items()}
    out = {c: list(ps) for c, ps in seen.items()}
    for rider in (c for c in ALL_CHARACTERS if owner(c) in centres and state.where[c] == PAD):
        player, place = owner(rider), state.places[rider]
        own = pad_cell(player, place)
        cell = at.get(rider)
        reads = {_read_at(player, read, lies, place) for read, lies in centres[player]}
        if cell == own or cell not in {None if k is None else pad_cell(player, k) for k in reads}:
            continue
        if cell is not None:
            out[cell] = [p for p in out[cell] if unfaced(p)[0] != rider]
        out.setdefault(own, []).append(rider)
    return {c: tuple(sorted(ps)) for c, ps in out.items() if ps}


def where_seen(seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
    return {unfaced(p)[0]: cell for cell, pieces in in_own_slots(seen).items() for p in pieces
            if unfaced(p)[0] != DIE}


def ways_seen(seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Character -> the way the picture reads it facing (only those it says)."""
    return {piece: way for piece, way in (unfaced(p) for pieces in seen.values() for p in pieces)
            if way and piece != DIE}


def _turned(state: IslandState, seen: Mapping[str, Sequence[str]]) -> set[str]:
    """Characters on the island seen where the game has them but facing another way."""
    at, ways = where_seen(seen), ways_seen(seen)
    return {p for p, way in ways.items() if p in state.facing and at.get(p) == state.where.get(p)
            and way != state.facing[p]}


def moved(state: IslandState, seen: Mapping[str, Sequence[str]]) -> set[str]:
    """Pieces seen elsewhere than the game has them (or not seen while in the game), and the die
    seen in the tray with another face up than the last roll's."""
    at, face = where_seen(seen), die_seen(state, seen)
    thrown = {DIE} if face is not None and face != die_up(state) else set()
    return {p for p in PLACED
            if place_of(state, p) is not None and at.get(p) != place_of(state, p)} | _turned(state, seen) | thrown


def _riders(before: IslandState, after: IslandState) -> set[str]:
    """The characters on a pad that slid from ``before`` to ``after``: they ride with it, so the
    picture taken against the pad's old places may read them anywhere (or nowhere) till the layout
    follows the pad."""
    slid = {p for seat, p in enumerate(PLAYERS) if before.pads[seat] != after.pads[seat]}
    return {c for c in ALL_CHARACTERS if owner(c) in slid and before.where[c] == PAD}


def matches(after: IslandState, at: Mapping[str, str], before: IslandState,
             ways: Mapping[str, str] | None = None) -> bool:
    """The picture is ``after`` on the table: every piece still in the game where it belongs (a
    character on the island facing the way it faces, where the picture says), and a piece the
    action took out of the game either lifted off already, still where it stood, or where the hand
    set it down (a character moved onto a live block, which took it). That one is there, or gone
    with the block: nobody knows the block is live before the companion says so, so no hand lifts
    the character off the block first, and a character merely lifted (its block still standing)
    never reads as taken by it (which would tell the block is live)."""
    for piece, way in (ways or {}).items():
        if piece in after.facing and at.get(piece) == after.where.get(piece) and way != after.facing[piece]:
            return False
    riders = _riders(before, after)
    landed = _landed(before, after)
    blocks = {at[b] for b in BLOCKS if b in at}
    for piece in PLACED:
        if piece in riders:
            continue
        cell = place_of(after, piece)
        if cell is None:
            if piece in landed:
                if at.get(piece) != landed[piece] and (at.get(piece) is not None or landed[piece] in blocks):
                    return False
            elif at.get(piece) not in (None, place_of(before, piece)):
                return False
        elif at.get(piece) != cell:
            return False
    return True


def _landed(before: IslandState, after: IslandState) -> dict[str, str]:
    """Character -> the square a move or a step off the pad from ``before`` to ``after`` set it down on."""
    out: dict[str, str] = {}
    for text in after.history[len(before.history):]:
        action = rules.parse_action(text)
        if isinstance(action, (Move, Enter)):
            out[action.character] = action.to if isinstance(action, Move) else action.square
    return out


def touches(action: Action, state: IslandState, moved: set[str]) -> bool:
    """Could this action account for a piece that moved? (Cheap: spares a search through every action.)"""
    if isinstance(action, Block):
        return action.block in moved
    if isinstance(action, Roll):
        return DIE in moved
    if isinstance(action, Slide):
        return pad_piece(action.player) in moved
    if isinstance(action, (Deploy, Enter, Move, Remove, Turn)):
        return action.character in moved
    if isinstance(action, Shoot):
        target = state.occupant().get(action.target) or state.block_at().get(action.target)
        return target in moved
    return False


def refused(state: IslandState, seen: Mapping[str, Sequence[str]], moved: set[str]) -> Reconciliation:
    """A picture no legal play of the player to move explains and no move is part-way to, refused: a
    die thrown when no roll is due, a pad slid when no slide is due, a character turned on the spot
    when no turn is, else what differs (``words.refusal`` then names the rule each piece breaks)."""
    at, ways, face = where_seen(seen), ways_seen(seen), die_seen(state, seen)
    if moved == {DIE}:
        return Reconciliation.illegal(_thrown(state, face), (DIE,), "no-roll-due")
    slid = [p for p in PADS if p in moved]
    riders = {c for c in ALL_CHARACTERS if state.where[c] == PAD and pad_piece(owner(c)) in slid}
    if slid and moved <= set(slid) | riders:
        return Reconciliation.illegal(_slid(state, slid, at), tuple(slid), "no-slide-now")
    pieces = sorted(moved - {DIE})
    if set(pieces) <= _turned(state, seen):  # only turned where they stand: say so, and when a turn is allowed
        turns = "; ".join(f"{piece_name(p)} turned on {at[p]} to face {_way(ways[p])} (the game has it facing "
                          f"{_way(state.facing[p])})" for p in pieces)
        return Reconciliation.illegal(f"{turns}: a character turns on the spot only as the option of a rolled 0, "
                                      f"otherwise only with the last pip of its move; turn it back", pieces,
                                      "no-turn-now")
    differs = "; ".join(_differs(state, p, at, ways) for p in pieces[:4])
    return Reconciliation.illegal(f"no legal action of {state.actor}'s leaves the island so: {differs}", pieces,
                                  "no-legal-move")


def _differs(state: IslandState, piece: str, at: Mapping[str, str], ways: Mapping[str, str]) -> str:
    """What differs of one piece, in words: where the camera reads it and where the game has it."""
    was, now = place_said(place_of(state, piece)), at.get(piece)
    had = f"{was} facing {_way(state.facing[piece])}" if piece in state.facing and piece in ways else was
    if now is None:
        return f"{piece_name(piece)} is not seen (the game has it {had})"
    way = f" facing {_way(ways[piece])}" if piece in ways else ""
    return f"{piece_name(piece)} is {place_said(now)}{way} (the game has it {had})"


def place_said(cell: str | None) -> str:
    """A place as players say it: a square by its printed name, a slot of a box, the pad, the tray."""
    if cell is None:
        return "out of the game"
    if cell.startswith("box-"):
        return "in its box"
    return f"on {cell}" if len(cell) <= 3 else f"on the {cell.split('-')[0]}"


def may_put(action: Action, at: Mapping[str, str], ways: Mapping[str, str]) -> bool:
    """A placing (a block, a character set down) only where the picture has its piece: the setup's
    placings are tried by the hundred, and playing each out to compare the table is most of a
    reading's time. Any other action may still fit."""
    if isinstance(action, Block):
        return _puts(action, action.block, at, ways)
    if isinstance(action, Deploy):
        return _puts(action, action.character, at, ways)
    return True


def _puts(action: Action, piece: str, at: Mapping[str, str], ways: Mapping[str, str]) -> bool:
    """Does this placing set ``piece`` down where the picture has it (facing the way it reads, if it says)?"""
    if isinstance(action, Block):
        return action.block == piece and at.get(piece) == action.square
    if not isinstance(action, Deploy) or action.character != piece:
        return False
    place = pad_place(action.where)
    if place is not None:
        return at.get(piece) == pad_cell(action.player, place)
    return at.get(piece) == action.where and ways.get(piece, action.facing) == action.facing


def _thrown(state: IslandState, face: str | None) -> str:
    """Why a face up in the tray is no roll, and what puts the table right."""
    up = die_up(state)
    back = (f"turn it back to the {up} the game has up" if up is not None else
            "take it out of the tray until the first roll is due")
    who = state.name_of(state.player)
    why = {"blocks": "the game is still being set up", "deploy": "the game is still being set up",
           "options": f"{who} rolled a 0 and first chooses a reinforcement, the pad or a turn",
           "move": f"the {state.roll} {who} rolled is still to be used", "slide": f"the {state.roll} {who} rolled "
           "is still to be used", "done": f"{who} has moved: shoot or end the turn"}.get(state.stage,
                                                                                         "it is no time to roll")
    return f"the die was thrown when no roll is due: it shows {face} ({why}); {back}"


def _slid(state: IslandState, pads: Sequence[str], at: Mapping[str, str]) -> str:
    """Why a pad seen along another column is no slide now, and where it goes back."""
    words = []
    for pad in pads:
        player = pad.partition("-")[2]
        now = at.get(pad, "")
        seen = f"against {now.rpartition('-')[2]}" if now.startswith("rail-") else "out of sight"
        words.append(f"{state.name_of(player)}'s pad is seen {seen}, the game has it against "
                     f"{str(place_of(state, pad)).rpartition('-')[2]}")
    return ("; ".join(words) + ": a pad slides only with the roll after a 0's pad option, exactly as many "
            "squares as rolled and never round a corner; slide it back")


def correction(state: IslandState, seen: Mapping[str, Sequence[str]]) -> Correct:
    """The table as seen, as the players' correction: each piece seen on another cell than the game has
    it put there facing the way the picture reads it (where it says none, a character keeps its facing,
    or faces away from its player when it had none), and a character turned where it stands turned;
    a piece not seen stays where the game has it."""
    places: list[tuple[str, str]] = []
    at, ways = where_seen(seen), ways_seen(seen)
    for piece in ALL_CHARACTERS + BLOCKS:
        cell = at.get(piece)
        if cell is None or (cell == place_of(state, piece) and ways.get(piece, state.facing.get(piece))
                            == state.facing.get(piece)):
            continue
        if piece in BLOCKS:
            if box_named(cell) != BLOCK_BOX and not on_island(cell):
                raise IllegalMoveError(f"{piece_name(piece)} stands on a square of the island or in its box, "
                                       f"not on {cell}")
            places.append((piece, "box" if box_named(cell) == BLOCK_BOX else cell))
        elif box_named(cell) == box_of(owner(piece)):
            places.append((piece, "box"))
        elif cell.startswith(f"pad-{owner(piece)}-"):
            places.append((piece, f"{PAD}{cell.rpartition('-')[2]}"))
        elif on_island(cell):
            places.append((piece, f"{cell}:{ways.get(piece) or state.facing.get(piece, forward(owner(piece)))}"))
        else:
            raise IllegalMoveError(f"{piece_name(piece)} cannot stand on {cell}")
    return Correct(state.actor, tuple(places))


# ------------------------------------------------------------------------------------------ words
def piece_name(piece: str, names: Mapping[str, str] | None = None) -> str:
    """A piece as players call it: ``red tank 1`` (``Ada's red tank 1`` once the players are named), ``block 3``."""
    if piece in BLOCKS:
        return f"block {piece.rpartition('-')[2]}"
    if piece == DIE:
        return "the die"
    if piece in PADS:
        player = piece.partition("-")[2]
        return f"{(names or {}).get(player, player)}'s pad"
    who = owner(piece)
    named = f"{names[who]}'s " if names and names.get(who, who) != who else ""
    return f"{named}{who} {kind(piece)} {piece.partition('-')[2][1:]}"


def said(action: Action, names: Mapping[str, str] | None = None) -> str:
    """An action in the players' words (the log, a question's options): a player by name once named."""
    def who(player: str) -> str:
        return (names or {}).get(player, player)

    def it(piece: str) -> str:
        return piece_name(piece, names)

    if isinstance(action, Block):
        return f"{who(action.player)} places {it(action.block)} on {action.square}"
    if isinstance(action, Deploy):
        place = pad_place(action.where)
        spot = f"place {place} of the pad" if place is not None else f"{action.where} facing {_way(action.facing)}"
        return f"{who(action.player)} puts {it(action.character)} on {spot}"
    if isinstance(action, Enter):
        return f"{it(action.character)} comes off the pad onto {action.square}"
    if isinstance(action, Move):
        return f"{it(action.character)} moves from {action.origin} to {action.to}, facing {_way(action.facing)}"
    if isinstance(action, Turn):
        return f"{it(action.character)} turns on the spot to face {_way(action.facing)}"
    if isinstance(action, Shoot):
        return f"{it(action.character)} shoots at {action.target}"
    if isinstance(action, Remove):
        return f"{who(action.player)} removes {it(action.character)}"
    if isinstance(action, Slide):
        return f"{who(action.player)}'s pad slides to column {action.column}"
    if isinstance(action, Correct):
        return "The table was corrected by hand"  # the table's, whoever's turn it was and whoever's pieces
    if isinstance(action, Roll):
        return f"{who(action.player)} rolls a {action.face}"
    words = {"pad": "chooses to move the pad with the next roll", "end": "ends the turn",
             "spare": "spares every character"}
    verb, _, player = str(action).partition(" ")
    return f"{who(player)} {words.get(verb, verb)}"


def _way(facing: str | None) -> str:
    return {"N": "north", "E": "east", "S": "south", "W": "west"}.get(facing or "", "")
