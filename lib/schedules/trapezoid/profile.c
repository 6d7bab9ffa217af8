/* profile.c: per-stencil ghost-zone profiles (Meng & Skadron 2010, Sect. 4.3, 5.4.2):
 * InstsPerSM_MC and InstsPerSM_IC from the timing of generated trapezoid kernel variants on a
 * small input, the tile-load efficiency and the baseline schedule's rate on a larger one; cached
 * on disk per stencil source, device and driver. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil_model.h"
#include "fit.h"
#include "planner.h"

/* Bump when the measurement or the file changes: old entries then miss. */
#define PROFILE_FORMAT "libclstencil ghost-zone profile v3"
/* Loop counts of the compute-only variant (the document comments code out; we vary k). */
static const int prof_k[] = {0, 1, 2, 4, 8};
#define N_K (sizeof prof_k / sizeof prof_k[0])
#define MAX_K 8

/* ---------------------------------------------------------------- document profiles */
cls_status cls_ghost_profile_document(const char *name, cls_ghost_profile *p)
{
    const cls_gz_app *a = cls_gz_app_find(name);
    if (!p) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_ghost_profile_document: NULL");
    if (!a)
        return cls__fail(NULL, CLS_ERR_UNKNOWN_STENCIL,
                         "Meng & Skadron 2010 (Table 2) profile pathfinder, hotspot, poisson2d and "
                         "cell3d, not '%s'",
                         name ? name : "(null)");
    memset(p, 0, sizeof *p);
    p->dims = a->profile.D;
    for (int i = 0; i < 3; i++) p->halo_width[i] = a->profile.HaloWidth[i];
    p->num_stencil_arrays = a->profile.NumStencilArrays;
    p->num_elem_per_op = a->profile.NumElemPerOp;
    p->n = a->profile.N;
    p->insts_per_sm_mc = a->profile.InstsPerSM_MC;
    p->insts_per_sm_ic = a->profile.InstsPerSM_IC;
    p->bank_conflict_rate = a->profile.BankConflictRate;
    p->elem_bytes = a->profile.x;
    for (int i = 0; i < 3; i++) p->tile[i] = (size_t)a->fig7.blk_len[i];
    p->points_per_item = 1;
    snprintf(p->source, sizeof p->source,
             "Meng & Skadron 2010 Table 2 (%s on the GTX 280, CUDA profiler instruction counts)",
             a->profile.name);
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- timing */
/* Median device time of `reps` launches (after one untimed), and their (p90 - p10) / median. */
static cls_status time_kernel(cls_context *ctx, cl_kernel k, const size_t global[3],
                              const size_t local[3], cl_uint work_dim, size_t reps,
                              double *median, double *spread)
{
    double t[16];
    cl_int err;
    if (reps > 16) reps = 16;
    err = clEnqueueNDRangeKernel(ctx->queue, k, work_dim, NULL, global, local, 0, NULL, NULL);
    if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "profiling launch");
    for (size_t r = 0; r < reps; r++) {
        cl_event ev = NULL;
        err = clEnqueueNDRangeKernel(ctx->queue, k, work_dim, NULL, global, local, 0, NULL, &ev);
        if (err == CL_SUCCESS) err = clWaitForEvents(1, &ev);
        t[r] = err == CL_SUCCESS ? cls__event_span(ev, ev) : 0;
        if (ev) clReleaseEvent(ev);
        if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "profiling launch");
    }
    *median = cls__median(t, reps);
    *spread = *median > 0 ? (t[(reps * 9) / 10 < reps ? (reps * 9) / 10 : reps - 1] -
                             t[reps / 10]) / *median
                          : 0;
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- the measurement */
/* A grid of about `tiles` tiles of h = 1, as square as the dimensionality allows.  A tile
 * loses a step's reach per step on each side: the halo, or for a system the sum of its stages'
 * radii. */
static cls_dims grid_of(const cls_stencil *st, const size_t tile[3], double tiles)
{
    int halo[3];
    cls_dims g = {{1, 1, 1}};
    double per = ceil(pow(tiles, 1.0 / st->dims) - 1e-9);
    cls__stencil_step_reach(st, halo);
    for (int i = 0; i < st->dims; i++) g.n[i] = (size_t)per * (tile[i] - 2 * (size_t)halo[i]);
    return g;
}

/* Device buffers of one measurement: every field's state in/out (one for a single field) and
 * the auxiliary arrays (per-step arrays with `slices` slices), filled with a constant so that
 * no denormal or NaN slows anything. */
typedef struct prof_bufs {
    cl_mem in[CLS__MAX_FIELDS], out[CLS__MAX_FIELDS], aux[16];
    size_t n_fields, n_aux;
    int system;
    double elem;
} prof_bufs;

