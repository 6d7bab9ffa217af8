/* ghost_zone.c: the formulas of the ghost-zone cost model (Meng & Skadron 2010, Eqs. 1-30). */
#include "error.h"
#include "ghost_zone.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

/* ------------------------------------------------------------------ device parameters */

/* What cls_gz_device_from_model reads: the schema key, the document's symbol (Table 1 and the
 * equations that use it), the scale into the symbol's unit, and whether 0 is a usable value. */
typedef struct gz_param {
    const char *key;
    const char *symbol;
    double scale;
    int zero_ok;
    size_t offset;
} gz_param;

#define GZ_P(key, member, scale, zero_ok, symbol)                                              \
    { key, symbol, scale, zero_ok, offsetof(cls_gz_device, member) }

static const gz_param gz_params[] = {
    GZ_P("compute.clock_mhz", ClockRate, 1e6, 0, "ClockRate (Table 1; Eqs. 4, 7)"),
    GZ_P("compute.compute_units", M, 1, 0, "M (Table 1; Eqs. 2, 5, 14-16)"),
    GZ_P("compute.blocks_per_cu", BlksPerSM, 1, 0, "BlksPerSM (Table 1; Eq. 5)"),
    GZ_P("memory.bandwidth_peak_gbs", MemBandwidth, 1e9, 0, "MemBandwidth (Table 1; Eqs. 4, 7)"),
    GZ_P("memory.latency_cycles", UncontendedLat, 1, 1, "UncontendedLat (Table 1; Eq. 7)"),
    GZ_P("compute.cpi", CPI, 1, 0, "CPI (Table 1; Eqs. 11, 15, 16)"),
    GZ_P("compute.warp_width", WarpSize, 1, 0, "WarpSize (Table 1; Eq. 14)"),
    GZ_P("compute.coalesce_width", CoalesceDegree, 1, 0, "CoalesceDegree (Table 1; Eq. 7)"),
    GZ_P("sync.kernel_restart_cycles", GlbSync_KnlRestart, 1, 1, "GlbSync_KnlRestart (Eq. 17)"),
    GZ_P("sync.barrier_cycles_per_group", BarrierPerBlk, 1, 1,
         "the 210.3 cycles per block of GlbSync_MemFence (Eq. 18)"),
    GZ_P("compute.max_work_group", MaxThreadsPerBlock, 1, 0,
         "the maximum threads per block (Table 1; Sect. 5.4.1)"),
    GZ_P("local_memory.bytes", LocalBytes, 1, 0, "the PBSM size (Sect. 3.2)"),
};
#define GZ_NPARAMS (sizeof gz_params / sizeof gz_params[0])
#define GZ_BW_INDEX 3 /* the row of MemBandwidth */

const char *cls_gz_device_param(size_t i, const char **symbol)
{
    if (i >= GZ_NPARAMS) return NULL;
    if (symbol) *symbol = gz_params[i].symbol;
    return gz_params[i].key;
}

