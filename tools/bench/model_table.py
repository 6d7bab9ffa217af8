#!/usr/bin/env python3
"""model_table.py PREFIX: the tables of tools/bench/pocl_model.sh's runs (doc/results.md,
"The CPU model on PoCL").

Reads PREFIX-suite-N.csv (the rounds of `clstencil bench suite`) and PREFIX-sweep.csv with
PREFIX-sweep-sweep.csv (`--sweep`).  Prints, per application, the model's prediction, the
median measured time over all rounds and its error, the same over the quiet rounds (those whose
copy kernel, timed beside the app, ran at 85 % or more of the app's fastest copy: another
process on the shared cores slows both), and the pick against the best configuration of the
sweep (the pick's own time and every swept schedule's, from the --sweep run)."""
import csv
import glob
import statistics
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(prefix):
    rounds = sorted(glob.glob(prefix + "-suite-*.csv"),
                    key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0]))
    apps = {}
    for path in rounds:
        for r in rows(path):
            if r["status"] != "ok":
                continue
            a = apps.setdefault(r["app"], {"size": r["size"], "plan": r["plan"],
                                           "pred": [], "t": [], "copy": []})
            a["pred"].append(float(r["predicted_seconds_per_step"]))
            a["t"].append(float(r["seconds_per_step"]))
            a["copy"].append(float(r["copy_gbytes_per_s"]))
    print("| app | size | plan | predicted | measured, median of %d | err | quiet rounds "
          "| measured, median of quiet | err |" % len(rounds))
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for app, a in apps.items():
        pred = statistics.median(a["pred"])
        t = statistics.median(a["t"])
        top = max(a["copy"])
        quiet = [t for t, c in zip(a["t"], a["copy"]) if c >= 0.85 * top]
        tq = statistics.median(quiet)
        print("| %s | %s | %s | %.1f us | %.1f us | %+.0f %% | %d | %.1f us | %+.0f %% |" %
              (app, a["size"], a["plan"], pred * 1e6, t * 1e6, (pred - t) / t * 100,
               len(quiet), tq * 1e6, (pred - tq) / tq * 100))
    try:
        suite = {r["app"]: r for r in rows(prefix + "-sweep.csv") if r["status"] == "ok"}
        sweep = rows(prefix + "-sweep-sweep.csv")
    except FileNotFoundError:
        return
    print()
    print("| app | pick | pick measured | best swept | best measured | pick / best "
          "| best cputile (h) | cputile / pick |")
    print("| --- | --- | ---: | --- | ---: | ---: | --- | ---: |")
    for app, r in suite.items():
        pick = float(r["seconds_per_step"])
        cand = [(float(s["measured_seconds_per_step"]), s["schedule"], s["h"])
                for s in sweep if s["app"] == app]
        best = min(cand + [(pick, "pick", "")])
        ct = [c for c in cand if c[1] == "cputile"]
        bc = min(ct) if ct else None
        print("| %s | %s | %.1f us | %s %s | %.1f us | %.3f | %s | %s |" %
              (app, r["plan"], pick * 1e6, best[1], best[2], best[0] * 1e6, pick / best[0],
               "%.1f us (%s)" % (bc[0] * 1e6, bc[2]) if bc else "-",
               "%.2f" % (bc[0] / pick) if bc else "-"))


if __name__ == "__main__":
    main(sys.argv[1])
