/* common.cuh: what the hand-written CUDA baselines share: the command line, deterministic
 * fields, timing (median of R runs after a warm-up run, CUDA events around the whole run) and
 * the output line, in the format of tools/bench/omp_stencils.c (plus an `impl` column).
 * Header-only: each baseline is one .cu file built with
 *   nvcc -O3 -arch=sm_90 tools/bench/cuda/NAME.cu -o NAME_cuda */
#ifndef CLS_BENCH_CUDA_COMMON_CUH
#define CLS_BENCH_CUDA_COMMON_CUH

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(call)                                                                     \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                    cudaGetErrorString(e_));                                                 \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* The command line every baseline takes:
 *   NAME [--steps N] [--reps R] [--csv] [--height H] [--no-check] [SIZE] */
struct bench_args {
    long n[3] = {0, 0, 0};
    int dims = 0;
    long steps = 100;
    long reps = 5;
    long height = 0;  /* hotspot: steps per launch (0: the baseline's default) */
    int csv = 0;
    int check = 1;
    int header = 1;
};

static long parse_count(const char *prog, const char *opt, const char *v, long max)
{
    char *end;
    long long x = v ? strtoll(v, &end, 10) : 0;
    if (!v || *end || end == v || x < 1 || x > max) {
        fprintf(stderr, "%s: %s needs a whole number 1..%ld\n", prog, opt, max);
        exit(2);
    }
    return (long)x;
}

static void parse_args(int argc, char **argv, int dims, const long *def, bench_args *a,
                       const char *usage)
{
    a->dims = dims;
    for (int d = 0; d < 3; d++) a->n[d] = d < dims ? def[d] : 1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--steps")) a->steps = parse_count(argv[0], s, v, 1000000000L), i++;
        else if (!strcmp(s, "--reps")) a->reps = parse_count(argv[0], s, v, 1000), i++;
        else if (!strcmp(s, "--height")) a->height = parse_count(argv[0], s, v, 64), i++;
        else if (!strcmp(s, "--csv")) a->csv = 1;
        else if (!strcmp(s, "--no-header")) a->header = 0;
        else if (!strcmp(s, "--no-check")) a->check = 0;
        else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            printf("%s", usage);
            exit(0);
        } else if (s[0] == '-') {
            fprintf(stderr, "%s: unknown option '%s'\n%s", argv[0], s, usage);
            exit(2);
        } else {
            int parts = 0;
            const char *p = s;
            while (*p && parts < 3) {
                char *end;
                long long x = strtoll(p, &end, 10);
                if (end == p || x < 1 || x > (1LL << 31)) break;
                a->n[parts++] = (long)x;
                p = end;
                if (*p == 'x' || *p == 'X') p++;
                else break;
            }
            if (parts != dims || *p) {
                fprintf(stderr, "%s: invalid SIZE '%s' (%d parts, x first)\n", argv[0], s, dims);
                exit(2);
            }
        }
    }
}

