#!/usr/bin/env bash
# Install (or upgrade) the table companion as a service on Raspberry Pi OS Bookworm, from this clone.
#
#   sudo ./deploy/install.sh                 install or upgrade
#   sudo ./deploy/install.sh --uninstall     remove the service, its venv, settings and user (keeps the games)
#   sudo ./deploy/install.sh --purge         the same, and delete the games and calibration too
#
# Run outside a clone (the script alone, e.g. downloaded), it first clones $COMPANION_REPO into
# /opt/table-companion/src and installs from there.
#
# 1. apt: python3-picamera2 (the camera library comes from apt, not pip), python3-lgpio (GPIO on Pi 4
#    and Pi 5), python3-venv.
# 2. A user "companion" in the groups video (camera) and gpio (buttons, LED).
# 3. A venv in /opt/table-companion/venv made with --system-site-packages, so apt's picamera2 and its
#    numpy 1.24 are visible in it; opencv-python-headless 4.11.0.86 on that numpy (4.12 and later need
#    numpy 2, which would shadow apt's numpy in the venv and break picamera2); then this project.
# 4. /etc/table-companion/config.toml from deploy/config.example.toml (an existing one is kept).
# 5. The systemd unit companion.service: enabled, (re)started; prints the page's address.
set -euo pipefail

readonly SERVICE=companion
readonly SERVICE_USER=companion
readonly PREFIX=/opt/table-companion
readonly VENV=$PREFIX/venv
readonly CONFIG_DIR=/etc/table-companion
readonly CONFIG=$CONFIG_DIR/config.toml
readonly DATA_DIR=/var/lib/table-companion
readonly UNIT=/etc/systemd/system/$SERVICE.service
# Where the project's source is published. No public address is known to this copy: set COMPANION_REPO
# to your clone's address (`git remote get-url origin` where you cloned it), or edit the default here.
readonly DEFAULT_REPO=https://github.com/YOUR-ACCOUNT/table-companion.git
readonly REPO_URL=${COMPANION_REPO:-$DEFAULT_REPO}

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

if [[ $EUID -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || die "run me as root"
  exec sudo -- bash "${BASH_SOURCE[0]}" "$@"
fi

uninstall() {  # $1: "purge" also deletes the games and calibration in $DATA_DIR
  say "removing the service $SERVICE"
  systemctl disable --now "$SERVICE.service" 2>/dev/null || true
  rm -f "$UNIT"
  systemctl daemon-reload
  say "removing $PREFIX and $CONFIG_DIR"
  rm -rf "$PREFIX" "$CONFIG_DIR"
  if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    say "removing the service user $SERVICE_USER"
    userdel "$SERVICE_USER"
  fi
  if getent group "$SERVICE_USER" >/dev/null; then
    groupdel "$SERVICE_USER" 2>/dev/null || true
  fi
  if [[ $1 == purge ]]; then
    say "deleting the games and calibration in $DATA_DIR"
    rm -rf "$DATA_DIR"
  else
    say "kept the games and calibration in $DATA_DIR (--purge deletes them)"
  fi
  exit 0
}

case ${1:-} in
  "") ;;
  --uninstall) uninstall keep ;;
  --purge) uninstall purge ;;
  *) die "unknown option ${1}: use no option to install, --uninstall or --purge" ;;
esac

say "updating the package lists"
export DEBIAN_FRONTEND=noninteractive
apt-get update

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
if [[ ! -f $repo/pyproject.toml ]]; then
  say "no clone around me: cloning $REPO_URL into $PREFIX/src"
  apt-get install -y --no-install-recommends git
  install -d -m 755 "$PREFIX"
  if [[ -d $PREFIX/src/.git ]]; then
    git -C "$PREFIX/src" pull --ff-only || die "cannot update $PREFIX/src from $REPO_URL"
  else
    git clone "$REPO_URL" "$PREFIX/src" || die "cannot clone $REPO_URL: set COMPANION_REPO to the project's address"
  fi
  repo=$PREFIX/src
  here=$repo/deploy
fi

