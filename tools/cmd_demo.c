/* cmd_demo.c: `clstencil demo`, the README's main job: hotspot sized for the device, tuned,
 * run beside the naive schedule, and verified. */
#include <math.h>
#include <string.h>

#include "cli.h"

/* Full size for the timing; the host reference is single-threaded, so the check uses a grid
 * small enough to finish in well under a second. */
#define VERIFY_N 256
#define VERIFY_STEPS 20

/* The naive run the demo sizes itself for, in predicted seconds.  The planner measures what
 * its models lack (a stencil's ghost-zone profile) only for runs predicted to take at least
 * 0.05 s; a run several times that long lets it tune, and still takes a second or two. */
#define TARGET_SECONDS 0.3
/* Grid sides it may grow to (the host holds three arrays of n^2 floats, plus the output), and
 * the most steps. */
#define MAX_N_GPU 8192
#define MAX_N_CPU 1024
#define MAX_STEPS 20000

enum { OPT_DEVICE = 1, OPT_FORMAT };

static const cli_option options[] = {
    {"device", 1, OPT_DEVICE},
    {"format", 1, OPT_FORMAT},
    {NULL, 0, 0},
};

/* Loads hotspot by name (never a file that happens to be called "hotspot"). */
static int load_hotspot(cls_stencil **st)
{
    int rc = cls_stencil_builtin("hotspot", st);
    if (rc == CLS_SUCCESS) rc = cls_stencil_validate(*st);
    if (rc != CLS_SUCCESS) cli_fail(rc);
    return rc;
}

/* Plans w on ctx and, unless plan_only, runs it; the plan is the caller's (*out) on success. */
static int plan_and_run(cls_context *ctx, cli_workload *w, const cls_plan_options *popt,
                        cls_plan **out, cls_plan_info *pi, cls_report *rep, int show_progress,
                        int plan_only)
{
    cls_plan *plan = NULL;
    int rc = cls_plan_create(ctx, w->st, w->size, w->steps, popt, &plan);
    if (rc == CLS_SUCCESS) rc = cls_plan_describe(plan, pi);
    if (rc == CLS_SUCCESS && !plan_only) {
        cli_progress prog;
        if (show_progress) cli_progress_attach(&prog, plan, "hotspot");
        rc = cls_plan_run(plan, w->input, (const void *const *)w->aux, w->output, rep);
        if (show_progress) cli_progress_detach(&prog);
    }
    if (rc != CLS_SUCCESS) {
        if (cli_interrupted())
            fprintf(stderr, "clstencil: interrupted\n");
        else
            cli_fail(rc);
        cls_plan_release(plan);
        return rc;
    }
    *out = plan;
    return rc;
}

/* The grid side and steps of the timed run: the naive schedule's prediction for the starting
 * size (large enough that launches do not dominate it), scaled by points x steps, reaches TARGET_SECONDS by a larger grid first (up to max_n), then
 * more steps.  A device whose model predicts nothing keeps the starting size. */
static int size_for_device(cls_context *ctx, size_t n0, size_t steps0, size_t max_n, size_t *n,
                           size_t *steps)
{
    cli_workload probe = {0};
    cls_plan *plan = NULL;
    cls_plan_info pi;
    cls_plan_options popt;
    cls_plan_options_init(&popt);
    popt.schedule = CLS_SCHEDULE_NAIVE;
    *n = n0;
    *steps = steps0;
    int rc = load_hotspot(&probe.st);
    if (rc != CLS_SUCCESS) return rc;
    probe.size = (cls_dims){{n0, n0, 1}};
    probe.steps = steps0;
    rc = plan_and_run(ctx, &probe, &popt, &plan, &pi, NULL, 0, 1);
    cls_plan_release(plan);
    cli_workload_free(&probe);
    if (rc != CLS_SUCCESS) return rc;
    if (!(pi.predicted_seconds > 0)) return CLS_SUCCESS;
    double per = pi.predicted_seconds / ((double)n0 * (double)n0 * (double)steps0);
    while (per * (double)*n * (double)*n * (double)*steps < TARGET_SECONDS && *n * 2 <= max_n)
        *n *= 2;
    double want = ceil(TARGET_SECONDS / (per * (double)*n * (double)*n));
    if (want > (double)*steps) *steps = want > MAX_STEPS ? MAX_STEPS : (size_t)want;
    return CLS_SUCCESS;
}

