"""Desert survivors behind the door (:class:`~companion.games.base.Game`).

The game of secrets: the state knows every face-down disc and X-counter and every closed fist,
and :meth:`DesertPanel.view` gives a seat only what that player may know (``seat`` None:
what the whole table sees). The mapboards are laid at setup, from the seed unless the players
give their arrangement, and the layout is built from the state's desert. Each disc and counter
carries a marker on each face, so the camera reads which face is up: a disc turned face up is read
as the reveal, a swap as the swap, and the faces the rules then show are expected of the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import AnswerError, SetupError
from companion.games.assembly import Assembly
from companion.games.base import (Budget, Choice, Game, Layout, LedScene, Light, Lights, Panel, Placement,
                                  Rules, Seats, Table, TableStatus, alert_light, dim, turn_light,
                                  winners_scene)
from companion.games.declaration import Counter, GameType, Phase
from companion.games.saved import saved_form
from companion.games.desert_survivors import layout as boards
from companion.games.desert_survivors import reading, rules, seat_words, table
from companion.games.desert_survivors.actions import Action, Commit, Correct, End, Feed, Give, Lay, Pass, Place, Show
from companion.games.desert_survivors.board import default_arrangement, random_arrangement
from companion.games.desert_survivors.pieces import (COLOURS, ROUNDS, colour_of, discs_of, groups_for, is_disc,
                                                     is_monkey, is_x, number, x_food, x_kind)
from companion.games.desert_survivors.state import MAX_NAME, DesertState
from companion.games.desert_survivors.view import Score, said, view

# the view's phases (the rules' "setup", the discs being placed, is "placing": the pages' setup is the Setup page)
PHASES = {"placing": "Placing the discs", "move": "Movement and search for food", "eat": "Eating and fighting"}
VIEW_PHASE = {"setup": "placing", "over": "finished"}
ROUND_LIGHT = (255, 160, 40)
CALLED = "a desert survivors"   # "not a desert survivors state"
LABELS = {"turn": "whose turn, who is next (in a fight: both sides)", "status": "the round (of 4), then the last "
          "fight's winner", "counter": "", "timer": ""}


def _who(state: DesertState) -> str:
    """The player to play as the table calls them: a name with its colour, or the colour alone when
    nobody gave a name (never "natural (natural)")."""
    name = state.name_of(state.turn)
    return name if name == state.active else f"{name} ({state.active})"


def _secrets_changed(state: DesertState, seat: str | None, seed: int = 0) -> DesertState:
    """The same table with every secret ``seat`` may not know changed: the other seats' face-down
    discs shuffled among their spaces, face-down X-counters shuffled with the pile beside the desert,
    other seats' fight markers and closed fists altered (a door test holds the views to this)."""
    from dataclasses import replace
    from types import MappingProxyType

    me = state.seats.index(seat) if seat in state.seats else None
    rng, board = random.Random(seed), dict(state.board)
    for colour in state.groups:
        if me is not None and colour in state.colours_of(me) and state.memory_aid:
            continue
        spaces = [w for w, p in board.items() if is_disc(p) and p.startswith(colour + "-") and p not in state.face_up]
        moved = [board[w] for w in spaces]
        rng.shuffle(moved)
        board.update(zip(spaces, moved, strict=True))
    spaces = [w for w, p in board.items() if is_x(p) and p not in state.face_up]
    pile = [board[w] for w in spaces] + list(state.mix)
    rng.shuffle(pile)
    board.update(zip(spaces, pile, strict=False))
    markers = list(state.markers)  # one marker handed between two seats: the box still holds 42
    others = [k for k in range(len(markers)) if k != me]
    if len(others) > 1 and markers[others[0]] > 0:
        markers[others[0]] -= 1
        markers[others[1]] += 1
    fight = state.fight
    if fight is not None:
        sides = (state.seat_of(state.board[fight.attacker]), state.seat_of(state.board[fight.defender]))
        # another count the side could have closed its fist on (never more markers than it holds)
        a, d = (c if s == me or c is None else c + 1 if c < markers[s] else max(0, c - 1)
                for c, s in zip(fight.commits, sides, strict=True))
        fight = replace(fight, commits=(a, d))
    return replace(state, board=MappingProxyType(board), mix=tuple(pile[len(spaces):]), markers=tuple(markers),
                   fight=fight)


