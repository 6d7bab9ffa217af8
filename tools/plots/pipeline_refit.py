#!/usr/bin/env python3
"""pipeline_refit.py: re-evaluates the pipeline model of 003_9039035f5da401ab.txt (Sect. 6.3,
6.4.1, 6.4.4; model/pipeline.c) on measured `clstencil tune --pipeline --csv` tables with other
device inputs, to find which input makes the predictions miss.

Usage: python3 tools/plots/pipeline_refit.py DEVICE.json TABLE.csv... [--factor F]...
       [--base-factor F] [--queued | --hidden] [--rows]

DEVICE.json is the probe the tables were predicted with.  For basic and scalable rows with
merged copies (tiles along the slowest axis, one transfer per array and tile) it recomputes the
prediction as model/pipeline.c does (EXACT padding, edge tiles, the steps of Sect. 6.4.4, the
allocation of Sect. 6.4.1, the planner's tile kernel of lib/plan_pipeline.c) and evaluates:
  * the baseline: the file's overlap factor (or --base-factor, the factor the CSV was predicted
    with when the file has changed since), table copies.  It must reproduce the CSV's
    `predicted_s`: the largest deviation is printed as the check;
  * each --factor F: the overlap coefficient 2 / F - 1 (Sect. 6.4.4);
  * --queued (for the baseline and each factor): queued copies, as model/pipeline.c does when
    cls_pipe_device.queued_copies is set: a copy queued behind another on the same in-order queue
    costs its table time less the table's latency (its smallest-size entry: the submission and
    completion of one blocking call), which only the first copy of each direction pays, plus the
    device's turnaround of a queued command (the probe's kernel restart, sync.kernel_restart);
  * --hidden instead: the same without the turnaround (the latency fully hidden).
The kernel model is the planner's (lib/plan_pipeline.c tile_kernel_ns): ns_per_point per point
and step over the shrinking regions of a tile's h steps, plus the probe's kernel restart per
launch; ns_per_point is read back from the CSV's one-tile scalable row (its prediction less the
allocation and the two whole-grid copies is exactly the tile kernel).

For each table, step count and variant it prints the mean signed and absolute prediction error
over the rows (against the median), the pick of the variant's planner over all tile lengths
(Sect. 5.5 candidates: 1..64 tiles, then +8 %), the pick among the measured rows (what the
planner would choose if it could only choose those), its prediction error and its distance from
the measured optimum (the fastest measured merged row); then a summary per table and variant.
--rows prints every row's prediction.  Standard library only.
"""
import csv
import json
import math
import sys
from collections import defaultdict

HALO = {"moving_average": 4, "emboss": 1, "jacobi3d": 1, "hotspot": 1}
ELEM = 4


def interp(c, b):
    """model/pipeline.c cls_pipe_curve_ns (Sect. 6.3)."""
    if b <= 0:
        return 0.0
    if b <= c[0][0]:
        return c[0][1]
    if b >= c[-1][0]:
        (x0, y0), (x1, y1) = c[-2], c[-1]
        s = (y1 - y0) / (x1 - x0)
        return y1 + s * (b - x1) if s > 0 else y1
    for (x0, y0), (x1, y1) in zip(c, c[1:]):
        if b <= x1:
            return y0 + (y1 - y0) * (b - x0) / (x1 - x0)
    return c[-1][1]


def dims_of(size):
    return [int(v) for v in size.split("x")]


class Dev:
    def __init__(self, path):
        d = json.load(open(path))
        pts = lambda lst: [(p["bytes"], p["ns"]) for p in lst]
        self.h2d = pts(d["transfer"]["host_to_device_pinned"])
        self.d2h = pts(d["transfer"]["device_to_host_pinned"])
        self.alloc = pts(d["alloc"]["device"])
        self.factor = d["transfer"]["overlap_factor"]
        self.restart_ns = d["sync"]["kernel_restart_cycles"] / d["compute"]["clock_mhz"] * 1e3


def coeff(factor):
    """model/pipeline.c cls_pipe_overlap_coeff."""
    if not factor > 1.0:
        return 1.0
    if factor >= 2.0:
        return 0.0
    return 2.0 / factor - 1.0


def copy_ns(c, b, queued, first, turnaround=0.0):
    """One merged copy of b bytes: the table's time; queued behind another copy of its stream,
    the table's time less its latency (its first entry), never below 0, plus the turnaround of a
    queued command (model/pipeline.c cls_pipe_queued_ns: the probe's kernel restart)."""
    t = interp(c, b)
    if not queued or first or b <= 0:
        return t
    return max(0.0, t - c[0][1]) + turnaround


