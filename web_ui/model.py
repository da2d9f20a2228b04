"""What the panel shows, as JSON: the board's geometry, the session's state, the LEDs, the score."""

from __future__ import annotations

import math
from typing import Any

from companion.games.fog import rules
from companion.games.fog.board import Board
from companion.games.fog.scoring import score
from companion.games.fog.state import GameState
from companion.session import DamagedLogError, replay_log


def board_json(board: Board) -> dict[str, Any]:
    """The board as drawn by the panel: cells with outlines in board millimetres, pieces' looks."""
    r = board.hex_size_mm
    cells = []
    for cell in board.cells.values():
        cx, cy = cell.center_mm
        if cell.axial is not None:
            outline = [[round(cx + r * math.cos(math.radians(60 * k + 30)), 2),
                        round(cy + r * math.sin(math.radians(60 * k + 30)), 2)] for k in range(6)]
        else:
            outline = []
        cells.append({"id": cell.id, "kind": cell.kind, "x": cx, "y": cy, "row": cell.row, "outline": outline,
                      "pier": cell.pier, "boat": cell.boat, "area": cell.area, "place": cell.place,
                      "islander_type": cell.islander_type})
    return {
        "name": board.name,
        "size_mm": list(board.size_mm),
        "hex_size_mm": r,
        "rows": list(board.beach_rows),
        "cells": cells,
        "islanders": {i.id: {"nation": i.nation, "type": i.type, "characteristic": i.characteristic,
                             "marker": i.marker} for i in board.islanders.values()},
        "obstacles": {o.id: {"kind": o.kind, "marker": o.marker} for o in board.obstacles.values()},
        "colours": {k: "#%02x%02x%02x" % v for k, v in board.rgb.items()},
        "fog_track": [f.label for f in board.fog_fields],
        "boats": list(board.boat_order),
    }


def state_json(companion: Any) -> dict[str, Any]:
    """Everything a page needs to draw itself, in one object (sent on connect and after every change)."""
    session = companion.session
    camera = getattr(companion, "camera", None)
    hardware = getattr(companion, "hardware", None)
    st = session.status
    out: dict[str, Any] = {
        "game": session.game_id,
        "seq": session.last_seq,
        "camera": {"present": camera is not None, "simulated": bool(camera is not None and camera.simulated),
                   "healthy": st.camera_fault is None, "fault": st.camera_fault,
                   "source": camera.name if camera is not None else None},
        "storage": {"fault": st.storage_fault, "reason": st.storage_reason,
                    "pending": len(getattr(session, "pending", ()))},
        "damaged": getattr(session, "damaged", None),
        "verifying": st.verifying,
        "setup_differences": st.setup_differences,
        "out_of_sync": None if st.out_of_sync is None else {
            "reason": st.out_of_sync.reason, "offenders": list(st.out_of_sync.offenders), "rule": st.out_of_sync.rule},
        "decision": [o.to_dict() for o in st.decision],
        "leds": leds_json(hardware),
    }
    state: GameState | None = session.state
    if state is None:
        out["phase"] = "setup"
        return out
    board = state.board_data
    swallowed = board.swallowed_rows(state.fog)
    nxt = board.swallowed_rows(state.fog - 1) - swallowed if state.fog > 0 else frozenset()
    hourglass = getattr(hardware, "hourglass", None) if hardware is not None else None
    out.update({
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
        "fog": {"index": state.fog, "label": board.fog_fields[state.fog].label if 0 <= state.fog < len(
            board.fog_fields) else str(state.fog), "swallowed": sorted(swallowed), "next": sorted(nxt)},
        "placement": {c: list(ps) for c, ps in state.placement.items()},
        "owners": dict(state.owners),
        "lost": dict(state.lost),
        "moved": list(state.moved),
        "history": list(state.history),
        "options": str(state.options),
        "hourglass_left": round(hourglass.left(), 1) if hourglass is not None and state.phase == "moving" else None,
        "drafts": [d.islander for d in rules.legal_drafts(state)] if state.phase == "draft" else [],
        "score": score(state).to_dict() if state.phase == "finished" else None,
    })
    return out


def leds_json(hardware: Any) -> dict[str, Any] | None:
    """The strip as the players see it (before gamma and brightness), split into its segments."""
    if hardware is None:
        return None
    pixels = ["#%02x%02x%02x" % p for p in hardware.output.logical()]
    segments = {name: [pixels[seg.index(i)] for i in range(seg.length)]
                for name, seg in hardware.output.segments.items()}
    return {"backend": getattr(hardware.strip, "name", type(hardware.strip).__name__), "pixels": pixels,
            "segments": segments}


def replay_json(companion: Any, game_id: str, step: int) -> dict[str, Any]:
    """A game after its first ``step`` logged events; a damaged game replays up to its bad event."""
    store = companion.session.store
    events = store.events(game_id)
    step = max(0, min(step, len(events)))
    damaged = None
    try:
        state = replay_log(store.setup(game_id), events, step)
    except DamagedLogError as exc:
        state, step, damaged = exc.state, exc.good, str(exc)
    return {"game": game_id, "step": step, "steps": len(events), "damaged": damaged,
            "event": None if step == 0 else {"seq": events[step - 1].seq, "kind": events[step - 1].kind,
                                             "data": events[step - 1].data},
            "phase": state.phase, "round": state.round, "active": state.active_colour, "mp_left": state.mp_left,
            "fog": state.fog, "placement": {c: list(ps) for c, ps in state.placement.items()},
            "owners": dict(state.owners), "lost": dict(state.lost),
            "score": score(state).to_dict() if state.phase == "finished" else None}
