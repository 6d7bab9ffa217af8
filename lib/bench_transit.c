/* bench_transit.c: cube_transit and cube_ghost_transit (Mo & Li, Sect. 6.1-6.2)
 * for a given tile shape and precision, timed with profiling events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_bench.h"
#include "internal.h"
#include "traffic.h"

/* The document's ghost column: one 32-byte segment left and right (8 floats, Sect. 4.3). */
#define GHOST_SEGMENT_BYTES 32

/* One untimed launch, then `reps` timed ones; the median device time in *seconds. */
static cls_status time_kernel(cls_context *ctx, cl_kernel k, const char *name,
                              const size_t global[2], const size_t local[2], size_t reps,
                              double *seconds)
{
    cls_status st = CLS_SUCCESS;
    cl_event ev = NULL;
    double *times = malloc(reps * sizeof *times);
    if (!times) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating %zu timings", reps);
    for (long r = -1; r < (long)reps; r++) {
        cl_int err = clEnqueueNDRangeKernel(ctx->queue, k, 2, NULL, global, local, 0, NULL, &ev);
        if (err != CL_SUCCESS)
            CLS__GOTO_FAIL(ctx, st, (cls_status)err,
                           "launching %s (%zux%zu work-items in groups of %zux%zu) failed", name,
                           global[0], global[1], local[0], local[1]);
        CLS__CHECK_CL(ctx, st, clWaitForEvents(1, &ev), "waiting for a transit kernel failed");
        if (r >= 0)
            CLS__CHECK_CL(ctx, st, cls__event_seconds(ev, &times[r]),
                          "clGetEventProfilingInfo (the kernel's start and end) failed");
        clReleaseEvent(ev);
        ev = NULL;
    }
    *seconds = cls__median(times, reps);
fail:
    if (ev) clReleaseEvent(ev);
    free(times);
    return st;
}

static cls_status set_args(cls_context *ctx, cl_kernel k, const char *name, cl_mem in,
                           cl_mem out, const cl_int *ints, int n_ints)
{
    cl_int err = clSetKernelArg(k, 0, sizeof in, &in);
    if (err == CL_SUCCESS) err = clSetKernelArg(k, 1, sizeof out, &out);
    for (int i = 0; err == CL_SUCCESS && i < n_ints; i++)
        err = clSetKernelArg(k, (cl_uint)(2 + i), sizeof ints[i], &ints[i]);
    if (err != CL_SUCCESS)
        return cls__fail(ctx, (cls_status)err, "setting the arguments of %s", name);
    return CLS_SUCCESS;
}

