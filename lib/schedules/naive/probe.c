/* probe.c: what the naive schedule's CPU model needs of the device (`clstencil probe`): the
 * row kernel's costs per vector, read, flop, division, row end and run, and how compute and
 * traffic add beyond the cache (doc/devices.md, "The CPU row kernel"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "cpu_cost.h"
#include "expr.h"
#include "fit.h"
#include "naive.h"

#define ROW_MAX_ROUNDS 100

/* Bodies and grids of the row-kernel fit.  A core's vector loop issues its loads (with the
 * loop, the addresses and the store) and its arithmetic on separate ports, so a vector costs
 * the longer of the two sides (model/cpu_rows.c): 7 and 27 reads summed as balanced trees
 * (one add per read beyond the first, short dependency chains) load the load side; one read
 * feeding 99 flops in four chains, and one read divided 16 times, the arithmetic side.  Grids
 * of the same points in rows of 128 and of 32 points (the runs' starts differ 4x), 8 MiB in
 * all: work-items of a medium 3D grid's size (8 rows of 128 points), so that the runtime's
 * cost per work-item weighs as it does there (over 2 MiB grids the cost per vector came out
 * 12.9 cycles against 5-6 over 8 MiB), within the last-level cache, every case bound by the
 * cores. */
static const char *const row_bodies[] = {
    "((IN(0, 0, 0) + IN(-1, 0, 0)) + (IN(1, 0, 0) + IN(0, -1, 0)))"
    " + ((IN(0, 1, 0) + IN(0, 0, -1)) + IN(0, 0, 1))",
    "(((IN(-1, -1, -1) + IN(0, -1, -1)) + (IN(1, -1, -1) + IN(-1, 0, -1)))"
    " + ((IN(0, 0, -1) + IN(1, 0, -1)) + (IN(-1, 1, -1) + IN(0, 1, -1))))"
    " + (((IN(1, 1, -1) + IN(-1, -1, 0)) + (IN(0, -1, 0) + IN(1, -1, 0)))"
    " + ((IN(-1, 0, 0) + IN(0, 0, 0)) + (IN(1, 0, 0) + IN(-1, 1, 0))))"
    " + (((IN(0, 1, 0) + IN(1, 1, 0)) + (IN(-1, -1, 1) + IN(0, -1, 1)))"
    " + ((IN(1, -1, 1) + IN(-1, 0, 1)) + (IN(0, 0, 1) + IN(1, 0, 1))))"
    " + ((IN(-1, 1, 1) + IN(0, 1, 1)) + IN(1, 1, 1))",
    "real x = IN(0, 0, 0);\n"
    "real a1 = x * p + q; real b1 = x * p - q; real c1 = x * q + p; real d1 = x * q - p;\n"
    "real a2 = a1 * p + q; real b2 = b1 * p - q; real c2 = c1 * q + p; real d2 = d1 * q - p;\n"
    "real a3 = a2 * p + q; real b3 = b2 * p - q; real c3 = c2 * q + p; real d3 = d2 * q - p;\n"
    "real a4 = a3 * p + q; real b4 = b3 * p - q; real c4 = c3 * q + p; real d4 = d3 * q - p;\n"
    "real a5 = a4 * p + q; real b5 = b4 * p - q; real c5 = c4 * q + p; real d5 = d4 * q - p;\n"
    "real a6 = a5 * p + q; real b6 = b5 * p - q; real c6 = c5 * q + p; real d6 = d5 * q - p;\n"
    "real a7 = a6 * p + q; real b7 = b6 * p - q; real c7 = c6 * q + p; real d7 = d6 * q - p;\n"
    "real a8 = a7 * p + q; real b8 = b7 * p - q; real c8 = c7 * q + p; real d8 = d7 * q - p;\n"
    "real a9 = a8 * p + q; real b9 = b8 * p - q; real c9 = c8 * q + p; real d9 = d8 * q - p;\n"
    "real a10 = a9 * p + q; real b10 = b9 * p - q; real c10 = c9 * q + p; real d10 = d9 * q - p;\n"
    "real a11 = a10 * p + q; real b11 = b10 * p - q; real c11 = c10 * q + p; real d11 = d10 * q - p;\n"
    "real a12 = a11 * p + q; real b12 = b11 * p - q; real c12 = c11 * q + p; real d12 = d11 * q - p;\n"
    "return (a12 + b12) * (c12 - d12);\n",
    "real x = IN(0, 0, 0);\n"
    "return ((x / p + x / q) + (x / (p + q) + x / (p - q))) + ((x / (p + 1) + x / (q + 1)) + (x / (p + 2) + x / (q + 2)))\n"
    " + (((x / (p + 3) + x / (q + 3)) + (x / (p + 4) + x / (q + 4))) + ((x / (p + 5) + x / (q + 5)) + (x / (p + 6) + x / (q + 6))));\n"};
