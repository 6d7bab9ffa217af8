/* cmd_bench_suite.c: `clstencil bench suite`, every built-in at a documented size with the
 * plan the model picks (CLS_SCHEDULE_AUTO), against the naive schedule and a copy kernel. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clstencil_tune.h"

/* ------------------------------------------------------------------ the documented sizes */
/* Per device type and size class: GPU sizes from medium up leave a 50 MB L2 (one state array
 * is 64 MiB or more at medium, 256 MiB or more at large); CPU sizes keep the largest run under
 * 2 GiB of host memory.  pathfinder's wall holds one row per step (steps x NX elements), so
 * it runs fewer steps on GPUs than the other 1D stencil (2 GiB of wall at medium). */
enum { CLASS_SMALL, CLASS_MEDIUM, CLASS_LARGE, N_CLASSES };
static const char *const class_names[N_CLASSES] = {"small", "medium", "large"};

typedef struct suite_size {
    size_t n[3];  /* x, y, z; unused dimensions 1 */
    size_t steps;
} suite_size;

typedef struct suite_app {
    const char *name;
    suite_size gpu[N_CLASSES];
    suite_size cpu[N_CLASSES];
} suite_app;

#define S3(n, s) {{n, n, n}, s}
#define S2(n, s) {{n, n, 1}, s}
#define S1(n, s) {{n, 1, 1}, s}
static const suite_app apps[] = {
    {"heat3d7", {S3(128, 50), S3(256, 50), S3(512, 50)}, {S3(64, 20), S3(128, 20), S3(256, 20)}},
    {"heat3d27", {S3(128, 50), S3(256, 50), S3(512, 50)}, {S3(64, 20), S3(128, 20), S3(256, 20)}},
    {"jacobi3d", {S3(128, 50), S3(256, 50), S3(512, 50)}, {S3(64, 20), S3(128, 20), S3(256, 20)}},
    {"cell3d", {S3(128, 50), S3(256, 50), S3(512, 50)}, {S3(64, 20), S3(128, 20), S3(256, 20)}},
    {"poisson2d", {S2(1024, 100), S2(4096, 100), S2(8192, 100)},
     {S2(512, 20), S2(2048, 20), S2(4096, 20)}},
    {"hotspot", {S2(1024, 100), S2(4096, 100), S2(8192, 100)},
     {S2(512, 20), S2(2048, 20), S2(4096, 20)}},
    {"emboss", {S2(1024, 100), S2(4096, 100), S2(8192, 100)},
     {S2(512, 20), S2(2048, 20), S2(4096, 20)}},
    {"pathfinder", {S1(1048576, 64), S1(16777216, 32), S1(33554432, 32)},
     {S1(262144, 20), S1(1048576, 20), S1(4194304, 20)}},
    {"moving_average", {S1(1048576, 100), S1(16777216, 100), S1(67108864, 100)},
     {S1(262144, 20), S1(4194304, 20), S1(16777216, 20)}},
};
#define N_APPS (sizeof apps / sizeof apps[0])
/* --quick: the small sizes with at most this many steps and one timed run. */
#define QUICK_STEPS 8
#define SWEEP_MAX_H 64
#define SWEEP_MAX_K 6 /* stream25d steps per pass swept (3D apps) */

/* ------------------------------------------------------------------------ one measurement */
typedef struct suite_row {
    const suite_app *app;
    char size[64];
    int dims;
    size_t points, steps;
    const char *dtype;
    double bytes_per_point;
    cls_plan_info plan;           /* the AUTO plan */
    cls_plan *p;                  /* ... itself (its buffers freed once measured), for the
                                     text plan's owns; released with the rows */
    char plan_text[256];          /* schedule and parameters, one line */
    double plan_seconds;          /* cls_plan_create of the AUTO plan, host wall time */
    double step_s, gpts, gbs;     /* AUTO, medians */
    double predicted_step_s;      /* plan.predicted_seconds / steps (0: no prediction) */
    double prediction_error;      /* percent, (predicted - measured) / measured */
    double naive_step_s;          /* measured naive schedule (the AUTO run when AUTO is naive) */
    double naive_predicted_step_s;
    double speedup;               /* naive_step_s / step_s */
    double copy_gbs;              /* measured copy kernel over one state array, read + write */
    double copy_fraction;         /* gbs / copy_gbs */
    int ok;
    char error[160];
} suite_row;

