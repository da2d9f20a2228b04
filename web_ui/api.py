"""The JSON API under ``/api/``: everything the pages do (documented in docs/api.md).

Request bodies are checked field by field before anything reaches the session; a bad body is a
400 naming the field, a request the game refuses (illegal move, wrong phase) is a 409, and a
rejected request never changes the state.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, g, jsonify, request

from companion.errors import FogCompanionError, GameRunningError
from companion.games import get_game, names, new_game
from companion.table.secrecy import told
from companion.store.store import NoSuchGameError, StoreError
from web_ui import seats, security, viewers
# the request helpers every blueprint uses, importable from here too (``from web_ui.api import companion``)
from web_ui.api_helpers import companion, ok  # noqa: F401
from web_ui.api_helpers import state_or_409 as _state_or_409
from web_ui.bodies import MAX_DEPTH, body, field, text_ok  # noqa: F401
from web_ui.camera import unfound_places, with_pieces_seen
from web_ui.model import board_json, game_summary, leds_json, replay_json, state_json
from web_ui.public import public_export
from web_ui.taps import shown_play, tappable

bp = Blueprint("api", __name__, url_prefix="/api")  # the simulated table's routes: web_ui/table_routes.py


# ---------------------------------------------------------------------------------------- reading
@bp.get("/state")
def get_state() -> Any:
    return jsonify(state_json(companion(), seat=seats.current_seat()))  # a joined phone: its seat's view


@bp.get("/board")
@viewers.catalogue
def get_board() -> Any:
    """The board being played (``?game=NAME``: that game's board, as the setup page shows it before
    a game of it starts)."""
    snap = companion().session.snapshot()
    name = request.args.get("game") or snap.game.name
    if name not in names():
        abort(400, description=f"'game': one of {', '.join(names())}")
    if name != snap.game.name:
        layout = get_game(name).table.layout(None, board=_board_name() if name == _config_game() else None)
    else:
        layout = snap.game.table.layout(snap.state) if snap.state is not None else companion().layout
    return jsonify({**board_json(layout), "game": name})


@bp.get("/targets")
def get_targets() -> Any:
    """Where a piece can go with one legal action now (``?piece=ID``): the dots the board draws."""
    state = _state_or_409()
    piece = request.args.get("piece", "")
    session = companion().session
    if not tappable(session.game, state, piece, seats.current_seat()):
        abort(400, description=f"'piece': no piece {piece[:60]!r} on this board")
    targets = session.game.panel.targets(state, piece)
    return jsonify(piece=piece, targets=[{"cell": c, "action": ways[0].actions[0], "choices": [
        {"action": w.actions[0], "summary": w.summary} for w in ways]} for c, ways in targets.items() if ways])


def _laid(cell: str) -> list[Any]:
    """The plays laying a piece on ``cell`` this reader may make: where seats keep secrets only the
    seat's own (its hand is its secret: not even the table's screen lists it), else every one."""
    state, session = _state_or_409(), companion().session
    if cell not in session.game.table.layout(state).cells:
        abort(400, description=f"'cell': no place {cell[:40]!r} on this board")
    game, seat = session.game, seats.current_seat()
    return [c for c in game.panel.laid_at(state, cell) if game.declaration.information != "per-seat"
            or (seat is not None and game.seating.actor(state, game.rules.parse_action(c.actions[0])) == seat)]


@bp.get("/laid")
def get_laid() -> Any:
    """What can be laid on an empty place tapped (``?cell=ID``): the plays that bring a piece to the table
    there (a disc from a hand, a tile from the supply), in words, for the Board page to offer. Only the
    words are sent: a play is made by sending one back (``POST /api/laid``), so no id leaves a hand."""
    cell = request.args.get("cell", "")
    return jsonify(cell=cell, choices=[{"summary": c.summary} for c in _laid(cell)])


@bp.post("/laid")
@security.changes("play")
def post_laid() -> Any:
    """One of the plays ``GET /api/laid`` offered (``{"cell": ID, "summary": WORDS}``), made."""
    data = body()
    cell = field(data, "cell", str, check=lambda v: 0 < len(v) <= 80, what="a place")
    said = field(data, "summary", str, check=lambda v: 0 < len(v) <= 400, what="a play's words")
    chosen = next((c for c in _laid(cell) if c.summary == said), None)
    if chosen is None:
        abort(409, description=f"nothing of that can be laid on {cell[:40]} now: tap the place again")
    seats.check_actor(chosen.actions[0])
    companion().session.act(chosen.actions[0])
    return ok()


@bp.get("/leds")
def get_leds() -> Any:
    leds = leds_json(getattr(companion(), "hardware", None))
    if leds is None:
        abort(404, description="no LED strip in this companion")
    return jsonify(leds)


@bp.get("/setup/choices")
def setup_choices() -> Any:
    """The setup page's questions: the games to choose from, and each game's own questions."""
    c = companion()
    board, configured = _board_name(), _config_game()
    games: list[dict[str, Any]] = [{"name": n, "title": get_game(n).title, "players": list(get_game(n).players),
              "schema": get_game(n).rules.setup_schema(board if n == configured else None)} for n in names()]
    current = next(g for g in games if g["name"] == c.session.game.name)
    by_name = {f["name"]: f for f in current["schema"]}
    return jsonify(games=games, game=current["name"], schema=current["schema"],
                   colours=by_name.get("seats", {}).get("colours", []),
                   scenarios=by_name.get("scenario", {}).get("choices", []),
                   players=[n for n in current["players"] if n > 1],
                   options_help=by_name.get("options", {}).get("help", ""),
                   switches=by_name.get("options", {}).get("switches", []), pin_required=security.pin_required(),
                   pin_choice=security.pins().choice, unlocked=security.unlocked())


def _board_name() -> str | None:
    config = getattr(companion(), "config", None)
    return config["game"]["board"] if config is not None else None


def _config_game() -> str | None:
    config = getattr(companion(), "config", None)
    return config["game"]["name"] if config is not None else None


@bp.get("/score")
def get_score() -> Any:
    """The final score: the game's own breakdown (``to_dict``) and its lines in words."""
    state = _state_or_409()
    game = companion().session.game
    if game.rules.outcome(state) is None:
        abort(409, description="the game is not over yet")
    report = game.rules.score(state)
    return jsonify({**report.to_dict(), "lines": report.lines()})


