/* cmd_probe.c: `clstencil probe`, measures the device into a model file (cls_probe_device). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clstencil_model.h"

enum { OPT_OUTPUT = 1, OPT_QUICK, OPT_DEVICE, OPT_FORMAT };

static const cli_option options[] = {
    {"output", 1, OPT_OUTPUT}, {"quick", 0, OPT_QUICK}, {"device", 1, OPT_DEVICE},
    {"format", 1, OPT_FORMAT}, {NULL, 0, 0},
};

/* One finished measurement, copied out of the callback. */
typedef struct stat_row {
    char key[64], label[64], unit[16], note[128];
    double bytes, median, spread;
    size_t reps;
} stat_row;

typedef struct probe_ui {
    stat_row *rows;
    size_t n, cap;
    size_t done, total;
    int tty;        /* stderr is a terminal: redraw a status line */
    int status_shown;
    int oom;
} probe_ui;

/* "13.8 ns", "3.18 us", "1.698 ms", "1.234 s" */
static void format_ns(char *buf, size_t len, double ns)
{
    if (ns < 1e3)
        snprintf(buf, len, "%.1f ns", ns);
    else if (ns < 1e6)
        snprintf(buf, len, "%.2f us", ns / 1e3);
    else if (ns < 1e9)
        snprintf(buf, len, "%.3f ms", ns / 1e6);
    else
        snprintf(buf, len, "%.3f s", ns / 1e9);
}

/* The value with its unit, as the text output shows it. */
static void format_value(char *buf, size_t len, const stat_row *r)
{
    if (r->note[0])
        snprintf(buf, len, "skipped");
    else if (strcmp(r->unit, "ns") == 0)
        format_ns(buf, len, r->median);
    else if (strcmp(r->unit, "count") == 0)
        snprintf(buf, len, "%.0f", r->median);
    else
        snprintf(buf, len, "%.4g %s", r->median, r->unit);
}

static void clear_status(probe_ui *ui)
{
    if (ui->status_shown) {
        fputs("\r\033[K", stderr);
        ui->status_shown = 0;
    }
}

static int on_progress(const char *what, size_t done, size_t total, void *user)
{
    probe_ui *ui = user;
    ui->done = done;
    ui->total = total;
    if (cli_interrupted()) return 1;
    if (ui->tty && strcmp(what, "done") != 0) {
        fprintf(stderr, "\r\033[Kprobe [%zu/%zu] %s ...", done + 1, total, what);
        fflush(stderr);
        ui->status_shown = 1;
    }
    return 0;
}

