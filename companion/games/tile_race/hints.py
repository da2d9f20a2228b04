"""What the tile race tells the framework's reading of a picture (:mod:`companion.games.reading`).

The framework searches the legal actions of the player to move, tests a picture part-way, answers a
move out of turn and asks the rules why not; the tile race says which actions are worth trying
(:func:`~companion.games.tile_race.table.candidates`), when two positions are one (its ``key``),
that a reading is at most one round of turns and stops at a pawn that can no longer be where the
picture shows it, that the camera cannot see a tile under a pawn or a mountain (its goal test), that
only one pawn's steps may be seen part-way (a pawn in a hand: the turn's tile is laid after the pawn
moved, never before), its own moves in parts (``steps.py``), the rule a picture breaks
(``reasons.py``), and all of it in the players' words. Pure.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from companion.games.reading import Budget, Hints, Picture, read
from companion.games.reading.hints import Readable
from companion.games.reconciliation import Choice, Reconciliation
from companion.games.tile_race import reasons, steps, words
from companion.games.tile_race.actions import Action, Move
from companion.games.tile_race.grid import OUT, colour_of
from companion.games.tile_race.state import TileRaceState
from companion.games.tile_race.table import (candidates, expected, form, is_mountain, key, kind_of, named,
                                             owner_of_kind,
                                             state_form, where_pawn)

Game = Readable[TileRaceState, Action]


class TileRaceHints(Hints[TileRaceState, Action]):
    """The tile race's hints for the reading of one picture (``picture``, as the rules count it)."""

    prune = False   # look-alike tiles renamed by place: the candidates place and step only as the picture shows

    def __init__(self, picture: Picture, budget: Budget, explain: bool = True) -> None:
        self.picture, self.budget, self.explain = picture, budget, explain
        self.seen_at = {p: c for c, ps in picture.items() for p in ps if kind_of(p) is None}
        self.target = form(picture)
        self.gave_up = False
        self.played: dict[tuple[Action, ...], tuple[TileRaceState, dict[str, tuple[str, ...]]]] = {}
        self.shown = dict(self.target)

    def candidates(self, game: Game, state: TileRaceState, picture: Picture) -> Iterable[Action]:
        return candidates(state, picture)

    def key(self, game: Game, state: TileRaceState) -> Hashable:
        return key(state)

    def goes_on(self, game: Game, start: TileRaceState, here: TileRaceState) -> bool:
        """A reading is at most one round of turns, and ends at a pawn that can no longer be where the
        picture shows it (:func:`settled_astray`) and once the race is over."""
        return not settled_astray(start, here, self.seen_at) and game.rules.outcome(here) is None

    def unchanged(self, game: Game, state: TileRaceState) -> Reconciliation | None:
        """Read like any other picture: what the camera sees of the table may be as it was after a play
        (a tile under a pawn that stepped onto it and back), and a picture no play explains is said so."""
        return None

    def seen(self, game: Game, state: TileRaceState) -> Picture:
        return expected(state)   # already named as the table's ``alike`` names a picture

    def fits(self, game: Game, start: TileRaceState, after: TileRaceState, expected: Picture,
             picture: Picture) -> bool:
        """What the camera can see: a tile under a pawn or a mountain does not count."""
        return state_form(after) == self.target

    def kind(self, piece: str) -> str:
        return kind_of(piece) or piece

    def joined(self, actions: Sequence[Action]) -> Sequence[Action]:
        return joined(actions)

    def reading(self, game: Game, state: TileRaceState, actions: Sequence[Action]) -> Choice:
        return Choice(tuple(str(a) for a in actions), words.reading(state, actions))

    def settle(self, game: Game, state: TileRaceState, picture: Picture,
               readings: Sequence[tuple[Sequence[Action], TileRaceState]], gave_up: bool) -> Reconciliation | None:
        """Readings that leave the table exactly as seen first (a tile under a pawn seen too); a pawn
        lifted off the tiles it carries (beside the readings, which may be the likelier); the tiles of a
        movement laid before the pawn, or the pawn before its tiles: the tile race's moves in parts."""
        self.gave_up = gave_up
        exact = [r for r in readings if expected(r[1]) == picture]
        choices = tuple(self.reading(game, state, joined(actions)) for actions, _ in (exact or readings)[:6])
        than = min((len(actions) for actions, _ in readings), default=self.budget.depth + 1)
        behind = steps.left_behind(state, picture, than, self.budget)
        if behind is not None:
            pawn, square, left = behind
            who, its = words.pawn(state, pawn), "it" if len(left) == 1 else "them"
            tiles = f"the tile it carries is on {left[0]}" if len(left) == 1 else \
                f"the tiles it carries are on {words.listed(left)}"
            return Reconciliation(choices, question=f"{who} is on {square} and the tile{'s' * (len(left) > 1)} on "
                                                    f"{words.listed(left)} beside it: did it go back and leave {its} "
                                                    "there?" if choices else None,
                                  step=f"{who} is on {square}, and {tiles}: put {its} under the pawn",
                                  to_move=(pawn,), rule="tiles-left-behind")
        if choices:
            return Reconciliation(choices)
        return steps.to_be_moved(state, picture, self.budget) or steps.tiles_to_follow(state, picture, self.budget)

    def in_parts(self, game: Game, state: TileRaceState, actions: Sequence[Action]) -> bool:
        """A play whose last part is the steps of one pawn, every action before them seen whole: a hand
        holds the pawn (and the tiles it carries) on its way. The turn's tile comes after the movement,
        so one laid before it is refused, not waited for."""
        last = actions[-1] if actions else None
        if not isinstance(last, Move):
            return False
        run = len(actions)
        while run and isinstance(actions[run - 1], Move) and getattr(actions[run - 1], "pawn") == last.pawn:
            run -= 1
        mid, drawn = self._after(game, state, tuple(actions[:run]))
        home, ways = where_pawn(mid, last.pawn), {c for a in actions[run:] for c in getattr(a, "path")}
        if self.seen_at.get(last.pawn) not in (None, home, last.path[-1]):
            return False
        return all(drawn.get(c) == self.shown.get(c) for c in drawn.keys() | self.shown.keys()
                   if c != home and c not in ways)

    def _after(self, game: Game, state: TileRaceState, actions: tuple[Action, ...]
               ) -> tuple[TileRaceState, dict[str, tuple[str, ...]]]:
        """The position after ``actions`` from the reading's start and what the camera sees of it, each
        prefix played once."""
        if actions not in self.played:
            after = game.rules.apply(self._after(game, state, actions[:-1])[0], actions[-1]) if actions else state
            self.played[actions] = after, dict(state_form(after))
        return self.played[actions]

    def step(self, game: Game, state: TileRaceState, actions: Sequence[Action], to_move: Sequence[str]) -> str:
        """A pawn of the player to move not seen: it is in a hand, on its way."""
        missing = [p for p in state.pawns if where_pawn(state, p) is not None and p not in self.seen_at]
        said = [words.pawn(state, p) for p in missing]  # as players call them, never an id
        if not said:
            return super().step(game, state, actions, [p for p in to_move if kind_of(p) is None])
        return (f"{' and '.join(said)} {'are' if len(said) > 1 else 'is'} in a hand: put "
                f"{'them' if len(said) > 1 else 'it'} down where {'they go' if len(said) > 1 else 'it goes'}")

    def out_of_turn(self, game: Game, state: TileRaceState, pieces: Sequence[str], owners: Sequence[str]) -> str:
        """"it is Ada's turn, not Bo's. Put Bo's blue pawn 1 back on G7"."""
        back = [f"{words.pawn(state, p)} back on {_home(state, p)}" if p in state.pawns
                else f"{_token(state, kind_of(p) or p)} back" for p in pieces]
        them = " and ".join(dict.fromkeys(state.name_of(o) for o in owners))
        return f"it is {state.name_of(state.active)}'s turn, not {them}'s. Put {words.listed(back)}"

    def broken(self, game: Game, state: TileRaceState, picture: Picture) -> Reconciliation | None:
        """The one change a rule forbids, named by its rule (``reasons.py``): the rest of the picture read
        as play first, by this reading without asking again."""
        if not self.explain or self.gave_up:
            return None
        return reasons.broken_rule(state, picture, expected(state), kind_of, where_pawn,
                                   lambda s, p: read(game, s, p, TileRaceHints(named(p), self.budget, False),
                                                         self.budget))

    def offenders(self, game: Game, state: TileRaceState, picture: Picture) -> Sequence[str]:
        """The pawns seen off their places: their players' lights blink red."""
        return sorted(p for p, c in self.seen_at.items() if p in state.pawns and c != where_pawn(state, p))

    def unread(self, game: Game, state: TileRaceState, picture: Picture, gave_up: bool) -> str:
        """What differs, an edge by the squares it lies between, a piece as players call it."""
        have = expected(state)
        changed = sorted({c for c in set(have) | set(picture) if form({c: have.get(c, ())}) != form({c: picture.get(c, ())})})
        where, who = differs(state, have, picture, changed), state.name_of(state.active)
        if gave_up:  # a movement along so many tiles that the search stopped: the players say what it was
            return (f"no play of {who} found in the {self.budget.positions} positions looked at leaves the table "
                    f"like this ({where}): if it was a legal turn, record it on the panel as a correction")
        return f"no play of {who} leaves the table like this ({where})"