def _looks(plan: Layout, state: DesertState, placement: Mapping[str, Sequence[str]]) -> dict[str, dict[str, Any]]:
    """How the Board page draws each piece on the desert (the view's ``looks``): a face-down piece,
    named by what its back shows, as its kind looks in the layout (every disc of a colour alike, every
    X-counter alike), a face-up one with what its face shows written on it (its number, 'm' the monkey,
    a counter's food, '=' a road, '$' a treasure)."""
    out: dict[str, dict[str, Any]] = {}
    for where, (shown,) in placement.items():
        piece = state.board[where]
        drawn = plan.pieces[piece]
        look = {k: v for k, v in drawn.to_json().items() if k not in ("id", "marker", "faces")}
        if drawn.colour is not None:  # the colour painted, not the group's name
            look["colour"] = "#{:02x}{:02x}{:02x}".format(*drawn.colour)
        if piece in state.face_up:
            look["short"] = ("m" if is_monkey(piece) else str(number(piece))) if is_disc(piece) else \
                {"road": "=", "treasure": "$"}.get(x_kind(piece), str(x_food(piece)))
        out[shown] = look
    return out


def _text(state: DesertState) -> str:
    """The desert as the whole table sees it: a face-down disc by its colour's letter and '?', a face-up
    one with its number ('m' the monkey), a face-down X-counter 'X', a found road '=', food 'f' and its
    value, a treasure '$'; '.' sand, '~' an oasis, '#' rock."""
    public = view(state, None)
    spaces, rocks = public["desert"]["spaces"], set(public["desert"]["rocks"])
    cols = 1 + max(ord(w[0]) - 65 for w in [*spaces, *rocks])
    rows = max(int(w[1:]) for w in [*spaces, *rocks])
    phase = PHASES.get(VIEW_PHASE.get(state.phase, state.phase), "over")
    lines = [f"Desert survivors, round {state.round} of {ROUNDS}: {phase}"
             + ("" if state.phase == "over" else f", {_who(state)} to play"),
             "    " + "".join(f"{chr(65 + c):^4}" for c in range(cols))]
    for r in range(1, rows + 1):
        row = []
        for c in range(cols):
            where = f"{chr(65 + c)}{r}"
            shown = public["pieces"].get(where)
            mark = "#" if where in rocks else "~" if spaces.get(where) == "oasis" else "." if where in spaces else " "
            if shown and shown["piece"] == "disc":
                face = shown["colour"][0].upper() + ("?" if shown["face"] == "down" else
                                                    "m" if shown["character"] == "monkey" else str(shown["character"]))
                mark = face
            elif shown:
                mark = "X" if shown["face"] == "down" else {"road": "=", "treasure": "$"}.get(shown["kind"],
                                                                                          f"f{shown['food']}")
            row.append(f"{mark:^4}")
        lines.append(f"{r:>3} " + "".join(row).rstrip())
    fight = public["fight"]
    if fight:
        closed = [s for s, done in fight["committed"].items() if done]
        lines.append(f"Fight: {fight['attacker']} attacks {fight['defender']}; "
                     f"fists closed: {', '.join(closed) or 'none'}")
    lines.append(f"Fight markers in the pool: {public['pool_markers']}; X-counters beside the desert: "
                 f"{public['x_beside']}")
    return "\n".join(lines + Score(state).lines())


# Luck only at setup (the desert and the X-counters laid from the seed); secrets per seat (each player's
# face-down discs are theirs to know only with the memory aid, their fight markers and closed fist always);
# a fight's two sides commit at once. It counts the round and the markers in the common pool; a turn ends
# with the swap or reveal made, or by itself after a road.
DECLARATION = GameType("desert-survivors", "Desert survivors", (2, 3, 4, 5, 6), chance="setup",
                       information="per-seat", simultaneous=True, turn_actions=("end", "give", "pass"),
                       counters=(Counter("round", "Round", total="rounds"),
                                 Counter("pool_markers", "Fight markers in the pool"),
                                 Counter("x_beside", "X-counters beside the desert")),
                       phases=tuple(Phase(k, v) for k, v in PHASES.items()),
                       turn_ends="A turn ends with the swap or reveal made; after a road the player may act "
                                 "again or stop.", features=("turn-over",),
                       clear="take them off the board")  # the eaten and the food taken go; none is turned over


