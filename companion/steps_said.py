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


def _named_on(name: str, cell: str | None, words: Mapping[str, str]) -> str:
    """A piece and its place, the place said once when the game's name for the piece already says it
    ("the X-counter on E2")."""
    on = _on(cell, words)
    return name if cell and name.endswith(f" {on}") else f"{name} {on}"


def to_follow(pieces: Sequence[Misplaced], words: Mapping[str, str], by: str = "entered on the panel") -> str:
    """What the hands have left to do after a move entered on the panel (or undone: ``by``), in the
    game's words. A piece seen in its place the wrong way is turned (``words`` may name a face or way
    under ``^`` and its name: "^back": "face down"). Pieces the game names alike that come to the
    table or leave it (counters of a pile) are said once with their places and count, never once each."""
    todo: list[tuple[str, str, str | None]] = []  # (what to do, the name, the place) in the pieces' order
    for m in pieces:
        name = words.get(m.piece, m.piece)
        if m.seen and not m.belongs:
            todo.append(("take", name, m.seen))
        elif m.facing and m.seen == m.belongs:
            way = words.get(f"^{m.facing[0]}", f"to face {m.facing[0]}")
            todo.append((f"turn {_named_on(name, m.belongs, words)} {way}", name, None))
        elif m.seen is None:
            todo.append(("put", name, m.belongs))
        else:
            todo.append((f"put {_named_on(name, m.belongs, words)}", name, None))
    places: dict[tuple[str, str], list[str]] = {}
    for verb, name, cell in todo:
        if cell is not None:
            places.setdefault((verb, name), []).append(cell)
    said: list[str] = []
    for verb, name, cell in todo:
        if cell is None:
            said.append(verb)
            continue
        where = places.pop((verb, name), None)
        if where is None:  # said with the first of its kind
            continue
        labels = [words.get(c, c) for c in where] if len(where) == 1 else sorted(words.get(c, c) for c in where)
        if len(where) == 1:
            said.append(f"take {name} off {labels[0]}" if verb == "take" else f"put {_named_on(name, cell, words)}")
        else:
            said.append(f"{verb} {name} {'off' if verb == 'take' else 'on'} each of {', '.join(labels[:-1])} and "
                        f"{labels[-1]} ({len(where)} in all)")
    return f"{by}, now on the table: " + "; ".join(said[:4]) + (f" (and {len(said) - 4} more)" if len(said) > 4 else "")
