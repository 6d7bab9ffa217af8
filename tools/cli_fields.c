/* cli_fields.c: a system's fields on the command line: the FIELD=FILE options that name them,
 * and the deterministic initial values of the fields no file gives. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ================================================================ FIELD=FILE options */
/* Whether s[0..n) is a field name: a letter or '_', then letters, digits or '_'. */
static int is_name(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return 0;
    return 1;
}

int cli_field_file_parse(cli_field_file *a, const char *option, const char *value)
{
    memset(a, 0, sizeof *a);
    a->option = option;
    a->arg = value;
    a->path = value;
    a->index = -1;
    const char *eq = strchr(value, '=');
    if (!eq || !is_name(value, (size_t)(eq - value))) return 0;
    if ((size_t)(eq - value) >= sizeof a->field || !eq[1]) return -1;
    memcpy(a->field, value, (size_t)(eq - value));
    a->path = eq + 1;
    return 0;
}

/* "u, u_prev" */
static void field_list(char *buf, size_t len, const cls_stencil *st)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t f = 0; f < cls_stencil_num_fields(st) && used < len; f++) {
        int m = snprintf(buf + used, len - used, "%s%s", f ? ", " : "",
                         cls_stencil_field_name(st, f));
        if (m < 0) break;
        used += (size_t)m;
    }
}

int cli_field_files_resolve(cli_field_file *a, size_t n, const cls_stencil *st)
{
    char q[CLI_QUOTE_MAX], q2[CLI_QUOTE_MAX], list[512];
    const char *sname = cls_stencil_name(st);
    int system = cls_stencil_is_system(st);
    field_list(list, sizeof list, st);
    for (size_t i = 0; i < n; i++) {
        if (!a[i].field[0]) {
            if (system)
                return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                                 "%s %s: '%s' is a system of fields (%s): name the field, as "
                                 "%s FIELD=FILE",
                                 a[i].option, cli_quote(q, sizeof q, a[i].arg), sname, list,
                                 a[i].option),
                       CLS_ERR_INVALID_ARGUMENT;
            a[i].index = 0;
        } else {
            a[i].index = cls_stencil_field_index(st, a[i].field);
            if (a[i].index < 0)
                return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                                 "%s %s: stencil '%s' has no field %s (its field%s: %s)",
                                 a[i].option, cli_quote(q, sizeof q, a[i].arg), sname,
                                 cli_quote(q2, sizeof q2, a[i].field),
                                 cls_stencil_num_fields(st) == 1 ? "" : "s", list),
                       CLS_ERR_INVALID_ARGUMENT;
        }
        for (size_t k = 0; k < i; k++) {
            if (a[k].index != a[i].index || strcmp(a[k].option, a[i].option) != 0) continue;
            if (!system)
                return cli_failf(CLS_ERR_INVALID_ARGUMENT, "%s given twice (%s and %s)",
                                 a[i].option, cli_quote(q, sizeof q, a[k].arg),
                                 cli_quote(q2, sizeof q2, a[i].arg)),
                       CLS_ERR_INVALID_ARGUMENT;
            return cli_failf(CLS_ERR_INVALID_ARGUMENT, "%s: field '%s' is given twice (%s and %s)",
                             a[i].option, cls_stencil_field_name(st, (size_t)a[i].index),
                             cli_quote(q, sizeof q, a[k].arg), cli_quote(q2, sizeof q2, a[i].arg)),
                   CLS_ERR_INVALID_ARGUMENT;
        }
    }
    return CLS_SUCCESS;
}

/* ================================================================ initial values */
typedef enum start_kind { START_SMOOTH, START_ZERO, START_PULSE, START_GS_U, START_GS_V } start_kind;

/* The built-in systems' starts, by stencil and field (clstencil(1) and `clstencil run --help`
 * describe them); a field of any other system starts smooth. */
static const struct {
    const char *stencil, *field;
    start_kind kind;
} starts[] = {
    {"wave2d", "u", START_PULSE},        {"wave3d", "u", START_PULSE},
    {"acoustic3d_r4", "u", START_PULSE}, {"gray_scott", "u", START_GS_U},
    {"gray_scott", "v", START_GS_V},     {"fdtd2d", "Ex", START_ZERO},
    {"fdtd2d", "Ey", START_ZERO},        {"fdtd2d", "Hz", START_PULSE},
    {"fdtd3d", "Ex", START_ZERO},        {"fdtd3d", "Ey", START_ZERO},
    {"fdtd3d", "Ez", START_PULSE},       {"fdtd3d", "Hx", START_ZERO},
    {"fdtd3d", "Hy", START_ZERO},        {"fdtd3d", "Hz", START_ZERO},
};

