/* enqueue_diag.c: a one-off diagnostic of the host's time per enqueued command on NVIDIA's
 * OpenCL (doc/pipeline.md, "Run 18"): the probe's sync.enqueue pattern (64-byte copies, an
 * empty kernel of one argument) measured 10.5 us a command while the executor's trace showed
 * 16-18 us between its enqueues.  Host time of the enqueue calls alone (no finish), per
 * command, medians of REPS samples of TILES tiles, for:
 *   P. the probe's pattern (write, kernel, read on three profiling queues, each with its event,
 *      each waiting for the one before) with copies of 64 B, 1 MB and 8 MB, kernels of 1 and 28
 *      arguments set before each launch, the three queues flushed per tile or not;
 *   S. one kind of command alone on one profiling queue: writes and reads of 64 B, 1 MB and
 *      8 MB with and without an event; kernels of 1 and 28 arguments with and without one.
 * Build on the device machine: gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L enqueue_diag.c -lOpenCL */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include "diag_util.h"
#include <string.h>

#define REPS 9
#define TILES 32
#define NARGS 28

static cl_context ctx;
static cl_device_id dev;
static cl_kernel k1, k28;
static cl_command_queue q[3];
static cl_mem dbuf;
static char *hin, *hout;

static void set_args(cl_kernel k, int nargs)
{
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &dbuf));
    for (cl_uint a = 1; a < (cl_uint)nargs; a++) {
        cl_int v = (cl_int)a;
        CHECK(clSetKernelArg(k, a, sizeof v, &v));
    }
}

static void launch(int nargs, cl_command_queue qq, cl_uint nw, const cl_event *w, cl_event *e)
{
    size_t g = 64;
    cl_kernel k = nargs > 1 ? k28 : k1;
    set_args(k, nargs);
    CHECK(clEnqueueNDRangeKernel(qq, k, 1, NULL, &g, &g, nw, w, e));
}

/* P: host us per command of the probe's pattern. */
static double pattern(size_t bytes, int nargs, int flush)
{
    double v[REPS];
    for (int r = -1; r < REPS; r++) {
        cl_event ev[3 * TILES];
        memset(ev, 0, sizeof ev);
        double t0 = now();
        for (int i = 0; i < TILES; i++) {
            cl_event *w = &ev[3 * i];
            size_t off = (size_t)i * bytes;
            CHECK(clEnqueueWriteBuffer(q[0], dbuf, CL_FALSE, off, bytes, hin + off, i ? 1 : 0,
                                       i ? w - 1 : NULL, w));
            launch(nargs, q[1], 1, w, w + 1);
            CHECK(clEnqueueReadBuffer(q[2], dbuf, CL_FALSE, off, bytes, hout + off, 1, w + 1, w + 2));
            for (int j = 0; flush && j < 3; j++) CHECK(clFlush(q[j]));
        }
        double t1 = now();
        for (int j = 0; j < 3; j++) CHECK(clFinish(q[j]));
        for (int i = 0; i < 3 * TILES; i++) clReleaseEvent(ev[i]);
        if (r >= 0) v[r] = (t1 - t0) / (3.0 * TILES) * 1e6;
    }
    return median(v, REPS);
}

/* S: host us per command of one kind alone: 0 write, 1 read, 2 kernel. */
static double single(int kind, size_t bytes, int nargs, int event)
{
    double v[REPS];
    for (int r = -1; r < REPS; r++) {
        cl_event ev[TILES];
        memset(ev, 0, sizeof ev);
        double t0 = now();
        for (int i = 0; i < TILES; i++) {
            size_t off = (size_t)i * bytes;
            cl_event *e = event ? &ev[i] : NULL;
            if (kind == 0)
                CHECK(clEnqueueWriteBuffer(q[0], dbuf, CL_FALSE, off, bytes, hin + off, 0, NULL, e));
            else if (kind == 1)
                CHECK(clEnqueueReadBuffer(q[0], dbuf, CL_FALSE, off, bytes, hout + off, 0, NULL, e));
            else
                launch(nargs, q[0], 0, NULL, e);
        }
        double t1 = now();
        CHECK(clFinish(q[0]));
        for (int i = 0; i < TILES; i++)
            if (ev[i]) clReleaseEvent(ev[i]);
        if (r >= 0) v[r] = (t1 - t0) / TILES * 1e6;
    }
    return median(v, REPS);
}

int main(void)
{
    cl_int err;
    if (!(dev = pick_device())) return 1;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    char src[4096] = "kernel void e1(global float *a) { }\nkernel void e28(global float *a";
    for (int a = 1; a < NARGS; a++) snprintf(src + strlen(src), 64, ", int p%d", a);
    strcat(src, ") { }\n");
    const char *s = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    k1 = clCreateKernel(prog, "e1", &err);
    CHECK(err);
    k28 = clCreateKernel(prog, "e28", &err);
    CHECK(err);
    for (int j = 0; j < 3; j++) {
        q[j] = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
        CHECK(err);
    }
    const size_t big = (size_t)TILES * 8000000;
    dbuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &err);
    CHECK(err);
    cl_mem p1 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, big, NULL, &err);
    CHECK(err);
    cl_mem p2 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, big, NULL, &err);
    CHECK(err);
    hin = clEnqueueMapBuffer(q[0], p1, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, big, 0, NULL, NULL, &err);
    CHECK(err);
    hout = clEnqueueMapBuffer(q[0], p2, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, big, 0, NULL, NULL, &err);
    CHECK(err);
    memset(hin, 1, big), memset(hout, 2, big);
    CHECK(clEnqueueWriteBuffer(q[0], dbuf, CL_TRUE, 0, big, hin, 0, NULL, NULL));
    const size_t sizes[3] = {64, 1000000, 8000000};
    printf("# P. the probe's pattern, host us per command: bytes, args, no flush, flush\n");
    for (int i = 0; i < 3; i++)
        for (int a = 1; a <= NARGS; a += NARGS - 1)
            printf("%zu, %d, %.2f, %.2f\n", sizes[i], a, pattern(sizes[i], a, 0),
                   pattern(sizes[i], a, 1));
    printf("# S. one kind alone, host us per command: kind, bytes or args, no event, event\n");
    for (int i = 0; i < 3; i++) {
        printf("write, %zu, %.2f, %.2f\n", sizes[i], single(0, sizes[i], 1, 0), single(0, sizes[i], 1, 1));
        printf("read, %zu, %.2f, %.2f\n", sizes[i], single(1, sizes[i], 1, 0), single(1, sizes[i], 1, 1));
    }
    printf("kernel, 1, %.2f, %.2f\n", single(2, 0, 1, 0), single(2, 0, 1, 1));
    printf("kernel, %d, %.2f, %.2f\n", NARGS, single(2, 0, NARGS, 0), single(2, 0, NARGS, 1));
    return 0;
}
