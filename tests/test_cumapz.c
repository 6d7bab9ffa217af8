/* test_cumapz.c: CuMAPz factors on the GT200 model against Kim & Shrivastava's worked examples,
 * rankings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "cumapz.h"
#include "error.h"
#include "tap.h"

#define MAXV CLS_ACC_MAX_VARIANTS

/* The worked examples at 32 rows of 1024: the document's channel pattern at a small cost. */
static const char *const rows64[] = {"ROWS=32"};

/* One case analysed on one model. */
typedef struct run {
    cls_access_set *set;
    cls_cumapz_result r[MAXV];
    double seconds; /* processor time of all variants */
    int ok;
} run;

/* Runs kept for the Sect. 7 comparison (transpose at N 512, stencil2d at its default size). */
static run kept_transpose, kept_stencil2d;

static cls_model *load(const char *name)
{
    cls_model *m = NULL;
    if (cls_model_from_name(name, &m) != CLS_SUCCESS)
        tap_diag("loading %s: %s", name, cls_last_error());
    return m;
}

static int analyse(const cls_model *m, const char *name, const char *const *ov, size_t n_ov,
                   run *out)
{
    char *json = NULL;
    memset(out, 0, sizeof *out);
    if (cls_cumapz_case_json(name, &json) != CLS_SUCCESS ||
        cls_access_set_from_json(json, ov, n_ov, &out->set) != CLS_SUCCESS) {
        tap_diag("%s: %s", name, cls__error_message());
        free(json);
        return 0;
    }
    free(json);
    for (size_t i = 0; i < out->set->n; i++) {
        if (cls_cumapz_analyze(m, &out->set->v[i], NULL, &out->r[i]) != CLS_SUCCESS) {
            tap_diag("%s/%s: %s", name, out->set->v[i].name, cls__error_message());
            return 0;
        }
        out->seconds += out->r[i].seconds;
    }
    out->ok = 1;
    return 1;
}

static void run_free(run *x) { cls_access_set_free(x->set); }

static const cls_cumapz_result *get(const run *x, const char *variant)
{
    for (size_t i = 0; x->set && i < x->set->n; i++)
        if (strcmp(x->set->v[i].name, variant) == 0) return &x->r[i];
    tap_diag("no variant %s", variant);
    return NULL;
}

/* The factor table of a case as TAP diagnostics. */
static void table(const run *x, const char *title)
{
    tap_diag("%s", title);
    tap_diag("%-18s %9s %9s %9s %8s %8s %10s %9s  %s", "variant", "data_reuse", "lat_hiding",
             "bw_util", "ch_skew", "shm_eff", "branch_eff", "MPE", "bottleneck");
    for (size_t i = 0; i < x->set->n; i++) {
        const cls_cumapz_result *r = &x->r[i];
        tap_diag("%-18s %9.4f %9.4f %9.4f %8.4f %8.4f %10.4f %9.5f  %s", x->set->v[i].name,
                 r->data_reuse, r->lat_hiding, r->bw_util, r->ch_skew, r->shm_eff, r->branch_eff,
                 r->mpe, cls_cumapz_term_name(cls_cumapz_bottleneck(r, NULL)));
    }
}

/* Rank of each variant by MPE (0 best); equal MPEs (within 1e-9) share a rank. */
static void ranks(const run *x, int *rank)
{
    for (size_t i = 0; i < x->set->n; i++) {
        rank[i] = 0;
        for (size_t j = 0; j < x->set->n; j++)
            if (x->r[j].mpe > x->r[i].mpe * (1 + 1e-9)) rank[i]++;
    }
}

static int same_ranking(const run *a, const run *b)
{
    int ra[MAXV], rb[MAXV];
    if (!a->ok || !b->ok || a->set->n != b->set->n) return 0;
    ranks(a, ra);
    ranks(b, rb);
    for (size_t i = 0; i < a->set->n; i++)
        if (ra[i] != rb[i]) return 0;
    return 1;
}

