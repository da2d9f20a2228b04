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
from companion.table.secrecy import keeps_secrets, named_pieces
from companion.table.sight import Viewpoint, out_of_sight, tall_seen
from companion.table.steps_said import Misplaced as Misplaced  # importable from here too, where it is compared
from companion.table.steps_said import disagreement as disagreement  # said through this module too
from companion.table.steps_said import make_it
from companion.table.steps_said import to_follow as to_follow

Picture = dict[str, tuple[str, ...]]  # cell -> sorted pieces, as the camera settled on it
Placement = Mapping[str, Sequence[str]]


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
    by: str = "entered on the panel"       # what made that change: a move on the panel, or an undo
    # that change's table as it stood before it (the picture, as compared): while the camera still reads
    # exactly it, no hand has begun and nobody is late; the hold time runs once the table changes
    before: dict[str, tuple[str, ...]] | None = None

    @property
    def waiting(self) -> bool:
        """A change entered on the panel (or undone) that no hand has begun on the table: calm for as
        long as it takes the players to come to the table, never red (only a table the hands have
        touched and then left half-done can be late)."""
        return self.follow is not None and self.before is not None and self.seen == self.before

    def to_dict(self) -> dict[str, Any]:
        # whole: the table already shows a whole move (the reading held): ending the turn reads it
        # waiting: the table still shows the picture from before the change; "make" says what the hands make
        return {"says": self.says, "to_move": list(self.to_move), "hold_seconds": self.hold,
                "whole": self.reading is not None, "waiting": self.waiting,
                **({"make": make_it(self.says)} if self.waiting else {})}


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
    # the same for look-alike pieces, which are not told apart: (the kind's first id, where the camera
    # reads one too many, where it misses one); it holds while both places still differ so
    excused_alike: list[tuple[str, str | None, str | None]] = field(default_factory=list)

    def copy(self) -> Status:
        return replace(self, setup_differences=list(self.setup_differences), decision=list(self.decision),
                       decision_seen=dict(self.decision_seen), excused=dict(self.excused),
                       excused_alike=list(self.excused_alike))


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
    # the corrections in the game's history, each with what it changed in the players' words:
    # (its place counted from the end of the history, its notation, the words); see :func:`corrections`
    corrected: tuple[tuple[int, str, str], ...] = ()


def canonical(placement: Placement) -> dict[str, tuple[str, ...]]:
    """A placement as pictures are compared: each cell's pieces sorted, empty cells left out."""
    return {c: tuple(sorted(ps)) for c, ps in placement.items() if ps}


def _where(placement: Placement) -> dict[str, str]:
    return {p: c for c, ps in placement.items() for p in ps}


def where_piece(placement: Placement) -> dict[str, str]:
    """Piece -> cell, a piece named with the way it faces (``red-s1^N``) by its own id."""
    return {unfaced(p)[0]: c for c, ps in placement.items() for p in ps}


def _ways(placement: Placement) -> dict[str, str]:
    """Piece -> the way it faces, for the entries a picture names with one (``red-s1^N``)."""
    return {piece: way for piece, way in (unfaced(p) for ps in placement.values() for p in ps) if way}


def untracked(seen: Placement, expected: Placement) -> Picture:
    """The picture without the way a piece faces where ``expected`` names it on that place with none
    (``red-j1^N`` on a pad where the game keeps ``red-j1``). Hands set every piece down facing some way;
    one the rules keep none of there is no difference (judged as one, it named no piece: red saying
    nothing). A piece elsewhere keeps its facing: a move's reading needs it."""
    bare = {(c, p) for c, ps in expected.items() for p in ps if unfaced(p)[1] is None}
    return canonical({c: [unfaced(p)[0] if (c, unfaced(p)[0]) in bare else p for p in ps]
                       for c, ps in seen.items()})


def kinds(game: Game, state: Any, *pictures: Placement) -> dict[str, str]:
    """Look-alike piece -> the first id of its kind, for every look-alike piece the pictures name
    (``Game.alike`` renames it, and names a lone one of its kind by that first id)."""
    out: dict[str, str] = {}
    for picture in pictures:
        for cell, pieces in picture.items():
            for piece in pieces:
                if piece not in out and not _itself(game, state, piece, cell):
                    out[piece] = game.table.alike(state, {cell: (piece,)})[cell][0]
    return out


