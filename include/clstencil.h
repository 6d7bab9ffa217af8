/* clstencil.h: the core C API of libclstencil (iterative stencil loops on OpenCL): errors,
 * devices, contexts, stencils, grids, plans and runs, the host reference and grid files.  It
 * stands alone; the optional parts have their own headers, each including this one:
 *   clstencil_model.h   device models, their rules, probing, the memory-access analysis
 *   clstencil_tune.h    ghost-zone profiles and predictions, the tuner
 *   clstencil_solver.h  convergent solvers (chaotic relaxation)
 *   clstencil_image.h   images, Poisson image editing, shape from shading (built with libpng)
 *   clstencil_bench.h   the research benchmarks (bandwidth transits, mapping kernels) */
#ifndef CLSTENCIL_H
#define CLSTENCIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CLS_BUILDING_LIBRARY) && defined(__GNUC__)
#define CLS_API __attribute__((visibility("default")))
#else
#define CLS_API
#endif

/* ------------------------------------------------------------------------------------------
 * Status codes.  0 is success.  OpenCL failures keep their own (negative, > -1000) CL_* value,
 * so a caller can compare against <CL/cl.h>; library failures live in -1000 and below.
 * Names and messages come from this one table (cls_status_string, cls_status_message).
 * ---------------------------------------------------------------------------------------- */
#define CLS_STATUS_LIST(X)                                                                     \
    X(CLS_SUCCESS, 0, "success")                                                               \
    X(CLS_ERR_INVALID_ARGUMENT, -1001, "invalid argument")                                     \
    X(CLS_ERR_OUT_OF_HOST_MEMORY, -1002, "out of host memory")                                 \
    X(CLS_ERR_NO_PLATFORM, -1003, "no OpenCL platform found")                                  \
    X(CLS_ERR_NO_DEVICE, -1004, "no OpenCL device matches the selector")                       \
    X(CLS_ERR_INVALID_JSON, -1005, "malformed JSON")                                           \
    X(CLS_ERR_INVALID_SPEC, -1006, "invalid stencil specification")                            \
    X(CLS_ERR_UNKNOWN_STENCIL, -1007, "unknown built-in stencil")                              \
    X(CLS_ERR_BUILD_FAILED, -1008, "OpenCL program build failed")                              \
    X(CLS_ERR_INVALID_SIZE, -1009, "invalid grid size")                                        \
    X(CLS_ERR_TOO_LARGE, -1010, "grid larger than the device allows")                          \
    X(CLS_ERR_IO, -1011, "file input/output failed")                                           \
    X(CLS_ERR_INVALID_FILE, -1012, "malformed or incompatible data file")                      \
    X(CLS_ERR_UNSUPPORTED, -1013, "not supported by this device or schedule")                  \
    X(CLS_ERR_CACHE, -1014, "program cache failure")                                           \
    X(CLS_ERR_INVALID_MODEL, -1015, "invalid device model")                                    \
    X(CLS_ERR_UNKNOWN_MODEL, -1016, "unknown device model")                                    \
    X(CLS_ERR_PLAN_INFEASIBLE, -1017, "no feasible plan within the device limits")             \
    X(CLS_ERR_CANCELLED, -1018, "run cancelled by the progress callback")                      \
    X(CLS_ERR_NOT_CONVERGED, -1030, "iterative solver did not converge within the step limit") \
    X(CLS_ERR_DIVERGED, -1031, "iterative solver diverged")                                    \
    X(CLS_ERR_INTERNAL, -1099, "internal error")

typedef enum cls_status {
#define CLS__ENUM(name, value, msg) name = value,
    CLS_STATUS_LIST(CLS__ENUM)
#undef CLS__ENUM
} cls_status;

/* "CLS_ERR_BUILD_FAILED", "CL_OUT_OF_RESOURCES", ... ("CLS_UNKNOWN_STATUS" if unknown). */
CLS_API const char *cls_status_string(int status);
/* A short sentence for the code ("OpenCL program build failed"). */
CLS_API const char *cls_status_message(int status);
/* Details of the last failure in the calling thread: a JSON path, a build log, a limit that
 * was hit.  Every API call that fails sets it; it stays valid until the next failing call in
 * this thread.  Never NULL (empty string when there is nothing to say). */
