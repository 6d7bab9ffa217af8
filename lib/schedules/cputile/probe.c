/* probe.c: what the cputile schedule's model needs of a CPU device (`clstencil probe`): the
 * costs of the steps that read a tile's box in cache, per vector of points
 * (compute.tile_point_cycles), per read (tile_read_cycles) and per run of a row
 * (tile_row_cycles).  The row kernel's costs (naive's probe, which runs before this one) price
 * the rest of a pass; three cases' times fix the three costs they leave open. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "cpu_cost.h"
#include "cputile.h"
#include "expr.h"
#include "fit.h"

#define TILE_MAX_ROUNDS 100
#define TILE_CASES 3

/* A 2D 5-point and a 2D 9-point (3x3) sum read the same three rows, so their difference is the
 * cost of reads; a 3D 7-point sum in tiles of rows of 128 points adds many short rows.  Passes
 * of 8 steps in 2D (the first and last steps, which the row kernel's costs price, are a quarter
 * of the work) and of 4 in 3D (its boxes widen in y and z); 8 MiB grids as the row kernel's
 * cases, within the last-level cache, so that the passes are bound by the cores. */
typedef struct tile_case {
    int dims;
    const char *body;
    size_t grid[3], quick[3], tile_y, tile_z, height;
} tile_case;
static const tile_case tile_cases[TILE_CASES] = {
    {2, "((IN(0, 0) + IN(-1, 0)) + (IN(1, 0) + IN(0, -1))) + IN(0, 1)", {1024, 1024, 1},
     {512, 256, 1}, 32, 1, 8},
    {2,
     "((IN(-1, -1) + IN(0, -1)) + (IN(1, -1) + IN(-1, 0))) + ((IN(0, 0) + IN(1, 0)) + "
     "(IN(-1, 1) + (IN(0, 1) + IN(1, 1))))",
     {1024, 1024, 1}, {512, 256, 1}, 32, 1, 8},
    {3,
     "((IN(0, 0, 0) + IN(-1, 0, 0)) + (IN(1, 0, 0) + IN(0, -1, 0))) + ((IN(0, 1, 0) + "
     "IN(0, 0, -1)) + IN(0, 0, 1))",
     {128, 128, 64}, {128, 32, 32}, 16, 16, 4}};
#define TILE_PASSES 2

/* One case ready to run, and what the model needs of it. */
typedef struct tile_run {
    cls_stencil *st;
    cls_plan *plan;
    float *in, *out;
    cls__cputile_cost cost; /* the grid's part; the prices are filled per trial */
    size_t tile[3], height, groups;
    double reads, flops, divs, ws;
    double seconds; /* measured: the run's steps */
} tile_run;

static double model_key(const void *env, const char *key) { return cls__probe_value(env, key); }

/* The model's device as the probe has filled it so far (cls__cpu_device_of reads a plan's). */
static void device_of(const cls__probe_env *env, cls__cpu_device *d)
{
    memset(d, 0, sizeof *d);
    cls__cpu_device_costs(d, model_key, env);
    d->cores = env->ctx->info.compute_units ? env->ctx->info.compute_units : 1;
    d->lanes = cls__cpu_row_lanes(env->ctx->device, CLS_FLOAT32);
    d->bandwidth = cls__probe_value(env, "memory.bandwidth_measured_gbs") * 1e9;
    double restart = cls__probe_value(env, "sync.kernel_restart_cycles");
    d->restart = d->clock_hz > 0 ? restart / d->clock_hz : 0;
}

