/* cmd_analyze.c: `clstencil analyze`, CuMAPz memory-access factors and MPE of mapping variants. */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_measure.h"
#include "cli.h"
#include "clstencil_bench.h"
#include "clstencil_model.h"

enum { OPT_DEVICE = 1, OPT_FORMAT, OPT_PARAM, OPT_VARIANT, OPT_LIST, OPT_DUMP, OPT_MAX_WORK,
       OPT_VERBOSE, OPT_MEASURE, OPT_KERNEL, OPT_CL_DEVICE, OPT_CSV, OPT_SUMMARY_CSV, OPT_REPS,
       OPT_QUICK, OPT_SIZE, OPT_SCHEDULE, OPT_TIMES };

static const cli_option options[] = {
    {"device", 1, OPT_DEVICE},     {"format", 1, OPT_FORMAT}, {"param", 1, OPT_PARAM},
    {"variant", 1, OPT_VARIANT},   {"list", 0, OPT_LIST},     {"dump", 0, OPT_DUMP},
    {"max-work", 1, OPT_MAX_WORK}, {"verbose", 0, OPT_VERBOSE},
    {"device-model", 1, OPT_DEVICE}, {"measure", 0, OPT_MEASURE}, {"kernel", 1, OPT_KERNEL},
    {"cl-device", 1, OPT_CL_DEVICE}, {"csv", 1, OPT_CSV}, {"summary-csv", 1, OPT_SUMMARY_CSV},
    {"reps", 1, OPT_REPS}, {"quick", 0, OPT_QUICK}, {"size", 1, OPT_SIZE},
    {"schedule", 1, OPT_SCHEDULE}, {"times", 1, OPT_TIMES}, {NULL, 0, 0},
};

#define DEFAULT_MODEL "c1060"
#define MAX_ARGS 64
#define MAX_FILE_BYTES (16u << 20)

typedef struct analyze_args {
    const char *device;
    const char *what; /* CASE or FILE.json */
    const char *params[MAX_ARGS];
    size_t n_params;
    const char *variants[MAX_ARGS];
    size_t n_variants;
    int list, dump, verbose, measure;
    size_t max_work;
    measure_opts m; /* --measure */
    const char *size, *schedule; /* STENCIL mode */
    int skip_infeasible;         /* STENCIL mode: variants the model cannot run are left out */
    cli_format format;
} analyze_args;

