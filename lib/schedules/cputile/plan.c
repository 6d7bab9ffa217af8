/* plan.c: the cputile schedule's planner: overlapped temporal tiles for CPUs (cl/cputile.cl).
 * The tile and the steps per pass come from the model (model.c), searched over the tiles whose
 * scratch boxes (two; a system's rotation's) fit the device model's cache budget per compute unit
 * (tuning.cputile_cache_bytes); AUTO considers it where the model asks (tuning.cputile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_cost.h"
#include "cputile.h"

extern const cls__schedule_ops cls__cputile_ops;
#define OPS (&cls__cputile_ops)

#define MAX_HEIGHT 64

static const cls__param_desc params[] = {
    {"tile", CLS__PARAM_SIZES, 1, 1u << 30, NULL,
     "the points a tile writes per dimension (absent: the model's)"},
    {"height", CLS__PARAM_SIZE, 1, MAX_HEIGHT, NULL,
     "time steps per pass, each tile in its compute unit's cache (absent: the model's)"},
    {"groups", CLS__PARAM_SIZE, 1, 4096, NULL,
     "work-groups of one work-item, each with its scratch boxes (absent: one per compute unit)"},
    {NULL, 0, 0, 0, NULL, NULL}};

/* The margins of a request's tiles: lost per step (the halo; a system's stages' reaches
 * summed), and beyond them the ghosts of a system's loaded region (its widest stage reach;
 * none for one field, whose first step reads the grid). */
static cls_status margins_of(const cls_stencil *st, int halo[3], int pad[3])
{
    cls__stencil_step_reach(st, halo);
    pad[0] = pad[1] = pad[2] = 0;
    for (size_t g = 0; cls__stencil_is_system(st) && g < st->n_stages; g++) {
        int r[3];
        cls_status s = cls__system_stage_reach(st, g, r);
        if (s != CLS_SUCCESS) return s;
        for (int d = 0; d < 3; d++) pad[d] = r[d] > pad[d] ? r[d] : pad[d];
    }
    return CLS_SUCCESS;
}

/* The request's figures for the model: a point in cache at the row kernel's costs per vector
 * (the tile loops are row loops), the grid's traffic at the bandwidth of the level its arrays
 * live in (model/cpu_rows.c); *why says what is missing when it cannot price. */
static int cost_of(const cls__facts *f, cls__cputile_cost *c, const char **why)
{
    cls__cpu_device d;
    double reads = 0, flops = 0, divs = 0;
    size_t launches = 1;
    memset(c, 0, sizeof *c);
    for (int k = 0; k < 3; k++) c->n[k] = f->dims.n[k];
    if (margins_of(f->st, c->halo, c->pad) != CLS_SUCCESS) {
        *why = cls_last_error();
        return 0;
    }
    c->fields = cls__stencil_is_system(f->st) ? f->st->n_fields : 1;
    c->stages = cls__stencil_is_system(f->st) ? f->st->n_stages : 1;
    c->periodic = f->st->boundary == CLS_BOUNDARY_PERIODIC;
    c->elem = f->elem;
    c->steps = f->steps;
    c->cores = f->dev->compute_units ? f->dev->compute_units : 1;
    c->restart = f->restart_seconds;
    c->stream_bytes = (double)(f->st->n_aux * f->elem);
    for (size_t k = 0; k < f->st->n_aux; k++)
        if (cls_stencil_aux_per_step(f->st, k)) c->fresh_bytes += (double)f->elem;
    if (!cls__cpu_device_of(f, &d, why) ||
        cls__cpu_body_ops(f, &reads, &flops, &divs, &launches) != CLS_SUCCESS)
        return 0;
    cls__cputile_cost_prices(c, &d, reads, flops, divs,
                             (double)(2 * c->fields + f->st->n_aux) * (double)f->points *
                                 (double)f->elem);
    return 1;
}

/* Tile extents tried along dimension d: the whole grid, and along x (`split`) halves of it
 * down to 64 points, along y and z a ladder of small sizes. */