/* The progress line on stderr: rewritten in place on a terminal, one line per app otherwise. */
static int progress_tty = -1;
static void progress(size_t i, size_t n, const char *app, const char *size, const char *what)
{
    if (progress_tty < 0) progress_tty = isatty(STDERR_FILENO);
    if (progress_tty)
        fprintf(stderr, "\r\033[K[%zu/%zu] %s %s: %s", i, n, app, size, what);
    else if (strcmp(what, "done") == 0 || strncmp(what, "failed", 6) == 0)
        fprintf(stderr, "[%zu/%zu] %s %s: %s\n", i, n, app, size, what);
    fflush(stderr);
}

static void plan_line(char *buf, size_t len, const cls_plan *p, const cls_plan_info *pi,
                      int dims)
{
    char local[64], tile[64];
    cls_dims l = {{pi->local_size[0], pi->local_size[1], pi->local_size[2]}}, t;
    cli_plan_size_param(p, "trapezoid.tile", &t);
    cli_format_size(local, sizeof local, l, dims);
    cli_format_size(tile, sizeof tile, t, dims);
    size_t ppi = cli_plan_points_per_item(p);
    const char *rows;
    switch (pi->schedule) {
    case CLS_SCHEDULE_TRAPEZOID:
        snprintf(buf, len, "trapezoid h=%s tile=%s sync=%s wg=%s ppi=%zu",
                 cls_plan_param(p, "trapezoid.height"), tile, cls_plan_param(p, "trapezoid.sync"),
                 local, ppi);
        break;
    case CLS_SCHEDULE_STREAM25D:
        rows = cls_plan_param(p, "stream25d.rows_per_item");
        snprintf(buf, len, "stream25d wg=%s loader=%s prefetch=%s rows=%s planes=%zu k=%s", local,
                 cls_plan_param(p, "stream25d.loader"),
                 cls_plan_param(p, "stream25d.prefetch") ? cls_plan_param(p, "stream25d.prefetch")
                                                         : "0",
                 rows ? rows : "0", ppi, cls_plan_param(p, "stream25d.steps_per_pass"));
        break;
    default:
        rows = cls_plan_param(p, "naive.rows_per_item");
        if (rows && strcmp(rows, "1"))
            snprintf(buf, len, "%s wg=%s ppi=%zu rows=%s", pi->schedule_name, local, ppi, rows);
        else
            snprintf(buf, len, "%s wg=%s ppi=%zu", pi->schedule_name, local, ppi);
    }
}

/* One untimed run, then `reps` timed ones; the median device time per step in *step_s. */
static int time_plan(cls_plan *plan, const cli_workload *w, size_t reps, double *times,
                     double *step_s)
{
    cls_report rep;
    for (size_t i = 0; i <= reps; i++) {
        int rc = cls_plan_run(plan, w->input, (const void *const *)w->aux, w->output, &rep);
        if (rc != CLS_SUCCESS) return rc;
        if (i > 0) times[i - 1] = rep.seconds_per_step;
    }
    *step_s = cli_median(times, reps);
    return CLS_SUCCESS;
}

typedef struct suite_run {
    cls_context *ctx;
    cls_device_info dev;
    int cls;
    size_t reps, steps_override;
    int quick;
    FILE *sweep; /* --sweep: the CSV of the trapezoid-height and steps-per-pass sweeps, or NULL */
} suite_run;

static void fail_row(suite_row *r, int rc, const char *what)
{
    const char *msg = cls_last_error();
    snprintf(r->error, sizeof r->error, "%s: %s%s%s", what, cls_status_string(rc),
             *msg ? ": " : "", msg);
    for (char *c = r->error; *c; c++)
        if (*c == '\n' || *c == '"') *c = ' ';
}

/* One point of a sweep: the plan of `o` (device-resident steps) timed and predicted, one row
 * of PREFIX-sweep.csv with `param` as its h column; no row when the device cannot hold it. */
