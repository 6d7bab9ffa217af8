/* stream25d.h: the stream25d schedule's configuration (Mo & Li, 2.5D streaming): 2D work-groups
 * march along z with the planes in registers and local memory, one step per pass (plan_single.c)
 * or several fused (plan_fused.c); shared by its planner and its executor. */
#ifndef CLS_STREAM25D_H
#define CLS_STREAM25D_H

#include "exec.h"

#define CLS__S25_MAX_R 2 /* window radius in every dimension: offsets within a 5x5x5 box */
#define CLS__S25_MAX_LEVELS 3 /* time levels of a system's fused steps (cl/stream25d_tb.cl) */
#define CLS__S25_MAX_FUSED_FIELDS 4 /* fields one stage of a system's fused steps updates */

/* How a plane and its ghost zone come on chip (Mo & Li Sect. 4); the parameter's names. */
enum {
    CLS__LOADER_AUTO = 0,    /* the planner decides */
    CLS__LOADER_CLASSIC = 1, /* Listing 2: every work-item loads its point into local memory,
                                edge work-items the ghost rows and columns under conditions */
    CLS__LOADER_ALIGNED = 2, /* Listing 3: the tile widened to whole memory segments left and
                                right, loaded row-major by all work-items, no conditions */
    CLS__LOADER_DIRECT = 3   /* no local memory: neighbours read from global memory (caches);
                                the variant for devices whose local memory is a copy in cache */
};

/* The one-step kernel's register window (the parameter's names). */
enum {
    CLS__WINDOW_AUTO = 0,  /* the planner decides */
    CLS__WINDOW_FULL = 1,  /* cl/stream25d.cl: every read offset of every plane in registers */
    CLS__WINDOW_COLUMN = 2 /* cl/stream25d_column.cl: the own column's planes in a register
                              queue, the centre plane in local memory (stars up to radius 4) */
};

/* What the caller fixed; 0 where left open. */
typedef struct cls__s25_request {
    size_t local_size[3];   /* the XY work-group (direct loader: row length x rows) */
    size_t points_per_item; /* planes per work-group */
    int loader;
    size_t prefetch;        /* planes loaded ahead */
    size_t rows_per_item;   /* adjacent rows per work-item */
    size_t steps_per_pass;  /* 0: the ghost-zone model's, 1: one, k > 1: k fused */
    int window;             /* CLS__WINDOW_* */
} cls__s25_request;

/* The configuration: what the planner chose and built, what the executor runs. */
typedef struct cls__s25 {
    const void *facts;      /* the planner's facts (cls__facts), while planning */
    cls_context *ctx;
    const cls_stencil *st;
    cls_dims dims;
    /* A 2D stencil runs as the 3D grid NX x 1 x NY (same buffers): st and dims are then the
     * lifted ones, owned here (cls__stencil_lift_2d), with the lifted body. */
    cls_stencil *lifted;
    struct cls_expr *lifted_expr;
    size_t steps, points, elem;
    cls__s25_request req;
    char rule[512];         /* AUTO's rule, when it chose this schedule */
    char why[512];          /* the planner's account */
    /* chosen */
    int loader;
    int window;             /* CLS__WINDOW_FULL or _COLUMN */
    size_t per_item;        /* planes per work-group */
    size_t prefetch;
    size_t item_rows;       /* adjacent rows each work-item updates */
    size_t steps_per_pass;  /* 1: cl/stream25d.cl, > 1: cl/stream25d_tb.cl */
    size_t levels;          /* fused steps of a system: the updated field's time levels */
    int fields[CLS__S25_MAX_FUSED_FIELDS > CLS__S25_MAX_LEVELS + 1
                   ? CLS__S25_MAX_FUSED_FIELDS
                   : CLS__S25_MAX_LEVELS + 1]; /* ... the updated fields in order, or the one
                                                  and its levels (the kernel's arguments: in,
                                                  out per field) */
    size_t tile[3];         /* the XY output tile and the planes per group */
    size_t local[3], global[3];
    double predicted_seconds;
    /* A system of fields (one step per pass only): one kernel per stage, launched in order every
     * step over the state's rotating buffers (exec.h), each streaming every field. */
    size_t n_stages;        /* 0 for a single-field stencil */
    cl_kernel stage_kernel[CLS__MAX_STAGES];
    /* built */
    cl_program program;
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
    size_t max_regs, regs_ignored;
} cls__s25;


/* The operations the planner's table points at (exec.c, access.c). */
typedef struct cls__access_request cls__access_request;
typedef struct cls__access_out cls__access_out;
cls_status cls__stream25d_run(cls__exec *x);
cls_status cls__stream25d_publish_access(const cls__access_request *a, const void *own,
                                  cls__access_out *out);

#endif /* CLS_STREAM25D_H */
