"""What the table shows of a FOG state: the panel's view and the LEDs' scene, from one set of facts.

:func:`fog_rows` is the only place that says which rows the FOG covers, where its marker stands
and which rows it swallows next; the panel (:func:`view`) and the LEDs (:func:`led_scene`) both
read it, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import ALERT, RGB, Count, LedScene, Light, TableStatus, alert_light
from companion.games.fog import rules
from companion.games.fog.movement import MoveAction
from companion.games.fog.scoring import score
from companion.games.fog.state import GameState
from companion.games.fog.words import log_lines, piece_name, standing_lines

OFF: RGB = (0, 0, 0)
SWALLOWED: RGB = (40, 40, 48)
FOG_WHITE: RGB = (200, 200, 220)
WARN: RGB = (255, 110, 0)
BEACH: RGB = (24, 18, 4)
ALERT_RED: RGB = ALERT  # the door's alert, every game's
WAITING: RGB = (80, 120, 255)
# What The FOG shows on each LED role (the panel's LED card says it)
LED_LABELS = {"status": "the FOG rows: swallowed, under the marker, next", "turn": "whose turn, who is next",
              "counter": "MP left this turn", "timer": "the hourglass (when the option is on)"}


@dataclass(frozen=True)
class FogRows:
    """The FOG on the beach: the rows in order (then the shore), covered, under the marker, next."""

    rows: tuple[str, ...]
    covered: frozenset[str]
    marker_row: str | None
    next: frozenset[str]
    label: str


def fog_rows(state: GameState) -> FogRows:
    board = state.board_data
    covered = board.swallowed_rows(state.fog)
    inside = 0 <= state.fog < len(board.fog_fields)
    here = board.fog_fields[state.fog].swallows if inside else ()
    nxt = board.swallowed_rows(state.fog + 1) - covered if state.fog + 1 < len(board.fog_fields) else frozenset()
    return FogRows(tuple(board.beach_rows) + ("shore",), frozenset(covered), here[-1] if here else None,
                   frozenset(nxt), board.fog_fields[state.fog].label if inside else str(state.fog))


def mp_total(state: GameState) -> int:
    return state.mp_for(state.active_colour) if state.phase == "moving" and state.active_colour else 0


def view(state: GameState, seat: str | None = None) -> dict[str, Any]:
    """Everything the panel shows of a state (The FOG has no hidden information: ``seat`` changes nothing)."""
    fog = fog_rows(state)
    return {
        "phase": state.phase,
        "board": state.board,
        "mode": state.mode,
        "scenario": state.scenario,
        "players": [{"name": p.name, "colours": list(p.colours)} for p in state.players],
        "turn_order": list(state.turn_order),
        "round": state.round,
        "active": state.active_colour,
        "next": state.next_colour,
        "mp_left": state.mp_left,
        "mp_total": state.mp_for(state.active_colour) if state.active_colour else 0,
        "fog": {"index": state.fog, "label": fog.label, "swallowed": sorted(fog.covered), "next": sorted(fog.next),
                "marker_row": fog.marker_row},
        "placement": {c: list(ps) for c, ps in state.placement.items()},
        "owners": dict(state.owners),
        # every token as players call it ("the green sailor (jumps)"): the pages name pieces so, never by id
        "names": {p: piece_name(state.board_data, p) for p in (*state.board_data.islanders, *state.board_data.obstacles)},
        "lost": dict(state.lost),
        "moved": list(state.moved),
        "history": list(state.history),
        "log": log_lines(state),  # the history in words: who moved which islander where
        "standing": standing_lines(state) if state.phase == "moving" else [],
        "last_move": last_move(state),
        "options": str(state.options),
        "drafts": [d.islander for d in rules.legal_drafts(state)] if state.phase == "draft" else [],
        "score": score(state).to_dict() if state.phase == "finished" else None,
    }


def last_move(state: GameState) -> list[dict[str, Any]]:
    """The last logged move as paths the board draws as arrows: ``[{piece, path: [cells]}]``."""
    last = state.history[-1] if state.history else ""
    if not last.startswith("move "):
        return []
    try:
        move = MoveAction.parse(last)
    except ValueError:
        return []
    return [{"piece": m.islander, "path": list(m.path)} for m in move.movements]


def _scaled(c: RGB, k: float) -> RGB:
    return tuple(max(0, min(255, round(v * k))) for v in c)  # type: ignore[return-value]


def led_scene(state: GameState, status: TableStatus = TableStatus()) -> LedScene:
    """The LED strip by role: ``status`` the FOG rows, ``turn`` whose turn it is (and who is next),
    ``counter`` the MP left of the turn's MP (counting the hourglass down when it has no ``timer``
    segment of its own), the winner's colour over everything."""
    board = state.board_data
    rgb = board.rgb
    fog = fog_rows(state)
    if state.phase == "finished":
        report = score(state)
        names = set(report.winners)
        colours = [c for s in report.standings if s.name in names for c in s.colours]
        if colours:
            glow = Light(tuple(rgb.get(colours[0], OFF)), "pulse", 0.5, 0.4)  # type: ignore[arg-type]
            return LedScene({"*": (glow,)}, status="counter", timer="",
                            labels={role: "the winner's colour" for role in LED_LABELS})
    bad_rows = {r for p in status.offenders if (c := state.where.get(p)) and (r := board.row_of(c))}
    row_lights = []
    for row in fog.rows:
        if row in bad_rows:
            row_lights.append(alert_light())
        elif row == fog.marker_row:
            row_lights.append(Light(FOG_WHITE, "pulse", 0.7, 0.25))
        elif row in fog.covered:
            row_lights.append(Light(SWALLOWED))
        elif row in fog.next:
            row_lights.append(Light(WARN, "blink", 1.0, 0.2))
        else:
            row_lights.append(Light(BEACH))
    active = tuple(rgb.get(state.active_colour or "", OFF))
    following = tuple(rgb.get(state.next_colour or "", OFF))
    if status.waiting:
        turn = (Light(WAITING, "pulse", 1.0, 0.3),) * 2
    elif status.step:  # a move part-way (half a swap or a push): the mover's colour breathes slowly, calm
        turn = (Light(active, "pulse", 0.5, 0.35), Light(_scaled(following, 0.2)))  # type: ignore[arg-type]
    else:
        turn = (Light(active), Light(_scaled(following, 0.2)))  # type: ignore[arg-type]
    left = state.mp_left if state.phase == "moving" else 0
    mp = Count(left, mp_total(state), Light(_scaled(active, 0.5)))  # type: ignore[arg-type]
    return LedScene({"status": tuple(row_lights), "turn": turn, "counter": mp}, status="counter",
                    timer="timer|counter", labels=LED_LABELS)
