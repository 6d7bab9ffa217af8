/* clstencil_model.h: public API of the device models: loading, matching, printing, the
 * architecture rules, probing a live device, and the memory-access analysis (CuMAPz) on them. */
#ifndef CLSTENCIL_MODEL_H
#define CLSTENCIL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "clstencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * Device models: parameters of one device (a JSON file in the schema of doc/devices.md, the
 * same schema `clstencil probe` writes) plus the architecture rules of its family ("gt200",
 * "fermi", "cpu", "gpu").  The model never calls OpenCL: it answers "what would this device
 * do" for any device, present or not.
 *
 * Every loading call validates every field; on failure cls_last_error() names the file and the
 * JSON path of the bad field ("gtx280.json: $.memory.channels: must be a positive integer,
 * got -3").  Malformed JSON gives CLS_ERR_INVALID_JSON, a well-formed file that breaks the
 * schema CLS_ERR_INVALID_MODEL, a name that no file carries CLS_ERR_UNKNOWN_MODEL.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_model cls_model;

/* Parses a model from JSON text. */
CLS_API cls_status cls_model_from_json(const char *json, cls_model **m);
/* Reads and parses a model file. */
CLS_API cls_status cls_model_from_file(const char *path, cls_model **m);
/* A model by its "name" (or file stem), searched in $CLSTENCIL_MODEL_DIR (a ':'-separated
 * list), then the source tree's devices/, then the installed $(pkgdatadir)/devices.  Shipped:
 * "gtx280", "c1060", "c2050", "gtx460", "pocl-cpu", "h100" (measured by clstencil probe). */
CLS_API cls_status cls_model_from_name(const char *name, cls_model **m);
/* A file when the argument contains '/' or ends in ".json", else a name. */
CLS_API cls_status cls_model_load(const char *name_or_file, cls_model **m);
/* A family's defaults (doc/devices.md, "Family defaults"); when info is not NULL its clock,
 * compute units, work-group and memory sizes replace them and the model records the device's
 * identity. */
CLS_API cls_status cls_model_from_defaults(const char *family, const cls_device_info *info,
                                           cls_model **m);
CLS_API cls_status cls_model_copy(const cls_model *m, cls_model **copy);
/* Accepts NULL. */
CLS_API void cls_model_release(cls_model *m);

/* JSON text of the model, every field written (free with cls_free); loading it gives back the
 * same model. */
CLS_API cls_status cls_model_to_json(const cls_model *m, char **json);
/* Writes the JSON to a file through a temporary file and rename(). */
CLS_API cls_status cls_model_save(const cls_model *m, const char *path);

/* Picks the model of a live device, in this order:
 *   1. explicit_name_or_file when not NULL or "" (a failure to load it is returned);
 *   2. a probe result cached for this exact device and driver version
 *      (cls_model_cache_path; skipped when CLSTENCIL_CACHE=off);
 *   3. a shipped or installed file whose "match" patterns match the device name (the longest
 *      pattern wins; the first search directory with any match wins); values the file marks
 *      assumed are replaced by the device's own clock, compute units and sizes;
 *   4. the family defaults ("cpu" for CPU devices, "gpu" otherwise) filled from info.
 * Writes one sentence saying which and why into `why` (may be NULL when whylen is 0).  info
 * may be NULL only with an explicit model. */
CLS_API cls_status cls_model_match(const cls_device_info *info,
                                   const char *explicit_name_or_file, cls_model **m, char *why,
                                   size_t whylen);
/* Where a probe result for this device and driver is cached:
 * <cache>/models/<device>--<driver>-<hash>.json, <cache> being $CLSTENCIL_CACHE_DIR, else
 * $XDG_CACHE_HOME/libclstencil, else $HOME/.cache/libclstencil. */
CLS_API cls_status cls_model_cache_path(const cls_device_info *info, char *path, size_t len);
/* Every model found on the search path, one "name<TAB>family<TAB>file" line each, the first
 * of each name only (free with cls_free). */
CLS_API cls_status cls_model_list(char **text);

/* Identity. */
CLS_API const char *cls_model_name(const cls_model *m);
CLS_API const char *cls_model_family(const cls_model *m);
CLS_API const char *cls_model_description(const cls_model *m); /* "" when none */
CLS_API const char *cls_model_source(const cls_model *m);      /* "" when none */
/* The file the model came from, or "defaults". */
CLS_API const char *cls_model_origin(const cls_model *m);
/* The live device a probe result belongs to (NULL when none). */
CLS_API const char *cls_model_device_name(const cls_model *m);
CLS_API const char *cls_model_device_driver(const cls_model *m);
/* Records a live device's identity (probe output; the cache key of cls_model_match). */
CLS_API cls_status cls_model_set_device(cls_model *m, const cls_device_info *info);
CLS_API cls_status cls_model_set_name(cls_model *m, const char *name);
CLS_API cls_status cls_model_set_source(cls_model *m, const char *source);

/* Scalar parameters by key, "section.key" as in the JSON ("compute.clock_mhz"; a leading "$."
 * is accepted).  cls_model_param_key enumerates them (NULL past the end). */
CLS_API const char *cls_model_param_key(size_t i);
CLS_API const char *cls_model_param_unit(const char *key);    /* NULL if unknown key */
CLS_API const char *cls_model_param_summary(const char *key); /* NULL if unknown key */
/* CLS_ERR_INVALID_ARGUMENT for an unknown key.  Fields that may be unknown read 0. */
CLS_API cls_status cls_model_get(const cls_model *m, const char *key, double *value);
/* 1 when the value is a generic default or an assumption rather than a document's number or a
 * measurement, 0 otherwise (and for unknown keys). */
CLS_API int cls_model_is_assumed(const cls_model *m, const char *key);
/* Sets a value after the same checks as loading; clears the assumed mark. */
CLS_API cls_status cls_model_set(cls_model *m, const char *key, double value);

/* Transfer and allocation tables: time against size (Visschers 2012, Sect. 5.2). */
typedef enum cls_model_table {
    CLS_TABLE_HOST_TO_DEVICE_PINNED = 0,
    CLS_TABLE_DEVICE_TO_HOST_PINNED = 1,
    CLS_TABLE_HOST_TO_DEVICE_PAGEABLE = 2,
    CLS_TABLE_DEVICE_TO_HOST_PAGEABLE = 3,
    CLS_TABLE_HOST_TO_HOST = 4,
    CLS_TABLE_ALLOC_HOST = 5,  /* allocate + free one host buffer */
    CLS_TABLE_ALLOC_DEVICE = 6, /* allocate + free one device buffer */
    /* A pinned copy queued behind another on the same in-order queue: its marginal time in a
     * stream of copies (not in Visschers 2012; what a pipeline's copies after the first cost). */
    CLS_TABLE_HOST_TO_DEVICE_QUEUED = 7,
    CLS_TABLE_DEVICE_TO_HOST_QUEUED = 8,
    /* A pair of such copies, one each way on two queues, queued behind the previous pair: the
     * marginal time of a pair (the overlap of the two directions per size; not in
     * Visschers 2012). */
    CLS_TABLE_PAIR_QUEUED = 9,
    CLS_TABLE_COUNT = 10
} cls_model_table;

typedef struct cls_model_point {
    double bytes;     /* a positive integer, ascending within a table */
    double ns;        /* median time, nanoseconds */
    double spread_ns; /* spread of the measurements (0 when not reported) */
} cls_model_point;

/* "transfer.host_to_device_pinned", ... (NULL when out of range). */
CLS_API const char *cls_model_table_key(cls_model_table t);
/* *n is 0 (and *pts NULL) when the model does not know the table. */
CLS_API cls_status cls_model_get_table(const cls_model *m, cls_model_table t,
                                       const cls_model_point **pts, size_t *n);
/* Replaces a table (n 0 clears it) after the same checks as loading. */
CLS_API cls_status cls_model_set_table(cls_model *m, cls_model_table t,
                                       const cls_model_point *pts, size_t n);

/* ------------------------------------------------------------------------------------------
 * Architecture rules of the model's family.
 * ---------------------------------------------------------------------------------------- */
/* An address that a work-item does not access (inactive lane). */
#define CLS_MODEL_NO_ACCESS UINT64_MAX

typedef struct cls_model_txn {
    unsigned count;      /* memory transactions */
    uint64_t bytes;      /* bytes those transactions move */
    uint64_t requested;  /* bytes the work-items asked for (bw_util = requested / bytes) */
} cls_model_txn;

typedef struct cls_model_banks {
    unsigned degree;     /* worst n-way conflict of any group (1: conflict-free, 0: no access) */
    unsigned passes;     /* serialized local-memory passes summed over the groups */
    unsigned groups;     /* groups that accessed (half-warps on GT200, warps on later GPUs) */
} cls_model_banks;

typedef enum cls_model_limit {
    CLS_LIMIT_NONE = 0,            /* no access to judge */
    CLS_LIMIT_GROUPS = 1,          /* resident work-groups per compute unit */
    CLS_LIMIT_WARPS = 2,           /* resident warps / work-items per compute unit */
    CLS_LIMIT_REGISTERS = 3,
    CLS_LIMIT_LOCAL_MEMORY = 4,
    CLS_LIMIT_WORK_GROUP_SIZE = 5  /* the work-group is larger than the device allows */
} cls_model_limit;

typedef struct cls_model_occupancy_info {
    unsigned groups_per_cu;  /* resident work-groups per compute unit (0: cannot run) */
    unsigned warps_per_cu;   /* resident warps per compute unit */
    double occupancy;        /* warps_per_cu / max_warps_per_cu */
    cls_model_limit limit;   /* the limit that bound */
} cls_model_occupancy_info;

/* Transactions made by one access of consecutive work-items (addrs[i]: byte address of
 * work-item i, or CLS_MODEL_NO_ACCESS; n <= 4096; elem_size 1, 2, 4, 8 or 16 and every address
 * a multiple of it).  A whole warp may be passed: GT200 splits it into half-warps. */
CLS_API cls_status cls_model_transactions(const cls_model *m, const uint64_t *addrs, size_t n,
                                          size_t elem_size, cls_model_txn *out);
/* Bank conflicts of one local-memory access (same argument rules; byte addresses). */
CLS_API cls_status cls_model_bank_conflicts(const cls_model *m, const uint64_t *addrs,
                                            size_t n, size_t elem_size, cls_model_banks *out);
CLS_API cls_status cls_model_channel(const cls_model *m, uint64_t addr, unsigned *channel);
CLS_API cls_status cls_model_occupancy(const cls_model *m, size_t work_group_size,
                                       unsigned registers_per_item, size_t local_bytes,
                                       cls_model_occupancy_info *out);
/* Of n_loads independent global loads a warp issues per local-buffer fill, how many hide
 * latency on this family (n_shm_load of Kim & Shrivastava, Eq. 2): n_loads on GT200 and Fermi,
 * at most 1 on the gpu family, whose 64 resident warps per SM hide latency among themselves. */
CLS_API cls_status cls_model_latency_loads(const cls_model *m, double n_loads, double *out);
/* *cached = 1 when the family's L1 serves a work-group's repeated global reads (gpu), 0 when
 * every global read goes to memory (GT200, Fermi, cpu). */
CLS_API cls_status cls_model_global_reads_cached(const cls_model *m, int *cached);
/* "groups", "warps", ... */
CLS_API const char *cls_model_limit_name(cls_model_limit limit);

/* ------------------------------------------------------------------------------------------
 * Probing a live device (`clstencil probe`, lib/probe.c).  Measures what the documents measured
 * on theirs and returns a model in the schema above (family "gpu" for GPUs, "cpu" for CPUs;
 * values it does not measure keep the family defaults, marked assumed):
 *   memory.bandwidth_measured_gbs  cube_transit, Mo & Li, Listing 4, Eq. 3
 *   memory.bandwidth_ghost_gbs     cube_ghost_transit, Mo & Li, Listing 5 (12 bytes per point)
 *   sync.kernel_restart_cycles     back-to-back empty kernels, Meng & Skadron 2010, Sect. 4.4
 *   sync.barrier_cycles_per_group  slope of an in-kernel atomic barrier against the number of
 *                                  co-resident work-groups, Meng & Skadron 2010, Sect. 4.5,
 *                                  Eq. 18
 *   transfer.* and alloc.* tables  10^1 .. 10^8 bytes, Visschers 2012, Sect. 5.2, 6.3
 *   transfer.overlap_factor        both directions at once on two queues, Visschers 2012,
 *                                  Sect. 6.4.4
 *   local_memory.banks             from a stride sweep (Kim & Shrivastava, Sect. 5.5), on
 *                                  devices with real local memory where the sweep is conclusive
 * Every measurement repeats until (p90 - p10) / median of its samples is below
 * target_spread or a repetition and time cap is reached.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_probe_stat {
    const char *key;    /* "memory.cube_transit", "transfer.host_to_device_pinned", ... */
    const char *label;  /* what was varied: "256^3", "10^5 B", "4 groups", "stride 32" */
    const char *unit;   /* "GB/s", "ns", "ns/group", "ratio", "x", "count" */
    double bytes;       /* the transfer or buffer size, 0 when none */
    double median;      /* median of the samples (fits: the fitted value) */
    double spread;      /* (p90 - p10) / median of the samples; fits: relative 95 % half-width */
    size_t reps;        /* samples taken (fits: points fitted) */
    const char *note;   /* NULL, or why the measurement was skipped (median is then 0) */
} cls_probe_stat;