class Prog:
    """One table's program at one step count: grid, padding, kernel rate."""

    def __init__(self, dev, rows):
        r0 = rows[0]
        self.stencil = r0["stencil"]
        self.size = dims_of(r0["size"])
        self.n_slow = self.size[-1]
        self.plane = 1
        for v in self.size[:-1]:
            self.plane *= v
        self.points = self.plane * self.n_slow
        self.dev = dev
        self.nspp = None
        for r in rows:
            if (r["kind"] == "tile" and r["scheme"] == "scalable" and r["layout"] == "merged"
                    and dims_of(r["tile"]) == self.size):
                h = int(r["steps_per_tile"])
                full = self.points * ELEM
                k = (float(r["predicted_s"]) * 1e9 - 2 * interp(dev.alloc, full)
                     - interp(dev.h2d, full) - interp(dev.d2h, full))
                self.nspp = max(0.0, (k - h * dev.restart_ns) / (h * self.points))

    def kernel(self, lo, hi, ilo, ihi, h):
        """lib/plan_pipeline.c tile_kernel_ns: h steps over the tile widened by (h - j) halos,
        clipped to the input box, plus a restart per launch."""
        halo = HALO[self.stencil]
        ns = h * self.dev.restart_ns
        for j in range(1, h + 1):
            e = min((hi - lo) + 2 * halo * (h - j), ihi - ilo)
            ns += e * self.plane * self.nspp
        return ns

    def predict(self, scheme, t_slow, h, factor, queued):
        """(alloc, pipeline) in ns, basic or scalable, merged, EXACT padding."""
        dev = self.dev
        pad = HALO[self.stencil] * h
        n = (self.n_slow + t_slow - 1) // t_slow

        def tile(i):
            lo = i * t_slow
            hi = min(self.n_slow, lo + t_slow)
            ilo, ihi = max(0, lo - pad), min(self.n_slow, hi + pad)
            return ((ihi - ilo) * self.plane * ELEM, self.kernel(lo, hi, ilo, ihi, h),
                    (hi - lo) * self.plane * ELEM)

        # Classes: first, middle, last (EXACT padding, Sect. 6.4.3 refined).
        cls = {0: tile(0)}
        if n >= 2:
            cls[n - 1] = tile(n - 1)
        if n >= 3:
            cls[1] = tile(1)

        turn = dev.restart_ns if queued == "restart" else 0.0

        def stages(i):
            b_in, k, b_out = cls[i if i in (0, n - 1) else 1]
            return (copy_ns(dev.h2d, b_in, queued, i == 0, turn), k,
                    copy_ns(dev.d2h, b_out, queued, i == 0, turn))

        c = coeff(factor)

        def step(j):  # Sect. 6.4.4: step j runs in(j), kernel(j - 1), out(j - 2)
            a = stages(j)[0] if j < n else 0.0
            k = stages(j - 1)[1] if 0 <= j - 1 < n else 0.0
            o = stages(j - 2)[2] if 0 <= j - 2 < n else 0.0
            return max(max(a, o) + c * min(a, o), k)

        steps = n + 2
        run = 0.0
        if steps <= 8:
            run = sum(step(j) for j in range(steps))
        else:  # steps 3 .. n - 2 only involve middle tiles: all equal
            run = sum(step(j) for j in (0, 1, 2, n - 1, n, n + 1)) + (n - 4) * step(3)
        if scheme == "basic":
            alloc = 2 * interp(dev.alloc, self.points * ELEM)
        else:
            sets = min(3, n)
            big_in = max(cls[i][0] for i in cls)
            big_out = max(cls[i][2] for i in cls)
            alloc = sets * (interp(dev.alloc, big_in) + interp(dev.alloc, big_out))
        return alloc, run

    def candidates(self):
        """model/pipeline.c tile_lengths (fine): ceil(N / k), k = 1..64, then +8 %."""
        out, prev, k = [], 0, 1
        kmax = min(self.n_slow, 65536)
        while k <= kmax:
            t = (self.n_slow + k - 1) // k
            if t != prev:
                out.append(t)
                prev = t
            k = k + 1 if k < 64 else int(math.ceil(k * 1.08))
        if self.n_slow <= 65536 and prev != 1:
            out.append(1)
        return out


def med(r):
    return float(r["measured_median_s"]) * 1e9


