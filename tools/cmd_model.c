/* cmd_model.c: `clstencil model`, a device model's parameters: shipped, from a file or matched. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_DEVICE = 1, OPT_LIST, OPT_FORMAT, OPT_SIZE };

static const cli_option options[] = {
    {"device", 1, OPT_DEVICE}, {"list", 0, OPT_LIST}, {"format", 1, OPT_FORMAT},
    {"size", 1, OPT_SIZE},     {NULL, 0, 0},
};

/* What the command line asked for.  The positional STENCIL (and --size) select a prediction;
 * everything else shows models. */
typedef struct model_args {
    const char *device;  /* model name, model file or OpenCL device selector; NULL: default */
    const char *stencil; /* a stencil to predict, NULL for the parameters */
    int list;
    cli_format format;
    int size_dims;       /* 0: no --size */
    cls_dims size;
} model_args;

/* The model to show, and how it was found. */
typedef struct model_choice {
    cls_model *m;
    int live;                /* matched to a live OpenCL device (info is valid) */
    cls_device_info info;
    char why[2048];
} model_choice;

static int parse_args(const cli_command *self, int argc, char **argv, model_args *a,
                      int *exit_now)
{
    cli_parser p;
    const char *v;
    int id;
    memset(a, 0, sizeof *a);
    a->format = CLI_FORMAT_TEXT;
    *exit_now = 0;
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP:
            cli_print_help(self, stdout);
            *exit_now = 1;
            return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL:
            if (a->stencil) return cli_usage_error(self, "unexpected argument '%s'", v);
            a->stencil = v;
            break;
        case OPT_DEVICE:
            if (!v[0]) return cli_usage_error(self, "--device needs a model name, file or device");
            a->device = v;
            break;
        case OPT_LIST: a->list = 1; break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON, &a->format) != 0)
                return cli_usage_error(self, "unknown --format '%s' (text or json)", v);
            break;
        case OPT_SIZE:
            if (cli_parse_size(v, &a->size, &a->size_dims) != 0)
                return cli_usage_error(self,
                                       "invalid --size '%s': expected NX, NXxNY or NXxNYxNZ", v);
            break;
        }
    }
    if (a->list && (a->device || a->stencil || a->size_dims))
        return cli_usage_error(self, "--list takes no --device, --size or stencil");
    if (a->size_dims && !a->stencil)
        return cli_usage_error(self, "--size describes a stencil's grid: name the stencil too");
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- finding the model */
/* --device X: a model name or file first; a name no model carries is then tried as an OpenCL
 * device selector, whose device gets its model as every command does (cls_model_match). */