CLS_API const char *cls_last_error(void);

/* Library version, "MAJOR.MINOR.PATCH". */
CLS_API const char *cls_version(void);

/* Frees memory the library hands out (strings from cls_stencil_to_json and similar). */
CLS_API void cls_free(void *ptr);

/* ------------------------------------------------------------------------------------------
 * Devices
 * ---------------------------------------------------------------------------------------- */
typedef enum cls_device_type {
    CLS_DEVICE_OTHER = 0,
    CLS_DEVICE_CPU = 1,
    CLS_DEVICE_GPU = 2,
    CLS_DEVICE_ACCELERATOR = 3
} cls_device_type;

typedef struct cls_device_info {
    int platform_index;          /* position in clGetPlatformIDs order */
    int device_index;            /* position within its platform */
    cls_device_type type;
    char name[256];
    char vendor[256];
    char platform_name[256];
    char driver_version[128];
    char device_version[128];    /* "OpenCL 3.0 CUDA", ... */
    unsigned compute_units;
    unsigned clock_mhz;
    size_t max_work_group_size;
    size_t max_work_item_sizes[3];
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
    uint64_t local_mem_bytes;
    int local_mem_is_global;     /* CL_GLOBAL local memory (emulated, e.g. CPUs) */
    int double_support;          /* cl_khr_fp64 or OpenCL >= 1.2 fp64 config */
} cls_device_info;

/* Lists every device of every platform.  Writes at most `capacity` entries into `infos`
 * (which may be NULL when capacity is 0) and the total number into *count. */
CLS_API cls_status cls_device_list(cls_device_info *infos, size_t capacity, size_t *count);

/* Resolves a selector to one device without creating a context.  Selectors:
 *   NULL or ""        $CLSTENCIL_DEVICE if set, else the first GPU, else the first CPU,
 *                     else the first device;
 *   "gpu" "cpu" "accelerator"   the first device of that type (optionally "gpu:N", N-th);
 *   "P:D"             platform index P, device index D;
 *   anything else     the first device whose "platform device" name contains the text
 *                     (case-insensitive). */
CLS_API cls_status cls_device_select(const char *selector, cls_device_info *info);

/* ------------------------------------------------------------------------------------------
 * Contexts: one device, its queue, program cache, and the last error of calls made on it.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_context cls_context;

CLS_API cls_status cls_context_create(const char *selector, cls_context **ctx);
/* Accepts NULL. */
CLS_API void cls_context_release(cls_context *ctx);
CLS_API cls_status cls_context_device(const cls_context *ctx, cls_device_info *info);
/* Details of the last failing call made with this context (build log included). */
CLS_API const char *cls_context_last_error(const cls_context *ctx);

/* ------------------------------------------------------------------------------------------
 * Stencil specifications
 *
 * A stencil updates one state array U (double-buffered) from its old values, optional
 * read-only auxiliary arrays and named scalar parameters.  The update is an OpenCL C body:
 * either one expression, or declarations "real t = ...;" followed by "return expr;".
 * Inside it:
 *   IN(dx), IN(dx,dy), IN(dx,dy,dz)   old state at a relative offset (one argument per
 *                                     dimension; offsets are integer constants within halo)
 *   AUX(name, dx[,dy[,dz]])           auxiliary array (by name or index) at an offset;
 *                                     a "per_step" auxiliary array is read at the current
 *                                     step's slice
 *   parameter names                   scalars of type real
 *   X Y Z, NX NY NZ, STEP             coordinates, grid sizes, step index (0-based)
 *   real                              float or double, as the stencil's dtype
 * A linear stencil may instead be given as points (offset, coefficient); the body is then
 * generated as sum(coef_i * IN(offset_i)), points with equal coefficients grouped as
 * c * (IN(a) + IN(b) + ...) (common sub-expression elimination, Mo & Li, Sect. 6.3), groups in
 * the order their coefficients first appear.
 * ---------------------------------------------------------------------------------------- */
