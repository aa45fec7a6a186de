"""docs/model.md's offload figures, from dtsim-cli (update_docs.py calls `offload_blocks`)."""
import json, os, re, subprocess

ZERO_ROWS = ("zero-offload-", "zero-infinity-")
BASE = "tests/validation/offload-capacity-base.yaml"
CAPACITY = "tests/validation/offload-capacity.yaml"


def _json(cli, *args):
    return json.loads(subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout)


def _zero_rows(path):
    """The ZeRO rows' published TFLOP/s and offload map (the script reads YAML by hand: CI's
    Python has no YAML module)."""
    rows, current, in_offload = {}, None, False
    for line in open(path):
        if m := re.match(r"- id: (\S+)", line):
            current = m.group(1) if m.group(1).startswith(ZERO_ROWS) else None
            if current:
                rows[current] = {"tflops": None, "offload": {}}
            in_offload = False
        elif current:
            if m := re.match(r"    tflops_per_gpu: ([0-9.]+)", line):
                rows[current]["tflops"] = float(m.group(1))
            in_offload = line.startswith("    offload:") or (in_offload and line.startswith("      "))
            if in_offload and (m := re.match(r"      (\w+): (\w+)", line)):
                rows[current]["offload"][m.group(1)] = m.group(2)
    return rows


def _capacity_rows(path):
    """offload-capacity.yaml's rows: id, published_params, hidden, heads and set."""
    rows = []
    for line in open(path):
        if m := re.match(r"  - id: (\S+)", line):
            rows.append({"id": m.group(1)})
        elif rows and (m := re.match(r"    (published_params|hidden|heads): ([0-9.e]+)", line)):
            rows[-1][m.group(1)] = float(m.group(2))
        elif rows and (m := re.match(r"    set: \[(.*)\]", line)):
            rows[-1]["set"] = [x.strip() for x in m.group(1).split(",")]
    return rows


def validation_block(validation, root):
    """The ZeRO rows of published-runs.yaml: TFLOP/s per GPU published and predicted (the
    source's FLOP rule applied to dtsim's tokens/s), and each against the same paper's row
    that offloads nothing (which cancels the compute model's own error)."""
    rows = _zero_rows(os.path.join(root, "tests/validation/published-runs.yaml"))
    runs = {r["id"]: r for r in validation["runs"] if r["id"] in rows and not r["skipped"]}
    tflops = lambda i: rows[i]["tflops"] * runs[i]["predicted_tokens_per_s_per_gpu"] / runs[i]["reported_tokens_per_s_per_gpu"]
    out = ["| row | offloaded | published TFLOP/s per GPU | dtsim | error | against the paper's on-GPU row: published | dtsim |",
           "|---|---|---|---|---|---|---|"]
    for i, row in rows.items():
        if i not in runs:
            continue
        off = row["offload"]
        where = ", ".join(f"{k} {v}" for k, v in off.items()) or "nothing"
        ref = "zero-infinity-10b-dgx2" if i.endswith("-dgx2") else "zero-infinity-1t-512xv100" if i.startswith("zero-infinity") else None
        rel = "-"
        if ref and off and ref in runs:
            pub = row["tflops"] / rows[ref]["tflops"]
            rel = f"{pub:.2f} | {tflops(i) / tflops(ref):.2f}"
        else:
            rel = "- | -"
        out.append(f"| `{i}` | {where} | {row['tflops']:g} | {tflops(i):.1f} | {100 * runs[i]['rel_error']:+.0f}% | {rel} |")
    return out


def _fits(cli, sets, layers):
    args = ["simulate", BASE] + [a for s in sets for a in ("--set", s)] + ["--set", f"model.layers={layers}"]
    d = _json(cli, *args)
    return d["fits_in_memory"], d["parameters"]


def capacity_block(cli, root):
    data = {"rows": _capacity_rows(os.path.join(root, CAPACITY))}
    rows = ["| system (one DGX-2, batch 1 a GPU) | published largest | dtsim: deepest that fits | error |", "|---|---|---|---|"]
    for r in data["rows"]:
        sets = list(r["set"]) + [f"model.hidden={int(r['hidden'])}", f"model.heads={int(r['heads'])}"]
        fits, params, step = 0, 0.0, 512
        while step >= 1:
            ok, p = _fits(cli, sets, fits + step)
            if ok:
                fits, params = fits + step, p
            else:
                step //= 2
        rows.append(f"| {r['id']} | {r['published_params'] / 1e9:g}B | {params / 1e9:.1f}B ({fits} layers of {int(r['hidden'])}) "
                    f"| {100 * (params / r['published_params'] - 1):+.0f}% |")
    return rows


def worked_block(cli):
    d = _json(cli, "simulate", "offload-70b-one-node")
    o, b, m = d["offload"], d["breakdown"], d
    lines = [f"The preset `offload-70b-one-node` (Llama 2 70B, 8 H100 on one DGX H100, ZeRO-3, full recomputation) keeps "
             f"{o['host_memory_bytes'] / 1e9:.0f} GB a GPU in host memory (of 250 GB) and needs "
             f"{m['memory_per_gpu_bytes'] / 2**30:.1f} GiB of GPU memory. A step takes {d['step_time_s']:.1f} s, of which the host "
             f"adds {b['offload']:.1f} s: the CPU's Adam step on its {o['cpu_optimizer_s']:.1f} s against copies of "
             f"{o['optimizer_copies_s']:.2f} s, and gradients streamed under backward ({o['gradient_copies_s']:.2f} s in all)."]
    lines.append("")
    lines.append("| host link per GPU | step | waiting for the host |")
    lines.append("|---|---|---|")
    for link in ("55GB/s", "27.5GB/s", "12.5GB/s", "3GB/s"):
        s = _json(cli, "simulate", "offload-70b-one-node", "--set", f"hardware.host_link_bandwidth={link}")
        lines.append(f"| {link.replace('GB/s', ' GB/s')} | {s['step_time_s']:.1f} s | {s['breakdown']['offload']:.1f} s |")
    return lines


def offload_blocks(cli, validation, root):
    return {"offload-validation": validation_block(validation, root), "offload-capacity": capacity_block(cli, root),
            "offload-worked": worked_block(cli)}
