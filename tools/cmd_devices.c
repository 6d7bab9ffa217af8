/* cmd_devices.c: `clstencil devices`, the OpenCL platforms and devices and the model of each. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clstencil_model.h"

enum { OPT_FORMAT = 1, OPT_DEVICE };

static const cli_option options[] = {
    {"format", 1, OPT_FORMAT},
    {"device", 1, OPT_DEVICE},
    {NULL, 0, 0},
};

/* The device model each device gets (cls_model_match) and why. */
typedef struct dev_model {
    char name[256];
    char family[16];
    char kind[16];   /* "probe", "file" or "defaults"; "error" when matching failed */
    char origin[1024];
    char why[2048];
} dev_model;

static void match_model(const cls_device_info *d, dev_model *dm)
{
    cls_model *m = NULL;
    char cached[4096];
    memset(dm, 0, sizeof *dm);
    if (cls_model_match(d, NULL, &m, dm->why, sizeof dm->why) != CLS_SUCCESS) {
        snprintf(dm->name, sizeof dm->name, "%s", "-");
        snprintf(dm->kind, sizeof dm->kind, "%s", "error");
        snprintf(dm->why, sizeof dm->why, "no model: %s", cls_last_error());
        return;
    }
    snprintf(dm->name, sizeof dm->name, "%s", cls_model_name(m));
    snprintf(dm->family, sizeof dm->family, "%s", cls_model_family(m));
    snprintf(dm->origin, sizeof dm->origin, "%s", cls_model_origin(m));
    if (strcmp(dm->origin, "defaults") == 0)
        snprintf(dm->kind, sizeof dm->kind, "%s", "defaults");
    else if (cls_model_cache_path(d, cached, sizeof cached) == CLS_SUCCESS &&
             strcmp(cached, dm->origin) == 0)
        snprintf(dm->kind, sizeof dm->kind, "%s", "probe");
    else
        snprintf(dm->kind, sizeof dm->kind, "%s", "file");
    cls_model_release(m);
}

/* One row of the text table, already formatted. */
enum { COL_MARK, COL_INDEX, COL_TYPE, COL_NAME, COL_PLATFORM, COL_CUS, COL_CLOCK, COL_GLOBAL,
       COL_LOCAL, COL_WG, COL_FP64, COL_MODEL, N_COLS };
static const char *const headers[N_COLS] = {"", "P:D", "TYPE", "NAME", "PLATFORM", "CUS",
                                            "CLOCK", "GLOBAL", "LOCAL", "MAX WG", "FP64",
                                            "MODEL"};
/* Numbers right-aligned, text left-aligned. */
static const int right_align[N_COLS] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0};

typedef struct row {
    char cell[N_COLS][300];
} row;

static void format_row(row *r, const cls_device_info *d, const dev_model *dm, int is_default)
{
    snprintf(r->cell[COL_MARK], sizeof r->cell[0], "%s", is_default ? "*" : "");
    snprintf(r->cell[COL_INDEX], sizeof r->cell[0], "%d:%d", d->platform_index,
             d->device_index);
    snprintf(r->cell[COL_TYPE], sizeof r->cell[0], "%s", cli_device_type_name(d->type));
    snprintf(r->cell[COL_NAME], sizeof r->cell[0], "%s", d->name);
    snprintf(r->cell[COL_PLATFORM], sizeof r->cell[0], "%s", d->platform_name);
    snprintf(r->cell[COL_CUS], sizeof r->cell[0], "%u", d->compute_units);
    snprintf(r->cell[COL_CLOCK], sizeof r->cell[0], "%u MHz", d->clock_mhz);
    cli_format_bytes(r->cell[COL_GLOBAL], sizeof r->cell[0], d->global_mem_bytes);
    char local[64];
    cli_format_bytes(local, sizeof local, d->local_mem_bytes);
    /* Emulated local memory (CPUs) is worth flagging: tiling in it buys nothing. */
    snprintf(r->cell[COL_LOCAL], sizeof r->cell[0], "%s%s", local,
             d->local_mem_is_global ? " (emul.)" : "");
    snprintf(r->cell[COL_WG], sizeof r->cell[0], "%zu", d->max_work_group_size);
    snprintf(r->cell[COL_FP64], sizeof r->cell[0], "%s", d->double_support ? "yes" : "no");
    snprintf(r->cell[COL_MODEL], sizeof r->cell[0], "%.250s (%s)", dm->name, dm->kind);
}

