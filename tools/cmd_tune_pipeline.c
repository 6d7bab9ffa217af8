/* cmd_tune_pipeline.c: `clstencil tune --pipeline`: predicted and measured run time of a
 * host-resident run against the tile size, per scheme and copy layout, beside copy-compute-copy
 * and the model's pick (Visschers 2012, Figs. 7.1-7.9, Tables A.1-A.21).  Every run
 * includes allocation and transfers, as the document timed them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum {
    OPT_SIZE = 1, OPT_STEPS, OPT_DTYPE, OPT_BOUNDARY, OPT_PARAM, OPT_DEVICE, OPT_PIPELINE,
    OPT_SCHEMES, OPT_TILES, OPT_LAYOUTS, OPT_REPS, OPT_PINNED, OPT_MEMORY, OPT_CSV, OPT_CHECK,
    OPT_RELEASE,
    OPT_EXHAUSTIVE, OPT_CONFIRM, OPT_CONFIRM_TOP, OPT_CONFIRM_GAP
};

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},           {"steps", 1, OPT_STEPS},     {"dtype", 1, OPT_DTYPE},
    {"boundary", 1, OPT_BOUNDARY},   {"param", 1, OPT_PARAM},     {"device", 1, OPT_DEVICE},
    {"pipeline", 0, OPT_PIPELINE},   {"schemes", 1, OPT_SCHEMES}, {"tiles", 1, OPT_TILES},
    {"layouts", 1, OPT_LAYOUTS},     {"reps", 1, OPT_REPS},       {"pinned", 0, OPT_PINNED},
    {"device-memory", 1, OPT_MEMORY}, {"csv", 1, OPT_CSV},        {"check", 0, OPT_CHECK},
    {"exhaustive", 0, OPT_EXHAUSTIVE}, {"confirm", 1, OPT_CONFIRM},
    {"confirm-top", 1, OPT_CONFIRM_TOP}, {"confirm-gap", 1, OPT_CONFIRM_GAP},
    {"release-buffers", 0, OPT_RELEASE}, {NULL, 0, 0},
};

/* "1,2,5" into at most cap counts >= 1; returns how many, 0 on a bad list. */
static size_t parse_list(const char *s, size_t *out, size_t cap)
{
    size_t n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == cap || cli_parse_count(tok, &out[n]) != 0) return 0;
        n++;
    }
    return n;
}

/* The re-timing after each step count's sweep: copy-compute-copy, the pick and the fastest
 * few tile rows, run in turn (A B C A B C ...) so that a transient slowdown of the device,
 * which hits the consecutive runs of one row in the sweep, hits every row alike here. */
#define MAX_CONFIRM 64
#define MAX_CONFIRM_TOP 8
#define MAX_TIMES (64 + MAX_CONFIRM)

typedef struct ctx_t {
    cls_context *ctx;
    cli_workload *w;
    size_t reps, confirm, confirm_top;
    double confirm_gap; /* seconds between two rounds */
    int pinned;
    int release; /* --release-buffers: every run allocates (Visschers' protocol) */
    double cap;
    void *expect; /* copy-compute-copy's result, for --check */
    FILE *csv;
    char size_text[64];
} ctx_t;

/* How a plan moves the grid (its pipeline parameters). */
typedef struct pconf {
    int on;             /* the runs pipeline */
    char scheme[16];    /* "off", "basic", ... */
    cls_dims tile;
    size_t tiles, steps;
    int rect;
    char why[1024];
} pconf;

typedef struct meas {
    double predicted, min, median;
    int check; /* -1 not checked, 0 differs, 1 bitwise */
    pconf info;
    double t[MAX_TIMES]; /* every timed run, the sweep's first, then the confirmation's */
    size_t n;
} meas;

/* min and median of m's timings so far */
static void summarize(meas *m)
{
    double s[MAX_TIMES];
    memcpy(s, m->t, m->n * sizeof *s);
    m->median = cli_median(s, m->n);
    m->min = s[0];
}

/* The options of a configuration: the run's own, and its pipeline parameters. */
typedef struct config {
    cls_plan_options opt;
    char params[160];
} config;

static const cls_plan_options *options_of(config *k)
{
    k->opt.params = k->params;
    return &k->opt;
}

