"""The door every table game comes through: one :class:`Game` base class and the values it speaks in.

The session, the camera, the LEDs and the panel know a game only through this module: they ask
a :class:`Game` for its setup questions, a new state, the legal actions, what the camera should
see (:meth:`Game.expected`), what a camera picture means (:meth:`Game.reconcile`), what a panel
may show (:meth:`Game.view`) and what the LEDs show (:meth:`Game.led_scene`). A game is pure
functions over immutable states (boardgame.io's shape); actions have a text form that parses
back (python-chess's ``Move.from_uci``). The framework owns the log, undo, replay, turn timers
and the out-of-sync state, so a new game writes rules and nothing else.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from companion.errors import BoardFileError
from companion.games.assembly import Assembly
from companion.games.boardfile import every_place
from companion.games.declaration import GameType
from companion.games.leds import (FORMER_SEGMENT_NAMES, LED_ROLES, OFF_LIGHT, Count, LedScene,  # noqa: F401  (the door's values)
                                 Light)

RGB = tuple[int, int, int]
Point = tuple[float, float]
Placement = Mapping[str, Sequence[str]]
# A piece whose facing the layout reads (Piece.facing) is named in a picture with the way it faces:
# ``red-s1^N``; a piece with a marker on each face (Piece.faces) with the face that shows:
# ``red-3^back``. Games without such pieces never see the mark, so their pictures are as before.
FACED = "^"


def faced(piece: str, way: str | None) -> str:
    """A piece as a picture names it: with the way it faces, when that is known."""
    return f"{piece}{FACED}{way}" if way else piece


def unfaced(entry: str) -> tuple[str, str | None]:
    """A picture's entry split into the piece and the way it faces (None: no facing read)."""
    piece, mark, way = entry.partition(FACED)
    return piece, (way if mark else None)


# ------------------------------------------------------------------------------------------ geometry
@dataclass(frozen=True)
class Cell:
    """A place a piece can stand: a hex, a square, a track space, a card spot, a boat place."""

    id: str
    kind: str                             # the game's word for it ("beach", "pier", "track", ...)
    center_mm: Point
    outline: tuple[Point, ...] = ()       # polygon in board millimetres (empty: a point)
    label: str = ""
    group: str | None = None              # a row, a region, a track the cell belongs to
    fill: RGB | None = None               # how a drawing paints it (None: not filled)
    line: RGB | None = None               # its outline's colour (None: no outline)
    standable: bool = True                # False: printed, but no piece ever stands there (woods)
    facts: Mapping[str, Any] = field(default_factory=dict)  # game facts a panel may show (JSON-able);
    #                                     "pile": pieces laid here cover the one before (played cards);
    #                                     "stack": pieces sharing it stand on each other (the top one shows)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "x": self.center_mm[0], "y": self.center_mm[1],
                "outline": [[round(x, 2), round(y, 2)] for x, y in self.outline], "label": self.label,
                "group": self.group, "fill": _hex(self.fill), "line": _hex(self.line), "standable": self.standable,
                **dict(self.facts)}


@dataclass(frozen=True)
class Piece:
    """A physical piece: its marker, how large the printed marker is, how it looks."""

    id: str
    marker: int
    marker_mm: float
    kind: str = "piece"
    label: str = ""
    colour: RGB | None = None
    facing: bool = False                  # does the way it points matter to the rules?
    facts: Mapping[str, Any] = field(default_factory=dict)
    # A piece with a marker on each face (a disc face up or down, a die): the face's name -> its
    # marker; ``marker`` is one of them. The camera reads which face shows from which marker it sees
    # and a picture names the piece with it, as a facing piece with its way (``faced``): a flip is a
    # change like a turn. A piece has faces or a facing, not both. Empty: one marker, one face. A
    # fact ``laid`` names the face up as hands bring it to the table (the simulated table's page).
    faces: Mapping[str, int] = field(default_factory=dict)
    # How far above the board its marker sits (a pawn's top, a wall stand's cap); None: the layout's
    # piece_height_mm. The camera sees a tall piece's marker shifted away from under it, and the
    # detector moves it back by this height (vision/camera_place.py).
    height_mm: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "marker": self.marker, "kind": self.kind, "label": self.label,
                "colour": _hex(self.colour), "facing": self.facing, **({"faces": list(self.faces)} if self.faces else {}),
                **dict(self.facts)}

    @property
    def markers(self) -> tuple[int, ...]:
        """Every marker the piece carries: one per face, or its one marker."""
        return tuple(self.faces.values()) or (self.marker,)


