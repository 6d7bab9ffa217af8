/* pipeline.h: the tiled transfer/compute pipeline model of Visschers 2012 and its planner. */
#ifndef CLS_PIPELINE_H
#define CLS_PIPELINE_H

/* Source: Visschers 2012 ("Reducing the overhead of data transfer in data-parallel
 * programs"), Sect. 2.6-2.7 (tiles, padding), 5.2 (platform tables), 6.1 (tile shape),
 * 6.2 (the naive approach and the basic, scalable and buffered schemes; the contiguous merge
 * of Sect. 6.2.3), 6.3 (linear interpolation in 10^k-byte tables), 6.4.1 (allocation),
 * 6.4.3 (transfer counting), 6.4.4 (the pipeline with start-up and shut-down steps, single and
 * dual copy engines, the overlap coefficient 0.57), 6.4.5 (the compounded prediction), 5.5
 * (scheme selection).  doc/pipeline.md lists every symbol and which device parameter feeds it.
 *
 * Pure C: no OpenCL, no global state, no allocation.  Times are nanoseconds (the unit of the
 * document's tables), sizes bytes.  A grid has up to three dimensions, x fastest: the element
 * (x, y, z) lives at x + X * (y + Y * z) (Sect. 6.5). */

#include <stddef.h>

#include "device_model.h"

#define CLS_PIPE_MAX_DIMS 3
#define CLS_PIPE_MAX_POINTS 64 /* the schema's largest table */

/* ------------------------------------------------------------------------------------------
 * Device: the platform properties of Sect. 5.2.
 * ---------------------------------------------------------------------------------------- */

/* One measured table: time of one operation against its size (Sect. 5.2: 10, 100, ...
 * bytes), ascending sizes, at least two entries. */
typedef struct cls_pipe_curve {
    size_t n;
    double bytes[CLS_PIPE_MAX_POINTS];
    double ns[CLS_PIPE_MAX_POINTS];
} cls_pipe_curve;

typedef struct cls_pipe_device {
    int copy_engines;       /* copyEngines (Sect. 5.2)             transfer.copy_engines
                               0: the host copies (CPU devices): nothing overlaps;
                               1: both directions share one engine (Sect. 6.4.4, single);
                               2+: dual copy engines (Sect. 6.4.4, dual) */
    double overlap_factor;  /* throughput of both directions at once over one direction alone
                               (1.26 on the C2050, Sect. 6.4.4)    transfer.overlap_factor */
    double overlap_coeff;   /* the 0.57 of Sect. 6.4.4: two transfers at once last
                               max + overlap_coeff x min.  From the factor:
                               2 / overlap_factor - 1 (the time of both at once over one alone,
                               "157%", minus one; 0.587 for 1.26), clamped to [0, 1].  Callers
                               may set the document's 0.57 to reproduce its tables. */
    int host_pinned;        /* the user's host arrays are page-locked (Sect. 2.5.2; Visschers' runs
                               are, Sect. 7): direct transfers use the pinned tables */
    cls_pipe_curve h2d;     /* direct host-to-device copies     pinnedHostToDevice, or the
                               pageable table when host_pinned is 0 */
    cls_pipe_curve d2h;     /* direct device-to-host copies     deviceToPinnedHost, or pageable */
    cls_pipe_curve h2d_staged; /* the buffered scheme's copies from its pinned host tiles:
                                  always pinnedHostToDevice */
    cls_pipe_curve d2h_staged; /* ... and to them: deviceToPinnedHost */
    cls_pipe_curve h2h;     /* host-to-host staging copy        pinnedHostToPinnedHost
                               (n == 0: unknown, no buffered scheme) */
    cls_pipe_curve alloc_device; /* allocate and free one device buffer  mallocFreeDevice */
    cls_pipe_curve alloc_host;   /* allocate and free one pinned host buffer  mallocFreeHost
                                    (n == 0: unknown, no buffered scheme) */
    double global_bytes;    /* memory.global_bytes (0: unknown, no cap from the model) */
    int queued_copies;      /* copies after the first of each direction are queued behind the
                               previous one on an in-order queue (the executor enqueues the whole
                               pipeline with events): each costs cls_pipe_queued_ns.  EXACT
                               padding, basic and scalable schemes only; 0: every copy costs its
                               table time, as Visschers 2012, Sect. 6.4.3 counts it (the
                               reproduction of its tables) */
    cls_pipe_curve h2d_queued; /* a queued copy's measured marginal time in a stream, pinned
                                  host arrays (transfer.host_to_device_queued; n == 0: not
                                  measured, or pageable host arrays) */
    cls_pipe_curve d2h_queued; /* ... device to host (transfer.device_to_host_queued) */
    double queue_wait_ns;   /* a command released by another queue's event starts this much
                               later than one following on its own queue
                               (sync.queue_wait_cycles / compute.clock_mhz; 0: unknown): the
                               out_wait of the executor's queued steps */
    cls_pipe_curve pair_queued; /* one queued copy each way on two queues, their marginal time
                                   as a pair (transfer.pair_queued): the overlap per size,
                                   cls_pipe_overlap_coeff_at (n == 0: the single factor) */
    double queued_ns;       /* without a queued table: the device's turnaround of a command
                               queued behind another, sync.kernel_restart_cycles /
                               compute.clock_mhz (back-to-back queued launches) */
    double enqueue_ns;      /* host time to enqueue one command with its event on a profiling
                               queue (sync.enqueue_cycles / compute.clock_mhz; 0: unknown, the
                               host is not modelled): the executor enqueues every tile's
                               commands ahead of the device, and at many small tiles the host
                               sets the pace (not in Visschers 2012) */
    double enqueue_plain_ns; /* a kernel enqueued without an event (sync.enqueue_plain_cycles;
                               0: enqueue_ns): a tile's steps between its first and last */
    double flush_ns;        /* one clFlush of a queue with new commands (sync.flush_cycles);
                               the executor flushes its three queues once per pipeline step */
    double copy_gbs;        /* device-to-device copy bandwidth, bytes read plus written per
                               ns (memory.bandwidth_measured_gbs; 0: unknown, a copy then costs
                               its command, queued_ns, alone): the scalable scheme's halo
                               reuse (not in Visschers 2012) */
} cls_pipe_device;

