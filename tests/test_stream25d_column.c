/* test_stream25d_column.c: stream25d's column window (cl/stream25d_column.cl) against the host
 * reference, bitwise: acoustic3d_r4 (a system: u a radius-4 star, u_prev at the point), a
 * radius-2 13-point star, radius-4 and anisotropic stars, a star with in-plane diagonals, an
 * asymmetric body reading an auxiliary array, heat3d7;
 * every boundary, float and double, ragged grids, grids smaller than 2r+1, chunks that do not
 * divide NZ, rows per work-item; a state advanced in two calls; the planner's choice of the
 * window, its refusals, and AUTO's offer on the H100 model under tuning.stream25d_column. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp (h100_standin.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "h100_standin.h"
#include "system_grids.h"
#include "tap.h"

/* A star of radii (rx, ry, rz) with distinct weights; `diag` adds in-plane diagonals at dz = 0. */
static cls_stencil *star(const char *name, int rx, int ry, int rz, int diag)
{
    cls_stencil *st = NULL;
    const int r[3] = {rx, ry, rz};
    if (cls_stencil_create(name, 3, CLS_FLOAT32, NULL, &st) != CLS_SUCCESS) return NULL;
    double w = 0.01;
    cls_stencil_add_point(st, 0, 0, 0, 0.3);
    for (int d = 0; d < 3; d++)
        for (int i = 1; i <= r[d]; i++)
            for (int s = -1; s <= 1; s += 2) {
                int o[3] = {0, 0, 0};
                o[d] = s * i;
                cls_stencil_add_point(st, o[0], o[1], o[2], w += 0.003);
            }
    for (int dy = -diag; diag && dy <= diag; dy += 2 * diag)
        for (int dx = -1; dx <= 1; dx += 2) cls_stencil_add_point(st, dx, dy, 0, w += 0.002);
    return st;
}

/* An asymmetric body of radius 3 with an in-plane diagonal and a static auxiliary array read at
 * an offset (from global memory). */
static cls_stencil *with_aux(void)
{
    cls_stencil *st = NULL;
    if (cls_stencil_create("aux", 3, CLS_FLOAT32,
                           "IN(0, 0, 0) + 0.1 * (IN(-3, 0, 0) + IN(0, 2, 0) - 2 * IN(0, 0, 0)) "
                           "+ 0.05 * IN(1, -1, 0) - 0.04 * IN(0, 0, -3) + 0.03 * IN(0, 0, 1) "
                           "+ 0.01 * AUX(src, 1, 0, 2)",
                           &st) != CLS_SUCCESS)
        return NULL;
    if (cls_stencil_add_aux(st, "src", 0) != CLS_SUCCESS) {
        cls_stencil_release(st);
        return NULL;
    }
    return st;
}

static cls_stencil *make(const char *name)
{
    cls_stencil *st = NULL;
    if (!strcmp(name, "aux")) return with_aux();
    if (!strcmp(name, "star13")) return star(name, 2, 2, 2, 0);
    if (!strcmp(name, "star25")) return star(name, 4, 4, 4, 0);
    if (!strcmp(name, "aniso")) return star(name, 4, 1, 3, 0);
    if (!strcmp(name, "diag")) return star(name, 2, 2, 1, 2);
    return cls_stencil_builtin(name, &st) == CLS_SUCCESS ? st : NULL;
}

typedef struct ccase {
    const char *name;
    cls_boundary b;
    int dbl;
    cls_dims dims;
    const char *params; /* besides stream25d.window=column */
} ccase;

static const char *const bname[] = {"clamp", "constant", "periodic", "mirror"};

/* One case: planned with the column window, run, compared with the reference; the system's
 * first case also advanced 2 + 1 steps on one state. */
static void run_case(cls_context *ctx, const ccase *c, int split)
{
    const size_t steps = 3;
    cls_stencil *st = make(c->name);
    grids g;
    cls_plan *plan = NULL;
    char what[256], params[256];
    snprintf(what, sizeof what, "%s %s %s %zux%zux%zu %s", c->name, bname[c->b],
             c->dbl ? "double" : "float", c->dims.n[0], c->dims.n[1], c->dims.n[2], c->params);
    snprintf(params, sizeof params, "stream25d.window=column %s", c->params);
    if (!st) {
        tap_ok(0, "%s: %s", what, cls_last_error());
        return;
    }
    cls_stencil_set_boundary(st, c->b, 0.25);
    cls_stencil_set_dtype(st, c->dbl ? CLS_FLOAT64 : CLS_FLOAT32);
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = params;
    int ok = grids_make_on(&g, st, c->dims, steps) &&
             cls_plan_create(ctx, st, c->dims, steps, &opt, &plan) == CLS_SUCCESS;
    const char *w = ok ? cls_plan_param(plan, "stream25d.window") : NULL;
    ok = ok && w && !strcmp(w, "column") &&
         cls_plan_run_fields(plan, (const void *const *)g.in, (const void *const *)g.aux, g.out,
                             NULL) == CLS_SUCCESS;
    tap_ok(ok && equal_ref(&g), "%s equals the reference", what);
    if (!ok) tap_diag("%s", cls_last_error());
    if (ok && split)
        tap_ok(grids_split_run(&g, plan, plan, 2, 1), "%s: a state advanced 2 + 1 steps", what);
    cls_plan_release(plan);
    grids_free(&g);
    cls_stencil_release(st);
}