typedef struct row_case {
    size_t body;
    cls_dims dims;
} row_case;
/* The load side's cases first (ROW_LOAD_CASES of them), then the arithmetic's, then the 7
 * reads over 64 MiB (beyond the cache: how compute and traffic add there). */
static const row_case row_cases[] = {
    {0, {{128, 128, 64}}}, {0, {{32, 256, 128}}}, {1, {{128, 128, 64}}},
    {1, {{32, 256, 128}}}, {2, {{128, 128, 64}}}, {3, {{128, 128, 64}}},
    {0, {{256, 256, 128}}}};
static const row_case quick_row_cases[] = {
    {0, {{128, 32, 32}}}, {0, {{32, 64, 64}}}, {1, {{128, 32, 32}}},
    {1, {{32, 64, 64}}},  {2, {{128, 32, 32}}}, {3, {{128, 32, 32}}},
    {0, {{128, 128, 128}}}};
#define ROW_LOAD_CASES 4
#define ROW_OVERLAP_CASE 6
#define ROW_CASES (sizeof row_cases / sizeof row_cases[0])
#define ROW_STEPS 10

typedef struct row_run {
    cls_stencil *st;
    cls_plan *plan;
    void *in, *out;
    double x[CLS__CPU_TERMS]; /* the model's terms of the case (cls__cpu_rows_terms) */
    double us[ROW_MAX_ROUNDS];
} row_run;

/* One case ready to run: the naive schedule's row kernel for the body over the grid, its
 * buffers, and the terms the model multiplies the costs by. */
static cls_status row_case_prepare(const cls__probe_env *env, const row_case *c, row_run *r)
{
    cls_plan_options o;
    size_t points = c->dims.n[0] * c->dims.n[1] * c->dims.n[2];
    cls_status s = cls_stencil_create("probe_rows", 3, CLS_FLOAT32, row_bodies[c->body], &r->st);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(r->st, "p", 0.999);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(r->st, "q", 0.001);
    if (s != CLS_SUCCESS) return s;
    cls_plan_options_init(&o);
    o.schedule = CLS_SCHEDULE_NAIVE;
    if ((s = cls_plan_create(env->ctx, r->st, c->dims, ROW_STEPS, &o, &r->plan)) != CLS_SUCCESS)
        return s;
    const char *ppi = cls_plan_param(r->plan, "naive.points_per_item");
    const char *rows = cls_plan_param(r->plan, "naive.rows_per_item");
    if (!ppi || !rows)
        return cls__fail(env->ctx, CLS_ERR_UNSUPPORTED,
                         "probe: the naive schedule on %s does not run its row kernel "
                         "(tuning.row_kernel)",
                         env->ctx->info.name);
    r->in = calloc(points, sizeof(float));
    r->out = calloc(points, sizeof(float));
    if (!r->in || !r->out)
        return cls__fail(env->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "probe: row kernel grids");
    for (size_t k = 0; k < points; k++) ((float *)r->in)[k] = (float)(k % 97) / 97.0f;
    cls__cpu_rows_work w = {.n = {c->dims.n[0], c->dims.n[1], c->dims.n[2]}, .launches = 1};
    struct cls_expr *e = NULL;
    int halo[3];
    cls_stencil_halo(r->st, halo);
    w.halo_x = (size_t)halo[0];
    w.row_length = (size_t)strtoull(ppi, NULL, 10);
    w.item_rows = (size_t)strtoull(rows, NULL, 10);
    if ((s = cls__stencil_parse(r->st, &e)) != CLS_SUCCESS) return s;
    cls__cpu_expr_ops(e, &w.reads, &w.flops, &w.divs);
    cls__expr_free(e);
    cls__cpu_rows_terms(&w, cls__cpu_row_lanes(env->ctx->device, CLS_FLOAT32),
                        env->ctx->info.compute_units ? env->ctx->info.compute_units : 1, r->x);
    return CLS_SUCCESS;
}

