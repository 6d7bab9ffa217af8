/* cmd_model.c: `clstencil model`, a device model's parameters: shipped, from a file or matched. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clstencil_tune.h"

enum { OPT_DEVICE = 1, OPT_LIST, OPT_FORMAT, OPT_SIZE, OPT_BLOCK, OPT_STEPS };

static const cli_option options[] = {
    {"device", 1, OPT_DEVICE}, {"list", 0, OPT_LIST}, {"format", 1, OPT_FORMAT},
    {"size", 1, OPT_SIZE},     {"block", 1, OPT_BLOCK}, {"steps", 1, OPT_STEPS},
    {NULL, 0, 0},
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
    int block_dims;      /* 0: no --block */
    cls_dims block;      /* the thread block (tile, ghost zone included) */
    size_t steps;        /* 0: h bounded by Eq. 20 alone */
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
            if (cli_size_option(self, v, &a->size, &a->size_dims) != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            break;
        case OPT_BLOCK:
            if (cli_parse_size(v, &a->block, &a->block_dims) != 0)
                return cli_usage_error(self,
                                       "invalid --block '%s': expected BX, BXxBY or BXxBYxBZ", v);
            break;
        case OPT_STEPS:
            if (cli_parse_count(v, &a->steps) != 0)
                return cli_usage_error(self, "invalid --steps '%s': expected a whole number >= 1",
                                       v);
            break;
        }
    }
    if (a->list && (a->device || a->stencil || a->size_dims))
        return cli_usage_error(self, "--list takes no --device, --size or stencil");
    if ((a->size_dims || a->block_dims || a->steps) && !a->stencil)
        return cli_usage_error(self, "--size, --block and --steps describe a stencil's run: name "
                                     "the stencil too");
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
        printf("\n%s (time of one operation, Visschers 2012, Sect. 5.2)\n", cls_model_table_key(t));
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
/* `clstencil model --device M STENCIL --size ... --block ...` asks what model M predicts for a
 * stencil: the ghost-zone model (Meng & Skadron 2010) gives CPL against h in both sync
 * modes, the optimal h, delta and the component breakdown.  A device model without a live
 * device uses the document's profile of its applications (Table 2); a live device uses the
 * stencil's measured profile and this library's executors. */
typedef struct prediction {
    cls_ghost_profile prof;
    cls_dims size;
    size_t block[3];
    unsigned flags;
    cls_ghost_opt opt[2];     /* restart, barrier */
    cls_ghost_eval at_opt[2]; /* each at its h */
    int ok[2];
    cls_sync chosen;
    int rows;
} prediction;

static int load_profile(const model_args *a, const model_choice *c, cls_stencil *st,
                        prediction *pr)
{
    if (!c->live) {
        if (cls_ghost_profile_document(cls_stencil_name(st), &pr->prof) != CLS_SUCCESS) {
            cli_failf(CLS_ERR_UNSUPPORTED,
                      "model \"%s\" has no live device to measure a profile of '%s' on; the "
                      "profiles of Meng & Skadron 2010, Table 2, cover pathfinder, hotspot, "
                      "poisson2d and cell3d (or name an OpenCL device with --device)",
                      cls_model_name(c->m), cls_stencil_name(st));
            return CLS_ERR_UNSUPPORTED;
        }
        pr->flags = CLS_GHOST_DOCUMENT;
        return CLS_SUCCESS;
    }
    char sel[32];
    cls_context *ctx = NULL;
    cls_device_info info;
    int st_code;
    (void)a;
    snprintf(sel, sizeof sel, "%d:%d", c->info.platform_index, c->info.device_index);
    if ((st_code = cli_open_context(sel, &ctx, &info)) != CLS_SUCCESS) return st_code;
    st_code = cls_ghost_profile_get(ctx, st, &pr->prof, NULL);
    if (st_code != CLS_SUCCESS) cli_fail(st_code);
    cls_context_release(ctx);
    pr->flags = CLS_GHOST_EXECUTOR;
    return st_code;
}