static void bufs_release(prof_bufs *b)
{
    for (size_t f = 0; f < b->n_fields; f++) {
        if (b->in[f]) clReleaseMemObject(b->in[f]);
        if (b->out[f]) clReleaseMemObject(b->out[f]);
    }
    for (size_t k = 0; k < b->n_aux; k++)
        if (b->aux[k]) clReleaseMemObject(b->aux[k]);
    memset(b, 0, sizeof *b);
}

static cls_status bufs_make(cls_context *ctx, const cls_stencil *st, size_t points,
                            size_t out_min, size_t slices, prof_bufs *b)
{
    size_t es = cls_dtype_size(st->dtype);
    float f = 0.5f;
    double dv = 0.5;
    const void *pat = es == 8 ? (const void *)&dv : (const void *)&f;
    cl_int err = CL_SUCCESS;
    memset(b, 0, sizeof *b);
    b->n_aux = st->n_aux;
    b->system = cls__stencil_is_system(st);
    b->elem = (double)es;
    size_t outn = points > out_min ? points : out_min;
    for (size_t i = 0; err == CL_SUCCESS && i < (b->system ? st->n_fields : 1); i++) {
        b->n_fields = i + 1;
        b->in[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, points * es, NULL, &err);
        if (err == CL_SUCCESS)
            b->out[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, outn * es, NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, b->in[i], pat, es, 0, points * es, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, b->out[i], pat, es, 0, outn * es, 0, NULL, NULL);
    }
    for (size_t k = 0; err == CL_SUCCESS && k < st->n_aux; k++) {
        size_t n = points * (st->aux[k].per_step ? slices : 1);
        b->aux[k] = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, n * es, NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, b->aux[k], pat, es, 0, n * es, 0, NULL, NULL);
    }
    if (err == CL_SUCCESS) err = clFinish(ctx->queue);
    if (err != CL_SUCCESS) {
        bufs_release(b);
        return cls__fail(ctx, (cls_status)err,
                         "allocating the profiling buffers (%zu points of '%s')", points,
                         st->name);
    }
    return CLS_SUCCESS;
}

/* The profiling kernel's arguments (cl/trapezoid.cl): the int arguments step0, hs, h, io and
 * limit, `never` (a NaN: a value no result takes) and for a system the stage computed alone
 * (`only`, -1: every stage).  A single field takes in, out, aux..., ints, never; a system
 * in0.., out0.., ints, only, never, aux.... */
static cl_int set_args(cl_kernel k, const prof_bufs *b, const int ints[5], int only)
{
    cl_uint a = 0;
    cl_int err = CL_SUCCESS;
    double nan_d = NAN;
    float nan_f = NAN;
    for (size_t f = 0; err == CL_SUCCESS && f < b->n_fields; f++)
        err = clSetKernelArg(k, a++, sizeof(cl_mem), &b->in[f]);
    for (size_t f = 0; err == CL_SUCCESS && f < b->n_fields; f++)
        err = clSetKernelArg(k, a++, sizeof(cl_mem), &b->out[f]);
    for (size_t i = 0; !b->system && err == CL_SUCCESS && i < b->n_aux; i++)
        err = clSetKernelArg(k, a++, sizeof(cl_mem), &b->aux[i]);
    for (size_t i = 0; err == CL_SUCCESS && i < 5; i++)
        err = clSetKernelArg(k, a++, sizeof(cl_int), &ints[i]);
    if (b->system && err == CL_SUCCESS) err = clSetKernelArg(k, a++, sizeof(cl_int), &only);
    if (err == CL_SUCCESS)
        err = b->elem == 8 ? clSetKernelArg(k, a++, sizeof nan_d, &nan_d)
                           : clSetKernelArg(k, a++, sizeof nan_f, &nan_f);
    for (size_t i = 0; b->system && err == CL_SUCCESS && i < b->n_aux; i++)
        err = clSetKernelArg(k, a++, sizeof(cl_mem), &b->aux[i]);
    return err;
}

/* The defines of the profiling variant of the profiled tile. */
static void profile_defines(const cls_context *ctx, const cls_model *m, const cls_stencil *st,
                            const size_t tile[3], size_t *ppi, size_t wg[3], char *buf, size_t len)
{
    int ghost[3];
    *ppi = cls__trapezoid_default_ppi(&ctx->info, m, st, tile);
    memcpy(wg, tile, 3 * sizeof *wg);
    wg[st->dims - 1] /= *ppi;
    int n = snprintf(buf, len,
                     "#define CLS_TILE_X %zu\n#define CLS_TILE_Y %zu\n#define CLS_TILE_Z %zu\n"
                     "#define CLS_WG_X %zu\n#define CLS_WG_Y %zu\n#define CLS_WG_Z %zu\n"
                     "#define CLS_PPI %zu\n#define CLS_PROFILE 1\n",
                     tile[0], tile[1], tile[2], wg[0], wg[1], wg[2], *ppi);
    /* A system's tile loses the sum of its stages' radii per step, as in the schedule's own
     * kernel (plan.c). */
    cls__stencil_step_reach(st, ghost);
    if (cls__stencil_is_system(st) && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n,
                 "#define CLS_GHOST_X %d\n#define CLS_GHOST_Y %d\n#define CLS_GHOST_Z %d\n",
                 ghost[0], ghost[1], ghost[2]);
}

