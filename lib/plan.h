/* plan.h: the plan object of the planner core (lib/plan.c) and the runs (lib/plan_run.c). */
#ifndef CLS_PLAN_H
#define CLS_PLAN_H

#include "schedule.h"

/* A chosen parameter as the plan reports it ("trapezoid.height", "4"). */
typedef struct cls__plan_param {
    char *name, *value;
} cls__plan_param;

struct cls_plan {
    cls_context *ctx;
    cls_stencil *st;            /* the plan's own copy */
    struct cls_expr *expr;      /* its parsed body */
    cls_dims dims;
    size_t steps, points, elem;
    cls__params params;
    /* The configuration that advances device-resident states (ops NULL: none, the grid does
     * not fit the device), and the host schedule's that runs host arrays through the device
     * (ops NULL: cls_plan_run copies the grid in, advances it resident and copies it out). */
    cls__candidate resident;
    cls__candidate host;
    /* Every candidate priced while planning, both phases, the chosen ones marked. */
    cls__candidates considered;
    int resident_index, host_index; /* in considered, -1: none */
    cls__description desc;      /* of the resident configuration (the host one's if none) */
    cls__plan_param *param;     /* the chosen configurations' parameters */
    size_t n_param;
    char *why, *host_why;
    double predicted_total;     /* a host-to-host run, allocation aside (0: no prediction) */
    double predicted_copy;      /* ... the resident copy-compute-copy alternative */
    double predicted_alloc;     /* what allocating the run's buffers adds */
    cls_progress_fn progress;
    void *progress_user;
    int release_buffers;
    cls_state *kept;            /* host-to-host runs of a resident plan: the device buffers kept
                                   for the next run (NULL: none) */
};


/* cls_plan_create with flags: CLS__PLAN_RESIDENT_ONLY asks no host schedule (measurements of
 * a resident configuration). */
#define CLS__PLAN_RESIDENT_ONLY 1u
cls_status cls__plan_create(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                            const cls_plan_options *opt, unsigned flags, cls_plan **out);

#endif /* CLS_PLAN_H */
