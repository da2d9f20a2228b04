"""What the panel shows, as JSON, for any game: the layout, the session's state, the LEDs, a replay.

Everything about the game itself comes from its :meth:`~companion.games.base.Game.view`; the
session's own state (verifying, out of sync, the camera, the disk) from a
:class:`~companion.session.Snapshot`, so one answer is one consistent moment.
"""

from __future__ import annotations

from typing import Any

from companion.store.damage import cut
from companion.errors import FogCompanionError
from companion.games import Layout, get_game
from companion.session.session import DamagedLogError, Snapshot, replay_log, replay_states
from companion.table.sync import corrections, with_corrections
from web_ui.public import said_row


def board_json(layout: Layout) -> dict[str, Any]:
    """The board as the panel draws it: cells with outlines in board millimetres, pieces by id."""
    return {**layout.to_json(), "snap_mm": layout.snap_mm}


def state_json(companion: Any, snap: Snapshot | None = None, seat: str | None = None) -> dict[str, Any]:
    """Everything a page needs to draw itself, in one object (sent on connect and after every change):
    the game as ``seat`` may see it (a phone joined to that seat), or as the shared table (None)."""
    snap = snap or companion.session.snapshot()
    camera = getattr(companion, "camera", None)
    hardware = getattr(companion, "hardware", None)
    st = snap.status
    out: dict[str, Any] = {
        "game": snap.game_id,
        "game_name": snap.game.name,
        "game_title": snap.game.title,
        # what kind of game it is, its counters and phases: the pages draw what it declares
        "declaration": snap.game.declaration.to_json(),
        "seq": snap.seq,
        "camera": {"present": camera is not None, "simulated": bool(camera is not None and camera.simulated),
                   "healthy": st.camera_fault is None, "fault": st.camera_fault,
                   "source": camera.name if camera is not None else None},
        "storage": {"fault": st.storage_fault, "reason": st.storage_reason, "pending": snap.pending,
                    "notices": _notices(companion, snap)},
        "damaged": snap.damaged,
        "verifying": st.verifying,
        "setup_differences": st.setup_differences,
        "out_of_sync": None if st.out_of_sync is None else st.out_of_sync.to_dict(),
        "step": None if st.step is None else st.step.to_dict(),  # a move part-way on the table
        "decision": [c.to_dict() for c in st.decision],
        "question": st.question,
        "question_id": st.decision_id if st.decision else None,  # sent back with the answer (/api/decide)
        "to_turn_over": [{"piece": p, "cell": c} for p, c in st.to_clear],
        "view_blocked": st.view_blocked,
        # what the LEDs say of this very state (their colours follow on the animator's thread)
        "leds": leds_json(hardware, None if snap.state is None else snap.game.lights.led_scene(snap.state)),
    }
    if snap.state is None:
        out["phase"] = "setup"
        return out
    view = snap.game.panel.view(snap.state, seat)
    with_corrections(view, snap.corrected)  # a correction's line says what it changed
    out.update(view)
    out["game"] = snap.game_id  # the game's id (docs/api.md), whatever the view calls its game
    out["seat"] = seat
    phase = snap.game.declaration.phase(out.get("phase"))  # a phase of picks: the legal picks
    out["picks"] = ([{"piece": p, "action": a} for p, a in snap.game.panel.picks(snap.state).items()]
                    if phase is not None and phase.picks and snap.game.rules.outcome(snap.state) is None else [])
    outcome = snap.game.rules.outcome(snap.state)
    out["outcome"] = None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason,
                                                   "lines": snap.game.rules.score(snap.state).lines()}
    # a timed turn: the seconds left on the LEDs' clock, and the name the game gives its timer
    clock = getattr(hardware, "turn_clock", None) if hardware is not None else None
    left, timer = clock.left() if clock is not None else None, snap.game.rules.turn_timer(snap.state)
    out["timer_left"] = round(left * clock.seconds, 1) if clock is not None and left is not None and timer else None
    out["timer_label"] = timer.label if timer is not None else None
    return out


def leds_json(hardware: Any, scene: Any = None) -> dict[str, Any] | None:
    """The strip as the players see it (before gamma and brightness), split into its segments (named
    by role), with what the game says each shows (``labels``) and the counts it shows as a value of
    a total (``counts``: ``{"counter": {"value": 3, "total": 5}}``), so the LED card can say "3 of 5".
    ``scene``: the game's scene of the state being sent (default: the one the strip shows now)."""
    if hardware is None:
        return None
    pixels = ["#%02x%02x%02x" % p for p in hardware.output.logical()]
    segments = {name: [pixels[seg.index(i)] for i in range(seg.length)]
                for name, seg in hardware.output.segments.items()}
    scene = scene if scene is not None else getattr(hardware, "scene", None)
    counts = {}
    for name in segments:
        count = scene.count(name) if scene is not None else None
        if count is not None:
            counts[name] = {"value": count.value, "total": count.total}
    return {"backend": getattr(hardware.strip, "name", type(hardware.strip).__name__), "pixels": pixels,
            "segments": segments, "labels": dict(getattr(scene, "labels", {}) or {}), "counts": counts}


