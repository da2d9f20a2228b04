"""A plain-text picture of a game, for the terminal and for logs.

Each beach and shore hex is drawn as a 3-character token at its place on the board:
``bL1`` = blue leader (nation initial, type initial, number), ``###`` = obstacle,
``...`` = empty, ``~~~`` = swallowed by the FOG, ``|||`` = woods.
"""

from __future__ import annotations

from companion.games.fog.board import Board
from companion.games.fog.state import GameState

TYPE_LETTER = {"leader": "L", "elder": "E", "warrior": "W", "sailor": "S", "commoner": "C"}


def piece_code(board: Board, piece: str) -> str:
    if piece in board.obstacles:
        return "###"
    isl = board.islanders[piece]
    return f"{isl.nation[0]}{TYPE_LETTER[isl.type]}{piece.rsplit('-', 1)[-1]}"


def render(state: GameState) -> str:
    board = state.board_data
    covered = board.swallowed_rows(state.fog)
    xs = [c.center_mm[0] for c in board.cells.values() if c.axial is not None]
    xmin = min(xs)
    step = board.hex_size_mm * 3 ** 0.5 / 4  # one text column per quarter hex
    lines: list[str] = []
    for boat in board.boat_order:
        places = []
        for cell in board.boat_places(boat):
            pieces = ",".join(piece_code(board, p) for p in state.pieces_at(cell.id)) or "-"
            label = cell.islander_type or "stern"
            places.append(f"{cell.area}{(cell.side or 'm')[0]}:{label}={pieces}")
        lines.append(f"{boat:>5} boat  " + "  ".join(places))
    piers = sorted({c.pier for c in board.cells.values() if c.kind == "pier" and c.pier})
    lines.append("piers       " + "  ".join(
        f"{p}: " + " ".join(",".join(piece_code(board, x) for x in state.pieces_at(f"{p}-{k}")) or "."
                            for k in (1, 2, 3)) for p in piers))
    for row in ("shore",) + tuple(reversed(board.beach_rows)):
        canvas = [" "] * 80
        cells = [board.cells[c] for c in board.row_cells[row]]
        if row != "shore":
            cells += [c for c in board.cells.values() if c.kind == "woods" and c.r == cells[0].r]
        for cell in cells:
            col = int(round((cell.center_mm[0] - xmin) / step))
            if cell.kind == "woods":
                token = "|||"
            elif state.pieces_at(cell.id):
                token = piece_code(board, state.pieces_at(cell.id)[-1])
            elif row in covered:
                token = "~~~"
            else:
                token = "..."
            while len(canvas) < col + 3:
                canvas.append(" ")
            canvas[col:col + 3] = list(token)
        lost = board.rows[row].lost_rp
        lines.append(f"{row:>5} {lost:>3} " + "".join(canvas).rstrip())
    fog = board.fog_fields[state.fog]
    lines.append(f"FOG on {fog.label} (covers {', '.join(sorted(board.swallowed_rows(state.fog))) or 'nothing yet'})"
                 f"  phase {state.phase}  round {state.round}  active {state.active_colour or '-'}"
                 f"  MP {state.mp_left}")
    return "\n".join(lines)