/* Called before each measurement with a short description and the count done so far; a
 * nonzero return cancels the probe (CLS_ERR_CANCELLED). */
typedef int (*cls_probe_progress_fn)(const char *what, size_t done, size_t total, void *user);
/* Called after each measurement; the strings live until the callback returns. */
typedef void (*cls_probe_result_fn)(const cls_probe_stat *stat, void *user);

typedef struct cls_probe_options {
    size_t size;                    /* sizeof: set by cls_probe_options_init (doc/guide.md,
                                       "Options") */
    int quick;                      /* small sizes, few repetitions: seconds (for tests) */
    double target_spread;           /* stop repeating below this spread (default 0.03) */
    cls_probe_progress_fn progress; /* may be NULL */
    cls_probe_result_fn result;     /* may be NULL */
    void *user;
} cls_probe_options;

/* Fills defaults (full mode, 3 % spread, no callbacks). */
CLS_API void cls_probe_options_init(cls_probe_options *opt);
/* Measures the context's device and returns its model (release with cls_model_release); opt
 * may be NULL.  The model records the device and driver (cls_model_set_device), so that
 * cls_probe_save_cache stores it where cls_model_match finds it. */
CLS_API cls_status cls_probe_device(cls_context *ctx, const cls_probe_options *opt,
                                    cls_model **out);
