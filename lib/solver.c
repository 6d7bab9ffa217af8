/* solver.c: the convergent solvers' options, names and checks, and the generation and build of
 * their kernels (cl/chaotic.cl) for the schedules of Chen et al., Sect. IV-V. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "solver.h"

static const char *const schedule_names[] = {"base", "coarse", "ud", "4w", "4w-combine"};
static const char *const order_names[] = {"stripe", "square"};
static const char *const norm_names[] = {"max", "l2"};
static const char *const criterion_names[] = {"update", "residual"};
#define COUNT(a) (sizeof a / sizeof a[0])
/* The document's block shape (Sect. IV-B, V-A, Table II). */
#define DOC_BX 32
#define DOC_BY 20
#define DOC_PPI 2
#define DOC_COMM 32

void cls_solver_options_init(cls_solver_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->size = sizeof *opt;
    opt->schedule = CLS_SOLVER_4W_COMBINE;
    opt->order = CLS_ORDER_SQUARE;
    /* The document's settings (Sect. IV-B, V-A): an exchange every 4 steps, a host sync every
     * 60; its block shape (32x20, two points per computation thread, 32 communication threads)
     * where the compiled pass fits it (cls__solver_fit_block). */
    opt->check_interval = 60;
    opt->exchange_interval = 4;
    opt->block[0] = CLS_SOLVER_AUTO;
    opt->block[1] = CLS_SOLVER_AUTO;
    opt->points_per_item = CLS_SOLVER_AUTO;
    opt->comm_items = CLS_SOLVER_AUTO;
    opt->norm = CLS_NORM_MAX;
    opt->criterion = CLS_CRITERION_UPDATE;
    opt->tolerance = 1e-4;
    opt->max_steps = 100000;
    opt->divergence_factor = 1e6;
}

const char *cls_solver_schedule_name(cls_solver_schedule s)
{
    return (size_t)s < COUNT(schedule_names) ? schedule_names[s] : "unknown";
}
const char *cls_block_order_name(cls_block_order o)
{
    return (size_t)o < COUNT(order_names) ? order_names[o] : "unknown";
}
const char *cls_norm_name(cls_norm n) { return (size_t)n < COUNT(norm_names) ? norm_names[n] : "unknown"; }
const char *cls_criterion_name(cls_criterion c)
{
    return (size_t)c < COUNT(criterion_names) ? criterion_names[c] : "unknown";
}

cls_status cls_norm_from_name(const char *name, cls_norm *n)
{
    for (size_t i = 0; name && n && i < COUNT(norm_names); i++)
        if (!strcmp(name, norm_names[i])) {
            *n = (cls_norm)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "unknown norm '%s' (max, l2)",
                     name ? name : "(null)");
}

cls_status cls_criterion_from_name(const char *name, cls_criterion *c)
{
    for (size_t i = 0; name && c && i < COUNT(criterion_names); i++)
        if (!strcmp(name, criterion_names[i])) {
            *c = (cls_criterion)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                     "unknown convergence criterion '%s' (update, residual)", name ? name : "(null)");
}

cls_status cls_solver_variant_parse(const char *name, cls_solver_options *opt)
{
    char buf[64];
    size_t n = 0;
    if (!name || !opt)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_solver_variant_parse: NULL argument");
    /* Lower case, without the document's "-comm". */
    for (const char *p = name; *p && n + 1 < sizeof buf; p++) {
        if (!strncasecmp(p, "-comm", 5) && (p[5] == '-' || p[5] == 0)) {
            p += 4;
            continue;
        }
        buf[n++] = (char)tolower((unsigned char)*p);
    }
    buf[n] = 0;
    int order = -1;
    for (size_t o = 0; o < COUNT(order_names); o++) {
        size_t l = strlen(order_names[o]);
        if (n > l + 1 && buf[n - l - 1] == '-' && !strcmp(buf + n - l, order_names[o])) {
            order = (int)o;
            buf[n - l - 1] = 0;
        }
    }
    for (size_t s = 0; s < COUNT(schedule_names); s++) {
        if (strcmp(buf, schedule_names[s])) continue;
        if (order >= 0 && s < CLS_SOLVER_UD) break; /* base and coarse have no exchange order */
        opt->schedule = (cls_solver_schedule)s;
        if (order >= 0) opt->order = (cls_block_order)order;
        return CLS_SUCCESS;
    }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                     "unknown solver schedule '%s' (base, coarse, or ud, 4w, 4w-combine with an "
                     "optional -stripe or -square, e.g. 4w-combine-square)",
                     name);
}