/* The direction of a copy. */
typedef enum cls_pipe_dir { CLS_PIPE_TO_DEVICE = 0, CLS_PIPE_TO_HOST = 1 } cls_pipe_dir;

/* Fills *d from a device model.  queued_copies is set when the model has the queued tables
 * (with pinned host arrays) or a measured sync.kernel_restart_cycles (a probe, not a family
 * assumption; queued_ns the restart).
 * host_pinned picks the pinned (1) or pageable (0) tables for
 * the direct transfers.  Needs the direct tables of that kind, the pinned ones and
 * alloc.device, each with at least two entries; host_to_host and alloc.host are optional
 * (without them the buffered scheme is unavailable).  On failure returns
 * CLS_ERR_INVALID_MODEL (CLS_ERR_INVALID_ARGUMENT for NULL) with a sentence as the last error
 * (model/error.h) naming the missing table and what to do. */
cls_status cls_pipe_device_from_model(const cls_model *m, int host_pinned, cls_pipe_device *d);
/* The i-th device-model parameter or table cls_pipe_device_from_model reads ("section.key",
 * NULL past the end) and, through *symbol when not NULL, the document's name it feeds. */
const char *cls_pipe_device_param(size_t i, const char **symbol);
/* The overlap coefficient of a factor: 2 / factor - 1 clamped to [0, 1] (Sect. 6.4.4). */
double cls_pipe_overlap_coeff(double overlap_factor);

/* Sect. 6.3, 6.4.1, 6.4.3: the time of one operation of `bytes` bytes by linear interpolation
 * between the two table entries around it.  Below the first entry: the first entry's time
 * (a copy costs at least its fixed start-up; extrapolating down could turn negative).  Above
 * the last: the line through the last two entries extended (large transfers are affine in
 * their size: start-up plus bytes over bandwidth), or the last time when that line falls.
 * 0 bytes: 0 ns (no operation).  An empty table: 0. */
double cls_pipe_curve_ns(const cls_pipe_curve *c, double bytes);
/* A copy of `bytes` in direction dir queued behind another copy on the same in-order queue
 * (refines Sect. 6.4.3; see queued_copies): the direction's queued table when measured
 * (cls_pipe_curve_ns of h2d_queued or d2h_queued), otherwise
 * max(0, table(bytes) - table's first entry) + d->queued_ns on the direct table (h2d or d2h);
 * the direct table's time when d->queued_copies is 0.  0 bytes: 0. */
double cls_pipe_queued_ns(const cls_pipe_device *d, cls_pipe_dir dir, double bytes);