static double pearson_times(const run *x, const char *const *names, const double *ms, size_t n)
{
    double mpe[MAXV], perf[MAXV];
    for (size_t i = 0; i < n; i++) {
        const cls_cumapz_result *r = get(x, names[i]);
        mpe[i] = r ? r->mpe : 0;
        perf[i] = 1.0 / ms[i];
    }
    return cls_cumapz_pearson(mpe, perf, n);
}

/* ------------------------------------------------------------------ Sect. 3.1, Table I */

/* Elements the buffer serves per row of the grid (MAX/16 work-groups across): a full
 * work-group serves 45 of its 48 reads per row when fetching col or col+2 and 46 for col+1;
 * the last one, whose work-items 14 and 15 stop at Fig. 1 line 4 after fetching, 42, 39, 41. */
static unsigned long long table1_count(unsigned long long max, unsigned long long rows, int f)
{
    static const unsigned full[3] = {45, 46, 45}, last[3] = {42, 41, 39};
    return ((max / 16 - 1) * full[f] + last[f]) * rows;
}

static void test_sect31(const cls_model *m)
{
    run x, y;
    static const char *const small[] = {"MAX=512", "ROWS=16"};
    const cls_cumapz_result *none, *c0, *c1, *c2;
    if (!tap_ok(analyse(m, "fig2-fetch", rows64, 1, &x), "fig2-fetch analyses on the GT200 model"))
        return;
    table(&x, "Kim & Shrivastava, Sect. 3.1 (Table I) on c1060: s_in[tx][ty] = in[row*MAX+col+F], "
              "MAX 1024, 32 rows");
    none = get(&x, "none");
    c0 = get(&x, "col");
    c1 = get(&x, "col+1");
    c2 = get(&x, "col+2");
    tap_ok(c1->shm_reads > c0->shm_reads && c0->shm_reads > c2->shm_reads,
           "Table I: col+1 gets the most reads from shared memory, then col, then col+2 "
           "[%llu, %llu, %llu]",
           (unsigned long long)c1->shm_reads, (unsigned long long)c0->shm_reads,
           (unsigned long long)c2->shm_reads);
    tap_ok(c0->shm_reads == table1_count(1024, 32, 0) &&
               c1->shm_reads == table1_count(1024, 32, 1) &&
               c2->shm_reads == table1_count(1024, 32, 2) &&
               none->array_reads[0] == 3ull * 32 * (1024 - 2),
           "Table I counts: %llu reads of in[] (3 x rows x (MAX-2)), buffer reads match "
           "((MAX/16-1)*{45,46,45} + {42,41,39}) * rows",
           (unsigned long long)none->array_reads[0]);
    if (analyse(m, "fig2-fetch", small, 2, &y)) {
        tap_ok(get(&y, "col")->shm_reads == table1_count(512, 16, 0) &&
                   get(&y, "col+1")->shm_reads == table1_count(512, 16, 1) &&
                   get(&y, "col+2")->shm_reads == table1_count(512, 16, 2),
               "the same closed form at MAX 512, 16 rows");
        run_free(&y);
    }
    tap_ok(table1_count(16384, 16384, 0) == 754925568ull &&
               table1_count(16384, 16384, 1) == 771670016ull &&
               table1_count(16384, 16384, 2) == 754876416ull &&
               3ull * 16384 * (16384 - 2) == 805208064ull,
           "at the document's 16384 x 16384 the closed form gives Table I exactly: 754925568, "
           "771670016, 754876416 of 805208064 accesses");
    tap_ok(c0->mpe > c1->mpe && c0->mpe > c2->mpe,
           "Sect. 3.1: MPE ranks fetching row*MAX+col best although row*MAX+col+1 has the most "
           "reuse [MPE %.4f vs %.4f, %.4f]",
           c0->mpe, c1->mpe, c2->mpe);
    tap_ok(c0->bw_util > c1->bw_util && c0->bw_util > c2->bw_util &&
               c0->data_reuse > c1->data_reuse && c0->data_reuse > c2->data_reuse,
           "because of coalescing: the misaligned fetches move more bytes (bw_util %.3f vs "
           "%.3f, %.3f; Eq. 1 per transferred byte %.3f vs %.3f, %.3f)",
           c0->bw_util, c1->bw_util, c2->bw_util, c0->data_reuse, c1->data_reuse,
           c2->data_reuse);
    tap_ok(c2->mpe > c1->mpe, "Table I: col+2 (63.77 ms) ahead of col+1 (64.86 ms) [MPE %.4f > "
                              "%.4f]",
           c2->mpe, c1->mpe);
    tap_ok(c0->worst_degree == 16 && c0->shm_eff < 0.07,
           "Fig. 2 reads s_in column-wise: 16-way bank conflicts on GT200 [shm_eff %.4f]",
           c0->shm_eff);
    {
        static const char *const v[] = {"col", "col+1", "col+2"};
        static const double ms[] = {61.11, 64.86, 63.77};
        static const char *const v4[] = {"none", "col", "col+1", "col+2"};
        static const double ms4[] = {78.15, 61.11, 64.86, 63.77};
        tap_diag("Pearson(MPE, 1/time of Table I): %.3f over the three fetches, %.3f with "
                 "Fig. 1 (MPE %.4f: sqrt(shm_eff) of the 16-way conflicts outweighs the reuse)",
                 pearson_times(&x, v, ms, 3), pearson_times(&x, v4, ms4, 4), none->mpe);
    }
    run_free(&x);
}

