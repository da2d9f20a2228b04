"""Benchmark: PIN guessing from thousands of addresses for a minute, and the owner's right PIN meanwhile.

Someone on the table's Wi-Fi tries PINs from ``--addresses`` addresses, each as fast as the panel
lets it (one try every ``--every`` seconds of a simulated minute, the panel's clock moved on by
hand, so the figure does not depend on how fast this machine is). The panel is the real app
(``create_app``), each try a real ``POST /api/unlock`` through its one PIN check. Prints how many
guesses the panel checked (and so how many of the 10,000 four-digit PINs an attacker could try a
minute), how many it refused with the wait, and how long the owner's phone, which never guessed,
waited for its right PIN to be answered (wall clock, measured on this machine) while the panel was
under attack, next to the same request on an idle panel measured in the same run.

    python benchmarks/guessing.py [--addresses 3000] [--every 1.0] [--seconds 60]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from web_ui import create_app  # noqa: E402

PIN = "4711"


def unlock(app: object, address: str, pin: str) -> tuple[int, float]:
    client = app.test_client()  # type: ignore[attr-defined]
    client.environ_base["REMOTE_ADDR"] = address
    started = time.perf_counter()
    res = client.post("/api/unlock", data=json.dumps({"pin": pin}), content_type="application/json")
    return res.status_code, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", type=int, default=3000)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between one address's tries")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()

    companion = SimpleNamespace(session=None, camera=None, hardware=None, new_game=None, out=io.StringIO())
    app = create_app(companion, {"PIN": PIN, "DATA_DIR": tempfile.mkdtemp()})
    clock = [1000.0]
    app.extensions["pin_backoff"].clock = lambda: clock[0]

    _, idle = unlock(app, "10.200.0.1", PIN)  # the baseline: the owner's PIN on a quiet panel
    checked = refused = 0
    owner_waits: list[float] = []
    started = time.perf_counter()
    steps = int(args.seconds / args.every)
    for step in range(steps):
        for n in range(args.addresses):
            status, _ = unlock(app, f"10.{n // 250 % 250}.{n % 250}.{1 + n // 62500}", f"{(n * 7 + step) % 10000:04d}")
            checked += status == 401
            refused += status == 429
        status, took = unlock(app, f"10.201.{step // 250}.{step % 250}", PIN)  # a new phone, the right PIN
        assert status == 200, status
        owner_waits.append(took)
        clock[0] += args.every
    wall = time.perf_counter() - started
    minutes = args.seconds / 60
    print(f"{args.addresses} addresses, one try each every {args.every:g} s for {args.seconds:g} s "
          f"({steps * args.addresses} tries, {wall:.0f} s to run here)")
    print(f"  guesses checked: {checked} ({checked / minutes:.0f} a minute: "
          f"{100 * checked / minutes / 10000:.1f} % of the 4-digit PINs a minute), refused with a wait: {refused}")
    print(f"  the right PIN from a phone that never guessed: answered 200 every time ({len(owner_waits)} of "
          f"{len(owner_waits)}), in at most {max(owner_waits) * 1000:.1f} ms "
          f"(idle panel: {idle * 1000:.1f} ms; ratio {max(owner_waits) / idle:.1f})")


if __name__ == "__main__":
    main()