static void print_prediction_text(const model_args *a, const model_choice *c, cls_stencil *st,
                                  const prediction *pr)
{
    static const char *const term[6] = {"GlbSync (Eq. 25)",  "LoadSten (Eq. 26)",
                                        "Commit (Eq. 27)",   "MiscComp (Eq. 28)",
                                        "IterComp (Eq. 29)", "IterMem (Eq. 30)"};
    char size[96], block[96];
    int dims = cls_stencil_dims(st);
    cls_dims bd = {{pr->block[0], pr->block[1], pr->block[2]}};
    cli_format_size(size, sizeof size, pr->size, dims);
    cli_format_size(block, sizeof block, bd, dims);
    printf("model: %s (%s)\n", cls_model_name(c->m), c->why);
    printf("profile: %s\n", pr->prof.source);
    printf("stencil: %s, grid %s, block %s%s\n", cls_stencil_name(st), size, block,
           pr->flags == CLS_GHOST_EXECUTOR ? ", modelled for this library's executors"
                                           : ", the document's equations as printed");
    printf("delta (Eq. 23): %.2f cycles per block -> %s (Sect. 5.5)%s\n", pr->at_opt[0].delta,
           pr->at_opt[0].delta >= 0 ? "kernel restart" : "memory fences",
           pr->flags == CLS_GHOST_EXECUTOR
               ? "; for this library's persistent kernel the lower predicted CPL decides"
               : "");
    printf("\nCPL against h (cycles per loop, Eq. 1; '*' the optimum of the column):\n");
    printf("  %4s %16s %16s\n", "h", "restart", "barrier");
    for (int h = 1; h <= pr->rows; h++) {
        printf("  %4d", h);
        for (int m = 0; m < 2; m++) {
            cls_ghost_eval e;
            if (!pr->ok[m] ||
                cls_ghost_evaluate(c->m, &pr->prof, pr->size, pr->block, h,
                                   m ? CLS_SYNC_BARRIER : CLS_SYNC_RESTART, pr->flags,
                                   &e) != CLS_SUCCESS ||
                !e.feasible)
                printf(" %16s", "-");
            else
                printf(" %15.0f%s", e.CPL, h == pr->opt[m].h ? "*" : " ");
        }
        printf("\n");
    }
    for (int m = 0; m < 2; m++)
        if (pr->ok[m])
            printf("%s: h %d (continuous optimum %.2f, rounded down %d), CPL %.0f cycles\n",
                   m ? "barrier" : "restart", pr->opt[m].h, pr->opt[m].h_cont, pr->opt[m].h_floor,
                   pr->opt[m].cpl);
    const cls_ghost_opt *o = &pr->opt[pr->chosen == CLS_SYNC_BARRIER];
    const cls_ghost_eval *e = &pr->at_opt[pr->chosen == CLS_SYNC_BARRIER];
    printf("chosen: h %d, sync %s; predicted %.0f cycles = %.4g s per loop at %.0f MHz\n", o->h,
           cls_sync_name(pr->chosen), o->cpl, e->seconds_per_step, e->clock_hz / 1e6);
    if (a->steps)
        printf("run of %zu steps: about %.4g s\n", a->steps,
               e->seconds_per_step * (double)a->steps);
    printf("\nbreakdown at the optimal h (Eqs. 24-30, cycles per loop):\n");
    printf("  %-18s %16s %16s\n", "", "restart", "barrier");
    for (int t = 0; t < 7; t++) {
        printf("  %-18s", t < 6 ? term[t] : "CPL (Eq. 24)");
        for (int m = 0; m < 2; m++) {
            const cls_ghost_eval *x = &pr->at_opt[m];
            double v = t == 0 ? x->GlbSync : t == 1 ? x->LoadSten : t == 2 ? x->Commit
                     : t == 3 ? x->MiscComp : t == 4 ? x->IterComp : t == 5 ? x->IterMem : x->CPL;
            if (pr->ok[m])
                printf(" %16.0f", v);
            else
                printf(" %16s", "-");
        }
        printf("\n");
    }
}

