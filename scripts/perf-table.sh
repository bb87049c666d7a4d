#!/usr/bin/env bash
# Prints docs/performance.md's table of today's figures, measured now on this
# machine with a built stepline. It builds nothing.
#
#   scripts/perf-table.sh [STEPLINE] [--large]
#
# STEPLINE   the binary (default: build/stepline)
# --large    also the 10 M-slice rows (a 4.16 GB demo: needs ~6 GB of free disk
#            in $TMPDIR and several minutes)
# STEPLINE_TRACES  the shared traces (default: ../shared/traces); rows whose
#            trace is missing are left out.
#
# Each row is one `stepline bench` (or a timed `stepline info`) whose command
# is printed in the table. Figures are medians of the runs of one invocation.
# Progress goes to stderr, the Markdown table to stdout.
set -euo pipefail

cd "$(dirname "$0")/.."
STEPLINE=build/stepline
LARGE=0
for arg in "$@"; do
  case "$arg" in
    --large) LARGE=1 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) STEPLINE="$arg" ;;
  esac
done
[[ -x "$STEPLINE" ]] || { echo "perf-table: no stepline at $STEPLINE (build it first)" >&2; exit 2; }
command -v jq >/dev/null || { echo "perf-table: needs jq" >&2; exit 2; }
STEPLINE="$(realpath "$STEPLINE")"
TRACES="${STEPLINE_TRACES:-../shared/traces}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stepline-perf.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
export STEPLINE_NO_CACHE=1  # every load parses, unless a row says otherwise

say() { echo "perf-table: $*" >&2; }
# bench FILE ARGS... -> the JSON object in $WORK/last.json
bench() {
  say "stepline bench $*"
  "$STEPLINE" bench "$@" --json >"$WORK/last.json"
}
j() { jq -r "$1" "$WORK/last.json"; }
fixed() { printf "%.${2}f" "$1"; }
mslices() { awk -v v="$1" 'BEGIN { printf "%.2f M", v / 1e6 }'; }
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
# wall seconds of a command, to 2 decimals
wall() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
row() { echo "| $1 | $2 | $3 | $4 | $5 | \`$6\` |"; }
# The model's bytes per slice without args.
per_slice() { echo "$(fixed "$(j .bytes_per_slice_no_args)" 0) B/slice without args"; }

echo "| figure | input | today | target | peer, same run | reproduce |"
echo "|---|---|---|---|---|---|"