/* The profiling grid: enough tiles to fill every compute unit many times (Sect. 4.3: "a
 * minimum input size big enough to occupy all the SMs") and a state several times the
 * global-memory cache, so that the tile loads come from memory as in the runs the model
 * predicts; or the size the device model asks for (CPUs: 8 MiB, which keeps the measurement
 * to a few seconds). */
static cls_dims profile_grid(const cls_context *ctx, const cls_model *m, const cls_stencil *st,
                             const size_t tile[3])
{
    const cls_device_info *d = &ctx->info;
    cl_ulong cache = 0;
    double bytes = 0, inner = 1, cu = d->compute_units ? d->compute_units : 1;
    int halo[3];
    if (m) cls_model_get(m, "tuning.profile_grid_bytes", &bytes);
    if (!(bytes > 0)) {
        clGetDeviceInfo(ctx->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
        bytes = 4.0 * (double)cache;
        if (bytes < 128.0 * (1 << 20)) bytes = 128.0 * (1 << 20);
        if (bytes > 512.0 * (1 << 20)) bytes = 512.0 * (1 << 20);
    }
    if (bytes > (double)d->max_alloc_bytes / 2) bytes = (double)d->max_alloc_bytes / 2;
    if (bytes > (double)d->global_mem_bytes / 16) bytes = (double)d->global_mem_bytes / 16;
    /* a system's fields share the bytes (each field's array is as large as the grid) */
    if (cls__stencil_is_system(st)) bytes /= (double)st->n_fields;
    cls__stencil_step_reach(st, halo);
    for (int i = 0; i < st->dims; i++) inner *= (double)(tile[i] - 2 * (size_t)halo[i]);
    double tiles = bytes / (double)cls_dtype_size(st->dtype) / inner;
    if (tiles < 8 * cu) tiles = 8 * cu;
    return grid_of(st, tile, tiles < 16 ? 16 : tiles);
}

/* Least squares t = t0 + k t1 over the loop counts; the RMS residual relative to the mean. */
static void fit_loops(const double *t, double *t0, double *t1, double *rel)
{
    double k[N_K], mean = 0, rms;
    for (size_t i = 0; i < N_K; i++) {
        k[i] = prof_k[i];
        mean += t[i] / (double)N_K;
    }
    cls__fit_line(k, t, N_K, t0, t1, NULL, &rms);
    *rel = mean > 0 ? rms / mean : 0;
}

/* Times the compute-only variant (io = 0) for every k with `groups` work-groups (0: one per
 * tile), every stage of a system or stage `only` alone. */
static cls_status time_compute(cls_context *ctx, cl_kernel k, const prof_bufs *b,
                               const size_t wg[3], size_t tiles, size_t groups, int only,
                               size_t reps, double t[N_K], double *spread)
{
    size_t global[3] = {(groups ? groups : tiles) * wg[0], wg[1], wg[2]};
    double sp;
    *spread = 0;
    for (size_t i = 0; i < N_K; i++) {
        int ints[5] = {0, prof_k[i], 1, 0, INT_MAX};
        cl_int err = set_args(k, b, ints, only);
        if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "profiling kernel arguments");
        cls_status s = time_kernel(ctx, k, global, wg, 3, reps, &t[i], &sp);
        if (s != CLS_SUCCESS) return s;
        if (sp > *spread) *spread = sp;
    }
    return CLS_SUCCESS;
}

/* The tiles of a stage of height h on grid g. */
static size_t tiles_of(const cls_stencil *st, cls_dims g, const size_t tile[3], size_t h)
{
    int halo[3];
    size_t n = 1;
    cls__stencil_step_reach(st, halo);
    for (int i = 0; i < st->dims; i++) {
        size_t inner = tile[i] - 2 * h * (size_t)halo[i];
        n *= (g.n[i] + inner - 1) / inner;
    }
    return n;
}

/* The model's cycles of one stage of height h without its synchronisation (what a launch's
 * events time), for the profile with the given alpha. */
