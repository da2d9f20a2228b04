"""A FOG board file moved to a printed board as measured by ``fog-companion fit-board``.

The packaged file is copied table by table, so its comments and order stay: every ``center_mm`` of
a cell goes through the fit's affine map, the corner markers' ``center_mm`` are set to where they
were found glued, ``hex_size_mm`` follows the print's scale, and ``size_mm`` grows if the moved
places would fall off the board's outline.

When the print itself differs from the file (a hex that is woods on the print, a row with one
more hex), edits change a hex's kind, remove it, or add one where the print has it. The result is
read back like any board file before it is returned - rows, and the room for islanders with 2, 3
and 4 players, must still add up - so a fitted file the loader would refuse is never written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import BoardFileError
from companion.games.base import BoardFit, packaged_or_file
from companion.games.fog.board import Board

_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z_.]+)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^(\s*)([A-Za-z_]+)(\s*=\s*)(.*?)(\s*#.*)?$")
MARGIN_MM = 5.0  # room kept between the outermost place and the board's edge when the outline grows
HEX_KINDS = ("beach", "woods", "shore")


def board_text(board: str) -> tuple[str, str]:
    """The text of a packaged board (by name) or a board file (by path), and where it came from."""
    return packaged_or_file("companion.games.fog", "boards", board, BoardFileError)


class _Block:
    """One table of the file: its header's section name and its lines, values read off them."""

    def __init__(self, section: str, lines: list[str]) -> None:
        self.section, self.lines = section, lines

    def value(self, key: str) -> str | None:
        for line in self.lines:
            m = _KEY.match(line)
            if m and m.group(2) == key:
                return m.group(4)
        return None

    def text_value(self, key: str) -> str | None:
        v = self.value(key)
        return None if v is None else v.strip().strip('"')

    def set(self, key: str, value: str | None, after: str = "kind") -> None:
        """Replace a key's value (None: drop the line); a missing key goes after ``after``."""
        for k, line in enumerate(self.lines):
            m = _KEY.match(line)
            if m and m.group(2) == key:
                if value is None:
                    del self.lines[k]
                else:
                    comment = m.group(5) or ""
                    self.lines[k] = f"{m.group(1)}{key}{m.group(3)}{value}{'' if 'edit to match' in comment else comment}"
                return
        if value is None:
            return
        at = next((k + 1 for k, line in enumerate(self.lines) if (m := _KEY.match(line)) and m.group(2) == after),
                  len(self.lines))
        self.lines.insert(at, f"{key} = {value}")


def _blocks(text: str) -> list[_Block]:
    blocks = [_Block("", [])]
    for line in text.splitlines():
        head = _HEADER.match(line)
        if head:
            blocks.append(_Block(head.group(1), [line]))
        else:
            blocks[-1].lines.append(line)
    return blocks


def fitted_board_text(fit: BoardFit, board: str = "standard", name: str | None = None, note: str = "",
                      edits: Sequence[Mapping[str, Any]] = ()) -> str:
    """The board file ``board`` moved by ``fit``, named ``name``, with ``edits`` made (each one of
    ``{"cell": id, "kind": k}``, ``{"cell": id, "remove": true}``, ``{"add": [x, y], "kind": k}``
    with x, y in the file's millimetres, or ``{"row": id, "empty": n}``); ``note`` goes in its header."""
    text, source = board_text(board)
    base = Board.from_toml(text, source)
    fiducials = {int(k): v for k, v in fit.fiducials.items()}
    known = {int(f["id"]) for f in base.fiducials}
    if set(fiducials) != known:
        raise BoardFileError(f"the fit has corner markers {sorted(fiducials)}, the board {sorted(known)}")
    blocks = _blocks(text)
    _edit(blocks, base, edits)
    cells = {}
    for b in blocks:
        if b.section == "cells" and (cid := b.text_value("id")) is not None:
            x, y = (float(v) for v in (b.value("center_mm") or "[0, 0]").strip("[] ").split(","))
            cells[cid] = fit.apply((x, y))
            b.set("center_mm", f"[{cells[cid][0]:.2f}, {cells[cid][1]:.2f}]")
        elif b.section == "fiducials" and (fid := b.value("id")) is not None:
            x, y = fiducials[int(fid)]
            b.set("center_mm", f"[{x:.2f}, {y:.2f}]")
    half = max(float(f["size_mm"]) for f in base.fiducials) / 2
    xs = [p[0] for p in cells.values()] + [p[0] + half for p in fiducials.values()]
    ys = [p[1] for p in cells.values()] + [p[1] + half for p in fiducials.values()]
    size = (max(base.size_mm[0], max(xs) + MARGIN_MM), max(base.size_mm[1], max(ys) + MARGIN_MM))
    for b in blocks:
        if b.section == "board":
            b.set("hex_size_mm", f"{base.hex_size_mm * fit.scale:.3f}")
            b.set("size_mm", f"[{size[0]:.1f}, {size[1]:.1f}]")
            if name:
                b.set("name", '"' + name.replace("\\", "").replace('"', "") + '"')
    out = [f"# {line}" if line else "#" for line in _header(base.name, source, fit, note, edits)]
    for b in blocks:
        out.extend(b.lines)
    result = "\n".join(out) + "\n"
    Board.from_toml(result, f"fitted board {name or base.name}")  # refused here, never written
    return result