static void sweep_point(suite_run *s, suite_row *r, const cli_workload *w, double *times,
                        cls_schedule schedule, size_t param)
{
    cls_plan *p = NULL;
    cls_plan_info pi;
    cls_plan_options o;
    char params[128];
    const char *name = schedule == CLS_SCHEDULE_TRAPEZOID ? "trapezoid.height"
                       : schedule == CLS_SCHEDULE_CPUTILE ? "cputile.height"
                                                          : "stream25d.steps_per_pass";
    double t = 0;
    cls_plan_options_init(&o);
    o.schedule = schedule;
    /* device-resident steps: the schedule's kernels */
    snprintf(params, sizeof params, "%s=%zu pipeline.scheme=off", name, param);
    o.params = params;
    int rc = cls_plan_create(s->ctx, w->st, w->size, w->steps, &o, &p);
    if (rc == CLS_SUCCESS) rc = cls_plan_describe(p, &pi);
    if (rc == CLS_SUCCESS) rc = time_plan(p, w, s->reps, times, &t);
    if (rc == CLS_SUCCESS) {
        char line[256];
        const char *chosen = cls_plan_param(r->p, name);
        int pick = r->plan.schedule == schedule && chosen &&
                   strtoull(chosen, NULL, 10) == param;
        plan_line(line, sizeof line, p, &pi, r->dims);
        fprintf(s->sweep, "%s,%s,%zu,%s,%zu,%.9g,%.9g,", r->app->name, r->size, r->steps,
                cls_schedule_name(schedule), param, pi.predicted_seconds / (double)r->steps,
                t);
        cli_csv_field(s->sweep, line);
        fprintf(s->sweep, ",%d\n", pick);
    }
    cls_plan_release(p);
}

/* Measured and predicted time per step against the tuning parameter (the curves of
 * tools/plots): the trapezoid at h = 1, 2, 4, ... 64 (the model's other parameters), for 3D
 * apps the stream25d schedule at k = 1 .. 6 steps per pass (the planner's tile, loader and
 * chunk for each k), and on CPUs cputile at h = 1, 2, 4, ... 64 steps per pass (the model's
 * tile for each h); all at most the steps. */
static void sweep(suite_run *s, suite_row *r, const cli_workload *w, double *times)
{
    for (size_t h = 1; h <= r->steps && h <= SWEEP_MAX_H; h *= 2)
        sweep_point(s, r, w, times, CLS_SCHEDULE_TRAPEZOID, h);
    for (size_t k = 1; r->dims == 3 && k <= r->steps && k <= SWEEP_MAX_K; k++)
        sweep_point(s, r, w, times, CLS_SCHEDULE_STREAM25D, k);
    for (size_t h = 1; s->dev.type == CLS_DEVICE_CPU && h <= r->steps && h <= SWEEP_MAX_H;
         h *= 2)
        sweep_point(s, r, w, times, CLS_SCHEDULE_CPUTILE, h);
}

