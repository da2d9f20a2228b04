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
from typing import TYPE_CHECKING, Any

from companion import __version__
from companion.club import arguments as club_arguments
from companion.errors import FogCompanionError, StateFormatError
from companion.games import Game, Layout, command_line_answers, get_game, names, new_game
from companion.store.statefile import read_game_state, write_out

if TYPE_CHECKING:  # the store is loaded only by the commands that keep games
    from companion.store.store import GameStore

Handler = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[Handler, Callable[[argparse.ArgumentParser], None], str]] = {}


def command(name: str, help_text: str, configure: Callable[[argparse.ArgumentParser], None]
            ) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        COMMANDS[name] = (fn, configure, help_text)
        return fn
    return deco


# ----------------------------------------------------------------------------- new-game
def _game_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="fog", choices=names(), help="which game (default: fog)")


def _file_game_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=names(), help="which game (default: the one the state file names; "
                   "given, it must agree with the file)")


def _counts(players: Sequence[int]) -> str:
    """A game's player counts as a reader says them: "2 to 6", "4", "2 or 4"."""
    low, high = min(players), max(players)
    if len(players) == 1:
        return str(low)
    if list(players) == list(range(low, high + 1)):
        return f"{low} to {high}" if len(players) > 2 else f"{low} or {high}"
    return ", ".join(map(str, players[:-1])) + f" or {players[-1]}"


def _players_help() -> str:
    """``--players`` said from the games themselves: each game seats its own counts, and a count
    written here by hand goes wrong the day a game is added or changes its table."""
    each = "; ".join(f"{n}: {_counts(get_game(n).players)}"
                     + (" (1: solo, see --solo)" if 1 in get_game(n).players else "") for n in names())
    return f"how many play (default: 1 with --solo, else the most the game seats); by --game, {each}"


class _PlayersHelp(str):
    """``--players``'s help, made from the games only when help is shown: making it imports every game,
    and a running companion holds in memory only the games it plays (docs/service.md, Resources)."""

    def __mod__(self, params: Any) -> str:
        return _players_help() % params


def _game(args: argparse.Namespace) -> Game:
    return get_game(getattr(args, "game", None) or "fog")


def new_state(args: argparse.Namespace) -> Any:
    """A new game from the command line's setup answers, checked as the panel's are (one place)."""
    game = _game(args)
    players, answers = command_line_answers(game, args.players, args.names, args.solo, args.options)
    return new_game(game, players, args.seed, answers, board=args.board or "standard", files=True)


def _new_game_args(p: argparse.ArgumentParser) -> None:
    _game_arg(p)
    p.add_argument("--players", type=int, help=_PlayersHelp("how many play"))
    p.add_argument("--solo", metavar="SCENARIO", help="solo play with a scenario id or file")
    p.add_argument("--seed", type=int, default=0, help="seed of the random setup")
    p.add_argument("--options", default="", help="the game's options, comma-separated: a switch or name=value "
                   "(as the Setup page's Options question asks them; docs/state-format.md)")
    p.add_argument("--names", default="", help="comma-separated player names in seating order")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--json", action="store_true", help="print the state as JSON (the whole saved state, a "
                   "game's secrets included: 'act' and 'show' read it back)")
    p.add_argument("-o", "--output", help="write the state JSON to this file")


@command("new-game", "set up a new game (seeded) and print it", _new_game_args)
def cmd_new_game(args: argparse.Namespace) -> int:
    game = _game(args)
    state = new_state(args)
    text = json.dumps(game.to_json(state), indent=1)
    if args.output:
        write_out(text, args.output)
    if args.json:
        print(text)
    elif not args.output:
        print(game.rules.text(state))
    return 0


# ----------------------------------------------------------------------------- score
def _score_args(p: argparse.ArgumentParser) -> None:
    _file_game_arg(p)
    p.add_argument("state", help="state JSON file ('-' for stdin)")
    p.add_argument("--json", action="store_true")


@command("score", "score a game state and print the breakdown", _score_args)
def cmd_score(args: argparse.Namespace) -> int:
    game, state = read_game_state(args.state, args.game)
    report = game.rules.score(state)
    print(json.dumps(report.to_dict(), indent=1) if args.json else "\n".join(report.lines()))
    return 0


# ----------------------------------------------------------------------------- board
def _board_args(p: argparse.ArgumentParser) -> None:
    _game_arg(p)
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--json", action="store_true", help="geometry for the camera, as JSON")


def board_geometry(layout: Layout) -> dict[str, Any]:
    """A board's geometry as the camera and the panel read it (any game's layout)."""
    cells = [{"id": c.id, "kind": c.kind, "center_mm": list(c.center_mm),
              "outline": [list(p) for p in c.outline], **{k: v for k, v in c.facts.items() if v is not None}}
             for c in layout.cells.values()]
    pieces = [{"marker": p.marker, "id": p.id, "kind": p.kind, "size_mm": p.marker_mm, "facing": p.facing,
               **dict(p.facts)} for p in layout.pieces.values()]
    pieces += [{"marker": m, "id": f"{name}-marker", "kind": name, "size_mm": layout.marker_mm}
               for name, m in layout.special_markers.items()]
    return {"name": layout.name, "units": "mm", "size_mm": list(layout.size_mm), "snap_mm": layout.snap_mm,
            "piece_height_mm": layout.piece_height_mm, "marker_dictionary": layout.marker_dictionary,
            "fiducials": [dict(f) for f in layout.fiducials], "cells": cells,
            "edges": [{"a": e.a, "b": e.b, "kind": e.kind} for e in layout.edges], "pieces": pieces}