typedef enum cls_dtype { CLS_FLOAT32 = 0, CLS_FLOAT64 = 1 } cls_dtype;

typedef enum cls_boundary {
    CLS_BOUNDARY_CLAMP = 0,    /* index clamped to the edge (Meng & Skadron 2010, List. 1) */
    CLS_BOUNDARY_CONSTANT = 1, /* reads outside the grid return a constant */
    CLS_BOUNDARY_PERIODIC = 2, /* wrap around */
    CLS_BOUNDARY_MIRROR = 3    /* reflect about the edge cell: -1 -> 1, n -> n-2 */
} cls_boundary;

typedef struct cls_stencil cls_stencil;

/* Parses a JSON specification (see doc/guide.md for the schema).  On failure the message of
 * cls_last_error() names the JSON path of the bad field. */
CLS_API cls_status cls_stencil_from_json(const char *json, cls_stencil **st);
CLS_API cls_status cls_stencil_from_file(const char *path, cls_stencil **st);
/* A built-in stencil by name (hotspot, pathfinder, poisson2d, cell3d, heat3d7, heat3d27,
 * moving_average, emboss, jacobi3d; the systems wave2d, wave3d, acoustic3d_r4, gray_scott,
 * fdtd2d, fdtd3d). */
CLS_API cls_status cls_stencil_builtin(const char *name, cls_stencil **st);
/* The i-th built-in name, NULL past the end. */
CLS_API const char *cls_stencil_builtin_name(size_t i);
/* A one-line description of a built-in, NULL if unknown. */
CLS_API const char *cls_stencil_builtin_summary(const char *name);

/* Builds a spec in C: dims 1..3, a body (NULL when points are added instead). */
CLS_API cls_status cls_stencil_create(const char *name, int dims, cls_dtype dtype,
                                      const char *body, cls_stencil **st);
CLS_API cls_status cls_stencil_add_point(cls_stencil *st, int dx, int dy, int dz, double coef);
CLS_API cls_status cls_stencil_add_aux(cls_stencil *st, const char *name, int per_step);
CLS_API cls_status cls_stencil_set_halo(cls_stencil *st, int hx, int hy, int hz);
CLS_API cls_status cls_stencil_set_param(cls_stencil *st, const char *name, double value);
CLS_API cls_status cls_stencil_get_param(const cls_stencil *st, const char *name, double *value);
CLS_API cls_status cls_stencil_set_dtype(cls_stencil *st, cls_dtype dtype);
/* value is used by CLS_BOUNDARY_CONSTANT only. */
CLS_API cls_status cls_stencil_set_boundary(cls_stencil *st, cls_boundary b, double value);
/* Systems of fields (doc/guide.md, "Systems of fields").  A stencil made with a NULL body
 * becomes a system when it declares fields: each is updated by the stages or is a time level
 * of another field.  One time step runs the stages in order; within a stage every update reads
 * the fields as they were at the stage's start, and the next stage reads them as updated.  A
 * time level ("u_prev" of "u") has no update: during a step it holds u's value of the
 * previous step, after the step u's value at the step's start.  Update bodies read field f at
 * a constant offset as IN(f, dx[, dy[, dz]]); IN(dx, ...) without a name is allowed where the
 * stages update one field only, and means that field.  Auxiliary arrays and parameters work
 * as for one field.  Field names follow the rules of auxiliary array names; at most 16
 * fields and 16 stages.  Stages and fields are numbered from 0 in declaration order, which is
 * also the order of the host arrays of runs and states. */
CLS_API cls_status cls_stencil_add_field(cls_stencil *st, const char *name);
/* A field that holds the previous step's value of field `previous` (which may be declared
 * later; the spec's check refuses a missing one and time levels in a cycle). */
CLS_API cls_status cls_stencil_add_time_level(cls_stencil *st, const char *name,
                                              const char *previous);
/* Appends an empty stage; *stage (may be NULL) receives its index. */
CLS_API cls_status cls_stencil_add_stage(cls_stencil *st, size_t *stage);
/* Sets the body of field `field`'s update in stage `stage`; a field is updated at most once
 * per stage, and a time level never. */