static start_kind start_of(const cls_stencil *st, const char *field)
{
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (strcmp(starts[i].stencil, cls_stencil_name(st)) == 0 &&
            strcmp(starts[i].field, field) == 0)
            return starts[i].kind;
    return START_SMOOTH;
}

static void put(void *a, cls_dtype dt, size_t i, double v)
{
    if (dt == CLS_FLOAT64)
        ((double *)a)[i] = v;
    else
        ((float *)a)[i] = (float)v;
}

/* Pulse: exp(-r^2 / (2 s^2)) around the grid's centre, s an eighth of the smallest extent of
 * the stencil's dimensions (at least one point).  Gray-Scott (Pearson 1993): u = 1, v = 0,
 * except a centred square of a fifth of the smallest extent where u = 0.5, v = 0.25, each
 * perturbed there by up to +-1% (a hash of the point), which breaks the symmetry so that the
 * pattern forms. */
static void start_field(void *a, cls_dtype dt, cls_dims d, int dims, start_kind kind,
                        const char *seed)
{
    size_t nmin = d.n[0];
    for (int i = 1; i < dims; i++)
        if (d.n[i] < nmin) nmin = d.n[i];
    double s = nmin / 8.0 > 1.0 ? nmin / 8.0 : 1.0;
    size_t side = nmin / 5 ? nmin / 5 : 1, idx = 0;
    for (size_t z = 0; z < d.n[2]; z++)
        for (size_t y = 0; y < d.n[1]; y++)
            for (size_t x = 0; x < d.n[0]; x++, idx++) {
                const size_t p[3] = {x, y, z};
                double r2 = 0.0, v = 0.0;
                int inside = 1;
                for (int i = 0; i < dims; i++) {
                    double c = ((double)p[i] - 0.5 * (double)(d.n[i] - 1));
                    r2 += c * c;
                    size_t lo = (d.n[i] - side) / 2;
                    inside &= p[i] >= lo && p[i] < lo + side;
                }
                double noise = 1.0 + 0.02 * (cli_hash_unit(seed, idx) - 0.5);
                switch (kind) {
                case START_PULSE: v = exp(-r2 / (2.0 * s * s)); break;
                case START_GS_U: v = inside ? 0.5 * noise : 1.0; break;
                case START_GS_V: v = inside ? 0.25 * noise : 0.0; break;
                default: v = 0.0; break;
                }
                put(a, dt, idx, v);
            }
}

int cli_system_initial(cli_workload *w, const unsigned char *given)
{
    cls_dtype dt = cls_stencil_dtype(w->st);
    size_t bytes = w->points * cls_dtype_size(dt);
    unsigned char *done = calloc(w->n_fields, 1);
    if (!done)
        return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "initial values"),
               CLS_ERR_OUT_OF_HOST_MEMORY;
    for (size_t f = 0; f < w->n_fields; f++) {
        const char *name = cls_stencil_field_name(w->st, f);
        if (given[f] || cls_stencil_field_previous(w->st, f)) continue;
        start_kind k = start_of(w->st, name);
        if (k == START_SMOOTH)
            cli_fill_smooth(w->fields_in[f], dt, w->size, name);
        else
            start_field(w->fields_in[f], dt, w->size, w->dims, k, name);
    }
    /* A time level not given starts as its field (at rest); a level of a level waits for the
     * one it copies.  The spec's check refuses cycles, so each pass settles at least one. */
    for (size_t pass = 0; pass < w->n_fields; pass++)
        for (size_t f = 0; f < w->n_fields; f++) {
            const char *prev = cls_stencil_field_previous(w->st, f);
            if (given[f] || !prev || done[f]) continue;
            int p = cls_stencil_field_index(w->st, prev);
            if (p < 0) continue;
            if (!given[p] && cls_stencil_field_previous(w->st, (size_t)p) && !done[p])
                continue;
            memcpy(w->fields_in[f], w->fields_in[p], bytes);
            done[f] = 1;
        }
    free(done);
    return CLS_SUCCESS;
}