@bp.get("/games")
def list_games() -> Any:
    store = companion().session.store
    cache = current_app.extensions.setdefault("game_summaries", {})
    return jsonify(games=[game_summary(store, g, cache) for g in store.games()])


@bp.get("/games/<game_id>")
@viewers.said_already
def export_game(game_id: str) -> Any:
    """A game's setup and every logged row; a damaged one whole too, ``damaged`` saying where it breaks."""
    try:
        data = companion().session.store.export(game_id)
    except NoSuchGameError:
        abort(404, description=f"no game {game_id!r}")
    response = jsonify(public_export(data))  # what only the companion (or another seat) may know stays out
    if request.args.get("download"):
        # named by its game and when it started (the id), as a file among others in Downloads
        kind = data.get("game") if data.get("game") in names() else "game"
        response.headers["Content-Disposition"] = f'attachment; filename="{kind}-{game_id}.json"'
    return response


@bp.get("/games/<game_id>/board")
@viewers.catalogue
def game_board(game_id: str) -> Any:
    """The board a stored game is played on (the Replay page draws it, whatever game runs now).

    A game whose setup does not read is drawn on its game's plain board, ``damaged`` saying why.
    """
    store = companion().session.store
    try:
        read = store.read_log(game_id)
    except NoSuchGameError:
        abort(404, description=f"no game {game_id!r}")
    try:
        game = get_game(read.record.game)
    except FogCompanionError as exc:
        abort(409, description=f"game {game_id} cannot be drawn: {exc}")
    damaged = None if read.damage is None else str(read.damage)
    state = None
    if read.setup is not None:
        try:
            state = game.from_json(read.setup)
        except FogCompanionError as exc:
            damaged = f"game {game_id}: its setup is not a {game.title} position: {exc}"
    return jsonify({**board_json(game.table.layout(state)), "game": game.name, "damaged": damaged})


