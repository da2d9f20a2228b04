"""Whole games played by hand at a simulated table seen from a camera off-centre and tilted.

One helper for every game behind the door: a seeded line of legal play (the rules' own moves, the
companion's own rolls and forced actions among them) is made at the simulated table one token at a
time, in a random order, with a hand's pause between two tokens, and read frame by frame with the
real detector at the DEFAULT hold times (tests/tables.py FrameByFrame: a clock the test moves 0.2 s
a frame). What changes nothing on the table (a roll, End turn, a fist closed on a phone) is said on
the panel. Now and then quick hands make a player's next plays of the turn before the camera has
read the first, their tokens in any order. The players answer a question with what they did. The
story ends with the log equal to the moves made (a turn's plays made together in the order the
camera reads them; plays the rules count as cheaper moves that leave the same game, as the
companion logs them: counted in the figures), never red, never a question left unanswered.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games import Game
from companion.games.base import faced, unfaced
from tests.tables import FrameByFrame

# Off-centre and tilted: the board lies in the left part of the frame, the camera leans 25 degrees
# (a camera on a shelf arm beside the table, not straight above it)
OFF_CENTRE = {"tilt_deg": 25.0, "tilt_dir_deg": 40.0, "yaw_deg": 8.0, "marker_px": 22.0, "shift": (0.15, 0.75)}
READ_WITHIN = 100  # frames (20 s): longer than every default hold time, so a miss is a miss, not patience


def a_line(game: Game, players: int, seed: int, choose: Callable[[Any, random.Random], Any] | None = None,
           last: int | None = None, longest: int = 3000) -> tuple[list[Any], list[Any]]:
    """A whole game by the rules from its start: the states (one more than the actions) and the actions;
    the rules' own actions (a forced end of turn, the companion's roll) where they take them, the
    players' chosen by ``choose`` (by default one of the legal actions at random). ``last``: only the
    end of it, from about that many actions before the end of a first game, played on to the end
    with actions the camera reads as themselves (:func:`read_as_itself`) unless ``choose`` says."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    states, actions = [state], []

    def play(pick: Callable[[Any, random.Random], Any]) -> None:
        nonlocal state
        while game.outcome(state) is None and len(actions) < longest:
            action = game.forced_action(state)
            action = pick(state, rng) if action is None else action
            state = game.apply(state, action)
            states.append(state)
            actions.append(action)
        assert game.outcome(state) is not None, f"a game of {game.name} did not end in {longest} actions"

    play(choose or (lambda s, r: r.choice(list(game.legal_actions(s)))))
    if last is None:
        return states, actions
    first = max(0, len(actions) - last)
    while first > 0 and game.forced_action(states[first]) is not None:
        first -= 1  # the companion starts where the players act, not half way through its own roll
    state, states, actions = states[first], states[first:first + 1], []
    play(choose or (lambda s, r: read_as_itself(game, s, r)))
    return states, actions


def read_as_itself(game: Game, state: Any, rng: random.Random) -> Any:
    """A random legal action the companion reads as itself from the picture it leaves: one said on
    the panel (it moves nothing), or one among the readings of its picture (a boat sailed back and
    forth ends where one step ends, a crossing where two cheaper runs end: the companion rightly logs
    the cheaper moves, and a player makes those)."""
    legal = list(game.legal_actions(state))
    for action in rng.sample(legal, len(legal))[:40]:
        after = game.apply(state, action)
        picture = game.expected(after)
        if picture == game.expected(state) or (str(action),) in [c.actions for c in
                                                                game.reconcile(state, picture).choices]:
            return action
    return rng.choice(legal)


@dataclass
class Played:
    """What the hands did, for the figures."""

    actions: int = 0
    turns: int = 0
    by_hand: int = 0
    said: int = 0
    tokens: int = 0
    frames: int = 0
    asked: int = 0
    whole_turns: int = 0  # a player's plays made together before the camera settled
    same_as: int = 0  # plays logged as other moves that leave the game the same (as cheap)

    def __str__(self) -> str:
        return (f"{self.turns} turns, {self.actions} actions ({self.by_hand} by hand, {self.said} said on the panel), {self.tokens} tokens "
                f"moved one at a time, {self.frames} frames read ({self.frames / 5:.0f} s of table time), "
                f"{self.asked} questions answered, {self.whole_turns} times several plays of a turn made before the "
                f"camera settled, {self.same_as} plays logged as moves that amount to the same")


