"""Command-line handlers of the vision package: ``markers``, ``detect``, ``render``, ``watch`` and
``calibrate-camera``.

They are registered on the ``fog-companion`` command line by :mod:`companion.app.run`, the one place
that wires the packages together, so the rules core never imports vision.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2

from companion.errors import FogCompanionError
from companion.games import Layout, get_game
from vision.lens import Lens


def _layout(board: str, game: str = "fog") -> Layout:
    """The layout of a board of a game (the camera commands work before any game exists)."""
    return get_game(game).table.layout(board=board)


def _game_arg(p: argparse.ArgumentParser) -> None:
    from companion.games import names

    p.add_argument("--game", default="fog", choices=names(), help="the game whose board it is (default: fog)")


def _lens_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lens", default="",
                   help="lens calibration file, or none (default: the data directory's, if calibrate-camera made one)")


def _millimetres_above(text: str) -> float:
    """A camera height as argparse reads it: 100 to 5000 mm, as the config file allows."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected millimetres, got {text!r}") from None
    if not 100 <= value <= 5000:
        raise argparse.ArgumentTypeError(f"the camera's height must be 100 to 5000 mm, not {text}")
    return value


def _above_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--above-mm", type=_millimetres_above, default=800.0,
                   help="the camera's height above the board, for tall pieces when it looks straight down without "
                        "a lens calibration (default 800; [camera] above_board_mm)")


def _lens(setting: str) -> Lens | None:
    from companion.app.paths import default_data_dir
    from vision.lens import find_lens

    return find_lens(setting, default_data_dir())


def markers_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", help="sheet.pdf or sheet.png (default: GAME-markers.pdf, or lens-sheet.pdf with "
                   "--charuco, in the current folder)")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--charuco", action="store_true",
                   help="the lens calibration sheet instead (see calibrate-camera), A4 landscape")
    p.add_argument("--dpi", type=int, default=300, help="resolution of a PNG sheet")
    _game_arg(p)


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.markers import write_charuco_sheet, write_sheet

    if not 72 <= args.dpi <= 1200:
        raise FogCompanionError(f"--dpi must be between 72 and 1200, not {args.dpi}")
    output = args.output or ("lens-sheet.pdf" if args.charuco else f"{args.game}-markers.pdf")
    board = _layout(args.board, args.game)
    paths = write_charuco_sheet(output, dpi=args.dpi) if args.charuco else write_sheet(board, output, dpi=args.dpi)
    for path in paths:
        print(f"wrote {path}")
    print("print it at 100 % (\"actual size\"; never \"fit to page\"), on matte paper")
    if args.charuco:
        print("check the print with a ruler: each square measures 35 mm a side")
        return 0
    for line in _printing(board, args.game):
        print(line)
    return 0


def _printing(board: Layout, game: str) -> list[str]:
    """How to check the printed sheet and where each sticker goes, said after it is written: a sheet
    printed scaled reads every distance wrong, and a sticker on the wrong piece is a wrong game."""
    from vision.markers import CHECK_MM, CORNER_MARKER, sheet_items

    items = sheet_items(board)
    corners = [i for i in items if i.label.endswith(CORNER_MARKER)]
    special = {m: f"the {name} marker" for name, m in board.special_markers.items()}
    on = {m: p for p in board.pieces.values() for m in (p.faces.values() or [p.marker])}
    lines = [f"check the print with a ruler: the bar at the foot of each page is {CHECK_MM:g} mm long (tick to tick)"
             + (f", and the black square of each of the board's corner markers measures {corners[0].size_mm:g} mm "
                "a side" if corners else "") + "; any other length means the printer scaled the sheet: print it "
             "again at 100 %",
             "which sticker goes on which piece (each sticker's label says it, then its marker's number):"]
    kinds: dict[str, list[str]] = {}  # what a line says -> the labels it stands for, in order
    for item in items:
        piece = on.get(item.marker)
        where = ("the board's corner markers, each glued at the corner of the board its label names ({example}), "
                 f"where the board file puts them (`fog-companion board --game {game}` lists every place)"
                 if item in corners else
                 f"each {piece.kind} its label names, one on each of its faces" if piece and piece.faces else
                 f"each {piece.kind} its label names" if piece is not None else
                 " and ".join(special.values()) + ", each on the token its label names" if item.marker in special else
                 "the corner markers of the board's parts, each stuck in the corner of the part its label names "
                 "({example})")
        head = f"  {item.size_mm:g} mm" + (" (cut along its circle)" if item.round_mm else "") + ": " + where
        kinds.setdefault(head, []).append(item.label)
    return lines + [head.format(example=f'"{labels[0]}"' + (", …" if len(labels) > 1 else "")) + f" ({len(labels)})"
                    for head, labels in kinds.items()]


