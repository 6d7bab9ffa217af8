/* plan_single.c: the stream25d schedule's planner: window radii from the body, loader, XY tile
 * and planes per work-group from the traffic model and the device model's occupancy. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "expr.h"
#include "planner.h"
#include "traffic.h"

#define MAX_R CLS__S25_MAX_R

/* The body's reads; the classic loader loads the corners when it reads diagonal
 * neighbours. */
typedef cls__s25_reads s25_reads;

/* What takes a body beyond the full window (plan_column.c's shapes). */
#define S25_WIDER                                                                              \
    "stars up to radius 4 run one step per pass with stream25d.window=column; other bodies "   \
    "need another schedule"

int cls__s25_next_read(const cls__s25 *p, const char *text, const char **at, int *field,
                       int off[3])
{
    const int sys = cls__stencil_is_system(p->st);
    const char *pat = sys ? "CLS_FIELD_" : "IN(";
    for (const char *c = strstr(*at, pat); c; c = strstr(c + 3, pat)) {
        if (c > text && (c[-1] == '_' || isalnum((unsigned char)c[-1]))) continue;
        *field = 0;
        if (sys ? sscanf(c, "CLS_FIELD_%d(%d, %d, %d)", field, &off[0], &off[1], &off[2]) != 4
                : sscanf(c, "IN(%d, %d, %d)", &off[0], &off[1], &off[2]) != 3)
            continue;
        *at = c + 3;
        return 1;
    }
    return 0;
}

cls_status cls__s25_scan_reads(const cls__s25 *p, const char *text, size_t stage, size_t k,
                               int only, s25_reads *rd)
{
    int off[3], field;
    for (const char *at = text; cls__s25_next_read(p, text, &at, &field, off);) {
        if (only >= 0 && field != only) continue;
        for (int d = 0; d < 3; d++) {
            if (abs(off[d]) > MAX_R) {
                static const char axis[] = "xyz";
                if (!cls__stencil_is_system(p->st))
                    return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                                     "stream25d: the body reads IN at offset %d in %c; the "
                                     "window holds offsets up to %d in each dimension (" S25_WIDER
                                     ")",
                                     off[d], axis[d], MAX_R);
                const cls__stage *sg = &p->st->stages[stage];
                return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                                 "stream25d: stage %zu, update of '%s': reads '%s' at offset %d "
                                 "in %c; the window holds offsets up to %d in each dimension "
                                 "(" S25_WIDER ")",
                                 stage, p->st->fields[sg->update[k].field].name,
                                 field >= 0 && (size_t)field < p->st->n_fields
                                     ? p->st->fields[field].name
                                     : "?",
                                 off[d], axis[d], MAX_R);
            }
            if (abs(off[d]) > rd->r[d]) rd->r[d] = abs(off[d]);
        }
        rd->read[off[1] + MAX_R][off[0] + MAX_R] = 1;
        if (off[0] && off[1]) rd->corners = 1;
        if (off[0] && off[2]) rd->corners_xz = 1;
    }
    return CLS_SUCCESS;
}

/* Scans the body (every update of every stage of a system) as the generator emits it (offsets
 * folded to integer literals), so every read is found whatever the user wrote. */
cls_status cls__s25_each_update(const cls__s25 *p, cls__s25_text_fn fn, void *arg)
{
    if (!cls__stencil_is_system(p->st)) {
        char *text = cls__expr_emit_opencl(cls__s25_facts(p)->expr);
        if (!text)
            return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "stream25d: emitting the body");
        cls_status s = fn(p, 0, 0, text, arg);
        free(text);
        return s;
    }
    for (size_t g = 0; g < p->st->n_stages; g++)
        for (size_t k = 0; k < p->st->stages[g].n; k++) {
            cls_expr *e = NULL;
            cls_status s = cls__stencil_parse_update(p->st, g, k, &e);
            if (s != CLS_SUCCESS) return s;
            char *text = cls__expr_emit_opencl(e);
            cls__expr_free(e);
            if (!text)
                return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY,
                                 "stream25d: emitting an update");
            s = fn(p, g, k, text, arg);
            free(text);
            if (s != CLS_SUCCESS) return s;
        }
    return CLS_SUCCESS;
}

static cls_status scan_all(const cls__s25 *p, size_t stage, size_t k, const char *text,
                           void *rd)
{
    return cls__s25_scan_reads(p, text, stage, k, -1, rd);
}

