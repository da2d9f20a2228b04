"""Figures measured by the tests (crash counts, fuzz statuses, load latencies) are printed at the end.

A test asks for the ``figures`` fixture and calls it with one line; the lines are shown in a
"measured figures" section after the run, so CI logs carry them without ``-s``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

_FIGURES: list[str] = []


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Callable[[str], None]:
    def report(line: str) -> None:
        _FIGURES.append(f"{request.node.nodeid.split('::')[0]}: {line.strip()}")
        print(line)

    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _FIGURES:
        terminalreporter.section("measured figures")
        for line in _FIGURES:
            terminalreporter.write_line(line)
