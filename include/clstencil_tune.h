/* clstencil_tune.h: public API of the ghost-zone model's profiles and predictions and of the
 * tuner.  Predictions take a device model (clstencil_model.h). */
#ifndef CLSTENCIL_TUNE_H
#define CLSTENCIL_TUNE_H

#include <stddef.h>

#include "clstencil.h"
#include "clstencil_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cls_model cls_model; /* clstencil_model.h */

/* Global synchronisation between the trapezoid schedule's stages (Meng & Skadron 2010,
 * Sect. 4.5); as the parameter trapezoid.sync names them. */
typedef enum cls_sync {
    CLS_SYNC_AUTO = 0,    /* the planner decides */
    CLS_SYNC_RESTART = 1, /* one kernel launch per stage */
    CLS_SYNC_BARRIER = 2  /* one persistent launch, an in-kernel barrier of atomics and fences;
                             only as many work-groups as can be resident at once */
} cls_sync;

CLS_API const char *cls_sync_name(cls_sync s);
CLS_API cls_status cls_sync_from_name(const char *name, cls_sync *s);

/* ------------------------------------------------------------------------------------------
 * Per-stencil profiles of the ghost-zone model (Meng & Skadron 2010, Table 2, Sect. 4.3).
 * The instruction counts InstsPerSM_MC and InstsPerSM_IC come from the document (its four
 * applications on the GTX 280) or are measured on a live device by timing generated trapezoid
 * kernel variants (doc/ghost-zones.md, "Profiles"); measured profiles are cached on disk.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_ghost_profile {
    int dims;                   /* D */
    int halo_width[3];          /* HaloWidth_i: the stencil's reach left plus right along i */
    double num_stencil_arrays;  /* NumStencilArrays: the state plus auxiliary arrays read at
                                   every step (loaded once per stage) */
    double num_elem_per_op;     /* NumElemPerOp: per-step auxiliary arrays (a new slice every
                                   step) */
    double n;                   /* N: points of the profiling input (Eq. 14) */
    double insts_per_sm_mc;     /* InstsPerSM_MC (Sect. 4.3), restart kernel */
    double insts_per_sm_ic;     /* InstsPerSM_IC, restart kernel */
    double insts_per_sm_mc_persistent; /* the same measured with the persistent kernel's
                                          resident groups (0: not measured; restart values) */
    double insts_per_sm_ic_persistent;
    double bank_conflict_rate;  /* BankConflictRate (enters only through tau) */
    double elem_bytes;          /* x */
    double alpha;               /* measured tile-load time over the bandwidth time, replacing
                                   the document's sigma^(D-1) (0: the document's alpha) */
    double naive_seconds_per_point; /* the naive schedule's measured time per point and step
                                       on a grid larger than the caches (0: unknown) */
    double fit_error;           /* relative RMS residual of the t(k) = t0 + k t1 fits */
    double spread;              /* largest (p90 - p10) / median of the timed launches */
    double model_error;         /* (predicted - measured) / measured for the whole kernel at
                                   h = 1 on the memory input (0: not checked) */
    size_t tile[3];             /* the profiled tile and points per work-item */
    size_t points_per_item;
    double seconds;             /* time the measurement took (0 for a document profile) */
    char source[320];           /* where the numbers come from */
    /* Systems of fields (doc/ghost-zones.md, "The model for systems"); a single field has one
     * field and one stage.  halo_width above is then the sum of the stages' widths. */
    double num_fields;          /* fields a trapezoid loads and commits (Eq. 9 once each) */
    int num_stages;             /* stages per step */
    int stage_halo_width[16][3]; /* stage g's reach left plus right along i */
    double stage_insts_per_sm_ic[16]; /* InstsPerSM_IC of stage g (num_stages >= 2: measured
                                         stage by stage; the model sums Eq. 16 over them) */
} cls_ghost_profile;

/* The document's Table 2 profile of one of its applications by built-in name ("hotspot",
 * "pathfinder", "poisson2d", "cell3d"); CLS_ERR_UNKNOWN_STENCIL for others. */
CLS_API cls_status cls_ghost_profile_document(const char *name, cls_ghost_profile *p);
/* The measured profile of a stencil on the context's device: from this context's memory
 * (*from_cache = 2) or the disk cache (1) when a valid entry exists, else measured (a second or
 * less on a GPU, several seconds on a CPU) and stored (0).  from_cache may be NULL. */
CLS_API cls_status cls_ghost_profile_get(cls_context *ctx, const cls_stencil *st,
                                         cls_ghost_profile *p, int *from_cache);
/* The cache file that holds (or would hold) that profile; CLS_ERR_CACHE when caching is off. */
CLS_API cls_status cls_ghost_profile_path(cls_context *ctx, const cls_stencil *st, char *path,
                                          size_t len);

