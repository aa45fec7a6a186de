#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer and UndefinedBehaviorSanitizer
# (g++, -O1): any memory error or undefined behaviour fails the run.
#   bash packaging/sanitize.sh [build|test]   (default: both)
set -euo pipefail
phase="${1:-all}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DTSIM_SANITIZE_BUILD_DIR:-$here/build-sanitize}"
if [ "$phase" != test ]; then
  cmake -S "$here" -B "$build" -G Ninja -DDTSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" >/dev/null
  cmake --build "$build" -j2
fi
[ "$phase" = build ] && exit 0
cd "$build"
# Qt and fontconfig keep caches alive to exit; leaks are the fuzzers' job (simcore only).
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The sanitizers run the code several times slower (0.5 s -> 4 s for a 1,000-point
# frontier): the property test's per-case time limits stretch by this factor.
export DTSIM_TIME_SCALE=10
ctest --output-on-failure -j2 --timeout 900 -E 'package_deb|docs_current'