static int parse_args(const cli_command *self, int argc, char **argv, analyze_args *a,
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
            if (a->what) return cli_usage_error(self, "unexpected argument '%s'", v);
            a->what = v;
            break;
        case OPT_DEVICE:
            if (!v[0]) return cli_usage_error(self, "--device needs a model name or file");
            a->device = v;
            break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON, &a->format) != 0)
                return cli_usage_error(self, "unknown --format '%s' (text or json)", v);
            break;
        case OPT_PARAM: {
            char name[64];
            const char *value;
            if (cli_parse_assign(v, name, sizeof name, &value) != 0 || !value[0])
                return cli_usage_error(self, "--param expects NAME=VALUE, got '%s'", v);
            if (a->n_params == MAX_ARGS) return cli_usage_error(self, "too many --param");
            a->params[a->n_params++] = v;
            break;
        }
        case OPT_VARIANT:
            if (!v[0]) return cli_usage_error(self, "--variant needs a variant name");
            if (a->n_variants == MAX_ARGS) return cli_usage_error(self, "too many --variant");
            a->variants[a->n_variants++] = v;
            break;
        case OPT_LIST: a->list = 1; break;
        case OPT_DUMP: a->dump = 1; break;
        case OPT_VERBOSE: a->verbose = 1; break;
        case OPT_MAX_WORK:
            if (cli_parse_count(v, &a->max_work) != 0)
                return cli_usage_error(self, "--max-work expects a positive count, got '%s'", v);
            break;
        case OPT_MEASURE: a->measure = 1; break;
        case OPT_SIZE: a->size = v; break;
        case OPT_SCHEDULE: a->schedule = v; break;
        case OPT_QUICK: a->m.quick = 1; break;
        case OPT_KERNEL:
            if (a->m.n_kernels == sizeof a->m.kernels / sizeof a->m.kernels[0])
                return cli_usage_error(self, "too many --kernel");
            a->m.kernels[a->m.n_kernels++] = v;
            break;
        case OPT_CL_DEVICE: a->m.cl_device = v; break;
        case OPT_CSV: a->m.csv = v; break;
        case OPT_SUMMARY_CSV: a->m.summary_csv = v; break;
        case OPT_TIMES:
            if (a->m.n_times == sizeof a->m.times / sizeof a->m.times[0])
                return cli_usage_error(self, "too many --times");
            a->m.times[a->m.n_times++] = v;
            break;
        case OPT_REPS:
            if (cli_parse_count(v, &a->m.reps) != 0 || a->m.reps > 100000)
                return cli_usage_error(self, "--reps expects a count 1..100000, got '%s'", v);
            break;
        }
    }
    if (a->measure) {
        if (a->what || a->list || a->dump || a->n_params || a->n_variants || a->size ||
            a->schedule)
            return cli_usage_error(self, "--measure runs the built-in experiment; it takes no "
                                         "CASE, --list, --dump, --param, --variant, --size or "
                                         "--schedule");
        if (a->m.n_times && (a->m.cl_device || a->m.reps || a->m.quick || !a->device))
            return cli_usage_error(self, "--times re-analyses measured times: it needs --device "
                                         "and takes no --cl-device, --reps or --quick");
        a->m.model = a->device;
        a->m.max_work = a->max_work;
        return CLI_EXIT_OK;
    }
    if (a->m.n_kernels || a->m.cl_device || a->m.csv || a->m.summary_csv || a->m.reps ||
        a->m.quick || a->m.n_times)
        return cli_usage_error(self, "--kernel, --cl-device, --csv, --summary-csv, --reps, "
                                     "--quick and --times go with --measure");
    if (a->list && (a->what || a->dump || a->device || a->n_params || a->n_variants))
        return cli_usage_error(self, "--list takes no other argument");
    if (!a->list && !a->what)
        return cli_usage_error(self, "name a built-in case or a description file (--list shows "
                                     "the cases)");
    if (a->dump && (a->device || a->n_params || a->n_variants || a->verbose || a->max_work))
        return cli_usage_error(self, "--dump prints the description only; it takes no --device, "
                                     "--param, --variant, --max-work or --verbose");
    return CLI_EXIT_OK;
}

/* The i-th variant's name. */
static const char *variant_name(const cls_access_set *set, size_t i)
{
    return cls_access_name(cls_access_set_variant(set, i));
}

static int list_cases(cli_format format)
{
    if (format == CLI_FORMAT_JSON) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_array(&j, "cases");
        for (size_t i = 0; i < cls_cumapz_case_count(); i++) {
            cli_json_object(&j, NULL);
            cli_json_str(&j, "name", cls_cumapz_case_name(i));
            cli_json_str(&j, "summary", cls_cumapz_case_summary(i));
            cli_json_close(&j);
        }
        cli_json_close(&j);
        cli_json_end(&j);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < cls_cumapz_case_count(); i++)
        printf("%-12s %s\n", cls_cumapz_case_name(i), cls_cumapz_case_summary(i));
    return CLI_EXIT_OK;
}

static int selected(const analyze_args *a, const char *name)
{
    if (a->n_variants == 0) return 1;
    for (size_t i = 0; i < a->n_variants; i++)
        if (strcmp(a->variants[i], name) == 0) return 1;
    return 0;
}

/* The term of the bottleneck with its value, "-" when none. */
static void bottleneck_text(const cls_cumapz_result *r, char *buf, size_t len)
{
    double eff;
    cls_cumapz_term t = cls_cumapz_bottleneck(r, &eff);
    if (t == CLS_CUMAPZ_NONE) snprintf(buf, len, "-");
    else snprintf(buf, len, "%s %.2f", cls_cumapz_term_name(t), eff);
}

