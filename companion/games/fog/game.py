"""The FOG behind the door: its declaration and its parts (:mod:`companion.games.parts`).

:class:`FogRules` is what the rulebook says (the draft and colour allocation of the setup, the
turn that ends when the MP are spent, the tokens the FOG takes, the hourglass, the scoring),
:class:`FogTable` the beach on the table (what the camera should see, the FOG and turn markers,
and what a picture means: The FOG's own A* in :mod:`explain`, bounded by the reading budget the
companion hands it, saying what the framework says in The FOG's words through :class:`FogHints`),
:class:`FogPanel` what the pages show and :class:`FogLights` the FOG's rows on the LEDs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.errors import SetupError
from companion.games.base import (BoardFit, Choice, Game, Layout, Lights, Outcome, Panel, Reconciliation, Rules,
                                  Table, TurnTimer)
from companion.games.declaration import Counter, GameType, Phase, Shade
from companion.games.fog import rules, steps, table
from companion.games.fog.actions import Correction, EndTurn, Relocation, parse_action
from companion.games.fog.board import Board
from companion.games.fog.bounds import Bounds
from companion.games.fog.explain import explain
from companion.games.fog.hints import FogAction, FogHints, choice, either_swap, hidden_in
from companion.games.fog.layout import board_layout
from companion.games.fog.legality import legal_movements
from companion.games.fog.movement import MoveAction
from companion.games.fog.options import Options
from companion.games.fog.scenario import scenario_ids
from companion.games.fog.scoring import score
from companion.games.fog.setup import new_game
from companion.games.fog.solo import new_solo_game
from companion.games.fog.state import GameState, Player
from companion.games.fog.text import render
from companion.games.fog.words import capital, moves_words, names, player_name
from companion.games.geometry import Placement
from companion.games.reading import Budget, Hints, out_of_turn

MAX_NAME = 40
OPTIONS_HELP = ("hourglass=SECONDS, enhanced, min-crew, leaders, teams=C+C/C+C, team-scoring=sum|lowest, "
                "drive-off=standard|advanced, two-player=lower|total, advanced-fog (solo)")


# The rulebook's options (section 6) as switches a setup page shows, each with one line of help;
# a switch's token is the option's text form, so what the page sends parses like the CLI's --options.
# "when" limits a switch to some player counts; teams and their scoring stay in the text field.
OPTION_SWITCHES: list[dict[str, Any]] = [
    {"token": "hourglass", "label": "Hourglass", "kind": "seconds", "default": 90, "min": 5, "max": 3600,
     "help": "Each turn ends when the hourglass runs out; unused MP are lost."},
    {"token": "enhanced", "label": "Enhanced movements", "kind": "flag",
     "help": "Push, jump, cross and squeeze further for 2 MP more."},
    {"token": "min-crew", "label": "Minimum boat crew", "kind": "flag",
     "help": "A boat without its minimum crew does not depart and is not scored."},
    {"token": "leaders", "label": "Rescue the leaders", "kind": "flag",
     "help": "The leaders start in row A, one each; points for where yours ends, -5 if the FOG takes it."},
    {"token": "drive-off", "label": "Advanced drive off", "kind": "flag", "value": "advanced",
     "help": "The boarding islander takes the place; the driven-off one moves to the next best place."},
    {"token": "two-player", "label": "Two players: score the total", "kind": "flag", "value": "total",
     "when": {"players": 2}, "help": "Each player's two colours count together instead of only the lower one."},
    {"token": "advanced-fog", "label": "Advanced FOG", "kind": "flag", "when": {"players": 1},
     "help": "The FOG starts one field further on."},
]


def seats_from(answers: Sequence[Mapping[str, Any]], colours: tuple[str, ...]) -> tuple[Player, ...]:
    """Players from the setup page's seats ({name, colours}); with 2 players each plays two colours."""
    count = len(answers)
    if not 2 <= count <= 4:
        raise SetupError(f"The FOG is played by 2, 3 or 4 players (or solo), not {count}")
    per_player = 2 if count == 2 else 1
    out, taken = [], set()
    for i, seat in enumerate(answers):
        if not isinstance(seat, Mapping):
            raise SetupError(f"player {i + 1} must be an object {{name, colours}}")
        name = seat.get("name") or f"Player {i + 1}"
        if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME:
            raise SetupError(f"player {i + 1}: a name is 1 to {MAX_NAME} characters")
        chosen = seat.get("colours")
        if chosen is None:  # the seat's usual colours (two players: the first and third, the second and fourth)
            usual = [colours[i], colours[i + 2]] if count == 2 else [colours[i]]
            chosen = ([c for c in usual if c not in taken] + [c for c in colours if c not in taken and c not in usual]
                      )[:per_player]
        if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
            raise SetupError(f"player {i + 1}: 'colours' must be a list of colour names")
        if len(chosen) != per_player:
            raise SetupError(f"player {i + 1}: with {count} players each plays {per_player} colour(s)")
        for colour in chosen:
            if colour not in colours:
                raise SetupError(f"player {i + 1}: no colour {colour!r} (colours: {', '.join(colours)})")
            if colour in taken:
                raise SetupError(f"player {i + 1}: colour {colour!r} is already taken")
            taken.add(colour)
        out.append(Player(name.strip(), tuple(chosen)))
    return tuple(out)


