#!/usr/bin/env bash
# Command 2 of 2: install missing packages, build with warnings as errors, and
# run every test. Exits non-zero on any failure. Real-trace tests read
# ../shared/traces (or $STEPLINE_TRACES) and skip when it is absent.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${STEPLINE_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
if ! "$root/scripts/build.sh" -DSTEPLINE_WERROR=ON; then
  echo "test.sh: build failed (warnings are errors here); no tests were run" >&2
  exit 1
fi

log="$(mktemp --tmpdir stepline-ctest-XXXXXX.log)"
trap 'rm -f "$log"' EXIT
status=0
ctest --test-dir "$build_dir" --output-on-failure -j2 --timeout 600 2>&1 | tee "$log" || status=$?
# With --output-on-failure the summary can scroll far up; repeat it last.
summary="$(grep -E '[0-9]+% tests passed' "$log" | tail -n 1 || true)"
echo "test.sh: ${summary:-no ctest summary line (did any tests run?)}"
if [[ -z "$summary" && "$status" -eq 0 ]]; then
  status=1
fi
exit "$status"
