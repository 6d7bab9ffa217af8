/* stencil.c: the stencil specification object: C builder API, accessors and validation. */
#include <ctype.h>
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "internal.h"
#include "traffic.h"

/* Names the body language reserves; parameters and aux arrays may not take them. */
static const char *const reserved_names[] = {
    "IN", "AUX", "X", "Y", "Z", "NX", "NY", "NZ", "STEP", "real", "float", "double", "int",
    "return", "const", "min", "max", "clamp", "fmin", "fmax", "fabs", "floor", "ceil", "trunc",
    "round", "sqrt", "fma", "copysign", "exp", "exp2", "exp10", "log", "log2", "log10", "pow",
    "sin", "cos", "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "atan2", "cbrt",
    "hypot", "erf", "in", "out",
    /* C and OpenCL C keywords and types: parameters become locals of the generated code. */
    "kernel", "global", "local", "constant", "private", "read_only", "write_only", "read_write",
    "restrict", "inline", "static", "extern", "volatile", "register", "auto", "void", "char",
    "short", "long", "uint", "ulong", "uchar", "ushort", "half", "bool", "size_t", "signed",
    "unsigned", "if", "else", "for", "while", "do", "switch", "case", "default", "break",
    "continue", "goto", "sizeof", "typedef", "struct", "union", "enum", "true", "false", NULL};

static int valid_identifier(const char *s)
{
    if (!cls__valid_name(s)) return 0;
    /* cls_, CLS_ and __ are the generated code's and the compiler's namespaces. */
    if (!strncmp(s, "cls_", 4) || !strncmp(s, "CLS_", 4) || !strncmp(s, "__", 2)) return 0;
    /* aux0, aux1, ... are the update function's array arguments. */
    if (!strncmp(s, "aux", 3) && s[3] && strspn(s + 3, "0123456789") == strlen(s + 3)) return 0;
    for (const char *const *r = reserved_names; *r; r++)
        if (!strcmp(s, *r)) return 0;
    return 1;
}

int cls__valid_name(const char *s)
{
    if (!s || !*s || strlen(s) >= CLS__NAME_MAX) return 0;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (const char *p = s + 1; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return 0;
    return 1;
}

cls_status cls_stencil_create(const char *name, int dims, cls_dtype dtype, const char *body,
                              cls_stencil **out)
{
    if (!out) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_create: out is NULL");
    *out = NULL;
    if (dims < 1 || dims > 3)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "dims: must be 1, 2 or 3, got %d", dims);
    if (dtype != CLS_FLOAT32 && dtype != CLS_FLOAT64)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "dtype: must be float or double");
    /* The name labels messages, reports and files; an identifier cannot carry comment
     * delimiters, preprocessor lines or terminal escapes into any of them. */
    if (name && !cls__valid_name(name)) {
        char q[CLS__QUOTE_MAX];
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "name: %s is not a valid stencil name (letters, digits and '_', not "
                         "starting with a digit, 1..%d characters)",
                         cls__quote(q, sizeof q, name), CLS__NAME_MAX - 1);
    }
    cls_stencil *st = calloc(1, sizeof *st);
    if (!st) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating a stencil");
    snprintf(st->name, sizeof st->name, "%s", name ? name : "custom");
    st->dims = dims;
    st->dtype = dtype;
    st->boundary = CLS_BOUNDARY_CLAMP;
    if (body) {
        char *copy = cls__strdup(body);
        if (!copy) {
            free(st);
            return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "copying the body");
        }
        atomic_store(&st->body, copy);
    }
    *out = st;
    return CLS_SUCCESS;
}

void cls_stencil_release(cls_stencil *st)
{
    if (!st) return;
    free(st->description);
    free(atomic_load(&st->body));
    free(st->points);
    free(st->aux);
    free(st->params);
    cls__system_free(st);
    free(st);
}

