/* plan.c: the pipeline schedule's planner: whether and how a run from host arrays pipelines
 * (Visschers 2012, Sect. 5.5, 6): the device's memory cap, the transfer model's choice of
 * scheme, tile and steps per sweep (model/pipeline.c), or the user's, the tile kernel
 * (cl/pipeline.cl), and the operations table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "clstencil_tune.h"
#include "pipe.h"
#include "pipeline.h"
#include "schedule.h"

extern const cls__schedule_ops cls__pipeline_ops;
#define OPS (&cls__pipeline_ops)

/* The modes of the scheme parameter. */
enum { MODE_AUTO = 0, MODE_OFF = 1, MODE_BASIC = 2, MODE_SCALABLE = 3, MODE_BUFFERED = 4 };
static const char *const mode_names[] = {"auto", "off", "basic", "scalable", "buffered", NULL};

/* What the planner works with: the facts, and what it decides for the plan. */
typedef struct pl_plan {
    const cls__facts *f;
    cls_context *ctx;
    const cls_stencil *st;
    cls_dims dims;
    size_t points, elem, steps;
    int release_buffers;
    const char *resident;         /* the resident pick's schedule */
    double predicted_seconds;     /* ... and its kernels' prediction */
    double predicted_copy, predicted_total, predicted_alloc;
    char pipe_why[1024];
    cls__pipe *pipe;
} pl_plan;

/* What the caller fixed. */
typedef struct pl_request {
    int pipeline;                 /* MODE_* */
    int must;                     /* the schedule was asked for: a scheme, not off */
    int given;                    /* any of its parameters was given: the caller wants tiles */
    size_t pipeline_tile[3];
    size_t pipeline_steps;
    int pipeline_rect;
    int host_pinned;
} pl_request;

static cls_pipe_scheme scheme_of(int m)
{
    return m == MODE_BASIC      ? CLS_PIPE_BASIC
           : m == MODE_SCALABLE ? CLS_PIPE_SCALABLE
           : m == MODE_BUFFERED ? CLS_PIPE_BUFFERED
                                : CLS_PIPE_NAIVE;
}

/* The executor's scheme of the model's. */
static int exec_scheme(cls_pipe_scheme s)
{
    return s == CLS_PIPE_BASIC ? CLS__PIPE_BASIC
           : s == CLS_PIPE_SCALABLE ? CLS__PIPE_SCALABLE
                                    : CLS__PIPE_BUFFERED;
}

/* The reach of one step per dimension: the halo, or a system's sum of its stages' radii. */
static void halo_of(const pl_plan *p, size_t halo[3])
{
    int hl[3];
    cls__stencil_step_reach(p->st, hl);
    for (int d = 0; d < 3; d++) halo[d] = d < p->st->dims && hl[d] > 0 ? (size_t)hl[d] : 0;
}

static int periodic(const pl_plan *p) { return p->st->boundary == CLS_BOUNDARY_PERIODIC; }

/* Points of the largest input box (the tile plus halo x h on each side, clipped to the grid;
 * on periodic grids it reaches past the edges). */
static double box_points(const pl_plan *p, const size_t tile[3], size_t h, int padded)
{
    size_t halo[3];
    halo_of(p, halo);
    double n = 1;
    for (int d = 0; d < 3; d++) {
        size_t e = tile[d] + (padded ? 2 * halo[d] * h : 0);
        n *= (double)(e < p->dims.n[d] || (padded && periodic(p)) ? e : p->dims.n[d]);
    }
    return n;
}

/* The fields a tile carries (1 for a single-field stencil). */
static size_t n_fields(const pl_plan *p) { return cls_stencil_num_fields(p->st); }

size_t cls__pipe_work_boxes(const cls_stencil *st, size_t h)
{
    if (!cls__stencil_is_system(st)) return 0;
    /* A tile's rotation with its input boxes reserved, stepped until its buffers repeat (a
     * few steps; the highest box taken by then is the highest ever) or h steps. */
    enum { SEEN = 64 };
    int seen[SEEN][CLS__MAX_FIELDS];
    size_t most = 0, nf = st->n_fields;
    cls__rotation rot;
    cls__rotation_init(&rot, st);
    rot.reserved = (int)nf;
    for (size_t j = 0; j < h && j < SEEN; j++) {
        memcpy(seen[j], rot.at, sizeof seen[j]);
        cls__rotation_step_begin(&rot);
        for (size_t g = 0; g < st->n_stages; g++) {
            cls__rotation_stage_begin(&rot, st, g);
            for (size_t f = 0; f < nf; f++)
                if (rot.out[f] >= (int)nf && (size_t)rot.out[f] + 1 - nf > most)
                    most = (size_t)rot.out[f] + 1 - nf;
            cls__rotation_stage_end(&rot);
        }
        cls__rotation_step_end(&rot, st);
        for (size_t i = 0; i <= j; i++)
            if (!memcmp(seen[i], rot.at, sizeof rot.at)) return most;
    }
    /* no repeat seen: every buffer but the inputs can be a work box (lib/rotation.c's bound) */
    cls__rotation_init(&rot, st);
    return most > rot.n_bufs ? most : rot.n_bufs;
}

