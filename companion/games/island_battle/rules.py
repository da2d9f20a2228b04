"""The island battle's rules as pure functions over immutable states.

Setup, as the rulebook's "Hur man ställer in": the first player (agreed or rolled for) places the
first block and the players alternate until all ten stand, never two in a row or column; then
they alternate putting characters down, each player's first five on the two rows nearest them
facing any way, the other five on their pad, one per place.

A turn: ``roll``; a 0 gives one of three options (``enter`` a reinforcement, ``pad`` to move the
pad by the next roll, ``turn`` a character) and another roll, after which only the chosen
character may move (another 0: the options again); then the move that uses every pip
(``move``, or ``slide`` for the pad, which ends the turn); ``shoot`` any exact hit before or
after; ``end``. A player who must move but cannot (rule 1A) ends the turn and the opponent may
``remove`` one of their island characters (or ``spare``); a player whose island is empty brings
one character on for free (rule 4) or, when none can come on, may lose one from the pad (rule 1B).

``docs/rules-interpretations-island-battle.md`` explains each reading of the text.
"""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.errors import IllegalMoveError, StateFormatError
from companion.games.base import Outcome
from companion.games.island_battle.actions import (PAD, Action, Block, ChoosePad, Correct, Deploy, End, Enter,
                                                   Move, Remove, Roll, Shoot, Slide, Spare, Turn, pad_place,
                                                   parse_action)
from companion.games.island_battle.fire import movable, set_off, shot, shots
from companion.games.island_battle.state import dealt
from companion.games.island_battle.grid import (BLOCKS, FACINGS, LETTERS, PAD_PLACES, PLAYERS, STEP, characters,
                                                coords, forward, home_rows, line, on_island, opponent, owner,
                                                pad_entry, sides, squares)
from companion.games.island_battle.state import (BOX, GONE, PLAY_STAGES, IslandState, from_json, new_game,
                                                 to_json)


# ------------------------------------------------------------------------------------------ setup
def _block_reason(state: IslandState, action: Block) -> str | None:
    if action.block not in BLOCKS or action.block in state.blocks:
        return f"{action.block} is not in the box: each block is placed once"
    if not on_island(action.square, state.size):
        return f"{action.square} is not a square of the island"
    if action.square in state.block_at():
        return f"a block already stands on {action.square}"
    col, row = coords(action.square)
    for other in state.blocks.values():
        if coords(other)[0] == col or coords(other)[1] == row:
            return f"a block on {other} shares its row or column with {action.square}: one block per row and column"
    return None


def _deploy_reason(state: IslandState, action: Deploy) -> str | None:
    ch, player = action.character, action.player
    if owner(ch) != player or state.where[ch] != BOX:
        return f"{ch} is not one of {player}'s characters still to place"
    to_island = len([c for c in characters(player) if on_island(state.where[c], state.size)]) < PAD_PLACES
    place = pad_place(action.where)
    if to_island:
        if place is not None:
            return f"{player} places five characters on the island before any on the pad"
        if not on_island(action.where, state.size) or coords(action.where)[1] not in home_rows(player, state.size):
            rows = " and ".join(str(r) for r in home_rows(player, state.size))
            return f"{player}'s characters start on rows {rows}, the two nearest them"
        if action.where in state.occupant() or action.where in state.block_at():
            return f"{action.where} is taken: two pieces never share a square"
        return None
    if place is None:
        return f"{player}'s five island characters are down: the other five go on the pad (pad1..pad5)"
    if place in {state.places[c] for c in characters(player) if c in state.places}:
        return f"place {place} of {player}'s pad is taken: one character per place"
    return None


