/* cmd_solve.c: `clstencil solve`, any 2D stencil read as a fixed-point map iterated until
 * convergence by the chaotic-relaxation solver, from and to .npy grids. */
#include <stdlib.h>
#include <string.h>

#include "clstencil_solver.h"
#include "cmd_solve.h"

enum { OPT_SIZE = 1, OPT_INPUT, OPT_AUX, OPT_OUTPUT, OPT_DTYPE, OPT_BOUNDARY, OPT_PARAM };

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},     {"input", 1, OPT_INPUT},       {"aux", 1, OPT_AUX},
    {"output", 1, OPT_OUTPUT}, {"dtype", 1, OPT_DTYPE},       {"boundary", 1, OPT_BOUNDARY},
    {"param", 1, OPT_PARAM},   CLI_SOLVER_OPTIONS,            {NULL, 0, 0},
};

#define MAX_AUX 16

typedef struct job {
    cls_context *ctx;
    cls_stencil *st;
    cls_dims dims;
    void *input, *output;
    void *aux[MAX_AUX];
} job;

static void run_once(void *user, const cls_solver_options *opt, cli_solve_result *r)
{
    job *j = user;
    cls_solver *s = NULL;
    r->status = cls_solver_create(j->ctx, j->st, j->dims, opt, &s);
    if (r->status == CLS_SUCCESS)
        r->status = cls_solver_run(s, j->input, (const void *const *)j->aux, j->output, &r->report);
    cls_solver_release(s);
}

/* Reads a 2D .npy of ny x nx (or takes its size when *dims is unset) into the dtype. */
static int load_grid(const char *path, cls_dtype dt, cls_dims *dims, void **out)
{
    void *raw = NULL;
    cls_dtype rdt;
    int ndim;
    size_t shape[3];
    int rc = cls_npy_read(path, &raw, &rdt, &ndim, shape);
    if (rc != CLS_SUCCESS) return cli_fail(rc), rc;
    if (ndim != 2) {
        cls_free(raw);
        return cli_failf(CLS_ERR_INVALID_FILE, "%s: a 2D array expected, it has %d dimension%s",
                         path, ndim, ndim == 1 ? "" : "s"),
               CLS_ERR_INVALID_FILE;
    }
    if (dims->n[0] == 0) {
        dims->n[0] = shape[1];
        dims->n[1] = shape[0];
        dims->n[2] = 1;
    } else if (shape[1] != dims->n[0] || shape[0] != dims->n[1]) {
        cls_free(raw);
        return cli_failf(CLS_ERR_INVALID_SIZE,
                         "%s: NumPy shape (%zu, %zu) does not match the grid %zux%zu (shape (%zu, "
                         "%zu))",
                         path, shape[0], shape[1], dims->n[0], dims->n[1], dims->n[1], dims->n[0]),
               CLS_ERR_INVALID_SIZE;
    }
    size_t n = dims->n[0] * dims->n[1];
    void *a = malloc(n * cls_dtype_size(dt));
    if (!a) {
        cls_free(raw);
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "%s", path), CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        double v = rdt == CLS_FLOAT64 ? ((double *)raw)[i] : ((float *)raw)[i];
        if (dt == CLS_FLOAT64) ((double *)a)[i] = v;
        else ((float *)a)[i] = (float)v;
    }
    cls_free(raw);
    *out = a;
    return CLS_SUCCESS;
}

