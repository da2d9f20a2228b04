"""What every frame source shares: the :class:`FrameSource` interface, its two errors, the
suffixes read as pictures and videos, and a camera address made safe to show (:func:`redact`)."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from companion.errors import FogCompanionError


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpg", ".mjpeg", ".h264")
SECRET_KEYS = ("password", "passwd", "pass", "pwd", "token", "key", "secret", "auth", "signature", "sig")


def redact(spec: str) -> str:
    """A camera address safe to show: the password of ``user:pass@`` and secret query values become ``***``."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    if "://" not in spec:
        return spec
    try:
        parts = urlsplit(spec)
    except ValueError:
        return "***"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:***@{host}" if ":" in userinfo else f"***@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if any(s in k.lower() for s in SECRET_KEYS) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


# A frame narrower or lower than this cannot show a marker (the smallest that reads is about 16 px).
MIN_SIDE = 16


def clipped(text: str, most: int = 320) -> str:
    """A fault said in at most ``most`` characters, its head and its tail kept: a long device path
    must not cut off what the message ends with ("trying again every 2 s")."""
    if len(text) <= most:
        return text
    half = (most - 1) // 2
    return f"{text[:half]}…{text[-half:]}"

class CameraError(FogCompanionError):
    """A camera source could not be opened or stopped delivering frames."""


class FrameError(CameraError):
    """One frame could not be delivered (named: which, and what is wrong with it); the source itself goes on.

    Kept apart from :class:`CameraError` because the two end differently: a broken frame is over
    when a good one follows, a source that is gone is over only when it answers again.
    """


class FrameSource(ABC):
    """A source of BGR frames. ``read`` returns the newest frame, or None if none is ready.

    ``stamp`` is the frame time of the frame ``read`` returned last, in seconds: when a camera
    took it, or its place in a recording (index / fps). Everything that waits ("three still
    frames", "a hand resting three seconds") counts in frame time, so a replay gives the same
    events on a fast machine and on a slow one. None: the source has no time of its own (the
    simulated table); the consumer's clock stands in.
    """

    name = "source"
    stamp: float | None = None

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def open(self) -> None:
        """Start delivering frames; raises :class:`CameraError` naming what failed."""

    @abstractmethod
    def read(self) -> np.ndarray | None:
        """The latest frame (BGR), or None when no new frame is available (yet, or any more)."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; safe to call twice."""
