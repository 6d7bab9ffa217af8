/* test_system_sched.c: systems of fields on the trapezoid schedule (PoCL), bitwise against
 * cls_reference_run_fields: every built-in system in float and double and a few written here
 * in float (a time-level chain with an aux array and STEP, a field updated in two stages, a
 * one-sided 1D pair), every boundary kind, heights 1..4 on tiles that do not divide the grid
 * (1 and the highest in double), kernel restarts and the in-kernel barrier (periodic grids,
 * the highest height); states advanced in parts that end inside a trapezoid
 * stage, and states handed between the naive and the trapezoid schedule; the 3D systems on
 * the stream25d schedule (stream25d_cases); host-to-host runs of the pipeline schedule
 * (copied whole, and tile by tile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "system_grids.h"
#include "tap.h"

enum { STEPS = 7 };

static cls_dims grid_of(int d)
{
    cls_dims g = {{1, 1, 1}};
    if (d == 1) g.n[0] = 101;
    if (d == 2) g.n[0] = 45, g.n[1] = 29;
    if (d == 3) g.n[0] = 17, g.n[1] = 14, g.n[2] = 13;
    return g;
}

static int grids_make(grids *g, const cls_stencil *st)
{
    return grids_make_on(g, st, grid_of(cls_stencil_dims(st)), STEPS);
}

/* A tile per dimension that leaves an inner block up to h = hmax for the step's reach r (the
 * sum of the stages' radii) and does not divide the grid. */
static size_t tile_for(size_t r, size_t hmax, size_t n)
{
    size_t t = 2 * hmax * r + 3;
    while (n % (t - 2 * r) == 0) t++;
    return t;
}

static int make_plan(cls_context *ctx, cls_stencil *st, const grids *g, cls_schedule sched,
                     const char *params, cls_plan **plan)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = sched;
    opt.params = params;
    *plan = NULL;
    return cls_plan_create(ctx, st, g->dims, STEPS, &opt, plan) == CLS_SUCCESS;
}

/* A state advanced `first` steps on plan a and the rest of STEPS on plan b. */
static int split_run(grids *g, cls_plan *a, cls_plan *b, size_t first)
{
    return grids_split_run(g, a, b, first, STEPS - first);
}

/* Heights 1..hmax with restarts (1 and hmax only when `few`), with the barrier too (hmax only)
 * when `barrier`; the splits of states when `splits`. */
static void trapezoid_cases(cls_context *ctx, cls_stencil *st, const char *what, int barrier,
                            int few, int splits)
{
    grids g;
    if (!tap_ok(grids_make(&g, st), "%s: inputs and the reference", what)) {
        tap_diag("%s", cls_last_error());
        grids_free(&g);
        return;
    }
    /* a bound of the step's reach: every stage reads at most one halo */
    int reach[3];
    cls_stencil_halo(st, reach);
    for (int i = 0; i < 3; i++) reach[i] *= (int)cls_stencil_num_stages(st);
    const int d = cls_stencil_dims(st);
    /* 3D tiles of a wide reach stay within the work-group limit at heights 1 and 2 */
    size_t hmax = 4, rmax = 0;
    for (int i = 0; i < d; i++) rmax = (size_t)reach[i] > rmax ? (size_t)reach[i] : rmax;
    if (d == 3 && rmax > 2) hmax = 1;
    else if (d == 3 && rmax > 1) hmax = 2;
    size_t tile[3] = {1, 1, 1};
    for (int i = 0; i < d; i++) tile[i] = tile_for((size_t)reach[i], hmax, g.dims.n[i]);
    cls_plan *naive = NULL;
    if (splits) make_plan(ctx, st, &g, CLS_SCHEDULE_NAIVE, NULL, &naive);
    for (int sync = 0; sync < (barrier ? 2 : 1); sync++)
        for (size_t h = sync ? hmax : 1; h <= hmax; h = few && h < hmax ? hmax : h + 1) {
            /* One point per work-item where the device takes the whole tile as a work-group
             * (PoCL); else the fewest points per item, a divisor of the tile's slowest side,
             * that bring the work-group within the device's and the kernel's limits (the
             * H100 takes at most 1024 work-items, 256 for kernels heavy in registers). */
            char params[200];
            cls_plan *p = NULL;
            int ok = 0;
            for (size_t ppi = 1; ppi <= tile[d - 1]; ppi++) {
                if (tile[d - 1] % ppi) continue;
                snprintf(params, sizeof params,
                         "trapezoid.tile=%zux%zux%zu trapezoid.height=%zu trapezoid.sync=%s "
                         "trapezoid.points_per_item=%zu",
                         tile[0], tile[1], tile[2], h, sync ? "barrier" : "restart", ppi);
                ok = make_plan(ctx, st, &g, CLS_SCHEDULE_TRAPEZOID, params, &p);
                if (ok || !strstr(cls_last_error(), "work-item")) break;
            }
            /* A device with less local memory than the tile's fields need (the H100's 48 KiB
             * against PoCL's megabytes) refuses it; that limit is tested in the refusals. */
            if (!ok && strstr(cls_last_error(), "bytes of local memory")) {
                char what_h[256];
                int n = snprintf(what_h, sizeof what_h, "%s: trapezoid %s h=%zu tile %zux%zux%zu",
                                 what, sync ? "barrier" : "restart", h, tile[0], tile[1], tile[2]);
                tap_skip(n > 0 ? what_h : what, cls_last_error());
                continue;
            }
            cls_plan_info info;
            ok = ok && cls_plan_describe(p, &info) == CLS_SUCCESS &&
                 info.schedule == CLS_SCHEDULE_TRAPEZOID;
            for (size_t f = 0; ok && f < g.nf; f++) memset(g.out[f], 0, g.n * g.elem);
            ok = ok && cls_plan_run_fields(p, (const void *const *)g.in,
                                           (const void *const *)g.aux, g.out, NULL) == CLS_SUCCESS;
            tap_ok(ok && equal_ref(&g), "%s: trapezoid %s h=%zu tile %zux%zux%zu equals the reference",
                   what, sync ? "barrier" : "restart", h, tile[0], tile[1], tile[2]);
            if (!ok) tap_diag("%s", cls_last_error());
            if (ok && splits && h == hmax && h > 1) {
                /* 3 steps end inside a stage of height h; then the rest */
                tap_ok(split_run(&g, p, p, 3), "%s: %s h=%zu: a state advanced 3 + %d steps",
                       what, sync ? "barrier" : "restart", h, STEPS - 3);
                if (naive && !sync) {
                    tap_ok(split_run(&g, naive, p, 2), "%s: naive 2 steps, then trapezoid", what);
                    tap_ok(split_run(&g, p, naive, 5), "%s: trapezoid 5 steps, then naive", what);
                }
            }
            cls_plan_release(p);
        }
    cls_plan_release(naive);
    grids_free(&g);
}

