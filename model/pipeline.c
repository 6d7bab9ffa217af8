/* pipeline.c: the transfer/compute pipeline model (Visschers 2012, Sect. 6.1-6.4) and planner. */
#include "error.h"
#include "pipeline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t zmin(size_t a, size_t b) { return a < b ? a : b; }
static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

/* ------------------------------------------------------------------ names */

static const char *const scheme_names[CLS_PIPE_NSCHEMES] = {"naive", "basic", "scalable",
                                                             "buffered"};

const char *cls_pipe_scheme_name(cls_pipe_scheme s)
{
    return (unsigned)s < CLS_PIPE_NSCHEMES ? scheme_names[s] : NULL;
}

int cls_pipe_scheme_from_name(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < CLS_PIPE_NSCHEMES; i++)
        if (strcmp(name, scheme_names[i]) == 0) return i;
    return -1;
}

const char *cls_pipe_layout_name(cls_pipe_layout l)
{
    return l == CLS_PIPE_ROWS     ? "rows"
           : l == CLS_PIPE_MERGED ? "merged"
           : l == CLS_PIPE_RECT   ? "rect"
                                  : NULL;
}

const char *cls_pipe_stage_name(cls_pipe_stage s)
{
    static const char *const n[] = {"bufferIn", "transferIn", "kernel", "transferOut",
                                    "bufferOut"};
    return (unsigned)s < 5 ? n[s] : NULL;
}

/* ------------------------------------------------------------------ device (Sect. 5.2) */

/* What cls_pipe_device_from_model reads and the name Visschers 2012 gives it (Sect. 5.2, 6.4.4). */
static const struct {
    const char *key;
    const char *symbol;
} pipe_params[] = {
    {"transfer.copy_engines", "copyEngines (Sect. 5.2): single or dual formula of Sect. 6.4.4"},
    {"transfer.overlap_factor", "the 0.57 of Sect. 6.4.4, as 2 / factor - 1"},
    {"transfer.host_to_device_pinned", "pinnedHostToDevice (transferIn)"},
    {"transfer.device_to_host_pinned", "deviceToPinnedHost (transferOut)"},
    {"transfer.host_to_device_pageable",
     "transferIn from pageable host arrays (no name in Visschers 2012)"},
    {"transfer.device_to_host_pageable",
     "transferOut to pageable host arrays (no name in Visschers 2012)"},
    {"transfer.host_to_host", "pinnedHostToPinnedHost (bufferIn, bufferOut)"},
    {"alloc.device", "mallocFreeDevice (Sect. 6.4.1)"},
    {"alloc.host", "mallocFreeHost (Sect. 6.4.1, buffered scheme)"},
    {"memory.global_bytes", "the device-memory cap of the planner"},
    {"transfer.host_to_device_queued",
     "a queued transferIn after the first (not in Visschers 2012)"},
    {"transfer.device_to_host_queued",
     "a queued transferOut after the first (not in Visschers 2012)"},
    {"transfer.pair_queued", "a queued transferIn and transferOut at once: the 0.57 of "
                             "Sect. 6.4.4 per size"},
    {"sync.queue_wait_cycles", "the start delay of a transferOut released by the kernel's "
                               "queue (not in Visschers 2012)"},
    {"sync.enqueue_cycles", "the host's time per enqueued command: a pipeline step starts once "
                            "its commands are enqueued (not in Visschers 2012)"},
    {"sync.enqueue_plain_cycles", "the host's time per kernel enqueued without an event: a "
                                  "tile's middle steps (not in Visschers 2012)"},
    {"sync.flush_cycles",
     "the host's time per clFlush, three per pipeline step (not in Visschers 2012)"},
    {"sync.kernel_restart_cycles", "turnaround of a queued copy without the queued tables "
                                   "(queued_ns; not in Visschers 2012)"},
    {"compute.clock_mhz", "converts the restart cycles to ns"},
    {"memory.bandwidth_measured_gbs", "device-to-device copy of the halo overlap (scalable "
                                      "scheme; not in Visschers 2012)"},
};
#define PIPE_NPARAMS (sizeof pipe_params / sizeof pipe_params[0])

const char *cls_pipe_device_param(size_t i, const char **symbol)
{
    if (i >= PIPE_NPARAMS) return NULL;
    if (symbol) *symbol = pipe_params[i].symbol;
    return pipe_params[i].key;
}

double cls_pipe_overlap_coeff(double overlap_factor)
{
    /* Sect. 6.4.4: both directions at once move overlap_factor times the bytes of one
     * direction alone, so two transfers of equal length t take 2t / overlap_factor: "157% of
     * one of them" for 1.26.  The longer one's excess runs alone, hence
     * max + (2 / overlap_factor - 1) x min. */
    if (!(overlap_factor > 1.0)) return 1.0;
    if (overlap_factor >= 2.0) return 0.0;
    return 2.0 / overlap_factor - 1.0;
}

static cls_status copy_table(const cls_model *m, cls_model_table t, cls_pipe_curve *c, int required,
                             const char *why)
{
    const cls_model_point *pts = NULL;
    size_t n = 0;
    memset(c, 0, sizeof *c);
    cls_status st = cls_model_get_table(m, t, &pts, &n);
    if (st != CLS_SUCCESS)
        return cls__error(CLS_ERR_INVALID_MODEL, "device model \"%s\": cannot read table %s",
                          cls_model_name(m), cls_model_table_key(t));
    if (n == 0 && !required) return CLS_SUCCESS;
    if (n < 2 || n > CLS_PIPE_MAX_POINTS)
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "device model \"%s\": the pipeline model needs table %s (%s) with 2 "
                          "to %d entries, it has %zu; run `clstencil probe` on the device to "
                          "measure it",
                          cls_model_name(m), cls_model_table_key(t), why, CLS_PIPE_MAX_POINTS, n);
    c->n = n;
    for (size_t i = 0; i < n; i++) {
        c->bytes[i] = pts[i].bytes;
        c->ns[i] = pts[i].ns;
    }
    return CLS_SUCCESS;
}

/* A sync.*_cycles parameter of the model in ns at clock MHz; 0 when missing or unusable. */
static double cycles_ns(const cls_model *m, const char *key, double clock)
{
    double v = 0;
    if (cls_model_get(m, key, &v) != CLS_SUCCESS || !(v > 0) || !(clock > 0) ||
        !isfinite(v / clock))
        return 0.0;
    return v / clock * 1e3;
}

