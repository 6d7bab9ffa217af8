/* cmd_run.c: `clstencil run`, and the workload machinery (inputs, verification, report lines)
 * that demo and bench share with it. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
    double grids = (double)!w->input + (double)!w->output + (double)w->spare_grids;
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

int cli_workload_fill(cli_workload *w)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t es = cls_dtype_size(dt);
    int rc;
    w->dims = cls_stencil_dims(w->st);
    w->points = cls_dims_points(w->size);
    w->n_aux = cls_stencil_num_aux(w->st);
    double want = 0; /* the allocation that failed, in bytes, for the message */
    if ((rc = cli_workload_check_memory(w)) != CLS_SUCCESS) return rc;
    want = (double)w->n_aux * sizeof *w->aux;
    if (w->n_aux && !w->aux && !(w->aux = calloc(w->n_aux, sizeof *w->aux)))
        goto nomem;
    want = (double)w->points * (double)es;
    if (!w->input) {
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
    for (size_t k = 0; w->aux && k < w->n_aux; k++) free(w->aux[k]);
    free(w->aux);
    free(w->output);
    cls_stencil_release(w->st);
    memset(w, 0, sizeof *w);
}

/* ================================================================ verification */
int cli_verify_run(const cli_workload *w, cli_verify *v)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t es = cls_dtype_size(dt);
    void *ref;
    memset(v, 0, sizeof *v);
    if (alloc_elems(&ref, w->points, es))
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "reference result"),
               CLS_ERR_OUT_OF_HOST_MEMORY;
    double t0 = cli_now();
    int rc = cls_reference_run(w->st, w->size, w->steps, w->input,
                               (const void *const *)w->aux, ref);
    v->seconds = cli_now() - t0;
    if (rc != CLS_SUCCESS) {
        free(ref);
        return cli_fail(rc), rc;
    }
    v->exact = cls_stencil_is_exact(w->st);
    v->tolerance = v->exact ? 0.0 : (dt == CLS_FLOAT64 ? 1e-12 : 1e-5);
    const unsigned char *a = w->output, *b = ref;
    if (v->exact) {
        for (size_t i = 0; i < w->points; i++) {
            if (memcmp(a + i * es, b + i * es, es) == 0) continue;
            if (v->mismatches++ == 0) v->first_bad = i;
        }
    } else {
        /* Relative to the larger magnitude, floored at one epsilon of the field's scale so
         * that values near zero are not judged on cancellation noise. */
        double scale = 0.0, eps = dt == CLS_FLOAT64 ? DBL_EPSILON : FLT_EPSILON;
        for (size_t i = 0; i < w->points; i++) {
            double r = fabs(load(ref, dt, i));
            if (isfinite(r) && r > scale) scale = r;
        }
        for (size_t i = 0; i < w->points; i++) {
            double x = load(w->output, dt, i), y = load(ref, dt, i), err;
            if (isnan(x) || isnan(y))
                err = isnan(x) && isnan(y) ? 0.0 : INFINITY;
            else if (x == y)
                err = 0.0;
            else
                err = fabs(x - y) / fmax(fmax(fabs(x), fabs(y)), scale * eps);
            if (!(err <= v->max_rel_err)) {
                v->max_rel_err = err;
                v->first_bad = i;
            }
            if (!(err <= v->tolerance)) v->mismatches++;
        }
    }
    v->got = load(w->output, dt, v->first_bad);
    v->expected = load(ref, dt, v->first_bad);
    v->ok = v->mismatches == 0;
    free(ref);
    return CLS_SUCCESS;
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
    char at[96];
    format_point(at, sizeof at, w, v->first_bad);
    if (v->ok && v->exact)
        snprintf(buf, len, "OK (bitwise)");
    else if (v->ok)
        snprintf(buf, len, "OK (max relative error %.3g <= %.0e)", v->max_rel_err, v->tolerance);
    else if (v->exact)
        snprintf(buf, len,
                 "FAILED (%zu of %zu points differ bitwise; first at %s: %.17g, reference %.17g)",
                 v->mismatches, w->points, at, v->got, v->expected);
    else
        snprintf(buf, len,
                 "FAILED (%zu of %zu points beyond relative error %.0e; worst %.3g at %s: "
                 "%.17g, reference %.17g)",
                 v->mismatches, w->points, v->tolerance, v->max_rel_err, at, v->got, v->expected);
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
        cli_json_num(j, "got", v->got);
        cli_json_num(j, "expected", v->expected);
    }
    cli_json_num(j, "reference_seconds", v->seconds);
    cli_json_close(j);
}