static void each_kind(cls_context *ctx, cls_stencil *st, int has_double, int dtypes)
{
    for (int dt = 0; dt < dtypes; dt++) {
        if (dt && !has_double) {
            tap_skip(cls_stencil_name(st), "no double precision");
            continue;
        }
        cls_stencil_set_dtype(st, dt ? CLS_FLOAT64 : CLS_FLOAT32);
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
            char what[160];
            cls_stencil_set_boundary(st, (cls_boundary)b, -0.25);
            snprintf(what, sizeof what, "%s %s %s", cls_stencil_name(st), dt ? "double" : "float",
                     cls_boundary_name((cls_boundary)b));
            /* every height in float; the barrier (whose kernel differs in its loop only) and
             * the splits (float clamp) with one boundary kind each */
            trapezoid_cases(ctx, st, what, b == (int)CLS_BOUNDARY_PERIODIC, dt,
                            !dt && b == (int)CLS_BOUNDARY_CLAMP);
        }
    }
}

/* What the schedule says when it cannot run a system. */
static void refusals(cls_context *ctx)
{
    cls_stencil *st = NULL;
    if (cls_stencil_builtin("fdtd2d", &st) != CLS_SUCCESS) return;
    cls_dims dims = {{40, 30, 1}};
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    cls_plan *p = NULL;
    cls_status s;
    /* the summed radius: 2 per axis, so a tile of 8 leaves nothing at h = 2 */
    opt.params = "trapezoid.tile=8x8 trapezoid.height=2 trapezoid.sync=restart";
    s = cls_plan_create(ctx, st, dims, 4, &opt, &p);
    tap_ok(s != CLS_SUCCESS && strstr(cls_last_error(), "summed radius"),
           "fdtd2d: a tile of 8 at h = 2 is refused with the stages' summed radius (%s)",
           cls_last_error());
    cls_plan_release(p);
    p = NULL;
    opt.params = "trapezoid.tile=16x16 trapezoid.height=1 trapezoid.sync=restart";
    opt.device_memory = 5.0 * 40 * 30 * 4;
    s = cls_plan_create(ctx, st, dims, 4, &opt, &p);
    tap_ok(s != CLS_SUCCESS && strstr(cls_last_error(), "twice"),
           "fdtd2d: a memory cap below two sets of fields is refused (%s)", cls_last_error());
    cls_plan_release(p);
    cls_stencil_release(st);
}

/* The stream25d schedule, one step per pass: a 3D system bitwise as the reference with every
 * loader (direct: rows from global memory; classic, aligned: every field's planes in local
 * memory), every boundary kind, float and double (clamp and periodic), rows per work-item and
 * prefetch, columns cut into chunks of planes; a state handed between it and the naive
 * schedule; AUTO passes it by with the reason (a CPU); fused steps (but wave3d's) and a radius
 * beyond its window are refused naming what. */
