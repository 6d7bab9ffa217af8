/* test_pipeline_limits.c: what the planner refuses and picks at the limits of the device and
 * the host, on PoCL (no transfer tables: tiles by rule):
 *  - under a device-memory cap it never picks tiles thinner than the halo makes sensible: a
 *    470 KiB cap over a 67x45x39 double grid of a radius-2 stencil once gave 7,020 tiles of
 *    17x1x1 at 4 steps each, which copy and recompute mostly halo; the pick runs bitwise;
 *  - a cap that leaves only such tilings is refused with the cap in bytes, unless the
 *    pipeline is asked for;
 *  - a grid whose host arrays exceed the host's memory is refused with the bytes needed and
 *    the bytes the host has. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

/* Radius 2 along each axis, every coefficient a power of two over ten: a body the host
 * reference and the device compute alike. */
static const char *const r2_json =
    "{\"name\": \"r2\", \"dims\": 3, \"dtype\": \"double\", \"body\": "
    "\"0.4*IN(0,0,0) + 0.05*(IN(-1,0,0)+IN(1,0,0)+IN(0,-1,0)+IN(0,1,0)+IN(0,0,-1)+IN(0,0,1))"
    " + 0.05*(IN(-2,0,0)+IN(2,0,0)+IN(0,-2,0)+IN(0,2,0)+IN(0,0,-2)+IN(0,0,2))\"}";

static size_t param_size(const cls_plan *plan, const char *name, int part)
{
    const char *v = cls_plan_param(plan, name);
    for (int i = 0; v && i < part; i++) {
        v = strchr(v, 'x');
        if (v) v++;
    }
    return v ? (size_t)strtoull(v, NULL, 10) : 0;
}

/* Plans `st` on dims for `steps` with the cap and params; runs it from host arrays and
 * compares with the host reference when run is set.  Returns the plan's status. */
static cls_status plan_run(cls_context *ctx, cls_stencil *st, cls_dims dims, size_t steps,
                           double cap, const char *params, int run, cls_plan **out, int *bitwise)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.device_memory = cap;
    opt.params = params;
    *out = NULL;
    *bitwise = 0;
    cls_status s = cls_plan_create(ctx, st, dims, steps, &opt, out);
    if (s != CLS_SUCCESS || !run) return s;
    size_t n = cls_dims_points(dims);
    double *in = malloc(n * sizeof *in), *got = malloc(n * sizeof *got),
           *ref = malloc(n * sizeof *ref);
    if (!in || !got || !ref) {
        free(in), free(got), free(ref);
        return CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < n; i++) in[i] = sin(0.01 * (double)i) + 0.001 * (double)(i % 7);
    s = cls_reference_run(st, dims, steps, in, NULL, ref);
    if (s == CLS_SUCCESS) s = cls_plan_run(*out, in, NULL, got, NULL);
    if (s == CLS_SUCCESS) *bitwise = memcmp(got, ref, n * sizeof *ref) == 0;
    free(in);
    free(got);
    free(ref);
    return s;
}

int main(void)
{
    cls_context *ctx = NULL;
    cls_stencil *r2 = NULL, *heat = NULL;
    cls_plan *plan = NULL;
    int bitwise;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("pipeline limits", "no OpenCL device");
        return tap_done();
    }
    if (cls_stencil_from_json(r2_json, &r2) != CLS_SUCCESS ||
        cls_stencil_builtin("heat3d7", &heat) != CLS_SUCCESS) {
        tap_ok(0, "the test's stencils load: %s", cls_last_error());
        return tap_done();
    }

    /* The cap pick: every axis the tiles split is at least twice the padding (halo x steps
     * per tile) thick, so a tile computes more than it copies as halo. */
    const cls_dims d = {{67, 45, 39}};
    cls_status s = plan_run(ctx, r2, d, 8, 470.0 * 1024, NULL, 1, &plan, &bitwise);
    if (s == CLS_SUCCESS) {
        size_t h = param_size(plan, "pipeline.steps", 0), tiles = param_size(plan, "pipeline.tiles", 0);
        int thick = h >= 1;
        for (int k = 0; k < 3; k++) {
            size_t t = param_size(plan, "pipeline.tile", k);
            if (t < d.n[k] && t < 2 * 2 * h) thick = 0;
        }
        tap_ok(thick && tiles <= 64,
               "470 KiB cap, 67x45x39 double, radius 2: tile %s, %zu steps per tile, %zu tiles "
               "(no axis thinner than twice the padding, at most 64 tiles)",
               cls_plan_param(plan, "pipeline.tile"), h, tiles);
        tap_ok(bitwise, "... and its run is bitwise the host reference's");
    } else {
        tap_ok(0, "470 KiB cap, 67x45x39 double, radius 2 plans and runs: %s", cls_last_error());
        tap_ok(0, "... and its run is bitwise the host reference's");
    }
    cls_plan_release(plan);

    /* A cap that leaves only tilings of mostly halo: refused, naming the cap; asked for, the
     * pipeline runs anyway, bitwise. */
    s = plan_run(ctx, r2, d, 8, 20.0 * 1024, NULL, 0, &plan, &bitwise);
    tap_ok(s == CLS_ERR_TOO_LARGE && strstr(cls_last_error(), "20.0 KiB") &&
               strstr(cls_last_error(), "worth running"),
           "a 20 KiB cap is refused: %s", cls_last_error());
    cls_plan_release(plan);
    s = plan_run(ctx, r2, (cls_dims){{30, 20, 16}}, 3, 8.0 * 1024, "pipeline.scheme=scalable", 1,
                 &plan, &bitwise);
    tap_ok(s == CLS_SUCCESS && bitwise,
           "with the pipeline asked for, a cap that leaves only thin tiles runs (%s), bitwise",
           s == CLS_SUCCESS ? cls_plan_param(plan, "pipeline.tile") : cls_last_error());
    cls_plan_release(plan);

    /* Host arrays beyond the host: 100000^3 floats (4 PB) is refused with both byte counts,
     * at once (no tiles are planned). */
    const cls_dims huge = {{100000, 100000, 100000}};
    s = plan_run(ctx, heat, huge, 2, 0, NULL, 0, &plan, &bitwise);
    tap_ok(s == CLS_ERR_TOO_LARGE && strstr(cls_last_error(), "host arrays") &&
               strstr(cls_last_error(), "PiB") && strstr(cls_last_error(), "of memory"),
           "a 100000^3 grid is refused with the host arrays' bytes and the host's: %s",
           cls_last_error());
    cls_plan_release(plan);

    cls_stencil_release(r2);
    cls_stencil_release(heat);
    cls_context_release(ctx);
    return tap_done();
}
