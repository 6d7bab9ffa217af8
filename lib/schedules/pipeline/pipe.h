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
    size_t halo[3];          /* the stencil's reach per step (0 beyond its dimensions) */
    int reuse;               /* the axis along which consecutive input boxes overlap (halo
                                reuse, basic and scalable), -1: none */
    double device_bytes;     /* what the executor allocates on the device */
    /* built */
    cl_program program;
    cl_kernel kernel;        /* cl/pipeline.cl */
    size_t local[3];
    cl_command_queue q[3];   /* in, kernel, out: in-order, profiling */
    int from_cache;
    double build_seconds;
    struct cls__pipe_bufs *kept; /* the last run's buffers, kept for the next one (NULL: none,
                                    or release_buffers) */
    char why[1024];
} cls__pipe;

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