/* ================================================================ configuration and report */
void cli_stencil_text(char *buf, size_t len, const cls_stencil *st)
{
    snprintf(buf, len, "%s (%dD, %s, boundary %s)", cls_stencil_name(st), cls_stencil_dims(st),
             cls_stencil_dtype(st) == CLS_FLOAT64 ? "double" : "float",
             cls_boundary_name(cls_stencil_boundary(st)));
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
    OPT_PINNED, OPT_MAX_REGISTERS, OPT_RANK_MAPPING, OPT_SNAPSHOT_EVERY
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
    {"snapshot-every", 1, OPT_SNAPSHOT_EVERY}, {NULL, 0, 0},
};

typedef struct aux_arg {
    char name[128];
    const char *path;
    int index; /* position in the stencil's aux list */
    void *data;
    int ndim;
    size_t shape[3];
    size_t slices; /* grids held (per-step arrays) */
} aux_arg;

/* OUT.npy's snapshot after `step` of `total` steps: OUT-<step>.npy, the step zero-padded to
 * the width of the total (u-0100.npy ... u-1000.npy). */
static void snapshot_name(char *buf, size_t len, const char *out, size_t step, size_t total)
{
    size_t n = strlen(out);
    int width = snprintf(NULL, 0, "%zu", total);
    if (n > 4 && strcmp(out + n - 4, ".npy") == 0) n -= 4;
    snprintf(buf, len, "%.*s-%0*zu.npy", (int)n, out, width, step);
}

/* --snapshot-every K: the grid stays on the device (a state) and advances K steps at a time;
 * after each, its field is read and written to OUT-<step>.npy; the last read is the output.
 * The figures are those of all the advances together. */
static int run_snapshots(cls_plan *plan, cli_workload *w, size_t every, const char *out,
                         const size_t shape[3], cls_report *rep)
{
    cls_state *s = NULL;
    cls_status rc = cls_state_create(plan, &s);
    double t0 = cli_now(), kernels = 0;
    if (rc == CLS_SUCCESS) rc = cls_state_write(s, w->input);
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
        if ((rc = cls_state_read(s, w->output)) != CLS_SUCCESS) break;
        if (done % every == 0) {
            char name[4096];
            snapshot_name(name, sizeof name, out, done, w->steps);
            rc = cls_npy_write(name, w->output, cls_stencil_dtype(w->st), w->dims, shape);
        }
    }
    if (rc == CLS_SUCCESS && !w->steps) rc = cls_state_read(s, w->output);
    cls_state_release(s);
    if (rc != CLS_SUCCESS) return rc;
    rep->steps = w->steps;
    rep->seconds_total = cli_now() - t0;
    rep->seconds_kernels = kernels;
    if (w->steps) rep->seconds_per_step = kernels / (double)w->steps;
    if (kernels > 0) rep->gpoints_per_s = (double)w->points * (double)w->steps / kernels / 1e9;
    return CLS_SUCCESS;
}

