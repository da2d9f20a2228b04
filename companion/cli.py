"""The ``fog-companion`` command line (also ``python -m companion``).

Subcommands are registered in :data:`COMMANDS`; each is a small function taking parsed
arguments and returning an exit code. Deliberate errors (:class:`FogCompanionError`) are shown
as one clear line on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion import __version__
from companion.errors import FogCompanionError, StateFormatError
from companion.games.fog import rules
from companion.games.fog.board import Board
from companion.games.fog.game import FogGame
from companion.games.fog.scoring import CATEGORY_TITLES, score
from companion.games.fog.state import GameState
from companion.games.fog.text import render
from companion.statefile import read_state, write_out

Handler = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[Handler, Callable[[argparse.ArgumentParser], None], str]] = {}


def command(name: str, help_text: str, configure: Callable[[argparse.ArgumentParser], None]):  # type: ignore[no-untyped-def]
    def deco(fn: Handler) -> Handler:
        COMMANDS[name] = (fn, configure, help_text)
        return fn
    return deco


# ----------------------------------------------------------------------------- new-game
def _new_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=4, help="2, 3 or 4 (1 = solo; see --solo)")
    p.add_argument("--solo", metavar="SCENARIO", help="solo play with a scenario id or file")
    p.add_argument("--seed", type=int, default=0, help="seed of the random setup")
    p.add_argument("--options", default="", help="e.g. hourglass=90,enhanced,min-crew,leaders")
    p.add_argument("--names", default="", help="comma-separated player names in seating order")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("-o", "--output", help="write the state JSON to this file")


@command("new-game", "set up a new game (seeded) and print it", _new_game_args)
def cmd_new_game(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.names.split(",") if n.strip()] or None
    state = FogGame().new_game(players=args.players, seed=args.seed, options=args.options, names=names,
                               scenario=args.solo, board=args.board)
    if args.output:
        write_out(state.to_json(indent=1), args.output)
    if args.json:
        print(state.to_json(indent=1))
    elif not args.output:
        print(render(state))
        order = ", ".join(f"{c} ({state.player_of(c).name})" for c in state.turn_order)  # type: ignore[union-attr]
        print(f"turn board: {order}; boat areas {state.area_values}")
    return 0


# ----------------------------------------------------------------------------- score
def _score_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("state", help="state JSON file ('-' for stdin)")
    p.add_argument("--json", action="store_true")


@command("score", "score a game state and print the breakdown", _score_args)
def cmd_score(args: argparse.Namespace) -> int:
    report = score(read_state(args.state))
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
        return 0
    for colour, sheet in report.colours.items():
        cats = ", ".join(f"{CATEGORY_TITLES[k]} {v:+d}" for k, v in sheet.categories.items())
        print(f"{colour:>7}: {sheet.total:>4} RP  ({cats})")
    for s in report.standings:
        print(f"  {s.name}: {s.score} RP, {s.lost} lost, {s.commoners_rescued} commoners rescued")
    print("winner: " + " and ".join(report.winners) + (f" ({report.tiebreak})" if report.tiebreak else ""))
    if report.rescue_level:
        print(f"rescue level: {report.rescue_level}")
    return 0


# ----------------------------------------------------------------------------- board
def _board_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--json", action="store_true", help="geometry for the camera, as JSON")


def board_geometry(board: Board) -> dict[str, Any]:
    """The board's geometry in the shape the vision code and the panel read."""
    cells = []
    for c in board.cells.values():
        entry: dict[str, Any] = {"id": c.id, "kind": c.kind, "center_mm": list(c.center_mm)}
        for key in ("row", "q", "r", "pier", "boat", "area", "side", "place", "islander_type"):
            if getattr(c, key) is not None:
                entry[key] = getattr(c, key)
        if c.kind == "boat":
            entry["capacity"] = c.capacity
        cells.append(entry)
    pieces: list[dict[str, Any]] = [
        {"marker": i.marker, "id": i.id, "kind": "islander", "size_mm": board.islander_marker_mm,
         "nation": i.nation, "type": i.type, "characteristic": i.characteristic}
        for i in board.islanders.values()
    ]
    pieces += [{"marker": o.marker, "id": o.id, "kind": "obstacle", "size_mm": board.obstacle_marker_mm,
                "obstacle": o.kind} for o in board.obstacles.values()]
    pieces += [{"marker": m, "id": f"{name}-marker", "kind": name, "size_mm": board.islander_marker_mm}
               for name, m in board.special_markers.items()]
    return {
        "name": board.name,
        "units": "mm",
        "size_mm": list(board.size_mm),
        "hex_size_mm": board.hex_size_mm,
        "token_height_mm": board.token_height_mm,
        "marker_dictionary": board.marker_dictionary,
        "fiducials": [dict(f) for f in board.fiducials],
        "cells": cells,
        "links": [{"a": lk.a, "b": lk.b, "kind": lk.kind} for lk in board.links],
        "pieces": pieces,
    }


