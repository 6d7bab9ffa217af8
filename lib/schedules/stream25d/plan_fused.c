/* plan_fused.c: temporal blocking on top of the stream25d schedule (cl/stream25d_tb.cl):
 * several steps per pass over z, the ghost zone of Meng & Skadron 2010 applied to the
 * streamed XY tile.  The steps per pass k and the tile come from the ghost-zone cost model (CPL,
 * cycles per step, Eq. 1) evaluated for the streamed tile: the XY tile is the model's 2D block,
 * a column of NZ points its element, and the bytes it moves are the streaming traffic (the
 * loader's whole segments and the z halo of each chunk). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "ghost_zone.h"
#include "planner.h"

#define TB_MAX_K 16  /* steps per pass accepted */
#define TB_AUTO_K 8  /* steps per pass the model considers */
/* A larger k must beat the best smaller one by 5 % in the model: the model leaves out costs
 * that grow with k (registers, the stages' fix-ups and stores), and on the H100 its near-ties
 * went to the smaller k (heat3d7 512^3: k = 3 465.6 GPoints/s, k = 4 420.7; doc/stream25d.md). */
#define TB_MORE_K 0.95

/* One fused configuration. */
typedef struct tb_config {
    size_t bx, by, rows, k;  /* work-group, rows per work-item, steps per pass */
    int ry;                  /* the body reads along y: the tile has a y halo of k */
    size_t out_x, out_y;     /* the output tile */
    size_t gx, lw0;          /* input words loaded left of the output tile, per row */
    size_t chunk, prefetch;
    int loader;
} tb_config;

static size_t div_up(size_t a, size_t b) { return (a + b - 1) / b; }

/* Fields with windows and local planes of their own: a system's one stage's updates, else 1. */
static size_t windows(const cls__s25 *p)
{
    return cls__stencil_is_system(p->st) && p->st->n_stages ? p->st->stages[0].n : 1;
}

/* The in-plane offsets one row's window holds: the body's and the centre (the value a step
 * past a short pass's last copies, and a system's next time level), closed under the boundary
 * rule's images (clamp: the edge, offset 0; mirror: the reflection), so that the kernel's
 * boundary fix-up always finds the image in the window.  base[dy+1][dx+1]. */
static void base_offsets(const cls__s25 *p, const cls__s25_reads *rd, unsigned char base[3][3])
{
    const int M = CLS__S25_MAX_R;
    cls_boundary b = p->st->boundary;
    memset(base, 0, 9);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) base[dy + 1][dx + 1] = rd->read[dy + M][dx + M];
    base[1][1] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!base[dy + 1][dx + 1]) continue;
                int img[2][2] = {{b == CLS_BOUNDARY_MIRROR ? -dx : 0, dy},
                                 {dx, b == CLS_BOUNDARY_MIRROR ? -dy : 0}};
                if (b != CLS_BOUNDARY_CLAMP && b != CLS_BOUNDARY_MIRROR) continue;
                for (int i = 0; i < 2; i++)
                    if (!base[img[i][1] + 1][img[i][0] + 1]) {
                        base[img[i][1] + 1][img[i][0] + 1] = 1;
                        changed = 1;
                    }
            }
    }
}

/* Offsets (dx, dy) of the shared window of `rows` rows, into list (pairs) when not NULL. */
static size_t window_list(const unsigned char base[3][3], size_t rows, int *list)
{
    size_t n = 0;
    for (int dy = -1; dy <= (int)rows; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int hit = 0;
            for (int j = 0; j < (int)rows && !hit; j++)
                hit = dy - j >= -1 && dy - j <= 1 && base[dy - j + 1][dx + 1];
            if (!hit) continue;
            if (list) {
                list[2 * n] = dx;
                list[2 * n + 1] = dy;
            }
            n++;
        }
    return n;
}

/* Output tile and input row of a configuration: the aligned loader loads whole segments (sw
 * words) and keeps the output tile a multiple of them, so that every group's loads and stores
 * start on a segment; the classic one loads exactly the work-group's columns.  The tile shrinks
 * by k per side in y only when the body reads along y (a lifted 2D grid's tile is one row).  0
 * when the tile has no output left. */
static int geometry(tb_config *c, size_t sw)
{
    size_t ty = c->by * c->rows, hy = c->ry ? c->k : 0;
    if (c->bx <= 2 * c->k || ty <= 2 * hy) return 0;
    c->out_y = ty - 2 * hy;
    if (c->loader == CLS__LOADER_ALIGNED) {
        size_t w = (c->bx - 2 * c->k) / sw * sw;
        c->out_x = w ? w : c->bx - 2 * c->k;
        c->gx = div_up(c->k, sw) * sw;
        c->lw0 = div_up(c->gx - c->k + c->bx, sw) * sw;
    } else {
        c->out_x = c->bx - 2 * c->k;
        c->gx = c->k;
        c->lw0 = c->bx;
    }
    return 1;
}

