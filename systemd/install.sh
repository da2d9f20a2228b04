#!/usr/bin/env bash
# Install fog-companion as a systemd service on Raspberry Pi OS (Bookworm).
#
#   sudo systemd/install.sh                 install or update; safe to run again (changes nothing new)
#   sudo systemd/install.sh --ws281x-root   also let the rpi_ws281x backend run as root (PWM needs /dev/mem)
#   sudo systemd/install.sh --uninstall     stop and remove the unit (games and config are kept)
#   systemd/install.sh --dry-run            print what would be done, change nothing
set -euo pipefail

PREFIX=/opt/fog-companion
UNIT=/etc/systemd/system/fog-companion.service
DROPIN=/etc/systemd/system/fog-companion.service.d
CONFIG_DIR=/etc/fog-companion
DATA_DIR=/var/lib/fog-companion
USER_NAME=fog-companion
SRC="$(cd "$(dirname "$0")/.." && pwd)"
DRY=0
ACTION=install
WS281X_ROOT=0
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY=1 ;;
    --uninstall) ACTION=uninstall ;;
    --ws281x-root) WS281X_ROOT=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

run() {
  echo "+ $*"
  if [ "$DRY" -eq 0 ]; then "$@"; fi
}

changed=0
note() { echo "$*"; changed=1; }

if [ "$DRY" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0 $*)" >&2
  exit 1
fi

if [ "$ACTION" = uninstall ]; then
  if [ -f "$UNIT" ]; then
    run systemctl disable --now fog-companion.service || true
    run rm -f "$UNIT"
    run rm -rf "$DROPIN"
    run systemctl daemon-reload
    echo "fog-companion service removed; games stay in $DATA_DIR, config in $CONFIG_DIR, program in $PREFIX"
  else
    echo "fog-companion service is not installed: nothing to do"
  fi
  exit 0
fi

# 1. system packages (Picamera2 comes from Raspberry Pi OS, not from PyPI)
PACKAGES="python3 python3-venv python3-pip python3-dev python3-picamera2 python3-lgpio libcap-dev"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  note "installing packages:$missing"
  run apt-get update
  # shellcheck disable=SC2086
  run apt-get install -y $missing
fi

# 2. the service user, in the groups for camera, GPIO and SPI
if ! id "$USER_NAME" >/dev/null 2>&1; then
  note "creating user $USER_NAME"
  run useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
for g in video gpio spi; do
  if getent group "$g" >/dev/null && ! id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$g"; then
    note "adding $USER_NAME to group $g"
    run usermod -a -G "$g" "$USER_NAME"
  fi
done

# 3. the program: a venv that sees the system's Picamera2, with the project installed into it
stamp="$PREFIX/.installed-from"
want="$(cd "$SRC" && (git rev-parse HEAD 2>/dev/null || sha256sum pyproject.toml | cut -c1-40))"
if [ ! -x "$PREFIX/venv/bin/fog-companion" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  note "installing fog-companion into $PREFIX"
  run mkdir -p "$PREFIX"
  run rm -rf "$PREFIX/src"
  run cp -a "$SRC" "$PREFIX/src"
  # pip builds the wheel in the copy: a build left in the clone would be packed again, stale files and all
  run rm -rf "$PREFIX/src/build" "$PREFIX/src/dist" "$PREFIX/src/.venv" "$PREFIX/src/.venv-test" \
    "$PREFIX/src/fog_companion.egg-info"
  [ -d "$PREFIX/venv" ] || run python3 -m venv --system-site-packages "$PREFIX/venv"
  run "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
  run "$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[pi]"
  if [ "$DRY" -eq 0 ]; then echo "$want" > "$stamp"; fi
fi

# 4. config and data directories (an existing config is never overwritten)
if [ ! -f "$CONFIG_DIR/config.toml" ]; then
  note "writing $CONFIG_DIR/config.toml"
  run install -d -m 0755 "$CONFIG_DIR"
  if [ "$DRY" -eq 0 ]; then
    cat > "$CONFIG_DIR/config.toml" <<'TOML'
# fog-companion configuration: every key and its default is in docs/config.md
[camera]
source = "picamera2"

[leds]
backend = "auto"      # rpi_ws281x on a Pi 4 (needs --ws281x-root), SPI on a Pi 5

[panel]
port = 8080
# pin = "4711"        # ask for a PIN before setup, corrections and undo
TOML
  fi
fi
if [ ! -d "$DATA_DIR" ]; then
  note "creating $DATA_DIR"
  run install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" "$DATA_DIR"
fi

# 5. the unit (and the rpi_ws281x exception when asked for)
if ! cmp -s "$SRC/systemd/fog-companion.service" "$UNIT"; then
  note "installing $UNIT"
  run install -m 0644 "$SRC/systemd/fog-companion.service" "$UNIT"
fi
if [ "$WS281X_ROOT" -eq 1 ] && [ ! -f "$DROPIN/ws281x-root.conf" ]; then
  note "allowing rpi_ws281x to run as root"
  run install -d "$DROPIN"
  if [ "$DRY" -eq 0 ]; then
    printf '[Service]\n# rpi_ws281x drives PWM through /dev/mem and DMA, which only root may.\nUser=root\nGroup=root\n' \
      > "$DROPIN/ws281x-root.conf"
  fi
fi
if [ "$changed" -eq 1 ]; then
  run systemctl daemon-reload
fi
if ! systemctl is-enabled --quiet fog-companion.service 2>/dev/null; then
  note "enabling the service"
  run systemctl enable fog-companion.service
fi
if [ "$changed" -eq 1 ] || ! systemctl is-active --quiet fog-companion.service 2>/dev/null; then
  run systemctl restart fog-companion.service
fi
if [ "$changed" -eq 0 ]; then
  echo "fog-companion is installed and up to date: nothing changed"
fi
echo "check it with: $PREFIX/venv/bin/fog-companion doctor --config $CONFIG_DIR/config.toml"
echo "logs: journalctl -u fog-companion -f"
