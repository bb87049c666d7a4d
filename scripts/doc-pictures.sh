#!/usr/bin/env bash
# Makes the pictures of README.md and docs/guide.md with `stepline screenshot`,
# from the built-in demo traces, so the pictures show what the code draws
# today. It builds nothing: it uses a built stepline.
#
#   scripts/doc-pictures.sh [STEPLINE]     (default: build/stepline)
#
# Writes docs/images/*.png, replacing them. Runs headless under xvfb-run when
# there is no display. When ImageMagick's `convert` is installed, each picture
# is reduced to 96 colours to keep the repository small.
set -euo pipefail

cd "$(dirname "$0")/.."
STEPLINE="${1:-build/stepline}"
[[ -x "$STEPLINE" ]] || { echo "doc-pictures: no stepline at $STEPLINE (build it first)" >&2; exit 2; }
STEPLINE="$(realpath "$STEPLINE")"
OUT=docs/images
mkdir -p "$OUT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stepline-pictures.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
export STEPLINE_NO_CACHE=1

RUN=()
if [[ -z "${DISPLAY:-}" ]]; then RUN=(xvfb-run -a -s "-screen 0 1920x1080x24"); fi

# shot NAME ARGS...: one picture, docs/images/NAME.png. Inputs are named
# relative to $WORK, so the pictures show "input-bound.json", not a temp path.
shot() {
  local name="$1"
  shift
  echo "doc-pictures: $name.png" >&2
  (cd "$WORK" && "${RUN[@]}" "$STEPLINE" screenshot "$@" --force --out "$IMAGES/$name.png")
  if command -v convert >/dev/null; then
    convert "$IMAGES/$name.png" -strip -colors 96 "PNG8:$IMAGES/$name.png"
  fi
}
IMAGES="$(realpath "$OUT")"

# The demo traces: a healthy run, an input-bound one, a leaking one, and four
# ranks of a data-parallel run with one straggler.
"$STEPLINE" demo baseline --out "$WORK/baseline.json" >/dev/null
"$STEPLINE" demo input-bound --out "$WORK/input-bound.json" >/dev/null
"$STEPLINE" demo memory-leak --out "$WORK/memory-leak.json" >/dev/null
"$STEPLINE" demo ddp-straggler --ranks 4 --out "$WORK/ddp" >/dev/null

# README: the whole window on the input-bound demo.
shot window input-bound.json --size 1440x810
# Guide: why the GPU idles.
shot overview input-bound.json --view overview --size 700x700
shot gaps input-bound.json --view gaps --size 1000x330
# Guide: compare two runs (A = input-bound, B = the fixed run).
shot compare input-bound.json baseline.json --view compare --size 1280x800
# Guide: distributed runs.
shot ranks ddp --view ranks --size 1280x560
# Guide: memory.
shot memory memory-leak.json --view memory --size 1000x420

du -ch "$IMAGES"/*.png | tail -1 >&2
