#!/usr/bin/env bash
# A scripted walk through the real window: Xvfb + openbox, driven with
# xdotool, read back from the window's own log of handled actions
# (STEPLINE_TEST_EVENTS, one line per action; docs/contributing.md) and
# photographed at each step (PNG, ImageMagick's import).
#   scripts/window_walk.sh STEPLINE_BINARY [OUT_DIR]
# Exit 0: every check passed; 1: one failed; 77: a tool is missing (ctest
# counts that as skipped). The input arrives as a fast typist's would: all
# keys of a step sent at once, so the window sees several per frame.
set -uo pipefail

stepline="${1:?usage: window_walk.sh STEPLINE_BINARY [OUT_DIR]}"
out="${2:-${PWD}/window_walk}"
if [[ ! -x "$stepline" ]]; then
  echo "window_walk: $stepline is not an executable"
  exit 1
fi
stepline="$(readlink -f "$stepline")"
for tool in Xvfb openbox xdotool import; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "window_walk: SKIPPED: $tool is not installed (apt-get install xvfb openbox xdotool imagemagick)"
    exit 77
  fi
done

tmp="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$out" "$tmp/home" "$tmp/files/sub"
rm -f "$out"/walk-*.png
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"  # no saved layout or recent files
events="$tmp/events.log"
: >"$events"
failures=0
checks=0

