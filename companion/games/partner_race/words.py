"""What the partner race says to players: plays, bumps and swaps in sentences, people by name.

The action text (``play yellow 3 yellow-1:3``) is the log's and the API's machine form and must
parse back; players read this instead: "Anna plays a 3: yellow pawn 1 moves to T14 and bumps Bo's
green pawn 2 home". Places are named as printed on the board (``T14``, the starting space, goal circle 2),
players by the names given at setup, pawns by their colour and number with whose they are ("Bo's
green pawn 2") unless the sentence already named the player whose own they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import FogCompanionError
from companion.games.partner_race import rules
from companion.games.partner_race.cards import CARDS, called
from companion.games.partner_race.rules import Action, Correct, Fold, Play, RaceState
from companion.games.partner_race.track import COLOURS, colour_of, pawns_of

_AN = {"8s": "an 8", "start": "a start card", "swap": "the swap card", "-4": "a -4", "1-14": "a 1 or 14 card"}


def name_of(state: RaceState, colour: str) -> str:
    """A player by the name given at setup (the colour when none was given)."""
    return state.names[COLOURS.index(colour)] if colour in COLOURS else colour


def pawn_name(state: RaceState, pawn: str) -> str:
    """A pawn as players point at it: "Ada's yellow pawn 1" (its owner, its colour and the number
    printed on it). The owner's name tells whose it is when a partner moves it."""
    colour, number = colour_of(pawn), pawn.rsplit("-", 1)[-1]
    owner = name_of(state, colour)
    return f"the {colour} pawn {number}" if owner == colour else f"{owner}'s {colour} pawn {number}"  # no name given


def pawn_of(state: RaceState, pawn: str, player: str) -> str:
    """A pawn in a sentence that already names ``player`` (a colour): "yellow pawn 1" when it is that
    player's own, "Bo's green pawn 1" when it is anybody else's (a partner's, a pawn bumped)."""
    return f"{player} pawn {pawn.rsplit('-', 1)[-1]}" if colour_of(pawn) == player else pawn_name(state, pawn)


def card_name(card: str) -> str:
    """A card as a thing on the table: "the 8", "the -4", "the start card", "the 1 or 14 card" (an 8
    that also brings a pawn out is still the 8 printed on it)."""
    if card in ("start", "swap", "1-14"):
        return f"the {called(card)} card"
    return f"the {called(card)}"


def card_thing(card: str) -> str:
    """A card named as an object whatever its kind: "the 8 card", "the start card"."""
    said = card_name(card)
    return said if said.endswith(" card") else f"{said} card"


def piece_names(state: RaceState) -> dict[str, str]:
    """Every piece on the table by what players call it: the pawns by owner ("Ada's yellow pawn 1"),
    the cards' markers as the cards ("the 10 card"). The pages name pieces so, never by id."""
    out = {p: pawn_name(state, p) for c in COLOURS for p in pawns_of(c)}
    out.update({f"card-{k}": card_thing(k) for k in CARDS})
    return out


def place_names() -> dict[str, str]:
    """The board's places other than track spaces as players say them ("the yellow starting space",
    "the card spot"); a track space is called as printed on it (T14), so it needs no entry."""
    out = {"card-spot": "the card spot"}
    for c in COLOURS:
        out[f"start-{c}"] = f"the {c} starting space"
        for n in range(1, len(pawns_of(c)) + 1):
            out[f"goal-{c}-{n}"], out[f"home-{c}-{n}"] = f"{c} goal circle {n}", f"{c} home circle {n}"
    return out


def card_words(card: str) -> str:
    """A card as players say it after "plays": "a 3", "an 8", "the swap card"."""
    if card in _AN:
        return _AN[card]
    card = called(card)  # a card that also brings a pawn out (13s) is the 13 printed on it
    return ("an " if card.startswith(("8", "11", "18")) else "a ") + card


def place_words(pawn: str, pos: str) -> str:
    """A position as the board shows it: T14, the starting space, goal circle 2, home."""
    if pos == "home":
        return "home"
    if pos == "start":
        return f"the {colour_of(pawn)} starting space"
    if pos.startswith("G"):
        return f"goal circle {pos[1:]}"
    return pos


def changes(state: RaceState, player: str, after: Mapping[str, str], movers: tuple[str, ...]) -> str:
    """Where each pawn ``player`` (a colour) moved went and whom it bumped: "yellow pawn 1 moves to
    T14 and bumps Bo's green pawn 2 home" (``state``: the position before)."""
    before = state.where
    parts = []
    for pawn in movers:
        said = pawn_of(state, pawn, player)
        if before.get(pawn) == after.get(pawn):
            parts.append(f"{said} stays on {place_words(pawn, after.get(pawn, 'home'))}")
            continue
        to = after.get(pawn, "home")
        if to == "home":  # it landed on a protected stack of another colour and went home itself
            parts.append(f"{said} lands on a pair of another colour and goes back home")
        elif to == "start":
            parts.append(f"{said} comes out onto its starting space")
        else:
            parts.append(f"{said} moves to {place_words(pawn, to)}")
    bumped = sorted(p for p in before if p not in movers and before[p] != "home" and after.get(p) == "home")
    if bumped:
        parts[-1] += f" and bumps {' and '.join(pawn_of(state, p, player) for p in bumped)} home"
    return ", ".join(parts) if parts else "no pawn moves"