cls_status cls_stencil_copy(const cls_stencil *st, cls_stencil **copy)
{
    if (!st || !copy) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_copy: NULL");
    cls_stencil *c = calloc(1, sizeof *c);
    if (!c) goto oom;
    *c = *st;
    c->description = NULL;
    c->body = NULL;
    c->points = NULL;
    c->aux = NULL;
    c->params = NULL;
    if (st->description && !(c->description = cls__strdup(st->description))) goto oom;
    char *body = atomic_load(&st->body);
    if (body) {
        char *b = cls__strdup(body);
        if (!b) goto oom;
        atomic_store(&c->body, b);
    }
    c->cap_points = st->n_points;
    if (st->n_points) {
        if (!(c->points = malloc(st->n_points * sizeof *c->points))) goto oom;
        memcpy(c->points, st->points, st->n_points * sizeof *c->points);
    }
    if (st->n_aux) {
        if (!(c->aux = malloc(st->n_aux * sizeof *c->aux))) goto oom;
        memcpy(c->aux, st->aux, st->n_aux * sizeof *c->aux);
    }
    if (st->n_params) {
        if (!(c->params = malloc(st->n_params * sizeof *c->params))) goto oom;
        memcpy(c->params, st->params, st->n_params * sizeof *c->params);
    }
    if (cls__system_copy(st, c) != CLS_SUCCESS) goto oom;
    *copy = c;
    return CLS_SUCCESS;
oom:
    cls_stencil_release(c);
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "copying a stencil");
}

/* The bits of a coefficient: equal bits, equal coefficient (so 0.0 and -0.0 stay apart). */
static uint64_t coef_bits(double c)
{
    uint64_t u;
    memcpy(&u, &c, sizeof u);
    return u;
}

/* The body of the points, in O(n): common sub-expression elimination (Mo & Li, Sect. 6.3):
 * points with equal coefficients share one multiplication, c * (IN(a) + IN(b) + ...).  Groups
 * follow the first appearance of their coefficient, points within a group the order given,
 * and a coefficient of 1 multiplies nothing (x * 1 == x exactly).  The symmetric 27-point
 * stencil (4 weights) needs 4 multiplications and 26 additions instead of 27 and 26.  A hash
 * of the coefficients' bits numbers the groups and a counting sort orders the points, so a
 * stencil of 100 000 points builds in milliseconds. */
static char *points_body(const cls_stencil *st)
{
    static const char *const axis_fmt[3] = {"IN(%d)", "IN(%d, %d)", "IN(%d, %d, %d)"};
    const size_t n = st->n_points;
    char *buf = NULL, num[40];
    size_t len = 0, cap = 0, hcap = 16, groups = 0;
    size_t *group = NULL, *slot = NULL, *first = NULL, *start = NULL, *order = NULL;
    if (!n) return cls__strdup("0");
    while (hcap < 2 * n) hcap *= 2;
    if (!(group = malloc(n * sizeof *group)) || !(slot = malloc(hcap * sizeof *slot)) ||
        !(first = malloc(n * sizeof *first)) || !(start = calloc(n + 1, sizeof *start)) ||
        !(order = malloc(n * sizeof *order)))
        goto oom;
    for (size_t h = 0; h < hcap; h++) slot[h] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        uint64_t key = coef_bits(st->points[i].coef);
        size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & (hcap - 1);
        while (slot[h] != SIZE_MAX && coef_bits(st->points[first[slot[h]]].coef) != key)
            h = (h + 1) & (hcap - 1);
        if (slot[h] == SIZE_MAX) {
            slot[h] = groups;
            first[groups++] = i;
        }
        group[i] = slot[h];
        start[group[i] + 1]++;
    }
    for (size_t g = 0; g < groups; g++) start[g + 1] += start[g];
    for (size_t i = 0; i < n; i++) order[start[group[i]]++] = i; /* start[g] ends at g's end */
    for (size_t g = 0, k = 0; g < groups; g++) {
        const double c = st->points[first[g]].coef;
        const size_t end = start[g], members = end - k;
        /* %.17g round-trips the coefficient, so host and device use the same value. */
        if (cls__appendf(&buf, &len, &cap, "%s", g ? " + " : "") < 0 ||
            (c != 1 && cls__appendf(&buf, &len, &cap, "%s * ", cls__fmt_double(num, c)) < 0) ||
            (members > 1 && cls__appendf(&buf, &len, &cap, "(") < 0))
            goto oom;
        for (size_t j = 0; k < end; k++, j++) {
            const cls__point *p = &st->points[order[k]];
            if ((j && cls__appendf(&buf, &len, &cap, " + ") < 0) ||
                cls__appendf(&buf, &len, &cap, axis_fmt[st->dims - 1], p->off[0], p->off[1],
                             p->off[2]) < 0)
                goto oom;
        }
        if (members > 1 && cls__appendf(&buf, &len, &cap, ")") < 0) goto oom;
    }
    free(group);
    free(slot);
    free(first);
    free(start);
    free(order);
    return buf;