static void naive_text(const cls_report *tuned, const cls_report *naive, int same)
{
    if (same) {
        printf("naive: the tuned plan is the naive schedule (speed-up 1)\n");
        return;
    }
    char t[32], pred[32] = "";
    cli_format_seconds(t, sizeof t, naive->seconds_per_step);
    if (naive->predicted_seconds > 0)
        cli_format_seconds(pred, sizeof pred, naive->predicted_seconds / (double)naive->steps);
    printf("naive: time/step %s, GPoints/s %.3f%s%s%s\n", t, naive->gpoints_per_s,
           pred[0] ? " (predicted " : "", pred, pred[0] ? ")" : "");
    printf("speed-up over naive: %.2f", naive->seconds_kernels / tuned->seconds_kernels);
    if (naive->predicted_seconds > 0 && tuned->predicted_seconds > 0)
        printf(" (the model predicted %.2f)", naive->predicted_seconds / tuned->predicted_seconds);
    printf("\n");
}

static void naive_json(cli_json *j, const cls_report *tuned, const cls_report *naive, int same)
{
    cli_json_object(j, "naive");
    cli_json_bool(j, "same_plan", same != 0);
    cli_json_num(j, "seconds_per_step", naive->seconds_per_step);
    cli_json_num(j, "gpoints_per_s", naive->gpoints_per_s);
    if (naive->predicted_seconds > 0)
        cli_json_num(j, "predicted_seconds", naive->predicted_seconds);
    cli_json_num(j, "speedup", naive->seconds_kernels / tuned->seconds_kernels);
    if (naive->predicted_seconds > 0 && tuned->predicted_seconds > 0)
        cli_json_num(j, "predicted_speedup", naive->predicted_seconds / tuned->predicted_seconds);
    cli_json_close(j);
}

