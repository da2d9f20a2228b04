"""fog-companion: a Raspberry Pi companion that keeps a real game of The FOG honest.

``companion`` holds the pure rules (``companion.games``), plus the session, persistence and CLI
that later wire vision, hardware and the panel together.
"""

from __future__ import annotations

__version__ = "0.1.0"