/* Whether the tiles are single rows: a grid one point high (a lifted 2D grid) whose body reads
 * no y offset. */
static int flat(const cls__s25 *p, const tb_config *c) { return !c->ry && p->dims.n[1] == 1; }

/* Local memory: per field with a window, the input plane and k-1 stage planes,
 * double-buffered, with a margin of one (rows: when the body reads along y). */
static size_t local_bytes(const cls__s25 *p, const tb_config *c)
{
    size_t stages = c->k > 1 ? c->k - 1 : 1;
    return (2 * (c->lw0 + 2) + 2 * stages * (c->bx + 2)) * (c->by * c->rows + 2 * (c->ry != 0)) *
           p->elem * windows(p);
}

/* The model's inputs that do not depend on the configuration. */
typedef struct tb_model {
    const cls_model *m;
    cls_gz_device d;
    double flops;       /* per point and step */
    double base_n;      /* in-plane window offsets of one row */
    unsigned char base[3][3];
    double sw;          /* segment words */
    int corners;        /* the body reads in-plane diagonals (across z: the whole plane) */
    int ok;
} tb_model;

static void model_setup(cls__s25 *p, const cls__s25_reads *rd, const unsigned char base[3][3],
                        tb_model *tm)
{
    char why[256];
    double seg = 0;
    size_t flops = 0;
    memset(tm, 0, sizeof *tm);
    snprintf(why, sizeof why, "no device model");
    tm->m = cls__s25_facts(p)->model;
    if (tm->m) cls_model_get(tm->m, "memory.segment_bytes", &seg);
    tm->sw = (seg > 0 ? seg : 32) / (double)p->elem;
    if (tm->sw < 1) tm->sw = 1;
    for (int i = 0; i < 9; i++) tm->base_n += base[i / 3][i % 3];
    memcpy(tm->base, base, sizeof tm->base);
    tm->corners = rd->corners;
    cls_stencil_flops(p->st, &flops);
    tm->flops = (double)flops;
    tm->ok = tm->m && cls_gz_device_from_model(tm->m, CLS_GZ_BW_MEASURED, &tm->d) == CLS_SUCCESS;
    if (!tm->ok)
        cls__debug("stream25d: no ghost-zone model for steps per pass (%s)",
                   tm->m ? cls_last_error() : why);
}

/* Registers per work-item of the fused kernel as NVIDIA's compiler allocates them (ptxas on the
 * H100, doc/results.md, "Resident warps and the fused 3D tiles"): per stage and field two
 * planes of the window's in-plane offsets and, per row, the values read across z (the column,
 * or with in-plane diagonals the whole plane); 32 per time level on grids with boundary
 * fix-ups (the z fix-up by selects keeps both values: wave3d took 151-161 on its clamp grid,
 * 121 on its periodic one); 16 for addresses and indices.  Within 7 % of ptxas for heat3d7 and
 * wave3d at 2 and 4 rows and k = 2 to 4. */
static unsigned config_registers(const cls__s25 *p, const tb_model *tm, const tb_config *c)
{
    double words = (double)p->elem / 4, rows = (double)c->rows, k = (double)c->k;
    double win = (double)window_list(tm->base, c->rows, NULL);
    double across = tm->corners ? tm->base_n : 1, F = (double)windows(p);
    double levels = p->st->boundary == CLS_BOUNDARY_PERIODIC ? 0 : (double)p->levels;
    return (unsigned)ceil((k * F * (2 * win + 2 * across * rows) + 32 * levels) * words + 16);
}

/* The device model's occupancy of a configuration with config_registers' estimate; 0 when it
 * cannot run (beyond 255 registers the window would spill). */
static int fitted_occupancy(const cls__s25 *p, const tb_model *tm, const tb_config *c,
                            cls_model_occupancy_info *occ)
{
    unsigned regs = config_registers(p, tm, c);
    return regs <= 255 &&
           cls_model_occupancy(tm->m, c->bx * c->by, regs, local_bytes(p, c), occ) ==
               CLS_SUCCESS &&
           occ->groups_per_cu > 0;
}

/* The ghost-zone model's inputs for a configuration; 0 when it cannot run.  The 2D
 * ghost-zone model of the XY tile: blocks of (out_x + 2k) x (by x rows) columns, h = k, an
 * element one column of NZ points; loads cost the segments the loader really moves and the
 * chunk's z halo (alpha, Sect. 4.2, replaced by that ratio); instructions per point and step
 * (IterComp) the body's flops, the window's local reads and moves and a fixed 4, per point and
 * pass (MiscComp) two per load and 8; BlksPerSM the occupancy of the device model. */
