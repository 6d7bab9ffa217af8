/* cmd_run.c: `clstencil run`, and the workload machinery (inputs, verification, report lines)
 * that demo and bench share with it. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "clstencil_model.h"

#define DEFAULT_STEPS 100

/* ================================================================ stencil loading and settings */
int cli_looks_like_path(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') != NULL || (n > 5 && strcmp(arg + n - 5, ".json") == 0);
}

int cli_load_stencil(const char *name, cls_stencil **st)
{
    int rc;
    char q[CLI_QUOTE_MAX];
    /* A built-in's name always means the built-in: a file that happens to be called "hotspot"
     * in the current folder must not replace it.  Files are named as paths. */
    if (cli_looks_like_path(name)) {
        rc = cls_stencil_from_file(name, st);
        if (rc != CLS_SUCCESS) cli_fail(rc);
        return rc;
    }
    rc = cls_stencil_builtin(name, st);
    if (rc == CLS_ERR_UNKNOWN_STENCIL) {
        char list[512] = "";
        size_t used = 0;
        const char *b;
        struct stat sb;
        for (size_t i = 0; (b = cls_stencil_builtin_name(i)) != NULL && used < sizeof list; i++) {
            int m = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", b);
            if (m < 0) break;
            used += (size_t)m;
        }
        cli_quote(q, sizeof q, name);
        if (stat(name, &sb) == 0)
            cli_failf(rc,
                      "%s is not a built-in stencil (built-ins: %s); to read the file of that "
                      "name give it as a path: ./%.*s",
                      q, list, (int)strlen(q) - 2, q + 1);
        else
            cli_failf(rc, "%s is not a built-in stencil (built-ins: %s) nor a path to a JSON "
                          "spec (a path contains '/' or ends in .json)",
                      q, list);
    } else if (rc != CLS_SUCCESS) {
        cli_fail(rc);
    }
    return rc;
}

int cli_settings_option(cli_settings *s, const cli_command *cmd, const char *option,
                        const char *value)
{
    if (strcmp(option, "dtype") == 0) {
        if (cli_parse_dtype(value, &s->dtype) != 0)
            return cli_usage_error(cmd, "unknown --dtype '%s' (float or double)", value);
        s->have_dtype = 1;
    } else if (strcmp(option, "boundary") == 0) {
        if (cli_parse_boundary(value, &s->boundary, &s->boundary_value) != 0)
            return cli_usage_error(cmd,
                                   "invalid --boundary '%s' (clamp, constant[=V], periodic or "
                                   "mirror)",
                                   value);
        s->have_boundary = 1;
    } else {
        char name[128];
        const char *v;
        double d;
        if (cli_parse_assign(value, name, sizeof name, &v) != 0 || cli_parse_double(v, &d) != 0)
            return cli_usage_error(cmd, "invalid --param '%s' (expected NAME=NUMBER)", value);
        const char **grown = realloc(s->params, (s->n_params + 1) * sizeof *grown);
        if (!grown) return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "parameter list");
        s->params = grown;
        s->params[s->n_params++] = value;
    }
    return CLI_EXIT_OK;
}

int cli_settings_apply(const cli_settings *s, cls_stencil *st)
{
    int rc;
    if (s->have_dtype && (rc = cls_stencil_set_dtype(st, s->dtype)) != CLS_SUCCESS)
        return cli_fail(rc), rc;
    if (s->have_boundary &&
        (rc = cls_stencil_set_boundary(st, s->boundary, s->boundary_value)) != CLS_SUCCESS)
        return cli_fail(rc), rc;
    for (size_t i = 0; i < s->n_params; i++) {
        char name[128];
        const char *v;
        double value, old;
        cli_parse_assign(s->params[i], name, sizeof name, &v);
        cli_parse_double(v, &value);
        /* Only declared parameters: a typo must not silently add an unused one. */
        char q[CLI_QUOTE_MAX];
        if (cls_stencil_get_param(st, name, &old) != CLS_SUCCESS)
            return cli_failf(CLS_ERR_INVALID_ARGUMENT, "stencil '%s' has no parameter %s",
                             cls_stencil_name(st), cli_quote(q, sizeof q, name)),
                   CLS_ERR_INVALID_ARGUMENT;
        if ((rc = cls_stencil_set_param(st, name, value)) != CLS_SUCCESS)
            return cli_fail(rc), rc;
    }
    if ((rc = cls_stencil_validate(st)) != CLS_SUCCESS) return cli_fail(rc), rc;
    return CLS_SUCCESS;
}

void cli_settings_free(cli_settings *s)
{
    free(s->params);
    s->params = NULL;
    s->n_params = 0;
}

/* ================================================================ deterministic inputs */
cls_dims cli_default_size(int dims)
{
    cls_dims d = {{1, 1, 1}};
    if (dims <= 1)
        d.n[0] = 1048576;
    else if (dims == 2)
        d.n[0] = d.n[1] = 1024;
    else
        d.n[0] = d.n[1] = d.n[2] = 128;
    return d;
}

/* splitmix64: a cheap, well-mixed hash, so every run sees the same "random" numbers. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Uniform in [0, 1) from (seed, index). */
static double unit_hash(uint64_t seed, size_t i)
{
    return (double)(mix64(seed ^ mix64((uint64_t)i)) >> 11) * (1.0 / 9007199254740992.0);
}

static void store(void *a, cls_dtype dt, size_t i, double v)
{
    if (dt == CLS_FLOAT64)
        ((double *)a)[i] = v;
    else
        ((float *)a)[i] = (float)v;
}

static double load(const void *a, cls_dtype dt, size_t i)
{
    return dt == CLS_FLOAT64 ? ((const double *)a)[i] : (double)((const float *)a)[i];
}

static uint64_t name_seed(const char *name)
{
    uint64_t h = 14695981039346656037ULL;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return h;
}

typedef enum fill_kind { FILL_SMOOTH, FILL_LIFE, FILL_WEIGHTS, FILL_POWER } fill_kind;

/* Fills `slices` grids: a smooth wave (shifted per slice) with a small hash perturbation, a
 * 0/1 field with ~30% ones, integer weights 0..9, or a positive power map. */
static void fill(void *a, cls_dtype dt, cls_dims d, size_t slices, fill_kind kind, uint64_t seed)
{
    const double two_pi = 6.283185307179586;
    size_t nx = d.n[0], ny = d.n[1], nz = d.n[2], i = 0;
    for (size_t s = 0; s < slices; s++) {
        double phase = 0.37 * (double)s;
        for (size_t z = 0; z < nz; z++) {
            double cz = cos(two_pi * ((double)z + 0.5) / (double)nz);
            for (size_t y = 0; y < ny; y++) {
                double cy = cos(two_pi * ((double)y + 0.5) / (double)ny + phase);
                for (size_t x = 0; x < nx; x++, i++) {
                    double h = unit_hash(seed, i), v;
                    double wave = sin(two_pi * ((double)x + 0.5) / (double)nx + phase) * cy * cz;
                    switch (kind) {
                    case FILL_LIFE: v = h < 0.3 ? 1.0 : 0.0; break;
                    case FILL_WEIGHTS: v = floor(h * 10.0); break;
                    case FILL_POWER: v = 1e-3 * (0.55 + 0.4 * wave + 0.05 * h); break;
                    default: v = 1.0 + 0.5 * wave + 0.01 * (h - 0.5); break;
                    }
                    store(a, dt, i, v);
                }
            }
        }
    }
}

void cli_fill_smooth(void *a, cls_dtype dt, cls_dims d, const char *seed)
{
    fill(a, dt, d, 1, FILL_SMOOTH, name_seed(seed));
}

double cli_hash_unit(const char *seed, size_t i) { return unit_hash(name_seed(seed), i); }

static int alloc_elems(void **p, size_t count, size_t elem)
{
    if (count && elem > SIZE_MAX / count) return -1;
    size_t bytes = count * elem;
    *p = malloc(bytes ? bytes : 1);
    return *p ? 0 : -1;
}

