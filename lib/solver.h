/* solver.h: the solver object shared by lib/solver.c (options, checks, kernels) and
 * lib/exec_chaotic.c (the iterations and their host synchronisations). */
#ifndef CLS_SOLVER_H
#define CLS_SOLVER_H

#include "clstencil_image.h"
#include "clstencil_solver.h"
#include "internal.h"

struct cls_solver {
    cls_context *ctx;
    cls_stencil *st;          /* the solver's own copy */
    cls_dims dims;
    size_t points, elem;
    cls_solver_options opt;   /* defaults filled, square resolved */
    int halo[3];
    size_t nb[2];             /* data blocks along x and y */
    size_t groups;            /* work-groups of a pass: one per block */
    size_t wg;                /* work-items per group of the pass */
    size_t wg_limit;          /* the compiled pass's CL_KERNEL_WORK_GROUP_SIZE, capped by
                                 opt.max_work_group */
    size_t local_bytes;       /* local memory per group of the pass */
    size_t step_local[2];     /* the synchronous step kernel's work-group */
    size_t step_global[2];
    size_t step_groups;
    size_t cols_elems;        /* the combined column arrays (4w-combine) */
    cl_program program;       /* owned by the context's program cache */
    cl_kernel k_step, k_reduce, k_pass, k_pack;
    int from_cache;
    double build_seconds;
};

/* Fills the CLS_SOLVER_AUTO fields of o's block shape with the first member of the document's
 * family whose pass needs at most `limit` work-items per group (lib/solver.c says the order).
 * Returns 0, or -1 when none does (o unchanged). */
int cls__solver_fit_block(cls_solver_options *o, size_t limit);

/* The run loop (lib/exec_chaotic.c). */
cls_status cls__solver_exec(cls_solver *s, const void *input, const void *const *aux,
                            void *output, cls_solver_report *report);

/* ---------------------------------------------------------------- the applications' helpers
 * (lib/image_common.c) */
/* A usable image: not NULL, sides and channels in range, every sample finite; `what` names it
 * in messages ("target"). */
cls_status cls__image_check(const cls_image *img, const char *what);
/* Arrays of n values of a dtype: allocation (zeroed), element access. */
void *cls__typed_alloc(size_t n, cls_dtype dtype);
void cls__typed_set(void *a, size_t i, double v, cls_dtype dtype);
double cls__typed_get(const void *a, size_t i, cls_dtype dtype);
/* Whether pixel i of a mask image is inside (the mean of its channels >= 0.5). */
int cls__mask_in(const cls_image *mask, size_t i);
/* Creates a solver for the stencil, runs it once and releases it. */
cls_status cls__solve_once(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                           const cls_solver_options *opt, const void *input,
                           const void *const *aux, void *output, cls_solver_report *report);
#endif