void cls_solver_variant_name(const cls_solver_options *opt, char *buf, size_t len)
{
    if (!buf || !len) return;
    if (!opt) {
        snprintf(buf, len, "unknown");
    } else if (opt->schedule < CLS_SOLVER_UD) {
        snprintf(buf, len, "%s", cls_solver_schedule_name(opt->schedule));
    } else {
        snprintf(buf, len, "%s-%s", cls_solver_schedule_name(opt->schedule),
                 cls_block_order_name(opt->order));
    }
}

/* Options that do not depend on the device. */
static cls_status check_options(const cls_solver_options *o)
{
    if ((size_t)o->schedule >= COUNT(schedule_names))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "solver schedule: unknown value %d",
                         (int)o->schedule);
    if ((size_t)o->order >= COUNT(order_names))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "block order: unknown value %d",
                         (int)o->order);
    if ((size_t)o->norm >= COUNT(norm_names))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "norm: unknown value %d", (int)o->norm);
    if ((size_t)o->criterion >= COUNT(criterion_names))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "criterion: unknown value %d",
                         (int)o->criterion);
    if (!(o->tolerance > 0) || !isfinite(o->tolerance))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "tolerance: must be a finite number > 0, got %g", o->tolerance);
    if (o->max_steps < 1 || o->max_steps > 2147483647u)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "max steps: must lie in 1..2^31-1, got %zu", o->max_steps);
    if (o->check_interval < 1 || o->check_interval > 2147483647u)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "check interval n: must lie in 1..2^31-1, got %zu", o->check_interval);
    if (o->exchange_interval < 1 || o->exchange_interval > 2147483647u)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "exchange interval l: must lie in 1..2^31-1, got %zu",
                         o->exchange_interval);
    if (!isfinite(o->max_seconds) || o->max_seconds < 0)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "time limit: must be 0 (none) or a finite number of seconds > 0, got %g",
                         o->max_seconds);
    if (!isfinite(o->divergence_factor) || o->divergence_factor < 0 ||
        (o->divergence_factor > 0 && o->divergence_factor <= 1))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "divergence factor: must be 0 (off) or a finite number > 1, got %g",
                         o->divergence_factor);
    for (int d = 0; d < 2; d++)
        if (o->block[d] != CLS_SOLVER_AUTO && (o->block[d] < 1 || o->block[d] > 4096))
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "block: each side must lie in 1..4096 (or be automatic), got %zu "
                             "along %c",
                             o->block[d], d ? 'y' : 'x');
    if (o->points_per_item != CLS_SOLVER_AUTO) {
        size_t by = o->block[1] == CLS_SOLVER_AUTO ? DOC_BY : o->block[1];
        if (o->points_per_item < 1 || by % o->points_per_item)
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "points per item: must be >= 1 and divide the block height %zu, "
                             "got %zu",
                             by, o->points_per_item);
        if (o->points_per_item > 64)
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "points per item: at most 64, got %zu", o->points_per_item);
    }
    if (o->comm_items != CLS_SOLVER_AUTO && o->comm_items > 1024)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "communication items: at most 1024, got %zu", o->comm_items);
    return CLS_SUCCESS;
}

/* The document's family of block shapes, in the order tried: first more points per item (the
 * divisors of the block height from 2 up, from 1 for an odd height: the block, its exchange
 * and its local memory stay the document's 32x20), then fewer communication items, then
 * narrower blocks.  A compiler that needs many registers per work-item lowers the kernel's
 * work-group limit below the device's (NVIDIA: 256 for the pass on the H100). */
int cls__solver_fit_block(cls_solver_options *o, size_t limit)
{
    static const size_t widths[] = {DOC_BX, 16, 8, 4, 2, 1}, comms[] = {DOC_COMM, 16, 8, 0};
    int auto_bx = o->block[0] == CLS_SOLVER_AUTO, auto_c = o->comm_items == CLS_SOLVER_AUTO;
    int auto_p = o->points_per_item == CLS_SOLVER_AUTO;
    size_t by = o->block[1] == CLS_SOLVER_AUTO ? DOC_BY : o->block[1];
    size_t p0 = by % DOC_PPI ? 1 : DOC_PPI;
    for (size_t w = 0; w < (auto_bx ? COUNT(widths) : 1); w++) {
        size_t bx = auto_bx ? widths[w] : o->block[0];
        for (size_t c = 0; c < (auto_c ? COUNT(comms) : 1); c++) {
            size_t comm = auto_c ? comms[c] : o->comm_items;
            for (size_t p = auto_p ? p0 : o->points_per_item; p <= by; p++) {
                if (by % p) continue;
                if (bx * (by / p) + comm <= limit) {
                    o->block[0] = bx;
                    o->block[1] = by;
                    o->points_per_item = p;
                    o->comm_items = comm;
                    return 0;
                }
                if (!auto_p) break;
            }
        }
    }
    return -1;
}

