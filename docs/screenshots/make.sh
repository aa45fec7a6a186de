#!/usr/bin/env bash
# Regenerates the screenshots under docs/screenshots/ from a build (offscreen, no display):
#   docs/screenshots/make.sh build/app/dtsim
# README's set (1600x1000, light), then every tab light and dark at 1366x768 (a laptop)
# and 1600x1000, and in presentation mode on a 1920x1080 screen. Look at them after an
# interface change: nothing cut off, elided where the word fits, or overlapping.
set -euo pipefail
dtsim=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
screens=$(cd "$here/../../tests/screens" && pwd)
tabs="frontier scaling breakdown plans topology timeline reliability cost cluster whatif"
preset_for() { # the preset that shows the tab best
  case "$1" in
    timeline) echo gpt3-175b-a100 ;;
    cluster) echo shared-cluster ;;
    *) echo llama3-405b-h100 ;;
  esac
}
shot() { # out tab theme size [extra args...]
  local out=$1 tab=$2 theme=$3 size=$4; shift 4
  mkdir -p "$(dirname "$out")"
  QT_QPA_PLATFORM=${QPA:-offscreen} "$dtsim" --preset "$(preset_for "$tab")" --tab "$tab" --theme "$theme" \
    --size "$size" --screenshot "$out" "$@" 2> >(grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR' >&2)
}
for tab in $tabs; do
  shot "$here/$tab.png" "$tab" light 1600x1000
  for theme in light dark; do
    shot "$here/1366x768/$theme/$tab.png" "$tab" "$theme" 1366x768
  done
  shot "$here/1600x1000/dark/$tab.png" "$tab" dark 1600x1000
  QPA="offscreen:configfile=$screens/1920x1080.json" shot "$here/present-1920x1080/$tab.png" "$tab" light 1920x1080 --present
done
# Side by side: the Llama 3 layout pinned as A, the chaos drill's as B (dtsim a.yaml b.yaml).
presets="$here/../../presets"
QT_QPA_PLATFORM=offscreen "$dtsim" "$presets/llama3-405b-h100.yaml" "$presets/llama3-405b-chaos.yaml" --tab breakdown \
  --size 1366x768 --screenshot "$here/compare.png" 2> >(grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR' >&2)
# A layer table: AlexNet on two GTX 580 (2012), its step and memory.
QT_QPA_PLATFORM=offscreen "$dtsim" --preset alexnet-2012-gtx580 --tab breakdown \
  --size 1600x1000 --screenshot "$here/alexnet.png" 2> >(grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR' >&2)
# Every step of the shipped lecture scripts, in presentation mode on a laptop's screen and
# on a 1080p projector (docs/teaching.md; tst_lecture checks the same steps).
for script in "$presets"/lectures/*.yaml; do
  name=$(basename "$script" .yaml)
  steps=$(grep -c '^  - ' "$script")
  for screen in 1366x768 1920x1080; do
    for ((step = 1; step <= steps; step++)); do
      mkdir -p "$here/lecture"
      QT_QPA_PLATFORM="offscreen:configfile=$screens/$screen.json" "$dtsim" --lecture "$name" --step "$step" \
        --screenshot "$here/lecture/$name-$screen-step$step.png" 2> >(grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR' >&2)
    done
  done
done
echo "screenshots written under $here"
