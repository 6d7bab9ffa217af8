/* test_schedule_plugin.c: adding a schedule is filling one operations table (lib/schedule.h,
 * doc/architecture.md "Adding a schedule").  The test registers `example`, one point per
 * work-item on the naive template with a work-group its parameter may set, and checks that the
 * planner core, the parameters, the candidates and the states take it without a change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "schedule.h"
#include "tap.h"

/* ------------------------------------------------------------------------ the schedule */
typedef struct example {
    size_t group[3], global[3];
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
} example;

static cls__schedule_ops example_ops;

static const cls__param_desc example_params[] = {
    {"group", CLS__PARAM_SIZES, 1, 1024, NULL, "the work-group, one size per dimension"},
    {NULL, 0, 0, 0, NULL, NULL}};

static double tie_seconds;

static cls_status example_candidates(cls__facts *f, int forced, cls__candidates *out)
{
    size_t v[3];
    example *c = calloc(1, sizeof *c);
    if (!c) return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "example");
    c->group[0] = 8, c->group[1] = f->st->dims > 1 ? 8 : 1, c->group[2] = 1;
    if (cls__param_get(f->params, &example_ops, "group", v))
        for (int i = 0; i < 3; i++) c->group[i] = v[i] ? v[i] : 1;
    /* priced as the naive schedule's plan (tie_seconds, which the test sets from it), so that
     * AUTO keeps the earlier schedule on a tie; else at the baseline's traffic bound */
    double s = tie_seconds > 0 ? tie_seconds
               : f->bandwidth > 0 ? (double)f->steps * (f->restart_seconds +
                                                        (double)f->points *
                                                            f->min_bytes_per_point / f->bandwidth)
                                  : 0;
    (void)forced;
    return cls__candidate_add(out, &example_ops, c, CLS__RANK_NORMAL, s,
                              "one point per work-item, %zux%zux%zu work-groups", c->group[0],
                              c->group[1], c->group[2]);
}

static cls_status example_build(const cls__facts *f, cls__candidate *cand)
{
    example *c = cand->config;
    cls__built b = {0};
    cls_status s = cls__build_kernel(f, "naive.cl", "#define CLS_PER_ITEM 1", 0, "cls_naive", 0,
                                     &b);
    c->kernel = b.kernel;
    c->from_cache = b.from_cache;
    c->build_seconds = b.build_seconds;
    for (int i = 0; i < 3; i++)
        c->global[i] = (f->dims.n[i] + c->group[i] - 1) / c->group[i] * c->group[i];
    return s;
}

static cls_status example_run(cls__exec *x)
{
    const example *c = x->config;
    return cls__exec_per_step(x, c->kernel, (cl_uint)x->st->dims, c->global, c->group,
                              "example");
}

static void example_describe(const void *config, cls__description *d)
{
    const example *c = config;
    memcpy(d->local, c->group, sizeof d->local);
    memcpy(d->global, c->global, sizeof d->global);
    d->from_cache = c->from_cache;
    d->build_seconds = c->build_seconds;
    cls__describe_param(d, &example_ops, "group", "%zux%zux%zu", c->group[0], c->group[1],
                        c->group[2]);
}

static void example_release(void *config)
{
    example *c = config;
    if (!c) return;
    if (c->kernel) clReleaseKernel(c->kernel);
    free(c);
}

static cls__schedule_ops example_ops = {
    .name = "example",
    .summary = "one point per work-item on the naive template (a test-only schedule)",
    .params = example_params,
    .candidates = example_candidates,
    .build = example_build,
    .run = example_run,
    .describe = example_describe,
    .release = example_release,
};

