"""A new game from the answers to a game's setup questions, checked in one place for every caller.

The command line (``new-game``, ``play``), ``run --players`` and the panel's Setup page all start a
game through :func:`new_game`: the answers are checked against the game's own
:meth:`~companion.games.base.Game.setup_schema` before the game sees them, so an answer the game
does not ask (a typo, an option of another game) or one it does not allow is refused by its name
with what is allowed, by every caller alike, instead of being dropped on one path and not another.
Pure: no I/O beyond what the game itself reads (its board, a scenario file named on the command line).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import AnswerError
from companion.games.base import Game

SEAT_KEYS = ("name", "colours")


def new_game(game: Game, players: int, seed: int = 0, answers: Mapping[str, Any] | None = None,
             board: str | None = None, files: bool = False, deal: int | None = None) -> Any:
    """A fresh state of ``game`` for ``players`` from ``answers`` (question name -> answer), each
    checked against the game's setup questions first (:class:`AnswerError` names the one that is
    unknown or not allowed). ``board`` is the configured board (not a question players answer);
    ``files``: the answers may name a file where a question allows one (the command line may, the
    panel may not). A game that is dealt a secret (:attr:`~companion.games.base.Game.dealt`) is
    given ``deal`` as well, drawn here from the system's randomness unless a test names one: the
    seed is chosen and seen at setup, so a secret dealt from it alone is anyone's to work out."""
    schema = game.setup_schema(board)
    checked = check_answers(game, schema, players, seed, dict(answers or {}), files)
    if board is not None:
        checked["board"] = board
    if game.dealt:
        checked["deal"] = secrets.randbits(62) if deal is None else deal
    return game.new_game(players=players, seed=seed, **checked)


def check_answers(game: Game, schema: Sequence[Mapping[str, Any]], players: int, seed: int,
                  answers: dict[str, Any], files: bool = False) -> dict[str, Any]:
    """The answers as the game receives them, or :class:`AnswerError` naming the first one wrong."""
    questions = {q["name"]: q for q in schema}
    _check_one(game, questions.get("players", {"kind": "count", "choices": list(game.players)}), "players", players,
               players, files)
    if "seed" in questions:
        _check_one(game, questions["seed"], "seed", seed, players, files)
    asked = [n for n in questions if n not in ("players", "seed")]
    for name in answers:
        if name not in asked:
            raise AnswerError(f"{game.title} asks no question {name!r} (its questions: {', '.join(asked) or 'none'})")
    out = {}
    for name, value in answers.items():
        question = questions[name]
        when = question.get("when") or {}
        if "players" in when and when["players"] != players:
            raise AnswerError(f"{name!r} is asked only when players is {when['players']}, not {players}")
        _check_one(game, question, name, value, players, files)
        out[name] = value
    return out


def _check_one(game: Game, q: Mapping[str, Any], name: str, value: Any, players: int, files: bool) -> None:
    kind = q.get("kind")
    if kind in ("count", "int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise AnswerError(f"{name!r} = {value!r}: a whole number")
        if "choices" in q and value not in q["choices"]:
            *most, last = [str(c) for c in q["choices"]]
            raise AnswerError(f"{name!r} = {value}: {game.title} is played by "
                              f"{', '.join(most) + ' or ' if most else ''}{last} players")
        if q.get("min") is not None and value < q["min"] or q.get("max") is not None and value > q["max"]:
            raise AnswerError(f"{name!r} = {value}: {q.get('min')} to {q.get('max')}")
    elif kind == "choice":
        if not isinstance(value, str):
            raise AnswerError(f"{name!r} = {value!r}: one of {', '.join(q.get('choices', []))}")
        a_file = "/" in value or value.endswith(".toml")
        if value not in q.get("choices", []) and not (files and q.get("or_file") and a_file):
            more = " (or the path of a file)" if files and q.get("or_file") else ""
            raise AnswerError(f"{name!r} = {value!r}: one of {', '.join(q.get('choices', []))}{more}")
    elif kind == "text":
        if not isinstance(value, str) or len(value) > q.get("max", 300):
            raise AnswerError(f"{name!r}: text up to {q.get('max', 300)} characters")
    elif kind == "seats":
        _check_seats(q, value, players)


def _check_seats(q: Mapping[str, Any], seats: Any, players: int) -> None:
    """The seats question: one ``{name, colours}`` per player, colours the game has, none taken twice
    (a seat may leave out its colours or name: the game gives the usual ones)."""
    if not isinstance(seats, list) or len(seats) != players:
        raise AnswerError(f"'seats': one {{name, colours}} for each of the {players} players")
    per = q.get("colours_per_player", {})
    want = per.get(str(players), per.get("default"))
    taken: set[str] = set()
    for i, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise AnswerError(f"'seats': player {i + 1} must be an object {{name, colours}}")
        extra = sorted(set(seat) - set(SEAT_KEYS))
        if extra:
            raise AnswerError(f"'seats': player {i + 1} has no {extra[0]!r} (a seat is {{name, colours}})")
        name = seat.get("name")
        if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= q.get("max_name", 40)):
            raise AnswerError(f"'seats': player {i + 1}: a name is 1 to {q.get('max_name', 40)} characters")
        colours = seat.get("colours")
        if colours is None:
            continue
        if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours):
            raise AnswerError(f"'seats': player {i + 1}'s colours are a list of colour names")
        if players > 1 and want is not None and len(colours) != want:
            raise AnswerError(f"'seats': with {players} players each plays {want} colour(s), "
                              f"player {i + 1} has {len(colours)}")
        for colour in colours:
            if colour not in q.get("colours", []):
                raise AnswerError(f"'seats': player {i + 1}: no colour {colour!r} "
                                  f"(colours: {', '.join(q.get('colours', []))})")
            if colour in taken:
                raise AnswerError(f"'seats': player {i + 1}: colour {colour!r} is already taken")
            taken.add(colour)


def command_line_answers(game: Game, players: int | None, names: str = "", scenario: str | None = None,
                         options: str = "") -> tuple[int, dict[str, Any]]:
    """The player count and the answers the command line's flags give (``--players``, ``--names``,
    ``--solo``, ``--options``), for ``new-game``, ``play`` and ``run`` alike: only what was given
    becomes an answer, so the game's own defaults fill the rest and a flag the game does not ask
    about is refused by :func:`new_game` by name."""
    count = players if players is not None else 1 if scenario is not None else max(game.players)
    answers: dict[str, Any] = {}
    given = [n.strip() for n in (names or "").split(",") if n.strip()]
    if len(given) > count:
        raise AnswerError(f"--names gives {len(given)} names for {count} players")
    if given:
        answers["seats"] = [{"name": n} for n in given] + [{} for _ in range(count - len(given))]
    if scenario is not None:
        answers["scenario"] = scenario
    if options:
        answers["options"] = options
    return count, answers
