/* test_tune_replay.c: the tuner's model replayed offline on the exhaustive searches measured on
 * the H100 (doc/data/h100-2026-11-21-ghost-zones-*.csv, written by `clstencil tune --exhaustive
 * --csv`).  For each table: the model without occupancy and waves reproduces the table's
 * predicted column (the replay is faithful), and the model the tuner uses (CLS_GHOST_WAVES)
 * picks, among every h up to the steps of the measured tiles, a configuration that was measured
 * within 95 % of the table's best (the tuner's acceptance bound, doc/ghost-zones.md).  No device:
 * the profiles are those the H100 run printed (doc/data/h100-2026-11-21-ghost-zones.txt). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_tune.h"
#include "tap.h"

typedef struct row {
    size_t tile[3], ppi, h;
    cls_sync sync;
    double predicted, measured;
} row;

typedef struct app {
    const char *name;
    /* the profile lines of the H100 run: InstsPerSM_MC, _IC, persistent _MC, _IC, N, alpha */
    double mc, ic, mc_p, ic_p, n, alpha;
    /* the shape the tuner derives from the built-in stencil (lib/schedules/trapezoid/choose.c):
     * the state plus auxiliary arrays read every step, and per-step arrays (PathFinder's
     * wall) */
    double num_stencil_arrays, num_elem_per_op;
} app;

static const app apps[] = {
    {"pathfinder", 283216, 324143, 591790, 816178, 33555326, 0.373, 1, 1},
    {"hotspot", 483431, 237974, 779350, 501431, 33898500, 0.463, 2, 0},
    {"poisson2d", 342656, 167822, 715229, 348030, 33898500, 0.378, 2, 0},
    {"cell3d", 278071, 3.31311e+06, 444769, 6.85788e+06, 35034216, 0.069, 1, 0},
};

static void parse_xyz(const char *s, size_t v[3])
{
    v[0] = v[1] = v[2] = 1;
    for (int i = 0; i < 3 && *s; i++) {
        char *end;
        v[i] = strtoul(s, &end, 10);
        s = *end == 'x' ? end + 1 : end;
        if (*end != 'x') break;
    }
}

/* The table's trapezoid rows that were measured; *dims, *steps from the first. */
static size_t load(const char *path, row *rows, size_t max, cls_dims *dims, size_t *steps)
{
    char line[1024];
    size_t n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f) && n < max) {
        char *col[16];
        int nc = 0;
        for (char *p = line, *q; nc < 16 && p; p = q) {
            q = strchr(p, ',');
            if (q) *q++ = 0;
            col[nc++] = p;
        }
        if (nc < 14 || strcmp(col[5], "trapezoid") != 0) continue;
        if (strcmp(col[4], "candidate") != 0 && strcmp(col[4], "best") != 0) continue;
        if (strncmp(col[13], "CLS_SUCCESS", 11) != 0) continue;
        size_t sz[3];
        parse_xyz(col[1], sz);
        dims->n[0] = sz[0];
        dims->n[1] = sz[1];
        dims->n[2] = sz[2];
        *steps = strtoul(col[2], NULL, 10);
        row *r = &rows[n++];
        parse_xyz(col[6], r->tile);
        r->ppi = strtoul(col[8], NULL, 10);
        r->h = strtoul(col[9], NULL, 10);
        r->sync = strcmp(col[10], "barrier") == 0 ? CLS_SYNC_BARRIER : CLS_SYNC_RESTART;
        r->predicted = strtod(col[11], NULL);
        r->measured = strtod(col[12], NULL);
    }
    fclose(f);
    return n;
}

