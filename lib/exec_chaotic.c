/* exec_chaotic.c: the solver's run loop: launches of the base step or of the coarse/asynchronous
 * pass, a host synchronisation with a convergence check after each (Chen et al.,
 * Sect. IV-A), until convergence, divergence or the step limit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* Device buffers of one run. */
typedef struct run_bufs {
    cl_mem u[2];      /* the state; coarse and base alternate, asynchronous passes work in u[cur] */
    cl_mem aux[16];
    cl_mem partial;   /* 3 values per work-group: max |d|, sum d^2, non-finite flag */
    cl_mem partial2;  /* 3 values per group of the first reduction stage (large grids) */
    cl_mem result;    /* the reduced triple */
    cl_mem cols;      /* 4w-combine: the left/right boundary columns */
} run_bufs;

/* Per-group triples reduced by one work-group of CLS_RED (cl/chaotic.cl) at most this many
 * per item; more go through a first stage of count / (CLS_RED * RED_PER_ITEM) groups (at most
 * RED_GROUPS_MAX).  One group walking 10^5 triples costs about one memory latency each on a
 * GPU, more than a whole step at 4096^2; two stages cost one launch more. */
#define RED_ITEMS 256
#define RED_PER_ITEM 8
#define RED_GROUPS_MAX 256

/* The host's view of the run: events' device time, the history. */
typedef struct run_state {
    double device_seconds;
    size_t *hist_steps;
    double *hist_norms;
    size_t hist_len, hist_cap;
} run_state;

/* Finds the first value that is not finite in n elements of the dtype; returns its index or
 * n when all are finite. */
static size_t first_not_finite(const void *data, size_t n, cls_dtype dtype)
{
    if (dtype == CLS_FLOAT64) {
        const double *d = data;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(d[i])) return i;
    } else {
        const float *f = data;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(f[i])) return i;
    }
    return n;
}

static double value_at(const void *data, size_t i, cls_dtype dtype)
{
    return dtype == CLS_FLOAT64 ? ((const double *)data)[i] : (double)((const float *)data)[i];
}

static cls_status check_finite(cls_solver *s, const void *input, const void *const *aux)
{
    for (size_t k = 0; k <= s->st->n_aux; k++) {
        const void *a = k == 0 ? input : aux[k - 1];
        size_t i = first_not_finite(a, s->points, s->st->dtype);
        if (i < s->points)
            return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "%s%s%s at point (%zu, %zu) is %g: the solver accepts finite values "
                             "only",
                             k == 0 ? "the initial state" : "auxiliary array '",
                             k == 0 ? "" : s->st->aux[k - 1].name, k == 0 ? "" : "'",
                             i % s->dims.n[0], i / s->dims.n[0], value_at(a, i, s->st->dtype));
    }
    return CLS_SUCCESS;
}

static void release_bufs(run_bufs *b)
{
    cl_mem *all[] = {&b->u[0], &b->u[1], &b->partial, &b->partial2, &b->result, &b->cols};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (*all[i]) clReleaseMemObject(*all[i]);
    for (size_t k = 0; k < 16; k++)
        if (b->aux[k]) clReleaseMemObject(b->aux[k]);
    memset(b, 0, sizeof *b);
}

