/* naive.h: the naive schedule's configuration, shared by its planner (plan.c) and its
 * executor (exec.c). */
#ifndef CLS_NAIVE_H
#define CLS_NAIVE_H

#include "exec.h"
#include "schedule.h"

typedef struct cls__naive {
    int rows;            /* row kernels (cl/naive_rows.cl, naive_system_rows.cl): a run along
                            x per work-item; else cl/naive.cl, points along the slowest axis */
    size_t per_item;     /* points per work-item: along x for the row kernel, else along the
                            slowest axis */
    size_t item_rows;    /* row kernel: rows per work-item (1 otherwise) */
    size_t vector;       /* row kernel: its vector length */
    size_t vec_x;        /* column kernel: points along x per work-item (1, 2 or 4) */
    int vec_reads;       /* ... read as aligned vectors where the body is lane-wise
                            (CLS_VEC_READS; cls__expr_lane_wise) */
    size_t local[3], global[3];
    int local_given;     /* the work-group came from the caller */
    /* A system of fields: one kernel per stage (cl/naive_system_rows.cl where `rows`, else
     * cl/naive_system.cl, points along the slowest axis), launched in order every step over
     * the state's rotating buffers (exec.h). */
    size_t n_stages;     /* 0 for a single-field stencil */
    cl_kernel stage_kernel[CLS__MAX_STAGES];
    int in_place_asked;  /* row kernel of a system: built with CLS_IN_PLACE, which writes the
                            fields cls__system_stage_in_place allows in place */
    unsigned in_place[CLS__MAX_STAGES]; /* ... those fields of stage g (0 without) */
    /* built */
    cl_program program;
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
    size_t max_regs, regs_ignored;
} cls__naive;


/* The operations the planner's table points at (exec.c, access.c). */
typedef struct cls__access_request cls__access_request;
typedef struct cls__access_out cls__access_out;
cls_status cls__naive_run(cls__exec *x);
/* The row kernel's costs on a CPU device, for the CPU model (probe.c). */
cls_status cls__naive_probe(const cls__probe_env *env);
size_t cls__naive_probe_measurements(const cls__probe_env *env);
cls_status cls__naive_publish_access(const cls__access_request *a, const void *own,
                                  cls__access_out *out);

#endif /* CLS_NAIVE_H */
