"""The commands the other packages contribute to the command line, wired where the packages meet.

The rules core and the session never import ``vision`` or ``web_ui``; the command line reaches the
camera's commands and the club page through here, and still works (the rules' commands) where
OpenCV cannot be imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def extra_commands() -> dict[str, tuple[Callable[..., int], Callable[..., None], str]]:
    """Commands contributed by the other packages, when they can be imported here."""
    commands: dict[str, Any] = {}
    try:
        from vision.cli import COMMANDS as vision_commands
    except ImportError as exc:  # OpenCV missing: the rules commands still work
        missing = str(exc)

        def unavailable(_args: Any, _why: str = missing) -> int:
            from companion.errors import FogCompanionError

            raise FogCompanionError(f"the camera commands need OpenCV and NumPy: {_why}")

        for name in ("markers", "detect", "render"):
            commands[name] = (unavailable, lambda p: p.add_argument("rest", nargs="*"), "(needs OpenCV)")
    else:
        commands.update(vision_commands)
    return commands


def club_page(args: Any) -> int:
    """``fog-companion club``: the club page alone, on any machine that reaches the broker."""
    from web_ui.club import serve

    return serve(args)
