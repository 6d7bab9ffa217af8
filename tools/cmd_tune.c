/* cmd_tune.c: `clstencil tune`, the plan the ghost-zone model picks for a live device, and with
 * --exhaustive every configuration AUTO chooses from measured beside its prediction. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clstencil_tune.h"

#define DEFAULT_STEPS 64

enum {
    OPT_SIZE = 1, OPT_STEPS, OPT_DTYPE, OPT_BOUNDARY, OPT_PARAM, OPT_DEVICE, OPT_EXHAUSTIVE,
    OPT_REPS, OPT_MAX_H, OPT_ALL_H, OPT_FORMAT, OPT_SYNC, OPT_CSV, OPT_MEDIAN, OPT_WARMUP,
    OPT_CONFIRM
};

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},         {"steps", 1, OPT_STEPS},       {"dtype", 1, OPT_DTYPE},
    {"boundary", 1, OPT_BOUNDARY}, {"param", 1, OPT_PARAM},       {"device", 1, OPT_DEVICE},
    {"exhaustive", 0, OPT_EXHAUSTIVE}, {"reps", 1, OPT_REPS},     {"max-h", 1, OPT_MAX_H},
    {"all-h", 0, OPT_ALL_H},       {"format", 1, OPT_FORMAT},     {"sync", 1, OPT_SYNC},
    {"csv", 1, OPT_CSV},           {"median", 0, OPT_MEDIAN},     {"warmup", 1, OPT_WARMUP},
    {"confirm", 1, OPT_CONFIRM},   {NULL, 0, 0},
};

static void tile_text(char *buf, size_t len, const size_t *t, int dims)
{
    cls_dims d = {{t[0], t[1], t[2]}};
    cli_format_size(buf, len, d, dims);
}

static void entry_text(char *buf, size_t len, const cls_tune_entry *e, int dims)
{
    char tile[64], wg[64];
    tile_text(wg, sizeof wg, e->local_size, dims);
    if (e->schedule != CLS_SCHEDULE_TRAPEZOID) {
        snprintf(buf, len, "%s, work-group %s, %zu point%s per item",
                 cls_schedule_name(e->schedule), wg, e->points_per_item,
                 e->points_per_item == 1 ? "" : "s");
        return;
    }
    tile_text(tile, sizeof tile, e->tile, dims);
    snprintf(buf, len, "trapezoid, tile %s (work-group %s, %zu per item), h %zu, %s", tile, wg,
             e->points_per_item, e->h, cls_sync_name(e->sync));
}

static void per_step(char *buf, size_t len, double run_seconds, size_t steps)
{
    if (run_seconds > 0)
        cli_format_seconds(buf, len, run_seconds / (double)steps);
    else
        snprintf(buf, len, "-");
}

static void print_text(const cls_tune_result *r, const cli_workload *w, const cls_device_info *d,
                       int exhaustive, const cls_tune_options *topt)
{
    const cls_ghost_profile *p = &r->profile;
    char a[256], b[32], c[32], size[96];
    int dims = w->dims;
    cli_stencil_text(a, sizeof a, w->st);
    cli_format_size(size, sizeof size, w->size, dims);
    printf("stencil: %s\ngrid: %s, %zu steps\ndevice: %s (%s)\n", a, size, w->steps, d->name,
           d->platform_name);
    printf("model: %s (%s)\n", r->model, r->model_why);
    printf("profile: %s%s\n", r->profile_from_cache ? "from the cache; " : "", p->source);
    printf("  InstsPerSM_MC %.6g, InstsPerSM_IC %.6g (persistent kernel: %.6g, %.6g), N %.0f\n",
           p->insts_per_sm_mc, p->insts_per_sm_ic, p->insts_per_sm_mc_persistent,
           p->insts_per_sm_ic_persistent, p->n);
    if (p->num_fields > 1 || p->num_stages > 1) {
        /* a system: the fields every trapezoid loads and commits, each stage's reach and cost */
        printf("  system: %g fields loaded and committed per trapezoid, %d stage%s, HaloWidth",
               p->num_fields, p->num_stages, p->num_stages == 1 ? "" : "s");
        for (int i = 0; i < dims; i++) printf("%s%d", i ? "x" : " ", p->halo_width[i]);
        printf(" (the stages' reach summed)\n");
        for (int g = 0; g < p->num_stages && p->num_stages >= 2 && g < 16; g++) {
            printf("  stage %d: HaloWidth", g);
            for (int i = 0; i < dims; i++) printf("%s%d", i ? "x" : " ", p->stage_halo_width[g][i]);
            printf(", InstsPerSM_IC %.6g\n", p->stage_insts_per_sm_ic[g]);
        }
    }
    printf("  alpha %.3f, naive %.4g ns/point, fit error %.1f %%, spread %.1f %%, model error "
           "%+.1f %% (worst whole-kernel check), measured in %.2f s\n",
           p->alpha, p->naive_seconds_per_point * 1e9, 100 * p->fit_error, 100 * p->spread,
           100 * p->model_error, p->seconds);
    entry_text(a, sizeof a, &r->pick, dims);
    per_step(b, sizeof b, r->pick.predicted_seconds, w->steps);
    printf("pick: %s; predicted %s per step\n", a, b);
    entry_text(a, sizeof a, &r->trapezoid, dims);
    per_step(b, sizeof b, r->trapezoid.predicted_seconds, w->steps);
    printf("best trapezoid: %s; predicted %s per step\n", a, b);
    per_step(b, sizeof b, r->naive.predicted_seconds, w->steps);
    printf("naive: predicted %s per step\n", b);
    printf("why: %s\n", r->why);
    if (!exhaustive) {
        printf("\nmodel's candidates (each tile and sync mode at its optimal h):\n");
        printf("  %-12s %-12s %4s %-8s %5s %14s\n", "TILE", "WORK-GROUP", "PPI", "SYNC", "H",
               "PRED/STEP");
        for (size_t i = 0; i < r->n_entries; i++) {
            const cls_tune_entry *e = &r->entries[i];
            char t[64], g[64];
            tile_text(t, sizeof t, e->tile, dims);
            tile_text(g, sizeof g, e->local_size, dims);
            per_step(b, sizeof b, e->predicted_seconds, w->steps);
            printf("  %-12s %-12s %4zu %-8s %5zu %14s\n", t, g, e->points_per_item,
                   cls_sync_name(e->sync), e->h, b);
        }
        return;
    }
    printf("\nexhaustive search (device time per step, %s of the runs; PRED/MEAS the "
           "model's ratio):\n",
           topt->median ? "median" : "minimum");
    printf("  %-10s %-18s %-8s %5s %14s %14s %9s\n", "SCHEDULE", "TILE (WORK-GROUP)", "SYNC", "H",
           "PREDICTED", "MEASURED", "PRED/MEAS");
    for (size_t i = 0; i < r->n_entries; i++) {
        const cls_tune_entry *e = &r->entries[i];
        int trap = e->schedule == CLS_SCHEDULE_TRAPEZOID;
        char t[64], hs[16];
        if (trap) {
            tile_text(t, sizeof t, e->tile, dims);
            snprintf(hs, sizeof hs, "%zu", e->h);
        } else {
            char g[48];
            tile_text(g, sizeof g, e->local_size, dims);
            snprintf(t, sizeof t, "(%s) x%zu", g, e->points_per_item);
            snprintf(hs, sizeof hs, "-");
        }
        per_step(b, sizeof b, e->predicted_seconds, w->steps);
        if (e->status != CLS_SUCCESS)
            snprintf(c, sizeof c, "%s", cls_status_string(e->status));
        else
            per_step(c, sizeof c, e->measured_seconds, w->steps);
        printf("  %-10s %-18s %-8s %5s %14s %14s", cls_schedule_name(e->schedule), t,
               trap ? cls_sync_name(e->sync) : "-", hs, b, c);
        if (e->status == CLS_SUCCESS && e->measured_seconds > 0 && e->predicted_seconds > 0)
            printf(" %9.2f", e->predicted_seconds / e->measured_seconds);
        printf("%s%s%s%s\n", i == r->best_overall ? "  <- best overall" : "",
               trap && i == r->best ? "  <- best trapezoid" : "",
               trap && !memcmp(e->tile, r->trapezoid.tile, sizeof e->tile) &&
                       e->h == r->trapezoid.h && e->sync == r->trapezoid.sync
                   ? "  <- model's trapezoid"
                   : "",
               e->schedule == r->pick.schedule &&
                       !memcmp(e->local_size, r->pick.local_size, sizeof e->local_size) &&
                       e->points_per_item == r->pick.points_per_item &&
                       (!trap || (!memcmp(e->tile, r->pick.tile, sizeof e->tile) &&
                                  e->h == r->pick.h && e->sync == r->pick.sync))
                   ? "  <- AUTO's pick"
                   : "");
    }
    /* Everything AUTO chooses from: the best of it against AUTO's pick. */
    if (r->n_entries && r->entries[r->best_overall].measured_seconds > 0) {
        const cls_tune_entry *e = &r->entries[r->best_overall];
        entry_text(a, sizeof a, e, dims);
        per_step(b, sizeof b, e->measured_seconds, w->steps);
        printf("\nbest measured: %s: %s per step\n", a, b);
    }
    entry_text(a, sizeof a, &r->pick, dims);
    per_step(b, sizeof b, r->pick.measured_seconds, w->steps);
    per_step(c, sizeof c, r->naive.measured_seconds, w->steps);
    printf("AUTO's pick: %s: %s per step (naive %s)\n", a, b, c);
    if (r->overall_ratio > 0)
        printf("ratio best / AUTO's pick: %.3f (%s the 95 %% target)\n", r->overall_ratio,
               r->overall_ratio >= 0.95 ? "meets" : "misses");
    /* The trapezoids alone: the ghost-zone model's own choice against their best. */
    if (r->n_entries && r->entries[r->best].schedule == CLS_SCHEDULE_TRAPEZOID &&
        r->entries[r->best].measured_seconds > 0) {
        const cls_tune_entry *e = &r->entries[r->best];
        entry_text(a, sizeof a, e, dims);
        per_step(b, sizeof b, e->measured_seconds, w->steps);
        printf("best measured trapezoid: %s: %s per step\n", a, b);
    }
    entry_text(a, sizeof a, &r->trapezoid, dims);
    per_step(b, sizeof b, r->trapezoid.measured_seconds, w->steps);
    printf("model's trapezoid: %s: %s per step\n", a, b);
    if (r->ratio > 0)
        printf("ratio best trapezoid / model's trapezoid: %.3f (%s the 95 %% target)\n", r->ratio,
               r->ratio >= 0.95 ? "meets" : "misses");
    if (r->confirmed_overall_ratio > 0 || r->confirmed_ratio > 0)
        printf("confirmed (%zu interleaved rounds of the %d fastest overall and of the "
               "trapezoids, the model's trapezoid and AUTO's pick, least time):\n",
               topt->confirm, CLS_TUNE_CONFIRM_TOP);
    if (r->confirmed_overall_ratio > 0) {
        const cls_tune_entry *e = &r->entries[r->confirmed_best_overall];
        entry_text(a, sizeof a, e, dims);
        per_step(b, sizeof b, e->confirmed_seconds, w->steps);
        per_step(c, sizeof c, r->pick.confirmed_seconds, w->steps);
        printf("  best %s: %s per step; AUTO's pick %s per step\n", a, b, c);
        printf("confirmed ratio best / AUTO's pick: %.3f (%s the 95 %% target)\n",
               r->confirmed_overall_ratio,
               r->confirmed_overall_ratio >= 0.95 ? "meets" : "misses");
    }
    if (r->confirmed_ratio > 0) {
        const cls_tune_entry *e = &r->entries[r->confirmed_best];
        entry_text(a, sizeof a, e, dims);
        per_step(b, sizeof b, e->confirmed_seconds, w->steps);
        per_step(c, sizeof c, r->trapezoid.confirmed_seconds, w->steps);
        printf("  best of the trapezoids %s: %s per step; model's trapezoid %s per step\n", a,
               b, c);
        printf("confirmed ratio best trapezoid / model's trapezoid: %.3f (%s the 95 %% target)\n",
               r->confirmed_ratio, r->confirmed_ratio >= 0.95 ? "meets" : "misses");
    }
}

