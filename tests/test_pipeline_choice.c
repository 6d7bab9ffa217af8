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

static cls_status plan_info(cls_context *ctx, const char *name, cls_dims dims, size_t steps,
                            cls_schedule sched, cls_pipeline pipe, double cap, cls_plan_info *info)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    cls_plan_options opt;
    cls_status s = cls_stencil_builtin(name, &st);
    if (s != CLS_SUCCESS) return s;
    cls_plan_options_init(&opt);
    opt.schedule = sched;
    opt.pipeline = pipe;
    opt.device_memory = cap;
    memset(info, 0, sizeof *info);
    s = cls_plan_create(ctx, st, dims, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_describe(plan, info);
    cls_plan_release(plan);
    cls_stencil_release(st);
    return s;
}

static void diag(const char *what, cls_status s, const cls_plan_info *i)
{
    tap_diag("%s: %s; schedule %s, kernels predicted %.4g s, run %.4g s, copy-in/resident/out "
             "%.4g s; pipeline %s: %s",
             what, s == CLS_SUCCESS ? "ok" : cls_last_error(), cls_schedule_name(i->schedule),
             i->predicted_seconds, i->predicted_total_seconds, i->predicted_copy_seconds,
             cls_pipeline_name(i->pipeline), i->pipeline_why);
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
    cls_plan_info a;
    cls_status s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, CLS_PIPELINE_AUTO, 0,
                             &a);
    diag("auto, 100 steps", s, &a);
    int off = a.pipeline == CLS_PIPELINE_OFF;
    tap_ok(s == CLS_SUCCESS && strstr(a.pipeline_why, "resident") && a.predicted_seconds > 0 &&
               a.predicted_copy_seconds > a.predicted_seconds &&
               (off ? a.predicted_total_seconds == a.predicted_copy_seconds
                    : a.predicted_total_seconds < a.predicted_copy_seconds),
           "poisson2d 8192^2 x 100 steps within the device: %s, predicted %.4g s against copy in "
           "+ %.4g s of %s kernels + copy out = %.4g s",
           cls_pipeline_name(a.pipeline), a.predicted_total_seconds, a.predicted_seconds,
           cls_schedule_name(a.schedule), a.predicted_copy_seconds);

    /* Above a cap nothing changes: the grid must be tiled. */
    s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, CLS_PIPELINE_AUTO, 256e6, &a);
    diag("auto, 256 MB cap", s, &a);
    tap_ok(s == CLS_SUCCESS && a.pipeline != CLS_PIPELINE_OFF &&
               strstr(a.pipeline_why, "does not fit"),
           "above a 256 MB cap the same run pipelines (%s)", cls_pipeline_name(a.pipeline));
    /* A scheme asked for is taken. */
    s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, CLS_PIPELINE_SCALABLE, 0, &a);
    diag("auto, scalable asked for", s, &a);
    tap_ok(s == CLS_SUCCESS && a.pipeline == CLS_PIPELINE_SCALABLE,
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
        s = plan_info(ctx, small[i].name, small[i].d, small[i].steps, CLS_SCHEDULE_AUTO,
                      CLS_PIPELINE_AUTO, 0, &a);
        diag(small[i].name, s, &a);
        if (s != CLS_SUCCESS || (a.pipeline != CLS_PIPELINE_OFF && a.pipeline_tiles == 1))
            none = 0;
        single += s == CLS_SUCCESS && a.pipeline == CLS_PIPELINE_OFF &&
                  strstr(a.pipeline_why, "one tile") != NULL;
    }
    tap_ok(none && single > 0,
           "AUTO plans no pipeline of one tile (%d of %zu small runs stayed resident for it)",
           single, sizeof small / sizeof *small);
    cls_context_release(ctx);

    /* The same tables on a CPU-family model: the tile kernel is slow on CPUs, so a run within
     * the device stays resident where the GPU model pipelined it. */
    cls_model *m = NULL;
    char *json = NULL, *at;
    int cpu_ready = cls_model_load(path, &m) == CLS_SUCCESS && cls_model_to_json(m, &json) ==
                                                                  CLS_SUCCESS &&
                    (at = strstr(json, "\"gpu\"")) != NULL; /* the first: "family" */
    if (cpu_ready) {
        memcpy(at + 1, "cpu", 3);
        cls_model_release(m);
        m = NULL;
        cpu_ready = cls_model_from_json(json, &m) == CLS_SUCCESS &&
                    cls_model_save(m, path) == CLS_SUCCESS &&
                    cls_context_create(NULL, &ctx) == CLS_SUCCESS;
    }
    cls_free(json);
    cls_model_release(m);
    if (tap_ok(cpu_ready, "the same model as a CPU family stands in (%s)",
               cpu_ready ? "ok" : cls_last_error())) {
        s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, CLS_PIPELINE_AUTO, 0, &a);
        diag("cpu family, 100 steps", s, &a);
        tap_ok(s == CLS_SUCCESS && a.pipeline == CLS_PIPELINE_OFF &&
                   strstr(a.pipeline_why, "CPU device") &&
                   a.predicted_total_seconds == a.predicted_copy_seconds,
               "on a CPU model poisson2d 8192^2 x 100 steps stays resident (%s)",
               a.pipeline_why);
        s = plan_info(ctx, "poisson2d", big, 100, CLS_SCHEDULE_AUTO, CLS_PIPELINE_AUTO, 256e6,
                      &a);
        tap_ok(s == CLS_SUCCESS && a.pipeline != CLS_PIPELINE_OFF,
               "above a 256 MB cap it still pipelines (%s)", cls_pipeline_name(a.pipeline));
        cls_context_release(ctx);
    }
    standin_remove(dir);
    return tap_done();
}
