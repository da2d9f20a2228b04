"""10,000 generated requests against the API: never a 500, and a rejected request changes nothing."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.fog import rules
from companion.games.fog.setup import new_game
from companion.app.run import Companion
from tests.tables import BOARD, LAYOUT, sim_config
from vision.live import LiveCamera
from vision.sources import SimulatedTable
from web_ui import create_app
from web_ui.model import state_json

REQUESTS = 10_000

PIECES = sorted(BOARD.islanders)[:6] + ["rock-1", "nobody", ""]
CELLS = sorted(BOARD.cells)[:8] + ["Z9", "", "A1' OR 1=1"]
FIELDS = ["players", "seed", "options", "solo", "name", "title", "islander", "piece", "cell", "option", "accept",
          "pin", "where", "colours", "confirm", "preview", "none", "action", "game", "edits", "anchors", "open",
          "code", "token", "pair", "actions", "secrets", "summary"]

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(),  # NaN, Infinity too
                      st.text(max_size=30), st.sampled_from(PIECES + CELLS + ["random", "fiducial:2", "black", "1"]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                              st.dictionaries(st.sampled_from(FIELDS), inner,
                                                                              max_size=5)), max_leaves=12)
bodies = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), json_value, max_size=6),
    json_value,
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),  # not JSON at all
)
POSTS = ["/api/games", "/api/setup/verify", "/api/move", "/api/end-turn", "/api/undo", "/api/decide",
         "/api/correction", "/api/unlock", "/api/table/move", "/api/table/setup", "/api/table/hand", "/api/act",
         "/api/table/turn-over", "/api/games/{game}/resume", "/api/games/{text}/resume", "/api/pin", "/api/fit",
         "/api/fit/edits", "/api/fit/save", "/api/lens", "/api/lens/views", "/api/seats/join", "/api/seats/leave",
         "/api/seats/act", "/api/seats/screen", "/api/seats/{text}/release", "/api/laid"]
GETS = ["/api/state", "/api/board", "/api/leds", "/api/setup/choices", "/api/score", "/api/games", "/api/camera", "/api/camera/seen",
        "/api/table", "/api/games/{game}", "/api/games/{game}/replay", "/api/games/{text}", "/api/nothing",
        "/snapshot.jpg", "/", "/setup", "/games/{text}", "/api/seats", "/api/seats/choices", "/api/seats/{text}/qr.svg",
        "/api/laid?cell={text}", "/api/laid?cell=C3"]
headers = st.fixed_dictionaries(
    # mostly well-formed JSON requests, so that most of them reach the validation of each field
    {"Content-Type": st.sampled_from(["application/json"] * 8 + ["text/plain", "application/x-www-form-urlencoded"])},
    optional={
        "Origin": st.sampled_from(["http://localhost", "http://localhost", "https://localhost", "http://evil.example",
                                   "null"]),
        "Sec-Fetch-Site": st.sampled_from(["same-origin", "same-origin", "cross-site", "none", "same-site"]),
        "X-Fog-Pin": st.sampled_from(["2468", "0000", ""]),
        "X-Fog-Seat": st.sampled_from(["ABCDEF", "abc def", "\u00fc\u00e9", ""])})
routes = st.one_of(
    st.tuples(st.just("POST"), st.sampled_from(POSTS)),
    st.tuples(st.just("POST"), st.sampled_from(POSTS)),
    st.tuples(st.just("GET"), st.sampled_from(GETS)),
    st.tuples(st.sampled_from(["GET", "POST", "PUT", "DELETE"]), st.sampled_from(POSTS + GETS)),
)
requests = st.tuples(routes, bodies, headers,
                     st.text(max_size=12), st.sampled_from(["", "?step=3", "?step=-1", "?step=99999999999",
                                                            "?limit=x", "?overlay=0", "?download=1"]))


def comparable(companion: Companion) -> str:
    s = state_json(companion)
    s.pop("leds", None)
    s.pop("timer_left", None)
    table = companion.camera.table() if companion.camera is not None else {}
    return json.dumps([s, {c: list(p) for c, p in sorted(table.items())}], sort_keys=True, default=str)


def test_ten_thousand_generated_requests_never_500_and_rejections_change_nothing(
        tmp_path: Path, figures: Callable[[str], None]):
    companion = Companion(sim_config(tmp_path), lambda: new_game(BOARD, 3, seed=8), out=io.StringIO())
    source = SimulatedTable(LAYOUT, companion.session.state.placement)
    source.open()
    companion.camera = LiveCamera(source, LAYOUT)  # not started: the table routes work, no frames
    session = companion.session
    session.on_stable_change(session.state.placement)
    while session.state.phase == "draft":
        session.act(str(rules.legal_drafts(session.state)[0]))
    app = create_app(companion, {"PIN": "2468"})
    client = app.test_client()
    statuses: Counter[int] = Counter()
    checked = 0

    @settings(max_examples=REQUESTS, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(requests)
    def one_request(req: tuple[tuple[str, str], Any, dict[str, str], str, str]) -> None:
        nonlocal checked
        (method, path), body, hdrs, text, query = req
        path = path.replace("{game}", session.game_id or "x").replace("{text}", text.replace("/", "_") or "x")
        before = comparable(companion)
        data = body if isinstance(body, str) and hdrs.get("Content-Type") != "application/json" else json.dumps(body)
        res = client.open(path + query, method=method, data=data, headers=hdrs)
        statuses[res.status_code] += 1
        # 503 is deliberate ("no camera frame yet"); any other 5xx is a server error
        assert res.status_code < 500 or res.status_code == 503, (method, path, body, hdrs, res.get_data(as_text=True)[:300])
        if path.startswith("/api/") and res.status_code >= 400:
            assert res.is_json and "error" in res.get_json()
        if res.status_code >= 400:
            assert comparable(companion) == before, (method, path, body)
            checked += 1
        res.close()

    one_request()
    total = sum(statuses.values())
    figures(f"API fuzz: {total} requests, statuses {dict(sorted(statuses.items()))}, "
          f"{checked} rejections checked unchanged, 0 server errors")
    assert total >= REQUESTS * 0.95
    companion.stop()