static double cls__pipe_device_bytes(const pl_plan *p, cls_pipe_scheme scheme, const size_t tile[3],
                              size_t h)
{
    double elem = (double)p->elem, grid = (double)p->points * elem;
    double in_box = box_points(p, tile, h, 1) * elem, out = box_points(p, tile, h, 0) * elem;
    double nf = (double)n_fields(p), n_in = nf + (double)p->st->n_aux;
    size_t per_dim[3], nt = 1;
    for (int d = 0; d < 3; d++) nt *= per_dim[d] = (p->dims.n[d] + tile[d] - 1) / tile[d];
    if (scheme == CLS_PIPE_NAIVE) return (n_in + nf) * grid;
    /* the basic scheme's full-size input arrays: on periodic grids padded by the input
     * boxes' reach past the edges */
    double full = grid;
    if (periodic(p)) {
        size_t halo[3];
        halo_of(p, halo);
        full = elem;
        for (int d = 0; d < 3; d++) full *= (double)(p->dims.n[d] + 2 * halo[d] * h);
    }
    if (cls__stencil_is_system(p->st)) {
        /* every field's input box (basic: full arrays, and full outputs) and the work boxes
         * its stages rotate through (exec.c) */
        double work = (double)cls__pipe_work_boxes(p->st, h);
        if (scheme == CLS_PIPE_BASIC) return n_in * full + nf * grid + work * in_box;
        double sets = nt < 3 ? (double)nt : 3;
        return sets * (n_in + work) * in_box;
    }
    /* basic: full input, aux and output arrays, plus a ping-pong pair of boxes for h > 1 */
    if (scheme == CLS_PIPE_BASIC) return n_in * full + grid + (h > 1 ? 2 * in_box : 0);
    /* scalable, buffered: up to three sets of input boxes and one output buffer (a box when
     * the tile's steps ping-pong); scalable with halo reuse and h > 1 ping-pongs through a
     * box of its own, since the next tile's halo copy reads the input box
     * (exec.c) */
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
    size_t launches;        /* per step: one, or a system's stages */
    double ns_per_point, launch_ns;
} kernel_user;

