/* test_stream25d_2d_plan.c: the stream25d planner's choices for 2D grids on the H100 model
 * (standing in for the test device's): a one-row work-group 128..1024 wide and k >= 2 fused
 * steps from the ghost-zone model for EBISU's 5-point star and poisson2d at 8192^2; AUTO offers
 * them only under tuning.stream25d_2d 1 (the H100 model's) and there prefers them for star
 * bodies without auxiliary arrays, and says why it does not under 0.  Plans only (their speed
 * is the GPU's to measure: tools/gpu/h100_stream2d.sh). */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp (h100_standin.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h100_standin.h"
#include "tap.h"

static cls_stencil *star2d5(void)
{
    cls_stencil *st = NULL;
    static const int off[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    if (cls_stencil_create("star2d5", 2, CLS_FLOAT32, NULL, &st) != CLS_SUCCESS) return NULL;
    for (int i = 0; i < 5; i++) cls_stencil_add_point(st, off[i][0], off[i][1], 0, 0.2);
    return st;
}

/* Plans st on the grid with the schedule and parameters; *plan NULL on failure (said). */
static cls_plan *plan_of(cls_context *ctx, const cls_stencil *st, size_t n, cls_schedule sched,
                         const char *params)
{
    cls_plan_options opt;
    cls_plan *plan = NULL;
    const cls_dims d = {{n, n, 1}};
    cls_plan_options_init(&opt);
    opt.schedule = sched;
    opt.params = params;
    if (cls_plan_create(ctx, st, d, 20, &opt, &plan) != CLS_SUCCESS)
        tap_diag("plan: %s", cls_last_error());
    return plan;
}

static size_t param(const cls_plan *p, const char *name)
{
    const char *v = p ? cls_plan_param(p, name) : NULL;
    return v ? (size_t)strtoull(v, NULL, 10) : 0;
}

/* The planner's own fused plan for a 2D stencil at n^2. */
static void planner(cls_context *ctx, const char *what, const cls_stencil *st, size_t n)
{
    cls_plan *p = plan_of(ctx, st, n, CLS_SCHEDULE_STREAM25D, "pipeline.scheme=off");
    cls_plan_info pi = {0};
    if (p) cls_plan_describe(p, &pi);
    size_t k = param(p, "stream25d.steps_per_pass");
    tap_ok(p && k >= 2 && pi.local_size[1] == 1 && pi.local_size[0] >= 128 &&
               pi.local_size[0] <= 1024 && pi.predicted_seconds > 0,
           "%s %zu^2 on the H100 model: %zu steps per pass, work-group %zux%zu, %zu planes, "
           "predicted %.3g s (%s)",
           what, n, k, pi.local_size[0], pi.local_size[1], param(p, "stream25d.planes"),
           pi.predicted_seconds, p ? pi.why : cls_last_error());
    cls_plan_release(p);
}

/* AUTO's plan for st at 8192^2 is not stream25d, and its why contains needle. */
static void auto_declines(cls_context *ctx, cls_stencil *st, const char *needle, const char *what)
{
    cls_plan *p = plan_of(ctx, st, 8192, CLS_SCHEDULE_AUTO, NULL);
    cls_plan_info pi = {0};
    if (p) cls_plan_describe(p, &pi);
    tap_ok(p && pi.schedule != CLS_SCHEDULE_STREAM25D && strstr(pi.why, needle), "%s: %s", what,
           p ? pi.why : cls_last_error());
    cls_plan_release(p);
}

int main(void)
{
    char dir[] = "/tmp/cls-s25-2d-XXXXXX", path[4096];
    cls_context *ctx = NULL;
    if (!standin_cache_dir(dir)) {
        tap_skip("stream25d 2D plans", "no temporary directory");
        return tap_done();
    }
    if (!standin_context(path, sizeof path, &ctx)) {
        tap_skip("stream25d 2D plans", "no OpenCL device or no H100 model");
        cls_context_release(ctx);
        standin_remove(dir);
        return tap_done();
    }
    cls_stencil *star = star2d5(), *poisson = NULL;
    cls_stencil_builtin("poisson2d", &poisson);
    planner(ctx, "star2d5", star, 8192);
    planner(ctx, "poisson2d", poisson, 8192);

    /* AUTO: the H100 model offers 2D streaming (tuning.stream25d_2d 1, measured there) for star
     * bodies without auxiliary arrays: star2d5 fused, poisson2d (aux f) declined; under
     * tuning.stream25d_2d 0 nothing streams a 2D grid. */
    cls_plan *p = plan_of(ctx, star, 8192, CLS_SCHEDULE_AUTO, NULL);
    cls_plan_info pi = {0};
    if (p) cls_plan_describe(p, &pi);
    tap_ok(p && pi.schedule == CLS_SCHEDULE_STREAM25D && param(p, "stream25d.steps_per_pass") >= 2 &&
               strstr(pi.why, "2D"),
           "AUTO on the H100 model streams star2d5 with fused steps: %s",
           p ? pi.why : cls_last_error());
    cls_plan_release(p);
    auto_declines(ctx, poisson, "auxiliary arrays",
                  "AUTO on the H100 model does not stream poisson2d (its aux array)");
    cls_stencil *emboss = NULL;
    cls_stencil_builtin("emboss", &emboss);
    auto_declines(ctx, emboss, "diagonal neighbours",
                  "AUTO on the H100 model does not stream emboss (a box body)");
    cls_stencil_release(emboss);
    cls_model *m = NULL;
    int set = cls_model_load(path, &m) == CLS_SUCCESS &&
              cls_model_set(m, "tuning.stream25d_2d", 0) == CLS_SUCCESS &&
              cls_model_save(m, path) == CLS_SUCCESS;
    cls_model_release(m);
    cls_context_release(ctx);
    ctx = NULL;
    if (set && cls_context_create(NULL, &ctx) == CLS_SUCCESS) {
        auto_declines(ctx, star, "tuning.stream25d_2d 0",
                      "AUTO under tuning.stream25d_2d 0 does not stream a 2D grid");
    } else {
        tap_ok(0, "tuning.stream25d_2d 0 in the stand-in model: %s", cls_last_error());
    }
    cls_stencil_release(star);
    cls_stencil_release(poisson);
    cls_context_release(ctx);
    standin_remove(dir);
    return tap_done();
}