cls_status cls_pipe_device_from_model(const cls_model *m, int host_pinned, cls_pipe_device *d)
{
    if (!m || !d)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_pipe_device_from_model: NULL argument");
    memset(d, 0, sizeof *d);
    double v = 0;
    cls_status st = cls_model_get(m, "transfer.copy_engines", &v);
    if (st != CLS_SUCCESS || !(v >= 0))
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "device model \"%s\": transfer.copy_engines is unusable",
                          cls_model_name(m));
    d->copy_engines = (int)v;
    st = cls_model_get(m, "transfer.overlap_factor", &v);
    if (st != CLS_SUCCESS || !(v > 0) || !isfinite(v))
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "device model \"%s\": transfer.overlap_factor is unusable",
                          cls_model_name(m));
    d->overlap_factor = v;
    d->overlap_coeff = cls_pipe_overlap_coeff(v);
    if (cls_model_get(m, "memory.global_bytes", &v) == CLS_SUCCESS && v > 0)
        d->global_bytes = v;
    if (cls_model_get(m, "memory.bandwidth_measured_gbs", &v) == CLS_SUCCESS && v > 0 &&
        isfinite(v))
        d->copy_gbs = v;
    d->host_pinned = host_pinned ? 1 : 0;
    /* Queued copies (see cls_pipe_queued_ns): only with a measured restart, so that Visschers'
     * C2050 (no such measurement) keeps its tables as the document used them. */
    double restart = 0, clock = 0;
    if (cls_model_get(m, "sync.kernel_restart_cycles", &restart) == CLS_SUCCESS &&
        cls_model_get(m, "compute.clock_mhz", &clock) == CLS_SUCCESS && restart > 0 &&
        clock > 0 && isfinite(restart / clock) &&
        !cls_model_is_assumed(m, "sync.kernel_restart_cycles")) {
        d->queued_copies = 1;
        d->queued_ns = restart / clock * 1e3;
    }
    /* The measured waits and host costs (not in Visschers 2012), 0 where the model lacks them. */
    if (!(clock > 0)) cls_model_get(m, "compute.clock_mhz", &clock);
    d->queue_wait_ns = cycles_ns(m, "sync.queue_wait_cycles", clock);
    d->enqueue_ns = cycles_ns(m, "sync.enqueue_cycles", clock);
    if (d->enqueue_ns > 0) { /* the flush and plain kernels only beside it */
        d->flush_ns = cycles_ns(m, "sync.flush_cycles", clock);
        d->enqueue_plain_ns = cycles_ns(m, "sync.enqueue_plain_cycles", clock);
    }

    const char *kind = host_pinned ? "pinned host arrays" : "pageable host arrays";
    cls_model_table th = host_pinned ? CLS_TABLE_HOST_TO_DEVICE_PINNED
                                     : CLS_TABLE_HOST_TO_DEVICE_PAGEABLE;
    cls_model_table td = host_pinned ? CLS_TABLE_DEVICE_TO_HOST_PINNED
                                     : CLS_TABLE_DEVICE_TO_HOST_PAGEABLE;
    if ((st = copy_table(m, th, &d->h2d, 1, kind)) != CLS_SUCCESS) return st;
    if ((st = copy_table(m, td, &d->d2h, 1, kind)) != CLS_SUCCESS) return st;
    if ((st = copy_table(m, CLS_TABLE_HOST_TO_DEVICE_PINNED, &d->h2d_staged, 1,
                         "pinned staging tiles")) != CLS_SUCCESS)
        return st;
    if ((st = copy_table(m, CLS_TABLE_DEVICE_TO_HOST_PINNED, &d->d2h_staged, 1,
                         "pinned staging tiles")) != CLS_SUCCESS)
        return st;
    /* The queued tables are measured with pinned host buffers (lib/probe.c probe_queued). */
    if (host_pinned) {
        if ((st = copy_table(m, CLS_TABLE_HOST_TO_DEVICE_QUEUED, &d->h2d_queued, 0,
                             "queued copies")) != CLS_SUCCESS ||
            (st = copy_table(m, CLS_TABLE_DEVICE_TO_HOST_QUEUED, &d->d2h_queued, 0,
                             "queued copies")) != CLS_SUCCESS)
            return st;
        if ((st = copy_table(m, CLS_TABLE_PAIR_QUEUED, &d->pair_queued, 0, "queued copies")) !=
            CLS_SUCCESS)
            return st;
        if (d->h2d_queued.n == 0 || d->d2h_queued.n == 0)
            d->h2d_queued.n = d->d2h_queued.n = d->pair_queued.n = 0; /* all or none */
        else
            d->queued_copies = 1;
    }
    if ((st = copy_table(m, CLS_TABLE_ALLOC_DEVICE, &d->alloc_device, 1, "device buffers")) !=
        CLS_SUCCESS)
        return st;
    if ((st = copy_table(m, CLS_TABLE_HOST_TO_HOST, &d->h2h, 0, "buffered scheme")) != CLS_SUCCESS)
        return st;
    return copy_table(m, CLS_TABLE_ALLOC_HOST, &d->alloc_host, 0, "buffered scheme");
}

/* Sect. 6.3: "Each list holds the run time of an operation performed on powers of 10 bytes
 * ... This gives enough data points for (linear) interpolation." */
double cls_pipe_curve_ns(const cls_pipe_curve *c, double bytes)
{
    if (!c || c->n == 0 || !(bytes > 0)) return 0.0;
    if (c->n == 1 || bytes <= c->bytes[0]) return c->ns[0];
    size_t n = c->n;
    if (bytes >= c->bytes[n - 1]) {
        /* Beyond the table: the line through the last two entries (start-up plus bytes over
         * the asymptotic bandwidth), never below the last entry. */
        double slope = (c->ns[n - 1] - c->ns[n - 2]) / (c->bytes[n - 1] - c->bytes[n - 2]);
        if (!(slope > 0)) return c->ns[n - 1];
        return c->ns[n - 1] + slope * (bytes - c->bytes[n - 1]);
    }
    size_t lo = 0, hi = n - 1; /* bytes[lo] < bytes < bytes[hi] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (c->bytes[mid] <= bytes)
            lo = mid;
        else
            hi = mid;
    }
    double f = (bytes - c->bytes[lo]) / (c->bytes[hi] - c->bytes[lo]);
    return c->ns[lo] + f * (c->ns[hi] - c->ns[lo]);
}

/* Refines Visschers 2012, Sect. 6.4.3 ("we use the data provided by the platform analysis to
 * determine how long each of these transfers takes"): the platform analysis (Sect. 6.3;
 * lib/probe.c) times one blocking copy at a time, so every entry holds the submission and
 * completion latency of a blocking call (16-17 us at 10 bytes on the H100).  The executor enqueues
 * the whole pipeline asynchronously on in-order queues joined by events (as Visschers 2012,
 * Sect. 6.5, does with CUDA streams), so a copy queued behind the previous one of its direction
 * starts when that one ends.  The probe's queued tables time exactly that: a copy's marginal cost
 * in a stream of queued copies (doc/pipeline.md).  Models without them (a file from an older probe)
 * estimate it as the table's streaming part (its time less the first entry) plus the device's
 * turnaround of a queued command, the back-to-back launch time (doc/pipeline.md, "Queued
 * copies"), which the H100 data showed about 9 % high at 8 MB copies. */
double cls_pipe_queued_ns(const cls_pipe_device *d, cls_pipe_dir dir, double bytes)
{
    if (!d || !(bytes > 0)) return 0.0;
    const cls_pipe_curve *c = dir == CLS_PIPE_TO_DEVICE ? &d->h2d : &d->d2h;
    const cls_pipe_curve *q = dir == CLS_PIPE_TO_DEVICE ? &d->h2d_queued : &d->d2h_queued;
    double t = cls_pipe_curve_ns(c, bytes);
    if (!d->queued_copies || c->n == 0) return t;
    /* The probe's queued table measures this copy directly (lib/probe.c probe_queued). */
    if (q->n >= 2) return cls_pipe_curve_ns(q, bytes);
    return dmax(0.0, t - c->ns[0]) + d->queued_ns;
}

/* ------------------------------------------------------------------ grid and tiles */

cls_status cls_pipe_check(const cls_pipe_grid *g, const size_t *tile)
{
    if (!g) return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline model: NULL grid");
    if (g->dims < 1 || g->dims > CLS_PIPE_MAX_DIMS)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "pipeline model: dims must be 1, 2 or 3, got %d", g->dims);
    if (g->elem_bytes < 1 || g->elem_bytes > 1024)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "pipeline model: elem_bytes must be 1 to 1024, got %zu", g->elem_bytes);
    if (g->n_in < 1 || g->n_in > 64 || g->n_out < 1 || g->n_out > 64)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "pipeline model: 1 to 64 input and output arrays, got %u and %u", g->n_in,
                          g->n_out);
    double points = 1;
    for (int i = 0; i < CLS_PIPE_MAX_DIMS; i++) {
        static const char ax[] = "xyz";
        if (i < g->dims && g->size[i] < 1)
            return cls__error(CLS_ERR_INVALID_SIZE, "pipeline model: size in %c must be at least 1",
                              ax[i]);
        if (i >= g->dims && (g->size[i] != 1 || g->pad_lo[i] || g->pad_hi[i]))
            return cls__error(CLS_ERR_INVALID_SIZE,
                              "pipeline model: a %dD grid must have size 1 and no padding in %c",
                              g->dims, ax[i]);
        if (g->pad_lo[i] > ((size_t)1 << 40) || g->pad_hi[i] > ((size_t)1 << 40))
            return cls__error(CLS_ERR_INVALID_SIZE,
                              "pipeline model: padding %zu/%zu in %c is beyond the model's 2^40",
                              g->pad_lo[i], g->pad_hi[i], ax[i]);
        points *= (double)g->size[i];
        if (tile && (tile[i] < 1 || tile[i] > g->size[i]))
            return cls__error(CLS_ERR_INVALID_SIZE,
                              "pipeline model: tile %zux%zux%zu: its %c extent must be 1 to the "
                              "grid's %zu",
                              tile[0], tile[1], tile[2], ax[i], g->size[i]);
    }
    if (points * (double)g->elem_bytes > 1152921504606846976.0)
        return cls__error(CLS_ERR_INVALID_SIZE,
                          "pipeline model: a grid of %.0f bytes is beyond the model's 2^60",
                          points * (double)g->elem_bytes);
    return CLS_SUCCESS;
}

