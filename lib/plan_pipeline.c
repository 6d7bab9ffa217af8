/* plan_pipeline.c: whether and how a host-resident run pipelines (003_9039035f5da401ab.txt
 * Sect. 5.5, 6): the device's memory cap, the transfer model's choice of scheme, tile and steps
 * per sweep (model/pipeline.c), or the user's, and the tile kernel (cl/pipeline.cl). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe.h"
#include "tune.h"

static const char *const pipeline_names[] = {"auto", "off", "basic", "scalable", "buffered"};

const char *cls_pipeline_name(cls_pipeline p)
{
    return (size_t)p < 5 ? pipeline_names[p] : "unknown";
}

cls_status cls_pipeline_from_name(const char *name, cls_pipeline *p)
{
    for (size_t i = 0; name && i < 5; i++)
        if (!strcmp(name, pipeline_names[i])) {
            *p = (cls_pipeline)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                     "unknown pipeline '%s' (auto, off, basic, scalable, buffered)",
                     name ? name : "(null)");
}

static cls_pipe_scheme scheme_of(cls_pipeline m)
{
    return m == CLS_PIPELINE_BASIC      ? CLS_PIPE_BASIC
           : m == CLS_PIPELINE_SCALABLE ? CLS_PIPE_SCALABLE
           : m == CLS_PIPELINE_BUFFERED ? CLS_PIPE_BUFFERED
                                        : CLS_PIPE_NAIVE;
}

static cls_pipeline mode_of(cls_pipe_scheme s)
{
    return s == CLS_PIPE_BASIC      ? CLS_PIPELINE_BASIC
           : s == CLS_PIPE_SCALABLE ? CLS_PIPELINE_SCALABLE
           : s == CLS_PIPE_BUFFERED ? CLS_PIPELINE_BUFFERED
                                    : CLS_PIPELINE_OFF;
}

static void halo_of(const cls_plan *p, size_t halo[3])
{
    int hl[3];
    cls_stencil_halo(p->st, hl);
    for (int d = 0; d < 3; d++) halo[d] = d < p->st->dims && hl[d] > 0 ? (size_t)hl[d] : 0;
}

/* Points of the largest input box (the tile plus halo x h on each side, clipped). */
static double box_points(const cls_plan *p, const size_t tile[3], size_t h, int padded)
{
    size_t halo[3];
    halo_of(p, halo);
    double n = 1;
    for (int d = 0; d < 3; d++) {
        size_t e = tile[d] + (padded ? 2 * halo[d] * h : 0);
        n *= (double)(e < p->dims.n[d] ? e : p->dims.n[d]);
    }
    return n;
}

double cls__pipe_device_bytes(const cls_plan *p, cls_pipe_scheme scheme, const size_t tile[3],
                              size_t h)
{
    double elem = (double)p->elem, grid = (double)p->points * elem;
    double in_box = box_points(p, tile, h, 1) * elem, out = box_points(p, tile, h, 0) * elem;
    double n_in = 1 + (double)p->st->n_aux;
    size_t per_dim[3], nt = 1;
    for (int d = 0; d < 3; d++) nt *= per_dim[d] = (p->dims.n[d] + tile[d] - 1) / tile[d];
    if (scheme == CLS_PIPE_NAIVE) return (n_in + 1) * grid;
    /* basic: full input, aux and output arrays, plus a ping-pong pair of boxes for h > 1 */
    if (scheme == CLS_PIPE_BASIC) return (n_in + 1) * grid + (h > 1 ? 2 * in_box : 0);
    /* scalable, buffered: up to three sets of input boxes and one output buffer (a box when
     * the tile's steps ping-pong); scalable with halo reuse and h > 1 ping-pongs through a
     * box of its own, since the next tile's halo copy reads the input box
     * (lib/exec_pipeline.c) */
    double sets = nt < 3 ? (double)nt : 3;
    int reuse = scheme == CLS_PIPE_SCALABLE && h > 1 &&
                cls_pipe_reuse_axis((int)p->st->dims, per_dim) >= 0;
    return sets * (n_in * in_box + (h > 1 ? in_box : out) + (reuse ? in_box : 0));
}

