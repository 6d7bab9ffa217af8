/* ghost_zone.h: the ghost-zone (trapezoid) cost model of Meng & Skadron 2010 and its optimizer. */
#ifndef CLS_GHOST_ZONE_H
#define CLS_GHOST_ZONE_H

/* Source: Meng & Skadron 2010 ("A Performance Study for Iterative Stencil Loops on GPUs
 * with Ghost Zone Optimizations"), Sect. 4 (Eqs. 1-18), Sect. 5.4-5.5 (Eqs. 19-23) and
 * Sect. 6.1 (Eqs. 24-30).  Every function carries the document's symbol in its name
 * (cls_gz_<Symbol>) and its equation number in its comment; doc/ghost-zones.md lists them.
 *
 * Pure C: no OpenCL, no global state, no allocation.  Cycle counts are GPU core cycles.
 * Functions that depend on h accept a real h (the optimizer relaxes it, Sect. 5.4.2); a
 * configuration outside the constraint of Eq. 20 has no finite cost and CPL returns
 * HUGE_VAL there. */

#include <stddef.h>

#include "device_model.h"

#define CLS_GZ_MAX_DIMS 3
/* Stages per loop of a system of fields (the library's CLS__MAX_STAGES). */
#define CLS_GZ_MAX_STAGES 16

/* How stages are globally synchronised (Sect. 4.4, 4.5). */
typedef enum cls_gz_sync {
    CLS_GZ_KNL_RESTART = 0, /* end and relaunch the kernel after every stage (Eq. 17) */
    CLS_GZ_MEM_FENCE = 1    /* persistent kernel, barrier of atomics and fences (Eq. 18) */
} cls_gz_sync;
#define CLS_GZ_NSYNC 2

/* ------------------------------------------------------------------------------------------
 * Device: Table 1's symbols plus the document's artificial factors.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_gz_device {
    double ClockRate;          /* cycles per second            compute.clock_mhz x 10^6 */
    double M;                  /* multiprocessors (SMs)        compute.compute_units */
    double BlksPerSM;          /* concurrent blocks per SM     compute.blocks_per_cu */
    double MemBandwidth;       /* bytes per second             memory.bandwidth_peak_gbs x 10^9
                                  (or bandwidth_measured_gbs, CLS_GZ_BW_MEASURED) */
    double UncontendedLat;     /* cycles                       memory.latency_cycles */
    double CPI;                /* cycles per warp instruction  compute.cpi */
    double WarpSize;           /* threads per warp             compute.warp_width */
    double CoalesceDegree;     /* words per memory request     compute.coalesce_width */
    double GlbSync_KnlRestart; /* cycles, Eq. 17 (3350)        sync.kernel_restart_cycles */
    double BarrierPerBlk;      /* cycles per block, the 210.3 of Eq. 18
                                                               sync.barrier_cycles_per_group */
    double MaxThreadsPerBlock; /* Table 1 (512): bounds the block-size search
                                                               compute.max_work_group */
    double LocalBytes;         /* PBSM per block (16 KB, Sect. 3.2): bounds the search
                                                               local_memory.bytes */
    /* The document's artificial factors: not device parameters of the schema (they are fitted
     * to the GTX 280 experiments); cls_gz_device_from_model sets the document's values. */
    double sigma;  /* Sect. 4.2: alpha = sigma^(D-1), sigma = 5.0 */
    double beta;   /* Sect. 4.3: latency-hiding effectiveness, 0.5 */
    double mu;     /* Sect. 4.5: overlap of the fence barrier with computation, 0.5 */
    /* 0 (default): MiscComp and IterComp as printed in Eqs. 15-16, which carry no tau;
     * 1: scale both by tau = (1 - beta)(1 + BankConflictRate) as Eq. 11 defines.  The
     * document's reported heights and delta values are reproduced with 0 only (see
     * doc/ghost-zones.md). */
    int apply_tau;
    /* 0 (default, the document): passes (Eq. 6) stay real, as Eq. 31 relies on.  1 (an
     * extension for live GPUs, doc/ghost-zones.md "Occupancy and waves"): the trapezoids run in
     * ceil(passes) waves of ConcurBlks and a partial last wave costs a whole one, so the
     * throughput terms of Eq. 2 (MemAcc and CPT x T / M) are scaled by ceil(passes) / passes
     * when passes > 1; BlksPerSM is then the occupancy of the tile's work-group. */
    int waves;
    /* Bit i set: the value behind cls_gz_device_param(i) is a family default or assumption in
     * the source model (cls_model_is_assumed), not a document's number or a measurement. */
    unsigned assumed;
} cls_gz_device;