static int config_inputs(const cls__s25 *p, const tb_model *tm, const tb_config *c,
                         cls_gz_device *dp, cls_gz_profile *prp, cls_gz_config *gp)
{
    if (!tm->ok) return 0;
    cls_gz_device d = tm->d;
    cls_model_occupancy_info occ;
    double words = (double)p->elem / 4, rows = (double)c->rows;
    double win = 3 * (double)window_list(tm->base, c->rows, NULL); /* 3 planes of offsets */
    double nload = ceil((double)(c->lw0 * c->by * c->rows) / (double)(c->bx * c->by));
    /* A system's time levels: per stage and row the tuple passed on and the last iteration's
     * values, and stage 1's values loaded (cl/stream25d_tb.cl); its F updated fields: a window
     * per stage and prefetched words each.  An upper bound (ptxas took 20-30 % fewer on the
     * H100), kept for the ghost-zone model's choice of k and the AUTO rule's gains, whose
     * thresholds were measured with it; config_registers is the close estimate. */
    double levels = (double)p->levels, F = (double)windows(p);
    unsigned regs = (unsigned)ceil(((double)c->k * win * F + nload * (double)c->prefetch * F +
                                    (2 * (double)c->k + 1) * levels * rows) *
                                       words +
                                   2 * nload + 24);
    /* Beyond 255 registers per work-item (NVIDIA's limit) the window would spill. */
    if (regs > 255 ||
        cls_model_occupancy(tm->m, c->bx * c->by, regs, local_bytes(p, c), &occ) !=
            CLS_SUCCESS ||
        occ.groups_per_cu == 0)
        return 0;
    double nx = (double)p->dims.n[0], ny = (double)p->dims.n[1], nz = (double)p->dims.n[2];
    double computed_x = (double)(c->out_x + 2 * c->k);
    d.sigma = 1;
    d.waves = 1;
    d.BlksPerSM = occ.groups_per_cu;
    /* Words moved per row: the aligned loader's whole segments; the classic loader's bx words
     * start anywhere in a segment, so they touch (bx - 1) / sw + 1 segments on average. */
    double moved = c->loader == CLS__LOADER_ALIGNED ? (double)c->lw0 : (double)c->bx - 1 + tm->sw;
    d.MemBandwidth /= moved / computed_x * (1 + 2.0 * (double)c->k / (double)c->chunk);
    size_t per_step = 0;
    for (size_t i = 0; i < p->st->n_aux; i++) per_step += p->st->aux[i].per_step != 0;
    cls_gz_profile pr = {0};
    pr.name = p->st->name;
    pr.D = 2;
    pr.HaloWidth[0] = 2;
    pr.HaloWidth[1] = c->ry ? 2 : 0; /* no ghost zone in y without reads along y */
    /* A system's updated fields and time levels are loaded once per pass over the block (Eq. 8)
     * and stored (Eq. 9, NumFields). */
    pr.NumStencilArrays = F + levels + (double)(p->st->n_aux - per_step);
    pr.NumFields = F + levels;
    pr.NumElemPerOp = (double)per_step;
    pr.N = nx * ny;
    pr.x = (double)p->elem * nz;
    double per_warp = nz * pr.N / (d.WarpSize * d.M);
    /* Every work-item computes: the aligned loader's tile is bx wide, its columns beyond the
     * k-point halo of the segment-wide output are computed for nothing. */
    pr.InstsPerSM_IC = (tm->flops + 3 * tm->base_n * F + 4 + 3 * levels) * per_warp *
                       (double)c->bx / computed_x;
    pr.InstsPerSM_MC = (2 * nload * F / rows + 8 + 2 * levels) * per_warp;
    cls_gz_config g = {0};
    g.DataLength[0] = nx;
    g.DataLength[1] = ny;
    g.DataLength[2] = 1;
    g.blk_len[0] = (int)computed_x;
    g.blk_len[1] = (int)(c->by * c->rows);
    g.blk_len[2] = 1;
    g.h = (double)c->k;
    g.sync = CLS_GZ_KNL_RESTART;
    if (cls_gz_check(&d, &pr, &g) != CLS_SUCCESS) return 0;
    *dp = d;
    *prp = pr;
    *gp = g;
    return 1;
}

/* Cycles per step (CPL, Meng & Skadron 2010, Eq. 1) of a configuration, HUGE_VAL when it cannot
 * run. */
static double config_cpl(const cls__s25 *p, const tb_model *tm, const tb_config *c)
{
    cls_gz_device d;
    cls_gz_profile pr;
    cls_gz_config g;
    return config_inputs(p, tm, c, &d, &pr, &g) ? cls_gz_CPL(&d, &pr, &g) : HUGE_VAL;
}

/* The cost by which tiles of one k are ranked where the device model gives
 * tuning.stream25d_latency_rows (S): the ghost-zone model's cycles per step without whole
 * waves (the columns are split into chunks for many groups per compute unit), times S over the
 * rows in flight (resident warps x rows per work-item) where fewer are resident.  Not in Meng
 * & Skadron 2010, whose CPI and bandwidth are rates of a fully occupied device: on the H100,
 * the fused kernels' 3D tiles at k = 3 and 4 rows ran in the order of their resident warps, 7
 * to 16 per SM (doc/results.md, "Resident warps and the fused 3D tiles"), while across k the
 * ghost-zone model's own choice held up better than any such factor.  HUGE_VAL when the
 * configuration cannot run. */