# Chrome JSON, the demo at ~100k slices (42 MB) and ~1 M slices (413 MB).
"$STEPLINE" demo small-batch --steps 34 --out "$WORK/sb34.json" >/dev/null
"$STEPLINE" demo small-batch --steps 340 --out "$WORK/sb340.json" >/dev/null
for name in sb34 sb340; do
  steps=${name#sb}
  repeat=3
  [[ $name == sb340 ]] && repeat=1
  bench "$WORK/$name.json" --repeat $repeat
  input="demo \`small-batch --steps $steps\`, $(mb "$WORK/$name.json") JSON, $(mslices "$(j .slices)") slices"
  cmd="stepline demo small-batch --steps $steps --out d.json && stepline bench d.json --json --repeat $repeat"
  row "JSON load (\`load_mb_per_s\`, \`slices_per_s\`)" "$input" \
    "$(fixed "$(j .load_mb_per_s)" 0) MB/s, $(mslices "$(j .slices_per_s)") slices/s" \
    "≥ 0.6x the parse floor" \
    "simdjson parse floor $(fixed "$(j .parse_floor_mb_per_s)" 0) MB/s: **$(fixed "$(j .load_vs_parse_floor)" 2)x**" "$cmd"
  row "JSON load CPU (\`cpu_ms\`)" "$input" "$(fixed "$(j .cpu_ms)" 0) ms over $(fixed "$(j .load_ms)" 0) ms wall" "" \
    "parse floor $(fixed "$(j .parse_floor_cpu_ms)" 0) ms CPU" "$cmd"
  row "model bytes per slice (\`bytes_per_slice_no_args\`, \`bytes_per_slice\`)" "$input" \
    "$(fixed "$(j .bytes_per_slice_no_args)" 1) without args, $(fixed "$(j .bytes_per_slice)" 1) with; peak RSS $(j '.peak_rss_bytes_no_args / .bytes | . * 100 | round / 100')x the JSON without args" \
    "≤ 48 without args" "" "$cmd"
  if [[ $name == sb340 ]]; then
    row "analysis (\`analysis_ms\`)" "$input" "$(fixed "$(j .analysis_ms)" 0) ms" "≤ 300 ms at 1 M slices" "" "$cmd"
    row "frame build, fit all / 10% / 1% / 0.1% (\`frame_build_ms\`)" "$input" \
      "$(j '[.frame_build_ms[] | . * 100 | round / 100] | map(tostring) | join(" / ")') ms" "≤ 8 ms at every zoom" "" "$cmd"
  fi
done

# Compressed JSON: parsed while it decompresses (open_mb_per_s, decompression included).
for ext in gz zst; do
  "$STEPLINE" demo small-batch --steps 340 --out "$WORK/sb340.json.$ext" >/dev/null
  bench "$WORK/sb340.json.$ext" --repeat 1
  tool="gzip -dc"
  target="≥ 250 MB/s"
  if [[ $ext == zst ]]; then tool="zstd -dc"; target="≥ 400 MB/s"; fi
  peer=""
  if command -v "${tool%% *}" >/dev/null; then
    s=$(wall sh -c "$tool '$WORK/sb340.json.$ext' >/dev/null")
    peer="\`$tool > /dev/null\` alone: $(awk -v b="$(stat -c %s "$WORK/sb340.json")" -v s="$s" 'BEGIN { printf "%.0f", b / 1e6 / s }') MB/s"
  fi
  row "first open of \`.json.$ext\` (\`open_mb_per_s\`)" "the same demo, $(mb "$WORK/sb340.json.$ext") .$ext" \
    "$(fixed "$(j .open_mb_per_s)" 0) MB/s of JSON" "$target" "$peer" \
    "stepline demo small-batch --steps 340 --out d.json.$ext && stepline bench d.json.$ext --json --repeat 1"
done

# Column cache: the first open parses and writes it, every later open maps it.
cache_row() {
  local file="$1" label="$2" gen="$3"
  local dir="$WORK/cache"
  rm -rf "$dir"
  say "stepline info $file (first, then cached)"
  local first cached size
  first=$(wall env -u STEPLINE_NO_CACHE STEPLINE_CACHE_DIR="$dir" STEPLINE_CACHE_MIN_MB=0 "$STEPLINE" info "$file")
  cached=$(wall env -u STEPLINE_NO_CACHE STEPLINE_CACHE_DIR="$dir" STEPLINE_CACHE_MIN_MB=0 "$STEPLINE" info "$file")
  size=$(du -cb "$dir" | tail -1 | cut -f1)
  row "later open from the column cache (whole \`stepline info\`)" "$label" \
    "**${cached} s**; cache file $(awk -v c="$size" -v j="$(stat -c %s "$file")" 'BEGIN { printf "%.2fx", c / j }') the JSON" \
    "≤ 0.5 s; cache ≤ 0.5x the JSON" "first open ${first} s (parse, then write the cache)" \
    "${gen}STEPLINE_CACHE_DIR=/tmp/c stepline info d.json (twice)"
}
cache_row "$WORK/sb340.json" "demo \`small-batch --steps 340\`, $(mb "$WORK/sb340.json")" \
  "stepline demo small-batch --steps 340 --out d.json; "

# SQLite export.
bench "$WORK/sb34.json" --repeat 3 --sqlite
row "SQLite export (\`export_slices_per_s\`)" "demo \`small-batch --steps 34\`" \
  "$(mslices "$(j .export_slices_per_s)") slices/s wall, $(mslices "$(j .export_slices_per_s_cpu)") of CPU" "1 M slices/s (not met)" \
  "SQLite's bare insert loop $(mslices "$(j .sqlite_floor_insert_rows_per_s)") rows/s" \
  "stepline demo small-batch --steps 34 --out d.json && stepline bench d.json --json --repeat 3 --sqlite"
rm -f "$WORK/sb340.json."*

# Real traces of the other formats (the shared traces).
shared_row() {
  local rel="$1" repeat="$2" target="$3"
  local file="$TRACES/$rel"
  [[ -f "$file" ]] || { say "skipped: $file not found"; return; }
  bench "$file" --repeat "$repeat"
  local peer=""
  if [[ "$(j '.parse_floor_mb_per_s // empty')" != "" ]]; then
    peer="simdjson parse floor $(fixed "$(j .parse_floor_mb_per_s)" 0) MB/s: **$(fixed "$(j .load_vs_parse_floor)" 2)x**"
  fi
  row "$(j .format) load" "\`$rel\`, $(fixed "$(j '.bytes / 1e6')" 1) MB, $(j .slices) slices" \
    "$(fixed "$(j .load_ms)" 1) ms ($(fixed "$(j .load_mb_per_s)" 0) MB/s, $(mslices "$(j .slices_per_s)") slices/s), CPU $(fixed "$(j .cpu_ms)" 1) ms; $(per_slice)" \
    "$target" "$peer" "stepline bench \$STEPLINE_TRACES/$rel --json --repeat $repeat"
}
shared_row hta/df_index_resolver_df_index_resolver.json.gz 3 "≥ 0.6x the parse floor"
if [[ -f "$TRACES/hta/df_index_resolver_df_index_resolver.json.gz" ]] && command -v python3 >/dev/null; then
  gzip -dc "$TRACES/hta/df_index_resolver_df_index_resolver.json.gz" >"$WORK/df.json"
  say "python3 json.load and stepline info of df_index_resolver"
  py=$(wall python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$WORK/df.json")
  ours=$(wall "$STEPLINE" info "$WORK/df.json")
  row "first open of a real Kineto trace (whole \`stepline info\`)" "\`hta/df_index_resolver\`, $(mb "$WORK/df.json") JSON" \
    "**${ours} s**" "" "\`python3 json.load\` alone: ${py} s" \
    "stepline info df.json; python3 -c 'import json; json.load(open(\"df.json\"))'"
fi
shared_row xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb 9 "200 MB/s on large files"
shared_row perfetto/scrolling_with_blocked_nonblocked_frames.pftrace 9 ""
shared_row nsys/mfu_2gpu_before.sqlite 9 ""
shared_row rocprof/rocprofv3_908_results.json.gz 3 ""

if [[ $LARGE == 1 ]]; then
  "$STEPLINE" demo small-batch --scale 340 --out "$WORK/big.json" >/dev/null
  input="demo \`small-batch --scale 340\`, $(mb "$WORK/big.json"), 10 M slices"
  say "/usr/bin/time stepline info (first open of the 10 M-slice demo)"
  rss=$(/usr/bin/time -f %M "$STEPLINE" info "$WORK/big.json" 2>&1 >/dev/null | tail -1)
  s=$(wall "$STEPLINE" info "$WORK/big.json")
  row "first open, whole process" "$input" \
    "${s} s, $(awk -v b="$(stat -c %s "$WORK/big.json")" -v s="$s" 'BEGIN { printf "%.0f", b / 1e6 / s }') MB/s; peak RSS $(awk -v k="$rss" -v b="$(stat -c %s "$WORK/big.json")" 'BEGIN { printf "%.2fx", k * 1024 / b }') the JSON" \
    "≥ 500 MB/s; peak RSS ≤ 0.6x the JSON" "" "stepline demo small-batch --scale 340 --out d.json && /usr/bin/time -v stepline info d.json"
  cache_row "$WORK/big.json" "$input" "stepline demo small-batch --scale 340 --out d.json; "
  bench "$WORK/big.json" --repeat 1
  row "frame build, fit all / 10% / 1% / 0.1% (\`frame_build_ms\`)" "$input" \
    "$(j '[.frame_build_ms[] | . * 100 | round / 100] | map(tostring) | join(" / ")') ms" "≤ 8 ms at every zoom" "" \
    "stepline bench d.json --json --repeat 1"
fi