static cls_status case_prepare(const cls__probe_env *env, const tile_case *tc, tile_run *r)
{
    const size_t *n = env->quick ? tc->quick : tc->grid;
    cls_dims dims = {{n[0], n[1], n[2]}};
    size_t points = n[0] * n[1] * n[2], steps = TILE_PASSES * tc->height;
    char params[160];
    struct cls_expr *e = NULL;
    cls_plan_options o;
    r->groups = env->ctx->info.compute_units ? env->ctx->info.compute_units : 1;
    r->tile[0] = n[0];
    r->tile[1] = tc->tile_y;
    r->tile[2] = tc->tile_z;
    r->height = tc->height;
    cls_status s = cls_stencil_create("probe_tiles", tc->dims, CLS_FLOAT32, tc->body, &r->st);
    if (s != CLS_SUCCESS) return s;
    cls_plan_options_init(&o);
    o.schedule = CLS_SCHEDULE_CPUTILE;
    if (tc->dims == 2)
        snprintf(params, sizeof params, "cputile.tile=%zux%zu cputile.height=%zu cputile.groups=%zu",
                 r->tile[0], r->tile[1], r->height, r->groups);
    else
        snprintf(params, sizeof params,
                 "cputile.tile=%zux%zux%zu cputile.height=%zu cputile.groups=%zu", r->tile[0],
                 r->tile[1], r->tile[2], r->height, r->groups);
    o.params = params;
    if ((s = cls_plan_create(env->ctx, r->st, dims, steps, &o, &r->plan)) != CLS_SUCCESS)
        return s;
    r->in = calloc(points, sizeof *r->in);
    r->out = calloc(points, sizeof *r->out);
    if (!r->in || !r->out)
        return cls__fail(env->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "probe: cputile grids");
    for (size_t k = 0; k < points; k++) r->in[k] = (float)(k % 97) / 97.0f;
    if ((s = cls__stencil_parse(r->st, &e)) != CLS_SUCCESS) return s;
    cls__cpu_expr_ops(e, &r->reads, &r->flops, &r->divs);
    cls__expr_free(e);
    r->cost = (cls__cputile_cost){.n = {n[0], n[1], n[2]}, .elem = sizeof(float),
                                  .steps = steps, .cores = r->groups};
    cls_stencil_halo(r->st, r->cost.halo);
    r->ws = 2.0 * (double)points * sizeof(float);
    return CLS_SUCCESS;
}

static cls_status case_sample(tile_run *r, double *us)
{
    return cls__probe_sample(r->plan, r->in, r->out, us);
}

/* The model's time of a case's run with the box's costs u = (per vector, per read, per row). */
static double predicted(const tile_run *r, const cls__cpu_device *dev, const double u[3])
{
    cls__cputile_cost c = r->cost;
    cls__cpu_device d = *dev;
    d.box_point_cycles = u[0];
    d.box_read_cycles = u[1];
    d.box_row_cycles = u[2];
    c.restart = dev->restart;
    cls__cputile_cost_prices(&c, &d, r->reads, r->flops, r->divs, r->ws);
    return cls__cputile_predict(&c, r->tile, r->height, r->groups, NULL);
}

/* The box's costs u >= 0 that make the model's times of the cases their measured ones: the
 * model's time is piecewise linear in them, so Newton's steps on its linearisation, each a
 * non-negative least-squares solve (cls__fit_nonneg), reach them in a few iterations.  Returns
 * the largest relative error left, or -1 when the linearisation is singular. */
static double fit_box(const tile_run *runs, const cls__cpu_device *d, double u[3])
{
    const double step[3] = {0.01, 0.01, 0.1};
    double err = -1;
    u[0] = d->point_cycles;
    u[1] = d->read_cycles;
    u[2] = d->start_cycles;
    for (int it = 0; it < 40; it++) {
        double J[TILE_CASES * 3], y[TILE_CASES], next[3];
        err = 0;
        for (size_t i = 0; i < TILE_CASES; i++) {
            double t = predicted(&runs[i], d, u), rel = fabs(t - runs[i].seconds) / runs[i].seconds;
            err = rel > err ? rel : err;
            y[i] = -(t - runs[i].seconds);
            for (int j = 0; j < 3; j++) {
                double v[3] = {u[0], u[1], u[2]};
                v[j] += step[j];
                J[3 * i + j] = (predicted(&runs[i], d, v) - t) / step[j];
                y[i] += J[3 * i + j] * u[j];
            }
        }
        if (err < 1e-6) break;
        if (cls__fit_nonneg(J, y, TILE_CASES, 3, next) != 0) return -1;
        memcpy(u, next, sizeof next);
    }
    return err;
}

