/* cmd_bench.c: `clstencil bench`, stencil throughput against a copy kernel's bandwidth. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clstencil_tune.h"

#define DEFAULT_STEPS 20
#define DEFAULT_REPS 5
#define MAX_COPY_LAUNCHES 1000

enum {
    OPT_SIZE = 1, OPT_STEPS, OPT_DTYPE, OPT_BOUNDARY, OPT_PARAM, OPT_REPS, OPT_SCHEDULE,
    OPT_LOCAL_SIZE, OPT_PER_ITEM, OPT_DEVICE, OPT_FORMAT, OPT_HEIGHT, OPT_SYNC, OPT_MAX_REGISTERS
};

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},         {"steps", 1, OPT_STEPS},   {"dtype", 1, OPT_DTYPE},
    {"boundary", 1, OPT_BOUNDARY}, {"param", 1, OPT_PARAM},   {"reps", 1, OPT_REPS},
    {"schedule", 1, OPT_SCHEDULE}, {"device", 1, OPT_DEVICE}, {"format", 1, OPT_FORMAT},
    {"local-size", 1, OPT_LOCAL_SIZE}, {"points-per-item", 1, OPT_PER_ITEM},
    {"height", 1, OPT_HEIGHT},     {"sync", 1, OPT_SYNC},
    {"max-registers", 1, OPT_MAX_REGISTERS}, {NULL, 0, 0},
};

/* The figures of one benchmark, as every output format prints them. */
typedef struct bench_result {
    const char *stencil;
    char size[96];
    const char *dtype;
    size_t fields; /* cls_stencil_num_fields */
    size_t steps, reps;
    cls_plan_info plan;
    const cls_plan *p;
    size_t per_item;
    char local[96];
    char tile[96];   /* trapezoid: the tile */
    const char *device;
    double bytes_per_point;
    double step_s, step_gpts, step_gbs; /* medians over the reps */
    double total_s;                     /* median host wall time of one run */
    double copy_bytes, copy_s, copy_gbs, copy_gpts;
    size_t copy_launches;
    double ratio; /* stencil GB/s over copy GB/s, percent */
} bench_result;

static void print_text(const bench_result *r)
{
    char t1[32], t2[32];
    cli_format_seconds(t1, sizeof t1, r->step_s);
    cli_format_seconds(t2, sizeof t2, r->copy_s);
    printf("stencil: %s %s %s, %zu steps, median of %zu runs\n", r->stencil, r->size, r->dtype,
           r->steps, r->reps);
    printf("schedule: %s, work-group %s\n", r->plan.schedule_name, r->local);
    if (r->plan.schedule == CLS_SCHEDULE_TRAPEZOID)
        printf("trapezoid: tile %s, h %s, sync %s, %zu point%s per item\n", r->tile,
               cls_plan_param(r->p, "trapezoid.height"), cls_plan_param(r->p, "trapezoid.sync"),
               r->per_item, r->per_item == 1 ? "" : "s");
    if (r->plan.predicted_seconds > 0 && r->steps) {
        char pr[32];
        cli_format_seconds(pr, sizeof pr, r->plan.predicted_seconds / (double)r->steps);
        printf("predicted time/step: %s (ghost-zone model)\n", pr);
    }
    if (r->fields > 1)
        printf("traffic: %g bytes/point (per stage, each field it reads read once and each "
               "field it updates written once; each aux array read once)\n",
               r->bytes_per_point);
    else
        printf("traffic: %g bytes/point (state read and written once, each aux array read "
               "once)\n",
               r->bytes_per_point);
    printf("%-8s %12s %12s %12s\n", "", "time/step", "GPoints/s", "GB/s");
    printf("%-8s %12s %12.3f %12.1f\n", "stencil", t1, r->step_gpts, r->step_gbs);
    printf("%-8s %12s %12.3f %12.1f\n", "copy", t2, r->copy_gpts, r->copy_gbs);
    printf("stencil/copy: %.1f %%\n", r->ratio);
}

static const char *const csv_header =
    "stencil,size,dtype,steps,reps,schedule,local_size,points_per_item,device,bytes_per_point,"
    "seconds_per_step,gpoints_per_s,gbytes_per_s,copy_bytes,copy_seconds,copy_gbytes_per_s,"
    "copy_gpoints_per_s,ratio_percent";

