"""What the session knows besides the game state: is the table in sync, what waits, what the camera saw.

Plain values, recomputed from the camera after a restart (never logged), and carried by every
event as a :class:`Snapshot` so listeners never read back into the session.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games import Choice, Game, Reconciliation
from companion.games.base import unfaced

Picture = dict[str, tuple[str, ...]]  # cell -> sorted pieces, as the camera settled on it
Placement = Mapping[str, Sequence[str]]


@dataclass(frozen=True)
class Misplaced:
    """One piece where the game and the camera disagree: where it belongs and where it is seen."""

    piece: str
    belongs: str | None   # the cell the game has it on (None: off the board)
    seen: str | None      # the cell the camera sees it on (None: not seen)
    # a piece that faces a way (Layout.facings), seen turned: (the way the game has it, the way seen)
    facing: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.piece, "belongs": self.belongs, "seen": self.seen,
                **({"facing": list(self.facing)} if self.facing else {})}


@dataclass
class OutOfSync:
    reason: str
    offenders: tuple[str, ...]
    rule: str | None
    seen: dict[str, tuple[str, ...]]
    pieces: tuple[Misplaced, ...] = ()   # every piece that differs, with where it belongs

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "offenders": list(self.offenders), "rule": self.rule,
                "pieces": [m.to_dict() for m in self.pieces]}


@dataclass
class Step:
    """A move part-way on the table (one piece of it put down, the next not yet):
    calm, not read yet. Left so past ``hold`` seconds with nothing moving, it is out of sync."""

    says: str                              # what is left to do, in the players' words
    to_move: tuple[str, ...]               # the pieces still to move
    seen: dict[str, tuple[str, ...]]       # the picture it was read from
    since: float                           # the session's clock when that picture settled (or a hand lifted)
    hold: float                            # seconds it may stay so
    reading: Reconciliation | None = None  # a reading the players confirm if it stays so (pushed and ran back)
    # a change entered on the panel the hands now make on the table: piece -> (where the table had it,
    # where the game has it now); the pieces may be carried there one at a time
    follow: dict[str, tuple[str | None, str | None]] | None = None

    def to_dict(self) -> dict[str, Any]:
        # whole: the table already shows a whole move (the reading held): ending the turn reads it
        return {"says": self.says, "to_move": list(self.to_move), "hold_seconds": self.hold,
                "whole": self.reading is not None}


@dataclass
class Status:
    """What the session is doing besides the game state (not persisted: recomputed from the camera)."""

    verifying: bool = False
    setup_differences: list[dict[str, Any]] = field(default_factory=list)
    out_of_sync: OutOfSync | None = None
    step: Step | None = None  # a move part-way on the table: the players finish it
    decision: list[Choice] = field(default_factory=list)
    decision_seen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # a new id for every question put to the players: an answer tapped on a page names the question it
    # saw, so a tap that lands after a later move asked a new one (the same option number) is refused
    decision_id: str | None = None
    question: str | None = None  # why the players are asked (a reading hides what the camera cannot see)
    to_clear: tuple[tuple[str, str], ...] = ()  # (piece, cell): taken by the rules, still seen on the table
    view_blocked: bool = False  # something rests over the board: pieces under it are not judged
    camera_fault: str | None = None  # set while the camera is failing: the panel is the only input
    storage_fault: str | None = None  # set while the log cannot be written (full disk): moves wait in memory
    storage_reason: str | None = None  # "disk-full", "read-only", "io-error", ...
    # piece -> (where the camera reads it, None: nowhere; where the game has it): the players said the
    # table is as the game has it, so while both stay so the piece counts as where the game has it
    excused: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)

    def copy(self) -> Status:
        return replace(self, setup_differences=list(self.setup_differences), decision=list(self.decision),
                       decision_seen=dict(self.decision_seen), excused=dict(self.excused))


@dataclass(frozen=True)
class Snapshot:
    """The session at one instant, taken under its lock: what every event carries to its listeners."""

    game: Game
    game_id: str | None
    seq: int
    state: Any
    status: Status
    pending: int
    damaged: str | None


def _canonical(placement: Placement) -> dict[str, tuple[str, ...]]:
    return {c: tuple(sorted(ps)) for c, ps in placement.items() if ps}


def _where(placement: Placement) -> dict[str, str]:
    return {p: c for c, ps in placement.items() for p in ps}


def _where_piece(placement: Placement) -> dict[str, str]:
    """Piece -> cell, a piece named with the way it faces (``red-s1^N``) by its own id."""
    return {unfaced(p)[0]: c for c, ps in placement.items() for p in ps}


def _ways(placement: Placement) -> dict[str, str]:
    """Piece -> the way it faces, for the entries a picture names with one (``red-s1^N``)."""
    return {piece: way for piece, way in (unfaced(p) for ps in placement.values() for p in ps) if way}


def misplaced(expected: Placement, seen: Placement) -> tuple[Misplaced, ...]:
    """Every piece the camera sees somewhere else than the game has it (or not at all), or, for a piece
    that faces a way, seen where the game has it but turned another way."""
    want = {unfaced(p)[0]: c for p, c in _where(expected).items()}
    have = {unfaced(p)[0]: c for p, c in _where(seen).items()}
    ways, seen_ways = _ways(expected), _ways(seen)
    out = []
    for p in sorted(set(want) | set(have)):
        turned = (ways[p], seen_ways[p]) if p in ways and p in seen_ways and ways[p] != seen_ways[p] else None
        if want.get(p) != have.get(p) or turned:
            out.append(Misplaced(p, want.get(p), have.get(p), turned))
    return tuple(out)


def _on(cell: str | None, words: Mapping[str, str]) -> str:
    return f"on {words.get(cell, cell)}" if cell else "off the board"


def _differences(expected: Placement, seen: Placement) -> list[dict[str, Any]]:
    return [{"cell": c, "expected": list(expected.get(c, ())), "seen": list(seen.get(c, ()))}
            for c in sorted(set(expected) | set(seen)) if tuple(expected.get(c, ())) != tuple(seen.get(c, ()))]


def disagreement(pieces: Sequence[Misplaced], after: str, words: Mapping[str, str]) -> str:
    """The out-of-sync reason for pieces found where the game does not have them after a change,
    pieces and places in the game's words (``words``: :meth:`Game.words`), an id only where it has none."""
    return "the camera sees " + "; ".join(
        f"{words.get(m.piece, m.piece)} {_on(m.seen, words)} where the game has it {_on(m.belongs, words)}"
        if not m.facing or m.seen != m.belongs else
        f"{words.get(m.piece, m.piece)} {_on(m.seen, words)} facing {m.facing[1]} where the game has it facing "
        f"{m.facing[0]}" for m in pieces[:4]) + (f" (and {len(pieces) - 4} more)" if len(pieces) > 4 else "") + (
        f" (checked after {after})")