/* ------------------------------------------------------------------------------------------
 * Program: the program properties of Sect. 5.1 that the model reads.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_pipe_grid {
    int dims;                         /* 1, 2 or 3 (dimensionality) */
    size_t size[CLS_PIPE_MAX_DIMS];   /* array extent in x, y, z (1 beyond dims) */
    size_t elem_bytes;                /* bytesPerElement (4 for floats) */
    size_t pad_lo[CLS_PIPE_MAX_DIMS]; /* input padding below the tile in each dimension
                                         (Sect. 2.7.2: the stencil's reach, times the steps a
                                         tile computes; 0 beyond dims) */
    size_t pad_hi[CLS_PIPE_MAX_DIMS]; /* ... and above; PX = pad_lo + pad_hi (Sect. 6.4.3) */
    unsigned n_in, n_out;             /* input and output arrays, all of the grid's size */
    size_t steps_per_tile;            /* the steps a tile computes (0: one); with halo reuse
                                         and more than one, each scalable set holds a
                                         ping-pong box of its own (lib/schedules/pipeline/exec.c) */
} cls_pipe_grid;

/* The schemes of Sect. 6.2. */
typedef enum cls_pipe_scheme {
    CLS_PIPE_NAIVE = 0,    /* Sect. 6.2.1: all in, kernel, all out; no tiles */
    CLS_PIPE_BASIC = 1,    /* Sect. 6.2.2: full-size device arrays, tiles copied in place */
    CLS_PIPE_SCALABLE = 2, /* Sect. 6.2.2: three tile-sized buffer sets reused round-robin */
    CLS_PIPE_BUFFERED = 3  /* Sect. 6.2.3: the scalable scheme staged through pinned host tiles */
} cls_pipe_scheme;
#define CLS_PIPE_NSCHEMES 4

/* How a tile's box becomes transfers (Sect. 6.2.3, 6.4.3). */
typedef enum cls_pipe_layout {
    CLS_PIPE_ROWS = 0,   /* "normal": one transfer per row of the box (Y x Z transfers of X
                            elements), Visschers' per-row copies */
    CLS_PIPE_MERGED = 1, /* "contiguous": a box as wide as the array in x is Z transfers of
                            X x Y elements, and one transfer when it also spans y */
    CLS_PIPE_RECT = 2    /* one rectangular copy command per box (clEnqueueWriteBufferRect,
                            lib/schedules/pipeline/exec.c with pipeline_rect): one transfer of the
                            whole box; the buffered scheme still packs it row by row on the host */
} cls_pipe_layout;

/* How padding and edge tiles are counted. */
typedef enum cls_pipe_padding {
    CLS_PIPE_EXACT = 0,   /* every tile's input box clipped to the array, partial last tiles:
                             what the executor moves (the gap Sect. 8.1 names) */
    CLS_PIPE_DOCUMENT = 1 /* Sect. 6.4.3 as the document computes it: every tile a full
                             interior tile (X + PX, Y + PY, Z + PZ), padding dropped only in x
                             (and then y) when the tile spans the array there and the layout
                             is MERGED; three buffer sets even for fewer tiles (Sect. 6.4.1) */
} cls_pipe_padding;

typedef struct cls_pipe_config {
    cls_pipe_scheme scheme;
    cls_pipe_layout layout;
    cls_pipe_padding padding;
    size_t tile[CLS_PIPE_MAX_DIMS]; /* output tile (X, Y, Z); 1 <= tile <= size; ignored by
                                       the naive scheme */
} cls_pipe_config;

/* Checks a grid (and a tile when not NULL) for values the model cannot take.  Returns
 * CLS_SUCCESS or CLS_ERR_INVALID_ARGUMENT / CLS_ERR_INVALID_SIZE with a sentence as the last
 * error. */
cls_status cls_pipe_check(const cls_pipe_grid *g, const size_t *tile);

/* Tiles of a tiling: ceil(size / tile) in each dimension (per_dim may be NULL), their product
 * returned. */
size_t cls_pipe_tiles(const cls_pipe_grid *g, const size_t tile[CLS_PIPE_MAX_DIMS],
                      size_t per_dim[CLS_PIPE_MAX_DIMS]);

/* ------------------------------------------------------------------------------------------
 * Transfers of one tile (Sect. 6.1, 6.4.3).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_pipe_xfer {
    size_t ext[CLS_PIPE_MAX_DIMS]; /* the box moved: the output tile, or the input tile with its
                                      padding */
    size_t count;                  /* transfers per array */
    double bytes;                  /* bytes of each */
} cls_pipe_xfer;

