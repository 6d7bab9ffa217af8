/* schedule.h: the interface between the planner core (lib/plan.c) and the schedules, each a
 * folder under lib/schedules/ that fills one cls__schedule_ops table (doc/architecture.md,
 * "Schedules").  The core knows this table and nothing of any schedule. */
#ifndef CLS_SCHEDULE_H
#define CLS_SCHEDULE_H

#include "exec.h"

/* Opaque to the core: the device model (model/) and the measured profile (clstencil_tune.h). */
typedef struct cls_model cls_model;
typedef struct cls_ghost_profile cls_ghost_profile;
struct cls_expr;
typedef struct cls__schedule_ops cls__schedule_ops;
typedef struct cls__access_request cls__access_request;
typedef struct cls__access_out cls__access_out;

/* ------------------------------------------------------------------------------------------
 * Parameters.  A schedule declares what it takes; users give them as "schedule.name=value"
 * (cls_plan_options.params, `clstencil run --param`), the core parses and checks them against
 * these declarations, and the schedule reads the values with cls__param_get.
 * ---------------------------------------------------------------------------------------- */
typedef enum cls__param_kind {
    CLS__PARAM_SIZE = 0,  /* one integer */
    CLS__PARAM_SIZES = 1, /* one to three integers, "64x2x1" (missing ones read as 0) */
    CLS__PARAM_NAME = 2   /* one of `names`: the value read is its index */
} cls__param_kind;

typedef struct cls__param_desc {
    const char *name;         /* "height": the public name is "<schedule>.height" */
    cls__param_kind kind;
    size_t lo, hi;            /* every integer in lo..hi */
    const char *const *names; /* CLS__PARAM_NAME: the accepted values, NULL-terminated */
    const char *doc;          /* one line for `clstencil schedules` and doc/guide.md */
} cls__param_desc;

/* The parsed "schedule.name=value" list of a plan request. */
typedef struct cls__param_value {
    const cls__schedule_ops *ops;
    const cls__param_desc *desc;
    size_t v[3];
    size_t count; /* integers given (1 for SIZE and NAME) */
} cls__param_value;

typedef struct cls__params {
    cls__param_value *v;
    size_t n;
} cls__params;

/* Parses text against the registered schedules' declarations; a bad name or value fails with a
 * message that names it and lists what the schedule takes.  NULL or "" gives an empty list. */
cls_status cls__params_parse(cls_context *ctx, const char *text, cls__params *out);
void cls__params_free(cls__params *ps);
/* The value of ops' parameter `name`: returns how many integers were given (0: absent) and
 * copies them into v (zeros after the last one).  NAME parameters read as their index. */
size_t cls__param_get(const cls__params *ps, const cls__schedule_ops *ops, const char *name,
                      size_t v[3]);
/* The one schedule whose parameters the list names among those with (flags & CLS__SCHED_HOST)
 * as given, NULL when it names none or several. */
const cls__schedule_ops *cls__params_single_schedule(const cls__params *ps, unsigned flags);

/* ------------------------------------------------------------------------------------------
 * Facts: what the core knows about a request, computed once and handed to every schedule.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls__facts {
    cls_context *ctx;
    const cls_device_info *dev;
    const cls_stencil *st;           /* the plan's own copy */
    const struct cls_expr *expr;     /* its parsed body */
    cls_dims dims;
    size_t steps, points, elem;
    const cls_model *model;          /* the context's device model; NULL when none matched */
    const cls_ghost_profile *profile; /* the stencil's measured profile on this device, NULL
                                        when none is known (a schedule may measure it:
                                        cls__facts_set_profile) */
    cls_ghost_profile *profile_copy;  /* the facts' own copy (freed with them) */
    unsigned version;                /* bumped whenever a fact above changes */
    int measure_allowed;             /* a schedule may measure what it lacks (the run is long
                                        enough to repay it and nothing preferred is offered) */
    const char *measure_denied;      /* why not, when !measure_allowed */
    double min_bytes_per_point;      /* state read and written once, aux arrays read once */
    double bandwidth;                /* bytes/s: the model's measured bandwidth, else its peak
                                        (0: unknown) */
    double restart_seconds;          /* one kernel launch (0: unknown) */
    double device_cap;               /* bytes a run may hold on the device */
    int fits;                        /* the whole grid (two state copies and the aux arrays)
                                        fits one allocation each and the cap */
    const char *fit_error;           /* why not, when !fits */
    const cls__params *params;
    size_t max_registers;            /* cls_plan_options.max_registers */
    int host_pinned, release_buffers;
    /* Only in the host phase: the resident pick that a host schedule competes with (NULL when
     * the grid has none) and its predicted kernel seconds (0: none). */
    const char *resident;
    double resident_seconds;
} cls__facts;