/* Every block, the short last ones included, must hold its two boundaries apart: at least
 * 2 halo points along each axis (a halo of 0 needs 1). */
static cls_status check_blocks(cls_solver *s)
{
    static const char axis[2] = {'x', 'y'};
    for (int d = 0; d < 2; d++) {
        size_t b = s->opt.block[d], n = s->dims.n[d], h = (size_t)s->halo[d];
        size_t need = h ? 2 * h : 1;
        size_t last = n % b ? n % b : (n < b ? n : b);
        if (b < need)
            return cls__fail(s->ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "block: %zu points along %c cannot hold two boundaries of the "
                             "stencil's halo %zu (need >= %zu)",
                             b, axis[d], h, need);
        if (last < need)
            return cls__fail(s->ctx, CLS_ERR_PLAN_INFEASIBLE,
                             "block: the grid's %zu points along %c leave a last block of %zu, "
                             "less than the %zu its boundaries need; choose a block size that "
                             "divides %zu or leaves at least %zu",
                             n, axis[d], last, need, n, need);
        s->nb[d] = (n + b - 1) / b;
    }
    s->groups = s->nb[0] * s->nb[1];
    if (s->groups > 2147483647u)
        return cls__fail(s->ctx, CLS_ERR_PLAN_INFEASIBLE, "block: %zu blocks exceed 2^31-1",
                         s->groups);
    return CLS_SUCCESS;
}

/* The side of the squares of the square order: the co-resident groups as a square, from the
 * compute units and the groups of the pass that the device model's occupancy rule keeps
 * resident on one (a GPU several, by work-items and local memory; a CPU one per core). */
static size_t default_square(const cls_solver *s)
{
    const cls_device_info *d = &s->ctx->info;
    const cls_model *m = NULL;
    cls_model_occupancy_info occ;
    double per_cu = 1;
    if (cls__context_model(s->ctx, &m) == CLS_SUCCESS &&
        cls_model_occupancy(m, s->wg, 0, d->local_mem_is_global ? 0 : s->local_bytes, &occ) ==
            CLS_SUCCESS &&
        occ.groups_per_cu > 1)
        per_cu = occ.groups_per_cu;
    double resident = (d->compute_units ? (double)d->compute_units : 1) * per_cu;
    size_t side = (size_t)floor(sqrt(resident) + 0.5);
    size_t most = s->nb[0] > s->nb[1] ? s->nb[0] : s->nb[1];
    if (side < 2) side = 2;
    if (side > most) side = most;
    return side ? side : 1;
}

static cls_status check_memory(cls_solver *s)
{
    const cls_device_info *d = &s->ctx->info;
    double grid = (double)s->points * (double)s->elem;
    double total = 2 * grid + grid * (double)s->st->n_aux + (double)s->cols_elems * (double)s->elem;
    if (grid > (double)d->max_alloc_bytes)
        return cls__fail(s->ctx, CLS_ERR_TOO_LARGE,
                         "a %zux%zu grid needs buffers of %.0f bytes; '%s' allows %llu in one "
                         "allocation",
                         s->dims.n[0], s->dims.n[1], grid, d->name,
                         (unsigned long long)d->max_alloc_bytes);
    if (total > (double)d->global_mem_bytes)
        return cls__fail(s->ctx, CLS_ERR_TOO_LARGE,
                         "a %zux%zu grid needs %.0f bytes of device buffers; '%s' has %llu",
                         s->dims.n[0], s->dims.n[1], total, d->name,
                         (unsigned long long)d->global_mem_bytes);
    return CLS_SUCCESS;
}

static cls_status create_kernel(cls_solver *s, const char *name, cl_kernel *k)
{
    cl_int err;
    *k = clCreateKernel(s->program, name, &err);
    if (err != CL_SUCCESS) return cls__fail(s->ctx, (cls_status)err, "creating kernel %s", name);
    return CLS_SUCCESS;
}