static void print_text(const cls_device_info *devs, const dev_model *models, size_t n,
                       long def)
{
    row *rows = calloc(n + 1, sizeof *rows);
    if (!rows) return;
    size_t width[N_COLS];
    for (int c = 0; c < N_COLS; c++) {
        snprintf(rows[0].cell[c], sizeof rows[0].cell[c], "%s", headers[c]);
        width[c] = strlen(headers[c]);
    }
    for (size_t i = 0; i < n; i++) {
        format_row(&rows[i + 1], &devs[i], &models[i], (long)i == def);
        for (int c = 0; c < N_COLS; c++) {
            size_t w = strlen(rows[i + 1].cell[c]);
            if (w > width[c]) width[c] = w;
        }
    }
    width[COL_MARK] = 1;
    for (size_t i = 0; i <= n; i++) {
        for (int c = 0; c < N_COLS; c++) {
            const char *s = rows[i].cell[c];
            if (c == N_COLS - 1)
                fputs(s, stdout); /* no trailing blanks */
            else
                printf(right_align[c] ? "%*s  " : "%-*s  ", (int)width[c], s);
        }
        putchar('\n');
    }
    free(rows);
    if (def >= 0) printf("\n* the default device (see CLSTENCIL_DEVICE and --device)\n");
    /* MODEL: probe = a `clstencil probe` result cached for the device and driver, file = a
     * shipped or $CLSTENCIL_MODEL_DIR file matching the name, defaults = the family defaults. */
    printf("\nModels (`clstencil model --device P:D` prints one):\n");
    for (size_t i = 0; i < n; i++)
        printf("  %d:%d %s\n", devs[i].platform_index, devs[i].device_index, models[i].why);
}

static void print_csv(const cls_device_info *devs, const dev_model *models, size_t n,
                      long def)
{
    printf("index,default,type,name,vendor,platform,device_version,driver_version,"
           "compute_units,clock_mhz,global_mem_bytes,max_alloc_bytes,local_mem_bytes,"
           "local_mem_is_global,max_work_group_size,fp64,model,model_kind,model_why\n");
    for (size_t i = 0; i < n; i++) {
        const cls_device_info *d = &devs[i];
        printf("%d:%d,%d,%s,", d->platform_index, d->device_index, (long)i == def,
               cli_device_type_name(d->type));
        cli_csv_field(stdout, d->name);
        putchar(',');
        cli_csv_field(stdout, d->vendor);
        putchar(',');
        cli_csv_field(stdout, d->platform_name);
        putchar(',');
        cli_csv_field(stdout, d->device_version);
        putchar(',');
        cli_csv_field(stdout, d->driver_version);
        printf(",%u,%u,%llu,%llu,%llu,%d,%zu,%d,", d->compute_units, d->clock_mhz,
               (unsigned long long)d->global_mem_bytes, (unsigned long long)d->max_alloc_bytes,
               (unsigned long long)d->local_mem_bytes, d->local_mem_is_global ? 1 : 0,
               d->max_work_group_size, d->double_support ? 1 : 0);
        cli_csv_field(stdout, models[i].name);
        printf(",%s,", models[i].kind);
        cli_csv_field(stdout, models[i].why);
        putchar('\n');
    }
}

static void print_json(const cls_device_info *devs, const dev_model *models, size_t n,
                       long def)
{
    cli_json j;
    char idx[32];
    cli_json_begin(&j, stdout);
    if (def >= 0) {
        snprintf(idx, sizeof idx, "%d:%d", devs[def].platform_index, devs[def].device_index);
        cli_json_str(&j, "default", idx);
    } else {
        cli_json_str(&j, "default", NULL);
    }
    cli_json_array(&j, "devices");
    for (size_t i = 0; i < n; i++) {
        const cls_device_info *d = &devs[i];
        cli_json_object(&j, NULL);
        snprintf(idx, sizeof idx, "%d:%d", d->platform_index, d->device_index);
        cli_json_str(&j, "index", idx);
        cli_json_int(&j, "platform_index", d->platform_index);
        cli_json_int(&j, "device_index", d->device_index);
        cli_json_bool(&j, "default", (long)i == def);
        cli_json_str(&j, "type", cli_device_type_name(d->type));
        cli_json_str(&j, "name", d->name);
        cli_json_str(&j, "vendor", d->vendor);
        cli_json_str(&j, "platform", d->platform_name);
        cli_json_str(&j, "device_version", d->device_version);
        cli_json_str(&j, "driver_version", d->driver_version);
        cli_json_uint(&j, "compute_units", d->compute_units);
        cli_json_uint(&j, "clock_mhz", d->clock_mhz);
        cli_json_uint(&j, "global_mem_bytes", d->global_mem_bytes);
        cli_json_uint(&j, "max_alloc_bytes", d->max_alloc_bytes);
        cli_json_uint(&j, "local_mem_bytes", d->local_mem_bytes);
        cli_json_bool(&j, "local_mem_is_global", d->local_mem_is_global);
        cli_json_uint(&j, "max_work_group_size", d->max_work_group_size);
        cli_json_size_array(&j, "max_work_item_sizes", d->max_work_item_sizes, 3);
        cli_json_bool(&j, "fp64", d->double_support);
        cli_json_object(&j, "model");
        cli_json_str(&j, "name", strcmp(models[i].kind, "error") ? models[i].name : NULL);
        cli_json_str(&j, "family", models[i].family[0] ? models[i].family : NULL);
        cli_json_str(&j, "kind", models[i].kind);
        cli_json_str(&j, "file", models[i].origin[0] ? models[i].origin : NULL);
        cli_json_str(&j, "why", models[i].why);
        cli_json_close(&j);
        cli_json_close(&j);
    }
    cli_json_close(&j);
    cli_json_end(&j);
}

