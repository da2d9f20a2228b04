"""The rules core imports only the standard library (and itself), so it runs anywhere."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "companion" / "games"


def imported_top_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_rules_core_imports_only_the_standard_library():
    files = sorted(RULES.rglob("*.py"))
    assert files
    for path in files:
        foreign = imported_top_modules(path) - set(sys.stdlib_module_names) - {"companion"}
        assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"


def test_the_rules_core_does_not_reach_into_vision_hardware_or_the_panel():
    wiring = {ROOT / "companion" / "app" / name for name in ("run.py", "commands.py", "doctor.py")}
    for path in sorted((ROOT / "companion").rglob("*.py")):
        if path in wiring:  # the wiring: where the packages meet
            continue  # the places that wire everything together (and check every part of it)
        assert not imported_top_modules(path) & {"vision", "hardware", "web_ui"}, path


PACKAGES = ("companion", "vision", "hardware", "web_ui")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports_of(path: Path, known: set[str]) -> set[str]:
    """Every project module this file imports: inside functions and under ``if TYPE_CHECKING:`` too (an
    annotation-only import still ties the two modules together: neither reads without the other)."""
    tree = ast.parse(path.read_text(), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            subs = [f"{node.module}.{a.name}" for a in node.names]
            # ``from pkg import module`` depends on that module, not on the package's __init__
            names = subs if all(sub in known for sub in subs) else [node.module] + subs
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle for each import that leads back to a module still being read (none: no circle at all)."""
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return cycles


def test_no_import_cycles_counting_imports_inside_functions_and_for_type_checking():
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(files)
    graph = {m: _imports_of(p, known) - {m} for m, p in files.items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_a_circle_closed_for_the_type_checker_or_inside_a_function_is_a_circle(tmp_path: Path):
    """The two ways a circle used to hide from this file: an import under ``if TYPE_CHECKING:`` (for an
    annotation) and one inside a function (loaded late). Both still tie the modules together."""
    lower, upper = tmp_path / "lower.py", tmp_path / "upper.py"
    lower.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.upper import Thing\n")
    upper.write_text("def late() -> None:\n    from pkg.lower import helper\n")
    known = {"pkg.lower", "pkg.upper"}
    graph = {"pkg.lower": _imports_of(lower, known), "pkg.upper": _imports_of(upper, known)}
    assert graph == {"pkg.lower": {"pkg.upper"}, "pkg.upper": {"pkg.lower"}}
    assert _cycles(graph) == [["pkg.lower", "pkg.upper", "pkg.lower"]]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")  # a dunder such as ``__version__`` is public


def _private_imports(path: Path, known: set[str]) -> list[str]:
    """Every ``_name`` this file takes from another module: imported by name, or read off a module it
    imported (``rules._steps``)."""
    tree = ast.parse(path.read_text(), str(path))
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            modules |= {a.asname or a.name for a in node.names if f"{node.module}.{a.name}" in known}
        elif isinstance(node, ast.Import):
            names = [part for a in node.names for part in a.name.split(".")]
            modules |= {a.asname or a.name for a in node.names if a.name in known}
        else:
            continue
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names if _private(name)]
    found += [f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
              if isinstance(node, ast.Attribute) and _private(node.attr) and ast.unparse(node.value) in modules]
    return found


def test_no_module_imports_another_module_s_private_name():
    """A leading underscore says "only this module uses it": a name another module needs is made public
    (and documented) where it is defined, so whoever changes it knows who else reads it."""
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    found = [hit for _, path in sorted(files.items()) for hit in _private_imports(path, set(files))]
    assert not found, "\n".join(found)


def test_outside_companion_games_nothing_imports_a_game_s_own_package():
    """The session, the camera, the LEDs and the panel know games only through ``companion.games``."""
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(files)
    games = ROOT / "companion" / "games"
    offenders = []
    for module, path in files.items():
        if games in path.parents:
            continue
        reached = {m for m in _imports_of(path, known) if m.startswith("companion.games.") and m != "companion.games.base"}
        if reached:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(reached)}")
    assert not offenders, "\n".join(offenders)


def test_no_product_module_is_over_600_lines():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 600]
    assert not long, long


# The wings of companion/ in their order: a wing imports only the wings after it (the app the session,
# the table and the store; the session the table and the store; the table and the store no other wing),
# so no circle can run between them and each wing reads with only what is below it.
WINGS = ("app", "session", "table", "store")


