"""The one place that wires the packages together: vision, hardware and the panel plug in here.

The rules core and the session never import ``vision``, ``hardware`` or ``web_ui``; this module
does, so the command line can offer their commands.
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
