"""A FOG board file moved to a printed board as measured by ``fog-companion fit-board``.

The packaged file is copied line by line, so its comments and order stay: every ``center_mm`` of
a cell goes through the fit's affine map, the corner markers' ``center_mm`` are set to where they
were found glued, ``hex_size_mm`` follows the print's scale, and ``size_mm`` grows if the moved
places would fall off the board's outline. The result is read back like any board file before it
is returned, so a fitted file that the loader would refuse is never written.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from companion.errors import BoardFileError
from companion.games.base import BoardFit
from companion.games.fog.board import Board

_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z_.]+)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^(\s*)([A-Za-z_]+)(\s*=\s*)(.*?)(\s*#.*)?$")
MARGIN_MM = 5.0  # room kept between the outermost place and the board's edge when the outline grows


def board_text(board: str) -> tuple[str, str]:
    """The text of a packaged board (by name) or a board file (by path), and where it came from."""
    if "/" in board or board.endswith(".toml"):
        path = Path(board)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise BoardFileError(f"cannot read board file {path}: {exc.strerror or exc}") from exc
    ref = resources.files("companion.games.fog") / "boards" / f"{board}.toml"
    if not ref.is_file():
        raise BoardFileError(f"no packaged board named {board!r}")
    return ref.read_text(encoding="utf-8"), f"package:{board}"


def fitted_board_text(fit: BoardFit, board: str = "standard", name: str | None = None, note: str = "") -> str:
    """The board file ``board`` moved by ``fit``, named ``name``; ``note`` goes in its header."""
    text, source = board_text(board)
    base = Board.from_toml(text, source)
    cells = {cid: fit.apply(c.center_mm) for cid, c in base.cells.items()}
    fiducials = {int(k): v for k, v in fit.fiducials.items()}
    known = {int(f["id"]) for f in base.fiducials}
    if set(fiducials) != known:
        raise BoardFileError(f"the fit has corner markers {sorted(fiducials)}, the board {sorted(known)}")
    half = max(float(f["size_mm"]) for f in base.fiducials) / 2
    xs = [p[0] for p in cells.values()] + [p[0] + half for p in fiducials.values()]
    ys = [p[1] for p in cells.values()] + [p[1] + half for p in fiducials.values()]
    size = (max(base.size_mm[0], max(xs) + MARGIN_MM), max(base.size_mm[1], max(ys) + MARGIN_MM))
    out = [f"# {line}" if line else "#" for line in _header(base.name, source, fit, note)]
    section, block = "", []
    for line in text.splitlines():
        head = _HEADER.match(line)
        if head:
            out.extend(_rewrite(section, block, cells, fiducials, base.hex_size_mm * fit.scale, size, name))
            section, block = head.group(1), [line]
        else:
            block.append(line)
    out.extend(_rewrite(section, block, cells, fiducials, base.hex_size_mm * fit.scale, size, name))
    result = "\n".join(out) + "\n"
    Board.from_toml(result, f"fitted board {name or base.name}")  # refused here, never written
    return result


def _header(base: str, source: str, fit: BoardFit, note: str) -> list[str]:
    a, b, c, d, e, f = fit.transform
    lines = [f"Fitted to a printed board with fog-companion fit-board, from {source} ({base}).",
             f"Every place moved by x' = {a:.5f} x + {b:.5f} y + {c:.2f}, y' = {d:.5f} x + {e:.5f} y + {f:.2f}",
             f"(the print is {fit.scale:.4f} times the file); the corner markers are where they were found."]
    return lines + ([*note.splitlines()] if note else []) + [""]


def _rewrite(section: str, block: list[str], cells: dict[str, tuple[float, float]],
             fiducials: dict[int, tuple[float, float]], hex_size: float, size: tuple[float, float],
             name: str | None) -> list[str]:
    values = {}
    for line in block:
        m = _KEY.match(line)
        if m:
            values[m.group(2)] = m.group(4)
    new: dict[str, str] = {}
    if section == "board":
        new = {"hex_size_mm": f"{hex_size:.3f}", "size_mm": f"[{size[0]:.1f}, {size[1]:.1f}]"}
        if name:
            new["name"] = '"' + name.replace("\\", "").replace('"', "") + '"'
    elif section == "fiducials" and "id" in values:
        x, y = fiducials[int(values["id"])]
        new = {"center_mm": f"[{x:.2f}, {y:.2f}]"}
    elif section == "cells" and "id" in values:
        x, y = cells[values["id"].strip().strip('"')]
        new = {"center_mm": f"[{x:.2f}, {y:.2f}]"}
    if not new:
        return block
    out = []
    for line in block:
        m = _KEY.match(line)
        if m and m.group(2) in new:
            comment = m.group(5) or ""
            if "edit to match" in comment:
                comment = ""
            line = f"{m.group(1)}{m.group(2)}{m.group(3)}{new[m.group(2)]}{comment}"
        out.append(line)
    return out