def _setup_actions(state: IslandState) -> list[Action]:
    """The setup's legal placings, worked out once per square (the same as asking each placing's reason,
    which a camera reading every picture cannot wait for)."""
    player = state.player
    if state.stage == "blocks":
        box = [b for b in BLOCKS if b not in state.blocks]
        cols = {coords(sq)[0] for sq in state.blocks.values()}
        rows = {coords(sq)[1] for sq in state.blocks.values()}
        free = [sq for sq in squares(state.size) if coords(sq)[0] not in cols and coords(sq)[1] not in rows]
        return [Block(player, b, sq) for b in box for sq in free]
    box = [c for c in characters(player) if state.where[c] == BOX]
    if len(state.on_island(player)) < PAD_PLACES:
        taken = set(state.occupant()) | set(state.block_at())
        home = home_rows(player, state.size)
        free = [sq for sq in squares(state.size) if coords(sq)[1] in home and sq not in taken]
        return [Deploy(player, ch, sq, f) for ch in box for sq in free for f in FACINGS]
    return _pad_deploys(state, player) + _pad_deploys(state, opponent(player))


def _any_order(state: IslandState, action: Action) -> bool:
    """A character put on its own pad once its player's five island characters are down: the pad's
    five are placed in any order, so by either player whoever's turn it is."""
    return state.stage == "deploy" and isinstance(action, Deploy) and pad_place(action.where) is not None \
        and len(state.on_island(action.player)) >= PAD_PLACES


def _pad_deploys(state: IslandState, player: str) -> list[Action]:
    """``player``'s characters put on free places of their pad: once their five island characters are
    down, in any order (the pad's five are not placed alternately), whoever's turn it is."""
    if len(state.on_island(player)) < PAD_PLACES:
        return []
    box = [c for c in characters(player) if state.where[c] == BOX]
    used = {state.places[c] for c in characters(player) if c in state.places}
    return [Deploy(player, ch, f"{PAD}{n}") for ch in box for n in range(1, PAD_PLACES + 1) if n not in used]


def _setup(state: IslandState, action: Block | Deploy) -> IslandState:
    if isinstance(action, Block):
        reason = _block_reason(state, action)
        if reason:
            raise IllegalMoveError(reason)
        blocks = {**state.blocks, action.block: action.square}
        after = replace(state, blocks=MappingProxyType(blocks), turn=1 - state.turn)
        return replace(after, stage="deploy", turn=state.start) if len(blocks) == len(BLOCKS) else after
    reason = _deploy_reason(state, action)
    if reason:
        raise IllegalMoveError(reason)
    where, facing, places = dict(state.where), dict(state.facing), dict(state.places)
    place = pad_place(action.where)
    if place is None:
        where[action.character], facing[action.character] = action.where, str(action.facing)
    else:
        where[action.character], places[action.character] = PAD, place
    after = replace(state, where=MappingProxyType(where), facing=MappingProxyType(facing),
                    places=MappingProxyType(places))
    # the island's five are placed alternately; the pad's in any order: after one on a pad the turn is
    # with a player who still places on the island, else stays with one who still has characters to place
    k = PLAYERS.index(action.player)
    placing = [j for j in (1 - k, k) if len(after.on_island(PLAYERS[j])) < PAD_PLACES] if place is not None else [1 - k]
    boxed = [j for j in (1 - k, k) if any(where[c] == BOX for c in characters(PLAYERS[j]))]
    after = replace(after, turn=(placing or boxed or [1 - k])[0])
    return _begin(after, state.start) if BOX not in where.values() else after


# ------------------------------------------------------------------------------------------ turns
def _begin(state: IslandState, seat: int) -> IslandState:
    """The start of ``seat``'s turn: a roll, or with an empty island a free reinforcement (rule 4) or,
    when none can come on, the opponent's choice of one from the pad (rule 1B)."""
    after = replace(state, turn=seat, stage="roll", roll=None, chosen=None, sliding=False, penalty="")
    player = PLAYERS[seat]
    if after.on_island(player) or not after.on_pad(player):
        return after
    return replace(after, stage="enter") if _entries(after) else replace(after, stage="penalty", penalty="pad")


def _entries(state: IslandState) -> list[Enter]:
    """Characters of the player whose turn it is that can leave the pad: the square in front of their
    place is on the island and no character stands there (a block does not stop them)."""
    out = []
    centre = state.pads[state.turn]
    for ch in state.on_pad(state.player):
        sq = pad_entry(state.player, centre, state.places[ch], state.size)
        if sq is not None and sq not in state.occupant():
            out.append(Enter(ch, sq))
    return out


