/* omp_stencils.c: the hand-written OpenMP baseline for libclstencil's built-in stencils.
 *
 * What a user would write instead of using the library: for each stencil, N time steps with
 * double buffering over a float (or, with --double, double) grid, CLAMP boundaries (an index
 * outside the grid is clamped to the edge; cell3d uses a constant-0 boundary instead), a plain
 * interior loop that the compiler can vectorise, separate boundary handling, and
 * `#pragma omp parallel for` over the outer dimension.  The systems of fields (wave2d to
 * fdtd3d) keep one buffer per field plus the spares their step needs, with the library's
 * default boundaries (periodic for gray_scott).  No dependency on libclstencil.
 *
 *   gcc -O3 -march=native -fopenmp tools/bench/omp_stencils.c -lm -o omp_stencils
 *   ./omp_stencils [--double] [--steps N] [--reps R] [--csv] NAME [SIZE]
 *   ./omp_stencils [--double] [--steps N] [--reps R] [--csv] all
 *
 * Host arrays are C order with x fastest: index x + NX*(y + NY*z).  SIZE is NX, NXxNY or
 * NXxNYxNZ (one part per dimension of the stencil).  Each stencil's update follows the
 * library's built-in body term by term (same operands, same order), so with
 * -ffp-contract=off the checksums are comparable with `clstencil run` on the same input.
 *
 * The kernels are written once for an element type T: this file includes itself twice
 * (#include "omp_stencils.c" below, with T = float and T = double), so keep its name. */
#ifndef OMP_STENCILS_T

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---------------------------------------------------------------------------- stencils */

enum stencil_id {
    ST_HEAT3D7,
    ST_HEAT3D27,
    ST_JACOBI3D,
    ST_CELL3D,
    ST_POISSON2D,
    ST_HOTSPOT,
    ST_PATHFINDER,
    ST_MOVING_AVERAGE,
    ST_EMBOSS,
    ST_WAVE2D, /* the systems of fields from here on (is_system) */
    ST_WAVE3D,
    ST_ACOUSTIC3D_R4,
    ST_GRAY_SCOTT,
    ST_FDTD2D,
    ST_FDTD3D,
    ST_COUNT
};

typedef struct stencil_desc {
    const char *name;
    int dims;
    int naux;              /* auxiliary (read-only) arrays: rhs, power, wall */
    long default_size[3];  /* for `all` and when SIZE is left out */
    const char *summary;
    /* systems of fields: the fields (time levels included), the buffers the step rotates
     * through, and the arrays read or written per point and step (the library's minimal
     * traffic, cls_stencil_min_bytes_per_point); 0 for single fields */
    int fields, buffers, traffic;
} stencil_desc;

#define is_system(id) ((id) >= ST_WAVE2D)

static const stencil_desc stencils[ST_COUNT] = {
    [ST_HEAT3D7] = {"heat3d7", 3, 0, {256, 256, 256}, "7-point heat equation, alpha 0.1", 0, 0, 0},
    [ST_HEAT3D27] = {"heat3d27", 3, 0, {256, 256, 256}, "27-point symmetric weights", 0, 0, 0},
    [ST_JACOBI3D] = {"jacobi3d", 3, 0, {256, 256, 256}, "mean of the 6 face neighbours", 0, 0, 0},
    [ST_CELL3D] = {"cell3d", 3, 0, {256, 256, 256}, "3D Game of Life, rule 4555", 0, 0, 0},
    [ST_POISSON2D] = {"poisson2d", 2, 1, {4096, 4096, 1}, "Jacobi step for Poisson, rhs", 0, 0, 0},
    [ST_HOTSPOT] = {"hotspot", 2, 1, {1024, 1024, 1}, "Rodinia HotSpot, power map", 0, 0, 0},
    [ST_PATHFINDER] = {"pathfinder", 1, 1, {4194304, 1, 1}, "Rodinia PathFinder, wall rows", 0, 0,
                       0},
    [ST_MOVING_AVERAGE] = {"moving_average", 1, 0, {16777216, 1, 1}, "radius 4", 0, 0, 0},
    [ST_EMBOSS] = {"emboss", 2, 0, {4096, 4096, 1}, "2D emboss filter", 0, 0, 0},
    [ST_WAVE2D] = {"wave2d", 2, 0, {4096, 4096, 1}, "wave equation, leapfrog, c2 0.25", 2, 3, 3},
    [ST_WAVE3D] = {"wave3d", 3, 0, {256, 256, 256}, "wave equation, leapfrog, c2 0.25", 2, 3, 3},
    [ST_ACOUSTIC3D_R4] = {"acoustic3d_r4", 3, 0, {256, 256, 256},
                          "wave equation, 8th order in space, c2 0.1", 2, 3, 3},
    [ST_GRAY_SCOTT] = {"gray_scott", 2, 0, {4096, 4096, 1}, "reaction-diffusion, periodic", 2,
                       4, 4},
    [ST_FDTD2D] = {"fdtd2d", 2, 0, {4096, 4096, 1}, "Yee TE mode (Ex, Ey, Hz), S 0.5", 3, 3, 9},
    [ST_FDTD3D] = {"fdtd3d", 3, 0, {256, 256, 256}, "Yee, six fields, S 0.5", 6, 6, 18},
};

/* hotspot stays at Rodinia's largest input: with Rodinia's time step the explicit scheme is
 * stable only while step/Cap * (2/Rx + 2/Ry) <= 1, i.e. up to about 1386x1386 on the
 * 0.016 m square chip; beyond that the temperatures blow up (the timing does not change).
 * emboss is not a contraction either: its values grow by up to 3*sqrt(3) per step, so in
 * float they overflow to inf after about 50 steps. */
#define DEFAULT_STEPS 20
#define DEFAULT_REPS 5 /* timed runs; the median is printed */
#define MA_RADIUS 4 /* moving_average */

/* Rodinia HotSpot parameters (the library's defaults for the hotspot built-in). */
#define HS_CHIP_WIDTH 0.016
#define HS_CHIP_HEIGHT 0.016
#define HS_T_CHIP 0.0005
#define HS_K_SI 100.0
#define HS_SPEC_HEAT_SI 1.75e6
#define HS_FACTOR_CHIP 0.5
#define HS_MAX_PD 3.0e6
#define HS_PRECISION 0.001
#define HS_AMB_TEMP 80.0

/* ------------------------------------------------------------------------------ helpers */

typedef struct result {
    double seconds;   /* timed steps only */
    double checksum;  /* sum of the final state, in double */
} result;

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

