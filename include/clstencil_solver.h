/* clstencil_solver.h: public API of the convergent iterative solvers (chaotic relaxation with weak
 * execution ordering, Chen et al.).  The image applications built on them are in
 * clstencil_image.h. */
#ifndef CLSTENCIL_SOLVER_H
#define CLSTENCIL_SOLVER_H

#include <stddef.h>

#include "clstencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * Solvers.  A 2D stencil read as a fixed-point map u <- F(u) (a Jacobi-type update: Poisson,
 * Laplace, Horn's shape-from-shading iteration) is applied until a convergence criterion holds
 * or a step limit is reached.  The schedules are those of the document's Sect. IV-V:
 *
 *   base        one launch per step; the host synchronises and checks convergence every step
 *   coarse      a work-group loads its data block (plus a one-halo ring) into local memory and
 *               iterates n steps there; the ring stays as loaded (no exchange); host sync every
 *               n steps
 *   ud          as coarse, and every l steps each work-group stores its top and bottom boundary
 *               rows to global memory and reloads the rows of its up/down neighbours
 *   4w          the same with all four neighbours; left/right columns in place (strided)
 *   4w-combine  the same, the left/right columns through contiguous arrays (stride 1)
 *
 * The asynchronous exchange never waits: a work-group reads whatever value its neighbour last
 * stored (or the value of the last host synchronisation when the neighbour has not run yet),
 * so it needs no forward-progress guarantee between work-groups (doc/chaotic.md).  The order in
 * which work-groups take blocks is `stripe` (consecutive groups go down a column of blocks:
 * co-resident blocks are up/down neighbours) or `square` (squares of S x S blocks).
 * ---------------------------------------------------------------------------------------- */
typedef enum cls_solver_schedule {
    CLS_SOLVER_BASE = 0,
    CLS_SOLVER_COARSE = 1,
    CLS_SOLVER_UD = 2,
    CLS_SOLVER_4W = 3,
    CLS_SOLVER_4W_COMBINE = 4
} cls_solver_schedule;

typedef enum cls_block_order {
    CLS_ORDER_STRIPE = 0, /* group g takes block (g / NBY, g % NBY): columns of blocks */
    CLS_ORDER_SQUARE = 1  /* groups fill squares of `square` x `square` blocks, row by row */
} cls_block_order;

typedef enum cls_norm {
    CLS_NORM_MAX = 0, /* max |d| */
    CLS_NORM_L2 = 1   /* sqrt(sum d^2) over the grid (not divided by the number of points) */
} cls_norm;

typedef enum cls_criterion {
    /* The update: the change of every point over the last check interval divided by its length
     * (base: u_{k+1} - u_k).  Free: computed by the iterating kernel. */
    CLS_CRITERION_UPDATE = 0,
    /* The residual of the fixed-point equation, F(u) - u, of the state at the host
     * synchronisation: one extra sweep per check on the coarse and asynchronous schedules. */
    CLS_CRITERION_RESIDUAL = 1
} cls_criterion;

/* A block-shape field (block[0], block[1], points_per_item, comm_items) left to the solver: it
 * takes the largest member of the document's family (32x20 blocks, 2 points per item, 32
 * communication items) whose pass kernel fits the device once compiled (doc/chaotic.md, "Block
 * shape").  Fields given explicitly are kept; a shape that does not fit is an error. */
#define CLS_SOLVER_AUTO ((size_t)-1)

typedef struct cls_solver_options {
    size_t size;                  /* sizeof (cls_solver_options): set by the init function
                                     (doc/guide.md, "Options") */
    cls_solver_schedule schedule; /* default CLS_SOLVER_4W_COMBINE */
    cls_block_order order;        /* default CLS_ORDER_SQUARE */
    size_t check_interval;        /* n: steps between host synchronisations, each with a
                                     convergence check (base: always 1); default 60 */
    size_t exchange_interval;     /* l: local steps between exchanges (ud, 4w, 4w-combine);
                                     default 4 */
    size_t block[2];              /* data block of one work-group; default CLS_SOLVER_AUTO
                                     (the document's 32 x 20 where it fits) */
    size_t points_per_item;       /* points each computation work-item updates, block[1]/ppi
                                     rows apart; block[1] must be a multiple; default
                                     CLS_SOLVER_AUTO (2 where it fits, else more) */
    size_t comm_items;            /* separate communication work-items per group (the
                                     document's communication threads); 0: the computation
                                     items exchange between two steps; default CLS_SOLVER_AUTO
                                     (32 where it fits, else 16, 8, 0) */
    size_t max_work_group;        /* caps the pass's work-items per group below the compiled
                                     kernel's limit (CL_KERNEL_WORK_GROUP_SIZE), e.g. to
                                     reproduce a device with a lower one; 0 = none, default */
    size_t square;                /* side of the squares of the square order, in blocks;
                                     0 = from the device's compute units */
    cls_norm norm;                /* default CLS_NORM_MAX */
    cls_criterion criterion;      /* default CLS_CRITERION_UPDATE */
    double tolerance;             /* converged when the norm <= tolerance; default 1e-4 */
    size_t max_steps;             /* step limit; default 100000 */
    double divergence_factor;     /* diverged when a norm exceeds this factor times the
                                     smallest norm seen so far (values that are not finite
                                     always count as divergence); 0 disables; default 1e6 */
    int write_unconverged;        /* also copy the last iterate to `output` when the run does
                                     not converge (the call still fails); default 0 */
    double max_seconds;           /* wall-time limit of the iterations, checked at every host
                                     synchronisation: past it the run ends as not converged
                                     (with max_steps, what bounds benchmark runs); 0 = none,
                                     the default */
} cls_solver_options;

