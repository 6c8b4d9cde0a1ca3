#!/usr/bin/env bash
# Start a virtual screen (Xvfb) and the app on it, for screenshots and real-input tests.
# Usage: source scripts/xvfb-session.sh; start_app [dlhw args]; shot docs/x.png; stop_app
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export DISPLAY="${XVFB_DISPLAY:-:99}"
SCREEN_SIZE="${SCREEN_SIZE:-1440x900x24}"

start_xvfb() {
  if ! xdpyinfo >/dev/null 2>&1 && ! xdotool getmouselocation >/dev/null 2>&1; then
    command -v Xvfb >/dev/null || { echo "Xvfb is missing: scripts/system-deps.sh screenshots"; return 1; }
    Xvfb "$DISPLAY" -screen 0 "$SCREEN_SIZE" -nolisten tcp >/tmp/xvfb.log 2>&1 &
    XVFB_PID=$!
    # A first start on a fresh machine compiles keymaps: give it 15 s, not 5
    for _ in $(seq 150); do [[ -S "/tmp/.X11-unix/X${DISPLAY#:}" ]] && break; sleep 0.1; done
    for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
  fi
}

start_app() {
  start_xvfb
  unset QT_QPA_PLATFORM
  "$REPO/.venv/bin/dlhw" "$@" >/tmp/dlhw-app.log 2>&1 &
  APP_PID=$!
  for _ in $(seq 100); do
    WID=$(xdotool search --name "DL Hardware Desktop" 2>/dev/null | head -1 || true)
    [[ -n "$WID" ]] && break
    sleep 0.1
  done
  [[ -n "$WID" ]] || { echo "app window did not appear"; cat /tmp/dlhw-app.log; return 1; }
  xdotool windowsize "$WID" 1400 860 windowmove "$WID" 0 0
  xdotool windowfocus "$WID" 2>/dev/null || true
  sleep 1.0
}

shot() { import -window root -crop 1400x860+0+0 "$1"; }

stop_app() {
  kill "${APP_PID:-}" 2>/dev/null || true
  wait "${APP_PID:-}" 2>/dev/null || true
}

stop_xvfb() { kill "${XVFB_PID:-}" 2>/dev/null || true; }