static double stage_cycles(const cls_model *m, cls_ghost_profile *p, cls_dims g,
                           const size_t tile[3], size_t h, double alpha)
{
    cls_gz_device d;
    cls_gz_profile gp;
    cls_gz_config c;
    cls_gz_sync gs;
    double keep = p->alpha;
    p->alpha = alpha;
    cls__gz_config(p, g, tile, (double)h, CLS_GZ_KNL_RESTART, &c);
    cls_status s = cls__gz_inputs(m, p, CLS_GHOST_EXECUTOR, CLS_SYNC_RESTART, 0, &d, &gp, &gs);
    p->alpha = keep;
    if (s != CLS_SUCCESS) return 0;
    return cls_gz_CPS(&d, &gp, &c) - cls_gz_GlbSync_KnlRestart(&d);
}

static cls_status measure(cls_context *ctx, const cls_stencil *st, cls_ghost_profile *out)
{
    const cls_model *m = NULL;
    cls_gz_device dev;
    cls_gz_profile gzp;
    cls_gz_sync gs;
    cls__built built = {0};
    prof_bufs b = {0};
    size_t tile[3], wg[3], ppi, reps = 7, tiles = 1;
    size_t alloc = 1, groups, heights[3], n_heights = 0;
    char defines[512], err[256];
    double t_r[N_K], t_p[N_K], sp_r = 0, sp_p = 0, sp, t_fixed = 0, t_real[3] = {0, 0, 0};
    double t_naive = 0, t0, t1, fe_r, fe_p, p0, p1, t_stage[16][N_K];
    double start = cls__now();
    int halo[3], margin[3];
    cls_status s;
    /* the reach a tile loses per step (a system: its stages' radii summed), and the margin of
     * its buffers (one halo) */
    cls__stencil_step_reach(st, halo);
    cls_stencil_halo(st, margin);

    if ((s = cls__context_model(ctx, &m)) != CLS_SUCCESS) goto done;
    {
        double r = 0;
        cls_model_get(m, "tuning.profile_reps", &r);
        if (r >= 1 && r <= 16) reps = (size_t)r;
    }
    memset(out, 0, sizeof *out);
    cls__profile_shape(st, out);
    cls__trapezoid_profile_tile(&ctx->info, m, st, tile);
    if (!cls__trapezoid_fits(&ctx->info, m, st, tile,
                             cls__trapezoid_default_ppi(&ctx->info, m, st, tile), err,
                             sizeof err)) {
        s = cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                      "profiling '%s': no trapezoid tile fits '%s' (%s)", st->name,
                      ctx->info.name, err);
        goto done;
    }
    profile_defines(ctx, m, st, tile, &ppi, wg, defines, sizeof defines);
    const cls_dims grid = profile_grid(ctx, m, st, tile);
    const size_t points = cls_dims_points(grid);
    {
        cls__facts f = {.ctx = ctx, .dev = &ctx->info, .st = st, .dims = grid, .steps = MAX_K,
                        .points = points, .elem = cls_dtype_size(st->dtype), .model = m};
        if ((s = cls__build_kernel(&f, "trapezoid.cl", defines, CLS__UPDATE_TILE,
                                   "cls_trapezoid_profile", 0, &built)) != CLS_SUCCESS)
            goto done;
    }
    cl_kernel kernel = built.kernel;
    tiles = tiles_of(st, grid, tile, 1);
    for (int i = 0; i < 3; i++) alloc *= tile[i] + 2 * (size_t)(i < st->dims ? margin[i] : 0);
    if ((s = bufs_make(ctx, st, points, alloc, MAX_K, &b)) != CLS_SUCCESS) goto done;
    groups = ctx->info.compute_units ? ctx->info.compute_units : 1;
    if (groups > tiles) groups = tiles;
    /* The heights of the whole-kernel runs: 1, 2 and 4 where the tile leaves an inner block. */
    for (size_t h = 1; h <= 4 && n_heights < 3; h *= 2) {
        int fits = 1;
        for (int i = 0; i < st->dims; i++) fits &= tile[i] > 2 * h * (size_t)halo[i];
        if (fits) heights[n_heights++] = h;
    }
    if (n_heights == 2 && tile[0] > 6 * (size_t)halo[0]) heights[n_heights++] = 3;

    /* 1. The computation alone (Sect. 4.3): t(k) for k loops over every tile of h = 1, with
     *    one group per tile (restart kernel) and with one resident group per compute unit
     *    (persistent kernel); the intercept is MiscComp, the slope IterComp per loop. */
    if ((s = time_compute(ctx, kernel, &b, wg, tiles, 0, -1, reps, t_r, &sp_r)) != CLS_SUCCESS ||
        (s = time_compute(ctx, kernel, &b, wg, tiles, groups, -1, reps, t_p, &sp_p)) !=
            CLS_SUCCESS)
        goto done;
    /*    A system of several stages: each stage alone, for its own IterComp (the model's
     *    Eq. 16 per stage); the intercepts repeat MiscComp. */
    for (int g = 0; g < out->num_stages && out->num_stages >= 2; g++) {
        double spg = 0;
        if ((s = time_compute(ctx, kernel, &b, wg, tiles, 0, g, reps, t_stage[g], &spg)) !=
            CLS_SUCCESS)
            goto done;
        if (spg > sp_r) sp_r = spg;
    }
    {
        /* 2. The fixed cost of a launch (one group, one tile, no loop), which Eq. 17 already
         *    counts; then the whole trapezoids (load, h steps, commit) for the heights above,
         *    one group per tile. */
        int ints[5] = {0, 0, 1, 0, 1};
        cl_int e = set_args(kernel, &b, ints, -1);
        if (e == CL_SUCCESS) s = time_kernel(ctx, kernel, wg, wg, 3, reps, &t_fixed, &sp);
        for (size_t j = 0; j < n_heights && e == CL_SUCCESS && s == CLS_SUCCESS; j++) {
            size_t all[3] = {tiles_of(st, grid, tile, heights[j]) * wg[0], wg[1], wg[2]};
            int hv = (int)heights[j], real_io[5] = {0, hv, hv, 1, INT_MAX};
            e = set_args(kernel, &b, real_io, -1);
            if (e == CL_SUCCESS) s = time_kernel(ctx, kernel, all, wg, 3, reps, &t_real[j], &sp);
        }
        if (e != CL_SUCCESS) s = cls__fail(ctx, (cls_status)e, "profiling kernel arguments");
        if (s != CLS_SUCCESS) goto done;
    }
    /* 3. One step of the baseline schedule on the same grid (the rate its predictions take). */
    if ((s = cls__baseline_step_seconds(ctx, st, grid, reps, &t_naive)) != CLS_SUCCESS) goto done;

    /* 4. From times to the document's quantities.  Over one stage of h = 1 (N points,
     *    W = T x blk^D work-items, T x P(1) of them computing):
     *      MiscComp x T / M = InstsPerSM_MC x CPI x W / N                    (Eq. 15)
     *      IterComp x T / M = InstsPerSM_IC x CPI x T x P(1) / N per loop    (Eq. 16)
     *    so with C = t x ClockRate, InstsPerSM_MC = C0 N / (CPI W) and InstsPerSM_IC =
     *    C1 N / (CPI T P(1)).  CPI cancels in the model. */
    {
        double W = (double)tiles, P1 = (double)tiles;
        cls_ghost_profile tmp = *out;
        tmp.n = 1;
        tmp.insts_per_sm_mc = tmp.insts_per_sm_ic = 1;
        if ((s = cls__gz_inputs(m, &tmp, CLS_GHOST_DOCUMENT, CLS_SYNC_RESTART, 0, &dev, &gzp,
                                &gs)) != CLS_SUCCESS) {
            s = cls__fail(ctx, s, "profiling '%s': %s", st->name, cls_last_error());
            goto done;
        }
        for (int i = 0; i < st->dims; i++) {
            W *= (double)tile[i];
            P1 *= (double)(tile[i] - 2 * (size_t)halo[i]);
        }
        out->n = (double)points;
        fit_loops(t_r, &t0, &t1, &fe_r);
        fit_loops(t_p, &p0, &p1, &fe_p);
        t0 = fmax(t0 - t_fixed, 0.02 * t_r[0]);
        p0 = fmax(p0 - t_fixed, 0.02 * t_p[0]);
        t1 = fmax(t1, 1e-12);
        p1 = fmax(p1, 1e-12);
        out->insts_per_sm_mc = t0 * dev.ClockRate * out->n / (dev.CPI * W);
        out->insts_per_sm_ic = t1 * dev.ClockRate * out->n / (dev.CPI * P1);
        out->insts_per_sm_mc_persistent = p0 * dev.ClockRate * out->n / (dev.CPI * W);
        out->insts_per_sm_ic_persistent = p1 * dev.ClockRate * out->n / (dev.CPI * P1);
        /* Stage g of a system: its slope over the T x P_g(1) points whose stage-g reads stay
         * in the tile (the model's Eq. 16 per stage), InstsPerSM_IC_g = C1_g N / (CPI T
         * P_g(1)). */
        for (int g = 0; g < out->num_stages && out->num_stages >= 2; g++) {
            double g0, g1, fe, Pg = (double)tiles;
            for (int i = 0; i < st->dims; i++)
                Pg *= (double)tile[i] - (double)out->stage_halo_width[g][i];
            fit_loops(t_stage[g], &g0, &g1, &fe);
            g1 = fmax(g1, 1e-12);
            out->stage_insts_per_sm_ic[g] = g1 * dev.ClockRate * out->n / (dev.CPI * Pg);
            if (fe > fe_r) fe_r = fe;
        }
        out->fit_error = fmax(fe_r, fe_p);
        out->spread = fmax(sp_r, sp_p);
        out->naive_seconds_per_point = t_naive / (double)points;
    }
    {
        /* 5. alpha (Sect. 4.2's sigma^(D-1), fitted to the GTX 280 there): by Eqs. 7-10 a stage
         *    of height h costs alpha x X(h) + Y(h) cycles besides its synchronisation, X the
         *    bandwidth time of its loads and commits, Y the latencies and the computation just
         *    measured.  alpha minimises the relative error over the heights; it also absorbs
         *    how much of the traffic the caches serve and how much overlaps the computation. */
        double sxx = 0, sxy = 0, worst = 0;
        for (size_t j = 0; j < n_heights; j++) {
            double y1 = stage_cycles(m, out, grid, tile, heights[j], 1);
            double x = stage_cycles(m, out, grid, tile, heights[j], 2) - y1;
            double t = (t_real[j] - t_fixed) * dev.ClockRate;
            if (!(t > 0) || !(x > 0)) continue;
            sxx += (x / t) * (x / t);
            sxy += (x / t) * ((t - (y1 - x)) / t);
        }
        out->alpha = sxx > 0 ? sxy / sxx : 1;
        if (!(out->alpha >= 0.02)) out->alpha = 0.02;
        if (out->alpha > 50) out->alpha = 50;
        /* The model's check: each height with the fitted alpha against the measurement; the
         *    error reported is the largest. */
        for (size_t j = 0; j < n_heights; j++) {
            double pred = stage_cycles(m, out, grid, tile, heights[j], out->alpha);
            double meas = (t_real[j] - t_fixed) * dev.ClockRate;
            double e = meas > 0 ? (pred - meas) / meas : 0;
            if (fabs(e) > fabs(worst)) worst = e;
        }
        out->model_error = worst;
    }
    memcpy(out->tile, tile, sizeof out->tile);
    out->points_per_item = ppi;
    out->seconds = cls__now() - start;
    snprintf(out->source, sizeof out->source,
             "measured on %.80s (%.60s, driver %.40s) by timing trapezoid kernel variants: tile "
             "%zux%zux%zu, %zu per work-item, N = %.0f points",
             ctx->info.name, ctx->info.platform_name, ctx->info.driver_version, tile[0],
             tile[1], tile[2], ppi, out->n);
    s = CLS_SUCCESS;
