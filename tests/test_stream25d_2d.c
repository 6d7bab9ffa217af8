/* test_stream25d_2d.c: the stream25d schedule on 2D grids (streamed along y as the 3D grid
 * NX x 1 x NY, one-row tiles, fused steps) against the host reference, bitwise: EBISU's 5-point
 * star and 9-point box (points), poisson2d and hotspot (auxiliary arrays), emboss, a body that
 * reads Y, NY and auxiliary arrays at y offsets; every boundary, float and double, k = 1, 2, 3,
 * 5 with step counts that leave a shorter last pass, grids that are not multiples of the tile;
 * systems (wave2d fused, fdtd2d one step per pass); the plans it refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "system_grids.h"
#include "tap.h"
#include "user_aux.h"

static double init_value(size_t i, int salt)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (0x9e3779b9u + (uint32_t)salt * 7919u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (h & 0xffff) / 65536.0;
}

/* EBISU's 2D 5-point star and 9-point box (tools/bench/ebisu/), built from points. */
static cls_stencil *points(const char *name, int box)
{
    cls_stencil *st = NULL;
    if (cls_stencil_create(name, 2, CLS_FLOAT32, NULL, &st) != CLS_SUCCESS) return NULL;
    double c = 0.05;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++, c += 0.0625)
            if ((box || !dx || !dy) && cls_stencil_add_point(st, dx, dy, 0, c) != CLS_SUCCESS) {
                cls_stencil_release(st);
                return NULL;
            }
    return st;
}

/* Reads Y and NY (Z and NZ once lifted), a static auxiliary array at a y offset and a per-step
 * one. */
static cls_stencil *user(void)
{
    return user_aux("user2d", 2,
                    "IN(0, 0) + 0.1 * (IN(-1, 0) + IN(0, 1) - 2 * IN(0, 0)) + "
                    "0.05 * IN(1, -1) + 0.01 * (real)(Y + 2 * X) / (real)NY + "
                    "0.01 * AUX(src, 1, -1) + 0.02 * AUX(f, 0, 0)");
}

static cls_stencil *make(const char *name)
{
    cls_stencil *st = NULL;
    if (!strcmp(name, "star2d5")) return points(name, 0);
    if (!strcmp(name, "box2d9")) return points(name, 1);
    if (!strcmp(name, "user2d")) return user();
    return cls_stencil_builtin(name, &st) == CLS_SUCCESS ? st : NULL;
}

/* Runs `name` with stream25d forced: the loader (NULL: the planner's), the work-group row bx (0:
 * the planner's), planes per group (0: the planner's), k steps per pass; compares bitwise. */