static double config_occupancy_cost(const cls__s25 *p, const tb_model *tm, const tb_config *c,
                                    double S)
{
    cls_gz_device d;
    cls_gz_profile pr;
    cls_gz_config g;
    cls_model_occupancy_info occ;
    if (!config_inputs(p, tm, c, &d, &pr, &g) || !fitted_occupancy(p, tm, c, &occ))
        return HUGE_VAL;
    d.waves = 0;
    double in_flight = (double)occ.warps_per_cu * (double)c->rows;
    double f = in_flight > 0 && in_flight < S ? S / in_flight : 1;
    return cls_gz_CPL(&d, &pr, &g) * f;
}

/* The fused plan's predicted device time (cls_plan_info.predicted_seconds): the same model's
 * cycles of the whole run, floor(steps / k) passes of k steps and a shorter last one, each
 * paying the kernel restart (Meng & Skadron 2010, Eqs. 1-2 through cls_gz_run_cycles), over the
 * clock; 0 when the model has no answer. */
static double config_seconds(const cls__s25 *p, const tb_model *tm, const tb_config *c)
{
    cls_gz_device d;
    cls_gz_profile pr;
    cls_gz_config g;
    if (!p->steps || !config_inputs(p, tm, c, &d, &pr, &g) || !(d.ClockRate > 0)) return 0;
    double cyc = cls_gz_run_cycles(&d, &pr, &g, (long)p->steps);
    return isfinite(cyc) ? cyc / d.ClockRate : 0;
}

/* Planes per group: columns split until the groups fill the device about 16 times over (two
 * resident groups per compute unit, eight waves), chunks of at least 32 planes and 4k.  Shorter
 * columns even out the groups' finishing times; on the H100 heat3d7 (k = 3, 512^3) ran 485
 * GPoints/s at 96 planes, 450 at 128 and 171, 319 at 512 (doc/stream25d.md). */
static size_t default_chunk(const cls__s25 *p, const tb_config *c)
{
    size_t nz = p->dims.n[2], cus = p->ctx->info.compute_units ? p->ctx->info.compute_units : 1;
    size_t cols = div_up(p->dims.n[0], c->out_x) * div_up(p->dims.n[1], c->out_y);
    size_t parts = div_up(16 * cus, cols), least = 4 * c->k > 32 ? 4 * c->k : 32;
    if (parts > nz / least) parts = nz / least;
    return div_up(nz, parts ? parts : 1);
}

/* The i-th loader to try (i = 0, 1): the one asked for, else on GPUs classic then aligned, on
 * CPUs classic only (a segment is no transaction there, doc/stream25d.md).  0 when there is
 * no i-th. */
static int loader_candidate(const cls__s25 *p, const cls__s25_request *opt, int i,
                            int *loader)
{
    if (opt->loader != CLS__LOADER_AUTO) {
        *loader = opt->loader;
        return i == 0;
    }
    if (cls__s25_tuning(p, "tuning.local_tiles", 1) == 0) {
        *loader = CLS__LOADER_CLASSIC;
        return i == 0;
    }
    *loader = i ? CLS__LOADER_ALIGNED : CLS__LOADER_CLASSIC;
    return i < 2;
}

/* The best tile (and k when kfix is 0) by the model among work-groups of whole warps, 32..128
 * wide, 64..wgmax work-items, 1, 2 or 4 rows per work-item (or the user's); for single-row tiles
 * (flat) 128..1024 wide, one row.  Ranked by the ghost-zone model's cycles per step, or with
 * S > 0 (k fixed) by config_occupancy_cost. */
static double search(const cls__s25 *p, const tb_model *tm, const cls__s25_request *opt,
                     size_t kfix, size_t kcap, size_t wgmax, double S, tb_config *best)
{
    const cls_device_info *d = &p->ctx->info;
    double bc = HUGE_VAL;
    tb_config t = *best;
    static const size_t rows_list[] = {1, 2, 4};
    for (int li = 0; loader_candidate(p, opt, li, &t.loader); li++) {
        for (size_t k = kfix ? kfix : 1; k <= (kfix ? kfix : kcap); k++)
            for (t.bx = flat(p, &t) ? 128 : 32; t.bx <= (flat(p, &t) ? 1024u : 128u); t.bx *= 2)
                for (t.by = 1; t.by <= (flat(p, &t) ? 1u : 32u); t.by++)
                    for (size_t ri = 0; ri < 3; ri++) {
                        t.rows = opt->rows_per_item ? opt->rows_per_item : rows_list[ri];
                        if ((opt->rows_per_item || flat(p, &t)) && ri) break;
                        t.k = k;
                        size_t items = t.bx * t.by;
                        if (items < 64 || items > wgmax || items % 32 ||
                            (d->max_work_item_sizes[1] && t.by > d->max_work_item_sizes[1]) ||
                            !geometry(&t, (size_t)tm->sw) || (t.out_y < 2 && !flat(p, &t)) ||
                            local_bytes(p, &t) > d->local_mem_bytes)
                            continue;
                        t.chunk = opt->points_per_item ? opt->points_per_item
                                                       : default_chunk(p, &t);
                        double cost = S > 0 ? config_occupancy_cost(p, tm, &t, S)
                                            : config_cpl(p, tm, &t);
                        if (cost < bc * (t.k > best->k && bc < HUGE_VAL ? TB_MORE_K : 1 - 1e-9)) {
                            bc = cost;
                            *best = t;
                        }
                    }
    }
    return bc;
}

