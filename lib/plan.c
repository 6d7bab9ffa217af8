/* plan.c: the planner: validates a run against the device, picks the schedule and its
 * parameters, generates and builds the program, and dispatches runs to the executors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "access_publish.h"

static const char *const schedule_names[] = {"auto", "naive", "trapezoid", "stream25d"};
#define N_SCHEDULES (sizeof schedule_names / sizeof schedule_names[0])

const char *cls_schedule_name(cls_schedule s)
{
    return (size_t)s < N_SCHEDULES ? schedule_names[s] : "unknown";
}

cls_status cls_schedule_from_name(const char *name, cls_schedule *s)
{
    for (size_t i = 0; name && i < N_SCHEDULES; i++)
        if (!strcmp(name, schedule_names[i])) {
            *s = (cls_schedule)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                     "unknown schedule '%s' (auto, naive, trapezoid, stream25d)",
                     name ? name : "(null)");
}

static const char *const sync_names[] = {"auto", "restart", "barrier"};

const char *cls_sync_name(cls_sync s) { return (size_t)s < 3 ? sync_names[s] : "unknown"; }

cls_status cls_sync_from_name(const char *name, cls_sync *s)
{
    for (size_t i = 0; name && i < 3; i++)
        if (!strcmp(name, sync_names[i])) {
            *s = (cls_sync)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                     "unknown synchronisation '%s' (auto, restart, barrier)", name ? name : "(null)");
}

void cls_plan_options_init(cls_plan_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->schedule = CLS_SCHEDULE_AUTO;
}

static size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

size_t cls__default_points_per_item(cls_context *ctx, const cls_stencil *st, cls_dims dims)
{
    /* CPUs: whole rows (split in 1D so that every core gets work). */
    if (ctx->info.type == CLS_DEVICE_CPU)
        return st->dims == 1 ? (dims.n[0] < 4096 ? dims.n[0] : 4096)
                             : (dims.n[0] < 16384 ? dims.n[0] : 16384);
    if (ctx->info.type != CLS_DEVICE_GPU || st->dims < 2) return 1;
    /* Measured on an H100 (doc/benchmarks.md, naive sweep): a column of 4 points per item lets
     * the neighbours along the slowest axis come from registers and L1: heat3d7 512^3 float
     * 230 -> 303 GPoints/s, poisson2d 8192^2 float 216 -> 254.  2D double peaks at 1-2. */
    return st->dims == 2 && st->dtype == CLS_FLOAT64 ? 2 : 4;
}

/* Human-readable byte counts for limit messages. */
static const char *fmt_bytes(char *buf, size_t n, double b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) b /= 1024, u++;
    snprintf(buf, n, "%.1f %s", b, unit[u]);
    return buf;
}

/* Every buffer must fit one allocation and all of them the device's memory. */
static cls_status check_memory(cls_plan *p)
{
    const cls_device_info *d = &p->ctx->info;
    double grid = (double)p->points * (double)p->elem;
    double total = 2 * grid, largest = grid;
    for (size_t k = 0; k < p->st->n_aux; k++) {
        double a = p->st->aux[k].per_step ? grid * (double)p->steps : grid;
        total += a;
        if (a > largest) largest = a;
    }
    char b1[32], b2[32], b3[32];
    if (largest > (double)d->max_alloc_bytes)
        return cls__fail(p->ctx, CLS_ERR_TOO_LARGE,
                         "a %zux%zux%zu %s grid needs a buffer of %s; '%s' allows at most %s in "
                         "one allocation (use a smaller grid or a device with more memory)",
                         p->dims.n[0], p->dims.n[1], p->dims.n[2],
                         p->elem == 8 ? "double" : "float", fmt_bytes(b1, sizeof b1, largest),
                         d->name, fmt_bytes(b2, sizeof b2, (double)d->max_alloc_bytes));
    if (total > (double)d->global_mem_bytes)
        return cls__fail(p->ctx, CLS_ERR_TOO_LARGE,
                         "a %zux%zux%zu %s grid needs %s of device buffers; '%s' has %s of "
                         "global memory (largest buffer %s)",
                         p->dims.n[0], p->dims.n[1], p->dims.n[2],
                         p->elem == 8 ? "double" : "float", fmt_bytes(b1, sizeof b1, total),
                         d->name, fmt_bytes(b2, sizeof b2, (double)d->global_mem_bytes),
                         fmt_bytes(b3, sizeof b3, largest));
    return CLS_SUCCESS;
}