def _by_kind(expected: Placement, seen: Placement, kinds: Mapping[str, str]) -> list[Misplaced]:
    """Look-alike pieces compared per place by kind and count: where the camera sees more of a kind
    than the game has, or fewer. One of a kind too many on one place and missing on another, and no
    other of that kind out of place, is that piece moved; anything else is said place by place. A piece
    missing is named as the game names it there (the board marks that one), one too many as seen."""
    out: list[Misplaced] = []
    for kind in sorted(set(kinds.values())):
        def count(picture: Placement) -> dict[str, list[str]]:
            return {c: [p for p in ps if kinds.get(p) == kind] for c, ps in picture.items()}
        want, have = count(expected), count(seen)
        extra = [(c, have[c][len(want.get(c, ())):]) for c in sorted(have) if len(have[c]) > len(want.get(c, ()))]
        short = [(c, want[c][len(have.get(c, ())):]) for c in sorted(want) if len(want[c]) > len(have.get(c, ()))]
        if len(extra) == len(short) == 1 and len(extra[0][1]) == len(short[0][1]) == 1:
            out.append(Misplaced(short[0][1][0], short[0][0], extra[0][0], kind=kind))  # named as the game has it
            continue
        out += [Misplaced(p, c, None, kind=kind) for c, ps in short for p in ps]
        out += [Misplaced(p, None, c, kind=kind) for c, ps in extra for p in ps]
    return out


def compare(game: Game, state: Any, expected: Placement, seen: Placement) -> tuple[Misplaced, ...]:
    """:func:`misplaced` as the rules count it: look-alike pieces (``Game.alike``) by kind and count."""
    return misplaced(expected, seen, kinds(game, state, expected, seen))


def misplaced(expected: Placement, seen: Placement, alike: Mapping[str, str] | None = None) -> tuple[Misplaced, ...]:
    """Every piece the camera sees somewhere else than the game has it (or not at all), or, for a piece
    that faces a way, seen where the game has it but turned another way. Look-alike pieces (``alike``:
    piece -> its kind, see :func:`kinds`) are compared per place by kind and count instead: which one
    lies where is chance, so pairing them by id would call every one numbered after a change moved."""
    if alike:
        own = [m for m in misplaced({c: [p for p in ps if p not in alike] for c, ps in expected.items()},
                                    {c: [p for p in ps if p not in alike] for c, ps in seen.items()})]
        return tuple(own + _by_kind(expected, seen, alike))
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


def differences(expected: Placement, seen: Placement) -> list[dict[str, Any]]:
    """Cell by cell, where two canonical placements differ: what the panel lists for a setup to fix."""
    return [{"cell": c, "expected": list(expected.get(c, ())), "seen": list(seen.get(c, ()))}
            for c in sorted(set(expected) | set(seen)) if tuple(expected.get(c, ())) != tuple(seen.get(c, ()))]


def follows(follow: Mapping[str, tuple[str | None, str | None]], m: Misplaced) -> bool:
    """Whether a piece that still differs is one of a change the hands are making (``Step.follow``):
    where the table had it or in a hand. A look-alike one by its kind and places, whichever it is: going
    from any place one of its kind leaves to any place one of its kind goes to (hands carrying look-alike
    tiles one at a time pair them as they like, not as the change was first compared)."""
    if m.kind is None:
        return m.piece in follow and m.seen in (follow[m.piece][0], None)
    ways = [way for key, way in follow.items() if key.split(" ", 1)[0] == m.kind]
    return any(belongs == m.belongs for _, belongs in ways) and \
        (m.seen is None or any(had == m.seen for had, _ in ways))


def follow_of(pieces: Sequence[Misplaced]) -> dict[str, tuple[str | None, str | None]]:
    """``Step.follow`` for the pieces that differ: piece -> (where the table has it, where the game
    has it); a look-alike one under its kind and a number ("T01 2"), as no particular one is meant."""
    return {(f"{m.kind} {n}" if m.kind else m.piece): (m.seen, m.belongs) for n, m in enumerate(pieces)}