static int solve_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_solver_args a;
    cli_settings set;
    const char *v, *stencil = NULL, *input = NULL, *output = NULL;
    struct {
        char name[64];
        const char *path;
    } auxs[MAX_AUX];
    size_t n_aux = 0;
    int id, ret = CLI_EXIT_FAIL, have_size = 0;
    job j;
    memset(&j, 0, sizeof j);
    memset(&set, 0, sizeof set);
    cli_solver_args_init(&a);

    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_settings_free(&set); cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: cli_settings_free(&set); return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL:
            if (stencil) {
                cli_settings_free(&set);
                return cli_usage_error(self, "unexpected argument '%s'", v);
            }
            stencil = v;
            break;
        case OPT_SIZE: {
            int nd;
            if (cli_parse_size(v, &j.dims, &nd) != 0 || nd != 2) {
                cli_settings_free(&set);
                return cli_usage_error(self, "--size: NXxNY expected, got '%s'", v);
            }
            have_size = 1;
            break;
        }
        case OPT_INPUT: input = v; break;
        case OPT_OUTPUT: output = v; break;
        case OPT_AUX: {
            const char *path;
            if (n_aux == MAX_AUX ||
                cli_parse_assign(v, auxs[n_aux].name, sizeof auxs[n_aux].name, &path) != 0) {
                cli_settings_free(&set);
                return cli_usage_error(self, "invalid --aux '%s' (expected NAME=FILE.npy)", v);
            }
            auxs[n_aux++].path = path;
            break;
        }
        case OPT_DTYPE:
        case OPT_BOUNDARY:
        case OPT_PARAM:
            if (cli_settings_option(&set, self,
                                    id == OPT_DTYPE ? "dtype" : id == OPT_BOUNDARY ? "boundary" : "param",
                                    v) != CLI_EXIT_OK) {
                cli_settings_free(&set);
                return CLI_EXIT_USAGE;
            }
            break;
        default:
            if (cli_solver_option(&a, self, id, v) != CLI_EXIT_OK) {
                cli_settings_free(&set);
                return CLI_EXIT_USAGE;
            }
        }
    }
    if (!stencil) {
        cli_settings_free(&set);
        return cli_usage_error(self, "a STENCIL (built-in name or JSON file) is required");
    }
    if (!have_size && !input) {
        cli_settings_free(&set);
        return cli_usage_error(self, "--size or --input is required");
    }
    if (a.format == CLI_FORMAT_CSV && !a.compare) {
        cli_settings_free(&set);
        return cli_usage_error(self, "--format csv goes with --compare");
    }
    cls_context *ctx = NULL;
    cls_device_info dev;
    cls_solver_report rep;
    memset(&rep, 0, sizeof rep);
    {
        /* The files this run writes, checked before any work. */
        const char *outs[] = {output, a.history}, *ins[MAX_AUX + 2] = {NULL};
        ins[0] = cli_looks_like_path(stencil) ? stencil : NULL;
        ins[1] = input;
        for (size_t i = 0; i < n_aux && i < MAX_AUX; i++) ins[2 + i] = auxs[i].path;
        if (cli_check_outputs(outs, 2, ins, MAX_AUX + 2) != CLI_EXIT_OK) goto done;
    }
    if (cli_load_stencil(stencil, &j.st) != CLS_SUCCESS) goto done;
    if (cli_settings_apply(&set, j.st) != CLS_SUCCESS) goto done;
    cls_dtype dt = cls_stencil_dtype(j.st);
    if (input && load_grid(input, dt, &j.dims, &j.input) != CLS_SUCCESS) goto done;
    size_t n = j.dims.n[0] * j.dims.n[1];
    if (!j.input && !(j.input = calloc(n, cls_dtype_size(dt)))) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "the initial state");
        goto done;
    }
    size_t need = cls_stencil_num_aux(j.st);
    if (need > MAX_AUX) {
        cli_failf(CLS_ERR_UNSUPPORTED, "at most %d auxiliary arrays", MAX_AUX);
        goto done;
    }
    for (size_t k = 0; k < need; k++) {
        const char *name = cls_stencil_aux_name(j.st, k), *path = NULL;
        for (size_t i = 0; i < n_aux; i++)
            if (!strcmp(auxs[i].name, name)) path = auxs[i].path;
        if (!path) {
            cli_failf(CLS_ERR_INVALID_ARGUMENT, "stencil '%s' needs auxiliary array '%s' "
                      "(--aux %s=FILE.npy)", cls_stencil_name(j.st), name, name);
            goto done;
        }
        if (load_grid(path, dt, &j.dims, &j.aux[k]) != CLS_SUCCESS) goto done;
    }
    for (size_t i = 0; i < n_aux; i++) {
        int known = 0;
        for (size_t k = 0; k < need; k++) known |= !strcmp(auxs[i].name, cls_stencil_aux_name(j.st, k));
        if (!known) {
            cli_failf(CLS_ERR_INVALID_ARGUMENT, "stencil '%s' has no auxiliary array '%s'",
                      cls_stencil_name(j.st), auxs[i].name);
            goto done;
        }
    }
    if (!(j.output = malloc(n * cls_dtype_size(dt)))) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "the result");
        goto done;
    }
    if (cli_open_context(a.device, &ctx, &dev) != CLS_SUCCESS) goto done;
    j.ctx = ctx;
    if (a.compare) {
        char name[128];
        snprintf(name, sizeof name, "solve %s %zux%zu", cls_stencil_name(j.st), j.dims.n[0],
                 j.dims.n[1]);
        ret = cli_solver_compare(&a, name, run_once, &j);
        goto done;
    }
    cli_solve_result r;
    memset(&r, 0, sizeof r);
    run_once(&j, &a.opt, &r);
    rep = r.report;
    if (r.status != CLS_SUCCESS && rep.steps == 0) {
        cli_fail(r.status);
        goto done;
    }
    if (a.format == CLI_FORMAT_JSON) {
        cli_json js;
        cli_json_begin(&js, stdout);
        cli_json_str(&js, "device", dev.name);
        cli_json_str(&js, "stencil", cls_stencil_name(j.st));
        cli_json_size_array(&js, "size", j.dims.n, 2);
        cli_solver_report_json(&js, &a.opt, &rep);
        cli_json_end(&js);
    } else {
        printf("stencil:    %s, %zux%zu\n", cls_stencil_name(j.st), j.dims.n[0], j.dims.n[1]);
        cli_solver_report_text(stdout, &a.opt, &rep);
    }
    if (a.history && cli_solver_write_history(a.history, &rep) != CLI_EXIT_OK) goto done;
    int wrote = r.status == CLS_SUCCESS || a.opt.write_unconverged;
    if (output && wrote) {
        size_t shape[3] = {j.dims.n[1], j.dims.n[0], 1};
        int rc = cls_npy_write(output, j.output, dt, 2, shape);
        if (rc != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        if (a.format != CLI_FORMAT_JSON) printf("output:     %s\n", output);
    }
    if (r.status != CLS_SUCCESS) {
        cli_fail(r.status);
        goto done;
    }
    ret = CLI_EXIT_OK;
done:
    cls_solver_report_clear(&rep);
    cli_settings_free(&set);
    cls_stencil_release(j.st);
    free(j.input);
    free(j.output);
    for (size_t k = 0; k < MAX_AUX; k++) free(j.aux[k]);
    cls_context_release(ctx);
    return ret;
}

