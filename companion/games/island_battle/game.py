"""The island battle behind the door (:class:`~companion.games.base.Game`).

Two players, ten characters each that face a way, a die with faces 0-5, and ten blocks of which
six are live: which ones, only the companion knows (dealt from the seed, kept in the saved state,
never in what a page, an event or the log shows until a block is set off). A roll is an action in
the log: the companion rolls by itself (:meth:`IslandRules.forced_action`, drawn from the seed
and the place in the log, so a replay rolls the same) unless the players chose a die at the table:
then the camera reads the face up of the die thrown into the tray (a marker on each face), and the
pads' own markers show where each pad lies, so a slide is read too.
The camera reads where each character and block stands and the way a character on the island
faces (its marker's rotation, ``Layout.facings``), so a move is read with its facing and a turn on the
spot is a turn (``table.py``), by the framework's reading with the island's hints (``hints.py``): a
move made in parts (a character in a hand, resting on its way) is a calm step.
"""

from __future__ import annotations

import random
from dataclasses import replace
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import OptionsError, SetupError, StateFormatError
from companion.games.base import (Count, Game, Layout, LedScene, Light, Lights, Panel, Placement,
                                  Rules, Seats, Table, TableStatus, alert_light, dim, turn_light, winners_scene)
from companion.games.declaration import Counter, GameType, Phase
from companion.games.reading import Budget
from companion.games.island_battle import board as boards
from companion.games.island_battle import fire, rules, table, words
from companion.games.island_battle.hints import IslandHints
from companion.games.island_battle.actions import (PAD, Action, ChoosePad, Correct, Deploy, End, Move, Remove, Roll,
                                                   Shoot, Slide, Spare, Turn)
from companion.games.island_battle.grid import ALL_CHARACTERS, BLOCKS, LETTERS, PLAYERS, characters, \
    opponent, owner, reach
from companion.games.island_battle.state import BOX, DICE, GONE, MAX_NAME, IslandState

BLAST = (255, 110, 0)
DIE = (240, 240, 240)
LABELS = {"turn": "whose turn, who is next", "status": "red's and blue's characters, two to an LED (bright: both "
          "on the island, half: one, dim: on the pad or to place, dark: lost, flashing orange: blown off just now)",
          "counter": "the roll waiting to be used, a lit LED per pip (all five dim: a 0)", "timer": ""}
TURN_OVER = (End, Slide, Remove, Spare, Deploy)  # the last of these in the log closed the turn before this one
PHASES = {"blocks": "blocks", "deploy": "deploy"}


OPTIONS_HELP = ("start=blue (blue plays first and places the first block), die=table (a die thrown into the tray "
                "beside the island: the camera reads the face up)")
OPTION_SWITCHES: list[dict[str, Any]] = [
    {"token": "start", "label": "Blue plays first", "kind": "flag", "value": "blue",
     "help": "Agreed or rolled for at the table: the first player also places the first block."},
    {"token": "die", "label": "Throw a die at the table", "kind": "flag", "value": "table",
     "help": "The players throw the die with a marker on each face into the tray left of the island and the "
             "camera reads the face up as the roll (keep it out of the tray until the first roll); Roll on the "
             "Board page or the table's button has the companion roll instead. Without it the companion rolls "
             "at the start of each turn."}]
_CHOICES = {"start": PLAYERS, "die": DICE}


def _options(text: str) -> dict[str, str]:
    """``start=blue,die=table`` as the game's choices; anything else is refused by name, never dropped."""
    out: dict[str, str] = {}
    for token in (t.strip() for t in str(text or "").split(",") if t.strip()):
        key, _, value = token.partition("=")
        if key not in _CHOICES:
            raise OptionsError(f"unknown option {key!r}: the island battle's options are start=red|blue, "
                               "die=companion|table")
        if value not in _CHOICES[key]:
            raise OptionsError(f"option {key}={value}: {key} is {' or '.join(_CHOICES[key])}")
        out[key] = value
    return out


