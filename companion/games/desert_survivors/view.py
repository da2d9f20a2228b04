"""What one seat may see of desert survivors (``view``), and the standing (``Score``).

The referee's state knows every face; a player knows only what the table shows them. A face-down
disc shows its colour (the wood) but not its number; a face-down X-counter shows nothing but its
back. A seat's fight markers and a fist closed in a fight are its own. The log names placed discs
only to their owner. So a seat's view holds no piece id of a face-down piece, no other seat's
markers or commits, and nothing of the mix's order; a spectator (``seat`` None) sees only what is
public. With the memory aid chosen at setup, a seat also sees the numbers of its own face-down discs.

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from companion.games.desert_survivors.actions import Commit, Correct, Lay, Place, Sacrifice, Swap, parse_action
from companion.games.desert_survivors.board import arrangement_text, build
from companion.games.desert_survivors.pieces import (GROUPS, colour_of, food_value, is_disc, is_monkey, number, size,
                                                     victory_points, x_food, x_kind)
from companion.games.desert_survivors.rules import feeders, outcome
from companion.games.desert_survivors.seat_words import card, share, whose
from companion.games.desert_survivors.state import DesertState, FightResult


def _piece(state: DesertState, piece: str) -> dict[str, Any]:
    """A piece as the table shows it: its face if up, else only what its back shows."""
    if is_disc(piece):
        shown: dict[str, Any] = {"piece": "disc", "colour": colour_of(piece)}
        if piece in state.face_up:
            shown.update({"face": "up", "id": piece, "character": "monkey" if is_monkey(piece) else number(piece)})
        else:
            shown["face"] = "down"
        return shown
    if piece not in state.face_up:
        return {"piece": "counter", "face": "down"}
    return {"piece": "counter", "face": "up", "id": piece, "kind": x_kind(piece), "food": x_food(piece)}


def _said(state: DesertState, text: str, seat: int | None) -> str:
    """A logged action as ``seat`` may read it: another seat's placement without the disc's
    number, another seat's commit without its count, a correction without the pieces it lists."""
    act = parse_action(text)
    if isinstance(act, Correct):
        return "correct: the pieces as the players set them"
    if isinstance(act, Lay):
        return "lay: the X-counters as the hands drew them"
    if isinstance(act, Place) and (seat is None or state.seat_of(act.disc) != seat):
        return f"place {colour_of(act.disc)} disc {act.space}"
    if isinstance(act, Commit) and (seat is None or state.seats.index(act.seat) != seat):
        return f"commit {act.seat}"
    return text


def public_id(state: DesertState, where: str) -> str:
    """The piece on ``where`` as the pages may name it: a face-up piece by its id, a face-down one by
    what its back shows and its space (``red-disc@B3``, ``x-counter@C4``), since a face-down piece's
    id is what it hides (a disc's number, a counter's food)."""
    piece = state.board[where]
    if piece in state.face_up:
        return piece
    return f"{colour_of(piece)}-disc@{where}" if is_disc(piece) else f"x-counter@{where}"


def _shown(state: DesertState, where: str) -> str:
    """The piece on ``where`` as the whole table calls it."""
    piece = state.board[where]
    if piece not in state.face_up:
        return f"the face-down {colour_of(piece)} disc on {where}" if is_disc(piece) else f"the X-counter on {where}"
    if is_disc(piece):
        return f"{state.name_of(state.seat_of(piece))}'s {'monkey' if is_monkey(piece) else number(piece)} on {where}"
    kind = x_kind(piece)
    return f"the {'food ' + str(x_food(piece)) + ' counter' if kind == 'food' else kind} on {where}"


def _markers(n: int) -> str:
    return "no markers" if n == 0 else "1 marker" if n == 1 else f"{n} markers"