def detect_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("images", nargs="+", help="image files; each is read on its own")
    p.add_argument("--board", default="standard", help="packaged board name or board file")
    p.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    _lens_arg(p)
    _above_arg(p)
    _game_arg(p)


def cmd_detect(args: argparse.Namespace) -> int:
    from vision.detect import BoardDetector

    detector = BoardDetector(_layout(args.board, args.game), lens=_lens(args.lens),
                             above_mm=args.above_mm)
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
    from companion.store.statefile import read_game_state
    from vision.render import render_state

    game, state = read_game_state(args.state)  # the file names its game
    rendered = render_state(game.table.layout(state), game.table.expected(state), seed=args.seed, hand=args.hand, clean=args.clean)
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
    _lens_arg(p)
    _above_arg(p)


def cmd_watch(args: argparse.Namespace) -> int:
    """Print every stable change of the board as a JSON line (a live check of camera and markers).

    Each change carries ``frame``, the index of the frame at which it was decided, and ``at``, that
    frame's time in seconds; waiting is counted in frame time, so replaying a folder gives the same
    lines on any machine. The last line is ``{"event": "stopped", "stable": {piece: cell}}``.

    A frame that cannot be used is a ``bad-frame`` line naming it and what is wrong (an empty,
    undecodable or too small image); a source that fails is a ``camera-fault`` line with the
    reason: a folder or file ends the watch there (exit code 1), a live camera is tried again and
    ``camera-back`` says when its frames return. Not one usable frame: exit code 1 as well.
    """
    import time

    from companion.store.statefile import read_game_state
    from vision.detect import BoardDetector
    from vision.frame_checks import usable
    from vision.sources import CameraError, FrameError, open_source
    from vision.stabilise import FrameClock, Stabiliser, StreamObserver, watch

    if args.fps is not None and not args.fps > 0:
        raise FogCompanionError(f"--fps must be above 0, not {args.fps}")
    game, state = read_game_state(args.state) if args.state else (get_game(), None)  # the file names its game
    board = _layout(args.board, game.name)
    placement = game.table.expected(state) if state is not None else {}
    observer = StreamObserver(BoardDetector(board, lens=_lens(args.lens), above_mm=args.above_mm))
    stabiliser = Stabiliser(frames_needed=args.stable_frames, hold_seconds=args.hold)
    frame_time = FrameClock(lambda: 0.0)  # the stream's own times from 0; a source without them: arrival
    started = time.monotonic()
    seen, good, fault, code = 0, 0, "", 0
    with open_source(args.camera, board=board, placement=placement, fps=args.fps) as source:
        print(json.dumps({"event": "camera", "source": getattr(source, "name", args.camera)}), flush=True)
        live = getattr(source, "live", args.camera in ("sim", "picamera2"))
        while not args.frames or seen < args.frames:
            try:
                frame = source.read()
                why = None if frame is None else usable(frame)[1]
            except FrameError as exc:
                frame, why = None, str(exc)
            except CameraError as exc:  # the source itself: gone, unplugged, stopped
                if str(exc) != fault:
                    fault = str(exc)
                    print(json.dumps({"event": "camera-fault", "reason": fault}), flush=True)
                if not live:
                    code = 1
                    break
                time.sleep(0.2)
                continue
            if why is not None:
                print(json.dumps({"event": "bad-frame", "frame": seen, "reason": why}), flush=True)
                seen += 1
                continue
            if frame is None:
                if not live:
                    break  # the end of a file or folder
                time.sleep(0.01)
                continue
            if fault:
                fault = ""
                print(json.dumps({"event": "camera-back", "frame": seen}), flush=True)
            frame, good = usable(frame)[0], good + 1
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
    return code or (1 if seen and not good else 0)  # not one usable frame is a failed watch