CLS_API cls_status cls_stencil_set_update(cls_stencil *st, size_t stage, const char *field,
                                          const char *body);
/* Whether the stencil is a system (declares fields).  A single-field stencil answers the
 * accessors below as the one-field, one-stage system of field "u". */
CLS_API int cls_stencil_is_system(const cls_stencil *st);
CLS_API size_t cls_stencil_num_fields(const cls_stencil *st);
/* NULL past the end. */
CLS_API const char *cls_stencil_field_name(const cls_stencil *st, size_t f);
/* The field a time level holds the previous step of; NULL for an ordinary field. */
CLS_API const char *cls_stencil_field_previous(const cls_stencil *st, size_t f);
/* A field's index by name, -1 if none. */
CLS_API int cls_stencil_field_index(const cls_stencil *st, const char *name);
CLS_API size_t cls_stencil_num_stages(const cls_stencil *st);
CLS_API size_t cls_stencil_stage_num_updates(const cls_stencil *st, size_t stage);
/* The body of update k of a stage (NULL past the end); *field (may be NULL) its field. */
CLS_API const char *cls_stencil_update_body(const cls_stencil *st, size_t stage, size_t k,
                                            size_t *field);

/* Checks the whole spec (body parses, accessors and names known, offsets within halo). */
CLS_API cls_status cls_stencil_validate(const cls_stencil *st);
/* JSON text of the spec; free with cls_free. */
CLS_API cls_status cls_stencil_to_json(const cls_stencil *st, char **json);
CLS_API cls_status cls_stencil_copy(const cls_stencil *st, cls_stencil **copy);
/* Accepts NULL. */
CLS_API void cls_stencil_release(cls_stencil *st);

CLS_API const char *cls_stencil_name(const cls_stencil *st);
CLS_API int cls_stencil_dims(const cls_stencil *st);
CLS_API cls_dtype cls_stencil_dtype(const cls_stencil *st);
CLS_API cls_boundary cls_stencil_boundary(const cls_stencil *st);
CLS_API void cls_stencil_halo(const cls_stencil *st, int halo[3]);
CLS_API size_t cls_stencil_num_aux(const cls_stencil *st);
CLS_API const char *cls_stencil_aux_name(const cls_stencil *st, size_t k);
/* Named scalar parameters, in declaration order (NULL / 0 past the end). */
CLS_API size_t cls_stencil_num_params(const cls_stencil *st);
CLS_API const char *cls_stencil_param_name(const cls_stencil *st, size_t k);
/* The value outside the grid for CLS_BOUNDARY_CONSTANT (0 for the other kinds). */
CLS_API double cls_stencil_boundary_value(const cls_stencil *st);
/* The spec's free-text description ("" if none). */
CLS_API const char *cls_stencil_description(const cls_stencil *st);
CLS_API int cls_stencil_aux_per_step(const cls_stencil *st, size_t k);
/* The body as it will be compiled (generated from points where needed); NULL for a system
 * (cls_stencil_update_body). */
CLS_API const char *cls_stencil_body(const cls_stencil *st);
/* Floating-point operations of one update as the body is written (+ - * / and floating
 * calls, both branches of ?: counted): 30 for heat3d27 given as 27 points with 4 weights,
 * where the ungrouped sum would take 53. */
CLS_API cls_status cls_stencil_flops(const cls_stencil *st, size_t *flops);
/* Bytes per element (4 or 8). */
CLS_API size_t cls_dtype_size(cls_dtype dtype);
CLS_API const char *cls_boundary_name(cls_boundary b);
CLS_API cls_status cls_boundary_from_name(const char *name, cls_boundary *b);

/* ------------------------------------------------------------------------------------------
 * Grids: sizes and host data.  Host arrays are C order: x varies fastest, index
 * x + NX*(y + NY*z).  Auxiliary arrays have the grid's shape; a per-step auxiliary array
 * holds `steps` consecutive grids.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_dims {
    size_t n[3]; /* NX, NY, NZ; unused dimensions are 1 */
} cls_dims;

/* Number of points (0 on overflow). */
CLS_API size_t cls_dims_points(cls_dims d);