/* One sample of a case: the device time of a step, microseconds. */
static cls_status row_case_sample(row_run *r, double *us)
{
    return cls__probe_sample(r->plan, r->in, r->out, us);
}

/* The cases' times of a step, sampled in rounds (one sample of every case per round) so that
 * other work on the shared cores falls on every case alike; a case's time is its 10th
 * percentile, as other work only ever slows a kernel.  y[i]: the busiest core's cycles beyond
 * the launch. */
static cls_status row_cases_time(const cls__probe_env *env, const row_case *cases,
                                 row_run *runs, double *y)
{
    const double start = cls__now();
    size_t rounds = 0, max = env->max_rounds < ROW_MAX_ROUNDS ? env->max_rounds : ROW_MAX_ROUNDS;
    double mhz = cls__probe_value(env, "compute.clock_mhz");
    double restart = cls__probe_value(env, "sync.kernel_restart_cycles");
    cls_status st;
    for (size_t i = 0; i < ROW_CASES; i++) {
        double warm;
        if ((st = row_case_prepare(env, &cases[i], &runs[i])) != CLS_SUCCESS ||
            (st = row_case_sample(&runs[i], &warm)) != CLS_SUCCESS)
            return st;
    }
    while (rounds < max) {
        if ((st = env->step(env->probe, "compute.row_kernel", "a round of the cases")) !=
            CLS_SUCCESS)
            return st;
        for (size_t i = 0; i < ROW_CASES; i++)
            if ((st = row_case_sample(&runs[i], &runs[i].us[rounds])) != CLS_SUCCESS) return st;
        rounds++;
        if (rounds >= env->min_rounds && cls__now() - start >= 2 * env->seconds) break;
    }
    for (size_t i = 0; i < ROW_CASES; i++) {
        char label[96];
        const row_case *c = &cases[i];
        snprintf(label, sizeof label, "body %zu, %zux%zux%zu, 10th percentile", c->body,
                 c->dims.n[0], c->dims.n[1], c->dims.n[2]);
        double low = cls__probe_report_low(env, "compute.row_kernel", label,
                                           (double)(c->dims.n[0] * c->dims.n[1] * c->dims.n[2]) * 8,
                                           runs[i].us, rounds);
        y[i] = low * mhz - restart;
    }
    return CLS_SUCCESS;
}

/* The row kernel's costs per vector (compute.row_*_cycles).  The load side's cases fit the
 * costs of a vector, of a read, of a run and of an end point's read by non-negative least
 * squares; the arithmetic side's case of flops gives the cost of a flop (its cycles beyond the
 * runs' starts, per flop), and the case of divisions the cost of a division beyond that of its
 * adds.  An arithmetic case that measures below its load side gives an upper bound, which is
 * all the model needs of it: that side does not bind.  The last case, beyond the cache, gives
 * memory.stream_overlap: its time beyond the longer of the model's compute and traffic, over
 * the shorter (kept at the default where the case fits the cache). */
