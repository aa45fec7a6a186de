#!/usr/bin/env python3
"""Regenerate the figures in docs/ and README.md that the program computes (validation,
model, calibration, reliability, cost, frontier, cluster, timeline, layers, frameworks) and
the field tables of docs/scenario.md from the engine.

Every block between `<!-- BEGIN generated:NAME -->` and `<!-- END generated:NAME -->`
is rewritten from what `dtsim-cli` prints for the shipped presets and data (validate,
simulate, run, cost, search, frontier, cluster, trace, calibrate, gemm, models, fields)
or from resources/calibration/default.yaml (docs/model.md's constants). The prose around
the blocks is hand-written and states no figure the program computes; run this after
every engine or data change (the `docs_current` test runs it with --check).

usage: update_docs.py CLI [--check]
  --check: exit 1 if a document would change, without writing it.
Needs only the Python standard library.
"""
import json
import statistics, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from convergence_docs import convergence_blocks  # noqa: E402  (docs/convergence.md)
from offload_docs import offload_blocks  # noqa: E402  (docs/model.md, "Offload")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RUNS = os.path.join(ROOT, "tests/validation/published-runs.yaml")
LAYER_RUNS = os.path.join(ROOT, "tests/validation/layer-table-runs.yaml")
COMPRESSION_RUNS = os.path.join(ROOT, "tests/validation/compression-runs.yaml")
SHARED = os.path.join(ROOT, "..", "shared", "validation", "published-runs.yaml")

# Issue 20's targets on `quality: good` rows.
TARGETS = {"median": 0.04, "p90": 0.10, "source": 0.08, "moe": 0.10, "blackwell": 0.08}


def pct(x):
    return f"{x * 100:.1f}%"


def pct2(x):
    return f"{x * 100:.2f}%"


def pct3(x):
    # The targets table: enough digits that a miss by a hair does not print as the target.
    return f"{x * 100:.3f}%"


def stats_row(name, s):
    return f"| {name} | {s['count']} | {pct(s['median_abs_rel_error'])} | {pct(s['p90_abs_rel_error'])} | {pct(s['max_abs_rel_error'])} |"


def summary_lines(v):
    lines = ["| rows | count | median abs. error | p90 | max |", "|---|---:|---:|---:|---:|"]
    lines.append(stats_row("`quality: good`", v["good"]))
    lines.append(stats_row("all", v["all"]))
    lines.append(stats_row("good, mixture of experts", v["good_moe"]))
    lines.append(stats_row("good, Blackwell (B200, GB200, B300, GB300)", v["good_blackwell"]))
    lines.append(stats_row("peak memory per GPU, rows that state it", v["memory"]))
    lines.append("")
    big_sources = {k: s["good"] for k, s in v["per_source"].items() if s["good"]["count"] >= 3}
    over = [f"{k} {pct(s['median_abs_rel_error'])}" for k, s in sorted(big_sources.items())
            if s["median_abs_rel_error"] > TARGETS["source"]]
    checks = [
        ("good median <= 4%", v["good"]["median_abs_rel_error"] <= TARGETS["median"], pct3(v["good"]["median_abs_rel_error"])),
        ("good p90 <= 10%", v["good"]["p90_abs_rel_error"] <= TARGETS["p90"], pct3(v["good"]["p90_abs_rel_error"])),
        ("every source with 3+ good rows <= 8%", not over, ", ".join(over) if over else f"{len(big_sources)} sources"),
        ("MoE rows median <= 10%", v["good_moe"]["median_abs_rel_error"] <= TARGETS["moe"], pct3(v["good_moe"]["median_abs_rel_error"])),
        ("Blackwell rows median <= 8%", v["good_blackwell"]["median_abs_rel_error"] <= TARGETS["blackwell"], pct3(v["good_blackwell"]["median_abs_rel_error"])),
        ("no good row skipped", not any(r["skipped"] and r["quality"] == "good" for r in v["runs"]), ""),
        ("no good row out of memory", v["good_out_of_memory"] == 0, str(v["good_out_of_memory"])),
    ]
    lines += ["| issue 20 target | met | now |", "|---|---|---|"]
    lines += [f"| {name} | {'yes' if ok else '**no**'} | {now} |" for name, ok, now in checks]
    return lines


def validation_blocks(v, shared):
    good = [r for r in v["runs"] if r["quality"] == "good" and not r["skipped"]]
    blocks = {}
    lines = summary_lines(v)
    skipped = [r for r in v["runs"] if r["skipped"]]
    lines += ["", f"{len(skipped)} rows are skipped, each for a stated reason: "
              + "; ".join(f"`{r['id']}` ({r['skip_reason']})" for r in skipped) + "."]
    blocks["summary"] = lines
    if shared is not None:
        blocks["issue-file"] = summary_lines(shared)

    lines = ["| source | good runs | median | p90 | all runs | median | p90 |", "|---|---:|---:|---:|---:|---:|---:|"]
    for src, s in sorted(v["per_source"].items()):
        g, a = s["good"], s["all"]
        lines.append(f"| {src} | {g['count']} | {pct(g['median_abs_rel_error'])} | {pct(g['p90_abs_rel_error'])} "
                     f"| {a['count']} | {pct(a['median_abs_rel_error'])} | {pct(a['p90_abs_rel_error'])} |")
    blocks["per-source"] = lines

    worst = sorted((r for r in good if abs(r["rel_error"]) > 0.10), key=lambda r: -abs(r["rel_error"]))
    lines = [f"{len(worst)} of {len(good)} good rows miss by more than 10%:", "",
             "| id | reported | predicted | error |", "|---|---:|---:|---:|"]
    lines += [f"| {r['id']} | {r['reported_tokens_per_s_per_gpu']:.0f} | {r['predicted_tokens_per_s_per_gpu']:.0f} | {r['rel_error'] * 100:+.1f}% |"
              for r in worst]
    blocks["worst"] = lines

    lines = ["| id | reported GiB | predicted GiB | error |", "|---|---:|---:|---:|"]
    lines += [f"| {r['id']} | {r['reported_memory_gib']:.1f} | {r['predicted_memory_gib']:.1f} | {r['memory_rel_error'] * 100:+.1f}% |"
              for r in v["runs"] if not r["skipped"] and r.get("reported_memory_gib") is not None]
    blocks["memory"] = lines

    lines = ["| id | quality | reported | predicted | error | memory GiB |", "|---|---|---:|---:|---:|---:|"]
    for r in v["runs"]:
        if r["skipped"]:
            continue
        mem = f"{r['predicted_memory_gib']:.1f}" + ("" if r["predicted_fits_in_memory"] else " (does not fit)")
        lines.append(f"| {r['id']} | {r['quality']} | {r['reported_tokens_per_s_per_gpu']:.0f} "
                     f"| {r['predicted_tokens_per_s_per_gpu']:.0f} | {r['rel_error'] * 100:+.1f}% | {mem} |")
    blocks["full-table"] = lines
    return blocks


def readme_fidelity(v, shared):
    """README.md: one paragraph of the validation figures."""
    g = v["good"]
    text = (f"median {pct(g['median_abs_rel_error'])} error in tokens/s per GPU on {g['count']} good rows of "
            f"`tests/validation/published-runs.yaml`, p90 {pct(g['p90_abs_rel_error'])}")
    s = shared["good"]
    text += (f"; on the {s['count']} good rows of the shared public file, median "
             f"{pct(s['median_abs_rel_error'])} and p90 {pct(s['p90_abs_rel_error'])}, mixture-of-experts "
             f"{pct(shared['good_moe']['median_abs_rel_error'])}, Blackwell "
             f"{pct(shared['good_blackwell']['median_abs_rel_error'])}")
    return [text + "."]


def layer_classes(rows):
    """Groups layer-table rows by stack, precision and scale, to show where the error lives."""
    classes = {}
    for r in rows:
        rid = r["id"]
        stack = ("DeepLearningExamples " + rid.split("-")[2]) if rid.startswith("dle-") else (
            "MLPerf BERT-large (PyTorch)" if "-bert-" in rid else
            "MLPerf DLRM (HugeCTR)" if "-dlrm-" in rid else
            "MLPerf ResNet-50 (MXNet, fused, graphs from v0.7)" if rid.startswith("mlperf") else "paper")
        precision = ("fp32" if "fp32" in rid else "tf32" if "tf32" in rid else "fp16 or fp8 (H100, H200)" if "-bert-" in rid
                     else "amp" if stack != "paper" else "fp32")
        scale = "one node" if r["gpus"] <= 16 else "multi-node"
        classes.setdefault(f"{stack}, {precision}, {scale}", []).append(r)
    return classes


