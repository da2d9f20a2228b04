"""Camera sources: Pi camera, any OpenCV source, a folder of images, or the simulated table.

All share one small interface (:class:`FrameSource`: ``open``, ``read`` the latest frame,
``close``; a context manager). Live cameras run a grabber thread that keeps only the newest
frame, so a slow consumer never processes a stale backlog. Files and folders are read in order.
:func:`open_source` turns a config/CLI string into a source and, when it cannot open, says
what it tried.

A source never skips what it cannot use in silence: a frame it cannot deliver raises
:class:`FrameError` naming it (``frame 0003.png is empty (0 bytes)``) and the next ``read`` goes
on with the next one; a source that is gone (its folder deleted, its video file removed, its
device unplugged) raises :class:`CameraError` on every ``read`` until it is back.

One source a file (:mod:`vision.sources.opencv`, ``folder``, ``picamera``, ``simulated``), the
interface and errors in :mod:`vision.sources.base`; every name stays importable from here
(``from vision.sources import SimulatedTable``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2  # noqa: F401  (as before: ``vision.sources.cv2`` is the OpenCV every source here opens with)

from vision.sources.base import (IMAGE_SUFFIXES, MIN_SIDE, SECRET_KEYS, VIDEO_SUFFIXES, CameraError, FrameError, clipped,
                                 FrameSource, redact)
from vision.sources.folder import FolderSource, read_image
from vision.sources.grabber import Grabber
from vision.sources.opencv import OpenCVSource
from vision.sources.picamera import OTHER_CAMERA_SIZE, PI_CAMERA_SIZE, Picamera2Source
from vision.sources.simulated import SimulatedTable

_Grabber = Grabber  # its name while only this module used it, for code written against that name

__all__ = ["CameraError", "FolderSource", "FrameError", "FrameSource", "Grabber", "IMAGE_SUFFIXES", "MIN_SIDE",
           "OTHER_CAMERA_SIZE", "OpenCVSource", "PI_CAMERA_SIZE", "Picamera2Source", "SECRET_KEYS", "SimulatedTable",
           "VIDEO_SUFFIXES", "open_source", "read_image", "redact"]


def open_source(spec: str, board: Any = None, placement: Mapping[str, Sequence[str]] | None = None,
                width: int = 0, height: int = 0, fps: float | None = None) -> FrameSource:
    """Make and open a source from ``picamera2``, ``sim``, ``/dev/video0``, ``0``, a file, a folder or a URL.

    ``width``/``height`` 0: the size made for a board seen whole - 2304x1296 on a Raspberry Pi
    camera (the Camera Module 3's binned full-sensor mode: its field of view, twice 720p's pixels),
    1280x720 on any other camera (a USB camera asked more may drop to a few frames a second).

    ``fps``: the frame rate of a folder of frames (default 15) or a video file (default: the file's own).
    """
    if fps is not None and not fps > 0:
        raise CameraError(f"frames per second must be above 0, not {fps}")
    spec = spec.strip()
    if spec != "picamera2":
        width, height = width or OTHER_CAMERA_SIZE[0], height or OTHER_CAMERA_SIZE[1]
    if spec == "sim":
        if board is None:
            raise CameraError("the simulated table needs a board")
        source: FrameSource = SimulatedTable(board, placement)
    elif spec == "picamera2":
        source = Picamera2Source(width or PI_CAMERA_SIZE[0], height or PI_CAMERA_SIZE[1])
    elif spec.isdigit():
        source = OpenCVSource(int(spec), width, height)
    elif "://" in spec:
        source = OpenCVSource(spec, width, height, live=True)
    else:
        path = Path(spec)
        if path.is_dir():
            source = FolderSource(path, fps=fps or 15.0)
        elif path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
            source = FolderSource(path.parent, only=path, fps=fps or 15.0)
        elif spec.startswith("/dev/video"):
            source = OpenCVSource(spec, width, height, live=True)
        elif path.is_file():
            source = OpenCVSource(spec, live=False, fps=fps)
        else:
            raise CameraError(f"camera {redact(spec)!r}: no such device, file or folder (tried: picamera2, sim, a device "
                              "index like 0, /dev/videoN, a video file, a folder of images, a stream URL)")
    source.open()
    return source