static int run_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_settings set = {0};
    cli_format format = CLI_FORMAT_TEXT;
    cli_plan_opts popt;
    const char *stencil_arg = NULL, *input_path = NULL, *output_path = NULL, *device = NULL, *v;
    cls_dims size = {{1, 1, 1}};
    int size_dims = 0, verify = 0, rank_mapping = 0, id, ret = CLI_EXIT_FAIL, rc;
    size_t steps = 0, snapshot_every = 0;
    char *mapping = NULL;
    aux_arg *auxs = calloc((size_t)argc, sizeof *auxs);
    size_t n_auxs = 0;
    cli_workload w = {0};
    cls_context *ctx = NULL;
    cls_plan *plan = NULL;
    cls_device_info dev;
    void *input_raw = NULL; /* the input file's data until the dtype is settled */
    int pinned = 0;         /* --pinned: the state in page-locked memory */
    void *heap_in = NULL, *heap_out = NULL;
    cls_dtype input_dt = CLS_FLOAT32;

    if (!auxs) return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "arguments");
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
        case OPT_INPUT: input_path = v; break;
        case OPT_OUTPUT: output_path = v; break;
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
    if (snapshot_every && !output_path) {
        ret = cli_usage_error(self, "--snapshot-every writes files named after --output: give "
                                    "--output OUT.npy");
        goto done;
    }
    if ((ret = cli_plan_finish(self, &popt)) != CLI_EXIT_OK) goto done;
    ret = CLI_EXIT_FAIL;

    /* The output, before any work: writable, and none of the files the run reads. */
    if (output_path) {
        const char **ins = calloc(n_auxs + 2, sizeof *ins);
        if (!ins) {
            cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "arguments");
            goto done;
        }
        ins[0] = cli_looks_like_path(stencil_arg) ? stencil_arg : NULL;
        ins[1] = input_path;
        for (size_t a = 0; a < n_auxs; a++) ins[2 + a] = auxs[a].path;
        int bad = cli_check_outputs(&output_path, 1, ins, n_auxs + 2) != CLI_EXIT_OK;
        free(ins);
        if (bad) goto done;
    }

    /* The stencil, then the settings that change it. */
    if (cli_load_stencil(stencil_arg, &w.st) != CLS_SUCCESS) goto done;
    int dims = cls_stencil_dims(w.st);
    const char *sname = cls_stencil_name(w.st);

    /* The initial state: its file fixes the size and, unless --dtype says otherwise, the
     * precision. */
    if (input_path) {
        int ndim;
        size_t shape[3];
        if ((rc = cls_npy_read(input_path, &input_raw, &input_dt, &ndim, shape)) != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        if (ndim != dims) {
            char sh[96];
            shape_text(sh, sizeof sh, ndim, shape);
            cli_failf(CLS_ERR_INVALID_FILE,
                      "%s has shape %s (%d dimensions) but stencil '%s' is %dD", input_path, sh,
                      ndim, sname, dims);
            goto done;
        }
        cls_dims fsize = {{1, 1, 1}};
        for (int i = 0; i < ndim; i++) fsize.n[i] = shape[ndim - 1 - i];
        if (size_dims) {
            for (int i = 0; i < dims; i++)
                if (size.n[i] != fsize.n[i]) {
                    char a[96], b[96];
                    cli_format_size(a, sizeof a, size, size_dims);
                    cli_format_size(b, sizeof b, fsize, dims);
                    cli_failf(CLS_ERR_INVALID_SIZE, "--size %s differs from %s's size %s", a,
                              input_path, b);
                    goto done;
                }
        }
        size = fsize;
        size_dims = dims;
        if (!set.have_dtype) {
            set.have_dtype = 1;
            set.dtype = input_dt;
        }
    }
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
    if (input_raw) {
        rc = convert_copy(input_raw, input_dt, dt, cls_dims_points(size), &w.input, input_path);
        cls_free(input_raw);
        input_raw = NULL;
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
    w.n_aux = cls_stencil_num_aux(w.st);
    if (w.n_aux && !(w.aux = calloc(w.n_aux, sizeof *w.aux))) {
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "aux arrays");
        goto done;
    }
    for (size_t a = 0; a < n_auxs; a++) {
        w.aux[auxs[a].index] = auxs[a].data; /* the workload owns it now */
        auxs[a].data = NULL;
    }

    w.spare_grids = verify ? 3 : 0;
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
        void *pi = NULL, *po = NULL;
        if ((rc = cls_host_alloc(ctx, bytes, &pi)) != CLS_SUCCESS ||
            (rc = cls_host_alloc(ctx, bytes, &po)) != CLS_SUCCESS) {
            cls_host_free(ctx, pi);
            cli_fail(rc);
            goto done;
        }
        memcpy(pi, w.input, bytes);
        heap_in = w.input, heap_out = w.output;
        w.input = pi, w.output = po;
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
    size_t shape[3] = {1, 1, 1};
    for (int i = 0; i < dims; i++) shape[i] = g[i];
    cli_progress_attach(&prog, plan, sname);
    if (snapshot_every)
        rc = run_snapshots(plan, &w, snapshot_every, output_path, shape, &rep);
    else
        rc = cls_plan_run(plan, w.input, (const void *const *)w.aux, w.output, &rep);
    cli_progress_detach(&prog);
    if (rc != CLS_SUCCESS) {
        if (cli_interrupted()) {
            fprintf(stderr, "clstencil: interrupted\n");
            ret = 130;
        } else {
            cli_fail(rc);
        }
        goto done;
    }

    cli_verify ver;
    if (verify) {
        if (isatty(2)) fprintf(stderr, "verify: running the host reference...\n");
        if (cli_verify_run(&w, &ver) != CLS_SUCCESS) goto done;
    }
    /* Written only once verified: a result that fails --verify never replaces the file. */
    int written = 0;
    if (output_path && (!verify || ver.ok)) {
        if ((rc = cls_npy_write(output_path, w.output, dt, dims, shape)) != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        written = 1;
    }

    char stext[256], sz[96];
    cli_stencil_text(stext, sizeof stext, w.st);
    cli_format_size(sz, sizeof sz, w.size, dims);
    if (format == CLI_FORMAT_JSON) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_object(&j, "stencil");
        cli_json_str(&j, "name", sname);
        cli_json_int(&j, "dims", dims);
        cli_json_str(&j, "dtype", dt == CLS_FLOAT64 ? "double" : "float");
        cli_json_str(&j, "boundary", cls_boundary_name(cls_stencil_boundary(w.st)));
        cli_json_bool(&j, "exact", cls_stencil_is_exact(w.st));
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
        cli_json_str(&j, "output", written ? output_path : NULL);
        if (snapshot_every) cli_json_uint(&j, "snapshot_every", snapshot_every);
        if (verify) cli_verify_json(&j, &w, &ver);
        cli_json_end(&j);
    } else {
        printf("stencil: %s\n", stext);
        printf("grid: %s, %zu steps\n", sz, w.steps);
        cli_plan_text(stdout, plan, &pi, dims);
        if (mapping) printf("mapping: %s\n", mapping);
        cli_report_text(stdout, &w, &rep);
        if (written) printf("output: %s\n", output_path);
        else if (output_path) printf("output: not written (the result failed --verify)\n");
        if (snapshot_every) {
            char first[4096], last[4096];
            snapshot_name(first, sizeof first, output_path, snapshot_every, w.steps);
            snapshot_name(last, sizeof last, output_path,
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
    cls_free(input_raw);
    cls_free(mapping);
    cls_plan_release(plan);
    cli_plan_opts_free(&popt);
    if (heap_in) {
        cls_host_free(ctx, w.input);
        cls_host_free(ctx, w.output);
        w.input = heap_in, w.output = heap_out;
    }
    cls_context_release(ctx);
    cli_workload_free(&w);
    for (size_t a = 0; a < n_auxs; a++) free(auxs[a].data);
    free(auxs);
    cli_settings_free(&set);
    return ret;
}

const cli_command cli_cmd_run = {
    "run",
    "run a stencil on a device (and check it against the host reference)",
    "usage: clstencil run STENCIL [--size NXxNYxNZ] [--steps N]\n"
    "           [--boundary clamp|constant[=V]|periodic|mirror] [--dtype float|double]\n"
    "           [--param NAME=VALUE]... [--input IN.npy] [--aux NAME=FILE.npy]...\n"
    "           [--output OUT.npy] [--verify] [--schedule auto|naive|trapezoid|stream25d]\n"
    "           [--height H] [--sync restart|barrier]\n"
    "           [--local-size LXxLYxLZ] [--points-per-item N] [--device SEL] [--format text|json]\n"
    "           [--pipeline auto|off|basic|scalable|buffered] [--pipeline-tile TXxTYxTZ]\n"
    "           [--pipeline-steps H] [--rect] [--device-memory SIZE] [--pinned]\n"
    "           [--param SCHEDULE.NAME=VALUE]... [--max-registers R] [--rank-mapping]\n"
    "           [--snapshot-every K]",
    "Runs STENCIL for N steps on one device and prints the configuration the planner chose\n"
    "and the measured time per step, GPoints/s and effective GB/s.  STENCIL is the name of a\n"
    "built-in stencil (hotspot, pathfinder, poisson2d, cell3d, heat3d7, heat3d27,\n"
    "moving_average, emboss, jacobi3d) or a path to a JSON spec; an argument is a path when it\n"
    "contains '/' or ends in .json (./hotspot is the file, hotspot the built-in).\n"
    "\n"
    "Arrays not read from files are initialised deterministically: a smooth wave plus a small\n"
    "hash-based perturbation; cell3d starts from a random 0/1 field with ~30% live cells,\n"
    "an aux array named 'wall' holds random weights 0..9, one named 'power' a positive map.\n"
    "\n"
    "Options:\n"
    "  --size NXxNYxNZ     grid size, one part per dimension of the stencil (default: the\n"
    "                      input's shape, else 1048576, 1024x1024 or 128x128x128)\n"
    "  --steps N           time steps (default: the slices of a per-step --aux file, else 100)\n"
    "  --boundary B        clamp, constant[=V] (V defaults to 0), periodic or mirror\n"
    "  --dtype T           float or double (default: the spec's, or the input file's)\n"
    "  --param NAME=VALUE  set a declared scalar parameter of the stencil (repeatable)\n"
    "  --param S.NAME=VALUE  a schedule parameter, e.g. trapezoid.height=4 or\n"
    "                      stream25d.steps_per_pass=3 (`clstencil schedules` lists them)\n"
    "  --input IN.npy      initial state; NumPy shape (NZ, NY, NX), float32 or float64\n"
    "  --aux NAME=FILE.npy auxiliary array NAME (repeatable); per-step arrays hold\n"
    "                      STEPS slices: shape (STEPS, NY, NX) or (STEPS*NZ, NY, NX)\n"
    "  --output OUT.npy    write the final state (checked writable, and not one of the\n"
    "                      inputs, before the run; with --verify only a verified result)\n"
    "  --verify            compare with the host reference: bitwise when the body is exact,\n"
    "                      else max relative error <= 1e-5 (float) or 1e-12 (double);\n"
    "                      exit status 1 on a mismatch\n"
    "  --schedule S        auto (default: the naive or the trapezoid schedule, whichever the\n"
    "                      ghost-zone model predicts faster; 3D stencils on GPUs may stream\n"
    "                      with stream25d), naive, trapezoid, stream25d (3D only) or\n"
    "                      pipeline (runs through the device tile by tile)\n"
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
    "  --pinned            the state in pinned host memory (cls_host_alloc)\n"
    "  --max-registers R   registers per work-item NVIDIA's compiler may use (16..255)\n"
    "  --rank-mapping      rank the plan's mapping among its schedule's variants by CuMAPz\n"
    "                      (Kim & Shrivastava) on the device model: a line 'mapping: ...'\n"
    "  --snapshot-every K  keep the grid on the device and write its state after K, 2K, ...\n"
    "                      steps to OUT-<step>.npy (the step zero-padded to the width of\n"
    "                      --steps: u-0100.npy ... u-1000.npy for --output u.npy); --output\n"
    "                      gets the final state as without it\n"
    "  --device SEL        device selector (overrides CLSTENCIL_DEVICE): gpu, cpu,\n"
    "                      accelerator, gpu:N, P:D or a name substring\n"
    "  --format F          text (default) or json\n"
    "  -h, --help          show this help\n",
    run_main,
};
