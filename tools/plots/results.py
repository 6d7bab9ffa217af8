#!/usr/bin/env python3
"""results.py: the figures of doc/results.md from the benchmark suite's tables.

Usage: python3 tools/plots/results.py [--out OUTDIR] RESULTS_DIR...
       python3 tools/plots/results.py --markdown RESULTS_DIR...

Each RESULTS_DIR (doc/data/results-TAG, written by tools/bench/pocl_results.sh or
tools/gpu/h100_results.sh) may hold:
  suite-CLASS.csv         `clstencil bench suite --out DIR/suite-CLASS` (one row per app)
  PREFIX-sweep.csv        `bench suite --sweep --out DIR/PREFIX` (trapezoid height h and
                          stream25d steps per pass k against time per step), with PREFIX.csv
                          beside it
  omp.csv                 tools/bench/omp_stencils --csv rows (header lines repeated is fine)
  cuda.csv                tools/bench/cuda/*_cuda --csv rows
  interleaved.csv         pocl_results.sh's rounds of [OpenMP, libclstencil] back to back

and gives, in OUTDIR (default doc/img), for TAG:
  results-TAG-CLASS-bars.png       GPoints/s of the model's plan, the naive schedule and every
                                   baseline at the same size and steps, one group per app
  results-TAG-PREFIX-APP.png       measured and predicted time per step against the tuning
                                   parameter (trapezoid h; stream25d steps per pass k for 3D
                                   apps), with the model's plan and the naive schedule as lines

With --markdown it draws nothing and prints, per suite table, the Markdown table of
doc/results.md: each app's model's plan, naive and baseline figures and the ratio of the
model's plan to the fastest baseline (>= 1: libclstencil is at least as fast); and, from
interleaved.csv, each app's best and median GPoints/s of both sides over the rounds, the
ratio of the medians and the rounds libclstencil won.

Needs matplotlib (not for --markdown); the library's build never runs this script (`make
plots` does).
"""
import csv
import glob
import os
import re
import sys

plt = None


def need_matplotlib():
    global plt
    if plt is None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot

        plt = pyplot


def read_rows(path):
    """CSV rows as dicts; repeated header lines (concatenated outputs) are skipped."""
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.strip()]
    if not lines:
        return []
    header = lines[0]
    body = [ln for ln in lines[1:] if ln != header and not ln.startswith(("name,", "app,"))]
    return list(csv.DictReader([header] + body))


def num(row, key):
    try:
        return float(row.get(key, ""))
    except (TypeError, ValueError):
        return 0.0


def baselines(folder):
    """{(app, size, steps): [(impl, gpoints_per_s)]} from omp.csv and cuda.csv."""
    out = {}
    for name, default_impl in (("omp.csv", "openmp"), ("cuda.csv", "cuda")):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        for r in read_rows(path):
            impl = r.get("impl") or default_impl
            if default_impl == "openmp" and r.get("threads"):
                impl = f"openmp ({r['threads']} threads)"
            key = (r.get("name", ""), r.get("size", ""), r.get("steps", ""))
            # Several runs of one baseline (e.g. the ghost-zone height): keep the fastest.
            best = {i: g for i, g in out.get(key, [])}
            g = num(r, "gpoints_per_s")
            if g > best.get(impl, 0.0):
                best[impl] = g
            out[key] = sorted(best.items())
    return out


