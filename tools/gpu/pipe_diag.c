/* pipe_diag.c: a one-off diagnostic of the pipeline's per-step costs (doc/pipeline.md, "Sixth
 * run"), after the probe's first queued tables came back with outliers the lone diagnostic
 * (xfer_diag.c) did not show (10^4 B host to device: 72 us; 10^7 B: 326 us).
 *  A. The probe's stream pattern against variants: every copy at offset 0 (as the probe did)
 *     or at its own offset, on a queue with or without profiling.
 *  B. The executor's pattern (lib/exec_pipeline.c, scalable scheme): three in-order queues with
 *     profiling, three buffer sets, per tile a write (waiting for the read three tiles back), an
 *     empty kernel (waiting for the write), a read (waiting for the kernel), all queues flushed
 *     per step; against the two copy streams alone on two queues, no events, no kernels.  The
 *     difference per tile is what a pipeline step costs beyond its copies.
 *  C. A cross-queue event chain: 64 empty kernels alternating between two queues, each waiting
 *     for the one before; and the same chain on one queue without events.
 * Build on the device machine: gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L pipe_diag.c -lOpenCL */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include "diag_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 9


static cl_context ctx;
static cl_device_id dev;
static cl_kernel kempty;

static cl_command_queue queue(int profiling)
{
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(ctx, dev, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    CHECK(err);
    return q;
}

static cl_mem buffer(cl_mem_flags f, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, f, bytes, NULL, &err);
    CHECK(err);
    return m;
}

static char *pinned(cl_command_queue q, size_t bytes)
{
    cl_int err;
    cl_mem m = buffer(CL_MEM_ALLOC_HOST_PTR, bytes);
    char *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                                 NULL, &err);
    CHECK(err);
    memset(p, 1, bytes);
    return p;
}

/* A: marginal time of a queued host-to-device copy, (t16 - t1) / 15. */
static double stream_marginal(cl_command_queue q, cl_mem d, char *h, size_t s, int spread)
{
    double v[REPS];
    for (int r = -1; r < REPS; r++) {
        double t0 = now();
        CHECK(clEnqueueWriteBuffer(q, d, CL_FALSE, 0, s, h, 0, NULL, NULL));
        CHECK(clFinish(q));
        double t1 = now();
        for (int i = 0; i < 16; i++) {
            size_t off = spread ? (size_t)i * s : 0;
            CHECK(clEnqueueWriteBuffer(q, d, CL_FALSE, off, s, h + off, 0, NULL, NULL));
        }
        CHECK(clFinish(q));
        double t2 = now();
        if (r >= 0) v[r] = ((t2 - t1) - (t1 - t0)) / 15;
    }
    return median(v, REPS);
}

/* B: the executor's pattern, or (events == 0) the two copy streams alone. */
static double pipeline(cl_command_queue q[3], cl_mem in[3], cl_mem out[3], char *hin,
                       char *hout, size_t s, int n, int events)
{
    cl_event *w = calloc((size_t)n, sizeof *w), *k = calloc((size_t)n, sizeof *k),
             *rd = calloc((size_t)n, sizeof *rd);
    double t0 = now();
    for (int i = 0; i < n + 2; i++) {
        if (i < n) {
            int t = i;
            cl_uint nw = events && t >= 3;
            CHECK(clEnqueueWriteBuffer(q[0], in[t % 3], CL_FALSE, 0, s, hin + (size_t)t * s, nw,
                                       nw ? &rd[t - 3] : NULL, events ? &w[t] : NULL));
        }
        if (events && i >= 1 && i - 1 < n) {
            int t = i - 1;
            size_t g = 1024;
            CHECK(clSetKernelArg(kempty, 0, sizeof(cl_mem), &in[t % 3]));
            CHECK(clSetKernelArg(kempty, 1, sizeof(cl_mem), &out[t % 3]));
            CHECK(clEnqueueNDRangeKernel(q[1], kempty, 1, NULL, &g, NULL, 1, &w[t], &k[t]));
        }
        if (i >= 2 && i - 2 < n) {
            int t = i - 2;
            CHECK(clEnqueueReadBuffer(q[2], out[t % 3], CL_FALSE, 0, s, hout + (size_t)t * s,
                                      events ? 1 : 0, events ? &k[t] : NULL,
                                      events ? &rd[t] : NULL));
        }
        for (int j = 0; j < 3; j++) CHECK(clFlush(q[j]));
    }
    for (int j = 0; j < 3; j++) CHECK(clFinish(q[j]));
    double t = now() - t0;
    for (int i = 0; events && i < n; i++) {
        clReleaseEvent(w[i]);
        clReleaseEvent(k[i]);
        clReleaseEvent(rd[i]);
    }
    free(w), free(k), free(rd);
    return t;
}