/* ------------------------------------------------------------------------------------------
 * Plans, states and runs
 *
 * A plan holds how a stencil runs on a grid for a device: the schedule for grids resident on
 * the device and, for runs from and to host arrays, how the grid moves (copied whole around
 * the resident schedule, or through a host schedule such as the tiled pipeline).  Schedules
 * take parameters as text, "schedule.name=value" separated by spaces or commas
 * ("trapezoid.height=4 trapezoid.sync=barrier"); `clstencil schedules` and doc/guide.md list
 * them.
 * ---------------------------------------------------------------------------------------- */
typedef enum cls_schedule {
    CLS_SCHEDULE_AUTO = 0,      /* the planner decides */
    CLS_SCHEDULE_NAIVE = 1,     /* one launch per step, ping-pong buffers */
    CLS_SCHEDULE_TRAPEZOID = 2, /* ghost zones: h steps per pass in local memory
                                   (Meng & Skadron 2010) */
    CLS_SCHEDULE_STREAM25D = 3, /* 3D: 2D work-groups march along z, planes in registers and
                                   local memory (Mo & Li) */
    CLS_SCHEDULE_PIPELINE = 4,  /* runs from host arrays tile by tile, transfers overlapping
                                   kernels (Visschers 2012); for host-to-host runs and grids
                                   above the device's memory */
    CLS_SCHEDULE_CPUTILE = 5    /* CPUs: tiles advanced several steps in scratch that stays in
                                   a core's cache, the overlap recomputed */
} cls_schedule;

/* "naive", ...; "auto" for CLS_SCHEDULE_AUTO, "unknown" for none. */
CLS_API const char *cls_schedule_name(cls_schedule s);
CLS_API cls_status cls_schedule_from_name(const char *name, cls_schedule *s);

/* The registered schedules and the parameters they take (`clstencil schedules`). */
typedef struct cls_schedule_info {
    cls_schedule schedule;
    const char *name;
    const char *summary;  /* one line */
    int host;             /* runs from host arrays tile by tile (a transfer schedule) */
    size_t num_params;
} cls_schedule_info;

typedef struct cls_schedule_param {
    const char *name;     /* "height": given as "trapezoid.height=VALUE" */
    const char *kind;     /* "integer", "sizes" (one to three, "64x8") or "name" */
    size_t min, max;      /* integers and sizes: the accepted range */
    char values[128];     /* names: the accepted values, "restart|barrier" ("" otherwise) */
    const char *doc;      /* one line */
} cls_schedule_param;

/* The i-th registered schedule (CLS_ERR_INVALID_ARGUMENT past the end), and its k-th
 * parameter.  The strings are the library's (static). */
CLS_API cls_status cls_schedule_describe(size_t i, cls_schedule_info *info);
CLS_API cls_status cls_schedule_describe_param(size_t i, size_t k, cls_schedule_param *param);

/* Page-locked host memory for a context's device (CL_MEM_ALLOC_HOST_PTR, mapped): transfers
 * from and to it run at the device's pinned rate.  Free with cls_host_free before releasing
 * the context. */
CLS_API cls_status cls_host_alloc(cls_context *ctx, size_t bytes, void **ptr);
/* Accepts NULL. */
CLS_API void cls_host_free(cls_context *ctx, void *ptr);

/* Options of a plan.  Initialise them with cls_plan_options_init, which sets `size`: the
 * library reads only the fields the caller's struct holds, so a program built against an
 * older header keeps working with a newer library (doc/guide.md, "Options"). */