/* Median of n timings (sorts v). */
static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* Deterministic pseudo-random numbers in [0, 1) from an index (splitmix64). */
static double hash01(uint64_t i, uint64_t seed)
{
    uint64_t z = i + seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e5bbULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* A smooth field over the grid, values in [0.25, 0.75]. */
static double smooth(long x, long y, long z, const long n[3])
{
    const double tau = 6.283185307179586;
    return 0.5 + 0.125 * sin(tau * (double)x / (double)n[0] + 0.5) *
                     cos(tau * (double)y / (double)n[1]) +
           0.125 * sin(tau * (double)z / (double)n[2] + 1.0);
}

static void *alloc_array(size_t count, size_t elem, const char *what)
{
    size_t bytes = count * elem;
    bytes = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (!p) {
        fprintf(stderr, "omp_stencils: cannot allocate %zu bytes for %s: %s\n", bytes, what,
                strerror(errno));
        exit(1);
    }
    return p;
}

/* The kernels, once per element type. */
#define OMP_STENCILS_T float
#define S(name) name##_float
#include "omp_stencils.c"
#undef S
#undef OMP_STENCILS_T
#define OMP_STENCILS_T double
#define S(name) name##_double
#include "omp_stencils.c"
#undef S
#undef OMP_STENCILS_T

/* -------------------------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: omp_stencils [--double] [--steps N] [--reps R] [--csv] NAME [SIZE]\n"
            "       omp_stencils [--double] [--steps N] [--reps R] [--csv] all\n"
            "\n"
            "Runs NAME for N steps (default %d) with OpenMP over a float grid (double with\n"
            "--double), CLAMP boundaries, and prints the time per step, GPoints/s and the\n"
            "effective GB/s at minimal traffic: the median of R timed runs (default %d), each\n"
            "from the initial state after one untimed warm-up step.  SIZE is NX, NXxNY or\n"
            "NXxNYxNZ, one part per dimension of the stencil; `all` runs every stencil at its\n"
            "default size.\n"
            "\n"
            "stencils (default size):\n",
            DEFAULT_STEPS, DEFAULT_REPS);
    for (int i = 0; i < ST_COUNT; i++) {
        char sz[64];
        const stencil_desc *d = &stencils[i];
        if (d->dims == 1)
            snprintf(sz, sizeof sz, "%ld", d->default_size[0]);
        else if (d->dims == 2)
            snprintf(sz, sizeof sz, "%ldx%ld", d->default_size[0], d->default_size[1]);
        else
            snprintf(sz, sizeof sz, "%ldx%ldx%ld", d->default_size[0], d->default_size[1],
                     d->default_size[2]);
        fprintf(f, "  %-15s %dD  %-14s %s\n", d->name, d->dims, sz, d->summary);
    }
}

/* "NX", "NXxNY" or "NXxNYxNZ"; returns the number of parts, 0 on a syntax error. */
static int parse_size(const char *s, long n[3])
{
    int parts = 0;
    n[0] = n[1] = n[2] = 1;
    while (*s) {
        if (parts == 3 || *s < '0' || *s > '9') return 0;
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (errno || v < 1 || v > (1LL << 40)) return 0;
        n[parts++] = (long)v;
        s = end;
        if (*s == 'x' || *s == 'X') {
            s++;
            if (!*s) return 0;
        } else if (*s) {
            return 0;
        }
    }
    return parts;
}

static void format_size(char *buf, size_t cap, int dims, const long n[3])
{
    if (dims == 1)
        snprintf(buf, cap, "%ld", n[0]);
    else if (dims == 2)
        snprintf(buf, cap, "%ldx%ld", n[0], n[1]);
    else
        snprintf(buf, cap, "%ldx%ldx%ld", n[0], n[1], n[2]);
}

static int run_one(int id, const long n[3], long steps, long reps, int use_double, int csv)
{
    const stencil_desc *d = &stencils[id];
    size_t points = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    size_t elem = use_double ? sizeof(double) : sizeof(float);
    result r = use_double ? run_double(id, n, steps, reps) : run_float(id, n, steps, reps);

    double bytes_per_point = (double)elem * (d->traffic ? d->traffic : 2.0 + d->naux);
    double sec_per_step = r.seconds / (double)steps;
    double gpoints = (double)points * (double)steps / r.seconds / 1e9;
    double gbytes = gpoints * bytes_per_point;
    char sz[80];
    format_size(sz, sizeof sz, d->dims, n);
    if (csv)
        printf("%s,%s,%s,%ld,%d,%.6e,%.4f,%.3f,%.0f,%.17g\n", d->name, sz,
               use_double ? "double" : "float", steps, max_threads(), sec_per_step, gpoints,
               gbytes, bytes_per_point, r.checksum);
    else
        printf("%-15s %-14s %-6s %6ld %7d %12.4e %10.4g %9.4g %22.15e\n", d->name, sz,
               use_double ? "double" : "float", steps, max_threads(), sec_per_step, gpoints,
               gbytes, r.checksum);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int use_double = 0, csv = 0;
    long steps = DEFAULT_STEPS, reps = DEFAULT_REPS;
    const char *name = NULL, *size = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--double")) {
            use_double = 1;
        } else if (!strcmp(a, "--csv")) {
            csv = 1;
        } else if (!strcmp(a, "--steps") || !strncmp(a, "--steps=", 8) ||
                   !strcmp(a, "--reps") || !strncmp(a, "--reps=", 7)) {
            int is_reps = a[3] == 'e';
            size_t len = is_reps ? 6 : 7;
            const char *v = a[len] == '=' ? a + len + 1 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            errno = 0;
            long long s = v ? strtoll(v, &end, 10) : 0;
            if (!v || errno || *end || end == v || s < 1 || s > (is_reps ? 1000 : 1000000000LL)) {
                fprintf(stderr, "omp_stencils: %s needs a whole number >= 1\n",
                        is_reps ? "--reps" : "--steps");
                return 2;
            }
            if (is_reps)
                reps = (long)s;
            else
                steps = (long)s;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "omp_stencils: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!name) {
            name = a;
        } else if (!size) {
            size = a;
        } else {
            fprintf(stderr, "omp_stencils: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!name) {
        usage(stderr);
        return 2;
    }

    int first = 0, last = -1;
    if (!strcmp(name, "all")) {
        if (size) {
            fprintf(stderr, "omp_stencils: 'all' runs the default sizes; give no SIZE\n");
            return 2;
        }
        first = 0;
        last = ST_COUNT - 1;
    } else {
        for (int i = 0; i < ST_COUNT; i++)
            if (!strcmp(name, stencils[i].name)) first = last = i;
        if (last < 0) {
            fprintf(stderr, "omp_stencils: unknown stencil '%s'\n", name);
            usage(stderr);
            return 2;
        }
    }

    long n[3];
    if (size) {
        int parts = parse_size(size, n);
        if (!parts) {
            fprintf(stderr,
                    "omp_stencils: invalid SIZE '%s': expected NX, NXxNY or NXxNYxNZ with every "
                    "part a whole number >= 1\n",
                    size);
            return 2;
        }
        if (parts != stencils[first].dims) {
            fprintf(stderr, "omp_stencils: SIZE %s has %d part%s but %s is %dD\n", size, parts,
                    parts == 1 ? "" : "s", stencils[first].name, stencils[first].dims);
            return 2;
        }
        /* Points and the largest array (pathfinder's wall: steps rows) must fit in memory
         * arithmetic. */
        double pts = (double)n[0] * (double)n[1] * (double)n[2];
        double biggest = pts * (stencils[first].naux && first == ST_PATHFINDER ? (double)steps
                                                                                : 1.0);
        if (pts > 9.0e15 || biggest * 8.0 > 9.0e18) {
            fprintf(stderr, "omp_stencils: SIZE %s is too large\n", size);
            return 2;
        }
    }

    if (csv)
        printf("name,size,dtype,steps,threads,seconds_per_step,gpoints_per_s,gb_per_s,"
               "bytes_per_point,checksum\n");
    else
        printf("%-15s %-14s %-6s %6s %7s %12s %10s %9s %22s\n", "name", "size", "dtype",
               "steps", "threads", "s/step", "GPoints/s", "GB/s", "checksum");
    for (int i = first; i <= last; i++) {
        const long *sz = size ? n : stencils[i].default_size;
        if (run_one(i, sz, steps, reps, use_double, csv) != 0) return 1;
    }
    return 0;
}

#else /* ------------------------------------------------- kernels for T = OMP_STENCILS_T */

#define T OMP_STENCILS_T

/* Everything a step needs besides the two state buffers. */
typedef struct S(grid) {
    long nx, ny, nz;
    const T *aux;     /* rhs, power or wall (NULL if none) */
    const T *zeros;   /* a row of nx zeros: cell3d's outside rows */
    /* hotspot constants, computed once (see S(hotspot_constants)) */
    T hs_step_div_cap, hs_rx, hs_ry, hs_rz, hs_amb; /* hs_r*: the reciprocals 1/Rx, 1/Ry, 1/Rz */
} S(grid);

/* Clamped neighbour indices. */
#define LO(i) ((i) > 0 ? (i) - 1 : 0)
#define HI(i, n) ((i) + 1 < (n) ? (i) + 1 : (n) - 1)
#define ROW(base, g, y, z) ((base) + (g)->nx * ((y) + (g)->ny * (z)))
#define MIN2(a, b) ((b) < (a) ? (b) : (a)) /* OpenCL min(a, b) for finite values */

/* Runs o[x] = POINT(x-1, x, x+1) over a row: the two edge points with the neighbour index
 * clamped, the interior as a plain loop. */
#define ROW_LOOP(o, nx, POINT)                                                                 \
    do {                                                                                       \
        long n_ = (nx);                                                                        \
        (o)[0] = POINT(0, 0, (n_ > 1 ? 1 : 0));                                                \
        for (long x_ = 1; x_ < n_ - 1; x_++) (o)[x_] = POINT(x_ - 1, x_, x_ + 1);              \
        if (n_ > 1) (o)[n_ - 1] = POINT(n_ - 2, n_ - 1, n_ - 1);                               \
    } while (0)

/* ------------------------------------------------------------------------------ heat3d7 */

static void S(heat3d7_row)(T *restrict o, const T *restrict c, const T *restrict ym,
                           const T *restrict yp, const T *restrict zm, const T *restrict zp,
                           long nx)
{
    const T alpha = (T)0.1;
#define P_HEAT7(xm, x, xp)                                                                     \
    (c[x] + alpha * (zm[x] + ym[x] + c[xm] + c[xp] + yp[x] + zp[x] - (T)6 * c[x]))
    ROW_LOOP(o, nx, P_HEAT7);
#undef P_HEAT7
}

static void S(heat3d7)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++)
        for (long y = 0; y < g->ny; y++)
            S(heat3d7_row)(ROW(out, g, y, z), ROW(in, g, y, z), ROW(in, g, LO(y), z),
                           ROW(in, g, HI(y, g->ny), z), ROW(in, g, y, LO(z)),
                           ROW(in, g, y, HI(z, g->nz)), g->nx);
}

