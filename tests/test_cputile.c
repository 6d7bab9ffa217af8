/* test_cputile.c: the cputile schedule (overlapped temporal tiles in scratch, cl/cputile.cl)
 * against the host reference, bitwise: 1D, 2D and 3D built-ins (static and per-step
 * auxiliary arrays), a user stencil that reads asymmetrically, at radius 2, an auxiliary array
 * at an offset and the coordinates and step, every boundary, both precisions, 1 to 4 steps per
 * pass with step counts that leave a shorter last pass, grids that are not multiples of the
 * tile, tiles larger than the grid, more work-groups than tiles; the refusals; the model's
 * choice.  Systems of fields: test_cputile_system.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "tap.h"
#include "user_aux.h"

static double init_value(const char *name, size_t i, int salt)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (0x9e3779b9u + (uint32_t)salt * 7919u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double r = (h & 0xffff) / 65536.0;
    if (!strcmp(name, "pathfinder") && salt) return (double)(h % 10);
    return strcmp(name, "cell3d") || salt ? r : r < 0.35;
}

/* Reads at radius 2 along y, asymmetrically in x and z, an auxiliary array at an offset, a
 * per-step one, the coordinates and the step. */
static cls_stencil *user(int dims)
{
    const char *body =
        dims == 2 ? "IN(0, 0) + 0.1 * (IN(-1, 0) + IN(0, 2) - 2 * IN(0, 0)) + 0.05 * IN(1, -1) "
                    "+ 0.01 * AUX(src, 1, 0) + 0.02 * AUX(f, 0, -1) + (X == 0 ? 0.001 : 0) "
                    "+ 0.0001 * Y + 0.00001 * STEP"
                  : "IN(0, 0, 0) + 0.1 * (IN(-1, 0, 0) + IN(0, 2, 0) - 2 * IN(0, 0, 0)) "
                    "+ 0.05 * IN(1, -1, 1) - 0.04 * IN(0, 0, -1) + 0.01 * AUX(src, 1, 0, 0) "
                    "+ 0.02 * AUX(f, 0, 0, 1) + 0.0001 * (X + 2 * Y + 3 * Z) + 0.00001 * STEP";
    return user_aux(dims == 2 ? "user2d" : "user3d", dims, body);
}

static cls_stencil *make(const char *name)
{
    cls_stencil *st = NULL;
    if (!strcmp(name, "user2d")) return user(2);
    if (!strcmp(name, "user3d")) return user(3);
    return cls_stencil_builtin(name, &st) == CLS_SUCCESS ? st : NULL;
}

/* The plan's value of an integer parameter (0 when it has none). */
static size_t plan_size(const cls_plan *plan, const char *name)
{
    const char *v = cls_plan_param(plan, name);
    return v ? (size_t)strtoull(v, NULL, 10) : 0;
}