oom:
    free(group);
    free(slot);
    free(first);
    free(start);
    free(order);
    free(buf);
    return NULL;
}

const char *cls__stencil_body(const cls_stencil *cst, int *oom)
{
    /* The built text is a cache of the points: storing it leaves the stencil's value as it
     * was, so a const stencil may fill it (the object itself was malloc'ed, never const). */
    cls_stencil *st = (cls_stencil *)cst;
    char *body = atomic_load(&st->body), *expected = NULL;
    if (oom) *oom = 0;
    if (body || !st->body_from_points) return body;
    if (!(body = points_body(st))) {
        if (oom) *oom = 1;
        return NULL;
    }
    if (atomic_compare_exchange_strong(&st->body, &expected, body)) return body;
    free(body); /* another thread stored the same text first */
    return expected;
}

cls_status cls_stencil_add_point(cls_stencil *st, int dx, int dy, int dz, double coef)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_add_point: NULL");
    if (st->n_fields)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "points: '%s' is a system of fields; its stages' updates have bodies",
                         st->name);
    if (atomic_load(&st->body) && !st->body_from_points)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "points: the stencil already has a body; give a body or points, not both");
    if (!isfinite(coef))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "points: coefficient must be finite");
    int off[3] = {dx, dy, dz};
    for (int i = 0; i < 3; i++) {
        if (i >= st->dims && off[i] != 0)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "points: offset in dimension %d of a %d-D stencil must be 0", i + 1,
                             st->dims);
        if (off[i] < -1024 || off[i] > 1024)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "points: offset %d out of range +-1024",
                             off[i]);
    }
    if (st->n_points == st->cap_points) {
        size_t cap = st->cap_points ? 2 * st->cap_points : 32;
        cls__point *np = cap <= SIZE_MAX / sizeof *np ? realloc(st->points, cap * sizeof *np) : NULL;
        if (!np) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "adding a point");
        st->points = np;
        st->cap_points = cap;
    }
    st->points[st->n_points++] = (cls__point){{dx, dy, dz}, coef};
    /* The body follows the points: rebuilt on its next use, not on every point. */
    free(atomic_exchange(&st->body, NULL));
    st->body_from_points = 1;
    return CLS_SUCCESS;
}

int cls__stencil_aux_index(const cls_stencil *st, const char *name)
{
    for (size_t i = 0; i < st->n_aux; i++)
        if (!strcmp(st->aux[i].name, name)) return (int)i;
    return -1;
}

int cls__stencil_param_index(const cls_stencil *st, const char *name)
{
    for (size_t i = 0; i < st->n_params; i++)
        if (!strcmp(st->params[i].name, name)) return (int)i;
    return -1;
}

cls_status cls_stencil_add_aux(cls_stencil *st, const char *name, int per_step)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_add_aux: NULL");
    char q[CLS__QUOTE_MAX];
    if (!valid_identifier(name))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "aux: %s is not a valid name (identifier, not reserved, < %d chars)",
                         cls__quote(q, sizeof q, name), CLS__NAME_MAX);
    if (cls__stencil_aux_index(st, name) >= 0 || cls__stencil_param_index(st, name) >= 0 ||
        cls__stencil_field_index(st, name) >= 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "aux: name '%s' is already used", name);
    if (st->n_aux >= 16)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "aux: at most 16 auxiliary arrays");
    cls__aux *na = realloc(st->aux, (st->n_aux + 1) * sizeof *na);
    if (!na) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "adding an aux array");
    st->aux = na;
    memset(&st->aux[st->n_aux], 0, sizeof *na);
    snprintf(st->aux[st->n_aux].name, CLS__NAME_MAX, "%s", name);
    st->aux[st->n_aux].per_step = per_step != 0;
    st->n_aux++;
    return CLS_SUCCESS;
}