size_t cls_pipe_tiles(const cls_pipe_grid *g, const size_t tile[CLS_PIPE_MAX_DIMS],
                      size_t per_dim[CLS_PIPE_MAX_DIMS])
{
    size_t n = 1;
    for (int i = 0; i < CLS_PIPE_MAX_DIMS; i++) {
        size_t t = tile[i] ? tile[i] : 1;
        size_t k = (g->size[i] + t - 1) / t;
        if (per_dim) per_dim[i] = k;
        n *= k;
    }
    return n;
}

/* The output and input extent of tile i along dimension dim. */
static void tile_span(const cls_pipe_grid *g, const cls_pipe_config *c, int dim, size_t i,
                      size_t *out, size_t *in)
{
    size_t N = g->size[dim], T = c->tile[dim], lo = g->pad_lo[dim], hi = g->pad_hi[dim];
    if (c->padding == CLS_PIPE_DOCUMENT) {
        /* Sect. 6.4.3: (X + PX, Y + PY, Z + PZ), where the padding in x is removed when the
         * tile is as large as the array in x, and in y when that holds for x as well
         * (contiguous tiles only: "based on contiguity of data of the tile"). */
        int drop = 0;
        if (c->layout == CLS_PIPE_MERGED && c->tile[0] == g->size[0]) {
            if (dim == 0) drop = 1;
            if (dim == 1 && c->tile[1] == g->size[1]) drop = 1;
        }
        *out = T;
        *in = drop ? T : T + lo + hi;
        return;
    }
    /* Exact: the last tile may be partial and padding stops at the array's edges (the
     * refinement Sect. 6.4.3 and 8.1 leave out). */
    size_t start = i * T, end = zmin(start + T, N);
    size_t in_lo = start >= lo ? start - lo : 0;
    size_t in_hi = (N - end) >= hi ? end + hi : N;
    *out = end - start;
    *in = in_hi - in_lo;
}

static void box_xfer(const cls_pipe_grid *g, const cls_pipe_config *c,
                     const size_t e[CLS_PIPE_MAX_DIMS], cls_pipe_xfer *x);

void cls_pipe_count(const cls_pipe_grid *g, const cls_pipe_config *c,
                    const size_t idx[CLS_PIPE_MAX_DIMS], int input, cls_pipe_xfer *x)
{
    size_t e[CLS_PIPE_MAX_DIMS];
    for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) {
        size_t o, in;
        if (c->scheme == CLS_PIPE_NAIVE) {
            o = in = g->size[dim];
        } else {
            tile_span(g, c, dim, idx ? idx[dim] : 0, &o, &in);
        }
        e[dim] = input ? in : o;
    }
    box_xfer(g, c, e, x);
}

/* The transfers of a box of extents e (Sect. 6.4.3). */
static void box_xfer(const cls_pipe_grid *g, const cls_pipe_config *c,
                     const size_t e[CLS_PIPE_MAX_DIMS], cls_pipe_xfer *x)
{
    for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) x->ext[dim] = e[dim];
    if (e[0] * e[1] * e[2] == 0) {
        x->count = 0; /* an empty box: nothing to move */
        x->bytes = 0;
        return;
    }
    /* Sect. 6.4.3: logical (x, y, z) is physical x + X (y + Y z), so only runs along x are
     * contiguous: Y' Z' transfers of X' elements.  Merged (Sect. 6.2.3): a box as wide as
     * the array in x is contiguous within each plane (Z' transfers of X' Y'), and one
     * transfer when it spans y too.  The document decides by the tile's width (its padding
     * then dropped); the exact count by the box's.  Rect: one rectangular command per box,
     * timed as one transfer of its bytes (on the H100 a rect command moved a tile as fast as
     * a plain copy, doc/pipeline.md); the buffered scheme's host packing stays per row. */
    int one_command = c->layout == CLS_PIPE_RECT && c->scheme != CLS_PIPE_BUFFERED;
    int full_x, full_y;
    if (c->scheme == CLS_PIPE_NAIVE || one_command) {
        full_x = full_y = 1;
    } else if (c->layout != CLS_PIPE_MERGED) {
        full_x = full_y = 0;
    } else if (c->padding == CLS_PIPE_DOCUMENT) {
        full_x = c->tile[0] == g->size[0];
        full_y = c->tile[1] == g->size[1];
    } else {
        full_x = e[0] == g->size[0];
        full_y = e[1] == g->size[1];
    }
    double eb = (double)g->elem_bytes;
    if (full_x && full_y) {
        x->count = 1;
        x->bytes = (double)e[0] * (double)e[1] * (double)e[2] * eb;
    } else if (full_x) {
        x->count = e[2];
        x->bytes = (double)e[0] * (double)e[1] * eb;
    } else {
        x->count = e[1] * e[2];
        x->bytes = (double)e[0] * eb;
    }
}

/* ------------------------------------------------------------------ the pipeline (6.4.4) */

double cls_pipe_overlap_ns(const cls_pipe_device *d, double in, double out)
{
    /* Sect. 6.4.4: "max(transferIn, transferOut) + 0.57 * min(transferIn, transferOut)" with
     * dual copy engines; with one, "both copy operations are now performed on the same
     * engine, we need to add them up". */
    if (d->copy_engines >= 2) return dmax(in, out) + d->overlap_coeff * dmin(in, out);
    return in + out;
}