static double tile_kernel_ns(const cls_pipe_tile_info *t, void *user)
{
    const kernel_user *u = user;
    double ns = (double)u->h * (double)u->launches * u->launch_ns;
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

/* The tile kernel's rates: the baseline's measured time per point, or the minimal traffic at
 * the device's bandwidth, and a launch. */
static void kernel_rates(pl_plan *p, double *ns_per_point, double *launch_ns)
{
    const cls__facts *f = p->f;
    *ns_per_point = *launch_ns = 0;
    if (!f->model || !p->steps || !p->points) return;
    double per_point = f->profile && f->profile->naive_seconds_per_point > 0
                           ? f->profile->naive_seconds_per_point
                       : f->bandwidth > 0 ? f->min_bytes_per_point / f->bandwidth
                                          : 0;
    *ns_per_point = per_point > 0 ? per_point * 1e9 : 0;
    *launch_ns = f->restart_seconds * 1e9;
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
static int single_tile(const pl_plan *p, const choice *c)
{
    for (int d = 0; d < 3; d++)
        if (c->tile[d] && c->tile[d] < p->dims.n[d]) return 0;
    return 1;
}

/* A run's time as the planner compares it: with buffers kept, the run after the first. */
static double ranked(const pl_plan *p, double run_ns, double alloc_ns)
{
    return run_ns + (p->release_buffers ? alloc_ns : 0);
}

/* Which runs pay the allocation, for the plan's why. */
static const char *alloc_runs(const pl_plan *p)
{
    return p->release_buffers ? "every run" : "the first run";
}

static void model_grid(const pl_plan *p, size_t h, cls_pipe_grid *g)
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
    /* every field in and out (time levels change too), the aux arrays in */
    g->n_in = (unsigned)(n_fields(p) + p->st->n_aux);
    g->n_out = (unsigned)n_fields(p);
    g->steps_per_tile = h;
}

/* The candidate steps per sweep: those given, else 1, 2, 4, ... and the run's steps. */
static size_t sweep_heights(const pl_plan *p, const pl_request *opt, size_t *hs)
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

static size_t sweeps_of(const pl_plan *p, size_t h) { return (p->steps + h - 1) / h; }

/* The model's pick among the allowed schemes (one scheme when forced, every tile length or the
 * given tile) for each candidate h, by total predicted time; the executor's own buffers must fit
 * the cap too (its padded boxes for h > 1 are a little larger than the model's). */
static cls_status model_choose(pl_plan *p, const pl_request *opt,
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
    ku.launches = cls__stencil_is_system(p->st) ? p->st->n_stages : 1;
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
                if (opt->pipeline != MODE_AUTO && s != (int)scheme_of(opt->pipeline))
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
            po.schemes = opt->pipeline == MODE_AUTO
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

/* Without transfer tables, tilings are compared by the work they cost per point and step,
 * in points: what each tile copies in (its box, padded by halo x h) and out, what its h
 * launches compute (shrinking regions), and a launch's fixed cost, LAUNCH_POINTS points'
 * worth; a resident run costs about 1.  Thin tiles lose by this count: a tile thinner than its
 * padding copies and recomputes mostly halo (17x1x1 tiles at 4 steps per tile of a radius-2
 * 3D grid move thousands of points per point computed, one-plane tiles at one step five). */
#define LAUNCH_POINTS 4096.0
/* Above this cost a tiling is not worth running unless it was asked for: the run would take
 * tens of times as long as the grid's points and steps call for. */
#define MAX_TILING_COST 32.0

static double tiling_cost(const pl_plan *p, const size_t tile[3], size_t h)
{
    size_t halo[3];
    halo_of(p, halo);
    double nt = 1, compute = 0;
    for (int d = 0; d < 3; d++) nt *= (double)((p->dims.n[d] + tile[d] - 1) / tile[d]);
    for (size_t j = 1; j <= h; j++) {
        double n = 1;
        for (int d = 0; d < 3; d++) {
            double e = (double)tile[d] + 2.0 * (double)halo[d] * (double)(h - j);
            n *= e < (double)p->dims.n[d] ? e : (double)p->dims.n[d];
        }
        compute += n;
    }
    double per_sweep = nt * (box_points(p, tile, h, 1) + box_points(p, tile, h, 0) + compute +
                             (double)h * LAUNCH_POINTS);
    return (double)sweeps_of(p, h) * per_sweep / ((double)p->points * (double)p->steps);
}

/* The tile lengths tried along one axis of n points: n split into 1, 2, 3, 4, 6, 8, 12, ...
 * parts (at most 64 lengths). */
static size_t tile_lengths(size_t n, size_t *out)
{
    size_t k = 0;
    for (size_t base = 1; base <= n && k < 62; base *= 2) {
        size_t parts[2] = {base, base / 2 * 3}; /* 1; 2, 3; 4, 6; 8, 12; ... */
        for (int i = 0; i < 2; i++) {
            if (parts[i] < base || parts[i] > n || (i && base < 2)) continue;
            size_t t = (n + parts[i] - 1) / parts[i];
            if (!k || out[k - 1] != t) out[k++] = t;
        }
        if (base > SIZE_MAX / 2) break;
    }
    if (out[k - 1] != 1) out[k++] = 1;
    return k;
}

/* Without transfer tables: the scheme asked for (scalable when the grid must be tiled), and
 * the tile and steps per tile (1, 2 or 4; or as given) of the least tiling_cost among those
 * whose buffers fit the cap, with at least four tiles along the slowest axis where it has
 * them (for the copies to overlap).  A tiling above MAX_TILING_COST is refused unless the
 * pipeline was asked for. */
static cls_status heuristic_choose(pl_plan *p, const pl_request *opt, double cap, int asked,
                                   choice *c)
{
    int dims = p->st->dims;
    c->scheme = opt->pipeline == MODE_AUTO ? CLS_PIPE_SCALABLE : scheme_of(opt->pipeline);
    c->total_ns = c->rank_ns = c->naive_ns = 0;
    c->have_model = 0;
    size_t hs[3], nh = 0;
    if (opt->pipeline_steps)
        hs[nh++] = opt->pipeline_steps;
    else
        for (size_t h = 1; h <= 4 && h <= p->steps; h *= 2) hs[nh++] = h;
    if (opt->pipeline_tile[0]) {
        c->h = opt->pipeline_steps ? opt->pipeline_steps : p->steps < 4 ? p->steps : 4;
        memcpy(c->tile, opt->pipeline_tile, sizeof c->tile);
        for (int d = 0; d < 3; d++)
            if (!c->tile[d]) c->tile[d] = 1;
        double need = cls__pipe_device_bytes(p, c->scheme, c->tile, c->h);
        if (need > cap)
            return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "the %s scheme with tile %zux%zux%zu and %zu steps per tile needs "
                             "%.4g bytes of device memory, above the cap of %.4g",
                             cls_pipe_scheme_name(c->scheme), c->tile[0], c->tile[1],
                             c->tile[2], c->h, need, cap);
        return CLS_SUCCESS;
    }
    size_t len[3][64], nl[3] = {1, 1, 1};
    for (int d = 0; d < 3; d++) {
        len[d][0] = p->dims.n[d];
        if (d < dims) nl[d] = tile_lengths(p->dims.n[d], len[d]);
    }
    size_t slow = p->dims.n[dims - 1], min_parts = slow < 4 ? slow : 4;
    double best = INFINITY, least_bytes = INFINITY;
    size_t least_tile[3] = {1, 1, 1}, least_h = hs[0];
    for (size_t ih = 0; ih < nh; ih++)
        for (size_t a = 0; a < nl[0]; a++)
            for (size_t b = 0; b < nl[1]; b++)
                for (size_t e = 0; e < nl[2]; e++) {
                    size_t t[3] = {len[0][a], len[1][b], len[2][e]}, h = hs[ih];
                    if ((slow + t[dims - 1] - 1) / t[dims - 1] < min_parts) continue;
                    double need = cls__pipe_device_bytes(p, c->scheme, t, h);
                    if (need < least_bytes) {
                        least_bytes = need;
                        memcpy(least_tile, t, sizeof t);
                        least_h = h;
                    }
                    if (need > cap) continue;
                    double cost = tiling_cost(p, t, h);
                    if (cost < best) {
                        best = cost;
                        memcpy(c->tile, t, sizeof t);
                        c->h = h;
                    }
                }
    char b1[32], b2[32];
    if (!isfinite(best))
        return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "no tiling fits: the smallest (the %s scheme, tile %zux%zux%zu, %zu "
                         "steps per tile) needs %s of device memory, above the cap of %s",
                         cls_pipe_scheme_name(c->scheme), least_tile[0], least_tile[1],
                         least_tile[2], least_h, cls__bytes_text(b1, sizeof b1, least_bytes),
                         cls__bytes_text(b2, sizeof b2, cap));
    if (best > MAX_TILING_COST && !asked)
        return cls__fail(p->ctx, CLS_ERR_TOO_LARGE,
                         "no tiling worth running fits the cap of %s: the best (the %s scheme, "
                         "tile %zux%zux%zu, %zu steps per tile) copies and computes %.0f times "
                         "the points of a resident run (ask for the pipeline to run it anyway, "
                         "or allow more device memory)",
                         cls__bytes_text(b1, sizeof b1, cap), cls_pipe_scheme_name(c->scheme),
                         c->tile[0], c->tile[1], c->tile[2], c->h, best);
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- setting up */
static cls_status build_pipe(const cls__facts *f, cls__pipe *q)
{
    cls_context *ctx = f->ctx;
    cls__built b = {0};
    cls_status s = CLS_SUCCESS;
    if (q->n_stages) {
        /* a system: one program per stage; stage 0's kernel stands for the work-group */
        q->from_cache = 1;
        q->build_seconds = 0;
        for (size_t g = 0; g < q->n_stages && s == CLS_SUCCESS; g++) {
            cls__built bs = {0};
            s = cls__build_stage_kernel(f, g, "pipeline_system.cl", "#define CLS_BOX 1",
                                        "cls_pipe_stage", 0, &bs);
            q->stage_kernel[g] = bs.kernel;
            if (g == 0) q->program = bs.program;
            q->from_cache = q->from_cache && bs.from_cache;
            q->build_seconds += bs.build_seconds;
        }
        q->kernel = q->stage_kernel[0];
    } else {
        s = cls__build_kernel(f, "pipeline.cl", "#define CLS_BOX 1", CLS__UPDATE_BOX, "cls_pipe",
                              0, &b);
        q->program = b.program;
        q->kernel = b.kernel;
        q->from_cache = b.from_cache;
        q->build_seconds = b.build_seconds;
    }
    if (s != CLS_SUCCESS) return s;
    cls__choose_local_size(f, q->kernel, 1, 0, q->local);
    for (int i = 0; i < 3; i++) {
        cl_int err;
        q->q[i] = clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err, "creating the pipeline's command queues");
    }
    return CLS_SUCCESS;
}