static void csv_entry(FILE *f, const cls_tune_entry *e, const char *role, const cli_workload *w,
                      const cls_device_info *d, const char *size)
{
    char t[64], g[64];
    tile_text(t, sizeof t, e->tile, w->dims);
    tile_text(g, sizeof g, e->local_size, w->dims);
    cli_csv_field(f, cls_stencil_name(w->st));
    fprintf(f, ",%s,%zu,", size, w->steps);
    cli_csv_field(f, d->name);
    fprintf(f, ",%s,%s,%s,%s,%zu,%zu,%s,%.9g,%.9g,%s,%.9g\n", role,
            cls_schedule_name(e->schedule), e->schedule == CLS_SCHEDULE_TRAPEZOID ? t : "", g,
            e->points_per_item, e->h,
            e->schedule == CLS_SCHEDULE_TRAPEZOID ? cls_sync_name(e->sync) : "",
            e->predicted_seconds / (double)w->steps, e->measured_seconds / (double)w->steps,
            cls_status_string(e->status), e->confirmed_seconds / (double)w->steps);
}

static void print_csv(FILE *f, const cls_tune_result *r, const cli_workload *w,
                      const cls_device_info *d)
{
    char size[96];
    cli_format_size(size, sizeof size, w->size, w->dims);
    fprintf(f, "stencil,size,steps,device,role,schedule,tile,local_size,points_per_item,h,sync,"
               "predicted_seconds_per_step,measured_seconds_per_step,status,"
               "confirmed_seconds_per_step\n");
    /* role best: the fastest trapezoid; the last rows repeat the naive plan, the model's
     * trapezoid, AUTO's pick and (exhaustive) the fastest of every schedule. */
    for (size_t i = 0; i < r->n_entries; i++)
        csv_entry(f, &r->entries[i],
                  i == r->best && r->entries[i].schedule == CLS_SCHEDULE_TRAPEZOID &&
                          r->entries[i].measured_seconds > 0
                      ? "best"
                      : "candidate",
                  w, d, size);
    csv_entry(f, &r->naive, "naive", w, d, size);
    csv_entry(f, &r->trapezoid, "model_trapezoid", w, d, size);
    csv_entry(f, &r->pick, "auto_pick", w, d, size);
    if (r->n_entries && r->entries[r->best_overall].measured_seconds > 0)
        csv_entry(f, &r->entries[r->best_overall], "best_overall", w, d, size);
}

