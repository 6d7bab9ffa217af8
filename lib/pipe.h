/* pipe.h: the tiled transfer/compute pipeline of a plan, shared by its planner
 * (lib/plan_pipeline.c) and its executor (lib/exec_pipeline.c).  003_9039035f5da401ab.txt
 * Sect. 2.7 (tiles and padding), 6.2 (schemes), 6.4 (the model); doc/pipeline.md. */
#ifndef CLS_PIPE_H
#define CLS_PIPE_H

#include "pipeline.h"
#include "plan.h"

struct cls__pipe {
    cls_pipe_scheme scheme;  /* CLS_PIPE_BASIC, _SCALABLE or _BUFFERED */
    int rect;                /* rectangular copies even where a box is contiguous */
    size_t tile[3];          /* output tile (1 beyond the stencil's dimensions) */
    size_t ntiles[3];        /* tiles per dimension */
    size_t h;                /* steps each tile computes per sweep */
    size_t halo[3];          /* the stencil's reach per step (0 beyond its dimensions) */
    cl_kernel kernel;        /* cl/pipeline.cl */
    size_t local[3];
    cl_command_queue q[3];   /* in, kernel, out: in-order, profiling */
    double device_bytes;     /* what the executor allocates on the device */
    struct cls__pipe_bufs *kept; /* the buffers of the last run, kept for the next one (NULL:
                                    none, or cls_plan_options.release_buffers) */
};

/* Device bytes the executor holds for a scheme, tile and steps per sweep. */
double cls__pipe_device_bytes(const cls_plan *p, cls_pipe_scheme scheme, const size_t tile[3],
                              size_t h);
/* Predicted ns of the run without a pipeline within the device, allocation aside: xfer_ns
 * (one upload, one download) plus the resident schedule's predicted_seconds; naive_ns (naive
 * copy-compute-copy) when either is unknown (0). */
double cls__pipe_resident_ns(double xfer_ns, double naive_ns, double predicted_seconds);

/* $CLSTENCIL_PIPE_TRACE (lib/pipe_trace.c): the profiled commands of one sweep. */
typedef struct cls__pipe_trace_events {
    size_t n;
    const cl_event *ev;
    const size_t *tile, *index;
    const char *const *what;
} cls__pipe_trace_events;
int cls__pipe_trace_on(void);
void cls__pipe_trace_write(const struct cls__pipe *q, size_t sweep, const cls__pipe_trace_events *ev);

#endif /* CLS_PIPE_H */
