/* fused_system.c: which systems the fused stream25d kernel runs (cl/stream25d_tb.cl): one stage
 * updating F fields from their radius-1 neighbourhoods.  With F = 1 every other field is a time
 * level of the updated one (a chain u_prev, u_prev2, ... of at most CLS__S25_MAX_LEVELS) read at
 * the point only, and the window holds the updated field; with F > 1 every field is updated
 * (no time levels) and each has a window, all of one geometry: the union of the stage's reads.
 * Auxiliary arrays and parameters as for a single field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "planner.h"

/* Whether update k of the stage reads `field` within radius 1; else 0 with the reason. */
static int within_radius_1(const cls_stencil *st, const cls_expr *e, size_t k, size_t field,
                           char *why, size_t why_len)
{
    int lo[3], hi[3], used;
    cls__expr_field_extent(e, field, lo, hi, &used);
    for (int d = 0; d < 3 && used; d++)
        if (lo[d] < -1 || hi[d] > 1) {
            snprintf(why, why_len,
                     "fused steps read the updated fields within radius 1; the update of '%s' "
                     "reads '%s' at offset %d in %c",
                     st->fields[st->stages[0].update[k].field].name, st->fields[field].name,
                     lo[d] < -1 ? lo[d] : hi[d], "xyz"[d]);
            return 0;
        }
    return 1;
}

/* Update k of the stage as the generator emits it, its reads added to rd (of field `only`, or
 * of every field when -1); 0 with the reason when it reads a field beyond radius 1 (fields
 * `first` .. `last` checked) or a time level (chain[0..n-1]) off the point. */
static int scan_update(const cls__s25 *p, size_t k, int only, size_t first, size_t last,
                       const int *chain, size_t n, cls__s25_reads *rd, char *why, size_t why_len)
{
    const cls_stencil *st = p->st;
    cls_expr *e = NULL;
    if (cls__stencil_parse_update(st, 0, k, &e) != CLS_SUCCESS) {
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
                         st->fields[st->stages[0].update[k].field].name,
                         st->fields[chain[m]].name, lo[d] ? lo[d] : hi[d], "xyz"[d]);
                ok = 0;
            }
    }
    for (size_t f = first; f <= last && ok; f++) ok = within_radius_1(st, e, k, f, why, why_len);
    char *text = ok ? cls__expr_emit_opencl(e) : NULL;
    cls__expr_free(e);
    if (!ok) return 0;
    if (!text) {
        snprintf(why, why_len, "out of memory emitting the update");
        return 0;
    }
    /* within radius 1 (checked above), so the scan cannot fail */
    (void)cls__s25_scan_reads(p, text, 0, k, only, rd);
    free(text);
    return 1;
}

/* F > 1: every field updated once, none a time level; the windows' geometry the union of all
 * the updates' reads. */
static int several_fields(const cls__s25 *p, cls__s25_reads *rd, int *fields, char *why,
                          size_t why_len)
{
    const cls_stencil *st = p->st;
    const cls__stage *sg = &st->stages[0];
    if (sg->n > CLS__S25_MAX_FUSED_FIELDS) {
        snprintf(why, why_len,
                 "fused steps update at most %d fields in their stage; '%s' updates %zu",
                 CLS__S25_MAX_FUSED_FIELDS, st->name, sg->n);
        return 0;
    }
    if (sg->n != st->n_fields) {
        /* a field that no stage updates is a time level (the spec's checks) */
        snprintf(why, why_len,
                 "fused steps of a stage updating %zu fields keep no time levels; '%s' has %zu "
                 "field%s the stage does not update",
                 sg->n, st->name, st->n_fields - sg->n, st->n_fields - sg->n == 1 ? "" : "s");
        return 0;
    }
    unsigned char seen[CLS__MAX_FIELDS] = {0};
    for (size_t k = 0; k < sg->n; k++) {
        const int f = sg->update[k].field;
        if (seen[f]++) {
            /* the kernel's values are indexed by the field they update */
            snprintf(why, why_len, "fused steps update each field once; '%s' updates '%s' twice",
                     st->name, st->fields[f].name);
            return 0;
        }
        if (!scan_update(p, k, -1, 0, st->n_fields - 1, NULL, 0, rd, why, why_len)) return 0;
    }
    for (size_t f = 0; f < st->n_fields; f++) fields[f] = (int)f;
    return 1;
}

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
    if (st->n_stages != 1) {
        snprintf(why, why_len, "fused steps run systems of one stage; '%s' has %zu stages",
                 st->name, st->n_stages);
        return 0;
    }
    if (st->stages[0].n > 1) return several_fields(p, rd, fields, why, why_len);
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
    /* The window's offsets: the updated field's reads. */
    if (!scan_update(p, 0, u, (size_t)u, (size_t)u, chain, n, rd, why, why_len)) return 0;
    *levels = n;
    fields[0] = u;
    for (size_t m = 0; m < n; m++) fields[m + 1] = chain[m];
    return 1;
}