cls_status cls__s25_body_reads(const cls__s25 *p, s25_reads *rd)
{
    memset(rd, 0, sizeof *rd);
    return cls__s25_each_update(p, scan_all, rd);
}

/* Arrays streamed side by side: every field of a system, else the one. */
static size_t streamed(const cls__s25 *p)
{
    return cls__stencil_is_system(p->st) ? p->st->n_fields : 1;
}

/* Model numbers the tile choice needs (cls_model_get reads 0 where unknown). */
typedef struct s25_device {
    const cls_model *m;
    double cus, clock_hz, bandwidth, latency, warp, segment;
} s25_device;

static void device_numbers(cls__s25 *p, s25_device *dv)
{
    double v;
    memset(dv, 0, sizeof *dv);
    dv->m = cls__s25_facts(p)->model;
    if (!dv->m) return;
    cls_model_get(dv->m, "compute.compute_units", &dv->cus);
    cls_model_get(dv->m, "compute.clock_mhz", &v);
    dv->clock_hz = v * 1e6;
    cls_model_get(dv->m, "memory.bandwidth_measured_gbs", &dv->bandwidth);
    if (!(dv->bandwidth > 0)) cls_model_get(dv->m, "memory.bandwidth_peak_gbs", &dv->bandwidth);
    dv->bandwidth *= 1e9;
    cls_model_get(dv->m, "memory.latency_cycles", &dv->latency);
    cls_model_get(dv->m, "compute.warp_width", &dv->warp);
    cls_model_get(dv->m, "memory.segment_bytes", &dv->segment);
}

/* One stream25d configuration. */
typedef struct s25_config {
    size_t bx, by;     /* work-group (local loaders); row length x rows per work-item (direct) */
    size_t rows;       /* adjacent rows each work-item updates (local loaders) */
    size_t chunk;      /* planes per work-group */
    size_t gx;         /* ghost words left and right in local memory */
    size_t prefetch;   /* planes loaded ahead */
    int unroll;        /* unroll the plane loop (GPUs) */
    int loader;
} s25_config;

/* Words loaded left and right of the tile: the halo, or whole segments (aligned, Sect. 4.3;
 * the traffic model's ghost column). */
static size_t ghost_words(const cls__s25 *p, const s25_reads *rd, int loader,
                          double segment)
{
    cls_traffic_tile tile = {1, 1, (double)rd->r[0], 0, (double)p->elem, segment, 0, 0, 0,
                             CLS_TRAFFIC_ALIGNED};
    cls_traffic t;
    if (loader != CLS__LOADER_ALIGNED || cls_traffic_tile_eval(&tile, &t) != 0)
        return (size_t)rd->r[0];
    return (size_t)t.ghost_x;
}

static size_t div_up(size_t a, size_t b) { return (a + b - 1) / b; }

/* Window offsets (dx, dy) read from each plane by a work-item's `rows` rows: the body's reads
 * shifted by 0 .. rows-1 rows.  Writes them into list (pairs) when not NULL; returns how many. */
static size_t window_offsets(const s25_reads *rd, size_t rows, int *list)
{
    size_t n = 0;
    for (int dy = -MAX_R; dy <= MAX_R + (int)rows - 1; dy++)
        for (int dx = -MAX_R; dx <= MAX_R; dx++) {
            int hit = 0;
            for (int j = 0; j < (int)rows && !hit; j++)
                hit = dy - j >= -MAX_R && dy - j <= MAX_R && rd->read[dy - j + MAX_R][dx + MAX_R];
            if (!hit) continue;
            if (list) {
                list[2 * n] = dx;
                list[2 * n + 1] = dy;
            }
            n++;
        }
    return n;
}

/* Local memory of a tile: two planes (double buffering) with their ghost zone. */
static size_t tile_local_bytes(const cls__s25 *p, const s25_reads *rd, const s25_config *c)
{
    return 2 * (c->bx + 2 * c->gx) * (c->by * c->rows + 2 * (size_t)rd->r[1]) * p->elem *
           streamed(p);
}

/* Global loads per work-item and plane (the registers of one prefetched plane). */
static double loads_per_item(const s25_reads *rd, const s25_config *c)
{
    if (c->loader != CLS__LOADER_ALIGNED) return (double)c->rows * (rd->corners ? 9 : 5);
    return ceil((double)((c->bx + 2 * c->gx) * (c->by * c->rows + 2 * (size_t)rd->r[1])) /
                (double)(c->bx * c->by));
}

/* The device model's occupancy for a configuration; registers per work-item estimated as the
 * window, the prefetched planes, their load slots and a fixed 24 for indices and the update. */
