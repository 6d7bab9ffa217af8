/* exec_stream25d.c: the stream25d schedule's executor: one launch per step, each streaming the
 * whole grid along z, over ping-pong buffers. */
#include "tune.h"

cls_status cls__exec_stream25d(cls_plan *p, const void *input, const void *const *aux,
                               void *output, cls_report *report)
{
    cls__dev_grid g;
    cl_event first = NULL, last = NULL;
    int cur = 0;
    double t_start = cls__now();
    cls_status s = cls__dev_grid_upload(p, input, aux, &g);
    if (s != CLS_SUCCESS) return s;
    /* One streaming launch per step: the naive schedule's per-step launcher. */
    s = cls__naive_launch(p, &g, &cur, &first, &last);
    return cls__exec_finish(p, &g, cur, first, last, t_start, output, report, s);
}