cls_status cls_stencil_set_halo(cls_stencil *st, int hx, int hy, int hz)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_set_halo: NULL");
    int h[3] = {hx, hy, hz};
    for (int i = 0; i < 3; i++) {
        if (h[i] < 0 || h[i] > 1024)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "halo[%d]: must be 0..1024, got %d", i,
                             h[i]);
        if (i >= st->dims && h[i] != 0)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "halo[%d]: a %d-D stencil has no dimension %d", i, st->dims, i + 1);
    }
    memcpy(st->halo, h, sizeof h);
    st->halo_explicit = 1;
    return CLS_SUCCESS;
}

cls_status cls_stencil_set_param(cls_stencil *st, const char *name, double value)
{
    if (!st || !name) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_set_param: NULL");
    char q[CLS__QUOTE_MAX];
    int k = cls__stencil_param_index(st, name);
    if (k < 0 && !valid_identifier(name))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "params: %s is not a valid name (identifier, not reserved)",
                         cls__quote(q, sizeof q, name));
    if (!isfinite(value))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "params.%s: value must be finite", name);
    if (k < 0) {
        if (cls__stencil_aux_index(st, name) >= 0 || cls__stencil_field_index(st, name) >= 0)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "params: '%s' is already an aux array's or a field's name", name);
        if (st->n_params >= 256)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "params: at most 256 parameters");
        cls__param *np = realloc(st->params, (st->n_params + 1) * sizeof *np);
        if (!np) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "adding a parameter");
        st->params = np;
        memset(&st->params[st->n_params], 0, sizeof *np);
        snprintf(st->params[st->n_params].name, CLS__NAME_MAX, "%s", name);
        k = (int)st->n_params++;
    }
    double old = st->params[k].value;
    st->params[k].value = value;
    if (st->regen) {
        cls_status s = st->regen(st);
        if (s != CLS_SUCCESS) {
            st->params[k].value = old;
            st->regen(st);
            return s;
        }
    }
    return CLS_SUCCESS;
}

cls_status cls_stencil_get_param(const cls_stencil *st, const char *name, double *value)
{
    if (!st || !name || !value)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_get_param: NULL");
    int k = cls__stencil_param_index(st, name);
    if (k < 0) {
        char q[CLS__QUOTE_MAX];
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "stencil '%s' has no parameter %s",
                         st->name, cls__quote(q, sizeof q, name));
    }
    *value = st->params[k].value;
    return CLS_SUCCESS;
}

cls_status cls_stencil_set_dtype(cls_stencil *st, cls_dtype dtype)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_set_dtype: NULL");
    if (dtype != CLS_FLOAT32 && dtype != CLS_FLOAT64)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "dtype: must be float or double");
    st->dtype = dtype;
    return CLS_SUCCESS;
}

cls_status cls_stencil_set_boundary(cls_stencil *st, cls_boundary b, double value)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_set_boundary: NULL");
    if ((int)b < 0 || (int)b > CLS_BOUNDARY_MIRROR)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "boundary: unknown kind %d", (int)b);
    if (!isfinite(value))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "boundary.value: must be finite");
    st->boundary = b;
    st->boundary_value = b == CLS_BOUNDARY_CONSTANT ? value : 0.0;
    return CLS_SUCCESS;
}

/* Parses the body against the spec's names; the caller frees *e.  A system's is its first
 * update's (its representative for the planner's questions about the body). */
static cls_status parse_body(const cls_stencil *st, cls_expr **e)
{
    if (st->n_fields) {
        if (!st->n_stages || !st->stages[0].n)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: stages: a system needs at least one stage", st->name);
        return cls__stencil_parse_update(st, 0, 0, e);
    }
    const char *aux_names[16];
    const char **param_names = NULL;
    cls_status s = CLS_SUCCESS;
    int oom;
    const char *body = cls__stencil_body(st, &oom);
    if (!body)
        return oom ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "building the body of the points")
                   : cls__fail(NULL, CLS_ERR_INVALID_SPEC, "body: missing (give a body or points)");
    if (st->n_params && !(param_names = malloc(st->n_params * sizeof *param_names)))
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "parsing the body");
    for (size_t i = 0; i < st->n_aux; i++) aux_names[i] = st->aux[i].name;
    for (size_t i = 0; i < st->n_params; i++) param_names[i] = st->params[i].name;
    cls_expr_env env = {st->lift_2d ? 2 : st->dims, st->dtype == CLS_FLOAT64, st->n_aux,
                        aux_names, st->n_params, param_names, 0, NULL, 0};
    char err[512];
    int r = cls__expr_parse(body, &env, e, err, sizeof err);
    if (r == -2) s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "parsing the body");
    else if (r != 0)
        s = cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: body: %s", st->name, err);
    else if (st->lift_2d)
        cls__expr_lift_2d(*e);
    free(param_names);
    return s;
}

