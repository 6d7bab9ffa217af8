/* trace.c: $CLSTENCIL_PIPE_TRACE names a CSV file that gets, after each sweep of the tiled
 * pipeline (exec.c), one row per command of every tile with its four profiling times: when the
 * host enqueued it (queued), handed it to the device (submit), and when it ran (start, end),
 * in us from the sweep's first enqueue.  It shows which stage of Visschers 2012's pipeline
 * (Sect. 6.4.4) holds a run back, host enqueue included, where the model and a
 * measurement disagree (doc/pipeline.md).  A diagnostic: a file that cannot be written is
 * skipped silently; the run's results do not depend on it. */
#include <stdio.h>
#include <stdlib.h>

#include "pipe.h"

int cls__pipe_trace_on(void)
{
    const char *path = getenv("CLSTENCIL_PIPE_TRACE");
    return path && *path;
}

static int times_of(cl_event e, cl_ulong t[4])
{
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED,
                                              CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    if (!e) return 0;
    for (int i = 0; i < 4; i++)
        if (clGetEventProfilingInfo(e, what[i], sizeof t[i], &t[i], NULL) != CL_SUCCESS) return 0;
    /* NVIDIA's markers (a tile with nothing new to write) report zeros: no times */
    return t[0] != 0;
}

void cls__pipe_trace_write(const cls__pipe *q, size_t sweep, const cls__pipe_trace_events *ev)
{
    const char *path = getenv("CLSTENCIL_PIPE_TRACE");
    static const char *scheme[] = {"none", "basic", "scalable", "buffered"};
    if (!path || !*path) return;
    /* the origin: the earliest enqueue of the sweep */
    cl_ulong t0 = (cl_ulong)-1, t[4];
    for (size_t i = 0; i < ev->n; i++)
        if (times_of(ev->ev[i], t) && t[0] < t0) t0 = t[0];
    if (t0 == (cl_ulong)-1) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    if (ftell(f) == 0)
        fprintf(f, "scheme,tiles,steps_per_tile,sweep,tile,command,index,queued_us,submit_us,"
                   "start_us,end_us\n");
    size_t nt = q->ntiles[0] * q->ntiles[1] * q->ntiles[2];
    for (size_t i = 0; i < ev->n; i++) {
        if (!times_of(ev->ev[i], t)) continue;
        unsigned sc = (unsigned)q->scheme < 4 ? (unsigned)q->scheme : 0;
        fprintf(f, "%s,%zu,%zu,%zu,%zu,%s,%zu", scheme[sc], nt, q->h, sweep, ev->tile[i],
                ev->what[i], ev->index[i]);
        for (int k = 0; k < 4; k++) fprintf(f, ",%.3f", (double)(long long)(t[k] - t0) * 1e-3);
        fputc('\n', f);
    }
    fclose(f);
}