/* ------------------------------------------------------------------ Sect. 3.2, Table II */

static void test_sect32(const cls_model *m)
{
    static const char *const fetch[] = {"col", "col+1", "col+2"};
    static const char *const names[] = {"col-cw",   "col-rw",   "col-pad",   "col+1-cw", "col+1-rw",
                                        "col+1-pad", "col+2-cw", "col+2-rw", "col+2-pad"};
    static const double ms[] = {61.11, 45.06, 44.98, 64.86, 54.75, 53.69, 63.77, 55.25, 54.39};
    run x;
    int ok_rank = 1, ok_only = 1, ok_eff = 1;
    double rho;
    if (!tap_ok(analyse(m, "fig2-layout", rows64, 1, &x),
                "fig2-layout analyses on the GT200 model"))
        return;
    table(&x, "Kim & Shrivastava, Sect. 3.2 (Table II) on c1060: column-wise (cw), row-wise (rw), "
              "16x17 (pad)");
    for (int f = 0; f < 3; f++) {
        char n[3][32];
        const cls_cumapz_result *cw, *rw, *pad;
        snprintf(n[0], sizeof n[0], "%s-cw", fetch[f]);
        snprintf(n[1], sizeof n[1], "%s-rw", fetch[f]);
        snprintf(n[2], sizeof n[2], "%s-pad", fetch[f]);
        cw = get(&x, n[0]);
        rw = get(&x, n[1]);
        pad = get(&x, n[2]);
        ok_rank &= rw->mpe > 3 * cw->mpe && pad->mpe > 3 * cw->mpe;
        ok_only &= rw->data_reuse == cw->data_reuse && rw->bw_util == cw->bw_util &&
                   rw->ch_skew == cw->ch_skew && rw->branch_eff == cw->branch_eff &&
                   pad->bw_util == cw->bw_util;
        ok_eff &= rw->shm_eff == 1.0 && pad->shm_eff == 1.0 && cw->shm_eff < 0.07;
    }
    tap_ok(ok_rank, "Sect. 3.2: row-wise and 16x17-padded beat column-wise for every fetch choice "
                    "(MPE more than 3x)");
    tap_ok(ok_eff && ok_only, "through bank conflicts: shm_eff 1 for rw and pad, under 1/14 for "
                              "cw; every other factor equal");
    rho = pearson_times(&x, names, ms, 9);
    tap_ok(rho > 0.95, "Pearson(MPE, 1/time of Table II) = %.3f over the nine variants", rho);
    run_free(&x);
}