static void print_text(const analyze_args *a, const cls_model *m, const cls_access_set *set,
                       const cls_cumapz_result *r, const int *rank, const int *use, double best)
{
    size_t w = 7, best_i = SIZE_MAX;
    printf("model:  %s (%s family, %s)\n", cls_model_name(m), cls_model_family(m),
           cls_model_origin(m));
    printf("case:   %s: %s\n", cls_access_set_name(set), cls_access_set_description(set));
    if (cls_access_set_source(set)[0]) printf("source: %s\n", cls_access_set_source(set));
    for (size_t i = 0; i < cls_access_set_count(set); i++)
        if (use[i] && strlen(variant_name(set, i)) > w) w = strlen(variant_name(set, i));
    printf("\n%-*s %10s %10s %8s %8s %8s %10s %9s %6s %4s  %s\n", (int)w, "variant", "data_reuse",
           "lat_hiding", "bw_util", "ch_skew", "shm_eff", "branch_eff", "MPE", "rel", "rank",
           "bottleneck");
    for (size_t i = 0; i < cls_access_set_count(set); i++) {
        char bn[48];
        if (!use[i]) continue;
        if (rank[i] == 1 && best_i == SIZE_MAX) best_i = i;
        bottleneck_text(&r[i], bn, sizeof bn);
        printf("%-*s %10.4f %10.4f %8.4f %8.3f %8.4f %10.4f %9.5f %6.3f %4d  %s\n", (int)w,
               variant_name(set, i), r[i].data_reuse, r[i].lat_hiding, r[i].bw_util, r[i].ch_skew,
               r[i].shm_eff, r[i].branch_eff, r[i].mpe, best > 0 ? r[i].mpe / best : 0, rank[i],
               bn);
    }
    if (a->verbose) {
        printf("\n%-*s %7s %5s %6s %12s %12s %6s %6s %5s  %s\n", (int)w, "variant", "occ%",
               "blks", "loads", "bytes_shmem", "bytes_tr", "n_blk", "degree", "paths",
               "worst channel instruction (Eq. 5: max/min blocks per channel)");
        for (size_t i = 0; i < cls_access_set_count(set); i++) {
            const cls_cumapz_result *x = &r[i];
            if (!use[i]) continue;
            printf("%-*s %7.1f %5u %6.2f %12llu %12llu %6llu %6u %5.3f  %s %.2f (%u/%u on %u "
                   "of %u)%s\n",
                   (int)w, variant_name(set, i), x->occupancy_pct, x->max_blks, x->n_shm_load,
                   (unsigned long long)x->bytes_shmem, (unsigned long long)x->bytes_tr,
                   (unsigned long long)x->n_blk_to_check, x->worst_degree,
                   x->n_ref_warp ? (double)x->n_diverged / (double)x->n_ref_warp : 0.0,
                   x->ch_worst_path[0] ? x->ch_worst_path : "-", x->ch_worst_skew,
                   x->max_n_block_per_ch, x->min_n_block_per_ch, x->channels_used, x->n_channels,
                   x->ch_skew_skipped ? " (skipped: too few work-groups)" : "");
        }
    }
    if (best_i != SIZE_MAX) {
        char bn[48];
        bottleneck_text(&r[best_i], bn, sizeof bn);
        printf("\nbest: %s (MPE %.5f); its bottleneck: %s\n", variant_name(set, best_i),
               r[best_i].mpe, bn);
    }
}

