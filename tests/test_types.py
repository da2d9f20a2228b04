"""The type checker reads the whole product and finds nothing wrong.

Each game comes through one door, ``Game[State, Action]``, and the session, the camera, the LEDs
and the panel reach it only there: a game that hands back the wrong kind of state, or a caller
that takes a value the door does not promise, is found here before it is found at a table. The
check is the one pyproject.toml configures (``[tool.mypy]``: the packages, every function typed,
no ignore left that hides nothing), run as CI and a developer run it, with its cache in build/.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "hardware", "web_ui")


def test_mypy_finds_no_error_in_the_companion_the_camera_the_hardware_and_the_panel(
        figures: Callable[[str], None]) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", *PACKAGES], cwd=ROOT, capture_output=True, text=True,
                         timeout=900)
    report = run.stdout + run.stderr
    errors = [line for line in report.splitlines() if re.match(r"^[^:]+:\d+: error:", line)]
    checked = re.search(r"(\d+) source files?", report)
    figures(f"mypy {' '.join(PACKAGES)}: {len(errors)} errors in "
            f"{checked.group(1) if checked else '?'} source files")
    assert errors == [], "mypy reports:\n" + "\n".join(errors)
    # mypy missing (not installed with the test extras, pip install -e .[dev]) fails here, by its message
    assert run.returncode == 0 and "Success: no issues found" in report, report
