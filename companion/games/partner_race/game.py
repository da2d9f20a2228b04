"""The partner card race behind the door (:class:`~companion.games.base.Game`).

What the camera sees is the pawns on their spaces and the card laid last on the card spot (each
kind of card carries one marker). A picture with a new card, or pawns moved, is read as the plays
of that card that lead to it; the panel plays a card or folds by the same notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.errors import BoardFileError, IllegalMoveError, OptionsError, SetupError, StateFormatError
from companion.games.legacy import LegacyGame, door
from companion.games.base import (BoardFit, Choice, Count, Game, Layout, LedScene, Light, Outcome, Reconciliation,
                                  TableStatus, alert_light, dim, turn_light, winners_scene)
from companion.games.declaration import Counter, GameType, Phase
from companion.games.saved import saved_form
from companion.games.partner_race import board as boards
from companion.games.partner_race import rules
from companion.games.partner_race import steps as parts
from companion.games.partner_race.cards import CARDS, DECK, HAND, called
from companion.games.partner_race.reading import Picture, place_of
from companion.games.partner_race.rules import Action, Correct, Play, RaceState
from companion.games.partner_race.track import COLOURS, colour_of, locked, partner, pawns_of, team, track
from companion.games.partner_race.words import (card_name, card_thing, choice_words, log_lines, name_of, pawn_name,
                                                    piece_names, place_names, place_words, play_words)

MAX_NAME = 40
LABELS = {"turn": "whose turn, who is next", "status": "the teams", "counter": "cards in hand", "timer": ""}


def position_of(pawn: str, cell: str) -> str | None:
    """A pawn's position from the cell it is seen on, or None: a cell it can never be on."""
    colour = colour_of(pawn)
    if cell.startswith("T") and cell[1:].isdigit():
        return cell
    if cell.startswith(f"home-{colour}-"):
        return "home"
    if cell == f"start-{colour}":
        return "start"
    if cell.startswith(f"goal-{colour}-"):
        return f"G{cell.rsplit('-', 1)[1]}"
    return None


def _pawns_seen(seen: Mapping[str, Sequence[str]]) -> tuple[dict[str, str], tuple[str, str] | None]:
    """Each pawn seen and its position; the first one seen on a place its colour never stands, if any."""
    where: dict[str, str] = {}
    for cell, pieces in seen.items():
        for piece in pieces:
            if piece.startswith("card-"):
                continue
            pos = position_of(piece, cell)
            if pos is None:
                return where, (piece, cell)
            where[piece] = pos
    return where, None


def _place(cell: str) -> str:
    """A cell of the board as players say it ("green goal circle 1", T14 as printed)."""
    return place_names().get(cell, cell)


def _pawns(state: RaceState, pawns: Sequence[str]) -> str:
    """Pawns by name in a sentence: "Ada's green pawn 1 is", "Ada's green pawn 1 and Bo's red pawn 2 are"."""
    names = [pawn_name(state, p) for p in pawns]
    return f"{names[0]} is" if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]} are"


def _up_next(state: RaceState) -> str:
    """Who plays after the active player: the next with cards left this deal (the active player again
    when everybody else has folded)."""
    for k in range(1, 4):
        seat = (state.turn + k) % 4
        if state.cards_left[seat] > 0:
            return COLOURS[seat]
    return state.active if state.cards_left[state.turn] > 1 else COLOURS[(state.turn + 1) % 4]


def _covers(seen: Mapping[str, Sequence[str]]) -> dict[str, set[str]]:
    """Track spaces (and starting spaces) by the colours seen on them: where a pawn of that colour can
    be hidden beneath (two pawns brought out stand on each other on their starting space)."""
    out: dict[str, set[str]] = {c: set() for c in COLOURS}
    for cell, pieces in seen.items():
        if cell.startswith(("T", "start-")):
            for piece in pieces:
                if not piece.startswith("card-"):
                    out[colour_of(piece)].add(cell)
    return out


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