static size_t extents(const cls__facts *f, int d, int split, size_t *out, size_t cap)
{
    static const size_t ladder[] = {1,  2,  3,  4,   6,   8,   12,  16,  24,  32,
                                    48, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
    size_t n = f->dims.n[d], k = 0;
    if (d >= f->st->dims) {
        out[0] = 1;
        return 1;
    }
    out[k++] = n;
    if (d == 0) {
        for (size_t t = n / 2; split && t >= 64 && k < cap; t /= 2) out[k++] = t;
    } else {
        for (size_t i = 0; i < sizeof ladder / sizeof ladder[0] && k < cap; i++)
            if (ladder[i] < n) out[k++] = ladder[i];
    }
    return k;
}

/* The model's tile for `height` within `budget` bytes of two boxes (a given tile only
 * checked); returns the predicted seconds, 0 when no tile fits.  Whole rows first: the model
 * does not price a row's start, which costs more than a point. */
static double best_tile_of(const cls__facts *f, const cls__cputile_cost *c, size_t height,
                           size_t groups, size_t budget, const size_t *given, int split,
                           size_t tile[3]);
static double best_tile(const cls__facts *f, const cls__cputile_cost *c, size_t height,
                        size_t groups, size_t budget, const size_t *given, size_t tile[3])
{
    double s = best_tile_of(f, c, height, groups, budget, given, 0, tile);
    return s > 0 || given ? s : best_tile_of(f, c, height, groups, budget, given, 1, tile);
}

static double best_tile_of(const cls__facts *f, const cls__cputile_cost *c, size_t height,
                           size_t groups, size_t budget, const size_t *given, int split,
                           size_t tile[3])
{
    size_t ex[3][32], ne[3];
    for (int d = 0; d < 3; d++) {
        if (given) {
            ex[d][0] = given[d];
            ne[d] = 1;
        } else {
            ne[d] = extents(f, d, split, ex[d], 32);
        }
    }
    double best = 0;
    for (size_t i = 0; i < ne[0]; i++)
        for (size_t j = 0; j < ne[1]; j++)
            for (size_t k = 0; k < ne[2]; k++) {
                size_t t[3] = {ex[0][i], ex[1][j], ex[2][k]};
                size_t box = cls__cputile_box(t, c->halo, c->pad, height);
                if (!given && c->boxes * box * c->elem > budget) continue;
                double s = cls__cputile_predict(c, t, height, groups, NULL);
                if (best == 0 || s < best) {
                    best = s;
                    memcpy(tile, t, sizeof t);
                }
            }
    return best;
}

/* The boxes a work-group keeps: two for one field (the step's input and output), for a system
 * the buffers its rotation needs (lib/rotation.c). */
static size_t boxes_of(const cls_stencil *st)
{
    cls__rotation rot;
    if (!cls__stencil_is_system(st)) return 2;
    cls__rotation_init(&rot, st);
    return rot.n_bufs;
}

static cls_status candidates(cls__facts *f, int forced, cls__candidates *out)
{
    size_t v[3], given_tile[3], given_h = 0, groups = f->dev->compute_units;
    int tile_given = 0;
    if (cls__param_get(f->params, OPS, "tile", v)) {
        for (int d = 0; d < 3; d++) {
            given_tile[d] = v[d] ? v[d] : 1;
            if (d >= f->st->dims && given_tile[d] != 1)
                return cls__fail(f->ctx, CLS_ERR_INVALID_ARGUMENT,
                                 "cputile.tile: a %d-D stencil takes %d sizes", f->st->dims,
                                 f->st->dims);
            if (given_tile[d] > f->dims.n[d]) given_tile[d] = f->dims.n[d];
        }
        tile_given = 1;
    }
    if (cls__param_get(f->params, OPS, "height", v)) given_h = v[0];
    if (cls__param_get(f->params, OPS, "groups", v)) groups = v[0];
    if (!groups) groups = 1;

    cls__cputile_cost c;
    const char *missing = NULL;
    int priced = cost_of(f, &c, &missing);
    size_t budget = (size_t)cls__facts_model(f, "tuning.cputile_cache_bytes");
    c.boxes = boxes_of(f->st);
    if (!priced && !(tile_given && given_h))
        return cls__fail(f->ctx, CLS_ERR_UNSUPPORTED,
                         "cputile: %s; give cputile.tile and cputile.height", missing);
    if (!priced) {
        /* a given configuration runs unpriced */
        memset(&c, 0, sizeof c);
        for (int d = 0; d < 3; d++) c.n[d] = f->dims.n[d];
        cls_status s = margins_of(f->st, c.halo, c.pad);
        if (s != CLS_SUCCESS) return s;
        c.fields = cls__stencil_is_system(f->st) ? f->st->n_fields : 1;
        c.stages = cls__stencil_is_system(f->st) ? f->st->n_stages : 1;
        c.elem = f->elem;
        c.steps = f->steps;
        c.cores = groups;
    }

    size_t best_t[3] = {1, 1, 1}, best_h = 0;
    double best = 0, one = 0, redundancy = 1;
    size_t h_hi = given_h ? given_h : (f->steps < MAX_HEIGHT ? f->steps : MAX_HEIGHT);
    for (size_t h = given_h ? given_h : 1; h <= h_hi && h > 0; h++) {
        size_t t[3];
        double sec = best_tile(f, &c, h, groups, budget, tile_given ? given_tile : NULL, t);
        if (h == 1) one = sec;
        if (sec > 0 && (best == 0 || sec < best)) {
            best = sec;
            best_h = h;
            memcpy(best_t, t, sizeof t);
        }
        if (!priced) break;
    }
    if (!best_h && !priced) {
        best_h = given_h;
        memcpy(best_t, given_tile, sizeof best_t);
    }
    if (!best_h)
        return cls__fail(f->ctx, CLS_ERR_UNSUPPORTED,
                         "cputile: no tile's %zu scratch boxes fit the device model's %zu "
                         "bytes per compute unit (tuning.cputile_cache_bytes); give cputile.tile",
                         c.boxes, budget);
    cls__cputile *cfg = calloc(1, sizeof *cfg);
    if (!cfg) return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "cputile configuration");
    memcpy(cfg->tile, best_t, sizeof best_t);
    cfg->height = best_h;
    cfg->groups = groups;
    memcpy(cfg->halo, c.halo, sizeof cfg->halo);
    memcpy(cfg->pad, c.pad, sizeof cfg->pad);
    cfg->boxes = c.boxes;
    cfg->box = cls__cputile_box(cfg->tile, cfg->halo, cfg->pad, cfg->height);
    cfg->vector = cls__cpu_row_lanes(f->ctx->device, f->st->dtype);
    double bytes = (double)cfg->groups * (double)cfg->boxes * (double)cfg->box * (double)f->elem;
    if (bytes > (double)f->dev->max_alloc_bytes && f->dev->max_alloc_bytes) {
        free(cfg);
        return cls__fail(f->ctx, CLS_ERR_UNSUPPORTED,
                         "cputile: the scratch of %zu groups (%.0f bytes) exceeds the device's "
                         "largest allocation",
                         groups, bytes);
    }
    if (priced) cls__cputile_predict(&c, cfg->tile, cfg->height, cfg->groups, &redundancy);
    /* AUTO: only where the passes gain enough over passes of one step (what the naive schedule
     * runs, without the tiles), so that the model's errors do not trade naive for a near tie */
    int auto_ok = cls__facts_model(f, "tuning.cputile") != 0;
    int dims_ok = (double)f->st->dims <= cls__facts_model(f, "tuning.cputile_dims");
    double gain = 0, need = cls__facts_model(f, "tuning.cputile_gain");
    if (priced && auto_ok && !forced) gain = best > 0 ? one / best : 0;
    int gains = forced || !priced || gain >= need;
    cls__rank rank =
        forced || (auto_ok && dims_ok && gains) ? CLS__RANK_NORMAL : CLS__RANK_DECLINED;
    char note[128] = "";
    if (!auto_ok)
        snprintf(note, sizeof note, " (AUTO only where tuning.cputile is 1)");
    else if (!dims_ok && !forced)
        snprintf(note, sizeof note, " (AUTO only for stencils of at most %g dimensions, "
                                    "tuning.cputile_dims)",
                 cls__facts_model(f, "tuning.cputile_dims"));
    else if (!gains)
        snprintf(note, sizeof note,
                 " (AUTO: predicted %.2fx faster than one-step passes, below tuning.cputile_gain "
                 "%.2f)",
                 gain, need);
    return cls__candidate_add(out, OPS, cfg, rank, priced ? best : 0,
                              "%s%zu step%s per pass in %zux%zux%zu tiles, %.2f updates per "
                              "point and step%s",
                              priced ? "" : "no prediction: ", cfg->height,
                              cfg->height == 1 ? "" : "s", cfg->tile[0],
                              cfg->tile[1], cfg->tile[2], redundancy, note);
}

