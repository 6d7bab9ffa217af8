/* test_pipeline_exec.c: the tiled transfer/compute pipeline (lib/schedules/pipeline/exec.c)
 * on PoCL: every scheme bitwise equal to the host reference for 1D, 2D and 3D stencils,
 * auxiliary arrays, several steps per tile and several sweeps, edge tiles, contiguous and
 * rectangular copies, tiles split in every dimension, in-place runs, halo reuse between
 * consecutive tiles (thin tiles included), periodic grids (edge tiles filled from the far
 * side), a grid above a device-memory cap, and the errors of impossible requests. */
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

/* A request: the scheme as pipeline.scheme names it (NULL: auto), the tile and steps per
 * tile (0: the model's), rectangular copies, the device-memory cap, an in-place run. */
typedef struct req {
    const char *scheme;
    size_t tile[3];
    size_t h;
    int rect;
    double cap;
    int in_place;
} req;

/* What the plan chose for runs from host arrays: the scheme ("off" when the grid moves
 * whole), the tiles and the steps per tile. */
typedef struct got {
    char scheme[16];
    size_t tiles, h;
} got;

/* The request's plan parameters. */
static const char *req_params(char *buf, size_t len, const req *r)
{
    size_t n = 0;
    buf[0] = '\0';
    if (r->scheme) n += (size_t)snprintf(buf, len, "pipeline.scheme=%s", r->scheme);
    if (r->tile[0] && n < len)
        n += (size_t)snprintf(buf + n, len - n, " pipeline.tile=%zux%zux%zu", r->tile[0],
                              r->tile[1], r->tile[2]);
    if (r->h && n < len) n += (size_t)snprintf(buf + n, len - n, " pipeline.steps=%zu", r->h);
    if (r->rect && n < len) snprintf(buf + n, len - n, " pipeline.rect=1");
    return buf;
}

static size_t plan_size(const cls_plan *plan, const char *name)
{
    const char *v = cls_plan_param(plan, name);
    return v ? (size_t)strtoull(v, NULL, 10) : 0;
}

static void describe(const cls_plan *plan, got *g)
{
    cls_plan_info info;
    const char *scheme = cls_plan_param(plan, "pipeline.scheme");
    memset(g, 0, sizeof *g);
    snprintf(g->scheme, sizeof g->scheme, "off");
    if (cls_plan_describe(plan, &info) != CLS_SUCCESS ||
        info.host_schedule != CLS_SCHEDULE_PIPELINE)
        return;
    snprintf(g->scheme, sizeof g->scheme, "%s", scheme ? scheme : "?");
    g->tiles = plan_size(plan, "pipeline.tiles");
    g->h = plan_size(plan, "pipeline.steps");
}

/* Runs `name` on `dims` for `steps` steps with the request; returns 1 when the output is
 * bitwise the reference's.  *info receives what the plan chose. */