void cls__choose_local_size(cls_plan *p, cl_kernel kernel, size_t local[3])
{
    const cls_device_info *d = &p->ctx->info;
    size_t wgmax = d->max_work_group_size, pref = 1;
    clGetKernelWorkGroupInfo(kernel, p->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgmax,
                             &wgmax, NULL);
    clGetKernelWorkGroupInfo(kernel, p->ctx->device,
                             CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof pref, &pref,
                             NULL);
    if (pref == 0) pref = 1;
    if (wgmax == 0) wgmax = 1;
    int dims = p->st->dims;
    size_t target, lx_cap;
    if (d->type == CLS_DEVICE_CPU) {
        /* CPUs (PoCL) run a work-group as one vectorised loop nest: long rows, few groups. */
        target = wgmax < 1024 ? wgmax : 1024;
        lx_cap = target;
    } else {
        /* GPUs: a few warps per group, rows of whole coalesced segments; 3D grids do best with
         * 64x2 groups (H100 sweep in doc/benchmarks.md), 2D with 128x2. */
        target = wgmax < 256 ? wgmax : 256;
        if (dims == 3 && target > 128) target = 128;
        lx_cap = dims == 1 ? target : dims == 3 ? 64 : 128;
    }
    size_t lx = round_up(p->dims.n[0], pref);
    if (lx > lx_cap) lx = lx_cap;
    if (lx > d->max_work_item_sizes[0] && d->max_work_item_sizes[0]) lx = d->max_work_item_sizes[0];
    if (lx > target) lx = target;
    size_t ly = 1, lz = 1;
    if (dims >= 2) {
        ly = target / lx;
        while (ly > 1 && ly / 2 >= p->dims.n[1]) ly /= 2;
        if (d->max_work_item_sizes[1] && ly > d->max_work_item_sizes[1]) ly = d->max_work_item_sizes[1];
        if (ly < 1) ly = 1;
    }
    if (dims >= 3) {
        lz = target / (lx * ly);
        while (lz > 1 && lz / 2 >= p->dims.n[2]) lz /= 2;
        if (d->max_work_item_sizes[2] && lz > d->max_work_item_sizes[2]) lz = d->max_work_item_sizes[2];
        if (lz < 1) lz = 1;
    }
    local[0] = lx;
    local[1] = ly;
    local[2] = lz;
}

static cls_status user_local_size(cls_plan *p, const size_t req[3])
{
    const cls_device_info *d = &p->ctx->info;
    size_t wgmax = d->max_work_group_size, prod = 1;
    clGetKernelWorkGroupInfo(p->kernel, p->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgmax,
                             &wgmax, NULL);
    for (int i = 0; i < 3; i++) {
        size_t l = req[i] ? req[i] : 1;
        if (i >= p->st->dims && l != 1)
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "local size: a %d-D stencil takes %d work-group sizes", p->st->dims,
                             p->st->dims);
        if (d->max_work_item_sizes[i] && l > d->max_work_item_sizes[i])
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "local size: %zu in dimension %d exceeds the device's %zu", l, i,
                             d->max_work_item_sizes[i]);
        p->local[i] = l;
        prod *= l;
    }
    if (prod > wgmax)
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "local size: %zu work-items per group exceed this kernel's limit of %zu "
                         "on '%s'",
                         prod, wgmax, d->name);
    return CLS_SUCCESS;
}

/* A register cap for NVIDIA's compiler (cl_nv_compiler_options: -cl-nv-maxrregcount, passed to
 * ptxas as --maxrregcount): fewer registers per work-item let more work-groups reside on an SM
 * and larger groups launch.  Devices without the option build without a cap; why says so. */
