/* test_pipeline_system.c: systems of fields through the host-resident pipeline
 * (lib/schedules/pipeline) on PoCL, bitwise against cls_reference_run_fields: wave2d,
 * gray_scott, fdtd2d, wave3d and a time-level chain with an auxiliary array and STEP, each
 * x the basic, scalable and buffered schemes x 1, 2 and 3 steps per tile (5 steps: sweeps of
 * 2 + 2 + 1 and 3 + 2) x tiles that do not divide the grid (along the slowest axis, with halo
 * reuse, and split in every axis) x float and double x clamp, constant, mirror and periodic
 * boundaries; merged and rectangular copies; a device-memory cap below the fields, which the
 * planner runs tiled by itself; a host state advanced in parts; an in-place run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "system_grids.h"
#include "tap.h"

enum { STEPS = 5 };

static const char levels[] =
    "{\"name\": \"levels\", \"dims\": 2, \"fields\": [\"w\", {\"name\": \"w1\", \"previous\": "
    "\"w\"}, {\"name\": \"w2\", \"previous\": \"w1\"}], \"aux\": [\"c\"], \"params\": {\"b\": "
    "0.125}, \"stages\": [{\"update\": {\"w\": \"b * (IN(w, 2, 0) + IN(w, 0, -1)) + 0.5 * "
    "IN(w1, 1, 1) - 0.25 * IN(w2, 0, 0) + AUX(c, -1, 1) + STEP * 0.0078125 + X * 0.001\"}}]}";

/* Small grids for the matrix; larger ones (`big`) for a cap, where tiles that fit it must
 * still be worth running. */
static cls_dims grid_of(int d, int big)
{
    cls_dims g = {{1, 1, 1}};
    if (d == 2) g.n[0] = big ? 160 : 45, g.n[1] = big ? 121 : 29;
    if (d == 3) g.n[0] = big ? 40 : 17, g.n[1] = big ? 36 : 14, g.n[2] = big ? 33 : 13;
    return g;
}

static int grids_make(grids *g, const cls_stencil *st, int big)
{
    return grids_make_on(g, st, grid_of(cls_stencil_dims(st), big), STEPS);
}

static int plan_pipeline(cls_context *ctx, cls_stencil *st, const grids *g, const char *params,
                         double cap, cls_plan **plan)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.params = params;
    opt.device_memory = cap;
    *plan = NULL;
    if (cls_plan_create(ctx, st, g->dims, STEPS, &opt, plan) != CLS_SUCCESS) return 0;
    cls_plan_info info;
    return cls_plan_describe(*plan, &info) == CLS_SUCCESS &&
           info.host_schedule == CLS_SCHEDULE_PIPELINE;
}

static int run_fields(cls_plan *p, grids *g, int in_place)
{
    for (size_t f = 0; f < g->nf; f++) memset(g->out[f], 0, g->n * g->elem);
    void **dst = in_place ? g->in : g->out;
    int ok = cls_plan_run_fields(p, (const void *const *)g->in, (const void *const *)g->aux, dst,
                                 NULL) == CLS_SUCCESS;
    if (!ok) tap_diag("%s", cls_last_error());
    if (ok && in_place)
        for (size_t f = 0; f < g->nf; f++) memcpy(g->out[f], g->in[f], g->n * g->elem);
    return ok;
}

/* The tiles tried: along the slowest axis (halo reuse, basic and scalable) and split in every
 * axis, neither dividing the grid. */
static const char *tile_of(int dims, int split)
{
    if (dims == 2) return split ? "20x8" : "45x6";
    return split ? "9x6x13" : "17x14x4";
}

static const char *const boundary_names[] = {"clamp", "constant", "periodic", "mirror"};

/* Every scheme x steps per tile for one stencil, dtype and boundary. */
static void matrix(cls_context *ctx, cls_stencil *st, cls_dtype dt, cls_boundary b)
{
    static const char *const schemes[] = {"basic", "scalable", "buffered"};
    grids g;
    cls_stencil_set_dtype(st, dt);
    cls_stencil_set_boundary(st, b, 0.375);
    char what[96];
    snprintf(what, sizeof what, "%s %s %s", cls_stencil_name(st),
             dt == CLS_FLOAT64 ? "double" : "float", boundary_names[b]);
    if (!tap_ok(grids_make(&g, st, 0), "%s: inputs and the reference", what)) {
        tap_diag("%s", cls_last_error());
        grids_free(&g);
        return;
    }
    int bad = 0, runs = 0;
    for (int s = 0; s < 3; s++)
        for (size_t h = 1; h <= 3; h++) {
            int split = (s + (int)h) % 2, rect = s == 1 && h == 2;
            char params[160];
            snprintf(params, sizeof params,
                     "pipeline.scheme=%s pipeline.tile=%s pipeline.steps=%zu pipeline.rect=%d",
                     schemes[s], tile_of(cls_stencil_dims(st), split), h, rect);
            cls_plan *p = NULL;
            int ok = plan_pipeline(ctx, st, &g, params, 0, &p);
            if (!ok) tap_diag("%s: %s: %s", what, params, cls_last_error());
            ok = ok && run_fields(p, &g, 0) && equal_ref(&g);
            if (!ok) {
                tap_diag("%s: %s differs from the reference", what, params);
                bad++;
            }
            runs++;
            cls_plan_release(p);
        }
    tap_ok(!bad, "%s: %d runs (3 schemes x 1..3 steps per tile, edge tiles, split tiles), bitwise "
           "the reference", what, runs);
    grids_free(&g);
}

