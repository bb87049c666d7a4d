#!/usr/bin/env bash
# Command 1 of 2: install missing packages, build Release, start Stepline.
#   ./scripts/run.sh [TRACE]
# With a TRACE: open the viewer on it. Without: open the viewer on the
# built-in "input-bound" demo trace, generated in memory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${STEPLINE_BUILD_DIR:-$root/build}"
stepline="$build_dir/stepline"

"$root/scripts/install-deps.sh"
# The viewer and what installing it needs (icon, man page), so `cmake
# --install` and `cpack` work right after; the tests are test.sh's job.
"$root/scripts/build.sh" --target stepline --target stepline_desktop_files

# The viewer needs a display; on a server use `xvfb-run` with
# `stepline screenshot` instead (docs/cli.md, "stepline screenshot").
if (($# > 0)); then
  exec "$stepline" "$1"
else
  exec "$stepline"
fi