done:
    bufs_release(&b);
    cls__built_release(&built);
    return s;
}

/* ---------------------------------------------------------------- the disk cache */
/* The cache key: the profiling kernel's source (stencil, generator and template included) and
 * options, the device and its driver, and the format. */
static cls_status profile_key(cls_context *ctx, const cls_stencil *st, uint64_t *key)
{
    size_t tile[3], wg[3], ppi;
    char defines[512], *src = NULL, *opts = NULL;
    const cls_model *m = NULL;
    cls_status s;
    if (cls__context_model(ctx, &m) != CLS_SUCCESS) m = NULL;
    cls__trapezoid_profile_tile(&ctx->info, m, st, tile);
    profile_defines(ctx, m, st, tile, &ppi, wg, defines, sizeof defines);
    s = cls__codegen(ctx, st, profile_grid(ctx, m, st, tile), "trapezoid.cl", defines,
                     CLS__UPDATE_TILE, &src, &opts);
    if (s != CLS_SUCCESS) return s;
    uint64_t h = cls__hash(CLS__FNV_SEED, PROFILE_FORMAT, sizeof PROFILE_FORMAT);
    const char *parts[] = {ctx->info.name,           ctx->info.vendor, ctx->info.driver_version,
                           ctx->info.device_version, ctx->info.platform_name, opts, src};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        h = cls__hash(h, parts[i], strlen(parts[i]) + 1);
    free(src);
    free(opts);
    *key = h;
    return CLS_SUCCESS;
}

