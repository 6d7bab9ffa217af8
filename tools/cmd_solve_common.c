/* cmd_solve_common.c: the solver commands' shared options, run reports and the comparison of
 * schedules (the document's Figs. 7-13 as tables). */
#include <stdlib.h>
#include <string.h>

#include "clstencil_solver.h"
#include "cmd_solve.h"

static const char *const all_variants[] = {"base",      "coarse",    "ud-stripe",
                                           "ud-square", "4w-stripe", "4w-square",
                                           "4w-combine-stripe", "4w-combine-square"};

void cli_solver_args_init(cli_solver_args *a)
{
    memset(a, 0, sizeof *a);
    cls_solver_options_init(&a->opt);
    a->format = CLI_FORMAT_TEXT;
    a->repeat = 1;
}

/* "10,20,40" into list (each >= 1). */
static int parse_counts(const char *s, size_t *list, size_t *n)
{
    char buf[512];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    *n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (*n >= CLI_MAX_LIST || cli_parse_count(tok, &list[*n]) != 0) return -1;
        (*n)++;
    }
    return *n ? 0 : -1;
}

int cli_solver_option(cli_solver_args *a, const cli_command *cmd, int id, const char *v)
{
    cls_solver_options *o = &a->opt;
    size_t n;
    double d;
    switch (id) {
    case SO_SCHEDULE:
        if (cls_solver_variant_parse(v, o) != CLS_SUCCESS)
            return cli_usage_error(cmd, "%s", cls_last_error());
        return CLI_EXIT_OK;
    case SO_CHECK:
    case SO_EXCHANGE:
    case SO_PPI:
    case SO_SQUARE:
    case SO_MAX_WG:
    case SO_MAX_STEPS:
    case SO_REPEAT:
        if (cli_parse_count(v, &n) != 0)
            return cli_usage_error(cmd, "--%s: a whole number >= 1 expected, got '%s'",
                                   id == SO_CHECK      ? "check-interval"
                                   : id == SO_EXCHANGE ? "exchange-interval"
                                   : id == SO_PPI      ? "points-per-item"
                                   : id == SO_SQUARE   ? "square"
                                   : id == SO_REPEAT   ? "repeat"
                                   : id == SO_MAX_WG   ? "max-work-group"
                                                       : "max-steps",
                                   v);
        if (id == SO_CHECK) o->check_interval = n;
        if (id == SO_EXCHANGE) o->exchange_interval = n;
        if (id == SO_PPI) o->points_per_item = n;
        if (id == SO_SQUARE) o->square = n;
        if (id == SO_MAX_STEPS) o->max_steps = n;
        if (id == SO_REPEAT) a->repeat = n;
        if (id == SO_MAX_WG) o->max_work_group = n;
        return CLI_EXIT_OK;
    case SO_COMM:
        if (!strcmp(v, "0")) {
            o->comm_items = 0;
        } else if (cli_parse_count(v, &n) != 0) {
            return cli_usage_error(cmd, "--comm-items: a whole number >= 0 expected, got '%s'", v);
        } else {
            o->comm_items = n;
        }
        return CLI_EXIT_OK;
    case SO_BLOCK: {
        cls_dims dm;
        int nd;
        if (cli_parse_size(v, &dm, &nd) != 0 || nd != 2)
            return cli_usage_error(cmd, "--block: BXxBY expected (e.g. 32x20), got '%s'", v);
        o->block[0] = dm.n[0];
        o->block[1] = dm.n[1];
        return CLI_EXIT_OK;
    }
    case SO_NORM:
        if (cls_norm_from_name(v, &o->norm) != CLS_SUCCESS)
            return cli_usage_error(cmd, "%s", cls_last_error());
        return CLI_EXIT_OK;
    case SO_CRITERION:
        if (cls_criterion_from_name(v, &o->criterion) != CLS_SUCCESS)
            return cli_usage_error(cmd, "%s", cls_last_error());
        return CLI_EXIT_OK;
    case SO_TOLERANCE:
    case SO_DIVERGENCE:
    case SO_MAX_SECONDS:
        if (cli_parse_double(v, &d) != 0 || d < 0 || (id != SO_DIVERGENCE && d == 0))
            return cli_usage_error(cmd, "--%s: a %s number expected, got '%s'",
                                   id == SO_TOLERANCE   ? "tolerance"
                                   : id == SO_DIVERGENCE ? "divergence-factor"
                                                         : "max-seconds",
                                   id == SO_DIVERGENCE ? "non-negative" : "positive", v);
        if (id == SO_TOLERANCE) o->tolerance = d, a->have_tolerance = 1;
        else if (id == SO_DIVERGENCE) o->divergence_factor = d;
        else o->max_seconds = d;
        return CLI_EXIT_OK;
    case SO_WRITE_UNCONVERGED: o->write_unconverged = 1; return CLI_EXIT_OK;
    case SO_HISTORY: a->history = v; return CLI_EXIT_OK;
    case SO_COMPARE: a->compare = 1; return CLI_EXIT_OK;
    case SO_VARIANTS: {
        static char buf[512];
        cls_solver_options tmp;
        if (strlen(v) >= sizeof buf) return cli_usage_error(cmd, "--variants: list too long");
        strcpy(buf, v);
        a->n_variants = 0;
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            cls_solver_options_init(&tmp);
            if (a->n_variants >= CLI_MAX_LIST || cls_solver_variant_parse(tok, &tmp) != CLS_SUCCESS)
                return cli_usage_error(cmd, "--variants: %s", cls_last_error());
            a->variants[a->n_variants++] = tok;
        }
        if (!a->n_variants) return cli_usage_error(cmd, "--variants: an empty list");
        return CLI_EXIT_OK;
    }
    case SO_CHECKS:
    case SO_EXCHANGES:
        if (parse_counts(v, id == SO_CHECKS ? a->checks : a->exchanges,
                         id == SO_CHECKS ? &a->n_checks : &a->n_exchanges) != 0)
            return cli_usage_error(cmd, "--%s: a comma-separated list of whole numbers >= 1 "
                                        "expected (at most %d), got '%s'",
                                   id == SO_CHECKS ? "check-intervals" : "exchange-intervals",
                                   CLI_MAX_LIST, v);
        return CLI_EXIT_OK;
    case SO_DEVICE: a->device = v; return CLI_EXIT_OK;
    case SO_FORMAT:
        if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON | CLI_FORMAT_CSV, &a->format) != 0)
            return cli_usage_error(cmd, "unknown --format '%s' (text, json or csv)", v);
        return CLI_EXIT_OK;
    default: return -1;
    }
}

