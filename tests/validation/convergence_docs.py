"""docs/convergence.md's figures, from dtsim-cli (update_docs.py calls `convergence_blocks`)."""
import json, os, re, subprocess, tempfile


def _json(cli, *args):
    return json.loads(subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout)


def _count(n):
    for div, unit in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.3g} {unit}"
    return f"{n:.3g}"


def _time(s):
    if s >= 2 * 86400:
        return f"{s / 86400:.1f} days"
    if s >= 2 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 60:.1f} min"


def published_block(cli, root):
    rows = ["| run | corpus | parameters | tokens | published loss | refit | gap | refit's error |", "|---|---|---|---|---|---|---|---|"]
    data = _json(cli, "loss", "--published", os.path.join(root, "tests/convergence/published-losses.yaml"))
    for r in data["runs"]:
        gap = r["predicted"] - r["loss"]
        rows.append(f"| {r['id']} | {r['corpus']} | {_count(r['params'])} | {_count(r['tokens'])} | {r['loss']:.3f} "
                    f"| {r['predicted']:.3f} | {gap:+.3f} | {'+-%.3f' % r['fit_error'] if r['same_corpus'] else 'another corpus'} |")
    return rows


def worked_block(cli):
    d = _json(cli, "simulate", "critical-batch-gpt3-xl")
    cv = d["convergence"]
    sc = _json(cli, "scaling", "critical-batch-gpt3-xl")
    pts = [p for p in sc["growing_batch"] if p["fits_in_memory"]]
    turn = sc["turnaround_gpus"]
    best = next(p for p in pts if p["gpus"] == turn)
    last = pts[-1]
    lines = [f"`dtsim-cli simulate critical-batch-gpt3-xl`: to loss {cv['target_loss']:.2f} the 1.3B model needs "
             f"{_count(cv['minimal_tokens'])} tokens at a small batch; its batch of {_count(cv['batch_tokens'])} tokens is "
             f"{cv['batch_tokens'] / cv['critical_batch_tokens']:.3f} of the critical batch ({_count(cv['critical_batch_tokens'])} tokens "
             f"at that loss), so it trains {_count(cv['tokens'])} tokens (+{100 * (cv['tokens'] / cv['minimal_tokens'] - 1):.1f}%) in "
             f"{_time(d['time_to_train_s'])} on {d['gpus']} GPUs.", "",
             "`dtsim-cli scaling critical-batch-gpt3-xl`, growing batch (two sequences per GPU):", "",
             "| GPUs | batch (tokens) | step | time to the loss |", "|---|---|---|---|"]
    for p in pts:
        mark = " (turnaround)" if p["gpus"] == turn else ""
        lines.append(f"| {p['gpus']:,}{mark} | {_count(p['global_batch'] * 2048)} | {1e3 * p['step_time_s']:.0f} ms | {_time(p['time_to_train_s'])} |")
    lines += ["", f"Fastest at {turn:,} GPUs ({_time(best['time_to_train_s'])}); at {last['gpus']:,} GPUs the run takes "
              f"{_time(last['time_to_train_s'])}: the batch is {last['global_batch'] * 2048 / cv['critical_batch_tokens']:.0f} times the "
              "critical batch, so each doubling of the GPUs nearly doubles the tokens, while the step grows with the slowest of "
              "more ranks (cluster.jitter) and a wider reduction."]
    return lines