static void print_json(const cls_model *m, const cls_access_set *set, const cls_cumapz_result *r,
                       const int *rank, const int *use, double best)
{
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "model", cls_model_name(m));
    cli_json_str(&j, "family", cls_model_family(m));
    cli_json_str(&j, "case", cls_access_set_name(set));
    cli_json_str(&j, "description", cls_access_set_description(set));
    cli_json_str(&j, "source", cls_access_set_source(set));
    cli_json_array(&j, "variants");
    for (size_t i = 0; i < cls_access_set_count(set); i++) {
        const cls_cumapz_result *x = &r[i];
        double eff;
        cls_cumapz_term t;
        if (!use[i]) continue;
        t = cls_cumapz_bottleneck(x, &eff);
        cli_json_object(&j, NULL);
        cli_json_str(&j, "name", variant_name(set, i));
        cli_json_str(&j, "description", cls_access_description(cls_access_set_variant(set, i)));
        cli_json_num(&j, "data_reuse", x->data_reuse);
        cli_json_num(&j, "lat_hiding", x->lat_hiding);
        cli_json_num(&j, "bw_util", x->bw_util);
        cli_json_num(&j, "ch_skew", x->ch_skew);
        cli_json_num(&j, "shm_eff", x->shm_eff);
        cli_json_num(&j, "branch_eff", x->branch_eff);
        cli_json_num(&j, "mpe", x->mpe);
        cli_json_num(&j, "mpe_relative", best > 0 ? x->mpe / best : 0);
        cli_json_int(&j, "rank", rank[i]);
        cli_json_str(&j, "bottleneck", cls_cumapz_term_name(t));
        cli_json_num(&j, "bottleneck_value", eff);
        cli_json_object(&j, "counts");
        cli_json_uint(&j, "bytes_shmem", x->bytes_shmem);
        cli_json_uint(&j, "bytes_buffered", x->bytes_buffered);
        cli_json_uint(&j, "shm_reads", x->shm_reads);
        cli_json_num(&j, "occupancy_pct", x->occupancy_pct);
        cli_json_uint(&j, "max_blks", x->max_blks);
        cli_json_num(&j, "n_shm_load", x->n_shm_load);
        cli_json_uint(&j, "bytes_access", x->bytes_access);
        cli_json_uint(&j, "bytes_tr", x->bytes_tr);
        cli_json_uint(&j, "transactions", x->transactions);
        cli_json_uint(&j, "n_blk_to_check", x->n_blk_to_check);
        cli_json_bool(&j, "ch_skew_skipped", x->ch_skew_skipped);
        cli_json_num(&j, "ch_worst_skew", x->ch_worst_skew);
        cli_json_str(&j, "ch_worst_instruction", x->ch_worst_path);
        cli_json_uint(&j, "max_n_block_per_ch", x->max_n_block_per_ch);
        cli_json_uint(&j, "min_n_block_per_ch", x->min_n_block_per_ch);
        cli_json_uint(&j, "channels_used", x->channels_used);
        cli_json_uint(&j, "n_bk_conflict", x->n_bk_conflict);
        cli_json_uint(&j, "shm_passes_ideal", x->shm_passes_ideal);
        cli_json_uint(&j, "worst_degree", x->worst_degree);
        cli_json_uint(&j, "n_path", x->n_path);
        cli_json_uint(&j, "n_ref_warp", x->n_ref_warp);
        cli_json_uint(&j, "n_warp", x->n_warp);
        cli_json_uint(&j, "evaluations", x->evaluations);
        cli_json_num(&j, "seconds", x->seconds);
        cli_json_close(&j);
        cli_json_close(&j);
    }
    cli_json_close(&j);
    cli_json_end(&j);
}

static int analyse_json(const analyze_args *ap, const char *label, char *json);
static int analyse_stencil(const analyze_args *a);

