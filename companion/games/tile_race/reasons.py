"""Which rule a picture breaks, said as players say it, with the way back.

A picture no play explains is out of sync, and "no play leaves the table like this (it differs on F6,
G7)" leaves the players guessing what they did wrong. Most such pictures are one token away from a
legal position: a pawn stepped diagonally, a wall stood in front of an exit, the turn's tile laid
before the pawn moved. Then the one change is the rules' own action (a step, a placing, a removal),
made from the position before it - the game's, or the one a legal reading of the rest of the picture
reaches - and the rules refuse it: the refusal is the reason, named (``rule=``) and said in the
rulebook's words, with what to do to put it right.

Only a picture with exactly one such change is explained so; more than one, and the players are told
where it differs, as before (guessing which of several changes was meant would name the wrong rule).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from companion.errors import IllegalMoveError
from companion.games.base import Reconciliation
from companion.games.tile_race import rules, words
from companion.games.tile_race.actions import Action, Mountain, Move, Remove, Tile, Wall
from companion.games.tile_race.grid import START, colour_of, coords, corners, ends, entry, neighbours, on_grid
from companion.games.tile_race.state import TileRaceState

Picture = Mapping[str, Sequence[str]]
Reader = Callable[[TileRaceState, Picture], Reconciliation]


def broken_rule(state: TileRaceState, picture: Picture, have: Picture, kind_of: Callable[[str], str | None],
                where_pawn: Callable[[TileRaceState, str], str | None], read: Reader) -> Reconciliation | None:
    """The rule the picture's one change breaks, or None when the picture is not one change away
    from a legal position (or the change breaks no rule the players can be told of).

    ``have`` is the table the game expects now; ``kind_of`` and ``where_pawn`` are the table's; ``read`` reads a picture as legal play (without
    asking this again), for the rest of the picture when the odd change came after a legal movement."""
    pawns = {p: c for c, ps in picture.items() for p in ps if kind_of(p) is None and p in state.pawns}
    moved = [(p, c) for p, c in sorted(pawns.items()) if c != where_pawn(state, p)]
    if len(moved) == 1 and _alike(picture, kind_of) == _alike(_drawn(state, have, where_pawn, moved[0]), kind_of):
        return _step_refused(state, *moved[0], where_pawn)
    if moved and not all(colour_of(p) == state.active for p, _ in moved):
        return None
    changes = _changes(have, picture, kind_of)
    for cell, kind, added in changes:
        if not added and kind != "wall":
            continue  # a tile collected or a mountain gone: no action of the turn's own is refused so
        rest = _without(picture, cell, kind, added, kind_of)
        base = state if not moved and len(changes) == 1 else _read(state, rest, read)
        if base is None or base.turn != state.turn or base.moving is not None or base.acted:
            continue
        answer = _placing_refused(base, cell, kind, added, [p for p in picture.get(cell, ()) if kind_of(p) == kind])
        if answer is not None:
            return answer
    return None


def _alike(picture: Picture, kind_of: Callable[[str], str | None]) -> dict[str, tuple[str, ...]]:
    """Look-alike pieces by cell and kind, tiles under a pawn or a mountain left out (the camera cannot
    tell them), so a pawn stepping onto a tile is one change, not two."""
    out: dict[str, tuple[str, ...]] = {}
    for cell, pieces in picture.items():
        covered = any(kind_of(p) != "tile" for p in pieces)
        kinds = tuple(sorted(k for p in pieces if (k := kind_of(p)) is not None and not (covered and k == "tile")))
        if kinds:
            out[cell] = kinds
    return out


def _drawn(state: TileRaceState, have: Picture, where_pawn: Callable[[TileRaceState, str], str | None],
           move: tuple[str, str]) -> dict[str, list[str]]:
    """The game's table with one pawn picked up and put down on ``move[1]``, its carried tiles with it."""
    pawn, cell = move
    out = {c: [p for p in ps if p != pawn] for c, ps in have.items()}
    here = where_pawn(state, pawn)
    carried = state.carried(pawn)
    if here is not None and carried:  # the tiles it stands on go with it (no flat tile lies under a pawn)
        out[here] = [p for p in out.get(here, []) if not p.startswith("T")]
    out.setdefault(cell, []).append(pawn)
    return out


def _changes(have_table: Picture, picture: Picture, kind_of: Callable[[str], str | None]
             ) -> list[tuple[str, str, bool]]:
    """Each look-alike piece come onto a cell (True) or gone from one (False), by cell and kind."""
    have, want = _alike(have_table, kind_of), _alike(picture, kind_of)
    out = []
    for cell in sorted(set(have) | set(want)):
        for kind in sorted(set(have.get(cell, ())) | set(want.get(cell, ()))):
            n = want.get(cell, ()).count(kind) - have.get(cell, ()).count(kind)
            out.extend([(cell, kind, n > 0)] * abs(n))
    return out


def _without(picture: Picture, cell: str, kind: str, added: bool, kind_of: Callable[[str], str | None]
             ) -> dict[str, list[str]]:
    """The picture with one change taken back: the piece come onto ``cell`` lifted, or the one gone put back."""
    out = {c: list(ps) for c, ps in picture.items()}
    if added:
        piece = next(p for p in out[cell] if kind_of(p) == kind)
        out[cell].remove(piece)
    else:
        out.setdefault(cell, []).append({"tile": "T99", "wall": "W99"}.get(kind, f"{kind}-99"))
    return out


