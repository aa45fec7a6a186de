#!/usr/bin/env python3
"""Figures of the five real profiler traces in ../shared/profiles, computed from their raw
events with Python's own json and gzip (independently of dtsim's streaming reader), for
tests/tst_measure.cpp to compare with `readKinetoTrace` + `summarizeProfile`.

    tests/profiles/expected_figures.py ../shared/profiles > tests/profiles/expected.json

Rules (the same as dtsim's, written again here): complete events (ph "X") only; GPU
activity = cat kernel, gpu_memcpy, gpu_memset; ts and dur in microseconds; a kernel's
category from the CPU op that launched it (the launch's External id names a cpu_op:
aten::mm and the other products are gemm, ops named *attention* attention, *convolution*
convolution, fused and foreach optimizer ops optimizer, any other aten:: op
elementwise_norm), else from its lower-cased name, first match wins; only the CPU's
ProfilerStep range counts (not its gpu_user_annotation copy); an activity belongs to the
ProfilerStep during which its launch (cuda_runtime / cuda_driver event with the same
correlation) happened (none, when the trace records launches but not this one's: it was
launched before the recording started), or else the one its start falls in; times per GPU are unions of
intervals on the GPU with the most activities.
"""
import gzip, json, os, sys

RULES = [
    ("communication", ["nccl"]),
    ("optimizer", ["multi_tensor_apply", "adam", "sgd", "lamb", "optimizer"]),
    ("attention", ["flash", "fmha", "attention", "attn", "sdpa", "dot_do_o", "convert_dq"]),
    ("gemm", ["nvjet", "splitkreduce"]),
    ("convolution", ["conv", "fprop", "dgrad", "wgrad", "winograd", "scudnn"]),
    ("gemm", ["gemm", "cutlass", "cublas", "matmul"]),
    ("elementwise_norm", ["elementwise", "vectorized", "norm", "bn_", "moments", "gammabeta", "reduce", "softmax",
                          "dropout", "pool", "copy", "fill", "cat", "index", "scatter", "gather", "relu", "gelu", "silu",
                          "embedding", "loss", "triton"]),
    ("convolution", ["cudnn", "cask"]),
]
DTYPE = {"double": 8, "long": 8, "int64": 8, "float64": 8, "complexfloat": 8, "float": 4, "int": 4, "float32": 4, "int32": 4,
         "half": 2, "bfloat16": 2, "short": 2, "float16": 2, "int16": 2, "byte": 1, "char": 1, "bool": 1, "int8": 1, "uint8": 1}


GEMM_OPS = {"aten::mm", "aten::addmm", "aten::_addmm_activation", "aten::bmm", "aten::baddbmm", "aten::addbmm",
            "aten::_scaled_mm", "aten::_grouped_mm", "aten::_scaled_grouped_mm", "aten::mv", "aten::addmv", "aten::_int_mm"}


def category(name):
    n = name.lower()
    for cat, keys in RULES:
        # "convert" is not a convolution (cuDNN's attention helper convert_dq_to_16bits)
        if any(k in n.replace("convert", "") for k in keys):
            return cat
    return "other"


def op_category(op):
    if not op.startswith("aten::") and "flash_attn" not in op:
        return None
    if op in GEMM_OPS:
        return "gemm"
    if "attention" in op or "flash_attn" in op:
        return "attention"
    if "convolution" in op:
        return "convolution"
    if "_fused_adam" in op or "_fused_sgd" in op or "_foreach_" in op:
        return "optimizer"
    return "elementwise_norm"


def collective(name, coll):
    n = (coll or name).lower().replace("_", "")
    for t in ["allreduce", "allgather", "reducescatter", "alltoall", "sendrecv", "broadcast"]:
        if t in n:
            return t
    if "send" in n or "recv" in n:
        return "sendrecv"
    if "reduce" in n:
        return "reduce"
    return coll.lower() if coll else "other"


def union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def total(iv):
    return sum(e - s for s, e in iv)


def common(a, b):
    s, i, j = 0.0, 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            s += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return s