class Score:
    """The standing: each player's characters on the island, on the pad and lost, and the blocks left."""

    def __init__(self, state: IslandState) -> None:
        self.state = state

    def to_dict(self) -> dict[str, Any]:
        s, ended = self.state, rules.outcome(self.state)
        return {"winners": list(ended.winners) if ended else [], "blocks_standing": len(s.blocks),
                "players": {p: {"name": s.name_of(p), "island": len(s.on_island(p)), "pad": len(s.on_pad(p)),
                                "lost": sum(s.where[c] == GONE for c in characters(p))} for p in PLAYERS}}

    def lines(self) -> list[str]:
        d, ended = self.to_dict(), rules.outcome(self.state)
        out = [ended.reason if ended else "Nobody rules the island yet."]
        for p, info in d["players"].items():
            who = p if info["name"] == p else f"{info['name']} ({p})"
            out.append(f"  {who}: {info['island']} on the island, {info['pad']} on the pad, "
                       f"{info['lost']} lost")
        out.append(f"  blocks still standing: {d['blocks_standing']}")
        return out


def _called(state: IslandState) -> dict[str, str]:
    return {p: state.name_of(p) for p in PLAYERS}


def _names(state: IslandState) -> dict[str, str]:
    """Every piece as players call it: a character by its player and kind, a block by its number, the
    die, each pad by its player."""
    return {p: table.piece_name(p, _called(state)) for p in ALL_CHARACTERS + BLOCKS + table.PADS + (boards.DIE,)}


def _places(state: IslandState) -> dict[str, str]:
    """Places not printed with their name (see :func:`words.places`)."""
    return words.places(state)


def _rolled(state: IslandState) -> str:
    """This turn's rolls in words ("Ada rolled 0, then 3"), or who is to roll; "" before play."""
    faces: list[int] = []
    for text in reversed(state.history):
        action = rules.parse_action(text)
        if isinstance(action, TURN_OVER):
            break
        if isinstance(action, Roll):
            faces.insert(0, action.face)
    who = state.name_of(state.player)
    who = who[:1].upper() + who[1:]  # a sentence's first word
    same = _same_face(state)
    again = f"; the die shows {same} as before: if you threw {same} again, confirm" if same is not None else ""
    if faces:
        zero = ": a reinforcement, the pad or a turn, then roll again" if state.stage == "options" else ""
        return f"{who} rolled {', then '.join(str(f) for f in faces)}{zero}{again}"
    return f"{who} to roll{again}" if state.stage == "roll" and rules.outcome(state) is None else ""


def _same_face(state: IslandState) -> str | None:
    """The face the die already shows when a roll thrown at the table is due: a throw landing on it
    again changes nothing the camera sees, so only the players can say it happened (None: no such roll)."""
    due = state.die == "table" and state.stage == "roll" and rules.outcome(state) is None
    return table.die_up(state) if due else None


def _blast(state: IslandState) -> str:
    """The last blast in words: which live block went off (and the blocks it set off) and who it took."""
    if not state.blast:
        return ""
    names = _called(state)
    blocks = [table.piece_name(p) for p in state.blast if p in BLOCKS]
    lost = [table.piece_name(p, names) for p in state.blast if p not in BLOCKS]
    chain = f", setting off {' and '.join(blocks[1:])}" if blocks[1:] else ""
    return (f"{blocks[0].capitalize()} was live{chain}: " +
            (f"{', '.join(lost)} blown off the island" if lost else "nobody was near"))


def _reach(state: IslandState, legal: Sequence[Action]) -> dict[str, dict[str, Any]]:
    """Each character on the island: the square it aims at, exactly at its range (whoever stands there,
    none past a block or the island's edge), and the squares its moves with the roll in hand could end
    on. A player tapping a piece sees what it threatens without counting squares; it is read from where
    the blocks stand, never from which are live."""
    ends: dict[str, list[str]] = {}
    for a in legal:
        if isinstance(a, Move) and a.to not in ends.setdefault(a.character, []):
            ends[a.character].append(a.to)
    return {c: {"shots": [sq] if (sq := fire.aimed(state, c)) else [], "moves": ends.get(c, []),
                "note": f"range {reach(c)}"} for c in sorted(state.facing)}


def _threw_again(state: IslandState) -> list[dict[str, str]]:
    """The panel's way to say a die thrown at the table landed on the face it already showed."""
    same = _same_face(state)
    if same is None:
        return []
    who = state.name_of(state.player)
    return [{"action": f"roll {state.player} {same}", "label": f"{who[:1].upper() + who[1:]} threw {same} again",
             "confirm": f"The die shows {same} as before, so the camera sees no new throw. Did {who} throw "
                        f"{same} again?"}]


