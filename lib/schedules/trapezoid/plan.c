/* plan.c: the trapezoid schedule's planner (Meng & Skadron 2010): candidate tiles, the checks
 * of a configuration against the device, its program and launch geometry, and the operations
 * table; the ghost-zone model fills what the caller leaves open (choose.c), from the stencil's
 * measured profile (profile.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "planner.h"

#define OPS (&cls__trapezoid_ops)

static const char *const axis_name[3] = {"x", "y", "z"};
static const char *const sync_names[] = {"restart", "barrier", NULL};

static const cls__param_desc params[] = {
    {"tile", CLS__PARAM_SIZES, 1, 1u << 20, NULL,
     "the tile per dimension, ghost zone included (absent: chosen by the model)"},
    {"points_per_item", CLS__PARAM_SIZE, 1, 4096, NULL,
     "points each work-item updates along the slowest axis (the work-group is the tile divided "
     "by it)"},
    {"height", CLS__PARAM_SIZE, 1, 1u << 30, NULL, "steps per stage h (absent: the model's)"},
    {"sync", CLS__PARAM_NAME, 0, 0, sync_names,
     "stage synchronisation: restart (a launch per stage) or barrier (one persistent launch)"},
    {NULL, 0, 0, 0, NULL, NULL}};

void cls__trapezoid_request(const cls__facts *f, cls__trap_request *r)
{
    size_t v[3];
    memset(r, 0, sizeof *r);
    if (cls__param_get(f->params, OPS, "tile", v)) {
        for (int i = 0; i < 3; i++) r->tile[i] = v[i] ? v[i] : 1;
        r->tile_given = 1;
    }
    if (cls__param_get(f->params, OPS, "points_per_item", v)) r->ppi = v[0];
    if (cls__param_get(f->params, OPS, "height", v)) r->h = v[0];
    if (cls__param_get(f->params, OPS, "sync", v))
        r->sync = v[0] == 0 ? CLS__TRAP_RESTART : CLS__TRAP_BARRIER;
}

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

size_t cls__trapezoid_default_ppi(const cls_device_info *d, const cls_model *m,
                                  const cls_stencil *st, const size_t tile[3])
{
    int axis = st->dims - 1;
    size_t items = tile[0] * tile[1] * tile[2], ppi = 1;
    double want = 0;
    if (m) cls_model_get(m, "tuning.trapezoid_group_items", &want);
    size_t target = want >= 1 ? (size_t)want : 256;
    if (d->max_work_group_size && target > d->max_work_group_size) target = d->max_work_group_size;
    while (items / ppi > target && tile[axis] % (2 * ppi) == 0) ppi *= 2;
    return ppi;
}

size_t cls__trapezoid_tile_buffers(const cls_stencil *st)
{
    cls__rotation rot;
    cls__rotation_init(&rot, st);
    return rot.n_bufs;
}

/* Local memory of a tile: the buffers the fields rotate through (two, ping-pong, for one
 * field), each with a margin of one halo on every side. */
double cls__trapezoid_local_bytes(const cls_stencil *st, const size_t tile[3])
{
    int halo[3];
    double n = 1;
    cls_stencil_halo(st, halo);
    for (int i = 0; i < 3; i++) n *= (double)tile[i] + 2.0 * (i < st->dims ? halo[i] : 0);
    return (double)cls__trapezoid_tile_buffers(st) * n * (double)cls_dtype_size(st->dtype);
}