/* A cap below the fields: AUTO pipelines by itself; a host state in two advances; in place. */
static void capped(cls_context *ctx, cls_stencil *st, cls_boundary b)
{
    grids g;
    cls_stencil_set_dtype(st, CLS_FLOAT32);
    cls_stencil_set_boundary(st, b, 0.375);
    if (!tap_ok(grids_make(&g, st, 1), "%s: capped inputs", cls_stencil_name(st))) {
        grids_free(&g);
        return;
    }
    /* the fields, but not the buffer their steps rotate through besides: the resident run
     * cannot fit */
    double cap = (double)(g.n * g.elem) * (double)g.nf;
    cls_plan *p = NULL;
    int ok = plan_pipeline(ctx, st, &g, NULL, cap, &p);
    tap_ok(ok, "%s %s: a cap of %.0f bytes pipelines (%s)", cls_stencil_name(st),
           boundary_names[b], cap, ok ? cls_plan_param(p, "pipeline.tiles") : cls_last_error());
    tap_ok(ok && run_fields(p, &g, 0) && equal_ref(&g), "%s %s: under the cap, bitwise",
           cls_stencil_name(st), boundary_names[b]);
    /* a host state: 2 steps, then 3 */
    cls_state *s = NULL;
    int sok = ok && cls_state_create(p, &s) == CLS_SUCCESS;
    for (size_t f = 0; sok && f < g.nf; f++)
        sok = cls_state_write_field(s, f, g.in[f]) == CLS_SUCCESS;
    for (size_t k = 0; sok && k < g.naux; k++)
        sok = cls_state_write_aux(s, k, g.aux[k], 1) == CLS_SUCCESS;
    sok = sok && cls_plan_advance(p, s, 2, NULL) == CLS_SUCCESS &&
          cls_plan_advance(p, s, 3, NULL) == CLS_SUCCESS;
    for (size_t f = 0; sok && f < g.nf; f++)
        sok = cls_state_read_field(s, f, g.out[f]) == CLS_SUCCESS;
    if (!sok && ok) tap_diag("%s", cls_last_error());
    tap_ok(sok && equal_ref(&g), "%s %s: a host state advanced 2 + 3 steps, bitwise",
           cls_stencil_name(st), boundary_names[b]);
    cls_state_release(s);
    /* last: the inputs become the results */
    tap_ok(ok && run_fields(p, &g, 1) && equal_ref(&g), "%s %s: in place, bitwise",
           cls_stencil_name(st), boundary_names[b]);
    cls_plan_release(p);
    grids_free(&g);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("systems through the pipeline", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    static const char *const names[] = {"wave2d", "gray_scott", "fdtd2d", "wave3d", NULL};
    for (size_t i = 0; i <= 4; i++) {
        cls_stencil *st = NULL;
        cls_status s = names[i] ? cls_stencil_builtin(names[i], &st)
                                : cls_stencil_from_json(levels, &st);
        if (!tap_ok(s == CLS_SUCCESS, "%s loads", names[i] ? names[i] : "levels")) continue;
        for (int d = 0; d < 2; d++) {
            if (d && !info.double_support) continue;
            static const cls_boundary kinds[] = {CLS_BOUNDARY_CLAMP, CLS_BOUNDARY_CONSTANT,
                                                 CLS_BOUNDARY_MIRROR, CLS_BOUNDARY_PERIODIC};
            for (int k = 0; k < 4; k++)
                matrix(ctx, st, d ? CLS_FLOAT64 : CLS_FLOAT32, kinds[k]);
        }
        if (i == 0 || i == 3) {
            capped(ctx, st, CLS_BOUNDARY_MIRROR);
            capped(ctx, st, CLS_BOUNDARY_PERIODIC);
        }
        cls_stencil_release(st);
    }
    cls_context_release(ctx);
    return tap_done();
}