cls_status cls_bench_transit(cls_context *ctx, cls_dtype dtype, cls_dims dims,
                             const size_t tile[2], size_t reps, cls_transit_result *r)
{
    cls_status st = CLS_SUCCESS;
    const char *src_text = NULL;
    int owned = 0;
    cl_program prog = NULL;
    cl_kernel k_transit = NULL, k_ghost = NULL;
    cl_mem in = NULL, out = NULL;
    cl_int err;

    if (!ctx || !tile || !r)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_bench_transit: NULL argument");
    memset(r, 0, sizeof *r);
    if (dtype != CLS_FLOAT32 && dtype != CLS_FLOAT64)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_bench_transit: unknown dtype %d",
                         (int)dtype);
    if (dtype == CLS_FLOAT64 && !ctx->info.double_support)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED, "'%s' has no double precision (cl_khr_fp64)",
                         ctx->info.name);
    if (reps < 1 || reps > 100000)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_bench_transit: reps is %zu; 1..100000 timed launches", reps);
    const size_t nx = dims.n[0], ny = dims.n[1], nz = dims.n[2];
    const size_t points = cls_dims_points(dims), elem = cls_dtype_size(dtype);
    if (!points || nx > 65536 || ny > 65536 || nz > 65536 || points > ((size_t)1 << 34))
        return cls__fail(ctx, CLS_ERR_INVALID_SIZE,
                         "transit cube %zux%zux%zu: every size 1..65536, at most 2^34 points", nx,
                         ny, nz);
    const size_t gx = tile[0], gy = tile[1];
    if (gx < 1 || gy < 1 || gx * gy > ctx->info.max_work_group_size ||
        (ctx->info.max_work_item_sizes[0] && gx > ctx->info.max_work_item_sizes[0]) ||
        (ctx->info.max_work_item_sizes[1] && gy > ctx->info.max_work_item_sizes[1]))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "transit tile %zux%zu: '%s' allows work-groups of %zu work-items (%zu x "
                         "%zu)",
                         gx, gy, ctx->info.name, ctx->info.max_work_group_size,
                         ctx->info.max_work_item_sizes[0], ctx->info.max_work_item_sizes[1]);

    /* The loaded tile and its traffic (model/traffic.c: Eq. 2 generalised; 48x8 and 12 bytes
     * per point for 32x6 floats). */
    cls_traffic_tile tt = {(double)gx, (double)gy, 1, 1, (double)elem, GHOST_SEGMENT_BYTES,
                           0, 0, 1, CLS_TRAFFIC_ALIGNED};
    cls_traffic t;
    cls_traffic_tile_eval(&tt, &t);
    const size_t ghost = (size_t)t.ghost_x;
    r->loaded[0] = (size_t)t.loaded_w;
    r->loaded[1] = (size_t)t.loaded_h;
    r->ghost_bytes_per_point = t.bytes_per_point;
    if ((size_t)t.loaded_w * (size_t)t.loaded_h * elem > ctx->info.local_mem_bytes)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "transit tile %zux%zu: its %zux%zu loaded tile exceeds the %llu bytes of "
                         "local memory of '%s'",
                         gx, gy, r->loaded[0], r->loaded[1],
                         (unsigned long long)ctx->info.local_mem_bytes, ctx->info.name);
    /* The ghost reads of the edge tiles reach a row and a segment before the cube and up to a
     * tile's rows after it; the cube starts 128-byte aligned as in the document (Sect. 4.3). */
    const size_t align = 128 / elem;
    const size_t pad = (nx + ghost + align - 1) / align * align;
    const size_t after = (gy + 1) * nx + gx + ghost;
    const size_t in_bytes = (pad + points + after) * elem, out_bytes = points * elem;
    if (in_bytes > ctx->info.max_alloc_bytes || in_bytes + out_bytes > ctx->info.global_mem_bytes)
        return cls__fail(ctx, CLS_ERR_TOO_LARGE,
                         "transit cube %zux%zux%zu needs buffers of %zu and %zu bytes; '%s' allows "
                         "%llu in one allocation, %llu in all",
                         nx, ny, nz, in_bytes, out_bytes, ctx->info.name,
                         (unsigned long long)ctx->info.max_alloc_bytes,
                         (unsigned long long)ctx->info.global_mem_bytes);

    const int cpu = ctx->info.type == CLS_DEVICE_CPU;
    char options[160];
    snprintf(options, sizeof options, "-D CLS_GX=%zu -D CLS_GY=%zu -D CLS_GHOST=%zu%s%s", gx, gy,
             ghost, dtype == CLS_FLOAT64 ? " -D CLS_FP64" : "", cpu ? " -D CLS_PLANE_BARRIER" : "");
    if (!(src_text = cls__kernel_source("transit.cl", &owned))) {
        char *why = cls__strdup(cls_last_error());
        st = cls__fail(ctx, CLS_ERR_IO, "%s", why ? why : "cannot load transit.cl");
        free(why);
        goto fail;
    }
    if ((st = cls__program_get(ctx, src_text, options, &prog, NULL)) != CLS_SUCCESS) goto fail;
    k_transit = clCreateKernel(prog, "cls_cube_transit", &err);
    CLS__CHECK_CL(ctx, st, err, "creating kernel cls_cube_transit");
    k_ghost = clCreateKernel(prog, "cls_cube_ghost_transit", &err);
    CLS__CHECK_CL(ctx, st, err, "creating kernel cls_cube_ghost_transit");

    in = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, in_bytes, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the transit source");
    out = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, out_bytes, NULL, &err);
    CLS__CHECK_CL(ctx, st, err, "allocating the transit target");
    {
        const double one = 1.0;
        const float onef = 1.0f;
        const void *pat = dtype == CLS_FLOAT64 ? (const void *)&one : (const void *)&onef;
        err = clEnqueueFillBuffer(ctx->queue, in, pat, elem, 0, in_bytes, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, out, pat, elem, 0, out_bytes, 0, NULL, NULL);
        CLS__CHECK_CL(ctx, st, err, "initialising the transit buffers");
    }

    /* cube_transit: 32x8 work-groups on GPUs, as `clstencil probe` measures it (a tile whose
     * groups do not fill the device in whole waves, such as 32x6 on the H100, measures its
     * last wave rather than the memory); on CPUs whole rows, which step through the planes
     * together (CLS_PLANE_BARRIER). */
    size_t local[2] = {32, 8}, global[2];
    if (cpu) {
        local[0] = nx < ctx->info.max_work_group_size ? nx : ctx->info.max_work_group_size;
        local[1] = 1;
    } else if (ctx->info.max_work_group_size < 256) {
        local[0] = gx;
        local[1] = gy;
    }
    global[0] = (nx + local[0] - 1) / local[0] * local[0];
    global[1] = (ny + local[1] - 1) / local[1] * local[1];
    const cl_int args[4] = {(cl_int)nx, (cl_int)ny, (cl_int)nz, (cl_int)pad};
    if ((st = set_args(ctx, k_transit, "cls_cube_transit", in, out, args, 3)) != CLS_SUCCESS ||
        (st = time_kernel(ctx, k_transit, "cls_cube_transit", global, local, reps,
                          &r->transit_seconds)) != CLS_SUCCESS)
        goto fail;

    /* cube_ghost_transit: tile-shaped work-groups (its reqd_work_group_size). */
    size_t kmax = 0;
    clGetKernelWorkGroupInfo(k_ghost, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                             NULL);
    if (kmax && gx * gy > kmax)
        CLS__GOTO_FAIL(ctx, st, CLS_ERR_INVALID_ARGUMENT,
                       "cube_ghost_transit allows %zu work-items per group on '%s'; the tile "
                       "%zux%zu needs %zu",
                       kmax, ctx->info.name, gx, gy, gx * gy);
    local[0] = gx;
    local[1] = gy;
    global[0] = (nx + gx - 1) / gx * gx;
    global[1] = (ny + gy - 1) / gy * gy;
    if ((st = set_args(ctx, k_ghost, "cls_cube_ghost_transit", in, out, args, 4)) !=
            CLS_SUCCESS ||
        (st = time_kernel(ctx, k_ghost, "cls_cube_ghost_transit", global, local, reps,
                          &r->ghost_seconds)) != CLS_SUCCESS)
        goto fail;

    /* Eq. 3, 10^9 bytes per GB as everywhere in the models (doc/devices.md). */
    r->transit_gpts = (double)points / r->transit_seconds / 1e9;
    r->transit_gbs = cls_traffic_eq3_gbs((double)points, cls_traffic_ideal_bytes((double)elem),
                                         r->transit_seconds, 1e9);
    r->ghost_gpts = (double)points / r->ghost_seconds / 1e9;
    r->ghost_gbs = cls_traffic_eq3_gbs((double)points, r->ghost_bytes_per_point, r->ghost_seconds,
                                       1e9);
fail:
    if (k_transit) clReleaseKernel(k_transit);
    if (k_ghost) clReleaseKernel(k_ghost);
    if (in) clReleaseMemObject(in);
    if (out) clReleaseMemObject(out);
    if (owned) free((void *)src_text);
    return st;
}
