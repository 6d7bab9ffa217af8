/* plan.h: the plan object shared by the planner (plan.c) and the executors (exec_*.c). */
#ifndef CLS_PLAN_H
#define CLS_PLAN_H
#include "internal.h"

/* One trapezoid configuration (lib/plan_trapezoid.c, lib/tune_trapezoid.c). */
typedef struct cls__trap_config {
    size_t tile[3]; /* the tile, ghost zone included (1 beyond the stencil's dimensions) */
    size_t ppi;     /* points per work-item along the slowest axis */
    size_t h;
    cls_sync sync;  /* CLS_SYNC_RESTART or CLS_SYNC_BARRIER */
} cls__trap_config;

/* Device copies of a run's arrays (lib/exec_common.c). */
typedef struct cls__dev_grid {
    cl_mem buf[2];  /* the state, ping-pong; buf[0] holds the input after upload */
    cl_mem aux[16];
    size_t n_aux;
    int allocated;  /* created by this run (not kept from an earlier one) */
} cls__dev_grid;

struct cls_plan {
    cls_context *ctx;
    cls_stencil *st;          /* the plan's own copy */
    cls_dims dims;
    size_t steps;
    size_t points;
    size_t elem;
    cls_schedule schedule;
    cl_program program;       /* owned by the context's program cache */
    cl_kernel kernel;
    size_t local[3], global[3];
    int rows;                 /* naive: the CPU row kernel (naive_rows.cl) */
    size_t per_item;          /* naive: points per work-item, along x for the row kernel, else
                                 along the slowest axis */
    int from_cache;
    double build_seconds;
    /* trapezoid: height, tile (the work-group local[] with per_item points per work-item along
     * the slowest axis), tiles per stage, sync mode, resident groups (barrier mode) */
    size_t h;
    size_t tile[3];
    size_t tiles;
    cls_sync sync;
    size_t groups;
    /* The model's view (lib/tune.c, lib/tune_trapezoid.c): predicted device seconds of the
     * run's kernels (0: no prediction), of the naive and the best trapezoid plan when they were
     * compared, and how the schedule and its parameters were chosen. */
    double predicted_seconds;
    double predicted_naive, predicted_trapezoid;
    char why[512];
    int tuned;                  /* CLS_SCHEDULE_AUTO chose the trapezoid `choice` */
    cls__trap_config choice;
    int have_profile;           /* `profile` holds the stencil's measured profile */
    cls_ghost_profile profile;
    /* stream25d: loader, planes loaded ahead and rows per work-item; the work-group is
     * local[0..1], the XY tile in points tile[0..1], the planes per group per_item (tile[2]) */
    cls_loader loader;
    size_t prefetch;
    size_t item_rows; /* stream25d: adjacent rows each work-item updates */
    size_t steps_per_pass; /* stream25d: steps fused per pass (cl/stream25d_tb.cl when > 1) */
    size_t max_regs;       /* registers per work-item the kernel is built for (0: no cap;
                              applied only where the device has cl_nv_compiler_options) */
    size_t regs_ignored;   /* the cap asked for on a device without that option */
    cls_progress_fn progress;
    void *progress_user;
    /* Host-resident runs through the tiled pipeline (lib/plan_pipeline.c); NULL when the grid
     * moves whole. */
    struct cls__pipe *pipe;
    cls_pipeline pipeline;        /* what was chosen: CLS_PIPELINE_OFF when pipe is NULL */
    double predicted_total;       /* transfer model: a run, seconds, without allocation (0: none) */
    double predicted_copy;        /* ... and copy-compute-copy */
    double predicted_alloc;       /* ... what allocating the chosen run's buffers adds */
    /* Device buffers kept between runs (cls_plan_options.release_buffers off): the resident
     * executors' grid, the pipeline's sets in pipe.  A run takes them out and puts them back
     * when it succeeds, so a failed run leaves none behind. */
    int release_buffers;
    cls__dev_grid kept;
    char pipe_why[512];
};

cls_status cls__dev_grid_upload(cls_plan *p, const void *input, const void *const *aux,
                                cls__dev_grid *g);
