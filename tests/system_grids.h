/* system_grids.h: the host arrays of a system's test run (tests of systems on PoCL): every
 * field's input, reference and output, the auxiliary arrays, deterministic values, the
 * bitwise comparison with the reference, a state advanced in two calls, and a plan. */
#ifndef CLS_SYSTEM_GRIDS_H
#define CLS_SYSTEM_GRIDS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

enum { SG_MAXF = 8 };

/* Systems written for the tests, in float: a time-level chain with an aux array and STEP, a
 * field updated in two stages, a one-sided 1D pair; NULL past the last. */
static inline const char *sg_written(size_t i)
{
    static const char *const spec[] = {
        "{\"name\": \"levels\", \"dims\": 2, \"fields\": [\"w\", {\"name\": \"w1\", \"previous\": "
        "\"w\"}, {\"name\": \"w2\", \"previous\": \"w1\"}], \"aux\": [\"c\"], \"params\": {\"b\": "
        "0.125}, \"stages\": [{\"update\": {\"w\": \"b * (IN(w, 2, 0) + IN(w, 0, -1)) + 0.5 * "
        "IN(w1, 1, 1) - 0.25 * IN(w2, 0, 0) + AUX(c, -1, 1) + STEP * 0.0078125\"}}]}",
        "{\"name\": \"restaged\", \"dims\": 3, \"fields\": [\"a\", \"b\"], \"stages\": [{\"update\": "
        "{\"a\": \"0.5 * (IN(a, 0, 1, 0) + IN(b, 0, 0, -1))\", \"b\": \"IN(b, 1, 0, 0) * 0.75 + "
        "IN(a, 0, 0, 0) * 0.25\"}}, {\"update\": {\"a\": \"IN(a, 0, 0, 1) - 0.125 * IN(b, -1, 0, "
        "0)\"}}]}",
        "{\"name\": \"pair1d\", \"dims\": 1, \"fields\": [\"p\", \"q\"], \"stages\": [{\"update\": "
        "{\"q\": \"IN(p, 3) * 0.5 + IN(q, 0) * 0.5\"}}, {\"update\": {\"p\": \"IN(q, -1) - IN(p, 1) "
        "* 0.25\"}}]}",
        NULL};
    return i < sizeof spec / sizeof spec[0] ? spec[i] : NULL;
}

typedef struct grids {
    size_t nf, n, elem, naux;
    cls_dims dims;
    void *in[SG_MAXF], *ref[SG_MAXF], *out[SG_MAXF], *aux[2];
} grids;

static inline void grids_free(grids *g)
{
    for (size_t f = 0; f < SG_MAXF; f++) free(g->in[f]), free(g->ref[f]), free(g->out[f]);
    free(g->aux[0]);
    free(g->aux[1]);
    memset(g, 0, sizeof *g);
}

/* Deterministic values in [-0.5, 0.5) that differ per field, point and array. */
static inline double sample(size_t f, size_t i)
{
    uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull + (f + 1) * 0xbf58476d1ce4e5b9ull;
    x ^= x >> 31;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 29;
    return (double)(x >> 40) / (double)(1ull << 24) - 0.5;
}

static inline void *filled(size_t n, size_t elem, size_t f, double scale)
{
    unsigned char *p = malloc(n * elem);
    for (size_t i = 0; p && i < n; i++) {
        double v = scale * sample(f, i);
        if (elem == 8) {
            memcpy(p + i * 8, &v, 8);
        } else {
            float w = (float)v;
            memcpy(p + i * 4, &w, 4);
        }
    }
    return p;
}

/* The arrays of stencil st on grid `dims` and the reference's result after `steps` steps. */
static inline int grids_make_on(grids *g, const cls_stencil *st, cls_dims dims, size_t steps)
{
    memset(g, 0, sizeof *g);
    g->dims = dims;
    g->n = cls_dims_points(g->dims);
    g->elem = cls_dtype_size(cls_stencil_dtype(st));
    g->nf = cls_stencil_num_fields(st);
    g->naux = cls_stencil_num_aux(st);
    if (g->nf > SG_MAXF || g->naux > 2) return 0;
    for (size_t f = 0; f < g->nf; f++) {
        g->in[f] = filled(g->n, g->elem, f, 1.0);
        g->ref[f] = calloc(g->n, g->elem);
        g->out[f] = calloc(g->n, g->elem);
        if (!g->in[f] || !g->ref[f] || !g->out[f]) return 0;
    }
    for (size_t k = 0; k < g->naux; k++)
        if (!(g->aux[k] = filled(g->n, g->elem, 20 + k, 0.0625))) return 0;
    return cls_reference_run_fields(st, g->dims, steps, (const void *const *)g->in,
                                    (const void *const *)g->aux, g->ref) == CLS_SUCCESS;
}

/* Whether every field equals the reference; the first difference goes to the log. */
static inline int equal_ref(const grids *g)
{
    for (size_t f = 0; f < g->nf; f++)
        if (memcmp(g->out[f], g->ref[f], g->n * g->elem)) {
            for (size_t i = 0; i < g->n; i++)
                if (memcmp((char *)g->out[f] + i * g->elem, (char *)g->ref[f] + i * g->elem,
                           g->elem)) {
                    tap_diag("field %zu differs first at point %zu", f, i);
                    break;
                }
            return 0;
        }
    return 1;
}
/* Advances a state written with the inputs by `first` steps on plan a and `rest` on plan b,
 * reads it back into g->out and compares it with the reference. */
static inline int grids_split_run(grids *g, cls_plan *a, cls_plan *b, size_t first, size_t rest)
{
    cls_state *s = NULL;
    int ok = cls_state_create(a, &s) == CLS_SUCCESS;
    for (size_t f = 0; ok && f < g->nf; f++) ok = cls_state_write_field(s, f, g->in[f]) == CLS_SUCCESS;
    for (size_t k = 0; ok && k < g->naux; k++) ok = cls_state_write_aux(s, k, g->aux[k], 1) == CLS_SUCCESS;
    ok = ok && cls_plan_advance(a, s, first, NULL) == CLS_SUCCESS &&
         cls_plan_advance(b, s, rest, NULL) == CLS_SUCCESS;
    for (size_t f = 0; ok && f < g->nf; f++) {
        memset(g->out[f], 0, g->n * g->elem);
        ok = cls_state_read_field(s, f, g->out[f]) == CLS_SUCCESS;
    }
    cls_state_release(s);
    return ok && equal_ref(g);
}
/* Plans st on dims for `steps` steps with the schedule and parameters; 1 on success. */
static inline int grids_plan(cls_context *ctx, cls_stencil *st, cls_dims dims, size_t steps,
                             cls_schedule sched, const char *params, cls_plan **plan)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = sched;
    opt.params = params;
    *plan = NULL;
    return cls_plan_create(ctx, st, dims, steps, &opt, plan) == CLS_SUCCESS;
}
#endif /* CLS_SYSTEM_GRIDS_H */
