"""Keep the companion's memory small on a 2 GB Raspberry Pi.

Camera frames are large (a 1280x720 picture is 2.7 MB, its working copies several times that)
and are allocated and freed many times a second. glibc's malloc raises its mmap threshold
after the first such block is freed, so later frames come from the heap and the freed space
is kept by the process for good: the companion grew to ~300 MB while idle. Fixing the
threshold at 1 MB makes every frame-sized block its own mapping, returned to the system when
it is freed, and two arenas are enough for a handful of busy threads. Measured with
``benchmarks/service_resources.py`` (docs/resources.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8


def tune_malloc(mmap_threshold: int = 1 << 20, arenas: int = 2) -> bool:
    """Apply the settings above where the C library is glibc; False elsewhere (nothing changes)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl or another libc: it manages memory its own way
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    ok = bool(mallopt(M_MMAP_THRESHOLD, mmap_threshold))
    ok = bool(mallopt(M_TRIM_THRESHOLD, 2 * mmap_threshold)) and ok
    return bool(mallopt(M_ARENA_MAX, arenas)) and ok