@bp.get("/games/<game_id>/replay")
@viewers.said_already
def replay(game_id: str) -> Any:
    """The game after ``step`` events; a damaged one as far as it reads (``damaged``, ``damage``)."""
    raw = request.args.get("step", "0")
    if not raw.isdigit() or len(raw) > 9:
        abort(400, description="'step' must be a whole number 0 or more")
    try:
        return jsonify(replay_json(companion(), game_id, int(raw)))
    except NoSuchGameError:
        abort(404, description=f"no game {game_id!r}")


# ---------------------------------------------------------------------------------------- PIN
@bp.post("/unlock")
@security.changes("pin")
def unlock() -> Any:
    data = body()
    pin = field(data, "pin", str, what="the PIN as a string")
    if not security.pin_required():
        return jsonify(ok=True, unlocked=True)
    if not security.unlock(pin):
        abort(401, description=security.WRONG_PIN)
    return jsonify(ok=True, unlocked=True)


@bp.post("/pin")
@security.changes("pin")
def choose_pin() -> Any:
    """Choose the panel's PIN (``{"pin": "1234"}``) or leave it open on purpose (``{"open": true}``).

    On the first run anyone may choose (the setup wizard asks); later only an unlocked panel may
    change it, and a PIN from the config file is changed only there.
    """
    data = body()
    pins = security.pins()
    if pins.choice == "config":
        abort(409, description="the PIN is set in the config file ([panel] pin); change it there")
    if pins.choice is not None and not security.unlocked():
        abort(401, description="Enter the current PIN first: only an unlocked panel changes its PIN.")
    if field(data, "open", bool, required=False, what="true or false"):
        pins.choose(None)
    else:
        pin = field(data, "pin", str, check=lambda v: v.isdigit() and 4 <= len(v) <= 12, what="4 to 12 digits")
        pins.choose(pin)
        security.remember_unlocked()
    return jsonify(ok=True, pin_choice=pins.choice, pin_required=pins.required)


# ---------------------------------------------------------------------------------------- setup
def _confirmed(data: dict[str, Any], doing: str) -> None:
    """Nothing replaces the running game on one tap: the request must say ``"confirm": true``."""
    confirm = field(data, "confirm", bool, required=False, what="true to confirm")
    running = companion().session.running()
    if running is not None and not confirm:
        raise GameRunningError(f"game {running} is being played: {doing} it (it can be resumed from the Games "
                               "page); send \"confirm\": true to go ahead", running)


@bp.post("/games/<game_id>/resume")
@security.changes("setup")
def resume_game(game_id: str) -> Any:
    """Bring a paused game back whole: its log, its position, the camera's check of the table."""
    c = companion()
    data = body()
    try:
        c.session.store.record(game_id)
    except StoreError:
        abort(404, description=f"no game {game_id!r}")
    if c.session.running() == game_id:
        return ok(game=game_id)  # it is the game being played: nothing to do
    _confirmed(data, "resuming another game pauses")
    c.resume_game(game_id)
    return ok(game=game_id)

# what POST /api/games reads: the game, its answers (the usual ones as fields of their own), the title
GAME_FIELDS = ("game", "players", "solo", "name", "options", "seed", "answers", "title", "confirm", "secrets")