static void bench_app(suite_run *s, const suite_app *app, size_t idx, size_t n, suite_row *r)
{
    cli_workload w = {0};
    cls_plan *plan = NULL, *naive = NULL;
    double *times = NULL;
    int rc;
    const suite_size *sz = s->dev.type == CLS_DEVICE_GPU ? &app->gpu[s->cls] : &app->cpu[s->cls];

    memset(r, 0, sizeof *r);
    r->app = app;
    r->steps = s->steps_override ? s->steps_override : sz->steps;
    if (s->quick && r->steps > QUICK_STEPS) r->steps = QUICK_STEPS;
    if ((rc = cls_stencil_builtin(app->name, &w.st)) != CLS_SUCCESS) {
        fail_row(r, rc, "stencil");
        goto done;
    }
    r->dims = cls_stencil_dims(w.st);
    w.size = (cls_dims){{sz->n[0], sz->n[1], sz->n[2]}};
    w.steps = r->steps;
    cli_format_size(r->size, sizeof r->size, w.size, r->dims);
    progress(idx, n, app->name, r->size, "allocating");
    /* Per-step auxiliary arrays (pathfinder's wall: steps x NX) are filled for one step and
     * the rows repeated: the fill computes a sine per element, minutes for the GPU sizes, and
     * the time of a step does not depend on the weights. */
    w.steps = 1;
    if ((rc = cli_workload_fill(&w)) != CLS_SUCCESS) {
        fail_row(r, rc, "host arrays");
        goto done;
    }
    w.steps = r->steps;
    for (size_t k = 0; k < w.n_aux; k++) {
        if (!cls_stencil_aux_per_step(w.st, k) || w.steps < 2) continue;
        size_t row = w.points * cls_dtype_size(cls_stencil_dtype(w.st));
        char *all = row <= SIZE_MAX / w.steps ? realloc(w.aux[k], row * w.steps) : NULL;
        if (!all) {
            fail_row(r, CLS_ERR_OUT_OF_HOST_MEMORY, "host arrays");
            goto done;
        }
        for (size_t st = 1; st < w.steps; st++) memcpy(all + st * row, all, row);
        w.aux[k] = all;
    }
    r->points = w.points;
    r->dtype = cls_stencil_dtype(w.st) == CLS_FLOAT64 ? "double" : "float";
    r->bytes_per_point = cls_stencil_min_bytes_per_point(w.st);
    if (!(times = calloc(s->reps, sizeof *times))) {
        fail_row(r, CLS_ERR_OUT_OF_HOST_MEMORY, "timing table");
        goto done;
    }

    /* On GPUs AUTO is timed as it plans once the stencil's profile is cached (as `clstencil
     * bench` does); the profile is measured here, outside the planning time. */
    if (s->dev.type == CLS_DEVICE_GPU) {
        cls_ghost_profile prof;
        progress(idx, n, app->name, r->size, "profile");
        (void)cls_ghost_profile_get(s->ctx, w.st, &prof, NULL);
    }
    progress(idx, n, app->name, r->size, "planning (auto)");
    cls_plan_options ao;
    cls_plan_options_init(&ao);
    ao.params = "pipeline.scheme=off"; /* device-resident steps: the schedule's kernels */
    double t0 = cli_now();
    if ((rc = cls_plan_create(s->ctx, w.st, w.size, w.steps, &ao, &plan)) != CLS_SUCCESS ||
        (rc = cls_plan_describe(plan, &r->plan)) != CLS_SUCCESS) {
        fail_row(r, rc, "plan");
        goto done;
    }
    r->plan_seconds = cli_now() - t0;
    r->p = plan;
    plan = NULL;
    plan_line(r->plan_text, sizeof r->plan_text, r->p, &r->plan, r->dims);
    progress(idx, n, app->name, r->size, "timing the model's plan");
    if ((rc = time_plan(r->p, &w, s->reps, times, &r->step_s)) != CLS_SUCCESS) {
        fail_row(r, rc, "run");
        goto done;
    }
    r->predicted_step_s = r->plan.predicted_seconds / (double)r->steps;
    if (r->predicted_step_s > 0 && r->step_s > 0)
        r->prediction_error = 100.0 * (r->predicted_step_s - r->step_s) / r->step_s;

    /* The naive schedule, measured (not predicted): the baseline the tuned plan must beat.
     * When the model picked naive, that plan is the baseline already. */
    if (r->plan.schedule == CLS_SCHEDULE_NAIVE) {
        r->naive_step_s = r->step_s;
        r->naive_predicted_step_s = r->predicted_step_s;
    } else {
        cls_plan_options o;
        cls_plan_info ni;
        cls_plan_options_init(&o);
        o.params = "pipeline.scheme=off"; /* device-resident steps */
        o.schedule = CLS_SCHEDULE_NAIVE;
        progress(idx, n, app->name, r->size, "timing the naive schedule");
        if ((rc = cls_plan_create(s->ctx, w.st, w.size, w.steps, &o, &naive)) != CLS_SUCCESS ||
            (rc = cls_plan_describe(naive, &ni)) != CLS_SUCCESS ||
            (rc = time_plan(naive, &w, s->reps, times, &r->naive_step_s)) != CLS_SUCCESS) {
            fail_row(r, rc, "naive");
            goto done;
        }
        r->naive_predicted_step_s = ni.predicted_seconds / (double)r->steps;
    }
    r->speedup = r->step_s > 0 ? r->naive_step_s / r->step_s : 0.0;
    r->gpts = r->step_s > 0 ? (double)r->points / r->step_s / 1e9 : 0.0;
    r->gbs = cli_effective_gbs(&w, r->step_s);

    /* The copy yardstick over one state array (as `clstencil bench`), read + write. */
    progress(idx, n, app->name, r->size, "timing the copy kernel");
    size_t es = cls_dtype_size(cls_stencil_dtype(w.st));
    double copy_s = 0;
    size_t launches = s->quick ? 5 : 20;
    if ((rc = cls_bench_copy(s->ctx, cls_stencil_dtype(w.st), w.points * es, launches,
                             &copy_s)) != CLS_SUCCESS) {
        fail_row(r, rc, "copy");
        goto done;
    }
    r->copy_gbs = copy_s > 0 ? 2.0 * (double)w.points * (double)es / copy_s / 1e9 : 0.0;
    r->copy_fraction = r->copy_gbs > 0 ? r->gbs / r->copy_gbs : 0.0;
    if (s->sweep) {
        progress(idx, n, app->name, r->size, "sweeping the tuning parameter");
        sweep(s, r, &w, times);
    }
    r->ok = 1;
done:
    progress(idx, n, app->name, r->size[0] ? r->size : "-", r->ok ? "done" : "failed");
    if (!r->ok && progress_tty) fprintf(stderr, "\n");
    free(times);
    cls_plan_release(naive);
    cls_plan_release(plan);
    cls_plan_release_buffers(r->p);
    cli_workload_free(&w);
}

