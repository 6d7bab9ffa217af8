/* test_cputile_system.c: systems of fields on the cputile schedule (overlapped temporal tiles
 * in scratch boxes, cl/cputile.cl) against cls_reference_run_fields, bitwise: every built-in
 * system in float with every boundary kind and in double with mirror, the systems written for
 * the tests (a time-level chain with an aux array and STEP, a field updated in two stages, a
 * one-sided 1D pair) with clamp; passes of 1 to 4 steps (3 steps per pass over 7
 * steps runs passes of 3 and 1; 2 and 4 steps per pass for two systems), tiles that do not
 * divide the grid, a tile larger than the grid, more work-groups than tiles; states advanced
 * in parts and handed between the naive and the cputile schedule; the model's tile and height.
 * Each case builds a program (about 1-3 s on PoCL), so the matrix is chosen to reach every
 * code path once: the boundary code does not depend on the precision. */
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

/* A tile that divides no axis of the grid. */
static const char *tile_of(int d)
{
    return d == 1 ? "24" : d == 2 ? "16x7" : "7x5x4";
}

/* One run of `plan` from the inputs, compared with the reference; the parameters in `what`. */
static void run_one(cls_context *ctx, cls_stencil *st, grids *g, const char *params,
                    const char *what)
{
    cls_plan *p = NULL;
    cls_plan_info info;
    int ok = grids_plan(ctx, st, g->dims, STEPS, CLS_SCHEDULE_CPUTILE, params, &p) &&
             cls_plan_describe(p, &info) == CLS_SUCCESS && info.schedule == CLS_SCHEDULE_CPUTILE;
    for (size_t f = 0; ok && f < g->nf; f++) memset(g->out[f], 0, g->n * g->elem);
    ok = ok && cls_plan_run_fields(p, (const void *const *)g->in, (const void *const *)g->aux,
                                   g->out, NULL) == CLS_SUCCESS;
    tap_ok(ok && equal_ref(g), "%s: cputile %s equals the reference", what, params);
    if (!ok) tap_diag("%s", cls_last_error());
    cls_plan_release(p);
}

/* The ragged tile at 3 steps per pass, and at 2 and 4 when `heights`; the splits when
 * `splits`. */
static void cases(cls_context *ctx, cls_stencil *st, const char *what, int heights, int splits)
{
    grids g;
    const int d = cls_stencil_dims(st);
    if (!tap_ok(grids_make_on(&g, st, grid_of(d), STEPS), "%s: inputs and the reference", what)) {
        tap_diag("%s", cls_last_error());
        grids_free(&g);
        return;
    }
    char params[160];
    for (size_t h = heights ? 2 : 3; h <= (heights ? 4u : 3u); h++) {
        snprintf(params, sizeof params, "cputile.tile=%s cputile.height=%zu", tile_of(d), h);
        run_one(ctx, st, &g, params, what);
    }
    if (splits) {
        cls_plan *naive = NULL, *p = NULL;
        snprintf(params, sizeof params, "cputile.tile=%s cputile.height=3", tile_of(d));
        int ok = grids_plan(ctx, st, g.dims, STEPS, CLS_SCHEDULE_NAIVE, NULL, &naive) &&
                 grids_plan(ctx, st, g.dims, STEPS, CLS_SCHEDULE_CPUTILE, params, &p);
        tap_ok(ok && grids_split_run(&g, p, p, 4, STEPS - 4),
               "%s: a state advanced 4 + %d steps on cputile, 3 steps per pass", what, STEPS - 4);
        tap_ok(ok && grids_split_run(&g, naive, p, 2, STEPS - 2),
               "%s: naive 2 steps, then cputile", what);
        tap_ok(ok && grids_split_run(&g, p, naive, 5, STEPS - 5),
               "%s: cputile 5 steps, then naive", what);
        cls_plan_release(naive);
        cls_plan_release(p);
    }
    grids_free(&g);
}

/* Float with every boundary kind (`written`: clamp, what they add is their structure), double
 * with mirror. */
static void each_kind(cls_context *ctx, cls_stencil *st, int has_double, int written)
{
    const char *name = cls_stencil_name(st);
    int heights = !strcmp(name, "fdtd3d") || !strcmp(name, "wave2d");
    for (int dt = 0; dt < (written ? 1 : 2); dt++) {
        if (dt && !has_double) {
            tap_skip(name, "no double precision");
            continue;
        }
        cls_stencil_set_dtype(st, dt ? CLS_FLOAT64 : CLS_FLOAT32);
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
            if (dt && b != (int)CLS_BOUNDARY_MIRROR) continue;
            if (written && b != (int)CLS_BOUNDARY_CLAMP) continue;
            char what[160];
            cls_stencil_set_boundary(st, (cls_boundary)b, -0.25);
            snprintf(what, sizeof what, "%s %s %s", name, dt ? "double" : "float",
                     cls_boundary_name((cls_boundary)b));
            int clamp = !dt && b == (int)CLS_BOUNDARY_CLAMP;
            cases(ctx, st, what, clamp && heights, clamp && !written);
        }
    }
}

/* A tile larger than the grid and more groups than tiles (wave3d); the model's tile and height
 * (fdtd2d). */
static void shapes(cls_context *ctx)
{
    static const char *const names[] = {"wave3d", "fdtd2d"};
    for (size_t i = 0; i < 2; i++) {
        cls_stencil *st = NULL;
        grids g;
        if (!tap_ok(cls_stencil_builtin(names[i], &st) == CLS_SUCCESS &&
                        grids_make_on(&g, st, grid_of(cls_stencil_dims(st)), STEPS),
                    "%s: inputs and the reference", names[i])) {
            cls_stencil_release(st);
            continue;
        }
        if (i == 0) {
            run_one(ctx, st, &g, "cputile.tile=32x32x32 cputile.height=4", names[i]);
            run_one(ctx, st, &g, "cputile.tile=9x7x7 cputile.height=3 cputile.groups=16", names[i]);
        } else {
            run_one(ctx, st, &g, "", names[i]);
        }
        grids_free(&g);
        cls_stencil_release(st);
    }
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("systems on the cputile schedule", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(cls_stencil_builtin_name(i), &st) != CLS_SUCCESS) continue;
        if (cls_stencil_is_system(st)) each_kind(ctx, st, info.double_support, 0);
        cls_stencil_release(st);
    }
    for (size_t i = 0; sg_written(i); i++) {
        cls_stencil *st = NULL;
        if (!tap_ok(cls_stencil_from_json(sg_written(i), &st) == CLS_SUCCESS, "system %zu parses",
                    i)) {
            tap_diag("%s", cls_last_error());
            continue;
        }
        each_kind(ctx, st, info.double_support, 1);
        cls_stencil_release(st);
    }
    shapes(ctx);
    cls_context_release(ctx);
    return tap_done();
}