def settled_astray(start: TileRaceState, here: TileRaceState, seen_at: Mapping[str, str]) -> bool:
    """A pawn that can no longer reach where the picture shows it: a reading is at most one round of
    turns (the camera reads the table move by move, never a round behind), so a player whose turn in
    the reading is over, or whose movement this turn is made, moves no pawn again in it. A position
    with such a pawn elsewhere than the picture shows it leads to no reading; cutting it off keeps a
    picture no play explains (a piece hidden, a wall moved) from searching every later player's turn."""
    seats = len(here.players)
    done = {here.players[(start.turn + i) % seats] for i in range((here.turn - start.turn) % seats)}
    if here.moved:
        done.add(here.active)
    return any(where_pawn(here, p) != seen_at.get(p) for p in here.pawns if colour_of(p) in done)


def joined(path: Sequence[Action]) -> list[Action]:
    """Steps of one pawn one after the other written as one path (``move red-1 C3>C4``)."""
    out: list[Action] = []
    for action in path:
        last = out[-1] if out else None
        if isinstance(action, Move) and isinstance(last, Move) and last.pawn == action.pawn and OUT not in last.path:
            out[-1] = Move(action.pawn, last.path + action.path)
        else:
            out.append(action)
    return out


def _home(state: TileRaceState, pawn: str) -> str:
    """Where a pawn goes back to, as the players say it."""
    back = where_pawn(state, pawn)
    return "its start space" if back is None or back.startswith("start-") else back


