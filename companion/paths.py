"""Where the companion keeps its games: one rule, used by ``run``, ``doctor`` and ``games``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$FOG_DATA_DIR``, else systemd's ``$STATE_DIRECTORY``, else the XDG data home.

    Under the service ``HOME`` may not exist or be writable, so the systemd directory wins over
    anything derived from the home directory.
    """
    env = os.environ if environ is None else environ
    if env.get("FOG_DATA_DIR"):
        return Path(env["FOG_DATA_DIR"])
    if env.get("STATE_DIRECTORY"):  # systemd's StateDirectory=
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fog-companion"
