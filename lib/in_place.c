/* in_place.c: which updates of a system's stage may write over a buffer they read (in place)
 * and still give the stage's result bitwise, and which buffer that is. */
#include "expr.h"
#include "internal.h"

int cls__system_in_place_into(const cls_stencil *st, size_t f)
{
    int chain[CLS__MAX_FIELDS];
    size_t n = cls__stencil_levels(st, f, chain, CLS__MAX_FIELDS);
    return n ? chain[n - 1] : (int)f;
}

/* Whether field g is read by update j of stage `stage` other than (j == k, offset 0), or, when
 * `later`, by any update of the step's later stages. */
static int read_elsewhere(const cls_stencil *st, size_t stage, size_t k, cls_expr *const *e,
                          size_t g, int later)
{
    const cls__stage *sg = &st->stages[stage];
    for (size_t j = 0; j < sg->n; j++) {
        int lo[3], hi[3], used;
        cls__expr_field_extent(e[j], g, lo, hi, &used);
        if (used && (j != k || lo[0] || lo[1] || lo[2] || hi[0] || hi[1] || hi[2])) return 1;
    }
    for (size_t l = stage + 1; later && l < st->n_stages; l++)
        for (size_t j = 0; j < st->stages[l].n; j++) {
            cls_expr *x = NULL;
            int lo[3], hi[3], used = 1;
            if (cls__stencil_parse_update(st, l, j, &x) == CLS_SUCCESS)
                cls__expr_field_extent(x, g, lo, hi, &used);
            cls__expr_free(x);
            if (used) return 1;
        }
    return 0;
}

/* Whether field f is updated by a stage of the step other than `stage`. */
static int updated_elsewhere(const cls_stencil *st, size_t stage, int f)
{
    for (size_t l = 0; l < st->n_stages; l++)
        for (size_t j = 0; l != stage && j < st->stages[l].n; j++)
            if (st->stages[l].update[j].field == f) return 1;
    return 0;
}

/* Update k of a stage, of field F, may store point by point into the buffer of field
 * B = cls__system_in_place_into(F) when every read of B in the stage is update k's own read
 * at offset 0: then the only value a store destroys is one no later computation of the stage
 * needs.  B is F itself when F neither is a time level nor has one.  When F has time levels,
 * B is the oldest, whose values die at the step's end (each level takes the buffer its source
 * held at the step's start, lib/rotation.c): F may then be read anywhere, but B no later in
 * the step, and F updated in this stage only. */
cls_status cls__system_stage_in_place(const cls_stencil *st, size_t stage, unsigned *fields)
{
    cls_expr *e[CLS__MAX_FIELDS] = {NULL};
    cls_status s = CLS_SUCCESS;
    *fields = 0;
    if (!cls__stencil_is_system(st) || stage >= st->n_stages)
        return cls__fail(NULL, CLS_ERR_INTERNAL, "no stage %zu of a system", stage);
    const cls__stage *sg = &st->stages[stage];
    for (size_t k = 0; k < sg->n && s == CLS_SUCCESS; k++)
        s = cls__stencil_parse_update(st, stage, k, &e[k]);
    for (size_t k = 0; k < sg->n && s == CLS_SUCCESS; k++) {
        int f = sg->update[k].field, into = cls__system_in_place_into(st, (size_t)f);
        int ok = cls__stencil_previous(st, (size_t)f) < 0 &&
                 !read_elsewhere(st, stage, k, e, (size_t)into, into != f);
        if (ok && into != f) ok = !updated_elsewhere(st, stage, f);
        if (ok) *fields |= 1u << f;
    }
    for (size_t k = 0; k < sg->n; k++) cls__expr_free(e[k]);
    return s;
}