int cli_workload_check_memory(const cli_workload *w)
{
    size_t es = cls_dtype_size(cls_stencil_dtype(w->st));
    size_t points = cls_dims_points(w->size), n_aux = cls_stencil_num_aux(w->st);
    if (points == 0 || points > SIZE_MAX / es)
        return cli_failf(CLS_ERR_INVALID_SIZE, "the grid is too large for host memory"),
               CLS_ERR_INVALID_SIZE;
    /* Every grid still to allocate, counted before the first is: filling pages that the system
     * promised but cannot give ends in the OOM killer, with no message. */
    double grids = (double)w->spare_grids;
    if (w->fields_in)
        for (size_t f = 0; f < w->n_fields; f++)
            grids += (double)!w->fields_in[f] + (double)!w->fields_out[f];
    else
        grids += (double)!w->input + (double)!w->output;
    for (size_t k = 0; k < n_aux; k++)
        if (!w->aux || !w->aux[k]) grids += cls_stencil_aux_per_step(w->st, k) ? (double)w->steps : 1;
    double need = grids * (double)points * (double)es;
    uint64_t have = cli_host_memory();
    if (have && need > (double)have) {
        char a[32], b[32];
        cli_format_bytes(a, sizeof a, need < 1.8e19 ? (uint64_t)need : UINT64_MAX);
        cli_format_bytes(b, sizeof b, have);
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY,
                         "the host arrays of this run need %s but the host has %s available; "
                         "give a smaller --size (or fewer --steps for per-step arrays)",
                         a, b),
               CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    return CLS_SUCCESS;
}

int cli_workload_prepare(cli_workload *w)
{
    w->dims = cls_stencil_dims(w->st);
    if (w->n_fields) return CLS_SUCCESS;
    w->n_fields = cls_stencil_num_fields(w->st);
    if (!cls_stencil_is_system(w->st)) return CLS_SUCCESS;
    if (!(w->fields_in = calloc(w->n_fields, sizeof *w->fields_in)) ||
        !(w->fields_out = calloc(w->n_fields, sizeof *w->fields_out)))
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "field tables"), CLS_ERR_OUT_OF_HOST_MEMORY;
    return CLS_SUCCESS;
}

void **cli_workload_in(cli_workload *w, size_t f)
{
    return w->fields_in ? &w->fields_in[f] : &w->input;
}

void **cli_workload_out(cli_workload *w, size_t f)
{
    return w->fields_in ? &w->fields_out[f] : &w->output;
}

int cli_workload_run(cls_plan *plan, cli_workload *w, cls_report *rep)
{
    if (!w->fields_in)
        return cls_plan_run(plan, w->input, (const void *const *)w->aux, w->output, rep);
    return cls_plan_run_fields(plan, (const void *const *)w->fields_in,
                               (const void *const *)w->aux, w->fields_out, rep);
}

int cli_workload_fill(cli_workload *w)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t es = cls_dtype_size(dt);
    int rc;
    if ((rc = cli_workload_prepare(w)) != CLS_SUCCESS) return rc;
    w->points = cls_dims_points(w->size);
    w->n_aux = cls_stencil_num_aux(w->st);
    double want = 0; /* the allocation that failed, in bytes, for the message */
    if ((rc = cli_workload_check_memory(w)) != CLS_SUCCESS) return rc;
    want = (double)w->n_aux * sizeof *w->aux;
    if (w->n_aux && !w->aux && !(w->aux = calloc(w->n_aux, sizeof *w->aux)))
        goto nomem;
    want = (double)w->points * (double)es;
    if (w->fields_in) {
        /* A system: each field not read from a file gets its own deterministic start
         * (tools/cli_fields.c). */
        unsigned char *given = calloc(w->n_fields, 1);
        if (!given) goto nomem;
        for (size_t f = 0; f < w->n_fields; f++) {
            given[f] = w->fields_in[f] != NULL;
            if (!given[f] && alloc_elems(&w->fields_in[f], w->points, es)) {
                free(given);
                goto nomem;
            }
        }
        rc = cli_system_initial(w, given);
        free(given);
        if (rc != CLS_SUCCESS) return rc;
        for (size_t f = 0; f < w->n_fields; f++)
            if (!w->fields_out[f] && alloc_elems(&w->fields_out[f], w->points, es)) goto nomem;
    } else if (!w->input) {
        if (alloc_elems(&w->input, w->points, es)) goto nomem;
        /* cell3d holds 0/1 states: a smooth field would make it meaningless. */
        fill_kind k = strcmp(cls_stencil_name(w->st), "cell3d") == 0 ? FILL_LIFE : FILL_SMOOTH;
        fill(w->input, dt, w->size, 1, k, name_seed("state"));
    }
    for (size_t k = 0; k < w->n_aux; k++) {
        if (w->aux[k]) continue;
        const char *name = cls_stencil_aux_name(w->st, k);
        size_t slices = cls_stencil_aux_per_step(w->st, k) ? w->steps : 1;
        want = (double)w->points * (double)slices * (double)es;
        if (slices && w->points > SIZE_MAX / slices) goto nomem;
        if (alloc_elems(&w->aux[k], w->points * slices, es)) goto nomem;
        fill_kind kind = strcmp(name, "wall") == 0    ? FILL_WEIGHTS
                         : strcmp(name, "power") == 0 ? FILL_POWER
                                                      : FILL_SMOOTH;
        fill(w->aux[k], dt, w->size, slices, kind, name_seed(name));
    }
    want = (double)w->points * (double)es;
    if (!w->output && alloc_elems(&w->output, w->points, es)) goto nomem;
    return CLS_SUCCESS;
nomem:;
    char a[32], b[32];
    uint64_t have = cli_host_memory();
    cli_format_bytes(a, sizeof a, want < 1.8e19 ? (uint64_t)want : UINT64_MAX);
    if (have) cli_format_bytes(b, sizeof b, have);
    return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY,
                     "cannot allocate %s for the host arrays (the host has %s available)", a,
                     have ? b : "an unknown amount"),
           CLS_ERR_OUT_OF_HOST_MEMORY;
}

void cli_workload_free(cli_workload *w)
{
    free(w->input);
    for (size_t f = 0; w->fields_in && f < w->n_fields; f++) free(w->fields_in[f]);
    for (size_t f = 0; w->fields_out && f < w->n_fields; f++) free(w->fields_out[f]);
    free(w->fields_in);
    free(w->fields_out);
    for (size_t k = 0; w->aux && k < w->n_aux; k++) free(w->aux[k]);
    free(w->aux);
    free(w->output);
    cls_stencil_release(w->st);
    memset(w, 0, sizeof *w);
}

/* ================================================================ verification */
/* Compares one field's result a with its reference b into v (mismatches add up over fields;
 * the first bitwise or the worst relative mismatch is kept with its field). */
static void compare_field(const cli_workload *w, size_t f, const void *a, const void *b,
                          cli_verify *v)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t es = cls_dtype_size(dt);
    const unsigned char *x8 = a, *y8 = b;
    if (v->exact) {
        for (size_t i = 0; i < w->points; i++) {
            if (memcmp(x8 + i * es, y8 + i * es, es) == 0) continue;
            if (v->mismatches++ == 0) {
                v->field = f;
                v->first_bad = i;
                v->got = load(a, dt, i);
                v->expected = load(b, dt, i);
            }
        }
        return;
    }
    /* Relative to the larger magnitude, floored at one epsilon of the field's scale so that
     * values near zero are not judged on cancellation noise. */
    double scale = 0.0, eps = dt == CLS_FLOAT64 ? DBL_EPSILON : FLT_EPSILON;
    for (size_t i = 0; i < w->points; i++) {
        double r = fabs(load(b, dt, i));
        if (isfinite(r) && r > scale) scale = r;
    }
    for (size_t i = 0; i < w->points; i++) {
        double x = load(a, dt, i), y = load(b, dt, i), err;
        if (isnan(x) || isnan(y))
            err = isnan(x) && isnan(y) ? 0.0 : INFINITY;
        else if (x == y)
            err = 0.0;
        else
            err = fabs(x - y) / fmax(fmax(fabs(x), fabs(y)), scale * eps);
        if (!(err <= v->max_rel_err)) {
            v->max_rel_err = err;
            v->field = f;
            v->first_bad = i;
            v->got = x;
            v->expected = y;
        }
        if (!(err <= v->tolerance)) v->mismatches++;
    }
}

