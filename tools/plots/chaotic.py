#!/usr/bin/env python3
"""chaotic.py: the chaotic-relaxation comparisons of doc/chaotic.md as figures like Figs. 7-14 of
Chen et al., from the CSV tables of `clstencil poisson-edit|sfs --compare --format
csv` (doc/data/<device>-<date>-chaotic-*.csv, PoCL or H100).

Usage: python3 tools/plots/chaotic.py OUTDIR TABLE.csv...

One PNG per table, OUTDIR/<table name>.png, by what the table varies:
  - the host-sync interval n (Figs. 7-10): time to convergence, steps and time per step
    against n, one line per variant, base (n = 1) as a dashed line when the table has it;
  - the exchange interval l (Figs. 11-13): the same three against l;
  - neither (one n, one l): bars per variant of the time (labelled with the speed-up over
    base), the steps and the time per step.
Tables named ...-commC.csv (C communication items, Fig. 14) are instead gathered per prefix into
OUTDIR/<prefix>-comm.png: time against the communication items for each variant and l, with
the default of 32 taken from <prefix>-l.csv or <prefix>-update.csv when present.
Runs that did not converge are drawn hollow (lines) or hatched (bars): their time is the time
to the step or time limit, not to convergence.
Needs matplotlib; the library's build never runs this script.
"""
import csv
import os
import re
import sys
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["base", "coarse", "ud-stripe", "ud-square", "4w-stripe", "4w-square",
         "4w-combine-stripe", "4w-combine-square"]
STYLE = {
    "base": ("black", "o", "--"),
    "coarse": ("tab:grey", "s", "-"),
    "ud-stripe": ("tab:blue", "v", "-"),
    "ud-square": ("tab:blue", "^", ":"),
    "4w-stripe": ("tab:green", "D", "-"),
    "4w-square": ("tab:green", "d", ":"),
    "4w-combine-stripe": ("tab:red", "P", "-"),
    "4w-combine-square": ("tab:red", "X", ":"),
}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("check_interval", "exchange_interval", "steps", "checks"):
            r[k] = int(r.get(k) or 0)
        for k in ("seconds", "device_seconds", "seconds_per_step", "speedup_over_base"):
            try:
                r[k] = float(r.get(k) or 0)
            except ValueError:
                r[k] = 0.0
        r["ok"] = r.get("outcome") == "converged"
    return rows


def device_of(path):
    """The device and date from the file name (h100-2026-11-22-chaotic-...)."""
    m = re.match(r"(.+?)-(\d{4}-\d{2}-\d{2})-chaotic-(.+)\.csv$", os.path.basename(path))
    return (m.group(1), m.group(2), m.group(3)) if m else ("", "", os.path.basename(path))


def title_of(path, rows):
    dev, day, what = device_of(path)
    job = rows[0]["job"] if rows else what
    return f"{dev.upper() or 'device'} {day}: {job} ({what})"


def variants_of(rows):
    seen = OrderedDict()
    for r in rows:
        seen[r["variant"]] = 1
    return sorted(seen, key=lambda v: ORDER.index(v) if v in ORDER else len(ORDER))


def sweep(rows, key):
    """Some variant appears with more than one value of `key`."""
    vals = defaultdict(set)
    for r in rows:
        vals[r["variant"]].add(r[key])
    return any(len(v) > 1 for v in vals.values())


PANELS = (("seconds", "time to convergence (s)", 1.0),
          ("steps", "iterative steps", 1.0),
          ("seconds_per_step", "time per step (us)", 1e6))


def plot_sweep(path, rows, key, xlabel, outdir):
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    base = [r for r in rows if r["variant"] == "base"]
    for ax, (col, ylabel, scale) in zip(axes, PANELS):
        for v in variants_of(rows):
            if v == "base":
                continue
            sel = sorted((r for r in rows if r["variant"] == v), key=lambda r: r[key])
            if not sel:
                continue
            colour, marker, ls = STYLE.get(v, ("tab:purple", "o", "-"))
            xs = [r[key] for r in sel]
            ys = [r[col] * scale for r in sel]
            ax.plot(xs, ys, ls=ls, color=colour, label=v)
            ax.scatter([x for x, r in zip(xs, sel) if r["ok"]],
                       [y for y, r in zip(ys, sel) if r["ok"]], marker=marker, color=colour)
            bad = [(x, y) for x, y, r in zip(xs, ys, sel) if not r["ok"]]
            if bad:
                ax.scatter(*zip(*bad), marker=marker, facecolors="none", edgecolors=colour)
        if base:
            b = base[0]
            ax.axhline(b[col] * scale, color="black", ls="--",
                       label="base (every step)" + ("" if b["ok"] else ", not converged"))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if col != "steps":
            ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    if not base:
        axes[0].text(0.02, 0.02, "base not in this table", transform=axes[0].transAxes, fontsize=7)
    fig.suptitle(title_of(path, rows), fontsize=10)
    fig.tight_layout()
    return save(fig, path, outdir)