ok() { checks=$((checks + 1)); echo "ok   - $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL - $*"; }
# count PATTERN: lines of the log matching the extended regex.
count() { grep -cE "$1" "$events" 2>/dev/null || true; }
# wait_for PATTERN N SECONDS: until N lines match (true) or time runs out.
wait_for() {
  local deadline=$((SECONDS + $3))
  while ((SECONDS < deadline)); do
    (($(count "$1") >= $2)) && return 0
    sleep 0.05
  done
  return 1
}
# expect NAME PATTERN N [SECONDS]: at least N matching lines by then. The
# default is generous: on a loaded 2-core machine a frame can take seconds,
# and only a failing check waits that long.
expect() {
  if wait_for "$2" "$3" "${4:-20}"; then ok "$1"; else fail "$1 (wanted $3 x /$2/, log has $(count "$2"))"; fi
}
# (a moment first: the log line is written during the frame, the picture is
# on screen once that frame is swapped)
shot() { sleep 0.3; import -display "$DISPLAY" -window root "$out/walk-$1.png" 2>/dev/null || echo "window_walk: no picture $1"; }
# field NAME KEY: the value of KEY=... on the last line starting with NAME.
field() { grep -E "^$1( |$)" "$events" | tail -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# settle PATTERN: until no new matching line for a second (a modal moves
# into place over its first frames; each move is a new line).
settle() {
  local n=-1
  while (($(count "$1") != n)); do
    n="$(count "$1")"
    sleep 1
  done
}
# A press and its release on the given window at x y, `gap` ms apart for two.
double_click() { # WID X Y GAP_MS
  xdotool mousemove --window "$1" "$2" "$3"
  sleep 0.2
  xdotool click --repeat 2 --delay "$4" 1
}
start_window() { # NAME ARGS...: starts the viewer, waits for its window
  local name="$1"
  shift
  STEPLINE_TEST_EVENTS="$events" "$stepline" view "$@" >"$tmp/$name.out" 2>&1 &
  pids+=($!)
  wid=""
  for _ in $(seq 1 600); do
    wid="$(xdotool search --onlyvisible --name 'Stepline' 2>/dev/null | tail -1)"
    [[ -n "$wid" ]] && break
    sleep 0.1
  done
  if [[ -z "$wid" ]]; then
    fail "$name: the window appeared"
    cat "$tmp/$name.out"
    return 1
  fi
  xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus "$wid"
  return 0
}

# The display, its window manager and the inputs.
Xvfb -displayfd 3 -screen 0 1920x1200x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.err" &
pids+=($!)
for _ in $(seq 1 100); do [[ -s "$tmp/display" ]] && break; sleep 0.05; done
export DISPLAY=":$(head -1 "$tmp/display")"
openbox --sm-disable >"$tmp/openbox.out" 2>&1 &
pids+=($!)
demos=()  # the inputs, written side by side
"$stepline" demo input-bound --steps 6 --out "$tmp/files/demo.json.gz" >/dev/null & demos+=($!)
"$stepline" demo baseline --steps 3 --out "$tmp/files/sub/other.json.gz" >/dev/null & demos+=($!)
"$stepline" demo ddp-straggler --ranks 4 --steps 4 --out "$tmp/ranks" >/dev/null & demos+=($!)
for pid in "${demos[@]}"; do wait "$pid"; done

echo "# [${SECONDS} s] the single view"
start_window main "$tmp/files/demo.json.gz" || exit 1
expect "the trace is shown" '^trace.shown' 1 60
expect "its analysis is ready" '^analysis.ready' 1 60
sleep 0.3
shot 01-start

echo "# [${SECONDS} s] / then typing at once: the field gets every letter, the view none"
xdotool type --delay 0 "/voltage"
xdotool key Escape
expect "the first query is typed" '^search.query text=voltage$' 1
xdotool type --delay 0 "/wait"
expect "/ opens search" '^search.open' 2
expect "typing replaced the old query" '^search.query text=wait$' 1
if (($(count '^zoom\.') == 0)); then ok "no letter reached the timeline"; else fail "a letter zoomed the timeline"; fi
xdotool key Escape
xdotool type --delay 0 "/launchkernel"
expect "the search query" '^search.query text=launchkernel$' 1
shot 02-search

echo "# [${SECONDS} s] five Enters 30 ms apart: five matches, one each"
xdotool key --delay 30 Return Return Return Return Return
expect "five Enters, five matches" '^search.next index=' 5
sleep 0.5  # time for a sixth, if an Enter counted twice
first="$(grep -m1 '^search.next' "$events" | sed 's/.*index=//')"
last="$(grep '^search.next' "$events" | tail -1 | sed 's/.*index=//')"
if (($(count '^search.next') == 5)) && [[ -n "$first" ]] && ((last - first == 4)); then
  ok "each Enter one match: $first to $last"
else
  fail "each Enter one match (log: $(count '^search.next') steps, $first to $last)"
fi
shot 03-enters
xdotool key Escape

echo "# [${SECONDS} s] text size by key code: Ctrl+= Ctrl++ Ctrl+keypad-plus Ctrl+- Ctrl+0"
xdotool key --delay 40 ctrl+equal ctrl+plus ctrl+KP_Add
expect "Ctrl+= / Ctrl++ / Ctrl+keypad +" '^text.larger' 3
shot 04-text-larger
xdotool key --delay 40 ctrl+minus ctrl+0
expect "Ctrl+-" '^text.smaller' 1
expect "Ctrl+0" '^text.reset scale=1.00' 1

echo "# [${SECONDS} s] W x3 then Alt+Left"
xdotool key --delay 30 w w w
expect "three zoom steps" '^zoom.in by=key' 3
shot 05-zoomed
xdotool key alt+Left
expect "Alt+Left goes back" '^history.back$' 1
shot 06-back
xdotool key alt+Right
expect "Alt+Right goes forward" '^history.forward$' 1

echo "# [${SECONDS} s] Esc on each kind of popup"
xdotool mousemove --window "$wid" 20 12 click 1  # the File menu
sleep 0.4
shot 07-menu
xdotool key Escape
expect "Esc closes the File menu" '^popup.close kind=menu' 1
xdotool type --delay 0 "?"
expect "? opens the help" '^help.open' 1
shot 08-help
xdotool key Escape
expect "Esc closes the help window" '^popup.close kind=help' 1
xdotool mousemove --window "$wid" 1000 300 click 3  # the timeline's right-click menu
sleep 0.4
shot 09-popup
xdotool key Escape
expect "Esc closes the right-click menu" '^popup.close kind=popup' 1
rows="$(count '^dialog.rows')"
xdotool key ctrl+o
expect "Ctrl+O opens the dialog" '^dialog.show' 1
expect "the dialog is drawn" '^dialog.rows ' $((rows + 1))
sleep 0.3  # its path field has the keyboard

echo "# [${SECONDS} s] Esc on the dialog and M at once, Shift+M, then the Notes tab"
# The M queued right behind the closing Esc is the view's, in the next frame.
xdotool key Escape m
expect "Esc closes the Open dialog" '^popup.close kind=dialog' 1
expect "M notes the selected slice" '^note.add kind=span count=1$' 1
xdotool mousemove --window "$wid" 1000 300
xdotool key shift+m
expect "Shift+M drops a flag" '^note.add kind=flag count=2$' 1
expect "the Notes tab's label" '^tab.rect name=notes ' 1
x="$(field 'tab.rect name=notes' x)" y="$(field 'tab.rect name=notes' y)"
xdotool mousemove --window "$wid" "$x" "$y"
sleep 0.3  # hovered for a frame first, as a hand would
xdotool click 1
expect "a click shows the Notes tab" '^tab.show name=notes$' 1
shot 13-notes

echo "# [${SECONDS} s] double-clicks in the Open dialog: 60 ms on a folder, 300 ms on a file"
rows="$(count '^dialog.rows')"
xdotool key ctrl+o
expect "the dialog again" '^dialog.show' 2
expect "the dialog's rows" '^dialog.rows ' $((rows + 1))
settle '^dialog.rows '  # the last line says where the first row is
x="$(field dialog.rows x)" y="$(field dialog.rows y)"
shot 10-dialog
double_click "$wid" "$x" "$y" 60
expect "a 60 ms double-click opens the folder" '^dialog.folder path=.*/sub$' 1
expect "the folder's rows" '^dialog.rows .*first=other.json.gz$' 1
settle '^dialog.rows '
x="$(field dialog.rows x)" y="$(field dialog.rows y)"
shot 11-dialog-sub
double_click "$wid" "$x" "$y" 300
expect "a 300 ms double-click opens the file" '^dialog.open path=.*/sub/other.json.gz$' 1
expect "and the file is shown" '^trace.shown title=other' 1 60
sleep 0.5
shot 12-opened


xdotool key ctrl+q
expect "Ctrl+Q quits" '^app.quit' 1
for _ in $(seq 1 200); do kill -0 "${pids[-1]}" 2>/dev/null || break; sleep 0.1; done
if kill -0 "${pids[-1]}" 2>/dev/null; then fail "the window closed after Ctrl+Q"; else ok "the window closed after Ctrl+Q"; fi

echo "# [${SECONDS} s] the compare view: a click on A's slice, Ctrl+C copies its name, M notes it on A"
if start_window compare "$tmp/files/demo.json.gz" "$tmp/files/sub/other.json.gz"; then
  expect "the comparison is shown" '^compare.shown' 1 60
  expect "a named slice on A's timeline" '^compare.slice side=A ' 1
  settle '^compare.slice side=A '
  x="$(field 'compare.slice side=A' x)" y="$(field 'compare.slice side=A' y)"
  xdotool mousemove --window "$wid" "$x" "$y"
  sleep 0.3  # hovered for a frame first, as a hand would
  xdotool click 1
  expect "the click selects A's slice" '^compare.select side=A$' 1
  xdotool key ctrl+c
  expect "Ctrl+C in compare acts on A" '^compare.keys side=A key=copy$' 1
  expect "and copies the slice's name" '^selection.copy name=.+' 1
  xdotool key m
  expect "M in compare notes A's slice" '^compare.keys side=A key=mark$' 1
  shot 16-compare-note
  xdotool key ctrl+q
  for _ in $(seq 1 200); do kill -0 "${pids[-1]}" 2>/dev/null || break; sleep 0.1; done
fi

echo "# [${SECONDS} s] the ranks table: double-clicks at 60 ms and at 300 ms"
for gap in 60 300; do
  before="$(count '^ranks.rows')"
  start_window "ranks$gap" --ranks "$tmp"/ranks/* || break
  expect "the ranks view ($gap ms)" '^ranks.rows' $((before + 1)) 60
  sleep 0.5
  x="$(field ranks.rows x)" y="$(field ranks.rows y)"
  [[ "$gap" == 60 ]] && shot 14-ranks
  opened="$(count '^ranks.open')"
  double_click "$wid" "$x" "$y" "$gap"
  expect "a $gap ms double-click opens the rank" '^ranks.open rank=' $((opened + 1))
  [[ "$gap" == 300 ]] && { sleep 1; shot 15-rank-opened; }
  xdotool key ctrl+q
  for _ in $(seq 1 200); do kill -0 "${pids[-1]}" 2>/dev/null || break; sleep 0.1; done
done

cp "$events" "$out/events.log"
echo "window_walk: $((checks - failures)) of $checks checks passed; pictures and events.log in $out"
((failures == 0))