static cls_status register_cap(cls_plan *p, char **options)
{
    if (!cls__device_has_extension(p->ctx->device, "cl_nv_compiler_options")) {
        p->regs_ignored = p->max_regs;
        p->max_regs = 0;
        return CLS_SUCCESS;
    }
    size_t len = strlen(*options), cap = len + 1;
    if (cls__appendf(options, &len, &cap, "%s-cl-nv-maxrregcount=%zu", len ? " " : "",
                     p->max_regs) != 0)
        return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "build options");
    return CLS_SUCCESS;
}

/* Generates the schedule's source, builds it (or takes it from the cache) and creates its
 * kernel. */
static cls_status build_kernel(cls_plan *p, const char *tmpl, const char *defines,
                               const char *kernel)
{
    char *source = NULL, *options = NULL;
    double t0 = cls__now();
    cls_status s = cls__codegen(p->ctx, p->st, p->dims, tmpl, defines, &source, &options);
    if (s == CLS_SUCCESS && p->max_regs) s = register_cap(p, &options);
    if (s == CLS_SUCCESS)
        s = cls__program_get(p->ctx, source, options, &p->program, &p->from_cache);
    if (s == CLS_SUCCESS) {
        cl_int err;
        p->kernel = clCreateKernel(p->program, kernel, &err);
        if (err != CL_SUCCESS) s = cls__fail(p->ctx, (cls_status)err, "creating kernel %s", kernel);
    }
    p->build_seconds = cls__now() - t0;
    free(source);
    free(options);
    return s;
}

cls_status cls__build_kernel(cls_plan *p, const char *tmpl, const char *defines,
                             const char *kernel)
{
    return build_kernel(p, tmpl, defines, kernel);
}

/* The row kernel's vector length (cl/naive_rows.cl): the device's preferred vector width for
 * the element type, which the compiler's vectorisation factor divides; 16 when the driver
 * does not say. */
static unsigned row_vector_width(cls_context *ctx, const cls_stencil *st)
{
    cl_uint w = 0;
    cl_device_info what = st->dtype == CLS_FLOAT64 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
                                                        : CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT;
    if (clGetDeviceInfo(ctx->device, what, sizeof w, &w, NULL) != CL_SUCCESS || w == 0) w = 16;
    return w > 64 ? 64 : w;
}

/* Rows per work-item of the row kernel in 2D and 3D: 8, one work-group each, so that the
 * kernel's own row loop replaces PoCL's work-item loop, which kept some twenty pointers per
 * row live across it and spilled them (callgrind, heat3d7 64^3: 113.7 -> 88.7 million
 * instructions in the kernel).  Fewer where 8 would leave under four work-items per compute
 * unit. */
static size_t cpu_item_rows(cls_context *ctx, const cls_stencil *st, cls_dims dims)
{
    if (st->dims < 2) return 1;
    size_t rows = dims.n[1] * (st->dims > 2 ? dims.n[2] : 1);
    size_t items = 4 * (ctx->info.compute_units ? ctx->info.compute_units : 1);
    size_t r = 8;
    while (r > 1 && rows / r < items) r /= 2;
    return r < dims.n[1] ? r : dims.n[1];
}