/* <cache>/profiles/<key>.json, creating the folder; NULL when caching is off. */
static char *profile_file(uint64_t key)
{
    char *dir = cls__cache_dir(), *path = NULL;
    size_t len = 0, cap = 0;
    if (!dir) return NULL;
    if (cls__appendf(&path, &len, &cap, "%s/profiles", dir) == 0 &&
        (mkdir(path, 0700) == 0 || errno == EEXIST)) {
        len = 0;
        if (cls__appendf(&path, &len, &cap, "%s/profiles/%016llx.json", dir,
                         (unsigned long long)key) != 0) {
            free(path);
            path = NULL;
        }
    } else {
        free(path);
        path = NULL;
    }
    free(dir);
    return path;
}

/* The numeric fields of the file, with the lowest value each may take. */
static const struct {
    const char *name;
    size_t off;
    double min;
} num_fields[] = {
#define F(f, lo) {#f, offsetof(cls_ghost_profile, f), lo}
    F(num_stencil_arrays, 1), F(num_elem_per_op, 0), F(n, 1), F(insts_per_sm_mc, 0),
    F(insts_per_sm_ic, 0), F(insts_per_sm_mc_persistent, 0), F(insts_per_sm_ic_persistent, 0),
    F(bank_conflict_rate, 0), F(elem_bytes, 4), F(alpha, 0), F(naive_seconds_per_point, 0),
    F(fit_error, 0), F(spread, 0), F(model_error, -1e9), F(seconds, 0),
#undef F
};
#define N_NUM (sizeof num_fields / sizeof num_fields[0])