/* The same for a run of the plan: the buffers the plan kept from its last run, else new ones
 * (g->allocated); cls__exec_finish gives them back to the plan. */
cls_status cls__dev_grid_take(cls_plan *p, const void *input, const void *const *aux,
                              cls__dev_grid *g);
void cls__dev_grid_release(cls__dev_grid *g);
/* Sets the aux buffers as kernel arguments first, first+1, ... */
cls_status cls__set_aux_args(cls_plan *p, cl_kernel k, cl_uint first, const cls__dev_grid *g);
/* Device seconds from the start of `first` to the end of `last` (0 if unavailable). */
double cls__event_span(cl_event first, cl_event last);
void cls__fill_report(const cls_plan *p, cls_report *r, double t_start, double kernel_seconds);
/* Marks whether the run allocated the plan's buffers and adds their predicted allocation to
 * the report's predicted_total_seconds (when there is one) if it did. */
void cls__report_allocation(const cls_plan *p, cls_report *r, int allocated);
/* The end of every run: when `s` (the status so far) is success, copies the state g->buf[cur]
 * into output, tells the progress callback and fills the report; then, whatever happened,
 * drains the queue after a failure and releases the events, and the buffers unless the plan
 * keeps them (success without release_buffers).  Returns the final status. */
cls_status cls__exec_finish(cls_plan *p, cls__dev_grid *g, int cur, cl_event first,
                            cl_event last, double t_start, void *output, cls_report *report,
                            cls_status s);

/* Executors: run plan->steps steps from host `input` into host `output`. */
cls_status cls__exec_naive(cls_plan *plan, const void *input, const void *const *aux,
                           void *output, cls_report *report);
cls_status cls__exec_trapezoid(cls_plan *plan, const void *input, const void *const *aux,
                               void *output, cls_report *report);
cls_status cls__exec_stream25d(cls_plan *plan, const void *input, const void *const *aux,
                               void *output, cls_report *report);
/* The tiled transfer/compute pipeline (lib/plan_pipeline.c, lib/exec_pipeline.c): decides
 * whether and how a run pipelines (`resident_error`: the message of the memory check when the
 * whole grid does not fit the device, NULL when it does), and runs it. */
cls_status cls__plan_pipeline(cls_plan *plan, const cls_plan_options *opt,
                              const char *resident_error);
void cls__pipe_release(struct cls__pipe *pipe);
/* Frees the buffers the pipeline keeps between runs (lib/exec_pipeline.c). */
void cls__pipe_bufs_release(struct cls__pipe *pipe);
void cls__pipe_describe(const cls_plan *plan, cls_plan_info *info);
cls_status cls__exec_pipeline(cls_plan *plan, const void *input, const void *const *aux,
                              void *output, cls_report *report);
/* Planners that live in their own files (plan.c has the rest). */
cls_status cls__plan_stream25d(cls_plan *plan, const cls_plan_options *opt);
/* Generates the schedule's source (template, its defines), builds or fetches the program and
 * creates `kernel` into plan->kernel. */
cls_status cls__build_kernel(cls_plan *plan, const char *tmpl, const char *defines,
                             const char *kernel);
/* Chooses a work-group shape for a one-point-per-item kernel on the plan's device. */
void cls__choose_local_size(cls_plan *plan, cl_kernel kernel, size_t local[3]);
/* The trapezoid planner (lib/plan_trapezoid.c): the model fills what opt leaves open. */
cls_status cls__plan_trapezoid(cls_plan *plan, const cls_plan_options *opt);
/* CLS_SCHEDULE_AUTO (lib/tune.c): naive or trapezoid by predicted time; sets plan->schedule
 * and plans it. */
cls_status cls__plan_auto(cls_plan *plan, const cls_plan_options *opt);
/* The naive planner (plan.c). */
cls_status cls__plan_naive(cls_plan *plan, const cls_plan_options *opt);
/* The naive kernel's points per work-item along the slowest axis for this device. */
size_t cls__default_points_per_item(cls_context *ctx, const cls_stencil *st, cls_dims dims);
#endif