/* ----------------------------------------------------------------------------- heat3d27 */

/* r<dz><dy>: the row at offset (dy, dz), m = -1, c = 0, p = +1.  Sums in the library's
 * order: z slowest, then y, then x. */
static void S(heat3d27_row)(T *restrict o, const T *restrict rmm, const T *restrict rmc,
                            const T *restrict rmp, const T *restrict rcm, const T *restrict rcc,
                            const T *restrict rcp, const T *restrict rpm, const T *restrict rpc,
                            const T *restrict rpp, long nx)
{
    const T c0 = (T)0.3, c1 = (T)0.05, c2 = (T)0.025, c3 = (T)0.0125;
#define P_HEAT27(xm, x, xp)                                                                    \
    (c0 * rcc[x] +                                                                             \
     c1 * (rmc[x] + rcm[x] + rcc[xm] + rcc[xp] + rcp[x] + rpc[x]) +                            \
     c2 * (rmm[x] + rmc[xm] + rmc[xp] + rmp[x] + rcm[xm] + rcm[xp] + rcp[xm] + rcp[xp] +       \
           rpm[x] + rpc[xm] + rpc[xp] + rpp[x]) +                                              \
     c3 * (rmm[xm] + rmm[xp] + rmp[xm] + rmp[xp] + rpm[xm] + rpm[xp] + rpp[xm] + rpp[xp]))
    ROW_LOOP(o, nx, P_HEAT27);
#undef P_HEAT27
}

static void S(heat3d27)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++) {
        long zm = LO(z), zp = HI(z, g->nz);
        for (long y = 0; y < g->ny; y++) {
            long ym = LO(y), yp = HI(y, g->ny);
            S(heat3d27_row)(ROW(out, g, y, z), ROW(in, g, ym, zm), ROW(in, g, y, zm),
                            ROW(in, g, yp, zm), ROW(in, g, ym, z), ROW(in, g, y, z),
                            ROW(in, g, yp, z), ROW(in, g, ym, zp), ROW(in, g, y, zp),
                            ROW(in, g, yp, zp), g->nx);
        }
    }
}