def diloco_block(cli, root):
    preset = os.path.join(root, "presets/diloco-two-datacenters.yaml")
    with open(preset) as f:
        text = f.read()
    plain_text = re.sub(r"\n  diloco:\n(    .*\n)+", "\n", text)
    rows = ["| long-haul link | data parallel: step | time | Streaming DiLoCo: step | exposed outer sync | time | tokens (DP / DiLoCo) |",
            "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.yaml")
        with open(plain, "w") as f:
            f.write(plain_text)
        results = {}
        for label, bw in (("10 Gbit/s (the preset)", None), ("1 Gbit/s", "1Gbps"), ("unlimited (100 Tbit/s)", "100Tbps")):
            sets = [] if bw is None else ["--set", f"cluster.tiers[1].uplink_bandwidth={bw}"]
            dp = _json(cli, "simulate", plain, *sets)
            dl = _json(cli, "simulate", preset, *sets)
            results[label] = (dp, dl)
            rows.append(f"| {label} | {1e3 * dp['step_time_s']:.0f} ms | {_time(dp['time_to_train_s'])} | {1e3 * dl['step_time_s']:.0f} ms "
                        f"| {1e3 * dl['outer_sync']['exposed_s']:.1f} ms | {_time(dl['time_to_train_s'])} "
                        f"| {_count(dp['convergence']['tokens'])} / {_count(dl['convergence']['tokens'])} |")
    dp1, dl1 = results["1 Gbit/s"]
    dpi, dli = results["unlimited (100 Tbit/s)"]
    rows += ["", f"At 1 Gbit/s data parallelism takes {dp1['time_to_train_s'] / dpi['time_to_train_s']:.0f} times its time on an "
             f"unlimited link and Streaming DiLoCo {dl1['time_to_train_s'] / dli['time_to_train_s']:.2f} times; DiLoCo's two workers "
             f"need {100 * (dl1['convergence']['tokens'] / dp1['convergence']['tokens'] - 1):.1f}% more tokens for the same loss "
             f"(loss x{dl1['convergence']['loss_scale']:.4f} at equal tokens)."]
    return rows


def frontier_block(cli):
    plain = _json(cli, "frontier", "--gpu", "h100-sxm", "--months", "3")
    charged = _json(cli, "frontier", "--gpu", "h100-sxm", "--months", "3", "--critical-batch")
    return [f"H100s in three months (`dtsim-cli frontier --gpu h100-sxm --months 3`): the largest feasible run is "
            f"{plain['max_flop_any']:.1e} FLOP with the compute-optimal tokens, {charged['max_flop_any']:.1e} FLOP when "
            f"a batch above the critical batch is charged in tokens (`--critical-batch`); the largest at 80% of the best "
            f"utilization moves from {plain['max_flop_at_80pct']:.1e} to {charged['max_flop_at_80pct']:.1e} FLOP."]


def jitter_block(cli):
    shares = []
    for n in (8, 256, 8192):
        d = _json(cli, "simulate", "critical-batch-gpt3-xl", "--set", f"cluster.gpus={n}", "--set", f"parallel.dp={n}",
                  "--set", f"training.global_batch={2 * n}")
        b = d["breakdown"]
        shares.append(f"{100 * b['straggler'] / (b['forward'] + b['backward'] + b['recompute']):.1f}% for {n:,} GPUs")
    return ["At the teaching preset's cv = 0.03 the compute stretches " + ", ".join(shares[:-1]) + " and " + shares[-1]
            + " (`dtsim-cli simulate critical-batch-gpt3-xl` at each size)."]


def modern_batch_block(cli):
    """Kaplan et al.'s critical batch against Merrill et al.'s OLMo plateau, on Llama 3 405B's run."""
    kaplan = _json(cli, "loss", "--params", "8e9", "--target", "2.2")
    params = _json(cli, "simulate", "llama3-405b-h100")["parameters"]
    run = ["--params", str(params), "--tokens", "15.6e12", "--batch", "16777216"]
    at_kaplan = _json(cli, "loss", *run)
    at_merrill = _json(cli, "loss", *run, "--critical-batch", "16777216")
    extra = lambda d: 100 * (d["tokens"] / d["minimal_tokens"] - 1)
    return [f"Kaplan et al.'s B_crit at a loss of 2.2 is {_count(kaplan['critical_batch_tokens'])} tokens. Llama 3 405B's "
            f"16.8M-token batch over its 15.6T tokens costs +{extra(at_kaplan):.0f}% tokens over a small batch under Kaplan's "
            f"B_crit, +{extra(at_merrill):.0f}% with `training.critical_batch` at Merrill's 16.8M "
            "(`dtsim-cli loss --params ... --tokens 15.6e12 --batch 16777216 [--critical-batch 16777216]`)."]


def convergence_blocks(cli, root):
    return {"convergence-modern-batch": modern_batch_block(cli), "convergence-jitter": jitter_block(cli), "convergence-published": published_block(cli, root), "convergence-worked": worked_block(cli),
            "convergence-diloco": diloco_block(cli, root), "convergence-frontier": frontier_block(cli)}