def _read(state: TileRaceState, rest: Picture, read: Reader) -> TileRaceState | None:
    """The position the rest of the picture is, when legal play reaches it (the first reading)."""
    answer = read(state, rest)
    if not answer.choices:
        return None
    for text in answer.choices[0].actions:
        state = rules.apply(state, rules.parse_action(text))
    return state


def _step_refused(state: TileRaceState, pawn: str, cell: str,
                  where_pawn: Callable[[TileRaceState, str], str | None]) -> Reconciliation | None:
    """One pawn seen on a cell no step of it reaches: the rule that step breaks, and where it goes back."""
    back = where_pawn(state, pawn)
    home = "its start space" if back is not None and back.startswith("start-") else back or "where it was"
    who = words.pawn(state, pawn)
    mv = state.moving
    here = state.pawns[pawn] if mv is None or mv.pawn != pawn else (mv.path[-1] if mv.path else mv.origin)
    if colour_of(pawn) != state.active:
        return _said(f"it is {state.name_of(state.active)}'s turn, not {state.name_of(colour_of(pawn))}'s. "
                     f"Put {who} back on {home}", pawn, "turn")
    if not on_grid(cell, state.size):
        return None
    try:
        rules.apply(state, Move(pawn, (cell,)))
    except IllegalMoveError as exc:
        reason = str(exc)
    else:
        return None
    rule, said = "move", reason
    if here == START and cell != entry(pawn, len(state.players), state.size):
        rule, said = "entry", f"a pawn comes onto the grid at its own entry corner, " \
                              f"{entry(pawn, len(state.players), state.size)}"
    elif here != START and on_grid(here, state.size) and cell not in neighbours(here, state.size):
        (c, r), (x, y) = coords(here), coords(cell)
        rule = "diagonal" if abs(c - x) == 1 and abs(r - y) == 1 else "beside"
        said = "a pawn moves to a square beside it, never diagonally" if rule == "diagonal" else \
            f"a pawn moves one square at a time, to a square beside it, and {cell} is not beside {here}"
    elif "wall stands" in reason:
        rule, said = "wall", f"a wall stands between {here} and {cell}: a pawn never moves through a wall"
    return _said(f"{who} is on {cell}: {said}. Put it back on {home}", pawn, rule)


def _placing_refused(state: TileRaceState, cell: str, kind: str, added: bool, pieces: Sequence[str]
                     ) -> Reconciliation | None:
    """One tile, wall or mountain come onto the table (or a wall gone) that the rules' action refuses here."""
    colour = state.active
    action: Action
    if kind == "wall":
        if "|" not in cell:
            return None
        action = Wall(colour, cell) if added else Remove(colour, cell)
    elif not added or not on_grid(cell, state.size):
        return None
    elif kind == "tile":
        action = Tile(colour, cell)
    else:  # a mountain of its owner's colour: the owner's action
        owner = kind.partition("-")[2]
        if owner != colour and owner in state.players:
            who, whose = state.name_of(colour), state.name_of(owner)
            return _said(f"{whose}'s mountain came on {cell} in {who}'s turn: a player puts down only their own "
                         f"mountains, in their own turn. Take it back", tuple(pieces), "mountain-owner")
        action = Mountain(colour, cell)
    try:
        rules.apply(state, action)
    except IllegalMoveError as exc:
        reason = str(exc)
    else:
        return None
    who = state.name_of(colour)
    place = words.place(cell)  # "between C3 and C4", "on C4"
    before_moving = not state.moved and rules.movement_possible(state)
    offenders = tuple(pieces) if added else ()
    if isinstance(action, Tile) and before_moving:
        return _said(f"{who} laid a tile {place} before moving: the turn's tile is laid after the pawn has moved. "
                     "Take the tile back and move a pawn first", offenders, "tile-after-moving")
    if isinstance(action, Remove) and before_moving:
        return _said(f"the wall {place} is gone before {who} moved: a wall is taken away only at the end of the "
                     "turn, after the movement. Stand it back and move a pawn first", offenders, "remove-after-moving")
    if isinstance(action, Wall) and any(s in corners(state.size) for s in ends(cell)):
        exit_ = next(s for s in ends(cell) if s in corners(state.size))
        return _said(f"{who} stood a wall {place}: no wall may stand in front of an exit ({exit_} is one). "
                     "Take the wall away", offenders, "wall-before-exit")
    rule = {Wall: "wall", Remove: "remove", Tile: "tile", Mountain: "mountain"}[type(action)]
    undo = "take it back" if added else "stand it back"
    deed = {Wall: "stood a wall", Remove: "took away the wall", Tile: "laid a tile", Mountain: "put a mountain"}
    return _said(f"{who} {deed[type(action)]} {place}: {_plain(reason, cell)}. {undo.capitalize()}", offenders, rule)


def _plain(reason: str, cell: str) -> str:
    """A rule's refusal in the players' words: the place just named is "there", and an edge is the edge
    between its two squares, never its id (``F4|F5``)."""
    for piece in ("a wall on ", "a mountain on ", "the wall on "):
        reason = reason.replace(f"{piece}{cell}", f"{piece.removesuffix('on ')}there")
    return re.sub(r"\b([A-Z]\d+)\|([A-Z]\d+)\b", r"the edge between \1 and \2", reason)


def _said(text: str, offenders: str | Sequence[str], rule: str) -> Reconciliation:
    """Out of sync, for the reason said (it follows "out of sync:" on the pages, so it starts small)."""
    return Reconciliation.illegal(text, (offenders,) if isinstance(offenders, str) else tuple(offenders), rule)

