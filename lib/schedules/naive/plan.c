/* plan.c: the naive schedule's planner: one launch per step, every read from global memory;
 * on devices whose model asks for it (CPUs) the row kernel, a vectorised run along x per
 * work-item, else short columns along the slowest axis.  Priced at the stencil's measured
 * rate, or at the minimal traffic and the device's bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_tune.h"
#include "cpu_cost.h"
#include "expr.h"
#include "naive.h"
#include "schedule.h"


static const cls__param_desc params[] = {
    {"local", CLS__PARAM_SIZES, 1, 1u << 20, NULL,
     "work-group size per dimension (absent: chosen per device)"},
    {"points_per_item", CLS__PARAM_SIZE, 1, 1u << 20, NULL,
     "points each work-item updates: a run along x with the row kernel, else along the slowest "
     "axis"},
    {"in_place", CLS__PARAM_SIZE, 0, 1, NULL,
     "systems, row kernel (CPUs): 1 (default) updates a field in place where the stage reads it "
     "only at the point it writes, and a time level's source over its oldest level where the "
     "step reads that level only there; 0 writes every update to another buffer"},
    {"vector_x", CLS__PARAM_SIZE, 1, 4, NULL,
     "2D and 3D column kernel: consecutive points along x per work-item, stored as one vector "
     "(1, 2 or 4, dividing the grid's x size)"},
    {"vector_reads", CLS__PARAM_SIZE, 0, 1, NULL,
     "column kernel with 2 or 4 points along x: 1 reads each neighbour row as aligned vectors "
     "where the body computes every lane alike (+ - * / of reads, no X), 0 point by point "
     "(absent: 1 in single precision for bodies that divide nothing varying, and for systems "
     "whose updates read each field at two offsets or more)"},
    {NULL, 0, 0, 0, NULL, NULL}};

extern const cls__schedule_ops cls__naive_ops;
#define OPS (&cls__naive_ops)

static size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }
static size_t tuning(const cls__facts *f, const char *key, size_t dflt)
{
    double v = cls__facts_model(f, key);
    return v > 0 ? (size_t)v : dflt;
}

/* Points per work-item when the caller leaves it open: whole rows (up to a device maximum)
 * for the row kernel; for the column kernel the device model's column length, which lets the
 * neighbours along the slowest axis come from registers (doc/devices.md, "Tuning"). */
static size_t default_per_item(const cls__facts *f, int rows)
{
    if (rows) {
        size_t cap = tuning(f, f->st->dims == 1 ? "tuning.row_length_1d" : "tuning.row_length",
                            16384);
        return f->dims.n[0] < cap ? f->dims.n[0] : cap;
    }
    if (f->st->dims < 2) return 1;
    if (f->st->dims == 2 && f->st->dtype == CLS_FLOAT64)
        return tuning(f, "tuning.column_fp64_2d", 1);
    return tuning(f, "tuning.column", 1);
}

/* Rows per work-item of the row kernel in 2D and 3D: the model's count, one work-group each,
 * so that the kernel's own row loop replaces the runtime's work-item loop; fewer where that
 * would leave under the model's work-items per compute unit. */
static size_t item_rows_of(const cls__facts *f)
{
    if (f->st->dims < 2) return 1;
    size_t rows = f->dims.n[1] * (f->st->dims > 2 ? f->dims.n[2] : 1);
    size_t items = tuning(f, "tuning.row_items_per_cu", 4) *
                   (f->dev->compute_units ? f->dev->compute_units : 1);
    size_t r = tuning(f, "tuning.row_kernel_rows", 1);
    while (r > 1 && rows / r < items) r /= 2;
    return r < f->dims.n[1] ? r : f->dims.n[1];
}

/* Whether every update of the stencil is lane-wise (cls__expr_lane_wise), so that the column
 * kernel's vector reads apply: the generator then emits the vector variants (lib/codegen.c). */
static int lane_wise(const cls__facts *f)
{
    if (!cls__stencil_is_system(f->st)) return f->expr && cls__expr_lane_wise(f->expr);
    for (size_t g = 0; g < f->st->n_stages; g++)
        for (size_t k = 0; k < f->st->stages[g].n; k++) {
            cls_expr *e = NULL;
            int ok = cls__stencil_parse_update(f->st, g, k, &e) == CLS_SUCCESS &&
                     cls__expr_lane_wise(e);
            cls__expr_free(e);
            if (!ok) return 0;
        }
    return 1;
}

