"""What makes a row of the game log unreadable, said so that a person can find the row.

A game's log is trusted only as far as it reads without a gap: its setup, then events 1, 2, 3...
each with a whole-number sequence, a time, a kind and a JSON object. The first row that breaks
this (half a JSON text, bytes that are not UTF-8, a time that is not a number, a missing
sequence number) ends the *good prefix*: the game can be replayed up to it and exported whole,
but never resumed past it, because a position that skipped a row is not the game the players
are playing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    at: float
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Damage:
    """The first row of one game that does not read (or replay): where it is, why, how much before it is
    good, and, when its high-water mark is known, how many events were acknowledged and whether the
    rest is gone from the file."""

    game_id: str
    where: str  # "setup", "event 12", "the row after event 11"
    seq: int | None  # the bad row's sequence number (None for the setup, or a sequence that is not a number)
    reason: str
    good: int  # how many events before it read (the good prefix)
    acknowledged: int | None = None  # how many events were acknowledged (the high-water mark), if known
    lost: bool = False  # the rows past ``good`` are gone from the file (not merely unreadable)

    def __str__(self) -> str:
        """In words; the reason (which may quote a row) cut to 200 characters, so where and how much always show."""
        why, ack = cut(self.reason, 200), self.acknowledged
        if self.where == "setup":
            return f"game {self.game_id}: its setup cannot be read ({why}); no position can be rebuilt"
        if self.lost and ack is not None and ack > self.good:
            came = f"with no event of {ack}" if self.good == 0 else f"at event {self.good} of {ack}"
            gone = f"event {ack} was" if self.good + 1 == ack else f"events {self.good + 1}-{ack} were"
            return f"game {self.game_id} came back {came}: {gone} lost with the damaged file" + (
                f" ({why})" if why else "")
        of = f", of {ack} acknowledged" if ack is not None and ack > self.good else ""
        if self.where == "checksum":
            return (f"game {self.game_id}: its events 1-{ack} no longer match the checksum written with them ({why}); "
                    f"{_prefix(self.good)} read, but which row changed cannot be told")
        if self.reason.startswith("its checksum is not"):
            return (f"game {self.game_id}: {self.where} is not the row that was acknowledged ({why}); "
                    f"{_prefix(self.good)} read{of}")
        if self.reason.startswith(self.where + " "):  # a row that reads but does not replay says so itself
            return f"game {self.game_id}: {why}; {_prefix(self.good)} read{of}"
        return f"game {self.game_id}: {self.where} cannot be read ({why}); {_prefix(self.good)} read{of}"

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, "seq": self.seq, "reason": cut(self.reason), "good": self.good,
                "acknowledged": self.acknowledged, "lost": self.lost}


@dataclass(frozen=True)
class GameRecord:
    """One game as the store lists it (its row of ``games``, with how many events it has). Kept here
    beside the rows' damage, under both halves of the store (:mod:`companion.store.store` re-exports it)."""

    id: str
    created: float
    game: str
    title: str
    status: str
    events: int
    note: str = ""


@dataclass(frozen=True)
class GameLog:
    """One game as it reads: the setup (None if unreadable), the good prefix, every row, the first damage."""

    record: GameRecord
    setup: dict[str, Any] | None
    events: list[LoggedEvent]
    rows: list[tuple[Any, Any, Any, Any]]  # (seq, at, kind, data) as stored, in sequence
    damage: Damage | None
    raw_setup: Any = None


NOTE_LIMIT = 300  # characters of a row's text said in a notice or a note: a hand-edited row may hold megabytes


def cut(text: str, limit: int = NOTE_LIMIT) -> str:
    """``text`` as said to people: at most ``limit`` characters, and when cut its whole size said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (cut: {len(text):,} characters in all)"


# What the session writes into the log, and what each kind's data must hold (any other row was not written here).
KINDS = {"action": "action", "undo": None}


def _prefix(good: int) -> str:
    return "no event before it" if good == 0 else "event 1" if good == 1 else f"events 1-{good}"


def text_value(raw: bytes) -> str | bytes:
    """SQLite's text as ``str``; text that is not UTF-8 (a damaged row) is kept as its ``bytes``.

    Used as the connection's ``text_factory``: Python's default raises on such a value, which
    made a single bad row stop every query that touched it (and the service with it).
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return bytes(raw)