@command("board", "describe the board (text, or --json geometry for the camera)", _board_args)
def cmd_board(args: argparse.Namespace) -> int:
    board = Board.load_named(args.board)
    if args.json:
        print(json.dumps(board_geometry(board), indent=1))
        return 0
    print(f"board {board.name} ({board.source}), {board.size_mm[0]:.0f} x {board.size_mm[1]:.0f} mm, "
          f"markers {board.marker_dictionary}")
    for rid in board.beach_rows:
        row = board.rows[rid]
        print(f"  row {rid}: {len(board.row_cells[rid]):>2} hexes, {row.obstacles} obstacles / "
              f"{row.empty_for('4')} empty, {row.lost_rp} RP per islander lost")
    print(f"  shore: {len(board.row_cells['shore'])} hexes; boats {', '.join(board.boat_order)}; "
          f"FOG track {' > '.join(f.label for f in board.fog_fields)}")
    return 0


# ----------------------------------------------------------------------------- show / act
def _show_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("state", help="state JSON file ('-' for stdin)")


@command("show", "draw a saved game state as text", _show_args)
def cmd_show(args: argparse.Namespace) -> int:
    print(render(read_state(args.state)))
    return 0


def _act_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("state", help="state JSON file ('-' for stdin)")
    p.add_argument("actions", nargs="+", help="actions, e.g. 'draft black blue-leader-1' or 'end-turn'")
    p.add_argument("-o", "--output", help="write the new state here (default: print it)")


@command("act", "apply actions to a saved state and print the new state", _act_args)
def cmd_act(args: argparse.Namespace) -> int:
    state = read_state(args.state)
    for text in args.actions:
        state = rules.apply(state, text)
    write_out(state.to_json(indent=1), args.output)
    return 0


# ----------------------------------------------------------------------------- explain
def _explain_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("before", help="the expected game state (JSON)")
    p.add_argument("after", help="a game state or an observation {\"placement\": {cell: [piece, ...]}}")
    p.add_argument("--json", action="store_true")


def read_placement(path: str) -> dict[str, list[str]]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise StateFormatError(f"cannot read {path}: {exc}") from exc
    placement = data.get("placement") if isinstance(data, dict) else None
    if not isinstance(placement, dict) or not all(
            isinstance(v, list) and all(isinstance(p, str) for p in v) for v in placement.values()):
        raise StateFormatError(f"{path}: expected a game state or an object with a 'placement' of cell -> [pieces]")
    return placement


@command("explain", "the cheapest legal movements that turn BEFORE into AFTER", _explain_args)
def cmd_explain(args: argparse.Namespace) -> int:
    from companion.games.fog.explain import explain

    answer = explain(read_state(args.before), read_placement(args.after))
    if args.json:
        print(json.dumps(answer.to_dict(), indent=1))
    elif answer.ok:
        for i, option in enumerate(answer.options, 1):
            print(f"option {i}: {option.cost} MP" + (f", bonuses {list(option.gains)}" if option.gains else ""))
            for m in option.movements:
                print(f"  {m}")
    else:
        print(f"no legal explanation: {answer.reason}")
    return 0


