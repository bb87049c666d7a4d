#!/usr/bin/env bash
# Command 1 of 2: install missing packages, build Release, start Stepline.
#   ./scripts/run.sh [TRACE]
# With a TRACE: summarize it. Without: summarize the built-in "input-bound"
# demo trace, generated on the fly.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${STEPLINE_BUILD_DIR:-$root/build}"
stepline="$build_dir/stepline"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --target stepline  # the tests are test.sh's job

# What "run" starts, in one place. The viewer is a later issue; when it lands,
# this line becomes:  "$stepline" "$1"
start_stepline() { "$stepline" info "$1"; }

if (($# > 0)); then
  start_stepline "$1"
else
  demo_dir="$(mktemp -d --tmpdir stepline-demo-XXXXXX)"
  trap 'rm -rf "$demo_dir"' EXIT
  demo_trace="$demo_dir/input-bound.json.gz"
  "$stepline" demo input-bound --out "$demo_trace"
  start_stepline "$demo_trace"
fi
