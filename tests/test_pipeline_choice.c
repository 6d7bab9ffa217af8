/* test_pipeline_choice.c: within the device, the planner pipelines a host-resident run only
 * when the pipeline is predicted faster than copy in + the resident schedule (AUTO's pick) +
 * copy out, not merely faster than naive copy-compute-copy (the H100 regression: poisson2d
 * 8192^2 x 100 ran pipelined at 401 us per step against 86.6 resident).  PoCL stands in for
 * the device, with the measured H100 model (transfer tables) placed in a private model cache
 * as the device's probe result; the plans are only created, never run.  Also: AUTO never
 * plans a pipeline of one tile (it would overlap nothing), and on a CPU-family model (the same
 * tables) a run that fits stays resident. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "h100_standin.h"
#include "tap.h"

/* What a plan chose, kept after the plan is released: its description (without the text it
 * owns), how runs from host arrays move the grid ("off": whole, else the pipeline's scheme),
 * the pipeline's tiles and why. */
typedef struct choice {
    cls_plan_info info;
    char pipeline[16];
    size_t pipeline_tiles;
    char host_why[2048];
} choice;

/* pipe: the pipeline.scheme parameter (NULL: the model decides). */
static cls_status plan_info(cls_context *ctx, const char *name, cls_dims dims, size_t steps,
                            cls_schedule sched, const char *pipe, double cap, choice *c)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    cls_plan_options opt;
    char params[64];
    cls_status s = cls_stencil_builtin(name, &st);
    memset(c, 0, sizeof *c);
    snprintf(c->pipeline, sizeof c->pipeline, "off");
    if (s != CLS_SUCCESS) return s;
    cls_plan_options_init(&opt);
    opt.schedule = sched;
    if (pipe) {
        snprintf(params, sizeof params, "pipeline.scheme=%s", pipe);
        opt.params = params;
    }
    opt.device_memory = cap;
    s = cls_plan_create(ctx, st, dims, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_describe(plan, &c->info);
    if (s == CLS_SUCCESS) {
        const char *scheme = cls_plan_param(plan, "pipeline.scheme");
        const char *tiles = cls_plan_param(plan, "pipeline.tiles");
        if (c->info.host_schedule == CLS_SCHEDULE_PIPELINE) {
            snprintf(c->pipeline, sizeof c->pipeline, "%s", scheme ? scheme : "?");
            c->pipeline_tiles = tiles ? (size_t)strtoull(tiles, NULL, 10) : 0;
        }
        snprintf(c->host_why, sizeof c->host_why, "%s", c->info.host_why);
    }
    c->info.params = c->info.why = c->info.host_why = NULL;
    cls_plan_release(plan);
    cls_stencil_release(st);
    return s;
}

/* Gives m the CPU family's tuning section (the thresholds a CPU model carries; the stand-in's
 * JSON holds the GPU family's). */
static int cpu_tuning(cls_model *m)
{
    cls_model *cpu = NULL;
    const char *key;
    double v;
    int ok = cls_model_from_defaults("cpu", NULL, &cpu) == CLS_SUCCESS;
    for (size_t i = 0; ok && (key = cls_model_param_key(i)); i++)
        if (!strncmp(key, "tuning.", 7))
            ok = cls_model_get(cpu, key, &v) == CLS_SUCCESS &&
                 cls_model_set(m, key, v) == CLS_SUCCESS;
    cls_model_release(cpu);
    return ok;
}

static void diag(const char *what, cls_status s, const choice *c)
{
    const cls_plan_info *i = &c->info;
    tap_diag("%s: %s; schedule %s, kernels predicted %.4g s, run %.4g s, copy-in/resident/out "
             "%.4g s; pipeline %s: %s",
             what, s == CLS_SUCCESS ? "ok" : cls_last_error(), cls_schedule_name(i->schedule),
             i->predicted_seconds, i->predicted_total_seconds, i->predicted_copy_seconds,
             c->pipeline, c->host_why);
}

