"""A process that writes events as fast as it can and says which ones were acknowledged.

Used by the crash test: it is killed with SIGKILL at a random moment; every sequence number
it printed as acknowledged must be in the log afterwards.
"""

from __future__ import annotations

import sys

from companion.store.store import GameStore

store = GameStore(sys.argv[1])
game = store.unfinished() or store.create_game({"setup": "crash test"})
n = len(store.events(game))  # read once: the log is not read again for every event (that grew as n squared)
while True:
    n += 1
    seq = store.append(game, "action", {"action": f"move run blue-elder-1 E4>F4 ({n})"})
    print(f"ack {seq}", flush=True)