@dataclass(frozen=True)
class Edge:
    """Two cells a piece can stand between, or step across (``kind``: the game's word)."""

    a: str
    b: str
    kind: str = "adjacent"


@dataclass(frozen=True)
class Track:
    """A printed track whose position a game value gives (a FOG track, a score track, a round track)."""

    id: str
    label: str
    spaces: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    """A board's geometry in millimetres: all the camera and a drawing need, and nothing of the rules."""

    name: str
    size_mm: Point
    marker_dictionary: str
    fiducials: tuple[Mapping[str, Any], ...]   # {"id", "center_mm": [x, y], "size_mm"}
    cells: Mapping[str, Cell]
    pieces: Mapping[str, Piece]
    marker_mm: float                           # the usual piece marker's side
    snap_mm: float                             # a piece this near a cell centre stands on it
    piece_height_mm: float = 0.0               # markers sit this far above the board
    special_markers: Mapping[str, int] = field(default_factory=dict)  # e.g. a turn marker
    edges: tuple[Edge, ...] = ()
    tracks: tuple[Track, ...] = ()
    colours: Mapping[str, RGB] = field(default_factory=dict)          # player colours by name
    # The ways a piece with Piece.facing may face: name -> the marker's angle on the board when the
    # piece faces so (degrees counter-clockwise from the board's x axis, seen from above; 0: the
    # marker upright as the board is drawn). A marker this many degrees or fewer off one is read so;
    # farther off it is turned between two ways and not read, like a piece between two cells.
    facings: Mapping[str, float] = field(default_factory=dict)
    facing_tolerance_deg: float = 30.0
    facing_on: tuple[str, ...] = ()  # the kinds of cell where the way counts (empty: every cell)

    @property
    def marker_to_piece(self) -> dict[int, str]:
        """Every piece marker -> its piece (each face's marker names the same piece)."""
        return {m: p.id for p in self.pieces.values() for m in p.markers}

    @property
    def marker_face(self) -> dict[int, str]:
        """The marker of each face of a piece with faces -> the face it shows (Piece.faces)."""
        return {m: face for p in self.pieces.values() for face, m in p.faces.items()}

    def height_of(self, piece: str) -> float:
        """How far above the board a piece's marker sits: its own height, else the board's token height."""
        own = self.pieces[piece].height_mm if piece in self.pieces else None
        return self.piece_height_mm if own is None else own

    def marker_size(self, marker: int) -> float:
        for piece in self.pieces.values():
            if marker in piece.markers:
                return piece.marker_mm
        return self.marker_mm

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "size_mm": list(self.size_mm),
                "cells": [c.to_json() for c in self.cells.values()],
                "pieces": {p.id: p.to_json() for p in self.pieces.values()},
                "edges": [[e.a, e.b, e.kind] for e in self.edges],
                "tracks": [{"id": t.id, "label": t.label, "spaces": list(t.spaces)} for t in self.tracks],
                "colours": {k: _hex(v) for k, v in self.colours.items()},
                "special_markers": dict(self.special_markers), "facings": dict(self.facings)}


@dataclass(frozen=True)
class BoardFit:
    """A printed board measured against its board file (``fog-companion fit-board``): every place of
    the file moved by one affine map (the print's scale, shear and offset against the file), and the
    corner markers where they were found glued. A game writes it as a board file of its own kind."""

    transform: tuple[float, float, float, float, float, float]  # x' = a x + b y + c, y' = d x + e y + f
    fiducials: Mapping[int, Point]  # marker id -> centre, printed millimetres

    def apply(self, point: Point) -> Point:
        a, b, c, d, e, f = self.transform
        x, y = point
        return (a * x + b * y + c, d * x + e * y + f)

    def unapply(self, point: Point) -> Point:
        """Printed millimetres -> the file's millimetres (the inverse of :meth:`apply`)."""
        a, b, c, d, e, f = self.transform
        det = a * e - b * d
        x, y = point[0] - c, point[1] - f
        return ((e * x - b * y) / det, (-d * x + a * y) / det)

    @property
    def scale(self) -> float:
        """How much larger the print is than the file (a length ratio)."""
        a, b, _, d, e, _ = self.transform
        return math.sqrt(abs(a * e - b * d))


