/* probe.c: measures a live OpenCL device (bandwidth, sync, transfers, banks; on CPUs the cache
 * levels and the row kernel's costs) into a model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_cost.h"
#include "devices.h"
#include "fit.h"
#include "internal.h"
#include "schedule.h"

#define PROBE_TARGET_SPREAD 0.03
#define PROBE_MAX_REPS 100      /* samples of one measurement, at most */
#define PROBE_MAX_BATCH 10000   /* operations timed together in one sample, at most */
#define PROBE_MAX_POINTS 16     /* work-group counts of the barrier fit */

/* ------------------------------------------------------------------------ the probe's state */
typedef struct probe {
    cls_context *ctx;
    cls_probe_options opt;
    int quick, is_cpu;
    cls_model *m;
    size_t done, total;           /* measurements, for the progress callback */
    double samples[PROBE_MAX_REPS];
    size_t n_samples;             /* of the last measurement */
    cl_command_queue q2;          /* device-to-host copies beside the context's queue: the
                                     queued pairs and the overlap test (Visschers 2012,
                                     Sect. 6.4.4) */
    cl_command_queue q3;          /* the third queue of the enqueue pattern (sync.enqueue) */
    cl_program prog;
    cl_kernel k_transit, k_ghost, k_empty, k_barrier, k_stride;
    /* Transfer buffers: two device buffers, two pinned host buffers (CL_MEM_ALLOC_HOST_PTR,
     * kept mapped at h1 and h2) and one pageable malloc'ed buffer. */
    size_t xfer_max;
    cl_mem d1, d2, pin1, pin2;
    void *h1, *h2, *pageable;
} probe;

/* Repetition limits of one measurement. */
typedef struct budget {
    size_t min_reps, max_reps;
    double seconds;       /* stop once this much time went into the measurement */
    double sample_s;      /* batched operations: aim at samples of this length */
} budget;

static budget budget_of(const probe *pr)
{
    if (pr->quick) return (budget){3, 9, 0.08, 0.3e-3};
    return pr->is_cpu ? (budget){5, 60, 2.0, 2e-3} : (budget){5, PROBE_MAX_REPS, 1.0, 2e-3};
}

/* ------------------------------------------------------------------------ statistics */
/* Median and spread ((p90 - p10) / median) of n samples. */
static void summarize(const double *samples, size_t n, double *median, double *spread)
{
    double sorted[PROBE_MAX_REPS];
    memcpy(sorted, samples, n * sizeof *sorted);
    cls__sort_doubles(sorted, n);
    *median = cls__quantile(sorted, n, 0.5);
    double p10 = cls__quantile(sorted, n, 0.1), p90 = cls__quantile(sorted, n, 0.9);
    *spread = *median > 0 ? (p90 - p10) / *median : 0;
}

/* Quantile q of the last measurement's samples. */
static double last_quantile(const probe *pr, double q)
{
    double sorted[PROBE_MAX_REPS];
    if (pr->n_samples == 0) return 0;
    memcpy(sorted, pr->samples, pr->n_samples * sizeof *sorted);
    cls__sort_doubles(sorted, pr->n_samples);
    return cls__quantile(sorted, pr->n_samples, q);
}

/* ------------------------------------------------------------------------ progress and results */
static cls_status step(probe *pr, const char *key, const char *label)
{
    char what[256];
    snprintf(what, sizeof what, "%s %s", key, label);
    if (pr->opt.progress && pr->opt.progress(what, pr->done, pr->total, pr->opt.user))
        return cls__fail(pr->ctx, CLS_ERR_CANCELLED, "probe of %s cancelled during %s",
                         pr->ctx->info.name, what);
    return CLS_SUCCESS;
}

static void report(probe *pr, const char *key, const char *label, const char *unit,
                   double bytes, double median, double spread, size_t reps)
{
    cls_probe_stat s = {key, label, unit, bytes, median, spread, reps, NULL};
    if (pr->opt.result) pr->opt.result(&s, pr->opt.user);
}

/* A measurement without a value, and why. */
static void report_none(probe *pr, const char *key, const char *label, double bytes,
                        const char *why)
{
    cls_probe_stat s = {key, label, "", bytes, 0, 0, 0, why};
    if (pr->opt.result) pr->opt.result(&s, pr->opt.user);
}

/* A measurement that cannot be made on this device, and why. */
static void skipped(probe *pr, const char *key, const char *label, double bytes,
                    const char *why)
{
    pr->done++;
    report_none(pr, key, label, bytes, why);
}

/* One sample of a measurement: a value in the measurement's unit. */
typedef cls_status (*sample_fn)(probe *pr, void *arg, double *value);

/* Repeats fn until the spread is below the target, or the repetition or time cap is reached,
 * then reports median and spread (Mo & Li, Sect. 6.1: "t ... can be obtained by n executions"). */
static cls_status measure(probe *pr, const char *key, const char *label, const char *unit,
                          double bytes, sample_fn fn, void *arg, double *median,
                          double *spread)
{
    const budget b = budget_of(pr);
    const double start = cls__now();
    size_t n = 0;
    cls_status st;
    *median = *spread = 0;
    while (n < b.max_reps) {
        if ((st = fn(pr, arg, &pr->samples[n])) != CLS_SUCCESS) return st;
        n++;
        if (n >= b.min_reps) {
            summarize(pr->samples, n, median, spread);
            if (*spread <= pr->opt.target_spread) break;
        }
        if (n >= 3 && cls__now() - start >= b.seconds) break;
    }
    summarize(pr->samples, n, median, spread);
    pr->n_samples = n;
    pr->done++;
    report(pr, key, label, unit, bytes, *median, *spread, n);
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------------ batched operations */
/* One operation (a transfer, an allocation, a launch); complete when it returns, or when the
 * queue is finished if the batch asks for it. */
typedef cls_status (*op_fn)(probe *pr, void *arg);

typedef struct batch {
    op_fn op;
    void *arg;
    size_t k;    /* operations per sample */
    int finish;  /* clFinish after the k operations, inside the timed region */
} batch;

static cls_status finish(probe *pr, const char *what)
{
    cl_int err = clFinish(pr->ctx->queue);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "clFinish after %s failed on %s", what,
                         pr->ctx->info.name);
    return CLS_SUCCESS;
}

/* Nanoseconds per operation over one batch. */
static cls_status sample_batch(probe *pr, void *arg, double *value)
{
    batch *b = arg;
    cls_status st;
    double t0 = cls__now();
    for (size_t i = 0; i < b->k; i++)
        if ((st = b->op(pr, b->arg)) != CLS_SUCCESS) return st;
    if (b->finish && (st = finish(pr, "a batch of operations")) != CLS_SUCCESS) return st;
    *value = (cls__now() - t0) * 1e9 / (double)b->k;
    return CLS_SUCCESS;
}

/* Times a batched operation: one warm-up, one calibration (how many operations make a sample
 * of budget.sample_s), then measure().  Results in nanoseconds per operation. */
static cls_status measure_op(probe *pr, const char *key, const char *label, double bytes,
                             op_fn op, void *arg, int fin, double *median, double *spread)
{
    batch b = {op, arg, 1, fin};
    double once = 0;
    cls_status st = sample_batch(pr, &b, &once); /* warm-up: first-touch and lazy costs */
    if (st != CLS_SUCCESS) return st;
    if ((st = sample_batch(pr, &b, &once)) != CLS_SUCCESS) return st;
    {
        double want = budget_of(pr).sample_s * 1e9 / (once > 1 ? once : 1);
        b.k = want < 1 ? 1 : want > PROBE_MAX_BATCH ? PROBE_MAX_BATCH : (size_t)want;
    }
    return measure(pr, key, label, "ns", bytes, sample_batch, &b, median, spread);
}

/* ------------------------------------------------------------------------ kernels */
static cls_status set_arg(probe *pr, cl_kernel k, cl_uint i, size_t size, const void *v,
                          const char *kname)
{
    cl_int err = clSetKernelArg(k, i, size, v);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "clSetKernelArg(%s, %u) failed", kname, i);
    return CLS_SUCCESS;
}

/* Runs one kernel and returns its device time in seconds (profiling events). */
static cls_status run_timed(probe *pr, cl_kernel k, cl_uint dims, const size_t *global,
                            const size_t *local, const char *kname, double *seconds)
{
    cl_event ev = NULL;
    cl_ulong t0 = 0, t1 = 0;
    cls_status st = CLS_SUCCESS;
    cl_int err = clEnqueueNDRangeKernel(pr->ctx->queue, k, dims, NULL, global, local, 0, NULL,
                                        &ev);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "clEnqueueNDRangeKernel(%s) failed on %s",
                         kname, pr->ctx->info.name);
    CLS__CHECK_CL(pr->ctx, st, clWaitForEvents(1, &ev), "waiting for a probe kernel failed");
    CLS__CHECK_CL(pr->ctx, st,
                  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL),
                  "clGetEventProfilingInfo(CL_PROFILING_COMMAND_START) failed");
    CLS__CHECK_CL(pr->ctx, st,
                  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL),
                  "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END) failed");
    *seconds = t1 > t0 ? (double)(t1 - t0) * 1e-9 : 1e-9;
fail:
    clReleaseEvent(ev);
    return st;
}

static cls_status create_kernel(probe *pr, const char *name, cl_kernel *k)
{
    cl_int err = CL_SUCCESS;
    *k = clCreateKernel(pr->prog, name, &err);
    if (err != CL_SUCCESS || !*k)
        return cls__fail(pr->ctx, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                         "clCreateKernel(%s) failed (cl/probe.cl)", name);
    return CLS_SUCCESS;
}