/* --------------------------------------------------------------------------- output */
static void print_table(FILE *f, const suite_row *rows, size_t n)
{
    fprintf(f, "%-15s %-12s %5s %10s %9s %8s %6s %10s %7s %10s %7s  %s\n", "app", "size", "steps",
            "time/step", "GPoints/s", "GB/s", "%copy", "predicted", "err%", "naive", "speedup",
            "plan");
    for (size_t i = 0; i < n; i++) {
        const suite_row *r = &rows[i];
        if (!r->ok) {
            fprintf(f, "%-15s %-12s %5zu  FAILED: %s\n", r->app->name, r->size, r->steps, r->error);
            continue;
        }
        char t[32], p[32] = "-", nv[32], e[16] = "-";
        cli_format_seconds(t, sizeof t, r->step_s);
        cli_format_seconds(nv, sizeof nv, r->naive_step_s);
        if (r->predicted_step_s > 0) {
            cli_format_seconds(p, sizeof p, r->predicted_step_s);
            snprintf(e, sizeof e, "%+.0f", r->prediction_error);
        }
        fprintf(f, "%-15s %-12s %5zu %10s %9.3f %8.1f %6.1f %10s %7s %10s %7.2f  %s\n",
                r->app->name, r->size, r->steps, t, r->gpts, r->gbs, 100.0 * r->copy_fraction, p,
                e, nv, r->speedup, r->plan_text);
    }
}

static const char *const csv_header =
    "app,size,points,steps,reps,dtype,device,device_type,size_class,schedule,plan,"
    "seconds_per_step,gpoints_per_s,gbytes_per_s,bytes_per_point,copy_gbytes_per_s,"
    "copy_fraction,model_bandwidth_gbs,predicted_seconds_per_step,prediction_error_percent,"
    "naive_seconds_per_step,naive_predicted_seconds_per_step,speedup_vs_naive,plan_seconds,"
    "status";

/* One CSV row, written (and flushed) as soon as the app is done: a run cut short by a time
 * limit keeps the rows it finished. */
static void write_csv_row(FILE *f, const suite_run *s, const suite_row *r, double model_bw)
{
    fprintf(f, "%s,%s,%zu,%zu,%zu,%s,", r->app->name, r->size, r->points, r->steps, s->reps,
            r->dtype ? r->dtype : "");
    cli_csv_field(f, s->dev.name);
    fprintf(f, ",%s,%s,%s,", cli_device_type_name(s->dev.type), class_names[s->cls],
            r->ok ? cls_schedule_name(r->plan.schedule) : "");
    cli_csv_field(f, r->plan_text);
    fprintf(f, ",%.9g,%.6g,%.6g,%g,%.6g,%.4f,%.6g,%.9g,%.2f,%.9g,%.9g,%.4f,%.4f,", r->step_s,
            r->gpts, r->gbs, r->bytes_per_point, r->copy_gbs, r->copy_fraction, model_bw,
            r->predicted_step_s, r->prediction_error, r->naive_step_s,
            r->naive_predicted_step_s, r->speedup, r->plan_seconds);
    cli_csv_field(f, r->ok ? "ok" : r->error);
    fprintf(f, "\n");
    fflush(f);
}

