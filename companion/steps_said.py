"""What the hands still have to do on the table after a change entered on the panel or undone, in
the game's words: the calm step the session says until the table shows the change.

Kept apart from :mod:`companion.sync` (which compares the table with the game) since how a step is
said grows with the games: pieces turned, pieces of a pile said once with their count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.sync import Misplaced


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
    return f"{by}, now on the table: " + "; ".join(said[:4]) + (f" (and {len(said) - 4} more)" if len(said) > 4 else "")
