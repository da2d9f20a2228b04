"""The island battle's actions as values whose text reads back (``str(parse_action(t)) == t``).

Setup: ``block red block-3 E5`` (a block placed), ``deploy red red-s1 C2 N`` (a character on the
island, facing north) and ``deploy red red-s4 pad2`` (a character on place 2 of its pad).
A turn: ``roll red 3`` (the die's face: a roll is an action, so a replay rolls the same), after a
0 one of its three options - ``enter red-s4 C1`` (a reinforcement from the pad), ``pad red`` (the
pad will move by the next roll) or ``turn red-s1 W`` (a quarter turn on the spot) - then
``move red-s1 C2 C5 N`` (from, to, and the facing after: a turn with the last pip shows as a new
facing), ``slide red F`` (the pad's centre now against column F), ``shoot red-t1 E7`` (the square
hit, exactly at range), ``end red``. When a player could not move, the opponent may take one of
their characters: ``remove blue red-s2``, or leave them all: ``spare blue``.

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import NotationError
from companion.games.island_battle.grid import (ALL_CHARACTERS, BLOCKS, LETTERS, PAD_PLACES, PLAYERS, coords, owner,
                                                parse_facing)

PAD = "pad"  # a character's place on its pad is written pad1..pad5


@dataclass(frozen=True)
class Block:
    player: str
    block: str
    square: str

    def __str__(self) -> str:
        return f"block {self.player} {self.block} {self.square}"


@dataclass(frozen=True)
class Deploy:
    """A character put on the island (``where`` a square, with a facing) or on its pad (``pad1``..``pad5``)."""

    player: str
    character: str
    where: str
    facing: str | None = None

    def __str__(self) -> str:
        tail = f" {self.facing}" if self.facing else ""
        return f"deploy {self.player} {self.character} {self.where}{tail}"


@dataclass(frozen=True)
class Roll:
    player: str
    face: int

    def __str__(self) -> str:
        return f"roll {self.player} {self.face}"


@dataclass(frozen=True)
class Enter:
    """A character leaves its pad for the island square in front of its place."""

    character: str
    square: str

    @property
    def player(self) -> str:
        return owner(self.character)

    def __str__(self) -> str:
        return f"enter {self.character} {self.square}"


@dataclass(frozen=True)
class ChoosePad:
    player: str

    def __str__(self) -> str:
        return f"pad {self.player}"


@dataclass(frozen=True)
class Slide:
    """The pad moved along its edge: its centre now against column ``column``."""

    player: str
    column: str

    def __str__(self) -> str:
        return f"slide {self.player} {self.column}"


@dataclass(frozen=True)
class Turn:
    character: str
    facing: str

    @property
    def player(self) -> str:
        return owner(self.character)

    def __str__(self) -> str:
        return f"turn {self.character} {self.facing}"


@dataclass(frozen=True)
class Move:
    character: str
    origin: str
    to: str
    facing: str

    @property
    def player(self) -> str:
        return owner(self.character)

    def __str__(self) -> str:
        return f"move {self.character} {self.origin} {self.to} {self.facing}"


@dataclass(frozen=True)
class Shoot:
    character: str
    target: str

    @property
    def player(self) -> str:
        return owner(self.character)

    def __str__(self) -> str:
        return f"shoot {self.character} {self.target}"


@dataclass(frozen=True)
class End:
    player: str

    def __str__(self) -> str:
        return f"end {self.player}"


@dataclass(frozen=True)
class Remove:
    """The opponent of a player who could not move takes one of that player's characters."""

    player: str
    character: str

    def __str__(self) -> str:
        return f"remove {self.player} {self.character}"


@dataclass(frozen=True)
class Spare:
    player: str

    def __str__(self) -> str:
        return f"spare {self.player}"


@dataclass(frozen=True)
class Correct:
    """The table as the players say it is (the panel's correction): each piece named stands where it
    says - a character on a square with its facing (``red-s1@C4:N``), on a pad place (``red-s4@pad2``)
    or in its box (``red-s2@box``), a block on a square or in the box. Pieces not named stay where the
    game has them. It turns no block over and takes no piece out of the game."""

    player: str
    places: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        listed = ",".join(f"{piece}@{where}" for piece, where in self.places)
        return f"correct {self.player}{' ' + listed if listed else ''}"