typedef struct cls_plan_options {
    size_t size;             /* sizeof (cls_plan_options) as the caller compiled it */
    cls_schedule schedule;   /* CLS_SCHEDULE_AUTO by default; a resident schedule fixes the
                                one states advance with, CLS_SCHEDULE_PIPELINE makes runs from
                                host arrays pipeline */
    const char *params;      /* the schedules' parameters, NULL for none; with AUTO, the
                                parameters of one resident schedule ask for it */
    size_t max_registers;    /* registers per work-item the device compiler may use (NVIDIA's
                                cl_nv_compiler_options -cl-nv-maxrregcount): fewer registers,
                                more resident work-groups.  0: no cap; ignored, with a note in
                                why, on devices without the option */
    double device_memory;    /* bytes of device memory a run may hold (0: the device's global
                                memory); grids above it run through the pipeline */
    int host_pinned;         /* the run's host arrays are pinned (cls_host_alloc): the transfer
                                model takes the pinned tables */
    int release_buffers;     /* 1: every run allocates its device buffers and frees them at its
                                end (Visschers 2012 Sect. 6.4.5), and the planner ranks by
                                allocation plus run.  0 (default): the first run allocates them
                                and the plan keeps them for the next run until
                                cls_plan_release_buffers or cls_plan_release */
} cls_plan_options;

/* Fills defaults and `size`. */
CLS_API void cls_plan_options_init(cls_plan_options *opt);

typedef struct cls_plan cls_plan;

/* Validates the stencil against the sizes and the device, picks the schedules and their
 * parameters, and builds (or fetches from the cache) the OpenCL programs.  The plan keeps its
 * own copy of the stencil.  steps: the steps of cls_plan_run (states advance by any number).
 * opt may be NULL. */
CLS_API cls_status cls_plan_create(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                   size_t steps, const cls_plan_options *opt, cls_plan **plan);
/* Accepts NULL. */
CLS_API void cls_plan_release(cls_plan *plan);
/* Frees the device (and pinned staging) buffers the plan keeps between runs; its next run
 * allocates them again.  Accepts NULL. */
CLS_API void cls_plan_release_buffers(cls_plan *plan);

typedef struct cls_plan_info {
    cls_schedule schedule;     /* the schedule device-resident states advance with
                                  (CLS_SCHEDULE_AUTO: none, the grid is above the device's
                                  memory) */
    const char *schedule_name; /* its name ("none") */
    cls_schedule host_schedule; /* how cls_plan_run moves the grid: CLS_SCHEDULE_AUTO copies it
                                   whole around the resident schedule, else that schedule */
    size_t local_size[3];      /* the resident kernel's work-group */
    size_t global_size[3];
    size_t max_registers;      /* the register cap the kernel was built with (0: none) */
    int from_cache;            /* 0 built now, 1 loaded from the disk cache, 2 already in memory */
    double build_seconds;      /* time to build or load the program */
    double predicted_seconds;  /* the model's device time of the run's kernels (0: none) */
    /* The transfer model's predictions of a run from host arrays (transfers and kernels), for
     * the plan's way and for copy-compute-copy around the resident schedule (0: no
     * prediction); predicted_alloc_seconds is what allocating the run's device buffers adds to
     * a run that allocates them: the first run of a plan, or every run with release_buffers. */
    double predicted_total_seconds;
    double predicted_copy_seconds;
    double predicted_alloc_seconds;
    /* Text the plan owns (valid until it is released): */
    const char *params;        /* the chosen parameters, "trapezoid.tile=34x34x1 ..." */
    const char *why;           /* how the resident schedule and its parameters were chosen */
    const char *host_why;      /* how runs from host arrays move the grid, and why */
} cls_plan_info;

CLS_API cls_status cls_plan_describe(const cls_plan *plan, cls_plan_info *info);
/* The value the plan chose for parameter `name` ("trapezoid.height" -> "4"), NULL when the
 * plan has none.  Owned by the plan. */
CLS_API const char *cls_plan_param(const cls_plan *plan, const char *name);

/* Every configuration the planner priced, the chosen ones marked. */
typedef struct cls_plan_candidate {
    cls_schedule schedule;
    const char *schedule_name;
    int host;                  /* a host schedule (runs from host arrays) */
    int chosen;
    int declined;              /* not offered here, or set aside by a rule; why says which */
    double predicted_seconds;  /* its kernels (0: none) */
    double predicted_total_seconds; /* host schedules: the run, transfers included (0: none) */
    const char *why;           /* owned by the plan */
} cls_plan_candidate;

CLS_API size_t cls_plan_num_candidates(const cls_plan *plan);
CLS_API cls_status cls_plan_candidate_info(const cls_plan *plan, size_t i, cls_plan_candidate *c);