def _slides(state: IslandState) -> list[Slide]:
    centre, roll = state.pads[state.turn], state.roll or 0
    return [Slide(state.player, LETTERS[c - 1]) for c in (centre - roll, centre + roll) if 1 <= c <= state.size]


def _options(state: IslandState) -> list[Action]:
    turns: list[Action] = [Turn(c, f) for c in state.on_island(state.player) for f in sides(state.facing[c])]
    return [*_entries(state), ChoosePad(state.player), *turns]


def legal_actions(state: IslandState) -> list[Action]:
    """Every action open now to whoever acts (empty: the game is over)."""
    if outcome(state) is not None:
        return []
    if state.stage in ("blocks", "deploy"):
        return _setup_actions(state)
    player = state.player
    firing: list[Action] = [*shots(state)] if state.stage in ("roll", "options", "move", "slide", "done") else []
    if state.stage == "roll":
        return [Roll(player, face) for face in range(6)] + firing
    if state.stage == "options":
        return _options(state) + firing
    if state.stage == "move":
        open_moves: list[Action] = [*movable(state, state.roll or 0)]
        return (open_moves or [End(player)]) + firing
    if state.stage == "slide":
        return [*_slides(state)] + firing
    if state.stage == "done":
        return [End(player)] + firing
    if state.stage == "enter":
        return [*_entries(state)]
    victims = state.on_island(player) if state.penalty == "island" else state.on_pad(player)
    choices: list[Action] = [Remove(state.actor, c) for c in victims]
    return choices + [Spare(state.actor)]


def _board(state: IslandState) -> tuple[dict[str, str], dict[str, str], dict[str, str], dict[str, str]]:
    return dict(state.where), dict(state.facing), dict(state.blocks), dict(state.revealed)


def _with(state: IslandState, where: dict[str, str], facing: dict[str, str], blocks: dict[str, str],
          revealed: dict[str, str], **changes: Any) -> IslandState:
    return replace(state, where=MappingProxyType(where), facing=MappingProxyType(facing),
                   blocks=MappingProxyType(blocks), revealed=MappingProxyType(revealed), **changes)


def _arrive(state: IslandState, character: str, square: str, facing_after: str, **changes: Any) -> IslandState:
    """``character`` now on ``square`` facing ``facing_after``; a block there is set off (landed on exactly)."""
    where, facing, blocks, revealed = _board(state)
    where[character], facing[character] = square, facing_after
    block = state.block_at().get(square)
    if block is not None:
        set_off(state, block, where, facing, blocks, revealed)
    return _with(state, where, facing, blocks, revealed, **changes)


def _shoot(state: IslandState, action: Shoot) -> IslandState:
    if state.stage not in ("roll", "options", "move", "slide", "done"):
        raise IllegalMoveError(f"no shot now: {state.player} shoots only in their own turn, around the move")
    if state.where[action.character] == PAD:
        raise IllegalMoveError(f"{action.character} is on its pad: nobody shoots from the pad (rule 8)")
    if shot(state, action.character) != action:
        raise IllegalMoveError(f"{action.character} has no exact hit on {action.target}: a shot hits only exactly "
                               "at its range, straight ahead, at an opposing character or a block, never past a block")
    where, facing, blocks, revealed = _board(state)
    block = state.block_at().get(action.target)
    if block is not None:
        set_off(state, block, where, facing, blocks, revealed)
    else:
        victim = state.occupant()[action.target]
        where[victim] = GONE
        facing.pop(victim, None)
    return _with(state, where, facing, blocks, revealed)