static cls_status build(const cls__facts *f, cls__candidate *cand)
{
    cls__cputile *c = cand->config;
    cls__built b = {0};
    char defines[512];
    int n = snprintf(defines, sizeof defines,
                     "#define CLS_CPUTILE 1\n#define CLS_CT_X %zu\n#define CLS_CT_Y %zu\n"
                     "#define CLS_CT_Z %zu\n#define CLS_CT_H %zu\n#define CLS_ROW_VEC %zu",
                     c->tile[0], c->tile[1], c->tile[2], c->height, c->vector);
    if (cls__stencil_is_system(f->st))
        snprintf(defines + n, sizeof defines - (size_t)n,
                 "\n#define CLS_CT_GX %d\n#define CLS_CT_GY %d\n#define CLS_CT_GZ %d\n"
                 "#define CLS_CT_GHOST_X %d\n#define CLS_CT_GHOST_Y %d\n#define CLS_CT_GHOST_Z %d",
                 c->halo[0], c->halo[1], c->halo[2], c->pad[0], c->pad[1], c->pad[2]);
    cls_status s = cls__build_kernel(f, "cputile.cl", defines,
                                     CLS__UPDATE_ROW | CLS__UPDATE_SCRATCH, "cls_cputile", 0, &b);
    c->program = b.program;
    c->kernel = b.kernel;
    c->from_cache = b.from_cache;
    c->build_seconds = b.build_seconds;
    return s;
}

