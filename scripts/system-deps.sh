#!/usr/bin/env bash
# Install the Debian/Ubuntu libraries Qt needs (and the tools the tests use) when missing.
# Usage: scripts/system-deps.sh run|test|package|screenshots
# As root with apt-get it installs what is missing; otherwise it names exactly what to install.
set -euo pipefail

profile="${1:-run}"
# Offscreen Qt (tests) and the libraries of a real window (xcb platform plugin).
qt_core="libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core"
qt_window="libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-render-util0 \
libxcb-shape0 libxcb-xinerama0 libxkbcommon-x11-0 libxcb-randr0 libxcb-xfixes0"
case "$profile" in
  run) wanted="$qt_core $qt_window" ;;
  test) wanted="$qt_core poppler-utils librsvg2-bin" ;;
  package) wanted="$qt_core poppler-utils binutils" ;;
  screenshots) wanted="$qt_core $qt_window poppler-utils xvfb xauth xdotool imagemagick" ;;
  *) echo "usage: $0 run|test|package|screenshots" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "note: not a Debian-based system; make sure Qt 6's runtime libraries are installed:" >&2
  echo "  EGL, OpenGL, xkbcommon, fontconfig, D-Bus, GLib (and poppler-utils for the tests)" >&2
  exit 0
fi

missing=()
for pkg in $wanted; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  ldconfig  # the loader sees the new libraries before Qt is started below
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  echo "installing system packages with sudo: ${missing[*]}"
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  sudo ldconfig
else
  echo "These system packages are missing; install them, then run this again:" >&2
  echo "  sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