static int analyze_main(const cli_command *self, int argc, char **argv)
{
    analyze_args a;
    int exit_now, rc;
    char *json = NULL;

    rc = parse_args(self, argc, argv, &a, &exit_now);
    if (rc != CLI_EXIT_OK || exit_now) return rc;
    if (a.measure) return analyze_measure(&a.m);
    if (a.list) return list_cases(a.format);
    if (a.size || (!cli_looks_like_path(a.what) && cls_cumapz_case_json(a.what, &json) != CLS_SUCCESS &&
                   cls_stencil_builtin_summary(a.what)))
        return analyse_stencil(&a);
    free(json);
    json = NULL;
    if (cli_looks_like_path(a.what)) {
        json = cli_read_file(a.what, MAX_FILE_BYTES, "a description");
        if (!json) return CLI_EXIT_FAIL;
    } else if (cls_cumapz_case_json(a.what, &json) != CLS_SUCCESS) {
        return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                         "%s (a file needs a '/' or the .json "
                         "suffix)",
                         cls_last_error());
    }
    if (a.dump) {
        fputs(json, stdout);
        fputc('\n', stdout);
        free(json);
        return CLI_EXIT_OK;
    }
    return analyse_json(&a, a.what, json);
}

/* Parses, analyses and prints a description (takes json). */
static int analyse_json(const analyze_args *ap, const char *label, char *json)
{
    const analyze_args a = *ap;
    int rc, use[CLS_ACC_MAX_VARIANTS] = {0}, rank[CLS_ACC_MAX_VARIANTS] = {0};
    char names[2048];
    cls_model *m = NULL;
    cls_access_set *set = NULL;
    cls_cumapz_result *r = NULL;
    cls_cumapz_options opt;
    cls_status st;
    size_t n_use = 0;
    double best = 0, secs = 0;

    st = cls_access_set_from_json(json, a.params, a.n_params, &set);
    free(json);
    if (st != CLS_SUCCESS) return cli_failf(st, "%s: %s", label, cls_last_error());
    for (size_t k = 0; k < a.n_variants; k++) {
        size_t i;
        for (i = 0; i < cls_access_set_count(set); i++)
            if (strcmp(variant_name(set, i), a.variants[k]) == 0) break;
        if (i == cls_access_set_count(set)) {
            size_t len = 0;
            names[0] = '\0';
            for (size_t j = 0; j < cls_access_set_count(set) && len < sizeof names; j++)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", j ? ", " : "",
                                        variant_name(set, j));
            cls_access_set_free(set);
            return cli_failf(CLS_ERR_INVALID_ARGUMENT, "%s has no variant '%s' (it has: %s)", label,
                             a.variants[k], names);
        }
    }
    st = cls_model_load(a.device ? a.device : DEFAULT_MODEL, &m);
    if (st != CLS_SUCCESS) {
        cls_access_set_free(set);
        return cli_fail(st);
    }
    r = calloc(cls_access_set_count(set), sizeof *r);
    if (!r) {
        rc = cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "no memory for %zu results",
                       cls_access_set_count(set));
        goto done;
    }
    opt.max_work = a.max_work;
    for (size_t i = 0; i < cls_access_set_count(set); i++) {
        if (!selected(&a, variant_name(set, i))) continue;
        st = cls_cumapz_analyze(m, cls_access_set_variant(set, i), &opt, &r[i]);
        if (st == CLS_ERR_PLAN_INFEASIBLE && a.skip_infeasible) {
            /* a published variant this device cannot run: left out, said why */
            fprintf(stderr, "left out %s: %s\n", variant_name(set, i), cls_last_error());
            continue;
        }
        if (st != CLS_SUCCESS) {
            rc = cli_failf(st, "%s, variant %s on %s: %s", label, variant_name(set, i),
                           cls_model_name(m), cls_last_error());
            goto done;
        }
        use[i] = 1;
        n_use++;
        secs += r[i].seconds;
        if (r[i].mpe > best) best = r[i].mpe;
    }
    for (size_t i = 0; i < cls_access_set_count(set); i++) {
        if (!use[i]) continue;
        rank[i] = 1;
        for (size_t k = 0; k < cls_access_set_count(set); k++)
            if (use[k] && r[k].mpe > r[i].mpe * (1 + 1e-9)) rank[i]++;
    }
    fprintf(stderr, "analysed %zu variant%s of %s on %s in %.2f s\n", n_use, n_use == 1 ? "" : "s",
            cls_access_set_name(set), cls_model_name(m), secs);
    if (a.format == CLI_FORMAT_JSON) print_json(m, set, r, rank, use, best);
    else print_text(&a, m, set, r, rank, use, best);
    rc = CLI_EXIT_OK;