static void pconf_of(const cls_plan *plan, const cls_plan_info *pi, pconf *p)
{
    const char *t;
    memset(p, 0, sizeof *p);
    p->on = pi->host_schedule == CLS_SCHEDULE_PIPELINE;
    snprintf(p->scheme, sizeof p->scheme, "%s",
             p->on && (t = cls_plan_param(plan, "pipeline.scheme")) ? t : "off");
    cli_plan_size_param(plan, "pipeline.tile", &p->tile);
    if ((t = cls_plan_param(plan, "pipeline.tiles"))) p->tiles = (size_t)strtoull(t, NULL, 10);
    if ((t = cls_plan_param(plan, "pipeline.steps"))) p->steps = (size_t)strtoull(t, NULL, 10);
    if ((t = cls_plan_param(plan, "pipeline.rect"))) p->rect = !strcmp(t, "1");
    snprintf(p->why, sizeof p->why, "%s", pi->host_why);
}

static int measure(ctx_t *c, config *k, meas *m)
{
    cls_plan *plan = NULL;
    cls_plan_info pi;
    int rc = cls_plan_create(c->ctx, c->w->st, c->w->size, c->w->steps, options_of(k), &plan);
    if (rc != CLS_SUCCESS) return rc;
    cls_plan_describe(plan, &pi);
    pconf_of(plan, &pi, &m->info);
    /* the timed runs follow a warm-up: they allocate only with --release-buffers */
    m->predicted = pi.predicted_total_seconds;
    if (c->release && m->predicted > 0) m->predicted += pi.predicted_alloc_seconds;
    size_t bytes = c->w->points * cls_dtype_size(cls_stencil_dtype(c->w->st));
    for (size_t r = 0; r <= c->reps && rc == CLS_SUCCESS; r++) {
        cls_report rep;
        rc = cls_plan_run(plan, c->w->input, (const void *const *)c->w->aux, c->w->output, &rep);
        if (r) m->t[r - 1] = rep.seconds_total;
    }
    cls_plan_release(plan);
    if (rc != CLS_SUCCESS) return rc;
    m->n = c->reps;
    summarize(m);
    m->check = -1;
    if (c->expect) m->check = memcmp(c->expect, c->w->output, bytes) == 0;
    return CLS_SUCCESS;
}

static void tile_text(char *tile, size_t len, const pconf *i, int dims)
{
    size_t n = 0;
    snprintf(tile, len, "-");
    if (i->on)
        for (int d = 0; d < dims; d++)
            n += (size_t)snprintf(tile + n, len - n, "%s%zu", d ? "x" : "", i->tile.n[d]);
}

/* One table row.  role NULL: a sweep row (kind naive, pick or tile); otherwise a confirmation
 * row (kind "confirmed", role naive, pick or tile), its min and median over all its runs and
 * its error against the minimum, the figure the acceptance compares. */
static void row(ctx_t *c, const char *kind, const char *role, const meas *m, int dims)
{
    char tile[64];
    const pconf *i = &m->info;
    tile_text(tile, sizeof tile, i, dims);
    const char *scheme = i->scheme;
    const char *layout = !i->on ? "-" : i->rect ? "rect" : "merged";
    double ref = role ? m->min : m->median;
    printf("%-6s %-9s %-6s %-14s %6zu %5zu %12.3f %12.3f %12.3f %7.1f%% %s", role ? role : kind,
           scheme, layout, tile, i->tiles, c->w->steps, m->predicted * 1e3, m->min * 1e3,
           m->median * 1e3, m->predicted > 0 ? 100 * (m->predicted - ref) / ref : 0,
           m->check < 0 ? "" : m->check ? "bitwise" : "DIFFERS");
    if (role) printf("%s%zu runs", m->check < 0 ? "" : ", ", m->n);
    printf("\n");
    if (c->csv)
        fprintf(c->csv, "%s,%s,%zu,%s,%s,%s,%s,%zu,%zu,%.9g,%.9g,%.9g,%s,%d,%.9g,%zu,%s\n",
                cls_stencil_name(c->w->st), c->size_text, c->w->steps, kind, scheme, layout, tile,
                i->tiles, i->steps, m->predicted, m->min, m->median,
                m->check < 0 ? "" : m->check ? "bitwise" : "differs", c->pinned, c->cap, m->n,
                role ? role : "");
    if (c->csv) fflush(c->csv);
    fflush(stdout);
}

typedef struct cand {
    config opt;
    const char *role; /* naive, pick or tile */
    meas m;           /* the sweep's row, its timings extended by the rounds */
} cand;

static int same_config(const pconf *a, const pconf *b)
{
    return a->on == b->on && !strcmp(a->scheme, b->scheme) && a->rect == b->rect &&
           a->steps == b->steps && !memcmp(&a->tile, &b->tile, sizeof a->tile);
}