def main(argv):
    factors, files, queued, base, show_rows = [], [], False, None, False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--factor":
            factors.append(float(argv[i + 1]))
            i += 2
        elif a == "--base-factor":
            base = float(argv[i + 1])
            i += 2
        elif a == "--queued":
            queued = "restart"
            i += 1
        elif a == "--hidden":
            queued = "hidden"
            i += 1
        elif a == "--rows":
            show_rows = True
            i += 1
        else:
            files.append(a)
            i += 1
    if len(files) < 2:
        sys.exit(__doc__)
    dev = Dev(files[0])
    f0 = base if base is not None else dev.factor
    variants = [("f=%.3f table" % f0, f0, False, True)]
    if queued:
        variants.append(("f=%.3f %s" % (f0, queued), f0, queued, False))
    for f in factors:
        variants.append(("f=%.3f table" % f, f, False, False))
        if queued:
            variants.append(("f=%.3f %s" % (f, queued), f, queued, False))
    worst_check = 0.0
    summary = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    print("%-16s %-2s %-16s %6s %6s | %-24s %7s | %-22s %7s %7s %6s %6s" % (
        "table", "st", "variant", "mean e", "mean|e|", "planner pick (all tiles)", "pred",
        "pick among measured", "pred", "meas", "e_pick", "vs opt"))
    for path in files[1:]:
        name = path.split("/")[-1].replace("h100-2026-11-21-pipeline-", "").replace(".csv", "")
        rows = list(csv.DictReader(open(path)))
        by_steps = defaultdict(list)
        for r in rows:
            by_steps[int(r["steps"])].append(r)
        for steps, rs in sorted(by_steps.items()):
            prog = Prog(dev, rs)
            if prog.nspp is None:
                continue
            cand = [r for r in rs if r["kind"] in ("tile", "pick")
                    and r["scheme"] in ("basic", "scalable") and r["layout"] == "merged"
                    and dims_of(r["tile"])[:-1] == prog.size[:-1]]
            if not cand:
                continue
            best_meas = min(med(r) for r in rs if r["kind"] in ("tile", "pick")
                            and r["layout"] == "merged")
            h = int(cand[0]["steps_per_tile"])
            for vname, f, q, is_base in variants:
                errs, preds = [], []
                for r in cand:
                    a, p = prog.predict(r["scheme"], dims_of(r["tile"])[-1],
                                        int(r["steps_per_tile"]), f, q)
                    p += a
                    if is_base:
                        worst_check = max(worst_check, abs(p / (float(r["predicted_s"]) * 1e9) - 1))
                    errs.append(p / med(r) - 1)
                    preds.append((p, r))
                    if show_rows:
                        print("    %-9s %-12s %4s pred %7.3f meas %7.3f %+6.1f%%" % (
                            r["scheme"], r["tile"], r["tiles"], p * 1e-6, med(r) * 1e-6,
                            100 * errs[-1]))
                full = min(((sum(prog.predict(s, t, h, f, q)), s, t) for t in prog.candidates()
                            for s in ("basic", "scalable")), key=lambda x: (x[0], x[1] != "basic"))
                p, r = min(preds, key=lambda t: t[0])
                m = med(r)
                e_pick, gap = p / m - 1, m / best_meas - 1
                ntiles = (prog.n_slow + full[2] - 1) // full[2]
                print("%-16s %-2d %-16s %+5.1f%% %5.1f%% | %-24s %7.3f | %-22s %7.3f %7.3f %+5.1f%% %+5.1f%%"
                      % (name[:16], steps, vname, 100 * sum(errs) / len(errs),
                         100 * sum(abs(e) for e in errs) / len(errs),
                         "%s %d (%d tiles)" % (full[1], full[2], ntiles), full[0] * 1e-6,
                         "%s %s" % (r["scheme"], r["tiles"] + " tiles"), p * 1e-6, m * 1e-6,
                         100 * e_pick, 100 * gap))
                s = summary[name][vname]
                s["e"].extend(errs)
                s["e_pick"].append(e_pick)
                s["gap"].append(gap)
    print()
    print("%-16s %-16s %8s %8s %9s %9s %10s %10s" % (
        "table", "variant", "mean e", "mean|e|", "pick e", "pick|e|", "pick<=5%", "opt<=5%"))
    for name, vs in summary.items():
        for vname, s in vs.items():
            e, ep, g = s["e"], s["e_pick"], s["gap"]
            print("%-16s %-16s %+7.1f%% %7.1f%% %+8.1f%% %8.1f%% %7d/%-2d %7d/%-2d" % (
                name[:16], vname, 100 * sum(e) / len(e), 100 * sum(abs(x) for x in e) / len(e),
                100 * sum(ep) / len(ep), 100 * sum(abs(x) for x in ep) / len(ep),
                sum(abs(x) <= 0.05 for x in ep), len(ep), sum(x <= 0.05 for x in g), len(g)))
    print("check: the baseline re-implementation matches the CSV's predictions within %.2f %%"
          % (100 * worst_check))


if __name__ == "__main__":
    main(sys.argv)
