"""A game written as one class (the door before its parts), and the door put together from it.

:func:`door` turns such a class into a :class:`~companion.games.base.Game` whose parts each ask
the class, so a game moves over to its parts one at a time. Transitional: removed once no game
needs it.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from companion.errors import BoardFileError
from companion.games.assembly import Assembly
from companion.games.base import Game
from companion.games.boardfile import every_place
from companion.games.declaration import GameType
from companion.games.geometry import BoardFit, Layout, Placement
from companion.games.leds import LedScene, plain_scene
from companion.games.parts import Lights, Panel, Rules, Seats, Table
from companion.games.reading import Budget
from companion.games.reconciliation import Choice, Reconciliation
from companion.games.results import Outcome, ScoreReport, TableStatus, TurnTimer

# ------------------------------------------------------------------------------------------ the game
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class LegacyGame(ABC, Generic[StateT, ActionT]):
    """Rules of one table game. Pure: no I/O, no clocks, no randomness beyond a given seed.

    A game subclasses ``Game[ItsState, ItsAction]`` and writes the abstract members (its rules and
    whose turn it is, what the camera should see, what a picture means, what the panel shows). Every
    other member has a default that is right for a game without that thing (the LEDs: whose turn, the
    alert and the winners in the declaration's colours; no turn timer, no pieces
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
    def active(self, state: StateT) -> tuple[str, ...]:
        """Whose turn it is (OpenSpiel's ``current_player``), read from the state itself: the colour or
        seat to act now, as the view's players name it, the player whose turn it is first; where others
        must act within that turn (a fight's sides closing their fists, food owed) they follow. Empty once
        the game is over. The session asks it (whose move a reading may log), and so do the seats'
        phones (:meth:`actor`), the LEDs' turn light and the summaries; the view's ``active`` says its first."""

    @abstractmethod
    def score(self, state: StateT) -> ScoreReport:
        """A per-player (or per-team) breakdown, JSON-able through ``to_dict``."""

    @abstractmethod
    def view(self, state: StateT, seat: str | None = None) -> dict[str, Any]:
        """What a panel may show (hidden information removed for ``seat``)."""

    # ------------------------------------------------------------------ defaults a game may override
    def led_scene(self, state: StateT, status: TableStatus = TableStatus()) -> LedScene:
        """What the LEDs show for ``state``. By default what every game has (:func:`plain_scene`): whose
        turn it is (:meth:`active`) on ``turn`` in the declaration's ``colours``, the alert on ``status``
        while a piece breaks a rule, the winners over the whole strip once the game is over. A game with
        more to show (its rounds, a count, the rows of a board) writes its own."""
        ended = self.outcome(state)
        return plain_scene(self.declaration.colours, self.active(state), None if ended is None else ended.winners,
                           waiting=status.waiting, alert=bool(status.offenders), step=status.step)

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
        anyone at the table may enter it (a reveal both sides wait for). By default the player whose turn
        it is (the first of :meth:`active`), since one player acts at a time; a game with simultaneous
        input says whose each commitment is."""
        whose = self.active(state)
        return whose[0] if whose else None

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

    def laid_at(self, state: StateT, cell: str) -> tuple[Choice, ...]:
        """The plays that lay a piece brought to the table on ``cell`` (a disc from a player's hand, a
        tile from the supply): what the Board page offers when an empty place is tapped, so a piece
        not yet on the board is laid by tapping as one on it is moved. By default each legal action
        that names the place and no piece standing on the table, said in the players' words."""
        expected = self.expected(state)
        plan, on = self.layout(state), {p for ps in expected.values() for p in ps}
        named, out, empty = self.words(state), [], not expected.get(cell)
        for action in self.legal_actions(state):
            said = str(action).split()
            brought = any(w in plan.pieces for w in said)  # a piece of the box or a hand, not on the table
            if cell in said and not any(w in on for w in said) and (brought or empty):
                text = " ".join(named.get(w, w) for w in said)
                out.append(Choice((str(action),), text[:1].upper() + text[1:]))
        return tuple(out)

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


class _Rules(Rules[Any, Any]):
    def __init__(self, old: LegacyGame[Any, Any]) -> None:
        self.old = old

    def new_game(self, *args: Any, **settings: Any) -> Any:
        return self.old.new_game(*args, **settings)

    def to_dict(self, state: Any) -> dict[str, Any]:
        return self.old.to_json(state)

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        return self.old.from_json(data)

    def parse_action(self, text: str) -> Any:
        return self.old.parse_action(text)

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return self.old.legal_actions(state)

    def apply(self, state: Any, action: Any) -> Any:
        return self.old.apply(state, action)

    def active(self, state: Any) -> tuple[str, ...]:
        return self.old.active(state)

    def outcome(self, state: Any) -> Outcome | None:
        return self.old.outcome(state)

    def score(self, state: Any) -> ScoreReport:
        return self.old.score(state)

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        return self.old.setup_schema(board)

    def turn_timer(self, state: Any) -> TurnTimer | None:
        return self.old.turn_timer(state)

    def forced_action(self, state: Any) -> Any:
        return self.old.forced_action(state)

    def end_turn_action(self, state: Any, reason: str) -> Any:
        return self.old.end_turn_action(state, reason)

    def complete_action(self, state: Any, text: str) -> str:
        return self.old.complete_action(state, text)

    def text(self, state: Any) -> str:
        return self.old.text(state)


class _Table(Table[Any, Any]):
    def __init__(self, old: LegacyGame[Any, Any]) -> None:
        self.old = old

    def layout(self, state: Any = None, board: str | None = None) -> Layout:
        return self.old.layout(state, board)

    def expected(self, state: Any) -> dict[str, tuple[str, ...]]:
        return self.old.expected(state)

    def correction(self, state: Any, seen: Placement) -> Any:
        return self.old.correction(state, seen)

    def reconcile(self, state: Any, seen: Placement, budget: Budget | None = None) -> Reconciliation:
        return self.old.reconcile(state, seen)

    def alike(self, state: Any, seen: Placement) -> dict[str, tuple[str, ...]]:
        return self.old.alike(state, seen)

    def hidden(self, state: Any, seen: Placement) -> dict[str, str]:
        return self.old.hidden(state, seen)

    def taken_off(self, state: Any) -> Sequence[str]:
        return self.old.taken_off(state)

    def in_box(self, state: Any) -> Sequence[str] | None:
        box = getattr(self.old, "in_box", None)
        return None if box is None else list(box(state))

    def markers(self, state: Any) -> dict[str, tuple[str, str]]:
        return self.old.markers(state)

    def assembly(self, board: str | None = None) -> Assembly | None:
        return self.old.assembly(board)

    def describe_board(self, board: str | None = None) -> str:
        return self.old.describe_board(board)

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        return self.old.fitted_board(fit, board, name, edits)


class _Panel(Panel[Any, Any]):
    def __init__(self, old: LegacyGame[Any, Any]) -> None:
        self.old = old

    def view(self, state: Any, seat: str | None = None) -> dict[str, Any]:
        return self.old.view(state, seat)

    def words(self, state: Any) -> dict[str, str]:
        return self.old.words(state)

    def targets(self, state: Any, piece: str) -> dict[str, tuple[Choice, ...]]:
        return self.old.targets(state, piece)

    def laid_at(self, state: Any, cell: str) -> tuple[Choice, ...]:
        return self.old.laid_at(state, cell)

    def picks(self, state: Any) -> dict[str, str]:
        return self.old.picks(state)

    def notes(self, before: Any, after: Any) -> dict[str, Any]:
        return self.old.notes(before, after)


class _Seats(Seats[Any, Any]):
    def __init__(self, old: LegacyGame[Any, Any]) -> None:
        self.old = old

    def seats(self, state: Any) -> tuple[str, ...]:
        return self.old.seats(state)

    def actor(self, state: Any, action: Any) -> str | None:
        return self.old.actor(state, action)

    def said(self, state: Any, action: str, seat: str | None) -> str:
        return self.old.said(state, action, seat)

    def seat_choice(self, state: Any, action: Any, seat: str) -> str | None:
        return self.old.seat_choice(state, action, seat)

    def public_json(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        return self.old.public_json(saved)


class _SecretSeats(_Seats):
    def secrets_changed(self, state: Any, seat: str | None, seed: int = 0) -> Any:
        return self.old.secrets_changed(state, seat, seed)


class _Lights(Lights[Any, Any]):
    def __init__(self, old: LegacyGame[Any, Any]) -> None:
        self.old = old

    def led_scene(self, state: Any, status: TableStatus = TableStatus()) -> LedScene:
        return self.old.led_scene(state, status)


def door(old: LegacyGame[Any, Any]) -> Game[Any, Any]:
    """The door put together from a game written as one class: every part asks the class."""
    secret = type(old).secrets_changed is not LegacyGame.secrets_changed
    return Game(old.declaration, _Rules(old), _Table(old), _Panel(old),
                seating=(_SecretSeats if secret else _Seats)(old), lights=_Lights(old), dealt=old.dealt)