def _play(state: IslandState, action: Action) -> IslandState:
    """One action of a turn, once the setup is over."""
    if isinstance(action, Shoot):
        return _shoot(state, action)
    if action not in legal_actions(state):
        raise IllegalMoveError(_why_not(state, action))
    if isinstance(action, Roll):
        if action.face == 0:
            return replace(state, stage="options", chosen=None, sliding=False)
        return replace(state, stage="slide" if state.sliding else "move", roll=action.face)
    if isinstance(action, Enter):
        chosen = action.character if state.stage == "options" else None
        return _arrive(state, action.character, action.square, forward(state.player), stage="roll", chosen=chosen)
    if isinstance(action, ChoosePad):
        return replace(state, stage="roll", sliding=True, chosen=None)
    if isinstance(action, Turn):
        facing = {**state.facing, action.character: action.facing}
        return replace(state, facing=MappingProxyType(facing), stage="roll", chosen=action.character)
    if isinstance(action, Move):
        return _arrive(state, action.character, action.to, action.facing, stage="done", roll=None)
    if isinstance(action, Slide):
        pads = list(state.pads)
        pads[state.turn] = LETTERS.index(action.column) + 1
        return _begin(replace(state, pads=(pads[0], pads[1])), 1 - state.turn)
    if isinstance(action, End):
        stuck = state.stage == "move" and state.chosen is None and state.on_island(state.player)
        return replace(state, stage="penalty", penalty="island", roll=None) if stuck else _begin(state, 1 - state.turn)
    if isinstance(action, Remove):
        where, facing = dict(state.where), dict(state.facing)
        where[action.character] = GONE
        facing.pop(action.character, None)
        return _begin(replace(state, where=MappingProxyType(where), facing=MappingProxyType(facing)), 1 - state.turn)
    return _begin(state, 1 - state.turn)  # Spare


def why_not(state: IslandState, action: Action) -> str | None:
    """The rule ``action`` breaks now, or None when it is legal: what a picture no legal action
    explains is refused with, once the pieces it moved are read as the action they look like (a
    block set down, a character put down, stepped on from its pad or moved)."""
    if outcome(state) is not None:
        return "the battle is over"
    if action.player != state.actor and not _any_order(state, action):
        return f"it is {state.actor}'s turn, not {action.player}'s"
    if state.stage in ("blocks", "deploy"):
        if isinstance(action, Block) and state.stage == "blocks":
            return _block_reason(state, action)
        if isinstance(action, Deploy) and state.stage == "deploy":
            return _deploy_reason(state, action)
        return f"the setup goes on: {'blocks' if state.stage == 'blocks' else 'characters'} are still to be placed"
    if isinstance(action, Shoot):
        try:
            _shoot(state, action)
        except IllegalMoveError as exc:
            return str(exc)
        return None
    return None if action in legal_actions(state) else _why_not(state, action)


def _entry_reason(state: IslandState, action: Enter) -> str | None:
    """Why a character cannot step off its pad onto ``action.square`` now (None: nothing about the step
    itself: the stage decides)."""
    ch, player = action.character, action.player
    if state.where[ch] != PAD:
        return f"{ch} is not on its pad"
    if state.stage not in ("options", "enter"):
        return f"{ch} comes off the pad only as the option of a rolled 0, or when {player}'s island is empty"
    entry = pad_entry(player, state.pads[state.turn], state.places[ch], state.size)
    if entry is None:
        return f"{ch}'s place on the pad hangs past the corner: nobody comes on from it until the pad moves back"
    if action.square != entry:
        return f"{ch} comes off the pad only onto the square in front of its place, {entry}"
    if entry in state.occupant():
        return f"{state.occupant()[entry]} stands on {entry}, in front of {ch}'s place: only a character there stops it"
    return None


def _why_not(state: IslandState, action: Action) -> str:
    """The rule an action breaks in this stage, in the players' words."""
    stage, player = state.stage, state.player
    if isinstance(action, Enter) and (reason := _entry_reason(state, action)):
        return reason
    if stage == "enter":
        return f"{player}'s island is empty: bring a character on from the pad first (rule 4)"
    if stage == "penalty":
        where = "island" if state.penalty == "island" else "pad"
        return f"{state.actor} may remove one of {player}'s characters from the {where}, or spare them"
    if stage == "roll":
        return f"{player} rolls the die first"
    if stage == "options":
        return f"{player} rolled a 0: choose a reinforcement, the pad or a turn, then roll again"
    if stage == "slide":
        return f"{player}'s pad moves exactly {state.roll} squares along the edge, never round a corner"
    if stage == "move":
        if isinstance(action, End):
            return f"{player} can still move a character with the {state.roll}: a move is made if one is possible"
        if state.chosen and isinstance(action, Move) and action.character != state.chosen:
            return f"after a 0 only {state.chosen} may move"
        reason = _move_reason(state, action) if isinstance(action, Move) else None
        return reason or (f"that is not a move of the {state.roll}: straight ahead, every pip used, a turn only "
                          "with the last pip, never through a character or a block, never turning on a block")
    return f"{player} has moved: shoot or end the turn"