static int run_one(cls_context *ctx, const char *name, cls_boundary b, cls_dims dims,
                   size_t steps, const req *r, got *info, cls_status *status)
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
    char params[256];
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    opt.params = req_params(params, sizeof params, r);
    opt.device_memory = r->cap;
    *status = cls_plan_create(ctx, st, dims, steps, &opt, &plan);
    if (*status == CLS_SUCCESS) {
        describe(plan, info);
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

/* expect: the scheme the plan must take, NULL for any. */
static void check(cls_context *ctx, const char *name, cls_boundary b, cls_dims dims, size_t steps,
                  req r, const char *expect)
{
    got info;
    cls_status s;
    memset(&info, 0, sizeof info);
    int ok = run_one(ctx, name, b, dims, steps, &r, &info, &s);
    tap_ok(ok && s == CLS_SUCCESS && (!expect || !strcmp(info.scheme, expect)),
           "%s %s %zux%zux%zu, %zu steps, %s tile %zux%zux%zu, h %zu%s%s: %s (%s, %zu tiles, h "
           "%zu)",
           name, cls_boundary_name(b), dims.n[0], dims.n[1], dims.n[2], steps,
           r.scheme ? r.scheme : "auto", r.tile[0], r.tile[1], r.tile[2], r.h,
           r.rect ? ", rect" : "", r.in_place ? ", in place" : "",
           s == CLS_SUCCESS ? (ok ? "bitwise" : "DIFFERS") : cls_last_error(), info.scheme,
           info.tiles, info.h);
}

static void check_error(cls_context *ctx, const char *name, cls_boundary b, cls_dims dims,
                        size_t steps, req r, cls_status expect, const char *what,
                        const char *needle)
{
    got info;
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
    static const char *const schemes[3] = {"basic", "scalable", "buffered"};
    const cls_dims d1 = {{1001, 1, 1}}, d2 = {{37, 29, 1}}, d3 = {{13, 11, 10}};
    for (int s = 0; s < 3; s++) {
        const char *sc = schemes[s];
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
        /* periodic: edge tiles' boxes reach past the grid's edges, filled from the far side
         * (one copy per period a box reaches into); tiles thinner than the reach; a box wider
         * than two periods (20 points, tiles of 7, radius 4 x 5 steps); halo reuse, rect
         * copies, tiles split in every axis, in place */
        check(ctx, "moving_average", CLS_BOUNDARY_PERIODIC, d1, 5,
              (req){sc, {10, 1, 1}, 3, 0, 0, 0}, sc);
        check(ctx, "moving_average", CLS_BOUNDARY_PERIODIC, (cls_dims){{20, 1, 1}}, 5,
              (req){sc, {7, 1, 1}, 5, 0, 0, 0}, sc);
        check(ctx, "emboss", CLS_BOUNDARY_PERIODIC, d2, 3, (req){sc, {8, 7, 1}, 3, 0, 0, 0}, sc);
        check(ctx, "hotspot", CLS_BOUNDARY_PERIODIC, d2, 4, (req){sc, {37, 5, 1}, 2, 1, 0, 0},
              sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_PERIODIC, d3, 5, (req){sc, {13, 11, 2}, 4, 0, 0, 1},
              sc);
        check(ctx, "jacobi3d", CLS_BOUNDARY_PERIODIC, d3, 2, (req){sc, {5, 4, 3}, 2, 1, 0, 0},
              sc);
    }
    /* Above the memory cap: the whole grid needs 2 x 64^3 x 4 = 2 MiB; a 1 MiB cap leaves the
     * tiles (the planner's own choice: scalable, by rule on PoCL, which has no transfer
     * tables), with the same result. */
    const cls_dims big = {{64, 64, 64}};
    check(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 2, (req){NULL, {0}, 0, 0, 1 << 20, 0},
          "scalable");
    check(ctx, "emboss", CLS_BOUNDARY_CLAMP, (cls_dims){{300, 200, 1}}, 3,
          (req){NULL, {0}, 0, 0, 300000, 1}, "scalable");
    check(ctx, "jacobi3d", CLS_BOUNDARY_PERIODIC, big, 2, (req){NULL, {0}, 0, 0, 1 << 20, 0},
          "scalable");
    check(ctx, "emboss", CLS_BOUNDARY_PERIODIC, (cls_dims){{300, 200, 1}}, 3,
          (req){NULL, {0}, 0, 0, 300000, 1}, "scalable");
    /* Within the device: whatever the model picks (copy-compute-copy without transfer
     * tables; a probed model in the cache may pipeline), the same result. */
    check(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2, (req){NULL, {0}, 0, 0, 0, 0},
          NULL);

    /* Errors. */
    check_error(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 1,
                (req){"off", {0}, 0, 0, 1 << 20, 0}, CLS_ERR_TOO_LARGE,
                "a grid above the cap with the pipeline off", "pipeline is off");
    check_error(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 1,
                (req){"scalable", {64, 64, 32}, 0, 0, 1 << 20, 0},
                CLS_ERR_PLAN_INFEASIBLE, "a tile larger than the cap", "above the cap");
    check_error(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, big, 1,
                (req){NULL, {0}, 0, 0, 200, 0}, CLS_ERR_PLAN_INFEASIBLE,
                "a cap below the smallest tile", "above the cap");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 1,
                (req){"basic", {38, 5, 1}, 0, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "a tile larger than the grid", "must be 1..37");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2,
                (req){"basic", {37, 5, 1}, 3, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "more steps per tile than the run", "more than the run");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2,
                (req){"basic", {37, 5, 2}, 0, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "a tile size beyond the stencil's dimensions", "takes 2 sizes");
    check_error(ctx, "emboss", CLS_BOUNDARY_CLAMP, d2, 2,
                (req){"off", {37, 5, 1}, 0, 0, 0, 0}, CLS_ERR_INVALID_ARGUMENT,
                "a tile with the pipeline off", "pipeline off");
    {
        /* Every scheme name is taken by pipeline.scheme, a scheme asked for is the plan's,
         * and an unknown name is refused with the names it takes. */
        static const char *const names[] = {"auto", "off", "basic", "scalable", "buffered"};
        cls_stencil *st = NULL;
        cls_plan *plan = NULL;
        cls_plan_options opt;
        char params[64];
        int ok = cls_stencil_builtin("emboss", &st) == CLS_SUCCESS;
        for (size_t i = 0; ok && i < sizeof names / sizeof names[0]; i++) {
            snprintf(params, sizeof params, "pipeline.scheme=%s", names[i]);
            cls_plan_options_init(&opt);
            opt.params = params;
            ok &= cls_plan_create(ctx, st, d2, 2, &opt, &plan) == CLS_SUCCESS;
            if (ok && i >= 2) {
                const char *v = cls_plan_param(plan, "pipeline.scheme");
                ok &= v && !strcmp(v, names[i]);
            }
            cls_plan_release(plan);
            plan = NULL;
        }
        cls_plan_options_init(&opt);
        opt.params = "pipeline.scheme=fast";
        ok &= cls_plan_create(ctx, st, d2, 2, &opt, &plan) == CLS_ERR_INVALID_ARGUMENT &&
              !plan && strstr(cls_last_error(), "buffered");
        tap_ok(ok, "pipeline scheme names are taken and read back; unknown names are refused (%s)",
               cls_last_error());
        cls_stencil_release(st);
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
