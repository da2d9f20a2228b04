"""Desert survivors on the table: what the camera should see, what a picture of it means, and the
words the session says of pieces, none of which may give away a face-down piece.

Every disc and X-counter carries a marker on each face, so a picture names every piece where it
lies with the face that is up (``natural-1^back``, ``x10^front``), and so does the expected
picture. A turn is read as the one rules action that turns the table as the game has it into the
picture (a swap, a reveal - a disc turned face up -, a disc placed, a food counter taken, a
character eaten). A swap whose pieces the rules turn up is read once the hands turned them up:
seen with them still face down it is a calm step saying what to turn ("turn face up green 2 on
D6"), read as it is only past the hold time (the faces then owed are a step too). A face
shown that the rules keep down is a disagreement said in public words (the space and the back's
colour, never what the face shows). A hand makes a swap in parts (one piece lifted, put beside the
other, the other moved over): a picture on the way is a step, and the players are told what is
left to do in words that name only what the table shows (a colour, an X-counter, a space).

Pure: standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from companion.errors import IllegalMoveError
from companion.games.base import Choice, Reconciliation, faced, unfaced
from companion.games.desert_survivors import laying as drawing
from companion.games.desert_survivors import rules
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


def _round_begun(state: DesertState) -> bool:
    """The rules have just scored a round and laid out the next (every disc face down, the roads off,
    X-counters from the pile on the empty spaces), and nothing of the new round is played yet."""
    last = state.history[-1].split()[0] if state.history else ""
    return bool(state.dealt) or (state.phase == "move" and state.round > 1 and
                                 last not in ("swap", "reveal", "end", "correct"))


def _laying_out(state: DesertState, full: Picture) -> Reconciliation | None:
    """A picture on the way to the new round's desert: every disc where the game has it (either face
    up), X-counters still to take off, to lay or to turn. A calm step saying what is left, in public
    words (an X-counter to lay is named by its space only); None when a disc moved."""
    want, seen, shown = _where(expected(state)), _where(full), _faces(full)
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


def _canonical(seen: Mapping[str, Sequence[str]]) -> Picture:
    return {cell: tuple(sorted(ps)) for cell, ps in seen.items() if ps}


def _where(picture: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Piece -> its space, whichever face is up."""
    return {unfaced(p)[0]: cell for cell, ps in picture.items() for p in ps}


