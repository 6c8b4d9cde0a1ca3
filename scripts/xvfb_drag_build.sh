#!/usr/bin/env bash
# A real drag, end to end: the app on a virtual screen, an RTX 4090 dragged with the mouse
# (xdotool) from the Build tab's part list onto the build, File > Save through Qt's own
# file dialog (a path typed + Return), then `dlhw check FILE --json` must list the part.
#
# Usage: scripts/xvfb_drag_build.sh [OUTPUT_DIR]   (needs Xvfb, xdotool, imagemagick)
# Screenshots of each step go to OUTPUT_DIR (default: a temporary folder) for diagnosis.
#
# Coordinates are those of the default layout at 1400x860 with no window manager (the
# window sits at 0,0): the part list's search box and first row, and the build view.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$(mktemp -d)}"
mkdir -p "$OUT"
SANDBOX="$(mktemp -d)"
export XVFB_DISPLAY="${XVFB_DISPLAY:-:98}"
# Private settings and user data: nothing of the user's is read or changed.
export DLHW_DATA_DIR="$SANDBOX/data" XDG_CONFIG_HOME="$SANDBOX/config" HOME="$SANDBOX/home"
mkdir -p "$HOME"
SAVED="$SANDBOX/dragged.dlhw.json"
PART="accelerator/nvidia-geforce-rtx-4090"

# shellcheck source=scripts/xvfb-session.sh
source "$REPO/scripts/xvfb-session.sh"
trap 'stop_app; stop_xvfb' EXIT

SEARCH_X=165 SEARCH_Y=137      # the part list's search box
ROW_X=60 ROW_Y=184             # its first row
DROP_X=650 DROP_Y=480          # the middle of the build view
FILE_NAME_X=680 FILE_NAME_Y=542  # the file dialog's "File name" box

start_app
xdotool key ctrl+3                      # View > Build
sleep 1.5
shot "$OUT/1-build-tab.png"

xdotool mousemove "$SEARCH_X" "$SEARCH_Y" click 1
sleep 0.3
xdotool type --delay 30 "rtx 4090"
sleep 0.5
xdotool key Return                      # focus the list, first row selected (not added)
sleep 0.5
shot "$OUT/2-searched.png"

# Press, move past the drag distance, travel, release: a real QDrag through the X server.
xdotool mousemove "$ROW_X" "$ROW_Y" mousedown 1
sleep 0.2
xdotool mousemove $((ROW_X + 20)) $((ROW_Y + 6))
sleep 0.2
xdotool mousemove 300 300
sleep 0.2
xdotool mousemove "$DROP_X" "$DROP_Y"
sleep 0.3
xdotool mousemove $((DROP_X + 5)) $((DROP_Y + 5))
sleep 0.2
xdotool mouseup 1
sleep 1.0
shot "$OUT/3-dropped.png"

xdotool key ctrl+s                      # File > Save: a new build asks where
sleep 1.5
shot "$OUT/4-save-dialog.png"
xdotool mousemove "$FILE_NAME_X" "$FILE_NAME_Y" click 1
sleep 0.2
xdotool key ctrl+a
xdotool type --delay 20 "$SAVED"
sleep 0.3
xdotool key Return
sleep 1.5
shot "$OUT/5-saved.png"

[[ -s "$SAVED" ]] || { echo "FAIL: nothing saved at $SAVED (screens in $OUT)"; exit 1; }
set +e
"$REPO/.venv/bin/dlhw" check "$SAVED" --json >"$OUT/check.json"
status=$?
set -e
if [[ $status -eq 2 ]]; then
  echo "FAIL: dlhw check could not read $SAVED"; exit 1
fi
"$REPO/.venv/bin/python" - "$OUT/check.json" "$PART" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))
ids = [p["id"] for p in data["parts"]]
assert sys.argv[2] in ids, f"{sys.argv[2]} not in the saved build: {ids}"
print(f"OK: the dragged part is in the saved build ({', '.join(ids)}); "
      f"verdict {data['summary']['status']}")
EOF
echo "screens and check.json in $OUT"