/* Keeps top[] (at most k, fastest first by the sweep's minimum) up to date with one tile row;
 * a result that differs from the reference, or the pick's own configuration, is no candidate. */
static void consider(cand *top, size_t *n, size_t k, const cand *pick, const config *opt,
                     const meas *m)
{
    if (m->check == 0 || (pick && same_config(&pick->m.info, &m->info))) return;
    size_t j = *n;
    while (j > 0 && top[j - 1].m.min > m->min) j--;
    if (j >= k) return;
    size_t last = *n < k ? *n : k - 1;
    memmove(&top[j + 1], &top[j], (last - j) * sizeof *top);
    top[j].opt = *opt;
    top[j].role = "tile";
    top[j].m = *m;
    if (*n < k) (*n)++;
}

/* The confirmation of one step count: every candidate's plan is created and warmed up once,
 * then c->confirm rounds run each candidate once, in a shuffled order; each row's minimum and
 * median are over its rounds alone.  The sweep's runs chose the K fastest rows, so counting
 * them favours those rows over the pick by the luck that chose them: on the H100 the fastest
 * row's minimum came from its 3 sweep runs, not its 8 rounds, in 82 of 120 cases (27 % expected
 * without that luck; doc/pipeline.md). */
/* One run of a candidate's plan; on failure the plan is dropped with a line saying why. */
static int confirm_run(ctx_t *c, cand *cd, cls_plan **plan, cls_report *rep)
{
    int rc = cls_plan_run(*plan, c->w->input, (const void *const *)c->w->aux, c->w->output, rep);
    if (rc != CLS_SUCCESS) {
        printf("confirm %s: %s\n", cd->role, cls_last_error());
        cls_plan_release(*plan);
        *plan = NULL;
    }
    return rc;
}

static void confirm(ctx_t *c, cand *cs, size_t n, int dims)
{
    cls_plan *plans[MAX_CONFIRM_TOP + 2] = {0};
    size_t bytes = c->w->points * cls_dtype_size(cls_stencil_dtype(c->w->st));
    cls_report rep;
    for (size_t i = 0; i < n; i++) {
        if (cls_plan_create(c->ctx, c->w->st, c->w->size, c->w->steps, options_of(&cs[i].opt),
                            &plans[i]) != CLS_SUCCESS) {
            printf("confirm %s: %s\n", cs[i].role, cls_last_error());
            plans[i] = NULL;
            continue;
        }
        confirm_run(c, &cs[i], &plans[i], &rep); /* warm-up */
    }
    /* Each round runs the candidates in its own shuffled order, so that no candidate always
     * runs right after the same one.  Copy-compute-copy frees two whole-grid buffers, and the
     * run after it is slower: on the H100 a fixed order made the picks always follow it, and
     * merely rotating the order kept that adjacency in every round but one in n
     * (doc/pipeline.md). */
    unsigned long long lcg = 0x2545F4914F6CDD1DULL;
    size_t order[MAX_CONFIRM_TOP + 2];
    for (size_t i = 0; i < n; i++) cs[i].m.n = 0; /* the rounds' runs alone */
    for (size_t r = 0; r < c->confirm; r++) {
        for (size_t j = 0; j < n; j++) order[j] = j;
        for (size_t j = n; j > 1; j--) { /* Fisher-Yates with a fixed-seed LCG: reproducible */
            lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t k = (size_t)(lcg >> 33) % j, x = order[j - 1];
            order[j - 1] = order[k], order[k] = x;
        }
        /* The H100's slow spells last seconds (doc/pipeline.md): rounds run back to back (a few
         * tens of ms) can all fall into one; a gap spreads them. */
        if (r > 0 && c->confirm_gap > 0) {
            struct timespec ts = {(time_t)c->confirm_gap,
                                  (long)((c->confirm_gap - (double)(time_t)c->confirm_gap) * 1e9)};
            nanosleep(&ts, NULL);
        }
        for (size_t j = 0; j < n; j++) {
            size_t i = order[j];
            if (!plans[i] || confirm_run(c, &cs[i], &plans[i], &rep) != CLS_SUCCESS) continue;
            cs[i].m.t[cs[i].m.n++] = rep.seconds_total;
            /* the naive candidate is the reference itself */
            if (c->expect && strcmp(cs[i].role, "naive") && memcmp(c->expect, c->w->output, bytes))
                cs[i].m.check = 0;
        }
    }
    for (size_t i = 0; i < n; i++) cls_plan_release(plans[i]);
    printf("confirmed (%zu interleaved rounds of copy-compute-copy, the pick and the %zu fastest "
           "tile rows, after a warm-up, %g s apart; min and median over the rounds' runs, "
           "pred-min against the min):\n",
           c->confirm, c->confirm_top, c->confirm_gap);
    const cand *best = NULL, *pick = NULL, *naive = NULL;
    for (size_t i = 0; i < n; i++) {
        if (cs[i].m.n == 0) continue; /* its plan failed; the line above says why */
        summarize(&cs[i].m);
        row(c, "confirmed", cs[i].role, &cs[i].m, dims);
        if (!strcmp(cs[i].role, "naive")) naive = &cs[i];
        else if (!best || cs[i].m.min < best->m.min) best = &cs[i];
        if (!strcmp(cs[i].role, "pick")) pick = &cs[i];
    }
    if (pick && best) {
        char tile[64];
        tile_text(tile, sizeof tile, &best->m.info, dims);
        if (best == pick)
            printf("  confirmed pick vs fastest: the pick is the fastest (+0.0 %%)");
        else
            printf("  confirmed pick vs fastest (%s %s, %zu tiles): %+.1f %%",
                   best->m.info.scheme, tile, best->m.info.tiles,
                   100 * (pick->m.min / best->m.min - 1));
        if (naive) printf("; speed-up over copy-compute-copy %.2fx", naive->m.min / pick->m.min);
        printf(" (minima)\n");
    }
    fflush(stdout);
}

