"""Rows read straight from the pages of a damaged SQLite file, without SQLite.

When SQLite calls ``games.db`` damaged, its own reader stops at the first bad page, and a
scribbled first page (the schema) hides every table. The rows themselves are usually intact on
the other pages, so this module reads the file the way SQLite lays it out (docs: "Database File
Format"): every table leaf page, every cell on it, overflow chains followed, with the latest
committed version of each page taken from the ``-wal`` file beside it. A row is kept by its
shape (a game row, an event row), not by which table the broken schema says a page belongs to.

Nothing here trusts the file: every offset is bounds-checked, every chain has a step limit, and
a cell that does not decode is counted, not fatal. Pages on the free list (deleted data) are
skipped when the list can be read.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAGIC = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)
LEAF_TABLE = 0x0D
GAME_COLUMNS = (6, 7)  # schema 1 had no note column; rows written then still have six values
EVENT_COLUMNS = 5


@dataclass
class Salvage:
    """What could be read: game rows and event rows, as SQLite stored them, and what could not."""

    games: dict[str, list[Any]] = field(default_factory=dict)  # id -> the row's values
    events: dict[tuple[str, int], list[Any]] = field(default_factory=dict)  # (game id, seq) -> values
    pages: int = 0
    unreadable_cells: int = 0
    conflicts: int = 0  # two different rows claiming one key (a damaged cell): the first is kept
    listed: dict[str, int] = field(default_factory=dict)  # game id -> its last event in the events' index
    page_size: int = 0
    wal_frames: int = 0


def salvage(path: Path) -> Salvage:
    """Every game and event row that can be decoded from ``path`` (and ``path-wal``)."""
    data = path.read_bytes() if path.exists() else b""
    wal_path = Path(str(path) + "-wal")
    wal = wal_path.read_bytes() if wal_path.exists() else b""
    page_size, reserved = _page_size(data, wal)
    found = Salvage(page_size=page_size)
    pages, found.wal_frames = _pages(data, wal, page_size)
    free = _free_pages(pages, data, page_size)
    usable = page_size - reserved
    for number in sorted(pages):
        if number in free:
            continue
        found.pages += 1
        for values in _leaf_records(pages, number, usable, found):
            _keep(found, values)
        for values in _index_records(pages[number], number, usable):
            if len(values) == 3 and _text(values[0]) and all(isinstance(v, int) for v in values[1:]):
                game = _str(values[0])  # an entry of the events' primary key: (game id, seq, rowid)
                found.listed[game] = max(found.listed.get(game, 0), values[1])
    return found


def _index_records(page: bytes, number: int, usable: int) -> Iterator[list[Any]]:
    """The entries of an index page (leaf or interior: both hold entries), as far as they decode.

    The events' index is a second record of which events existed: a game whose last rows were
    on a lost page is known to be short by it.
    """
    head = 100 if number == 1 else 0
    if len(page) < head + 12 or page[head] not in (0x0A, 0x02):
        return
    interior = page[head] == 0x02
    pointers = head + (12 if interior else 8)
    for k in range(min(struct.unpack(">H", page[head + 3:head + 5])[0], (usable - pointers) // 2)):
        try:
            start = struct.unpack(">H", page[pointers + 2 * k:pointers + 2 * k + 2])[0] + (4 if interior else 0)
            size, pos = _varint(page, start)
            if size > (usable - 12) * 64 // 255 - 23 or pos + size > usable:
                continue  # spilled onto overflow pages: not one of the events' short entries
            yield _record(page[pos:pos + size])
        except (ValueError, IndexError, struct.error):
            continue


def _keep(found: Salvage, values: list[Any]) -> None:
    if len(values) in GAME_COLUMNS and _text(values[0]) and all(_text(v) for v in values[2:5]):
        key: Any = _str(values[0])
        table: dict[Any, list[Any]] = found.games
    elif len(values) == EVENT_COLUMNS and _text(values[0]) and isinstance(values[1], int) \
            and not isinstance(values[1], bool):
        key, table = (_str(values[0]), values[1]), found.events
    else:
        return  # the schema, the meta table, or not one of ours
    if key in table and table[key] != values:
        found.conflicts += 1
        return
    table[key] = values


def _text(value: Any) -> bool:
    return isinstance(value, (str, bytes))


def _str(value: str | bytes) -> str:
    return value if isinstance(value, str) else value.decode("utf-8", "replace")


# ---------------------------------------------------------------------------------------- pages
def _page_size(data: bytes, wal: bytes) -> tuple[int, int]:
    """The page size from the file's header, else from the WAL's, else the likeliest one."""
    if data[:16] == MAGIC and len(data) >= 100:
        raw = struct.unpack(">H", data[16:18])[0]
        size = 65536 if raw == 1 else raw
        if _power_of_two(size):
            return size, data[20] if data[20] < 64 else 0
    if len(wal) >= 32 and struct.unpack(">I", wal[:4])[0] in WAL_MAGIC:
        size = struct.unpack(">I", wal[8:12])[0]
        if _power_of_two(size):
            return size, 0
    # The header itself is gone: the size at whose boundaries stand the most (and most often) b-tree pages.
    best, best_score = 4096, (-1, 0.0)
    for size in (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536):
        starts = range(size, len(data) - size + 1, size)
        hits = sum(1 for off in starts if _plausible(data, off, size))
        score = (hits, hits / max(1, len(starts)))
        if score > best_score:
            best, best_score = size, score
    return best, 0


def _plausible(data: bytes, off: int, size: int) -> bool:
    """Does a b-tree page of ``size`` bytes start at ``off`` (its type, cell count and pointers fit)?"""
    kind = data[off]
    if kind not in (LEAF_TABLE, 0x05, 0x0A, 0x02):
        return False
    head = 8 if kind in (LEAF_TABLE, 0x0A) else 12
    cells = struct.unpack(">H", data[off + 3:off + 5])[0]
    if cells == 0 or head + 2 * cells > size:
        return False
    pointers = struct.unpack(f">{cells}H", data[off + head:off + head + 2 * cells])
    return all(head + 2 * cells <= p < size for p in pointers)


def _power_of_two(size: int) -> bool:
    return 512 <= size <= 65536 and size & (size - 1) == 0


def _pages(data: bytes, wal: bytes, page_size: int) -> tuple[dict[int, bytes], int]:
    """Page number -> its bytes: the file's pages, replaced by the last committed WAL frame of each."""
    pages = {n + 1: data[off:off + page_size] for n, off in enumerate(range(0, len(data), page_size))
             if len(data) - off >= page_size}
    frames = 0
    if len(wal) < 32 or struct.unpack(">I", wal[:4])[0] not in WAL_MAGIC \
            or struct.unpack(">I", wal[8:12])[0] != page_size:
        return pages, frames
    salt = wal[16:24]
    pending: dict[int, bytes] = {}
    off = 32
    while off + 24 + page_size <= len(wal):
        number, commit = struct.unpack(">II", wal[off:off + 8])
        if wal[off + 8:off + 16] != salt or number == 0:
            break  # a frame of an earlier generation of the WAL (or torn): nothing after it counts
        pending[number] = wal[off + 24:off + 24 + page_size]
        if commit:  # a transaction's last frame: everything up to here was committed
            pages.update(pending)
            frames += len(pending)
            pending = {}
        off += 24 + page_size
    return pages, frames


