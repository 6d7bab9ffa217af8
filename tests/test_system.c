/* test_system.c: systems of fields on PoCL, bitwise against the host reference: every system
 * (the built-in ones and a few written here: time levels in a chain, a field updated in two
 * stages) on the naive schedule, float and double, every boundary kind, with the device's
 * stage kernel (on CPUs the row kernel, cl/naive_system_rows.cl, in place where it may and
 * out of place when asked) and with rows split into ragged runs; states advanced in parts equal one run; the schedules that run one field refuse
 * a system with the reason, and AUTO picks naive.  Built with CLS_TEST_COLUMNS (the program
 * test_system_columns) the device takes the H100's model from a private cache, so that the
 * GPUs' stage kernel (cl/naive_system.cl, columns along the slowest axis) runs on PoCL too. */
#ifdef CLS_TEST_COLUMNS
#define _XOPEN_SOURCE 700 /* nftw, setenv, mkdtemp (h100_standin.h) */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"
#ifdef CLS_TEST_COLUMNS
#include "h100_standin.h"
#endif

/* Systems the built-ins do not cover: a chain of time levels (u_prev2 <- u_prev <- u) and a
 * field updated in both stages of a step, with an aux array, a parameter and STEP. */
static const char *const extra[] = {
    "{\"name\": \"chain\", \"dims\": 2, \"fields\": [\"u\", {\"name\": \"u1\", \"previous\": "
    "\"u\"}, {\"name\": \"u2\", \"previous\": \"u1\"}], \"aux\": [\"k\"], \"params\": {\"a\": "
    "0.25}, \"stages\": [{\"update\": {\"u\": \"a * (IN(-1, 0) + IN(1, 0) + IN(0, -1) + "
    "IN(0, 1)) + 0.5 * (IN(u1, 0, 0) - IN(u2, 0, 0)) + AUX(k, 0, 0) * 0.125\"}}]}",
    "{\"name\": \"twice\", \"dims\": 3, \"fields\": [\"p\", \"q\", {\"name\": \"p0\", "
    "\"previous\": \"p\"}], \"stages\": [{\"update\": {\"p\": \"0.5 * (IN(p, 1, 0, 0) + "
    "IN(q, 0, -1, 0))\", \"q\": \"IN(q, 0, 0, 1) - 0.25 * IN(p, 0, 0, 0) + STEP * 0.001\"}}, "
    "{\"update\": {\"p\": \"IN(p, -1, 0, 0) * 0.75 + IN(p0, 0, 0, 0) * 0.25\"}}]}",
    /* in one stage: a field the CPU row kernel updates in place (a, read only by its own
     * update at offset 0), one read at an offset (b) and a time level's source (c) */
    "{\"name\": \"mixed\", \"dims\": 2, \"fields\": [\"a\", \"b\", \"c\", {\"name\": \"c0\", "
    "\"previous\": \"c\"}], \"stages\": [{\"update\": {\"a\": \"IN(a, 0, 0) + 0.5 * IN(b, 1, 0)\", "
    "\"b\": \"IN(b, -1, 0) * 0.5 + 0.25\", \"c\": \"IN(c, 0, 0) * 0.875 + IN(c0, 0, 0) * "
    "0.125\"}}]}",
    "{\"name\": \"line\", \"dims\": 1, \"fields\": [\"a\", \"b\"], \"stages\": [{\"update\": "
    "{\"a\": \"IN(b, -2) * 0.5 + IN(a, 1) * 0.5\"}}, {\"update\": {\"b\": \"IN(a, 2) - IN(b, "
    "0) * 0.125\"}}]}",
    NULL};

static double value(size_t i, size_t f)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)((f + 7) * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (h & 0xffff) / 65536.0 - 0.25;
}

typedef struct sys {
    cls_stencil *st;
    cls_dims dims;
    size_t n, elem, nf;
    void *in[16], *ref[16], *out[16], *aux[4];
} sys;

static void sys_free(sys *s)
{
    for (size_t f = 0; f < 16; f++) {
        free(s->in[f]);
        free(s->ref[f]);
        free(s->out[f]);
    }
    for (size_t k = 0; k < 4; k++) free(s->aux[k]);
    memset(s, 0, sizeof *s);
}