def strip(game: Game, state: Any, seen: Picture, excused: dict[str, tuple[str | None, str | None]] | None = None,
          excused_alike: list[tuple[str, str | None, str | None]] | None = None, view: Viewpoint | None = None
          ) -> tuple[Picture, tuple[tuple[str, str], ...]]:
    """The picture without the pieces the rules took off the table, and where those still are;
    pieces the game says are hidden (under another) put where the game has them, and so are pieces a
    tall piece hides from the camera's place (``view``, :func:`companion.table.sight.out_of_sight`), and the
    pieces the players excused (``excused``, see :func:`excuse`) while the camera
    still reads them as it did and the game still has them where it did (a lapsed excuse is dropped
    from ``excused``); look-alike pieces the players excused (``excused_alike``) likewise, by kind and
    place (:func:`excuse_alike`).

    The FOG turns swallowed tokens over; until the players have done so the camera still sees
    them. That is a chore to do, not a disagreement: moves on the rest of the board are read.
    """
    taken = set(game.table.taken_off(state))
    kept: dict[str, list[str]] = {}
    left: list[tuple[str, str]] = []
    for cell, pieces in untracked(seen, game.table.expected(state)).items():  # facings the game keeps not there: dropped
        for piece in pieces:
            if unfaced(piece)[0] in taken:  # taken off whichever way it faces
                left.append((unfaced(piece)[0], cell))
            else:
                kept.setdefault(cell, []).append(piece)
    for piece, cell in game.table.hidden(state, canonical(kept)).items():  # under another piece
        kept.setdefault(cell, []).append(piece)
    if view is not None and tall_seen(game.table.layout(state), kept):  # behind a tall piece, from where the camera is
        expected = game.table.expected(state)
        for piece, cell in out_of_sight(game.table.layout(state), view, expected, kept, kinds(game, state, expected, kept),
                                        game.table.alike(state, kept)).items():
            kept.setdefault(cell, []).append(piece)
    if excused:
        kept = excuse(kept, _where(game.table.expected(state)), excused)
    named = game.table.alike(state, kept)  # look-alike pieces named as expected
    if excused_alike:
        named = game.table.alike(state, excuse_alike(named, game.table.expected(state), excused_alike, kinds(
            game, state, named, game.table.expected(state))))
    return untracked(named, game.table.expected(state)), tuple(sorted(left))


def excuse_alike(seen: Placement, expected: Placement, excused: list[tuple[str, str | None, str | None]],
                 kinds: Mapping[str, str]) -> dict[str, list[str]]:
    """The picture with every excused look-alike piece counted where the game has one: one of its kind
    taken off the place the camera reads one too many on, one put on the place it misses one on. Which
    tile is which is chance, so an excuse holds while those places still differ so (the camera still
    reads more of the kind there than the game has, or fewer); once one of them agrees, the excuse
    lapses (removed from ``excused``) and the camera is believed again."""
    out = {c: list(ps) for c, ps in seen.items()}
    kinds = {**kinds, **{k: k for k in kinds.values()}}  # the kind's first id, put where the game has one

    def count(picture: Mapping[str, Sequence[str]], cell: str, kind: str) -> int:
        return sum(kinds.get(p) == kind for p in picture.get(cell, ()))
    for entry in list(excused):
        kind, read, belongs = entry
        if (read is not None and count(out, read, kind) <= count(expected, read, kind)) or (
                belongs is not None and count(out, belongs, kind) >= count(expected, belongs, kind)):
            excused.remove(entry)
            continue
        if read is not None:
            out[read].remove(next(p for p in out[read] if kinds.get(p) == kind))
        if belongs is not None:
            out.setdefault(belongs, []).append(kind)
    return out


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
    return game.table.alike(state, {cell: (piece, piece)}) == {cell: (piece, piece)}


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
    pieces = set(game.table.layout(final).pieces)
    kept = {c: [p for p in ps if p not in pieces or p in placed or not _itself(game, final, p, c)]
            for c, ps in picture.items()}
    for piece, cell in game.table.hidden(final, canonical(kept)).items():  # under another piece
        kept.setdefault(cell, []).append(piece)
    seen = canonical(game.table.alike(final, kept))
    diffs = [d for d in differences(expected, seen) if game.table.alike(final, {d["cell"]: tuple(d["expected"])})
             != game.table.alike(final, {d["cell"]: tuple(d["seen"])})]
    return {"picture": "matches" if not diffs else "differs", "picture_differences": diffs}


def costs(game: Game, before: Any, after: Any) -> dict[str, Any]:
    """What an action spends of each counter the game declares with a unit (``spends``: ``[{unit,
    spent, left}]``, none for a game whose actions spend no counter), read from its views."""
    return {"spends": game.declaration.spends(game.panel.view(before), game.panel.view(after))}


