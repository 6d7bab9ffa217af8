/* fused_system.c: which systems the fused stream25d kernel runs (cl/stream25d_tb.cl with
 * CLS_TB_LEVELS): one stage updating one field from its radius-1 neighbourhood, every other field
 * a time level of it (a chain u_prev, u_prev2, ... of at most CLS__S25_MAX_LEVELS) read at the
 * point only; auxiliary arrays and parameters as for a single field.  The window holds the
 * updated field only, so its reads are the ones the planner sizes the window for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "planner.h"

int cls__s25_fused_system(const cls__s25 *p, cls__s25_reads *rd, size_t *levels, int *fields,
                          char *why, size_t why_len)
{
    const cls_stencil *st = p->st;
    int chain[CLS__MAX_FIELDS];
    memset(rd, 0, sizeof *rd);
    *levels = 0;
    if (st->dims != 3) {
        snprintf(why, why_len, "it streams 3D grids along z and 2D grids along y, not 1D grids");
        return 0;
    }
    if (st->n_stages != 1 || st->stages[0].n != 1) {
        snprintf(why, why_len,
                 "fused steps run systems of one stage updating one field; '%s' has %zu stages "
                 "(the first updates %zu fields)",
                 st->name, st->n_stages, st->n_stages ? st->stages[0].n : (size_t)0);
        return 0;
    }
    const int u = st->stages[0].update[0].field;
    size_t n = cls__stencil_levels(st, (size_t)u, chain, CLS__MAX_FIELDS);
    if (n + 1 != st->n_fields) {
        /* a field that no stage updates is a time level (the spec's checks) */
        snprintf(why, why_len,
                 "fused steps run one field and its time levels; '%s' has %zu fields besides "
                 "'%s' and its %zu time level%s",
                 st->name, st->n_fields - n - 1, st->fields[u].name, n, n == 1 ? "" : "s");
        return 0;
    }
    if (n > CLS__S25_MAX_LEVELS) {
        snprintf(why, why_len, "fused steps keep at most %d time levels of '%s'; '%s' has %zu",
                 CLS__S25_MAX_LEVELS, st->fields[u].name, st->name, n);
        return 0;
    }
    cls_expr *e = NULL;
    if (cls__stencil_parse_update(st, 0, 0, &e) != CLS_SUCCESS) {
        snprintf(why, why_len, "%s", cls_last_error());
        return 0;
    }
    int ok = 1;
    for (size_t m = 0; m < n && ok; m++) {
        int lo[3], hi[3], used;
        cls__expr_field_extent(e, (size_t)chain[m], lo, hi, &used);
        for (int d = 0; d < 3 && used && ok; d++)
            if (lo[d] || hi[d]) {
                snprintf(why, why_len,
                         "fused steps read time levels at the point only; the update of '%s' "
                         "reads '%s' at offset %d in %c",
                         st->fields[u].name, st->fields[chain[m]].name, lo[d] ? lo[d] : hi[d],
                         "xyz"[d]);
                ok = 0;
            }
    }
    {
        int lo[3], hi[3], used;
        cls__expr_field_extent(e, (size_t)u, lo, hi, &used);
        for (int d = 0; d < 3 && used && ok; d++)
            if (lo[d] < -1 || hi[d] > 1) {
                snprintf(why, why_len,
                         "fused steps read the updated field within radius 1; the update of "
                         "'%s' reads it at offset %d in %c",
                         st->fields[u].name, lo[d] < -1 ? lo[d] : hi[d], "xyz"[d]);
                ok = 0;
            }
    }
    char *text = ok ? cls__expr_emit_opencl(e) : NULL;
    cls__expr_free(e);
    if (!ok) return 0;
    if (!text) {
        snprintf(why, why_len, "out of memory emitting the update");
        return 0;
    }
    /* The window's offsets: the updated field's reads as the generator emits them (within
     * radius 1, checked above, so the scan cannot fail). */
    (void)cls__s25_scan_reads(p, text, 0, 0, u, rd);
    free(text);
    *levels = n;
    fields[0] = u;
    for (size_t m = 0; m < n; m++) fields[m + 1] = chain[m];
    return 1;
}