/* A block-shape field: its value, or "auto" where the solver was to choose and did not say. */
static const char *shape_field(char *buf, size_t len, size_t v)
{
    if (v == CLS_SOLVER_AUTO)
        snprintf(buf, len, "auto");
    else
        snprintf(buf, len, "%zu", v);
    return buf;
}

/* The schedule as run: the block shape the solver chose (r->solver, when it was created), else
 * the request. */
static void options_text(char *buf, size_t len, const cls_solver_options *req,
                         const cls_solver_report *r)
{
    char name[64], bx[24], by[24], p[24], c[24], lim[48] = "";
    const cls_solver_options *o = r && r->solver.work_group ? &r->solver.options : req;
    cls_solver_variant_name(o, name, sizeof name);
    if (o->schedule == CLS_SOLVER_BASE) {
        snprintf(buf, len, "%s", name);
        return;
    }
    if (r && r->solver.work_group)
        snprintf(lim, sizeof lim, ", %zu work-items of at most %zu", r->solver.work_group,
                 r->solver.work_group_limit);
    snprintf(buf, len, "%s (n = %zu, l = %zu, block %sx%s, %s points per item, %s comm items%s)",
             name, o->check_interval, o->exchange_interval,
             shape_field(bx, sizeof bx, o->block[0]), shape_field(by, sizeof by, o->block[1]),
             shape_field(p, sizeof p, o->points_per_item),
             shape_field(c, sizeof c, o->comm_items), lim);
}

static const char *outcome_name(cls_solver_outcome o)
{
    return o == CLS_SOLVER_CONVERGED   ? "converged"
           : o == CLS_SOLVER_DIVERGED  ? "diverged"
           : o == CLS_SOLVER_FAILED    ? "error"
                                       : "not converged";
}