/* tile "AxBxC" or NULL (the model's), h 0: the model's, groups 0: the default. */
static void check(cls_context *ctx, const char *name, cls_boundary b, cls_dtype dt, cls_dims grid,
                  size_t steps, const char *tile, size_t h, size_t groups)
{
    cls_stencil *st = make(name);
    cls_plan *plan = NULL;
    if (!st) {
        tap_ok(0, "%s: %s", name, cls_last_error());
        return;
    }
    cls_stencil_set_boundary(st, b, 0.25);
    cls_stencil_set_dtype(st, dt);
    size_t n = cls_dims_points(grid), es = cls_dtype_size(dt), na = cls_stencil_num_aux(st);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    void *aux[4] = {NULL};
    for (size_t i = 0; i < n; i++) {
        double v = init_value(name, i, 0);
        if (dt == CLS_FLOAT64) ((double *)in)[i] = v;
        else ((float *)in)[i] = (float)v;
    }
    for (size_t a = 0; a < na && a < 4; a++) {
        size_t m = cls_stencil_aux_per_step(st, a) ? n * steps : n;
        aux[a] = malloc(m * es);
        for (size_t i = 0; i < m; i++) {
            double v = init_value(name, i, (int)a + 1);
            if (dt == CLS_FLOAT64) ((double *)aux[a])[i] = v;
            else ((float *)aux[a])[i] = (float)v;
        }
    }
    cls_plan_options opt;
    char params[256];
    size_t len = (size_t)snprintf(params, sizeof params, "pipeline.scheme=off");
    if (tile) len += (size_t)snprintf(params + len, sizeof params - len, " cputile.tile=%s", tile);
    if (h) len += (size_t)snprintf(params + len, sizeof params - len, " cputile.height=%zu", h);
    if (groups) snprintf(params + len, sizeof params - len, " cputile.groups=%zu", groups);
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_CPUTILE;
    opt.params = params;
    cls_status s = cls_plan_create(ctx, st, grid, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    cls_status r = cls_reference_run(st, grid, steps, in, (const void *const *)aux, ref);
    char what[200];
    snprintf(what, sizeof what, "%s %s %s %zux%zux%zu, %zu steps, tile %s, h %zu, groups %zu",
             name, cls_boundary_name(b), dt == CLS_FLOAT64 ? "double" : "float", grid.n[0],
             grid.n[1], grid.n[2], steps, tile ? tile : "the model's", h, groups);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s: %s", what, cls_last_error());
    } else {
        cls_plan_info pi;
        cls_plan_describe(plan, &pi);
        size_t got_h = plan_size(plan, "cputile.height");
        size_t bad = 0, first = n;
        for (size_t i = 0; i < n; i++)
            if (memcmp(out + i * es, ref + i * es, es) != 0) {
                if (first == n) first = i;
                bad++;
            }
        tap_ok(bad == 0 && pi.schedule == CLS_SCHEDULE_CPUTILE && (!h || got_h == h),
               "%s: == reference bitwise (%zu points differ, first %zu; %zu steps per pass)",
               what, bad, first, got_h);
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    for (int a = 0; a < 4; a++) free(aux[a]);
    free(in);
    free(out);
    free(ref);
}

static void refuse(cls_context *ctx, const char *what, const char *name, cls_dims d,
                   const char *params, cls_status want, const char *needle)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_CPUTILE;
    opt.params = params;
    cls_stencil_builtin(name, &st);
    cls_status s = cls_plan_create(ctx, st, d, 4, &opt, &plan);
    tap_ok(s == want && !plan && strstr(cls_last_error(), needle), "%s is refused: %s", what,
           cls_last_error());
    cls_plan_release(plan);
    cls_stencil_release(st);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("cputile", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    const cls_dims g3 = {{23, 19, 17}}, g2 = {{45, 37, 1}}, g1 = {{301, 1, 1}};
    const cls_dtype D = info.double_support ? CLS_FLOAT64 : CLS_FLOAT32;
    /* Every boundary: ragged tiles, a shorter last pass, the ghosts of every edge. */
    for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
        cls_boundary bb = (cls_boundary)b;
        check(ctx, "heat3d7", bb, CLS_FLOAT32, g3, 7, "16x8x5", 3, 0);
        check(ctx, "user3d", bb, CLS_FLOAT32, g3, 6, "9x7x6", 4, 3);
        check(ctx, "user2d", bb, D, g2, 7, "45x9", 3, 0);
        check(ctx, "pathfinder", bb, CLS_FLOAT32, g1, 9, "64", 4, 0);
    }
    check(ctx, "heat3d27", CLS_BOUNDARY_PERIODIC, D, g3, 5, "23x6x7", 2, 0);
    check(ctx, "hotspot", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, g2, 5, "16x16", 2, 0);
    check(ctx, "moving_average", CLS_BOUNDARY_MIRROR, D, g1, 6, "100", 3, 0);
    /* 1..4 steps per pass; one step per pass is the naive row kernel with tiles. */
    for (size_t h = 1; h <= 4; h++)
        check(ctx, "poisson2d", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, g2, 6, "45x8", h, 0);
    check(ctx, "emboss", CLS_BOUNDARY_MIRROR, CLS_FLOAT32, g2, 5, "20x5", 4, 0);
    check(ctx, "jacobi3d", CLS_BOUNDARY_CONSTANT, CLS_FLOAT32, g3, 5, "23x4x4", 2, 0);
    check(ctx, "cell3d", CLS_BOUNDARY_PERIODIC, CLS_FLOAT32, g3, 4, "12x10x9", 3, 0);
    /* A tile larger than the grid; more groups than tiles; more steps per pass than the run. */
    check(ctx, "heat3d7", CLS_BOUNDARY_PERIODIC, CLS_FLOAT32, (cls_dims){{9, 7, 5}}, 6,
          "16x16x16", 4, 0);
    check(ctx, "heat3d7", CLS_BOUNDARY_MIRROR, CLS_FLOAT32, g3, 3, "23x10x9", 2, 16);
    check(ctx, "heat3d7", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, g3, 2, "8x8x8", 6, 0);
    /* The model's tile and height. */
    check(ctx, "heat3d7", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, (cls_dims){{64, 48, 40}}, 9, NULL, 0,
          0);
    check(ctx, "hotspot", CLS_BOUNDARY_CLAMP, CLS_FLOAT32, (cls_dims){{200, 150, 1}}, 7, NULL, 0,
          0);

    refuse(ctx, "a tile with a size for z in 2D", "poisson2d", g2, "cputile.tile=8x8x2",
           CLS_ERR_INVALID_ARGUMENT, "takes 2 sizes");
    refuse(ctx, "65 steps per pass", "poisson2d", g2, "cputile.height=65",
           CLS_ERR_INVALID_ARGUMENT, "1..64");

    /* AUTO takes it where the device model asks for it (tuning.cputile) and predicts a gain;
     * elsewhere only when asked for. */
    {
        cls_stencil *st = NULL;
        cls_plan *plan = NULL;
        cls_plan_info pi;
        cls_stencil_builtin("heat3d7", &st);
        cls_status s = cls_plan_create(ctx, st, (cls_dims){{128, 128, 128}}, 20, NULL, &plan);
        if (s == CLS_SUCCESS) s = cls_plan_describe(plan, &pi);
        double flag = -1;
        cls_model *m = NULL;
        if (cls_model_match(&info, NULL, &m, NULL, 0) == CLS_SUCCESS)
            cls_model_get(m, "tuning.cputile", &flag);
        cls_model_release(m);
        tap_ok(s == CLS_SUCCESS && strstr(pi.why, "cputile") &&
                   (flag == 1 || pi.schedule != CLS_SCHEDULE_CPUTILE),
               "AUTO on '%s' (tuning.cputile %g) prices cputile and takes it only where the "
               "model asks: %s: %s",
               info.name, flag, s == CLS_SUCCESS ? cls_schedule_name(pi.schedule) : "failed",
               s == CLS_SUCCESS ? pi.why : cls_last_error());
        cls_plan_release(plan);
        cls_stencil_release(st);
    }
    cls_context_release(ctx);
    return tap_done();
}
