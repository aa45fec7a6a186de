#!/usr/bin/env python3
"""Writes the sample nccl-tests logs in tests/nccl. They are SYNTHETIC, not measurements:
no licence-clean public log was at hand, so these follow the table layout nccl-tests
documents (README.md and doc/PERFORMANCE.md of github.com/NVIDIA/nccl-tests: size, count,
type, redop, root, then time (us), algbw and busbw (GB/s) and #wrong for out-of-place and
in-place) with times from a stated model, so a test can check that the fit recovers it.

The model: NCCL picks a protocol by message size (NCCL_PROTO: LL for small messages,
LL128, then Simple), each a straight line t = latency + factor * S / busbw with its own
latency and bandwidth; a deterministic +-2% ripple stands in for run-to-run noise.

    tests/nccl/make_sample_logs.py tests/nccl
"""
import math, os, random, sys

LOGS = {
    # file: (binary, ranks, dtype bytes, redop, [(up to bytes, latency us, busbw GB/s)], host lines)
    "all_reduce_perf-8xh100.log": ("all_reduce_perf", 8, 4, "sum",
                                   [(65536, 9.0, 40.0), (4194304, 16.0, 160.0), (1 << 40, 35.0, 360.0)], 8),
    "all_gather_perf-16gpu-2nodes.log": ("all_gather_perf", 16, 4, "none",
                                         [(262144, 20.0, 8.0), (1 << 40, 60.0, 42.0)], 16),
}


def factor(binary, n):
    if binary == "all_reduce_perf":
        return 2 * (n - 1) / n
    return (n - 1) / n


def write(path, binary, n, esize, redop, protocols, ranks):
    rnd = random.Random(path)
    f = factor(binary, n)
    out = [f"# synthetic nccl-tests log written by tests/nccl/make_sample_logs.py (a stated model, not a measurement)",
           f"# {binary} -b 8 -e 8G -f 2 -g 1",
           "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
           "#", "# Using devices"]
    for r in range(ranks):
        out.append(f"#  Rank {r:2d} Group  0 Pid {1000 + r:6d} on node{r // 8} device {r % 8:2d} [0x{r:02x}] sample GPU")
    out += ["#",
            "#                                                              out-of-place                       in-place",
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)"]
    size = 8
    while size <= 8 << 30:
        lat, bw = next((l, b) for up, l, b in protocols if size < up)
        row = []
        for _ in range(2):  # out-of-place, in-place
            t = (lat * 1e-6 + f * size / (bw * 1e9)) * (1 + rnd.uniform(-0.02, 0.02))
            algbw = size / t / 1e9
            row += [f"{t * 1e6:8.2f}", f"{algbw:7.2f}", f"{algbw * f:7.2f}", "     0"]
        out.append(f"{size:12d}  {size // esize:12d}     float  {redop:>6s}      -1 " + " ".join(row))
        size *= 2
    out += ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : (not computed for the sample)", "#"]
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


if __name__ == "__main__":
    folder = sys.argv[1]
    for name, (binary, n, esize, redop, protocols, ranks) in LOGS.items():
        write(os.path.join(folder, name), binary, n, esize, redop, protocols, ranks)