static int demo_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_format format = CLI_FORMAT_TEXT;
    const char *device = NULL, *v;
    int id, ret = CLI_EXIT_FAIL;
    cli_workload big = {0}, small = {0};
    cls_context *ctx = NULL;
    cls_plan *plan = NULL, *nplan = NULL, *vplan = NULL;
    cls_device_info dev;

    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL: return cli_usage_error(self, "unexpected argument '%s'", v);
        case OPT_DEVICE: device = v; break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON, &format) != 0)
                return cli_usage_error(self, "unknown --format '%s' (text or json)", v);
            break;
        }
    }

    /* The results name the device: no stderr line besides. */
    if (cli_open_device(device, &ctx, &dev) != CLS_SUCCESS) return CLI_EXIT_FAIL;
    int gpu_sized = dev.type == CLS_DEVICE_GPU || dev.type == CLS_DEVICE_ACCELERATOR;
    size_t n, steps;
    if (size_for_device(ctx, gpu_sized ? 2048 : 512, gpu_sized ? 200 : 100,
                        gpu_sized ? MAX_N_GPU : MAX_N_CPU, &n, &steps) != CLS_SUCCESS)
        goto done;
    cls_plan_options popt, nopt;
    cls_plan_options_init(&popt);
    cls_plan_options_init(&nopt);
    nopt.schedule = CLS_SCHEDULE_NAIVE;

    /* The tuned run at full size, then the naive schedule on the same grid. */
    if (load_hotspot(&big.st) != CLS_SUCCESS) goto done;
    big.size = (cls_dims){{n, n, 1}};
    big.steps = steps;
    if (cli_workload_fill(&big) != CLS_SUCCESS) goto done;
    cls_plan_info pi, npi, vpi;
    cls_report rep, nrep, vrep;
    if (plan_and_run(ctx, &big, &popt, &plan, &pi, &rep, 1, 0) != CLS_SUCCESS) goto done;
    int same = pi.schedule == CLS_SCHEDULE_NAIVE && pi.host_schedule == CLS_SCHEDULE_AUTO;
    if (same)
        nrep = rep;
    else if (plan_and_run(ctx, &big, &nopt, &nplan, &npi, &nrep, 1, 0) != CLS_SUCCESS)
        goto done;

    /* The tuned plan's settings on a grid the host reference can afford. */
    if (load_hotspot(&small.st) != CLS_SUCCESS) goto done;
    small.size = (cls_dims){{VERIFY_N, VERIFY_N, 1}};
    small.steps = VERIFY_STEPS;
    if (cli_workload_fill(&small) != CLS_SUCCESS) goto done;
    if (plan_and_run(ctx, &small, &popt, &vplan, &vpi, &vrep, 0, 0) != CLS_SUCCESS) goto done;
    cli_verify ver;
    if (cli_verify_run(&small, &ver) != CLS_SUCCESS) goto done;

    char stext[256], sz[64], vsz[64], vt[512];
    cli_stencil_text(stext, sizeof stext, big.st);
    cli_format_size(sz, sizeof sz, big.size, 2);
    cli_format_size(vsz, sizeof vsz, small.size, 2);
    cli_verify_text(&small, &ver, vt, sizeof vt);
    const char *summary = cls_stencil_builtin_summary("hotspot");
    if (format == CLI_FORMAT_JSON) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_object(&j, "device");
        cli_json_str(&j, "name", dev.name);
        cli_json_str(&j, "platform", dev.platform_name);
        cli_json_str(&j, "type", cli_device_type_name(dev.type));
        cli_json_close(&j);
        cli_json_str(&j, "stencil", "hotspot");
        cli_json_size_array(&j, "size", big.size.n, 2);
        cli_json_uint(&j, "steps", big.steps);
        cli_plan_json(&j, plan, &pi, 2);
        cli_report_json(&j, &big, &rep);
        naive_json(&j, &rep, &nrep, same);
        cli_json_size_array(&j, "verify_size", small.size.n, 2);
        cli_json_uint(&j, "verify_steps", small.steps);
        cli_verify_json(&j, &small, &ver);
        cli_json_end(&j);
    } else {
        printf("demo: %s\n", summary ? summary : "hotspot");
        printf("device: %s (%s, %s)\n", dev.name, dev.platform_name,
               cli_device_type_name(dev.type));
        printf("stencil: %s\n", stext);
        printf("grid: %s, %zu steps (sized for this device: long enough for the planner to tune)\n",
               sz, big.steps);
        cli_plan_text(stdout, plan, &pi, 2);
        cli_report_text(stdout, &big, &rep);
        naive_text(&rep, &nrep, same);
        printf("verify: %s on %s, %zu steps against the host reference\n", vt, vsz, small.steps);
    }
    ret = ver.ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    if (fflush(stdout) != 0) ret = CLI_EXIT_FAIL;

done:
    cls_plan_release(plan);
    cls_plan_release(nplan);
    cls_plan_release(vplan);
    cli_workload_free(&big);
    cli_workload_free(&small);
    cls_context_release(ctx);
    return ret;
}

const cli_command cli_cmd_demo = {
    "demo",
    "run the built-in hotspot stencil tuned for the default device beside naive, and verify it",
    "usage: clstencil demo [--device SEL] [--format text|json]",
    "Runs the built-in 'hotspot' stencil (Rodinia's thermal simulation) on the default device\n"
    "with the automatic schedule, on a grid sized for the device: from 2048x2048 and 200 steps\n"
    "on a GPU (512x512 and 100 steps on a CPU), grown until the naive schedule is predicted to\n"
    "take about 0.3 s, long enough for the planner to measure what its models need and tune.\n"
    "It prints the device, the configuration the planner chose with its predictions and why,\n"
    "the measured time per step and GPoints/s, then the naive schedule's on the same grid and\n"
    "the speed-up over it beside the model's predicted one.  Finally it runs the tuned plan's\n"
    "settings on a 256x256 grid for 20 steps and compares the result with the host reference\n"
    "(the full-size reference would take too long).  The exit status is 0 only when that\n"
    "comparison passes.  On a terminal, a progress line shows on stderr during the long runs.\n"
    "\n"
    "Options:\n"
    "  --device SEL    device selector (overrides CLSTENCIL_DEVICE)\n"
    "  --format F      text (default) or json\n"
    "  -h, --help      show this help\n",
    demo_main,
};