double cls_pipe_overlap_coeff_at(const cls_pipe_device *d, double bytes)
{
    if (d->pair_queued.n < 2 || d->h2d_queued.n < 2 || d->d2h_queued.n < 2 || !(bytes > 0))
        return d->overlap_coeff;
    /* Sect. 6.4.4's "max(transferIn, transferOut) + 0.57 * min(...)" at this size, solved for
     * the coefficient; the H100 gave 1.3x at 1 MB and 1.8x at 16 MB for both directions at
     * once over one (doc/pipeline.md), where one factor gave 1.70 for all. */
    double a = cls_pipe_curve_ns(&d->h2d_queued, bytes);
    double b = cls_pipe_curve_ns(&d->d2h_queued, bytes);
    double pair = cls_pipe_curve_ns(&d->pair_queued, bytes);
    if (!(dmin(a, b) > 0) || !isfinite(pair)) return d->overlap_coeff;
    double c = (pair - dmax(a, b)) / dmin(a, b);
    return c < 0 ? 0 : c > 1 ? 1 : c;
}

double cls_pipe_copies_ns(const cls_pipe_device *d, const cls_pipe_stages *a)
{
    if (d->copy_engines < 2) return cls_pipe_overlap_ns(d, a->in, a->out);
    double bytes = a->in <= a->out ? a->in_bytes : a->out_bytes;
    double c = bytes > 0 ? cls_pipe_overlap_coeff_at(d, bytes) : d->overlap_coeff;
    double A = a->in, B = a->out, w = a->out_wait;
    if (!(w > 0) || !(A > 0) || !(B > 0)) return dmax(A, B) + c * dmin(A, B);
    /* transferIn alone for w, then both at once (each 1 + c slower), then the rest of the
     * longer alone (doc/pipeline.md). */
    if (A <= w) return w + B;
    if (A - w >= B) return A + c * B;
    return B + w + c * (A - w);
}

double cls_pipe_step_ns(const cls_pipe_device *d, const cls_pipe_stages *a)
{
    if (d->copy_engines <= 0) return a->buf_in + a->in + a->kernel + a->out + a->buf_out;
    double host = a->buf_in + a->buf_out;
    double copy = cls_pipe_copies_ns(d, a);
    return dmax(host, dmax(copy, a->kernel));
}

/* Stage s of a stage vector (3-stage schemes use in, kernel, out). */
static double stage_of(const cls_pipe_stages *s, int buffered, int k)
{
    if (buffered) {
        switch (k) {
        case 0: return s->buf_in;
        case 1: return s->in;
        case 2: return s->kernel;
        case 3: return s->out;
        default: return s->buf_out;
        }
    }
    return k == 0 ? s->in : k == 1 ? s->kernel : s->out;
}

/* Sets stage k of *s from tile stages *from, the copy sizes going with the copies. */
static void set_stage(cls_pipe_stages *s, int buffered, int k, const cls_pipe_stages *from)
{
    double v = stage_of(from, buffered, k);
    if (buffered) {
        double *p[5] = {&s->buf_in, &s->in, &s->kernel, &s->out, &s->buf_out};
        *p[k] = v;
    } else {
        double *p[3] = {&s->in, &s->kernel, &s->out};
        *p[k] = v;
    }
    if (k == (buffered ? 1 : 0)) s->in_bytes = from->in_bytes, s->host_in = from->host_in;
    if (k == (buffered ? 2 : 1)) s->host_kernel = from->host_kernel;
    if (k == (buffered ? 3 : 2))
        s->out_bytes = from->out_bytes, s->out_wait = from->out_wait, s->host_out = from->host_out;
}

double cls_pipe_run_steps(const cls_pipe_device *d, int buffered, size_t n,
                          cls_pipe_stage_fn stage, void *user)
{
    if (n == 0) return 0.0;
    int S = buffered ? 5 : 3;
    /* A ring of the stages of the last S tiles: step j needs tiles j - S + 1 .. j. */
    cls_pipe_stages ring[5];
    double end = 0.0, host = 0.0;
    for (size_t j = 0; j + 1 < n + (size_t)S; j++) {
        if (j < n) stage(j, &ring[j % (size_t)S], user);
        cls_pipe_stages a;
        memset(&a, 0, sizeof a);
        for (int s = 0; s < S; s++) {
            if (j < (size_t)s || j - (size_t)s >= n) continue;
            set_stage(&a, buffered, s, &ring[(j - (size_t)s) % (size_t)S]);
        }
        double step = cls_pipe_step_ns(d, &a);
        /* The host (not in Visschers 2012): the executor enqueues step j's commands (the write of
         * tile j, the kernels of tile j - 1, the read of tile j - 2) and flushes its three queues.
         * The step starts once its first command is enqueued, and its last command, the read,
         * runs after the host has enqueued it; with the host ahead, Visschers' sum of the steps. */
        double all = a.host_in + a.host_kernel + a.host_out;
        double first = a.host_in > 0 ? a.host_in : a.host_kernel > 0 ? a.host_kernel : a.host_out;
        /* The buffered scheme's packing and unpacking run on the thread that enqueues
         * (lib/schedules/pipeline/exec.c), so they add to its time rather than overlap it. */
        if (all > 0) all += 3.0 * d->flush_ns + (buffered ? a.buf_in + a.buf_out : 0.0);
        double start = dmax(end, host + first);
        end = start + step;
        if (all > 0) end = dmax(end, host + all + (a.out > 0 ? a.out : a.kernel));
        host += all;
    }
    return end;
}

static void uniform_stage(size_t t, cls_pipe_stages *s, void *user)
{
    (void)t;
    *s = *(const cls_pipe_stages *)user;
}

double cls_pipe_run_uniform(const cls_pipe_device *d, int buffered, const cls_pipe_stages *s,
                            size_t n)
{
    if (n == 0) return 0.0;
    double in = s->in, k = s->kernel, out = s->out;
    double X = cls_pipe_copies_ns(d, s);
    int host = s->host_in + s->host_kernel + s->host_out > 0; /* no closed form with the host */
    if (d->copy_engines >= 1 && !buffered && n >= 2 && !host) {
        /* Sect. 6.4.4 (single copy engine, and dual with X = max + 0.57 min):
         *   transferIn + max(transferIn, kernel)
         *   + (#tiles - 2) * max(X, kernel)
         *   + max(kernel, transferOut) + transferOut */
        return in + dmax(in, k) + (double)(n - 2) * dmax(X, k) + dmax(k, out) + out;
    }
    if (d->copy_engines >= 1 && buffered && n >= 4 && !host) {
        /* Sect. 6.4.4, buffered scheme, four start-up and four shut-down steps. */
        double bi = s->buf_in, bo = s->buf_out;
        return bi + dmax(bi, in) + dmax(bi, dmax(in, k)) + dmax(bi, dmax(X, k)) +
               (double)(n - 4) * dmax(bi + bo, dmax(X, k)) + dmax(bo, dmax(X, k)) +
               dmax(bo, dmax(out, k)) + dmax(bo, out) + bo;
    }
    cls_pipe_stages copy = *s;
    return cls_pipe_run_steps(d, buffered, n, uniform_stage, &copy);
}

/* ------------------------------------------------------------------ one configuration */

/* A dimension's tile class: 0 the only tile, 1 the first, 2 a middle one, 3 the last. */
static int tile_class(size_t i, size_t n)
{
    if (n == 1) return 0;
    if (i == 0) return 1;
    if (i == n - 1) return 3;
    return 2;
}

static size_t class_index(int cls, size_t n)
{
    return cls == 2 ? 1 : cls == 3 ? n - 1 : 0;
}

static size_t class_count(int cls, size_t n)
{
    switch (cls) {
    case 0: return n == 1 ? 1 : 0;
    case 1:
    case 3: return n >= 2 ? 1 : 0;
    default: return n >= 3 ? n - 2 : 0;
    }
}