/* Planes per group for a tile whose resident groups the fitted register estimate gives: the
 * split of the columns (at least 32 and 4k planes a group) whose groups fill the last wave of
 * the resident ones best, against the z halo each chunk loads again, the most of
 * (waves / whole waves) / (1 + 2k / chunk).  On the H100 wave3d's 32x6 plan ran, by planes per
 * group, 64 275.4, 86 275.6, 103 286.7, 128 284.8 and 171 281.7 GPoints/s, the order of that
 * ratio (0.894, 0.881, 0.943, 0.934, 0.911; doc/results.md).  c->chunk when the occupancy is
 * unknown. */
static size_t wave_chunk(const cls__s25 *p, const tb_model *tm, const tb_config *c)
{
    cls_model_occupancy_info occ;
    size_t nz = p->dims.n[2], cus = p->ctx->info.compute_units;
    size_t least = 4 * c->k > 32 ? 4 * c->k : 32, best = c->chunk;
    if (!cus || !fitted_occupancy(p, tm, c, &occ)) return best;
    double cols = (double)(div_up(p->dims.n[0], c->out_x) * div_up(p->dims.n[1], c->out_y));
    double resident = (double)occ.groups_per_cu * (double)cus, best_f = 0;
    for (size_t parts = 1; parts <= (nz / least ? nz / least : 1); parts++) {
        size_t chunk = div_up(nz, parts);
        double waves = cols * (double)div_up(nz, chunk) / resident;
        double f = waves / ceil(waves - 1e-9) / (1 + 2.0 * (double)c->k / (double)chunk);
        if (f > best_f * (1 + 1e-9)) {
            best_f = f;
            best = chunk;
        }
    }
    return best;
}

/* AUTO's tile for the k the ghost-zone model chose (c holds its pick): ranked again by
 * config_occupancy_cost where the device model gives tuning.stream25d_latency_rows.  Single
 * precision only, the measured case, with its planes per group by wave_chunk: double-precision
 * tiles and those of single-row (flat) grids keep the model's pick (on the H100 heat3d7 double
 * fell from 227.9 to 198.3 GPoints/s ranked so, its registers 10 % off the estimate; the flat
 * tiles ran at one resident group 2.5-2.9x naive).  1 when the tile changed. */
static int refine(const cls__s25 *p, const tb_model *tm, const cls__s25_request *opt,
                  size_t wgmax, tb_config *c)
{
    double S = cls__s25_tuning(p, "tuning.stream25d_latency_rows", 0);
    if (!(S > 0) || flat(p, c) || p->elem != 4) return 0;
    tb_config r = *c;
    if (search(p, tm, opt, c->k, c->k, wgmax, S, &r) == HUGE_VAL) return 0;
    int changed = r.bx != c->bx || r.by != c->by || r.rows != c->rows || r.loader != c->loader;
    if (!opt->points_per_item) r.chunk = wave_chunk(p, tm, &r);
    *c = r;
    return changed;
}

