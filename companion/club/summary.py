"""What a table publishes, in the shape the club page and Home Assistant read.

Built from the game's shared view (``game.panel.view(state, None)``: what anyone at the table may see)
and the session's snapshot (in sync or not, the camera's health), then passed through
:func:`companion.table.secrecy.redact` with no seat, as every output of the companion is. Nothing here
names a game: the view's common keys (``phase``, ``round``, ``players``, ``standing``), whose turn
it is (the game's ``active``) and its outcome are all any game's door gives.
"""

from __future__ import annotations

import json
from typing import Any

from companion.table.secrecy import redact


def dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, default=str).encode()


def _whose_turn(view: dict[str, Any], active: tuple[str, ...]) -> str | None:
    """The player whose turn it is, by name: the first of the game's ``active`` (a colour or a seat)
    said as its player; None once the game is over."""
    if not active:
        return None
    for player in view.get("players") or []:
        if isinstance(player, dict) and (active[0] in (player.get("colours") or ()) or active[0] == player.get("seat")):
            return str(player.get("name") or active[0])
    return active[0]


def players_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's name and colours (what a result is kept by)."""
    return [{"name": str(p.get("name")), "colours": list(p.get("colours") or ())}
            for p in view.get("players") or [] if isinstance(p, dict)]


def table_state(snap: Any, table: str, name: str, title: str) -> dict[str, Any]:
    """The retained ``state`` of a table: its game, phase, whose turn, round, standing, in sync or
    not, the camera's health, and a finished game's winners."""
    game, state, status = snap.game, snap.state, snap.status
    out: dict[str, Any] = {"table": table, "name": name, "game": game.name, "title": game.title,
                           "game_id": snap.game_id, "seq": snap.seq}
    if state is None:
        return {**out, "phase": None, "turn": None, "round": None, "players": [], "standing": [],
                "in_sync": True, "camera": _camera(status), "over": False}
    view = game.panel.view(state, None)
    outcome = game.rules.outcome(state)
    standing = view.get("standing")
    out.update({"label": title, "phase": view.get("phase"), "turn": _whose_turn(view, game.rules.active(state)),
                "round": view.get("round"), "players": players_of(view),
                "standing": [str(s) for s in standing] if isinstance(standing, list) else [],
                "in_sync": status.out_of_sync is None and not status.setup_differences,
                "camera": _camera(status), "over": outcome is not None})
    if status.out_of_sync is not None:
        out["out_of_sync"] = status.out_of_sync.reason
        out["offenders"] = list(status.out_of_sync.offenders)
    if status.storage_fault is not None:
        out["storage"] = status.storage_fault
    if outcome is not None:
        out["winners"] = [_name_of(view, w) for w in outcome.winners]
        out["result"] = outcome.reason
    return dict(redact(game, state, out, seat=None))


def _name_of(view: dict[str, Any], who: str) -> str:
    """A winner (a colour, a seat or a name) said as the player's name."""
    for player in view.get("players") or []:
        if isinstance(player, dict) and (who in (player.get("colours") or ()) or who in (player.get("seat"),
                                                                                          player.get("name"))):
            return str(player.get("name"))
    return who


def _camera(status: Any) -> str:
    return "ok" if status.camera_fault is None else f"fault: {status.camera_fault}"


def event_message(event: Any, table: str) -> dict[str, Any]:
    """A logged event as the shared table may read it: its log position names it once for ever."""
    snap = event.snapshot
    data = redact(snap.game, snap.state, dict(event.data), seat=None)
    return {"table": table, "game_id": snap.game_id, "seq": event.seq, "kind": event.kind, "at": event.at,
            "data": data}


def game_over(state_message: dict[str, Any]) -> dict[str, Any]:
    """The ``game-over`` event (Home Assistant's event entity reads ``event_type``)."""
    return {"event_type": "game_over", "table": state_message["table"], "game": state_message["game"],
            "game_id": state_message["game_id"], "winners": state_message.get("winners", []),
            "result": state_message.get("result", "")}