static cls_status create_bufs(cls_solver *s, const void *input, const void *const *aux,
                              run_bufs *b)
{
    cls_context *ctx = s->ctx;
    cls_status st = CLS_SUCCESS;
    cl_int err;
    size_t bytes = s->points * s->elem;
    size_t groups = s->groups > s->step_groups ? s->groups : s->step_groups;
    memset(b, 0, sizeof *b);
    for (int i = 0; i < 2; i++) {
        b->u[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        CLS__CHECK_CL(ctx, st, err, "allocating the solver's state on the device");
    }
    err = clEnqueueWriteBuffer(ctx->queue, b->u[0], CL_FALSE, 0, bytes, input, 0, NULL, NULL);
    CLS__CHECK_CL(ctx, st, err, "copying the initial state to the device");
    for (size_t k = 0; k < s->st->n_aux; k++) {
        b->aux[k] = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, bytes, NULL, &err);
        CLS__CHECK_CL(ctx, st, err, "allocating an auxiliary array on the device");
        err = clEnqueueWriteBuffer(ctx->queue, b->aux[k], CL_FALSE, 0, bytes, aux[k], 0, NULL,
                                   NULL);
        CLS__CHECK_CL(ctx, st, err, "copying an auxiliary array to the device");
    }
    b->partial = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, 3 * groups * s->elem, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the per-group norms");
    b->partial2 = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, 3 * RED_GROUPS_MAX * s->elem,
                                 NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the per-group norms");
    b->result = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, 3 * s->elem, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the norm");
    b->cols = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE,
                             (s->cols_elems ? s->cols_elems : 1) * s->elem, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the combined boundary columns");
    return CLS_SUCCESS;
fail:
    clFinish(ctx->queue);
    release_bufs(b);
    return st;
}

/* Enqueues a kernel with a profiling event, whose device time is added at the next sync. */
static cls_status launch(cls_solver *s, cl_kernel k, cl_uint dims, const size_t *global,
                         const size_t *local, cl_event *ev, const char *what)
{
    cl_int err = clEnqueueNDRangeKernel(s->ctx->queue, k, dims, NULL, global, local, 0, NULL, ev);
    if (err != CL_SUCCESS) return cls__fail(s->ctx, (cls_status)err, "launching %s", what);
    return CLS_SUCCESS;
}

static double event_seconds(cl_event e)
{
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
        return 0;
    return t1 > t0 ? (double)(t1 - t0) * 1e-9 : 0;
}

static cl_int set_args(cl_kernel k, const run_bufs *b, size_t n_aux, cl_uint first)
{
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < n_aux && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k, first + (cl_uint)i, sizeof(cl_mem), &b->aux[i]);
    return err;
}

/* Reduces `count` per-group triples in b->partial into b->result: one group, or two stages
 * for many triples (events ev[0], ev[1]; ev[1] stays NULL with one stage). */
static cls_status enqueue_reduce(cls_solver *s, run_bufs *b, size_t count, cl_event ev[2])
{
    size_t groups = count / (RED_ITEMS * RED_PER_ITEM), one = RED_ITEMS;
    if (groups > RED_GROUPS_MAX) groups = RED_GROUPS_MAX;
    cl_int n = (cl_int)count, g = (cl_int)groups;
    cl_int err;
    cls_status st;
    if (groups >= 2) {
        size_t global = groups * RED_ITEMS;
        err = clSetKernelArg(s->k_reduce, 0, sizeof(cl_mem), &b->partial);
        if (err == CL_SUCCESS) err = clSetKernelArg(s->k_reduce, 1, sizeof n, &n);
        if (err == CL_SUCCESS) err = clSetKernelArg(s->k_reduce, 2, sizeof(cl_mem), &b->partial2);
        if (err != CL_SUCCESS)
            return cls__fail(s->ctx, (cls_status)err, "setting the reduction's arguments");
        if ((st = launch(s, s->k_reduce, 1, &global, &one, &ev[0], "the norm reduction")) !=
            CLS_SUCCESS)
            return st;
        /* Kernel arguments are captured at the enqueue: the second stage may reset them. */
        err = clSetKernelArg(s->k_reduce, 0, sizeof(cl_mem), &b->partial2);
        if (err == CL_SUCCESS) err = clSetKernelArg(s->k_reduce, 1, sizeof g, &g);
        ev = ev + 1;
    } else {
        err = clSetKernelArg(s->k_reduce, 0, sizeof(cl_mem), &b->partial);
        if (err == CL_SUCCESS) err = clSetKernelArg(s->k_reduce, 1, sizeof n, &n);
    }
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_reduce, 2, sizeof(cl_mem), &b->result);
    if (err != CL_SUCCESS)
        return cls__fail(s->ctx, (cls_status)err, "setting the reduction's arguments");
    return launch(s, s->k_reduce, 1, &one, &one, &ev[0], "the norm reduction");
}