def _companion_outside_the_games() -> list[Path]:
    """The companion's own modules: its top (errors, __main__) and its four wings."""
    top = ROOT / "companion"
    return sorted(top.glob("*.py")) + [p for wing in WINGS for p in sorted((top / wing).glob("*.py"))]


def test_no_module_of_the_companion_outside_the_games_is_over_450_lines():
    # whoever adds a game reads the session, the store and the wiring: each part must read in one sitting
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in _companion_outside_the_games()
            if (n := len(p.read_text().splitlines())) > 450]
    assert not long, long


# The words of the games the companion knows: none of them belongs in the LEDs' code, which serves every game
GAME_WORDS = re.compile(r"\b(fog(?![-_]companion)|mp|islanders?|drafts?|pawns?|cards?|partners?|teams?|deals?)\b",
                        re.IGNORECASE)


def test_the_leds_code_names_no_game_nor_its_words():
    """A strip's segments are roles (turn, status, counter, timer) and each game says what it shows on
    them: the painter, the strip, the buttons and the config's LED part never name The FOG's rows, MP
    or islanders, nor the race's pawns, cards or teams."""
    files = sorted((ROOT / "hardware").glob("*.py")) + [ROOT / "companion" / "session" / "leds.py"]
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in files
             for n, line in enumerate(path.read_text().splitlines(), 1) if GAME_WORDS.search(line)]
    assert not found, "\n".join(found)


# The words only companion/games/ may speak: The FOG's islanders, MP and draft, the race's pawns and cards.
# "card" is also the panel's own word for a box on a page (a CSS class, ids such as "verify-card", "the
# LED card") and the Pi's "SD card": those are the page's and the machine's, not a game's.
GAME_ONLY = re.compile(r"\b(islanders?|mp|drafts?|drafting|drafted|pawns?|cards?)\b", re.IGNORECASE)
NOT_A_GAME_S = re.compile(r"""(?<=[-."#])cards?\b|\bcards?(?=[-"])|\b(?:LED|SD) card\b|--card\b""", re.IGNORECASE)
# The FOG's things by their own names: its hourglass (a turn timer, named by the game's TurnTimer), its
# preparation bonuses (said in a reading's ``detail``), its row of the view read as a key (``state.fog``,
# ``view["fog"]``: the board shades what the declaration's ``shades`` name). The product (fog-companion,
# FogCompanionError, the pages' ``Fog`` helper, the "fog-correct" event) is not a game's thing.
GAME_THINGS = re.compile(r"""(?i:\bhourglass\w*|\bpreparation\w*)|\.fog\b|\[["']fog["']\]|\bnext-?[Ff]og\b""")


def test_outside_the_games_no_code_names_a_game_s_counters_phases_or_pieces():
    """The session, terminal, panel and LEDs read what a game declares and its view: none of them knows
    an islander, MP, a draft, a pawn or a card (a game whose counter or phase is another declares it),
    nor The FOG's hourglass, preparation bonuses or its FOG row read from the view."""
    files = [p for pattern in ("*.py", "*.js", "*.html") for p in (ROOT / "web_ui").rglob(pattern)
             if "vendor" not in p.parts]
    files += sorted((ROOT / "hardware").glob("*.py")) + _companion_outside_the_games()
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in sorted(files)
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if GAME_ONLY.search(NOT_A_GAME_S.sub("", line)) or GAME_THINGS.search(line)]
    assert not found, "\n".join(found)



def test_each_wing_of_the_companion_imports_only_the_wings_below_it():
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(files)
    wing_of = {m: m.split(".")[1] for m in known if m.count(".") >= 1 and m.split(".")[0] == "companion"
               and m.split(".")[1] in WINGS}
    upward = []
    for module, wing in sorted(wing_of.items()):
        for reached in sorted(_imports_of(files[module], known)):
            other = wing_of.get(reached)
            if other and other != wing and WINGS.index(other) < WINGS.index(wing):
                upward.append(f"{module} ({wing}) imports {reached} ({other})")
            if other and wing in ("table", "store") and other != wing:
                upward.append(f"{module} ({wing}) imports {reached} ({other}): the table and the store import no wing")
    assert not upward, "\n".join(upward)


def test_no_module_is_left_loose_beside_the_wings():
    """companion/ holds its wings, the games, the club, the one error hierarchy and ``python -m companion``."""
    loose = {p.name for p in (ROOT / "companion").glob("*.py")}
    assert loose == {"__init__.py", "__main__.py", "errors.py"}, sorted(loose)