/* Whether a system's updates read their fields at several offsets each, at least two distinct
 * reads per field read in every update: the neighbouring offsets then share the vector reads'
 * aligned blocks.  Updates that read a field at one or two offsets gain nothing and lose to the
 * vector's registers (H100: fdtd3d 512^3 40.2 -> 39.0 GPoints/s, fdtd2d 8192^2 82.4 -> 81.5,
 * 1.7 reads per field; wave2d, gray_scott, wave3d and acoustic3d_r4 read 3 to 13). */
static int reads_share_blocks(const cls__facts *f)
{
    for (size_t g = 0; g < f->st->n_stages; g++)
        for (size_t k = 0; k < f->st->stages[g].n; k++) {
            cls_expr *e = NULL;
            if (cls__stencil_parse_update(f->st, g, k, &e) != CLS_SUCCESS) return 0;
            size_t fields = 0;
            for (size_t fi = 0; fi < f->st->n_fields; fi++) {
                int lo[3], hi[3], used = 0;
                cls__expr_field_extent(e, fi, lo, hi, &used);
                fields += used != 0;
            }
            int ok = fields && cls__expr_in_reads(e) >= 2 * fields;
            cls__expr_free(e);
            if (!ok) return 0;
        }
    return 1;
}

/* Whether the column kernel's vector reads pay by default (single precision, GPUs' column
 * kernel): every update lane-wise, and
 * - a system's updates reading their fields at several offsets (reads_share_blocks);
 * - a single field's body dividing nothing that varies from point to point: jacobi3d's / 6
 *   (a correctly rounded division per lane) ran 337.6 -> 313.5 GPoints/s with two points read
 *   as vectors on the H100, where heat3d7 gained 328.9 -> 336.6, hotspot 228.5 -> 246.2, emboss
 *   341.3 -> 364.6 and heat3d27 195.7 -> 270.0 (poisson2d lost 249.5 -> 246.4; doc/results.md,
 *   "Aligned vector reads"). */
static int vector_reads_pay(const cls__facts *f, const cls__naive *c)
{
    if (c->rows || f->st->dims < 2 || f->st->dtype != CLS_FLOAT32 || !lane_wise(f)) return 0;
    if (c->n_stages) return reads_share_blocks(f);
    size_t flops, divs, selects;
    cls__expr_point_ops(f->expr, &flops, &divs, &selects);
    return divs == 0;
}

/* Points along x per work-item of the column kernel when the caller leaves it open, halved until
 * it divides the grid's x size: where vector reads pay (reads_pay, from vector_reads_pay) the
 * model's count for them (tuning.vector_reads_x), else in single precision for single-field
 * bodies of few reads the model's count for lanes read point by point (tuning.column_vector_x
 * and _reads); 1 for everything else. */
static size_t default_vector_x(const cls__facts *f, const cls__naive *c, int reads_pay)
{
    if (c->rows || f->st->dims < 2 || f->st->dtype != CLS_FLOAT32) return 1;
    size_t v = reads_pay ? tuning(f, "tuning.vector_reads_x", 1) : 1;
    if (v < 2 && !c->n_stages && f->expr) {
        v = tuning(f, "tuning.column_vector_x", 1);
        double reads = cls__facts_model(f, "tuning.column_vector_x_reads");
        if (!(reads >= (double)cls__expr_in_reads(f->expr))) v = 1;
    }
    if (v > 4) v = 4;
    while (v > 1 && f->dims.n[0] % v != 0) v /= 2;
    return v;
}

/* One launch per step (the restart of Meng & Skadron 2010's Eq. 17; one per stage for a
 * system) and every point at the stencil's measured rate; else the row kernel at the CPU model's
 * vector work against its traffic (model/cpu_rows.c), or the minimal traffic at the device's
 * bandwidth (a system's counts every field each stage reads and writes).  The measured rate of
 * the row kernel is its work in the cache (the ghost-zone profile measures a grid of a few
 * hundred thousand points): a step takes at least the CPU model's traffic of the arrays at the
 * level they fit. */
