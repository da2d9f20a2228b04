"""Never a move nobody made: a reading of a picture is logged only for what the picture shows.

Every game's search reads a picture as the shortest actions that lead from the game to it. When a
piece vanishes from the picture (a tall piece or a hand covers it, the camera lost it) the shortest
such actions can be a move nobody made: the other player's piece stepping onto the covered tile and
back, collecting it, and standing where it stood. The search cannot tell, because it is asked only
which actions lead to the picture; the picture path can, because it knows what the picture shows.
So it is checked here, once, for every game, where each reading enters the session:

* an action that changes the table must show on it: some piece it moves, turns or puts down is seen
  where it goes (more of it there than the game had before the reading). A change the picture does
  not show is an absence only, which a covered piece explains as well as a move;
* an absence may be the action of the player to move (a wall stand lifted off, a counter taken, a
  soldier removed: the rules' own lifts), never another player's (``Game.actor``): their move is
  logged only when the picture shows their pieces moved;
* an absence explained by a move whose own pieces stand still (a piece that went and came back,
  collecting the covered tile on the way) is not read silently: the players are asked, naming the
  piece the camera no longer sees.

A reading that is left with no choice is a disagreement that names the piece the camera lost and
asks whether something covers it; the players' answers (``decide``) and moves entered on the panel
are theirs and are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games import Choice, Game, Reconciliation
from companion.games.base import unfaced
from companion.table.sync import Misplaced, canonical, where_piece, kinds, misplaced, said

Picture = Mapping[str, Sequence[str]]
SHOWN, LIFTED, STILL, UNSHOWN = "shown", "lifted", "still", "unshown"  # what a picture shows of one action
UNFOUND = "the camera does not find"  # how a piece the game has on the table and the picture lacks is said


def lost(game: Game, state: Any, seen: Picture) -> tuple[Misplaced, ...]:
    """The pieces the game has on the table that the picture shows nowhere (covered, or lifted off)."""
    return tuple(m for m in misplaced(canonical(game.table.expected(state)), seen,
                                      kinds(game, state, game.table.expected(state), seen))
                 if m.belongs is not None and m.seen is None and m.facing is None)


def _count(pieces: Sequence[str], ident: str, alike: Mapping[str, str]) -> int:
    return sum((alike.get(p) or p) == ident for p in pieces)


def _shows(m: Misplaced, after: Picture, start: Picture, seen: Picture, alike: Mapping[str, str]) -> bool:
    """Whether the picture shows the change ``m`` an action made (belongs: before it, seen: after it):
    more of the piece (as it faces), or of its look-alike kind, on the place it went than the game had
    there before the reading."""
    if m.seen is None:
        return False
    if m.kind is not None:
        ident = m.kind
    else:
        ident = next((p for p in after.get(m.seen, ()) if unfaced(p)[0] == m.piece), m.piece)
    return _count(seen.get(m.seen, ()), ident, alike) > _count(start.get(m.seen, ()), ident, alike)


def verdicts(game: Game, state: Any, seen: Picture, choice: Choice) -> list[str | None]:
    """What the picture shows of each action of a reading (None: it changes nothing on the table, a
    turn ended): ``SHOWN``; ``LIFTED``: only pieces gone, by the player to move; ``STILL``: pieces
    gone while a piece the action names stands where it stood; ``UNSHOWN``: another player's change
    the picture does not show."""
    start = canonical(game.table.expected(state))
    states = [state]
    for text in choice.actions:
        states.append(game.rules.apply(states[-1], text))
    pictures = [canonical(game.table.expected(s)) for s in states]
    alike = kinds(game, state, seen, *pictures)
    movers: list[str | None] = []  # the player to move, asked only when an action shows nothing (a view costs)

    def mover() -> str | None:
        if not movers:
            movers.append(game.seating.actor(state, game.rules.parse_action(choice.actions[0])))
        return movers[0]
    out: list[str | None] = []
    for text, before, after, here in zip(choice.actions, pictures, pictures[1:], states, strict=False):
        changes = misplaced(before, after, alike)
        if not changes:
            out.append(None)
        elif any(_shows(m, after, start, seen, alike) for m in changes):
            out.append(SHOWN)
        elif mover() is not None and (game.seating.actor(here, game.rules.parse_action(text)) or mover()) != mover():
            out.append(UNSHOWN)
        else:
            was, now = where_piece(before), where_piece(after)
            named = [w for w in re.split(r"[^\w\-]+", str(text)) if w in was and w not in alike]
            out.append(STILL if any(was.get(p) == now.get(p) for p in named) else LIFTED)
    return out


def _said(pieces: Sequence[Misplaced], words: Mapping[str, str]) -> str:
    return " and ".join(f"{words.get(m.piece, m.piece)} on {words.get(str(m.belongs), m.belongs)}" for m in pieces[:3])


def covered(game: Game, state: Any, seen: Picture) -> str:
    """The pieces the camera lost, as a question to the players ("the camera no longer sees the tile
    on G6 - is something covering it?")."""
    gone = lost(game, state, seen)
    if not gone:
        return "the camera does not see the move read"
    return (f"the camera no longer sees {_said(gone, game.panel.words(state))} - is something covering "
            f"{'it' if len(gone) == 1 else 'them'}?")


def _cut(game: Game, state: Any, choice: Choice, end: int) -> Choice:
    """A reading's first ``end`` actions, said as the game's log says them."""
    after = state
    for text in choice.actions[:end]:
        after = game.rules.apply(after, text)
    return Choice(choice.actions[:end], "; ".join(said(game, state, after)) or " ".join(choice.actions[:end]))


def judge(game: Game, state: Any, seen: Picture, answer: Reconciliation) -> Reconciliation:
    """A game's reading of a picture as the session may act on it. Another player's change the picture
    does not show is cut off the reading with all that follows it (the player to move's own part is
    kept, when it shows on the table: the rest of the picture is then a difference the session names);
    a piece the camera lost explained by a move whose own pieces stand still is asked about, naming
    that piece; no reading left is a disagreement naming it. A reading every action of which shows
    (the usual case) is returned as it was."""
    if not answer.choices:
        return answer
    kept: dict[tuple[str, ...], Choice] = {}
    doubt = cut = False
    for choice in answer.choices:
        shows = verdicts(game, state, seen, choice)
        if UNSHOWN in shows:
            cut = True
            end = shows.index(UNSHOWN)
            if not any(shows[:end]):
                continue  # nothing of the player to move's own shows: no reading of theirs
            choice = _cut(game, state, choice, end)
            shows = shows[:end]
        doubt = doubt or STILL in shows
        kept.setdefault(choice.actions, choice)
    if not cut and not doubt:
        return answer
    if not kept:
        return Reconciliation.illegal(f"{covered(game, state, seen)} No move of the player to move leaves the "
                                      "table like this: uncover it, or put back what moved",
                                      [m.piece for m in lost(game, state, seen)], "not-seen")
    question = f"{covered(game, state, seen)} If not, which move was made?" if doubt else answer.question
    return replace(answer, choices=tuple(kept.values()), question=question)


def under_arrivals(game: Game, state: Any, seen: Picture) -> dict[str, tuple[str, ...]] | None:
    """The picture with each piece the camera lost put back on its place when another piece was set down
    there (one the game does not have on that place): covered by it, as a token set on another hides
    it. None when there is none such. A place whose pieces pile or stack (``Cell.facts``) is the game's
    own to read (a sheet laid on the one before replaces it)."""
    expected = canonical(game.table.expected(state))
    alike = kinds(game, state, expected, seen)
    cells = game.table.layout(state).cells
    out = {c: list(ps) for c, ps in seen.items()}
    for m in lost(game, state, seen):
        cell = str(m.belongs)
        facts = cells[cell].facts if cell in cells else {}
        if facts.get("pile") or facts.get("stack"):
            continue
        ident = [alike.get(p) or unfaced(p)[0] for p in expected.get(cell, ())]
        if any((alike.get(p) or unfaced(p)[0]) not in ident for p in seen.get(cell, ())):
            out.setdefault(cell, []).append(next((p for p in expected[cell] if unfaced(p)[0] == m.piece), m.piece))
    picture = canonical(out)
    return None if picture == canonical(seen) else picture


def named_mover(game: Game, state: Any, seen: Picture, answer: Reconciliation) -> Reconciliation:
    """A picture no legal play reaches, said by the piece that moved: when the camera lost a piece on a
    place where another was set down, the piece set down covers it, and the picture is read again with
    the covered one where it lies. The game's reason then names the piece set down (a figure put on
    a driftwood token), not the covered one as moved; anything else keeps the first reason."""
    if answer.ok or answer.part_way:
        return answer
    under = under_arrivals(game, state, seen)
    if under is None:
        return answer
    again = game.table.reconcile(state, under)
    if again.ok or again.part_way or not again.offenders:
        return answer
    gone = {m.piece for m in lost(game, state, seen)}
    return again if set(again.offenders) - gone else answer


# what to try for a piece the camera found but could not place, by the detector's reason (vision/detect.py)
TRY = {"between-directions": "if it stands there, turn it squarely to face one way (the camera reads it turned "
                             "between two)",
       "between-cells": "if it lies there, push it onto its place (the camera reads it between two)"}


def unfound(game: Game, state: Any, seen: Picture, unread: Mapping[str, str] | None = None) -> str:
    """What to try for pieces the game has on the table that the camera has not found (a marker never
    read at that spot, in a hand, or lying there unread), said with the piece and its place; "" if none.
    ``unread``: piece -> why the camera found it but placed it nowhere (turned between two ways), which
    says what to do instead of the usual (move it a little, its sticker, the lamp)."""
    gone = lost(game, state, seen)
    if not gone:
        return ""
    groups: dict[str, list[Misplaced]] = {}
    for m in gone:
        groups.setdefault((unread or {}).get(m.piece, ""), []).append(m)
    words, said = game.panel.words(state), []
    for why, ms in groups.items():
        if why.startswith("off-board "):  # found, beside the board: a stray piece, said where it lies
            said += [f"the camera sees {words.get(m.piece, m.piece)} beside the board, past its {why.split()[-1]} "
                     f"edge: put it back on {words.get(str(m.belongs), m.belongs)}" for m in ms]
            continue
        tip = TRY[why] if why in TRY and len(ms) == 1 else (
            f"if {'it lies' if len(ms) == 1 else 'they lie'} there, move it a little, check that its sticker is "
            "clean and flat, and that no lamp glares on it")
        said.append(f"{UNFOUND} {_said(ms, words)}: {tip}")
    return "; ".join(said)