/* ----------------------------------------------------------------------------- jacobi3d */

static void S(jacobi3d_row)(T *restrict o, const T *restrict c, const T *restrict ym,
                            const T *restrict yp, const T *restrict zm, const T *restrict zp,
                            long nx)
{
#define P_JACOBI(xm, x, xp) ((c[xm] + c[xp] + ym[x] + yp[x] + zm[x] + zp[x]) / (T)6)
    ROW_LOOP(o, nx, P_JACOBI);
#undef P_JACOBI
}

static void S(jacobi3d)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++)
        for (long y = 0; y < g->ny; y++)
            S(jacobi3d_row)(ROW(out, g, y, z), ROW(in, g, y, z), ROW(in, g, LO(y), z),
                            ROW(in, g, HI(y, g->ny), z), ROW(in, g, y, LO(z)),
                            ROW(in, g, y, HI(z, g->nz)), g->nx);
}

/* ------------------------------------------------------------------------------- cell3d */

/* Bays' rule 4555: a live cell survives with 4..5 live neighbours, a dead one is born with
 * exactly 5.  Outside the grid counts as dead (rows outside are g->zeros; the x edges skip
 * the missing column).  Cells are 0 or 1, so the count is the neighbours' sum, as in the
 * library's built-in (which sums the columns x-1, x, x+1 without the centre; here each column
 * holds the centre, subtracted after: the same whole numbers, exactly). */
static T S(cell_rule)(T self, T n)
{
    return self > (T)0.5 ? (T)(n >= (T)4 && n <= (T)5) : (T)(n == (T)5);
}

static void S(cell3d_row)(T *restrict o, const T *restrict rmm, const T *restrict rmc,
                          const T *restrict rmp, const T *restrict rcm, const T *restrict rcc,
                          const T *restrict rcp, const T *restrict rpm, const T *restrict rpc,
                          const T *restrict rpp, long nx)
{
    /* Column sums of the 9 rows (the centre cell excluded below). */
#define COL(x) (rmm[x] + rmc[x] + rmp[x] + rcm[x] + rcc[x] + rcp[x] + rpm[x] + rpc[x] + rpp[x])
    for (long x = 1; x < nx - 1; x++) {
        T n = COL(x - 1) + COL(x) + COL(x + 1) - rcc[x];
        /* Branch-free form of cell_rule (n is a whole number): alive next step iff n == 5,
         * or n == 4 and alive now. */
        int next = (n == (T)5) | ((n == (T)4) & (rcc[x] > (T)0.5));
        o[x] = (T)next;
    }
    /* Edges: the column beyond the grid is dead. */
    {
        T n = COL(0) - rcc[0] + (nx > 1 ? COL(1) : (T)0);
        o[0] = S(cell_rule)(rcc[0], n);
    }
    if (nx > 1) {
        T n = COL(nx - 2) + COL(nx - 1) - rcc[nx - 1];
        o[nx - 1] = S(cell_rule)(rcc[nx - 1], n);
    }
#undef COL
}

static void S(cell3d)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++) {
        for (long y = 0; y < g->ny; y++) {
            const T *r[3][3];
            for (int dz = -1; dz <= 1; dz++)
                for (int dy = -1; dy <= 1; dy++) {
                    long yy = y + dy, zz = z + dz;
                    r[dz + 1][dy + 1] = (yy < 0 || yy >= g->ny || zz < 0 || zz >= g->nz)
                                            ? g->zeros
                                            : ROW(in, g, yy, zz);
                }
            S(cell3d_row)(ROW(out, g, y, z), r[0][0], r[0][1], r[0][2], r[1][0], r[1][1],
                          r[1][2], r[2][0], r[2][1], r[2][2], g->nx);
        }
    }
}

/* ---------------------------------------------------------------------------- poisson2d */

static void S(poisson2d_row)(T *restrict o, const T *restrict c, const T *restrict ym,
                             const T *restrict yp, const T *restrict rhs, long nx)
{
    const T h = (T)1;
#define P_POISSON(xm, x, xp) ((T)0.25 * (c[xp] + c[xm] + yp[x] + ym[x] - h * h * rhs[x]))
    ROW_LOOP(o, nx, P_POISSON);
#undef P_POISSON
}

static void S(poisson2d)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++)
        S(poisson2d_row)(ROW(out, g, y, 0), ROW(in, g, y, 0), ROW(in, g, LO(y), 0),
                         ROW(in, g, HI(y, g->ny), 0), ROW(g->aux, g, y, 0), g->nx);
}

/* ------------------------------------------------------------------------------ hotspot */

/* The derived HotSpot constants, computed once in T arithmetic from T-typed parameters, in
 * the same order of operations as the library's hotspot body (which computes them in `real`
 * from the same parameters; there NX and NY are compile-time constants, so the OpenCL
 * compiler folds them the same way). */
static void S(hotspot_constants)(S(grid) *g)
{
    const T chip_width = (T)HS_CHIP_WIDTH, chip_height = (T)HS_CHIP_HEIGHT;
    const T t_chip = (T)HS_T_CHIP, k_si = (T)HS_K_SI, spec_heat_si = (T)HS_SPEC_HEAT_SI;
    const T factor_chip = (T)HS_FACTOR_CHIP, max_pd = (T)HS_MAX_PD;
    const T precision = (T)HS_PRECISION;
    T gw = chip_width / (T)g->nx;
    T gh = chip_height / (T)g->ny;
    T cap = factor_chip * spec_heat_si * t_chip * gw * gh;
    /* Reciprocals, as Rodinia's kernel (and the library's body) multiply by them. */
    T rx_1 = (T)1 / (gw / ((T)2 * k_si * t_chip * gh));
    T ry_1 = (T)1 / (gh / ((T)2 * k_si * t_chip * gw));
    T rz_1 = (T)1 / (t_chip / (k_si * gh * gw));
    T dt = precision / (max_pd / (factor_chip * t_chip * spec_heat_si));
    g->hs_step_div_cap = dt / cap;
    g->hs_rx = rx_1;
    g->hs_ry = ry_1;
    g->hs_rz = rz_1;
    g->hs_amb = (T)HS_AMB_TEMP;
}

static void S(hotspot_row)(T *restrict o, const T *restrict c, const T *restrict ym,
                           const T *restrict yp, const T *restrict power, long nx, T sdc, T rx,
                           T ry, T rz, T amb)
{
#define P_HOTSPOT(xm, x, xp)                                                                   \
    (c[x] + sdc * (power[x] + (yp[x] + ym[x] - (T)2 * c[x]) * ry +                             \
                   (c[xp] + c[xm] - (T)2 * c[x]) * rx + (amb - c[x]) * rz))
    ROW_LOOP(o, nx, P_HOTSPOT);
#undef P_HOTSPOT
}

