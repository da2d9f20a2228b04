"""A whole three-player game of desert survivors at the simulated table of `fog-companion run --game
desert-survivors`, started as its service starts it (no standard input, a process of its own).

Three players sit at the table, each with a phone joined to their own seat with the seat's code.
They put their food on their characters' cards on their phones, then lay their discs face down one
at a time, and the X-counters face down on every other space. Four rounds follow, played the way
hands play them: a swap is one piece lifted, the other moved into its place, the first put down
where the other lay, and the pieces the rules then show are turned over by hand; a reveal is a disc
turned over; a food counter taken is lifted off the desert, a character eaten is taken off it. A
fight is two closed fists: each side commits on its own phone, and until both have, neither phone
reads anything of the other's markers, on its state or on its event stream. Between the rounds
the hands turn every disc face down again, take the roads off and lay the new X-counters. The
X-counters are drawn at random from the pile, as at a real table, and the companion takes the ones
laid (its deal only a suggestion); now and then the hands rest after a swap before turning its pieces
up, and the companion reads that as a calm step; the characters a fight ate stay on the desert until
the next play, a chore the panel lists. At every turn the LEDs show whose turn it is and the
round, and after a fight the winner's colour; the panel never once turns red (out of sync), on its
own live event stream, however the hands go about a legal play.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import signal
import socket
import sqlite3
import subprocess
import threading
from collections import Counter
from contextlib import closing
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import HTTPCookieProcessor, Request, build_opener

from companion.games import get_game
from companion.games.base import unfaced
from companion.games.desert_survivors import rules
from companion.games.desert_survivors.actions import (Action, Attack, Commit, End, Feed, Give, Lay, Pass,
                                                      Place, Reveal, Sacrifice, Show, Swap, Take)
from companion.games.desert_survivors.game import ROUND_LIGHT
from companion.games.desert_survivors.layout import RGB_OF
from companion.games.desert_survivors.pieces import is_disc
from companion.games.desert_survivors.state import DesertState
from tests.tables import http_call, run_at_the_simulated_table, wait_for

GAME = get_game("desert-survivors")
SEED = 3
Picture = dict[str, tuple[str, ...]]


def start(data: Path, *args: str) -> tuple[subprocess.Popen[str], list[str], int]:
    """``fog-companion run ...`` as its unit runs it, on the simulated table: the process, its output, the
    port. The camera keeps a piece it no longer sees 1 s (these hands never rest over the board), and a
    move may stay part-way as long as a slow machine takes between two of its tokens."""
    return run_at_the_simulated_table(data, *args, config="[detector]\nhold_seconds = 1.0\nstep_hold_seconds = 600.0\n")


class Phone:
    """One player's phone: an HTTP client of its own (its own cookies), joined to its seat by the code."""

    def __init__(self, port: int, seat: str, code: str) -> None:
        self.port, self.seat = port, seat
        self.jar = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.jar))
        status, joined = self.call("POST", "/api/seats/join", {"code": code})
        assert status == 200 and joined["seat"] == seat, joined

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        origin = f"http://127.0.0.1:{self.port}"
        request = Request(origin + path, method=method, data=json.dumps(body or {}).encode() if method == "POST"
                          else None, headers={"Content-Type": "application/json", "Origin": origin})
        try:
            with self.opener.open(request, timeout=30) as res:
                return res.status, json.loads(res.read() or b"null")
        except HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def state(self) -> dict[str, Any]:
        status, state = self.call("GET", "/api/state")
        assert status == 200 and state["seat"] == self.seat, state
        return state

    def enter(self, action: Action) -> None:
        """The player taps the button their phone offers for ``action`` (their own, and only theirs)."""
        status, offered = self.call("GET", "/api/seats/choices")
        assert status == 200 and str(action) in [c["action"] for c in offered["choices"]], (action, offered)
        status, answer = self.call("POST", "/api/seats/act", {"action": str(action)})
        assert status == 200, answer

    def events_after(self) -> http.client.HTTPResponse:
        """The phone's live event stream (with its cookie, so as its seat), ending after the next event."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/events?limit=1", headers={"Cookie": "; ".join(f"{c.name}={c.value}" for c in self.jar)})
        res = conn.getresponse()
        assert res.status == 200
        return res


class Watch:
    """The panel's own live event stream, read on a thread: every time the companion turned red
    (out of sync) is kept, with its reason, so the story can say the hands never saw it."""

    def __init__(self, port: int) -> None:
        self.reds: list[str] = []
        self.says: set[str] = set()  # every calm step's words
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        self.conn.request("GET", "/events")
        self.res = self.conn.getresponse()
        assert self.res.status == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind = ""
        try:
            for raw in self.res:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "out-of-sync":
                    self.reds.append(json.loads(line[6:]).get("reason", line))
                elif line.startswith("data: ") and '"says"' in line:
                    self.says.update(re.findall(r'"says":"((?:[^"\\]|\\.)*)"', line))
        except (OSError, ValueError):  # the stream closed at the story's end
            return

    def close(self) -> None:
        if self.conn.sock is not None:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


class Table:
    """The players' hands at the running companion's simulated table, and the table's own screen."""

    def __init__(self, port: int, lines: list[str], watch: Watch) -> None:
        self.port, self.lines, self.watch = port, lines, watch
        self.tokens = self.flips = self.settled = 0
        self.lingering: list[str] = []  # eaten characters left on the table after the last fight
        self.lingered = 0
        self.rng = random.Random(SEED + 1)  # the hands' own draws from the pile
        self.state: dict[str, Any] = {}
        self.table: Picture = {}

    def now(self) -> dict[str, Any]:
        self.state = http_call(self.port, "GET", "/api/state")[1]
        return self.state

    def lay(self, piece: str, cell: str | None, face: str | None = None) -> None:
        """One token lifted and put down by one hand (``face`` up; None: off the table)."""
        body: dict[str, Any] = {"piece": piece, "cell": cell}
        if face:
            body["facing"] = face
        status, answer = http_call(self.port, "POST", "/api/table/move", body)
        assert status == 200, answer
        self.table = {c: tuple(ps) for c, ps in answer["table"].items()}
        self.tokens += 1

    def where(self, piece: str) -> str:
        return next(c for c, ps in self.table.items() for p in ps if unfaced(p)[0] == piece)

    def turn_over(self, piece: str) -> None:
        status, answer = http_call(self.port, "POST", "/api/table/turn-over", {"piece": piece})
        assert status == 200, answer
        self.table = {c: tuple(ps) for c, ps in answer["table"].items()}
        self.flips += 1

    def draw(self, before: DesertState, after: DesertState) -> DesertState:
        """The X-counters the hands lay on the spaces a deal left empty, drawn at random from the pile
        face down (the deal's own only by chance), as the companion takes them: ``after`` with them laid.
        Only when ``after`` was just dealt: counters once laid stay as laid."""
        if not after.dealt or after.dealt == before.dealt:
            return after
        pile = sorted(set(after.mix) | {after.board[w] for w in after.dealt})
        self.rng.shuffle(pile)
        laid = [(w, x) for w, x in zip(after.dealt, pile, strict=False) if x != after.board[w]]
        return GAME.apply(after, str(Lay(tuple(laid)))) if laid else after

    def make(self, after: DesertState, settle: bool = False, linger: bool = False) -> None:
        """The table taken by hand to the one ``after`` has: pieces the rules took off lifted away, pieces
        that change places moved one at a time (one lifted while its place is taken, put down when the
        place is free), each piece whose face is wrong turned over, then new ones laid face down (a new
        round: the discs turned face down before the X-counters are laid out). ``settle``: the hands
        rest after the moves, before turning anything over, until the companion has read the move.
        ``linger``: the characters a fight ate stay on the table until the next play (a chore)."""
        want = {unfaced(p)[0]: (c, unfaced(p)[1]) for c, ps in GAME.expected(after).items() for p in ps}
        have = {unfaced(p)[0]: (c, unfaced(p)[1]) for c, ps in self.table.items() for p in ps}
        self.lingering = []
        for piece in sorted(set(have) - set(want)):
            if linger and piece in after.dead:
                self.lingering.append(piece)
                self.lingered += 1
                continue
            self.lay(piece, None)
        moving = sorted(p for p in want if p in have and have[p][0] != want[p][0])
        held: list[str] = []
        while moving or held:
            taken = {c for c, ps in self.table.items() if ps}
            free = next((p for p in held + moving if want[p][0] not in taken), None)
            if free is None:  # every place wanted is still taken: lift one piece to make room
                free = moving[0]
                self.lay(free, None)
                moving.remove(free)
                held.append(free)
                continue
            self.lay(free, want[free][0], have[free][1])
            (held if free in held else moving).remove(free)
        faces = {unfaced(p)[0]: unfaced(p)[1] for ps in self.table.values() for p in ps}
        if settle and any(piece in faces and faces[piece] != face for piece, (_, face) in want.items()):
            # the camera sees the swap with its pieces still face down: turning them up is a calm step
            assert wait_for(lambda: self.now()["step"] or self.state["out_of_sync"] or self.watch.reds, 60)
            assert not self.watch.reds and self.state["out_of_sync"] is None, (
                after.history[-1], self.watch.reds, self.state["out_of_sync"])
            assert "turn face up" in self.state["step"]["says"], self.state["step"]
            self.settled += 1
        for piece, (_, face) in sorted(want.items()):
            if piece in faces and faces[piece] != face:
                self.turn_over(piece)
        for piece in sorted(set(want) - set(have)):
            self.lay(piece, want[piece][0], want[piece][1])

    def read(self, engine: DesertState) -> None:
        """Wait until the companion's log is as long as ``engine``'s and the table in step with it; a
        reading the picture leaves open is answered as the players played it."""
        def there() -> bool:
            self.now()
            assert not self.watch.reds, (f"red while the hands made {engine.history[-1]!r}: {self.watch.reds}; "
                                         f"the table held {self.table}")
            options = self.state.get("decision") or []
            if options:
                done = len(self.state["log"])
                pick = next(k for k, o in enumerate(options) if o["actions"] == [engine.history[done]])
                http_call(self.port, "POST", "/api/decide", {"option": pick, "question_id": self.state["question_id"]})
                return False
            return len(self.state["log"]) == len(engine.history) and self.state["out_of_sync"] is None \
                and self.state["step"] is None

        assert wait_for(there, 60), (f"{engine.history[-1]!r} not read: {self.state.get('out_of_sync')} "
                                     f"{self.state.get('step')} {self.state.get('log', [])[-2:]}; the camera saw "
                                     f"{http_call(self.port, 'GET', '/api/camera/seen')[1]['pieces']}; the table "
                                     f"held {self.table}")