static void check(cls_context *ctx, const char *name, cls_boundary b, cls_dtype dt, size_t nx,
                  size_t ny, size_t k, size_t steps, const char *loader, size_t bx, size_t chunk)
{
    cls_stencil *st = make(name);
    cls_plan *plan = NULL;
    const cls_dims grid = {{nx, ny, 1}};
    if (!st) {
        tap_ok(0, "%s: %s", name, cls_last_error());
        return;
    }
    cls_stencil_set_boundary(st, b, 0.25);
    cls_stencil_set_dtype(st, dt);
    size_t n = nx * ny, es = cls_dtype_size(dt), na = cls_stencil_num_aux(st);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    void *aux[4] = {NULL};
    for (size_t i = 0; i < n; i++) {
        if (dt == CLS_FLOAT64) ((double *)in)[i] = init_value(i, 0);
        else ((float *)in)[i] = (float)init_value(i, 0);
    }
    for (size_t a = 0; a < na && a < 4; a++) {
        size_t m = cls_stencil_aux_per_step(st, a) ? n * steps : n;
        aux[a] = malloc(m * es);
        for (size_t i = 0; i < m; i++) {
            if (dt == CLS_FLOAT64) ((double *)aux[a])[i] = init_value(i, (int)a + 1);
            else ((float *)aux[a])[i] = (float)init_value(i, (int)a + 1);
        }
    }
    char params[256];
    size_t p = (size_t)snprintf(params, sizeof params,
                                "pipeline.scheme=off stream25d.steps_per_pass=%zu", k);
    if (loader)
        p += (size_t)snprintf(params + p, sizeof params - p, " stream25d.loader=%s", loader);
    if (bx) p += (size_t)snprintf(params + p, sizeof params - p, " stream25d.tile=%zux1", bx);
    if (chunk) snprintf(params + p, sizeof params - p, " stream25d.planes=%zu", chunk);
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = params;
    cls_status s = cls_plan_create(ctx, st, grid, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    cls_status r = cls_reference_run(st, grid, steps, in, (const void *const *)aux, ref);
    char what[200];
    snprintf(what, sizeof what, "%s %s %s %zux%zu, %zu steps, k %zu, %s %zux1, %zu planes", name,
             cls_boundary_name(b), dt == CLS_FLOAT64 ? "double" : "float", nx, ny, steps, k,
             loader ? loader : "planner's", bx, chunk);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s: %s", what, cls_last_error());
    } else {
        cls_plan_info pi;
        cls_plan_describe(plan, &pi);
        const char *got = cls_plan_param(plan, "stream25d.steps_per_pass");
        size_t bad = 0, first = n, want_k = k < steps ? k : steps;
        for (size_t i = 0; i < n; i++)
            if (memcmp(out + i * es, ref + i * es, es) != 0) {
                if (first == n) first = i;
                bad++;
            }
        tap_ok(bad == 0 && pi.schedule == CLS_SCHEDULE_STREAM25D && got &&
                   (size_t)strtoull(got, NULL, 10) == want_k && pi.local_size[1] == 1,
               "%s: == reference bitwise (%zu points differ, first %zu; %s steps per pass, "
               "work-group %zux%zu)",
               what, bad, first, got ? got : "?", pi.local_size[0], pi.local_size[1]);
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    for (int a = 0; a < 4; a++) free(aux[a]);
    free(in);
    free(out);
    free(ref);
}

/* A 2D system (wave2d: u and its time level u_prev; fdtd2d: two stages) with stream25d and k
 * steps per pass, every field bitwise. */
static void check_system(cls_context *ctx, const char *name, cls_boundary b, cls_dtype dt,
                         size_t nx, size_t ny, size_t k, size_t steps, const char *loader)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    grids g = {0};
    char params[200];
    cls_plan_options opt;
    cls_stencil_builtin(name, &st);
    cls_stencil_set_boundary(st, b, 0.25);
    cls_stencil_set_dtype(st, dt);
    snprintf(params, sizeof params,
             "pipeline.scheme=off stream25d.steps_per_pass=%zu stream25d.loader=%s "
             "stream25d.tile=32x1",
             k, loader);
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = params;
    int ok = st && grids_make_on(&g, st, (cls_dims){{nx, ny, 1}}, steps) &&
             cls_plan_create(ctx, st, g.dims, steps, &opt, &plan) == CLS_SUCCESS &&
             cls_plan_run_fields(plan, (const void *const *)g.in, (const void *const *)g.aux,
                                 g.out, NULL) == CLS_SUCCESS;
    const char *got = plan ? cls_plan_param(plan, "stream25d.steps_per_pass") : NULL;
    tap_ok(ok && equal_ref(&g) && got && (size_t)strtoull(got, NULL, 10) == k,
           "%s %s %s %zux%zu, %zu steps, k %zu, %s: every field == reference bitwise (%s)", name,
           cls_boundary_name(b), dt == CLS_FLOAT64 ? "double" : "float", nx, ny, steps, k, loader,
           ok ? "ran" : cls_last_error());
    cls_plan_release(plan);
    cls_stencil_release(st);
    grids_free(&g);
}

