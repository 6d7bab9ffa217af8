#!/usr/bin/env python3
"""ghost_zones.py: predicted and measured time per step against the trapezoid height h (like
Fig. 7 of Meng & Skadron 2010) from the CSV tables of `clstencil tune --exhaustive --csv`.

Usage: python3 tools/plots/ghost_zones.py OUTDIR TABLE.csv...

One PNG per table, OUTDIR/<table name>.png: for the tile of the model's trapezoid pick (and the
measured best tile when it differs), the predicted and the measured time per step against h in
both sync modes, the model's pick and the measured best marked, the naive schedule as a line.
Needs matplotlib (pip install matplotlib); the library's build never runs this script.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, ValueError):
        return 0.0


def plot(path, outdir):
    rows = read(path)
    # Trapezoid rows only: a table may also hold other schedules' rows (naive, AUTO's pick).
    cand = [r for r in rows if r["role"] in ("candidate", "best") and r["status"] == "CLS_SUCCESS"
            and r.get("schedule", "trapezoid") == "trapezoid"
            and num(r, "measured_seconds_per_step") > 0]
    auto = next((r for r in rows if r["role"] == "auto_pick"), None)
    pick = next((r for r in rows if r["role"] == "model_trapezoid"), None)
    naive = next((r for r in rows if r["role"] == "naive"), None)
    best = next((r for r in rows if r["role"] == "best"), None)
    if not cand or pick is None:
        print(f"{path}: no measured trapezoid rows, skipped")
        return
    tiles = [pick["tile"]]
    if best is not None and best["tile"] != pick["tile"]:
        tiles.append(best["tile"])
    fig, axes = plt.subplots(1, len(tiles), figsize=(6.4 * len(tiles), 4.6), squeeze=False)
    us = 1e6
    for ax, tile in zip(axes[0], tiles):
        for sync, colour in (("restart", "tab:blue"), ("barrier", "tab:red")):
            sel = sorted((r for r in cand if r["tile"] == tile and r["sync"] == sync),
                         key=lambda r: int(r["h"]))
            if not sel:
                continue
            h = [int(r["h"]) for r in sel]
            ax.plot(h, [num(r, "predicted_seconds_per_step") * us for r in sel], "--",
                    color=colour, label=f"{sync}: predicted")
            ax.plot(h, [num(r, "measured_seconds_per_step") * us for r in sel], "o-",
                    color=colour, label=f"{sync}: measured")
        if naive is not None and num(naive, "measured_seconds_per_step") > 0:
            ax.axhline(num(naive, "measured_seconds_per_step") * us, color="grey", ls=":",
                       label="naive: measured"
                       + (" (AUTO's pick)" if auto is not None and auto["schedule"] == "naive"
                          else ""))
        if auto is not None and auto["schedule"] not in ("naive", "trapezoid") and \
                num(auto, "measured_seconds_per_step") > 0:
            ax.axhline(num(auto, "measured_seconds_per_step") * us, color="tab:green", ls="-.",
                       label=f"AUTO's pick ({auto['schedule']}): measured")
        # The interleaved confirmation's least times, where the table has them (column
        # confirmed_seconds_per_step; tables of `tune` without --confirm do not).
        conf = [r for r in cand if r["tile"] == tile and num(r, "confirmed_seconds_per_step") > 0]
        if conf:
            ax.plot([int(r["h"]) for r in conf],
                    [num(r, "confirmed_seconds_per_step") * us for r in conf], "mD", mfc="none",
                    ms=9, label="confirmed (interleaved, least)")
        if pick["tile"] == tile:
            ax.plot([int(pick["h"])], [num(pick, "measured_seconds_per_step") * us], "k*",
                    ms=14, label=f"model's pick (h {pick['h']}, {pick['sync']})")
        if best is not None and best["tile"] == tile:
            ax.plot([int(best["h"])], [num(best, "measured_seconds_per_step") * us], "gs",
                    mfc="none", ms=12, label=f"measured best (h {best['h']}, {best['sync']})")
        ax.set_xlabel("trapezoid height h (steps per stage)")
        ax.set_ylabel("time per step (us)")
        ax.set_yscale("log")
        ax.set_title(f"{pick['stencil']} {pick['size']}, tile {tile}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"{pick['device']}: predicted and measured time against h", fontsize=10)
    fig.tight_layout()
    name = os.path.splitext(os.path.basename(path))[0] + ".png"
    fig.savefig(os.path.join(outdir, name), dpi=110)
    plt.close(fig)
    print(os.path.join(outdir, name))


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for path in argv[2:]:
        plot(path, argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
