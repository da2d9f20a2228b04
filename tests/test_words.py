"""What players read, for both games: people by the names given at setup, pieces as players call
them, places as printed on the board, questions and reasons in sentences, bumps and swaps said in
the log. The notation (``play yellow 5 yellow-1:5``) stays the log's and the API's and parses back;
none of it may leak into what a player reads."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.errors import IllegalMoveError, SessionError
from companion.session.events import InlineBus
from companion.games import get_game, names
from companion.games.partner_race import board as boards
from companion.session.session import Session
from companion.store.store import GameStore

RACE = get_game("partner-race")
FOG = get_game("fog")
SEATS = [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")]
PIECE_ID = re.compile(r"\b[a-z]+-(?:sailor|warrior|elder|leader|commoner|rock|bush|driftwood)-\d\b")
PAWN_ID = re.compile(r"\b(?:yellow|green|blue|red)-\d\b")
NOTATION = re.compile(r"\b(?:play|move|run|push|swap) [a-z]+[- ]\S*[:>]")


def readable(text: str | None) -> str:
    """A text a player reads: no piece ids of the FOG, no notation; returned for more checks."""
    assert text, "nothing was said"
    assert not PIECE_ID.search(text), f"a piece id in {text!r}"
    assert not NOTATION.search(text), f"notation in {text!r}"
    return text


def race_readable(text: str | None) -> str:
    """A text a player of the race reads: no pawn ids either ("yellow-1"), pawns by name."""
    assert not PAWN_ID.search(readable(text) or ""), f"a pawn id in {text!r}"
    return text or ""


def moved(picture: dict[str, Any], piece: str, to: str, card: str | None = None) -> dict[str, tuple[str, ...]]:
    out = {c: tuple(p for p in ps if p != piece) for c, ps in picture.items()}
    out[to] = tuple(sorted((*out.get(to, ()), piece)))
    if card is not None:
        out[boards.CARD_SPOT] = (f"card-{card}",)
    return {c: ps for c, ps in out.items() if ps}


# ------------------------------------------------------------------------------------ the race
def race(*actions: str) -> Any:
    state = RACE.new_game(4, seed=3, seats=[{**s, "colours": [c]} for s, c in
                                            zip(SEATS, ("yellow", "green", "blue", "red"), strict=True)])
    for action in actions:
        state = RACE.apply(state, action)
    return state


OUT = ("play yellow start yellow-1:start", "play green start green-1:start", "play blue start blue-1:start",
       "play red start red-1:start")


def test_the_race_log_says_who_played_which_card_and_whom_it_bumped():
    """Ada (yellow) brings a pawn out, runs it 13, and later lands on Bo's pawn: the log says so in
    words, with the bump, while the history keeps the notation that parses back."""
    state = race(*OUT, "play yellow 13s yellow-1:13", "play green 2 green-1:2", "play blue 2 blue-1:2",
                 "play red 2 red-1:2", "play yellow 5 yellow-1:5")
    log = RACE.view(state)["log"]
    assert log[0] == "Ada plays a start card: yellow pawn 1 comes out onto its starting space"
    assert log[4] == "Ada plays a 13: yellow pawn 1 moves to T12"
    assert log[-1] == "Ada plays a 5: yellow pawn 1 moves to T17 and bumps Bo's green pawn 1 home"
    assert RACE.view(state)["history"][-1] == "play yellow 5 yellow-1:5"  # the notation is kept
    for line in (*log, *RACE.view(state)["standing"]):
        race_readable(line)  # pawns by name everywhere a player reads, never "yellow-1"
    said = RACE.notes(race(*OUT, "play yellow 13s yellow-1:13", "play green 2 green-1:2", "play blue 2 blue-1:2",
                           "play red 2 red-1:2"), state)["said"]
    assert said == log[-1]


def test_the_race_says_a_swap_and_a_fold_with_the_players_names():
    state = race(*OUT, "play yellow 2 yellow-1:2", "play green 2 green-1:2", "play blue 2 blue-1:2",
                 "play red 2 red-1:2", "play yellow swap yellow-1<>green-1")
    assert RACE.view(state)["log"][-1] == ("Ada plays the swap card: yellow pawn 1 and Bo's green pawn 1 change "
                                           "places (to T17 and T1)")
    fold = RACE.view(state)["turn_actions"][0]
    assert fold["label"] == "Bo folds" and readable(fold["confirm"]).startswith("Can Bo (green) play none")
    folded = RACE.apply(state, fold["action"])
    assert RACE.view(folded)["log"][-1] == "Bo folds and gives up the rest of this deal"


def test_the_race_asks_and_refuses_in_sentences_naming_the_player():
    """A reading to choose from, the question when the card on the spot looks the same, a play
    refused: each names Ada, not 'yellow', and says the move as a move, not as notation."""
    state = race()
    answer = RACE.reconcile(state, moved(RACE.expected(state), "yellow-1", "start-yellow"))
    summaries = sorted(readable(c.summary) for c in answer.choices)
    assert summaries[0] == "Ada plays a 13: yellow pawn 1 comes out onto its starting space"
    again = race(*OUT, "play yellow 2 yellow-1:2")
    asked = RACE.reconcile(again, moved(RACE.expected(again), "green-1", "T17"))
    assert readable(asked.question).startswith("The card spot still shows the 2: did Bo play another 2?")
    wrong = RACE.reconcile(state, moved(RACE.expected(state), "yellow-1", "T29"))  # no card laid yet
    assert readable(wrong.reason) == "no card Ada can play leaves the pawns like this"


def test_the_race_names_pawns_places_and_cards_as_players_do_in_what_the_table_is_told():
    """At 390 px a tester read "Green-1 not on the board", "goal green 1" and "the 8s card": the red
    banner names the pawn by whose it is and the place as the board words it; the step banner, the
    Last card counter and the card drawn on the board say the card as printed (the 8, the 1 or 14
    card), while the markers and the notation keep their ids."""
    state = race(*OUT)
    table = RACE.expected(state)
    gone = RACE.reconcile(state, {c: tuple(p for p in ps if p != "green-1") for c, ps in table.items()
                                  if ps != ("green-1",)})
    assert race_readable(gone.reason) == "Bo's green pawn 1 is not on the board: put every pawn back"
    stray = RACE.reconcile(state, moved(table, "yellow-1", "goal-green-1"))
    assert race_readable(stray.reason) == "Ada's yellow pawn 1 is on green goal circle 1, where a yellow pawn never stands"
    laid = RACE.reconcile(state, {**table, boards.CARD_SPOT: ("card-8s",)})
    assert race_readable(laid.step).startswith("the 8 card is laid: now Ada moves the pawn it plays")
    view = RACE.view(race(*OUT, "play yellow 13s yellow-1:13"))
    assert view["card_laid"] == "13" and view["last_card"] == "13s"  # the counter in words, the marker's id kept
    assert "card_laid" in {c.key for c in RACE.declaration.counters}
    assert view["names"]["card-1-14"] == "the 1 or 14 card" and view["names"]["card--4"] == "the -4 card"
    cards = RACE.layout(None).pieces
    assert (cards["card-8s"].label, cards["card-8s"].facts["short"]) == \
        ("8 card: 8 steps forward, or a pawn out to its starting space", "8")
    assert (cards["card-1-14"].label, cards["card-1-14"].facts["short"]) == ("1 or 14 card: 1 or 14 steps forward", "1/14")
    assert "1-14" not in RACE.view(race(*OUT, "play yellow 1-14 yellow-1:1"))["log"][-1]


def test_a_tapped_pawn_offers_each_play_as_a_sentence_naming_the_pawns_owners():
    """Ada taps her pawn on the Board page: each dot offers a play as she would say it, the card as
    printed, every pawn by its owner, colour and number, places as on the board, the bump said; a
    swap names the tapped pawn first. No pawn id, no notation."""
    state = race(*OUT, "play yellow 13s yellow-1:13", "play green 2 green-1:2", "play blue 2 blue-1:2",
                 "play red 2 red-1:2")
    mine = {cell: [race_readable(c.summary) for c in ways] for cell, ways in RACE.targets(state, "yellow-1").items()}
    assert mine["T17"] == ["Play the 5: Ada's yellow pawn 1 from T12 to T17, bumping Bo's green pawn 1 home",
                           "Play the swap card: Ada's yellow pawn 1 on T12 and Bo's green pawn 1 on T17 change places"]
    assert mine["T8"] == ["Play the -4: Ada's yellow pawn 1 from T12 back to T8"]
    theirs = RACE.targets(state, "green-1")["T12"]
    assert [c.summary for c in theirs] == [
        "Play the swap card: Bo's green pawn 1 on T17 and Ada's yellow pawn 1 on T12 change places"]
    out = RACE.targets(race(), "yellow-1")["start-yellow"][0]
    assert out.summary == "Play the start card: Ada's yellow pawn 1 out to the yellow starting space"
    assert out.actions == ("play yellow start yellow-1:start",)  # the notation stays the action's


def test_the_state_a_page_is_given_names_every_piece_and_place_as_players_do():
    """The out-of-sync banner, the turn-over chores and the accept preview list pieces by what the
    state calls them (``names``), never by id; the race's places that are not printed as a name
    (``places``) too. Every piece of either board has a name, and no name is its id."""
    view = RACE.view(race())
    layout = RACE.layout(None)
    assert set(view["names"]) == set(layout.pieces)
    assert view["names"]["yellow-1"] == "Ada's yellow pawn 1" and view["names"]["card-8s"] == "the 8 card"
    assert view["places"]["start-green"] == "the green starting space" and view["places"]["card-spot"] == "the card spot"
    assert set(view["places"]) == {c for c in layout.cells if not c.startswith("T")}  # T14 is named as printed
    for text in (*view["names"].values(), *view["places"].values()):
        race_readable(text)
    names = FOG.view(fog_playing())["names"]
    assert set(names) == set(FOG.layout(fog_playing()).pieces)
    assert names["blue-leader-1"] == "the blue leader" and names["blue-elder-1"] == "the blue elder (jumps)"
    for text in names.values():
        readable(text)


def test_the_race_standing_names_the_teams_by_their_players():
    lines = RACE.view(race(*OUT))["standing"]
    assert lines[0] == "No team has won yet."
    assert "Ada (yellow) and Cy (blue): 0 of 8 pawns locked" in [line.strip() for line in lines]
    assert "Ada's yellow pawn 1: the yellow starting space" in [line.strip() for line in lines]


def test_the_games_page_says_the_race_winners_by_their_players_names():
    """The Games page lists a finished race as "finished: Ada and Cy won together": the outcome
    names the winning colours (yellow and blue), the page is given the players who play them."""
    from dataclasses import replace
    from types import MappingProxyType, SimpleNamespace

    from web_ui.model import game_summary

    where = {**race().where, **{f"{c}-{n}": f"G{n}" for c in ("yellow", "blue") for n in range(1, 5)}}
    won = replace(race(), where=MappingProxyType(where))
    store = SimpleNamespace(setup=lambda _id: RACE.to_json(won), events=lambda _id: [])
    record = SimpleNamespace(id="g1", events=0, status="finished", game="partner-race", title="g1", created=0.0,
                             note=None)
    result = game_summary(store, record, {})["result"]
    assert result["winners"] == ["yellow", "blue"]  # the API keeps the game's own outcome
    assert result["winner_names"] == ["Ada", "Cy"]  # what the page says


# ------------------------------------------------------------------------------------ the FOG
def fog_playing() -> Any:
    state = FOG.new_game(players=3, seed=1, seats=SEATS[:3])
    while state.phase == "draft":
        state = FOG.apply(state, FOG.legal_actions(state)[0])
    return state


def test_the_fog_asks_about_a_push_and_run_back_in_a_sentence_with_names():
    """Another player's islander moved alone reads as a push and a run back: the question names the
    player whose turn it is, the pusher and the pushed as players call them, and the MP."""
    from tests.test_browser_questions import first_token_of_a_push

    state = fog_playing()
    who = state.player_of(state.active_colour).name
    pushed, field, to, pusher = first_token_of_a_push(FOG, state)
    seen = moved(dict(FOG.expected(state)), pushed, to)
    question = readable(FOG.reconcile(state, seen).question)
    board = state.board_data
    said = {p: f"the {board.islanders[p].nation} {board.islanders[p].type}" for p in (pushed, pusher)}
    assert f"it is {who}'s turn" in question, question
    assert f"Did {said[pusher]}" in question and f"push {said[pushed]}" in question and "and run back?" in question
    assert re.search(r"\(\d+ MP\)", question), question
    for choice in FOG.reconcile(state, seen).choices:
        readable(choice.summary)
        assert FOG.parse_action(choice.actions[0]) is not None  # the action keeps its notation


def test_the_fog_refuses_a_move_naming_the_islander_and_the_fields():
    state = fog_playing()
    own = state.islanders_of(state.active_colour)[0]
    start = state.where[own]
    far = "J9"  # the far end of the beach: out of reach of one turn's MP
    assert far not in state.where and state.board_data.cells[far].kind == "beach"
    answer = FOG.reconcile(state, moved(dict(FOG.expected(state)), own, far))
    isl = state.board_data.islanders[own]
    reason = readable(answer.reason)
    assert reason.startswith(f"The {isl.nation} {isl.type}") and f"from {start} to {far}" in reason, reason


def test_the_fog_names_the_token_in_its_rare_reasons_too():
    """A token seen on two fields (two stickers of one marker), a token of a colour nobody plays, a
    token that is no piece of the board, an islander drafted twice: each reason says which token as
    players call it and what to do, never its id."""
    state = fog_playing()
    picture = dict(FOG.expected(state))
    free = next(c for c, cell in state.board_data.cells.items() if c not in picture and cell.kind == "beach")
    own = sorted(state.owners)[0]
    twice = readable(FOG.reconcile(state, {**picture, free: (own,)}).reason)
    assert twice.startswith(f"{FOG.view(state)['names'][own].capitalize()} is seen on both ") and free in twice, twice
    unused = sorted(state.removed)[0]
    named = FOG.view(state)["names"][unused]
    assert readable(FOG.reconcile(state, {**picture, free: (unused,)}).reason) == \
        f"{named[0].upper()}{named[1:]} is not in this game: take it off the board"
    assert readable(FOG.reconcile(state, {**picture, free: ("dragon-1",)}).reason) == \
        f"a token that is no piece of this board stands on {free}: take it off"
    drafting = FOG.new_game(players=3, seed=1, seats=SEATS[:3])
    taken = FOG.apply(drafting, FOG.legal_actions(drafting)[0])
    picked = taken.history[-1].split()[-1]
    with pytest.raises(IllegalMoveError) as refused:
        FOG.apply(taken, f"draft {taken.active_colour} {picked}")
    chooser = drafting.player_of(drafting.active_colour).name
    assert readable(str(refused.value)) == f"{FOG.view(taken)['names'][picked].capitalize()} was already chosen by {chooser}"


def test_the_fog_log_and_turn_marker_use_the_players_names():
    state = fog_playing()
    who = state.player_of(state.active_colour).name
    assert FOG.markers(state)["turn"][1].startswith(f"it is {who}'s turn")
    move = next(a for a in FOG.legal_actions(state) if str(a).startswith("move run "))
    after = FOG.apply(FOG.apply(state, move), "end-turn")
    log = FOG.view(after)["log"]
    first = move.movements[0]
    isl = state.board_data.islanders[first.islander]
    assert log[-2].startswith(f"{who}: the {isl.nation} {isl.type}") and \
        log[-2].endswith(f"runs from {first.path[0]} to {first.path[-1]}"), log[-2]
    assert log[-1] == f"{who} ends the turn"
    assert all(readable(line) for line in log)
    assert FOG.notes(state, FOG.apply(state, move))["said"] == log[-2]
    assert any(line.startswith(f"{who} (") and "RP so far" in line for line in FOG.view(state)["standing"])


# ------------------------------------------------------------------------------------ what the session says
def at_the_table(tmp_path: Path, game: Any, state: Any) -> Session:
    """A session whose camera sees the table as the game has it."""
    session = Session(GameStore(tmp_path / "games.db"), InlineBus(), game=game)
    session.start(state, verify=False)
    session.on_stable_change(game.expected(state))
    return session


def test_the_session_says_a_disagreement_with_the_games_names_for_pieces_and_places(tmp_path: Path):
    """A play entered on the panel while the table stays as it was: the hands make it now, a calm step
    saying what to put where, the pawn and the card as the race calls them and the places as the game says
    them, never an id. Nobody is late before a hand has begun; begun and then left so past the hold time,
    the table and the game disagree in the same words."""
    state = race(*OUT)
    session = at_the_table(tmp_path, RACE, state)
    play = next(str(a) for a in RACE.legal_actions(state) if str(a).startswith("play yellow 5 yellow-1:"))
    session.act(play)
    to = next(c for c, ps in RACE.expected(session.state).items() if "yellow-1" in ps)
    says = race_readable(session.status.step.says)
    assert session.status.out_of_sync is None and says.startswith("entered on the panel, now on the table: "), says
    assert "put the 5 card on the card spot" in says and f"put Ada's yellow pawn 1 on {to}" in says, says
    assert "start-yellow" not in says and "card-spot" not in says and "card-5" not in says, says
    session.clock = lambda: 1e6  # nobody has come to the table yet: the play waits for them, calm
    assert not session.step_overdue() and session.status.step.waiting and session.status.out_of_sync is None
    session.on_stable_change({c: [p for p in ps if p != "yellow-1"] for c, ps in RACE.expected(state).items()})
    session.clock = lambda: 1e12  # a hand lifted the pawn, then nothing moved for the hold time
    assert session.step_overdue()
    reason = race_readable(session.status.out_of_sync.reason)
    assert re.match(r"a move was left part-way for \d+ s \(entered on the panel, now on the table: ", reason), reason
    assert f"put Ada's yellow pawn 1 on {to}" in reason and "yellow-1" not in reason, reason
    session.on_stable_change(RACE.expected(session.state))  # hands make the play; then it is taken back
    assert session.status.out_of_sync is None
    session.undo()  # the hands are to take it back now: a calm step says what to do, in the same words
    says = race_readable(session.status.step.says)
    assert says.startswith("undone, now on the table: ") and session.status.out_of_sync is None, says
    assert "put Ada's yellow pawn 1 on the yellow starting space" in says and "take the 5 card off the card spot" in says


def test_a_correction_refused_and_the_accept_preview_say_pieces_by_name(tmp_path: Path):
    """Out of sync: "this pawn really stands here" where the camera and the game both have it is
    refused naming the pawn and its place; accepting the board says what the log will say, in words,
    the correction's notation kept beside it for a maintainer."""
    state = race(*OUT)
    session = at_the_table(tmp_path, RACE, state)
    seen = {c: ps for c, ps in RACE.expected(state).items() if c != "start-yellow"}
    session.on_stable_change({**seen, "start-yellow": ("yellow-2",), "home-yellow-1": ("yellow-1",)})
    assert session.status.out_of_sync is not None
    with pytest.raises(SessionError) as refused:
        session.correct_piece("green-1", "start-green")
    assert race_readable(str(refused.value)) == \
        "nothing to correct: the camera sees Bo's green pawn 1 on the green starting space, where the game has it"
    preview = session.preview_correction()
    assert preview["actions"] and RACE.parse_action(preview["actions"][0])  # the notation stays the log's
    [says] = preview["says"]
    assert race_readable(says).startswith("The table was corrected by hand: "), says
    assert "Ada's yellow pawn 1" in says and "Ada's yellow pawn 2" in says, says


