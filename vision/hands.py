"""The simulated table's hands: pieces put down, moved, turned over and taken off as players would.

A real table is changed by real hands; the simulated one (:class:`vision.sources.SimulatedTable`) is
changed from the panel's Table page through these. They are a room of their own because what they
must remember is the camera's side of it: a token only turned over where it lies changes nothing but
its marker's pattern, which the camera's motion check can take for noise, so after such a change the
camera is told to look at its next pictures whole (``look_again``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from companion.games.base import faced, unfaced
from vision.sources import SimulatedTable

Placement = dict[str, tuple[str, ...]]


def turned_where_it_lies(before: Mapping[str, Sequence[str]], after: Mapping[str, Sequence[str]],
                         face_down: Collection[str] = ()) -> bool:
    """Does a token of the simulated table lie where it lay with another face or way up, or turned face up
    (``face_down``: those that lay face down before)? Only its marker's pattern changed then."""
    was = {unfaced(p)[0]: (cell, p) for cell, ps in before.items() for p in ps}
    return any(unfaced(p)[0] in was and was[unfaced(p)[0]][0] == cell and
               (was[unfaced(p)[0]][1] != p or unfaced(p)[0] in face_down) for cell, ps in after.items() for p in ps)


class SimulatedHands:
    """Hands at the simulated ``table``; ``look_again`` tells the camera to search its next pictures whole."""

    def __init__(self, table: SimulatedTable, look_again: Callable[[], None]) -> None:
        self.table = table
        self.look_again = look_again

    def move_piece(self, piece: str, cell: str | None, facing: str | None = None) -> None:
        """Move a token as a hand would (``None``: take it off the board); a piece that faces a way
        (Layout.facings) is set down facing ``facing``, else as it faced."""
        before = self.table.placement()
        was = dict(unfaced(p) for ps in before.values() for p in ps)
        placement = {c: [p for p in ps if unfaced(p)[0] != piece] for c, ps in before.items()}
        if cell:
            placement.setdefault(cell, []).append(faced(piece, facing or was.get(piece)))
        self.table.set_placement({c: tuple(ps) for c, ps in placement.items() if ps})
        if turned_where_it_lies(before, self.table.placement()):  # put back where it lay with another face or way up
            self.look_again()

    def turn_over(self, piece: str) -> None:
        """Turn a token over (The FOG took it): its marker disappears, it stays. Nothing but the marker
        changes, so the camera looks at the next pictures whole."""
        self.table.turn_over(piece)
        self.look_again()

    def face_down(self) -> list[str]:
        return self.table.face_down()

    def set_table(self, placement: Mapping[str, Sequence[str]]) -> None:
        """Put every token where ``placement`` says, face up (setting the board up).

        Its hands are never seen: a token only turned over where it lies (a disc the game turned face up)
        changes nothing but its marker's pattern, which the motion check can take for noise and never
        read, so the camera looks at the next pictures whole, as after Turn over (only then: a search of
        the whole picture costs more than one of the places that changed)."""
        before, down = self.table.placement(), self.table.face_down()
        self.table.set_placement(placement, face_up=True)
        if turned_where_it_lies(before, self.table.placement(), down):
            self.look_again()

    def placement(self) -> Placement:
        return dict(self.table.placement())