static void write_json(FILE *f, const suite_run *s, const suite_row *rows, size_t n,
                       double model_bw, const char *model_name)
{
    cli_json j;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cli_json_begin(&j, f);
    cli_json_str(&j, "date", date);
    cli_json_str(&j, "libclstencil", cls_version());
    cli_json_str(&j, "size_class", class_names[s->cls]);
    cli_json_bool(&j, "quick", s->quick);
    cli_json_uint(&j, "reps", s->reps);
    cli_json_object(&j, "device");
    cli_json_str(&j, "name", s->dev.name);
    cli_json_str(&j, "platform", s->dev.platform_name);
    cli_json_str(&j, "driver", s->dev.driver_version);
    cli_json_str(&j, "version", s->dev.device_version);
    cli_json_str(&j, "type", cli_device_type_name(s->dev.type));
    cli_json_uint(&j, "compute_units", s->dev.compute_units);
    cli_json_str(&j, "model", model_name);
    cli_json_num(&j, "model_bandwidth_gbs", model_bw);
    cli_json_close(&j);
    cli_json_array(&j, "results");
    for (size_t i = 0; i < n; i++) {
        const suite_row *r = &rows[i];
        cli_json_object(&j, NULL);
        cli_json_str(&j, "app", r->app->name);
        cli_json_str(&j, "size", r->size);
        cli_json_uint(&j, "points", r->points);
        cli_json_uint(&j, "steps", r->steps);
        cli_json_str(&j, "dtype", r->dtype);
        cli_json_bool(&j, "ok", r->ok);
        if (!r->ok) {
            cli_json_str(&j, "error", r->error);
            cli_json_close(&j);
            continue;
        }
        cli_json_str(&j, "plan_text", r->plan_text);
        cli_plan_json(&j, r->p, &r->plan, r->dims);
        cli_json_num(&j, "plan_seconds", r->plan_seconds);
        cli_json_num(&j, "seconds_per_step", r->step_s);
        cli_json_num(&j, "gpoints_per_s", r->gpts);
        cli_json_num(&j, "gbytes_per_s", r->gbs);
        cli_json_num(&j, "bytes_per_point", r->bytes_per_point);
        cli_json_num(&j, "copy_gbytes_per_s", r->copy_gbs);
        cli_json_num(&j, "copy_fraction", r->copy_fraction);
        cli_json_num(&j, "predicted_seconds_per_step", r->predicted_step_s);
        cli_json_num(&j, "prediction_error_percent", r->prediction_error);
        cli_json_num(&j, "naive_seconds_per_step", r->naive_step_s);
        cli_json_num(&j, "naive_predicted_seconds_per_step", r->naive_predicted_step_s);
        cli_json_num(&j, "speedup_vs_naive", r->speedup);
        cli_json_close(&j);
    }
    cli_json_close(&j);
    cli_json_end(&j);
}

static int write_json_file(const char *path, const suite_run *s, const suite_row *rows,
                           size_t n, double bw, const char *model_name)
{
    cli_out o;
    FILE *f = cli_out_open(&o, path);
    if (!f) return CLI_EXIT_FAIL;
    write_json(f, s, rows, n, bw, model_name);
    return cli_out_close(&o);
}

/* ----------------------------------------------------------------------------- main */
enum { OPT_SIZE = 1, OPT_REPS, OPT_APPS, OPT_QUICK, OPT_DEVICE, OPT_OUT, OPT_STEPS, OPT_SWEEP };

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},     {"reps", 1, OPT_REPS},     {"apps", 1, OPT_APPS},
    {"quick", 0, OPT_QUICK},   {"device", 1, OPT_DEVICE}, {"out", 1, OPT_OUT},
    {"steps", 1, OPT_STEPS},   {"sweep", 0, OPT_SWEEP},   {NULL, 0, 0},
};

/* Marks the apps named in the comma-separated list; returns -1 (message printed) on an
 * unknown name. */
static int select_apps(const cli_command *self, const char *list, int *sel)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        size_t i;
        for (i = 0; i < N_APPS; i++)
            if (strlen(apps[i].name) == len && strncmp(apps[i].name, p, len) == 0) break;
        if (i == N_APPS) {
            cli_usage_error(self, "unknown app '%.*s' in --apps (one of the built-ins, e.g. "
                                  "heat3d7,hotspot)", (int)len, p);
            return -1;
        }
        sel[i] = 1;
        p += len;
        if (*p == ',') p++;
    }
    return 0;
}

