"""A whole island battle at the simulated table of `fog-companion run --game island-battle`, started
as its service starts it (no standard input, a process of its own), played to its winner the way
hands play it. The table is set up with every piece in its own slot of its box and the camera checks
it; the players place the ten blocks and put their twenty characters down one token at a time, each
turned the way it is to face. Then the turns: the companion rolls, and the player lifts a character,
carries it and sets it down (turned on its last pip when the move ends so), brings one on from the
pad, slides the pad by its handle, or turns one on the spot after a 0; a shot is the victim lifted
off, a blast the characters and the block it took lifted off one by one, and a player who could not
move loses the character the opponent lifts off. A player who shoots and then moves (or moves, then
shoots from where the move ended) is quick about it: the move made and the victim lifted off before
the camera settles, the one picture is read as both. The companion reads each from the camera, and
its LEDs show whose turn it is, the roll, a blast when one happens and at the end the winner, as do
its state and its Score page.

The players choose with a seeded policy that is keen on shots and blasts (of the opponent's
characters first, of their own rather than a long hunt), so the battle ends in a bounded number of
turns; every action is one of the game's legal actions. Which blocks are live is the companion's
own secret draw: the test reads it back from the companion's store and plays the same rules.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.games.base import unfaced
from companion.games.island_battle import board as boards
from companion.games.island_battle import rules, table
from companion.games.island_battle.actions import (Action, Block, ChoosePad, Deploy, End, Enter, Move, Remove, Roll,
                                                   Shoot, Slide, Turn)
from companion.games.island_battle.fire import moves, shot
from companion.games.island_battle.grid import around, coords, forward, opponent
from companion.games.island_battle.state import GONE, IslandState
from tests.tables import http_call, run_at_the_simulated_table, wait_for

GAME = get_game("island-battle")
SEED = 5
RGB = boards.load().rgb
BY_HAND = (Move, Enter, Turn, Slide, Shoot, Remove)  # the rest is said on the panel (End turn, the pad's option)


def start(data: Path, *args: str) -> tuple[subprocess.Popen[str], list[str], int]:
    """``fog-companion run ...`` as its unit runs it, on the simulated table: the process, its output, the port.
    The camera keeps a piece it no longer sees half a second: these hands never rest over the board."""
    return run_at_the_simulated_table(data, *args, config="[detector]\nhold_seconds = 0.5\n")


class Table:
    """The two players' hands at the running companion's simulated table, and their eyes on its panel
    and its LEDs."""

    def __init__(self, port: int, lines: list[str]) -> None:
        self.port, self.lines, self.tokens, self.asked = port, lines, 0, 0
        self.state: dict[str, Any] = {}
        self.table: dict[str, list[str]] = {}

    def now(self) -> dict[str, Any]:
        self.state = http_call(self.port, "GET", "/api/state")[1]
        return self.state

    def move(self, piece: str, cell: str | None, facing: str | None = None) -> None:
        """One token put down by one hand on ``cell`` (turned to ``facing``), or lifted off (None)."""
        body: dict[str, Any] = {"piece": piece, "cell": cell}
        if facing:
            body["facing"] = facing
        status, answer = http_call(self.port, "POST", "/api/table/move", body)
        assert status == 200, answer
        self.table = answer["table"]
        self.tokens += 1

    def carry(self, piece: str, cell: str, facing: str | None = None) -> None:
        """A token lifted, carried and set down where it goes, turned the way it ends facing."""
        self.move(piece, None)
        self.move(piece, cell, facing)

    def make(self, before: IslandState, after: IslandState) -> None:
        """The table taken by hand from ``before`` to ``after``: each piece whose place or way changed
        carried there (the pad by its handle on its rail, the characters on it riding with it); a
        piece the action took out of the game is left for :meth:`clear`."""
        was = {unfaced(p)[0]: (c, unfaced(p)[1]) for c, ps in GAME.expected(before).items() for p in ps}
        for cell, pieces in GAME.expected(after).items():
            for entry in pieces:
                piece, way = unfaced(entry)
                if was.get(piece) != (cell, way):
                    self.carry(piece, cell, way)

    def clear(self, state: IslandState) -> int:
        """Every piece the rules took out of the game lifted off the table, one at a time: the companion
        lists those the camera sees as pieces to lift off (a block under the character standing on it
        is hidden), and none once they are off."""
        on_table = {unfaced(p)[0] for ps in self.table.values() for p in ps}
        gone = [p for p in table.taken_off(state) if p in on_table]
        named = {self.now()["names"][p] for p in gone} | set(gone)  # by id, or in words where the id is a secret
        assert {t["piece"] for t in self.state["to_turn_over"]} <= named, (gone, self.state["to_turn_over"])
        for piece in gone:
            self.move(piece, None)
        assert wait_for(lambda: not self.now()["to_turn_over"], 30), self.state["to_turn_over"]
        return len(gone)

    def say(self, action: Action) -> None:
        """An action said on the panel: End turn, or one of the turn's buttons (the pad's option)."""
        status, answer = (http_call(self.port, "POST", "/api/end-turn") if isinstance(action, End) else
                          http_call(self.port, "POST", "/api/act", {"action": str(action)}))
        assert status == 200, answer

    def read(self, history: list[str] | tuple[str, ...]) -> None:
        """Wait until the companion's log is ``history``, in step with the table; when the camera's
        picture could mean more than one thing, the players answer with what they did."""
        want = list(history)

        def there() -> bool:  # the companion may have rolled for the next turn already
            self.now()
            done = self.state["history"]
            if self.state["decision"]:
                options = [o["actions"] for o in self.state["decision"]]
                chosen = next(k for k, acts in enumerate(options) if want[len(done):len(done) + len(acts)] == acts)
                assert http_call(self.port, "POST", "/api/decide",
                                 {"option": chosen, "question_id": self.state["question_id"]})[0] == 200
                self.asked += 1
                return False
            return done[:len(want)] == want and self.state["out_of_sync"] is None

        assert wait_for(there, 60), (want[-3:], self.state.get("history", [])[-3:], self.state.get("out_of_sync"),
                                     self.state.get("step"), self.state.get("to_turn_over"),
                                     self.state.get("view_blocked"), http_call(self.port, "GET", "/api/camera/seen"),
                                     self.table, "".join(self.lines[-15:]))

    def leds(self) -> dict[str, list[str]]:
        """What the strip shows now, segment by segment, as the recording backend has it."""
        status, answer = http_call(self.port, "GET", "/api/leds")
        assert status == 200 and answer["backend"] == "recording", answer
        return answer["segments"]

    def see_on_leds(self, what: Any, says: str) -> None:
        assert wait_for(lambda: what(self.leds()), 30), (says, self.leds())


def hexed(rgb: tuple[int, ...]) -> str:
    return "#%02x%02x%02x" % rgb


def hue_of(player: str, shown: str) -> bool:
    """An LED lit in ``player``'s colour, bright or dim as it pulses (red's strongest part is red,
    blue's blue)."""
    parts, own = [int(shown[k:k + 2], 16) for k in (1, 3, 5)], RGB[player]
    return any(parts) and parts.index(max(parts)) == own.index(max(own))


