"""What the table's parts need of the session: a narrow interface, and the one rule every way in obeys.

The picture path (:mod:`companion.table.picture_path`) and the ways out (:mod:`companion.table.wayout`)
are parts the session owns. They see it only through :class:`Session` below: the game and its state,
the status the pages show, the clock, and the few things only the session may do (log and apply an
action, take the rules' own actions, publish an event). The log, undo and turns stay the session's;
the table cannot reach into them, and the session can be read without the table's parts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from companion.errors import DecisionPendingError, OutOfSyncError
from companion.games import Budget, Game
from companion.table.sync import Picture, Status


class Session(Protocol):
    """The session as the table's parts see it (:class:`companion.session.session.Session` is one)."""

    @property
    def game(self) -> Game: ...
    @property
    def state(self) -> Any: ...
    @property
    def status(self) -> Status: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def step_hold(self) -> float: ...
    @property
    def reading(self) -> Budget:
        """How far one reading of a picture may look (the config's ``game.reading_positions``)."""
    @property
    def version(self) -> int:
        """Changes with every state change: a reading made meanwhile is stale."""

    def expected(self) -> Picture: ...

    def game_in_play(self) -> str:
        """The running game's id; SessionError when none is."""

    def apply(self, action: str) -> None:
        """One action logged (first) and applied."""

    def apply_forced(self) -> None:
        """The actions the rules take by themselves next."""

    def publish(self, kind: str, data: dict[str, Any], seq: int | None = None) -> None: ...


def must_agree(status: Status, last_picture: Picture | None, whole_step_stands: bool = False) -> None:
    """Refuse while the camera disagrees or a reading waits (panel-only play excepted: no camera to ask).

    A play stacked on a table that differs would be checked against pieces the hands never put
    where the game has them, and the next picture would turn red on a legal play: so every way in
    (a button, a tap on the Board page, a seat's phone) waits here, told what to fix first.
    ``whole_step_stands``: a move entered on the panel may follow a step that already shows a whole
    move (one that could have gone on), as End turn may, or a change entered on the panel that the
    hands have still to make (a movement tapped a step at a time, a move then a tile laid: the hands
    make them together, read against the table as they left it); a step the hands left part-way may
    not, nor may a button or End turn follow a change the table does not show yet.
    """
    st = status
    if st.camera_fault is not None or last_picture is None:
        return
    if st.out_of_sync is not None:
        raise OutOfSyncError(f"the table and the game disagree ({st.out_of_sync.reason}): put the pieces back, "
                             "accept the board as it is, or correct a piece first")
    if st.decision:
        raise DecisionPendingError("the last change on the table can be read several ways: say which one "
                                   "happened first")
    if st.step is not None and not (whole_step_stands and (st.step.reading is not None
                                                           or st.step.follow is not None)):
        if st.step.follow is not None:  # entered here, not yet made by the hands: they make it, nothing is put back
            raise OutOfSyncError(f"the table does not show the last change yet ({st.step.says}): make it "
                                 "there first")
        raise OutOfSyncError(f"a move is part-way on the table ({st.step.says}): finish it or put the pieces "
                             "back first")