cls_status cls_gz_device_from_model(const cls_model *m, unsigned flags, cls_gz_device *dev)
{
    cls_gz_device d = {0};
    if (!m || !dev) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_gz_device_from_model: NULL");
    for (size_t i = 0; i < GZ_NPARAMS; i++) {
        const gz_param *q = &gz_params[i];
        const char *key = q->key;
        double v = 0;
        if (i == GZ_BW_INDEX && (flags & CLS_GZ_BW_MEASURED)) key = "memory.bandwidth_measured_gbs";
        if (cls_model_get(m, key, &v) != CLS_SUCCESS)
            return cls__error(CLS_ERR_INVALID_MODEL,
                              "device model \"%s\": the schema has no parameter %s, which the "
                              "ghost-zone model needs for %s",
                              cls_model_name(m), key, q->symbol);
        if (!isfinite(v) || v < 0 || (v == 0 && !q->zero_ok))
            return cls__error(CLS_ERR_INVALID_MODEL,
                              "device model \"%s\": %s is %s (%g); the ghost-zone model needs a "
                              "positive value for %s%s",
                              cls_model_name(m), key, v == 0 ? "unknown" : "unusable", v, q->symbol,
                              i == GZ_BW_INDEX && (flags & CLS_GZ_BW_MEASURED)
                                  ? " (measure it with `clstencil probe`, or use the peak)"
                                  : "");
        *(double *)(void *)((char *)&d + q->offset) = v * q->scale;
        if (cls_model_is_assumed(m, key)) d.assumed |= 1u << i;
    }
    d.sigma = 5.0; /* Sect. 4.2: sigma "is empirically set to 5.0" */
    d.beta = 0.5;  /* Sect. 4.3: half of the instructions overlap memory accesses */
    d.mu = 0.5;    /* Sect. 4.5: half of the barrier overlaps computation */
    d.apply_tau = 0;
    *dev = d;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ checks */

cls_status cls_gz_check(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    const cls_status bad = CLS_ERR_INVALID_ARGUMENT;
    if (!d || !p) return cls__error(bad, "ghost-zone model: NULL device or profile");
    if (!(d->ClockRate > 0) || !(d->M > 0) || !(d->BlksPerSM > 0) || !(d->MemBandwidth > 0) ||
        !(d->CPI > 0) || !(d->WarpSize > 0) || !(d->CoalesceDegree > 0))
        return cls__error(bad, "ghost-zone device: ClockRate, M, BlksPerSM, MemBandwidth, CPI, "
                               "WarpSize and CoalesceDegree must be positive");
    if (!(d->UncontendedLat >= 0) || !(d->GlbSync_KnlRestart >= 0) || !(d->BarrierPerBlk >= 0) ||
        !(d->sigma > 0) || !(d->beta >= 0 && d->beta <= 1) || !(d->mu >= 0))
        return cls__error(bad,
                          "ghost-zone device: UncontendedLat, the sync costs and mu must be >= 0, "
                          "sigma > 0, beta within [0, 1]");
    if (p->D < 1 || p->D > CLS_GZ_MAX_DIMS)
        return cls__error(bad, "profile %s: D = %d, must be 1, 2 or 3", p->name ? p->name : "",
                          p->D);
    for (int i = 0; i < p->D; i++)
        if (p->HaloWidth[i] < 0)
            return cls__error(bad, "profile %s: HaloWidth_%d = %d is negative",
                              p->name ? p->name : "", i, p->HaloWidth[i]);
    if (!(p->NumStencilArrays >= 0) || !(p->NumElemPerOp >= 0) || !(p->N > 0) ||
        !(p->InstsPerSM_MC >= 0) || !(p->InstsPerSM_IC >= 0) || !(p->BankConflictRate >= 0) ||
        !(p->x > 0))
        return cls__error(bad,
                          "profile %s: N and x must be positive; NumStencilArrays, "
                          "NumElemPerOp, InstsPerSM_MC, InstsPerSM_IC, BankConflictRate >= 0",
                          p->name ? p->name : "");
    if (!(p->NumFields >= 0) || !isfinite(p->NumFields) || p->NumStages < 0 ||
        p->NumStages > CLS_GZ_MAX_STAGES)
        return cls__error(bad, "profile %s: NumFields must be >= 0 and NumStages 0 to %d",
                          p->name ? p->name : "", CLS_GZ_MAX_STAGES);
    if (p->NumStages >= 2)
        for (int i = 0; i < p->D; i++) {
            /* The ghost zone grows by every stage's reach per loop. */
            int sum = 0;
            for (int g = 0; g < p->NumStages; g++) {
                if (p->StageHaloWidth[g][i] < 0)
                    return cls__error(bad, "profile %s: StageHaloWidth_%d,%d = %d is negative",
                                      p->name ? p->name : "", g, i, p->StageHaloWidth[g][i]);
                sum += p->StageHaloWidth[g][i];
            }
            if (sum != p->HaloWidth[i])
                return cls__error(bad,
                                  "profile %s: HaloWidth_%d = %d, but its %d stages' widths add "
                                  "up to %d (the ghost zone grows by every stage's reach)",
                                  p->name ? p->name : "", i, p->HaloWidth[i], p->NumStages, sum);
        }
    for (int g = 0; g < p->NumStages && p->NumStages >= 2; g++)
        if (!(p->StageInstsPerSM_IC[g] >= 0) || !isfinite(p->StageInstsPerSM_IC[g]))
            return cls__error(bad, "profile %s: StageInstsPerSM_IC_%d = %g, must be >= 0",
                              p->name ? p->name : "", g, p->StageInstsPerSM_IC[g]);
    if (!c) return CLS_SUCCESS;
    for (int i = 0; i < p->D; i++) {
        if (!(c->DataLength[i] >= 1) || !isfinite(c->DataLength[i]))
            return cls__error(bad, "DataLength_%d = %g, must be at least 1", i, c->DataLength[i]);
        if (c->blk_len[i] < 1)
            return cls__error(bad, "blk_len_%d = %d, must be at least 1", i, c->blk_len[i]);
    }
    if (c->sync != CLS_GZ_KNL_RESTART && c->sync != CLS_GZ_MEM_FENCE)
        return cls__error(bad, "unknown sync mode %d", (int)c->sync);
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ small products */

/* prod_{i<D} (blk_len_i - HaloWidth_i x k): the tile left after k loops (k = h: the valid tile
 * a trapezoid commits, Eqs. 3, 9; k = 1: the ops of one loop, Eqs. 10, 16; k = 0: blk_len^D,
 * Eqs. 8, 15). */
static double tile(const cls_gz_profile *p, const cls_gz_config *c, double k)
{
    double r = 1;
    for (int i = 0; i < p->D; i++) r *= (double)c->blk_len[i] - (double)p->HaloWidth[i] * k;
    return r;
}

/* prod_{i<D} (blk_len_i - StageHaloWidth[g][i]): the points of the tile whose stage-g reads
 * stay inside it (stage 0 of a profile of one stage: P(1)). */
static double stage_tile(const cls_gz_profile *p, const cls_gz_config *c, int g)
{
    if (p->NumStages < 2) return tile(p, c, 1);
    double r = 1;
    for (int i = 0; i < p->D; i++) r *= (double)c->blk_len[i] - (double)p->StageHaloWidth[g][i];
    return r;
}

int cls_gz_stages(const cls_gz_profile *p) { return p->NumStages >= 2 ? p->NumStages : 1; }

double cls_gz_fields(const cls_gz_profile *p) { return p->NumFields >= 1 ? p->NumFields : 1; }

static double data_elems(const cls_gz_profile *p, const cls_gz_config *c)
{
    double r = 1;
    for (int i = 0; i < p->D; i++) r *= c->DataLength[i];
    return r;
}

int cls_gz_feasible(const cls_gz_profile *p, const cls_gz_config *c)
{
    if (!(c->h > 0)) return 0;
    for (int i = 0; i < p->D; i++) /* Eq. 20 */
        if (!((double)c->blk_len[i] - (double)p->HaloWidth[i] * c->h > 0)) return 0;
    return 1;
}

double cls_gz_h_sup(const cls_gz_profile *p, const cls_gz_config *c)
{
    double s = HUGE_VAL;
    for (int i = 0; i < p->D; i++) /* Eq. 20: h < blk_len_i / HaloWidth_i */
        if (p->HaloWidth[i] > 0) s = fmin(s, (double)c->blk_len[i] / p->HaloWidth[i]);
    return s;
}

int cls_gz_h_max(const cls_gz_profile *p, const cls_gz_config *c)
{
    int m = INT_MAX;
    /* Eq. 20 over the integers: HaloWidth_i x h <= blk_len_i - 1 */
    for (int i = 0; i < p->D; i++) {
        if (p->HaloWidth[i] <= 0) continue;
        int k = c->blk_len[i] >= 1 ? (c->blk_len[i] - 1) / p->HaloWidth[i] : 0;
        if (k < m) m = k;
    }
    return m;
}

/* ------------------------------------------------------------------ Sect. 4.1-4.2 */

double cls_gz_T(const cls_gz_profile *p, const cls_gz_config *c)
{
    if (!cls_gz_feasible(p, c)) return HUGE_VAL;
    /* Eq. 3: T = prod DataLength_i / prod (blk_len - HaloWidth_i x h).  Kept real as printed
     * ("can be approximated by dividing"): no ceiling per dimension. */
    return data_elems(p, c) / tile(p, c, c->h);
}

double cls_gz_CyclesPerReq(const cls_gz_device *d, double p)
{
    return p / (d->MemBandwidth / d->ClockRate); /* Eq. 4 */
}

double cls_gz_ConcurBlks(const cls_gz_device *d)
{
    return d->BlksPerSM * d->M; /* Eq. 5 */
}

double cls_gz_passes(const cls_gz_device *d, double T)
{
    return T / cls_gz_ConcurBlks(d); /* Eq. 6, real as printed (Eq. 31 relies on it) */
}

double cls_gz_wave_factor(const cls_gz_device *d, double T)
{
    double passes = cls_gz_passes(d, T);
    /* Not in Meng & Skadron 2010 (its passes stay real): whole waves of ConcurBlks trapezoids; the
     * last, partial one takes as long as a full one.  Below one wave the stage scales with T. */
    if (!d->waves || !(passes > 1) || !isfinite(passes)) return 1;
    return ceil(passes - 1e-9) / passes;
}

double cls_gz_alpha(const cls_gz_device *d, int D)
{
    return pow(d->sigma, D - 1); /* Sect. 4.2: alpha = sigma^(D-1) */
}

double cls_gz_MemCycles(const cls_gz_device *d, int D, double x, double T, double n)
{
    /* Eq. 7: passes x [UncontendedLat + alpha x n x CyclesPerReq(x x CoalesceDegree)
     *                  / (passes x CoalesceDegree)]
     *      = passes x UncontendedLat + alpha x n x x x ClockRate / MemBandwidth.
     * The second line is computed (it has no 0/0 when passes is 0). */
    double passes = cls_gz_passes(d, T);
    return passes * d->UncontendedLat +
           cls_gz_alpha(d, D) * n * cls_gz_CyclesPerReq(d, x * d->CoalesceDegree) /
               d->CoalesceDegree;
}

double cls_gz_LoadSten(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    double T = cls_gz_T(p, c);
    if (T == HUGE_VAL) return HUGE_VAL;
    /* Eq. 8: NumStencilArrays x MemCycles(T x blk_len^D) */
    return p->NumStencilArrays * cls_gz_MemCycles(d, p->D, p->x, T, T * tile(p, c, 0));
}

double cls_gz_Commit(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    double T = cls_gz_T(p, c);
    if (T == HUGE_VAL) return HUGE_VAL;
    /* Eq. 9: MemCycles(T x prod (blk_len - HaloWidth_i x h)), once per field of a system
     * (NumFields x Eq. 9: every field's valid tile is stored, as Eq. 8 loads every array). */
    return cls_gz_fields(p) * cls_gz_MemCycles(d, p->D, p->x, T, T * tile(p, c, c->h));
}

double cls_gz_IterMem(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    double T = cls_gz_T(p, c);
    if (T == HUGE_VAL) return HUGE_VAL;
    /* Eq. 10: NumElemPerOp x h x MemCycles(T x prod (blk_len - HaloWidth_i)).  The ops per loop
     * stay those of one loop because the tile does not shrink (Sect. 3.3).  With
     * NumElemPerOp = 0 the term is 0, its passes x UncontendedLat included. */
    return p->NumElemPerOp * c->h * cls_gz_MemCycles(d, p->D, p->x, T, T * tile(p, c, 1));
}

double cls_gz_MemAcc(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    /* Sect. 4.1: "MemAcc ... additively composed of three parts" */
    return cls_gz_LoadSten(d, p, c) + cls_gz_IterMem(d, p, c) + cls_gz_Commit(d, p, c);
}

/* ------------------------------------------------------------------ Sect. 4.3 */

double cls_gz_tau(const cls_gz_device *d, const cls_gz_profile *p)
{
    return (1 - d->beta) * (1 + p->BankConflictRate); /* Sect. 4.3, before Eq. 11 */
}

double cls_gz_CompCycles(const cls_gz_device *d, double StageInstsPerWarp, double tau,
                         double ActiveWarpsPerBlock)
{
    return StageInstsPerWarp * tau * ActiveWarpsPerBlock * d->CPI; /* Eq. 11 */
}

double cls_gz_StageInstsPerWarp_MC(double IterInstsPerWarp_MC)
{
    return IterInstsPerWarp_MC; /* Eq. 12 */
}

double cls_gz_StageInstsPerWarp_IC(double h, double IterInstsPerWarp_IC)
{
    return h * IterInstsPerWarp_IC; /* Eq. 13 */
}

double cls_gz_IterInstsPerWarp(const cls_gz_device *d, double InstsPerSM, double N)
{
    return InstsPerSM / (N / (d->WarpSize * d->M)); /* Eq. 14 */
}

double cls_gz_ActiveWarpsPerBlock_MC(const cls_gz_device *d, const cls_gz_profile *p,
                                     const cls_gz_config *c)
{
    /* Sect. 4.3: "estimated as blk_len^D / WarpSize for MiscComp", a real number (Sect. 5.3,
     * "Approximation Error") */
    return tile(p, c, 0) / d->WarpSize;
}

double cls_gz_ActiveWarpsPerBlock_IC(const cls_gz_device *d, const cls_gz_profile *p,
                                     const cls_gz_config *c)
{
    /* Sect. 4.3: "prod (blk_len - HaloWidth_j) / WarpSize for IterComp" */
    return tile(p, c, 1) / d->WarpSize;
}

double cls_gz_ActiveWarpsPerBlock_IC_stage(const cls_gz_device *d, const cls_gz_profile *p,
                                           const cls_gz_config *c, int g)
{
    /* Sect. 4.3's prod (blk_len - HaloWidth_j) / WarpSize for stage g of a system: the threads
     * whose stage-g reads stay in the tile, prod (blk_len - StageHaloWidth_g,j) / WarpSize. */
    return stage_tile(p, c, g) / d->WarpSize;
}

/* The tau that Eqs. 15-16 use: the printed equations substitute Eq. 11 without tau (the factor
 * was added to the text in the journal version, Sect. 4.3 "[IJPP]", and the equations were not
 * changed).  apply_tau = 1 restores it. */
static double tau_used(const cls_gz_device *d, const cls_gz_profile *p)
{
    return d->apply_tau ? cls_gz_tau(d, p) : 1.0;
}

double cls_gz_MiscComp(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    /* Eq. 15 = Eq. 11 with Eqs. 12 and 14 substituted:
     *   InstsPerSM_MC x WarpSize x M / N  x  blk_len^D / WarpSize  x  CPI
     * = InstsPerSM_MC x M / N x blk_len^D x CPI. */
    double ipw = cls_gz_IterInstsPerWarp(d, p->InstsPerSM_MC, p->N);
    return cls_gz_CompCycles(d, cls_gz_StageInstsPerWarp_MC(ipw), tau_used(d, p),
                             cls_gz_ActiveWarpsPerBlock_MC(d, p, c));
}

double cls_gz_IterComp_stage(const cls_gz_device *d, const cls_gz_profile *p,
                             const cls_gz_config *c, int g)
{
    /* Eq. 16 = Eq. 11 with Eqs. 13 and 14 substituted:
     *   h x InstsPerSM_IC x M / N x prod (blk_len - HaloWidth_j) x CPI;
     * for stage g of a system its own instructions and active tile:
     *   h x StageInstsPerSM_IC_g x M / N x prod (blk_len - StageHaloWidth_g,j) x CPI. */
    double insts = p->NumStages >= 2 ? p->StageInstsPerSM_IC[g] : p->InstsPerSM_IC;
    double ipw = cls_gz_IterInstsPerWarp(d, insts, p->N);
    return cls_gz_CompCycles(d, cls_gz_StageInstsPerWarp_IC(c->h, ipw), tau_used(d, p),
                             cls_gz_ActiveWarpsPerBlock_IC_stage(d, p, c, g));
}

double cls_gz_IterComp(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    /* Eq. 16, or for a system its sum over the stages of a loop (each stage sweeps the tile
     * once per loop, Eq. 13's h loops of every stage). */
    double r = 0;
    for (int g = 0; g < cls_gz_stages(p); g++) r += cls_gz_IterComp_stage(d, p, c, g);
    return r;
}

double cls_gz_CPT(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    /* Sect. 4.1: CPT = IterComp + MiscComp.  Sect. 4.5: with memory fences MiscComp "is no
     * longer a component of CPT". */
    double cpt = cls_gz_IterComp(d, p, c);
    if (c->sync == CLS_GZ_KNL_RESTART) cpt += cls_gz_MiscComp(d, p, c);
    return cpt;
}

/* ------------------------------------------------------------------ Sect. 4.4-4.5 */

double cls_gz_GlbSync_KnlRestart(const cls_gz_device *d)
{
    return d->GlbSync_KnlRestart; /* Eq. 17 */
}

double cls_gz_GlbSync_MemFence(const cls_gz_device *d, double T)
{
    /* Eq. 18: mu x 210.3 x T.  The intercept of the fit (Sect. 4.5's own "delta", not the one
     * of Eq. 23) is negligible and left out as printed. */
    return d->mu * d->BarrierPerBlk * T;
}

double cls_gz_GlbSync(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    if (c->sync == CLS_GZ_MEM_FENCE) return cls_gz_GlbSync_MemFence(d, cls_gz_T(p, c));
    return cls_gz_GlbSync_KnlRestart(d);
}

/* ------------------------------------------------------------------ Eqs. 1-2 */

double cls_gz_CPS(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    double T = cls_gz_T(p, c);
    if (T == HUGE_VAL) return HUGE_VAL;
    /* Eq. 2: GlbSync + MemAcc + CPT x T / M (the last two in whole waves with d->waves) */
    return cls_gz_GlbSync(d, p, c) +
           cls_gz_wave_factor(d, T) * (cls_gz_MemAcc(d, p, c) + cls_gz_CPT(d, p, c) * T / d->M);
}

double cls_gz_CPL(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    if (!cls_gz_feasible(p, c)) return HUGE_VAL;
    return cls_gz_CPS(d, p, c) / c->h; /* Eq. 1 */
}

/* ------------------------------------------------------------------ Eqs. 19, 21-23 */

double cls_gz_CostEffect(const cls_gz_profile *p, const cls_gz_config *c)
{
    /* Eq. 19 prints the products over i = 0..D; read as 0..D-1 like Eqs. 3 and 9 (there is no
     * D-th dimension). */
    return tile(p, c, c->h) / tile(p, c, 1);
}

double cls_gz_Overhead_MemFence(const cls_gz_device *d, const cls_gz_profile *p,
                                const cls_gz_config *c)
{
    double T = cls_gz_T(p, c);
    if (T == HUGE_VAL) return HUGE_VAL;
    /* Eq. 21: GlbSync_MemFence - GlbSync_KnlRestart - MiscComp x T / M */
    return cls_gz_GlbSync_MemFence(d, T) - cls_gz_GlbSync_KnlRestart(d) -
           cls_gz_MiscComp(d, p, c) * T / d->M;
}

double cls_gz_delta(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c)
{
    /* Eq. 22 -> 23: T x delta - 3350 with
     *   delta = mu x 210.3 - InstsPerSM_MC / N x blk_len^D x CPI = mu x 210.3 - MiscComp / M. */
    return d->mu * d->BarrierPerBlk - cls_gz_MiscComp(d, p, c) / d->M;
}

double cls_gz_run_cycles(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                         long steps)
{
    cls_gz_config last = *c;
    long h = (long)c->h, full, rest;
    double cyc;
    if (steps < 1 || !(c->h >= 1) || (double)h != c->h || !cls_gz_feasible(p, c)) return HUGE_VAL;
    full = steps / h;
    rest = steps % h;
    cyc = (double)full * cls_gz_CPS(d, p, c); /* Eq. 1: CPL x h = CPS per stage */
    if (rest > 0) {
        last.h = (double)rest; /* a lower trapezoid on the same blocks; Eq. 20 still holds */
        cyc += cls_gz_CPS(d, p, &last);
    }
    return cyc;
}

/* ------------------------------------------------------------------ Eqs. 24-30 */

void cls_gz_breakdown_of(const cls_gz_device *d, const cls_gz_profile *p,
                         const cls_gz_config *c, cls_gz_breakdown *out)
{
    double h = c->h, T = cls_gz_T(p, c);
    if (T == HUGE_VAL) {
        out->GlbSync = out->LoadSten = out->Commit = HUGE_VAL;
        out->MiscComp = out->IterComp = out->IterMem = out->CPL = HUGE_VAL;
        return;
    }
    double w = cls_gz_wave_factor(d, T); /* 1 unless d->waves */
    out->GlbSync = cls_gz_GlbSync(d, p, c) / h;      /* Eq. 25 */
    out->LoadSten = w * cls_gz_LoadSten(d, p, c) / h; /* Eq. 26 */
    out->Commit = w * cls_gz_Commit(d, p, c) / h;     /* Eq. 27 */
    out->MiscComp = c->sync == CLS_GZ_KNL_RESTART     /* Eq. 28 (not in CPT with fences, 4.5) */
                        ? w * cls_gz_MiscComp(d, p, c) * T / (h * d->M)
                        : 0;
    out->IterComp = w * cls_gz_IterComp(d, p, c) * T / (h * d->M); /* Eq. 29 */
    out->IterMem = w * cls_gz_IterMem(d, p, c) / h;                /* Eq. 30 */
    out->CPL = out->GlbSync + out->LoadSten + out->Commit + out->MiscComp + out->IterComp +
               out->IterMem; /* Eq. 24 */
}

int cls_gz_evaluate(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                    cls_gz_terms *out)
{
    out->feasible = cls_gz_feasible(p, c);
    out->delta = cls_gz_delta(d, p, c);
    if (!out->feasible) {
        out->T = out->passes = out->alpha = out->tau = HUGE_VAL;
        out->LoadSten = out->Commit = out->IterMem = out->MemAcc = HUGE_VAL;
        out->MiscComp = out->IterComp = out->CPT = HUGE_VAL;
        out->GlbSync = out->CPS = out->CPL = out->CostEffect = HUGE_VAL;
        cls_gz_breakdown_of(d, p, c, &out->star);
        return 0;
    }
    out->T = cls_gz_T(p, c);
    out->passes = cls_gz_passes(d, out->T);
    out->alpha = cls_gz_alpha(d, p->D);
    out->tau = cls_gz_tau(d, p);
    out->LoadSten = cls_gz_LoadSten(d, p, c);
    out->Commit = cls_gz_Commit(d, p, c);
    out->IterMem = cls_gz_IterMem(d, p, c);
    out->MemAcc = cls_gz_MemAcc(d, p, c);
    out->MiscComp = cls_gz_MiscComp(d, p, c);
    out->IterComp = cls_gz_IterComp(d, p, c);
    out->CPT = cls_gz_CPT(d, p, c);
    out->GlbSync = cls_gz_GlbSync(d, p, c);
    out->CPS = cls_gz_CPS(d, p, c);
    out->CPL = cls_gz_CPL(d, p, c);
    out->CostEffect = cls_gz_CostEffect(p, c);
    cls_gz_breakdown_of(d, p, c, &out->star);
    return 1;
}