/* Flags of cls_gz_device_from_model. */
#define CLS_GZ_BW_MEASURED 1u /* MemBandwidth from memory.bandwidth_measured_gbs, not the peak */

/* Fills *dev from a device model (the document's sigma, beta, mu; apply_tau 0).  On failure
 * returns CLS_ERR_INVALID_MODEL (or CLS_ERR_INVALID_ARGUMENT for NULL) with a sentence naming
 * the missing or unusable parameter as the last error (model/error.h). */
cls_status cls_gz_device_from_model(const cls_model *m, unsigned flags, cls_gz_device *dev);
/* The i-th device-model parameter cls_gz_device_from_model reads: its "section.key" (NULL past
 * the end) and, through *symbol when not NULL, the document's symbol it feeds. */
const char *cls_gz_device_param(size_t i, const char **symbol);

/* ------------------------------------------------------------------------------------------
 * Per-stencil profile (Table 2) and configuration.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_gz_profile {
    const char *name;
    int D;                              /* stencil dimensionality */
    int HaloWidth[CLS_GZ_MAX_DIMS];     /* neighbours gathered along dimension i: the stencil's
                                           length minus one (Sect. 4.1; 2 for 3 points) */
    double NumStencilArrays;            /* arrays gathered into the PBSM (Sect. 4.2) */
    double NumElemPerOp;                /* extra device-memory elements per stencil op */
    double N;                           /* elements of the profiling input (Eq. 14) */
    double InstsPerSM_MC;               /* warp instructions per SM, one iteration, MiscComp */
    double InstsPerSM_IC;               /* the same for IterComp (Sect. 4.3) */
    double BankConflictRate;            /* bank conflicts per warp instruction (Sect. 4.3) */
    double x;                           /* bytes per element (Eq. 7) */
    /* Systems of coupled fields: an extension, not in Meng & Skadron 2010, whose profiles leave
     * all of it 0 (one field, one stage: the equations as printed).  A loop of a system is
     * NumStages stages, each a sweep of the whole tile in local memory after a barrier, stage
     * g's updates reading up to StageHaloWidth[g][i] / 2 points away along i.
     *   NumFields: the arrays a trapezoid commits (Eq. 9, once per field); their loads are
     *     counted in NumStencilArrays (Eq. 8) with the auxiliary arrays.  0 or 1: one.
     *   NumStages: 0 or 1: one stage, priced by InstsPerSM_IC and HaloWidth (Eq. 16 as
     *     printed).  >= 2: HaloWidth_i must be the sum of the stages' widths (the ghost zone
     *     grows by every stage's reach per loop, Eqs. 3, 20) and stage g's computation is
     *     priced by Eq. 16 with StageInstsPerSM_IC[g] over its own active tile
     *     prod (blk_len_i - StageHaloWidth[g][i]), summed over the stages. */
    double NumFields;
    int NumStages;
    int StageHaloWidth[CLS_GZ_MAX_STAGES][CLS_GZ_MAX_DIMS];
    double StageInstsPerSM_IC[CLS_GZ_MAX_STAGES];
} cls_gz_profile;

typedef struct cls_gz_config {
    double DataLength[CLS_GZ_MAX_DIMS]; /* input length in dimension i */
    int blk_len[CLS_GZ_MAX_DIMS];       /* block (tile) length in dimension i: the document's
                                           isotropic blk_len when all equal (Sect. 4.1); a
                                           blk_len^D below is the product of these */
    double h;                           /* trapezoid height (loops per stage) */
    cls_gz_sync sync;
} cls_gz_config;

/* Checks a device, profile and configuration for values the formulas cannot take (D outside
 * 1..3, a negative halo, a non-positive size, ...).  Returns CLS_SUCCESS or
 * CLS_ERR_INVALID_ARGUMENT with a sentence as the last error.  h is not checked (see
 * cls_gz_feasible). */
cls_status cls_gz_check(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);

/* ------------------------------------------------------------------------------------------
 * The formulas (model/ghost_zone.c), in the document's order.
 * ---------------------------------------------------------------------------------------- */
