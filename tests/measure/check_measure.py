# dtsim-measure on a CPU (Debian's python3-torch): the tiny scenarios beside this file are
# built with the parameters dtsim counts (the script refuses otherwise), stepped, traced
# and written; what it writes reads back into dtsim-cli; bad input exits 2 with the field.
# Usage: python3 check_measure.py DTSIM-CLI DTSIM-MEASURE SOURCE-DIR
import json
import os
import subprocess
import sys
import tempfile

cli, measure, root = sys.argv[1:4]
here = os.path.join(root, "tests", "measure")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(args):
    return subprocess.run([sys.executable, measure] + args + ["--dtsim-cli", cli, "--device", "cpu"], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    for name in ("tiny-llama", "tiny-gpt-moe"):
        out = os.path.join(tmp, name)
        r = run([os.path.join(here, name + ".yaml"), "--out", out, "--steps", "3", "--warmup", "1"])
        check(r.returncode == 0, f"{name}: runs ({r.stderr.strip()[-400:]})")
        if r.returncode != 0:
            continue
        row = json.load(open(os.path.join(out, "measured.json")))
        sim = json.loads(subprocess.run([cli, "simulate", os.path.join(here, name + ".yaml"), "--json"],
                                        capture_output=True, text=True, check=True).stdout)
        check(row["params"] == round(sim["parameters"]), f"{name}: {row['params']} parameters, dtsim counts {sim['parameters']:.0f}")
        check(0 < row["s_min"] <= row["s"] <= row["s_max"], f"{name}: step times ordered ({row['s_min']}, {row['s']}, {row['s_max']})")
        check(abs(row["tokens_per_s"] * row["s"] - row["micro_batch"] * row["seq"]) < 1e-6, f"{name}: tokens/s is the step's")
        # The scenario written beside it is the one measured.
        again = json.loads(subprocess.run([cli, "simulate", os.path.join(out, "scenario.yaml"), "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        check(again["step_time_s"] == sim["step_time_s"], f"{name}: scenario.yaml simulates as the original")
        # The trace reads back, one entry per ProfilerStep of the three recorded.
        t = subprocess.run([cli, "calibrate", os.path.join(out, "trace.json.gz"), "--json"], capture_output=True, text=True)
        check(t.returncode == 0, f"{name}: dtsim-cli calibrate reads the trace ({t.stderr.strip()[-300:]})")
        if t.returncode == 0:
            summary = json.loads(t.stdout)
            check(summary["step_count"] == 3, f"{name}: {summary['step_count']} profiler steps in the trace")
            check(summary["events"] > 100, f"{name}: {summary['events']} events")

    # Bad input: exit 2, naming the field.
    r = run([os.path.join(root, "presets", "alexnet-2012-gtx580.yaml"), "--out", os.path.join(tmp, "bad")])
    check(r.returncode == 2 and "model.table" in r.stderr, f"a layer table is refused with its field ({r.stderr.strip()})")
    r = run([os.path.join(here, "tiny-llama.yaml"), "--out", os.path.join(tmp, "bad"), "--set", "training.precision=fp8",
             "--set", "training.autocast=false"])
    check(r.returncode == 2 and "dtsim-measure: training.precision" in r.stderr, f"fp8 is refused with its field ({r.stderr.strip()})")
    r = run([os.path.join(here, "tiny-llama.yaml"), "--out", os.path.join(tmp, "bad"), "--set", "model.layers=0"])
    check(r.returncode == 2 and "model.layers" in r.stderr, f"dtsim-cli's own refusal passes through ({r.stderr.strip()})")
    r = run([os.path.join(here, "tiny-llama.yaml"), "--out", os.path.join(tmp, "bad"), "--steps", "0"])
    check(r.returncode == 2 and "--steps" in r.stderr, f"--steps 0 is refused ({r.stderr.strip()})")

sys.exit(1 if failures else 0)