def _free_pages(pages: dict[int, bytes], data: bytes, page_size: int) -> set[int]:
    """The pages of the free list (old, deleted contents), as far as the header's chain can be followed."""
    first = pages.get(1, b"")
    if first[:16] != MAGIC:
        return set()
    free: set[int] = set()
    trunk = struct.unpack(">I", first[32:36])[0]
    for _ in range(len(pages) + 1):
        page = pages.get(trunk)
        if not trunk or page is None or trunk in free:
            break
        free.add(trunk)
        count = min(struct.unpack(">I", page[4:8])[0], (page_size - 8) // 4)
        free.update(struct.unpack(f">{count}I", page[8:8 + 4 * count]))
        trunk = struct.unpack(">I", page[:4])[0]
    return free


def _leaf_records(pages: dict[int, bytes], number: int, usable: int, found: Salvage) -> Iterator[list[Any]]:
    page = pages[number]
    head = 100 if number == 1 else 0
    if len(page) < head + 8 or page[head] != LEAF_TABLE:
        return
    cells = struct.unpack(">H", page[head + 3:head + 5])[0]
    pointers = head + 8
    for k in range(min(cells, (usable - pointers) // 2)):
        try:
            start = struct.unpack(">H", page[pointers + 2 * k:pointers + 2 * k + 2])[0]
            yield _record(_payload(pages, page, start, usable))
        except (ValueError, IndexError, struct.error, UnicodeDecodeError):
            found.unreadable_cells += 1


def _payload(pages: dict[int, bytes], page: bytes, start: int, usable: int) -> bytes:
    """One cell's payload: its local part and its overflow chain."""
    if not 0 < start < usable:
        raise ValueError("cell outside the page")
    size, pos = _varint(page, start)
    _rowid, pos = _varint(page, pos)
    most = usable - 35
    if size <= most:
        local = size
    else:
        least = (usable - 12) * 32 // 255 - 23
        local = least + (size - least) % (usable - 4)
        if local > most:
            local = least
    if pos + local > usable:
        raise ValueError("cell runs past the page")
    payload = bytearray(page[pos:pos + local])
    if local < size:
        following = struct.unpack(">I", page[pos + local:pos + local + 4])[0]
        seen: set[int] = set()
        while len(payload) < size:
            over = pages.get(following)
            if over is None or following in seen:
                raise ValueError("broken overflow chain")
            seen.add(following)
            payload += over[4:usable][:size - len(payload)]
            following = struct.unpack(">I", over[:4])[0]
    return bytes(payload)


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = data[pos + i]
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise ValueError("varint")  # pragma: no cover - the loop always returns


def _record(payload: bytes) -> list[Any]:
    """A record's values: NULL, integers, floats, text (str; bytes when it is not UTF-8), blobs."""
    header_size, pos = _varint(payload, 0)
    if not 0 < header_size <= len(payload):
        raise ValueError("record header")
    types = []
    while pos < header_size:
        serial, pos = _varint(payload, pos)
        types.append(serial)
    values: list[Any] = []
    body = header_size
    for serial in types:
        if serial == 0:
            values.append(None)
        elif serial in (8, 9):
            values.append(serial - 8)
        elif 1 <= serial <= 6:
            width = (1, 2, 3, 4, 6, 8)[serial - 1]
            values.append(int.from_bytes(payload[body:body + width], "big", signed=True))
            body += width
        elif serial == 7:
            values.append(struct.unpack(">d", payload[body:body + 8])[0])
            body += 8
        elif serial >= 12:
            width = (serial - 12) // 2
            raw = payload[body:body + width]
            if serial % 2:
                try:
                    values.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    values.append(bytes(raw))  # text that is not UTF-8: kept as its bytes
            else:
                values.append(bytes(raw))
            body += width
        else:
            raise ValueError("reserved serial type")
        if body > len(payload):
            raise ValueError("record runs past its payload")
    return values