static cls_status build(probe *pr)
{
    int owned = 0;
    const char *src = cls__kernel_source("probe.cl", &owned);
    cls_status st;
    if (!src) {
        char *why = cls__strdup(cls_last_error());
        st = cls__fail(pr->ctx, CLS_ERR_IO, "%s", why ? why : "cannot load probe.cl");
        free(why);
        return st;
    }
    /* CPUs: whole work-groups step through cube_transit's planes (cl/probe.cl). */
    st = cls__program_get(pr->ctx, src, pr->is_cpu ? "-D CLS_PLANE_BARRIER" : "", &pr->prog,
                          NULL);
    if (owned) free((void *)src);
    if (st != CLS_SUCCESS) return st;
    if ((st = create_kernel(pr, "cls_cube_transit", &pr->k_transit)) != CLS_SUCCESS ||
        (st = create_kernel(pr, "cls_cube_ghost_transit", &pr->k_ghost)) != CLS_SUCCESS ||
        (st = create_kernel(pr, "cls_empty", &pr->k_empty)) != CLS_SUCCESS ||
        (st = create_kernel(pr, "cls_global_barrier", &pr->k_barrier)) != CLS_SUCCESS ||
        (st = create_kernel(pr, "cls_local_stride", &pr->k_stride)) != CLS_SUCCESS)
        return st;
    return CLS_SUCCESS;
}

static cls_status new_buffer(probe *pr, cl_mem_flags flags, size_t bytes, const char *what,
                             cl_mem *buf)
{
    cl_int err = CL_SUCCESS;
    *buf = clCreateBuffer(pr->ctx->cl, flags, bytes, NULL, &err);
    if (err != CL_SUCCESS || !*buf)
        return cls__fail(pr->ctx, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                         "clCreateBuffer of %zu bytes (%s) failed on %s", bytes, what,
                         pr->ctx->info.name);
    return CLS_SUCCESS;
}

/* Fills a buffer with 1.0f so that its pages exist before anything is timed. */
static cls_status touch(probe *pr, cl_mem buf, size_t bytes)
{
    const float one = 1.0f;
    cl_int err = clEnqueueFillBuffer(pr->ctx->queue, buf, &one, sizeof one, 0,
                                     bytes / sizeof one * sizeof one, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "clEnqueueFillBuffer of %zu bytes failed",
                         bytes);
    return finish(pr, "filling a buffer");
}

/* ------------------------------------------------------------------------ launch and restart */
typedef struct launch {
    size_t global, local; /* local 0: the driver chooses */
} launch;

static cls_status op_launch(probe *pr, void *arg)
{
    const launch *l = arg;
    cl_int err = clEnqueueNDRangeKernel(pr->ctx->queue, pr->k_empty, 1, NULL, &l->global,
                                        l->local ? &l->local : NULL, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err,
                         "clEnqueueNDRangeKernel(cls_empty, %zu work-items) failed on %s",
                         l->global, pr->ctx->info.name);
    return CLS_SUCCESS;
}

static cls_status op_launch_wait(probe *pr, void *arg)
{
    cls_status st = op_launch(pr, arg);
    return st == CLS_SUCCESS ? finish(pr, "an empty kernel") : st;
}

/* Meng & Skadron 2010, Sect. 4.4 (Eq. 17) times "restarting a kernel function with 240 empty thread
 * blocks", the GTX 280's concurrent blocks (30 SMs x 8).  Here: compute units x 8 empty work-groups
 * of 64 work-items on GPUs, one single-item work-group per compute unit on CPUs, launched back to
 * back (the restart cost per launch) and one at a time with a wait (the launch latency). */
static cls_status probe_launch(probe *pr)
{
    const cls_device_info *d = &pr->ctx->info;
    size_t groups = pr->is_cpu ? d->compute_units : (size_t)d->compute_units * 8;
    size_t local = pr->is_cpu ? 1 : 64;
    launch l;
    double med, spr, ns;
    char label[64];
    cls_status st;
    cl_mem none = NULL;

    if (local > d->max_work_group_size) local = d->max_work_group_size;
    if (groups < 1) groups = 1;
    l.local = local;
    l.global = groups * local;
    if ((st = set_arg(pr, pr->k_empty, 0, sizeof none, &none, "cls_empty")) != CLS_SUCCESS)
        return st;
    snprintf(label, sizeof label, "%zu groups of %zu", groups, local);

    if ((st = step(pr, "launch.latency", label)) != CLS_SUCCESS ||
        (st = measure_op(pr, "launch.latency", label, 0, op_launch_wait, &l, 0, &med, &spr)) !=
            CLS_SUCCESS)
        return st;
    if ((st = step(pr, "sync.kernel_restart", label)) != CLS_SUCCESS ||
        (st = measure_op(pr, "sync.kernel_restart", label, 0, op_launch, &l, 1, &ns, &spr)) !=
            CLS_SUCCESS)
        return st;
    /* Cycles of the model's clock, as Meng & Skadron's 3350. */
    return cls_model_set(pr->m, "sync.kernel_restart_cycles", ns * pr->m->p.clock_mhz / 1e3);
}

/* A pipeline's commands wait for events of the other queues (lib/schedules/pipeline/exec.c: a
 * tile's read waits for its kernels, its kernels for its write): how much later does a command
 * start when another queue's event releases it than when it follows on its own queue?  A sample
 * runs QUEUE_CHAIN commands alternating between an empty kernel on the context's queue and a
 * 64-byte read on the second queue, each waiting for the one before, then the same commands back to
 * back on the context's queue without events; (t_chain - t_one) / QUEUE_CHAIN.  The released
 * command is a read because that is the hop the executor's reads make from their kernels: on the
 * H100 it waits 3.6-3.8 us, where chaining kernels alone measured 7.5-8.9 us (doc/pipeline.md). */
#define QUEUE_CHAIN 32

static cl_int chain_command(probe *pr, cl_command_queue q, size_t i, const launch *l,
                            cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    size_t bytes = pr->xfer_max < 64 ? pr->xfer_max : 64;
    if (i % 2 == 0)
        return clEnqueueNDRangeKernel(q, pr->k_empty, 1, NULL, &l->global,
                                      l->local ? &l->local : NULL, nwait, wait, ev);
    return clEnqueueReadBuffer(q, pr->d2, CL_FALSE, 0, bytes, pr->h2, nwait, wait, ev);
}

static cls_status sample_queue_wait(probe *pr, void *arg, double *ns)
{
    const launch *l = arg;
    cl_command_queue q[2] = {pr->ctx->queue, pr->q2};
    cl_event ev[QUEUE_CHAIN];
    size_t made = 0;
    double t0 = cls__now(), t1 = 0, t2 = 0;
    cl_int err = CL_SUCCESS;
    for (; made < QUEUE_CHAIN && err == CL_SUCCESS; made++) {
        ev[made] = NULL;
        err = chain_command(pr, q[made % 2], made, l, made ? 1 : 0, made ? &ev[made - 1] : NULL,
                            &ev[made]);
    }
    if (err == CL_SUCCESS) err = clFlush(q[0]);
    if (err == CL_SUCCESS) err = clFlush(q[1]);
    if (err == CL_SUCCESS) err = clFinish(q[0]);
    if (err == CL_SUCCESS) err = clFinish(q[1]);
    t1 = cls__now();
    for (size_t i = 0; i < made; i++)
        if (ev[i]) clReleaseEvent(ev[i]);
    for (size_t i = 0; i < QUEUE_CHAIN && err == CL_SUCCESS; i++)
        err = chain_command(pr, q[0], i, l, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(q[0]);
    t2 = cls__now();
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err,
                         "a chain of %d kernels and reads across two queues failed on %s",
                         QUEUE_CHAIN, pr->ctx->info.name);
    *ns = ((t1 - t0) - (t2 - t1)) * 1e9 / QUEUE_CHAIN;
    if (*ns < 0) *ns = 0; /* no measurable delay */
    return CLS_SUCCESS;
}

static cls_status probe_queue_wait(probe *pr)
{
    const cls_device_info *d = &pr->ctx->info;
    launch l = {pr->is_cpu ? 1 : 64, pr->is_cpu ? 1 : 64};
    double med = 0, spr = 0, warm = 0;
    char label[64];
    cls_status st;
    cl_mem none = NULL;
    if (l.local > d->max_work_group_size) l.local = l.global = d->max_work_group_size;
    if ((st = set_arg(pr, pr->k_empty, 0, sizeof none, &none, "cls_empty")) != CLS_SUCCESS)
        return st;
    snprintf(label, sizeof label, "%d kernels and reads, two queues against one", QUEUE_CHAIN);
    if ((st = step(pr, "sync.queue_wait", label)) != CLS_SUCCESS ||
        (st = sample_queue_wait(pr, &l, &warm)) != CLS_SUCCESS ||
        (st = measure(pr, "sync.queue_wait", label, "ns", 0, sample_queue_wait, &l, &med,
                      &spr)) != CLS_SUCCESS)
        return st;
    return cls_model_set(pr->m, "sync.queue_wait_cycles", med * pr->m->p.clock_mhz / 1e3);
}

/* The host's own cost of a pipeline's commands (lib/schedules/pipeline/exec.c enqueues every
 * tile's write, kernels and read ahead of the device, each with an event, on three in-order
 * profiling queues, and flushes the three once per pipeline step).  At many small tiles the host,
 * not the device, sets the pace: an H100 trace measured 16-18 us between consecutive enqueues
 * (doc/pipeline.md).  A sample enqueues ENQUEUE_TILES tiles of the executor's pattern:
 * a 64-byte write from pinned memory waiting for the previous tile's read, an empty kernel
 * waiting for the write, a read waiting for the kernel, on three queues, each with its event;
 * the host time of the enqueue calls alone per command (sync.enqueue), or with the three queues
 * flushed after each tile, less the commands, per flush (sync.flush).  A kernel without an
 * event (the executor's steps between a tile's first and last) costs less: 5-7 us against
 * 13-15 on the H100 (doc/pipeline.md): 96 such launches back to back (sync.enqueue_plain). */
#define ENQUEUE_TILES 32

typedef struct enqueue_pattern {
    launch l;
    int flush;        /* flush the three queues after each tile */
    int plain;        /* kernels alone, back to back, without events */
    double per_cmd;   /* with flush: the enqueue cost per command measured without */
} enqueue_pattern;

