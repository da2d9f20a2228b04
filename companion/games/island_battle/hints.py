"""The island battle read by the framework (:mod:`companion.games.reading`): what the island tells it.

One picture, one search over the legal actions of the player to move (the framework's): the
actions tried are those of the pieces the picture shows moved (a block or a character set down
only where the picture has it, the die only with the face it shows up, once), and a reading ends
where the island looks so (:meth:`IslandHints.shows`): every piece where the state has it, a
character facing the way the picture says (where it says none, each way is a reading and the
players are asked), a piece the rules took still standing where it stood or was set down (the
players lift it off). So hands quicker than the camera (a shot and the shooter's move, the second
player's block in the setup) are read as the actions they made, in the order the rules allow.

A move is made in parts too: a character lifted off its square or its pad is in a hand, and one
set down on a square its move passes on its way (facing as it started: it turns only with the last
pip) is still going; the framework's part-way test finds such a picture between the island as it
was and as a legal move leaves it, and it is a calm step, said here in the players' words.

Pure: standard library only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from collections.abc import Hashable, Iterable, Mapping, Sequence

from companion.games.base import Choice, faced, unfaced
from companion.games.island_battle import rules, table, words
from companion.games.island_battle.actions import Action, Block, Deploy, Enter, Move, Roll, Slide
from companion.games.island_battle.board import DIE, rail_cell
from companion.games.island_battle.grid import ALL_CHARACTERS, LETTERS, PLAYERS, coords, line, owner
from companion.games.island_battle.state import IslandState
from companion.games.reading import Hints, Picture
from companion.games.reconciliation import Reconciliation
from companion.games.reading.hints import Readable

SETUP = ("blocks", "deploy")


NOTHING = Reconciliation((Choice((), "nothing moved"),))  # a picture in which no piece the hands move moved


class IslandHints(Hints[IslandState, Action]):
    """What the reading of one picture (``seen``, taken in ``start``) needs to know of the island."""

    prune = False  # a character's entry names its facing: the pieces moved choose the actions instead

    def __init__(self, start: IslandState, seen: Mapping[str, Sequence[str]]) -> None:
        self.start, self.shown = start, seen
        self.moved = table.moved(start, seen)
        self.at, self.ways, self.face = table.where_seen(seen), table.ways_seen(seen), table.die_seen(start, seen)
        self.names = {p: start.name_of(p) for p in PLAYERS}

    def candidates(self, game: Readable[IslandState, Action], state: IslandState,
                   picture: Picture) -> Iterable[Action]:
        """The legal actions that move a piece the picture shows moved; a roll only with the face up in
        the tray, and only the first (a 0 rolled before it is a throw no picture showed)."""
        for action in rules.legal_actions(state):
            if isinstance(action, Roll) and (str(action.face) != self.face or table.die_up(state) == self.face):
                continue
            if table.touches(action, state, self.moved) and table.may_put(action, self.at, self.ways):
                yield action

    def key(self, game: Readable[IslandState, Action], state: IslandState) -> Hashable:
        """A position by the actions that led to it: the rules are a function of the log (the deal and
        the seed are the start's), and the saved form holds the log, so this tells positions apart as
        the saved form does, without writing it out for every action tried."""
        return state.history

    def goes_on(self, game: Readable[IslandState, Action], start: IslandState, here: IslandState) -> bool:
        """Play goes on while the player to move is; in the setup two pieces set down in one picture are
        both players' placings (the second hand quicker than the camera)."""
        if start.stage in SETUP and here.stage in SETUP:
            return len(self.moved) == 2 and len(here.history) - len(start.history) < 2
        return super().goes_on(game, start, here)

    def fits(self, game: Readable[IslandState, Action], start: IslandState, here: IslandState, seen: Picture,
              picture: Picture) -> bool:
        """The picture is ``here`` on the table (``table.matches``) with the die's face up its last roll's."""
        return table.matches(here, self.at, start, self.ways) and (self.face is None or self.face == table.die_up(here))

    def reading(self, game: Readable[IslandState, Action], state: IslandState, actions: Sequence[Action]) -> Choice:
        """A reading as the log says it, one action after another."""
        return Choice(tuple(str(a) for a in actions), ", then ".join(table.said(a) for a in actions))

    @property
    def carrying(self) -> tuple[str, ...]:
        """The pieces a move part-way has moved so far (the die aside: a throw is no piece carried)."""
        return tuple(sorted(self.moved - {DIE}))

    @staticmethod
    def carried(actions: Sequence[Action]) -> bool:
        """Whether a play carries a piece to another place (a move, a step off the pad, a slide, a
        placing), so a picture may catch it in a hand or on its way. A turn on the spot is made where
        the character stands (the hand over it, the camera waits): one not seen there is not being turned."""
        return any(isinstance(a, (Move, Enter, Slide, Block, Deploy)) for a in actions)

    def path(self, game: Readable[IslandState, Action], start: IslandState,
             actions: Sequence[Action]) -> dict[str, Counter[str]]:
        """Where a piece rests on its way: a character on each square its move passes and on the square
        it ends on, facing as it started (it turns only with its last pip); a pad's handle against each
        column between where it lay and where it slides to."""
        out: dict[str, Counter[str]] = {}
        here = start
        for action in actions:
            if isinstance(action, Move):
                way = here.facing[action.character]
                (c0, r0), (c1, r1) = coords(action.origin), coords(action.to)
                for square in line(action.origin, way, abs(c1 - c0) + abs(r1 - r0)):
                    out.setdefault(square, Counter())[faced(action.character, way)] += 1
            elif isinstance(action, Slide):
                seat = PLAYERS.index(action.player)
                a, b = sorted((here.pads[seat], LETTERS.index(action.column) + 1))
                for column in LETTERS[a:b - 1]:
                    out.setdefault(rail_cell(action.player, column), Counter())[f"pad-{action.player}"] += 1
            here = rules.apply(here, action)
        return out

    def unchanged(self, game: Readable[IslandState, Action], state: IslandState) -> Reconciliation | None:
        """A picture of the table as it is: nothing moved, read as such (no piece the hands moved)."""
        return NOTHING if not self.moved else None

    def settle(self, game: Readable[IslandState, Action], state: IslandState, picture: Picture,
               readings: Sequence[tuple[Sequence[Action], IslandState]], gave_up: bool) -> Reconciliation | None:
        """No piece the hands moved (a block put back in another slot of its box): nothing moved."""
        return NOTHING if not self.moved else None

    def in_parts(self, game: Readable[IslandState, Action], state: IslandState, actions: Sequence[Action]) -> bool:
        """Only a play that carries a piece may be seen part-way (:meth:`carried`)."""
        return self.carried(actions)

    def held(self, game: Readable[IslandState, Action], state: IslandState, step: Reconciliation) -> Reconciliation:
        """A move part-way is said by the pieces the hands moved, as the picture shows them, not as the move
        ends: neither tells whether a block is live."""
        return replace(step, to_move=self.carrying, tokens=max(1, len(self.carrying)))

    def broken(self, game: Readable[IslandState, Action], state: IslandState, picture: Picture) -> Reconciliation:
        """No play explains the picture: the rule each moved piece breaks where it was put, not only its name."""
        return words.refusal(state, self.shown, table.refused(state, self.shown, self.moved))

    def owner(self, game: Readable[IslandState, Action], state: IslandState, piece: str) -> str | None:
        """A character's player, a pad's; a block and the die are anyone's (both players place blocks). In
        the setup both players place at once: no piece is out of turn (the setup's own words say the rule)."""
        if state.stage in SETUP:
            return None
        name = unfaced(piece)[0]
        return owner(name) if name in ALL_CHARACTERS else name.partition("-")[2] if name in table.PADS else None

    def out_of_turn(self, game: Readable[IslandState, Action], state: IslandState, pieces: Sequence[str],
                    owners: Sequence[str]) -> str:
        """The other player's pieces moved: whose turn it is, and where each goes back."""
        def where(piece: str) -> str:
            cell = table.place_of(state, piece)
            return (f"against column {str(cell).rpartition('-')[2]}" if piece in table.PADS
                    else table.place_said(cell))

        back = " and ".join(f"{table.piece_name(p, self.names)} back {where(p)}"
                            for p in dict.fromkeys(unfaced(p)[0] for p in pieces))
        them = " and ".join(state.name_of(o) for o in dict.fromkeys(owners))
        return f"it is {state.name_of(state.actor)}'s turn, not {them}'s: put {back}"

    def step(self, game: Readable[IslandState, Action], state: IslandState, actions: Sequence[Action],
             to_move: Sequence[str]) -> str:
        """What is left of a move part-way: each piece the hands have moved (:attr:`carrying`) still in a
        hand set down, each on its way moved on. Said of what the picture shows, never of where the move
        found leaves them: a character walking onto a live block is gone there, onto a safe one it stands,
        and the words must not tell the two apart."""
        said = []
        for piece in self.carrying:
            name = table.piece_name(piece, self.names)
            cell = self.at.get(piece)
            if cell is None:
                said.append(f"{name} is in a hand: set it down where its move ends")
            elif piece in table.PADS:
                said.append(f"{name} rests against column {cell.rpartition('-')[2]} on its way: slide it on")
            else:
                said.append(f"{name} rests {table.place_said(cell)} on its way: finish its move")
        return "; ".join(said) or "finish the move"
