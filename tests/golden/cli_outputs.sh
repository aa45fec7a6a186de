#!/usr/bin/env bash
# Every number the CLI prints, for every preset, compared with the stored outputs of
# the revision before a refactor. A refactor must not move a number; a change that
# means to (a fixed defect, a new physics term) updates the stored files in the same
# commit, so the diff shows each moved number for review.
#
#   cli_outputs.sh check  DTSIM_CLI SOURCE_DIR   # exit 1 and a diff when anything moved
#   cli_outputs.sh update DTSIM_CLI SOURCE_DIR   # rewrite tests/golden/outputs/
set -euo pipefail
mode=$1 cli=$(realpath "$2") src=$(realpath "$3")
cd "$src" # relative paths, so messages do not name the clone's location
stored="$(realpath "$src")/tests/golden/outputs"
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT

# Wall-clock figures ("search_ms", "frontier_ms") differ between runs; blank them.
capture() { # NAME ARGS...
    local name=$1; shift
    local rc=0
    "$cli" "$@" >"$fresh/$name" 2>&1 || rc=$?
    sed -i -E 's/("[a-z_]*_ms": )[0-9.e+-]+/\1 -/' "$fresh/$name"
    echo "exit $rc" >>"$fresh/$name"
}

for file in presets/*.yaml; do
    p=$(basename "$file" .yaml)
    capture "$p.simulate.txt" simulate "$file"
    capture "$p.advise.txt" advise "$file"
    for cmd in simulate search run cost cluster scaling advise; do
        capture "$p.$cmd.json" "$cmd" "$file" --json
    done
done
capture frontier-gtx580.json frontier --gpu gtx580 --months 3 --json
capture frontier-gtx580-idealized.json frontier --gpu gtx580 --months 3 --mode idealized --json
capture frontier-h100-moe.json frontier --gpu h100-sxm --months 3 --model moe --json
capture hardware.json hardware --json
capture sweep-tp-pp.txt sweep presets/llama3-405b-h100.yaml --x parallel.tp=1,2,4,8,16 --y parallel.pp=1..32*2 --metric mfu
capture sweep-gpus-batch.json sweep presets/gpt3-175b-a100.yaml --x cluster.gpus=256..4096*2 --y training.global_batch=768,1536,3072 --json
capture diff-llama3.txt diff presets/llama3-405b-h100.yaml presets/llama3-405b-chaos.yaml
capture diff-llama3.json diff presets/llama3-405b-h100.yaml presets/llama3-405b-chaos.yaml --json
capture validate.json validate tests/validation/published-runs.yaml --json
capture validate-extrapolate.json validate tests/validation/published-runs.yaml --extrapolate --json
capture validate-layer-tables.json validate tests/validation/layer-table-runs.yaml --json
capture layers-resnet50-mlperf.txt layers presets/resnet50-mlperf.yaml
capture layers-alexnet.json layers presets/alexnet-2012-gtx580.yaml --json
capture layers-transformer.txt layers presets/llama3-405b-h100.yaml
for trace in tests/profiles/*.json.gz; do
    capture "calibrate-$(basename "$trace" .json.gz).json" calibrate "$trace" --json
done
for log in tests/nccl/*.log; do
    capture "calibrate-$(basename "$log" .log).json" calibrate --nccl-tests "$log" --json
done
capture calibrate-step.json calibrate presets/llama2-7b-8xa100.yaml --measured-step 33s --json
capture calibrate-trace-fit.json calibrate tests/measurements/h200-pytorch/llama-0.5b-b8-s2048.trace.json.gz --scenario tests/measurements/h200-pytorch/scenarios/llama-0.5b-b8-s2048.yaml --json

if [[ $mode == update ]]; then
    rm -rf "$stored"
    mkdir -p "$stored"
    cp "$fresh"/* "$stored"/
    echo "stored $(ls "$stored" | wc -l) outputs in $stored"
    exit 0
fi
if diff -ru "$stored" "$fresh" >"$fresh.diff"; then
    echo "all $(ls "$fresh" | wc -l) CLI outputs match the stored ones"
    rm -f "$fresh.diff"
    exit 0
fi
head -c 20000 "$fresh.diff"
rm -f "$fresh.diff"
echo "CLI outputs moved; if the change is meant, run: $0 update $cli $src" >&2
exit 1
