"""Desert survivors on the table: what the camera should see, the correction, and the words the
session says of pieces, none of which may give away a face-down piece.

Every disc and X-counter carries a marker on each face, so a picture names every piece where it
lies with the face that is up (``natural-1^back``, ``x10^front``), and so does the expected
picture. What a picture means is read by the framework with the desert's hints (``reading.py``);
the helpers it shares with the table live here: a picture's places and faces, the spaces an
action names, an action and a piece in public words (a face-down piece by its colour or as an
X-counter, never by what it hides), and the steps of laying a new round out.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.errors import IllegalMoveError
from companion.games.base import Reconciliation, faced, unfaced
from companion.games.desert_survivors import laying as drawing
from companion.games.desert_survivors.actions import Action, Correct
from companion.games.desert_survivors.board import coords
from companion.games.desert_survivors.layout import BACK, FRONT
from companion.games.desert_survivors.pieces import (colour_of, discs_of, is_disc, is_monkey, number, x_food, x_ids,
                                                     x_kind)
from companion.games.desert_survivors.state import DesertState

Picture = dict[str, tuple[str, ...]]


def face(state: DesertState, piece: str) -> str:
    """The face the rules have up."""
    return FRONT if piece in state.face_up else BACK


def expected(state: DesertState) -> Picture:
    """Every piece on the desert, by its space, with the face the rules have up (discs not yet placed
    and eaten characters are off it, X-counters beside the desert are in a pile the camera does not count)."""
    return {where: (faced(piece, face(state, piece)),) for where, piece in sorted(state.board.items())}


def taken_off(state: DesertState) -> tuple[str, ...]:
    """Pieces the rules took off the desert for good that hands may still have on it: the characters
    eaten (in a fight or a sacrifice) and the food counters taken. Taking them away is a chore the
    panel lists, not a disagreement (the roads of a round go back to the pile, which may lay one again)."""
    beside = set(state.mix) | {x for stack in state.stacks for x in stack} | set(state.board.values())
    return tuple(sorted(state.dead)) + tuple(x for x in x_ids(len(state.groups)) if x not in beside)


def round_begun(state: DesertState) -> bool:
    """The rules have just scored a round and laid out the next (every disc face down, the roads off,
    X-counters from the pile on the empty spaces), and nothing of the new round is played yet."""
    last = state.history[-1].split()[0] if state.history else ""
    return bool(state.dealt) or (state.phase == "move" and state.round > 1 and
                                 last not in ("swap", "reveal", "end", "correct"))


def laying_out(state: DesertState, full: Picture) -> Reconciliation | None:
    """A picture on the way to the new round's desert: every disc where the game has it (either face
    up), X-counters still to take off, to lay or to turn. A calm step saying what is left, in public
    words (an X-counter to lay is named by its space only); None when a disc moved."""
    want, seen, shown = places(expected(state)), places(full), faces_up(full)
    if any(is_disc(p) and want.get(p) != c for p, c in seen.items()):
        return None
    off = sorted((c, p) for p, c in seen.items() if p not in want)
    down = sorted((c, p) for p, c in want.items()
                  if seen.get(p) == c and shown.get(p, face(state, p)) != face(state, p))
    lay = sorted((c, p) for p, c in want.items() if seen.get(p) != c)
    todo = [f"take the {x_kind(p) if shown.get(p) == FRONT else 'X-counter'} off {c}" for c, p in off]
    todo += [f"turn face down the {colour_of(p) + ' disc' if is_disc(p) else 'X-counter'} on {c}" for c, p in down]
    todo += [f"lay a face-down X-counter on {c}" for c, p in lay if c not in state.dealt]
    empty = sum(c in state.dealt for c, _ in lay)
    todo += [drawing.counting(state, len(state.dealt) - empty)] if empty else []
    if not todo:
        return None
    more = f" (and {len(todo) - 4} more)" if len(todo) > 4 else ""
    begins = (f"round {state.round} begins: turn every disc face down, take the roads off and lay X-counters on "
              "the empty spaces") if state.round > 1 else "every disc is placed"
    return Reconciliation.partial(f"{begins}: {'; '.join(todo[:4])}{more}",
                                  tuple(p for _, p in off + down + lay), tokens=len(off + down + lay))


def canonical(seen: Mapping[str, Sequence[str]]) -> Picture:
    return {cell: tuple(sorted(ps)) for cell, ps in seen.items() if ps}


def places(picture: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Piece -> its space, whichever face is up."""
    return {unfaced(p)[0]: cell for cell, ps in picture.items() for p in ps}