class Hands:
    """The players' hands at a FrameByFrame table: they take the table to the picture a state shows, a
    token at a time in a random order, pausing between two tokens as a hand does."""

    def __init__(self, at: FrameByFrame, game: Game, rng: random.Random, played: Played) -> None:
        self.at, self.game, self.rng, self.played = at, game, rng, played

    def pause(self, low: int = 1, high: int = 3) -> None:
        n = self.rng.randint(low, high)
        self.at.frames(n)
        self.played.frames += n

    def plan(self, state: Any, picture: dict[str, tuple[str, ...]]) -> list[tuple[str, str | None, str | None]]:
        """The tokens to move, as (piece, cell or None for off the table, face): every piece kept where it
        already stands if it is the piece there or looks alike to the rules (:meth:`Game.alike`)."""
        table = {c: list(ps) for c, ps in self.at.camera.table().items()}
        where = {unfaced(p)[0]: c for c, ps in table.items() for p in ps}
        placed: set[str] = set()
        wanted: list[tuple[str, str]] = []  # (cell, entry) still to put down
        for cell, entries in picture.items():
            for entry in entries:
                piece, face = unfaced(entry)
                here = [q for q in table.get(cell, []) if unfaced(q)[0] not in placed]
                same = next((q for q in here if q == entry), None) or next(
                    (q for q in here if self._alike(state, cell, q, entry)), None)
                if same is not None:
                    placed.add(unfaced(same)[0])
                else:
                    wanted.append((cell, entry))
        moves: list[tuple[str, str | None, str | None]] = []
        spare = [p for p in where if p not in placed]
        for cell, entry in wanted:
            piece, face = unfaced(entry)
            if piece not in placed:
                pick = piece
            else:  # its own token stands in for a look-alike elsewhere: bring another of its kind
                pick = next(q for q in [*spare, *self._off(where, placed)] if q not in placed and
                            self._alike(state, cell, faced(q, face), entry))
            placed.add(pick)
            moves.append((pick, cell, face))
        moves += [(p, None, None) for p in where if p not in placed]
        self.rng.shuffle(moves)  # every order the rules allow: nothing on the table waits for anything else
        return moves

    def _alike(self, state: Any, cell: str, seen: str, entry: str) -> bool:
        return self.game.alike(state, {cell: (seen,)}) == self.game.alike(state, {cell: (entry,)})

    def _off(self, where: dict[str, str], placed: set[str]) -> list[str]:
        return [p for p in self.at.companion.layout.pieces if p not in where and p not in placed]

    def make(self, state: Any) -> None:
        """The table taken to what ``state`` shows, one token at a time: the hand comes over the token,
        lifts it, carries it over the board to where it goes, sets it down and leaves; a pause."""
        table = {unfaced(p)[0]: c for c, ps in self.at.camera.table().items() for p in ps}
        for piece, cell, face in self.plan(state, self.game.expected(state)):
            self.pause()
            self.hand_over(table.get(piece))
            self.at.camera.move_piece(piece, None)
            self.hand_over(cell)
            if cell is not None:
                self.at.camera.move_piece(piece, cell, face)
            self.at.source.set_hand(None)
            self.played.tokens += 1

    def hand_over(self, cell: str | None) -> None:
        """A hand (and its arm, from the board's edge) over ``cell`` for a frame or two."""
        place = self.at.companion.layout.cells.get(cell) if cell is not None else None
        if place is not None:
            self.at.source.set_hand(f"at:{place.center_mm[0]:.0f},{place.center_mm[1]:.0f}")
            self.pause(1, 2)


def by_hand(game: Game, states: Sequence[Any], actions: Sequence[Any], k: int, actor: str | None) -> bool:
    """Whether the line's ``k``-th action is made by hand by ``actor`` (not said, not the rules' own)."""
    return (game.forced_action(states[k]) is None and game.actor(states[k], actions[k]) == actor
            and game.expected(states[k]) != game.expected(states[k + 1]))


def touched(game: Game, states: Sequence[Any], k: int, upto: int) -> set[str]:
    """The pieces the line's actions ``k`` to ``upto`` move, lift or turn."""
    def entries(state: Any) -> set[tuple[str, str]]:
        return {(c, p) for c, ps in game.expected(state).items() for p in ps}

    return {unfaced(p)[0] for _, p in entries(states[k]) ^ entries(states[upto])}


def without_history(game: Game, state: Any) -> dict[str, Any]:
    return {k: v for k, v in game.to_json(state).items() if k != "history"}