static cls_status sample_enqueue(probe *pr, void *arg, double *ns)
{
    const enqueue_pattern *x = arg;
    cl_command_queue q[3] = {pr->ctx->queue, pr->q2, pr->q3};
    cl_event ev[3 * ENQUEUE_TILES];
    size_t bytes = pr->xfer_max < 64 ? pr->xfer_max : 64;
    cl_int err = CL_SUCCESS;
    memset(ev, 0, sizeof ev);
    double t0 = cls__now();
    for (size_t i = 0; x->plain && i < 3 * ENQUEUE_TILES && err == CL_SUCCESS; i++)
        err = clEnqueueNDRangeKernel(q[1], pr->k_empty, 1, NULL, &x->l.global,
                                     x->l.local ? &x->l.local : NULL, 0, NULL, NULL);
    for (size_t i = 0; !x->plain && i < ENQUEUE_TILES && err == CL_SUCCESS; i++) {
        cl_event *w = &ev[3 * i];
        err = clEnqueueWriteBuffer(q[0], pr->d1, CL_FALSE, 0, bytes, pr->h1, i ? 1 : 0,
                                   i ? w - 1 : NULL, w);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(q[1], pr->k_empty, 1, NULL, &x->l.global,
                                         x->l.local ? &x->l.local : NULL, 1, w, w + 1);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(q[2], pr->d1, CL_FALSE, 0, bytes, pr->h2, 1, w + 1, w + 2);
        for (int j = 0; x->flush && j < 3 && err == CL_SUCCESS; j++) err = clFlush(q[j]);
    }
    double t1 = cls__now();
    for (int j = 0; j < 3 && err == CL_SUCCESS; j++) err = clFinish(q[j]);
    for (size_t i = 0; i < 3 * ENQUEUE_TILES; i++)
        if (ev[i]) clReleaseEvent(ev[i]);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err,
                         "enqueueing %d tiles of write, kernel and read on three queues failed "
                         "on %s", ENQUEUE_TILES, pr->ctx->info.name);
    double per = (t1 - t0) * 1e9 / (3.0 * ENQUEUE_TILES);
    *ns = x->flush ? per - x->per_cmd : per; /* three commands and three flushes per tile */
    if (*ns < 0) *ns = 0;
    return CLS_SUCCESS;
}

static cls_status probe_enqueue(probe *pr)
{
    const cls_device_info *d = &pr->ctx->info;
    enqueue_pattern x = {{pr->is_cpu ? 1 : 64, pr->is_cpu ? 1 : 64}, 0, 0, 0};
    double med = 0, spr = 0, warm = 0, flush = 0, plain = 0;
    char label[80];
    cls_status st;
    cl_mem none = NULL;
    if (x.l.local > d->max_work_group_size) x.l.local = x.l.global = d->max_work_group_size;
    if ((st = set_arg(pr, pr->k_empty, 0, sizeof none, &none, "cls_empty")) != CLS_SUCCESS)
        return st;
    snprintf(label, sizeof label, "%d x (write, kernel, read), three queues, events",
             ENQUEUE_TILES);
    if ((st = step(pr, "sync.enqueue", label)) != CLS_SUCCESS ||
        (st = sample_enqueue(pr, &x, &warm)) != CLS_SUCCESS ||
        (st = measure(pr, "sync.enqueue", label, "ns", 0, sample_enqueue, &x, &med, &spr)) !=
            CLS_SUCCESS)
        return st;
    x.flush = 1;
    x.per_cmd = med;
    snprintf(label, sizeof label, "the same, three queues flushed per tile");
    if ((st = step(pr, "sync.flush", label)) != CLS_SUCCESS ||
        (st = measure(pr, "sync.flush", label, "ns", 0, sample_enqueue, &x, &flush, &spr)) !=
            CLS_SUCCESS)
        return st;
    x.flush = 0;
    x.plain = 1;
    snprintf(label, sizeof label, "%d kernels without events, one queue", 3 * ENQUEUE_TILES);
    if ((st = step(pr, "sync.enqueue_plain", label)) != CLS_SUCCESS ||
        (st = measure(pr, "sync.enqueue_plain", label, "ns", 0, sample_enqueue, &x, &plain,
                      &spr)) != CLS_SUCCESS)
        return st;
    double mhz = pr->m->p.clock_mhz;
    if ((st = cls_model_set(pr->m, "sync.enqueue_cycles", med * mhz / 1e3)) != CLS_SUCCESS ||
        (st = cls_model_set(pr->m, "sync.enqueue_plain_cycles", plain * mhz / 1e3)) !=
            CLS_SUCCESS)
        return st;
    return cls_model_set(pr->m, "sync.flush_cycles", flush * mhz / 1e3);
}

/* ------------------------------------------------------------------------ cube transits */
typedef struct cube {
    cl_kernel k;
    const char *kname;
    size_t global[2], local[2];
    int use_local;
    double points, bytes_per_point;
} cube;

static cls_status sample_cube(probe *pr, void *arg, double *gbs)
{
    cube *c = arg;
    double s = 0;
    cls_status st = run_timed(pr, c->k, 2, c->global, c->use_local ? c->local : NULL, c->kname,
                              &s);
    /* Mo & Li, Eq. 3, with 10^9 bytes per GB as everywhere in the models (doc/devices.md). */
    *gbs = c->points * c->bytes_per_point / s / 1e9;
    return st;
}

/* Mo & Li, Sect. 6.1 and 6.2: cube_transit (8 bytes per point) and cube_ghost_transit (12 bytes per
 * point) over cubes of 192^3, 256^3 and 512^3 floats (the sizes of Table 2) where they fit.
 * The model keeps the highest of the sizes' medians: the sustained rate of the device. */
static cls_status probe_cubes(probe *pr, const size_t *sizes, size_t nsizes)
{
    const cls_device_info *d = &pr->ctx->info;
    double best_transit = 0, best_ghost = 0;
    cls_status st = CLS_SUCCESS;
    cl_mem in = NULL, out = NULL;

    for (size_t si = 0; si < nsizes; si++) {
        const size_t n = sizes[si];
        /* Listing 5 needs ny a multiple of its 6-row tile (Sect. 6: "grid size nx and ny is
         * multiples of the thread block size"); pad >= nx + 8 keeps the ghost reads inside. */
        const size_t ny_ghost = n - n % 6;
        const size_t pad = (n + 8 + 31) / 32 * 32;
        const size_t bytes = n * n * n * sizeof(float);
        const size_t in_bytes = bytes + 2 * pad * sizeof(float);
        const cl_int nx = (cl_int)n, ny = (cl_int)n, nz = (cl_int)n, pad_arg = (cl_int)pad;
        cl_int ny_g = (cl_int)ny_ghost;
        char label[32];
        cube c;
        double med, spr;

        snprintf(label, sizeof label, "%zu^3", n);
        if (in_bytes > d->max_alloc_bytes || 2 * in_bytes > d->global_mem_bytes / 2) {
            skipped(pr, "memory.cube_transit", label, (double)bytes,
                    "the cube is larger than the device allows");
            skipped(pr, "memory.cube_ghost_transit", label, (double)bytes,
                    "the cube is larger than the device allows");
            continue;
        }
        if ((st = new_buffer(pr, CL_MEM_READ_ONLY, in_bytes, "cube source", &in)) != CLS_SUCCESS ||
            (st = new_buffer(pr, CL_MEM_WRITE_ONLY, bytes, "cube target", &out)) != CLS_SUCCESS ||
            (st = touch(pr, in, in_bytes)) != CLS_SUCCESS ||
            (st = touch(pr, out, bytes)) != CLS_SUCCESS)
            goto fail;

        /* cube_transit: an nx x ny NDRange; 32x8 work-groups on GPUs, whole rows (nx x 1) on
         * CPUs, where a work-group walks the planes together (CLS_PLANE_BARRIER). */
        c = (cube){pr->k_transit, "cls_cube_transit", {n, n}, {32, 8}, 1,
                   (double)n * (double)n * (double)n, 8.0};
        if (pr->is_cpu) {
            c.local[0] = n;
            c.local[1] = 1;
        }
        if (c.local[0] * c.local[1] > d->max_work_group_size || n % c.local[0] ||
            n % c.local[1])
            c.use_local = 0;
        if ((st = set_arg(pr, c.k, 0, sizeof in, &in, c.kname)) != CLS_SUCCESS ||
            (st = set_arg(pr, c.k, 1, sizeof out, &out, c.kname)) != CLS_SUCCESS ||
            (st = set_arg(pr, c.k, 2, sizeof nx, &nx, c.kname)) != CLS_SUCCESS ||
            (st = set_arg(pr, c.k, 3, sizeof ny, &ny, c.kname)) != CLS_SUCCESS ||
            (st = set_arg(pr, c.k, 4, sizeof nz, &nz, c.kname)) != CLS_SUCCESS)
            goto fail;
        if ((st = step(pr, "memory.cube_transit", label)) != CLS_SUCCESS ||
            (st = sample_cube(pr, &c, &med)) != CLS_SUCCESS || /* warm-up */
            (st = measure(pr, "memory.cube_transit", label, "GB/s", (double)bytes, sample_cube,
                          &c, &med, &spr)) != CLS_SUCCESS)
            goto fail;
        if (med > best_transit) best_transit = med;

        /* cube_ghost_transit: 32x6 work-groups (its reqd_work_group_size), nx x ny' points. */
        if (d->max_work_group_size < 32 * 6 || n % 32 || ny_ghost == 0) {
            skipped(pr, "memory.cube_ghost_transit", label, (double)bytes,
                    "needs 32x6 work-groups and nx a multiple of 32");
        } else {
            c = (cube){pr->k_ghost, "cls_cube_ghost_transit", {n, ny_ghost}, {32, 6}, 1,
                       (double)n * (double)ny_ghost * (double)n, 12.0};
            if ((st = set_arg(pr, c.k, 0, sizeof in, &in, c.kname)) != CLS_SUCCESS ||
                (st = set_arg(pr, c.k, 1, sizeof out, &out, c.kname)) != CLS_SUCCESS ||
                (st = set_arg(pr, c.k, 2, sizeof nx, &nx, c.kname)) != CLS_SUCCESS ||
                (st = set_arg(pr, c.k, 3, sizeof ny_g, &ny_g, c.kname)) != CLS_SUCCESS ||
                (st = set_arg(pr, c.k, 4, sizeof nz, &nz, c.kname)) != CLS_SUCCESS ||
                (st = set_arg(pr, c.k, 5, sizeof pad_arg, &pad_arg, c.kname)) != CLS_SUCCESS)
                goto fail;
            if ((st = step(pr, "memory.cube_ghost_transit", label)) != CLS_SUCCESS ||
                (st = sample_cube(pr, &c, &med)) != CLS_SUCCESS ||
                (st = measure(pr, "memory.cube_ghost_transit", label, "GB/s", (double)bytes,
                              sample_cube, &c, &med, &spr)) != CLS_SUCCESS)
                goto fail;
            if (med > best_ghost) best_ghost = med;
        }
        clReleaseMemObject(in);
        clReleaseMemObject(out);
        in = out = NULL;
    }
    if (best_transit > 0 &&
        (st = cls_model_set(pr->m, "memory.bandwidth_measured_gbs", best_transit)) != CLS_SUCCESS)
        goto fail;
    if (best_ghost > 0 &&
        (st = cls_model_set(pr->m, "memory.bandwidth_ghost_gbs", best_ghost)) != CLS_SUCCESS)
        goto fail;
    /* The peak is not measurable; an assumed peak below a measured rate is raised to it (and
     * stays assumed), so the model never claims less than the device was seen to do. */
    if (pr->m->assumed[CLS__F_bandwidth_peak_gbs] &&
        pr->m->p.bandwidth_peak_gbs < (best_transit > best_ghost ? best_transit : best_ghost))
        pr->m->p.bandwidth_peak_gbs = best_transit > best_ghost ? best_transit : best_ghost;
fail:
    if (in) clReleaseMemObject(in);
    if (out) clReleaseMemObject(out);
    return st;
}

