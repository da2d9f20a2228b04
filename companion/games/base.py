"""The door every table game comes through: one :class:`Game` base class and the values it speaks in.

The session, the camera, the LEDs and the panel know a game only through this module: they ask
a :class:`Game` for its setup questions, a new state, the legal actions, what the camera should
see (:meth:`Game.expected`), what a camera picture means (:meth:`Game.reconcile`), what a panel
may show (:meth:`Game.view`) and what the LEDs show (:meth:`Game.led_scene`). A game is pure
functions over immutable states (boardgame.io's shape); actions have a text form that parses
back (python-chess's ``Move.from_uci``). The framework owns the log, undo, replay, turn timers
and the out-of-sync state, so a new game writes rules and nothing else.

The values the door speaks in live beside it and are said through it: the geometry (cells,
pieces, layouts, a print's fit) in :mod:`companion.games.geometry`, what a picture means
(:class:`Choice`, :class:`Reconciliation`) in :mod:`companion.games.reconciliation`, the LEDs'
scene and what every game shows alike on it in :mod:`companion.games.leds`, a saved state's text and
tag read once in :mod:`companion.games.saved`; every one of them is importable from here as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from companion.games.assembly import Assembly
from companion.games.declaration import GameType
# The door's values, defined beside it and said through it too (``from companion.games.base import Layout``)
from companion.games.geometry import (FACED, RGB, BoardFit, Cell, Edge, Layout, Piece, Placement, Point,  # noqa: F401
                                      Track, faced, layout_once, packaged_or_file, polygon, unfaced)
from companion.games.leds import (ALERT, FORMER_SEGMENT_NAMES, LED_ROLES, OFF_LIGHT, Count, LedScene,  # noqa: F401
                                 Light, alert_light, dim, plain_scene, turn_light, winners_scene)  # (the door's values)
from companion.games.parts import Lights, Panel, Part, Rules, Seats, Table  # noqa: F401  (the door's parts)
from companion.games.reading import Budget
from companion.games.reconciliation import Choice, Reconciliation  # noqa: F401
from companion.games.results import Outcome, ScoreReport, TableStatus, TurnTimer, WinnersOnly  # noqa: F401
from companion.games.saved import saved_form


# ------------------------------------------------------------------------------------------ the game
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Game(Generic[StateT, ActionT]):
    """One table game: its declaration and its parts (:mod:`companion.games.parts`), put together.

    A game writes a :class:`Rules`, a :class:`Table` and a :class:`Panel`, and a :class:`Seats` or
    :class:`Lights` only if the defaults are not right for it, and hands them here with its
    declaration. The session, the camera, the pages and the LEDs ask the part they need
    (``game.rules.apply``, ``game.table.expected``, ``game.panel.view``, ``game.lights.led_scene``).
    The door also answers each member by its old one-call name (``game.apply``), each a line that
    says which part it asks: what a script, a benchmark or a test at the table reads most easily.
    What every game would otherwise write again lives here once: a saved state's JSON text and its
    tag checked (:meth:`from_json`), and through the parts' defaults the LEDs' turn, alert and winners.
    The two type parameters hold each game to its own state and actions."""

    def __init__(self, declaration: GameType, rules: Rules[StateT, ActionT], table: Table[StateT, ActionT],
                 panel: Panel[StateT, ActionT], *, seating: Seats[StateT, ActionT] | None = None,
                 lights: Lights[StateT, ActionT] | None = None, dealt: bool = False, called: str = "",
                 untagged: bool = False) -> None:
        self.declaration = declaration
        self.rules, self.table, self.panel = rules, table, panel
        self.seating: Seats[StateT, ActionT] = seating or Seats()
        self.lights: Lights[StateT, ActionT] = lights or Lights()
        # The game is dealt a secret at setup (which blocks are live): a new game is given ``deal``, a
        # number drawn by the companion that nobody at the table chooses or sees, besides the seed.
        self.dealt = dealt
        self.called = called or f"a {declaration.title.lower()}"   # "not a tile race state"
        # A saved state with no "game" key is this game's (its first format had none): at most one game says so.
        self.untagged = untagged
        for part in (rules, table, panel, self.seating, self.lights):
            part.bind(self)

    @property
    def name(self) -> str:
        return self.declaration.name

    @property
    def title(self) -> str:
        return self.declaration.title

    @property
    def players(self) -> tuple[int, ...]:
        return self.declaration.players

    def __repr__(self) -> str:
        return f"<Game {self.name}>"

    # ------------------------------------------------------------------ the saved form, once for every game
    def to_json(self, state: StateT) -> dict[str, Any]:
        """A JSON-able dict that :meth:`from_json` turns back into an equal state (:meth:`Rules.to_dict`)."""
        return self.rules.to_dict(state)

    def from_json(self, data: Any) -> StateT:
        """A saved state (a dict, or its JSON text) of this game; ``StateFormatError`` names what is wrong:
        not JSON, another game's, or (the rules say) a field."""
        return self.rules.from_dict(saved_form(data, self.name, self.called, self.untagged))

    # ------------------------------------------------------------------ rules
    def new_game(self, *args: Any, **settings: Any) -> StateT:
        return self.rules.new_game(*args, **settings)

    def parse_action(self, text: str) -> ActionT:
        return self.rules.parse_action(text)

    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        return self.rules.legal_actions(state)

    def apply(self, state: StateT, action: ActionT | str) -> StateT:
        return self.rules.apply(state, action)

    def active(self, state: StateT) -> tuple[str, ...]:
        return self.rules.active(state)

    def outcome(self, state: StateT) -> Outcome | None:
        return self.rules.outcome(state)

    def score(self, state: StateT) -> ScoreReport:
        return self.rules.score(state)

    def why_not(self, state: StateT, action: ActionT | str) -> str | None:
        return self.rules.why_not(state, action)

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        return self.rules.setup_schema(board)

    def turn_timer(self, state: StateT) -> TurnTimer | None:
        return self.rules.turn_timer(state)

    def forced_action(self, state: StateT) -> ActionT | None:
        return self.rules.forced_action(state)

    def end_turn_action(self, state: StateT, reason: str) -> ActionT | None:
        return self.rules.end_turn_action(state, reason)

    def complete_action(self, state: StateT, text: str) -> str:
        return self.rules.complete_action(state, text)

    def text(self, state: StateT) -> str:
        return self.rules.text(state)

    # ------------------------------------------------------------------ the table
    def layout(self, state: StateT | None = None, board: str | None = None) -> Layout:
        return self.table.layout(state, board)

    def expected(self, state: StateT) -> dict[str, tuple[str, ...]]:
        return self.table.expected(state)

    def correction(self, state: StateT, seen: Placement) -> ActionT:
        return self.table.correction(state, seen)

    def reconcile(self, state: StateT, seen: Placement, budget: Budget | None = None) -> Reconciliation:
        return self.table.reconcile(state, seen, budget)

    def alike(self, state: StateT, seen: Placement) -> dict[str, tuple[str, ...]]:
        return self.table.alike(state, seen)

    def hidden(self, state: StateT, seen: Placement) -> dict[str, str]:
        return self.table.hidden(state, seen)

    def taken_off(self, state: StateT) -> Sequence[str]:
        return self.table.taken_off(state)

    def in_box(self, state: StateT) -> Sequence[str] | None:
        return self.table.in_box(state)

    def markers(self, state: StateT) -> dict[str, tuple[str, str]]:
        return self.table.markers(state)

    def assembly(self, board: str | None = None) -> Assembly | None:
        return self.table.assembly(board)

    def describe_board(self, board: str | None = None) -> str:
        return self.table.describe_board(board)

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        return self.table.fitted_board(fit, board, name, edits)

    # ------------------------------------------------------------------ the panel
    def view(self, state: StateT, seat: str | None = None) -> dict[str, Any]:
        return self.panel.view(state, seat)

    def words(self, state: StateT) -> dict[str, str]:
        return self.panel.words(state)

    def targets(self, state: StateT, piece: str) -> dict[str, tuple[Choice, ...]]:
        return self.panel.targets(state, piece)

    def laid_at(self, state: StateT, cell: str) -> tuple[Choice, ...]:
        return self.panel.laid_at(state, cell)

    def picks(self, state: StateT) -> dict[str, str]:
        return self.panel.picks(state)

    def notes(self, before: StateT, after: StateT) -> dict[str, Any]:
        return self.panel.notes(before, after)

    # ------------------------------------------------------------------ seats and lights
    def seats(self, state: StateT) -> tuple[str, ...]:
        return self.seating.seats(state)

    def actor(self, state: StateT, action: ActionT) -> str | None:
        return self.seating.actor(state, action)

    def said(self, state: StateT, action: str, seat: str | None) -> str:
        return self.seating.said(state, action, seat)

    def seat_choice(self, state: StateT, action: ActionT, seat: str) -> str | None:
        return self.seating.seat_choice(state, action, seat)

    def secrets_changed(self, state: StateT, seat: str | None, seed: int = 0) -> StateT:
        return self.seating.secrets_changed(state, seat, seed)

    def public_json(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        return self.seating.public_json(saved)

    def led_scene(self, state: StateT, status: TableStatus = TableStatus()) -> LedScene:
        return self.lights.led_scene(state, status)
