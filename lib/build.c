/* build.c: what every schedule's build does: generate the source for its template, build it or
 * take it from the program cache, create its kernel, and choose work-groups for kernels of one
 * point per work-item. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

/* A register cap for NVIDIA's compiler (cl_nv_compiler_options: -cl-nv-maxrregcount, passed to
 * ptxas as --maxrregcount): fewer registers per work-item let more work-groups reside on an SM
 * and larger groups launch.  Devices without the option build without a cap. */
static cls_status register_cap(cls_context *ctx, size_t regs, char **options)
{
    size_t len = strlen(*options), cap = len + 1;
    if (cls__appendf(options, &len, &cap, "%s-cl-nv-maxrregcount=%zu", len ? " " : "", regs) != 0)
        return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "build options");
    return CLS_SUCCESS;
}

static cls_status build_kernel(const cls__facts *f, int stage, const char *tmpl,
                               const char *defines, unsigned variants, const char *kernel_name,
                               size_t max_regs, cls__built *b)
{
    cls_context *ctx = f->ctx;
    char *source = NULL, *options = NULL;
    double t0 = cls__now();
    cls__built_release(b);
    b->max_regs = max_regs;
    b->regs_ignored = 0;
    if (max_regs && !cls__device_has_extension(ctx->device, "cl_nv_compiler_options")) {
        b->regs_ignored = max_regs;
        b->max_regs = 0;
    }
    cls_status s = stage < 0 ? cls__codegen(ctx, f->st, f->dims, tmpl, defines, variants,
                                            &source, &options)
                             : cls__codegen_stage(ctx, f->st, f->dims, (size_t)stage, tmpl,
                                                  defines, &source, &options);
    if (s == CLS_SUCCESS && b->max_regs) s = register_cap(ctx, b->max_regs, &options);
    if (s == CLS_SUCCESS) s = cls__program_get(ctx, source, options, &b->program, &b->from_cache);
    if (s == CLS_SUCCESS) {
        cl_int err;
        b->kernel = clCreateKernel(b->program, kernel_name, &err);
        if (err != CL_SUCCESS)
            s = cls__fail(ctx, (cls_status)err, "creating kernel %s", kernel_name);
    }
    b->build_seconds = cls__now() - t0;
    free(source);
    free(options);
    return s;
}

cls_status cls__build_kernel(const cls__facts *f, const char *tmpl, const char *defines,
                             unsigned variants, const char *kernel_name, size_t max_regs,
                             cls__built *b)
{
    return build_kernel(f, -1, tmpl, defines, variants, kernel_name, max_regs, b);
}

cls_status cls__build_stage_kernel(const cls__facts *f, size_t stage, const char *tmpl,
                                   const char *defines, const char *kernel_name,
                                   size_t max_regs, cls__built *b)
{
    return build_kernel(f, (int)stage, tmpl, defines, 0, kernel_name, max_regs, b);
}

void cls__built_release(cls__built *b)
{
    if (b->kernel) clReleaseKernel(b->kernel);
    b->kernel = NULL;
    b->program = NULL;
}

size_t cls__kernel_wg_limit(cls_context *ctx, cl_kernel k)
{
    size_t kmax = 0;
    if (clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                 NULL) != CL_SUCCESS)
        return 0;
    return kmax;
}

static size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

/* The shape comes from the device model's tuning: the work-items a group aims at and the
 * longest row per dimensionality (doc/devices.md, "Tuning"). */
void cls__choose_local_size(const cls__facts *f, cl_kernel kernel, size_t x_per_item,
                            int row_in_points, size_t local[3])
{
    const cls_device_info *d = f->dev;
    size_t wgmax = d->max_work_group_size, pref = 1;
    clGetKernelWorkGroupInfo(kernel, f->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgmax,
                             &wgmax, NULL);
    clGetKernelWorkGroupInfo(kernel, f->ctx->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                             sizeof pref, &pref, NULL);
    if (pref == 0) pref = 1;
    if (wgmax == 0) wgmax = 1;
    int dims = f->st->dims;
    static const char *const items_key[3] = {"tuning.group_items_1d", "tuning.group_items_2d",
                                             "tuning.group_items_3d"};
    static const char *const row_key[3] = {"tuning.group_row_1d", "tuning.group_row_2d",
                                           "tuning.group_row_3d"};
    size_t target = (size_t)cls__facts_model(f, items_key[dims - 1]);
    size_t lx_cap = (size_t)cls__facts_model(f, row_key[dims - 1]);
    if (!target) target = 256;
    if (target > wgmax) target = wgmax;
    if (!lx_cap || lx_cap > target) lx_cap = target;
    if (x_per_item < 1) x_per_item = 1;
    if (row_in_points) lx_cap = lx_cap / x_per_item ? lx_cap / x_per_item : 1;
    size_t lx = round_up((f->dims.n[0] + x_per_item - 1) / x_per_item, pref);
    if (lx > lx_cap) lx = lx_cap;
    if (d->max_work_item_sizes[0] && lx > d->max_work_item_sizes[0]) lx = d->max_work_item_sizes[0];
    size_t ly = 1, lz = 1;
    if (dims >= 2) {
        ly = target / lx;
        while (ly > 1 && ly / 2 >= f->dims.n[1]) ly /= 2;
        if (d->max_work_item_sizes[1] && ly > d->max_work_item_sizes[1]) ly = d->max_work_item_sizes[1];
        if (ly < 1) ly = 1;
    }
    if (dims >= 3) {
        lz = target / (lx * ly);
        while (lz > 1 && lz / 2 >= f->dims.n[2]) lz /= 2;
        if (d->max_work_item_sizes[2] && lz > d->max_work_item_sizes[2]) lz = d->max_work_item_sizes[2];
        if (lz < 1) lz = 1;
    }
    local[0] = lx;
    local[1] = ly;
    local[2] = lz;
}