cls_status cls__plan_naive(cls_plan *p, const cls_plan_options *opt)
{
    cls_context *ctx = p->ctx;
    cls_status s;
    /* CPUs get the row kernel (a vectorisable loop along x per work-item); other devices the
     * one-point (or short column) per work-item kernel. */
    p->rows = ctx->info.type == CLS_DEVICE_CPU;
    int axis = p->rows ? 0 : p->st->dims - 1;
    p->per_item = opt->points_per_item;
    if (p->per_item == 0) p->per_item = cls__default_points_per_item(ctx, p->st, p->dims);
    if (!p->rows && axis == 0) p->per_item = 1;
    if (p->per_item > p->dims.n[axis]) p->per_item = p->dims.n[axis];
    if (p->per_item > (p->rows ? (size_t)1 << 20 : 1024))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "points per item: at most %d, got %zu",
                         p->rows ? 1 << 20 : 1024, opt->points_per_item);
    char defines[160];
    p->item_rows = p->rows ? cpu_item_rows(ctx, p->st, p->dims) : 1;
    if (p->rows)
        snprintf(defines, sizeof defines,
                 "#define CLS_NAIVE_ROWS 1\n#define CLS_ROW_LEN %zu\n#define CLS_ROW_VEC %u\n"
                 "#define CLS_ITEM_ROWS %zu",
                 p->per_item, row_vector_width(ctx, p->st), p->item_rows);
    else
        snprintf(defines, sizeof defines, "#define CLS_PER_ITEM %zu", p->per_item);
    if ((s = build_kernel(p, p->rows ? "naive_rows.cl" : "naive.cl", defines, "cls_naive")) !=
        CLS_SUCCESS)
        return s;

    if (opt->local_size[0] || opt->local_size[1] || opt->local_size[2]) {
        if ((s = user_local_size(p, opt->local_size)) != CLS_SUCCESS) return s;
    } else if (p->rows) {
        /* A few rows per work-group: each row is already a long vector loop; with several
         * rows per work-item, one item per group. */
        size_t rows_axis = p->st->dims == 1 ? 0 : 1;
        size_t n = rows_axis == 0 ? (p->dims.n[0] + p->per_item - 1) / p->per_item : p->dims.n[1];
        p->local[0] = p->local[1] = p->local[2] = 1;
        if (p->item_rows <= 1) p->local[rows_axis] = n < 8 ? n : 8;
    } else {
        cls__choose_local_size(p, p->kernel, p->local);
    }
    for (int i = 0; i < 3; i++) {
        size_t n = i == axis ? (p->dims.n[i] + p->per_item - 1) / p->per_item : p->dims.n[i];
        if (i == 1) n = (n + p->item_rows - 1) / p->item_rows; /* 1 but for CPU rows */
        p->global[i] = round_up(n, p->local[i]);
    }
    return CLS_SUCCESS;
}

cls_status cls_plan_create(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                           const cls_plan_options *opt, cls_plan **out)
{
    cls_plan_options defaults;
    cls_plan *p = NULL;
    cls_status s;
    if (!ctx || !st || !out)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_plan_create: NULL argument");
    *out = NULL;
    if (!opt) {
        cls_plan_options_init(&defaults);
        opt = &defaults;
    }
    if ((s = cls__stencil_check(st, &dims, steps)) != CLS_SUCCESS) {
        char msg[2048];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(ctx, s, "%s", msg);
    }
    if (st->dtype == CLS_FLOAT64 && !ctx->info.double_support)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED, "'%s' has no double precision (cl_khr_fp64)",
                         ctx->info.name);
    if (steps > 2147483647u)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "steps: at most 2^31-1, got %zu", steps);
    /* ptxas takes caps from 16 (below that no kernel compiles) to the 255 of the ISA. */
    if (opt->max_registers && (opt->max_registers < 16 || opt->max_registers > 255))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "max registers: 16 to 255 per work-item, got %zu", opt->max_registers);
    if (!(p = calloc(1, sizeof *p))) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "plan");
    p->ctx = ctx;
    p->max_regs = opt->max_registers;
    p->release_buffers = opt->release_buffers != 0;
    p->dims = dims;
    p->steps = steps;
    p->points = cls_dims_points(dims);
    p->elem = cls_dtype_size(st->dtype);
    if ((s = cls_stencil_copy(st, &p->st)) != CLS_SUCCESS) goto fail;
    /* A grid above the device's memory may still run tile by tile (lib/plan_pipeline.c). */
    char resident_error[1024] = "";
    if (check_memory(p) != CLS_SUCCESS) {
        if (opt->pipeline == CLS_PIPELINE_OFF) {
            s = CLS_ERR_TOO_LARGE;
            goto fail;
        }
        snprintf(resident_error, sizeof resident_error, "%s", cls_last_error());
    }

    switch (opt->schedule) {
    case CLS_SCHEDULE_AUTO:
        s = cls__plan_auto(p, opt); /* lib/tune.c: naive or trapezoid by predicted time */
        break;
    case CLS_SCHEDULE_NAIVE:
        p->schedule = CLS_SCHEDULE_NAIVE;
        s = cls__plan_naive(p, opt);
        break;
    case CLS_SCHEDULE_TRAPEZOID:
        p->schedule = CLS_SCHEDULE_TRAPEZOID;
        s = cls__plan_trapezoid(p, opt); /* lib/plan_trapezoid.c */
        break;
    case CLS_SCHEDULE_STREAM25D:
        p->schedule = CLS_SCHEDULE_STREAM25D;
        s = cls__plan_stream25d(p, opt);
        break;
    default:
        s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "unknown schedule %d", (int)opt->schedule);
    }
    if (s != CLS_SUCCESS) goto fail;
    if (p->regs_ignored) {
        size_t n = strlen(p->why);
        if (n + 1 < sizeof p->why)
            snprintf(p->why + n, sizeof p->why - n,
                     "%sregister cap %zu ignored: the device has no cl_nv_compiler_options",
                     n ? "; " : "", p->regs_ignored);
    }
    cls__mapping_rank_note(p); /* lib/access_publish.c: CuMAPz rank of the mapping, in why */
    s = cls__plan_pipeline(p, opt, resident_error[0] ? resident_error : NULL);
    if (s != CLS_SUCCESS) goto fail;
    *out = p;
    return CLS_SUCCESS;