def times(acts):
    if not acts:
        return {"span_s": 0, "busy_s": 0, "compute_s": 0, "communication_s": 0, "overlapped_s": 0}
    iv = [(a["start"], a["start"] + a["dur"]) for a in acts]
    comp = union([(a["start"], a["start"] + a["dur"]) for a in acts if a["cat"] not in ("communication", "memcpy", "memset")])
    comm = union([(a["start"], a["start"] + a["dur"]) for a in acts if a["cat"] == "communication"])
    return {"span_s": max(e for _, e in iv) - min(s for s, _ in iv), "busy_s": total(union(iv)), "compute_s": total(comp),
            "communication_s": total(comm), "overlapped_s": common(comp, comm)}


def figures(path):
    doc = json.load(gzip.open(path))
    events = doc["traceEvents"]
    acts, steps, launch, launch_op, ops = [], [], {}, {}, {}
    for e in events:
        if e.get("ph") != "X":
            continue
        cat, name, args = e.get("cat"), e.get("name", ""), e.get("args", {})
        if cat == "cpu_op" and "External id" in args:
            ops[args["External id"]] = name
        if cat in ("cuda_runtime", "cuda_driver") and "correlation" in args:
            launch[args["correlation"]] = e["ts"] * 1e-6
            if "External id" in args:
                launch_op[args["correlation"]] = args["External id"]
        elif name.startswith("ProfilerStep#") and cat != "gpu_user_annotation":
            steps.append((e["ts"] * 1e-6, e["dur"] * 1e-6, name))
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            c = {"gpu_memcpy": "memcpy", "gpu_memset": "memset"}.get(cat) or category(name)
            a = {"start": e["ts"] * 1e-6, "dur": e["dur"] * 1e-6, "cat": c, "device": args.get("device", 0),
                 "corr": args.get("correlation", -1)}
            if c == "communication":
                a["coll"] = collective(name, args.get("Collective name", ""))
                nel, size = args.get("In msg nelems"), DTYPE.get(str(args.get("dtype", "")).lower(), 0)
                a["bytes"] = nel * size if nel is not None and size else 0
            acts.append(a)
    for a in acts:  # the launching op's category, where the trace names the op
        if a["cat"] in ("memcpy", "memset", "communication"):
            continue
        op = ops.get(launch_op.get(a["corr"]))
        c = op_category(op) if op is not None else None
        if c:
            a["cat"] = c
    per_dev = {}
    for a in acts:
        per_dev[a["device"]] = per_dev.get(a["device"], 0) + 1
    dev = max(sorted(per_dev), key=lambda d: per_dev[d]) if per_dev else 0
    mine = [a for a in acts if a["device"] == dev]
    cats = {}
    for a in mine:
        c = cats.setdefault(a["cat"], {"gpu_s": 0.0, "count": 0})
        c["gpu_s"] += a["dur"]
        c["count"] += 1
    colls = {}
    for a in mine:
        if a["cat"] == "communication":
            k = colls.setdefault(a["coll"], {"count": 0, "gpu_s": 0.0, "bytes": 0.0})
            k["count"] += 1
            k["gpu_s"] += a["dur"]
            k["bytes"] += a["bytes"]
    steps.sort()
    by_step = [[] for _ in steps]
    for a in mine:
        if a["corr"] != -1 and a["corr"] not in launch and launch:
            continue  # launched before the recording started
        at = launch.get(a["corr"], a["start"])
        for i, (s, d, _) in enumerate(steps):
            if s <= at < s + d:
                by_step[i].append(a)
                break
    return {"events": len(events), "device": dev, "activities": len(mine), "categories": cats, "collectives": colls,
            "whole": times(mine), "steps": [dict(times(b), name=n, activities=len(b)) for (_, _, n), b in zip(steps, by_step)]}


if __name__ == "__main__":
    folder = sys.argv[1]
    out = {f: figures(os.path.join(folder, f)) for f in sorted(os.listdir(folder)) if f.endswith(".json.gz")}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