/* ------------------------------------------------------------------------ global barrier */
typedef struct barrier_run {
    cl_mem counters, abort_flag;
    cl_int groups, stages, spin_limit;
    size_t local;
    int aborted;   /* set when the kernel gave up waiting */
} barrier_run;

/* One launch of groups x local work-items doing `stages` barriers: nanoseconds per barrier. */
static cls_status sample_barrier(probe *pr, void *arg, double *ns)
{
    barrier_run *b = arg;
    const cl_int zero = 0;
    cl_int flag = 0, err;
    size_t global = (size_t)b->groups * b->local;
    double s = 0;
    cls_status st;
    err = clEnqueueFillBuffer(pr->ctx->queue, b->counters, &zero, sizeof zero, 0,
                              (size_t)b->stages * sizeof zero, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(pr->ctx->queue, b->abort_flag, &zero, sizeof zero, 0,
                                  sizeof zero, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "clearing the barrier counters failed");
    if ((st = set_arg(pr, pr->k_barrier, 2, sizeof b->groups, &b->groups,
                      "cls_global_barrier")) != CLS_SUCCESS ||
        (st = run_timed(pr, pr->k_barrier, 1, &global, &b->local, "cls_global_barrier", &s)) !=
            CLS_SUCCESS)
        return st;
    err = clEnqueueReadBuffer(pr->ctx->queue, b->abort_flag, CL_TRUE, 0, sizeof flag, &flag, 0,
                              NULL, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "reading the barrier's abort flag failed");
    if (flag) {
        b->aborted = 1;
        /* Not an error of the device: this runtime did not keep the groups co-resident. */
        return CLS_ERR_UNSUPPORTED;
    }
    *ns = s * 1e9 / b->stages;
    return CLS_SUCCESS;
}

/* Work-group counts of the fit: 1, 2, 4, ... up to the compute units, the last one included. */
static size_t barrier_points(const probe *pr, cl_int *t)
{
    const cl_int cus = (cl_int)pr->ctx->info.compute_units;
    size_t n = 0;
    for (cl_int g = 1; g < cus && n + 1 < PROBE_MAX_POINTS; g *= 2) t[n++] = g;
    if (!pr->quick && cus > 8) { /* a denser tail on large devices: 3/4 of the units */
        cl_int g = cus * 3 / 4;
        if (n > 0 && g > t[n - 1] && n + 1 < PROBE_MAX_POINTS) t[n++] = g;
    }
    t[n++] = cus > 0 ? cus : 1;
    return n;
}

/* Meng & Skadron 2010, Sect. 4.5: "measuring the execution time of a kernel function that
 * performs nothing but global synchronization with memory fences, and by varying the number of
 * thread blocks, we obtain the empirical function using linear curve fitting:
 * GlbSync_MemFence = 210.3 x T + delta".  At most one work-group per compute unit is launched, so
 * all are co-resident and the spinning cannot deadlock; a runtime that still serialises them
 * trips the kernel's bounded spin. */
static cls_status probe_barrier(probe *pr)
{
    const cls_device_info *d = &pr->ctx->info;
    cl_int t[PROBE_MAX_POINTS];
    double xs[PROBE_MAX_POINTS], ys[PROBE_MAX_POINTS];
    size_t npts = barrier_points(pr, t), nfit = 0;
    barrier_run b = {NULL, NULL, 0, 0, 0, 0, 0};
    cls_status st = CLS_SUCCESS;
    char label[64];

    b.stages = pr->quick ? (pr->is_cpu ? 10 : 50) : (pr->is_cpu ? 50 : 200);
    /* Polls before giving up: seconds on either kind of device, far beyond a real barrier. */
    b.spin_limit = pr->is_cpu ? (1 << 24) : (1 << 22);
    b.local = pr->is_cpu ? 1 : 64;
    if (b.local > d->max_work_group_size) b.local = d->max_work_group_size;
    if ((st = new_buffer(pr, CL_MEM_READ_WRITE, (size_t)b.stages * sizeof(cl_int),
                         "barrier counters", &b.counters)) != CLS_SUCCESS ||
        (st = new_buffer(pr, CL_MEM_READ_WRITE, sizeof(cl_int), "barrier abort flag",
                         &b.abort_flag)) != CLS_SUCCESS)
        goto fail;
    if ((st = set_arg(pr, pr->k_barrier, 0, sizeof b.counters, &b.counters,
                      "cls_global_barrier")) != CLS_SUCCESS ||
        (st = set_arg(pr, pr->k_barrier, 1, sizeof b.abort_flag, &b.abort_flag,
                      "cls_global_barrier")) != CLS_SUCCESS ||
        (st = set_arg(pr, pr->k_barrier, 3, sizeof b.stages, &b.stages,
                      "cls_global_barrier")) != CLS_SUCCESS ||
        (st = set_arg(pr, pr->k_barrier, 4, sizeof b.spin_limit, &b.spin_limit,
                      "cls_global_barrier")) != CLS_SUCCESS)
        goto fail;

    for (size_t i = 0; i < npts; i++) {
        double med = 0, spr = 0, warm = 0;
        b.groups = t[i];
        b.aborted = 0;
        snprintf(label, sizeof label, "%d group%s", (int)t[i], t[i] == 1 ? "" : "s");
        if ((st = step(pr, "sync.global_barrier", label)) != CLS_SUCCESS) goto fail;
        /* A warm-up, retried once: a thread of a loaded host may miss one barrier. */
        st = sample_barrier(pr, &b, &warm);
        if (st == CLS_ERR_UNSUPPORTED) st = sample_barrier(pr, &b, &warm);
        if (st == CLS_SUCCESS) st = measure(pr, "sync.global_barrier", label, "ns", 0,
                                            sample_barrier, &b, &med, &spr);
        if (st == CLS_ERR_UNSUPPORTED && b.aborted) {
            /* More groups cannot do better: keep the points measured so far. */
            skipped(pr, "sync.global_barrier", label, 0,
                    "the work-groups were not co-resident (the bounded spin gave up)");
            pr->done += npts - i - 1;
            st = CLS_SUCCESS;
            break;
        }
        if (st != CLS_SUCCESS) goto fail;
        xs[nfit] = (double)t[i];
        ys[nfit++] = med;
    }
    if (nfit >= 2) {
        double a, slope, se;
        cls__fit_line(xs, ys, nfit, &a, &slope, &se, NULL);
        snprintf(label, sizeof label, "fit over %zu group counts", nfit);
        report(pr, "sync.barrier_fit_slope", label, "ns/group", 0, slope,
               slope != 0 ? 2 * se / fabs(slope) : 0, nfit);
        report(pr, "sync.barrier_fit_intercept", label, "ns", 0, a, 0, nfit);
        /* A flat or noisy line on a small device can come out slightly negative: no cost. */
        st = cls_model_set(pr->m, "sync.barrier_cycles_per_group",
                           (slope > 0 ? slope : 0) * pr->m->p.clock_mhz / 1e3);
    }
fail:
    if (b.counters) clReleaseMemObject(b.counters);
    if (b.abort_flag) clReleaseMemObject(b.abort_flag);
    return st;
}

/* ------------------------------------------------------------------------ local-memory banks */
typedef struct stride_run {
    cl_int stride, iters;
    size_t global, local;
    double base; /* stride 1's median time, seconds */
} stride_run;

static cls_status sample_stride(probe *pr, void *arg, double *ratio)
{
    stride_run *r = arg;
    double s = 0;
    cls_status st;
    if ((st = set_arg(pr, pr->k_stride, 1, sizeof r->stride, &r->stride, "cls_local_stride")) !=
            CLS_SUCCESS ||
        (st = run_timed(pr, pr->k_stride, 1, &r->global, &r->local, "cls_local_stride", &s)) !=
            CLS_SUCCESS)
        return st;
    *ratio = r->base > 0 ? s / r->base : s;
    return CLS_SUCCESS;
}

/* Kim & Shrivastava, Sect. 5.5: "When threads in a half warp access K different addresses within
 * one bank, the accesses are serialized K times."  Reading local memory at power-of-two strides
 * slows down about twice per doubling until the stride reaches the number of banks, then stays; an
 * odd stride is conflict-free (the padding of Kim & Shrivastava, Sect. 3.2).  Only devices with
 * their own local memory are judged; emulated local memory (CPUs) has no banks. */
static cls_status probe_banks(probe *pr, const cl_int *strides, size_t nstrides)
{
    const cls_device_info *d = &pr->ctx->info;
    stride_run r;
    double slow[16] = {0};
    cl_mem out = NULL;
    cls_status st = CLS_SUCCESS;
    char label[32];

    r.local = d->max_work_group_size >= 256 ? 256 : d->max_work_group_size / 32 * 32;
    r.global = r.local * d->compute_units * (pr->is_cpu ? 2 : 8);
    r.iters = pr->quick ? (pr->is_cpu ? 64 : 1024) : (pr->is_cpu ? 256 : 4096);
    r.base = 0;
    if (r.local < 32 || d->local_mem_bytes < 4096 * sizeof(float)) {
        for (size_t i = 0; i < nstrides; i++) {
            snprintf(label, sizeof label, "stride %d", (int)strides[i]);
            skipped(pr, "local_memory.stride", label, 0,
                    "needs 16 KiB of local memory and 32-item work-groups");
        }
        return CLS_SUCCESS;
    }
    if ((st = new_buffer(pr, CL_MEM_WRITE_ONLY, r.global * sizeof(float), "stride output",
                         &out)) != CLS_SUCCESS ||
        (st = set_arg(pr, pr->k_stride, 0, sizeof out, &out, "cls_local_stride")) !=
            CLS_SUCCESS ||
        (st = set_arg(pr, pr->k_stride, 2, sizeof r.iters, &r.iters, "cls_local_stride")) !=
            CLS_SUCCESS)
        goto fail;
    for (size_t i = 0; i < nstrides && i < 16; i++) {
        double med = 0, spr = 0, warm = 0;
        r.stride = strides[i];
        snprintf(label, sizeof label, "stride %d", (int)strides[i]);
        if ((st = step(pr, "local_memory.stride", label)) != CLS_SUCCESS) goto fail;
        if (i == 0) { /* stride 1, the reference: its median time in seconds */
            r.base = 0;
            if ((st = sample_stride(pr, &r, &warm)) != CLS_SUCCESS) goto fail;
            for (size_t k = 0; k < 5; k++)
                if ((st = sample_stride(pr, &r, &pr->samples[k])) != CLS_SUCCESS) goto fail;
            summarize(pr->samples, 5, &r.base, &spr);
        } else if ((st = sample_stride(pr, &r, &warm)) != CLS_SUCCESS) {
            goto fail;
        }
        if ((st = measure(pr, "local_memory.stride", label, "x stride 1", 0, sample_stride, &r,
                          &med, &spr)) != CLS_SUCCESS)
            goto fail;
        slow[i] = med;
    }
    /* Banks: strides are 1, 2, 4, ... (powers of two first).  Conflicts are visible when
     * stride 2 is clearly slower than stride 1; the bank count is the stride after which
     * doubling stops slowing the access down. */
    if (!d->local_mem_is_global && !pr->is_cpu && nstrides >= 3 && strides[1] == 2 &&
        slow[1] > 1.5) {
        cl_int banks = 0;
        for (size_t i = 1; i + 1 < nstrides && strides[i + 1] == 2 * strides[i]; i++) {
            if (slow[i + 1] < 1.3 * slow[i]) {
                banks = strides[i];
                break;
            }
        }
        if (banks > 0) {
            report(pr, "local_memory.banks", "from the stride sweep", "count", 0, banks, 0,
                   nstrides);
            st = cls_model_set(pr->m, "local_memory.banks", banks);
        }
    }
fail:
    if (out) clReleaseMemObject(out);
    return st;
}

/* ------------------------------------------------------------------------ transfers */
typedef struct xfer {
    cls_model_table table;
    size_t bytes;
} xfer;

static cls_status op_transfer(probe *pr, void *arg)
{
    const xfer *x = arg;
    cl_int err = CL_SUCCESS;
    cl_command_queue q = pr->ctx->queue;
    switch (x->table) {
    case CLS_TABLE_HOST_TO_DEVICE_PINNED:
        err = clEnqueueWriteBuffer(q, pr->d1, CL_TRUE, 0, x->bytes, pr->h1, 0, NULL, NULL);
        break;
    case CLS_TABLE_DEVICE_TO_HOST_PINNED:
        err = clEnqueueReadBuffer(q, pr->d1, CL_TRUE, 0, x->bytes, pr->h1, 0, NULL, NULL);
        break;
    case CLS_TABLE_HOST_TO_DEVICE_PAGEABLE:
        err = clEnqueueWriteBuffer(q, pr->d1, CL_TRUE, 0, x->bytes, pr->pageable, 0, NULL, NULL);
        break;
    case CLS_TABLE_DEVICE_TO_HOST_PAGEABLE:
        err = clEnqueueReadBuffer(q, pr->d1, CL_TRUE, 0, x->bytes, pr->pageable, 0, NULL, NULL);
        break;
    case CLS_TABLE_HOST_TO_HOST:
        memcpy(pr->h2, pr->h1, x->bytes);
        break;
    default:
        return cls__fail(pr->ctx, CLS_ERR_INTERNAL, "probe: table %d is no transfer",
                         (int)x->table);
    }
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "%s of %zu bytes failed on %s",
                         cls_model_table_key(x->table), x->bytes, pr->ctx->info.name);
    return CLS_SUCCESS;
}