/* The synchronous step from u[from] (into u[1 - from] when `write`), with its norm reduced
 * (events ev[0..2]). */
static cls_status enqueue_step(cls_solver *s, run_bufs *b, int from, int write, size_t step,
                               cl_event ev[3])
{
    cl_uint a = (cl_uint)(2 + s->st->n_aux);
    cl_int stp = (cl_int)step, wr = write;
    cl_int err = clSetKernelArg(s->k_step, 0, sizeof(cl_mem), &b->u[from]);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_step, 1, sizeof(cl_mem), &b->u[1 - from]);
    if (err == CL_SUCCESS) err = set_args(s->k_step, b, s->st->n_aux, 2);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_step, a, sizeof(cl_mem), &b->partial);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_step, a + 1, sizeof stp, &stp);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_step, a + 2, sizeof wr, &wr);
    if (err != CL_SUCCESS) return cls__fail(s->ctx, (cls_status)err, "setting the step's arguments");
    cls_status st = launch(s, s->k_step, 2, s->step_global, s->step_local, &ev[0],
                           write ? "the solver's step kernel" : "the residual kernel");
    if (st != CLS_SUCCESS) return st;
    return enqueue_reduce(s, b, s->step_groups, ev + 1);
}

/* One pass of n steps: from u[from] into u[to] (the same buffer for the asynchronous
 * schedules), with the norm of its change reduced unless `skip_norm` (events ev[0..2]). */
static cls_status enqueue_pass(cls_solver *s, run_bufs *b, int from, int to, size_t nsteps,
                               size_t step0, int skip_norm, cl_event ev[3])
{
    cl_uint a = (cl_uint)(2 + s->st->n_aux);
    cl_int n = (cl_int)nsteps, l = (cl_int)s->opt.exchange_interval, s0 = (cl_int)step0;
    cl_int mode = s->opt.schedule == CLS_SOLVER_COARSE ? 0 : (cl_int)s->opt.schedule - 1;
    cl_int order = (cl_int)s->opt.order, square = (cl_int)s->opt.square;
    cl_int err = clSetKernelArg(s->k_pass, 0, sizeof(cl_mem), &b->u[from]);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, 1, sizeof(cl_mem), &b->u[to]);
    if (err == CL_SUCCESS) err = set_args(s->k_pass, b, s->st->n_aux, 2);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a, sizeof(cl_mem), &b->cols);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 1, sizeof(cl_mem), &b->partial);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 2, sizeof n, &n);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 3, sizeof l, &l);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 4, sizeof s0, &s0);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 5, sizeof mode, &mode);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 6, sizeof order, &order);
    if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pass, a + 7, sizeof square, &square);
    if (err != CL_SUCCESS) return cls__fail(s->ctx, (cls_status)err, "setting the pass's arguments");
    size_t global = s->groups * s->wg;
    cls_status st = launch(s, s->k_pass, 1, &global, &s->wg, &ev[0], "the solver's pass kernel");
    if (st != CLS_SUCCESS || skip_norm) return st;
    return enqueue_reduce(s, b, s->groups, ev + 1);
}

static int history_add(run_state *r, size_t steps, double norm)
{
    if (r->hist_len == r->hist_cap) {
        size_t cap = r->hist_cap ? 2 * r->hist_cap : 64;
        size_t *ns = realloc(r->hist_steps, cap * sizeof *ns);
        if (!ns) return -1;
        r->hist_steps = ns;
        double *nn = realloc(r->hist_norms, cap * sizeof *nn);
        if (!nn) return -1;
        r->hist_norms = nn;
        r->hist_cap = cap;
    }
    r->hist_steps[r->hist_len] = steps;
    r->hist_norms[r->hist_len] = norm;
    r->hist_len++;
    return 0;
}

