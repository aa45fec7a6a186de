#!/usr/bin/env bash
# Installs, from Debian 12 packages only, whatever dtsim needs to build, test and run.
# Idempotent: packages already present are skipped, so a second run does nothing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libqt6svg6 qt6-svg-dev qt6-charts-dev
  libqcustomplot-dev libyaml-cpp-dev
  # framework configs: Hugging Face and DeepSpeed JSON, torchtitan TOML (dtsim-cli import)
  nlohmann-json3-dev libtomlplusplus-dev
  # gzip-compressed profiler traces (dtsim-cli calibrate); zlib is already Qt's own dependency.
  zlib1g-dev
  libgl-dev libxkbcommon-dev
  xvfb xauth fonts-dejavu-core
  # libFuzzer ships only with clang: the fuzz targets (packaging/fuzz.sh) need it.
  clang-14 libclang-rt-14-dev
  # dtsim-measure's test runs the script's PyTorch model on the CPU (the suite has no GPU).
  python3-torch
  # cpack -G DEB: dpkg-shlibdeps computes the package's library dependencies.
  dpkg-dev
  # A clean Debian 12 chroot to install the package into (packaging/check-deb-clean.sh).
  debootstrap
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