def _notices(companion: Any, snap: Snapshot) -> list[str]:
    """What the game log found (an index rebuilt, a file recovered, a damaged game, a vanished journal)."""
    store = getattr(companion.session, "store", None)
    found = list(getattr(store, "notices", []))[-10:]
    return found + [snap.damaged] if snap.damaged and snap.damaged not in found else found


def replay_json(companion: Any, game_id: str, step: int) -> dict[str, Any]:
    """A game after its first ``step`` logged events.

    A damaged game replays as far as it reads: ``damaged`` says in words where it stops and
    ``damage`` says it as data (which row, why, how many events before it are good); a setup
    that does not read gives the empty board at step 0 instead of an error.
    """
    read = companion.session.store.read_log(game_id)
    game = get_game(read.record.game)
    steps = len(read.rows)
    damage = None if read.damage is None else read.damage.to_dict()
    damaged = None if read.damage is None else str(read.damage)
    events = read.events
    step = max(0, min(step, steps, len(events)))
    try:
        if read.setup is None:
            raise FogCompanionError(damaged or "no setup")
        states = replay_states(game, read.setup, events, step)
        state, corrected = states[-1][1], corrections(game, states)
    except DamagedLogError as exc:
        state, step, damaged, corrected = exc.state, exc.good, str(exc), ()
        bad = events[exc.good].seq
        damage = {"where": f"event {bad}", "seq": bad, "reason": cut(str(exc.__cause__ or exc)), "good": exc.good}
    except FogCompanionError as exc:  # the setup is unreadable, or not a position of this game
        damage = damage or {"where": "setup", "seq": None, "reason": str(exc), "good": 0}
        return {"placement": {}, "owners": {}, "game": game_id, "game_name": game.name, "step": 0, "steps": steps,
                "damaged": damaged or f"game {game_id}: its setup does not read: {exc}", "damage": damage,
                "event": None}
    view = game.panel.view(state)
    with_corrections(view, corrected)  # a correction's line says what it changed, as on the Board page
    return {**view, "game": game_id, "game_name": game.name, "step": step, "steps": steps,
            "damaged": damaged, "damage": damage,
            "event": None if step == 0 else {"seq": events[step - 1].seq, "kind": events[step - 1].kind,
                                             "data": said_row(game, state, events[step - 1].data)}}


def by_name(winners: Any, seats: list[dict[str, Any]]) -> list[str]:
    """Winners as people: a game's outcome may name the winning colours (the partner race's teams) or
    the players (The FOG); a colour a player plays is said by that player's name, once."""
    out: list[str] = []
    for winner in winners:
        seat = next((s for s in seats if winner in (s.get("colours") or ()) and s.get("name")), None)
        said = str(seat["name"]) if seat is not None else str(winner)
        if said not in out:
            out.append(said)
    return out


def game_summary(store: Any, record: Any, cache: dict[str, tuple[tuple[int, str], dict[str, Any]]]) -> dict[str, Any]:
    """One line of the Games page: title, players by name, when, and how it ended.

    Who won needs the whole log replayed, so the answer is kept per game with its event count and
    status: a listing replays a game only when it changed. A log that no longer replays says so instead.
    """
    key = (record.events, record.status)
    kept = cache.get(record.id)
    found = kept[1] if kept is not None and kept[0] == key else None
    if found is None:
        found = {"players": [], "result": None, "game_title": record.game}
        try:
            game = get_game(record.game)
            found["game_title"] = game.title
            setup = store.setup(record.id)
            seats = [p for p in game.panel.view(game.from_json(setup)).get("players", []) if isinstance(p, dict)]
            found["players"] = [p.get("name") for p in seats if p.get("name")]
            if record.status == "finished":
                outcome = game.rules.outcome(replay_log(game, setup, store.events(record.id)))
                if outcome is not None:
                    found["result"] = {"winners": list(outcome.winners), "reason": outcome.reason,
                                       "winner_names": by_name(outcome.winners, seats)}
        except (DamagedLogError, FogCompanionError, KeyError, TypeError, ValueError) as exc:
            found["result"] = {"winners": [], "reason": f"the log does not replay: {exc}"[:200]}
        cache[record.id] = (key, found)
    title = found["game_title"] if record.title == record.id else record.title  # untitled: its game's name
    return {"id": record.id, "game": record.game, "title": title, "status": record.status,
            "created": record.created, "events": record.events, "note": record.note, **found}
