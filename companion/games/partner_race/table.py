"""The partner card race on the table: the board, what the camera should see, and what it sees.

What the camera sees is the pawns on their spaces and the card laid last on the card spot (each
kind of card carries one marker). A picture with a new card, or pawns moved, is read as the plays
of that card that lead to it (``reading.py``); a pawn under another of its colour is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.errors import BoardFileError, IllegalMoveError
from companion.games.geometry import BoardFit, Layout
from companion.games.parts import Table
from companion.games.reading import Budget
from companion.games.reconciliation import Choice, Reconciliation
from companion.games.partner_race import board as boards
from companion.games.partner_race import rules
from companion.games.partner_race import steps as parts
from companion.games.partner_race.cards import CARDS, DECK, called
from companion.games.partner_race.reading import Picture, place_of
from companion.games.partner_race.rules import Action, Correct, RaceState
from companion.games.partner_race.track import COLOURS, colour_of, track
from companion.games.partner_race.words import card_name, card_thing, name_of, pawn_name, place_names, play_words


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


def pawns_seen(seen: Mapping[str, Sequence[str]]) -> tuple[dict[str, str], tuple[str, str] | None]:
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


def covers(seen: Mapping[str, Sequence[str]]) -> dict[str, set[str]]:
    """Track spaces (and starting spaces) by the colours seen on them: where a pawn of that colour can
    be hidden beneath (two pawns brought out stand on each other on their starting space)."""
    out: dict[str, set[str]] = {c: set() for c in COLOURS}
    for cell, pieces in seen.items():
        if cell.startswith(("T", "start-")):
            for piece in pieces:
                if not piece.startswith("card-"):
                    out[colour_of(piece)].add(cell)
    return out


class RaceTable(Table[RaceState, Action]):
    """The track, the card spot, and the pawns and the card the camera reads on them."""

    def layout(self, state: RaceState | None = None, board: str | None = None) -> Layout:
        return boards.layout(boards.load(state.board if state is not None else board or "standard"))

    def expected(self, state: RaceState) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for pawn, pos in state.where.items():
            out.setdefault(place_of(pawn, pos), []).append(pawn)
        if state.last_card:
            out[boards.CARD_SPOT] = [f"card-{state.last_card}"]
        return {c: tuple(sorted(ps)) for c, ps in out.items()}

    def correction(self, state: RaceState, seen: Mapping[str, Sequence[str]]) -> Correct:
        """The pawns (and the card on the spot) as seen, recorded as the players' correction. Every
        pawn must be on a place of its colour: a correction never loses a pawn."""
        cards = [p.removeprefix("card-") for p in seen.get(boards.CARD_SPOT, ()) if p.startswith("card-")]
        found, stray = pawns_seen(seen)
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

    def hidden(self, state: RaceState, seen: Mapping[str, Sequence[str]]) -> dict[str, str]:
        """A pawn not seen, on a track space where the game has it together with a pawn of its colour
        that is seen there: the two stand on one space (a stack) and the one below is covered."""
        visible = {p for ps in seen.values() for p in ps}
        under = covers(seen)
        out = {}
        for pawn, pos in state.where.items():
            cell = place_of(pawn, pos)
            if pawn not in visible and (track(pos) is not None or pos == "start") and \
                    cell in under.get(colour_of(pawn), set()):
                out[pawn] = cell
        return out

    def describe_board(self, board: str | None = None) -> str:
        b = boards.load(board or "standard")
        return (f"board {b.name} ({b.source}), {b.size_mm[0]:.0f} x {b.size_mm[1]:.0f} mm, markers {b.marker_dictionary}: "
                f"a track of 64 spaces (radius {b.track_radius_mm:g} mm), a starting space, 4 goal circles and "
                f"4 home circles per colour, the card spot in the middle")

    def fitted_board(self, fit: BoardFit, board: str | None = None, name: str | None = None,
                     edits: Sequence[Mapping[str, Any]] = ()) -> str:
        raise BoardFileError("the partner race board is drawn from its measurements: edit track_radius_mm and "
                             "the other numbers of its board file instead of fitting it")

    def reconcile(self, state: RaceState, seen: Mapping[str, Sequence[str]], budget: Budget | None = None
                  ) -> Reconciliation:
        """The plays of the card on the card spot that lead to the pawns as seen."""
        if rules.winners(state):
            return Reconciliation.illegal("the game is over", rule="over")
        cards = [p for p in seen.get(boards.CARD_SPOT, ()) if p.startswith("card-")]
        where, stray = pawns_seen(seen)
        if stray is not None:
            return Reconciliation.illegal(f"{pawn_name(state, stray[0])} is on {_place(stray[1])}, where a "
                                          f"{colour_of(stray[0])} pawn never stands", (stray[0],), "place")
        missing = sorted(p for p in state.where if p not in where)
        under = covers(seen)
        if any(not under.get(colour_of(p)) for p in missing):
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
        picture = Picture(where, under)
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