/* Saves a probe result to cls_model_cache_path of the device it records, creating the folder;
 * the file's path goes to `path` (may be NULL when len is 0).  CLS_ERR_CACHE when
 * CLSTENCIL_CACHE=off or no cache folder can be made. */
CLS_API cls_status cls_probe_save_cache(const cls_model *m, char *path, size_t len);

/* ------------------------------------------------------------------------------------------
 * Memory-access analysis (CuMAPz: Kim & Shrivastava, "Memory Performance Estimation of
 * CUDA Programs"): the six factors and the MPE of a kernel mapping on a device model, from an
 * access description (doc/memory-analysis.md: the work-group and grid, the global arrays and
 * local buffers, and the reads, writes and fetches in program order, indices affine in the
 * block, work-item and loop indices).  `clstencil analyze` is its command line.  Failures
 * return a status with one sentence in cls_last_error(), starting with the JSON path of the
 * bad field.
 * ---------------------------------------------------------------------------------------- */
/* Limits.  Descriptions beyond them are refused with an error naming the limit. */
#define CLS_ACC_NAME_MAX 48           /* names of arrays, buffers, variants, loop variables */
#define CLS_ACC_TEXT_MAX 400          /* descriptions */
#define CLS_ACC_PATH_MAX 112          /* JSON paths kept for messages */
#define CLS_ACC_MAX_DIMS 3            /* work-group, grid, array and buffer dimensions */
#define CLS_ACC_MAX_ARRAYS 16
#define CLS_ACC_MAX_BUFFERS 16
#define CLS_ACC_MAX_PARAMS 64         /* params plus let entries */
#define CLS_ACC_MAX_LOOP_DEPTH 4      /* nested loops the emulation follows */
#define CLS_ACC_MAX_NEST 16           /* nested if and loop statements */
#define CLS_ACC_MAX_STMTS 4096        /* statements of one variant */
#define CLS_ACC_MAX_CONDS 8           /* comparisons joined by && in one condition */
#define CLS_ACC_MAX_THREADS 4096      /* work-items of one work-group */
#define CLS_ACC_MAX_GRID 16777216u    /* work-groups of one grid */
#define CLS_ACC_MAX_LOOP_COUNT 65536  /* iterations of one loop */
#define CLS_ACC_MAX_VARIANTS 64       /* variants of one description */
#define CLS_ACC_MAX_BUFFER_ELEMS 16777216u
#define CLS_ACC_MAX_ARRAY_BYTES (UINT64_C(1) << 40)