/* ---------------------------------------------------------------- the kernel model */
/* Sect. 6.4.2 leaves the kernel to measurement; here the naive schedule's prediction (its
 * measured rate when the stencil's profile is cached, else the bandwidth bound) per point and
 * step, and one kernel restart per launch.  A tile's h steps compute shrinking regions. */
typedef struct kernel_user {
    size_t halo[3];
    size_t h;
    double ns_per_point, launch_ns;
} kernel_user;

static double tile_kernel_ns(const cls_pipe_tile_info *t, void *user)
{
    const kernel_user *u = user;
    double ns = (double)u->h * u->launch_ns;
    for (size_t j = 1; j <= u->h; j++) {
        double n = 1;
        for (int d = 0; d < 3; d++) {
            double e = (double)t->out[d] + 2.0 * (double)u->halo[d] * (double)(u->h - j);
            n *= e < (double)t->in[d] ? e : (double)t->in[d];
        }
        ns += n * u->ns_per_point;
    }
    return ns;
}

static void kernel_rates(cls_plan *p, double *ns_per_point, double *launch_ns)
{
    const cls_model *m;
    double clock = 0, restart = 0;
    cls_ghost_profile prof;
    int fc = 0;
    *ns_per_point = *launch_ns = 0;
    if (cls__ctx_model(p->ctx, &m) != CLS_SUCCESS || !p->steps || !p->points) return;
    cls_model_get(m, "compute.clock_mhz", &clock);
    cls_model_get(m, "sync.kernel_restart_cycles", &restart);
    double restart_s = clock > 0 ? restart / (clock * 1e6) : 0;
    int have = cls__profile_get(p->ctx, p->st, 0, &prof, &fc) == CLS_SUCCESS;
    double run = cls__naive_predict(p, have ? &prof : NULL);
    double per_point = (run / (double)p->steps - restart_s) / (double)p->points;
    *ns_per_point = per_point > 0 ? per_point * 1e9 : 0;
    *launch_ns = restart_s * 1e9;
}

/* ---------------------------------------------------------------- choosing */
typedef struct choice {
    cls_pipe_scheme scheme;
    size_t tile[3];
    size_t h;
    double total_ns;   /* a run without allocation: sweeps x the pipeline of one sweep */
    double alloc_ns;   /* ... what allocating its buffers adds (once per run, not per sweep) */
    double rank_ns;    /* what the choice minimised: total_ns, plus alloc_ns when every run
                          allocates (release_buffers) */
    double naive_ns;   /* copy-compute-copy without allocation */
    double naive_alloc_ns; /* ... its allocation (the resident schedules allocate the same) */
    double xfer_ns;    /* ... its one upload and one download (no kernels) */
    int have_model;
} choice;

/* Whether choice c tiles the grid into one tile only. */
static int single_tile(const cls_plan *p, const choice *c)
{
    for (int d = 0; d < 3; d++)
        if (c->tile[d] && c->tile[d] < p->dims.n[d]) return 0;
    return 1;
}

/* Whether the device model describes a CPU (family "cpu"). */
static int is_cpu_model(const cls_model *m)
{
    const char *family = m ? cls_model_family(m) : NULL;
    return family && !strcmp(family, "cpu");
}

/* A run's time as the planner compares it: with buffers kept, the run after the first. */
static double ranked(const cls_plan *p, double run_ns, double alloc_ns)
{
    return run_ns + (p->release_buffers ? alloc_ns : 0);
}

/* Which runs pay the allocation, for the plan's why. */
static const char *alloc_runs(const cls_plan *p)
{
    return p->release_buffers ? "every run" : "the first run";
}

