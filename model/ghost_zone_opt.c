/* ghost_zone_opt.c: the h, sync mode and block that minimise CPL (Meng & Skadron 2010,
 * Sect. 5.4-5.5). */
#include "error.h"
#include "ghost_zone.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The golden-section search stops when its bracket is narrower than this (in loops). */
#define GZ_H_TOL 1e-9
/* h_cont this close below an integer counts as that integer when rounding down. */
#define GZ_ROUND_EPS 1e-7
/* Scans over integer heights stop here: a block of 2^16 + 1 points along an axis is far beyond
 * any device's work-group, and a height read from a huge hostile block must not cost hours. */
#define GZ_H_SCAN_MAX 65536

/* The largest integer h allowed by Eq. 20 and h_cap (INT_MAX: unbounded). */
static int h_limit(const cls_gz_profile *p, const cls_gz_config *c, int h_cap)
{
    int m = cls_gz_h_max(p, c);
    if (h_cap > 0 && h_cap < m) m = h_cap;
    return m;
}

static double cpl_at(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                     double h)
{
    cls_gz_config k = *c;
    k.h = h;
    return cls_gz_CPL(d, p, &k);
}

/* Shared checks of the two single-block searches: fills *hmax or fails. */
static cls_status h_range(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                          int h_cap, int *hmax)
{
    cls_status st = cls_gz_check(d, p, c);
    if (st != CLS_SUCCESS) return st;
    *hmax = h_limit(p, c, h_cap);
    if (*hmax == INT_MAX)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "profile %s has no halo, so Eq. 20 does not bound the trapezoid "
                          "height: give an h_cap (e.g. the number of steps)",
                          p->name ? p->name : "");
    if (*hmax < 1) {
        char bt[64];
        size_t n = 0;
        for (int i = 0; i < p->D && n < sizeof bt; i++)
            n += (size_t)snprintf(bt + n, sizeof bt - n, "%s%d", i ? "x" : "", c->blk_len[i]);
        return cls__error(CLS_ERR_PLAN_INFEASIBLE,
                          "profile %s: a block of %s leaves no valid tile even for h = 1 "
                          "(Eq. 20: blk_len_i - HaloWidth_i x h > 0)",
                          p->name ? p->name : "", bt);
    }
    return CLS_SUCCESS;
}

cls_status cls_gz_optimize_h(const cls_gz_device *d, const cls_gz_profile *p,
                             const cls_gz_config *c, int h_cap, cls_gz_opt *out)
{
    const double g = 0.6180339887498949; /* (sqrt(5) - 1) / 2 */
    double a, b, x1, x2, f1, f2, hc;
    int hmax, lo, hi, evals = 0;
    cls_status st;
    if (!out) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_gz_optimize_h: NULL");
    st = h_range(d, p, c, h_cap, &hmax);
    if (st != CLS_SUCCESS) return st;

    /* The continuous relaxation (Sect. 5.4.2): h in [1, h_sup) under Eq. 20 (an open bound:
     * CPL grows without limit towards it), and h <= h_cap.  Every component of Eq. 24 is
     * convex in h (Sect. 6.1; each is a positive multiple of 1/h, T/h or T, and
     * T/h = L / (h prod (blk_len_i - HaloWidth_i h)) is log-convex), so CPL is unimodal there
     * and golden-section search finds its minimum; a minimum at h < 1 (Cell) ends at 1. */
    a = 1;
    b = cls_gz_h_sup(p, c);
    if (h_cap > 0 && h_cap < b) b = h_cap;
    else b = nextafter(b, 0); /* stay inside the open bound */
    x1 = b - g * (b - a);
    x2 = a + g * (b - a);
    f1 = cpl_at(d, p, c, x1);
    f2 = cpl_at(d, p, c, x2);
    evals = 2;
    while (b - a > GZ_H_TOL * fmax(1, a) && evals < 400) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = cpl_at(d, p, c, x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = cpl_at(d, p, c, x2);
        }
        evals++;
    }
    hc = (a + b) / 2;
    out->h_cont = hc;
    out->CPL_cont = cpl_at(d, p, c, hc);
    out->evaluations = evals + 1;
    out->h_max = hmax;

    /* Rounding down reproduces every height the document reports as predicted (PathFinder's
     * 19.56 -> 19 with fences); the issue asks for the better integer neighbour, which is the
     * exact integer minimum of a convex function. */
    lo = (int)floor(hc + GZ_ROUND_EPS);
    if (lo < 1) lo = 1;
    if (lo > hmax) lo = hmax;
    hi = (int)ceil(hc - GZ_ROUND_EPS);
    if (hi < lo) hi = lo;
    if (hi > hmax) hi = hmax;
    out->h_floor = lo;
    {
        double flo = cpl_at(d, p, c, lo), fhi = hi != lo ? cpl_at(d, p, c, hi) : flo;
        out->h = fhi < flo ? hi : lo;
        out->CPL = fhi < flo ? fhi : flo;
    }
    /* Whole waves (d->waves) make CPL only piecewise convex: the integer minimum is then found
     * over every h (a few thousand evaluations at most). */
    if (d->waves)
        for (int k = 1; k <= hmax && k <= GZ_H_SCAN_MAX; k++) {
            double f = cpl_at(d, p, c, k);
            if (f < out->CPL) {
                out->CPL = f;
                out->h = k;
            }
        }
    return CLS_SUCCESS;
}