static cls_status build(cls__s25 *p, const unsigned char base[3][3], const tb_config *c,
                        size_t *kmax)
{
    char *defines = NULL;
    size_t dlen = 0, dcap = 0;
    int offs[2 * 3 * (8 + 2)];
    size_t n_offs = window_list(base, c->rows, offs);
    cls_status s;
#define DEF(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(&defines, &dlen, &dcap, __VA_ARGS__) < 0) goto oom;                   \
    } while (0)
    DEF("#define CLS_STREAM25D 1\n#define CLS_RX 1\n#define CLS_RY %d\n#define CLS_RZ 1\n",
        c->ry ? 1 : 0);
    DEF("#define CLS_HY %zu\n", c->ry ? c->k : 0);
    if (cls__stencil_is_system(p->st))
        DEF("#define CLS_STREAM25D_TB 1\n#define CLS_TB_LEVELS %zu\n", p->levels);
    /* time levels: the z fix-up by selects (cl/stream25d_tb.cl says why) */
    if (p->levels) DEF("#define CLS_TB_ZSELECT 1\n");
    if (windows(p) > 1) {
        /* field f's buffers: in, out for field 0, in<f>, out<f> after them */
        DEF("#define CLS_TB_F %zu\n#define CLS_TB_FIELD_PARAMS", windows(p));
        for (size_t f = 1; f < windows(p); f++)
            DEF(" , __global const real *restrict in%zu, __global real *restrict out%zu", f, f);
        DEF("\n#define CLS_TB_INS {in");
        for (size_t f = 1; f < windows(p); f++) DEF(", in%zu", f);
        DEF("}\n#define CLS_TB_OUTS {out");
        for (size_t f = 1; f < windows(p); f++) DEF(", out%zu", f);
        DEF("}\n");
    }
    DEF("#define CLS_TB_K %zu\n#define CLS_BX %zu\n#define CLS_BY %zu\n#define CLS_ITEM_Y %zu\n",
        c->k, c->bx, c->by, c->rows);
    DEF("#define CLS_OUT_X %zu\n#define CLS_OUT_Y %zu\n#define CLS_GX %zu\n#define CLS_LW0 %zu\n",
        c->out_x, c->out_y, c->gx, c->lw0);
    DEF("#define CLS_ZCHUNK %zu\n#define CLS_PREFETCH %zu\n", c->chunk, c->prefetch);
    /* the stages (without time levels, or on single-row tiles) and the rows written out
     * (cl/stream25d_tb.cl: a loop left to the compiler's unrolling may index the windows at run
     * time) */
    if (!p->levels || flat(p, c)) {
        DEF("#define CLS_TB_STAGES(X)");
        for (size_t i = 0; i < c->k; i++) DEF(" X(%zu)", i);
        DEF("\n");
    }
    DEF("#define CLS_TB_ROWS(X)");
    for (size_t j = 0; j < c->rows; j++) DEF(" X(%zu)", j);
    DEF("\n");
    DEF("#define CLS_OFFSETS(X)");
    for (size_t i = 0; i < n_offs; i++) DEF(" X(%d, %d)", offs[2 * i], offs[2 * i + 1]);
    DEF("\n#define CLS_TB_BASE(X)");
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (base[dy + 1][dx + 1]) DEF(" X(%d, %d)", dx, dy);
    DEF("\n");
#undef DEF
    if (p->kernel) {
        clReleaseKernel(p->kernel);
        p->kernel = NULL;
    }
    s = cls__s25_build_kernel(p, "stream25d_tb.cl", defines, "cls_stream25d_tb");
    *kmax = 0;
    if (s == CLS_SUCCESS)
        clGetKernelWorkGroupInfo(p->kernel, p->ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof *kmax, kmax, NULL);
    free(defines);
    return s;
oom:
    free(defines);
    return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "stream25d: generating defines");
}

