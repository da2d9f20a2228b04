"""The rules core imports only the standard library (and itself), so it runs anywhere."""

from __future__ import annotations

import ast
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
    for path in sorted((ROOT / "companion").rglob("*.py")):
        if path.name in ("run.py", "doctor.py"):
            continue  # the places that wire everything together (and check every part of it)
        assert not imported_top_modules(path) & {"vision", "hardware", "web_ui"}, path