def _token(state: TileRaceState, kind: str) -> str:
    """A piece of the table as players call it: a pawn by its colour and number, else by its kind."""
    if kind in state.pawns:
        return words.pawn(state, kind)
    if is_mountain(kind):
        return f"{state.name_of(owner_of_kind(kind))}'s mountain"
    return {"tile": "a tile", "wall": "a wall stand"}.get(kind, kind)


def differs(state: TileRaceState, have: Picture, picture: Picture, changed: Sequence[str]) -> str:
    """What differs in words, an edge by the two squares it lies between, never its id ("the camera sees
    a wall stand between F6 and G6 that the game does not have; it does not see a tile on G6")."""
    extra: list[str] = []
    short: list[str] = []
    for cell in changed:
        place = words.place(cell)
        want = [k for _, ks in form({cell: have.get(cell, ())}) for k in ks]
        seen = [k for _, ks in form({cell: picture.get(cell, ())}) for k in ks]
        extra += [f"{_token(state, k)} {place}" for k in dict.fromkeys(seen) if seen.count(k) > want.count(k)]
        short += [f"{_token(state, k)} {place}" for k in dict.fromkeys(want) if want.count(k) > seen.count(k)]
    said = ([f"the camera sees {words.listed(extra[:4])} that the game does not have"] if extra else []) + \
        ([f"it does not see {' or '.join(short[:4])}"] if short else [])
    return "; ".join(said) or "nothing the rules count"
