"""The tile race behind the door (:class:`~companion.games.base.Game`), in its parts: the rules, the table
(read by the framework with the tile race's hints), the panel and the LEDs.

The camera sees pawns on their squares or start spaces, flat tiles on squares, wall stands on the
edges between squares and mountains; tiles, walls and mountains look alike, so pictures are
compared by kind and count (``table.py``). A turn is played and read as the rules' own actions:
steps of one pawn, and the turn's one action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import OptionsError, SetupError
from companion.games.base import (ALERT, Choice, Game, Layout, LedScene, Light, Reconciliation,  # noqa: F401  (ALERT:
                                  TableStatus, alert_light, dim, turn_light, winners_scene)  # the strip's red, said here too)
from companion.games.declaration import Counter, GameType, Phase
from companion.games.geometry import Placement
from companion.games.parts import Lights, Panel, Rules, Table
from companion.games.reading import Budget
from companion.games.tile_race import board as boards
from companion.games.tile_race import rules, table, words
from companion.games.tile_race import state as saved
from companion.games.tile_race.actions import Action, Mountain, Move, Pass, Remove, Tile, Undo, Wall
from companion.games.tile_race.grid import COLOURS, OUT, START, pawns_of
from companion.games.tile_race.hints import TileRaceHints
from companion.games.tile_race.state import MAX_NAME, TileRaceState, mountain_allowance

TILE = (200, 150, 80)   # the tiles' own wood colour
TILES_PER_LED = 5       # the supply's 40 tiles over 8 LEDs
LABELS = {"turn": "whose turn, who is next", "status": "each player's mountains in hand (dim: placed)",
          "counter": "tiles in the supply, an LED for every 5", "timer": ""}


class Score:
    """The standing: each player's pawns out of the grid, on it or waiting, and their mountains left."""

    def __init__(self, state: TileRaceState) -> None:
        self.state = state

    def to_dict(self) -> dict[str, Any]:
        s = self.state
        won = rules.winner(s)
        return {"winners": [won] if won else [], "supply": s.supply, "lost": s.lost,
                "players": {c: {"out": sum(bool(s.exited(p)) for p in pawns_of(c)),
                                "pawns": {p: s.pawns[p] for p in pawns_of(c)},
                                "mountains_left": s.mountains_left[k]} for k, c in enumerate(s.players)}}

    def lines(self) -> list[str]:
        d = self.to_dict()
        ended = rules.outcome(self.state)
        who = {c: f"{self.state.name_of(c)} ({c})" if self.state.name_of(c) != c else c for c in d["players"]}
        # players by name, their pawns by number: what the table calls them, never a pawn's id
        out = [f"{who[d['winners'][0]]} has won" if d["winners"] else
               ended.reason if ended is not None else "Nobody has won yet."]
        for colour, info in d["players"].items():
            places = ", ".join(f"pawn {p.rpartition('-')[2]} {_place(w)}" for p, w in info["pawns"].items())
            out.append(f"  {who[colour]}: {info['out']} of 2 pawns out ({places}); {info['mountains_left']} mountains left")
        out.append(f"  tiles in the supply: {d['supply']}; lost off the grid: {d['lost']}")
        return out


def _place(where: str) -> str:
    if where == START:
        return "waiting beside the grid"
    if where.startswith(OUT):
        return f"out from {where[len(OUT) + 1:]}"
    return f"on {where}"


def _names(state: TileRaceState) -> dict[str, str]:
    """Every piece as players call it: a pawn by its player, the look-alike pieces by their kind, a
    mountain by its owner ("Ada's mountain": whose it is shows by its colour at the table)."""
    out = {p: f"{state.name_of(c)}'s {c} pawn {p[-1]}" if state.name_of(c) != c else f"{c} pawn {p[-1]}"
           for c in state.players for p in pawns_of(c)}
    for piece in boards.layout(boards.load()).pieces:
        kind = table.kind_of(piece)
        if table.is_mountain(kind):
            owner = table.owner_of_kind(kind or "")
            out[piece] = f"{_owner(state, owner)} mountain" if owner in state.players else f"a {owner} mountain"
        elif kind is not None:
            out[piece] = f"a {kind}"
    return out


SIDE_WORDS, SUPPLY_WORDS = words.SIDE_WORDS, words.SUPPLY_WORDS