def _faces(picture: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Piece -> the face the picture shows up (a piece named without one: not read)."""
    return {piece: up for piece, up in (unfaced(p) for ps in picture.values() for p in ps) if up}


def _spots(picture: Mapping[str, Sequence[str]]) -> Picture:
    """The picture without faces: where each piece lies."""
    return _canonical({cell: [unfaced(p)[0] for p in ps] for cell, ps in picture.items()})


def _faces_fit(seen: Mapping[str, str], before: DesertState, after: DesertState, moved: set[str]) -> bool:
    """Does each face seen fit ``after``: the face the rules have up, or a back still shown where the
    rules have just turned a moved piece up, or had it up already (the hands have yet to turn it)."""
    for piece, up in seen.items():
        want = face(after, piece)
        if up != want and not (up == BACK and want == FRONT and (piece in moved or face(before, piece) == FRONT)):
            return False
    return True


def _owed(state: DesertState, picture: Mapping[str, Sequence[str]]) -> list[str]:
    """The pieces the picture shows face down that the rules have face up (the flip a swap demands)."""
    return sorted(p for p, up in _faces(picture).items() if up == BACK and face(state, p) == FRONT)


def _too_early(state: DesertState, picture: Mapping[str, Sequence[str]]) -> list[str]:
    """The pieces the picture shows face up that the rules keep face down."""
    return sorted(p for p, up in _faces(picture).items() if up == FRONT and face(state, p) == BACK)


def _spaces_named(action: Action) -> set[str]:
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


def _summary(state: DesertState, action: Action) -> str:
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


def _state_key(state: DesertState) -> str:
    return json.dumps(rules.to_json(state), sort_keys=True)


def reconcile(state: DesertState, seen: Mapping[str, Sequence[str]]) -> Reconciliation:
    """The legal action that turns the table into the picture, a step on the way to one, or why none can."""
    full, lay, _ = drawing.relabel(state, _canonical(seen))  # the counters the hands drew, taken as the deal's
    first = (str(lay),) if lay is not None else ()
    now = expected(state)
    before, picture, shown = _spots(now), _spots(full), _faces(full)
    changed = {c for c in set(full) | set(now) if full.get(c) != now.get(c)}
    was = _where(before)  # asked of every legal action tried: read once
    if not changed:
        if first:
            return Reconciliation((Choice(first, drawing.LAID),))
        return Reconciliation.illegal("the table is as the game has it: nothing was moved")
    if picture == before and not _too_early(state, full) and _owed(state, full):
        owed = _owed(state, full)  # a swap read before its pieces were turned up: the rules show them
        return Reconciliation.partial("turn face up " + "; ".join(said(state, p) for p in owed), owed, "reveal")
    choices: dict[str, Choice] = {}
    owing: dict[str, tuple[Choice, list[str], DesertState]] = {}  # readings the hands still owe a flip of
    steps: list[tuple[str, tuple[str, ...], int]] = []
    for action in rules.legal_actions(state):
        named = _spaces_named(action)
        if named and not named & changed:
            continue  # it changes nothing where the picture differs (a fight's show names no space)
        after = rules.apply(state, action)
        pic, faces, then = picture, shown, tuple[str, ...]()
        if after.dealt and not state.dealt:  # the move deals X-counters: the hands lay whichever they draw
            drawn, laid, _ = drawing.relabel(after, full)
            pic, faces, then = _spots(drawn), _faces(drawn), (str(laid),) if laid is not None else ()
        target = _spots(expected(after))
        shifted = {p for p, c in _where(target).items() if was.get(p) != c}
        if target == pic and _faces_fit(faces, state, after, shifted):
            reading = Choice(first + (str(action),) + then, _summary(state, action))
            owed = sorted(p for p, up in faces.items() if up == BACK and face(after, p) == FRONT)
            if owed:
                owing.setdefault(_state_key(after), (reading, owed, after))
            else:
                choices.setdefault(_state_key(after), reading)
        elif target != pic and pic != before:  # a face alone turned is no step of a move
            left = _left_to_do(before, target, pic)
            if left:
                todo, tokens = drawing.to_lay(after, left, lambda p, c: _put(state, p, c))
                steps.append((f"{_summary(state, action)}: {todo}", tuple(p for p, _ in left), tokens))
    if choices:
        out = tuple(choices.values())
        return Reconciliation(out, question="Which was played?" if len(out) > 1 else None)
    if owing:  # the move made, the faces it shows not turned up yet: calm, read once they are (or past the hold)
        readings = tuple(c for c, _, _ in owing.values())
        (reading, owed, after), *_ = owing.values()
        flip = "turn face up " + "; ".join(said(after, p) for p in owed)
        return Reconciliation(readings, question="Which was played?" if len(readings) > 1 else None,
                              step=f"{reading.summary}: {flip}" if len(readings) == 1 else
                              "turn face up the pieces the move shows",
                              to_move=tuple(owed))
    laying = _laying_out(state, full) if _round_begun(state) else None
    if laying is not None:
        return laying
    if len(steps) == 1:
        return Reconciliation.partial(steps[0][0], steps[0][1], tokens=steps[0][2])
    where = _where(picture)
    if steps:  # a piece lifted that could go to several places: the rest of the move will say which
        held = sorted(p for p in was if p not in where)
        return Reconciliation.partial(f"{state.active} is moving: put the pieces in hand where they go", held)
    moved = sorted(p for p, c in where.items() if was.get(p) != c)
    gone = sorted(p for p in was if p not in where)
    early: list[str] = [p for p in _too_early(state, full) if p not in moved]
    if early and not moved and not gone:  # a face shown that no move of this turn reveals
        return Reconciliation.illegal(
            f"{'; '.join(said(state, p) + ' is turned face up' for p in early[:4])}, and no move of {state.active}'s "
            "reveals it now: turn it face down again", tuple(early), "reveal")
    what = [f"{said(state, p)} is on {_where(picture)[p]}" for p in moved] + \
        [f"{said(state, p)} is turned face up" for p in early] + [f"{said(state, p)} is not seen" for p in gone]
    return Reconciliation.illegal(f"no move of {state.active}'s leaves the desert so: {'; '.join(what[:4])}",
                                  tuple(moved + early + gone), "movement")


def _left_to_do(before: Picture, after: Picture, seen: Picture) -> list[tuple[str, str]]:
    """The pieces still to put where an action puts them, when ``seen`` is part-way from ``before``
    to ``after`` (each piece where it was, where it goes, or in a hand); empty when it is not."""
    was, goes, now = _where(before), _where(after), _where(seen)
    moving = {p for p in set(was) | set(goes) if was.get(p) != goes.get(p)}
    for piece, cell in now.items():
        if cell not in (was.get(piece), goes.get(piece)):
            return []
    if any(p not in now for p in was if p not in moving):
        return []
    return sorted((p, goes[p]) for p in moving if p in goes and now.get(p) != goes[p])


def _put(state: DesertState, piece: str, cell: str) -> str:
    if piece in state.mix:  # one of the pile, whichever the hand draws
        return f"lay a face-down X-counter on {cell}"
    return f"put {said(state, piece)} on {cell}"


def correction(state: DesertState, seen: Mapping[str, Sequence[str]]) -> Correct:
    """The table as seen, as the players' correction: each piece of the desert on the space it is seen
    on; a piece not seen stays where the game has it, or, when another is seen there, takes the space
    a moved piece left (the two changed places, the one underneath unseen). A face-down X-counter
    drawn from the pile and laid where the game has one of its own face down takes its place (the
    game's goes back to the pile, :func:`rules.apply` checks the exchange)."""
    picture, faces = _spots(seen), _faces(seen)
    drawn = {p for p in _where(picture) if p in state.mix and faces.get(p, BACK) == BACK}
    placed = {p: c for p, c in _where(picture).items() if p in state.board.values() or p in drawn}
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