done:
    free(r);
    cls_access_set_free(set);
    cls_model_release(m);
    return rc;
}

/* STENCIL mode: the descriptions the kernel templates publish for each schedule (or the one
 * named) at the size, analysed side by side (lib/access_publish.c). */
static int analyse_stencil(const analyze_args *a)
{
    cls_stencil *st = NULL;
    cls_dims dims = {{1, 1, 1}};
    int nd = 0, rc = CLI_EXIT_OK;
    cls_schedule scheds[3];
    size_t n_sched = 0;

    if (cli_load_stencil(a->what, &st) != CLS_SUCCESS) return CLI_EXIT_FAIL;
    const int sd = cls_stencil_dims(st);
    if (a->size) {
        if (cli_parse_size(a->size, &dims, &nd) != 0 || nd != sd) {
            cls_stencil_release(st);
            return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                             "--size '%s': '%s' is %d-D and needs %d sizes (e.g. %s)", a->size,
                             a->what, sd, sd, sd == 1 ? "1048576" : sd == 2 ? "4096x4096"
                                                                           : "512x512x512");
        }
    } else {
        for (int d = 0; d < sd; d++) dims.n[d] = sd == 1 ? 1048576 : sd == 2 ? 4096 : 512;
    }
    if (a->schedule) {
        if (cls_schedule_from_name(a->schedule, &scheds[0]) != CLS_SUCCESS) {
            cls_stencil_release(st);
            return cli_failf(CLS_ERR_INVALID_ARGUMENT, "--schedule '%s': naive, trapezoid or "
                                                       "stream25d",
                             a->schedule);
        }
        n_sched = 1;
    } else {
        scheds[n_sched++] = CLS_SCHEDULE_NAIVE;
        if (sd == 2) scheds[n_sched++] = CLS_SCHEDULE_TRAPEZOID;
        if (sd == 3) scheds[n_sched++] = CLS_SCHEDULE_STREAM25D;
    }
    for (size_t i = 0; i < n_sched && rc == CLI_EXIT_OK; i++) {
        char *json = NULL, label[160];
        cls_status s = cls_mapping_describe(st, dims, scheds[i], &json);
        if (s != CLS_SUCCESS) {
            rc = cli_fail(s);
            break;
        }
        snprintf(label, sizeof label, "%s (%s)", a->what, cls_schedule_name(scheds[i]));
        if (a->dump) {
            printf("%s\n", json);
            cls_free(json);
            continue;
        }
        if (i) printf("\n");
        char *copy = malloc(strlen(json) + 1);
        if (!copy) {
            cls_free(json);
            rc = cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "no memory");
            break;
        }
        strcpy(copy, json);
        cls_free(json);
        analyze_args b = *a;
        b.skip_infeasible = 1;
        rc = analyse_json(&b, label, copy);
    }
    cls_stencil_release(st);
    return rc;
}

