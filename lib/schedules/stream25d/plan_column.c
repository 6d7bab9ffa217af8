/* plan_column.c: the stream25d column variant's planner (cl/stream25d_column.cl): which bodies it
 * runs (stars: reads off the plane only along the point's own column, radius up to 4), its tile,
 * planes per group and rows per work-item, its kernel, and AUTO's offer of it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "expr.h"
#include "planner.h"

#define COL_MAX_R 4 /* radius in each dimension: the seismic kernels' 8th order */

/* What the column kernel needs of the body: the radii over the star fields, which fields are
 * read (bit f) and which of them off the point, the in-plane offsets read at dz = 0. */
typedef struct col_reads {
    int r[3];
    unsigned read, star;
    unsigned char plane[2 * COL_MAX_R + 1][2 * COL_MAX_R + 1];
    int corners;
} col_reads;

/* Adds the reads of one emitted body to cr; 0 with the reason in why when the column kernel
 * cannot run it. */
static int scan(const cls__s25 *p, const char *text, col_reads *cr, char *why, size_t len)
{
    static const char axis[] = "xyz";
    int o[3], field;
    for (const char *at = text; cls__s25_next_read(p, text, &at, &field, o);) {
        const char *name = cls__stencil_is_system(p->st) && field >= 0 &&
                                   (size_t)field < p->st->n_fields
                               ? p->st->fields[field].name
                               : "IN";
        if (field < 0 || field >= 32) {
            snprintf(why, len, "field %d beyond the kernel's 32", field);
            return 0;
        }
        if (o[2] && (o[0] || o[1])) {
            snprintf(why, len,
                     "the body reads %s at (%d, %d, %d), off its column in another plane; the "
                     "column window holds other planes only at dx = dy = 0 (stars; "
                     "stream25d.window=full runs boxes up to radius %d)",
                     name, o[0], o[1], o[2], CLS__S25_MAX_R);
            return 0;
        }
        for (int d = 0; d < 3; d++) {
            if (abs(o[d]) > COL_MAX_R) {
                snprintf(why, len,
                         "the body reads %s at offset %d in %c; the column window holds offsets "
                         "up to %d",
                         name, o[d], axis[d], COL_MAX_R);
                return 0;
            }
            if (abs(o[d]) > cr->r[d]) cr->r[d] = abs(o[d]);
        }
        cr->read |= 1u << field;
        if (o[0] || o[1] || o[2]) cr->star |= 1u << field;
        if (!o[2]) cr->plane[o[1] + COL_MAX_R][o[0] + COL_MAX_R] = 1;
        if (o[0] && o[1]) cr->corners = 1;
    }
    return 1;
}

/* scan over every update (cls__s25_each_update); a refusal's reason in why. */
typedef struct col_scan {
    col_reads *cr;
    char *why;
    size_t len;
    int refused;
} col_scan;

static cls_status scan_update(const cls__s25 *p, size_t stage, size_t k, const char *text,
                              void *arg)
{
    col_scan *a = arg;
    (void)stage, (void)k;
    if (scan(p, text, a->cr, a->why, a->len)) return CLS_SUCCESS;
    a->refused = 1;
    return CLS_ERR_PLAN_INFEASIBLE;
}

/* The reads of the whole body (every update of every stage of a system: one geometry for all
 * the stages' kernels); 0 with the reason in why when the column kernel cannot run it. */
static int body_reads(const cls__s25 *p, col_reads *cr, char *why, size_t len)
{
    memset(cr, 0, sizeof *cr);
    if (p->st->dims != 3 || p->lifted) {
        snprintf(why, len, "the column variant streams 3D grids");
        return 0;
    }
    col_scan a = {cr, why, len, 0};
    if (cls__s25_each_update(p, scan_update, &a) == CLS_SUCCESS) return 1;
    if (!a.refused) snprintf(why, len, "%s", cls_last_error());
    return 0;
}

static int max_radius(const col_reads *cr)
{
    int m = cr->r[0] > cr->r[1] ? cr->r[0] : cr->r[1];
    return m > cr->r[2] ? m : cr->r[2];
}

