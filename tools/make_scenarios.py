"""Write the shipped solo scenarios' fixed placements (``companion/games/fog/scenarios/*.toml``).

A printed scenario shows every piece's place; ours are drawn once with the setup generator
under a fixed seed and then kept as plain data, so editing a scenario never needs this script.
Run: ``python tools/make_scenarios.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.fog.board import Board
from companion.games.fog.setup import place_islanders, place_obstacles

HERE = Path(__file__).resolve().parent.parent / "companion" / "games" / "fog" / "scenarios"

SCENARIOS = {
    "1": dict(seed=1001, leaders_first=False, header='''[scenario]
name = "The last village"
description = "The FOG has reached Zuarell. Bring as many islanders as you can to the boats."
fog_start = "9"
nation_mp = { blue = 8, green = 7, red = 9 }
area_values = { A = 5, B = 4, C = 2, D = 2 }

[[levels]]
min_rp = -1000
title = "Lost in the FOG"
[[levels]]
min_rp = 20
title = "Apprentice guardian"
[[levels]]
min_rp = 45
title = "Island guardian"
[[levels]]
min_rp = 70
title = "Respected guardian"
[[levels]]
min_rp = 95
title = "Legendary guardian of Zanay"
'''),
    "2": dict(seed=2002, leaders_first=True, header='''[scenario]
name = "The leaders' crossing"
description = """The leaders left Zuarell last and start in row A. Each leader in its own boat \
earns 10 RP more; every boat must carry its minimum crew or you lose 15 RP for it."""
fog_start = "9"
nation_mp = { blue = 9, green = 8, red = 8 }
area_values = { A = 5, B = 4, C = 3, D = 2 }
min_crew_penalty = 15

[[special]]
kind = "leader_in_own_boat"
rp = 10

[[special]]
kind = "type_rescued"
type = "commoner"
rp = 1

[[levels]]
min_rp = -1000
title = "Lost in the FOG"
[[levels]]
min_rp = 25
title = "Apprentice guardian"
[[levels]]
min_rp = 50
title = "Island guardian"
[[levels]]
min_rp = 80
title = "Respected guardian"
[[levels]]
min_rp = 110
title = "Legendary guardian of Zanay"
'''),
}


def main() -> None:
    board = Board.standard()
    for sid, spec in SCENARIOS.items():
        rng = random.Random(spec["seed"])
        obstacles = place_obstacles(board, rng)
        islanders = list(board.islanders)
        first = None
        if spec["leaders_first"]:
            first = {"A": [i for i in islanders if board.islanders[i].type == "leader"]}
        placed = place_islanders(board, rng, obstacles, islanders, "solo", first)
        lines = [spec["header"], "# Every piece's cell at the start (cell = piece)", "[placement]"]
        for cell, piece in sorted({**obstacles, **placed}.items(), key=lambda kv: (kv[0][0], int(kv[0][1:]))):
            lines.append(f'{cell} = "{piece}"')
        (HERE / f"{sid}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
