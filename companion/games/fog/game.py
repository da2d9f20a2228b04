"""The FOG behind the door (:class:`~companion.games.base.Game`): the one object the companion uses.

Everything FOG-specific the session, the camera, the LEDs and the panel used to know lives here
or in the modules it calls: the draft and colour allocation of the setup, reading a camera picture
as movements (:mod:`explain`), the turn that ends when the MP are spent, the tokens the FOG takes,
the FOG and turn markers, the hourglass, the scoring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.errors import FogCompanionError, SetupError
from companion.games.legacy import LegacyGame, door
from companion.games.base import BoardFit, Choice, Game, Layout, LedScene, Outcome, Reconciliation, TableStatus, TurnTimer
from companion.games.declaration import Counter, GameType, Phase, Shade
from companion.games.fog import rules, steps, table
from companion.games.fog.actions import Correction, Draft, EndTurn, Relocation, parse_action
from companion.games.fog.board import Board
from companion.games.fog.explain import Option, explain
from companion.games.fog.layout import board_layout
from companion.games.fog.legality import legal_movements
from companion.games.fog.movement import Movement, MoveAction
from companion.games.fog.options import Options
from companion.games.fog.scenario import scenario_ids
from companion.games.fog.scoring import ScoreReport, score
from companion.games.fog.setup import new_game
from companion.games.fog.solo import new_solo_game
from companion.games.fog.state import GameState, Player
from companion.games.fog.text import render
from companion.games.fog.words import capital, moves_words, names, piece_name, player_name

MAX_NAME = 40
FogAction = Draft | EndTurn | Correction | MoveAction  # every action of The FOG, as parse_action reads it
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


def _choice(state: GameState, option: Option) -> Choice:
    """A reading in words for the players (the actions keep their notation for the log); the
    preparation bonuses it hands out said after it."""
    bonus = f"preparation bonus {' and '.join(str(g) for g in option.gains)}" if option.gains else ""
    return Choice(tuple(str(a) for a in option.actions), f"{capital(moves_words(state, option.movements))} "
                  f"({option.cost} MP)", option.to_dict(), bonus)


def _either_swap(state: GameState, options: Sequence[Option]) -> Option | None:
    """The same swap made by the other islander: two of the player's own islanders swapped look the
    same whichever made it, and cost the same. Only the hands' order tells which moved (the one
    lifted first); the log names that one (None: the reading is not such a swap)."""
    if len(options) != 1 or len(options[0].movements) != 1 or options[0].movements[0].kind != "swap":
        return None
    swap = options[0].movements[0]
    there = [p for p in state.placement.get(swap.path[1], ()) if p in state.board_data.islanders]
    if len(there) != 1:
        return None
    mirror = Movement("swap", there[0], (swap.path[1], swap.path[0]))
    try:
        after, made = rules.apply(state, MoveAction((mirror,))), rules.apply(state, MoveAction((swap,)))
    except FogCompanionError:
        return None
    if after.placement != made.placement or after.mp_left != made.mp_left:
        return None
    return replace(options[0], movements=(mirror,))


def hidden_in(state: GameState, option: Option, seen: Mapping[str, Sequence[str]]) -> str | None:
    """Why a reading must be confirmed by the players, or None when it is what they most likely did.

    The cheapest reading is not always the one a person made. Three readings hide something the
    camera cannot see (rules interpretation 31): an islander that ends where it started (pushed
    others and ran back), a move in which none of the active colour's islanders changed field
    (another colour's islander dragged out of turn looks like a push and a run back), and the
    free endurance run while MP are left (it ends the turn).
    """
    before, after = state.where, {p: c for c, ps in seen.items() for p in ps}
    board = state.board_data
    movers = dict.fromkeys(m.islander for m in option.movements)
    back = [i for i in movers if before.get(i) == after.get(i)]
    own = set(state.islanders_of(state.active_colour)) if state.active_colour else set()
    who = player_name(state, state.active_colour)
    changed = [p for p in set(before) | set(after) if before.get(p) != after.get(p)]
    asked = _did(state, option, back)
    if changed and not own & set(changed):
        return (f"Only {names(board, sorted(changed))} moved, and it is {who}'s turn. {asked} "
                f"({option.cost} MP) If a piece was moved out of turn, put it back.")
    if back:
        return f"{asked} ({option.cost} MP) If not, put the pieces back."
    free = [m.islander for m in option.movements if m.kind == "endurance"]
    if free and state.mp_left - option.cost > 0:
        return (f"Was the last step of {piece_name(board, free[0])} its free endurance run, which ends {who}'s turn "
                f"with {state.mp_left - option.cost} MP unused, or a plain run that keeps the turn going?")
    return None


def _did(state: GameState, option: Option, back: Sequence[str]) -> str:
    """What a reading says happened, asked: "Did the green sailor push the red elder and run back?"
    (the pushed or swapped tokens named from where they stood)."""
    board, where = state.board_data, state.where
    first = option.movements[0]
    hand = {"push": "push", "swap": "swap places with"}.get(first.kind)
    there = [p for p, c in where.items() if len(first.path) > 1 and c == first.path[1] and p != first.islander]
    mover = piece_name(board, first.islander)
    if hand and there:
        return f"Did {mover} {hand} {names(board, there)}{' and run back' if first.islander in back else ''}?"
    return f"Was it this: {moves_words(state, option.movements)}?"


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


class FogGame(LegacyGame[GameState, FogAction]):
    """The FOG: Escape from Paradise, 1 (solo scenarios) to 4 players."""

    name = "fog"
    title = "The FOG: Escape from Paradise"
    players = (1, 2, 3, 4)

    @property
    def declaration(self) -> GameType:
        """A seeded setup (where the islanders start) and no luck after it; nothing hidden; one colour
        at a time. It counts rounds and the MP a turn has left, the FOG's rows and the tokens it
        swallowed; the board shades the rows the FOG covers and those it takes next; a draft on the
        Setup page comes before play. The FOG takes tokens that hands turn over (the Table page's
        button)."""
        return GameType(
            self.name, self.title, self.players, chance="setup", information="none",
            counters=(Counter("round", "Round"),
                      Counter("mp_left", "MP left", total="mp_total", unit="MP", phases=("moving",)),
                      Counter("fog.label", "FOG"), Counter("fog.swallowed", "Swallowed")),
            phases=(Phase("draft", "Draft", picks="picks: tap an islander on the board or in the list below.",
                          done="Every islander has a player.", step=True),
                    Phase("moving", "Moving")),
            shades=(Shade("fog.swallowed", "covered"), Shade("fog.next", "warned")),
            features=("turn-over",))

    # ------------------------------------------------------------------ setup
    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        colours = list(Board.load_named(board or "standard").player_colours)
        return [
            {"name": "players", "label": "Players", "kind": "count", "choices": list(self.players),
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

    # ------------------------------------------------------------------ values
    def to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def from_json(self, data: Any) -> GameState:
        return GameState.from_json(data) if isinstance(data, str) else GameState.from_dict(data)

    def parse_action(self, text: str) -> FogAction:
        return parse_action(text)

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

    # ------------------------------------------------------------------ rules
    def legal_actions(self, state: GameState) -> list[FogAction]:
        if state.phase == "draft":
            return list(rules.legal_drafts(state))
        if state.phase == "moving":
            return [*legal_movements(state), EndTurn("done")]
        return []

    def apply(self, state: GameState, action: FogAction | str) -> GameState:
        return rules.apply(state, action)

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

    def correction(self, state: GameState, seen: Mapping[str, Sequence[str]]) -> Correction:
        where_now = state.where
        where_seen = {p: c for c, ps in seen.items() for p in ps}
        return Correction(tuple(Relocation(p, where_now.get(p, "-"), where_seen.get(p, "-"))
                                for p in sorted(set(where_now) | set(where_seen))
                                if where_now.get(p) != where_seen.get(p)))

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != "finished":
            return None
        report = score(state)
        return Outcome(tuple(report.winners), state.end_reason or "the game is over")

    def active(self, state: GameState) -> tuple[str, ...]:
        """The colour to move (the drafting colour in the draft, a nation in solo); none once finished."""
        return (state.active_colour,) if state.active_colour else ()

    def score(self, state: GameState) -> ScoreReport:
        return score(state)

    # ------------------------------------------------------------------ the table
    def layout(self, state: GameState | None = None, board: str | None = None) -> Layout:
        return board_layout(state.board_data if state is not None else Board.load_named(board or "standard"))

    def expected(self, state: GameState) -> dict[str, tuple[str, ...]]:
        return {c: tuple(sorted(ps)) for c, ps in state.placement.items() if ps}

    def reconcile(self, state: GameState, seen: Mapping[str, Sequence[str]]) -> Reconciliation:
        """The cheapest legal movements of the active colour that lead to the picture (A* in :mod:`explain`)."""
        if state.phase != "moving":
            return Reconciliation.illegal(f"pieces moved in the {state.phase} phase", rule="phase")
        target = {c: tuple(sorted(ps)) for c, ps in seen.items() if ps}
        ended = rules.apply(state, EndTurn("done"))
        if ended.lost != state.lost and self.expected(ended) == target:
            # The tokens the FOG takes at the end of this turn were turned over: the turn ended.
            taken = names(state.board_data, sorted(set(ended.lost) - set(state.lost)))
            return Reconciliation((Choice(("end-turn done",), f"{player_name(state, state.active_colour)}'s turn "
                                                               f"ended and the FOG took {taken}"),))
        answer = explain(state, seen, node_limit=steps.STEP_NODES)
        if not answer.ok:  # half a swap or a push is a step (a hand moves one token at a time), not illegal
            # A step is looked for before the whole search: with the pushed islander put down before its
            # pusher, proving that no sequence of moves leaves the table so took seconds (see steps.py)
            step = steps.part_way(state, target)
            if step is not None:
                return step
            if answer.searched >= steps.STEP_NODES:  # a tier stopped at the bound: search it all
                answer = explain(state, seen)
            if not answer.ok:
                return Reconciliation.illegal(answer.reason or "not a legal move", answer.offenders, answer.rule)
        choices = tuple(_choice(state, o) for o in answer.options)
        question = hidden_in(state, answer.options[0], target)
        if question is None:
            # an own islander pushed one field on and put down before its pusher is also that islander's
            # run: read at once, the pusher's move would be read as a second run nobody made. So a whole
            # reading that is also the first token of a longer move is a step holding the reading: the
            # rest of the move is read as the whole move, or the reading settles after the hold time
            step = steps.part_way(state, target, read=True)
            if step is not None:
                return replace(step, choices=choices,
                               step=f"{step.step}; or leave it as it is: {choices[0].summary[:1].lower()}"
                                    f"{choices[0].summary[1:]}")
            mirror = _either_swap(state, answer.options)
            if mirror is not None:  # the one the hands lifted first made it; asked when the camera did not see
                return Reconciliation(choices + (_choice(state, mirror),), by_hands=True,
                                      question="Which of the two islanders made the swap?")
            return Reconciliation(choices)
        if steps.back_or_foreign(state, answer.options[0].movements, target):
            # "pushed and ran back" is also the pushed islander put on first, the pusher still to come: a
            # step; the players are asked only if the picture stays so past the hold time
            step = steps.part_way(state, target)
            if step is not None:
                return replace(step, choices=choices, question=question)
        plain: tuple[Choice, ...] = ()
        if any(m.kind == "endurance" for m in answer.options[0].movements):
            # The same picture without the free run: a plain run, paid for, the turn goes on.
            other = explain(state, seen, allow_endurance=False)
            plain = tuple(_choice(state, o) for o in other.options if o.cost <= state.mp_left)
        if len(plain) > 1:  # which of two swapped islanders moved: only an endurance islander that moved may run
            question = (f"Which islander moved? Only one that moved may still make its free endurance run. "
                        f"{question or ''}").strip()
        return Reconciliation(plain + choices, question=question)

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

    def taken_off(self, state: GameState) -> tuple[str, ...]:
        return tuple(sorted(state.lost))

    def notes(self, before: GameState, after: GameState) -> dict[str, Any]:
        out: dict[str, Any] = {"mp_left": after.mp_left, "active": after.active_colour}
        swallowed = sorted(set(after.lost) - set(before.lost))
        if swallowed:
            out["flip"] = swallowed  # turn these tokens over: the FOG took them
        if after.history and after.history != before.history:  # what the table hears, in a sentence
            from companion.games.fog.words import action_words

            out["said"] = action_words(before, after.history[-1], before.active_colour)
        return out

    def markers(self, state: GameState) -> dict[str, tuple[str, str]]:
        return {"fog": ("FOG", f"the FOG is at {state.fog}"),
                "turn": ("turn", f"it is {player_name(state, state.active_colour)}'s turn ({state.active_colour}), "
                                 f"round {state.round}")}

    def turn_timer(self, state: GameState) -> TurnTimer | None:
        seconds = state.options.hourglass_seconds
        if not seconds or state.phase != "moving":
            return None
        return TurnTimer((state.round, state.turn_index), float(seconds), "end-turn hourglass", "Hourglass")

    def view(self, state: GameState, seat: str | None = None) -> dict[str, Any]:
        return table.view(state, seat)

    def led_scene(self, state: GameState, status: TableStatus = TableStatus()) -> LedScene:
        return table.led_scene(state, status)


GAME = door(FogGame())