static int sys_make(sys *s, cls_stencil *st, cls_dims dims)
{
    memset(s, 0, sizeof *s);
    s->st = st;
    s->dims = dims;
    s->n = cls_dims_points(dims);
    s->elem = cls_dtype_size(cls_stencil_dtype(st));
    s->nf = cls_stencil_num_fields(st);
    for (size_t f = 0; f < s->nf; f++) {
        s->in[f] = malloc(s->n * s->elem);
        s->ref[f] = malloc(s->n * s->elem);
        s->out[f] = calloc(s->n, s->elem);
        if (!s->in[f] || !s->ref[f] || !s->out[f]) return 0;
        for (size_t i = 0; i < s->n; i++) {
            double v = value(i, f);
            if (s->elem == 8) ((double *)s->in[f])[i] = v;
            else ((float *)s->in[f])[i] = (float)v;
        }
    }
    for (size_t k = 0; k < cls_stencil_num_aux(st) && k < 4; k++) {
        if (!(s->aux[k] = malloc(s->n * s->elem))) return 0;
        for (size_t i = 0; i < s->n; i++) {
            double v = 0.01 * value(i, 9 + k);
            if (s->elem == 8) ((double *)s->aux[k])[i] = v;
            else ((float *)s->aux[k])[i] = (float)v;
        }
    }
    return 1;
}

static int same(const sys *s, void *const *a, void *const *b)
{
    for (size_t f = 0; f < s->nf; f++)
        if (memcmp(a[f], b[f], s->n * s->elem)) return 0;
    return 1;
}

static cls_dims dims_for(int d)
{
    cls_dims r = {{1, 1, 1}};
    if (d == 1) r.n[0] = 61;
#ifdef CLS_TEST_COLUMNS
    /* x sizes that 2 and 4 points along x divide (check_vector), with interior items and,
     * for radius 4 too, whole interior columns of 4 points along the slowest axis */
    if (d == 2) r.n[0] = 36, r.n[1] = 23;
    if (d == 3) r.n[0] = 24, r.n[1] = 13, r.n[2] = 16;
#else
    if (d == 2) r.n[0] = 37, r.n[1] = 23;
    if (d == 3) r.n[0] = 19, r.n[1] = 13, r.n[2] = 11;
#endif
    return r;
}

/* One system, one dtype, one boundary: a run and a state in two advances, against the
 * reference. */
static void check_one(cls_context *ctx, cls_stencil *st, const char *what, const char *params)
{
    enum { STEPS = 7 };
    sys s;
    cls_dims dims = dims_for(cls_stencil_dims(st));
    if (!sys_make(&s, st, dims)) {
        tap_ok(0, "%s: memory", what);
        sys_free(&s);
        return;
    }
    const void *const *aux = (const void *const *)s.aux;
    cls_status rs = cls_reference_run_fields(st, dims, STEPS, (const void *const *)s.in, aux, s.ref);
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    opt.params = params;
    cls_plan *plan = NULL;
    cls_status ps = cls_plan_create(ctx, st, dims, STEPS, &opt, &plan);
    cls_status run = ps == CLS_SUCCESS ? cls_plan_run_fields(plan, (const void *const *)s.in, aux, s.out, NULL)
                                       : ps;
    int ok = rs == CLS_SUCCESS && run == CLS_SUCCESS && same(&s, s.out, s.ref);
#ifdef CLS_TEST_COLUMNS
    ok = ok && plan && cls_plan_param(plan, "naive.kernel") &&
         !strcmp(cls_plan_param(plan, "naive.kernel"), "stages");
#endif
    const char *kernel = plan ? cls_plan_param(plan, "naive.kernel") : NULL;
    const char *per = plan ? cls_plan_param(plan, "naive.points_per_item") : NULL;
    const char *vr = plan ? cls_plan_param(plan, "naive.vector_reads") : NULL;
    tap_ok(ok, "%s: naive run (kernel %s, %s points per item%s%s) bitwise equal to the reference",
           what, kernel ? kernel : "?", per ? per : "?", vr ? ", vector reads " : "",
           vr ? vr : "");
    if (!ok) tap_diag("%s", cls_last_error());
    /* a state advanced 3 then 4 steps */
    cls_state *state = NULL;
    int sok = ps == CLS_SUCCESS && cls_state_create(plan, &state) == CLS_SUCCESS;
    for (size_t f = 0; sok && f < s.nf; f++) {
        memset(s.out[f], 0, s.n * s.elem);
        sok = cls_state_write_field(state, f, s.in[f]) == CLS_SUCCESS;
    }
    for (size_t k = 0; sok && k < cls_stencil_num_aux(st); k++)
        sok = cls_state_write_aux(state, k, s.aux[k], 1) == CLS_SUCCESS;
    sok = sok && cls_plan_advance(plan, state, 3, NULL) == CLS_SUCCESS &&
          cls_plan_advance(plan, state, 4, NULL) == CLS_SUCCESS && cls_state_step(state) == STEPS;
    for (size_t f = 0; sok && f < s.nf; f++) sok = cls_state_read_field(state, f, s.out[f]) == CLS_SUCCESS;
    tap_ok(sok && same(&s, s.out, s.ref), "%s: a state advanced 3 + 4 steps equals the run", what);
    if (!sok) tap_diag("%s", cls_last_error());
    cls_state_release(state);
    cls_plan_release(plan);
    sys_free(&s);
}