static int devices_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_format format = CLI_FORMAT_TEXT;
    const char *selector = NULL, *v;
    int id;
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL: return cli_usage_error(self, "unexpected argument '%s'", v);
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_CSV | CLI_FORMAT_JSON,
                                 &format) != 0)
                return cli_usage_error(self, "unknown format '%s' (text, csv or json)", v);
            break;
        case OPT_DEVICE: selector = v; break;
        }
    }

    size_t n = 0;
    int st = cls_device_list(NULL, 0, &n);
    if (st != CLS_SUCCESS) return cli_fail(st);
    cls_device_info *devs = calloc(n ? n : 1, sizeof *devs);
    if (!devs) return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "device table");
    size_t filled = n;
    st = cls_device_list(devs, n, &filled);
    if (st != CLS_SUCCESS) {
        free(devs);
        return cli_fail(st);
    }
    if (filled < n) n = filled;

    long def = -1;
    cls_device_info chosen;
    st = cls_device_select(selector, &chosen);
    if (st == CLS_SUCCESS) {
        for (size_t i = 0; i < n; i++)
            if (devs[i].platform_index == chosen.platform_index &&
                devs[i].device_index == chosen.device_index)
                def = (long)i;
    } else if (selector || n == 0) {
        /* An explicit selector that matches nothing is an error; so is an empty system. */
        free(devs);
        return cli_fail(st);
    } else {
        /* A stale $CLSTENCIL_DEVICE should not hide the list that helps to fix it. */
        const char *env = getenv("CLSTENCIL_DEVICE");
        fprintf(stderr, "clstencil: warning: CLSTENCIL_DEVICE='%s' selects no device: %s\n",
                env ? env : "", cls_last_error());
    }

    dev_model *models = calloc(n ? n : 1, sizeof *models);
    if (!models) {
        free(devs);
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "model table");
    }
    for (size_t i = 0; i < n; i++) match_model(&devs[i], &models[i]);
    if (format == CLI_FORMAT_JSON)
        print_json(devs, models, n, def);
    else if (format == CLI_FORMAT_CSV)
        print_csv(devs, models, n, def);
    else
        print_text(devs, models, n, def);
    free(models);
    free(devs);
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

const cli_command cli_cmd_devices = {
    "devices",
    "list OpenCL platforms and devices",
    "usage: clstencil devices [--format text|csv|json] [--device SEL]",
    "Lists every device of every OpenCL platform with its index (P:D, usable as a --device\n"
    "selector), type, name, platform, compute units, clock, global and local memory, maximum\n"
    "work-group size and double-precision support.  The default device is marked with '*'.\n"
    "MODEL names the device model each device gets and how: probe (a `clstencil probe` result\n"
    "cached for the device and driver), file (a shipped or $CLSTENCIL_MODEL_DIR model whose\n"
    "pattern matches the name) or defaults (the gpu or cpu family defaults); the lines after\n"
    "the table say why.\n"
    "\n"
    "Options:\n"
    "  --format FMT    text (a table, the default), csv (a header and one row per device)\n"
    "                  or json (one object)\n"
    "  --device SEL    mark the device that selector SEL picks instead of the default\n"
    "                  (gpu, cpu, accelerator, gpu:N, P:D, or a name substring)\n"
    "  -h, --help      show this help\n",
    devices_main,
};