static void S(hotspot)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
    const T sdc = g->hs_step_div_cap, rx = g->hs_rx, ry = g->hs_ry, rz = g->hs_rz;
    const T amb = g->hs_amb;
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++)
        S(hotspot_row)(ROW(out, g, y, 0), ROW(in, g, y, 0), ROW(in, g, LO(y), 0),
                       ROW(in, g, HI(y, g->ny), 0), ROW(g->aux, g, y, 0), g->nx, sdc, rx, ry,
                       rz, amb);
}

/* --------------------------------------------------------------------------- pathfinder */

/* One row of the dynamic programme: u'[x] = wall[step][x] + min(u[x-1], u[x], u[x+1]). */
static void S(pathfinder)(const S(grid) *g, const T *in, T *out, long step)
{
    long nx = g->nx;
    const T *restrict wall = g->aux + (size_t)step * (size_t)nx;
    const T *restrict u = in;
    T *restrict o = out;
#pragma omp parallel for schedule(static)
    for (long x = 1; x < nx - 1; x++) o[x] = wall[x] + MIN2(u[x - 1], MIN2(u[x], u[x + 1]));
    o[0] = wall[0] + MIN2(u[0], MIN2(u[0], u[HI(0, nx)]));
    if (nx > 1) o[nx - 1] = wall[nx - 1] + MIN2(u[nx - 2], MIN2(u[nx - 1], u[nx - 1]));
}

/* ----------------------------------------------------------------------- moving_average */

static T S(ma_edge)(const T *u, long x, long nx)
{
    T s = 0;
    for (int d = -MA_RADIUS; d <= MA_RADIUS; d++) {
        long i = x + d;
        i = i < 0 ? 0 : i >= nx ? nx - 1 : i;
        s = d == -MA_RADIUS ? u[i] : s + u[i];
    }
    return s / (T)(2 * MA_RADIUS + 1);
}

static void S(moving_average)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
    long nx = g->nx;
    long lo = nx < MA_RADIUS ? nx : MA_RADIUS;
    long hi = nx - MA_RADIUS > lo ? nx - MA_RADIUS : lo;
    const T *restrict u = in;
    T *restrict o = out;
#pragma omp parallel for schedule(static)
    for (long x = lo; x < hi; x++)
        o[x] = (u[x - 4] + u[x - 3] + u[x - 2] + u[x - 1] + u[x] + u[x + 1] + u[x + 2] +
                u[x + 3] + u[x + 4]) /
               (T)(2 * MA_RADIUS + 1);
    for (long x = 0; x < lo; x++) o[x] = S(ma_edge)(u, x, nx);
    for (long x = hi; x < nx; x++) o[x] = S(ma_edge)(u, x, nx);
}

/* ------------------------------------------------------------------------------- emboss */

static void S(emboss_row)(T *restrict o, const T *restrict c, const T *restrict ym,
                          const T *restrict yp, long nx)
{
#define P_EMBOSS(xm, x, xp) ((c[xp] + yp[x] + yp[xp]) - (ym[xm] + ym[x] + c[xm]))
    ROW_LOOP(o, nx, P_EMBOSS);
#undef P_EMBOSS
}

static void S(emboss)(const S(grid) *g, const T *in, T *out, long step)
{
    (void)step;
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++)
        S(emboss_row)(ROW(out, g, y, 0), ROW(in, g, y, 0), ROW(in, g, LO(y), 0),
                      ROW(in, g, HI(y, g->ny), 0), g->nx);
}

/* ------------------------------------------------------------------- systems of fields */

/* A system's step works on its buffers f[] (the fields in the library's order, then spare
 * buffers) and rotates them itself, so that f[0..fields) hold the fields after the step. */
typedef void (*S(system_fn))(const S(grid) *g, T **f);

/* A coordinate up to one fold outside [0, n): clamped, or wrapped on a periodic grid. */
static long S(fold)(long i, long n, int periodic)
{
    if (periodic) return i < 0 ? i + n : (i >= n ? i - n : i);
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}
#define CY(g, y, d) S(fold)((y) + (d), (g)->ny, 0)
#define CZ(g, z, d) S(fold)((z) + (d), (g)->nz, 0)

/* wave2d, wave3d: u' = 2 u - u_prev + c2 lap u; f = {u, u_prev, spare}, then u_prev <- u. */
static void S(wave2d_row)(T *restrict o, const T *restrict c, const T *restrict p,
                          const T *restrict ym, const T *restrict yp, long nx)
{
    const T c2 = (T)0.25;
#define P_WAVE2(xm, x, xp)                                                                     \
    ((T)2 * c[x] - p[x] + c2 * (c[xp] + c[xm] + yp[x] + ym[x] - (T)4 * c[x]))
    ROW_LOOP(o, nx, P_WAVE2);
#undef P_WAVE2
}

static void S(wave_rotate)(T **f)
{
    T *u = f[0], *up = f[1];
    f[0] = f[2];
    f[1] = u;
    f[2] = up;
}

static void S(wave2d)(const S(grid) *g, T **f)
{
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++)
        S(wave2d_row)(ROW(f[2], g, y, 0), ROW(f[0], g, y, 0), ROW(f[1], g, y, 0),
                      ROW(f[0], g, LO(y), 0), ROW(f[0], g, HI(y, g->ny), 0), g->nx);
    S(wave_rotate)(f);
}

static void S(wave3d_row)(T *restrict o, const T *restrict c, const T *restrict p,
                          const T *restrict ym, const T *restrict yp, const T *restrict zm,
                          const T *restrict zp, long nx)
{
    const T c2 = (T)0.25;
#define P_WAVE3(xm, x, xp)                                                                     \
    ((T)2 * c[x] - p[x] + c2 * (c[xp] + c[xm] + yp[x] + ym[x] + zp[x] + zm[x] - (T)6 * c[x]))
    ROW_LOOP(o, nx, P_WAVE3);
#undef P_WAVE3
}

static void S(wave3d)(const S(grid) *g, T **f)
{
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++)
        for (long y = 0; y < g->ny; y++)
            S(wave3d_row)(ROW(f[2], g, y, z), ROW(f[0], g, y, z), ROW(f[1], g, y, z),
                          ROW(f[0], g, LO(y), z), ROW(f[0], g, HI(y, g->ny), z),
                          ROW(f[0], g, y, LO(z)), ROW(f[0], g, y, HI(z, g->nz)), g->nx);
    S(wave_rotate)(f);
}