static cls_status profile_write(const char *path, uint64_t key, const cls_ghost_profile *p)
{
    cJSON *o = cJSON_CreateObject();
    char keytext[32], *text = NULL;
    int ok = 0;
    if (!o) return CLS_ERR_OUT_OF_HOST_MEMORY;
    snprintf(keytext, sizeof keytext, "%016llx", (unsigned long long)key);
    cJSON_AddStringToObject(o, "format", PROFILE_FORMAT);
    cJSON_AddStringToObject(o, "key", keytext);
    cJSON_AddStringToObject(o, "source", p->source);
    cJSON_AddNumberToObject(o, "dims", p->dims);
    cJSON *hw = cJSON_AddArrayToObject(o, "halo_width");
    cJSON *tl = cJSON_AddArrayToObject(o, "tile");
    for (int i = 0; i < 3; i++) {
        if (hw) cJSON_AddItemToArray(hw, cJSON_CreateNumber(p->halo_width[i]));
        if (tl) cJSON_AddItemToArray(tl, cJSON_CreateNumber((double)p->tile[i]));
    }
    cJSON_AddNumberToObject(o, "points_per_item", (double)p->points_per_item);
    /* a system's stages, each measured alone */
    if (p->num_stages >= 2) {
        cJSON *sg = cJSON_AddArrayToObject(o, "stage_insts_per_sm_ic");
        for (int g = 0; sg && g < p->num_stages && g < 16; g++) {
            char num[40];
            cJSON_AddItemToArray(sg, cJSON_CreateRaw(cls__fmt_double(
                                         num, isfinite(p->stage_insts_per_sm_ic[g])
                                                  ? p->stage_insts_per_sm_ic[g]
                                                  : 0)));
        }
    }
    /* %.17g: the values read back are the values measured, bit for bit. */
    for (size_t i = 0; i < N_NUM; i++) {
        char num[40];
        double v = *(const double *)((const char *)p + num_fields[i].off);
        cJSON_AddRawToObject(o, num_fields[i].name, cls__fmt_double(num, isfinite(v) ? v : 0));
    }
    text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) return CLS_ERR_OUT_OF_HOST_MEMORY;
    /* Through an exclusive temporary and rename(): readers see no file, the old one or the new
     * complete one. */
    ok = cls__write_file(path, text, strlen(text), NULL, 0) == CLS_SUCCESS;
    if (!ok) cls__debug("profile cache not written: %s", cls_last_error());
    cJSON_free(text);
    return ok ? CLS_SUCCESS : CLS_ERR_CACHE;
}

