/* plan_trapezoid.c: the trapezoid schedule's planner: candidate tiles, the checks of a
 * configuration against the device, its program and launch geometry; the model fills what the
 * caller leaves open (lib/tune_trapezoid.c). */
#include <stdio.h>
#include <string.h>

#include "tune.h"

static const char *const axis_name[3] = {"x", "y", "z"};

/* Candidate tiles per dimensionality, ghost zone included: rows of whole memory segments,
 * square-ish 2D tiles and cubes of up to 4096 points (16 KiB of floats per buffer). */
static const size_t cand_1d[][3] = {{256, 1, 1}, {512, 1, 1}, {1024, 1, 1}, {2048, 1, 1},
                                    {4096, 1, 1}};
static const size_t cand_2d[][3] = {{32, 16, 1}, {32, 32, 1}, {64, 32, 1}, {64, 64, 1},
                                    {128, 32, 1}};
static const size_t cand_3d[][3] = {{8, 8, 8}, {16, 8, 8}, {16, 16, 8}, {32, 8, 8},
                                    {16, 16, 16}};
#define N_CAND 5
/* The profiled tile: the middle candidate. */
#define PROFILE_CAND 2

static const size_t (*candidates_of(int dims))[3]
{
    return dims == 1 ? cand_1d : dims == 2 ? cand_2d : cand_3d;
}

/* Work-items of a work-group the planner aims at: a few warps on GPUs; CPUs run a group as a
 * loop over its items, where longer groups only lengthen the loop. */
#define TARGET_ITEMS 256

size_t cls__trapezoid_default_ppi(const cls_context *ctx, const cls_stencil *st,
                                  const size_t tile[3])
{
    int axis = st->dims - 1;
    size_t items = tile[0] * tile[1] * tile[2], ppi = 1;
    size_t target = TARGET_ITEMS;
    if (ctx->info.max_work_group_size && target > ctx->info.max_work_group_size)
        target = ctx->info.max_work_group_size;
    while (items / ppi > target && tile[axis] % (2 * ppi) == 0) ppi *= 2;
    return ppi;
}

/* Local memory of a tile: two buffers (ping-pong) with a margin of one halo on every side. */
double cls__trapezoid_local_bytes(const cls_stencil *st, const size_t tile[3])
{
    int halo[3];
    double n = 1;
    cls_stencil_halo(st, halo);
    for (int i = 0; i < 3; i++) n *= (double)tile[i] + 2.0 * (i < st->dims ? halo[i] : 0);
    return 2.0 * n * (double)cls_dtype_size(st->dtype);
}

int cls__trapezoid_fits(const cls_context *ctx, const cls_stencil *st, const size_t tile[3],
                        size_t ppi, char *why, size_t len)
{
    const cls_device_info *d = &ctx->info;
    int halo[3], axis = st->dims - 1;
    size_t wg[3], items;
    double lb;
    cls_stencil_halo(st, halo);
    for (int i = 0; i < 3; i++) {
        if (i >= st->dims && tile[i] != 1) {
            snprintf(why, len, "a %d-D stencil takes %d tile sizes", st->dims, st->dims);
            return 0;
        }
        if (tile[i] == 0) {
            snprintf(why, len, "a tile size of 0 in %s", axis_name[i]);
            return 0;
        }
        if (i < st->dims && tile[i] <= 2 * (size_t)halo[i]) {
            snprintf(why, len,
                     "a tile of %zu in %s leaves no inner block even for h = 1 and halo %d (Eq. 20: "
                     "the tile must exceed 2*h*halo)",
                     tile[i], axis_name[i], halo[i]);
            return 0;
        }
    }
    if (ppi == 0 || tile[axis] % ppi != 0) {
        snprintf(why, len, "%zu points per work-item do not divide the tile's %zu in %s", ppi,
                 tile[axis], axis_name[axis]);
        return 0;
    }
    memcpy(wg, tile, sizeof wg);
    wg[axis] /= ppi;
    items = wg[0] * wg[1] * wg[2];
    if (items > d->max_work_group_size) {
        snprintf(why, len, "a work-group of %zu work-items (tile %zux%zux%zu, %zu per item); '%s' "
                 "allows %zu",
                 items, tile[0], tile[1], tile[2], ppi, d->name, d->max_work_group_size);
        return 0;
    }
    for (int i = 0; i < 3; i++)
        if (d->max_work_item_sizes[i] && wg[i] > d->max_work_item_sizes[i]) {
            snprintf(why, len, "a work-group of %zu in %s exceeds the device's %zu work-items",
                     wg[i], axis_name[i], d->max_work_item_sizes[i]);
            return 0;
        }
    lb = cls__trapezoid_local_bytes(st, tile);
    if (lb > (double)d->local_mem_bytes) {
        snprintf(why, len,
                 "a tile of %zux%zux%zu needs %.0f bytes of local memory (two buffers with a halo "
                 "margin); '%s' has %llu",
                 tile[0], tile[1], tile[2], lb, d->name, (unsigned long long)d->local_mem_bytes);
        return 0;
    }
    return 1;
}