static void replay(const cls_model *m, const app *a)
{
    static row rows[512];
    char path[1024];
    cls_dims dims = {{1, 1, 1}};
    size_t steps = 0, n;
    cls_stencil *st = NULL;
    cls_ghost_profile p;
    snprintf(path, sizeof path, "%s/doc/data/h100-2026-11-21-ghost-zones-%s.csv", CLS_SRCDIR,
             a->name);
    n = load(path, rows, 512, &dims, &steps);
    if (!tap_ok(n > 0 && steps > 0, "%s: %zu measured rows in %s", a->name, n, path)) return;
    if (!tap_ok(cls_stencil_builtin(a->name, &st) == CLS_SUCCESS, "%s: built-in stencil", a->name))
        return;
    if (!tap_ok(cls_ghost_profile_document(a->name, &p) == CLS_SUCCESS, "%s: profile shape",
                a->name)) {
        cls_stencil_release(st);
        return;
    }
    /* The measured values replace the document's (D and HaloWidth are the same). */
    p.num_stencil_arrays = a->num_stencil_arrays;
    p.num_elem_per_op = a->num_elem_per_op;
    p.n = a->n;
    p.insts_per_sm_mc = a->mc;
    p.insts_per_sm_ic = a->ic;
    p.insts_per_sm_mc_persistent = a->mc_p;
    p.insts_per_sm_ic_persistent = a->ic_p;
    p.alpha = a->alpha;
    p.elem_bytes = (double)cls_dtype_size(cls_stencil_dtype(st));

    /* 1. The replay of the model that wrote the table. */
    double worst = 0;
    size_t best = 0, old_pick = 0;
    double old_pred = HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        if (cls_ghost_predict_run(m, st, &p, dims, steps, rows[i].tile, rows[i].ppi, rows[i].h,
                                  rows[i].sync, 0, &s) != CLS_SUCCESS) {
            worst = HUGE_VAL;
            break;
        }
        double e = fabs(s / (double)steps / rows[i].predicted - 1);
        if (e > worst) worst = e;
        if (rows[i].measured < rows[best].measured) best = i;
        if (rows[i].predicted < old_pred) {
            old_pred = rows[i].predicted;
            old_pick = i;
        }
    }
    tap_ok(worst < 0.005, "%s: the replay reproduces the table's predictions (worst %.2g)",
           a->name, worst);

    /* 2. The tuner's model: every h up to the steps for every measured (tile, sync), as
     * cls__trapezoid_choose searches; the pick must be a measured row. */
    size_t pick_tile = 0, pick_h = 0;
    cls_sync pick_sync = CLS_SYNC_RESTART;
    double pick_pred = HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = memcmp(rows[j].tile, rows[i].tile, sizeof rows[i].tile) != 0 ||
                    rows[j].sync != rows[i].sync;
        if (!first) continue;
        for (size_t h = 1; h <= steps; h++) {
            double s = 0;
            if (cls_ghost_predict_run(m, st, &p, dims, steps, rows[i].tile, rows[i].ppi, h,
                                      rows[i].sync, CLS_GHOST_WAVES, &s) != CLS_SUCCESS)
                break; /* Eq. 20: no larger h either */
            if (s < pick_pred) {
                pick_pred = s;
                pick_tile = i;
                pick_h = h;
                pick_sync = rows[i].sync;
            }
        }
    }
    size_t pick = (size_t)-1;
    for (size_t i = 0; i < n; i++)
        if (!memcmp(rows[i].tile, rows[pick_tile].tile, sizeof rows[i].tile) &&
            rows[i].h == pick_h && rows[i].sync == pick_sync)
            pick = i;
    double old_ratio = rows[best].measured / rows[old_pick].measured;
    if (!tap_ok(pick != (size_t)-1, "%s: the new pick (tile %zux%zux%zu, h %zu, %s) was measured",
                a->name, rows[pick_tile].tile[0], rows[pick_tile].tile[1],
                rows[pick_tile].tile[2], pick_h, cls_sync_name(pick_sync))) {
        cls_stencil_release(st);
        return;
    }
    double ratio = rows[best].measured / rows[pick].measured;
    tap_diag("%s: best %zux%zux%zu h %zu %s %.1f us; old pick %zux%zux%zu h %zu %.1f us "
             "(ratio %.3f); new pick %zux%zux%zu h %zu %s %.1f us (ratio %.3f)",
             a->name, rows[best].tile[0], rows[best].tile[1], rows[best].tile[2], rows[best].h,
             cls_sync_name(rows[best].sync), rows[best].measured * 1e6, rows[old_pick].tile[0],
             rows[old_pick].tile[1], rows[old_pick].tile[2], rows[old_pick].h,
             rows[old_pick].measured * 1e6, old_ratio, rows[pick].tile[0], rows[pick].tile[1],
             rows[pick].tile[2], rows[pick].h, cls_sync_name(rows[pick].sync),
             rows[pick].measured * 1e6, ratio);
    tap_ok(ratio >= 0.95, "%s: the pick with occupancy and waves runs within 95 %% of the best "
           "(%.3f)", a->name, ratio);
    cls_stencil_release(st);
}

int main(void)
{
    cls_model *m = NULL;
    if (!tap_ok(cls_model_from_name("h100", &m) == CLS_SUCCESS, "device model h100: %s",
                m ? "" : cls_last_error()))
        return tap_done();
    for (size_t i = 0; i < sizeof apps / sizeof apps[0]; i++) replay(m, &apps[i]);
    /* Bad input: a clear error, no prediction. */
    {
        double s = 1;
        size_t tile[3] = {64, 64, 1};
        cls_ghost_profile p;
        cls_stencil *st = NULL;
        cls_ghost_profile_document("hotspot", &p);
        cls_stencil_builtin("pathfinder", &st);
        tap_ok(cls_ghost_predict_run(m, st, &p, (cls_dims){{512, 512, 1}}, 8, tile, 16, 2,
                                     CLS_SYNC_RESTART, CLS_GHOST_WAVES,
                                     &s) == CLS_ERR_INVALID_ARGUMENT &&
                   s == 0 && strstr(cls_last_error(), "dims"),
               "a 2D profile with a 1D stencil is refused: %s", cls_last_error());
        cls_stencil_release(st);
    }
    cls_model_release(m);
    return tap_done();
}
