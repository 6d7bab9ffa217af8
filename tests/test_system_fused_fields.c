/* test_system_fused_fields.c: fused stream25d steps for systems whose one stage updates several
 * fields (cl/stream25d_tb.cl, CLS_TB_F > 1) on the test device, bitwise against
 * cls_reference_run_fields: gray_scott (2D, lifted to NX x 1 x NY) on 67x45 and 130x9 and a 3D
 * two-field system written here (in-plane diagonals, both fields read by both updates, an
 * auxiliary array read at an offset, STEP) on 19x14x13, every boundary kind, float and double,
 * k = 1, 2, 3 over 7 steps (a shorter last pass), states advanced 3 + 4 steps and handed
 * between the naive and the fused plans; systems outside the kernel's shapes refused naming why;
 * AUTO under the H100 stand-in fuses steps for gray_scott at 8192^2 (periodic) with a
 * prediction and declines them on a clamp grid. */
#define _XOPEN_SOURCE 700 /* nftw, setenv, mkdtemp (h100_standin.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "h100_standin.h"
#include "system_grids.h"
#include "tap.h"

static const char pair3d[] =
    "{\"name\": \"pair3d\", \"dims\": 3, \"fields\": [\"a\", \"b\"], \"aux\": [\"w\"], "
    "\"params\": {\"c\": 0.125}, \"stages\": [{\"update\": {\"a\": \"c * (IN(a, 1, 0, 0) + "
    "IN(a, -1, 0, 0) + IN(b, 0, 1, 1) + IN(b, 1, -1, 0)) + 0.5 * IN(a, 0, 0, -1) - 0.25 * IN(b, 0, "
    "0, 0) + 0.0625 * AUX(w, -1, 0, 1)\", \"b\": \"0.25 * (IN(a, 0, -1, 0) + IN(b, 0, 0, 1) + "
    "IN(b, -1, 1, 0)) + 0.125 * IN(a, 0, 0, 0) + STEP * 0.0078125\"}}]}";

enum { STEPS = 7 };

/* One case: dtype (0 float, 1 double), boundary, steps per pass, grid, tile parameters, and
 * whether states are split.  Each is a kernel to build (about a second on PoCL), so the kinds,
 * k, the grids and the tiles are spread over a few. */
typedef struct fcase {
    int dt, boundary;
    size_t k;
    cls_dims dims;
    const char *tile;
    int splits;
} fcase;

#define G2(x, y) {{x, y, 1}}
#define G3 {{19, 14, 13}}

static void run_case(cls_context *ctx, cls_stencil *st, const fcase *c)
{
    char what[200], params[300], want[64];
    grids g;
    cls_plan *p = NULL, *naive = NULL;
    cls_stencil_set_dtype(st, c->dt ? CLS_FLOAT64 : CLS_FLOAT32);
    cls_stencil_set_boundary(st, (cls_boundary)c->boundary, -0.25);
    snprintf(what, sizeof what, "%s %s %s %zux%zux%zu k %zu", cls_stencil_name(st),
             c->dt ? "double" : "float", cls_boundary_name((cls_boundary)c->boundary),
             c->dims.n[0], c->dims.n[1], c->dims.n[2], c->k);
    if (!tap_ok(grids_make_on(&g, st, c->dims, STEPS), "%s: inputs and the reference", what)) {
        grids_free(&g);
        return;
    }
    snprintf(params, sizeof params, "pipeline.scheme=off stream25d.steps_per_pass=%zu %s", c->k,
             c->tile);
    snprintf(want, sizeof want, "%zu", c->k);
    const char *got = NULL;
    int ok = grids_plan(ctx, st, c->dims, STEPS, CLS_SCHEDULE_STREAM25D, params, &p) &&
             (got = cls_plan_param(p, "stream25d.steps_per_pass")) && !strcmp(got, want) &&
             cls_plan_run_fields(p, (const void *const *)g.in, (const void *const *)g.aux, g.out,
                                 NULL) == CLS_SUCCESS;
    tap_ok(ok && equal_ref(&g), "%s: %s: every field equals the reference", what, c->tile);
    if (!ok) tap_diag("%s", got ? cls_last_error() : "no such plan");
    if (ok && c->splits) {
        tap_ok(grids_split_run(&g, p, p, 3, STEPS - 3), "%s: a state advanced 3 + 4 steps", what);
        if (grids_plan(ctx, st, c->dims, STEPS, CLS_SCHEDULE_NAIVE, "pipeline.scheme=off",
                       &naive)) {
            tap_ok(grids_split_run(&g, naive, p, 2, STEPS - 2), "%s: naive 2 steps, then fused",
                   what);
            tap_ok(grids_split_run(&g, p, naive, 5, STEPS - 5), "%s: fused 5 steps, then naive",
                   what);
        }
    }
    cls_plan_release(naive);
    cls_plan_release(p);
    grids_free(&g);
}

