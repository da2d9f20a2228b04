"""A moment of the island battle as one immutable value, and its saved (JSON) form read back with care.

The state says where every character is (a square of the island with the way it faces, its pad, or
gone), where every block still stands, where each pad's centre touches its edge, and how far the
turn in hand has got (its stage, the roll waiting to be used, the one character a 0's option chose).

Which blocks are live is dealt from the seed when the game is made and kept here, in ``live``: the
rules are the one referee allowed to look under a block. No player reads it until a block is set
off (``revealed`` then says what it was); what a panel, an event or an export shows must leave
``live`` out (:func:`public`).

Pure: standard library only, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.errors import StateFormatError
from companion.games.island_battle.actions import PAD
from companion.games.island_battle.grid import (ALL_CHARACTERS, BLOCKS, FACINGS, LIVE, PAD_PLACES, PLAYERS, SIZE,
                                                characters, coords, home_rows, on_island, opponent, owner,
                                                pad_start, pad_track)

MAX_NAME = 24  # a player's name, as the setup asks it
BOX = "box"  # not yet placed (setup)
GONE = "gone"  # removed from the game
SETUP_STAGES = ("blocks", "deploy")
DICE = ("companion", "table")  # who rolls: the companion, or a die thrown at the table
PLAY_STAGES = ("enter", "roll", "options", "move", "slide", "done", "penalty")


@dataclass(frozen=True)
class IslandState:
    """The island, the pads, the blocks' secret, and the turn in hand.

    ``where``: character -> a square, ``pad`` or ``gone`` (``box`` during setup); ``facing``: each
    character on the island -> N/E/S/W; ``places``: each character that stood on its pad -> its place
    there (1-5: fixed for the game, rule 6); ``blocks``: each block on the island -> its square.
    ``stage`` (see ``rules.py``): ``blocks`` and ``deploy`` set up; then each turn goes ``roll``,
    ``options`` after a 0, ``move`` or ``slide`` with the roll, ``done`` (shots, end), and
    ``enter`` (an empty island's free reinforcement) or ``penalty`` (the opponent's removal)."""

    where: Mapping[str, str]
    facing: Mapping[str, str]
    places: Mapping[str, int]
    blocks: Mapping[str, str]
    live: frozenset[str]
    revealed: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    pads: tuple[int, int] = (pad_start(PLAYERS[0]), pad_start(PLAYERS[1]))
    start: int = 0  # seat that plays first: fixed before the blocks are placed
    turn: int = 0
    stage: str = "blocks"
    roll: int | None = None  # the face waiting to be used
    chosen: str | None = None  # after a 0's option: the only character the next roll may move
    sliding: bool = False  # a 0's option 2: the next roll moves the pad
    penalty: str = ""  # in stage penalty: "island" (rule 1A) or "pad" (rule 1B)
    history: tuple[str, ...] = ()
    seed: int = 0
    size: int = SIZE
    names: tuple[str, ...] = ()  # the players' names in seat order (red, blue); empty: called by colour
    die: str = "companion"  # who rolls: the companion (a roll drawn from the seed) or a die at the table
    blast: tuple[str, ...] = ()  # the last blast: the live blocks set off, then the characters they took
    blast_at: int = 0  # how long the history was once that blast was over (the LEDs flash while it is the last)
    deal: int = 0  # the companion's own draw at setup, nobody's to see: the live blocks and its rolls follow it

    def name_of(self, player: str) -> str:
        """A player as the table calls them: their name, else their colour."""
        return self.names[PLAYERS.index(player)] if self.names else player

    @property
    def player(self) -> str:
        """Whose turn it is."""
        return PLAYERS[self.turn]

    @property
    def actor(self) -> str:
        """Who acts now: the player whose turn it is, or their opponent choosing a removal."""
        return opponent(self.player) if self.stage == "penalty" else self.player

    def on_island(self, player: str) -> tuple[str, ...]:
        return tuple(c for c in characters(player) if on_island(self.where[c], self.size))

    def on_pad(self, player: str) -> tuple[str, ...]:
        return tuple(c for c in characters(player) if self.where[c] == PAD)

    def occupant(self) -> dict[str, str]:
        """Square -> the character standing there."""
        return {w: c for c, w in self.where.items() if on_island(w, self.size)}

    def block_at(self) -> dict[str, str]:
        """Square -> the block standing there."""
        return {sq: b for b, sq in self.blocks.items()}


def new_game(seed: int = 0, start: str = PLAYERS[0], names: tuple[str, ...] = (), die: str = "companion",
             deal: int = 0) -> IslandState:
    """An empty island, every piece in the box, the pads at their first place, and six of the ten
    blocks dealt live from ``seed`` (so a replay deals the same). ``start``: who plays first (agreed
    or rolled for at the table before the blocks go down); that player also places the first block.
    ``deal``: the companion's secret draw (0: none, the blocks dealt from the seed alone)."""
    if start not in PLAYERS:
        raise StateFormatError(f"island battle: the first player is {' or '.join(PLAYERS)}, not {start!r}")
    if die not in DICE:
        raise StateFormatError(f"island battle: the die is rolled by {' or '.join(DICE)}, not {die!r}")
    if names and len(names) != len(PLAYERS):
        raise StateFormatError(f"island battle: {len(PLAYERS)} players' names, not {len(names)}")
    live = frozenset(random.Random(dealt(seed, deal)).sample(BLOCKS, LIVE))
    seat = PLAYERS.index(start)
    return IslandState(MappingProxyType({c: BOX for c in ALL_CHARACTERS}), MappingProxyType({}),
                       MappingProxyType({}), MappingProxyType({}), live, start=seat, turn=seat, seed=seed,
                       names=tuple(names), die=die, deal=deal)