const cli_command cli_cmd_solve = {
    "solve",
    "iterate a 2D stencil until it converges (chaotic-relaxation schedules)",
    "usage: clstencil solve STENCIL (--size NXxNY | --input U0.npy) [--aux NAME=FILE.npy]...\n"
    "                       [--output U.npy] [OPTIONS]\n"
    "       clstencil solve STENCIL ... --compare [OPTIONS]",
    "Reads STENCIL (a built-in name or a JSON spec) as a fixed-point map u <- F(u) and applies\n"
    "it until the convergence criterion holds (doc/chaotic.md).  The initial state comes from\n"
    "--input (zeros without it); auxiliary arrays from --aux, one per array the stencil\n"
    "declares.  The result goes to --output only when the solver converged (or with\n"
    "--write-unconverged).\n"
    "\n"
    "Options:\n"
    "  --size NXxNY            grid size (default: the --input's)\n"
    "  --input FILE.npy        initial state, 2D (NumPy shape NY x NX)\n"
    "  --aux NAME=FILE.npy     an auxiliary array of the stencil\n"
    "  --output FILE.npy       the converged state\n"
    "  --dtype float|double, --boundary B, --param NAME=VALUE   as for clstencil run\n"
    "  --tolerance T           default 1e-4\n"
    "\n"
    "Exit status 1 when the solver did not converge or diverged.\n"
    "\n" CLI_SOLVER_OPTIONS_HELP,
    solve_main,
};
