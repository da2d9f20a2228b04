"""What the hands still have to do on the table after a change entered on the panel or undone, in
the game's words: the calm step the session says until the table shows the change.

Kept apart from :mod:`companion.table.sync` (which compares the table with the game) since how a step is
said grows with the games: pieces turned, pieces of a pile said once with their count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Misplaced:
    """One piece where the game and the camera disagree: where it belongs and where it is seen.

    Defined here, below :mod:`companion.table.sync` (which finds them and re-exports this name), since how a
    step is said reads them: the two modules import each other no more."""

    piece: str
    belongs: str | None   # the cell the game has it on (None: off the board)
    seen: str | None      # the cell the camera sees it on (None: not seen)
    # a piece that faces a way (Layout.facings), seen turned: (the way the game has it, the way seen)
    facing: tuple[str, str] | None = None
    # a look-alike piece (Game.alike): the first id of its kind. The rules count such pieces per place,
    # so this is one of that kind too many on ``seen`` and missing on ``belongs`` (one of them None
    # unless exactly one of the kind is out of place), never one particular piece
    kind: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.piece, "belongs": self.belongs, "seen": self.seen,
                **({"facing": list(self.facing)} if self.facing else {}), **({"alike": True} if self.kind else {})}


def _on(cell: str | None, words: Mapping[str, str]) -> str:
    return f"on {words.get(cell, cell)}" if cell else "off the board"


def named_on(name: str, cell: str | None, words: Mapping[str, str]) -> str:
    """A piece and its place, the place said once when the game's name for the piece already says it
    ("the X-counter on E2")."""
    on = _on(cell, words)
    return name if cell and name.endswith(f" {on}") else f"{name} {on}"


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def to_follow(pieces: Sequence[Misplaced], words: Mapping[str, str], by: str = "entered on the panel") -> str:
    """What the hands have left to do after a move entered on the panel (or undone: ``by``), in the
    game's words. A piece seen in its place the wrong way is turned (``words`` may name a face or way
    under ``^`` and its name: "^back": "face down"), the pieces to turn the same way said in one go.
    Pieces the game names alike that come to the table or leave it (counters of a pile) are said once
    with their places and count, never once each: a new round's many tokens fit in a few words."""
    groups: dict[tuple[str, str], list[str]] = {}  # (what to do, to what) -> the places or pieces, in order
    for m in pieces:
        name = words.get(m.piece, m.piece)
        if m.seen and not m.belongs:
            groups.setdefault(("take", name), []).append(words.get(m.seen, m.seen))
        elif m.facing and m.seen == m.belongs:
            way = words.get(f"^{m.facing[0]}", f"to face {m.facing[0]}")
            groups.setdefault(("turn", way), []).append(named_on(name, m.belongs, words))
        elif m.seen is None and m.belongs:
            groups.setdefault(("put", name), []).append(m.belongs)
        else:  # moved, and turned with it: the way it ends facing is part of the move ("facing east")
            way = f" {words.get(f'^{m.facing[0]}', f'to face {m.facing[0]}')}" if m.facing else ""
            groups.setdefault(("put " + named_on(name, m.belongs, words) + way, ""), [])
    said: list[str] = []
    for (verb, what), items in groups.items():
        if verb == "turn":
            said.append(f"turn {items[0]} {what}" if len(items) == 1 else
                        f"turn {what}: {_listed(items)} ({len(items)} in all)")
        elif verb == "take":
            said.append(f"take {what} off {items[0]}" if len(items) == 1 else
                        f"take {what} off each of {_listed(sorted(items))} ({len(items)} in all)")
        elif verb == "put":
            said.append(f"put {named_on(what, items[0], words)}" if len(items) == 1 else
                        f"put {what} on each of {_listed(sorted(words.get(c, c) for c in items))} "
                        f"({len(items)} in all)")
        else:
            said.append(verb)
    return f"{by}{NOW} " + "; ".join(said[:4]) + (f" (and {len(said) - 4} more)" if len(said) > 4 else "")


NOW = ", now on the table:"  # between what made a change and what the hands still do for it (to_follow)


def make_it(says: str) -> str:
    """A change no hand has begun yet, said as the call to make it ("Make it on the table: put …
    (entered on the panel)"), from :func:`to_follow`'s words: nobody is late, the players are asked."""
    by, _, todo = says.partition(NOW)
    return f"Make it on the table: {todo.strip()} ({by})" if todo else says


def _alike_said(m: Misplaced, words: Mapping[str, str]) -> str:
    """A look-alike piece out of place, by kind and place: no particular one of them is meant."""
    name = words.get(m.piece, m.piece)
    if m.seen and m.belongs:
        return f"{name} {_on(m.seen, words)} where the game has one {_on(m.belongs, words)}"
    return f"{name} {_on(m.seen, words)} that the game does not have" if m.seen else \
        f"{name} missing from {words.get(str(m.belongs), m.belongs)}"


def disagreement(pieces: Sequence[Misplaced], after: str, words: Mapping[str, str]) -> str:
    """The out-of-sync reason for pieces found where the game does not have them after a change,
    pieces and places in the game's words (``words``: :meth:`Game.words`), an id only where it has none.
    A piece the camera sees nowhere is said as lost where the game has it, with the question that
    finds it (a tall piece or a hand covers a marker as often as a piece is lifted)."""
    shown = pieces[:4]
    lost = [m for m in shown if m.seen is None and m.belongs is not None and not m.facing]
    parts = [_alike_said(m, words) if m.kind else
             f"{words.get(m.piece, m.piece)} {_on(m.seen, words)} where the game has it {_on(m.belongs, words)}"
             if not m.facing or m.seen != m.belongs else
             f"{named_on(words.get(m.piece, m.piece), m.seen, words)} facing {m.facing[1]} where the game has it "
             f"facing {m.facing[0]}" for m in shown if m not in lost]
    said = ["the camera sees " + "; ".join(parts)] if parts else []
    if lost:
        said.append("the camera no longer sees " + " and ".join(
            f"{words.get(m.piece, m.piece)} on {words.get(str(m.belongs), m.belongs)}" for m in lost) +
            f" - is something covering {'it' if len(lost) == 1 else 'them'}?")
    return "; ".join(said) + (f" (and {len(pieces) - 4} more)" if len(pieces) > 4 else "") + (
        f" (checked after {after})")