/* ------------------------------------------------------------------ Sect. 3.3, Table III */

static void test_sect33(const cls_model *m)
{
    static const char *const fetch[] = {"none", "col", "col+1", "col+2"};
    static const char *const names[] = {"none-rw",  "none-cw", "col-rw",   "col-cw",
                                        "col+1-rw", "col+1-cw", "col+2-rw", "col+2-cw"};
    static const double ms[] = {78.15,   3938.08, 46.06,   3933.88,
                                54.75,   3936.23, 55.25,   3937.56};
    run x;
    int ok_skew = 1, ok_mpe = 1, ok_bottle = 1;
    double rho;
    if (!tap_ok(analyse(m, "fig2-write", rows64, 1, &x), "fig2-write analyses on the GT200 model"))
        return;
    table(&x, "Kim & Shrivastava, Sect. 3.3 (Table III) on c1060: row-wise (rw) and column-wise "
              "(cw) writes");
    for (int f = 0; f < 4; f++) {
        char n[2][32];
        const cls_cumapz_result *rw, *cw;
        snprintf(n[0], sizeof n[0], "%s-rw", fetch[f]);
        snprintf(n[1], sizeof n[1], "%s-cw", fetch[f]);
        rw = get(&x, n[0]);
        cw = get(&x, n[1]);
        ok_skew &= cw->ch_skew > 4 * rw->ch_skew && cw->ch_worst_skew == 8 &&
                   cw->channels_used == 1 && cw->max_n_block_per_ch == cw->n_blk_to_check;
        ok_mpe &= cw->mpe * 8 < rw->mpe;
        ok_bottle &= cls_cumapz_bottleneck(cw, NULL) == CLS_CUMAPZ_CH_SKEW;
        if (f == 1)
            tap_diag("col-cw: the write sends all %llu checked work-groups to one of %u channels "
                     "(%s): Eq. 5 gives %u; ch_skew %.3f over the instructions against %.3f",
                     (unsigned long long)cw->n_blk_to_check, cw->n_channels, cw->ch_worst_path,
                     cw->n_channels, cw->ch_skew, rw->ch_skew);
    }
    tap_ok(ok_skew, "Sect. 3.3: the column-wise write puts every work-group of Eq. 4 on one "
                    "channel (Eq. 5: n_channels) and multiplies ch_skew by more than 4");
    tap_ok(ok_mpe && ok_bottle, "column-wise writes collapse (MPE below 1/8 of row-wise) with "
                                "ch_skew named the bottleneck");
    rho = pearson_times(&x, names, ms, 8);
    tap_ok(rho > 0.85, "Pearson(MPE, 1/time of Table III) = %.3f over the eight variants", rho);
    run_free(&x);
}

/* ------------------------------------------------------------------ transpose, stencils */

