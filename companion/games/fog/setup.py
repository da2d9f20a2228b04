"""Setup of The FOG (rulebook section 3): obstacles row by row, then islanders, seeded.

The generator follows the table procedure: obstacles go into rows A to J in order, each row
getting its printed number at random places that keep three constraints; then the islanders are
shuffled into rows A-I leaving the printed number of empty hexes. The constraints are checked
by :func:`obstacle_violations` from cell adjacency alone, and the tests use that same checker on
hundreds of generated setups, so a change to the generator cannot quietly break them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping

from companion.errors import OptionsError, SetupError
from companion.games.fog.board import Board
from companion.games.fog.options import Options
from companion.games.fog.state import GameState, Player

MAX_GROUP = 3          # no more than 3 obstacles adjacent to each other as a group
MAX_BY_WOODS = 3       # no more than 3 obstacles adjacent to the woods in total
MAX_SIDE_BY_SIDE_J = 2  # no more than 2 obstacles next to one another in row J


def obstacle_violations(board: Board, obstacle_cells: Iterable[str]) -> list[str]:
    """Every broken setup constraint, as sentences; empty when the obstacles are legal."""
    cells = set(obstacle_cells)
    problems: list[str] = []
    for group in _groups(cells, lambda c: board.neighbours(c)):
        if len(group) > MAX_GROUP:
            problems.append(f"a group of {len(group)} adjacent obstacles: {', '.join(sorted(group))}")
    by_woods = sorted(cells & board.woods_adjacent)
    if len(by_woods) > MAX_BY_WOODS:
        problems.append(f"{len(by_woods)} obstacles touch the woods: {', '.join(by_woods)}")
    last_row = board.beach_rows[-1]
    in_last = {c for c in cells if board.cells[c].row == last_row}

    def side_by_side(c: str) -> set[str]:
        return {n for n in (board.step(c, "E"), board.step(c, "W")) if n is not None}

    for group in _groups(in_last, side_by_side):
        if len(group) > MAX_SIDE_BY_SIDE_J:
            problems.append(f"{len(group)} obstacles side by side in row {last_row}: {', '.join(sorted(group))}")
    return problems


def _groups(cells: set[str], adjacent: Callable[[str], Iterable[str]]) -> list[set[str]]:
    """Connected components of ``cells`` under ``adjacent``."""
    left = set(cells)
    out: list[set[str]] = []
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            for n in adjacent(stack.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out


def place_obstacles(board: Board, rng: random.Random, attempts: int = 200) -> dict[str, str]:
    """Obstacles row by row from A, each row's picks redrawn until the constraints hold."""
    obstacle_ids = list(board.obstacles)
    for _ in range(attempts):
        rng.shuffle(obstacle_ids)
        chosen: list[str] = []
        ok = True
        for row in board.beach_rows:
            need = board.rows[row].obstacles
            if need == 0:
                continue
            for _try in range(60):
                picks = rng.sample(board.row_cells[row], need)
                if not obstacle_violations(board, chosen + picks):
                    chosen.extend(picks)
                    break
            else:
                ok = False
                break
        if ok:
            return dict(zip(chosen, obstacle_ids))
    raise SetupError(f"could not place the obstacles of board {board.name!r} within the constraints; "
                     "check the obstacle numbers per row")


def default_players(board: Board, count: int, names: list[str] | None = None) -> tuple[Player, ...]:
    """Players with colours from the board file; with 2 players each plays two colours."""
    if count not in (2, 3, 4):
        raise OptionsError(f"The FOG is played by 2, 3 or 4 players (or solo), not {count}")
    names = list(names or [])
    if len(names) > count:
        raise OptionsError(f"{len(names)} names given for {count} players")
    names += [f"Player {i + 1}" for i in range(len(names), count)]
    colours = board.player_colours
    if count == 2:
        return (Player(names[0], (colours[0], colours[2])), Player(names[1], (colours[1], colours[3])))
    return tuple(Player(names[i], (colours[i],)) for i in range(count))