static double predict(const cls__facts *f, const cls__naive *c, const char **how)
{
    double per_point = 0;
    cls__cpu_device d;
    cls__cpu_rows_work w;
    const char *why = NULL;
    int rows_model = c->rows && cls__cpu_device_of(f, &d, &why) &&
                     cls__cpu_rows_work_of(f, c->per_item, c->item_rows, &w) == CLS_SUCCESS;
    double launches = cls__stencil_is_system(f->st) ? (double)f->st->n_stages : 1.0;
    if (f->profile && f->profile->naive_seconds_per_point > 0) {
        per_point = f->profile->naive_seconds_per_point;
        *how = "its measured rate";
        double step = launches * f->restart_seconds + (double)f->points * per_point, memory = 0;
        if (rows_model) cls__cpu_rows_step(&d, &w, NULL, &memory);
        if (memory > step) {
            *how = "its arrays' traffic at their cache level's bandwidth, above its measured rate";
            step = launches * f->restart_seconds + memory;
        }
        return (double)f->steps * step;
    } else if (rows_model) {
        double compute = 0, memory = 0;
        double step = cls__cpu_rows_step(&d, &w, &compute, &memory);
        *how = compute >= memory ? "the row kernel's vector work on the cores"
                                 : "the row kernel's traffic at its cache level's bandwidth";
        return (double)f->steps * step;
    } else if (f->bandwidth > 0) {
        per_point = f->min_bytes_per_point / f->bandwidth;
        *how = "the minimal traffic at the device's bandwidth";
    } else {
        *how = "no device model";
        return 0;
    }
    return (double)f->steps * (launches * f->restart_seconds + (double)f->points * per_point);
}

static cls_status candidates(cls__facts *f, int forced, cls__candidates *out)
{
    size_t v[3];
    cls__naive *c = calloc(1, sizeof *c);
    if (!c) return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "naive configuration");
    c->n_stages = cls__stencil_is_system(f->st) ? f->st->n_stages : 0;
    c->rows = tuning(f, "tuning.row_kernel", 0) != 0;
    int axis = c->rows ? 0 : f->st->dims - 1;
    size_t given = cls__param_get(f->params, OPS, "points_per_item", v) ? v[0] : 0;
    c->per_item = given ? given : default_per_item(f, c->rows);
    if (!c->rows && axis == 0) c->per_item = 1;
    if (c->per_item > f->dims.n[axis]) c->per_item = f->dims.n[axis];
    size_t most = c->rows ? (size_t)1 << 20 : 1024;
    if (c->per_item > most) {
        free(c);
        return cls__fail(f->ctx, CLS_ERR_INVALID_ARGUMENT, "points per item: at most %zu, got %zu",
                         most, given);
    }
    c->item_rows = c->rows ? item_rows_of(f) : 1;
    /* The row kernel of a system writes in place what cls__system_stage_in_place allows: on a
     * CPU an output buffer costs a write-allocate pass and cache room. */
    size_t in_place = cls__param_get(f->params, OPS, "in_place", v) ? v[0] : 1;
    c->in_place_asked = c->rows && c->n_stages && in_place;
    for (size_t g = 0; c->in_place_asked && g < c->n_stages; g++) {
        cls_status s = cls__system_stage_in_place(f->st, g, &c->in_place[g]);
        if (s != CLS_SUCCESS) {
            free(c);
            return s;
        }
    }
    const int reads_pay = vector_reads_pay(f, c); /* parses every update of a system */
    if (cls__param_get(f->params, OPS, "vector_x", v)) {
        if (c->rows || f->st->dims < 2 || (v[0] != 1 && v[0] != 2 && v[0] != 4) ||
            f->dims.n[0] % v[0] != 0) {
            free(c);
            return cls__fail(f->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "naive.vector_x: 1, 2 or 4 points along x that divide the grid's x "
                             "size %zu, for the column kernel of a 2D or 3D grid; got %zu",
                             f->dims.n[0], v[0]);
        }
        c->vec_x = v[0];
    } else {
        c->vec_x = default_vector_x(f, c, reads_pay);
    }
    c->vec_reads = c->vec_x > 1 && (cls__param_get(f->params, OPS, "vector_reads", v)
                                        ? v[0] != 0 && lane_wise(f)
                                        : reads_pay);
    c->vector = c->rows ? cls__cpu_row_lanes(f->ctx->device, f->st->dtype) : 0;
    size_t n = cls__param_get(f->params, OPS, "local", v);
    if (n) {
        for (int i = 0; i < 3; i++) {
            size_t l = v[i] ? v[i] : 1;
            if (i >= f->st->dims && l != 1) {
                free(c);
                return cls__fail(f->ctx, CLS_ERR_INVALID_ARGUMENT,
                                 "local size: a %d-D stencil takes %d work-group sizes",
                                 f->st->dims, f->st->dims);
            }
            c->local[i] = l;
        }
        c->local_given = 1;
    }
    (void)forced;
    const char *how = "";
    double s = predict(f, c, &how);
    char vec[64] = "";
    if (c->vec_x > 1) snprintf(vec, sizeof vec, ", %zu points along x per work-item", c->vec_x);
    return cls__candidate_add(out, OPS, c, CLS__RANK_NORMAL, s, "%s (%s)%s",
                              s > 0 ? "one launch per step" : "no prediction", how, vec);
}