static void model_grid(const cls_plan *p, size_t h, cls_pipe_grid *g)
{
    size_t halo[3];
    halo_of(p, halo);
    memset(g, 0, sizeof *g);
    g->dims = p->st->dims;
    g->elem_bytes = p->elem;
    for (int d = 0; d < 3; d++) {
        g->size[d] = p->dims.n[d];
        g->pad_lo[d] = g->pad_hi[d] = halo[d] * h;
    }
    g->n_in = 1 + (unsigned)p->st->n_aux;
    g->n_out = 1;
    g->steps_per_tile = h;
}

/* The candidate steps per sweep: those given, else 1, 2, 4, ... and the run's steps. */
static size_t sweep_heights(const cls_plan *p, const cls_plan_options *opt, size_t *hs)
{
    size_t n = 0;
    if (opt->pipeline_steps) {
        hs[n++] = opt->pipeline_steps;
        return n;
    }
    for (size_t h = 1; h < p->steps && n < 30; h *= 2) hs[n++] = h;
    hs[n++] = p->steps;
    return n;
}

static size_t sweeps_of(const cls_plan *p, size_t h) { return (p->steps + h - 1) / h; }

/* The model's pick among the allowed schemes (one scheme when forced, every tile length or the
 * given tile) for each candidate h, by total predicted time; the executor's own buffers must fit
 * the cap too (its padded boxes for h > 1 are a little larger than the model's). */