/* Deterministic numbers in [0, 1) from an index (splitmix64). */
static inline double hash01(uint64_t i, uint64_t seed)
{
    uint64_t z = i + seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e5bbULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* A smooth field plus a small perturbation, scaled to [offset, offset + scale); the sines are
 * tabulated per axis so that large grids fill quickly. */
static void fill_field(std::vector<float> &v, const long n[3], uint64_t seed, double offset,
                       double scale)
{
    std::vector<double> sx(n[0]), cy(n[1]), sz(n[2]);
    for (long x = 0; x < n[0]; x++) sx[x] = sin(0.05 * (double)x);
    for (long y = 0; y < n[1]; y++) cy[y] = cos(0.07 * (double)y);
    for (long z = 0; z < n[2]; z++) sz[z] = sin(0.03 * (double)z);
    for (long z = 0; z < n[2]; z++)
        for (long y = 0; y < n[1]; y++)
            for (long x = 0; x < n[0]; x++) {
                size_t i = (size_t)x + (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
                double s = 0.5 + 0.25 * sx[x] * cy[y] + 0.2 * sz[z] + 0.05 * hash01(i, seed);
                v[i] = (float)(offset + scale * s);
            }
}

/* Largest |a - b| relative to the largest |b|; prints the verdict on stderr. */
static int compare(const char *name, const std::vector<float> &got,
                   const std::vector<float> &want, double tol)
{
    double err = 0, mag = 0;
    size_t worst = 0;
    for (size_t i = 0; i < want.size(); i++) {
        mag = std::max(mag, (double)fabsf(want[i]));
        double e = fabs((double)got[i] - (double)want[i]);
        if (!(e <= err)) err = e, worst = i;
    }
    double rel = mag > 0 ? err / mag : err;
    int ok = rel <= tol;
    fprintf(stderr, "%s: check against the host loop: %s (max error %.3g relative, at %zu: %.9g vs %.9g)\n",
            name, ok ? "OK" : "FAILED", rel, worst, (double)got[worst], (double)want[worst]);
    return ok;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Times `run` (which launches all steps on the stream 0 and leaves the result where the
 * caller reads it): one warm-up run, then reps runs between CUDA events; `reset` restores the
 * initial state before each, untimed. Returns the median seconds of one run. */
template <typename Run, typename Reset>
static double time_runs(long reps, Run run, Reset reset)
{
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    std::vector<double> t;
    for (long r = 0; r <= reps; r++) {
        reset();
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaEventRecord(e0));
        run();
        CUDA_CHECK(cudaEventRecord(e1));
        CUDA_CHECK(cudaEventSynchronize(e1));
        CUDA_CHECK(cudaGetLastError());
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r > 0) t.push_back(1e-3 * ms);
    }
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    return median(t);
}

/* One line: name,impl,size,dtype,steps,reps,seconds_per_step,gpoints_per_s,gb_per_s,
 * bytes_per_point,checksum,params (or the same as a table). */
static void print_result(const bench_args &a, const char *name, const char *impl,
                         double run_seconds, int naux, double checksum, const char *params)
{
    char sz[96];
    if (a.dims == 1) snprintf(sz, sizeof sz, "%ld", a.n[0]);
    else if (a.dims == 2) snprintf(sz, sizeof sz, "%ldx%ld", a.n[0], a.n[1]);
    else snprintf(sz, sizeof sz, "%ldx%ldx%ld", a.n[0], a.n[1], a.n[2]);
    double points = (double)a.n[0] * (double)a.n[1] * (double)a.n[2];
    double sps = run_seconds / (double)a.steps;
    double gpts = points / sps / 1e9;
    double bpp = 4.0 * (2 + naux);
    if (a.csv) {
        if (a.header)
            printf("name,impl,size,dtype,steps,reps,seconds_per_step,gpoints_per_s,gb_per_s,"
                   "bytes_per_point,checksum,params\n");
        printf("%s,%s,%s,float,%ld,%ld,%.6e,%.4f,%.3f,%.0f,%.17g,%s\n", name, impl, sz, a.steps,
               a.reps, sps, gpts, gpts * bpp, bpp, checksum, params);
    } else {
        if (a.header)
            printf("%-10s %-14s %-14s %6s %5s %12s %10s %9s %22s  %s\n", "name", "impl", "size",
                   "steps", "reps", "s/step", "GPoints/s", "GB/s", "checksum", "params");
        printf("%-10s %-14s %-14s %6ld %5ld %12.4e %10.4g %9.4g %22.15e  %s\n", name, impl, sz,
               a.steps, a.reps, sps, gpts, gpts * bpp, checksum, params);
    }
    fflush(stdout);
}

static double checksum_of(const std::vector<float> &v)
{
    double s = 0;
    for (float x : v) s += (double)x;
    return s;
}

static void print_device(void)
{
    cudaDeviceProp p;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    int drv = 0;
    cudaDriverGetVersion(&drv);
    fprintf(stderr, "device: %s (%d SMs, CUDA driver %d.%d)\n", p.name, p.multiProcessorCount,
            drv / 1000, (drv % 1000) / 10);
}

#endif /* CLS_BENCH_CUDA_COMMON_CUH */
