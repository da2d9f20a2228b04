"""Desert survivors' pieces: the groups (colours), their character discs and cards, the X-counters.

Each group has seven wooden discs in its colour: characters 1-6 and a monkey. A disc's number is
its character: ``red-3`` is the red group's character 3, ``red-m`` its monkey. The rulebook's table
of character cards is missing from the text, so the values below are the companion's reading
(``docs/rules-interpretations-desert-survivors.md`` says why): two characters of each size, the
number is the nutrition (food) value, and the smaller a character the more victory points.

X-counters are named ``x1`` .. ``x84``: fourteen per set, a set being 3 treasures, 6 roads and 5
food counters worth 1, 2, 2, 3 and 4. Which counter is which follows from its number, as the
camera's marker on its face would say.

Pure: standard library only.
"""

from __future__ import annotations

import functools
import math

from companion.errors import NotationError

COLOURS = ("natural", "green", "red", "blue", "purple", "yellow")  # seats in this order, clockwise
GROUPS = {"natural": "Weirdos", "green": "Monsters", "red": "Mafiosi", "blue": "Tourists", "purple": "Girls",
          "yellow": "Retros"}
NUMBERS = (1, 2, 3, 4, 5, 6)
MONKEY = "m"
MARKERS_EACH, FOOD_EACH, MARKERS_IN_BOX = 7, 5, 42
X_SET = ("treasure",) * 3 + ("road",) * 6 + ("food",) * 5
FOOD_COUNTERS = (1, 2, 2, 3, 4)  # the values of a set's five food X-counters
TREASURES_ASIDE, TREASURE_STACK = 9, 3
ROUNDS = 4


def groups_for(players: int) -> tuple[str, ...]:
    """The colours in play: one per player, four in a 2-player game (each player plays two sets)."""
    if not 2 <= players <= 6:
        raise ValueError(f"desert survivors is played by 2 to 6 players, not {players}")
    return COLOURS[:4] if players == 2 else COLOURS[:players]


def oasis_boards_needed(boards: int) -> int:
    """Half of the mapboards, rounded up, carry an oasis."""
    return math.ceil(boards / 2)


# ------------------------------------------------------------------------------------------ discs
def discs_of(colour: str) -> tuple[str, ...]:
    return tuple(f"{colour}-{n}" for n in NUMBERS) + (f"{colour}-{MONKEY}",)


def characters_of(colour: str) -> tuple[str, ...]:
    """The six discs with a character card (not the monkey)."""
    return tuple(f"{colour}-{n}" for n in NUMBERS)


def colour_of(piece: str) -> str:
    return piece.rpartition("-")[0]


@functools.lru_cache(maxsize=4096)  # asked of every piece at every candidate a reading tries
def is_disc(piece: str) -> bool:
    colour, dash, n = piece.rpartition("-")
    return bool(dash) and colour in COLOURS and (n == MONKEY or n in {str(k) for k in NUMBERS})


def is_monkey(piece: str) -> bool:
    return is_disc(piece) and piece.endswith(f"-{MONKEY}")


def number(piece: str) -> int:
    """A character's number (its card); 0 for a monkey, which has no card."""
    n = piece.rpartition("-")[2]
    return 0 if n == MONKEY else int(n)


def size(piece: str) -> int:
    """Size = fight power = starvation: 1 for characters 1-2, 2 for 3-4, 3 for 5-6; a monkey none."""
    return (number(piece) + 1) // 2


def food_value(piece: str) -> int:
    """The red number: the food a character gives when eaten (the disc's own number)."""
    return number(piece)


def victory_points(piece: str) -> int:
    """The yellow number: 6 for character 1 down to 1 for character 6 (the weakest are worth most)."""
    return 7 - number(piece) if number(piece) else 0


def parse_disc(word: str) -> str:
    if not is_disc(word):
        raise NotationError(f"{word[:30]!r} is not a disc: a colour and a number or m, e.g. red-3 or red-m "
                            f"(colours: {', '.join(COLOURS)})")
    return word


# ------------------------------------------------------------------------------------------ X-counters
def x_ids(sets: int) -> tuple[str, ...]:
    return tuple(f"x{i}" for i in range(1, 14 * sets + 1))


def x_kind(piece: str) -> str:
    """``treasure``, ``road`` or ``food``."""
    return X_SET[(int(piece[1:]) - 1) % 14]


def x_food(piece: str) -> int:
    """A food X-counter's value (0 for a road or a treasure)."""
    k = (int(piece[1:]) - 1) % 14
    return FOOD_COUNTERS[k - 9] if k >= 9 else 0


def is_x(piece: str) -> bool:
    return len(piece) > 1 and piece[0] == "x" and piece[1:].isdigit() and 1 <= int(piece[1:]) <= 84