/* Generates cl/chaotic.cl for the stencil and the options, builds it and creates the kernels. */
static cls_status build(cls_solver *s)
{
    const cls_solver_options *o = &s->opt;
    char defines[1024], *source = NULL, *options = NULL;
    /* The schedule, the exchange and the block order are kernel arguments: one program serves
     * every variant of a block shape (the comparisons of doc/chaotic.md build once). */
    snprintf(defines, sizeof defines,
             "#define CLS_CHAOTIC 1\n#define CLS_BX %zu\n#define CLS_BY %zu\n#define CLS_PPI %zu\n"
             "#define CLS_WY %zu\n#define CLS_NCOMM %zu\n#define CLS_NBX %zu\n"
             "#define CLS_NBY %zu\n#define CLS_SX %zu\n#define CLS_SY %zu\n"
             "#define CLS_TILE_X %zu\n#define CLS_TILE_Y %zu\n#define CLS_TILE_Z 1\n",
             o->block[0], o->block[1], o->points_per_item, o->block[1] / o->points_per_item,
             o->comm_items, s->nb[0], s->nb[1], s->step_local[0], s->step_local[1],
             o->block[0] + 2 * (size_t)s->halo[0], o->block[1] + 2 * (size_t)s->halo[1]);
    double t0 = cls__now();
    cls_status st = cls__codegen(s->ctx, s->st, s->dims, "chaotic.cl", defines, CLS__UPDATE_TILE,
                                 &source, &options);
    if (st == CLS_SUCCESS)
        st = cls__program_get(s->ctx, source, options, &s->program, &s->from_cache);
    free(source);
    free(options);
    if (st != CLS_SUCCESS) return st;
    s->build_seconds = cls__now() - t0;
    if ((st = create_kernel(s, "cls_chaotic_step", &s->k_step)) != CLS_SUCCESS) return st;
    if ((st = create_kernel(s, "cls_chaotic_reduce", &s->k_reduce)) != CLS_SUCCESS) return st;
    if ((st = create_kernel(s, "cls_chaotic_pass", &s->k_pass)) != CLS_SUCCESS) return st;
    if ((st = create_kernel(s, "cls_chaotic_pack", &s->k_pack)) != CLS_SUCCESS) return st;

    /* The limits the compiled kernels must respect on this device: the pass's work-group
     * limit is checked by the caller (it may choose another block); the step's is fixed. */
    size_t wgmax = 0, stepmax = 0;
    cl_ulong lmem = 0;
    clGetKernelWorkGroupInfo(s->k_pass, s->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgmax,
                             &wgmax, NULL);
    clGetKernelWorkGroupInfo(s->k_step, s->ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                             sizeof stepmax, &stepmax, NULL);
    clGetKernelWorkGroupInfo(s->k_pass, s->ctx->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem,
                             &lmem, NULL);
    s->wg_limit = wgmax ? wgmax : s->wg;
    if (o->max_work_group && o->max_work_group < s->wg_limit) s->wg_limit = o->max_work_group;
    if (stepmax && s->step_local[0] * s->step_local[1] > stepmax)
        return cls__fail(s->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "the synchronous step needs %zux%zu work-items per group; its compiled "
                         "kernel allows %zu on '%s'",
                         s->step_local[0], s->step_local[1], stepmax, s->ctx->info.name);
    if (lmem && s->ctx->info.local_mem_bytes && lmem > s->ctx->info.local_mem_bytes)
        return cls__fail(s->ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "block: the pass needs %llu bytes of local memory, '%s' has %llu",
                         (unsigned long long)lmem, s->ctx->info.name,
                         (unsigned long long)s->ctx->info.local_mem_bytes);
    return CLS_SUCCESS;
}

static void release_kernels(cls_solver *s)
{
    cl_kernel *all[] = {&s->k_step, &s->k_reduce, &s->k_pass, &s->k_pack};
    for (size_t i = 0; i < COUNT(all); i++)
        if (*all[i]) {
            clReleaseKernel(*all[i]);
            *all[i] = NULL;
        }
}

/* The sizes of a solver whose block shape is settled: blocks, work-groups, local memory, the
 * step's work-group and the buffers, checked against the device. */