int cli_verify_run(const cli_workload *w, cli_verify *v)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t es = cls_dtype_size(dt), nf = w->fields_in ? w->n_fields : 1;
    void **ref = calloc(nf, sizeof *ref);
    int rc = CLS_ERR_OUT_OF_HOST_MEMORY;
    memset(v, 0, sizeof *v);
    for (size_t f = 0; ref && f < nf; f++)
        if (alloc_elems(&ref[f], w->points, es)) ref[f] = NULL;
    for (size_t f = 0; ref && f < nf; f++)
        if (!ref[f]) goto nomem;
    if (!ref) goto nomem;
    double t0 = cli_now();
    if (w->fields_in)
        rc = cls_reference_run_fields(w->st, w->size, w->steps,
                                      (const void *const *)w->fields_in,
                                      (const void *const *)w->aux, ref);
    else
        rc = cls_reference_run(w->st, w->size, w->steps, w->input,
                               (const void *const *)w->aux, ref[0]);
    v->seconds = cli_now() - t0;
    if (rc != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    v->exact = cls_stencil_is_exact(w->st);
    v->tolerance = v->exact ? 0.0 : (dt == CLS_FLOAT64 ? 1e-12 : 1e-5);
    for (size_t f = 0; f < nf; f++)
        compare_field(w, f, w->fields_in ? w->fields_out[f] : w->output, ref[f], v);
    v->ok = v->mismatches == 0;
    if (v->ok) v->got = v->expected = 0;
    goto done;
nomem:
    cli_failf(rc, "reference result");
done:
    for (size_t f = 0; ref && f < nf; f++) free(ref[f]);
    free(ref);
    return rc;
}

/* "(x, y)" of a flat index. */
static void format_point(char *buf, size_t len, const cli_workload *w, size_t i)
{
    size_t x = i % w->size.n[0], y = (i / w->size.n[0]) % w->size.n[1];
    size_t z = i / (w->size.n[0] * w->size.n[1]);
    if (w->dims <= 1)
        snprintf(buf, len, "(%zu)", x);
    else if (w->dims == 2)
        snprintf(buf, len, "(%zu, %zu)", x, y);
    else
        snprintf(buf, len, "(%zu, %zu, %zu)", x, y, z);
}

void cli_verify_text(const cli_workload *w, const cli_verify *v, char *buf, size_t len)
{
    char at[96 + 160];
    size_t nf = w->fields_in ? w->n_fields : 1;
    format_point(at, 96, w, v->first_bad);
    /* A system's mismatch names its field: "(3, 4) of field v". */
    if (w->fields_in) {
        size_t used = strlen(at);
        snprintf(at + used, sizeof at - used, " of field %s",
                 cls_stencil_field_name(w->st, v->field));
    }
    if (v->ok && v->exact && nf > 1)
        snprintf(buf, len, "OK (bitwise, %zu fields)", nf);
    else if (v->ok && v->exact)
        snprintf(buf, len, "OK (bitwise)");
    else if (v->ok)
        snprintf(buf, len, "OK (max relative error %.3g <= %.0e)", v->max_rel_err, v->tolerance);
    else if (v->exact)
        snprintf(buf, len,
                 "FAILED (%zu of %zu points differ bitwise; first at %s: %.17g, reference %.17g)",
                 v->mismatches, w->points * nf, at, v->got, v->expected);
    else
        snprintf(buf, len,
                 "FAILED (%zu of %zu points beyond relative error %.0e; worst %.3g at %s: "
                 "%.17g, reference %.17g)",
                 v->mismatches, w->points * nf, v->tolerance, v->max_rel_err, at, v->got,
                 v->expected);
}

void cli_verify_json(cli_json *j, const cli_workload *w, const cli_verify *v)
{
    cli_json_object(j, "verify");
    cli_json_bool(j, "ok", v->ok);
    cli_json_str(j, "mode", v->exact ? "bitwise" : "tolerance");
    if (!v->exact) {
        cli_json_num(j, "tolerance", v->tolerance);
        cli_json_num(j, "max_relative_error", v->max_rel_err);
    }
    cli_json_uint(j, "mismatches", v->mismatches);
    if (!v->ok) {
        char at[96];
        format_point(at, sizeof at, w, v->first_bad);
        cli_json_str(j, v->exact ? "first_mismatch" : "worst_mismatch", at);
        if (w->fields_in) cli_json_str(j, "field", cls_stencil_field_name(w->st, v->field));
        cli_json_num(j, "got", v->got);
        cli_json_num(j, "expected", v->expected);
    }
    cli_json_num(j, "reference_seconds", v->seconds);
    cli_json_close(j);
}

/* ================================================================ configuration and report */
void cli_stencil_text(char *buf, size_t len, const cls_stencil *st)
{
    int used = snprintf(buf, len, "%s (%dD, %s, boundary %s", cls_stencil_name(st),
                        cls_stencil_dims(st),
                        cls_stencil_dtype(st) == CLS_FLOAT64 ? "double" : "float",
                        cls_boundary_name(cls_stencil_boundary(st)));
    /* A system names its fields: "gray_scott (2D, float, boundary periodic; fields u, v)". */
    for (size_t f = 0; cls_stencil_is_system(st) && f < cls_stencil_num_fields(st); f++)
        if (used >= 0 && (size_t)used < len)
            used += snprintf(buf + used, len - (size_t)used, "%s%s", f ? ", " : "; fields ",
                             cls_stencil_field_name(st, f));
    if (used >= 0 && (size_t)used < len) snprintf(buf + used, len - (size_t)used, ")");
}

double cli_effective_gbs(const cli_workload *w, double seconds)
{
    if (!(seconds > 0)) return 0.0;
    return (double)w->points * cls_stencil_min_bytes_per_point(w->st) / seconds / 1e9;
}

void cli_report_text(FILE *f, const cli_workload *w, const cls_report *r)
{
    char per_step[32], total[32];
    cli_format_seconds(per_step, sizeof per_step, r->seconds_per_step);
    cli_format_seconds(total, sizeof total, r->seconds_total);
    fprintf(f, "time/step: %s (kernels; %s in all with transfers)\n", per_step, total);
    fprintf(f, "GPoints/s: %.3f\n", r->gpoints_per_s);
    fprintf(f, "GB/s: %.1f (effective, %g bytes/point)\n",
            cli_effective_gbs(w, r->seconds_per_step), cls_stencil_min_bytes_per_point(w->st));
    if (r->predicted_seconds > 0) {
        char pred[32];
        cli_format_seconds(pred, sizeof pred, r->predicted_seconds / (double)r->steps);
        fprintf(f, "predicted time/step: %s\n", pred);
    }
    if (r->predicted_total_seconds > 0) {
        char pred[32];
        cli_format_seconds(pred, sizeof pred, r->predicted_total_seconds);
        fprintf(f, "predicted in all: %s (transfer model%s; measured %s)\n", pred,
                r->allocated ? ", device allocation included" : "", total);
    }
}

void cli_report_json(cli_json *j, const cli_workload *w, const cls_report *r)
{
    cli_json_object(j, "report");
    cli_json_str(j, "schedule", cls_schedule_name(r->schedule));
    cli_json_uint(j, "steps", r->steps);
    cli_json_num(j, "seconds_total", r->seconds_total);
    cli_json_num(j, "seconds_kernels", r->seconds_kernels);
    cli_json_num(j, "seconds_per_step", r->seconds_per_step);
    cli_json_num(j, "gpoints_per_s", r->gpoints_per_s);
    cli_json_num(j, "bytes_per_point", cls_stencil_min_bytes_per_point(w->st));
    cli_json_num(j, "effective_gbytes_per_s", cli_effective_gbs(w, r->seconds_per_step));
    if (r->predicted_seconds > 0)
        cli_json_num(j, "predicted_seconds", r->predicted_seconds);
    else
        cli_json_str(j, "predicted_seconds", NULL);
    if (r->predicted_total_seconds > 0)
        cli_json_num(j, "predicted_total_seconds", r->predicted_total_seconds);
    cli_json_bool(j, "allocated", r->allocated != 0);
    cli_json_close(j);
}