typedef struct pipe_eval {
    const cls_pipe_device *d;
    const cls_pipe_grid *g;
    const cls_pipe_kernel *k;
    const cls_pipe_config *c;
    size_t per_dim[CLS_PIPE_MAX_DIMS];
    cls_pipe_stages cache[64];
    cls_pipe_xfer xin[64], xout[64];
    unsigned char have[64];
    int reuse; /* halo reuse along this (the slowest) dimension, -1: none */
    cls_status st;
} pipe_eval;

static double kernel_ns(pipe_eval *ev, const size_t out[CLS_PIPE_MAX_DIMS],
                        const size_t in[CLS_PIPE_MAX_DIMS])
{
    const cls_pipe_kernel *k = ev->k;
    cls_pipe_tile_info t;
    memcpy(t.out, out, sizeof t.out);
    memcpy(t.in, in, sizeof t.in);
    t.points = (double)out[0] * (double)out[1] * (double)out[2];
    double ns = k->fn ? k->fn(&t, k->user) : k->launch_ns + k->ns_per_point * t.points;
    if (!isfinite(ns) || ns < 0) {
        if (ev->st == CLS_SUCCESS)
            ev->st = cls__error(CLS_ERR_INVALID_ARGUMENT,
                                "pipeline model: the kernel model gives %g ns for the box "
                                "%zux%zux%zu; it must be finite and not negative",
                                ns, out[0], out[1], out[2]);
        return 0.0;
    }
    return ns;
}

/* Whether the copies are costed as queued (cls_pipe_queued_ns): what the executor runs (EXACT
 * padding), the basic and scalable schemes, whose copies the executor enqueues without waiting
 * on the host.  The buffered scheme's device copies follow the host's packing (the executor
 * waits for it tile by tile) and keep their table time, as does Visschers' DOCUMENT counting. */
static int queued_applies(const pipe_eval *ev)
{
    return ev->d->queued_copies && ev->c->padding == CLS_PIPE_EXACT &&
           (ev->c->scheme == CLS_PIPE_BASIC || ev->c->scheme == CLS_PIPE_SCALABLE);
}

/* The host's enqueues of a tile (not in Visschers 2012): one command per array and box (a
 * contiguous or a rectangular copy, or the buffered scheme's copy of a packed box), one kernel per
 * step; the first and the last kernel with an event, those between without
 * (lib/schedules/pipeline/exec.c). */
static void host_enqueues(const pipe_eval *ev, double nin, double nout, cls_pipe_stages *s)
{
    const cls_pipe_device *d = ev->d;
    double h = ev->g->steps_per_tile > 1 ? (double)ev->g->steps_per_tile : 1.0;
    double plain = d->enqueue_plain_ns > 0 ? d->enqueue_plain_ns : d->enqueue_ns;
    s->host_in = d->enqueue_ns * nin;
    s->host_kernel = d->enqueue_ns * (h > 1 ? 2.0 : 1.0) + plain * (h > 2 ? h - 2 : 0);
    s->host_out = d->enqueue_ns * nout;
}

/* The stages of the tile with indices idx (Sect. 6.4.3 for the transfers). */
static void tile_stages(pipe_eval *ev, const size_t idx[CLS_PIPE_MAX_DIMS], cls_pipe_stages *s,
                        cls_pipe_xfer *xi, cls_pipe_xfer *xo)
{
    const cls_pipe_device *d = ev->d;
    const cls_pipe_grid *g = ev->g;
    cls_pipe_count(g, ev->c, idx, 1, xi);
    cls_pipe_count(g, ev->c, idx, 0, xo);
    double nin = g->n_in, nout = g->n_out;
    memset(s, 0, sizeof *s);
    if (ev->c->scheme == CLS_PIPE_BUFFERED) {
        /* Sect. 6.4.3: "for the buffered scheme, we need to use different measurements ...
         * (CPU to CPU ...). We must also add a single GPU to CPU transfer of X * Y * Z
         * elements": the staging copies follow the tile's layout, the device copy is one. */
        s->buf_in = nin * (double)xi->count * cls_pipe_curve_ns(&d->h2h, xi->bytes);
        s->in = nin * cls_pipe_curve_ns(&d->h2d_staged, (double)xi->count * xi->bytes);
        s->out = nout * cls_pipe_curve_ns(&d->d2h_staged, (double)xo->count * xo->bytes);
        s->buf_out = nout * (double)xo->count * cls_pipe_curve_ns(&d->h2h, xo->bytes);
        /* Its commands cost the host as the other schemes' do (what the executor runs, EXACT
         * padding, on a device whose probe measured the enqueue): at 879 tiles of moving
         * average from pageable arrays the H100 took 127-157 ms against 26 predicted without
         * them (doc/pipeline.md, "Pageable host arrays"). */
        if (d->enqueue_ns > 0 && ev->c->padding == CLS_PIPE_EXACT) host_enqueues(ev, nin, nout, s);
    } else {
        /* Sect. 6.4.3: "we use the data provided by the platform analysis to determine how
         * long each of these transfers takes. We then multiply by the number of transfers".
         * Queued copies: each as queued behind another; exact_stage gives the first of each
         * direction back its table time. */
        if (queued_applies(ev)) {
            s->in = nin * (double)xi->count * cls_pipe_queued_ns(d, CLS_PIPE_TO_DEVICE, xi->bytes);
            s->out = nout * (double)xo->count * cls_pipe_queued_ns(d, CLS_PIPE_TO_HOST, xo->bytes);
            /* Queued copies overlap as the probe's queued pairs of their size; the read waits
             * for the kernel's event (lib/schedules/pipeline/exec.c). */
            s->in_bytes = xi->bytes;
            s->out_bytes = xo->bytes;
            s->out_wait = d->queue_wait_ns;
            host_enqueues(ev, nin, nout, s);
        } else {
            s->in = nin * (double)xi->count * cls_pipe_curve_ns(&d->h2d, xi->bytes);
            s->out = nout * (double)xo->count * cls_pipe_curve_ns(&d->d2h, xo->bytes);
        }
    }
    s->kernel = kernel_ns(ev, xo->ext, xi->ext);
}

int cls_pipe_reuse_axis(int dims, const size_t tiles_per_dim[CLS_PIPE_MAX_DIMS])
{
    int s = dims - 1;
    if (s < 0 || s >= CLS_PIPE_MAX_DIMS || tiles_per_dim[s] < 2) return -1;
    for (int d = 0; d < CLS_PIPE_MAX_DIMS; d++)
        if (d != s && tiles_per_dim[d] != 1) return -1;
    return s;
}

/* Tile i's input range [lo, hi) along dim, EXACT padding (tile_span's clipped box). */
static void in_range(const cls_pipe_grid *g, const cls_pipe_config *c, int dim, size_t i,
                     size_t *lo, size_t *hi)
{
    size_t N = g->size[dim], start = i * c->tile[dim], end = zmin(start + c->tile[dim], N);
    *lo = start >= g->pad_lo[dim] ? start - g->pad_lo[dim] : 0;
    *hi = N - end >= g->pad_hi[dim] ? end + g->pad_hi[dim] : N;
}

/* Halo reuse (not in Visschers 2012; lib/schedules/pipeline/exec.c): the part of tile idx's input
 * box that comes from the host (*xh, per array: the planes beyond the previous tile's box) and the
 * overlap's bytes per array (*ov).  0 when nothing is reused: no reuse, the first tile along the
 * axis, or boxes that do not meet.  Per tile, not per class: near the grid's ends the clipped
 * boxes make middle tiles differ. */
