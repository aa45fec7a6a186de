#!/usr/bin/env python3
"""Print the markdown tables of docs/validation.md from `dtsim-cli validate --json`.

usage: dtsim-cli validate tests/validation/published-runs.yaml --json | validation_tables.py
"""
import json, sys


def pct(x):
    return f"{x * 100:.1f}%"


r = json.load(sys.stdin)
print("| rows | count | median abs. error | p90 | max |")
print("|---|---:|---:|---:|---:|")
for name, key in (("`quality: good`", "good"), ("all", "all")):
    s = r[key]
    print(f"| {name} | {s['count']} | {pct(s['median_abs_rel_error'])} | {pct(s['p90_abs_rel_error'])} | {pct(s['max_abs_rel_error'])} |")
print()
print("| source | good runs | median | p90 | all runs | median | p90 |")
print("|---|---:|---:|---:|---:|---:|---:|")
for src, s in sorted(r["per_source"].items()):
    g, a = s["good"], s["all"]
    print(f"| {src} | {g['count']} | {pct(g['median_abs_rel_error'])} | {pct(g['p90_abs_rel_error'])} | {a['count']} | {pct(a['median_abs_rel_error'])} | {pct(a['p90_abs_rel_error'])} |")
print()
print("| id | quality | reported | predicted | error |")
print("|---|---|---:|---:|---:|")
for x in r["runs"]:
    if x.get("skipped"):
        continue
    print(f"| {x['id']} | {x['quality']} | {x['reported_tokens_per_s_per_gpu']:.0f} | {x['predicted_tokens_per_s_per_gpu']:.0f} | {x['rel_error'] * 100:+.1f}% |")