def markdown(tag, cls, rows, base):
    """The doc/results.md table of one suite run."""
    print(f"\n{tag}, {cls} sizes ({rows[0].get('device', '') if rows else ''}):\n")
    print("| app | size | steps | model's plan | time/step | GPoints/s | % of copy | predicted "
          "(error) | naive GPoints/s | speed-up | best baseline GPoints/s | ratio |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        if r.get("status") != "ok":
            print(f"| {r.get('app')} | {r.get('size')} | {r.get('steps')} | failed: "
                  f"{r.get('status')} | | | | | | | | |")
            continue
        b = base.get((r["app"], r["size"], r["steps"]), [])
        best = max(b, key=lambda x: x[1]) if b else None
        g = num(r, "gpoints_per_s")
        naive = num(r, "naive_seconds_per_step")
        ng = num(r, "points") / naive / 1e9 if naive > 0 else 0
        pred = num(r, "predicted_seconds_per_step")
        ptxt = f"{pred * 1e3:.3f} ms ({num(r, 'prediction_error_percent'):+.0f} %)" if pred > 0 else "-"
        btxt = f"{best[1]:.3f} ({best[0]})" if best else "-"
        ratio = f"{g / best[1]:.2f}" if best and best[1] > 0 else "-"
        print(f"| {r['app']} | {r['size']} | {r['steps']} | {r['plan']} | "
              f"{num(r, 'seconds_per_step') * 1e3:.3f} ms | {g:.3f} | "
              f"{100 * num(r, 'copy_fraction'):.0f} | {ptxt} | {ng:.3f} | "
              f"{num(r, 'speedup_vs_naive'):.2f} | {btxt} | {ratio} |")


def median(vals):
    v = sorted(vals)
    n = len(v)
    return 0.0 if not n else v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def interleaved_markdown(tag, path):
    """The table of the interleaved rounds: both sides' best and median, the rounds won."""
    runs = {}
    order = []
    for r in read_rows(path):
        key = (r.get("app", ""), r.get("size", ""), r.get("steps", ""))
        if key not in runs:
            runs[key] = {}
            order.append(key)
        runs[key].setdefault(r.get("round", ""), {})[r.get("impl", "")] = num(r, "gpoints_per_s")
    print(f"\n{tag}, interleaved rounds (GPoints/s; each round OpenMP then libclstencil):\n")
    print("| app | size | steps | rounds | libclstencil best / median | OpenMP best / median | "
          "ratio of medians | rounds won |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for key in order:
        pairs = [(v.get("libclstencil", 0.0), v.get("openmp", 0.0)) for v in runs[key].values()
                 if v.get("libclstencil", 0.0) > 0 and v.get("openmp", 0.0) > 0]
        if not pairs:
            continue
        lib = [p[0] for p in pairs]
        omp = [p[1] for p in pairs]
        won = sum(1 for a, b in pairs if a >= b)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(pairs)} | {max(lib):.3f} / "
              f"{median(lib):.3f} | {max(omp):.3f} / {median(omp):.3f} | "
              f"{median(lib) / median(omp):.2f} | {won} of {len(pairs)} |")