static int choose(const model_args *a, model_choice *c)
{
    int st;
    memset(c, 0, sizeof *c);
    if (a->device) {
        char model_err[1024];
        st = cls_model_load(a->device, &c->m);
        if (st == CLS_SUCCESS) {
            snprintf(c->why, sizeof c->why, "model \"%s\" read from %s", cls_model_name(c->m),
                     cls_model_origin(c->m));
            return CLS_SUCCESS;
        }
        if (st != CLS_ERR_UNKNOWN_MODEL) return cli_fail(st), st;
        snprintf(model_err, sizeof model_err, "%s", cls_last_error());
        if (cls_device_select(a->device, &c->info) != CLS_SUCCESS) {
            cli_failf(CLS_ERR_UNKNOWN_MODEL, "%s; as a device selector, \"%s\" selects no "
                      "device either (%s); `clstencil model --list` lists the models, "
                      "`clstencil devices` the devices",
                      model_err, a->device, cls_last_error());
            return CLS_ERR_UNKNOWN_MODEL;
        }
    } else if ((st = cls_device_select(NULL, &c->info)) != CLS_SUCCESS) {
        cli_fail(st);
        fprintf(stderr, "clstencil: without a device, name a model: clstencil model --device "
                        "gtx280 (clstencil model --list shows them)\n");
        return st;
    }
    c->live = 1;
    st = cls_model_match(&c->info, NULL, &c->m, c->why, sizeof c->why);
    if (st != CLS_SUCCESS) return cli_fail(st), st;
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- showing the parameters */
/* Whether 0 is a value the schema accepts for the key (a restart cost of 0, no copy engine);
 * where it is not, a 0 in a model means "unknown".  Asked of the schema itself, through a
 * scratch model that cls_model_set checks against. */
static int zero_is_value(const char *key)
{
    static cls_model *scratch;
    if (!scratch && cls_model_from_defaults("gpu", NULL, &scratch) != CLS_SUCCESS) return 1;
    return cls_model_set(scratch, key, 0) == CLS_SUCCESS;
}

/* Where a value comes from, in one word. */
static const char *origin_of(const cls_model *m, const model_choice *c, const char *key)
{
    static const char *const from_device[] = {"compute.clock_mhz", "compute.compute_units",
                                              "compute.max_work_group", "local_memory.bytes",
                                              "memory.global_bytes"};
    const int probed = cls_model_device_name(m) != NULL &&
                       strcmp(cls_model_origin(m), "defaults") != 0;
    double v = 0;
    cls_model_get(m, key, &v);
    if (cls_model_is_assumed(m, key)) return "assumed";
    if (v == 0 && !zero_is_value(key)) return "unknown";
    for (size_t i = 0; i < sizeof from_device / sizeof from_device[0]; i++) {
        if (strcmp(key, from_device[i]) != 0) continue;
        /* Values OpenCL reports: a probe or a live device supplied them. */
        if (probed || strcmp(cls_model_origin(m), "defaults") == 0) return "device";
        if (c->live) {
            double dv = strcmp(key, "compute.clock_mhz") == 0       ? c->info.clock_mhz
                        : strcmp(key, "compute.compute_units") == 0 ? c->info.compute_units
                        : strcmp(key, "compute.max_work_group") == 0
                            ? (double)c->info.max_work_group_size
                        : strcmp(key, "local_memory.bytes") == 0 ? (double)c->info.local_mem_bytes
                                                                 : (double)c->info.global_mem_bytes;
            if (dv == v) return "device";
        }
    }
    return probed ? "measured" : "file";
}

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

static void print_params_text(const cls_model *m, const model_choice *c)
{
    size_t wk = strlen("PARAMETER");
    printf("model: %s (family %s)\n", cls_model_name(m), cls_model_family(m));
    if (cls_model_description(m)[0]) printf("description: %s\n", cls_model_description(m));
    if (cls_model_source(m)[0]) printf("source: %s\n", cls_model_source(m));
    printf("file: %s\n", cls_model_origin(m));
    if (cls_model_device_name(m))
        printf("measured on: %s (driver %s)\n", cls_model_device_name(m),
               cls_model_device_driver(m) ? cls_model_device_driver(m) : "unknown");
    if (c->live) printf("device: %s (%s)\n", c->info.name, c->info.platform_name);
    printf("why: %s\n\n", c->why);

    for (size_t i = 0; cls_model_param_key(i); i++)
        if (strlen(cls_model_param_key(i)) > wk) wk = strlen(cls_model_param_key(i));
    printf("%-*s  %14s  %-16s  %s\n", (int)wk, "PARAMETER", "VALUE", "UNIT", "ORIGIN");
    for (size_t i = 0; cls_model_param_key(i); i++) {
        const char *key = cls_model_param_key(i);
        const char *origin = origin_of(m, c, key);
        double v = 0;
        char value[40];
        cls_model_get(m, key, &v);
        if (strcmp(origin, "unknown") == 0)
            snprintf(value, sizeof value, "-");
        else if (v == (double)(long long)v && v < 1e18)
            snprintf(value, sizeof value, "%lld", (long long)v); /* byte counts in full */
        else
            snprintf(value, sizeof value, "%.10g", v);
        printf("%-*s  %14s  %-16s  %s\n", (int)wk, key, value, cls_model_param_unit(key), origin);
    }
    printf("\nORIGIN: file = stated by the model file (see its source), measured = by clstencil "
           "probe,\ndevice = reported by OpenCL, assumed = a family default or assumption, "
           "unknown = not known.\n");

    for (int t = 0; t < CLS_TABLE_COUNT; t++) {
        const cls_model_point *pts = NULL;
        size_t n = 0;
        if (cls_model_get_table(m, (cls_model_table)t, &pts, &n) != CLS_SUCCESS || n == 0)
            continue;
        printf("\n%s (time of one operation, 003 Sect. 5.2)\n", cls_model_table_key(t));
        printf("  %14s  %12s  %12s  %10s\n", "BYTES", "TIME", "SPREAD", "GB/s");
        for (size_t i = 0; i < n; i++) {
            char tm[32], sp[32] = "-";
            format_ns(tm, sizeof tm, pts[i].ns);
            if (pts[i].spread_ns > 0) format_ns(sp, sizeof sp, pts[i].spread_ns);
            printf("  %14.0f  %12s  %12s  %10.3f\n", pts[i].bytes, tm, sp,
                   pts[i].bytes / pts[i].ns);
        }
    }
}

static void print_params_json(const cls_model *m, const model_choice *c)
{
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "name", cls_model_name(m));
    cli_json_str(&j, "family", cls_model_family(m));
    cli_json_str(&j, "description", cls_model_description(m));
    cli_json_str(&j, "source", cls_model_source(m));
    cli_json_str(&j, "file", cls_model_origin(m));
    if (cls_model_device_name(m)) {
        cli_json_object(&j, "measured_on");
        cli_json_str(&j, "name", cls_model_device_name(m));
        cli_json_str(&j, "driver_version", cls_model_device_driver(m));
        cli_json_close(&j);
    }
    if (c->live) {
        char idx[32];
        snprintf(idx, sizeof idx, "%d:%d", c->info.platform_index, c->info.device_index);
        cli_json_object(&j, "device");
        cli_json_str(&j, "index", idx);
        cli_json_str(&j, "name", c->info.name);
        cli_json_str(&j, "platform", c->info.platform_name);
        cli_json_str(&j, "driver_version", c->info.driver_version);
        cli_json_close(&j);
    }
    cli_json_str(&j, "why", c->why);
    cli_json_array(&j, "parameters");
    for (size_t i = 0; cls_model_param_key(i); i++) {
        const char *key = cls_model_param_key(i);
        const char *origin = origin_of(m, c, key);
        double v = 0;
        cls_model_get(m, key, &v);
        cli_json_object(&j, NULL);
        cli_json_str(&j, "key", key);
        if (strcmp(origin, "unknown") == 0)
            cli_json_str(&j, "value", NULL);
        else
            cli_json_num(&j, "value", v);
        cli_json_str(&j, "unit", cls_model_param_unit(key));
        cli_json_str(&j, "origin", origin);
        cli_json_str(&j, "summary", cls_model_param_summary(key));
        cli_json_close(&j);
    }
    cli_json_close(&j);
    cli_json_object(&j, "tables");
    for (int t = 0; t < CLS_TABLE_COUNT; t++) {
        const cls_model_point *pts = NULL;
        size_t n = 0;
        if (cls_model_get_table(m, (cls_model_table)t, &pts, &n) != CLS_SUCCESS || n == 0)
            continue;
        cli_json_array(&j, cls_model_table_key(t));
        for (size_t i = 0; i < n; i++) {
            cli_json_object(&j, NULL);
            cli_json_num(&j, "bytes", pts[i].bytes);
            cli_json_num(&j, "ns", pts[i].ns);
            if (pts[i].spread_ns > 0) cli_json_num(&j, "spread_ns", pts[i].spread_ns);
            cli_json_close(&j);
        }
        cli_json_close(&j);
    }
    cli_json_close(&j);
    cli_json_end(&j);
}