def _places(state: TileRaceState) -> dict[str, str]:
    """Places not called as printed, each as a noun the generic sentences can follow a preposition
    with ("put it on the edge between E6 and E7", "on the start space below G1"): an edge by the squares
    it lies between, a start space by its corner and side, the supplies by what they hold."""
    out: dict[str, str] = {}
    for cell in boards.layout(boards.load()).cells.values():
        if cell.kind == "edge":
            a, _, b = cell.id.partition("|")
            out[cell.id] = f"the edge between {a} and {b}"
        elif cell.kind == "start":
            _, corner, side = cell.id.split("-")
            out[cell.id] = f"the start space {SIDE_WORDS[side]} {corner}"
        elif cell.kind == "supply":
            out[cell.id] = SUPPLY_WORDS.get(cell.id, f"the {cell.label}")
    return out


def _supplies(state: TileRaceState) -> dict[str, str]:
    """What each supply beside the board holds, as the rules count it, in words that add up with the
    pieces a player sees off the board. A wall is a tile of the supply stood in a stand: at the table
    the stand holds a tile from the pile, so the rules' supply is the loose tiles less the walls
    standing (and less the tiles lost off the grid, out of the game). Saying both keeps "37 tiles"
    from reading as a miscount beside 38 loose tiles. Mountains are each player's own: by player's
    name alone, under the supply's own name ("mountains not placed"). Short words: written in the
    supply's narrow place beside the grid, they stay whole on a phone, four players' too."""
    tiles = f"{_count(state.supply, 'tile')} left"
    extra = [f"{len(state.walls)} more standing as {'walls' if len(state.walls) != 1 else 'a wall'}"
             if state.walls else "", f"{state.lost} lost" if state.lost else ""]
    return {boards.TILE_SUPPLY: "; ".join([tiles, *filter(None, extra)]),
            boards.MOUNTAIN_SUPPLY: ", ".join(f"{state.name_of(c)} {n}" for c, n in
                                              zip(state.players, state.mountains_left, strict=True))}


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' * (n != 1 and what != 'more')}"


def _owner(state: TileRaceState, colour: str) -> str:
    """A player's possessive as the table says it: "Ada's", or "red's" with no names."""
    return f"{state.name_of(colour)}'s"


DECLARATION = GameType("tile-race", "Tile race", (2, 3, 4), chance="none", information="none",
                       counters=(Counter("supply.tiles", "Tiles in the supply"),
                                 Counter("supply.mountains", "Mountains left")),
                       phases=(Phase("playing", "Playing"),), turn_actions=("pass", "undo"),
                       turn_ends="A turn ends when the pawn has moved and the one action is made.")
"""No luck (the seed picks nothing: the grid starts empty) and nothing hidden (the tiles under a pawn are
counted by the rules, not kept from anyone); one player at a time. It counts the tiles left in the common
supply and each player's mountains in hand; a turn ends by itself once the movement and the one action
are made, so there is no End-turn button."""


