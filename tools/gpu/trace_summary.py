#!/usr/bin/env python3
"""trace_summary.py: summarises the pipeline traces that $CLSTENCIL_PIPE_TRACE writes.

One line pair per trace file (lib/schedules/pipeline/trace.c; `tools/gpu/h100_pipeline.sh -T`
writes them): the first sweep's span, when the host enqueued its last command, the median
duration of each kind of command, the kernel queue's idle gaps, and the host's median time between
consecutive enqueues (what the device model's sync.enqueue_cycles stands for).  Standard library
only.

Usage: python3 tools/gpu/trace_summary.py TRACE.csv...
"""
import csv
import statistics as st
import sys


def summary(path):
    rows = [r for r in csv.DictReader(open(path)) if r['sweep'] == '0']
    t = lambda r, k: float(r[k + '_us'])
    nt, h = int(rows[0]['tiles']), int(rows[0]['steps_per_tile'])
    end = max(t(r, 'end') for r in rows)
    last_q = max(t(r, 'queued') for r in rows)
    dur = {}
    for r in rows:
        dur.setdefault(r['command'], []).append(t(r, 'end') - t(r, 'start'))
    kq = sorted((r for r in rows if r['command'] in ('kernel', 'halo_copy')),
                key=lambda r: t(r, 'start'))
    gaps = [t(b, 'start') - t(a, 'end') for a, b in zip(kq, kq[1:])]
    qs = sorted(t(r, 'queued') for r in rows)
    # steady state: the host's gaps after the first three tiles (first uses of the buffers)
    enq = [b - a for a, b in zip(qs, qs[1:])][3 * (h + 3):]
    med = lambda v: st.median(v) if v else 0.0
    print(f"{path}: {nt} tiles, {h} steps a tile: span {end / 1e3:.3f} ms, last enqueue "
          f"{last_q / 1e3:.3f} ms ({100 * last_q / end:.0f} %)")
    print("   median us: " + ", ".join(f"{k} {med(v):.1f}" for k, v in sorted(dur.items())) +
          f"; kernel-queue gap {med(gaps):.1f}; host between enqueues {med(enq):.1f}")


for p in sys.argv[1:]:
    summary(p)