static int occupancy(const cls__s25 *p, const s25_reads *rd, const s25_device *dv,
                     const s25_config *c, cls_model_occupancy_info *occ)
{
    double words = (double)p->elem / 4, loads = loads_per_item(rd, c) * (double)streamed(p);
    double window = (double)window_offsets(rd, c->rows, NULL) * (2 * rd->r[2] + 1) *
                    (double)streamed(p);
    unsigned regs =
        (unsigned)ceil((window + loads * (double)c->prefetch) * words + 2 * loads + 24);
    return cls_model_occupancy(dv->m, c->bx * c->by, regs, tile_local_bytes(p, rd, c), occ) ==
                   CLS_SUCCESS &&
           occ->groups_per_cu > 0;
}

/* Predicted cost of a configuration, relative (lower is better), or HUGE_VAL when it cannot
 * run:
 *   traffic   bytes moved per point (model/traffic.c, Eq. 2 generalised), the z halo of
 *             `chunk`-plane columns included;
 *   hiding    Little's law: streaming at the bandwidth B needs B/CUs x latency bytes in flight
 *             per compute unit; each resident warp has `prefetch` planes in flight (Sect. 5);
 *   sync      every plane ends in a work-group barrier; a second resident group keeps the
 *             compute unit busy meanwhile (an assumption of this planner, not the document's);
 *   waste     work-items past ragged edges and the idle part of the last wave. */
static double shape_cost(const cls__s25 *p, const s25_reads *rd, const s25_device *dv,
                         const s25_config *c)
{
    const double ty = (double)(c->by * c->rows);
    cls_traffic_tile tile = {(double)c->bx, ty, (double)rd->r[0], (double)rd->r[1],
                             (double)p->elem, dv->segment > 0 ? dv->segment : 32,
                             (double)c->chunk, (double)rd->r[2], rd->corners,
                             c->loader == CLS__LOADER_ALIGNED ? CLS_TRAFFIC_ALIGNED
                                                             : CLS_TRAFFIC_CLASSIC};
    cls_traffic t;
    cls_model_occupancy_info occ;
    if (cls_traffic_tile_eval(&tile, &t) != 0 || !occupancy(p, rd, dv, c, &occ)) return HUGE_VAL;
    double need = dv->bandwidth / dv->cus / dv->clock_hz * dv->latency;
    double inflight = occ.warps_per_cu * dv->warp * loads_per_item(rd, c) * (double)p->elem *
                      (double)c->prefetch * (double)streamed(p);
    double hiding = need > 0 && inflight < need ? inflight / need : 1;
    double sync = occ.groups_per_cu >= 2 ? 1 : 0.5;
    size_t tx = div_up(p->dims.n[0], c->bx), tyn = div_up(p->dims.n[1], c->by * c->rows);
    double ragged = (double)(tx * c->bx) * (double)(tyn * c->by * c->rows) /
                    ((double)p->dims.n[0] * (double)p->dims.n[1]);
    double groups = (double)tx * (double)tyn * (double)div_up(p->dims.n[2], c->chunk);
    double slots = dv->cus * occ.groups_per_cu;
    double tail = groups / (ceil(groups / slots) * slots);
    return t.bytes_per_point * ragged / (hiding * sync * tail);
}

/* The single-pass plan's predicted device time (cls_plan_info.predicted_seconds): one launch
 * per step (the restart of Meng & Skadron 2010, Eq. 17) and every point moving the bytes the
 * traffic model counts for the tile at the device model's measured bandwidth (Mo & Li, Eq. 3 solved
 * for the time), slowed by the latency-hiding, barrier and tail factors of shape_cost; auxiliary
 * arrays are read from global memory once per point.  The direct loader leaves the planes to the
 * caches: the minimal traffic and the z halo of its chunks.  0 when the model lacks a number. */