static void describe(const void *config, cls__description *d)
{
    const cls__cputile *c = config;
    d->local[0] = d->local[1] = d->local[2] = 1;
    d->global[0] = c->groups;
    d->global[1] = d->global[2] = 1;
    d->from_cache = c->from_cache;
    d->build_seconds = c->build_seconds;
    cls__describe_param(d, OPS, "tile", "%zux%zux%zu", c->tile[0], c->tile[1], c->tile[2]);
    cls__describe_param(d, OPS, "height", "%zu", c->height);
    cls__describe_param(d, OPS, "groups", "%zu", c->groups);
}

static void release(void *config)
{
    cls__cputile *c = config;
    if (!c) return;
    if (c->kernel) clReleaseKernel(c->kernel);
    if (c->scratch) clReleaseMemObject(c->scratch);
    if (c->counter) clReleaseMemObject(c->counter);
    free(c);
}

const cls__schedule_ops cls__cputile_ops = {
    .name = "cputile",
    .id = CLS_SCHEDULE_CPUTILE,
    .flags = 0,
    .summary = "CPUs: each work-item advances tiles of every field by several steps in "
               "scratch boxes that stay in its core's cache, the overlap recomputed (the ghost "
               "zones of Meng & Skadron 2010 without local memory or barriers)",
    .params = params,
    .candidates = candidates,
    .build = build,
    .run = cls__cputile_run,
    .describe = describe,
    .release = release,
    .probe = cls__cputile_probe,
    .measurements = cls__cputile_probe_measurements,
};