def layer_table_blocks(v):
    """docs/validation.md, "Beyond transformers": the layer-table rows (issue 26)."""
    good = [r for r in v["runs"] if r["quality"] == "good" and not r["skipped"]]
    g = v["good"]
    lines = ["| rows | count | median abs. error | p90 | max |", "|---|---:|---:|---:|---:|",
             stats_row("`quality: good`", g), "",
             "| issue 26 target | met | now |", "|---|---|---|",
             f"| at least 20 published non-transformer runs | {'yes' if g['count'] >= 20 else '**no**'} | {g['count']} |",
             f"| median error within 15% | {'yes' if g['median_abs_rel_error'] <= 0.15 else '**no**'} | {pct2(g['median_abs_rel_error'])} |",
             "", "| source | good runs | median | p90 |", "|---|---:|---:|---:|"]
    for src, s in sorted(v["per_source"].items()):
        lines.append(f"| {src} | {s['good']['count']} | {pct(s['good']['median_abs_rel_error'])} | {pct(s['good']['p90_abs_rel_error'])} |")
    lines += ["", "| class (stack, precision, scale) | good runs | median signed error | range |", "|---|---:|---:|---|"]
    for name, rows in sorted(layer_classes(good).items()):
        e = sorted(r["rel_error"] for r in rows)
        lines.append(f"| {name} | {len(rows)} | {statistics.median(e) * 100:+.1f}% | {e[0] * 100:+.1f}% to {e[-1] * 100:+.1f}% |")
    lines += ["", "| id | reported samples/s per GPU | predicted | error | memory GiB |", "|---|---:|---:|---:|---:|"]
    for r in good:
        lines.append(f"| {r['id']} | {r['reported_tokens_per_s_per_gpu']:.0f} | {r['predicted_tokens_per_s_per_gpu']:.0f} "
                     f"| {r['rel_error'] * 100:+.1f}% | {r['predicted_memory_gib']:.1f} |")
    skipped = [r for r in v["runs"] if r["skipped"]]
    if skipped:
        lines += ["", "Skipped: " + "; ".join(f"`{r['id']}` ({r['skip_reason']})" for r in skipped) + "."]
    return {"layer-tables": lines}


def alexnet_blocks(cli):
    """docs/frontier.md: the GTX 580 counterfactual checked against AlexNet (issue 26)."""
    preset = os.path.join(ROOT, "presets/alexnet-2012-gtx580.yaml")

    def run(*sets):
        args = [cli, "simulate", preset, "--json"]
        for s in sets:
            args += ["--set", s]
        return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)

    base = run()
    days = base["time_to_train_s"] / 86400
    lines = [f"dtsim predicts **{days:.2f} days** for AlexNet's 90 epochs on two GTX 580 "
             f"(`dtsim-cli simulate alexnet-2012-gtx580`; the paper: five to six days), at "
             f"{100 * base['mfu']:.1f}% of the cards' FP32 peak.", "",
             "| GTX 580s | global batch | time to train | MFU | exposed data-parallel share |", "|---:|---:|---:|---:|---:|"]
    for gpus in (2, 32, 512, 8192):
        r = run(f"cluster.gpus={gpus}", f"parallel.dp={gpus // 2}", f"training.global_batch={64 * gpus}") if gpus > 2 else base
        dp = r["breakdown"]["dp_comm"] / r["step_time_s"]
        t = r["time_to_train_s"]
        when = f"{t / 86400:.2f} days" if t >= 86400 else f"{t / 3600:.2f} h" if t >= 3600 else f"{t / 60:.1f} min"
        lines.append(f"| {gpus:,} | {64 * gpus:,} | {when} | {100 * r['mfu']:.1f}% | {100 * dp:.1f}% |")
    peak = base["model_flops_per_step"] / base["step_time_s"] / base["mfu"] / base["gpus"]  # FLOP/s of one card
    flop = 16e6 * peak * base["mfu"] * 90 * 86400
    alexnet = base["model_flops_per_step"] * base["steps"]
    lines += ["", f"Sixteen million of them for three months, at the utilization AlexNet itself reaches, deliver "
              f"{flop:.1e} FLOP: {flop / alexnet:.1e} AlexNet trainings ({alexnet:.1e} FLOP each)."]
    return {"gtx580-alexnet": lines}


CONSTANT = re.compile(r'^(\s*)([a-z0-9_]+): \{value: ("?[^,"]*"?), source: "(.*)"\}\s*$')


def calibration_blocks():
    """The calibration file's constants, one table row each, in file order."""
    lines = ["| section | constant | value | source |", "|---|---|---|---|"]
    section = "shared"
    with open(os.path.join(ROOT, "resources/calibration/default.yaml")) as f:
        for raw in f:
            gen = re.match(r"^\s*- generation: (\S+)", raw)
            if gen:
                section = gen.group(1)
                continue
            head = re.match(r"^([a-z_]+):\s*$", raw)
            if head:
                section = head.group(1)
                continue
            recipe = re.match(r"^  ([a-z0-9_]+):\s*$", raw)
            if recipe and section in ("scaling_recipes",):
                section = f"scaling_recipes.{recipe.group(1)}"
                continue
            if recipe and section.startswith("scaling_recipes."):
                section = f"scaling_recipes.{recipe.group(1)}"
                continue
            m = CONSTANT.match(raw)
            if not m:
                continue
            indent, key, value, source = m.groups()
            where = section if indent else "shared"
            if not indent:
                section = "shared"
            lines.append(f"| {where} | `{key}` | {value.strip(chr(34))} | {source.replace('|', '/')} |")
    return {"calibration": lines}


def extrapolation_blocks(x):
    """docs/calibration.md: calibrate on each model-and-stack's smallest run, predict the rest."""
    b, a = x["before"], x["after"]
    lines = [f"Over {a['count']} larger runs in {len(x['groups'])} groups, |error| of tokens/s per GPU:", "",
             "| | median | p90 | max |", "|---|---|---|---|",
             f"| shipped calibration | {pct(b['median_abs_rel_error'])} | {pct(b['p90_abs_rel_error'])} | {pct(b['max_abs_rel_error'])} |",
             f"| fitted on the group's smallest run | {pct(a['median_abs_rel_error'])} | {pct(a['p90_abs_rel_error'])} | {pct(a['max_abs_rel_error'])} |"]
    if x["not_fitted"]:
        lines += ["", "Not fitted (no compute speed within x0.1-x10 reproduces the smallest run): "
                  + "; ".join(f"`{k}`" for k in x["not_fitted"]) + "."]
    table = ["| group (source, model, GPU) | fitted on | compute x | run | GPUs | error before | after |",
             "|---|---|---|---|---|---|---|"]
    for g in x["groups"]:
        src, model, gpu = [p.strip() for p in g["key"].split("|")][:3]
        for r in g["runs"]:
            table.append(f"| {src}, {model}, {gpu} | {g['fitted_on']} ({g['fitted_gpus']}) | {g['compute_scale']:.3f} | "
                         f"{r['id']} | {r['gpus']} | {r['error_before'] * 100:+.1f}% | {r['error_after'] * 100:+.1f}% |")
    return {"extrapolation-summary": lines, "extrapolation-table": table}


RATE_SETS = ["llama3-h100", "rsc1-a100", "rsc2-a100", "bloom-a100", "opt-a100"]
FAILURE_LOGS = os.path.join(ROOT, "tests/validation/failure-logs/published.json")