/* ------------------------------------------------------------------------------------------
 * Predictions of the ghost-zone model for one device model, profile and configuration.
 * ---------------------------------------------------------------------------------------- */
/* How the sync modes are modelled. */
#define CLS_GHOST_DOCUMENT 0u /* the document's equations as printed (Eqs. 17-18, 21-23) */
#define CLS_GHOST_EXECUTOR 1u /* this library's executors: the persistent kernel keeps one
                                 work-group per compute unit, each taking several tiles per
                                 stage, so with CLS_SYNC_BARRIER ConcurBlks (Eq. 5) is the
                                 resident groups, Eq. 18 counts them instead of T, MiscComp
                                 stays in CPT, and the persistent profile values apply */
#define CLS_GHOST_RUN 2u      /* optimize, brute force: the integer h of least predicted time of a
                                 run of h_cap steps (whole stages; the last one shorter) instead of
                                 the least CPL; what the tuner uses */

#define CLS_GHOST_WAVES 4u    /* cls_ghost_predict_run: the executor's occupancy (BlksPerSM from
                                 the tile's work-group and local memory by the family's rule)
                                 and whole waves of ConcurBlks (doc/ghost-zones.md, "Occupancy
                                 and waves"); what the tuner uses */

typedef struct cls_ghost_eval {
    int feasible;          /* Eq. 20 holds */
    double T, passes;      /* Eqs. 3, 6 */
    double CPS, CPL;       /* Eqs. 2, 1 (cycles) */
    double delta;          /* Eq. 23 (the document's executor) */
    /* Eqs. 25-30: cycles per loop of each component; they sum to CPL (Eq. 24). */
    double GlbSync, LoadSten, Commit, MiscComp, IterComp, IterMem;
    double clock_hz;       /* ClockRate */
    double seconds_per_step; /* CPL / ClockRate */
} cls_ghost_eval;

/* h may be fractional (the relaxation of Sect. 5.4.2).  sync is CLS_SYNC_RESTART or
 * CLS_SYNC_BARRIER; tile[i] for i < dims are the block lengths (ghost zone included). */
CLS_API cls_status cls_ghost_evaluate(const cls_model *m, const cls_ghost_profile *p,
                                      cls_dims dims, const size_t tile[3], double h,
                                      cls_sync sync, unsigned flags, cls_ghost_eval *out);

typedef struct cls_ghost_opt {
    double h_cont;   /* the continuous optimum on [1, h_sup) (Sect. 5.4.2) */
    double cpl_cont;
    int h_floor;     /* h_cont rounded down: the document's reported heights */
    int h;           /* the better integer neighbour: the model's answer */
    double cpl;      /* CPL(h), cycles */
    int h_max;       /* the largest integer h of Eq. 20 (and h_cap) */
} cls_ghost_opt;

/* The h that minimises CPL for one tile and sync mode (Sect. 5.4.2: the continuous optimum of
 * the convex CPL, then the better integer neighbour); h_cap > 0 bounds it (the steps).  With
 * CLS_GHOST_RUN (h_cap > 0) h and cpl are instead the integer h of least predicted run time and
 * its CPL; h_cont stays the CPL's. */
CLS_API cls_status cls_ghost_optimize(const cls_model *m, const cls_ghost_profile *p,
                                      cls_dims dims, const size_t tile[3], size_t h_cap,
                                      cls_sync sync, unsigned flags, cls_ghost_opt *out);
/* Predicted device seconds of a run of `steps` steps of one trapezoid configuration (tile with
 * its ghost zone, points per work-item, h, sync) as the tuner predicts it, from a device model
 * and a profile alone: replays a measured table offline (tests/test_tune_replay.c).  flags:
 * CLS_GHOST_WAVES or 0 (the model before occupancy and waves). */
CLS_API cls_status cls_ghost_predict_run(const cls_model *m, const cls_stencil *st,
                                         const cls_ghost_profile *p, cls_dims dims, size_t steps,
                                         const size_t tile[3], size_t points_per_item, size_t h,
                                         cls_sync sync, unsigned flags, double *seconds);
/* The same minimum by evaluating every integer h (validation). */
CLS_API cls_status cls_ghost_brute_force(const cls_model *m, const cls_ghost_profile *p,
                                         cls_dims dims, const size_t tile[3], size_t h_cap,
                                         cls_sync sync, unsigned flags, int *h, double *cpl);

/* ------------------------------------------------------------------------------------------
 * The tuner: what the planner picks for a stencil, grid and step count on a live device, and
 * the exhaustive search that measures every feasible trapezoid configuration for validation.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_tune_entry {
    cls_schedule schedule;     /* the schedule (the pick: any; entries: naive or trapezoid) */
    size_t tile[3];            /* trapezoid: the tile, ghost zone included */
    size_t local_size[3];      /* the work-group */
    size_t points_per_item;
    size_t h;                  /* trapezoid: steps per stage */
    cls_sync sync;
    double predicted_seconds;  /* the model's device time of the kernels of the whole run */
    double measured_seconds;   /* exhaustive: device time of the run, the minimum (or median,
                                  cls_tune_options.median) of the timed runs (0: not measured) */
    int status;                /* exhaustive: CLS_SUCCESS, or why the measurement failed */
    double confirmed_seconds;  /* exhaustive: the least device time over the confirmation
                                  rounds, for the few entries re-measured there (0: not) */
} cls_tune_entry;