int cls__trapezoid_fits(const cls_device_info *d, const cls_model *m, const cls_stencil *st,
                        const size_t tile[3], size_t ppi, char *why, size_t len)
{
    int halo[3], axis = st->dims - 1;
    size_t wg[3], items;
    double lb;
    cls__stencil_step_reach(st, halo);
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
                     "a tile of %zu in %s leaves no inner block even for h = 1 and %s %d (Eq. 20: "
                     "the tile must exceed 2*h*halo)",
                     tile[i], axis_name[i],
                     cls__stencil_is_system(st) ? "the stages' summed radius" : "halo", halo[i]);
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
    /* Every buffer the fields rotate through, within what one work-group may hold: the
     * device's, or the device model's local_memory.bytes where that is less. */
    lb = cls__trapezoid_local_bytes(st, tile);
    double model_lb = 0;
    if (m && cls_model_get(m, "local_memory.bytes", &model_lb) == CLS_SUCCESS && model_lb > 0 &&
        model_lb < (double)d->local_mem_bytes && lb > model_lb) {
        snprintf(why, len,
                 "a tile of %zux%zux%zu needs %.0f bytes of local memory (%zu buffers with a halo "
                 "margin); device model '%s' allows %.0f per work-group (local_memory.bytes)",
                 tile[0], tile[1], tile[2], lb, cls__trapezoid_tile_buffers(st),
                 cls_model_name(m), model_lb);
        return 0;
    }
    if (lb > (double)d->local_mem_bytes) {
        snprintf(why, len,
                 "a tile of %zux%zux%zu needs %.0f bytes of local memory (%zu buffers with a halo "
                 "margin); '%s' has %llu",
                 tile[0], tile[1], tile[2], lb, cls__trapezoid_tile_buffers(st), d->name,
                 (unsigned long long)d->local_mem_bytes);
        return 0;
    }
    return 1;
}