static double predict_single(cls__s25 *p, const s25_reads *rd, s25_device *dv,
                             const s25_config *c)
{
    double restart = 0, min_bytes = cls_stencil_min_bytes_per_point(p->st), bytes;
    double aux = min_bytes - 2 * (double)p->elem;
    if (!dv->m) device_numbers(p, dv);
    if (!dv->m || !(dv->bandwidth > 0) || !(dv->clock_hz > 0) || !p->steps) return 0;
    if (c->loader == CLS__LOADER_DIRECT) {
        bytes = min_bytes + 2.0 * rd->r[2] * (double)p->elem / (double)c->chunk;
    } else {
        if (!(dv->cus > 0)) return 0;
        bytes = shape_cost(p, rd, dv, c) + (aux > 0 ? aux : 0);
    }
    if (!isfinite(bytes)) return 0;
    cls_model_get(dv->m, "sync.kernel_restart_cycles", &restart);
    if (cls__stencil_is_system(p->st)) {
        /* Every stage streams every field through its tile (the single field's read traffic:
         * its bytes less the one write), writes one array per update and reads the auxiliary
         * arrays once per point; one launch per stage. */
        const double read = bytes - (aux > 0 ? aux : 0) - (double)p->elem;
        double seconds = 0;
        for (size_t g = 0; g < p->st->n_stages; g++)
            seconds += restart / dv->clock_hz +
                       (double)p->points *
                           ((double)p->st->n_fields * read +
                            (double)(p->st->stages[g].n + p->st->n_aux) * (double)p->elem) /
                           dv->bandwidth;
        return (double)p->steps * seconds;
    }
    return (double)p->steps *
           (restart / dv->clock_hz + (double)p->points * bytes / dv->bandwidth);
}

/* Planes per group when the caller leaves it open.  A group streams its whole column, so a last
 * wave that fills only part of the device leaves compute units idle for long (on the H100 a
 * 32x6 tile, 1376 groups for 1320 resident ones, ran cube_transit at 79 % of the 32x8 tile's
 * rate; tiles streaming whole 512-plane columns ran at 205 GPoints/s, 64-plane chunks at 259):
 * columns are split into chunks of at least 16 planes until there are 4 waves of groups. */
static size_t default_chunk(const cls__s25 *p, const s25_reads *rd, const s25_device *dv,
                            const s25_config *c)
{
    cls_model_occupancy_info occ;
    size_t nz = p->dims.n[2];
    if (!dv->m || !(dv->cus > 0) || !occupancy(p, rd, dv, c, &occ)) return nz;
    double slots = dv->cus * occ.groups_per_cu;
    double cols = (double)div_up(p->dims.n[0], c->bx) *
                  (double)div_up(p->dims.n[1], c->by * c->rows);
    size_t parts = (size_t)ceil(4 * slots / cols), most = nz / 16 ? nz / 16 : 1;
    if (parts > most) parts = most;
    return div_up(nz, parts ? parts : 1);
}

/* The work-group for a GPU: the cheapest by shape_cost among groups of whole warps, rows of
 * 32..256 work-items (whole segments), 64..wgmax work-items. */
static void choose_tile(const cls__s25 *p, const s25_reads *rd, const s25_device *dv,
                        size_t user_chunk, size_t wgmax, s25_config *c)
{
    const cls_device_info *d = &p->ctx->info;
    size_t warp = dv->warp >= 1 ? (size_t)dv->warp : 32;
    double best = HUGE_VAL;
    s25_config t = *c, win = *c;
    if (wgmax > d->max_work_group_size) wgmax = d->max_work_group_size;
    if (wgmax > 1024) wgmax = 1024;
    win.bx = 32;
    win.by = 4;
    win.chunk = user_chunk ? user_chunk : p->dims.n[2];
    if (dv->m && dv->cus > 0 && dv->clock_hz > 0)
        for (t.bx = 32; t.bx <= 256; t.bx *= 2)
            for (t.by = 1; t.by <= 32; t.by++) {
                size_t items = t.bx * t.by;
                if (items < 64 || items > wgmax || items % warp ||
                    t.by * t.rows < (size_t)rd->r[1] ||
                    (d->max_work_item_sizes[0] && t.bx > d->max_work_item_sizes[0]) ||
                    (d->max_work_item_sizes[1] && t.by > d->max_work_item_sizes[1]) ||
                    tile_local_bytes(p, rd, &t) > d->local_mem_bytes)
                    continue;
                t.chunk = user_chunk ? user_chunk : default_chunk(p, rd, dv, &t);
                double cost = shape_cost(p, rd, dv, &t);
                if (cost < best * (1 - 1e-9)) {
                    best = cost;
                    win = t;
                }
            }
    cls__debug("stream25d: tile %zux%zu (%zu rows per item), %zu planes per group (cost %.3g)",
               win.bx, win.by, win.rows, win.chunk, best);
    *c = win;
}