/* ================================================================ grid files */
/* A malloc'ed copy of `count` elements in the wanted dtype. */
static int convert_copy(const void *raw, cls_dtype have, cls_dtype want, size_t count,
                        void **out, const char *what)
{
    if (alloc_elems(out, count, cls_dtype_size(want)))
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "%s", what), CLS_ERR_OUT_OF_HOST_MEMORY;
    if (have == want)
        memcpy(*out, raw, count * cls_dtype_size(want));
    else
        for (size_t i = 0; i < count; i++) store(*out, want, i, load(raw, have, i));
    return CLS_SUCCESS;
}

/* Reads a .npy file into a malloc'ed buffer of the wanted dtype (converted if needed). */
static int read_npy(const char *path, cls_dtype want, void **out, int *ndim, size_t shape[3])
{
    void *raw = NULL;
    cls_dtype have;
    int rc = cls_npy_read(path, &raw, &have, ndim, shape);
    if (rc != CLS_SUCCESS) return cli_fail(rc), rc;
    size_t count = 1;
    for (int i = 0; i < *ndim; i++) count *= shape[i];
    rc = convert_copy(raw, have, want, count, out, path);
    cls_free(raw);
    return rc;
}

static void shape_text(char *buf, size_t len, int ndim, const size_t shape[3])
{
    size_t used = (size_t)snprintf(buf, len, "(");
    for (int i = 0; i < ndim && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, i ? ", %zu" : "%zu", shape[i]);
    if (used < len) snprintf(buf + used, len - used, ndim == 1 ? ",)" : ")");
}

/* ================================================================ run */
enum {
    OPT_SIZE = 1, OPT_STEPS, OPT_BOUNDARY, OPT_DTYPE, OPT_PARAM, OPT_INPUT, OPT_AUX, OPT_OUTPUT,
    OPT_VERIFY, OPT_SCHEDULE, OPT_LOCAL_SIZE, OPT_PER_ITEM, OPT_DEVICE, OPT_FORMAT, OPT_HEIGHT,
    OPT_SYNC, OPT_PIPELINE, OPT_PIPELINE_TILE, OPT_PIPELINE_STEPS, OPT_RECT, OPT_DEVICE_MEMORY,
    OPT_PINNED, OPT_MAX_REGISTERS, OPT_RANK_MAPPING, OPT_SNAPSHOT_EVERY, OPT_PNG
};

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},         {"steps", 1, OPT_STEPS},       {"boundary", 1, OPT_BOUNDARY},
    {"dtype", 1, OPT_DTYPE},       {"param", 1, OPT_PARAM},       {"input", 1, OPT_INPUT},
    {"aux", 1, OPT_AUX},           {"output", 1, OPT_OUTPUT},     {"verify", 0, OPT_VERIFY},
    {"schedule", 1, OPT_SCHEDULE}, {"device", 1, OPT_DEVICE},     {"format", 1, OPT_FORMAT},
    {"local-size", 1, OPT_LOCAL_SIZE}, {"points-per-item", 1, OPT_PER_ITEM},
    {"height", 1, OPT_HEIGHT},     {"sync", 1, OPT_SYNC},
    {"pipeline", 1, OPT_PIPELINE}, {"pipeline-tile", 1, OPT_PIPELINE_TILE},
    {"pipeline-steps", 1, OPT_PIPELINE_STEPS}, {"rect", 0, OPT_RECT},
    {"device-memory", 1, OPT_DEVICE_MEMORY}, {"pinned", 0, OPT_PINNED},
    {"max-registers", 1, OPT_MAX_REGISTERS}, {"rank-mapping", 0, OPT_RANK_MAPPING},
    {"snapshot-every", 1, OPT_SNAPSHOT_EVERY}, {"png", 1, OPT_PNG}, {NULL, 0, 0},
};

/* The per-field file options, compared by pointer in cli_field_file.option. */
static const char OPT_NAME_INPUT[] = "--input", OPT_NAME_OUTPUT[] = "--output",
                  OPT_NAME_PNG[] = "--png";

typedef struct aux_arg {
    char name[128];
    const char *path;
    int index; /* position in the stencil's aux list */
    void *data;
    int ndim;
    size_t shape[3];
    size_t slices; /* grids held (per-step arrays) */
} aux_arg;

/* FILE's snapshot after `step` of `total` steps: FILE-<step>.EXT, the step zero-padded to the
 * width of the total (u-0100.npy ... u-1000.npy for u.npy); EXT is `ext`, which a FILE ending
 * in it does not repeat. */
static void snapshot_name(char *buf, size_t len, const char *out, const char *ext, size_t step,
                          size_t total)
{
    size_t n = strlen(out), e = strlen(ext);
    int width = snprintf(NULL, 0, "%zu", total);
    if (n > e && strcmp(out + n - e, ext) == 0) n -= e;
    snprintf(buf, len, "%.*s-%0*zu%s", (int)n, out, width, step, ext);
}

static int is_png_name(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".png") == 0;
}

/* Writes every --output (a .npy file) and --png (a picture) of the fields in w's outputs:
 * under their own names, or with `snapshot` under the names of the snapshot after `step`.
 * Each file is written as a whole (a temporary renamed over it).  Prints the error; returns a
 * cls_status. */
static int write_results(cli_workload *w, const cli_field_file *ff, size_t n, size_t step,
                         int snapshot)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t shape[3] = {1, 1, 1};
    for (int i = 0; i < w->dims; i++) shape[i] = w->size.n[w->dims - 1 - i];
    for (size_t i = 0; i < n; i++) {
        int png = ff[i].option == OPT_NAME_PNG;
        if (!png && ff[i].option != OPT_NAME_OUTPUT) continue;
        char name[4096];
        const char *path = ff[i].path;
        const void *data = *cli_workload_out(w, (size_t)ff[i].index);
        if (snapshot) {
            snapshot_name(name, sizeof name, path, png ? ".png" : ".npy", step, w->steps);
            path = name;
        }
        int rc;
        if (png) {
            rc = cli_picture_write(path, data, dt, w->size, w->dims);
        } else if ((rc = cls_npy_write(path, data, dt, w->dims, shape)) != CLS_SUCCESS) {
            cli_fail(rc);
        }
        if (rc != CLS_SUCCESS) return rc;
    }
    return CLS_SUCCESS;
}

/* --snapshot-every K: the fields stay on the device (a state) and advance K steps at a time;
 * after each, they are read and written to the snapshot files of every --output and --png;
 * the last read is the output.  The figures are those of all the advances together.  Prints
 * the error (not an interruption); returns a cls_status. */
static int run_snapshots(cls_plan *plan, cli_workload *w, size_t every, const cli_field_file *ff,
                         size_t n_ff, cls_report *rep)
{
    cls_state *s = NULL;
    cls_status rc = cls_state_create(plan, &s);
    double t0 = cli_now(), kernels = 0;
    int printed = 0;
    for (size_t f = 0; f < w->n_fields && rc == CLS_SUCCESS; f++)
        rc = cls_state_write_field(s, f, *cli_workload_in(w, f));
    for (size_t k = 0; k < w->n_aux && rc == CLS_SUCCESS; k++)
        rc = cls_state_write_aux(s, k, w->aux[k], w->steps ? w->steps : 1);
    memset(rep, 0, sizeof *rep);
    for (size_t done = 0; rc == CLS_SUCCESS && done < w->steps;) {
        size_t n = w->steps - done < every ? w->steps - done : every;
        cls_report r;
        if ((rc = cls_plan_advance(plan, s, n, &r)) != CLS_SUCCESS) break;
        done += n;
        kernels += r.seconds_kernels;
        rep->schedule = r.schedule;
        rep->predicted_seconds += r.predicted_seconds;
        for (size_t f = 0; f < w->n_fields && rc == CLS_SUCCESS; f++)
            rc = cls_state_read_field(s, f, *cli_workload_out(w, f));
        if (rc == CLS_SUCCESS && done % every == 0 &&
            (rc = write_results(w, ff, n_ff, done, 1)) != CLS_SUCCESS)
            printed = 1;
    }
    for (size_t f = 0; rc == CLS_SUCCESS && !w->steps && f < w->n_fields; f++)
        rc = cls_state_read_field(s, f, *cli_workload_out(w, f));
    cls_state_release(s);
    if (rc != CLS_SUCCESS) {
        if (!printed && !cli_interrupted()) cli_fail(rc);
        return rc;
    }
    rep->steps = w->steps;
    rep->seconds_total = cli_now() - t0;
    rep->seconds_kernels = kernels;
    if (w->steps) rep->seconds_per_step = kernels / (double)w->steps;
    if (kernels > 0) rep->gpoints_per_s = (double)w->points * (double)w->steps / kernels / 1e9;
    return CLS_SUCCESS;
}