# ----------------------------------------------------------------------------- run / play
def _run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="config file (default: $FOG_CONFIG, /etc/fog-companion/config.toml "
                   "or ~/.config/fog-companion/config.toml; see docs/config.md)")
    p.add_argument("--camera", metavar="SOURCE", help="picamera2 | sim | 0 | /dev/video0 | file | folder | URL "
                   "(default from the config: sim)")
    p.add_argument("--host", help="panel address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, help="panel port (default 8080)")
    p.add_argument("--data-dir", help="where games are kept (default: $FOG_DATA_DIR or ~/.local/share/fog-companion)")
    p.add_argument("--no-panel", action="store_true", help="do not start the web panel")
    p.add_argument("--console", action="store_true", help="read terminal commands from standard input even when it "
                   "is not a terminal (they are read from a terminal anyway; the service reads none)")
    g = p.add_argument_group("a new game right away (otherwise the last game resumes, or the panel starts one)")
    g.add_argument("--players", type=int, help="2, 3 or 4 (1 = solo; see --solo)")
    g.add_argument("--solo", metavar="SCENARIO", help="solo play with a scenario id or file")
    g.add_argument("--seed", type=int, default=0, help="seed of the random setup")
    g.add_argument("--options", default="", help="e.g. hourglass=90,enhanced,min-crew,leaders")
    g.add_argument("--names", default="", help="comma-separated player names in seating order")
    g.add_argument("--board", help="packaged board name or board file (default from the config: standard)")


@command("run", "run the companion: camera, rules, LEDs and buttons (simulated table by default)", _run_args)
def cmd_run(args: argparse.Namespace) -> int:
    from companion.run import run_companion

    return run_companion(args)


@command("play", "play a game at the terminal, without camera or LEDs", _new_game_args)
def cmd_play(args: argparse.Namespace) -> int:
    from companion.terminal import play

    names = [n.strip() for n in args.names.split(",") if n.strip()] or None
    state = FogGame().new_game(players=args.players, seed=args.seed, options=args.options, names=names,
                               scenario=args.solo, board=args.board)
    return play(state, save_to=Path(args.output) if args.output else None)


def _doctor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="config file to check (default: as run finds it)")
    p.add_argument("--camera", metavar="SOURCE", help="check this camera instead of the configured one")
    p.add_argument("--data-dir", help="check this data directory instead of the configured one")


@command("doctor", "check Python, OpenCV, config, camera, fiducials, LEDs, GPIO, data directory and port",
         _doctor_args)
def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.doctor import doctor

    return doctor(args)


# ----------------------------------------------------------------------------- games / export
def _data_dir_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", help="where games are kept (default: $FOG_DATA_DIR or ~/.local/share/fog-companion)")


def _store(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from companion.paths import default_data_dir
    from companion.store import GameStore

    folder = Path(args.data_dir) if args.data_dir else default_data_dir()
    return GameStore(folder / "games.db")


@command("games", "list the games kept in the data directory", _data_dir_args)
def cmd_games(args: argparse.Namespace) -> int:
    import time as _time

    store = _store(args)
    for g in store.games():
        when = _time.strftime("%Y-%m-%d %H:%M", _time.localtime(g.created))
        print(f"{g.id}  {when}  {g.status:<8}  {g.events:>4} events  {g.title}")
    return 0


def _export_args(p: argparse.ArgumentParser) -> None:
    _data_dir_args(p)
    p.add_argument("game", help="a game id from 'fog-companion games'")
    p.add_argument("-o", "--output", help="write the JSON here (default: print it)")


@command("export", "write one game, its setup and its whole log, as JSON", _export_args)
def cmd_export(args: argparse.Namespace) -> int:
    write_out(json.dumps(_store(args).export(args.game), indent=1), args.output)
    return 0


# ----------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    from companion.run import extra_commands

    parser = argparse.ArgumentParser(prog="fog-companion", description="A companion for The FOG at the table.")
    parser.add_argument("--version", action="version", version=f"fog-companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (fn, configure, help_text) in {**COMMANDS, **extra_commands()}.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        configure(p)
        p.set_defaults(handler=fn)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args))
    except FogCompanionError as exc:
        print(f"fog-companion {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. piped into head: the reader has all it wanted
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
