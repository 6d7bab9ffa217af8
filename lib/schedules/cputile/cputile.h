/* cputile.h: the cputile schedule's configuration and model, shared by its planner (plan.c),
 * its model (model.c) and its executor (exec.c). */
#ifndef CLS_CPUTILE_H
#define CLS_CPUTILE_H

#include "exec.h"
#include "schedule.h"

typedef struct cls__cputile {
    size_t tile[3];      /* the points a tile's last step writes, per dimension */
    size_t height;       /* steps per pass (the scratch boxes are sized for it) */
    size_t groups;       /* work-groups of one work-item, each with its two boxes */
    size_t vector;       /* the row loops' vector length */
    int halo[3];
    size_t box;          /* points per box: the tile widened by `height` halos */
    /* built */
    cl_program program;
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
    cl_mem scratch;      /* groups x 2 boxes, allocated by the first run */
    cl_mem counter;      /* one tile counter per pass of a run */
    size_t counters;
} cls__cputile;

/* What the model needs of a request (model.c). */
typedef struct cls__cputile_cost {
    size_t n[3];         /* grid */
    int halo[3];
    int periodic;        /* tiles widen across the grid's edges instead of clipping there */
    size_t elem;         /* bytes per value */
    size_t steps;
    size_t cores;        /* compute units */
    double point_seconds; /* one update in cache on one compute unit */
    double row_seconds;  /* one run of a row of a tile (its start), on one compute unit */
    double bandwidth;    /* bytes/s (0: unknown) */
    double stream_bytes; /* bytes per point of auxiliary arrays read per step */
    double restart;      /* seconds per launch */
} cls__cputile_cost;

/* Points one box holds for a tile and height. */
size_t cls__cputile_box(const size_t tile[3], const int halo[3], size_t height);
/* Predicted seconds of `steps` steps with tiles `tile`, `height` steps per pass and `groups`
 * work-groups; *redundancy: updates computed per point and step (1: none recomputed). */
double cls__cputile_predict(const cls__cputile_cost *c, const size_t tile[3], size_t height,
                            size_t groups, double *redundancy);

cls_status cls__cputile_run(cls__exec *x);

#endif /* CLS_CPUTILE_H */
