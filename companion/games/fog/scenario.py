"""Solo scenarios of The FOG (rulebook section 7) as data files.

A scenario fixes the setup (every piece's cell), the FOG marker's start, each nation's movement
points, the boat scoring tokens, optional minimum-crew penalty, special scorings and the rescue
levels. Scenario files live in ``scenarios/`` in the package (``<id>.toml``), or anywhere on
disk when given by path.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from companion.errors import ScenarioError
from companion.games.fog.board import NATIONS, Board
from companion.games.fog.options import Options


class Placed(Protocol):
    """What a special scoring reads of a game's state: where each piece is and who left the game.
    Named here, not imported from :mod:`companion.games.fog.state`, since the state reads scenarios
    (its FOG marker's start): the scenario stays below the state, no import circle between them."""

    @property
    def where(self) -> Mapping[str, str]: ...

    @property
    def removed(self) -> tuple[str, ...]: ...


SPECIAL_KINDS = ("leader_in_own_boat", "type_rescued", "nation_complete")


@dataclass(frozen=True)
class Special:
    """One special scoring rule of a scenario."""

    kind: str
    rp: int
    type: str | None = None
    nation: str | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    description: str
    board: str
    fog_start: str
    nation_mp: Mapping[str, int]
    area_values: Mapping[str, int]
    placement: Mapping[str, str]
    min_crew_penalty: int | None
    specials: tuple[Special, ...]
    levels: tuple[tuple[int, str], ...]  # (minimum RP, title), ascending

    def fog_start_index(self, board: Board, advanced: bool = False) -> int:
        """Field index of the FOG marker at the start (advanced: one field further, "number - 1")."""
        return min(board.fog_index(self.fog_start) + (1 if advanced else 0), len(board.fog_fields) - 1)

    def rescue_level(self, rp: int) -> str:
        title = self.levels[0][1] if self.levels else ""
        for minimum, name in self.levels:
            if rp >= minimum:
                title = name
        return title

    def special_scores(self, state: Placed, board: Board, departed: Mapping[str, bool]) -> list[tuple[int, str]]:
        """(RP, explanation) for each special scoring that applies."""
        out: list[tuple[int, str]] = []
        isl = board.islanders

        def rescued(i: str) -> bool:
            cell = board.cells.get(state.where.get(i, ""))
            if cell is None:
                return False
            return cell.kind == "pier" or (cell.kind == "boat" and bool(departed.get(cell.boat or "", True)))

        for sp in self.specials:
            if sp.kind == "leader_in_own_boat":
                for i in isl:
                    cell = board.cells.get(state.where.get(i, ""))
                    if isl[i].type == "leader" and cell is not None and cell.kind == "boat" \
                            and cell.boat == isl[i].nation and departed.get(cell.boat, True):
                        out.append((sp.rp, f"{i} in its own boat: +{sp.rp}"))
            elif sp.kind == "type_rescued":
                for i in isl:
                    if isl[i].type == sp.type and rescued(i):
                        out.append((sp.rp, f"{i} rescued: +{sp.rp}"))
            elif sp.kind == "nation_complete":
                members = [i for i in isl if isl[i].nation == sp.nation and i not in state.removed]
                if members and all(rescued(i) for i in members):
                    out.append((sp.rp, f"every {sp.nation} islander rescued: +{sp.rp}"))
        return out


def scenario_ids() -> list[str]:
    """Ids of the scenarios shipped in the package."""
    folder = resources.files("companion.games.fog") / "scenarios"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


@lru_cache(maxsize=32)
def load_scenario(ref: str) -> Scenario:
    """A packaged scenario by id, or a scenario file by path."""
    if not ref:
        raise ScenarioError("a solo game needs a scenario")
    if "/" in ref or ref.endswith(".toml"):
        path = Path(ref)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ScenarioError(f"cannot read scenario file {path}: {exc.strerror or exc}") from exc
        source = str(path)
    else:
        res = resources.files("companion.games.fog") / "scenarios" / f"{ref}.toml"
        if not res.is_file():
            raise ScenarioError(f"no scenario {ref!r}; shipped scenarios: {', '.join(scenario_ids())}")
        text, source = res.read_text(encoding="utf-8"), ref
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from exc
    return _parse(data, source, ref)


def _parse(data: Mapping[str, Any], source: str, ref: str) -> Scenario:
    def fail(msg: str) -> ScenarioError:
        return ScenarioError(f"{source}: {msg}")

    head = data.get("scenario")
    if not isinstance(head, dict):
        raise fail("missing [scenario] table")
    try:
        specials = tuple(Special(str(s["kind"]), int(s["rp"]), s.get("type"), s.get("nation"))
                         for s in data.get("special", []))
        levels = tuple(sorted((int(lv["min_rp"]), str(lv["title"])) for lv in data.get("levels", [])))
        scen = Scenario(
            id=ref,
            name=str(head["name"]),
            description=str(head.get("description", "")),
            board=str(head.get("board", "standard")),
            fog_start=str(head["fog_start"]),
            nation_mp={str(k): int(v) for k, v in head["nation_mp"].items()},
            area_values={str(k): int(v) for k, v in head["area_values"].items()},
            placement={str(k): str(v) for k, v in data.get("placement", {}).items()},
            min_crew_penalty=int(head["min_crew_penalty"]) if "min_crew_penalty" in head else None,
            specials=specials,
            levels=levels,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise fail(f"bad or missing value: {exc}") from exc
    for sp in scen.specials:
        if sp.kind not in SPECIAL_KINDS:
            raise fail(f"special scoring kind {sp.kind!r} is not one of {', '.join(SPECIAL_KINDS)}")
    if set(scen.nation_mp) != set(NATIONS):
        raise fail(f"nation_mp must give movement points for {', '.join(NATIONS)}")
    if set(scen.area_values) != set("ABCD"):
        raise fail("area_values must give A, B, C and D")
    board = Board.load_named(scen.board)
    board.fog_index(scen.fog_start)
    seen: set[str] = set()
    for cell, piece in scen.placement.items():
        if cell not in board.cells:
            raise fail(f"placement: unknown cell {cell!r}")
        if piece not in board.islanders and piece not in board.obstacles:
            raise fail(f"placement: unknown piece {piece!r}")
        if piece in seen:
            raise fail(f"placement: {piece} is placed twice")
        seen.add(piece)
    return scen