static size_t popcount(unsigned v)
{
    size_t n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

static size_t div_up(size_t a, size_t b) { return (a + b - 1) / b; }

/* One configuration. */
typedef struct col_config {
    size_t bx, by, rows, chunk, ahead; /* ahead: planes loaded ahead (stream25d.prefetch) */
} col_config;

/* Local memory of a group: two planes per star field, the tile widened by the halo. */
static size_t local_bytes(const cls__s25 *p, const col_reads *cr, const col_config *c)
{
    return 2 * (c->bx + 2 * (size_t)cr->r[0]) * (c->by * c->rows + 2 * (size_t)cr->r[1]) *
           p->elem * popcount(cr->star);
}

/* Registers per work-item, estimated: the queues (2*RZ+1 values per star field and row, one per
 * point field and row), the planes loaded ahead (a queue value per field and row, the halo words
 * of each star field), the in-plane reads of one update, and 24 for indices and the update. */
static unsigned registers(const cls__s25 *p, const col_reads *cr, const col_config *c)
{
    size_t ns = popcount(cr->star), np = popcount(cr->read & ~cr->star), inplane = 0;
    size_t halo = 2 * (size_t)cr->r[1] * (c->bx + (cr->corners ? 2 * (size_t)cr->r[0] : 0)) +
                  2 * (size_t)cr->r[0] * c->by * c->rows;
    for (int y = 0; y < 2 * COL_MAX_R + 1; y++)
        for (int x = 0; x < 2 * COL_MAX_R + 1; x++) inplane += cr->plane[y][x];
    double words = (double)p->elem / 4;
    double ahead = (double)(c->ahead ? c->ahead : 1);
    double v = (double)c->rows * ((double)(ns * (2 * (size_t)cr->r[2] + 1) + np) +
                                  ahead * (double)(ns + np)) +
               ahead * (double)ns * (double)div_up(halo, c->bx * c->by) + (double)inplane;
    return (unsigned)ceil(v * words + 24);
}

/* Planes per group when the caller leaves them open: columns split into chunks of at least 16
 * planes until there are four waves of groups (as the full window's planner does). */
static size_t default_chunk(const cls__s25 *p, const col_reads *cr, const col_config *c)
{
    const cls__facts *f = cls__s25_facts(p);
    cls_model_occupancy_info occ;
    double cus = 0;
    size_t nz = p->dims.n[2];
    if (!f->model || cls_model_get(f->model, "compute.compute_units", &cus) != CLS_SUCCESS ||
        !(cus > 0) ||
        cls_model_occupancy(f->model, c->bx * c->by, registers(p, cr, c), local_bytes(p, cr, c),
                            &occ) != CLS_SUCCESS ||
        !occ.groups_per_cu)
        return nz;
    double cols = (double)div_up(p->dims.n[0], c->bx) *
                  (double)div_up(p->dims.n[1], c->by * c->rows);
    size_t parts = (size_t)ceil(4 * cus * occ.groups_per_cu / cols), most = nz / 16 ? nz / 16 : 1;
    if (parts > most) parts = most;
    return div_up(nz, parts ? parts : 1);
}

/* Predicted device time: one launch per step (per stage) and every point moving the minimal
 * traffic plus each star field's z halo of a chunk (2*RZ planes per CLS_ZCHUNK) at the device
 * model's bandwidth; the in-plane halo is taken to come from the cache.  0 without a model. */
static double predict(const cls__s25 *p, const col_reads *cr, const col_config *c)
{
    const cls__facts *f = cls__s25_facts(p);
    if (!(f->bandwidth > 0) || !p->steps) return 0;
    double zhalo = (double)popcount(cr->star) * 2 * cr->r[2] * (double)p->elem / (double)c->chunk;
    size_t launches = cls__stencil_is_system(p->st) ? p->st->n_stages : 1;
    return (double)p->steps *
           ((double)launches * f->restart_seconds +
            (double)p->points * (f->min_bytes_per_point + zhalo) / f->bandwidth);
}

/* Generates the defines and builds the kernel (one per stage for a system); *kmax the
 * work-group limit the device reports for it (0 if unknown). */
static cls_status build(cls__s25 *p, const col_reads *cr, const col_config *c, size_t *kmax)
{
    char *defines = NULL;
    size_t dlen = 0, dcap = 0;
    cls_status s;
#define DEF(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(&defines, &dlen, &dcap, __VA_ARGS__) < 0) goto oom;                   \
    } while (0)
    DEF("#define CLS_STREAM25D 1\n#define CLS_S25_COLUMN 1\n");
    DEF("#define CLS_RX %d\n#define CLS_RY %d\n#define CLS_RZ %d\n", cr->r[0], cr->r[1], cr->r[2]);
    DEF("#define CLS_BX %zu\n#define CLS_BY %zu\n#define CLS_ITEM_Y %zu\n#define CLS_ZCHUNK %zu\n"
        "#define CLS_CORNERS %d\n#define CLS_COL_AHEAD %zu\n",
        c->bx, c->by, c->rows, c->chunk, cr->corners, c->ahead);
    if (cls__stencil_is_system(p->st))
        DEF("#define CLS_COL_READ_MASK %uu\n#define CLS_COL_STAR_MASK %uu\n#define CLS_COL_NSTAR %zu\n",
            cr->read, cr->star, popcount(cr->star));
    DEF("#define CLS_COL_OFFSETS(X)");
    for (int dy = -COL_MAX_R; dy <= COL_MAX_R; dy++)
        for (int dx = -COL_MAX_R; dx <= COL_MAX_R; dx++)
            if ((dx || dy) && cr->plane[dy + COL_MAX_R][dx + COL_MAX_R]) DEF(" X(%d, %d)", dx, dy);
    DEF("\n");
#undef DEF
    s = cls__s25_build_either(p, "stream25d_column.cl", "cls_stream25d_column",
                              "cls_stream25d_column_stage", defines, kmax);
    free(defines);
    return s;
oom:
    free(defines);
    return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "stream25d: generating defines");
}

