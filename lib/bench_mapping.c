/* bench_mapping.c: times the kernels of cl/mapping_bench.cl, the measured side of the CuMAPz
 * correlation experiment (Kim & Shrivastava, Sect. 6: "we measured the execution time of
 * each mapping variant"; `clstencil analyze --measure`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_bench.h"
#include "internal.h"

cls_status cls_bench_mapping(cls_context *ctx, const cls_mapping_launch *l, double *min_seconds,
                             double *median_seconds)
{
    cls_status st = CLS_SUCCESS;
    const char *src = NULL;
    int owned = 0;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem in = NULL, out = NULL;
    cl_event ev = NULL;
    double *times = NULL;
    cl_int err;

    if (!ctx || !l || !l->kernel || !min_seconds || !median_seconds)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_bench_mapping: NULL argument");
    *min_seconds = *median_seconds = 0;
    if (l->reps < 1 || l->reps > 100000)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_bench_mapping: reps is %zu; 1..100000 timed launches", l->reps);
    for (int d = 0; d < 2; d++)
        if (!l->local[d] || !l->global[d] || l->global[d] % l->local[d])
            return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                             "%s: global size %zu along %c is not a positive multiple of the "
                             "work-group's %zu",
                             l->kernel, l->global[d], "xy"[d], l->local[d]);
    if (l->local[0] * l->local[1] > ctx->info.max_work_group_size)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "%s: work-groups of %zux%zu exceed the %zu work-items of '%s'",
                         l->kernel, l->local[0], l->local[1], ctx->info.max_work_group_size,
                         ctx->info.name);
    if (!l->in_bytes || !l->out_bytes || l->in_bytes > ctx->info.max_alloc_bytes ||
        l->out_bytes > ctx->info.max_alloc_bytes ||
        l->in_bytes + l->out_bytes > ctx->info.global_mem_bytes)
        return cls__fail(ctx, CLS_ERR_TOO_LARGE,
                         "%s: buffers of %zu and %zu bytes; '%s' allows %llu in one allocation, "
                         "%llu in all",
                         l->kernel, l->in_bytes, l->out_bytes, ctx->info.name,
                         (unsigned long long)ctx->info.max_alloc_bytes,
                         (unsigned long long)ctx->info.global_mem_bytes);
    if (!(src = cls__kernel_source("mapping_bench.cl", &owned))) {
        char *why = cls__strdup(cls_last_error());
        st = cls__fail(ctx, CLS_ERR_IO, "%s", why ? why : "cannot load mapping_bench.cl");
        free(why);
        return st;
    }
    if ((st = cls__program_get(ctx, src, l->options ? l->options : "", &prog, NULL)) !=
        CLS_SUCCESS)
        goto fail;
    k = clCreateKernel(prog, l->kernel, &err);
    CLS__CHECK_CL(ctx, st, err, "creating a kernel of mapping_bench.cl");
    in = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, l->in_bytes, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the benchmark's input");
    out = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, l->out_bytes, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the benchmark's output");
    {
        const float one = 1.0f;
        err = clEnqueueFillBuffer(ctx->queue, in, &one, sizeof one, 0, l->in_bytes, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, out, &one, sizeof one, 0, l->out_bytes, 0, NULL,
                                      NULL);
        CLS__CHECK_CL(ctx, st, err, "initialising the benchmark's buffers");
    }
    err = clSetKernelArg(k, 0, sizeof in, &in);
    if (err == CL_SUCCESS) err = clSetKernelArg(k, 1, sizeof out, &out);
    for (cl_uint i = 0; err == CL_SUCCESS && i < 3; i++)
        err = clSetKernelArg(k, 2 + i, sizeof(cl_int), &l->args[i]);
    CLS__CHECK_CL(ctx, st, err, "setting the benchmark kernel's arguments");
    if (!(times = malloc(l->reps * sizeof *times)))
        CLS__GOTO_FAIL(ctx, st, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating %zu timings", l->reps);
    /* One untimed launch first (Kim & Shrivastava run a dummy kernel before measuring, Sect. 6). */
    for (long r = -1; r < (long)l->reps; r++) {
        err = clEnqueueNDRangeKernel(ctx->queue, k, 2, NULL, l->global, l->local, 0, NULL, &ev);
        if (err != CL_SUCCESS)
            CLS__GOTO_FAIL(ctx, st, (cls_status)err,
                           "launching %s (%zux%zu work-items in groups of %zux%zu) failed",
                           l->kernel, l->global[0], l->global[1], l->local[0], l->local[1]);
        CLS__CHECK_CL(ctx, st, clWaitForEvents(1, &ev), "waiting for a benchmark kernel");
        if (r >= 0)
            CLS__CHECK_CL(ctx, st, cls__event_seconds(ev, &times[r]),
                          "reading a benchmark kernel's profiling times");
        clReleaseEvent(ev);
        ev = NULL;
    }
    *median_seconds = cls__median(times, l->reps);
    *min_seconds = times[0];
fail:
    if (ev) clReleaseEvent(ev);
    free(times);
    if (k) clReleaseKernel(k);
    if (in) clReleaseMemObject(in);
    if (out) clReleaseMemObject(out);
    if (owned) free((void *)src);
    return st;
}