static void refuse(cls_context *ctx, const char *what, cls_stencil *st, const char *params,
                   cls_status want, const char *needle)
{
    cls_plan *plan = NULL;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = params;
    const cls_dims d = {{40, 30, 1}};
    cls_status s = cls_plan_create(ctx, st, d, 4, &opt, &plan);
    tap_ok(s == want && !plan && strstr(cls_last_error(), needle), "%s is refused: %s", what,
           cls_last_error());
    cls_plan_release(plan);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("stream25d on 2D grids", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    const char *const C = "classic", *const A = "aligned";
    static const size_t ks[] = {2, 3, 5}, sizes[][2] = {{67, 45}, {130, 9}, {5, 300}};
    /* Every boundary and precision: the star or the box over 7 steps (a shorter last pass for
     * every k), both loaders, grids ragged against the tile. */
    for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++)
        for (int d = 0; d < (info.double_support ? 2 : 1); d++) {
            const size_t *n = sizes[(b + 2 * d) % 3];
            check(ctx, (b + d) % 2 ? "box2d9" : "star2d5", (cls_boundary)b,
                  d ? CLS_FLOAT64 : CLS_FLOAT32, n[0], n[1], ks[(b + d) % 3], 7,
                  (b + d) % 2 ? A : C, 32, b == 3 ? 4 : 0);
        }
    /* Auxiliary arrays (static, per step, at y offsets), a box body, Y and NY. */
    check(ctx, "poisson2d", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, 67, 45, 2, 5, C, 32, 0);
    check(ctx, "hotspot", CLS_BOUNDARY_MIRROR, CLS_FLOAT32, 5, 300, 2, 5, A, 32, 17);
    check(ctx, "emboss", CLS_BOUNDARY_MIRROR, CLS_FLOAT32, 5, 300, 3, 7, A, 32, 0);
    check(ctx, "user2d", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, 130, 9, 5, 7, C, 32, 3);
    check(ctx, "user2d", CLS_BOUNDARY_PERIODIC, CLS_FLOAT32, 67, 45, 3, 7, A, 64, 0);
    if (info.double_support)
        check(ctx, "poisson2d", CLS_BOUNDARY_PERIODIC, CLS_FLOAT64, 130, 9, 3, 7, A, 32, 0);
    /* One step per pass (the single-pass kernel), and the planner's own tile and planes. */
    check(ctx, "star2d5", CLS_BOUNDARY_PERIODIC, CLS_FLOAT32, 67, 45, 1, 3, C, 32, 0);
    check(ctx, "star2d5", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, 300, 40, 4, 9, NULL, 0, 0);
    /* More steps per pass than the run has: one pass of all of them. */
    check(ctx, "poisson2d", CLS_BOUNDARY_CONSTANT, CLS_FLOAT32, 67, 45, 5, 2, C, 32, 0);

    /* Systems: a field and its time level fused, two stages one step per pass. */
    check_system(ctx, "wave2d", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, 130, 9, 2, 7, C);
    check_system(ctx, "wave2d", CLS_BOUNDARY_MIRROR, CLS_FLOAT32, 67, 45, 5, 7, A);
    check_system(ctx, "wave2d", CLS_BOUNDARY_PERIODIC,
                 info.double_support ? CLS_FLOAT64 : CLS_FLOAT32, 5, 300, 3, 5, C);
    check_system(ctx, "fdtd2d", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, 67, 45, 1, 3, C);

    /* Refusals say which limit they hit. */
    cls_stencil *st = NULL;
    cls_stencil_create("far2d", 2, CLS_FLOAT32, "IN(2, 0) + IN(0, 0)", &st);
    refuse(ctx, "a 2D radius-2 body with 2 steps per pass", st, "stream25d.steps_per_pass=2",
           CLS_ERR_PLAN_INFEASIBLE, "radius 1");
    cls_stencil_release(st);
    st = make("star2d5");
    refuse(ctx, "a 2D tile with no output left", st,
           "stream25d.steps_per_pass=4 stream25d.tile=8x1 stream25d.loader=classic",
           CLS_ERR_PLAN_INFEASIBLE, "no output left");
    cls_stencil_release(st);
    st = NULL;
    cls_stencil_builtin("fdtd2d", &st);
    refuse(ctx, "fused steps for a 2D system of two stages", st, "stream25d.steps_per_pass=2",
           CLS_ERR_UNSUPPORTED, "systems of one stage");
    cls_stencil_release(st);
    cls_context_release(ctx);
    return tap_done();
}