def dealt(seed: int, deal: int, what: str = "") -> str:
    """What a secret draw starts from: the seed and the companion's own deal (0: the seed alone)."""
    return f"island-battle{what}:{seed}" + (f":{deal}" if deal else "")


def to_json(state: IslandState) -> dict[str, Any]:
    """The companion's own saved form, secret included (``live``): never for a player's eyes."""
    return {"game": "island-battle", **public(state), "live": sorted(state.live), "deal": state.deal}


def public(state: IslandState) -> dict[str, Any]:
    """Everything but which blocks still standing are live: what a player may know."""
    return {"size": state.size, "where": dict(state.where), "facing": dict(state.facing),
            "places": dict(state.places), "blocks": dict(state.blocks), "revealed": dict(state.revealed),
            "pads": list(state.pads), "start": PLAYERS[state.start], "turn": PLAYERS[state.turn],
            "stage": state.stage, "roll": state.roll, "chosen": state.chosen, "sliding": state.sliding,
            "penalty": state.penalty, "history": list(state.history), "seed": state.seed,
            "names": list(state.names), "die": state.die, "blast": list(state.blast), "blast_at": state.blast_at}


# ------------------------------------------------------------------------------------------ reading back
def _fail(what: str) -> StateFormatError:
    return StateFormatError(f"island battle state: {what}"[:300])


