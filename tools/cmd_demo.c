/* cmd_demo.c: `clstencil demo`, the README's main job: hotspot tuned, run and verified. */
#include <string.h>

#include "cli.h"

/* Full size for the timing; the host reference is single-threaded, so the check uses a grid
 * small enough to finish in well under a second. */
#define VERIFY_N 256
#define VERIFY_STEPS 20

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

/* Plans and runs w on ctx with the given options; the plan is the caller's (*out) on success. */
static int plan_and_run(cls_context *ctx, cli_workload *w, const cls_plan_options *popt,
                        cls_plan **out, cls_plan_info *pi, cls_report *rep, int show_progress)
{
    cls_plan *plan = NULL;
    int rc = cls_plan_create(ctx, w->st, w->size, w->steps, popt, &plan);
    if (rc == CLS_SUCCESS) rc = cls_plan_describe(plan, pi);
    if (rc == CLS_SUCCESS) {
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

static int demo_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_format format = CLI_FORMAT_TEXT;
    const char *device = NULL, *v;
    int id, ret = CLI_EXIT_FAIL;
    cli_workload big = {0}, small = {0};
    cls_context *ctx = NULL;
    cls_plan *plan = NULL, *vplan = NULL;
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

    if (cli_open_context(device, &ctx, &dev) != CLS_SUCCESS) return CLI_EXIT_FAIL;
    int gpu_sized = dev.type == CLS_DEVICE_GPU || dev.type == CLS_DEVICE_ACCELERATOR;
    size_t n = gpu_sized ? 2048 : 512;
    cls_plan_options popt;
    cls_plan_options_init(&popt);

    /* The timed run at full size. */
    if (load_hotspot(&big.st) != CLS_SUCCESS) goto done;
    big.size = (cls_dims){{n, n, 1}};
    big.steps = gpu_sized ? 200 : 100;
    if (cli_workload_fill(&big) != CLS_SUCCESS) goto done;
    cls_plan_info pi, vpi;
    cls_report rep, vrep;
    if (plan_and_run(ctx, &big, &popt, &plan, &pi, &rep, 1) != CLS_SUCCESS) goto done;

    /* The same plan settings on a grid the host reference can afford. */
    if (load_hotspot(&small.st) != CLS_SUCCESS) goto done;
    small.size = (cls_dims){{VERIFY_N, VERIFY_N, 1}};
    small.steps = VERIFY_STEPS;
    if (cli_workload_fill(&small) != CLS_SUCCESS) goto done;
    if (plan_and_run(ctx, &small, &popt, &vplan, &vpi, &vrep, 0) != CLS_SUCCESS) goto done;
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
        cli_json_size_array(&j, "verify_size", small.size.n, 2);
        cli_json_uint(&j, "verify_steps", small.steps);
        cli_verify_json(&j, &small, &ver);
        cli_json_end(&j);
    } else {
        printf("demo: %s\n", summary ? summary : "hotspot");
        printf("device: %s (%s, %s)\n", dev.name, dev.platform_name,
               cli_device_type_name(dev.type));
        printf("stencil: %s\n", stext);
        printf("grid: %s, %zu steps\n", sz, big.steps);
        cli_plan_text(stdout, plan, &pi, 2);
        cli_report_text(stdout, &big, &rep);
        printf("verify: %s on %s, %zu steps against the host reference\n", vt, vsz, small.steps);
    }
    ret = ver.ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    if (fflush(stdout) != 0) ret = CLI_EXIT_FAIL;

done:
    cls_plan_release(plan);
    cls_plan_release(vplan);
    cli_workload_free(&big);
    cli_workload_free(&small);
    cls_context_release(ctx);
    return ret;
}

const cli_command cli_cmd_demo = {
    "demo",
    "run the built-in hotspot stencil tuned for the default device and verify it",
    "usage: clstencil demo [--device SEL] [--format text|json]",
    "Runs the built-in 'hotspot' stencil (Rodinia's thermal simulation) with the automatic\n"
    "schedule on the default device: 2048x2048 for 200 steps on a GPU, 512x512 for 100 steps\n"
    "on a CPU.  It prints the device, the configuration the planner chose and GPoints/s, then\n"
    "runs the same plan settings on a 256x256 grid for 20 steps and compares the result with\n"
    "the host reference (the full-size reference would take too long).  The exit status is 0\n"
    "only when that comparison passes.\n"
    "\n"
    "Options:\n"
    "  --device SEL    device selector (overrides CLSTENCIL_DEVICE)\n"
    "  --format F      text (default) or json\n"
    "  -h, --help      show this help\n",
    demo_main,
};