static void check_system(cls_context *ctx, cls_stencil *st, int has_double)
{
#ifdef CLS_TEST_COLUMNS
    const int dtypes = 1; /* float: double goes through the same code, checked by the row pass */
#else
    const int dtypes = 2;
#endif
    for (int dt = 0; dt < dtypes; dt++) {
        if (dt && !has_double) {
            tap_skip(cls_stencil_name(st), "no double precision");
            continue;
        }
        cls_stencil_set_dtype(st, dt ? CLS_FLOAT64 : CLS_FLOAT32);
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
            char what[160];
            cls_stencil_set_boundary(st, (cls_boundary)b, 0.375);
            snprintf(what, sizeof what, "%s %s %s", cls_stencil_name(st), dt ? "double" : "float",
                     cls_boundary_name((cls_boundary)b));
            check_one(ctx, st, what, NULL);
        }
    }
}

/* Rows (or columns) split into runs of 5 points per work-item, ragged at the end, every
 * boundary kind in float. */
static void check_split(cls_context *ctx, cls_stencil *st)
{
    cls_stencil_set_dtype(st, CLS_FLOAT32);
    for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
        char what[160];
        cls_stencil_set_boundary(st, (cls_boundary)b, 0.375);
        snprintf(what, sizeof what, "%s float %s, runs of 5", cls_stencil_name(st),
                 cls_boundary_name((cls_boundary)b));
        check_one(ctx, st, what, "naive.points_per_item=5");
    }
}

#ifndef CLS_TEST_COLUMNS
static void check_refusals(cls_context *ctx, cls_stencil *st)
{
    cls_dims dims = dims_for(cls_stencil_dims(st));
    /* (the trapezoid, stream25d in 2D and 3D and the pipeline run systems: test_system_auto,
     * test_system_sched, test_stream25d_2d, test_pipeline_system) */
    static const cls_schedule forced[] = {CLS_SCHEDULE_STREAM25D};
    for (size_t i = 0; i < sizeof forced / sizeof forced[0]; i++) {
        cls_plan_options opt;
        cls_plan_options_init(&opt);
        opt.schedule = forced[i];
        cls_plan *plan = NULL;
        cls_status s = cls_plan_create(ctx, st, dims, 4, &opt, &plan);
        const char *msg = cls_last_error();
        int ok = s != CLS_SUCCESS && !plan &&
                 (strstr(msg, "system of") || strstr(msg, "3D") || strstr(msg, "3-D"));
        tap_ok(ok, "%s: %s refuses a system (%s)", cls_stencil_name(st),
               cls_schedule_name(forced[i]), msg);
        cls_plan_release(plan);
    }
    cls_plan *plan = NULL;
    cls_plan_info info;
    int ok = cls_plan_create(ctx, st, dims, 4, NULL, &plan) == CLS_SUCCESS &&
             cls_plan_describe(plan, &info) == CLS_SUCCESS &&
             (info.schedule == CLS_SCHEDULE_NAIVE || info.schedule == CLS_SCHEDULE_CPUTILE);
    tap_ok(ok, "%s: AUTO plans a system on naive or, on a CPU, cputile (%s)", cls_stencil_name(st),
           ok ? cls_schedule_name(info.schedule) : cls_last_error());
    /* every other candidate is declined with its reason or priced slower */
    int said = 0, others = 0;
    for (size_t i = 0; ok && i < cls_plan_num_candidates(plan); i++) {
        cls_plan_candidate c;
        if (cls_plan_candidate_info(plan, i, &c) != CLS_SUCCESS || c.schedule == info.schedule)
            continue;
        others++;
        if (c.why && c.why[0] &&
            (c.declined || (c.predicted_seconds > 0 && c.predicted_seconds >= info.predicted_seconds)))
            said++;
    }
    tap_ok(ok && others >= 1 && said == others,
           "%s: the other candidates decline with their reason or are predicted slower (%d of %d)",
           cls_stencil_name(st), said, others);
    /* single-field calls refuse a system */
    float dummy[4];
    tap_ok(!ok || (cls_plan_run(plan, dummy, NULL, dummy, NULL) != CLS_SUCCESS &&
                   strstr(cls_last_error(), "cls_plan_run_fields")),
           "%s: cls_plan_run refuses a system and names cls_plan_run_fields", cls_stencil_name(st));
    cls_state *state = NULL;
    tap_ok(ok && cls_state_create(plan, &state) == CLS_SUCCESS &&
               cls_state_write(state, dummy) != CLS_SUCCESS &&
               strstr(cls_last_error(), "cls_state_write_field") &&
               cls_plan_advance(plan, state, 1, NULL) != CLS_SUCCESS,
           "%s: a state of a system takes its fields one by one, and all of them",
           cls_stencil_name(st));
    cls_state_release(state);
    cls_plan_release(plan);
}
#endif

