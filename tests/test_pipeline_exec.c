/* test_pipeline_exec.c: the tiled transfer/compute pipeline (lib/exec_pipeline.c) on PoCL:
 * every scheme bitwise equal to the host reference for 1D, 2D and 3D stencils, auxiliary
 * arrays, several steps per tile and several sweeps, edge tiles, contiguous and rectangular
 * copies, tiles split in every dimension, in-place runs, halo reuse between consecutive
 * tiles (thin tiles included), a grid above a device-memory cap, and the errors of
 * impossible requests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

static float value(size_t i, int k)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(k * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)((h & 0xffff) / 65536.0) + (k ? 300.0f : 0.0f);
}

typedef struct req {
    cls_pipeline scheme;
    size_t tile[3];
    size_t h;
    int rect;
    double cap;
    int in_place;
} req;

/* Runs `name` on `dims` for `steps` steps with the request; returns 1 when the output is
 * bitwise the reference's.  *info receives the plan's description. */
static int run_one(cls_context *ctx, const char *name, cls_boundary b, cls_dims dims,
                   size_t steps, const req *r, cls_plan_info *info, cls_status *status)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    float *in = NULL, *out = NULL, *ref = NULL, *aux[4] = {NULL};
    int ok = 0;
    *status = cls_stencil_builtin(name, &st);
    if (*status != CLS_SUCCESS) return 0;
    cls_stencil_set_boundary(st, b, 0.25);
    size_t n = cls_dims_points(dims), na = cls_stencil_num_aux(st);
    in = malloc(n * sizeof *in);
    out = malloc(n * sizeof *out);
    ref = malloc(n * sizeof *ref);
    for (size_t k = 0; k < na; k++) aux[k] = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) {
        in[i] = value(i, 0);
        for (size_t k = 0; k < na; k++) aux[k][i] = value(i, (int)k + 1);
    }
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    opt.pipeline = r->scheme;
    memcpy(opt.pipeline_tile, r->tile, sizeof opt.pipeline_tile);
    opt.pipeline_steps = r->h;
    opt.pipeline_rect = r->rect;
    opt.device_memory = r->cap;
    *status = cls_plan_create(ctx, st, dims, steps, &opt, &plan);
    if (*status == CLS_SUCCESS) {
        cls_plan_describe(plan, info);
        *status = cls_reference_run(st, dims, steps, in, (const void *const *)aux, ref);
    }
    if (*status == CLS_SUCCESS) {
        cls_report rep;
        void *dst = r->in_place ? (void *)in : (void *)out;
        *status = cls_plan_run(plan, in, (const void *const *)aux, dst, &rep);
        if (*status == CLS_SUCCESS) ok = memcmp(dst, ref, n * sizeof *ref) == 0;
        if (*status == CLS_SUCCESS && !ok) {
            for (size_t i = 0; i < n; i++)
                if (memcmp((float *)dst + i, ref + i, sizeof *ref)) {
                    tap_diag("first difference at %zu: %.9g, reference %.9g", i,
                             ((float *)dst)[i], ref[i]);
                    break;
                }
        }
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    free(in);
    free(out);
    free(ref);
    for (size_t k = 0; k < na; k++) free(aux[k]);
    return ok;
}

static void check(cls_context *ctx, const char *name, cls_boundary b, cls_dims dims, size_t steps,
                  req r, cls_pipeline expect)
{
    cls_plan_info info;
    cls_status s;
    memset(&info, 0, sizeof info);
    int ok = run_one(ctx, name, b, dims, steps, &r, &info, &s);
    tap_ok(ok && s == CLS_SUCCESS && ((int)expect < 0 || info.pipeline == expect),
           "%s %s %zux%zux%zu, %zu steps, %s tile %zux%zux%zu, h %zu%s%s: %s (%s, %zu tiles, h "
           "%zu)",
           name, cls_boundary_name(b), dims.n[0], dims.n[1], dims.n[2], steps,
           cls_pipeline_name(r.scheme), r.tile[0], r.tile[1], r.tile[2], r.h,
           r.rect ? ", rect" : "", r.in_place ? ", in place" : "",
           s == CLS_SUCCESS ? (ok ? "bitwise" : "DIFFERS") : cls_last_error(),
           cls_pipeline_name(info.pipeline), info.pipeline_tiles, info.pipeline_steps);
}