static void print_prediction_json(const model_choice *c, cls_stencil *st, const prediction *pr)
{
    cli_json j;
    int dims = cls_stencil_dims(st);
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "model", cls_model_name(c->m));
    cli_json_str(&j, "profile", pr->prof.source);
    cli_json_str(&j, "stencil", cls_stencil_name(st));
    cli_json_size_array(&j, "size", pr->size.n, dims);
    cli_json_size_array(&j, "block", pr->block, dims);
    cli_json_str(&j, "equations", pr->flags == CLS_GHOST_EXECUTOR ? "executor" : "document");
    cli_json_num(&j, "delta", pr->at_opt[0].delta);
    cli_json_str(&j, "sync", cls_sync_name(pr->chosen));
    cli_json_int(&j, "h", pr->opt[pr->chosen == CLS_SYNC_BARRIER].h);
    for (int m = 0; m < 2; m++) {
        if (!pr->ok[m]) continue;
        const cls_ghost_eval *x = &pr->at_opt[m];
        cli_json_object(&j, m ? "barrier" : "restart");
        cli_json_int(&j, "h", pr->opt[m].h);
        cli_json_num(&j, "h_cont", pr->opt[m].h_cont);
        cli_json_int(&j, "h_floor", pr->opt[m].h_floor);
        cli_json_num(&j, "CPL", pr->opt[m].cpl);
        cli_json_object(&j, "breakdown");
        cli_json_num(&j, "GlbSync", x->GlbSync);
        cli_json_num(&j, "LoadSten", x->LoadSten);
        cli_json_num(&j, "Commit", x->Commit);
        cli_json_num(&j, "MiscComp", x->MiscComp);
        cli_json_num(&j, "IterComp", x->IterComp);
        cli_json_num(&j, "IterMem", x->IterMem);
        cli_json_close(&j);
        cli_json_array(&j, "CPL_by_h");
        for (int h = 1; h <= pr->rows; h++) {
            cls_ghost_eval e;
            if (cls_ghost_evaluate(c->m, &pr->prof, pr->size, pr->block, h,
                                   m ? CLS_SYNC_BARRIER : CLS_SYNC_RESTART, pr->flags,
                                   &e) == CLS_SUCCESS && e.feasible)
                cli_json_num(&j, NULL, e.CPL);
        }
        cli_json_close(&j);
        cli_json_close(&j);
    }
    cli_json_end(&j);
}

