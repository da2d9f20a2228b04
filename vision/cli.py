"""Command-line handlers of the vision package: ``markers``, ``detect`` and ``render``.

They are registered on the ``fog-companion`` command line by :mod:`companion.run`, the one place
that wires the packages together, so the rules core never imports vision.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from companion.errors import FogCompanionError
from companion.games import Layout, get_game


def _layout(board: str) -> Layout:
    """The layout of a board of the default game (the camera commands work before any game exists)."""
    return get_game().layout(board=board)


def markers_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", required=True, help="sheet.pdf or sheet.png")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--dpi", type=int, default=300, help="resolution of a PNG sheet")


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.markers import write_sheet

    for path in write_sheet(_layout(args.board), args.output, dpi=args.dpi):
        print(f"wrote {path}")
    return 0


def detect_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("images", nargs="+", help="image files; each is read on its own")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--json", action="store_true", help="one JSON object per image, one per line")


def cmd_detect(args: argparse.Namespace) -> int:
    from vision.detect import BoardDetector

    detector = BoardDetector(_layout(args.board))
    status = 0
    for name in args.images:
        frame = cv2.imread(name, cv2.IMREAD_COLOR) if Path(name).is_file() else None
        if frame is None:
            print(json.dumps({"image": name, "board_found": False, "error": "cannot read this image"})
                  if args.json else f"{name}: cannot read this image")
            status = 2
            continue
        obs = detector.detect(frame)  # no memory from one image to the next
        if args.json:
            print(json.dumps(obs.to_dict(name)))
        else:
            head = f"{name}: board {'found' if obs.board_found else 'NOT found'}"
            print(head + (f" ({obs.reason})" if obs.reason else "") + f", {len(obs.pieces)} pieces, {obs.ms:.1f} ms")
            for piece, cell in sorted(obs.pieces.items(), key=lambda kv: kv[1]):
                print(f"  {cell:>10}  {piece}")
            for u in obs.unplaced:
                print(f"  unplaced {u['id']}: {u['reason']}")
            if obs.unknown_markers:
                print(f"  unknown markers: {obs.unknown_markers}")
    return status


def render_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("state", help="a game state JSON file")
    p.add_argument("-o", "--output", required=True, help="frame.png or .jpg")
    p.add_argument("--seed", type=int, default=0, help="camera pose and picture effects")
    p.add_argument("--hand", action="store_true", help="put a hand over the board")
    p.add_argument("--clean", action="store_true", help="no blur, noise or uneven light")


def cmd_render(args: argparse.Namespace) -> int:
    from companion.statefile import read_state
    from vision.render import render_state

    game = get_game()
    state = read_state(args.state, game)
    rendered = render_state(game.layout(state), game.expected(state), seed=args.seed, hand=args.hand, clean=args.clean)
    if not cv2.imwrite(args.output, rendered.frame):
        raise FogCompanionError(f"cannot write {args.output} (use .png or .jpg)")
    w, h = rendered.pose.frame_size if rendered.pose else (0, 0)
    print(f"wrote {args.output} ({w}x{h}, {len(rendered.visible)} of {len(rendered.truth)} markers fully visible)")
    return 0


def watch_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera", default="sim",
                   help="picamera2 | sim | 0 | /dev/video0 | file.mp4 | folder/ | rtsp://... (default: sim)")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--state", help="a game state JSON: the simulated table shows it, and it is the start")
    p.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: run until Ctrl-C)")
    p.add_argument("--fps", type=float, default=None,
                   help="frame rate of a folder of frames (default 15) or a video file (default: the file's)")
    p.add_argument("--stable-frames", type=int, default=3, help="consistent still frames before a change counts")
    p.add_argument("--hold", type=float, default=3.0,
                   help="seconds (frame time) a piece unseen without a hand over it is assumed to stay put")


def cmd_watch(args: argparse.Namespace) -> int:
    """Print every stable change of the board as a JSON line (a live check of camera and markers).

    Each change carries ``frame``, the index of the frame at which it was decided, and ``at``, that
    frame's time in seconds; waiting is counted in frame time, so replaying a folder gives the same
    lines on any machine. The last line is ``{"event": "stopped", "stable": {piece: cell}}``.
    """
    import time

    from companion.statefile import read_state
    from vision.detect import BoardDetector
    from vision.sources import open_source
    from vision.stabilise import FrameClock, Stabiliser, StreamObserver, watch

    if args.fps is not None and not args.fps > 0:
        raise FogCompanionError(f"--fps must be above 0, not {args.fps}")
    board = _layout(args.board)
    placement = get_game().expected(read_state(args.state)) if args.state else {}
    observer = StreamObserver(BoardDetector(board))
    stabiliser = Stabiliser(frames_needed=args.stable_frames, hold_seconds=args.hold)
    frame_time = FrameClock(lambda: 0.0)  # the stream's own times from 0; a source without them: arrival
    started = time.monotonic()
    seen = 0
    with open_source(args.camera, board=board, placement=placement, fps=args.fps) as source:
        print(json.dumps({"event": "camera", "source": getattr(source, "name", args.camera)}), flush=True)
        while not args.frames or seen < args.frames:
            frame = source.read()
            if frame is None:
                if not getattr(source, "live", args.camera in ("sim", "picamera2")):
                    break  # the end of a file or folder
                time.sleep(0.01)
                continue
            stamp = getattr(source, "stamp", None)
            at = frame_time(stamp) if stamp is not None else time.monotonic() - started
            if seen == 0 and placement:
                stabiliser.reset({p: c for c, ps in placement.items() for p in ps}, at=at)
            obs, change = watch(observer, stabiliser, frame, at)
            if change is not None:
                print(json.dumps({"event": "stable-change", "frame": seen, "at": round(at, 3),
                                  "moved": change.moved}), flush=True)
            elif seen == 0 and not obs.board_found:
                print(json.dumps({"event": "board-not-found", "frame": seen, "reason": obs.reason}), flush=True)
            seen += 1
    print(json.dumps({"event": "stopped", "frames": seen, "stable": dict(sorted(stabiliser.stable.items()))}),
          flush=True)
    return 0


COMMANDS = {
    "watch": (cmd_watch, watch_args, "read a camera and print stable board changes"),
    "markers": (cmd_markers, markers_args, "print marker sticker sheets at true size (PDF or PNG)"),
    "detect": (cmd_detect, detect_args, "find the board and the pieces in camera images"),
    "render": (cmd_render, render_args, "draw a game state as the camera would see it"),
}