/* A description: one kernel and its variants (one variant when it lists none). */
typedef struct cls_access_set cls_access_set;
/* One variant of a description: a complete kernel mapping. */
typedef struct cls_access cls_access;

/* Parses a description file (doc/memory-analysis.md).  overrides: n_overrides "NAME=VALUE"
 * strings that replace params of every variant (each must name a param of the description).
 * CLS_ERR_INVALID_JSON for malformed JSON (with line and column), CLS_ERR_INVALID_SPEC for a
 * description that breaks the format (with the JSON path), CLS_ERR_INVALID_ARGUMENT for a bad
 * override, CLS_ERR_OUT_OF_HOST_MEMORY. */
CLS_API cls_status cls_access_set_from_json(const char *json, const char *const *overrides,
                                            size_t n_overrides, cls_access_set **out);
/* Accepts NULL. */
CLS_API void cls_access_set_free(cls_access_set *set);
/* The description's name, description and source ("" when none); its variants, in file order
 * (NULL past the end); a variant's name and description. */
CLS_API const char *cls_access_set_name(const cls_access_set *set);
CLS_API const char *cls_access_set_description(const cls_access_set *set);
CLS_API const char *cls_access_set_source(const cls_access_set *set);
CLS_API size_t cls_access_set_count(const cls_access_set *set);
CLS_API const cls_access *cls_access_set_variant(const cls_access_set *set, size_t i);
CLS_API const char *cls_access_name(const cls_access *a);
CLS_API const char *cls_access_description(const cls_access *a);

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
    uint64_t shm_reads;      /* elements global reads got from buffers (the count of
                                Kim & Shrivastava, Table I) */
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
 * from the model. */
