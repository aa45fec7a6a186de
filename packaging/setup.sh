#!/usr/bin/env bash
# The README's two commands: install what is missing, build, then either run dtsim on
# the default preset ("run") or run every test ("test").
#   bash packaging/setup.sh run [extra arguments for the program]
#   bash packaging/setup.sh test
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
    cd "$build_dir"
    exec ctest --output-on-failure -j2 --timeout 900
    ;;
  *)
    echo "usage: packaging/setup.sh run|test" >&2
    exit 2
    ;;
esac
