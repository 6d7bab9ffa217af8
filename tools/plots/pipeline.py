#!/usr/bin/env python3
"""pipeline.py: predicted and measured run time of host-resident runs against the tile size, per
scheme and copy layout, like Figs. 7.1-7.9 of Visschers 2012, from the CSV tables of
`clstencil tune --pipeline --csv` (doc/data/<device>-<date>-pipeline-*.csv, PoCL or H100).

Usage: python3 tools/plots/pipeline.py OUTDIR TABLE.csv...

One PNG per table and step count, OUTDIR/<table name>-s<steps>.png: the median measured time
(solid, markers) and the prediction (dashed) of every scheme/layout against the tile count along
the slowest axis (log scale), copy-compute-copy as a horizontal line, the model's pick as a star.
Prints, per table and step count, the summary doc/pipeline.md's acceptance asks for: the best
measured configuration, the pick, its speed-up over copy-compute-copy, its prediction error and
its distance from the measured optimum.
Needs matplotlib; the library's build never runs this script.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"basic": "tab:blue", "scalable": "tab:green", "buffered": "tab:red"}


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return 0.0


def summarize(name, steps, rows):
    naive = [r for r in rows if r["kind"] == "naive"]
    pick = [r for r in rows if r["kind"] == "pick"]
    tiles = [r for r in rows if r["kind"] == "tile"]
    if not tiles:
        return None
    best = min(tiles, key=lambda r: num(r, "measured_median_s"))
    out = {"table": name, "steps": steps,
           "best": "%s %s %s (%s tiles) %.3f ms" % (best["scheme"], best["layout"], best["tile"],
                                                   best["tiles"], 1e3 * num(best, "measured_median_s"))}
    if naive:
        out["naive_ms"] = 1e3 * num(naive[0], "measured_median_s")
        out["naive_pred_ms"] = 1e3 * num(naive[0], "predicted_s")
    if pick:
        p = pick[0]
        m, pr = num(p, "measured_median_s"), num(p, "predicted_s")
        out["pick"] = "%s %s (%s tiles)" % (p["scheme"], p["tile"], p["tiles"])
        out["pick_ms"] = 1e3 * m
        out["pick_pred_ms"] = 1e3 * pr
        if pr > 0 and m > 0:
            out["pred_err_pct"] = 100 * (pr - m) / m
        out["vs_best_pct"] = 100 * (m - num(best, "measured_median_s")) / num(best, "measured_median_s")
        if naive and m > 0:
            out["speedup"] = num(naive[0], "measured_median_s") / m
    return out


def plot(outdir, name, steps, rows):
    fig, ax = plt.subplots(figsize=(7, 4.2))
    groups = defaultdict(list)
    for r in rows:
        if r["kind"] == "tile":
            groups[(r["scheme"], r["layout"])].append(r)
    for (scheme, layout), rs in sorted(groups.items()):
        rs.sort(key=lambda r: int(r["tiles"]))
        x = [int(r["tiles"]) for r in rs]
        color = STYLE.get(scheme, "black")
        ls = "-" if layout == "merged" else "-."
        ax.plot(x, [1e3 * num(r, "measured_median_s") for r in rs], ls, marker="o", ms=3,
                color=color, label="%s %s measured" % (scheme, layout))
        pred = [1e3 * num(r, "predicted_s") for r in rs]
        if any(p > 0 for p in pred):
            ax.plot(x, pred, "--", color=color, alpha=0.7, label="%s %s predicted" % (scheme, layout))
    for r in rows:
        if r["kind"] == "naive":
            ax.axhline(1e3 * num(r, "measured_median_s"), color="black", lw=1,
                       label="copy-compute-copy measured")
            if num(r, "predicted_s") > 0:
                ax.axhline(1e3 * num(r, "predicted_s"), color="black", lw=1, ls="--",
                           label="copy-compute-copy predicted")
        if r["kind"] == "pick" and r["tiles"] not in ("", "0"):
            ax.plot([int(r["tiles"])], [1e3 * num(r, "measured_median_s")], "*", ms=12,
                    color=STYLE.get(r["scheme"], "black"), label="model's pick (%s)" % r["scheme"])
    ax.set_xscale("log")
    ax.set_xlabel("tiles along the slowest axis")
    ax.set_ylabel("run time (ms, transfers included)")
    first = rows[0]
    ax.set_title("%s %s, %s step%s per tile" % (first["stencil"], first["size"], steps,
                                                "" if steps == "1" else "s"))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    path = os.path.join(outdir, "%s-s%s.png" % (name, steps))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    for path in argv[2:]:
        name = os.path.splitext(os.path.basename(path))[0]
        by_steps = defaultdict(list)
        for r in load(path):
            by_steps[r["steps"]].append(r)
        for steps, rows in sorted(by_steps.items(), key=lambda kv: int(kv[0])):
            print(plot(outdir, name, steps, rows))
            s = summarize(name, steps, rows)
            if s:
                print("  " + ", ".join("%s=%s" % (k, ("%.3f" % v) if isinstance(v, float) else v)
                                       for k, v in s.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