cls_status cls__s25_check_group(cls__s25 *p, size_t bx, size_t by)
{
    const cls_device_info *d = &p->ctx->info;
    if (bx * by > d->max_work_group_size ||
        (d->max_work_item_sizes[0] && bx > d->max_work_item_sizes[0]) ||
        (d->max_work_item_sizes[1] && by > d->max_work_item_sizes[1]))
        return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d: a %zux%zu work-group needs as many work-items; '%s' allows "
                         "%zu (%zux%zu)",
                         bx, by, d->name, d->max_work_group_size, d->max_work_item_sizes[0],
                         d->max_work_item_sizes[1]);
    return CLS_SUCCESS;
}

/* Checks a local-memory configuration against the device's limits. */
static cls_status check_tile(cls__s25 *p, const s25_reads *rd, const s25_config *c)
{
    const cls_device_info *d = &p->ctx->info;
    size_t lbytes = tile_local_bytes(p, rd, c);
    if (c->loader == CLS__LOADER_CLASSIC &&
        (c->bx < (size_t)rd->r[0] || c->by * c->rows < (size_t)rd->r[1]))
        return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d: the classic loader needs a tile at least as large as the "
                         "halo (%dx%d); got %zux%zu",
                         rd->r[0], rd->r[1], c->bx, c->by * c->rows);
    cls_status s = cls__s25_check_group(p, c->bx, c->by);
    if (s != CLS_SUCCESS) return s;
    if (lbytes > d->local_mem_bytes)
        return cls__fail(p->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d: a %zux%zu tile needs %zu bytes of local memory (two planes "
                         "with their ghost zone); '%s' has %llu",
                         c->bx, c->by * c->rows, lbytes, d->name,
                         (unsigned long long)d->local_mem_bytes);
    return CLS_SUCCESS;
}

cls_status cls__s25_build_stages(cls__s25 *p, const char *tmpl, const char *name,
                                 const char *defines, size_t *kmax)
{
    const cls__facts *f = cls__s25_facts(p);
    for (size_t g = 0; g < p->n_stages; g++)
        if (p->stage_kernel[g]) {
            clReleaseKernel(p->stage_kernel[g]);
            p->stage_kernel[g] = NULL;
        }
    p->n_stages = p->st->n_stages;
    p->from_cache = 1;
    p->build_seconds = 0;
    for (size_t g = 0; g < p->n_stages; g++) {
        cls__built b = {0};
        cls_status s = cls__build_stage_kernel(f, g, tmpl, defines, name,
                                               f->max_registers, &b);
        p->stage_kernel[g] = b.kernel;
        if (s != CLS_SUCCESS) return s;
        if (g == 0) {
            p->program = b.program;
            p->max_regs = b.max_regs;
            p->regs_ignored = b.regs_ignored;
        }
        p->from_cache = p->from_cache && b.from_cache;
        p->build_seconds += b.build_seconds;
        size_t k = cls__kernel_wg_limit(p->ctx, b.kernel);
        if (k && (!*kmax || k < *kmax)) *kmax = k;
    }
    return CLS_SUCCESS;
}

cls_status cls__s25_build_either(cls__s25 *p, const char *tmpl, const char *kernel,
                                 const char *stage_kernel, const char *defines, size_t *kmax)
{
    if (p->kernel) {
        clReleaseKernel(p->kernel);
        p->kernel = NULL;
    }
    *kmax = 0;
    if (cls__stencil_is_system(p->st))
        return cls__s25_build_stages(p, tmpl, stage_kernel, defines, kmax);
    cls_status s = cls__s25_build_kernel(p, tmpl, defines, kernel);
    if (s == CLS_SUCCESS) *kmax = cls__kernel_wg_limit(p->ctx, p->kernel);
    return s;
}

/* Generates the configuration's defines and builds its kernel; *kmax receives the work-group
 * limit the device reports for it (0 if unknown). */