class TileRaceRules(Rules[TileRaceState, Action]):
    """The rulebook (``rules.py``, ``state.py``): setup, the saved form, actions, whose turn, who won."""

    to_dict = staticmethod(saved.to_json)
    from_dict = staticmethod(saved.from_json)
    parse_action = staticmethod(rules.parse_action)
    legal_actions = staticmethod(rules.legal_actions)
    outcome = staticmethod(rules.outcome)
    text = staticmethod(rules.text)
    score = staticmethod(Score)

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        return [{"name": "players", "label": "Players", "kind": "count", "choices": list(self.game.declaration.players)},
                {"name": "seats", "label": "Names and colours", "kind": "seats", "colours": list(COLOURS),
                 "colours_per_player": {"default": 1}, "max_name": MAX_NAME,
                 "help": "Red plays first, then clockwise: blue, yellow, green (two players: red and blue, "
                         "three: red, blue and yellow)."},
                {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1}]

    def new_game(self, players: int = 2, seed: int = 0, board: str = "standard", options: str = "",
                 seats: Sequence[Mapping[str, Any]] | None = None, **_: Any) -> TileRaceState:
        unknown = [t.strip() for t in str(options or "").split(",") if t.strip()]
        if unknown:  # an option the game does not have is refused, never silently dropped
            raise OptionsError(f"unknown option {unknown[0]!r}: the tile race has no options")
        if players not in self.game.declaration.players:
            raise SetupError(f"the tile race is for 2 to 4 players, not {players}")
        playing = COLOURS[:players]
        names: dict[str, str] = {}
        for i, seat in enumerate(seats or ()):
            colour = (seat.get("colours") or [playing[i % players]])[0]
            if colour not in playing:
                raise SetupError(f"player {i + 1}: with {players} players the colours are {', '.join(playing)}, "
                                 f"not {colour}")
            names[colour] = str(seat.get("name") or colour).strip()
        grid = boards.load(board).grid
        given = tuple(names.get(c, c) for c in playing) if names else ()
        return rules.new_game(players, seed, grid, given)

    def apply(self, state: TileRaceState, action: Action | str) -> TileRaceState:
        return rules.apply(state, rules.parse_action(action) if isinstance(action, str) else action)

    def active(self, state: TileRaceState) -> tuple[str, ...]:
        """The player to move; nobody once the race is won or blocked."""
        return () if rules.outcome(state) is not None else (state.active,)

    def complete_action(self, state: TileRaceState, text: str) -> str:
        """``tile C4``, ``wall C4|C5``, ``pass`` ... typed at a terminal are the active player's."""
        words = text.split()
        if words and words[0] in ("tile", "wall", "remove", "mountain", "undo", "pass") and \
                (len(words) < 2 or words[1] not in COLOURS):
            return " ".join([words[0], state.active, *words[1:]])
        return text.strip()


class TileRaceTable(Table[TileRaceState, Action]):
    """The grid on the table (``table.py``): what the camera should see, tiles alike, covered tiles."""

    expected = staticmethod(table.expected)
    correction = staticmethod(table.correction)
    hidden = staticmethod(table.hidden)

    def layout(self, state: TileRaceState | None = None, board: str | None = None) -> Layout:
        return boards.layout(boards.load(board or "standard"))

    def alike(self, state: TileRaceState, seen: Placement) -> dict[str, tuple[str, ...]]:
        return table.named(seen)

    def in_box(self, state: TileRaceState) -> Sequence[str] | None:
        """Any piece of the box, named one by one: the simulated table's page lists what this returns, and
        takes None (the door's "any piece") for a list it cannot read."""
        return list(self.layout(state).pieces)

    def hints(self, state: TileRaceState, seen: Placement, budget: Budget) -> TileRaceHints:
        """The tile race's hints for this picture (``hints.py``): the framework reads it with them."""
        return TileRaceHints(table.named(seen), budget)