static void print_csv(const bench_result *r)
{
    printf("%s\n", csv_header);
    cli_csv_field(stdout, r->stencil);
    printf(",%s,%s,%zu,%zu,%s,%s,%zu,", r->size, r->dtype, r->steps, r->reps,
           r->plan.schedule_name, r->local, r->per_item);
    cli_csv_field(stdout, r->device);
    printf(",%g,%.9g,%.6g,%.6g,%.0f,%.9g,%.6g,%.6g,%.2f\n", r->bytes_per_point, r->step_s,
           r->step_gpts, r->step_gbs, r->copy_bytes, r->copy_s, r->copy_gbs, r->copy_gpts,
           r->ratio);
}

static void print_json(const bench_result *r, const cls_device_info *dev, const cli_workload *w)
{
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "stencil", r->stencil);
    cli_json_size_array(&j, "size", w->size.n, w->dims);
    cli_json_str(&j, "dtype", r->dtype);
    cli_json_uint(&j, "steps", r->steps);
    cli_json_uint(&j, "reps", r->reps);
    cli_json_object(&j, "device");
    cli_json_str(&j, "name", dev->name);
    cli_json_str(&j, "platform", dev->platform_name);
    cli_json_str(&j, "type", cli_device_type_name(dev->type));
    cli_json_close(&j);
    cli_plan_json(&j, r->p, &r->plan, w->dims);
    cli_json_num(&j, "bytes_per_point", r->bytes_per_point);
    cli_json_uint(&j, "fields", r->fields);
    cli_json_object(&j, "stencil_result");
    cli_json_num(&j, "seconds_per_step", r->step_s);
    cli_json_num(&j, "gpoints_per_s", r->step_gpts);
    cli_json_num(&j, "gbytes_per_s", r->step_gbs);
    cli_json_num(&j, "seconds_per_run", r->total_s);
    cli_json_close(&j);
    cli_json_object(&j, "copy");
    cli_json_num(&j, "bytes", r->copy_bytes);
    cli_json_uint(&j, "launches", r->copy_launches);
    cli_json_num(&j, "seconds", r->copy_s);
    cli_json_num(&j, "gbytes_per_s", r->copy_gbs);
    cli_json_num(&j, "gpoints_per_s", r->copy_gpts);
    cli_json_close(&j);
    cli_json_num(&j, "ratio_percent", r->ratio);
    cli_json_end(&j);
}