class DesertRules(Rules[DesertState, Action]):
    """Desert survivors' rulebook: groups of characters face down in a desert laid at setup, four rounds
    of searching for food, eating and fighting with closed fists (the rules themselves: ``rules.py``)."""

    to_dict = staticmethod(rules.to_json)
    from_dict = staticmethod(rules.from_json)
    parse_action = staticmethod(rules.parse_action)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)
    score = staticmethod(Score)

    def why_not(self, state: DesertState, action: Action | str) -> str | None:
        """What :meth:`apply` would refuse the action with, in the rulebook's words alone."""
        act = rules.parse_action(action) if isinstance(action, str) else action
        if isinstance(act, Lay):
            return rules.why_not_lay(state, act)
        return super().why_not(state, act) if isinstance(act, Correct) else rules.why_not(state, act)
    text = staticmethod(_text)   # the shared table (``show``): never a face-down piece's face

    def setup_schema(self, board: str | None = None) -> list[dict[str, Any]]:
        """The mapboards' arrangement is a text answer the camera can give: "Read from the table"
        (``read_from_table``) when the board file gives the mapboards their corner markers."""
        players = self.game.declaration.players
        readable = self.game.table.assembly(board) is not None
        return [{"name": "players", "label": "Players", "kind": "count", "choices": list(players)},
                {"name": "seats", "label": "Names and colours", "kind": "seats", "colours": list(COLOURS),
                 "colours_per_player": {"default": 1, "2": 2}, "max_name": MAX_NAME,
                 "help": "Seats in order: natural, green, red, blue, purple, yellow (two players play two "
                         "groups each: natural and red, green and blue)."},
                {"name": "arrangement", "label": "Mapboards", "kind": "text", "max": 120,
                 "help": "Empty: laid from the seed. 'beginner': the beginner's desert. Or each mapboard as "
                         "laid: its number, @, the space its top left corner covers, and /90, /180 or /270 when "
                         "it is turned that far clockwise, e.g. 1@A1 4@E1/90 2@A4 (boards 1-3 have the oasis)"
                         + (", or read from the table by the camera." if readable else "."),
                 **({"read_from_table": True} if readable else {})},
                {"name": "memory_aid", "label": "Memory aid (your own face-down discs on your phone)",
                 "kind": "choice", "choices": ["no", "yes"]},
                {"name": "seed", "label": "Seed", "kind": "int", "min": 0, "max": 2**31 - 1}]

    def new_game(self, players: int = 3, seed: int = 0, board: str | None = None, arrangement: str = "",
                 memory_aid: str | bool = "no", seats: Sequence[Mapping[str, Any]] | None = None,
                 **_: Any) -> DesertState:
        if players not in self.game.declaration.players:
            raise SetupError(f"desert survivors is for 2 to 6 players, not {players}")
        groups = groups_for(players)
        text = str(arrangement or "").strip()
        laid = default_arrangement(len(groups)) if text == "beginner" else \
            random_arrangement(len(groups), seed) if not text else text
        seated = groups[:players], groups[players:]
        for i, seat in enumerate(seats or ()):
            mine = [g for part in seated for g in part[i:i + 1]]
            if seat.get("colours") and list(seat["colours"]) != mine:
                raise SetupError(f"player {i + 1} plays {' and '.join(mine)}: with {players} players the seats' "
                                 f"colours go in order ({', '.join(groups)})")
        names = tuple(str(s.get("name") or groups[i]).strip() for i, s in enumerate(seats or ()))
        try:
            return rules.new_game(players, seed, laid, memory_aid in (True, "yes"), names)
        except AnswerError as exc:
            raise SetupError(str(exc)) from None

    def active(self, state: DesertState) -> tuple[str, ...]:
        """The player whose turn it is, then whoever else must act before play goes on: a fight's side
        whose fist is still open, a player owing food to a hungry character's card. Nobody once the
        desert is crossed."""
        if state.phase == "over":
            return ()
        fight, owing = state.fight, [state.seats[k] for k in rules.feeders(state)]
        sides = [] if fight is None else [state.seats[state.seat_of(state.board[w])] for w, done in
                                          zip((fight.attacker, fight.defender), fight.commits, strict=True) if done is None]
        return tuple(dict.fromkeys([state.active, *sides, *owing]))

    def forced_action(self, state: DesertState) -> Action | None:
        """Both fists closed: they open at once (the show), so neither side waits on the other's
        phone and neither learns the other's markers before its own are in."""
        fight = state.fight
        return Show() if fight is not None and None not in fight.commits else None