static void test_transpose(const cls_model *m)
{
    static const char *const n512[] = {"N=512"};
    run x;
    const cls_cumapz_result *naive, *nd, *tiled, *padded, *diag, *dc;
    if (!tap_ok(analyse(m, "transpose", n512, 1, &x), "transpose analyses on the GT200 model"))
        return;
    table(&x, "transpose 512 x 512 on c1060 (Kim & Shrivastava, Sect. 6.1, Fig. 8)");
    naive = get(&x, "naive");
    nd = get(&x, "naive-diag");
    tiled = get(&x, "tiled");
    padded = get(&x, "padded");
    diag = get(&x, "diag");
    dc = get(&x, "diag-conflicts");
    tap_ok(tiled->mpe < padded->mpe && padded->mpe < diag->mpe && dc->mpe < diag->mpe &&
               naive->mpe < tiled->mpe && naive->mpe < nd->mpe,
           "Fig. 8 steps: tiled < padded < diagonal, diagonal with conflicts < diagonal; naive "
           "last");
    tap_ok(tiled->shm_eff < 0.2 && padded->shm_eff == 1 && padded->ch_skew > 4 &&
               diag->ch_skew == 1 && cls_cumapz_bottleneck(padded, NULL) == CLS_CUMAPZ_CH_SKEW &&
               cls_cumapz_bottleneck(dc, NULL) == CLS_CUMAPZ_SHM_EFF,
           "Fig. 8(d): channel skew and bank conflicts are the only factors that change (padded "
           "ch_skew %.2f, diagonal 1; tiled shm_eff %.3f)",
           padded->ch_skew, tiled->shm_eff);
    kept_transpose = x;
}

static void test_stencils(const cls_model *m)
{
    static const char *const ny96[] = {"NY=96"};
    run x, y;
    if (analyse(m, "stencil2d", ny96, 1, &x)) {
        const cls_cumapz_result *c16 = get(&x, "classic-16x16"), *a = get(&x, "aligned-32x6");
        const cls_cumapz_result *acm = get(&x, "aligned-32x6-cm");
        const cls_cumapz_result *acp = get(&x, "aligned-32x6-cmp");
        const cls_cumapz_result *ccm = get(&x, "classic-16x16-cm");
        table(&x, "stencil2d 512 x 96 on c1060 (Mo & Li, Sect. 4 loaders)");
        tap_ok(a->branch_eff == 1 && c16->branch_eff < 0.9 && a->n_shm_load == 2,
               "Mo & Li, Listing 3 has no divergent branch and two independent fetches; Listing 2 "
               "diverges [branch_eff %.3f vs %.3f]",
               a->branch_eff, c16->branch_eff);
        tap_ok(acm->worst_degree == 8 && acp->shm_eff == 1 && ccm->worst_degree == 2,
               "column-major tiles conflict on 16 banks (48x8 tile: 8-way, 18x18: 2-way), the "
               "padded ones do not");
        kept_stencil2d = x;
    }
    /* A typical stencil analysis: one variant at the case's full size. */
    {
        char *json = NULL;
        cls_access_set *set = NULL;
        cls_cumapz_result r;
        if (cls_cumapz_case_json("stencil2d", &json) == CLS_SUCCESS &&
            cls_access_set_from_json(json, NULL, 0, &set) == CLS_SUCCESS &&
            cls_cumapz_analyze(m, &set->v[0], NULL, &r) == CLS_SUCCESS)
            tap_ok(r.seconds < 1.0, "stencil2d %s at 512 x 480: %llu work-item references "
                                    "emulated in %.3f s (limit 1 s)",
                   set->v[0].name, (unsigned long long)r.evaluations, r.seconds);
        else tap_ok(0, "stencil2d at full size: %s", cls__error_message());
        cls_access_set_free(set);
        free(json);
    }
    static const char *const nz1[] = {"NZ=1", "NY=120"};
    if (analyse(m, "stencil3d", nz1, 2, &y)) {
        table(&y, "stencil3d 256 x 120 x 1 on c1060 (Mo & Li, Sect. 4 loaders)");
        tap_ok(get(&y, "aligned-32x6")->branch_eff == 1 &&
                   get(&y, "classic-32x6")->branch_eff < 0.9,
               "3D: the aligned loader keeps every warp converged, the classic one does not");
        run_free(&y);
    } else {
        tap_ok(0, "stencil3d analyses on the GT200 model");
    }
}

/* ------------------------------------------------------------------ Sect. 7 */