/* The box of tile idx (its index in each dimension) and its transfers, for the input
 * (input != 0: the tile plus padding) or the output.  Sect. 6.4.3: ROWS gives Y' x Z'
 * transfers of X' elements; MERGED, when the box spans the array in x, Z' transfers of
 * X' x Y', and one transfer when it spans y as well. */
void cls_pipe_count(const cls_pipe_grid *g, const cls_pipe_config *c,
                    const size_t idx[CLS_PIPE_MAX_DIMS], int input, cls_pipe_xfer *x);

/* ------------------------------------------------------------------------------------------
 * The pipeline (Sect. 6.4.4).
 * ---------------------------------------------------------------------------------------- */
/* The durations of one tile's operations: bufferIn, transferIn, kernel, transferOut,
 * bufferOut (the buffer stages are 0 outside the buffered scheme). */
typedef struct cls_pipe_stages {
    double buf_in, in, kernel, out, buf_out;
    /* The size of one copy of transferIn and of transferOut, for the overlap per size
     * (cls_pipe_overlap_coeff_at); 0: the device's single overlap factor. */
    double in_bytes, out_bytes;
    /* How long after the step's transferIn starts its transferOut can start: the executor's
     * read waits for an event of the kernel's queue (cls_pipe_device queue_wait_ns); 0: the
     * two start together, as in Visschers' lock-step pipeline. */
    double out_wait;
    /* Host time enqueueing the tile's commands of transferIn, the kernel stage and transferOut
     * (cls_pipe_device enqueue_ns per command; not in Visschers 2012).  A step runs once the host
     * has enqueued its commands: see cls_pipe_run_steps.  0: the host keeps ahead. */
    double host_in, host_kernel, host_out;
} cls_pipe_stages;

typedef enum cls_pipe_stage {
    CLS_PIPE_STAGE_BUF_IN = 0,
    CLS_PIPE_STAGE_IN = 1,
    CLS_PIPE_STAGE_KERNEL = 2,
    CLS_PIPE_STAGE_OUT = 3,
    CLS_PIPE_STAGE_BUF_OUT = 4
} cls_pipe_stage;

/* Sect. 6.4.4: transferIn and transferOut at once.  Dual engines:
 * max(in, out) + overlap_coeff x min(in, out); one engine (or none): in + out. */
double cls_pipe_overlap_ns(const cls_pipe_device *d, double in, double out);
/* Halo reuse (not in Visschers 2012; lib/schedules/pipeline/exec.c): the axis along which
 * consecutive tiles' input boxes overlap in whole planes, the grid's slowest (dims - 1), when it
 * has two tiles or more and every other dimension one; -1 otherwise.  Which schemes reuse is the
 * caller's. */
int cls_pipe_reuse_axis(int dims, const size_t tiles_per_dim[CLS_PIPE_MAX_DIMS]);
/* The overlap coefficient for copies of this size: from the queued pairs (pair_queued, with
 * a = h2d_queued, b = d2h_queued at that size, the document's X = max + c min solved for c:
 * (pair - max(a, b)) / min(a, b), clamped to [0, 1]), or overlap_coeff without them. */
double cls_pipe_overlap_coeff_at(const cls_pipe_device *d, double bytes);
/* transferIn and transferOut of *a at once: cls_pipe_overlap_ns with the coefficient at the
 * copy size of the shorter of the two (a->in_bytes or a->out_bytes; 0: overlap_coeff), the
 * transfer that runs beside the other throughout.  With dual engines, both copies present and
 * a->out_wait = w > 0, transferOut starts w later and transferIn runs alone meanwhile (in = A,
 * out = B, coefficient c, each slowed by 1 + c while both run):
 *   A <= w:       w + B
 *   A - w >= B:   A + c B          (the wait hides in the longer transferIn)
 *   otherwise:    B + w + c (A - w)   (A = B: A (1 + c) + w (1 - c)). */
double cls_pipe_copies_ns(const cls_pipe_device *d, const cls_pipe_stages *a);
/* One step of the pipeline: the operations in *a run at once, each engine doing its own in
 * turn, so the step lasts as long as the busiest engine: the host (bufferIn + bufferOut),
 * the copy engine(s) (cls_pipe_copies_ns of in and out), the kernel engine.  Without copy
 * engines (copy_engines 0) the host does everything: the sum of all five. */