def decode_json(value: Any, what: str) -> tuple[dict[str, Any] | None, str | None]:
    """A JSON object from a column, or why not."""
    if isinstance(value, bytes):
        return None, f"its {what} is not UTF-8 text"
    if not isinstance(value, str):
        return None, f"its {what} is {_type(value)}, not JSON text"
    try:
        parsed = json.loads(value)
    except ValueError as exc:  # JSONDecodeError, and numbers too large to read
        return None, f"its {what} is not JSON: {exc}"
    if not isinstance(parsed, dict):
        kind = {bool: "true or false", int: "a number", float: "a number", str: "a string", list: "a list"}.get(
            type(parsed), "null")
        return None, f"its {what} is JSON but {kind}, not an object"
    return parsed, None


def _type(value: Any) -> str:
    return {type(None): "empty", int: "a number", float: "a number", bytes: "bytes"}.get(type(value), "not text")


def decode_event(seq: Any, at: Any, kind: Any, data: Any) -> tuple[LoggedEvent | None, str | None]:
    """One event row, or why it does not read."""
    if not isinstance(seq, int):
        return None, f"its sequence number {_shown(seq)} is not a whole number"
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
        return None, f"its time {_shown(at)} is not a number"
    if not isinstance(kind, str) or kind not in KINDS:
        return None, f"its kind {_shown(kind)} is none the log writes ({', '.join(KINDS)})"
    parsed, why = decode_json(data, "data")
    if parsed is None:
        return None, why
    field = KINDS[kind]
    if field is not None and not isinstance(parsed.get(field), str):
        return None, f"its data has no {field} text"
    return LoggedEvent(seq, float(at), kind, parsed), None


def _shown(value: Any) -> str:
    if isinstance(value, bytes):
        return f"(bytes {value[:20].hex()})"
    return repr(value)[:40]


def good_prefix(game_id: str, rows: Iterable[tuple[Any, Any, Any, Any]]) -> tuple[list[LoggedEvent], Damage | None]:
    """The events that read without a gap from event 1, and the first row that does not (if any).

    ``rows`` are (seq, at, kind, data) as stored, in any order: they are put in sequence here, so
    the answer does not depend on an index that may itself be damaged.
    """
    ordered = sorted(rows, key=lambda r: (0, r[0]) if isinstance(r[0], int) else (1, 0))
    events: list[LoggedEvent] = []
    for seq, at, kind, data in ordered:
        expected = len(events) + 1
        if seq == expected and type(seq) is int and type(at) is float and type(kind) is str and type(data) is str \
                and kind in KINDS and data[:1] == "{" and math.isfinite(at):  # the usual row, read at once
            try:
                parsed = json.loads(data)
            except ValueError:
                parsed = None
            if type(parsed) is dict and (KINDS[kind] is None or type(parsed.get(KINDS[kind])) is str):
                events.append(LoggedEvent(seq, at, kind, parsed))
                continue
        after = f"the row after event {len(events)}" if events else "the first event row"
        if isinstance(seq, int) and seq > expected:
            return events, Damage(game_id, f"event {expected}", expected, f"it is missing: the next row is event {seq}",
                                  len(events))
        if isinstance(seq, int) and seq < expected:
            return events, Damage(game_id, f"event {seq}", seq, "it is logged twice", len(events))
        event, why = decode_event(seq, at, kind, data)
        if event is None:
            where = f"event {seq}" if isinstance(seq, int) else after
            return events, Damage(game_id, where, seq if isinstance(seq, int) else None, str(why), len(events))
        events.append(event)
    return events, None


def readable_row(seq: Any, at: Any, kind: Any, data: Any) -> dict[str, Any]:
    """One row for an export: as read, and for a bad row what is wrong and its raw values (nothing dropped)."""
    event, why = decode_event(seq, at, kind, data)
    if event is not None:
        return {"seq": event.seq, "at": event.at, "kind": event.kind, "data": event.data}
    parsed, _ = decode_json(data, "data")
    return {"seq": seq if isinstance(seq, int) else None,
            "at": at if isinstance(at, (int, float)) and not isinstance(at, bool) else None,
            "kind": kind if isinstance(kind, str) else "", "data": parsed or {}, "damaged": why,
            "raw": {"seq": _raw(seq), "at": _raw(at), "kind": _raw(kind), "data": _raw(data)}}


def _raw(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