static cls_status tile_probe(const cls__probe_env *env)
{
    tile_run runs[TILE_CASES];
    double us[TILE_CASES][TILE_MAX_ROUNDS];
    size_t rounds = 0, max = env->max_rounds < TILE_MAX_ROUNDS ? env->max_rounds : TILE_MAX_ROUNDS;
    cls_status s = CLS_SUCCESS;
    memset(runs, 0, sizeof runs);
    for (size_t i = 0; i < TILE_CASES && s == CLS_SUCCESS; i++) {
        double warm;
        if ((s = case_prepare(env, &tile_cases[i], &runs[i])) == CLS_SUCCESS)
            s = case_sample(&runs[i], &warm);
    }
    /* rounds of one sample of every case, so that other work on the cores falls on all */
    const double start = cls__now();
    while (s == CLS_SUCCESS && rounds < max) {
        if ((s = env->step(env->probe, "compute.tile_kernel", "a round of the cases")) !=
            CLS_SUCCESS)
            break;
        for (size_t i = 0; i < TILE_CASES && s == CLS_SUCCESS; i++)
            s = case_sample(&runs[i], &us[i][rounds]);
        rounds++;
        if (rounds >= env->min_rounds && cls__now() - start >= env->seconds) break;
    }
    if (s != CLS_SUCCESS) goto done;
    for (size_t i = 0; i < TILE_CASES; i++) {
        const cls__cputile_cost *c = &runs[i].cost;
        char label[96];
        snprintf(label, sizeof label, "%dD, %zu reads, %zux%zux%zu, %zu steps a pass",
                 tile_cases[i].dims, (size_t)runs[i].reads, c->n[0], c->n[1], c->n[2],
                 runs[i].height);
        double low = cls__probe_report_low(env, "compute.tile_kernel", label,
                                           8.0 * (double)(c->n[0] * c->n[1] * c->n[2]), us[i],
                                           rounds);
        runs[i].seconds = low * 1e-6 * (double)c->steps;
    }

    /* the first and last steps are priced by the row kernel's costs: assumed ones (a probe
     * whose row cases did not fit) would put their error into the box's */
    cls__cpu_device dev;
    device_of(env, &dev);
    double u[3];
    if (cls_model_is_assumed(env->m, "compute.row_point_cycles") == 1) {
        env->unfitted(env->probe, "compute.tile_point_cycles", "the tile loops' costs",
                      "the row kernel's costs were not measured; the defaults stay");
        goto done;
    }
    double err = dev.clock_hz > 0 && dev.point_cycles > 0 && dev.bandwidth > 0
                     ? fit_box(runs, &dev, u)
                     : -1;
    if (!(err >= 0 && err < 0.05)) {
        env->unfitted(env->probe, "compute.tile_point_cycles", "the tile loops' costs",
                      "no costs of the box fit the cases' times (a loaded machine?); the defaults "
                      "stay");
        goto done;
    }
    if ((s = cls_model_set(env->m, "compute.tile_point_cycles", u[0])) == CLS_SUCCESS &&
        (s = cls_model_set(env->m, "compute.tile_read_cycles", u[1])) == CLS_SUCCESS)
        s = cls_model_set(env->m, "compute.tile_row_cycles", u[2]);
done:
    for (size_t i = 0; i < TILE_CASES; i++) {
        free(runs[i].in);
        free(runs[i].out);
        cls_plan_release(runs[i].plan);
        cls_stencil_release(runs[i].st);
    }
    return s;
}

/* cputile runs on CPUs: nothing to measure elsewhere. */
cls_status cls__cputile_probe(const cls__probe_env *env)
{
    return env->ctx->info.type == CLS_DEVICE_CPU ? tile_probe(env) : CLS_SUCCESS;
}

size_t cls__cputile_probe_measurements(const cls__probe_env *env)
{
    return env->ctx->info.type == CLS_DEVICE_CPU ? TILE_CASES : 0;
}