static int reuse_part(const pipe_eval *ev, const size_t idx[CLS_PIPE_MAX_DIMS], cls_pipe_xfer *xh,
                      double *ov)
{
    int s = ev->reuse;
    if (s < 0 || idx[s] == 0) return 0;
    size_t lo, hi, plo, phi;
    in_range(ev->g, ev->c, s, idx[s], &lo, &hi);
    in_range(ev->g, ev->c, s, idx[s] - 1, &plo, &phi);
    if (phi <= lo) return 0;
    cls_pipe_xfer full;
    cls_pipe_count(ev->g, ev->c, idx, 1, &full);
    size_t e[CLS_PIPE_MAX_DIMS];
    double plane = (double)ev->g->elem_bytes;
    for (int d = 0; d < CLS_PIPE_MAX_DIMS; d++) {
        e[d] = full.ext[d];
        if (d != s) plane *= (double)e[d];
    }
    *ov = plane * (double)(phi - lo);
    e[s] = hi - phi;
    box_xfer(ev->g, ev->c, e, xh);
    return 1;
}

/* transferIn of tile idx with halo reuse: its new part from the host (queued when copies
 * queue).  Scalable: one device copy per input array on the kernel queue before the tile's
 * kernels (lib/schedules/pipeline/exec.c halo_copy), a queued command plus the overlap read and
 * written at the device's copy bandwidth, added to the kernel stage. */
static void reuse_stage(const pipe_eval *ev, const size_t idx[CLS_PIPE_MAX_DIMS],
                        cls_pipe_stages *s)
{
    cls_pipe_xfer xh;
    double ov = 0;
    if (!reuse_part(ev, idx, &xh, &ov)) return;
    const cls_pipe_device *d = ev->d;
    double nin = ev->g->n_in;
    double one = queued_applies(ev) ? cls_pipe_queued_ns(d, CLS_PIPE_TO_DEVICE, xh.bytes)
                                    : cls_pipe_curve_ns(&d->h2d, xh.bytes);
    s->in = nin * (double)xh.count * one;
    s->in_bytes = xh.bytes;
    if (ev->c->scheme == CLS_PIPE_SCALABLE) {
        s->kernel += nin * (d->queued_ns + (d->copy_gbs > 0 ? 2.0 * ov / d->copy_gbs : 0.0));
        if (s->host_kernel > 0) s->host_kernel += nin * d->enqueue_ns; /* the copies' enqueues */
    }
}

static int class_key(const pipe_eval *ev, const size_t idx[CLS_PIPE_MAX_DIMS])
{
    int key = 0;
    for (int dim = CLS_PIPE_MAX_DIMS - 1; dim >= 0; dim--)
        key = key * 4 + tile_class(idx[dim], ev->per_dim[dim]);
    return key;
}

static const cls_pipe_stages *class_stages(pipe_eval *ev, int key)
{
    if (!ev->have[key]) {
        size_t idx[CLS_PIPE_MAX_DIMS];
        int k = key;
        for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) {
            idx[dim] = class_index(k % 4, ev->per_dim[dim]);
            k /= 4;
        }
        tile_stages(ev, idx, &ev->cache[key], &ev->xin[key], &ev->xout[key]);
        ev->have[key] = 1;
    }
    return &ev->cache[key];
}

/* Tiles run in raster order, x fastest (the order of the document's library). */
static void exact_stage(size_t t, cls_pipe_stages *s, void *user)
{
    pipe_eval *ev = user;
    size_t idx[CLS_PIPE_MAX_DIMS];
    idx[0] = t % ev->per_dim[0];
    idx[1] = (t / ev->per_dim[0]) % ev->per_dim[1];
    idx[2] = t / (ev->per_dim[0] * ev->per_dim[1]);
    int key = class_key(ev, idx);
    *s = *class_stages(ev, key);
    if (t == 0 && queued_applies(ev)) {
        /* The first copy of each direction is queued behind nothing: its table time. */
        const cls_pipe_device *d = ev->d;
        double bi = ev->xin[key].bytes, bo = ev->xout[key].bytes;
        s->in += cls_pipe_curve_ns(&d->h2d, bi) - cls_pipe_queued_ns(d, CLS_PIPE_TO_DEVICE, bi);
        s->out += cls_pipe_curve_ns(&d->d2h, bo) - cls_pipe_queued_ns(d, CLS_PIPE_TO_HOST, bo);
    }
    reuse_stage(ev, idx, s);
}

static cls_pipe_stage dominant_stage(const cls_pipe_stages *s)
{
    double v[5] = {s->buf_in, s->in, s->kernel, s->out, s->buf_out};
    int best = CLS_PIPE_STAGE_IN;
    for (int i = 0; i < 5; i++)
        if (v[i] > v[best]) best = i;
    return (cls_pipe_stage)best;
}

static cls_status check_kernel(const cls_pipe_kernel *k)
{
    if (!k) return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline model: NULL kernel model");
    if (!k->fn && (!isfinite(k->ns_per_point) || k->ns_per_point < 0 || !isfinite(k->launch_ns) ||
                   k->launch_ns < 0))
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "pipeline model: kernel time per point (%g ns) and per launch (%g ns) "
                          "must be finite and not negative",
                          k->ns_per_point, k->launch_ns);
    return CLS_SUCCESS;
}