double cls_pipe_step_ns(const cls_pipe_device *d, const cls_pipe_stages *a);

/* The run time of n tiles of equal stages, Sect. 6.4.4.  Three-stage schemes (buffered 0),
 * n >= 2:
 *   in + max(in, k) + (n - 2) x max(X, k) + max(k, out) + out,   X = cls_pipe_copies_ns
 * (the single-engine formula with X = in + out, the dual one with max + 0.57 min).  The
 * buffered scheme, n >= 4:
 *   bIn + max(bIn, in) + max(bIn, in, k) + max(bIn, X, k)
 *   + (n - 4) x max(bIn + bOut, X, k)
 *   + max(bOut, X, k) + max(bOut, out, k) + max(bOut, out) + bOut
 * (the document's dual-engine variant substitutes X for in + out; its text says "bufferIn +
 * bufferOut", a slip).  Fewer tiles, or no copy engine: the steps of cls_pipe_run_steps,
 * which for one tile is the sum of the stages (the closed forms taken literally at n = 1
 * subtract a step; see doc/pipeline.md).  n = 0: 0. */
double cls_pipe_run_uniform(const cls_pipe_device *d, int buffered, const cls_pipe_stages *s,
                            size_t n);

/* Stages of tile t (0-based, in pipeline order) for cls_pipe_run_steps. */
typedef void (*cls_pipe_stage_fn)(size_t t, cls_pipe_stages *s, void *user);
/* The run time of n tiles whose stages may differ (edge tiles), by the steps of Sect. 6.4.4
 * (Figs. 6.11-6.13): with S stages (3, or 5 buffered), step j = 0 .. n + S - 2 runs stage s of
 * tile j - s for every s with 0 <= j - s < n, and lasts cls_pipe_step_ns of them.  For equal
 * tiles it equals cls_pipe_run_uniform. */
double cls_pipe_run_steps(const cls_pipe_device *d, int buffered, size_t n,
                          cls_pipe_stage_fn stage, void *user);

/* ------------------------------------------------------------------------------------------
 * Kernel time (Sect. 6.4.2: measured by the user or another model, not predicted here).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_pipe_tile_info {
    size_t out[CLS_PIPE_MAX_DIMS]; /* the output box the kernel computes */
    size_t in[CLS_PIPE_MAX_DIMS];  /* its input box with padding */
    double points;                 /* out[0] x out[1] x out[2] */
} cls_pipe_tile_info;

typedef double (*cls_pipe_kernel_fn)(const cls_pipe_tile_info *t, void *user);

typedef struct cls_pipe_kernel {
    double ns_per_point;   /* per output point, every kernel repetition included */
    double launch_ns;      /* per launch: each tile, and the naive run once */
    cls_pipe_kernel_fn fn; /* when not NULL, the kernel's time for a box (ns), instead */
    void *user;
} cls_pipe_kernel;

/* ------------------------------------------------------------------------------------------
 * The compounded prediction of one configuration (Sect. 6.4.5).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_pipe_estimate {
    cls_pipe_config config;
    size_t n_tiles;
    size_t tiles_per_dim[CLS_PIPE_MAX_DIMS];
    size_t buffer_sets;     /* device buffer sets: full arrays (naive, basic) count 1 */
    double alloc_ns;        /* Sect. 6.4.1: allocate and free every buffer */
    double pipeline_ns;     /* Sect. 6.4.4 (naive: in + kernel + out) */
    double total_ns;        /* Sect. 6.4.5: alloc_ns + pipeline_ns */
    double device_bytes;    /* device memory the scheme holds at once */
    double host_bytes;      /* pinned staging memory (buffered) */
    double largest_buffer;  /* the largest single device buffer */
    int fits;               /* device_bytes and largest_buffer within the planner's caps (1
                               outside the planner) */
    cls_pipe_stages tile;   /* the stages of an interior tile (the whole grid for naive); with
                               halo reuse its transferIn moves only the new part */
    cls_pipe_xfer xin, xout;/* its transfers, per array (xin: the whole input box) */
    cls_pipe_stage dominant;/* its longest stage (Sect. 6.4.4, "dominant operation") */
    double bytes_moved;     /* host<->device bytes over all tiles and arrays */
    double transfers;       /* host<->device copy commands over all tiles and arrays */
    double reused_bytes;    /* halo reuse: input bytes not moved again, over all tiles and
                               arrays (scalable: copied on the device instead) */
} cls_pipe_estimate;