#ifndef CLS_TEST_COLUMNS
/* The CPU row kernel updates in place the fields only their own update reads, at offset 0
 * (fdtd2d, fdtd3d, line's second stage, mixed's a), and writes a time level's source over its
 * oldest level where only that update reads the level, at offset 0 (wave2d, wave3d,
 * acoustic3d_r4, chain's u over u2, mixed's c over c0): the plan says so, and the out-of-place
 * kernel, asked for, gives the same bits. */
static void check_in_place(cls_context *ctx, cls_stencil *st)
{
    static const char *const expect[] = {"fdtd2d", "fdtd3d", "line",          "mixed",
                                         "wave2d", "wave3d", "acoustic3d_r4", "chain", NULL};
    const char *name = cls_stencil_name(st);
    int want = 0;
    for (size_t i = 0; expect[i]; i++) want |= !strcmp(name, expect[i]);
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    cls_plan *plan = NULL;
    cls_stencil_set_dtype(st, CLS_FLOAT32);
    int ok = cls_plan_create(ctx, st, dims_for(cls_stencil_dims(st)), 4, &opt, &plan) ==
             CLS_SUCCESS;
    const char *kernel = ok ? cls_plan_param(plan, "naive.kernel") : NULL;
    const char *in_place = ok ? cls_plan_param(plan, "naive.in_place") : NULL;
    if (ok && (!kernel || strcmp(kernel, "stage_rows"))) {
        tap_skip(name, "no row kernel on this device");
    } else {
        tap_ok(in_place && atoi(in_place) == want, "%s: naive.in_place=%s (expected %d)", name,
               in_place ? in_place : "?", want);
        for (int b = 0; want && b <= CLS_BOUNDARY_MIRROR; b++) {
            char what[160];
            cls_stencil_set_boundary(st, (cls_boundary)b, 0.375);
            snprintf(what, sizeof what, "%s float %s, out of place", name,
                     cls_boundary_name((cls_boundary)b));
            check_one(ctx, st, what, "naive.in_place=0");
        }
    }
    cls_plan_release(plan);
}
#endif

#ifdef CLS_TEST_COLUMNS
/* The stage kernel with 2 and 4 points along x per work-item, read as aligned vectors
 * (naive.vector_reads) where every update is lane-wise, every boundary kind in float, on a
 * grid whose x size both divide; the plan says whether the vector reads applied. */