def turn_order_for(players: tuple[Player, ...]) -> tuple[str, ...]:
    """Colours on the turn board's fields from the top: the starting player first, then clockwise
    (with two players the colours alternate between the players)."""
    width = max(len(p.colours) for p in players)
    return tuple(p.colours[k] for k in range(width) for p in players if k < len(p.colours))


def draw_area_values(board: Board, rng: random.Random) -> dict[str, int]:
    """Drop the four boat scoring tokens and lay them highest first on areas A-D."""
    values = sorted((rng.choice(token) for token in board.scoring_tokens), reverse=True)
    return dict(zip("ABCD", values))


def place_islanders(board: Board, rng: random.Random, obstacles: Mapping[str, str], islanders: list[str],
                    players_key: str, first: Mapping[str, list[str]] | None = None) -> dict[str, str]:
    """Islanders randomly into rows A-I (starting with A), leaving each row's empty hexes.

    ``first`` puts given islanders into a row before the others (rescue the leaders: row A).
    """
    pool = [i for i in islanders if not any(i in v for v in (first or {}).values())]
    rng.shuffle(pool)
    placed: dict[str, str] = {}
    for row in board.beach_rows:
        free = [c for c in board.row_cells[row] if c not in obstacles]
        spots = len(free) - board.rows[row].empty_for(players_key)
        if spots <= 0:
            continue
        cells = rng.sample(free, spots)
        forced = list((first or {}).get(row, []))
        if len(forced) > spots:
            raise SetupError(f"row {row} has room for {spots} islanders, {len(forced)} must start there")
        for cell in cells:
            placed[cell] = forced.pop(0) if forced else pool.pop()
    if pool:
        raise SetupError(f"{len(pool)} islanders found no place; the board's row numbers do not add up")
    return placed


def new_game(board: Board | None = None, players: int | tuple[Player, ...] = 4, seed: int = 0,
             options: Options | None = None, names: list[str] | None = None,
             board_name: str = "standard") -> GameState:
    """A fresh multiplayer game: turn order, setup, area values; ready for the draft."""
    board = board or Board.load_named(board_name)
    options = options or Options()
    rng = random.Random(seed)
    plist = players if isinstance(players, tuple) else default_players(board, players, names)
    count = len(plist)
    if count == 2 and options.two_player_scoring not in ("lower", "total"):
        raise OptionsError("two-player scoring must be lower or total")
    start = rng.randrange(count)  # the starting player is determined randomly
    plist = plist[start:] + plist[:start]
    order = turn_order_for(plist)
    for team in options.teams:
        for colour in team:
            if colour not in order:
                raise OptionsError(f"teams: {colour!r} is not a colour in this game ({', '.join(order)})")
    if options.advanced_fog:
        raise OptionsError("advanced-fog is a solo option")
    key = str(count)
    in_play = list(board.islanders_in_play(key))
    removed = tuple(i for i in board.islanders if i not in in_play)
    obstacles = place_obstacles(board, rng)
    leaders: tuple[str, ...] = ()
    first: dict[str, list[str]] = {}
    if options.rescue_the_leaders:
        leaders = tuple(i for i in in_play if board.islanders[i].type == "leader")
        if len(order) > len(leaders):  # 2/4 players: one elder is considered a leader too
            elders = [i for i in in_play if board.islanders[i].type == "elder"]
            leaders += tuple(rng.sample(elders, len(order) - len(leaders)))
        row_a = list(leaders)
        rng.shuffle(row_a)
        first = {board.beach_rows[0]: row_a}
    islanders = place_islanders(board, rng, obstacles, in_play, key, first)
    setup = {c: (p,) for c, p in {**obstacles, **islanders}.items()}
    state = GameState(
        board=board_name if board.source.startswith("package:") else board.source,
        mode="multi",
        players=plist,
        turn_order=order,
        options=options,
        seed=seed,
        area_values=draw_area_values(board, rng),
        setup=setup,
        placement=setup,
        phase="draft",
        fog=0,
        mp_left=board.mp_per_turn,
        prep_stacks={},
        leaders=leaders,
        removed=removed,
    )
    return state.initial()