/* Visschers 2012, Sect. 5.2 mallocFreeHost / mallocFreeDevice: allocate and free one buffer.  A
 * pinned host buffer is created, mapped and unmapped.  A device buffer is created, filled whole on
 * the device (clEnqueueFillBuffer), finished, then released: drivers allocate lazily (NVIDIA's
 * OpenCL backs a buffer at its first use), so a buffer never written costs little to create and
 * release (107 us at 10^8 B on the H100) and the real cost lands in the pipeline's first
 * transfers.  First writes cost per byte, so writing only the last 4 bytes is not enough (the
 * basic scheme then stayed ~1.1 ms slower than predicted at every tile count on the H100;
 * doc/pipeline.md, "Queued copies"): the probe touches every byte, as the pipeline's tiles do
 * (the fill itself, ~0.1 ms per 256 MB, is the price of measuring that). */
static cls_status op_alloc(probe *pr, void *arg)
{
    const xfer *x = arg;
    cl_mem buf = NULL;
    cl_int err = CL_SUCCESS;
    cls_status st;
    if (x->table == CLS_TABLE_ALLOC_HOST) {
        void *p;
        if ((st = new_buffer(pr, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, x->bytes,
                             "pinned host allocation", &buf)) != CLS_SUCCESS)
            return st;
        p = clEnqueueMapBuffer(pr->ctx->queue, buf, CL_TRUE, CL_MAP_WRITE, 0, x->bytes, 0, NULL,
                               NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueUnmapMemObject(pr->ctx->queue, buf, p, 0, NULL, NULL);
    } else {
        if ((st = new_buffer(pr, CL_MEM_READ_WRITE, x->bytes, "device allocation", &buf)) !=
            CLS_SUCCESS)
            return st;
        static const cl_uint word = 0;
        size_t whole = x->bytes / sizeof word * sizeof word;
        if (whole)
            err = clEnqueueFillBuffer(pr->ctx->queue, buf, &word, sizeof word, 0, whole, 0, NULL,
                                      NULL);
        else
            err = clEnqueueWriteBuffer(pr->ctx->queue, buf, CL_FALSE, 0, x->bytes, &word, 0,
                                       NULL, NULL);
    }
    if (err == CL_SUCCESS) err = clFinish(pr->ctx->queue);
    clReleaseMemObject(buf);
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "%s: allocating %zu bytes failed on %s",
                         cls_model_table_key(x->table), x->bytes, pr->ctx->info.name);
    return CLS_SUCCESS;
}