static cls_status check_local(const cls__facts *f, cls__naive *c)
{
    const cls_device_info *d = f->dev;
    size_t wgmax = cls__kernel_wg_limit(f->ctx, c->n_stages ? c->stage_kernel[0] : c->kernel),
           prod = 1;
    if (!wgmax) wgmax = d->max_work_group_size;
    for (int i = 0; i < 3; i++) {
        if (d->max_work_item_sizes[i] && c->local[i] > d->max_work_item_sizes[i])
            return cls__fail(f->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "local size: %zu in dimension %d exceeds the device's %zu",
                             c->local[i], i, d->max_work_item_sizes[i]);
        prod *= c->local[i];
    }
    if (prod > wgmax)
        return cls__fail(f->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "local size: %zu work-items per group exceed this kernel's limit of %zu "
                         "on '%s'",
                         prod, wgmax, d->name);
    return CLS_SUCCESS;
}

static cls_status build(const cls__facts *f, cls__candidate *cand)
{
    cls__naive *c = cand->config;
    cls__built b = {0};
    char defines[200];
    cls_status s;
    if (c->rows)
        snprintf(defines, sizeof defines,
                 "#define CLS_NAIVE_ROWS 1\n#define CLS_ROW_LEN %zu\n#define CLS_ROW_VEC %zu\n"
                 "#define CLS_ITEM_ROWS %zu%s",
                 c->per_item, c->vector, c->item_rows,
                 c->in_place_asked ? "\n#define CLS_IN_PLACE 1" : "");
    else
        snprintf(defines, sizeof defines, "#define CLS_PER_ITEM %zu\n#define CLS_VEC_X %zu%s",
                 c->per_item, c->vec_x, c->vec_reads ? "\n#define CLS_VEC_READS 1" : "");
    if (c->n_stages) {
        /* one program per stage; the first stage's kernel stands for the work-group limits
         * (its stages differ only in their bodies) */
        s = CLS_SUCCESS;
        for (size_t g = 0; g < c->n_stages && s == CLS_SUCCESS; g++) {
            cls__built bs = {0};
            s = cls__build_stage_kernel(f, g, c->rows ? "naive_system_rows.cl" : "naive_system.cl",
                                        defines, "cls_naive_stage", f->max_registers, &bs);
            c->stage_kernel[g] = bs.kernel;
            if (g == 0) b = bs;
            else {
                b.from_cache = b.from_cache && bs.from_cache;
                b.build_seconds += bs.build_seconds;
            }
        }
        b.kernel = NULL; /* owned by stage_kernel[0] */
    } else {
        s = cls__build_kernel(f, c->rows ? "naive_rows.cl" : "naive.cl", defines,
                              c->rows ? CLS__UPDATE_ROW : 0, "cls_naive", f->max_registers, &b);
    }
    c->program = b.program;
    c->kernel = b.kernel;
    c->from_cache = b.from_cache;
    c->build_seconds = b.build_seconds;
    c->max_regs = b.max_regs;
    c->regs_ignored = b.regs_ignored;
    if (s != CLS_SUCCESS) return s;
    int axis = c->rows ? 0 : f->st->dims - 1;
    if (c->local_given) {
        if ((s = check_local(f, c)) != CLS_SUCCESS) return s;
    } else if (c->rows) {
        /* A few rows per work-group: each row is already a long vector loop; with several
         * rows per work-item, one item per group. */
        size_t rows_axis = f->st->dims == 1 ? 0 : 1;
        size_t n = rows_axis == 0 ? (f->dims.n[0] + c->per_item - 1) / c->per_item : f->dims.n[1];
        c->local[0] = c->local[1] = c->local[2] = 1;
        if (c->item_rows <= 1) c->local[rows_axis] = n < 8 ? n : 8;
    } else {
        /* With vector reads the group keeps the model's row of points along x (H100, 512^3:
         * acoustic3d_r4 165.9 -> 178.2 GPoints/s on 32x4 groups instead of 64x2, wave3d 219.4
         * -> 222.3); the point-by-point lanes keep their items (heat3d7 329.0 -> 326.9 so) */
        cls__choose_local_size(f, c->n_stages ? c->stage_kernel[0] : c->kernel, c->vec_x,
                               c->vec_reads, c->local);
    }
    for (int i = 0; i < 3; i++) {
        size_t n = i == axis ? (f->dims.n[i] + c->per_item - 1) / c->per_item : f->dims.n[i];
        if (i == 0) n /= c->vec_x;
        if (i == 1) n = (n + c->item_rows - 1) / c->item_rows; /* 1 but for row kernels */
        c->global[i] = round_up(n, c->local[i]);
    }
    if (c->regs_ignored) {
        char *why = NULL;
        size_t len = 0, cap = 0;
        if (cls__appendf(&why, &len, &cap, "%s; register cap %zu ignored: the device has no "
                                           "cl_nv_compiler_options",
                         cand->why, c->regs_ignored) == 0) {
            free(cand->why);
            cand->why = why;
        }
    }
    return CLS_SUCCESS;
}

