/* pocl_systems.c: times a built-in system of fields with libclstencil the way omp_stencils
 * times its loop, from the same initial fields, so that the two print comparable lines
 * (tools/bench/pocl_vs_omp.sh puts them side by side).
 *
 *   pocl_systems [--double] [--steps N] [--reps R] [--schedule S] [--params P] NAME SIZE
 *
 * One CSV line: name,size,dtype,steps,schedule,kernel_seconds_per_step,wall_seconds_per_step,
 * gpoints_per_s,checksum.  The plan (AUTO unless --schedule; P: schedule parameters, such as
 * "naive.in_place=0") advances a device-resident state:
 * one untimed advance of N steps, then R timed ones, each from the initial fields written
 * again (untimed).  kernel_seconds_per_step is the median of the kernels' device time (as
 * clstencil bench reports), wall_seconds_per_step the median host time of the advance (launch
 * gaps included, what omp_stencils measures); gpoints_per_s counts the wall time.  checksum is
 * the sum of every field after the last run, in declaration order, in double: with the same
 * SIZE, steps and dtype it equals omp_stencils' (built with -ffp-contract=off). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clstencil.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* omp_stencils' hash01 and smooth, which its systems' initial fields are made of. */
static double hash01(uint64_t i, uint64_t seed)
{
    uint64_t z = i + seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e5bbULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

static double smooth(long x, long y, long z, const long n[3])
{
    const double tau = 6.283185307179586;
    return 0.5 + 0.125 * sin(tau * (double)x / (double)n[0] + 0.5) *
                     cos(tau * (double)y / (double)n[1]) +
           0.125 * sin(tau * (double)z / (double)n[2] + 1.0);
}

/* Field k's initial values, as omp_stencils' init_system. */
static void fill(const char *name, size_t k, const long n[3], int dbl, void *out)
{
    int gs = !strcmp(name, "gray_scott"), fdtd = !strncmp(name, "fdtd", 4);
    for (long z = 0; z < n[2]; z++)
        for (long y = 0; y < n[1]; y++)
            for (long x = 0; x < n[0]; x++) {
                size_t i = (size_t)x + (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
                double s = smooth(x, y, z, n), h = hash01(i, 11 + (uint64_t)k) - 0.5, v;
                if (gs) v = k ? 0.25 * (1 - s) + 0.01 * h : s + 0.25;
                else if (fdtd) v = 0.1 * (s - 0.5) + 0.01 * h;
                else v = s + 0.05 * h;
                if (dbl) ((double *)out)[i] = v;
                else ((float *)out)[i] = (float)v;
            }
}

static int fail(const char *what)
{
    fprintf(stderr, "pocl_systems: %s: %s\n", what, cls_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    int dbl = 0;
    long steps = 20, reps = 5;
    const char *name = NULL, *size = NULL, *schedule = "auto", *params = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--double")) dbl = 1;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atol(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atol(argv[++i]);
        else if (!strcmp(argv[i], "--schedule") && i + 1 < argc) schedule = argv[++i];
        else if (!strcmp(argv[i], "--params") && i + 1 < argc) params = argv[++i];
        else if (argv[i][0] != '-' && !name) name = argv[i];
        else if (argv[i][0] != '-' && !size) size = argv[i];
        else name = size = NULL, i = argc;
    }
    long n[3] = {1, 1, 1};
    char tail;
    if (!name || !size || steps < 1 || steps > 1000000 || reps < 1 || reps > 1000 ||
        sscanf(size, "%ldx%ldx%ld%c", &n[0], &n[1], &n[2], &tail) < 1 || n[0] < 1 || n[1] < 1 ||
        n[2] < 1) {
        fprintf(stderr, "usage: pocl_systems [--double] [--steps N] [--reps R] [--schedule S] "
                        "[--params P] NAME NXxNY[xNZ]\n");
        return 2;
    }
    cls_stencil *st = NULL;
    cls_context *ctx = NULL;
    cls_plan *plan = NULL;
    cls_state *state = NULL;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    if (cls_stencil_builtin(name, &st) != CLS_SUCCESS) return fail(name);
    if (dbl) cls_stencil_set_dtype(st, CLS_FLOAT64);
    if (cls_schedule_from_name(schedule, &opt.schedule) != CLS_SUCCESS) return fail(schedule);
    opt.params = params;
    cls_dims dims = {{(size_t)n[0], (size_t)n[1], (size_t)n[2]}};
    size_t points = cls_dims_points(dims), nf = cls_stencil_num_fields(st), es = dbl ? 8 : 4;
    void *field[16] = {NULL};
    double *kernel = calloc((size_t)reps, sizeof *kernel);
    double *wall = calloc((size_t)reps, sizeof *wall);
    for (size_t k = 0; k < nf && k < 16; k++) {
        if (!(field[k] = malloc(points * es))) return fail("memory");
        fill(name, k, n, dbl, field[k]);
    }
    if (!kernel || !wall || nf > 16) return fail("memory");
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) return fail("context");
    if (cls_plan_create(ctx, st, dims, (size_t)steps, &opt, &plan) != CLS_SUCCESS ||
        cls_state_create(plan, &state) != CLS_SUCCESS)
        return fail("plan");
    cls_plan_info info;
    if (cls_plan_describe(plan, &info) != CLS_SUCCESS) return fail("plan");
    for (long r = -1; r < reps; r++) {
        for (size_t k = 0; k < nf; k++)
            if (cls_state_write_field(state, k, field[k]) != CLS_SUCCESS) return fail("write");
        cls_report rep;
        double t0 = now_seconds();
        if (cls_plan_advance(plan, state, (size_t)steps, &rep) != CLS_SUCCESS)
            return fail("advance");
        double t = now_seconds() - t0;
        if (r >= 0) {
            kernel[r] = rep.seconds_kernels / (double)steps;
            wall[r] = t / (double)steps;
        }
    }
    double sum = 0;
    for (size_t k = 0; k < nf; k++) {
        if (cls_state_read_field(state, k, field[k]) != CLS_SUCCESS) return fail("read");
        for (size_t i = 0; i < points; i++)
            sum += dbl ? ((double *)field[k])[i] : (double)((float *)field[k])[i];
    }
    qsort(kernel, (size_t)reps, sizeof *kernel, cmp_double);
    qsort(wall, (size_t)reps, sizeof *wall, cmp_double);
    double k_med = kernel[reps / 2], w_med = wall[reps / 2];
    printf("%s,%s,%s,%ld,%s,%.6e,%.6e,%.4f,%.17g\n", name, size, dbl ? "double" : "float", steps,
           cls_schedule_name(info.schedule), k_med, w_med, (double)points / w_med / 1e9, sum);
    cls_state_release(state);
    cls_plan_release(plan);
    cls_context_release(ctx);
    cls_stencil_release(st);
    for (size_t k = 0; k < nf; k++) free(field[k]);
    free(kernel);
    free(wall);
    return 0;
}