typedef struct cls_report {
    cls_schedule schedule;   /* the schedule that ran */
    size_t steps;
    double seconds_total;    /* host wall time of the run, transfers included */
    double seconds_kernels;  /* device time of the kernels (profiling events) */
    double seconds_per_step; /* seconds_kernels / steps */
    double gpoints_per_s;    /* points * steps / seconds_kernels / 1e9 */
    double predicted_seconds;/* model prediction of seconds_kernels, 0 if none */
    double predicted_total_seconds; /* the transfer model's prediction of seconds_total, 0 if
                                       none: cls_plan_info.predicted_total_seconds, plus
                                       predicted_alloc_seconds when this run allocated */
    int allocated;           /* this run allocated the plan's device buffers (its first run, a
                                run after cls_plan_release_buffers, or release_buffers) */
} cls_report;

/* Progress callback: called with (done, total) steps at most about 50 times per run, between
 * the schedule's launches: after a step (naive), a stage of h steps (trapezoid), a pass
 * (stream25d) or a sweep (pipeline), so `done` advances by those amounts.  Return nonzero to
 * cancel (the run then fails with CLS_ERR_CANCELLED; `output` is left untouched except by a
 * run that pipelines, see cls_plan_run). */
typedef int (*cls_progress_fn)(size_t done, size_t total, void *user);
CLS_API cls_status cls_plan_set_progress(cls_plan *plan, cls_progress_fn fn, void *user);

/* Runs the plan from host arrays: `input` is the initial state (points elements of the
 * dtype), `aux` the auxiliary arrays in the stencil's order (NULL when there are none),
 * `output` receives the state after the plan's steps (it may equal `input`).  report may be
 * NULL.  A failed or cancelled run leaves `output` untouched, except a run that pipelines
 * (cls_plan_info.host_schedule CLS_SCHEDULE_PIPELINE): it streams finished tiles and sweeps
 * into `output` as it goes, rather than hold a second grid-sized host array, so after its
 * failure `output` holds a mix of states.  `input` and the auxiliary arrays are never written;
 * keep `output` apart from `input` where a pipelined run must not lose its initial state. */
CLS_API cls_status cls_plan_run(cls_plan *plan, const void *input, const void *const *aux,
                                void *output, cls_report *report);

/* Runs a system (or a single-field stencil) from host arrays: input[f] and output[f] are
 * field f's (declaration order, cls_stencil_field_name); otherwise as cls_plan_run, which
 * refuses a system.  An output may be its input. */
CLS_API cls_status cls_plan_run_fields(cls_plan *plan, const void *const *input,
                                       const void *const *aux, void *const *output,
                                       cls_report *report);

/* States: a run's field and auxiliary arrays kept on the device between calls (in pinned
 * host memory when the grid is above the device's memory: the plan's host schedule runs
 * them).  A plan advances a state by any number of steps; advancing by a, then b steps gives
 * the state of one run of a + b steps, bit for bit.  OpenCL interop (wrapping a cl_mem,
 * handing one out): clstencil_cl.h. */
typedef struct cls_state cls_state;

/* A state for the plan's stencil and grid (its buffers allocated, holding nothing yet). */
CLS_API cls_status cls_state_create(cls_plan *plan, cls_state **state);
/* Accepts NULL. */
CLS_API void cls_state_release(cls_state *state);
/* Writes the field from host memory (points elements) and sets the step to 0. */
CLS_API cls_status cls_state_write(cls_state *state, const void *field);
/* Writes auxiliary array k from host memory; a per-step array holds `slices` grids (its
 * steps: the state advances at most to step `slices`); ignored for other arrays. */
CLS_API cls_status cls_state_write_aux(cls_state *state, size_t k, const void *data,
                                       size_t slices);
/* Reads the field into host memory. */
CLS_API cls_status cls_state_read(const cls_state *state, void *field);
/* A system's fields one by one (f in declaration order; also field 0 of a single-field
 * stencil): writing one sets the step to 0, and a state advances once every field was
 * written.  cls_state_write and cls_state_read refuse a state of several fields. */