def test_the_fog_disagreement_names_the_islander_as_players_call_it(tmp_path: Path):
    state = fog_playing()
    session = at_the_table(tmp_path, FOG, state)
    move = next(a for a in FOG.legal_actions(state) if str(a).startswith("move run "))
    session.act(str(move))  # entered on the panel: the hands make it now
    islander = move.movements[0].islander
    first = move.movements[0]
    says = readable(session.status.step.says)
    assert f"put {FOG.view(state)['names'][islander]} on {first.path[-1]}" in says, says
    session.clock = lambda: 1e6  # nobody has come to the table yet: calm
    assert not session.step_overdue() and session.status.out_of_sync is None
    session.on_stable_change({c: [p for p in ps if p != islander] for c, ps in state.placement.items()})
    session.clock = lambda: 1e12  # lifted, then nothing moved for the hold time
    assert session.step_overdue()
    reason = readable(session.status.out_of_sync.reason)
    assert f"{FOG.view(state)['names'][islander]}" in reason and islander not in reason, reason


def test_every_game_names_every_piece_and_place_for_the_session():
    """The door's words: each game's names for its pieces and places, the board's label where a game
    gives none, so whatever the session says of a piece is never its id."""
    for name in names():
        game = get_game(name)
        state = game.new_game(max(game.players), seed=1)
        words, plan = game.words(state), game.layout(state)
        assert set(plan.pieces) <= set(words) and set(plan.cells) <= set(words), name
        assert all(words[p] != p for p in plan.pieces), name
    assert RACE.words(race())["start-yellow"] == "the yellow starting space"
    assert RACE.words(race())["T14"] == "T14"  # named as printed