def reliability_blocks(cli):
    """Published failure logs against dtsim's prediction from every other fleet's census."""
    logs = json.load(open(FAILURE_LOGS))["runs"]
    head = "| run | counted | window | published | " + " | ".join(f"`{r}`" for r in RATE_SETS) + " |"
    lines = [head, "|---|---|---:|---:|" + "---:|" * len(RATE_SETS)]
    goodput = ["| run | published goodput | " + " | ".join(f"`{r}`" for r in RATE_SETS) + " |",
               "|---|---|" + "---:|" * len(RATE_SETS)]
    ratios = []
    for run in logs:
        counts, goods = [], []
        low, high = run["interruptions"]
        for rates in RATE_SETS:
            if rates == run["own_rates"]:
                counts.append("(own)")
                goods.append("(own)")
                continue
            out = subprocess.run([cli, "run", os.path.join(ROOT, run["scenario"]), "--set", f"reliability.failure_rates={rates}",
                                  "--trials", "200", "--json"], capture_output=True, text=True, check=True)
            r = json.loads(out.stdout)
            per_day = sum(r["failures_per_day"][c] for c in run["causes"])
            predicted = per_day * run["days"]
            mid = (low + high) / 2
            ratios.append(predicted / mid)
            counts.append(f"{predicted:.0f} ({predicted / mid:.2f}x)")
            goods.append(f"{100 * r['failure_free_time_s'] / r['expected_time_to_train_s']:.1f}%")
        published = f"{low}" if low == high else f"{low}-{high}"
        lines.append(f"| {run['name']} | {run['counted']} | {run['days']} days | {published} | " + " | ".join(counts) + " |")
        goodput.append(f"| {run['name']} | {run['goodput']} | " + " | ".join(goods) + " |")
    ratios.sort()
    summary = [f"Predicted over published, {len(ratios)} predictions: median {ratios[len(ratios) // 2]:.2f}x, "
               f"from {ratios[0]:.2f}x to {ratios[-1]:.2f}x."]
    sources = [f"- {run['name']}: {run['source']}" for run in logs]
    # Every recovery strategy on the chaos drill, without its chaos events.
    out = subprocess.run([cli, "run", os.path.join(ROOT, "presets/llama3-405b-chaos.yaml"), "--set", "reliability.chaos=[]",
                          "--trials", "300", "--json"], capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    strategies = ["| strategy | segment | storage interval | checkpoints | lost work | recovery | expected time |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
    for p in r["strategies"]:
        interval = p["storage_interval_s"]
        strategies.append(f"| `{p['name']}` | {p['segment_s']:.1f} s | {interval / 60:.1f} min | {pct2(p['checkpoint_overhead'])} | "
                          f"{pct2(p['lost_work_overhead'])} | {pct2(p['recovery_overhead'])} | {p['expected_time_to_train_s'] / 86400:.2f} days |")
    return {"failure-logs": lines + [""] + summary, "failure-goodput": goodput, "failure-sources": sources,
            "strategies-chaos": strategies}


RESIDUALS = os.path.join(ROOT, "resources/validation/residuals.yaml")


def residuals_text(v):
    """resources/validation/residuals.yaml: each good row's error, for the error bands."""
    lines = ["# dtsim's relative error (predicted / reported tokens/s per GPU - 1) on each `quality: good`",
             "# published run of tests/validation/published-runs.yaml: the data behind the error bands",
             "# (simcore/study/error_band.h). Generated by tests/validation/update_docs.py; do not edit.",
             "version: 1", "runs:"]
    for r in v["runs"]:
        if r["skipped"] or r["quality"] != "good":
            continue
        lines.append(f"  - {{id: {r['id']}, generation: {r['generation']}, moe: {str(r['moe']).lower()}, "
                     f"low_precision: {str(r['low_precision']).lower()}, gpus: {int(r['gpus'])}, error: {r['rel_error']:.6f}, "
                     f"source: \"dtsim-cli validate, tests/validation/published-runs.yaml row {r['id']}\"}}")
    return "\n".join(lines) + "\n"


def rewrite_residuals(v, check):
    text = residuals_text(v)
    old = open(RESIDUALS).read() if os.path.exists(RESIDUALS) else None
    if old == text:
        return False
    if not check:
        os.makedirs(os.path.dirname(RESIDUALS), exist_ok=True)
        with open(RESIDUALS, "w") as f:
            f.write(text)
    print(f"{'would rewrite' if check else 'rewrote'} {RESIDUALS}")
    return True


def one_gpu_blocks(cli):
    """docs/validation.md, "One real GPU": dtsim against tests/measurements/h200-pytorch."""
    folder = os.path.join(ROOT, "tests/measurements/h200-pytorch")
    results = json.load(open(os.path.join(folder, "results.json")))
    steps = ["| case | measured step | predicted | error | measured peak allocated | predicted | error |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        scenario = os.path.join(folder, "scenarios", r["case"] + ".yaml")
        if not os.path.exists(scenario):
            continue
        d = json.loads(subprocess.run([cli, "simulate", scenario, "--json"], capture_output=True, text=True, check=True).stdout)
        measured_mem = r["peak_alloc_gib"] * 2**30
        steps.append(f"| {r['case']} | {r['s'] * 1e3:.1f} ms | {d['step_time_s'] * 1e3:.1f} ms | {pct(d['step_time_s'] / r['s'] - 1)} "
                     f"| {r['peak_alloc_gib']:.2f} GiB | {d['memory_allocated_bytes'] / 2**30:.2f} GiB "
                     f"| {pct(d['memory_allocated_bytes'] / measured_mem - 1)} |")
    errors, long_errors, aligned = [], [], []
    for r in results:
        if r["case"] != "gemm" or r["dtype"] != "bf16":
            continue
        g = json.loads(subprocess.run([cli, "gemm", "h200", str(r["m"]), str(r["n"]), str(r["k"]), "--json"],
                                      capture_output=True, text=True, check=True).stdout)
        e = g["seconds"] / r["s"] - 1
        errors.append(abs(e))
        if r["s"] >= 1e-3:
            long_errors.append(abs(e))
        if r["m"] % 64 == 0 and r["n"] % 64 == 0 and r["k"] % 64 == 0:
            aligned.append(abs(e))
    med = lambda xs: statistics.median(xs) if xs else 0.0
    grid = [f"| GEMM grid (bf16, {len(errors)} shapes) | median error | max |", "|---|---:|---:|",
            f"| every shape | {pct(med(errors))} | {pct(max(errors))} |",
            f"| all dimensions multiples of 64 | {pct(med(aligned))} | {pct(max(aligned))} |",
            f"| products of 1 ms and longer (the per-call host round trip negligible) | {pct(med(long_errors))} | {pct(max(long_errors))} |"]
    return {"one-gpu-steps": steps, "one-gpu-gemm": grid, "one-gpu-trace-fit": trace_fit_rows(cli, folder, results)}


def trace_fit_rows(cli, folder, results):
    """Each trace's fitted kernel speeds, and the other measured steps simulated with them."""
    cases = [r for r in results if os.path.exists(os.path.join(folder, "scenarios", r["case"] + ".yaml"))
             and not r["case"].startswith("resnet")]
    header = "| kernel speeds | GEMM | attention | memory-bound | outside kernels | " + " | ".join(r["case"] for r in cases) + " |"
    rows = [header, "|---|---:|---:|---:|---:|" + "---:|" * len(cases)]

    def errors(overlay):
        out = []
        for r in cases:
            cmd = [cli, "simulate", os.path.join(folder, "scenarios", r["case"] + ".yaml"), "--json"]
            if overlay:
                cmd += ["--set", f"calibration={overlay}"]
            d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
            out.append(pct(d["step_time_s"] / r["s"] - 1))
        return " | ".join(out)

    rows.append("| shipped calibration | x1 | x1 | x1 | 10 ms | " + errors(None) + " |")
    with tempfile.TemporaryDirectory() as tmp:
        for trace in sorted(f for f in os.listdir(folder) if f.endswith(".trace.json.gz")):
            case = trace[: -len(".trace.json.gz")]
            overlay = os.path.join(tmp, case + ".yaml")
            fit = json.loads(subprocess.run([cli, "calibrate", os.path.join(folder, trace), "--scenario",
                                             os.path.join(folder, "scenarios", case + ".yaml"), "-o", overlay, "--json"],
                                            capture_output=True, text=True, check=True).stdout)
            rows.append(f"| fitted to the {case} trace | x{fit['gemm_scale']:.2f} | x{fit['attention_scale']:.2f} "
                        f"| x{fit['memory_scale']:.2f} | {fit['step_overhead_s'] * 1e3:.1f} ms | {errors(overlay)} |")
    return rows


def money(usd):
    """$1.39 M, $825 k, $83.0 M: three significant figures."""
    for div, unit in ((1e9, " B"), (1e6, " M"), (1e3, " k"), (1, "")):
        if usd >= div or div == 1:
            v = usd / div
            digits = 0 if v >= 100 else 1 if v >= 10 else 2
            return f"${v:,.{digits}f}{unit}"


def plan_text(p, gpus=True):
    """A search row as the docs write a plan: 512 GPUs TP 2 PP 8 DP 16 CP 2, ZeRO 2, interleaved."""
    parts = [f"{p['gpus']:,} GPUs"] if gpus else []
    parts += [f"{k.upper()} {p[k]}" for k in ("tp", "pp", "dp", "cp", "ep") if p[k] > 1]
    extras = []
    if p.get("micro_batch", 1) > 1:
        extras.append(f"micro-batch {p['micro_batch']}")
    if p["zero"]:
        extras.append(f"ZeRO {p['zero']}")
    if p["schedule"] == "interleaved":
        extras.append(f"interleaved v{p['virtual_stages']}")
    elif p["schedule"] != "1f1b":
        extras.append(p["schedule"])
    if p["recompute"] != "none":
        extras.append(f"{p['recompute']} recompute")
    if p.get("sequence_parallel") and p["tp"] > 1:
        extras.append("SP")
    return " ".join(parts) + (", " + ", ".join(extras) if extras else "")


COST_PRESETS = ["gpt3-175b-a100", "mixtral-8x7b-h100", "llama2-7b-8xa100", "llama3-405b-h100", "gtx580-2012"]


def cost_blocks(cli):
    """docs/cost.md: the cost search on the presets, and the Llama 3 run's price, energy and carbon."""
    def run(*args):
        return json.loads(subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout)
    lines = ["| preset | plan as given | naive plan | cheapest under the deadline | saving vs naive | vs given |",
             "|---|---|---|---|---|---|"]
    for preset in COST_PRESETS:
        fields = run("fields", "--of", preset)
        r = run("search", preset, "--objective", "cost")
        deadline = fields["training.deadline"] / 86400
        own = ", own" if fields.get("cost.ownership") == "own" else ""
        b, n, t = r["baseline"], r["naive"], r["top"][0]
        days = lambda p: f"{p['expected_time_s'] / 86400:.1f} days"
        lines.append(f"| {preset} ({deadline:.0f} days{own}) | {money(b['cost_usd'])}, {days(b)} | {plan_text(n)}: {money(n['cost_usd'])} | "
                     f"{plan_text(t)}: {money(t['cost_usd'])}, {days(t)} | {100 * r['saving_vs_naive']:.1f}% | {100 * r['saving_vs_given']:.1f}% |")
    rent = run("cost", "llama3-405b-h100")
    own = run("cost", "llama3-405b-h100", "--set", "cost.ownership=own")
    llama = [
        f"- Llama 3 405B, rented on demand: {money(rent['total_usd'])} for the preset's plan, {rent['energy_mwh']:,.0f} MWh at the wall,",
        f"  {rent['co2e_tonnes']:,.0f} t CO2e on the U.S. grid. Meta reports 39.3 M H100-hours for the Llama 3.1",
        "  family and 8,930 t CO2e location-based for 405B (GPU TDP only, no PUE and no hosts);",
        f"  dtsim's {rent['gpu_hours'] / 1e6:.1f} M GPU-hours include failures and spares, and its carbon includes hosts,",
        "  network and cooling.",
        f"- Owning the same cluster for the run costs {money(own['total_usd'])} (amortized hardware plus",
        f"  electricity) against {money(rent['total_usd'])} rented; dtsim does not value the hardware left afterwards",
        "  beyond the amortization, nor the cost of capital, staff or the building.",
    ]
    return {"cost-presets": lines, "cost-llama3": llama}


FRONTIER_PRESETS = ["gpt3-175b-a100", "llama3-405b-h100", "mixtral-8x7b-h100", "gtx580-2012"]


def search_blocks(cli):
    """docs/frontier.md: what the planner finds on the presets (time objective)."""
    lines = ["| preset | its plan | best found | gain |", "|---|---|---|---|"]
    notes = []
    for preset in FRONTIER_PRESETS:
        r = json.loads(subprocess.run([cli, "search", preset, "--json"], capture_output=True, text=True, check=True).stdout)
        b, t = r["baseline"], r["top"][0]
        days = lambda p: f"{p['time_to_train_s'] / 86400:.1f} days"
        lines.append(f"| {preset} | {plan_text(b, False)}: {days(b)} | {plan_text(t, False)}: {days(t)} | {t['speedup_vs_baseline']:.2f}x |")
        if preset == "llama3-405b-h100":
            notes.append(f"The Llama 3 best plan's MFU ({100 * t['mfu']:.1f}%) compares with the 38-43% Meta reports for its run.")
    return {"search-presets": lines, "search-llama3-mfu": notes}


def catalogue_blocks(cli):
    """The model catalogue: each model's published count beside dtsim's count of it."""
    models = json.loads(subprocess.run([cli, "models", "--json"], capture_output=True, text=True, check=True).stdout)
    lines = ["| id | model | year | published | dtsim counts | difference |", "|---|---|---:|---:|---:|---:|"]
    for m in models:
        diff = m["dtsim_parameters"] / m["parameters"] - 1
        lines.append(f"| `{m['id']}` | {m['name']} | {m['year']} | {m['parameters'] / 1e9:,.2f}B | "
                     f"{m['dtsim_parameters'] / 1e9:,.2f}B | {100 * diff:+.1f}% |")
    close = sum(1 for m in models if abs(m["dtsim_parameters"] / m["parameters"] - 1) < 0.02)
    lines.append("")
    lines.append(f"{len(models)} models; {close} within 2% of their published count.")
    return {"model-catalogue": lines}


def run_json(cli, *args):
    return json.loads(subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout)


def run_text(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True, check=True, cwd=ROOT).stdout


def sci(x, digits=1):
    """6.6e25, 1.5e30: the docs' way of writing a FLOP count."""
    m, e = f"{x:.{digits}e}".split("e")
    return f"{m}e{int(e)}"


def duration(s):
    """60.4 s, 6.60 h, 3.02 days: a wait or a run, in the unit that reads best."""
    if s < 120:
        return f"{s:.3g} s"
    if s < 7200:
        return f"{s / 60:.3g} min"
    if s < 3 * 86400:
        return f"{s / 3600:.3g} h"
    return f"{s / 86400:.3g} days"


def millions(n):
    return f"{n / 1e6:,.1f} M" if n >= 1e6 else f"{n:,.0f}"


def frontier_json(cli, gpu, mode, exponent=None):
    args = ["frontier", "--gpu", gpu, "--months", "3", "--mode", mode]
    if exponent is not None:
        args += ["--batch-exponent", str(exponent)]
    return run_json(cli, *args)


def point_at(f, flop):
    return min(f["points"], key=lambda p: abs(p["flop"] / flop - 1))


def frontier_plan(p):
    return f"{p['dp']} DP x {p['pp']} PP x {p['tp']} TP" + (" (2D)" if p["tp_2d"] else "")


def frontier_blocks(cli):
    """docs/frontier.md: dtsim's frontier against Epoch AI's anchors, the readings behind
    the explanations, and two frontiers printed in full."""
    gtx = frontier_json(cli, "gtx580", "idealized")
    gtx_real = frontier_json(cli, "gtx580", "realistic")
    h100 = frontier_json(cli, "h100-sxm", "realistic")
    h100_ideal = frontier_json(cli, "h100-sxm", "idealized")
    gtx_030 = frontier_json(cli, "gtx580", "idealized", 0.30)
    h100_ideal_030 = frontier_json(cli, "h100-sxm", "idealized", 0.30)
    epoch = gtx["epoch_anchors"][0]
    knee = next(a for a in h100["epoch_anchors"] if a["reading"] == "at_80")
    wall = next(a for a in h100["epoch_anchors"] if a["reading"] == "feasible")
    p = point_at(gtx, gtx["max_flop_at_80pct"])
    ratio = lambda a, b: max(a / b, b / a)
    within = lambda a, b, bound: "yes" if ratio(a, b) <= bound else "**no**"
    price = p["cost_usd"] / p["gpus"]
    epoch_plan = [int(x) for x in re.findall(r"\d+", epoch["plan"])]  # DP, PP, TP
    plan_ok = all(ratio(a, b) <= 3 for a, b in zip((p["dp"], p["pp"], p["tp"]), epoch_plan))
    rows = ["| anchor (Epoch) | dtsim | mode | within bound? |", "|---|---|---|---|",
            f"| GTX 580, 3 months: ~{sci(epoch['flop'], 0)} FLOP at >= 80% utilization | {sci(p['flop'])} | idealized "
            f"| {within(p['flop'], epoch['flop'], 3)} (x{ratio(p['flop'], epoch['flop']):.1f}; bound x3) |",
            f"| ... with ~{epoch['gpus'] / 1e6:.0f} M GPUs | {millions(p['gpus'])} | idealized "
            f"| {within(p['gpus'], epoch['gpus'], 3)} (x{ratio(p['gpus'], epoch['gpus']):.1f}) |",
            f"| ... ~${epoch['cost_usd'] / 1e9:.0f} billion | {money(p['cost_usd'])} (GTX 580 3 GB at ${price:,.0f}) | idealized "
            f"| {within(p['cost_usd'], epoch['cost_usd'], 3)} |",
            f"| ... {epoch['plan']} | {frontier_plan(p)} | idealized | {'yes' if plan_ok else '**no**'} |",
            f"| modern GPUs: utilization falls beyond ~{sci(knee['flop'], 0)} FLOP | H100: >= 80% of best up to "
            f"{sci(h100['max_flop_at_80pct'])} | realistic | {within(h100['max_flop_at_80pct'], knee['flop'], 10)} |",
            f"| modern GPUs: infeasible beyond ~{sci(wall['flop'], 0)} FLOP | H100: largest feasible {sci(h100['max_flop_any'])} "
            f"| realistic | {within(h100['max_flop_any'], wall['flop'], 10)} (x{ratio(h100['max_flop_any'], wall['flop']):.1f}; bound x10) |"]

    below = max((q for q in gtx["points"] if q["flop"] < p["flop"] and q["feasible"]), key=lambda q: q["flop"])
    last = [q for q in h100["points"] if q["feasible"]][-1]
    steps = last["days"] * 86400 / last["step_time_s"]
    ideal_knee = h100_ideal["max_flop_at_80pct"]
    diffs = [
        f"- **GTX 580 in realistic mode** reaches only {sci(gtx_real['max_flop_at_80pct'])} at >= 80%: with 2012's PCIe 2.0",
        "  pairs and 10 Gb Ethernet, the TP and gradient traffic that idealized mode hides",
        "  behind compute is exposed, and attention (counted here, ignored by Epoch) adds work",
        "  at 2,048 tokens per sequence. The idealized mode reproduces Epoch's numbers;",
        "  the realistic one says what a 2012 cluster would really have managed.",
        f"- **GTX 580 PP {p['pp']} instead of {epoch_plan[1]}, {millions(p['gpus'])} instead of {epoch['gpus'] / 1e6:.0f} M GPUs**: "
        "dtsim picks the highest",
        f"  MFU that finishes in time; at {sci(p['flop'])} a {p['pp']}-stage pipeline with interleaving has a",
        f"  smaller bubble than {epoch_plan[1]} stages, and it needs {p['gpus'] / epoch['gpus']:.2f} times Epoch's GPU count. One grid point lower, at "
        f"{sci(below['flop'])}, dtsim's own best uses {millions(below['gpus'])} GPUs.",
        f"- **Modern GPUs in idealized mode** keep >= 80% of the best utilization up to {sci(ideal_knee)},",
        f"  {ideal_knee / knee['flop']:.0f}x beyond Epoch's {sci(knee['flop'], 0)}. With communication assumed fully hidden, what limits",
        "  dtsim's idealized runs is only the pipeline bubble and the latency chain. Epoch's",
        "  knee therefore comes from costs its model keeps visible even under its",
        "  overlap assumption — most likely TP traffic over the scale-out network once TP",
        "  outgrows the 8-GPU NVLink domain, and a critical batch growing more slowly than the",
        "  DeepSeek rule. dtsim's realistic mode, where TP traffic beyond the NVLink domain is",
        f"  only partly hidden, keeps >= 80% up to {sci(h100['max_flop_at_80pct'])}, x{ratio(h100['max_flop_at_80pct'], knee['flop']):.1f} "
        "from Epoch's knee. With the batch exponent lowered to 0.30",
        f"  the idealized knee moves to {sci(h100_ideal_030['max_flop_at_80pct'])} (and the GTX 580 anchor to "
        f"{sci(gtx_030['max_flop_at_80pct'])}), which shows how",
        "  strongly both anchors hang on the batch rule.",
        f"- **Largest feasible H100 run {sci(h100['max_flop_any'])} vs ~{sci(wall['flop'], 0)}**: dtsim's step has, besides collective",
        "  latencies, a per-kernel launch overhead and a framework overhead per step",
        "  (`kernel_overhead`, `step_overhead`: docs/model.md); at that point the",
        f"  {sci(steps * last['batch_tokens'])} training tokens in batches of {sci(last['batch_tokens'], 2)} make "
        f"{steps / 1e6:.2f} million steps of {last['step_time_s']:.2f} s,",
        f"  {last['days']:.1f} days, through a model of {last['layers']} layers on {millions(last['gpus'])} GPUs. Epoch counts network "
        f"latency only; dtsim's idealized mode ({sci(h100_ideal['max_flop_any'])}) is closer."]

    def table(gpu, mode):
        text = run_text(cli, "frontier", "--gpu", gpu, "--months", "3", "--mode", mode, "--points", "13")
        lines = text.rstrip("\n").split("\n")
        lines[0] = re.sub(r" \(\d+ ms\)$", "", lines[0])  # the time it took: not a figure of the frontier
        return ["```"] + lines + ["```"]

    return {"frontier-anchors": rows, "frontier-differences": diffs,
            "frontier-h100-realistic": table("h100-sxm", "realistic"),
            "frontier-gtx580-idealized": table("gtx580", "idealized")}


def search_size_blocks(cli):
    """docs/frontier.md: how many plans the full search of the Llama 3 preset weighs."""
    r = run_json(cli, "search", "llama3-405b-h100")
    rejected = sum(r["rejected"].values())
    return {"search-size": [f"The full search for `llama3-405b-h100` considers {r['considered']:,} plans: "
                            f"{r['evaluated']:,} are simulated and {rejected:,} rejected by a rule or for memory "
                            f"({r['rejected'].get('memory', 0):,} of them for memory)."]}


GTX580_EPOCH_GPUS = 1024 * 32 * 512
MTBF_CAUSES = ["gpu", "host", "nic", "switch_or_cable", "software"]


def gtx580_bill_blocks(cli):
    """docs/cost.md: the bill for Epoch's 16.8 M GTX 580s, and for dtsim's own frontier optimum."""
    price = next(h for h in run_json(cli, "hardware") if h["id"] == "gtx580")["launch_price_usd"]
    gpu_bill = GTX580_EPOCH_GPUS * price
    sets = ["--set", f"cluster.gpus={GTX580_EPOCH_GPUS}", "--set", f"parallel.dp={GTX580_EPOCH_GPUS // 16}",
            "--set", f"training.global_batch={GTX580_EPOCH_GPUS // 16}"]
    for cause in MTBF_CAUSES:
        sets += ["--set", f"reliability.mtbf.{cause}=1e12s"]
    bill = run_json(cli, "cost", "gtx580-2012", *sets)["hardware_bill_usd"]
    f = frontier_json(cli, "gtx580", "idealized")
    p = point_at(f, f["max_flop_at_80pct"])
    epoch = f["epoch_anchors"][0]["cost_usd"]
    lines = [
        f"- GPUs: {GTX580_EPOCH_GPUS:,} x {price} USD (the catalogue's 3 GB board; 1.5 GB boards launched at",
        f"  499 USD) = **{money(gpu_bill)}**, {gpu_bill / epoch:.1f} x Epoch's figure. Epoch's figure implies "
        f"{epoch / GTX580_EPOCH_GPUS:.0f} USD a GPU, a",
        "  price the seed does not state (it matches neither launch price).",
        f"- With servers, the 10 GbE network (one link per GPU plus the preset's top-of-rack tier),",
        f"  storage and the reliability model's hot spares, the whole bill is **{money(bill)}**",
        f"  (`dtsim-cli cost gtx580-2012 --set cluster.gpus={GTX580_EPOCH_GPUS} --set parallel.dp={GTX580_EPOCH_GPUS // 16}",
        f"  --set training.global_batch={GTX580_EPOCH_GPUS // 16}` with every `reliability.mtbf.*` at `1e12s`,",
        "  `hardware_bill_usd`: at Llama 3's failure rates a run on that many GPUs never ends,",
        "  and the bill does not depend on them).",
        f"- dtsim's own frontier (idealized, as Epoch's) needs {millions(p['gpus'])} GPUs for its largest 3-month",
        f"  GTX 580 run at >= 80% of its best utilization, a GPU bill of **{money(p['cost_usd'])}**, which is where",
        "  Epoch's figure lands."]
    return {"cost-gtx580": lines}


def reliability_measured_blocks(cli):
    """docs/reliability.md, "Measured": the presets' runs as `dtsim-cli run` gives them."""
    r = run_json(cli, "run", "llama3-405b-h100")
    storage = next(s for s in r["strategies"] if s["name"] == "storage")
    per_day = sum(r["failures_per_day"].values())
    rsc1 = run_json(cli, "run", "llama3-405b-h100", "--set", "reliability.failure_rates=rsc1-a100")
    chaos = run_json(cli, "run", "llama3-405b-chaos")
    slow = run_json(cli, "run", "llama2-7b-8xa100", "--set", "reliability.async_checkpoint=true",
                    "--set", "reliability.staging_bandwidth=1 kB/s")
    day = 86400
    lines = [
        f"- Llama 3 405B preset (`dtsim-cli run llama3-405b-h100`): {per_day:.2f} failures a day, a cluster MTBF of",
        f"  {r['cluster_mtbf_s'] / 3600:.2f} h; synchronous checkpoints at the Tectonic peak: {r['checkpoint_bytes'] / 1e12:.2f} TB "
        f"written in {r['checkpoint_write_s']:.2f} s,",
        f"  expected {r['expected_time_to_train_s'] / day:.1f} days against {r['failure_free_time_s'] / day:.1f} failure-free "
        f"(+{100 * r['overhead_fraction']:.1f}%), {100 * storage['recovery_overhead']:.1f}",
        f"  points of it recovery ({r['recovery_s'] / 60:.1f} minutes at each failure); `dtsim-cli run` prints the",
        "  other strategies.",
        f"- The same preset with `reliability.failure_rates=rsc1-a100`: a cluster MTBF of {rsc1['cluster_mtbf_s'] / 3600:.2f} h",
        "  (Kokolis et al. project 1.8 h for a 16,384-GPU job from RSC-1).",
        f"- The chaos drill (`dtsim-cli run llama3-405b-chaos`): P50 {chaos['p50_s'] / day:.1f} days with its chaos events,",
        f"  {chaos['clean']['p50_s'] / day:.1f} days without them.",
        "- Llama 2 7B on 8 A100 with asynchronous checkpoints staged at 1 kB/s (a "
        f"{slow['checkpoint_write_s'] / day:.0f}-day stall, so",
        f"  no checkpoint at all): expected {slow['expected_time_to_train_s'] / day:.2f} days, Monte Carlo mean "
        f"{slow['mean_s'] / day:.2f} days."]
    return {"reliability-measured": lines}


def cluster_blocks(cli):
    """docs/cluster.md: the scheduling policies on the shared-cluster preset."""
    runs = run_json(cli, "cluster", "shared-cluster", "--compare")["policies"]
    rows = ["| policy | utilization | mean wait | Jain | preemptions | wasted GPU-h | makespan |", "|---|---|---|---|---|---|---|"]
    for r in runs:
        rows.append(f"| {r['policy']} | {100 * r['utilization']:.1f}% | {duration(r['mean_queue_s'])} | {r['jain_fairness']:.3f} "
                    f"| {r['preemptions']:,} | {r['wasted_gpu_hours']:,.0f} | {r['makespan_s'] / 86400:.2f} days |")
    by = {r["policy"]: r for r in runs}
    project = lambda policy, name: next(p for p in by[policy]["projects"] if p["name"] == name)
    flat = run_json(cli, "cluster", "shared-cluster", "--policy", "fair-share", "--set", "workload.topology_aware=false")
    rows += ["", f"Fair share: the smallest project (interns, 20%) waits {duration(project('fair-share', 'interns')['mean_queue_s'])} "
             f"on average against {duration(project('fifo', 'interns')['mean_queue_s'])} under FIFO. Strict priority: the top project "
             f"(product) waits {duration(project('priority', 'product')['mean_queue_s'])}, the bottom one (interns) "
             f"{duration(project('priority', 'interns')['mean_queue_s'])}. Fair share without topology-aware placement "
             f"(`--set workload.topology_aware=false`): {100 * flat['utilization']:.1f}%, a mean wait of {duration(flat['mean_queue_s'])}."]

    def step(*sets):
        d = run_json(cli, "simulate", "shared-cluster", "--set", "cluster.gpus=32", "--set", "parallel.dp=32",
                     "--set", "training.global_batch=32", *sets)
        dp = d["communication"]["dp"]
        return d["step_time_s"], dp["exposed_s"] / dp["total_s"]
    packed, packed_dp = step()
    scattered, scattered_dp = step("--set", "cluster.tiers[0].span_gpus=8")
    scatter = [f"On the preset's network a 32-GPU job's step goes from {packed * 1e3:.0f} ms packed in one pod to "
               f"{scattered * 1e3:.0f} ms scattered one node per pod (its data-parallel traffic {100 * scattered_dp:.1f}% "
               f"exposed instead of {100 * packed_dp:.1f}%; `dtsim-cli simulate shared-cluster` at 32 GPUs, with "
               "`cluster.tiers[0].span_gpus=8` for the scattered job)."]
    return {"cluster-policies": rows, "cluster-scatter": scatter}


TIMELINE_PRESETS = [("GPT-3 175B", "gpt3-175b-a100"), ("Llama 3.1 405B", "llama3-405b-h100"),
                    ("Llama 2 7B", "llama2-7b-8xa100"), ("Mixtral", "mixtral-8x7b-h100"), ("GTX 580", "gtx580-2012")]


def timeline_blocks(cli):
    """docs/timeline.md: the event simulation against the analytical step, and its sizes."""
    agree, bars = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trace.json")
        for name, preset in TIMELINE_PRESETS:
            text = run_text(cli, "trace", preset, "-o", out)
            bars[preset] = int(re.search(r"^(\d+) events", text, re.M).group(1))
            error = re.search(r"analytical .*? \(([-+0-9.]+%)\)", text).group(1)
            agree.append(f"{name} {'0.00%' if error == '-0.00%' else error}")
    with tempfile.TemporaryDirectory() as tmp:  # refused before anything is written
        refused = subprocess.run([cli, "trace", "llama3-405b-h100", "--steps", "100", "--ranks", "-o",
                                  os.path.join(tmp, "trace.json")], capture_output=True, text=True)
    if refused.returncode != 2:
        sys.exit("docs/timeline.md: 100 steps of the 405B preset with --ranks are no longer refused")
    size = re.search(r"about ([0-9.]+ [kMG]B) \(([0-9.]+ [kM]) bars\).*?--steps (\d+)", refused.stderr)
    return {"timeline-agreement": ["  " + ", ".join(agree) + " (tested: within 5% on every preset)."],
            "timeline-size": [f"One step of `llama3-405b-h100` (16 stages, 16 micro-batches, 8 chunks, per layer) is "
                              f"{bars['llama3-405b-h100']:,} bars."],
            "timeline-refused": [f"100 steps of the 405B preset with a row per TP rank would be {size.group(1)} "
                                 f"({size.group(2)} bars) and are refused, naming `--steps {size.group(3)}`."]}


def calibration_doc_blocks(cli):
    """docs/calibration.md: a trace fitted, the overlay the three fits write, the peak's limit."""
    folder = "tests/measurements/h200-pytorch"
    case = "llama-0.5b-b8-s2048"
    trace = f"{folder}/{case}.trace.json.gz"
    scenario = f"{folder}/scenarios/{case}.yaml"
    fit = run_json(cli, "calibrate", trace, "--scenario", scenario)
    text = run_text(cli, "calibrate", trace, "--scenario", scenario)
    table = text.rstrip("\n").split("\n")[1:]
    table = [l.rstrip() for l in table if not l.startswith("outside kernels")]
    measured = next(r for r in json.load(open(os.path.join(ROOT, folder, "results.json"))) if r["case"] == case)
    with tempfile.TemporaryDirectory() as tmp:
        overlay = os.path.join(tmp, "overlay.yaml")
        run_text(cli, "calibrate", scenario, "--measured-step", f"{measured['s'] * 1e3:.1f}ms", "-o", overlay)
        run_text(cli, "calibrate", trace, "--scenario", scenario, "-o", overlay)
        run_text(cli, "calibrate", "--nccl-tests", "tests/nccl/all_reduce_perf-8xh100.log", "--tier", "scale_up", "-o", overlay)
        written = open(overlay).read().rstrip("\n").split("\n")
    refused = subprocess.run([cli, "calibrate", "gpt3-175b-a100", "--measured-step", "20s"], capture_output=True, text=True)
    if refused.returncode != 2:
        sys.exit("docs/calibration.md: a 20 s step of gpt3-175b-a100 is no longer refused")
    return {"calibrate-trace-fit": ["```"] + table + ["```",
            f"(`dtsim-cli calibrate {trace} --scenario {scenario}`: on one H200 its GEMMs ran "
            f"x{fit['gemm_scale']:.2f} the speed of the curve fitted",
            "to published multi-GPU runs, and its eager elementwise kernels at "
            f"x{fit['memory_scale']:.2f} the bandwidth the model assumes; docs/validation.md, \"One real GPU\")."],
            "calibration-overlay": ["```yaml"] + written + ["```",
            f"(`dtsim-cli calibrate {scenario} --measured-step {measured['s'] * 1e3:.1f}ms`, the same scenario's trace and "
            "`tests/nccl/all_reduce_perf-8xh100.log`, each with `-o` to one file.)"],
            "calibration-peak": ["`dtsim-cli calibrate gpt3-175b-a100 --measured-step 20s` (A100s) answers:", "",
                                 "    " + refused.stderr.strip()]}


LAYER_TABLES = ["alexnet-2012", "resnet-18", "resnet-34", "resnet-50", "resnet-101", "resnet-152", "vgg-16", "dlrm-mlperf",
                "vit-b-16", "vit-l-16", "bert-base", "bert-large", "bert-large-256", "t5-base", "t5-large", "dit-xl-2"]


def layers_blocks(cli, layer_runs):
    """docs/layers.md: the built-in tables' parameters as dtsim counts them, and the validation count."""
    lines = ["| `model.table` | parameters (dtsim's count) |", "|---|---:|"]
    for table in LAYER_TABLES:
        d = run_json(cli, "simulate", "resnet50-mlperf", "--set", f"model.table={table}")
        lines.append(f"| `{table}` | {d['parameters']:,} |")
    return {"layer-table-parameters": lines,
            "layers-validated": [f"Validated against {layer_runs} published runs of ResNet-50, BERT-large, DLRM and AlexNet "
                                 "(docs/validation.md, \"Beyond transformers\"; tests/tst_validation.cpp holds the median "
                                 "within 15%)."]}


MODEL_COUNTS = [("GPT-3 175B", "gpt3-175b-a100", "175.0B"), ("Llama 3.1 405B", "llama3-405b-h100", "405B"),
                ("Mixtral 8x7B", "mixtral-8x7b-h100", "46.7B total, 12.9B active")]


def model_doc_blocks(cli, validation):
    """docs/model.md: parameter counts of the presets, and the MoE layer worked example."""
    counts = []
    for name, preset, published in MODEL_COUNTS:
        d = run_json(cli, "simulate", preset)
        mine = f"{d['parameters'] / 1e9:.1f}B"
        if d["active_parameters"] != d["parameters"]:
            mine += f" total, {d['active_parameters'] / 1e9:.1f}B active"
        counts.append(f"{name} counts {mine} (published {published})")
    checks = ["Checks (tests/tst_model.cpp): " + "; ".join(counts) + "."]

    example = "docs/examples/qwen3-30b-a3b-8xh100.yaml"
    d = run_json(cli, "simulate", example)
    m = d["moe_layer"]
    us = lambda s: f"{s * 1e6:.0f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"
    gemm = lambda *shape: run_json(cli, "gemm", "h100-sxm", *[str(x) for x in shape])
    router, up, down = gemm(16384, 128, 2048), gemm(8192, 1536, 2048), gemm(8192, 2048, 768)
    g = lambda r: f"{r['seconds'] * 1e6:.3g} us"
    table = ["| part (forward + backward) | dtsim | by hand |", "|---|---|---|",
             f"| router | {us(m['router_s'])} | `dtsim-cli gemm h100-sxm 16384 128 2048` = {g(router)} forward, x 3 |",
             f"| permute + unpermute | {us(m['permute_s'])} | `2 x 2 x 8 x 16,384 x 2,048 x 2 B` = 2.15 GB at 0.9 x 3.35 TB/s = 712 us, + 4 kernels x 3 us, x 3 |",
             f"| dispatch | {us(m['dispatch_s'])} | `cf K T h` = 537 MB a GPU; all-to-all `(p - 1)(alpha + n / (p beta))` over NVLink = 1.41 ms, forward + backward |",
             f"| experts | {us(m['experts_s'])} | 16 local experts x 8,192 tokens each: `gemm h100-sxm 8192 1536 2048` (gate and up, {g(up)}) + "
             f"`gemm h100-sxm 8192 2048 768` (down, {g(down)}) = {16 * (up['seconds'] + down['seconds']) * 1e3:.2f} ms; SwiGLU reads `2 x 768` and "
             f"writes 768 values a token: 604 MB = 200 us + 3 us; forward {(16 * (up['seconds'] + down['seconds']) + 203e-6) * 1e3:.2f} ms, x 3 |",
             f"| combine | {us(m['combine_s'])} | as dispatch |"]
    effs = sorted(100 * r["shape_efficiency"] for r in (up, down))
    row = next(r for r in validation["runs"] if r["id"] == "automodel-h100-qwen3-30b-a3b-8gpu")
    a2a = (m["dispatch_s"] + m["combine_s"]) / m["total_s"]
    after = [f"The experts run at {effs[0]:.0f}-{effs[1]:.0f}% of the GPU's peak (the shape efficiency that `dtsim-cli gemm`",
             f"prints), {100 * a2a:.0f}% of the layer goes to the all-to-alls (no EP overlap in this recipe), and",
             f"permutation is {100 * m['permute_s'] / m['total_s']:.0f}%: fine-grained MoE is a memory-traffic and communication problem as",
             f"much as a GEMM one. Over the step (16 micro-batches, 48 layers) this is {d['step_time_s']:.1f} s a step,",
             "measured 21.77 s; the validation path, which has to fit the run into 80 GB, turns on full",
             f"recomputation (dtsim counts {d['memory_per_gpu_bytes'] / 2**30:.0f} GiB without it, as the table states no recompute) and",
             f"predicts {abs(100 * row['rel_error']):.0f}% too {'slow' if row['rel_error'] < 0 else 'fast'}, the row "
             "`automodel-h100-qwen3-30b-a3b-8gpu` of docs/validation.md."]
    return {"model-counts": checks, "moe-layer-example": table, "moe-layer-example-notes": after}


def explained_parts(cli, rid):
    """The step's parts, seconds, from `validate --explain ID`'s report text."""
    text = run_text(cli, "validate", COMPRESSION_RUNS, "--explain", rid)
    unit = {"us": 1e-6, "ms": 1e-3, "s": 1.0}
    parts = {}
    for line in text.splitlines():
        m = re.match(r"\s+(.+?)\s{2,}([0-9.]+) (us|ms|s)\b", line)
        if m and m.group(1) not in parts:
            parts[m.group(1)] = float(m.group(2)) * unit[m.group(3)]
    return parts


def compression_blocks(cli):
    """docs/model.md, "Gradient compression": the PowerSGD paper's two rows, predicted."""
    v = run_json(cli, "validate", COMPRESSION_RUNS)
    rows = {r["id"]: r for r in v["runs"]}
    sgd, psgd = rows["vogels2019-resnet18-cifar10-sgd"], rows["vogels2019-resnet18-cifar10-powersgd-rank2"]
    ms = lambda r, key: 128 / r[key] * 1e3  # a worker's 128 images at that rate per GPU
    published, predicted = 312 / 239, sgd["reported_tokens_per_s_per_gpu"] and psgd["predicted_tokens_per_s_per_gpu"] / sgd["predicted_tokens_per_s_per_gpu"]
    a, b = explained_parts(cli, sgd["id"]), explained_parts(cli, psgd["id"])
    names = [("forward", "forward compute"), ("backward", "backward compute"), ("dp communication (exposed)", "DP gradient sync (exposed)"),
             ("gradient compression (GPU)", "compress + decompress (GPU)"), ("optimizer", "optimizer"), ("framework overhead", "framework overhead")]
    f = lambda x: f"{x * 1e3:.1f} ms"
    lines = ["PowerSGD's paper (Vogels et al. 2019, Table 6): ResNet-18 on CIFAR-10, 16 workers of batch 128, fp32, the",
             "gradient sync after backward, on the cluster `tests/validation/compression-runs.yaml` describes (16 GK210s of",
             "Tesla K80s, 2 a machine, 10 Gbit/s a machine: unverified, ADDED-RUNS.md). One step, as `dtsim-cli validate",
             "tests/validation/compression-runs.yaml --explain ID` prints it:", "",
             "| part | SGD | rank-2 PowerSGD |", "|---|---:|---:|"]
    for key, label in names:
        lines.append(f"| {label} | {f(a.get(key, 0))} | {f(b.get(key, 0))} |")
    lines += [f"| step, predicted | {ms(sgd, 'predicted_tokens_per_s_per_gpu'):.0f} ms | {ms(psgd, 'predicted_tokens_per_s_per_gpu'):.0f} ms |",
              f"| step, published | {ms(sgd, 'reported_tokens_per_s_per_gpu'):.0f} ms | {ms(psgd, 'reported_tokens_per_s_per_gpu'):.0f} ms |", "",
              f"Speed-up: predicted {predicted:.3f}, published {published:.3f} ({100 * (predicted / published - 1):+.1f}%; "
              "`tst_compression::powerSgdSpeedUpOfThePaper` holds it within 20%).",
              "By hand: the model's 11,173,962 parameters are 21 weight matrices (20 convolutions as out x (in x k x k), and",
              "the 10 x 512 classifier) with sum(n + m) = 36,325, and 9,610 norm and bias values. Rank r sends",
              "r x 36,325 + 9,610 values instead of 11,173,962: 243x fewer at rank 1, 136x at rank 2, 72x at rank 4, the",
              "compression ratios of the paper's Table 3 (`tst_compression::resnet18CifarMatchesThePapersRatios`)."]
    return {"grad-compression-example": lines}


ISSUE20_PREFIXES = ("mb2511-", "mb260401-", "mb2606-", "dgxc2505-", "llama3-paper-")


def added_rows_blocks(v, shared):
    """docs/validation.md: where the rows added for issue 20 show the model weak."""
    runs = {r["id"]: r for r in v["runs"] if not r["skipped"]}
    added = [r for r in runs.values() if r["id"].startswith(ISSUE20_PREFIXES)]
    span = lambda rows: (f"{min(abs(r['rel_error']) for r in rows) * 100:.0f}-"
                         f"{max(abs(r['rel_error']) for r in rows) * 100:.0f}%")
    way = lambda rows: ("faster" if all(r["rel_error"] < 0 for r in rows) else
                        "slower" if all(r["rel_error"] > 0 for r in rows) else "both faster and slower")
    signed = lambda r: f"{r['rel_error'] * 100:+.1f}%"
    gb300 = [r for r in added if "-gb300-" in r["id"] and "gptoss" not in r["id"]]
    gb200 = [r for r in added if "-gb200-" in r["id"] and r["id"].startswith("mb")
             and "gptoss" not in r["id"] and "qwen3" not in r["id"]]
    gptoss = [r for r in runs.values() if "gptoss-120b" in r["id"] and r["id"].startswith("mb")
              and r["id"] != "mb2511-h100-gptoss-120b"]
    qwen_mx, qwen_bf = runs["mb2511-b200-qwen3-235b-fp8mx"], runs["mb2511-gb200-qwen3-235b-bf16"]
    lines = [
        f"- GB300 rows run {span(gb300)} {way(gb300)} than dtsim predicts from their datasheet peaks, which",
        "  equal GB200's (5 PFLOP/s FP8 dense); in the same releases the GB200 rows of dense models",
        f"  and DeepSeek-V3 are within {max(abs(r['rel_error']) for r in gb200) * 100:.1f}%. Blackwell Ultra's doubled softmax "
        "exponentials are modelled (its own",
        "  `blackwell-ultra` attention efficiency, from NVIDIA's measured +35% attention forward);",
        "  its higher power limit (1.4 kW against 1.2 kW) may hold higher clocks, but no",
        "  published figure says how much, so nothing is fitted to it.",
        f"- GPT-OSS 120B rows on H100, B200, GB200 and GB300 run {span(gptoss)} {way(gptoss)} than predicted",
        f"  (but the 25.11 H100 row, {signed(runs['mb2511-h100-gptoss-120b'])}); Qwen3-235B in MXFP8 on B200 "
        f"is predicted {signed(qwen_mx)} off, while the",
        f"  same model in BF16 on GB200 is {signed(qwen_bf)}. Candidates: attention sinks and the",
        "  sliding-window layers of GPT-OSS, MXFP8 quantization of permuted tokens in grouped",
        "  GEMMs; none has a published cost to model it with."]
    if shared is not None:
        good = [r for r in shared["runs"] if r["quality"] == "good" and not r["skipped"]]
        lines.append(f"- The p90: on the issue's file it is {pct2(shared['good']['p90_abs_rel_error'])}, with "
                     f"{sum(abs(r['rel_error']) > 0.10 for r in good)} good rows above 10%; on the project's file, "
                     f"with the rows it added, {pct2(v['good']['p90_abs_rel_error'])}.")
    return {"validation-added-rows": lines}


TORCHTITAN_70B_FP8_PUBLISHED = 829  # tokens/s per GPU, torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Table 4 "2D"


def readme_fp8_blocks(cli):
    """README.md: the torchtitan FP8 preset against the run it reproduces."""
    d = run_json(cli, "simulate", "llama3-70b-torchtitan-fp8")
    got = d["tokens_per_s_per_gpu"]
    return {"readme-torchtitan-fp8": [
        f"The preset `llama3-70b-torchtitan-fp8` gives {got:,.0f} tokens/s per GPU against the "
        f"{TORCHTITAN_70B_FP8_PUBLISHED} torchtitan published for its 70B FP8 run "
        f"({100 * (got / TORCHTITAN_70B_FP8_PUBLISHED - 1):+.1f}%)."]}


# An error quoted in prose: <!-- errors:REGEX -->+27% to +31%<!-- /errors --> is the range
# of the validation errors of the good rows whose id matches REGEX (one row: its error).
ERROR_SPAN = re.compile(r"(<!-- errors:(.+?) -->)(.*?)(<!-- /errors -->)")


def rewrite_error_spans(path, runs, check):
    with open(path) as f:
        text = f.read()

    def figure(m):
        rows = [r for r in runs if not r["skipped"] and re.fullmatch(m.group(2), r["id"])]
        if not rows:
            sys.exit(f"{path}: no validation row matches '{m.group(2)}'")
        errors = sorted(r["rel_error"] * 100 for r in rows)
        shown = f"{errors[0]:+.0f}%" if len(errors) == 1 or round(errors[0]) == round(errors[-1]) \
            else f"{errors[0]:+.0f}% to {errors[-1]:+.0f}%"
        return m.group(1) + shown + m.group(4)

    return write_if_changed(path, text, ERROR_SPAN.sub(figure, text), check)


def rewrite(path, blocks, check):
    with open(path) as f:
        text = f.read()
    new = text
    for name, lines in blocks.items():
        pattern = re.compile(rf"(<!-- BEGIN generated:{re.escape(name)} -->\n).*?(<!-- END generated:{re.escape(name)} -->)", re.S)
        if not pattern.search(new):
            sys.exit(f"{path}: no generated block '{name}'")
        new = pattern.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), new)
    return write_if_changed(path, text, new, check)


def write_if_changed(path, text, new, check):
    """Writes `new` over the file (atomically) unless it is `text` or only checking; True if it differs."""
    if new == text:
        return False
    if not check:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(new)
        os.replace(tmp, path)
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cli, check = os.path.abspath(sys.argv[1]), "--check" in sys.argv[2:]
    os.chdir(ROOT)  # the generators name files relative to the repository (ctest runs in build/)
    out = subprocess.run([cli, "validate", RUNS, "--json"], capture_output=True, text=True, check=True)
    # The issue's own file, where this checkout sits beside it; the block stays as it is
    # where it does not.
    shared = None
    if os.path.exists(SHARED):
        s = subprocess.run([cli, "validate", SHARED, "--json"], capture_output=True, text=True, check=True)
        shared = json.loads(s.stdout)
    changed = rewrite(os.path.join(ROOT, "docs/validation.md"), validation_blocks(json.loads(out.stdout), shared), check)
    changed |= rewrite(os.path.join(ROOT, "docs/validation.md"), added_rows_blocks(json.loads(out.stdout), shared), check)
    for doc in ("docs/validation.md", "docs/model.md"):
        changed |= rewrite_error_spans(os.path.join(ROOT, doc), json.loads(out.stdout)["runs"], check)
    changed |= rewrite_residuals(json.loads(out.stdout), check)
    if shared is not None:  # the README quotes both files; left as it is without the shared one
        changed |= rewrite(os.path.join(ROOT, "README.md"), {"readme-fidelity": readme_fidelity(json.loads(out.stdout), shared)}, check)
    lt = subprocess.run([cli, "validate", LAYER_RUNS, "--json"], capture_output=True, text=True, check=True)
    changed |= rewrite(os.path.join(ROOT, "docs/validation.md"), layer_table_blocks(json.loads(lt.stdout)), check)
    g = json.loads(lt.stdout)["good"]
    changed |= rewrite(os.path.join(ROOT, "README.md"), {"readme-layer-tables": [
        f"`docs/validation.md` checks {g['count']} published runs of ResNet-50, BERT-large, DLRM and AlexNet "
        f"(\"Beyond transformers\": median error {pct(g['median_abs_rel_error'])}, p90 {pct(g['p90_abs_rel_error'])})."]}, check)
    changed |= rewrite(os.path.join(ROOT, "README.md"), readme_fp8_blocks(cli), check)
    bc = json.loads(out.stdout)["band_coverage"]
    changed |= rewrite(os.path.join(ROOT, "docs/advice.md"), {"band-coverage": [
        f"Leave-one-out on the project's good rows: {bc['rows']} of {bc['good_rows']} have a band, and "
        f"{bc['inside']} of them ({100 * bc['share']:.1f}%) hold their own measured value inside it."]}, check)
    changed |= rewrite(os.path.join(ROOT, "docs/model.md"), calibration_blocks(), check)
    changed |= rewrite(os.path.join(ROOT, "docs/frontier.md"), alexnet_blocks(cli), check)
    x = subprocess.run([cli, "validate", RUNS, "--extrapolate", "--json"], capture_output=True, text=True, check=True)
    changed |= rewrite(os.path.join(ROOT, "docs/calibration.md"), extrapolation_blocks(json.loads(x.stdout)), check)
    changed |= rewrite(os.path.join(ROOT, "docs/reliability.md"), reliability_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/validation.md"), one_gpu_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/frameworks.md"), catalogue_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/cost.md"), cost_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/frontier.md"), search_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/frontier.md"), frontier_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/frontier.md"), search_size_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/cost.md"), gtx580_bill_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/reliability.md"), reliability_measured_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/cluster.md"), cluster_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/timeline.md"), timeline_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/calibration.md"), calibration_doc_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/layers.md"), layers_blocks(cli, g["count"]), check)
    changed |= rewrite(os.path.join(ROOT, "docs/model.md"), model_doc_blocks(cli, json.loads(out.stdout)), check)
    changed |= rewrite(os.path.join(ROOT, "docs/model.md"), compression_blocks(cli), check)
    changed |= rewrite(os.path.join(ROOT, "docs/convergence.md"), convergence_blocks(cli, ROOT), check)
    changed |= rewrite(os.path.join(ROOT, "docs/model.md"), offload_blocks(cli, json.loads(out.stdout), ROOT), check)
    # The scenario reference: the field registry's own tables.
    fields = subprocess.run([cli, "fields", "--markdown"], capture_output=True, text=True, check=True).stdout
    changed |= rewrite(os.path.join(ROOT, "docs/scenario.md"), {"scenario-fields": fields.rstrip("\n").split("\n")}, check)
    if check and changed:
        sys.exit("docs are out of date: run tests/validation/update_docs.py")


if __name__ == "__main__":
    main()