CLS_API cls_status cls_cumapz_analyze(const cls_model *m, const cls_access *a,
                                      const cls_cumapz_options *opt, cls_cumapz_result *r);

/* The term of Eq. 8 that costs the variant most (CLS_CUMAPZ_NONE when every term is 1 or
 * better); *efficiency (may be NULL) gets its value. */
CLS_API cls_cumapz_term cls_cumapz_bottleneck(const cls_cumapz_result *r, double *efficiency);
/* "data_reuse", "occupancy", "bw_util", "ch_skew", "shm_eff", "branch_eff", "none". */
CLS_API const char *cls_cumapz_term_name(cls_cumapz_term t);

/* Pearson correlation of x and y (n >= 2); NAN when a series is constant. */
CLS_API double cls_cumapz_pearson(const double *x, const double *y, size_t n);

/* ------------------------------------------------------------------------------------------
 * Built-in descriptions: the worked examples of Kim & Shrivastava and the stencil mappings of
 * Mo & Li's 2.5D stencil kernels, each a kernel with its variants.
 * ---------------------------------------------------------------------------------------- */
CLS_API size_t cls_cumapz_case_count(void);
CLS_API const char *cls_cumapz_case_name(size_t i);    /* NULL past the end */
CLS_API const char *cls_cumapz_case_summary(size_t i); /* NULL past the end */
/* The JSON text of a case (free with cls_free); CLS_ERR_INVALID_ARGUMENT for an unknown name
 * (the last error lists the names), CLS_ERR_OUT_OF_HOST_MEMORY. */
CLS_API cls_status cls_cumapz_case_json(const char *name, char **json);

/* Ranks the mapping of the plan's resident configuration among its schedule's published
 * variants by CuMAPz's MPE on the context's device model (Kim & Shrivastava Sect. 8: "MPE
 * ... can be used to compare different mappings of the same program"): one sentence, *text
 * malloc'ed (cls_free).  CLS_ERR_UNSUPPORTED when the schedule publishes no variants. */
CLS_API cls_status cls_plan_rank_mapping(const cls_plan *plan, char **text);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_MODEL_H */
