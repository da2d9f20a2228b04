"""The config file: every key documented, bad files rejected with the key, the value and what is allowed."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app import config
from companion.app.config import ConfigError

ROOT = Path(__file__).resolve().parent.parent


def test_docs_config_md_is_the_generated_reference():
    assert (ROOT / "docs" / "config.md").read_text(encoding="utf-8") == config.markdown()


def test_no_file_means_every_default(tmp_path: Path):
    cfg = config.load(environ={"XDG_CONFIG_HOME": str(tmp_path)})
    assert cfg.source is None and cfg["panel"]["port"] == 8080 and cfg["camera"]["source"] == "sim"


def test_the_example_in_the_docs_is_a_valid_config():
    values = config.parse(config.EXAMPLE)
    assert values["leds"]["backend"] == "spi" and values["panel"]["pin"] == "4711"
    assert values["leds"]["segments"][2] == {"name": "counter", "start": 13, "length": 9, "reversed": True}


@pytest.mark.parametrize("text, words", [
    ("[leds]\nbrightness = 2.0\n", "[leds] brightness = 2.0: allowed: 0.0 to 1.0"),
    ("[leds]\ncolour_order = \"XYZ\"\n", "[leds] colour_order = 'XYZ': allowed: 'RGB'"),
    ("[panel]\nport = \"80\"\n", "[panel] port = '80': expected a whole number"),
    ("[panel]\nprot = 80\n", "[panel] prot: unknown key (known: host, port, pin, allowed_hosts)"),
    ("[pannel]\nport = 80\n", "[pannel]: unknown section"),
    ("[panel]\npin = \"12\"\n", "4 to 12 digits"),
    ("[buttons]\nundo = 99\n", "a BCM GPIO number 2 to 27"),
    ("[detector]\nstable_frames = true\n", "expected a whole number"),
    ("[leds]\nsegments = [{ name = \"fog\", start = 0 }]\n", "length must be a whole number"),
    ("[leds]\nsegments = [{ name = \"Sparkle!\", start = 0, length = 2 }]\n", "name must be a short lower-case word"),
    ("[leds]\nsegments = [{ name = \"countr\", start = 0, length = 2 }]\n",
     "segment 'countr': no such role (the roles: turn, status, counter, timer)"),
    ("[leds]\nsegments = [{ name = \"mp\", start = 0, length = 2 }, { name = \"counter\", start = 2, length = 2 }]\n",
     "segments 'mp' and 'counter' are both the 'counter' segment: keep one"),
    ("camera = 3\n", "expected a [camera] table"),
    ("[camera\n", "not valid TOML"),
])
def test_bad_values_are_rejected_naming_the_key_value_and_what_is_allowed(text: str, words: str):
    with pytest.raises(ConfigError) as err:
        config.parse(text, "config.toml")
    assert words in str(err.value) and str(err.value).startswith("config.toml:")


def test_every_problem_in_a_file_is_reported_at_once():
    with pytest.raises(ConfigError) as err:
        config.parse("[leds]\nbrightness = 5\ngamma = 9\n")
    assert "brightness" in str(err.value) and "gamma" in str(err.value)


def test_the_file_is_found_by_flag_then_environment(tmp_path: Path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text("[panel]\nport = 9001\n")
    b.write_text("[panel]\nport = 9002\n")
    assert config.load(str(a), {"FOG_CONFIG": str(b)})["panel"]["port"] == 9001
    assert config.load(None, {"FOG_CONFIG": str(b)})["panel"]["port"] == 9002
    with pytest.raises(ConfigError, match="no such config file"):
        config.load(str(tmp_path / "missing.toml"))


def test_flags_override_the_file_and_are_checked_too(tmp_path: Path):
    cfg = config.parse("[panel]\nport = 9001\n")
    merged = config.Config(cfg, None).with_overrides({"panel.port": 9100, "panel.host": None})
    assert merged["panel"]["port"] == 9100 and merged["panel"]["host"] == "0.0.0.0"
    with pytest.raises(ConfigError, match="--port 70000"):
        config.defaults().with_overrides({"panel.port": 70000})


def test_run_refuses_to_start_with_a_bad_config_and_says_why(tmp_path: Path):
    bad = tmp_path / "config.toml"
    bad.write_text("[leds]\nbrightness = 3\n")
    res = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(bad), "--data-dir",
                          str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert res.returncode != 0
    assert "[leds] brightness = 3: allowed: 0.0 to 1.0" in res.stderr
    assert "Traceback" not in res.stderr


def test_doctor_reports_each_problem_with_its_fix(tmp_path: Path):
    from argparse import Namespace

    from companion.app.doctor import doctor

    bad = tmp_path / "config.toml"
    bad.write_text("[panel]\nport = 0\n[camera]\nsource = \"/nowhere/camera\"\n")
    out = io.StringIO()
    code = doctor(Namespace(config=str(bad), camera=None, data_dir=str(tmp_path / "data")), out=out,
                  environ={"FOG_LED_BACKEND": "recording"})
    text = out.getvalue()
    assert code == 1
    assert "ok       python" in text and "ok       opencv" in text and "ok       data directory" in text
    assert "PROBLEM  camera: camera '/nowhere/camera': no such device" in text and "fix: check the cable" in text
    assert "ok       LEDs: LEDs: recording backend" in text
    # a config file that cannot be read: the rest is still checked where the command line says
    out = io.StringIO()
    doctor(Namespace(config=str(tmp_path / "missing.toml"), camera="sim", data_dir=str(tmp_path / "data")), out=out,
           environ={"FOG_LED_BACKEND": "recording"})
    assert "PROBLEM  config" in out.getvalue() and f"data directory: {tmp_path / 'data'} is writable" in out.getvalue()


def test_doctor_on_the_simulated_table_sees_the_fiducials(tmp_path: Path):
    from argparse import Namespace

    from companion.app.doctor import doctor

    out = io.StringIO()
    doctor(Namespace(config=None, camera="sim", data_dir=str(tmp_path)), out=out,
           environ={"FOG_LED_BACKEND": "recording", "XDG_CONFIG_HOME": str(tmp_path)})
    assert "ok       fiducials: 4 of 4 corner markers seen" in out.getvalue()
    # a machine with no strip and no GPIO, as a newcomer's: the simulated table expects the stand-ins
    out = io.StringIO()
    code = doctor(Namespace(config=None, camera="sim", data_dir=str(tmp_path)), out=out,
                  environ={"XDG_CONFIG_HOME": str(tmp_path), "GPIOZERO_PIN_FACTORY": "nowhere"})
    said = out.getvalue()
    assert "PROBLEM  LEDs" not in said and "PROBLEM  buttons" not in said, said
    assert "expected with the simulated table: the Board page shows the LEDs" in said or "ok       LEDs" in said


def test_doctor_names_a_broken_lens_calibration_and_one_made_for_another_camera_mode(tmp_path: Path):
    from argparse import Namespace

    import numpy as np

    from companion.app.doctor import doctor
    from vision.lens import LENS_FILE, Lens

    def run() -> str:
        out = io.StringIO()
        doctor(Namespace(config=None, camera="sim", data_dir=str(tmp_path)), out=out,
               environ={"FOG_LED_BACKEND": "recording", "XDG_CONFIG_HOME": str(tmp_path)})
        return out.getvalue()

    assert "ok       lens: no calibration" in run()
    (tmp_path / LENS_FILE).write_text("{broken")
    text = run()
    assert "PROBLEM  lens:" in text and LENS_FILE in text and "calibrate-camera" in text
    square = np.array([[900.0, 0, 320], [0, 900, 320], [0, 0, 1]])
    Lens(square, np.zeros(5), (640, 640), 0.2, 12).save(tmp_path / LENS_FILE)
    assert "calibrated at 640x640, but the camera gives" in run()


def test_a_config_written_before_the_segments_had_roles_keeps_working_and_says_how_it_is_read(tmp_path: Path):
    """The strip's segments were once named after the first box's parts; such a file is read, never
    refused: each name is its role, the LEDs paint by role, and the start says so in one line each."""
    from companion.app.run import Companion, led_config
    from tests.tables import sim_config

    old = ("[leds]\nsegments = [\n  { name = \"fog\", start = 0, length = 11 },\n"
           "  { name = \"turn\", start = 11, length = 2 },\n  { name = \"mp\", start = 13, length = 9 },\n"
           "  { name = \"hourglass\", start = 22, length = 8 },\n]\n")
    values = config.parse(old, "config.toml")
    cfg = sim_config(tmp_path).with_overrides({})
    cfg.values["leds"]["segments"] = values["leds"]["segments"]
    assert [(s.name, s.start) for s in led_config(cfg).segments] == [("status", 0), ("turn", 11), ("counter", 13),
                                                                      ("timer", 22)]
    out = io.StringIO()
    companion = Companion(cfg, out=out, environ={"FOG_LED_BACKEND": "recording"})
    try:
        said = out.getvalue()
        assert "LEDs: segment 'mp' is read as the 'counter' segment" in said
        assert "segment 'fog' is read as the 'status' segment" in said and "'turn' is read" not in said
        assert set(companion.hardware.output.segments) == {"status", "turn", "counter", "timer"}
    finally:
        companion.stop()
