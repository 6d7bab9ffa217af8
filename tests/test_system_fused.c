/* test_system_fused.c: fused stream25d steps for systems (cl/stream25d_tb.cl with time levels)
 * on the test device, bitwise against cls_reference_run_fields: wave3d at 2, 3 and 4 steps per
 * pass on several tiles and loaders, every boundary kind in float, two in double; systems
 * written here with a chain of two time levels, an auxiliary array, STEP and an in-plane
 * diagonal, and one field with no time level whose update skips its centre; 7 steps
 * (no multiple of 2, 3 or 4: a shorter last pass), a state advanced 3 + 4 steps (a first pass
 * shorter than k, the rotation of both outputs), and states handed between the naive and the
 * fused plans; out-of-scope systems refused with the reason when fused steps are asked for
 * (one of them then streamed one step per pass); AUTO under the H100 stand-in fuses steps for
 * wave3d on periodic, clamp and constant grids with a prediction, on the work-group its ranking
 * by resident rows picks, declines a mirror grid, fdtd3d and wave3d in double precision with the
 * reason, and a clamp grid too under tuning.stream25d_system_fix_ups 0. */
#define _XOPEN_SOURCE 700 /* nftw, setenv, mkdtemp (h100_standin.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "h100_standin.h"
#include "system_grids.h"
#include "tap.h"

static const char *const written[] = {
    /* a chain of two levels, an aux array read at an offset, STEP, an in-plane diagonal */
    "{\"name\": \"levels3d\", \"dims\": 3, \"fields\": [\"w\", {\"name\": \"w1\", \"previous\": "
    "\"w\"}, {\"name\": \"w2\", \"previous\": \"w1\"}], \"aux\": [\"c\"], \"params\": {\"b\": "
    "0.125}, \"stages\": [{\"update\": {\"w\": \"b * (IN(w, 1, 0, 0) + IN(w, 0, -1, 1) + IN(w, "
    "1, 1, 0)) + 0.5 * IN(w1, 0, 0, 0) - 0.25 * IN(w2, 0, 0, 0) + AUX(c, -1, 0, 1) + STEP * "
    "0.0078125\"}}]}",
    /* one field declared as a system, no time level, no point of its own column read */
    "{\"name\": \"nocentre\", \"dims\": 3, \"fields\": [\"a\"], \"stages\": [{\"update\": {\"a\": "
    "\"0.25 * (IN(a, 1, 0, 0) + IN(a, -1, 0, 0) + IN(a, 0, 1, 1)) + 0.125 * IN(a, 0, -1, -1)\"}}]}",
    NULL};

enum { STEPS = 7 };

static const cls_dims grid = {{19, 14, 13}};

static int make_plan(cls_context *ctx, cls_stencil *st, cls_schedule sched, const char *params,
                     cls_plan **plan)
{
    return grids_plan(ctx, st, grid, STEPS, sched, params, plan);
}

/* A state advanced `first` steps on plan a and the rest of STEPS on plan b. */
static int split_run(grids *g, cls_plan *a, cls_plan *b, size_t first)
{
    return grids_split_run(g, a, b, first, STEPS - first);
}

/* One fused configuration: planned as asked, run whole, and (when `splits`) advanced 3 + 4
 * steps, naive then fused and fused then naive. */
static void fused_case(cls_context *ctx, cls_stencil *st, grids *g, const char *what,
                       const char *params, size_t k, int splits)
{
    cls_plan *p = NULL;
    cls_plan_info info;
    int ok = make_plan(ctx, st, CLS_SCHEDULE_STREAM25D, params, &p) &&
             cls_plan_describe(p, &info) == CLS_SUCCESS;
    char want[64];
    snprintf(want, sizeof want, "stream25d.steps_per_pass=%zu", k);
    ok = ok && strstr(info.params, want);
    for (size_t f = 0; ok && f < g->nf; f++) memset(g->out[f], 0, g->n * g->elem);
    ok = ok && cls_plan_run_fields(p, (const void *const *)g->in, (const void *const *)g->aux,
                                   g->out, NULL) == CLS_SUCCESS;
    tap_ok(ok && equal_ref(g), "%s: fused %s equals the reference", what, params);
    if (!ok) tap_diag("%s", cls_last_error());
    if (ok && splits) {
        cls_plan *naive = NULL;
        tap_ok(split_run(g, p, p, 3), "%s: %s: a state advanced 3 + 4 steps", what, params);
        if (make_plan(ctx, st, CLS_SCHEDULE_NAIVE, NULL, &naive)) {
            tap_ok(split_run(g, naive, p, 2), "%s: naive 2 steps, then fused", what);
            tap_ok(split_run(g, p, naive, 5), "%s: fused 5 steps, then naive", what);
        }
        cls_plan_release(naive);
    }
    cls_plan_release(p);
}

