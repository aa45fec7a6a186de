#!/usr/bin/env python3
"""Fit the rowwise FP8 recipe's GEMM speedup to the torchao float8 README's benchmark.

The README measures torchtitan Llama3-8B on 8 x H100 at 7689.5 tokens/s with tensorwise
scaling and 6768 with rowwise (ratio 0.880). This bisects scaling_recipes.rowwise.speedup
in a copy of resources/calibration/default.yaml until dtsim gives that ratio on the same
setup (recipes/torchao-llama3-8b-8xh100.yaml), and prints the value that goes into
default.yaml. A microbenchmark of the framework authors, not a validation row.

usage: fit_recipe.py CLI
"""
import json, os, subprocess, sys, tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCENARIO = os.path.join(HERE, "recipes", "torchao-llama3-8b-8xh100.yaml")
TARGET = 6768.0 / 7689.5
TENSORWISE = ("training.scaling=tensorwise", "training.fp8_param_gather=true")  # "with float8 all-gather"


def tokens_per_s(cli, data, *settings):
    sets = [arg for setting in settings for arg in ("--set", setting)]
    out = subprocess.run([cli, "simulate", SCENARIO, "--json", "--data", data] + sets,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["tokens_per_s"]


def main():
    cli = sys.argv[1]
    with open(os.path.join(ROOT, "resources/calibration/default.yaml")) as f:
        cal = yaml.safe_load(f)
    with tempfile.TemporaryDirectory() as folder:
        os.makedirs(os.path.join(folder, "resources/calibration"))
        for entry in os.listdir(os.path.join(ROOT, "resources")):
            if entry != "calibration":
                os.symlink(os.path.join(ROOT, "resources", entry), os.path.join(folder, "resources", entry))
        os.symlink(os.path.join(ROOT, "presets"), os.path.join(folder, "presets"))
        lo, hi = 1.0, 2.0
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            cal["scaling_recipes"]["rowwise"]["speedup"]["value"] = mid
            with open(os.path.join(folder, "resources/calibration/default.yaml"), "w") as f:
                yaml.safe_dump(cal, f)
            ratio = tokens_per_s(cli, folder, "training.scaling=rowwise") / tokens_per_s(cli, folder, *TENSORWISE)
            lo, hi = (mid, hi) if ratio < TARGET else (lo, mid)
        print(f"rowwise speedup {0.5 * (lo + hi):.3f} gives rowwise/tensorwise {ratio:.4f} (target {TARGET:.4f})")
        bf16 = tokens_per_s(cli, folder, "training.precision=bf16")
        print(f"tensorwise over bf16: {tokens_per_s(cli, folder, *TENSORWISE) / bf16:.3f}"
              f" (README: {7689.5 / 6150:.3f})")


if __name__ == "__main__":
    main()
