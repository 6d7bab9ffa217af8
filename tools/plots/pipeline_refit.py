#!/usr/bin/env python3
"""pipeline_refit.py: re-evaluates the pipeline model of 003_9039035f5da401ab.txt (Sect. 6.3,
6.4.1, 6.4.4; model/pipeline.c) on measured `clstencil tune --pipeline --csv` tables with other
device inputs, to find which input makes the predictions miss.

Usage: python3 tools/plots/pipeline_refit.py DEVICE.json TABLE.csv... [--factor F]...
       [--latency-ns L]

For basic and scalable rows with merged copies (tiles along the slowest axis, one transfer per
array and tile) it recomputes the prediction with the device file's tables and:
  * the file's overlap factor: must reproduce the CSV's `predicted_s` (the check that this
    re-implementation is the C model; the largest deviation is printed);
  * each --factor F: the overlap coefficient 2 / F - 1 (Sect. 6.4.4);
  * --latency-ns L (with each factor): the fixed cost of a transfer that follows another one
    on the same queue, instead of the table's (blocking, one-shot) start-up: in a pipeline the
    next copy is queued before the previous one finishes, so its submission latency is hidden.
The kernel is taken from the CSV's own copy-compute-copy row (predicted minus allocation and
the two whole-grid transfers), shared by tiles in proportion to their output points, plus the
probe's kernel restart per launch and step.  For each table, step count and variant it prints
the mean and worst prediction error over all rows (against the median), the error at the pick
the variant would make among the measured rows, and how far that pick is from the measured
optimum.  Standard library only.
"""
import csv
import json
import sys
from collections import defaultdict

HALO = {"moving_average": 4, "emboss": 1, "jacobi3d": 1, "hotspot": 1}
ELEM = 4


def curve(dev, name):
    pts = dev["transfer"].get(name) or dev["alloc"].get(name.replace("alloc_", ""))
    return [(p["bytes"], p["ns"]) for p in pts]


def interp(c, b):
    """model/pipeline.c cls_pipe_curve_ns (Sect. 6.3)."""
    if b <= 0:
        return 0.0
    if b <= c[0][0]:
        return c[0][1]
    for (x0, y0), (x1, y1) in zip(c, c[1:]):
        if b <= x1:
            return y0 + (y1 - y0) * (b - x0) / (x1 - x0)
    (x0, y0), (x1, y1) = c[-2], c[-1]
    s = (y1 - y0) / (x1 - x0)
    return y1 + s * (b - x1) if s > 0 else y1


def dims_of(size):
    return [int(v) for v in size.split("x")]


class Dev:
    def __init__(self, path):
        d = json.load(open(path))
        self.h2d = curve(d, "host_to_device_pinned")
        self.d2h = curve(d, "device_to_host_pinned")
        self.alloc = [(p["bytes"], p["ns"]) for p in d["alloc"]["device"]]
        self.factor = d["transfer"]["overlap_factor"]
        self.restart_ns = d["sync"]["kernel_restart_cycles"] / d["compute"]["clock_mhz"] * 1e3


def xfer(c, b, latency):
    """A transfer of b bytes; with latency set, the table's affine part through its two largest
    entries below b's decade keeps its slope but starts at `latency`."""
    t = interp(c, b)
    if latency is None:
        return t
    (x0, y0), (x1, y1) = c[-2], c[-1]
    for (a0, t0), (a1, t1) in zip(c, c[1:]):
        if b <= a1:
            (x0, y0), (x1, y1) = (a0, t0), (a1, t1)
            break
    slope = (y1 - y0) / (x1 - x0)
    return min(t, latency + slope * b)