static void on_result(const cls_probe_stat *s, void *user)
{
    probe_ui *ui = user;
    stat_row *r;
    char value[64];
    if (ui->n == ui->cap) {
        size_t cap = ui->cap ? 2 * ui->cap : 64;
        stat_row *nr = realloc(ui->rows, cap * sizeof *nr);
        if (!nr) {
            ui->oom = 1;
            return;
        }
        ui->rows = nr;
        ui->cap = cap;
    }
    r = &ui->rows[ui->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", s->key ? s->key : "");
    snprintf(r->label, sizeof r->label, "%s", s->label ? s->label : "");
    snprintf(r->unit, sizeof r->unit, "%s", s->unit ? s->unit : "");
    snprintf(r->note, sizeof r->note, "%s", s->note ? s->note : "");
    r->bytes = s->bytes;
    r->median = s->median;
    r->spread = s->spread;
    r->reps = s->reps;
    /* Progress: one line per finished measurement, on stderr. */
    clear_status(ui);
    format_value(value, sizeof value, r);
    if (r->note[0])
        fprintf(stderr, "probe: %s %s: skipped (%s)\n", r->key, r->label, r->note);
    else
        fprintf(stderr, "probe: %s %s: %s (spread %.1f %%, %zu %s)\n", r->key, r->label, value,
                100.0 * r->spread, r->reps, strstr(r->label, "fit") ? "points" : "reps");
    fflush(stderr);
}

/* The model parameters a probe measures, in the order the text output lists them. */
static const char *const measured_keys[] = {
    "memory.bandwidth_measured_gbs", "memory.bandwidth_ghost_gbs", "sync.kernel_restart_cycles",
    "sync.queue_wait_cycles",        "sync.enqueue_cycles",     "sync.enqueue_plain_cycles",
    "sync.flush_cycles",
    "sync.barrier_cycles_per_group", "local_memory.banks",
    "transfer.copy_engines",         "transfer.overlap_factor",
};

static void print_text(const probe_ui *ui, const cls_device_info *dev, const cls_model *m,
                       int quick, double seconds, const char *cache, const char *output)
{
    size_t wk = strlen("MEASUREMENT"), wl = strlen("WHAT");
    printf("device: %s (%s, driver %s)\n", dev->name, dev->platform_name, dev->driver_version);
    printf("probe: %s mode, %zu measurements in %.1f s\n", quick ? "quick" : "full", ui->n,
           seconds);
    for (size_t i = 0; i < ui->n; i++) {
        if (strlen(ui->rows[i].key) > wk) wk = strlen(ui->rows[i].key);
        if (strlen(ui->rows[i].label) > wl) wl = strlen(ui->rows[i].label);
    }
    printf("\n%-*s  %-*s  %14s  %8s  %5s\n", (int)wk, "MEASUREMENT", (int)wl, "WHAT", "MEDIAN",
           "SPREAD", "REPS");
    for (size_t i = 0; i < ui->n; i++) {
        const stat_row *r = &ui->rows[i];
        char value[64], spread[32];
        format_value(value, sizeof value, r);
        snprintf(spread, sizeof spread, "%.1f %%", 100.0 * r->spread);
        printf("%-*s  %-*s  %14s  %8s  %5zu%s%s\n", (int)wk, r->key, (int)wl, r->label, value,
               r->note[0] ? "" : spread, r->reps, r->note[0] ? "  " : "", r->note);
    }
    printf("\nmodel \"%s\" (family %s):\n", cls_model_name(m), cls_model_family(m));
    for (size_t i = 0; i < sizeof measured_keys / sizeof measured_keys[0]; i++) {
        double v = 0;
        cls_model_get(m, measured_keys[i], &v);
        printf("  %-32s %12.6g %-8s%s\n", measured_keys[i], v,
               cls_model_param_unit(measured_keys[i]),
               cls_model_is_assumed(m, measured_keys[i]) ? " (assumed: not measurable here)"
                                                          : "");
    }
    {
        int filled = 0;
        for (int t = 0; t < CLS_TABLE_COUNT; t++) {
            const cls_model_point *pts;
            size_t n = 0;
            if (cls_model_get_table(m, (cls_model_table)t, &pts, &n) == CLS_SUCCESS && n > 0)
                filled++;
        }
        printf("  transfer and allocation tables: %d of %d measured (`clstencil model --device "
               "FILE` prints them)\n",
               filled, (int)CLS_TABLE_COUNT);
    }
    printf("cache: %s\n", cache[0] ? cache : "not written");
    if (output) printf("output: %s\n", output);
}

static void print_json(const probe_ui *ui, const cls_device_info *dev, const cls_model *m,
                       int quick, double seconds, const char *cache, const char *output)
{
    cli_json j;
    char *model = NULL;
    cli_json_begin(&j, stdout);
    cli_json_object(&j, "device");
    cli_json_str(&j, "name", dev->name);
    cli_json_str(&j, "platform", dev->platform_name);
    cli_json_str(&j, "driver_version", dev->driver_version);
    cli_json_str(&j, "type", cli_device_type_name(dev->type));
    cli_json_close(&j);
    cli_json_str(&j, "mode", quick ? "quick" : "full");
    cli_json_num(&j, "seconds", seconds);
    cli_json_str(&j, "cache_file", cache[0] ? cache : NULL);
    cli_json_str(&j, "output_file", output);
    cli_json_array(&j, "measurements");
    for (size_t i = 0; i < ui->n; i++) {
        const stat_row *r = &ui->rows[i];
        cli_json_object(&j, NULL);
        cli_json_str(&j, "key", r->key);
        cli_json_str(&j, "label", r->label);
        if (r->note[0]) {
            cli_json_str(&j, "skipped", r->note);
        } else {
            cli_json_str(&j, "unit", r->unit);
            if (r->bytes > 0) cli_json_num(&j, "bytes", r->bytes);
            cli_json_num(&j, "median", r->median);
            cli_json_num(&j, "spread", r->spread);
            cli_json_uint(&j, "reps", r->reps);
        }
        cli_json_close(&j);
    }
    cli_json_close(&j);
    /* The model as its own schema writes it (the file --output holds), as the last member:
     * the writer's top-level object is closed by hand after it. */
    if (cls_model_to_json(m, &model) == CLS_SUCCESS) {
        size_t len = strlen(model);
        while (len > 0 && model[len - 1] == '\n') model[--len] = '\0';
        fputs(",\n  \"model\": ", stdout);
        for (const char *c = model; *c; c++) {
            fputc(*c, stdout);
            if (*c == '\n') fputs("  ", stdout);
        }
        fputs("\n}\n", stdout);
    } else {
        cli_json_end(&j);
    }
    cls_free(model);
}

static int probe_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_format format = CLI_FORMAT_TEXT;
    const char *device = NULL, *output = NULL, *v;
    int id, quick = 0, ret = CLI_EXIT_FAIL, st;
    cls_context *ctx = NULL;
    cls_device_info dev;
    cls_model *m = NULL;
    cls_probe_options opt;
    probe_ui ui;
    char cache[4096] = "";
    double t0;

    memset(&ui, 0, sizeof ui);
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL: return cli_usage_error(self, "unexpected argument '%s'", v);
        case OPT_OUTPUT:
            if (!v[0]) return cli_usage_error(self, "--output needs a file name");
            output = v;
            break;
        case OPT_QUICK: quick = 1; break;
        case OPT_DEVICE: device = v; break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON, &format) != 0)
                return cli_usage_error(self, "unknown --format '%s' (text or json)", v);
            break;
        }
    }

    if (output && cli_check_outputs(&output, 1, NULL, 0) != CLI_EXIT_OK) goto done;
    if (cli_open_context(device, &ctx, &dev) != CLS_SUCCESS) goto done;
    cls_probe_options_init(&opt);
    opt.quick = quick;
    opt.progress = on_progress;
    opt.result = on_result;
    opt.user = &ui;
    ui.tty = isatty(STDERR_FILENO);
    fprintf(stderr, "probe: %s mode (%s)\n", quick ? "quick" : "full",
            quick ? "a second or two" : "ten seconds to a minute");
    t0 = cli_now();
    st = cls_probe_device(ctx, &opt, &m);
    clear_status(&ui);
    if (st != CLS_SUCCESS) {
        cli_fail(st);
        goto done;
    }
    if (ui.oom) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "keeping the probe's measurements");
        goto done;
    }
    /* The cache is where cls_model_match looks first for this device and driver. */
    if ((st = cls_probe_save_cache(m, cache, sizeof cache)) == CLS_SUCCESS)
        fprintf(stderr, "probe: saved to the model cache: %s\n", cache);
    else
        fprintf(stderr, "clstencil: warning: %s\n", cls_last_error());
    if (output) {
        if ((st = cls_model_save(m, output)) != CLS_SUCCESS) {
            cli_fail(st);
            goto done;
        }
        fprintf(stderr, "probe: written to %s\n", output);
    }
    if (format == CLI_FORMAT_JSON)
        print_json(&ui, &dev, m, quick, cli_now() - t0, cache, output);
    else
        print_text(&ui, &dev, m, quick, cli_now() - t0, cache, output);
    ret = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;