def _map(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise _fail(f"{key!r} must be an object")
    return value


def _player(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if value not in PLAYERS:
        raise _fail(f"{key!r} must be {' or '.join(PLAYERS)}, not {str(value)[:20]}")
    return PLAYERS.index(str(value))


def from_json(data: Any) -> IslandState:
    """A saved state, every field checked; one no play can reach is refused (StateFormatError naming the
    field and the rule), so a hand-edited or damaged file never starts a wrong game."""
    if not isinstance(data, Mapping):
        raise _fail("the file must hold an object")
    if data.get("size") != SIZE:
        raise _fail(f"'size' must be {SIZE} (the island is {SIZE} x {SIZE})")
    where = dict(_map(data, "where"))
    if sorted(where) != sorted(ALL_CHARACTERS):
        raise _fail(f"'where' must place each of the {len(ALL_CHARACTERS)} characters (red-s1 .. blue-t2)")
    for ch, w in where.items():
        if not isinstance(w, str) or not (w in (BOX, GONE, PAD) or on_island(w)):
            raise _fail(f"{ch} is on {str(w)[:20]!r}: a square, pad, gone or box")
    facing = dict(_map(data, "facing"))
    standing = {c for c, w in where.items() if on_island(w)}
    if set(facing) != standing or not all(f in FACINGS for f in facing.values()):
        raise _fail("'facing' must give N, E, S or W for exactly the characters on the island")
    places = dict(_map(data, "places"))
    for ch, p in places.items():
        if ch not in where or isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= PAD_PLACES:
            raise _fail(f"'places' gives {ch[:20]} place {str(p)[:10]}: a character's pad place is 1 to {PAD_PLACES}")
    for player in PLAYERS:
        mine = [p for c, p in places.items() if owner(c) == player]
        if len(set(mine)) != len(mine):
            raise _fail(f"two of {player}'s characters share a pad place: one per place")
    for ch, w in where.items():
        if w == PAD and ch not in places:
            raise _fail(f"{ch} is on its pad without a place there")
    blocks = dict(_map(data, "blocks"))
    if not set(blocks) <= set(BLOCKS) or not all(isinstance(s, str) and on_island(s) for s in blocks.values()):
        raise _fail("'blocks' must map blocks (block-1 .. block-10) to squares of the island")
    taken = [w for w in where.values() if on_island(w)] + list(blocks.values())
    if len(set(taken)) != len(taken):
        raise _fail("two pieces share a square: two characters, or a character and a block, never do")
    for a in blocks.values():
        for b in blocks.values():
            if a != b and (coords(a)[0] == coords(b)[0] or coords(a)[1] == coords(b)[1]):
                raise _fail(f"blocks on {a} and {b} share a row or column: one block per row and column")
    live = data.get("live")
    if not isinstance(live, list) or len(live) != LIVE or not set(live) <= set(BLOCKS) or len(set(live)) != LIVE:
        raise _fail(f"'live' must name {LIVE} different blocks")
    revealed = dict(_map(data, "revealed"))
    for b, what in revealed.items():
        if b in blocks or b not in BLOCKS or what != ("live" if b in live else "safe"):
            raise _fail(f"'revealed' says {b[:20]} was {str(what)[:10]}: only blocks set off, and as they were")
    pads = data.get("pads")
    if not isinstance(pads, list) or len(pads) != 2 or not all(p in pad_track() for p in pads):
        raise _fail(f"'pads' must give each pad's centre column, 1 to {SIZE}")
    stage = data.get("stage")
    if stage not in SETUP_STAGES + PLAY_STAGES:
        raise _fail(f"'stage' must be one of {', '.join(SETUP_STAGES + PLAY_STAGES)}")
    roll, chosen = data.get("roll"), data.get("chosen")
    if roll is not None and (isinstance(roll, bool) or roll not in range(6)):
        raise _fail("'roll' must be null or a face of the die, 0 to 5")
    if (roll is not None) != (stage in ("move", "slide")):
        raise _fail(f"'roll' waits to be used in the move and slide stages only, not in {stage}")
    if chosen is not None and (chosen not in where or owner(chosen) != data.get("turn")):
        raise _fail("'chosen' must be null or a character of the player whose turn it is")
    sliding, penalty = data.get("sliding"), data.get("penalty")
    if not isinstance(sliding, bool) or penalty not in ("", "island", "pad") or (penalty != "") != (stage == "penalty"):
        raise _fail("'sliding' must be true or false, 'penalty' island or pad in the penalty stage and empty else")
    if stage in PLAY_STAGES:
        _check_setup_done(where)
    else:
        _check_setup(where)
    history, seed = data.get("history", []), data.get("seed", 0)
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise _fail("'history' must be a list of actions' text")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _fail("'seed' must be a whole number")
    names, die = data.get("names", []), data.get("die", "companion")
    if not isinstance(names, list) or len(names) not in (0, len(PLAYERS)) or \
            not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names):
        raise _fail(f"'names' must be empty or {len(PLAYERS)} names of 1 to {MAX_NAME} characters")
    if die not in DICE:
        raise _fail(f"'die' must be {' or '.join(DICE)}")
    blast, blast_at = data.get("blast", []), data.get("blast_at", 0)
    if not isinstance(blast, list) or not all(p in BLOCKS and revealed.get(p) == "live" or
                                              p in ALL_CHARACTERS and where[p] == GONE for p in blast):
        raise _fail("'blast' must list live blocks set off and characters gone")
    if isinstance(blast_at, bool) or not isinstance(blast_at, int) or not 0 <= blast_at <= len(history):
        raise _fail("'blast_at' must be a place in the history")
    return IslandState(MappingProxyType(where), MappingProxyType(facing), MappingProxyType(places),
                       MappingProxyType(blocks), frozenset(live), MappingProxyType(revealed), (pads[0], pads[1]),
                       _player(data, "start"), _player(data, "turn"), str(stage), roll, chosen, sliding,
                       str(penalty), tuple(history), seed, SIZE, tuple(names), str(die), tuple(blast), blast_at)


def _check_setup_done(where: Mapping[str, str]) -> None:
    if BOX in where.values():
        raise _fail("a character is still in the box after the setup")


def _check_setup(where: Mapping[str, str]) -> None:
    if GONE in where.values():
        raise _fail("a character is gone before the battle began")
    for ch, w in where.items():
        if on_island(w) and coords(w)[1] not in home_rows(owner(ch)):
            raise _fail(f"{ch} starts on {w}: a player's characters start on the two rows nearest them")