/* acoustic3d_r4: the 8th-order Laplacian (radius 4 on each axis), leapfrog in time.  ry[k]
 * and rz[k] are the rows at y + k - 4 and z + k - 4 (k = 4 the row itself, unused). */
static void S(acoustic_row)(T *restrict o, const T *restrict c, const T *restrict p,
                            const T *restrict y0, const T *restrict y1, const T *restrict y2,
                            const T *restrict y3, const T *restrict y5, const T *restrict y6,
                            const T *restrict y7, const T *restrict y8, const T *restrict z0,
                            const T *restrict z1, const T *restrict z2, const T *restrict z3,
                            const T *restrict z5, const T *restrict z6, const T *restrict z7,
                            const T *restrict z8, long nx)
{
    const T c2 = (T)0.1, w0 = (T)(-3 * 205) / (T)72.0, w1 = (T)8 / (T)5.0, w2 = (T)1 / (T)5.0;
    const T w3 = (T)8 / (T)315.0, w4 = (T)1 / (T)560.0;
    /* the body's order: +-1, then y, then z for each distance */
#define P_AC(x, m1, p1, m2, p2, m3, p3, m4, p4)                                                 \
    ((T)2 * c[x] - p[x] +                                                                      \
     c2 * (w0 * c[x] + w1 * (c[p1] + c[m1] + y5[x] + y3[x] + z5[x] + z3[x]) -                  \
           w2 * (c[p2] + c[m2] + y6[x] + y2[x] + z6[x] + z2[x]) +                              \
           w3 * (c[p3] + c[m3] + y7[x] + y1[x] + z7[x] + z1[x]) -                              \
           w4 * (c[p4] + c[m4] + y8[x] + y0[x] + z8[x] + z0[x])))
    long lo = nx < 4 ? nx : 4, hi = nx - 4 > lo ? nx - 4 : lo;
    for (long x = lo; x < hi; x++)
        o[x] = P_AC(x, x - 1, x + 1, x - 2, x + 2, x - 3, x + 3, x - 4, x + 4);
#define F(d) S(fold)(x + (d), nx, 0)
    for (long x = 0; x < lo; x++)
        o[x] = P_AC(x, F(-1), F(1), F(-2), F(2), F(-3), F(3), F(-4), F(4));
    for (long x = hi; x < nx; x++)
        o[x] = P_AC(x, F(-1), F(1), F(-2), F(2), F(-3), F(3), F(-4), F(4));
#undef F
#undef P_AC
}

static void S(acoustic3d_r4)(const S(grid) *g, T **f)
{
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++)
        for (long y = 0; y < g->ny; y++) {
            const T *u = f[0];
#define RY(d) ROW(u, g, CY(g, y, d), z)
#define RZ(d) ROW(u, g, y, CZ(g, z, d))
            S(acoustic_row)(ROW(f[2], g, y, z), ROW(u, g, y, z), ROW(f[1], g, y, z), RY(-4),
                            RY(-3), RY(-2), RY(-1), RY(1), RY(2), RY(3), RY(4), RZ(-4), RZ(-3),
                            RZ(-2), RZ(-1), RZ(1), RZ(2), RZ(3), RZ(4), g->nx);
#undef RY
#undef RZ
        }
    S(wave_rotate)(f);
}

/* gray_scott (periodic): u and v from both; f = {u, v, u', v'}. */
static void S(gray_scott_row)(T *restrict ou, T *restrict ov, const T *restrict u,
                              const T *restrict uym, const T *restrict uyp, const T *restrict v,
                              const T *restrict vym, const T *restrict vyp, long nx)
{
    const T Du = (T)0.16, Dv = (T)0.08, F = (T)0.035, k = (T)0.065, dt = (T)1.0;
#define P_GS(xm, x, xp)                                                                        \
    do {                                                                                       \
        T a = u[x], b = v[x];                                                                  \
        T lu = u[xp] + u[xm] + uyp[x] + uym[x] - (T)4 * a;                                     \
        T lv = v[xp] + v[xm] + vyp[x] + vym[x] - (T)4 * b;                                     \
        ou[x] = a + dt * (Du * lu - a * b * b + F * ((T)1 - a));                               \
        ov[x] = b + dt * (Dv * lv + a * b * b - (F + k) * b);                                  \
    } while (0)
    for (long x = 1; x < nx - 1; x++) P_GS(x - 1, x, x + 1);
    P_GS(nx - 1, 0, (nx > 1 ? 1 : 0));
    if (nx > 1) P_GS(nx - 2, nx - 1, 0);
#undef P_GS
}

static void S(gray_scott)(const S(grid) *g, T **f)
{
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++) {
        long ym = S(fold)(y - 1, g->ny, 1), yp = S(fold)(y + 1, g->ny, 1);
        S(gray_scott_row)(ROW(f[2], g, y, 0), ROW(f[3], g, y, 0), ROW(f[0], g, y, 0),
                          ROW(f[0], g, ym, 0), ROW(f[0], g, yp, 0), ROW(f[1], g, y, 0),
                          ROW(f[1], g, ym, 0), ROW(f[1], g, yp, 0), g->nx);
    }
    T *u = f[0], *v = f[1];
    f[0] = f[2];
    f[1] = f[3];
    f[2] = u;
    f[3] = v;
}

/* fdtd2d: H from E, then E from the new H, in place (each update reads its own field at its
 * own point only, so the stage's start is intact where it is read); f = {Ex, Ey, Hz}. */
static void S(fdtd2d_h_row)(T *restrict hz, const T *restrict ex, const T *restrict exyp,
                            const T *restrict ey, long nx)
{
    const T S = (T)0.5;
#define P_HZ(xm, x, xp) (hz[x] - S * ((ey[xp] - ey[x]) - (exyp[x] - ex[x])))
    ROW_LOOP(hz, nx, P_HZ);
#undef P_HZ
}

static void S(fdtd2d_e_row)(T *restrict ex, T *restrict ey, const T *restrict hz,
                            const T *restrict hzym, long nx)
{
    const T S = (T)0.5;
#define P_E(xm, x, xp)                                                                         \
    do {                                                                                       \
        ex[x] = ex[x] + S * (hz[x] - hzym[x]);                                                 \
        ey[x] = ey[x] - S * (hz[x] - hz[xm]);                                                  \
    } while (0)
    for (long x = 1; x < nx; x++) P_E(x - 1, x, x);
    P_E(0, 0, 0);
#undef P_E
}

