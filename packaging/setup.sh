#!/usr/bin/env bash
# The README's two commands: install what is missing, build, then either run dtsim on
# the default preset ("run") or run every test ("test").
#   bash packaging/setup.sh run [extra arguments for the program]
#   bash packaging/setup.sh test   (then the sanitizer suite and the fuzzers; set
#                                   DTSIM_SKIP_SANITIZERS=1 for the plain suite only)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

mode="${1:-run}"
shift || true
build_dir="${DTSIM_BUILD_DIR:-build}"
default_preset="presets/llama3-405b-h100.yaml"

bash packaging/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build_dir" -j2

case "$mode" in
  run)
    exec "$build_dir/app/dtsim" "$default_preset" "$@"
    ;;
  test)
    (cd "$build_dir" && ctest --output-on-failure -j2 --timeout 900)
    # The package on a clean Debian 12 chroot, with only what it declares.
    bash packaging/check-deb-clean.sh "$build_dir"
    # The same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the
    # scenario-loader and --set fuzzers for a bounded time (DTSIM_FUZZ_SECONDS each).
    if [ "${DTSIM_SKIP_SANITIZERS:-0}" != 1 ]; then
      bash packaging/sanitize.sh
      bash packaging/fuzz.sh "${DTSIM_FUZZ_SECONDS:-30}"
    fi
    ;;
  *)
    echo "usage: packaging/setup.sh run|test" >&2
    exit 2
    ;;
esac