if [[ -r /etc/os-release ]]; then
  # shellcheck source=/dev/null
  . /etc/os-release
fi
if [[ ${VERSION_CODENAME:-} != bookworm ]]; then
  warn "this is ${PRETTY_NAME:-an unknown system}, not Raspberry Pi OS Bookworm; carrying on"
fi
if [[ $(uname -m) != aarch64 ]]; then
  warn "this is not a 64-bit system ($(uname -m)); the 64-bit Raspberry Pi OS is the one tested"
fi

say "installing system packages"
apt-get install -y --no-install-recommends python3-picamera2 python3-lgpio python3-venv python3-pip

say "making the service user $SERVICE_USER"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
    --shell /usr/sbin/nologin --comment "table companion" "$SERVICE_USER"
fi
for group in video gpio; do
  if getent group "$group" >/dev/null; then
    usermod --append --groups "$group" "$SERVICE_USER"
  else
    warn "there is no $group group: the service may not be allowed to use the camera or GPIO"
  fi
done
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 750 "$DATA_DIR"

say "making the venv $VENV (with apt's picamera2 and numpy visible)"
install -d -m 755 "$PREFIX"
if [[ ! -x $VENV/bin/python ]]; then
  python3 -m venv --system-site-packages "$VENV"
fi
pip=("$VENV/bin/pip" install --disable-pip-version-check)
if [[ ${VERSION_CODENAME:-} == bookworm ]]; then
  # Pins OpenCV to 4.11.0.86 and numpy below 2: see constraints-bookworm.txt.
  pip+=(--constraint "$here/constraints-bookworm.txt")
  "${pip[@]}" "opencv-python-headless==4.11.0.86"
fi
# Build from a copy, so root leaves no build/ or *.egg-info behind in the clone.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./build -cf - . | tar -C "$build" -xf -
"${pip[@]}" "$build"
"$VENV/bin/python" - <<'PY' || die "pip put its own numpy into the venv: apt's picamera2 would break"
import sys

import numpy

sys.exit(0 if numpy.__file__.startswith("/usr/lib/python3/dist-packages/") else 1)
PY

say "settings: $CONFIG"
install -d -m 755 "$CONFIG_DIR"
if [[ -e $CONFIG ]]; then
  say "keeping the existing $CONFIG"
else
  install -m 644 "$here/config.example.toml" "$CONFIG"
fi
port=$(runuser -u "$SERVICE_USER" -- env XDG_DATA_HOME=/var/lib "$VENV/bin/python" - "$CONFIG" <<'PY'
import sys
from pathlib import Path

from companion.settings import SettingsError, load_settings

try:
    print(load_settings(Path(sys.argv[1]), {}).port)
except SettingsError as err:
    sys.exit(f"settings: {err}")
PY
) || die "fix $CONFIG, then run me again"

say "installing and starting $SERVICE.service"
install -m 644 "$here/$SERVICE.service" "$UNIT"
systemctl daemon-reload
systemctl enable "$SERVICE.service"
systemctl restart "$SERVICE.service"

answers() {
  "$VENV/bin/python" - "$1" >/dev/null 2>&1 <<'PY'
import sys
import urllib.error
import urllib.request

try:
    urllib.request.urlopen(sys.argv[1], timeout=2)
except urllib.error.HTTPError:
    pass  # any HTTP answer means the server is up
PY
}
for _ in $(seq 30); do
  answers "http://127.0.0.1:$port/" && break
  sleep 1
done
if ! systemctl is-active --quiet "$SERVICE.service"; then
  die "the service did not stay up; see: journalctl -u $SERVICE -e"
fi
answers "http://127.0.0.1:$port/" || warn "the service runs but does not answer on port $port yet"

address=$(hostname -I 2>/dev/null | awk '{print $1}')
say "the table companion is running. On a phone on the same network, open:"
printf '\n    http://%s.local:%s/\n' "$(hostname)" "$port"
if [[ -n $address ]]; then
  printf '    http://%s:%s/\n' "$address" "$port"
fi
printf '\nThe page shows a QR code for the other players. Logs: journalctl -u %s -f\n' "$SERVICE"