void cli_solver_report_text(FILE *f, const cls_solver_options *o, const cls_solver_report *r)
{
    char buf[320], t1[32], t2[32], t3[32];
    options_text(buf, sizeof buf, o, r);
    fprintf(f, "schedule:   %s\n", buf);
    fprintf(f, "criterion:  %s %s <= %g\n", cls_norm_name(o->norm), cls_criterion_name(o->criterion),
            o->tolerance);
    if (r->outcome == CLS_SOLVER_FAILED)
        fprintf(f, "outcome:    error: %s\n", r->message[0] ? r->message : "(no message)");
    else
        fprintf(f, "outcome:    %s\n", r->message);
    fprintf(f, "steps:      %zu in %zu host synchronisations\n", r->steps, r->syncs);
    cli_format_seconds(t1, sizeof t1, r->seconds_loop);
    cli_format_seconds(t2, sizeof t2, r->seconds_device);
    cli_format_seconds(t3, sizeof t3, r->seconds_per_step);
    fprintf(f, "time:       %s (iterations), %s of kernels, %s per step\n", t1, t2, t3);
}

void cli_solver_report_json(cli_json *j, const cls_solver_options *o, const cls_solver_report *r)
{
    char name[64];
    if (r->solver.work_group) o = &r->solver.options; /* the shape as run */
    cls_solver_variant_name(o, name, sizeof name);
    cli_json_str(j, "schedule", name);
    cli_json_uint(j, "check_interval", o->check_interval);
    cli_json_uint(j, "exchange_interval", o->exchange_interval);
    if (r->solver.work_group) {
        cli_json_size_array(j, "block", o->block, 2);
        cli_json_uint(j, "points_per_item", o->points_per_item);
        cli_json_uint(j, "comm_items", o->comm_items);
        cli_json_uint(j, "work_group", r->solver.work_group);
        cli_json_uint(j, "work_group_limit", r->solver.work_group_limit);
    } else {
        cli_json_str(j, "block", "not chosen (no solver)");
    }
    cli_json_str(j, "norm", cls_norm_name(o->norm));
    cli_json_str(j, "criterion", cls_criterion_name(o->criterion));
    cli_json_num(j, "tolerance", o->tolerance);
    cli_json_str(j, "outcome", outcome_name(r->outcome));
    cli_json_str(j, "message", r->message);
    cli_json_uint(j, "steps", r->steps);
    cli_json_uint(j, "checks", r->syncs);
    cli_json_num(j, "final_norm", r->norm);
    cli_json_num(j, "seconds_total", r->seconds_total);
    cli_json_num(j, "seconds_loop", r->seconds_loop);
    cli_json_num(j, "seconds_device", r->seconds_device);
    cli_json_num(j, "seconds_per_step", r->seconds_per_step);
}

int cli_solver_write_history(const char *path, const cls_solver_report *r)
{
    cli_out o;
    FILE *f = cli_out_open(&o, path);
    if (!f) return CLI_EXIT_FAIL;
    fprintf(f, "steps,norm\n");
    for (size_t i = 0; i < r->history_length; i++)
        fprintf(f, "%zu,%.9g\n", r->history_steps[i], r->history_norms[i]);
    return cli_out_close(&o);
}

/* One row of a comparison. */
typedef struct row {
    char variant[64];
    size_t n, l;
    int status;
    cls_solver_outcome outcome;
    size_t steps, syncs, extra_steps;
    double seconds, device, per_step, norm, extra_seconds;
    size_t block[2], ppi, comm;  /* the shape the solver chose (0: not created) */
    char error[256];             /* an error's status and message ("" if none) */
} row;

/* Prints row r of a comparison in CSV or text (the header before the first). */
static void print_row(const cli_solver_args *a, const char *job, const row *r, double base_seconds)
{
    double sp = base_seconds > 0 && r->seconds > 0 ? base_seconds / r->seconds : 0;
    if (a->format == CLI_FORMAT_CSV) {
        cli_csv_field(stdout, job);
        printf(",%s,%zu,%zu,%s,%zu,%zu,%.6g,%.6g,%.6g,%.4g,%.6g,%zu,%.6g,%zux%zu,%zu,%zu,",
               r->variant, r->n, r->l, outcome_name(r->outcome), r->steps, r->syncs, r->seconds,
               r->device, r->per_step, sp, r->norm, r->extra_steps, r->extra_seconds,
               r->block[0], r->block[1], r->ppi, r->comm);
        cli_csv_field(stdout, r->error);
        printf("\n");
    } else {
        char l[24] = "-", sps[24] = "-";
        if (r->l) snprintf(l, sizeof l, "%zu", r->l);
        if (sp > 0) snprintf(sps, sizeof sps, "%.2fx", sp);
        printf("%-20s %5zu %4s %-13s %8zu %7zu %10.4f %10.4f %11.2f %8s\n", r->variant, r->n, l,
               outcome_name(r->outcome), r->steps, r->syncs, r->seconds, r->device,
               r->per_step * 1e6, sps);
    }
    fflush(stdout);
}