size_t cls__trapezoid_candidates(const cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                 size_t (*tiles)[3], size_t max)
{
    const size_t(*cand)[3] = candidates_of(st->dims);
    size_t n = 0, small = N_CAND;
    int halo[3];
    char why[256];
    cls_stencil_halo(st, halo);
    for (size_t c = 0; c < N_CAND && n < max; c++) {
        int too_big = 0;
        if (!cls__trapezoid_fits(ctx, st, cand[c], cls__trapezoid_default_ppi(ctx, st, cand[c]),
                                 why, sizeof why))
            continue;
        if (small == N_CAND) small = c;
        /* A tile whose inner block exceeds the grid computes mostly outside it. */
        for (int i = 0; i < st->dims; i++)
            if (cand[c][i] - 2 * (size_t)halo[i] > dims.n[i]) too_big = 1;
        if (too_big && c != small) continue;
        memcpy(tiles[n++], cand[c], sizeof tiles[0]);
    }
    return n;
}

void cls__trapezoid_profile_tile(const cls_context *ctx, const cls_stencil *st, size_t tile[3])
{
    const size_t(*cand)[3] = candidates_of(st->dims);
    char why[256];
    size_t order[N_CAND] = {PROFILE_CAND, 1, 0, 3, 4};
    memcpy(tile, cand[0], 3 * sizeof *tile);
    for (size_t k = 0; k < N_CAND; k++)
        if (cls__trapezoid_fits(ctx, st, cand[order[k]],
                                cls__trapezoid_default_ppi(ctx, st, cand[order[k]]), why,
                                sizeof why)) {
            memcpy(tile, cand[order[k]], 3 * sizeof *tile);
            return;
        }
}

void cls__trapezoid_set_height(cls_plan *p, size_t h)
{
    int halo[3];
    cls_stencil_halo(p->st, halo);
    p->h = h;
    p->tiles = 1;
    for (int i = 0; i < p->st->dims; i++) {
        size_t inner = p->tile[i] - 2 * h * (size_t)halo[i];
        p->tiles *= (p->dims.n[i] + inner - 1) / inner;
    }
    /* One work-group per tile with restarts (tile t = group t along the first axis); with the
     * in-kernel barrier only as many groups as are surely resident at once: one per compute
     * unit (the tile fits one group's limits), each looping over tiles. */
    if (p->sync == CLS_SYNC_BARRIER) {
        p->groups = p->ctx->info.compute_units ? p->ctx->info.compute_units : 1;
        if (p->groups > p->tiles) p->groups = p->tiles;
    } else {
        p->groups = 0;
    }
    p->global[0] = (p->sync == CLS_SYNC_BARRIER ? p->groups : p->tiles) * p->local[0];
    p->global[1] = p->local[1];
    p->global[2] = p->local[2];
}