def plot_bars(path, rows, outdir):
    vs = [v for v in variants_of(rows)]
    sel = [next(r for r in rows if r["variant"] == v) for v in vs]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    x = range(len(sel))
    for ax, (col, ylabel, scale) in zip(axes, PANELS):
        colours = [STYLE.get(v, ("tab:purple",))[0] for v in vs]
        bars = ax.bar(x, [r[col] * scale for r in sel], color=colours,
                      hatch=None, edgecolor="black", linewidth=0.5)
        for b, r in zip(bars, sel):
            if not r["ok"]:
                b.set_hatch("//")
                b.set_alpha(0.5)
        if col == "seconds":
            for b, r in zip(bars, sel):
                lab = f"{r['speedup_over_base']:.1f}x" if r["speedup_over_base"] > 0 else ""
                if not r["ok"]:
                    lab = "not conv."
                if lab:
                    ax.annotate(lab, (b.get_x() + b.get_width() / 2, b.get_height()),
                                ha="center", va="bottom", fontsize=7)
        ax.set_xticks(list(x))
        ax.set_xticklabels(vs, rotation=35, ha="right", fontsize=8)
        ax.set_ylabel(ylabel)
        if col != "steps":
            ax.set_yscale("log")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    n = sorted({r["check_interval"] for r in sel if r["variant"] != "base"})
    ls = sorted({r["exchange_interval"] for r in sel if r["exchange_interval"]})
    fig.suptitle(f"{title_of(path, rows)}; n = {','.join(map(str, n))}, "
                 f"l = {','.join(map(str, ls))}", fontsize=10)
    fig.tight_layout()
    return save(fig, path, outdir)


def save(fig, path, outdir, name=None):
    name = name or os.path.splitext(os.path.basename(path))[0] + ".png"
    dest = os.path.join(outdir, name)
    fig.savefig(dest, dpi=100)
    plt.close(fig)
    print(dest)
    return dest


def plot_comm(prefix, files, outdir):
    """Fig. 14: time against the communication items, per variant and l."""
    series = defaultdict(dict)
    ok = {}
    job = ""
    for c, path in files:
        for r in read(path):
            k = (r["variant"], r["exchange_interval"])
            series[k][c] = r["seconds"]
            ok[(k, c)] = r["ok"]
            job = r["job"]
    wanted = {k for k in series}
    for extra in (prefix + "-l.csv", prefix + "-update.csv"):
        if os.path.exists(extra):
            for r in read(extra):
                k = (r["variant"], r["exchange_interval"])
                if k in wanted and 32 not in series[k]:
                    series[k][32] = r["seconds"]
                    ok[(k, 32)] = r["ok"]
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for (v, l), pts in sorted(series.items()):
        cs = sorted(pts)
        colour, marker, _ = STYLE.get(v, ("tab:purple", "o", "-"))
        ax.plot(cs, [pts[c] for c in cs], ls="-" if l == 1 else ":", color=colour,
                marker=marker, label=f"{v}, l = {l}")
        bad = [(c, pts[c]) for c in cs if not ok.get(((v, l), c), True)]
        if bad:
            ax.scatter(*zip(*bad), s=120, facecolors="none", edgecolors="black")
    ax.set_xlabel("communication work-items per group (0: computation items exchange)")
    ax.set_ylabel("time to convergence (s)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    dev, day, _ = device_of(files[0][1])
    ax.set_title(f"{dev.upper()} {day}: {job}, communication items", fontsize=9)
    fig.tight_layout()
    return save(fig, files[0][1], outdir, os.path.basename(prefix) + "-comm.png")


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    comm = defaultdict(list)
    for path in argv[2:]:
        rows = read(path)
        if not rows:
            print(f"{path}: empty, skipped")
            continue
        m = re.match(r"(.*)-comm(\d+)\.csv$", path)
        if m:
            comm[m.group(1)].append((int(m.group(2)), path))
            continue
        if sweep(rows, "check_interval"):
            plot_sweep(path, rows, "check_interval", "host synchronisation interval n (steps)",
                       outdir)
        elif sweep(rows, "exchange_interval"):
            plot_sweep(path, rows, "exchange_interval", "exchange interval l (steps)", outdir)
        else:
            plot_bars(path, rows, outdir)
    for prefix, files in comm.items():
        plot_comm(prefix, sorted(files), outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
