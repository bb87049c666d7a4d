#!/usr/bin/env bash
# Writes the report goldens: `stepline report --json` of every built-in demo
# scenario, in both naming styles, gzipped (a TensorFlow-style report lists
# ~1,800 ops and kernels). Made once from the build before ComputeAnalysis
# (commit 677c24e, whose report code is main's); tests/app/report_golden_test.cpp
# compares today's report to them. The report has no timing keys, so nothing is
# removed. Usage: tests/data/report_goldens/make_goldens.sh path/to/stepline
set -euo pipefail
stepline="${1:?usage: make_goldens.sh path/to/stepline}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$stepline" demo --list | awk 'NF {print $1}' | grep -v '^write$' | while read -r scenario; do
  for style in tensorflow pytorch; do
    "$stepline" demo "$scenario" --style "$style" --out "$tmp/trace.json" --force >/dev/null
    "$stepline" report "$tmp/trace.json" --json | gzip -9n > "$here/$scenario-$style.json.gz"
  done
done