cls_status cls__plan_stream25d_tb(cls__s25 *p, const cls__s25_request *opt,
                                  const cls__s25_reads *rd, int *fused)
{
    cls_context *ctx = p->ctx;
    const cls_device_info *d = &ctx->info;
    /* Devices whose local memory is only cache stream one step per pass unless asked: the
     * fused stages' barriers split their runtimes' work-item loops (doc/stream25d.md). */
    const int is_cpu = cls__s25_tuning(p, "tuning.local_tiles", 1) == 0;
    const int user_tile = opt->local_size[0] || opt->local_size[1];
    unsigned char base[3][3];
    tb_model tm;
    tb_config c = {0};
    cls_status s = CLS_SUCCESS;
    size_t kmax = 0, kcap = p->steps < TB_AUTO_K ? p->steps : TB_AUTO_K;
    double cpl = HUGE_VAL, cpl1 = HUGE_VAL;
    int refined = 0;
    *fused = 0;

    if (opt->steps_per_pass > TB_MAX_K)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "stream25d: steps per pass takes 1..%d; got %zu", TB_MAX_K,
                         opt->steps_per_pass);
    if (rd->r[0] > 1 || rd->r[1] > 1 || rd->r[2] > 1) {
        if (opt->steps_per_pass > 1 && p->lifted)
            return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "stream25d: several steps per pass need a body of radius 1 (the 2D "
                             "body reads %d, %d points away in x, y)",
                             rd->r[0], rd->r[2]);
        if (opt->steps_per_pass > 1)
            return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "stream25d: several steps per pass need a body of radius 1 (it "
                             "reads %d, %d, %d points away in x, y, z)",
                             rd->r[0], rd->r[1], rd->r[2]);
        return CLS_SUCCESS;
    }
    if (opt->steps_per_pass > 1 && opt->loader == CLS__LOADER_DIRECT)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d: several steps per pass keep the planes in local memory; "
                         "the direct loader has none (use classic or aligned)");
    /* The model decides only on GPUs and for the local-memory loaders; CPUs stream one step per
     * pass (doc/stream25d.md: the fused stages' barriers split PoCL's work-item loops). */
    if (!opt->steps_per_pass && (is_cpu || opt->loader == CLS__LOADER_DIRECT || p->steps < 2))
        return CLS_SUCCESS;
    c.k = opt->steps_per_pass ? opt->steps_per_pass : 0;
    if (c.k > p->steps) c.k = p->steps;
    if (opt->steps_per_pass && c.k < 2) return CLS_SUCCESS;
    c.loader = opt->loader != CLS__LOADER_AUTO ? opt->loader
               : is_cpu                       ? CLS__LOADER_CLASSIC
                                              : CLS__LOADER_ALIGNED;
    c.prefetch = opt->prefetch ? opt->prefetch
                               : (size_t)cls__s25_tuning(p, "tuning.stream25d_prefetch", 2);
    c.ry = rd->r[1] > 0;
    base_offsets(p, rd, base);
    model_setup(p, rd, base, &tm);

    if (user_tile) {
        c.bx = opt->local_size[0] ? opt->local_size[0] : 1;
        c.by = opt->local_size[1] ? opt->local_size[1] : 1;
        c.rows = opt->rows_per_item ? opt->rows_per_item : 1;
        /* The user's tile; the model's k (unless given) and loader (unless given). */
        size_t kfix = c.k;
        tb_config u = c;
        for (int li = 0; loader_candidate(p, opt, li, &u.loader); li++) {
            tb_config t = u;
            for (size_t k = kfix ? kfix : 1; k <= (kfix ? kfix : kcap); k++) {
                t.k = k;
                if (!geometry(&t, (size_t)tm.sw)) break;
                t.chunk = opt->points_per_item ? opt->points_per_item : default_chunk(p, &t);
                double f = config_cpl(p, &tm, &t);
                if (k == 1 && !li) cpl1 = f;
                if (f < cpl * (k > c.k && cpl < HUGE_VAL ? TB_MORE_K : 1 - 1e-9)) {
                    cpl = f;
                    c.k = k;
                    c.loader = t.loader;
                }
            }
        }
        /* No k >= 2 fits the user's tile: one step per pass (the single-pass kernel), unless
         * k was asked for (refused below). */
        if (!kfix && c.k < 2) goto fail;
        if (!geometry(&c, (size_t)tm.sw))
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: %zu steps per pass shrink the tile by %zu points per "
                           "side%s; a %zux%zu tile has no output left (it needs more than %zu "
                           "%s)",
                           c.k, c.k, c.ry ? "" : " in x", c.bx, c.by * c.rows, 2 * c.k,
                           c.ry ? "each way" : "wide");
        c.chunk = opt->points_per_item ? opt->points_per_item : default_chunk(p, &c);
    } else if (c.k && !tm.ok) {
        /* No model: a tile that fits the k asked for. */
        c.bx = flat(p, &c) ? 256 : is_cpu ? 32 : 64;
        c.rows = 1;
        c.by = flat(p, &c) ? 1 : 2 * c.k + 6 > 32 ? 32 : 2 * c.k + 6;
        if (!geometry(&c, (size_t)tm.sw))
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: no tile for %zu steps per pass", c.k);
        c.chunk = opt->points_per_item ? opt->points_per_item : default_chunk(p, &c);
    } else {
        size_t wgmax = d->max_work_group_size < 1024 ? d->max_work_group_size : 1024;
        cpl = search(p, &tm, opt, c.k, kcap, wgmax, 0, &c);
        if (!c.k || cpl == HUGE_VAL) {
            if (opt->steps_per_pass)
                CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                               "stream25d: no work-group fits %zu steps per pass on '%s'",
                               opt->steps_per_pass, d->name);
            goto fail; /* no model: one step per pass */
        }
        if (refine(p, &tm, opt, wgmax, &c)) {
            cpl = config_cpl(p, &tm, &c);
            refined = 1;
        }
        tb_config one = c;
        one.k = 1;
        if (geometry(&one, (size_t)tm.sw)) cpl1 = config_cpl(p, &tm, &one);
    }
    if (c.k < 2) goto fail; /* the model prefers one step per pass: the single-pass kernel */
    if (c.chunk > p->dims.n[2]) c.chunk = p->dims.n[2];
    if (c.bx * c.by > d->max_work_group_size ||
        (d->max_work_item_sizes[0] && c.bx > d->max_work_item_sizes[0]) ||
        (d->max_work_item_sizes[1] && c.by > d->max_work_item_sizes[1]))
        CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                       "stream25d: a %zux%zu work-group needs as many work-items; '%s' allows "
                       "%zu",
                       c.bx, c.by, d->name, d->max_work_group_size);
    if (local_bytes(p, &c) > d->local_mem_bytes)
        CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                       "stream25d: %zu steps per pass on a %zux%zu tile need %zu bytes of local "
                       "memory; '%s' has %llu",
                       c.k, c.bx, c.by * c.rows, local_bytes(p, &c), d->name,
                       (unsigned long long)d->local_mem_bytes);
    if ((s = build(p, base, &c, &kmax)) != CLS_SUCCESS) goto fail;
    if (kmax && c.bx * c.by > kmax) {
        /* The compiled kernel allows fewer work-items than the device: choose below it. */
        if (user_tile || !tm.ok)
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: the fused kernel allows %zu work-items per group on '%s', "
                           "the %zux%zu work-group needs %zu; use a smaller one",
                           kmax, d->name, c.bx, c.by, c.bx * c.by);
        cpl = search(p, &tm, opt, c.k, kcap, kmax, 0, &c);
        /* Nothing fused fits the compiled kernel's limit (double precision's registers on
         * NVIDIA): one step per pass, unless steps per pass were asked for. */
        if (cpl == HUGE_VAL && !opt->steps_per_pass) goto fail;
        if (cpl < HUGE_VAL && refine(p, &tm, opt, kmax, &c)) {
            cpl = config_cpl(p, &tm, &c);
            refined = 1;
        }
        if (cpl == HUGE_VAL)
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: no work-group fits the %zu work-items the fused kernel "
                           "allows on '%s'",
                           kmax, d->name);
        if (c.chunk > p->dims.n[2]) c.chunk = p->dims.n[2];
        if ((s = build(p, base, &c, &kmax)) != CLS_SUCCESS) goto fail;
        if (kmax && c.bx * c.by > kmax)
            CLS__GOTO_FAIL(ctx, s, CLS_ERR_PLAN_INFEASIBLE,
                           "stream25d: the %zux%zu work-group exceeds the %zu work-items the "
                           "fused kernel allows on '%s'",
                           c.bx, c.by, kmax, d->name);
    }
    p->loader = c.loader;
    p->per_item = c.chunk;
    p->prefetch = c.prefetch;
    p->item_rows = c.rows;
    p->steps_per_pass = c.k;
    p->local[0] = c.bx;
    p->local[1] = c.by;
    p->local[2] = 1;
    p->global[0] = div_up(p->dims.n[0], c.out_x) * c.bx;
    p->global[1] = div_up(p->dims.n[1], c.out_y) * c.by;
    p->global[2] = div_up(p->dims.n[2], c.chunk);
    p->tile[0] = c.out_x;
    p->tile[1] = c.out_y;
    p->tile[2] = c.chunk;
    p->predicted_seconds = config_seconds(p, &tm, &c);
    char lv[160] = "";
    if (windows(p) > 1)
        snprintf(lv, sizeof lv, " of the %zu fields its stage updates (a window and local planes "
                 "each)", windows(p));
    else if (p->levels)
        snprintf(lv, sizeof lv, " of '%s' and its %zu time level%s (read once per pass, written "
                 "with it)",
                 p->st->fields[p->st->stages[0].update[0].field].name, p->levels,
                 p->levels == 1 ? "" : "s");
    if (cpl < HUGE_VAL)
        snprintf(p->why, sizeof p->why,
                 "stream25d: %zu steps per pass%s, %zux%zu output tile (%zux%zu work-group, %zu "
                 "rows per item%s), ghost-zone model %.4g cycles per step (one step per pass: "
                 "%.4g)",
                 c.k, lv, c.out_x, c.out_y, c.bx, c.by, c.rows,
                 refined ? "; the tile ranked by its resident rows, tuning.stream25d_latency_rows"
                         : "",
                 cpl, cpl1);
    else
        snprintf(p->why, sizeof p->why,
                 "stream25d: %zu steps per pass%s as asked, %zux%zu output tile", c.k, lv,
                 c.out_x, c.out_y);
    cls__debug("%s", p->why);
    *fused = 1;