def packaged_or_file(package: str, folder: str, ref: str, error: type[Exception], what: str = "board"
                     ) -> tuple[str, str]:
    """The text of a file shipped in ``package``/``folder`` (by name) or of a file (by path: anything
    with '/' or ending in '.toml'), and where it came from; ``error`` names what cannot be read."""
    from importlib import resources
    from pathlib import Path

    if "/" in ref or ref.endswith(".toml"):
        path = Path(ref)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise error(f"cannot read {what} file {path}: {exc.strerror or exc}") from None
    item = resources.files(package) / folder / f"{ref}.toml"
    if not item.is_file():
        raise error(f"no packaged {what} named {ref!r}")
    return item.read_text(encoding="utf-8"), f"package:{ref}"


_LAYOUTS: dict[int, tuple[Any, Layout]] = {}


def layout_once(source: Any, build: Any) -> Layout:
    """``build(source)``, made once per (immutable) board object: every frame and page asks for it."""
    cached = _LAYOUTS.get(id(source))
    if cached is not None and cached[0] is source:
        return cached[1]
    built = build(source)
    _LAYOUTS[id(source)] = (source, built)
    return built


def polygon(center: Point, radius: float, corners: int, turn_deg: float = 0.0) -> tuple[Point, ...]:
    """A regular polygon's outline (a pointy-top hex is ``corners=6, turn_deg=30``)."""
    cx, cy = center
    return tuple((round(cx + radius * math.cos(math.radians(360 * k / corners + turn_deg)), 2),
                  round(cy + radius * math.sin(math.radians(360 * k / corners + turn_deg)), 2))
                 for k in range(corners))


def _hex(rgb: RGB | None) -> str | None:
    return None if rgb is None else "#%02x%02x%02x" % tuple(rgb)


# ------------------------------------------------------------------------------------------ answers
@dataclass(frozen=True)
class Choice:
    """One way a camera picture can be read: the actions, in order, and what they hand out."""

    actions: tuple[str, ...]
    summary: str
    details: Mapping[str, Any] = field(default_factory=dict)   # JSON-able, the game's own (for a maintainer)
    detail: str = ""                    # what else the reading hands out, in words the panel shows after the
    #                                     summary ("bonus +1 RP"): the page knows no key of the game's own

    def to_dict(self) -> dict[str, Any]:
        return {"actions": list(self.actions), "summary": self.summary, **dict(self.details),
                "detail": self.detail or None}


@dataclass(frozen=True)
class Reconciliation:
    """What a picture means: one reading (apply it), several (ask), a step (a move part-way: wait for
    the rest), or none (illegal, and why).

    A hand makes a move in parts (the card laid, then the pawn; the first token of a swap, then the
    second), and the camera settles on each part. A picture that some continuation of a legal move
    reaches is a *step*: nothing is applied and nothing is wrong yet; ``step`` says what is left to
    do, ``to_move`` the pieces still to move (or whose owner moves next)."""

    choices: tuple[Choice, ...] = ()
    reason: str | None = None          # set when no legal reading exists
    offenders: tuple[str, ...] = ()    # the pieces that break a rule
    rule: str | None = None            # the rule's short name
    question: str | None = None        # set when the players must confirm even a single reading (it hides
    #                                    something the camera cannot see); the session then asks
    step: str | None = None            # set when the picture is part-way through a legal move: what is left
    to_move: tuple[str, ...] = ()      # with a step: the pieces still to move
    tokens: int = 1                    # with a step: how many tokens the hands still have to lay (eleven
    #                                    counters laid out): the hold time is allowed for each of them
    by_hands: bool = False             # choices told apart by the piece each names first: the one the hands lifted first is taken

    @property
    def ok(self) -> bool:
        return bool(self.choices)

    @property
    def ambiguous(self) -> bool:
        """The players are asked: several readings, or one that must be confirmed."""
        return len(self.choices) > 1 or (bool(self.choices) and self.question is not None)

    @property
    def part_way(self) -> bool:
        """A move is under way on the table: not read yet, not wrong either. With ``choices`` as well
        (a reading that must be confirmed, which a move still being made also leaves) the players are
        asked only if the picture stays so past the hold time."""
        return self.step is not None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "ambiguous": self.ambiguous, "choices": [c.to_dict() for c in self.choices],
                "reason": self.reason, "offenders": list(self.offenders), "rule": self.rule,
                "question": self.question, "step": self.step, "to_move": list(self.to_move)}

    @classmethod
    def illegal(cls, reason: str, offenders: Sequence[str] = (), rule: str | None = None) -> Reconciliation:
        return cls((), reason, tuple(offenders), rule)

    @classmethod
    def partial(cls, step: str, to_move: Sequence[str] = (), rule: str | None = None, tokens: int = 1
                ) -> Reconciliation:
        """A picture part-way through a legal move: ``step`` tells the players what is left to do."""
        return cls((), None, (), rule, step=step, to_move=tuple(to_move), tokens=max(1, tokens))


