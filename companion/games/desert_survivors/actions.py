"""Desert survivors' actions and their text forms (``str(parse_action(t)) == t``).

Pieces on the board are named by the space they stand on, never by what they are: a face-down
disc or counter is a secret, and an action's text goes into the log every player may read. Only
a disc's placement at setup and a food counter put on a card name the disc (``place red-3 C4``,
``feed red-3``); the view shows another seat a placement without its number.

* ``feed <disc>`` - one food counter from the owner's unplaced stack onto a hungry character's card.
* ``place <disc> <space>`` - setup: a disc laid face down on a free sand space.
* ``swap <space> <space>`` - phase 1: the active player's face-down disc on the first space changes
  places with the piece on the second (face down, or one of their own face-up discs).
* ``reveal <space>`` - phase 1: the active player turns their own face-down disc over.
* ``end <seat>`` - phase 1: after finding a road, the player stops instead of acting again.
* ``take <space> <space>`` - phase 2: the character on the first space takes the food X-counter on the second.
* ``attack <space> <space>`` - phase 2: the character on the first space attacks the one on the second.
* ``commit <seat> <n>`` - a fight: a side's markers, held in a closed fist (secret until ``show``).
* ``show`` - a fight: both fists opened at once, the fight decided.
* ``sacrifice <space>`` - phase 2: a hungry player eats one of their own characters.
* ``give <seat> <seat> <n>`` - phase 2: a satisfied player gives spare food to a hungry one.
* ``pass <seat>`` - phase 2: a player with nothing hungry does nothing this turn.
* ``lay <space>=<x-counter>,...`` - the face-down X-counters the hands drew at random and laid on the
  spaces the last deal filled, where they differ from the companion's own deal (the camera reads
  each counter's back): the counters taken from the pile change places with the dealt ones. It
  names what lies face down, so every view's log says it without the list.
* ``correct <space>=<piece>,...`` - the table as the players say it is (the panel's correction): the
  same pieces, each on the space named; faces stay as they were. It names what lies face down, so
  every view's log shows it without the list.

Seats are named by their (first) colour. Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import NotationError
from companion.games.desert_survivors.board import coords
from companion.games.desert_survivors.pieces import COLOURS, is_disc, is_x, parse_disc


@dataclass(frozen=True)
class Feed:
    disc: str

    def __str__(self) -> str:
        return f"feed {self.disc}"


@dataclass(frozen=True)
class Place:
    disc: str
    space: str

    def __str__(self) -> str:
        return f"place {self.disc} {self.space}"


@dataclass(frozen=True)
class Swap:
    source: str
    target: str

    def __str__(self) -> str:
        return f"swap {self.source} {self.target}"


@dataclass(frozen=True)
class Reveal:
    space: str

    def __str__(self) -> str:
        return f"reveal {self.space}"


@dataclass(frozen=True)
class End:
    seat: str

    def __str__(self) -> str:
        return f"end {self.seat}"


@dataclass(frozen=True)
class Take:
    source: str
    target: str

    def __str__(self) -> str:
        return f"take {self.source} {self.target}"


@dataclass(frozen=True)
class Attack:
    source: str
    target: str

    def __str__(self) -> str:
        return f"attack {self.source} {self.target}"


@dataclass(frozen=True)
class Commit:
    seat: str
    markers: int

    def __str__(self) -> str:
        return f"commit {self.seat} {self.markers}"


@dataclass(frozen=True)
class Show:
    def __str__(self) -> str:
        return "show"


@dataclass(frozen=True)
class Sacrifice:
    space: str

    def __str__(self) -> str:
        return f"sacrifice {self.space}"


@dataclass(frozen=True)
class Give:
    seat: str
    to: str
    food: int

    def __str__(self) -> str:
        return f"give {self.seat} {self.to} {self.food}"


@dataclass(frozen=True)
class Pass:
    seat: str

    def __str__(self) -> str:
        return f"pass {self.seat}"


@dataclass(frozen=True)
class Lay:
    placement: tuple[tuple[str, str], ...]  # (space, X-counter), in the order written

    def __str__(self) -> str:
        return "lay " + ",".join(f"{w}={x}" for w, x in self.placement)


@dataclass(frozen=True)
class Correct:
    placement: tuple[tuple[str, str], ...]  # (space, piece), in the order written

    def __str__(self) -> str:
        return "correct " + (",".join(f"{w}={p}" for w, p in self.placement) or "-")


Action = Feed | Place | Swap | Reveal | End | Take | Attack | Commit | Show | Sacrifice | Give | Pass | Lay | Correct
_FORMS = ("feed DISC", "place DISC SPACE", "swap SPACE SPACE", "reveal SPACE", "end SEAT", "take SPACE SPACE",
          "attack SPACE SPACE", "commit SEAT N", "show", "sacrifice SPACE", "give SEAT SEAT N", "pass SEAT",
          "lay SPACE=X,...", "correct SPACE=PIECE,...")


def _seat(text: str, word: str) -> str:
    if word not in COLOURS:
        raise NotationError(f"{text[:60]!r}: {word[:20]!r} is not a seat ({', '.join(COLOURS)})")
    return word


def _count(text: str, word: str) -> int:
    if not word.isdigit() or len(word) > 3 or (len(word) > 1 and word[0] == "0"):
        raise NotationError(f"{text[:60]!r}: {word[:20]!r} is not a count (0, 1, 2 ...)")
    return int(word)


def _space(word: str) -> str:
    coords(word)
    return word


def _placement(text: str, word: str) -> tuple[tuple[str, str], ...]:
    if word == "-":
        return ()
    out = []
    for item in word.split(","):
        where, eq, piece = item.partition("=")
        if not eq or not (is_disc(piece) or is_x(piece)):
            raise NotationError(f"{text[:60]!r}: {item[:30]!r} is not SPACE=PIECE (C4=red-3, D5=x12)")
        out.append((_space(where), piece))
    return tuple(out)


def parse_action(text: str) -> Action:
    """An action from its text form; NotationError names what does not parse."""
    words = text.split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    shape = (verb, len(args))
    if shape == ("feed", 1):
        return Feed(parse_disc(args[0]))
    if shape == ("place", 2):
        return Place(parse_disc(args[0]), _space(args[1]))
    if shape in (("swap", 2), ("take", 2), ("attack", 2)):
        a, b = _space(args[0]), _space(args[1])
        return Swap(a, b) if verb == "swap" else Take(a, b) if verb == "take" else Attack(a, b)
    if shape in (("reveal", 1), ("sacrifice", 1)):
        return Reveal(_space(args[0])) if verb == "reveal" else Sacrifice(_space(args[0]))
    if shape in (("end", 1), ("pass", 1)):
        return End(_seat(text, args[0])) if verb == "end" else Pass(_seat(text, args[0]))
    if shape == ("commit", 2):
        return Commit(_seat(text, args[0]), _count(text, args[1]))
    if shape == ("show", 0):
        return Show()
    if shape == ("give", 3):
        return Give(_seat(text, args[0]), _seat(text, args[1]), _count(text, args[2]))
    if shape == ("correct", 1):
        return Correct(_placement(text, args[0]))
    if shape == ("lay", 1):
        laid = _placement(text, args[0])
        if not laid or not all(is_x(x) for _, x in laid):
            raise NotationError(f"{text[:60]!r}: lay names X-counters, SPACE=X,... (E2=x10,F3=x4)")
        return Lay(laid)
    raise NotationError(f"{text[:60]!r}: write one of: {'; '.join(_FORMS)}")