int main(void)
{
    char dir[] = "/tmp/cls-pipe-choice-XXXXXX";
    /* A private cache: the stand-in model must not reach the other tests' contexts. */
    if (!standin_cache_dir(dir)) {
        tap_skip("pipeline choice", "no temporary directory");
        return tap_done();
    }
    cls_context *ctx = NULL;
    char path[4096];
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("pipeline choice", "no OpenCL device");
        rmdir(dir);
        return tap_done();
    }
    int ready = standin_h100(ctx, path, sizeof path);
    tap_ok(ready, "the H100 model stands in as the PoCL device's probe result (%s)",
           ready ? path : cls_last_error());

    /* 8192^2 poisson2d, 100 steps, AUTO, within the device: the pipeline is weighed against
     * copy in + the resident schedule's predicted kernels + copy out, and the run's prediction
     * is the faster of the two.  (On PoCL AUTO's resident pick is naive, so the two coincide
     * with naive copy-compute-copy here; the H100's trapezoid case is tools/gpu.) */
    const cls_dims big = {{8192, 8192, 1}};
    choice c;
    const cls_plan_info *a = &c.info;
    cls_status s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, NULL, 0, &c);
    diag("auto, 100 steps", s, &c);
    int off = !strcmp(c.pipeline, "off");
    tap_ok(s == CLS_SUCCESS && strstr(c.host_why, "resident") && a->predicted_seconds > 0 &&
               a->predicted_copy_seconds > a->predicted_seconds &&
               (off ? a->predicted_total_seconds == a->predicted_copy_seconds
                    : a->predicted_total_seconds < a->predicted_copy_seconds),
           "poisson2d 8192^2 x 100 steps within the device: %s, predicted %.4g s against copy in "
           "+ %.4g s of %s kernels + copy out = %.4g s",
           c.pipeline, a->predicted_total_seconds, a->predicted_seconds,
           cls_schedule_name(a->schedule), a->predicted_copy_seconds);

    /* Above a cap nothing changes: the grid must be tiled. */
    s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, NULL, 256e6, &c);
    diag("auto, 256 MB cap", s, &c);
    tap_ok(s == CLS_SUCCESS && strcmp(c.pipeline, "off") && strstr(c.host_why, "does not fit"),
           "above a 256 MB cap the same run pipelines (%s)", c.pipeline);
    /* A scheme asked for is taken. */
    s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, "scalable", 0, &c);
    diag("auto, scalable asked for", s, &c);
    tap_ok(s == CLS_SUCCESS && !strcmp(c.pipeline, "scalable"),
           "a scalable pipeline asked for is planned within the device too");

    /* A pipeline of one tile overlaps nothing: AUTO keeps such runs resident (the tile kernel
     * would only replace the schedule's).  Small grids, where the best pipeline is one tile. */
    static const struct { const char *name; cls_dims d; size_t steps; } small[] = {
        {"hotspot", {{512, 512, 1}}, 100},   {"poisson2d", {{256, 256, 1}}, 50},
        {"emboss", {{1024, 1024, 1}}, 20},   {"jacobi3d", {{48, 48, 48}}, 30},
        {"moving_average", {{65536, 1, 1}}, 100},
    };
    int single = 0, none = 1;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
        s = plan_info(ctx, small[i].name, small[i].d, small[i].steps, CLS_SCHEDULE_AUTO, NULL, 0,
                      &c);
        diag(small[i].name, s, &c);
        if (s != CLS_SUCCESS || (strcmp(c.pipeline, "off") && c.pipeline_tiles == 1)) none = 0;
        single += s == CLS_SUCCESS && !strcmp(c.pipeline, "off") &&
                  strstr(c.host_why, "one tile") != NULL;
    }
    tap_ok(none && single > 0,
           "AUTO plans no pipeline of one tile (%d of %zu small runs stayed resident for it)",
           single, sizeof small / sizeof *small);
    cls_context_release(ctx);

    /* The same tables on a CPU-family model (with the family's tuning section): the tile kernel
     * is slow on CPUs, so a run within the device stays resident where the GPU model pipelined
     * it. */
    cls_model *m = NULL;
    char *json = NULL, *at;
    int cpu_ready = cls_model_load(path, &m) == CLS_SUCCESS && cls_model_to_json(m, &json) ==
                                                                  CLS_SUCCESS &&
                    (at = strstr(json, "\"gpu\"")) != NULL; /* the first: "family" */
    if (cpu_ready) {
        memcpy(at + 1, "cpu", 3);
        cls_model_release(m);
        m = NULL;
        cpu_ready = cls_model_from_json(json, &m) == CLS_SUCCESS && cpu_tuning(m) &&
                    cls_model_save(m, path) == CLS_SUCCESS &&
                    cls_context_create(NULL, &ctx) == CLS_SUCCESS;
    }
    cls_free(json);
    cls_model_release(m);
    if (tap_ok(cpu_ready, "the same model as a CPU family stands in (%s)",
               cpu_ready ? "ok" : cls_last_error())) {
        s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, NULL, 0, &c);
        diag("cpu family, 100 steps", s, &c);
        tap_ok(s == CLS_SUCCESS && !strcmp(c.pipeline, "off") &&
                   strstr(c.host_why, "CPU device") &&
                   a->predicted_total_seconds == a->predicted_copy_seconds,
               "on a CPU model poisson2d 8192^2 x 100 steps stays resident (%s)", c.host_why);
        s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, NULL, 256e6, &c);
        tap_ok(s == CLS_SUCCESS && strcmp(c.pipeline, "off"),
               "above a 256 MB cap it still pipelines (%s)", c.pipeline);
        cls_context_release(ctx);
    }
    standin_remove(dir);
    return tap_done();
}
