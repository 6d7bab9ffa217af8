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
    int halo[3];         /* margin lost per step: the halo, a system's summed stage reaches */
    int pad[3];          /* a system's ghost width beyond the margins (one stage's reach) */
    size_t boxes;        /* boxes per group: 2, a system's rotation's buffers */
    size_t box;          /* points per box: the tile widened by `height` margins */
    /* built */
    cl_program program;
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
    cl_mem scratch;      /* groups x boxes, allocated by the first run */
    cl_mem counter;      /* one tile counter per pass of a run */
    size_t counters;
} cls__cputile;

/* What the model needs of a request (model.c). */
typedef struct cls__cputile_cost {
    size_t n[3];         /* grid */
    int halo[3];         /* margin lost per step (a system: its stages' reaches summed) */
    int pad[3];          /* ghost points beyond the margins (a system: one stage's widest reach) */
    size_t fields;       /* fields read and written per point (1: a single field) */
    size_t stages;       /* row sweeps per step */
    size_t boxes;        /* scratch boxes per group */
    int periodic;        /* tiles widen across the grid's edges instead of clipping there */
    size_t elem;         /* bytes per value */
    size_t steps;
    size_t cores;        /* compute units */
    double point_seconds; /* one update of the first step (reading the grid), one compute unit */
    double box_point_seconds; /* one update of a later step (reading a box in cache) */
    double row_seconds;  /* one run of a row of a tile (its start), on one compute unit */
    double box_row_seconds; /* the same in a later step */
    double bandwidth;    /* bytes/s of the grid's arrays (0: unknown) */
    double cache_bandwidth; /* bytes/s of arrays re-read within a pass (auxiliary arrays) */
    double memory_bandwidth; /* bytes/s of the memory (arrays each step reads afresh) */
    double stream_bytes; /* bytes per point of auxiliary arrays read per step */
    double fresh_bytes;  /* of those, the arrays of one slice per step (read afresh each step) */
    double restart;      /* seconds per launch */
} cls__cputile_cost;

struct cls__cpu_device;
/* The costs of a body of `reads` reads, `flops` flops and `divs` divisions per point on a CPU
 * (the row kernel's, model/cpu_rows.h) over arrays of `ws` bytes in all: the costs of a point
 * and of a row in the first step and in the later ones, and the bandwidths. */
void cls__cputile_cost_prices(cls__cputile_cost *c, const struct cls__cpu_device *d, double reads,
                              double flops, double divs, double ws);
/* Points one box holds for a tile and height: the tile widened by `height` margins of `halo`
 * and by `pad` (a system's ghosts, which its pass's loaded region can reach past the margins). */
size_t cls__cputile_box(const size_t tile[3], const int halo[3], const int pad[3], size_t height);
/* Predicted seconds of `steps` steps with tiles `tile`, `height` steps per pass and `groups`
 * work-groups; *redundancy: updates computed per point and step (1: none recomputed). */
double cls__cputile_predict(const cls__cputile_cost *c, const size_t tile[3], size_t height,
                            size_t groups, double *redundancy);

cls_status cls__cputile_run(cls__exec *x);

/* The tile loops' cost on a CPU device, for the model (probe.c). */
cls_status cls__cputile_probe(const cls__probe_env *env);
size_t cls__cputile_probe_measurements(const cls__probe_env *env);

#endif /* CLS_CPUTILE_H */
