/* bench_copy.c: times the device-to-device copy kernel (cl/copy.cl), the bandwidth yardstick. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Bytes each work-item of cl/copy.cl moves (its CLS_COPY_VEC elements). */
#define CLS__COPY_VEC_BYTES 16
/* Elements checked at each end of the copy. */
#define CLS__COPY_EDGE 4096

cls_status cls_bench_copy(cls_context *ctx, cls_dtype dtype, size_t bytes, size_t reps,
                          double *seconds)
{
    cls_status st = CLS_SUCCESS;
    const char *src_text = NULL;
    int owned = 0;
    cl_program prog = NULL;
    cl_kernel kernel = NULL;
    cl_mem src = NULL, dst = NULL;
    cl_event ev = NULL;
    double *times = NULL;
    void *marks = NULL;
    size_t head = 0, tail = 0, items = 0;
    cl_int err = CL_SUCCESS;

    if (seconds) *seconds = 0;
    if (!ctx || !seconds)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_bench_copy: %s is NULL",
                         ctx ? "seconds" : "ctx");
    if (dtype != CLS_FLOAT32 && dtype != CLS_FLOAT64)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_bench_copy: unknown dtype %d",
                         (int)dtype);
    if (reps < 1 || reps > 1000000)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_bench_copy: reps is %zu; 1..1000000 timed launches", reps);
    const size_t esize = cls_dtype_size(dtype);
    if (bytes < esize)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_bench_copy: %zu bytes is less than one element (%zu bytes)", bytes,
                         esize);
    const size_t n = bytes / esize;
    bytes = n * esize;
    if (dtype == CLS_FLOAT64 && !ctx->info.double_support)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                         "%s has no double precision (cl_khr_fp64); benchmark float32 instead",
                         ctx->info.name);
    if ((uint64_t)bytes > ctx->info.max_alloc_bytes)
        return cls__fail(ctx, CLS_ERR_TOO_LARGE,
                         "copy buffers of %zu bytes exceed the largest allocation of %s "
                         "(CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes); use a smaller size",
                         bytes, ctx->info.name, (unsigned long long)ctx->info.max_alloc_bytes);
    if ((uint64_t)bytes > ctx->info.global_mem_bytes / 2)
        return cls__fail(ctx, CLS_ERR_TOO_LARGE,
                         "two copy buffers of %zu bytes exceed the global memory of %s "
                         "(CL_DEVICE_GLOBAL_MEM_SIZE = %llu bytes); use at most half of it",
                         bytes, ctx->info.name, (unsigned long long)ctx->info.global_mem_bytes);

    src_text = cls__kernel_source("copy.cl", &owned);
    if (!src_text) {
        /* cls__kernel_source recorded the reason; copy it onto the context too. */
        char *why = cls__strdup(cls_last_error());
        st = cls__fail(ctx, CLS_ERR_IO, "%s", why ? why : "cannot load copy.cl");
        free(why);
        goto fail;
    }
    st = cls__program_get(ctx, src_text,
                          dtype == CLS_FLOAT64 ? "-D real=double -D CLS_FP64" : "-D real=float",
                          &prog, NULL);
    if (st != CLS_SUCCESS) goto fail;

    kernel = clCreateKernel(prog, "cls_copy", &err);
    CLS__CHECK_CL(ctx, st, err, "clCreateKernel(cls_copy) failed");

    src = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        CLS__GOTO_FAIL(ctx, st, (cls_status)err,
                       "clCreateBuffer of %zu bytes (copy source) failed on %s; try a smaller size",
                       bytes, ctx->info.name);
    dst = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        CLS__GOTO_FAIL(ctx, st, (cls_status)err,
                       "clCreateBuffer of %zu bytes (copy destination) failed on %s; try a "
                       "smaller size",
                       bytes, ctx->info.name);
    {
        const float f = 1.0f;
        const double d = 1.0;
        const void *pattern = dtype == CLS_FLOAT64 ? (const void *)&d : (const void *)&f;
        CLS__CHECK_CL(ctx, st,
                      clEnqueueFillBuffer(ctx->queue, src, pattern, esize, 0, bytes, 0, NULL, NULL),
                      "clEnqueueFillBuffer (initialising the copy source) failed");
    }
    /* Distinct values at both ends of the source, where a wrong vector index or a lost tail
     * element shows; checked after the timed copies.  The ends do not overlap. */
    head = n < CLS__COPY_EDGE ? n : CLS__COPY_EDGE;
    tail = n - head < CLS__COPY_EDGE ? n - head : CLS__COPY_EDGE;
    marks = malloc(2 * (head + tail) * esize);
    if (!marks) CLS__GOTO_FAIL(ctx, st, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating the copy check");
    for (size_t i = 0; i < head + tail; i++) {
        if (dtype == CLS_FLOAT64)
            ((double *)marks)[i] = (double)i + 2.0;
        else
            ((float *)marks)[i] = (float)i + 2.0f;
    }
    CLS__CHECK_CL(ctx, st,
                  clEnqueueWriteBuffer(ctx->queue, src, CL_TRUE, 0, head * esize, marks, 0, NULL,
                                       NULL),
                  "clEnqueueWriteBuffer (marking the copy source) failed");
    if (tail)
        CLS__CHECK_CL(ctx, st,
                      clEnqueueWriteBuffer(ctx->queue, src, CL_TRUE, (n - tail) * esize,
                                           tail * esize, (char *)marks + head * esize, 0, NULL,
                                           NULL),
                      "clEnqueueWriteBuffer (marking the copy source) failed");

    cl_ulong n_arg = (cl_ulong)n;
    CLS__CHECK_CL(ctx, st, clSetKernelArg(kernel, 0, sizeof src, &src), "clSetKernelArg(src) failed");
    CLS__CHECK_CL(ctx, st, clSetKernelArg(kernel, 1, sizeof dst, &dst), "clSetKernelArg(dst) failed");
    CLS__CHECK_CL(ctx, st, clSetKernelArg(kernel, 2, sizeof n_arg, &n_arg),
                  "clSetKernelArg(n) failed");

    /* Work-group size: CPUs let the driver choose; others take a multiple of the preferred
     * size, 256 where the kernel allows it. */
    const size_t vec = CLS__COPY_VEC_BYTES / esize;
    items = n / vec + n % vec;
    size_t local = 0, global = items;
    if (ctx->info.type != CLS_DEVICE_CPU) {
        size_t kwg = 0, pref = 0;
        CLS__CHECK_CL(ctx, st,
                      clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                               sizeof kwg, &kwg, NULL),
                      "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE) failed");
        CLS__CHECK_CL(ctx, st,
                      clGetKernelWorkGroupInfo(kernel, ctx->device,
                                               CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                               sizeof pref, &pref, NULL),
                      "clGetKernelWorkGroupInfo(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) failed");
        local = 256;
        if (kwg > 0 && local > kwg) local = kwg;
        if (local > ctx->info.max_work_item_sizes[0]) local = ctx->info.max_work_item_sizes[0];
        if (pref > 0 && local >= pref) local = local / pref * pref;
        if (local == 0) local = 1;
        if (items > SIZE_MAX - local)
            CLS__GOTO_FAIL(ctx, st, CLS_ERR_TOO_LARGE, "copy of %zu elements is too large", n);
        global = (items + local - 1) / local * local;
    }
    cls__debug("bench copy: %zu bytes, global %zu, local %zu%s", bytes, global, local,
               local ? "" : " (driver's choice)");

    times = malloc(reps * sizeof *times);
    if (!times) CLS__GOTO_FAIL(ctx, st, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating %zu timings", reps);

    for (long r = -1; r < (long)reps; r++) { /* r == -1: the warm-up */
        CLS__CHECK_CL(ctx, st,
                      clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global,
                                             local ? &local : NULL, 0, NULL, &ev),
                      "clEnqueueNDRangeKernel(cls_copy) failed; try a smaller size");
        CLS__CHECK_CL(ctx, st, clWaitForEvents(1, &ev),
                      "waiting for the copy kernel failed (the device may have run out of "
                      "resources)");
        if (r >= 0)
            CLS__CHECK_CL(ctx, st, cls__event_seconds(ev, &times[r]),
                          "clGetEventProfilingInfo (the kernel's start and end) failed");
        clReleaseEvent(ev);
        ev = NULL;
    }

    char *got = (char *)marks + (head + tail) * esize;
    CLS__CHECK_CL(ctx, st,
                  clEnqueueReadBuffer(ctx->queue, dst, CL_TRUE, 0, head * esize, got, 0, NULL,
                                      NULL),
                  "clEnqueueReadBuffer (checking the copy) failed");
    if (tail)
        CLS__CHECK_CL(ctx, st,
                      clEnqueueReadBuffer(ctx->queue, dst, CL_TRUE, (n - tail) * esize,
                                          tail * esize, got + head * esize, 0, NULL, NULL),
                      "clEnqueueReadBuffer (checking the copy) failed");
    if (memcmp(marks, got, (head + tail) * esize) != 0)
        CLS__GOTO_FAIL(ctx, st, CLS_ERR_INTERNAL,
                       "the copy kernel (cl/copy.cl) wrote wrong values into a copy of %zu "
                       "elements on %s", n, ctx->info.name);

    *seconds = cls__median(times, reps);
    st = CLS_SUCCESS;

fail:
    if (ev) clReleaseEvent(ev);
    free(times);
    free(marks);
    if (kernel) clReleaseKernel(kernel);
    if (src) clReleaseMemObject(src);
    if (dst) clReleaseMemObject(dst);
    if (owned) free((void *)src_text);
    return st;
}