static int tune_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_settings set = {0};
    cli_format format = CLI_FORMAT_TEXT;
    cls_tune_options topt;
    const char *stencil_arg = NULL, *device = NULL, *csv_path = NULL, *v;
    cls_dims size = {{1, 1, 1}};
    int size_dims = 0, id, ret = CLI_EXIT_FAIL, rc, exhaustive = 0;
    size_t steps = DEFAULT_STEPS;
    cli_workload w = {0};
    cls_context *ctx = NULL;
    cls_device_info dev;
    cls_tune_result *r = NULL;

    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--pipeline")) return cli_tune_pipeline_main(self, argc, argv);
    cls_tune_options_init(&topt);
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
        case OPT_MAX_H: {
            size_t *dst = id == OPT_STEPS ? &steps : id == OPT_REPS ? &topt.reps : &topt.max_h;
            if (cli_parse_count(v, dst) != 0 || (id == OPT_REPS && *dst > 32)) {
                ret = cli_usage_error(self, "invalid %s '%s': expected a whole number >= 1%s",
                                      p.opt_name, v, id == OPT_REPS ? " and <= 32" : "");
                goto done;
            }
            break;
        }
        case OPT_WARMUP:
        case OPT_CONFIRM: {
            /* 0 is allowed: no warm-up run, no confirmation */
            char *end = NULL;
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *v == '-' || *end || n > 32) {
                ret = cli_usage_error(self, "invalid %s '%s': expected a whole number 0..32",
                                      p.opt_name, v);
                goto done;
            }
            *(id == OPT_WARMUP ? &topt.warmup : &topt.confirm) = (size_t)n;
            break;
        }
        case OPT_MEDIAN: topt.median = 1; break;
        case OPT_DTYPE: case OPT_BOUNDARY: case OPT_PARAM:
            if ((ret = cli_settings_option(&set, self, p.opt_name + 2, v)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_DEVICE: device = v; break;
        case OPT_EXHAUSTIVE: exhaustive = 1; break;
        case OPT_ALL_H: topt.all_h = 1; break;
        case OPT_CSV: csv_path = v; break;
        case OPT_SYNC:
            if (cls_sync_from_name(v, &topt.sync) != CLS_SUCCESS) {
                ret = cli_usage_error(self, "unknown --sync '%s' (auto, restart or barrier)", v);
                goto done;
            }
            break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_CSV, &format) != 0) {
                ret = cli_usage_error(self, "unknown --format '%s' (text or csv)", v);
                goto done;
            }
            break;
        }
    }
    if (!stencil_arg) {
        ret = cli_usage_error(self, "no stencil given (a built-in name or a JSON spec file)");
        goto done;
    }
    if (csv_path) {
        const char *in = cli_looks_like_path(stencil_arg) ? stencil_arg : NULL;
        if (cli_check_outputs(&csv_path, 1, &in, 1) != CLI_EXIT_OK) goto done;
    }
    if (cli_load_stencil(stencil_arg, &w.st) != CLS_SUCCESS) goto done;
    if (cli_settings_apply(&set, w.st) != CLS_SUCCESS) goto done;
    w.dims = cls_stencil_dims(w.st);
    if (!size_dims) {
        size = cli_default_size(w.dims);
    } else if (size_dims != w.dims) {
        char a[96];
        cli_format_size(a, sizeof a, size, size_dims);
        cli_failf(CLS_ERR_INVALID_SIZE, "--size %s has %d dimension%s but stencil '%s' is %dD",
                  a, size_dims, size_dims == 1 ? "" : "s", cls_stencil_name(w.st), w.dims);
        goto done;
    }
    w.size = size;
    w.steps = steps;
    w.points = cls_dims_points(size);
    if (cli_open_context(device, &ctx, &dev) != CLS_SUCCESS) goto done;
    rc = exhaustive ? cls_tune_exhaustive(ctx, w.st, w.size, w.steps, &topt, &r)
                    : cls_tune(ctx, w.st, w.size, w.steps, &topt, &r);
    if (rc != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    if (format == CLI_FORMAT_CSV)
        print_csv(stdout, r, &w, &dev);
    else
        print_text(r, &w, &dev, exhaustive, &topt);
    ret = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    if (csv_path) {
        cli_out o;
        FILE *f = cli_out_open(&o, csv_path);
        if (f) print_csv(f, r, &w, &dev);
        if (!f || cli_out_close(&o) != CLI_EXIT_OK) ret = CLI_EXIT_FAIL;
    }
done:
    cls_tune_result_release(r);
    cls_context_release(ctx);
    cli_workload_free(&w);
    cli_settings_free(&set);
    return ret;
}