/* Checks a configuration against the device's limits. */
static cls_status check(cls__s25 *p, const col_reads *cr, const col_config *c)
{
    const cls_device_info *d = &p->ctx->info;
    size_t lbytes = local_bytes(p, cr, c);
    cls_status s = cls__s25_check_group(p, c->bx, c->by);
    if (s != CLS_SUCCESS) return s;
    if (lbytes > d->local_mem_bytes)
        return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d.window=column: a %zux%zu tile of radius %dx%d needs %zu bytes "
                         "of local memory (two planes with their halo per star field); '%s' has "
                         "%llu",
                         c->bx, c->by * c->rows, cr->r[0], cr->r[1], lbytes, d->name,
                         (unsigned long long)d->local_mem_bytes);
    return CLS_SUCCESS;
}

/* Whether the planner takes the column variant for a request that leaves the window open: a
 * star of radius above 1 (the full window's registers grow with every offset of every plane,
 * and it loses to naive beyond radius 1: doc/results.md), on a device whose local memory is not
 * cache (CPUs keep the direct loader up to the full window's radius), one step per pass, and no
 * loader asked for. */
static int auto_column(cls__s25 *p, const cls__s25_request *opt, const col_reads *cr)
{
    const int is_cpu = cls__s25_tuning(p, "tuning.local_tiles", 1) == 0;
    if (opt->loader != CLS__LOADER_AUTO || opt->steps_per_pass > 1 || max_radius(cr) <= 1)
        return 0;
    return !is_cpu || max_radius(cr) > CLS__S25_MAX_R;
}