static cls_status setup_transfers(probe *pr)
{
    const cls_device_info *d = &pr->ctx->info;
    cl_int err = CL_SUCCESS;
    cls_status st;
    /* Two device and two pinned buffers of the largest size must fit comfortably. */
    while (pr->xfer_max > 10 &&
           (pr->xfer_max > d->max_alloc_bytes || 4 * pr->xfer_max > d->global_mem_bytes / 2))
        pr->xfer_max /= 10;
    if ((st = new_buffer(pr, CL_MEM_READ_WRITE, pr->xfer_max, "transfer buffer 1", &pr->d1)) !=
            CLS_SUCCESS ||
        (st = new_buffer(pr, CL_MEM_READ_WRITE, pr->xfer_max, "transfer buffer 2", &pr->d2)) !=
            CLS_SUCCESS ||
        (st = new_buffer(pr, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, pr->xfer_max,
                         "pinned host buffer 1", &pr->pin1)) != CLS_SUCCESS ||
        (st = new_buffer(pr, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, pr->xfer_max,
                         "pinned host buffer 2", &pr->pin2)) != CLS_SUCCESS)
        return st;
    pr->h1 = clEnqueueMapBuffer(pr->ctx->queue, pr->pin1, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                pr->xfer_max, 0, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        pr->h2 = clEnqueueMapBuffer(pr->ctx->queue, pr->pin2, CL_TRUE,
                                    CL_MAP_READ | CL_MAP_WRITE, 0, pr->xfer_max, 0, NULL, NULL,
                                    &err);
    if (err != CL_SUCCESS || !pr->h1 || !pr->h2)
        return cls__fail(pr->ctx, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                         "mapping the pinned host buffers (%zu bytes) failed on %s",
                         pr->xfer_max, d->name);
    pr->pageable = malloc(pr->xfer_max);
    if (!pr->pageable)
        return cls__fail(pr->ctx, CLS_ERR_OUT_OF_HOST_MEMORY,
                         "allocating the pageable host buffer of %zu bytes", pr->xfer_max);
    /* First touch outside the timings. */
    memset(pr->h1, 1, pr->xfer_max);
    memset(pr->h2, 2, pr->xfer_max);
    memset(pr->pageable, 3, pr->xfer_max);
    if ((st = touch(pr, pr->d1, pr->xfer_max)) != CLS_SUCCESS ||
        (st = touch(pr, pr->d2, pr->xfer_max)) != CLS_SUCCESS)
        return st;
    /* The second queue, with profiling as the pipeline's queues: device-to-host copies while the
     * context's queue copies the other way (the queued pairs and the overlap factor,
     * Visschers 2012, Sect. 6.4.4) and the cross-queue event chain (sync.queue_wait). */
    pr->q2 = clCreateCommandQueue(pr->ctx->cl, pr->ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS || !pr->q2)
        return cls__fail(pr->ctx, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                         "clCreateCommandQueue (the probe's second transfer queue) failed on %s",
                         d->name);
    pr->q3 = clCreateCommandQueue(pr->ctx->cl, pr->ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS || !pr->q3)
        return cls__fail(pr->ctx, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                         "clCreateCommandQueue (the probe's third queue) failed on %s", d->name);
    return CLS_SUCCESS;
}

/* Allocation tables: up to 10^9 bytes in full mode (a basic-scheme pipeline allocates whole
 * arrays: 256 MB for 64M floats, 400^3 floats; transfers stop at xfer_max), within
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE and half the global memory beside the transfer buffers, and
 * within ALLOC_BUDGET_*_S per table for the sizes beyond xfer_max: such a size is measured only
 * if ten times the previous size's time, over the ~5 operations a measurement takes at least
 * (warm-up, calibration, 3 samples), fits in what is left (a pinned host allocation of 10^8 B
 * took 52 ms on the H100, so 10^9 B about 0.5 s). */
#define ALLOC_MAX_FULL 1000000000
#define ALLOC_MAX_QUICK 10000000
#define ALLOC_BUDGET_FULL_S 4.0
#define ALLOC_BUDGET_QUICK_S 0.5

static size_t alloc_max(const probe *pr)
{
    return pr->quick ? ALLOC_MAX_QUICK : ALLOC_MAX_FULL;
}

/* Why an allocation of this size is not measured, or NULL: the device's limits. */
static const char *alloc_limit(const probe *pr, size_t bytes)
{
    const cls_device_info *d = &pr->ctx->info;
    if (bytes > d->max_alloc_bytes) return "larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE";
    if (bytes + 2 * pr->xfer_max > d->global_mem_bytes / 2)
        return "more than half the global memory beside the transfer buffers";
    return NULL;
}

/* Visschers 2012, Sect. 5.2 and 6.3: each table holds the time of one operation for 10, 100,
 * 1000 ... bytes (powers of ten), here up to xfer_max (10^8 in full mode) for transfers and
 * alloc_max for allocations. */
static cls_status probe_tables(probe *pr)
{
    static const cls_model_table tables[] = {
        CLS_TABLE_HOST_TO_DEVICE_PINNED,   CLS_TABLE_DEVICE_TO_HOST_PINNED,
        CLS_TABLE_HOST_TO_DEVICE_PAGEABLE, CLS_TABLE_DEVICE_TO_HOST_PAGEABLE,
        CLS_TABLE_HOST_TO_HOST,            CLS_TABLE_ALLOC_HOST,
        CLS_TABLE_ALLOC_DEVICE};
    cls_status st;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        cls_model_point pts[16];
        size_t n = 0;
        const char *key = cls_model_table_key(tables[t]);
        int is_alloc = tables[t] == CLS_TABLE_ALLOC_HOST || tables[t] == CLS_TABLE_ALLOC_DEVICE;
        const size_t top = is_alloc ? alloc_max(pr) : pr->xfer_max;
        double ext_start = 0; /* when the sizes beyond xfer_max began */
        const double budget_s = pr->quick ? ALLOC_BUDGET_QUICK_S : ALLOC_BUDGET_FULL_S;
        for (size_t bytes = 10, e = 1; bytes <= top && n < 16; bytes *= 10, e++) {
            xfer x = {tables[t], bytes};
            char label[32];
            double med = 0, spr = 0;
            snprintf(label, sizeof label, "10^%zu B", e);
            if (is_alloc && bytes > pr->xfer_max) {
                const char *why = alloc_limit(pr, bytes);
                double left;
                if (ext_start == 0) ext_start = cls__now();
                left = budget_s - (cls__now() - ext_start);
                if (!why && n > 0 && 5 * 10 * pts[n - 1].ns * 1e-9 > left)
                    why = "over the probe's time budget for allocations";
                if (why) {
                    skipped(pr, key, label, (double)bytes, why);
                    continue;
                }
            }
            if ((st = step(pr, key, label)) != CLS_SUCCESS ||
                (st = measure_op(pr, key, label, (double)bytes, is_alloc ? op_alloc : op_transfer,
                                 &x, 0, &med, &spr)) != CLS_SUCCESS)
                return st;
            /* The table's spread_ns is the absolute p90 - p10 (doc/devices.md, Tables). */
            if (med <= 0) med = 1e-3;
            pts[n++] = (cls_model_point){(double)bytes, med, spr * med};
        }
        if ((st = cls_model_set_table(pr->m, tables[t], pts, n)) != CLS_SUCCESS) return st;
    }
    return CLS_SUCCESS;
}

/* Queued copies (not in Visschers 2012; refines its Sect. 6.4.3 for an executor that queues its
 * copies): a pipeline enqueues every tile's copy without waiting, so all copies of a direction but
 * the first start when the previous one ends, and cost neither the host's submission nor its
 * completion wait.  A sample times one copy alone (enqueued, then clFinish) and a stream of
 * QUEUED_STREAM copies of the same size (enqueued back to back on the same queue, then
 * clFinish), and keeps the stream's time beyond the lone copy per further copy:
 * (t_stream - t_one) / (QUEUED_STREAM - 1).  The copies reuse the same bytes at offset 0; the
 * queue is the context's (profiling on, as the pipeline's queues).  On the H100 this gave
 * 149-153 us for 8 MB where the blocking table less its latency plus a kernel restart gave
 * 163 us (doc/pipeline.md).
 *
 * The pairs table does the same with one copy each way per element of the stream, host to
 * device on the context's queue and device to host on the second queue, as a pipeline's steady
 * state copies tile j + 1 in while tile j - 1 goes out: its marginal pair time over the two
 * single-direction entries is the overlap per size, which one factor could not give (1.3 at
 * 1 MB, 1.8 at 16 MB on the H100; doc/pipeline.md). */
#define QUEUED_STREAM 16

typedef enum queued_kind { QUEUED_IN, QUEUED_OUT, QUEUED_PAIR } queued_kind;

typedef struct queued {
    queued_kind kind;
    size_t bytes;
} queued;

/* One element of a stream: a copy in, a copy out, or one of each on their own queues. */
static cl_int enqueue_queued(probe *pr, const queued *x)
{
    cl_command_queue q = pr->ctx->queue;
    if (x->kind == QUEUED_OUT)
        return clEnqueueReadBuffer(q, pr->d1, CL_FALSE, 0, x->bytes, pr->h1, 0, NULL, NULL);
    cl_int err = clEnqueueWriteBuffer(q, pr->d1, CL_FALSE, 0, x->bytes, pr->h1, 0, NULL, NULL);
    if (err == CL_SUCCESS && x->kind == QUEUED_PAIR)
        err = clEnqueueReadBuffer(pr->q2, pr->d2, CL_FALSE, 0, x->bytes, pr->h2, 0, NULL, NULL);
    return err;
}

static cl_int finish_queued(probe *pr, const queued *x)
{
    cl_int err = CL_SUCCESS;
    if (x->kind == QUEUED_PAIR) err = clFlush(pr->q2);
    if (err == CL_SUCCESS) err = clFinish(pr->ctx->queue);
    if (err == CL_SUCCESS && x->kind == QUEUED_PAIR) err = clFinish(pr->q2);
    return err;
}

static cls_status sample_queued(probe *pr, void *arg, double *ns)
{
    static const char *const what[] = {"host to device", "device to host",
                                       "one each way on two queues"};
    const queued *x = arg;
    double t0 = cls__now(), t1 = 0;
    cl_int err = enqueue_queued(pr, x);
    if (err == CL_SUCCESS) err = finish_queued(pr, x);
    if (err == CL_SUCCESS) {
        t1 = cls__now();
        for (int i = 0; i < QUEUED_STREAM && err == CL_SUCCESS; i++) err = enqueue_queued(pr, x);
        if (err == CL_SUCCESS) err = finish_queued(pr, x);
    }
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err, "a stream of %d queued copies of %zu bytes "
                         "(%s) failed on %s", QUEUED_STREAM, x->bytes, what[x->kind],
                         pr->ctx->info.name);
    double one = t1 - t0, stream = cls__now() - t1;
    /* a tiny copy's difference can fall within the noise: keep it positive */
    *ns = (stream - one) * 1e9 / (QUEUED_STREAM - 1);
    if (!(*ns > 1)) *ns = 1;
    return CLS_SUCCESS;
}

static cls_status probe_queued(probe *pr)
{
    static const cls_model_table tables[] = {CLS_TABLE_HOST_TO_DEVICE_QUEUED,
                                             CLS_TABLE_DEVICE_TO_HOST_QUEUED,
                                             CLS_TABLE_PAIR_QUEUED};
    static const queued_kind kinds[] = {QUEUED_IN, QUEUED_OUT, QUEUED_PAIR};
    enum { NT = sizeof tables / sizeof tables[0] };
    size_t sizes[16], nsizes = 0;
    cls_model_point pts[NT][16];
    cls_status st;
    for (size_t bytes = 10; bytes <= pr->xfer_max && nsizes < 16; bytes *= 10)
        sizes[nsizes++] = bytes;
    /* Two passes, up the sizes and down again, keeping the lower median of each size: on the
     * H100 a single pass had two entries slowed 1.8x and 9x by a transient lasting a whole
     * measurement (spread 0.1 %), which a second pass seconds later does not share
     * (doc/pipeline.md).  The three tables of a size are measured one after the other, so that
     * the pairs' overlap compares copies of the same moment. */
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < nsizes; k++) {
            size_t i = pass ? nsizes - 1 - k : k;
            for (size_t t = 0; t < NT; t++) {
                const char *key = cls_model_table_key(tables[t]);
                queued x = {kinds[t], sizes[i]};
                char label[48];
                double med = 0, spr = 0, warm = 0;
                snprintf(label, sizeof label, "10^%zu B, %d queued, pass %zu", i + 1,
                         QUEUED_STREAM, pass + 1);
                if ((st = step(pr, key, label)) != CLS_SUCCESS ||
                    (st = sample_queued(pr, &x, &warm)) != CLS_SUCCESS ||
                    (st = measure(pr, key, label, "ns", (double)sizes[i], sample_queued, &x,
                                  &med, &spr)) != CLS_SUCCESS)
                    return st;
                if (pass == 0 || med < pts[t][i].ns)
                    pts[t][i] = (cls_model_point){(double)sizes[i], med, spr * med};
            }
        }
    for (size_t t = 0; t < NT; t++)
        if ((st = cls_model_set_table(pr->m, tables[t], pts[t], nsizes)) != CLS_SUCCESS)
            return st;
    return CLS_SUCCESS;
}