/* ------------------------------------------------------------------------ the checks */
static int same(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

static float *grid_of(size_t n)
{
    float *u = malloc(n * sizeof *u);
    for (size_t i = 0; u && i < n; i++) u[i] = (float)((i * 7919) % 1000) / 1000.0f;
    return u;
}

int main(void)
{
    cls_context *ctx = NULL;
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    cls_plan_options opt;
    cls_schedule id = CLS_SCHEDULE_AUTO;
    const cls_dims d = {{37, 29, 1}};
    const size_t n = 37 * 29, steps = 7;
    float *u0 = grid_of(n), *got = malloc(n * sizeof *got), *ref = malloc(n * sizeof *ref);

    cls_status r = cls__schedule_register(&example_ops);
    tap_ok(r == CLS_SUCCESS && example_ops.id > CLS_SCHEDULE_PIPELINE,
           "the schedule registers and gets an id after the built-ins' (%d)", example_ops.id);
    tap_ok(cls__schedule_register(&example_ops) == CLS_ERR_INVALID_ARGUMENT &&
               strstr(cls_last_error(), "registered already"),
           "registering it twice is refused: %s", cls_last_error());
    tap_ok(cls_schedule_from_name("example", &id) == CLS_SUCCESS && (int)id == example_ops.id &&
               !strcmp(cls_schedule_name(id), "example"),
           "its name resolves to its id and back");
    cls_schedule_info si;
    cls_schedule_param sp;
    int listed = 0;
    for (size_t i = 0; cls_schedule_describe(i, &si) == CLS_SUCCESS; i++)
        if (!strcmp(si.name, "example") && si.num_params == 1 &&
            cls_schedule_describe_param(i, 0, &sp) == CLS_SUCCESS && !strcmp(sp.name, "group"))
            listed = 1;
    tap_ok(listed, "cls_schedule_describe lists it with its parameter");

    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        static const char *const runs[] = {"by name", "by its parameter", "a state",
                                           "AUTO's candidates", "a bad value",
                                           "an unknown parameter"};
        for (size_t i = 0; i < 6; i++) tap_skip(runs[i], "no OpenCL device");
        goto done;
    }
    cls_stencil_builtin("emboss", &st);
    cls_reference_run(st, d, steps, u0, NULL, ref);

    cls_plan_options_init(&opt);
    opt.schedule = id;
    cls_report rep;
    int ok = cls_plan_create(ctx, st, d, steps, &opt, &plan) == CLS_SUCCESS &&
             cls_plan_run(plan, u0, NULL, got, &rep) == CLS_SUCCESS && same(got, ref, n * 4);
    tap_ok(ok && rep.schedule == id, "asked for by name, it runs emboss bitwise (%s)",
           ok ? "ok" : cls_last_error());
    cls_plan_release(plan);
    plan = NULL;

    cls_plan_options_init(&opt);
    opt.params = "example.group=16x2";
    ok = cls_plan_create(ctx, st, d, steps, &opt, &plan) == CLS_SUCCESS;
    const char *g = ok ? cls_plan_param(plan, "example.group") : NULL;
    tap_ok(ok && g && !strcmp(g, "16x2x1"), "its parameter alone asks for it: group %s",
           g ? g : cls_last_error());
    /* a state advanced by 3 then 4 steps */
    cls_state *s = NULL;
    ok = ok && cls_state_create(plan, &s) == CLS_SUCCESS && cls_state_write(s, u0) == CLS_SUCCESS &&
         cls_plan_advance(plan, s, 3, NULL) == CLS_SUCCESS &&
         cls_plan_advance(plan, s, 4, NULL) == CLS_SUCCESS &&
         cls_state_read(s, got) == CLS_SUCCESS && same(got, ref, n * 4);
    tap_ok(ok, "a state it advances by 3 then 4 steps equals one run of 7");
    cls_state_release(s);
    cls_plan_release(plan);
    plan = NULL;

    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    cls_plan_info naive_info;
    if (cls_plan_create(ctx, st, d, steps, &opt, &plan) == CLS_SUCCESS &&
        cls_plan_describe(plan, &naive_info) == CLS_SUCCESS)
        tie_seconds = naive_info.predicted_seconds;
    cls_plan_release(plan);
    plan = NULL;
    cls_plan_options_init(&opt);
    int priced = 0, chosen = 0;
    if (cls_plan_create(ctx, st, d, steps, &opt, &plan) == CLS_SUCCESS) {
        cls_plan_candidate c;
        for (size_t i = 0; i < cls_plan_num_candidates(plan); i++)
            if (cls_plan_candidate_info(plan, i, &c) == CLS_SUCCESS &&
                !strcmp(c.schedule_name, "example")) {
                priced = 1;
                chosen = c.chosen;
            }
    }
    tap_ok(priced && !chosen, "AUTO prices it among the candidates and keeps the earlier tie");
    cls_plan_release(plan);
    plan = NULL;

    cls_plan_options_init(&opt);
    opt.params = "example.group=0x4";
    tap_ok(cls_plan_create(ctx, st, d, steps, &opt, &plan) == CLS_ERR_INVALID_ARGUMENT &&
               strstr(cls_last_error(), "example.group"),
           "a bad value of its parameter is refused: %s", cls_last_error());
    opt.params = "example.tile=4";
    tap_ok(cls_plan_create(ctx, st, d, steps, &opt, &plan) == CLS_ERR_INVALID_ARGUMENT &&
               strstr(cls_last_error(), "example takes group"),
           "an unknown parameter lists what it takes: %s", cls_last_error());
done:
    cls_plan_release(plan);
    cls_stencil_release(st);
    cls_context_release(ctx);
    free(u0);
    free(got);
    free(ref);
    return tap_done();
}
