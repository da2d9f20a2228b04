"""The partner card race behind the door (:class:`~companion.games.base.Game`): its declaration and
its parts. The rules are ``rules.py``'s functions; the table (the board, what the camera sees and
what a picture means) is ``table.py``; the panel and the LEDs are here. The state never holds a
card in a hand (the companion does not see hands either), so the seats' defaults are right for it:
one player acts at a time and every phone may read the whole state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import OptionsError, SetupError, StateFormatError
from companion.games.base import Game
from companion.games.declaration import Counter, GameType, Phase
from companion.games.leds import Count, LedScene, Light, alert_light, dim, turn_light, winners_scene
from companion.games.parts import Lights, Panel, Rules
from companion.games.reconciliation import Choice
from companion.games.results import Outcome, TableStatus
from companion.games.partner_race import board as boards
from companion.games.partner_race import rules
from companion.games.partner_race.cards import CARDS, HAND, called
from companion.games.partner_race.reading import covers, pawns_seen, place_of
from companion.games.partner_race.rules import Action, Play, RaceState
from companion.games.partner_race.table import RaceTable
from companion.games.partner_race.track import COLOURS, colour_of, locked, partner, pawns_of, team
from companion.games.partner_race.words import choice_words, log_lines, name_of, pawn_name, piece_names, place_names, \
    place_words, play_words

MAX_NAME = 40
_covers, _pawns_seen = covers, pawns_seen  # the names tests/test_partner_race_reading.py reads them by
CALM_HZ = 0.5  # a step breathes slowly: nothing is wrong, a hand is not finished yet
LABELS = {"turn": "whose turn, who is next", "status": "the teams", "counter": "cards in hand", "timer": ""}
DECLARATION = GameType(
    "partner-race", "Partner card race", (4,), chance="deck", information="per-seat",
    counters=(Counter("deal", "Deal"), Counter("card_laid", "Last card"), Counter("cards_left", "Cards in hand")),
    phases=(Phase("playing", "Playing"),), turn_actions=("fold",), turn_ends="A turn ends when a card is laid.")
"""A shuffled deck dealt again each deal; each hand is its player's secret (the companion does not see
it either: it counts the cards left); one player at a time. It counts deals and the cards in each hand;
a turn ends when a card is laid, and a player who can play none folds."""


def _up_next(state: RaceState) -> str:
    """Who plays after the active player: the next with cards left this deal (the active player again
    when everybody else has folded)."""
    for k in range(1, 4):
        seat = (state.turn + k) % 4
        if state.cards_left[seat] > 0:
            return COLOURS[seat]
    return state.active if state.cards_left[state.turn] > 1 else COLOURS[(state.turn + 1) % 4]



class Score:
    def __init__(self, state: RaceState) -> None:
        self.state = state

    def to_dict(self) -> dict[str, Any]:
        won = rules.winners(self.state)
        return {"winners": list(won), "teams": [list(team("yellow")), list(team("green"))],
                "pawns": {p: {"where": pos, "locked": locked(p, self.state.where)} for p, pos in self.state.where.items()},
                "locked": {c: sum(locked(p, self.state.where) for p in pawns_of(c)) for c in COLOURS}}

    def lines(self) -> list[str]:
        """The standing in words, people by name: who has won (or not yet), each team's locked pawns,
        and where every pawn is (the Score page shows these during a game as well as after it)."""
        d = self.to_dict()
        who = {c: f"{name_of(self.state, c)} ({c})" for c in COLOURS}
        out = [f"{' and '.join(who[c] for c in d['winners'])} have won" if d["winners"] else "No team has won yet."]
        for pair in d["teams"]:
            out.append(f"  {' and '.join(who[c] for c in pair)}: {sum(d['locked'][c] for c in pair)} of 8 pawns locked")
        for pawn, info in d["pawns"].items():
            out.append(f"    {pawn_name(self.state, pawn)}: {place_words(pawn, info['where'])}"
                       f"{' (locked)' if info['locked'] else ''}")
        return out


class RaceRules(Rules[RaceState, Action]):
    """The partner card race: four players in two teams, pawns round a track, cards to move them."""

    to_dict = staticmethod(rules.to_json)
    parse_action = staticmethod(rules.parse_action)
    legal_actions = staticmethod(rules.legal_actions)

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        return [{"name": "players", "label": "Players", "kind": "count", "choices": [4]},
                {"name": "seats", "label": "Names and colours", "kind": "seats", "colours": list(COLOURS),
                 "colours_per_player": {"default": 1}, "max_name": MAX_NAME,
                 "help": "Partners sit across: yellow with blue, green with red."},
                {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1}]

    def new_game(self, players: int = 4, seed: int = 0, names: Sequence[str] | None = None,
                 seats: Sequence[Mapping[str, Any]] | None = None, board: str = "standard", options: str = "",
                 **_: Any) -> RaceState:
        unknown = [t.strip() for t in str(options or "").split(",") if t.strip()]
        if unknown:  # an option the game does not have is refused, never silently dropped
            raise OptionsError(f"unknown option {unknown[0]!r}: the partner card race has no options")
        if players != 4:
            raise SetupError(f"the partner card race is played by 4 players in two teams, not {players}")
        chosen = list(names or [])
        if seats is not None:
            by_colour = {}
            for i, seat in enumerate(seats):
                if not isinstance(seat, Mapping):
                    raise SetupError(f"player {i + 1} must be an object {{name, colours}}")
                colours = seat.get("colours") or [COLOURS[i % 4]]
                if not isinstance(colours, list) or len(colours) != 1 or colours[0] not in COLOURS:
                    raise SetupError(f"player {i + 1}: one colour of {', '.join(COLOURS)}")
                if colours[0] in by_colour:
                    raise SetupError(f"player {i + 1}: colour {colours[0]!r} is already taken")
                by_colour[colours[0]] = str(seat.get("name") or colours[0])
            chosen = [by_colour.get(c, c) for c in COLOURS]
        names_ = tuple((chosen + list(COLOURS))[k] if k < len(chosen) else COLOURS[k] for k in range(4))
        if any(not 0 < len(n) <= MAX_NAME for n in names_):
            raise SetupError(f"a name is 1 to {MAX_NAME} characters")
        boards.load(board)  # the board must exist and read well
        return rules.new_race(seed=seed, names=names_, dealer=seed % 4, board=board)

    def from_dict(self, data: Mapping[str, Any]) -> RaceState:
        try:
            return rules.from_json(data)
        except ValueError as exc:
            raise StateFormatError(str(exc)) from None

    def complete_action(self, state: RaceState, text: str) -> str:
        """``play CARD PAWN:HOW`` or ``fold`` typed at a terminal are the active player's."""
        words = text.split()
        if words and words[0] in ("play", "fold") and (len(words) < 2 or words[1] not in COLOURS):
            return " ".join([words[0], state.active, *words[1:]])
        return text.strip()

    def text(self, state: RaceState) -> str:
        lines = [f"deal {state.deal} (dealer {COLOURS[state.dealer]}, deal {state.deals} of 3); "
                 f"{state.active} ({state.names[state.turn]}) to play; last card: {state.last_card or '-'}"]
        for colour in COLOURS:
            where = ", ".join(f"{p.rsplit('-', 1)[1]}:{state.where[p]}" for p in pawns_of(colour))
            lines.append(f"  {colour:<6} ({state.names[COLOURS.index(colour)]}, partner {partner(colour)}): {where}; "
                         f"{state.cards_left[COLOURS.index(colour)]} cards in hand")
        return "\n".join(lines)

    def apply(self, state: RaceState, action: Action | str) -> RaceState:
        return rules.apply(state, rules.parse_action(action) if isinstance(action, str) else action)

    def outcome(self, state: RaceState) -> Outcome | None:
        won = rules.winners(state)
        return Outcome(won, "they locked all eight of their pawns") if won else None  # the page names them

    def active(self, state: RaceState) -> tuple[str, ...]:
        """The player to lay a card (or fold); nobody once a team has won."""
        return () if rules.winners(state) else (state.active,)

    def score(self, state: RaceState) -> Score:
        return Score(state)


