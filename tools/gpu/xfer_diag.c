/* xfer_diag.c: a one-off diagnostic of the costs behind the pipeline model's copies
 * (doc/pipeline.md, "Sixth run"): for pinned host buffers (CL_MEM_ALLOC_HOST_PTR, mapped, as
 * lib/probe.c and `--pinned` use them) it times, per size, one blocking copy against a stream
 * of 16 copies queued back to back (each direction alone and both at once on two queues), and
 * the allocation pattern of lib/exec_pipeline.c: clCreateBuffer and clReleaseMemObject alone,
 * and the first copy into a fresh buffer against one into a buffer already written.
 * Build on the device machine: gcc -O2 -std=c11 xfer_diag.c -lOpenCL (no libclstencil). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include "diag_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 15
#define CHUNKS 16


static cl_context ctx;
static cl_command_queue q1, q2;

static int stream(cl_command_queue q, cl_mem d, char *h, size_t bytes, int n, int write)
{
    for (int i = 0; i < n; i++) {
        size_t off = (size_t)i * bytes;
        if (write)
            CHECK(clEnqueueWriteBuffer(q, d, CL_FALSE, off, bytes, h + off, 0, NULL, NULL));
        else
            CHECK(clEnqueueReadBuffer(q, d, CL_FALSE, off, bytes, h + off, 0, NULL, NULL));
    }
    return clFlush(q) != CL_SUCCESS;
}

int main(void)
{
    cl_device_id dev = pick_device();
    if (!dev) return 1;
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("# device %s\n", name);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    q1 = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    q2 = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    const size_t big = 268435456; /* 256 MiB: 16 x 1.6e7 fits */
    cl_mem d1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &err);
    CHECK(err);
    cl_mem d2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &err);
    CHECK(err);
    cl_mem p1 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, big, NULL, &err);
    CHECK(err);
    cl_mem p2 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, big, NULL, &err);
    CHECK(err);
    char *h1 = clEnqueueMapBuffer(q1, p1, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, big, 0, NULL,
                                  NULL, &err);
    CHECK(err);
    char *h2 = clEnqueueMapBuffer(q1, p2, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, big, 0, NULL,
                                  NULL, &err);
    CHECK(err);
    memset(h1, 1, big);
    memset(h2, 2, big);
    CHECK(clEnqueueWriteBuffer(q1, d1, CL_TRUE, 0, big, h1, 0, NULL, NULL));
    CHECK(clEnqueueWriteBuffer(q1, d2, CL_TRUE, 0, big, h2, 0, NULL, NULL));

    /* 1. blocking single copies against queued streams */
    printf("# bytes, one blocking copy h2d/d2h (us), stream of %d: per copy h2d/d2h (us), "
           "marginal h2d/d2h (us, (t16 - t1) / 15), GB/s of the marginal h2d/d2h, both "
           "directions at once: factor (sum alone / both)\n", CHUNKS);
    const size_t sizes[] = {100000, 1000000, 2000000, 4000000, 8000000, 16000000};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t s = sizes[si];
        double b_in[REPS], b_out[REPS], s_in[REPS], s_out[REPS], both[REPS], m_in[REPS],
            m_out[REPS];
        for (int r = -2; r < REPS; r++) {
            double t0 = now();
            CHECK(clEnqueueWriteBuffer(q1, d1, CL_TRUE, 0, s, h1, 0, NULL, NULL));
            double t1 = now();
            CHECK(clEnqueueReadBuffer(q2, d2, CL_TRUE, 0, s, h2, 0, NULL, NULL));
            double t2 = now();
            if (stream(q1, d1, h1, s, CHUNKS, 1)) return 1;
            CHECK(clFinish(q1));
            double t3 = now();
            if (stream(q2, d2, h2, s, CHUNKS, 0)) return 1;
            CHECK(clFinish(q2));
            double t4 = now();
            if (stream(q1, d1, h1, s, CHUNKS, 1) || stream(q2, d2, h2, s, CHUNKS, 0)) return 1;
            CHECK(clFinish(q1));
            CHECK(clFinish(q2));
            double t5 = now();
            if (r < 0) continue;
            b_in[r] = t1 - t0;
            b_out[r] = t2 - t1;
            s_in[r] = (t3 - t2) / CHUNKS;
            s_out[r] = (t4 - t3) / CHUNKS;
            m_in[r] = ((t3 - t2) - (t1 - t0)) / (CHUNKS - 1);
            m_out[r] = ((t4 - t3) - (t2 - t1)) / (CHUNKS - 1);
            both[r] = ((t3 - t2) + (t4 - t3)) / (t5 - t4);
        }
        double mi = median(m_in, REPS), mo = median(m_out, REPS);
        printf("%zu, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.2f, %.2f, %.3f\n", s,
               1e6 * median(b_in, REPS), 1e6 * median(b_out, REPS), 1e6 * median(s_in, REPS),
               1e6 * median(s_out, REPS), 1e6 * mi, 1e6 * mo, s / mi * 1e-9, s / mo * 1e-9,
               median(both, REPS));
    }

    /* 2. allocation as lib/exec_pipeline.c does it: create (lazy), first copy, release */
    printf("# bytes, clCreateBuffer (us), first h2d copy into the fresh buffer (us), a second "
           "h2d copy into it (us), clReleaseMemObject (us), first - second (us/MB)\n");
    const size_t asz[] = {1000000, 10000000, 100000000, 268435456};
    for (size_t si = 0; si < sizeof asz / sizeof *asz; si++) {
        size_t s = asz[si];
        double c[REPS], f[REPS], w[REPS], rel[REPS];
        for (int r = -1; r < REPS; r++) {
            double t0 = now();
            cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, s, NULL, &err);
            CHECK(err);
            double t1 = now();
            CHECK(clEnqueueWriteBuffer(q1, m, CL_TRUE, 0, s, h1, 0, NULL, NULL));
            double t2 = now();
            CHECK(clEnqueueWriteBuffer(q1, m, CL_TRUE, 0, s, h1, 0, NULL, NULL));
            double t3 = now();
            CHECK(clReleaseMemObject(m));
            CHECK(clFinish(q1));
            double t4 = now();
            if (r < 0) continue;
            c[r] = t1 - t0;
            f[r] = t2 - t1;
            w[r] = t3 - t2;
            rel[r] = t4 - t3;
        }
        double fm = median(f, REPS), wm = median(w, REPS);
        printf("%zu, %.1f, %.1f, %.1f, %.1f, %.3f\n", s, 1e6 * median(c, REPS), 1e6 * fm,
               1e6 * wm, 1e6 * median(rel, REPS), (fm - wm) * 1e6 / (s * 1e-6));
    }
    return 0;
}