/* ---------------------------------------------------------------- listing the models */
static int show_list(const model_args *a)
{
    char *text = NULL;
    int st = cls_model_list(&text);
    cli_json j;
    if (st != CLS_SUCCESS) return cli_fail(st);
    if (a->format == CLI_FORMAT_JSON) {
        cli_json_begin(&j, stdout);
        cli_json_array(&j, "models");
    } else {
        printf("%-10s  %-6s  %-60s  %s\n", "NAME", "FAMILY", "DESCRIPTION", "FILE");
    }
    for (char *line = text, *next; line && *line; line = next) {
        char *tab1, *tab2, *nl = strchr(line, '\n');
        cls_model *m = NULL;
        const char *desc = "";
        char shortdesc[64];
        next = nl ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        tab1 = strchr(line, '\t');
        tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
        if (!tab1 || !tab2) continue;
        *tab1 = *tab2 = '\0';
        if (cls_model_from_file(tab2 + 1, &m) == CLS_SUCCESS) desc = cls_model_description(m);
        if (a->format == CLI_FORMAT_JSON) {
            cli_json_object(&j, NULL);
            cli_json_str(&j, "name", line);
            cli_json_str(&j, "family", tab1 + 1);
            cli_json_str(&j, "description", desc);
            cli_json_str(&j, "file", tab2 + 1);
            cli_json_close(&j);
        } else {
            if (strlen(desc) > 60)
                snprintf(shortdesc, sizeof shortdesc, "%.57s...", desc);
            else
                snprintf(shortdesc, sizeof shortdesc, "%s", desc);
            printf("%-10s  %-6s  %-60s  %s\n", line, tab1 + 1, shortdesc, tab2 + 1);
        }
        cls_model_release(m);
    }
    if (a->format == CLI_FORMAT_JSON) cli_json_end(&j);
    cls_free(text);
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* ---------------------------------------------------------------- predictions */
/* `clstencil model --device M STENCIL --size ...` asks what model M predicts for a stencil;
 * the ghost-zone model (000_c422610359a92120.txt) answers it. */
static int predict(const cli_command *self, const model_args *a, const model_choice *c)
{
    (void)c;
    return cli_usage_error(self,
                           "stencil predictions come with the ghost-zone model; '%s' cannot be "
                           "predicted yet (leave it out to see the model's parameters)",
                           a->stencil);
}

static int model_main(const cli_command *self, int argc, char **argv)
{
    model_args a;
    model_choice c;
    int exit_now, ret = parse_args(self, argc, argv, &a, &exit_now);
    memset(&c, 0, sizeof c);
    if (ret != CLI_EXIT_OK || exit_now) return ret;
    if (a.list) return show_list(&a);
    /* Refused before any device is touched: the message is the same on every machine. */
    if (a.stencil) return predict(self, &a, &c);
    if (choose(&a, &c) != CLS_SUCCESS) {
        cls_model_release(c.m);
        return CLI_EXIT_FAIL;
    }
    if (a.format == CLI_FORMAT_JSON)
        print_params_json(c.m, &c);
    else
        print_params_text(c.m, &c);
    cls_model_release(c.m);
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

const cli_command cli_cmd_model = {
    "model",
    "show a device model's parameters (shipped, from a file, or the device's)",
    "usage: clstencil model [--device NAME|FILE|SEL] [--format text|json]\n"
    "       clstencil model --list [--format text|json]",
    "Prints the parameters of a device model: each value with its unit and where it comes\n"
    "from (the model file and its source documents, a probe measurement, OpenCL, or a family\n"
    "default marked assumed), then its transfer and allocation tables.\n"
    "\n"
    "--device takes a model name (gtx280, c1060, c2050, gtx460, pocl-cpu, ...; see --list), a\n"
    "model file (a path containing '/' or ending in .json, such as a `clstencil probe --output`\n"
    "result), or else an OpenCL device selector, whose device gets its model as every command\n"
    "matches it.  Without --device the default device's model is shown with the reason it was\n"
    "chosen: a probe result cached for the device and driver, a shipped file matching its name,\n"
    "or the family defaults.\n"
    "\n"
    "Options:\n"
    "  --device X      model name, model file or device selector\n"
    "  --list          list the shipped and installed models ($CLSTENCIL_MODEL_DIR first)\n"
    "  --format F      text (default) or json\n"
    "  -h, --help      show this help\n"
    "\n"
    "A STENCIL argument (with --size) asks for the model's prediction for that stencil; the\n"
    "ghost-zone model brings it, and until then it is refused with a message.\n",
    model_main,
};