def _move_reason(state: IslandState, action: Move) -> str | None:
    """The one rule of movement a move breaks, so the players know what to put right: off the island,
    backwards or sideways, a turn before the last pip, a quarter turn only, every pip used (no more),
    through a character or a block, ending on a character, turning on a block (None: none of these)."""
    ch, n, to = action.character, state.roll or 0, action.to
    facing = state.facing.get(ch)
    if facing is None or state.where.get(ch) != action.origin:
        return f"{ch} does not stand on {action.origin}"
    if not on_island(to, state.size):
        return f"{to} is off the island: a character moves only on the island"
    (c0, r0), (c1, r1) = coords(action.origin), coords(to)
    dx, dy = STEP[facing]
    ahead, aside = (c1 - c0) * dx + (r1 - r0) * dy, (c1 - c0) * dy - (r1 - r0) * dx
    way = {"N": "north", "E": "east", "S": "south", "W": "west"}
    if ahead <= 0:
        return f"a character moves straight ahead only (this one faces {way[facing]}), never backwards or sideways"
    if aside:
        return (f"a turn before the last pip: a character goes straight ahead (this one faces {way[facing]}) and "
                "turns only with its last pip, on the square where it stops")
    turned = action.facing != facing
    if turned and action.facing not in sides(facing):
        return "a turn right round: the last pip turns a character a quarter, left or right"
    if turned and n == 1:
        return "a 1 is one step straight ahead: no pip is left to turn with"
    owed = n - 1 if turned else n
    if ahead != owed:
        if turned and ahead == n:
            return (f"{n} squares and a turn: the turn is the last pip, so a character that turns stops {n - 1} "
                    f"square{'s' if n != 2 else ''} ahead")
        plan = f"exactly {n} squares ahead" + (f", or {n - 1} and a quarter turn with the last pip" if n > 1 else "")
        used = "not every pip used" if ahead < owed else f"more squares than the {n}"
        return f"{ahead} square{'s' if ahead != 1 else ''} ahead: {used}; the {n} takes a character {plan}"
    stood, blocks = state.occupant(), state.block_at()
    for square in line(action.origin, facing, ahead, state.size)[:-1]:
        if square in stood:
            return f"through {stood[square]} on {square}: a character never moves through another"
        if square in blocks:
            return f"over {blocks[square]} on {square}: a character never moves through a block"
    if to in stood:
        return f"{stood[to]} stands on {to}: a move never ends on a character"
    if to in blocks and turned:
        return (f"a turn on {blocks[to]}: a character lands on a block only stepping straight onto it, never "
                "turning there")
    return None


def apply(state: IslandState, action: Action | str) -> IslandState:
    """The state after ``action`` (a new state; ``state`` is never changed), or IllegalMoveError naming
    the rule it breaks."""
    if isinstance(action, str):
        action = parse_action(action)
    if outcome(state) is not None:
        raise IllegalMoveError("the battle is over")
    if action.player != state.actor and not _any_order(state, action):
        raise IllegalMoveError(f"it is {state.actor}'s to act, not {action.player}'s")
    if isinstance(action, Correct):
        after = _corrected(state, action)
    elif state.stage in ("blocks", "deploy"):
        if not isinstance(action, Block if state.stage == "blocks" else Deploy):
            raise IllegalMoveError(f"the setup goes on: {'blocks' if state.stage == 'blocks' else 'characters'} "
                                   "are still to be placed")
        after = _setup(state, action)
    else:
        after = _play(state, action)
    history = state.history + (str(action),)
    fired = [b for b, what in after.revealed.items() if what == "live" and b not in state.revealed]
    if fired:
        lost = [c for c in sorted(after.where) if after.where[c] == GONE and state.where[c] != GONE]
        return replace(after, history=history, blast=tuple(fired + lost), blast_at=len(history))
    return replace(after, history=history)


