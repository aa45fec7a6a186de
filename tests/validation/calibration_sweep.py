#!/usr/bin/env python3
"""Explore shared calibration constants against a published-runs file.

Writes a temporary data folder whose calibration differs from resources/calibration/
default.yaml by the given overrides, runs `dtsim-cli validate --json`, and prints the
error statistics. Used to study which physical constants the data constrain; the
chosen values go into default.yaml with their sources (docs/validation.md).

usage: calibration_sweep.py CLI RUNS [key=value ...]
  key: a top-level calibration key (kernel_overhead=5us) or GENERATION.field
       (hopper.peak_fraction=0.7)
"""
import json, os, subprocess, sys, tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def write_data(overrides, folder):
    with open(os.path.join(ROOT, "resources/calibration/default.yaml")) as f:
        cal = yaml.safe_load(f)
    for key, value in overrides.items():
        if "." in key:
            gen, field = key.split(".", 1)
            entries = [g for g in cal["gemm"] if g["generation"] == gen] if gen != "fallback" else [cal["fallback"]]
            for e in entries:
                e[field]["value"] = value
        elif key in cal:
            cal[key]["value"] = value
        else:  # a constant the file does not have yet
            cal[key] = {"value": value, "source": "calibration_sweep.py trial"}
    os.makedirs(os.path.join(folder, "resources/calibration"), exist_ok=True)
    # Everything but the calibration is the project's own (the CLI loads all of it).
    for entry in os.listdir(os.path.join(ROOT, "resources")):
        if entry != "calibration":
            os.symlink(os.path.join(ROOT, "resources", entry), os.path.join(folder, "resources", entry))
    with open(os.path.join(folder, "resources/calibration/default.yaml"), "w") as f:
        yaml.safe_dump(cal, f)


def run(cli, runs, overrides):
    with tempfile.TemporaryDirectory() as folder:
        write_data(overrides, folder)
        out = subprocess.run([cli, "validate", runs, "--json", "--data", folder], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def parse(v):
    try:
        return float(v)
    except ValueError:
        return v


if __name__ == "__main__":
    cli, runs = sys.argv[1], sys.argv[2]
    overrides = dict((k, parse(v)) for k, v in (a.split("=", 1) for a in sys.argv[3:]))
    r = run(cli, runs, overrides)
    g = r["good"]
    print(f"good n={g['count']} median={g['median_abs_rel_error']:.3f} p90={g['p90_abs_rel_error']:.3f} max={g['max_abs_rel_error']:.3f}")
    for src, s in sorted(r["per_source"].items()):
        if s["good"]["count"]:
            print(f"  {src:12s} n={s['good']['count']:3d} median={s['good']['median_abs_rel_error']:.3f}")
