/* plan.h: the plan object shared by the planner (plan.c) and the executors (exec_*.c). */
#ifndef CLS_PLAN_H
#define CLS_PLAN_H
#include "internal.h"

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
    cls_progress_fn progress;
    void *progress_user;
};

/* Executors: run plan->steps steps from host `input` into host `output`. */
cls_status cls__exec_naive(cls_plan *plan, const void *input, const void *const *aux,
                           void *output, cls_report *report);
/* Chooses a work-group shape for a one-point-per-item kernel on the plan's device. */
void cls__choose_local_size(cls_plan *plan, cl_kernel kernel, size_t local[3]);
/* The naive kernel's points per work-item along the slowest axis for this device. */
size_t cls__default_points_per_item(cls_context *ctx, const cls_stencil *st, cls_dims dims);
#endif
