#!/usr/bin/env bash
# Writes the diff goldens: `stepline diff` of demo scenario pairs (default
# demo options: 10 steps, seed 1), as text and JSON (standard error, then
# standard output), with the scratch folder removed from the printed paths. Made from the build before Compare took
# TraceAnalysis (main at ad1e0ea); tests/app/diff_golden_test.cpp
# requires today's output to be byte-identical. The `idle_graph` and `graph`
# rows (all zero: the demos have no graph replays) were added to them when
# that idle cause was added, the rest left as made.
# Usage: tests/data/diff_goldens/make_goldens.sh path/to/stepline
set -euo pipefail
stepline="${1:?usage: make_goldens.sh path/to/stepline}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Keep in step with kCases in tests/app/diff_golden_test.cpp:
# golden name | A | B | extra arguments
while IFS='|' read -r name a b extra; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  for t in "$a" "$b"; do
    scenario="${t%-*}" style="${t##*-}"
    [[ -f "$tmp/$t.json" ]] || "$stepline" demo "$scenario" --style "$style" --out "$tmp/$t.json" --force >/dev/null
  done
  # Standard error (the --steps warnings) first, then standard output.
  # shellcheck disable=SC2086
  "$stepline" diff "$tmp/$a.json" "$tmp/$b.json" $extra > "$tmp/out" 2> "$tmp/err"
  cat "$tmp/err" "$tmp/out" | sed "s#$tmp/##g" > "$here/$name"
done <<'CASES'
input-bound-pytorch.txt|baseline-pytorch|input-bound-pytorch|
input-bound-pytorch.json|baseline-pytorch|input-bound-pytorch|--json
h2d-copy-pytorch.txt|baseline-pytorch|h2d-copy-pytorch|
small-batch-pytorch.json|baseline-pytorch|small-batch-pytorch|--json --top 40
sync-tensorflow-raw-names.txt|baseline-tensorflow|sync-tensorflow|--no-normalize --top 30
inefficient-op-tensorflow.json|baseline-tensorflow|inefficient-op-tensorflow|--json --top 40
memory-leak-pytorch.txt|baseline-pytorch|memory-leak-pytorch|
preprocessing-tensorflow-steps.txt|post-processing-tensorflow|preprocessing-tensorflow|--steps ^train
CASES
