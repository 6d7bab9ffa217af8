/* pipe.h: the pipeline schedule's configuration (Visschers 2012, Sect. 2.7 and 6): host
 * arrays run through the device tile by tile, transfers of some tiles overlapping the kernels
 * of others; shared by its planner (plan.c) and its executor (exec.c, trace.c). */
#ifndef CLS_PIPE_H
#define CLS_PIPE_H

#include "exec.h"

/* The schemes (Sect. 6.2): full-size device arrays, three tile-sized buffer sets reused round
 * robin, or those staged through pinned host tiles. */
enum { CLS__PIPE_BASIC = 1, CLS__PIPE_SCALABLE = 2, CLS__PIPE_BUFFERED = 3 };

struct cls__pipe_bufs;

typedef struct cls__pipe {
    int scheme;              /* CLS__PIPE_* */
    int rect;                /* rectangular copies even where a box is contiguous */
    size_t tile[3];          /* output tile (1 beyond the stencil's dimensions) */
    size_t ntiles[3];        /* tiles per dimension */
    size_t h;                /* steps each tile computes per sweep */
    size_t halo[3];          /* the stencil's reach per step (0 beyond its dimensions): its
                                halo, or a system's sum of its stages' radii */
    size_t n_fields;         /* 1 for a single-field stencil */
    size_t n_stages;         /* a system's stages (0: a single-field stencil) */
    size_t reach[CLS__MAX_STAGES][3]; /* each stage's radius per dimension (systems) */
    size_t work;             /* a system's work boxes per buffer set (cls__pipe_work_boxes) */
    int periodic;            /* edge tiles' boxes hold the far side's values at virtual
                                coordinates past the grid's edges */
    int reuse;               /* the axis along which consecutive input boxes overlap (halo
                                reuse, basic and scalable), -1: none */
    double device_bytes;     /* what the executor allocates on the device */
    /* built */
    cl_program program;
    cl_kernel kernel;        /* cl/pipeline.cl (a system: stage 0's) */
    cl_kernel stage_kernel[CLS__MAX_STAGES]; /* a system's stages (cl/pipeline_system.cl) */
    size_t local[3];
    cl_command_queue q[3];   /* in, kernel, out: in-order, profiling */
    int from_cache;
    double build_seconds;
    struct cls__pipe_bufs *kept; /* the last run's buffers, kept for the next one (NULL: none,
                                    or release_buffers) */
    char why[1024];
} cls__pipe;

/* The inputs a tile's buffer set holds: every field, then the auxiliary arrays. */
#define CLS__PIPE_ARRAYS (CLS__MAX_FIELDS + CLS__MAX_AUX)

/* The work boxes of a system's tile for h steps: its stages write boxes apart from the input
 * boxes (which stay intact for the next tile's halo), rotated as lib/rotation.c rotates a
 * state's buffers, so that time levels take their sources' boxes and nothing is copied. */
size_t cls__pipe_work_boxes(const cls_stencil *st, size_t h);

/* Frees the buffers the configuration keeps between runs. */
void cls__pipe_bufs_release(void *config);

/* $CLSTENCIL_PIPE_TRACE (trace.c): the profiled commands of one sweep. */
typedef struct cls__pipe_trace_events {
    size_t n;
    const cl_event *ev;
    const size_t *tile, *index;
    const char *const *what;
} cls__pipe_trace_events;
int cls__pipe_trace_on(void);
void cls__pipe_trace_write(const cls__pipe *q, size_t sweep, const cls__pipe_trace_events *ev);

/* The run operation (exec.c). */
cls_status cls__pipeline_run(cls__exec *x);

#endif /* CLS_PIPE_H */
