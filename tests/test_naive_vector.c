/* test_naive_vector.c: the naive column kernel with several points along x per work-item
 * (naive.vector_x, the GPUs' default in single precision for bodies of few reads), point by
 * point and from aligned vector reads (naive.vector_reads, where the body is lane-wise): every
 * built-in single-field stencil in 2D and 3D, every boundary kind, 2 and 4 points, bitwise
 * against the host reference; the planner's default and its refusals.  The measured H100 model
 * stands in for PoCL's (in a private cache), so that PoCL runs the GPUs' column kernel. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "h100_standin.h"
#include "tap.h"

static void fill(float *a, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) a[i] = (float)((i * 7919u + seed * 104729u) % 1000u) / 997.0f;
}

static const char *plan_vector_x(const cls_plan *plan)
{
    const char *v = cls_plan_param(plan, "naive.vector_x");
    return v ? v : "1";
}

/* Runs `name` under the naive schedule with `params` and compares with the host reference;
 * returns the plan's vector_x (0 when the plan failed). */
static int check(cls_context *ctx, const char *name, cls_boundary b, cls_dims d,
                 const char *params)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    const size_t steps = 5;
    if (cls_stencil_builtin(name, &st) != CLS_SUCCESS) return 0;
    cls_stencil_set_boundary(st, b, 0.25);
    size_t n = cls_dims_points(d);
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
          *ref = malloc(n * sizeof *ref), *aux[4] = {NULL};
    fill(in, n, 1);
    for (size_t k = 0; k < cls_stencil_num_aux(st); k++) {
        size_t m = cls_stencil_aux_per_step(st, k) ? n * steps : n;
        aux[k] = malloc(m * sizeof *aux[k]);
        fill(aux[k], m, (unsigned)k + 2);
    }
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    opt.params = params;
    int vx = 0;
    cls_status s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    if (s == CLS_SUCCESS &&
        cls_reference_run(st, d, steps, in, (const void *const *)aux, ref) == CLS_SUCCESS) {
        vx = atoi(plan_vector_x(plan));
        const char *reads = cls_plan_param(plan, "naive.vector_reads");
        tap_ok(memcmp(out, ref, n * sizeof *out) == 0,
               "%s %zux%zux%zu %s, %s point(s) along x per work-item%s: bitwise", name, d.n[0],
               d.n[1], d.n[2], cls_boundary_name(b), plan_vector_x(plan),
               reads && atoi(reads) ? ", aligned vector reads" : "");
    } else {
        tap_ok(0, "%s %s with %s runs: %s", name, cls_boundary_name(b), params ? params : "defaults",
               cls_last_error());
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    for (int k = 0; k < 4; k++) free(aux[k]);
    free(in);
    free(out);
    free(ref);
    return vx;
}

int main(void)
{
    char dir[] = "/tmp/cls-naive-vector-XXXXXX", path[4096];
    cls_context *ctx = NULL;
    if (!standin_cache_dir(dir)) {
        tap_skip("naive vector_x", "no temporary directory");
        return tap_done();
    }
    if (!standin_context(path, sizeof path, &ctx)) {
        tap_skip("naive vector_x", "no OpenCL device");
        cls_context_release(ctx);
        standin_remove(dir);
        return tap_done();
    }
    /* x sizes divisible by 4 with edges on both sides, whole interior columns of 4 points along
     * the slowest axis (the vector reads' unrolled path), and the others odd */
    const cls_dims d2 = {{24, 13, 1}}, d3 = {{12, 7, 12}};
    static const char *const vx[] = {"naive.vector_x=2 naive.vector_reads=0",
                                     "naive.vector_x=4 naive.vector_reads=0",
                                     "naive.vector_x=2 naive.vector_reads=1",
                                     "naive.vector_x=4 naive.vector_reads=1"};
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        const char *name = cls_stencil_builtin_name(i);
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(name, &st) != CLS_SUCCESS) continue;
        int dims = cls_stencil_dims(st), system = cls_stencil_is_system(st);
        cls_stencil_release(st);
        if (dims < 2 || system) continue;
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++)
            for (int v = 0; v < 4; v++) check(ctx, name, (cls_boundary)b, dims == 2 ? d2 : d3, vx[v]);
    }

    /* The planner's default: two points read as vectors in single precision for a lane-wise
     * body that divides nothing varying, whatever its reads; else two points read point by
     * point for a body of few reads, one for a body of many; one where two do not divide the
     * x size. */
    static const struct {
        const char *name, *why;
        int points, reads;
    } dflt[] = {
        {"heat3d7", "lane-wise, 7 reads", 2, 1},
        {"heat3d27", "lane-wise, 27 reads", 2, 1},
        {"jacobi3d", "a division by 6 per point, 6 reads", 2, 0},
        {"cell3d", "comparisons, 27 reads", 1, 0},
    };
    for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++) {
        cls_stencil *s = NULL;
        cls_plan *p = NULL;
        cls_plan_options o;
        cls_plan_options_init(&o);
        o.schedule = CLS_SCHEDULE_NAIVE;
        cls_stencil_builtin(dflt[i].name, &s);
        cls_status ps = s ? cls_plan_create(ctx, s, d3, 5, &o, &p) : CLS_ERR_INVALID_ARGUMENT;
        const char *px = p ? cls_plan_param(p, "naive.vector_x") : NULL;
        const char *vr = p ? cls_plan_param(p, "naive.vector_reads") : NULL;
        int points = px ? atoi(px) : 1, reads = vr ? atoi(vr) : 0;
        tap_ok(ps == CLS_SUCCESS && points == dflt[i].points && reads == dflt[i].reads,
               "%s (%s) gets %d point(s) along x%s by default on the H100 model (got %d, %s)",
               dflt[i].name, dflt[i].why, dflt[i].points,
               dflt[i].reads ? ", read as vectors" : "", points,
               reads ? "read as vectors" : "point by point");
        cls_plan_release(p);
        cls_stencil_release(s);
    }
    const cls_dims odd = {{13, 7, 5}};
    tap_ok(check(ctx, "heat3d7", CLS_BOUNDARY_CLAMP, odd, NULL) == 1,
           "an odd x size gets 1 point along x by default");

    /* Refusals name the option and the reason. */
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    cls_stencil_builtin("heat3d7", &st);
    static const char *const bad[] = {"naive.vector_x=2", "naive.vector_x=3"};
    for (int k = 0; k < 2; k++) {
        opt.params = bad[k];
        cls_status s = cls_plan_create(ctx, st, k ? d3 : odd, 5, &opt, &plan);
        tap_ok(s == CLS_ERR_INVALID_ARGUMENT && plan == NULL &&
                   strstr(cls_context_last_error(ctx), "naive.vector_x"),
               "%s on a %zu-wide grid is refused: %s", bad[k], (k ? d3 : odd).n[0],
               cls_context_last_error(ctx));
        cls_plan_release(plan);
        plan = NULL;
    }
    cls_stencil_release(st);
    cls_context_release(ctx);
    standin_remove(dir);
    return tap_done();
}
