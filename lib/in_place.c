/* in_place.c: which updates of a system's stage may write their field over its own values
 * (in place) and still give the stage's result bitwise. */
#include "expr.h"
#include "internal.h"

/* Update k of a stage may overwrite its field F point by point when every read of F in the
 * stage is update k's own read at offset 0: then the only value a store destroys is one no
 * later computation of the stage needs.  Time levels and their sources keep out-of-place
 * updates: the rotation hands a source's start-of-step buffer to its time level, so that
 * buffer must survive the step (lib/rotation.c). */
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
        int f = sg->update[k].field, ok = cls__stencil_previous(st, (size_t)f) < 0;
        for (size_t g = 0; ok && g < st->n_fields; g++)
            if (cls__stencil_previous(st, g) == f) ok = 0;
        for (size_t j = 0; ok && j < sg->n; j++) {
            int lo[3], hi[3], used;
            cls__expr_field_extent(e[j], (size_t)f, lo, hi, &used);
            if (used && (j != k || lo[0] || lo[1] || lo[2] || hi[0] || hi[1] || hi[2])) ok = 0;
        }
        if (ok) *fields |= 1u << f;
    }
    for (size_t k = 0; k < sg->n; k++) cls__expr_free(e[k]);
    return s;
}
