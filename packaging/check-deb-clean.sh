#!/usr/bin/env bash
# Installs the Debian package on a clean, minimal Debian 12 (a debootstrap chroot) with
# apt, so only its declared dependencies come along, and runs both programs there.
# Needs root; skips (saying so) when the chroot cannot be made (no network, no root).
#   bash packaging/check-deb-clean.sh BUILD_DIR [CHROOT]
#   bash packaging/check-deb-clean.sh --prepare CHROOT   (debootstrap only, ahead of time:
#                                                         setup.sh runs it beside the tests)
# A CHROOT made by --prepare is used and then removed; without one, a new one is made.
set -euo pipefail
make_chroot() {
  debootstrap --variant=minbase bookworm "$1" http://deb.debian.org/debian > "$1.debootstrap.log" 2>&1 \
    && touch "$1/.dtsim-prepared"
}
if [ "${1:-}" = --prepare ]; then
  make_chroot "$2" || echo "check-deb-clean: debootstrap failed; see $2.debootstrap.log"
  exit 0
fi
build="$(cd "$1" && pwd)"
if [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null; then
  echo "check-deb-clean: skipped (needs root and debootstrap)"
  exit 0
fi
(cd "$build" && rm -f dtsim_*.deb && cpack -G DEB >/dev/null)
deb="$(ls "$build"/dtsim_*.deb)"
root="${2:-$(mktemp -d /tmp/dtsim-clean.XXXXXX)}"
cleanup() { umount "$root/proc" 2>/dev/null || true; rm -rf "$root"; }
trap cleanup EXIT
if [ ! -e "$root/.dtsim-prepared" ] && ! make_chroot "$root"; then
  echo "check-deb-clean: skipped (debootstrap failed; see $root.debootstrap.log)"
  exit 0
fi
cp "$deb" "$root/tmp/dtsim.deb"
mount -t proc proc "$root/proc"
chroot "$root" apt-get update -qq
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/dtsim.deb >/dev/null
chroot "$root" dtsim-cli --version
chroot "$root" dtsim-cli simulate mixtral-8x7b-h100 --json > /dev/null
chroot "$root" env QT_QPA_PLATFORM=offscreen dtsim --preset shared-cluster --tab cluster --screenshot /tmp/shot.png 2>/dev/null
test -s "$root/tmp/shot.png"
echo "check-deb-clean: installed on a clean Debian 12 with $(chroot "$root" dpkg -l | grep -c '^ii') packages; both programs run"
