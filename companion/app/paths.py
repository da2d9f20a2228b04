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


def write_atomically(path: Path, text: str) -> None:
    """Write a small file so that a full disk or a power cut leaves the old one whole: a temporary
    file beside it, flushed to the disk, then renamed over it. Raises ``OSError`` (nothing changed)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