size_t cls__trapezoid_candidates(const cls_device_info *d, const cls_model *m,
                                 const cls_stencil *st, cls_dims dims, size_t (*tiles)[3],
                                 size_t max)
{
    const size_t(*cand)[3] = candidates_of(st->dims);
    size_t n = 0, small = N_CAND;
    int halo[3];
    char why[256];
    cls__stencil_step_reach(st, halo);
    for (size_t c = 0; c < N_CAND && n < max; c++) {
        int too_big = 0;
        if (!cls__trapezoid_fits(d, m, st, cand[c], cls__trapezoid_default_ppi(d, m, st, cand[c]),
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

void cls__trapezoid_profile_tile(const cls_device_info *d, const cls_model *m,
                                 const cls_stencil *st, size_t tile[3])
{
    const size_t(*cand)[3] = candidates_of(st->dims);
    char why[256];
    size_t order[N_CAND] = {PROFILE_CAND, 1, 0, 3, 4};
    memcpy(tile, cand[0], 3 * sizeof *tile);
    for (size_t k = 0; k < N_CAND; k++)
        if (cls__trapezoid_fits(d, m, st, cand[order[k]],
                                cls__trapezoid_default_ppi(d, m, st, cand[order[k]]), why,
                                sizeof why)) {
            memcpy(tile, cand[order[k]], 3 * sizeof *tile);
            return;
        }
}

cls_status cls__trapezoid_setup(const cls__facts *f, cls__trapezoid *t)
{
    cls_context *ctx = f->ctx;
    const cls_stencil *st = f->st;
    int halo[3], axis = st->dims - 1;
    char why[512], defines[640];
    cls__trap_config *c = &t->c;
    size_t h = c->h, items;
    cls_status s;
    cls__stencil_step_reach(st, halo);
    if (!cls__trapezoid_fits(f->dev, f->model, st, c->tile, c->ppi, why, sizeof why))
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE, "trapezoid: %s", why);
    if (h == 0) h = 1;
    if (f->steps && h > f->steps) h = f->steps;
    for (int i = 0; i < st->dims; i++)
        if (c->tile[i] <= 2 * h * (size_t)halo[i])
            return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "trapezoid: a tile of %zu in %s leaves no inner block for h = %zu and "
                             "%s %d (the tile must exceed 2*h*halo = %zu); lower h or widen the "
                             "tile",
                             c->tile[i], axis_name[i], h,
                             cls__stencil_is_system(st) ? "the stages' summed radius" : "halo",
                             halo[i], 2 * h * (size_t)halo[i]);
    if (c->sync != CLS__TRAP_RESTART && c->sync != CLS__TRAP_BARRIER)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "trapezoid: sync must be restart or barrier");
    for (int i = 0; i < 3; i++) t->halo[i] = i < st->dims ? (size_t)halo[i] : 0;
    memcpy(t->local, c->tile, sizeof t->local);
    t->local[axis] /= c->ppi;
    t->compute_units = f->dev->compute_units;
    items = t->local[0] * t->local[1] * t->local[2];
    /* A persistent kernel spins at its barrier; where the device model bounds the spin (CPU
     * runtimes that run work-groups one after another), it gives up and reports it. */
    size_t spin = (size_t)cls__facts_model(f, "tuning.barrier_spin_limit");
    int n = snprintf(defines, sizeof defines,
                     "#define CLS_TILE_X %zu\n#define CLS_TILE_Y %zu\n#define CLS_TILE_Z %zu\n"
                     "#define CLS_WG_X %zu\n#define CLS_WG_Y %zu\n#define CLS_WG_Z %zu\n"
                     "#define CLS_PPI %zu\n%s",
                     c->tile[0], c->tile[1], c->tile[2], t->local[0], t->local[1], t->local[2],
                     c->ppi, c->sync == CLS__TRAP_BARRIER ? "#define CLS_PERSISTENT 1\n" : "");
    if (c->sync == CLS__TRAP_BARRIER && spin && n > 0 && (size_t)n < sizeof defines)
        n += snprintf(defines + n, sizeof defines - (size_t)n, "#define CLS_SPIN_LIMIT %zu\n", spin);
    /* A system's tile loses the sum of its stages' radii per step (cl/trapezoid.cl). */
    if (cls__stencil_is_system(st) && n > 0 && (size_t)n < sizeof defines)
        snprintf(defines + n, sizeof defines - (size_t)n,
                 "#define CLS_GHOST_X %d\n#define CLS_GHOST_Y %d\n#define CLS_GHOST_Z %d\n",
                 halo[0], halo[1], halo[2]);
    const char *kernel =
        c->sync == CLS__TRAP_BARRIER ? "cls_trapezoid_persistent" : "cls_trapezoid";
    cls__built b = {0};
    s = cls__build_kernel(f, "trapezoid.cl", defines, CLS__UPDATE_TILE, kernel, f->max_registers,
                          &b);
    t->program = b.program;
    t->kernel = b.kernel;
    t->from_cache = b.from_cache;
    t->build_seconds = b.build_seconds;
    if (s != CLS_SUCCESS) return s;
    size_t kmax = cls__kernel_wg_limit(ctx, t->kernel);
    if (kmax && items > kmax)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "trapezoid: the kernel for this stencil allows %zu work-items per group "
                         "on '%s', the work-group needs %zu; use a smaller tile or more points "
                         "per work-item",
                         kmax, f->dev->name, items);
    cls__trapezoid_set_height(t, f->dims, st->dims, h);
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- the operations */
static const char *sync_name(int sync) { return sync == CLS__TRAP_BARRIER ? "barrier" : "restart"; }

/* The profile: this context's or the disk cache's, else measured where the facts allow. */
static cls_status profile_of(cls__facts *f, int measure, int *have)
{
    cls_ghost_profile prof;
    int fc = 0;
    *have = f->profile != NULL;
    if (*have) return CLS_SUCCESS;
    cls_status s = cls__profile_get(f->ctx, f->st, 0, &prof, &fc);
    if (s != CLS_SUCCESS && measure) s = cls__profile_get(f->ctx, f->st, 1, &prof, &fc);
    if (s == CLS_SUCCESS) {
        if ((s = cls__facts_set_profile(f, &prof)) == CLS_SUCCESS) *have = 1;
        return s;
    }
    return s == CLS_ERR_CACHE ? CLS_SUCCESS : s;
}

static cls_status load_facts(cls__facts *f)
{
    cls_ghost_profile prof;
    int fc = 0;
    if (f->profile || cls__profile_get(f->ctx, f->st, 0, &prof, &fc) != CLS_SUCCESS)
        return CLS_SUCCESS;
    return cls__facts_set_profile(f, &prof);
}

static cls_status candidates(cls__facts *f, int forced, cls__candidates *out)
{
    cls__trap_request r;
    cls__trapezoid *t;
    int have = 0;
    cls_status s;
    cls__trapezoid_request(f, &r);
    const int all_given = r.tile_given && r.h && r.sync;
    char fit[300];
    if (cls__stencil_is_system(f->st) && !cls__facts_fit_field_sets(f, fit, sizeof fit))
        return cls__fail(f->ctx, CLS_ERR_PLAN_INFEASIBLE, "trapezoid: %s", fit);
    /* A fully specified plan needs no model; a cached profile still gives its prediction.  An
     * open choice measures the profile when it is missing (once per stencil and device). */
    if ((s = profile_of(f, !all_given && f->measure_allowed, &have)) != CLS_SUCCESS) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(f->ctx, s, "the stencil's profile could not be measured (%s)", msg);
    }
    if (!(t = calloc(1, sizeof *t)))
        return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "trapezoid configuration");
    t->all_given = all_given;
    if (!have) {
        if (!all_given) {
            free(t);
            return cls__fail(f->ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "no profile of '%s' is cached for this device and none is measured "
                             "here (%s)",
                             f->st->name, f->measure_denied ? f->measure_denied : "not allowed");
        }
        /* Everything fixed by the caller, no profile cached: no prediction. */
        memcpy(t->c.tile, r.tile, sizeof t->c.tile);
        t->c.ppi = r.ppi ? r.ppi : cls__trapezoid_default_ppi(f->dev, f->model, f->st, r.tile);
        t->c.h = r.h;
        t->c.sync = r.sync;
        return cls__candidate_add(out, OPS, t, CLS__RANK_NORMAL, 0,
                                  "as given (no profile cached for '%s' on this device, so no "
                                  "prediction)",
                                  f->st->name);
    }
    double sec = 0;
    char *why = NULL;
    if (all_given) {
        memcpy(t->c.tile, r.tile, sizeof t->c.tile);
        t->c.ppi = r.ppi ? r.ppi : cls__trapezoid_default_ppi(f->dev, f->model, f->st, r.tile);
        t->c.h = r.h;
        t->c.sync = r.sync;
        sec = cls__trapezoid_predict(f, f->profile, &t->c);
        return cls__candidate_add(out, OPS, t, CLS__RANK_NORMAL, sec,
                                  "as given; the ghost-zone model predicts %.6g s", sec);
    }
    s = cls__trapezoid_choose(f, &r, f->profile, &t->c, &sec, &why, NULL, 0, NULL);
    if (s != CLS_SUCCESS) {
        free(t);
        char msg[1200];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(f->ctx, s, "no trapezoid configuration fits (%s)", msg);
    }
    (void)forced;
    s = cls__candidate_add(out, OPS, t, CLS__RANK_NORMAL, sec, "%s", why ? why : "");
    free(why);
    return s;
}