def dealt(data: Path) -> DesertState:
    """The game the running companion set up (its desert and its mixed X-counters), from its store."""
    with closing(sqlite3.connect(f"file:{data / 'games.db'}?mode=ro", uri=True)) as db:
        [(setup,)] = db.execute("SELECT setup FROM games WHERE status='playing' ORDER BY created DESC LIMIT 1")
    return GAME.from_json(setup)


def logged(data: Path) -> list[str]:
    """Every action the companion logged, from its store."""
    with closing(sqlite3.connect(f"file:{data / 'games.db'}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT kind, data FROM events ORDER BY seq").fetchall()
    return [json.loads(d)["action"] for k, d in rows if k == "action"]


def choose(state: DesertState, rng: random.Random) -> Action:
    """A seeded player who keeps the game short: food on the cards first; a swap with another player's
    hidden disc (both turn up) more often than not, now and then one with an X-counter, else a reveal;
    when hungry, food taken if any lies beside, else an attack, else a sacrifice."""
    legal = rules.legal_actions(state)
    first: list[Action] = [a for a in legal if isinstance(a, (Feed, Place))]
    if first:
        return rng.choice(first)
    if state.phase == "move":
        swaps = [a for a in legal if isinstance(a, Swap)]
        others = [a for a in swaps if state.board[a.target] not in state.face_up
                  and is_disc(state.board[a.target]) and state.seat_of(state.board[a.target]) != state.turn]
        ends = [a for a in legal if isinstance(a, End)]
        reveals = [a for a in legal if isinstance(a, Reveal)]
        if ends and rng.random() < 0.5:
            return ends[0]
        if others and rng.random() < 0.7:
            return rng.choice(others)
        if swaps and rng.random() < 0.4:
            return rng.choice(swaps)
        return rng.choice(reveals or legal)
    for kind in (Commit, Take, Attack, Sacrifice, Give, Pass):
        of_kind = [a for a in legal if isinstance(a, kind)]
        if of_kind:
            return rng.choice(of_kind)
    raise AssertionError(f"nothing to do: {legal}")


def shows(pixel: str, rgb: tuple[int, int, int]) -> bool:
    """Does an LED (``#rrggbb``) show ``rgb`` at some brightness (a pulse or a blink at its height)?"""
    got = [int(pixel[i:i + 2], 16) for i in (1, 3, 5)]
    top = max(rgb)
    if max(got) == 0:
        return False
    scale = max(got) / top
    return all(abs(g - v * scale) <= 3 for g, v in zip(got, rgb, strict=True))


def lit(port: int, state: DesertState) -> bool:
    """The strip shows whose turn it is (in a fight: both sides, the attacker first), the round (played
    rounds dim, the round under way bright) and, once a fight was fought, the last winner's colour after
    the rounds."""
    leds = http_call(port, "GET", "/api/leds")[1]
    turn, status = leds["segments"]["turn"], leds["segments"]["status"]
    if state.fight is not None:
        sides = [state.seats[state.seat_of(state.board[w])] for w in (state.fight.attacker, state.fight.defender)]
    else:
        sides = [state.active]
    rounds = [ROUND_LIGHT if r == state.round else tuple(v // 5 for v in ROUND_LIGHT) if r < state.round
              else (0, 0, 0) for r in range(1, 5)]
    ok = all(shows(turn[k], RGB_OF[side]) for k, side in enumerate(sides)) and \
        status[:4] == ["#%02x%02x%02x" % c for c in rounds]
    if state.last_fight is not None:
        ok = ok and status[4] == "#%02x%02x%02x" % RGB_OF[state.seats[state.seat_of(state.last_fight.winner)]]
    return ok


def test_run_game_desert_survivors_plays_a_whole_game_by_hand_and_on_three_phones(tmp_path: Path,
                                                                                  figures: Any) -> None:
    proc, lines, port = start(tmp_path, "--game", "desert-survivors", "--players", "3", "--seed", str(SEED))
    watch = Watch(port)
    hands = Table(port, lines, watch)
    rng = random.Random(SEED)
    fights = swaps = reveals = 0
    try:
        assert hands.now()["game_name"] == "desert-survivors"
        assert wait_for(lambda: not hands.now()["verifying"], 60), "".join(lines[-15:])  # the empty desert seen
        engine = dealt(tmp_path)
        codes = {s["seat"]: s["code"] for s in http_call(port, "GET", "/api/seats")[1]["seats"]}
        phones = {seat: Phone(port, seat, code) for seat, code in codes.items()}
        assert sorted(phones) == sorted(engine.seats)
        while rules.outcome(engine) is None:
            was = engine
            assert wait_for(lambda: lit(port, engine), 20), (http_call(port, "GET", "/api/leds")[1], engine.turn)
            action = choose(engine, rng)
            if isinstance(action, Commit):  # a fight: two fists, each closed on its own phone
                other = next(a for a in rules.legal_actions(engine) if isinstance(a, Commit) and a.seat != action.seat)
                first, second = phones[action.seat], phones[other.seat]
                n = rng.randint(0, engine.markers[engine.seats.index(first.seat)])
                stream = second.events_after()
                first.enter(Commit(first.seat, n))
                engine = GAME.apply(engine, str(Commit(first.seat, n)))
                sent = stream.read().decode()
                stream.close()
                seen = second.state()
                for text in (sent, json.dumps(seen)):  # the fist closed, and nothing of what it holds
                    assert f"commit {first.seat} {n}" not in text, text[-400:]
                assert seen["fight"]["committed"][first.seat] is True and seen["fight"]["mine"] is None
                assert f"commit {first.seat}" in sent  # the stream did tell that the fist closed
                m = rng.randint(0, engine.markers[engine.seats.index(second.seat)])
                second.enter(Commit(second.seat, m))
                engine = GAME.apply(GAME.apply(engine, str(Commit(second.seat, m))), str(Show()))
                fights += 1
            elif isinstance(action, (Feed, End, Attack, Give, Pass)):  # said on the player's own phone
                phones[GAME.actor(engine, action) or engine.active].enter(action)
                engine = GAME.apply(engine, str(action))
            else:  # made by hand at the table, read by the camera
                swaps += isinstance(action, Swap)
                reveals += isinstance(action, Reveal)
                engine = GAME.apply(engine, str(action))
            engine = hands.draw(was, engine)
            hands.make(engine, settle=isinstance(action, Swap) and swaps % 2 == 1,
                       linger=isinstance(action, Commit))
            hands.read(engine)
            if hands.lingering:  # in step all the same: the eaten character's disc is a chore
                left = {hands.where(p) for p in hands.lingering}
                assert left <= {c["cell"] for c in hands.state["to_turn_over"]}, (left, hands.state["to_turn_over"])
        won = rules.winners(engine)
        assert hands.now()["outcome"]["winners"] == list(won)
        score = http_call(port, "GET", "/api/score")[1]
        assert {seat: p["vp"] for seat, p in score["players"].items()} == dict(zip(engine.seats, engine.vp))
        assert logged(tmp_path) == list(engine.history)
        # the winners' colours over the whole strip
        assert wait_for(lambda: all(shows(px, RGB_OF[won[0]]) for px in http_call(port, "GET", "/api/leds")[1][
            "segments"]["turn"]), 20), http_call(port, "GET", "/api/leds")[1]
        assert swaps and reveals and fights and hands.settled and hands.lingered  # every way of play shown
        assert any(a.startswith("lay ") for a in engine.history)  # counters the hands drew, not the deal's
        piles = [s for s in watch.says if "X-counter from the pile" in s]  # a round laid out: counted, not listed
        assert piles and all("from the pile on each of" in s and s.count("X-counter") <= 3 for s in piles), piles
    finally:
        watch.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
    assert proc.returncode == 0 and "Traceback" not in "".join(lines), "".join(lines[-30:])
    played = Counter(a.split()[0] for a in engine.history)
    figures(f"desert survivors at `run`'s simulated table, 3 players: {len(engine.history)} actions "
            f"({', '.join(f'{n} {verb}' for verb, n in sorted(played.items()))}), {fights} fights on two phones each, "
            f"{hands.tokens} tokens moved and {hands.flips} turned over one at a time ({hands.settled} swaps read "
            f"before their pieces were turned up, {hands.lingered} eaten left on the table a while), never red; "
            f"{' and '.join(won)} won")