static void S(fdtd2d)(const S(grid) *g, T **f)
{
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++)
        S(fdtd2d_h_row)(ROW(f[2], g, y, 0), ROW(f[0], g, y, 0), ROW(f[0], g, HI(y, g->ny), 0),
                        ROW(f[1], g, y, 0), g->nx);
#pragma omp parallel for schedule(static)
    for (long y = 0; y < g->ny; y++)
        S(fdtd2d_e_row)(ROW(f[0], g, y, 0), ROW(f[1], g, y, 0), ROW(f[2], g, y, 0),
                        ROW(f[2], g, LO(y), 0), g->nx);
}

/* fdtd3d: f = {Ex, Ey, Ez, Hx, Hy, Hz}; suffix y/z: the row at y + 1 or z + 1 (H stage),
 * y - 1 or z - 1 (E stage). */
static void S(fdtd3d_h_row)(T *restrict hx, T *restrict hy, T *restrict hz, const T *restrict ex,
                            const T *restrict exy, const T *restrict exz, const T *restrict ey,
                            const T *restrict eyz, const T *restrict ez, const T *restrict ezy,
                            long nx)
{
    const T S = (T)0.5;
#define P_H(xm, x, xp)                                                                         \
    do {                                                                                       \
        hx[x] = hx[x] - S * ((ezy[x] - ez[x]) - (eyz[x] - ey[x]));                             \
        hy[x] = hy[x] - S * ((exz[x] - ex[x]) - (ez[xp] - ez[x]));                             \
        hz[x] = hz[x] - S * ((ey[xp] - ey[x]) - (exy[x] - ex[x]));                             \
    } while (0)
    for (long x = 0; x < nx - 1; x++) P_H(x, x, x + 1);
    if (nx > 0) P_H(nx - 1, nx - 1, nx - 1);
#undef P_H
}

static void S(fdtd3d_e_row)(T *restrict ex, T *restrict ey, T *restrict ez, const T *restrict hx,
                            const T *restrict hxy, const T *restrict hxz, const T *restrict hy,
                            const T *restrict hyz, const T *restrict hz, const T *restrict hzy,
                            long nx)
{
    const T S = (T)0.5;
#define P_E(xm, x, xp)                                                                         \
    do {                                                                                       \
        ex[x] = ex[x] + S * ((hz[x] - hzy[x]) - (hy[x] - hyz[x]));                             \
        ey[x] = ey[x] + S * ((hx[x] - hxz[x]) - (hz[x] - hz[xm]));                             \
        ez[x] = ez[x] + S * ((hy[x] - hy[xm]) - (hx[x] - hxy[x]));                             \
    } while (0)
    for (long x = 1; x < nx; x++) P_E(x - 1, x, x);
    P_E(0, 0, 0);
#undef P_E
}

static void S(fdtd3d)(const S(grid) *g, T **f)
{
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++)
        for (long y = 0; y < g->ny; y++) {
            long yp = HI(y, g->ny), zp = HI(z, g->nz);
            S(fdtd3d_h_row)(ROW(f[3], g, y, z), ROW(f[4], g, y, z), ROW(f[5], g, y, z),
                            ROW(f[0], g, y, z), ROW(f[0], g, yp, z), ROW(f[0], g, y, zp),
                            ROW(f[1], g, y, z), ROW(f[1], g, y, zp), ROW(f[2], g, y, z),
                            ROW(f[2], g, yp, z), g->nx);
        }
#pragma omp parallel for schedule(static)
    for (long z = 0; z < g->nz; z++)
        for (long y = 0; y < g->ny; y++) {
            long ym = LO(y), zm = LO(z);
            S(fdtd3d_e_row)(ROW(f[0], g, y, z), ROW(f[1], g, y, z), ROW(f[2], g, y, z),
                            ROW(f[3], g, y, z), ROW(f[3], g, ym, z), ROW(f[3], g, y, zm),
                            ROW(f[4], g, y, z), ROW(f[4], g, y, zm), ROW(f[5], g, y, z),
                            ROW(f[5], g, ym, z), g->nx);
        }
}

static const S(system_fn) S(systems)[ST_COUNT] = {
    [ST_WAVE2D] = S(wave2d),         [ST_WAVE3D] = S(wave3d),
    [ST_ACOUSTIC3D_R4] = S(acoustic3d_r4), [ST_GRAY_SCOTT] = S(gray_scott),
    [ST_FDTD2D] = S(fdtd2d),         [ST_FDTD3D] = S(fdtd3d),
};

/* The fields' initial values (spare buffers: 0), by the threads that use them: smooth plus a
 * small perturbation per field; Gray-Scott's u in [0.5, 1] and v in [0.06, 0.2]. */
static void S(init_system)(int id, const long n[3], T **f)
{
    long nx = n[0], ny = n[1], nz = n[2];
    long outer = stencils[id].dims == 3 ? nz : ny;
#pragma omp parallel for schedule(static)
    for (long o = 0; o < outer; o++) {
        long zlo = stencils[id].dims == 3 ? o : 0, zhi = stencils[id].dims == 3 ? o + 1 : 1;
        long ylo = stencils[id].dims == 3 ? 0 : o, yhi = stencils[id].dims == 3 ? ny : o + 1;
        for (long z = zlo; z < zhi; z++)
            for (long y = ylo; y < yhi; y++)
                for (long x = 0; x < nx; x++) {
                    size_t i = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z);
                    double s = smooth(x, y, z, n);
                    for (int k = 0; k < stencils[id].buffers; k++) {
                        double h = hash01(i, 11 + (uint64_t)k) - 0.5, v = 0;
                        if (k >= stencils[id].fields) v = 0;
                        else if (id == ST_GRAY_SCOTT) v = k ? 0.25 * (1 - s) + 0.01 * h : s + 0.25;
                        else if (id == ST_FDTD2D || id == ST_FDTD3D) v = 0.1 * (s - 0.5) + 0.01 * h;
                        else v = s + 0.05 * h;
                        f[k][i] = (T)v;
                    }
                }
    }
}

/* As S(run) for a system: every timed run starts from the initial fields, after one untimed
 * step; the checksum sums the fields in the library's order. */