static cls_status build(cls__s25 *p, const s25_reads *rd, const s25_config *c, size_t *kmax)
{
    char *defines = NULL;
    size_t dlen = 0, dcap = 0;
    int offs[2 * (2 * MAX_R + 1) * (2 * MAX_R + 8)];
    size_t n_offs = window_offsets(rd, c->loader == CLS__LOADER_DIRECT ? 1 : c->rows, offs);
    cls_status s;
#define DEF(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(&defines, &dlen, &dcap, __VA_ARGS__) < 0) goto oom;                   \
    } while (0)
    DEF("#define CLS_STREAM25D 1\n#define CLS_LOADER %d\n", (int)c->loader);
    DEF("#define CLS_RX %d\n#define CLS_RY %d\n#define CLS_RZ %d\n", rd->r[0], rd->r[1], rd->r[2]);
    DEF("#define CLS_ZCHUNK %zu\n", c->chunk);
    if (c->loader == CLS__LOADER_DIRECT)
        DEF("#define CLS_ROW_LEN %zu\n#define CLS_ROWS %zu\n", c->bx, c->by);
    else
        DEF("#define CLS_BX %zu\n#define CLS_BY %zu\n#define CLS_ITEM_Y %zu\n#define CLS_GX %zu\n"
            "#define CLS_CORNERS %d\n#define CLS_PREFETCH %zu\n#define CLS_UNROLL_Z %d\n",
            c->bx, c->by, c->rows, c->gx, rd->corners, c->prefetch, c->unroll);
    DEF("#define CLS_OFFSETS(X)");
    for (size_t i = 0; i < n_offs; i++) DEF(" X(%d, %d)", offs[2 * i], offs[2 * i + 1]);
    DEF("\n");
#undef DEF
    const int direct = c->loader == CLS__LOADER_DIRECT;
    s = cls__s25_build_either(p, "stream25d.cl", direct ? "cls_stream25d_rows" : "cls_stream25d",
                              direct ? "cls_stream25d_stage_rows" : "cls_stream25d_stage",
                              defines, kmax);
    free(defines);
    return s;
oom:
    free(defines);
    return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "stream25d: generating defines");
}