def predict(dev, row, k_total, factor, latency):
    """basic/scalable, merged: tiles along the slowest axis, each one contiguous transfer."""
    size = dims_of(row["size"])
    tile = dims_of(row["tile"])
    n_slow = size[-1]
    t_slow = tile[-1]
    plane = 1
    for v in size[:-1]:
        plane *= v
    h = int(row["steps_per_tile"])
    pad = HALO[row["stencil"]] * h
    total_pts = plane * n_slow
    tiles = []
    for lo in range(0, n_slow, t_slow):
        hi = min(n_slow, lo + t_slow)
        ilo, ihi = max(0, lo - pad), min(n_slow, hi + pad)
        out_b = (hi - lo) * plane * ELEM
        in_b = (ihi - ilo) * plane * ELEM
        k = k_total * (hi - lo) / n_slow + h * dev.restart_ns
        tiles.append((in_b, k, out_b))
    n = len(tiles)
    c = min(1.0, max(0.0, 2.0 / factor - 1.0))
    ins = [xfer(dev.h2d, t[0], latency if i > 0 else None) for i, t in enumerate(tiles)]
    outs = [xfer(dev.d2h, t[2], latency if i > 0 else None) for i, t in enumerate(tiles)]
    run = 0.0
    for j in range(n + 2):  # Sect. 6.4.4: step j runs in(j), kernel(j-1), out(j-2)
        a = ins[j] if j < n else 0.0
        k = tiles[j - 1][1] if 0 <= j - 1 < n else 0.0
        o = outs[j - 2] if 0 <= j - 2 < n else 0.0
        x = max(a, o) + c * min(a, o)
        run += max(x, k)
    if row["scheme"] == "basic":
        alloc = 2 * interp(dev.alloc, total_pts * ELEM)
    else:
        sets = min(3, n)
        big_in = max(t[0] for t in tiles)
        big_out = max(t[2] for t in tiles)
        alloc = sets * (interp(dev.alloc, big_in) + interp(dev.alloc, big_out))
    return (alloc + run) * 1e-9


def naive_kernel(dev, row):
    size = dims_of(row["size"])
    b = ELEM
    for v in size:
        b *= v
    other = 2 * interp(dev.alloc, b) + interp(dev.h2d, b) + interp(dev.d2h, b)
    return float(row["predicted_s"]) * 1e9 - other


def main(argv):
    factors, latency, files = [], None, []
    i = 1
    while i < len(argv):
        if argv[i] == "--factor":
            factors.append(float(argv[i + 1]))
            i += 2
        elif argv[i] == "--latency-ns":
            latency = float(argv[i + 1])
            i += 2
        else:
            files.append(argv[i])
            i += 1
    dev = Dev(files[0])
    variants = [("probe f=%.3f" % dev.factor, dev.factor, None)]
    for f in factors:
        variants.append(("f=%.3f" % f, f, None))
        if latency is not None:
            variants.append(("f=%.3f lat=%.0fus" % (f, latency / 1e3), f, latency))
    worst_check = 0.0
    print("%-24s %-5s %-22s %7s %7s %22s %7s %7s %7s" % (
        "table", "steps", "variant", "mean|e|", "max|e|", "pick", "pred", "meas", "e_pick"),
        "  opt_gap")
    for path in files[1:]:
        rows = list(csv.DictReader(open(path)))
        by_steps = defaultdict(list)
        for r in rows:
            by_steps[int(r["steps"])].append(r)
        for steps, rs in sorted(by_steps.items()):
            naive = [r for r in rs if r["kind"] == "naive"]
            if not naive:
                continue
            k_total = naive_kernel(dev, naive[0])
            cand = [r for r in rs if r["kind"] in ("tile", "pick")
                    and r["scheme"] in ("basic", "scalable") and r["layout"] == "merged"
                    and dims_of(r["tile"])[:-1] == dims_of(r["size"])[:-1]]
            if not cand:
                continue
            best_meas = min(float(r["measured_median_s"]) for r in rs
                            if r["kind"] in ("tile", "pick"))
            naive_meas = float(naive[0]["measured_median_s"])
            for name, f, lat in variants:
                errs, preds = [], []
                for r in cand:
                    p = predict(dev, r, k_total, f, lat)
                    if lat is None and f == dev.factor:
                        worst_check = max(worst_check, abs(p / float(r["predicted_s"]) - 1))
                    m = float(r["measured_median_s"])
                    errs.append(p / m - 1)
                    preds.append((p, r))
                # The variant's pick among the measured configurations (and copy-compute-copy).
                p, r = min(preds, key=lambda t: t[0])
                m = float(r["measured_median_s"])
                print("%-24s %-5d %-22s %6.1f%% %6.1f%% %22s %7.3f %7.3f %6.1f%% %7.1f%%  x%.2f" % (
                    path.split("/")[-1][:24], steps, name,
                    100 * sum(abs(e) for e in errs) / len(errs), 100 * max(abs(e) for e in errs),
                    "%s %s" % (r["scheme"], r["tile"]), 1e3 * p, 1e3 * m, 100 * (p / m - 1),
                    100 * (m / best_meas - 1), naive_meas / m))
    print("check: the re-implementation matches the CSV's predictions within %.2f %%"
          % (100 * worst_check))


if __name__ == "__main__":
    main(sys.argv)