static cls_status build(const cls__facts *f, cls__candidate *cand)
{
    cls__trapezoid *t = cand->config;
    cls_status s = cls__trapezoid_setup(f, t);
    if (s != CLS_SUCCESS) return s;
    /* the height the setup settled on (at most the steps) prices the plan */
    if (f->profile && cand->seconds > 0) cand->seconds = cls__trapezoid_predict(f, f->profile, &t->c);
    return CLS_SUCCESS;
}

static void describe(const void *config, cls__description *d)
{
    const cls__trapezoid *t = config;
    memcpy(d->local, t->local, sizeof d->local);
    memcpy(d->global, t->global, sizeof d->global);
    d->from_cache = t->from_cache;
    d->build_seconds = t->build_seconds;
    cls__describe_param(d, OPS, "tile", "%zux%zux%zu", t->c.tile[0], t->c.tile[1], t->c.tile[2]);
    cls__describe_param(d, OPS, "points_per_item", "%zu", t->c.ppi);
    cls__describe_param(d, OPS, "height", "%zu", t->c.h);
    cls__describe_param(d, OPS, "sync", "%s", sync_name(t->c.sync));
    cls__describe_param(d, OPS, "tiles", "%zu", t->tiles);
    if (t->groups) cls__describe_param(d, OPS, "resident_groups", "%zu", t->groups);
}

static void variant_name(const void *config, char *name, size_t len)
{
    const cls__trapezoid *t = config;
    snprintf(name, len, "trapezoid-%zux%zu-h%zu-wg%zux%zu", t->c.tile[0], t->c.tile[1], t->c.h,
             t->local[0], t->local[1]);
}

static void release(void *config)
{
    cls__trapezoid *t = config;
    if (!t) return;
    if (t->kernel) clReleaseKernel(t->kernel);
    free(t);
}


const cls__schedule_ops cls__trapezoid_ops = {
    .name = "trapezoid",
    .id = CLS_SCHEDULE_TRAPEZOID,
    .flags = 0,
    .summary = "ghost zones (Meng & Skadron 2010): tiles with a ghost zone of h x halo advance h "
               "steps in local memory per stage, stages joined by kernel restarts or an "
               "in-kernel barrier",
    .params = params,
    .load_facts = load_facts,
    .candidates = candidates,
    .build = build,
    .run = cls__trapezoid_run,
    .describe = describe,
    .variant_name = variant_name,
    .publish_access = cls__trapezoid_publish_access,
    .release = release,
};