def faces_up(picture: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Piece -> the face the picture shows up (a piece named without one: not read)."""
    return {piece: up for piece, up in (unfaced(p) for ps in picture.values() for p in ps) if up}


def spots(picture: Mapping[str, Sequence[str]]) -> Picture:
    """The picture without faces: where each piece lies."""
    return canonical({cell: [unfaced(p)[0] for p in ps] for cell, ps in picture.items()})


def spaces_named(action: Action) -> set[str]:
    """The spaces an action's text names (a placement, a swap, a take): the cells it can change."""
    out = set()
    for word in str(action).split()[1:]:
        try:
            coords(word)
        except Exception:  # noqa: BLE001 - a disc, a seat or a count: not a space
            continue
        out.add(word)
    return out


def said(state: DesertState, piece: str) -> str:
    """A piece as the whole table may hear it named: a face-down disc by its colour and space, a
    face-down counter by its space, a face-up piece by what it shows."""
    at = {p: w for w, p in state.board.items()}.get(piece)
    on = f" on {at}" if at else ""
    if is_disc(piece):
        if at is None:
            return f"{colour_of(piece)} {number(piece)} (eaten)" if piece in state.dead else \
                f"a {colour_of(piece)} disc not placed yet"
        if piece not in state.face_up:
            return f"the face-down {colour_of(piece)} disc{on}"
        return f"{colour_of(piece)} {'monkey' if is_monkey(piece) else number(piece)}{on}"
    if at is None:
        return "a face-down X-counter from the pile"
    if piece not in state.face_up:
        return f"the X-counter{on}"
    kind = x_kind(piece)
    return f"the {'food ' + str(x_food(piece)) + ' counter' if kind == 'food' else kind}{on}"


def words(state: DesertState, cells: Mapping[str, str]) -> dict[str, str]:
    """Every piece and place as players may hear it (``cells``: each place's label), and which way up
    a face is ("^back": a piece turned face down). A counter just dealt is any the hands draw from the
    pile, so the steps that lay them say them alike, once with their count ("put a face-down X-counter
    from the pile on each of D4, E2 and F1 (3 in all)")."""
    pieces = [d for g in state.groups for d in discs_of(g)] + list(x_ids(len(state.groups)))
    drawn = {state.board[w] for w in state.dealt if w in state.board and state.board[w] not in state.face_up}
    return {**dict(cells), **{p: "a face-down X-counter from the pile" if p in drawn else said(state, p)
                              for p in pieces}, f"^{BACK}": "face down", f"^{FRONT}": "face up"}


def summary(state: DesertState, action: Action) -> str:
    """An action in public words: the spaces it names, never what lies face down on them."""
    text = str(action)
    verb, *args = text.split()
    if verb == "place":
        return f"{state.active} places a {colour_of(args[0])} disc face down on {args[1]}"
    if verb == "swap":
        return f"{said(state, state.board[args[0]])} changes places with {said(state, state.board[args[1]])}"
    if verb in ("take", "sacrifice"):
        return f"{said(state, state.board[args[-1]])} is {'taken' if verb == 'take' else 'eaten'}"
    return text


def correction(state: DesertState, seen: Mapping[str, Sequence[str]]) -> Correct:
    """The table as seen, as the players' correction: each piece of the desert on the space it is seen
    on; a piece not seen stays where the game has it, or, when another is seen there, takes the space
    a moved piece left (the two changed places, the one underneath unseen). A face-down X-counter
    drawn from the pile and laid where the game has one of its own face down takes its place (the
    game's goes back to the pile, :func:`rules.apply` checks the exchange)."""
    picture, faces = spots(seen), faces_up(seen)
    drawn = {p for p in places(picture) if p in state.mix and faces.get(p, BACK) == BACK}
    placed = {p: c for p, c in places(picture).items() if p in state.board.values() or p in drawn}
    taken = set(placed.values())
    pushed = []
    for where, piece in sorted(state.board.items()):
        if piece not in placed:
            if where in taken:
                pushed.append(piece)
            else:
                placed[piece] = where
                taken.add(where)
    left = [w for w in sorted(state.board) if w not in taken]
    placed.update(zip(pushed, left, strict=False))
    if len(set(placed.values())) != len(placed) or len(placed) != len(state.board):
        raise IllegalMoveError("a correction puts one piece on each space and every piece of the desert somewhere")
    return Correct(tuple(sorted((c, p) for p, c in placed.items())))