/* Planning st with stream25d and `params` fails with `code`, naming `needle`. */
static void refuse(cls_context *ctx, const char *what, cls_stencil *st, const char *params,
                   cls_status code, const char *needle)
{
    cls_plan_options opt;
    cls_plan *plan = NULL;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = params;
    cls_status s = cls_plan_create(ctx, st, (cls_dims){{37, 21, 19}}, 2, &opt, &plan);
    tap_ok(s == code && strstr(cls_last_error(), needle), "%s is refused: %s", what,
           cls_last_error());
    cls_plan_release(plan);
}

/* The window stream25d takes for st when none is asked for. */
static void default_window(cls_context *ctx, const char *name, const char *want)
{
    cls_stencil *st = make(name);
    cls_plan_options opt;
    cls_plan *plan = NULL;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    const char *w = NULL;
    if (st && cls_plan_create(ctx, st, (cls_dims){{37, 21, 19}}, 2, &opt, &plan) == CLS_SUCCESS)
        w = cls_plan_param(plan, "stream25d.window");
    tap_ok(w && !strcmp(w, want), "%s: stream25d's window is %s (%s)", name, want,
           w ? w : cls_last_error());
    cls_plan_release(plan);
    cls_stencil_release(st);
}

/* The stream25d parameter `name` of plan p as the plan describes it, or "" */
static const char *param(const cls_plan *p, const char *name)
{
    const char *v = p ? cls_plan_param(p, name) : NULL;
    return v ? v : "";
}

/* AUTO on the H100 stand-in at 512^3 (planned, not run): no stream25d under
 * tuning.stream25d_column 0 (the family's value); under the H100 model's own tuning (the window
 * from radius 2, 4 rows per work-item, 2 planes loaded ahead) acoustic3d_r4 and the radius-2
 * star stream with the column window in 32x4 groups (tiles 32x16). */
