"""A folder of images (or one image) as a frame source, read in name order at a frame rate of its own."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.sources.base import IMAGE_SUFFIXES, MIN_SIDE, CameraError, FrameError, FrameSource


class FolderSource(FrameSource):
    """The images of a folder in name order; each ``read`` gives the next one (None at the end).

    The images are frames taken ``fps`` times a second: the n-th image read has frame time n / fps.
    An image that cannot be used (empty, undecodable, too small, gone) raises :class:`FrameError`
    naming it, and the next ``read`` goes on after it. The folder itself deleted (or unmounted)
    raises :class:`CameraError` on every ``read``; once it is back the reading goes on after the
    last image read, so a folder put back mid-run picks up where it stopped.
    """

    live = False

    def __init__(self, folder: str | Path, loop: bool = False, only: Path | None = None, fps: float = 15.0) -> None:
        if not fps > 0:
            raise CameraError(f"frames per second must be above 0, not {fps}")
        self.folder = Path(folder)
        self.fps = fps
        self._read = 0
        self.loop = loop
        self.only = only  # a single image instead of the whole folder
        self.name = str(only or folder)
        self._files: list[Path] = []
        self._next = 0
        self._gone = False  # the folder was found missing: list it afresh when it is back
        self._last = ""  # the name of the last image read, to go on after it

    def _listing(self) -> list[Path]:
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def open(self) -> None:
        if self.only is not None:
            self._files, self._next, self._read = [self.only], 0, 0
            return
        if not self.folder.is_dir():
            raise CameraError(f"image folder {self.folder} does not exist")
        self._files = self._listing()
        if not self._files:
            raise CameraError(f"image folder {self.folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self._next, self._read, self._gone, self._last = 0, 0, False, ""

    def read(self) -> np.ndarray | None:
        if self.only is None and not self.folder.is_dir():
            self._gone = True
            raise CameraError(f"image folder {self.folder} is gone (deleted, moved or unmounted)")
        if self._gone:  # back: its images as they are now, going on after the last one read
            self._gone = False
            self._files = self._listing()
            self._next = next((i for i, p in enumerate(self._files) if p.name > self._last), len(self._files))
        if self._next >= len(self._files):
            if not (self.loop and self._files):
                return None
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        self._last = path.name
        self.stamp = self._read / self.fps  # a broken image keeps its place in time: the frames after it do not move
        self._read += 1
        return read_image(path)

    def close(self) -> None:
        self._files = []


def read_image(path: Path) -> np.ndarray:
    """One picture file as a BGR frame, or :class:`FrameError` saying what is wrong with it, by name."""
    label = f"frame {path.name}"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FrameError(f"{label} is gone (deleted or moved while it was being read)") from None
    except OSError as exc:
        raise FrameError(f"{label} cannot be read: {exc.strerror or exc}") from None
    if not data:
        raise FrameError(f"{label} is empty (0 bytes)")
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        kind = path.suffix.lstrip(".").upper() or "picture"
        raise FrameError(f"{label} cannot be decoded ({len(data)} bytes: damaged, cut short or not really a "
                         f"{kind} file)")
    height, width = frame.shape[:2]
    if min(width, height) < MIN_SIDE:
        raise FrameError(f"{label} is {width}x{height} pixels, under {MIN_SIDE} (a picture of "
                         f"{MIN_SIDE}x{MIN_SIDE} or more is needed)")
    return frame