static result S(run_system)(int id, const long n[3], long steps, long reps)
{
    const stencil_desc *d = &stencils[id];
    size_t points = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    T *buf[8], *f[8];
    for (int k = 0; k < d->buffers; k++) buf[k] = alloc_array(points, sizeof(T), "a field");
    S(grid) g;
    memset(&g, 0, sizeof g);
    g.nx = n[0];
    g.ny = n[1];
    g.nz = n[2];
    double *times = malloc((size_t)reps * sizeof *times);
    if (!times) {
        fprintf(stderr, "omp_stencils: cannot allocate the timing table\n");
        exit(1);
    }
    S(system_fn) step = S(systems)[id];
    for (long rep = 0; rep < reps; rep++) {
        memcpy(f, buf, sizeof buf);
        S(init_system)(id, n, f);
        step(&g, f);
        memcpy(f, buf, sizeof buf);
        S(init_system)(id, n, f);
        double t0 = now_seconds();
        for (long s = 0; s < steps; s++) step(&g, f);
        times[rep] = now_seconds() - t0;
    }
    result r;
    r.seconds = median_of(times, (size_t)reps);
    free(times);
    r.checksum = 0;
    for (int k = 0; k < d->fields; k++)
        for (size_t i = 0; i < points; i++) r.checksum += (double)f[k][i];
    for (int k = 0; k < d->buffers; k++) free(buf[k]);
    return r;
}

#undef CY
#undef CZ

/* --------------------------------------------------------------------------- the driver */

typedef void (*S(step_fn))(const S(grid) *g, const T *in, T *out, long step);

static const S(step_fn) S(kernels)[ST_COUNT] = {
    [ST_HEAT3D7] = S(heat3d7),       [ST_HEAT3D27] = S(heat3d27),
    [ST_JACOBI3D] = S(jacobi3d),     [ST_CELL3D] = S(cell3d),
    [ST_POISSON2D] = S(poisson2d),   [ST_HOTSPOT] = S(hotspot),
    [ST_PATHFINDER] = S(pathfinder), [ST_MOVING_AVERAGE] = S(moving_average),
    [ST_EMBOSS] = S(emboss),
};

/* Deterministic initial state and auxiliary arrays, written by the threads that will use
 * them (first touch).  aux holds `aux_rows` grids (pathfinder: one wall row per step). */
static void S(init)(int id, const long n[3], T *u, T *other, T *aux, long aux_rows)
{
    long nx = n[0], ny = n[1], nz = n[2];
    long outer = stencils[id].dims == 3 ? nz : stencils[id].dims == 2 ? ny : nx;
    double pmax = HS_MAX_PD * (HS_CHIP_WIDTH / (double)nx) * (HS_CHIP_HEIGHT / (double)ny);
#pragma omp parallel for schedule(static)
    for (long o = 0; o < outer; o++) {
        /* One outer index: a z plane, a y row, or (1D) a single point. */
        long zlo = 0, zhi = nz, ylo = 0, yhi = ny, xlo = 0, xhi = nx;
        if (stencils[id].dims == 3) {
            zlo = o;
            zhi = o + 1;
        } else if (stencils[id].dims == 2) {
            ylo = o;
            yhi = o + 1;
        } else {
            xlo = o;
            xhi = o + 1;
        }
        for (long z = zlo; z < zhi; z++)
            for (long y = ylo; y < yhi; y++)
                for (long x = xlo; x < xhi; x++) {
                    size_t i = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z);
                    double s = smooth(x, y, z, n), h = hash01(i, 1) - 0.5;
                    double v;
                    switch (id) {
                    case ST_CELL3D: v = hash01(i, 2) < 0.25 ? 1.0 : 0.0; break;
                    case ST_HOTSPOT: v = 323.15 + 40.0 * (s - 0.5) + 0.5 * h; break;
                    case ST_PATHFINDER: v = floor(hash01(i, 3) * 10.0); break;
                    case ST_EMBOSS: v = 255.0 * s + 16.0 * h; break;
                    default: v = s + 0.05 * h; break;
                    }
                    u[i] = (T)v;
                    other[i] = (T)0;
                    if (aux) {
                        if (id == ST_POISSON2D)
                            aux[i] = (T)(0.01 * (s - 0.5) + 0.001 * (hash01(i, 4) - 0.5));
                        else if (id == ST_HOTSPOT)
                            aux[i] = (T)(pmax * hash01(i, 5) * s);
                        else if (id == ST_PATHFINDER)
                            for (long r = 0; r < aux_rows; r++)
                                aux[(size_t)r * (size_t)nx + i] =
                                    (T)floor(hash01((size_t)r * (size_t)nx + i, 6) * 10.0);
                    }
                }
    }
}

static result S(run)(int id, const long n[3], long steps, long reps)
{
    if (is_system(id)) return S(run_system)(id, n, steps, reps);
    const stencil_desc *d = &stencils[id];
    size_t points = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    long aux_rows = id == ST_PATHFINDER ? steps : 1;
    T *a = alloc_array(points, sizeof(T), "the state");
    T *b = alloc_array(points, sizeof(T), "the second state buffer");
    T *aux = d->naux ? alloc_array(points * (size_t)aux_rows, sizeof(T), "the auxiliary array")
                     : NULL;
    T *zeros = NULL;
    S(grid) g;
    memset(&g, 0, sizeof g);
    g.nx = n[0];
    g.ny = n[1];
    g.nz = n[2];
    g.aux = aux;
    if (id == ST_CELL3D) {
        zeros = alloc_array((size_t)n[0], sizeof(T), "a row of zeros");
        for (long x = 0; x < n[0]; x++) zeros[x] = (T)0;
        g.zeros = zeros;
    }
    if (id == ST_HOTSPOT) S(hotspot_constants)(&g);
    S(step_fn) step = S(kernels)[id];
    double *times = malloc((size_t)reps * sizeof *times);
    if (!times) {
        fprintf(stderr, "omp_stencils: cannot allocate the timing table\n");
        exit(1);
    }
    T *cur = a, *nxt = b;
    /* Every timed run starts from the initial state (values matter: denormals and inf are
     * slow on CPUs), after one untimed warm-up step into b. */
    for (long rep = 0; rep < reps; rep++) {
        S(init)(id, n, a, b, aux, aux_rows);
        step(&g, a, b, 0);
        cur = a;
        nxt = b;
        double t0 = now_seconds();
        for (long s = 0; s < steps; s++) {
            step(&g, cur, nxt, s);
            T *t = cur;
            cur = nxt;
            nxt = t;
        }
        times[rep] = now_seconds() - t0;
    }

    result r;
    r.seconds = median_of(times, (size_t)reps);
    free(times);
    r.checksum = 0;
    for (size_t i = 0; i < points; i++) r.checksum += (double)cur[i];
    free(a);
    free(b);
    free(aux);
    free(zeros);
    return r;
}

#undef T
#undef LO
#undef HI
#undef ROW
#undef MIN2
#undef ROW_LOOP

#endif /* OMP_STENCILS_T */
