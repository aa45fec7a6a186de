#!/usr/bin/env python3
"""Per profiler step of the two H200 traces, from their raw events with Python's json and
gzip only (independently of dtsim's reader): the GPU time of the kernels launched by
matrix-product operators (aten::mm, addmm, bmm, ...) and by attention operators, each
kernel tied to its operator through the launch's correlation and External id, and each
kernel to the step during which the CPU launched it (the CPU's ProfilerStep range).
tests/tst_measure compares `dtsim-cli calibrate`'s figures with these.

    tests/measurements/h200-pytorch/step_figures.py tests/measurements/h200-pytorch > \\
        tests/measurements/h200-pytorch/expected-steps.json
"""
import gzip, json, os, sys

GEMM_OPS = {"aten::mm", "aten::addmm", "aten::_addmm_activation", "aten::bmm", "aten::baddbmm", "aten::addbmm",
            "aten::_scaled_mm", "aten::_grouped_mm", "aten::_scaled_grouped_mm", "aten::mv", "aten::addmv", "aten::_int_mm"}


def figures(path):
    events = json.load(gzip.open(path))["traceEvents"]
    ops, launch = {}, {}
    for e in events:
        args = e.get("args", {})
        if e.get("cat") == "cpu_op" and "External id" in args:
            ops[args["External id"]] = e["name"]
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in args:
            launch[args["correlation"]] = (e["ts"], args.get("External id"))
    steps = sorted((e["ts"], e["dur"], e["name"]) for e in events
                   if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#"))
    out = [{"name": n, "gemm_s": 0.0, "attention_s": 0.0, "gemm_kernels": 0} for _, _, n in steps]
    for e in events:
        if e.get("cat") != "kernel":
            continue
        ts, ext = launch.get(e["args"].get("correlation"), (None, None))
        op = ops.get(ext)
        if ts is None or op is None:
            continue
        for i, (start, dur, _) in enumerate(steps):
            if start <= ts < start + dur:
                if op in GEMM_OPS:
                    out[i]["gemm_s"] += e["dur"] * 1e-6
                    out[i]["gemm_kernels"] += 1
                elif "attention" in op:
                    out[i]["attention_s"] += e["dur"] * 1e-6
                break
    return out


if __name__ == "__main__":
    folder = sys.argv[1]
    json.dump({f: figures(os.path.join(folder, f)) for f in sorted(os.listdir(folder)) if f.endswith(".trace.json.gz")},
              sys.stdout, indent=1, sort_keys=True)
    print()