/* Halo reuse (EXACT padding, basic and scalable schemes, one tile in every dimension but the
 * slowest, as the executor does it): tile t >= 1 along the slowest axis moves from the host
 * only the part of its input box beyond tile t - 1's (whole planes: counted by the layout like
 * a box); the overlap is on the device already (basic: the full-size array) or, scalable, one
 * device-to-device copy per input array: queued_ns + 2 x overlap bytes / copy_gbs.  The first
 * tile moves its whole box; DOCUMENT padding and the buffered scheme are unchanged.
 *
 * Predicts one configuration.  Fails with CLS_ERR_INVALID_ARGUMENT / CLS_ERR_INVALID_SIZE for
 * a bad grid, tile or kernel model (a kernel time that is negative or not finite names the
 * box), CLS_ERR_UNSUPPORTED for the buffered scheme on a device without the host_to_host or
 * alloc.host table; the sentence is the last error. */
cls_status cls_pipe_estimate_config(const cls_pipe_device *d, const cls_pipe_grid *g,
                                    const cls_pipe_kernel *k, const cls_pipe_config *c,
                                    cls_pipe_estimate *e);

/* ------------------------------------------------------------------------------------------
 * The planner (Sect. 5.5): scheme and tile size by the model, naive included.
 * ---------------------------------------------------------------------------------------- */
typedef void (*cls_pipe_each_fn)(const cls_pipe_estimate *e, void *user);

typedef struct cls_pipe_plan_options {
    unsigned schemes;     /* bit (1u << scheme) per allowed scheme; 0: all four */
    double device_memory; /* bytes the schemes may hold on the device (--device-memory); 0: the
                             model's global_bytes, unbounded when that is unknown too.  The
                             smaller of the two when both are set. */
    double max_buffer;    /* the largest single buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE); 0: none */
    size_t max_tiles;     /* most tiles a candidate may have; 0: 65536 */
    cls_pipe_each_fn each;/* called for every candidate evaluated (tune --exhaustive) */
    void *user;
    int buffers_kept;     /* the buffers outlive the run (a libclstencil plan keeps them for its
                             next run): candidates are ranked by pipeline_ns, the allocation being
                             paid once.  0: by total_ns, every run allocating (Visschers 2012,
                             Sect. 6.4.5) */
} cls_pipe_plan_options;

typedef struct cls_pipe_plan_result {
    cls_pipe_estimate best;  /* the fastest candidate that fits */
    cls_pipe_estimate naive; /* the naive copy-compute-copy, fitting or not */
    double speedup;          /* naive.total_ns / best.total_ns (0 when naive does not fit);
                                with buffers_kept, the ratio of their pipeline_ns */
    size_t candidates;       /* configurations evaluated */
    size_t split_dims;       /* dimensions the tiles split (1: only the slowest) */
} cls_pipe_plan_result;

/* Candidates: tiles as wide as the array in every dimension but the slowest, whose length
 * takes every value ceil(size / n) for n = 1 .. 64 and then n growing by 8 % up to max_tiles
 * (MERGED layout, EXACT padding: one transfer per tile and array, Sect. 6.2.3); when no such
 * tile fits the memory cap, the next slower dimension is split as well (powers of two), and so
 * on.  Each candidate is evaluated for the basic, scalable and buffered schemes (those
 * allowed and available); the naive run once.  The fastest that fits wins, ties going to the
 * simpler scheme (naive first) and then to fewer tiles, so a pipeline is chosen only when it
 * is predicted faster.  A grid above the cap leaves the scalable and buffered schemes.
 * CLS_ERR_PLAN_INFEASIBLE when nothing fits, with the smallest need and the cap in the last
 * error. */
cls_status cls_pipe_plan(const cls_pipe_device *d, const cls_pipe_grid *g, const cls_pipe_kernel *k,
                         const cls_pipe_plan_options *o, cls_pipe_plan_result *r);

/* "naive", "basic", "scalable", "buffered" (NULL out of range); the reverse, -1 if unknown. */
const char *cls_pipe_scheme_name(cls_pipe_scheme s);
int cls_pipe_scheme_from_name(const char *name);
/* "rows", "merged"; "in", "kernel", ... */
const char *cls_pipe_layout_name(cls_pipe_layout l);
const char *cls_pipe_stage_name(cls_pipe_stage s);

#endif /* CLS_PIPELINE_H */
