"""The parts a game is made of (boardgame.io's record of optional parts, OpenSpiel's Game/State split).

A game is its declaration (:class:`~companion.games.declaration.GameType`: name, title, players,
chance, secrets) and five parts, each asked by the part of the companion that needs it:

- :class:`Rules` -- what the rulebook says: a new game, its saved form, actions and their text, what
  is legal, what an action does, whose turn it is (:meth:`Rules.active`, first-class) and who won.
  The session asks it; so does everything that plays.
- :class:`Table` -- the game on the table: the board's layout, what the camera should see, the
  correction that says "the board as seen is right", and what a picture means (by default the
  framework reads it: :mod:`companion.games.reading`, with the game's :class:`~companion.games.reading.Hints`).
- :class:`Panel` -- what a page may show: the view, pieces and places in the players' words, the
  Board page's dots, the picks of a draft, what the table should hear after an action.
- :class:`Seats` (optional) -- who may see and enter what: the seats phones join, whose commitment an
  action is, an action or a saved state as a seat may read it.
- :class:`Lights` (optional) -- the LEDs' scene: by default whose turn (:meth:`Rules.active`), the
  alert and the winners in the declaration's colours.

Only the members marked abstract must be written; every other member has a default right for a game
without that thing. A part reaches the others through its game (``self.game.rules``), which the
door (:class:`~companion.games.base.Game`) hands it when it is put together. Pure: no I/O.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from companion.errors import BoardFileError, IllegalMoveError
from companion.games.assembly import Assembly
from companion.games.boardfile import every_place
from companion.games.declaration import GameType
from companion.games.geometry import BoardFit, Layout, Placement
from companion.games.leds import LedScene, plain_scene
from companion.games.reading import Budget, Hints, read
from companion.games.reconciliation import Choice, Reconciliation
from companion.games.results import Outcome, ScoreReport, TableStatus, TurnTimer, WinnersOnly

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Whole(Protocol[StateT, ActionT]):
    """What a part may ask of the game it is a part of (the door, :class:`companion.games.base.Game`,
    is one): its declaration and its other parts."""

    declaration: GameType
    rules: Rules[StateT, ActionT]
    table: Table[StateT, ActionT]
    panel: Panel[StateT, ActionT]
    seating: Seats[StateT, ActionT]
    lights: Lights[StateT, ActionT]

    @property
    def title(self) -> str: ...


class Part(Generic[StateT, ActionT]):
    """What every part has: the game it is a part of, handed over when the game is put together, so a
    part asks another (the panel's view reads the table's ``expected``) without knowing which it is."""

    _game: Whole[StateT, ActionT] | None = None

    def bind(self, game: Whole[StateT, ActionT]) -> None:
        self._game = game

    @property
    def game(self) -> Whole[StateT, ActionT]:
        if self._game is None:
            raise RuntimeError(f"{type(self).__name__} is not part of a game yet")
        return self._game


# ------------------------------------------------------------------------------------------ rules
class Rules(Part[StateT, ActionT], ABC):
    """What the rulebook says, and nothing about the table, the pages or the LEDs."""

    @abstractmethod
    def new_game(self, players: int, seed: int = 0, **settings: Any) -> StateT:
        """A fresh, seeded state from the answers to :meth:`setup_schema` (SetupError / ValueError if bad)."""

    @abstractmethod
    def to_dict(self, state: StateT) -> dict[str, Any]:
        """A JSON-able dict, with ``"game"`` the game's name, that :meth:`from_dict` turns back into an
        equal state."""

    @abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> StateT:
        """A saved state (already read as JSON and tagged as this game's: the door does that once);
        ``StateFormatError`` names what is wrong in it."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """An action from its text; ``str(action)`` parses back to an equal action."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Every action the player to move may take now, ending the turn included."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT | str) -> StateT:
        """The state after an action (value or text); never mutates; ``IllegalMoveError`` if illegal."""

    @abstractmethod
    def active(self, state: StateT) -> tuple[str, ...]:
        """Whose turn it is (OpenSpiel's ``current_player``), read from the state itself: the colour or
        seat to act now, as the view's players name it, the player whose turn it is first; where others
        must act within that turn (a fight's sides closing their fists, food owed) they follow. Empty
        once the game is over. A reading of a picture logs only moves of the player to move."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """None while the game runs; the winners and why once it is over."""

    # ------------------------------------------------------------------ optional
    def score(self, state: StateT) -> ScoreReport:
        """A per-player (or per-team) breakdown; by default only who won, from :meth:`outcome`."""
        return WinnersOnly(self.outcome(state))

    def why_not(self, state: StateT, action: ActionT | str) -> str | None:
        """Why ``action`` is not legal now, in the rulebook's words, or None: it is. The framework's
        refusal of a picture asks it of the action that would put a piece where it is seen. By default
        what :meth:`apply` refuses it with."""
        try:
            self.apply(state, action)
        except IllegalMoveError as exc:
            return str(exc)
        return None

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        """The setup page's questions: ``{"name", "label", "kind", ...}`` (see docs/architecture.md).
        By default how many play and the seed: all a game without choices asks."""
        return [{"name": "players", "label": "Players", "kind": "count",
                 "choices": list(self.game.declaration.players)},
                {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1}]

    def turn_timer(self, state: StateT) -> TurnTimer | None:
        """The running turn's time limit, if the game uses one (by default it does not)."""
        return None

    def forced_action(self, state: StateT) -> ActionT | None:
        """An action the rules take by themselves now (a turn with nothing left ends), or None."""
        return None

    def end_turn_action(self, state: StateT, reason: str) -> ActionT | None:
        """The action that ends the active player's turn now (the End-turn button), or None: a turn
        ends by what the player plays, and the panel offers no button."""
        return None

    def complete_action(self, state: StateT, text: str) -> str:
        """The full text of an action a player typed short at a terminal (by default the text as it is)."""
        return text.strip()

    def text(self, state: StateT) -> str:
        """A plain-text picture of the state, for the terminal and logs; by default its saved form."""
        return json.dumps(self.to_dict(state), indent=1, sort_keys=True)