cls_status cls__plan_stream25d(cls__s25 *p, const cls__s25_request *opt)
{
    cls_context *ctx = p->ctx;
    const cls_device_info *d = &ctx->info;
    s25_reads rd;
    s25_device dv = {0};
    s25_config c = {0};
    cls_status s;
    size_t kmax = 0;
    /* Devices whose local memory is only more cache (CPUs) keep no copies in it. */
    const int is_cpu = cls__s25_tuning(p, "tuning.local_tiles", 1) == 0;
    const int user_tile = opt->local_size[0] || opt->local_size[1];

    if (p->st->dims != 3)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                         "stream25d streams 3D grids along z and 2D grids along y; stencil "
                         "'%s' is %dD (use another schedule)",
                         p->st->name, p->st->dims);
    if ((unsigned)opt->loader > CLS__LOADER_DIRECT)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "unknown loader %d", (int)opt->loader);
    if (opt->local_size[2] > 1)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "stream25d: the work-group is an XY tile (LXxLY); got %zu in z",
                         opt->local_size[2]);
    if (opt->prefetch > 4 || opt->rows_per_item > 8)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "stream25d: prefetch takes 1..4 planes, rows per item 1..8; got %zu and "
                         "%zu",
                         opt->prefetch, opt->rows_per_item);
    /* The column window for stars beyond radius 1 (plan_column.c) */
    int column = 0;
    p->window = CLS__WINDOW_FULL;
    if ((s = cls__plan_stream25d_column(p, opt, &column)) != CLS_SUCCESS || column) return s;
    if ((s = cls__s25_body_reads(p, &rd)) != CLS_SUCCESS) return s;
    /* Several steps per pass (plan_fused.c), asked for or chosen by the model; for a system
     * only the shapes fused_system.c accepts (the window holds the updated field). */
    p->levels = 0;
    if (opt->steps_per_pass != 1) {
        cls__s25_reads urd = rd;
        int fused = 0, run = 1;
        if (cls__stencil_is_system(p->st)) {
            char why[300];
            run = cls__s25_fused_system(p, &urd, &p->levels, p->fields, why, sizeof why);
            if (!run && opt->steps_per_pass > 1)
                return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                                 "stream25d: fused steps (steps_per_pass %zu) for '%s': %s; "
                                 "one step per pass runs it",
                                 opt->steps_per_pass, p->st->name, why);
        }
        if (run &&
            ((s = cls__plan_stream25d_tb(p, opt, &urd, &fused)) != CLS_SUCCESS || fused))
            return s;
        p->levels = 0;
    }
    p->steps_per_pass = 1;

    /* Loader: CPUs keep no copies in local memory (it is only more cache); GPUs the aligned
     * mapping of Sect. 4.3.  On GPUs a work-item loads two planes ahead (more bytes in flight
     * than Sect. 5's one), updates adjacent rows from one window (fewer local-memory reads,
     * loop and barrier instructions per point) and the plane loop is unrolled so that the
     * window rotates in registers instead of moving.  Rows per work-item, from the H100
     * (doc/stream25d.md): 2 for stencils that read a cross in the plane (heat3d7 512^3 float
     * 254 -> 282 GPoints/s from 1 row), 4 for those that read the whole 3x3 box in single
     * precision (heat3d27 201 -> 266; 2 rows: 192), 2 for them in double precision, whose
     * window takes twice the registers.  The classic loader keeps Listing 2's one row: its
     * conditional load slots multiply with the rows (heat3d27 with 2 rows: 72 GPoints/s). */
    c.loader = opt->loader != CLS__LOADER_AUTO ? opt->loader
               : is_cpu                       ? CLS__LOADER_DIRECT
                                              : CLS__LOADER_ALIGNED;
    c.prefetch = opt->prefetch ? opt->prefetch
                               : (size_t)cls__s25_tuning(p, "tuning.stream25d_prefetch", 2);
    c.rows = opt->rows_per_item              ? opt->rows_per_item
             : c.loader != CLS__LOADER_ALIGNED ? 1
             : rd.corners && p->elem == 4
                 ? (size_t)cls__s25_tuning(p, "tuning.stream25d_rows_box_fp32", 4)
                 : (size_t)cls__s25_tuning(p, "tuning.stream25d_rows", 2);
    c.unroll = cls__s25_tuning(p, "tuning.unroll", 1) != 0;
    c.chunk = opt->points_per_item;
    if (c.loader == CLS__LOADER_DIRECT) {
        /* A work-item streams c.by rows of c.bx points (the XY tile) through c.chunk planes;
         * enough work-items for every compute unit four times over. */
        c.rows = 1;
        c.bx = user_tile && opt->local_size[0] ? opt->local_size[0]
               : p->dims.n[0] < 16384          ? p->dims.n[0]
                                               : 16384;
        c.by = user_tile && opt->local_size[1] ? opt->local_size[1] : 8;
        if (c.by > p->dims.n[1]) c.by = p->dims.n[1];
        if (c.bx > p->dims.n[0]) c.bx = p->dims.n[0];
        if (!c.chunk) {
            size_t xy = div_up(p->dims.n[0], c.bx) * div_up(p->dims.n[1], c.by);
            size_t want = 4 * (d->compute_units ? d->compute_units : 1);
            c.chunk = div_up(p->dims.n[2], xy >= want ? 1 : div_up(want, xy));
        }
    } else {
        if (!is_cpu) device_numbers(p, &dv);
        c.gx = ghost_words(p, &rd, c.loader, dv.segment > 0 ? dv.segment : 32);
        if (user_tile) {
            c.bx = opt->local_size[0] ? opt->local_size[0] : 1;
            c.by = opt->local_size[1] ? opt->local_size[1] : 1;
            if (!c.chunk) c.chunk = default_chunk(p, &rd, &dv, &c);
        } else if (is_cpu) {
            c.bx = 32;
            c.by = 4;
            if (!c.chunk) c.chunk = p->dims.n[2];
        } else {
            choose_tile(p, &rd, &dv, opt->points_per_item, d->max_work_group_size, &c);
        }
        if ((s = check_tile(p, &rd, &c)) != CLS_SUCCESS) goto fail;
    }
    if (c.chunk > p->dims.n[2]) c.chunk = p->dims.n[2];
    if ((s = build(p, &rd, &c, &kmax)) != CLS_SUCCESS) goto fail;
    if (c.loader != CLS__LOADER_DIRECT && kmax && c.bx * c.by > kmax) {
        /* The compiled kernel allows fewer work-items per group than the device (NVIDIA's
         * OpenCL reports 256 for these kernels on the H100): choose again below it. */
        if (user_tile || is_cpu)
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: the kernel for this stencil allows %zu work-items per "
                           "group on '%s', the %zux%zu work-group needs %zu; use a smaller one",
                           kmax, d->name, c.bx, c.by, c.bx * c.by);
        choose_tile(p, &rd, &dv, opt->points_per_item, kmax, &c);
        if (c.chunk > p->dims.n[2]) c.chunk = p->dims.n[2];
        if ((s = build(p, &rd, &c, &kmax)) != CLS_SUCCESS) goto fail;
        if (kmax && c.bx * c.by > kmax)
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: no work-group fits the %zu work-items the kernel allows "
                           "on '%s'",
                           kmax, d->name);
    }

    p->loader = c.loader;
    p->per_item = c.chunk;
    p->prefetch = c.loader == CLS__LOADER_DIRECT ? 0 : c.prefetch;
    p->item_rows = c.loader == CLS__LOADER_DIRECT ? 0 : c.rows;
    p->local[2] = 1;
    if (c.loader == CLS__LOADER_DIRECT) {
        p->local[0] = p->local[1] = 1;
        p->global[0] = div_up(p->dims.n[0], c.bx);
        p->global[1] = div_up(p->dims.n[1], c.by);
    } else {
        p->local[0] = c.bx;
        p->local[1] = c.by;
        p->global[0] = div_up(p->dims.n[0], c.bx) * c.bx;
        p->global[1] = div_up(p->dims.n[1], c.by * c.rows) * c.by;
    }
    p->global[2] = div_up(p->dims.n[2], c.chunk);
    p->tile[0] = c.bx;
    p->tile[1] = c.loader == CLS__LOADER_DIRECT ? c.by : c.by * c.rows;
    p->tile[2] = c.chunk;
    p->predicted_seconds = predict_single(p, &rd, &dv, &c);
    s = CLS_SUCCESS;