static void run_cases(cls_context *ctx, cls_stencil *st, const fcase *cs, size_t n,
                      int has_double)
{
    for (size_t i = 0; i < n; i++) {
        if (cs[i].dt && !has_double) tap_skip(cls_stencil_name(st), "no double precision");
        else run_case(ctx, st, &cs[i]);
    }
}

/* Fused steps asked for on several-field systems outside the kernel's shapes: refused naming
 * why. */
static void refusals(cls_context *ctx)
{
    static const struct {
        const char *json, *reason;
    } cases[] = {
        /* two updated fields and a time level of one of them */
        {"{\"name\": \"pairlevel\", \"dims\": 3, \"fields\": [\"a\", \"b\", {\"name\": \"a1\", "
         "\"previous\": \"a\"}], \"stages\": [{\"update\": {\"a\": \"IN(b, 1, 0, 0) + IN(a1, 0, 0, "
         "0)\", \"b\": \"IN(a, 0, 0, 1)\"}}]}",
         "no time levels"},
        /* five updated fields, one more than the kernel takes */
        {"{\"name\": \"five\", \"dims\": 3, \"fields\": [\"a\", \"b\", \"c\", \"d\", \"e\"], "
         "\"stages\": [{\"update\": {\"a\": \"IN(b, 0, 0, 0)\", \"b\": \"IN(c, 0, 0, 0)\", \"c\": "
         "\"IN(d, 0, 0, 0)\", \"d\": \"IN(e, 0, 0, 0)\", \"e\": \"IN(a, 0, 0, 0)\"}}]}",
         "at most 4 fields"},
        /* one update reads the other field two points away */
        {"{\"name\": \"pairfar\", \"dims\": 3, \"fields\": [\"a\", \"b\"], \"stages\": "
         "[{\"update\": {\"a\": \"IN(b, 2, 0, 0)\", \"b\": \"IN(a, 0, 0, 1)\"}}]}",
         "within radius 1"},
    };
    const cls_dims d = {{19, 14, 13}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cls_stencil *st = NULL;
        cls_plan *p = NULL;
        if (!tap_ok(cls_stencil_from_json(cases[i].json, &st) == CLS_SUCCESS, "system %zu parses",
                    i)) {
            tap_diag("%s", cls_last_error());
            continue;
        }
        int made = grids_plan(ctx, st, d, STEPS, CLS_SCHEDULE_STREAM25D,
                           "pipeline.scheme=off stream25d.steps_per_pass=2", &p);
        tap_ok(!made && strstr(cls_last_error(), "fused steps") &&
                   strstr(cls_last_error(), cases[i].reason),
               "%s: fused steps refused naming why (%s)", cls_stencil_name(st), cls_last_error());
        cls_plan_release(p);
        cls_stencil_release(st);
    }
}

/* AUTO under the H100 stand-in: gray_scott 8192^2 periodic, 20 steps, fused with a prediction
 * (planned here, not run: its speed is the H100's to tell). */