# ------------------------------------------------------------------------------------------ table
class Table(Part[StateT, ActionT], ABC):
    """The game on the table: its board, what the camera should see, and what a picture means."""

    @abstractmethod
    def layout(self, state: StateT | None = None, board: str | None = None) -> Layout:
        """The board's geometry: the state's board, else the named board (None: the default)."""

    @abstractmethod
    def expected(self, state: StateT) -> dict[str, tuple[str, ...]]:
        """What the camera should see now: cell -> sorted piece ids."""

    @abstractmethod
    def correction(self, state: StateT, seen: Placement) -> ActionT:
        """The action that records "the board as seen is right" (a manual correction)."""

    # ------------------------------------------------------------------ optional
    def hints(self, state: StateT, seen: Placement, budget: Budget) -> Hints[StateT, ActionT]:
        """What the framework's reading needs to know of this game beyond its rules (which actions to
        try, a step's words, the action a refused piece was read as): :class:`~companion.games.reading.Hints`,
        made for one picture (``seen`` in ``state``, read within ``budget``), so hints may work out once
        what they ask of every position. By default none: the legal actions of the player to move,
        pruned by the pieces that changed."""
        return Hints()

    def reconcile(self, state: StateT, seen: Placement, budget: Budget | None = None) -> Reconciliation:
        """What a stable camera picture means (pieces in :meth:`taken_off` already left out, those
        :meth:`hidden` put in): by default the framework's reading (:func:`companion.games.reading.read`):
        one bounded search over the legal actions of the player to move, a move part-way, a move out of
        turn, a refused move in the rules' words. A game with a search of its own overrides it."""
        budget = budget or Budget()
        return read(self.game, state, seen, self.hints(state, seen, budget), budget)

    def alike(self, state: StateT, seen: Placement) -> dict[str, tuple[str, ...]]:
        """The picture as the rules count it (look-alike pieces renamed as :meth:`expected` would name
        them, a supply beside the board left out); by default as it is: every piece is itself."""
        return {cell: tuple(sorted(pieces)) for cell, pieces in seen.items() if pieces}

    def hidden(self, state: StateT, seen: Placement) -> dict[str, str]:
        """Pieces missing from a picture that the camera cannot see where the game has them (piece ->
        cell); by default none: every piece lies where the camera sees it."""
        return {}

    def taken_off(self, state: StateT) -> Sequence[str]:
        """Pieces the rules took off the table that players may still have on it (a chore, never a
        disagreement); by default none."""
        return ()

    def in_box(self, state: StateT) -> Sequence[str] | None:
        """The pieces the simulated table's hands may take from the box for this state (the discs not
        placed yet), or None (the default): any piece of the layout."""
        return None

    def markers(self, state: StateT) -> dict[str, tuple[str, str]]:
        """Special markers the players move (name -> (title, where the game has it now)); by default none."""
        return {}

    def assembly(self, board: str | None = None) -> Assembly | None:
        """The parts players lay at setup for a board the camera reads, or None."""
        return None

    def describe_board(self, board: str | None = None) -> str:
        """The named board in words (the ``board`` command); by default what its layout holds."""
        return "\n".join(every_place(self.layout(board=board)))

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        """The named board file moved to a printed board as measured; by default refused by name: a
        game whose board is not a file of places cannot be fitted."""
        raise BoardFileError(f"{self.game.title} has no board file that can be fitted to a printed board")