cls_status cls__trapezoid_setup(cls_plan *p, const cls__trap_config *c)
{
    cls_context *ctx = p->ctx;
    const cls_device_info *d = &ctx->info;
    int halo[3], axis = p->st->dims - 1;
    char why[512], defines[512];
    size_t h = c->h, items, kmax = 0;
    cls_status s;
    cls_stencil_halo(p->st, halo);
    if (!cls__trapezoid_fits(ctx, p->st, c->tile, c->ppi, why, sizeof why))
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE, "trapezoid: %s", why);
    if (h == 0) h = 1;
    if (p->steps && h > p->steps) h = p->steps;
    for (int i = 0; i < p->st->dims; i++)
        if (c->tile[i] <= 2 * h * (size_t)halo[i])
            return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "trapezoid: a tile of %zu in %s leaves no inner block for h = %zu and "
                             "halo %d (the tile must exceed 2*h*halo = %zu); lower h or widen the "
                             "tile",
                             c->tile[i], axis_name[i], h, halo[i], 2 * h * (size_t)halo[i]);
    if (c->sync != CLS_SYNC_RESTART && c->sync != CLS_SYNC_BARRIER)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "trapezoid: sync must be restart or barrier");
    memcpy(p->tile, c->tile, sizeof p->tile);
    memcpy(p->local, c->tile, sizeof p->local);
    p->local[axis] /= c->ppi;
    p->per_item = c->ppi;
    p->sync = c->sync;
    items = p->local[0] * p->local[1] * p->local[2];

    snprintf(defines, sizeof defines,
             "#define CLS_TILE_X %zu\n#define CLS_TILE_Y %zu\n#define CLS_TILE_Z %zu\n"
             "#define CLS_WG_X %zu\n#define CLS_WG_Y %zu\n#define CLS_WG_Z %zu\n"
             "#define CLS_PPI %zu\n%s%s",
             p->tile[0], p->tile[1], p->tile[2], p->local[0], p->local[1], p->local[2], c->ppi,
             p->sync == CLS_SYNC_BARRIER ? "#define CLS_PERSISTENT 1\n" : "",
             p->sync == CLS_SYNC_BARRIER && d->type == CLS_DEVICE_CPU
                 ? "#define CLS_SPIN_LIMIT (1 << 30)\n"
                 : "");
    const char *kernel = p->sync == CLS_SYNC_BARRIER ? "cls_trapezoid_persistent" : "cls_trapezoid";
    if ((s = cls__build_kernel(p, "trapezoid.cl", defines, kernel)) != CLS_SUCCESS) return s;
    clGetKernelWorkGroupInfo(p->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                             NULL);
    if (kmax && items > kmax)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "trapezoid: the kernel for this stencil allows %zu work-items per group "
                         "on '%s', the work-group needs %zu; use a smaller tile or more points "
                         "per work-item",
                         kmax, d->name, items);
    cls__trapezoid_set_height(p, h);
    return CLS_SUCCESS;
}

cls_status cls__plan_trapezoid(cls_plan *p, const cls_plan_options *opt)
{
    cls__trap_config c;
    cls_ghost_profile prof;
    cls_status s;
    int have_prof = 0, pf = 0;
    const int all_given = (opt->local_size[0] || opt->local_size[1] || opt->local_size[2]) &&
                          opt->trapezoid_height && opt->sync != CLS_SYNC_AUTO;
    p->schedule = CLS_SCHEDULE_TRAPEZOID;
    /* A fully specified plan needs no model; a cached profile still gives its prediction.  An
     * open choice measures the profile when it is missing (once per stencil and device). */
    if (p->tuned) {
        c = p->choice;
        have_prof = p->have_profile;
        prof = p->profile;
    } else {
        s = cls__profile_get(p->ctx, p->st, !all_given, &prof, &pf);
        have_prof = s == CLS_SUCCESS;
        if (!have_prof && !all_given) return s;
        if (!have_prof) {
            /* Everything fixed by the caller, no profile cached: no prediction. */
            memset(&c, 0, sizeof c);
            for (int i = 0; i < 3; i++) c.tile[i] = opt->local_size[i] ? opt->local_size[i] : 1;
            c.ppi = opt->points_per_item ? opt->points_per_item
                                         : cls__trapezoid_default_ppi(p->ctx, p->st, c.tile);
            c.h = opt->trapezoid_height;
            c.sync = opt->sync;
            snprintf(p->why, sizeof p->why,
                     "trapezoid as given (no profile cached for '%s' on this device, so no "
                     "prediction)",
                     p->st->name);
        } else {
            double sec = 0;
            s = cls__trapezoid_choose(p, opt, &prof, &c, &sec, NULL, 0, NULL);
            if (s != CLS_SUCCESS) return s;
        }
    }
    if ((s = cls__trapezoid_setup(p, &c)) != CLS_SUCCESS) return s;
    if (have_prof) p->predicted_seconds = cls__trapezoid_predict(p, &prof, &c);
    return CLS_SUCCESS;
}
