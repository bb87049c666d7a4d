#!/usr/bin/env bash
# Command 2 of 2: install missing packages, then build and test two
# configurations, each in its own tree:
#   normal    Release with -Werror (build/), every test;
#   sanitize  AddressSanitizer + UBSan (-DSTEPLINE_SANITIZE=ON, Debug at -O1,
#             no debug info, no benchmarks; build-sanitize/), built with clang,
#             every test, leaks checked (ASAN_OPTIONS=detect_leaks=1).
#             The tree also builds the fuzz targets (-DSTEPLINE_FUZZ=ON).
#   fuzz      the libFuzzer targets, built in the sanitizer tree (their
#             coverage instrumentation is on the model and the loaders only,
#             CMakeLists.txt), each run for STEPLINE_FUZZ_SECONDS (default 10:
#             a smoke run, as CI has 25 minutes for everything) on its seed
#             corpus.
# clang is installed with the rest (install-deps.sh --fuzz): it compiles the
# sanitizer tree faster than GCC (27% less on the analysis library, half on
# test files) and is the fuzzers' compiler.
# STEPLINE_TEST_CONFIGS picks a subset ("normal sanitize fuzz" by default).
# Exits non-zero when anything fails. The last lines give each
# configuration's result and ctest summary, then one summary line in ctest's
# form over all of them ("100% tests passed, 0 tests failed out of N").
# Real-trace tests read ../shared/traces (or $STEPLINE_TRACES) and skip when it is absent.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${STEPLINE_BUILD_DIR:-$root/build}"
sanitize_dir="${STEPLINE_SANITIZE_BUILD_DIR:-$build_dir-sanitize}"
configs="${STEPLINE_TEST_CONFIGS:-normal sanitize fuzz}"
jobs="$(nproc)"
# Each test executable runs as this many CTest shards, plus one test
# labelled `window` with the suites that start the viewer under Xvfb
# (tests/CMakeLists.txt, STEPLINE_TEST_SHARDS): a process per GoogleTest
# case would cost ~45 s of the sanitizer run in start-ups and leak scans.
shards=4
# Test files compile as units of this many (tests/CMakeLists.txt,
# STEPLINE_TEST_UNITY_BUILD): at -O0 a test file spends most of its build on
# what every test file repeats (GoogleTest's and the standard library's
# templates, and with GCC loading a 120 MB precompiled header).
test_unity=8
# Packaging (cmake --install, cpack) runs no code of ours under the sanitizers
# and packing the sanitized binary takes minutes: the normal tree tests it.
packaging_tests='^packaging_'
# The scripted window walk drives the viewer as a user would, for input
# timing: the normal tree runs it; under ASan its frames are several times
# slower and it would test the sanitizer's speed, not the window's input.
# The window shards (real GL windows under Xvfb) run in the normal tree only:
# under ASan they took 150 s of CI's 2 cores, most of it in Mesa's software
# rasterizer, which is not instrumented; the sanitizer tree keeps every
# headless test of the same views (ui_tests draw them without a window).
sanitize_skip="$packaging_tests|^WindowWalk\$|\\.windows[0-9]+\$"

"$root/scripts/install-deps.sh" --fuzz

log_dir="$(mktemp -d --tmpdir stepline-test-XXXXXX)"
trap 'rm -rf "$log_dir"' EXIT
declare -A result summary
order=()

# run_ctest NAME BUILD_DIR [ctest args]: runs ctest, keeps its summary line
# and, from ctest's full log, how many GoogleTest cases its shards ran.
run_ctest() {
  local name="$1" dir="$2"
  shift 2
  local status=0
  ctest --test-dir "$dir" --output-on-failure -j"$jobs" --timeout 900 "$@" 2>&1 | tee "$log_dir/$name.log" || status=$?
  summary[$name]="$(grep -E '[0-9]+% tests passed' "$log_dir/$name.log" | tail -n 1 || true)"
  if [[ -z "${summary[$name]}" ]]; then
    summary[$name]="no ctest summary line (did any tests run?)"
    status=1
  fi
  local full="$dir/Testing/Temporary/LastTest.log"
  if [[ -f "$full" ]]; then
    local cases skipped
    cases="$(grep -aE '^\[==========\] [0-9]+ tests? from .* ran' "$full" | awk '{n += $2} END {print n + 0}')"
    skipped="$(grep -aE '^\[  SKIPPED \] [0-9]+ test' "$full" | awk '{n += $4} END {print n + 0}')"
    ((cases > 0)) && summary[$name]+=" ($cases GoogleTest cases run, $skipped skipped)"
  fi
  return "$status"
}

# configure_and_build NAME BUILD_DIR TARGET [cmake args]   (TARGET "all" = everything)
configure_and_build() {
  local name="$1" dir="$2" target="$3"
  shift 3
  local start=$SECONDS
  if ! cmake -S "$root" -B "$dir" "$@" >"$log_dir/$name-configure.log" 2>&1; then
    cat "$log_dir/$name-configure.log" >&2
    return 1
  fi
  cmake --build "$dir" -j"$jobs" --target "$target" || return 1
  echo "test.sh: $name build took $((SECONDS - start)) s"
}