static cls_status configure(cls_solver *s)
{
    cls_context *ctx = s->ctx;
    cls_status r;
    if ((r = check_blocks(s)) != CLS_SUCCESS) return r;
    /* The pass: computation items plus communication items (idle in a coarse pass); two tiles
     * with the prelude's margin of one halo, and the reduction.  Checked for every schedule:
     * the program holds the pass too. */
    s->wg = s->opt.block[0] * (s->opt.block[1] / s->opt.points_per_item) + s->opt.comm_items;
    size_t pitch_x = s->opt.block[0] + 4 * (size_t)s->halo[0];
    size_t pitch_y = s->opt.block[1] + 4 * (size_t)s->halo[1];
    s->local_bytes = (2 * pitch_x * pitch_y + 3 * s->wg) * s->elem;
    const cls_device_info *d = &ctx->info;
    if (d->max_work_group_size && s->wg > d->max_work_group_size)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "block: %zux%zu with %zu points per item and %zu communication items "
                         "needs %zu work-items per group; '%s' allows %zu",
                         s->opt.block[0], s->opt.block[1], s->opt.points_per_item,
                         s->opt.comm_items, s->wg, d->name, d->max_work_group_size);
    if (d->local_mem_bytes && s->local_bytes > d->local_mem_bytes)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "block: %zux%zu needs %zu bytes of local memory (two tiles with their "
                         "ring, and the reduction); '%s' has %llu",
                         s->opt.block[0], s->opt.block[1], s->local_bytes, d->name,
                         (unsigned long long)d->local_mem_bytes);
    if (s->opt.square == 0) s->opt.square = default_square(s);
    s->cols_elems = s->opt.schedule == CLS_SOLVER_4W_COMBINE
                        ? 2 * (size_t)s->halo[0] * s->nb[0] * s->dims.n[1]
                        : 0;

    /* The synchronous step: rows of 32, up to 8 of them (fewer where groups must be small). */
    size_t wgmax = d->max_work_group_size ? d->max_work_group_size : 256;
    s->step_local[0] = 32;
    s->step_local[1] = wgmax / 32 >= 8 ? 8 : (wgmax / 32 ? wgmax / 32 : 1);
    if (wgmax < 32) s->step_local[0] = wgmax;
    for (int k = 0; k < 2; k++)
        s->step_global[k] =
            (s->dims.n[k] + s->step_local[k] - 1) / s->step_local[k] * s->step_local[k];
    s->step_groups =
        s->step_global[0] / s->step_local[0] * (s->step_global[1] / s->step_local[1]);
    return check_memory(s);
}

