#!/usr/bin/env bash
# Builds the Debian package in a build tree and runs the programs from its contents:
# the package carries its data where the programs look (<bin>/../share/dtsim), its
# dependency list names the Qt and yaml-cpp libraries, and the desktop files validate.
#   bash packaging/check-deb.sh BUILD_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
cd "$build"
rm -f dtsim_*.deb
cpack -G DEB >/dev/null
deb="$(ls dtsim_*.deb)"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
control="$(dpkg-deb -f "$deb" Depends)"
for lib in libqt6core6 libqt6widgets6 libyaml-cpp0.7 libqcustomplot2.1-qt6 qt6-qpa-plugins; do
  case "$control" in *"$lib"*) ;; *) echo "check-deb: Depends lacks $lib: $control" >&2; exit 1 ;; esac
done
# The data must come from the package, not the source tree the binaries were built in.
export DTSIM_DATA_DIR=
"$root/usr/bin/dtsim-cli" --version
"$root/usr/bin/dtsim-cli" presets | grep -q shared-cluster
"$root/usr/bin/dtsim-cli" simulate llama3-405b-h100 --data "$root/usr/share/dtsim" --json >/dev/null
test -s "$root/usr/share/man/man1/dtsim-cli.1.gz"
test -x "$root/usr/bin/dtsim-measure"
for size in 32 48 64 128 256; do test -s "$root/usr/share/icons/hicolor/${size}x${size}/apps/org.dtsim.dtsim.png"; done
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$root/usr/share/applications/org.dtsim.dtsim.desktop"; fi
if command -v appstreamcli >/dev/null; then appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.dtsim.dtsim.metainfo.xml" || true; fi
QT_QPA_PLATFORM=offscreen "$root/usr/bin/dtsim" --preset gpt3-175b-a100 --screenshot "$root/shot.png" 2>/dev/null
test -s "$root/shot.png"
# The lecture scripts ship with the presets.
QT_QPA_PLATFORM=offscreen "$root/usr/bin/dtsim" --data "$root/usr/share/dtsim" --lecture why-not-more-gpus --step 2 --screenshot "$root/lecture.png" 2>/dev/null
test -s "$root/lecture.png"
echo "check-deb: $deb ok ($(du -h "$deb" | cut -f1))"
