"""Which way a marker faces, from its angle on the board: the one reading the detector and the
facing stabiliser share (kept apart so the detector needs nothing of the stabiliser's)."""

from __future__ import annotations

from collections.abc import Mapping


def _off(a: float, b: float) -> float:
    """How many degrees apart two angles are (0-180)."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def read_facing(angle: float, facings: Mapping[str, float], tolerance: float) -> tuple[str | None, tuple[str, ...]]:
    """The way a marker at ``angle`` faces: (the way, ()) when within ``tolerance`` of one, else
    (None, the two nearest ways) - turned between them."""
    ranked = sorted(facings, key=lambda way: _off(angle, facings[way]))
    if not ranked:
        return None, ()
    if _off(angle, facings[ranked[0]]) <= tolerance:
        return ranked[0], ()
    return None, tuple(ranked[:2])
