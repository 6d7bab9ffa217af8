/* diag_util.h: the timing helpers the one-off GPU diagnostics (xfer_diag.c, pipe_diag.c)
 * share; each diagnostic is one file compiled alone on the device machine. */
#ifndef DIAG_UTIL_H
#define DIAG_UTIL_H
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A failed OpenCL call ends the diagnostic with the call and its code. */
#define CHECK(e)                                                                               \
    do {                                                                                       \
        cl_int err_ = (e);                                                                     \
        if (err_ != CL_SUCCESS) {                                                              \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #e, err_);                 \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
/* The first GPU of any platform ($PIPE_DIAG_ANY: any device, for a trial on PoCL); NULL and a
 * line on stderr when there is none. */
static cl_device_id pick_device(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    cl_device_id d = NULL;
    CHECK(clGetPlatformIDs(8, plats, &np));
    for (cl_uint i = 0; i < np && !d; i++)
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = NULL;
    if (!d && getenv("PIPE_DIAG_ANY"))
        for (cl_uint i = 0; i < np && !d; i++)
            if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS) d = NULL;
    if (!d) fprintf(stderr, "no GPU\n");
    return d;
}
#endif