record() {  # record NAME STATUS
  order+=("$1")
  result[$1]="$2"
}

# The sanitizer tree, with the fuzz targets: -O1 keeps ASan's slowdown small;
# -g0, clang and no benchmarks keep the build inside CI's budget (docs/contributing.md,
# "Sanitizers"). Building the fuzzers here rather than in a tree of
# their own saves compiling the loaders a third time (107 to 149 s of CI).
sanitize_args=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g0" "-DCMAKE_C_FLAGS_DEBUG=-O1 -g0"
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DSTEPLINE_SANITIZE=ON -DSTEPLINE_WERROR=ON
  -DSTEPLINE_BUILD_BENCH=OFF -DSTEPLINE_TEST_PCH=ON -DSTEPLINE_TEST_SHARDS=$shards -DSTEPLINE_TEST_UNITY_BUILD=$test_unity -DSTEPLINE_FUZZ=ON
  "-DSTEPLINE_FUZZ_SMOKE_SECONDS=${STEPLINE_FUZZ_SECONDS:-10}"
  # Edge coverage only: libFuzzer's comparison tracing slowed the loaders'
  # tests in this tree (CMakeLists.txt, STEPLINE_FUZZ_COVERAGE).
  -DSTEPLINE_FUZZ_COVERAGE=-fsanitize-coverage=inline-8bit-counters,pc-table)
sanitize_built=0

for config in $configs; do
  start=$SECONDS
  case "$config" in
    normal)
      # Test files precompile GoogleTest's header here too. (At -O1 that once
      # made GCC 12 raise a false -Wstringop-overflow in a test; they are
      # built at -O0 now, tests/CMakeLists.txt.)
      if ! "$root/scripts/build.sh" -DSTEPLINE_WERROR=ON -DSTEPLINE_TEST_PCH=ON -DSTEPLINE_TEST_SHARDS=$shards \
        -DSTEPLINE_TEST_UNITY_BUILD=$test_unity; then
        summary[normal]="build failed (warnings are errors here); no tests were run"
        record normal 1
        continue
      fi
      status=0
      run_ctest normal "$build_dir" || status=$?
      record normal "$status"
      ;;
    sanitize)
      if ! configure_and_build sanitize "$sanitize_dir" all "${sanitize_args[@]}"; then
        summary[sanitize]="build failed; no tests were run"
        record sanitize 1
        continue
      fi
      sanitize_built=1
      status=0
      # One run with the tests that start the viewer under Xvfb: they keep
      # ASan and UBSan but turn the leak check off in their own environment
      # (tests/CMakeLists.txt, Mesa's llvmpipe), and start first.
      ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0" \
      UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      LSAN_OPTIONS="suppressions=$root/tests/sanitizer/lsan.supp:print_suppressions=0" \
        run_ctest sanitize "$sanitize_dir" -LE fuzz -E "$sanitize_skip" || status=$?
      record sanitize "$status"
      ;;
    fuzz)
      # In the sanitizer tree (built above, or only its fuzz targets when
      # STEPLINE_TEST_CONFIGS leaves the sanitizer tests out).
      if ((sanitize_built == 0)) && ! configure_and_build fuzz "$sanitize_dir" stepline_fuzzers "${sanitize_args[@]}"; then
        summary[fuzz]="build failed; no fuzzer was run"
        record fuzz 1
        continue
      fi
      status=0
      run_ctest fuzz "$sanitize_dir" -L fuzz || status=$?
      record fuzz "$status"
      ;;
    *)
      echo "test.sh: unknown configuration '$config' in STEPLINE_TEST_CONFIGS" >&2
      exit 2
      ;;
  esac
  echo "test.sh: $config took $((SECONDS - start)) s"
done

# Each configuration's result, then one ctest-style summary line over all of
# them (CI reads the last line), unless a configuration has no summary.
if ((${#order[@]} == 0)); then
  echo "test.sh: no configuration ran" >&2
  exit 1
fi
exit_status=0
passed_total=0
failed_total=0
tests_total=0
missing=""
for name in "${order[@]}"; do
  verdict=passed
  [[ "${result[$name]}" != 0 ]] && verdict=FAILED && exit_status=1
  echo "test.sh: $name: $verdict: ${summary[$name]}"
  if [[ "${summary[$name]}" =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
    failed_total=$((failed_total + BASH_REMATCH[1]))
    tests_total=$((tests_total + BASH_REMATCH[2]))
  else
    missing="$missing $name"
  fi
done
if [[ -n "$missing" ]]; then
  echo "test.sh: no ctest summary line for:$missing (see above); FAILED"
  exit 1
fi
passed_total=$((tests_total - failed_total))
percent=$((tests_total > 0 ? passed_total * 100 / tests_total : 0))
echo "test.sh: ${percent}% tests passed, ${failed_total} tests failed out of ${tests_total} (${order[*]})"
exit "$exit_status"