static void check_vector(cls_context *ctx, cls_stencil *st, int has_double)
{
    if (cls_stencil_dims(st) < 2) return;
    /* the default on the H100 model: 2 points read as vectors in single precision (every
     * system here is lane-wise) where each update reads its fields at two offsets or more
     * (not the FDTD stages, twice and mixed), 1 point in double */
    static const char *const one_read[] = {"fdtd2d", "fdtd3d", "mixed", "twice", NULL};
    int shares = 1;
    for (int i = 0; one_read[i]; i++) shares = shares && strcmp(cls_stencil_name(st), one_read[i]);
    for (int dt = 0; dt < 2; dt++) {
        cls_plan_options opt;
        cls_plan_options_init(&opt);
        opt.schedule = CLS_SCHEDULE_NAIVE;
        cls_plan *plan = NULL;
        cls_stencil_set_dtype(st, dt ? CLS_FLOAT64 : CLS_FLOAT32);
        cls_status ps = cls_plan_create(ctx, st, dims_for(cls_stencil_dims(st)), 3, &opt, &plan);
        const char *vx = plan ? cls_plan_param(plan, "naive.vector_x") : NULL;
        const char *vr = plan ? cls_plan_param(plan, "naive.vector_reads") : NULL;
        int want = dt || !shares ? 1 : 2;
        tap_ok(ps == CLS_SUCCESS && (vx ? atoi(vx) : 1) == want && (vr ? atoi(vr) : 0) == (want > 1),
               "%s %s: the default plan takes %d point(s) along x%s (got %s, vector reads %s)",
               cls_stencil_name(st), dt ? "double" : "float", want,
               want > 1 ? ", read as vectors" : "", vx ? vx : "1", vr ? vr : "-");
        cls_plan_release(plan);
    }
    /* the group keeps the model's row of points along x (64 in 3D, 128 in 2D on the H100
     * model) in half the work-items when two points are read as vectors */
    if (shares) {
        cls_plan_options opt;
        cls_plan_options_init(&opt);
        opt.schedule = CLS_SCHEDULE_NAIVE;
        cls_plan *plan = NULL;
        cls_stencil_set_dtype(st, CLS_FLOAT32);
        const int d3 = cls_stencil_dims(st) == 3;
        const cls_dims wide = {{512, 16, d3 ? 8 : 1}};
        cls_status ps = cls_plan_create(ctx, st, wide, 3, &opt, &plan);
        const char *local = plan ? cls_plan_param(plan, "naive.local") : NULL;
        const char *want = d3 ? "32x" : "64x";
        tap_ok(ps == CLS_SUCCESS && local && !strncmp(local, want, 3),
               "%s on a 512-wide grid: work-groups of %s... items along x (got %s)",
               cls_stencil_name(st), want, local ? local : cls_last_error());
        cls_plan_release(plan);
    }
    cls_stencil_set_dtype(st, CLS_FLOAT32);
    static const char *const params[] = {"naive.vector_x=2 naive.vector_reads=1",
                                         "naive.vector_x=4 naive.vector_reads=1"};
    for (int v = 0; v < 2; v++)
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
            char what[200];
            cls_stencil_set_boundary(st, (cls_boundary)b, 0.375);
            snprintf(what, sizeof what, "%s float %s, %s", cls_stencil_name(st),
                     cls_boundary_name((cls_boundary)b), params[v]);
            check_one(ctx, st, what, params[v]);
        }
    /* double precision when asked for (vectors of 16 and 32 bytes) */
    if (has_double) {
        cls_stencil_set_dtype(st, CLS_FLOAT64);
        cls_stencil_set_boundary(st, CLS_BOUNDARY_CLAMP, 0.375);
        for (int v = 0; v < 2; v++) {
            char what[200];
            snprintf(what, sizeof what, "%s double clamp, %s", cls_stencil_name(st), params[v]);
            check_one(ctx, st, what, params[v]);
        }
        cls_stencil_set_dtype(st, CLS_FLOAT32);
    }
}
#endif

int main(void)
{
    cls_context *ctx = NULL;
#ifdef CLS_TEST_COLUMNS
    /* a cache of its own under the test cache (kept between runs for its programs), where
     * the H100 model is this device's probe result */
    char cache[4096], model[4096];
    const char *base = getenv("CLSTENCIL_CACHE_DIR");
    snprintf(cache, sizeof cache, "%s/h100-standin", base ? base : ".");
    setenv("CLSTENCIL_CACHE_DIR", cache, 1);
    if (!standin_context(model, sizeof model, &ctx)) {
        cls_context_release(ctx);
        tap_skip("systems with the GPUs' stage kernel", "no OpenCL device or no H100 stand-in");
        return tap_done();
    }
#else
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("systems on the naive schedule", "no OpenCL device");
        return tap_done();
    }
#endif
    cls_device_info info;
    cls_context_device(ctx, &info);
    int has_double = info.double_support;
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(cls_stencil_builtin_name(i), &st) != CLS_SUCCESS) continue;
        if (cls_stencil_is_system(st)) {
            check_system(ctx, st, has_double);
            check_split(ctx, st);
#ifndef CLS_TEST_COLUMNS
            check_in_place(ctx, st);
#else
            check_vector(ctx, st, has_double);
#endif
        }
        cls_stencil_release(st);
    }
    for (size_t i = 0; extra[i]; i++) {
        cls_stencil *st = NULL;
        if (!tap_ok(cls_stencil_from_json(extra[i], &st) == CLS_SUCCESS, "system %zu parses", i)) {
            tap_diag("%s", cls_last_error());
            continue;
        }
        check_system(ctx, st, has_double);
#ifndef CLS_TEST_COLUMNS
        check_in_place(ctx, st);
        if (cls_stencil_dims(st) == 1) check_refusals(ctx, st);
#else
        check_vector(ctx, st, has_double);
#endif
        cls_stencil_release(st);
    }
    cls_context_release(ctx);
    return tap_done();
}