static cls_status naive_probe(const cls__probe_env *env)
{
    double y[ROW_CASES], L[ROW_LOAD_CASES * 4], b[4];
    row_run runs[ROW_CASES];
    const row_case *cases = env->quick ? quick_row_cases : row_cases;
    memset(runs, 0, sizeof runs);
    cls_status st = row_cases_time(env, cases, runs, y);
    if (st != CLS_SUCCESS) goto done;
    for (size_t i = 0; i < ROW_LOAD_CASES; i++) {
        L[4 * i] = runs[i].x[0];
        L[4 * i + 1] = runs[i].x[1];
        L[4 * i + 2] = runs[i].x[4];
        L[4 * i + 3] = runs[i].x[5];
    }
    /* Times too noisy to fit (a loaded machine, a sanitizer build) leave the costs at the
     * model's defaults, still marked assumed: the rest of the probe stands. */
    if (cls__fit_nonneg(L, y, ROW_LOAD_CASES, 4, b) != 0 || !(b[0] > 0)) {
        env->unfitted(env->probe, "compute.row_point_cycles", "the row kernel's costs",
                      "its cases' times fit no positive cost per vector; the defaults stay");
        goto done;
    }
    const double *xf = runs[ROW_LOAD_CASES].x, *xd = runs[ROW_LOAD_CASES + 1].x;
    const double yf = y[ROW_LOAD_CASES], yd = y[ROW_LOAD_CASES + 1];
    double flop = xf[2] > 0 ? (yf - b[2] * xf[4]) / xf[2] : 0;
    if (!(flop > 0)) flop = 0;
    double div = xd[3] > 0 ? (yd - b[2] * xd[4] - flop * xd[2]) / xd[3] : 0;
    if (!(div > 0)) div = 0;
    if ((st = cls_model_set(env->m, "compute.row_point_cycles", b[0])) != CLS_SUCCESS ||
        (st = cls_model_set(env->m, "compute.row_read_cycles", b[1])) != CLS_SUCCESS ||
        (st = cls_model_set(env->m, "compute.row_start_cycles", b[2])) != CLS_SUCCESS ||
        (st = cls_model_set(env->m, "compute.row_end_read_cycles", b[3])) != CLS_SUCCESS ||
        (st = cls_model_set(env->m, "compute.row_flop_cycles", flop)) != CLS_SUCCESS ||
        (st = cls_model_set(env->m, "compute.row_div_cycles", div)) != CLS_SUCCESS)
        goto done;
    {
        const row_case *c = &cases[ROW_OVERLAP_CASE];
        double ws = 8.0 * (double)(c->dims.n[0] * c->dims.n[1] * c->dims.n[2]);
        cls__cpu_device d = {0};
        d.point_cycles = b[0];
        d.read_cycles = b[1];
        d.start_cycles = b[2];
        d.end_read_cycles = b[3];
        d.flop_cycles = flop;
        d.div_cycles = div;
        d.bandwidth = cls__probe_value(env, "memory.bandwidth_measured_gbs") * 1e9;
        d.bandwidth_cache = cls__probe_value(env, "memory.bandwidth_cache_gbs") * 1e9;
        d.cache_bytes = cls__probe_value(env, "memory.cache_bytes");
        double mhz = cls__probe_value(env, "compute.clock_mhz");
        if (d.bandwidth > 0 && d.cache_bytes > 0 && ws > d.cache_bytes) {
            /* both in cycles of the busiest core: the traffic (8 bytes a point) over its time */
            double comp = cls__cpu_compute_cycles(&d, runs[ROW_OVERLAP_CASE].x);
            double mem = ws * cls__cpu_seconds_per_byte(&d, ws) * mhz * 1e6;
            double longer = comp > mem ? comp : mem, shorter = comp > mem ? mem : comp;
            double a = shorter > 0 ? (y[ROW_OVERLAP_CASE] - longer) / shorter : 0;
            a = a < 0 ? 0 : a > 1 ? 1 : a;
            if ((st = cls_model_set(env->m, "memory.stream_overlap", a)) != CLS_SUCCESS) goto done;
        }
    }
done:
    for (size_t i = 0; i < ROW_CASES; i++) {
        free(runs[i].in);
        free(runs[i].out);
        cls_plan_release(runs[i].plan);
        cls_stencil_release(runs[i].st);
    }
    return st;
}


/* The CPU model prices the row kernel, which runs on CPUs: nothing to measure elsewhere. */
cls_status cls__naive_probe(const cls__probe_env *env)
{
    return env->ctx->info.type == CLS_DEVICE_CPU ? naive_probe(env) : CLS_SUCCESS;
}

size_t cls__naive_probe_measurements(const cls__probe_env *env)
{
    return env->ctx->info.type == CLS_DEVICE_CPU ? ROW_CASES : 0;
}