const cli_command cli_cmd_tune = {
    "tune",
    "show the plan the ghost-zone model picks (and, exhaustively, what each would measure)",
    "usage: clstencil tune STENCIL [--size NXxNYxNZ] [--steps N] [--dtype float|double]\n"
    "           [--boundary B] [--param NAME=VALUE]... [--device SEL] [--sync M]\n"
    "           [--exhaustive [--reps R] [--median] [--warmup W] [--confirm C] [--max-h H]\n"
    "           [--all-h]] [--format text|csv]\n"
    "           [--csv FILE]\n"
    "       clstencil tune STENCIL --pipeline [--exhaustive] [--size S] [--steps N1,N2,...]\n"
    "           [--schemes basic,scalable,buffered] [--layouts merged,rect] [--tiles T1,T2,...]\n"
    "           [--reps R] [--confirm C] [--confirm-top K] [--confirm-gap SECONDS]\n"
    "           [--pinned] [--check] [--device-memory SIZE] [--release-buffers] [--csv FILE]",
    "With --pipeline: host-resident runs (doc/pipeline.md, Visschers 2012, Figs. 7.1-7.9): for\n"
    "each step count (steps per tile), copy-compute-copy, the transfer model's pick and every\n"
    "scheme x layout x tile count along the slowest axis (default 1 .. 256), each with its\n"
    "predicted and measured (min, median of R runs after a warm-up) run time, transfers\n"
    "included; the plans keep their device buffers from the warm-up, as a plan run repeatedly\n"
    "does, unless --release-buffers (every run allocates, as Visschers 2012 measured, and the\n"
    "planner ranks by allocation plus run).  --pinned puts the arrays in pinned memory, --check\n"
    "compares every result bitwise with copy-compute-copy's (the host reference's above the\n"
    "--device-memory cap).  After each step count's sweep, copy-compute-copy, the pick and the K\n"
    "fastest tile rows (default 3, at most 8) are re-timed in C interleaved rounds (default 5,\n"
    "at most 64, 0: none) after a warm-up; the \"confirmed\" rows give each one's min and median\n"
    "over the rounds' runs alone (the sweep's runs chose the K rows, so they would favour them),\n"
    "the pick against the fastest and the speed-up over copy-compute-copy: a transient slowdown\n"
    "during one row's consecutive runs does not survive them.\n"
    "--confirm-gap pauses that long between two rounds (default 0, at most 10 s), so that a\n"
    "slow spell of the machine lasting seconds cannot cover every round.\n"
    "\n"
    "Measures (or reads from the cache) the stencil's ghost-zone profile on the device, then\n"
    "prints what the planner picks for a run of N steps on the grid: the schedule\n"
    "(CLS_SCHEDULE_AUTO compares the naive schedule's predicted time with the best trapezoid's),\n"
    "the trapezoid's tile, work-group, height h and sync mode, the predicted times and why;\n"
    "then the model's candidates, each tile and sync mode at its optimal h.\n"
    "\n"
    "With --exhaustive everything AUTO chooses from runs N steps on device-resident data: the\n"
    "naive plan, AUTO's pick (also when it is another schedule) and every feasible trapezoid\n"
    "configuration (candidate tile x sync mode x h).  The table shows the measured time per\n"
    "step beside the predicted one; then the best of everything over AUTO's pick, and the best\n"
    "trapezoid over the model's trapezoid (1 = the pick is the best).  Then the fastest few\n"
    "(overall and among the trapezoids) and both picks are re-timed in turn, C rounds, and the\n"
    "confirmed ratios use their least times: on a noisy (shared) machine those are the\n"
    "comparisons to trust.\n"
    "\n"
    "Options:\n"
    "  --size NXxNYxNZ     grid size (default 1048576, 1024x1024 or 128x128x128)\n"
    "  --steps N           time steps of the run (default 64)\n"
    "  --dtype T           float or double\n"
    "  --boundary B        clamp, constant[=V], periodic or mirror\n"
    "  --param NAME=VALUE  set a declared scalar parameter (repeatable)\n"
    "  --device SEL        device selector (overrides CLSTENCIL_DEVICE)\n"
    "  --sync M            restart or barrier: search that sync mode only (default auto: both)\n"
    "  --exhaustive        measure every configuration\n"
    "  --reps R            exhaustive: timed runs per configuration, least kept (default 3)\n"
    "  --median            exhaustive: keep the median of the runs instead of the least\n"
    "  --warmup W          exhaustive: untimed runs before the timed ones (default 1)\n"
    "  --confirm C         exhaustive: interleaved confirmation rounds (default 5, 0: none)\n"
    "  --max-h H           exhaustive: the largest h tried (default: the steps)\n"
    "  --all-h             exhaustive: every h (default: every h up to 12, then ~25 % steps)\n"
    "  --format F          text (default) or csv (one row per configuration)\n"
    "  --csv FILE          also write the csv table to FILE\n"
    "  -h, --help          show this help\n",
    tune_main,
};
