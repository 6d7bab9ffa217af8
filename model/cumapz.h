/* cumapz.h: the CuMAPz memory-access analysis: six factors and the MPE of a kernel mapping. */
#ifndef CLS_CUMAPZ_H
#define CLS_CUMAPZ_H

/* Source: 004_3bb0fc5541bb7adb.txt (Kim and Shrivastava, "Memory Performance Estimation of
 * CUDA Programs"), Sect. 5 (Eqs. 1-8), Fig. 4 and Sect. 7.  The analysis emulates every warp of
 * every work-group of an access description (model/access.h) in program order, and asks the
 * device model's family rules (clstencil_model.h) how each warp's addresses become memory
 * transactions (per half-warp on GT200), how many passes its local accesses need (bank
 * conflicts), which channel an address maps to, and how many work-groups are resident.
 * doc/memory-analysis.md states every definition and the readings of the equations.
 *
 * Pure C, deterministic, no OpenCL; it uses only the public device-model calls, so that the
 * command line can link it beside the library.  Work is bounded: a description needing more
 * than max_work work-item references is refused (Sect. 7: a reduced input ranks the same). */

#include <stddef.h>
#include <stdint.h>

#include "access.h"
#include "clstencil_model.h"

/* Default bound on the work-item references one analysis evaluates (about 1 s of work). */
#define CLS_CUMAPZ_DEFAULT_WORK UINT64_C(60000000)

typedef struct cls_cumapz_options {
    uint64_t max_work; /* 0: CLS_CUMAPZ_DEFAULT_WORK */
} cls_cumapz_options;

/* The terms of Eq. 8 a variant can lose on (the bottleneck is the smallest of them). */
typedef enum cls_cumapz_term {
    CLS_CUMAPZ_NONE = 0,
    CLS_CUMAPZ_DATA_REUSE,  /* data_reuse < 1: more bytes fetched into buffers than read there */
    CLS_CUMAPZ_OCCUPANCY,   /* MIN(Occupancy, 50) / 50 of lat_hiding */
    CLS_CUMAPZ_BW_UTIL,     /* bw_util: uncoalesced or misaligned global accesses */
    CLS_CUMAPZ_CH_SKEW,     /* 1 / ch_skew: partition camping */
    CLS_CUMAPZ_SHM_EFF,     /* shm_eff^(1/2): local-memory bank conflicts */
    CLS_CUMAPZ_BRANCH_EFF   /* branch_eff: divergent warps */
} cls_cumapz_term;