class PartnerRaceGame(LegacyGame[RaceState, Action]):
    """The partner card race: four players in two teams, pawns round a track, cards to move them."""

    name = "partner-race"
    title = "Partner card race"
    players = (4,)

    @property
    def declaration(self) -> GameType:
        """A shuffled deck dealt again each deal; each hand is its player's secret (the companion does
        not see it either: it counts the cards left); one player at a time. It counts deals and the
        cards in each hand; a turn ends when a card is laid, and a player who can play none folds."""
        return GameType(self.name, self.title, self.players, chance="deck", information="per-seat",
                        counters=(Counter("deal", "Deal"), Counter("card_laid", "Last card"),
                                  Counter("cards_left", "Cards in hand")),
                        phases=(Phase("playing", "Playing"),), turn_actions=("fold",),
                        turn_ends="A turn ends when a card is laid.")

    # ------------------------------------------------------------------ setup
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

    # ------------------------------------------------------------------ values
    def to_json(self, state: RaceState) -> dict[str, Any]:
        return rules.to_json(state)

    def from_json(self, data: Any) -> RaceState:
        try:
            return rules.from_json(saved_form(data, self.name, "a partner race"))
        except ValueError as exc:
            raise StateFormatError(str(exc)) from None

    def parse_action(self, text: str) -> Action:
        return rules.parse_action(text)

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

    def describe_board(self, board: str | None = None) -> str:
        b = boards.load(board or "standard")
        return (f"board {b.name} ({b.source}), {b.size_mm[0]:.0f} x {b.size_mm[1]:.0f} mm, markers {b.marker_dictionary}: "
                f"a track of 64 spaces (radius {b.track_radius_mm:g} mm), a starting space, 4 goal circles and "
                f"4 home circles per colour, the card spot in the middle")

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        raise BoardFileError("the partner race board is drawn from its measurements: edit track_radius_mm and "
                             "the other numbers of its board file instead of fitting it")

    # ------------------------------------------------------------------ rules
    def legal_actions(self, state: RaceState) -> list[Action]:
        return rules.legal_actions(state)

    def apply(self, state: RaceState, action: Action | str) -> RaceState:
        return rules.apply(state, rules.parse_action(action) if isinstance(action, str) else action)

    def correction(self, state: RaceState, seen: Mapping[str, Sequence[str]]) -> Correct:
        """The pawns (and the card on the spot) as seen, recorded as the players' correction. Every
        pawn must be on a place of its colour: a correction never loses a pawn."""
        cards = [p.removeprefix("card-") for p in seen.get(boards.CARD_SPOT, ()) if p.startswith("card-")]
        found, stray = _pawns_seen(seen)
        if stray is not None:
            raise IllegalMoveError(f"{pawn_name(state, stray[0])} cannot stand on {_place(stray[1])}: a "
                                   f"{colour_of(stray[0])} pawn never does")
        found.update({p: position_of(p, c) or "home" for p, c in self.hidden(state, seen).items()})
        missing = sorted(p for p in state.where if p not in found)
        if missing:
            raise IllegalMoveError(f"{_pawns(state, missing)} not on the board: every pawn is somewhere")
        moves = [(p, state.where[p], found[p]) for p in sorted(found) if found[p] != state.where[p]]
        if len(cards) > 1:
            raise IllegalMoveError("two cards on the card spot: lay the one played on top")
        card_now = cards[0] if cards else "-"
        if card_now != (state.last_card or "-") and (card_now == "-" or card_now in CARDS):
            moves.append(("card", state.last_card or "-", card_now))
        if not moves:
            raise IllegalMoveError("nothing to correct: the pawns are where the game has them")
        return Correct(tuple(moves))

    def outcome(self, state: RaceState) -> Outcome | None:
        won = rules.winners(state)
        return Outcome(won, "they locked all eight of their pawns") if won else None  # the page names them

    def active(self, state: RaceState) -> tuple[str, ...]:
        """The player to lay a card (or fold); nobody once a team has won."""
        return () if rules.winners(state) else (state.active,)

    def score(self, state: RaceState) -> Score:
        return Score(state)

    # ------------------------------------------------------------------ the table
    def layout(self, state: RaceState | None = None, board: str | None = None) -> Layout:
        return boards.layout(boards.load(state.board if state is not None else board or "standard"))

    def expected(self, state: RaceState) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for pawn, pos in state.where.items():
            out.setdefault(place_of(pawn, pos), []).append(pawn)
        if state.last_card:
            out[boards.CARD_SPOT] = [f"card-{state.last_card}"]
        return {c: tuple(sorted(ps)) for c, ps in out.items()}

    def reconcile(self, state: RaceState, seen: Mapping[str, Sequence[str]]) -> Reconciliation:
        """The plays of the card on the card spot that lead to the pawns as seen."""
        if rules.winners(state):
            return Reconciliation.illegal("the game is over", rule="over")
        cards = [p for p in seen.get(boards.CARD_SPOT, ()) if p.startswith("card-")]
        where, stray = _pawns_seen(seen)
        if stray is not None:
            return Reconciliation.illegal(f"{pawn_name(state, stray[0])} is on {_place(stray[1])}, where a "
                                          f"{colour_of(stray[0])} pawn never stands", (stray[0],), "place")
        missing = sorted(p for p in state.where if p not in where)
        covers = _covers(seen)
        if any(not covers.get(colour_of(p)) for p in missing):
            return parts.part_way(state, seen, where) or Reconciliation.illegal(
                f"{_pawns(state, missing)} not on the board: put every pawn back", missing, "off")
        moved = sorted(p for p in where if where[p] != state.where[p])
        if len(cards) == 2 and state.last_card and f"card-{state.last_card}" in cards:
            cards = [c for c in cards if c != f"card-{state.last_card}"] or cards[:1]  # the old one still shows
        if len(cards) > 1:
            return Reconciliation.illegal("two cards on the card spot: lay the one played on top", moved, "card")
        kind = cards[0].removeprefix("card-") if cards else None
        if kind is not None and kind not in CARDS:
            return Reconciliation.illegal("the card on the card spot is not a card of this deck: lay the card "
                                          "played on the card spot", moved, "card")
        # the card on the spot says which kind was played (the same kind as before: another card of
        # it); with none laid yet any card may have been, and the players say which when several fit
        kinds = [kind] if kind is not None else list(CARDS)
        found: dict[tuple[str, tuple[tuple[str, str], ...]], Choice] = {}
        picture = Picture(where, covers)
        for name in kinds:
            if state.unseen(name) <= 0:
                continue
            for play, after in picture.plays(state, name):  # pruned part by part: see reading.py
                # one reading per card and outcome: a 7 split in another order that ends alike is the same play
                key = (name, tuple(sorted(after.items())))
                text = str(play)
                found.setdefault(key, Choice((text,), play_words(state, play, after)))
        if found:
            same = kind is not None and kind == state.last_card
            # the spot looks as it did: another card of that kind laid, or none; the players say
            question = (f"The card spot still shows {card_name(kind)}: did {name_of(state, state.active)} play "
                        f"another {called(kind)}? (If another card was played, lay it on the spot instead.)") \
                if same and kind is not None else None
            # a whole play that is also part of another still being made is a step while hands are at work
            # (the card laid, no pawn moved yet; a 7 whose first pawn bounced in its goal zone to where
            # seven steps take it, the second pawn not moved yet): read, or asked, only if the table stays
            # so past the hold time with nothing moving
            step = parts.part_way(state, seen, where, others=False) if kind is not None else None
            if step is not None:
                if not same and not moved and not missing and kind is not None:
                    question = (f"{card_thing(kind).capitalize()} was laid and no pawn has moved: did "
                                f"{name_of(state, state.active)} play it so that every pawn stays where it is?")
                return replace(step, choices=tuple(found.values()), question=question)
            return Reconciliation(tuple(found.values()), question=question)
        step = parts.part_way(state, seen, where)  # a play made in parts, part-way: the card laid, a pawn moved
        if step is not None:
            return step
        if kind is not None and state.unseen(kind) <= 0:
            reason = f"all {DECK[kind]} {called(kind)} cards are out since the last shuffle: that card cannot be played"
        elif kind is not None:
            reason = (f"no way to play {card_thing(kind)} ({CARDS[kind].says}) leaves the pawns like this"
                      + (": lay the card you played on the card spot" if kind == state.last_card else ""))
        else:
            reason = f"no card {name_of(state, state.active)} can play leaves the pawns like this"
        return Reconciliation.illegal(reason, moved, "card")

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

    def hidden(self, state: RaceState, seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
        """A pawn not seen, on a track space where the game has it together with a pawn of its colour
        that is seen there: the two stand on one space (a stack) and the one below is covered."""
        visible = {p for ps in seen.values() for p in ps}
        covers = _covers(seen)
        out = {}
        for pawn, pos in state.where.items():
            cell = place_of(pawn, pos)
            if pawn not in visible and (track(pos) is not None or pos == "start") and \
                    cell in covers.get(colour_of(pawn), set()):
                out[pawn] = cell
        return out

    def notes(self, before: RaceState, after: RaceState) -> dict[str, Any]:
        bumped = sorted(p for p in before.where if before.where[p] != "home" and after.where[p] == "home")
        out: dict[str, Any] = {"active": after.active, "deal": after.deal}
        if bumped:
            out["bumped"] = bumped  # back to their home circles
        if after.history and after.history != before.history:  # what the table hears, in a sentence
            out["said"] = play_words(before, rules.parse_action(after.history[-1]), after.where)
        return out

    def view(self, state: RaceState, seat: str | None = None) -> dict[str, Any]:
        phase = "finished" if rules.winners(state) else "playing"
        placement = {c: list(ps) for c, ps in self.expected(state).items()}
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
        active = parts.step_light(state, status, b.rgb) or turn_light(b.rgb[state.active], status.waiting)
        following = _up_next(state)
        bad = {colour_of(p) for p in status.offenders if not p.startswith("card-")}
        teams = tuple(alert_light() if c in bad else Light(b.rgb[c])
                      for pair in (team("yellow"), team("green")) for c in pair)
        hand = Count(state.cards_left[state.turn], HAND, Light(b.rgb[state.active]))
        return LedScene({"turn": (active, Light(dim(b.rgb[following]))), "status": teams, "counter": hand}, status="timer",
                        labels=LABELS)

GAME = door(PartnerRaceGame())
