"""Final scoring of The FOG (rulebook section 4 "Scoring", section 6 options, section 7 solo).

Categories are scored in the rulebook's order and kept apart, so the panel can show the same
breakdown the players would write down: rescue the leaders (option, scored first), 1. own
nation, 2. boat areas, 3. lost islanders, 4. preparation bonuses, then the minimum-crew penalty
and a solo scenario's special scorings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.fog.board import Board
from companion.games.fog.state import GameState

OWN_NATION_RP = 4
MIN_CREW_PENALTY = -20
LEADER_RP = {"productive": 14, "stern": 6, "other_boat": 3, "lost": -5}
SOLO = "solo"

CATEGORY_TITLES = {
    "leaders": "Rescue the leaders",
    "own_nation": "Own nation's boat",
    "boat_areas": "Boat areas",
    "lost": "Lost to the FOG",
    "preparation": "Preparation bonuses",
    "min_crew": "Minimum boat crew",
    "special": "Scenario scoring",
}


@dataclass
class ColourScore:
    """The score sheet of one colour (or of the solo guardian)."""

    colour: str
    categories: dict[str, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    lost_count: int = 0
    rescued: int = 0
    commoners_rescued: int = 0

    @property
    def total(self) -> int:
        return sum(self.categories.values())

    def add(self, category: str, rp: int, line: str) -> None:
        self.categories[category] = self.categories.get(category, 0) + rp
        self.lines.append(line)


@dataclass
class Standing:
    """A player (or team) in the final ranking."""

    name: str
    colours: tuple[str, ...]
    score: int
    lost: int
    commoners_rescued: int


@dataclass
class ScoreReport:
    mode: str
    colours: dict[str, ColourScore]
    standings: list[Standing]
    winners: list[str]
    tiebreak: str
    departed: dict[str, bool]
    rescue_level: str | None = None

    def lines(self) -> list[str]:
        """The breakdown as text, one line per colour and per standing."""
        out = []
        for colour, sheet in self.colours.items():
            cats = ", ".join(f"{CATEGORY_TITLES[k]} {v:+d}" for k, v in sheet.categories.items())
            out.append(f"{colour:>7}: {sheet.total:>4} RP  ({cats})")
        for s in self.standings:
            out.append(f"  {s.name}: {s.score} RP, {s.lost} lost, {s.commoners_rescued} commoners rescued")
        out.append("winner: " + " and ".join(self.winners) + (f" ({self.tiebreak})" if self.tiebreak else ""))
        if self.rescue_level:
            out.append(f"rescue level: {self.rescue_level}")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "colours": {
                c: {"categories": s.categories, "total": s.total, "lost": s.lost_count,
                    "rescued": s.rescued, "commoners_rescued": s.commoners_rescued, "lines": s.lines}
                for c, s in self.colours.items()
            },
            "standings": [{"name": s.name, "colours": list(s.colours), "score": s.score, "lost": s.lost,
                           "commoners_rescued": s.commoners_rescued} for s in self.standings],
            "winners": self.winners,
            "tiebreak": self.tiebreak,
            "departed": self.departed,
            "rescue_level": self.rescue_level,
        }


def boats_departing(state: GameState, board: Board, min_crew_on: bool) -> dict[str, bool]:
    """Whether each boat meets the minimum crew of areas A and B (always True without the option)."""
    out: dict[str, bool] = {}
    for boat in board.boat_order:
        if not min_crew_on:
            out[boat] = True
            continue
        ok = True
        for area, need in board.min_crew.items():
            crew = sum(len(state.pieces_at(c.id)) for c in board.boat_places(boat) if c.area == area)
            ok = ok and crew >= need
        out[boat] = ok
    return out


def score(state: GameState) -> ScoreReport:
    """Score a state as if the boats departed now (normally called on a finished game)."""
    board = state.board_data
    solo = state.mode == "solo"
    scenario = None
    if solo:
        from companion.games.fog.scenario import load_scenario

        scenario = load_scenario(state.scenario or "")
    min_crew_on = state.options.minimum_boat_crew or bool(scenario and scenario.min_crew_penalty is not None)
    departed = boats_departing(state, board, min_crew_on)

    def owner(islander: str) -> str:
        return SOLO if solo else state.owners.get(islander, "")

    colours = [SOLO] if solo else list(state.turn_order)
    sheets = {c: ColourScore(c) for c in colours}
    for c in colours:
        sheets[c].categories = {}
    isl = board.islanders

    if state.options.rescue_the_leaders and not solo:
        for leader in state.leaders:
            sheet = sheets.get(owner(leader))
            if sheet is None:
                continue
            nation = isl[leader].nation
            cell = board.cells.get(state.where.get(leader, ""))
            if leader in state.lost:
                sheet.add("leaders", LEADER_RP["lost"], f"{leader} taken by the FOG: {LEADER_RP['lost']}")
            elif cell is not None and cell.kind == "boat" and cell.boat == nation:
                kind = "stern" if cell.place == "stern" else "productive"
                sheet.add("leaders", LEADER_RP[kind], f"{leader} in the {kind} place of its own boat: +{LEADER_RP[kind]}")
            elif cell is not None and cell.kind == "boat":
                sheet.add("leaders", LEADER_RP["other_boat"], f"{leader} in the {cell.boat} boat: +{LEADER_RP['other_boat']}")
            else:
                sheet.add("leaders", 0, f"{leader} not in a boat: 0")

    for c in colours:
        sheets[c].categories.setdefault("own_nation", 0)
        sheets[c].categories.setdefault("boat_areas", 0)
    for cell_id, pieces in sorted(state.placement.items()):
        cell = board.cells[cell_id]
        for p in pieces:
            if p not in isl:
                continue
            sheet = sheets.get(owner(p))
            if sheet is None:
                continue
            if cell.kind == "pier":
                sheet.rescued += 1
                sheet.commoners_rescued += isl[p].type == "commoner"
                sheet.lines.append(f"{p} on pier {cell.pier}: rescued, 0")
            elif cell.kind == "boat" and cell.boat and departed[cell.boat]:
                sheet.rescued += 1
                sheet.commoners_rescued += isl[p].type == "commoner"
                if isl[p].nation == cell.boat:
                    sheet.add("own_nation", OWN_NATION_RP, f"{p} in its own {cell.boat} boat: +{OWN_NATION_RP}")
                value = state.area_values.get(cell.area or "", 0)
                sheet.add("boat_areas", value, f"{p} in area {cell.area} of the {cell.boat} boat: +{value}")

    for c in colours:
        sheets[c].categories.setdefault("lost", 0)
    for p, row in sorted(state.lost.items()):
        sheet = sheets.get(owner(p))
        if sheet is None:
            continue
        rp = board.rows[row].lost_rp if row in board.rows else 0
        sheet.lost_count += 1
        sheet.add("lost", rp, f"{p} lost to the FOG in row {row}: {rp}")

    if not solo:
        for c in colours:
            taken = state.prep_taken.get(c, ())
            sheets[c].add("preparation", sum(taken),
                          f"preparation bonuses {'+'.join(map(str, taken)) or 'none'}: +{sum(taken)}")

    if min_crew_on:
        for boat, ok in departed.items():
            if ok:
                continue
            if solo:
                penalty = -(scenario.min_crew_penalty or 0) if scenario else 0
                sheets[SOLO].add("min_crew", penalty, f"the {boat} boat lacks its minimum crew: {penalty}")
                continue
            crew = {c: 0 for c in colours}
            for cell in board.boat_places(boat):
                if cell.area in board.min_crew:
                    for p in state.pieces_at(cell.id):
                        if owner(p) in crew:
                            crew[owner(p)] += 1
            least = min(crew.values())
            for c, n in crew.items():
                if n == least:
                    sheets[c].add("min_crew", MIN_CREW_PENALTY,
                                  f"the {boat} boat did not depart; least crew in its areas A+B ({n}): {MIN_CREW_PENALTY}")

    if solo and scenario is not None:
        for rp, line in scenario.special_scores(state, board, departed):
            sheets[SOLO].add("special", rp, line)

    standings, winners, tiebreak = _rank(state, sheets)
    level = scenario.rescue_level(sheets[SOLO].total) if solo and scenario else None
    return ScoreReport(state.mode, sheets, standings, winners, tiebreak, departed, level)


def _rank(state: GameState, sheets: dict[str, ColourScore]) -> tuple[list[Standing], list[str], str]:
    if state.mode == "solo":
        s = sheets[SOLO]
        name = state.players[0].name if state.players else "Guardian"
        return [Standing(name, tuple(state.turn_order), s.total, s.lost_count, s.commoners_rescued)], [name], ""
    standings = []
    for p in state.players:
        totals = [sheets[c].total for c in p.colours]
        if len(totals) > 1 and state.options.two_player_scoring == "lower":
            value = min(totals)
        else:
            value = sum(totals)
        standings.append(Standing(p.name, p.colours, value, sum(sheets[c].lost_count for c in p.colours),
                                  sum(sheets[c].commoners_rescued for c in p.colours)))
    if state.options.teams:
        teams = []
        for team in state.options.teams:
            members = [s for s in standings if set(s.colours) & set(team)]
            scores = [m.score for m in members]
            value = sum(scores) if state.options.team_scoring == "sum" else min(scores, default=0)
            teams.append(Standing(" & ".join(m.name for m in members), tuple(team), value,
                                  sum(m.lost for m in members), sum(m.commoners_rescued for m in members)))
        standings = teams
    standings.sort(key=lambda s: (-s.score, s.lost, -s.commoners_rescued))
    best = standings[0].score
    tied = [s for s in standings if s.score == best]
    if len(tied) == 1:
        return standings, [tied[0].name], ""
    fewest = min(s.lost for s in tied)
    tied2 = [s for s in tied if s.lost == fewest]
    if len(tied2) == 1:
        return standings, [tied2[0].name], f"tie on {best} RP broken by fewest islanders lost ({fewest})"
    most = max(s.commoners_rescued for s in tied2)
    tied3 = [s for s in tied2 if s.commoners_rescued == most]
    if len(tied3) == 1:
        return standings, [tied3[0].name], (f"tie on {best} RP and {fewest} lost broken by most commoners "
                                            f"rescued ({most})")
    return standings, [s.name for s in tied3], (f"shared win: {best} RP, {fewest} lost, {most} commoners "
                                                "rescued each")