class TileRacePanel(Panel[TileRaceState, Action]):
    """The pages: the view, the Board page's dots, a tile laid by tapping, in the players' words."""

    def targets(self, state: TileRaceState, piece: str) -> dict[str, tuple[Any, ...]]:
        """The Board page's dots: where a pawn can step now (one square, or off the grid from its exit
        corner: the start spaces beside that corner); for the tile supply tapped,
        where a tile can be laid and a wall stood; for the mountains not placed, where the player to
        move can put one; for a wall standing, its own place (take it away). Said as the log says it."""
        placed = {p: c for c, ps in table.expected(state).items() for p in ps}
        out: dict[str, tuple[Choice, ...]] = {}
        for action in rules.legal_actions(state):
            if isinstance(action, Move) and action.pawn == piece and action.path[-1] == OUT:
                # off the grid is no place on the board: its dots are the start spaces beside the corner
                # the pawn leaves from (the hand then takes it off the table)
                corner = placed.get(piece, "")
                said = f"{words.pawn(state, piece)} steps off the grid from {corner}"
                for cell in (c for c in self.game.table.layout(state).cells if c.startswith(f"start-{corner}-")):
                    out[cell] = (Choice((str(action),), said[:1].upper() + said[1:]),)
                continue
            if isinstance(action, Move) and action.pawn == piece:
                cell, said = action.path[-1], f"{words.pawn(state, piece)} steps onto {action.path[-1]}"
            elif isinstance(action, (Tile, Wall)) and piece == boards.TILE_SUPPLY or \
                    isinstance(action, Mountain) and piece == boards.MOUNTAIN_SUPPLY or \
                    isinstance(action, Remove) and placed.get(piece) == action.edge:
                cell, said = getattr(action, "square", None) or getattr(action, "edge"), words.told(state, action)
            else:
                continue
            out[cell] = (Choice((str(action),), said[:1].upper() + said[1:]),)
        return out

    def laid_at(self, state: TileRaceState, cell: str) -> tuple[Any, ...]:
        """A tile or a mountain laid on an empty square tapped, said as the log says it."""
        ways = super().laid_at(state, cell)
        said = [words.told(state, rules.parse_action(way.actions[0])) for way in ways]
        return tuple(Choice(way.actions, text[:1].upper() + text[1:]) for way, text in zip(ways, said, strict=True))

    def view(self, state: TileRaceState, seat: str | None = None) -> dict[str, Any]:
        ended = rules.outcome(state)
        phase = "finished" if ended is not None else "playing"
        mv = state.moving
        return {"phase": phase, "active": state.active, "next": state.players[(state.turn + 1) % len(state.players)],
                "players": [{"name": state.name_of(c), "colours": [c]} for c in state.players], "turn_order": list(state.players),
                "placement": {c: list(ps) for c, ps in table.expected(state).items()},
                "owners": {**{p: p.rpartition("-")[0] for p in state.pawns},  # a mountain's too, by its colour
                           **{p: table.owner_of_kind(k) for ps in table.expected(state).values() for p in ps
                              if table.is_mountain(k := table.kind_of(p))}},
                "mountains": dict(sorted(state.mountain_owners.items())),
                "stacks": ({state.pawns[mv.pawn]: mv.carried} if mv is not None and mv.carried else {}),
                "supply": {"tiles": state.supply, "lost": state.lost,
                           "mountains": dict(zip(state.players, state.mountains_left, strict=True))},
                "supplies": _supplies(state),
                # what the hands may still lay, by look-alike kind: a player's mountains in hand (a third
                # red or blue mountain is in the box for a two-player game only)
                "in_hand": {f"mountain-{c}": n for c, n in zip(state.players, state.mountains_left, strict=True)},
                "walls": sorted(state.walls), "has_moved": state.moved, "acted": state.acted,
                "names": _names(state), "places": _places(state),
                "history": list(state.history), "standing": Score(state).lines(),
                "log": words.log(state),
                "outcome": {"winners": list(ended.winners), "reason": ended.reason} if ended else None,
                "end_turn": False, "turn_actions": [
                    {"action": str(a), "label": (lambda t: t[:1].upper() + t[1:])(words.told(state, a))}
                    for a in rules.legal_actions(state) if isinstance(a, (Pass, Undo))]}



class TileRaceLights(Lights[TileRaceState, Action]):
    """The LEDs: whose turn and who is next, the mountains in hand, the tiles in the supply."""

    def led_scene(self, state: TileRaceState, status: TableStatus = TableStatus()) -> LedScene:
        """``turn``: the player to move (a waiting question blinks) and, dim, who is next; ``status``:
        each player's mountains in their colour, in seat order, bright for each one still in hand and
        dim for each placed (a player with a pawn breaking a rule blinks red over theirs); ``counter``:
        the tiles left in the common supply, an LED for every 5 or part of 5 (walls come from that
        supply too: nobody has walls of their own to count); the winner over the whole strip."""
        rgb = boards.load().rgb
        won = rules.winner(state)
        if won:
            return winners_scene([rgb[won]])
        active = turn_light(rgb[state.active], status.waiting)
        nxt = rgb[state.players[(state.turn + 1) % len(state.players)]]
        bad = {p.rpartition("-")[0] for p in status.offenders if p in state.pawns}
        allowance = mountain_allowance(len(state.players))
        hills: list[Light] = []
        for colour, left in zip(state.players, state.mountains_left, strict=True):
            hills.extend(alert_light() if colour in bad else Light(rgb[colour]) if i < left else
                         Light(dim(rgb[colour])) for i in range(allowance))
        tiles = tuple(Light(TILE) for _ in range(-(-state.supply // TILES_PER_LED)))
        return LedScene({"turn": (active, Light(dim(nxt))), "status": tuple(hills), "counter": tiles},
                        labels={**LABELS, "counter": f"{LABELS['counter']}: {state.supply}"})


GAME: Game[TileRaceState, Action] = Game(DECLARATION, TileRaceRules(), TileRaceTable(), TileRacePanel(),
                                         lights=TileRaceLights(), called="a tile race")
