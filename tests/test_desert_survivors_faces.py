"""Desert survivors' two-faced pieces at the simulated table: the camera reads which face is up.

Each disc and X-counter carries a marker on its front and another on its back. The simulated table
draws the face up, the Table page's turn over shows the other one, and the camera's picture names
every piece with the face it sees, so a disc turned face up by hand is the reveal the rules read.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.games import get_game
from companion.games.desert_survivors.pieces import size
from vision.detect import BoardDetector
from vision.facing import placement
from vision.sources import SimulatedTable

GAME = get_game("desert-survivors")


def test_a_disc_turned_over_on_the_table_is_seen_by_its_front_and_read_as_the_reveal():
    s = GAME.new_game(3, arrangement="beginner")
    s = replace(s, board=MappingProxyType({"B3": "natural-1", "B4": "x10", "C3": "green-2", "H1": "green-3"}),
                face_up=frozenset(), food=MappingProxyType({c: size(c) for c in s.food}), spare=(0, 0, 0),
                phase="move", turn=0)
    layout = GAME.layout(s)
    table = SimulatedTable(layout, GAME.expected(s), clean=True)
    table.open()
    camera = BoardDetector(layout)

    def picture() -> dict[str, tuple[str, ...]]:
        seen = camera.detect(table.read())
        return placement(seen.pieces, seen.facing)

    # laid face down, every piece is seen by the marker on its back: the table is as the game has it
    assert picture() == GAME.expected(s)

    # a hand turns natural's disc over (the Table page's turn over): the camera sees its front
    table.turn_over("natural-1")
    assert table.placement()["B3"] == ("natural-1^front",)
    seen = picture()
    assert seen["B3"] == ("natural-1^front",) and seen["C3"] == ("green-2^back",)
    assert [c.actions for c in GAME.reconcile(s, seen).choices] == [("reveal B3",)]
    after = GAME.apply(s, "reveal B3")
    assert picture() == GAME.expected(after)

    # turned over again it shows its back, which the rules no longer have up: the hands owe the flip
    table.turn_over("natural-1")
    owed = GAME.reconcile(after, picture())
    assert owed.part_way and owed.to_move == ("natural-1",) and owed.step == "turn face up natural 1 on B3"


def test_a_disc_turned_up_on_the_board_page_is_read_once_the_table_page_places_the_pieces(tmp_path):
    """Ada turns her disc on D1 face up on the Board page; the hands then make it with the Table page's
    "Place the pieces as the game expects". Turning a disc over where it lies changes only its marker,
    fewer pixels than the camera's motion check takes for a move (on D1 at this simulated table), and
    the table's hands are never seen: the camera must still read the front, and the move settle calm,
    never red after the part-way hold."""
    import json

    from companion.app.run import Companion
    from tests.tables import sim_config, wait_for
    from web_ui import create_app

    start = GAME.new_game(players=3, seed=3)  # the discs placed and the X-counters laid, round 1 begins
    while start.phase != "move":
        start = GAME.apply(start, GAME.legal_actions(start)[0])
        while (forced := GAME.forced_action(start)) is not None:
            start = GAME.apply(start, forced)
    companion = Companion(sim_config(tmp_path, **{"game.name": "desert-survivors"}), lambda: start)
    kinds: list[str] = []
    watcher = companion.session.bus.subscribe(lambda e: kinds.append(e.kind))
    companion.start(panel=False)
    try:
        client, session = create_app(companion).test_client(), companion.session

        def post(path: str, body: object = None) -> Any:
            res = client.post(path, data=json.dumps(body or {}), headers={"Content-Type": "application/json"})
            assert res.status_code == 200, res.get_json()
            return res

        def calm() -> bool:
            st = session.status
            return not st.verifying and st.step is None and st.out_of_sync is None and not st.decision

        post("/api/table/setup")  # laid out as the game has it
        assert wait_for(calm, 60), session.status
        post("/api/act", {"action": "reveal D1"})  # tapped on the Board page: the hands have it to make
        post("/api/table/setup")
        assert wait_for(lambda: calm() and (session.last_picture or {}).get("D1") == ("natural-1^front",), 60), \
            ((session.last_picture or {}).get("D1"), session.status.step, session.status.out_of_sync)
        assert "out-of-sync" not in kinds, kinds
    finally:
        watcher.close()
        companion.stop()