/* Records (a copy of) a profile measured or loaded by a schedule, for every schedule to use. */
cls_status cls__facts_set_profile(cls__facts *f, const cls_ghost_profile *p);

/* Whether a system's run may hold every field twice on the device (a kernel that reads one set
 * of the fields while it writes the other: fused steps, trapezoid tiles; exec.h,
 * cls__exec_field_sets) with the auxiliary arrays, within the bytes a run may use; when not,
 * why (the bytes and the cap).  The facts' own check (fits) counts the rotation's buffers, one
 * fewer for a field and its time level. */
int cls__facts_fit_field_sets(const cls__facts *f, char *why, size_t len);

/* ------------------------------------------------------------------------------------------
 * Candidates: configurations a schedule can run for the facts, each priced by the model.
 * ---------------------------------------------------------------------------------------- */
typedef enum cls__rank {
    CLS__RANK_DECLINED = -1, /* shown in why, never chosen unless the schedule is asked for */
    CLS__RANK_NORMAL = 0,    /* chosen by predicted time */
    CLS__RANK_PREFERRED = 1  /* a rule of the device model says it wins: chosen first */
} cls__rank;

typedef struct cls__candidate {
    const cls__schedule_ops *ops;
    void *config;             /* the schedule's private struct (ops->release frees it) */
    cls__rank rank;
    double seconds;           /* predicted device seconds of the run's kernels (0: none) */
    /* Host phase: a run from and to host arrays, transfers included (0: no prediction). */
    double total_seconds;     /* this candidate's run, allocation aside */
    double alloc_seconds;     /* what allocating its buffers adds */
    double copy_seconds;      /* the resident alternative: copy in, compute, copy out */
    double copy_alloc_seconds;
    char *why;                /* how it was chosen or priced, one or two sentences */
} cls__candidate;

typedef struct cls__candidates {
    cls__candidate *c;
    size_t n, cap;
} cls__candidates;

/* Appends a candidate (config is owned by the list from here on, even on failure). */
cls_status cls__candidate_add(cls__candidates *list, const cls__schedule_ops *ops, void *config,
                              cls__rank rank, double seconds, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void cls__candidates_clear(cls__candidates *list);

/* ------------------------------------------------------------------------------------------
 * What describe reports (cls_plan_describe, the plan's parameters).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls__description {
    size_t local[3], global[3];
    size_t max_registers;     /* the register cap the kernel was built with (0: none) */
    int from_cache;
    double build_seconds;
    char *params;             /* "trapezoid.height=4 ...": grown by cls__describe_param */
    size_t len, cap;
} cls__description;

