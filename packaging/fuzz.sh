#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded
# time on the shipped presets as seed corpus. Fails on any crash, hang, leak or
# sanitizer report; the reproducer is left in the build directory.
#   bash packaging/fuzz.sh [SECONDS_PER_TARGET] [build|run]   (default 60 s; build and run)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
phase="${2:-all}"
build="${DTSIM_FUZZ_BUILD_DIR:-$here/build-fuzz}"
targets=(fuzz_scenario_loader fuzz_set_parser fuzz_validation_loader fuzz_cluster_workload fuzz_profile_trace fuzz_measure_inputs)
if [ "$phase" != run ]; then
  # Line tables (-g1) are all the sanitizers' reports need, at two thirds of -g's build time.
  CXX=clang++-14 cmake -S "$here" -B "$build" -G Ninja -DDTSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
  cmake --build "$build" -j2 --target "${targets[@]}"
fi
[ "$phase" = build ] && exit 0
cd "$build"
mkdir -p corpus/loader corpus/set corpus/runs corpus/workload corpus/trace corpus/measure
cp "$here"/presets/*.yaml corpus/loader/
printf 'parallel.tp=4\nparallel.dp=16' > corpus/set/plan
printf 'cluster.gpus=1e9\ntraining.tokens=-1' > corpus/set/bad
printf 'cluster.tiers=[{span_gpus: 8}]' > corpus/set/tiers
# A few real rows of the validation file, and the rows that once gave NaN.
head -c 20000 "$here"/tests/validation/published-runs.yaml > corpus/runs/head.yaml
# The shared-cluster preset's workload section, and the values that once hung or lied.
sed -n '/^workload:/,$p' "$here"/presets/shared-cluster.yaml | tail -n +2 > corpus/workload/preset
sed -e 's/arrivals_per_hour: 6/arrivals_per_hour: 1e-9/' corpus/workload/preset > corpus/workload/sparse
sed -e 's/value: 8, weight: 6/value: 1e20, weight: 6/' -e 's/project_weights: \[5, 2, 1\]/project_weights: [0, 0, 0]/' corpus/workload/preset > corpus/workload/bad
printf -- '- id: x\n  quality: good\n  architecture: {layers: 32, hidden_size: 4096, attention_heads: 32, seq_len: 0}\n  result: {tflops_per_gpu: .inf}\n' > corpus/runs/nan
# Profiler traces: the hand-written one, the head of a real one, and a real gzip file.
cp "$here"/tests/profiles/handmade/overlap.json corpus/trace/
# (process substitution: gzip's SIGPIPE when head stops reading is not the script's failure)
head -c 20000 < <(gzip -dc "$here"/tests/profiles/a100-alexnet-forward.json.gz) > corpus/trace/alexnet-head.json
cp "$here"/tests/profiles/a100-alexnet-forward.json.gz corpus/trace/
# Measurement inputs, the first byte choosing the reader (0 nccl-tests log, 1 layer table,
# 2 calibration overlay, 3 lecture script): the shipped logs, tables and lectures, an
# overlay, and issue 38's cases.
for script in "$here"/presets/lectures/*.yaml; do { printf '\x03'; cat "$script"; } > "corpus/measure/lecture-$(basename "$script")"; done
for f in "$here"/tests/frameworks/hf/*.json; do { printf '\x04'; cat "$f"; } > "corpus/measure/hf-$(basename "$f")"; done
for f in "$here"/tests/frameworks/megatron/*.sh; do { printf '\x05'; cat "$f"; } > "corpus/measure/megatron-$(basename "$f")"; done
for f in "$here"/tests/frameworks/torchtitan/*.toml; do { printf '\x06'; cat "$f"; } > "corpus/measure/torchtitan-$(basename "$f")"; done
for f in "$here"/tests/frameworks/deepspeed/*.json; do { printf '\x07'; cat "$f"; } > "corpus/measure/deepspeed-$(basename "$f")"; done
for f in "$here"/tests/frameworks/nemo/*.yaml; do { printf '\x08'; cat "$f"; } > "corpus/measure/nemo-$(basename "$f")"; done
{ printf '\x09'; printf 'recipe.trainer.num_nodes=4 recipe.trainer.devices=8\nrecipe.trainer.strategy.tensor_model_parallel_size=2 \\\n  recipe.data.global_batch_size=512\n'; } > corpus/measure/nemo-overrides
for log in "$here"/tests/nccl/*.log; do { printf '\x00'; cat "$log"; } > "corpus/measure/nccl-$(basename "$log")"; done
{ printf '\x00'; printf '# size count busbw c0 c1 time\n8 2 0.5\n16 4 0.9\n'; } > corpus/measure/nccl-late-time
{ printf '\x01'; cat "$here"/resources/workloads/alexnet-2012.yaml; } > corpus/measure/table-alexnet
{ printf '\x02'; sed -n '/^version: 1$/,/^```$/p' "$here"/docs/calibration.md | sed '$d'; } > corpus/measure/overlay-doc
{ printf '\x02'; printf 'version: 1\ncollectives:\n  - tier: scale_up\n    collective: allreduce\n    ranks: 8\n    source: x\n    segments:\n      - {from: 8 B, to: 1 MB, latency: 10 us, bus_bandwidth: unbounded}\n'; } > corpus/measure/overlay-flat
corpus_of() {
  case "$1" in
    fuzz_set_parser) echo corpus/set ;;
    fuzz_validation_loader) echo corpus/runs ;;
    fuzz_cluster_workload) echo corpus/workload ;;
    fuzz_profile_trace) echo corpus/trace ;;
    fuzz_measure_inputs) echo corpus/measure ;;
    *) echo corpus/loader ;;
  esac
}
# One target for its full time; its log's statistics, or its end when it failed.
fuzz_one() {
  local target="$1" rc=0
  ./tests/fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 "$(corpus_of "$target")" \
    > "$target.log" 2>&1 || rc=$?
  echo "fuzz: $target ran ${seconds}s"
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|SUMMARY|runtime error|unexpected" "$target.log" || true
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $target failed (exit $rc); the log ends:" >&2
    tail -40 "$target.log" >&2
  fi
  return "$rc"
}
# Each target is one process on one core: two run at once, each for its full time.
jobs_at_once="${DTSIM_FUZZ_JOBS:-2}"
failed=0
for ((i = 0; i < ${#targets[@]}; i += jobs_at_once)); do
  pids=()
  for target in "${targets[@]:i:jobs_at_once}"; do
    fuzz_one "$target" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || failed=$?
  done
  if [ "$failed" -ne 0 ]; then exit "$failed"; fi
done