def _header(base: str, source: str, fit: BoardFit, note: str, edits: Sequence[Mapping[str, Any]]) -> list[str]:
    a, b, c, d, e, f = fit.transform
    lines = [f"Fitted to a printed board with fog-companion fit-board, from {source} ({base}).",
             f"Every place moved by x' = {a:.5f} x + {b:.5f} y + {c:.2f}, y' = {d:.5f} x + {e:.5f} y + {f:.2f}",
             f"(the print is {fit.scale:.4f} times the file); the corner markers are where they were found."]
    if edits:
        lines.append(f"{len(edits)} hex(es) changed to match the print: " + "; ".join(_says(e) for e in edits) + ".")
    return lines + ([*note.splitlines()] if note else []) + [""]


def _says(edit: Mapping[str, Any]) -> str:
    if edit.get("remove"):
        return f"{edit.get('cell')} removed"
    if "row" in edit:
        return f"row {edit.get('row')}'s numbers"
    if "add" in edit:
        return f"a {edit.get('kind', 'beach')} hex added"
    return f"{edit.get('cell')} made {edit.get('kind')}"


def _edit(blocks: list[_Block], base: Board, edits: Sequence[Mapping[str, Any]]) -> None:
    """Make the edits on the file's tables (before the fit moves anything)."""
    by_id = {b.text_value("id"): b for b in blocks if b.section == "cells"}
    row_at = {c.axial[1]: c.row for c in base.cells.values() if c.kind == "beach" and c.axial is not None}
    for k, edit in enumerate(edits):
        where = f"edit {k + 1}"
        if not isinstance(edit, Mapping):
            raise BoardFileError(f"{where}: expected an object")
        kind = edit.get("kind")
        if kind is not None and kind not in HEX_KINDS:
            raise BoardFileError(f"{where}: kind {kind!r} is not one of {', '.join(HEX_KINDS)}")
        if "add" in edit:
            _add(blocks, by_id, base, edit["add"], kind or "beach", row_at, where)
            continue
        if "row" in edit:
            _row_numbers(blocks, edit, where)
            continue
        cid = edit.get("cell")
        block = by_id.get(cid) if isinstance(cid, str) else None
        if block is None:
            raise BoardFileError(f"{where}: no cell {cid!r} on this board")
        if block.text_value("kind") not in HEX_KINDS:
            raise BoardFileError(f"{where}: {cid} is not a hex: only beach, woods and shore hexes can be changed")
        if edit.get("remove"):
            blocks.remove(block)
            del by_id[cid]
            blocks[:] = [b for b in blocks if not (b.section == "links" and cid in (b.text_value("a"), b.text_value("b")))]
            continue
        if kind is None:
            raise BoardFileError(f"{where}: say the new kind, or remove")
        r = int(block.value("r") or 0)
        block.set("kind", f'"{kind}"', after="id")
        if kind == "beach":
            if r not in row_at:
                raise BoardFileError(f"{where}: no beach row runs through {cid}, so it cannot be beach")
            block.set("row", f'"{row_at[r]}"')
        else:
            block.set("row", None)


