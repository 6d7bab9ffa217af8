/* test_trapezoid.c: the trapezoid (ghost-zone) schedule against the host reference: 1D, 2D and
 * 3D built-ins, several heights, grids that are not multiples of the tile, every boundary
 * condition, kernel-restart and in-kernel-barrier synchronisation; and its refusals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_tune.h"
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

/* The plan parameters of a trapezoid request: the tile (ghost zone included), points per
 * work-item, the height and the synchronisation; zeros and CLS_SYNC_AUTO leave them out. */
static const char *trapezoid_params(char *buf, size_t len, const size_t tile[3], size_t ppi,
                                    size_t h, cls_sync sync)
{
    size_t n = 0;
    buf[0] = '\0';
    if (tile && tile[0])
        n += (size_t)snprintf(buf + n, len - n, " trapezoid.tile=%zux%zux%zu", tile[0],
                              tile[1] ? tile[1] : 1, tile[2] ? tile[2] : 1);
    if (ppi && n < len)
        n += (size_t)snprintf(buf + n, len - n, " trapezoid.points_per_item=%zu", ppi);
    if (h && n < len) n += (size_t)snprintf(buf + n, len - n, " trapezoid.height=%zu", h);
    if (sync != CLS_SYNC_AUTO && n < len)
        snprintf(buf + n, len - n, " trapezoid.sync=%s", cls_sync_name(sync));
    return buf;
}

/* The plan's value of an integer parameter (0 when it has none). */
static size_t plan_size(const cls_plan *plan, const char *name)
{
    const char *v = cls_plan_param(plan, name);
    return v ? (size_t)strtoull(v, NULL, 10) : 0;
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
    char params[256];
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    opt.params = trapezoid_params(params, sizeof params, tiles[dims - 1], 0, h, sync);
    cls_status s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    cls_status r = cls_reference_run(st, d, steps, in, (const void *const *)aux, ref);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s %s h=%zu %s: %s", name, cls_boundary_name(b), h, cls_sync_name(sync),
               cls_last_error());
    } else {
        int same = memcmp(out, ref, n * sizeof *out) == 0;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += memcmp(&out[i], &ref[i], sizeof *out) != 0;
        tap_ok(same && plan_size(plan, "trapezoid.height") == h,
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
            char params[256];
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
            opt.params = trapezoid_params(params, sizeof params, pc[i].tile, pc[i].ppi, pc[i].h,
                                          pc[i].sync);
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
    char params[256];
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    opt.params = trapezoid_params(params, sizeof params, (const size_t[3]){8, 8, 1}, 0, 4,
                                  CLS_SYNC_AUTO);
    cls_plan *plan = NULL;
    cls_status s = cls_plan_create(ctx, st, d, 10, &opt, &plan);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && plan == NULL && strstr(cls_last_error(), "inner block"),
           "h too large for the tile is refused: %s", cls_last_error());
    opt.params = trapezoid_params(params, sizeof params, (const size_t[3]){4096, 4096, 1}, 0, 1,
                                  CLS_SYNC_AUTO);
    s = cls_plan_create(ctx, st, d, 10, &opt, &plan);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && plan == NULL, "an oversized tile is refused: %s",
           cls_last_error());
    /* The default height (no profile): a feasible trapezoid. */
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    s = cls_plan_create(ctx, st, d, 10, &opt, &plan);
    cls_plan_info pi;
    if (s == CLS_SUCCESS) cls_plan_describe(plan, &pi);
    size_t h = s == CLS_SUCCESS ? plan_size(plan, "trapezoid.height") : 0;
    tap_ok(s == CLS_SUCCESS && h >= 1 && pi.schedule == CLS_SCHEDULE_TRAPEZOID,
           "default trapezoid plan (h = %zu)", h);
    cls_plan_release(plan);
    cls_stencil_release(st);
    cls_context_release(ctx);
    return tap_done();
}
