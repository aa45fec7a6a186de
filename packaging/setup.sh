#!/usr/bin/env bash
# The README's two commands: install what is missing, build, then either run dtsim on
# the default preset ("run") or run every test ("test").
#   bash packaging/setup.sh run [extra arguments for the program]
#   bash packaging/setup.sh test   (then the sanitizer suite and the fuzzers; set
#                                   DTSIM_SKIP_SANITIZERS=1 for the plain suite only)
# "test" ends with the time each stage took, also when a stage fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

mode="${1:-run}"
shift || true
build_dir="${DTSIM_BUILD_DIR:-build}"
default_preset="presets/llama3-405b-h100.yaml"

stage_times=()
# Runs "$@" as the stage named $1 and records its wall time.
stage() {
  local name="$1" start=$SECONDS
  shift
  "$@"
  stage_times+=("$(printf '%-34s %5d s' "$name" $((SECONDS - start)))")
}
print_stage_times() {
  local rc=$?
  [ ${#stage_times[@]} -eq 0 ] && return
  echo "setup.sh $mode: time by stage"
  printf '  %s\n' "${stage_times[@]}"
  printf '  %-34s %5d s%s\n' total "$SECONDS" "$([ "$rc" -ne 0 ] && echo " (failed, exit $rc)")"
}
[ "$mode" = test ] && trap print_stage_times EXIT

stage "install missing packages" bash packaging/install-deps.sh
# Line tables only (-g1): backtraces keep file and line, and the build takes a third less
# time than with full debug information (-g).
stage "configure" cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
stage "build" cmake --build "$build_dir" -j2

case "$mode" in
  run)
    exec "$build_dir/app/dtsim" "$default_preset" "$@"
    ;;
  test)
    # The clean Debian 12 chroot for the package check downloads while the tests and
    # the sanitizer build keep the cores busy (it is network and disk, not CPU).
    chroot_dir=""
    if [ "$(id -u)" -eq 0 ] && command -v debootstrap >/dev/null; then
      chroot_dir="$(mktemp -d /tmp/dtsim-clean.XXXXXX)"
      bash packaging/check-deb-clean.sh --prepare "$chroot_dir" > "$chroot_dir.prepare.log" 2>&1 &
      chroot_pid=$!
    fi
    stage "tests" bash -c "cd '$build_dir' && ctest --output-on-failure -j2 --timeout 900"
    # The same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the
    # scenario-loader and --set fuzzers for a bounded time (DTSIM_FUZZ_SECONDS each).
    if [ "${DTSIM_SKIP_SANITIZERS:-0}" != 1 ]; then
      stage "sanitizer build" bash packaging/sanitize.sh build
      stage "sanitizer tests" bash packaging/sanitize.sh test
    fi
    # The package on a clean Debian 12 chroot, with only what it declares.
    if [ -n "$chroot_dir" ]; then
      wait "$chroot_pid" || true
      stage "package on a clean Debian 12" bash packaging/check-deb-clean.sh "$build_dir" "$chroot_dir"
    else
      bash packaging/check-deb-clean.sh "$build_dir"
    fi
    if [ "${DTSIM_SKIP_SANITIZERS:-0}" != 1 ]; then
      stage "fuzzer build" bash packaging/fuzz.sh "${DTSIM_FUZZ_SECONDS:-30}" build
      stage "fuzzers, ${DTSIM_FUZZ_SECONDS:-30} s each, two at once" bash packaging/fuzz.sh "${DTSIM_FUZZ_SECONDS:-30}" run
    fi
    ;;
  *)
    echo "usage: packaging/setup.sh run|test" >&2
    exit 2
    ;;
esac