Action = Block | Deploy | Roll | Enter | ChoosePad | Slide | Turn | Move | Shoot | End | Remove | Spare | Correct
_FORMS = ("block PLAYER BLOCK SQUARE", "deploy PLAYER CHARACTER SQUARE FACING", "deploy PLAYER CHARACTER padN",
          "roll PLAYER FACE", "enter CHARACTER SQUARE", "pad PLAYER", "slide PLAYER COLUMN",
          "turn CHARACTER FACING", "move CHARACTER FROM TO FACING", "shoot CHARACTER SQUARE", "end PLAYER",
          "remove PLAYER CHARACTER", "spare PLAYER", "correct PLAYER PIECE@PLACE,...")


def pad_place(where: str) -> int | None:
    """The place number of ``pad1``..``pad5`` (None: not a pad place)."""
    if where.startswith(PAD) and where[len(PAD):].isdigit() and 1 <= int(where[len(PAD):]) <= PAD_PLACES:
        return int(where[len(PAD):])
    return None


def _character(text: str, word: str) -> str:
    if word not in ALL_CHARACTERS:
        raise NotationError(f"{text!r}: {word!r} is not a character (red-s1..red-s5, red-j1..red-j3, red-t1, "
                            "red-t2, the same for blue)")
    return word


def parse_action(text: str) -> Action:
    """The text form back into an action (NotationError naming the forms when it is none of them)."""
    w = text.split()
    verb, n = (w[0] if w else ""), len(w)
    player = w[1] if n > 1 and w[1] in PLAYERS else None
    if verb == "block" and n == 4 and player and w[2] in BLOCKS:
        coords(w[3])
        return Block(player, w[2], w[3])
    if verb == "deploy" and n in (4, 5) and player:
        ch = _character(text, w[2])
        if n == 4 and pad_place(w[3]) is not None:
            return Deploy(player, ch, w[3])
        if n == 5:
            coords(w[3])
            return Deploy(player, ch, w[3], parse_facing(w[4]))
    if verb == "roll" and n == 3 and player and w[2] in "012345" and len(w[2]) == 1:
        return Roll(player, int(w[2]))
    if verb in ("enter", "shoot") and n == 3:
        ch = _character(text, w[1])
        coords(w[2])
        return Enter(ch, w[2]) if verb == "enter" else Shoot(ch, w[2])
    if verb in ("pad", "end", "spare") and n == 2 and player:
        return ChoosePad(player) if verb == "pad" else End(player) if verb == "end" else Spare(player)
    if verb == "slide" and n == 3 and player and len(w[2]) == 1 and w[2] in LETTERS:
        return Slide(player, w[2])
    if verb == "turn" and n == 3:
        return Turn(_character(text, w[1]), parse_facing(w[2]))
    if verb == "move" and n == 5:
        ch = _character(text, w[1])
        coords(w[2]), coords(w[3])
        return Move(ch, w[2], w[3], parse_facing(w[4]))
    if verb == "remove" and n == 3 and player:
        return Remove(player, _character(text, w[2]))
    if verb == "correct" and n in (2, 3) and player:
        return Correct(player, _places(text, w[2]) if n == 3 else ())
    raise NotationError(f"{text[:80]!r}: write one of: {'; '.join(_FORMS)}")


def _places(text: str, listed: str) -> tuple[tuple[str, str], ...]:
    """``PIECE@PLACE,...`` of a correction, each place checked for its piece."""
    out = []
    for part in listed.split(","):
        piece, at, where = part.partition("@")
        square, colon, facing = where.partition(":")
        if not at or piece not in ALL_CHARACTERS + BLOCKS:
            raise NotationError(f"{text[:80]!r}: {part[:30]!r} is not PIECE@PLACE (red-s1@C4:N, red-s4@pad2, "
                                "block-3@E5, red-s2@box)")
        if where != "box" and not (piece in ALL_CHARACTERS and pad_place(where) is not None):
            coords(square)
            if (piece in ALL_CHARACTERS) != bool(colon):
                raise NotationError(f"{text[:80]!r}: {part[:30]!r}: a character on a square says its facing "
                                    "(red-s1@C4:N), a block does not")
            if colon:
                parse_facing(facing)
        out.append((piece, where))
    return tuple(out)