def calibrate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera", default="picamera2",
                   help="picamera2 | 0 | /dev/video0 | folder/ of pictures | file.mp4 (default: picamera2)")
    p.add_argument("--views", type=int, default=15, help="views of the sheet to take (10-20, default 15)")
    p.add_argument("--width", type=int, default=0, help="frame width: the one the companion runs at (0: its default)")
    p.add_argument("--height", type=int, default=0, help="frame height (0: the default for this camera)")
    p.add_argument("--seconds", type=float, default=300.0, help="give up on a live camera after this long")
    p.add_argument("-o", "--output", help="where to write the calibration (default: the data directory's "
                                          "camera-lens.json, which run, detect and watch then use)")
    p.add_argument("--json", action="store_true", help="the result as one JSON object")


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Measure the camera's lens from views of the printed ChArUco sheet (``markers --charuco``).

    Hold the sheet flat under the camera and move it: tilted each way, near each corner and edge of
    the picture. From a live camera a view is taken when the sheet is held still and shows something
    new; from a folder or a video every picture is tried.
    """
    import sys
    import time

    from companion.app.paths import default_data_dir
    from vision.lens import LENS_FILE, MAX_VIEWS, MIN_VIEWS, LensCalibrator
    from vision.sources import FrameError, open_source

    if not MIN_VIEWS <= args.views <= MAX_VIEWS:
        raise FogCompanionError(f"--views must be between {MIN_VIEWS} and {MAX_VIEWS}, not {args.views}")
    if args.camera == "sim":
        raise FogCompanionError("the simulated table has no lens to calibrate; name a camera, a folder or a video")
    calibrator = LensCalibrator()
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if args.json else \
        (lambda text: print(text, flush=True))
    last_said, before = "", None
    deadline = time.monotonic() + args.seconds
    with open_source(args.camera, width=args.width, height=args.height) as source:
        live = bool(getattr(source, "live", True))
        say(f"camera: {getattr(source, 'name', args.camera)}; show the sheet, tilted and moved around the picture")
        while calibrator.views < args.views and time.monotonic() < deadline:
            try:
                frame = source.read()
            except FrameError as exc:  # a broken picture among the views: said, and the next one tried
                say(str(exc))
                continue
            if frame is None:
                if not live:
                    break
                time.sleep(0.02)
                continue
            if live:  # only a sheet held still: a moving one is blurred
                corners = calibrator.corners(frame)
                still = before is not None and corners is not None and _still(before, corners)
                before = corners
                if not still:
                    continue
            result = calibrator.add(frame)
            text = f"view {result.views} of {args.views} taken ({result.corners} corners)" if result.accepted \
                else result.reason
            if text != last_said:
                say(text)
                last_said = text
    if calibrator.views < MIN_VIEWS:
        raise FogCompanionError(f"only {calibrator.views} usable views of the sheet "
                                f"({'the pictures ran out' if not live else 'time ran out'}); at least {MIN_VIEWS} "
                                "are needed: print it with `fog-companion markers --charuco -o sheet.pdf`, "
                                "hold it flat and show it tilted, near each corner of the picture")
    lens = calibrator.calibrate()
    path = lens.save(args.output or default_data_dir() / LENS_FILE)
    if args.json:
        print(json.dumps({"file": str(path), **lens.to_dict(), "edge_shift_px": round(lens.edge_shift_px(), 1)}))
    else:
        print(f"lens: {lens.views} views, reprojection error {lens.rms_px:.2f} px; at the picture's corners the lens "
              f"moves points by {lens.edge_shift_px():.0f} px")
        print(f"wrote {path}" + ("" if args.output else " (run, detect and watch use it from now on)"))
    return 0


def _still(a: tuple[object, object], b: tuple[object, object], px: float = 1.5) -> bool:
    """The same sheet corners within ``px`` pixels in two frames in a row."""
    import numpy as np

    ids_a, pts_a = a
    ids_b, pts_b = b
    where = dict(zip(np.asarray(ids_a).tolist(), np.asarray(pts_a), strict=True))
    common = [(where[i], p) for i, p in zip(np.asarray(ids_b).tolist(), np.asarray(pts_b), strict=True) if i in where]
    return len(common) >= 4 and max(float(np.linalg.norm(p - q)) for p, q in common) <= px


def fit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", nargs="?", default="picamera2",
                   help="a picture of the board (.png/.jpg) or a camera: picamera2 | 0 | /dev/video0 (default: picamera2)")
    p.add_argument("--anchors", default="", help="PIECE=CELL,PIECE=CELL,...: pieces standing on those cells "
                                                 "(6-10 spread over the board; --propose names some)")
    p.add_argument("--propose", action="store_true", help="print anchors to use, spread over the board, and stop")
    p.add_argument("--board", default="standard", help="the board file to start from (packaged name or path)")
    p.add_argument("--name", default="fitted", help="the fitted board's name")
    p.add_argument("-o", "--output", help="where to write the fitted board file (default: the data directory's "
                                          "boards/NAME.toml)")
    p.add_argument("--json", action="store_true", help="the fit as one JSON object")
    _lens_arg(p)


def cmd_fit_board(args: argparse.Namespace) -> int:
    """Fit a board file to the printed board the camera sees, from pieces standing on named cells.

    Every other piece standing clearly on a cell helps too: the best fit is made with the game set
    up and the anchors in their places. Prints each anchor's distance from its cell in mm.
    """
    import re

    from companion.app.paths import default_data_dir
    from vision.fit import FitError, fit_board, parse_anchors, propose_anchors

    base = _layout(args.board)
    if args.propose:
        proposal = propose_anchors(base)
        text = ",".join(f"{p}={c}" for p, c in proposal.items())
        print(json.dumps({"anchors": proposal}) if args.json else f"--anchors {text}")
        return 0
    anchors = parse_anchors(args.anchors)
    if not anchors:
        raise FitError("name the anchors: --anchors PIECE=CELL,... (or --propose for some)")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", args.name):
        raise FitError(f"--name {args.name!r}: letters, digits, - and _ only (up to 40)")
    frame = _one_frame(args.source)
    fitted = fit_board(base, frame, anchors, lens=_lens(args.lens))
    game = get_game()
    text = game.table.fitted_board(fitted.fit, args.board, args.name)
    path = Path(args.output) if args.output else default_data_dir() / "boards" / f"{args.name}.toml"
    _write_atomically(path, text)
    if args.json:
        print(json.dumps({"file": str(path), **fitted.to_dict(), "notes": fitted.notes}))
        return 0
    print(f"print: {fitted.scale:.4f} times the file's size (shear {100 * fitted.shear:.2f} %); the corner markers "
          f"are turned {fitted.marker_angle_deg:+.2f} deg and shifted ({fitted.marker_offset_mm[0]:+.1f}, "
          f"{fitted.marker_offset_mm[1]:+.1f}) mm against the file; {fitted.pieces_used} pieces made the fit")
    for r in fitted.residuals:
        print(f"  {r.piece:>18} on {r.cell:<6} {r.mm:4.1f} mm off its centre")
    for note in fitted.notes:
        print(f"  note: {note}")
    print(f"wrote {path}\nuse it: [game] board = \"{path}\" in the config, or --board {path}")
    return 0


def _one_frame(source: str) -> Any:
    """A picture file, or a settled frame from a camera (the tenth, after exposure has settled)."""
    import time

    from vision.sources import IMAGE_SUFFIXES, FrameError, open_source

    path = Path(source)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if frame is None:
            raise FogCompanionError(f"{source}: cannot read this picture")
        return frame
    if source == "sim":
        raise FogCompanionError("the simulated table draws the packaged board: there is nothing to fit")
    frame, seen, deadline, broken = None, 0, time.monotonic() + 10, ""
    with open_source(source) as camera:
        while seen < 10 and time.monotonic() < deadline:
            try:
                got = camera.read()
            except FrameError as exc:  # a broken picture in a folder: the next one
                broken = str(exc)
                continue
            if got is None:
                if not getattr(camera, "live", True):
                    break  # a folder or a video file ran out: its last picture
                time.sleep(0.05)
                continue
            frame, seen = got, seen + 1
    if frame is None:
        raise FogCompanionError(f"{source}: no usable picture ({broken})" if broken else
                                f"{source}: no picture from the camera within 10 s")
    return frame


def _write_atomically(path: Path, text: str) -> None:
    from companion.app.paths import write_atomically

    try:
        write_atomically(path, text)
    except OSError as exc:
        raise FogCompanionError(f"cannot write {path}: {exc.strerror or exc} (nothing was changed)") from None


COMMANDS = {
    "watch": (cmd_watch, watch_args, "read a camera and print stable board changes"),
    "markers": (cmd_markers, markers_args, "print marker sticker sheets at true size (PDF or PNG)"),
    "detect": (cmd_detect, detect_args, "find the board and the pieces in camera images"),
    "render": (cmd_render, render_args, "draw a game state as the camera would see it"),
    "fit-board": (cmd_fit_board, fit_args, "fit a board file to your printed board from pieces on named cells"),
    "calibrate-camera": (cmd_calibrate, calibrate_args,
                         "measure the camera's lens from views of the printed ChArUco sheet (markers --charuco)"),
}