def lit_for(player: str) -> Any:
    """The turn segment shows ``player``'s colour and, dim, the other player's."""
    other = hexed(tuple(v // 5 for v in RGB[opponent(player)]))
    return lambda seg: hue_of(player, seg["turn"][0]) and seg["turn"][1] == other


def rolled(state: IslandState) -> Any:
    """The counter shows the roll waiting to be used, a white LED per pip (all five dim after a 0)."""
    if state.stage == "options":
        return lambda seg: seg["counter"][:5] == [hexed((48, 48, 48))] * 5
    return lambda seg: seg["counter"].count(hexed((240, 240, 240))) == (state.roll or 0)


def blast(seg: dict[str, list[str]]) -> bool:
    return hexed((255, 110, 0)) in seg["status"]  # the LED of each pair a blast took flashes orange


# ------------------------------------------------------------------------------------------ the players
def gone(state: IslandState, player: str) -> int:
    return sum(state.where[c] == GONE for c in state.where if c.startswith(player))


def stuck(state: IslandState, character: str) -> bool:
    """No roll moves it (facing the edge, a block or a character right ahead)."""
    return not any(moves(state, character, pips) for pips in range(1, 6))


def worth(state: IslandState, me: str) -> int:
    """How keen ``me`` is on a position: the opponent's characters gone first, their own next (a
    battle that ends beats a long hunt), characters stuck (a player whose roll moves nothing loses
    one), and each of ``me``'s characters near a target and aiming at one: an opposing character or
    a live block (the players peek at the companion's secret, read back from its store, to hurry)."""
    foe = opponent(me)
    live = [sq for b, sq in state.blocks.items() if b in state.live]
    targets = [state.where[c] for c in state.on_island(foe)] + live
    value = 1000 * gone(state, foe) + 700 * gone(state, me) + 100 * sum(stuck(state, c) for c in state.on_island(foe))
    for c in state.on_island(me):
        (col, row), aim = coords(state.where[c]), shot(state, c)
        value += 150 * stuck(state, c) - min((abs(col - coords(t)[0]) + abs(row - coords(t)[1]) for t in targets),
                                             default=0)
        if aim is not None and (aim.target in live or state.occupant().get(aim.target, "").startswith(foe)):
            value += 60
    return value


def keen_setup(state: IslandState, rng: random.Random) -> Action:
    """A placing chosen to hurry the battle: the live blocks on the rows where the characters start
    and the rows before them, the safe ones across the middle; characters next to a live block,
    facing the other side. Random among the placings that suit (every one of them legal)."""
    legal, live = rules.legal_actions(state), [sq for b, sq in state.blocks.items() if b in state.live]

    def suits(a: Action) -> int:
        if isinstance(a, Block):
            row = coords(a.square)[1]
            return (row in (2, 3, 10, 11)) * 2 + (3 <= coords(a.square)[0] <= 10) if a.block in state.live else \
                row in range(5, 9)
        near = isinstance(a, Deploy) and any(a.where in around(sq) for sq in live)
        return 2 * near + (isinstance(a, Deploy) and a.facing == forward(a.player))
    best = max(map(suits, legal))
    return rng.choice([a for a in legal if suits(a) == best])


def keen(state: IslandState, rng: random.Random) -> Action:
    """The legal action the player to act chooses: a shot that gains, else the action (with the
    shots it opens after it) that leads to the position they are keenest on; a removal never spared.
    A rolled 0: the pad moved and a character turned on the spot once in the battle, then a character
    brought on from the pad whenever one can come (into the battle sooner)."""
    me, legal = state.actor, rules.legal_actions(state)
    shots = [a for a in legal if isinstance(a, Shoot) and worth(rules.apply(state, a), me) > worth(state, me)]
    if shots:
        return max(shots, key=lambda a: (worth(rules.apply(state, a), me), str(a)))
    others: list[Action] = [a for a in legal if not isinstance(a, (Shoot, Roll))]
    done = {type(rules.parse_action(t)) for t in state.history}
    first: list[Action] = [a for a in others if isinstance(a, ChoosePad) and Slide not in done
                           or isinstance(a, Turn) and Turn not in done]
    removals: list[Action] = [a for a in others if isinstance(a, Remove)]
    entries: list[Action] = [a for a in others if isinstance(a, Enter)]
    others = removals or first[:1] or entries or others  # the 0's options: each once, then reinforcements

    def then(a: Action) -> int:
        after = rules.apply(state, a)
        follow_ups = [] if rules.outcome(after) else [x for x in rules.legal_actions(after) if isinstance(x, Shoot)]
        return max([worth(after, me)] + [worth(rules.apply(after, x), me) for x in follow_ups])
    return max(others, key=lambda a: (then(a), rng.random()))


def dealt(data: Path) -> int:
    """The secret the running companion drew for its game (which blocks are live), read from its
    store without writing: a block a character lands on then goes off here as it does there."""
    with closing(sqlite3.connect(f"file:{data / 'games.db'}?mode=ro", uri=True)) as db:
        [(setup,)] = db.execute("SELECT setup FROM games WHERE status='playing' ORDER BY created DESC LIMIT 1")
    return int(json.loads(setup)["deal"])


def follow(engine: IslandState, history: list[str]) -> IslandState:
    """The rules engine fed the actions the companion logged since ``engine`` (its rolls)."""
    for action in history[len(engine.history):]:
        engine = GAME.apply(engine, action)
    return engine


def by_hand(hands: Table, engine: IslandState, action: Action) -> IslandState:
    """One action made at the table and read by the companion; the pieces it took out lifted off."""
    after = GAME.apply(engine, str(action))
    if isinstance(action, Shoot):  # the victim (a character, or the block hit) lifted off
        hit = engine.occupant().get(action.target) or engine.block_at()[action.target]
        hands.move(hit, None)
    elif isinstance(action, Remove):  # the opponent lifts it off
        hands.move(action.character, None)
    elif isinstance(action, (Move, Enter)) and action.character in table.taken_off(after):
        # set down on a live block, which took it: the hand still put it there
        hands.carry(action.character, action.to if isinstance(action, Move) else action.square,
                    getattr(action, "facing", None))
    else:
        hands.make(engine, after)
    return after


def quickly(state: IslandState, done: Action, rng: random.Random) -> Action | None:
    """What the player does next without waiting for the camera: after a shot, the move they choose;
    after a move, the shot its new place opens (neither setting off a block, the battle not over)."""
    def calm(s: IslandState) -> bool:
        return s.blast_at < len(s.history) and rules.outcome(s) is None

    if not calm(state) or not isinstance(done, (Shoot, Move)):
        return None
    then = keen(state, rng)
    if isinstance(done, Shoot) and isinstance(then, Move) or \
            isinstance(done, Move) and isinstance(then, Shoot) and calm(GAME.apply(state, str(then))):
        return then
    return None


def test_a_whole_island_battle_played_by_hand_at_run_s_simulated_table_to_its_winner(tmp_path: Path,
                                                                                     figures: Any) -> None:
    proc, lines, port = start(tmp_path, "--game", "island-battle", "--players", "2", "--seed", str(SEED))
    hands, rng = Table(port, lines), random.Random(SEED)
    turns = blasts = quick = lifted = 0
    try:
        assert hands.now()["game_name"] == "island-battle" and hands.state["verifying"]
        hands.table = http_call(port, "POST", "/api/table/setup")[1]["table"]
        # every piece waits in a slot of its own (thirty places, one token on each) and each pad's
        # handle lies on its rail
        assert len(hands.table) == 32 and all(len(ps) == 1 for ps in hands.table.values()), hands.table
        assert hands.table["rail-red-C"] == ["pad-red"] and hands.table["rail-blue-J"] == ["pad-blue"]
        assert wait_for(lambda: not hands.now()["verifying"], 60), "".join(lines[-15:])  # the camera saw all 32
        # which blocks are live is the companion's secret draw: these hands play the game it deals
        engine = follow(GAME.new_game(2, seed=SEED, deal=dealt(tmp_path)), hands.state["history"])
        # the setup, one token at a time: the blocks, then the characters turned their way
        while engine.stage in ("blocks", "deploy"):
            after = GAME.apply(engine, str(keen_setup(engine, rng)))
            hands.make(engine, after)
            hands.read(after.history)
            engine = after
        while rules.outcome(engine) is None:
            if engine.stage == "roll":  # the companion rolls at once: wait for it
                assert wait_for(lambda: len(hands.now()["history"]) > len(engine.history), 30)
            engine = follow(engine, hands.now()["history"])
            # the LEDs: whose turn it is (the player to act: the opponent choosing a removal), the roll
            hands.see_on_leds(lit_for(engine.actor), f"{engine.actor} to act")
            if engine.stage in ("move", "slide", "options"):
                hands.see_on_leds(rolled(engine), f"the roll {engine.roll}")
            action = keen(engine, rng)
            if not isinstance(action, BY_HAND):
                hands.say(action)
                after = GAME.apply(engine, str(action))
                turns += isinstance(action, End)
            else:
                after = by_hand(hands, engine, action)
                turns += isinstance(action, (Slide, Remove))
                then = quickly(after, action, rng)
                if then is not None:  # made before the camera settles on the first: one picture, read as both
                    after = by_hand(hands, after, then)
                    quick += 1
            hands.read(after.history)
            if after.blast and after.blast_at == len(after.history):
                blasts += 1
                if rules.outcome(after) is None:  # (the blast that ends the battle gives the strip to the winner)
                    hands.see_on_leds(blast, f"the blast of {after.blast}")  # before the next action calms them
            lifted += hands.clear(after)
            engine = after
        # the winner: in the state, on the Score page, and over the whole strip
        ended = rules.outcome(engine)
        assert ended is not None and len(ended.winners) in (0, 1)
        hands.read(engine.history)
        assert hands.state["outcome"]["winners"] == list(ended.winners), hands.state["outcome"]
        score = http_call(port, "GET", "/api/score")[1]
        assert score["winners"] == list(ended.winners), score
        assert hands.state["standing"][0] == ended.reason
        assert any(line.endswith(": 0 on the island, 0 on the pad, 10 lost") for line in hands.state["standing"])
        for player in ended.winners:  # the winner's colour over the whole strip
            hands.see_on_leds(lambda seg: all(hue_of(player, p) for ps in seg.values() for p in ps), f"{player} won")
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
    assert proc.returncode == 0 and "Traceback" not in "".join(lines), "".join(lines[-30:])
    verbs = [t.split()[0] for t in engine.history]
    made = ", ".join(f"{verbs.count(v)} {v}" for v in ("move", "shoot", "enter", "slide", "turn", "remove"))
    figures(f"a whole island battle at `run`'s simulated table: {turns} turns, {len(engine.history)} actions "
            f"logged, {hands.tokens} tokens lifted or set down one at a time, {blasts} blasts, {lifted} pieces "
            f"lifted off, {quick} shots and moves made before the camera settled, {hands.asked} readings the "
            f"players chose; {made}; {ended.reason}")