cls_status cls__stencil_parse(const cls_stencil *st, cls_expr **e) { return parse_body(st, e); }

/* The halo the body needs: the largest |offset| per dimension over IN and AUX reads. */
static void body_halo(const cls_stencil *st, const cls_expr *e, int need[3])
{
    int lo[3], hi[3], used;
    need[0] = need[1] = need[2] = 0;
    cls__expr_in_extent(e, lo, hi, &used);
    for (int d = 0; used && d < 3; d++) {
        if (-lo[d] > need[d]) need[d] = -lo[d];
        if (hi[d] > need[d]) need[d] = hi[d];
    }
    for (size_t k = 0; k < st->n_aux; k++) {
        cls__expr_aux_extent(e, k, lo, hi, &used);
        for (int d = 0; used && d < 3; d++) {
            if (-lo[d] > need[d]) need[d] = -lo[d];
            if (hi[d] > need[d]) need[d] = hi[d];
        }
    }
}

static const char *const axis_name[3] = {"x", "y", "z"};

cls_status cls__stencil_check(const cls_stencil *st, const cls_dims *dims, size_t steps)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "stencil is NULL");
    if (st->dims < 1 || st->dims > 3)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "dims: must be 1, 2 or 3");
    cls_expr *e = NULL;
    cls_status s;
    int need[3];
    if (st->n_fields) {
        if ((s = cls__system_check(st, need)) != CLS_SUCCESS) return s;
    } else {
        if ((s = parse_body(st, &e)) != CLS_SUCCESS) return s;
        body_halo(st, e, need);
        cls__expr_free(e);
    }
    int halo[3];
    cls_stencil_halo(st, halo);
    for (int d = 0; d < 3; d++)
        if (need[d] > halo[d])
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: halo: the body reads offset %d in %s but halo[%d] is %d",
                             st->name, need[d], axis_name[d], d, halo[d]);
    if (!dims) return CLS_SUCCESS;
    for (int d = 0; d < 3; d++) {
        if (dims->n[d] == 0)
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE, "size: %s must be positive, got 0",
                             axis_name[d]);
        if (d >= st->dims && dims->n[d] != 1)
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                             "size: a %d-D stencil takes %d size%s, but %s is %zu", st->dims,
                             st->dims, st->dims > 1 ? "s" : "", axis_name[d], dims->n[d]);
        /* Kernels index with int per axis; keep every coordinate +-halo representable. */
        if (dims->n[d] > (size_t)1 << 30)
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE, "size: %s = %zu exceeds 2^30",
                             axis_name[d], dims->n[d]);
        if (d < st->dims && (size_t)halo[d] >= dims->n[d])
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                             "size: halo %d in %s does not fit a grid of %zu points (need > halo)",
                             halo[d], axis_name[d], dims->n[d]);
    }
    size_t pts = cls_dims_points(*dims);
    size_t elem = cls_dtype_size(st->dtype) * cls_stencil_num_fields(st);
    if (pts == 0 || pts > SIZE_MAX / elem)
        return cls__fail(NULL, CLS_ERR_INVALID_SIZE, "size: %zux%zux%zu overflows", dims->n[0],
                         dims->n[1], dims->n[2]);
    for (size_t k = 0; k < st->n_aux; k++) {
        if (!st->aux[k].per_step) continue;
        if (steps == 0) continue;
        if (steps > SIZE_MAX / (pts * elem))
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                             "size: per-step aux '%s' of %zu steps overflows", st->aux[k].name,
                             steps);
    }
    return CLS_SUCCESS;
}