static int suite_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    suite_run s = {0};
    const char *device = NULL, *out = "bench-suite", *apps_arg = NULL, *v;
    int sel[N_APPS] = {0}, id, ret = CLI_EXIT_FAIL, sweep = 0, have_reps = 0, have_size = 0;
    suite_row *rows = NULL;
    cls_model *model = NULL;
    FILE *csv = NULL;
    cli_out csv_out = {0}, sweep_out = {0};
    char *path = NULL, *csv_path = NULL, *sweep_path = NULL;

    s.cls = CLASS_MEDIUM;
    s.reps = 5;
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL: return cli_usage_error(self, "unexpected argument '%s'", v);
        case OPT_SIZE:
            for (s.cls = 0; s.cls < N_CLASSES; s.cls++)
                if (strcmp(v, class_names[s.cls]) == 0) break;
            if (s.cls == N_CLASSES)
                return cli_usage_error(self, "invalid --size '%s' (small, medium or large)", v);
            have_size = 1;
            break;
        case OPT_REPS:
        case OPT_STEPS: {
            size_t *dst = id == OPT_REPS ? &s.reps : &s.steps_override;
            if (cli_parse_count(v, dst) != 0 || *dst > 100000)
                return cli_usage_error(self, "invalid %s '%s': expected a whole number 1..100000",
                                       p.opt_name, v);
            if (id == OPT_REPS) have_reps = 1;
            break;
        }
        case OPT_APPS:
            if (select_apps(self, v, sel) != 0) return CLI_EXIT_USAGE;
            apps_arg = v;
            break;
        case OPT_QUICK: s.quick = 1; break;
        case OPT_DEVICE: device = v; break;
        case OPT_OUT:
            if (!*v) return cli_usage_error(self, "--out needs a non-empty prefix");
            out = v;
            break;
        case OPT_SWEEP: sweep = 1; break;
        }
    }
    if (s.quick) {
        if (have_size && s.cls != CLASS_SMALL)
            return cli_usage_error(self, "--quick runs the small sizes; leave out --size");
        s.cls = CLASS_SMALL;
        if (!have_reps) s.reps = 1;
    }
    if (!apps_arg)
        for (size_t i = 0; i < N_APPS; i++) sel[i] = 1;

    {
        /* The three tables, checked before the first measurement. */
        size_t plen0 = strlen(out) + 16;
        char *names = malloc(3 * plen0);
        if (!names) {
            cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "file names");
            goto done;
        }
        snprintf(names, plen0, "%s.csv", out);
        snprintf(names + plen0, plen0, "%s.json", out);
        snprintf(names + 2 * plen0, plen0, "%s-sweep.csv", out);
        const char *outs[] = {names, names + plen0, sweep ? names + 2 * plen0 : NULL};
        int bad = cli_check_outputs(outs, 3, NULL, 0) != CLI_EXIT_OK;
        free(names);
        if (bad) goto done;
    }
    if (cli_open_context(device, &s.ctx, &s.dev) != CLS_SUCCESS) goto done;
    double model_bw = 0;
    char why[256];
    /* The model's copy bandwidth: the probe's measured figure, else the peak it assumes. */
    if (cls_model_match(&s.dev, NULL, &model, why, sizeof why) == CLS_SUCCESS &&
        (cls_model_get(model, "memory.bandwidth_measured_gbs", &model_bw) != CLS_SUCCESS ||
         !(model_bw > 0)) &&
        cls_model_get(model, "memory.bandwidth_peak_gbs", &model_bw) != CLS_SUCCESS)
        model_bw = 0;

    size_t n = 0, total = 0;
    for (size_t i = 0; i < N_APPS; i++) total += (size_t)sel[i];
    size_t plen = strlen(out) + 16;
    if (!(rows = calloc(total, sizeof *rows)) || !(path = malloc(plen)) ||
        !(csv_path = malloc(plen)) || !(sweep_path = malloc(plen))) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "result table");
        goto done;
    }
    /* The tables are written whole at the end (cli_out), never half. */
    snprintf(csv_path, plen, "%s.csv", out);
    if (!(csv = cli_out_open(&csv_out, csv_path))) goto done;
    fprintf(csv, "%s\n", csv_header);
    if (sweep) {
        snprintf(sweep_path, plen, "%s-sweep.csv", out);
        if (!(s.sweep = cli_out_open(&sweep_out, sweep_path))) goto done;
        fprintf(s.sweep, "app,size,steps,schedule,h,predicted_seconds_per_step,"
                         "measured_seconds_per_step,plan,model_pick\n");
    }
    fprintf(stderr, "bench suite: %s sizes for a %s, %zu app%s, median of %zu run%s\n",
            class_names[s.cls], cli_device_type_name(s.dev.type), total, total == 1 ? "" : "s",
            s.reps, s.reps == 1 ? "" : "s");
    for (size_t i = 0; i < N_APPS; i++) {
        if (!sel[i]) continue;
        bench_app(&s, &apps[i], n + 1, total, &rows[n]);
        write_csv_row(csv, &s, &rows[n], model_bw);
        n++;
    }
    if (progress_tty > 0) fprintf(stderr, "\r\033[K");

    printf("device: %s (%s, driver %s), %s sizes, median of %zu run%s\n", s.dev.name,
           s.dev.platform_name, s.dev.driver_version, class_names[s.cls], s.reps,
           s.reps == 1 ? "" : "s");
    printf("GB/s at the minimal traffic; %%copy: of a copy kernel over one state array; err%%: "
           "(predicted - measured) / measured; speedup: naive time / model's plan time\n");
    print_table(stdout, rows, n);
    const char *mname = model ? cls_model_name(model) : "";
    csv = s.sweep = NULL;
    if ((ret = cli_out_close(&csv_out)) != CLI_EXIT_OK ||
        (ret = cli_out_close(&sweep_out)) != CLI_EXIT_OK)
        goto done;
    snprintf(path, plen, "%s.json", out);
    if ((ret = write_json_file(path, &s, rows, n, model_bw, mname)) != CLI_EXIT_OK) goto done;
    printf("wrote %s.csv and %s.json%s%s%s\n", out, out, sweep ? " and " : "", sweep ? out : "",
           sweep ? "-sweep.csv" : "");
    ret = CLI_EXIT_OK;
    for (size_t i = 0; i < n; i++)
        if (!rows[i].ok) ret = CLI_EXIT_FAIL;
    if (fflush(stdout) != 0) ret = CLI_EXIT_FAIL;