def to_follow(pieces: Sequence[Misplaced], words: Mapping[str, str]) -> str:
    """What the hands have left to do after a move entered on the panel, in the game's words."""
    return "entered on the panel, now on the table: " + "; ".join(
        f"put {words.get(m.piece, m.piece)} {_on(m.belongs, words)}" for m in pieces[:4]) + (
        f" (and {len(pieces) - 4} more)" if len(pieces) > 4 else "")


def strip(game: Game, state: Any, seen: Picture, excused: dict[str, tuple[str | None, str | None]] | None = None
          ) -> tuple[Picture, tuple[tuple[str, str], ...]]:
    """The picture without the pieces the rules took off the table, and where those still are;
    pieces the game says are hidden (under another) put where the game has them, and so are the
    pieces the players excused (``excused``, see :func:`excuse`) while the camera
    still reads them as it did and the game still has them where it did (a lapsed excuse is dropped
    from ``excused``).

    The FOG turns swallowed tokens over; until the players have done so the camera still sees
    them. That is a chore to do, not a disagreement: moves on the rest of the board are read.
    """
    taken = set(game.taken_off(state))
    kept: dict[str, list[str]] = {}
    left: list[tuple[str, str]] = []
    for cell, pieces in seen.items():
        for piece in pieces:
            if unfaced(piece)[0] in taken:  # taken off whichever way it faces
                left.append((unfaced(piece)[0], cell))
            else:
                kept.setdefault(cell, []).append(piece)
    for piece, cell in game.hidden(state, _canonical(kept)).items():  # under another piece
        kept.setdefault(cell, []).append(piece)
    if excused:
        kept = excuse(kept, _where(game.expected(state)), excused)
    return _canonical(game.alike(state, kept)), tuple(sorted(left))  # look-alike pieces named as expected