class DesertTable(Table[DesertState, Action]):
    """The laid desert on the table: each disc and X-counter read by the marker of the face that is up
    (``table.py``, what a picture means in ``reading.py``), the mapboards read by their corner markers at setup."""

    expected = staticmethod(table.expected)
    correction = staticmethod(table.correction)
    taken_off = staticmethod(table.taken_off)   # the characters eaten and the food counters taken: a chore

    def layout(self, state: DesertState | None = None, board: str | None = None) -> Layout:
        """The laid desert of ``state``; with no state the beginner's desert for six groups."""
        if state is None:
            return boards.layout(boards.load(board), default_arrangement(len(COLOURS)), COLOURS)
        return boards.layout(boards.load(board), state.arrangement, state.groups)

    def assembly(self, board: str | None = None) -> Assembly | None:
        """The mapboards, read by their own corner markers at setup; the reading is an arrangement."""
        return boards.assembly(boards.load(board))

    def describe_board(self, board: str | None = None) -> str:
        return boards.describe(boards.load(board))

    def hints(self, state: DesertState, seen: Placement, budget: Budget) -> reading.DesertHints:
        """The desert's hints for this picture (``reading.py``): the framework reads it with them, the
        desert's own answers (faces still to turn, a round laid out, a face no move reveals) among them."""
        return reading.DesertHints(state, seen)

    def in_box(self, state: DesertState) -> Sequence[str]:
        """The pieces the simulated table's hands may take from the box (the Table page, refused to a
        phone on a seat, hears them by id): the discs not placed yet (none eaten) and the X-counters in
        the pile; the treasures set aside and the counters taken off for good are not laid."""
        on = set(state.board.values())
        discs = [d for g in state.groups for d in discs_of(g) if d not in on and d not in state.dead]
        return discs + sorted(state.mix)


class DesertPanel(Panel[DesertState, Action]):
    """What a page may show: a seat's view (its own secrets only), pieces in public words, the dots."""

    def view(self, state: DesertState, seat: str | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: the shared table); the phase once the game is over is
        ``finished``, as the pages know it."""
        out = view(state, seat)
        out["looks"] = _looks(self.game.table.layout(state), state, out["placement"])
        out.update({"phase": VIEW_PHASE.get(state.phase, state.phase), "rounds": ROUNDS,
                    "end_turn": False, "standing": Score(state).lines(), "turn_actions": _buttons(state),
                    "next": state.seats[(state.turn + 1) % len(state.seats)]})
        return out

    def words(self, state: DesertState) -> dict[str, str]:
        """Pieces by what the table shows of them (a face-down disc by its colour and space), never by
        what only the referee knows: the session's words reach every phone."""
        return table.words(state, {c: cell.label for c, cell in self.game.table.layout(state).cells.items()})

    def targets(self, state: DesertState, piece: str) -> dict[str, tuple[Choice, ...]]:
        """Where the piece tapped on the Board page can act (the panel's dots), in the words of a seat's
        buttons: a face-down disc of the player to move (named as the pages name it, ``red-disc@B3``)
        changes places with a piece, or is turned face up on its own space; a character takes the food
        on a space, attacks the one on a space, or is sacrificed on its own."""
        where = piece.partition("@")[2] or {p: w for w, p in state.board.items()}.get(piece)
        out: dict[str, list[Choice]] = {}
        for action in rules.legal_actions(state):
            words = str(action).split()
            if len(words) < 2 or words[1] != where or words[0] not in ("swap", "reveal", "take", "attack", "sacrifice"):
                continue
            said = (f"Change places with the piece on {words[2]}" if words[0] == "swap"
                    else seat_words.choice(state, action, "") or str(action))
            out.setdefault(words[2] if len(words) > 2 else where, []).append(Choice((str(action),), said))
        return {cell: tuple(ways) for cell, ways in out.items()}

    def laid_at(self, state: DesertState, cell: str) -> tuple[Choice, ...]:
        """A disc of the player's own hand laid face down on an empty space tapped: named as its owner
        knows it (the phone that lays it is its owner's, or the table's screen)."""
        out = []
        for way in super().laid_at(state, cell):
            act = rules.parse_action(way.actions[0])
            if isinstance(act, Place):
                disc = "monkey" if is_monkey(act.disc) else str(number(act.disc))
                way = Choice(way.actions, f"Place {colour_of(act.disc)} {disc} face down on {act.space}")
            out.append(way)
        return tuple(out)