cls_status cls_pipe_estimate_config(const cls_pipe_device *d, const cls_pipe_grid *g,
                                    const cls_pipe_kernel *k, const cls_pipe_config *c,
                                    cls_pipe_estimate *e)
{
    if (!d || !c || !e)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline model: NULL argument");
    if ((unsigned)c->scheme >= CLS_PIPE_NSCHEMES)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline model: unknown scheme %d",
                          (int)c->scheme);
    if (c->layout != CLS_PIPE_ROWS && c->layout != CLS_PIPE_MERGED && c->layout != CLS_PIPE_RECT)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline model: unknown layout %d",
                          (int)c->layout);
    if (c->padding != CLS_PIPE_EXACT && c->padding != CLS_PIPE_DOCUMENT)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline model: unknown padding mode %d",
                          (int)c->padding);
    cls_status st = cls_pipe_check(g, c->scheme == CLS_PIPE_NAIVE ? NULL : c->tile);
    if (st != CLS_SUCCESS) return st;
    if ((st = check_kernel(k)) != CLS_SUCCESS) return st;
    if (d->h2d.n == 0 || d->d2h.n == 0 || d->alloc_device.n == 0)
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "pipeline model: the device has no transfer or allocation tables");
    if (c->scheme == CLS_PIPE_BUFFERED &&
        (d->h2h.n == 0 || d->alloc_host.n == 0 || d->h2d_staged.n == 0 || d->d2h_staged.n == 0))
        return cls__error(CLS_ERR_UNSUPPORTED,
                          "pipeline model: the buffered scheme needs the transfer.host_to_host, "
                          "alloc.host and pinned transfer tables, which this device model lacks; "
                          "run `clstencil probe` on the device");

    pipe_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.reuse = -1;
    ev.d = d;
    ev.g = g;
    ev.k = k;
    ev.c = c;

    memset(e, 0, sizeof *e);
    e->config = *c;
    e->fits = 1;
    double full = (double)g->size[0] * (double)g->size[1] * (double)g->size[2] *
                  (double)g->elem_bytes;
    double arrays = (double)g->n_in + (double)g->n_out;

    if (c->scheme == CLS_PIPE_NAIVE) {
        /* Sect. 6.2.1 (Fig. 6.1): allocate full arrays, copy everything in, run the kernel,
         * copy everything back; nothing overlaps. */
        for (int i = 0; i < CLS_PIPE_MAX_DIMS; i++) {
            e->config.tile[i] = g->size[i];
            e->tiles_per_dim[i] = 1;
        }
        e->n_tiles = 1;
        e->buffer_sets = 1;
        tile_stages(&ev, NULL, &e->tile, &e->xin, &e->xout);
        if (ev.st != CLS_SUCCESS) return ev.st;
        e->alloc_ns = arrays * cls_pipe_curve_ns(&d->alloc_device, full);
        e->pipeline_ns = e->tile.in + e->tile.kernel + e->tile.out;
        e->device_bytes = arrays * full;
        e->largest_buffer = full;
        e->bytes_moved = arrays * full;
        e->transfers = arrays;
        e->dominant = dominant_stage(&e->tile);
        e->total_ns = e->alloc_ns + e->pipeline_ns;
        return CLS_SUCCESS;
    }

    e->n_tiles = cls_pipe_tiles(g, c->tile, ev.per_dim);
    memcpy(e->tiles_per_dim, ev.per_dim, sizeof ev.per_dim);
    int buffered = c->scheme == CLS_PIPE_BUFFERED;
    /* Halo reuse: what the executor does (EXACT; basic, scalable; tiles only along the
     * slowest dimension). */
    if (c->padding == CLS_PIPE_EXACT &&
        (c->scheme == CLS_PIPE_BASIC || c->scheme == CLS_PIPE_SCALABLE))
        ev.reuse = cls_pipe_reuse_axis(g->dims, ev.per_dim);

    /* Per tile class: stages, bytes and commands, buffer sizes (the largest tile). */
    double in_buf = 0, out_buf = 0;
    for (int key = 0; key < 64; key++) {
        size_t mult = 1;
        int kk = key;
        for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) {
            mult *= class_count(kk % 4, ev.per_dim[dim]);
            kk /= 4;
        }
        if (mult == 0) continue;
        if (c->padding == CLS_PIPE_DOCUMENT && key != class_key(&ev, (size_t[3]){0, 0, 0}))
            continue; /* every tile is the same there */
        class_stages(&ev, key);
        if (ev.st != CLS_SUCCESS) return ev.st;
        const cls_pipe_xfer *xi = &ev.xin[key], *xo = &ev.xout[key];
        double m = c->padding == CLS_PIPE_DOCUMENT ? (double)e->n_tiles : (double)mult;
        e->bytes_moved += m * ((double)g->n_in * (double)xi->count * xi->bytes +
                               (double)g->n_out * (double)xo->count * xo->bytes);
        e->transfers += m * (buffered ? arrays
                                      : (double)g->n_in * (double)xi->count +
                                            (double)g->n_out * (double)xo->count);
        in_buf = dmax(in_buf, (double)xi->count * xi->bytes);
        out_buf = dmax(out_buf, (double)xo->count * xo->bytes);
    }
    /* Halo reuse: tiles after the first move only their new part. */
    for (size_t i = 1; ev.reuse >= 0 && i < ev.per_dim[ev.reuse]; i++) {
        size_t idx[CLS_PIPE_MAX_DIMS] = {0, 0, 0};
        idx[ev.reuse] = i;
        cls_pipe_xfer xh;
        double ov = 0;
        if (!reuse_part(&ev, idx, &xh, &ov)) continue;
        /* what the class loop counted for this tile (its class's box), replaced by the new
         * part */
        int key = class_key(&ev, idx);
        class_stages(&ev, key);
        const cls_pipe_xfer whole = ev.xin[key];
        double nin = (double)g->n_in;
        e->bytes_moved -= nin * ((double)whole.count * whole.bytes - (double)xh.count * xh.bytes);
        e->transfers -= nin * ((double)whole.count - (double)xh.count);
        e->reused_bytes += nin * ov;
    }

    /* The reported tile: an interior one (a middle tile wherever there are three or more). */
    size_t rep[CLS_PIPE_MAX_DIMS];
    for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) rep[dim] = ev.per_dim[dim] >= 3 ? 1 : 0;
    int rkey = class_key(&ev, rep);
    e->tile = *class_stages(&ev, rkey);
    reuse_stage(&ev, rep, &e->tile);
    e->xin = ev.xin[rkey];
    e->xout = ev.xout[rkey];
    if (ev.st != CLS_SUCCESS) return ev.st;
    e->dominant = dominant_stage(&e->tile);

    /* Sect. 6.4.4. */
    if (c->padding == CLS_PIPE_DOCUMENT)
        e->pipeline_ns = cls_pipe_run_uniform(d, buffered, &e->tile, e->n_tiles);
    else
        e->pipeline_ns = cls_pipe_run_steps(d, buffered, e->n_tiles, exact_stage, &ev);
    if (ev.st != CLS_SUCCESS) return ev.st;

    /* Sect. 6.4.1: basic, "for every input and output array, an array of the same size is
     * allocated on the GPU"; scalable, three tile-sized arrays per array, inputs with their
     * padding; buffered, the same "duplicated on the CPU".  The executor allocates no more
     * sets than there are tiles; the document always three. */
    if (c->scheme == CLS_PIPE_BASIC) {
        e->buffer_sets = 1;
        e->alloc_ns = arrays * cls_pipe_curve_ns(&d->alloc_device, full);
        e->device_bytes = arrays * full;
        e->largest_buffer = full;
        if (c->padding == CLS_PIPE_EXACT && g->steps_per_tile > 1) {
            /* the executor's two ping-pong boxes for the intermediate steps (input-box sized) */
            e->alloc_ns += 2 * cls_pipe_curve_ns(&d->alloc_device, in_buf);
            e->device_bytes += 2 * in_buf;
        }
    } else {
        size_t sets = c->padding == CLS_PIPE_DOCUMENT ? 3 : zmin(3, e->n_tiles);
        e->buffer_sets = sets;
        double ns = (double)g->n_in * cls_pipe_curve_ns(&d->alloc_device, in_buf) +
                    (double)g->n_out * cls_pipe_curve_ns(&d->alloc_device, out_buf);
        e->device_bytes = (double)sets * ((double)g->n_in * in_buf + (double)g->n_out * out_buf);
        e->largest_buffer = dmax(in_buf, out_buf);
        if (c->scheme == CLS_PIPE_SCALABLE && ev.reuse >= 0 && g->steps_per_tile > 1) {
            /* halo reuse: the tile's steps ping-pong through a box of their own, since the next
             * tile's halo copy reads the input box */
            ns += cls_pipe_curve_ns(&d->alloc_device, in_buf);
            e->device_bytes += (double)sets * in_buf;
        }
        if (buffered) {
            ns += (double)g->n_in * cls_pipe_curve_ns(&d->alloc_host, in_buf) +
                  (double)g->n_out * cls_pipe_curve_ns(&d->alloc_host, out_buf);
            e->host_bytes = e->device_bytes;
        }
        e->alloc_ns = (double)sets * ns;
    }
    /* Sect. 6.4.5: "the prediction for the pipeline added to the prediction of the allocation
     * and deallocation of the memory". */
    e->total_ns = e->alloc_ns + e->pipeline_ns;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ the planner (5.5) */

/* Tile lengths along one dimension of n elements: ceil(n / k) for k tiles, distinct; fine:
 * every k up to 64, then k growing by 8 %; coarse: k = 1, 2, 4, ...  Ends with length 1
 * when n is at most max_tiles.  Returns the count (at most cap). */
