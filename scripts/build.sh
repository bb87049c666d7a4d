#!/usr/bin/env bash
# Configures and builds Stepline (Release) in $STEPLINE_BUILD_DIR (default:
# build/ in the repository). Used by run.sh and test.sh.
#   scripts/build.sh [--target NAME]... [cmake configure arguments, e.g. -DSTEPLINE_WERROR=ON]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${STEPLINE_BUILD_DIR:-$root/build}"

target=()
while [[ "${1:-}" == "--target" ]]; do
  target+=(--target "$2")
  shift 2
done

cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build_dir" -j"$(nproc)" "${target[@]}"
