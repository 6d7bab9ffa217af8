/* test_trapezoid.c: the trapezoid (ghost-zone) schedule against the host reference: 1D, 2D and
 * 3D built-ins, several heights, grids that are not multiples of the tile, every boundary
 * condition, kernel-restart and in-kernel-barrier synchronisation; and its refusals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

static double init_value(const char *name, size_t i, int k)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)((k + 7) * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double r = (h & 0xffff) / 65536.0;
    if (!strcmp(name, "cell3d")) return r < 0.35;
    if (!strcmp(name, "hotspot")) return k < 0 ? 320 + 20 * r : 0.5 * r;
    if (!strcmp(name, "pathfinder")) return floor(10 * r);
    return r;
}

/* Sizes that leave ragged edge tiles, and tiles small enough for several per grid. */
static const cls_dims sizes[3] = {{{97, 1, 1}}, {{37, 29, 1}}, {{19, 13, 11}}};
static const size_t tiles[3][3] = {{32, 1, 1}, {16, 8, 1}, {8, 8, 8}};

static void check(cls_context *ctx, const char *name, cls_boundary b, size_t h, cls_sync sync)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    const size_t steps = 7; /* not a multiple of h: the last stage is shorter */
    if (cls_stencil_builtin(name, &st) != CLS_SUCCESS) {
        tap_ok(0, "%s: %s", name, cls_last_error());
        return;
    }
    cls_stencil_set_boundary(st, b, 0.25);
    int dims = cls_stencil_dims(st);
    cls_dims d = sizes[dims - 1];
    size_t n = cls_dims_points(d);
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    float *aux[4] = {NULL};
    for (size_t i = 0; i < n; i++) in[i] = (float)init_value(name, i, -1);
    for (size_t k = 0; k < cls_stencil_num_aux(st); k++) {
        size_t m = cls_stencil_aux_per_step(st, k) ? n * steps : n;
        aux[k] = malloc(m * sizeof *aux[k]);
        for (size_t i = 0; i < m; i++) aux[k][i] = (float)init_value(name, i, (int)k);
    }
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    opt.trapezoid_height = h;
    opt.sync = sync;
    memcpy(opt.local_size, tiles[dims - 1], sizeof opt.local_size);
    cls_status s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    cls_status r = cls_reference_run(st, d, steps, in, (const void *const *)aux, ref);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s %s h=%zu %s: %s", name, cls_boundary_name(b), h, cls_sync_name(sync),
               cls_last_error());
    } else {
        cls_plan_info pi;
        cls_plan_describe(plan, &pi);
        int same = memcmp(out, ref, n * sizeof *out) == 0;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += memcmp(&out[i], &ref[i], sizeof *out) != 0;
        tap_ok(same && pi.trapezoid_height == h,
               "%s %s h=%zu %s: trapezoid == reference bitwise (%zu points differ)", name,
               cls_boundary_name(b), h, cls_sync_name(sync), bad);
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    for (int k = 0; k < 4; k++) free(aux[k]);
    free(in);
    free(out);
    free(ref);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("trapezoid schedule", "no OpenCL device");
        return tap_done();
    }
    static const char *const names[] = {"pathfinder", "moving_average", "hotspot", "emboss",
                                        "heat3d7", "cell3d"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cls_stencil *st;
        cls_stencil_builtin(names[i], &st);
        int dims = cls_stencil_dims(st), halo[3];
        cls_stencil_halo(st, halo);
        cls_stencil_release(st);
        /* Heights that keep an inner block: 1 and the largest the test tile allows. */
        size_t hmax = (tiles[dims - 1][0] - 1) / (2 * (size_t)halo[0]);
        if (hmax > 3) hmax = 3;
        /* Every boundary at the tallest height, h = 1 once, and the barrier mode. */
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++)
            check(ctx, names[i], (cls_boundary)b, hmax, CLS_SYNC_RESTART);
        if (hmax > 1) check(ctx, names[i], CLS_BOUNDARY_MIRROR, 1, CLS_SYNC_RESTART);
        check(ctx, names[i], i % 2 ? CLS_BOUNDARY_PERIODIC : CLS_BOUNDARY_CLAMP, hmax,
              CLS_SYNC_BARRIER);
    }

    /* Several points per work-item (the work-group is the tile divided along the slowest axis)
     * on grids with interior tiles, which take the path without boundary code. */
    {
        static const struct {
            const char *name;
            cls_dims d;
            size_t tile[3], ppi, h;
            cls_sync sync;
            cls_boundary b;
        } pc[] = {
            {"pathfinder", {{3001, 1, 1}}, {256, 1, 1}, 4, 9, CLS_SYNC_RESTART, CLS_BOUNDARY_CLAMP},
            {"hotspot", {{200, 150, 1}}, {64, 32, 1}, 8, 5, CLS_SYNC_RESTART, CLS_BOUNDARY_MIRROR},
            {"cell3d", {{40, 36, 30}}, {16, 8, 8}, 4, 2, CLS_SYNC_BARRIER, CLS_BOUNDARY_PERIODIC},
        };
        for (size_t i = 0; i < sizeof pc / sizeof pc[0]; i++) {
            cls_stencil *st = NULL;
            cls_plan *plan = NULL;
            cls_plan_options opt;
            const size_t steps = 11;
            size_t n = cls_dims_points(pc[i].d);
            float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
            float *ref = malloc(n * sizeof *ref), *aux[1] = {NULL};
            cls_stencil_builtin(pc[i].name, &st);
            cls_stencil_set_boundary(st, pc[i].b, 0);
            for (size_t j = 0; j < n; j++) in[j] = (float)init_value(pc[i].name, j, -1);
            if (cls_stencil_num_aux(st)) {
                size_t m = cls_stencil_aux_per_step(st, 0) ? n * steps : n;
                aux[0] = malloc(m * sizeof *aux[0]);
                for (size_t j = 0; j < m; j++) aux[0][j] = (float)init_value(pc[i].name, j, 0);
            }
            cls_plan_options_init(&opt);
            opt.schedule = CLS_SCHEDULE_TRAPEZOID;
            memcpy(opt.local_size, pc[i].tile, sizeof opt.local_size);
            opt.points_per_item = pc[i].ppi;
            opt.trapezoid_height = pc[i].h;
            opt.sync = pc[i].sync;
            cls_status s = cls_plan_create(ctx, st, pc[i].d, steps, &opt, &plan);
            if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
            if (s == CLS_SUCCESS)
                s = cls_reference_run(st, pc[i].d, steps, in, (const void *const *)aux, ref);
            tap_ok(s == CLS_SUCCESS && memcmp(out, ref, n * sizeof *out) == 0,
                   "%s %s, tile %zux%zux%zu, %zu points per item, h %zu, %s: == reference "
                   "bitwise%s%s",
                   pc[i].name, cls_boundary_name(pc[i].b), pc[i].tile[0], pc[i].tile[1],
                   pc[i].tile[2], pc[i].ppi, pc[i].h, cls_sync_name(pc[i].sync),
                   s == CLS_SUCCESS ? "" : ": ", s == CLS_SUCCESS ? "" : cls_last_error());
            cls_plan_release(plan);
            cls_stencil_release(st);
            free(in);
            free(out);
            free(ref);
            free(aux[0]);
        }
    }

    /* Refusals: a height that leaves no inner block, a tile beyond local memory or the
     * work-group limit; the message says which limit. */
    cls_stencil *st;
    cls_stencil_builtin("poisson2d", &st);
    cls_dims d = {{64, 64, 1}};
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    opt.local_size[0] = opt.local_size[1] = 8;
    opt.trapezoid_height = 4;
    cls_plan *plan = NULL;
    cls_status s = cls_plan_create(ctx, st, d, 10, &opt, &plan);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && plan == NULL && strstr(cls_last_error(), "inner block"),
           "h too large for the tile is refused: %s", cls_last_error());
    opt.trapezoid_height = 1;
    opt.local_size[0] = opt.local_size[1] = 4096;
    s = cls_plan_create(ctx, st, d, 10, &opt, &plan);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && plan == NULL, "an oversized tile is refused: %s",
           cls_last_error());
    /* The default height (no profile): a feasible trapezoid. */
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    s = cls_plan_create(ctx, st, d, 10, &opt, &plan);
    cls_plan_info pi;
    if (s == CLS_SUCCESS) cls_plan_describe(plan, &pi);
    tap_ok(s == CLS_SUCCESS && pi.trapezoid_height >= 1 && pi.schedule == CLS_SCHEDULE_TRAPEZOID,
           "default trapezoid plan (h = %zu)", s == CLS_SUCCESS ? pi.trapezoid_height : 0);
    cls_plan_release(plan);
    cls_stencil_release(st);
    cls_context_release(ctx);
    return tap_done();
}