/* Visschers 2012, Sect. 6.4.4: "when both copy engines are working, the total bandwidth is not
 * doubled. In fact it only increases by 26%".  The factor is measured as a pipeline uses the
 * engines: a stream of OVERLAP_CHUNKS queued copies per direction (bytes / OVERLAP_CHUNKS each,
 * tile-sized at 10^8 bytes), the host-to-device stream alone, the device-to-host stream alone, then
 * both at once on two queues; the factor is the sum of the two alone over the time of both at once
 * (1: no overlap, 2: perfect).  One blocking copy per direction, as the probe did first,
 * measured 1.48 on the H100 where its pipelines ran as if the directions overlapped fully
 * (doc/pipeline.md, "The H100 measurements"): a lone pair pays each copy's submission and
 * completion latency inside the timed region and starts the second copy late. */
#define OVERLAP_CHUNKS 16

/* Copies per stream: OVERLAP_CHUNKS, or one when the buffer is too small to cut usefully. */
static size_t overlap_chunks(size_t bytes)
{
    return bytes / OVERLAP_CHUNKS >= 4096 ? OVERLAP_CHUNKS : 1;
}

static cl_int copy_stream(cl_command_queue q, cl_mem d, void *h, size_t bytes, int write)
{
    const size_t n = overlap_chunks(bytes), chunk = bytes / n;
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < n && err == CL_SUCCESS; i++) {
        char *hp = (char *)h + i * chunk;
        err = write ? clEnqueueWriteBuffer(q, d, CL_FALSE, i * chunk, chunk, hp, 0, NULL, NULL)
                    : clEnqueueReadBuffer(q, d, CL_FALSE, i * chunk, chunk, hp, 0, NULL, NULL);
    }
    return err == CL_SUCCESS ? clFlush(q) : err;
}

static cls_status sample_overlap(probe *pr, void *arg, double *factor)
{
    const size_t bytes = *(const size_t *)arg;
    cl_command_queue q1 = pr->ctx->queue, q2 = pr->q2;
    double t0, t_in = 0, t_out = 0, t_both = 0;
    cl_int err;
    t0 = cls__now();
    err = copy_stream(q1, pr->d1, pr->h1, bytes, 1);
    if (err == CL_SUCCESS) err = clFinish(q1);
    t_in = cls__now() - t0;
    if (err == CL_SUCCESS) {
        t0 = cls__now();
        err = copy_stream(q2, pr->d2, pr->h2, bytes, 0);
        if (err == CL_SUCCESS) err = clFinish(q2);
        t_out = cls__now() - t0;
    }
    if (err == CL_SUCCESS) {
        t0 = cls__now();
        err = copy_stream(q1, pr->d1, pr->h1, bytes, 1);
        if (err == CL_SUCCESS) err = copy_stream(q2, pr->d2, pr->h2, bytes, 0);
        if (err == CL_SUCCESS) err = clFinish(q1);
        if (err == CL_SUCCESS) err = clFinish(q2);
        t_both = cls__now() - t0;
    }
    if (err != CL_SUCCESS)
        return cls__fail(pr->ctx, (cls_status)err,
                         "overlapping transfers of %zu x %zu bytes on two queues failed on %s",
                         overlap_chunks(bytes), bytes / overlap_chunks(bytes), pr->ctx->info.name);
    *factor = (t_in + t_out) / (t_both > 0 ? t_both : 1e-9);
    return CLS_SUCCESS;
}

static cls_status probe_overlap(probe *pr)
{
    size_t bytes = pr->xfer_max;
    double med = 0, spr = 0, warm = 0;
    char label[64];
    cls_status st;
    long engines;
    snprintf(label, sizeof label, "%zu x %zu B each way", overlap_chunks(bytes),
             bytes / overlap_chunks(bytes));
    if ((st = step(pr, "transfer.overlap_factor", label)) != CLS_SUCCESS ||
        (st = sample_overlap(pr, &bytes, &warm)) != CLS_SUCCESS ||
        (st = measure(pr, "transfer.overlap_factor", label, "ratio", (double)bytes,
                      sample_overlap, &bytes, &med, &spr)) != CLS_SUCCESS)
        return st;
    if (med > 4) med = 4;
    if (med <= 0) med = 1;
    if ((st = cls_model_set(pr->m, "transfer.overlap_factor", med)) != CLS_SUCCESS) return st;
    /* OpenCL does not report copy engines: a CPU's transfers are host copies (0, as
     * doc/devices.md defines it); a GPU whose two directions overlap clearly (Visschers' 1.26x on
     * two engines) has two, otherwise one (Visschers 2012, Sect. 6.4.4: "on a single engine the two
     * transfers add up"). */
    engines = pr->is_cpu ? 0 : med >= 1.15 ? 2 : 1;
    report(pr, "transfer.copy_engines", "inferred from the overlap factor", "count", 0,
           (double)engines, 0, 1);
    return cls_model_set(pr->m, "transfer.copy_engines", (double)engines);
}

/* ------------------------------------------------------------------------ CPU: cache levels */
/* Working sets (both buffers of a copy) of the bandwidth-by-size sweep, MiB. */
static const size_t full_sets[] = {2, 4, 8, 16, 24, 32, 48, 64, 128, 256};
static const size_t quick_sets[] = {4, 64};

static cls_status sample_copy(probe *pr, void *arg, double *gbs)
{
    size_t bytes = *(const size_t *)arg;
    double s = 0;
    cls_status st = cls_bench_copy(pr->ctx, CLS_FLOAT32, bytes, 3, &s);
    /* read + write, as the copy kernel's yardstick everywhere (cls_bench_copy), over the time
     * beyond the launch (sync.kernel_restart, measured before), which the model counts apart */
    double restart = pr->m->p.kernel_restart_cycles / (pr->m->p.clock_mhz * 1e6);
    if (s > 2 * restart) s -= restart;
    *gbs = s > 0 ? 2.0 * (double)bytes / s / 1e9 : 0;
    return st;
}

/* The copy kernel over working sets of 2 MiB to 256 MiB: the fastest rate is the cache's
 * (memory.bandwidth_cache_gbs), the largest set's is memory's (memory.bandwidth_measured_gbs,
 * in place of cube_transit's, whose column per work-item does not suit a CPU runtime), and
 * memory.cache_bytes is the set size that makes the model's rate by working set
 * (cls__cpu_seconds_per_byte) closest to the sweep in the least squares of log time. */