fail:
    cls_plan_release(p);
    return s;
}

void cls_plan_release_buffers(cls_plan *p)
{
    if (!p) return;
    cls__dev_grid_release(&p->kept);
    if (p->pipe) cls__pipe_bufs_release(p->pipe);
}

void cls_plan_release(cls_plan *p)
{
    if (!p) return;
    cls_plan_release_buffers(p);
    if (p->kernel) clReleaseKernel(p->kernel);
    cls__pipe_release(p->pipe);
    cls_stencil_release(p->st);
    free(p);
}

cls_status cls_plan_describe(const cls_plan *p, cls_plan_info *info)
{
    if (!p || !info) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_plan_describe: NULL");
    memset(info, 0, sizeof *info);
    info->schedule = p->schedule;
    memcpy(info->local_size, p->local, sizeof p->local);
    memcpy(info->global_size, p->global, sizeof p->global);
    info->points_per_item = p->per_item;
    info->trapezoid_height = p->h;
    info->sync = p->sync;
    info->resident_groups = p->groups;
    info->loader = p->loader;
    info->prefetch = p->prefetch;
    info->rows_per_item = p->item_rows;
    info->steps_per_pass = p->steps_per_pass;
    info->max_registers = p->max_regs;
    info->from_cache = p->from_cache;
    info->build_seconds = p->build_seconds;
    memcpy(info->tile, p->tile, sizeof p->tile);
    info->predicted_seconds = p->predicted_seconds;
    info->predicted_naive_seconds = p->predicted_naive;
    info->predicted_trapezoid_seconds = p->predicted_trapezoid;
    snprintf(info->why, sizeof info->why, "%s", p->why);
    cls__pipe_describe(p, info); /* lib/plan_pipeline.c */
    return CLS_SUCCESS;
}

cls_status cls_plan_set_progress(cls_plan *p, cls_progress_fn fn, void *user)
{
    if (!p) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_plan_set_progress: NULL plan");
    p->progress = fn;
    p->progress_user = user;
    return CLS_SUCCESS;
}

cls_status cls_plan_run(cls_plan *p, const void *input, const void *const *aux, void *output,
                        cls_report *report)
{
    if (!p || !input || !output)
        return cls__fail(p ? p->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_plan_run: plan, input and output are required");
    for (size_t k = 0; k < p->st->n_aux; k++)
        if (!aux || !aux[k])
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "cls_plan_run: stencil '%s' needs auxiliary array %zu ('%s')",
                             p->st->name, k, p->st->aux[k].name);
    if (report) memset(report, 0, sizeof *report);
    if (p->pipe) return cls__exec_pipeline(p, input, aux, output, report);
    if (report) report->predicted_total_seconds = p->predicted_copy;
    if (p->schedule == CLS_SCHEDULE_TRAPEZOID)
        return cls__exec_trapezoid(p, input, aux, output, report);
    if (p->schedule == CLS_SCHEDULE_STREAM25D)
        return cls__exec_stream25d(p, input, aux, output, report);
    return cls__exec_naive(p, input, aux, output, report);
}