def _corrected(state: IslandState, action: Correct) -> IslandState:
    """The table as the players say it is: each piece named where the correction puts it, the turn
    as it was. A state no play could reach (two pieces on a square, a block sharing a row) is refused
    with the saved form's own reason, so a correction never leaves a game that cannot be read back."""
    where, facing, blocks, revealed = _board(state)
    places = dict(state.places)
    setup = state.stage in ("blocks", "deploy")
    for piece, to in action.places:
        if piece in BLOCKS:
            if piece in state.revealed:
                raise IllegalMoveError(f"{piece} was set off: it is out of the game")
            if to == "box" and state.stage != "blocks":
                raise IllegalMoveError(f"{piece} goes back in the box only while the blocks are being placed")
            if to == "box":
                blocks.pop(piece, None)
            else:
                blocks[piece] = to
            continue
        if where[piece] == GONE:
            raise IllegalMoveError(f"{piece} is out of the game: it comes back by no correction")
        place = pad_place(to)
        facing.pop(piece, None)
        if to == "box" or place is not None:
            if to == "box" and not setup:
                raise IllegalMoveError(f"{piece} goes back in the box only during the setup")
            where[piece] = BOX if to == "box" else PAD
            if place is not None:
                places[piece] = place
        else:
            square, _, facing[piece] = to.partition(":")
            where[piece] = square
    after = replace(_with(state, where, facing, blocks, revealed), places=MappingProxyType(places))
    try:
        from_json(to_json(after))
    except StateFormatError as exc:
        raise IllegalMoveError(str(exc).removeprefix("island battle state: ")) from None
    if state.stage == "blocks" and len(blocks) == len(BLOCKS):
        after = replace(after, stage="deploy", turn=state.start)
    if state.stage == "deploy" and BOX not in where.values():
        after = _begin(after, state.start)
    return after


def companion_roll(state: IslandState) -> int:
    """A face the companion rolls for the player (when the players chose so): drawn from the seed and
    the place in the log, so the same game rolls the same; the roll is then played as ``roll``."""
    return random.Random(f"{dealt(state.seed, state.deal, '-die')}:{len(state.history)}").randrange(6)


def outcome(state: IslandState) -> Outcome | None:
    """The ruler of the island once the other player's ten characters are all gone (both at once: a draw)."""
    if state.stage not in PLAY_STAGES:
        return None
    beaten = [p for p in PLAYERS if all(state.where[c] == GONE for c in characters(p))]
    if not beaten:
        return None
    if len(beaten) == 2:
        return Outcome((), "the last characters of both sides went in one blast: nobody rules the island")
    winner = opponent(beaten[0])
    return Outcome((winner,), f"{beaten[0]} has lost all ten characters: {winner} rules the island")


def text(state: IslandState) -> str:
    """The island as rows of text, far side first: ``.`` empty, ``#`` a block, a character by its
    id's letter and number with an arrow for its facing (``s1^``); the pads below (a picture for logs)."""
    arrow = dict(zip(FACINGS, "^>v<", strict=True))
    rows, at, blocks = [], state.occupant(), state.block_at()
    for r in range(state.size, 0, -1):
        cells = []
        for c in range(1, state.size + 1):
            sq = f"{LETTERS[c - 1]}{r}"
            ch = at.get(sq)
            cells.append(f"{ch[0].upper()}{ch.partition('-')[2]}{arrow[state.facing[ch]]}" if ch else
                         " # " if sq in blocks else " . ")
        rows.append(f"{r:>2} " + " ".join(cells))
    rows.append("   " + " ".join(f" {ch} " for ch in LETTERS[:state.size]))
    for seat, player in enumerate(PLAYERS):
        pad = ", ".join(f"{c}@pad{state.places[c]}" for c in state.on_pad(player)) or "-"
        rows.append(f"{player}'s pad centred on {LETTERS[state.pads[seat] - 1]}: {pad}")
    rows.append(f"{state.actor} to act ({state.stage}{f', rolled {state.roll}' if state.roll else ''})")
    return "\n".join(rows)


__all__ = ["Action", "apply", "companion_roll", "from_json", "legal_actions", "new_game", "outcome",
           "parse_action", "text", "to_json", "why_not"]
