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
    const void *field[CLS__MAX_FIELDS]; /* the fields being read this stage */
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
    const void *base;
    if (array >= 0) {
        base = r->aux[array];
        if (st->aux[array].per_step) idx += (size_t)r->step * r->points;
    } else {
        base = r->field[-1 - array];
    }
    return is_double ? ((const double *)base)[idx] : (double)((const float *)base)[idx];
}

cls_status cls_reference_run(const cls_stencil *st, cls_dims dims, size_t steps,
                             const void *input, const void *const *aux, void *output)
{
    if (!st || !input || !output)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_reference_run: NULL argument");
    if (cls__stencil_is_system(st))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_reference_run: '%s' is a system of %zu fields: use "
                         "cls_reference_run_fields",
                         st->name, st->n_fields);
    const void *in[1] = {input};
    void *out[1] = {output};
    return cls_reference_run_fields(st, dims, steps, in, aux, out);
}

cls_status cls_reference_run_fields(const cls_stencil *st, cls_dims dims, size_t steps,
                                    const void *const *input, const void *const *aux,
                                    void *const *output)
{
    if (!st || !input || !output)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_reference_run: NULL argument");
    cls_status s = cls__stencil_check(st, &dims, steps);
    if (s != CLS_SUCCESS) return s;
    const size_t n_fields = cls_stencil_num_fields(st);
    for (size_t f = 0; f < n_fields; f++)
        if (!input[f] || !output[f])
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "cls_reference_run: no host array for field '%s'",
                             cls_stencil_field_name(st, f));
    for (size_t k = 0; k < st->n_aux; k++)
        if (!aux || !aux[k])
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "cls_reference_run: stencil '%s' needs auxiliary array '%s'",
                             st->name, st->aux[k].name);
    if (steps > 2147483647u)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "steps: at most 2^31-1");

    const size_t n_stages = cls_stencil_num_stages(st);
    double *params = NULL;
    void *bufs[CLS__MAX_BUFS] = {NULL};
    cls_expr *exprs[CLS__MAX_STAGES][CLS__MAX_FIELDS] = {{NULL}};
    size_t points = cls_dims_points(dims), elem = cls_dtype_size(st->dtype);
    int is_double = st->dtype == CLS_FLOAT64;
    cls__rotation rot;
    cls__rotation_init(&rot, st);

    if (st->n_params && !(params = malloc(st->n_params * sizeof *params))) goto oom;
    for (size_t i = 0; i < st->n_params; i++)
        /* Parameters are constants of type real in the kernels. */
        params[i] = is_double ? st->params[i].value : (double)(float)st->params[i].value;
    for (size_t g = 0; g < n_stages; g++)
        for (size_t k = 0; k < cls_stencil_stage_num_updates(st, g); k++)
            if ((s = cls__stencil_is_system(st)
                         ? cls__stencil_parse_update(st, g, k, &exprs[g][k])
                         : cls__stencil_parse(st, &exprs[g][k])) != CLS_SUCCESS)
                goto done;
    for (size_t b = 0; b < rot.n_bufs; b++)
        if (!(bufs[b] = malloc(points * elem))) goto oom;
    for (size_t f = 0; f < n_fields; f++) memcpy(bufs[rot.at[f]], input[f], points * elem);

    ref_state r = {st, {(int)dims.n[0], (int)dims.n[1], (int)dims.n[2]}, points, {NULL}, aux, 0,
                   0, 0, 0};
    cls_expr_point pt;
    memset(&pt, 0, sizeof pt);
    for (int d = 0; d < 3; d++) pt.size[d] = r.n[d];
    pt.params = params;
    pt.read = ref_read;
    pt.user = &r;
    for (size_t t = 0; t < steps; t++) {
        r.step = pt.step = (int)t;
        cls__rotation_step_begin(&rot);
        for (size_t g = 0; g < n_stages; g++) {
            const size_t nu = cls_stencil_stage_num_updates(st, g);
            void *out[CLS__MAX_FIELDS];
            cls__rotation_stage_begin(&rot, st, g);
            for (size_t f = 0; f < n_fields; f++) r.field[f] = bufs[rot.at[f]];
            for (size_t k = 0; k < nu; k++) {
                size_t f = 0;
                cls_stencil_update_body(st, g, k, &f);
                out[k] = bufs[rot.out[f]];
            }
            size_t i = 0;
            for (int z = 0; z < r.n[2]; z++)
                for (int y = 0; y < r.n[1]; y++)
                    for (int x = 0; x < r.n[0]; x++, i++) {
                        r.x = pt.coord[0] = x;
                        r.y = pt.coord[1] = y;
                        r.z = pt.coord[2] = z;
                        for (size_t k = 0; k < nu; k++) {
                            double v = cls__expr_eval(exprs[g][k], &pt);
                            if (is_double) ((double *)out[k])[i] = v;
                            else ((float *)out[k])[i] = (float)v;
                        }
                    }
            cls__rotation_stage_end(&rot);
        }
        cls__rotation_step_end(&rot, st);
    }
    for (size_t f = 0; f < n_fields; f++) memmove(output[f], bufs[rot.at[f]], points * elem);
    s = CLS_SUCCESS;
    goto done;
oom:
    s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "reference run of %zu points", points);
done:
    for (size_t g = 0; g < CLS__MAX_STAGES; g++)
        for (size_t k = 0; k < CLS__MAX_FIELDS; k++) cls__expr_free(exprs[g][k]);
    for (size_t b = 0; b < CLS__MAX_BUFS; b++) free(bufs[b]);
    free(params);
    return s;
}
