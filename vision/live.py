"""The camera as the rest of the companion sees it: one thread reading, detecting and stabilising.

:class:`LiveCamera` owns a frame source, the stream observer and the stabiliser. It hands each
settled board picture to a callback (the session), keeps the latest frame and observation for
the panel's calibration view, and watches the source's health: a source that raises, returns
frozen or black frames, names a frame it cannot deliver (an empty or undecodable image), or
disappears is reported as a *fault* so the session can switch to panel-only play, and reported
back as healthy as soon as good frames return (or the source answers again).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from companion.games import Layout
from vision.camera_place import DEFAULT_ABOVE_MM
from vision.detect import BoardDetector, Observation
from vision.lens import Lens
from vision.frame_checks import MarkerWatch, usable  # noqa: F401  (said from here too)
from vision.sources import CameraError, FrameError, FrameSource, SimulatedTable, clipped
from companion.games.base import unfaced
from companion.table.sight import Seen, Viewpoint
from vision.facing import FacingStabiliser
from vision.hands import SimulatedHands
from vision.stabilise import FrameClock, Stabiliser, StreamObserver, watch

log = logging.getLogger(__name__)

Placement = dict[str, tuple[str, ...]]

# A frame whose mean brightness is below this (0-255) shows nothing: lens cap, lights off, dead sensor.
BLACK_LEVEL = 8.0


def _beside(board: Layout, unplaced: Mapping[str, Any]) -> str:
    """Why a piece was placed nowhere; found off the board, with the edge it lies beyond ("off-board
    right": the board's right edge, as its file draws it): one stray piece is said where it lies, never
    taken for the board having moved."""
    reason, at = str(unplaced["reason"]), unplaced.get("board_mm")
    if reason != "off-board" or not at:
        return reason
    (x, y), (w, h) = at, board.size_mm
    past = {"left": -x, "right": x - w, "top": -y, "bottom": y - h}
    return f"{reason} {max(past, key=lambda side: past[side])}"


def _placement(pieces: Mapping[str, str]) -> Placement:
    out: dict[str, list[str]] = {}
    for piece, cell in sorted(pieces.items()):
        out.setdefault(cell, []).append(piece)
    return {c: tuple(p) for c, p in out.items()}




class LiveCamera:
    """Frames in, stable board pictures and health reports out.

    ``on_picture(placement, first)`` is called with every settled picture that differs from the
    last one (``first`` for the first picture after start or after a fault). ``on_health(ok, why)``
    is called when the camera fails and when it recovers. Both are called on the camera thread.
    """

    def __init__(self, source: FrameSource, board: Layout,
                 on_picture: Callable[[Placement, bool], None] | None = None,
                 on_health: Callable[[bool, str], None] | None = None,
                 on_marker: Callable[[str, bool], object] | None = None,  # what it returns is not used
                 on_blocked: Callable[[bool], None] | None = None,
                 on_board_moved: Callable[[], None] | None = None,
                 stabiliser: Stabiliser | None = None, clock: Callable[[], float] = time.monotonic,
                 fault_seconds: float = 3.0, frozen_seconds: float = 5.0, interval: float = 0.02,
                 recover_seconds: float | None = None, lens: Lens | None = None,
                 above_mm: float = DEFAULT_ABOVE_MM) -> None:
        self.source = source
        self.lens = lens  # the camera's lens calibration, or None
        self.above_mm = above_mm  # the camera's height above the board when neither lens nor view tells it
        self.board = board
        self.on_picture = on_picture
        self.on_health = on_health
        self.on_marker = on_marker
        self.on_blocked = on_blocked  # called when something starts/stops resting over the board
        self.on_board_moved = on_board_moved  # called when the board (or camera) was found moved and re-fitted
        self.blocked = False
        self.viewpoint: Viewpoint | None = None  # where the camera is over the board, as the last fit told it
        self.markers = MarkerWatch()
        self.clock = clock
        self.observer = StreamObserver(self._detector(board, lens))
        self.stabiliser = stabiliser or FacingStabiliser(clock=clock)
        self._frame_clock = FrameClock(clock)
        for name, value in (("fault_seconds", fault_seconds), ("frozen_seconds", frozen_seconds),
                            ("interval", interval)):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number of seconds, not {value!r}")
        self.fault_seconds = fault_seconds
        self.frozen_seconds = frozen_seconds
        # Hysteresis: once failed, good frames must keep coming this long before the camera counts as back,
        # so a camera that delivers a frame now and then is reported lost once, not lost/back every few seconds.
        self.recover_seconds = 1.0 if recover_seconds is None else recover_seconds
        self.interval = interval
        self.healthy = True
        self.fault: str | None = None
        self.frames = 0
        self.latest_frame: np.ndarray | None = None
        self.latest_obs: Observation | None = None
        self._frame_lock = threading.Lock()
        self._new_frame = threading.Condition(self._frame_lock)
        self._bad_since: float | None = None
        self._bad_why = ""
        self._frame_trouble = False  # the trouble is in the frames (over when a good one comes), not the source
        self._good_since: float | None = None
        self._last_good: float | None = None
        self._logged: set[str] = set()  # step failures already logged with a traceback (once each)
        self._jpeg: tuple[tuple[Any, ...], bytes] | None = None  # the last snapshot, shared by every viewer
        self._notice: tuple[tuple[Any, ...], bytes] | None = None  # the last picture that says a fault
        self._same_since: float | None = None
        self._last_small: np.ndarray | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._announced = False  # the first stable picture since start/recovery was handed on
        self._recheck: int | None = None  # after the board was found moved: hand the picture on at this frame
        self.last_heartbeat = clock()

    @property
    def simulated(self) -> bool:
        return isinstance(self.source, SimulatedTable)

    @property
    def name(self) -> str:
        return str(getattr(self.source, "name", type(self.source).__name__))

    # ------------------------------------------------------------------ thread
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        with self._new_frame:
            self._new_frame.notify_all()
        try:
            self.source.close()
        except Exception:  # closing a broken camera must not stop the shutdown
            log.exception("closing the camera failed")

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.step()
            except Exception as exc:  # a bug in detection must not kill the camera thread silently
                self._step_failed(exc)
                self._stop.wait(0.5)
            # Paced to the frame rate: a frame every ``interval`` seconds, never a busy loop.
            self._stop.wait(max(0.002, self.interval - (time.monotonic() - started)))

    def _step_failed(self, exc: Exception) -> None:
        """Detection failed on a frame: a camera fault with the reason, logged in full once per kind."""
        why = f"detection fails on the camera's frames ({type(exc).__name__}: {str(exc)[:160]})"
        key = f"{type(exc).__name__}:{str(exc)[:160]}"
        if key not in self._logged and len(self._logged) < 32:
            self._logged.add(key)
            log.exception("camera step failed (logged once; it stays a camera fault while it lasts)")
        self._bad(why)

    # ------------------------------------------------------------------ one frame
    def step(self) -> Observation | None:
        """Read and process one frame (the thread calls this; tests call it directly)."""
        self.last_heartbeat = self.clock()
        try:
            frame = self.source.read()
        except FrameError as exc:  # a frame the source names as broken: the next one may be good
            self._bad(clipped(str(exc)))
            return None
        except Exception as exc:  # noqa: BLE001 - any driver failure is a camera fault, never a traceback loop
            self._bad(clipped(str(exc)) if isinstance(exc, CameraError) else
                      f"the camera failed: {type(exc).__name__}: {str(exc)[:160]}", source=True)
            return None
        if frame is None:
            if getattr(self.source, "live", True):
                self._no_frame()
            else:
                self._nothing_new()
            return None
        frame, why = usable(frame)
        if why is None:
            why = self._frame_problem(frame)
        if why:
            self._bad(why)
            return None
        if not self.healthy and self._good_since is None:  # the first good frame after a fault:
            self.stabiliser.initialised = False  # what stands on the board now must be seen afresh
            self.observer.reset()
            self._announced = False
        try:
            # An unchanged picture costs only the motion check; pieces under a resting hand are held.
            at = self._frame_clock(getattr(self.source, "stamp", None))  # the frame's own time, on our clock
            obs, change = watch(self.observer, self.stabiliser, frame, at)
        except Exception as exc:  # noqa: BLE001 - frames detection cannot handle are a camera fault
            self._step_failed(exc)
            return None
        self._good()
        if obs.camera is not None:
            self.viewpoint = Viewpoint(obs.camera.nadir, obs.camera.above_mm)
        with self._new_frame:
            self.latest_frame, self.latest_obs = frame, obs
            self.frames += 1
            self._new_frame.notify_all()
        if obs.board_found and self.observer.last_motion <= self.stabiliser.motion_threshold:
            for name, old, _new in self.markers.feed(obs.special):
                if self.on_marker is not None:
                    self.on_marker(name, old is None)  # first sighting: where it stands is just noted
        if self.observer.board_moved:
            if self.on_board_moved is not None:
                self.on_board_moved()
            # the picture as read through the new fit is handed on once it settles, changed or not:
            # the session then knows whether the pieces still stand where the game has them
            self._recheck = self.frames + self.stabiliser.frames_needed + 2
        if self.stabiliser.blocked != self.blocked:
            self.blocked = self.stabiliser.blocked
            if self.on_blocked is not None:
                self.on_blocked(self.blocked)
        if not self.healthy:
            return obs  # pictures wait until the camera counts as back; the first one then is handed on whole
        if change is not None:
            self._recheck = None
            self._hand_on(change.placement(), first=not self._announced)
        elif self.stabiliser.initialised and not self._announced:
            self._hand_on(self._settled(), first=True)
        elif self._recheck is not None and self.frames >= self._recheck and not self.stabiliser.blocked:
            self._recheck = None
            self._hand_on(self._settled(), first=False)
        return obs

    def _settled(self) -> Placement:
        """The settled picture, facing pieces named with the way they face (vision/facing.py)."""
        if isinstance(self.stabiliser, FacingStabiliser):
            return self.stabiliser.picture()
        return _placement(self.stabiliser.stable)

    def _hand_on(self, placement: Placement, first: bool) -> None:
        """The settled picture handed on with the place it was taken from (companion/table/sight.py: what a
        tall piece hides from there is counted where the game has it)."""
        self._announced = True
        obs, shown = self.latest_obs, {unfaced(p)[0] for ps in placement.values() for p in ps}
        # a piece found but placed nowhere (turned between two ways, between two places): said with what to do
        unread = {str(u["id"]): _beside(self.board, u) for u in (obs.unplaced if obs is not None else [])
                  if u.get("id") and u["id"] not in shown}
        if self.on_picture is not None:
            self.on_picture(Seen.taken(placement, self.viewpoint, unread), first)

    def _frame_problem(self, frame: np.ndarray) -> str | None:
        small = cv2.resize(frame, (64, 36), interpolation=cv2.INTER_AREA)
        if float(small.mean()) < BLACK_LEVEL:
            return "the camera sees only black (lens covered, lights off?)"
        now = self.clock()
        # A real sensor never sends two bit-identical frames; a renderer (the simulated table) may.
        frozen_check = getattr(self.source, "live", True) and not getattr(self.source, "repeats_frames", False)
        if frozen_check and self._last_small is not None and np.array_equal(small, self._last_small):
            if self._same_since is None:
                self._same_since = now
            if now - self._same_since >= self.frozen_seconds:
                return "the camera picture is frozen"
        else:
            self._same_since = None
        self._last_small = small
        return None

    def _nothing_new(self) -> None:
        """A recording (folder, video file) with nothing new: it stays as its last read left it.

        A broken last frame stays a trouble (nothing good came after it, so it becomes a fault after
        ``fault_seconds`` even when the recording has ended); a source that failed and now answers
        again, with nothing new, is back (a folder put back after the end of its images).
        """
        if self._bad_since is not None and self._frame_trouble:
            self._bad(self._bad_why)
        elif self._bad_since is not None or not self.healthy:  # answering again: counts towards being back
            self._good()

    def _no_frame(self) -> None:
        """No new frame yet: a fault only once none came for ``fault_seconds`` since the last good one."""
        now = self.clock()
        since = self._last_good if self._last_good is not None else self._bad_since
        if since is None:
            self._bad_since = now
            return
        if now - since >= self.fault_seconds:
            if self._bad_since is None:
                self._bad_since = since
            self._good_since = None  # a gap this long restarts the recovery count
            self._bad("the camera sends no frames" if self._last_good is None or self.healthy else
                      f"the camera sends too few frames (none for {now - since:.1f} s; it needs one at least every "
                      f"{self.fault_seconds:g} s)", source=True)

    def _bad(self, why: str, source: bool = False) -> None:
        """Trouble now (``source``: the source itself failed, not one of its frames); a fault once it lasts."""
        now = self.clock()
        if self._bad_since is None:
            self._bad_since = now
        self._bad_why, self._frame_trouble = why, not source
        if not why.startswith("the camera sends"):
            self._good_since = None  # a bad frame or an error restarts the recovery count
        if self.healthy and now - self._bad_since >= self.fault_seconds:
            self.healthy, self.fault = False, why
            self._good_since = None
            log.warning("camera fault: %s", why)
            if self.on_health is not None:
                self.on_health(False, why)
        elif not self.healthy and why != self.fault:
            self.fault = why

    def _good(self) -> None:
        now = self.clock()
        self._last_good = now
        self._bad_since = None
        if not self.healthy:
            if self._good_since is None:
                self._good_since = now
            if now - self._good_since < self.recover_seconds:
                return
            self._good_since = None
            self.healthy, self.fault = True, None
            log.warning("camera back")
            if self.on_health is not None:
                self.on_health(True, "frames are back")

    def alive(self, stall_seconds: float) -> bool:
        """The camera thread runs and started a step within ``stall_seconds`` (a hung driver call fails this)."""
        if self._thread is None or not self._thread.is_alive():
            return False
        return self.clock() - self.last_heartbeat < stall_seconds

    # ------------------------------------------------------------------ for the panel
    def set_layout(self, layout: Layout) -> None:
        """A new game on another board (or another game): detect against its layout from the next frame."""
        if layout is self.board:
            return
        self.board = layout
        self.observer = StreamObserver(self._detector(layout, self.lens))
        self.stabiliser.initialised = False
        self._announced = False  # the new board's first settled picture is handed on whole, changed or not
        if isinstance(self.source, SimulatedTable) and self.source.board is not layout:
            self.source.set_board(layout)  # the simulated table draws the new board

    def set_game(self, layout: Layout, placement: Mapping[str, Sequence[str]]) -> None:
        """Another game on the table (a new one, or one resumed): detected against its layout, and a
        simulated table that held pieces (the game before's) laid as this one expects (``placement``):
        it stands in for the table and the hands, which put the old game away and set the new one up.
        A table never used (nothing on it) stays empty: the board check shows what to set up."""
        held = isinstance(self.source, SimulatedTable) and bool(self.source.placement())
        self.set_layout(layout)
        if held:
            self.set_table(placement)

    def follow_layout(self, layout: Layout) -> None:
        """The same table with parts of it moved (a pad slid along its edge): the places read from the
        next frame are the new layout's, the board's fit and the camera's pose stay. The settled picture
        is kept (the places keep their names), and what the next frames show through the new layout is
        handed on once it settles, changed or not, so the session knows the table as read now. The
        simulated table draws its tokens on the moved places (where the slid pad now lies)."""
        if layout is self.board:
            return
        self.board = layout
        self.observer = StreamObserver(self._detector(layout, self.lens))  # swapped whole, as for a lens
        if self.stabiliser.initialised:  # before the first settled picture there is none to hand on again
            self._recheck = self.frames + self.stabiliser.frames_needed + 2
        if isinstance(self.source, SimulatedTable):
            self.source.set_board(layout, moved_parts=True)

    def _detector(self, board: Layout, lens: Lens | None) -> BoardDetector:
        """A detector for this camera: its lens, its height, and its own camera matrix when the
        source knows it (the simulated table), so tall pieces are moved back from the right place."""
        detector = BoardDetector(board, lens=lens, above_mm=self.above_mm)
        if getattr(self.source, "pose", None) is not None:
            detector.intrinsics = self._source_matrix
        return detector

    def _source_matrix(self) -> tuple[np.ndarray, tuple[int, int]]:
        """The simulated camera's matrix and frame size, from its pose as it is now: its optical axis
        is not the picture's centre (the board is framed off-centre), which no picture tells."""
        pose = self.source.pose  # type: ignore[attr-defined]  # only a source with a pose is asked
        (cx, cy), f = pose.principal, pose.focal
        return np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]]), tuple(pose.frame_size)

    def set_lens(self, lens: Lens | None) -> None:
        """A new lens calibration (or none): the board is fitted afresh through it from the next frame."""
        self.lens = lens
        self.observer = StreamObserver(self._detector(self.board, lens))  # swapped whole: the camera thread
        # keeps the old one to the end of its frame

    def latest(self) -> np.ndarray | None:
        """A copy of the newest frame, or None before the first."""
        with self._frame_lock:
            return None if self.latest_frame is None else self.latest_frame.copy()

    def places_px(self, cells: Sequence[str]) -> dict[str, tuple[float, float]]:
        """Where the centres of ``cells`` lie in the last frame (pixels), through its board fit: none
        without a fit (the Camera page marks places the game expects a piece on and the camera misses)."""
        with self._frame_lock:
            frame, obs = self.latest_frame, self.latest_obs
        known = [c for c in dict.fromkeys(cells) if c in self.board.cells]
        if frame is None or obs is None or obs.homography is None or not known:
            return {}
        mm = np.array([self.board.cells[c].center_mm for c in known], np.float64)
        px = self.observer.detector.to_image(mm, obs.homography, frame.shape)
        if px is None:
            return {}
        return {c: (float(x), float(y)) for c, (x, y) in zip(known, px.reshape(-1, 2), strict=True)}

    def stable_placement(self) -> Placement | None:
        """The last settled picture of the board, or None before the board was seen."""
        if not self.stabiliser.initialised:
            return None
        return self._settled()

    def wait_frame(self, after: int, timeout: float) -> int:
        """Block until a frame newer than ``after`` arrived (for the MJPEG stream); the new count."""
        with self._new_frame:
            self._new_frame.wait_for(lambda: self.frames > after or self._stop.is_set(), timeout)
            return self.frames

    def snapshot(self, overlay: bool = True, quality: int = 80, max_width: int = 960,
                 conceal: frozenset[str] = frozenset()) -> bytes | None:
        """The latest frame as JPEG, with the detection overlay drawn (encoded once per frame for all
        viewers); the pieces in ``conceal`` drawn without id or marker (vision/overlay.py)."""
        from vision.overlay import view_jpeg

        with self._frame_lock:
            frame, obs, number = self.latest_frame, self.latest_obs, self.frames
        if frame is None:
            return None
        key = (number, overlay, quality, max_width, conceal)
        cached = self._jpeg
        if cached is not None and cached[0] == key:
            return cached[1]
        data = view_jpeg(frame, obs, self.board, overlay, quality, max_width, conceal)
        if data is None:
            return None
        self._jpeg = (key, data)
        return data

    @property
    def trouble(self) -> str | None:
        """What is wrong with the camera now: its fault, or trouble that has not lasted long enough to be one."""
        if self.fault is not None:
            return self.fault
        return self._bad_why if self._bad_since is not None else None

    def view_jpeg(self, overlay: bool = True, quality: int = 80, max_width: int = 960,
                  conceal: frozenset[str] = frozenset()) -> bytes:
        """What a person watching the camera is shown now, as JPEG (never nothing).

        The latest frame while the camera is healthy; while it is faulty, or before its first frame,
        a picture that says why (over the last good picture, dimmed), so a camera view never waits
        on a camera that may send nothing again.
        """
        from vision.overlay import draw_notice

        if self.healthy:
            latest = self.snapshot(overlay=overlay, quality=quality, max_width=max_width, conceal=conceal)
            if latest is not None:
                return latest
        trouble = self.trouble
        if not self.healthy:
            text = f"camera fault: {trouble}"
        else:
            text = "waiting for the camera's first picture" + (f": {trouble}" if trouble else "")
        with self._frame_lock:
            frame, number = self.latest_frame, self.frames
        key = (text, number, quality, max_width)
        cached = self._notice
        if cached is not None and cached[0] == key:
            return cached[1]
        width = max_width if frame is None else min(max_width, int(frame.shape[1]))
        image = draw_notice(frame, text, width, fault=not self.healthy)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise CameraError("the picture saying the camera's fault could not be encoded as JPEG")
        self._notice = (key, data.tobytes())
        return self._notice[1]

    def seen(self) -> dict[str, Any]:
        """What the last frame showed, in that frame's pixels: the board's outline and each piece found."""
        from vision.overlay import overlay_data

        with self._frame_lock:
            frame, obs = self.latest_frame, self.latest_obs
        size = (int(frame.shape[1]), int(frame.shape[0])) if frame is not None else (0, 0)
        return overlay_data(obs, self.board, size)

    def settings(self) -> dict[str, Any]:
        """What the calibration page shows about the camera and the detector."""
        obs = self.latest_obs
        return {
            "source": self.name,
            "simulated": self.simulated,
            "healthy": self.healthy,
            "fault": self.fault,
            "frames": self.frames,
            "frame_size": list(self.latest_frame.shape[1::-1]) if self.latest_frame is not None else None,
            "board_found": bool(obs and obs.board_found),
            "fiducials_seen": sorted(obs.fiducials_seen) if obs else [],
            "pieces_seen": len(obs.pieces) if obs else 0,
            "pieces": dict(sorted(obs.pieces.items())) if obs else {},  # piece -> the place it was read on
            "view_blocked": self.blocked,
            "unplaced": list(obs.unplaced) if obs else [],
            "unknown_markers": sorted(obs.unknown_markers) if obs else [],
            "detect_ms": round(obs.ms, 1) if obs else None,
            "stable_frames": self.stabiliser.frames_needed,
            "hold_seconds": self.stabiliser.hold_seconds,
            "dictionary": self.board.marker_dictionary,
            "lens": "calibrated" if self.lens is not None else "none (read as a pinhole camera)",
        }

    # ------------------------------------------------------------------ the simulated table
    @property
    def hands(self) -> SimulatedHands:
        """Hands at the simulated table (vision/hands.py); only that table can be changed from here."""
        if not isinstance(self.source, SimulatedTable):
            from companion.errors import FogCompanionError

            raise FogCompanionError("only the simulated table can be changed from here")
        return SimulatedHands(self.source, lambda: self.observer.look_again())  # the observer of the moment

    def move_piece(self, piece: str, cell: str | None, facing: str | None = None) -> None:
        self.hands.move_piece(piece, cell, facing)

    def turn_over(self, piece: str) -> None:
        self.hands.turn_over(piece)

    def face_down(self) -> list[str]:
        return self.hands.face_down()

    def set_table(self, placement: Mapping[str, Sequence[str]]) -> None:
        self.hands.set_table(placement)

    def table(self) -> Placement:
        return self.hands.placement()