typedef struct cls_tune_result {
    cls_tune_entry pick;        /* what cls_plan_create picks with CLS_SCHEDULE_AUTO */
    cls_tune_entry trapezoid;   /* what it picks with CLS_SCHEDULE_TRAPEZOID and nothing set */
    cls_tune_entry naive;       /* the naive plan */
    cls_tune_entry *entries;    /* the configurations evaluated: every candidate tile and sync
                                   mode at its optimal h (cls_tune: trapezoids only), or every
                                   configuration AUTO chooses from, measured
                                   (cls_tune_exhaustive): the naive plan, AUTO's pick when it is
                                   another schedule (stream25d), then every (tile, sync, h) */
    size_t n_entries;
    /* exhaustive only: the index of the measured fastest trapezoid entry, and the fastest
     * trapezoid time over the picked trapezoid's measured time (1: the pick is the best). */
    size_t best;
    double ratio;
    /* exhaustive with confirmation rounds: the fastest measured configurations and the pick
     * re-timed in turn (interleaved) `confirm` times each; confirmed_best indexes the fastest
     * trapezoid of them and confirmed_ratio is its least time over the trapezoid pick's (0: no
     * confirmation). */
    size_t confirmed_best;
    double confirmed_ratio;
    /* exhaustive, over every schedule AUTO chooses from: the index of the measured fastest
     * entry, and its time over AUTO's pick's (pick.measured_seconds); with confirmation, the
     * same over the confirmed times (AUTO's pick and the fastest entries are among the
     * re-timed ones; pick.confirmed_seconds is its least time there). */
    size_t best_overall;
    double overall_ratio;
    size_t confirmed_best_overall;
    double confirmed_overall_ratio;
    cls_ghost_profile profile;
    int profile_from_cache;
    char model[64];             /* the device model's name */
    char model_why[512];        /* why that model */
    char why[512];              /* how the pick was made */
} cls_tune_result;

typedef struct cls_tune_options {
    size_t size;      /* sizeof: set by cls_tune_options_init (doc/guide.md, "Options") */
    size_t reps;      /* exhaustive: timed runs per configuration (default 3, at most 32) */
    int median;       /* exhaustive: the median of the runs instead of the minimum (the
                         default: timing noise only ever adds time) */
    size_t warmup;    /* exhaustive: untimed runs before the timed ones (default 1) */
    size_t confirm;   /* exhaustive: confirmation rounds (default 5, 0: none): the
                         CLS_TUNE_CONFIRM_TOP fastest measured configurations (overall and among
                         the trapezoids), the model's trapezoid and AUTO's pick run once each per
                         round, in turn, and keep their least time */
    size_t max_h;     /* exhaustive: the largest h tried (default: the steps) */
    int all_h;        /* exhaustive: every h up to max_h; default every h up to 12, then steps
                         of about 25 % */
    cls_sync sync;    /* the sync modes searched (the model's trapezoid pick included):
                         CLS_SYNC_AUTO (default) both, else only this one */
} cls_tune_options;

#define CLS_TUNE_CONFIRM_TOP 3

CLS_API void cls_tune_options_init(cls_tune_options *opt);
/* The model's picks (measures or loads the stencil's profile); opt may be NULL (only its sync
 * applies). */
CLS_API cls_status cls_tune(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                            size_t steps, const cls_tune_options *opt, cls_tune_result **out);
/* cls_tune plus a measurement of the naive plan, of AUTO's pick and of every trapezoid (tile,
 * sync, h): the data are uploaded once (deterministic fields) and each configuration runs
 * `steps` steps.  opt may be NULL. */
CLS_API cls_status cls_tune_exhaustive(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                       size_t steps, const cls_tune_options *opt,
                                       cls_tune_result **out);
/* Accepts NULL. */
CLS_API void cls_tune_result_release(cls_tune_result *r);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_TUNE_H */