CLS_API cls_status cls_state_write_field(cls_state *state, size_t f, const void *data);
CLS_API cls_status cls_state_read_field(const cls_state *state, size_t f, void *data);
/* Steps advanced since the field was written: the STEP of the next step. */
CLS_API size_t cls_state_step(const cls_state *state);
CLS_API cls_status cls_state_set_step(cls_state *state, size_t step);
/* Advances the state by `steps` steps with the plan (any plan of the same stencil shape,
 * grid and context).  A failed or cancelled advance leaves the state without a field: write
 * it again.  report may be NULL. */
CLS_API cls_status cls_plan_advance(cls_plan *plan, cls_state *state, size_t steps,
                                    cls_report *report);

/* The host reference: the same semantics in plain C, single-threaded.  Bitwise equal to the
 * OpenCL schedules for bodies made of + - * /, comparisons and the exact functions fmin, fmax,
 * min, max, clamp, fabs, floor, ceil, trunc, round, sqrt, fma and copysign (OpenCL builds use
 * FP_CONTRACT OFF and correctly rounded divide/sqrt); the other math functions agree within
 * their OpenCL ULP bounds. */
CLS_API cls_status cls_reference_run(const cls_stencil *st, cls_dims dims, size_t steps,
                                     const void *input, const void *const *aux, void *output);

/* The host reference of a system: input[f] and output[f] are field f's host arrays in the
 * declaration order (cls_stencil_field_name); an output may equal its input.  Also takes a
 * single-field stencil (one array each); cls_reference_run refuses a system. */
CLS_API cls_status cls_reference_run_fields(const cls_stencil *st, cls_dims dims, size_t steps,
                                            const void *const *input, const void *const *aux,
                                            void *const *output);

/* Whether the stencil's body is computed bitwise-reproducibly by the reference (see above). */
CLS_API int cls_stencil_is_exact(const cls_stencil *st);

/* ------------------------------------------------------------------------------------------
 * Grid files: NumPy .npy (float32/float64, C order, little or big endian on read) and raw.
 * ---------------------------------------------------------------------------------------- */
/* Reads a .npy file; returns the data (free with cls_free), dtype and shape (ndim 1..3,
 * shape in NumPy order: slowest first). */
CLS_API cls_status cls_npy_read(const char *path, void **data, cls_dtype *dtype, int *ndim,
                                size_t shape[3]);
CLS_API cls_status cls_npy_write(const char *path, const void *data, cls_dtype dtype, int ndim,
                                 const size_t shape[3]);
/* Writes len bytes to path as a whole: into a temporary file created exclusively (never
 * through a planted symlink) in path's folder, then renamed over path.  On failure (a full
 * disk, a folder that cannot be written) path is left as it was. */
CLS_API cls_status cls_file_write(const char *path, const void *data, size_t len);
/* Whether a later write of path can succeed: it is no folder and a temporary can be created
 * beside it (created and removed at once).  Lets a program refuse an unwritable output before
 * a long computation rather than after it. */
CLS_API cls_status cls_file_check_writable(const char *path);
/* Raw binary: exactly `count` elements of the dtype, host byte order. */
CLS_API cls_status cls_raw_read(const char *path, void *data, cls_dtype dtype, size_t count);
CLS_API cls_status cls_raw_write(const char *path, const void *data, cls_dtype dtype,
                                 size_t count);

/* ------------------------------------------------------------------------------------------
 * Benchmarks
 * ---------------------------------------------------------------------------------------- */
/* Times a copy kernel (dst[i] = src[i], elements of the dtype, 16 bytes per work-item) between
 * two device buffers of `bytes` each: the bandwidth yardstick of `clstencil bench`.  Runs a
 * warm-up and `reps` timed launches (profiling events), checks both ends of the copy, and
 * returns the median seconds per copy. */
CLS_API cls_status cls_bench_copy(cls_context *ctx, cls_dtype dtype, size_t bytes, size_t reps,
                                  double *seconds);

/* Minimal device-memory traffic of one step in bytes per point: the state read once and
 * written once, plus each auxiliary array read once (at the element size). */
CLS_API double cls_stencil_min_bytes_per_point(const cls_stencil *st);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_H */