cls_status cls_stencil_validate(const cls_stencil *st) { return cls__stencil_check(st, NULL, 0); }

int cls_stencil_is_exact(const cls_stencil *st)
{
    cls_expr *e = NULL;
    if (st && st->n_fields) return cls__system_is_exact(st);
    if (!st || parse_body(st, &e) != CLS_SUCCESS) return 0;
    int r = cls__expr_is_exact(e);
    cls__expr_free(e);
    return r;
}

cls_status cls_stencil_flops(const cls_stencil *st, size_t *flops)
{
    cls_expr *e = NULL;
    cls_status s;
    if (!st || !flops) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_flops: NULL");
    if (st->n_fields) return cls__system_flops(st, flops);
    if ((s = parse_body(st, &e)) != CLS_SUCCESS) return s;
    *flops = cls__expr_flops(e);
    cls__expr_free(e);
    return CLS_SUCCESS;
}

const char *cls_stencil_name(const cls_stencil *st) { return st ? st->name : NULL; }
int cls_stencil_dims(const cls_stencil *st) { return st ? st->dims : 0; }
cls_dtype cls_stencil_dtype(const cls_stencil *st) { return st ? st->dtype : CLS_FLOAT32; }
cls_boundary cls_stencil_boundary(const cls_stencil *st)
{
    return st ? st->boundary : CLS_BOUNDARY_CLAMP;
}
size_t cls_stencil_num_aux(const cls_stencil *st) { return st ? st->n_aux : 0; }
const char *cls_stencil_aux_name(const cls_stencil *st, size_t k)
{
    return st && k < st->n_aux ? st->aux[k].name : NULL;
}
int cls_stencil_aux_per_step(const cls_stencil *st, size_t k)
{
    return st && k < st->n_aux ? st->aux[k].per_step : 0;
}
const char *cls_stencil_body(const cls_stencil *st) { return st ? cls__stencil_body(st, NULL) : NULL; }
size_t cls_stencil_num_params(const cls_stencil *st) { return st ? st->n_params : 0; }
const char *cls_stencil_param_name(const cls_stencil *st, size_t k)
{
    return st && k < st->n_params ? st->params[k].name : NULL;
}
double cls_stencil_boundary_value(const cls_stencil *st) { return st ? st->boundary_value : 0; }
const char *cls_stencil_description(const cls_stencil *st)
{
    return st && st->description ? st->description : "";
}

void cls_stencil_halo(const cls_stencil *st, int halo[3])
{
    halo[0] = halo[1] = halo[2] = 0;
    if (!st) return;
    if (st->halo_explicit) {
        memcpy(halo, st->halo, sizeof st->halo);
        return;
    }
    /* Derived from the body: what it actually reads (in a system, every update). */
    if (st->n_fields) {
        if (cls__system_check(st, halo) != CLS_SUCCESS) halo[0] = halo[1] = halo[2] = 0;
        return;
    }
    cls_expr *e = NULL;
    if (parse_body(st, &e) != CLS_SUCCESS) return;
    body_halo(st, e, halo);
    cls__expr_free(e);
}

double cls_stencil_min_bytes_per_point(const cls_stencil *st)
{
    if (!st) return 0;
    if (st->n_fields) return cls__system_min_bytes_per_point(st);
    /* the state read and written once, the auxiliary arrays read once (model/traffic.c) */
    const double one = 1;
    return cls_traffic_minimal_bytes((double)cls_dtype_size(st->dtype), &one, &one, 1,
                                     (double)st->n_aux);
}

static const char *const boundary_names[] = {"clamp", "constant", "periodic", "mirror"};

const char *cls_boundary_name(cls_boundary b)
{
    return (int)b >= 0 && (int)b <= CLS_BOUNDARY_MIRROR ? boundary_names[b] : "unknown";
}

cls_status cls_boundary_from_name(const char *name, cls_boundary *b)
{
    for (int i = 0; name && i <= CLS_BOUNDARY_MIRROR; i++)
        if (!strcmp(name, boundary_names[i])) {
            *b = (cls_boundary)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                     "boundary: unknown kind '%s' (clamp, constant, periodic, mirror)",
                     name ? name : "(null)");
}