def _phase(state: IslandState) -> str:
    if rules.outcome(state) is not None:
        return "finished"
    return PHASES.get(state.stage, "playing")


DECLARATION = GameType(
    "island-battle", "Battle for the Island", (2,), chance="dice", information="from-everyone",
    counters=(Counter("rolled", "Die", phases=("playing",)),
              Counter("to_place", "To place", phases=("blocks", "deploy")),
              Counter("characters", "Characters left", phases=("playing", "finished")),
              Counter("blocks_standing", "Blocks standing"), Counter("blast", "Last blast")),
    phases=(Phase("blocks", "Placing blocks"), Phase("deploy", "Placing characters"), Phase("playing", "Playing")),
    turn_actions=("pad", "turn", "shoot", "remove", "spare", "roll"),
    clear="take them off the board")  # a block set off goes, it is never turned over
"""Battle for the Island: dice (every roll is logged) and information hidden from everyone (which blocks
are live: the companion alone knows until a block is set off); one player at a time. It counts the roll
waiting to be used, each player's characters still in the game and the blocks still standing; the
setup's two phases (blocks, then characters) come before play."""


class IslandRules(Rules[IslandState, Action]):
    """The rulebook (``rules.py``): facing characters, a die, and blocks only the companion may look under."""

    parse_action = staticmethod(rules.parse_action)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)
    text = staticmethod(rules.text)
    score = staticmethod(Score)
    # The companion's own saved form: it holds which blocks are live (the store's, never a page's).
    to_dict = staticmethod(rules.to_json)

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        return [{"name": "players", "label": "Players", "kind": "count",
                 "choices": list(self.game.declaration.players)},
                {"name": "seats", "label": "Names and colours", "kind": "seats", "colours": list(PLAYERS),
                 "colours_per_player": {"default": 1}, "max_name": MAX_NAME,
                 "help": "Red sits south of the island, blue north."},
                {"name": "options", "label": "Options", "kind": "text", "max": 60, "help": OPTIONS_HELP,
                 "switches": OPTION_SWITCHES},
                {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1}]

    def new_game(self, players: int = 2, seed: int = 0, board: str = "standard", options: str = "",
                 seats: Sequence[Mapping[str, Any]] | None = None, deal: int = 0, **_: Any) -> IslandState:
        chosen = _options(options)
        if players not in self.game.declaration.players:
            raise SetupError(f"the island battle is for 2 players, not {players}")
        names: dict[str, str] = {}
        for i, seat in enumerate(seats or ()):
            free = [p for p in PLAYERS if p not in names] or [""]  # a seat that names no colour takes the one left
            colour = (seat.get("colours") or free)[0]
            if colour not in PLAYERS or colour in names:
                raise SetupError(f"player {i + 1}: the colours are red and blue, one each, not {colour}")
            names[colour] = str(seat.get("name") or colour).strip()[:MAX_NAME] or colour
        boards.load(board)  # a board that cannot be read is said now, not at the first picture
        given = tuple(names.get(p, p) for p in PLAYERS) if names else ()
        try:
            return rules.new_game(seed, chosen.get("start", PLAYERS[0]), given, chosen.get("die", DICE[0]), deal)
        except StateFormatError as exc:
            raise SetupError(str(exc)) from None

    def from_dict(self, data: Mapping[str, Any]) -> IslandState:
        deal = data.get("deal", 0)
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
            raise StateFormatError("island battle state: 'deal' must be a whole number 0 or more")
        return replace(rules.from_json(data), deal=deal)

    def active(self, state: IslandState) -> tuple[str, ...]:
        """Who acts now: the player whose turn it is, or their opponent choosing which character a
        penalty removes; nobody once the island has a ruler (or nobody is left to rule it)."""
        return () if rules.outcome(state) is not None else (state.actor,)

    def forced_action(self, state: IslandState) -> Roll | None:
        """The companion's roll at the start of a turn (and after a 0's option), when it rolls: drawn
        from the seed and the place in the log, so the same game rolls the same."""
        if state.die == "companion" and state.stage == "roll" and rules.outcome(state) is None:
            return Roll(state.player, rules.companion_roll(state))
        return None

    def complete_action(self, state: IslandState, text: str) -> str:
        """``roll`` (the panel's Roll, the table's roll button) with the roll left to the players: the
        companion's roll, drawn as :meth:`forced_action` draws it, so the log holds the face."""
        words = text.split()
        if words in (["roll"], ["roll", state.player]) and state.stage == "roll":  # (the companion's die: a roll
            # due that it did not make, as after a way out of a disagreement, is made on the button as well)
            return str(Roll(state.player, rules.companion_roll(state)))
        return text.strip()

    def end_turn_action(self, state: IslandState, reason: str) -> End | None:
        return End(state.player) if End(state.player) in rules.legal_actions(state) else None