class RacePanel(Panel[RaceState, Action]):
    """The race as the pages show it: pawns and places by name, the log in words, the cards counted."""

    def view(self, state: RaceState, seat: str | None = None) -> dict[str, Any]:
        phase = "finished" if rules.winners(state) else "playing"
        placement = {c: list(ps) for c, ps in self.game.table.expected(state).items()}
        return {"phase": phase, "active": state.active, "next": _up_next(state), "players": [
                    {"name": state.names[k], "colours": [c], "partner": partner(c)} for k, c in enumerate(COLOURS)],
                "turn_order": list(COLOURS), "placement": placement, "deal": state.deal, "dealer": COLOURS[state.dealer],
                "deals_by_dealer": state.deals, "cards_left": dict(zip(COLOURS, state.cards_left, strict=True)),
                "last_card": state.last_card,  # the notation's, as its marker is; the counter's is in words:
                "card_laid": called(state.last_card) if state.last_card else None, "unseen": {k: state.unseen(k) for k in CARDS},
                "teams": [list(team("yellow")), list(team("green"))], "history": list(state.history),
                "owners": {p: colour_of(p) for p in state.where},
                "names": piece_names(state),  # pawns and cards as players call them: pages never show ids
                "places": place_names(),  # and the places that are not named as printed (T14 is)
                "log": log_lines(state),  # the history in words: who played what, and whom it bumped
                "standing": Score(state).lines(),
                "end_turn": False,  # a turn ends when a card is laid
                "turn_actions": [] if phase == "finished" else [
                    {"action": f"fold {state.active}", "label": f"{state.names[state.turn]} folds",
                     "confirm": f"Can {state.names[state.turn]} ({state.active}) play none of their cards? Folding "
                                "gives up the rest of this deal."}]}

    def targets(self, state: RaceState, piece: str) -> dict[str, tuple[Choice, ...]]:
        """Every card that takes ``piece`` somewhere on its own (a swap: onto the other pawn's place);
        two cards to one place are both offered, so the card played is the one recorded."""
        out: dict[str, list[Choice]] = {}
        for action in rules.legal_actions(state):
            if not isinstance(action, Play):
                continue
            if not ((action.swap is not None and piece in action.swap) or
                    (len(action.steps) == 1 and action.steps[0].pawn == piece)):
                continue
            after = rules.check(state, action)
            out.setdefault(place_of(piece, after[piece]), []).append(
                Choice((str(action),), choice_words(state, action, after, piece)))  # a sentence, pawns by name
        return {cell: tuple(choices) for cell, choices in sorted(out.items())}

    def notes(self, before: RaceState, after: RaceState) -> dict[str, Any]:
        bumped = sorted(p for p in before.where if before.where[p] != "home" and after.where[p] == "home")
        out: dict[str, Any] = {"active": after.active, "deal": after.deal}
        if bumped:
            out["bumped"] = bumped  # back to their home circles
        if after.history and after.history != before.history:  # what the table hears, in a sentence
            out["said"] = play_words(before, rules.parse_action(after.history[-1]), after.where)
        return out