static cls_status probe_cpu_cache(probe *pr, const size_t *sets, size_t nsets)
{
    double ws[16], gbs[16], spread;
    size_t n = 0;
    cls_status st;
    for (size_t i = 0; i < nsets && n < 16; i++) {
        size_t bytes = sets[i] << 19; /* half the set per buffer */
        char label[32];
        snprintf(label, sizeof label, "%zu MiB", sets[i]);
        if ((uint64_t)bytes > pr->ctx->info.max_alloc_bytes ||
            (uint64_t)bytes > pr->ctx->info.global_mem_bytes / 4) {
            skipped(pr, "memory.copy", label, (double)(2 * bytes), "larger than the device allows");
            continue;
        }
        if ((st = step(pr, "memory.copy", label)) != CLS_SUCCESS ||
            (st = measure(pr, "memory.copy", label, "GB/s", (double)(2 * bytes), sample_copy,
                          &bytes, &gbs[n], &spread)) != CLS_SUCCESS)
            return st;
        /* other work on the cores only ever slows a copy: its 90th percentile rate stands for
         * the device's own */
        gbs[n] = last_quantile(pr, 0.9);
        ws[n++] = (double)(2 * bytes);
    }
    if (n == 0) return CLS_SUCCESS;
    double best = 0;
    for (size_t i = 0; i < n; i++)
        if (gbs[i] > best) best = gbs[i];
    cls__cpu_device d = {0};
    d.bandwidth = gbs[n - 1] * 1e9;
    d.bandwidth_cache = best * 1e9;
    double best_err = -1, cache = 0;
    for (size_t c = 0; c < n; c++) {
        d.cache_bytes = ws[c];
        double err = 0;
        for (size_t i = 0; i < n; i++) {
            double r = log(cls__cpu_seconds_per_byte(&d, ws[i]) * gbs[i] * 1e9);
            err += r * r;
        }
        if (best_err < 0 || err < best_err) {
            best_err = err;
            cache = ws[c];
        }
    }
    if ((st = cls_model_set(pr->m, "memory.bandwidth_cache_gbs", best)) != CLS_SUCCESS ||
        (st = cls_model_set(pr->m, "memory.cache_bytes", cache)) != CLS_SUCCESS)
        return st;
    if (n > 1 && (st = cls_model_set(pr->m, "memory.bandwidth_measured_gbs", gbs[n - 1])) !=
                     CLS_SUCCESS)
        return st;
    if (pr->m->assumed[CLS__F_bandwidth_peak_gbs] && pr->m->p.bandwidth_peak_gbs < gbs[n - 1])
        pr->m->p.bandwidth_peak_gbs = gbs[n - 1];
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------------ the schedules' own */
static cls_status env_step(void *p, const char *key, const char *label)
{
    return step(p, key, label);
}

static void env_report(void *p, const char *key, const char *label, const char *unit,
                       double bytes, double value, double spread, size_t reps)
{
    probe *pr = p;
    pr->done++;
    report(pr, key, label, unit, bytes, value, spread, reps);
}

static void env_unfitted(void *p, const char *key, const char *label, const char *why)
{
    report_none(p, key, label, 0, why);
}

double cls__probe_value(const cls__probe_env *env, const char *key)
{
    double v = 0;
    return cls_model_get(env->m, key, &v) == CLS_SUCCESS ? v : 0;
}

cls_status cls__probe_sample(cls_plan *plan, const void *in, void *out, double *us)
{
    cls_report rep;
    cls_status st = cls_plan_run(plan, in, NULL, out, &rep);
    *us = rep.seconds_per_step * 1e6;
    return st;
}

double cls__probe_report_low(const cls__probe_env *env, const char *key, const char *label,
                             double bytes, double *us, size_t n)
{
    cls__sort_doubles(us, n);
    double med = cls__quantile(us, n, 0.5), low = cls__quantile(us, n, 0.1);
    double spread = med > 0 ? (cls__quantile(us, n, 0.9) - low) / med : 0;
    env->report(env->probe, key, label, "us", bytes, low, spread, n);
    return low;
}

static cls__probe_env env_of(probe *pr)
{
    const budget b = budget_of(pr);
    cls__probe_env e = {pr->ctx, pr->m, pr->quick, b.min_reps, b.max_reps, b.seconds,
                        env_step, env_report, env_unfitted, pr};
    return e;
}

static size_t schedule_measurements(probe *pr)
{
    const cls__schedule_ops *o;
    cls__probe_env e = env_of(pr);
    size_t n = 0;
    for (size_t i = 0; (o = cls__schedule_at(i)); i++)
        if (o->probe && o->measurements) n += o->measurements(&e);
    return n;
}

/* What each schedule's own model needs of the device (the CPU row kernel's costs). */
static cls_status probe_schedules(probe *pr)
{
    const cls__schedule_ops *o;
    cls__probe_env e = env_of(pr);
    cls_status st;
    for (size_t i = 0; (o = cls__schedule_at(i)); i++)
        if (o->probe && (st = o->probe(&e)) != CLS_SUCCESS) return st;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------------ the whole probe */
static const size_t full_cubes[] = {192, 256, 512};
static const size_t quick_cubes[] = {64};
static const cl_int full_strides[] = {1, 2, 4, 8, 16, 32, 64, 33};
static const cl_int quick_strides[] = {1, 2, 4, 33};

void cls_probe_options_init(cls_probe_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->size = sizeof *opt;
    opt->target_spread = PROBE_TARGET_SPREAD;
}

static cls_status describe(probe *pr)
{
    const cls_device_info *d = &pr->ctx->info;
    char text[CLS__MODEL_TEXT_MAX], date[32] = "";
    time_t now = time(NULL);
    struct tm tmv;
    cls_status st;
    if (gmtime_r(&now, &tmv)) strftime(date, sizeof date, "%Y-%m-%d", &tmv);
    snprintf(text, sizeof text,
             "measured by clstencil probe (libclstencil %s, %s mode) on %s UTC: cube_transit and "
             "cube_ghost_transit (Mo & Li, Listings 4-5, Eq. 3), kernel restart "
             "and atomic global barrier (Meng & Skadron 2010, Sect. 4.4-4.5), transfer and "
             "allocation tables and the overlap factor (Visschers 2012, Sect. 5.2, "
             "6.3, 6.4.4)%s; values marked assumed are %s family defaults",
             cls_version(), pr->quick ? "quick" : "full", date,
             pr->is_cpu ? ", the copy kernel by working set and the row kernel's costs "
                          "(doc/devices.md, \"The CPU row kernel\")"
                        : "",
             cls_model_family(pr->m));
    if ((st = cls_model_set_source(pr->m, text)) != CLS_SUCCESS) return st;
    snprintf(text, sizeof text, "%.300s (%.200s, driver %.100s), probed%s", d->name,
             d->platform_name, d->driver_version[0] ? d->driver_version : "unknown",
             pr->quick ? " in quick mode" : "");
    if (cls__text_check(text, CLS__MODEL_TEXT_MAX - 1) == CLS_SUCCESS &&
        cls__set_text(&pr->m->description, text) != 0)
        return cls__fail(pr->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "probe: out of memory");
    return CLS_SUCCESS;
}

static void release(probe *pr)
{
    if (pr->h1) clEnqueueUnmapMemObject(pr->ctx->queue, pr->pin1, pr->h1, 0, NULL, NULL);
    if (pr->h2) clEnqueueUnmapMemObject(pr->ctx->queue, pr->pin2, pr->h2, 0, NULL, NULL);
    if (pr->h1 || pr->h2) clFinish(pr->ctx->queue);
    if (pr->d1) clReleaseMemObject(pr->d1);
    if (pr->d2) clReleaseMemObject(pr->d2);
    if (pr->pin1) clReleaseMemObject(pr->pin1);
    if (pr->pin2) clReleaseMemObject(pr->pin2);
    free(pr->pageable);
    if (pr->q2) clReleaseCommandQueue(pr->q2);
    if (pr->q3) clReleaseCommandQueue(pr->q3);
    if (pr->k_transit) clReleaseKernel(pr->k_transit);
    if (pr->k_ghost) clReleaseKernel(pr->k_ghost);
    if (pr->k_empty) clReleaseKernel(pr->k_empty);
    if (pr->k_barrier) clReleaseKernel(pr->k_barrier);
    if (pr->k_stride) clReleaseKernel(pr->k_stride);
    /* pr->prog belongs to the context's program cache. */
}

cls_status cls_probe_device(cls_context *ctx, const cls_probe_options *opt, cls_model **out)
{
    probe *pr;
    cls_status st;
    const size_t *cubes, *sets;
    const cl_int *strides;
    size_t ncubes, nstrides, nsets, nsizes = 0, nallocs = 0;
    cl_int tpts[PROBE_MAX_POINTS];

    if (out) *out = NULL;
    if (!ctx || !out)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_probe_device: %s is NULL",
                         ctx ? "out" : "ctx");
    pr = calloc(1, sizeof *pr);
    if (!pr) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "cls_probe_device: no memory");
    pr->ctx = ctx;
    cls_probe_options_init(&pr->opt);
    if (opt && (st = cls__options_read(&pr->opt, sizeof pr->opt, opt, "probe")) != CLS_SUCCESS) {
        free(pr);
        return st;
    }
    if (!(pr->opt.target_spread > 0)) pr->opt.target_spread = PROBE_TARGET_SPREAD;
    pr->quick = pr->opt.quick != 0;
    pr->is_cpu = ctx->info.type == CLS_DEVICE_CPU;
    pr->xfer_max = pr->quick ? 1000000 : 100000000;
    cubes = pr->quick ? quick_cubes : full_cubes;
    ncubes = pr->quick ? 1 : sizeof full_cubes / sizeof full_cubes[0];
    sets = pr->quick ? quick_sets : full_sets;
    nsets = pr->quick ? sizeof quick_sets / sizeof quick_sets[0]
                      : sizeof full_sets / sizeof full_sets[0];
    strides = pr->quick ? quick_strides : full_strides;
    nstrides = pr->quick ? sizeof quick_strides / sizeof quick_strides[0]
                         : sizeof full_strides / sizeof full_strides[0];

    /* The family follows the device type: "cpu" for CPUs, "gpu" for everything else; the
     * device's clock, compute units and sizes replace the generic values. */
    st = cls_model_from_defaults(pr->is_cpu ? "cpu" : "gpu", &ctx->info, &pr->m);
    if (st != CLS_SUCCESS) goto fail;
    if ((st = build(pr)) != CLS_SUCCESS) goto fail;
    if ((st = setup_transfers(pr)) != CLS_SUCCESS) goto fail;
    for (size_t b = 10; b <= pr->xfer_max; b *= 10) nsizes++;
    for (size_t b = 10; b <= alloc_max(pr); b *= 10) nallocs++;
    /* per transfer size: 5 tables, and 3 queued tables in 2 passes each */
    pr->total = 6 + 2 * ncubes + barrier_points(pr, tpts) + nstrides + 11 * nsizes +
                2 * nallocs + 1 + (pr->is_cpu ? nsets : 0) + schedule_measurements(pr);

    cls__debug("probe %s: %s mode, transfers up to %zu bytes, allocations up to %zu",
               ctx->info.name, pr->quick ? "quick" : "full", pr->xfer_max, alloc_max(pr));
    if ((st = probe_launch(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_queue_wait(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_enqueue(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_cubes(pr, cubes, ncubes)) != CLS_SUCCESS) goto fail;
    if (pr->is_cpu && (st = probe_cpu_cache(pr, sets, nsets)) != CLS_SUCCESS) goto fail;
    if ((st = probe_schedules(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_barrier(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_banks(pr, strides, nstrides)) != CLS_SUCCESS) goto fail;
    if ((st = probe_tables(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_queued(pr)) != CLS_SUCCESS) goto fail;
    if ((st = probe_overlap(pr)) != CLS_SUCCESS) goto fail;
    if ((st = describe(pr)) != CLS_SUCCESS) goto fail;
    if (pr->opt.progress) pr->opt.progress("done", pr->total, pr->total, pr->opt.user);
    *out = pr->m;
    pr->m = NULL;

fail:
    release(pr);
    cls_model_release(pr->m);
    free(pr);
    return st;
}

cls_status cls_probe_save_cache(const cls_model *m, char *path, size_t len)
{
    cls_device_info info;
    char file[4096], dir[4096];
    const char *off = getenv("CLSTENCIL_CACHE");
    char *slash;
    cls_status st;

    if (path && len) path[0] = '\0';
    if (!m) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_probe_save_cache: NULL model");
    if (!m->device.name)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "model \"%s\" records no device (not a probe result): nothing to cache",
                         cls_model_name(m));
    if (off && strcmp(off, "off") == 0)
        return cls__fail(NULL, CLS_ERR_CACHE,
                         "the cache is disabled (CLSTENCIL_CACHE=off): probe result not cached");
    memset(&info, 0, sizeof info);
    snprintf(info.name, sizeof info.name, "%s", m->device.name);
    snprintf(info.driver_version, sizeof info.driver_version, "%s",
             m->device.driver_version ? m->device.driver_version : "");
    if ((st = cls_model_cache_path(&info, file, sizeof file)) != CLS_SUCCESS) return st;
    snprintf(dir, sizeof dir, "%s", file);
    slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    if (slash && cls__mkdirs(dir, 0777) != 0)
        return cls__fail(NULL, CLS_ERR_CACHE, "cannot create the model cache folder %s", dir);
    if ((st = cls_model_save(m, file)) != CLS_SUCCESS) return st;
    if (path && len) snprintf(path, len, "%s", file);
    return CLS_SUCCESS;
}