static const char *const scheme_names[3] = {"basic", "scalable", "buffered"};

int cli_tune_pipeline_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_settings set = {0};
    const char *stencil_arg = NULL, *device = NULL, *csv_path = NULL, *v;
    cli_out csv_out = {0};
    cls_dims size = {{1, 1, 1}};
    int size_dims = 0, id, ret = CLI_EXIT_FAIL, rc, check = 0;
    size_t steps_list[16] = {1}, n_steps = 1, tiles[64], n_tiles = 0;
    int schemes[3] = {1, 1, 1}, layouts[2] = {1, 0};
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.reps = 3;
    c.confirm = 5;
    c.confirm_top = 3;
    cli_workload w = {0};
    void *orig_in = NULL, *orig_out = NULL;
    cls_device_info dev;

    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); ret = CLI_EXIT_OK; goto done;
        case CLI_OPT_ERROR: ret = CLI_EXIT_USAGE; goto done;
        case CLI_OPT_POSITIONAL:
            if (stencil_arg) {
                ret = cli_usage_error(self, "more than one stencil ('%s' and '%s')", stencil_arg, v);
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
            if (!(n_steps = parse_list(v, steps_list, 16))) {
                ret = cli_usage_error(self, "invalid --steps '%s' (counts, comma-separated)", v);
                goto done;
            }
            break;
        case OPT_TILES:
            if (!(n_tiles = parse_list(v, tiles, 64))) {
                ret = cli_usage_error(self, "invalid --tiles '%s' (tile counts along the slowest "
                                      "axis, comma-separated)", v);
                goto done;
            }
            break;
        case OPT_SCHEMES:
        case OPT_LAYOUTS: {
            char buf[128];
            int *flags = id == OPT_SCHEMES ? schemes : layouts;
            memset(flags, 0, (id == OPT_SCHEMES ? 3 : 2) * sizeof(int));
            snprintf(buf, sizeof buf, "%s", v);
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                int sc = -1;
                for (int k = 0; k < 3; k++)
                    if (!strcmp(tok, scheme_names[k])) sc = k;
                if (id == OPT_LAYOUTS && !strcmp(tok, "merged")) layouts[0] = 1;
                else if (id == OPT_LAYOUTS && !strcmp(tok, "rect")) layouts[1] = 1;
                else if (id == OPT_SCHEMES && sc >= 0)
                    schemes[sc] = 1;
                else {
                    ret = cli_usage_error(self, "invalid --%s entry '%s'",
                                          id == OPT_SCHEMES ? "schemes" : "layouts", tok);
                    goto done;
                }
            }
            break;
        }
        case OPT_REPS:
            if (cli_parse_count(v, &c.reps) != 0 || c.reps > 64) {
                ret = cli_usage_error(self, "invalid --reps '%s' (1..64)", v);
                goto done;
            }
            break;
        case OPT_CONFIRM:
        case OPT_CONFIRM_TOP: {
            size_t n = 0;
            int top = id == OPT_CONFIRM_TOP, bad;
            /* --confirm 0 turns the confirmation off */
            if (!top && !strcmp(v, "0")) bad = 0;
            else bad = cli_parse_count(v, &n) != 0 || n > (top ? MAX_CONFIRM_TOP : MAX_CONFIRM);
            if (bad) {
                ret = cli_usage_error(self, top ? "invalid --confirm-top '%s' (1..%d)"
                                                : "invalid --confirm '%s' (0..%d)",
                                      v, top ? MAX_CONFIRM_TOP : MAX_CONFIRM);
                goto done;
            }
            *(top ? &c.confirm_top : &c.confirm) = n;
            break;
        }
        case OPT_CONFIRM_GAP:
            if (cli_parse_double(v, &c.confirm_gap) != 0 || c.confirm_gap < 0 ||
                c.confirm_gap > 10) {
                ret = cli_usage_error(self, "invalid --confirm-gap '%s' (0..10 seconds)", v);
                goto done;
            }
            break;
        case OPT_MEMORY:
            if (cli_parse_bytes(v, &c.cap) != 0) {
                ret = cli_usage_error(self, "invalid --device-memory '%s' (bytes, K/M/G suffixes)", v);
                goto done;
            }
            break;
        case OPT_PINNED: c.pinned = 1; break;
        case OPT_RELEASE: c.release = 1; break;
        case OPT_CHECK: check = 1; break;
        case OPT_CSV: csv_path = v; break;
        case OPT_DEVICE: device = v; break;
        case OPT_PIPELINE: case OPT_EXHAUSTIVE: break;
        case OPT_DTYPE: case OPT_BOUNDARY: case OPT_PARAM:
            if ((ret = cli_settings_option(&set, self, p.opt_name + 2, v)) != CLI_EXIT_OK) goto done;
            ret = CLI_EXIT_FAIL;
            break;
        }
    }
    if (!stencil_arg) {
        ret = cli_usage_error(self, "no stencil given");
        goto done;
    }
    if (csv_path) {
        const char *in = cli_looks_like_path(stencil_arg) ? stencil_arg : NULL;
        if (cli_check_outputs(&csv_path, 1, &in, 1) != CLI_EXIT_OK) goto done;
    }
    if (cli_load_stencil(stencil_arg, &w.st) != CLS_SUCCESS) goto done;
    if (cli_settings_apply(&set, w.st) != CLS_SUCCESS) goto done;
    int dims = cls_stencil_dims(w.st);
    if (!size_dims) size = cli_default_size(dims), size_dims = dims;
    if (size_dims != dims) {
        ret = cli_usage_error(self, "--size has %d dimensions, the stencil %d", size_dims, dims);
        goto done;
    }
    if (!n_tiles) {
        /* Visschers' lists cover 1 to 12800 tiles; these keep the run short on a fast device */
        static const size_t deflt[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
        n_tiles = sizeof deflt / sizeof deflt[0];
        memcpy(tiles, deflt, sizeof deflt);
    }
    w.size = size;
    w.steps = steps_list[0];
    cli_format_size(c.size_text, sizeof c.size_text, size, dims);
    if (csv_path && !(c.csv = cli_out_open(&csv_out, csv_path))) goto done;
    if (c.csv)
        fprintf(c.csv, "stencil,size,steps,kind,scheme,layout,tile,tiles,steps_per_tile,"
                       "predicted_s,measured_min_s,measured_median_s,check,pinned,cap_bytes,"
                       "runs,role\n");
    if (cli_open_context(device, &c.ctx, &dev) != CLS_SUCCESS) goto done;
    c.w = &w;
    if ((rc = cli_workload_fill(&w)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    size_t bytes = w.points * cls_dtype_size(cls_stencil_dtype(w.st));
    if (c.pinned) {
        void *pi = NULL, *po = NULL;
        if ((rc = cls_host_alloc(c.ctx, bytes, &pi)) != CLS_SUCCESS ||
            (rc = cls_host_alloc(c.ctx, bytes, &po)) != CLS_SUCCESS) {
            cls_host_free(c.ctx, pi);
            cli_fail(rc);
            goto done;
        }
        memcpy(pi, w.input, bytes);
        orig_in = w.input, orig_out = w.output;
        w.input = pi, w.output = po;
    }
    if (check && !(c.expect = malloc(bytes))) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "the check's copy");
        goto done;
    }
    printf("device: %s; %s %s, %s host arrays, %zu timed runs each after a warm-up (ms, "
           "transfers included, %s)\n",
           dev.name, cls_stencil_name(w.st), c.size_text, c.pinned ? "pinned" : "pageable", c.reps,
           c.release ? "every run allocating its device buffers"
                     : "device buffers kept from the warm-up");
    printf("%-6s %-9s %-6s %-14s %6s %5s %12s %12s %12s %8s\n", "kind", "scheme", "layout", "tile",
           "tiles", "steps", "predicted", "min", "median", "pred-med");
    for (size_t si = 0; si < n_steps; si++) {
        w.steps = steps_list[si];
        config opt;
        memset(&opt, 0, sizeof opt);
        cls_plan_options_init(&opt.opt);
        opt.opt.schedule = CLS_SCHEDULE_NAIVE;
        opt.opt.host_pinned = c.pinned;
        opt.opt.device_memory = c.cap;
        opt.opt.release_buffers = c.release;
        meas m;
        cand cs[MAX_CONFIRM_TOP + 2], top[MAX_CONFIRM_TOP];
        size_t n_cs = 0, n_top = 0;
        const cand *pick = NULL;
        void *keep = c.expect;
        /* copy-compute-copy (when it fits the cap), its result the reference of --check */
        c.expect = NULL;
        snprintf(opt.params, sizeof opt.params, "pipeline.scheme=off");
        if ((rc = measure(&c, &opt, &m)) == CLS_SUCCESS) {
            row(&c, "naive", NULL, &m, dims);
            cs[n_cs++] = (cand){opt, "naive", m};
            if (keep) memcpy(keep, w.output, bytes);
        } else {
            printf("naive: %s\n", cls_last_error());
            if (keep) {
                /* above the cap: the host reference instead */
                if ((rc = cls_reference_run(w.st, w.size, w.steps, w.input,
                                            (const void *const *)w.aux, keep)) != CLS_SUCCESS) {
                    cli_fail(rc);
                    goto done;
                }
            }
        }
        c.expect = keep;
        snprintf(opt.params, sizeof opt.params, "pipeline.scheme=auto");
        if ((rc = measure(&c, &opt, &m)) == CLS_SUCCESS) {
            row(&c, "pick", NULL, &m, dims);
            printf("  why: %s\n", m.info.why);
            cs[n_cs] = (cand){opt, "pick", m};
            pick = &cs[n_cs++];
        } else {
            printf("pick: %s\n", cls_last_error());
        }
        for (int s = 0; s < 3; s++) {
            if (!schemes[s]) continue;
            for (int l = 0; l < 2; l++) {
                if (!layouts[l] || (l == 1 && dims == 1)) continue;
                size_t last = 0;
                for (size_t t = 0; t < n_tiles; t++) {
                    size_t n = size.n[dims - 1], len = (n + tiles[t] - 1) / tiles[t];
                    if (len == last || tiles[t] > n) continue;
                    last = len;
                    size_t tl[3] = {1, 1, 1};
                    for (int d = 0; d < dims; d++) tl[d] = size.n[d];
                    tl[dims - 1] = len;
                    snprintf(opt.params, sizeof opt.params,
                             "pipeline.scheme=%s pipeline.tile=%zux%zux%zu pipeline.steps=%zu "
                             "pipeline.rect=%d",
                             scheme_names[s], tl[0], tl[1], tl[2], w.steps, l);
                    if ((rc = measure(&c, &opt, &m)) == CLS_SUCCESS) {
                        row(&c, "tile", NULL, &m, dims);
                        consider(top, &n_top, c.confirm_top, pick, &opt, &m);
                    } else
                        printf("%s %zu tiles: %s\n", scheme_names[s], tiles[t],
                               cls_last_error());
                }
            }
        }
        if (c.confirm && n_cs + n_top > 1) {
            memcpy(&cs[n_cs], top, n_top * sizeof *top);
            confirm(&c, cs, n_cs + n_top, dims);
        }
    }
    c.csv = NULL;
    ret = cli_out_close(&csv_out);
done:
    if (c.pinned && orig_in) {
        cls_host_free(c.ctx, w.input);
        cls_host_free(c.ctx, w.output);
        w.input = orig_in, w.output = orig_out;
    }
    cli_out_discard(&csv_out);
    free(c.expect);
    cls_context_release(c.ctx);
    cli_workload_free(&w);
    cli_settings_free(&set);
    return ret;
}
