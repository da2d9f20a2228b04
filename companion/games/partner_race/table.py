"""The partner card race on the table: the board, what the camera should see, and what it sees.

What the camera sees is the pawns on their spaces and the card laid last on the card spot (each
kind of card carries one marker). What a picture means is the framework's reading, told the race's
plays and words by ``reading.py``; a pawn under another of its colour is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import BoardFileError, IllegalMoveError
from companion.games.geometry import BoardFit, Layout, Placement
from companion.games.parts import Table
from companion.games.reading import Budget
from companion.games.partner_race import board as boards
from companion.games.partner_race.cards import CARDS
from companion.games.partner_race.reading import RaceHints, covers, pawns, pawns_seen, place_of, position_of
from companion.games.partner_race.rules import Action, Correct, RaceState
from companion.games.partner_race.track import colour_of, track
from companion.games.partner_race.words import pawn_name, place_names


class RaceTable(Table[RaceState, Action]):
    """The track, the card spot, and the pawns and the card the camera reads on them."""

    def hints(self, state: RaceState, seen: Placement, budget: Budget) -> RaceHints:
        """What a picture means is read by the framework (a fresh reader for each picture)."""
        return RaceHints()

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
            raise IllegalMoveError(f"{pawn_name(state, stray[0])} cannot stand on {place_names().get(stray[1], stray[1])}: a "
                                   f"{colour_of(stray[0])} pawn never does")
        found.update({p: position_of(p, c) or "home" for p, c in self.hidden(state, seen).items()})
        missing = sorted(p for p in state.where if p not in found)
        if missing:
            raise IllegalMoveError(f"{pawns(state, missing)} not on the board: every pawn is somewhere")
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