fail:
    return s;
}

double cls__stream25d_tb_gain(cls__s25 *p, const cls__s25_reads *rd, size_t *k,
                              double *seconds, size_t *columns)
{
    unsigned char base[3][3];
    tb_model tm;
    tb_config c = {0}, one;
    cls__s25_request opt;
    double gain = 0;
    size_t kcap = p->steps < TB_AUTO_K ? p->steps : TB_AUTO_K;
    *k = 1;
    if (seconds) *seconds = 0;
    if (columns) *columns = 0;
    if (rd->r[0] > 1 || rd->r[1] > 1 || rd->r[2] > 1 || p->steps < 2) return 0;
    memset(&opt, 0, sizeof opt);
    c.loader = CLS__LOADER_ALIGNED;
    c.prefetch = 2;
    c.ry = rd->r[1] > 0;
    base_offsets(p, rd, base);
    model_setup(p, rd, base, &tm);
    double wgmax = p->ctx->info.max_work_group_size < 1024 ? p->ctx->info.max_work_group_size
                                                           : 1024;
    double best = search(p, &tm, &opt, 0, kcap, (size_t)wgmax, 0, &c);
    one = c;
    one.k = 1;
    if (best < HUGE_VAL && geometry(&one, (size_t)tm.sw)) {
        double f1 = config_cpl(p, &tm, &one);
        if (f1 < HUGE_VAL) gain = f1 / best;
        *k = c.k;
        if (seconds) *seconds = config_seconds(p, &tm, &c);
        if (columns)
            *columns = div_up(p->dims.n[0], c.out_x) * div_up(p->dims.n[1], c.out_y);
    }
    return gain;
}