@command("board", "describe the board (text, or --json geometry for the camera)", _board_args)
def cmd_board(args: argparse.Namespace) -> int:
    game = _game(args)
    if args.json:
        print(json.dumps(board_geometry(game.table.layout(board=args.board)), indent=1))
    else:
        print(game.table.describe_board(args.board))
    return 0


# ----------------------------------------------------------------------------- show / act
def _show_args(p: argparse.ArgumentParser) -> None:
    _file_game_arg(p)
    p.add_argument("state", help="state JSON file ('-' for stdin)")


@command("show", "draw a saved game state as text", _show_args)
def cmd_show(args: argparse.Namespace) -> int:
    game, state = read_game_state(args.state, args.game)
    print(game.rules.text(state))
    return 0


def _act_args(p: argparse.ArgumentParser) -> None:
    _file_game_arg(p)
    p.add_argument("state", help="state JSON file ('-' for stdin)")
    p.add_argument("actions", nargs="+", help="actions in the game's notation, e.g. 'end-turn'")
    p.add_argument("-o", "--output", help="write the new state here (default: print it)")


@command("act", "apply actions to a saved state and print the new state", _act_args)
def cmd_act(args: argparse.Namespace) -> int:
    game, state = read_game_state(args.state, args.game)
    for text in args.actions:
        state = game.rules.apply(state, text)
    write_out(json.dumps(game.to_json(state), indent=1), args.output)
    return 0


# ----------------------------------------------------------------------------- explain
def _explain_args(p: argparse.ArgumentParser) -> None:
    _file_game_arg(p)
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


@command("explain", "read AFTER (a picture) against BEFORE: the legal actions that lead there", _explain_args)
def cmd_explain(args: argparse.Namespace) -> int:
    game, before = read_game_state(args.before, args.game)
    answer = game.table.reconcile(before, read_placement(args.after))
    if args.json:
        print(json.dumps(answer.to_dict(), indent=1))
    elif answer.ok:
        for i, choice in enumerate(answer.choices, 1):
            print(f"option {i}: {choice.summary}")
            for action in choice.actions:
                print(f"  {action}")
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
    g = p.add_argument_group("a new game right away, any of these given (the game that ran is paused: the panel's "
                             "Games page resumes it); none given, the last game resumes, or the panel starts one")
    g.add_argument("--game", choices=names(), help="which game (default from the config: fog)")
    g.add_argument("--players", type=int, help=_PlayersHelp("how many play"))
    g.add_argument("--solo", metavar="SCENARIO", help="solo play with a scenario id or file")
    g.add_argument("--seed", type=int, help="seed of the random setup (default 0)")
    g.add_argument("--options", default="", help="the game's options, comma-separated: a switch or name=value "
                   "(as the Setup page's Options question asks them; docs/state-format.md)")
    g.add_argument("--names", default="", help="comma-separated player names in seating order")
    g.add_argument("--board", help="packaged board name or board file (default from the config: standard)")


@command("run", "run the companion: camera, rules, LEDs and buttons (simulated table by default)", _run_args)
def cmd_run(args: argparse.Namespace) -> int:
    from companion.app.run import run_companion

    return run_companion(args)


@command("play", "play a game at the terminal, without camera or LEDs", _new_game_args)
def cmd_play(args: argparse.Namespace) -> int:
    from companion.app.terminal import play

    return play(new_state(args), save_to=Path(args.output) if args.output else None, game=_game(args))


def _doctor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="config file to check (default: as run finds it)")
    p.add_argument("--camera", metavar="SOURCE", help="check this camera instead of the configured one")
    p.add_argument("--data-dir", help="check this data directory instead of the configured one")


@command("doctor", "check Python, OpenCV, config, camera, fiducials, LEDs, GPIO, data directory and port",
         _doctor_args)
def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.app.doctor import doctor

    return doctor(args)


# ----------------------------------------------------------------------------- games / export
def _data_dir_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", help="where games are kept (default: $FOG_DATA_DIR or ~/.local/share/fog-companion)")


def _store(args: argparse.Namespace) -> GameStore:
    from companion.app.paths import default_data_dir
    from companion.store.store import GameStore

    folder = Path(args.data_dir) if args.data_dir else default_data_dir()
    return GameStore(folder / "games.db")


@command("games", "list the games kept in the data directory", _data_dir_args)
def cmd_games(args: argparse.Namespace) -> int:
    import time as _time

    store = _store(args)
    for g in store.games():
        when = _time.strftime("%Y-%m-%d %H:%M", _time.localtime(g.created))
        # a game started untitled is called by its game, as the panel's Games page calls it
        title = get_game(g.game).title if g.title == g.id and g.game in names() else g.title
        print(f"{g.id}  {when}  {g.status:<8}  {g.events:>4} events  {title}")
    return 0


def _export_args(p: argparse.ArgumentParser) -> None:
    _data_dir_args(p)
    p.add_argument("game", help="a game id from 'fog-companion games'")
    p.add_argument("-o", "--output", help="write the JSON here (default: print it)")


@command("export", "write one game, its setup and its whole log, as JSON", _export_args)
def cmd_export(args: argparse.Namespace) -> int:
    write_out(json.dumps(_store(args).export(args.game), indent=1), args.output)
    return 0


# ----------------------------------------------------------------------------- club
@command("club", "serve the club page: every table publishing to the broker, live, and the league (docs/club.md)",
         club_arguments)
def cmd_club(args: argparse.Namespace) -> int:
    from companion.app.commands import club_page  # the page is the panel's (web_ui), wired where the packages meet

    return club_page(args)


# ----------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    from companion.app.commands import extra_commands

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