cls_status cls_gz_brute_force_h(const cls_gz_device *d, const cls_gz_profile *p,
                                const cls_gz_config *c, int h_cap, int *h, double *cpl)
{
    int hmax, best = 1;
    double fbest = HUGE_VAL;
    cls_status st;
    if (!h || !cpl) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_gz_brute_force_h: NULL");
    st = h_range(d, p, c, h_cap, &hmax);
    if (st != CLS_SUCCESS) return st;
    for (int k = 1; k <= hmax && k <= GZ_H_SCAN_MAX; k++) {
        double f = cpl_at(d, p, c, k);
        if (f < fbest) {
            fbest = f;
            best = k;
        }
    }
    *h = best;
    *cpl = fbest;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ block and mode */

static int mode_allowed(const cls_gz_search_opts *o, cls_gz_sync s)
{
    return o->modes == 0 || (o->modes & (1u << s)) != 0;
}

/* "20x20" */
static void block_text(const cls_gz_block *b, int D, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < D && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "x" : "", b->len[i]);
}

/* Whether the block fits the device (Sect. 5.4.1: the thread-block limit; Sect. 3.2: the PBSM)
 * and admits h = 1 (Eq. 20); when not, a reason into why. */
static int block_fits(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                      const cls_gz_search_opts *o, char *why, size_t len)
{
    double elems = 1;
    for (int i = 0; i < p->D; i++) elems *= c->blk_len[i];
    if (d->MaxThreadsPerBlock > 0 && elems > d->MaxThreadsPerBlock) {
        snprintf(why, len, "%.0f work-items > %.0f (compute.max_work_group)", elems,
                 d->MaxThreadsPerBlock);
        return 0;
    }
    if (o->local_bytes_per_elem > 0 && d->LocalBytes > 0 &&
        elems * o->local_bytes_per_elem > d->LocalBytes) {
        snprintf(why, len, "%.0f bytes of local memory > %.0f (local_memory.bytes)",
                 elems * o->local_bytes_per_elem, d->LocalBytes);
        return 0;
    }
    if (h_limit(p, c, o->h_cap) < 1) {
        snprintf(why, len, "no valid tile for h = 1 (Eq. 20)");
        return 0;
    }
    return 1;
}

/* Fills the config of candidate block b. */
static void block_config(const cls_gz_profile *p, const double DataLength[CLS_GZ_MAX_DIMS],
                         const cls_gz_block *b, cls_gz_config *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < CLS_GZ_MAX_DIMS; i++) {
        c->DataLength[i] = i < p->D ? DataLength[i] : 1;
        c->blk_len[i] = i < p->D ? b->len[i] : 1;
    }
    c->h = 1;
    c->sync = CLS_GZ_KNL_RESTART;
}

static cls_status search_args(const cls_gz_device *d, const cls_gz_profile *p,
                              const double *DataLength, const cls_gz_search_opts *o,
                              const cls_gz_choice *best)
{
    if (!d || !p || !DataLength || !o || !best || (!o->blocks && o->n_blocks))
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "ghost-zone search: NULL");
    if (o->n_blocks == 0)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "ghost-zone search: no candidate block");
    if (!mode_allowed(o, CLS_GZ_KNL_RESTART) && !mode_allowed(o, CLS_GZ_MEM_FENCE))
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "ghost-zone search: no sync mode allowed (modes = %#x)", o->modes);
    return cls_gz_check(d, p, NULL);
}

/* Room for the reasons of the blocks that do not fit (the infeasibility message). */
#define REASONS_MAX 1024

/* Appends "; 32x32: reason" to the reasons. */
static void note_reason(char *reasons, const cls_gz_block *b, int D, const char *why)
{
    char bt[64];
    size_t n = strlen(reasons);
    if (n + 1 >= REASONS_MAX) return;
    block_text(b, D, bt, sizeof bt);
    snprintf(reasons + n, REASONS_MAX - n, "%s%s: %s", n ? "; " : "no candidate block fits: ", bt,
             why);
}