class DesertSeats(Seats[DesertState, Action]):
    """Who may see and enter what: each fist is closed on its owner's phone, a seat's own discs are named
    to it only, an export is the shared table's view."""

    said = staticmethod(said)   # another seat's commit without its markers, its placement without the number
    seat_choice = staticmethod(seat_words.choice)   # "Close your fist on 3 markers"; a disc moved is no button
    secrets_changed = staticmethod(_secrets_changed)

    def actor(self, state: DesertState, action: Action) -> str | None:
        """Whose phone enters ``action``: a commit is its side's (each fist is closed on its owner's
        phone), food is placed by the owner of the card, given, passed or a turn ended by the seat it
        names; the show is nobody's (the rules open both fists once both are closed); any other
        action is the player to move's."""
        if isinstance(action, (Commit, End, Give, Pass)):
            return action.seat
        if isinstance(action, Feed):
            return state.seats[state.seat_of(action.disc)] if colour_of(action.disc) in state.groups else None
        return None if isinstance(action, (Show, Correct)) else super().actor(state, action)

    def public_json(self, saved: Mapping[str, Any]) -> dict[str, Any]:
        """A saved state as the shared table may read it (an export): what the table shows, the view of
        no seat, since nearly every part of the saved form names a face-down piece or a closed fist."""
        name = self.game.declaration.name
        return {"game": name, "shared_view": view(rules.from_json(saved_form(dict(saved), name, CALLED)), None)}


class DesertLights(Lights[DesertState, Action]):
    """The LEDs: the player to move and the next, a light per round and the last fight's winner."""

    def led_scene(self, state: DesertState, status: TableStatus = TableStatus()) -> LedScene:
        """``turn``: the player to move (blinking while the players are asked) and, dim, the next; in a
        fight both sides. ``status``: a light per round, the rounds played dim and the one under way
        bright, then the last fight's winner in their colour (red blinking over it while the table is
        out of sync). The winners over the whole strip."""
        rgb = boards.RGB_OF
        ended = rules.outcome(state)
        if ended is not None:
            return winners_scene([rgb[w] for w in ended.winners])
        if state.fight is not None:
            sides = [state.seats[state.seat_of(state.board[w])] for w in (state.fight.attacker, state.fight.defender)]
            turn = tuple(Light(rgb[s], "blink", 1.0, 0.3) for s in sides)
        else:
            turn = (turn_light(rgb[state.active], status.waiting),
                    Light(dim(rgb[state.seats[(state.turn + 1) % len(state.seats)]])))
        rounds = [Light(ROUND_LIGHT) if r == state.round else Light(dim(ROUND_LIGHT)) if r < state.round
                  else Light((0, 0, 0)) for r in range(1, ROUNDS + 1)]
        if status.offenders:
            rounds.append(alert_light())
        elif state.last_fight is not None:
            rounds.append(Light(rgb[state.seats[state.seat_of(state.last_fight.winner)]]))
        return LedScene({"turn": turn, "status": tuple(rounds)}, labels=LABELS)


GAME = Game(DECLARATION, DesertRules(), DesertTable(), DesertPanel(), seating=DesertSeats(), lights=DesertLights(),
            called=CALLED)


def _buttons(state: DesertState) -> list[dict[str, str]]:
    """What the player to move may do without a piece, as the Board page's buttons (in the words of
    their phone's): stop after a road, give spare food, pass. A piece's own plays are its dots."""
    active = state.seats[state.turn] if state.phase not in ("setup", "over") else ""
    return [{"action": str(a), "label": seat_words.choice(state, a, active) or str(a)}
            for a in rules.legal_actions(state) if isinstance(a, (End, Give, Pass))]