def choice_words(state: RaceState, action: Play, after: Mapping[str, str], tapped: str | None = None) -> str:
    """A play offered for a tapped pawn, as a sentence to choose: "Play the 8: Ada's yellow pawn 1
    from T12 to T20", "Play the start card: Ada's yellow pawn 1 out to the yellow starting space",
    with whom it bumps. ``after``: where the pawns end; ``tapped``: the pawn tapped, said first."""
    before = state.where
    if action.swap is not None:
        a, b = action.swap if tapped != action.swap[1] else action.swap[::-1]
        return (f"Play the swap card: {pawn_name(state, a)} on {place_words(a, before.get(a, '?'))} and "
                f"{pawn_name(state, b)} on {place_words(b, before.get(b, '?'))} change places")
    said = []
    for step in action.steps:
        pawn, to = step.pawn, place_words(step.pawn, after.get(step.pawn, "home"))
        if step.how == "start":
            said.append(f"{pawn_name(state, pawn)} out to {to}")
            continue
        back = " back" if int(step.how) < 0 else ""
        start = place_words(pawn, before.get(pawn, "home"))
        if to == "home":  # it lands on a pair of another colour and goes home itself
            said.append(f"{pawn_name(state, pawn)} from {start} onto a pair of another colour, and back home")
        else:
            said.append(f"{pawn_name(state, pawn)} from {start}{back} to {to}")
    movers = {s.pawn for s in action.steps}
    bumped = sorted(p for p in before if p not in movers and before[p] != "home" and after.get(p) == "home")
    bumps = f", bumping {' and '.join(pawn_name(state, p) for p in bumped)} home" if bumped else ""
    return f"Play {card_name(action.card)}: {', '.join(said)}{bumps}"


def play_words(state: RaceState, action: Action, after: Mapping[str, str] | None) -> str:
    """One action as a sentence for the log and the questions (``after``: where the pawns end, or
    None when that is not known: the play is said without its bumps)."""
    before = state.where
    if isinstance(action, Fold):
        return f"{name_of(state, action.colour)} folds and gives up the rest of this deal"
    if isinstance(action, Correct):
        moved = [f"the card on the spot from {a} to {b}" if p == "card" else
                 f"{pawn_name(state, p)} from {place_words(p, a)} to {place_words(p, b)}" for p, a, b in action.moves]
        return "The table was corrected by hand: " + "; ".join(moved)
    who, card = name_of(state, action.colour), action.card
    if action.swap is not None:
        a, b = action.swap
        return (f"{who} plays the swap card: {pawn_of(state, a, action.colour)} and {pawn_of(state, b, action.colour)} "
                f"change places (to {place_words(a, before.get(b, '?'))} and {place_words(b, before.get(a, '?'))})")
    movers = tuple(dict.fromkeys(s.pawn for s in action.steps))
    if after is None:
        said = ", ".join(f"{pawn_of(state, s.pawn, action.colour)} comes out" if s.how == "start" else
                         f"{pawn_of(state, s.pawn, action.colour)} moves {abs(int(s.how))} "
                         f"{'back' if int(s.how) < 0 else 'forward'}" for s in action.steps)
        return f"{who} plays {card_words(card)}: {said}"
    return f"{who} plays {card_words(card)}: {changes(state, action.colour, after, movers)}"


# The log in words needs where the pawns stood before each play (a bump is not in the notation), so
# the history is replayed from the first deal. A page asks after every change: the last replay is
# kept and extended by the newest action instead of replaying the whole game each time.
_REPLAYED: dict[tuple[object, ...], tuple[RaceState, tuple[str, ...]]] = {}


def log_lines(state: RaceState) -> list[str]:
    """Every logged action of ``state`` as a sentence, oldest first. A history that does not replay
    from a new game (a state resumed from a saved position) is said without its bumps."""
    head = (state.seed, state.names, state.board)
    known = _REPLAYED.get((*head, state.history))
    if known is not None and dict(known[0].where) == dict(state.where):
        return list(known[1])
    done = _REPLAYED.get((*head, state.history[:-1])) if state.history else None
    try:
        if done is not None:
            now, said = done
            todo = state.history[-1:]
        else:
            now, said, todo = rules.new_race(state.seed, state.names, state.seed % 4, state.board), (), state.history
        for text in todo:
            action = rules.parse_action(text)
            after = rules.apply(now, action)
            said, now = (*said, play_words(now, action, after.where)), after
        if dict(now.where) != dict(state.where):
            raise ValueError("the history does not lead to this position")
    except (FogCompanionError, ValueError):  # a history that does not replay is said action by action
        return [_plain(state, text) for text in state.history]
    if len(_REPLAYED) > 8:
        _REPLAYED.clear()
    _REPLAYED[(*head, state.history)] = (now, said)
    return list(said)


def _plain(state: RaceState, text: str) -> str:
    """One logged action in words without the position before it (no bumps said)."""
    try:
        return play_words(state, rules.parse_action(text), None)
    except (FogCompanionError, ValueError):  # an action that does not parse is shown as it was logged
        return text