static void auto_offer(void)
{
    char dir[] = "/tmp/cls-s25-col-XXXXXX", path[4096];
    cls_context *ctx = NULL;
    if (!standin_cache_dir(dir)) {
        tap_skip("AUTO's column offer", "no temporary directory");
        return;
    }
    if (!standin_context(path, sizeof path, &ctx)) {
        tap_skip("AUTO's column offer", "no OpenCL device or no H100 model");
        cls_context_release(ctx);
        standin_remove(dir);
        return;
    }
    const cls_dims d = {{512, 512, 512}};
    const char *const names[] = {"acoustic3d_r4", "star13"};
    /* tiles of 512 points: 32x16 at radius 4, 64x8 at radius 2 */
    const char *const tile[] = {"32x16", "64x8"};
    const size_t group[2][2] = {{32, 4}, {64, 2}};
    for (int off = 1; off >= 0; off--) {
        int set = 1;
        if (off) {
            cls_model *m = NULL;
            set = cls_model_load(path, &m) == CLS_SUCCESS &&
                  cls_model_set(m, "tuning.stream25d_column", 0) == CLS_SUCCESS &&
                  cls_model_save(m, path) == CLS_SUCCESS;
            cls_model_release(m);
        } else {
            set = standin_h100(ctx, path, sizeof path); /* the model as shipped again */
        }
        cls_context_release(ctx);
        ctx = NULL;
        set = set && cls_context_create(NULL, &ctx) == CLS_SUCCESS;
        for (size_t i = 0; i < 2; i++) {
            if (off && i) break;
            cls_stencil *st = make(names[i]);
            cls_plan *p = NULL;
            cls_plan_info pi = {0};
            cls_plan_options opt;
            cls_plan_options_init(&opt);
            opt.params = "pipeline.scheme=off";
            int ok = set && st && cls_plan_create(ctx, st, d, 20, &opt, &p) == CLS_SUCCESS &&
                     cls_plan_describe(p, &pi) == CLS_SUCCESS;
            if (off)
                tap_ok(ok && pi.schedule != CLS_SCHEDULE_STREAM25D,
                       "AUTO, tuning.stream25d_column 0: %s 512^3 does not stream: %s", names[i],
                       ok ? pi.why : cls_last_error());
            else
                tap_ok(ok && pi.schedule == CLS_SCHEDULE_STREAM25D &&
                           !strcmp(param(p, "stream25d.window"), "column") &&
                           !strcmp(param(p, "stream25d.prefetch"), "2") &&
                           !strcmp(param(p, "stream25d.rows_per_item"), "4") &&
                           !strcmp(param(p, "stream25d.tile"), tile[i]) &&
                           pi.local_size[0] == group[i][0] && pi.local_size[1] == group[i][1],
                       "AUTO, the H100 model: %s 512^3 streams with the column window, %zux%zu "
                       "groups, 4 rows, 2 planes ahead: %s; %s",
                       names[i], group[i][0], group[i][1], ok ? pi.why : cls_last_error(),
                       param(p, "stream25d.tile"));
            cls_plan_release(p);
            cls_stencil_release(st);
        }
    }
    cls_context_release(ctx);
    standin_remove(dir);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("stream25d column window", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    const int dbl = info.double_support != 0;
    const cls_dims ragged = {{37, 21, 19}}, tall = {{9, 40, 13}}, small = {{6, 5, 7}};
    /* Each case builds a kernel (about a second on PoCL): boundary kinds, dtypes, tiles, rows
     * per work-item, chunks and planes loaded ahead (up to more than a chunk holds) spread over
     * few of them. */
    const ccase cs[] = {
        {"acoustic3d_r4", CLS_BOUNDARY_CLAMP, 0, ragged,
         "stream25d.tile=16x4 stream25d.planes=5 stream25d.prefetch=2"},
        {"acoustic3d_r4", CLS_BOUNDARY_MIRROR, 0, tall,
         "stream25d.tile=8x3 stream25d.planes=4 stream25d.rows_per_item=2"},
        {"acoustic3d_r4", CLS_BOUNDARY_PERIODIC, dbl, ragged, "stream25d.tile=32x2 stream25d.planes=7"},
        {"acoustic3d_r4", CLS_BOUNDARY_CONSTANT, dbl, small, "stream25d.tile=8x2 stream25d.planes=3"},
        {"star13", CLS_BOUNDARY_CONSTANT, 0, tall, "stream25d.tile=8x4 stream25d.planes=6"},
        {"star13", CLS_BOUNDARY_PERIODIC, dbl, ragged,
         "stream25d.tile=16x2 stream25d.rows_per_item=3 stream25d.planes=4 stream25d.prefetch=3"},
        {"star25", CLS_BOUNDARY_MIRROR, dbl, ragged, "stream25d.tile=16x4 stream25d.planes=6"},
        {"star25", CLS_BOUNDARY_CLAMP, 0, small,
         "stream25d.tile=4x2 stream25d.planes=2 stream25d.prefetch=4"},
        {"aniso", CLS_BOUNDARY_CONSTANT, 0, ragged, "stream25d.tile=8x8 stream25d.planes=8"},
        {"diag", CLS_BOUNDARY_PERIODIC, 0, tall, "stream25d.tile=4x4 stream25d.planes=5"},
        {"aux", CLS_BOUNDARY_CLAMP, 0, ragged,
         "stream25d.tile=16x2 stream25d.planes=6 stream25d.prefetch=2 stream25d.rows_per_item=4"},
        {"heat3d7", CLS_BOUNDARY_MIRROR, dbl, ragged, "stream25d.tile=16x2 stream25d.rows_per_item=2"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) run_case(ctx, &cs[i], i == 0);

    /* The window when none is asked for: column for stars beyond radius 1 (on CPUs beyond the
     * full window's radius 2), full for radius 1. */
    default_window(ctx, "star25", "column");
    default_window(ctx, "heat3d7", "full");

    cls_stencil *st = NULL;
    cls_stencil_create("offcol", 3, CLS_FLOAT32, "IN(1, 0, 1) + IN(0, 0, 0)", &st);
    refuse(ctx, "a read off the column in another plane", st, "stream25d.window=column",
           CLS_ERR_PLAN_INFEASIBLE, "off its column");
    cls_stencil_release(st);
    cls_stencil_create("far", 3, CLS_FLOAT32, "IN(0, 0, 5) + IN(0, 0, 0)", &st);
    refuse(ctx, "an offset of 5", st, "stream25d.window=column", CLS_ERR_PLAN_INFEASIBLE,
           "offset 5");
    cls_stencil_release(st);
    st = make("star25");
    refuse(ctx, "fused steps with the column window", st,
           "stream25d.window=column stream25d.steps_per_pass=2", CLS_ERR_UNSUPPORTED,
           "one step per pass");
    refuse(ctx, "a loader with the column window", st,
           "stream25d.window=column stream25d.loader=classic", CLS_ERR_INVALID_ARGUMENT,
           "loader");
    refuse(ctx, "a group beyond the device's limits", st,
           "stream25d.window=column stream25d.tile=1024x8 stream25d.rows_per_item=8",
           CLS_ERR_PLAN_INFEASIBLE, "stream25d");
    cls_stencil_release(st);
    cls_context_release(ctx);

    auto_offer();
    return tap_done();
}