/* "--input 'u=u0.npy'": how a message names a per-field option. */
static const char *file_label(char *buf, size_t len, const cli_field_file *a)
{
    char q[CLI_QUOTE_MAX];
    snprintf(buf, len, "%s %s", a->option, cli_quote(q, sizeof q, a->arg));
    return buf;
}

/* The --input files: read, their shapes checked against the stencil, --size and each other;
 * the first fixes the size (without --size) and, unless --dtype is given, the precision,
 * which the others must share.  raw[i] and raw_dt[i] hold ff[i]'s data until the dtype is
 * settled.  Prints the error; returns a cls_status. */
static int read_inputs(const cli_field_file *ff, size_t n, const cls_stencil *st, cls_dims *size,
                       int *size_dims, cli_settings *set, void **raw, cls_dtype *raw_dt)
{
    const cli_field_file *first = NULL;
    char la[CLI_QUOTE_MAX + 16], lb[CLI_QUOTE_MAX + 16], sh[96], a[96], b[96];
    int dims = cls_stencil_dims(st), rc;
    for (size_t i = 0; i < n; i++) {
        if (ff[i].option != OPT_NAME_INPUT) continue;
        int ndim;
        size_t shape[3];
        file_label(la, sizeof la, &ff[i]);
        if ((rc = cls_npy_read(ff[i].path, &raw[i], &raw_dt[i], &ndim, shape)) != CLS_SUCCESS) {
            const char *why = cls_last_error();
            return cli_failf(rc, "%s: %s", la, why && *why ? why : cls_status_message(rc)), rc;
        }
        if (ndim != dims) {
            shape_text(sh, sizeof sh, ndim, shape);
            return cli_failf(CLS_ERR_INVALID_FILE,
                             "%s: %s has shape %s (%d dimensions) but stencil '%s' is %dD", la,
                             ff[i].path, sh, ndim, cls_stencil_name(st), dims),
                   CLS_ERR_INVALID_FILE;
        }
        cls_dims fsize = {{1, 1, 1}};
        for (int k = 0; k < ndim; k++) fsize.n[k] = shape[ndim - 1 - k];
        if (*size_dims || first) {
            for (int k = 0; k < dims; k++)
                if (size->n[k] != fsize.n[k]) {
                    cli_format_size(a, sizeof a, *size, dims);
                    cli_format_size(b, sizeof b, fsize, dims);
                    if (first)
                        return cli_failf(CLS_ERR_INVALID_SIZE,
                                         "%s: %s's size %s differs from %s's size %s", la,
                                         ff[i].path, b, file_label(lb, sizeof lb, first), a),
                               CLS_ERR_INVALID_SIZE;
                    return cli_failf(CLS_ERR_INVALID_SIZE, "%s: --size %s differs from %s's size %s",
                                     la, a, ff[i].path, b),
                           CLS_ERR_INVALID_SIZE;
                }
        }
        if (!set->have_dtype && first && raw_dt[i] != set->dtype)
            return cli_failf(CLS_ERR_INVALID_FILE,
                             "%s: %s holds %s but %s holds %s: give --dtype to read both as one "
                             "precision",
                             la, ff[i].path, raw_dt[i] == CLS_FLOAT64 ? "float64" : "float32",
                             file_label(lb, sizeof lb, first),
                             set->dtype == CLS_FLOAT64 ? "float64" : "float32"),
                   CLS_ERR_INVALID_FILE;
        if (!first) {
            first = &ff[i];
            if (!set->have_dtype) set->dtype = raw_dt[i];
            if (!*size_dims) *size = fsize;
        }
    }
    if (first) {
        *size_dims = dims;
        set->have_dtype = 1;
    }
    return CLS_SUCCESS;
}