typedef struct cls_cumapz_result {
    /* The six factors and Eq. 8. */
    double data_reuse; /* Eq. 1: bytes_shmem / bytes_buffered */
    double lat_hiding; /* Eq. 2: MIN(Occupancy, 50) / 50 * n_shm_load^(1/2) */
    double bw_util;    /* Eq. 3: bytes_access / bytes_tr */
    double ch_skew;    /* Eq. 5: max_n_block_per_ch / MAX(1, min_n_block_per_ch) */
    double shm_eff;    /* Eq. 6: conflict-free passes / n_bk_conflict */
    double branch_eff; /* Eq. 7: reference-warps / n_path */
    double mpe;        /* Eq. 8 */

    /* Eq. 1 */
    uint64_t bytes_shmem;    /* bytes global reads got from local buffers */
    uint64_t bytes_buffered; /* bytes the fetches moved from global memory (transactions) */
    uint64_t shm_reads;      /* elements global reads got from buffers (004 Table I's count) */
    uint64_t l1_reads;       /* global reads an L1 served (families whose rules cache global
                                reads; their bytes are in bytes_shmem, their misses' distinct
                                bytes in bytes_buffered) */
    uint64_t l1_hits;        /* of them, reads of an element the work-group had read before */
    /* Eq. 2 */
    double occupancy_pct;    /* from the family's occupancy rule */
    unsigned max_blks;       /* resident work-groups per compute unit */
    cls_model_limit occupancy_limit;
    double n_shm_load;       /* fetch instructions a warp issues per buffer fill */
    /* Eq. 3 */
    uint64_t bytes_access;   /* distinct bytes the work-items asked of global memory (per
                                group of coalesce_width work-items) */
    uint64_t bytes_tr;       /* bytes the transactions moved */
    uint64_t transactions;
    /* Eqs. 4-5: Eq. 5 per access instruction (a reference statement in one loop iteration)
     * over the first n_blk_to_check work-groups; ch_skew is their mean weighted by the bytes
     * each moved there.  The max, min and channels are those of the worst instruction. */
    uint64_t n_blk_to_check; /* Eq. 4 */
    unsigned max_n_block_per_ch, min_n_block_per_ch, channels_used, n_channels;
    double ch_worst_skew;    /* Eq. 5 of the worst instruction */
    char ch_worst_path[CLS_ACC_PATH_MAX]; /* its statement */
    size_t ch_instructions;  /* instructions judged */
    int ch_skew_skipped;     /* fewer work-groups than n_blk_to_check: ch_skew is 1 */
    /* Eq. 6 */
    uint64_t n_bk_conflict;  /* local-memory passes (each half-warp or warp access: its degree) */
    uint64_t shm_passes_ideal; /* the passes without conflicts (one per group that accessed) */
    unsigned worst_degree;
    /* Eq. 7 */
    uint64_t n_path;         /* 2 per diverged (reference, warp), 1 per other */
    uint64_t n_ref_warp;     /* (reference, warp) pairs executed */
    uint64_t n_warp;         /* warps of the grid */
    uint64_t n_diverged;
    /* Per global array (indices of the description's arrays): element reads by work-items and
     * how many of them a buffer served. */
    uint64_t array_reads[CLS_ACC_MAX_ARRAYS];
    uint64_t array_from_local[CLS_ACC_MAX_ARRAYS];
    /* Cost of the analysis. */
    uint64_t evaluations;    /* work-item references evaluated */
    double seconds;          /* processor time */
} cls_cumapz_result;

/* Analyses one variant on a device model.  CLS_ERR_INVALID_SPEC for a reference outside its
 * array or buffer (the message names the statement, the block and the work-item) or a
 * description beyond max_work; CLS_ERR_PLAN_INFEASIBLE when the work-group cannot run on the
 * device (larger than its work-group limit, buffers beyond its local memory); other statuses
 * from the model.  err gets one sentence (may be NULL when errlen is 0). */
cls_status cls_cumapz_analyze(const cls_model *m, const cls_access *a,
                              const cls_cumapz_options *opt, cls_cumapz_result *r, char *err,
                              size_t errlen);

/* The term of Eq. 8 that costs the variant most (CLS_CUMAPZ_NONE when every term is 1 or
 * better); *efficiency (may be NULL) gets its value. */
cls_cumapz_term cls_cumapz_bottleneck(const cls_cumapz_result *r, double *efficiency);
/* "data_reuse", "occupancy", "bw_util", "ch_skew", "shm_eff", "branch_eff", "none". */
const char *cls_cumapz_term_name(cls_cumapz_term t);

/* Pearson correlation of x and y (n >= 2); NAN when a series is constant. */
double cls_cumapz_pearson(const double *x, const double *y, size_t n);

/* ------------------------------------------------------------------------------------------
 * Built-in descriptions (model/cumapz_cases.c): the document's worked examples and the stencil
 * mappings of 001_405c9e1d5e6c3c1a.txt Sect. 4, each a kernel with its variants.
 * ---------------------------------------------------------------------------------------- */
size_t cls_cumapz_case_count(void);
const char *cls_cumapz_case_name(size_t i);    /* NULL past the end */
const char *cls_cumapz_case_summary(size_t i); /* NULL past the end */
/* The JSON text of a case (free with free()); CLS_ERR_INVALID_ARGUMENT for an unknown name
 * (err lists the names), CLS_ERR_OUT_OF_HOST_MEMORY. */
cls_status cls_cumapz_case_json(const char *name, char **json, char *err, size_t errlen);

#endif /* CLS_CUMAPZ_H */