def _in_words(state: DesertState, text: str, me: int | None) -> str:
    """A logged action in the players' words as seat ``me`` (None: the shared table) may read it:
    players by name, spaces as printed, another seat's placed disc by its colour only and another
    seat's closed fist without its markers. Said from the notation alone (the spaces it names), so an
    entry reads the same however the pieces moved on since."""
    act = parse_action(text)
    words = text.split()
    verb = words[0]

    def who(seat: str, first: bool = True) -> str:
        k = state.seats.index(seat) if seat in state.seats else None
        if k is None:
            return seat
        return ("You" if first else "you") if k == me else state.name_of(k)

    if isinstance(act, Correct):
        return "The table was corrected by hand"
    if isinstance(act, Lay):
        return "The X-counters were laid face down as the hands drew them"
    if isinstance(act, Place):
        owner = state.seat_of(act.disc)
        if owner == me:
            disc = "monkey" if is_monkey(act.disc) else number(act.disc)
            mine = f"{colour_of(act.disc)} {disc}" if len(state.colours_of(me)) > 1 else disc
            return f"You placed your {mine} face down on {act.space}"
        return f"{state.name_of(owner)} placed a {colour_of(act.disc)} disc face down on {act.space}"
    if isinstance(act, Commit):
        if state.seats.index(act.seat) == me:
            return f"You closed your fist on {_markers(act.markers)}" if act.markers else "You closed your fist empty"
        return f"{who(act.seat)} closed a fist"
    said = {"swap": lambda: f"The disc on {words[1]} changed places with the piece on {words[2]}",
            "reveal": lambda: f"The disc on {words[1]} was turned face up",
            "end": lambda: f"{who(words[1])} ended the turn",
            "take": lambda: f"The character on {words[1]} took the food on {words[2]}",
            "attack": lambda: f"The character on {words[1]} attacked the one on {words[2]}",
            "show": lambda: "Both fists opened",
            "sacrifice": lambda: f"The character on {words[1]} was sacrificed",
            "give": lambda: f"{who(words[1])} gave {words[3]} food to {who(words[2], False)}",
            "pass": lambda: f"{who(words[1])} passed: no character hungry"}
    if verb == "feed":
        owner = state.seat_of(words[1])
        if owner == me:
            return f"You put a food on your {number(words[1])}'s card"
        return f"{state.name_of(owner)} put a food on the {colour_of(words[1])} {number(words[1])}'s card"
    return said[verb]() if verb in said else _said(state, text, me)


def _fought(state: DesertState, fight: FightResult, me: int | None) -> str:
    """A show as everyone at the table saw it: both fists, who won and who was eaten."""
    a, d = fight.markers
    loser = fight.defender if fight.winner == fight.attacker else fight.attacker
    return (f"Both fists opened: {whose(state, fight.attacker, me)} with {_markers(a)} against "
            f"{whose(state, fight.defender, me)} with {_markers(d)}; {whose(state, fight.winner, me)} won "
            f"and ate {whose(state, loser, me)}")


def _swapped(text: str, discs: dict[str, str], gone: set[str]) -> str | None:
    """A swap in words naming what the target space held then (a disc or an X-counter), and
    ``discs`` (space -> disc) moved on by it; None when what lay there is not known."""
    _, source, target = text.split()
    mover, other = discs.pop(source, None), discs.pop(target, None)
    if mover is not None:
        discs[target] = mover
    if other is not None:
        discs[source] = other
    if mover is None or other in gone:  # the log does not say how the disc came there, or a disc that
        return None                     # starved at a round's end lay there (a counter dealt since?)
    return (f"The discs on {source} and {target} changed places" if other is not None else
            f"The disc on {source} and the X-counter on {target} changed places")


def _log(state: DesertState, me: int | None) -> list[str]:
    """Every logged action in the players' words; each show with its fight's result (the fights are
    kept in order; a state saved before they were kept says only that the fists opened). A swap says
    whether the disc changed places with a disc or an X-counter: the discs are followed through the
    log (placed, swapped, eaten, or set by a correction), since only a swap moves one and any other
    piece on the desert is an X-counter."""
    shows = sum(t == "show" for t in state.history)
    k, out = len(state.fights) - shows, []
    discs: dict[str, str] = {}
    eaten = {f.defender if f.winner == f.attacker else f.attacker for f in state.fights}
    starved = set(state.dead) - eaten  # characters gone without a fight or a sacrifice logged
    for text in state.history:
        act = parse_action(text)
        if isinstance(act, Place):
            discs[act.space] = act.disc
        elif isinstance(act, Correct):
            discs = {w: p for w, p in act.placement if is_disc(p)}
        elif isinstance(act, Sacrifice):
            discs.pop(act.space, None)
        if text == "show":
            fight = state.fights[k] if k >= 0 else None
            if fight is not None:
                loser = fight.defender if fight.winner == fight.attacker else fight.attacker
                discs = {w: p for w, p in discs.items() if p != loser}
            out.append(_fought(state, fight, me) if fight is not None else "Both fists opened")
            k += 1
        elif isinstance(act, Swap):
            out.append(_swapped(text, discs, starved) or _log_line(state, text, me))
        else:
            out.append(_log_line(state, text, me))
    return out


def turn_ends(state: DesertState) -> str:
    """How the turn in hand ends, in the phase under way (the panel shows it beside End turn)."""
    if state.phase == "over":
        return ""
    if feeders(state):
        who = [state.names[k] if k < len(state.names) else f"the {state.seats[k]} player" for k in feeders(state)]
        return (f"Play waits for {', '.join(who[:-1]) + ' and ' if len(who) > 1 else ''}{who[-1]} to put the food "
                "held on the characters' cards, each on their own phone.")
    if state.phase == "setup":
        return "A turn ends when the disc is laid face down on a free sand space."
    if state.phase == "move":
        return ("A turn ends with the swap or reveal made; after a road the player may act again or stop."
                if not state.road else f"{state.name_of(state.turn)} found a road: act again, or stop here.")
    if state.fight is not None:
        return "The fight ends when both fists are closed: they open at once."
    return ("A turn ends with food taken, a fight fought, a character sacrificed, food given, or a pass "
            "(only when no character of the player's is hungry).")