static void release(void *config)
{
    cls__pipe *q = config;
    if (!q) return;
    cls__pipe_bufs_release(q);
    if (q->n_stages) {
        for (size_t g = 0; g < q->n_stages; g++)
            if (q->stage_kernel[g]) clReleaseKernel(q->stage_kernel[g]);
    } else if (q->kernel) {
        clReleaseKernel(q->kernel);
    }
    for (int i = 0; i < 3; i++)
        if (q->q[i]) clReleaseCommandQueue(q->q[i]);
    free(q);
}

static cls_status check_options(pl_plan *p, const pl_request *opt)
{
    cls_context *ctx = p->ctx;
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
    if (opt->pipeline == MODE_OFF && (any || opt->pipeline_steps))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "a pipeline tile or steps per tile were given with the pipeline off");
    return CLS_SUCCESS;
}

/* The run without a pipeline: one upload and one download by the transfer tables (the
 * allocation is counted apart, c.naive_alloc_ns), and the kernels of the schedule the plan
 * runs resident (its own prediction, p->predicted_seconds).  Without that prediction, the
 * baseline's copy-compute-copy.  A pipeline re-sends the grid every sweep and runs the
 * one-point tile kernel, so with many steps the resident schedule usually wins; comparing
 * against the baseline's copy-compute-copy alone picked the pipeline for poisson2d 8192^2 x 100
 * on the H100 (401 us per step against 86.6 resident). */
