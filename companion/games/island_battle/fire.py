"""What a character can do from where it stands: its moves with a roll, its exact shots, and a block set off.

Movement (rulebook "Hur man flyttar"): straight ahead only, every pip used, through nothing; with
the last pip the character may turn a quarter left or right instead of stepping (a 1 is always one
step). It may end exactly on a block (stepping straight, never turning there): the block is set
off. Shots (rule 3, 5, 10): exactly at the character's range straight ahead, at an opposing
character or a block, never past a block. A block set off is turned over and taken away; a live
one takes every character on the eight squares around it and on its own square, and - when a
character set it off - sets off every block on those eight squares, which go no further.
``docs/rules-interpretations-island-battle.md`` says why each reading.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from companion.games.island_battle.actions import Move, Shoot
from companion.games.island_battle.grid import around, line, opponent, owner, reach, sides
from companion.games.island_battle.state import GONE, IslandState


def moves(state: IslandState, character: str, pips: int) -> list[Move]:
    """Every way ``character`` can use all ``pips``: straight on (perhaps onto a block, exactly), or
    straight on one fewer and a quarter turn with the last pip."""
    here = state.where[character]
    facing = state.facing[character]
    taken = set(state.occupant()) | set(state.block_at())
    path = line(here, facing, pips, state.size)
    out: list[Move] = []
    if len(path) == pips and not taken & set(path[:-1]) and path[-1] not in state.occupant():
        out.append(Move(character, here, path[-1], facing))
    if pips >= 2 and len(path) >= pips - 1 and not taken & set(path[:pips - 1]):
        out += [Move(character, here, path[pips - 2], side) for side in sides(facing)]
    return out


def movable(state: IslandState, pips: int) -> list[Move]:
    """The moves open to the player whose turn it is with ``pips``: of the one character a 0's option
    chose, else of each of their characters on the island."""
    who = (state.chosen,) if state.chosen else state.on_island(state.player)
    return [m for c in who if c in state.facing for m in moves(state, c, pips)]


def aimed(state: IslandState, character: str) -> str | None:
    """The square ``character`` would hit, whatever stands there: exactly at its range straight ahead,
    on the island, no block between (characters between do not shield). From the public position only:
    where blocks stand, never which are live."""
    if character not in state.facing:
        return None  # on its pad (rule 8) or gone
    distance = reach(character)
    path = line(state.where[character], state.facing[character], distance, state.size)
    blocks = state.block_at()
    if len(path) < distance or any(sq in blocks for sq in path[:-1]):
        return None
    return path[-1]


def shot(state: IslandState, character: str) -> Shoot | None:
    """The one shot ``character`` has now, if any: the square it aims at holds an opposing character
    or a block."""
    target = aimed(state, character)
    if target is None:
        return None
    blocks = state.block_at()
    standing = state.occupant().get(target)
    if target in blocks or (standing is not None and owner(standing) == opponent(owner(character))):
        return Shoot(character, target)
    return None


def shots(state: IslandState) -> list[Shoot]:
    """Every exact hit the player whose turn it is has now (rule 12: only in one's own turn)."""
    return [s for c in state.on_island(state.player) if (s := shot(state, c)) is not None]


def set_off(state: IslandState, block: str, where: MutableMapping[str, str], facing: MutableMapping[str, str],
            blocks: MutableMapping[str, str], revealed: MutableMapping[str, str], by_character: bool = True) -> None:
    """Turn ``block`` over and take it away (in the working copies given). Live: every character on its
    square and the eight around goes; if a character set it off, so does every block on those eight."""
    square = blocks.pop(block)
    revealed[block] = "live" if block in state.live else "safe"
    if block not in state.live:
        return
    blast = set(around(square, state.size)) | {square}
    for ch, w in list(where.items()):
        if w in blast:
            where[ch] = GONE
            facing.pop(ch, None)
    if by_character:
        for other, at in sorted(blocks.items()):
            if at in blast and other in blocks:
                set_off(state, other, where, facing, blocks, revealed, by_character=False)