/* Fills the defaults above. */
CLS_API void cls_solver_options_init(cls_solver_options *opt);

/* "base", "coarse", "ud", "4w", "4w-combine"; "stripe", "square"; "max", "l2";
 * "update", "residual". */
CLS_API const char *cls_solver_schedule_name(cls_solver_schedule s);
CLS_API const char *cls_block_order_name(cls_block_order o);
CLS_API const char *cls_norm_name(cls_norm n);
CLS_API const char *cls_criterion_name(cls_criterion c);
/* Parses a variant as the document names them: "base", "coarse", or an exchange with an
 * optional order, "ud-stripe", "4w-square", "4w-combine-square" (also "4w-comm-combine-square",
 * "UD-comm-stripe": case and "-comm" are ignored); sets opt->schedule and, when given,
 * opt->order. */
CLS_API cls_status cls_solver_variant_parse(const char *name, cls_solver_options *opt);
/* The variant's name: "base", "coarse", "4w-combine-square". */
CLS_API void cls_solver_variant_name(const cls_solver_options *opt, char *buf, size_t len);
CLS_API cls_status cls_norm_from_name(const char *name, cls_norm *n);
CLS_API cls_status cls_criterion_from_name(const char *name, cls_criterion *c);

typedef struct cls_solver cls_solver;

/* Validates the stencil (2D, no per-step auxiliary arrays), the sizes and the options against
 * the device, and builds (or takes from the cache) the solver's kernels.  A block that does not
 * fit the device (local memory, work-group size) fails with CLS_ERR_PLAN_INFEASIBLE and names
 * the limit.  The solver keeps its own copy of the stencil.  opt may be NULL (defaults). */
CLS_API cls_status cls_solver_create(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                     const cls_solver_options *opt, cls_solver **solver);
/* Accepts NULL. */
CLS_API void cls_solver_release(cls_solver *solver);

typedef struct cls_solver_info {
    cls_solver_options options; /* as used (defaults filled, square resolved) */
    size_t blocks[2];           /* data blocks along x and y */
    size_t work_group;          /* work-items per group of the iterating kernel: computation
                                   items (block[0] * block[1] / points_per_item) plus comm_items */
    size_t local_bytes;         /* local memory per group */
    size_t work_group_limit;    /* work-items per group the compiled pass kernel allows
                                   (CL_KERNEL_WORK_GROUP_SIZE, capped by max_work_group) */
    int from_cache;             /* as cls_plan_info */
    double build_seconds;
} cls_solver_info;

CLS_API cls_status cls_solver_describe(const cls_solver *solver, cls_solver_info *info);

typedef enum cls_solver_outcome {
    CLS_SOLVER_CONVERGED = 0,
    CLS_SOLVER_NOT_CONVERGED = 1, /* the step limit came first */
    CLS_SOLVER_DIVERGED = 2,      /* values not finite, or the norm grew by divergence_factor */
    CLS_SOLVER_FAILED = 3         /* an error stopped the run before an outcome (the status and
                                     the message say which); nothing was iterated or written */
} cls_solver_outcome;

typedef struct cls_solver_report {
    cls_solver_outcome outcome;
    size_t steps;            /* iterative steps: every point was updated this many times */
    size_t syncs;            /* host synchronisations (= convergence checks) */
    double norm;             /* the last norm measured */
    double seconds_total;    /* host wall time of the call: transfers included */
    double seconds_loop;     /* wall time of the iterations with their host synchronisations
                                (the document's execution time) */
    double seconds_device;   /* device time of the kernels (profiling events) */
    double seconds_per_step; /* seconds_loop / steps */
    /* The norm at every check: history_norms[i] after history_steps[i] steps.  Owned by the
     * report: free with cls_solver_report_clear. */
    size_t history_length;
    size_t *history_steps;
    double *history_norms;
    char message[256];       /* "converged after 1260 steps: max update 9.7e-05 <= 1e-04", ...;
                                with CLS_SOLVER_FAILED the error */
    cls_solver_info solver;  /* the solver as run (the block shape chosen); zero when the
                                solver could not be created */
} cls_solver_report;

/* Runs from `input` (NX * NY elements of the dtype; aux the auxiliary arrays in the stencil's
 * order) until the criterion holds.  Returns CLS_SUCCESS and writes `output` (which may equal
 * `input`) when it converged; CLS_ERR_NOT_CONVERGED when the step limit came first and
 * CLS_ERR_DIVERGED when the iteration diverged, leaving `output` untouched unless
 * write_unconverged is set.  Input values that are not finite are refused
 * (CLS_ERR_INVALID_ARGUMENT, naming the array and the point).  report may be NULL; a report
 * passed in is overwritten (clear it first when it holds a history) and is filled on every
 * outcome, failures included (an error: outcome CLS_SOLVER_FAILED with its message). */
CLS_API cls_status cls_solver_run(cls_solver *solver, const void *input, const void *const *aux,
                                  void *output, cls_solver_report *report);

/* Frees the report's history and zeroes it (accepts NULL and cleared reports). */
CLS_API void cls_solver_report_clear(cls_solver_report *report);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_SOLVER_H */