static double resident_ns_of(double xfer_ns, double naive_ns, double predicted_seconds)
{
    return predicted_seconds > 0 && xfer_ns > 0 ? xfer_ns + predicted_seconds * 1e9 : naive_ns;
}

/* Whether and how the request pipelines: p->pipe (a configuration to build) and its
 * predictions, or none with p->pipe_why saying why. */
static cls_status decide(pl_plan *p, const pl_request *opt)
{
    const cls__facts *f = p->f;
    cls_context *ctx = p->ctx;
    cls_status s;
    const cls_model *m = f->model;
    cls_pipe_device dev;
    char err[512];
    choice c;
    double resident_ns = 0;
    /* a scheme given, or the schedule asked for: the run pipelines or the plan fails */
    const int asked = opt->must || (opt->pipeline != MODE_AUTO && opt->pipeline != MODE_OFF);
    const char *asked_name = opt->pipeline > MODE_OFF ? mode_names[opt->pipeline] : "tiled";
    memset(&c, 0, sizeof c);
    if ((s = check_options(p, opt)) != CLS_SUCCESS) return s;

    double cap = f->device_cap;
    int fits = f->fits;
    const char *fit_msg = f->fit_error ? f->fit_error : "";
    if (!fits && opt->pipeline == MODE_OFF)
        return cls__fail(ctx, CLS_ERR_TOO_LARGE, "%s, and the pipeline is off", fit_msg);

    /* What the tiles cannot do: per-step arrays. */
    const char *cannot = NULL;
    for (size_t k = 0; k < p->st->n_aux && !cannot; k++)
        if (p->st->aux[k].per_step) cannot = "per-step auxiliary arrays are not tiled";
    if (!p->steps) cannot = "a run of 0 steps moves nothing";

    /* Above the device, the run is host-resident: its host arrays must fit the host, unless
     * the caller asked for the pipeline or set its parameters (arrays it maps from files,
     * say). */
    if (!fits && !asked && !opt->given && !cannot) {
        double grid = (double)p->points * (double)p->elem, need = 2 * (double)n_fields(p) * grid;
        for (size_t k = 0; k < p->st->n_aux; k++)
            need += p->st->aux[k].per_step ? grid * (double)p->steps : grid;
        double host = cls__host_memory_bytes();
        char b1[32], b2[32];
        if (host > 0 && need > host)
            return cls__fail(ctx, CLS_ERR_TOO_LARGE,
                             "%s; a host-resident run needs %s of host arrays, and the host has "
                             "%s of memory (ask for the pipeline to tile arrays that live "
                             "elsewhere, such as mapped files)",
                             fit_msg, cls__bytes_text(b1, sizeof b1, need),
                             cls__bytes_text(b2, sizeof b2, host));
    }

    /* The transfer model of the device, when it has the tables. */
    int have_model = m && cls_pipe_device_from_model(m, opt->host_pinned, &dev) == CLS_SUCCESS;
    if (!have_model) snprintf(err, sizeof err, "%s", m ? cls_last_error() : "no device model");

    if (cannot) {
        if (!fits)
            return cls__fail(ctx, CLS_ERR_TOO_LARGE, "%s; tiles cannot help: %s", fit_msg, cannot);
        if (asked)
            return cls__fail(ctx, CLS_ERR_UNSUPPORTED, "the %s pipeline: %s", asked_name, cannot);
        snprintf(p->pipe_why, sizeof p->pipe_why, "off: %s", cannot);
        return CLS_SUCCESS;
    }
    if (opt->pipeline == MODE_OFF) {
        if (have_model && model_choose(p, opt, &dev, INFINITY, &c) == CLS_SUCCESS) {
            p->predicted_copy = p->predicted_total =
                resident_ns_of(c.xfer_ns, c.naive_ns, p->predicted_seconds) * 1e-9;
            p->predicted_alloc = c.naive_alloc_ns * 1e-9;
        }
        snprintf(p->pipe_why, sizeof p->pipe_why, "off: asked for");
        return CLS_SUCCESS;
    }
    if (have_model) {
        if ((s = model_choose(p, opt, &dev, cap, &c)) != CLS_SUCCESS) {
            if (!asked && fits) {
                snprintf(p->pipe_why, sizeof p->pipe_why, "off: no pipeline fits (%.400s)",
                         cls_last_error());
                return CLS_SUCCESS;
            }
            char msg[600];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            return cls__fail(ctx, s, "%s%s%s", fits ? "" : fit_msg, fits ? "" : "; tiled: ", msg);
        }
        /* Within the device the alternative is the resident plan, not the baseline's
         * copy-compute-copy (above the cap there is none; a scheme asked for is taken as
         * asked). */
        if (fits) {
            resident_ns = resident_ns_of(c.xfer_ns, c.naive_ns, p->predicted_seconds);
            p->predicted_copy = resident_ns * 1e-9;
        } else {
            p->predicted_copy = c.naive_ns * 1e-9;
        }
        /* A grid that fits stays resident, besides where the resident run is predicted no
         * slower, (a) when the best pipeline is one tile: it has nothing to overlap and would
         * only swap the schedule's kernel for the tile kernel; (b) where the device model says
         * so (CPUs: the tile kernel, one point per work-item, runs far slower there than the
         * schedule's row kernel, which the model's compute times are: PoCL, hotspot 2048^2,
         * 14.7 against 1.95 ms per step; and host and device share the memory anyway). */
        const char *keep = NULL;
        if (fits && single_tile(p, &c))
            keep = "the best pipeline is one tile, which overlaps nothing";
        else if (fits && cls__facts_model(f, "tuning.pipeline_when_fits") == 0)
            keep = "on a CPU device by its model (tuning.pipeline_when_fits 0) the tile kernel "
                   "runs far slower than the schedule's";
        if (!asked && fits && keep) {
            p->predicted_total = resident_ns * 1e-9;
            p->predicted_alloc = c.naive_alloc_ns * 1e-9;
            snprintf(p->pipe_why, sizeof p->pipe_why,
                     "off: copy in, %s resident, copy out predicted %.4g ms (%.4g ms of kernels); "
                     "%s (%s, tile %zux%zux%zu, %zu steps per tile, %.4g ms)",
                     p->resident, resident_ns * 1e-6, p->predicted_seconds * 1e3, keep,
                     cls_pipe_scheme_name(c.scheme), c.tile[0], c.tile[1], c.tile[2], c.h,
                     c.total_ns * 1e-6);
            return CLS_SUCCESS;
        }
        if (!asked && fits && ranked(p, resident_ns, c.naive_alloc_ns) <= c.rank_ns) {
            p->predicted_total = resident_ns * 1e-9;
            p->predicted_alloc = c.naive_alloc_ns * 1e-9;
            snprintf(p->pipe_why, sizeof p->pipe_why,
                     "off: copy in, %s resident, copy out predicted %.4g ms (%.4g ms of kernels, "
                     "the baseline's copy-compute-copy %.4g ms), the best pipeline (%s, tile "
                     "%zux%zux%zu, %zu steps per tile) %.4g ms; allocation %.4g against %.4g ms "
                     "(%s)",
                     p->resident, resident_ns * 1e-6, p->predicted_seconds * 1e3,
                     c.naive_ns * 1e-6, cls_pipe_scheme_name(c.scheme), c.tile[0], c.tile[1],
                     c.tile[2], c.h, c.total_ns * 1e-6, c.naive_alloc_ns * 1e-6,
                     c.alloc_ns * 1e-6, alloc_runs(p));
            return CLS_SUCCESS;
        }
    } else {
        if (!asked && fits) {
            snprintf(p->pipe_why, sizeof p->pipe_why,
                     "off: the device model has no transfer tables (%.400s)", err);
            return CLS_SUCCESS;
        }
        if ((s = heuristic_choose(p, opt, cap, asked || opt->given, &c)) != CLS_SUCCESS) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            return cls__fail(ctx, s, "%s%s%s", fits ? "" : fit_msg, fits ? "" : "; tiled: ", msg);
        }
    }

    cls__pipe *q = calloc(1, sizeof *q);
    if (!q) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "pipeline plan");
    q->scheme = exec_scheme(c.scheme);
    q->rect = opt->pipeline_rect != 0;
    q->h = c.h;
    halo_of(p, q->halo);
    q->n_fields = n_fields(p);
    q->periodic = periodic(p);
    if (cls__stencil_is_system(p->st)) {
        q->n_stages = p->st->n_stages;
        for (size_t g = 0; g < q->n_stages; g++) {
            int rg[3];
            if ((s = cls__system_stage_reach(p->st, g, rg)) != CLS_SUCCESS) {
                free(q);
                return s;
            }
            for (int d = 0; d < 3; d++) q->reach[g][d] = d < p->st->dims && rg[d] > 0 ? (size_t)rg[d] : 0;
        }
        q->work = cls__pipe_work_boxes(p->st, q->h);
    }
    for (int d = 0; d < 3; d++) {
        q->tile[d] = c.tile[d] ? c.tile[d] : 1;
        q->ntiles[d] = (p->dims.n[d] + q->tile[d] - 1) / q->tile[d];
    }
    /* Halo reuse (basic and scalable): when every dimension but the slowest has one tile, tile
     * t - 1 precedes tile t along that axis and both input boxes span the grid in the others,
     * so their overlap is whole planes (rows in 2D), one contiguous range in either buffer.
     * The buffered scheme stages whole boxes through its host tiles. */
    q->reuse = c.scheme == CLS_PIPE_BUFFERED ? -1 : cls_pipe_reuse_axis(p->st->dims, q->ntiles);
    q->device_bytes = cls__pipe_device_bytes(p, c.scheme, q->tile, q->h);
    p->pipe = q;
    p->predicted_total = c.total_ns * 1e-9;
    p->predicted_alloc = c.alloc_ns * 1e-9;
    size_t nt = q->ntiles[0] * q->ntiles[1] * q->ntiles[2];
    char pred[400] = "";
    if (c.have_model && fits)
        snprintf(pred, sizeof pred,
                 "predicted %.4g ms against copy in, %s resident, copy out %.4g ms (%.2fx; the "
                 "baseline's copy-compute-copy %.4g ms), allocation %.4g ms on %s",
                 c.total_ns * 1e-6, p->resident, resident_ns * 1e-6,
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
    snprintf(q->why, sizeof q->why,
             "%s, tile %zux%zux%zu (%zu tiles), %zu steps per tile in %zu sweeps, %s copies: "
             "%s%s%s; %.4g MB on the device",
             cls_pipe_scheme_name(c.scheme), q->tile[0], q->tile[1], q->tile[2], nt, q->h,
             sweeps_of(p, q->h), q->rect ? "rectangular" : "merged", pred,
             asked ? " (scheme asked for)" : "", fits ? "" : " (the whole grid does not fit)",
             q->device_bytes / 1e6);
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- the operations */
static const cls__param_desc params[] = {
    {"scheme", CLS__PARAM_NAME, 0, 0, mode_names,
     "how runs from host arrays move the grid: auto (the transfer model decides), off (copy "
     "in, compute resident, copy out), basic, scalable, buffered (Visschers 2012 Sect. 6.2)"},
    {"tile", CLS__PARAM_SIZES, 1, (size_t)1 << 30, NULL,
     "the output tile per dimension (absent: chosen by the model)"},
    {"steps", CLS__PARAM_SIZE, 1, (size_t)1 << 31, NULL,
     "steps each tile computes per sweep (absent: chosen by the model)"},
    {"rect", CLS__PARAM_SIZE, 0, 1, NULL,
     "1: rectangular copies even where a tile is contiguous (Sect. 6.2.3's merge off)"},
    {NULL, 0, 0, 0, NULL, NULL}};

static cls_status candidates(cls__facts *f, int forced, cls__candidates *out)
{
    pl_plan p;
    pl_request r;
    size_t v[3];
    memset(&p, 0, sizeof p);
    memset(&r, 0, sizeof r);
    p.f = f;
    p.ctx = f->ctx;
    p.st = f->st;
    p.dims = f->dims;
    p.points = f->points;
    p.elem = f->elem;
    p.steps = f->steps;
    p.release_buffers = f->release_buffers;
    p.resident = f->resident ? f->resident : "none";
    p.predicted_seconds = f->resident_seconds;
    if (cls__param_get(f->params, OPS, "scheme", v)) r.pipeline = (int)v[0], r.given = 1;
    if (cls__param_get(f->params, OPS, "tile", v)) memcpy(r.pipeline_tile, v, sizeof v), r.given = 1;
    if (cls__param_get(f->params, OPS, "steps", v)) r.pipeline_steps = v[0], r.given = 1;
    if (cls__param_get(f->params, OPS, "rect", v)) r.pipeline_rect = (int)v[0], r.given = 1;
    r.must = forced == CLS__FORCED_BY_NAME && r.pipeline == MODE_AUTO;
    r.host_pinned = f->host_pinned;
    cls_status s = decide(&p, &r);
    if (s != CLS_SUCCESS) return s;
    s = p.pipe ? cls__candidate_add(out, OPS, p.pipe, CLS__RANK_PREFERRED, 0, "%s", p.pipe->why)
               : cls__candidate_add(out, OPS, NULL, CLS__RANK_DECLINED, 0, "%s", p.pipe_why);
    if (s != CLS_SUCCESS) return s;
    cls__candidate *c = &out->c[out->n - 1];
    c->total_seconds = p.pipe ? p.predicted_total : 0;
    c->alloc_seconds = p.pipe ? p.predicted_alloc : 0;
    c->copy_seconds = p.predicted_copy;
    c->copy_alloc_seconds = p.pipe ? 0 : p.predicted_alloc;
    if (!p.pipe && !c->copy_seconds) c->copy_seconds = p.predicted_total;
    return CLS_SUCCESS;
}

static cls_status build(const cls__facts *f, cls__candidate *cand)
{
    return build_pipe(f, cand->config);
}

static void describe(const void *config, cls__description *d)
{
    const cls__pipe *q = config;
    static const char *const scheme[] = {"off", "basic", "scalable", "buffered"};
    memcpy(d->local, q->local, sizeof d->local);
    d->global[0] = d->global[1] = d->global[2] = 0;
    d->from_cache = q->from_cache;
    d->build_seconds = q->build_seconds;
    cls__describe_param(d, OPS, "scheme", "%s", scheme[q->scheme & 3]);
    cls__describe_param(d, OPS, "tile", "%zux%zux%zu", q->tile[0], q->tile[1], q->tile[2]);
    cls__describe_param(d, OPS, "steps", "%zu", q->h);
    cls__describe_param(d, OPS, "rect", "%d", q->rect);
    cls__describe_param(d, OPS, "tiles", "%zu", q->ntiles[0] * q->ntiles[1] * q->ntiles[2]);
}


const cls__schedule_ops cls__pipeline_ops = {
    .name = "pipeline",
    .id = CLS_SCHEDULE_PIPELINE,
    .flags = CLS__SCHED_HOST,
    .summary = "runs from host arrays and grids above the device's memory: tiles copied in, "
               "advanced and copied out while others transfer (Visschers 2012)",
    .params = params,
    .candidates = candidates,
    .build = build,
    .run = cls__pipeline_run,
    .describe = describe,
    .release_buffers = cls__pipe_bufs_release,
    .release = release,
};