static int predict(const cli_command *self, const model_args *a, const model_choice *c)
{
    cls_stencil *st = NULL;
    prediction pr;
    int dims, ret = CLI_EXIT_FAIL;
    memset(&pr, 0, sizeof pr);
    if (cli_load_stencil(a->stencil, &st) != CLS_SUCCESS) return CLI_EXIT_FAIL;
    dims = cls_stencil_dims(st);
    if ((a->size_dims && a->size_dims != dims) || (a->block_dims && a->block_dims != dims)) {
        cli_usage_error(self, "stencil '%s' is %dD: --size and --block take %d part%s",
                        cls_stencil_name(st), dims, dims, dims == 1 ? "" : "s");
        cls_stencil_release(st);
        return CLI_EXIT_USAGE;
    }
    if (load_profile(a, c, st, &pr) != CLS_SUCCESS) goto done;
    /* Defaults: the document's Fig. 7 configuration for its profiles, else the profiled tile
     * and the CLI's default grid. */
    pr.size = a->size_dims ? a->size : cli_default_size(dims);
    for (int i = 0; i < 3; i++)
        pr.block[i] = a->block_dims ? a->block.n[i] : pr.prof.tile[i] ? pr.prof.tile[i] : 1;
    if (!a->size_dims && !c->live) {
        /* The document's sizes (Sect. 5.4.2). */
        static const struct { const char *n; cls_dims d; } fig7[] = {
            {"pathfinder", {{1000000, 1, 1}}}, {"hotspot", {{2000, 2000, 1}}},
            {"poisson2d", {{2000, 2000, 1}}},  {"cell3d", {{100, 100, 100}}}};
        for (size_t i = 0; i < sizeof fig7 / sizeof fig7[0]; i++)
            if (strcmp(fig7[i].n, cls_stencil_name(st)) == 0) pr.size = fig7[i].d;
    }
    for (int m = 0; m < 2; m++) {
        cls_sync sy = m ? CLS_SYNC_BARRIER : CLS_SYNC_RESTART;
        if (cls_ghost_optimize(c->m, &pr.prof, pr.size, pr.block, a->steps, sy, pr.flags,
                               &pr.opt[m]) != CLS_SUCCESS)
            continue;
        if (cls_ghost_evaluate(c->m, &pr.prof, pr.size, pr.block, pr.opt[m].h, sy, pr.flags,
                               &pr.at_opt[m]) != CLS_SUCCESS)
            continue;
        pr.ok[m] = 1;
    }
    if (!pr.ok[0] && !pr.ok[1]) {
        cli_fail(CLS_ERR_PLAN_INFEASIBLE);
        goto done;
    }
    /* Sect. 5.5: delta decides with the document's equations; for this library's executors the
     * lower predicted CPL (doc/ghost-zones.md). */
    if (!pr.ok[1])
        pr.chosen = CLS_SYNC_RESTART;
    else if (!pr.ok[0])
        pr.chosen = CLS_SYNC_BARRIER;
    else if (pr.flags == CLS_GHOST_DOCUMENT)
        pr.chosen = pr.at_opt[0].delta >= 0 ? CLS_SYNC_RESTART : CLS_SYNC_BARRIER;
    else
        pr.chosen = pr.opt[1].cpl < pr.opt[0].cpl ? CLS_SYNC_BARRIER : CLS_SYNC_RESTART;
    {
        int hmax = pr.opt[0].h_max > pr.opt[1].h_max ? pr.opt[0].h_max : pr.opt[1].h_max;
        int want = 2 * (pr.opt[0].h > pr.opt[1].h ? pr.opt[0].h : pr.opt[1].h);
        if (want < 16) want = 16;
        pr.rows = hmax < want ? hmax : want;
    }
    if (a->format == CLI_FORMAT_JSON)
        print_prediction_json(c, st, &pr);
    else
        print_prediction_text(a, c, st, &pr);
    ret = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
done:
    cls_stencil_release(st);
    return ret;
}

static int model_main(const cli_command *self, int argc, char **argv)
{
    model_args a;
    model_choice c;
    int exit_now, ret = parse_args(self, argc, argv, &a, &exit_now);
    memset(&c, 0, sizeof c);
    if (ret != CLI_EXIT_OK || exit_now) return ret;
    if (a.list) return show_list(&a);
    if (choose(&a, &c) != CLS_SUCCESS) {
        cls_model_release(c.m);
        return CLI_EXIT_FAIL;
    }
    if (a.stencil) {
        ret = predict(self, &a, &c);
        cls_model_release(c.m);
        return ret;
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
    "       clstencil model --list [--format text|json]\n"
    "       clstencil model [--device NAME|FILE|SEL] STENCIL [--size NXxNYxNZ] [--block BXxBYxBZ]\n"
    "           [--steps N] [--format text|json]",
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
    "With a STENCIL the ghost-zone model (Meng & Skadron 2010) predicts its trapezoid\n"
    "schedule: CPL (cycles per loop) against the trapezoid height h for both sync modes\n"
    "(kernel restart, in-kernel barrier), each mode's optimal h, Eq. 23's delta, the chosen h\n"
    "and mode, and the breakdown of Eqs. 24-30.  A model without a live device uses the\n"
    "document's profiles of its applications (pathfinder, hotspot, poisson2d, cell3d: Table 2)\n"
    "and its equations as printed; a live device measures the stencil's profile (cached) and\n"
    "models this library's executors.\n"
    "\n"
    "Options:\n"
    "  --device X      model name, model file or device selector\n"
    "  --list          list the shipped and installed models ($CLSTENCIL_MODEL_DIR first)\n"
    "  --size S        the stencil's grid (default: the document's, else the CLI's default)\n"
    "  --block B       the thread block = tile, ghost zone included (default: the document's,\n"
    "                  else the profiled tile)\n"
    "  --steps N       bound h by the steps of a run\n"
    "  --format F      text (default) or json\n"
    "  -h, --help      show this help\n",
    model_main,
};