# ------------------------------------------------------------------------------------------ panel
class Panel(Part[StateT, ActionT], ABC):
    """What the pages may show of a state (for a seat: what that seat may see)."""

    @abstractmethod
    def view(self, state: StateT, seat: str | None = None) -> dict[str, Any]:
        """What a panel may show (hidden information removed for ``seat``)."""

    def words(self, state: StateT) -> dict[str, str]:
        """Pieces and places as players call them (id -> words); by default the view's ``names`` and
        ``places``, else the board's label."""
        view, plan = self.view(state), self.game.table.layout(state)
        out = {c: cell.label for c, cell in plan.cells.items() if cell.label}
        out.update({p: piece.label for p, piece in plan.pieces.items() if piece.label})
        return {**out, **view.get("places", {}), **view.get("names", {})}

    def targets(self, state: StateT, piece: str) -> dict[str, tuple[Choice, ...]]:
        """Where ``piece`` can go with one legal action now (the Board page's dots); by default none."""
        return {}

    def laid_at(self, state: StateT, cell: str) -> tuple[Choice, ...]:
        """The plays that lay a piece brought to the table on ``cell``: by default each legal action
        that names the place and no piece standing on the table, said in the players' words."""
        game = self.game
        expected = game.table.expected(state)
        plan, on = game.table.layout(state), {p for ps in expected.values() for p in ps}
        named, out, empty = self.words(state), [], not expected.get(cell)
        for action in game.rules.legal_actions(state):
            said = str(action).split()
            brought = any(w in plan.pieces for w in said)  # a piece of the box or a hand, not on the table
            if cell in said and not any(w in on for w in said) and (brought or empty):
                text = " ".join(named.get(w, w) for w in said)
                out.append(Choice((str(action),), text[:1].upper() + text[1:]))
        return tuple(out)

    def picks(self, state: StateT) -> dict[str, str]:
        """In a phase of picks (a draft): piece -> the legal action that picks it; by default each legal
        action that names exactly one piece of the layout."""
        pieces = self.game.table.layout(state).pieces
        out: dict[str, str] = {}
        for action in self.game.rules.legal_actions(state):
            named = [w for w in str(action).split() if w in pieces]
            if len(named) == 1:
                out.setdefault(named[0], str(action))
        return out

    def notes(self, before: StateT, after: StateT) -> dict[str, Any]:
        """What an action changed that the table should hear ("flip these tokens"); by default nothing."""
        return {}


# ------------------------------------------------------------------------------------------ seats
class Seats(Part[StateT, ActionT]):
    """Who may see and enter what. The defaults are right for a game one player acts in at a time and
    that keeps nothing from one seat that another knows."""

    def seats(self, state: StateT) -> tuple[str, ...]:
        """The seats a phone may join; by default one per player (the view's players' ``seat``) in a
        game with per-seat secrets, none in any other (every phone sees the shared view)."""
        game = self.game
        if game.declaration.information != "per-seat":
            return ()
        players = game.panel.view(state).get("players")
        return tuple(str(p["seat"]) for p in players or () if isinstance(p, Mapping) and p.get("seat"))

    def actor(self, state: StateT, action: ActionT) -> str | None:
        """The seat whose phone may enter ``action``, or None: anyone at the table may. By default the
        player whose turn it is (the first of :meth:`Rules.active`)."""
        whose = self.game.rules.active(state)
        return whose[0] if whose else None

    def said(self, state: StateT, action: str, seat: str | None) -> str:
        """An action's text as ``seat`` may read it (``state`` is after it); by default the text itself."""
        return action

    def seat_choice(self, state: StateT, action: ActionT, seat: str) -> str | None:
        """``action``, one of ``seat``'s own, as the button on that seat's phone says it, or None (not a
        button there); by default the text with each piece and place it names in the players' words."""
        named = self.game.panel.words(state)
        return " ".join(named.get(w, w) for w in str(action).split())

    def secrets_changed(self, state: StateT, seat: str | None, seed: int = 0) -> StateT:
        """The same table with every secret ``seat`` may not know changed (drawn from ``seed``); by
        default the state itself: a game without secrets has none to change."""
        return state

    def public_json(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        """A saved state as the players may read it (an export, a published event); by default all of it."""
        return dict(saved)


# ------------------------------------------------------------------------------------------ lights
class Lights(Part[StateT, ActionT]):
    """The LEDs' scene. By default what every game has: whose turn it is in the declaration's
    ``colours``, the alert while a piece breaks a rule, the winners over the whole strip."""

    def led_scene(self, state: StateT, status: TableStatus = TableStatus()) -> LedScene:
        rules = self.game.rules
        ended = rules.outcome(state)
        return plain_scene(self.game.declaration.colours, rules.active(state),
                           None if ended is None else ended.winners,
                           waiting=status.waiting, alert=bool(status.offenders), step=status.step)
