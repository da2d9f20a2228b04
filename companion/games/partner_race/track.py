"""Where a pawn can be and how it moves: the shared circular track, starting spaces, goal zones.

Positions are text that parses back: ``home``, ``start`` (the pawn's own starting space),
``T0``..``T63`` (the track, clockwise) and ``G1``..``G4`` (its goal circles, ``G4`` innermost).
The track has 16 spaces per player (the rulebook leaves the size open; see
``docs/rules-interpretations-partner-race.md``). Seat ``s`` (0-3 clockwise: yellow, green, blue,
red) has its starting space beside the junction just before track space ``16 s``, and its goal
zone branches off at the same junction: a pawn on its start steps first onto ``T(16 s)``, and a
pawn arriving at ``T(16 s - 1)`` steps next into its goal zone - after a whole lap, or after the
-4 card took it back behind its start. The starting space is never counted as a step.

A pawn on its own starting space is a wall: nobody passes that junction forwards, and only its
own colour passes it backwards. In the goal zone a pawn cannot pass another; a move that would
is turned round (as often as needed), and may leave the zone backwards onto the track.
"""

from __future__ import annotations

from collections.abc import Mapping

COLOURS = ("yellow", "green", "blue", "red")  # clockwise; partners sit across: yellow-blue, green-red
PER_SEAT = 16
TRACK = PER_SEAT * len(COLOURS)
GOAL = 4
PAWNS = 4


# Lookups worked out once: the rules ask these questions hundreds of times for one picture (a 7's
# parts, every card while none is laid), and parsing text each time was most of a reading's time.
_PAWNS = {c: tuple(f"{c}-{k}" for k in range(1, PAWNS + 1)) for c in COLOURS}
_COLOUR = {p: c for c, ps in _PAWNS.items() for p in ps}
_TRACK = {f"T{k}": k for k in range(TRACK)}
_GOAL = {f"G{k}": k for k in range(1, GOAL + 1)}
_JUNCTION = {PER_SEAT * s: c for s, c in enumerate(COLOURS)}  # track space -> the colour whose start is before it


def seat_of(colour: str) -> int:
    return COLOURS.index(colour)


def partner(colour: str) -> str:
    return COLOURS[(seat_of(colour) + 2) % len(COLOURS)]


def team(colour: str) -> tuple[str, str]:
    a, b = colour, partner(colour)
    return (a, b) if seat_of(a) < seat_of(b) else (b, a)


def colour_of(pawn: str) -> str:
    return _COLOUR.get(pawn) or pawn.rsplit("-", 1)[0]


def pawns_of(colour: str) -> tuple[str, ...]:
    return _PAWNS.get(colour) or tuple(f"{colour}-{k}" for k in range(1, PAWNS + 1))


def entry(colour: str) -> int:
    """The first track space after the colour's starting space."""
    return PER_SEAT * seat_of(colour)


def last(colour: str) -> int:
    """The track space just before the colour's junction: from here, forward is its goal zone."""
    return (entry(colour) - 1) % TRACK


def track(position: str) -> int | None:
    t = _TRACK.get(position)
    return t if t is not None or not position.startswith("T") else int(position[1:])


def goal(position: str) -> int | None:
    g = _GOAL.get(position)
    return g if g is not None or not position.startswith("G") else int(position[1:])


def valid(position: str) -> bool:
    """A position's text as :func:`forward` and the notation write it."""
    if position in ("home", "start"):
        return True
    kind, digits = position[:1], position[1:]
    if not digits.isdigit():
        return False
    n = int(digits)
    return (kind == "T" and 0 <= n < TRACK) or (kind == "G" and 1 <= n <= GOAL)


def walls(where: Mapping[str, str]) -> set[str]:
    """The colours with a pawn on their own starting space."""
    return {colour_of(p) for p, pos in where.items() if pos == "start"}


def locked(pawn: str, where: Mapping[str, str]) -> bool:
    """In a goal circle with every circle inside it taken: it never moves again."""
    g = goal(where[pawn])
    if g is None:
        return False
    if g >= GOAL:
        return True  # the innermost circle: nothing inside it to wait for
    taken = {goal(where[p]) for p in pawns_of(colour_of(pawn)) if p != pawn}
    return all(k in taken for k in range(g + 1, GOAL + 1))


def forward(pawn: str, steps: int, where: Mapping[str, str]) -> str | None:
    """Where ``pawn`` ends after ``steps`` forward, or None when the way is barred (a wall)."""
    way = path(pawn, steps, where)
    return way[-1] if steps > 0 and len(way) == steps else None


def path(pawn: str, steps: int, where: Mapping[str, str]) -> list[str]:
    """Where ``pawn`` stands after each of up to ``steps`` steps forward: all of them, or fewer
    when the way is barred after that many (a wall, a pawn in the goal zone), none when it cannot
    move. One walk answers every share of a 7 for this pawn."""
    colour = colour_of(pawn)
    pos = where[pawn]
    out: list[str] = []
    if pos == "home" or steps <= 0 or locked(pawn, where):
        return out
    taken = {goal(where[p]) for p in pawns_of(colour) if p != pawn and goal(where[p]) is not None}
    blocked = {colour_of(p) for p, q in where.items() if q == "start" and p != pawn}
    direction = 1
    for _ in range(steps):
        if pos == "start":
            pos = f"T{entry(colour)}"
        elif (g := goal(pos)) is not None:
            nxt = g + direction
            if direction > 0 and (nxt > GOAL or nxt in taken):
                direction, nxt = -1, g - 1  # the way in is barred: turn round
            elif direction < 0 and nxt in taken:
                direction, nxt = 1, g + 1
            if nxt < 1:
                pos = f"T{last(colour)}"  # backwards out of the goal zone, onto the track
            elif nxt in taken or nxt > GOAL:
                return out  # boxed in: cannot move at all
            else:
                pos = f"G{nxt}"
        elif direction < 0:
            t = track(pos)
            assert t is not None
            back = _back_one(colour, t, blocked)
            if back is None:
                return out
            pos = back
        else:
            t = track(pos)
            assert t is not None
            if t == last(colour):
                if 1 in taken:
                    return out  # the goal zone's first circle is taken: nobody passes it
                pos = "G1"
            else:
                nxt = (t + 1) % TRACK
                crossing = _JUNCTION.get(nxt)
                if crossing is not None and crossing in blocked:
                    return out  # a wall
                pos = f"T{nxt}"
        out.append(pos)
    return out


def backward(pawn: str, steps: int, where: Mapping[str, str]) -> str | None:
    """Where ``pawn`` ends after ``steps`` backwards (the -4 card), or None: barred, or not allowed
    (home, the goal zone)."""
    colour = colour_of(pawn)
    pos = where[pawn]
    if pos == "home" or goal(pos) is not None:
        return None
    blocked = {colour_of(p) for p, q in where.items() if q == "start" and p != pawn}
    for _ in range(steps):
        if pos == "start":
            pos = f"T{last(colour)}"  # passing its own starting space backwards is allowed
            continue
        t = track(pos)
        assert t is not None
        nxt = _back_one(colour, t, blocked)
        if nxt is None:
            return None
        pos = nxt
    return pos


def _back_one(colour: str, t: int, blocked: set[str]) -> str | None:
    crossing = _JUNCTION.get(t)
    if crossing is not None and crossing in blocked and crossing != colour:
        return None  # another colour's wall
    return f"T{(t - 1) % TRACK}"