static void check_error(cls_context *ctx, const char *name, cls_boundary b, cls_dims dims,
                        size_t steps, req r, cls_status expect, const char *what,
                        const char *needle)
{
    cls_plan_info info;
    cls_status s;
    run_one(ctx, name, b, dims, steps, &r, &info, &s);
    const char *msg = cls_last_error();
    tap_ok(s == expect && strstr(msg, needle) != NULL, "%s: %s (%s)", what,
           cls_status_string(s), msg);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("pipeline executor", "no OpenCL device");
        return tap_done();
    }
    static const cls_pipeline schemes[3] = {CLS_PIPELINE_BASIC, CLS_PIPELINE_SCALABLE,
                                            CLS_PIPELINE_BUFFERED};
    const cls_dims d1 = {{1001, 1, 1}}, d2 = {{37, 29, 1}}, d3 = {{13, 11, 10}};
    for (int s = 0; s < 3; s++) {
        cls_pipeline sc = schemes[s];
        /* 1D, radius 4: edge tiles (1001 = 7 x 137 + 42), one step, then 3 steps per tile */
        check(ctx, "moving_average", CLS_BOUNDARY_CLAMP, d1, 1, (req){sc, {137, 1, 1}, 0, 0, 0, 0},
              sc);
        check(ctx, "moving_average", CLS_BOUNDARY_MIRROR, d1, 3, (req){sc, {250, 1, 1}, 3, 0, 0, 0},
              sc);
        /* 2D: merged rows (tiles as wide as the grid), rect copies, tiles split in x and y */
        check(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 1, (req){sc, {37, 6, 1}, 0, 0, 0, 0}, sc);
        check(ctx, "emboss", CLS_BOUNDARY_CONSTANT, d2, 2, (req){sc, {37, 4, 1}, 2, 1, 0, 0}, sc);
        check(ctx, "emboss", CLS_BOUNDARY_MIRROR, d2, 3, (req){sc, {8, 7, 1}, 3, 0, 0, 0}, sc);
        /* 2D with auxiliary arrays (hotspot: power and a step-independent temperature) */
        check(ctx, "hotspot", CLS_BOUNDARY_CLAMP, d2, 4, (req){sc, {10, 9, 1}, 2, 0, 0, 0}, sc);
        /* 3D: whole planes, planes split in y (rect), a box in every dimension */
        check(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, d3, 1, (req){sc, {13, 11, 3}, 0, 0, 0, 0}, sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_CONSTANT, d3, 2, (req){sc, {13, 4, 3}, 2, 0, 0, 0},
              sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_MIRROR, d3, 4, (req){sc, {5, 4, 3}, 2, 1, 0, 0}, sc);
        /* sweeps: 5 steps at 2 per tile (2 + 2 + 1), in place */
        check(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 5, (req){sc, {37, 5, 1}, 2, 0, 0, 1}, sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, d3, 3, (req){sc, {13, 11, 4}, 1, 0, 0, 1}, sc);
        /* one tile; two tiles (fewer than three buffer sets) */
        check(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2, (req){sc, {37, 29, 1}, 2, 0, 0, 0}, sc);
        check(ctx, "moving_average", CLS_BOUNDARY_CLAMP, d1, 2, (req){sc, {600, 1, 1}, 1, 0, 0, 0},
              sc);
        /* halo reuse (basic, scalable; tiles along the slowest axis only): auxiliary arrays
         * with ping-pong steps; tiles thinner than the overlap (2 x halo x h), so that the
         * last tiles bring nothing new; rect copies of the new planes; 1D, 2D and 3D */
        check(ctx, "hotspot", CLS_BOUNDARY_CLAMP, d2, 4, (req){sc, {37, 5, 1}, 2, 0, 0, 0}, sc);
        check(ctx, "hotspot", CLS_BOUNDARY_MIRROR, d2, 3, (req){sc, {37, 2, 1}, 3, 1, 0, 0}, sc);
        check(ctx, "emboss", CLS_BOUNDARY_MIRROR, d2, 3, (req){sc, {37, 2, 1}, 3, 0, 0, 0}, sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_CONSTANT, d3, 4, (req){sc, {13, 11, 1}, 2, 1, 0, 0},
              sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, d3, 5, (req){sc, {13, 11, 2}, 4, 0, 0, 1}, sc);
        check(ctx, "moving_average", CLS_BOUNDARY_CLAMP, d1, 5, (req){sc, {10, 1, 1}, 3, 0, 0, 0},
              sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_MIRROR, d3, 2, (req){sc, {13, 11, 5}, 2, 0, 0, 0}, sc);
    }
    /* Above the memory cap: the whole grid needs 2 x 64^3 x 4 = 2 MiB; a 1 MiB cap leaves the
     * tiles (the planner's own choice: scalable, by rule on PoCL, which has no transfer
     * tables), with the same result. */
    const cls_dims big = {{64, 64, 64}};
    check(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 2, (req){CLS_PIPELINE_AUTO, {0}, 0, 0, 1 << 20, 0},
          CLS_PIPELINE_SCALABLE);
    check(ctx, "emboss", CLS_BOUNDARY_CLAMP, (cls_dims){{300, 200, 1}}, 3,
          (req){CLS_PIPELINE_AUTO, {0}, 0, 0, 300000, 1}, CLS_PIPELINE_SCALABLE);
    /* Within the device: whatever the model picks (copy-compute-copy without transfer
     * tables; a probed model in the cache may pipeline), the same result. */
    check(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2, (req){CLS_PIPELINE_AUTO, {0}, 0, 0, 0, 0},
          (cls_pipeline)-1);

    /* Errors. */
    check_error(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 1,
                (req){CLS_PIPELINE_OFF, {0}, 0, 0, 1 << 20, 0}, CLS_ERR_TOO_LARGE,
                "a grid above the cap with the pipeline off", "pipeline is off");
    check_error(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 1,
                (req){CLS_PIPELINE_SCALABLE, {64, 64, 32}, 0, 0, 1 << 20, 0},
                CLS_ERR_PLAN_INFEASIBLE, "a tile larger than the cap", "above the cap");
    check_error(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 1,
                (req){CLS_PIPELINE_AUTO, {0}, 0, 0, 200, 0}, CLS_ERR_PLAN_INFEASIBLE,
                "a cap below the smallest tile", "above the cap");
    check_error(ctx, "emboss", CLS_BOUNDARY_PERIODIC, d2, 1,
                (req){CLS_PIPELINE_SCALABLE, {37, 5, 1}, 0, 0, 0, 0}, CLS_ERR_UNSUPPORTED,
                "periodic boundaries", "periodic");
    check_error(ctx, "emboss", CLS_BOUNDARY_PERIODIC, d2, 1,
                (req){CLS_PIPELINE_AUTO, {0}, 0, 0, 4000, 0}, CLS_ERR_TOO_LARGE,
                "periodic boundaries above the cap", "periodic");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 1,
                (req){CLS_PIPELINE_BASIC, {38, 5, 1}, 0, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "a tile larger than the grid", "must be 1..37");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2,
                (req){CLS_PIPELINE_BASIC, {37, 5, 1}, 3, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "more steps per tile than the run", "more than the run");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2,
                (req){CLS_PIPELINE_BASIC, {37, 5, 2}, 0, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "a tile size beyond the stencil's dimensions", "takes 2 sizes");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2,
                (req){CLS_PIPELINE_OFF, {37, 5, 1}, 0, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "a tile with the pipeline off", "pipeline off");
    {
        const char *n;
        cls_pipeline p;
        int ok = 1;
        for (int i = 0; i <= CLS_PIPELINE_BUFFERED; i++) {
            n = cls_pipeline_name((cls_pipeline)i);
            ok &= cls_pipeline_from_name(n, &p) == CLS_SUCCESS && p == (cls_pipeline)i;
        }
        ok &= cls_pipeline_from_name("fast", &p) == CLS_ERR_INVALID_ARGUMENT;
        tap_ok(ok, "pipeline names round-trip; unknown names are refused");
    }
    {
        void *ptr = NULL;
        cls_status s = cls_host_alloc(ctx, 1 << 20, &ptr);
        if (s == CLS_SUCCESS) memset(ptr, 7, 1 << 20);
        tap_ok(s == CLS_SUCCESS && ptr, "cls_host_alloc gives 1 MiB of writable host memory");
        cls_host_free(ctx, ptr);
        tap_ok(cls_host_alloc(ctx, 0, &ptr) == CLS_ERR_INVALID_ARGUMENT,
               "cls_host_alloc refuses 0 bytes");
    }
    cls_context_release(ctx);
    return tap_done();
}