def said(game: Game, before: Any, after: Any) -> list[str]:
    """What an action adds to the game's log in the players' words (the view's ``log``, as the Board
    page shows it): what a preview says it will log, the notation being the maintainers'."""
    logged = game.panel.view(before).get("log", [])
    return list(game.panel.view(after).get("log", [])[len(logged):])


def told(game: Game, before: Any, after: Any, action: str) -> str:
    """An action as an out-of-sync reason says what it was checked after: the log's words ("Ada plays
    a 5: ..."), its notation only for a game that keeps no log in words."""
    return "; ".join(said(game, before, after)) or f"'{action}'"


def is_correction(action: str | None) -> bool:
    """Whether a logged action is a manual correction ("the table as it is"): every game writes one as
    ``correct ...``, and the session says what it changed, which the notation alone does not."""
    return bool(action) and str(action).split(" ", 1)[0] == "correct"


def changed(game: Game, before: Any, after: Any) -> str:
    """What a correction changed, in the players' words: the game's pictures before and after it,
    compared as the rules count them (look-alike pieces by kind and place): "Ada's blue 1 on C7, not
    E7; one more on E5". Pieces are said in the shared view's words (:meth:`Game.words`), so a game
    with hidden pieces says nothing a player could not see on the table; "nothing" if the pictures
    are the same."""
    words = {**game.panel.words(before), **game.panel.words(after)}
    public = named_pieces(game.panel.view(before)) | named_pieces(game.panel.view(after)) if keeps_secrets(game) else None

    def name(piece: str) -> str:  # an id only where the shared view names the piece by it
        return words.get(piece) or (piece if public is None or piece in public else "a piece")

    def place(cell: str) -> str:
        return words.get(cell, cell)
    parts = []
    for m in compare(game, after, canonical(game.table.expected(before)), canonical(game.table.expected(after))):
        if m.facing and m.seen == m.belongs and m.seen is not None:
            parts.append(f"{name(m.piece)} on {place(m.seen)} facing {m.facing[1]}, not {m.facing[0]}")
        elif m.seen and m.belongs:
            parts.append(f"{name(m.piece)} on {place(m.seen)}, not {place(m.belongs)}")
        elif m.seen:
            parts.append(f"{name(m.piece)} put on {place(m.seen)}")
        else:
            parts.append(f"{name(m.piece)} taken off {place(str(m.belongs))}")
    return "; ".join(parts) or "nothing"


def corrections(game: Game, states: Sequence[tuple[str | None, Any]],
                memo: dict[tuple[int, int], tuple[Any, Any, str]] | None = None) -> tuple[tuple[int, str, str], ...]:
    """Each correction in an undo stack (``states``: (None, setup), then (action, state after)) with
    what it changed (:func:`changed`), placed counting from the end of the history, as the game's log
    lines and history end with the same actions. ``memo`` keeps the words of the corrections already
    said (keyed by the two states, which it holds so neither can be reused)."""
    out = []
    for j in range(1, len(states)):
        action, after = states[j]
        if not is_correction(action):
            continue
        before = states[j - 1][1]
        key = (id(before), id(after))
        if memo is not None and key in memo and memo[key][0] is before and memo[key][1] is after:
            words = memo[key][2]
        else:
            words = changed(game, before, after)
            if memo is not None:
                memo[key] = (before, after, words)
        out.append((j - len(states), str(action), words))
    return tuple(out)


def with_corrections(view: dict[str, Any], corrected: Sequence[tuple[int, str, str]]) -> None:
    """A view's ``log`` with each correction's line followed by what it changed ("The table was
    corrected by hand: Ada's blue 1 on C7, not E7"); a game that keeps no log in words is left with its notation."""
    log, history = view.get("log"), view.get("history")
    if not isinstance(log, list) or not corrected:
        return
    log = view["log"] = list(log)
    for back, action, words in corrected:
        if -back > len(log) or (isinstance(history, list) and len(history) == len(log) and history[back] != action):
            continue  # a log that does not end with these actions: left as the game says it
        log[back] = f"{log[back]}: {words}"


# The names these had while only this module used them, for code written against those names
_canonical, _differences, _where_piece = canonical, differences, where_piece