class IslandTable(Table[IslandState, Action]):
    """The island on the table (``table.py``): each piece by its own marker, a character with the way it faces."""

    expected = staticmethod(table.pictured)
    correction = staticmethod(table.correction)
    taken_off = staticmethod(table.taken_off)
    # The die out of sight (picked up to be thrown) lies in the tray as the last roll left it.
    hidden = staticmethod(table.die_hidden)

    def layout(self, state: IslandState | None = None, board: str | None = None) -> Layout:
        """The board with each pad's places where the state has the pad (it slides in play), and the die
        when the players throw one at the table (the companion rolling, a die on the table is not read)."""
        return boards.layout(boards.load(board or "standard"), state.pads if state is not None else None,
                             die=state is None or state.die == "table")

    def hints(self, state: IslandState, seen: Placement, budget: Budget) -> IslandHints:
        """The island's hints for this picture (``hints.py``): the framework reads it with them, the legal
        plays of the player to move that leave the island so, else a move part-way (a calm step), else
        out of turn, else refused with the rule the moved pieces break where they were put."""
        return IslandHints(state, seen)

    def alike(self, state: IslandState, seen: Placement) -> dict[str, tuple[str, ...]]:
        """A piece put back in another slot of its own box is still in its box: no change; a pad's riders
        read against the pad's places where it does not lie are on their own places (``table.riding``)."""
        return {cell: pieces for cell, pieces in table.in_own_slots(table.riding(state, seen)).items() if pieces}


class IslandPanel(Panel[IslandState, Action]):
    """The Board page: everything but which blocks still standing are live."""

    # The panel's dots for a tapped piece: where its legal moves end, each way there (the facing it
    # ends in) a choice of its own.
    targets = staticmethod(words.targets)

    def words(self, state: IslandState) -> dict[str, str]:
        """Pieces and places as the pages call them, and each way a piece faces (``^E``: "to face
        east"), so a move the hands make is said with the way it ends facing."""
        return {**super().words(state), **{f"^{way}": f"to face {name}" for way, name in words.WAYS.items()}}

    def view(self, state: IslandState, seat: str | None = None) -> dict[str, Any]:
        """What every page may show: everything but which blocks still standing are live (a block set
        off says what it was in ``revealed``), and not the seed the deal was drawn from."""
        ended = rules.outcome(state)
        legal = rules.legal_actions(state)
        # the companion rolls on it: with the die at the table, and whenever a roll is due that it did not make
        roll_button = any(isinstance(a, Roll) for a in legal)
        return {"phase": _phase(state), "stage": state.stage, "active": state.actor, "next": opponent(state.actor),
                "players": [{"name": state.name_of(p), "colours": [p]} for p in PLAYERS],
                "turn_order": [PLAYERS[(state.start + k) % 2] for k in range(2)],
                "placement": {c: list(ps) for c, ps in table.expected(state).items()},
                "owners": {c: owner(c) for c in ALL_CHARACTERS}, "facing": dict(state.facing),
                "reach": _reach(state, legal),
                "stacks": {}, "supplies": {}, "revealed": dict(state.revealed), "die": state.die,
                "roll": state.roll, "rolled": _rolled(state), "blast": words.last_set_off(state, _blast(state)),
                "chosen": state.chosen, "turn_ends": words.owed(state, legal),
                "sliding": state.sliding,
                "pads": {p: LETTERS[state.pads[k] - 1] for k, p in enumerate(PLAYERS)},
                "characters": {p: sum(state.where[c] != GONE for c in characters(p)) for p in PLAYERS},
                "to_place": {p: sum(state.where[c] == BOX for c in characters(p)) for p in PLAYERS},
                "blocks_standing": len(state.blocks), "names": _names(state), "places": _places(state),
                # the pieces the rules took, by id: public (a blast says whom it took), so the Board page
                # draws each where the hands have still to lift it as itself, never as an unknown "?"
                "taken_off": sorted(table.taken_off(state)),
                "history": list(state.history), "log": words.log(state), "standing": Score(state).lines(),
                "outcome": {"winners": list(ended.winners), "reason": ended.reason} if ended else None,
                "end_turn": End(state.player) in legal,
                "turn_actions": ([{"action": f"roll {state.player}", "label": "Roll"}] if roll_button else [])
                + _threw_again(state)
                + [{"action": str(a), "label": words.choice(state, a)} for a in legal
                   if isinstance(a, (ChoosePad, Turn, Shoot, Remove, Spare))]}