cls_status cls__plan_stream25d_column(cls__s25 *p, const cls__s25_request *opt, int *column)
{
    cls_context *ctx = p->ctx;
    col_reads cr;
    col_config c = {0};
    char why[400];
    size_t kmax = 0;
    cls_status s;
    *column = 0;
    if (opt->window == CLS__WINDOW_FULL) return CLS_SUCCESS;
    int ok = body_reads(p, &cr, why, sizeof why);
    if (opt->window == CLS__WINDOW_AUTO && (!ok || !auto_column(p, opt, &cr))) return CLS_SUCCESS;
    if (!ok) return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE, "stream25d.window=column: %s", why);
    if (opt->steps_per_pass > 1)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                         "stream25d.window=column runs one step per pass; got steps_per_pass %zu",
                         opt->steps_per_pass);
    if (opt->loader != CLS__LOADER_AUTO)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "stream25d.window=column loads its halo itself; stream25d.loader does "
                         "not apply to it");
    *column = 1;
    c.rows = opt->rows_per_item ? opt->rows_per_item
                                : (size_t)cls__s25_tuning(p, "tuning.stream25d_column_rows", 1);
    c.ahead = opt->prefetch ? opt->prefetch
                            : (size_t)cls__s25_tuning(p, "tuning.stream25d_column_prefetch", 1);
    /* The default group: a tile of 512 points, 32x16 for radius 3 and 4, 64x8 up to radius 2
     * (measured on the H100 with 4 rows per work-item: acoustic3d_r4 206.6 against 203.1
     * GPoints/s, the radius-2 star 295.4 against 320.9); groups of at most 256 work-items
     * (NVIDIA's compiler allows no more for this kernel), so one row per item takes half the
     * tile. */
    const size_t wide = max_radius(&cr) <= 2, tile_y = wide ? 8 : 16;
    c.bx = opt->local_size[0] ? opt->local_size[0] : wide ? 64 : 32;
    c.by = opt->local_size[1] ? opt->local_size[1]
           : c.rows >= 2      ? (c.rows < tile_y ? tile_y / c.rows : 1)
                              : tile_y / 2;
    if ((s = check(p, &cr, &c)) != CLS_SUCCESS) return s;
    c.chunk = opt->points_per_item ? opt->points_per_item : default_chunk(p, &cr, &c);
    if (c.chunk > p->dims.n[2]) c.chunk = p->dims.n[2];
    if ((s = build(p, &cr, &c, &kmax)) != CLS_SUCCESS) return s;
    if (kmax && c.bx * c.by > kmax)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d: the column kernel for this stencil allows %zu work-items per "
                         "group on '%s', the %zux%zu work-group needs %zu; use a smaller one",
                         kmax, ctx->info.name, c.bx, c.by, c.bx * c.by);
    p->window = CLS__WINDOW_COLUMN;
    p->loader = CLS__LOADER_AUTO;
    p->steps_per_pass = 1;
    p->levels = 0;
    p->per_item = c.chunk;
    p->prefetch = c.ahead;
    p->item_rows = c.rows;
    p->local[0] = c.bx;
    p->local[1] = c.by;
    p->local[2] = 1;
    p->global[0] = div_up(p->dims.n[0], c.bx) * c.bx;
    p->global[1] = div_up(p->dims.n[1], c.by * c.rows) * c.by;
    p->global[2] = div_up(p->dims.n[2], c.chunk);
    p->tile[0] = c.bx;
    p->tile[1] = c.by * c.rows;
    p->tile[2] = c.chunk;
    p->predicted_seconds = predict(p, &cr, &c);
    snprintf(p->why, sizeof p->why,
             "column window: radius %dx%dx%d, %zu star field%s in local memory, %zu bytes a group",
             cr.r[0], cr.r[1], cr.r[2], popcount(cr.star), popcount(cr.star) == 1 ? "" : "s",
             local_bytes(p, &cr, &c));
    return CLS_SUCCESS;
}

int cls__s25_column_offer(cls__s25 *p, char *why, size_t len)
{
    col_reads cr;
    char no[400];
    const double from = cls__s25_tuning(p, "tuning.stream25d_column", 0);
    if (from <= 0 || cls__s25_tuning(p, "tuning.local_tiles", 1) == 0 ||
        !body_reads(p, &cr, no, sizeof no) || max_radius(&cr) <= 1 || max_radius(&cr) < from)
        return 0;
    snprintf(why, len,
             "a star of radius %d, streamed one step per pass with a register queue per column "
             "and the centre plane in local memory (tuning.stream25d_column %g)",
             max_radius(&cr), from);
    return 1;
}
