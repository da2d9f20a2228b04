"""How many lines of each game are there only to read camera pictures (docs/architecture.md's count).

For each game package, every function and method is parsed; the reading's roots are what a picture
is read through (a ``reconcile`` method, a ``Hints`` subclass's methods), every other method of the
game's classes is a root of the rest (rules, panel, LEDs). A function counts as reading when it is
reached from a reading root (calls followed by name inside the package) and from no other root: the
code a game would not need if it had no camera. Docstrings and blank lines are counted as written.

    python tools/reading_lines.py [REV]     (REV: a git revision to count instead of the work tree)
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

GAMES = ("fog", "tile_race", "island_battle", "desert_survivors", "partner_race")
READING_METHODS = {"reconcile"}


def sources(game: str, rev: str | None) -> dict[str, str]:
    root = Path(__file__).resolve().parent.parent
    folder = f"companion/games/{game}"
    if rev is None:
        return {str(p.relative_to(root)): p.read_text() for p in sorted((root / folder).glob("*.py"))}
    names = subprocess.run(["git", "ls-tree", "--name-only", rev, f"{folder}/"], cwd=root, capture_output=True,
                           text=True, check=True).stdout.split()
    return {n: subprocess.run(["git", "show", f"{rev}:{n}"], cwd=root, capture_output=True, text=True,
                              check=True).stdout for n in names if n.endswith(".py")}


def count(game: str, rev: str | None) -> int:
    info: dict[tuple[str, int], tuple[int, set[str]]] = {}   # (file, line) -> (lines, names called)
    named: dict[str, set[tuple[str, int]]] = {}              # a name a call may use -> the definitions
    reading_roots: set[tuple[str, int]] = set()
    other_roots: set[tuple[str, int]] = set()

    def define(path: str, node: ast.FunctionDef | ast.AsyncFunctionDef, *names: str) -> tuple[str, int]:
        calls = {c.func.id if isinstance(c.func, ast.Name) else c.func.attr
                 for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, (ast.Name, ast.Attribute))}
        key = (path, node.lineno)
        info[key] = ((node.end_lineno or node.lineno) - node.lineno + 1 + len(node.decorator_list), calls)
        for n in names:
            named.setdefault(n, set()).add(key)
        return key

    for path, text in sources(game, rev).items():
        for node in ast.parse(text).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                define(path, node, node.name)
            elif isinstance(node, ast.ClassDef):
                bases = " ".join(ast.unparse(b) for b in node.bases)
                hints = "Hints" in bases
                part = any(w in bases for w in ("Game", "Rules", "Table", "Panel", "Seats", "Lights"))
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        key = define(path, item, item.name)
                        if hints or (part and item.name in READING_METHODS):
                            reading_roots.add(key)
                        elif part:
                            other_roots.add(key)
                    elif isinstance(item, (ast.Assign, ast.AnnAssign)) and item.value is not None and (hints or part):
                        # a member that is a module's function (``apply = staticmethod(rules.apply)``): a root
                        # that uses what it names, counted as no lines of its own
                        target = ast.unparse(item.targets[0] if isinstance(item, ast.Assign) else item.target)
                        used = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(item.value)
                                if isinstance(n, (ast.Name, ast.Attribute))}
                        key = (path, item.lineno)
                        info[key] = (0, used)
                        (reading_roots if hints or target in READING_METHODS else other_roots).add(key)

    def reach(roots: set[tuple[str, int]]) -> set[tuple[str, int]]:
        seen: set[tuple[str, int]] = set()
        todo = list(roots)
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            for name in info[key][1]:
                todo.extend(named.get(name, ()))
        return seen

    return sum(info[k][0] for k in reach(reading_roots) - reach(other_roots))


if __name__ == "__main__":
    rev = sys.argv[1] if len(sys.argv) > 1 else None
    total = 0
    for g in GAMES:
        n = count(g, rev)
        total += n
        print(f"{g:18} {n:5}")
    print(f"{'total':18} {total:5}")