/* Eq. 3: trapezoids per stage, prod DataLength_i / prod (blk_len - HaloWidth_i x h). */
double cls_gz_T(const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 4: cycles to serve one request of p bytes, p / (MemBandwidth / ClockRate). */
double cls_gz_CyclesPerReq(const cls_gz_device *d, double p);
/* Eq. 5: BlksPerSM x M. */
double cls_gz_ConcurBlks(const cls_gz_device *d);
/* Eq. 6: T / ConcurBlks. */
double cls_gz_passes(const cls_gz_device *d, double T);
/* The factor the throughput terms of a stage of T trapezoids carry: ceil(passes) / passes with
 * d->waves and passes > 1, else 1 (Eq. 2 as printed). */
double cls_gz_wave_factor(const cls_gz_device *d, double T);
/* Sect. 4.2: alpha = sigma^(D-1). */
double cls_gz_alpha(const cls_gz_device *d, int D);
/* Eq. 7: cycles to move n elements of x bytes when a stage has T trapezoids. */
double cls_gz_MemCycles(const cls_gz_device *d, int D, double x, double T, double n);
/* Eq. 8: loading the tiles with their ghost zones. */
double cls_gz_LoadSten(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 9: storing the valid tiles (of every field, NumFields x Eq. 9, for a system). */
double cls_gz_Commit(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 10: the extra device-memory elements of every stencil op over h loops. */
double cls_gz_IterMem(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Sect. 4.1 (Fig. 3): MemAcc = LoadSten + IterMem + Commit. */
double cls_gz_MemAcc(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Sect. 4.3: tau = (1 - beta) x (1 + BankConflictRate). */
double cls_gz_tau(const cls_gz_device *d, const cls_gz_profile *p);
/* Eq. 11: StageInstsPerWarp x tau x ActiveWarpsPerBlock x CPI. */
double cls_gz_CompCycles(const cls_gz_device *d, double StageInstsPerWarp, double tau,
                         double ActiveWarpsPerBlock);
/* Eq. 12: StageInstsPerWarp_MC = IterInstsPerWarp_MC. */
double cls_gz_StageInstsPerWarp_MC(double IterInstsPerWarp_MC);
/* Eq. 13: StageInstsPerWarp_IC = h x IterInstsPerWarp_IC. */
double cls_gz_StageInstsPerWarp_IC(double h, double IterInstsPerWarp_IC);
/* Eq. 14: InstsPerSM / (N / (WarpSize x M)). */
double cls_gz_IterInstsPerWarp(const cls_gz_device *d, double InstsPerSM, double N);
/* Sect. 4.3 (after Eq. 14): active threads / WarpSize, as a real number: blk_len^D for
 * MiscComp, prod (blk_len - HaloWidth_j) for IterComp. */
double cls_gz_ActiveWarpsPerBlock_MC(const cls_gz_device *d, const cls_gz_profile *p,
                                     const cls_gz_config *c);
double cls_gz_ActiveWarpsPerBlock_IC(const cls_gz_device *d, const cls_gz_profile *p,
                                     const cls_gz_config *c);
/* Eq. 15: InstsPerSM_MC x M / N x blk_len^D x CPI (cycles per trapezoid). */
double cls_gz_MiscComp(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 16: h x InstsPerSM_IC x M / N x prod (blk_len - HaloWidth_j) x CPI; for a system of
 * NumStages >= 2 stages the sum over g of Eq. 16 with StageInstsPerSM_IC[g] and
 * StageHaloWidth[g] (cls_gz_IterComp_stage). */
double cls_gz_IterComp(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 16 for stage g of a system: h x StageInstsPerSM_IC[g] x M / N x
 * prod (blk_len - StageHaloWidth[g][j]) x CPI (through Eqs. 11, 13, 14 with
 * cls_gz_ActiveWarpsPerBlock_IC_stage); for a profile of one stage, stage 0 is Eq. 16. */
double cls_gz_IterComp_stage(const cls_gz_device *d, const cls_gz_profile *p,
                             const cls_gz_config *c, int g);
double cls_gz_ActiveWarpsPerBlock_IC_stage(const cls_gz_device *d, const cls_gz_profile *p,
                                           const cls_gz_config *c, int g);
/* The stages of one loop and the fields a trapezoid commits: at least 1. */
int cls_gz_stages(const cls_gz_profile *p);
double cls_gz_fields(const cls_gz_profile *p);
/* Sect. 4.1 and 4.5: CPT = MiscComp + IterComp with kernel restart, IterComp alone with
 * memory fences. */
double cls_gz_CPT(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 17: the restart cost (3350 cycles on the GTX 280). */
double cls_gz_GlbSync_KnlRestart(const cls_gz_device *d);
/* Eq. 18: mu x 210.3 x T. */
double cls_gz_GlbSync_MemFence(const cls_gz_device *d, double T);
/* Eq. 17 or 18 by c->sync. */
double cls_gz_GlbSync(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 2: GlbSync + MemAcc + CPT x T / M. */
double cls_gz_CPS(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 1: CPS / h (HUGE_VAL outside Eq. 20 or for h <= 0). */
double cls_gz_CPL(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 19: the valid tile over the tile of one loop. */
double cls_gz_CostEffect(const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 20: 1 when blk_len_i - HaloWidth_i x h > 0 in every dimension (and h > 0). */
int cls_gz_feasible(const cls_gz_profile *p, const cls_gz_config *c);
/* The supremum of h under Eq. 20, min over i with HaloWidth_i > 0 of blk_len_i / HaloWidth_i
 * (HUGE_VAL when no dimension has a halo), and the largest integer h it admits (INT_MAX when
 * unbounded, 0 when even h = 1 breaks it). */
double cls_gz_h_sup(const cls_gz_profile *p, const cls_gz_config *c);
int cls_gz_h_max(const cls_gz_profile *p, const cls_gz_config *c);
/* Eq. 21: GlbSync_MemFence - GlbSync_KnlRestart - MiscComp x T / M, the extra cycles per stage
 * of memory fences (c->sync is ignored). */
double cls_gz_Overhead_MemFence(const cls_gz_device *d, const cls_gz_profile *p,
                                const cls_gz_config *c);
/* Eq. 22-23: delta with Overhead_MemFence = T x delta - GlbSync_KnlRestart; independent of h
 * and of the input size.  Positive: restarting kernels is predicted faster. */
double cls_gz_delta(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c);

/* Eqs. 24-30: the average cycles per loop of each component; they sum to CPL (Eq. 24). */
typedef struct cls_gz_breakdown {
    double GlbSync;  /* Eq. 25: GlbSync / h */
    double LoadSten; /* Eq. 26: LoadSten / h */
    double Commit;   /* Eq. 27: Commit / h */
    double MiscComp; /* Eq. 28: MiscComp x T / (h x M); 0 with memory fences (Sect. 4.5) */
    double IterComp; /* Eq. 29: IterComp x T / (h x M) */
    double IterMem;  /* Eq. 30: IterMem / h */
    double CPL;      /* Eq. 24: the sum */
} cls_gz_breakdown;

/* Everything the model says about one configuration. */
typedef struct cls_gz_terms {
    int feasible;       /* Eq. 20 holds; when 0 every other field is HUGE_VAL */
    double T, passes, alpha, tau;
    double LoadSten, Commit, IterMem, MemAcc; /* cycles per stage */
    double MiscComp, IterComp, CPT;           /* cycles per trapezoid */
    double GlbSync, CPS, CPL;
    double CostEffect;
    double delta;                             /* Eq. 23 (independent of c->sync) */
    cls_gz_breakdown star;                    /* Eqs. 24-30 */
} cls_gz_terms;

/* Predicted cycles of a whole run of `steps` loops (steps >= 1) with c's blocks, h and sync
 * mode: floor(steps / h) stages of height h (CPS, Eq. 2) plus, when h does not divide steps, one
 * last stage of height steps mod h.  HUGE_VAL when c breaks Eq. 20 or h is not a positive
 * integer.  An extension for the runtime's report: the document predicts CPL only. */
double cls_gz_run_cycles(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                         long steps);

/* Fills *out; returns 1 when feasible, 0 otherwise. */
int cls_gz_evaluate(const cls_gz_device *d, const cls_gz_profile *p, const cls_gz_config *c,
                    cls_gz_terms *out);
void cls_gz_breakdown_of(const cls_gz_device *d, const cls_gz_profile *p,
                         const cls_gz_config *c, cls_gz_breakdown *out);

/* ------------------------------------------------------------------------------------------
 * The optimizer (model/ghost_zone_opt.c, Sect. 5.4.2).
 * ---------------------------------------------------------------------------------------- */
/* The best h for one block and one sync mode. */
typedef struct cls_gz_opt {
    double h_cont;   /* minimiser of the continuous CPL(h) on [1, min(h_sup, h_cap)) */
    double CPL_cont; /* CPL(h_cont) */
    int h_floor;     /* h_cont rounded down (at least 1): the rounding that reproduces the
                        heights the document reports as predicted (Sect. 5.4.2) */
    int h;           /* the better of the integer neighbours of h_cont: the model's answer */
    double CPL;      /* CPL(h) */
    int h_max;       /* the largest integer h allowed (Eq. 20 and h_cap) */
    int evaluations; /* CPL evaluations the continuous search made */
} cls_gz_opt;

/* Minimises CPL over h for c's blocks and sync mode (c->h is ignored) by golden-section search
 * on the continuous relaxation (CPL is convex in h, Sect. 6.1), then takes the best integer
 * neighbour.  h_cap > 0 bounds h further (e.g. by the number of steps).  Returns
 * CLS_ERR_PLAN_INFEASIBLE when no h >= 1 satisfies Eq. 20, CLS_ERR_INVALID_ARGUMENT for bad
 * input or an unbounded h (no halo and no h_cap), with a sentence as the last error. */
cls_status cls_gz_optimize_h(const cls_gz_device *d, const cls_gz_profile *p,
                             const cls_gz_config *c, int h_cap, cls_gz_opt *out);
/* Validation: the minimum of CPL over every integer h in [1, h_max] (the smallest such h on a
 * tie).  Same errors. */
cls_status cls_gz_brute_force_h(const cls_gz_device *d, const cls_gz_profile *p,
                                const cls_gz_config *c, int h_cap, int *h, double *cpl);

/* How the search picks the sync mode of a block. */
typedef enum cls_gz_select {
    CLS_GZ_SELECT_DELTA = 0, /* Sect. 5.5: the sign of Eq. 23's delta (>= 0: kernel restart) */
    CLS_GZ_SELECT_CPL = 1    /* the mode whose optimal CPL is lower */
} cls_gz_select;

typedef struct cls_gz_block {
    int len[CLS_GZ_MAX_DIMS];
} cls_gz_block;

typedef struct cls_gz_search_opts {
    const cls_gz_block *blocks; /* candidate blocks (the first D lengths of each are used) */
    size_t n_blocks;
    unsigned modes;             /* allowed modes, bit (1u << cls_gz_sync); 0: both */
    int h_cap;                  /* as in cls_gz_optimize_h; 0: Eq. 20 alone */
    double local_bytes_per_elem; /* PBSM bytes per tile element the schedule uses; 0: not
                                    checked against LocalBytes */
    cls_gz_select select;
} cls_gz_search_opts;

typedef struct cls_gz_choice {
    cls_gz_block block;
    cls_gz_sync sync;
    int h;
    double CPL;
    double delta;               /* Eq. 23 for this block */
    int feasible[CLS_GZ_NSYNC]; /* the mode was allowed and some h fits */
    cls_gz_opt opt[CLS_GZ_NSYNC]; /* the best h of each mode */
} cls_gz_choice;

/* For every candidate block that fits (blk_len^D <= MaxThreadsPerBlock, the local memory, some
 * h >= 1 under Eq. 20): the optimal h of each allowed mode and the mode `select` picks; then
 * the block of the lowest CPL.  per_block (may be NULL) receives opts->n_blocks entries
 * (feasible[] all 0 for a block that does not fit).  CLS_ERR_PLAN_INFEASIBLE when no candidate
 * fits (the last error says which limit each hit first). */
cls_status cls_gz_search(const cls_gz_device *d, const cls_gz_profile *p,
                         const double DataLength[CLS_GZ_MAX_DIMS], const cls_gz_search_opts *opts,
                         cls_gz_choice *best, cls_gz_choice *per_block);
/* Validation: the lowest CPL over every fitting block, allowed mode and integer h. */
cls_status cls_gz_search_exhaustive(const cls_gz_device *d, const cls_gz_profile *p,
                                    const double DataLength[CLS_GZ_MAX_DIMS],
                                    const cls_gz_search_opts *opts, cls_gz_choice *best);

/* ------------------------------------------------------------------------------------------
 * The document's four applications (model/ghost_zone_apps.c, Table 2 and Fig. 7).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_gz_app {
    const char *name;      /* the built-in stencil's name: "pathfinder", "hotspot", ... */
    cls_gz_profile profile; /* Table 2; profile.name is the document's name ("PathFinder") */
    cls_gz_config fig7;    /* Sect. 5.4.2's configuration for Fig. 7 (h 1, kernel restart) */
} cls_gz_app;

/* By built-in or document name, case-insensitive ("hotspot", "Poisson", "poisson2d"); NULL
 * if none. */
const cls_gz_app *cls_gz_app_find(const char *name);
/* The i-th application, NULL past the end. */
const cls_gz_app *cls_gz_app_at(size_t i);

#endif /* CLS_GHOST_ZONE_H */
