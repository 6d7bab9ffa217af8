/* test_plan_buffers.c: a plan keeps its device buffers from one run to the next (the resident
 * schedules' grid, the pipeline's buffer sets and pinned staging tiles), refills them with
 * each run's input and auxiliary arrays, frees them on cls_plan_release_buffers, after a
 * failed or cancelled run and with release_buffers on every run; the run report says which
 * runs allocated, and its prediction adds the allocation to those runs alone (the measured
 * H100 model standing in for PoCL's, in a private cache). */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "h100_standin.h"
#include "tap.h"

static float value(size_t i, int k, int seed)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(k * 40503u + seed * 97u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)((h & 0xffff) / 65536.0) + (k ? 300.0f : 0.0f);
}

/* One stencil's arrays: the input and auxiliary arrays of two data sets, and the output. */
typedef struct data {
    cls_stencil *st;
    cls_dims dims;
    size_t steps, n, na;
    float *in[2], *aux[2][4], *ref[2], *out;
} data;

static int data_make(data *d, const char *name, cls_dims dims, size_t steps)
{
    memset(d, 0, sizeof *d);
    if (cls_stencil_builtin(name, &d->st) != CLS_SUCCESS) return 0;
    d->dims = dims;
    d->steps = steps;
    d->n = cls_dims_points(dims);
    d->na = cls_stencil_num_aux(d->st);
    d->out = malloc(d->n * sizeof(float));
    int ok = d->out != NULL;
    for (int s = 0; s < 2 && ok; s++) {
        d->in[s] = malloc(d->n * sizeof(float));
        d->ref[s] = malloc(d->n * sizeof(float));
        ok = d->in[s] && d->ref[s];
        for (size_t k = 0; k < d->na && ok; k++) ok = (d->aux[s][k] = malloc(d->n * sizeof(float))) != NULL;
        for (size_t i = 0; i < d->n && ok; i++) {
            d->in[s][i] = value(i, 0, s);
            for (size_t k = 0; k < d->na; k++) d->aux[s][k][i] = value(i, (int)k + 1, s);
        }
        ok = ok && cls_reference_run(d->st, dims, steps, d->in[s], (const void *const *)d->aux[s],
                                     d->ref[s]) == CLS_SUCCESS;
    }
    return ok;
}

static void data_free(data *d)
{
    for (int s = 0; s < 2; s++) {
        free(d->in[s]);
        free(d->ref[s]);
        for (size_t k = 0; k < d->na; k++) free(d->aux[s][k]);
    }
    free(d->out);
    cls_stencil_release(d->st);
}

/* Runs data set `set`; 1 when it succeeded bitwise with the `allocated` flag expected. */
static int run_set(cls_plan *plan, data *d, int set, int expect_alloc, const char *what)
{
    cls_report rep;
    memset(d->out, 0, d->n * sizeof(float));
    cls_status s = cls_plan_run(plan, d->in[set], (const void *const *)d->aux[set], d->out, &rep);
    int same = s == CLS_SUCCESS && memcmp(d->out, d->ref[set], d->n * sizeof(float)) == 0;
    return tap_ok(same && rep.allocated == expect_alloc, "%s: %s, %s (allocated %d, expected %d)",
                  what, s == CLS_SUCCESS ? "ran" : cls_last_error(), same ? "bitwise" : "DIFFERS",
                  rep.allocated, expect_alloc);
}

static int cancel_at_once(size_t done, size_t total, void *user)
{
    (void)done, (void)total, (void)user;
    return 1;
}

/* pipeline: the pipeline.scheme parameter; tile and h: pipeline.tile and pipeline.steps (0:
 * left out). */
typedef struct path {
    const char *what, *stencil;
    cls_dims dims;
    size_t steps;
    cls_schedule schedule;
    const char *pipeline;
    size_t tile[3], h;
} exec_path;

/* The plan parameters of a pipeline request. */
static const char *pipeline_params(char *buf, size_t len, const char *scheme,
                                   const size_t tile[3], size_t h)
{
    size_t n = (size_t)snprintf(buf, len, "pipeline.scheme=%s", scheme);
    if (tile[0] && n < len)
        n += (size_t)snprintf(buf + n, len - n, " pipeline.tile=%zux%zux%zu", tile[0],
                              tile[1] ? tile[1] : 1, tile[2] ? tile[2] : 1);
    if (h && n < len) snprintf(buf + n, len - n, " pipeline.steps=%zu", h);
    return buf;
}

static void check_path(cls_context *ctx, const exec_path *pa)
{
    data d;
    char what[160];
    if (!data_make(&d, pa->stencil, pa->dims, pa->steps)) {
        tap_ok(0, "%s: data (%s)", pa->what, cls_last_error());
        data_free(&d);
        return;
    }
    for (int release = 0; release < 2; release++) {
        cls_plan_options opt;
        cls_plan *plan = NULL;
        char params[128];
        cls_plan_options_init(&opt);
        opt.schedule = pa->schedule;
        opt.params = pipeline_params(params, sizeof params, pa->pipeline, pa->tile, pa->h);
        opt.release_buffers = release;
        if (cls_plan_create(ctx, d.st, d.dims, d.steps, &opt, &plan) != CLS_SUCCESS) {
            tap_ok(0, "%s: plan (%s)", pa->what, cls_last_error());
            continue;
        }
        const char *mode = release ? "release_buffers" : "kept";
        snprintf(what, sizeof what, "%s, %s, first run", pa->what, mode);
        run_set(plan, &d, 0, 1, what);
        /* other input and auxiliary arrays through the kept buffers */
        snprintf(what, sizeof what, "%s, %s, second run, other data", pa->what, mode);
        run_set(plan, &d, 1, release, what);
        if (!release) {
            cls_plan_release_buffers(plan);
            snprintf(what, sizeof what, "%s, after cls_plan_release_buffers", pa->what);
            run_set(plan, &d, 0, 1, what);
            /* a cancelled run frees what it held; the next one allocates anew */
            cls_plan_set_progress(plan, cancel_at_once, NULL);
            cls_report rep;
            cls_status s = cls_plan_run(plan, d.in[1], (const void *const *)d.aux[1], d.out, &rep);
            cls_plan_set_progress(plan, NULL, NULL);
            tap_ok(s == CLS_ERR_CANCELLED, "%s: cancelled (%s)", pa->what, cls_status_string(s));
            snprintf(what, sizeof what, "%s, after the cancelled run", pa->what);
            run_set(plan, &d, 1, 1, what);
            snprintf(what, sizeof what, "%s, and the run after that", pa->what);
            run_set(plan, &d, 0, 0, what);
        }
        cls_plan_release(plan);
    }
    data_free(&d);
}