static void stream25d_cases(cls_context *ctx, cls_stencil *st, int has_double)
{
    static const char *const configs[] = {
        "stream25d.loader=direct",
        "stream25d.loader=direct stream25d.tile=9x4 stream25d.planes=5",
        "stream25d.loader=classic",
        "stream25d.loader=aligned stream25d.rows_per_item=2 stream25d.prefetch=2 "
        "stream25d.planes=6",
    };
    for (int dt = 0; dt < (has_double ? 2 : 1); dt++) {
        cls_stencil_set_dtype(st, dt ? CLS_FLOAT64 : CLS_FLOAT32);
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
            if (dt && b != (int)CLS_BOUNDARY_CLAMP && b != (int)CLS_BOUNDARY_PERIODIC) continue;
            grids g;
            cls_stencil_set_boundary(st, (cls_boundary)b, -0.25);
            char what[160];
            snprintf(what, sizeof what, "%s %s %s", cls_stencil_name(st), dt ? "double" : "float",
                     cls_boundary_name((cls_boundary)b));
            if (!tap_ok(grids_make(&g, st), "%s: inputs and the reference", what)) {
                grids_free(&g);
                continue;
            }
            for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
                cls_plan *p = NULL;
                cls_plan_info info;
                int ok = make_plan(ctx, st, &g, CLS_SCHEDULE_STREAM25D, configs[i], &p) &&
                         cls_plan_describe(p, &info) == CLS_SUCCESS &&
                         info.schedule == CLS_SCHEDULE_STREAM25D;
                for (size_t f = 0; ok && f < g.nf; f++) memset(g.out[f], 0, g.n * g.elem);
                ok = ok && cls_plan_run_fields(p, (const void *const *)g.in,
                                               (const void *const *)g.aux, g.out,
                                               NULL) == CLS_SUCCESS;
                tap_ok(ok && equal_ref(&g), "%s: stream25d %s equals the reference", what,
                       configs[i]);
                if (!ok) tap_diag("%s", cls_last_error());
                if (ok && i == 2 && !dt && b == (int)CLS_BOUNDARY_CLAMP) {
                    cls_plan *naive = NULL;
                    if (make_plan(ctx, st, &g, CLS_SCHEDULE_NAIVE, NULL, &naive)) {
                        tap_ok(split_run(&g, naive, p, 3), "%s: naive 3 steps, then stream25d",
                               what);
                        tap_ok(split_run(&g, p, naive, 4), "%s: stream25d 4 steps, then naive",
                               what);
                    }
                    cls_plan_release(naive);
                }
                cls_plan_release(p);
            }
            grids_free(&g);
        }
    }
    cls_stencil_set_dtype(st, CLS_FLOAT32);
    cls_stencil_set_boundary(st, CLS_BOUNDARY_CLAMP, 0);
    cls_dims dims = grid_of(3);
    cls_plan *p = NULL;
    cls_plan_info info;
    /* PoCL's local memory is cache, so AUTO passes stream25d by; a GPU whose model fuses the
     * system's steps (the H100's, wave3d) takes it, saying so */
    int ok = cls_plan_create(ctx, st, dims, STEPS, NULL, &p) == CLS_SUCCESS &&
             cls_plan_describe(p, &info) == CLS_SUCCESS &&
             strstr(info.why, info.schedule == CLS_SCHEDULE_STREAM25D ? "stream25d: "
                                                                       : "stream25d not taken: ");
    tap_ok(ok, "%s: AUTO passes stream25d by, or takes it, saying why (%s)", cls_stencil_name(st),
           ok ? cls_schedule_name(info.schedule) : cls_last_error());
    cls_plan_release(p);
    p = NULL;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = "stream25d.steps_per_pass=2";
    cls_status s = cls_plan_create(ctx, st, dims, STEPS, &opt, &p);
    /* a field and its time level fuse (tests/test_system_fused.c); the others are refused */
    if (!strcmp(cls_stencil_name(st), "wave3d"))
        tap_ok(s == CLS_SUCCESS, "%s: fused steps plan (%s)", cls_stencil_name(st),
               s == CLS_SUCCESS ? "" : cls_last_error());
    else
        tap_ok(s == CLS_ERR_UNSUPPORTED && strstr(cls_last_error(), "one step per pass runs it"),
               "%s: fused steps are refused (%s)", cls_stencil_name(st), cls_last_error());
    cls_plan_release(p);
}

/* A system beyond the full window's radius is refused, naming the field, stage and offset (the
 * column window runs it: tests/test_stream25d_column). */