def play_by_hand(tmp_path: Path, game: Game, states: Sequence[Any], actions: Sequence[Any], seed: int,
                 pose: Any, whole_turns: bool = True) -> Played:
    """``actions`` (from ``states[0]``) made at a simulated table seen from ``pose``: the log must end as
    the line, the table never red, no question left open, the game over when the line ends so.
    ``whole_turns``: now and then the hands make a player's next plays of the turn too before the
    camera has read the first, their tokens in any order, and the camera reads them together."""
    rng, played, start = random.Random(seed), Played(), states[0]
    actors = [who for s, a in zip(states, actions) if (who := game.actor(s, a)) is not None]
    played.turns = sum(1 for k, who in enumerate(actors) if k == 0 or who != actors[k - 1])
    with FrameByFrame(tmp_path, game.name, start, pose) as at:
        session, hands = at.session, Hands(at, game, rng, played)
        at.frames(6)
        assert not session.status.verifying and session.state == start, session.status.setup_differences
        base, k, made = len(start.history), 0, []
        while k < len(actions):
            before, after, action = states[k], states[k + 1], actions[k]
            was = base + len(made)  # the log so far: the moves made (or read as what they amount to)
            assert len(session.state.history) >= was, (k, session.state.history[base:], made)
            upto = k + 1
            if len(session.state.history) > was:  # the rules took it by themselves (a roll, a turn over)
                assert session.state.history[was] == str(action), (str(action), session.state.history[was:])
                if game.expected(before) != game.expected(after):
                    hands.make(after)  # the FOG took pieces: the hands lift them off
            elif game.expected(before) == game.expected(after):
                session.act(str(action))  # nothing on the table: said on the panel
                played.said += 1
            else:
                if whole_turns and rng.random() < 0.5:  # quick hands: the turn's next plays before the camera settles
                    while upto < len(actions) and by_hand(game, states, actions, upto, game.actor(before, action)) \
                            and not touched(game, states, k, upto) & touched(game, states, upto, upto + 1):
                        upto += 1
                hands.make(states[upto])
                played.by_hand += upto - k
                played.whole_turns += upto - k > 1
            played.actions += upto - k
            want = [str(a) for a in actions[k:upto]]
            logged = read(at, game, states[k], states[upto], want, was, played)
            played.same_as += sorted(logged) != sorted(want)
            made += logged
            k = upto
        assert list(session.state.history[base:]) == made, (session.state.history[base:], made)
        at.frames(3 * 5)  # the hands rest: nothing the hold time turns red later
        played.frames += 15
        assert "out-of-sync" not in at.kinds and session.status.out_of_sync is None, session.status.out_of_sync
        assert not session.status.decision and session.status.question is None and session.status.step is None
        assert (game.outcome(session.state) is None) == (game.outcome(states[-1]) is None)
    return played


def read(at: FrameByFrame, game: Game, before: Any, after: Any, want: list[str], was: int,
         played: Played) -> list[str]:
    """Frames until the companion's log, after its ``was``-th action, holds a reading of the table
    that leaves the game as ``want`` does (``before`` to ``after``): ``want`` itself in any order (a
    turn's plays made together), or moves that amount to the same (a run of two steps read as two
    runs of one, as cheap). A question is answered with what the hands did. What was logged."""
    session = at.session
    for _ in range(READ_WITHIN):
        st = session.status
        assert st.out_of_sync is None, (want, st.out_of_sync, session.state.history[was:])
        if st.decision:
            left = list(want)
            for done in session.state.history[was:]:
                left.remove(done) if done in left else None
            chosen = sorted((len(c.actions), i) for i, c in enumerate(st.decision)
                            if all(c.actions.count(a) <= left.count(a) for a in c.actions))
            assert chosen, (want, session.state.history[was:], [c.actions for c in st.decision])
            session.decide(chosen[-1][1])
            played.asked += 1
        if st.step is None and not st.decision:
            logged, reached = [], before
            for done in session.state.history[was:]:
                if without_history(game, reached) == without_history(game, after):
                    break  # (what the rules did by themselves after it is the next action's)
                logged.append(done)
                reached = game.apply(reached, done)
            if without_history(game, reached) == without_history(game, after) and logged:
                return logged
        at.frames(1)
        played.frames += 1
    raise AssertionError(f"{want} not read in {READ_WITHIN} frames: step {session.status.step}, question "
                         f"{session.status.question}, log {session.state.history[was:]}")