def _row_numbers(blocks: list[_Block], edit: Mapping[str, Any], where: str) -> None:
    """A row's printed numbers: ``{"row": "J", "empty": 6}`` or ``{"row": "J", "empty": {"default": 6,
    "3": 8}}`` (empty hexes left at setup, by player count) and ``"obstacles"``."""
    row = next((b for b in blocks if b.section == "rows" and b.text_value("id") == edit["row"]), None)
    if row is None:
        raise BoardFileError(f"{where}: no row {edit['row']!r} on this board")
    empty, obstacles = edit.get("empty"), edit.get("obstacles")
    if empty is not None:
        if isinstance(empty, int) and not isinstance(empty, bool) and 0 <= empty <= 99:
            row.set("empty", str(empty), after="obstacles")
        elif isinstance(empty, Mapping) and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99
                                                 for v in empty.values()) and \
                set(empty) <= {"default", "2", "3", "4", "solo"} and "default" in empty:
            row.set("empty", "{ " + ", ".join(f'"{k}" = {v}' if k != "default" else f"default = {v}"
                                              for k, v in empty.items()) + " }", after="obstacles")
        else:
            raise BoardFileError(f"{where}: empty is a count 0-99, or counts by player number with a default")
    if obstacles is not None:
        if not (isinstance(obstacles, int) and not isinstance(obstacles, bool) and 0 <= obstacles <= 99):
            raise BoardFileError(f"{where}: obstacles is a count 0-99")
        row.set("obstacles", str(obstacles), after="id")


def _add(blocks: list[_Block], by_id: dict[str | None, _Block], base: Board, at: Any, kind: str,
         row_at: dict[int, str | None], where: str) -> None:
    """A hex at the lattice place nearest to ``at`` (file mm), where the file has none."""
    try:
        x, y = (float(v) for v in at)
    except (TypeError, ValueError):
        raise BoardFileError(f"{where}: 'add' is a place [x, y] in millimetres") from None
    if not all(math.isfinite(v) and abs(v) <= 5000 for v in (x, y)):
        raise BoardFileError(f"{where}: [{x}, {y}] is not a place on a board")
    hexes = [c for c in base.cells.values() if c.axial is not None]
    q0, r0, (cx0, cy0) = hexes[0].axial[0], hexes[0].axial[1], hexes[0].center_mm  # type: ignore[index]
    size = base.hex_size_mm
    # pointy-top hexes: x grows sqrt(3)*size per q and half that per r, y grows 1.5*size per r
    fr = (y - cy0) / (1.5 * size) + r0
    fq = (x - cx0) / (math.sqrt(3) * size) - (fr - r0) / 2 + q0
    q, r = _round_axial(fq, fr)
    taken = {(int(b.value("q") or 0), int(b.value("r") or 0)): cid for cid, b in by_id.items()
             if b.value("q") is not None and b.value("r") is not None}
    if (q, r) in taken:
        raise BoardFileError(f"{where}: there is a hex there already ({taken[(q, r)]})")
    cx = cx0 + math.sqrt(3) * size * ((q - q0) + (r - r0) / 2)
    cy = cy0 + 1.5 * size * (r - r0)
    if math.hypot(cx - x, cy - y) > size:
        raise BoardFileError(f"{where}: that place is not on the hex lattice")
    lines = ["[[cells]]"]
    if kind == "beach":
        row = row_at.get(r)
        if row is None:
            raise BoardFileError(f"{where}: no beach row runs there, so a beach hex cannot be added")
        numbers = [int(i[len(row):]) for i in by_id if i and i.startswith(row) and i[len(row):].isdigit()]
        cid = f"{row}{max(numbers, default=0) + 1}"
        lines += [f'id = "{cid}"', 'kind = "beach"', f'row = "{row}"']
    else:
        cid = f"{kind}-{q}-{r}"
        lines += [f'id = "{cid}"', f'kind = "{kind}"']
    if cid in by_id:
        raise BoardFileError(f"{where}: a cell named {cid} exists already")
    lines += [f"q = {q}", f"r = {r}", f"center_mm = [{cx:.2f}, {cy:.2f}]"]
    block = _Block("cells", lines)
    last = max(k for k, b in enumerate(blocks) if b.section == "cells")
    blocks.insert(last + 1, block)
    by_id[cid] = block


def _round_axial(q: float, r: float) -> tuple[int, int]:
    """The hex a fractional axial position falls in (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)