/* The cases of one system: dtype (0 float, 1 double), boundary, steps per pass, tile and
 * loader, and whether states are split; each is one kernel to build (seconds on PoCL), so the
 * boundary kinds, k and the tiles are spread over a few. */
typedef struct fcase {
    int dt, boundary;
    size_t k;
    const char *tile;
    int splits;
} fcase;

static const char *const tiles[] = {
    "stream25d.tile=16x10 stream25d.loader=classic",
    "stream25d.tile=32x5 stream25d.rows_per_item=2 stream25d.loader=aligned stream25d.planes=5",
    "stream25d.tile=13x11 stream25d.loader=classic stream25d.prefetch=2 stream25d.planes=6",
};

static void fused_cases(cls_context *ctx, cls_stencil *st, const fcase *cs, size_t n,
                        int has_double)
{
    for (size_t i = 0; i < n; i++) {
        const fcase *c = &cs[i];
        char what[160], params[300];
        grids g;
        if (c->dt && !has_double) {
            tap_skip(cls_stencil_name(st), "no double precision");
            continue;
        }
        cls_stencil_set_dtype(st, c->dt ? CLS_FLOAT64 : CLS_FLOAT32);
        cls_stencil_set_boundary(st, (cls_boundary)c->boundary, -0.25);
        snprintf(what, sizeof what, "%s %s %s", cls_stencil_name(st), c->dt ? "double" : "float",
                 cls_boundary_name((cls_boundary)c->boundary));
        if (!tap_ok(grids_make_on(&g, st, grid, STEPS), "%s: inputs and the reference", what)) {
            grids_free(&g);
            continue;
        }
        snprintf(params, sizeof params, "stream25d.steps_per_pass=%zu %s", c->k, c->tile);
        fused_case(ctx, st, &g, what, params, c->k, c->splits);
        grids_free(&g);
    }
}

/* Fused steps asked for on systems outside the kernel's shapes: refused with the reason; one
 * step per pass still runs them. */
static void refusals(cls_context *ctx)
{
    static const struct {
        const char *name, *json, *reason;
    } cases[] = {
        {"fdtd3d", NULL, "stages"},
        {"star2", "{\"name\": \"star2\", \"dims\": 3, \"fields\": [\"u\", {\"name\": \"v\", "
                  "\"previous\": \"u\"}], \"stages\": [{\"update\": {\"u\": \"0.5 * IN(u, 0, 2, 0) + "
                  "0.25 * (IN(u, -1, 0, 0) + IN(v, 0, 0, 0))\"}}]}",
         "within radius 1"},
        {"prevoff", "{\"name\": \"prevoff\", \"dims\": 3, \"fields\": [\"u\", {\"name\": \"v\", "
                    "\"previous\": \"u\"}], \"stages\": [{\"update\": {\"u\": \"IN(u, 1, 0, 0) - "
                    "IN(v, 0, 1, 0)\"}}]}",
         "at the point only"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cls_stencil *st = NULL;
        int ok = cases[i].json ? cls_stencil_from_json(cases[i].json, &st) == CLS_SUCCESS
                               : cls_stencil_builtin(cases[i].name, &st) == CLS_SUCCESS;
        if (!tap_ok(ok, "%s: the system", cases[i].name)) continue;
        cls_plan *p = NULL;
        int made = make_plan(ctx, st, CLS_SCHEDULE_STREAM25D, "stream25d.steps_per_pass=2", &p);
        tap_ok(!made && strstr(cls_last_error(), "fused steps") &&
                   strstr(cls_last_error(), cases[i].reason),
               "%s: fused steps refused naming why (%s)", cases[i].name, cls_last_error());
        cls_plan_release(p);
        p = NULL;
        grids g;
        memset(&g, 0, sizeof g);
        if (i != 2) { /* one step per pass for one of them (test_system_sched has the rest) */
            cls_stencil_release(st);
            continue;
        }
        ok = grids_make_on(&g, st, grid, STEPS) &&
             make_plan(ctx, st, CLS_SCHEDULE_STREAM25D, "stream25d.steps_per_pass=1", &p) &&
             cls_plan_run_fields(p, (const void *const *)g.in, (const void *const *)g.aux, g.out,
                                 NULL) == CLS_SUCCESS;
        tap_ok(ok && equal_ref(&g), "%s: one step per pass still equals the reference",
               cases[i].name);
        if (!ok) tap_diag("%s", cls_last_error());
        cls_plan_release(p);
        grids_free(&g);
        cls_stencil_release(st);
    }
}

/* Fused steps hold each field twice (one set read, the other written): under a device-memory
 * cap that the rotation's three buffers of wave3d fit but four do not, they are refused with the
 * bytes, and one step per pass still plans. */
static void memory_cap(cls_context *ctx)
{
    cls_stencil *st = NULL;
    if (!tap_ok(cls_stencil_builtin("wave3d", &st) == CLS_SUCCESS, "wave3d: the system")) return;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.device_memory = 3.5 * (double)cls_dims_points(grid) * sizeof(float);
    opt.params = "stream25d.steps_per_pass=2 pipeline.scheme=off";
    cls_plan *p = NULL;
    cls_status s = cls_plan_create(ctx, st, grid, STEPS, &opt, &p);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && !p && strstr(cls_last_error(), "twice on the device"),
           "wave3d under a cap of 3.5 grids: fused steps refused (%s)", cls_last_error());
    cls_plan_release(p);
    p = NULL;
    opt.params = "stream25d.steps_per_pass=1 pipeline.scheme=off";
    s = cls_plan_create(ctx, st, grid, STEPS, &opt, &p);
    tap_ok(s == CLS_SUCCESS && p, "wave3d under a cap of 3.5 grids: one step per pass plans (%s)",
           s == CLS_SUCCESS ? "ok" : cls_last_error());
    cls_plan_release(p);
    cls_stencil_release(st);
}