/* Waits for the device (the host synchronisation), reads the reduced norm and adds the device
 * time of the events launched since the last sync. */
static cls_status sync_norm(cls_solver *s, run_bufs *b, cl_event *ev, size_t n_ev, double v[3],
                            run_state *r)
{
    unsigned char raw[3 * sizeof(double)];
    cl_int err = clEnqueueReadBuffer(s->ctx->queue, b->result, CL_TRUE, 0, 3 * s->elem, raw, 0,
                                     NULL, NULL);
    for (size_t i = 0; i < n_ev; i++)
        if (ev[i]) {
            if (err == CL_SUCCESS) r->device_seconds += event_seconds(ev[i]);
            clReleaseEvent(ev[i]);
            ev[i] = NULL;
        }
    if (err != CL_SUCCESS)
        return cls__fail(s->ctx, (cls_status)err, "reading the norm back from the device");
    for (int i = 0; i < 3; i++)
        v[i] = s->elem == 8 ? ((double *)(void *)raw)[i] : (double)((float *)(void *)raw)[i];
    return CLS_SUCCESS;
}

cls_status cls__solver_exec(cls_solver *s, const void *input, const void *const *aux,
                            void *output, cls_solver_report *report)
{
    cls_context *ctx = s->ctx;
    const cls_solver_options *o = &s->opt;
    run_bufs b;
    run_state r;
    cl_event ev[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    cls_status st;
    double t_start = cls__now(), t_loop = 0, t_loop_end = 0;
    memset(&r, 0, sizeof r);
    memset(&b, 0, sizeof b);

    if ((st = check_finite(s, input, aux)) != CLS_SUCCESS) return st;
    if ((st = create_bufs(s, input, aux, &b)) != CLS_SUCCESS) return st;
    if (o->schedule == CLS_SOLVER_4W_COMBINE && s->cols_elems) {
        cl_int err = clSetKernelArg(s->k_pack, 0, sizeof(cl_mem), &b.u[0]);
        if (err == CL_SUCCESS) err = clSetKernelArg(s->k_pack, 1, sizeof(cl_mem), &b.cols);
        CLS__CHECK_CL(ctx, st, err, "setting the packing kernel's arguments");
        size_t g = (s->cols_elems + 63) / 64 * 64, l = 64;
        if ((st = launch(s, s->k_pack, 1, &g, &l, NULL, "the column packing kernel")) !=
            CLS_SUCCESS)
            goto fail;
    }
    {
        cl_int err = clFinish(ctx->queue);
        CLS__CHECK_CL(ctx, st, err, "waiting for the uploads");
    }

    const char *crit = cls_criterion_name(o->criterion), *nname = cls_norm_name(o->norm);
    cls_solver_outcome outcome = CLS_SOLVER_NOT_CONVERGED;
    char msg[256] = "";
    size_t steps = 0, syncs = 0;
    int out_of_time = 0;
    double norm = 0, min_norm = INFINITY;
    int cur = 0;
    int residual_pass = o->schedule != CLS_SOLVER_BASE && o->criterion == CLS_CRITERION_RESIDUAL;
    t_loop = cls__now();
    while (steps < o->max_steps) {
        size_t chunk = o->check_interval;
        if (chunk > o->max_steps - steps) chunk = o->max_steps - steps;
        if (o->schedule == CLS_SOLVER_BASE) {
            if ((st = enqueue_step(s, &b, cur, 1, steps, ev)) != CLS_SUCCESS) goto fail;
            cur = 1 - cur;
        } else {
            int to = o->schedule == CLS_SOLVER_COARSE ? 1 - cur : cur;
            if ((st = enqueue_pass(s, &b, cur, to, chunk, steps, residual_pass, ev)) !=
                CLS_SUCCESS)
                goto fail;
            cur = to;
            if (residual_pass &&
                (st = enqueue_step(s, &b, cur, 0, steps + chunk, ev + 3)) != CLS_SUCCESS)
                goto fail;
        }
        double v[3];
        if ((st = sync_norm(s, &b, ev, 6, v, &r)) != CLS_SUCCESS) goto fail;
        steps += chunk;
        syncs++;
        norm = o->norm == CLS_NORM_MAX ? v[0] : sqrt(v[1]);
        /* The update over a pass of n steps, per step. */
        if (o->criterion == CLS_CRITERION_UPDATE) norm /= (double)chunk;
        if (history_add(&r, steps, norm) != 0) {
            st = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "recording the norm history");
            goto fail;
        }
        if (v[2] != 0 || !isfinite(norm)) {
            outcome = CLS_SOLVER_DIVERGED;
            snprintf(msg, sizeof msg,
                     "diverged after %zu steps: the state holds values that are not finite", steps);
            break;
        }
        if (o->divergence_factor > 0 && norm > o->divergence_factor * min_norm) {
            outcome = CLS_SOLVER_DIVERGED;
            snprintf(msg, sizeof msg,
                     "diverged after %zu steps: the %s norm of the %s grew from %.3g to %.3g "
                     "(more than the divergence factor %g)",
                     steps, nname, crit, min_norm, norm, o->divergence_factor);
            break;
        }
        if (norm < min_norm) min_norm = norm;
        if (norm <= o->tolerance) {
            outcome = CLS_SOLVER_CONVERGED;
            snprintf(msg, sizeof msg, "converged after %zu steps (%zu checks): %s %s %.3g <= %.3g",
                     steps, syncs, nname, crit, norm, o->tolerance);
            break;
        }
        if (o->max_seconds > 0 && cls__now() - t_loop >= o->max_seconds) {
            out_of_time = 1;
            break;
        }
    }
    t_loop_end = cls__now();
    if (outcome == CLS_SOLVER_NOT_CONVERGED && out_of_time)
        snprintf(msg, sizeof msg,
                 "not converged within the time limit of %g s (%zu steps): %s %s %.3g > "
                 "tolerance %.3g",
                 o->max_seconds, steps, nname, crit, norm, o->tolerance);
    else if (outcome == CLS_SOLVER_NOT_CONVERGED)
        snprintf(msg, sizeof msg,
                 "not converged within the limit of %zu steps: %s %s %.3g > tolerance %.3g",
                 o->max_steps, nname, crit, norm, o->tolerance);
    if (outcome == CLS_SOLVER_CONVERGED || o->write_unconverged) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, b.u[cur], CL_TRUE, 0, s->points * s->elem,
                                         output, 0, NULL, NULL);
        CLS__CHECK_CL(ctx, st, err, "reading the solution back from the device");
    }
    if (report) {
        report->outcome = outcome;
        report->steps = steps;
        report->syncs = syncs;
        report->norm = norm;
        report->seconds_loop = t_loop_end - t_loop;
        report->seconds_device = r.device_seconds;
        report->seconds_per_step = steps ? report->seconds_loop / (double)steps : 0;
        report->history_length = r.hist_len;
        report->history_steps = r.hist_steps;
        report->history_norms = r.hist_norms;
        r.hist_steps = NULL;
        r.hist_norms = NULL;
        snprintf(report->message, sizeof report->message, "%s", msg);
        report->seconds_total = cls__now() - t_start;
    }
    if (outcome == CLS_SOLVER_CONVERGED)
        st = CLS_SUCCESS;
    else
        st = cls__fail(ctx, outcome == CLS_SOLVER_DIVERGED ? CLS_ERR_DIVERGED : CLS_ERR_NOT_CONVERGED,
                       "%s%s", msg,
                       o->write_unconverged ? " (the last iterate was written)"
                                            : " (no result was written)");
    goto done;
fail:
    clFinish(ctx->queue);
    for (size_t i = 0; i < 6; i++)
        if (ev[i]) clReleaseEvent(ev[i]);
done:
    free(r.hist_steps);
    free(r.hist_norms);
    release_bufs(&b);
    return st;
}