DECLARATION = GameType(
    "fog", "The FOG: Escape from Paradise", (1, 2, 3, 4), chance="setup", information="none",
    counters=(Counter("round", "Round"),
              Counter("mp_left", "MP left", total="mp_total", unit="MP", phases=("moving",)),
              Counter("fog.label", "FOG"), Counter("fog.swallowed", "Swallowed")),
    phases=(Phase("draft", "Draft", picks="picks: tap an islander on the board or in the list below.",
                  done="Every islander has a player.", step=True),
            Phase("moving", "Moving")),
    shades=(Shade("fog.swallowed", "covered"), Shade("fog.next", "warned")),
    features=("turn-over",))
"""The FOG: Escape from Paradise, 1 (solo scenarios) to 4 players. A seeded setup (where the islanders
start) and no luck after it; nothing hidden; one colour at a time. It counts rounds and the MP a turn
has left, the FOG's rows and the tokens it swallowed; the board shades the rows the FOG covers and
those it takes next; a draft on the Setup page comes before play. The FOG takes tokens that hands
turn over (the Table page's button)."""


class FogRules(Rules[GameState, FogAction]):
    """What the rulebook says: the setup, the draft, the movements and the end of a turn, the scoring."""

    parse_action = staticmethod(parse_action)
    apply = staticmethod(rules.apply)
    score = staticmethod(score)

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        colours = list(Board.load_named(board or "standard").player_colours)
        return [
            {"name": "players", "label": "Players", "kind": "count", "choices": list(self.game.declaration.players),
             "solo": 1},
            {"name": "seats", "label": "Names and colours", "kind": "seats", "colours": colours,
             "colours_per_player": {"2": 2, "default": 1}, "max_name": MAX_NAME},
            {"name": "scenario", "label": "Solo scenario", "kind": "choice", "choices": scenario_ids(),
             "when": {"players": 1}, "or_file": True},  # the command line may name a scenario file
            {"name": "options", "label": "Options", "kind": "text", "max": 300, "help": OPTIONS_HELP,
             "switches": OPTION_SWITCHES},
            {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1},
        ]

    def new_game(self, players: int = 4, seed: int = 0, options: Options | str | None = None,
                 names: list[str] | None = None, scenario: str | None = None, board: str = "standard",
                 seats: Sequence[Mapping[str, Any]] | None = None, **_: Any) -> GameState:
        opts = options if isinstance(options, Options) else Options.parse(options)
        if scenario is not None or players == 1:
            name = (names or [str(s.get("name") or "") for s in seats or () if isinstance(s, Mapping)] or ["Guardian"])[0]
            return new_solo_game(scenario or "1", opts, name=name or "Guardian", seed=seed)
        layout_board = Board.load_named(board)
        if seats is not None:
            return new_game(layout_board, seats_from(seats, layout_board.player_colours), seed=seed, options=opts)
        return new_game(layout_board, players, seed=seed, options=opts, names=names)

    def to_dict(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> GameState:
        return GameState.from_dict(data)

    def complete_action(self, state: GameState, text: str) -> str:
        """``draft ISLANDER`` typed at a terminal is the active colour's pick."""
        words = text.split()
        if len(words) == 2 and words[0] == "draft" and state.active_colour:
            return f"draft {state.active_colour} {words[1]}"
        if words == ["end"]:
            return "end-turn"
        return text.strip()

    def text(self, state: GameState) -> str:
        """The beach as text, and whose turn it is."""
        order = ", ".join(f"{c} ({p.name})" for c in state.turn_order if (p := state.player_of(c)))
        return render(state) + f"\nturn board: {order}; boat areas {dict(state.area_values)}"

    def legal_actions(self, state: GameState) -> list[FogAction]:
        if state.phase == "draft":
            return list(rules.legal_drafts(state))
        if state.phase == "moving":
            return [*legal_movements(state), EndTurn("done")]
        return []

    def end_turn_action(self, state: GameState, reason: str) -> EndTurn:
        return EndTurn(reason)

    def forced_action(self, state: GameState) -> EndTurn | None:
        """The turn ends by itself once the MP are spent, unless an endurance run is still open."""
        if state.phase != "moving" or state.mp_left > 0 or state.endurance_used:
            return None
        board = state.board_data
        if any(board.islanders[i].characteristic == "endurance" for i in state.moved):
            return None
        return EndTurn("mp")

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != "finished":
            return None
        report = score(state)
        return Outcome(tuple(report.winners), state.end_reason or "the game is over")

    def active(self, state: GameState) -> tuple[str, ...]:
        """The colour to move (the drafting colour in the draft, a nation in solo); none once finished."""
        return (state.active_colour,) if state.active_colour else ()

    def turn_timer(self, state: GameState) -> TurnTimer | None:
        seconds = state.options.hourglass_seconds
        if not seconds or state.phase != "moving":
            return None
        return TurnTimer((state.round, state.turn_index), float(seconds), "end-turn hourglass", "Hourglass")


class FogTable(Table[GameState, FogAction]):
    """The beach on the table: what the camera should see, the markers, and what a picture means."""

    def layout(self, state: GameState | None = None, board: str | None = None) -> Layout:
        return board_layout(state.board_data if state is not None else Board.load_named(board or "standard"))

    def expected(self, state: GameState) -> dict[str, tuple[str, ...]]:
        return {c: tuple(sorted(ps)) for c, ps in state.placement.items() if ps}

    def correction(self, state: GameState, seen: Mapping[str, Sequence[str]]) -> Correction:
        where_now = state.where
        where_seen = {p: c for c, ps in seen.items() for p in ps}
        return Correction(tuple(Relocation(p, where_now.get(p, "-"), where_seen.get(p, "-"))
                                for p in sorted(set(where_now) | set(where_seen))
                                if where_now.get(p) != where_seen.get(p)))

    def taken_off(self, state: GameState) -> tuple[str, ...]:
        return tuple(sorted(state.lost))

    def markers(self, state: GameState) -> dict[str, tuple[str, str]]:
        return {"fog": ("FOG", f"the FOG is at {state.fog}"),
                "turn": ("turn", f"it is {player_name(state, state.active_colour)}'s turn ({state.active_colour}), "
                                 f"round {state.round}")}

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        from companion.games.fog.board_fit import fitted_board_text

        return fitted_board_text(fit, board or "standard", name, edits=edits)

    def describe_board(self, board: str | None = None) -> str:
        b = Board.load_named(board or "standard")
        lines = [f"board {b.name} ({b.source}), {b.size_mm[0]:.0f} x {b.size_mm[1]:.0f} mm, "
                 f"markers {b.marker_dictionary}"]
        for rid in b.beach_rows:
            row = b.rows[rid]
            lines.append(f"  row {rid}: {len(b.row_cells[rid]):>2} hexes, {row.obstacles} obstacles / "
                         f"{row.empty_for('4')} empty, {row.lost_rp} RP per islander lost")
        lines.append(f"  shore: {len(b.row_cells['shore'])} hexes; boats {', '.join(b.boat_order)}; "
                     f"FOG track {' > '.join(f.label for f in b.fog_fields)}")
        return "\n".join(lines)

    def hints(self, state: GameState, seen: Placement, budget: Budget) -> Hints[GameState, FogAction]:
        return FogHints()

    def reconcile(self, state: GameState, seen: Mapping[str, Sequence[str]], budget: Budget | None = None
                  ) -> Reconciliation:
        """The cheapest legal movements of the active colour that lead to the picture (A* in :mod:`explain`),
        within the bounds ``budget`` buys (:mod:`bounds`: shares of its positions; the default budget's
        are the bounds The FOG always had). A move part-way is the framework's part-way test (in
        :mod:`steps`), islanders moved out of turn the framework's answer in The FOG's words."""
        if state.phase != "moving":
            return Reconciliation.illegal(f"pieces moved in the {state.phase} phase", rule="phase")
        bounds, hints = Bounds.of(budget), self.hints(state, seen, budget or Budget())
        target = {c: tuple(sorted(ps)) for c, ps in seen.items() if ps}
        if target == self.expected(state):  # (a move there and back leaves it so) what every game says
            return Reconciliation.partial("nothing has moved yet", rule="unchanged")
        ended = rules.apply(state, EndTurn("done"))
        if ended.lost != state.lost and self.expected(ended) == target:
            # The tokens the FOG takes at the end of this turn were turned over: the turn ended.
            taken = names(state.board_data, sorted(set(ended.lost) - set(state.lost)))
            return Reconciliation((Choice(("end-turn done",), f"{player_name(state, state.active_colour)}'s turn "
                                                               f"ended and the FOG took {taken}"),))
        answer = explain(state, seen, bounds.first_look())
        if not answer.ok:  # half a swap or a push is a step (a hand moves one token at a time), not illegal
            # A step is looked for before the whole search: with the pushed islander put down before its
            # pusher, proving that no sequence of moves leaves the table so took seconds (see steps.py)
            step = steps.part_way(state, target, moves=bounds.moves)
            if step is not None:
                return step
            if answer.searched >= bounds.step_nodes:  # a tier stopped at the bound: search it all
                answer = explain(state, seen, bounds)
            if answer.rule == "not-your-islander":  # only other colours' islanders moved: the one answer
                theirs = out_of_turn(self.game, state, target, hints)
                if theirs is not None:
                    return theirs
            if answer.rule == "search-limit":
                return Reconciliation.illegal(hints.unread(self.game, state, target, True), (), answer.rule)
            if not answer.ok:
                return Reconciliation.illegal(answer.reason or "not a legal move", answer.offenders, answer.rule)
        choices = tuple(choice(state, o) for o in answer.options)
        question = hidden_in(state, answer.options[0], target)
        if question is None:
            # an own islander pushed one field on and put down before its pusher is also that islander's
            # run: read at once, the pusher's move would be read as a second run nobody made. So a whole
            # reading that is also the first token of a longer move is a step holding the reading: the
            # rest of the move is read as the whole move, or the reading settles after the hold time
            step = steps.part_way(state, target, read=True, moves=bounds.moves)
            if step is not None:
                return replace(step, choices=choices,
                               step=f"{step.step}; or leave it as it is: {choices[0].summary[:1].lower()}"
                                    f"{choices[0].summary[1:]}")
            mirror = either_swap(state, answer.options)
            if mirror is not None:  # the one the hands lifted first made it; asked when the camera did not see
                return Reconciliation(choices + (choice(state, mirror),), by_hands=True,
                                      question="Which of the two islanders made the swap?")
            return Reconciliation(choices)
        if steps.back_or_foreign(state, answer.options[0].movements, target):
            # "pushed and ran back" is also the pushed islander put on first, the pusher still to come: a
            # step; the players are asked only if the picture stays so past the hold time
            step = steps.part_way(state, target, moves=bounds.moves)
            if step is not None:
                return replace(step, choices=choices, question=question)
        plain: tuple[Choice, ...] = ()
        if any(m.kind == "endurance" for m in answer.options[0].movements):
            # The same picture without the free run: a plain run, paid for, the turn goes on.
            other = explain(state, seen, bounds, allow_endurance=False)
            plain = tuple(choice(state, o) for o in other.options if o.cost <= state.mp_left)
        if len(plain) > 1:  # which of two swapped islanders moved: only an endurance islander that moved may run
            question = (f"Which islander moved? Only one that moved may still make its free endurance run. "
                        f"{question or ''}").strip()
        return Reconciliation(plain + choices, question=question)


class FogPanel(Panel[GameState, FogAction]):
    """What the pages show: the beach (no secrets), the dots of a tapped islander, what the table hears."""

    view = staticmethod(table.view)

    def targets(self, state: GameState, piece: str) -> dict[str, tuple[Choice, ...]]:
        """The fields ``piece`` reaches with one legal move of its own (the cheapest move to each: the
        path does not matter to the players, only what it costs)."""
        out: dict[str, tuple[int, MoveAction]] = {}
        for move in legal_movements(state):
            if move.movements[0].islander != piece:
                continue
            target = next((m.path[-1] for m in reversed(move.movements) if m.islander == piece), None)
            cost = state.mp_left - rules.apply(state, move).mp_left if target else 0
            if target and (target not in out or cost < out[target][0]):
                out[target] = (cost, move)
        return {cell: (Choice((str(move),), f"{capital(moves_words(state, move.movements))} ({cost} MP)"),)
                for cell, (cost, move) in sorted(out.items())}

    def notes(self, before: GameState, after: GameState) -> dict[str, Any]:
        out: dict[str, Any] = {"mp_left": after.mp_left, "active": after.active_colour}
        swallowed = sorted(set(after.lost) - set(before.lost))
        if swallowed:
            out["flip"] = swallowed  # turn these tokens over: the FOG took them
        if after.history and after.history != before.history:  # what the table hears, in a sentence
            from companion.games.fog.words import action_words

            out["said"] = action_words(before, after.history[-1], before.active_colour)
        return out


class FogLights(Lights[GameState, FogAction]):
    """The FOG's rows on the status segment, the MP left and the hourglass, beside whose turn it is."""

    led_scene = staticmethod(table.led_scene)


# The FOG's first saved format had no "game" key (it was the only game): such a file is still The FOG's.
GAME: Game[GameState, FogAction] = Game(DECLARATION, FogRules(), FogTable(), FogPanel(), lights=FogLights(),
                                        called="a FOG", untagged=True)
