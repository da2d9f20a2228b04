"""No internal id reaches a player: every game played out, and at each position what the shared table
reads (the log, the line under End turn, the buttons, the names of pieces and places, the standing)
and what a tapped piece's dots say carry no id ("red-s1", "natural-disc@F2", "supply-tiles", "A1|A2")."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games import get_game, names

IDS = re.compile(r"\b[a-z]+-[a-z]*\d+\b|@|\|[A-Z]|\b(?:supply|start|rail|pad)-[a-z]")


def texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from texts(item)


@pytest.mark.parametrize("name", names())
def test_what_the_table_reads_names_no_piece_or_place_by_its_id(name: str):
    game = get_game(name)
    state, hand = game.new_game(max(game.players), 1), random.Random(1)
    for step in range(200):
        while (forced := game.forced_action(state)) is not None:
            state = game.apply(state, forced)
        if game.outcome(state) is not None:
            break
        view = game.view(state)
        said = [*view.get("log", [])[-2:], view.get("turn_ends") or "",
                *(t["label"] for t in view.get("turn_actions") or []), *(view.get("names") or {}).values(),
                *(view.get("places") or {}).values(), *texts(view.get("standing"))]
        if step % 10 == 0:  # a tap on the pieces drawn, now and then: their dots' words
            shown = [p for ps in view.get("placement", {}).values() for p in ps][:12] + list(view.get("supplies") or {})
            said += [c.summary for p in shown for ways in game.targets(state, p).values() for c in ways]
        for text in said:
            assert not IDS.search(text), f"{name}: {text!r}"
        state = game.apply(state, hand.choice(list(game.legal_actions(state))))