/* Reads a cache entry; 0 (and the file removed) when it is missing, corrupt or another key's. */
static int profile_read(const char *path, uint64_t key, const cls_stencil *st,
                        cls_ghost_profile *p)
{
    FILE *f = fopen(path, "rb");
    char buf[8192], keytext[32];
    size_t n;
    cJSON *o = NULL;
    const char *why = NULL;
    if (!f) return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    memset(p, 0, sizeof *p);
    snprintf(keytext, sizeof keytext, "%016llx", (unsigned long long)key);
    if (!(o = cJSON_Parse(buf))) {
        why = "not JSON";
        goto bad;
    }
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(o, "format");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "key");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "source");
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(o, "tile");
    const cJSON *ppi = cJSON_GetObjectItemCaseSensitive(o, "points_per_item");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, PROFILE_FORMAT) != 0 ||
        !cJSON_IsString(k) || strcmp(k->valuestring, keytext) != 0 || !cJSON_IsString(src) ||
        !cJSON_IsArray(tl) || cJSON_GetArraySize(tl) != 3 || !cJSON_IsNumber(ppi) ||
        !(ppi->valuedouble >= 1)) {
        why = "format, key or identity fields";
        goto bad;
    }
    snprintf(p->source, sizeof p->source, "%s", src->valuestring);
    for (int i = 0; i < 3; i++) {
        const cJSON *t = cJSON_GetArrayItem(tl, i);
        if (!cJSON_IsNumber(t) || !(t->valuedouble >= 1)) {
            why = "tile";
            goto bad;
        }
        p->tile[i] = (size_t)t->valuedouble;
    }
    p->points_per_item = (size_t)ppi->valuedouble;
    for (size_t i = 0; i < N_NUM; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, num_fields[i].name);
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < num_fields[i].min) {
            why = num_fields[i].name;
            goto bad;
        }
        *(double *)((char *)p + num_fields[i].off) = v->valuedouble;
    }
    if (!(p->insts_per_sm_mc > 0) || !(p->insts_per_sm_ic > 0)) {
        why = "instruction counts";
        goto bad;
    }
    /* The shape comes from the stencil itself (the key covers it); a system of several stages
     * also needs each stage's measurement. */
    cls__profile_shape(st, p);
    if (p->num_stages >= 2) {
        const cJSON *sg = cJSON_GetObjectItemCaseSensitive(o, "stage_insts_per_sm_ic");
        if (!cJSON_IsArray(sg) || cJSON_GetArraySize(sg) != p->num_stages) {
            why = "stage_insts_per_sm_ic";
            goto bad;
        }
        for (int g = 0; g < p->num_stages; g++) {
            const cJSON *v = cJSON_GetArrayItem(sg, g);
            if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || !(v->valuedouble > 0)) {
                why = "stage_insts_per_sm_ic";
                goto bad;
            }
            p->stage_insts_per_sm_ic[g] = v->valuedouble;
        }
    }
    cJSON_Delete(o);
    return 1;
bad:
    cls__debug("profile cache entry %s rejected (%s); removing it and measuring again", path, why);
    cJSON_Delete(o);
    if (unlink(path) != 0 && errno != ENOENT) cls__debug("cannot remove %s: %s", path, strerror(errno));
    memset(p, 0, sizeof *p);
    return 0;
}

cls_status cls__profile_get(cls_context *ctx, const cls_stencil *st, int measure_it,
                            cls_ghost_profile *p, int *from_cache)
{
    uint64_t key = 0;
    char *path = NULL;
    cls_status s;
    if (from_cache) *from_cache = 0;
    if ((s = profile_key(ctx, st, &key)) != CLS_SUCCESS) return s;
    for (size_t i = 0; i < ctx->n_profiles && i < 8; i++)
        if (ctx->profile_keys[i] == key) {
            *p = ctx->profiles[i];
            cls__profile_shape(st, p);
            if (from_cache) *from_cache = 2;
            return CLS_SUCCESS;
        }
    path = profile_file(key);
    if (path && profile_read(path, key, st, p)) {
        cls__debug("profile cache hit: %s", path);
        if (from_cache) *from_cache = 1;
    } else if (!measure_it) {
        free(path);
        return CLS_ERR_CACHE; /* no message: a miss is expected */
    } else {
        s = measure(ctx, st, p);
        if (s == CLS_SUCCESS && path && profile_write(path, key, p) == CLS_SUCCESS)
            cls__debug("profile cache stored %s", path);
    }
    free(path);
    if (s == CLS_SUCCESS) {
        ctx->profile_keys[ctx->n_profiles % 8] = key;
        ctx->profiles[ctx->n_profiles % 8] = *p;
        ctx->n_profiles++;
    }
    return s;
}

cls_status cls_ghost_profile_get(cls_context *ctx, const cls_stencil *st, cls_ghost_profile *p,
                                 int *from_cache)
{
    cls_status s;
    if (!ctx || !st || !p)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_ghost_profile_get: NULL argument");
    if ((s = cls_stencil_validate(st)) != CLS_SUCCESS) return s;
    return cls__profile_get(ctx, st, 1, p, from_cache);
}

cls_status cls_ghost_profile_path(cls_context *ctx, const cls_stencil *st, char *path,
                                  size_t len)
{
    uint64_t key;
    char *f;
    cls_status s;
    if (!ctx || !st || !path || !len)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_ghost_profile_path: NULL argument");
    if ((s = profile_key(ctx, st, &key)) != CLS_SUCCESS) return s;
    if (!(f = profile_file(key)))
        return cls__fail(ctx, CLS_ERR_CACHE,
                         "no profile cache: CLSTENCIL_CACHE is off or no cache folder can be made");
    snprintf(path, len, "%s", f);
    free(f);
    return CLS_SUCCESS;
}
