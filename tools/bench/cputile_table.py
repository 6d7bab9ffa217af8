#!/usr/bin/env python3
"""cputile_table.py CSV: the table of doc/results.md, "cputile on PoCL", from the CSV of
tools/bench/pocl_cputile.sh: per application the best and the median over the rounds of each
side's GPoints/s, the ratios of the medians and the rounds in which AUTO's plan beat OpenMP."""
import csv
import statistics
import sys


def main(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if line.count(",") >= 7))
    apps, runs, plan, size = [], {}, {}, {}
    for r in rows:
        a = r["app"]
        if a not in apps:
            apps.append(a)
        runs.setdefault((a, r["impl"]), []).append(float(r["gpoints_per_s"]))
        size[a] = r["size"]
        if r["impl"] == "auto":
            plan[a] = r["plan"].replace(";", " ")
    print("| app | size | plan (AUTO) | AUTO best / median | naive best / median | "
          "OpenMP best / median | AUTO / OpenMP | AUTO / naive | rounds AUTO beat OpenMP |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for a in apps:
        au, na, om = runs[(a, "auto")], runs[(a, "naive")], runs[(a, "openmp")]
        med = statistics.median
        won = sum(1 for x, y in zip(au, om) if x > y)
        print(f"| {a} | {size[a]} | {plan[a]} | {max(au):.3f} / {med(au):.3f} | "
              f"{max(na):.3f} / {med(na):.3f} | {max(om):.3f} / {med(om):.3f} | "
              f"{med(au) / med(om):.2f} | {med(au) / med(na):.2f} | {won} of {len(au)} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: cputile_table.py CSV")
    main(sys.argv[1])