cls_status cls_gz_search(const cls_gz_device *d, const cls_gz_profile *p,
                         const double DataLength[CLS_GZ_MAX_DIMS], const cls_gz_search_opts *o,
                         cls_gz_choice *best, cls_gz_choice *per_block)
{
    char reasons[REASONS_MAX] = "";
    int found = 0;
    cls_status st = search_args(d, p, DataLength, o, best);
    if (st != CLS_SUCCESS) return st;
    for (size_t b = 0; b < o->n_blocks; b++) {
        cls_gz_choice ch;
        cls_gz_config c;
        char why[256];
        memset(&ch, 0, sizeof ch);
        ch.block = o->blocks[b];
        ch.CPL = HUGE_VAL;
        block_config(p, DataLength, &o->blocks[b], &c);
        st = cls_gz_check(d, p, &c);
        if (st != CLS_SUCCESS) return st;
        if (!block_fits(d, p, &c, o, why, sizeof why)) {
            note_reason(reasons, &o->blocks[b], p->D, why);
            if (per_block) per_block[b] = ch;
            continue;
        }
        ch.delta = cls_gz_delta(d, p, &c); /* Eq. 23: depends on the block only */
        for (int s = 0; s < CLS_GZ_NSYNC; s++) {
            if (!mode_allowed(o, (cls_gz_sync)s)) continue;
            c.sync = (cls_gz_sync)s;
            st = cls_gz_optimize_h(d, p, &c, o->h_cap, &ch.opt[s]);
            if (st == CLS_ERR_PLAN_INFEASIBLE) continue;
            if (st != CLS_SUCCESS) return st;
            ch.feasible[s] = 1;
        }
        if (ch.feasible[0] && ch.feasible[1]) {
            /* Sect. 5.5: a positive delta "predicts that using memory fences incurs overhead
             * and thus restarting kernels is preferred"; delta = 0 keeps the restart, which
             * needs no co-residency. */
            if (o->select == CLS_GZ_SELECT_DELTA)
                ch.sync = ch.delta >= 0 ? CLS_GZ_KNL_RESTART : CLS_GZ_MEM_FENCE;
            else
                ch.sync = ch.opt[1].CPL < ch.opt[0].CPL ? CLS_GZ_MEM_FENCE : CLS_GZ_KNL_RESTART;
        } else if (ch.feasible[0] || ch.feasible[1]) {
            ch.sync = ch.feasible[0] ? CLS_GZ_KNL_RESTART : CLS_GZ_MEM_FENCE;
        } else {
            note_reason(reasons, &o->blocks[b], p->D, "no feasible h");
            if (per_block) per_block[b] = ch;
            continue;
        }
        ch.h = ch.opt[ch.sync].h;
        ch.CPL = ch.opt[ch.sync].CPL;
        if (per_block) per_block[b] = ch;
        if (!found || ch.CPL < best->CPL) *best = ch;
        found = 1;
    }
    if (!found) return cls__error(CLS_ERR_PLAN_INFEASIBLE, "%s", reasons);
    return CLS_SUCCESS;
}

cls_status cls_gz_search_exhaustive(const cls_gz_device *d, const cls_gz_profile *p,
                                    const double DataLength[CLS_GZ_MAX_DIMS],
                                    const cls_gz_search_opts *o, cls_gz_choice *best)
{
    char reasons[REASONS_MAX] = "";
    int found = 0;
    cls_status st = search_args(d, p, DataLength, o, best);
    if (st != CLS_SUCCESS) return st;
    for (size_t b = 0; b < o->n_blocks; b++) {
        cls_gz_config c;
        char why[256];
        int hmax;
        block_config(p, DataLength, &o->blocks[b], &c);
        st = cls_gz_check(d, p, &c);
        if (st != CLS_SUCCESS) return st;
        if (!block_fits(d, p, &c, o, why, sizeof why)) {
            note_reason(reasons, &o->blocks[b], p->D, why);
            continue;
        }
        hmax = h_limit(p, &c, o->h_cap);
        if (hmax == INT_MAX)
            return cls__error(CLS_ERR_INVALID_ARGUMENT, "profile %s has no halo: give an h_cap",
                              p->name ? p->name : "");
        for (int s = 0; s < CLS_GZ_NSYNC; s++) {
            if (!mode_allowed(o, (cls_gz_sync)s)) continue;
            c.sync = (cls_gz_sync)s;
            for (int k = 1; k <= hmax && k <= GZ_H_SCAN_MAX; k++) {
                double f = cpl_at(d, p, &c, k);
                if (found && !(f < best->CPL)) continue;
                memset(best, 0, sizeof *best);
                best->block = o->blocks[b];
                best->sync = (cls_gz_sync)s;
                best->h = k;
                best->CPL = f;
                best->delta = cls_gz_delta(d, p, &c);
                found = 1;
            }
        }
    }
    if (!found) return cls__error(CLS_ERR_PLAN_INFEASIBLE, "%s", reasons);
    return CLS_SUCCESS;
}