static cls_status model_choose(cls_plan *p, const cls_plan_options *opt,
                               const cls_pipe_device *dev, double cap, choice *c)
{
    cls_context *ctx = p->ctx;
    kernel_user ku;
    double nspp, launch;
    size_t hs[32], nh = sweep_heights(p, opt, hs);
    cls_status last = CLS_ERR_PLAN_INFEASIBLE;
    char last_err[512] = "no configuration fits";
    kernel_rates(p, &nspp, &launch);
    halo_of(p, ku.halo);
    ku.ns_per_point = nspp;
    ku.launch_ns = launch;
    cls_pipe_kernel k = {0, 0, tile_kernel_ns, &ku};
    c->total_ns = c->rank_ns = INFINITY;
    c->have_model = 1;
    /* copy-compute-copy: all steps on the whole grid */
    {
        cls_pipe_grid g;
        cls_pipe_config nc = {CLS_PIPE_NAIVE, CLS_PIPE_MERGED, CLS_PIPE_EXACT, {1, 1, 1}};
        cls_pipe_estimate e;
        ku.h = p->steps;
        model_grid(p, p->steps, &g);
        int ok = cls_pipe_estimate_config(dev, &g, &k, &nc, &e) == CLS_SUCCESS;
        c->naive_ns = ok ? e.pipeline_ns : 0;
        c->naive_alloc_ns = ok ? e.alloc_ns : 0;
        c->xfer_ns = ok ? e.tile.in + e.tile.out : 0;
    }
    for (size_t i = 0; i < nh; i++) {
        size_t h = hs[i];
        cls_pipe_grid g;
        ku.h = h;
        model_grid(p, h, &g);
        double sweeps = (double)sweeps_of(p, h);
        cls_pipe_estimate best;
        int found = 0;
        if (opt->pipeline_tile[0]) {
            /* the user's tile: each allowed scheme */
            for (int s = CLS_PIPE_BASIC; s <= CLS_PIPE_BUFFERED; s++) {
                if (opt->pipeline != CLS_PIPELINE_AUTO && s != (int)scheme_of(opt->pipeline))
                    continue;
                cls_pipe_config cf = {(cls_pipe_scheme)s,
                                      opt->pipeline_rect ? CLS_PIPE_RECT : CLS_PIPE_MERGED,
                                      CLS_PIPE_EXACT,
                                      {opt->pipeline_tile[0],
                                       opt->pipeline_tile[1] ? opt->pipeline_tile[1] : 1,
                                       opt->pipeline_tile[2] ? opt->pipeline_tile[2] : 1}};
                cls_pipe_estimate e;
                cls_status st = cls_pipe_estimate_config(dev, &g, &k, &cf, &e);
                if (st != CLS_SUCCESS) {
                    last = st;
                    snprintf(last_err, sizeof last_err, "%s", cls_last_error());
                    continue;
                }
                if (cls__pipe_device_bytes(p, cf.scheme, cf.tile, h) > cap) {
                    last = CLS_ERR_PLAN_INFEASIBLE;
                    snprintf(last_err, sizeof last_err,
                             "the %s scheme with tile %zux%zux%zu needs %.4g bytes of device "
                             "memory, above the cap of %.4g",
                             cls_pipe_scheme_name(cf.scheme), cf.tile[0], cf.tile[1], cf.tile[2],
                             cls__pipe_device_bytes(p, cf.scheme, cf.tile, h), cap);
                    continue;
                }
                if (!found || ranked(p, e.pipeline_ns, e.alloc_ns) <
                                  ranked(p, best.pipeline_ns, best.alloc_ns))
                    best = e, found = 1;
            }
        } else {
            cls_pipe_plan_options po;
            memset(&po, 0, sizeof po);
            po.schemes = opt->pipeline == CLS_PIPELINE_AUTO
                             ? (1u << CLS_PIPE_BASIC) | (1u << CLS_PIPE_SCALABLE) |
                                   (1u << CLS_PIPE_BUFFERED)
                             : 1u << scheme_of(opt->pipeline);
            po.max_buffer = (double)ctx->info.max_alloc_bytes;
            po.buffers_kept = !p->release_buffers;
            /* the model's cap, lowered until the executor's buffers fit the real one */
            double mcap = cap;
            for (int tries = 0; tries < 6; tries++) {
                cls_pipe_plan_result r;
                po.device_memory = mcap;
                cls_status st = cls_pipe_plan(dev, &g, &k, &po, &r);
                if (st != CLS_SUCCESS) {
                    last = st;
                    snprintf(last_err, sizeof last_err, "%s", cls_last_error());
                    break;
                }
                double need = cls__pipe_device_bytes(p, r.best.config.scheme, r.best.config.tile, h);
                if (need <= cap) {
                    best = r.best;
                    found = 1;
                    break;
                }
                mcap *= 0.98 * cap / need;
            }
        }
        if (!found) continue;
        if (opt->pipeline_rect && !opt->pipeline_tile[0]) {
            /* the planner's tile again with rectangular copies, as forced */
            cls_pipe_config cf = best.config;
            cf.layout = CLS_PIPE_RECT;
            cls_pipe_estimate e;
            if (cls_pipe_estimate_config(dev, &g, &k, &cf, &e) == CLS_SUCCESS) best = e;
        }
        double rank = ranked(p, sweeps * best.pipeline_ns, best.alloc_ns);
        if (rank < c->rank_ns) {
            c->rank_ns = rank;
            c->total_ns = sweeps * best.pipeline_ns;
            c->alloc_ns = best.alloc_ns;
            c->scheme = best.config.scheme;
            memcpy(c->tile, best.config.tile, sizeof c->tile);
            c->h = h;
        }
    }
    if (!isfinite(c->rank_ns)) return cls__fail(ctx, last, "%s", last_err);
    return CLS_SUCCESS;
}

/* Without transfer tables: the scheme asked for (scalable when the grid must be tiled), tiles
 * along the slowest dimension, at least four, as large as the cap allows; the next slower
 * dimension splits too when one plane is too large. */