done:
    cls_model_release(m);
    cls_context_release(ctx);
    free(ui.rows);
    return ret;
}

const cli_command cli_cmd_probe = {
    "probe",
    "measure the device and write its model (bandwidth, sync, transfers)",
    "usage: clstencil probe [--quick] [--output FILE] [--device SEL] [--format text|json]",
    "Measures the device with the documents' microbenchmarks and writes a device model in the\n"
    "schema of the shipped ones (family gpu or cpu from the device type):\n"
    "  - sustained bandwidth of cube_transit and cube_ghost_transit (Mo & Li, Listings 4 and 5,\n"
    "    Eq. 3) over 192^3, 256^3 and 512^3 float cubes, the best of the sizes kept;\n"
    "  - kernel restart (back-to-back empty kernels, Meng & Skadron 2010, Sect. 4.4) and\n"
    "    launch latency;\n"
    "  - an in-kernel atomic global barrier against the number of co-resident work-groups\n"
    "    (at most one per compute unit), fitted linearly as in Meng & Skadron 2010, Sect. 4.5;\n"
    "  - local-memory stride sweep (bank conflicts, Kim & Shrivastava, Sect. 5.5);\n"
    "  - host<->device transfer times for 10^1 .. 10^8 bytes, pinned and pageable, both\n"
    "    directions, host-to-host copies, and allocation costs (Visschers 2012, Sect. 5.2,\n"
    "    6.3);\n"
    "  - the overlap factor of both directions at once on two queues (Visschers 2012,\n"
    "    Sect. 6.4.4);\n"
    "  - on CPUs, the copy kernel over working sets of 2 to 256 MiB (the cache's and the\n"
    "    memory's bandwidth and the cache's size) and the naive row kernel on seven\n"
    "    bodies and grids, sampled in rounds, fitted to the costs of the CPU model\n"
    "    (per vector, read, flop, division, row end and row run; doc/devices.md).\n"
    "Each measurement repeats until the spread (p90 - p10) / median is below 3 % or a cap\n"
    "is reached.  Progress goes to stderr, the table of medians and spreads to stdout.  The\n"
    "model is saved to the cache, where `clstencil model` and `clstencil devices` find it for\n"
    "this device and driver (see CLSTENCIL_CACHE_DIR), and to FILE with --output.\n"
    "\n"
    "Options:\n"
    "  --output FILE   also write the model JSON to FILE\n"
    "  --quick         small sizes and few repetitions: seconds instead of minutes (tests)\n"
    "  --device SEL    device selector (overrides CLSTENCIL_DEVICE)\n"
    "  --format F      text (default) or json (measurements and the model in one object)\n"
    "  -h, --help      show this help\n",
    probe_main,
};