static void auto_case(void)
{
    char dir[] = "/tmp/cls-fused-fields-XXXXXX", path[4096];
    cls_context *ctx = NULL;
    cls_stencil *st = NULL;
    cls_plan *p = NULL;
    cls_plan_info info;
    if (!standin_cache_dir(dir) || !standin_context(path, sizeof path, &ctx)) {
        tap_skip("AUTO under the H100 stand-in", "no model cache");
        cls_context_release(ctx);
        return;
    }
    const cls_dims big = {{8192, 8192, 1}};
    int ok = cls_stencil_builtin("gray_scott", &st) == CLS_SUCCESS &&
             grids_plan(ctx, st, big, 20, CLS_SCHEDULE_AUTO, NULL, &p) &&
             cls_plan_describe(p, &info) == CLS_SUCCESS;
    const char *k = ok ? cls_plan_param(p, "stream25d.steps_per_pass") : NULL;
    tap_ok(ok && info.schedule == CLS_SCHEDULE_STREAM25D && k && strcmp(k, "1") &&
               strstr(info.why, "fields") && info.predicted_seconds > 0,
           "gray_scott 8192^2 periodic: AUTO fuses steps with a prediction (%s: %s)",
           ok ? info.params : "-", ok ? info.why : cls_last_error());
    cls_plan_release(p);
    p = NULL;
    /* clamp: fused under the H100 model's tuning.stream25d_system_fix_ups 1 */
    ok = st && cls_stencil_set_boundary(st, CLS_BOUNDARY_CLAMP, 0) == CLS_SUCCESS &&
         grids_plan(ctx, st, big, 20, CLS_SCHEDULE_AUTO, NULL, &p) &&
         cls_plan_describe(p, &info) == CLS_SUCCESS;
    k = ok ? cls_plan_param(p, "stream25d.steps_per_pass") : NULL;
    tap_ok(ok && info.schedule == CLS_SCHEDULE_STREAM25D && k && strcmp(k, "1"),
           "gray_scott 8192^2 clamp: AUTO fuses steps (%s: %s)", ok ? info.params : "-",
           ok ? info.why : cls_last_error());
    cls_plan_release(p);
    p = NULL;
    /* and declines them, naming why, under tuning.stream25d_system_fix_ups 0 */
    ok = standin_set(&ctx, path, "tuning.stream25d_system_fix_ups", 0) && st &&
         grids_plan(ctx, st, big, 20, CLS_SCHEDULE_AUTO, NULL, &p) &&
         cls_plan_describe(p, &info) == CLS_SUCCESS;
    tap_ok(ok && info.schedule != CLS_SCHEDULE_STREAM25D && strstr(info.why, "fix-ups"),
           "gray_scott 8192^2 clamp, tuning.stream25d_system_fix_ups 0: AUTO declines fused "
           "steps naming why (%s)",
           ok ? info.why : cls_last_error());
    cls_plan_release(p);
    cls_stencil_release(st);
    cls_context_release(ctx);
    standin_remove(dir);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("fused stream25d steps for several fields", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    const char *const c32 = "stream25d.tile=32x1 stream25d.loader=classic";
    const char *const a64 = "stream25d.tile=64x1 stream25d.loader=aligned stream25d.prefetch=2";
    /* gray_scott: both loaders on one-row tiles, the grids ragged against them */
    fcase gs[] = {
        {0, CLS_BOUNDARY_PERIODIC, 2, G2(67, 45), c32, 1},
        {0, CLS_BOUNDARY_CLAMP, 3, G2(130, 9), a64, 0},
        {1, CLS_BOUNDARY_MIRROR, 2, G2(130, 9), a64, 0},
        {1, CLS_BOUNDARY_CONSTANT, 3, G2(67, 45), c32, 0},
        {1, CLS_BOUNDARY_PERIODIC, 1, G2(67, 45), c32, 0},
    };
    /* the 3D pair: tiles shrinking in x and y, two rows per work-item, chunks of planes */
    const char *const t3[] = {
        "stream25d.tile=16x10 stream25d.loader=classic stream25d.planes=5",
        "stream25d.tile=32x5 stream25d.rows_per_item=2 stream25d.loader=aligned",
        "stream25d.tile=13x11 stream25d.loader=classic stream25d.prefetch=2 stream25d.planes=6",
    };
    const fcase p3[] = {
        {0, CLS_BOUNDARY_CLAMP, 2, G3, t3[0], 1},    {0, CLS_BOUNDARY_CONSTANT, 3, G3, t3[0], 0},
        {0, CLS_BOUNDARY_MIRROR, 2, G3, t3[2], 0},   {0, CLS_BOUNDARY_PERIODIC, 1, G3, t3[2], 0},
        {1, CLS_BOUNDARY_PERIODIC, 2, G3, t3[1], 0},
    };
    cls_stencil *st = NULL;
    if (tap_ok(cls_stencil_builtin("gray_scott", &st) == CLS_SUCCESS, "gray_scott"))
        run_cases(ctx, st, gs, sizeof gs / sizeof gs[0], info.double_support);
    cls_stencil_release(st);
    st = NULL;
    if (tap_ok(cls_stencil_from_json(pair3d, &st) == CLS_SUCCESS, "pair3d parses"))
        run_cases(ctx, st, p3, sizeof p3 / sizeof p3[0], info.double_support);
    else
        tap_diag("%s", cls_last_error());
    cls_stencil_release(st);
    refusals(ctx);
    cls_context_release(ctx);
    auto_case();
    return tap_done();
}