done:
    cli_out_discard(&csv_out);
    cli_out_discard(&sweep_out);
    free(path);
    for (size_t i = 0; rows && i < total; i++) cls_plan_release(rows[i].p);
    free(csv_path);
    free(sweep_path);
    free(rows);
    cls_model_release(model);
    cls_context_release(s.ctx);
    return ret;
}

const cli_command cli_cmd_bench_suite = {
    "bench suite",
    "every built-in at a documented size with the model's plan",
    "usage: clstencil bench suite [--size small|medium|large] [--quick] [--reps N] [--steps N]\n"
    "           [--apps A,B,...] [--sweep] [--out PREFIX] [--device SEL]",
    "Runs every built-in stencil (or those of --apps) at the documented size of the size class\n"
    "for the device's type, with the plan the model picks (schedule auto), and measures it:\n"
    "one untimed run, then N timed runs; figures are medians of the device time per step.\n"
    "For each it prints one table row and writes PREFIX.csv and PREFIX.json with: time per\n"
    "step, GPoints/s, the effective GB/s at the minimal traffic (the state read and written\n"
    "once and each auxiliary array read once per point and step), that bandwidth as a\n"
    "fraction of a copy kernel's over one state array (read + write), the model's predicted\n"
    "time per step and its error, the measured naive schedule and the speed-up over it, and\n"
    "the chosen plan (schedule and parameters).  Progress goes to stderr.  The exit status is\n"
    "1 when any app failed (its row says why).  Steps are measured device-resident (one upload\n"
    "and one download around the timed kernels; the host pipeline of clstencil run stays off).\n"
    "\n"
    "Sizes (GPU | CPU; steps in brackets), x first:\n"
    "  3D heat3d7 heat3d27 jacobi3d cell3d   small 128^3 [50] | 64^3 [20]\n"
    "                                        medium 256^3 [50] | 128^3 [20]\n"
    "                                        large 512^3 [50] | 256^3 [20]\n"
    "  2D poisson2d hotspot emboss           small 1024^2 [100] | 512^2 [20]\n"
    "                                        medium 4096^2 [100] | 2048^2 [20]\n"
    "                                        large 8192^2 [100] | 4096^2 [20]\n"
    "  1D pathfinder (wall: steps x NX)      small 1048576 [64] | 262144 [20]\n"
    "                                        medium 16777216 [32] | 1048576 [20]\n"
    "                                        large 33554432 [32] | 4194304 [20]\n"
    "  1D moving_average                     small 1048576 [100] | 262144 [20]\n"
    "                                        medium 16777216 [100] | 4194304 [20]\n"
    "                                        large 67108864 [100] | 16777216 [20]\n"
    "GPU sizes from medium up leave a 50 MB L2 cache; accelerators and other devices use the\n"
    "CPU column.\n"
    "\n"
    "Options:\n"
    "  --size C          size class: small, medium (default) or large\n"
    "  --quick           small sizes, at most 8 steps, 1 timed run (unless --reps): a smoke\n"
    "                    test that finishes in under a minute on PoCL\n"
    "  --reps N          timed runs per measurement (default 5)\n"
    "  --steps N         steps per run instead of the table's\n"
    "  --apps A,B        only these built-ins\n"
    "  --sweep           also time and predict the trapezoid at h = 1, 2, 4, ... 64, for 3D\n"
    "                    apps stream25d at 1..6 steps per pass and on CPUs cputile at\n"
    "                    h = 1, 2, 4, ... 64 steps per pass (at most the steps), and write\n"
    "                    PREFIX-sweep.csv (for tools/plots/results.py)\n"
    "  --out PREFIX      output files (default bench-suite: bench-suite.csv, .json)\n"
    "  --device SEL      device selector (overrides CLSTENCIL_DEVICE)\n"
    "  -h, --help        show this help\n",
    suite_main,
};