def excuse(seen: dict[str, list[str]], expected: Mapping[str, str],
           excused: dict[str, tuple[str | None, str | None]]) -> dict[str, list[str]]:
    """The picture with every excused piece where the game has it. An excuse holds while nothing
    about the piece moves: the camera reads it where it did (not at all, or on the same wrong cell)
    and the game has it where it did; otherwise it lapses (removed from ``excused``) and the camera
    is believed again - a piece missed under a stack is judged afresh once it shows or is moved."""
    entry = {unfaced(p)[0]: p for ps in seen.values() for p in ps}  # a piece facing a way: as the picture names it
    named = {unfaced(p)[0]: p for p in expected}
    where = {unfaced(p)[0]: c for p, c in _where(seen).items()}
    expected = {unfaced(p)[0]: c for p, c in expected.items()}
    out = {c: list(ps) for c, ps in seen.items()}
    for piece, (read, belongs) in list(excused.items()):
        if where.get(piece) != read or expected.get(piece) != belongs:
            del excused[piece]
            continue
        if read is not None:
            out[read].remove(entry[piece])
        if belongs is not None:
            out.setdefault(belongs, []).append(named.get(piece, piece))
    return out


def _itself(game: Game, state: Any, piece: str, cell: str) -> bool:
    """Whether the rules count a piece as itself rather than as one of a look-alike kind they rename
    (``Game.alike``): a piece counted as itself is still itself when shown twice; a look-alike one
    (a tile) is renamed by count, so twice is two tiles."""
    return game.alike(state, {cell: (piece, piece)}) == {cell: (piece, piece)}


def final_picture_check(game: Game, final: Any, expected: Picture, picture: Picture | None) -> dict[str, Any]:
    """Is the scored position the one the camera last saw? Pieces the game took off the board aside.

    Compared as the rules count it, like every picture in play (:func:`strip`): pieces under another
    put where the game has them, look-alike pieces by kind and number (``Game.alike``), so two
    look-alikes swapped is the same position, and each place is judged by what lies on it alone, so
    one look-alike missing names its place and not every place numbered after it. Only a piece
    counted as itself (one the rules took off the board) is set aside for not being placed: one
    look-alike more on the board is a difference whatever its id."""
    if picture is None:
        return {"picture": "none"}
    placed = {p for ps in expected.values() for p in ps}
    pieces = set(game.layout(final).pieces)
    kept = {c: [p for p in ps if p not in pieces or p in placed or not _itself(game, final, p, c)]
            for c, ps in picture.items()}
    for piece, cell in game.hidden(final, _canonical(kept)).items():  # under another piece
        kept.setdefault(cell, []).append(piece)
    seen = _canonical(game.alike(final, kept))
    diffs = [d for d in _differences(expected, seen) if game.alike(final, {d["cell"]: tuple(d["expected"])})
             != game.alike(final, {d["cell"]: tuple(d["seen"])})]
    return {"picture": "matches" if not diffs else "differs", "picture_differences": diffs}


def costs(game: Game, before: Any, after: Any) -> dict[str, Any]:
    """What an action spends of each counter the game declares with a unit (``spends``: ``[{unit,
    spent, left}]``, none for a game whose actions spend no counter), read from its views."""
    return {"spends": game.declaration.spends(game.view(before), game.view(after))}


def said(game: Game, before: Any, after: Any) -> list[str]:
    """What an action adds to the game's log in the players' words (the view's ``log``, as the Board
    page shows it): what a preview says it will log, the notation being the maintainers'."""
    logged = game.view(before).get("log", [])
    return list(game.view(after).get("log", [])[len(logged):])


def told(game: Game, before: Any, after: Any, action: str) -> str:
    """An action as an out-of-sync reason says what it was checked after: the log's words ("Ada plays
    a 5: ..."), its notation only for a game that keeps no log in words."""
    return "; ".join(said(game, before, after)) or f"'{action}'"