def bars(tag, cls, rows, base, outdir):
    rows = [r for r in rows if r.get("status") == "ok"]
    if not rows:
        return None
    need_matplotlib()
    labels = [f"{r['app']}\n{r['size']}" for r in rows]
    series = {"libclstencil (model's plan)": [], "libclstencil naive": []}
    extra = sorted({impl for r in rows for impl, _ in base.get((r["app"], r["size"], r["steps"]), [])})
    for impl in extra:
        series[impl] = []
    for r in rows:
        series["libclstencil (model's plan)"].append(num(r, "gpoints_per_s"))
        naive = num(r, "naive_seconds_per_step")
        series["libclstencil naive"].append(num(r, "points") / naive / 1e9 if naive > 0 else 0)
        b = dict(base.get((r["app"], r["size"], r["steps"]), []))
        for impl in extra:
            series[impl].append(b.get(impl, 0.0))
    fig, ax = plt.subplots(figsize=(max(8, 1.25 * len(rows)), 4.8))
    width = 0.8 / len(series)
    for k, (name, vals) in enumerate(series.items()):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(rows))]
        ax.bar(xs, vals, width, label=name)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("GPoints/s (higher is better)")
    dev = rows[0].get("device", "")
    ax.set_title(f"{tag}, {cls} sizes: {dev}", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(outdir, f"results-{tag}-{cls}-bars.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


SWEEP_LABELS = {"trapezoid": "trapezoid (h steps per stage)",
                "stream25d": "stream25d (k steps per pass)"}


def sweeps(tag, cls, sweep_rows, suite_rows, outdir):
    """Per app, measured and predicted time per step against the tuning parameter: the
    trapezoid's height h and (3D apps) stream25d's steps per pass k, one pair of curves per
    schedule."""
    made = []
    by_app = {}
    need_matplotlib()
    for r in sweep_rows:
        if num(r, "measured_seconds_per_step") > 0:
            by_app.setdefault(r["app"], []).append(r)
    suite = {r["app"]: r for r in suite_rows}
    us = 1e6
    for app, rs in sorted(by_app.items()):
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        scheds = sorted({r.get("schedule", "trapezoid") for r in rs})
        for sched in scheds:
            sr = sorted((r for r in rs if r.get("schedule", "trapezoid") == sched),
                        key=lambda r: int(r["h"]))
            x = [int(r["h"]) for r in sr]
            name = SWEEP_LABELS.get(sched, sched)
            line, = ax.plot(x, [num(r, "measured_seconds_per_step") * us for r in sr], "o-",
                            label=f"{name}: measured")
            pred = [num(r, "predicted_seconds_per_step") * us for r in sr]
            if any(p > 0 for p in pred):
                ax.plot(x, pred, "s--", color=line.get_color(), alpha=0.7,
                        label=f"{name}: predicted")
        s = suite.get(app)
        if s is not None:
            ax.axhline(num(s, "naive_seconds_per_step") * us, color="grey", ls=":",
                       label="naive: measured")
            ax.axhline(num(s, "seconds_per_step") * us, color="tab:green", ls="-.",
                       label=f"model's plan ({s.get('schedule', '')}): measured")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("steps per stage (trapezoid h) or per pass (stream25d k)"
                      if len(scheds) > 1 else
                      "trapezoid height h (steps per stage)" if scheds == ["trapezoid"] else
                      "steps per pass k")
        ax.set_ylabel("time per step (us)")
        ax.set_yscale("log" if len(scheds) > 1 else "linear")
        size = rs[0].get("size", "")
        ax.set_title(f"{app} {size}, {rs[0].get('steps', '')} steps ({tag})", fontsize=10)
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = os.path.join(outdir, f"results-{tag}-{cls}-{app}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)
    return made


def main(argv):
    outdir = "doc/img"
    dirs = []
    md = False
    it = iter(argv)
    for a in it:
        if a == "--out":
            outdir = next(it, outdir)
        elif a == "--markdown":
            md = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            dirs.append(a)
    if not dirs:
        print(__doc__, file=sys.stderr)
        return 2
    if not md:
        os.makedirs(outdir, exist_ok=True)
    made = []
    for d in dirs:
        if not os.path.isdir(d):
            continue
        tag = re.sub(r"^results-", "", os.path.basename(os.path.normpath(d)))
        base = baselines(d)
        for path in sorted(glob.glob(os.path.join(d, "suite-*.csv"))):
            m = re.match(r"suite-(\w+)\.csv$", os.path.basename(path))
            if not m:
                continue
            cls = m.group(1)
            rows = read_rows(path)
            if md:
                markdown(tag, cls, rows, base)
                made.append(path)
                continue
            p = bars(tag, cls, rows, base, outdir)
            if p:
                made.append(p)

        if md and os.path.exists(os.path.join(d, "interleaved.csv")):
            interleaved_markdown(tag, os.path.join(d, "interleaved.csv"))
        # PREFIX-sweep.csv beside PREFIX.csv (the suite rows of the same run).
        for sw in [] if md else sorted(glob.glob(os.path.join(d, "*-sweep.csv"))):
            prefix = sw[: -len("-sweep.csv")]
            rows = read_rows(prefix + ".csv") if os.path.exists(prefix + ".csv") else []
            made += sweeps(tag, os.path.basename(prefix), read_rows(sw), rows, outdir)
    for p in [] if md else made:
        print(p)
    if not made:
        print("results.py: no suite tables found in " + " ".join(dirs), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
