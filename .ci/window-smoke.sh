#!/usr/bin/env bash
# Real-window smoke test of the playa app, under Xvfb.
#
#   .ci/window-smoke.sh PLAYA_BINARY OUT_DIR
#
# Starts the binary with no arguments (the window) on a virtual 1280x800
# screen, waits for the window and its first preview, takes a screenshot and
# checks the preview shows the sky's blue; then clicks the dice, checks the
# picture changed, presses D (the dice's shortcut), checks it changed again.
# The screenshots stay in OUT_DIR. Needs xvfb-run, xdotool and ImageMagick
# (`.ci/run` installs them). Runs itself under xvfb-run when DISPLAY is unset.
set -euo pipefail

bin=${1:?usage: window-smoke.sh PLAYA_BINARY OUT_DIR}
out=${2:?usage: window-smoke.sh PLAYA_BINARY OUT_DIR}
bin=$(realpath "$bin")
mkdir -p "$out"
out=$(realpath "$out")

if [ -z "${DISPLAY:-}" ]; then
  unset WAYLAND_DISPLAY
  exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$bin" "$out"
fi
unset WAYLAND_DISPLAY

# ImageMagick 6 from the distribution; another `convert` may be first on PATH.
IM_CONVERT=/usr/bin/convert
IM_IMPORT=/usr/bin/import
IM_COMPARE=/usr/bin/compare

# A fresh data folder: no remembered scene from an earlier run, nothing
# written to the user's.
data=$(mktemp -d)
export XDG_DATA_HOME=$data XDG_CONFIG_HOME=$data

log="$out/app.log"
"$bin" >"$log" 2>&1 &
app=$!
cleanup() {
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

fail() {
  echo "window smoke test: $*" >&2
  echo "--- app log:" >&2
  cat "$log" >&2 || true
  exit 1
}

# The window.
win=""
for _ in $(seq 1 200); do
  kill -0 "$app" 2>/dev/null || fail "playa exited before opening its window"
  win=$(xdotool search --name '^playa$' 2>/dev/null | head -1 || true)
  [ -n "$win" ] && break
  sleep 0.1
done
[ -n "$win" ] || fail "no window named playa within 20 s"
echo "window $win"

# The preview area, right of the side panel and above the timeline (the
# side panel is 330 px wide by default): a band across the upper middle of
# the picture, where the sky is.
sky_box=600x120+560+150
preview_box=880x600+360+60

shot() { "$IM_IMPORT" -window root "$1"; }

# Mean colour of a box as "R G B" (0-255).
mean_rgb() {
  "$IM_CONVERT" "$1" -crop "$2" +repage -scale '1x1!' \
    -format '%[fx:int(255*r)] %[fx:int(255*g)] %[fx:int(255*b)]' info:
}

is_sky_blue() {
  local r g b
  read -r r g b <<<"$(mean_rgb "$1" "$sky_box")"
  [ "$b" -gt 110 ] && [ "$b" -gt $((r + 40)) ] && [ "$b" -gt $((g + 10)) ]
}

# Pixels that differ between two screenshots inside the preview.
changed_pixels() {
  "$IM_COMPARE" -metric AE -fuzz 3% -extract "$preview_box" "$1" "$2" null: 2>&1 |
    cut -d' ' -f1 || true
}

# The first frame with the preview in it.
first="$out/1-start.png"
until=$((SECONDS + 30))
while [ "$SECONDS" -lt "$until" ]; do
  kill -0 "$app" 2>/dev/null || fail "playa exited before its first preview"
  shot "$first"
  is_sky_blue "$first" && break
  sleep 0.1
done
is_sky_blue "$first" || fail "no sky blue in the preview within 30 s (mean colour $(mean_rgb "$first" "$sky_box")); see $first"
echo "first preview: sky $(mean_rgb "$first" "$sky_box")"

# Waits until the preview differs from $1 by more than 2000 pixels and has
# stopped changing; writes the screenshot to $2.
wait_changed() {
  local before=$1 after=$2 n=0 until=$((SECONDS + 20))
  while [ "$SECONDS" -lt "$until" ]; do
    sleep 0.1
    shot "$after"
    n=$(changed_pixels "$before" "$after")
    [ "${n%.*}" -gt 2000 ] 2>/dev/null && break
  done
  # Let a quick frame be replaced by the full one.
  sleep 0.5
  shot "$after"
  n=$(changed_pixels "$before" "$after")
  [ "${n%.*}" -gt 2000 ] 2>/dev/null || return 1
  echo "$n"
}

# The dice sits in the seed row of the side panel; its place follows from
# the fixed layout (egui's bundled fonts, scale 1 under Xvfb).
dice_x=300
dice_y=100
xdotool mousemove --window "$win" "$dice_x" "$dice_y" click 1
clicked="$out/2-dice-clicked.png"
n=$(wait_changed "$first" "$clicked") || fail "the picture did not change after clicking the dice at $dice_x,$dice_y; see $clicked"
echo "dice click: $n pixels changed"
is_sky_blue "$clicked" || fail "no sky blue after the dice; see $clicked"

# The keyboard shortcut, with the pointer over the preview (XTEST input
# goes to the window under the pointer; winit ignores synthetic events).
# Without a window manager nothing gives the window the keyboard focus.
xdotool mousemove --window "$win" 800 400
xdotool windowfocus --sync "$win" 2>/dev/null || xdotool windowfocus "$win"
xdotool key d
keyed="$out/3-dice-key.png"
n=$(wait_changed "$clicked" "$keyed") || fail "the picture did not change after pressing D; see $keyed"
echo "dice key: $n pixels changed"

kill -0 "$app" 2>/dev/null || fail "playa died during the test"
kill -TERM "$app"
status=0
wait "$app" || status=$?
trap - EXIT
rm -rf "$data"
# eframe may exit cleanly on SIGTERM or die by it (128 + 15).
case $status in
  0 | 143) echo "window smoke test passed; screenshots in $out" ;;
  *) fail "playa exited with status $status on SIGTERM" ;;
esac