class IslandSeats(Seats[IslandState, Action]):
    """Nobody at the table may know which standing blocks are live: not a page, not an export."""

    def public_json(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        """The saved state without which blocks are live, nor the seed and the deal they were dealt from."""
        return {k: v for k, v in saved.items() if k not in ("live", "seed", "deal")}

    def secrets_changed(self, state: IslandState, seat: str | None, seed: int = 0) -> IslandState:
        """The same table with other blocks still standing live (as many as before): nobody may know."""
        standing = sorted(b for b in BLOCKS if b not in state.revealed)
        kept = len(state.live & set(standing))
        live = frozenset(random.Random(seed).sample(standing, kept)) | (state.live - set(standing))
        return replace(state, live=live)


class IslandLights(Lights[IslandState, Action]):
    """The strip shows the roll and both armies besides whose turn it is."""

    def led_scene(self, state: IslandState, status: TableStatus = TableStatus()) -> LedScene:
        """``turn``: the player to act (a waiting question blinks) and, dim, the other; ``status``: each
        player's ten characters, two to an LED so both sides fit the strip's eleven (red's five, one
        dark, blue's five), in their colour: bright with both on the island, half with one, dim with
        none there but one on the pad or still to place, dark once both are lost (a player with a piece
        breaking a rule blinks red over theirs; an LED whose character a blast took flashes orange
        until a player acts again: the roll the companion makes at once leaves it flashing); ``counter``:
        the roll waiting to be used, an LED per pip (all five dim after a 0); the winner over the whole
        strip."""
        rgb = boards.load().rgb
        ended = rules.outcome(state)
        if ended is not None and ended.winners:
            return winners_scene([rgb[ended.winners[0]]])
        actor = turn_light(rgb[state.actor], status.waiting)
        bad = {owner(p) for p in status.offenders if p in state.where}
        since = state.history[state.blast_at:]  # the companion's own rolls after a blast leave it flashing
        blown = set(state.blast) if all(t.startswith("roll ") and state.die == "companion" for t in since) else set()
        lights: list[Light] = []
        for p in PLAYERS:
            lights += [Light((0, 0, 0))] if lights else []  # a dark LED between the two sides
            mine = characters(p)
            for pair in (mine[k:k + 2] for k in range(0, len(mine), 2)):
                there = sum(state.where[c] not in (PAD, BOX, GONE) for c in pair)
                shade = rgb[p] if there == 2 else _half(rgb[p]) if there else dim(rgb[p])
                lights.append(alert_light() if p in bad else Light(BLAST, "blink", 4.0)
                              if blown & set(pair) else Light((0, 0, 0)) if all(state.where[c] == GONE for c in pair)
                              else Light(shade))
        zero = state.stage == "options"
        die: tuple[Light, ...] | Count = (Light(dim(DIE)),) * 5 if zero else Count(state.roll or 0, 5, Light(DIE))
        shown = "0" if zero else state.roll if state.roll is not None else "-"
        return LedScene({"turn": (actor, Light(dim(rgb[opponent(state.actor)]))), "status": tuple(lights),
                         "counter": die}, labels={**LABELS, "counter": f"{LABELS['counter']}: {shown}"})


def _half(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour at half: one of an LED's two characters on the island, told from both and from none."""
    return (rgb[0] // 2, rgb[1] // 2, rgb[2] // 2)


GAME = Game(DECLARATION, IslandRules(), IslandTable(), IslandPanel(), seating=IslandSeats(), lights=IslandLights(),
            dealt=True, called="an island battle")  # which blocks are live is drawn at setup from a deal nobody sees