@bp.post("/games")
@security.changes("setup")
def create_game() -> Any:
    """Start a new game (the setup wizard)."""
    c = companion()
    data = body()
    name = field(data, "game", str, required=False, check=lambda v: v in names(),
                 what=f"one of the games: {', '.join(names())}") or c.session.game.name
    game = get_game(name)
    seed = field(data, "seed", int, required=False, check=lambda v: 0 <= v < 2**31, what="0 to 2147483647") or 0
    options = field(data, "options", str, required=False, check=lambda v: len(v) <= 300,
                    what="option text, e.g. 'enhanced'") or ""
    title = field(data, "title", str, required=False, check=lambda v: len(v) <= 80, what="a title up to 80 "
                  "characters") or ""
    unknown = sorted(set(data) - set(GAME_FIELDS))
    if unknown:  # a field the Setup page never sends is refused by name, never dropped
        abort(400, description=f"unknown field {unknown[0]!r} (known: {', '.join(GAME_FIELDS)})")
    _confirmed(data, "starting a new game pauses")
    unguarded = _secrets_choice(game, data)
    solo = field(data, "solo", str, required=False, check=lambda v: len(v) <= 40, what="a scenario id")
    answers = dict(field(data, "answers", dict, required=False, what="an object: question -> answer") or {})
    if options:
        answers["options"] = options
    if solo is not None:  # one player with a scenario: the seat is the name alone
        players = 1
        answers["scenario"] = solo
        player = field(data, "name", str, required=False, what="a name")
        if player is not None:
            answers["seats"] = [{"name": player}]
    else:  # one seat is the solo field's: a list of players is a game of several
        low, high = min((n for n in game.players if n > 1), default=1), max(game.players)
        seats = field(data, "players", list, check=lambda v: low <= len(v) <= high,
                      what=f"a list of {low} to {high} players, each {{name, colours}}")
        players, answers["seats"] = len(seats), seats
    # the configured board is the configured game's; another game chosen here is played on its own
    board = (_board_name() if game.name == _config_game() else None) or "standard"
    try:  # the answers are checked against the game's questions where the command line's are (one place)
        state = new_game(game, players, seed, answers, board=board)
    except FogCompanionError as exc:
        abort(400, description=str(exc))
    game_id = c.new_game(state, title=title, game=game)
    if unguarded:
        viewers.pairing().leave_unguarded(game_id)
    return ok(game=game_id)


class SecretsUnguardedError(FogCompanionError):
    """A game of seats would start on a panel anyone may open: the table chooses how to play it."""

    kind = "secrets-unguarded"


def _secrets_choice(game: Any, data: dict[str, Any]) -> bool:
    """A game whose players keep secrets from each other (seats) is started from the table's screen
    (the PIN given, the Pi's own display, or the browser paired as the screen: the one that will show
    the codes), or with ``"secrets": "unguarded"``: played so knowingly, and said on every page.
    True: it is played unguarded."""
    choice = field(data, "secrets", str, required=False, check=lambda v: v in ("guarded", "unguarded"),
                   what="'unguarded' (play with the seats' secrets unguarded) or 'guarded'")
    if game.declaration.information != "per-seat":
        return False
    if choice == "unguarded":
        if viewers.pairing().paired and not viewers.viewer().screen:
            raise SecretsUnguardedError("a table's screen is paired on this panel: start the game there, where the "
                                        "seats' codes are shown")
        return True
    if not viewers.viewer().screen:
        raise SecretsUnguardedError(
            f"In {game.title} each player keeps secrets on their own phone, and this panel has no PIN: anyone on "
            "the Wi-Fi could read the seats' codes and join another player's seat. Set a PIN, or make this "
            "browser the table's screen (it alone then shows the codes), or play with the secrets unguarded.")
    return False


@bp.post("/setup/verify")
@security.changes("look")
def verify() -> Any:
    """Compare the camera's picture with the generated setup now."""
    c = companion()
    _state_or_409()
    if not c.session.status.verifying:
        return ok(differences=[])
    diffs = c.verify_now()
    if diffs is None:
        abort(409, description="the camera has not seen the board yet")
    return ok(differences=diffs)


# ---------------------------------------------------------------------------------------- play
def _action_kind() -> str:
    """What the ``action`` a body carries changes: a correction is guarded however it comes (``/api/act``
    takes any action; ``/api/move``'s are the plays /api/targets offers, checked all the same)."""
    text = body().get("action")
    return security.action_kind(companion().session.game, text) if isinstance(text, str) else "play"


@bp.post("/act")
@security.changes(_action_kind)
def act() -> Any:
    """Any action in the game's notation (``{"action": "end-turn"}``), as a player would say it."""
    _state_or_409()
    text = field(body(), "action", str, check=lambda v: 0 < len(v) <= 400, what="an action's text")
    seats.check_actor(text)  # a phone joined to a seat enters no other seat's action
    companion().session.act(text)
    return ok()


