/* reference.c: the host reference executor: the stencil's semantics in plain C, interpreted
 * from the same parsed body the kernels are generated from (lib/expr.c). */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "internal.h"

typedef struct ref_state {
    const cls_stencil *st;
    int n[3];
    size_t points;
    const void *cur;            /* the state being read this step */
    const void *const *aux;
    int step;
    int x, y, z;
} ref_state;

/* The same folding as cls_fold in cl/prelude.cl (halo < n, so one fold suffices). */
static int fold(cls_boundary b, int i, int n)
{
    switch (b) {
    case CLS_BOUNDARY_PERIODIC: return i < 0 ? i + n : (i >= n ? i - n : i);
    case CLS_BOUNDARY_MIRROR: return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i);
    default: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    }
}

static double ref_read(void *user, int array, const int off[3])
{
    ref_state *r = user;
    const cls_stencil *st = r->st;
    int c[3] = {r->x + off[0], r->y + off[1], r->z + off[2]};
    int is_double = st->dtype == CLS_FLOAT64;
    if (st->boundary == CLS_BOUNDARY_CONSTANT) {
        for (int d = 0; d < 3; d++)
            if (c[d] < 0 || c[d] >= r->n[d])
                return is_double ? st->boundary_value : (double)(float)st->boundary_value;
    } else {
        for (int d = 0; d < 3; d++) c[d] = fold(st->boundary, c[d], r->n[d]);
    }
    size_t idx = (size_t)c[0] + (size_t)r->n[0] * ((size_t)c[1] + (size_t)r->n[1] * (size_t)c[2]);
    const void *base = r->cur;
    if (array >= 0) {
        base = r->aux[array];
        if (st->aux[array].per_step) idx += (size_t)r->step * r->points;
    }
    return is_double ? ((const double *)base)[idx] : (double)((const float *)base)[idx];
}

cls_status cls_reference_run(const cls_stencil *st, cls_dims dims, size_t steps,
                             const void *input, const void *const *aux, void *output)
{
    if (!st || !input || !output)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_reference_run: NULL argument");
    cls_status s = cls__stencil_check(st, &dims, steps);
    if (s != CLS_SUCCESS) return s;
    for (size_t k = 0; k < st->n_aux; k++)
        if (!aux || !aux[k])
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "cls_reference_run: stencil '%s' needs auxiliary array '%s'",
                             st->name, st->aux[k].name);
    if (steps > 2147483647u)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "steps: at most 2^31-1");

    const char *aux_names[16];
    const char **param_names = NULL;
    double *params = NULL;
    void *bufs[2] = {NULL, NULL};
    cls_expr *e = NULL;
    size_t points = cls_dims_points(dims), elem = cls_dtype_size(st->dtype);
    int is_double = st->dtype == CLS_FLOAT64;

    if (st->n_params && (!(param_names = malloc(st->n_params * sizeof *param_names)) ||
                         !(params = malloc(st->n_params * sizeof *params))))
        goto oom;
    for (size_t i = 0; i < st->n_aux; i++) aux_names[i] = st->aux[i].name;
    for (size_t i = 0; i < st->n_params; i++) {
        param_names[i] = st->params[i].name;
        /* Parameters are constants of type real in the kernels. */
        params[i] = is_double ? st->params[i].value : (double)(float)st->params[i].value;
    }
    cls_expr_env env = {st->dims, is_double, st->n_aux, aux_names, st->n_params, param_names};
    char err[512];
    int body_oom;
    const char *body = cls__stencil_body(st, &body_oom);
    if (body_oom) goto oom;
    int pr = cls__expr_parse(body ? body : "", &env, &e, err, sizeof err);
    if (pr == -2) goto oom;
    if (pr != 0) {
        s = cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: body: %s", st->name, err);
        goto done;
    }
    if (!(bufs[0] = malloc(points * elem)) || !(bufs[1] = malloc(points * elem))) goto oom;
    memcpy(bufs[0], input, points * elem);

    ref_state r = {st, {(int)dims.n[0], (int)dims.n[1], (int)dims.n[2]}, points, NULL, aux, 0,
                   0, 0, 0};
    cls_expr_point pt;
    memset(&pt, 0, sizeof pt);
    for (int d = 0; d < 3; d++) pt.size[d] = r.n[d];
    pt.params = params;
    pt.read = ref_read;
    pt.user = &r;
    int cur = 0;
    for (size_t t = 0; t < steps; t++) {
        r.cur = bufs[cur];
        r.step = pt.step = (int)t;
        void *out = bufs[1 - cur];
        size_t i = 0;
        for (int z = 0; z < r.n[2]; z++)
            for (int y = 0; y < r.n[1]; y++)
                for (int x = 0; x < r.n[0]; x++, i++) {
                    r.x = pt.coord[0] = x;
                    r.y = pt.coord[1] = y;
                    r.z = pt.coord[2] = z;
                    double v = cls__expr_eval(e, &pt);
                    if (is_double) ((double *)out)[i] = v;
                    else ((float *)out)[i] = (float)v;
                }
        cur = 1 - cur;
    }
    memmove(output, bufs[cur], points * elem);
    s = CLS_SUCCESS;
    goto done;
oom:
    s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "reference run of %zu points", points);
done:
    cls__expr_free(e);
    free(bufs[0]);
    free(bufs[1]);
    free(params);
    free(param_names);
    return s;
}