static int bench_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_settings set = {0};
    cli_format format = CLI_FORMAT_TEXT;
    cli_plan_opts popt;
    const char *stencil_arg = NULL, *device = NULL, *v;
    cls_dims size = {{1, 1, 1}};
    int size_dims = 0, id, ret = CLI_EXIT_FAIL, rc;
    size_t steps = DEFAULT_STEPS, reps = DEFAULT_REPS;
    cli_workload w = {0};
    cls_context *ctx = NULL;
    cls_plan *plan = NULL;
    cls_device_info dev;
    double *step_times = NULL, *run_times = NULL;

    if (argc > 1 && strcmp(argv[1], "transit") == 0)
        return cli_cmd_bench_transit.main(&cli_cmd_bench_transit, argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "suite") == 0)
        return cli_cmd_bench_suite.main(&cli_cmd_bench_suite, argc - 1, argv + 1);
    cli_plan_opts_init(&popt);
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); ret = CLI_EXIT_OK; goto done;
        case CLI_OPT_ERROR: ret = CLI_EXIT_USAGE; goto done;
        case CLI_OPT_POSITIONAL:
            if (stencil_arg) {
                ret = cli_usage_error(self, "unexpected argument '%s'", v);
                goto done;
            }
            stencil_arg = v;
            break;
        case OPT_SIZE:
            if (cli_size_option(self, v, &size, &size_dims) != CLI_EXIT_OK) {
                ret = CLI_EXIT_USAGE;
                goto done;
            }
            break;
        case OPT_STEPS:
        case OPT_REPS:
            if (cli_parse_count(v, id == OPT_STEPS ? &steps : &reps) != 0) {
                ret = cli_usage_error(self, "invalid %s '%s': expected a whole number >= 1",
                                      p.opt_name, v);
                goto done;
            }
            break;
        case OPT_PARAM:
            if ((ret = cli_param_option(self, v, &set, &popt)) != CLI_EXIT_OK) goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_DTYPE: case OPT_BOUNDARY:
            if ((ret = cli_settings_option(&set, self, p.opt_name + 2, v)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_SCHEDULE:
        case OPT_HEIGHT:
        case OPT_SYNC:
        case OPT_PER_ITEM:
        case OPT_LOCAL_SIZE:
        case OPT_MAX_REGISTERS:
            if ((ret = cli_parse_plan_option(self, p.opt_name + 2, v, &popt)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_DEVICE: device = v; break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_CSV | CLI_FORMAT_JSON,
                                 &format) != 0) {
                ret = cli_usage_error(self, "unknown --format '%s' (text, csv or json)", v);
                goto done;
            }
            break;
        }
    }
    if (!stencil_arg) {
        ret = cli_usage_error(self, "no stencil given (a built-in name or a JSON spec file)");
        goto done;
    }
    if (reps > 100000) {
        ret = cli_usage_error(self, "--reps %zu is more than 100000", reps);
        goto done;
    }

    if (cli_load_stencil(stencil_arg, &w.st) != CLS_SUCCESS) goto done;
    /* Device-resident steps: the time per step is the schedule's kernels, so the host pipeline
     * (tiles re-sent every sweep, the one-point tile kernel) stays off. */
    popt.pipeline = "off";
    if ((ret = cli_plan_finish(self, &popt)) != CLI_EXIT_OK) goto done;
    ret = CLI_EXIT_FAIL;
    if (cli_settings_apply(&set, w.st) != CLS_SUCCESS) goto done;
    int dims = cls_stencil_dims(w.st);
    if (!size_dims) {
        size = cli_default_size(dims);
    } else if (size_dims != dims) {
        char a[96];
        cli_format_size(a, sizeof a, size, size_dims);
        cli_failf(CLS_ERR_INVALID_SIZE, "--size %s has %d dimension%s but stencil '%s' is %dD",
                  a, size_dims, size_dims == 1 ? "" : "s", cls_stencil_name(w.st), dims);
        goto done;
    }
    w.size = size;
    w.steps = steps;

    if (cli_open_context(device, &ctx, &dev) != CLS_SUCCESS) goto done;
    if (cli_workload_fill(&w) != CLS_SUCCESS) goto done;
    /* On GPUs AUTO is timed as it plans once the stencil's profile is cached: a run predicted
     * shorter than the tuner's threshold would otherwise stay naive without a look (the
     * profile costs about a second, once per stencil and device; CPUs stay naive anyway). */
    if (popt.opt.schedule == CLS_SCHEDULE_AUTO && dev.type == CLS_DEVICE_GPU) {
        cls_ghost_profile prof;
        (void)cls_ghost_profile_get(ctx, w.st, &prof, NULL); /* failing: AUTO says why */
    }
    if ((rc = cls_plan_create(ctx, w.st, w.size, w.steps, &popt.opt, &plan)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    bench_result r;
    memset(&r, 0, sizeof r);
    if ((rc = cls_plan_describe(plan, &r.plan)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    r.p = plan;
    r.per_item = cli_plan_points_per_item(plan);

    step_times = calloc(reps, sizeof *step_times);
    run_times = calloc(reps, sizeof *run_times);
    if (!step_times || !run_times) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "timing table");
        goto done;
    }
    /* One untimed run first: the first launch pays for lazy allocation and JIT on some
     * drivers. The input stays unchanged (output is a separate buffer), so every run does the
     * same work. */
    cls_report rep;
    for (size_t i = 0; i <= reps; i++) {
        rc = cli_workload_run(plan, &w, &rep);
        if (rc != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        if (i > 0) {
            step_times[i - 1] = rep.seconds_per_step;
            run_times[i - 1] = rep.seconds_total;
        }
    }

    cls_dtype dt = cls_stencil_dtype(w.st);
    size_t es = cls_dtype_size(dt);
    r.stencil = cls_stencil_name(w.st);
    cli_format_size(r.size, sizeof r.size, w.size, dims);
    r.dtype = dt == CLS_FLOAT64 ? "double" : "float";
    r.steps = w.steps;
    r.reps = reps;
    r.fields = cls_stencil_num_fields(w.st);
    cls_dims ls = {{r.plan.local_size[0], r.plan.local_size[1], r.plan.local_size[2]}};
    cli_format_size(r.local, sizeof r.local, ls, dims);
    cls_dims ts;
    cli_plan_size_param(plan, "trapezoid.tile", &ts);
    cli_format_size(r.tile, sizeof r.tile, ts, dims);
    r.device = dev.name;
    r.bytes_per_point = cls_stencil_min_bytes_per_point(w.st);
    r.step_s = cli_median(step_times, reps);
    r.total_s = cli_median(run_times, reps);
    r.step_gpts = r.step_s > 0 ? (double)w.points / r.step_s / 1e9 : 0.0;
    r.step_gbs = cli_effective_gbs(&w, r.step_s);

    /* The yardstick: a copy of one state array, read once and written once, timed over as
     * many launches as the stencil's timed steps so that both medians are equally steady. */
    r.copy_bytes = (double)w.points * (double)es;
    size_t launches = steps > MAX_COPY_LAUNCHES / reps ? MAX_COPY_LAUNCHES : steps * reps;
    if (launches < reps) launches = reps;
    r.copy_launches = launches;
    if ((rc = cls_bench_copy(ctx, dt, w.points * es, (size_t)launches, &r.copy_s)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    r.copy_gbs = r.copy_s > 0 ? 2.0 * r.copy_bytes / r.copy_s / 1e9 : 0.0;
    r.copy_gpts = r.bytes_per_point > 0 ? r.copy_gbs / r.bytes_per_point : 0.0;
    r.ratio = r.copy_gbs > 0 ? 100.0 * r.step_gbs / r.copy_gbs : 0.0;

    if (format == CLI_FORMAT_JSON)
        print_json(&r, &dev, &w);
    else if (format == CLI_FORMAT_CSV)
        print_csv(&r);
    else
        print_text(&r);
    ret = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;

done:
    free(step_times);
    free(run_times);
    cls_plan_release(plan);
    cli_plan_opts_free(&popt);
    cls_context_release(ctx);
    cli_workload_free(&w);
    cli_settings_free(&set);
    return ret;
}

const cli_command cli_cmd_bench = {
    "bench",
    "measure a stencil's throughput against a vectorised copy kernel",
    "usage: clstencil bench STENCIL [--size NXxNYxNZ] [--steps N] [--dtype float|double]\n"
    "           [--boundary B] [--param NAME=VALUE]... [--reps R]\n"
    "           [--schedule auto|naive|trapezoid|stream25d|cputile] [--height H]\n"
    "           [--sync restart|barrier] [--max-registers R]\n"
    "           [--local-size LXxLYxLZ] [--points-per-item N] [--device SEL] [--format text|csv|json]\n"
    "       clstencil bench transit [STENCIL...] [options]   (see clstencil bench transit --help)\n"
    "       clstencil bench suite [options]   (every built-in; see clstencil bench suite --help)",
    "Runs the plan for STENCIL (no verification) once untimed and then R times, and prints the\n"
    "median time per step (device time of the kernels), GPoints/s and the effective GB/s at\n"
    "the minimal traffic (the state read and written once and each auxiliary array read once\n"
    "per point; for a system of fields, such as wave3d or gray_scott, every stage reads each\n"
    "field it uses once and writes each field it updates once).  STENCIL is a built-in\n"
    "stencil or system, or a JSON spec (as for clstencil run); the fields start as clstencil\n"
    "run starts them.  It then times a copy kernel (a 16-byte vector per work-item, what the\n"
    "device's memory sustains) over the same number of bytes (points x element size),\n"
    "launched as often as the timed steps (STEPS x R, at most 1000), and\n"
    "prints its median time, its GB/s counted as read + write, the GPoints/s it would allow\n"
    "at the stencil's bytes per point, and the ratio of the stencil's GB/s to the copy's in\n"
    "percent.  Steps are measured device-resident: one upload before and one download after\n"
    "the timed kernels, never the host pipeline of clstencil run.\n"
    "\n"
    "Options:\n"
    "  --size NXxNYxNZ     grid size (default 1048576, 1024x1024 or 128x128x128)\n"
    "  --steps N           time steps per run (default 20)\n"
    "  --dtype T           float or double\n"
    "  --boundary B        clamp, constant[=V], periodic or mirror\n"
    "  --param NAME=VALUE  set a declared scalar parameter (repeatable)\n"
    "  --reps R            timed runs of the plan (default 5)\n"
    "  --schedule S        auto (default: the schedule the ghost-zone model predicts faster),\n"
    "                      naive, trapezoid, stream25d (3D, and 2D streamed along y) or\n"
    "                      cputile (CPU tiles kept in cache across steps)\n"
    "  --height H          trapezoid: steps per stage (default: the model's optimum)\n"
    "  --sync M            trapezoid: restart or barrier (default: the model's choice)\n"
    "  --local-size L      work-group size, one part per dimension (trapezoid: the tile;\n"
    "                      default: the planner's)\n"
    "  --points-per-item N points per work-item along the slowest axis (naive and trapezoid)\n"
    "  --max-registers R   registers per work-item NVIDIA's compiler may use (16..255;\n"
    "                      default: no cap; other devices build without it)\n"
    "  --device SEL        device selector (overrides CLSTENCIL_DEVICE)\n"
    "  --format F          text (default), csv (a header and one row) or json\n"
    "  -h, --help          show this help\n",
    bench_main,
};