static int run_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_settings set = {0};
    cli_format format = CLI_FORMAT_TEXT;
    cli_plan_opts popt;
    const char *stencil_arg = NULL, *device = NULL, *v;
    cls_dims size = {{1, 1, 1}};
    int size_dims = 0, verify = 0, rank_mapping = 0, id, ret = CLI_EXIT_FAIL, rc;
    size_t steps = 0, snapshot_every = 0;
    char *mapping = NULL;
    aux_arg *auxs = calloc((size_t)argc, sizeof *auxs);
    size_t n_auxs = 0;
    /* --input, --output and --png, in the order given */
    cli_field_file *ff = calloc((size_t)argc, sizeof *ff);
    size_t n_ff = 0, n_out = 0, n_png = 0, n_pinned = 0;
    void **raw = calloc((size_t)argc, sizeof *raw); /* the --input files' data, until converted */
    cls_dtype *raw_dt = calloc((size_t)argc, sizeof *raw_dt);
    void **heap = NULL; /* --pinned: the heap arrays the pinned ones stand in for */
    cli_workload w = {0};
    cls_context *ctx = NULL;
    cls_plan *plan = NULL;
    cls_device_info dev;
    int pinned = 0; /* --pinned: the fields in page-locked memory */

    if (!auxs || !ff || !raw || !raw_dt) {
        free(auxs), free(ff), free(raw), free(raw_dt);
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "arguments");
    }
    cli_plan_opts_init(&popt);
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
            if (cli_parse_count(v, &steps) != 0) {
                ret = cli_usage_error(self, "invalid --steps '%s': expected a whole number >= 1",
                                      v);
                goto done;
            }
            break;
        case OPT_PARAM:
            if ((ret = cli_param_option(self, v, &set, &popt)) != CLI_EXIT_OK) goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_BOUNDARY: case OPT_DTYPE:
            if ((ret = cli_settings_option(&set, self, p.opt_name + 2, v)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_RANK_MAPPING: rank_mapping = 1; break;
        case OPT_SNAPSHOT_EVERY:
            if (cli_parse_count(v, &snapshot_every) != 0 || snapshot_every == 0) {
                ret = cli_usage_error(self, "invalid --snapshot-every '%s': expected a whole "
                                            "number >= 1", v);
                goto done;
            }
            break;
        case OPT_INPUT: case OPT_OUTPUT: case OPT_PNG: {
            const char *opt = id == OPT_INPUT ? OPT_NAME_INPUT
                              : id == OPT_OUTPUT ? OPT_NAME_OUTPUT : OPT_NAME_PNG;
            if (cli_field_file_parse(&ff[n_ff], opt, v) != 0 || !*ff[n_ff].path) {
                ret = cli_usage_error(self, "invalid %s '%s' (expected [FIELD=]FILE)", opt, v);
                goto done;
            }
            if (id == OPT_PNG && !is_png_name(ff[n_ff].path)) {
                ret = cli_usage_error(self, "invalid --png '%s': the picture's name must end in "
                                            ".png", v);
                goto done;
            }
            n_out += id == OPT_OUTPUT;
            n_png += id == OPT_PNG;
            n_ff++;
            break;
        }
        case OPT_AUX:
            if (cli_parse_assign(v, auxs[n_auxs].name, sizeof auxs[n_auxs].name,
                                 &auxs[n_auxs].path) != 0 ||
                !*auxs[n_auxs].path) {
                ret = cli_usage_error(self, "invalid --aux '%s' (expected NAME=FILE.npy)", v);
                goto done;
            }
            for (size_t i = 0; i < n_auxs; i++)
                if (strcmp(auxs[i].name, auxs[n_auxs].name) == 0) {
                    ret = cli_usage_error(self, "--aux '%s' given twice", auxs[i].name);
                    goto done;
                }
            n_auxs++;
            break;
        case OPT_VERIFY: verify = 1; break;
        case OPT_SCHEDULE:
        case OPT_HEIGHT:
        case OPT_SYNC:
        case OPT_PER_ITEM:
        case OPT_LOCAL_SIZE:
        case OPT_PIPELINE:
        case OPT_PIPELINE_TILE:
        case OPT_PIPELINE_STEPS:
        case OPT_RECT:
        case OPT_DEVICE_MEMORY:
        case OPT_MAX_REGISTERS:
            if ((ret = cli_parse_plan_option(self, p.opt_name + 2, v, &popt)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_PINNED: pinned = 1; popt.opt.host_pinned = 1; break;
        case OPT_DEVICE: device = v; break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON, &format) != 0) {
                ret = cli_usage_error(self, "unknown --format '%s' (text or json)", v);
                goto done;
            }
            break;
        }
    }
    if (!stencil_arg) {
        ret = cli_usage_error(self, "no stencil given (a built-in name or a JSON spec file)");
        goto done;
    }
    if (snapshot_every && !n_out && !n_png) {
        ret = cli_usage_error(self, "--snapshot-every writes files named after --output or "
                                    "--png: give --output OUT.npy or --png FIELD=FILE.png");
        goto done;
    }
    if ((ret = cli_plan_finish(self, &popt)) != CLI_EXIT_OK) goto done;
    ret = CLI_EXIT_FAIL;
    if (n_png && !cli_picture_available()) {
        cli_failf(CLS_ERR_UNSUPPORTED, "--png: this build of libclstencil leaves out the image "
                                       "part, which writes pictures (libpng; configure "
                                       "--with-png)");
        goto done;
    }

    /* The outputs, before any work: writable, and none of the files the run reads. */
    if (n_out || n_png) {
        const char **ins = calloc(n_ff + n_auxs + 1, sizeof *ins);
        const char **outs = calloc(n_ff, sizeof *outs);
        int bad = !ins || !outs;
        if (bad) {
            cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "arguments");
        } else {
            ins[0] = cli_looks_like_path(stencil_arg) ? stencil_arg : NULL;
            for (size_t i = 0; i < n_ff; i++) {
                if (ff[i].option == OPT_NAME_INPUT)
                    ins[1 + i] = ff[i].path;
                else
                    outs[i] = ff[i].path;
            }
            for (size_t a = 0; a < n_auxs; a++) ins[1 + n_ff + a] = auxs[a].path;
            bad = cli_check_outputs(outs, n_ff, ins, n_ff + n_auxs + 1) != CLI_EXIT_OK;
        }
        free(ins);
        free(outs);
        if (bad) goto done;
    }

    /* The stencil, its fields, then the settings that change it. */
    if (cli_load_stencil(stencil_arg, &w.st) != CLS_SUCCESS) goto done;
    if (cli_workload_prepare(&w) != CLS_SUCCESS) goto done;
    int dims = cls_stencil_dims(w.st);
    const char *sname = cls_stencil_name(w.st);
    if (cli_field_files_resolve(ff, n_ff, w.st) != CLS_SUCCESS) goto done;
    for (size_t i = 0; i < n_ff; i++)
        if (ff[i].option == OPT_NAME_PNG && dims == 1) {
            char la[CLI_QUOTE_MAX + 16];
            cli_failf(CLS_ERR_INVALID_ARGUMENT,
                      "%s: field '%s' of '%s' is 1D; a picture shows a 2D field or a 3D field's "
                      "middle plane",
                      file_label(la, sizeof la, &ff[i]),
                      cls_stencil_field_name(w.st, (size_t)ff[i].index), sname);
            goto done;
        }

    /* The initial fields: their files fix the size and, unless --dtype says otherwise, the
     * precision. */
    if (read_inputs(ff, n_ff, w.st, &size, &size_dims, &set, raw, raw_dt) != CLS_SUCCESS)
        goto done;
    if (cli_settings_apply(&set, w.st) != CLS_SUCCESS) goto done;
    cls_dtype dt = cls_stencil_dtype(w.st);

    if (!size_dims) {
        size = cli_default_size(dims);
        size_dims = dims;
    } else if (size_dims != dims) {
        char a[96];
        cli_format_size(a, sizeof a, size, size_dims);
        cli_failf(CLS_ERR_INVALID_SIZE,
                  "--size %s has %d dimension%s but stencil '%s' is %dD", a, size_dims,
                  size_dims == 1 ? "" : "s", sname, dims);
        goto done;
    }
    for (size_t i = 0; i < n_ff; i++) {
        if (!raw[i]) continue;
        rc = convert_copy(raw[i], raw_dt[i], dt, cls_dims_points(size),
                          cli_workload_in(&w, (size_t)ff[i].index), ff[i].path);
        cls_free(raw[i]);
        raw[i] = NULL;
        if (rc != CLS_SUCCESS) goto done;
    }

    /* Auxiliary arrays from files; shapes are slowest-first (NumPy order). */
    size_t g[3] = {0, 0, 0};
    for (int i = 0; i < dims; i++) g[i] = size.n[dims - 1 - i];
    size_t min_slices = SIZE_MAX;
    for (size_t a = 0; a < n_auxs; a++) {
        aux_arg *x = &auxs[a];
        x->index = -1;
        for (size_t k = 0; k < cls_stencil_num_aux(w.st); k++)
            if (strcmp(cls_stencil_aux_name(w.st, k), x->name) == 0) x->index = (int)k;
        if (x->index < 0) {
            char list[256] = "";
            size_t used = 0;
            for (size_t k = 0; k < cls_stencil_num_aux(w.st) && used < sizeof list; k++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
                                         cls_stencil_aux_name(w.st, k));
            char q[CLI_QUOTE_MAX];
            cli_failf(CLS_ERR_INVALID_ARGUMENT, "stencil '%s' has no auxiliary array %s (%s%s)",
                      sname, cli_quote(q, sizeof q, x->name), used ? "it has: " : "it has none",
                      list);
            goto done;
        }
        if (read_npy(x->path, dt, &x->data, &x->ndim, x->shape) != CLS_SUCCESS) goto done;
        int per_step = cls_stencil_aux_per_step(w.st, (size_t)x->index);
        int match = 1;
        if (!per_step) {
            match = x->ndim == dims;
            for (int i = 0; match && i < dims; i++) match = x->shape[i] == g[i];
            x->slices = 1;
        } else if (x->ndim == dims + 1) {
            /* (steps, NY, NX) */
            for (int i = 0; match && i < dims; i++) match = x->shape[i + 1] == g[i];
            x->slices = x->shape[0];
        } else {
            /* Slices stacked along the slowest axis: (steps*NZ, NY, NX), for 3D grids. */
            match = x->ndim == dims && x->shape[0] % g[0] == 0;
            for (int i = 1; match && i < dims; i++) match = x->shape[i] == g[i];
            x->slices = match ? x->shape[0] / g[0] : 0;
        }
        if (!match || x->slices == 0) {
            char sh[96], a1[96];
            shape_text(sh, sizeof sh, x->ndim, x->shape);
            shape_text(a1, sizeof a1, dims, g);
            cli_failf(CLS_ERR_INVALID_FILE, "%s has shape %s but aux array '%s' needs %s%s",
                      x->path, sh, x->name, per_step ? "STEPS slices of " : "", a1);
            goto done;
        }
        if (per_step && x->slices < min_slices) min_slices = x->slices;
    }
    /* A per-step array read from a file sets the default step count. */
    if (!steps) steps = min_slices != SIZE_MAX ? min_slices : DEFAULT_STEPS;
    for (size_t a = 0; a < n_auxs; a++) {
        aux_arg *x = &auxs[a];
        if (cls_stencil_aux_per_step(w.st, (size_t)x->index) && x->slices < steps) {
            cli_failf(CLS_ERR_INVALID_FILE, "%s holds %zu slices but --steps is %zu", x->path,
                      x->slices, steps);
            goto done;
        }
    }
    w.size = size;
    w.steps = steps;
    /* Pictures past the image part's limits are refused before the run, not after it. */
    for (size_t i = 0; i < n_ff; i++)
        if (ff[i].option == OPT_NAME_PNG &&
            cli_picture_check(ff[i].path, size, cls_stencil_dims(w.st)) != CLS_SUCCESS)
            goto done;
    w.n_aux = cls_stencil_num_aux(w.st);
    if (w.n_aux && !(w.aux = calloc(w.n_aux, sizeof *w.aux))) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "aux arrays");
        goto done;
    }
    for (size_t a = 0; a < n_auxs; a++) {
        w.aux[auxs[a].index] = auxs[a].data; /* the workload owns it now */
        auxs[a].data = NULL;
    }

    size_t nf = w.n_fields;
    w.spare_grids = verify ? 3 * nf : 0;
    if (cli_workload_check_memory(&w) != CLS_SUCCESS) goto done;
    if (cli_open_context(device, &ctx, &dev) != CLS_SUCCESS) goto done;
    /* The plan first: a grid no schedule can run fails here, before gigabytes of host arrays
     * are allocated and filled. */
    if ((rc = cls_plan_create(ctx, w.st, w.size, w.steps, &popt.opt, &plan)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    if (cli_workload_fill(&w) != CLS_SUCCESS) goto done;
    if (pinned) {
        size_t bytes = w.points * cls_dtype_size(dt);
        if (!(heap = calloc(2 * nf, sizeof *heap))) {
            cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "field tables");
            goto done;
        }
        for (size_t f = 0; f < nf; f++) {
            void *pi = NULL, *po = NULL;
            if ((rc = cls_host_alloc(ctx, bytes, &pi)) != CLS_SUCCESS ||
                (rc = cls_host_alloc(ctx, bytes, &po)) != CLS_SUCCESS) {
                cls_host_free(ctx, pi);
                cli_fail(rc);
                goto done;
            }
            memcpy(pi, *cli_workload_in(&w, f), bytes);
            heap[2 * f] = *cli_workload_in(&w, f);
            heap[2 * f + 1] = *cli_workload_out(&w, f);
            *cli_workload_in(&w, f) = pi;
            *cli_workload_out(&w, f) = po;
            n_pinned = f + 1;
        }
    }
    cls_plan_info pi;
    if ((rc = cls_plan_describe(plan, &pi)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    if (rank_mapping && (rc = cls_plan_rank_mapping(plan, &mapping)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }

    cls_report rep;
    cli_progress prog;
    cli_progress_attach(&prog, plan, sname);
    if (snapshot_every) {
        rc = run_snapshots(plan, &w, snapshot_every, ff, n_ff, &rep);
    } else if ((rc = cli_workload_run(plan, &w, &rep)) != CLS_SUCCESS && !cli_interrupted()) {
        cli_fail(rc);
    }
    cli_progress_detach(&prog);
    if (rc != CLS_SUCCESS) {
        if (cli_interrupted()) {
            fprintf(stderr, "clstencil: interrupted\n");
            ret = 130;
        }
        goto done;
    }

    cli_verify ver;
    if (verify) {
        if (isatty(2)) fprintf(stderr, "verify: running the host reference...\n");
        if (cli_verify_run(&w, &ver) != CLS_SUCCESS) goto done;
    }
    /* Written only once verified: a result that fails --verify never replaces the files. */
    int written = 0;
    if ((n_out || n_png) && (!verify || ver.ok)) {
        if (write_results(&w, ff, n_ff, w.steps, 0) != CLS_SUCCESS) goto done;
        written = 1;
    }

    char stext[512], sz[96];
    cli_stencil_text(stext, sizeof stext, w.st);
    cli_format_size(sz, sizeof sz, w.size, dims);
    const char *first_out = NULL;
    for (size_t i = 0; i < n_ff && !first_out; i++)
        if (ff[i].option == OPT_NAME_OUTPUT) first_out = ff[i].path;
    if (format == CLI_FORMAT_JSON) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_object(&j, "stencil");
        cli_json_str(&j, "name", sname);
        cli_json_int(&j, "dims", dims);
        cli_json_str(&j, "dtype", dt == CLS_FLOAT64 ? "double" : "float");
        cli_json_str(&j, "boundary", cls_boundary_name(cls_stencil_boundary(w.st)));
        cli_json_bool(&j, "exact", cls_stencil_is_exact(w.st));
        if (cls_stencil_is_system(w.st)) {
            cli_json_array(&j, "fields");
            for (size_t f = 0; f < nf; f++) cli_json_str(&j, NULL, cls_stencil_field_name(w.st, f));
            cli_json_close(&j);
        }
        cli_json_close(&j);
        cli_json_size_array(&j, "size", w.size.n, dims);
        cli_json_uint(&j, "points", w.points);
        cli_json_uint(&j, "steps", w.steps);
        cli_json_object(&j, "device");
        cli_json_str(&j, "name", dev.name);
        cli_json_str(&j, "platform", dev.platform_name);
        cli_json_str(&j, "type", cli_device_type_name(dev.type));
        cli_json_close(&j);
        cli_plan_json(&j, plan, &pi, dims);
        if (mapping) cli_json_str(&j, "mapping", mapping);
        cli_report_json(&j, &w, &rep);
        cli_json_str(&j, "output", written ? first_out : NULL);
        /* Every file written, with its option and field. */
        cli_json_array(&j, "files");
        for (size_t i = 0; written && i < n_ff; i++) {
            if (ff[i].option == OPT_NAME_INPUT) continue;
            cli_json_object(&j, NULL);
            cli_json_str(&j, "option", ff[i].option + 2);
            cli_json_str(&j, "field", cls_stencil_field_name(w.st, (size_t)ff[i].index));
            cli_json_str(&j, "path", ff[i].path);
            cli_json_close(&j);
        }
        cli_json_close(&j);
        if (snapshot_every) cli_json_uint(&j, "snapshot_every", snapshot_every);
        if (verify) cli_verify_json(&j, &w, &ver);
        cli_json_end(&j);
    } else {
        printf("stencil: %s\n", stext);
        printf("grid: %s, %zu steps\n", sz, w.steps);
        cli_plan_text(stdout, plan, &pi, dims);
        if (mapping) printf("mapping: %s\n", mapping);
        cli_report_text(stdout, &w, &rep);
        for (size_t i = 0; written && i < n_ff; i++)
            if (ff[i].option != OPT_NAME_INPUT)
                printf("%s: %s\n", ff[i].option == OPT_NAME_PNG ? "picture" : "output",
                       ff[i].arg);
        if (!written && (n_out || n_png))
            printf("output: not written (the result failed --verify)\n");
        for (size_t i = 0; snapshot_every && i < n_ff; i++) {
            if (ff[i].option == OPT_NAME_INPUT) continue;
            const char *ext = ff[i].option == OPT_NAME_PNG ? ".png" : ".npy";
            char first[4096], last[4096];
            snapshot_name(first, sizeof first, ff[i].path, ext, snapshot_every, w.steps);
            snapshot_name(last, sizeof last, ff[i].path, ext,
                          w.steps / snapshot_every * snapshot_every, w.steps);
            printf("snapshots: every %zu steps, %s .. %s\n", snapshot_every, first, last);
        }
        if (verify) {
            char vt[512];
            cli_verify_text(&w, &ver, vt, sizeof vt);
            printf("verify: %s\n", vt);
        }
    }
    ret = verify && !ver.ok ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (fflush(stdout) != 0) ret = CLI_EXIT_FAIL;

done:
    cls_free(mapping);
    cls_plan_release(plan);
    cli_plan_opts_free(&popt);
    for (size_t f = 0; f < n_pinned; f++) {
        cls_host_free(ctx, *cli_workload_in(&w, f));
        cls_host_free(ctx, *cli_workload_out(&w, f));
        *cli_workload_in(&w, f) = heap[2 * f];
        *cli_workload_out(&w, f) = heap[2 * f + 1];
    }
    free(heap);
    cls_context_release(ctx);
    cli_workload_free(&w);
    for (size_t a = 0; a < n_auxs; a++) free(auxs[a].data);
    free(auxs);
    for (size_t i = 0; i < n_ff; i++) cls_free(raw[i]);
    free(raw);
    free(raw_dt);
    free(ff);
    cli_settings_free(&set);
    return ret;
}

const cli_command cli_cmd_run = {
    "run",
    "run a stencil or a system of fields on a device (and check it against the host reference)",
    "usage: clstencil run STENCIL [--size NXxNYxNZ] [--steps N]\n"
    "           [--boundary clamp|constant[=V]|periodic|mirror] [--dtype float|double]\n"
    "           [--param NAME=VALUE]... [--input [FIELD=]IN.npy]... [--aux NAME=FILE.npy]...\n"
    "           [--output [FIELD=]OUT.npy]... [--png [FIELD=]PIC.png]... [--verify]\n"
    "           [--schedule auto|naive|trapezoid|stream25d|cputile] [--height H]\n"
    "           [--sync restart|barrier]\n"
    "           [--local-size LXxLYxLZ] [--points-per-item N] [--device SEL] [--format text|json]\n"
    "           [--pipeline auto|off|basic|scalable|buffered] [--pipeline-tile TXxTYxTZ]\n"
    "           [--pipeline-steps H] [--rect] [--device-memory SIZE] [--pinned]\n"
    "           [--param SCHEDULE.NAME=VALUE]... [--max-registers R] [--rank-mapping]\n"
    "           [--snapshot-every K]",
    "Runs STENCIL for N steps on one device and prints the configuration the planner chose\n"
    "and the measured time per step, GPoints/s and effective GB/s.  STENCIL is the name of a\n"
    "built-in stencil (hotspot, pathfinder, poisson2d, cell3d, heat3d7, heat3d27,\n"
    "moving_average, emboss, jacobi3d), of a built-in system of fields (wave2d, wave3d,\n"
    "acoustic3d_r4, gray_scott, fdtd2d, fdtd3d) or a path to a JSON spec; an argument is a\n"
    "path when it contains '/' or ends in .json (./hotspot is the file, hotspot the built-in).\n"
    "\n"
    "A system's fields are files of their own, named by the field: --input u=u0.npy\n"
    "--input v=v0.npy, --output v=v.npy, --png v=v.png (each repeatable, one file per field\n"
    "and option).  A time level (wave2d's u_prev) is a field like any other: an --input gives\n"
    "its initial value.  A single-field stencil takes the file alone (--input IN.npy); a\n"
    "system refuses a file without its field.  A file whose name looks like NAME=... is given\n"
    "as ./NAME=....\n"
    "\n"
    "Arrays not read from files are initialised deterministically: a smooth wave plus a small\n"
    "hash-based perturbation; cell3d starts from a random 0/1 field with ~30% live cells,\n"
    "an aux array named 'wall' holds random weights 0..9, one named 'power' a positive map.\n"
    "Built-in systems start as follows (a field read from a file replaces its start):\n"
    "  wave2d, wave3d, acoustic3d_r4  u a Gaussian pulse exp(-r^2/(2 s^2)) at the grid's\n"
    "                      centre, s = 1/8 of the smallest extent; u_prev = u (at rest)\n"
    "  gray_scott          u = 1, v = 0, except a centred square of 1/5 of the smallest extent\n"
    "                      where u = 0.5, v = 0.25, each perturbed there by up to +-1%\n"
    "                      (Pearson 1993): the pattern forms from it\n"
    "  fdtd2d              Hz the Gaussian pulse, Ex = Ey = 0\n"
    "  fdtd3d              Ez the Gaussian pulse, the other five fields 0\n"
    "Any other system's fields start as the smooth wave (perturbed per field); a time level\n"
    "not given starts equal to its field.\n"
    "\n"
    "Options:\n"
    "  --size NXxNYxNZ     grid size, one part per dimension of the stencil (default: the\n"
    "                      inputs' shape, else 1048576, 1024x1024 or 128x128x128)\n"
    "  --steps N           time steps (default: the slices of a per-step --aux file, else 100)\n"
    "  --boundary B        clamp, constant[=V] (V defaults to 0), periodic or mirror\n"
    "  --dtype T           float or double (default: the spec's, or the input files'; input\n"
    "                      files of both precisions need --dtype)\n"
    "  --param NAME=VALUE  set a declared scalar parameter of the stencil (repeatable)\n"
    "  --param S.NAME=VALUE  a schedule parameter, e.g. trapezoid.height=4 or\n"
    "                      stream25d.steps_per_pass=3 (`clstencil schedules` lists them)\n"
    "  --input [FIELD=]IN.npy  initial value of a field (repeatable, one per field); NumPy\n"
    "                      shape (NZ, NY, NX), float32 or float64; every input the same shape\n"
    "  --aux NAME=FILE.npy auxiliary array NAME (repeatable); per-step arrays hold\n"
    "                      STEPS slices: shape (STEPS, NY, NX) or (STEPS*NZ, NY, NX)\n"
    "  --output [FIELD=]OUT.npy  write a field's final value (repeatable, one per field;\n"
    "                      checked writable, and not one of the inputs, before the run; with\n"
    "                      --verify only a verified result)\n"
    "  --png [FIELD=]PIC.png  write a colour-mapped picture of a field's final value\n"
    "                      (repeatable; as --output): a 2D field whole, a 3D field's middle\n"
    "                      plane z = NZ/2; x to the right, y downwards.  A field with values of\n"
    "                      both signs maps -m..m (m its largest magnitude) through ColorBrewer's\n"
    "                      RdBu (blue, white at 0, red); any other its minimum..maximum through\n"
    "                      viridis (dark violet to yellow); NaN and infinities are magenta.\n"
    "                      Needs the library's image part (libpng); 1D fields have none\n"
    "  --verify            compare every field with the host reference: bitwise when the body\n"
    "                      is exact, else max relative error <= 1e-5 (float) or 1e-12 (double);\n"
    "                      exit status 1 on a mismatch\n"
    "  --schedule S        auto (default: the naive or the trapezoid schedule, whichever the\n"
    "                      ghost-zone model predicts faster; 3D stencils on GPUs may stream\n"
    "                      with stream25d, CPUs may keep tiles in cache across steps with\n"
    "                      cputile), naive, trapezoid, stream25d (3D, and 2D streamed along\n"
    "                      y), cputile or pipeline (runs through the device tile by tile)\n"
    "  --height H          trapezoid: steps per stage (default: the model's optimum)\n"
    "  --sync M            trapezoid: restart (a launch per stage) or barrier (one persistent\n"
    "                      launch, an in-kernel barrier); default: the model's choice\n"
    "  --local-size L      work-group size, one part per dimension (trapezoid: the tile, ghost\n"
    "                      zone included; default: the planner's)\n"
    "  --points-per-item N points per work-item along the slowest axis (naive and trapezoid)\n"
    "  --pipeline P        host arrays to the device and back (doc/pipeline.md): auto (default:\n"
    "                      the transfer model picks a scheme and tile, or moves the grid whole),\n"
    "                      off (copy, compute, copy), basic, scalable or buffered (tiles whose\n"
    "                      copies and kernels overlap on three queues)\n"
    "  --pipeline-tile T   the pipeline's output tile, one part per dimension\n"
    "  --pipeline-steps H  steps each tile computes per sweep (padding halo x H)\n"
    "  --rect              rectangular copies even for contiguous tiles\n"
    "  --device-memory S   device memory the run may hold, in bytes; K, M, G are 1024,\n"
    "                      1024^2, 1024^3 (default the device's): larger grids run tile by\n"
    "                      tile, or are refused when no tiling worth running fits\n"
    "  --pinned            the fields in pinned host memory (cls_host_alloc)\n"
    "  --max-registers R   registers per work-item NVIDIA's compiler may use (16..255)\n"
    "  --rank-mapping      rank the plan's mapping among its schedule's variants by CuMAPz\n"
    "                      (Kim & Shrivastava) on the device model: a line 'mapping: ...'\n"
    "  --snapshot-every K  keep the fields on the device and write them after K, 2K, ...\n"
    "                      steps: each --output OUT.npy to OUT-<step>.npy and each --png\n"
    "                      PIC.png to PIC-<step>.png (the step zero-padded to the width of\n"
    "                      --steps: u-0100.npy ... u-1000.npy for --output u.npy), as the run\n"
    "                      goes; --output and --png get the final values as without it\n"
    "  --device SEL        device selector (overrides CLSTENCIL_DEVICE): gpu, cpu,\n"
    "                      accelerator, gpu:N, P:D or a name substring\n"
    "  --format F          text (default) or json\n"
    "  -h, --help          show this help\n",
    run_main,
};