int main(void)
{
    cl_int err;
    if (!(dev = pick_device())) return 1;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    const char *src = "kernel void e(global float *a, global float *b) { }\n";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    kempty = clCreateKernel(prog, "e", &err);
    CHECK(err);
    cl_command_queue qp = queue(1), qn = queue(0);
    const size_t big = 268435456;
    cl_mem d1 = buffer(CL_MEM_READ_WRITE, big);
    char *h1 = pinned(qp, big), *h2 = pinned(qp, big);
    CHECK(clEnqueueWriteBuffer(qp, d1, CL_TRUE, 0, big, h1, 0, NULL, NULL));

    printf("# A. queued host-to-device copy, marginal in a stream of 16 (us): offset 0 / own "
           "offsets, profiling queue / plain queue\n# bytes, off0+prof, off0+plain, own+prof, "
           "own+plain\n");
    const size_t as[] = {10000, 100000, 1000000, 10000000, 16000000};
    for (size_t i = 0; i < sizeof as / sizeof *as; i++)
        printf("%zu, %.1f, %.1f, %.1f, %.1f\n", as[i],
               1e6 * stream_marginal(qp, d1, h1, as[i], 0),
               1e6 * stream_marginal(qn, d1, h1, as[i], 0),
               1e6 * stream_marginal(qp, d1, h1, as[i], 1),
               1e6 * stream_marginal(qn, d1, h1, as[i], 1));

    printf("# B. the executor's pattern (3 profiling queues, 3 sets, events, empty kernels) "
           "against the two copy streams alone; per tile (us), medians of %d\n"
           "# bytes, tiles, executor, streams, difference\n", REPS);
    cl_command_queue q3[3] = {queue(1), queue(1), queue(1)};
    const size_t bs[] = {1000000, 2000000, 4000000, 8000000};
    for (size_t i = 0; i < sizeof bs / sizeof *bs; i++) {
        size_t s = bs[i];
        int n = (int)(big / s < 64 ? big / s : 64);
        cl_mem in[3], out[3];
        for (int j = 0; j < 3; j++) {
            in[j] = buffer(CL_MEM_READ_WRITE, s);
            out[j] = buffer(CL_MEM_READ_WRITE, s);
            CHECK(clEnqueueWriteBuffer(qp, in[j], CL_TRUE, 0, s, h1, 0, NULL, NULL));
            CHECK(clEnqueueWriteBuffer(qp, out[j], CL_TRUE, 0, s, h1, 0, NULL, NULL));
        }
        double e[REPS], st[REPS];
        for (int r = -1; r < REPS; r++) {
            double a = pipeline(q3, in, out, h1, h2, s, n, 1);
            double b = pipeline(q3, in, out, h1, h2, s, n, 0);
            if (r >= 0) e[r] = a / n, st[r] = b / n;
        }
        double me = median(e, REPS), ms = median(st, REPS);
        printf("%zu, %d, %.1f, %.1f, %.1f\n", s, n, 1e6 * me, 1e6 * ms, 1e6 * (me - ms));
        for (int j = 0; j < 3; j++) clReleaseMemObject(in[j]), clReleaseMemObject(out[j]);
    }

    printf("# C. 64 empty kernels: alternating two queues, each waiting for the one before; "
           "one queue, no events (us per kernel)\n");
    {
        double alt[REPS], one[REPS];
        cl_event ev[64];
        size_t g = 1024;
        CHECK(clSetKernelArg(kempty, 0, sizeof(cl_mem), &d1));
        CHECK(clSetKernelArg(kempty, 1, sizeof(cl_mem), &d1));
        for (int r = -1; r < REPS; r++) {
            double t0 = now();
            for (int i = 0; i < 64; i++)
                CHECK(clEnqueueNDRangeKernel(q3[i % 2], kempty, 1, NULL, &g, NULL, i ? 1 : 0,
                                             i ? &ev[i - 1] : NULL, &ev[i]));
            CHECK(clFlush(q3[0]));
            CHECK(clFlush(q3[1]));
            CHECK(clFinish(q3[0]));
            CHECK(clFinish(q3[1]));
            double t1 = now();
            for (int i = 0; i < 64; i++) clReleaseEvent(ev[i]);
            for (int i = 0; i < 64; i++)
                CHECK(clEnqueueNDRangeKernel(q3[0], kempty, 1, NULL, &g, NULL, 0, NULL, NULL));
            CHECK(clFinish(q3[0]));
            double t2 = now();
            if (r >= 0) alt[r] = (t1 - t0) / 64, one[r] = (t2 - t1) / 64;
        }
        printf("%.2f, %.2f\n", 1e6 * median(alt, REPS), 1e6 * median(one, REPS));
    }
    return 0;
}
