/* test_cpu_pick.c: AUTO's choice between the naive row kernel and cputile on a CPU, both priced
 * by the CPU model (model/cpu_rows.c): under a model that asks for cputile, AUTO takes the
 * schedule whose prediction is the lower and predicts that one's time; a model whose memory is
 * slow (cputile saves traffic) and one whose memory is fast and whose cores are slow (cputile
 * recomputes its tiles' overlap and starts more rows, each costly) make it pick differently.
 * The models are probe results in a private model cache, as `clstencil probe` leaves them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "tap.h"

typedef struct costs {
    const char *what;
    double bandwidth, cache_gbs, point_cycles, start_cycles;
    cls_dims grid;
} costs;

/* The device's own cpu model with `c`, saved where the model cache finds it for the device;
 * AUTO takes cputile where its passes gain `gain` over one-step passes. */
static int save_model_gain(const cls_device_info *info, const costs *c, double gain)
{
    cls_model *m = NULL;
    char path[4096];
    int ok = cls_model_from_defaults("cpu", info, &m) == CLS_SUCCESS &&
             cls_model_set_device(m, info) == CLS_SUCCESS &&
             cls_model_set(m, "tuning.cputile", 1) == CLS_SUCCESS &&
             cls_model_set(m, "tuning.cputile_gain", gain) == CLS_SUCCESS &&
             cls_model_set(m, "memory.bandwidth_measured_gbs", c->bandwidth) == CLS_SUCCESS &&
             cls_model_set(m, "memory.bandwidth_peak_gbs", c->bandwidth) == CLS_SUCCESS &&
             cls_model_set(m, "memory.bandwidth_cache_gbs", c->cache_gbs) == CLS_SUCCESS &&
             cls_model_set(m, "memory.cache_bytes", 1 << 20) == CLS_SUCCESS &&
             cls_model_set(m, "compute.row_point_cycles", c->point_cycles) == CLS_SUCCESS &&
             cls_model_set(m, "compute.row_start_cycles", c->start_cycles) == CLS_SUCCESS &&
             /* tiles of 16 KiB: a grid of 4 MiB takes many, whose overlap cputile recomputes */
             cls_model_set(m, "tuning.cputile_cache_bytes", 16384) == CLS_SUCCESS &&
             cls_model_cache_path(info, path, sizeof path) == CLS_SUCCESS;
    if (ok) {
        char *slash = strrchr(path, '/');
        if (slash) {
            *slash = '\0';
            char cmd[4200];
            snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
            ok = system(cmd) == 0;
            *slash = '/';
        }
    }
    ok = ok && cls_model_save(m, path) == CLS_SUCCESS;
    if (!ok) tap_diag("saving the %s model: %s", c->what, cls_last_error());
    cls_model_release(m);
    return ok;
}

static int save_model(const cls_device_info *info, const costs *c)
{
    return save_model_gain(info, c, 1);
}

/* The predicted seconds of st's plan with `schedule` (AUTO: the planner's pick in *picked). */
static double predicted(cls_context *ctx, const cls_stencil *st, cls_dims g, cls_schedule s,
                        cls_schedule *picked)
{
    cls_plan *plan = NULL;
    cls_plan_options o;
    cls_plan_info pi;
    double t = -1;
    cls_plan_options_init(&o);
    o.schedule = s;
    if (cls_plan_create(ctx, st, g, 10, &o, &plan) == CLS_SUCCESS &&
        cls_plan_describe(plan, &pi) == CLS_SUCCESS) {
        t = pi.predicted_seconds;
        if (picked) *picked = pi.schedule;
    } else {
        tap_diag("plan %s: %s", cls_schedule_name(s), cls_last_error());
    }
    cls_plan_release(plan);
    return t;
}

int main(void)
{
    cls_context *ctx = NULL;
    char dir[] = "/tmp/clstencil-cpupick.XXXXXX";
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("the CPU pick", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    cls_context_release(ctx);
    if (info.type != CLS_DEVICE_CPU || !mkdtemp(dir)) {
        tap_skip("the CPU pick", info.type != CLS_DEVICE_CPU ? "not a CPU device"
                                                             : "no temporary directory");
        return tap_done();
    }
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    /* small enough that every prediction stays below the run time at which the planner lets a
     * schedule measure the stencil's rate (which naive's prediction would then use) */
    static const costs models[2] = {{"slow memory", 0.5, 1, 1, 0, {{128, 128, 1}}},
                                    {"slow cores", 1000, 1000, 100, 5000, {{1024, 1024, 1}}}};
    cls_schedule picks[2] = {CLS_SCHEDULE_AUTO, CLS_SCHEDULE_AUTO};
    cls_stencil *st = NULL;
    cls_stencil_builtin("poisson2d", &st);
    for (int i = 0; i < 2; i++) {
        if (!save_model(&info, &models[i]) || cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
            tap_ok(0, "%s: a context with the model", models[i].what);
            continue;
        }
        const cls_dims g = models[i].grid;
        double naive = predicted(ctx, st, g, CLS_SCHEDULE_NAIVE, NULL);
        double tile = predicted(ctx, st, g, CLS_SCHEDULE_CPUTILE, NULL);
        double pick = predicted(ctx, st, g, CLS_SCHEDULE_AUTO, &picks[i]);
        cls_schedule lower = tile < naive ? CLS_SCHEDULE_CPUTILE : CLS_SCHEDULE_NAIVE;
        double want = tile < naive ? tile : naive;
        tap_ok(naive > 0 && tile > 0 && picks[i] == lower && pick == want,
               "%s: naive %g s, cputile %g s predicted; AUTO takes %s at %g s", models[i].what,
               naive, tile, cls_schedule_name(picks[i]), pick);
        cls_context_release(ctx);
    }
    tap_ok(picks[0] == CLS_SCHEDULE_CPUTILE && picks[1] == CLS_SCHEDULE_NAIVE,
           "slow memory picks cputile (%s), slow cores naive (%s)", cls_schedule_name(picks[0]),
           cls_schedule_name(picks[1]));
    /* The slow memory again, asking passes 100x faster than one-step passes: AUTO keeps naive
     * and says why cputile was declined. */
    if (save_model_gain(&info, &models[0], 100) && cls_context_create(NULL, &ctx) == CLS_SUCCESS) {
        cls_plan *plan = NULL;
        cls_plan_options o;
        cls_plan_info pi;
        cls_plan_options_init(&o);
        int ok = cls_plan_create(ctx, st, models[0].grid, 10, &o, &plan) == CLS_SUCCESS &&
                 cls_plan_describe(plan, &pi) == CLS_SUCCESS;
        tap_ok(ok && pi.schedule == CLS_SCHEDULE_NAIVE && pi.why &&
                   strstr(pi.why, "tuning.cputile_gain"),
               "a gain asked beyond the model's: AUTO takes %s (%s)",
               ok ? cls_schedule_name(pi.schedule) : "nothing", ok && pi.why ? pi.why : cls_last_error());
        cls_plan_release(plan);
        cls_context_release(ctx);
    } else {
        tap_ok(0, "a context with the model asking a gain of 100");
    }
    cls_stencil_release(st);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) tap_diag("could not remove %s", dir);
    return tap_done();
}