def _log_line(state: DesertState, text: str, me: int | None) -> str:
    """A log entry starting as a sentence does (a player nobody named is called by a colour)."""
    line = _in_words(state, text, me)
    return line[:1].upper() + line[1:]


def said(state: DesertState, action: str, seat: str | None) -> str:
    """A logged action as the seat named ``seat`` (None: the shared table) may read it."""
    return _said(state, action, state.seats.index(seat) if seat in state.seats else None)


def _last_fight(state: DesertState) -> dict[str, Any] | None:
    """The last fight as the table saw it; a character of it turned face down again is no longer named
    (None): which disc it is was seen only while it was face up, and the rules hid it again."""
    if state.last_fight is None:
        return None
    out = state.last_fight.to_json()
    places = {p: w for w, p in state.board.items()}
    for key in ("attacker", "defender", "winner"):
        disc = out.get(key)
        if disc in places and disc not in state.face_up:
            out[key] = None
    return out


def view(state: DesertState, seat: str | None = None) -> dict[str, Any]:
    """Everything ``seat`` may see (None: the public table)."""
    me = state.seats.index(seat) if seat in state.seats else None
    desert = build(state.arrangement)
    fight = None
    if state.fight is not None:
        f = state.fight
        sides = (state.seat_of(state.board[f.attacker]), state.seat_of(state.board[f.defender]))
        fight = {"attacker": f.attacker, "defender": f.defender,
                 "committed": {state.seats[s]: f.commits[k] is not None for k, s in enumerate(sides)},
                 "mine": next((f.commits[k] for k, s in enumerate(sides) if s == me), None)}
    out: dict[str, Any] = {
        "game": "desert-survivors", "seat": state.seats[me] if me is not None else None,
        "round": state.round, "phase": state.phase, "active": state.active, "start": state.seats[state.start],
        "road": state.road, "feeding": [state.seats[k] for k in feeders(state)],
        "players": [{"seat": s, "name": state.name_of(k), "colours": list(state.colours_of(k)),
                     "groups": [GROUPS[g] for g in state.colours_of(k)], "vp": state.vp[k], "spare": state.spare[k],
                     "food": state.total_food(k)} for k, s in enumerate(state.seats)],
        "desert": {"arrangement": arrangement_text(state.arrangement), "spaces": dict(desert.kinds),
                   "rocks": sorted(desert.rocks)},
        "pieces": {where: _piece(state, state.board[where]) for where in sorted(state.board)},
        "cards": {c: {"food": state.food.get(c, 0), "alive": c not in state.dead, "size": size(c),
                      "food_value": food_value(c), "vp": victory_points(c)}
                  for g in state.groups for c in (f"{g}-{n}" for n in range(1, 7))},
        "pool_markers": state.pool, "x_beside": len(state.mix), "treasure_stacks": len(state.stacks),
        "fight": fight, "last_fight": _last_fight(state),
        "log": _log(state, me),
        "history": [_said(state, t, me) for t in state.history],  # as each event says it: the replay's key
        "turn_ends": turn_ends(state),
        # the pieces on the desert as the pages draw and name them: a face-down piece by what its back shows
        "placement": {where: [public_id(state, where)] for where in sorted(state.board)},
        "owners": {public_id(state, w): colour_of(p) for w, p in state.board.items() if is_disc(p)},
        "names": {public_id(state, w): _shown(state, w) for w in state.board},
        "outcome": (lambda o: {"winners": list(o.winners), "reason": o.reason} if o else None)(outcome(state)),
        "seat_card": card(state, state.seats[me] if me is not None else None),
        "seat_share": share(state, state.seats[me] if me is not None else None),
    }
    if me is not None:
        out["markers"] = state.markers[me]
        if state.memory_aid:
            own = set(state.colours_of(me))
            out["memory"] = {w: ("monkey" if is_monkey(p) else number(p)) for w, p in state.board.items()
                             if is_disc(p) and colour_of(p) in own and p not in state.face_up}
    return out


class Score:
    """The standing: each player's victory points, living characters and food."""

    def __init__(self, state: DesertState) -> None:
        self.state = state

    def to_dict(self) -> dict[str, Any]:
        s = self.state
        return {"round": s.round, "players": {seat: {"vp": s.vp[k], "alive": len(s.alive(k)), "food": s.total_food(k)}
                                              for k, seat in enumerate(s.seats)}}

    def lines(self) -> list[str]:
        ended = outcome(self.state)
        out = [ended.reason if ended else f"Round {self.state.round} of 4."]
        for k, (seat, info) in enumerate(self.to_dict()["players"].items()):  # by name, as the Board page says them
            name = self.state.name_of(k)
            who = seat if name == seat else f"{name} ({seat})"
            out.append(f"  {who}: {info['vp']} VP, {info['alive']} characters alive, {info['food']} food")
        return out