/* AUTO under the H100 stand-in on a 256^3 grid of 20 steps (planned here, not run: its speed
 * is the H100's to tell; the forced cases above run its kernel's shapes bitwise). */
static void auto_cases(void)
{
    char dir[] = "/tmp/cls-fused-XXXXXX", path[4096];
    cls_context *ctx = NULL;
    if (!standin_cache_dir(dir) || !standin_context(path, sizeof path, &ctx)) {
        tap_skip("AUTO under the H100 stand-in", "no model cache");
        cls_context_release(ctx);
        return;
    }
    /* fix_ups, rows: the stand-in's tuning.stream25d_system_fix_ups and _latency_rows (the H100
     * model's are 1 and 64); fused (no reason), with bx x by the plan's work-group where its
     * tile is ranked by resident rows (under 64: the clamp kernel's registers leave one 32x8
     * group per SM, two of 32x6; under 0 the ghost-zone model's own, whose size depends on the
     * device's limits), or declined for `reason` (double precision:
     * tuning.stream25d_system_gain_fp64 1.2) */
    static const struct {
        const char *name;
        int boundary, fix_ups, rows, dbl;
        size_t bx, by;
        const char *reason;
    } cases[] = {
        {"wave3d", CLS_BOUNDARY_PERIODIC, 1, 64, 0, 32, 8, NULL},
        {"wave3d", CLS_BOUNDARY_CLAMP, 1, 64, 0, 32, 6, NULL},
        {"wave3d", CLS_BOUNDARY_CONSTANT, 1, 64, 0, 32, 6, NULL},
        {"wave3d", CLS_BOUNDARY_CLAMP, 1, 64, 1, 0, 0, "stream25d_system_gain_fp64"},
        {"wave3d", CLS_BOUNDARY_MIRROR, 1, 64, 0, 0, 0, "mirror"},
        {"fdtd3d", CLS_BOUNDARY_PERIODIC, 1, 64, 0, 0, 0, "stages"},
        {"wave3d", CLS_BOUNDARY_CLAMP, 1, 0, 0, 0, 0, NULL},
        {"wave3d", CLS_BOUNDARY_CLAMP, 0, 0, 0, 0, 0, "fix-ups"},
        {"wave3d", CLS_BOUNDARY_PERIODIC, 0, 0, 0, 0, 0, NULL},
    };
    const cls_dims big = {{256, 256, 256}};
    int fix_ups = 1, rows = 64;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].fix_ups != fix_ups || cases[i].rows != rows) {
            fix_ups = cases[i].fix_ups;
            rows = cases[i].rows;
            if (!standin_set(&ctx, path, "tuning.stream25d_system_fix_ups", fix_ups) ||
                !standin_set(&ctx, path, "tuning.stream25d_latency_rows", rows)) {
                tap_ok(0, "the H100 stand-in with tuning.stream25d_system_fix_ups %d and "
                       "tuning.stream25d_latency_rows %d (%s)",
                       fix_ups, rows, cls_last_error());
                break;
            }
        }
        cls_stencil *st = NULL;
        cls_plan *p = NULL;
        cls_plan_info info;
        if (cls_stencil_builtin(cases[i].name, &st) != CLS_SUCCESS) continue;
        cls_stencil_set_boundary(st, (cls_boundary)cases[i].boundary, 0);
        if (cases[i].dbl) cls_stencil_set_dtype(st, CLS_FLOAT64);
        char bn[64];
        snprintf(bn, sizeof bn, "%s%s", cls_boundary_name((cls_boundary)cases[i].boundary),
                 cases[i].dbl ? " double" : "");
        int ok = grids_plan(ctx, st, big, 20, CLS_SCHEDULE_AUTO, NULL, &p) &&
                 cls_plan_describe(p, &info) == CLS_SUCCESS;
        if (!ok) {
            tap_ok(0, "%s %s: AUTO plans (%s)", cases[i].name, bn, cls_last_error());
        } else if (!cases[i].reason) {
            tap_ok(info.schedule == CLS_SCHEDULE_STREAM25D && strstr(info.params, "steps_per_pass") &&
                       !strstr(info.params, "steps_per_pass=1") &&
                       strstr(info.why, "time level") && info.predicted_seconds > 0 &&
                       (cases[i].bx ? info.local_size[0] == cases[i].bx &&
                                          info.local_size[1] == cases[i].by
                                    : !strstr(info.why, "resident rows")),
                   "%s %s: AUTO fuses steps on %s with a prediction (%zux%zu: %s: %s)",
                   cases[i].name, bn, cases[i].bx ? "the groups ranked by resident rows"
                                                  : "the ghost-zone model's groups",
                   info.local_size[0], info.local_size[1],
                   info.params, info.why);
        } else {
            tap_ok(info.schedule != CLS_SCHEDULE_STREAM25D && strstr(info.why, cases[i].reason),
                   "%s %s: AUTO declines fused steps naming why (%s)", cases[i].name, bn,
                   info.why);
        }
        cls_plan_release(p);
        cls_stencil_release(st);
    }
    cls_context_release(ctx);
    standin_remove(dir);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("fused stream25d steps for systems", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    /* wave3d: every boundary kind in float at k = 2, 3, 4 (the states split at k = 4: a first
     * pass of 3 steps), two in double; the chain of two levels with an aux array; a field
     * whose update does not read its centre (a shorter last pass copies it). */
    static const fcase wave[] = {
        {0, CLS_BOUNDARY_CLAMP, 4, tiles[1], 1},    {0, CLS_BOUNDARY_CONSTANT, 2, tiles[0], 0},
        {0, CLS_BOUNDARY_PERIODIC, 3, tiles[2], 0}, {0, CLS_BOUNDARY_MIRROR, 3, tiles[1], 0},
        {1, CLS_BOUNDARY_MIRROR, 2, tiles[2], 0},   {1, CLS_BOUNDARY_PERIODIC, 4, tiles[0], 0},
    };
    static const fcase levels[] = {
        {0, CLS_BOUNDARY_CONSTANT, 4, tiles[2], 1},
        {0, CLS_BOUNDARY_PERIODIC, 2, tiles[1], 0},
    };
    static const fcase nocentre[] = {{0, CLS_BOUNDARY_PERIODIC, 4, tiles[0], 0}};
    static const struct {
        const fcase *cs;
        size_t n;
    } sets[] = {{levels, 2}, {nocentre, 1}};
    cls_stencil *st = NULL;
    if (cls_stencil_builtin("wave3d", &st) == CLS_SUCCESS)
        fused_cases(ctx, st, wave, sizeof wave / sizeof wave[0], info.double_support);
    cls_stencil_release(st);
    for (size_t i = 0; written[i]; i++) {
        st = NULL;
        if (!tap_ok(cls_stencil_from_json(written[i], &st) == CLS_SUCCESS, "system %zu parses", i)) {
            tap_diag("%s", cls_last_error());
            continue;
        }
        fused_cases(ctx, st, sets[i].cs, sets[i].n, 0);
        cls_stencil_release(st);
    }
    refusals(ctx);
    memory_cap(ctx);
    cls_context_release(ctx);
    auto_cases();
    return tap_done();
}