int cli_solver_compare(const cli_solver_args *a, const char *job, cli_solve_fn fn, void *user)
{
    const char *const *given = a->n_variants ? a->variants : all_variants;
    size_t nv = a->n_variants ? a->n_variants : sizeof all_variants / sizeof all_variants[0];
    /* Base first: the rows are printed as they finish (CSV and text), so that a run stopped
     * from outside (a timeout) keeps what it measured, each with its speed-up over base. */
    const char *variants[CLI_MAX_LIST > 8 ? CLI_MAX_LIST : 8];
    size_t nvv = 0;
    for (size_t v = 0; v < nv; v++) {
        cls_solver_options t;
        cls_solver_options_init(&t);
        cls_solver_variant_parse(given[v], &t);
        if (t.schedule == CLS_SOLVER_BASE) variants[nvv++] = given[v];
    }
    for (size_t v = 0; v < nv; v++) {
        cls_solver_options t;
        cls_solver_options_init(&t);
        cls_solver_variant_parse(given[v], &t);
        if (t.schedule != CLS_SOLVER_BASE) variants[nvv++] = given[v];
    }
    size_t checks_default[1] = {a->opt.check_interval}, ex_default[1] = {a->opt.exchange_interval};
    const size_t *checks = a->n_checks ? a->checks : checks_default;
    const size_t *exs = a->n_exchanges ? a->exchanges : ex_default;
    size_t nc = a->n_checks ? a->n_checks : 1, ne = a->n_exchanges ? a->n_exchanges : 1;
    size_t cap = nv * nc * ne, nrows = 0;
    row *rows = calloc(cap, sizeof *rows);
    double *times = calloc(a->repeat, sizeof *times);
    if (!rows || !times) {
        free(rows);
        free(times);
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "the comparison table");
    }

    /* Warm-up: the kernels of a step and of a pass compiled and loaded (the library builds
     * one program for every variant); its outcome does not matter. */
    for (int w = 0; w < 2; w++) {
        cls_solver_options o = a->opt;
        o.schedule = w ? CLS_SOLVER_4W_COMBINE : CLS_SOLVER_BASE;
        o.max_steps = w ? o.check_interval : 2;
        o.write_unconverged = 0;
        cli_solve_result r;
        memset(&r, 0, sizeof r);
        fn(user, &o, &r);
        cls_solver_report_clear(&r.report);
    }

    if (a->format == CLI_FORMAT_CSV) {
        printf("job,variant,check_interval,exchange_interval,outcome,steps,checks,seconds,"
               "device_seconds,seconds_per_step,speedup_over_base,final_norm,extra_steps,"
               "extra_seconds,block,points_per_item,comm_items,error\n");
    } else if (a->format != CLI_FORMAT_JSON) {
        printf("%s: %s %s <= %g, median of %zu run%s\n", job, cls_norm_name(a->opt.norm),
               cls_criterion_name(a->opt.criterion), a->opt.tolerance, a->repeat,
               a->repeat > 1 ? "s" : "");
        printf("%-20s %5s %4s %-13s %8s %7s %10s %10s %11s %8s\n", "variant", "n", "l", "outcome",
               "steps", "checks", "time (s)", "device (s)", "us per step", "vs base");
    }
    fflush(stdout);
    int failed = 0;
    double base_seconds = 0;
    for (size_t v = 0; v < nv; v++) {
        cls_solver_options base = a->opt;
        cls_solver_variant_parse(variants[v], &base);
        int is_base = base.schedule == CLS_SOLVER_BASE;
        int exchanges = base.schedule >= CLS_SOLVER_UD;
        for (size_t ci = 0; ci < (is_base ? 1 : nc); ci++)
            for (size_t li = 0; li < (exchanges ? ne : 1); li++) {
                cls_solver_options o = base;
                o.check_interval = checks[ci];
                o.exchange_interval = exs[li];
                row *rw = &rows[nrows++];
                cls_solver_variant_name(&o, rw->variant, sizeof rw->variant);
                rw->n = is_base ? 1 : o.check_interval;
                rw->l = exchanges ? o.exchange_interval : 0;
                for (size_t k = 0; k < a->repeat; k++) {
                    cli_solve_result r;
                    memset(&r, 0, sizeof r);
                    r.report.outcome = CLS_SOLVER_FAILED; /* until the run says otherwise */
                    fn(user, &o, &r);
                    /* An error is a failed run whatever its report holds (never converged). */
                    int error = r.status != CLS_SUCCESS && r.status != CLS_ERR_NOT_CONVERGED &&
                                r.status != CLS_ERR_DIVERGED;
                    if (error) r.report.outcome = CLS_SOLVER_FAILED;
                    times[k] = r.report.seconds_loop;
                    /* The row keeps the last run's counts (they repeat) and the median time;
                     * a run that did not converge (a time limit can stop one of several)
                     * keeps its counts and outcome, so the row never looks converged. */
                    if (k == 0 || rw->outcome == CLS_SOLVER_CONVERGED) {
                        rw->status = r.status;
                        rw->outcome = r.report.outcome;
                        rw->steps = r.report.steps;
                        rw->syncs = r.report.syncs;
                        rw->norm = r.report.norm;
                        rw->device = r.report.seconds_device;
                        rw->extra_steps = r.extra_steps;
                        rw->extra_seconds = r.extra_seconds;
                        rw->block[0] = r.report.solver.options.block[0];
                        rw->block[1] = r.report.solver.options.block[1];
                        rw->ppi = r.report.solver.options.points_per_item;
                        rw->comm = r.report.solver.options.comm_items;
                        if (!r.report.solver.work_group) rw->block[0] = rw->block[1] = 0;
                        if (!r.report.solver.work_group) rw->ppi = rw->comm = 0;
                    }
                    if (error) {
                        if (!rw->error[0])
                            snprintf(rw->error, sizeof rw->error, "%s: %s",
                                     cls_status_string(r.status), cls_last_error());
                        /* The first repetition's error is printed; the rest repeat it. */
                        if (k == 0)
                            fprintf(stderr, "clstencil: %s %s: %s: %s\n", job, rw->variant,
                                    cls_status_string(r.status), cls_last_error());
                        failed = 1;
                    }
                    cls_solver_report_clear(&r.report);
                }
                cli_sort_doubles(times, a->repeat);
                rw->seconds = times[a->repeat / 2];
                rw->per_step = rw->steps ? rw->seconds / (double)rw->steps : 0;
                if (rw->outcome != CLS_SOLVER_CONVERGED) failed = 1;
                if (is_base && rw->outcome == CLS_SOLVER_CONVERGED) base_seconds = rw->seconds;
                if (a->format != CLI_FORMAT_JSON) print_row(a, job, rw, base_seconds);
            }
    }

    if (a->format == CLI_FORMAT_JSON) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_str(&j, "job", job);
        cli_json_str(&j, "norm", cls_norm_name(a->opt.norm));
        cli_json_str(&j, "criterion", cls_criterion_name(a->opt.criterion));
        cli_json_num(&j, "tolerance", a->opt.tolerance);
        cli_json_array(&j, "runs");
        for (size_t i = 0; i < nrows; i++) {
            const row *r = &rows[i];
            cli_json_object(&j, NULL);
            cli_json_str(&j, "variant", r->variant);
            cli_json_uint(&j, "check_interval", r->n);
            cli_json_uint(&j, "exchange_interval", r->l);
            cli_json_str(&j, "outcome", outcome_name(r->outcome));
            cli_json_uint(&j, "steps", r->steps);
            cli_json_uint(&j, "checks", r->syncs);
            cli_json_num(&j, "seconds", r->seconds);
            cli_json_num(&j, "device_seconds", r->device);
            cli_json_num(&j, "seconds_per_step", r->per_step);
            cli_json_num(&j, "speedup_over_base",
                         base_seconds > 0 && r->seconds > 0 ? base_seconds / r->seconds : 0);
            cli_json_num(&j, "final_norm", r->norm);
            if (r->block[0]) {
                cli_json_size_array(&j, "block", r->block, 2);
                cli_json_uint(&j, "points_per_item", r->ppi);
                cli_json_uint(&j, "comm_items", r->comm);
            }
            if (r->error[0]) cli_json_str(&j, "error", r->error);
            if (r->extra_steps) {
                cli_json_uint(&j, "extra_steps", r->extra_steps);
                cli_json_num(&j, "extra_seconds", r->extra_seconds);
            }
            cli_json_close(&j);
        }
        cli_json_close(&j);
        cli_json_end(&j);
    }
    free(rows);
    free(times);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