static size_t tile_lengths(size_t n, size_t max_tiles, int fine, size_t *out, size_t cap)
{
    size_t m = 0, prev = 0, k = 1;
    size_t kmax = zmin(n, max_tiles);
    while (k <= kmax && m < cap) {
        size_t t = (n + k - 1) / k;
        if (t != prev) out[m++] = prev = t;
        if (fine && k < 64)
            k++;
        else if (fine)
            k = (size_t)ceil((double)k * 1.08);
        else
            k *= 2;
    }
    if (n <= max_tiles && prev != 1 && m < cap) out[m++] = 1;
    return m;
}

/* The time a candidate is ranked by: a run's, or with buffers kept between runs a run's
 * without the allocation. */
static double rank_ns(const cls_pipe_estimate *e, int kept)
{
    return kept ? e->pipeline_ns : e->total_ns;
}

/* a better than b: faster, then less device memory (kept buffers stay held between runs: with
 * them basic and scalable often tie, basic holding whole arrays), then the simpler scheme, then
 * fewer tiles. */
static int better(const cls_pipe_estimate *a, const cls_pipe_estimate *b, int kept)
{
    double ta = rank_ns(a, kept), tb = rank_ns(b, kept);
    double tol = 1e-9 * fmax(ta, tb);
    if (ta < tb - tol) return 1;
    if (ta > tb + tol) return 0;
    if (a->device_bytes != b->device_bytes) return a->device_bytes < b->device_bytes;
    if (a->config.scheme != b->config.scheme) return a->config.scheme < b->config.scheme;
    return a->n_tiles < b->n_tiles;
}

#define PIPE_MAX_LENGTHS 256

cls_status cls_pipe_plan(const cls_pipe_device *d, const cls_pipe_grid *g, const cls_pipe_kernel *k,
                         const cls_pipe_plan_options *o, cls_pipe_plan_result *r)
{
    if (!d || !r) return cls__error(CLS_ERR_INVALID_ARGUMENT, "pipeline planner: NULL argument");
    cls_status st = cls_pipe_check(g, NULL);
    if (st != CLS_SUCCESS) return st;
    if ((st = check_kernel(k)) != CLS_SUCCESS) return st;
    cls_pipe_plan_options def;
    memset(&def, 0, sizeof def);
    if (!o) o = &def;
    if (!(o->device_memory >= 0) || !(o->max_buffer >= 0))
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "pipeline planner: the memory caps must not be negative");
    unsigned allowed = o->schemes ? o->schemes : 0xFu;
    if (!(allowed & 0xFu))
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "pipeline planner: no known scheme in the mask 0x%x", o->schemes);
    double cap = o->device_memory;
    if (d->global_bytes > 0 && (cap == 0 || d->global_bytes < cap)) cap = d->global_bytes;
    size_t max_tiles = o->max_tiles ? o->max_tiles : 65536;
    int have_buffered = d->h2h.n > 0 && d->alloc_host.n > 0;

    memset(r, 0, sizeof *r);
    int have_best = 0;
    double least_need = HUGE_VAL;
    const char *least_scheme = "";
    size_t least_tile[CLS_PIPE_MAX_DIMS] = {0, 0, 0};

    cls_pipe_config c;
    memset(&c, 0, sizeof c);
    c.scheme = CLS_PIPE_NAIVE;
    c.layout = CLS_PIPE_MERGED;
    c.padding = CLS_PIPE_EXACT;
    cls_pipe_estimate e;
    if ((st = cls_pipe_estimate_config(d, g, k, &c, &e)) != CLS_SUCCESS) return st;
    e.fits = (cap == 0 || e.device_bytes <= cap) &&
             (o->max_buffer == 0 || e.largest_buffer <= o->max_buffer);
    r->naive = e;
    r->candidates++;
    if (o->each) o->each(&e, o->user);
    if (e.fits && (allowed & (1u << CLS_PIPE_NAIVE))) {
        r->best = e;
        have_best = 1;
    }
    if (e.device_bytes < least_need) {
        least_need = e.device_bytes;
        least_scheme = "naive";
        memcpy(least_tile, g->size, sizeof least_tile);
    }

    /* Split the slowest dimension; split the next ones only when nothing pipelined fits. */
    size_t lens[CLS_PIPE_MAX_DIMS][PIPE_MAX_LENGTHS];
    for (int level = 1; level <= g->dims; level++) {
        size_t nl[CLS_PIPE_MAX_DIMS];
        int lo_dim = g->dims - level; /* split dimensions lo_dim .. dims - 1 */
        for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) {
            if (dim >= lo_dim && dim < g->dims) {
                nl[dim] = tile_lengths(g->size[dim], max_tiles, level == 1, lens[dim],
                                       PIPE_MAX_LENGTHS);
            } else {
                nl[dim] = 1;
                lens[dim][0] = g->size[dim];
            }
        }
        int fitted = 0;
        size_t pos[CLS_PIPE_MAX_DIMS] = {0, 0, 0};
        for (;;) {
            for (int dim = 0; dim < CLS_PIPE_MAX_DIMS; dim++) c.tile[dim] = lens[dim][pos[dim]];
            if (cls_pipe_tiles(g, c.tile, NULL) <= max_tiles) {
                for (int s = CLS_PIPE_BASIC; s < CLS_PIPE_NSCHEMES; s++) {
                    if (!(allowed & (1u << s))) continue;
                    if (s == CLS_PIPE_BUFFERED && !have_buffered) continue;
                    c.scheme = (cls_pipe_scheme)s;
                    st = cls_pipe_estimate_config(d, g, k, &c, &e);
                    if (st != CLS_SUCCESS) return st;
                    e.fits = (cap == 0 || e.device_bytes <= cap) &&
                             (o->max_buffer == 0 || e.largest_buffer <= o->max_buffer);
                    r->candidates++;
                    if (o->each) o->each(&e, o->user);
                    if (e.device_bytes < least_need) {
                        least_need = e.device_bytes;
                        least_scheme = cls_pipe_scheme_name(e.config.scheme);
                        memcpy(least_tile, c.tile, sizeof least_tile);
                    }
                    if (!e.fits) continue;
                    fitted = 1;
                    if (!have_best || better(&e, &r->best, o->buffers_kept)) {
                        r->best = e;
                        r->split_dims = (size_t)level;
                        have_best = 1;
                    }
                }
            }
            int dim = 0; /* odometer over the split dimensions' lengths */
            while (dim < CLS_PIPE_MAX_DIMS && ++pos[dim] >= nl[dim]) pos[dim++] = 0;
            if (dim == CLS_PIPE_MAX_DIMS) break;
        }
        if (fitted) break;
    }
    if (!have_best)
        return cls__error(CLS_ERR_PLAN_INFEASIBLE,
                          "pipeline planner: no allowed scheme fits the device memory (%.0f "
                          "bytes, largest buffer %.0f): the smallest need is %.0f bytes (%s, tile "
                          "%zux%zux%zu); raise --device-memory or allow the scalable scheme",
                          cap, o->max_buffer, least_need, least_scheme, least_tile[0],
                          least_tile[1], least_tile[2]);
    if (r->best.config.scheme == CLS_PIPE_NAIVE) r->split_dims = 0;
    r->speedup = r->naive.fits ? rank_ns(&r->naive, o->buffers_kept) /
                                     rank_ns(&r->best, o->buffers_kept)
                               : 0.0;
    return CLS_SUCCESS;
}