fail:
    return s;
}

/* CLS_SCHEDULE_AUTO on GPUs (plan.c): CLS__S25_NAIVE, _SINGLE (one step per pass) or _FUSED
 * (steps per pass from the ghost-zone model), by the rule of rule.c, whose thresholds are the
 * device model's (doc/stream25d.md, "AUTO's rule", gives the H100 measurements behind them).
 * Never on CPUs, where neither wins (doc/stream25d.md, PoCL). */
int cls__stream25d_auto(cls__s25 *p, const cls__s25_request *opt)
{
    s25_reads rd;
    cls__s25_features f = {0};
    const cls__facts *fa = cls__s25_facts(p);
    if (cls__s25_tuning(p, "tuning.local_tiles", 1) == 0) {
        snprintf(p->rule, sizeof p->rule,
                 "the device model's local memory is cache (tuning.local_tiles 0): streaming "
                 "planes through it does not pay");
        return CLS__S25_NONE;
    }
    if (p->st->dims != 3) {
        snprintf(p->rule, sizeof p->rule, "it streams 3D grids along z and 2D grids along y, not 1D grids");
        return CLS__S25_NONE;
    }
    if (opt->loader == CLS__LOADER_DIRECT) {
        snprintf(p->rule, sizeof p->rule, "the direct loader is only chosen when asked for");
        return CLS__S25_NONE;
    }
    if (cls__s25_body_reads(p, &rd) != CLS_SUCCESS) {
        snprintf(p->rule, sizeof p->rule, "%s", cls_last_error());
        return CLS__S25_NONE;
    }
    f.radius1 = rd.r[0] <= 1 && rd.r[1] <= 1 && rd.r[2] <= 1;
    f.corners = rd.corners;
    f.n_aux = p->st->n_aux;
    f.mirror = p->st->boundary == CLS_BOUNDARY_MIRROR;
    f.plain = cls__expr_plain_arith(fa->expr);
    f.cheap = cls__expr_cheap_ops(fa->expr);
    f.fused_gain = cls__s25_tuning(p, "tuning.stream25d_fused_gain", 1.2);
    f.box_single = cls__s25_tuning(p, "tuning.stream25d_box_single", 1) != 0;
    f.fused_mirror = cls__s25_tuning(p, "tuning.stream25d_fused_mirror", 0) != 0;
    if (p->lifted) {
        /* A 2D body streamed along y: the ghost-zone model decides (rule.c); its diagonals
         * are x-z ones once lifted. */
        f.corners = rd.corners_xz;
        size_t columns = 0;
        if (f.radius1) f.gain = cls__stream25d_tb_gain(p, &rd, &f.k, NULL, &columns);
        /* Groups of the grid cut into chunks of 16 times a chunk's pipeline fill (3k - 1
         * iterations), against two per compute unit (doc/stream25d.md, "2D grids"). */
        size_t fill = 16 * (3 * (f.k > 1 ? f.k : 1) - 1);
        f.long_groups = columns * (p->dims.n[2] / fill);
        f.resident_groups = 2 * (p->ctx->info.compute_units ? p->ctx->info.compute_units : 1);
        return cls__s25_auto_rule_2d(&f, p->rule, sizeof p->rule);
    }
    /* The model only where its answer matters: a plain radius-1 star without aux arrays. */
    if (f.radius1 && !f.n_aux && f.plain && !f.corners)
        f.gain = cls__stream25d_tb_gain(p, &rd, &f.k, NULL, NULL);
    return cls__s25_auto_rule(&f, p->rule, sizeof p->rule);
}