@dataclass(frozen=True)
class Outcome:
    winners: tuple[str, ...]
    reason: str


@runtime_checkable
class ScoreReport(Protocol):
    def to_dict(self) -> dict[str, Any]: ...

    def lines(self) -> list[str]: ...


@dataclass(frozen=True)
class TurnTimer:
    """A turn's time limit: ``key`` changes when a new turn begins. The LEDs and the panel call it a
    turn timer; ``label`` is the name the game's players know it by, shown on the Board page."""

    key: tuple[Any, ...]
    seconds: float
    on_expiry: str                      # the action the session takes when time runs out
    label: str = "Turn timer"           # shown beside the seconds left ("Hourglass")


@dataclass(frozen=True)
class TableStatus:
    """What the session adds to a game's LED scene: a waiting question, offending pieces."""

    waiting: bool = False               # the players are asked which reading happened
    offenders: tuple[str, ...] = ()     # out of sync: these pieces break a rule
    step: bool = False                  # a move is part-way on the table: calm, the players finish it
    to_move: tuple[str, ...] = ()       # with a step: the pieces still to move (whose owner moves next)


# ------------------------------------------------------------------------------------------ the game
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Game(ABC, Generic[StateT, ActionT]):
    """Rules of one table game. Pure: no I/O, no clocks, no randomness beyond a given seed.

    A game subclasses ``Game[ItsState, ItsAction]`` and writes the abstract members (its rules, what
    the camera should see, what a picture means, what the panel and the LEDs show). Every other
    member has a default that is right for a game without that thing (no turn timer, no pieces
    taken off, no markers, no hidden pieces, nothing the rules do by themselves), so a game writes
    only what it has, and a member added to the door later does not break the games already there.
    The two type parameters let a type checker hold each game to its own state and actions while
    the session, the camera and the panel, which hold any game, see ``Game`` (``Game[Any, Any]``).
    """

    name: str
    title: str
    players: tuple[int, ...]            # the player counts it supports
    # The game is dealt a secret at setup (which blocks are live): a new game is given ``deal``, a
    # number drawn by the companion that nobody at the table chooses or sees, besides the seed.
    dealt: bool = False

    @property
    def declaration(self) -> GameType:
        """What kind of game it is. By default one without luck, secrets, counters or phases of its own
        whose players act in turn: a game declares what it has."""
        return GameType(self.name, self.title, tuple(self.players))

    # ------------------------------------------------------------------ what every game writes
    @abstractmethod
    def new_game(self, players: int, seed: int = 0, **settings: Any) -> StateT:
        """A fresh, seeded state from the answers to :meth:`setup_schema` (SetupError / ValueError if bad)."""

    @abstractmethod
    def to_json(self, state: StateT) -> dict[str, Any]:
        """A JSON-able dict that :meth:`from_json` turns back into an equal state."""

    @abstractmethod
    def from_json(self, data: Any) -> StateT:
        """Parse a saved state (a dict, or its JSON text); ``StateFormatError`` names what is wrong."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """An action from its text; ``str(action)`` parses back to an equal action."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Every action the active player may take now, ending the turn included."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT | str) -> StateT:
        """The state after an action (value or text); never mutates; ``IllegalMoveError`` if illegal."""

    @abstractmethod
    def correction(self, state: StateT, seen: Placement) -> ActionT:
        """The action that records "the board as seen is right" (a manual correction)."""

    @abstractmethod
    def layout(self, state: StateT | None = None, board: str | None = None) -> Layout:
        """The board's geometry: the state's board, else the named board (None: the default)."""

    @abstractmethod
    def expected(self, state: StateT) -> dict[str, tuple[str, ...]]:
        """What the camera should see now: cell -> sorted piece ids."""

    @abstractmethod
    def reconcile(self, state: StateT, seen: Placement) -> Reconciliation:
        """What a stable camera picture means in ``state`` (pieces in :meth:`taken_off` already left
        out, those :meth:`hidden` where the game has them put in). A piece moved may still be missing
        (hidden where it went): the game knows where that can be.

        A picture part-way through a legal move (every piece that differs is where the move puts it,
        on its way there, not seen because a hand holds it, or sharing a cell on the way) is returned
        as :meth:`Reconciliation.partial` with words for the players: a step, never illegal.

        A reading that hides what the camera cannot see (a piece that ends where it started, a
        move that ends the turn early) is returned with a ``question``: the players confirm it."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """None while the game runs; the winners and why once it is over."""

    @abstractmethod
    def score(self, state: StateT) -> ScoreReport:
        """A per-player (or per-team) breakdown, JSON-able through ``to_dict``."""

    @abstractmethod
    def view(self, state: StateT, seat: str | None = None) -> dict[str, Any]:
        """What a panel may show (hidden information removed for ``seat``)."""

    @abstractmethod
    def led_scene(self, state: StateT, status: TableStatus = TableStatus()) -> LedScene:
        """What the LEDs show for ``state``."""

    # ------------------------------------------------------------------ defaults a game may override
    def secrets_changed(self, state: StateT, seat: str | None, seed: int = 0) -> StateT:
        """The same table with every secret ``seat`` may not know changed (another seat's face-down
        pieces, hand or closed fist; ``seat`` None: every secret), drawn from ``seed``. A game that
        declares per-seat secrets writes it, and the door test holds ``view(state, seat)`` unchanged by
        it. By default the state itself: a game without secrets has none to change."""
        return state

    def public_json(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        """A saved state (:meth:`to_json`) as the players may read it: what an export or a published
        event carries. By default all of it; a game whose saved state keeps a secret only the companion
        may know (which blocks are live) leaves it out. The store keeps the whole saved state."""
        return dict(saved)

    def seats(self, state: StateT) -> tuple[str, ...]:
        """The seats a phone may join to see that seat's own view (:meth:`view` with ``seat``). A game
        whose declaration has per-seat secrets has one per player: by default the ``seat`` of each of
        the view's ``players``. Any other game has none, and every phone sees the shared view."""
        if self.declaration.information != "per-seat":
            return ()
        players = self.view(state).get("players")
        return tuple(str(p["seat"]) for p in players or () if isinstance(p, Mapping) and p.get("seat"))

    def actor(self, state: StateT, action: ActionT) -> str | None:
        """The seat whose phone may enter ``action`` (a closed fist is its owner's to commit), or None:
        anyone at the table may enter it (a reveal both sides wait for). By default the player to move
        (the view's ``active``), since one player acts at a time; a game with simultaneous input says
        whose each commitment is."""
        active = self.view(state).get("active")
        return active if isinstance(active, str) else None

    def said(self, state: StateT, action: str, seat: str | None) -> str:
        """An action's text as ``seat`` may read it (None: the shared table), in the event a phone is
        sent once it is made; ``state`` is the state after it. By default the text itself: it names
        nothing secret. A game whose actions carry a secret (the markers in a closed fist) says less."""
        return action

    def seat_choice(self, state: StateT, action: ActionT, seat: str) -> str | None:
        """``action``, one of ``seat``'s own (:meth:`actor`), as the button on that seat's phone says it
        to a player who never read the notation, or None: not a button there (entered by moving pieces).
        By default the text with each piece and place it names in the players' words (:meth:`words`)."""
        named = self.words(state)
        return " ".join(named.get(w, w) for w in str(action).split())

    def picks(self, state: StateT) -> dict[str, str]:
        """In a phase of picks (a draft): piece -> the legal action that picks it. By default each legal
        action that names exactly one piece of the layout (a word of its text), the usual way a pick
        is written; a game whose picks say their piece otherwise overrides it."""
        pieces = self.layout(state).pieces
        out: dict[str, str] = {}
        for action in self.legal_actions(state):
            named = [w for w in str(action).split() if w in pieces]
            if len(named) == 1:
                out.setdefault(named[0], str(action))
        return out

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        """The setup page's questions: ``{"name", "label", "kind", ...}`` (see docs/architecture.md).
        By default how many play (of :attr:`players`) and the seed: all a game without choices asks."""
        return [{"name": "players", "label": "Players", "kind": "count", "choices": list(self.players)},
                {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1}]

    def assembly(self, board: str | None = None) -> Assembly | None:
        """The parts players lay at setup for a board the camera reads (``companion/games/assembly.py``), or None."""
        return None

    def complete_action(self, state: StateT, text: str) -> str:
        """The full text of an action a player typed short at a terminal (by default the text as it is)."""
        return text.strip()

    def end_turn_action(self, state: StateT, reason: str) -> ActionT | None:
        """The action that ends the active player's turn now (the End-turn button), or None (the
        default: a turn ends by what the player plays, and the panel offers no button)."""
        return None

    def forced_action(self, state: StateT) -> ActionT | None:
        """An action the rules take by themselves now (a turn with nothing left ends), or None (the
        default: nothing happens unless a player acts)."""
        return None

    def targets(self, state: StateT, piece: str) -> dict[str, tuple[Choice, ...]]:
        """Where ``piece`` can go with one legal action now (the panel's dots): cell -> the ways there,
        a :class:`Choice` of one action each, the usual one first. Several (two cards that both take a
        pawn there): the panel asks which was played. By default none: the panel draws no dots."""
        return {}

    def taken_off(self, state: StateT) -> Sequence[str]:
        """Pieces the rules took off the table that players may still have on it (The FOG: swallowed
        tokens, turned over by hand). The session lists them as a chore, never as a disagreement.
        By default none: the rules never take a piece the players must remove."""
        return ()

    def hidden(self, state: StateT, seen: Placement) -> dict[str, str]:
        """Pieces missing from a picture that the camera cannot see where the game has them (the
        partner race: a pawn under another of its colour on one space): piece -> cell. The session
        counts them as seen there; anything else missing is missing. By default none: every piece
        lies where the camera sees it."""
        return {}

    def alike(self, state: StateT, seen: Placement) -> dict[str, tuple[str, ...]]:
        """The picture as the rules count it, for a game with pieces that look alike to its rules (the
        tile race's tiles, walls and mountains: which tile lies where does not matter, only how many):
        each such piece renamed as :meth:`expected` would name it there, and what lies in a supply
        beside the board (which the rules do not count) left out, so two look-alike pieces swapped is
        no change. The session compares every picture in this form. By default the picture as it is:
        every piece is itself."""
        return {cell: tuple(sorted(pieces)) for cell, pieces in seen.items() if pieces}

    def words(self, state: StateT) -> dict[str, str]:
        """Pieces and places as players call them (id -> words), for what the session says itself (an
        out-of-sync reason, a refusal) in the words the pages use. By default the view's ``names`` and
        ``places``, else the board's label; a place printed with its id (H1, T14) is called so."""
        view, plan = self.view(state), self.layout(state)
        out = {c: cell.label for c, cell in plan.cells.items() if cell.label}
        out.update({p: piece.label for p, piece in plan.pieces.items() if piece.label})
        return {**out, **view.get("places", {}), **view.get("names", {})}

    def notes(self, before: StateT, after: StateT) -> dict[str, Any]:
        """What an action changed that the table should hear (JSON-able: "flip these tokens");
        by default nothing beyond the move itself."""
        return {}

    def markers(self, state: StateT) -> dict[str, tuple[str, str]]:
        """Special markers the players move (name -> (title, where the game has it now)); by default none."""
        return {}

    def turn_timer(self, state: StateT) -> TurnTimer | None:
        """The running turn's time limit, if the game uses one (by default it does not)."""
        return None

    def text(self, state: StateT) -> str:
        """A plain-text picture of the state, for the terminal and for logs; by default its saved
        form, which says everything even when it draws nothing."""
        return json.dumps(self.to_json(state), indent=1, sort_keys=True)

    def describe_board(self, board: str | None = None) -> str:
        """The named board in words (the ``board`` command); by default what its layout holds."""
        return "\n".join(every_place(self.layout(board=board)))

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        """The named board file moved to a printed board as measured (``fit``), with the places where
        the print differs edited (``edits``: a cell's new kind, a cell removed, one added at a place in
        the file's millimetres): a complete board file (text), checked like any other before it is
        returned (a :class:`~companion.errors.BoardFileError` names what does not add up).
        By default refused by name: a game whose board is not a file of places cannot be fitted."""
        raise BoardFileError(f"{self.title} has no board file that can be fitted to a printed board")
