#!/usr/bin/env python3
"""Set up and run fog-companion on a fresh machine with nothing but Python >= 3.11.

    python3 bootstrap.py run  [ARGS...]   # run the companion
    python3 bootstrap.py test [PYTEST ARGS...]  # run the whole test suite (browser tests included)

Each command creates its virtual environment on first use (``.venv`` to run, ``.venv-test``
for the tests) and reinstalls the project into it whenever ``pyproject.toml`` changes, then
hands over to the real program. The tests also need Debian's ``chromium`` for the browser tests
and Debian's ``mosquitto`` (an MQTT broker) for the club tests; each is installed with apt-get when
missing and this runs as root (or with password-less sudo).
The accessibility checks use axe-core from npm, installed into ``build/axe`` on first use.
Only the standard library is used here.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TARGETS = {"run": (".venv", "."), "test": (".venv-test", ".[dev]")}


def python_in(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_env(kind: str) -> Path:
    folder, spec = TARGETS[kind]
    env = ROOT / folder
    stamp = env / ".fog-companion-installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + spec.encode()).hexdigest()
    if not python_in(env).exists():
        print(f"creating virtual environment {folder} ...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
    if not stamp.exists() or stamp.read_text().strip() != wanted:
        py = str(python_in(env))
        quiet = ["-q"] if os.environ.get("CI") else []
        subprocess.check_call([py, "-m", "pip", "install", *quiet, "--disable-pip-version-check", "-e", spec], cwd=ROOT)
        stamp.write_text(wanted)
    return python_in(env)


BROWSER = "/usr/bin/chromium"
MOSQUITTO = "/usr/sbin/mosquitto"


def ensure_debian_package(path: str, package: str, why: str) -> None:
    """Install Debian's ``package`` with apt-get when ``path`` is missing (never a downloaded build)."""
    if Path(path).exists():
        return
    if os.name != "posix" or not Path("/usr/bin/apt-get").exists():
        print(f"note: no {path} and no apt-get here; {why} will be skipped", flush=True)
        return
    prefix: list[str] = []
    if os.geteuid() != 0:
        if subprocess.call(["sudo", "-n", "true"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
            print(f"note: installing {package} needs root (sudo apt-get install {package}); "
                  f"{why} will be skipped", flush=True)
            return
        prefix = ["sudo", "-n"]
    print(f"installing Debian's {package} for {why} ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.call([*prefix, "apt-get", "update", "-qq"], env=env)
    subprocess.call([*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", package], env=env)


def ensure_browser() -> None:
    """The browser tests drive Debian's Chromium (never a downloaded one): install it when missing."""
    ensure_debian_package(BROWSER, "chromium", "the browser tests")


def ensure_broker() -> None:
    """The club tests start Debian's Mosquitto on a loopback port: install it when missing."""
    ensure_debian_package(MOSQUITTO, "mosquitto", "the club tests (an MQTT broker)")


AXE_VERSION = "4.14.1"
AXE = ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def ensure_axe() -> None:
    """axe-core for the accessibility checks of the pages, from npm (Debian's nodejs and npm)."""
    if AXE.exists():
        return
    npm = "/usr/bin/npm" if Path("/usr/bin/npm").exists() else None
    if npm is None:
        print("note: no npm here (apt-get install npm); the accessibility checks will be skipped", flush=True)
        return
    print(f"installing axe-core {AXE_VERSION} from npm for the accessibility checks ...", flush=True)
    subprocess.call([npm, "install", "--prefix", str(AXE.parents[2]), "--no-audit", "--no-fund", "--silent",
                     f"axe-core@{AXE_VERSION}"], cwd=ROOT)


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        print("fog-companion needs Python 3.11 or newer", file=sys.stderr)
        return 2
    if not argv or argv[0] not in TARGETS:
        print(__doc__)
        return 2
    kind, rest = argv[0], argv[1:]
    try:
        py = ensure_env(kind)
    except subprocess.CalledProcessError as exc:
        print(f"installing the project failed (exit {exc.returncode}); see the pip output above", file=sys.stderr)
        return 2
    if kind == "run":
        cmd = [str(py), "-m", "companion", *(rest or ["run"])]
    else:
        ensure_browser()
        ensure_broker()
        ensure_axe()
        # The whole suite runs on every core (at most four), each test file whole on one worker so its
        # fixtures (a browser, a broker, a running companion) are made once; named tests run as asked.
        workers = ["-n", str(min(os.cpu_count() or 1, 4)), "--dist", "loadfile"] if not rest else []
        cmd = [str(py), "-m", "pytest", *workers, *rest]
    return subprocess.call(cmd, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