@bp.post("/move")
@security.changes(_action_kind)
def move() -> Any:
    """A move entered on the panel (panel-only play, or a move the camera cannot see)."""
    state = _state_or_409()
    data = body()
    piece = field(data, "piece", str, check=lambda v: len(v) <= 60, what="a piece id")
    cell = field(data, "cell", str, required=False, check=lambda v: len(v) <= 20, what="a cell id")
    action = field(data, "action", str, required=False, check=lambda v: 0 < len(v) <= 400,
                   what="one of the actions /api/targets offers for that cell")
    session = companion().session
    layout = session.game.table.layout(state)
    if cell is not None and cell not in layout.cells:
        abort(400, description="'cell': no such place on this board")
    if piece not in layout.pieces:  # a face-down piece as the page names it: its plays go by that name
        seats.check_actor(play := shown_play(session.game, state, piece, cell, action, seats.current_seat()))
        session.act(play)
        return ok(ambiguous=False)
    answer = session.move(piece, cell, action)
    return ok(ambiguous=bool(answer and answer.ambiguous))


@bp.post("/end-turn")
@security.changes("play")
def end_turn() -> Any:
    _state_or_409()
    companion().session.end_turn("panel")
    return ok()


@bp.post("/undo")
@security.changes("undo")
def undo() -> Any:
    _state_or_409()
    companion().session.undo()
    return ok()


def _decide_kind() -> str:
    """Choosing a reading applies its actions; were one of them a correction, it is guarded."""
    option = body().get("option")
    offered = companion().session.status.decision
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < len(offered):
        game = companion().session.game
        if any(security.action_kind(game, str(a)) != "play" for a in offered[option].actions):
            return "correction"
    return "play"


@bp.post("/decide")
@security.changes(_decide_kind)
def decide() -> Any:
    _state_or_409()
    data = body()
    asked = field(data, "question_id", str, check=lambda v: 0 < len(v) <= 64,
                  what="the id of the question answered (question_id in /api/state)")
    if field(data, "none", bool, required=False, what="true when none of the offered readings happened"):
        companion().session.decide(None, asked)
        return ok()
    option = field(data, "option", int, check=lambda v: 0 <= v < 100, what="the number of an offered option")
    companion().session.decide(option, asked)
    return ok()


@bp.post("/correction")
@security.changes("correction")
def correction() -> Any:
    """Accept the board as the camera sees it (``{"accept": true}``), take the table as the game has
    it (``{"as_game": true}``: the camera misses a piece), or say where one piece really stands."""
    state = _state_or_409()
    data = body()
    session = companion().session
    if field(data, "accept", bool, required=False, what="true or false"):
        session.accept_correction()
        return ok()
    if field(data, "as_game", bool, required=False, what="true or false"):
        return ok(excused=session.table_as_game())
    if field(data, "preview", bool, required=False, what="true or false"):
        return jsonify(ok=True, preview=session.preview_correction())
    piece = field(data, "piece", str, check=lambda v: len(v) <= 60, what="a piece id")
    cell = field(data, "cell", str, required=False, check=lambda v: len(v) <= 20, what="a cell id (null: off the "
                 "board)")
    layout = session.game.table.layout(state)
    if piece not in layout.pieces:
        abort(400, description=f"no piece {piece!r} on this board")
    if cell is not None and cell not in layout.cells:
        abort(400, description=f"no cell {cell!r} on this board")
    session.correct_piece(piece, cell)
    return ok()


@bp.get("/camera")
def camera_info() -> Any:
    camera = getattr(companion(), "camera", None)
    if camera is None:
        return jsonify(present=False, fault=companion().session.status.camera_fault)
    return jsonify(present=True, **with_pieces_seen(companion().session, camera.settings(), seats.current_seat()))


@bp.get("/camera/seen")
def camera_seen() -> Any:
    """Where the camera found the board and each piece in its last frame (pixels), for the Camera page."""
    camera = getattr(companion(), "camera", None)
    if camera is None:
        return jsonify(present=False, frame_size=[0, 0], board=None, pieces=[], unplaced=[])
    seen, session = camera.seen(), companion().session
    for key in ("pieces", "unplaced"):  # a face-down piece read by its marker: said as the table sees it
        seen[key] = told(session.game, session.state, {"pieces": seen.get(key, [])}, seats.current_seat())["pieces"]
    seen["unfound"] = unfound_places(session, camera, seats.current_seat())  # where the game has a piece unread
    return jsonify(present=True, **seen)