static void test_reduced(const cls_model *m)
{
    /* A reduction keeps the row pitch (the address-to-channel pattern) and shrinks the rest;
     * a kept run stands for one side where an earlier test made it. */
    static const struct {
        const char *name;
        const char *reduced[3];
        const char *larger[3];
        run *kept_reduced, *kept_larger;
    } cases[] = {
        {"fig2-layout", {"ROWS=16"}, {"MAX=2048", "ROWS=64"}, NULL, NULL},
        {"fig2-write", {"ROWS=16"}, {"MAX=2048", "ROWS=64"}, NULL, NULL},
        {"transpose", {"N=512"}, {"N=1024"}, &kept_transpose, NULL},
        {"stencil2d", {"NY=24"}, {"NY=96"}, NULL, &kept_stencil2d},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run a, b;
        size_t na = cases[c].reduced[1] ? 2 : 1, nb = cases[c].larger[1] ? 2 : 1;
        int ok;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        if (cases[c].kept_reduced) a = *cases[c].kept_reduced;
        if (cases[c].kept_larger) b = *cases[c].kept_larger;
        ok = (a.ok || analyse(m, cases[c].name, cases[c].reduced, na, &a)) &&
             (b.ok || analyse(m, cases[c].name, cases[c].larger, nb, &b));
        tap_ok(ok && same_ranking(&a, &b),
               "Sect. 7: %s ranks its %zu variants the same with %s%s%s (%.2f s) as with %s%s%s "
               "(%.2f s)",
               cases[c].name, a.set ? a.set->n : 0, cases[c].reduced[0],
               cases[c].reduced[1] ? " " : "", cases[c].reduced[1] ? cases[c].reduced[1] : "",
               a.seconds, cases[c].larger[0], cases[c].larger[1] ? " " : "",
               cases[c].larger[1] ? cases[c].larger[1] : "", b.seconds);
        run_free(&a);
        run_free(&b);
    }
}

/* Every case on the other families (small sizes): finite factors in their ranges. */
static void test_families(void)
{
    static const char *const models[] = {"c2050", "h100", "pocl-cpu"};
    static const struct {
        const char *name, *ov[2];
    } small[] = {{"fig2-fetch", {"ROWS=16"}}, {"fig2-layout", {"ROWS=16"}},
                 {"fig2-write", {"ROWS=16"}}, {"transpose", {"N=256"}},
                 {"stencil2d", {"NY=48"}},    {"stencil3d", {"NY=48", "NZ=1"}}};
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
        cls_model *m = load(models[k]);
        size_t bad = 0, variants = 0;
        double secs = 0;
        for (size_t c = 0; m && c < sizeof small / sizeof small[0]; c++) {
            run x;
            if (!analyse(m, small[c].name, small[c].ov, small[c].ov[1] ? 2 : 1, &x)) {
                bad++;
                run_free(&x);
                continue;
            }
            for (size_t i = 0; i < x.set->n; i++) {
                const cls_cumapz_result *r = &x.r[i];
                variants++;
                if (!(isfinite(r->mpe) && r->mpe > 0 && r->bw_util > 0 && r->bw_util <= 1 &&
                      r->shm_eff > 0 && r->shm_eff <= 1 && r->branch_eff >= 0.5 &&
                      r->branch_eff <= 1 && r->ch_skew >= 1 && r->lat_hiding > 0))
                    bad++;
            }
            secs += x.seconds;
            run_free(&x);
        }
        tap_ok(m && bad == 0, "%s: all %zu variants of the %zu cases give factors in range "
                              "(%.2f s)",
               models[k], variants, sizeof small / sizeof small[0], secs);
        cls_model_release(m);
    }
}

int main(void)
{
    cls_model *m = load("c1060");
    if (!tap_ok(m != NULL, "the Tesla C1060 model (GT200 family) loads")) return tap_done();
    test_sect31(m);
    test_sect32(m);
    test_sect33(m);
    test_transpose(m);
    test_stencils(m);
    test_reduced(m);
    cls_model_release(m);
    test_families();
    return tap_done();
}