static cls_status heuristic_choose(cls_plan *p, const cls_plan_options *opt, double cap,
                                   choice *c)
{
    int dims = p->st->dims;
    c->scheme = opt->pipeline == CLS_PIPELINE_AUTO ? CLS_PIPE_SCALABLE : scheme_of(opt->pipeline);
    c->h = opt->pipeline_steps ? opt->pipeline_steps : (p->steps < 4 ? p->steps : 4);
    c->total_ns = c->rank_ns = c->naive_ns = 0;
    c->have_model = 0;
    for (int d = 0; d < 3; d++) c->tile[d] = p->dims.n[d];
    if (opt->pipeline_tile[0]) {
        memcpy(c->tile, opt->pipeline_tile, sizeof c->tile);
        for (int d = 0; d < 3; d++)
            if (!c->tile[d]) c->tile[d] = 1;
    } else {
        for (int d = dims - 1; d >= 0; d--) {
            size_t n = p->dims.n[d];
            size_t parts = d == dims - 1 ? (n < 4 ? n : 4) : 2;
            for (;;) {
                c->tile[d] = (n + parts - 1) / parts;
                if (cls__pipe_device_bytes(p, c->scheme, c->tile, c->h) <= cap ||
                    c->tile[d] == 1)
                    break;
                parts = parts * 2 > n ? n : parts * 2;
            }
            if (cls__pipe_device_bytes(p, c->scheme, c->tile, c->h) <= cap) break;
        }
    }
    double need = cls__pipe_device_bytes(p, c->scheme, c->tile, c->h);
    if (need > cap)
        return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "the %s scheme with tile %zux%zux%zu and %zu steps per tile needs %.4g "
                         "bytes of device memory, above the cap of %.4g",
                         cls_pipe_scheme_name(c->scheme), c->tile[0], c->tile[1], c->tile[2], c->h,
                         need, cap);
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- setting up */
static cls_status build(cls_plan *p, struct cls__pipe *q)
{
    cls_context *ctx = p->ctx;
    char *source = NULL, *options = NULL;
    cl_program prog;
    cls_status s = cls__codegen(ctx, p->st, p->dims, "pipeline.cl", "#define CLS_BOX 1", &source,
                                &options);
    if (s == CLS_SUCCESS) s = cls__program_get(ctx, source, options, &prog, NULL);
    free(source);
    free(options);
    if (s != CLS_SUCCESS) return s;
    cl_int err;
    q->kernel = clCreateKernel(prog, "cls_pipe", &err);
    if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "creating kernel cls_pipe");
    cls__choose_local_size(p, q->kernel, q->local);
    for (int i = 0; i < 3; i++) {
        q->q[i] = clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err, "creating the pipeline's command queues");
    }
    return CLS_SUCCESS;
}

void cls__pipe_release(struct cls__pipe *q)
{
    if (!q) return;
    if (q->kernel) clReleaseKernel(q->kernel);
    for (int i = 0; i < 3; i++)
        if (q->q[i]) clReleaseCommandQueue(q->q[i]);
    free(q);
}

static cls_status check_options(cls_plan *p, const cls_plan_options *opt)
{
    cls_context *ctx = p->ctx;
    if ((unsigned)opt->pipeline > CLS_PIPELINE_BUFFERED)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "pipeline: unknown mode %d",
                         (int)opt->pipeline);
    if (!(opt->device_memory >= 0) || !isfinite(opt->device_memory))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "device memory cap: a byte count >= 0 (0: the device's), got %g",
                         opt->device_memory);
    int any = opt->pipeline_tile[0] || opt->pipeline_tile[1] || opt->pipeline_tile[2];
    for (int d = 0; any && d < 3; d++) {
        size_t t = opt->pipeline_tile[d];
        if (d >= p->st->dims && t > 1)
            return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                             "pipeline tile: a %d-D stencil takes %d sizes, got %zu in dimension "
                             "%d",
                             p->st->dims, p->st->dims, t, d);
        if (d < p->st->dims && (t < 1 || t > p->dims.n[d]))
            return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                             "pipeline tile: %zu in dimension %d, must be 1..%zu (the grid)", t, d,
                             p->dims.n[d]);
    }
    if (opt->pipeline_steps > p->steps)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "pipeline steps per tile: %zu, more than the run's %zu steps",
                         opt->pipeline_steps, p->steps);
    if (opt->pipeline == CLS_PIPELINE_OFF && (any || opt->pipeline_steps))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "a pipeline tile or steps per tile were given with the pipeline off");
    return CLS_SUCCESS;
}