const cli_command cli_cmd_analyze = {
    "analyze",
    "rank kernel mappings by their memory behaviour (CuMAPz factors and MPE)",
    "usage: clstencil analyze [--device MODEL|FILE] [--param NAME=VALUE]... [--variant NAME]...\n"
    "           [--max-work N] [--verbose] [--format text|json] CASE|FILE.json\n"
    "       clstencil analyze --dump CASE|FILE.json\n"
    "       clstencil analyze --list [--format text|json]\n"
    "       clstencil analyze [--device MODEL|FILE] [--size NXxNY[xNZ]]\n"
    "           [--schedule naive|trapezoid|stream25d] [--dump] STENCIL\n"
    "       clstencil analyze --measure [--kernel fig|transpose|stencil2d|loaders]...\n"
    "           [--device MODEL|FILE] [--cl-device SEL] [--reps N] [--quick] [--csv FILE]\n"
    "           [--summary-csv FILE]\n"
    "       clstencil analyze --measure --device MODEL|FILE --times CSV [--times CSV]...\n"
    "           [--kernel K]... [--csv FILE] [--summary-csv FILE]",
    "Emulates every warp of every work-group of a kernel's memory accesses, as CuMAPz does\n"
    "(Kim & Shrivastava, Fig. 4), on a device model's family rules, and prints for each\n"
    "mapping variant the six factors of Sect. 5 side by side: data_reuse (Eq. 1), lat_hiding\n"
    "(Eq. 2), bw_util (Eq. 3), ch_skew (Eqs. 4-5), shm_eff (Eq. 6), branch_eff (Eq. 7), and\n"
    "their product MPE (Eq. 8, larger is better), its ratio to the best variant, the rank, and\n"
    "the bottleneck: the term that costs the variant most.  MPE compares variants of one\n"
    "kernel only (Sect. 8).\n"
    "\n"
    "CASE is a built-in description (--list): the worked examples of Kim & Shrivastava\n"
    "(fig2-fetch, fig2-layout, fig2-write), a matrix transpose, and 2D/3D stencil loaders of\n"
    "Mo & Li, Sect. 4.  FILE.json is a description of your own; doc/memory-analysis.md gives\n"
    "the format, and --dump prints a case as a starting point.\n"
    "STENCIL (a built-in stencil or, with --size, a spec file): the kernel templates publish\n"
    "the description of every mapping variant of each schedule (naive work-group shapes,\n"
    "trapezoid tiles and work-group shapes, stream25d classic/aligned loaders x shapes), and\n"
    "each schedule's variants are ranked side by side.\n"
    "Sizes are reduced from the documents' (Sect. 7: the ranking holds on a reduced input\n"
    "that keeps the row pitch); --param changes them.\n"
    "\n"
    "Options:\n"
    "  --device X      model name (default c1060, the document's GT200) or model file\n"
    "  --param N=V     replace a param of the description in every variant (repeatable)\n"
    "  --variant NAME  analyse only this variant (repeatable)\n"
    "  --max-work N    bound on work-item references per variant (default 60000000)\n"
    "  --verbose       also print occupancy, loads, bytes, conflicts, divergence, channels\n"
    "  --dump          print the description's JSON and exit\n"
    "  --list          list the built-in cases\n"
    "  --format F      text (default) or json\n"
    "  --device-model X  the same as --device\n"
    "\n"
    "The correlation experiment (Kim & Shrivastava, Sect. 6, Figs. 7-10), --measure: every\n"
    "mapping variant of four kernels of cl/mapping_bench.cl (fig: Fig. 1/2's fetch, layout and\n"
    "write choices; transpose; stencil2d: loaders, layouts, shapes; loaders: the 3D z-march's\n"
    "classic and aligned loaders) is analysed on the model (default: the live device's) and\n"
    "timed on the live device; per kernel the factors, MPE, the fastest time and GB/s, the\n"
    "Pearson correlation of MPE with 1/time, and whether the top-ranked variant runs within\n"
    "90 % of the fastest.\n"
    "  --kernel K      run only this kernel (repeatable)\n"
    "  --cl-device S   the device to time on (default: $CLSTENCIL_DEVICE or the first)\n"
    "  --reps N        timed launches per variant, the fastest counts (default 10; 3 --quick)\n"
    "  --quick         small sizes: checks the whole path, not the device\n"
    "  --csv FILE      one row per variant; --summary-csv FILE: one row per kernel\n"
    "  --times CSV     no device: take each variant's time from a CSV that --csv wrote (the\n"
    "                  fastest over repeated --times) and re-analyse it on --device's model\n"
    "  -h, --help      show this help\n",
    analyze_main,
};