/* Appends "<schedule>.<name>=<value>" to d->params. */
void cls__describe_param(cls__description *d, const cls__schedule_ops *ops, const char *name,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------------------------------
 * The operations table.
 * ---------------------------------------------------------------------------------------- */
/* How a schedule was asked for (the `forced` argument of candidates). */
enum { CLS__NOT_FORCED = 0, CLS__FORCED_BY_PARAMS = 1, CLS__FORCED_BY_NAME = 2 };

/* What `clstencil probe` lends a schedule that measures its own model's costs (lib/probe.c):
 * the context, the model being filled, and the probe's sampling and reporting. */
typedef struct cls__probe_env {
    cls_context *ctx;
    cls_model *m;                 /* set keys with cls_model_set */
    int quick;
    size_t min_rounds, max_rounds; /* rounds of samples of one measurement */
    double seconds;               /* stop after this much time once min_rounds are done */
    /* Progress: one step of measurement `key` (fails when the caller cancels). */
    cls_status (*step)(void *probe, const char *key, const char *label);
    /* One finished measurement: its value (in unit), spread and samples. */
    void (*report)(void *probe, const char *key, const char *label, const char *unit,
                   double bytes, double value, double spread, size_t reps);
    /* A value that could not be derived from the measurements, and why (the model keeps its
     * default, marked assumed). */
    void (*unfitted)(void *probe, const char *key, const char *label, const char *why);
    void *probe;
} cls__probe_env;

/* For a schedule's probe: a model value the probe has set so far (0 when it has none); one
 * sample of a case, the device time of a step of plan's run in microseconds; and a case's n
 * samples (us, sorted in place) reported as their 10th percentile, which stands for the case
 * (other work on the cores only ever slows it), with their spread, and returned. */
double cls__probe_value(const cls__probe_env *env, const char *key);
cls_status cls__probe_sample(cls_plan *plan, const void *in, void *out, double *us);
double cls__probe_report_low(const cls__probe_env *env, const char *key, const char *label,
                             double bytes, double *us, size_t n);

#define CLS__SCHED_HOST 1u  /* runs host-resident grids tile by tile (a transfer schedule): asked
                               after the resident pick, for runs from and to host arrays and for
                               grids above the device's memory */

struct cls__schedule_ops {
    const char *name;                /* "naive": public name and parameter prefix */
    int id;                          /* its cls_schedule value */
    unsigned flags;                  /* CLS__SCHED_* */
    const char *summary;             /* one line: what it does and where it comes from */
    const cls__param_desc *params;   /* what it takes, ended by a {NULL} entry */
    /* Loads what the schedule knows about the stencil on this device without measuring (a
     * cached profile) into the facts, for every schedule to price with; may be NULL. */
    cls_status (*load_facts)(cls__facts *f);
    /* Offers configurations for the facts, priced; `forced` (CLS__FORCED_*): the user named
     * this schedule or gave its parameters, or it is the only way to run the grid (it must
     * offer what it can, and fail with the reason when it cannot).  A schedule that
     * cannot run here returns an error status with cls__fail's message: the core reports it
     * when the schedule was asked for, and as a declined candidate otherwise. */
    cls_status (*candidates)(cls__facts *f, int forced, cls__candidates *out);
    /* Builds the chosen configuration: program, kernels, launch geometry, into its config.
     * It may refine the configuration (a kernel that allows fewer work-items than asked) and
     * its prediction. */
    cls_status (*build)(const cls__facts *f, cls__candidate *c);
    /* Advances the run's state by x->steps steps (exec.h). */
    cls_status (*run)(cls__exec *x);
    void (*describe)(const void *config, cls__description *d);
    /* The CuMAPz name of the configuration's mapping variant ("naive-32x8"); may be NULL. */
    void (*variant_name)(const void *config, char *name, size_t len);
    /* Appends to out the access descriptions (doc/memory-analysis.md) of the mapping variants
     * the schedule's template can run for the request (lib/access_publish.h), or of its own
     * configuration `own` alone when own is not NULL.  May be NULL: it publishes none. */
    cls_status (*publish_access)(const cls__access_request *a, const void *own,
                                 cls__access_out *out);
    /* Frees the device buffers a configuration keeps between runs (host schedules); may be
     * NULL. */
    void (*release_buffers)(void *config);
    /* Frees a configuration and whatever build created in it.  Accepts NULL. */
    void (*release)(void *config);
    /* Measures on the device what the schedule's model needs and sets it in env->m (`clstencil
     * probe`); measurements() says how many it reports.  May be NULL: it needs nothing. */
    cls_status (*probe)(const cls__probe_env *env);
    size_t (*measurements)(const cls__probe_env *env);
};

/* ---------------------------------------------------------------- the registry */
/* The i-th registered schedule, NULL past the end (lib/schedules/registry.c). */
const cls__schedule_ops *cls__schedule_at(size_t i);
const cls__schedule_ops *cls__schedule_find(const char *name);
const cls__schedule_ops *cls__schedule_by_id(int id);
/* Adds a schedule at run time (tests; a plug-in); its id is assigned and returned through
 * ops->id's storage.  CLS_ERR_INVALID_ARGUMENT when the name is taken or the table full. */
cls_status cls__schedule_register(cls__schedule_ops *ops);

/* ---------------------------------------------------------------- helpers for planners */
/* Generates the source for the schedule's template with its defines and update-function
 * variants (lib/codegen.c), builds it or takes it from the cache, creates `kernel_name`, and
 * applies the register cap where the device takes one (*max_regs is cleared and
 * *regs_ignored set where it does not). */
typedef struct cls__built {
    cl_program program;       /* owned by the context's program cache */
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
    size_t max_regs, regs_ignored;
} cls__built;

/* variants: the CLS__UPDATE_* the template calls besides cls_update and cls_update_interior
 * (internal.h). */
cls_status cls__build_kernel(const cls__facts *f, const char *tmpl, const char *defines,
                             unsigned variants, const char *kernel_name, size_t max_regs,
                             cls__built *b);
/* The same for one stage of a system (cls__codegen_stage in internal.h says what the
 * template gets). */
cls_status cls__build_stage_kernel(const cls__facts *f, size_t stage, const char *tmpl,
                                   const char *defines, const char *kernel_name,
                                   size_t max_regs, cls__built *b);
/* Releases what cls__build_kernel created (the program belongs to the context's cache). */
void cls__built_release(cls__built *b);
/* The kernel's work-group limit on the device (CL_KERNEL_WORK_GROUP_SIZE; 0 unknown). */
size_t cls__kernel_wg_limit(cls_context *ctx, cl_kernel k);
/* A work-group shape for a kernel whose work-items each take x_per_item consecutive points
 * along x (1: one point per item) on the device: the model's items per group, along x its row
 * (tuning.group_row_*) counted in points where row_in_points (x_per_item fewer items), else in
 * items; never more items along x than the grid needs. */
void cls__choose_local_size(const cls__facts *f, cl_kernel kernel, size_t x_per_item,
                            int row_in_points, size_t local[3]);
/* The model's number at `key` ("compute.clock_mhz"), 0 when unknown or there is no model. */
double cls__facts_model(const cls__facts *f, const char *key);

/* ---------------------------------------------------------------- the core, for planners */
/* The facts of an existing plan (its stencil, grid, steps, the context's model and profile);
 * free them with cls__facts_free. */
cls_status cls__facts_of_plan(cls_plan *p, cls__facts *f);
void cls__facts_free(cls__facts *f);
/* The configuration a plan advances device-resident states with (NULL: none). */
void *cls__plan_resident_config(cls_plan *p);
/* Advances a state by `steps` with the plan (lib/plan_run.c); *kernel_seconds: the device time
 * of its kernels. */
cls_status cls__plan_advance(cls_plan *p, cls_state *state, size_t steps, size_t done_before,
                             size_t total, double *kernel_seconds);
/* Fills a state's field and auxiliary arrays (per-step ones with `slices` grids) with constants
 * (timing runs: no host data moves) and marks them written. */
cls_status cls__state_refill(cls_state *s, size_t slices);
/* The device seconds of one step of the baseline schedule (the registry's first) on a grid of
 * the stencil: the median of `reps` timed steps after an untimed one. */
cls_status cls__baseline_step_seconds(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                      size_t reps, double *seconds);

#endif /* CLS_SCHEDULE_H */