def step_light(state: RaceState, status: TableStatus, colours: Mapping[str, tuple[int, int, int]]) -> Light | None:
    """The turn light while a play is part-way: the colour of the pawn to move now, breathing slowly
    (None: no step)."""
    if not status.step:
        return None
    mover = colour_of(state.movers(state.active)[0])  # the player's own pawns first, then whoever's moves
    moving = sorted((colour_of(p) for p in status.to_move if not p.startswith("card-")), key=lambda c: c != mover)
    colour = moving[0] if moving else mover
    return Light(colours[colour], "pulse", CALM_HZ, 0.35)


class RaceLights(Lights[RaceState, Action]):
    """The LEDs: the turn and who is next, the two teams, the cards in the active player's hand."""

    def led_scene(self, state: RaceState, status: TableStatus = TableStatus()) -> LedScene:
        """The strip by role: ``turn`` whose turn it is (a waiting question blinks) and who is next;
        ``status``, the long one, the two teams side by side (a colour with a pawn that breaks a rule
        blinks red); ``counter`` the cards still in the active player's hand of the hand dealt; the
        winners' colours over the whole strip. The game has no turn timer: a disk that fills takes
        over the ``timer`` segment."""
        b = boards.load(state.board)
        won = rules.winners(state)
        if won:
            return winners_scene([b.rgb[c] for c in won])
        active = step_light(state, status, b.rgb) or turn_light(b.rgb[state.active], status.waiting)
        following = _up_next(state)
        bad = {colour_of(p) for p in status.offenders if not p.startswith("card-")}
        teams = tuple(alert_light() if c in bad else Light(b.rgb[c])
                      for pair in (team("yellow"), team("green")) for c in pair)
        hand = Count(state.cards_left[state.turn], HAND, Light(b.rgb[state.active]))
        return LedScene({"turn": (active, Light(dim(b.rgb[following]))), "status": teams, "counter": hand}, status="timer",
                        labels=LABELS)


GAME = Game(DECLARATION, RaceRules(), RaceTable(), RacePanel(), lights=RaceLights(), called="a partner race")