static void describe(const void *config, cls__description *d)
{
    const cls__naive *c = config;
    memcpy(d->local, c->local, sizeof d->local);
    memcpy(d->global, c->global, sizeof d->global);
    d->from_cache = c->from_cache;
    d->build_seconds = c->build_seconds;
    d->max_registers = c->max_regs;
    cls__describe_param(d, OPS, "local", "%zux%zux%zu", c->local[0], c->local[1], c->local[2]);
    cls__describe_param(d, OPS, "points_per_item", "%zu", c->per_item);
    if (c->vec_x > 1) cls__describe_param(d, OPS, "vector_x", "%zu", c->vec_x);
    if (c->vec_x > 1) cls__describe_param(d, OPS, "vector_reads", "%d", c->vec_reads);
    cls__describe_param(d, OPS, "kernel", "%s",
                        c->n_stages ? (c->rows ? "stage_rows" : "stages")
                                    : c->rows ? "rows" : "points");
    if (c->rows) cls__describe_param(d, OPS, "rows_per_item", "%zu", c->item_rows);
    if (c->rows && c->n_stages) {
        unsigned any = 0;
        for (size_t g = 0; g < c->n_stages; g++) any |= c->in_place[g];
        cls__describe_param(d, OPS, "in_place", "%d", any != 0);
    }
}

static void variant_name(const void *config, char *name, size_t len)
{
    const cls__naive *c = config;
    snprintf(name, len, "naive-%zux%zu", c->local[0], c->local[1]);
}

static void release(void *config)
{
    cls__naive *c = config;
    if (!c) return;
    if (c->kernel) clReleaseKernel(c->kernel);
    for (size_t g = 0; g < CLS__MAX_STAGES; g++)
        if (c->stage_kernel[g]) clReleaseKernel(c->stage_kernel[g]);
    free(c);
}


const cls__schedule_ops cls__naive_ops = {
    .name = "naive",
    .id = CLS_SCHEDULE_NAIVE,
    .flags = 0,
    .summary = "one launch per time step (per stage for a system of fields) over ping-pong "
               "buffers, every read from global memory (the baseline of Meng & Skadron 2010)",
    .params = params,
    .candidates = candidates,
    .build = build,
    .run = cls__naive_run,
    .describe = describe,
    .variant_name = variant_name,
    .publish_access = cls__naive_publish_access,
    .release = release,
    .probe = cls__naive_probe,
    .measurements = cls__naive_probe_measurements,
};