cls_status cls_solver_create(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                             const cls_solver_options *opt, cls_solver **out)
{
    cls_solver_options defaults;
    cls_solver *s = NULL;
    cls_status r;
    if (!ctx || !st || !out)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_solver_create: NULL argument");
    *out = NULL;
    cls_solver_options_init(&defaults);
    if (opt && (r = cls__options_read(&defaults, sizeof defaults, opt, "solver")) != CLS_SUCCESS)
        return r;
    opt = &defaults;
    if ((r = cls__stencil_check(st, &dims, 1)) != CLS_SUCCESS) {
        char msg[2048];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(ctx, r, "%s", msg);
    }
    if (cls__stencil_is_system(st))
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                         "the solvers (chaotic relaxation) iterate single-field stencils; '%s' "
                         "is a system of %zu fields",
                         st->name, st->n_fields);
    if (st->dims != 2)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                         "the solvers iterate 2D stencils (images, the document's grids); '%s' "
                         "is %dD",
                         st->name, st->dims);
    for (size_t k = 0; k < st->n_aux; k++)
        if (st->aux[k].per_step)
            return cls__fail(ctx, CLS_ERR_INVALID_SPEC,
                             "'%s': auxiliary array '%s' changes per step; a convergent "
                             "iteration needs a fixed map (no per-step arrays)",
                             st->name, st->aux[k].name);
    if (st->dtype == CLS_FLOAT64 && !ctx->info.double_support)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED, "'%s' has no double precision (cl_khr_fp64)",
                         ctx->info.name);
    if ((r = check_options(opt)) != CLS_SUCCESS) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(ctx, r, "%s", msg);
    }
    if (!(s = calloc(1, sizeof *s)))
        return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating the solver");
    s->ctx = ctx;
    s->dims = dims;
    s->points = cls_dims_points(dims);
    s->elem = cls_dtype_size(st->dtype);
    s->opt = *opt;
    if (s->opt.schedule == CLS_SOLVER_BASE) s->opt.check_interval = 1;
    if ((r = cls_stencil_copy(st, &s->st)) != CLS_SUCCESS) goto fail;
    cls_stencil_halo(s->st, s->halo);
    {
        /* The block shape: its automatic fields first fitted to the device's work-group limit;
         * when the compiled pass allows fewer work-items (register use), fitted again to that
         * and rebuilt (a few rounds: another shape compiles to another limit).  A shape given
         * in full that does not fit is an error. */
        const cls_solver_options req = s->opt;
        int autos = req.block[0] == CLS_SOLVER_AUTO || req.block[1] == CLS_SOLVER_AUTO ||
                    req.points_per_item == CLS_SOLVER_AUTO || req.comm_items == CLS_SOLVER_AUTO;
        size_t cap = ctx->info.max_work_group_size ? ctx->info.max_work_group_size : 1024;
        if (req.max_work_group && req.max_work_group < cap) cap = req.max_work_group;
        for (int round = 0;; round++) {
            s->opt = req;
            if (autos && cls__solver_fit_block(&s->opt, cap) != 0) {
                r = cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                              "block: no shape of the document's family (32x20, 2 points per "
                              "item, 32 communication items, and smaller) with the given fields "
                              "fits %zu work-items per group on '%s'",
                              cap, ctx->info.name);
                goto fail;
            }
            if ((r = configure(s)) != CLS_SUCCESS) goto fail;
            if ((r = build(s)) != CLS_SUCCESS) goto fail;
            /* Base launches the step kernel only: the pass's limit does not concern it. */
            if (s->opt.schedule == CLS_SOLVER_BASE || s->wg <= s->wg_limit) break;
            if (!autos || s->wg_limit >= cap || round >= 4) {
                r = cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                              "block: %zux%zu with %zu points per item needs %zu work-items per "
                              "group (%zu computing + %zu communicating), more than the pass "
                              "kernel's limit of %zu on '%s' (CL_KERNEL_WORK_GROUP_SIZE%s); use "
                              "a smaller block, more points per item or fewer communication "
                              "items, or leave them automatic",
                              s->opt.block[0], s->opt.block[1], s->opt.points_per_item, s->wg,
                              s->wg - s->opt.comm_items, s->opt.comm_items, s->wg_limit,
                              ctx->info.name,
                              s->opt.max_work_group ? ", capped by max_work_group" : "");
                goto fail;
            }
            cap = s->wg_limit;
            release_kernels(s);
        }
    }
    *out = s;
    return CLS_SUCCESS;
fail:
    cls_solver_release(s);
    return r;
}

void cls_solver_release(cls_solver *s)
{
    if (!s) return;
    release_kernels(s);
    cls_stencil_release(s->st);
    free(s);
}

cls_status cls_solver_describe(const cls_solver *s, cls_solver_info *info)
{
    if (!s || !info)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_solver_describe: NULL argument");
    memset(info, 0, sizeof *info);
    info->options = s->opt;
    info->blocks[0] = s->nb[0];
    info->blocks[1] = s->nb[1];
    info->work_group = s->opt.schedule == CLS_SOLVER_BASE ? s->step_local[0] * s->step_local[1]
                                                          : s->wg;
    info->local_bytes = s->opt.schedule == CLS_SOLVER_BASE ? 0 : s->local_bytes;
    info->work_group_limit = s->wg_limit;
    info->from_cache = s->from_cache;
    info->build_seconds = s->build_seconds;
    return CLS_SUCCESS;
}

cls_status cls_solver_run(cls_solver *s, const void *input, const void *const *aux, void *output,
                          cls_solver_report *report)
{
    if (report) memset(report, 0, sizeof *report);
    if (!s || !input || !output)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_solver_run: solver, input and output are required");
    for (size_t k = 0; k < s->st->n_aux; k++)
        if (!aux || !aux[k])
            return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "cls_solver_run: stencil '%s' needs auxiliary array %zu ('%s')",
                             s->st->name, k, s->st->aux[k].name);
    cls_status r = cls__solver_exec(s, input, aux, output, report);
    if (report) {
        cls_solver_describe(s, &report->solver);
        /* An error before an outcome: never reported as converged (outcome 0). */
        if (r != CLS_SUCCESS && r != CLS_ERR_NOT_CONVERGED && r != CLS_ERR_DIVERGED) {
            report->outcome = CLS_SOLVER_FAILED;
            snprintf(report->message, sizeof report->message, "%s", cls_last_error());
        }
    }
    return r;
}

void cls_solver_report_clear(cls_solver_report *r)
{
    if (!r) return;
    free(r->history_steps);
    free(r->history_norms);
    memset(r, 0, sizeof *r);
}