static void stream25d_radius(cls_context *ctx)
{
    cls_stencil *st = NULL;
    if (cls_stencil_builtin("acoustic3d_r4", &st) != CLS_SUCCESS) return;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = "stream25d.window=full";
    cls_plan *p = NULL;
    cls_dims dims = grid_of(3);
    cls_status s = cls_plan_create(ctx, st, dims, STEPS, &opt, &p);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && strstr(cls_last_error(), "'u'") &&
               strstr(cls_last_error(), "stage 0") && strstr(cls_last_error(), "offset 3"),
           "acoustic3d_r4: stream25d.window=full refuses radius 4 naming field, stage and offset (%s)",
           cls_last_error());
    cls_plan_release(p);
    cls_stencil_release(st);
}

/* The host-resident pipeline: a system's host-to-host run is copied in whole, advanced
 * resident and copied out (scheme off), or run tile by tile, bitwise as the reference. */
static void pipeline_cases(cls_context *ctx, cls_stencil *st)
{
    grids g;
    cls_stencil_set_dtype(st, CLS_FLOAT32);
    cls_stencil_set_boundary(st, CLS_BOUNDARY_CLAMP, 0);
    if (!tap_ok(grids_make(&g, st), "%s: inputs and the reference", cls_stencil_name(st))) {
        grids_free(&g);
        return;
    }
    static const char *const asked[] = {"pipeline.scheme=off", NULL};
    for (size_t i = 0; i < 2; i++) {
        cls_plan *p = NULL;
        int ok = make_plan(ctx, st, &g, i ? CLS_SCHEDULE_AUTO : CLS_SCHEDULE_PIPELINE, asked[i], &p);
        for (size_t f = 0; ok && f < g.nf; f++) memset(g.out[f], 0, g.n * g.elem);
        ok = ok && cls_plan_run_fields(p, (const void *const *)g.in, (const void *const *)g.aux,
                                       g.out, NULL) == CLS_SUCCESS;
        tap_ok(ok && equal_ref(&g), "%s: %s: copied in, advanced, copied out, equal to the reference",
               cls_stencil_name(st), i ? "AUTO" : "pipeline.scheme=off");
        if (!ok) tap_diag("%s", cls_last_error());
        cls_plan_release(p);
    }
    /* the tiled schemes (tests/test_pipeline_system runs them in every combination) */
    static const char *const tiled[] = {"basic", "scalable", "buffered"};
    for (size_t i = 0; i < 3; i++) {
        char params[96];
        snprintf(params, sizeof params, "pipeline.scheme=%s pipeline.steps=2", tiled[i]);
        cls_plan *p = NULL;
        int ok = make_plan(ctx, st, &g, CLS_SCHEDULE_PIPELINE, params, &p);
        for (size_t f = 0; ok && f < g.nf; f++) memset(g.out[f], 0, g.n * g.elem);
        ok = ok && cls_plan_run_fields(p, (const void *const *)g.in, (const void *const *)g.aux,
                                       g.out, NULL) == CLS_SUCCESS;
        tap_ok(ok && equal_ref(&g), "%s: the %s pipeline, tile by tile, equal to the reference",
               cls_stencil_name(st), tiled[i]);
        if (!ok) tap_diag("%s", cls_last_error());
        cls_plan_release(p);
    }
    grids_free(&g);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("systems on the trapezoid schedule", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(cls_stencil_builtin_name(i), &st) != CLS_SUCCESS) continue;
        if (cls_stencil_is_system(st)) each_kind(ctx, st, info.double_support, 2);
        cls_stencil_release(st);
    }
    for (size_t i = 0; sg_written(i); i++) {
        cls_stencil *st = NULL;
        if (!tap_ok(cls_stencil_from_json(sg_written(i), &st) == CLS_SUCCESS, "system %zu parses", i)) {
            tap_diag("%s", cls_last_error());
            continue;
        }
        /* what these add is their structure: float only */
        each_kind(ctx, st, info.double_support, 1);
        cls_stencil_release(st);
    }
    refusals(ctx);
    static const char *const streamed[] = {"wave3d", "fdtd3d"};
    for (size_t i = 0; i < 2; i++) {
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(streamed[i], &st) == CLS_SUCCESS)
            stream25d_cases(ctx, st, info.double_support);
        cls_stencil_release(st);
    }
    {
        cls_stencil *st = NULL;
        if (cls_stencil_from_json(sg_written(1), &st) == CLS_SUCCESS)
            stream25d_cases(ctx, st, 0);
        cls_stencil_release(st);
    }
    stream25d_radius(ctx);
    static const char *const piped[] = {"wave2d", "gray_scott", "fdtd3d"};
    for (size_t i = 0; i < 3; i++) {
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(piped[i], &st) == CLS_SUCCESS) pipeline_cases(ctx, st);
        cls_stencil_release(st);
    }
    cls_context_release(ctx);
    return tap_done();
}