/* The report's prediction: the plan's run, plus its allocation on the runs that allocate. */
/* pipe: "off" or "scalable" (tiles of 64x12). */
static void check_prediction(cls_context *ctx, const char *pipe, int release)
{
    data d;
    cls_plan *plan = NULL;
    cls_plan_options opt;
    cls_plan_info info;
    char params[128];
    const int off = !strcmp(pipe, "off");
    const char *what = off ? "copy-compute-copy" : "scalable pipeline";
    if (!data_make(&d, "emboss", (cls_dims){{64, 48, 1}}, 2) ||
        (cls_plan_options_init(&opt), opt.schedule = CLS_SCHEDULE_NAIVE,
         opt.params = pipeline_params(params, sizeof params, pipe,
                                      (const size_t[3]){off ? 0 : 64, off ? 0 : 12, 0}, 0),
         opt.release_buffers = release,
         cls_plan_create(ctx, d.st, d.dims, d.steps, &opt, &plan)) != CLS_SUCCESS ||
        cls_plan_describe(plan, &info) != CLS_SUCCESS) {
        tap_ok(0, "%s: plan (%s)", what, cls_last_error());
        cls_plan_release(plan);
        data_free(&d);
        return;
    }
    const char *tiles_text = cls_plan_param(plan, "pipeline.tiles");
    size_t tiles = tiles_text ? (size_t)strtoull(tiles_text, NULL, 10) : 0;
    tap_ok(info.predicted_total_seconds > 0 && info.predicted_alloc_seconds > 0 &&
               tiles == (off ? 0u : 4u),
           "%s%s: %zu tiles, predicted run %.4g ms, allocation %.4g ms", what,
           release ? ", release_buffers" : "", tiles,
           info.predicted_total_seconds * 1e3, info.predicted_alloc_seconds * 1e3);
    for (int r = 0; r < 2; r++) {
        cls_report rep;
        cls_status s = cls_plan_run(plan, d.in[0], (const void *const *)d.aux[0], d.out, &rep);
        int alloc = r == 0 || release;
        double want = info.predicted_total_seconds + (alloc ? info.predicted_alloc_seconds : 0);
        tap_ok(s == CLS_SUCCESS && rep.allocated == alloc && rep.predicted_total_seconds == want,
               "%s%s, run %d: reported prediction %.6g ms (want %.6g), allocated %d", what,
               release ? ", release_buffers" : "", r + 1, rep.predicted_total_seconds * 1e3,
               want * 1e3, rep.allocated);
    }
    cls_plan_release(plan);
    data_free(&d);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("plan buffers", "no OpenCL device");
        return tap_done();
    }
    const cls_dims d2 = {{37, 29, 1}}, d3 = {{24, 20, 12}};
    const exec_path paths[] = {
        {"naive hotspot", "hotspot", d2, 3, CLS_SCHEDULE_NAIVE, "off", {0}, 0},
        {"trapezoid hotspot", "hotspot", d2, 6, CLS_SCHEDULE_TRAPEZOID, "off", {0}, 0},
        {"stream25d jacobi3d", "jacobi3d", d3, 3, CLS_SCHEDULE_STREAM25D, "off", {0},
         0},
        /* two sweeps of two steps, so that a cancel lands between them */
        {"basic pipeline hotspot", "hotspot", d2, 4, CLS_SCHEDULE_NAIVE, "basic",
         {37, 7, 1}, 2},
        {"scalable pipeline hotspot", "hotspot", d2, 4, CLS_SCHEDULE_NAIVE, "scalable",
         {37, 7, 1}, 2},
        {"buffered pipeline hotspot", "hotspot", d2, 4, CLS_SCHEDULE_NAIVE, "buffered",
         {10, 9, 1}, 2},
        {"scalable pipeline jacobi3d", "jacobi3d", d3, 4, CLS_SCHEDULE_NAIVE,
         "scalable", {24, 20, 5}, 2},
    };
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) check_path(ctx, &paths[i]);
    cls_plan_release_buffers(NULL); /* accepted */
    cls_context_release(ctx);

    /* Predictions: the H100 model as the device's probe result, in a private cache. */
    char dir[] = "/tmp/cls-plan-buffers-XXXXXX", path[4096];
    if (!standin_cache_dir(dir)) {
        tap_skip("reported predictions", "no temporary directory");
        return tap_done();
    }
    int ready = standin_context(path, sizeof path, &ctx);
    if (tap_ok(ready, "the H100 model stands in as the device's probe result%s%s",
               ready ? "" : ": ", ready ? "" : cls_last_error())) {
        for (int release = 0; release < 2; release++) {
            check_prediction(ctx, "off", release);
            check_prediction(ctx, "scalable", release);
        }
    }
    cls_context_release(ctx);
    standin_remove(dir);
    return tap_done();
}