/* The run without a pipeline: one upload and one download by the transfer tables (the
 * allocation is counted apart, c.naive_alloc_ns), and the kernels of the schedule the plan
 * will run resident (AUTO's pick or the user's: trapezoid, stream25d or naive, by its own
 * prediction, p->predicted_seconds).  Without that prediction, the naive kernel's
 * copy-compute-copy.  A pipeline re-sends the grid every sweep and runs the naive tile
 * kernel, so with many steps the resident schedule usually wins; comparing against naive
 * copy-compute-copy alone picked the pipeline for poisson2d 8192^2 x 100 on the H100 (401 us
 * per step against 86.6 resident). */
double cls__pipe_resident_ns(double xfer_ns, double naive_ns, double predicted_seconds)
{
    return predicted_seconds > 0 && xfer_ns > 0 ? xfer_ns + predicted_seconds * 1e9 : naive_ns;
}

cls_status cls__plan_pipeline(cls_plan *p, const cls_plan_options *opt, const char *resident_error)
{
    cls_context *ctx = p->ctx;
    cls_status s;
    const cls_model *m = NULL;
    cls_pipe_device dev;
    char err[512];
    choice c;
    double resident_ns = 0;
    memset(&c, 0, sizeof c);
    p->pipeline = CLS_PIPELINE_OFF;
    if ((s = check_options(p, opt)) != CLS_SUCCESS) return s;

    double cap = (double)ctx->info.global_mem_bytes;
    if (opt->device_memory > 0 && (opt->device_memory < cap || !(cap > 0))) cap = opt->device_memory;
    double resident = cls__pipe_device_bytes(p, CLS_PIPE_NAIVE, p->dims.n, 1);
    int fits = !resident_error && resident <= cap;
    char fit_msg[1100];
    if (resident_error)
        snprintf(fit_msg, sizeof fit_msg, "%s", resident_error);
    else
        snprintf(fit_msg, sizeof fit_msg,
                 "the whole grid needs %.4g bytes of device buffers, above the cap of %.4g",
                 resident, cap);
    if (!fits && opt->pipeline == CLS_PIPELINE_OFF)
        return cls__fail(ctx, CLS_ERR_TOO_LARGE, "%s, and the pipeline is off", fit_msg);

    /* What the tiles cannot do: the far side's rows of periodic grids, per-step arrays. */
    const char *cannot = NULL;
    if (p->st->boundary == CLS_BOUNDARY_PERIODIC)
        cannot = "periodic boundaries would need the far side's rows in every edge tile";
    for (size_t k = 0; k < p->st->n_aux && !cannot; k++)
        if (p->st->aux[k].per_step) cannot = "per-step auxiliary arrays are not tiled";
    if (!p->steps) cannot = "a run of 0 steps moves nothing";

    /* The transfer model of the device, when it has the tables. */
    int have_model = cls__ctx_model(ctx, &m) == CLS_SUCCESS &&
                     cls_pipe_device_from_model(m, opt->host_pinned, &dev) == CLS_SUCCESS;
    if (!have_model) snprintf(err, sizeof err, "%s", m ? cls_last_error() : "no device model");

    if (cannot) {
        if (!fits)
            return cls__fail(ctx, CLS_ERR_TOO_LARGE, "%s; tiles cannot help: %s", fit_msg, cannot);
        if (opt->pipeline != CLS_PIPELINE_AUTO && opt->pipeline != CLS_PIPELINE_OFF)
            return cls__fail(ctx, CLS_ERR_UNSUPPORTED, "the %s pipeline: %s",
                             cls_pipeline_name(opt->pipeline), cannot);
        snprintf(p->pipe_why, sizeof p->pipe_why, "off: %s", cannot);
        return CLS_SUCCESS;
    }
    if (opt->pipeline == CLS_PIPELINE_OFF) {
        if (have_model && model_choose(p, opt, &dev, INFINITY, &c) == CLS_SUCCESS) {
            p->predicted_copy = p->predicted_total =
                cls__pipe_resident_ns(c.xfer_ns, c.naive_ns, p->predicted_seconds) * 1e-9;
            p->predicted_alloc = c.naive_alloc_ns * 1e-9;
        }
        snprintf(p->pipe_why, sizeof p->pipe_why, "off: asked for");
        return CLS_SUCCESS;
    }
    if (have_model) {
        if ((s = model_choose(p, opt, &dev, cap, &c)) != CLS_SUCCESS) {
            if (opt->pipeline == CLS_PIPELINE_AUTO && fits) {
                snprintf(p->pipe_why, sizeof p->pipe_why, "off: no pipeline fits (%.400s)",
                         cls_last_error());
                return CLS_SUCCESS;
            }
            char msg[600];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            return cls__fail(ctx, s, "%s%s%s", fits ? "" : fit_msg, fits ? "" : "; tiled: ", msg);
        }
        /* Within the device the alternative is the resident plan, not naive copy-compute-copy
         * (above the cap there is none; a scheme asked for is taken as asked). */
        if (fits) {
            resident_ns = cls__pipe_resident_ns(c.xfer_ns, c.naive_ns, p->predicted_seconds);
            p->predicted_copy = resident_ns * 1e-9;
        } else {
            p->predicted_copy = c.naive_ns * 1e-9;
        }
        /* A grid that fits stays resident, besides where the resident run is predicted no
         * slower, (a) when the best pipeline is one tile: it has nothing to overlap and would
         * only swap the schedule's kernel for the tile kernel; (b) on CPU devices: the tile
         * kernel (one point per work-item, cl/pipeline.cl) is far slower there than the
         * schedule's row kernel, which the model's compute times are (PoCL, hotspot 2048^2:
         * 14.7 against 1.95 ms per step), and host and device share the memory anyway. */
        const char *keep = NULL;
        if (fits && single_tile(p, &c))
            keep = "the best pipeline is one tile, which overlaps nothing";
        else if (fits && is_cpu_model(m))
            keep = "a CPU device, whose tile kernel runs far slower than the schedule's";
        if (opt->pipeline == CLS_PIPELINE_AUTO && fits && keep) {
            p->predicted_total = resident_ns * 1e-9;
            p->predicted_alloc = c.naive_alloc_ns * 1e-9;
            snprintf(p->pipe_why, sizeof p->pipe_why,
                     "off: copy in, %s resident, copy out predicted %.4g ms (%.4g ms of kernels); "
                     "%s (%s, tile %zux%zux%zu, %zu steps per tile, %.4g ms)",
                     cls_schedule_name(p->schedule), resident_ns * 1e-6,
                     p->predicted_seconds * 1e3, keep, cls_pipe_scheme_name(c.scheme), c.tile[0],
                     c.tile[1], c.tile[2], c.h, c.total_ns * 1e-6);
            return CLS_SUCCESS;
        }
        if (opt->pipeline == CLS_PIPELINE_AUTO && fits &&
            ranked(p, resident_ns, c.naive_alloc_ns) <= c.rank_ns) {
            p->predicted_total = resident_ns * 1e-9;
            p->predicted_alloc = c.naive_alloc_ns * 1e-9;
            snprintf(p->pipe_why, sizeof p->pipe_why,
                     "off: copy in, %s resident, copy out predicted %.4g ms (%.4g ms of kernels, "
                     "naive copy-compute-copy %.4g ms), the best pipeline (%s, tile %zux%zux%zu, "
                     "%zu steps per tile) %.4g ms; allocation %.4g against %.4g ms (%s)",
                     cls_schedule_name(p->schedule), resident_ns * 1e-6,
                     p->predicted_seconds * 1e3, c.naive_ns * 1e-6,
                     cls_pipe_scheme_name(c.scheme), c.tile[0], c.tile[1], c.tile[2], c.h,
                     c.total_ns * 1e-6, c.naive_alloc_ns * 1e-6, c.alloc_ns * 1e-6,
                     alloc_runs(p));
            return CLS_SUCCESS;
        }
    } else {
        if (opt->pipeline == CLS_PIPELINE_AUTO && fits) {
            snprintf(p->pipe_why, sizeof p->pipe_why,
                     "off: the device model has no transfer tables (%.400s)", err);
            return CLS_SUCCESS;
        }
        if ((s = heuristic_choose(p, opt, cap, &c)) != CLS_SUCCESS) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            return cls__fail(ctx, s, "%s%s%s", fits ? "" : fit_msg, fits ? "" : "; tiled: ", msg);
        }
    }

    struct cls__pipe *q = calloc(1, sizeof *q);
    if (!q) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "pipeline plan");
    q->scheme = c.scheme;
    q->rect = opt->pipeline_rect != 0;
    q->h = c.h;
    halo_of(p, q->halo);
    for (int d = 0; d < 3; d++) {
        q->tile[d] = c.tile[d] ? c.tile[d] : 1;
        q->ntiles[d] = (p->dims.n[d] + q->tile[d] - 1) / q->tile[d];
    }
    q->device_bytes = cls__pipe_device_bytes(p, q->scheme, q->tile, q->h);
    if ((s = build(p, q)) != CLS_SUCCESS) {
        cls__pipe_release(q);
        return s;
    }
    p->pipe = q;
    p->pipeline = mode_of(q->scheme);
    p->predicted_total = c.total_ns * 1e-9;
    p->predicted_alloc = c.alloc_ns * 1e-9;
    size_t nt = q->ntiles[0] * q->ntiles[1] * q->ntiles[2];
    char pred[400] = "";
    if (c.have_model && fits)
        snprintf(pred, sizeof pred,
                 "predicted %.4g ms against copy in, %s resident, copy out %.4g ms (%.2fx; naive "
                 "copy-compute-copy %.4g ms), allocation %.4g ms on %s",
                 c.total_ns * 1e-6, cls_schedule_name(p->schedule), resident_ns * 1e-6,
                 c.total_ns > 0 ? resident_ns / c.total_ns : 0, c.naive_ns * 1e-6,
                 c.alloc_ns * 1e-6, alloc_runs(p));
    else if (c.have_model)
        snprintf(pred, sizeof pred,
                 "predicted %.4g ms against copy-compute-copy %.4g ms (%.2fx), allocation %.4g "
                 "ms on %s",
                 c.total_ns * 1e-6, c.naive_ns * 1e-6,
                 c.total_ns > 0 ? c.naive_ns / c.total_ns : 0, c.alloc_ns * 1e-6,
                 alloc_runs(p));
    else
        snprintf(pred, sizeof pred, "no transfer tables in the device model (%.120s), tile by rule",
                 err);
    snprintf(p->pipe_why, sizeof p->pipe_why,
             "%s, tile %zux%zux%zu (%zu tiles), %zu steps per tile in %zu sweeps, %s copies: "
             "%s%s%s; %.4g MB on the device",
             cls_pipe_scheme_name(q->scheme), q->tile[0], q->tile[1], q->tile[2], nt, q->h,
             sweeps_of(p, q->h), q->rect ? "rectangular" : "merged", pred,
             opt->pipeline == CLS_PIPELINE_AUTO ? "" : " (scheme asked for)",
             fits ? "" : " (the whole grid does not fit)", q->device_bytes / 1e6);
    return CLS_SUCCESS;
}

void cls__pipe_describe(const cls_plan *p, cls_plan_info *info)
{
    info->pipeline = p->pipeline;
    info->predicted_total_seconds = p->predicted_total;
    info->predicted_copy_seconds = p->predicted_copy;
    info->predicted_alloc_seconds = p->predicted_alloc;
    snprintf(info->pipeline_why, sizeof info->pipeline_why, "%s", p->pipe_why);
    if (!p->pipe) return;
    memcpy(info->pipeline_tile, p->pipe->tile, sizeof info->pipeline_tile);
    info->pipeline_tiles = p->pipe->ntiles[0] * p->pipe->ntiles[1] * p->pipe->ntiles[2];
    info->pipeline_steps = p->pipe->h;
    info->pipeline_rect = p->pipe->rect;
}
